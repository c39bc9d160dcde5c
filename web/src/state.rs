//! The playground's state: the four editor texts, the loaded run's facts and the frame on
//! screen, the selection, the controls; and the actions that change them.
//!
//! The run itself lives in the engine ([`crate::engine`], in a Web Worker where one starts): an
//! action sends it a request (load these texts, go to this step, inspect this cycle) and shows
//! the reply. Every valid edit reloads the scenario and runs it to its end (a millisecond or so
//! for a small cluster), then shows it at the same position as before (the end, unless the user
//! had stepped back). A big one loads in slices, with the status line counting the items read
//! and the cycles run; a newer edit, pick or link stops a load still going (its reading and its
//! run alike). Only when a load has taken longer than [`SLOW_RUN_MS`] do edits wait for a pause
//! in typing of [`DEBOUNCE_MS`]. A failed load keeps the last valid run on screen and only
//! replaces the errors. Editor texts are saved per tab (`sessionStorage`, under a slot of their own in an
//! iframe), so a reload never loses work and two tabs or frames never overwrite each other.
//!
//! The address bar follows the page: its fragment is a link to the scenario on screen, at the
//! cycle and phase on screen ([`crate::link`]), kept up to date with `history.replaceState`
//! (no new history entries) a moment after each change. A link opened in a tab that holds
//! other edited work is not applied until the user chooses ([`Playground::link_conflict`]).
//!
//! A guided lesson ([`crate::lesson`]) is its gallery scenario plus a stop: opening one loads the
//! scenario as a gallery pick does and stands the run at the stop's cycle and phase (the same
//! [`View`] a link opens), and the address bar then holds `#lesson=NAME&stop=K`. A first visit
//! (nothing saved in the tab, no link) opens the first lesson's first stop.
//!
//! Gallery examples other than the first are fetched when first opened ([`crate::gallery`]): a
//! pick or a lesson waits for its example's texts ([`Playground::fetching`] says so), and a
//! failed fetch changes nothing but the error it shows ([`Playground::fetch_error`]). The
//! example the editors started from is always one whose texts are at hand ([`Loaded`]), so
//! everything that compares the editors with it stays synchronous. The page fetches the
//! examples it starts with (the tab's saved work's, its lesson's, a link's) before it mounts
//! ([`preload_examples`]).
//!
//! Views read signals and call actions; they never run the scheduler themselves.

use crate::analysis::{self, Inspection, Phase};
use crate::embed::PageMode;
use crate::engine::{self, Load, Reply};
use crate::gallery::{self, default_config, example_named, Example, Loaded};
use crate::history::{Change, History, WorkState};
use crate::lesson::LessonAt;
use crate::link::{self, LinkError, Opened, Shared, View};
use crate::session::{Frame, SessionInfo};
use leptos::prelude::*;
use schedlab_core::input::looks_like_json;
use schedlab_core::scenario::SchedulerVersion;
use schedlab_core::Diagnostic;
use std::sync::Arc;
use std::time::Duration;

/// Saved per tab: the example the editors started from.
const EXAMPLE_KEY: &str = "example";
/// Saved per tab: the seed, when a link brought another than [`SEED`].
const SEED_KEY: &str = "seed";
/// Saved per tab: the fingerprint of the last fragment this page wrote into the address bar
/// (a reload that finds it there restores the tab's work rather than "opening a link").
const LINKED_KEY: &str = "linked";

/// Whether `fragment` is one this tab wrote into the address bar itself (so the saved work is
/// at least as new as it). [`LINKED_KEY`] holds one fingerprint, or two (space-separated) when
/// the page was left with an address-bar update pending: the address as it was and as it was
/// about to be, since a reload may start from either.
fn is_own_fragment(fragment: &str) -> bool {
    let fingerprint = link::fingerprint(fragment);
    storage::load(LINKED_KEY).is_some_and(|f| f.split(' ').any(|f| f == fingerprint))
}
/// Saved per tab: the lesson open in the panel (its name), and its stop (from 1).
const LESSON_KEY: &str = "lesson";
const LESSON_STOP_KEY: &str = "lesson.stop";

/// The seed of the tie-break between equally scored nodes, unless a link names another.
pub const SEED: u64 = 0;

/// The pause after the last change before the address bar is brought up to date.
const ADDRESS_SYNC_MS: u64 = 300;

/// The most text one editor holds that the page reads (a bigger paste is kept, not read: it
/// would hold the tab for seconds). `schedlab run` reads files of up to 64 MiB.
pub const PAGE_MAX_TEXT: usize = 16 << 20;

/// A run slower than this makes edits wait for a pause in typing.
pub const SLOW_RUN_MS: f64 = 40.0;
/// The pause in typing that a slow scenario waits for.
pub const DEBOUNCE_MS: u64 = 250;

/// One of the three input files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EditorFile {
    /// `nodes.yaml`.
    Nodes,
    /// `pods.yaml`.
    Pods,
    /// `policy.json`.
    Policy,
    /// `config.yaml`: the `KubeSchedulerConfiguration`.
    Config,
}

impl EditorFile {
    /// The editors, top to bottom.
    pub const ALL: [EditorFile; 4] = [
        EditorFile::Nodes,
        EditorFile::Pods,
        EditorFile::Policy,
        EditorFile::Config,
    ];

    /// Position in [`EditorFile::ALL`].
    pub fn index(self) -> usize {
        match self {
            EditorFile::Nodes => 0,
            EditorFile::Pods => 1,
            EditorFile::Policy => 2,
            EditorFile::Config => 3,
        }
    }

    /// `nodes`, `pods`, `policy`: the file name without extension, also used in test ids.
    pub fn stem(self) -> &'static str {
        match self {
            EditorFile::Nodes => "nodes",
            EditorFile::Pods => "pods",
            EditorFile::Policy => "policy",
            EditorFile::Config => "config",
        }
    }

    /// The tab's short title.
    pub fn tab_title(self) -> &'static str {
        match self {
            EditorFile::Config => "Config",
            f => f.title(),
        }
    }

    /// The editor's title.
    pub fn title(self) -> &'static str {
        match self {
            EditorFile::Nodes => "Nodes",
            EditorFile::Pods => "Pods",
            EditorFile::Policy => "Policy",
            EditorFile::Config => "Scheduler configuration",
        }
    }

    /// This editor's text in an example.
    pub fn example_text(self, example: Loaded) -> &'static str {
        example.text(self)
    }

    /// `JSON` or `YAML`, detected from the content as the core does.
    pub fn format_of(text: &str) -> &'static str {
        if looks_like_json(text) {
            "JSON"
        } else {
            "YAML"
        }
    }

    /// The file name given to the core, so its messages name the format the user typed.
    pub fn source_name(self, text: &str) -> String {
        let ext = if looks_like_json(text) {
            "json"
        } else {
            "yaml"
        };
        format!("{}.{ext}", self.stem())
    }

    /// The editor a diagnostic belongs under. Diagnostics that name no editor's file (such as
    /// `configuration`) go under the configuration editor.
    pub fn of_diagnostic(d: &Diagnostic) -> EditorFile {
        let stem = d.file.split('.').next().unwrap_or_default();
        EditorFile::ALL
            .into_iter()
            .find(|f| f.stem() == stem)
            .unwrap_or(EditorFile::Config)
    }

    fn storage_key(self) -> String {
        format!("editor.{}", self.stem())
    }

    /// Where the text of the last inputs that loaded is kept.
    fn valid_key(self) -> String {
        format!("valid.{}", self.stem())
    }
}

/// What is selected "everywhere": a pod or a node.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Selection {
    /// Nothing.
    #[default]
    None,
    /// A pod, by id.
    Pod(usize),
    /// A node, by name.
    Node(String),
}

/// Which cycle the inspector shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum InspectTarget {
    /// The last cycle run at the current position (follows the controls).
    #[default]
    Latest,
    /// A given cycle (from the event log or phase stepping).
    Cycle(usize),
    /// A pod's last cycle at the current position.
    Pod(usize),
}

/// Run speeds, in scheduling cycles per second.
pub const SPEEDS: [u32; 6] = [1, 2, 5, 10, 30, 100];

/// What the inspector resolves its target to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inspected {
    /// A cycle.
    Cycle(usize),
    /// A pod that has no cycle yet at this position, and its node.
    PodOnly(usize, Option<String>),
}

/// A message about a link: why it could not be opened, or what was wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkMessage {
    /// The link could not be opened (else it opened, with problems).
    pub error: bool,
    /// What to tell the user.
    pub text: String,
}

impl LinkMessage {
    fn could_not_open(e: &LinkError, showing: &str) -> LinkMessage {
        LinkMessage {
            error: true,
            text: format!("This link could not be opened: {e}. Showing {showing} instead."),
        }
    }

    fn of_problems(problems: Vec<String>) -> Option<LinkMessage> {
        (!problems.is_empty()).then(|| LinkMessage {
            error: false,
            text: format!("Opened the link, but {}.", problems.join("; ")),
        })
    }
}

/// What Copy link found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkUrl {
    /// The address of the page with the scenario in its fragment.
    Url(String),
    /// The link would be longer than a link may be ([`link::MAX_LINK`]): its length.
    TooBig(usize),
}

/// What the last Copy link did (said under the header until closed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkCopy {
    /// The link is on the clipboard; its length.
    Copied(usize),
    /// The page may not use the clipboard: the link, shown to copy by hand.
    Manual(String),
    /// Too long for a link (its length).
    TooBig(usize),
}

/// A gallery example that could not be fetched, and what asked for it (Try again).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FetchFailure {
    /// What to tell the user.
    pub text: String,
    retry: Retry,
}

/// What waits for an example's texts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Retry {
    /// A gallery pick.
    Example(&'static str),
    /// A lesson, at a stop.
    Lesson(LessonAt),
}

