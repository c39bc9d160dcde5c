//! The playground's state: the four editor texts, the loaded [`Session`] and the frame on
//! screen, the selection, the controls; and the actions that change them.
//!
//! Every valid edit reloads the scenario and runs it to its end at once (a millisecond or so
//! for a small cluster; a big one runs in slices so the tab never freezes), then shows it at
//! the same position as before (the end, unless the user had stepped back). Only when a load
//! has taken longer than [`SLOW_RUN_MS`] do edits wait for a pause in typing of
//! [`DEBOUNCE_MS`]. A failed load keeps the last valid session on screen and only replaces the
//! errors. Editor texts are saved in `localStorage`, so a reload never loses work.
//!
//! Views read signals and call actions; they never run the scheduler themselves.

use crate::analysis::{self, Inspection, Phase};
use crate::session::{Frame, Session, SessionInfo};
use leptos::prelude::*;
use schedlab_core::input::{looks_like_json, read_source, Inputs};
use schedlab_core::scenario::SchedulerVersion;
use schedlab_core::{Diagnostic, Scenario, Source};
use std::sync::Arc;
use std::time::Duration;

/// An example scenario of the gallery: its name, a one-line summary and its texts.
pub struct Example {
    /// Folder name under `assets/scenarios/`.
    pub name: &'static str,
    /// What it shows.
    pub summary: &'static str,
    /// Nodes, pods (and any other objects), policy.
    pub texts: [&'static str; 3],
    /// The scheduler configuration: `None` for [`DEFAULT_CONFIG`] (v1.17's defaults); a
    /// `kubescheduler.config.k8s.io/v1` configuration runs the example under v1.35.
    pub config: Option<&'static str>,
}

/// A Policy that keeps the DefaultProvider (for examples that need no policy).
const DEFAULT_POLICY: &str = "{\n  \"kind\": \"Policy\",\n  \"apiVersion\": \"v1\"\n}\n";

/// The scheduler configuration of the v1.17 examples: v1.17's defaults, spelled out.
pub const DEFAULT_CONFIG: &str = include_str!("../../assets/scenarios/config.yaml");

/// v1.35's default configuration (a `kubescheduler.config.k8s.io/v1` document with one
/// `default-scheduler` profile, its defaults in comments).
pub const DEFAULT_CONFIG_V1: &str = include_str!("../../assets/scenarios/config-v1.yaml");

/// The default configuration text of a scheduler (what switching to it puts in the editor).
pub fn default_config(scheduler: SchedulerVersion) -> &'static str {
    match scheduler {
        SchedulerVersion::V1_17 => DEFAULT_CONFIG,
        SchedulerVersion::V1_35 => DEFAULT_CONFIG_V1,
    }
}

/// What the scheduler switch calls each scheduler.
pub fn scheduler_label(scheduler: SchedulerVersion) -> &'static str {
    match scheduler {
        SchedulerVersion::V1_17 => "kube-scheduler v1.17 (Policy)",
        SchedulerVersion::V1_35 => "v1.35 (profiles and plugins)",
    }
}

