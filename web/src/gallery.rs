//! The gallery: the example scenarios a visitor can open, and each scheduler's default
//! configuration.
//!
//! Only the first example (`classic`, what a new visitor sees) and the two default
//! configurations are compiled into the page's wasm. The other examples' files are fetched
//! when one is first opened: `web/index.html` copies `assets/scenarios/` into the site as
//! `scenarios/`, and [`fetch`] reads them from there (same origin, relative to the page, so
//! the site works from any folder). Fetched texts are kept for the life of the page
//! ([`Example::texts`]), so an example is fetched at most once, and every later use (undo,
//! Reset, a link that names it, a lesson) is synchronous. Native builds (tests, tools, the
//! fuzzers) compile every file in, so [`Example::texts`] never misses there.

use crate::base::{EditorFile, EDITORS};
use schedlab_core::scenario::SchedulerVersion;
use std::collections::BTreeMap;
use std::sync::Mutex;

/// Where the site serves `assets/scenarios/`, relative to the page (`web/index.html`).
pub const SCENARIOS_URL: &str = "scenarios";

/// One file of an example: its path under `assets/scenarios/`, and its text when it is
/// compiled in.
pub struct File {
    /// `classic/nodes.yaml`, ...
    pub path: &'static str,
    /// The text, when it is compiled into this build.
    text: Option<&'static str>,
}

/// A file compiled into every build.
macro_rules! compiled {
    ($path:literal) => {
        File {
            path: $path,
            text: Some(include_str!(concat!("../../assets/scenarios/", $path))),
        }
    };
}

/// A file the page fetches when its example is opened (compiled in natively only).
#[cfg(target_arch = "wasm32")]
macro_rules! fetched {
    ($path:literal) => {
        File {
            path: $path,
            text: None,
        }
    };
}

/// A file the page fetches when its example is opened (compiled in natively only).
#[cfg(not(target_arch = "wasm32"))]
macro_rules! fetched {
    ($path:literal) => {
        compiled!($path)
    };
}

