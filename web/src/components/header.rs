//! The top bar: the name, the scenario and its size, whether the results are current, and the
//! reset button.

use crate::state::{EditorFile, Playground, EXAMPLE_NAME, SEED};
use leptos::prelude::*;

/// The top bar.
#[component]
pub fn Header() -> impl IntoView {
    let state = expect_context::<Playground>();
    let stats = move || {
        state.analysis().map(|a| {
            format!(
                "{} nodes · {} pods · seed {SEED}",
                a.node_count(),
                a.pods.len()
            )
        })
    };
    let status = move || {
        let n = state.errors().len();
        if n == 0 {
            ("status ok", "results are current".to_string())
        } else {
            let s = if n == 1 { "" } else { "s" };
            (
                "status stale",
                format!("{n} error{s} · showing the last valid result"),
            )
        }
    };
    view! {
        <header class="topbar">
            <div class="brand">
                <span class="logo">"schedlab"</span>
                <span class="tagline">"kube-scheduler v1.17, step by step"</span>
            </div>
            <div class="scenario">
                <span class="scenario-label">"scenario"</span>
                <span class="scenario-name" data-testid="scenario-name">
                    {EXAMPLE_NAME}
                    {move || state.is_edited().then_some(" (edited)")}
                </span>
                <span class="scenario-stats">{stats}</span>
            </div>
            // When the inputs have errors, the status links to the first editor that has them.
            <a
                class=move || status().0
                href=move || {
                    state.errors().first().map(|d| format!("#editor-{}", EditorFile::of_diagnostic(d).stem()))
                }
                data-testid="status"
                aria-live="polite"
            >
                {move || status().1}
            </a>
            <button
                class="button"
                data-testid="reset"
                title="Put the example back in every editor"
                on:click=move |_| state.reset()
            >
                "Reset to example"
            </button>
        </header>
    }
}
