//! One component per file (with its own small parts). Each takes from context only the
//! [`state`](crate::state) it reads, or ready-made data from [`analysis`](crate::analysis) as
//! props; none computes anything.

pub mod assume_bind;
pub mod cluster_view;
pub mod config_form;
pub mod config_form_v1;
pub mod controls;
pub mod devices_form;
pub mod dra_row;
pub mod editor;
pub mod editors;
pub mod embed_view;
pub mod event_log;
pub mod extender_calls;
pub mod extenders_form;
pub mod extenders_panel;
pub mod find_nodes_that_fit;
pub mod first_screen;
pub mod form_doc;
pub mod form_field;
pub mod form_notice;
pub mod header;
pub mod heat_map;
pub mod help;
pub mod import_export;
pub mod inspector;
pub mod lesson_panel;
pub mod link_banner;
pub mod node_card;
pub mod node_fields;
pub mod node_form;
pub mod node_row;
pub mod notice_bar;
pub mod object_list;
pub mod pdb_view;
pub mod placements;
pub mod plugin_statuses;
pub mod plugins_panel;
pub mod pod_fields;
pub mod pod_form;
pub mod pod_row;
pub mod policy_argument;
pub mod policy_form;
pub mod preempt;
pub mod prioritize_nodes;
pub mod questions_panel;
pub mod queue_view;
pub mod recent_work;
pub mod row_actions;
pub mod run_status;
pub mod scenario_menus;
pub mod schedule_one;
pub mod scheduler_switch;
pub mod search_box;
pub mod select_host;
pub mod share_link;
pub mod term;
pub mod undo_redo;
pub mod warnings;

use leptos::prelude::*;
use std::future::Future;

/// Rows of a node table shown before "show all".
pub const ROW_LIMIT: usize = 30;

/// How many rows a long table shows: [`ROW_LIMIT`], or all of them once asked.
pub fn rows_shown(show_all: RwSignal<bool>) -> usize {
    if show_all.get() {
        usize::MAX
    } else {
        ROW_LIMIT
    }
}

/// The button under a table of more than [`ROW_LIMIT`] rows that shows all of them, or the
/// first ones again.
#[component]
pub fn ShowAllRows(
    show_all: RwSignal<bool>,
    total: usize,
    testid: &'static str,
    /// What the rows are (`evaluated nodes`).
    noun: &'static str,
) -> impl IntoView {
    (total > ROW_LIMIT).then(|| {
        view! {
            <button class="link" data-testid=testid on:click=move |_| show_all.update(|s| *s = !*s)>
                {move || if show_all.get() { "show the first rows only".to_string() } else { format!("show all {total} {noun}") }}
            </button>
        }
    })
}

/// Priority bands, lowest first: (CSS class, lowest priority in the band, legend text).
pub const PRIORITY_BANDS: [(&str, i32, &str); 6] = [
    ("prio-neg", i32::MIN, "< 0"),
    ("prio-zero", 0, "0"),
    ("prio-low", 1, "1 – 999"),
    ("prio-mid", 1000, "10³ – 10⁵"),
    ("prio-high", 100_000, "≥ 10⁵"),
    ("prio-system", 1_000_000_000, "system (≥ 10⁹)"),
];

/// The CSS class that colours a pod of this priority.
pub fn priority_class(priority: i32) -> &'static str {
    PRIORITY_BANDS
        .iter()
        .rev()
        .find(|(_, low, _)| priority >= *low)
        .map_or("prio-zero", |(class, _, _)| class)
}

/// The colour key of pod priorities.
#[component]
pub fn PriorityLegend() -> impl IntoView {
    view! {
        <span class="legend priority-legend" title="Pod colours encode priority">
            {PRIORITY_BANDS
                .iter()
                .map(|(class, _, text)| view! { <span class="legend-item"><span class=format!("dot {class}")></span>{*text}</span> })
                .collect_view()}
        </span>
    }
}

/// Text with `backticked` spans shown as code, as the core writes commands in its hints.
pub fn with_code(text: &str) -> impl IntoView {
    text.split('`')
        .enumerate()
        .map(|(i, part)| {
            let part = part.to_string();
            if i % 2 == 1 {
                view! { <code>{part}</code> }.into_any()
            } else {
                part.into_any()
            }
        })
        .collect_view()
}

/// Inserts zero-width spaces at camel-case boundaries so long Go names such as
/// `BalancedResourceAllocation` can wrap inside a narrow column header.
pub fn camel_breaks(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 8);
    let mut prev_lower = false;
    for c in name.chars() {
        if c.is_uppercase() && prev_lower {
            out.push('\u{200B}');
        }
        prev_lower = c.is_lowercase();
        out.push(c);
    }
    out
}

/// A view whose code is fetched on first use: `view` is a `#[lazy]` function's future (a
/// split point: `scripts/split-page.sh` cuts its code out of the page's first load). Nothing is
/// drawn until the code has arrived.
pub fn on_demand(view: impl Future<Output = AnyView> + Send + 'static) -> impl IntoView {
    view! { <Suspense fallback=|| ()>{Suspend::new(view)}</Suspense> }
}

/// [`on_demand`], fetched the first time `wanted` holds and kept from then on (a panel whose
/// code need not come before it first has something to show).
pub fn on_demand_once<F>(
    wanted: impl Fn() -> bool + Send + Sync + 'static,
    view: fn() -> F,
) -> impl IntoView
where
    F: Future<Output = AnyView> + Send + 'static,
{
    let once = Memo::new(move |was: Option<&bool>| was == Some(&true) || wanted());
    view! { <Show when=move || once.get()>{on_demand(view())}</Show> }
}
