//! The keyboard help overlay (`?`), also the place that says what the page is.

use crate::state::HelpOpen;
use leptos::prelude::*;

/// The shortcuts, as (keys, what they do).
pub const SHORTCUTS: [(&str, &str); 12] = [
    ("→  or  n", "step one scheduling cycle"),
    (".", "step one phase inside the cycle"),
    ("←  or  b", "step back one cycle"),
    ("Space", "run / pause"),
    ("Home", "back to the start (t = 0)"),
    ("End", "go to the end of the run"),
    ("+  /  −", "run faster / slower"),
    ("[  /  ]", "previous / next stop of the lesson"),
    (
        "Ctrl+Z",
        "undo the last edit, import or example picked (in the editors too)",
    ),
    ("Ctrl+Shift+Z", "redo"),
    ("?", "show or hide this help"),
    ("Esc", "close this help"),
];

/// The overlay.
#[component]
pub fn Help() -> impl IntoView {
    let HelpOpen(open) = expect_context::<HelpOpen>();
    super::on_demand_once(move || open.get(), help_view)
}

split_point! {
    /// A split point (`#[lazy]`): this view's code, fetched when first drawn.
    fn help_view() -> AnyView {
        view! { <HelpNow /> }.into_any()
    }
}

/// What the component draws once its code is here.
#[component]
fn HelpNow() -> impl IntoView {
    let HelpOpen(open) = expect_context::<HelpOpen>();
    view! {
        <Show when=move || open.get()>
            <div class="overlay" data-testid="help" on:click=move |_| open.set(false)>
                <div class="help-card" role="dialog" aria-label="Keyboard shortcuts" on:click=|ev| ev.stop_propagation()>
                    <header class="card-head">
                        <h2>"Keyboard shortcuts"</h2>
                        <button class="ctl" data-testid="help-close" on:click=move |_| open.set(false)>"×"</button>
                    </header>
                    <table class="shortcuts">
                        <tbody>
                            {SHORTCUTS
                                .iter()
                                .map(|(k, what)| view! { <tr><th scope="row"><kbd>{*k}</kbd></th><td>{*what}</td></tr> })
                                .collect_view()}
                        </tbody>
                    </table>
                    <p class="note">
                        "Shortcuts work when no editor has the focus (Undo and Redo work everywhere). Each cycle is kube-scheduler v1.17's "
                        <code>"scheduleOne"</code>
                        ": pop the queue, "<code>"findNodesThatFit"</code>", "<code>"prioritizeNodes"</code>", "
                        <code>"selectHost"</code>", then "<code>"assume"</code>" and "<code>"bind"</code>
                        ", or "<code>"preempt"</code>" when no node fits. Under v1.35 the same phases run the framework's extension points: "
                        <code>"PreFilter"</code>" and "<code>"Filter"</code>" in "<code>"findNodesThatFit"</code>", "
                        <code>"PreScore"</code>", "<code>"Score"</code>" and "<code>"NormalizeScore"</code>" in "<code>"prioritizeNodes"</code>", "
                        <code>"PostFilter"</code>" in "<code>"preempt"</code>", "
                        <code>"Reserve"</code>", "<code>"Permit"</code>", "<code>"PreBind"</code>" and "<code>"Bind"</code>" in "<code>"assume"</code>" and "<code>"bind"</code>"."
                    </p>
                </div>
            </div>
        </Show>
    }
}
