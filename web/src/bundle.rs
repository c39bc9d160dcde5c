//! Scenario files in and out of the editors: the export bundle (every editor in one YAML file),
//! the sorting of imported documents into the editors by kind, and Add, which appends them to
//! what the editors hold ([`add`], [`merge`]). Pure text functions.

use crate::base::EditorFile;
use crate::forms::config::scheduler_of;
use schedlab_core::input::{looks_like_json, read_source, Inputs};
use schedlab_core::scenario::SchedulerVersion;
use schedlab_core::Source;
use serde_json::Value;

/// The line that opens an editor's section in an export.
fn marker(file: EditorFile) -> String {
    format!("# ==== schedlab: {} ====", file.stem())
}

/// One multi-document YAML file holding every editor's text, each under a marker line (a JSON
/// Policy is a valid YAML document as it is). `schedlab run` reads it as it is. Under a v1
/// configuration (kube-scheduler v1.35) the Policy editor is left out, as the page leaves it
/// out of the run: v1.35 reads no Policy, and `schedlab run` refuses the mix.
pub fn export(texts: &[(EditorFile, String)]) -> String {
    let mut out = String::from(
        "# A schedlab scenario, exported from the playground. Import it there, or run it with\n# `schedlab run <this file>`.\n",
    );
    let modern = texts.iter().any(|(file, text)| {
        *file == EditorFile::Config && scheduler_of(text) == SchedulerVersion::V1_35
    });
    let mut first = true;
    for (file, text) in texts {
        if modern && *file == EditorFile::Policy {
            continue;
        }
        // A scenario without devices exports as it did before the Devices editor existed, and
        // one whose extenders are called live (or that has none) as it did before the
        // Extenders editor existed.
        if matches!(
            file,
            EditorFile::Devices | EditorFile::Extenders | EditorFile::Plugins
        ) && text.trim().is_empty()
        {
            continue;
        }
        if !std::mem::take(&mut first) {
            out.push_str("---\n");
        }
        out.push_str(&marker(*file));
        out.push('\n');
        if *file == EditorFile::Plugins {
            out.push_str(&program_document(text));
            continue;
        }
        out.push_str(text.trim_end());
        out.push('\n');
    }
    out
}

/// Kinds schedlab reads (and the list kinds that hold them).
const KNOWN_KINDS: [&str; 25] = [
    "PluginProgram",
    "Node",
    "Pod",
    "PriorityClass",
    "Service",
    "ReplicationController",
    "ReplicaSet",
    "StatefulSet",
    "PodDisruptionBudget",
    "PersistentVolume",
    "PersistentVolumeClaim",
    "StorageClass",
    "CSINode",
    "Timeline",
    "DeviceClass",
    "ResourceSlice",
    "ResourceClaim",
    "ResourceClaimTemplate",
    "ExtenderMock",
    "ExtenderRecording",
    "Policy",
    "KubeSchedulerConfiguration",
    "NodeList",
    "PodList",
    "List",
];

/// What an import found.
#[derive(Debug, Default, PartialEq)]
pub struct Imported {
    /// The new text of each editor that got something (what Import puts there, replacing
    /// the editor's text).
    pub texts: Vec<(EditorFile, String)>,
    /// What each of those editors got, piece by piece: a bundle's section, or a document of
    /// another file (what Add appends to the editor's text).
    pub parts: Vec<(EditorFile, Vec<String>)>,
    /// Documents left out: they hold no kind schedlab reads.
    pub skipped: usize,
}

/// Sorts imported files into editors. An exported bundle goes back section by section; any
/// other file is split into documents, and each document goes to the editor of its kind:
/// `Policy`, `KubeSchedulerConfiguration`, nodes (documents holding only `Node`s, a
/// `NodeList` included), devices (documents holding only DeviceClasses, ResourceSlices,
/// ResourceClaims and ResourceClaimTemplates), extenders (documents holding only ExtenderMocks
/// and ExtenderRecordings), and the other kinds schedlab reads to the pods editor. Documents of
/// no such kind are left out. Documents for one editor make one text as [`merge`] joins them
/// (YAML documents with `---`).
pub fn import(files: &[String]) -> Imported {
    let mut skipped = 0;
    let mut bundle = false;
    let mut parts: Vec<(EditorFile, Vec<String>)> =
        EditorFile::ALL.iter().map(|&f| (f, Vec::new())).collect();
    for text in files {
        if let Some(sections) = sections(text) {
            bundle = true;
            for (file, body) in sections {
                let body = match file {
                    EditorFile::Plugins => program_of(&body).unwrap_or(body),
                    _ => body,
                };
                parts[file.index()].1.push(body);
            }
            continue;
        }
        for doc in documents(text) {
            let known = kinds(&doc)
                .iter()
                .any(|k| k != "List" && KNOWN_KINDS.contains(&k.as_str()));
            if known {
                let file = classify(&doc);
                let doc = match file {
                    EditorFile::Plugins => program_of(&doc).unwrap_or(doc),
                    _ => doc,
                };
                parts[file.index()].1.push(doc);
            } else {
                skipped += 1;
            }
        }
    }
    // A bundle without a devices, an extenders or a plugins section has none (an export leaves
    // an empty one out).
    let no_devices = bundle && parts[EditorFile::Devices.index()].1.is_empty();
    let no_extenders = bundle && parts[EditorFile::Extenders.index()].1.is_empty();
    let no_plugins = bundle && parts[EditorFile::Plugins.index()].1.is_empty();
    parts.retain(|(_, docs)| !docs.is_empty());
    let mut texts: Vec<(EditorFile, String)> = parts
        .iter()
        .map(|(file, docs)| (*file, merge("", docs)))
        .collect();
    if no_devices {
        texts.push((EditorFile::Devices, String::new()));
    }
    if no_extenders {
        texts.push((EditorFile::Extenders, String::new()));
    }
    if no_plugins {
        texts.push((EditorFile::Plugins, String::new()));
    }
    if no_devices || no_extenders || no_plugins {
        texts.sort_by_key(|(f, _)| f.index());
    }
    Imported {
        texts,
        parts,
        skipped,
    }
}

