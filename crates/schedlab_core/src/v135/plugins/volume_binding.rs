//! `VolumeBinding` (v1.35, `volumebinding/volume_binding.go`, `binder.go`, reference §4.10):
//! PreFilter, Filter, PreScore, Score, Reserve, PreBind.
//!
//! - **PreFilter** (`podHasPVCs`, then `GetPodVolumeClaims`): a pod without claim volumes is
//!   `Skip`ped. Each claim must exist (`persistentvolumeclaim "NAME" not found`), not be `Lost`
//!   (`persistentvolumeclaim "NAME" bound to non-existent persistentvolume "PV"`) and not be
//!   terminating (`persistentvolumeclaim "NAME" is being deleted`): UnschedulableAndUnresolvable.
//!   The claims are then sorted as v1.17's binder sorts them
//!   ([`crate::sched::volume_binder::pod_claims`]): fully bound, unbound
//!   `WaitForFirstConsumer`, or unbound immediate. Any immediate one rejects the pod,
//!   UnschedulableAndUnresolvable `pod has unbound immediate PersistentVolumeClaims`; a class
//!   without `volumeBindingMode` is the Error `VolumeBindingMode not set for StorageClass "NAME"`.
//! - **Filter** (`FindPodVolumes`): a bound claim whose volume is missing stops the bound check
//!   with `node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)`; a bound
//!   volume whose node affinity excludes the node stops it with
//!   `node(s) didn't match PersistentVolume's node affinity`. The WaitForFirstConsumer claims
//!   go through v1.17's matching and provisioning checks
//!   ([`crate::sched::volume_binder::find_pod_volumes`], the same rules in v1.35):
//!   `node(s) didn't find available persistent volumes to bind`. Reasons come in upstream's
//!   order (node affinity, bind, storage, missing PV) and are all UnschedulableAndUnresolvable.
//! - **PreScore** is `Skip` (the scorer exists only with the alpha `StorageCapacityScoring`);
//!   **Score** is 0.
//! - **Reserve/PreBind** (`AssumePodVolumes`, `BindPodVolumes`): the bindings of the chosen
//!   node are [`crate::sched::volume_binder::bindings_for`]; the framework applies them.
//!
//! Args (`VolumeBindingArgs`): `bindTimeoutSeconds` (default 600, must not be negative) and
//! `shape`, refused while `StorageCapacityScoring` is off.
//!
//! Deviations: `node(s) did not have enough free storage` never happens (CSIStorageCapacity
//! and CSIDriver objects are not modelled, so every class has enough capacity, as upstream
//! without them); in-tree volumes are not translated to CSI before the node-affinity check;
//! generic ephemeral volumes are not modelled (their claims are never created) and are ignored;
//! the volumes of a class are walked in name order (upstream: informer order).

use crate::cluster::{Cluster, NodeInfo, PodInfo};
use crate::model::field::{FieldError, Value};
use crate::queue::ClusterChange;
use crate::sched::volume_binder::{find_pod_volumes, pod_claims, PodClaims};
use crate::sched::Reason;
use crate::v135::plugin::QueueingHint;
use crate::v135::plugin::{state, Cx, Plugin, PluginState, PreFilterOutput, PreScoreOutput};
use crate::v135::plugin::{PluginSpec, Point, Points};
use crate::v135::status::Code;
use serde::Deserialize;

/// The registry entry.
pub(crate) static SPEC: PluginSpec = PluginSpec {
    name: "VolumeBinding",
    points: Points::of(&[
        Point::PreFilter,
        Point::Filter,
        Point::PreScore,
        Point::Score,
        Point::Reserve,
        Point::PreBind,
    ]),
    default_enabled: true,
    default_weight: None,
    args_kind: Some("VolumeBindingArgs"),
    args_checked_by_validation: true,
    build,
};

/// `ErrReasonBindConflict`.
pub(crate) const ERR_REASON_BIND_CONFLICT: &str =
    "node(s) didn't find available persistent volumes to bind";
/// `ErrReasonNodeConflict`.
pub(crate) const ERR_REASON_NODE_CONFLICT: &str =
    "node(s) didn't match PersistentVolume's node affinity";
