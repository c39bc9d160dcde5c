//! Code run later, in a task of its own: after a timeout ([`gloo_timers`], the global
//! `setTimeout`, so in a worker too). Imports nothing of the page.

use gloo_timers::future::TimeoutFuture;

/// Runs `f` in a later task, `ms` milliseconds from now (0: as soon as the browser has
/// handled what is waiting). Nothing cancels it: code that may need to, keeps a
/// [`gloo_timers::callback::Timeout`] instead.
pub fn later(ms: u32, f: impl FnOnce() + 'static) {
    wasm_bindgen_futures::spawn_local(async move {
        TimeoutFuture::new(ms).await;
        f();
    });
}

/// Milliseconds on a clock that only goes forward (the worker's or the window's
/// `performance.now()`; `Date.now()` where there is none).
pub fn now_ms() -> f64 {
    use wasm_bindgen::JsCast;
    js_sys::Reflect::get(&js_sys::global(), &"performance".into())
        .ok()
        .and_then(|p| p.dyn_into::<web_sys::Performance>().ok())
        .map_or_else(js_sys::Date::now, |p| p.now())
}
