//! `schedlab run --output json|json-compact` writes the report as it serialises it: the bytes
//! must be those of the report stored by an older build that printed it from a whole value.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn run(args: &[&str]) -> String {
    let classic = repo().join("assets/scenarios/classic");
    let out = Command::new(env!("CARGO_BIN_EXE_schedlab"))
        .args(["run", "--seed", "7"])
        .args(args)
        .args(["nodes.yaml", "pods.yaml", "policy.json"].map(|f| classic.join(f)))
        .output()
        .expect("schedlab runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn the_compact_report_is_the_stored_one_byte_for_byte() {
    // tests/v117-reports/classic.json: `run --output json-compact --seed 7`, from the build before
    // the report gained its last key, `scheduler`.
    let stored = std::fs::read_to_string(repo().join("tests/v117-reports/classic.json"))
        .expect("the stored report");
    let stored = stored.trim_end();
    let expected = format!(
        "{},\"scheduler\":\"v1.17\"}}\n",
        &stored[..stored.len() - 1]
    );
    assert_eq!(run(&["--output", "json-compact"]), expected);
}

#[test]
fn the_indented_report_is_the_same_report_indented_by_two_spaces() {
    let compact: serde_json::Value =
        serde_json::from_str(&run(&["--output", "json-compact"])).expect("compact JSON");
    let indented = run(&["--output", "json"]);
    assert!(indented.starts_with("{\n  \"pods\": [\n    {\n      \"name\": "));
    assert!(indented.ends_with("\n}\n"));
    let parsed: serde_json::Value = serde_json::from_str(&indented).expect("indented JSON");
    assert_eq!(parsed, compact);
}

#[test]
fn the_summary_leaves_out_the_tables() {
    let summary: serde_json::Value =
        serde_json::from_str(&run(&["--summary", "--output", "json"])).expect("JSON");
    let cycles = summary["cycles"].as_array().expect("cycles");
    assert!(!cycles.is_empty());
    for c in cycles {
        assert!(
            c.get("filter").is_none() && c.get("scores").is_none(),
            "{c}"
        );
    }
    let full: serde_json::Value = serde_json::from_str(&run(&["--output", "json"])).expect("JSON");
    assert!(full["cycles"][0].get("filter").is_some());
}

/// Writes 2000 nodes and 5000 pending pods (JSON lists) into a fresh folder; returns the files.
fn big_cluster_files() -> [PathBuf; 2] {
    let dir = std::env::temp_dir().join(format!("schedlab-huge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let nodes: Vec<String> = (0..2000)
        .map(|i| format!(r#"{{"kind":"Node","apiVersion":"v1","metadata":{{"name":"n{i}"}},"status":{{"allocatable":{{"cpu":"4","memory":"8Gi","pods":"110"}}}}}}"#))
        .collect();
    let pods: Vec<String> = (0..5000)
        .map(|i| format!(r#"{{"kind":"Pod","apiVersion":"v1","metadata":{{"name":"p{i}"}},"spec":{{"containers":[{{"name":"c"}}]}}}}"#))
        .collect();
    let files = [dir.join("nodes.json"), dir.join("pods.json")];
    for (file, items) in files.iter().zip([nodes, pods]) {
        let list = format!(r#"{{"kind":"List","items":[{}]}}"#, items.join(","));
        std::fs::write(file, list).expect("written");
    }
    files
}

#[test]
fn a_full_report_of_a_big_run_warns_that_it_is_huge_and_names_summary() {
    // 5000 pending pods × 2000 nodes = 10 000 000: at the warning's threshold.
    let files = big_cluster_files();
    let stderr = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_schedlab"))
            .args(["run", "--max-cycles", "1"])
            .args(args)
            .args(&files)
            .output()
            .expect("schedlab runs");
        assert!(out.status.success());
        String::from_utf8(out.stderr).expect("UTF-8")
    };
    let full = stderr(&["--output", "json-compact"]);
    assert!(
        full.contains("5000 pending pods on 2000 nodes") && full.contains("--summary"),
        "{full}"
    );
    // The summary and the text report keep no tables: nothing to warn of.
    assert_eq!(stderr(&["--summary", "--output", "json"]), "");
    assert_eq!(stderr(&["--output", "text"]), "");
    let _ = std::fs::remove_dir_all(files[0].parent().expect("a folder"));
}

#[test]
fn a_full_report_of_a_small_run_does_not_warn() {
    let classic = repo().join("assets/scenarios/classic");
    let out = Command::new(env!("CARGO_BIN_EXE_schedlab"))
        .args(["run", "--output", "json"])
        .args(["nodes.yaml", "pods.yaml", "policy.json"].map(|f| classic.join(f)))
        .output()
        .expect("schedlab runs");
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}
