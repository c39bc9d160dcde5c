//! The embedders' API in plain Rust ([`Embedded`]), natively: its report is the CLI's for the
//! same scenario, after a whole run and after each step; and the TypeScript types
//! (`schedlab_wasm::types`) describe every report, cycle and queue exactly: each golden
//! scenario's JSON read through them (unknown keys refused) writes back unchanged.
#![cfg(not(target_arch = "wasm32"))]

use schedlab_core::scenario::SchedulerVersion;
use schedlab_core::simulation::Limits;
use schedlab_core::{report, Scenario, Source};
use schedlab_wasm::types::{
    Cycle, Explanation, Queue, Report, ScenarioFile, SchedulerName, SimulatorOptions,
};
use schedlab_wasm::Embedded;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every scenario folder (golden and gallery) with its input files, skipping those over 1 MB
/// (`big-cluster`: `scripts/determinism.mjs` runs it in release).
fn scenarios() -> Vec<(String, Vec<ScenarioFile>)> {
    let mut out = Vec::new();
    for parent in ["tests/scenarios", "assets/scenarios"] {
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(root().join(parent))
            .expect("scenario folder")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        for dir in dirs {
            // A scenario with JavaScript plugins (`plugins.js`) runs only where JavaScript
            // does: the browser tests run it.
            if dir.join("plugins.js").exists() {
                continue;
            }
            let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
                .expect("scenario")
                .map(|e| e.expect("entry").path())
                .filter(|p| {
                    let n = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
                    p.is_file() && !n.starts_with("expect") && !n.starts_with("README")
                })
                .collect();
            names.sort();
            let files: Vec<ScenarioFile> = names
                .iter()
                .map(|p| ScenarioFile {
                    name: p.file_name().unwrap().to_string_lossy().into_owned(),
                    text: std::fs::read_to_string(p).expect("text"),
                })
                .collect();
            if files.iter().map(|f| f.text.len()).sum::<usize>() > 1 << 20 {
                continue;
            }
            out.push((dir.display().to_string(), files));
        }
    }
    out
}

fn scenario(files: &[ScenarioFile], scheduler: Option<SchedulerVersion>) -> Option<Scenario> {
    let sources: Vec<Source> = files
        .iter()
        .map(|f| Source {
            name: &f.name,
            text: &f.text,
        })
        .collect();
    Scenario::load_with(&sources, scheduler).ok()
}

/// `value` read as `T` (no unknown keys) and written back is `value` again.
fn round_trip<T: Serialize + DeserializeOwned>(what: &str, value: &Value) {
    let typed: T = serde_json::from_value(value.clone())
        .unwrap_or_else(|e| panic!("{what}: the declared type does not fit: {e}\n{value:#}"));
    let back = serde_json::to_value(&typed).expect("serialise");
    assert_eq!(
        &back, value,
        "{what}: the declared type loses or changes something"
    );
}

