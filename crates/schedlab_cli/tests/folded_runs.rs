//! A run whose retries fold (`repeats`, `folded`): `schedlab run` lists a handful of cycles
//! and counts the rest, and `schedlab explain` explains the pod's true last cycle.

use std::process::Command;

/// One pod on two equal nodes, every binding failing: retried for as long as the run goes.
const SCENARIO: &str = "apiVersion: v1\nkind: Node\nmetadata: {name: node-a}\nstatus: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: node-b}\nstatus: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec: {containers: [{name: c, resources: {requests: {cpu: 100m}}}]}\n---\napiVersion: schedlab.dev/v1alpha1\nkind: Timeline\nspec: {bindFailurePercent: 100}\n";

fn schedlab(args: &[&str]) -> String {
    let dir = std::env::temp_dir().join(format!("schedlab-folded-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let file = dir.join("scenario.yaml");
    std::fs::write(&file, SCENARIO).expect("written");
    let out = Command::new(env!("CARGO_BIN_EXE_schedlab"))
        .args(args)
        .arg(&file)
        .output()
        .expect("schedlab runs");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn a_day_of_retries_folds_and_explain_names_the_last_cycles_node() {
    // The default bound of 24 h: v1.17 retries the pod every 90 s (at the first leftover
    // flush, every 30 s, more than 60 s after its failure), so cycles run at 0, 90, ...,
    // 86 400 s (a step at the bound itself still runs): 86 400 / 90 + 1 = 961 cycles.
    let report: serde_json::Value = serde_json::from_str(&schedlab(&[
        "run",
        "--seed",
        "3",
        "--summary",
        "--output",
        "json",
    ]))
    .expect("JSON");
    let cycles = report["cycles"].as_array().expect("cycles");
    let folded = report["folded"].as_u64().expect("folded") as usize;
    assert_eq!(cycles.len() + folded, 961, "{report}");
    assert!(cycles.len() <= 8, "{} cycles listed", cycles.len());
    assert_eq!(report["repeats"][0]["similar"], true);
    let last = cycles.last().expect("a cycle");
    assert_eq!(last["time"], 86_400.0);
    let node = last["node"].as_str().expect("a node");
    // `explain` replays that cycle: the same node, picked among 2 equal ones.
    let text = schedlab(&["explain", "--seed", "3", "--pod", "web"]);
    assert!(
        text.starts_with(&format!("default/web was scheduled to {node}: ")),
        "{text}"
    );
    assert!(
        text.contains(
            "of 2 feasible nodes, tied with 1 other node(s) and picked by the seeded tie-break"
        ),
        "{text}"
    );
}