/// The gallery; the first is what every new visitor starts with.
pub const GALLERY: [Example; 11] = [
    Example {
        name: "classic",
        summary:
            "the classic policy on five nodes: resources, a selector, a taint, a cordon, host ports",
        texts: [
            include_str!("../../assets/scenarios/classic/nodes.yaml"),
            include_str!("../../assets/scenarios/classic/pods.yaml"),
            include_str!("../../assets/scenarios/classic/policy.json"),
        ],
        config: None,
    },
    Example {
        name: "anti-affinity",
        summary: "a replica set kept apart by required pod anti-affinity",
        texts: [
            include_str!("../../assets/scenarios/anti-affinity/nodes.yaml"),
            include_str!("../../assets/scenarios/anti-affinity/pods.yaml"),
            include_str!("../../assets/scenarios/anti-affinity/policy.json"),
        ],
        config: None,
    },
    Example {
        name: "follow-the-cache",
        summary: "a web tier that follows its cache with required pod affinity",
        texts: [
            include_str!("../../assets/scenarios/follow-the-cache/nodes.yaml"),
            include_str!("../../assets/scenarios/follow-the-cache/pods.yaml"),
            include_str!("../../assets/scenarios/follow-the-cache/policy.json"),
        ],
        config: None,
    },
    Example {
        name: "zone-spread",
        summary: "spreading across three zones with topologySpreadConstraints",
        texts: [
            include_str!("../../assets/scenarios/zone-spread/nodes.yaml"),
            include_str!("../../assets/scenarios/zone-spread/pods.yaml"),
            include_str!("../../assets/scenarios/zone-spread/policy.json"),
        ],
        config: None,
    },
    Example {
        name: "volume-zone",
        summary: "a pod that waits for the zone of its volume",
        texts: [
            include_str!("../../assets/scenarios/volume-zone/nodes.yaml"),
            concat!(
                include_str!("../../assets/scenarios/volume-zone/pods.yaml"),
                "\n---\n",
                include_str!("../../assets/scenarios/volume-zone/storage.yaml")
            ),
            DEFAULT_POLICY,
        ],
        config: None,
    },
    Example {
        name: "batch-displaced",
        summary: "a critical service preempts a low-priority batch job",
        texts: [
            include_str!("../../assets/scenarios/batch-displaced/nodes.yaml"),
            include_str!("../../assets/scenarios/batch-displaced/pods.yaml"),
            include_str!("../../assets/scenarios/batch-displaced/policy.json"),
        ],
        config: None,
    },
    Example {
        name: "pdb-steers",
        summary: "a PodDisruptionBudget steers preemption to another node",
        texts: [
            include_str!("../../assets/scenarios/pdb-steers/nodes.yaml"),
            include_str!("../../assets/scenarios/pdb-steers/pods.yaml"),
            include_str!("../../assets/scenarios/pdb-steers/policy.json"),
        ],
        config: None,
    },
    Example {
        name: "taints-first-v135",
        summary: "kube-scheduler v1.35 on the classic cluster: taints are checked before resources",
        texts: [
            include_str!("../../assets/scenarios/taints-first-v135/nodes.yaml"),
            include_str!("../../assets/scenarios/taints-first-v135/pods.yaml"),
            DEFAULT_POLICY,
        ],
        config: Some(include_str!("../../assets/scenarios/taints-first-v135/config.yaml")),
    },
    Example {
        name: "zone-spread-v135",
        summary: "v1.35 with no Policy: PodTopologySpread filters, and its system defaults spread a Service",
        texts: [
            include_str!("../../assets/scenarios/zone-spread-v135/nodes.yaml"),
            include_str!("../../assets/scenarios/zone-spread-v135/pods.yaml"),
            DEFAULT_POLICY,
        ],
        config: Some(include_str!("../../assets/scenarios/zone-spread-v135/config.yaml")),
    },
    Example {
        name: "preemption-v135",
        summary: "v1.35's PostFilter: DynamicResources, then DefaultPreemption with a PodDisruptionBudget",
        texts: [
            include_str!("../../assets/scenarios/preemption-v135/nodes.yaml"),
            include_str!("../../assets/scenarios/preemption-v135/pods.yaml"),
            DEFAULT_POLICY,
        ],
        config: Some(include_str!("../../assets/scenarios/preemption-v135/config.yaml")),
    },
    Example {
        name: "big-cluster",
        summary:
            "1000 nodes and 10 000 pods: the heat-map, preemption at scale, a node joining at 2m",
        texts: [
            include_str!("../../assets/scenarios/big-cluster/nodes.json"),
            include_str!("../../assets/scenarios/big-cluster/pods.json"),
            DEFAULT_POLICY,
        ],
        config: None,
    },
];

const EXAMPLE_KEY: &str = "schedlab.v1.example";

/// The gallery entry with this name (the first when unknown).
pub fn example_named(name: &str) -> &'static Example {
    GALLERY
        .iter()
        .find(|e| e.name == name)
        .unwrap_or(&GALLERY[0])
}
/// The seed of the tie-break between equally scored nodes.
pub const SEED: u64 = 0;

/// A run slower than this makes edits wait for a pause in typing.
pub const SLOW_RUN_MS: f64 = 40.0;
/// The pause in typing that a slow scenario waits for.
pub const DEBOUNCE_MS: u64 = 250;

