//! Questions answered off the page's main thread: the questions panel's compare, sweep and
//! capacity run in a Web Worker, so a sweep of a big cluster (seconds of work) never holds up
//! typing, scrolling or the playground.
//!
//! The worker (`assets/engine-worker.js`, a module worker of a few dozen lines) loads the
//! page's own wasm a second time, where `main` does nothing (no window) and [`answer`] is
//! exported as `answerQuestion`; or, when the page is cross-origin isolated and the site has
//! it, the threaded build (`crates/schedlab_wasm_threads`, which exports the same `answer`)
//! with a rayon pool of `navigator.hardwareConcurrency` threads, so the independent runs of a
//! sweep or a comparison share out (`schedlab_core::map`, in input order: the same
//! answer as on one thread). The answer says where it ran, on how many threads, and why one. A [`Request`] crosses as JSON text holding the
//! editors' texts; the reply is JSON of `Result<T, Vec<String>>`, where `T` is the panel's
//! own view ([`crate::questions::CompareView`], ...). Floats cross as shortest round-trip
//! decimals, so the page draws exactly what a run on its own thread would.
//!
//! [`Asker`] is one pane's line to a worker: asking again while an answer is outstanding
//! terminates that worker (the obsolete run stops at once) and starts another. A finished
//! worker is kept for the next question. When no worker can be started (no `Worker`, a
//! script that fails to load), the question runs on the page's thread after the next paint,
//! as it did before, and the answer says where it ran.

use crate::questions::{self, Editors, Other};
use crate::tasks::now_ms;
use gloo_events::{EventListener, EventListenerOptions};
use leptos::prelude::*;
use schedlab_core::Diagnostic;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::cell::{Cell, RefCell};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// A question, with everything it needs: the five editors' texts (in
/// [`crate::base::EditorFile::ALL`] order) and the seed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "question", rename_all = "camelCase")]
pub enum Request {
    /// Compare the editors' configuration with `other`.
    Compare {
        /// The editors' texts.
        texts: Vec<String>,
        /// Configuration B.
        other: Other,
        /// The seed.
        seed: u64,
    },
    /// Sweep `setting` over `values`.
    Sweep {
        /// The editors' texts.
        texts: Vec<String>,
        /// `seed`, `weight.NAME`, ...
        setting: String,
        /// `--values` syntax.
        values: String,
        /// The seed.
        seed: u64,
    },
    /// Count copies of the templates in `template`.
    Capacity {
        /// The editors' texts.
        texts: Vec<String>,
        /// Pod or Deployment templates.
        template: String,
        /// The seed.
        seed: u64,
    },
}

fn messages(errors: Vec<Diagnostic>) -> Vec<String> {
    errors.iter().map(ToString::to_string).collect()
}

fn to_value<T: Serialize>(v: Result<T, Vec<Diagnostic>>) -> Result<Value, Vec<String>> {
    let v = v.map_err(messages)?;
    serde_json::to_value(v).map_err(|e| vec![format!("the answer did not serialise: {e}")])
}

split_point! {
    /// Answers a question. A split point (`#[lazy]`): the questions' code is fetched when the
    /// first question is asked, not in the page's first load.
    fn compute(request: Request) -> Result<Value, Vec<String>> {
        match request {
            Request::Compare { texts, other, seed } => {
                let e = Editors::read(texts).map_err(messages)?;
                to_value(questions::compare(&e, &other, seed))
            }
            Request::Sweep {
                texts,
                setting,
                values,
                seed,
            } => {
                let e = Editors::read(texts).map_err(messages)?;
                to_value(questions::sweep(&e, &setting, &values, seed))
            }
            Request::Capacity {
                texts,
                template,
                seed,
            } => {
                let e = Editors::read(texts).map_err(messages)?;
                to_value(questions::capacity(&e, &template, seed))
            }
        }
    }
}

/// Answers a request (JSON of a [`Request`]) with JSON of `Result<T, Vec<String>>`. What the
/// worker runs; the page runs the same when it has no worker.
#[wasm_bindgen(js_name = answerQuestion)]
pub async fn answer(request: String) -> String {
    let reply = match serde_json::from_str::<Request>(&request) {
        Ok(r) => compute(r).await,
        Err(e) => Err(vec![format!("the worker could not read the question: {e}")]),
    };
    serde_json::to_string(&reply).unwrap_or_else(|e| {
        serde_json::json!({ "Err": [format!("the answer did not serialise: {e}")] }).to_string()
    })
}

/// Reads a reply of [`answer`].
pub fn decode<T: DeserializeOwned>(reply: &str) -> Result<T, Vec<String>> {
    serde_json::from_str::<Result<T, Vec<String>>>(reply)
        .unwrap_or_else(|e| Err(vec![format!("the worker's answer could not be read: {e}")]))
}

