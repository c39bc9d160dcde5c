//! Kubernetes JSON/YAML documents → typed objects, with errors that name the file and the path.
//!
//! A file holds one object, a list (`kind: List` or any `...List` with `items`), or several YAML
//! documents. JSON or YAML is detected from the content. Every document is first parsed into a
//! JSON value in one pass (`parse.rs`: nulls dropped, so `"dataSource": null` means "absent"; a
//! key given twice in one map is an error), then dispatched on `kind` and deserialised with
//! `serde_path_to_error`, which yields paths such as
//! `items[3].spec.containers[0].resources.requests.cpu`, then checked as kube-apiserver's
//! validation checks it (`validate/`). Kinds the scheduler does not read are skipped with a
//! warning; a known kind that is malformed is an error.

mod aliases;
mod block_yaml;
mod items;
pub(crate) mod locate;
mod parse;
pub mod timeline;
mod tree;
pub(crate) mod validate;

use crate::model::volume::{CsiNode, PersistentVolume, PersistentVolumeClaim, StorageClass};
use crate::model::workload::{ReplicationController, SelectorWorkload};
use crate::model::{Node, Pod, PodDisruptionBudget, PriorityClass, Service};
use crate::v117::policy::config::SchedulerConfiguration;
use crate::v117::policy::PolicyDocument;
use serde::de::{DeserializeOwned, DeserializeSeed};
use serde_json::Value;
use std::borrow::Cow;
use std::fmt;
use tree::Tree;

pub use items::ListReader;
pub use validate::RefusedBy;

/// Largest input file accepted (64 MiB).
pub const MAX_FILE_BYTES: usize = 64 << 20;
/// Most objects accepted in one file (each file is read on its own; see [`read_source`]).
pub const MAX_OBJECTS: usize = 1_000_000;

/// One input file.
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    /// File name shown in messages.
    pub name: &'a str,
    /// Its content.
    pub text: &'a str,
}

/// An error or warning about an input, located by file, path and (when known) line.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Diagnostic {
    /// File name.
    pub file: String,
    /// Path inside the document (`items[3].spec...`), empty for the whole document.
    pub path: String,
    /// 1-based line, when the parser knows it.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl Diagnostic {
    /// A diagnostic at a path.
    pub fn new(file: &str, path: impl Into<String>, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            file: file.to_string(),
            path: path.into(),
            line: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `file: path: message`, as the CLI contract spells it; the line only stands in for a
        // missing path (syntax errors). Editors read `line` directly.
        write!(f, "{}: ", self.file)?;
        if !self.path.is_empty() {
            write!(f, "{}: ", self.path)?;
        } else if let Some(line) = self.line {
            write!(f, "line {line}: ")?;
        }
        f.write_str(&self.message)
    }
}

/// Where an object came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// File name.
    pub file: String,
    /// Path of the object in the file (`items[2]`, `documents[1]`, or empty).
    pub path: String,
}

/// Where upstream's scheme is registered, as its decoding error names it.
const SCHEME: &str = "k8s.io/kubernetes/pkg/scheduler/apis/config/scheme/scheme.go:29";

/// Every object read from the inputs, in input order per kind.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    /// Nodes.
    pub nodes: Vec<(Node, Origin)>,
    /// Pods.
    pub pods: Vec<(Box<Pod>, Origin)>,
    /// Services.
    pub services: Vec<Service>,
    /// ReplicationControllers.
    pub replication_controllers: Vec<ReplicationController>,
    /// ReplicaSets.
    pub replica_sets: Vec<SelectorWorkload>,
    /// StatefulSets.
    pub stateful_sets: Vec<SelectorWorkload>,
    /// PriorityClasses.
    pub priority_classes: Vec<(PriorityClass, Origin)>,
    /// Policies.
    pub policies: Vec<(PolicyDocument, Origin)>,
    /// Scheduler configurations (`v1alpha1`, v1.17 mode).
    pub configs: Vec<(SchedulerConfiguration, Origin)>,
    /// `kubescheduler.config.k8s.io/v1` configurations (v1.35 mode), as read: the scenario
    /// defaults, merges and validates them.
    pub modern_configs: Vec<(Value, Origin)>,
    /// PersistentVolumes.
    pub persistent_volumes: Vec<(PersistentVolume, Origin)>,
    /// PersistentVolumeClaims.
    pub persistent_volume_claims: Vec<(PersistentVolumeClaim, Origin)>,
    /// StorageClasses.
    pub storage_classes: Vec<(StorageClass, Origin)>,
    /// CSINodes.
    pub csi_nodes: Vec<(CsiNode, Origin)>,
    /// PodDisruptionBudgets.
    pub pod_disruption_budgets: Vec<PodDisruptionBudget>,
    /// Timelines (schedlab's own kind).
    pub timelines: Vec<(crate::model::timeline::Timeline, Origin)>,
    /// Mock extenders (schedlab's own kind `ExtenderMock`).
    pub extender_mocks: Vec<(crate::sched::extender::mock::Mock, Origin)>,
    /// Recorded extender exchanges (schedlab's own kind `ExtenderRecording`).
    pub extender_recordings: Vec<(Vec<crate::sched::extender::recording::RecordedCall>, Origin)>,
    /// DeviceClasses.
    pub device_classes: Vec<(crate::model::dra::DeviceClass, Origin)>,
    /// ResourceSlices.
    pub resource_slices: Vec<(crate::model::dra::ResourceSlice, Origin)>,
    /// ResourceClaims (request defaults applied).
    pub resource_claims: Vec<(crate::model::dra::ResourceClaim, Origin)>,
    /// ResourceClaimTemplates (request defaults applied).
    pub resource_claim_templates: Vec<(crate::model::dra::ResourceClaimTemplate, Origin)>,
    /// Deployments' pod templates (named and namespaced as their Deployment), or the errors
    /// reading one: a scenario skips Deployments (with a warning); `schedlab capacity` takes
    /// them as templates.
    pub deployments: Vec<(Result<Pod, Vec<Diagnostic>>, Origin)>,
    /// Warnings (skipped kinds, odd apiVersions, ...).
    pub warnings: Vec<Diagnostic>,
    /// Errors that only one version's API server gives (about a field the other one does not
    /// know): the scenario keeps those of the version it runs.
    pub version_errors: Vec<(RefusedBy, Diagnostic)>,
}

/// For the `block_yaml` fuzz target and the real-world tests: `None` when the quick reader of
/// kubectl's block YAML (used for the items of large lists) leaves `text` to libyaml; else
/// whether it reads `text` as libyaml's path does.
#[doc(hidden)]
pub fn block_yaml_matches_libyaml(text: &str) -> Option<bool> {
    block_yaml::matches_libyaml(text)
}

/// Reads every source; returns all errors found, not just the first.
pub fn read_sources(sources: &[Source]) -> Result<Inputs, Vec<Diagnostic>> {
    let mut inputs = Inputs::default();
    let mut errors = Vec::new();
    for src in sources {
        match read_source(src) {
            Ok(more) => inputs.append(more),
            Err(more) => errors.extend(more),
        }
    }
    if errors.is_empty() {
        Ok(inputs)
    } else {
        Err(errors)
    }
}

