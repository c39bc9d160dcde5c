use super::*;
use crate::testing::{node, pod};
use crate::v135::plugins::testkit::*;
use serde_json::json;

fn fit(args: serde_json::Value) -> Box<dyn Plugin> {
    build(Some(&args)).unwrap_or_else(|e| panic!("{e:?}"))
}

fn errors(args: serde_json::Value) -> Vec<String> {
    crate::v135::plugins::testkit::build_errors(build, args)
}

fn sized(name: &str, alloc: serde_json::Value) -> crate::model::Node {
    node(json!({"metadata": {"name": name}, "status": {"allocatable": alloc}}))
}

fn requesting(requests: serde_json::Value) -> crate::model::Pod {
    pod(json!({"spec": {"containers": [{"name": "c", "resources": {"requests": requests}}]}}))
}

fn fail(code: Code, reasons: &[&str]) -> (Code, Vec<String>) {
    (code, reasons.iter().map(|s| s.to_string()).collect())
}

#[test]
fn sidecar_init_and_overhead_arithmetic_in_the_filter() {
    // containers 100m + 200m = 300m; sidecar s1 50m and s2 100m add 150m → 450m.
    // Init-time uses: s1 → R = 50; i1 → 500 + 50 = 550; s2 → R = 150; i2 → 200 + 150 = 350.
    // initMax = 550 > 450, so 550m; overhead +10m → 560m.
    let p = info(pod(json!({"spec": {
        "containers": [
            {"name": "c1", "resources": {"requests": {"cpu": "100m"}}},
            {"name": "c2", "resources": {"requests": {"cpu": "200m"}}}],
        "initContainers": [
            {"name": "s1", "restartPolicy": "Always", "resources": {"requests": {"cpu": "50m"}}},
            {"name": "i1", "resources": {"requests": {"cpu": "500m"}}},
            {"name": "s2", "restartPolicy": "Always", "resources": {"requests": {"cpu": "100m"}}},
            {"name": "i2", "resources": {"requests": {"cpu": "200m"}}}],
        "overhead": {"cpu": "10m"}}})));
    assert_eq!(p.request.milli_cpu, 560);
    let c = cluster135(
        vec![
            sized("exact", json!({"cpu": "560m", "pods": 10})),
            sized("small", json!({"cpu": "559m", "pods": 10})),
            sized("busy", json!({"cpu": "1", "pods": 10})),
        ],
        vec![(requesting(json!({"cpu": "500m"})), 2)],
    );
    let plugin = build(None).expect("default");
    assert_eq!(
        run_filter(&*plugin, &c, &p),
        [
            ok(),
            // 560 > 559 - 0 and 560 > 559 (allocatable): unresolvable.
            fail(Code::UnschedulableAndUnresolvable, &["Insufficient cpu"]),
            // 560 > 1000 - 500 but 560 ≤ 1000: preemption may help.
            fail(Code::Unschedulable, &["Insufficient cpu"]),
        ]
    );
}

