//! The plugin vectors of reference `dra.md` §5.1 (upstream's `TestPlugin`), fixture F-P.

use super::*;
use serde_json::json;

fn errors(v: serde_json::Value) -> Vec<String> {
    crate::v135::plugins::testkit::build_errors(build, v)
}

#[test]
fn args_are_read_strictly_and_ignored() {
    assert!(errors(json!({})).is_empty());
    assert!(errors(json!({"kind": "DynamicResourcesArgs",
        "apiVersion": "kubescheduler.config.k8s.io/v1",
        "filterTimeout": "10s", "bindingTimeout": "600s"}))
    .is_empty());
    let e = errors(json!({"filterTimeOut": "1s"}));
    assert_eq!(e.len(), 1);
    assert!(e[0].contains("unknown field `filterTimeOut`"), "{e:?}");
}

// ---- The plugin vectors P1-P17 on fixture F-P (dra.md §5.1). Statuses and messages are
// the reference's (T35 source); scores are worked out by hand from §2.5. ----

use crate::cluster::{Cluster, PodInfo};
use crate::model::dra::{apply_request_defaults, DeviceClass, ResourceClaim, ResourceSlice};
use crate::model::{Node, Pod};
use crate::v135::plugins::testkit::cluster135;
use serde_json::Value;

fn node(name: &str) -> Node {
    serde_json::from_value(
        json!({"metadata": {"name": name, "labels": {"kubernetes.io/hostname": name}},
        "status": {"allocatable": {"cpu": "4", "memory": "4Gi", "pods": "10"}}}),
    )
    .expect("node")
}

/// `my-resource-class`, with these selectors.
fn class(selectors: Value) -> DeviceClass {
    serde_json::from_value(
        json!({"metadata": {"name": "my-resource-class"}, "spec": {"selectors": selectors}}),
    )
    .expect("class")
}

/// `<node>-some-driver`: pool `<node>`, generation 0, one slice, these devices.
fn slice(node: &str, devices: Value) -> Arc<ResourceSlice> {
    Arc::new(
        serde_json::from_value(json!({"metadata": {"name": format!("{node}-some-driver")},
            "spec": {"driver": "some-driver", "nodeName": node,
                     "pool": {"name": node, "generation": 0, "resourceSliceCount": 1},
                     "devices": devices}}))
        .expect("slice"),
    )
}

/// `default/<name>` owned by my-pod (uid 1234), with these requests.
fn claim(name: &str, requests: Value) -> ResourceClaim {
    let mut c: ResourceClaim = serde_json::from_value(json!({
        "metadata": {"name": name, "namespace": "default",
            "ownerReferences": [{"apiVersion": "v1", "kind": "Pod", "name": "my-pod", "uid": "1234", "controller": true}]},
        "spec": {"devices": {"requests": requests}}}))
    .expect("claim");
    apply_request_defaults(&mut c.spec);
    c
}

fn req1() -> Value {
    json!([{"name": "req-1", "exactly": {"deviceClassName": "my-resource-class", "allocationMode": "ExactCount", "count": 1}}])
}