/// The shared state, provided as context by [`crate::App`].
#[derive(Clone, Copy)]
pub struct Playground {
    texts: [RwSignal<String>; 4],
    /// Counts the times the editors' texts were replaced from elsewhere (an example, a link, an
    /// import, a sweep's run): a big text so replaced is shown in part until asked for
    /// (`components/editor.rs`). Typing, a form's edit, Undo and Redo do not count.
    pub replaced: RwSignal<u64>,
    example: RwSignal<Loaded>,
    /// The gallery example being fetched for a pick, a lesson or a link (`None` when none is).
    pub fetching: RwSignal<Option<&'static str>>,
    /// Why the last pick or lesson could not open: its example could not be fetched.
    pub fetch_error: RwSignal<Option<FetchFailure>>,
    /// Counts the waits for an example: a newer pick, lesson or link supersedes one.
    fetch_generation: StoredValue<u64>,
    /// The seed of the run ([`SEED`] unless a link named another).
    pub seed: RwSignal<u64>,
    /// A link opened while this tab held other edited work: the page asks which to keep, and
    /// shows the work until then.
    pub link_conflict: RwSignal<Option<Arc<Opened>>>,
    /// Why a link could not be opened, or what was wrong with it.
    pub link_message: RwSignal<Option<LinkMessage>>,
    /// What the last Copy link did.
    pub link_copy: RwSignal<Option<LinkCopy>>,
    /// Where a link asked to open the run, applied when its run is loaded.
    pending_view: StoredValue<Option<View>>,
    /// The scenario part of the link to the page (computed when read).
    scenario_link: Memo<String>,
    address_timer: StoredValue<Option<TimeoutHandle>>,
    /// The current errors (empty when the inputs load).
    pub errors: RwSignal<Vec<Diagnostic>>,
    /// Why the tab's work is not saved (a refused save, a saved text that could not be read
    /// back), while it is not.
    pub save_problem: RwSignal<Option<String>>,
    /// A run is loaded in the engine (and not forgotten for a new example or link).
    has_run: StoredValue<bool>,
    /// The position the run stands at, as last asked of the engine.
    position: StoredValue<usize>,
    /// The newest load's texts.
    load_texts: StoredValue<LoadTexts, LocalStorage>,
    /// The loaded run's fixed facts.
    pub info: RwSignal<Option<Arc<SessionInfo>>>,
    /// The world at the current position.
    pub frame: RwSignal<Option<Arc<Frame>>>,
    /// The selected pod or node.
    pub selection: RwSignal<Selection>,
    /// The cycle the inspector shows.
    pub target: RwSignal<InspectTarget>,
    /// Phase-by-phase stepping: the phase of the inspected cycle on screen (`None`: all).
    pub phase: RwSignal<Option<Phase>>,
    /// Running.
    pub running: RwSignal<bool>,
    /// Index into [`SPEEDS`].
    pub speed: RwSignal<usize>,
    /// The keyboard help is open.
    pub help: RwSignal<bool>,
    /// The editor tab on screen.
    pub tab: RwSignal<EditorFile>,
    /// A message for the user (import results), dismissable.
    pub notice: RwSignal<Option<String>>,
    /// The notice offers Undo of the change that made this version of the work (only while
    /// the work is still at that version: [`Playground::version`]).
    pub undo: RwSignal<Option<u64>>,
    /// Counts the changes to the work (texts, example, seed), undo and redo included.
    pub version: RwSignal<u64>,
    /// The states that Undo and Redo go to.
    history: StoredValue<History, LocalStorage>,
    /// Whether Undo (Ctrl+Z) has a state to go back to.
    pub can_undo: RwSignal<bool>,
    /// Whether Redo (Ctrl+Shift+Z) has an undone state to go forward to.
    pub can_redo: RwSignal<bool>,
    /// Completed loads (tests and the benchmark wait for it to change).
    pub loads: RwSignal<u64>,
    /// Cycles simulated so far while a big scenario loads (`None` when idle).
    pub loading: RwSignal<Option<usize>>,
    /// While a big list is read a part at a time: its file, the items read, and how many it
    /// has.
    pub reading: RwSignal<Option<(String, usize, usize)>>,
    /// Counts the loads: a newer one supersedes an older one still going.
    load_generation: StoredValue<u64>,
    last_run_ms: StoredValue<f64>,
    /// A rerun waits for the next paint.
    deferred: StoredValue<bool>,
    pending: StoredValue<Option<TimeoutHandle>>,
    ticker: StoredValue<Option<IntervalHandle>>,
    /// What the inspector shows.
    pub inspected: Memo<Option<Inspected>>,
    /// The inspection of [`Playground::inspected`] (the engine's answer).
    pub inspection: RwSignal<Option<Inspection>>,
    /// The selected pod (for views that highlight it).
    pub selected_pod: Memo<Option<usize>>,
    /// While walking a cycle phase by phase: its pod (popped from the queue, not yet placed).
    pub in_cycle_pod: Memo<Option<usize>>,
    /// The scheduler the Config editor's text is for (v1.35 for a v1 configuration).
    pub scheduler: Memo<SchedulerVersion>,
    /// The lesson open in the lesson panel, at its stop (`None`: no lesson).
    pub lesson: RwSignal<Option<LessonAt>>,
    /// The lesson panel lists the lessons ("Back to lessons").
    pub lesson_list: RwSignal<bool>,
    /// The open lesson's scenario was edited (or its seed changed): its stops no longer
    /// describe the run on screen.
    pub lesson_edited: Memo<bool>,
    /// The run stands where the open lesson's stop puts it (its cycle, at its phase).
    pub at_stop: Memo<bool>,
    /// Counts the times a lesson's stop was brought on screen (the panel scrolls to it).
    pub stop_shown: RwSignal<u64>,
    /// The view being applied is a lesson's stop.
    stop_pending: StoredValue<bool>,
    /// The full page, or an embed ([`crate::embed`]): an embed saves nothing.
    pub mode: PageMode,
    /// Configuration B of the questions panel's comparison, once chosen (or named by the
    /// link's `compare` parameter): the link carries it beside the scenario.
    pub compare_link: RwSignal<Option<crate::questions::Other>>,
    /// The tab's saved work could not be restored (its example could not be fetched): nothing
    /// is saved, and the address bar keeps the link to that work, so a reload tries again.
    restore_failed: bool,
}

impl Playground {
    /// Loads the tab's saved texts (or the example), or the link in the address bar, and runs
    /// them.
    pub fn new() -> Playground {
        let mode = PageMode::of_page();
        if mode.embed {
            // An embed shows what its host page asks for and keeps nothing.
            storage::disable();
        }
        let save_problem = RwSignal::new(None);
        storage::report_to(save_problem);
        storage::adopt_legacy();
        let first_visit = storage::is_empty() && !mode.embed;
        let fragment = address::fragment();
        // The fragment this tab wrote itself (a reload): the saved work is newer.
        let own_fragment = is_own_fragment(&fragment);
        let mut restore_failed = false;
        let saved = match Saved::load() {
            Ok(saved) => saved,
            Err(example) => {
                // The work starts from an example that could not be fetched: keep it saved as
                // it is, and the address bar as it is (a reload tries again), and show the
                // first example meanwhile.
                storage::disable();
                restore_failed = true;
                save_problem.set(Some(format!(
                    "Your saved work could not be restored: it starts from the {example} example, which could not be loaded ({}). It is still saved in this tab: reload the page to try again. Until then, nothing you do here is saved.",
                    gallery::failure(example).unwrap_or_else(|| "it was not fetched".into())
                )));
                Saved {
                    shared: Shared::of_example(Loaded::first()),
                }
            }
        };
        let edited = saved.is_edited();
        let mut start = saved.shared.clone();
        let mut view = None;
        let mut message = None;
        let mut conflict = None;
        let mut lesson = saved_lesson();
        if own_fragment {
            if !restore_failed {
                view = Some(link::decode_view(&fragment));
            }
        } else {
            match preloaded_link(&fragment) {
                Ok(None) => {
                    // A first visit opens the first lesson at its first stop.
                    let first = LessonAt::new(0, 0).filter(|_| first_visit);
                    if let Some((at, shared)) =
                        first.and_then(|at| Some((at, Shared::of_lesson(at)?)))
                    {
                        save_shared(&shared, false);
                        view = Some(link::stop_view(at.stop()));
                        start = shared;
                        lesson = Some(at);
                        crate::components::inspector::hold_scroll_until_the_visitor_acts();
                    }
                }
                Err(e) => message = Some(LinkMessage::could_not_open(&e, &saved.showing())),
                Ok(Some(opened)) => {
                    if edited && opened.shared != saved.shared {
                        conflict = Some(Arc::new(opened));
                    } else {
                        save_shared(&opened.shared, opened.shared == saved.shared);
                        message = LinkMessage::of_problems(
                            opened.warnings.iter().map(|w| w.to_string()).collect(),
                        );
                        view = Some(opened.view);
                        lesson = opened.lesson;
                        start = opened.shared;
                    }
                }
            }
        }
        let example = Loaded::named_or_first(&start.example);
        let texts = start.texts.map(RwSignal::new);
        let example_signal = RwSignal::new(example);
        let seed = RwSignal::new(start.seed);
        let scenario_link = Memo::new(move |_| {
            link::encode_scenario(&Shared {
                example: example_signal.get().name().to_string(),
                texts: texts.map(|t| t.get()),
                seed: seed.get(),
            })
        });
        let info: RwSignal<Option<Arc<SessionInfo>>> = RwSignal::new(None);
        let frame: RwSignal<Option<Arc<Frame>>> = RwSignal::new(None);
        let selection = RwSignal::new(Selection::None);
        let target = RwSignal::new(InspectTarget::Latest);
        let inspected = Memo::new(move |_| {
            let frame = frame.get()?;
            match target.get() {
                InspectTarget::Latest => frame.last_cycle.map(Inspected::Cycle),
                InspectTarget::Cycle(c) => Some(Inspected::Cycle(c)),
                InspectTarget::Pod(p) => {
                    let status = frame.pods.get(p)?;
                    Some(match status.last_cycle {
                        Some(c) => Inspected::Cycle(c),
                        None => Inspected::PodOnly(p, status.node.clone()),
                    })
                }
            }
        });
        let inspection: RwSignal<Option<Inspection>> = RwSignal::new(None);
        // Counts the inspections asked: only the newest one's answer is shown.
        let asked = StoredValue::new(0u64);
        Effect::new(move |_| {
            let what = inspected.get();
            let info = info.get();
            asked.update_value(|n| *n += 1);
            let (Some(what), Some(info)) = (what, info) else {
                inspection.set(None);
                return;
            };
            match what {
                Inspected::Cycle(c) => {
                    let question = asked.get_value();
                    engine::inspect(c, move |answer| {
                        if asked.get_value() == question {
                            inspection.set(answer)
                        }
                    })
                }
                Inspected::PodOnly(p, node) => {
                    inspection.set(analysis::inspect_pod_without_cycle(&info, p, node))
                }
            }
        });
        let selected_pod = Memo::new(move |_| match selection.get() {
            Selection::Pod(p) => Some(p),
            _ => None,
        });
        let phase: RwSignal<Option<Phase>> = RwSignal::new(None);
        let in_cycle_pod = Memo::new(move |_| {
            let walking = phase
                .get()
                .is_some_and(|p| p < Phase::Assume && p != Phase::Preempt);
            match (walking, target.get()) {
                (true, InspectTarget::Cycle(c)) => {
                    info.with(|i| i.as_ref()?.cycles.get(c).map(|f| f.pod))
                }
                _ => None,
            }
        });
        let config_text = texts[EditorFile::Config.index()];
        let scheduler =
            Memo::new(move |_| config_text.with(|t| crate::forms::config::scheduler_of(t)));
        save_lesson(lesson);
        let lesson = RwSignal::new(lesson);
        let lesson_edited = Memo::new(move |_| {
            let Some(at) = lesson.get() else {
                return false;
            };
            // A lesson whose example is not at hand cannot be what the editors hold.
            let Some(want) = at.source().editor_texts() else {
                return true;
            };
            seed.get() != SEED
                || texts
                    .iter()
                    .zip(want)
                    .any(|(t, want)| t.with(|t| t != want))
        });
        let at_stop = Memo::new(move |_| {
            lesson.get().is_some_and(|at| {
                let stop = at.stop();
                phase.get() == Some(stop.phase)
                    && target.get() == InspectTarget::Cycle(stop.index())
            })
        });
        let state = Playground {
            texts,
            replaced: RwSignal::new(0),
            example: example_signal,
            fetching: RwSignal::new(None),
            fetch_error: RwSignal::new(None),
            fetch_generation: StoredValue::new(0),
            seed,
            link_conflict: RwSignal::new(conflict),
            link_message: RwSignal::new(message),
            link_copy: RwSignal::new(None),
            pending_view: StoredValue::new(view),
            scenario_link,
            address_timer: StoredValue::new(None),
            errors: RwSignal::new(Vec::new()),
            save_problem,
            has_run: StoredValue::new(false),
            position: StoredValue::new(0),
            load_texts: StoredValue::new_local(LoadTexts::default()),
            info,
            frame,
            selection,
            target,
            phase,
            running: RwSignal::new(false),
            speed: RwSignal::new(2),
            help: RwSignal::new(false),
            tab: RwSignal::new(EditorFile::Nodes),
            loading: RwSignal::new(None),
            reading: RwSignal::new(None),
            loads: RwSignal::new(0),
            notice: RwSignal::new(None),
            undo: RwSignal::new(None),
            version: RwSignal::new(0),
            history: StoredValue::new_local(History::default()),
            can_undo: RwSignal::new(false),
            can_redo: RwSignal::new(false),
            load_generation: StoredValue::new(0),
            last_run_ms: StoredValue::new(0.0),
            deferred: StoredValue::new(false),
            pending: StoredValue::new(None),
            ticker: StoredValue::new(None),
            inspected,
            inspection,
            selected_pod,
            in_cycle_pod,
            scheduler,
            lesson,
            lesson_list: RwSignal::new(false),
            lesson_edited,
            at_stop,
            stop_shown: RwSignal::new(0),
            stop_pending: StoredValue::new(view.is_some() && lesson.get_untracked().is_some()),
            mode,
            compare_link: RwSignal::new(
                link::decode_compare(&fragment)
                    .map(|b| crate::questions::Other::from_link_value(&b)),
            ),
            restore_failed,
        };
        engine::start(move |reply| state.on_load_reply(reply));
        // Should the saved texts have errors, the last inputs that loaded are shown, as before
        // the reload.
        let valid: Option<Vec<String>> = EditorFile::ALL
            .iter()
            .map(|f| storage::load(&f.valid_key()))
            .collect();
        let texts: Vec<String> = state.texts.iter().map(|t| t.get_untracked()).collect();
        state.load(false, valid.filter(|v| *v != texts));
        state.last_run_ms.set_value(0.0);
        state
    }

