//! The engine in a Web Worker: the worker side ([`start_session_host`], [`session_request`],
//! exported from the page's own wasm and called by `engine-worker.js` with `?role=session`)
//! and the page side ([`Line`]). Requests and replies cross as JSON text ([`super::wire`]).
//!
//! The page starts one session worker when it starts. Until the worker has loaded its wasm,
//! requests wait in the worker's queue. Should the worker fail (no `Worker`, a script that does
//! not load, a panic inside), the page drops it, runs the host on its own thread from then on,
//! and loads its run again there ([`Reply::Lost`]).

use super::wire::{End, Message};
use super::{host, Reply, Request};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// In the worker: replies go back to the page as JSON text.
#[wasm_bindgen(js_name = startSessionHost)]
pub fn start_session_host() {
    let end = RefCell::new(End::default());
    host::set_delivery(move |reply| {
        let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
        let message = end.borrow_mut().send(reply);
        let message = match serde_json::to_string(&message) {
            Ok(text) => JsValue::from_str(&text),
            // A reply that does not serialise is a bug of ours: the page stops this worker.
            Err(e) => {
                let error = js_sys::Object::new();
                let _ = js_sys::Reflect::set(
                    &error,
                    &"error".into(),
                    &format!("a reply did not serialise: {e}").into(),
                );
                error.into()
            }
        };
        let _ = scope.post_message(&message);
    });
}

/// In the worker: handles a request (JSON text of a [`Request`]).
#[wasm_bindgen(js_name = sessionRequest)]
pub fn session_request(text: &str) -> Result<(), JsError> {
    let request: Request = serde_json::from_str(text)
        .map_err(|e| JsError::new(&format!("the worker could not read a request: {e}")))?;
    host::handle(request);
    Ok(())
}

/// The page's line to its session worker, with the handlers that must live as long.
pub struct Line {
    worker: web_sys::Worker,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
}

thread_local! {
    static LINE: RefCell<Option<Line>> = const { RefCell::new(None) };
}

/// Starts the session worker; false when there is none to start (then the host runs on the
/// page's thread).
pub fn start(receive: fn(Reply)) -> bool {
    let Some(url) = crate::background::worker_url().map(|u| u + "&role=session") else {
        return false;
    };
    let options = web_sys::WorkerOptions::new();
    options.set_type(web_sys::WorkerType::Module);
    let Ok(worker) = web_sys::Worker::new_with_options(&url, &options) else {
        return false;
    };
    let mut end = End::default();
    let on_message =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
            match event.data().as_string() {
                Some(text) => {
                    match serde_json::from_str::<Message>(&text).map(|m| end.receive(m)) {
                        Ok(Some(reply)) => receive(reply),
                        Ok(None) => fail("a frame's patch did not fit the frame before"),
                        Err(e) => fail(&format!("a reply could not be read: {e}")),
                    }
                }
                None => {
                    let error = js_sys::Reflect::get(&event.data(), &"error".into())
                        .ok()
                        .and_then(|e| e.as_string())
                        .unwrap_or_default();
                    fail(&error)
                }
            }
        });
    let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |event: web_sys::Event| {
        event.prevent_default();
        fail("the worker did not start")
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    LINE.with_borrow_mut(|l| {
        if let Some(old) = l.take() {
            old.worker.terminate();
        }
        *l = Some(Line {
            worker,
            _on_message: on_message,
            _on_error: on_error,
        })
    });
    true
}

/// Sends `request` to the worker; false when there is no worker (the caller hands it to the
/// page's own host).
pub fn send(request: &Request) -> bool {
    LINE.with_borrow_mut(|line| {
        let Some(line) = line else {
            return false;
        };
        let Ok(text) = serde_json::to_string(request) else {
            return false;
        };
        line.worker.post_message(&JsValue::from_str(&text)).is_ok()
    })
}

/// Whether requests go to a worker.
pub fn in_use() -> bool {
    LINE.with_borrow(Option::is_some)
}

/// The worker failed: stop it, and go on with the page's own host from the last load.
fn fail(why: &str) {
    let Some(line) = LINE.with_borrow_mut(Option::take) else {
        return;
    };
    let Line {
        worker,
        _on_message,
        _on_error,
    } = line;
    worker.set_onmessage(None);
    worker.set_onerror(None);
    worker.terminate();
    // One of these handlers is running now: they are left to the garbage collector.
    _on_message.forget();
    _on_error.forget();
    web_sys::console::warn_1(
        &format!("schedlab: the engine's worker failed ({why}); running on the page's thread")
            .into(),
    );
    super::went_local();
}