#[test]
fn too_many_pods_and_each_resource_reason() {
    let c = cluster135(
        vec![
            sized("full", json!({"cpu": "1", "memory": "1000", "pods": 1})),
            sized(
                "tiny",
                json!({"cpu": "1", "memory": "100", "ephemeral-storage": "10",
                "example.com/gpu": 1, "pods": 10}),
            ),
            sized(
                "roomy",
                json!({"cpu": "4", "memory": "4000", "ephemeral-storage": "4000",
                "example.com/gpu": 4, "pods": 10}),
            ),
        ],
        vec![(requesting(json!({"cpu": "500m"})), 0)],
    );
    let plugin = build(None).expect("default");
    // A pod requesting nothing still meets `Too many pods` (1 pod + 1 > 1), resolvable.
    let empty = info(requesting(json!({})));
    assert_eq!(
        run_filter(&*plugin, &c, &empty),
        [fail(Code::Unschedulable, &["Too many pods"]), ok(), ok()]
    );
    // cpu 600m: full node 600 > 1000 - 500 (resolvable) after Too many pods.
    // memory 200 > 100, ephemeral 20 > 10, gpu 2 > 1 on the tiny node (all unresolvable).
    let p = info(requesting(json!({"cpu": "600m", "memory": "200",
        "ephemeral-storage": "20", "example.com/gpu": 2})));
    assert_eq!(
        run_filter(&*plugin, &c, &p),
        [
            // memory 200 ≤ 1000; ephemeral 20 > 0 - 0 and gpu 2 > 0: both beyond allocatable.
            fail(
                Code::UnschedulableAndUnresolvable,
                &[
                    "Too many pods",
                    "Insufficient cpu",
                    "Insufficient ephemeral-storage",
                    "Insufficient example.com/gpu"
                ]
            ),
            fail(
                Code::UnschedulableAndUnresolvable,
                &[
                    "Insufficient memory",
                    "Insufficient ephemeral-storage",
                    "Insufficient example.com/gpu"
                ]
            ),
            ok(),
        ]
    );
    // Too many pods plus a resolvable cpu shortage stays Unschedulable.
    let p = info(requesting(json!({"cpu": "600m"})));
    assert_eq!(
        run_filter(&*plugin, &c, &p)[0],
        fail(Code::Unschedulable, &["Too many pods", "Insufficient cpu"])
    );
    // The numbers behind the reason.
    let order = [0usize, 1, 2];
    let cx = Cx {
        cluster: &c,
        pod: &p,
        order: &order,
    };
    let mut reasons = Vec::new();
    plugin.filter(&cx, None, &c.nodes()[0], &mut reasons);
    assert_eq!(
        reasons[1],
        Reason::Insufficient {
            resource: "cpu".into(),
            requested: 600,
            used: 500,
            capacity: 1000
        }
    );
}

#[test]
fn ignored_resources_and_groups() {
    let c = cluster135(vec![sized("n", json!({"cpu": "1", "pods": 10}))], vec![]);
    let p = info(requesting(json!({"example.com/foo": 1, "other.io/bar": 1,
        "kubernetes.io/batteries": 1, "example.com/zero": 0})));
    // Every scalar with a request > 0 fails, in name order; the zero request is skipped.
    assert_eq!(
        run_filter(&*build(None).expect("default"), &c, &p),
        [fail(
            Code::UnschedulableAndUnresolvable,
            &[
                "Insufficient example.com/foo",
                "Insufficient kubernetes.io/batteries",
                "Insufficient other.io/bar"
            ]
        )]
    );
    let by_name = fit(json!({"ignoredResources": ["example.com/foo"]}));
    assert_eq!(
        run_filter(&*by_name, &c, &p),
        [fail(
            Code::UnschedulableAndUnresolvable,
            &[
                "Insufficient kubernetes.io/batteries",
                "Insufficient other.io/bar"
            ]
        )]
    );
    // A group applies to extended resources only: kubernetes.io/ is never ignored.
    let by_group = fit(json!({"ignoredResourceGroups": ["other.io", "kubernetes.io"]}));
    assert_eq!(
        run_filter(&*by_group, &c, &p),
        [fail(
            Code::UnschedulableAndUnresolvable,
            &[
                "Insufficient example.com/foo",
                "Insufficient kubernetes.io/batteries"
            ]
        )]
    );
    let zero_only = info(requesting(json!({"example.com/zero": 0})));
    assert_eq!(run_filter(&*by_group, &c, &zero_only), [ok()]);
}

/// Three nodes and one bound pod for the scoring tests:
/// A: cpu 4000m, memory 10000, with a bound pod of 1000m / 2000;
/// B: cpu 3000m, memory 7000; C: cpu 500m, memory 2000.
fn scoring_cluster() -> crate::cluster::Cluster {
    cluster135(
        vec![
            sized("a", json!({"cpu": "4", "memory": "10000", "pods": 10})),
            sized("b", json!({"cpu": "3", "memory": "7000", "pods": 10})),
            sized("c", json!({"cpu": "500m", "memory": "2000", "pods": 10})),
        ],
        vec![(requesting(json!({"cpu": "1", "memory": "2000"})), 0)],
    )
}