/// Reads one source (the object limit applies per source). An editor that reads its files
/// one by one can keep the result of a file that did not change.
pub fn read_source(src: &Source) -> Result<Inputs, Vec<Diagnostic>> {
    if src.name.ends_with(".js") {
        // The playground's Plugins program (JavaScript), as a scenario folder keeps it.
        let mut inputs = Inputs::default();
        inputs.warnings.push(Diagnostic::new(
            src.name,
            "",
            "a JavaScript Plugins program runs only in the playground; it is skipped here: bring the plugins as kube-scheduler-wasm-extension guests instead (`schedlab run --plugin NAME=FILE`, or the JS API's `plugins` option)",
        ));
        return Ok(inputs);
    }
    let (inputs, errors) = items::read_in_parallel(src).unwrap_or_else(|| read_one_thread(src));
    finish(src, inputs, errors)
}

/// The lines of `src`'s errors and warnings found, and its objects or its errors.
fn finish(
    src: &Source,
    mut inputs: Inputs,
    mut errors: Vec<Diagnostic>,
) -> Result<Inputs, Vec<Diagnostic>> {
    let sources = std::slice::from_ref(src);
    locate_lines(&mut errors, sources);
    locate_lines(&mut inputs.warnings, sources);
    if errors.is_empty() {
        Ok(inputs)
    } else {
        Err(errors)
    }
}

/// [`read_source`]'s objects and errors, read on the calling thread.
fn read_one_thread(src: &Source) -> (Inputs, Vec<Diagnostic>) {
    let (mut inputs, mut errors, mut count) = (Inputs::default(), Vec::new(), 0);
    match read_json_list(src) {
        Some(Streamed::List(list)) => {
            let ListSink {
                file,
                inputs: read,
                errors: found,
                count: counted,
                deferred,
                ..
            } = *list;
            (inputs, errors, count) = (read, found, counted);
            let (first, kind, api_version, items) = deferred.expect("a list");
            let item_kind = kind.strip_suffix("List").filter(|k| !k.is_empty());
            for (j, item) in items.into_iter().enumerate() {
                let path = format!("items[{}]", first + j);
                read_item(
                    file,
                    path,
                    item,
                    item_kind,
                    &api_version,
                    &mut inputs,
                    &mut errors,
                    &mut count,
                );
            }
        }
        Some(Streamed::Document(value)) => {
            let doc = Doc {
                prefix: String::new(),
                value,
            };
            read_document(src.name, doc, &mut inputs, &mut errors, &mut count);
        }
        None => {
            for doc in split_documents(src, &mut errors) {
                read_document(src.name, doc, &mut inputs, &mut errors, &mut count);
            }
        }
    }
    (inputs, errors)
}

impl Inputs {
    /// Adds another source's objects after these (input order is kept).
    pub fn append(&mut self, other: Inputs) {
        let Inputs {
            nodes,
            pods,
            services,
            replication_controllers,
            replica_sets,
            stateful_sets,
            priority_classes,
            policies,
            configs,
            modern_configs,
            persistent_volumes,
            persistent_volume_claims,
            storage_classes,
            csi_nodes,
            pod_disruption_budgets,
            timelines,
            extender_mocks,
            extender_recordings,
            deployments,
            device_classes,
            resource_slices,
            resource_claims,
            resource_claim_templates,
            warnings,
            version_errors,
        } = other;
        take_or_extend(&mut self.version_errors, version_errors);
        take_or_extend(&mut self.device_classes, device_classes);
        take_or_extend(&mut self.resource_slices, resource_slices);
        take_or_extend(&mut self.resource_claims, resource_claims);
        take_or_extend(&mut self.resource_claim_templates, resource_claim_templates);
        take_or_extend(&mut self.deployments, deployments);
        take_or_extend(&mut self.nodes, nodes);
        take_or_extend(&mut self.pods, pods);
        take_or_extend(&mut self.services, services);
        take_or_extend(&mut self.replication_controllers, replication_controllers);
        take_or_extend(&mut self.replica_sets, replica_sets);
        take_or_extend(&mut self.stateful_sets, stateful_sets);
        take_or_extend(&mut self.priority_classes, priority_classes);
        take_or_extend(&mut self.policies, policies);
        take_or_extend(&mut self.configs, configs);
        take_or_extend(&mut self.modern_configs, modern_configs);
        take_or_extend(&mut self.persistent_volumes, persistent_volumes);
        take_or_extend(&mut self.persistent_volume_claims, persistent_volume_claims);
        take_or_extend(&mut self.storage_classes, storage_classes);
        take_or_extend(&mut self.csi_nodes, csi_nodes);
        take_or_extend(&mut self.pod_disruption_budgets, pod_disruption_budgets);
        take_or_extend(&mut self.timelines, timelines);
        take_or_extend(&mut self.extender_mocks, extender_mocks);
        take_or_extend(&mut self.extender_recordings, extender_recordings);
        take_or_extend(&mut self.warnings, warnings);
    }
}

/// `into` followed by `more`: `more` itself when `into` is empty, so that a file's 50 000 pods
/// are not copied into the vector of all files' pods.
fn take_or_extend<T>(into: &mut Vec<T>, more: Vec<T>) {
    if into.is_empty() && more.capacity() >= into.capacity() {
        *into = more;
    } else {
        into.extend(more);
    }
}

/// Fills in the line of every diagnostic that has a path but no line yet. One pass per file,
/// however many diagnostics it has; a path that is not in the file (a required field left out)
/// takes the line of its nearest parent that is, in at most [`MAX_PARENT_PASSES`] more passes.
pub fn locate_lines(diagnostics: &mut [Diagnostic], sources: &[Source]) {
    for src in sources {
        let targets: Vec<usize> = (0..diagnostics.len())
            .filter(|&i| {
                let d = &diagnostics[i];
                d.line.is_none() && !d.path.is_empty() && d.file == src.name
            })
            .collect();
        if targets.is_empty()
            || src.text.len() > MAX_FILE_BYTES
            || flow_depth(src.text) > MAX_NESTING
        {
            continue;
        }
        let text = src.text.trim_start_matches('\u{feff}');
        let mut wanted: Vec<(usize, String)> = targets
            .into_iter()
            .map(|i| (i, diagnostics[i].path.clone()))
            .collect();
        for _ in 0..=MAX_PARENT_PASSES {
            let paths: Vec<&str> = wanted.iter().map(|(_, p)| p.as_str()).collect();
            let lines = locate::lines_of(text, &paths);
            let mut missing = Vec::new();
            for ((i, path), line) in wanted.into_iter().zip(lines) {
                match (line, locate::parent(&path)) {
                    (Some(line), _) => diagnostics[i].line = Some(line),
                    (None, Some(parent)) => missing.push((i, parent.to_string())),
                    (None, None) => {}
                }
            }
            if missing.is_empty() {
                break;
            }
            wanted = missing;
        }
    }
}

/// How many times [`locate_lines`] looks for the parents of paths it did not find.
pub const MAX_PARENT_PASSES: usize = 3;

