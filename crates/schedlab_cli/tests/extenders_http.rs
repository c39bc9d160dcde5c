//! The CLI against a real HTTP extender (`tests/extender/extender.py`, Python's standard
//! library), in both versions: every verb, both `nodeCacheCapable` values, ignorable and not,
//! an HTTP 500, a timeout, lowercase keys, `FailedAndUnresolvableNodes`, record then replay,
//! and `schedlab extender-proxy`.
//!
//! The extender's answers follow the node names (its docstring): a node named `*bad*` fails
//! the filter with `<node> is bad`, `*never*` is unresolvable, and a node's score is the number
//! its name ends with. Every expected value below is worked out from that and from
//! `extenders-plugins.md` §A, by hand.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The extender program, running until dropped.
struct Extender {
    child: Child,
    port: u16,
}

impl Extender {
    fn start() -> Extender {
        let mut child = Command::new("python3")
            .arg(repo().join("tests/extender/extender.py"))
            .args(["--port", "0"])
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 runs tests/extender/extender.py");
        let mut line = String::new();
        let stdout = child.stdout.take().expect("stdout");
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("the port");
        let port = line.trim().parse().expect("a port number");
        Extender { child, port }
    }

    /// The URL prefix of one of the extender's modes.
    fn url(&self, mode: &str) -> String {
        format!("http://127.0.0.1:{}/{mode}", self.port)
    }

    fn get(&self, path: &str) -> Value {
        let body = ureq::get(&format!("http://127.0.0.1:{}{path}", self.port))
            .call()
            .expect("GET")
            .into_body()
            .read_to_string()
            .expect("body");
        serde_json::from_str(&body).expect("JSON")
    }

    /// Every call received: `[{"path", "body"}]`.
    fn log(&self) -> Vec<Value> {
        self.get("/log").as_array().cloned().unwrap_or_default()
    }

    /// The calls received on one path.
    fn calls(&self, mode: &str, verb: &str) -> Vec<Value> {
        let path = format!("/{mode}/{verb}");
        self.log()
            .into_iter()
            .filter(|c| c["path"] == path.as_str())
            .map(|c| c["body"].clone())
            .collect()
    }
}

impl Drop for Extender {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A fresh directory for one test's files.
fn scratch() -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "schedlab-extenders-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Version {
    V117,
    V135,
}

const BOTH: [Version; 2] = [Version::V117, Version::V135];

/// The scheduler configuration with these extenders: a v1.17 Policy with PodFitsResources
/// and no priority (so the totals are the extenders' alone), or the default v1 configuration.
fn config(v: Version, extenders: Value) -> (String, String) {
    match v {
        Version::V117 => (
            "policy.json".into(),
            json!({"kind": "Policy", "apiVersion": "v1",
                   "predicates": [{"name": "PodFitsResources"}], "priorities": [],
                   "extenders": extenders})
            .to_string(),
        ),
        Version::V135 => {
            // v1 spells httpTimeout as a duration and enableHTTPS with capitals.
            let mut extenders = extenders;
            for e in extenders.as_array_mut().into_iter().flatten() {
                if let Some(ns) = e.get("httpTimeout").and_then(Value::as_i64) {
                    e["httpTimeout"] = format!("{}ms", ns / 1_000_000).into();
                }
            }
            (
                "config.json".into(),
                json!({"apiVersion": "kubescheduler.config.k8s.io/v1",
                       "kind": "KubeSchedulerConfiguration", "extenders": extenders})
                .to_string(),
            )
        }
    }
}

/// Nodes of 4 CPUs and 8Gi.
fn nodes(names: &[&str]) -> String {
    let items: Vec<Value> = names
        .iter()
        .map(|n| {
            json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": n},
                   "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}})
        })
        .collect();
    json!({"apiVersion": "v1", "kind": "List", "items": items}).to_string()
}

/// A pending pod asking for 100m.
fn pod(name: &str) -> String {
    json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name},
           "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "100m"}}}]}})
    .to_string()
}

/// What a run printed.
struct Run {
    report: Value,
    stdout: String,
}

