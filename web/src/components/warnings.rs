//! Warnings from reading the inputs (skipped kinds, odd apiVersions, ignored predicates), folded
//! away: they never block a run.

use crate::state::RunPosition;
use leptos::prelude::*;

/// A folded list of warnings; nothing when there are none.
#[component]
pub fn Warnings() -> impl IntoView {
    let position = expect_context::<RunPosition>();
    let warnings = move || {
        position
            .info
            .get()
            .map(|a| {
                a.warnings
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default()
    };
    view! {
        <Show when=move || !warnings().is_empty()>
            <details class="warnings" data-testid="warnings">
                <summary>
                    {move || {
                        let n = warnings().len();
                        format!("{n} warning{}", if n == 1 { "" } else { "s" })
                    }}
                </summary>
                <ul>
                    <For
                        each=move || warnings().into_iter().enumerate()
                        key=|(i, w)| (*i, w.clone())
                        children=|(_, w)| view! { <li>{w}</li> }
                    />
                </ul>
            </details>
        </Show>
    }
}