/// Whether the text is JSON (first significant character `{` or `[`).
pub fn looks_like_json(text: &str) -> bool {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    t.starts_with('{') || t.starts_with('[')
}

/// What [`read_json_list`] read.
enum Streamed<'f, 't> {
    /// A list, its items read as they were parsed.
    List(Box<ListSink<'f, 't>>),
    /// Any other document, whole.
    Document(Tree<'t>),
}

/// Reads a JSON file that holds a list (`kind: List` or `...List`), each item read into its
/// object as soon as the parser has it, so that the list never stands in memory as a whole.
/// What this reads is what [`split_documents`] and [`read_document`] read; `None` when they
/// must read the file instead: not JSON, not valid, or a document whose top-level `items`
/// turned out not to be a list's (the items were already read speculatively; that is thrown
/// away and the file read again).
fn read_json_list<'f, 't>(src: &Source<'t>) -> Option<Streamed<'f, 't>>
where
    't: 'f,
{
    let text = src.text.trim_start_matches('\u{feff}');
    if src.text.len() > MAX_FILE_BYTES || !looks_like_json(text) {
        return None;
    }
    let (depth, estimate) = flow_shape(text);
    if depth > MAX_NESTING {
        return None;
    }
    let ctx = parse::Context::default();
    let mut sink = ListSink {
        file: src.name,
        inputs: Inputs::default(),
        errors: Vec::new(),
        count: 0,
        estimate,
        streaming: false,
        first_deferred: None,
        deferred: None,
        kept: Vec::new(),
    };
    let value = parse::json_document(text, &ctx, &mut sink).ok()?;
    if !sink.streaming {
        return Some(Streamed::Document(value));
    }
    // As `read_document` decides: a map (it is: it has `items`) whose `kind` is a string
    // naming a list (it has `items`, so `...List` is one).
    let kind = value.get("kind").and_then(Tree::as_str)?;
    if kind != "List" && !kind.ends_with("List") {
        return None;
    }
    let api_version = value.get("apiVersion").cloned();
    let first = sink.first_deferred.unwrap_or(0);
    sink.deferred = Some((
        first,
        kind.to_string(),
        api_version,
        std::mem::take(&mut sink.kept),
    ));
    Some(Streamed::List(Box::new(sink)))
}

/// Reads the items of a JSON list as the parser hands them over (see [`read_json_list`]).
struct ListSink<'f, 't> {
    file: &'f str,
    inputs: Inputs,
    errors: Vec<Diagnostic>,
    count: usize,
    /// About how many items the list has (see [`flow_shape`]).
    estimate: usize,
    /// Whether the top-level `items` was a sequence (its items came here).
    streaming: bool,
    /// The index of the first item kept for the end.
    first_deferred: Option<usize>,
    /// Items without their own `kind`, and every item after the first of them: what they
    /// are depends on the list's `kind` and `apiVersion`, which may come after `items`.
    kept: Vec<Tree<'t>>,
    /// Once the list is read: (first kept index, the list's kind, its apiVersion, the kept
    /// items).
    #[allow(clippy::type_complexity)]
    deferred: Option<(usize, String, Option<Tree<'t>>, Vec<Tree<'t>>)>,
}

/// Room made ahead for the nodes or pods of a list at most (beyond, vectors grow as usual).
const ROOM_AHEAD: usize = 100_000;

impl ListSink<'_, '_> {
    /// At the list's first node or pod, makes room for as many as the list seems to hold, so
    /// that the vector of 50 000 pods is not copied as it grows.
    fn make_room(&mut self, index: usize, item: &Tree) {
        let ahead = self.estimate.saturating_sub(index).min(ROOM_AHEAD);
        make_room(&mut self.inputs, item, ahead);
    }
}

/// Makes room for `ahead` more pods or nodes, as `item`'s kind says, unless the vector has
/// room already (it is made once, at a list's first pod or node).
fn make_room(inputs: &mut Inputs, item: &Tree, ahead: usize) {
    match item.get("kind").and_then(Tree::as_str) {
        Some("Pod") if inputs.pods.capacity() == 0 => inputs.pods.reserve(ahead),
        Some("Node") if inputs.nodes.capacity() == 0 => inputs.nodes.reserve(ahead),
        _ => {}
    }
}

impl<'t> parse::ItemSink<'t> for ListSink<'_, 't> {
    fn item(&mut self, index: usize, item: Tree<'t>) {
        let own_kind = matches!(&item, Tree::Map(m) if m.iter().any(|(k, _)| k == "kind"));
        if self.first_deferred.is_none() && own_kind {
            // An item with its own kind is read as it is, whatever the list's kind.
            self.make_room(index, &item);
            let path = format!("items[{index}]");
            read_object(
                self.file,
                &path,
                item,
                &mut self.inputs,
                &mut self.errors,
                &mut self.count,
            );
        } else {
            self.first_deferred.get_or_insert(index);
            self.kept.push(item);
        }
    }

    fn streaming(&mut self) {
        self.streaming = true;
    }
}

/// A parsed document and its path prefix.
struct Doc<'t> {
    prefix: String,
    value: Tree<'t>,
}

/// Deepest flow nesting (`[`, `{`) outside quoted strings; a cheap guard that keeps the YAML
/// parser away from pathological inputs (it is slow on tens of thousands of nested brackets).
fn flow_depth(text: &str) -> usize {
    flow_shape(text).0
}

/// [`flow_depth`], and how many maps open right inside a sequence at the second level (the
/// items of a JSON list: a hint for how much room to make for them).
///
/// Read once over every JSON file before it is parsed, so it skips instead of stepping: from a
/// quote to the next quote (or backslash, which skips the byte after it), and over bytes that
/// are none of `"'[]{}`. Quoted strings are `"…"` with backslash escapes and `'…'` without.
fn flow_shape(text: &str) -> (usize, usize) {
    let bytes = text.as_bytes();
    let (mut depth, mut max, mut items) = (0usize, 0usize, 0usize);
    let mut second = 0u8;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'"' => {
                i += 1;
                // To the closing quote; an unterminated string runs to the end.
                loop {
                    let rest = bytes.get(i..).unwrap_or_default();
                    match find_either(rest, b'"', b'\\') {
                        None => return (max, items),
                        Some(k) if rest[k] == b'\\' => i += k + 2,
                        Some(k) => {
                            i += k + 1;
                            break;
                        }
                    }
                }
                continue;
            }
            b'\'' => {
                let rest = bytes.get(i + 1..).unwrap_or_default();
                match find_either(rest, b'\'', b'\'') {
                    None => return (max, items),
                    Some(k) => i += k + 2,
                }
                continue;
            }
            b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
                if depth == 2 {
                    second = b;
                } else if depth == 3 && second == b'[' && b == b'{' {
                    items += 1;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {
                // Over the plain bytes up to the next one that matters.
                let rest = &bytes[i..];
                i += rest
                    .iter()
                    .position(|&c| FLOW_BYTES[usize::from(c)])
                    .unwrap_or(rest.len());
                continue;
            }
        }
        i += 1;
    }
    (max, items)
}

