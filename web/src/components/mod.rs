//! One component per file. Each reads the [`Playground`](crate::state::Playground) from context
//! or takes ready-made data from [`analysis`](crate::analysis) as props; none computes anything.

pub mod config_form;
pub mod editor;
pub mod find_nodes_that_fit;
pub mod form_doc;
pub mod form_field;
pub mod form_notice;
pub mod header;
pub mod inspector;
pub mod node_fields;
pub mod node_form;
pub mod node_row;
pub mod placements;
pub mod pod_fields;
pub mod pod_form;
pub mod pod_row;
pub mod policy_argument;
pub mod policy_form;
pub mod prioritize_nodes;
pub mod schedule_one;
pub mod select_host;
pub mod warnings;

use leptos::prelude::*;

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
