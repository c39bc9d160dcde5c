//! `VolumeZone` (v1.35, `volumezone/volume_zone.go`, reference §4.11): PreFilter, Filter.
//!
//! - **PreFilter** walks the pod's claims in volume order and gathers the topology labels of
//!   their bound volumes: `failure-domain.beta.kubernetes.io/zone`, `.../region`,
//!   `topology.kubernetes.io/zone`, `topology.kubernetes.io/region`, in that order, each value
//!   split on `__` (`LabelZonesToSet`; an unparsable value is ignored). An unbound claim of a
//!   `WaitForFirstConsumer` class is skipped. Everything else rejects the pod,
//!   UnschedulableAndUnresolvable: `PersistentVolumeClaim had no name`, the lister's
//!   `persistentvolumeclaim "NAME" not found`, `PersistentVolumeClaim had no pv name and
//!   storageClass name`, `storageclass.storage.k8s.io "NAME" not found`,
//!   `VolumeBindingMode not set for StorageClass "NAME"`, `PersistentVolume had no name` (an
//!   unbound claim of another mode) or `persistentvolume "NAME" not found`. No label at all:
//!   `Skip` (a pod without claims costs nothing).
//! - **Filter**: a node with none of the four labels fits. Otherwise each gathered label must
//!   be on the node (a beta key falls back to its GA key on the node) with one of the
//!   volume's values, else UnschedulableAndUnresolvable `node(s) had no available volume zone`.
//!
//! v1.17's `NoVolumeZoneConflict` read only the beta labels and aborted the cycle on errors.

use crate::cluster::{
    Cluster, NodeInfo, PodInfo, REGION_LABEL, REGION_LABEL_GA, ZONE_LABEL, ZONE_LABEL_GA,
};
use crate::model::field::FieldError;
use crate::model::volume::label_zones_to_set;
use crate::queue::ClusterChange;
use crate::sched::Reason;
use crate::v135::plugin::QueueingHint;
use crate::v135::plugin::{state, Cx, Plugin, PluginState, PreFilterOutput};
use crate::v135::plugin::{PluginSpec, Point, Points};
use crate::v135::status::Code;

/// The registry entry.
pub(crate) static SPEC: PluginSpec = PluginSpec {
    name: "VolumeZone",
    points: Points::of(&[Point::PreFilter, Point::Filter]),
    default_enabled: true,
    default_weight: None,
    args_kind: None,
    args_checked_by_validation: false,
    build,
};

/// `ErrReasonConflict`.
pub(crate) const ERR_REASON_CONFLICT: &str = "node(s) had no available volume zone";

/// `topologyLabels`, in upstream's order.
const TOPOLOGY_LABELS: [&str; 4] = [ZONE_LABEL, REGION_LABEL, ZONE_LABEL_GA, REGION_LABEL_GA];

/// `translateToGALabel`.
fn ga_label(key: &str) -> &str {
    match key {
        REGION_LABEL => REGION_LABEL_GA,
        ZONE_LABEL => ZONE_LABEL_GA,
        other => other,
    }
}

/// The plugin.
pub(crate) struct VolumeZone;

/// `pvTopology`: a volume's label key and its allowed values.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Topology {
    key: &'static str,
    values: Vec<String>,
}