/// Where the first `a` or `b` is in `hay`: eight bytes at a time (a byte equal to `a` is a zero
/// byte of the word XOR `a` repeated, and the lowest flagged zero byte is always a true one).
fn find_either(hay: &[u8], a: u8, b: u8) -> Option<usize> {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
    let zero_bytes = |w: u64| w.wrapping_sub(ONES) & !w & HIGHS;
    let (pattern_a, pattern_b) = (ONES * u64::from(a), ONES * u64::from(b));
    let mut chunks = hay.chunks_exact(8);
    let mut start = 0;
    for chunk in &mut chunks {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        let word = u64::from_le_bytes(word);
        let found = zero_bytes(word ^ pattern_a) | zero_bytes(word ^ pattern_b);
        if found != 0 {
            return Some(start + (found.trailing_zeros() / 8) as usize);
        }
        start += 8;
    }
    let tail = chunks.remainder();
    tail.iter()
        .position(|&c| c == a || c == b)
        .map(|k| start + k)
}

/// The bytes [`flow_shape`] stops at: quotes and brackets.
const FLOW_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut k = 0;
    let special = *b"\"'[]{}";
    while k < special.len() {
        table[special[k] as usize] = true;
        k += 1;
    }
    table
};

/// Deepest nesting accepted (serde_json's own limit is 128).
pub const MAX_NESTING: usize = 128;

fn split_documents<'t>(src: &Source<'t>, errors: &mut Vec<Diagnostic>) -> Vec<Doc<'t>> {
    if src.text.len() > MAX_FILE_BYTES {
        errors.push(Diagnostic::new(
            src.name,
            "",
            format!(
                "file is too large ({} MiB; the limit is {} MiB)",
                src.text.len() >> 20,
                MAX_FILE_BYTES >> 20
            ),
        ));
        return Vec::new();
    }
    let text = src.text.trim_start_matches('\u{feff}');
    if flow_depth(text) > MAX_NESTING {
        errors.push(Diagnostic::new(
            src.name,
            "",
            format!("nested more than {MAX_NESTING} levels deep; no Kubernetes object is"),
        ));
        return Vec::new();
    }
    if looks_like_json(text) {
        let ctx = parse::Context::default();
        return match parse::json_tree(text, &ctx) {
            Ok(value) => vec![Doc {
                prefix: String::new(),
                value,
            }],
            Err(e) => {
                if let Some(d) = ctx.take_duplicate() {
                    errors.push(duplicate_error(src.name, "", &d, Some(e.line())));
                    return Vec::new();
                }
                // Flow-style YAML (`{kind: Pod, ...}`) also starts with `{`; text whose first
                // key is quoted is JSON and keeps its JSON error.
                let after_brace = text.trim_start()[1..].trim_start();
                if !after_brace.starts_with('"') {
                    let mut yaml_errors = Vec::new();
                    let docs = split_yaml(src.name, text, &mut yaml_errors);
                    if yaml_errors.is_empty() && !docs.is_empty() {
                        return docs;
                    }
                    if yaml_errors
                        .iter()
                        .any(|d| d.message.starts_with("duplicate field"))
                    {
                        errors.extend(yaml_errors);
                        return Vec::new();
                    }
                }
                errors.push(Diagnostic {
                    file: src.name.to_string(),
                    path: String::new(),
                    line: Some(e.line()),
                    message: format!("invalid JSON: {}", strip_position(&e.to_string())),
                });
                Vec::new()
            }
        };
    }
    split_yaml(src.name, text, errors)
}

fn split_yaml<'t>(name: &str, text: &'t str, errors: &mut Vec<Diagnostic>) -> Vec<Doc<'t>> {
    if let Err((line, message)) = aliases::check(text) {
        errors.push(Diagnostic {
            file: name.to_string(),
            path: String::new(),
            line: Some(line),
            message,
        });
        return Vec::new();
    }
    let mut docs = Vec::new();
    let mut index = 0usize;
    for de in serde_yaml_ng::Deserializer::from_str(text) {
        let ctx = parse::Context::yaml();
        match (parse::TreeSeed { ctx: &ctx }).deserialize(de) {
            Ok(Tree::Null) => {}
            Ok(value) => docs.push(Doc {
                prefix: String::new(),
                value,
            }),
            Err(e) => {
                if let Some(d) = ctx.take_duplicate() {
                    // The first document keeps a bare path, as the line finder reads it.
                    let prefix = match index {
                        0 => String::new(),
                        i => format!("document {}", i + 1),
                    };
                    let line = e.location().map(|l| l.line());
                    errors.push(duplicate_error(name, &prefix, &d, line));
                    return docs;
                }
                errors.push(Diagnostic {
                    file: name.to_string(),
                    path: String::new(),
                    line: e.location().map(|l| l.line()),
                    message: format!("invalid YAML: {}", strip_position(&e.to_string())),
                });
                return docs;
            }
        }
        index += 1;
    }
    if index > 1 {
        // Name documents of a multi-document file by their position.
        for (i, d) in docs.iter_mut().enumerate() {
            d.prefix = format!("document {}", i + 1);
        }
    }
    docs
}

/// `file: path: duplicate field "kind"`, at the line of the second occurrence.
fn duplicate_error(
    file: &str,
    prefix: &str,
    d: &parse::Duplicate,
    line: Option<usize>,
) -> Diagnostic {
    Diagnostic {
        file: file.to_string(),
        path: join(prefix, &d.path()),
        line,
        message: d.message(),
    }
}