/// What Add puts in the editors, and what it says about it.
#[derive(Debug, Default, PartialEq)]
pub struct Added {
    /// The new text of each editor that got something: its text with the imported documents
    /// after it.
    pub texts: Vec<(EditorFile, String)>,
    /// What each of those editors got, in words (`3 nodes`, `2 pods and 1 PriorityClass`).
    pub added: Vec<(EditorFile, String)>,
    /// The Policy or Config editors that kept their text: the import held another Policy or
    /// configuration, and a scenario has one of each.
    pub kept: Vec<EditorFile>,
}

impl Added {
    /// The notice: `Added 3 nodes to Nodes; 2 pods and 1 PriorityClass to Pods.`, then which
    /// editors kept their Policy or configuration.
    pub fn summary(&self) -> String {
        let mut out = String::new();
        if !self.added.is_empty() {
            let parts: Vec<String> = self
                .added
                .iter()
                .map(|(f, what)| format!("{what} to {}", f.tab_title()))
                .collect();
            out = format!("Added {}.", parts.join("; "));
        }
        let kept = match self.kept.as_slice() {
            [] => None,
            [EditorFile::Policy] => {
                Some("The Policy editor kept its Policy: a scenario has one (Import replaces it).")
            }
            [_] => Some(
                "The Config editor kept its configuration: a scenario has one (Import replaces it).",
            ),
            _ => Some(
                "The Policy and Config editors kept theirs: a scenario has one of each (Import replaces them).",
            ),
        };
        if let Some(kept) = kept {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(kept);
        }
        out
    }
}

/// Add: each editor's text (`current`, by [`EditorFile`]) with what the import found for it
/// after it ([`merge`]). A scenario holds one Policy and one scheduler configuration: an
/// imported one goes into its editor only when that holds none yet (nothing but blanks and
/// comments); else the editor keeps its text (an identical one is no news; another one is
/// reported in [`Added::kept`]).
pub fn add(current: &[(EditorFile, String)], imported: &Imported) -> Added {
    let mut out = Added::default();
    for (file, docs) in &imported.parts {
        let existing = current
            .iter()
            .find(|(f, _)| f == file)
            .map_or("", |(_, t)| t.as_str());
        let single = matches!(file, EditorFile::Policy | EditorFile::Config);
        if single && has_content(existing) {
            if merge("", docs).trim() != existing.trim() {
                out.kept.push(*file);
            }
            continue;
        }
        out.texts.push((*file, merge(existing, docs)));
        out.added.push((*file, describe(docs)));
    }
    out
}

/// `existing` with `additions` after it, as one text the core reads. Each addition is a text
/// of its own: one JSON value, or YAML documents. Texts with nothing in them (blank lines,
/// comments, `---`) add nothing, and a single text is kept as it is. Nothing is lost on the
/// way: JSON has no comments, so it can become YAML, but YAML is never made JSON.
///
/// - When every text is JSON, the result is JSON: one `List` of every object, in order (the
///   items of a list are taken out of it, those of a typed list such as `NodeList` given
///   their kind and apiVersion as the core gives them).
/// - Otherwise it is YAML: the texts one after the other, separated by `---` lines (each a
///   document, or several), the JSON ones written as YAML.
pub fn merge(existing: &str, additions: &[String]) -> String {
    let texts: Vec<&str> = std::iter::once(existing)
        .chain(additions.iter().map(String::as_str))
        .filter(|t| has_content(t))
        .collect();
    let with_newline = |t: &str| {
        let mut t = t.to_string();
        if !t.ends_with('\n') {
            t.push('\n');
        }
        t
    };
    match texts.as_slice() {
        [] => return existing.to_string(),
        [one] => return with_newline(one),
        _ => {}
    }
    let json: Vec<Option<Value>> = texts
        .iter()
        .map(|t| {
            looks_like_json(t)
                .then(|| serde_json::from_str(t).ok())
                .flatten()
        })
        .collect();
    if json.iter().all(Option::is_some) {
        let items: Vec<Value> = json.into_iter().flatten().flat_map(list_items).collect();
        let list = serde_json::json!({"apiVersion": "v1", "kind": "List", "items": items});
        return with_newline(&serde_json::to_string_pretty(&list).unwrap_or_default());
    }
    let mut out = String::new();
    for (i, (text, value)) in texts.iter().zip(json).enumerate() {
        if i > 0 {
            out.push_str("---\n");
        }
        let yaml = value.and_then(|v| serde_yaml_ng::to_string(&v).ok());
        out.push_str(yaml.as_deref().unwrap_or(text).trim_end());
        out.push('\n');
    }
    out
}

