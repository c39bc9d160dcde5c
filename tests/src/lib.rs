//! Shared helpers for the end-to-end tests (see `tests/*.rs`): loading files and scenario
//! folders, running them, and checking a report against a hand-written `expect.json`.
//!
//! # `expect.json`
//!
//! Only facts worked out by hand from the reference documents go in an expectation file:
//!
//! ```json
//! {
//!   "seed": 1,
//!   "pods": {"default/a": "n1", "default/b": null, "default/c": {"in": ["n1", "n2"]}},
//!   "neverQueued": ["default/x"],
//!   "cycles": [
//!     {"pod": "default/a", "outcome": "Scheduled", "node": "n1",
//!      "evaluated": {"count": 3, "in": ["n1", "n2", "n3"]},
//!      "filter": {"n2": {"CheckNodeUnschedulable": [], "GeneralPredicates": ["Insufficient cpu"]}},
//!      "scores": {"n1": {"LeastRequestedPriority": {"raw": 81, "score": 81, "weight": 1}}},
//!      "totals": {"n1": 1000368, "n3": 1000337}},
//!     {"pod": "default/b", "outcome": "Unschedulable", "message": "0/3 nodes are available: ..."}
//!   ],
//!   "events": [ ... exact list ... ]
//! }
//! ```
//!
//! * `pods`: a node name (bound there), `null` (Pending), a node set (below), or
//!   `{"phase": "Deleted"}`; a `{"phase": ...}` object may also list `nominatedNode` (a node
//!   name or `null`), compared exactly with the report's, e.g.
//!   `{"phase": "Pending", "nominatedNode": "n2"}`.
//! * `events`: the exact list; each entry is compared on the keys it lists (so `time` may be
//!   left out). `end`: the report's `{"time", "reason"}`, exactly.
//! * `cycles` must match the report's cycles one for one, in order. Inside a cycle every key is
//!   optional except `pod` and `outcome`; `time` is the virtual time in seconds. `message` is compared exactly (also when `null`).
//! * A node set is `{"in": [names]}`, `{"between": [[first, last], ...]}` (inclusive ranges of
//!   node names in byte order), or both (union).
//! * `evaluated`: the set of nodes in the cycle's `filter` table (`count` exact, `in`/`between`:
//!   every evaluated node is in the set, `order`: the exact evaluation order, as the report keeps
//!   the table's keys in insertion order).
//! * `filter`: for each listed node, its whole predicate → reasons map, exactly.
//! * `scores`: for each listed node and priority, the listed fields of `raw`/`score`/`weight`.
//! * `totals`: the whole totals map, exactly.
//! * `preemption`: `null` (the report's must be null), or an object whose listed keys (`node`,
//!   `victims`, `decidedBy`, `candidates`, ...) are each compared exactly with the report's
//!   `preemption` object; keys left out are not checked. `candidatesInAnyOrder` is compared
//!   with the report's `candidates` as a set (both sorted by `node` first), for runs where the
//!   dry run's random offset (v1.35, modern.md §4.16) orders the candidates.

use schedlab_core::scenario::SchedulerVersion;
use schedlab_core::{Diagnostic, Scenario, Source};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The `tests/` directory (this crate).
pub fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `tests/scenarios`.
pub fn scenarios_dir() -> PathBuf {
    crate_dir().join("scenarios")
}

/// `shared/realworld`, beside the clone.
pub fn realworld_dir() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/realworld"
    ))
}

/// A file's name and text.
#[derive(Clone, Debug)]
pub struct File {
    /// The name shown in messages (the file name, without directories).
    pub name: String,
    /// The content.
    pub text: String,
}

/// Reads one file.
pub fn read_file(path: &Path) -> File {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    File {
        name: path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        text,
    }
}

/// Every input file of a scenario folder, sorted by name (`expect.json` and `README*` left out).
pub fn scenario_files(dir: &Path) -> Vec<File> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.is_file())
        .filter(|p| {
            let n = p.file_name().unwrap_or_default().to_string_lossy();
            !n.starts_with("expect") && !n.starts_with("README")
        })
        .collect();
    paths.sort();
    paths.iter().map(|p| read_file(p)).collect()
}

/// Loads files into a scenario.
pub fn load(files: &[File]) -> Result<Scenario, Vec<Diagnostic>> {
    load_with(files, None)
}