    /// An editor's text.
    pub fn text(&self, file: EditorFile) -> ReadSignal<String> {
        self.texts[file.index()].read_only()
    }

    /// The user typed in an editor: save, reload, rerun.
    pub fn edit(&self, file: EditorFile, text: String) {
        self.remember(Change::Typing(file.index()));
        storage::save(&file.storage_key(), &text);
        self.texts[file.index()].set(text);
        self.cancel_pending();
        if self.last_run_ms.get_value() > SLOW_RUN_MS {
            let this = *self;
            let handle = set_timeout_with_handle(
                move || {
                    this.pending.set_value(None);
                    this.rerun(false);
                },
                Duration::from_millis(DEBOUNCE_MS),
            );
            self.pending.set_value(handle.ok());
        } else {
            self.recompute();
        }
    }

    /// A finished edit (a form field): save and rerun at once.
    pub fn commit(&self, file: EditorFile, text: String) {
        self.remember(Change::Other);
        storage::save(&file.storage_key(), &text);
        self.texts[file.index()].set(text);
        self.cancel_pending();
        self.rerun(false);
    }

    /// Replaces the texts of some editors (an import), then reruns. The notice that tells of
    /// it offers Undo.
    pub fn import(&self, texts: Vec<(EditorFile, String)>) {
        self.replace_texts(texts);
        self.undo.set(Some(self.version.get_untracked()));
    }

    /// Sets configuration B of the comparison (the link carries it from now on).
    pub fn set_compare(&self, b: crate::questions::Other) {
        self.compare_link.set(Some(b));
        self.schedule_address_sync();
    }

    /// Opens one run of a sweep: its seed, and the editors' texts that configure it. The
    /// notice's Undo puts the work back as it was.
    pub fn open_run(&self, seed: u64, texts: Vec<(EditorFile, String)>) {
        self.remember(Change::Other);
        self.cancel_pending();
        self.seed.set(seed);
        self.replaced.update(|n| *n += 1);
        for (file, text) in texts {
            storage::save(&file.storage_key(), &text);
            self.texts[file.index()].set(text);
        }
        self.rerun(true);
        self.undo.set(Some(self.version.get_untracked()));
    }

    /// The notice's Undo: undoes the change it told of, and only while the work is as that
    /// change left it.
    pub fn undo_import(&self) {
        if self.undo.get_untracked() == Some(self.version.get_untracked()) {
            self.undo.set(None);
            self.undo();
        }
    }

    // ---- undo and redo ---------------------------------------------------------------------

    /// The work as it is now.
    fn work_state(&self) -> WorkState {
        WorkState {
            example: self.example.get_untracked().name(),
            texts: self
                .texts
                .map(|t| t.with_untracked(|t| Arc::from(t.as_str()))),
            seed: self.seed.get_untracked(),
        }
    }

    /// A change is about to replace the work: keep it for Undo.
    fn remember(&self, change: Change) {
        let this = *self;
        self.history
            .update_value(|h| h.record(|| this.work_state(), change, now_ms()));
        self.changed();
    }

    /// The work changed: a new version, and Undo and Redo as the history now allows.
    fn changed(&self) {
        self.version.update(|v| *v += 1);
        let (undo, redo) = self.history.with_value(|h| (h.can_undo(), h.can_redo()));
        self.can_undo.set(undo);
        self.can_redo.set(redo);
    }

    /// Ctrl+Z: back to the state before the last change.
    pub fn undo(&self) {
        let current = self.work_state();
        let mut to = None;
        self.history.update_value(|h| {
            let mut now = current;
            // A change that changed nothing (Reset of an unedited example) is skipped.
            while let Some(previous) = h.undo(now.clone()) {
                if previous != now {
                    to = Some(previous);
                    break;
                }
                now = previous;
            }
        });
        match to {
            Some(state) => {
                self.restore(state);
                self.notify("Undone (Ctrl+Shift+Z redoes it).".into());
            }
            None => self.notify("Nothing to undo.".into()),
        }
    }

    /// Ctrl+Shift+Z: forward to the state the last Undo left.
    pub fn redo(&self) {
        let current = self.work_state();
        let mut to = None;
        self.history.update_value(|h| to = h.redo(current));
        match to {
            Some(state) => {
                self.restore(state);
                self.notify("Redone.".into());
            }
            None => self.notify("Nothing to redo.".into()),
        }
    }

    /// Puts a state of the work back in the editors (saved as the tab's), then reruns.
    fn restore(&self, state: WorkState) {
        self.cancel_pending();
        self.pause();
        self.undo.set(None);
        let shared = Shared {
            example: state.example.to_string(),
            texts: state.texts.map(|t| t.to_string()),
            seed: state.seed,
        };
        save_shared(&shared, false);
        // An example the work held was at hand then, and fetched texts are kept.
        self.example.set(Loaded::named_or_first(&shared.example));
        self.seed.set(shared.seed);
        for (signal, text) in self.texts.iter().zip(shared.texts) {
            if signal.with_untracked(|t| *t != text) {
                signal.set(text);
            }
        }
        self.changed();
        self.rerun(true);
    }

    /// Switches the scheduler: the Config editor gets that scheduler's default configuration
    /// (its old text can be put back with Undo, as after an import), then the scenario reruns.
    pub fn switch_scheduler(&self, to: SchedulerVersion) {
        if self.scheduler.get_untracked() == to {
            return;
        }
        self.import(vec![(EditorFile::Config, default_config(to).to_string())]);
        let what = match to {
            SchedulerVersion::V1_35 => {
                "Switched to kube-scheduler v1.35: the Config editor holds its default v1 configuration, and the Policy is not read."
            }
            SchedulerVersion::V1_17 => {
                "Switched to kube-scheduler v1.17: the Config editor holds its default configuration, and the Policy applies again."
            }
        };
        self.notify(what.into());
    }

    /// Shows a short message under the header (import results and the like).
    pub fn notify(&self, message: String) {
        self.notice.set(Some(message));
    }

    /// Replaces the texts of some editors at once, then reruns.
    pub fn replace_texts(&self, texts: Vec<(EditorFile, String)>) {
        self.remember(Change::Other);
        self.cancel_pending();
        self.replaced.update(|n| *n += 1);
        for (file, text) in texts {
            storage::save(&file.storage_key(), &text);
            self.texts[file.index()].set(text);
        }
        self.rerun(true);
    }

    fn cancel_pending(&self) {
        if let Some(handle) = self.pending.get_value() {
            handle.clear();
            self.pending.set_value(None);
        }
    }