fn strip_position(msg: &str) -> String {
    // serde_json appends " at line X column Y"; the line is reported separately.
    match msg.find(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

/// Removes `null` members from objects, recursively: Kubernetes treats them as absent. (The
/// reader drops them while parsing; this is for values built otherwise.)
pub fn strip_nulls(v: Value) -> Value {
    match v {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k, strip_nulls(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(strip_nulls).collect()),
        other => other,
    }
}

/// Joins a document prefix and a path inside it: `items[3]` + `spec.x` → `items[3].spec.x`,
/// `document 2` + `spec.x` → `document 2: spec.x`.
pub fn join_path(prefix: &str, path: &str) -> String {
    join(prefix, path)
}

fn join(prefix: &str, path: &str) -> String {
    if path.is_empty() || path == "." {
        return prefix.to_string();
    }
    if prefix.is_empty() {
        return path.to_string();
    }
    if prefix.starts_with("document ") && !prefix.contains(':') {
        return format!("{prefix}: {path}");
    }
    if path.starts_with('[') {
        format!("{prefix}{path}")
    } else {
        format!("{prefix}.{path}")
    }
}

fn guess_kind(v: &Value) -> Option<&'static str> {
    if v.pointer("/spec/containers").is_some() {
        Some("Pod")
    } else if v.pointer("/status/nodeInfo").is_some()
        || v.pointer("/status/capacity").is_some()
        || v.pointer("/status/allocatable").is_some()
    {
        Some("Node")
    } else {
        None
    }
}

fn read_document(
    file: &str,
    doc: Doc,
    inputs: &mut Inputs,
    errors: &mut Vec<Diagnostic>,
    count: &mut usize,
) {
    let Doc { prefix, mut value } = doc;
    if !matches!(value, Tree::Map(_)) {
        errors.push(Diagnostic::new(
            file,
            prefix,
            "expected a Kubernetes object (a map with `kind`), found something else",
        ));
        return;
    }
    let kind = value.get("kind").and_then(Tree::as_str).map(str::to_string);
    let Some(kind) = kind else {
        let hint = match guess_kind(&value.into_value()) {
            Some(k) => format!(" (it looks like a {k}: add `kind: {k}` and `apiVersion: v1`)"),
            None => String::from(
                " (every document must be a Kubernetes object or list, as `kubectl get -o json` prints)",
            ),
        };
        errors.push(Diagnostic::new(file, prefix, format!("missing kind{hint}")));
        return;
    };
    let is_list = kind == "List" || (kind.ends_with("List") && value.get("items").is_some());
    if is_list {
        let item_kind = kind.strip_suffix("List").filter(|k| !k.is_empty());
        // The items are moved out of the list (a 10 000-pod list is never copied).
        let api_version = value.get("apiVersion").cloned();
        let items = match value.get_mut("items") {
            Some(Tree::Seq(items)) => std::mem::take(items),
            None => Vec::new(),
            Some(_) => {
                errors.push(Diagnostic::new(
                    file,
                    join(&prefix, "items"),
                    "expected a list",
                ));
                return;
            }
        };
        drop(value);
        for (i, item) in items.into_iter().enumerate() {
            let path = join(&prefix, &format!("items[{i}]"));
            read_item(
                file,
                path,
                item,
                item_kind,
                &api_version,
                inputs,
                errors,
                count,
            );
        }
        return;
    }
    read_object(file, &prefix, value, inputs, errors, count);
}

/// Reads an item of a list of `item_kind`s (`PodList`; none for `List`): an item without
/// `kind` takes the list's kind and `apiVersion`.
#[allow(clippy::too_many_arguments)]
fn read_item<'t>(
    file: &str,
    path: String,
    mut item: Tree<'t>,
    item_kind: Option<&str>,
    api_version: &Option<Tree<'t>>,
    inputs: &mut Inputs,
    errors: &mut Vec<Diagnostic>,
    count: &mut usize,
) {
    if let (Tree::Map(m), Some(k)) = (&mut item, item_kind) {
        if !m.iter().any(|(key, _)| key == "kind") {
            m.push((Cow::Borrowed("kind"), Tree::Str(Cow::Owned(k.to_string()))));
            let has_api = m.iter().any(|(key, _)| key == "apiVersion");
            if let (false, Some(api)) = (has_api, api_version) {
                m.push((Cow::Borrowed("apiVersion"), api.clone()));
            }
        }
    }
    if item.get("kind").is_none() {
        errors.push(Diagnostic::new(
            file,
            path,
            "missing kind (items of a `kind: List` need their own kind)",
        ));
        return;
    }
    read_object(file, &path, item, inputs, errors, count);
}

/// The typed object a document holds, or the error at its path.
fn typed<T: DeserializeOwned>(
    file: &str,
    path: &str,
    value: &Tree,
    errors: &mut Vec<Diagnostic>,
) -> Option<T> {
    // Read without tracking the path (most objects are valid), and again with it to say where
    // an object that is not went wrong: the same reading, so the same error.
    if let Ok(v) = T::deserialize(value) {
        return Some(v);
    }
    match serde_path_to_error::deserialize::<_, T>(value) {
        Ok(v) => Some(v),
        Err(e) => {
            push_path_error(file, path, e, errors);
            None
        }
    }
}

/// A typed read that failed, as a diagnostic at the path where it failed (under `path`).
fn push_path_error<E: std::fmt::Display>(
    file: &str,
    path: &str,
    e: serde_path_to_error::Error<E>,
    errors: &mut Vec<Diagnostic>,
) {
    let inner = e.path().to_string();
    errors.push(Diagnostic::new(
        file,
        join(path, &inner),
        plain_type_names(&e.into_inner().to_string()),
    ));
}

/// [`typed`] from a JSON value (the timeline reads its parts so).
fn typed_value<T: DeserializeOwned>(
    file: &str,
    path: &str,
    value: Value,
    errors: &mut Vec<Diagnostic>,
) -> Option<T> {
    match serde_path_to_error::deserialize::<_, T>(value) {
        Ok(v) => Some(v),
        Err(e) => {
            push_path_error(file, path, e, errors);
            None
        }
    }
}

/// serde's Rust type names in an error message (`expected i32`) said as what the field accepts.
pub(crate) fn plain_type_names(message: &str) -> String {
    const NAMES: [(&str, &str); 8] = [
        ("i32", "a 32-bit integer (-2147483648 to 2147483647)"),
        ("u32", "a whole number from 0 to 4294967295"),
        (
            "i64",
            "a 64-bit integer (-9223372036854775808 to 9223372036854775807)",
        ),
        ("u64", "a whole number from 0 to 18446744073709551615"),
        ("u16", "a whole number from 0 to 65535"),
        ("i16", "a 16-bit integer (-32768 to 32767)"),
        ("u8", "a whole number from 0 to 255"),
        ("f64", "a number"),
    ];
    let mut out = message.to_string();
    for (rust, plain) in NAMES {
        let expected = format!("expected {rust}");
        if let Some(i) = out.find(&expected) {
            let end = i + expected.len();
            // Only the whole word (`expected i32`, not `expected i32s`).
            if !out[end..].starts_with(|c: char| c.is_ascii_alphanumeric()) {
                out.replace_range(i..end, &format!("expected {plain}"));
            }
        }
    }
    out
}

/// (kind, expected apiVersions).
const API_VERSIONS: &[(&str, &[&str])] = &[
    ("Node", &["v1"]),
    ("Pod", &["v1"]),
    ("Service", &["v1"]),
    ("ReplicationController", &["v1"]),
    ("ReplicaSet", &["apps/v1"]),
    ("StatefulSet", &["apps/v1"]),
    (
        "PriorityClass",
        &[
            "scheduling.k8s.io/v1",
            "scheduling.k8s.io/v1beta1",
            "scheduling.k8s.io/v1alpha1",
        ],
    ),
    ("Policy", &["v1", ""]),
    ("PersistentVolume", &["v1"]),
    ("PersistentVolumeClaim", &["v1"]),
    (
        "StorageClass",
        &["storage.k8s.io/v1", "storage.k8s.io/v1beta1"],
    ),
    ("CSINode", &["storage.k8s.io/v1", "storage.k8s.io/v1beta1"]),
    ("Timeline", &[timeline::API_VERSION]),
    ("ExtenderMock", &[timeline::API_VERSION]),
    ("ExtenderRecording", &[timeline::API_VERSION]),
    ("PluginProgram", &[timeline::API_VERSION]),
    ("PodDisruptionBudget", &["policy/v1", "policy/v1beta1"]),
    ("DeviceClass", &[crate::model::dra::API_VERSION]),
    ("ResourceSlice", &[crate::model::dra::API_VERSION]),
    ("ResourceClaim", &[crate::model::dra::API_VERSION]),
    ("ResourceClaimTemplate", &[crate::model::dra::API_VERSION]),
];

