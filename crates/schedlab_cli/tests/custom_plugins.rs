//! `schedlab run --plugin NAME=guest.wasm`: a kube-scheduler-wasm-extension guest enabled by
//! name in a v1 configuration. The guest is NodeNumber in hand-written WAT
//! (`crates/schedlab_guest/guests/node_number.wat`), assembled at test time: its Filter keeps
//! only the node whose name ends in the pod name's last digit.

use std::path::PathBuf;
use std::process::Command;

fn files() -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("schedlab-plugin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let wat = include_str!("../../schedlab_guest/guests/node_number.wat");
    let wasm = dir.join("node_number.wasm");
    std::fs::write(&wasm, wat::parse_str(wat).expect("assembles")).expect("written");
    let scenario = dir.join("scenario.yaml");
    std::fs::write(
        &scenario,
        "apiVersion: v1\nkind: List\nitems:\n\
         - {apiVersion: v1, kind: Node, metadata: {name: node-1}, status: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}}}\n\
         - {apiVersion: v1, kind: Node, metadata: {name: node-2}, status: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}}}\n\
         - {apiVersion: v1, kind: Pod, metadata: {name: web-2}, spec: {containers: [{name: c}]}}\n\
         ---\n\
         apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n\
         - schedulerName: default-scheduler\n  plugins:\n    filter:\n      enabled: [{name: NodeNumber}]\n",
    )
    .expect("written");
    (wasm, scenario)
}

#[test]
fn run_takes_a_wasm_guest_by_name() {
    let (wasm, scenario) = files();
    let plugin = format!("NodeNumber={}", wasm.display());
    let out = Command::new(env!("CARGO_BIN_EXE_schedlab"))
        .args(["run", "--output", "json", "--plugin", &plugin])
        .arg(&scenario)
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    // web-2 ends in 2: node-1 fails NodeNumber's Filter, node-2 passes.
    let c = &report["cycles"][0];
    assert_eq!(c["node"], "node-2");
    assert_eq!(
        c["filter"]["node-1"]["NodeNumber"][0],
        "node number does not match"
    );
    // Without the guest the configuration names a plugin that does not exist.
    let out = Command::new(env!("CARGO_BIN_EXE_schedlab"))
        .arg("run")
        .arg(&scenario)
        .output()
        .expect("runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("\"NodeNumber\" does not exist"));
}

#[test]
fn a_bad_plugin_flag_names_itself() {
    let (_, scenario) = files();
    let out = Command::new(env!("CARGO_BIN_EXE_schedlab"))
        .args(["run", "--plugin", "NodeNumber"])
        .arg(&scenario)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: --plugin \"NodeNumber\": expected NAME=FILE (a .wasm guest)\n"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_schedlab"))
        .args(["run", "--plugin", "NodeResourcesFit=x.wasm"])
        .arg(&scenario)
        .output()
        .expect("runs");
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("a plugin named \"NodeResourcesFit\" already exists"));
}
