//! One Policy entry with an argument (`labelsPresence`, `serviceAffinity`, `labelPreference`,
//! `serviceAntiAffinity`): its name, labels, presence and weight.

use crate::forms::policy::{ArgEntry, ArgField, PolicyEdit};
use leptos::prelude::*;

/// The row of an argument entry.
#[component]
pub fn PolicyArgument(entry: ArgEntry, on_edit: Callback<PolicyEdit>) -> impl IntoView {
    let ArgEntry {
        list,
        index,
        name,
        kind,
        labels,
        presence,
        weight,
    } = entry;
    let set = move |f: ArgField, t: String| on_edit.run(PolicyEdit::Argument(list, index, f, t));
    let plural = matches!(kind.as_str(), "labelsPresence" | "serviceAffinity");
    view! {
        <div class="form-argument" data-testid="policy-argument" data-name=name.clone()>
            <span class="form-tag">{kind.clone()}</span>
            <input
                type="text"
                class="mono"
                aria-label="name"
                data-testid="argument-name"
                prop:value=name.clone()
                on:change=move |ev| set(ArgField::Name, event_target_value(&ev))
            />
            <input
                type="text"
                class="mono grow"
                aria-label=if plural { "labels" } else { "label" }
                placeholder=if plural { "label keys, comma-separated" } else { "label key" }
                data-testid="argument-labels"
                prop:value=labels
                on:change=move |ev| set(ArgField::Labels, event_target_value(&ev))
            />
            {presence.map(|p| view! {
                <label class="form-check">
                    <input
                        type="checkbox"
                        data-testid="argument-presence"
                        prop:checked=p
                        on:change=move |ev| set(ArgField::Presence, event_target_checked(&ev).to_string())
                    />
                    "present"
                </label>
            })}
            {(list == "priorities").then(|| view! {
                <input
                    type="number"
                    min="1"
                    class="form-weight"
                    aria-label="weight"
                    data-testid="argument-weight"
                    prop:value=weight
                    on:change=move |ev| set(ArgField::Weight, event_target_value(&ev))
                />
            })}
            <button
                class="form-icon"
                title="Remove this entry"
                data-testid="argument-remove"
                on:click=move |_| on_edit.run(PolicyEdit::Remove(list, index))
            >
                "✕"
            </button>
        </div>
    }
}
