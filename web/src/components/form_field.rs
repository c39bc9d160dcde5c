//! One labelled field of a form: committed on `change` (not on every keystroke); a value the
//! model refuses stays in the box with the reason underneath.

use leptos::prelude::*;

/// A labelled input (or, with `multiline`, a textarea with one entry per line).
#[component]
pub fn FormField(
    /// The label.
    label: &'static str,
    /// `data-testid` of the input.
    test_id: &'static str,
    /// The current value.
    #[prop(into)]
    value: Signal<String>,
    /// Applies a new value; an error is shown under the field.
    on_commit: Callback<String, Result<(), String>>,
    /// A textarea instead of a one-line input.
    #[prop(optional)]
    multiline: bool,
    /// Shown when empty (the syntax, or the default).
    #[prop(optional)]
    placeholder: &'static str,
    /// Spans the whole width of the field grid.
    #[prop(optional)]
    wide: bool,
) -> impl IntoView {
    let error = RwSignal::new(None::<String>);
    let commit = move |text: String| error.set(on_commit.run(text).err());
    // A new value from the text (or another field) makes an old complaint moot.
    Effect::new(move |_| {
        value.track();
        error.set(None);
    });
    let rows = move || {
        value
            .with(|v| v.lines().count().clamp(1, 8) + 1)
            .to_string()
    };
    let input = if multiline {
        view! {
            <textarea
                data-testid=test_id
                rows=rows
                spellcheck="false"
                placeholder=placeholder
                prop:value=move || value.get()
                on:change=move |ev| commit(event_target_value(&ev))
            ></textarea>
        }
        .into_any()
    } else {
        view! {
            <input
                type="text"
                data-testid=test_id
                spellcheck="false"
                autocomplete="off"
                placeholder=placeholder
                prop:value=move || value.get()
                on:change=move |ev| commit(event_target_value(&ev))
            />
        }
        .into_any()
    };
    view! {
        <label class="form-field" class:wide=wide class:invalid=move || error.with(Option::is_some)>
            <span class="form-label">{label}</span>
            {input}
            {move || error.get().map(|e| view! { <span class="form-error" role="alert">{e}</span> })}
        </label>
    }
}
