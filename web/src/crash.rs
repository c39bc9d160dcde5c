//! What the page does when the engine panics: a bug report the user can copy, holding the
//! scenario that was running.
//!
//! A panic in WebAssembly ends the module: nothing of the app runs afterwards. So the panic
//! hook itself draws a plain overlay (no Leptos) whose buttons are inline JavaScript: "Copy bug
//! report" (the message, where it happened, the browser, and the scenario as one exported YAML
//! file), "Reload" (the tab's work is saved and comes back) and "Dismiss". The scenario is the
//! inputs of the last run the page started ([`remember_inputs`]), kept in a cell of its own, so
//! the hook never touches the app's state mid-change.
//!
//! A chunk of the page's code that cannot be downloaded (a split point's: the network failed,
//! or a newer build replaced the site's files since the tab opened, so the tab's chunks are
//! gone) also ends in a panic, inside the loader. That is no bug: the overlay says what
//! happened and offers Reload, without a bug report ([`is_download_failure`]).
//!
//! For the browser test, `?schedlab-panic-test` in the address makes the first run panic.

use crate::base::{EditorFile, EDITORS};
use std::cell::RefCell;
use std::sync::Arc;
use wasm_bindgen::JsCast;

/// The query parameter that makes the first run panic (the browser test of this module).
pub const PANIC_TEST: &str = "schedlab-panic-test";

thread_local! {
    static INPUTS: RefCell<Option<[Arc<str>; EDITORS]>> = const { RefCell::new(None) };
}

/// Keeps the editors' texts of the run about to start (in [`EditorFile::ALL`] order).
pub fn remember_inputs(texts: [Arc<str>; EDITORS]) {
    INPUTS.with(|i| {
        if let Ok(mut i) = i.try_borrow_mut() {
            *i = Some(texts);
        }
    });
}

/// Whether this page was opened to test the panic report.
pub fn panic_test_requested() -> bool {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .is_some_and(|s| {
            s.trim_start_matches('?')
                .split('&')
                .any(|p| p == PANIC_TEST)
        })
}

/// Installs the panic hook: the console message (as before), then the overlay.
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        let message = info.to_string();
        if is_download_failure(&message) {
            show_overlay(DOWNLOAD_FAILED_CARD, None);
        } else {
            show_overlay(CRASH_CARD, Some(&bug_report(&message)));
        }
    }));
}

/// Whether a panic is a split point's loader that could not fetch its chunk (its message
/// names the loader's error type).
pub fn is_download_failure(message: &str) -> bool {
    message.contains("SplitLoaderError")
}

/// The overlay after a bug (its label, its HTML): the report goes in its text area.
const CRASH_CARD: (&str, &str) = (
    "schedlab crashed",
    r#"<div class="crash-card" data-testid="crash">
  <h2>schedlab crashed</h2>
  <p>The simulation hit a bug and stopped. Your editors' texts are saved in this tab: <strong>Reload</strong> brings them back. Please send us the bug report below; it holds the scenario that was running.</p>
  <textarea id="schedlab-bug-report" data-testid="bug-report" readonly spellcheck="false"></textarea>
  <div class="crash-actions">
    <button type="button" class="button primary" data-testid="copy-bug-report"
      onclick="const t=document.getElementById('schedlab-bug-report');t.select();(navigator.clipboard?navigator.clipboard.writeText(t.value):Promise.reject()).catch(()=>document.execCommand('copy')).finally(()=>{this.textContent='Copied';});">Copy bug report</button>
    <button type="button" class="button" data-testid="crash-reload" onclick="location.reload()">Reload</button>
    <button type="button" class="button" data-testid="crash-dismiss" onclick="document.getElementById('schedlab-crash').remove()">Dismiss</button>
  </div>
</div>"#,
);

/// The overlay after a chunk of code could not be downloaded (its label, its HTML).
const DOWNLOAD_FAILED_CARD: (&str, &str) = (
    "schedlab could not download part of its code",
    r#"<div class="crash-card" data-testid="download-failed">
  <h2>Part of schedlab could not be downloaded</h2>
  <p>The page fetches some of its code when it is first needed, and this download failed: the network dropped, or a newer version of schedlab was published since this tab opened. The page has stopped. Your editors' texts are saved in this tab: <strong>Reload</strong> brings them back, with the newest version.</p>
  <div class="crash-actions">
    <button type="button" class="button primary" data-testid="crash-reload" onclick="location.reload()">Reload</button>
    <button type="button" class="button" data-testid="crash-dismiss" onclick="document.getElementById('schedlab-crash').remove()">Dismiss</button>
  </div>
</div>"#,
);

/// The text the user copies: what happened, where, and the scenario.
pub fn bug_report(message: &str) -> String {
    let agent = web_sys::window()
        .and_then(|w| w.navigator().user_agent().ok())
        .unwrap_or_default();
    let scenario = INPUTS
        .with(|i| {
            i.try_borrow().ok().and_then(|i| {
                i.as_ref().map(|texts| {
                    let texts: Vec<(EditorFile, String)> = EditorFile::ALL
                        .iter()
                        .zip(texts.iter())
                        .map(|(f, t)| (*f, t.to_string()))
                        .collect();
                    crate::bundle::export(&texts)
                })
            })
        })
        .unwrap_or_else(|| "# (no run had started)\n".to_string());
    format!(
        "schedlab {} crashed\n\npanic: {message}\nbrowser: {agent}\n\n--- the scenario (import it in the playground, or `schedlab run` it) ---\n{scenario}",
        env!("CARGO_PKG_VERSION")
    )
}

/// Draws the overlay (`(label, html)`, one of the cards above) with plain DOM calls; its buttons work
/// without the (now stopped) app. `report` goes in the card's text area.
fn show_overlay((label, html): (&str, &str), report: Option<&str>) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Some(body) = document.body() else {
        return;
    };
    if document.get_element_by_id("schedlab-crash").is_some() {
        return;
    }
    let Ok(overlay) = document.create_element("div") else {
        return;
    };
    overlay.set_id("schedlab-crash");
    let _ = overlay.set_attribute("role", "alertdialog");
    let _ = overlay.set_attribute("aria-label", label);
    overlay.set_inner_html(html);
    let _ = body.append_child(&overlay);
    if let Some(area) = document
        .get_element_by_id("schedlab-bug-report")
        .and_then(|e| e.dyn_into::<web_sys::HtmlTextAreaElement>().ok())
    {
        area.set_value(report.unwrap_or_default());
    }
}

#[cfg(test)]
mod tests {
    use super::is_download_failure;

    #[test]
    fn a_chunk_that_failed_to_load_is_told_from_a_bug() {
        // The message Leptos's `#[lazy]` panics with when the chunk's fetch fails (seen in
        // Chromium with the chunk's request blocked).
        let failed = "panicked at web/src/components/first_screen.rs:38:1:\nload callback should succeed: SplitLoaderError { _not_send_sync: PhantomData<*const u8> }";
        assert!(is_download_failure(failed));
        assert!(!is_download_failure(
            "panicked at web/src/engine/host.rs:1:1:\ndeliberate panic"
        ));
    }
}