#[test]
fn least_allocated() {
    let c = scoring_cluster();
    let p = info(requesting(json!({"cpu": "1", "memory": "3000"})));
    // A: cpu (4000-2000)*100/4000 = 50, memory (10000-5000)*100/10000 = 50 → 100/2 = 50.
    // B: cpu 200000/3000 = 66, memory 400000/7000 = 57 → 123/2 = 61.
    // C: both requests exceed capacity → 0.
    assert_eq!(
        run_score(&*build(None).expect("default"), &c, &p),
        Some((vec![50, 61, 0], vec![50, 61, 0]))
    );
    // Weights cpu 3, memory 1: B (66*3 + 57)/4 = 255/4 = 63; A (150+50)/4 = 50.
    let w = fit(json!({"scoringStrategy": {"type": "LeastAllocated",
        "resources": [{"name": "cpu", "weight": 3}, {"name": "memory", "weight": 1}]}}));
    assert_eq!(run_score(&*w, &c, &p).map(|s| s.0), Some(vec![50, 63, 0]));
}

#[test]
fn most_allocated() {
    let c = scoring_cluster();
    let p = info(requesting(json!({"cpu": "1", "memory": "3000"})));
    let most = fit(json!({"scoringStrategy": {"type": "MostAllocated"}}));
    // A: 2000*100/4000 = 50, 5000*100/10000 = 50 → 50.
    // B: 1000*100/3000 = 33, 3000*100/7000 = 42 → 75/2 = 37.
    // C: requests capped at capacity: 100 and 100 → 100.
    assert_eq!(
        run_score(&*most, &c, &p).map(|s| s.0),
        Some(vec![50, 37, 100])
    );
}

#[test]
fn zero_capacity_resources_are_left_out() {
    let c = cluster135(
        vec![
            sized("cpu-only", json!({"cpu": "2", "pods": 10})),
            sized("nothing", json!({"pods": 10})),
            sized("memory-only", json!({"memory": "12000", "pods": 10})),
        ],
        vec![],
    );
    let p = info(requesting(json!({"cpu": "1", "memory": "3000"})));
    // cpu-only: memory alloc 0 is left out; cpu (2000-1000)*100/2000 = 50 over weight 1.
    // nothing: no resource counts → 0.
    // memory-only: (12000-3000)*100/12000 = 75 over weight 1.
    assert_eq!(
        run_score(&*build(None).expect("default"), &c, &p).map(|s| s.0),
        Some(vec![50, 0, 75])
    );
    // Weights cpu 3, memory 2: cpu-only 50*3/3 = 50; memory-only 75*2/2 = 75.
    let w = fit(json!({"scoringStrategy": {"type": "LeastAllocated",
        "resources": [{"name": "cpu", "weight": 3}, {"name": "memory", "weight": 2}]}}));
    assert_eq!(run_score(&*w, &c, &p).map(|s| s.0), Some(vec![50, 0, 75]));
}

