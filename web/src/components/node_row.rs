//! One node in the node form: a collapsed line with its name and key numbers that expands
//! into the node's fields.

use super::form_doc::FormDoc;
use super::node_fields::NodeFields;
use super::node_form::{NodeListed, Nodes};
use super::object_list::RowOpen;
use leptos::prelude::*;

/// A node's row.
#[component]
pub fn NodeRow(
    doc: FormDoc,
    row: Memo<Option<NodeListed>>,
    expanded: RwSignal<Option<String>>,
    filter: RwSignal<String>,
) -> impl IntoView {
    let open = RowOpen::new::<Nodes>(row, expanded);
    let name = open.name;
    let is_open = move || open.is_open.get();
    let toggle = move |_| open.toggle();
    let facts = move || {
        row.with(|r| {
            let Some(r) = r else { return String::new() };
            let s = &r.summary;
            let or_dash = |x: &str| {
                if x.is_empty() {
                    "–".to_string()
                } else {
                    x.to_string()
                }
            };
            format!(
                "{} CPU · {} · {} pods",
                or_dash(&s.cpu),
                or_dash(&s.memory),
                or_dash(&s.pods)
            )
        })
    };
    let cordoned = move || row.with(|r| r.as_ref().is_some_and(|r| r.summary.unschedulable));
    let taints = move || row.with(|r| r.as_ref().map_or(0, |r| r.summary.taints));
    view! {
        <div class="form-row" class:open=is_open data-testid="node-form-row" data-node=name>
            <button class="form-row-head" aria-expanded=move || is_open().to_string() on:click=toggle>
                <span class="form-row-name">{name}</span>
                <span class="form-row-facts">{facts}</span>
                <Show when=cordoned>
                    <span class="form-badge">"cordoned"</span>
                </Show>
                <Show when=move || { taints() > 0 }>
                    <span class="form-badge">
                        {move || if taints() == 1 { "1 taint".to_string() } else { format!("{} taints", taints()) }}
                    </span>
                </Show>
            </button>
            <Show when=is_open>
                <NodeFields doc=doc row=row expanded=expanded filter=filter/>
            </Show>
        </div>
    }
}
