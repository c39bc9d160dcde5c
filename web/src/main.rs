//! Entry point of the playground's wasm binary: installs the panic hook, reads the tab's saved
//! texts kept in IndexedDB, fetches the gallery examples the page starts with (the saved work's,
//! a link's), and mounts [`App`](schedlab_web::App). In the questions' Web Worker (the same
//! wasm, loaded by `engine-worker.js`) there is no window, and it does nothing: the worker only
//! calls `answerQuestion` ([`schedlab_web::background`]).

fn main() {
    if web_sys::window().is_none() {
        return;
    }
    // A panic logs as before, and shows a bug report holding the scenario.
    schedlab_web::crash::install();
    wasm_bindgen_futures::spawn_local(async {
        schedlab_web::state::saved::preload_saved_work().await;
        schedlab_web::state::start::preload_examples().await;
        leptos::mount::mount_to_body(schedlab_web::App);
        // Entries of the saved-work store that no tab used for a month go, after the page is up.
        schedlab_web::stash::tidy().await;
    });
}