/// The objects of a JSON value: the items of a list (`List`, or a typed list such as
/// `NodeList`, whose items without a kind take it and its apiVersion, as the core reads
/// them), else the value itself.
fn list_items(value: Value) -> Vec<Value> {
    let Value::Object(mut map) = value else {
        return vec![value];
    };
    let kind = map.get("kind").and_then(Value::as_str).unwrap_or_default();
    let is_list = kind == "List" || (kind.ends_with("List") && map.contains_key("items"));
    if !is_list || !map.get("items").is_some_and(Value::is_array) {
        return vec![Value::Object(map)];
    }
    let item_kind = kind
        .strip_suffix("List")
        .filter(|k| !k.is_empty())
        .map(str::to_string);
    let api_version = map.get("apiVersion").cloned();
    let Some(Value::Array(items)) = map.remove("items") else {
        return Vec::new();
    };
    items
        .into_iter()
        .map(|mut item| {
            if let (Value::Object(m), Some(k)) = (&mut item, &item_kind) {
                if !m.contains_key("kind") {
                    m.insert("kind".into(), Value::String(k.clone()));
                    if let (false, Some(api)) = (m.contains_key("apiVersion"), &api_version) {
                        m.insert("apiVersion".into(), api.clone());
                    }
                }
            }
            item
        })
        .collect()
}

/// Whether a text holds anything besides blank lines, comments and document markers.
fn has_content(text: &str) -> bool {
    text.lines().any(|l| {
        let l = l.trim();
        !l.is_empty() && !l.starts_with('#') && l != "---" && l != "..."
    })
}

