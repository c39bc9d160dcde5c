//! Duplicate and Delete for the object a form row edits (nodes and pods alike).

use super::form_doc::FormDoc;
use crate::forms::ObjRef;
use leptos::prelude::*;

/// The two buttons; the copy opens in its row (see [`FormDoc::duplicate`]).
#[component]
pub fn RowActions(
    doc: FormDoc,
    /// The object, while it exists.
    at: Signal<Option<ObjRef>>,
    filter: RwSignal<String>,
    expanded: RwSignal<Option<String>>,
    /// `node` or `pod`: the prefix of the test ids.
    kind: &'static str,
) -> impl IntoView {
    let duplicate = move |_| {
        if let Some(at) = at.get_untracked() {
            doc.duplicate(at, filter, expanded);
        }
    };
    let delete = move |_| {
        if let Some(at) = at.get_untracked() {
            doc.remove(at);
        }
    };
    view! {
        <span class="form-spacer"></span>
        <button class="form-button" data-testid=format!("{kind}-duplicate") on:click=duplicate>
            "Duplicate"
        </button>
        <button class="form-button danger" data-testid=format!("{kind}-delete") on:click=delete>
            "Delete"
        </button>
    }
}
