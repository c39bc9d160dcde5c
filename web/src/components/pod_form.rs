//! The form view of `pods.yaml`: the pods as an [`ObjectList`], each row expanding into its
//! fields. Every other object of the file (PriorityClasses, budgets, timelines, ...) is kept as
//! it is.

use super::form_doc::FormDoc;
use super::object_list::{Listed, ListedKind, ObjectList};
use super::pod_row::PodRow;
use crate::forms::pod::{self, PodSummary};
use crate::forms::Document;
use leptos::prelude::*;
use serde_json::Value;

/// One listed pod.
pub type PodListed = Listed<PodSummary>;

/// Pods in an [`ObjectList`].
pub struct Pods;

impl ListedKind for Pods {
    type Summary = PodSummary;
    const KIND: &'static str = pod::KIND;
    const ONE: &'static str = "pod";
    const MANY: &'static str = "pods";

    fn summary(v: &Value) -> PodSummary {
        pod::summary(v)
    }

    fn name(s: &PodSummary) -> &str {
        &s.name
    }

    fn add(doc: &mut Document) -> String {
        pod::add(doc)
    }

    fn row(
        doc: FormDoc,
        row: Memo<Option<PodListed>>,
        expanded: RwSignal<Option<String>>,
        filter: RwSignal<String>,
    ) -> AnyView {
        view! { <PodRow doc=doc row=row expanded=expanded filter=filter/> }.into_any()
    }
}

/// The pod editor.
#[component]
pub fn PodForm(text: Signal<String>, on_edit: Callback<String>) -> impl IntoView {
    view! { <ObjectList<Pods> text=text on_edit=on_edit/> }
}
