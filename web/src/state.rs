//! The playground's state: the three editor texts, the last valid analysis, the current errors
//! and the selected pod; and the actions that change them.
//!
//! Every edit reloads and reruns the whole scenario at once (a millisecond or so for a small
//! cluster). Only when a run has taken longer than [`SLOW_RUN_MS`] (a big pasted cluster) do
//! edits wait for a pause in typing of [`DEBOUNCE_MS`], so typing never lags. A failed load keeps the last valid analysis on screen and only replaces
//! the errors. Editor texts are saved in `localStorage`, so a reload never loses work.
//!
//! Views read signals and call actions; they never run the scheduler themselves.

use crate::analysis::{Analysis, Inspection, PodRow};
use leptos::prelude::*;
use schedlab_core::input::looks_like_json;
use schedlab_core::{Diagnostic, Scenario, Source};
use std::sync::Arc;
use std::time::Duration;

/// An example scenario of the gallery: its name, a one-line summary and its three texts.
pub struct Example {
    /// Folder name under `assets/scenarios/`.
    pub name: &'static str,
    /// What it shows.
    pub summary: &'static str,
    /// Nodes, pods (and any other objects), policy. The configuration is [`DEFAULT_CONFIG`].
    pub texts: [&'static str; 3],
}

/// A Policy that keeps the DefaultProvider (for examples that need no policy).
const DEFAULT_POLICY: &str = "{\n  \"kind\": \"Policy\",\n  \"apiVersion\": \"v1\"\n}\n";

/// The scheduler configuration every example starts with: v1.17's defaults, spelled out.
pub const DEFAULT_CONFIG: &str = include_str!("../../assets/scenarios/config.yaml");

/// The gallery; the first is what every new visitor starts with.
pub const GALLERY: [Example; 7] = [
    Example {
        name: "classic",
        summary:
            "the classic policy on five nodes: resources, a selector, a taint, a cordon, host ports",
        texts: [
            include_str!("../../assets/scenarios/classic/nodes.yaml"),
            include_str!("../../assets/scenarios/classic/pods.yaml"),
            include_str!("../../assets/scenarios/classic/policy.json"),
        ],
    },
    Example {
        name: "anti-affinity",
        summary: "a replica set kept apart by required pod anti-affinity",
        texts: [
            include_str!("../../assets/scenarios/anti-affinity/nodes.yaml"),
            include_str!("../../assets/scenarios/anti-affinity/pods.yaml"),
            include_str!("../../assets/scenarios/anti-affinity/policy.json"),
        ],
    },
    Example {
        name: "follow-the-cache",
        summary: "a web tier that follows its cache with required pod affinity",
        texts: [
            include_str!("../../assets/scenarios/follow-the-cache/nodes.yaml"),
            include_str!("../../assets/scenarios/follow-the-cache/pods.yaml"),
            include_str!("../../assets/scenarios/follow-the-cache/policy.json"),
        ],
    },
    Example {
        name: "zone-spread",
        summary: "spreading across three zones with topologySpreadConstraints",
        texts: [
            include_str!("../../assets/scenarios/zone-spread/nodes.yaml"),
            include_str!("../../assets/scenarios/zone-spread/pods.yaml"),
            include_str!("../../assets/scenarios/zone-spread/policy.json"),
        ],
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
    },
    Example {
        name: "batch-displaced",
        summary: "a critical service preempts a low-priority batch job",
        texts: [
            include_str!("../../assets/scenarios/batch-displaced/nodes.yaml"),
            include_str!("../../assets/scenarios/batch-displaced/pods.yaml"),
            include_str!("../../assets/scenarios/batch-displaced/policy.json"),
        ],
    },
    Example {
        name: "pdb-steers",
        summary: "a PodDisruptionBudget steers preemption to another node",
        texts: [
            include_str!("../../assets/scenarios/pdb-steers/nodes.yaml"),
            include_str!("../../assets/scenarios/pdb-steers/pods.yaml"),
            include_str!("../../assets/scenarios/pdb-steers/policy.json"),
        ],
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

    fn index(self) -> usize {
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
            EditorFile::Config => DEFAULT_CONFIG,
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

/// The shared state, provided as context by [`crate::App`].
#[derive(Clone, Copy)]
pub struct Playground {
    texts: [RwSignal<String>; 4],
    example: RwSignal<&'static Example>,
    analysis: RwSignal<Option<Arc<Analysis>>>,
    errors: RwSignal<Vec<Diagnostic>>,
    selected: RwSignal<Option<String>>,
    last_run_ms: StoredValue<f64>,
    pending: StoredValue<Option<TimeoutHandle>>,
    /// Placement rows of the last valid analysis.
    pub rows: Memo<Vec<PodRow>>,
    /// The pod the inspector shows: the selected one, else the first.
    pub current_pod: Memo<Option<String>>,
    /// The inspection of [`Playground::current_pod`].
    pub inspection: Memo<Option<Inspection>>,
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
        let analysis: RwSignal<Option<Arc<Analysis>>> = RwSignal::new(None);
        let selected = RwSignal::new(None::<String>);
        let rows = Memo::new(move |_| {
            analysis.with(|a| a.as_ref().map(|a| a.pods.clone()).unwrap_or_default())
        });
        let current_pod = Memo::new(move |_| {
            rows.with(|rows| {
                selected
                    .get()
                    .filter(|s| rows.iter().any(|r| &r.name == s))
                    .or_else(|| rows.first().map(|r| r.name.clone()))
            })
        });
        let inspection = Memo::new(move |_| {
            let pod = current_pod.get()?;
            analysis.with(|a| a.as_ref().and_then(|a| a.inspect(&pod)))
        });
        let state = Playground {
            texts,
            example: RwSignal::new(example),
            analysis,
            errors: RwSignal::new(Vec::new()),
            selected,
            last_run_ms: StoredValue::new(0.0),
            pending: StoredValue::new(None),
            rows,
            current_pod,
            inspection,
        };
        state.recompute();
        if state.analysis.with_untracked(Option::is_none) {
            // The saved texts have errors: show the last inputs that loaded, as before the reload.
            let valid: Option<Vec<String>> = EditorFile::ALL
                .iter()
                .map(|f| storage::load(&f.valid_key()))
                .collect();
            if let Some(Ok(analysis)) = valid.map(|texts| run(&texts)) {
                state.analysis.set(Some(Arc::new(analysis)));
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
                    this.recompute();
                },
                Duration::from_millis(DEBOUNCE_MS),
            );
            self.pending.set_value(handle.ok());
        } else {
            self.recompute();
        }
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
        let example = example_named(name);
        storage::save(EXAMPLE_KEY, example.name);
        self.example.set(example);
        for f in EditorFile::ALL {
            storage::remove(&f.storage_key());
            storage::remove(&f.valid_key());
            self.texts[f.index()].set(f.example_text(example).into());
        }
        self.selected.set(None);
        self.recompute();
    }

    /// The gallery example the editors started from.
    pub fn example(&self) -> &'static Example {
        self.example.get()
    }

    /// Shows a pod in the inspector.
    pub fn select(&self, pod: &str) {
        self.selected.set(Some(pod.to_string()));
    }

    /// The last valid analysis.
    pub fn analysis(&self) -> Option<Arc<Analysis>> {
        self.analysis.get()
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

    /// Loads and runs the current texts. On success the analysis is replaced (and the texts are
    /// kept as the last valid ones); on failure only the errors are, and the last valid analysis
    /// stays.
    fn recompute(&self) {
        let texts: Vec<String> = self.texts.iter().map(|t| t.get_untracked()).collect();
        let started = now_ms();
        let result = run(&texts);
        self.last_run_ms.set_value(now_ms() - started);
        match result {
            Ok(analysis) => {
                for (f, t) in EditorFile::ALL.iter().zip(&texts) {
                    storage::save(&f.valid_key(), t);
                }
                self.analysis.set(Some(Arc::new(analysis)));
                self.errors.set(Vec::new());
            }
            Err(errors) => self.errors.set(errors),
        }
    }
}

/// Loads the three texts (in [`EditorFile::ALL`] order) as one scenario and runs it.
pub fn run(texts: &[String]) -> Result<Analysis, Vec<Diagnostic>> {
    let names: Vec<String> = EditorFile::ALL
        .iter()
        .zip(texts)
        .map(|(f, t)| f.source_name(t))
        .collect();
    let sources: Vec<Source> = names
        .iter()
        .zip(texts)
        .map(|(name, text)| Source { name, text })
        .collect();
    let scenario = Scenario::load(&sources)?;
    let run = scenario.run(SEED, true);
    Ok(Analysis::new(run, scenario.warnings))
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