#[test]
fn non_zero_defaults_in_scoring() {
    let gi = 1i64 << 30;
    // A bound pod without requests counts 100m and 200Mi on node 1.
    let c = cluster135(
        vec![
            sized("empty", json!({"cpu": "1", "memory": "1Gi", "pods": 10})),
            sized("used", json!({"cpu": "1", "memory": "1Gi", "pods": 10})),
        ],
        vec![(requesting(json!({})), 1)],
    );
    assert_eq!(c.nodes()[1].nonzero_memory(), 200 << 20);
    let p = info(requesting(json!({})));
    // empty: cpu (1000-100)*100/1000 = 90; memory (1Gi-200Mi)*100/1Gi = 80 (80.47) → 85.
    // used: cpu (1000-200)*100/1000 = 80; memory (1Gi-400Mi)*100/1Gi = 60 (60.94) → 70.
    assert_eq!((gi - (200 << 20)) * 100 / gi, 80);
    assert_eq!(
        run_score(&*build(None).expect("default"), &c, &p).map(|s| s.0),
        Some(vec![85, 70])
    );
    // Defaults apply to init containers too: a sidecar without cpu counts 100m on top of
    // the container's 50m (nonzero cpu 150), memory 100 + 100 = 200; the filter request
    // has cpu 50 only.
    let c = cluster135(
        vec![sized(
            "n",
            json!({"cpu": "1", "memory": "1000", "pods": 10}),
        )],
        vec![],
    );
    let p = info(pod(json!({"spec": {
        "containers": [{"name": "c", "resources": {"requests": {"cpu": "50m", "memory": "100"}}}],
        "initContainers": [{"name": "s", "restartPolicy": "Always",
            "resources": {"requests": {"memory": "100"}}}]}})));
    assert_eq!(
        (p.request.milli_cpu, p.nonzero_cpu, p.nonzero_memory),
        (50, 150, 200)
    );
    // cpu (1000-150)*100/1000 = 85; memory (1000-200)*100/1000 = 80 → 165/2 = 82.
    assert_eq!(
        run_score(&*build(None).expect("default"), &c, &p).map(|s| s.0),
        Some(vec![82])
    );
}

#[test]
fn ephemeral_and_scalar_resources_in_scoring() {
    let c = cluster135(
        vec![
            sized(
                "gpu",
                json!({"cpu": "1", "ephemeral-storage": "1000",
                "example.com/gpu": 4, "pods": 10}),
            ),
            sized(
                "plain",
                json!({"cpu": "1", "ephemeral-storage": "1000", "pods": 10}),
            ),
        ],
        vec![(requesting(json!({"cpu": "1", "example.com/gpu": 1})), 0)],
    );
    let args = json!({"scoringStrategy": {"type": "LeastAllocated", "resources": [
        {"name": "cpu", "weight": 1}, {"name": "example.com/gpu", "weight": 2},
        {"name": "ephemeral-storage", "weight": 1}]}});
    let plugin = fit(args);
    let p = info(requesting(json!({"cpu": "100m", "example.com/gpu": 1})));
    // gpu node: cpu (1000-1100) < 0 → 0 (requested > capacity); gpu (4-2)*100/4 = 50;
    // ephemeral requested 0 still counts (only scalars are dropped): 100.
    // (0*1 + 50*2 + 100*1)/4 = 200/4 = 50.
    // plain node: cpu (1000-100)*100/1000 = 90; gpu alloc 0 → left out; ephemeral 100:
    // (90 + 100)/2 = 95.
    assert_eq!(run_score(&*plugin, &c, &p).map(|s| s.0), Some(vec![50, 95]));
    // A pod not requesting the gpu leaves it out everywhere: gpu node (0 + 100)/2 = 50.
    let q = info(requesting(json!({"cpu": "100m"})));
    assert_eq!(run_score(&*plugin, &c, &q).map(|s| s.0), Some(vec![50, 95]));
}

/// A one-node cluster with cpu 1000m and memory 1000, and a pod using `cpu` milli-cores and
/// `mem` bytes: utilizations `cpu/10` and `mem/10` percent.
fn rtcr_score(args: serde_json::Value, cpu: i64, mem: i64) -> i64 {
    let c = cluster135(
        vec![sized(
            "n",
            json!({"cpu": "1", "memory": "1000", "pods": 10}),
        )],
        vec![],
    );
    let p = info(requesting(
        json!({"cpu": format!("{cpu}m"), "memory": mem.to_string()}),
    ));
    run_score(&*fit(args), &c, &p).expect("scored").0[0]
}

fn rtcr(shape: serde_json::Value, resources: serde_json::Value) -> serde_json::Value {
    json!({"scoringStrategy": {"type": "RequestedToCapacityRatio", "resources": resources,
        "requestedToCapacityRatio": {"shape": shape}}})
}

