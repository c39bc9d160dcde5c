//! `CheckVolumeBinding` (filters.md B.14): the v1.17 volume binder's `FindPodVolumes`.
//!
//! The pod's claims are sorted once per cycle in `pre_filter` (`getPodVolumes`):
//! - **bound**: `spec.volumeName` set *and* the `pv.kubernetes.io/bind-completed` annotation
//!   (`isPVCFullyBound`); its volume's required node affinity must match the node, else
//!   `node(s) had volume node affinity conflict`. A bound volume missing from the input is the
//!   binder's error `could not find v1.PersistentVolume "NAME"`.
//! - **delayed**: unbound, and its StorageClass has `volumeBindingMode: WaitForFirstConsumer`.
//!   A claim already given a node for provisioning (`volume.kubernetes.io/selected-node`) fits
//!   only that node. Otherwise, claims by increasing request, each takes the smallest available
//!   volume (`status.phase: Available`, no `claimRef` or pre-bound to it, same class, capacity ≥
//!   request, access modes ⊇ the claim's, same volume mode, selector, node affinity); claims left
//!   over need the class to provision (`provisioner` not empty nor `kubernetes.io/no-provisioner`,
//!   `allowedTopologies` matching the node). Else
//!   `node(s) didn't find available persistent volumes to bind`.
//! - **immediate**: any other unbound claim (no class, a class not in the input, `Immediate`, or
//!   a claim pre-bound by `volumeName` without the annotation). v1.17 returns the error
//!   `pod has unbound immediate PersistentVolumeClaims`, which aborts the cycle.
//! - A class without `volumeBindingMode` is the error `VolumeBindingMode not set for StorageClass "NAME"`.
//!
//! Errors are raised only when a node reaches this predicate, as upstream.
//!
//! Deviations: upstream walks the volumes of a class in informer (hash) order and keeps the first
//! of equally small ones; schedlab walks them in name order. When the pod binds, the bindings of
//! the chosen node are applied even if the algorithm does not run this predicate (upstream would
//! then wait for the claims and time out). Binding is applied in its final state at once (the
//! PV gets the `claimRef`, the claim the volume name and `bind-completed`), where upstream
//! assumes it and the PV controller completes it asynchronously. Dynamic provisioning is not
//! simulated: a provisioned claim only gets `volume.kubernetes.io/selected-node`, so a later pod
//! using the same claim is held to that node (upstream: to that node while provisioning is in
//! flight, then to the new volume's node affinity).

use super::PredicateSpec;
use crate::cluster::NodeInfo;
use crate::sched::volume_binder::{find_pod_volumes, has_claims, pod_claims, PodClaims};
use crate::v117::{CycleContext, CycleError, FailureReason, FilterPlugin, FilterResult, State};

/// `CheckVolumeBinding` in the legacy registry.
pub(crate) static SPEC: PredicateSpec = PredicateSpec {
    name: "CheckVolumeBinding",
    order: Some(16),
    plain: true,
    default_provider: Some(9),
    mandatory: false,
    build: Some(|| Box::new(CheckVolumeBinding)),
};

/// The predicate.
pub(crate) struct CheckVolumeBinding;

impl FilterPlugin for CheckVolumeBinding {
    fn pre_filter(&self, cx: &CycleContext) -> Result<State, CycleError> {
        if !has_claims(cx.pod) {
            return Ok(State::skip());
        }
        Ok(State::new(
            pod_claims(cx.cluster, cx.pod).map_err(CycleError),
        ))
    }