/// Runs `schedlab run --output json` on these files (written to a fresh directory).
fn run_in(dir: &Path, files: &[(String, String)], extra: &[&str]) -> Run {
    let mut paths = Vec::new();
    for (name, text) in files {
        let p = dir.join(name);
        std::fs::write(&p, text).expect("write");
        paths.push(p);
    }
    let out = Command::new(env!("CARGO_BIN_EXE_schedlab"))
        .args(["run", "--output", "json"])
        .args(extra)
        .args(&paths)
        .output()
        .expect("schedlab runs");
    let stdout = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(
        out.status.success(),
        "{}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = serde_json::from_str(&stdout).expect("a JSON report");
    Run { report, stdout }
}

fn run(files: &[(String, String)]) -> Value {
    run_in(&scratch(), files, &[]).report
}

/// The scenario: the configuration, the nodes, one pod `p`.
fn scenario(v: Version, extenders: Value, node_names: &[&str]) -> Vec<(String, String)> {
    vec![
        config(v, extenders),
        ("nodes.json".into(), nodes(node_names)),
        ("pod.json".into(), pod("p")),
    ]
}

/// The first cycle of `pod`.
fn cycle<'a>(report: &'a Value, pod: &str) -> &'a Value {
    report["cycles"]
        .as_array()
        .and_then(|c| c.iter().find(|c| c["pod"] == pod))
        .unwrap_or_else(|| panic!("no cycle of {pod}: {report}"))
}

fn sorted(names: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut v: Vec<String> = names.into_iter().collect();
    v.sort();
    v
}