#[test]
fn requested_to_capacity_ratio() {
    let linear = rtcr(
        json!([{"utilization": 0, "score": 0}, {"utilization": 100, "score": 10}]),
        json!([]),
    );
    // Scores ×10: u=50 for both → f = 0 + 100*50/100 = 50 → round(100/2) = 50.
    assert_eq!(rtcr_score(linear.clone(), 500, 500), 50);
    // u_cpu = 330*100/1000 = 33 → 33; u_mem = 420*100/1000 = 42 → 42;
    // round(75/2 = 37.5) = 38 (half away from zero).
    assert_eq!(rtcr_score(linear.clone(), 330, 420), 38);
    // Requests above capacity: u = 100 → 100 each.
    assert_eq!(rtcr_score(linear.clone(), 1500, 2000), 100);
    // Weights: cpu 1 (f 50), memory 2 (f 33): round((50 + 66)/3 = 38.67) = 39.
    let weighted = rtcr(
        json!([{"utilization": 0, "score": 0}, {"utilization": 100, "score": 10}]),
        json!([{"name": "cpu", "weight": 1}, {"name": "memory", "weight": 2}]),
    );
    assert_eq!(rtcr_score(weighted, 500, 330), 39);
}

#[test]
fn rtcr_shape_interpolation_truncates() {
    // Points (10,2), (50,8), (80,3) → scaled (10,20), (50,80), (80,30); memory is not
    // configured, so the score is f(u_cpu) alone.
    let shape = json!([{"utilization": 10, "score": 2}, {"utilization": 50, "score": 8},
        {"utilization": 80, "score": 3}]);
    let args = rtcr(shape, json!([{"name": "cpu", "weight": 1}]));
    // u=5 ≤ 10: first score, 20.
    assert_eq!(rtcr_score(args.clone(), 50, 0), 20);
    // u=30: 20 + 60*(30-10)/40 = 20 + 30 = 50.
    assert_eq!(rtcr_score(args.clone(), 300, 0), 50);
    // u=33: 20 + 60*23/40 = 20 + 34 (34.5 truncated) = 54.
    assert_eq!(rtcr_score(args.clone(), 330, 0), 54);
    // u=65: 80 + (-50)*15/30 = 80 - 25 = 55.
    assert_eq!(rtcr_score(args.clone(), 650, 0), 55);
    // u=67: 80 + (-50)*17/30 = 80 + (-850/30 = -28, toward zero) = 52.
    assert_eq!(rtcr_score(args.clone(), 670, 0), 52);
    // u=90 beyond the last point: 30.
    assert_eq!(rtcr_score(args.clone(), 900, 0), 30);
    // u=10 exactly at the first point: 20; u=50 at the second: 20 + 60*40/40 = 80.
    assert_eq!(rtcr_score(args.clone(), 100, 0), 20);
    assert_eq!(rtcr_score(args, 500, 0), 80);
}

#[test]
fn rtcr_counts_only_resources_scoring_above_zero() {
    // f = 0 up to u=50, then 0 + 100*(u-50)/50.
    let args = rtcr(
        json!([{"utilization": 0, "score": 0}, {"utilization": 50, "score": 0},
               {"utilization": 100, "score": 10}]),
        json!([]),
    );
    // cpu u=40 → 0, left out with its weight; memory u=80 → 100*30/50 = 60 → 60/1 = 60
    // (not 30).
    assert_eq!(rtcr_score(args.clone(), 400, 800), 60);
    // Both at 0 → no resource counted → 0.
    assert_eq!(rtcr_score(args, 400, 200), 0);
}

#[test]
fn args_default_and_accept_type_meta() {
    // Weight 0 becomes 1 and an empty list becomes cpu+memory: both equal LeastAllocated
    // with the defaults on the scoring cluster (50, 61, 0).
    let c = scoring_cluster();
    let p = info(requesting(json!({"cpu": "1", "memory": "3000"})));
    for args in [
        json!({"kind": "NodeResourcesFitArgs", "apiVersion": "kubescheduler.config.k8s.io/v1"}),
        json!({"scoringStrategy": {"type": "LeastAllocated"}}),
        json!({"scoringStrategy": {"type": "LeastAllocated", "resources": []}}),
        json!({"scoringStrategy": {"type": "LeastAllocated", "resources": [
            {"name": "cpu", "weight": 0}, {"name": "memory"}]}}),
        json!(null),
    ] {
        assert_eq!(
            run_score(&*fit(args.clone()), &c, &p).map(|s| s.0),
            Some(vec![50, 61, 0]),
            "{args}"
        );
    }
}