/// Loads files into a scenario for the scheduler asked for (`--scheduler`).
pub fn load_with(
    files: &[File],
    scheduler: Option<SchedulerVersion>,
) -> Result<Scenario, Vec<Diagnostic>> {
    let sources: Vec<Source> = files
        .iter()
        .map(|f| Source {
            name: &f.name,
            text: &f.text,
        })
        .collect();
    Scenario::load_with(&sources, scheduler)
}

/// Loads files that must load; panics with every diagnostic otherwise.
pub fn load_ok(files: &[File]) -> Scenario {
    load_ok_with(files, None)
}

/// [`load_ok`] for the scheduler asked for.
pub fn load_ok_with(files: &[File], scheduler: Option<SchedulerVersion>) -> Scenario {
    load_with(files, scheduler).unwrap_or_else(|errs| {
        panic!(
            "expected the files to load, got:\n{}",
            errs.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")
        )
    })
}

/// The contract's JSON report of a run (with details).
pub fn report(s: &Scenario, seed: u64) -> Value {
    schedlab_core::report::json_report(&s.run(seed, true), true)
}

/// The same report without details (`--summary`).
pub fn summary(s: &Scenario, seed: u64) -> Value {
    schedlab_core::report::json_report(&s.run(seed, false), false)
}

/// Whether a node name is in a node set (`{"in": [...], "between": [[a, b], ...]}`).
pub fn in_node_set(set: &Value, name: &str) -> bool {
    let listed = set
        .get("in")
        .and_then(Value::as_array)
        .is_some_and(|a| a.iter().any(|v| v.as_str() == Some(name)));
    let ranged = set
        .get("between")
        .and_then(Value::as_array)
        .is_some_and(|ranges| {
            ranges.iter().any(|r| {
                let lo = r.get(0).and_then(Value::as_str).unwrap_or("");
                let hi = r.get(1).and_then(Value::as_str).unwrap_or("");
                lo <= name && name <= hi
            })
        });
    listed || ranged
}

/// Checks a node expectation: a name, `null`, or a node set.
fn check_node(want: &Value, got: &Value, what: &str, out: &mut Vec<String>) {
    match want {
        Value::Object(_) => match got.as_str() {
            Some(name) if in_node_set(want, name) => {}
            _ => out.push(format!("{what}: node {got} is not in {want}")),
        },
        _ => {
            if want != got {
                out.push(format!("{what}: node {got}, expected {want}"));
            }
        }
    }
}

fn pod_entry<'a>(report: &'a Value, name: &str) -> Option<&'a Value> {
    report["pods"]
        .as_array()?
        .iter()
        .find(|p| p["name"].as_str() == Some(name))
}

/// Compares a report with an expectation; returns every mismatch.
pub fn check(report: &Value, expect: &Value) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(pods) = expect.get("pods").and_then(Value::as_object) {
        for (name, want) in pods {
            let Some(entry) = pod_entry(report, name) else {
                out.push(format!("pod {name}: missing from the report"));
                continue;
            };
            if let Some(phase) = want.get("phase") {
                // `{"phase": "Deleted"}` (or Pending/Bound without a node check).
                if &entry["phase"] != phase {
                    out.push(format!(
                        "pod {name}: phase {}, expected {phase}",
                        entry["phase"]
                    ));
                }
                if let Some(nominated) = want.get("nominatedNode") {
                    if &entry["nominatedNode"] != nominated {
                        out.push(format!(
                            "pod {name}: nominatedNode {}, expected {nominated}",
                            entry["nominatedNode"]
                        ));
                    }
                }
                continue;
            }
            check_node(want, &entry["node"], &format!("pod {name}"), &mut out);
            let phase = if want.is_null() { "Pending" } else { "Bound" };
            if entry["phase"] != phase {
                out.push(format!(
                    "pod {name}: phase {}, expected {phase}",
                    entry["phase"]
                ));
            }
        }
    }
    let cycles = report["cycles"].as_array().cloned().unwrap_or_default();
    if let Some(never) = expect.get("neverQueued").and_then(Value::as_array) {
        for name in never {
            if cycles.iter().any(|c| &c["pod"] == name) {
                out.push(format!("pod {name} has a cycle but must never be queued"));
            }
            if let Some(entry) = name.as_str().and_then(|n| pod_entry(report, n)) {
                if entry["phase"] == "Bound" && entry["node"].is_null() {
                    out.push(format!("pod {name}: Bound without a node"));
                }
            }
        }
    }
    if let Some(want_cycles) = expect.get("cycles").and_then(Value::as_array) {
        if want_cycles.len() != cycles.len() {
            out.push(format!(
                "{} cycles, expected {}: {:?}",
                cycles.len(),
                want_cycles.len(),
                cycles
                    .iter()
                    .map(|c| format!("{} {}", c["pod"], c["outcome"]))
                    .collect::<Vec<_>>()
            ));
        }
        for (i, (want, got)) in want_cycles.iter().zip(&cycles).enumerate() {
            check_cycle(i, want, got, &mut out);
        }
    }
    if let Some(events) = expect.get("events").and_then(Value::as_array) {
        // Each expected event lists the keys it checks (`time` may be left out).
        let got = report["events"].as_array().cloned().unwrap_or_default();
        let same = got.len() == events.len()
            && events.iter().zip(&got).all(|(want, got)| {
                want.as_object()
                    .is_some_and(|w| w.iter().all(|(k, v)| got.get(k) == Some(v)))
            });
        if !same {
            out.push(format!(
                "events:\n  got      {}\n  expected {}",
                report["events"],
                Value::Array(events.clone())
            ));
        }
    }
    if let Some(claims) = expect.get("resourceClaims") {
        if claims != &report["resourceClaims"] {
            out.push(format!(
                "resourceClaims: {}, expected {claims}",
                report["resourceClaims"]
            ));
        }
    }
    if let Some(end) = expect.get("end") {
        if end != &report["end"] {
            out.push(format!("end: {}, expected {end}", report["end"]));
        }
    }
    out
}