/// Where an answer was computed, and how long it took from the press to the answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Ran {
    /// Milliseconds from the question to the answer.
    pub ms: f64,
    /// In a worker (false: on the page's thread, no worker being available).
    pub in_worker: bool,
    /// Threads that computed it (the worker's pool, or 1).
    pub threads: usize,
    /// Why one thread, when the worker has no pool.
    pub why_one: Option<String>,
}

impl Ran {
    /// "Answered in 3.2 s in a background worker, on 2 threads."
    pub fn words(&self) -> String {
        let time = if self.ms >= 1000.0 {
            format!("{:.1} s", self.ms / 1000.0)
        } else {
            format!("{:.0} ms", self.ms)
        };
        if !self.in_worker {
            return format!(
                "Answered in {time}, on the page's own thread (this browser gave no worker)."
            );
        }
        match (self.threads, &self.why_one) {
            (1, Some(why)) => {
                format!("Answered in {time}, in a background worker, on one thread: {why}.")
            }
            (1, None) => format!("Answered in {time}, in a background worker, on one thread."),
            (n, _) => format!("Answered in {time}, in a background worker, on {n} threads."),
        }
    }
}

/// The worker script, beside `index.html`.
const WORKER_SCRIPT: &str = "engine-worker.js";
/// The threaded build's module (`scripts/build-api-threads.sh`), which the worker prefers when
/// the page is cross-origin isolated and the site has it.
const THREADED_MODULE: &str = "api-threads/schedlab_threads.js";

thread_local! {
    /// A worker that finished its question, kept for the next.
    static IDLE: RefCell<Option<Idle>> = const { RefCell::new(None) };
    /// Set once a worker failed to start: later questions run on the page's thread.
    static NO_WORKERS: Cell<bool> = const { Cell::new(false) };
}

/// The worker's address: the script, with the page's wasm-bindgen module and wasm file (as
/// Trunk preloads them, with their hashed names) and the threaded build's module, all
/// absolute, for it to load.
pub(crate) fn worker_url() -> Option<String> {
    let document = web_sys::window()?.document()?;
    let base = document.base_uri().ok()??;
    let absolute = |href: &str| Some(web_sys::Url::new_with_base(href, &base).ok()?.href());
    let linked = |selector: &str| {
        let href = document
            .query_selector(selector)
            .ok()??
            .get_attribute("href")?;
        absolute(&href)
    };
    let glue = linked("link[rel=modulepreload][href$='.js']")?;
    let wasm = linked("link[rel=preload][href$='.wasm']")?;
    let threaded = absolute(THREADED_MODULE)?;
    let encode = |s: &str| String::from(js_sys::encode_uri_component(s));
    Some(format!(
        "{WORKER_SCRIPT}?glue={}&wasm={}&threaded={}",
        encode(&glue),
        encode(&wasm),
        encode(&threaded)
    ))
}

/// A worker kept for the next question, and, while it warms up, what it does should it fail
/// to start ([`warm_up`]; dropped when a question takes the worker).
struct Idle {
    worker: web_sys::Worker,
    _on_error: Option<EventListener>,
}

fn spawn_worker() -> Option<web_sys::Worker> {
    if NO_WORKERS.with(Cell::get) {
        return None;
    }
    if let Some(idle) = IDLE.with(|i| i.borrow_mut().take()) {
        return Some(idle.worker);
    }
    module_worker("")
}

/// Starts `engine-worker.js` as a module worker, with `extra` added to its address (`&role=…`),
/// and hands it the page's compiled wasm module first (`module=page`), which the worker
/// instantiates when it runs the page's own wasm: no second download or compile.
pub(crate) fn module_worker(extra: &str) -> Option<web_sys::Worker> {
    let url = format!("{}&module=page{extra}", worker_url()?);
    let options = web_sys::WorkerOptions::new();
    options.set_type(web_sys::WorkerType::Module);
    let worker = web_sys::Worker::new_with_options(&url, &options).ok()?;
    if worker.post_message(&wasm_bindgen::module()).is_err() {
        worker.terminate();
        return None;
    }
    Some(worker)
}

/// Keeps `worker` for the next question (a worker already kept is stopped). `on_error`: what
/// it does should it fail meanwhile.
fn keep_idle(worker: web_sys::Worker, on_error: Option<EventListener>) {
    let idle = Idle {
        worker,
        _on_error: on_error,
    };
    let spare = IDLE.with(|i| i.borrow_mut().replace(idle));
    if let Some(spare) = spare {
        spare.worker.terminate();
    }
}