/// Reads one object (a document, or an item of a list) by its `kind`, within the per-file
/// limit of [`MAX_OBJECTS`]; a kind the scheduler does not use is skipped with a warning.
fn read_object(
    file: &str,
    path: &str,
    value: Tree,
    inputs: &mut Inputs,
    errors: &mut Vec<Diagnostic>,
    count: &mut usize,
) {
    if !within_object_limit(file, path, errors, count) {
        return;
    }
    let kind = value
        .get("kind")
        .and_then(Tree::as_str)
        .unwrap_or("")
        .to_string();
    let api = value
        .get("apiVersion")
        .and_then(Tree::as_str)
        .unwrap_or("")
        .to_string();
    warn_unexpected_api_version(file, path, &kind, &api, &mut inputs.warnings);
    let object = ObjectAt {
        file,
        path,
        api_version: &api,
    };
    match KIND_READERS.iter().find(|(k, _)| *k == kind) {
        Some((_, read)) => read(&object, value, inputs, errors),
        None => {
            let why = format!("skipped {kind}: the scheduler does not use this kind");
            inputs.warnings.push(Diagnostic::new(file, path, why));
        }
    }
}

/// Counts one more object of the file: the first past [`MAX_OBJECTS`] is an error, and none
/// past it is read.
fn within_object_limit(
    file: &str,
    path: &str,
    errors: &mut Vec<Diagnostic>,
    count: &mut usize,
) -> bool {
    *count += 1;
    if *count == MAX_OBJECTS + 1 {
        errors.push(Diagnostic::new(
            file,
            path,
            format!("too many objects (the limit is {MAX_OBJECTS})"),
        ));
    }
    *count <= MAX_OBJECTS
}

/// A kind read under an `apiVersion` other than those Kubernetes serves it at: a warning, and
/// the object is read anyway.
fn warn_unexpected_api_version(
    file: &str,
    path: &str,
    kind: &str,
    api: &str,
    warnings: &mut Vec<Diagnostic>,
) {
    let Some((_, versions)) = API_VERSIONS.iter().find(|(k, _)| *k == kind) else {
        return;
    };
    if !api.is_empty() && !versions.contains(&api) {
        warnings.push(Diagnostic::new(
            file,
            path,
            format!(
                "{kind} with apiVersion {api:?}: expected {}; read as a {kind} anyway",
                versions
                    .iter()
                    .filter(|v| !v.is_empty())
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
        ));
    }
}

/// Where an object being read is: its file, its path there, and its `apiVersion`.
struct ObjectAt<'a> {
    file: &'a str,
    path: &'a str,
    api_version: &'a str,
}

impl ObjectAt<'_> {
    /// The object's [`Origin`].
    fn origin(&self) -> Origin {
        Origin {
            file: self.file.to_string(),
            path: self.path.to_string(),
        }
    }

    /// The object as `T`, or the error at the path where it does not read.
    fn typed<T: DeserializeOwned>(&self, value: &Tree, errors: &mut Vec<Diagnostic>) -> Option<T> {
        typed(self.file, self.path, value, errors)
    }

    /// The object as `T` if it reads and has a `metadata.name` (`name` finds it); an unnamed
    /// object is an error at `metadata.name`.
    fn named<T: DeserializeOwned>(
        &self,
        value: &Tree,
        errors: &mut Vec<Diagnostic>,
        name: fn(&T) -> &str,
    ) -> Option<T> {
        let object = self.typed::<T>(value, errors)?;
        if name(&object).is_empty() {
            errors.push(Diagnostic::new(
                self.file,
                join(self.path, "metadata.name"),
                "required: every object needs a name",
            ));
            return None;
        }
        Some(object)
    }

    /// kube-apiserver's validation of the typed object (`validate`), reporting here.
    fn check<'c>(
        &'c self,
        errors: &'c mut Vec<Diagnostic>,
        warnings: &'c mut Vec<Diagnostic>,
        versioned: &'c mut Vec<(RefusedBy, Diagnostic)>,
    ) -> validate::Check<'c> {
        validate::Check::with_versions(self.file, self.path, errors, warnings, versioned)
    }

    /// What validation reads beside the typed object (`validate::facts`): its default when the
    /// document does not read as `T` (the error is reported).
    fn facts<T: DeserializeOwned + Default>(
        &self,
        value: &Tree,
        errors: &mut Vec<Diagnostic>,
    ) -> T {
        self.typed(value, errors).unwrap_or_default()
    }
}

/// Reads an object of one kind into the inputs.
type ReadKind = fn(&ObjectAt, Tree, &mut Inputs, &mut Vec<Diagnostic>);

/// The reader of each kind the scheduler uses.
const KIND_READERS: &[(&str, ReadKind)] = &[
    ("Node", read_node),
    ("Pod", read_pod),
    ("Service", read_service),
    ("ReplicationController", read_replication_controller),
    ("ReplicaSet", read_replica_set),
    ("StatefulSet", read_stateful_set),
    ("PodDisruptionBudget", read_pod_disruption_budget),
    ("PriorityClass", read_priority_class),
    ("Policy", read_policy),
    ("PersistentVolume", read_persistent_volume),
    ("PersistentVolumeClaim", read_persistent_volume_claim),
    ("StorageClass", read_storage_class),
    ("CSINode", read_csi_node),
    ("Timeline", read_timeline),
    ("ExtenderMock", read_extender_mock),
    ("ExtenderRecording", read_extender_recording),
    ("PluginProgram", read_plugin_program),
    ("KubeSchedulerConfiguration", read_scheduler_configuration),
    ("Deployment", read_deployment),
    ("DeviceClass", read_device_class),
    ("ResourceSlice", read_resource_slice),
    ("ResourceClaim", read_resource_claim),
    ("ResourceClaimTemplate", read_resource_claim_template),
];

/// A Node: named and validated.
fn read_node(at: &ObjectAt, value: Tree, inputs: &mut Inputs, errors: &mut Vec<Diagnostic>) {
    if let Some(n) = at.named::<Node>(&value, errors, |n| &n.metadata.name) {
        let facts = at.facts(&value, errors);
        let (w, v) = (&mut inputs.warnings, &mut inputs.version_errors);
        validate::node(&mut at.check(errors, w, v), &n, &facts);
        inputs.nodes.push((n, at.origin()));
    }
}

/// A Pod: named and validated (with what only the document shows, such as volume sources).
fn read_pod(at: &ObjectAt, value: Tree, inputs: &mut Inputs, errors: &mut Vec<Diagnostic>) {
    if let Some(p) = at.named::<Pod>(&value, errors, |p| &p.metadata.name) {
        let facts = at.facts(&value, errors);
        let (w, v) = (&mut inputs.warnings, &mut inputs.version_errors);
        validate::pod(&mut at.check(errors, w, v), &p, &facts);
        inputs.pods.push((Box::new(p), at.origin()));
    }
}