/// An example scenario of the gallery: its name, a one-line summary and its files.
pub struct Example {
    /// Folder name under `assets/scenarios/`.
    pub name: &'static str,
    /// What it shows.
    pub summary: &'static str,
    /// The files of each editor, in [`EditorFile::ALL`] order: nodes; pods (and any other
    /// objects: several files are joined as YAML documents); devices (DRA's objects; none:
    /// empty); policy (none: [`DEFAULT_POLICY`]);
    /// the scheduler configuration (none: [`DEFAULT_CONFIG`], v1.17's defaults; a
    /// `kubescheduler.config.k8s.io/v1` configuration runs the example under v1.35). The
    /// extenders' editor, after these, starts empty.
    files: [&'static [File]; 5],
    /// The Plugins editor's program (`plugins.js`), if the example has one.
    plugins: Option<&'static File>,
}

/// A Policy that keeps the DefaultProvider (for examples that need no policy).
const DEFAULT_POLICY: &str = "{\n  \"kind\": \"Policy\",\n  \"apiVersion\": \"v1\"\n}\n";

/// What joins two files of one editor.
const JOIN: &str = "\n---\n";

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

/// The gallery; the first is what every new visitor starts with (compiled in, so it opens
/// at once; the others are fetched when first opened).
pub static GALLERY: [Example; 17] = [
    Example {
        name: "classic",
        summary: "the classic policy on five nodes: resources, a selector, a taint, a cordon, host ports",
        files: [
            &[compiled!("classic/nodes.yaml")],
            &[compiled!("classic/pods.yaml")],
            &[],
            &[compiled!("classic/policy.json")],
            &[],
        ],
        plugins: None,
    },
    Example {
        name: "anti-affinity",
        summary: "a replica set kept apart by required pod anti-affinity",
        files: [
            &[fetched!("anti-affinity/nodes.yaml")],
            &[fetched!("anti-affinity/pods.yaml")],
            &[],
            &[fetched!("anti-affinity/policy.json")],
            &[],
        ],
        plugins: None,
    },
    Example {
        name: "follow-the-cache",
        summary: "a web tier that follows its cache with required pod affinity",
        files: [
            &[fetched!("follow-the-cache/nodes.yaml")],
            &[fetched!("follow-the-cache/pods.yaml")],
            &[],
            &[fetched!("follow-the-cache/policy.json")],
            &[],
        ],
        plugins: None,
    },
    Example {
        name: "zone-spread",
        summary: "spreading across three zones with topologySpreadConstraints",
        files: [
            &[fetched!("zone-spread/nodes.yaml")],
            &[fetched!("zone-spread/pods.yaml")],
            &[],
            &[fetched!("zone-spread/policy.json")],
            &[],
        ],
        plugins: None,
    },
    Example {
        name: "volume-zone",
        summary: "a pod that waits for the zone of its volume",
        files: [
            &[fetched!("volume-zone/nodes.yaml")],
            &[fetched!("volume-zone/pods.yaml"), fetched!("volume-zone/storage.yaml")],
            &[],
            &[],
            &[],
        ],
        plugins: None,
    },
    Example {
        name: "batch-displaced",
        summary: "a critical service preempts a low-priority batch job",
        files: [
            &[fetched!("batch-displaced/nodes.yaml")],
            &[fetched!("batch-displaced/pods.yaml")],
            &[],
            &[fetched!("batch-displaced/policy.json")],
            &[],
        ],
        plugins: None,
    },
    Example {
        name: "pdb-steers",
        summary: "a PodDisruptionBudget steers preemption to another node",
        files: [
            &[fetched!("pdb-steers/nodes.yaml")],
            &[fetched!("pdb-steers/pods.yaml")],
            &[],
            &[fetched!("pdb-steers/policy.json")],
            &[],
        ],
        plugins: None,
    },
    Example {
        name: "most-requested",
        summary: "LeastRequested against MostRequested: spreading pods out, or packing the fullest node",
        files: [
            &[fetched!("most-requested/nodes.yaml")],
            &[fetched!("most-requested/pods.yaml")],
            &[],
            &[fetched!("most-requested/policy.json")],
            &[],
        ],
        plugins: None,
    },
    Example {
        name: "node-affinity",
        summary: "a nodeSelector, required node affinity, and preferred terms weighed by NodeAffinityPriority",
        files: [
            &[fetched!("node-affinity/nodes.yaml")],
            &[fetched!("node-affinity/pods.yaml")],
            &[],
            &[fetched!("node-affinity/policy.json")],
            &[],
        ],
        plugins: None,
    },
    Example {
        name: "port-clash",
        summary: "host ports: one pod per node may take TCP 443, and UDP 443 is another port",
        files: [
            &[fetched!("port-clash/nodes.yaml")],
            &[fetched!("port-clash/pods.yaml")],
            &[],
            &[fetched!("port-clash/policy.json")],
            &[],
        ],
        plugins: None,
    },
    Example {
        name: "backoff-node-added",
        summary: "a pod backs off and waits in unschedulableQ until a node with room joins",
        files: [
            &[fetched!("backoff-node-added/nodes.yaml")],
            &[fetched!("backoff-node-added/pods.yaml"), fetched!("backoff-node-added/timeline.yaml")],
            &[],
            &[],
            &[],
        ],
        plugins: None,
    },
    Example {
        name: "taints-first-v135",
        summary: "kube-scheduler v1.35 on the classic cluster: taints are checked before resources",
        files: [
            &[fetched!("taints-first-v135/nodes.yaml")],
            &[fetched!("taints-first-v135/pods.yaml")],
            &[],
            &[],
            &[fetched!("taints-first-v135/config.yaml")],
        ],
        plugins: None,
    },
    Example {
        name: "zone-spread-v135",
        summary: "v1.35 with no Policy: PodTopologySpread filters, and its system defaults spread a Service",
        files: [
            &[fetched!("zone-spread-v135/nodes.yaml")],
            &[fetched!("zone-spread-v135/pods.yaml")],
            &[],
            &[],
            &[fetched!("zone-spread-v135/config.yaml")],
        ],
        plugins: None,
    },
    Example {
        name: "preemption-v135",
        summary: "v1.35's PostFilter: DynamicResources, then DefaultPreemption with a PodDisruptionBudget",
        files: [
            &[fetched!("preemption-v135/nodes.yaml")],
            &[fetched!("preemption-v135/pods.yaml")],
            &[],
            &[],
            &[fetched!("preemption-v135/config.yaml")],
        ],
        plugins: None,
    },
    Example {
        name: "gpu-cluster",
        summary: "v1.35's Dynamic Resource Allocation: GPUs of two models, a training job's matchAttribute, an inference pod's firstAvailable",
        files: [
            &[fetched!("gpu-cluster/nodes.yaml")],
            &[fetched!("gpu-cluster/pods.yaml")],
            &[fetched!("gpu-cluster/devices.yaml")],
            &[],
            &[fetched!("gpu-cluster/config.yaml")],
        ],
        plugins: None,
    },
    Example {
        name: "custom-plugin",
        summary: "a custom Score plugin in JavaScript: NodeNumber (the kube-scheduler-wasm-extension's example) sends each pod to the node with its last digit",
        files: [
            &[fetched!("custom-plugin/nodes.yaml")],
            &[fetched!("custom-plugin/pods.yaml")],
            &[],
            &[],
            &[fetched!("custom-plugin/config.yaml")],
        ],
        plugins: Some(&fetched!("custom-plugin/plugins.js")),
    },
    Example {
        name: "big-cluster",
        summary: "1000 nodes and 10 000 pods: the heat-map, preemption at scale, a node joining at 2m",
        files: [
            &[fetched!("big-cluster/nodes.json")],
            &[fetched!("big-cluster/pods.json")],
            &[],
            &[],
            &[],
        ],
        plugins: None,
    },
];

/// The gallery entry with this name (the first when unknown).
pub fn example_named(name: &str) -> &'static Example {
    GALLERY
        .iter()
        .find(|e| e.name == name)
        .unwrap_or(&GALLERY[0])
}

