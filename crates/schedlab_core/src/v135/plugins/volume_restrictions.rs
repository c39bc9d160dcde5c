//! `VolumeRestrictions` (v1.35, reference §4.8): PreFilter (with AddPod/RemovePod), Filter.
//!
//! - **Disk conflicts**, as v1.17's `NoDiskConflict` (the rule is
//!   [`crate::model::pod::Volume::conflicts_with`]'s): an inline GCE PD, AWS EBS, iSCSI or RBD volume
//!   of the pod that another pod on the node already uses → Unschedulable
//!   `node(s) had no available disk`.
//! - **ReadWriteOncePod claims**: PreFilter looks up every claim of the pod (in the pod's
//!   namespace); a missing one rejects the pod, UnschedulableAndUnresolvable, with the lister's
//!   text `persistentvolumeclaim "NAME" not found`. Each claim whose `accessModes` contains
//!   `ReadWriteOncePod` and that some pod already on a node uses (same namespace and claim
//!   name: the snapshot's `usedPVCSet`) counts one conflict. While the count is above 0 every
//!   node is rejected, Unschedulable:
//!   `node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by another pod`.
//!   AddPod/RemovePod add or remove the volumes of the added/removed pod whose claim name is one
//!   of those claims (upstream compares names only, not namespaces), so preemption can free a
//!   claim by evicting its user.
//! - PreFilter returns `Skip` when the pod has no inline disk volume and no conflicting claim.
//!   A pod without volumes costs nothing.
//!
//! Generic ephemeral volumes are not modelled (their claims are never created) and are
//! ignored, as upstream ignores them here.

use crate::cluster::{Cluster, NodeInfo, PodInfo};
use crate::model::field::FieldError;
use crate::model::pod::Volume;
use crate::queue::ClusterChange;
use crate::sched::Reason;
use crate::v135::plugin::QueueingHint;
use crate::v135::plugin::{state, state_mut, Cx, Plugin, PluginState, PreFilterOutput};
use crate::v135::plugin::{PluginSpec, Point, Points};
use crate::v135::status::Code;
use std::collections::BTreeSet;

/// The registry entry.
pub(crate) static SPEC: PluginSpec = PluginSpec {
    name: "VolumeRestrictions",
    points: Points::of(&[Point::PreFilter, Point::Filter]),
    default_enabled: true,
    default_weight: None,
    args_kind: None,
    args_checked_by_validation: false,
    build,
};

/// `ErrReasonDiskConflict`.
pub(crate) const ERR_REASON_DISK_CONFLICT: &str = "node(s) had no available disk";
/// `ErrReasonReadWriteOncePodConflict`.
pub(crate) const ERR_REASON_RWOP_CONFLICT: &str = "node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by another pod";
/// The access mode `ReadWriteOncePod`.
const READ_WRITE_ONCE_POD: &str = "ReadWriteOncePod";

/// The plugin.
pub(crate) struct VolumeRestrictions;

/// `preFilterState`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RestrictionsState {
    /// Names of the pod's claims with the ReadWriteOncePod access mode.
    rwop_claims: BTreeSet<String>,
    /// References to those claims by pods already placed (`conflictingPVCRefCount`).
    conflicts: i64,
}

impl RestrictionsState {
    /// `conflictingPVCRefCountForPod`: `pod`'s claim volumes named like one of the claims.
    fn refs_of(&self, pod: &PodInfo) -> i64 {
        if self.rwop_claims.is_empty() {
            return 0;
        }
        pod.pod
            .spec
            .volumes
            .iter()
            .filter_map(|v| v.persistent_volume_claim.as_ref())
            .filter(|c| self.rwop_claims.contains(&c.claim_name))
            .count() as i64
    }
}

/// `needsRestrictionsCheck`: a volume kind that can conflict on a node.
fn needs_check(v: &Volume) -> bool {
    v.gce_persistent_disk.is_some()
        || v.aws_elastic_block_store.is_some()
        || v.rbd.is_some()
        || v.iscsi.is_some()
}

