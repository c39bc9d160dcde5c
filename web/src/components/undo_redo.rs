//! Undo and Redo of the work (also Ctrl+Z and Ctrl+Shift+Z).

use crate::state::Editors;
use leptos::prelude::*;

/// The two buttons.
#[component]
pub fn UndoRedo() -> impl IntoView {
    let editors = expect_context::<Editors>();
    view! {
        <span class="undo-redo">
            <button
                class="button icon"
                data-testid="undo"
                title="Undo the last edit, import or example picked (Ctrl+Z)"
                aria-label="Undo"
                disabled=move || !editors.can_undo.get()
                on:click=move |_| editors.undo()
            >
                "↶"
            </button>
            <button
                class="button icon"
                data-testid="redo"
                title="Redo what Undo undid (Ctrl+Shift+Z)"
                aria-label="Redo"
                disabled=move || !editors.can_redo.get()
                on:click=move |_| editors.redo()
            >
                "↷"
            </button>
        </span>
    }
}
