//! Dynamic Resource Allocation end to end, beyond the goldens' reports: what the API server
//! refuses (located errors with the CEL error), what it accepts but the scheduler cannot use
//! (warnings), and what `explain` and the text report say about a claim that found no devices.
//! Expected texts are worked out by hand from the scenario files (reference `dra.md`).

use schedlab_core::report::text_report;
use schedlab_core::scenario::SchedulerVersion;
use schedlab_core::trace::explain::explain;
use schedlab_tests::{load_with, scenario_files, scenarios_dir, File};

fn scenario(name: &str) -> schedlab_core::Scenario {
    load_with(
        &scenario_files(&scenarios_dir().join(name)),
        Some(SchedulerVersion::V1_35),
    )
    .unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

/// The errors of a text that must not load, each as `file: path: message`.
fn refused(yaml: &str) -> Vec<String> {
    match load_with(
        &[File {
            name: "claims.yaml".into(),
            text: yaml.into(),
        }],
        Some(SchedulerVersion::V1_35),
    ) {
        Ok(_) => panic!("should not load:\n{yaml}"),
        Err(e) => e.iter().map(ToString::to_string).collect(),
    }
}

fn claim_with_selector(expression: &str) -> String {
    format!(
        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {{name: c, namespace: default}}\n\
         spec:\n  devices:\n    requests:\n    - name: gpu\n      exactly:\n        \
         deviceClassName: gpu.example.com\n        selectors:\n        - cel: {{expression: '{expression}'}}\n"
    )
}

#[test]
fn a_selector_that_does_not_compile_names_the_file_the_path_and_the_cel_error() {
    // dra.md §4 and vector A26: an undeclared identifier; the API server's field error
    // `Invalid value: "<expr>": compilation failed: ERROR: <input>:1:1: ...`.
    let errors = refused(&claim_with_selector("noSuchVar"));
    assert_eq!(errors.len(), 1, "{errors:?}");
    let want = "claims.yaml: spec.devices.requests[0].exactly.selectors[0].cel.expression: \
                Invalid value: \"noSuchVar\": compilation failed: ERROR: <input>:1:1: \
                undeclared reference to 'noSuchVar' (in container '')";
    assert!(errors[0].starts_with(want), "{errors:?}");
    // A syntax error (`=` is not CEL's comparison). The column cel-go would give is not
    // checked (dra.md §4 leaves the rendering unverified; docs/fidelity.md).
    let errors = refused(&claim_with_selector("device.driver = \"x\""));
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with(
            "claims.yaml: spec.devices.requests[0].exactly.selectors[0].cel.expression: \
             Invalid value: \"device.driver = \\\"x\\\"\": compilation failed: ERROR: <input>:1:"
        ) && errors[0].contains("Syntax error"),
        "{errors:?}"
    );
    // A selector that is not a bool (§4: `must evaluate to bool`).
    let errors = refused(&claim_with_selector("1"));
    assert!(
        errors[0].contains("must evaluate to bool or the unknown type, not int"),
        "{errors:?}"
    );
}

#[test]
fn an_invalid_claim_is_refused_with_its_path() {
    // A request name must be a DNS label; `firstAvailable` and `exactly` together are one
    // too many.
    let yaml = "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c}\n\
                spec:\n  devices:\n    requests:\n    - name: Bad_Name\n      exactly: {deviceClassName: gpu.example.com}\n";
    let errors = refused(yaml);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with(
            "claims.yaml: spec.devices.requests[0].name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 label"
        ),
        "{errors:?}"
    );
}

#[test]
fn a_missing_class_or_claim_warns_and_says_upstreams_status() {
    // v135-dra-missing: the claim in items[4] names DeviceClass tpu.example.com (absent); the
    // pod in items[6] names claim not-there (absent). Each warning names the file and the
    // path and quotes the status the pod will get (dra.md §2.2, §2.1).
    let s = scenario("v135-dra-missing");
    let warnings: Vec<String> = s.warnings.iter().map(ToString::to_string).collect();
    let file = "tests/scenarios/v135-dra-missing/cluster.yaml";
    let class = warnings
        .iter()
        .find(|w| w.contains("items[4].spec.devices.requests[0]"))
        .unwrap_or_else(|| panic!("no warning for the class: {warnings:?}"));
    assert!(
        class.ends_with("(\"device class tpu.example.com does not exist\")"),
        "{class}"
    );
    assert!(
        class.contains(file) || class.contains("cluster.yaml"),
        "{class}"
    );
    let claim = warnings
        .iter()
        .find(|w| w.contains("items[6].spec.resourceClaims[0]"))
        .unwrap_or_else(|| panic!("no warning for the claim: {warnings:?}"));
    assert!(
        claim.ends_with("(\"could not find ResourceClaim \\\"default/not-there\\\"\")"),
        "{claim}"
    );
    // The pod that names the missing claim is gated by DynamicResources' PreEnqueue.
    let run = s.run(0, true);
    let id = run.find_pod("default/no-claim").expect("pod");
    assert!(run.last_cycle_of(id).is_none(), "a gated pod gets no cycle");
    assert_eq!(
        s.scheduler
            .pre_enqueue_gate(&run.cluster.pods()[id], &run.cluster),
        Some((
            "DynamicResources",
            "could not find ResourceClaim \"default/not-there\"".to_string()
        ))
    );
}

