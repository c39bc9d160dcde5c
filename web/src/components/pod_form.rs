//! The form view of `pods.yaml`: the pods as an [`ObjectList`], each row expanding into its
//! fields. Every other object of the file (PriorityClasses, budgets, timelines, ...) is kept as
//! it is.

use super::object_list::ObjectList;
use super::pod_row::Pods;
use leptos::prelude::*;

/// The pod editor.
#[component]
pub fn PodForm(text: Signal<String>, on_edit: Callback<String>) -> impl IntoView {
    view! { <ObjectList<Pods> text=text on_edit=on_edit/> }
}
