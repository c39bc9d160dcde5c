//! The playground's gallery scenarios for pod affinity and topology spreading
//! (`assets/scenarios/<name>/`): each is run as `schedlab run` runs it (every file of the folder,
//! the CLI contract's JSON report) and checked against the outcome written by hand in the
//! comment at the top of its `pods.yaml`.

use serde_json::Value;

fn run(name: &str) -> Value {
    let dir = schedlab_tests::crate_dir()
        .join("../assets/scenarios")
        .join(name);
    let s = schedlab_tests::load_ok(&schedlab_tests::scenario_files(&dir));
    // Every outcome below is forced (no tie), so any seed gives it.
    let r = schedlab_tests::report(&s, 0);
    assert_eq!(
        schedlab_tests::decisions(&r),
        schedlab_tests::decisions(&schedlab_tests::report(&s, 7)),
        "{name}: the outcome must not depend on the seed"
    );
    r
}

/// (pod, node or `None` for Pending, message of an unschedulable cycle).
fn check(r: &Value, want: &[(&str, Option<&str>, Option<&str>)]) {
    let cycles = r["cycles"].as_array().expect("cycles");
    assert_eq!(cycles.len(), want.len(), "{r:#}");
    for (c, (pod, node, message)) in cycles.iter().zip(want) {
        assert_eq!(c["pod"], *pod);
        match node {
            Some(n) => {
                assert_eq!(c["outcome"], "Scheduled", "{pod}");
                assert_eq!(c["node"], *n, "{pod}");
            }
            None => {
                assert_eq!(c["outcome"], "Unschedulable", "{pod}");
                assert_eq!(c["message"], message.expect("message"), "{pod}");
            }
        }
    }
}

#[test]
fn anti_affinity_keeps_the_replicas_on_separate_hosts() {
    let r = run("anti-affinity");
    check(
        &r,
        &[
            ("default/web-0", Some("node-1"), None),
            ("default/web-1", Some("node-2"), None),
            ("default/web-2", Some("node-3"), None),
            ("default/web-3", None, Some("0/3 nodes are available: 3 node(s) didn't match pod affinity/anti-affinity, 3 node(s) didn't satisfy existing pods anti-affinity rules.")),
        ],
    );
    assert_eq!(
        r["cycles"][1]["filter"]["node-1"]["MatchInterPodAffinity"],
        serde_json::json!([
            "node(s) didn't match pod affinity/anti-affinity",
            "node(s) didn't satisfy existing pods anti-affinity rules"
        ])
    );
}

#[test]
fn the_web_tier_follows_its_cache() {
    let r = run("follow-the-cache");
    check(
        &r,
        &[
            ("default/web-0", Some("node-b2"), None),
            ("default/web-1", Some("node-b1"), None),
            ("default/web-2", Some("node-b2"), None),
            ("default/orphan", None, Some("0/4 nodes are available: 4 node(s) didn't match pod affinity rules, 4 node(s) didn't match pod affinity/anti-affinity.")),
        ],
    );
    // web-1: LeastRequested 40 / 81, preferred anti-affinity 100 / 0.
    assert_eq!(
        r["cycles"][1]["totals"],
        serde_json::json!({"node-b1": 140, "node-b2": 81})
    );
}

#[test]
fn pods_spread_across_three_zones() {
    let r = run("zone-spread");
    check(
        &r,
        &[
            ("default/api-2", Some("node-c1"), None),
            ("default/api-3", Some("node-b1"), None),
            ("default/api-4", Some("node-c1"), None),
            ("default/api-5", Some("node-b2"), None),
        ],
    );
    for c in r["cycles"].as_array().expect("cycles") {
        assert_eq!(
            c["filter"]["node-a1"]["EvenPodsSpread"],
            serde_json::json!(["node(s) didn't match pod topology spread constraints"])
        );
    }
}

