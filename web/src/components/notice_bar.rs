//! The notice under the header ([`Notice`]): a short message, dismissable, with Undo while
//! the work is still as the change it tells of left it.

use crate::state::{Editors, Notice};
use leptos::prelude::*;

/// The notice, when there is one.
#[component]
pub fn NoticeBar() -> impl IntoView {
    let notice = expect_context::<Notice>();
    let editors = expect_context::<Editors>();
    move || {
        notice.text.get().map(|n| {
            view! {
                <div class="notice" data-testid="notice" role="status">
                    <span>{n}</span>
                    {move || (notice.undo.get() == Some(editors.version.get())).then(|| view! {
                        <button class="link" data-testid="undo-import" on:click=move |_| editors.undo_import()>"Undo"</button>
                    })}
                    <button class="link" aria-label="Dismiss" on:click=move |_| notice.dismiss()>"×"</button>
                </div>
            }
        })
    }
}