/// A Service (its selector spreads pods), validated.
fn read_service(at: &ObjectAt, value: Tree, inputs: &mut Inputs, errors: &mut Vec<Diagnostic>) {
    if let Some(svc) = at.typed::<Service>(&value, errors) {
        let (w, v) = (&mut inputs.warnings, &mut inputs.version_errors);
        validate::service(&mut at.check(errors, w, v), &svc);
        inputs.services.push(svc);
    }
}

/// A ReplicationController (its selector spreads pods).
fn read_replication_controller(
    at: &ObjectAt,
    value: Tree,
    inputs: &mut Inputs,
    errors: &mut Vec<Diagnostic>,
) {
    inputs
        .replication_controllers
        .extend(at.typed(&value, errors));
}

/// A ReplicaSet (its selector spreads pods).
fn read_replica_set(at: &ObjectAt, value: Tree, inputs: &mut Inputs, errors: &mut Vec<Diagnostic>) {
    inputs.replica_sets.extend(at.typed(&value, errors));
}

/// A StatefulSet (its selector spreads pods).
fn read_stateful_set(
    at: &ObjectAt,
    value: Tree,
    inputs: &mut Inputs,
    errors: &mut Vec<Diagnostic>,
) {
    inputs.stateful_sets.extend(at.typed(&value, errors));
}

/// A PodDisruptionBudget, validated (preemption counts its violations).
fn read_pod_disruption_budget(
    at: &ObjectAt,
    value: Tree,
    inputs: &mut Inputs,
    errors: &mut Vec<Diagnostic>,
) {
    if let Some(b) = at.typed::<PodDisruptionBudget>(&value, errors) {
        let facts = at.facts(&value, errors);
        let (w, v) = (&mut inputs.warnings, &mut inputs.version_errors);
        validate::pod_disruption_budget(&mut at.check(errors, w, v), &b, &facts);
        inputs.pod_disruption_budgets.push(b);
    }
}

/// A PriorityClass, validated.
fn read_priority_class(
    at: &ObjectAt,
    value: Tree,
    inputs: &mut Inputs,
    errors: &mut Vec<Diagnostic>,
) {
    if let Some(c) = at.typed::<PriorityClass>(&value, errors) {
        let (w, v) = (&mut inputs.warnings, &mut inputs.version_errors);
        validate::priority_class(&mut at.check(errors, w, v), &c);
        inputs.priority_classes.push((c, at.origin()));
    }
}

/// A legacy scheduler Policy (validated when the scheduler is built).
fn read_policy(at: &ObjectAt, value: Tree, inputs: &mut Inputs, errors: &mut Vec<Diagnostic>) {
    if let Some(p) = at.typed::<PolicyDocument>(&value, errors) {
        inputs.policies.push((p, at.origin()));
    }
}

/// A PersistentVolume: named and validated.
fn read_persistent_volume(
    at: &ObjectAt,
    value: Tree,
    inputs: &mut Inputs,
    errors: &mut Vec<Diagnostic>,
) {
    if let Some(v) = at.named::<PersistentVolume>(&value, errors, |v| &v.metadata.name) {
        let facts = at.facts(&value, errors);
        let (w, versioned) = (&mut inputs.warnings, &mut inputs.version_errors);
        validate::persistent_volume(&mut at.check(errors, w, versioned), &v, &facts);
        inputs.persistent_volumes.push((v, at.origin()));
    }
}

/// A PersistentVolumeClaim: named and validated.
fn read_persistent_volume_claim(
    at: &ObjectAt,
    value: Tree,
    inputs: &mut Inputs,
    errors: &mut Vec<Diagnostic>,
) {
    if let Some(v) = at.named::<PersistentVolumeClaim>(&value, errors, |v| &v.metadata.name) {
        let (w, versioned) = (&mut inputs.warnings, &mut inputs.version_errors);
        validate::persistent_volume_claim(&mut at.check(errors, w, versioned), &v);
        inputs.persistent_volume_claims.push((v, at.origin()));
    }
}

/// A StorageClass: named and validated.
fn read_storage_class(
    at: &ObjectAt,
    value: Tree,
    inputs: &mut Inputs,
    errors: &mut Vec<Diagnostic>,
) {
    if let Some(v) = at.named::<StorageClass>(&value, errors, |v| &v.metadata.name) {
        let facts = at.facts(&value, errors);
        let (w, versioned) = (&mut inputs.warnings, &mut inputs.version_errors);
        validate::storage_class(&mut at.check(errors, w, versioned), &v, &facts);
        inputs.storage_classes.push((v, at.origin()));
    }
}

/// A CSINode: named (its drivers' volume limits count per node).
fn read_csi_node(at: &ObjectAt, value: Tree, inputs: &mut Inputs, errors: &mut Vec<Diagnostic>) {
    if let Some(v) = at.named::<CsiNode>(&value, errors, |v| &v.metadata.name) {
        inputs.csi_nodes.push((v, at.origin()));
    }
}

/// A DeviceClass: named and validated.
fn read_device_class(
    at: &ObjectAt,
    value: Tree,
    inputs: &mut Inputs,
    errors: &mut Vec<Diagnostic>,
) {
    if let Some(c) =
        at.named::<crate::model::dra::DeviceClass>(&value, errors, |c| &c.metadata.name)
    {
        let (w, v) = (&mut inputs.warnings, &mut inputs.version_errors);
        validate::dra::device_class(&mut at.check(errors, w, v), &c);
        inputs.device_classes.push((c, at.origin()));
    }
}

/// A ResourceSlice: named and validated.
fn read_resource_slice(
    at: &ObjectAt,
    value: Tree,
    inputs: &mut Inputs,
    errors: &mut Vec<Diagnostic>,
) {
    if let Some(s) =
        at.named::<crate::model::dra::ResourceSlice>(&value, errors, |s| &s.metadata.name)
    {
        let (w, v) = (&mut inputs.warnings, &mut inputs.version_errors);
        validate::dra::resource_slice(&mut at.check(errors, w, v), &s);
        inputs.resource_slices.push((s, at.origin()));
    }
}

/// A ResourceClaim: named, defaulted and validated.
fn read_resource_claim(
    at: &ObjectAt,
    value: Tree,
    inputs: &mut Inputs,
    errors: &mut Vec<Diagnostic>,
) {
    if let Some(mut c) =
        at.named::<crate::model::dra::ResourceClaim>(&value, errors, |c| &c.metadata.name)
    {
        crate::model::dra::apply_request_defaults(&mut c.spec);
        let (w, v) = (&mut inputs.warnings, &mut inputs.version_errors);
        validate::dra::claim_spec(&mut at.check(errors, w, v), "spec", &c.spec, &c.metadata);
        inputs.resource_claims.push((c, at.origin()));
    }
}