const STORAGE_PREFIX: &str = "schedlab.v1.editor.";
const VALID_PREFIX: &str = "schedlab.v1.valid.";

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
    pub fn example_text(self, example: &Example) -> &'static str {
        match self {
            EditorFile::Config => example.config.unwrap_or(DEFAULT_CONFIG),
            f => example.texts[f.index()],
        }
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
        format!("{STORAGE_PREFIX}{}", self.stem())
    }

    /// Where the text of the last inputs that loaded is kept.
    fn valid_key(self) -> String {
        format!("{VALID_PREFIX}{}", self.stem())
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

/// Cycles simulated between two looks at the clock while loading a big scenario.
const LOAD_CHUNK: usize = 16;
/// Loading yields to the browser after this long, so the tab never freezes.
const LOAD_SLICE_MS: f64 = 40.0;

/// What the inspector resolves its target to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inspected {
    /// A cycle.
    Cycle(usize),
    /// A pod that has no cycle yet at this position, and its node.
    PodOnly(usize, Option<String>),
}

/// The shared state, provided as context by [`crate::App`].
#[derive(Clone, Copy)]
pub struct Playground {
    texts: [RwSignal<String>; 4],
    example: RwSignal<&'static Example>,
    /// The current errors (empty when the inputs load).
    pub errors: RwSignal<Vec<Diagnostic>>,
    session: StoredValue<Option<Session>, LocalStorage>,
    /// Each editor's last text and what it read to: an edit rereads only its own file.
    parsed: StoredValue<Vec<Option<ParsedFile>>, LocalStorage>,
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
    /// The texts the last import replaced.
    pub undo: RwSignal<Option<Vec<(EditorFile, String)>>>,
    /// Completed loads (tests and the benchmark wait for it to change).
    pub loads: RwSignal<u64>,
    /// Cycles simulated so far while a big scenario loads (`None` when idle).
    pub loading: RwSignal<Option<usize>>,
    load_generation: StoredValue<u64>,
    last_run_ms: StoredValue<f64>,
    /// A rerun waits for the next paint.
    deferred: StoredValue<bool>,
    pending: StoredValue<Option<TimeoutHandle>>,
    ticker: StoredValue<Option<IntervalHandle>>,
    /// What the inspector shows.
    pub inspected: Memo<Option<Inspected>>,
    /// The inspection of [`Playground::inspected`].
    pub inspection: Memo<Option<Inspection>>,
    /// The selected pod (for views that highlight it).
    pub selected_pod: Memo<Option<usize>>,
    /// While walking a cycle phase by phase: its pod (popped from the queue, not yet placed).
    pub in_cycle_pod: Memo<Option<usize>>,
    /// The scheduler the Config editor's text is for (v1.35 for a v1 configuration).
    pub scheduler: Memo<SchedulerVersion>,
}

