//! The run's loads: every valid edit reloads the scenario in the engine and runs it to its
//! end, then shows it at the same position as before (the end, unless the user had stepped
//! back). A big one loads in slices, the status counting the items read and the cycles run; a
//! newer edit, pick or link stops a load still going. Only when a load has taken longer than
//! [`SLOW_RUN_MS`] do edits wait for a pause in typing of [`DEBOUNCE_MS`]. A failed load keeps
//! the last valid run on screen and only replaces the errors.

use super::opening::Opening;
use super::position::RunPosition;
use super::saved;
use super::work::Work;
use crate::base::EditorFile;
use crate::engine::{self, Load, Reply};
use crate::link::View;
use gloo_timers::callback::Timeout;
use leptos::prelude::*;
use schedlab_core::Diagnostic;

/// A run slower than this makes edits wait for a pause in typing.
pub const SLOW_RUN_MS: f64 = 40.0;
/// The pause in typing that a slow scenario waits for.
pub const DEBOUNCE_MS: u32 = 250;

/// The loads of the work's run, provided as context by [`super::provide`].
#[derive(Clone, Copy)]
pub struct Loads {
    work: StoredValue<Work>,
    position: StoredValue<RunPosition>,
    opening: StoredValue<Opening>,
    /// The current errors (empty when the inputs load).
    pub errors: RwSignal<Vec<Diagnostic>>,
    /// Cycles simulated so far while a big scenario loads (`None` when idle).
    pub loading: RwSignal<Option<usize>>,
    /// While a big list is read a part at a time: its file, the items read, and how many it
    /// has.
    pub reading: RwSignal<Option<(String, usize, usize)>>,
    /// Completed loads (tests and the benchmark wait for it to change).
    pub loads: RwSignal<u64>,
    /// While a load waits for live extender calls: the URLs, and the calls it made so far.
    pub calling: RwSignal<Option<(Vec<String>, usize)>>,
    /// kubernetes#141781 fixed for the runs (`--fidelity extender-nodeinfo-fix`).
    pub nodeinfo_fix: RwSignal<bool>,
    /// Counts the loads: a newer one supersedes an older one still going.
    generation: StoredValue<u64>,
    /// The newest load's texts.
    newest: StoredValue<LoadTexts, LocalStorage>,
    last_run_ms: StoredValue<f64>,
    /// A rerun waits for the next paint.
    deferred: StoredValue<bool>,
    /// A rerun waiting for a pause in typing.
    debounce: StoredValue<Option<Timeout>, LocalStorage>,
    /// The Plugins program that stopped the engine's worker ([`Reply::Stuck`]): loads of it
    /// do not run it again.
    stuck_program: StoredValue<Option<String>, LocalStorage>,
}

/// The texts of the newest load (saved as the last valid ones if they read).
#[derive(Default)]
struct LoadTexts {
    generation: u64,
    /// Its texts (once it fell back, the fallback's).
    texts: Vec<String>,
    /// The texts it runs should `texts` have errors.
    fallback: Option<Vec<String>>,
    /// When it was sent ([`now_ms`]).
    started: f64,
    /// It has ended.
    settled: bool,
    /// The texts of the run on screen.
    shown: Option<Vec<String>>,
    /// Loads up to this generation are of a forgotten run: their replies are dropped.
    forgotten: u64,
}

// The contexts Loads reaches, each kept by its handle (a context holds no other by value,
// so every one stays small to copy).
impl Loads {
    fn work(&self) -> Work {
        self.work.get_value()
    }

    fn position(&self) -> RunPosition {
        self.position.get_value()
    }

    fn opening(&self) -> Opening {
        self.opening.get_value()
    }
}

impl Loads {
    /// Nothing loaded yet; [`Loads::start`] sends the first load.
    pub fn new(work: Work, position: RunPosition, opening: Opening) -> Loads {
        Loads {
            work: StoredValue::new(work),
            position: StoredValue::new(position),
            opening: StoredValue::new(opening),
            errors: RwSignal::new(Vec::new()),
            loading: RwSignal::new(None),
            reading: RwSignal::new(None),
            loads: RwSignal::new(0),
            calling: RwSignal::new(None),
            nodeinfo_fix: RwSignal::new(false),
            generation: StoredValue::new(0),
            newest: StoredValue::new_local(LoadTexts::default()),
            last_run_ms: StoredValue::new(0.0),
            deferred: StoredValue::new(false),
            debounce: StoredValue::new_local(None),
            stuck_program: StoredValue::new_local(None),
        }
    }

    /// Starts the engine and loads the work. Should the saved texts have errors, the last
    /// inputs that loaded (`valid`) are shown, as before the reload.
    pub fn start(&self, valid: Option<Vec<String>>) {
        let this = *self;
        engine::start(move |reply| this.on_reply(reply));
        let texts = self.work().texts_untracked();
        self.load(false, valid.filter(|v| *v != texts));
        self.last_run_ms.set_value(0.0);
    }

