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