/// The node names a filter or prioritize request carried, and whether it sent names.
fn sent_nodes(body: &Value) -> (Vec<String>, bool) {
    if let Some(names) = body["NodeNames"].as_array() {
        assert!(body["Nodes"].is_null(), "{body}");
        let names = names.iter().filter_map(|n| n.as_str()).map(String::from);
        (sorted(names), true)
    } else {
        assert!(body["NodeNames"].is_null(), "{body}");
        assert_eq!(body["Nodes"]["metadata"], json!({}), "{body}");
        let items = body["Nodes"]["items"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let names = items
            .iter()
            .filter_map(|n| n["metadata"]["name"].as_str())
            .map(String::from);
        (sorted(names), false)
    }
}

fn names(list: &[&str]) -> Vec<String> {
    sorted(list.iter().map(|s| s.to_string()))
}

#[test]
fn every_verb_in_both_versions_by_node_names_and_by_nodes() {
    let ext = Extender::start();
    for v in BOTH {
        for cache in [true, false] {
            ext_reset(&ext);
            let url = ext.url("basic");
            let r = run(&scenario(
                v,
                json!([{"urlPrefix": url, "filterVerb": "filter", "prioritizeVerb": "prioritize",
                        "bindVerb": "bind", "weight": 2, "nodeCacheCapable": cache}]),
                &["n1", "n2-bad", "n3", "never4"],
            ));
            let what = format!("{v:?}, nodeCacheCapable {cache}");
            let c = cycle(&r, "default/p");
            // n2-bad fails, never4 is unresolvable (v1.35) or simply left out (v1.17 does not
            // read FailedAndUnresolvableNodes); n1 scores 1 and n3 3: × weight 2 × 10 = 20 and
            // 60, so n3 wins.
            assert_eq!(c["outcome"], "Scheduled", "{what}: {c}");
            assert_eq!(c["node"], "n3", "{what}");
            let key = format!("Extender({url})");
            let filter = &c["filter"];
            assert_eq!(filter["n1"][&key], json!([]), "{what}");
            assert_eq!(filter["n2-bad"][&key], json!(["n2-bad is bad"]), "{what}");
            assert_eq!(filter["n3"][&key], json!([]), "{what}");
            match v {
                Version::V117 => assert!(filter["never4"].get(&key).is_none(), "{what}"),
                Version::V135 => assert_eq!(
                    filter["never4"][&key],
                    json!(["never4 can never fit"]),
                    "{what}"
                ),
            }
            assert_eq!(
                c["scores"]["n1"][&key],
                json!({"raw": 1, "score": 10, "weight": 2}),
                "{what}"
            );
            assert_eq!(
                c["scores"]["n3"][&key],
                json!({"raw": 3, "score": 30, "weight": 2}),
                "{what}"
            );
            let (t1, t3) = (
                c["totals"]["n1"].as_i64().expect("total"),
                c["totals"]["n3"].as_i64().expect("total"),
            );
            match v {
                // No priority: the totals are the extender's alone.
                Version::V117 => assert_eq!((t1, t3), (20, 60), "{what}"),
                // Equal empty nodes: the plugins give both the same.
                Version::V135 => assert_eq!(t3 - t1, 40, "{what}"),
            }
            // The requests: every node the filters kept, then the extender's survivors.
            let filters = ext.calls("basic", "filter");
            assert_eq!(filters.len(), 1, "{what}");
            assert_eq!(filters[0]["Pod"]["metadata"]["name"], "p", "{what}");
            assert_eq!(
                sent_nodes(&filters[0]),
                (names(&["n1", "n2-bad", "n3", "never4"]), cache),
                "{what}"
            );
            let prioritize = ext.calls("basic", "prioritize");
            assert_eq!(prioritize.len(), 1, "{what}");
            assert_eq!(
                sent_nodes(&prioritize[0]),
                (names(&["n1", "n3"]), cache),
                "{what}"
            );
            // The binder extender binds, not DefaultBinder.
            let binds = ext.calls("basic", "bind");
            assert_eq!(binds.len(), 1, "{what}");
            assert_eq!(binds[0]["PodName"], "p");
            assert_eq!(binds[0]["PodNamespace"], "default");
            assert_eq!(binds[0]["Node"], "n3");
            assert!(binds[0]["PodUID"].as_str().is_some_and(|u| !u.is_empty()));
            assert_eq!(r["pods"][0]["phase"], "Bound", "{what}");
        }
    }
}

fn ext_reset(ext: &Extender) {
    ureq::post(&format!("http://127.0.0.1:{}/reset", ext.port))
        .send("")
        .expect("reset");
}

#[test]
fn lowercase_keys_in_replies_are_read() {
    // Go's decoder matches field names without regard to case.
    let ext = Extender::start();
    for v in BOTH {
        let url = ext.url("lower");
        let r = run(&scenario(
            v,
            json!([{"urlPrefix": url, "filterVerb": "filter", "prioritizeVerb": "prioritize",
                    "weight": 1, "nodeCacheCapable": true}]),
            &["n1", "n2-bad", "n3"],
        ));
        let c = cycle(&r, "default/p");
        let key = format!("Extender({url})");
        assert_eq!(c["node"], "n3", "{v:?}: {c}");
        assert_eq!(c["filter"]["n2-bad"][&key], json!(["n2-bad is bad"]));
        assert_eq!(c["scores"]["n1"][&key]["raw"], 1);
    }
}

#[test]
fn no_node_left_is_a_fit_error_with_the_extenders_messages() {
    let ext = Extender::start();
    for v in BOTH {
        let r = run(&scenario(
            v,
            json!([{"urlPrefix": ext.url("basic"), "filterVerb": "filter"}]),
            &["n1-bad", "n2-bad", "never3"],
        ));
        let c = cycle(&r, "default/p");
        assert_eq!(c["outcome"], "Unschedulable", "{v:?}: {c}");
        let message = c["message"].as_str().expect("message");
        match v {
            // never3 is dropped without a reason: only the two failed nodes are counted.
            Version::V117 => assert_eq!(
                message,
                "0/3 nodes are available: 1 n1-bad is bad, 1 n2-bad is bad."
            ),
            // Preemption may help on the two Unschedulable nodes (but there is no victim),
            // not on the unresolvable one.
            Version::V135 => {
                assert!(
                    message.starts_with(
                        "0/3 nodes are available: 1 n1-bad is bad, 1 n2-bad is bad, 1 never3 can \
                         never fit. "
                    ),
                    "{message}"
                );
                assert!(
                    message.ends_with(
                        "preemption: 0/3 nodes are available: 1 Preemption is not helpful for \
                         scheduling, 2 No preemption victims found for incoming pod."
                    ),
                    "{message}"
                );
            }
        }
    }
}

/// The outcome and message of `p`'s first cycle with one filter extender in `mode`.
fn filter_failure(v: Version, url: &str, ignorable: bool) -> (String, String) {
    let r = run(&scenario(
        v,
        json!([{"urlPrefix": url, "filterVerb": "filter", "ignorable": ignorable,
                "httpTimeout": 1_000_000_000_i64}]),
        &["n1", "n2"],
    ));
    let c = cycle(&r, "default/p");
    (
        c["outcome"].as_str().unwrap_or_default().into(),
        c["message"].as_str().unwrap_or_default().into(),
    )
}

#[test]
fn a_failing_filter_call_is_the_cycles_error_unless_ignorable() {
    let ext = Extender::start();
    for v in BOTH {
        let failed = if v == Version::V117 {
            "Failed"
        } else {
            "failed"
        };
        let cases = [
            (
                ext.url("status500"),
                format!(
                    "{failed} filter with extender at URL {}/filter, code 500",
                    ext.url("status500")
                ),
            ),
            (
                ext.url("slow"),
                format!(
                    "Post \"{}/filter\": context deadline exceeded (Client.Timeout exceeded \
                     while awaiting headers)",
                    ext.url("slow")
                ),
            ),
            (ext.url("error"), "extender says no".into()),
            (
                ext.url("garbage"),
                "invalid character 'o' in literal null (expecting 'u')".into(),
            ),
            (
                "http://127.0.0.1:1".into(),
                "Post \"http://127.0.0.1:1/filter\": dial tcp 127.0.0.1:1: connect: connection \
                 refused"
                    .into(),
            ),
        ];
        for (url, expected) in &cases {
            // Not ignorable: an Error (no FitError, no preemption).
            let (outcome, message) = filter_failure(v, url, false);
            assert_eq!(outcome, "Error", "{v:?} {url}");
            assert!(message.contains(expected.as_str()), "{v:?}: {message}");
            // Ignorable: the extender is skipped and the pod is placed.
            let (outcome, _) = filter_failure(v, url, true);
            assert_eq!(outcome, "Scheduled", "{v:?} {url} ignorable");
        }
    }
}

#[test]
fn prioritize_errors_are_ignored_and_scores_are_not_clamped() {
    let ext = Extender::start();
    for v in BOTH {
        // A failing prioritize call is ignored even when not ignorable.
        let url = ext.url("status500");
        let r = run(&scenario(
            v,
            json!([{"urlPrefix": url, "prioritizeVerb": "prioritize", "weight": 1}]),
            &["n1", "n3"],
        ));
        let c = cycle(&r, "default/p");
        assert_eq!(c["outcome"], "Scheduled", "{v:?}: {c}");
        let key = format!("Extender({url})");
        assert!(c["scores"]["n1"].get(&key).is_none(), "{c}");
        // `huge`: n1 scores i64::MAX (× 1 × 10 wraps to -10 as Go's int64 does), and the
        // unknown node `ghost` is not looked up. n3: 3 × 1 × 10 = 30.
        let url = ext.url("huge");
        let r = run(&scenario(
            v,
            json!([{"urlPrefix": url, "prioritizeVerb": "prioritize", "weight": 1}]),
            &["n1", "n3"],
        ));
        let c = cycle(&r, "default/p");
        let key = format!("Extender({url})");
        assert_eq!(c["node"], "n3", "{v:?}: {c}");
        assert_eq!(
            c["scores"]["n1"][&key],
            json!({"raw": i64::MAX, "score": -10, "weight": 1})
        );
        assert!(c["scores"].get("ghost").is_none(), "{c}");
        let (t1, t3) = (
            c["totals"]["n1"].as_i64().expect("total"),
            c["totals"]["n3"].as_i64().expect("total"),
        );
        match v {
            Version::V117 => assert_eq!((t1, t3), (-10, 30)),
            Version::V135 => assert_eq!(t3 - t1, 40),
        }
    }
}

#[test]
fn preempt_drops_the_candidates_the_extender_refuses() {
    // Two full nodes with one low-priority pod each; the high-priority pod must evict one.
    // Without the extender the candidates tie and the first (n2-bad) would be picked; the
    // extender's preempt verb drops n2-bad, so n1's pod is the victim.
    let ext = Extender::start();
    for v in BOTH {
        for cache in [true, false] {
            ext_reset(&ext);
            let url = ext.url("basic");
            let full = |name: &str| {
                json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": name},
                       "status": {"allocatable": {"cpu": "1", "memory": "8Gi", "pods": "110"}}})
            };
            let low = |name: &str, node: &str| {
                json!({"apiVersion": "v1", "kind": "Pod",
                       "metadata": {"name": name, "uid": format!("uid-{name}")},
                       "spec": {"nodeName": node, "priority": 0, "containers": [{"name": "c",
                                "resources": {"requests": {"cpu": "1"}}}]},
                       "status": {"phase": "Running"}})
            };
            let high = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "high"},
                "spec": {"priority": 1000, "containers": [{"name": "c",
                         "resources": {"requests": {"cpu": "1"}}}]}});
            let objects = json!({"apiVersion": "v1", "kind": "List", "items": [
                full("n2-bad"), full("n1"), low("low-b", "n2-bad"), low("low-1", "n1"), high]});
            let r = run(&[
                config(
                    v,
                    json!([{"urlPrefix": url, "preemptVerb": "preempt",
                            "nodeCacheCapable": cache}]),
                ),
                ("objects.json".into(), objects.to_string()),
            ]);
            let what = format!("{v:?}, nodeCacheCapable {cache}");
            let c = cycle(&r, "default/high");
            assert_eq!(c["outcome"], "Unschedulable", "{what}: {c}");
            let preempt = ext.calls("basic", "preempt");
            assert_eq!(preempt.len(), 1, "{what}");
            let (full_map, meta_map) = (
                &preempt[0]["NodeNameToVictims"],
                &preempt[0]["NodeNameToMetaVictims"],
            );
            let offered = if cache {
                assert!(full_map.is_null(), "{what}");
                meta_map
            } else {
                assert!(meta_map.is_null(), "{what}");
                full_map
            };
            let mut offered_nodes: Vec<&String> =
                offered.as_object().expect("a map").keys().collect();
            offered_nodes.sort();
            assert_eq!(offered_nodes, ["n1", "n2-bad"], "{what}");
            if cache {
                assert_eq!(
                    offered["n1"]["Pods"],
                    json!([{"UID": "uid-low-1"}]),
                    "{what}"
                );
            } else {
                assert_eq!(
                    offered["n1"]["Pods"][0]["metadata"]["name"], "low-1",
                    "{what}"
                );
            }
            let high = r["pods"]
                .as_array()
                .and_then(|p| p.iter().find(|p| p["name"] == "default/high"))
                .expect("high");
            // Nominated to n1, then bound there once low-1 is gone.
            assert_eq!(high["node"], "n1", "{what}: {high}");
            assert!(
                r["events"]
                    .as_array()
                    .expect("events")
                    .iter()
                    .any(|e| e["reason"] == "Preempted" && e["object"] == "default/low-1"),
                "{what}: {}",
                r["events"]
            );
        }
    }
}