    fn filter(&self, cx: &CycleContext, state: &State, node: &NodeInfo) -> FilterResult {
        let claims = match state.get::<Result<PodClaims, CycleError>>() {
            Some(Ok(c)) => c,
            Some(Err(e)) => return Err(e.clone()),
            None => return Ok(vec![]),
        };
        let (unbound_ok, bound_ok, _) =
            find_pod_volumes(cx.cluster, claims, node.name(), node.labels()).map_err(CycleError)?;
        let mut reasons = Vec::new();
        if !bound_ok {
            reasons.push(FailureReason::VolumeNodeConflict.into());
        }
        if !unbound_ok {
            reasons.push(FailureReason::VolumeBindConflict.into());
        }
        Ok(reasons)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::{Cluster, PodInfo};
    use crate::model::volume::{PersistentVolume, StorageClass};
    use crate::sched::volume_binder::bindings_for;
    use crate::testing::*;
    use serde_json::{json, Value};

    fn pv(v: Value) -> PersistentVolume {
        serde_json::from_value(v).expect("pv")
    }

    fn with_storage(
        mut c: Cluster,
        pvs: Vec<Value>,
        pvcs: Vec<Value>,
        classes: Vec<Value>,
    ) -> Cluster {
        for v in pvs {
            let v = pv(v);
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

    fn zone_affinity(zone: &str) -> Value {
        json!({"required": {"nodeSelectorTerms": [{"matchExpressions": [
            {"key": "zone", "operator": "In", "values": [zone]}]}]}})
    }

    fn nodes() -> Vec<crate::model::Node> {
        vec![
            node(json!({"metadata": {"name": "a", "labels": {"zone": "a"}}})),
            node(json!({"metadata": {"name": "b", "labels": {"zone": "b"}}})),
        ]
    }

    fn run(c: &Cluster, p: crate::model::Pod) -> Result<Vec<Vec<String>>, CycleError> {
        try_filter_all(&CheckVolumeBinding, c, p)?
            .into_iter()
            .collect()
    }

    const NODE_CONFLICT: &str = "node(s) had volume node affinity conflict";
    const BIND_CONFLICT: &str = "node(s) didn't find available persistent volumes to bind";

    #[test]
    fn bound_claims_follow_their_volume_node_affinity() {
        let c = with_storage(
            cluster(nodes(), vec![]),
            vec![
                json!({"metadata": {"name": "pv-a"}, "spec": {"nodeAffinity": zone_affinity("a")}}),
            ],
            vec![
                json!({"metadata": {"name": "data", "annotations": {"pv.kubernetes.io/bind-completed": "yes"}},
                        "spec": {"volumeName": "pv-a"}}),
            ],
            vec![],
        );
        assert_eq!(
            run(&c, claim_pod(&["data"])).unwrap(),
            [vec![], vec![NODE_CONFLICT.to_string()]]
        );
        assert_eq!(
            run(&c, pod(json!({}))).unwrap(),
            [Vec::<String>::new(), vec![]]
        );
    }

    #[test]
    fn bound_to_a_missing_volume_is_an_error() {
        let c = with_storage(
            cluster(nodes(), vec![]),
            vec![],
            vec![
                json!({"metadata": {"name": "data", "annotations": {"pv.kubernetes.io/bind-completed": "yes"}},
                        "spec": {"volumeName": "gone"}}),
            ],
            vec![],
        );
        assert_eq!(
            run(&c, claim_pod(&["data"])).unwrap_err().0,
            "could not find v1.PersistentVolume \"gone\""
        );
    }

    #[test]
    fn immediate_and_prebound_claims_are_errors() {
        let imm = "pod has unbound immediate PersistentVolumeClaims";
        let c = with_storage(
            cluster(nodes(), vec![]),
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
            assert_eq!(run(&c, claim_pod(&[claim])).unwrap_err().0, imm, "{claim}");
        }
        assert_eq!(
            run(&c, claim_pod(&["unset"])).unwrap_err().0,
            "VolumeBindingMode not set for StorageClass \"unset\""
        );
    }

    #[test]
    fn wait_for_first_consumer_takes_the_smallest_matching_volume() {
        let avail = |name: &str, size: &str, zone: &str| {
            json!({"metadata": {"name": name}, "spec": {"storageClassName": "local",
                "capacity": {"storage": size}, "accessModes": ["ReadWriteOnce"],
                "nodeAffinity": zone_affinity(zone)}, "status": {"phase": "Available"}})
        };
        let c = with_storage(
            cluster(nodes(), vec![]),
            vec![
                avail("big-a", "10Gi", "a"),
                avail("small-a", "2Gi", "a"),
                avail("tiny-a", "1Gi", "a"),
                // wrong phase, wrong mode: never chosen
                json!({"metadata": {"name": "pending-b"}, "spec": {"storageClassName": "local",
                    "capacity": {"storage": "5Gi"}, "nodeAffinity": zone_affinity("b")}}),
                json!({"metadata": {"name": "rox-b"}, "spec": {"storageClassName": "local",
                    "capacity": {"storage": "5Gi"}, "accessModes": ["ReadOnlyMany"],
                    "nodeAffinity": zone_affinity("b")}, "status": {"phase": "Available"}}),
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
            run(&c, claim_pod(&["data"])).unwrap(),
            [vec![], vec![BIND_CONFLICT.to_string()]]
        );
        let info = PodInfo::new(claim_pod(&["data"]), 0, 0);
        let b = bindings_for(&c, &info, &c.nodes()[0]);
        assert_eq!(
            b[0].pv.as_deref(),
            Some("small-a"),
            "2Gi is the smallest ≥ 1500Mi"
        );
    }

    #[test]
    fn a_provisioner_satisfies_what_no_volume_does() {
        let c = with_storage(
            cluster(nodes(), vec![]),
            vec![],
            vec![json!({"metadata": {"name": "data"}, "spec": {"storageClassName": "ssd"}})],
            vec![
                json!({"metadata": {"name": "ssd"}, "provisioner": "kubernetes.io/gce-pd",
                "volumeBindingMode": "WaitForFirstConsumer",
                "allowedTopologies": [{"matchLabelExpressions": [{"key": "zone", "values": ["b"]}]}]}),
            ],
        );
        assert_eq!(
            run(&c, claim_pod(&["data"])).unwrap(),
            [vec![BIND_CONFLICT.to_string()], vec![]]
        );
        let info = PodInfo::new(claim_pod(&["data"]), 0, 0);
        assert_eq!(bindings_for(&c, &info, &c.nodes()[1])[0].pv, None);
    }
}
