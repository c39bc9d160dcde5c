//! Scenario files in and out of the editors: the export bundle (every editor in one YAML file)
//! and the sorting of imported documents into the editors by kind. Pure text functions.

use crate::forms::config::scheduler_of;
use crate::state::EditorFile;
use schedlab_core::scenario::SchedulerVersion;

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
        if !std::mem::take(&mut first) {
            out.push_str("---\n");
        }
        out.push_str(&marker(*file));
        out.push('\n');
        out.push_str(text.trim_end());
        out.push('\n');
    }
    out
}

/// Kinds schedlab reads (and the list kinds that hold them).
const KNOWN_KINDS: [&str; 18] = [
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
    "Policy",
    "KubeSchedulerConfiguration",
    "NodeList",
    "PodList",
    "List",
];

/// What an import found.
#[derive(Debug, Default, PartialEq)]
pub struct Imported {
    /// The new text of each editor that got something.
    pub texts: Vec<(EditorFile, String)>,
    /// Documents left out: they hold no kind schedlab reads.
    pub skipped: usize,
}

/// Sorts imported files into editors. An exported bundle goes back section by section; any
/// other file is split into documents, and each document goes to the editor of its kind:
/// `Policy`, `KubeSchedulerConfiguration`, nodes (documents holding only `Node`s), and the
/// other kinds schedlab reads to the pods editor. Documents of no such kind are left out.
/// Documents for one editor are joined with `---`.
pub fn import(files: &[String]) -> Imported {
    let mut skipped = 0;
    let mut parts: Vec<(EditorFile, Vec<String>)> =
        EditorFile::ALL.iter().map(|&f| (f, Vec::new())).collect();
    for text in files {
        if let Some(sections) = sections(text) {
            for (file, body) in sections {
                parts[file.index()].1.push(body);
            }
            continue;
        }
        for doc in documents(text) {
            let known = kinds(&doc)
                .iter()
                .any(|k| k != "List" && KNOWN_KINDS.contains(&k.as_str()));
            if known {
                parts[classify(&doc).index()].1.push(doc);
            } else {
                skipped += 1;
            }
        }
    }
    let texts = parts
        .into_iter()
        .filter(|(_, docs)| !docs.is_empty())
        .map(|(file, docs)| {
            let mut joined = docs.join("---\n");
            if !joined.ends_with('\n') {
                joined.push('\n');
            }
            (file, joined)
        })
        .collect();
    Imported { texts, skipped }
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
    if has("Policy") {
        EditorFile::Policy
    } else if has("KubeSchedulerConfiguration") {
        EditorFile::Config
    } else if has("Node")
        && kinds
            .iter()
            .all(|k| k == "Node" || k == "NodeList" || k == "List")
    {
        EditorFile::Nodes
    } else {
        EditorFile::Pods
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            (
                EditorFile::Policy,
                "{\n  \"kind\": \"Policy\",\n  \"apiVersion\": \"v1\"\n}\n".to_string(),
            ),
            (
                EditorFile::Config,
                "kind: KubeSchedulerConfiguration\n".to_string(),
            ),
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
    fn a_list_of_nodes_and_pods_goes_to_the_pods_editor() {
        let doc = "kind: List\nitems:\n- kind: Node\n- kind: Pod\n";
        assert_eq!(classify(doc), EditorFile::Pods);
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
        for example in &GALLERY {
            let texts: Vec<(EditorFile, String)> = EditorFile::ALL
                .iter()
                .map(|&f| (f, f.example_text(example).to_string()))
                .collect();
            let page =
                crate::state::load(&texts.iter().map(|(_, t)| t.clone()).collect::<Vec<_>>())
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
}
