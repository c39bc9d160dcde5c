//! One pod in the pod form: a collapsed line with its name and requests that expands into the
//! pod's fields; and [`Pods`], the pod form's kind of listed object.

use super::form_doc::FormDoc;
use super::object_list::{Listed, ListedKind, RowOpen};
use super::pod_fields::PodFields;
use crate::forms::pod::{self, PodSummary};
use crate::forms::Document;
use leptos::prelude::*;
use serde_json::Value;

/// One listed pod.
pub type PodListed = Listed<PodSummary>;

/// Pods in an [`ObjectList`](super::object_list::ObjectList).
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

/// A pod's row.
#[component]
pub fn PodRow(
    doc: FormDoc,
    row: Memo<Option<PodListed>>,
    expanded: RwSignal<Option<String>>,
    filter: RwSignal<String>,
) -> impl IntoView {
    let open = RowOpen::new::<Pods>(row, expanded);
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
            let mut out = format!("{} CPU · {}", or_dash(&s.cpu), or_dash(&s.memory));
            if !s.priority.is_empty() {
                out.push_str(&format!(" · prio {}", s.priority));
            }
            out
        })
    };
    let bound = move || {
        row.with(|r| {
            r.as_ref()
                .map(|r| r.summary.node.clone())
                .unwrap_or_default()
        })
    };
    view! {
        <div class="form-row" class:open=is_open data-testid="pod-form-row" data-pod=name>
            <button class="form-row-head" aria-expanded=move || is_open().to_string() on:click=toggle>
                <span class="form-row-name">{name}</span>
                <span class="form-row-facts">{facts}</span>
                <Show when=move || !bound().is_empty()>
                    <span class="form-badge" title="spec.nodeName: already bound">
                        {move || format!("on {}", bound())}
                    </span>
                </Show>
            </button>
            <Show when=is_open>
                <PodFields doc=doc row=row expanded=expanded filter=filter/>
            </Show>
        </div>
    }
}