    /// Puts the example back in every editor and forgets the saved texts. In a lesson, its
    /// scenario comes back and the run stands at its stop again.
    pub fn reset(&self) {
        match self.lesson.get_untracked() {
            Some(at) if at.source().scenario == self.example.get_untracked().name() => {
                self.restart_lesson(at)
            }
            _ => self.load_example(self.example.get_untracked().name()),
        }
    }

    /// Opens a gallery example in every editor (the edited texts are replaced), and leaves the
    /// lesson, if one is open. An example not at hand is fetched first: the editors change
    /// when it has come, and not at all when it cannot.
    pub fn load_example(&self, name: &str) {
        let this = *self;
        let example = example_named(name);
        self.with_example(example, Retry::Example(example.name), move |loaded| {
            this.set_lesson(None);
            this.lesson_list.set(false);
            this.open_example(loaded, None);
        });
    }

    /// Runs `then` with an example's texts: at once when they are at hand (compiled in, or
    /// fetched before), else once they are fetched, while [`Playground::fetching`] names the
    /// example. A newer pick, lesson or link supersedes the wait, and so does any change to the
    /// work meanwhile (the notice says so): `then` never runs over work it did not see. A
    /// failed fetch changes nothing but [`Playground::fetch_error`].
    fn with_example(
        &self,
        example: &'static Example,
        retry: Retry,
        then: impl FnOnce(Loaded) + 'static,
    ) {
        let generation = self.supersede_fetch();
        if let Some(loaded) = example.texts() {
            then(loaded);
            return;
        }
        self.fetching.set(Some(example.name));
        let version = self.version.get_untracked();
        let this = *self;
        wasm_bindgen_futures::spawn_local(async move {
            let fetched = gallery::fetch(example).await;
            if this.fetch_generation.get_value() != generation {
                return;
            }
            this.fetching.set(None);
            match fetched {
                Ok(loaded) if this.version.get_untracked() == version => then(loaded),
                Ok(_) => this.notify(format!(
                    "The {} example was not opened: the work changed while it loaded. Choose it again to open it.",
                    example.name
                )),
                Err(why) => this.fetch_error.set(Some(FetchFailure {
                    text: format!(
                        "The {} example could not be loaded ({why}). Nothing was replaced: the editors hold what they held.",
                        example.name
                    ),
                    retry,
                })),
            }
        });
    }

    /// Ends any wait for an example (its fetch goes on, and keeps its texts, but opens
    /// nothing) and its error; the number of the wait that starts now.
    fn supersede_fetch(&self) -> u64 {
        let generation = self.fetch_generation.get_value() + 1;
        self.fetch_generation.set_value(generation);
        if self.fetching.get_untracked().is_some() {
            self.fetching.set(None);
        }
        if self.fetch_error.with_untracked(Option::is_some) {
            self.fetch_error.set(None);
        }
        generation
    }

    /// Try again: what could not open because its example could not be fetched.
    pub fn retry_fetch(&self) {
        match self.fetch_error.get_untracked().map(|f| f.retry) {
            Some(Retry::Example(name)) => self.load_example(name),
            Some(Retry::Lesson(at)) => self.restart_lesson(at),
            None => {}
        }
    }

    /// Puts a gallery example in every editor and forgets the saved texts, then runs it and
    /// opens it at `view` (at its end when `None`).
    fn open_example(&self, example: Loaded, view: Option<View>) {
        self.remember(Change::Other);
        self.cancel_pending();
        self.pause();
        // A notice told of the work this replaces.
        self.notice.set(None);
        self.undo.set(None);
        storage::save(EXAMPLE_KEY, example.name());
        storage::remove(SEED_KEY);
        self.example.set(example);
        self.seed.set(SEED);
        self.phase.set(None);
        self.pending_view.set_value(view);
        self.replaced.update(|n| *n += 1);
        for f in EditorFile::ALL {
            storage::remove(&f.storage_key());
            storage::remove(&f.valid_key());
            self.texts[f.index()].set(f.example_text(example).into());
        }
        self.selection.set(Selection::None);
        self.target.set(InspectTarget::Latest);
        self.forget_run();
        self.rerun(true);
    }