impl Plugin for VolumeZone {
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
        let vols = &cx.cluster.volumes();
        let ns = cx.pod.namespace.as_str();
        let reject = |m: String| PreFilterOutput::status(Code::UnschedulableAndUnresolvable, m);
        let mut topologies: Vec<Topology> = Vec::new();
        for src in cx
            .pod
            .pod
            .spec
            .volumes
            .iter()
            .filter_map(|v| v.persistent_volume_claim.as_ref())
        {
            let name = &src.claim_name;
            if name.is_empty() {
                return reject("PersistentVolumeClaim had no name".into());
            }
            let Some(pvc) = vols.pvc(ns, name) else {
                return reject(format!("persistentvolumeclaim {name:?} not found"));
            };
            let pv_name = &pvc.spec.volume_name;
            if pv_name.is_empty() {
                let class_name = pvc.class();
                if class_name.is_empty() {
                    return reject(
                        "PersistentVolumeClaim had no pv name and storageClass name".into(),
                    );
                }
                let Some(class) = vols.class(class_name) else {
                    return reject(format!(
                        "storageclass.storage.k8s.io {class_name:?} not found"
                    ));
                };
                match class.volume_binding_mode.as_deref() {
                    None => {
                        return reject(format!(
                            "VolumeBindingMode not set for StorageClass {class_name:?}"
                        ))
                    }
                    Some("WaitForFirstConsumer") => continue,
                    Some(_) => return reject("PersistentVolume had no name".into()),
                }
            }
            let Some(pv) = vols.pv(pv_name) else {
                return reject(format!("persistentvolume {pv_name:?} not found"));
            };
            for key in TOPOLOGY_LABELS {
                let Some(value) = pv.metadata.labels.get(key) else {
                    continue;
                };
                // An unparsable value is ignored (upstream logs it).
                if let Some(set) = label_zones_to_set(value) {
                    topologies.push(Topology {
                        key,
                        values: set.into_iter().map(String::from).collect(),
                    });
                }
            }
        }
        if topologies.is_empty() {
            return PreFilterOutput::skip();
        }
        PreFilterOutput::with_state(topologies)
    }

    fn filter(
        &self,
        _cx: &Cx,
        s: Option<&dyn PluginState>,
        node: &NodeInfo,
        reasons: &mut Vec<Reason>,
    ) -> Code {
        let Some(topologies) = state::<Vec<Topology>>(s) else {
            return Code::Success;
        };
        let labels = node.labels();
        if !TOPOLOGY_LABELS.iter().any(|k| labels.contains_key(*k)) {
            // A node without topology labels (single-zone clusters) fits.
            return Code::Success;
        }
        for t in topologies {
            let value = labels.get(t.key).or_else(|| labels.get(ga_label(t.key)));
            if !value.is_some_and(|v| t.values.iter().any(|z| z == v)) {
                reasons.push(ERR_REASON_CONFLICT.into());
                return Code::UnschedulableAndUnresolvable;
            }
        }
        Code::Success
    }
}