impl Playground {
    /// Loads the saved texts (or the example) and runs them.
    pub fn new() -> Playground {
        let example = example_named(&storage::load(EXAMPLE_KEY).unwrap_or_default());
        let texts = EditorFile::ALL.map(|f| {
            RwSignal::new(
                storage::load(&f.storage_key()).unwrap_or_else(|| f.example_text(example).into()),
            )
        });
        let session: StoredValue<Option<Session>, LocalStorage> = StoredValue::new_local(None);
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
        let inspection = Memo::new(move |_| {
            let what = inspected.get()?;
            let info = info.get()?;
            match what {
                Inspected::Cycle(c) => session.with_value(|s| {
                    let s = s.as_ref()?;
                    let detail = s.cycle_detail(c)?;
                    let (trace, cluster) = &*detail;
                    Some(analysis::inspect_cycle(trace, cluster, &info, c))
                }),
                Inspected::PodOnly(p, node) => analysis::inspect_pod_without_cycle(&info, p, node),
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
                    info.track();
                    session.with_value(|s| s.as_ref().and_then(|s| s.cycle(c)).map(|t| t.pod))
                }
                _ => None,
            }
        });
        let config_text = texts[EditorFile::Config.index()];
        let scheduler =
            Memo::new(move |_| config_text.with(|t| crate::forms::config::scheduler_of(t)));
        let state = Playground {
            texts,
            example: RwSignal::new(example),
            errors: RwSignal::new(Vec::new()),
            session,
            parsed: StoredValue::new_local(vec![None, None, None, None]),
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
            loads: RwSignal::new(0),
            notice: RwSignal::new(None),
            undo: RwSignal::new(None),
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
        };
        state.recompute();
        if state.errors.with_untracked(|e| !e.is_empty()) {
            // The saved texts have errors: show the last inputs that loaded, as before the reload.
            let valid: Option<Vec<String>> = EditorFile::ALL
                .iter()
                .map(|f| storage::load(&f.valid_key()))
                .collect();
            if let Some(Ok(scenario)) = valid.map(|texts| load(&texts)) {
                state.start(scenario, usize::MAX);
            }
        }
        // The first run also pays one-time costs (the wasm tiers up, the parsers warm), so it
        // says little about the next; the first edit measures again.
        state.last_run_ms.set_value(0.0);
        state
    }

    /// An editor's text.
    pub fn text(&self, file: EditorFile) -> ReadSignal<String> {
        self.texts[file.index()].read_only()
    }

    /// The user typed in an editor: save, reload, rerun.
    pub fn edit(&self, file: EditorFile, text: String) {
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
        storage::save(&file.storage_key(), &text);
        self.texts[file.index()].set(text);
        self.cancel_pending();
        self.rerun(false);
    }

    /// Replaces the texts of some editors (an import), keeping the old ones for
    /// [`Playground::undo_import`], then reruns.
    pub fn import(&self, texts: Vec<(EditorFile, String)>) {
        let old = texts
            .iter()
            .map(|(f, _)| (*f, self.texts[f.index()].get_untracked()))
            .collect();
        self.undo.set(Some(old));
        self.replace_texts(texts);
    }

    /// Puts back the texts an import (or a scheduler switch) replaced.
    pub fn undo_import(&self) {
        if let Some(old) = self.undo.get_untracked() {
            self.undo.set(None);
            self.replace_texts(old);
            self.notify("Undone: the previous texts are back.".into());
        }
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
        self.cancel_pending();
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

    /// Puts the example back in every editor and forgets the saved texts.
    pub fn reset(&self) {
        self.load_example(self.example.get_untracked().name);
    }

    /// Opens a gallery example in every editor (the edited texts are replaced).
    pub fn load_example(&self, name: &str) {
        self.cancel_pending();
        self.pause();
        let example = example_named(name);
        storage::save(EXAMPLE_KEY, example.name);
        self.example.set(example);
        for f in EditorFile::ALL {
            storage::remove(&f.storage_key());
            storage::remove(&f.valid_key());
            self.texts[f.index()].set(f.example_text(example).into());
        }
        self.selection.set(Selection::None);
        self.target.set(InspectTarget::Latest);
        self.session.set_value(None);
        self.rerun(true);
    }

    /// The gallery example the editors started from.
    pub fn example(&self) -> &'static Example {
        self.example.get()
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
                    this.recompute();
                },
                Duration::ZERO,
            );
        });
    }

    /// Loads the current texts. On success a new session replaces the old one (and the texts
    /// are kept as the last valid ones); on failure only the errors are replaced, and the last
    /// valid session stays on screen.
    fn recompute(&self) {
        let texts: Vec<String> = self.texts.iter().map(|t| t.get_untracked()).collect();
        let started = now_ms();
        match self.load_cached(&texts) {
            Ok(scenario) => {
                for (f, t) in EditorFile::ALL.iter().zip(&texts) {
                    storage::save(&f.valid_key(), t);
                }
                self.errors.set(Vec::new());
                // Stay where the user was: at the end (the default) or at the same step.
                let keep = self.session.with_value(|s| {
                    s.as_ref().map_or(usize::MAX, |s| {
                        if s.position() >= s.info.end {
                            usize::MAX
                        } else {
                            s.position()
                        }
                    })
                });
                self.start(scenario, keep);
            }
            Err(errors) => {
                self.loading.set(None);
                self.errors.set(errors);
            }
        }
        self.last_run_ms.set_value(now_ms() - started);
    }

    /// [`load`], rereading only the files whose text changed since the last call.
    fn load_cached(&self, texts: &[String]) -> Result<Scenario, Vec<Diagnostic>> {
        let names = source_names(texts);
        let sources = sources(&names, texts);
        let mut inputs = Inputs::default();
        let mut errors = Vec::new();
        self.parsed.update_value(|parsed| {
            for (i, src) in sources.iter().enumerate() {
                let fresh = parsed[i]
                    .as_ref()
                    .is_none_or(|p| p.text != src.text || p.name != src.name);
                if fresh {
                    parsed[i] = Some(ParsedFile {
                        name: src.name.to_string(),
                        text: src.text.to_string(),
                        read: read_source(src),
                    });
                }
                match parsed[i].as_ref().map(|p| &p.read) {
                    Some(Ok(read)) => inputs.append(read.clone()),
                    Some(Err(e)) => errors.extend(e.iter().cloned()),
                    None => {}
                }
            }
        });
        assemble(inputs, errors, &names, &sources)
    }

    /// Runs a new session to its end in slices (a big scenario never freezes the tab), then
    /// shows it at `position` (clamped).
    fn start(&self, scenario: Scenario, position: usize) {
        let generation = self.load_generation.get_value() + 1;
        self.load_generation.set_value(generation);
        let session = Session::new(&scenario, SEED);
        self.continue_loading(session, generation, position);
    }

    fn continue_loading(&self, mut session: Session, generation: u64, position: usize) {
        let started = now_ms();
        loop {
            if session.run_some(LOAD_CHUNK) {
                break;
            }
            if now_ms() - started > LOAD_SLICE_MS {
                self.loading.set(Some(session.cycles_known()));
                let this = *self;
                // A newer edit supersedes this load.
                set_timeout(
                    move || {
                        if this.load_generation.get_value() == generation {
                            this.continue_loading(session, generation, position);
                        }
                    },
                    Duration::from_millis(0),
                );
                return;
            }
        }
        self.loading.set(None);
        session.go_to(position);
        let info = Arc::clone(&session.info);
        let frame = Arc::new(session.frame());
        self.session.set_value(Some(session));
        self.phase.set(None);
        self.info.set(Some(info));
        self.frame.set(Some(frame));
        self.loads.update(|n| *n += 1);
    }

    // ---- the controls ---------------------------------------------------------------------

    /// Moves the session and refreshes the frame.
    fn move_to(&self, position: impl FnOnce(&Session) -> usize) {
        let frame = self.session.try_update_value(|s| {
            let s = s.as_mut()?;
            let p = position(s);
            s.go_to(p);
            Some(Arc::new(s.frame()))
        });
        if let Some(Some(frame)) = frame {
            self.frame.set(Some(frame));
        }
    }

    /// Steps one scheduling cycle (and the steps due before it).
    pub fn step_cycle(&self) {
        self.phase.set(None);
        self.target.set(InspectTarget::Latest);
        self.move_to(Session::next_cycle_end);
    }

    /// Steps back one cycle: to where Step stood before it ran.
    pub fn step_back(&self) {
        self.pause();
        self.phase.set(None);
        self.target.set(InspectTarget::Latest);
        self.move_to(Session::previous_cycle_end);
    }

    /// Goes to the start (t = 0, nothing scheduled).
    pub fn rewind(&self) {
        self.pause();
        self.phase.set(None);
        self.target.set(InspectTarget::Latest);
        self.move_to(|_| 0);
    }

    /// Goes to the end of the run.
    pub fn to_end(&self) {
        self.pause();
        self.phase.set(None);
        self.target.set(InspectTarget::Latest);
        self.move_to(|s| s.info.end);
    }

    /// The scrubber moved.
    pub fn scrub(&self, position: usize) {
        self.pause();
        self.phase.set(None);
        self.target.set(InspectTarget::Latest);
        self.move_to(|_| position);
    }

    /// An event was clicked: goes to just after the step that emitted it (so it is the newest
    /// event on screen) and inspects the cycle that produced it.
    pub fn jump_to_event(&self, cycle: usize, step: usize) {
        self.pause();
        self.phase.set(None);
        self.move_to(|s| s.position_after_cycle(cycle).unwrap_or(0).max(step + 1));
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
            let next = self.session.try_update_value(|s| {
                let s = s.as_mut()?;
                while s.next_is_cycle().is_none() && s.position() < s.info.end {
                    let p = s.position() + 1;
                    s.go_to(p);
                }
                let cycle = s.next_is_cycle()?;
                s.prefetch_next_cycle();
                Some((cycle, Arc::new(s.frame())))
            });
            if let Some(Some((cycle, frame))) = next {
                self.frame.set(Some(frame));
                self.target.set(InspectTarget::Cycle(cycle));
                self.phase.set(Some(Phase::QueuePop));
            }
            return;
        };
        let scheduled = self.session.with_value(|s| {
            s.as_ref()
                .and_then(|s| s.cycle(cycle))
                .is_some_and(|t| t.node.is_some())
        });
        let phases = Phase::of(scheduled);
        let next = phases
            .iter()
            .position(|&p| p == phase)
            .and_then(|i| phases.get(i + 1))
            .copied();
        match next {
            Some(p @ (Phase::Assume | Phase::Preempt)) => {
                self.move_to(|s| s.position_after_cycle(cycle).unwrap_or(s.position()));
                self.phase.set(Some(p));
            }
            Some(Phase::Bind) => {
                // The binding is the next step for this pod (at once, or after bindLatency).
                self.move_to(|s| (s.position() + 1).min(s.info.end));
                self.phase.set(Some(Phase::Bind));
            }
            Some(p) => self.phase.set(Some(p)),
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
        let at_end = self
            .frame
            .with_untracked(|f| f.as_ref().is_some_and(|f| f.position >= f.end));
        if at_end {
            self.move_to(|_| 0);
        }
        self.running.set(true);
        self.restart_ticker();
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
                this.step_cycle();
                let done = this
                    .frame
                    .with_untracked(|f| f.as_ref().is_none_or(|f| f.position >= f.end));
                if done {
                    this.pause();
                }
            },
            Duration::from_millis(u64::from(1000 / per_second)),
        );
        self.ticker.set_value(handle.ok());
    }
}

