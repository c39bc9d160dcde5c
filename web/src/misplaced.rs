//! Objects typed or pasted into the wrong editor. The core reads every editor alike, so a
//! Policy in the Nodes editor would only meet "more than one Policy given", and pods in the
//! Nodes editor would run silently with "0 nodes". This says where each belongs instead.

use crate::base::EditorFile;
use schedlab_core::input::{Inputs, Origin};
use schedlab_core::Diagnostic;

/// Takes out (as errors) the Policies outside the Policy editor and the scheduler
/// configurations outside the Config editor, and warns about pods in the Nodes editor.
/// `names` are the editors' file names, in [`EditorFile::ALL`] order.
pub fn check(inputs: &mut Inputs, names: &[String], errors: &mut Vec<Diagnostic>) {
    let name = |f: EditorFile| names.get(f.index()).map_or("", String::as_str);
    let at = |o: &Origin, message: String| Diagnostic::new(&o.file, o.path.clone(), message);
    let policy = name(EditorFile::Policy);
    let config = name(EditorFile::Config);
    inputs.policies.retain(|(_, o)| {
        let home = o.file == policy;
        if !home {
            errors.push(at(
                o,
                "this is a Policy: it belongs in the Policy editor, which is where the Policy is read from".into(),
            ));
        }
        home
    });
    let misplaced_config = |o: &Origin| {
        at(
            o,
            "this is a KubeSchedulerConfiguration: it belongs in the Config editor".into(),
        )
    };
    inputs.configs.retain(|(_, o)| {
        let home = o.file == config;
        if !home {
            errors.push(misplaced_config(o));
        }
        home
    });
    inputs.modern_configs.retain(|(_, o)| {
        let home = o.file == config;
        if !home {
            errors.push(misplaced_config(o));
        }
        home
    });
    let nodes = name(EditorFile::Nodes);
    let pods_in_nodes: Vec<&Origin> = inputs
        .pods
        .iter()
        .map(|(_, o)| o)
        .filter(|o| o.file == nodes)
        .collect();
    if let Some(first) = pods_in_nodes.first() {
        let count = pods_in_nodes.len();
        let node_count = inputs.nodes.iter().filter(|(_, o)| o.file == nodes).count();
        let message = format!(
            "{} in the Nodes editor{}: pods belong in the Pods editor (they are scheduled all the same)",
            if count == 1 { "a Pod".to_string() } else { format!("{count} Pods") },
            if node_count == 0 { ", and no Node" } else { "" },
        );
        inputs.warnings.push(at(first, message));
    }
}

#[cfg(test)]
mod tests {
    use crate::base::EditorFile;
    use crate::engine::host::load;
    use crate::gallery::GALLERY;

    /// The classic example's texts with `text` in `editor`.
    fn texts_with(editor: EditorFile, text: &str) -> Vec<String> {
        EditorFile::ALL
            .iter()
            .map(|&f| {
                if f == editor {
                    text.to_string()
                } else {
                    GALLERY[0]
                        .texts()
                        .expect("natively every example is compiled in")
                        .text(f)
                        .to_string()
                }
            })
            .collect()
    }

    #[test]
    fn a_policy_in_the_nodes_editor_is_named_as_such() {
        let texts = texts_with(
            EditorFile::Nodes,
            "{\"kind\": \"Policy\", \"apiVersion\": \"v1\"}",
        );
        let errors = load(&texts).err().expect("refused");
        let shown: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            ["nodes.json: this is a Policy: it belongs in the Policy editor, which is where the Policy is read from"]
        );
    }

    #[test]
    fn a_configuration_in_the_pods_editor_is_named_as_such() {
        let texts = texts_with(
            EditorFile::Pods,
            "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n",
        );
        let errors = load(&texts).err().expect("refused");
        assert!(errors.iter().any(|e| e.to_string()
            == "pods.yaml: this is a KubeSchedulerConfiguration: it belongs in the Config editor"));
    }

    #[test]
    fn pods_in_the_nodes_editor_run_with_a_warning() {
        let pods = "kind: List\napiVersion: v1\nitems:\n- kind: Pod\n  apiVersion: v1\n  metadata: {name: a}\n  spec: {containers: [{name: c}]}\n- kind: Pod\n  apiVersion: v1\n  metadata: {name: b}\n  spec: {containers: [{name: c}]}\n";
        let scenario = load(&texts_with(EditorFile::Nodes, pods)).expect("runs");
        let shown: Vec<String> = scenario.warnings.iter().map(ToString::to_string).collect();
        assert!(
            shown.contains(&"nodes.yaml: items[0]: 2 Pods in the Nodes editor, and no Node: pods belong in the Pods editor (they are scheduled all the same)".to_string()),
            "{shown:?}"
        );
    }
}
