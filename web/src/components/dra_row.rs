//! One object of the Devices editor's form (a DeviceClass, ResourceSlice, ResourceClaim or
//! ResourceClaimTemplate): a collapsed line with its name and what it holds, expanding into its
//! fields; and the four kinds of listed object.

use super::form_doc::FormDoc;
use super::form_field::FormField;
use super::object_list::{Listed, ListedKind, RowOpen};
use super::row_actions::RowActions;
use crate::forms::dra::{self, DraField, DraSummary};
use crate::forms::Document;
use leptos::prelude::*;
use serde_json::Value;

/// One listed DRA object.
pub type DraListed = Listed<DraSummary>;

/// A DRA kind in a [`KindList`](super::object_list::KindList).
macro_rules! dra_kind {
    ($(#[$doc:meta])* $name:ident, $kind:expr, $one:literal, $many:literal, $noun:literal) => {
        $(#[$doc])*
        pub struct $name;

        impl ListedKind for $name {
            type Summary = DraSummary;
            const KIND: &'static str = $kind;
            const ONE: &'static str = $one;
            const MANY: &'static str = $many;
            const NOUN: &'static str = $noun;

            fn summary(v: &Value) -> DraSummary {
                dra::summary($kind, v)
            }

            fn name(s: &DraSummary) -> &str {
                &s.name
            }

            fn add(doc: &mut Document) -> String {
                dra::add(doc, $kind)
            }

            fn row(
                doc: FormDoc,
                row: Memo<Option<DraListed>>,
                expanded: RwSignal<Option<String>>,
                filter: RwSignal<String>,
            ) -> AnyView {
                view! { <DraRow<$name> doc=doc row=row expanded=expanded filter=filter/> }.into_any()
            }
        }
    };
}

dra_kind!(
    /// DeviceClasses.
    Classes,
    dra::CLASS,
    "device-class",
    "classes",
    "class"
);
dra_kind!(
    /// ResourceSlices.
    Slices,
    dra::SLICE,
    "resource-slice",
    "slices",
    "slice"
);
dra_kind!(
    /// ResourceClaims.
    Claims,
    dra::CLAIM,
    "resource-claim",
    "claims",
    "claim"
);
dra_kind!(
    /// ResourceClaimTemplates.
    Templates,
    dra::TEMPLATE,
    "claim-template",
    "templates",
    "template"
);

/// The row of one DRA object.
#[component]
pub fn DraRow<K: ListedKind<Summary = DraSummary>>(
    doc: FormDoc,
    row: Memo<Option<DraListed>>,
    expanded: RwSignal<Option<String>>,
    filter: RwSignal<String>,
    #[prop(optional)] _kind: std::marker::PhantomData<K>,
) -> impl IntoView {
    let open = RowOpen::new::<K>(row, expanded);
    let name = open.name;
    let is_open = move || open.is_open.get();
    let toggle = move |_| open.toggle();
    let facts = move || row.with(|r| r.as_ref().map(|r| r.summary.facts.clone()));
    let badge = move || row.with(|r| r.as_ref().and_then(|r| r.summary.badge.clone()));
    view! {
        <div class="form-row" class:open=is_open data-testid=format!("{}-form-row", K::ONE) data-name=name>
            <button class="form-row-head" aria-expanded=move || is_open().to_string() on:click=toggle>
                <span class="form-row-name">{name}</span>
                <span class="form-row-facts">{facts}</span>
                {move || badge().map(|b| view! { <span class="form-badge">{b}</span> })}
            </button>
            <Show when=is_open>
                <DraFields kind=K::KIND test_id=K::ONE doc=doc row=row expanded=expanded filter=filter/>
            </Show>
        </div>
    }
}

/// The fields of an expanded DRA object, each committed on `change`.
#[component]
fn DraFields(
    kind: &'static str,
    test_id: &'static str,
    doc: FormDoc,
    row: Memo<Option<DraListed>>,
    expanded: RwSignal<Option<String>>,
    filter: RwSignal<String>,
) -> impl IntoView {
    let at = move || row.with_untracked(|r| r.as_ref().map(|r| r.at));
    let fields = dra::fields(kind)
        .iter()
        .map(|&(field, label, field_id, placeholder, multiline)| {
            let value = Signal::derive(move || {
                let at = row.with(|r| r.as_ref().map(|r| r.at));
                at.and_then(|at| {
                    doc.with(|d| d.get(at).map(|v| dra::field_text(kind, v, field)))
                        .flatten()
                })
                .unwrap_or_default()
            });
            let on_commit = Callback::new(move |t: String| {
                let at = at().ok_or("the object is gone")?;
                doc.edit(|d| dra::apply(d, at, kind, field, &t))?;
                if field == DraField::Name {
                    expanded.set(Some(t.trim().to_string()));
                }
                Ok(())
            });
            view! {
                <FormField
                    label=label
                    test_id=field_id
                    value=value
                    on_commit=on_commit
                    placeholder=placeholder
                    multiline=multiline
                    wide=multiline
                />
            }
        })
        .collect_view();
    view! {
        <div class="form-fields">
            {fields}
            <div class="form-actions wide">
                <RowActions doc=doc at=Signal::derive(at) filter=filter expanded=expanded kind=test_id/>
            </div>
        </div>
    }
}