    /// The gallery example the editors started from.
    pub fn example(&self) -> &'static Example {
        self.example.get().example
    }

    /// Selects a pod everywhere and shows its last cycle in the inspector.
    pub fn select_pod(&self, pod: usize) {
        self.phase.set(None);
        self.selection.set(Selection::Pod(pod));
        self.target.set(InspectTarget::Pod(pod));
    }

    /// Selects a node everywhere.
    pub fn select_node(&self, node: &str) {
        self.selection.set(Selection::Node(node.to_string()));
    }

    /// Every current error (empty when the inputs load).
    pub fn errors(&self) -> Vec<Diagnostic> {
        self.errors.get()
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

    /// Whether any editor differs from the example.
    pub fn is_edited(&self) -> bool {
        EditorFile::ALL.iter().any(|f| {
            let example = self.example.get();
            self.texts[f.index()].with(|t| t != f.example_text(example))
        })
    }

    /// Whether the results on screen are older than the inputs (the inputs have errors).
    pub fn is_stale(&self) -> bool {
        self.errors.with(|e| !e.is_empty())
    }

    /// Reruns the scenario: at once when the last load was quick, otherwise (or when `defer`)
    /// after the next paint, with the status saying so, so that the input that asked for it is
    /// answered on screen first.
    fn rerun(&self, defer: bool) {
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
            set_timeout(
                move || {
                    this.deferred.set_value(false);
                    this.recompute_in_slices();
                },
                Duration::ZERO,
            );
        });
    }

    /// [`Playground::load`], reading each big list that changed a chunk of items at a time
    /// ([`crate::engine::host`]), so that reading big-cluster's 10 000 pods never holds the page
    /// for long.
    fn recompute_in_slices(&self) {
        self.load(true, None);
    }

    /// Loads the current texts ([`Playground::load`]) in as few tasks as it can.
    fn recompute(&self) {
        self.load(false, None);
    }

    /// Loads the current texts. On success a new session replaces the old one (and the texts
    /// are kept as the last valid ones); on failure only the errors are replaced, and the last
    /// valid session stays on screen, unless `fallback` texts are given: then their run is
    /// shown. The replies arrive in [`Playground::on_load_reply`].
    fn load(&self, sliced: bool, fallback: Option<Vec<String>>) {
        let texts: Vec<String> = self.texts.iter().map(|t| t.get_untracked()).collect();
        crate::crash::remember_inputs(
            self.texts
                .map(|t| t.with_untracked(|t| Arc::from(t.as_str()))),
        );
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
            if let Some(view) = self.pending_view.get_value() {
                self.pending_view.set_value(None);
                self.apply_view(view);
            }
            return;
        }
        let generation = self.load_generation.get_value() + 1;
        self.load_generation.set_value(generation);
        self.reading.set(None);
        self.loading.set(Some(0));
        // Stay where the user was: at the end (the default) or at the same step.
        let position = match (self.has_run.get_value(), self.info.get_untracked()) {
            (true, Some(info)) if self.position.get_value() < info.end => self.position.get_value(),
            _ => usize::MAX,
        };
        let started = now_ms();
        self.load_texts.update_value(|l| {
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
            seed: self.seed.get_untracked(),
            position,
            sliced,
            fallback,
        });
        // A run that goes on after this task (a big one, in slices, or one in the worker)
        // counts as slow until it ends.
        if !self.load_texts.with_value(|l| l.settled) {
            self.last_run_ms
                .set_value((now_ms() - started).max(SLOW_RUN_MS + 1.0));
        }
    }

    /// Whether the run on screen is of `texts` and the seed, with no load going on (then the
    /// engine's session is that run too).
    fn shows(&self, texts: &[String]) -> bool {
        self.has_run()
            && self.info.with_untracked(|i| {
                i.as_ref()
                    .is_some_and(|i| i.seed == self.seed.get_untracked())
            })
            && self
                .load_texts
                .with_value(|l| l.settled && l.shown.as_deref() == Some(texts))
    }

    /// A load ended (it loaded, or failed with nothing to run instead): edits wait for a
    /// pause in typing only if it took long.
    fn load_ended(&self) {
        self.load_texts.update_value(|l| l.settled = true);
        let (generation, started) = self.load_texts.with_value(|l| (l.generation, l.started));
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
    fn on_load_reply(&self, reply: Reply) {
        let generation = match &reply {
            Reply::Reading { generation, .. }
            | Reply::Valid { generation }
            | Reply::Failed { generation, .. }
            | Reply::Running { generation, .. }
            | Reply::Loaded { generation, .. } => *generation,
            Reply::Lost => {
                // The editors' texts again, at the same place; should they have errors, the
                // run that was on screen.
                let shown = self.load_texts.with_value(|l| l.shown.clone());
                self.load_texts.update_value(|l| l.shown = None);
                self.load(false, shown);
                return;
            }
            _ => return,
        };
        let (current, forgotten) = self.load_texts.with_value(|l| (l.generation, l.forgotten));
        if generation <= forgotten {
            return;
        }
        if generation != current {
            if let Reply::Loaded { info, frame, .. } = reply {
                // A superseded load that ended before the engine heard of the newer one: its
                // run is now the engine's session, and a valid run of newer texts than the one
                // on screen, so it is shown (the newer load's run replaces it, unless that
                // fails).
                self.has_run.set_value(true);
                self.position.set_value(frame.position);
                self.load_texts.update_value(|l| l.shown = None);
                self.phase.set(None);
                self.info.set(Some(info));
                self.frame.set(Some(frame));
            }
            return;
        }
        match reply {
            Reply::Reading { file, read, of, .. } => self.reading.set(Some((file, read, of))),
            Reply::Valid { .. } => {
                self.reading.set(None);
                self.load_texts.with_value(|l| {
                    for (f, t) in EditorFile::ALL.iter().zip(&l.texts) {
                        storage::save(&f.valid_key(), t);
                    }
                });
                self.errors.set(Vec::new());
            }
            Reply::Failed {
                errors, fallback, ..
            } => {
                self.reading.set(None);
                self.errors.set(errors);
                if fallback {
                    // The fallback's run follows: it is of the fallback texts.
                    self.load_texts
                        .update_value(|l| l.texts = l.fallback.take().unwrap_or_default());
                } else {
                    self.load_ended();
                    self.loading.set(None);
                    // A link's view needs a run; one that does not load has none.
                    self.pending_view.set_value(None);
                    self.stop_pending.set_value(false);
                }
            }
            Reply::Running { cycles, .. } => {
                self.reading.set(None);
                self.loading.set(Some(cycles));
            }
            Reply::Loaded { info, frame, .. } => {
                self.load_ended();
                self.load_texts
                    .update_value(|l| l.shown = Some(l.texts.clone()));
                self.loading.set(None);
                self.has_run.set_value(true);
                self.position.set_value(frame.position);
                self.phase.set(None);
                self.info.set(Some(info));
                self.frame.set(Some(frame));
                if let Some(view) = self.pending_view.get_value() {
                    self.pending_view.set_value(None);
                    self.apply_view(view);
                }
                self.loads.update(|n| *n += 1);
            }
            _ => {}
        }
    }

    /// Forgets the loaded run: the next load opens at its end, and a link's view waits for
    /// it. The frame stays on screen until then.
    fn forget_run(&self) {
        self.has_run.set_value(false);
        // The loads sent so far stop, and what they still reply is of the forgotten run.
        let generation = self.load_generation.get_value() + 1;
        self.load_generation.set_value(generation);
        self.load_texts.update_value(|l| l.forgotten = generation);
        engine::forget(generation);
    }

    /// Whether a run is loaded (the last run that loaded: while the inputs have errors, or a
    /// newer run is still loading, not the editors' texts).
    pub fn has_run(&self) -> bool {
        self.has_run.get_value() && self.info.with_untracked(Option::is_some)
    }

    // ---- links and the address bar ---------------------------------------------------------

    /// What the tab holds now, as a link shares it.
    fn shared_untracked(&self) -> Shared {
        Shared {
            example: self.example.get_untracked().name().to_string(),
            texts: self.texts.map(|t| t.get_untracked()),
            seed: self.seed.get_untracked(),
        }
    }

    fn is_edited_untracked(&self) -> bool {
        let example = self.example.get_untracked();
        EditorFile::ALL
            .iter()
            .any(|f| self.texts[f.index()].with_untracked(|t| t != f.example_text(example)))
    }

    /// What a message says the page shows when a link fails.
    fn showing(&self) -> String {
        if self.is_edited_untracked() {
            "the edited work in this tab".to_string()
        } else {
            format!("the {} example", self.example.get_untracked().name())
        }
    }

    /// Where the page stands, as a link says it: the inspected cycle, the phase being walked,
    /// and the position when it is not the one those imply. Nothing at the end of the run.
    pub fn current_view(&self) -> View {
        let Some((position, end)) = self
            .frame
            .with_untracked(|f| f.as_ref().map(|f| (f.position, f.end)))
        else {
            return View::default();
        };
        let unless_implied =
            |implied: Option<usize>| (implied != Some(position)).then_some(position);
        match (self.phase.get_untracked(), self.target.get_untracked()) {
            (Some(phase), InspectTarget::Cycle(c)) => View {
                cycle: Some(c),
                phase: Some(phase),
                step: unless_implied(self.phase_position(c, phase)),
            },
            (_, target) => {
                if target == InspectTarget::Latest && position >= end {
                    return View::default();
                }
                match self.inspected.get_untracked() {
                    Some(Inspected::Cycle(c)) => View {
                        cycle: Some(c),
                        phase: None,
                        step: unless_implied(self.position_after_cycle(c)),
                    },
                    _ => View {
                        cycle: None,
                        phase: None,
                        step: Some(position),
                    },
                }
            }
        }
    }

    /// The position at which phase stepping shows `phase` of `cycle` (see
    /// [`Playground::step_phase`]): before the cycle's step until `selectHost`, after it for
    /// `assume` and `preempt`, one step later for `bind`.
    fn phase_position(&self, cycle: usize, phase: Phase) -> Option<usize> {
        self.info.with_untracked(|info| {
            let info = info.as_ref()?;
            let at = *info.cycle_steps.get(cycle)?;
            Some(match phase {
                Phase::QueuePop | Phase::Filter | Phase::Score | Phase::SelectHost => at,
                Phase::Assume | Phase::Preempt => at + 1,
                Phase::Bind => (at + 2).min(info.end),
            })
        })
    }

    fn position_after_cycle(&self, cycle: usize) -> Option<usize> {
        self.info
            .with_untracked(|info| info.as_ref()?.position_after_cycle(cycle))
    }

    /// Whether cycle `cycle` of the loaded run placed its pod.
    fn placed(&self, cycle: usize) -> bool {
        self.info.with_untracked(|info| {
            info.as_ref()
                .and_then(|i| i.cycles.get(cycle))
                .is_some_and(|f| f.placed)
        })
    }

    /// Opens the loaded run where a link asked. What does not fit this run (a cycle past its
    /// end, a phase the cycle does not have) is said in the link message.
    fn apply_view(&self, view: View) {
        let facts = self
            .info
            .with_untracked(|i| i.as_ref().map(|i| (i.cycle_steps.len(), i.end)));
        let Some((cycles, end)) = facts else {
            return;
        };
        let mut problems = Vec::new();
        let mut step = view.step;
        if let Some(p) = step.filter(|&p| p > end) {
            problems.push(format!(
                "\"step={p}\" is past the end of this run (step {end}), so it opens at its end"
            ));
            step = Some(end);
        }
        self.pause();
        match view.cycle {
            Some(c) if c >= cycles => {
                let s = if cycles == 1 { "" } else { "s" };
                problems.push(format!(
                    "this run has {cycles} cycle{s}, not {}, so it opens at its end",
                    c + 1
                ));
                self.phase.set(None);
                self.target.set(InspectTarget::Latest);
                self.move_to(|info, _| info.end);
            }
            Some(c) => {
                let mut phase = view.phase;
                if let Some(p) = phase {
                    let scheduled = self.placed(c);
                    if !Phase::of(scheduled).contains(&p) {
                        let why = if scheduled {
                            "its pod was placed"
                        } else {
                            "no node fit its pod"
                        };
                        problems.push(format!(
                            "cycle {} has no {} phase ({why}), so the whole cycle is shown",
                            c + 1,
                            p.function()
                        ));
                        phase = None;
                    }
                }
                let implied = match phase {
                    Some(p) => self.phase_position(c, p),
                    None => self.position_after_cycle(c),
                };
                let position = step.or(implied).unwrap_or(end);
                self.move_to(|_, _| position);
                self.target.set(InspectTarget::Cycle(c));
                self.phase.set(phase);
            }
            None => {
                if let Some(p) = step {
                    self.move_to(|_, _| p);
                }
                self.phase.set(None);
                self.target.set(InspectTarget::Latest);
            }
        }
        if !problems.is_empty() {
            self.link_message.update(|m| match m {
                Some(m) if !m.error => {
                    m.text = format!("{}; {}.", m.text.trim_end_matches('.'), problems.join("; "))
                }
                _ => *m = LinkMessage::of_problems(problems),
            });
        }
        if self.stop_pending.get_value() {
            self.stop_pending.set_value(false);
            self.stop_shown.update(|n| *n += 1);
        }
    }

    /// Opens a view now when the run is loaded, else when it is.
    fn show_view(&self, view: View) {
        let loaded =
            self.has_run() && self.loading.get_untracked().is_none() && !self.deferred.get_value();
        if loaded {
            self.apply_view(view);
        } else {
            self.pending_view.set_value(Some(view));
        }
    }

    /// Replaces the tab's work with a link's scenario (saved as the tab's work), then runs it
    /// and opens it where the link says.
    fn open_shared(&self, opened: &Opened) {
        self.remember(Change::Other);
        self.supersede_fetch();
        self.cancel_pending();
        self.pause();
        save_shared(&opened.shared, false);
        // A link is opened only once its example is at hand (link::decode).
        self.example
            .set(Loaded::named_or_first(&opened.shared.example));
        self.seed.set(opened.shared.seed);
        self.replaced.update(|n| *n += 1);
        for f in EditorFile::ALL {
            self.texts[f.index()].set(opened.shared.texts[f.index()].clone());
        }
        self.selection.set(Selection::None);
        self.target.set(InspectTarget::Latest);
        self.phase.set(None);
        self.undo.set(None);
        self.forget_run();
        self.lesson_list.set(false);
        self.set_lesson(opened.lesson);
        self.stop_pending.set_value(opened.lesson.is_some());
        self.pending_view.set_value(Some(opened.view));
        self.link_message.set(LinkMessage::of_problems(
            opened.warnings.iter().map(|w| w.to_string()).collect(),
        ));
        self.rerun(true);
    }

    /// The user chose the link over the tab's work.
    pub fn open_link(&self) {
        if let Some(opened) = self.link_conflict.get_untracked() {
            self.link_conflict.set(None);
            self.open_shared(&opened);
        }
    }

    /// The user chose to keep the tab's work: the address bar links to it again.
    pub fn keep_work(&self) {
        self.link_conflict.set(None);
        self.sync_address_bar();
    }

    /// The fragment that links to what is on screen, or the length of the whole link when
    /// that is longer than a link may be ([`link::MAX_LINK`]); `usize::MAX` when the texts
    /// alone are more than a link may unpack to ([`link::MAX_SCENARIO`]).
    fn fragment(&self) -> Result<String, usize> {
        let lesson = self
            .lesson
            .get_untracked()
            .filter(|_| !self.lesson_edited.get_untracked());
        let fragment = match lesson {
            // A lesson as it is: its name and stop, and where the run stands when that is not
            // the stop (at the end of the run: its last step, so the link says so).
            Some(at) => {
                let view = (!self.at_stop.get_untracked()).then(|| {
                    let mut view = self.current_view();
                    if view == View::default() {
                        view.step = self.frame.with_untracked(|f| f.as_ref().map(|f| f.end));
                    }
                    view
                });
                link::encode_lesson(at, view.as_ref())
            }
            // Texts past what a link may unpack to are not even packed (a big paste would
            // cost a second of zlib per change for a link nobody can open).
            None if self
                .texts
                .iter()
                .map(|t| t.with_untracked(String::len))
                .sum::<usize>()
                > link::MAX_SCENARIO =>
            {
                return Err(usize::MAX);
            }
            None => {
                let mut fragment = self.scenario_link.get_untracked();
                fragment.push_str(&link::view_params(&self.current_view()));
                if let Some(b) = self.compare_link.get_untracked() {
                    fragment.push_str(&link::compare_param(&b.link_value()));
                }
                fragment
            }
        };
        let len = address::base().len() + 1 + fragment.len();
        if len <= link::MAX_LINK {
            Ok(fragment)
        } else {
            Err(len)
        }
    }

    /// Whether the address bar may be rewritten now: not while a link waits for the user's
    /// answer (a reload must ask again), nor while a run loads (its view is not on screen), nor
    /// while an example is fetched (a link typed in waits for it there), nor after the saved
    /// work could not be restored (a reload must find its link).
    fn may_sync_address_bar(&self) -> bool {
        self.address_link_applied() && self.loading.get_untracked().is_none()
    }

    /// Whether the link in the address bar is applied: the work was restored, and no link
    /// waits for its example, for the user's choice or for its view.
    fn address_link_applied(&self) -> bool {
        !self.restore_failed
            && self.fetching.with_untracked(Option::is_none)
            && self.link_conflict.with_untracked(|c| c.is_none())
            && self.pending_view.with_value(|v| v.is_none())
    }

    /// Writes the link to what is on screen into the address bar (no history entry). A
    /// scenario too big for a link leaves the address without a fragment.
    fn sync_address_bar(&self) {
        if !self.may_sync_address_bar() {
            return;
        }
        let fragment = self.fragment().unwrap_or_default();
        address::set_fragment(&fragment);
        storage::save(LINKED_KEY, &link::fingerprint(&fragment));
    }

    /// Cancels the pending address-bar update; whether there was one.
    fn cancel_address_sync(&self) -> bool {
        let Some(timer) = self.address_timer.get_value() else {
            return false;
        };
        timer.clear();
        self.address_timer.set_value(None);
        true
    }

    fn schedule_address_sync(&self) {
        self.cancel_address_sync();
        let this = *self;
        let handle = set_timeout_with_handle(
            move || {
                this.address_timer.set_value(None);
                this.sync_address_bar();
            },
            Duration::from_millis(ADDRESS_SYNC_MS),
        );
        self.address_timer.set_value(handle.ok());
    }

    /// Copy link: the address of the page with the scenario and the view in its fragment (the
    /// address bar is brought up to date at once).
    pub fn link_url(&self) -> LinkUrl {
        self.cancel_address_sync();
        match self.fragment() {
            Ok(fragment) => {
                if self.may_sync_address_bar() {
                    address::set_fragment(&fragment);
                    storage::save(LINKED_KEY, &link::fingerprint(&fragment));
                }
                LinkUrl::Url(format!("{}#{fragment}", address::base()))
            }
            Err(len) => LinkUrl::TooBig(len),
        }
    }

    /// A fragment typed or pasted into the address bar (or reached with Back): open it as a
    /// link, asking first when the tab holds other edited work.
    fn follow_address_bar(&self) {
        self.follow_fragment(address::fragment(), true);
    }

    /// [`Playground::follow_address_bar`] for `fragment`; `may_fetch`: a link whose example is
    /// not at hand fetches it, then is followed again (if the address bar still holds it).
    fn follow_fragment(&self, fragment: String, may_fetch: bool) {
        if is_own_fragment(&fragment) {
            return;
        }
        let decoded = link::decode(&fragment);
        if let (true, Err(LinkError::Unavailable { example, .. })) = (may_fetch, &decoded) {
            let example = example_named(example);
            let generation = self.supersede_fetch();
            self.link_conflict.set(None);
            self.fetching.set(Some(example.name));
            let this = *self;
            wasm_bindgen_futures::spawn_local(async move {
                // A failure is recorded, and the second reading says it.
                let _ = gallery::fetch(example).await;
                if this.fetch_generation.get_value() != generation {
                    return;
                }
                this.fetching.set(None);
                if address::fragment() == fragment {
                    this.follow_fragment(fragment, false);
                }
            });
            return;
        }
        if !matches!(decoded, Ok(None)) {
            // A new link supersedes one still waiting for an answer.
            self.link_conflict.set(None);
        }
        match decoded {
            // An in-page anchor: put the link back once it has scrolled.
            Ok(None) => self.schedule_address_sync(),
            Err(e) => self
                .link_message
                .set(Some(LinkMessage::could_not_open(&e, &self.showing()))),
            Ok(Some(opened)) => {
                if opened.shared == self.shared_untracked() {
                    self.link_message.set(LinkMessage::of_problems(
                        opened.warnings.iter().map(|w| w.to_string()).collect(),
                    ));
                    self.lesson_list.set(false);
                    self.set_lesson(opened.lesson);
                    self.stop_pending.set_value(opened.lesson.is_some());
                    self.show_view(opened.view);
                } else if self.is_edited_untracked() {
                    self.link_conflict.set(Some(Arc::new(opened)));
                } else {
                    self.open_shared(&opened);
                }
            }
        }
    }

    /// Subscribes the caller to everything a link to the page says: the texts, the seed, the
    /// example, the position, the inspected cycle and phase, and the lesson.
    pub fn track_link(&self) {
        for t in &self.texts {
            t.track();
        }
        self.seed.track();
        self.example.track();
        self.frame.track();
        self.target.track();
        self.phase.track();
        self.inspected.track();
        self.lesson.track();
    }

    /// The full playground's address (an embed's own without `?embed`), at what is on screen
    /// here; without a fragment when the scenario is too big for a link.
    pub fn full_page_link(&self) -> String {
        let href = web_sys::window()
            .and_then(|w| w.location().href().ok())
            .unwrap_or_default();
        let page = crate::embed::full_page_address(&href);
        match self.fragment() {
            Ok(fragment) if !fragment.is_empty() => format!("{page}#{fragment}"),
            _ => page,
        }
    }

    /// Keeps the address bar on the scenario and the position on screen (a moment after the
    /// last change, with `history.replaceState`), and follows links typed into it. Called once
    /// by [`crate::App`].
    pub fn watch_address_bar(&self) {
        let this = *self;
        Effect::new(move |_| {
            this.track_link();
            this.link_conflict.track();
            this.fetching.track();
            this.schedule_address_sync();
        });
        let handle =
            window_event_listener_untyped("hashchange", move |_| this.follow_address_bar());
        // The listener lives as long as the page.
        std::mem::forget(handle);
        let handle = window_event_listener_untyped("pagehide", move |_| this.leave_page());
        std::mem::forget(handle);
    }

    /// The page is being left (a reload, a link, a closed tab) with the address bar's update
    /// still pending: the address is brought up to date now, and both the old and the new
    /// address count as this tab's own, so a reload that started from the old one reopens
    /// the saved work (which is newer) rather than the older link.
    fn leave_page(&self) {
        if !self.cancel_address_sync() {
            return;
        }
        if !self.may_sync_address_bar() {
            // Only a load still running holds the update back (an edit just made): the
            // address's link was applied and the saved work is newer, so a reload reopens the
            // work rather than asking about the link.
            if self.address_link_applied() {
                storage::save(LINKED_KEY, &link::fingerprint(&address::fragment()));
            }
            return;
        }
        let old = address::fragment();
        self.sync_address_bar();
        let new = address::fragment();
        storage::save(
            LINKED_KEY,
            &format!("{} {}", link::fingerprint(&old), link::fingerprint(&new)),
        );
    }

    // ---- lessons ---------------------------------------------------------------------------

    /// Opens or leaves a lesson (saved with the tab's work).
    fn set_lesson(&self, at: Option<LessonAt>) {
        save_lesson(at);
        self.lesson.set(at);
    }

    /// Opens a lesson at one of its stops: its scenario in every editor, as a gallery pick
    /// puts an example there (the caller asks first when that replaces edited texts), and
    /// the run at the stop's cycle and phase.
    pub fn open_lesson(&self, at: LessonAt) {
        self.lesson_list.set(false);
        if Shared::of_lesson(at).is_some_and(|s| s == self.shared_untracked()) {
            // Its scenario is on screen already: only move.
            self.set_lesson(Some(at));
            self.show_stop(at);
        } else {
            self.restart_lesson(at);
        }
    }

    /// Puts a lesson's scenario back in every editor (the saved texts are forgotten), runs it
    /// and stands at the stop.
    fn restart_lesson(&self, at: LessonAt) {
        self.lesson_list.set(false);
        let this = *self;
        self.with_example(at.source().example(), Retry::Lesson(at), move |loaded| {
            this.lesson_list.set(false);
            this.set_lesson(Some(at));
            this.stop_pending.set_value(true);
            this.open_example(loaded, Some(link::stop_view(at.stop())));
        });
    }

    /// The scenario was edited during a lesson: put the lesson's back, at the stop the panel
    /// shows (the caller asks first, as for a gallery pick).
    pub fn reload_lesson(&self) {
        if let Some(at) = self.lesson.get_untracked() {
            self.restart_lesson(at);
        }
    }

    /// Brings the run to a lesson's stop (when the run is the lesson's).
    fn show_stop(&self, at: LessonAt) {
        self.stop_pending.set_value(true);
        self.show_view(link::stop_view(at.stop()));
    }

    /// Goes to another stop of the open lesson (`stop` from 0). Nothing happens while its
    /// scenario is edited: the stops would point at the wrong cycles.
    pub fn go_to_stop(&self, stop: usize) {
        if self.lesson_edited.get_untracked() {
            return;
        }
        if let Some(at) = self.lesson.get_untracked().and_then(|l| l.at_stop(stop)) {
            self.set_lesson(Some(at));
            self.show_stop(at);
        }
    }

    /// The open lesson's next stop; after its last, the next lesson (or, after the last
    /// lesson, the list of lessons).
    pub fn next_stop(&self) {
        let Some(at) = self.lesson.get_untracked() else {
            return;
        };
        if self.lesson_edited.get_untracked() {
            return;
        }
        if !at.is_last_stop() {
            self.go_to_stop(at.stop_index() + 1);
        } else if let Some(next) = at.next_lesson() {
            self.open_lesson(next);
        } else {
            self.show_lesson_list();
        }
    }

    /// The open lesson's previous stop.
    pub fn previous_stop(&self) {
        if let Some(stop) = self
            .lesson
            .get_untracked()
            .and_then(|at| at.stop_index().checked_sub(1))
        {
            self.go_to_stop(stop);
        }
    }

    /// Closes the lesson panel: the page stays on the scenario, as a scenario of its own.
    pub fn close_lesson(&self) {
        self.lesson_list.set(false);
        self.set_lesson(None);
    }

    /// Leaves the lesson and lists the lessons in the panel.
    pub fn show_lesson_list(&self) {
        self.set_lesson(None);
        self.lesson_list.set(true);
    }

    // ---- the controls ---------------------------------------------------------------------

    /// Moves the run to the position `position` picks (from the run's facts and the current
    /// position), and shows its frame when the engine sends it.
    fn move_to(&self, position: impl FnOnce(&SessionInfo, usize) -> usize) {
        self.move_prefetching(position, false);
    }

    /// [`Playground::move_to`]; `prefetch`: the engine records the cycle about to run in
    /// detail (phase stepping shows it before it runs).
    fn move_prefetching(
        &self,
        position: impl FnOnce(&SessionInfo, usize) -> usize,
        prefetch: bool,
    ) {
        let Some(info) = self
            .info
            .get_untracked()
            .filter(|_| self.has_run.get_value())
        else {
            return;
        };
        let to = position(&info, self.position.get_value()).min(info.end);
        self.position.set_value(to);
        let frame = self.frame;
        engine::go_to(to, prefetch, move |f| frame.set(Some(f)));
    }

    /// Steps one scheduling cycle (and the steps due before it).
    pub fn step_cycle(&self) {
        self.phase.set(None);
        self.target.set(InspectTarget::Latest);
        self.move_to(SessionInfo::next_cycle_end);
    }

    /// Steps back one cycle: to where Step stood before it ran.
    pub fn step_back(&self) {
        self.pause();
        self.phase.set(None);
        self.target.set(InspectTarget::Latest);
        self.move_to(SessionInfo::previous_cycle_end);
    }

    /// Goes to the start (t = 0, nothing scheduled).
    pub fn rewind(&self) {
        self.pause();
        self.phase.set(None);
        self.target.set(InspectTarget::Latest);
        self.move_to(|_, _| 0);
    }

    /// Goes to the end of the run.
    pub fn to_end(&self) {
        self.pause();
        self.phase.set(None);
        self.target.set(InspectTarget::Latest);
        self.move_to(|info, _| info.end);
    }

    /// The scrubber moved.
    pub fn scrub(&self, position: usize) {
        self.pause();
        self.phase.set(None);
        self.target.set(InspectTarget::Latest);
        self.move_to(|_, _| position);
    }

    /// An event was clicked: goes to just after the step that emitted it (so it is the newest
    /// event on screen) and inspects the cycle that produced it.
    pub fn jump_to_event(&self, cycle: usize, step: usize) {
        self.pause();
        self.phase.set(None);
        self.move_to(|info, _| info.position_after_cycle(cycle).unwrap_or(0).max(step + 1));
        self.target.set(InspectTarget::Cycle(cycle));
    }

    /// Steps inside a cycle: queue pop → filter → score → select host → assume → bind, or
    /// queue pop → filter → preempt. The cluster changes at `assume` (or `preempt`), the
    /// binding completes at `bind`.
    pub fn step_phase(&self) {
        self.pause();
        let current = self.phase.get_untracked();
        let walking = match (current, self.target.get_untracked()) {
            (Some(p), InspectTarget::Cycle(c)) => Some((p, c)),
            _ => None,
        };
        let Some((phase, cycle)) = walking else {
            // Start on the next cycle: apply what comes before it, then show its pop.
            let next = self
                .info
                .with_untracked(|info| info.as_ref()?.next_cycle_from(self.position.get_value()));
            if let Some((at, cycle)) = next {
                // The walk moves on at once, so that a press made before the frame arrives
                // takes the next phase; the frame follows.
                self.target.set(InspectTarget::Cycle(cycle));
                self.phase.set(Some(Phase::QueuePop));
                self.move_prefetching(|_, _| at, true);
            }
            return;
        };
        let scheduled = self.placed(cycle);
        let phases = Phase::of(scheduled);
        let next = phases
            .iter()
            .position(|&p| p == phase)
            .and_then(|i| phases.get(i + 1))
            .copied();
        if let Some(p) = next {
            self.phase.set(Some(p));
        }
        match next {
            Some(Phase::Assume | Phase::Preempt) => {
                self.move_to(|info, here| info.position_after_cycle(cycle).unwrap_or(here))
            }
            // The binding is the next step for this pod (at once, or after bindLatency).
            Some(Phase::Bind) => self.move_to(|_, here| here + 1),
            Some(_) => {}
            None => {
                // The cycle is done: start the next one.
                self.phase.set(None);
                self.step_phase();
            }
        }
    }

    /// Starts or stops running at the chosen speed.
    pub fn toggle_run(&self) {
        if self.running.get_untracked() {
            self.pause();
        } else {
            self.play();
        }
    }

    /// Starts running.
    pub fn play(&self) {
        if self.at_end() {
            self.move_to(|_, _| 0);
        }
        self.running.set(true);
        self.restart_ticker();
    }

    /// Whether the run stands (or was last sent) at its end.
    fn at_end(&self) -> bool {
        self.info.with_untracked(|i| {
            i.as_ref()
                .is_some_and(|i| self.position.get_value() >= i.end)
        })
    }

    /// Stops running.
    pub fn pause(&self) {
        if let Some(t) = self.ticker.get_value() {
            t.clear();
            self.ticker.set_value(None);
        }
        if self.running.get_untracked() {
            self.running.set(false);
        }
    }

    /// Sets the speed (restarts the timer when running).
    pub fn set_speed(&self, index: usize) {
        self.speed.set(index.min(SPEEDS.len() - 1));
        if self.running.get_untracked() {
            self.restart_ticker();
        }
    }

    fn restart_ticker(&self) {
        if let Some(t) = self.ticker.get_value() {
            t.clear();
        }
        let per_second = SPEEDS[self.speed.get_untracked()];
        let this = *self;
        let handle = set_interval_with_handle(
            move || {
                // A tick while the last step's frame is still on its way is skipped: the run
                // goes at the pace the engine and the page can show.
                if engine::waiting() {
                    return;
                }
                this.step_cycle();
                if !this.has_run() || this.at_end() {
                    this.pause();
                }
            },
            Duration::from_millis(u64::from(1000 / per_second)),
        );
        self.ticker.set_value(handle.ok());
    }
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

impl Default for Playground {
    fn default() -> Self {
        Playground::new()
    }
}

/// Reads the tab's saved texts that are kept in IndexedDB ([`crate::stash`]), so that
/// [`Playground::new`] finds them; called before the page is mounted (an embed has none).
pub async fn preload_saved_work() {
    if PageMode::of_page().embed {
        return;
    }
    let keys = storage::stashed_keys();
    if keys.is_empty() {
        return;
    }
    let problem = match crate::stash::preload(keys.clone()).await {
        Err(why) => Some(why),
        Ok(()) => keys
            .iter()
            .any(|k| crate::stash::get(k).is_none())
            .then(|| "part of it is no longer in the browser's storage".to_string()),
    };
    if let Some(why) = problem {
        storage::failed_to_read(format!(
            "Your saved work could not be read back in full ({why}): the editors without it show their example."
        ));
    }
}

/// A fragment, and what [`link::decode`] read in it.
type ReadLink = (String, Result<Option<Opened>, LinkError>);

thread_local! {
    /// The address bar's link as [`preload_examples`] read it.
    static PRELOADED: std::cell::RefCell<Option<ReadLink>> = const { std::cell::RefCell::new(None) };
}

/// Fetches the gallery examples the page starts with, so that [`Playground::new`] finds their
/// texts at hand: the example of the tab's saved work, its lesson's, and the one a link in the
/// address bar needs; called before the page is mounted. A failed fetch is recorded
/// ([`gallery::failure`]) and said by the page (the saved work stays saved; the link is not
/// opened).
pub async fn preload_examples() {
    let embed = PageMode::of_page().embed;
    let mut wanted: Vec<&'static Example> = Vec::new();
    if !embed {
        // What Playground::new does first: work of an earlier version becomes this tab's.
        storage::adopt_legacy();
        if let Some(name) = storage::load(EXAMPLE_KEY) {
            wanted.push(example_named(&name));
        }
        if let Some(src) = storage::load(LESSON_KEY).and_then(|n| crate::lesson::lesson_named(&n)) {
            wanted.push(src.example());
        }
    }
    for example in wanted {
        if example.texts().is_none() {
            let _ = gallery::fetch(example).await;
        }
    }
    let fragment = address::fragment();
    // A fragment this tab wrote itself is not read (the saved work is newer).
    let own = !embed && is_own_fragment(&fragment);
    if own {
        return;
    }
    let mut decoded = link::decode(&fragment);
    if let Err(LinkError::Unavailable { example, .. }) = &decoded {
        let _ = gallery::fetch(example_named(example)).await;
        decoded = link::decode(&fragment);
    }
    PRELOADED.with(|p| *p.borrow_mut() = Some((fragment, decoded)));
}

/// The link in the address bar, read: as [`preload_examples`] read it when that was this
/// fragment, else now.
fn preloaded_link(fragment: &str) -> Result<Option<Opened>, LinkError> {
    match PRELOADED.with(|p| p.borrow_mut().take()) {
        Some((read, decoded)) if read == fragment => decoded,
        _ => link::decode(fragment),
    }
}

/// Milliseconds from the page's time origin (0 where there is no `performance`).
fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or_default()
}