#[test]
fn a_recording_replays_byte_for_byte_with_the_server_stopped() {
    let ext = Extender::start();
    let mut recorded = Vec::new();
    for v in BOTH {
        let files = scenario(
            v,
            json!([{"urlPrefix": ext.url("basic"), "filterVerb": "filter",
                    "prioritizeVerb": "prioritize", "bindVerb": "bind", "weight": 1}]),
            &["n1", "n2-bad", "n3"],
        );
        let dir = scratch();
        let path = dir.join("recording.yaml");
        let path = path.to_str().expect("a UTF-8 path");
        let live = run_in(&dir, &files, &["--record-extenders", path]);
        let recording = std::fs::read_to_string(path).expect("recording");
        recorded.push((v, files, live.stdout, recording));
    }
    drop(ext);
    for (v, mut files, live, recording) in recorded {
        files.push(("recording.yaml".into(), recording.clone()));
        let dir = scratch();
        let replay = run_in(&dir, &files, &["--offline"]);
        assert_eq!(replay.stdout, live, "{v:?}");
        // A request the recording does not hold is a clear error, never a silent pass.
        files.push(("other.json".into(), pod("other")));
        let r = run_in(&scratch(), &files, &["--offline"]).report;
        let c = cycle(&r, "default/other");
        assert_eq!(c["outcome"], "Error", "{v:?}: {c}");
        assert!(
            c["message"]
                .as_str()
                .is_some_and(|m| m.contains("no recorded reply")),
            "{c}"
        );
    }
}

