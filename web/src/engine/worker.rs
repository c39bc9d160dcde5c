//! The engine in a Web Worker: the worker side ([`start_session_host`], [`session_request`],
//! exported from the page's own wasm and called by `engine-worker.js` with `?role=session`)
//! and the page side ([`Line`]). Requests and replies cross as JSON text ([`super::wire`]); a
//! load's texts, as strings of their own.
//!
//! The page starts one session worker when it starts, and hands it its own compiled wasm
//! module (`wasm_bindgen::module()`) as the first message: the worker neither downloads nor
//! compiles the wasm again. Until the worker has loaded its wasm,
//! requests wait in the worker's queue. Should the worker fail (no `Worker`, a script that does
//! not load, a panic inside), the page drops it, runs the host on its own thread from then on,
//! and loads its run again there ([`Reply::Lost`]).

use super::host;
use super::protocol::{Reply, Request, STUCK_MS};
use super::wire::{End, Message};
use gloo_events::{EventListener, EventListenerOptions};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The worker's heartbeat: it says [`BEAT`] this often while its event loop is free.
const BEAT_MS: u32 = 250;
/// What a heartbeat says (no reply reads as this text).
const BEAT: &str = "beat";

/// In the worker: replies go back to the page as JSON text.
#[wasm_bindgen(js_name = startSessionHost)]
pub fn start_session_host() {
    // A heartbeat while the worker's event loop is free: a plugin that loops forever stops it.
    gloo_timers::callback::Interval::new(BEAT_MS, || {
        let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
        let _ = scope.post_message(&JsValue::from_str(BEAT));
    })
    .forget();
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

/// In the worker: handles a request: `{ request, texts, fallback }`, the JSON text of a
/// [`Request`] and, for a load, its texts as strings of their own ([`send`]).
#[wasm_bindgen(js_name = sessionRequest)]
pub fn session_request(message: JsValue) -> Result<(), JsError> {
    let field = |name: &str| js_sys::Reflect::get(&message, &name.into()).ok();
    let text = field("request")
        .and_then(|r| r.as_string())
        .ok_or_else(|| JsError::new("the worker's message has no request"))?;
    let mut request: Request = serde_json::from_str(&text)
        .map_err(|e| JsError::new(&format!("the worker could not read a request: {e}")))?;
    if let Request::Load(load) = &mut request {
        load.texts = strings(field("texts"))
            .ok_or_else(|| JsError::new("the worker's load has no texts"))?;
        load.fallback = strings(field("fallback"));
    }
    host::handle(request);
    Ok(())
}

/// An array of strings as a vector (`None`: not an array of strings).
fn strings(value: Option<JsValue>) -> Option<Vec<String>> {
    let array = value?.dyn_into::<js_sys::Array>().ok()?;
    array.iter().map(|t| t.as_string()).collect()
}

/// `texts` as an array of strings.
fn string_array(texts: &[String]) -> js_sys::Array {
    texts.iter().map(|t| JsValue::from_str(t)).collect()
}

/// The page's line to its session worker, with its listeners (removed when dropped).
pub struct Line {
    worker: web_sys::Worker,
    /// Where replies go.
    receive: fn(Reply),
    /// Called once the worker failed and the page's own thread took over.
    on_lost: fn(),
    /// Called once the worker was found stuck in a plugin and replaced.
    on_stuck: fn(),
    /// When the worker last said anything (ms; `None` before its first heartbeat).
    heard: Rc<Cell<Option<f64>>>,
    /// Whether the newest load has a Plugins program (only then is silence a stuck plugin).
    plugins: bool,
    _on_message: EventListener,
    _on_error: EventListener,
    _watchdog: gloo_timers::callback::Interval,
}

thread_local! {
    static LINE: RefCell<Option<Line>> = const { RefCell::new(None) };
    /// Replies that arrived and wait for a task of their own, in order ([`arrive`]).
    static INBOX: RefCell<VecDeque<Incoming>> = const { RefCell::new(VecDeque::new()) };
    /// The page's end of the frames' patches.
    static END: RefCell<End> = RefCell::new(End::default());
}

/// A reply text longer than this (a big run's facts and first frame: megabytes) is read in a
/// task of its own, and what it carries is shown in the next: the page's main thread never
/// spends one task on both.
const BIG_REPLY_BYTES: usize = 64 << 10;

/// A reply on its way to the page.
enum Incoming {
    /// As it arrived.
    Text(String),
    /// Read, not yet delivered.
    Read(Reply),
}

/// Takes a reply text from the worker: a small one is read and delivered at once; a big one,
/// or any that arrives behind one, waits in [`INBOX`] for tasks of its own.
fn arrive(text: String, receive: fn(Reply)) {
    let waits = INBOX.with_borrow(|inbox| !inbox.is_empty());
    if !waits && text.len() <= BIG_REPLY_BYTES {
        if let Some(reply) = read(&text) {
            receive(reply)
        }
        return;
    }
    INBOX.with_borrow_mut(|inbox| inbox.push_back(Incoming::Text(text)));
    if !waits {
        later(receive);
    }
}

/// Takes the inbox's next step in a task of its own: reads its first text, or delivers its
/// first reply; then schedules the next step while replies wait.
fn later(receive: fn(Reply)) {
    crate::tasks::later(0, move || {
        let Some(first) = INBOX.with_borrow_mut(VecDeque::pop_front) else {
            return;
        };
        match first {
            Incoming::Text(text) => {
                if let Some(reply) = read(&text) {
                    INBOX.with_borrow_mut(|inbox| inbox.push_front(Incoming::Read(reply)));
                }
            }
            Incoming::Read(reply) => receive(reply),
        }
        if INBOX.with_borrow(|inbox| !inbox.is_empty()) {
            later(receive);
        }
    });
}

/// Reads a reply's text (patching its frame against the frame before); `None` when it does not
/// read, and then the worker is stopped.
fn read(text: &str) -> Option<Reply> {
    match serde_json::from_str::<Message>(text).map(|m| END.with_borrow_mut(|end| end.receive(m))) {
        Ok(Some(reply)) => Some(reply),
        Ok(None) => {
            fail("a frame's patch did not fit the frame before");
            None
        }
        Err(e) => {
            fail(&format!("a reply could not be read: {e}"));
            None
        }
    }
}

/// Starts the session worker, its replies going to `receive`; false when there is none to
/// start (then the host runs on the page's thread). Should it fail later, `on_lost` is told.
pub fn start(receive: fn(Reply), on_lost: fn(), on_stuck: fn()) -> bool {
    let Some(worker) = crate::background::module_worker("&role=session") else {
        return false;
    };
    END.set(End::default());
    let heard: Rc<Cell<Option<f64>>> = Rc::default();
    let heard_now = Rc::clone(&heard);
    let on_message = EventListener::new(&worker, "message", move |event| {
        let Some(event) = event.dyn_ref::<web_sys::MessageEvent>() else {
            return;
        };
        heard_now.set(Some(crate::tasks::now_ms()));
        match event.data().as_string() {
            Some(text) if text == BEAT => {}
            Some(text) => arrive(text, receive),
            None => {
                let error = js_sys::Reflect::get(&event.data(), &"error".into())
                    .ok()
                    .and_then(|e| e.as_string())
                    .unwrap_or_default();
                fail(&error)
            }
        }
    });
    let options = EventListenerOptions::enable_prevent_default();
    let on_error = EventListener::new_with_options(&worker, "error", options, move |event| {
        event.prevent_default();
        fail("the worker did not start")
    });
    let watchdog = gloo_timers::callback::Interval::new(STUCK_MS / 5, watch);
    LINE.with_borrow_mut(|l| {
        if let Some(old) = l.take() {
            old.worker.terminate();
        }
        *l = Some(Line {
            worker,
            receive,
            on_lost,
            on_stuck,
            heard,
            plugins: false,
            _on_message: on_message,
            _on_error: on_error,
            _watchdog: watchdog,
        })
    });
    true
}

/// Replaces a worker that has said nothing for [`STUCK_MS`] while it ran plugins.
fn watch() {
    let stuck = LINE.with_borrow(|l| {
        l.as_ref().is_some_and(|l| {
            l.plugins
                && l.heard
                    .get()
                    .is_some_and(|at| crate::tasks::now_ms() - at > f64::from(STUCK_MS))
        })
    });
    if !stuck {
        return;
    }
    let Some(line) = stop_line() else {
        return;
    };
    let (receive, on_lost, on_stuck) = (line.receive, line.on_lost, line.on_stuck);
    web_sys::console::warn_1(
        &format!("schedlab: the engine's worker said nothing for {STUCK_MS} ms while it ran plugins; it was replaced").into(),
    );
    if start(receive, on_lost, on_stuck) {
        on_stuck();
    } else {
        on_lost();
    }
}

/// Sends `request` to the worker; false when there is no worker (the caller hands it to the
/// page's own host). A load's texts (megabytes, for a big scenario) cross as strings of their
/// own beside the request's JSON, not escaped into it.
pub fn send(request: &Request) -> bool {
    LINE.with_borrow_mut(|line| {
        let Some(line) = line else {
            return false;
        };
        let Ok(text) = serde_json::to_string(request) else {
            return false;
        };
        let message = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&message, &"request".into(), &text.into());
        if let Request::Load(load) = request {
            line.plugins = !load.stuck
                && load
                    .texts
                    .get(crate::base::EditorFile::Plugins.index())
                    .is_some_and(|p| !p.trim().is_empty());
            let _ = js_sys::Reflect::set(&message, &"texts".into(), &string_array(&load.texts));
            if let Some(fallback) = &load.fallback {
                let _ = js_sys::Reflect::set(&message, &"fallback".into(), &string_array(fallback));
            }
        }
        line.worker.post_message(&message).is_ok()
    })
}

/// Whether requests go to a worker.
pub fn in_use() -> bool {
    LINE.with_borrow(Option::is_some)
}

/// The worker failed: stop it, and go on with the page's own host from the last load.
fn fail(why: &str) {
    let Some(line) = stop_line() else {
        return;
    };
    let on_lost = line.on_lost;
    web_sys::console::warn_1(
        &format!("schedlab: the engine's worker failed ({why}); running on the page's thread")
            .into(),
    );
    on_lost();
}

/// Stops the worker and drops what it sent that was not read; what the line was made with
/// (its listeners go: the one running now is freed once it returns).
fn stop_line() -> Option<LineEnds> {
    let line = LINE.with_borrow_mut(Option::take)?;
    line.worker.terminate();
    INBOX.with_borrow_mut(VecDeque::clear);
    Some(LineEnds {
        receive: line.receive,
        on_lost: line.on_lost,
        on_stuck: line.on_stuck,
    })
}

/// Where a stopped line's replies and news went.
struct LineEnds {
    receive: fn(Reply),
    on_lost: fn(),
    on_stuck: fn(),
}