/// Saves a link's inputs as the tab's work. `same_as_saved`: they are the texts already
/// saved, so the last valid inputs saved with them still apply.
fn save_shared(shared: &Shared, same_as_saved: bool) {
    let example = Loaded::named_or_first(&shared.example);
    storage::save(EXAMPLE_KEY, example.name());
    if shared.seed == SEED {
        storage::remove(SEED_KEY);
    } else {
        storage::save(SEED_KEY, &shared.seed.to_string());
    }
    for f in EditorFile::ALL {
        let text = &shared.texts[f.index()];
        if text == f.example_text(example) {
            storage::remove(&f.storage_key());
        } else {
            storage::save(&f.storage_key(), text);
        }
        if !same_as_saved {
            storage::remove(&f.valid_key());
        }
    }
}

/// Saves the open lesson and its stop as the tab's (or forgets them).
fn save_lesson(at: Option<LessonAt>) {
    match at {
        Some(at) => {
            storage::save(LESSON_KEY, at.source().name);
            storage::save(LESSON_STOP_KEY, &(at.stop_index() + 1).to_string());
        }
        None => {
            storage::remove(LESSON_KEY);
            storage::remove(LESSON_STOP_KEY);
        }
    }
}

/// The lesson this tab had open, at its stop.
fn saved_lesson() -> Option<LessonAt> {
    let name = storage::load(LESSON_KEY)?;
    let stop = storage::load(LESSON_STOP_KEY)
        .and_then(|s| s.parse::<usize>().ok())
        .unwrap_or(1);
    LessonAt::named(&name, stop.saturating_sub(1))
}

