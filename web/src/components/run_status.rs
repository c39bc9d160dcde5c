//! Whether the results on screen are current: which kube-scheduler produced them, a load that
//! takes more than a moment, or the errors (then a link to the first editor that has them).

use crate::base::EditorFile;
use crate::state::{Editors, Loads, RunPosition};
use gloo_timers::callback::Timeout;
use leptos::prelude::*;

/// A load that takes longer than this shows in the status (milliseconds).
const SLOW_LOAD_MS: u32 = 300;

/// The status in the top bar.
#[component]
pub fn RunStatus() -> impl IntoView {
    let loads = expect_context::<Loads>();
    let info = expect_context::<RunPosition>().info;
    let tab = expect_context::<Editors>().tab;
    // Which kube-scheduler produced the results on screen.
    let ran = move || {
        info.with(|i| i.as_ref().map(|i| i.scheduler.as_str()))
            .unwrap_or("…")
    };
    let slow_load = slow_load(loads);
    // The status in a few words, for headers too narrow for the sentence (CSS picks one).
    let short_status = move || {
        let n = loads.errors.with(Vec::len);
        match n {
            0 if slow_load.get() && loads.calling.with(Option::is_some) => {
                "calling an extender…".to_string()
            }
            0 if slow_load.get() => "running…".to_string(),
            0 => format!("{} · current", ran()),
            1 => "1 error".to_string(),
            n => format!("{n} errors"),
        }
    };
    let status = move || {
        let n = loads.errors.with(Vec::len);
        let calling = loads.calling.get();
        if let (0, true, Some((urls, made))) = (n, slow_load.get(), calling) {
            (
                "status busy",
                format!(
                    "waiting for the extender at {} (live call {}) · the results shown are the last ones (kube-scheduler {})",
                    urls.join(", "),
                    made + 1,
                    ran()
                ),
            )
        } else if n == 0 && slow_load.get() {
            (
                "status busy",
                format!(
                    "running the new inputs · the results shown are the last ones (kube-scheduler {})",
                    ran()
                ),
            )
        } else if n == 0 {
            (
                "status ok",
                format!("kube-scheduler {} · results are current", ran()),
            )
        } else {
            let s = if n == 1 { "" } else { "s" };
            let text = if info.with(Option::is_some) {
                format!(
                    "{n} error{s} · showing the last valid result (kube-scheduler {})",
                    ran()
                )
            } else {
                // Nothing ever loaded (junk restored from a saved state, a bad link's texts).
                format!("{n} error{s} · nothing has run yet: fix the inputs to run them")
            };
            ("status stale", text)
        }
    };
    // When the inputs have errors, the status links to the first editor that has them: it
    // shows that editor's tab and scrolls to it without touching the address bar (whose
    // fragment is the link to the scenario).
    let first_error = move || {
        loads
            .errors
            .with(|e| e.first().map(EditorFile::of_diagnostic))
    };
    let to_first_error = move |ev: leptos::ev::MouseEvent| {
        let Some(file) = untrack(first_error) else {
            return;
        };
        ev.prevent_default();
        tab.set(file);
        if let Some(el) = document().get_element_by_id(&format!("editor-{}", file.stem())) {
            el.scroll_into_view();
        }
    };
    view! {
        <a
            class=move || status().0
            title=move || status().1
            data-scheduler=ran
            href=move || first_error().map(|f| format!("#editor-{}", f.stem()))
            data-testid="status"
            aria-live="polite"
            on:click=to_first_error
        >
            <span class="long-form">{move || status().1}</span>
            <span class="short-form" aria-hidden="true">{short_status}</span>
        </a>
    }
}

/// Whether a load has taken more than a moment (a big example, a big paste): until it ends,
/// the results on screen are of the inputs before. Loads of a few milliseconds, as each
/// keystroke's, do not make the status flicker, and loads back to back count as one.
fn slow_load(loads: Loads) -> RwSignal<bool> {
    let slow = RwSignal::new(false);
    let busy = Memo::new(move |_| loads.loading.with(Option::is_some));
    let timer = StoredValue::new_local(None::<Timeout>);
    Effect::new(move |_| {
        // Dropping the timer cancels it: the clock starts when no load was running.
        drop(timer.try_update_value(Option::take).flatten());
        if busy.get() {
            let timeout = Timeout::new(SLOW_LOAD_MS, move || {
                slow.try_set(true);
            });
            timer.set_value(Some(timeout));
        } else {
            slow.set(false);
        }
    });
    on_cleanup(move || drop(timer.try_update_value(Option::take).flatten()));
    slow
}
