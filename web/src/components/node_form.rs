//! The form view of `nodes.yaml`: a filterable list of nodes, each row expanding into its
//! fields. At most [`VISIBLE`] rows show at once, so a thousand nodes stay smooth.

use super::form_doc::FormDoc;
use super::form_notice::FormNotice;
use super::node_row::NodeRow;
use crate::forms::node::{self, NodeSummary};
use crate::forms::{name_of, ObjRef};
use leptos::prelude::*;

/// Rows shown at once; the filter finds the others.
pub const VISIBLE: usize = 50;

/// One listed node.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeListed {
    /// The `<For>` key: position and name.
    pub key: String,
    /// Where it is.
    pub at: ObjRef,
    /// What the row shows.
    pub summary: NodeSummary,
}

/// The rows that match the filter, and how many there are in all.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NodeListing {
    /// The first [`VISIBLE`] matching rows.
    pub rows: Vec<NodeListed>,
    /// Matching nodes.
    pub matched: usize,
    /// All nodes.
    pub total: usize,
}

/// The node editor.
#[component]
pub fn NodeForm(text: Signal<String>, on_edit: Callback<String>) -> impl IntoView {
    let doc = FormDoc::new(text, on_edit);
    let filter = RwSignal::new(String::new());
    let expanded = RwSignal::new(None::<String>);
    let listing = Memo::new(move |_| {
        let f = filter.with(|f| f.trim().to_lowercase());
        doc.with(|d| {
            let mut l = NodeListing::default();
            for (at, v) in d.of_kind(node::KIND) {
                l.total += 1;
                if !f.is_empty() && !name_of(v).to_lowercase().contains(&f) {
                    continue;
                }
                l.matched += 1;
                if l.rows.len() < VISIBLE {
                    let summary = node::summary(v);
                    let key = format!("{at:?}/{}", summary.name);
                    l.rows.push(NodeListed { key, at, summary });
                }
            }
            l
        })
        .unwrap_or_default()
    });
    let add = move |_| {
        if let Ok(name) = doc.edit(|d| Ok(node::add(d))) {
            filter.set(name.clone());
            expanded.set(Some(name));
        }
    };
    let count = move || {
        listing.with(|l| {
            let noun = if l.total == 1 { "node" } else { "nodes" };
            if l.matched < l.total {
                format!("{} of {} {noun}", l.matched, l.total)
            } else {
                format!("{} {noun}", l.total)
            }
        })
    };
    view! {
        <div class="form" data-testid="node-form">
            <FormNotice text=text stem="nodes" error=Signal::derive(move || doc.error())/>
            <Show when=move || doc.error().is_none()>
                <div class="form-toolbar">
                    <input
                        type="search"
                        class="form-filter"
                        data-testid="node-filter"
                        placeholder="Filter by name"
                        aria-label="Filter nodes by name"
                        prop:value=move || filter.get()
                        on:input=move |ev| filter.set(event_target_value(&ev))
                    />
                    <span class="form-count">{count}</span>
                    <button class="form-button" data-testid="node-add" on:click=add>
                        "+ Add node"
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
                            view! { <NodeRow doc=doc row=row expanded=expanded filter=filter/> }
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
                    <p class="form-more">"No nodes yet."</p>
                </Show>
            </Show>
        </div>
    }
}
