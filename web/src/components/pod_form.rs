//! The form view of `pods.yaml`: a filterable list of the pods, each row expanding into its
//! fields. Every other object of the file (PriorityClasses, budgets, timelines, ...) is kept as
//! it is. At most [`VISIBLE`] rows show at once, so ten thousand pods stay smooth.

use super::form_doc::FormDoc;
use super::form_notice::FormNotice;
use super::pod_row::PodRow;
use crate::forms::pod::{self, PodSummary};
use crate::forms::{name_of, ObjRef};
use leptos::prelude::*;

pub use super::node_form::VISIBLE;

/// One listed pod.
#[derive(Clone, Debug, PartialEq)]
pub struct PodListed {
    /// The `<For>` key: position and name.
    pub key: String,
    /// Where it is.
    pub at: ObjRef,
    /// What the row shows.
    pub summary: PodSummary,
}

/// The rows that match the filter, and how many there are in all.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PodListing {
    /// The first [`VISIBLE`] matching rows.
    pub rows: Vec<PodListed>,
    /// Matching pods.
    pub matched: usize,
    /// All pods.
    pub total: usize,
}

/// The pod editor.
#[component]
pub fn PodForm(text: Signal<String>, on_edit: Callback<String>) -> impl IntoView {
    let doc = FormDoc::new(text, on_edit);
    let filter = RwSignal::new(String::new());
    let expanded = RwSignal::new(None::<String>);
    let listing = Memo::new(move |_| {
        let f = filter.with(|f| f.trim().to_lowercase());
        doc.with(|d| {
            let mut l = PodListing::default();
            for (at, v) in d.of_kind(pod::KIND) {
                l.total += 1;
                if !f.is_empty() && !name_of(v).to_lowercase().contains(&f) {
                    continue;
                }
                l.matched += 1;
                if l.rows.len() < VISIBLE {
                    let summary = pod::summary(v);
                    let key = format!("{at:?}/{}", summary.name);
                    l.rows.push(PodListed { key, at, summary });
                }
            }
            l
        })
        .unwrap_or_default()
    });
    let add = move |_| {
        if let Ok(name) = doc.edit(|d| Ok(pod::add(d))) {
            filter.set(name.clone());
            expanded.set(Some(name));
        }
    };
    let count = move || {
        listing.with(|l| {
            let noun = if l.total == 1 { "pod" } else { "pods" };
            if l.matched < l.total {
                format!("{} of {} {noun}", l.matched, l.total)
            } else {
                format!("{} {noun}", l.total)
            }
        })
    };
    view! {
        <div class="form" data-testid="pod-form">
            <FormNotice text=text stem="pods" error=Signal::derive(move || doc.error())/>
            <Show when=move || doc.error().is_none()>
                <div class="form-toolbar">
                    <input
                        type="search"
                        class="form-filter"
                        data-testid="pod-filter"
                        placeholder="Filter by name"
                        aria-label="Filter pods by name"
                        prop:value=move || filter.get()
                        on:input=move |ev| filter.set(event_target_value(&ev))
                    />
                    <span class="form-count">{count}</span>
                    <button class="form-button" data-testid="pod-add" on:click=add>
                        "+ Add pod"
                    </button>
                </div>
                <div class="form-rows">
                    <For
                        each=move || listing.with(|l| l.rows.iter().map(|r| r.key.clone()).collect::<Vec<_>>())
                        key=|k| k.clone()
                        children=move |key| {
                            let row = Memo::new(move |_| {
                                listing.with(|l| l.rows.iter().find(|r| r.key == key).cloned())
                            });
                            view! { <PodRow doc=doc row=row expanded=expanded filter=filter/> }
                        }
                    />
                </div>
                <Show when=move || listing.with(|l| l.matched > l.rows.len())>
                    <p class="form-more">
                        {move || {
                            listing
                                .with(|l| {
                                    format!(
                                        "Showing {} of {}; type in the filter to find the others.",
                                        l.rows.len(),
                                        l.matched,
                                    )
                                })
                        }}
                    </p>
                </Show>
                <Show when=move || listing.with(|l| l.total == 0)>
                    <p class="form-more">"No pods yet."</p>
                </Show>
            </Show>
        </div>
    }
}