#[test]
fn explain_and_the_text_report_name_the_claim_without_devices() {
    // v135-dra-admin-all: late asks for one device of gpu.example.com on gpu-1 (its rack),
    // where both devices are held by trainer's All claim; monitor's admin-access claim holds
    // d0 too but does not count. gpu-2 fails the node selector first, so DynamicResources has
    // no answer there.
    let s = scenario("v135-dra-admin-all");
    let run = s.run(0, true);
    let id = run.find_pod("default/late").expect("pod");
    let text = explain(&run.cluster, run.last_cycle_of(id).expect("cycle")).to_string();
    let why = "claim default/late-gpu-bbbbf: request gpu asks for 1 device(s) of class \
               gpu.example.com: the node has 2, 0 free";
    assert!(
        text.contains(&format!(
            "  gpu-1: cannot allocate all claims\n    hint: {why}\n"
        )),
        "{text}"
    );
    assert_eq!(text.matches("hint: claim").count(), 1, "{text}");
    let report = text_report(&run);
    assert!(
        report.contains(
            "\n      claim default/late-gpu-bbbbf on gpu-1: request gpu asks for 1 device(s) \
             of class gpu.example.com: the node has 2, 0 free\n"
        ),
        "{report}"
    );
    // trainer's explanation says which devices its claim got.
    let id = run.find_pod("default/trainer").expect("pod");
    let text = explain(&run.cluster, run.last_cycle_of(id).expect("cycle")).to_string();
    assert!(
        text.contains(
            "Claim default/trainer-gpus-bbbbb gets devices gpus=gpu.example.com/gpu-1/d0, \
             gpus=gpu.example.com/gpu-1/d1."
        ),
        "{text}"
    );
}

#[test]
fn a_summary_run_records_no_claim_answers() {
    // The per-claim answers are recorded only with details: a summary run's cycles have none
    // (and decide the same, which the goldens check).
    let s = scenario("v135-dra-gpus");
    let run = s.run(0, false);
    assert!(run.cycles.iter().all(|c| c.modern.is_none()));
}

// ---- The questions with devices. ----

use schedlab_core::input::{read_sources, Inputs};
use schedlab_core::questions::capacity::{capacity, templates};
use schedlab_core::questions::compare::compare;
use schedlab_core::questions::summary::{DeviceUse, Summary};
use schedlab_core::Source;

fn sources(files: &[File]) -> Vec<Source<'_>> {
    files
        .iter()
        .map(|f| Source {
            name: &f.name,
            text: &f.text,
        })
        .collect()
}

fn inputs(files: &[File]) -> Inputs {
    read_sources(&sources(files)).unwrap_or_else(|e| panic!("{e:?}"))
}

fn example_driver() -> Vec<File> {
    scenario_files(&scenarios_dir().join("v135-dra-example-driver"))
}

#[test]
fn capacity_counts_the_copies_the_devices_allow() {
    // v135-dra-example-driver: the worker publishes 8 GPUs and its three pods hold 3 of them
    // (gpu-0, gpu-1, gpu-7); a copy of a pod with the single-gpu template needs one more,
    // and nothing else limits it (110 pod slots, no requests): 5 copies, all on the worker
    // (the control plane's taint rejects them). The sixth finds no device on the worker.
    let files = example_driver();
    let cluster = inputs(&files);
    let pod = File {
        name: "probe.yaml".into(),
        text: "apiVersion: v1\nkind: Pod\nmetadata: {name: probe, namespace: gpu-test1}\nspec:\n  \
               containers: [{name: c}]\n  resourceClaims: [{name: gpu, resourceClaimTemplateName: single-gpu}]\n"
            .into(),
    };
    let t = templates(&pod.name, inputs(std::slice::from_ref(&pod))).expect("a template");
    let a = capacity(
        &cluster,
        &sources(&files),
        Some(SchedulerVersion::V1_35),
        &t,
        0,
    )
    .expect("answers");
    let p = &a.templates[0];
    assert_eq!(p.count, 5);
    assert_eq!(
        p.per_node,
        [("dra-example-driver-cluster-worker".to_string(), 5)]
    );
    assert_eq!(
        p.first_failure,
        Some((
            "gpu-test1/probe-6".to_string(),
            "0/2 nodes are available: 1 cannot allocate all claims, 1 node(s) had untolerated \
             taint(s). still not schedulable, preemption: 0/2 nodes are available: 2 Preemption \
             is not helpful for scheduling."
                .to_string()
        ))
    );
}