/// What some imported texts hold, in words, as the core reads them: `3 nodes`,
/// `2 pods and 1 PriorityClass`; `1 document` (or `N documents`) when they do not read.
fn describe(texts: &[String]) -> String {
    let mut inputs = Inputs::default();
    for text in texts {
        let name = if looks_like_json(text) {
            "import.json"
        } else {
            "import.yaml"
        };
        match read_source(&Source { name, text }) {
            Ok(read) => inputs.append(read),
            Err(_) => return count(texts.len(), "document", "documents"),
        }
    }
    let counts = [
        (inputs.nodes.len(), "node", "nodes"),
        (inputs.pods.len(), "pod", "pods"),
        (
            inputs.priority_classes.len(),
            "PriorityClass",
            "PriorityClasses",
        ),
        (inputs.services.len(), "Service", "Services"),
        (
            inputs.replication_controllers.len(),
            "ReplicationController",
            "ReplicationControllers",
        ),
        (inputs.replica_sets.len(), "ReplicaSet", "ReplicaSets"),
        (inputs.stateful_sets.len(), "StatefulSet", "StatefulSets"),
        (
            inputs.pod_disruption_budgets.len(),
            "PodDisruptionBudget",
            "PodDisruptionBudgets",
        ),
        (
            inputs.persistent_volumes.len(),
            "PersistentVolume",
            "PersistentVolumes",
        ),
        (
            inputs.persistent_volume_claims.len(),
            "PersistentVolumeClaim",
            "PersistentVolumeClaims",
        ),
        (
            inputs.storage_classes.len(),
            "StorageClass",
            "StorageClasses",
        ),
        (inputs.csi_nodes.len(), "CSINode", "CSINodes"),
        (inputs.timelines.len(), "Timeline", "Timelines"),
        (inputs.device_classes.len(), "DeviceClass", "DeviceClasses"),
        (
            inputs.resource_slices.len(),
            "ResourceSlice",
            "ResourceSlices",
        ),
        (
            inputs.resource_claims.len(),
            "ResourceClaim",
            "ResourceClaims",
        ),
        (
            inputs.resource_claim_templates.len(),
            "ResourceClaimTemplate",
            "ResourceClaimTemplates",
        ),
        (inputs.extender_mocks.len(), "ExtenderMock", "ExtenderMocks"),
        (
            inputs.extender_recordings.len(),
            "ExtenderRecording",
            "ExtenderRecordings",
        ),
        (inputs.policies.len(), "Policy", "Policies"),
        (
            inputs.configs.len() + inputs.modern_configs.len(),
            "KubeSchedulerConfiguration",
            "KubeSchedulerConfigurations",
        ),
    ];
    let parts: Vec<String> = counts
        .iter()
        .filter(|(n, _, _)| *n > 0)
        .map(|&(n, one, many)| count(n, one, many))
        .collect();
    match parts.as_slice() {
        [] => count(texts.len(), "document", "documents"),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// `1 node`, `3 nodes`.
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The sections of an exported bundle, or `None` when the text has no marker.
fn sections(text: &str) -> Option<Vec<(EditorFile, String)>> {
    let mut out: Vec<(EditorFile, String)> = Vec::new();
    for line in text.lines() {
        let marked = EditorFile::ALL
            .iter()
            .find(|&&f| line.trim_end() == marker(f));
        match (marked, out.last_mut()) {
            (Some(&f), _) => out.push((f, String::new())),
            (None, Some((_, body))) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, None) => {}
        }
    }
    if out.is_empty() {
        return None;
    }
    for (_, body) in &mut out {
        // Drop the separator that ends each section but the last.
        let trimmed = body.trim_end();
        if let Some(rest) = trimmed.strip_suffix("---") {
            if rest.is_empty() || rest.ends_with('\n') {
                *body = format!("{}\n", rest.trim_end());
            }
        }
    }
    Some(out)
}

/// The documents of a file: a JSON file is one; YAML splits at `---` lines. Documents with no
/// content (only comments or blank lines) are dropped.
fn documents(text: &str) -> Vec<String> {
    if text.trim_start().starts_with(['{', '[']) {
        return vec![text.to_string()];
    }
    let mut docs = vec![String::new()];
    for line in text.lines() {
        if line == "---" || line.starts_with("--- ") {
            docs.push(String::new());
            continue;
        }
        let doc = docs.last_mut().expect("never empty");
        doc.push_str(line);
        doc.push('\n');
    }
    docs.into_iter()
        .filter(|d| {
            d.lines()
                .any(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        })
        .collect()
}

/// The `kind`s a document names (YAML `kind: X` lines or JSON `"kind": "X"`).
fn kinds(doc: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in doc.lines() {
        let l = line.trim_start().trim_start_matches("- ");
        let value = if let Some(rest) = l.strip_prefix("kind:") {
            Some(rest)
        } else {
            l.find("\"kind\"")
                .map(|i| &l[i + 6..])
                .and_then(|r| r.trim_start().strip_prefix(':'))
        };
        if let Some(v) = value {
            let v: String = v
                .trim()
                .trim_matches(|c| c == '"' || c == '\'' || c == ',')
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            if !v.is_empty() {
                out.push(v);
            }
        }
    }
    out
}

/// The editor a document belongs in.
fn classify(doc: &str) -> EditorFile {
    let kinds = kinds(doc);
    let has = |k: &str| kinds.iter().any(|x| x == k);
    if has("PluginProgram") {
        EditorFile::Plugins
    } else if has("Policy") {
        EditorFile::Policy
    } else if has("KubeSchedulerConfiguration") {
        EditorFile::Config
    } else if (has("Node") || has("NodeList"))
        && kinds
            .iter()
            .all(|k| k == "Node" || k == "NodeList" || k == "List")
    {
        EditorFile::Nodes
    } else if kinds.iter().any(|k| DRA_KINDS.contains(&k.as_str()))
        && kinds
            .iter()
            .all(|k| DRA_KINDS.contains(&k.as_str()) || k.ends_with("List"))
    {
        EditorFile::Devices
    } else if kinds.iter().any(|k| EXTENDER_KINDS.contains(&k.as_str()))
        && kinds
            .iter()
            .all(|k| EXTENDER_KINDS.contains(&k.as_str()) || k == "List")
    {
        EditorFile::Extenders
    } else {
        EditorFile::Pods
    }
}

/// Dynamic Resource Allocation's kinds: the Devices editor's.
const DRA_KINDS: [&str; 4] = [
    "DeviceClass",
    "ResourceSlice",
    "ResourceClaim",
    "ResourceClaimTemplate",
];

/// The Plugins editor's program as a YAML document: a `PluginProgram` whose `program` is the
/// text in a block scalar (two spaces of indentation, stated, so a first line that starts with
/// spaces reads back as written). `schedlab run` skips it with a warning.
fn program_document(program: &str) -> String {
    let mut out = String::from(
        "# JavaScript plugins (the Plugins editor): the playground and the JS API run them;\n\
         # `schedlab run` skips them (it runs kube-scheduler-wasm-extension guests, --plugin).\n\
         apiVersion: schedlab.dev/v1alpha1\nkind: PluginProgram\nmetadata:\n  name: plugins.js\nprogram: |2\n",
    );
    for line in program.trim_end().lines() {
        if !line.is_empty() {
            out.push_str("  ");
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// The program of a `PluginProgram` document written by [`program_document`]; `None` when the
/// document has no such block.
fn program_of(doc: &str) -> Option<String> {
    let mut lines = doc.lines();
    lines.find(|l| l.starts_with("program: |"))?;
    let mut out = String::new();
    for line in lines {
        if !line.is_empty() && !line.starts_with("  ") {
            break;
        }
        out.push_str(line.strip_prefix("  ").unwrap_or(line));
        out.push('\n');
    }
    Some(format!("{}\n", out.trim_end()))
}

/// schedlab's answers for the scheduler's extenders: the Extenders editor's kinds.
const EXTENDER_KINDS: [&str; 2] = ["ExtenderMock", "ExtenderRecording"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plugins_program_exports_as_a_document_and_comes_back_as_written() {
        // A first line indented, a blank line, a line that looks like a YAML separator.
        let program = "  // indented\nregister(\"A\", {score() { return 1; }});\n\n---\n";
        let exported = export(&[
            (
                EditorFile::Nodes,
                "kind: Node\nmetadata: {name: a}\n".into(),
            ),
            (EditorFile::Plugins, program.into()),
        ]);
        assert!(exported.contains(
            "kind: PluginProgram\nmetadata:\n  name: plugins.js\nprogram: |2\n    // indented\n  register(\"A\", {score() { return 1; }});\n\n  ---\n"
        ));
        let imported = import(&[exported]);
        assert_eq!(
            imported.texts,
            vec![
                (
                    EditorFile::Nodes,
                    "kind: Node\nmetadata: {name: a}\n".to_string()
                ),
                (EditorFile::Devices, String::new()),
                (EditorFile::Extenders, String::new()),
                (EditorFile::Plugins, program.to_string()),
            ]
        );
        // The document alone, imported as a file of its own, goes to the Plugins editor too.
        let alone = program_document(program);
        let imported = import(&[alone]);
        assert_eq!(
            imported.texts,
            vec![(EditorFile::Plugins, program.to_string())]
        );
    }

    #[test]
    fn an_export_comes_back_into_the_same_editors() {
        let texts = vec![
            (
                EditorFile::Nodes,
                "kind: Node\nmetadata:\n  name: a\n---\nkind: Node\nmetadata:\n  name: b\n"
                    .to_string(),
            ),
            (
                EditorFile::Pods,
                "kind: Pod\nmetadata:\n  name: p\n".to_string(),
            ),
            // Left out of the bundle when empty, and empty again on the way back.
            (EditorFile::Devices, String::new()),
            (
                EditorFile::Policy,
                "{\n  \"kind\": \"Policy\",\n  \"apiVersion\": \"v1\"\n}\n".to_string(),
            ),
            (
                EditorFile::Config,
                "kind: KubeSchedulerConfiguration\n".to_string(),
            ),
            (
                EditorFile::Extenders,
                "apiVersion: schedlab.dev/v1alpha1\nkind: ExtenderMock\nmetadata:\n  name: m\nurlPrefix: http://x\n".to_string(),
            ),
            // Left out when empty too.
            (EditorFile::Plugins, String::new()),
        ];
        let bundle = export(&texts);
        assert_eq!(import(&[bundle]).texts, texts);
    }

    #[test]
    fn plain_files_are_sorted_by_kind() {
        let nodes =
            "apiVersion: v1\nkind: List\nitems:\n  - kind: Node\n    metadata:\n      name: a\n";
        let mixed = "# pods\nkind: Pod\nmetadata:\n  name: p\n---\nkind: PriorityClass\nvalue: 5\n---\n# only a comment\n";
        let policy = "{\"kind\": \"Policy\", \"apiVersion\": \"v1\"}";
        let imported = import(&[nodes.into(), mixed.into(), policy.into()]);
        assert_eq!(imported.skipped, 0);
        let sorted = imported.texts;
        let files: Vec<EditorFile> = sorted.iter().map(|(f, _)| *f).collect();
        assert_eq!(
            files,
            [EditorFile::Nodes, EditorFile::Pods, EditorFile::Policy]
        );
        assert_eq!(sorted[0].1, nodes);
        // The two pod documents stay together; the comment-only document is dropped.
        assert_eq!(
            sorted[1].1,
            "# pods\nkind: Pod\nmetadata:\n  name: p\n---\nkind: PriorityClass\nvalue: 5\n"
        );
        assert_eq!(sorted[2].1, format!("{policy}\n"));
    }

    #[test]
    fn documents_of_other_kinds_are_left_out() {
        let file = "kind: ConfigMap\nmetadata: {name: x}\n---\nkind: Pod\nmetadata: {name: p}\n";
        let imported = import(&[file.into(), "just some text\n".into()]);
        assert_eq!(imported.skipped, 2);
        assert_eq!(
            imported.texts,
            vec![(
                EditorFile::Pods,
                "kind: Pod\nmetadata: {name: p}\n".to_string()
            )]
        );
    }

    #[test]
    fn extender_mocks_and_recordings_go_to_the_extenders_editor() {
        let mock = "apiVersion: schedlab.dev/v1alpha1\nkind: ExtenderMock\nmetadata: {name: m}\nurlPrefix: http://x\n";
        assert_eq!(classify(mock), EditorFile::Extenders);
        let recording = "apiVersion: schedlab.dev/v1alpha1\nkind: ExtenderRecording\nmetadata: {name: r}\ncalls: []\n";
        assert_eq!(classify(recording), EditorFile::Extenders);
        let imported = import(&[format!("{mock}---\n{recording}")]);
        assert_eq!(imported.texts.len(), 1);
        assert_eq!(imported.texts[0].0, EditorFile::Extenders);
        // An empty Extenders editor is left out of an export, and a bundle without it imports
        // with no extenders' answers (nor devices: the bundle had no devices section either).
        let exported = export(&[
            (
                EditorFile::Nodes,
                "kind: Node\nmetadata: {name: a}\n".to_string(),
            ),
            (EditorFile::Extenders, String::new()),
        ]);
        assert!(!exported.contains("schedlab: extenders"));
        let back = import(&[exported]);
        assert_eq!(
            back.texts.iter().map(|(f, _)| *f).collect::<Vec<_>>(),
            [
                EditorFile::Nodes,
                EditorFile::Devices,
                EditorFile::Extenders,
                EditorFile::Plugins
            ]
        );
        assert_eq!(back.texts[1].1, "");
        assert_eq!(back.texts[2].1, "");
        assert_eq!(back.texts[3].1, "");
        let with = export(&[(EditorFile::Extenders, mock.to_string())]);
        assert!(with.contains("# ==== schedlab: extenders ===="));
        assert_eq!(
            import(&[with]).texts,
            [
                (EditorFile::Devices, String::new()),
                (EditorFile::Extenders, mock.trim_end().to_string() + "\n"),
                (EditorFile::Plugins, String::new())
            ]
        );
    }

    #[test]
    fn a_list_of_nodes_and_pods_goes_to_the_pods_editor() {
        let doc = "kind: List\nitems:\n- kind: Node\n- kind: Pod\n";
        assert_eq!(classify(doc), EditorFile::Pods);
        // A typed list's items need no kind of their own.
        assert_eq!(
            classify("kind: NodeList\nitems:\n- metadata: {name: a}\n"),
            EditorFile::Nodes
        );
        assert_eq!(
            classify("\"kind\": \"KubeSchedulerConfiguration\""),
            EditorFile::Config
        );
    }

    /// What the page exports, `schedlab run` reads as the page does: for every gallery
    /// example, the report of the exported file equals the report of the editors' texts.
    #[test]
    fn every_gallery_export_runs_as_the_page_runs_it() {
        use crate::gallery::GALLERY;
        use schedlab_core::report::json_report;
        use schedlab_core::{Scenario, Source};
        // (An example with JavaScript plugins runs only in a JavaScript engine: the browser
        // tests run it.)
        for example in GALLERY.iter().filter(|e| !e.has_plugins()) {
            let texts: Vec<(EditorFile, String)> = EditorFile::ALL
                .iter()
                .map(|&f| {
                    (
                        f,
                        example
                            .texts()
                            .expect("natively every example is compiled in")
                            .text(f)
                            .to_string(),
                    )
                })
                .collect();
            let page = crate::engine::host::load(
                &texts.iter().map(|(_, t)| t.clone()).collect::<Vec<_>>(),
            )
            .unwrap_or_else(|e| panic!("{}: {e:?}", example.name));
            let bundle = export(&texts);
            let exported = Scenario::load(&[Source {
                name: "bundle.yaml",
                text: &bundle,
            }])
            .unwrap_or_else(|e| panic!("{}: the export does not load: {e:?}", example.name));
            assert_eq!(
                json_report(&exported.run(0, true), true),
                json_report(&page.run(0, true), true),
                "{}",
                example.name
            );
        }
    }
    /// The names of the nodes and pods the editors' texts load to, in order.
    fn loaded(texts: &[(EditorFile, String)]) -> (Vec<String>, Vec<String>) {
        let texts: Vec<String> = EditorFile::ALL
            .iter()
            .map(|f| {
                texts
                    .iter()
                    .find(|(g, _)| g == f)
                    .map_or_else(String::new, |(_, t)| t.clone())
            })
            .collect();
        let scenario = crate::engine::host::load(&texts).unwrap_or_else(|e| panic!("{e:?}"));
        let c = &scenario.cluster;
        (
            c.nodes().iter().map(|n| n.name().to_string()).collect(),
            c.pods().iter().map(|p| p.full_name.clone()).collect(),
        )
    }

    #[test]
    fn yaml_is_appended_after_a_document_separator() {
        let existing = "# two nodes\nkind: Node\nmetadata: {name: a}\n\n";
        let added = merge(
            existing,
            &[
                "kind: Node\nmetadata: {name: b}\n".into(),
                "# nothing\n".into(),
            ],
        );
        assert_eq!(
            added,
            "# two nodes\nkind: Node\nmetadata: {name: a}\n---\nkind: Node\nmetadata: {name: b}\n"
        );
        // Nothing to add, or nothing there yet: the text as it is.
        assert_eq!(merge(existing, &[]), existing);
        assert_eq!(merge("# empty\n", &["kind: Pod\n".into()]), "kind: Pod\n");
        assert_eq!(
            merge("", &["{\"kind\": \"Pod\"}".into()]),
            "{\"kind\": \"Pod\"}\n"
        );
    }

    #[test]
    fn json_added_to_yaml_is_written_as_yaml() {
        let existing = "kind: Node\nmetadata: {name: a}\n";
        let added = merge(
            existing,
            &["{\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": \"b\"}, \"status\": {\"allocatable\": {\"cpu\": \"4\", \"pods\": 110}}}".into()],
        );
        assert_eq!(
            added,
            "kind: Node\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Node\nmetadata:\n  name: b\nstatus:\n  allocatable:\n    cpu: '4'\n    pods: 110\n"
        );
    }

    #[test]
    fn yaml_added_to_json_makes_the_editor_yaml() {
        // YAML may carry comments and anchors, so it is never made JSON: the JSON is.
        let existing = "{\n  \"kind\": \"Node\",\n  \"metadata\": {\"name\": \"a\"}\n}\n";
        let added = merge(existing, &["# b\nkind: Node\nmetadata: {name: b}\n".into()]);
        assert_eq!(
            added,
            "kind: Node\nmetadata:\n  name: a\n---\n# b\nkind: Node\nmetadata: {name: b}\n"
        );
    }

    #[test]
    fn json_added_to_json_makes_one_list() {
        // A typed list's items take its kind and apiVersion, as the core reads them.
        let existing = "{\"apiVersion\": \"v1\", \"kind\": \"NodeList\", \"items\": [{\"metadata\": {\"name\": \"a\"}}]}";
        let added = merge(
            existing,
            &[
                "{\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": \"b\"}}"
                    .into(),
            ],
        );
        assert_eq!(
            added,
            r#"{
  "apiVersion": "v1",
  "kind": "List",
  "items": [
    {
      "metadata": {
        "name": "a"
      },
      "kind": "Node",
      "apiVersion": "v1"
    },
    {
      "apiVersion": "v1",
      "kind": "Node",
      "metadata": {
        "name": "b"
      }
    }
  ]
}
"#
        );
    }

    /// Every combination of formats loads, with the old objects first, then the new.
    #[test]
    fn merged_texts_load_with_every_object_in_order() {
        let node = |name: &str| {
            format!("apiVersion: v1\nkind: Node\nmetadata: {{name: {name}, labels: {{kubernetes.io/hostname: {name}}}}}\nstatus: {{allocatable: {{cpu: \"2\", memory: 2Gi, pods: \"10\"}}}}\n")
        };
        let node_json = |name: &str| {
            format!("{{\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {{\"name\": \"{name}\"}}, \"status\": {{\"allocatable\": {{\"cpu\": \"2\", \"memory\": \"2Gi\", \"pods\": \"10\"}}}}}}")
        };
        let list_json = format!(
            "{{\"apiVersion\": \"v1\", \"kind\": \"NodeList\", \"items\": [{}]}}",
            node_json("a").replace("\"apiVersion\": \"v1\", \"kind\": \"Node\", ", "")
        );
        let cases: Vec<(String, Vec<String>)> = vec![
            (node("a"), vec![node("b"), node("c")]),
            (node("a"), vec![node_json("b"), node("c")]),
            (node_json("a"), vec![node("b"), node_json("c")]),
            (list_json.clone(), vec![node_json("b"), node_json("c")]),
            (list_json, vec![format!("{}---\n{}", node("b"), node("c"))]),
        ];
        for (existing, additions) in cases {
            let text = merge(&existing, &additions);
            let (nodes, _) = loaded(&[(EditorFile::Nodes, text.clone())]);
            assert_eq!(nodes, ["a", "b", "c"], "{text}");
        }
    }

    #[test]
    fn two_json_files_for_one_editor_import_as_one_list() {
        let pod = |name: &str| {
            format!("{{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {{\"name\": \"{name}\"}}, \"spec\": {{\"containers\": [{{\"name\": \"c\"}}]}}}}")
        };
        let imported = import(&[pod("p"), pod("q")]);
        assert_eq!(imported.texts.len(), 1);
        assert!(imported.texts[0].1.contains("\"kind\": \"List\""));
        let (_, pods) = loaded(&imported.texts);
        assert_eq!(pods, ["default/p", "default/q"]);
    }

    #[test]
    fn add_appends_and_keeps_the_one_policy() {
        let current = vec![
            (
                EditorFile::Nodes,
                "kind: Node\nmetadata: {name: a}\n".to_string(),
            ),
            (
                EditorFile::Pods,
                "kind: Pod\nmetadata: {name: p}\n".to_string(),
            ),
            (
                EditorFile::Policy,
                "{\"kind\": \"Policy\", \"apiVersion\": \"v1\"}\n".to_string(),
            ),
            (
                EditorFile::Config,
                "kind: KubeSchedulerConfiguration\n".to_string(),
            ),
        ];
        let file = "kind: NodeList\napiVersion: v1\nitems:\n- metadata: {name: b}\n- metadata: {name: c}\n---\nkind: Pod\nmetadata: {name: q}\nspec: {containers: [{name: c}]}\n---\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 10\n---\nkind: Policy\napiVersion: v1\npredicates: []\n---\nkind: KubeSchedulerConfiguration\n";
        let added = add(&current, &import(&[file.into()]));
        assert_eq!(
            added.texts,
            vec![
                (
                    EditorFile::Nodes,
                    "kind: Node\nmetadata: {name: a}\n---\nkind: NodeList\napiVersion: v1\nitems:\n- metadata: {name: b}\n- metadata: {name: c}\n".to_string()
                ),
                (
                    EditorFile::Pods,
                    "kind: Pod\nmetadata: {name: p}\n---\nkind: Pod\nmetadata: {name: q}\nspec: {containers: [{name: c}]}\n---\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 10\n".to_string()
                ),
            ]
        );
        // The configuration is the same as the editor's: no news. The Policy is another.
        assert_eq!(added.kept, [EditorFile::Policy]);
        assert_eq!(
            added.summary(),
            "Added 2 nodes to Nodes; 1 pod and 1 PriorityClass to Pods. The Policy editor kept its Policy: a scenario has one (Import replaces it)."
        );
        // Another Policy and another configuration: nothing to add.
        let other = add(
            &current,
            &import(&["kind: Policy\napiVersion: v1\npriorities: []\n---\nkind: KubeSchedulerConfiguration\nschedulerName: other\n".into()]),
        );
        assert!(other.texts.is_empty());
        assert_eq!(other.kept, [EditorFile::Policy, EditorFile::Config]);
        assert_eq!(
            other.summary(),
            "The Policy and Config editors kept theirs: a scenario has one of each (Import replaces them)."
        );
        // An empty Policy editor takes the imported Policy.
        let mut empty = current.clone();
        empty[2].1 = "# none yet\n".into();
        let added = add(&empty, &import(&["kind: Policy\napiVersion: v1\n".into()]));
        assert_eq!(
            added.texts,
            [(
                EditorFile::Policy,
                "kind: Policy\napiVersion: v1\n".to_string()
            )]
        );
        assert_eq!(added.summary(), "Added 1 Policy to Policy.");
    }

    /// Add into every gallery example: a YAML file with a node and a JSON file with a pod
    /// load with the example's objects and the new ones after them.
    #[test]
    fn every_gallery_example_takes_more_nodes_and_pods() {
        use crate::gallery::GALLERY;
        let node = "apiVersion: v1\nkind: Node\nmetadata:\n  name: added-node\n  labels: {kubernetes.io/hostname: added-node}\nstatus: {allocatable: {cpu: \"1\", memory: 1Gi, pods: \"10\"}}\n";
        let pod = "{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"added-pod\"}, \"spec\": {\"containers\": [{\"name\": \"c\"}]}}";
        let imported = import(&[node.into(), pod.into()]);
        for example in GALLERY
            .iter()
            .filter(|e| e.name != "big-cluster" && !e.has_plugins())
        {
            let current: Vec<(EditorFile, String)> = EditorFile::ALL
                .iter()
                .map(|&f| {
                    (
                        f,
                        example
                            .texts()
                            .expect("natively every example is compiled in")
                            .text(f)
                            .to_string(),
                    )
                })
                .collect();
            let (nodes, pods) = loaded(&current);
            let added = add(&current, &imported);
            assert_eq!(
                added.summary(),
                "Added 1 node to Nodes; 1 pod to Pods.",
                "{}",
                example.name
            );
            let mut texts = current.clone();
            for (f, t) in added.texts {
                texts[f.index()].1 = t;
            }
            let (more_nodes, more_pods) = loaded(&texts);
            assert_eq!(more_nodes[..nodes.len()], nodes[..], "{}", example.name);
            assert_eq!(
                more_nodes[nodes.len()..],
                ["added-node"],
                "{}",
                example.name
            );
            assert!(
                more_pods.contains(&"default/added-pod".to_string()),
                "{}",
                example.name
            );
            assert_eq!(more_pods.len(), pods.len() + 1, "{}", example.name);
        }
    }
}