/// Starts a worker ahead of the first question (the panel was opened), so that question does
/// not wait for the worker to load its wasm and start its pool (about a second with a pool).
/// A worker that fails to load meanwhile is dropped, and later questions run on the page's
/// thread.
pub fn warm_up() {
    if IDLE.with(|i| i.borrow().is_some()) {
        return;
    }
    let Some(worker) = spawn_worker() else {
        return;
    };
    let failed = worker.clone();
    let options = EventListenerOptions::enable_prevent_default();
    let on_error = EventListener::once_with_options(&worker, "error", options, move |ev| {
        ev.prevent_default();
        failed.terminate();
        NO_WORKERS.with(|n| n.set(true));
        // Its listener goes with it (freed once this returns).
        let idle = IDLE.with(|i| {
            let mine = i
                .borrow()
                .as_ref()
                .is_some_and(|idle| idle.worker == failed);
            mine.then(|| i.borrow_mut().take()).flatten()
        });
        drop(idle);
    });
    keep_idle(worker, Some(on_error));
}

/// A question being answered in a worker, with its listeners (removed when dropped).
struct Job {
    worker: web_sys::Worker,
    _on_message: EventListener,
    _on_error: EventListener,
}

/// One pane's line to a worker (see the module docs). `Copy`, for event handlers.
#[derive(Clone, Copy)]
pub struct Asker {
    job: StoredValue<Option<Job>, LocalStorage>,
    /// Bumped by every question: an answer of an older one is dropped.
    asked: StoredValue<u64>,
}

impl Default for Asker {
    fn default() -> Self {
        Asker::new()
    }
}

impl Asker {
    /// A line with nothing asked yet.
    pub fn new() -> Asker {
        Asker {
            job: StoredValue::new_local(None),
            asked: StoredValue::new(0),
        }
    }

    /// Stops the outstanding question, if any (its worker is terminated).
    pub fn cancel(&self) {
        self.asked.update_value(|n| *n += 1);
        if let Some(job) = self.job.try_update_value(Option::take).flatten() {
            job.worker.terminate();
        }
    }

    /// Asks `request`; `done` gets the answer and where it ran. Cancels what this line asked
    /// before.
    pub fn ask<T: DeserializeOwned + 'static>(
        &self,
        request: Request,
        done: impl FnOnce(Result<T, Vec<String>>, Ran) + 'static,
    ) {
        self.cancel();
        let ticket = self.asked.get_value();
        let started = now_ms();
        let text = serde_json::to_string(&request).unwrap_or_default();
        let Some(worker) = spawn_worker() else {
            on_page_thread(text, started, done);
            return;
        };
        let done = std::rc::Rc::new(RefCell::new(Some(done)));
        let this = *self;
        // Hands the reply over, once, if no newer question replaced this one; the worker is
        // kept for the next question (`pool`: its threads, and why one), unless its wasm
        // failed (`None`).
        let finish = {
            let done = std::rc::Rc::clone(&done);
            move |reply: Result<T, Vec<String>>, pool: Option<(usize, Option<String>)>| {
                if this.asked.get_value() != ticket {
                    return;
                }
                if let Some(job) = this.job.try_update_value(Option::take).flatten() {
                    if pool.is_some() {
                        keep_idle(job.worker.clone(), None);
                    } else {
                        job.worker.terminate();
                    }
                }
                if let Some(done) = done.borrow_mut().take() {
                    let (threads, why_one) = pool.unwrap_or((1, None));
                    let ran = Ran {
                        ms: now_ms() - started,
                        in_worker: true,
                        threads: threads.max(1),
                        why_one,
                    };
                    done(reply, ran);
                }
            }
        };
        let on_message = EventListener::new(&worker, "message", move |ev| {
            let Some(ev) = ev.dyn_ref::<web_sys::MessageEvent>() else {
                return;
            };
            let data = ev.data();
            let field = |name: &str| js_sys::Reflect::get(&data, &name.into()).ok();
            match field("reply").and_then(|r| r.as_string()) {
                Some(reply) => {
                    let threads = field("threads").and_then(|t| t.as_f64()).unwrap_or(1.0);
                    let why = field("why").and_then(|w| w.as_string());
                    finish(decode::<T>(&reply), Some((threads as usize, why)));
                }
                None => {
                    // The script's own report: the wasm failed (a panic is a bug of ours).
                    let what = field("error")
                        .and_then(|e| e.as_string())
                        .unwrap_or_else(|| "no message".into());
                    let error = format!("the scheduler stopped with an error: {what}");
                    finish(Err(vec![error]), None);
                }
            }
        });
        let options = EventListenerOptions::enable_prevent_default();
        let on_error = EventListener::new_with_options(&worker, "error", options, {
            let done = std::rc::Rc::clone(&done);
            let text = text.clone();
            move |ev| {
                // The worker did not start (its script or the wasm failed to load): answer on
                // the page's thread, and do not try workers again in this tab.
                ev.prevent_default();
                NO_WORKERS.with(|n| n.set(true));
                if let Some(job) = this.job.try_update_value(Option::take).flatten() {
                    job.worker.terminate();
                }
                if this.asked.get_value() == ticket {
                    if let Some(done) = done.borrow_mut().take() {
                        on_page_thread(text.clone(), started, done);
                    }
                }
            }
        });
        if worker.post_message(&JsValue::from_str(&text)).is_err() {
            worker.terminate();
            if let Some(done) = done.borrow_mut().take() {
                on_page_thread(text, started, done);
            }
            return;
        }
        self.job.set_value(Some(Job {
            worker,
            _on_message: on_message,
            _on_error: on_error,
        }));
    }
}