#[test]
fn reports_and_queues_are_the_cli_json_and_fit_the_declared_types() {
    let mut checked = 0;
    for (dir, files) in scenarios() {
        for requested in [None, Some(SchedulerName::V1_35)] {
            let version = requested.map(|_| SchedulerVersion::V1_35);
            let Some(s) = scenario(&files, version) else {
                continue; // e.g. a legacy Policy under v1.35: an input error, tested elsewhere
            };
            for summary in [false, true] {
                let what = format!("{dir} ({requested:?}, summary {summary})");
                let options = SimulatorOptions {
                    seed: Some(7),
                    scheduler: requested,
                    summary: Some(summary),
                    ..SimulatorOptions::default()
                };
                let mut api = Embedded::load(&files, &options).expect("loads");
                // Step by step: after k cycles the history is `--max-cycles k`.
                let mut k = 0;
                while let Some(cycle) = api.step() {
                    k += 1;
                    round_trip::<Cycle>(&what, &cycle);
                    round_trip::<Queue>(&what, &api.queue());
                    if k <= 12 {
                        let limits = Limits {
                            until: None,
                            max_cycles: Some(k),
                        };
                        let cli = report::json_report(&s.run_with(7, !summary, limits), !summary);
                        assert_eq!(
                            api.report().to_string(),
                            cli.to_string(),
                            "{what}: after {k} steps"
                        );
                    }
                }
                let whole = report::json_report(&s.run(7, !summary), !summary);
                assert_eq!(api.report().to_string(), whole.to_string(), "{what}");
                round_trip::<Report>(&what, &api.report());
                round_trip::<Queue>(&what, &api.queue());
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "only {checked} runs checked");
}

#[test]
fn run_goes_to_the_end_and_explains_every_pod() {
    for (dir, files) in scenarios() {
        let mut api = Embedded::load(&files, &SimulatorOptions::default()).expect("loads");
        let stop = api.run(Limits::default());
        assert_eq!(stop.as_str(), "Quiescent", "{dir}");
        assert!(api.finished());
        let report = api.report();
        for pod in report["pods"].as_array().unwrap() {
            let name = pod["name"].as_str().unwrap();
            let e = api.explain(name).expect("a pod of the report");
            let v = serde_json::to_value(&e).unwrap();
            round_trip::<Explanation>(&dir, &v);
            assert_eq!(e.pod, name);
            assert!(e.text.starts_with(&e.summary), "{dir}: {}", e.text);
            if let Some(i) = e.cycle {
                assert_eq!(report["cycles"][i]["pod"], name, "{dir}");
            }
        }
        assert_eq!(
            api.explain("no-such-pod").unwrap_err(),
            "no pod \"no-such-pod\" in the inputs"
        );
    }
}

#[test]
fn limits_stop_where_the_cli_stops() {
    let files = scenarios()
        .into_iter()
        .find(|(d, _)| d.ends_with("backoff-node-added"))
        .expect("gallery scenario")
        .1;
    let s = scenario(&files, None).unwrap();
    let mut api = Embedded::load(&files, &SimulatorOptions::default()).unwrap();
    let options = schedlab_wasm::types::RunOptions {
        until: Some(60.0),
        max_cycles: None,
    };
    let limits = schedlab_wasm::limits(&options);
    assert_eq!(api.run(limits).as_str(), "Until");
    let cli = report::json_report(&s.run_with(0, true, limits), true);
    assert_eq!(api.report(), cli);
    // A pod waiting for its next turn is explained as such, mid-run.
    let e = api.explain("train-0").unwrap();
    assert_eq!(e.cycle, Some(1), "{}", e.text);
}

#[test]
fn input_errors_keep_their_file_path_and_line() {
    let files = vec![ScenarioFile {
        name: "pods.yaml".into(),
        text: "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\nspec:\n  containers:\n    - name: c\n      resources:\n        requests:\n          cpu: 12x\n".into(),
    }];
    let Err(errors) = Embedded::load(&files, &SimulatorOptions::default()) else {
        panic!("an invalid quantity loads");
    };
    let e = schedlab_wasm::input_error(&errors[0]);
    assert_eq!(e.file, "pods.yaml");
    assert_eq!(e.path, "spec.containers[0].resources.requests.cpu");
    assert!(e.message.contains("12x"), "{}", e.message);
    assert_eq!(e.line, Some(10));
}

#[test]
fn a_report_with_repeated_retries_is_described_by_the_types() {
    // A pod that never fits, retried every 90 s until a node joins after 2 h: the copies of
    // its retry after the first 4 are counted in `repeats`. The API's report is the CLI's and
    // reads through the types unchanged.
    let files = vec![ScenarioFile {
        name: "retries.yaml".into(),
        text: "kind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: '1', pods: '10'}}\n---\n\
               kind: Pod\nmetadata: {name: big}\nspec: {containers: [{name: c, resources: {requests: {cpu: '2'}}}]}\n---\n\
               apiVersion: schedlab.dev/v1alpha1\nkind: Timeline\nspec:\n  changes:\n  - at: 2h\n    \
               addNode: {metadata: {name: n2}, status: {allocatable: {cpu: '4', pods: '10'}}}\n"
            .into(),
    }];
    let mut api = Embedded::load(&files, &SimulatorOptions::default()).expect("loads");
    api.run(Limits::default());
    let report = api.report();
    assert_eq!(report["repeats"][0]["every"], 90.0, "{report}");
    assert_eq!(report["repeats"][0]["cycles"], 1);
    let s = scenario(&files, None).expect("a scenario");
    assert_eq!(
        report.to_string(),
        report::json_report(&s.run(0, true), true).to_string()
    );
    round_trip::<Report>("retries", &report);
}

/// Files under the repository root.
fn file_list(paths: &[&str]) -> Vec<ScenarioFile> {
    paths
        .iter()
        .map(|p| ScenarioFile {
            name: p.to_string(),
            text: std::fs::read_to_string(root().join(p)).expect("file"),
        })
        .collect()
}

#[test]
fn compare_sweep_and_capacity_answer_from_javascript_as_the_cli_does() {
    use schedlab_wasm::{Configuration, Question};
    // tests/questions/least-vs-most: LeastAllocated puts `web` on the empty node-a,
    // MostAllocated on the busy node-b (worked out in tests/tests/questions.rs).
    let cluster = file_list(&["tests/questions/least-vs-most/cluster.yaml"]);
    let a = Configuration::Files(file_list(&[
        "tests/questions/least-vs-most/least-allocated.yaml",
    ]));
    let b = Configuration::Files(file_list(&[
        "tests/questions/least-vs-most/most-allocated.yaml",
    ]));
    let c = Question::Compare(a, b)
        .answer(&cluster, 0)
        .expect("answers");
    assert_eq!(c["placedDifferently"][0]["a"]["node"], "node-a", "{c}");
    assert_eq!(c["placedDifferently"][0]["b"]["node"], "node-b");
    // The scenario's own configuration (none here: v1.17's defaults) against v1.35's.
    let c = Question::Compare(
        Configuration::Own,
        Configuration::Defaults(SchedulerVersion::V1_35),
    )
    .answer(&cluster, 0)
    .expect("answers");
    assert_eq!(c["a"]["scheduler"], "v1.17");
    assert_eq!(c["b"]["scheduler"], "v1.35");
    let s = Question::Sweep(
        Configuration::Defaults(SchedulerVersion::V1_35),
        "scoringStrategy".into(),
        "LeastAllocated,MostAllocated".into(),
    )
    .answer(&cluster, 0)
    .expect("answers");
    assert_eq!(s["points"][0]["summary"]["emptyNodes"], 0);
    assert_eq!(s["points"][1]["summary"]["emptyNodes"], 1);
    let bad = Question::Sweep(Configuration::Own, "weight".into(), "1".into())
        .answer(&cluster, 0)
        .expect_err("no such setting");
    assert!(bad[0].message.contains("weight.NAME"), "{bad:?}");
    // 1 CPU / 2Gi copies: 6 slots, `web` takes one first (see tests/tests/questions.rs).
    let pod = ScenarioFile {
        name: "pod.yaml".into(),
        text: "apiVersion: v1\nkind: Pod\nmetadata: {name: extra}\nspec:\n  containers:\n  - name: c\n    image: i\n    resources: {requests: {cpu: '1', memory: 2Gi}}\n".into(),
    };
    let k = Question::Capacity(vec![pod])
        .answer(&cluster, 0)
        .expect("answers");
    assert_eq!(k["templates"][0]["count"], 5, "{k}");
}

/// A v1.35 scenario whose one extender (at `http://127.0.0.1:8888/basic`: filter,
/// prioritize with weight 2, bind) nothing in the files answers; nodes `n1`, `n2-bad`, `n3`.
fn extender_files(extra: &[ScenarioFile]) -> Vec<ScenarioFile> {
    let mut files = vec![
        ScenarioFile {
            name: "config.yaml".into(),
            text: "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nextenders:\n- urlPrefix: http://127.0.0.1:8888/basic\n  filterVerb: filter\n  prioritizeVerb: prioritize\n  bindVerb: bind\n  weight: 2\n  nodeCacheCapable: true\n".into(),
        },
        ScenarioFile {
            name: "cluster.yaml".into(),
            text: ["n1", "n2-bad", "n3"]
                .iter()
                .map(|n| format!("apiVersion: v1\nkind: Node\nmetadata: {{name: {n}}}\nstatus: {{allocatable: {{cpu: '4', memory: 8Gi, pods: '110'}}}}\n---\n"))
                .collect::<String>()
                + "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, resources: {requests: {cpu: 100m}}}]\n",
        },
    ];
    files.extend_from_slice(extra);
    files
}

/// What `tests/extender/extender.py` answers in its `basic` mode, to a nodeCacheCapable
/// extender (node names in, node names out).
fn basic_reply(call: &schedlab_wasm::types::AwaitedCall) -> schedlab_wasm::types::ExtenderReply {
    let args: Value = serde_json::from_str(&call.body).expect("JSON");
    let names: Vec<String> = args["NodeNames"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|n| n.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    let body = if call.url.ends_with("/filter") {
        let kept: Vec<&String> = names.iter().filter(|n| !n.contains("bad")).collect();
        let failed: serde_json::Map<String, Value> = names
            .iter()
            .filter(|n| n.contains("bad"))
            .map(|n| (n.clone(), Value::String(format!("{n} is bad"))))
            .collect();
        serde_json::json!({"NodeNames": kept, "Nodes": null, "FailedNodes": failed, "Error": ""})
    } else if call.url.ends_with("/prioritize") {
        Value::Array(
            names
                .iter()
                .map(|n| {
                    let score: i64 = n
                        .trim_start_matches(|c: char| !c.is_ascii_digit())
                        .parse()
                        .unwrap_or(0);
                    serde_json::json!({"Host": n, "Score": score})
                })
                .collect(),
        )
    } else {
        serde_json::json!({"Error": ""})
    };
    schedlab_wasm::types::ExtenderReply {
        status: Some(200),
        body: Some(body.to_string()),
        elapsed_ms: Some(1),
        ..Default::default()
    }
}

#[test]
fn a_live_extender_pauses_the_run_until_its_replies_are_added_and_they_replay_as_a_recording() {
    use schedlab_core::simulation::StopReason;
    let options = SimulatorOptions::default();
    let mut live = Embedded::load(&extender_files(&[]), &options).expect("loads");
    let mut urls = Vec::new();
    loop {
        let stop = live.run(Limits::default());
        if stop != StopReason::AwaitingExtender {
            assert_eq!(stop, StopReason::Quiescent);
            break;
        }
        let calls = live.awaited_calls();
        assert!(!calls.is_empty());
        for call in calls {
            assert_eq!(call.timeout_ms, Some(5_000));
            live.add_exchange(&call, &basic_reply(&call))
                .expect("a reply");
            urls.push(call.url.rsplit('/').next().unwrap_or_default().to_string());
        }
    }
    assert_eq!(urls, ["filter", "prioritize", "bind"]);
    let report = live.report();
    // The extenders' entries fit the declared types too.
    round_trip::<Report>("a report with extenders", &report);
    let cycle = &report["cycles"][0];
    assert_eq!(cycle["node"], "n3");
    assert_eq!(
        cycle["filter"]["n2-bad"]["Extender(http://127.0.0.1:8888/basic)"],
        serde_json::json!(["n2-bad is bad"])
    );
    assert_eq!(
        cycle["scores"]["n3"]["Extender(http://127.0.0.1:8888/basic)"],
        serde_json::json!({"raw": 3, "score": 30, "weight": 2})
    );
    // A reply must be one thing.
    let call = schedlab_wasm::types::AwaitedCall {
        url: "http://x/filter".into(),
        body: "{}".into(),
        timeout_ms: None,
    };
    let both = schedlab_wasm::types::ExtenderReply {
        status: Some(200),
        timed_out: Some(true),
        ..Default::default()
    };
    assert!(live.add_exchange(&call, &both).is_err());
    // The recording replays with no server: the same report, byte for byte.
    let recording = live.extender_recording().expect("a recording");
    let text = serde_json::to_string(&recording).expect("JSON");
    let file = ScenarioFile {
        name: "recording.json".into(),
        text,
    };
    let mut replay = Embedded::load(&extender_files(&[file]), &options).expect("loads");
    assert_eq!(replay.run(Limits::default()), StopReason::Quiescent);
    assert_eq!(replay.report().to_string(), report.to_string());
    // Offline, the call is the cycle's error at once.
    let offline = SimulatorOptions {
        offline: Some(true),
        ..SimulatorOptions::default()
    };
    let mut off = Embedded::load(&extender_files(&[]), &offline).expect("loads");
    off.run(Limits::default());
    assert!(off.awaited_calls().is_empty());
    let outcome = &off.report()["cycles"][0];
    assert_eq!(outcome["outcome"], "Error");
    assert!(
        outcome["message"]
            .as_str()
            .is_some_and(|m| m.contains("no recorded reply")),
        "{outcome}"
    );
}