#[test]
fn summaries_count_the_devices_each_node_sees_and_the_allocated_ones() {
    // v135-dra-admin-all at the end: gpu-1 sees d0 and d1, both held by trainer's All claim
    // (monitor's admin allocation holds none); gpu-2 sees e0, held by other-rack's claim.
    let s = scenario("v135-dra-admin-all");
    let summary = Summary::of(&s.run(0, false));
    let devices: Vec<(String, Option<DeviceUse>)> = summary
        .nodes
        .iter()
        .map(|n| (n.name.clone(), n.devices))
        .collect();
    let used = |allocated, total| Some(DeviceUse { allocated, total });
    assert_eq!(
        devices,
        [
            ("gpu-1".to_string(), used(2, 2)),
            ("gpu-2".to_string(), used(1, 1))
        ]
    );
    assert_eq!(summary.devices, used(3, 3));
    let json = summary.to_json();
    assert_eq!(
        json["devices"],
        serde_json::json!({"allocated": 3, "total": 3})
    );
    assert_eq!(
        json["nodes"][0]["devices"],
        serde_json::json!({"allocated": 2, "total": 2})
    );
    // compare's text adds the devices rows (the same scenario on both sides).
    let text = compare(("A", &s), ("B", &s), 0).to_text();
    assert!(
        text.contains("devices allocated                       3/3            3/3\n"),
        "{text}"
    );
    assert!(
        text.contains("  devices on gpu-1                      2/2            2/2\n"),
        "{text}"
    );
    // A scenario without devices has no devices key.
    let plain = Summary::of(&scenario("v135-fit-balanced").run(0, false)).to_json();
    assert!(plain.get("devices").is_none() && plain["nodes"][0].get("devices").is_none());
}

#[test]
fn the_json_report_gives_each_nodes_claim_answers_with_details() {
    // v135-dra-admin-all, late's cycle: only gpu-1 (its rack) ran DynamicResources' Filter.
    let s = scenario("v135-dra-admin-all");
    let r = schedlab_tests::report(&s, 0);
    let late = r["cycles"]
        .as_array()
        .expect("cycles")
        .iter()
        .find(|c| c["pod"] == "default/late")
        .expect("late's cycle");
    assert_eq!(
        late["claims"],
        serde_json::json!({"gpu-1": [{"claim": "default/late-gpu-bbbbf",
            "failed": "request gpu asks for 1 device(s) of class gpu.example.com: the node has 2, 0 free"}]})
    );
    let monitor = r["cycles"]
        .as_array()
        .expect("cycles")
        .iter()
        .find(|c| c["pod"] == "default/monitor")
        .expect("monitor's cycle");
    assert_eq!(
        monitor["claims"],
        serde_json::json!({"gpu-1": [{"claim": "default/monitor-gpu-bbbbc",
            "devices": [{"request": "watch", "device": "gpu.example.com/gpu-1/d0"}]}]})
    );
    // A summary report has no tables, so no claims either.
    let summary = schedlab_tests::summary(&s, 0);
    assert!(summary["cycles"][0].get("claims").is_none());
}

#[test]
fn nvidias_slice_explains_a_pair_that_no_longer_fits() {
    // v135-dra-nvidia-gpus: train holds gpu-0 and gpu-1, infer gpu-2; train-2 wants two GPUs
    // of gpu.nvidia.com (type gpu) and only gpu-3 of the node's four is free.
    let s = scenario("v135-dra-nvidia-gpus");
    let run = s.run(0, true);
    let id = run.find_pod("default/train-2").expect("pod");
    let text = explain(&run.cluster, run.last_cycle_of(id).expect("cycle")).to_string();
    assert!(
        text.contains(
            "  gpu-node-1: cannot allocate all claims\n    hint: claim default/train-2-gpus-bbbbd: \
             request gpus asks for 2 device(s) of class gpu.nvidia.com: the node has 4, 1 free\n"
        ),
        "{text}"
    );
}