/// A1: instance-1 of some-driver/worker, pinned to worker.
fn a1() -> Value {
    json!({"devices": {"results": [{"request": "req-1", "driver": "some-driver", "pool": "worker", "device": "instance-1"}]},
           "nodeSelector": {"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["worker"]}]}]}})
}

/// `default/my-pod` (uid 1234) with these `spec.resourceClaims` and `status`.
fn pod(claims: Value, status: Value) -> PodInfo {
    let p: Pod = serde_json::from_value(
        json!({"metadata": {"name": "my-pod", "namespace": "default", "uid": "1234"},
        "spec": {"containers": [{"name": "c"}], "resourceClaims": claims}, "status": status}),
    )
    .expect("pod");
    PodInfo::new_v135(p, 0, usize::MAX)
}

fn by_name() -> PodInfo {
    pod(
        json!([{"name": "my-resource", "resourceClaimName": "my-pod-my-resource"}]),
        json!({}),
    )
}

/// The fixture: nodes, the class (or none), slices, claims.
fn cluster(
    nodes: &[&str],
    class: Option<DeviceClass>,
    slices: Vec<Arc<ResourceSlice>>,
    claims: Vec<ResourceClaim>,
) -> Cluster {
    let mut c = cluster135(nodes.iter().map(|n| node(n)).collect(), vec![]);
    let dra = c.dra_mut();
    if let Some(k) = class {
        dra.classes.insert(k.metadata.name.clone(), Arc::new(k));
    }
    dra.set_slices(slices);
    for k in claims {
        dra.add_claim(k, false);
    }
    c
}

/// PreFilter, Filter on every node, Score and NormalizeScore on the nodes that passed, and
/// PostFilter when none did: (PreFilter status, per-node (code, reasons), raw and normalized
/// scores of the feasible nodes, PostFilter's message).
struct Outcome {
    pre: (Code, String),
    filter: Vec<(Code, String)>,
    scores: Vec<(i64, i64)>,
    post: Option<String>,
}

fn run(c: &Cluster, p: &PodInfo) -> Outcome {
    let plugin = DynamicResources::default();
    let order: Vec<NodeId> = (0..c.nodes().len()).collect();
    let cx = Cx {
        cluster: c,
        pod: p,
        order: &order,
    };
    let pre = plugin.pre_filter(&cx);
    let mut out = Outcome {
        pre: (pre.status.code, pre.status.message()),
        filter: Vec::new(),
        scores: Vec::new(),
        post: None,
    };
    let st = pre.state.as_deref();
    if pre.status.is_success() {
        let mut feasible = Vec::new();
        for n in c.nodes() {
            let mut reasons = Vec::new();
            let code = plugin.filter(&cx, st, n, &mut reasons);
            let text: Vec<String> = reasons.iter().map(ToString::to_string).collect();
            out.filter.push((code, text.join("; ")));
            if code == Code::Success {
                feasible.push(n);
            }
        }
        let raw: Vec<i64> = feasible
            .iter()
            .map(|n| plugin.score(&cx, st, n).expect("score"))
            .collect();
        let mut norm = raw.clone();
        plugin.normalize(&cx, st, &feasible, &mut norm);
        out.scores = raw.into_iter().zip(norm).collect();
        if !feasible.is_empty() {
            return out;
        }
    }
    let ran = pre.status.code != Code::Skip || pre.state.is_some();
    out.post = Some(post_filter(ran, st, p).0.message());
    out
}

const UAU: Code = Code::UnschedulableAndUnresolvable;

#[test]
fn p1_a_pod_without_claims_is_skipped() {
    let c = cluster(&["worker"], Some(class(json!([]))), vec![], vec![]);
    let p = pod(json!([]), json!({}));
    assert!(DynamicResources::default().pre_enqueue(&p, &c).is_success());
    let o = run(&c, &p);
    assert_eq!(o.pre.0, Code::Skip);
}

#[test]
fn p2_p3_p4_pre_enqueue_holds_back_missing_deleted_and_foreign_claims() {
    let plugin = DynamicResources::default();
    let template =
        json!([{"name": "my-resource", "resourceClaimTemplateName": "my-pod-my-resource"}]);
    let created = json!({"resourceClaimStatuses": [{"name": "my-resource", "resourceClaimName": "my-pod-my-resource"}]});
    let check = |c: &Cluster, p: &PodInfo, want: &str| {
        let s = plugin.pre_enqueue(p, c);
        assert_eq!((s.code, s.message()), (UAU, want.to_string()));
    };
    // P2: no status entry yet.
    let c = cluster(&["worker"], Some(class(json!([]))), vec![], vec![]);
    check(
        &c,
        &pod(template.clone(), json!({})),
        "pod \"default/my-pod\": ResourceClaim not created yet",
    );
    // P3: the claim is being deleted.
    let mut deleted = claim("my-pod-my-resource", req1());
    deleted.metadata.deletion_timestamp = Some("2026-01-01T00:00:00Z".into());
    let c = cluster(&["worker"], Some(class(json!([]))), vec![], vec![deleted]);
    check(
        &c,
        &pod(template.clone(), created.clone()),
        "resourceclaim \"my-pod-my-resource\" is being deleted",
    );
    // P4: controlled by another UID.
    let mut foreign = claim("my-pod-my-resource", req1());
    foreign.metadata.owner_references[0].uid = "1234123".into();
    let c = cluster(&["worker"], Some(class(json!([]))), vec![], vec![foreign]);
    check(
        &c,
        &pod(template, created),
        "ResourceClaim default/my-pod-my-resource was not created for pod default/my-pod (pod is not owner)",
    );
    // A claim named directly needs no owner, only to exist.
    let c = cluster(&["worker"], Some(class(json!([]))), vec![], vec![]);
    check(
        &c,
        &by_name(),
        "could not find ResourceClaim \"default/my-pod-my-resource\"",
    );
}

#[test]
fn p5_a_missing_class_stops_pre_filter() {
    let c = cluster(
        &["worker"],
        None,
        vec![],
        vec![claim("my-pod-my-resource", req1())],
    );
    let o = run(&c, &by_name());
    assert_eq!(
        o.pre,
        (
            UAU,
            "request req-1: device class my-resource-class does not exist".into()
        )
    );
    assert_eq!(o.post.as_deref(), Some("no new claims to deallocate"));
    // The firstAvailable variant names the subrequest.
    let sub = json!([{"name": "req-1", "firstAvailable": [{"name": "subreq-1", "deviceClassName": "does-not-exist"}]}]);
    let c = cluster(
        &["worker"],
        Some(class(json!([]))),
        vec![],
        vec![claim("my-pod-my-resource", sub)],
    );
    assert_eq!(
        run(&c, &by_name()).pre,
        (
            UAU,
            "request req-1/subreq-1: device class does-not-exist does not exist".into()
        )
    );
}

#[test]
fn p6_p7_p8_devices_present_missing_or_exhausted() {
    let instance = || slice("worker", json!([{"name": "instance-1"}]));
    // P6: no slice.
    let c = cluster(
        &["worker"],
        Some(class(json!([]))),
        vec![],
        vec![claim("my-pod-my-resource", req1())],
    );
    let o = run(&c, &by_name());
    assert_eq!(o.filter, [(UAU, "cannot allocate all claims".to_string())]);
    assert_eq!(o.post.as_deref(), Some("still not schedulable"));
    // P7: the slice: Success, and Reserve's allocation is A1.
    let c = cluster(
        &["worker"],
        Some(class(json!([]))),
        vec![instance()],
        vec![claim("my-pod-my-resource", req1())],
    );
    let o = run(&c, &by_name());
    assert_eq!(o.filter, [(Code::Success, String::new())]);
    assert_eq!(o.scores, [(0, 0)]);
    // P8: another claim holds instance-1.
    let mut other = claim("not-my-claim", req1());
    other.metadata.owner_references.clear();
    other.status.allocation = Some(serde_json::from_value(a1()).expect("a1"));
    let c = cluster(
        &["worker"],
        Some(class(json!([]))),
        vec![instance()],
        vec![claim("my-pod-my-resource", req1()), other.clone()],
    );
    assert_eq!(
        run(&c, &by_name()).filter,
        [(UAU, "cannot allocate all claims".to_string())]
    );
    // P9: the pod's request has admin access: the device in use is shared.
    let admin = json!([{"name": "req-1", "exactly": {"deviceClassName": "my-resource-class", "adminAccess": true}}]);
    let c = cluster(
        &["worker"],
        Some(class(json!([]))),
        vec![instance()],
        vec![claim("my-pod-my-resource", admin), other.clone()],
    );
    assert_eq!(run(&c, &by_name()).filter, [(Code::Success, String::new())]);
    // P10: the other claim's allocation is an admin one: it holds nothing.
    let mut admin_other = other;
    admin_other.status.allocation = Some(
        serde_json::from_value(
            json!({"devices": {"results": [{"request": "req-1", "driver": "some-driver",
            "pool": "worker", "device": "instance-1", "adminAccess": true}]}}),
        )
        .expect("admin a1"),
    );
    let c = cluster(
        &["worker"],
        Some(class(json!([]))),
        vec![instance()],
        vec![claim("my-pod-my-resource", req1()), admin_other],
    );
    assert_eq!(run(&c, &by_name()).filter, [(Code::Success, String::new())]);
}

#[test]
fn p11_a_cel_runtime_error_is_an_error_naming_the_claim_or_the_class() {
    let healthy = json!([{"cel": {"expression": "device.attributes[\"some-driver\"].healthy"}}]);
    let with_selector = json!([{"name": "req-1", "exactly": {"deviceClassName": "my-resource-class", "selectors": healthy}}]);
    let c = cluster(
        &["worker"],
        Some(class(json!([]))),
        vec![slice("worker", json!([{"name": "instance-1"}]))],
        vec![claim("my-pod-my-resource", with_selector)],
    );
    assert_eq!(
        run(&c, &by_name()).filter,
        [(
            Code::Error,
            "claim default/my-pod-my-resource: selector #0: CEL runtime error: no such key: healthy"
                .to_string()
        )]
    );
    let c = cluster(
        &["worker"],
        Some(class(healthy)),
        vec![slice("worker", json!([{"name": "instance-1"}]))],
        vec![claim("my-pod-my-resource", req1())],
    );
    assert_eq!(
        run(&c, &by_name()).filter,
        [(
            Code::Error,
            "class my-resource-class: selector #0: CEL runtime error: no such key: healthy"
                .to_string()
        )]
    );
}

#[test]
fn p12_p13_an_allocated_claim_elsewhere_is_deallocated_by_post_filter() {
    let allocated = |selector: Value| {
        let mut c = claim("my-pod-my-resource", req1());
        c.status.allocation = Some(
            serde_json::from_value(json!({"devices": {"results": []}, "nodeSelector": {"nodeSelectorTerms": [{"matchExpressions": [selector]}]}}))
                .expect("allocation"),
        );
        c
    };
    // P12: a node selector no node matches.
    let c = cluster(
        &["worker"],
        Some(class(json!([]))),
        vec![],
        vec![allocated(
            json!({"key": "no-such-label", "operator": "In", "values": ["no-such-value"]}),
        )],
    );
    let o = run(&c, &by_name());
    assert_eq!(
        o.filter,
        [(UAU, "resourceclaim not available on the node".to_string())]
    );
    assert_eq!(
        o.post.as_deref(),
        Some("deallocation of ResourceClaim completed")
    );
    // P13: the selector matches worker: Success, no allocator, Score 0.
    let c = cluster(
        &["worker"],
        Some(class(json!([]))),
        vec![],
        vec![allocated(
            json!({"key": "kubernetes.io/hostname", "operator": "In", "values": ["worker"]}),
        )],
    );
    let o = run(&c, &by_name());
    assert_eq!(o.filter, [(Code::Success, String::new())]);
    assert_eq!(o.scores, [(0, 0)]);
}

#[test]
fn p15_p16_p17_prioritized_lists_score_eight_minus_the_choice() {
    let devices = |n: usize| {
        Value::Array(
            (1..=n)
                .map(|i| json!({"name": format!("instance-{i}")}))
                .collect(),
        )
    };
    let sub = |name: &str, count: i64, selectors: Value| json!({"name": name, "deviceClassName": "my-resource-class", "allocationMode": "ExactCount", "count": count, "selectors": selectors});
    // P15: worker's device is healthy (subreq-1: 8), worker-2's is not (subreq-2: 7);
    // normalized 100 and 700/8 = 87.
    let healthy = json!([{"cel": {"expression": "device.attributes[\"some-driver\"].healthy"}}]);
    let c = cluster(
        &["worker", "worker-2"],
        Some(class(json!([]))),
        vec![
            slice(
                "worker",
                json!([{"name": "instance-1", "attributes": {"healthy": {"bool": true}}}]),
            ),
            slice(
                "worker-2",
                json!([{"name": "instance-1", "attributes": {"healthy": {"bool": false}}}]),
            ),
        ],
        vec![claim(
            "my-pod-my-resource",
            json!([{"name": "req-1", "firstAvailable": [sub("subreq-1", 1, healthy), sub("subreq-2", 1, json!([]))]}]),
        )],
    );
    assert_eq!(run(&c, &by_name()).scores, [(8, 100), (7, 87)]);
    // P16: claims A (subreq-1 x1) and B (x4, x3, x2, x1) on 4, 2 and 1 devices: worker 8 + 7,
    // worker-2 8 + 5, worker-3 cannot hold both; normalized 100 and 1300/15 = 86.
    let c = cluster(
        &["worker", "worker-2", "worker-3"],
        Some(class(json!([]))),
        vec![
            slice("worker", devices(4)),
            slice("worker-2", devices(2)),
            slice("worker-3", devices(1)),
        ],
        vec![
            claim(
                "my-pod-my-resource",
                json!([{"name": "req-1", "firstAvailable": [sub("subreq-1", 1, json!([]))]}]),
            ),
            claim(
                "my-pod-my-resource-2",
                json!([{"name": "req-1", "firstAvailable": [
                    sub("subreq-1", 4, json!([])), sub("subreq-2", 3, json!([])),
                    sub("subreq-3", 2, json!([])), sub("subreq-4", 1, json!([]))]}]),
            ),
        ],
    );
    let two = pod(
        json!([{"name": "my-resource", "resourceClaimName": "my-pod-my-resource"},
               {"name": "my-resource-2", "resourceClaimName": "my-pod-my-resource-2"}]),
        json!({}),
    );
    let o = run(&c, &two);
    assert_eq!(o.filter[2], (UAU, "cannot allocate all claims".to_string()));
    assert_eq!(o.scores, [(15, 100), (13, 86)]);
    // P17: one claim, req-1 and req-2 each [x2, x1]; 4, 3 and 2 devices: 16, 15, 14;
    // normalized 100, 1500/16 = 93, 1400/16 = 87.
    let list = || json!({"firstAvailable": [sub("subreq-1", 2, json!([])), sub("subreq-2", 1, json!([]))]});
    let mut r1 = list();
    r1["name"] = json!("req-1");
    let mut r2 = list();
    r2["name"] = json!("req-2");
    let c = cluster(
        &["worker", "worker-2", "worker-3"],
        Some(class(json!([]))),
        vec![
            slice("worker", devices(4)),
            slice("worker-2", devices(3)),
            slice("worker-3", devices(2)),
        ],
        vec![claim("my-pod-my-resource", json!([r1, r2]))],
    );
    assert_eq!(run(&c, &by_name()).scores, [(16, 100), (15, 93), (14, 87)]);
}