/// Answers on the page's thread after the next paint (so "Running…" shows first).
fn on_page_thread<T: DeserializeOwned + 'static>(
    request: String,
    started: f64,
    done: impl FnOnce(Result<T, Vec<String>>, Ran) + 'static,
) {
    request_animation_frame(move || {
        crate::tasks::later(0, move || {
            wasm_bindgen_futures::spawn_local(async move {
                let reply = decode::<T>(&answer(request).await);
                done(
                    reply,
                    Ran {
                        ms: now_ms() - started,
                        in_worker: false,
                        threads: 1,
                        why_one: None,
                    },
                );
            });
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::questions::{CompareView, SweepView};
    use schedlab_core::questions::capacity::Capacity;
    use schedlab_core::scenario::SchedulerVersion;

    /// `answer`, run to its end: natively its split point's code is in place, so it never waits.
    fn answer_now(request: &str) -> String {
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        match std::future::Future::poll(std::pin::pin!(answer(request.to_string())), &mut cx) {
            std::task::Poll::Ready(reply) => reply,
            std::task::Poll::Pending => panic!("a native split point waited"),
        }
    }

    fn texts() -> Vec<String> {
        let nodes = "apiVersion: v1\nkind: List\nitems:\n- kind: Node\n  metadata: {name: a}\n  status: {allocatable: {cpu: '2', memory: 4Gi, pods: '10'}}\n- kind: Node\n  metadata: {name: b}\n  status: {allocatable: {cpu: '4', memory: 8Gi, pods: '10'}}\n";
        let pods = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    resources: {requests: {cpu: 500m, memory: 1Gi}}\n";
        vec![
            nodes.into(),
            pods.into(),
            String::new(),
            String::new(),
            String::new(),
        ]
    }

    /// What crosses to the worker and back is what the page computes in place: the same
    /// view, field for field (floats included).
    #[test]
    fn a_round_trip_through_json_gives_the_same_answers() {
        let e = Editors::read(texts()).unwrap();
        let other = Other::Defaults(SchedulerVersion::V1_35);
        let direct = questions::compare(&e, &other, 3).unwrap();
        let request = Request::Compare {
            texts: texts(),
            other,
            seed: 3,
        };
        let wire = serde_json::to_string(&request).unwrap();
        assert_eq!(serde_json::from_str::<Request>(&wire).unwrap(), request);
        let crossed: CompareView = decode(&answer_now(&wire)).unwrap();
        assert_eq!(crossed, direct);

        let direct = questions::sweep(&e, "seed", "0..3", 0).unwrap();
        let wire = serde_json::to_string(&Request::Sweep {
            texts: texts(),
            setting: "seed".into(),
            values: "0..3".into(),
            seed: 0,
        })
        .unwrap();
        let crossed: SweepView = decode(&answer_now(&wire)).unwrap();
        assert_eq!(crossed, direct);

        let template = questions::SAMPLE_TEMPLATE.to_string();
        let direct = questions::capacity(&e, &template, 0).unwrap();
        let wire = serde_json::to_string(&Request::Capacity {
            texts: texts(),
            template,
            seed: 0,
        })
        .unwrap();
        let crossed: Capacity = decode(&answer_now(&wire)).unwrap();
        assert_eq!(crossed, direct);
        // By hand: 6 cores and 12Gi in all, less the pod's 500m and 1Gi on one node; copies
        // of 500m/512Mi: 4 on a and 7 on b (or 3 and 8), CPU being the tighter: 11.
        assert_eq!(crossed.templates[0].count, 11);
    }

    #[test]
    fn errors_cross_as_messages() {
        let wire = serde_json::to_string(&Request::Sweep {
            texts: texts(),
            setting: "colour".into(),
            values: "1".into(),
            seed: 0,
        })
        .unwrap();
        let crossed: Result<SweepView, Vec<String>> = decode(&answer_now(&wire));
        let errors = crossed.unwrap_err();
        assert_eq!(errors.len(), 1);
        assert!(errors[0].contains("colour"), "{errors:?}");
        let garbled: Result<SweepView, Vec<String>> = decode(&answer_now("{\"question\":1}"));
        assert!(garbled.unwrap_err()[0].starts_with("the worker could not read the question"));
    }
}
