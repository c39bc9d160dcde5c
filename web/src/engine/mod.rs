//! The page's line to the engine: the session (the scheduler's run of the editors' texts) lives
//! in [`host`], and the page ([`crate::state`]) reaches it only through
//! [`Request`]s and [`Reply`]s ([`protocol`]). A load, a move along the run, an inspection and
//! an export are each a request; the page shows what the replies carry: the run's fixed facts
//! ([`crate::session::SessionInfo`]), the world at one position ([`Frame`]), one cycle's
//! tables ([`Inspection`]), an export's text.
//!
//! Replies come back in the order of their requests. A load's replies carry its generation:
//! the page ignores those of a load that a newer one superseded, and the host stops the older
//! load's work at its next slice.
//!
//! The host runs in a Web Worker ([`worker`]), so the page's main thread only renders: a big
//! scenario's reading, building and running never hold it. Where no worker can run (no
//! `Worker`, a script that does not load, a worker that failed), the host runs on the page's
//! own thread: [`send`] hands it the request at once, and its replies to that request are
//! delivered before [`send`] returns (those of a load's later slices, in those slices'
//! tasks). `<html data-engine>` says which (`worker` or `page`).

pub mod host;
pub mod protocol;
pub mod wire;
pub mod worker;

pub use protocol::{Export, Load, Reply, Request};

use crate::analysis::Inspection;
use crate::session::Frame;
use protocol::Handler;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::sync::Arc;

type Answer = Box<dyn FnOnce(Reply)>;

thread_local! {
    /// What waits for the reply to each request, by id.
    static WAITING: RefCell<HashMap<u64, Answer>> = RefCell::new(HashMap::new());
    static NEXT_ID: Cell<u64> = const { Cell::new(1) };
    /// The page's handler of a load's replies.
    static ON_LOAD: RefCell<Option<Handler>> = const { RefCell::new(None) };
}

/// Starts the engine (in a worker when one starts); a load's replies go to `on_load`.
pub fn start(on_load: impl Fn(Reply) + 'static) {
    ON_LOAD.with_borrow_mut(|h| *h = Some(Box::new(on_load)));
    host::set_delivery(receive);
    let in_worker = worker::start(receive, went_local, went_stuck);
    say_where(in_worker);
}

/// Marks the page with where the engine runs (`<html data-engine="worker">` or `"page"`).
fn say_where(in_worker: bool) {
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("data-engine", if in_worker { "worker" } else { "page" });
    }
}

/// The worker failed: what waited for its replies is dropped, and the page is told to load its
/// run again, now on its own thread.
fn went_local() {
    WAITING.with_borrow_mut(HashMap::clear);
    say_where(false);
    receive(Reply::Lost);
}

/// The worker stopped answering while it ran plugins, and a new one took its place: what
/// waited for the old one's replies is dropped, and the page is told to load again.
fn went_stuck() {
    WAITING.with_borrow_mut(HashMap::clear);
    receive(Reply::Stuck);
}

/// Sends `request` to the host: the worker's, else the page's own.
fn send(request: Request) {
    if !worker::send(&request) {
        host::handle(request);
    }
}

/// Hands a reply to whatever waits for it.
fn receive(reply: Reply) {
    let id = match &reply {
        Reply::Frame { id, .. } | Reply::Inspection { id, .. } | Reply::Exported { id, .. } => {
            Some(*id)
        }
        _ => None,
    };
    match id {
        Some(id) => {
            if let Some(answer) = WAITING.with_borrow_mut(|w| w.remove(&id)) {
                answer(reply)
            }
        }
        None => ON_LOAD.with_borrow(|h| {
            if let Some(h) = h {
                h(reply)
            }
        }),
    }
}

/// Sends a request made from a fresh id, and calls `answer` with its reply.
fn ask(request: impl FnOnce(u64) -> Request, answer: impl FnOnce(Reply) + 'static) {
    let id = NEXT_ID.get();
    NEXT_ID.set(id + 1);
    WAITING.with_borrow_mut(|w| w.insert(id, Box::new(answer)));
    send(request(id));
}

/// Whether a request still waits for its reply (a step, an inspection, an export).
pub fn waiting() -> bool {
    WAITING.with_borrow(|w| !w.is_empty())
}

/// Reads and runs `load` (its replies go to the handler given to [`start`]).
pub fn load(load: Load) {
    send(Request::Load(load));
}

/// Forgets the loaded session, and stops the loads up to `generation`.
pub fn forget(generation: u64) {
    send(Request::Forget { generation });
}

/// Goes to `position`, then calls `then` with its frame (never, when no session is loaded).
pub fn go_to(position: usize, prefetch: bool, then: impl FnOnce(Arc<Frame>) + 'static) {
    ask(
        |id| Request::GoTo {
            id,
            position,
            prefetch,
        },
        |reply| {
            if let Reply::Frame {
                frame: Some(frame), ..
            } = reply
            {
                then(frame)
            }
        },
    );
}

/// Calls `then` with the inspection of cycle `cycle`.
pub fn inspect(cycle: usize, then: impl FnOnce(Option<Inspection>) + 'static) {
    ask(
        |id| Request::Inspect { id, cycle },
        |reply| {
            if let Reply::Inspection { inspection, .. } = reply {
                then(inspection.map(|i| *i))
            }
        },
    );
}

/// Calls `then` with an export of the loaded run (`None` when none is loaded).
pub fn export(what: Export, then: impl FnOnce(Option<String>) + 'static) {
    ask(
        |id| Request::Export { id, what },
        |reply| {
            if let Reply::Exported { text, .. } = reply {
                then(text)
            }
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use schedlab_core::Diagnostic;

    /// What the host sends crosses to the page as JSON and back unchanged: a run's facts, the
    /// frame at every step (patched against the frame before), and every cycle's inspection,
    /// of both schedulers, with a preemption among them.
    #[test]
    fn replies_cross_as_json_unchanged() {
        for name in ["classic", "batch-displaced", "preemption-v135"] {
            let mut session = crate::session::run_example(name);
            let mut replies = vec![
                Reply::Loaded {
                    generation: 3,
                    info: Arc::clone(&session.info),
                    frame: Arc::new(session.frame()),
                },
                Reply::Failed {
                    generation: 4,
                    errors: vec![Diagnostic::new("pods.yaml", "items[3]", "invalid quantity")],
                    fallback: false,
                },
            ];
            // Back to the start, then forward one step at a time.
            for (id, position) in std::iter::once(0).chain(0..=session.info.end).enumerate() {
                session.go_to(position);
                replies.push(Reply::Frame {
                    id: id as u64,
                    frame: Some(Arc::new(session.frame())),
                });
            }
            for cycle in 0..session.info.cycle_steps.len() {
                let detail = session.cycle_detail(cycle).expect("a cycle");
                let (trace, cluster, claims) = &*detail;
                let inspection =
                    crate::analysis::inspect_cycle(trace, cluster, claims, &session.info, cycle);
                replies.push(Reply::Inspection {
                    id: cycle as u64,
                    inspection: Some(Box::new(inspection)),
                });
            }
            let (mut sender, mut receiver) = (wire::End::default(), wire::End::default());
            let mut patched = 0;
            for reply in replies {
                let text = serde_json::to_string(&sender.send(reply.clone())).expect("serialises");
                patched += usize::from(text.contains("\"Changed\""));
                let message = serde_json::from_str(&text).expect("reads back");
                let back = receiver.receive(message).expect("the patch fits");
                assert_eq!(format!("{back:?}"), format!("{reply:?}"), "{name}");
            }
            assert!(patched > 0, "{name}: no frame crossed as a patch");
        }
    }
}