/// A cycle's preemption: the nominated node, its victims and the pickOne criterion that decided
/// (`None`: the cycle nominated nothing, `preemption` is null).
fn check_preemption(r: &Value, cycle: usize, want: Option<(&str, &[&str], &str)>) {
    let got = &r["cycles"][cycle]["preemption"];
    match want {
        None => assert!(got.is_null(), "cycle {cycle}: {got}"),
        Some((node, victims, decided_by)) => {
            assert_eq!(got["node"], node, "cycle {cycle}: {got}");
            assert_eq!(
                got["victims"],
                serde_json::json!(victims),
                "cycle {cycle}: {got}"
            );
            assert_eq!(got["decidedBy"], decided_by, "cycle {cycle}: {got}");
        }
    }
}

/// The `phase` and `nominatedNode` of a pod in the report.
fn pod_state(r: &Value, name: &str) -> (Value, Value) {
    let p = r["pods"]
        .as_array()
        .expect("pods")
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("{name} missing"));
    (p["phase"].clone(), p["nominatedNode"].clone())
}

#[test]
fn a_critical_service_displaces_the_batch_job() {
    // queue-preemption.md C.4/C.5: node-1 needs one victim (batch-0 started earlier and is
    // reprieved), node-2 two (monitoring is as important as payments); pickOne step 3, lowest
    // priority sum (each victim adds priority + 2^31), takes node-1. batch-4 is blocked by the
    // nomination (A.7) and has nothing lower to preempt.
    let r = run("batch-displaced");
    let full = Some("0/2 nodes are available: 2 Insufficient cpu.");
    check(
        &r,
        &[
            ("default/payments", None, full),
            ("default/batch-4", None, full),
            ("default/payments", Some("node-1"), None),
            ("default/batch-4", None, full),
        ],
    );
    check_preemption(
        &r,
        0,
        Some(("node-1", &["default/batch-1"], "lowestPrioritySum")),
    );
    assert_eq!(
        r["cycles"][0]["preemption"]["candidates"],
        serde_json::json!([
            {"node": "node-1", "victims": ["default/batch-1"], "pdbViolations": 0},
            {"node": "node-2", "victims": ["default/batch-2", "default/batch-3"], "pdbViolations": 0}
        ])
    );
    check_preemption(&r, 1, None);
    check_preemption(&r, 3, None);
    let times: Vec<f64> = r["cycles"]
        .as_array()
        .expect("cycles")
        .iter()
        .map(|c| c["time"].as_f64().expect("time"))
        .collect();
    assert_eq!(times, [0.0, 0.0, 30.0, 30.0]);
    assert_eq!(pod_state(&r, "default/batch-1").0, "Deleted");
    assert_eq!(pod_state(&r, "default/batch-0").0, "Bound");
    assert_eq!(pod_state(&r, "default/batch-2").0, "Bound");
    assert_eq!(pod_state(&r, "default/batch-3").0, "Bound");
    assert_eq!(
        pod_state(&r, "default/batch-4"),
        (Value::from("Pending"), Value::Null)
    );
    let preempted: Vec<&Value> = r["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["reason"] == "Preempted")
        .collect();
    assert_eq!(preempted.len(), 1, "{preempted:?}");
    assert_eq!(preempted[0]["object"], "default/batch-1");
    assert_eq!(
        preempted[0]["message"],
        "Preempted by default/payments on node node-1"
    );
}

#[test]
fn a_disruption_budget_steers_preemption_to_the_other_node() {
    // queue-preemption.md C.4 (v1.17: disruptionsAllowed <= 0 makes postgres-0 violating) and
    // C.5 step 1: node-b has no violation. Everything else ties, so without the budget the
    // first node, node-a, would have been chosen.
    let r = run("pdb-steers");
    check(
        &r,
        &[
            (
                "default/checkout",
                None,
                Some("0/2 nodes are available: 2 Insufficient cpu."),
            ),
            ("default/checkout", Some("node-b"), None),
        ],
    );
    check_preemption(
        &r,
        0,
        Some(("node-b", &["default/reports-0"], "fewestPDBViolations")),
    );
    assert_eq!(
        r["cycles"][0]["preemption"]["candidates"],
        serde_json::json!([
            {"node": "node-a", "victims": ["default/postgres-0"], "pdbViolations": 1},
            {"node": "node-b", "victims": ["default/reports-0"], "pdbViolations": 0}
        ])
    );
    assert_eq!(r["cycles"][1]["time"], 30.0);
    assert_eq!(pod_state(&r, "default/reports-0").0, "Deleted");
    assert_eq!(pod_state(&r, "default/postgres-0").0, "Bound");
}

// The three gallery scenarios that run under kube-scheduler v1.35 (their `config.yaml` is a
// `kubescheduler.config.k8s.io/v1` configuration with every default). Outcomes from the
// comments at the top of their `pods.yaml`.

#[test]
fn v135_checks_the_taint_before_the_resources() {
    let r = run("taints-first-v135");
    assert_eq!(r["scheduler"], "v1.35");
    check(
        &r,
        &[
            ("default/db-0", Some("node-a1"), None),
            ("default/web-1", Some("node-b1"), None),
            ("default/web-2", Some("node-b1"), None),
            ("default/ingress-1", Some("node-b3"), None),
            ("default/ingress-2", Some("node-b1"), None),
            ("default/train-gpu", Some("node-b2"), None),
            ("default/cache", Some("node-b1"), None),
            (
                "default/batch-huge",
                None,
                Some(
                    "0/5 nodes are available: 1 node(s) had untolerated taint(s), 1 node(s) were \
                     unschedulable, 3 Insufficient cpu. no new claims to deallocate, preemption: \
                     0/5 nodes are available: 5 Preemption is not helpful for scheduling.",
                ),
            ),
        ],
    );
    assert_eq!(
        r["cycles"][1]["totals"],
        serde_json::json!({"node-a1": 436, "node-b1": 492, "node-b3": 474})
    );
    assert_eq!(
        r["cycles"][7]["filter"]["node-b2"]["TaintToleration"],
        serde_json::json!(["node(s) had untolerated taint(s)"])
    );
}

#[test]
fn v135_spreads_a_service_with_the_system_default_constraints() {
    let r = run("zone-spread-v135");
    assert_eq!(r["scheduler"], "v1.35");
    check(
        &r,
        &[
            ("default/api-2", Some("node-c1"), None),
            ("default/api-3", Some("node-b1"), None),
            ("default/api-4", Some("node-c1"), None),
            ("default/api-5", Some("node-b2"), None),
            ("default/cache-0", Some("node-a2"), None),
            ("default/cache-1", Some("node-c1"), None),
            ("default/cache-2", Some("node-b1"), None),
        ],
    );
    for c in &r["cycles"].as_array().expect("cycles")[..4] {
        assert_eq!(
            c["filter"]["node-a1"]["PodTopologySpread"],
            serde_json::json!(["node(s) didn't match pod topology spread constraints"])
        );
        // DoNotSchedule only: PodTopologySpread does not score.
        assert!(
            c["scores"]["node-b2"].get("PodTopologySpread").is_none(),
            "{c}"
        );
    }
    assert_eq!(
        r["cycles"][0]["totals"],
        serde_json::json!({"node-b1": 486, "node-c1": 492, "node-b2": 482})
    );
    // cache-1 and cache-2: the system defaults (ScheduleAnyway) skip the Filter and score.
    let spread = |cycle: usize, node: &str| {
        r["cycles"][cycle]["scores"][node]["PodTopologySpread"]["score"].clone()
    };
    assert!(r["cycles"][5]["filter"]["node-a1"]
        .get("PodTopologySpread")
        .is_none());
    assert_eq!(spread(5, "node-a2"), 60);
    assert_eq!(spread(5, "node-a1"), 80);
    assert_eq!(spread(5, "node-c1"), 100);
    assert_eq!(spread(6, "node-c1"), 60);
    assert_eq!(r["cycles"][6]["totals"]["node-c1"], 594);
    assert_eq!(r["cycles"][6]["totals"]["node-b1"], 674);
}

#[test]
fn v135_preempts_as_v117_and_says_why_backfill_cannot() {
    let r = run("preemption-v135");
    assert_eq!(r["scheduler"], "v1.35");
    let cannot = Some(
        "0/2 nodes are available: 2 Insufficient cpu. no new claims to deallocate, preemption: \
         0/2 nodes are available: 2 No preemption victims found for incoming pod.",
    );
    check(
        &r,
        &[
            (
                "default/checkout",
                None,
                Some("0/2 nodes are available: 2 Insufficient cpu."),
            ),
            ("default/backfill", None, cannot),
            ("default/checkout", Some("node-b"), None),
            ("default/backfill", None, cannot),
        ],
    );
    check_preemption(
        &r,
        0,
        Some(("node-b", &["default/reports-0"], "fewestPDBViolations")),
    );
    // The nominated node is tried first and passes: one node evaluated, no scoring.
    let filtered = r["cycles"][2]["filter"].as_object().expect("filter");
    assert_eq!(filtered.keys().collect::<Vec<_>>(), ["node-b"]);
    assert_eq!(r["cycles"][2]["totals"], serde_json::json!({}));
    assert_eq!(r["cycles"][2]["time"], 30.0);
    assert_eq!(pod_state(&r, "default/reports-0").0, "Deleted");
    assert_eq!(pod_state(&r, "default/postgres-0").0, "Bound");
    assert_eq!(pod_state(&r, "default/backfill").0, "Pending");
}

/// `gpu-cluster` (issue 37): GPUs through Dynamic Resource Allocation under v1.35. infer-1's
/// prioritized list scores 8 where its first choice (an H100) is free and 7 where only its
/// second (an A100) is (dra.md §2.5: normalised 100 and 87, weight 2); train's matchAttribute
/// rejects mixed-node (an A100 and an H100); train-2 finds no two free GPUs of one model.
#[test]
fn gpu_cluster_allocates_by_model_and_prioritized_list() {
    let r = run("gpu-cluster");
    check(
        &r,
        &[
            ("default/infer-1", Some("h100-node"), None),
            ("default/train", Some("a100-node"), None),
            ("default/infer-2", Some("mixed-node"), None),
            (
                "default/train-2",
                None,
                Some(
                    "0/4 nodes are available: 4 cannot allocate all claims. still not \
                     schedulable, preemption: 0/4 nodes are available: 4 Preemption is not \
                     helpful for scheduling.",
                ),
            ),
        ],
    );
    let dra = |node: &str| &r["cycles"][0]["scores"][node]["DynamicResources"];
    assert_eq!(dra("a100-node")["raw"], 7);
    assert_eq!(dra("a100-node")["score"], 87);
    assert_eq!(dra("mixed-node")["raw"], 8);
    assert_eq!(dra("h100-node")["score"], 100);
    assert_eq!(
        r["cycles"][0]["totals"],
        serde_json::json!({"a100-node": 660, "mixed-node": 686, "h100-node": 693})
    );
    assert_eq!(
        r["cycles"][1]["filter"]["mixed-node"]["DynamicResources"],
        serde_json::json!(["cannot allocate all claims"])
    );
    let claims = r["resourceClaims"].as_array().expect("resourceClaims");
    let devices = |i: usize| {
        claims[i]["devices"]
            .as_array()
            .expect("devices")
            .iter()
            .map(|d| {
                format!(
                    "{}/{}",
                    d["pool"].as_str().unwrap_or(""),
                    d["device"].as_str().unwrap_or("")
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(devices(0), ["h100-node/gpu-0"]);
    assert_eq!(claims[0]["devices"][0]["request"], "gpu/h100");
    assert_eq!(devices(1), ["a100-node/gpu-0", "a100-node/gpu-1"]);
    assert_eq!(devices(2), ["mixed-node/gpu-1"]);
    assert_eq!(claims[3]["allocated"], false);
}
