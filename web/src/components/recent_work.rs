//! The offer of a new tab: the work of closed tabs ([`RecentWork`]), newest first, each a
//! button that makes it this tab's work.

use crate::state::tab_copy::ago;
use crate::state::{Editors, RecentWork};
use leptos::prelude::*;

/// The offer, while there is one.
#[component]
pub fn RecentWorkOffer() -> impl IntoView {
    let recent = expect_context::<RecentWork>();
    let editors = expect_context::<Editors>();
    // Edited texts are the user's work: replace them only when they agree (Undo would bring
    // them back, but nothing is replaced unasked).
    let choose = move |id: &str| {
        let agreed = !editors.work.is_edited_untracked()
            || window()
                .confirm_with_message("Replace your edited texts with this work?")
                .unwrap_or(false);
        if agreed {
            recent.restore(id);
        }
    };
    move || {
        let offers = recent.offered.get();
        (!offers.is_empty()).then(|| {
            let now = js_sys::Date::now();
            let items = offers
                .into_iter()
                .map(|offer| {
                    let when = ago(now, offer.time);
                    let exact = String::from(
                        js_sys::Date::new(&offer.time.into())
                            .to_locale_string("default", &wasm_bindgen::JsValue::UNDEFINED),
                    );
                    let id = offer.id.clone();
                    view! {
                        <li>
                            <button
                                class="button recent-item"
                                data-testid="recent-work-item"
                                data-id=offer.id
                                title=format!("Last edited {exact}: open it in this tab")
                                on:click=move |_| choose(&id)
                            >
                                <span class="recent-name">{offer.label}</span>
                                <span class="recent-time">{when}</span>
                            </button>
                        </li>
                    }
                })
                .collect_view();
            view! {
                <section class="link-banner recent" aria-labelledby="recent-work-title" data-testid="recent-work">
                    <span class="recent-intro">
                        <strong id="recent-work-title">"Recent work from closed tabs"</strong>
                        " Continue one here (Undo puts this tab back as it was)."
                    </span>
                    <ul class="recent-list">{items}</ul>
                    <button
                        class="link"
                        aria-label="Dismiss the recent work"
                        data-testid="recent-work-dismiss"
                        on:click=move |_| recent.dismiss()
                    >
                        "×"
                    </button>
                </section>
            }
        })
    }
}