impl Plugin for VolumeRestrictions {
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
        let volumes = &cx.pod.pod.spec.volumes;
        if volumes.is_empty() {
            return PreFilterOutput::skip();
        }
        let needs = volumes.iter().any(needs_check);
        let ns = cx.pod.namespace.as_str();
        // readWriteOncePodPVCsForPod: every claim must exist.
        let mut rwop_claims = BTreeSet::new();
        for src in volumes
            .iter()
            .filter_map(|v| v.persistent_volume_claim.as_ref())
        {
            let Some(pvc) = cx.cluster.volumes().pvc(ns, &src.claim_name) else {
                return PreFilterOutput::status(
                    Code::UnschedulableAndUnresolvable,
                    format!("persistentvolumeclaim {:?} not found", src.claim_name),
                );
            };
            if pvc
                .spec
                .access_modes
                .iter()
                .any(|m| m == READ_WRITE_ONCE_POD)
            {
                rwop_claims.insert(pvc.metadata.name.clone());
            }
        }
        // calPreFilterState: one conflict per claim some placed pod uses.
        let mut used: BTreeSet<&str> = BTreeSet::new();
        if !rwop_claims.is_empty() {
            for n in cx.cluster.nodes() {
                for &p in n.pods() {
                    let other = &cx.cluster.pods()[p];
                    if other.namespace != ns {
                        continue;
                    }
                    for c in other
                        .pod
                        .spec
                        .volumes
                        .iter()
                        .filter_map(|v| v.persistent_volume_claim.as_ref())
                    {
                        if let Some(name) = rwop_claims.get(&c.claim_name) {
                            used.insert(name.as_str());
                        }
                    }
                }
            }
        }
        let conflicts = used.len() as i64;
        if !needs && conflicts == 0 {
            return PreFilterOutput::skip();
        }
        PreFilterOutput::with_state(RestrictionsState {
            rwop_claims,
            conflicts,
        })
    }

    fn add_pod(&self, _cx: &Cx, s: &mut dyn PluginState, added: &PodInfo, _node: &NodeInfo) {
        if let Some(s) = state_mut::<RestrictionsState>(s) {
            s.conflicts += s.refs_of(added);
        }
    }

    fn remove_pod(&self, _cx: &Cx, s: &mut dyn PluginState, removed: &PodInfo, _node: &NodeInfo) {
        if let Some(s) = state_mut::<RestrictionsState>(s) {
            s.conflicts -= s.refs_of(removed);
        }
    }

    fn filter(
        &self,
        cx: &Cx,
        s: Option<&dyn PluginState>,
        node: &NodeInfo,
        reasons: &mut Vec<Reason>,
    ) -> Code {
        // satisfyVolumeConflicts.
        for v in cx.pod.pod.spec.volumes.iter().filter(|v| needs_check(v)) {
            for &p in node.pods() {
                if cx.cluster.pods()[p]
                    .pod
                    .spec
                    .volumes
                    .iter()
                    .any(|o| v.conflicts_with(o))
                {
                    reasons.push(ERR_REASON_DISK_CONFLICT.into());
                    return Code::Unschedulable;
                }
            }
        }
        // satisfyReadWriteOncePod.
        if state::<RestrictionsState>(s).is_some_and(|s| s.conflicts > 0) {
            reasons.push(ERR_REASON_RWOP_CONFLICT.into());
            return Code::Unschedulable;
        }
        Code::Success
    }
}