/// `ErrReasonPVNotExist`.
pub(crate) const ERR_REASON_PV_NOT_EXIST: &str =
    "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)";
/// PreFilter's rejection of unbound immediate claims.
pub(crate) const ERR_UNBOUND_IMMEDIATE: &str = "pod has unbound immediate PersistentVolumeClaims";

/// `DefaultBindTimeoutSeconds`.
pub(crate) const DEFAULT_BIND_TIMEOUT_SECONDS: i64 = 600;

/// `UtilizationShapePoint`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ShapePoint {
    utilization: i32,
    score: i32,
}

/// `VolumeBindingArgs`.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Args {
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    api_version: Option<String>,
    #[serde(default)]
    bind_timeout_seconds: Option<i64>,
    #[serde(default)]
    shape: Option<Vec<ShapePoint>>,
}

/// The plugin, with its defaulted args.
pub(crate) struct VolumeBinding {
    /// `bindTimeoutSeconds`: how long PreBind waits for the volumes to be bound. Validated and
    /// kept, never waited for: the simulation binds volumes at once (`docs/fidelity.md`).
    #[cfg_attr(not(test), allow(dead_code))]
    bind_timeout_seconds: i64,
}

/// The claims sorted in PreFilter (`stateData.podVolumeClaims`).
#[derive(Clone, Debug)]
struct BindingState {
    /// Fully bound claims: (claim, volume).
    bound: Vec<(String, String)>,
    /// The unbound WaitForFirstConsumer claims (no bound ones: those are checked here).
    delayed: PodClaims,
}

impl Plugin for VolumeBinding {
    /// A new node, a freed pod (its volumes), or a node relabelled or resized.
    fn queueing_hint(
        &self,
        change: &ClusterChange,
        pod: &PodInfo,
        cluster: &Cluster,
    ) -> QueueingHint {
        let _ = (pod, cluster);
        QueueingHint::queue_if(match *change {
            ClusterChange::NodeAdd(_) | ClusterChange::PodDelete(_) => true,
            ClusterChange::NodeUpdate { change, .. } => change.labels || change.allocatable,
            ClusterChange::PodAdd(_) => false,
        })
    }

    fn name(&self) -> &'static str {
        SPEC.name
    }

    fn pre_filter(&self, cx: &Cx) -> PreFilterOutput {
        let ns = cx.pod.namespace.as_str();
        // podHasPVCs.
        let mut has_claims = false;
        for src in cx
            .pod
            .pod
            .spec
            .volumes
            .iter()
            .filter_map(|v| v.persistent_volume_claim.as_ref())
        {
            has_claims = true;
            let name = &src.claim_name;
            let unresolvable =
                |m: String| PreFilterOutput::status(Code::UnschedulableAndUnresolvable, m);
            let Some(pvc) = cx.cluster.volumes().pvc(ns, name) else {
                return unresolvable(format!("persistentvolumeclaim {name:?} not found"));
            };
            if pvc.status.phase == "Lost" {
                return unresolvable(format!(
                    "persistentvolumeclaim {:?} bound to non-existent persistentvolume {:?}",
                    pvc.metadata.name, pvc.spec.volume_name
                ));
            }
            if pvc.metadata.deletion_timestamp.is_some() {
                return unresolvable(format!(
                    "persistentvolumeclaim {:?} is being deleted",
                    pvc.metadata.name
                ));
            }
        }
        if !has_claims {
            return PreFilterOutput::skip();
        }
        // GetPodVolumeClaims, and the immediate-claims check.
        match pod_claims(cx.cluster, cx.pod) {
            Ok(claims) => PreFilterOutput::with_state(BindingState {
                bound: claims.bound,
                delayed: PodClaims {
                    bound: Vec::new(),
                    delayed: claims.delayed,
                },
            }),
            Err(e) if e == ERR_UNBOUND_IMMEDIATE => {
                PreFilterOutput::status(Code::UnschedulableAndUnresolvable, ERR_UNBOUND_IMMEDIATE)
            }
            Err(e) => PreFilterOutput::status(Code::Error, e),
        }
    }

    fn filter(
        &self,
        cx: &Cx,
        s: Option<&dyn PluginState>,
        node: &NodeInfo,
        reasons: &mut Vec<Reason>,
    ) -> Code {
        let Some(s) = state::<BindingState>(s) else {
            return Code::Success;
        };
        let labels = node.labels();
        // checkBoundClaims: the first missing volume or affinity mismatch ends it.
        let (mut bound_ok, mut pvs_found) = (true, true);
        for (_, pv_name) in &s.bound {
            match cx.cluster.volumes().pv(pv_name) {
                None => {
                    pvs_found = false;
                    break;
                }
                Some(pv) if !pv.node_affinity_matches(labels) => {
                    bound_ok = false;
                    break;
                }
                Some(_) => {}
            }
        }
        // The WaitForFirstConsumer claims.
        let unbound_ok = match find_pod_volumes(cx.cluster, &s.delayed, node.name(), labels) {
            Ok((unbound_ok, _, _)) => unbound_ok,
            Err(e) => {
                reasons.push(e.into());
                return Code::Error;
            }
        };
        let before = reasons.len();
        if !bound_ok {
            reasons.push(ERR_REASON_NODE_CONFLICT.into());
        }
        if !unbound_ok {
            reasons.push(ERR_REASON_BIND_CONFLICT.into());
        }
        if !pvs_found {
            reasons.push(ERR_REASON_PV_NOT_EXIST.into());
        }
        if reasons.len() > before {
            Code::UnschedulableAndUnresolvable
        } else {
            Code::Success
        }
    }

    fn pre_score(&self, _cx: &Cx, _nodes: &[&NodeInfo]) -> PreScoreOutput {
        // The scorer exists only with StorageCapacityScoring (alpha, off).
        PreScoreOutput::skip()
    }

    fn score(
        &self,
        _cx: &Cx,
        _state: Option<&dyn PluginState>,
        _node: &NodeInfo,
    ) -> Result<i64, String> {
        Ok(0)
    }
}