    /// The current errors that belong under one editor.
    pub fn errors_for(&self, file: EditorFile) -> Vec<Diagnostic> {
        self.errors.with(|errs| {
            errs.iter()
                .filter(|d| EditorFile::of_diagnostic(d) == file)
                .cloned()
                .collect()
        })
    }

    /// Whether the results on screen are older than the inputs (the inputs have errors).
    pub fn is_stale(&self) -> bool {
        self.errors.with(|e| !e.is_empty())
    }

    /// Whether a run is loaded ([`RunPosition::has_run`]).
    pub fn has_run(&self) -> bool {
        self.position().has_run()
    }

    /// The user typed: rerun at once when runs are quick, else after a pause in typing.
    pub fn rerun_after_typing(&self) {
        self.cancel_pending();
        if self.last_run_ms.get_value() > SLOW_RUN_MS {
            let this = *self;
            let timeout = Timeout::new(DEBOUNCE_MS, move || {
                this.cancel_pending();
                this.rerun(false);
            });
            self.debounce.set_value(Some(timeout));
        } else {
            self.recompute();
        }
    }

    /// Cancels a rerun that waits for a pause in typing.
    pub fn cancel_pending(&self) {
        // Dropping the timeout cancels it (also from inside its own callback, once it ran).
        let timeout = self.debounce.try_update_value(Option::take).flatten();
        drop(timeout);
    }

    /// Reruns the scenario: at once when the last load was quick, otherwise (or when `defer`)
    /// after the next paint, with the status saying so, so that the input that asked for it is
    /// answered on screen first.
    pub fn rerun(&self, defer: bool) {
        if !defer && self.last_run_ms.get_value() <= SLOW_RUN_MS {
            self.recompute();
            return;
        }
        if self.deferred.get_value() {
            // Already waiting for the next paint; it reads the texts as they are then.
            return;
        }
        self.deferred.set_value(true);
        self.loading.set(Some(0));
        let this = *self;
        request_animation_frame(move || {
            crate::tasks::later(0, move || {
                this.deferred.set_value(false);
                this.recompute_in_slices();
            })
        });
    }

    /// [`Loads::load`], reading each big list that changed a chunk of items at a time
    /// ([`crate::engine::host`]), so that reading big-cluster's 10 000 pods never holds the page
    /// for long.
    fn recompute_in_slices(&self) {
        self.load(true, None);
    }

    /// Loads the current texts ([`Loads::load`]) in as few tasks as it can.
    fn recompute(&self) {
        self.load(false, None);
    }

    /// Loads the current texts. On success a new session replaces the old one (and the texts
    /// are kept as the last valid ones); on failure only the errors are replaced, and the last
    /// valid session stays on screen, unless `fallback` texts are given: then their run is
    /// shown. The replies arrive in [`Loads::on_reply`].
    fn load(&self, sliced: bool, fallback: Option<Vec<String>>) {
        let texts = self.work().texts_untracked();
        crate::crash::remember_inputs(self.work().shared_texts());
        if crate::crash::panic_test_requested() {
            panic!(
                "a deliberate panic, asked for by ?{}",
                crate::crash::PANIC_TEST
            );
        }
        if fallback.is_none() && self.shows(&texts) {
            // The run on screen is of these very texts (an editor that lost focus, an edit
            // undone): nothing to load, and the position and phase stay.
            self.reading.set(None);
            self.loading.set(None);
            self.errors.set(Vec::new());
            self.opening().apply_pending();
            return;
        }
        let program = &texts[EditorFile::Plugins.index()];
        let stuck = !program.trim().is_empty()
            && self
                .stuck_program
                .with_value(|p| p.as_deref() == Some(program.as_str()));
        let generation = self.generation.get_value() + 1;
        self.generation.set_value(generation);
        self.reading.set(None);
        self.loading.set(Some(0));
        // Stay where the user was: at the end (the default) or at the same step.
        let position = self.position().reload_position();
        let started = now_ms();
        self.newest.update_value(|l| {
            *l = LoadTexts {
                generation,
                texts: texts.clone(),
                fallback: fallback.clone(),
                started,
                settled: false,
                shown: l.shown.take(),
                forgotten: l.forgotten,
            }
        });
        engine::load(Load {
            generation,
            texts,
            seed: self.work().seed.get_untracked(),
            position,
            sliced,
            fallback,
            extender_nodeinfo_fix: self.nodeinfo_fix.get_untracked(),
            stuck,
        });
        // A run that goes on after this task (a big one, in slices, or one in the worker)
        // counts as slow until it ends.
        if !self.newest.with_value(|l| l.settled) {
            self.last_run_ms
                .set_value((now_ms() - started).max(SLOW_RUN_MS + 1.0));
        }
    }

