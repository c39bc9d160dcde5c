//! A search field bound to a filter signal (events, pods, form rows).

use leptos::prelude::*;

/// `<input type="search">` that writes what is typed into `value`.
#[component]
pub fn SearchBox(
    value: RwSignal<String>,
    /// CSS class.
    class: &'static str,
    placeholder: &'static str,
    /// The accessible name.
    #[prop(into)]
    label: String,
    #[prop(into)] test_id: String,
) -> impl IntoView {
    view! {
        <input
            class=class
            type="search"
            placeholder=placeholder
            aria-label=label
            data-testid=test_id
            prop:value=move || value.get()
            on:input=move |ev| value.set(event_target_value(&ev))
        />
    }
}