fn check_cycle(i: usize, want: &Value, got: &Value, out: &mut Vec<String>) {
    let what = format!("cycle {i} ({})", got["pod"]);
    for key in ["pod", "outcome"] {
        if want.get(key) != Some(&got[key]) {
            out.push(format!(
                "{what}: {key} {}, expected {}",
                got[key],
                want.get(key).unwrap_or(&Value::Null)
            ));
        }
    }
    if let Some(node) = want.get("node") {
        check_node(node, &got["node"], &what, out);
    }
    if let Some(t) = want.get("time") {
        if t.as_f64() != got["time"].as_f64() {
            out.push(format!("{what}: time {}, expected {t}", got["time"]));
        }
    }
    if let Some(msg) = want.get("message") {
        if msg != &got["message"] {
            out.push(format!(
                "{what}: message\n  got      {}\n  expected {}",
                got["message"], msg
            ));
        }
    }
    let filter = got["filter"].as_object().cloned().unwrap_or_default();
    if let Some(ev) = want.get("evaluated") {
        if let Some(n) = ev.get("count").and_then(Value::as_u64) {
            if filter.len() as u64 != n {
                out.push(format!(
                    "{what}: {} nodes evaluated, expected {n}",
                    filter.len()
                ));
            }
        }
        if let Some(order) = ev.get("order").and_then(Value::as_array) {
            let got: Vec<&str> = filter.keys().map(String::as_str).collect();
            let want: Vec<&str> = order.iter().filter_map(Value::as_str).collect();
            if got != want {
                out.push(format!(
                    "{what}: nodes evaluated in order {got:?}, expected {want:?}"
                ));
            }
        }
        if ev.get("in").is_some() || ev.get("between").is_some() {
            for name in filter.keys() {
                if !in_node_set(ev, name) {
                    out.push(format!("{what}: node {name} evaluated, not in {ev}"));
                }
            }
        }
    }
    if let Some(f) = want.get("filter").and_then(Value::as_object) {
        for (node, results) in f {
            match filter.get(node) {
                Some(r) if r == results => {}
                Some(r) => out.push(format!(
                    "{what}: filter on {node}\n  got      {r}\n  expected {results}"
                )),
                None => out.push(format!("{what}: node {node} was not evaluated")),
            }
        }
    }
    if let Some(s) = want.get("scores").and_then(Value::as_object) {
        for (node, prios) in s {
            let Some(got_node) = got["scores"].get(node) else {
                out.push(format!("{what}: node {node} was not scored"));
                continue;
            };
            for (prio, fields) in prios.as_object().into_iter().flatten() {
                let Some(got_prio) = got_node.get(prio) else {
                    out.push(format!("{what}: {node} has no score for {prio}"));
                    continue;
                };
                for (field, v) in fields.as_object().into_iter().flatten() {
                    if got_prio.get(field) != Some(v) {
                        out.push(format!(
                            "{what}: {node} {prio}.{field} = {}, expected {v}",
                            got_prio.get(field).unwrap_or(&Value::Null)
                        ));
                    }
                }
            }
        }
    }
    if let Some(t) = want.get("totals") {
        if t != &got["totals"] {
            out.push(format!(
                "{what}: totals\n  got      {}\n  expected {t}",
                got["totals"]
            ));
        }
    }
    if let Some(p) = want.get("preemption") {
        check_preemption(&what, p, &got["preemption"], out);
    }
}