#[test]
fn args_validation_messages() {
    let label_re = "name part must consist of alphanumeric characters, '-', '_' or '.', and \
        must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or \
        '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    assert_eq!(
        errors(json!({"ignoredResources": ["example.com/ok", "bad name"],
            "ignoredResourceGroups": ["example.com", "a/b", "-x"]})),
        [
            format!("ignoredResources[1]: Invalid value: \"bad name\": {label_re}"),
            "ignoredResourceGroups[1]: Invalid value: \"a/b\": resource group name can't contain '/'"
                .to_string(),
            format!("ignoredResourceGroups[2]: Invalid value: \"-x\": {label_re}"),
        ]
    );
    assert_eq!(
        errors(
            json!({"scoringStrategy": {"type": "Balanced", "resources": [
            {"name": "cpu", "weight": -1}, {"name": "memory", "weight": 101},
            {"name": "example.com/gpu", "weight": 100}]}})
        ),
        [
            "scoringStrategy.type: Unsupported value: \"Balanced\": supported values: \
             \"LeastAllocated\", \"MostAllocated\", \"RequestedToCapacityRatio\"",
            "scoringStrategy.resources[0].weight: Invalid value: -1: resource weight of cpu \
             not in valid range (0, 100]",
            "scoringStrategy.resources[1].weight: Invalid value: 101: resource weight of \
             memory not in valid range (0, 100]",
        ]
    );
    // A given scoringStrategy without a type is not defaulted.
    assert_eq!(
        errors(json!({"scoringStrategy": {}})),
        [
            "scoringStrategy.type: Unsupported value: \"\": supported values: \
          \"LeastAllocated\", \"MostAllocated\", \"RequestedToCapacityRatio\""
        ]
    );
    assert_eq!(
        errors(rtcr(json!([]), json!([]))),
        ["scoringStrategy.shape: Required value: at least one point must be specified"]
    );
    assert_eq!(
        errors(rtcr(
            json!([{"utilization": 50, "score": 1}, {"utilization": 50, "score": 11},
                   {"utilization": 40, "score": -1}, {"utilization": 101, "score": 0}]),
            json!([])
        )),
        [
            "scoringStrategy.shape[1].utilization: Invalid value: 50: values must be sorted \
             in increasing order",
            "scoringStrategy.shape[1].score: Invalid value: 11: not in valid range [0, 10]",
            "scoringStrategy.shape[2].score: Invalid value: -1: not in valid range [0, 10]",
            "scoringStrategy.shape[3].utilization: Invalid value: 101: not in valid range \
             [0, 100]",
        ]
    );
    // The shape is validated even when another strategy is chosen.
    assert_eq!(
        errors(json!({"scoringStrategy": {"type": "MostAllocated",
            "requestedToCapacityRatio": {"shape": []}}})),
        ["scoringStrategy.shape: Required value: at least one point must be specified"]
    );
    assert_eq!(
        errors(json!({"scoringStrategy": {"type": "RequestedToCapacityRatio"}})),
        [
            "scoringStrategy.requestedToCapacityRatio: Required value: must be specified when \
          type is RequestedToCapacityRatio"
        ]
    );
    // Decoding: unknown fields and wrong types, with their paths.
    let unknown = errors(json!({"scoringStrategy": {"typ": "LeastAllocated"}}));
    assert!(unknown[0].contains("unknown field `typ`"), "{unknown:?}");
    let typed = errors(json!({"scoringStrategy": {"resources": [{"name": "cpu", "weight": "x"}]}}));
    assert!(
        typed[0].starts_with("scoringStrategy.resources[0].weight: invalid type"),
        "{typed:?}"
    );
}