fn build(_args: Option<&serde_json::Value>) -> Result<Box<dyn Plugin>, Vec<FieldError>> {
    Ok(Box::new(VolumeZone))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::Cluster;
    use crate::model::volume::{PersistentVolume, StorageClass};
    use crate::model::Pod;
    use crate::testing::{claim_pod, node, pod};
    use crate::v135::status::Status;
    use serde_json::{json, Value};

    const BETA_ZONE: &str = "failure-domain.beta.kubernetes.io/zone";
    const BETA_REGION: &str = "failure-domain.beta.kubernetes.io/region";
    const GA_ZONE: &str = "topology.kubernetes.io/zone";
    const GA_REGION: &str = "topology.kubernetes.io/region";

    /// Nodes: `beta-a` (beta zone-a, region r1), `ga-b` (GA zone-b, region r1), `ga-a` (GA
    /// zone-a, region r2), `plain` (no topology label). Each claim `c-<pv>` is bound to `<pv>`.
    fn setup(pvs: Vec<(&str, Value)>, pvcs: Vec<Value>, classes: Vec<Value>) -> Cluster {
        let mut c = Cluster::default();
        c.add_node(node(json!({"metadata": {"name": "beta-a", "labels": {
            BETA_ZONE: "zone-a", BETA_REGION: "r1"}}})));
        c.add_node(node(json!({"metadata": {"name": "ga-b", "labels": {
            GA_ZONE: "zone-b", GA_REGION: "r1"}}})));
        c.add_node(node(json!({"metadata": {"name": "ga-a", "labels": {
            GA_ZONE: "zone-a", GA_REGION: "r2"}}})));
        c.add_node(node(
            json!({"metadata": {"name": "plain", "labels": {"zone": "x"}}}),
        ));
        for (name, labels) in pvs {
            let v: PersistentVolume =
                serde_json::from_value(json!({"metadata": {"name": name, "labels": labels}}))
                    .expect("pv");
            c.volumes_mut().pvs.insert(name.into(), v);
            c.volumes_mut().add_pvc(
                serde_json::from_value(
                    json!({"metadata": {"name": format!("c-{name}")}, "spec": {"volumeName": name}}),
                )
                .expect("pvc"),
            );
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

    fn run(c: &Cluster, p: Pod) -> (Status, Vec<(Code, Vec<String>)>) {
        crate::v135::plugins::testkit::filter_statuses(&VolumeZone, c, p)
    }

    fn ok() -> (Code, Vec<String>) {
        (Code::Success, vec![])
    }

    fn no() -> (Code, Vec<String>) {
        (
            Code::UnschedulableAndUnresolvable,
            vec!["node(s) had no available volume zone".to_string()],
        )
    }

    #[test]
    fn zones_match_with_multi_zone_values_and_the_ga_fallback() {
        let c = setup(
            vec![
                ("pv-beta-a", json!({BETA_ZONE: "zone-a"})),
                ("pv-ga-a", json!({GA_ZONE: "zone-a"})),
                ("pv-ab", json!({BETA_ZONE: "zone-b__zone-a"})),
                ("pv-r2", json!({BETA_REGION: "r2"})),
                ("pv-a-r1", json!({GA_ZONE: "zone-a", GA_REGION: "r1"})),
            ],
            vec![],
            vec![],
        );
        // Nodes: beta-a, ga-b, ga-a, plain.
        // A beta key is matched on the node's beta label, else its GA label.
        assert_eq!(
            run(&c, claim_pod(&["c-pv-beta-a"])),
            (Status::success(), vec![ok(), no(), ok(), ok()])
        );
        // A GA key has no fallback: the beta-only node lacks it.
        assert_eq!(
            run(&c, claim_pod(&["c-pv-ga-a"])).1,
            [no(), no(), ok(), ok()]
        );
        // `zone-b__zone-a` allows both zones.
        assert_eq!(run(&c, claim_pod(&["c-pv-ab"])).1, [ok(), ok(), ok(), ok()]);
        assert_eq!(run(&c, claim_pod(&["c-pv-r2"])).1, [no(), no(), ok(), ok()]);
        // Every label must match: no node has GA zone-a with GA region r1 (a GA key does not
        // fall back to beta-a's beta labels).
        assert_eq!(
            run(&c, claim_pod(&["c-pv-a-r1"])).1,
            [no(), no(), no(), ok()]
        );
        // All the pod's volumes count.
        assert_eq!(
            run(&c, claim_pod(&["c-pv-ab", "c-pv-r2"])).1,
            [no(), no(), ok(), ok()]
        );
    }

    #[test]
    fn pods_without_labelled_volumes_are_skipped() {
        let c = setup(
            vec![
                ("pv-plain", json!({"other": "x"})),
                ("pv-bad", json!({BETA_ZONE: "zone-a__"})),
            ],
            vec![json!({"metadata": {"name": "later"}, "spec": {"storageClassName": "wait"}})],
            vec![json!({"metadata": {"name": "wait"}, "provisioner": "p",
                "volumeBindingMode": "WaitForFirstConsumer"})],
        );
        assert_eq!(run(&c, pod(json!({}))).0, Status::skip());
        assert_eq!(run(&c, claim_pod(&["c-pv-plain"])).0, Status::skip());
        // An unparsable value is ignored.
        assert_eq!(run(&c, claim_pod(&["c-pv-bad"])).0, Status::skip());
        // An unbound WaitForFirstConsumer claim is skipped.
        assert_eq!(run(&c, claim_pod(&["later"])).0, Status::skip());
    }

    #[test]
    fn claim_problems_reject_the_pod_in_pre_filter() {
        let c = setup(
            vec![("pv-a", json!({BETA_ZONE: "zone-a"}))],
            vec![
                json!({"metadata": {"name": "classless"}, "spec": {}}),
                json!({"metadata": {"name": "no-class-obj"}, "spec": {"storageClassName": "nope"}}),
                json!({"metadata": {"name": "unset"}, "spec": {"storageClassName": "unset"}}),
                json!({"metadata": {"name": "immediate"}, "spec": {"storageClassName": "imm"}}),
                json!({"metadata": {"name": "dangling"}, "spec": {"volumeName": "pv-gone"}}),
            ],
            vec![
                json!({"metadata": {"name": "unset"}, "provisioner": "p"}),
                json!({"metadata": {"name": "imm"}, "provisioner": "p", "volumeBindingMode": "Immediate"}),
            ],
        );
        let uu = |m: &str| Status::new(Code::UnschedulableAndUnresolvable, m.to_string());
        let cases = [
            ("", "PersistentVolumeClaim had no name"),
            ("gone", "persistentvolumeclaim \"gone\" not found"),
            (
                "classless",
                "PersistentVolumeClaim had no pv name and storageClass name",
            ),
            (
                "no-class-obj",
                "storageclass.storage.k8s.io \"nope\" not found",
            ),
            (
                "unset",
                "VolumeBindingMode not set for StorageClass \"unset\"",
            ),
            ("immediate", "PersistentVolume had no name"),
            ("dangling", "persistentvolume \"pv-gone\" not found"),
        ];
        for (claim, message) in cases {
            assert_eq!(run(&c, claim_pod(&[claim])).0, uu(message), "{claim:?}");
        }
        // The walk stops at the first problem, even after a good volume.
        assert_eq!(
            run(&c, claim_pod(&["c-pv-a", "gone"])).0,
            uu("persistentvolumeclaim \"gone\" not found")
        );
    }
}
