//! The form view of `nodes.yaml`: the nodes as an [`ObjectList`], each row expanding into its
//! fields.

use super::form_doc::FormDoc;
use super::node_row::NodeRow;
use super::object_list::{Listed, ListedKind, ObjectList};
use crate::forms::node::{self, NodeSummary};
use crate::forms::Document;
use leptos::prelude::*;
use serde_json::Value;

/// One listed node.
pub type NodeListed = Listed<NodeSummary>;

/// Nodes in an [`ObjectList`].
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

/// The node editor.
#[component]
pub fn NodeForm(text: Signal<String>, on_edit: Callback<String>) -> impl IntoView {
    view! { <ObjectList<Nodes> text=text on_edit=on_edit/> }
}
