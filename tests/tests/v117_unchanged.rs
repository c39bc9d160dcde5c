//! kube-scheduler v1.17 decides exactly as before the v1.35 scheduler was added: every report
//! in `tests/v117-reports/` (made by the build before it) is reproduced byte for byte, apart from
//! the report's new last key `scheduler`.

use schedlab_tests::{crate_dir, load_ok, realworld_dir, scenario_files};
use std::path::PathBuf;

/// The folder a stored report was made from.
fn scenario_dir(name: &str) -> PathBuf {
    let candidates = [
        crate_dir().join("scenarios").join(name),
        crate_dir().join("../assets/scenarios").join(name),
        realworld_dir().join("scenarios").join(name),
    ];
    candidates
        .into_iter()
        .find(|d| d.is_dir())
        .unwrap_or_else(|| panic!("no scenario folder for {name}"))
}

#[test]
fn v1_17_reports_are_byte_identical_to_the_build_before_v1_35() {
    let dir = crate_dir().join("v117-reports");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/v117-reports")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    names.sort();
    assert!(names.len() >= 57, "{} stored reports", names.len());
    let mut differ = Vec::new();
    for path in names {
        let name = path
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        let stored = std::fs::read_to_string(&path).expect("stored report");
        let scenario = load_ok(&scenario_files(&scenario_dir(&name)));
        let run = scenario.run(7, true);
        let mut report = schedlab_core::report::json_report(&run, true);
        let scheduler = report
            .as_object_mut()
            .and_then(|m| m.shift_remove("scheduler"));
        assert_eq!(scheduler, Some(serde_json::json!("v1.17")), "{name}");
        let text = report.to_string();
        if text.as_str() != stored.trim_end() {
            differ.push(name);
        }
    }
    assert!(differ.is_empty(), "v1.17 reports changed: {differ:?}");
}