/// The file name each editor's text is read under (`nodes.yaml`, `policy.json`, ...).
fn source_names(texts: &[String]) -> Vec<String> {
    EditorFile::ALL
        .iter()
        .zip(texts)
        .map(|(f, t)| f.source_name(t))
        .collect()
}

/// The editors' texts as sources for the core.
fn sources<'a>(names: &'a [String], texts: &'a [String]) -> Vec<Source<'a>> {
    names
        .iter()
        .zip(texts)
        .map(|(name, text)| Source { name, text })
        .collect()
}

/// One editor's text as last read.
struct ParsedFile {
    name: String,
    text: String,
    read: Result<Inputs, Vec<Diagnostic>>,
}

/// Loads the texts (in [`EditorFile::ALL`] order) as one scenario.
pub fn load(texts: &[String]) -> Result<Scenario, Vec<Diagnostic>> {
    let names = source_names(texts);
    let sources = sources(&names, texts);
    let mut inputs = Inputs::default();
    let mut errors = Vec::new();
    for src in &sources {
        match read_source(src) {
            Ok(read) => inputs.append(read),
            Err(e) => errors.extend(e),
        }
    }
    assemble(inputs, errors, &names, &sources)
}

/// The scenario of the files as read (their objects and their errors).
///
/// kube-scheduler v1.35 reads no Policy: when the inputs hold a v1 configuration, the Policy
/// editor is left out of the scenario (the Policy tab says so), its objects and its errors
/// alike. A Policy typed into another editor stays, and the core reports the mix.
fn assemble(
    mut inputs: Inputs,
    mut errors: Vec<Diagnostic>,
    names: &[String],
    sources: &[Source],
) -> Result<Scenario, Vec<Diagnostic>> {
    if !inputs.modern_configs.is_empty() {
        let policy_file = &names[EditorFile::Policy.index()];
        inputs.policies.retain(|(_, o)| o.file != *policy_file);
        inputs.warnings.retain(|d| d.file != *policy_file);
        errors.retain(|d| d.file != *policy_file);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Scenario::from_inputs(inputs, sources)
}

impl Default for Playground {
    fn default() -> Self {
        Playground::new()
    }
}

/// Milliseconds from the page's time origin (0 where there is no `performance`).
fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or_default()
}

/// `localStorage`, best effort: a browser that refuses storage (private mode, quota) only loses
/// persistence, never the page.
mod storage {
    fn local() -> Option<web_sys::Storage> {
        web_sys::window()?.local_storage().ok().flatten()
    }

    pub fn load(key: &str) -> Option<String> {
        local()?.get_item(key).ok().flatten()
    }

    pub fn save(key: &str, value: &str) {
        if let Some(s) = local() {
            let _ = s.set_item(key, value);
        }
    }

    pub fn remove(key: &str) {
        if let Some(s) = local() {
            let _ = s.remove_item(key);
        }
    }
}