fn build(_args: Option<&serde_json::Value>) -> Result<Box<dyn Plugin>, Vec<FieldError>> {
    Ok(Box::new(VolumeRestrictions))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::Cluster;
    use crate::model::Pod;
    use crate::testing::{claim_pod, node, pod};
    use crate::v135::status::Status;
    use serde_json::{json, Value};

    /// Nodes `a` and `b`; each `(pod, node index)` placed; the claims added.
    fn setup(placed: Vec<(Pod, usize)>, pvcs: Vec<Value>) -> Cluster {
        let mut c = Cluster::default();
        for n in ["a", "b"] {
            c.add_node(node(json!({"metadata": {"name": n}})));
        }
        for (i, (p, n)) in placed.into_iter().enumerate() {
            let id = c.add_pod(PodInfo::new_v135(p, 0, i));
            c.bind(id, n);
        }
        for v in pvcs {
            c.volumes_mut()
                .add_pvc(serde_json::from_value(v).expect("pvc"));
        }
        c
    }

    fn named(mut p: Pod, name: &str, ns: &str) -> Pod {
        p.metadata.name = name.into();
        p.metadata.namespace = ns.into();
        p
    }

    fn claim(name: &str, ns: &str, modes: &[&str]) -> Value {
        json!({"metadata": {"name": name, "namespace": ns}, "spec": {"accessModes": modes}})
    }

    /// PreFilter's status, and (when it let Filter run) each node's code and reasons.
    type Outcome = (Status, Option<Vec<(Code, Vec<String>)>>);

    fn run_with(c: &Cluster, p: Pod, adjust: impl Fn(&Cx, &mut dyn PluginState)) -> Outcome {
        let info = PodInfo::new_v135(p, 0, usize::MAX);
        let order = c.node_tree_order();
        let cx = Cx {
            cluster: c,
            pod: &info,
            order: &order,
        };
        let mut out = VolumeRestrictions.pre_filter(&cx);
        if !out.status.is_success() {
            return (out.status, None);
        }
        if let Some(s) = out.state.as_deref_mut() {
            adjust(&cx, s);
        }
        let per_node = c
            .nodes()
            .iter()
            .map(|n| {
                let mut reasons = Vec::new();
                let code = VolumeRestrictions.filter(&cx, out.state.as_deref(), n, &mut reasons);
                (code, reasons.iter().map(|r| r.to_string()).collect())
            })
            .collect();
        (out.status, Some(per_node))
    }

    fn run(c: &Cluster, p: Pod) -> Outcome {
        run_with(c, p, |_, _| {})
    }

    fn ok() -> (Code, Vec<String>) {
        (Code::Success, vec![])
    }

    fn rejected(reason: &str) -> (Code, Vec<String>) {
        (Code::Unschedulable, vec![reason.to_string()])
    }

    #[test]
    fn a_pod_without_volumes_or_disks_is_skipped() {
        let c = setup(vec![], vec![claim("data", "default", &["ReadWriteOnce"])]);
        assert_eq!(run(&c, pod(json!({}))), (Status::skip(), None));
        // A claim that is not ReadWriteOncePod, and an emptyDir-like volume: nothing to check.
        assert_eq!(run(&c, claim_pod(&["data"])), (Status::skip(), None));
    }

    #[test]
    fn a_missing_claim_rejects_the_pod_in_pre_filter() {
        let c = setup(vec![], vec![claim("data", "default", &["ReadWriteOnce"])]);
        assert_eq!(
            run(&c, claim_pod(&["data", "gone"])),
            (
                Status::new(
                    Code::UnschedulableAndUnresolvable,
                    "persistentvolumeclaim \"gone\" not found"
                ),
                None
            )
        );
        // The claim is looked up in the pod's namespace.
        let other_ns = named(claim_pod(&["data"]), "p", "team");
        assert_eq!(
            run(&c, other_ns).0,
            Status::new(
                Code::UnschedulableAndUnresolvable,
                "persistentvolumeclaim \"data\" not found"
            )
        );
    }

    #[test]
    fn an_inline_disk_used_on_the_node_is_a_conflict() {
        let disk = |read_only: bool| {
            pod(json!({"spec": {"volumes": [{"name": "d",
                "gcePersistentDisk": {"pdName": "pd-1", "readOnly": read_only}}]}}))
        };
        // The writer is on `a`: a second writer conflicts there only.
        let c = setup(vec![(disk(false), 0)], vec![]);
        assert_eq!(
            run(&c, disk(false)),
            (
                Status::success(),
                Some(vec![rejected("node(s) had no available disk"), ok()])
            )
        );
        // Both read-only: no conflict.
        let c = setup(vec![(disk(true), 0)], vec![]);
        assert_eq!(run(&c, disk(true)).1, Some(vec![ok(), ok()]));
        // EBS conflicts even read-only.
        let ebs = || {
            pod(json!({"spec": {"volumes": [{"name": "d",
                "awsElasticBlockStore": {"volumeID": "vol-1", "readOnly": true}}]}}))
        };
        let c = setup(vec![(ebs(), 1)], vec![]);
        assert_eq!(
            run(&c, ebs()).1,
            Some(vec![ok(), rejected("node(s) had no available disk")])
        );
    }

    const RWOP: &str = "node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by another pod";

    #[test]
    fn a_read_write_once_pod_claim_in_use_rejects_every_node() {
        let pvcs = vec![
            claim("solo", "default", &["ReadWriteOncePod"]),
            claim("solo", "team", &["ReadWriteOncePod"]),
        ];
        // Nobody uses it yet: Skip.
        let c = setup(vec![], pvcs.clone());
        assert_eq!(run(&c, claim_pod(&["solo"])), (Status::skip(), None));
        // Used by a pod on `b`: both nodes are rejected, Unschedulable (preemption may help).
        let c = setup(
            vec![(named(claim_pod(&["solo"]), "holder", "default"), 1)],
            pvcs.clone(),
        );
        assert_eq!(
            run(&c, claim_pod(&["solo"])),
            (
                Status::success(),
                Some(vec![rejected(RWOP), rejected(RWOP)])
            )
        );
        // The same claim name in another namespace is another claim.
        let c = setup(
            vec![(named(claim_pod(&["solo"]), "holder", "team"), 1)],
            pvcs,
        );
        assert_eq!(run(&c, claim_pod(&["solo"])), (Status::skip(), None));
    }

    #[test]
    fn add_pod_and_remove_pod_move_the_conflict_count() {
        let pvcs = vec![
            claim("solo", "default", &["ReadWriteOncePod"]),
            claim("solo", "team", &["ReadWriteOncePod"]),
        ];
        let c = setup(
            vec![(named(claim_pod(&["solo"]), "holder", "default"), 1)],
            pvcs,
        );
        // Removing the holder (a preemption victim) frees the claim on every node.
        let holder = c.pods()[0].clone();
        let freed = run_with(&c, claim_pod(&["solo"]), |cx, s| {
            VolumeRestrictions.remove_pod(cx, s, &holder, &cx.cluster.nodes()[1]);
        });
        assert_eq!(freed.1, Some(vec![ok(), ok()]));
        // Adding a pod with the same claim name counts again, whatever its namespace
        // (upstream compares names only).
        let stranger = PodInfo::new_v135(named(claim_pod(&["solo"]), "s", "team"), 0, 9);
        let both = run_with(&c, claim_pod(&["solo"]), |cx, s| {
            VolumeRestrictions.remove_pod(cx, s, &holder, &cx.cluster.nodes()[1]);
            VolumeRestrictions.add_pod(cx, s, &stranger, &cx.cluster.nodes()[0]);
        });
        assert_eq!(both.1, Some(vec![rejected(RWOP), rejected(RWOP)]));
    }

    #[test]
    fn the_disk_conflict_is_reported_before_the_claim_conflict() {
        let p = || {
            pod(json!({"spec": {"volumes": [
                {"name": "d", "awsElasticBlockStore": {"volumeID": "vol-1"}},
                {"name": "c", "persistentVolumeClaim": {"claimName": "solo"}}]}}))
        };
        let c = setup(
            vec![(named(p(), "holder", "default"), 0)],
            vec![claim(
                "solo",
                "default",
                &["ReadWriteOnce", "ReadWriteOncePod"],
            )],
        );
        assert_eq!(
            run(&c, p()).1,
            Some(vec![
                rejected("node(s) had no available disk"),
                rejected(RWOP)
            ])
        );
    }

    #[test]
    fn build_takes_no_args() {
        assert_eq!(build(None).expect("builds").name(), "VolumeRestrictions");
    }
}
