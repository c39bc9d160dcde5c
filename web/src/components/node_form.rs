//! The form view of `nodes.yaml`: the nodes as an [`ObjectList`], each row expanding into its
//! fields.

use super::node_row::Nodes;
use super::object_list::ObjectList;
use leptos::prelude::*;

/// The node editor.
#[component]
pub fn NodeForm(text: Signal<String>, on_edit: Callback<String>) -> impl IntoView {
    view! { <ObjectList<Nodes> text=text on_edit=on_edit/> }
}