    /// Whether the run on screen is of `texts` and the seed, with no load going on (then the
    /// engine's session is that run too).
    fn shows(&self, texts: &[String]) -> bool {
        self.has_run()
            && self.position().info.with_untracked(|i| {
                i.as_ref()
                    .is_some_and(|i| i.seed == self.work().seed.get_untracked())
            })
            && self
                .newest
                .with_value(|l| l.settled && l.shown.as_deref() == Some(texts))
    }

    /// Runs the work again though its texts are those on screen (an option of the run
    /// changed).
    pub fn reload(&self) {
        self.newest.update_value(|l| l.shown = None);
        self.rerun(false);
    }

    /// The editors' texts again, at the same place (the engine lost its session); should they
    /// have errors, the run that was on screen.
    fn load_again(&self) {
        let shown = self.newest.with_value(|l| l.shown.clone());
        self.newest.update_value(|l| l.shown = None);
        self.load(false, shown);
    }

    /// A load ended (it loaded, or failed with nothing to run instead): edits wait for a
    /// pause in typing only if it took long.
    fn load_ended(&self) {
        self.calling.set(None);
        self.newest.update_value(|l| l.settled = true);
        let (generation, started) = self.newest.with_value(|l| (l.generation, l.started));
        // The first load also pays one-time costs (the worker starts, the wasm tiers up, the
        // parsers warm), so it says little about the next; the first edit measures again.
        let took = if generation == 1 {
            0.0
        } else {
            now_ms() - started
        };
        self.last_run_ms.set_value(took);
    }

    /// Shows what the engine says of the newest load; a superseded load's replies are dropped.
    fn on_reply(&self, reply: Reply) {
        let generation = match &reply {
            Reply::Reading { generation, .. }
            | Reply::Valid { generation }
            | Reply::Failed { generation, .. }
            | Reply::Running { generation, .. }
            | Reply::Calling { generation, .. }
            | Reply::Loaded { generation, .. } => *generation,
            Reply::Stuck => {
                // The newest load's plugins held the worker: not run again until they change;
                // the texts load again (failing on them), with the run that was on screen.
                let program = self
                    .newest
                    .with_value(|l| l.texts.get(EditorFile::Plugins.index()).cloned());
                self.stuck_program.set_value(program);
                self.load_again();
                return;
            }
            Reply::Lost => {
                self.load_again();
                return;
            }
            _ => return,
        };
        let (current, forgotten) = self.newest.with_value(|l| (l.generation, l.forgotten));
        if generation <= forgotten {
            return;
        }
        if generation != current {
            if let Reply::Loaded { info, frame, .. } = reply {
                // A superseded load that ended before the engine heard of the newer one: its
                // run is now the engine's session, and a valid run of newer texts than the one
                // on screen, so it is shown (the newer load's run replaces it, unless that
                // fails).
                self.newest.update_value(|l| l.shown = None);
                self.position().show_run(info, frame);
            }
            return;
        }
        match reply {
            Reply::Reading { file, read, of, .. } => self.reading.set(Some((file, read, of))),
            Reply::Valid { .. } => {
                self.reading.set(None);
                self.newest.with_value(|l| saved::save_valid(&l.texts));
                self.errors.set(Vec::new());
            }
            Reply::Failed {
                errors, fallback, ..
            } => {
                self.reading.set(None);
                self.errors.set(errors);
                if fallback {
                    // The fallback's run follows: it is of the fallback texts.
                    self.newest
                        .update_value(|l| l.texts = l.fallback.take().unwrap_or_default());
                } else {
                    self.load_ended();
                    self.loading.set(None);
                    // A link's view needs a run; one that does not load has none.
                    self.opening().drop_pending();
                }
            }
            Reply::Running { cycles, .. } => {
                self.reading.set(None);
                self.loading.set(Some(cycles));
            }
            Reply::Calling { urls, made, .. } => self.calling.set(Some((urls, made))),
            Reply::Loaded { info, frame, .. } => {
                self.load_ended();
                self.newest
                    .update_value(|l| l.shown = Some(l.texts.clone()));
                self.loading.set(None);
                self.position().show_run(info, frame);
                self.opening().apply_pending();
                self.loads.update(|n| *n += 1);
            }
            _ => {}
        }
    }

    /// Forgets the loaded run: the next load opens at its end, and a link's view waits for
    /// it. The frame stays on screen until then.
    pub fn forget_run(&self) {
        self.position().forget_run();
        // The loads sent so far stop, and what they still reply is of the forgotten run.
        let generation = self.generation.get_value() + 1;
        self.generation.set_value(generation);
        self.newest.update_value(|l| l.forgotten = generation);
        engine::forget(generation);
    }

    /// Opens `view` now when the run is loaded, else when it is.
    pub fn show_view(&self, view: View) {
        let loaded =
            self.has_run() && self.loading.get_untracked().is_none() && !self.deferred.get_value();
        if loaded {
            self.opening().apply(view);
        } else {
            self.opening().wait_for_run(Some(view));
        }
    }
}

pub use crate::tasks::now_ms;