/// An example whose texts are at hand (compiled in, or fetched): what the editors can be
/// filled with, and compared against, at once.
#[derive(Clone, Copy)]
pub struct Loaded {
    /// The example.
    pub example: &'static Example,
    texts: &'static [&'static str; EDITORS],
}

impl Loaded {
    /// The first example, always compiled in.
    pub fn first() -> Loaded {
        match GALLERY[0].texts() {
            Some(loaded) => loaded,
            // Unreachable: the first example is compiled in (a test checks it). Its files,
            // read as best they can be, keep this from ever panicking.
            None => Loaded {
                example: &GALLERY[0],
                texts: Box::leak(Box::new(std::array::from_fn(|i| {
                    GALLERY[0]
                        .files
                        .get(i)
                        .and_then(|files| files.first())
                        .and_then(|f| f.text)
                        .unwrap_or_default()
                }))),
            },
        }
    }

    /// The example with this name when its texts are at hand, else the first example.
    pub fn named_or_first(name: &str) -> Loaded {
        example_named(name).texts().unwrap_or_else(Loaded::first)
    }

    /// The example's name.
    pub fn name(self) -> &'static str {
        self.example.name
    }

    /// One editor's text in the example.
    pub fn text(self, file: EditorFile) -> &'static str {
        self.texts[file.index()]
    }

    /// The six editor texts, in [`EditorFile::ALL`] order.
    pub fn texts(self) -> [&'static str; EDITORS] {
        *self.texts
    }
}

impl PartialEq for Loaded {
    fn eq(&self, other: &Loaded) -> bool {
        self.example.name == other.example.name
    }
}

impl Eq for Loaded {}

impl std::fmt::Debug for Loaded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Loaded({})", self.example.name)
    }
}