/// A cycle's `preemption`: `null` exactly, or each listed key of the expected object exactly.
fn check_preemption(what: &str, want: &Value, got: &Value, out: &mut Vec<String>) {
    match want.as_object() {
        None => {
            if want != got {
                out.push(format!("{what}: preemption {got}, expected {want}"));
            }
        }
        Some(keys) => {
            if !got.is_object() {
                out.push(format!("{what}: preemption {got}, expected {want}"));
                return;
            }
            for (k, v) in keys {
                if k == "candidatesInAnyOrder" {
                    let by_node = |v: &Value| {
                        let mut list = v.as_array().cloned().unwrap_or_default();
                        list.sort_by(|a, b| a["node"].to_string().cmp(&b["node"].to_string()));
                        list
                    };
                    let (want, got) = (by_node(v), by_node(&got["candidates"]));
                    if want != got {
                        out.push(format!(
                            "{what}: preemption.candidates (in any order)\n  got      {}\n  expected {}",
                            Value::Array(got),
                            Value::Array(want)
                        ));
                    }
                    continue;
                }
                if got.get(k) != Some(v) {
                    out.push(format!(
                        "{what}: preemption.{k}\n  got      {}\n  expected {v}",
                        got.get(k).unwrap_or(&Value::Null)
                    ));
                }
            }
        }
    }
}

/// The decisions of a report (pods and each cycle's pod, outcome, node, message), for comparing
/// a detailed run with a summary run.
pub fn decisions(report: &Value) -> Value {
    let cycles: Vec<Value> = report["cycles"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| {
            serde_json::json!({"pod": c["pod"], "outcome": c["outcome"], "node": c["node"],
                "message": c["message"]})
        })
        .collect();
    serde_json::json!({"pods": report["pods"], "cycles": cycles})
}

/// Runs a scenario folder against its `expect.json`, and against `expect.v1.35.json` under
/// kube-scheduler v1.35 when the folder has one: the expectations hold, the same seed gives the
/// same report twice, and the summary run takes the same decisions. An expectation file may
/// name its scheduler (`"scheduler": "v1.35"`); the report must then say it ran.
pub fn run_golden(name: &str) {
    let dir = scenarios_dir().join(name);
    let mut ran = false;
    for file in ["expect.json", "expect.v1.35.json"] {
        let path = dir.join(file);
        if path.exists() {
            run_expectation(name, &dir, file);
            ran = true;
        }
    }
    assert!(ran, "{name}: no expect.json");
}

fn run_expectation(name: &str, dir: &Path, file: &str) {
    let expect: Value = serde_json::from_str(&read_file(&dir.join(file)).text)
        .unwrap_or_else(|e| panic!("{name}/{file}: {e}"));
    let wanted = match file {
        "expect.v1.35.json" => Some(SchedulerVersion::V1_35),
        _ => expect
            .get("scheduler")
            .and_then(Value::as_str)
            .and_then(SchedulerVersion::parse),
    };
    let name = &format!("{name}/{file}");
    let scenario = load_ok_with(&scenario_files(dir), wanted);
    if let Some(v) = wanted {
        assert_eq!(scenario.version(), v, "{name}: ran the wrong scheduler");
    }
    let seed = expect.get("seed").and_then(Value::as_u64).unwrap_or(0);
    let first = report(&scenario, seed);
    let problems = check(&first, &expect);
    assert!(
        problems.is_empty(),
        "{name}:\n{}\n\nreport: {}",
        problems.join("\n"),
        serde_json::to_string_pretty(&first).unwrap_or_default()
    );
    let second = report(&scenario, seed);
    assert_eq!(first, second, "{name}: same seed, different report");
    assert_eq!(
        decisions(&first),
        decisions(&summary(&scenario, seed)),
        "{name}: the summary run decided differently"
    );
}