#[test]
fn the_nodeinfo_bug_of_v135_and_its_fix() {
    // kubernetes#141781: with nodeCacheCapable false, v1.33-v1.35's Score plugins see the
    // nodes the extender sent back, without their pods. n1 runs a 3-CPU pod, n3 none: with
    // the bug NodeResourcesFit and BalancedAllocation score both as empty (equal totals);
    // with the fix (or nodeCacheCapable true) n3, the emptier node, scores higher.
    let ext = Extender::start();
    let busy = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "busy"},
        "spec": {"nodeName": "n1", "containers": [{"name": "c",
                 "resources": {"requests": {"cpu": "3", "memory": "4Gi"}}}]},
        "status": {"phase": "Running"}});
    for (cache, fix, equal) in [
        (false, false, true),
        (false, true, false),
        (true, false, false),
    ] {
        let mut files = scenario(
            Version::V135,
            json!([{"urlPrefix": ext.url("basic"), "filterVerb": "filter",
                    "nodeCacheCapable": cache}]),
            &["n1", "n3"],
        );
        files.push(("busy.json".into(), busy.to_string()));
        let extra: &[&str] = if fix {
            &["--fidelity", "extender-nodeinfo-fix"]
        } else {
            &[]
        };
        let r = run_in(&scratch(), &files, extra).report;
        let c = cycle(&r, "default/p");
        let (t1, t3) = (
            c["totals"]["n1"].as_i64().expect("total"),
            c["totals"]["n3"].as_i64().expect("total"),
        );
        if equal {
            assert_eq!(t1, t3, "cache {cache} fix {fix}: {c}");
        } else {
            assert!(t3 > t1, "cache {cache} fix {fix}: {c}");
            assert_eq!(c["node"], "n3");
        }
    }
}