/// One node without devices, a claim for one GPU and its pod; the timeline's `changes`.
fn dra_timeline(changes: &str) -> Vec<File> {
    let cluster = "apiVersion: v1\nkind: List\nitems:\n\
        - {apiVersion: v1, kind: Node, metadata: {name: n1}, status: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}}}\n\
        - {apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: [{name: c, resources: {claims: [{name: gpu}]}}], resourceClaims: [{name: gpu, resourceClaimName: c}]}}\n\
        ---\n\
        apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu.example.com}\n\
        spec: {selectors: [{cel: {expression: 'device.driver == \"gpu.example.com\"'}}]}\n\
        ---\n\
        apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c, namespace: default}\n\
        spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com}}]}}\n";
    let timeline =
        format!("apiVersion: schedlab.dev/v1alpha1\nkind: Timeline\nspec:\n  changes:\n{changes}");
    vec![
        File {
            name: "cluster.yaml".into(),
            text: cluster.into(),
        },
        File {
            name: "timeline.yaml".into(),
            text: timeline,
        },
    ]
}

const N1_SLICE: &str = "{apiVersion: resource.k8s.io/v1, kind: ResourceSlice, metadata: {name: n1-gpus}, spec: {driver: gpu.example.com, nodeName: n1, pool: {name: n1, generation: 1, resourceSliceCount: 1}, devices: [{name: gpu-0}]}}";

#[test]
fn a_slice_added_by_the_timeline_requeues_the_pod_dra_rejected() {
    // t=0: n1 publishes no device, so DynamicResources' Filter rejects p. At t=30 a slice gives
    // n1 one GPU: ResourceSliceAdd is registered without a hint (dra.md §2.9), so p is retried
    // at once (its 1 s backoff is long over) and lands on n1, at t=30 (not at the 5-minute
    // flush).
    let files = dra_timeline(&format!("  - {{at: 30, applyResourceSlice: {N1_SLICE}}}\n"));
    let s = load_with(&files, Some(SchedulerVersion::V1_35)).expect("loads");
    let r = schedlab_tests::report(&s, 0);
    let cycles = r["cycles"].as_array().expect("cycles");
    assert_eq!(cycles[0]["outcome"], "Unschedulable");
    assert_eq!(cycles.len(), 2, "{cycles:?}");
    assert_eq!(cycles[1]["time"], 30.0);
    assert_eq!(cycles[1]["node"], "n1");
    let claim = &r["resourceClaims"][0];
    assert_eq!(claim["name"], "default/c");
    assert_eq!(claim["devices"][0]["device"], "gpu-0");
}

#[test]
fn a_class_deleted_then_applied_again_keeps_the_pod_waiting_then_lets_it_in() {
    // The class is deleted at t=0 (deletes are not registered: no requeue) and the slice
    // added at t=10 finds a claim whose class is missing, so p stays Pending; the class comes
    // back at t=20 (DeviceClassAdd, no hint): p is retried then, and fits.
    let changes = format!(
        "  - {{at: 0, deleteDeviceClass: gpu.example.com}}\n  - {{at: 10, applyResourceSlice: {N1_SLICE}}}\n  - {{at: 20, applyDeviceClass: {{apiVersion: resource.k8s.io/v1, kind: DeviceClass, metadata: {{name: gpu.example.com}}}}}}\n"
    );
    let s = load_with(&dra_timeline(&changes), Some(SchedulerVersion::V1_35)).expect("loads");
    let r = schedlab_tests::report(&s, 0);
    let last = r["cycles"]
        .as_array()
        .and_then(|c| c.last())
        .expect("a cycle");
    assert_eq!(last["time"], 20.0);
    assert_eq!(last["node"], "n1");
}

#[test]
fn dra_timeline_verbs_are_checked() {
    // Deleting what is not there is an error naming it; v1.17 has no DynamicResources.
    let files = dra_timeline("  - {at: 5, deleteResourceSlice: nope}\n");
    let Err(errors) = load_with(&files, Some(SchedulerVersion::V1_35)) else {
        panic!("should not load");
    };
    assert_eq!(
        errors[0].to_string(),
        "timeline.yaml: spec.changes[0].deleteResourceSlice: no resourceslice/nope at t=5s"
    );
    let files = dra_timeline(&format!("  - {{at: 30, applyResourceSlice: {N1_SLICE}}}\n"));
    let Err(errors) = load_with(&files, Some(SchedulerVersion::V1_17)) else {
        panic!("should not load under v1.17");
    };
    assert!(
        errors.iter().any(|e| e.to_string().contains(
            "spec.changes[0].applyResourceSlice: Dynamic Resource Allocation (resource.k8s.io/v1) is kube-scheduler v1.35's"
        )),
        "{errors:?}"
    );
}
