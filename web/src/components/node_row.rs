//! One node in the node form: a collapsed line with its name and key numbers that expands
//! into the node's fields; and [`Nodes`], the node form's kind of listed object.

use super::form_doc::FormDoc;
use super::node_fields::NodeFields;
use super::object_list::{Listed, ListedKind, RowOpen};
use crate::forms::node::{self, NodeSummary};
use crate::forms::Document;
use leptos::prelude::*;
use serde_json::Value;

/// One listed node.
pub type NodeListed = Listed<NodeSummary>;

/// Nodes in an [`ObjectList`](super::object_list::ObjectList).
pub struct Nodes;

impl ListedKind for Nodes {
    type Summary = NodeSummary;
    const KIND: &'static str = node::KIND;
    const ONE: &'static str = "node";
    const MANY: &'static str = "nodes";

    fn summary(v: &Value) -> NodeSummary {
        node::summary(v)
    }

    fn name(s: &NodeSummary) -> &str {
        &s.name
    }

    fn add(doc: &mut Document) -> String {
        node::add(doc)
    }

    fn row(
        doc: FormDoc,
        row: Memo<Option<NodeListed>>,
        expanded: RwSignal<Option<String>>,
        filter: RwSignal<String>,
    ) -> AnyView {
        view! { <NodeRow doc=doc row=row expanded=expanded filter=filter/> }.into_any()
    }
}

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