/// Go's `%#v` of an internal `[]config.UtilizationShapePoint`.
fn shape_value(shape: &[ShapePoint]) -> String {
    let points: Vec<String> = shape
        .iter()
        .map(|p| {
            format!(
                "config.UtilizationShapePoint{{Utilization:{}, Score:{}}}",
                p.utilization, p.score
            )
        })
        .collect();
    format!("[]config.UtilizationShapePoint{{{}}}", points.join(", "))
}

fn build(args: Option<&serde_json::Value>) -> Result<Box<dyn Plugin>, Vec<FieldError>> {
    let args: Args = match args {
        None => Args::default(),
        Some(v) => serde_path_to_error::deserialize(v).map_err(|e| {
            vec![FieldError::plain(
                e.path().to_string().trim_start_matches('.'),
                e.into_inner().to_string(),
            )]
        })?,
    };
    let _ = (&args.kind, &args.api_version);
    let bind_timeout_seconds = args
        .bind_timeout_seconds
        .unwrap_or(DEFAULT_BIND_TIMEOUT_SECONDS);
    let mut errors = Vec::new();
    if bind_timeout_seconds < 0 {
        errors.push(FieldError::invalid(
            "bindTimeoutSeconds",
            Value::Int(bind_timeout_seconds),
            "invalid BindTimeoutSeconds, should not be a negative value",
        ));
    }
    if let Some(shape) = &args.shape {
        errors.push(FieldError::invalid(
            "shape",
            Value::Raw(shape_value(shape)),
            "unexpected field `shape`, remove it or turn on the feature gate StorageCapacityScoring",
        ));
    }
    if errors.is_empty() {
        Ok(Box::new(VolumeBinding {
            bind_timeout_seconds,
        }))
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::volume::{PersistentVolume, StorageClass};
    use crate::model::Pod;
    use crate::testing::{claim_pod, node, pod};
    use crate::v135::status::Status;
    use serde_json::json;

    /// Nodes `a` (zone a) and `b` (zone b) and these storage objects.
    fn setup(
        pvs: Vec<serde_json::Value>,
        pvcs: Vec<serde_json::Value>,
        classes: Vec<serde_json::Value>,
    ) -> Cluster {
        let mut c = Cluster::default();
        for n in ["a", "b"] {
            c.add_node(node(
                json!({"metadata": {"name": n, "labels": {"zone": n}}}),
            ));
        }
        for v in pvs {
            let v: PersistentVolume = serde_json::from_value(v).expect("pv");
            c.volumes_mut().pvs.insert(v.metadata.name.clone(), v);
        }
        for v in pvcs {
            c.volumes_mut()
                .add_pvc(serde_json::from_value(v).expect("pvc"));
        }
        for v in classes {
            let s: StorageClass = serde_json::from_value(v).expect("class");
            c.volumes_mut().classes.insert(s.metadata.name.clone(), s);
        }
        c
    }

    fn zone_affinity(zone: &str) -> serde_json::Value {
        json!({"required": {"nodeSelectorTerms": [{"matchExpressions": [
            {"key": "zone", "operator": "In", "values": [zone]}]}]}})
    }

    fn bound(name: &str, pv: &str) -> serde_json::Value {
        json!({"metadata": {"name": name, "annotations": {"pv.kubernetes.io/bind-completed": "yes"}},
            "spec": {"volumeName": pv}})
    }

    fn plugin() -> Box<dyn Plugin> {
        build(None).expect("defaults")
    }

    fn run(c: &Cluster, p: Pod) -> (Status, Vec<(Code, Vec<String>)>) {
        crate::v135::plugins::testkit::filter_statuses(plugin().as_ref(), c, p)
    }

    fn ok() -> (Code, Vec<String>) {
        (Code::Success, vec![])
    }

    fn unresolvable(reasons: &[&str]) -> (Code, Vec<String>) {
        (
            Code::UnschedulableAndUnresolvable,
            reasons.iter().map(|r| r.to_string()).collect(),
        )
    }

    #[test]
    fn a_pod_without_claims_is_skipped() {
        let c = setup(vec![], vec![], vec![]);
        assert_eq!(run(&c, pod(json!({}))).0, Status::skip());
        let inline = pod(
            json!({"spec": {"volumes": [{"name": "v", "gcePersistentDisk": {"pdName": "d"}}]}}),
        );
        assert_eq!(run(&c, inline).0, Status::skip());
    }

    #[test]
    fn claim_errors_reject_the_pod_in_pre_filter() {
        let c = setup(
            vec![],
            vec![
                json!({"metadata": {"name": "lost"}, "spec": {"volumeName": "pv-x"}, "status": {"phase": "Lost"}}),
                json!({"metadata": {"name": "del", "deletionTimestamp": "2026-01-01T00:00:00Z"}, "spec": {}}),
            ],
            vec![],
        );
        let uu = |m: &str| Status::new(Code::UnschedulableAndUnresolvable, m.to_string());
        assert_eq!(
            run(&c, claim_pod(&["gone"])).0,
            uu("persistentvolumeclaim \"gone\" not found")
        );
        assert_eq!(
            run(&c, claim_pod(&["lost"])).0,
            uu("persistentvolumeclaim \"lost\" bound to non-existent persistentvolume \"pv-x\"")
        );
        assert_eq!(
            run(&c, claim_pod(&["del"])).0,
            uu("persistentvolumeclaim \"del\" is being deleted")
        );
    }

    #[test]
    fn unbound_immediate_claims_reject_the_pod_and_an_unset_mode_is_an_error() {
        let c = setup(
            vec![],
            vec![
                json!({"metadata": {"name": "no-class"}, "spec": {}}),
                json!({"metadata": {"name": "missing-class"}, "spec": {"storageClassName": "nope"}}),
                json!({"metadata": {"name": "immediate"}, "spec": {"storageClassName": "imm"}}),
                json!({"metadata": {"name": "prebound"}, "spec": {"storageClassName": "wait", "volumeName": "x"}}),
                json!({"metadata": {"name": "unset"}, "spec": {"storageClassName": "unset"}}),
            ],
            vec![
                json!({"metadata": {"name": "imm"}, "provisioner": "p", "volumeBindingMode": "Immediate"}),
                json!({"metadata": {"name": "wait"}, "provisioner": "p", "volumeBindingMode": "WaitForFirstConsumer"}),
                json!({"metadata": {"name": "unset"}, "provisioner": "p"}),
            ],
        );
        for claim in ["no-class", "missing-class", "immediate", "prebound"] {
            assert_eq!(
                run(&c, claim_pod(&[claim])).0,
                Status::new(
                    Code::UnschedulableAndUnresolvable,
                    "pod has unbound immediate PersistentVolumeClaims"
                ),
                "{claim}"
            );
        }
        assert_eq!(
            run(&c, claim_pod(&["unset"])).0,
            Status::new(
                Code::Error,
                "VolumeBindingMode not set for StorageClass \"unset\"".to_string()
            )
        );
    }

    const NODE: &str = "node(s) didn't match PersistentVolume's node affinity";
    const BIND: &str = "node(s) didn't find available persistent volumes to bind";
    const NO_PV: &str = "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)";

    #[test]
    fn bound_claims_follow_their_volume_and_its_node_affinity() {
        let local = json!({"metadata": {"name": "local"},
            "provisioner": "kubernetes.io/no-provisioner", "volumeBindingMode": "WaitForFirstConsumer"});
        let c = setup(
            vec![
                json!({"metadata": {"name": "pv-a"}, "spec": {"nodeAffinity": zone_affinity("a")}}),
                json!({"metadata": {"name": "free-b"}, "spec": {"storageClassName": "local",
                    "capacity": {"storage": "1Gi"}, "nodeAffinity": zone_affinity("b")},
                    "status": {"phase": "Available"}}),
            ],
            vec![
                bound("in-a", "pv-a"),
                bound("dangling", "pv-gone"),
                json!({"metadata": {"name": "wffc"}, "spec": {"storageClassName": "local"}}),
            ],
            vec![local],
        );
        assert_eq!(
            run(&c, claim_pod(&["in-a"])),
            (Status::success(), vec![ok(), unresolvable(&[NODE])])
        );
        // A missing volume is a reason on every node, not an error.
        assert_eq!(
            run(&c, claim_pod(&["dangling"])).1,
            [unresolvable(&[NO_PV]), unresolvable(&[NO_PV])]
        );
        // The bound check stops at the first problem: on `b` the affinity mismatch of pv-a
        // hides the missing volume; on `a` pv-a fits and the missing one is reported.
        assert_eq!(
            run(&c, claim_pod(&["in-a", "dangling"])).1,
            [unresolvable(&[NO_PV]), unresolvable(&[NODE])]
        );
        // The delayed claim is still checked after a missing volume: upstream's order.
        assert_eq!(
            run(&c, claim_pod(&["dangling", "wffc"])).1,
            [unresolvable(&[BIND, NO_PV]), unresolvable(&[NO_PV])]
        );
        assert_eq!(
            run(&c, claim_pod(&["in-a", "wffc"])).1,
            [unresolvable(&[BIND]), unresolvable(&[NODE])]
        );
    }

    #[test]
    fn wait_for_first_consumer_claims_bind_the_smallest_volume_at_reserve() {
        let avail = |name: &str, size: &str, zone: &str| {
            json!({"metadata": {"name": name}, "spec": {"storageClassName": "local",
                "capacity": {"storage": size}, "accessModes": ["ReadWriteOnce"],
                "nodeAffinity": zone_affinity(zone)}, "status": {"phase": "Available"}})
        };
        let c = setup(
            vec![
                avail("big-a", "10Gi", "a"),
                avail("small-a", "2Gi", "a"),
                avail("tiny-a", "1Gi", "a"),
            ],
            vec![
                json!({"metadata": {"name": "data"}, "spec": {"storageClassName": "local",
                "accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1500Mi"}}}}),
            ],
            vec![
                json!({"metadata": {"name": "local"}, "provisioner": "kubernetes.io/no-provisioner",
                "volumeBindingMode": "WaitForFirstConsumer"}),
            ],
        );
        assert_eq!(
            run(&c, claim_pod(&["data"])),
            (Status::success(), vec![ok(), unresolvable(&[BIND])])
        );
        let info = PodInfo::new_v135(claim_pod(&["data"]), 0, 0);
        let b = crate::sched::volume_binder::bindings_for(&c, &info, &c.nodes()[0]);
        assert_eq!(b.len(), 1);
        assert_eq!(b[0].claim, "data");
        assert_eq!(
            b[0].pv.as_deref(),
            Some("small-a"),
            "2Gi is the smallest ≥ 1500Mi"
        );
        // A pod whose claims are all bound binds nothing.
        let info = PodInfo::new_v135(pod(json!({})), 0, 0);
        assert!(crate::sched::volume_binder::bindings_for(&c, &info, &c.nodes()[0]).is_empty());
    }

    #[test]
    fn pre_score_skips_and_score_is_zero() {
        let c = setup(vec![], vec![], vec![]);
        let info = PodInfo::new_v135(pod(json!({})), 0, 0);
        let order = c.node_tree_order();
        let cx = Cx {
            cluster: &c,
            pod: &info,
            order: &order,
        };
        let pl = plugin();
        let nodes: Vec<&NodeInfo> = c.nodes().iter().collect();
        assert_eq!(pl.pre_score(&cx, &nodes).status, Status::skip());
        assert_eq!(pl.score(&cx, None, &c.nodes()[0]), Ok(0));
    }

    fn errors(v: serde_json::Value) -> Vec<String> {
        crate::v135::plugins::testkit::build_errors(build, v)
    }

    fn timeout(v: serde_json::Value) -> i64 {
        let p = build(Some(&v)).expect("valid args");
        p.as_any()
            .downcast_ref::<VolumeBinding>()
            .expect("type")
            .bind_timeout_seconds
    }

    #[test]
    fn args_default_to_600_seconds_and_accept_their_type_meta() {
        let p = build(None).expect("defaults");
        let vb = p.as_any().downcast_ref::<VolumeBinding>().expect("type");
        assert_eq!(vb.bind_timeout_seconds, 600);
        assert_eq!(timeout(json!({})), 600);
        assert_eq!(timeout(json!({"bindTimeoutSeconds": null})), 600);
        assert_eq!(timeout(json!({"bindTimeoutSeconds": 0})), 0);
        assert_eq!(
            timeout(json!({"kind": "VolumeBindingArgs",
                "apiVersion": "kubescheduler.config.k8s.io/v1", "bindTimeoutSeconds": 30, "shape": null})),
            30
        );
    }

    #[test]
    fn args_are_validated_with_upstreams_wording_all_at_once() {
        assert_eq!(
            errors(json!({"bindTimeoutSeconds": -1})),
            ["bindTimeoutSeconds: Invalid value: -1: invalid BindTimeoutSeconds, should not be a negative value"]
        );
        assert_eq!(
            errors(json!({"bindTimeoutSeconds": -5, "shape": [
                {"utilization": 0, "score": 10}, {"utilization": 100, "score": 0}]})),
            [
                "bindTimeoutSeconds: Invalid value: -5: invalid BindTimeoutSeconds, should not be a negative value",
                "shape: Invalid value: []config.UtilizationShapePoint{config.UtilizationShapePoint{Utilization:0, Score:10}, config.UtilizationShapePoint{Utilization:100, Score:0}}: unexpected field `shape`, remove it or turn on the feature gate StorageCapacityScoring"
            ]
        );
        // An empty list is still set (not nil).
        assert_eq!(
            errors(json!({"shape": []})),
            ["shape: Invalid value: []config.UtilizationShapePoint{}: unexpected field `shape`, remove it or turn on the feature gate StorageCapacityScoring"]
        );
    }

    #[test]
    fn args_are_decoded_strictly() {
        let e = errors(json!({"bindTimeout": 5}));
        assert_eq!(e.len(), 1);
        assert!(e[0].contains("unknown field `bindTimeout`"), "{e:?}");
        let e = errors(json!({"shape": [{"utilization": 0, "score": 10, "x": 1}]}));
        assert!(
            e[0].starts_with("shape[0]") && e[0].contains("unknown field `x`"),
            "{e:?}"
        );
        let e = errors(json!({"bindTimeoutSeconds": "600"}));
        assert!(
            e[0].starts_with("bindTimeoutSeconds: invalid type"),
            "{e:?}"
        );
    }
}