/// The texts at hand, by example name (each put together once, kept for the life of the page),
/// and why the last fetch of an example failed.
static LOADED: Mutex<BTreeMap<&'static str, &'static [&'static str; EDITORS]>> =
    Mutex::new(BTreeMap::new());
static FAILED: Mutex<BTreeMap<&'static str, String>> = Mutex::new(BTreeMap::new());

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Example {
    /// Its texts, when they are at hand: compiled in, or fetched earlier ([`fetch`]).
    pub fn texts(&'static self) -> Option<Loaded> {
        let mut loaded = lock(&LOADED);
        if let Some(texts) = loaded.get(self.name) {
            return Some(Loaded {
                example: self,
                texts,
            });
        }
        let texts = self.put_together(|f| f.text.map(str::to_string))?;
        let texts = keep(&mut loaded, self.name, texts);
        Some(Loaded {
            example: self,
            texts,
        })
    }

    /// Whether it has a Plugins program (JavaScript: it runs only in a JavaScript engine, so
    /// the native tests leave it to the browser tests).
    pub fn has_plugins(&self) -> bool {
        self.plugins.is_some()
    }

    /// Every file it is made of.
    pub fn files(&self) -> impl Iterator<Item = &'static File> + '_ {
        self.files
            .iter()
            .flat_map(|files| files.iter())
            .chain(self.plugins)
    }

    /// The editor texts from each file's text (`None` when a file has none); the extenders'
    /// editor starts empty, the Plugins editor with the example's program or empty.
    fn put_together(&self, text: impl Fn(&File) -> Option<String>) -> Option<[String; EDITORS]> {
        let mut out: [String; EDITORS] = Default::default();
        for (i, files) in self.files.iter().enumerate() {
            out[i] = match (files.is_empty(), EditorFile::ALL[i]) {
                (true, EditorFile::Policy) => DEFAULT_POLICY.to_string(),
                (true, EditorFile::Config) => DEFAULT_CONFIG.to_string(),
                _ => {
                    let parts: Option<Vec<String>> = files.iter().map(&text).collect();
                    parts?.join(JOIN)
                }
            };
        }
        if let Some(program) = self.plugins {
            out[EditorFile::Plugins.index()] = text(program)?;
        }
        Some(out)
    }
}

/// Keeps an example's texts for the life of the page (the texts already kept win: two
/// fetches of one example leave one copy).
fn keep(
    loaded: &mut BTreeMap<&'static str, &'static [&'static str; EDITORS]>,
    name: &'static str,
    texts: [String; EDITORS],
) -> &'static [&'static str; EDITORS] {
    loaded.entry(name).or_insert_with(|| {
        // Each example is kept at most once, so this is bounded by the gallery's size.
        Box::leak(Box::new(texts.map(|t| &*Box::leak(t.into_boxed_str()))))
    })
}

/// Why the last fetch of this example failed (`None` when it never did, or a later one
/// succeeded).
pub fn failure(name: &str) -> Option<String> {
    lock(&FAILED).get(name).cloned()
}

/// The example's texts: at once when they are at hand, else fetched from the site (each of
/// its files from [`SCENARIOS_URL`]) and kept. The error says which file failed and why.
pub async fn fetch(example: &'static Example) -> Result<Loaded, String> {
    if let Some(loaded) = example.texts() {
        return Ok(loaded);
    }
    let mut fetched: Vec<(&'static str, String)> = Vec::new();
    for file in example.files().filter(|f| f.text.is_none()) {
        let url = format!("{SCENARIOS_URL}/{}", file.path);
        match fetch_text(&url).await {
            Ok(text) => fetched.push((file.path, text)),
            Err(why) => {
                let why = format!("{url}: {why}");
                lock(&FAILED).insert(example.name, why.clone());
                return Err(why);
            }
        }
    }
    // Megabytes of text were just read into the wasm: what uses them starts in a task of its
    // own, so the page's main thread never spends one long task on both.
    gloo_timers::future::TimeoutFuture::new(0).await;
    let texts = example.put_together(|f| {
        f.text.map(str::to_string).or_else(|| {
            fetched
                .iter()
                .find(|(path, _)| *path == f.path)
                .map(|(_, t)| t.clone())
        })
    });
    let Some(texts) = texts else {
        return Err("a file of the example was not fetched".into());
    };
    lock(&FAILED).remove(example.name);
    let texts = keep(&mut lock(&LOADED), example.name, texts);
    Ok(Loaded { example, texts })
}

/// A text file of the site, by its address relative to the page.
async fn fetch_text(url: &str) -> Result<String, String> {
    let response = gloo_net::http::Request::get(url)
        .send()
        .await
        .map_err(|e| e.to_string())?;
    if !response.ok() {
        return Err(
            format!("HTTP {} {}", response.status(), response.status_text())
                .trim_end()
                .to_string(),
        );
    }
    let text = response.text().await.map_err(|e| e.to_string())?;
    if looks_like_html(&text) {
        // A host that answers every unknown path with its index page.
        return Err("the site answered with a web page, not the scenario's file".into());
    }
    Ok(text)
}

/// Whether a text is an HTML page rather than a scenario file (YAML or JSON never starts so).
fn looks_like_html(text: &str) -> bool {
    let start: String = text
        .trim_start()
        .chars()
        .take(14)
        .collect::<String>()
        .to_ascii_lowercase();
    start.starts_with("<!doctype") || start.starts_with("<html")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_first_example_is_compiled_into_the_page() {
        // What the wasm build compiles in: `compiled!` files. Natively every file is compiled in
        // (the tests read them all), so count the `compiled!` uses in the source instead.
        let source = include_str!("gallery.rs");
        let table = source
            .split("pub static GALLERY")
            .nth(1)
            .and_then(|s| s.split("\n];").next())
            .unwrap_or_default();
        let compiled: Vec<&str> = table
            .match_indices("compiled!(\"")
            .map(|(i, m)| {
                let rest = &table[i + m.len()..];
                rest.split('/').next().unwrap_or_default()
            })
            .collect();
        assert!(!compiled.is_empty());
        assert!(
            compiled.iter().all(|&name| name == GALLERY[0].name),
            "{compiled:?}"
        );
        assert!(!table.contains("compiled!(\"big-cluster/"));
    }

    #[test]
    fn every_example_puts_its_files_together_as_before() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/scenarios");
        let read = |path: &str| std::fs::read_to_string(root.join(path)).expect("a scenario file");
        for example in &GALLERY {
            let loaded = example
                .texts()
                .expect("natively every example is compiled in");
            assert_eq!(loaded.name(), example.name);
            for (i, f) in EditorFile::ALL.into_iter().enumerate() {
                let files = example.files.get(i).copied().unwrap_or_default();
                let want = match (files.is_empty(), f) {
                    (_, EditorFile::Plugins) => {
                        example.plugins.map(|p| read(p.path)).unwrap_or_default()
                    }
                    (true, EditorFile::Policy) => DEFAULT_POLICY.to_string(),
                    (true, EditorFile::Config) => DEFAULT_CONFIG.to_string(),
                    _ => files
                        .iter()
                        .map(|f| read(f.path))
                        .collect::<Vec<_>>()
                        .join(JOIN),
                };
                assert_eq!(loaded.text(f), want, "{} {}", example.name, f.stem());
                assert!(loaded.text(f).len() == want.len());
            }
            // Kept once: the same texts every time.
            let again = example.texts().expect("kept");
            assert!(std::ptr::eq(
                again.text(EditorFile::Pods),
                loaded.text(EditorFile::Pods)
            ));
            // Every file is one a site built from web/index.html serves.
            for file in example.files() {
                assert!(root.join(file.path).is_file(), "{}", file.path);
            }
        }
        assert_eq!(Loaded::first().name(), "classic");
        assert_eq!(Loaded::named_or_first("big-cluster").name(), "big-cluster");
        assert_eq!(Loaded::named_or_first("no-such-example").name(), "classic");
    }

    #[test]
    fn a_web_page_is_not_taken_for_a_scenario() {
        assert!(looks_like_html("<!DOCTYPE html>\n<html>"));
        assert!(looks_like_html("  \n<html lang=\"en\">"));
        assert!(!looks_like_html("apiVersion: v1\nkind: Node\n"));
        assert!(!looks_like_html("{\"kind\": \"List\"}"));
        assert!(!looks_like_html(""));
    }
}
