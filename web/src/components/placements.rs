//! The placements table: every pod in input order, its phase and node at the current position.
//! Clicking a row selects the pod everywhere and shows its last cycle in the inspector. Big
//! scenarios show the first rows and a filter.

use super::priority_class;
use super::search_box::SearchBox;
use crate::state::{RunPosition, Selected};
use leptos::prelude::*;

/// Rows shown at once.
const SHOWN: usize = 150;

/// One row, ready to render.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Row {
    pod: usize,
    short: String,
    priority: i32,
    requests: String,
    phase: &'static str,
    node: Option<String>,
    nominated: Option<String>,
    cycle: Option<usize>,
}

/// Where every pod is.
#[component]
pub fn Placements() -> impl IntoView {
    let position = expect_context::<RunPosition>();
    let filter = RwSignal::new(String::new());
    let rows = Memo::new(move |_| {
        let needle = filter.get().to_lowercase();
        let info = position.info.get();
        position.frame.with(|f| {
            let (Some(f), Some(info)) = (f.as_ref(), info) else {
                return (0, Vec::new());
            };
            let mut total = 0;
            let mut rows = Vec::new();
            for &p in &info.input_order {
                let (Some(s), Some(status)) = (info.pods.get(p), f.pods.get(p)) else {
                    continue;
                };
                let matches = needle.is_empty()
                    || s.short.to_lowercase().contains(&needle)
                    || status.phase.to_lowercase() == needle
                    || status
                        .node
                        .as_deref()
                        .is_some_and(|n| n.to_lowercase().contains(&needle));
                if !matches {
                    continue;
                }
                total += 1;
                if rows.len() < SHOWN {
                    rows.push(Row {
                        pod: p,
                        short: s.short.clone(),
                        priority: s.priority,
                        requests: s.requests.clone(),
                        phase: status.phase,
                        node: status.node.clone(),
                        nominated: status.nominated.clone(),
                        cycle: status.last_cycle,
                    });
                }
            }
            (total, rows)
        })
    });
    view! {
        <div class="placements">
            <div class="placements-head">
                <span class="card-hint">"In input order, as they are at this point of the run. Click one to inspect its cycle."</span>
                <SearchBox value=filter class="filter" placeholder="filter: name, node or phase" label="Filter pods" test_id="placements-filter"/>
            </div>
            <div class="table-scroll placements-scroll">
                <table class="placements-table" data-testid="placements">
                    <thead>
                        <tr>
                            <th scope="col">"Pod"</th>
                            <th scope="col" class="num">"Priority"</th>
                            <th scope="col">"Phase"</th>
                            <th scope="col">"Node"</th>
                            <th scope="col" class="num" title="Its last scheduling cycle so far">"Cycle"</th>
                        </tr>
                    </thead>
                    <tbody>
                        <For
                            each=move || rows.get().1
                            key=|row| row.clone()
                            children=move |row| view! { <PlacementRow row=row/> }
                        />
                    </tbody>
                </table>
                {move || {
                    let (total, shown) = rows.with(|(t, r)| (*t, r.len()));
                    (total > shown).then(|| view! { <p class="more">{format!("showing {shown} of {total} pods; filter to find the others")}</p> })
                }}
            </div>
        </div>
    }
}

#[component]
fn PlacementRow(row: Row) -> impl IntoView {
    let selection = expect_context::<Selected>();
    let pod = row.pod;
    let selected = move || selection.pod.get() == Some(pod);
    let phase_class = format!("phase phase-{}", row.phase.to_lowercase().replace(' ', "-"));
    let node = match (&row.node, &row.nominated) {
        (Some(n), _) => n.clone(),
        (None, Some(n)) => format!("(nominated: {n})"),
        (None, None) => "—".into(),
    };
    let node_title = node.clone();
    view! {
        <tr
            class="pod-row"
            class:selected=selected
            aria-selected=move || selected().to_string()
            tabindex="0"
            data-testid="pod-row"
            data-pod=row.short.clone()
            on:click=move |_| selection.select_pod(pod)
            on:keydown=move |ev| {
                if ev.key() == "Enter" || ev.key() == " " {
                    ev.prevent_default();
                    selection.select_pod(pod);
                }
            }
        >
            <td class="pod-name" title=row.short.clone()>
                <span class=format!("dot {}", priority_class(row.priority))></span>{row.short.clone()}
                <span class="requests-under">{row.requests.clone()}</span>
            </td>
            <td class="num">{row.priority}</td>
            <td data-testid="pod-phase">
                <span class=phase_class>{row.phase}</span>
            </td>
            <td class="node" data-testid="pod-node" title=node_title>{node}</td>
            <td class="num muted cycle">{row.cycle.map(|c| (c + 1).to_string()).unwrap_or_else(|| "—".into())}</td>
        </tr>
    }
}
