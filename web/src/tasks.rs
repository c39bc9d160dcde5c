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