/// The work saved in this tab.
struct Saved {
    shared: Shared,
}

impl Saved {
    /// The tab's work; the name of its example when that example's texts are not at hand
    /// (its fetch failed: [`preload_examples`]).
    fn load() -> Result<Saved, &'static str> {
        let example = example_named(&storage::load(EXAMPLE_KEY).unwrap_or_default());
        let example = example.texts().ok_or(example.name)?;
        Ok(Saved {
            shared: Shared {
                example: example.name().to_string(),
                texts: EditorFile::ALL.map(|f| {
                    storage::load(&f.storage_key())
                        .unwrap_or_else(|| f.example_text(example).into())
                }),
                seed: storage::load(SEED_KEY)
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(SEED),
            },
        })
    }

    /// Whether the texts differ from their example's.
    fn is_edited(&self) -> bool {
        let example = Loaded::named_or_first(&self.shared.example);
        EditorFile::ALL
            .iter()
            .any(|f| self.shared.texts[f.index()] != f.example_text(example))
    }

    /// What a message says the page shows when a link fails.
    fn showing(&self) -> String {
        if self.is_edited() {
            "the edited work in this tab".to_string()
        } else {
            format!("the {} example", self.shared.example)
        }
    }
}

/// The tab's saved work, best effort: a browser that refuses storage (private mode, quota) only
/// loses persistence, never the page, and the page says so ([`Playground::save_problem`]).
///
/// Texts over [`crate::stash::INLINE_MAX`], and texts `sessionStorage` refuses, are kept in
/// IndexedDB ([`crate::stash`]); `sessionStorage` then holds their key under the name plus
/// `.stashed`.
///
/// Kept in `sessionStorage`, which belongs to one tab (a duplicated tab gets a copy), so two
/// tabs never overwrite each other's work, and a reload keeps it. The frames of one tab share
/// its `sessionStorage`, so a page in a frame keeps its work under a slot named after the
/// frame's place in the page (`frame-1`: the second frame; `frame-0.2`: the third frame inside
/// the first), which stays the same when the frame or the whole page reloads. Keys:
/// `schedlab.v2.<slot>.<name>`, the slot being `tab` in a top-level page.
mod storage {
    use leptos::prelude::*;
    use std::cell::{Cell, RefCell};
    use std::collections::{HashMap, HashSet};