#[test]
fn the_proxy_adds_cors_and_forwards_to_the_extender() {
    let ext = Extender::start();
    let mut proxy = Command::new(env!("CARGO_BIN_EXE_schedlab"))
        .args(["extender-proxy", "--to", &ext.url("basic")])
        .args(["--listen", "127.0.0.1:0"])
        .stderr(Stdio::piped())
        .spawn()
        .expect("the proxy runs");
    let mut line = String::new();
    let mut stderr = BufReader::new(proxy.stderr.take().expect("stderr"));
    stderr.read_line(&mut line).expect("the banner");
    let address = line
        .split("http://")
        .nth(1)
        .and_then(|s| s.split('/').next())
        .expect("the address")
        .to_string();
    let body = json!({"Pod": {"metadata": {"name": "p"}}, "Nodes": null,
                      "NodeNames": ["n1", "n2-bad"]})
    .to_string();
    let reply = ureq::post(&format!("http://{address}/filter"))
        .header("Origin", "https://schedlab.example")
        .header("Content-Type", "application/json")
        .send(&body)
        .expect("forwarded");
    assert_eq!(
        reply
            .headers()
            .get("access-control-allow-origin")
            .and_then(|h| h.to_str().ok()),
        Some("https://schedlab.example")
    );
    let mut text = String::new();
    reply
        .into_body()
        .into_reader()
        .read_to_string(&mut text)
        .expect("body");
    let reply: Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(reply["NodeNames"], json!(["n1"]));
    assert_eq!(reply["FailedNodes"], json!({"n2-bad": "n2-bad is bad"}));
    // Only loopback targets are forwarded to.
    let refused = Command::new(env!("CARGO_BIN_EXE_schedlab"))
        .args(["extender-proxy", "--to", "http://example.com:80"])
        .output()
        .expect("runs");
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("only to this machine"));
    let _ = proxy.kill();
    let _ = proxy.wait();
}
