//! Custom plugins: kube-scheduler-wasm-extension guests enabled by name in a v1
//! configuration (`schedlab run --plugin NAME=guest.wasm`). The guest is NodeNumber, written
//! by hand in WAT (`crates/schedlab_guest/guests/node_number.wat`): Score 10 when the node
//! name's last digit is the pod name's, else 0; its Filter rejects the other nodes with
//! "node number does not match". Expected values worked out by hand from that rule.

use schedlab_core::scheduler::v1_35::{wasm_guest_plugin, with_custom_plugins, CustomPlugin};
use schedlab_core::{Scenario, Source};
use serde_json::Value;

fn node_number() -> CustomPlugin {
    let wat = include_str!("../../crates/schedlab_guest/guests/node_number.wat");
    let bytes = wat::parse_str(wat).expect("the WAT guest assembles");
    wasm_guest_plugin("NodeNumber", bytes.into()).expect("the guest loads")
}

const NODES: &str = "apiVersion: v1\nkind: List\nitems:\n\
    - {apiVersion: v1, kind: Node, metadata: {name: node-1}, status: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}}}\n\
    - {apiVersion: v1, kind: Node, metadata: {name: node-2}, status: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}}}\n\
    - {apiVersion: v1, kind: Node, metadata: {name: node-3}, status: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}}}\n";

fn pods(names: &[&str]) -> String {
    let mut out = String::from("apiVersion: v1\nkind: List\nitems:\n");
    for n in names {
        out.push_str(&format!(
            "- {{apiVersion: v1, kind: Pod, metadata: {{name: {n}}}, spec: {{containers: [{{name: c, resources: {{requests: {{cpu: 100m}}}}}}]}}}}\n"
        ));
    }
    out
}

fn run(plugins: &[CustomPlugin], config: &str, pod_names: &[&str]) -> Value {
    let pods = pods(pod_names);
    let sources = [
        Source {
            name: "nodes.yaml",
            text: NODES,
        },
        Source {
            name: "pods.yaml",
            text: &pods,
        },
        Source {
            name: "config.yaml",
            text: config,
        },
    ];
    let scenario = with_custom_plugins(plugins, || Scenario::load(&sources))
        .unwrap_or_else(|e| panic!("loads: {e:?}"));
    schedlab_tests::report(&scenario, 0)
}

/// Only NodeNumber scores (weight 3); every other Score plugin disabled. Its PreScore (which
/// reads the pod's digit) runs only where it is enabled, as upstream's framework calls it.
const SCORE_ONLY: &str = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: default-scheduler\n  plugins:\n    preScore:\n      enabled: [{name: NodeNumber}]\n    score:\n      disabled: [{name: \"*\"}]\n      enabled: [{name: NodeNumber, weight: 3}]\n";

#[test]
fn a_wasm_score_plugin_scores_like_an_in_tree_one() {
    let r = run(&[node_number()], SCORE_ONLY, &["pod-2", "pod-3"]);
    // pod-2: node-2 scores 10 (no NormalizeScore) × weight 3 = 30, the others 0.
    let c = &r["cycles"][0];
    assert_eq!(c["pod"], "default/pod-2");
    assert_eq!(c["node"], "node-2");
    assert_eq!(c["totals"]["node-2"], 30);
    assert_eq!(c["totals"]["node-1"], 0);
    assert_eq!(c["totals"]["node-3"], 0);
    assert_eq!(r["cycles"][1]["node"], "node-3");
    assert_eq!(r["cycles"][1]["totals"]["node-3"], 30);
}

#[test]
fn a_wasm_filter_plugin_rejects_with_its_reason() {
    let config = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: default-scheduler\n  plugins:\n    filter:\n      enabled: [{name: NodeNumber}]\n";
    let r = run(&[node_number()], config, &["pod-1", "pod-7"]);
    // pod-1 fits node-1 only; pod-7 fits none of the three.
    assert_eq!(r["cycles"][0]["node"], "node-1");
    let c = &r["cycles"][1];
    assert_eq!(c["outcome"], "Unschedulable");
    let message = c["message"].as_str().expect("a message");
    assert!(
        message.starts_with("0/3 nodes are available: 3 node number does not match."),
        "{message}"
    );
}

#[test]
fn a_plugin_that_runs_away_is_an_error_naming_it_and_the_run_goes_on() {
    let wat = r#"(module (memory (export "memory") 1)
        (func (export "score") (result i64) (loop $l (br $l)) (i64.const 0)))"#;
    let bytes = wat::parse_str(wat).expect("assembles");
    let spin = wasm_guest_plugin("Spin", bytes.into()).expect("loads");
    // Spin has no PreScore: it is enabled at Score only.
    let config = SCORE_ONLY
        .replace("    preScore:\n      enabled: [{name: NodeNumber}]\n", "")
        .replace("NodeNumber", "Spin");
    let r = run(&[spin], &config, &["a", "b"]);
    for c in r["cycles"].as_array().expect("cycles").iter().take(2) {
        assert_eq!(c["outcome"], "Error", "{c}");
        let message = c["message"].as_str().expect("a message");
        assert!(
            message.contains("Spin") && message.contains("out of fuel"),
            "{message}"
        );
    }
}

#[test]
fn an_unknown_plugin_name_is_still_refused_without_the_guest() {
    let sources = [Source {
        name: "config.yaml",
        text: SCORE_ONLY,
    }];
    let Err(errors) = Scenario::load(&sources) else {
        panic!("NodeNumber is not registered");
    };
    let text = errors
        .iter()
        .map(|e| e.to_string())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(text.contains("\"NodeNumber\" does not exist"), "{text}");
}