    const PREFIX: &str = "schedlab.v2";
    /// The names earlier versions used in `localStorage` (shared by every tab).
    const LEGACY: &str = "schedlab.v1.";
    /// Deeper nesting than this is not told apart.
    const MAX_DEPTH: usize = 16;

    thread_local! {
        static SLOT: String = find_slot();
        /// Nothing is read or written (an embed).
        static OFF: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }

    /// From now on nothing is read or written: the page keeps no work (an embed).
    pub fn disable() {
        OFF.with(|off| off.set(true));
    }

    fn session() -> Option<web_sys::Storage> {
        if OFF.with(std::cell::Cell::get) {
            return None;
        }
        web_sys::window()?.session_storage().ok().flatten()
    }

    fn key(name: &str) -> String {
        SLOT.with(|slot| format!("{PREFIX}.{slot}.{name}"))
    }

    /// `tab` for a top-level page; in a frame, `frame-` and the index of each frame on the way
    /// down from the top (readable across origins: `parent`, `length` and `parent[i]` are).
    fn find_slot() -> String {
        let Some(mut here) = web_sys::window() else {
            return "tab".into();
        };
        let mut path = Vec::new();
        for _ in 0..MAX_DEPTH {
            let Some(parent) = here.parent().ok().flatten() else {
                break;
            };
            if js_sys::Object::is(parent.as_ref(), here.as_ref()) {
                break;
            }
            let index = (0..parent.length()).find(|&i| {
                js_sys::Reflect::get_u32(parent.as_ref(), i)
                    .is_ok_and(|frame| js_sys::Object::is(&frame, here.as_ref()))
            });
            path.push(index.map_or_else(|| "x".to_string(), |i| i.to_string()));
            here = parent;
        }
        if path.is_empty() {
            return "tab".into();
        }
        path.reverse();
        format!("frame-{}", path.join("."))
    }

    /// Where a text kept in IndexedDB is named ([`crate::stash`]): the key's own name plus this.
    const STASHED: &str = ".stashed";

    thread_local! {
        /// Per name, the newest save: a slower IndexedDB write that an earlier save started
        /// must not point the name at its older text.
        static SAVES: RefCell<HashMap<String, u64>> = RefCell::new(HashMap::new());
        /// The names whose last save failed, and why the last one did.
        static FAILED: RefCell<(HashSet<String>, String)> = RefCell::new(Default::default());
        /// Where the page shows a failed save.
        static PROBLEM: Cell<Option<RwSignal<Option<String>>>> = const { Cell::new(None) };
    }

    /// Shows failed saves (and their end) in `signal`.
    pub fn report_to(signal: RwSignal<Option<String>>) {
        PROBLEM.with(|p| p.set(Some(signal)));
        show_problem();
    }

    fn show_problem() {
        let text = FAILED.with(|f| {
            let f = f.borrow();
            (!f.0.is_empty()).then(|| f.1.clone())
        });
        if let Some(signal) = PROBLEM.with(Cell::get) {
            if signal.get_untracked() != text {
                signal.set(text);
            }
        }
    }

    fn saved(name: &str) {
        let changed = FAILED.with(|f| {
            let mut f = f.borrow_mut();
            // Saving anything again ends a failed read too.
            f.0.remove(name) | f.0.remove("")
        });
        if changed {
            show_problem();
        }
    }

    fn failed(name: &str, why: String) {
        FAILED.with(|f| {
            let mut f = f.borrow_mut();
            f.0.insert(name.to_string());
            f.1 = why;
        });
        show_problem();
    }

    /// Records a problem reading the saved work back (shown as a failed save is, until the
    /// work is saved again).
    pub fn failed_to_read(message: String) {
        failed("", message);
    }

    pub fn load(name: &str) -> Option<String> {
        let s = session()?;
        if let Some(stashed) = s
            .get_item(&format!("{}{STASHED}", key(name)))
            .ok()
            .flatten()
        {
            return crate::stash::get(&stashed);
        }
        s.get_item(&key(name)).ok().flatten()
    }

    /// Saves a text: in `sessionStorage` when it is small and fits, else in IndexedDB (a
    /// failure is shown on the page, and the text stays on screen).
    pub fn save(name: &str, value: &str) {
        let Some(s) = session() else {
            return;
        };
        let generation = SAVES.with(|g| {
            let mut g = g.borrow_mut();
            let n = g.entry(name.to_string()).or_default();
            *n += 1;
            *n
        });
        let own = key(name);
        let pointer = format!("{own}{STASHED}");
        if value.len() <= crate::stash::INLINE_MAX && s.set_item(&own, value).is_ok() {
            let _ = s.remove_item(&pointer);
            saved(name);
            return;
        }
        // Too big for sessionStorage, or refused by it: IndexedDB.
        let stash_key = crate::stash::key_of(value);
        let name = name.to_string();
        let value = value.to_string();
        wasm_bindgen_futures::spawn_local(async move {
            let stored = crate::stash::put(stash_key.clone(), value).await;
            let newest = SAVES.with(|g| g.borrow().get(&name).copied()) == Some(generation);
            if !newest {
                return;
            }
            match stored.and_then(|()| {
                s.set_item(&pointer, &stash_key)
                    .map_err(|e| crate::stash::describe(&e))
            }) {
                Ok(()) => {
                    let _ = s.remove_item(&own);
                    saved(&name);
                }
                Err(why) => failed(
                    &name,
                    format!(
                        "Your latest changes could not be saved in this tab ({why}). They stay on screen: use Export to keep a copy before you reload or close the tab."
                    ),
                ),
            }
        });
    }

    pub fn remove(name: &str) {
        SAVES.with(|g| {
            if let Some(n) = g.borrow_mut().get_mut(name) {
                *n += 1;
            }
        });
        if let Some(s) = session() {
            let _ = s.remove_item(&key(name));
            let _ = s.remove_item(&format!("{}{STASHED}", key(name)));
        }
        saved(name);
    }

    /// The IndexedDB keys of the texts this tab (or frame) saved there.
    pub fn stashed_keys() -> Vec<String> {
        let Some(s) = session() else {
            return Vec::new();
        };
        let prefix = key("");
        let n = s.length().unwrap_or(0);
        (0..n)
            .filter_map(|i| s.key(i).ok().flatten())
            .filter(|k| k.starts_with(&prefix) && k.ends_with(STASHED))
            .filter_map(|k| s.get_item(&k).ok().flatten())
            .collect()
    }

    /// Whether this tab (or frame) has saved nothing at all: a first visit.
    pub fn is_empty() -> bool {
        let Some(s) = session() else {
            return true;
        };
        let prefix = key("");
        let n = s.length().unwrap_or(0);
        !(0..n).any(|i| {
            s.key(i)
                .ok()
                .flatten()
                .is_some_and(|k| k.starts_with(&prefix))
        })
    }

    /// Work saved by an earlier version in `localStorage` moves into the first tab that opens
    /// with no work of its own (and leaves `localStorage`, so no other tab takes it again).
    pub fn adopt_legacy() {
        let Some(local) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) else {
            return;
        };
        let Some(session) = session() else {
            return;
        };
        let names = ["example"].into_iter().map(String::from).chain(
            ["nodes", "pods", "policy", "config"]
                .into_iter()
                .flat_map(|stem| [format!("editor.{stem}"), format!("valid.{stem}")]),
        );
        let names: Vec<String> = names.collect();
        let has_own = names
            .iter()
            .any(|n| session.get_item(&key(n)).ok().flatten().is_some());
        if has_own {
            return;
        }
        for name in &names {
            let legacy = format!("{LEGACY}{name}");
            if let Some(value) = local.get_item(&legacy).ok().flatten() {
                if session.set_item(&key(name), &value).is_ok() {
                    let _ = local.remove_item(&legacy);
                }
            }
        }
    }
}

/// The address bar: the fragment, and rewriting it without a new history entry.
mod address {
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
}
