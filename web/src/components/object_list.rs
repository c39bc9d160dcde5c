//! The list part of a form view (nodes, pods): a name filter, a count, an add button and at
//! most [`VISIBLE`] rows at once, each expanding into its fields. Thousands of objects stay
//! smooth. What differs between nodes and pods is a [`ListedKind`].

use super::form_doc::FormDoc;
use super::form_notice::FormNotice;
use super::search_box::SearchBox;
use crate::forms::{name_of, Document, ObjRef};
use leptos::prelude::*;
use serde_json::Value;

/// Rows shown at once; the filter finds the others.
pub const VISIBLE: usize = 50;

/// One listed object.
#[derive(Clone, Debug, PartialEq)]
pub struct Listed<S> {
    /// The `<For>` key: position and name.
    pub key: String,
    /// Where it is.
    pub at: ObjRef,
    /// What the row shows.
    pub summary: S,
}

/// The rows that match the filter, and how many there are in all.
#[derive(Clone, Debug, PartialEq)]
struct Listing<S> {
    rows: Vec<Listed<S>>,
    matched: usize,
    total: usize,
}

/// What a list form needs to know about its kind of object.
pub trait ListedKind: 'static {
    /// What a collapsed row shows.
    type Summary: Clone + PartialEq + Send + Sync + 'static;
    /// The `kind` listed.
    const KIND: &'static str;
    /// `node`: the noun, and the prefix of the test ids (`node-form`, `node-filter`, ...).
    const ONE: &'static str;
    /// `nodes`: the plural, also the editor's file stem.
    const MANY: &'static str;
    /// What the add button and the count call one (`node`).
    const NOUN: &'static str = Self::ONE;
    /// The summary of one object.
    fn summary(v: &Value) -> Self::Summary;
    /// Its name.
    fn name(s: &Self::Summary) -> &str;
    /// Adds a new object; returns its name.
    fn add(doc: &mut Document) -> String;
    /// The row of one object.
    fn row(
        doc: FormDoc,
        row: Memo<Option<Listed<Self::Summary>>>,
        expanded: RwSignal<Option<String>>,
        filter: RwSignal<String>,
    ) -> AnyView;
}

/// A filterable list of the objects of one kind: the file's form.
#[component]
pub fn ObjectList<K: ListedKind>(
    text: Signal<String>,
    on_edit: Callback<String>,
    #[prop(optional)] _kind: std::marker::PhantomData<K>,
) -> impl IntoView {
    let doc = FormDoc::new(text, on_edit);
    view! {
        <div class="form" data-testid=format!("{}-form", K::ONE)>
            <FormNotice text=text stem=K::MANY error=Signal::derive(move || doc.error())/>
            <Show when=move || doc.error().is_none()>
                <KindList<K> doc=doc/>
            </Show>
        </div>
    }
}

/// The objects of one kind in a parsed file (one of several lists of a form): a name filter,
/// a count, an add button and the rows.
#[component]
pub fn KindList<K: ListedKind>(
    doc: FormDoc,
    /// Whether to say how rows open and fields apply (once per form).
    #[prop(default = true)]
    hint: bool,
    #[prop(optional)] _kind: std::marker::PhantomData<K>,
) -> impl IntoView {
    let filter = RwSignal::new(String::new());
    let expanded = RwSignal::new(None::<String>);
    let listing = Memo::new(move |_| {
        let f = filter.with(|f| f.trim().to_lowercase());
        doc.with(|d| {
            let mut l = Listing {
                rows: Vec::new(),
                matched: 0,
                total: 0,
            };
            for (at, v) in d.of_kind(K::KIND) {
                l.total += 1;
                if !f.is_empty() && !name_of(v).to_lowercase().contains(&f) {
                    continue;
                }
                l.matched += 1;
                if l.rows.len() < VISIBLE {
                    let summary = K::summary(v);
                    let key = format!("{at:?}/{}", K::name(&summary));
                    l.rows.push(Listed { key, at, summary });
                }
            }
            l
        })
    });
    let add = move |_| {
        if let Ok(name) = doc.edit(|d| Ok(K::add(d))) {
            filter.set(name.clone());
            expanded.set(Some(name));
        }
    };
    let count = move || {
        listing.with(|l| {
            let Some(l) = l else { return String::new() };
            let noun = if l.total == 1 { K::NOUN } else { K::MANY };
            if l.matched < l.total {
                format!("{} of {} {noun}", l.matched, l.total)
            } else {
                format!("{} {noun}", l.total)
            }
        })
    };
    let stat =
        move |f: fn(&Listing<K::Summary>) -> bool| listing.with(|l| l.as_ref().is_some_and(f));
    view! {
                <div class="form-toolbar">
                    <SearchBox
                        value=filter
                        class="form-filter"
                        placeholder="Filter by name"
                        label=format!("Filter {} by name", K::MANY)
                        test_id=format!("{}-filter", K::ONE)
                    />
                    <span class="form-count">{count}</span>
                    <button class="form-button" data-testid=format!("{}-add", K::ONE) on:click=add>
                        {format!("+ Add {}", K::NOUN)}
                    </button>
                </div>
                {hint.then(|| view! { <p class="form-hint">"Open a row to edit it; a field applies on Enter or when you leave it."</p> })}
                <div class="form-rows">
                    <For
                        each=move || listing.with(|l| l.as_ref().map(|l| l.rows.iter().map(|r| r.key.clone()).collect::<Vec<_>>()).unwrap_or_default())
                        key=|k| k.clone()
                        children=move |key| {
                            let row = Memo::new(move |_| {
                                listing.with(|l| l.as_ref().and_then(|l| l.rows.iter().find(|r| r.key == key).cloned()))
                            });
                            K::row(doc, row, expanded, filter)
                        }
                    />
                </div>
                <Show when=move || stat(|l| l.matched > l.rows.len())>
                    <p class="form-more">
                        {move || {
                            listing.with(|l| {
                                l.as_ref().map(|l| format!(
                                    "Showing {} of {}; type in the filter to find the others.",
                                    l.rows.len(),
                                    l.matched,
                                ))
                            })
                        }}
                    </p>
                </Show>
                <Show when=move || stat(|l| l.total == 0)>
                    <p class="form-more">{format!("No {} yet.", K::MANY)}</p>
                </Show>
    }
}

/// A row's name and whether it is the open one (at most one row is open at a time).
#[derive(Clone, Copy)]
pub struct RowOpen {
    /// The object's name.
    pub name: Signal<String>,
    /// Whether this row is expanded.
    pub is_open: Signal<bool>,
    expanded: RwSignal<Option<String>>,
}

impl RowOpen {
    /// The open state of `row` among the rows sharing `expanded`.
    pub fn new<K: ListedKind>(
        row: Memo<Option<Listed<K::Summary>>>,
        expanded: RwSignal<Option<String>>,
    ) -> RowOpen {
        let name = Signal::derive(move || {
            row.with(|r| r.as_ref().map(|r| K::name(&r.summary).to_string()))
                .unwrap_or_default()
        });
        let is_open = Signal::derive(move || {
            expanded.with(|e| e.as_deref().is_some_and(|e| e == name.get()))
        });
        RowOpen {
            name,
            is_open,
            expanded,
        }
    }

    /// Opens the row, or closes it when it is open.
    pub fn toggle(&self) {
        let n = self.name.get_untracked();
        self.expanded.update(|e| {
            *e = if e.as_ref() == Some(&n) {
                None
            } else {
                Some(n)
            }
        });
    }
}