/// A ResourceClaimTemplate: named, defaulted and validated.
fn read_resource_claim_template(
    at: &ObjectAt,
    value: Tree,
    inputs: &mut Inputs,
    errors: &mut Vec<Diagnostic>,
) {
    if let Some(mut t) =
        at.named::<crate::model::dra::ResourceClaimTemplate>(&value, errors, |t| &t.metadata.name)
    {
        crate::model::dra::apply_request_defaults(&mut t.spec.spec);
        let (w, v) = (&mut inputs.warnings, &mut inputs.version_errors);
        validate::dra::claim_spec(
            &mut at.check(errors, w, v),
            "spec.spec",
            &t.spec.spec,
            &t.metadata,
        );
        inputs.resource_claim_templates.push((t, at.origin()));
    }
}

/// A schedlab Timeline (changes over virtual time).
fn read_timeline(at: &ObjectAt, value: Tree, inputs: &mut Inputs, errors: &mut Vec<Diagnostic>) {
    let (w, v) = (&mut inputs.warnings, &mut inputs.version_errors);
    match timeline::read(at.file, at.path, &value.into_value(), w, v) {
        Ok(t) => inputs.timelines.push((t, at.origin())),
        Err(e) => errors.extend(e),
    }
}

/// An ExtenderMock: the table that answers for the extender with its `urlPrefix`.
fn read_extender_mock(
    at: &ObjectAt,
    value: Tree,
    inputs: &mut Inputs,
    errors: &mut Vec<Diagnostic>,
) {
    match crate::sched::extender::mock::Mock::read(&value.into_value()) {
        Ok(m) => inputs.extender_mocks.push((m, at.origin())),
        Err((path, message)) => {
            errors.push(Diagnostic::new(at.file, join(at.path, &path), message))
        }
    }
}

/// A PluginProgram: the playground's Plugins editor in an exported scenario (JavaScript that
/// registers custom plugins). Only a JavaScript engine runs it: here it is checked for its
/// `program` text and skipped with a warning that says how to bring the plugins instead.
fn read_plugin_program(
    at: &ObjectAt,
    value: Tree,
    inputs: &mut Inputs,
    errors: &mut Vec<Diagnostic>,
) {
    let value = value.into_value();
    if !value.get("program").is_some_and(Value::is_string) {
        errors.push(Diagnostic::new(
            at.file,
            join(at.path, "program"),
            "a PluginProgram needs its JavaScript as the string `program`",
        ));
        return;
    }
    inputs.warnings.push(Diagnostic::new(
        at.file,
        at.path,
        "a PluginProgram (JavaScript plugins) runs only in the playground; it is skipped here: bring the plugins as kube-scheduler-wasm-extension guests instead (`schedlab run --plugin NAME=FILE`, or the JS API's `plugins` option)",
    ));
}

/// An ExtenderRecording: `calls`, each a URL, the request body and what came back.
fn read_extender_recording(
    at: &ObjectAt,
    value: Tree,
    inputs: &mut Inputs,
    errors: &mut Vec<Diagnostic>,
) {
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    struct Document {
        #[allow(dead_code)]
        api_version: String,
        #[allow(dead_code)]
        kind: String,
        #[allow(dead_code)]
        #[serde(default)]
        metadata: Option<Value>,
        #[serde(default)]
        calls: Vec<crate::sched::extender::recording::RecordedCall>,
    }
    match serde_path_to_error::deserialize::<_, Document>(value.into_value()) {
        Ok(d) => inputs.extender_recordings.push((d.calls, at.origin())),
        Err(e) => {
            let path = e.path().to_string();
            let path = if path == "." { String::new() } else { path };
            errors.push(Diagnostic::new(
                at.file,
                join(at.path, &path),
                crate::model::words::with_field_hint(e.into_inner().to_string()),
            ));
        }
    }
}

/// A KubeSchedulerConfiguration: `v1` is kept as read for v1.35, `v1alpha1` read and
/// validated for v1.17, any other version is an error as upstream's scheme words it.
fn read_scheduler_configuration(
    at: &ObjectAt,
    value: Tree,
    inputs: &mut Inputs,
    errors: &mut Vec<Diagnostic>,
) {
    let api = at.api_version;
    if api == crate::v135::config::V1 {
        inputs
            .modern_configs
            .push((value.into_value(), at.origin()));
    } else if api != crate::v117::policy::config::V1ALPHA1 {
        errors.push(Diagnostic::new(
            at.file,
            join(at.path, "apiVersion"),
            format!(
                "no kind \"KubeSchedulerConfiguration\" is registered for version {api:?} in scheme \"{SCHEME}\" \
                 (schedlab reads {} for kube-scheduler v1.35 and {} for v1.17)",
                crate::v135::config::V1,
                crate::v117::policy::config::V1ALPHA1
            ),
        ));
    } else {
        match crate::v117::policy::config::read(api, value.into_value()) {
            Ok((c, warnings)) => {
                for w in warnings {
                    inputs
                        .warnings
                        .push(Diagnostic::new(at.file, join(at.path, &w.0), w.1));
                }
                inputs.configs.push((c, at.origin()));
            }
            Err((p, msg)) => errors.push(Diagnostic::new(at.file, join(at.path, &p), msg)),
        }
    }
}

/// A Deployment: skipped by a scenario with a warning; its pod template (or the errors reading
/// it) is kept for `schedlab capacity`.
fn read_deployment(at: &ObjectAt, value: Tree, inputs: &mut Inputs, _errors: &mut Vec<Diagnostic>) {
    let mut template_errors = Vec::new();
    let template = deployment_template(at.file, at.path, &value, &mut template_errors);
    let template = match template {
        Some(p) if template_errors.is_empty() => Ok(p),
        _ => Err(template_errors),
    };
    inputs.deployments.push((template, at.origin()));
    let why = "skipped Deployment: the scheduler does not use this kind";
    inputs.warnings.push(Diagnostic::new(at.file, at.path, why));
}

/// A Deployment's `spec.template` as a pod named and namespaced as the Deployment.
fn deployment_template(
    file: &str,
    path: &str,
    value: &Tree,
    errors: &mut Vec<Diagnostic>,
) -> Option<Pod> {
    let Some(template) = value.get("spec").and_then(|s| s.get("template")) else {
        errors.push(Diagnostic::new(
            file,
            join(path, "spec.template"),
            "required: a Deployment needs a pod template",
        ));
        return None;
    };
    let template_path = join(path, "spec.template");
    let mut pod: Pod = typed(file, &template_path, template, errors)?;
    let meta = value.get("metadata");
    let text = |key: &str| {
        meta.and_then(|m| m.get(key))
            .and_then(Tree::as_str)
            .unwrap_or("")
            .to_string()
    };
    pod.metadata.name = text("name");
    if pod.metadata.namespace.is_empty() {
        pod.metadata.namespace = text("namespace");
    }
    if pod.metadata.name.is_empty() {
        errors.push(Diagnostic::new(
            file,
            join(path, "metadata.name"),
            "required: every object needs a name",
        ));
        return None;
    }
    let facts = typed(file, &template_path, template, errors).unwrap_or_default();
    let mut warnings = Vec::new();
    validate::pod(
        &mut validate::Check::new(file, &template_path, errors, &mut warnings),
        &pod,
        &facts,
    );
    Some(pod)
}

#[cfg(test)]
mod tests;
