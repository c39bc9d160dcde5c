//! The address bar: the fragment, and rewriting it without a new history entry.

use wasm_bindgen::JsValue;

/// The fragment, without its `#` (empty when there is none).
pub fn fragment() -> String {
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    hash.strip_prefix('#').unwrap_or(&hash).to_string()
}

/// The address without its fragment.
pub fn base() -> String {
    let href = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    match href.split_once('#') {
        Some((base, _)) => base.to_string(),
        None => href,
    }
}

/// Replaces the fragment (none when empty), keeping `history.state` and adding no
/// history entry.
pub fn set_fragment(fragment: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    if fragment == self::fragment() {
        return;
    }
    let url = if fragment.is_empty() {
        base()
    } else {
        format!("{}#{fragment}", base())
    };
    if let Ok(history) = window.history() {
        let state = history.state().unwrap_or(JsValue::NULL);
        let _ = history.replace_state_with_url(&state, "", Some(&url));
    }
}
