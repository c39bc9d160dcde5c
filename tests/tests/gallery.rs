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
