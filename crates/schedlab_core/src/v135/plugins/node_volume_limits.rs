//! `NodeVolumeLimits` (v1.35, `nodevolumelimits/csi.go`, reference §4.9): PreFilter, Filter.
//! The CSI plugin is the only volume-limit plugin left; the EBS/GCE PD/Azure Disk/Cinder ones
//! are gone.
//!
//! - PreFilter: `Skip` unless the pod has a claim or an inline volume that can migrate to CSI
//!   (GCE PD, AWS EBS, Azure Disk, Cinder).
//! - Filter counts, per CSI driver, the unique volumes (`driver/handle`) of the pod and of the
//!   pods on the node, and compares with the node's CSINode
//!   (`spec.drivers[].allocatable.count`, by driver name; the node's `attachable-volumes-*`
//!   allocatable is no longer read). A node without a CSINode or without any count fits, and so
//!   does a driver without a count. Volumes already on the node are not counted twice.
//!   Over a limit: Unschedulable `node(s) exceed max volume count`.
//! - A claim: its bound volume's `spec.csi` (driver, handle). An in-tree volume (a bound PV's
//!   EBS/GCE PD/Azure Disk/Cinder source, or the same inline) counts for its CSI driver when the
//!   node has a CSINode (`isCSIMigrationOn`: these four are always migrated in v1.35;
//!   Portworx only when the CSINode's migrated-plugins annotation lists it). A claim without a
//!   volume name, or whose volume is missing, counts once for its class's provisioner (the
//!   class from the beta annotation or the field; an in-tree provisioner counts for its CSI
//!   driver when migrated, others not at all).
//! - A claim of the new pod that does not exist: UnschedulableAndUnresolvable
//!   `looking up PVC NS/NAME: persistentvolumeclaim "NAME" not found`; a claim volume with an
//!   empty name: Error `PersistentVolumeClaim had no name`. Missing claims of pods already on
//!   the node are not counted.
//!
//! Deviations: VolumeAttachment objects are not modelled (only the pods' volumes count). An
//! in-tree volume's handle is its in-tree id (EBS `aws://zone/vol-x` shortened to `vol-x`),
//! where upstream translates it to the CSI form (GCE `projects/UNSPECIFIED/zones/Z/disks/NAME`);
//! only uniqueness matters, but an inline GCE PD and a zone-labelled PV of the same disk count
//! once here and twice upstream. Generic ephemeral volumes are not modelled (their claims are
//! never created) and are ignored. The alpha `VolumeLimitScaling` check is off, as in v1.35.

use crate::cluster::{Cluster, NodeInfo, PodInfo};
use crate::model::field::FieldError;
use crate::model::pod::Pod;
use crate::model::volume::csi_name_of;
use crate::model::volume::{CsiNode, PersistentVolumeClaim, PersistentVolumeSpec};
use crate::queue::ClusterChange;
use crate::sched::Reason;
use crate::v135::plugin::QueueingHint;
use crate::v135::plugin::{Cx, Plugin, PluginState, PreFilterOutput};
use crate::v135::plugin::{PluginSpec, Point, Points};
use crate::v135::status::Code;
use std::collections::BTreeMap;

/// The registry entry.
pub(crate) static SPEC: PluginSpec = PluginSpec {
    name: "NodeVolumeLimits",
    points: Points::of(&[Point::PreFilter, Point::Filter]),
    default_enabled: true,
    default_weight: None,
    args_kind: None,
    args_checked_by_validation: false,
    build,
};

/// `ErrReasonMaxVolumeCountExceeded`.
pub(crate) const ERR_REASON_MAX_VOLUME_COUNT: &str = "node(s) exceed max volume count";

/// In-tree plugin names csi-translation-lib can migrate (`IsMigratableIntreePluginByName`).
const MIGRATABLE_PLUGINS: [&str; 7] = [
    "kubernetes.io/aws-ebs",
    "kubernetes.io/gce-pd",
    "kubernetes.io/azure-disk",
    "kubernetes.io/azure-file",
    "kubernetes.io/cinder",
    "kubernetes.io/vsphere-volume",
    "kubernetes.io/portworx-volume",
];

/// The plugin.
pub(crate) struct NodeVolumeLimits;

/// Why a pod's volumes could not be listed.
enum ListError {
    /// A claim of the new pod is missing (UnschedulableAndUnresolvable).
    NotFound(String),
    /// Anything else (Error).
    Other(&'static str),
}

impl ListError {
    fn message(self) -> String {
        match self {
            ListError::NotFound(m) => m,
            ListError::Other(m) => m.to_string(),
        }
    }
}

/// `isCSIMigrationOn`, returning the CSI driver the plugin migrates to.
fn migrated_driver(csi: Option<&CsiNode>, plugin: &str) -> Option<&'static str> {
    let csi = csi?;
    match plugin {
        "kubernetes.io/aws-ebs"
        | "kubernetes.io/gce-pd"
        | "kubernetes.io/azure-disk"
        | "kubernetes.io/cinder" => csi_name_of(plugin),
        // CSIMigrationPortworx is on (GA); the node must list the plugin as migrated.
        "kubernetes.io/portworx-volume" => csi.migrated(plugin).then_some("pxd.portworx.com"),
        _ => None,
    }
}

/// The in-tree source of a volume spec: (plugin name, volume id).
fn in_tree(
    gce: Option<&crate::model::pod::GcePdSource>,
    ebs: Option<&crate::model::pod::EbsSource>,
    azure: Option<&crate::model::pod::AzureDiskSource>,
    cinder: Option<&crate::model::pod::CinderSource>,
) -> Option<(&'static str, String)> {
    if let Some(x) = gce {
        return Some(("kubernetes.io/gce-pd", x.pd_name.clone()));
    }
    if let Some(x) = ebs {
        // KubernetesVolumeIDToEBSVolumeID: `aws://<zone>/<id>` → `<id>`.
        let id = match x.volume_id.strip_prefix("aws://") {
            Some(rest) => rest.rsplit('/').next().unwrap_or(rest).to_string(),
            None => x.volume_id.clone(),
        };
        return Some(("kubernetes.io/aws-ebs", id));
    }
    if let Some(x) = azure {
        return Some(("kubernetes.io/azure-disk", x.disk_name.clone()));
    }
    cinder.map(|x| ("kubernetes.io/cinder", x.volume_id.clone()))
}

fn pv_in_tree(s: &PersistentVolumeSpec) -> Option<(&'static str, String)> {
    in_tree(
        s.gce_persistent_disk.as_ref(),
        s.aws_elastic_block_store.as_ref(),
        s.azure_disk.as_ref(),
        s.cinder.as_ref(),
    )
}

/// `getCSIDriverInfoFromSC`: the class's provisioner, with a handle unique to the claim.
fn driver_from_class(
    cluster: &Cluster,
    csi: Option<&CsiNode>,
    pvc: &PersistentVolumeClaim,
    ns: &str,
) -> Option<(String, String)> {
    let class_name = pvc.class();
    if class_name.is_empty() {
        return None;
    }
    let class = cluster.volumes().class(class_name)?;
    // Upstream prefixes a random string; a NUL cannot collide with a real handle.
    let handle = format!("\u{0}claim-{ns}/{}", pvc.metadata.name);
    let prov = class.provisioner.as_str();
    if MIGRATABLE_PLUGINS.contains(&prov) {
        return migrated_driver(csi, prov).map(|d| (d.to_string(), handle));
    }
    Some((prov.to_string(), handle))
}

/// `getCSIDriverInfo`: (driver, handle) of a claim.
fn driver_of_claim(
    cluster: &Cluster,
    csi: Option<&CsiNode>,
    pvc: &PersistentVolumeClaim,
    ns: &str,
) -> Option<(String, String)> {
    let pv_name = &pvc.spec.volume_name;
    let pv = match (pv_name.is_empty(), cluster.volumes().pv(pv_name)) {
        (false, Some(pv)) => pv,
        _ => return driver_from_class(cluster, csi, pvc, ns),
    };
    if let Some(c) = &pv.spec.csi {
        return Some((c.driver.clone(), c.volume_handle.clone()));
    }
    let (plugin, id) = pv_in_tree(&pv.spec)?;
    migrated_driver(csi, plugin).map(|d| (d.to_string(), id))
}

/// `filterAttachableVolumes`: the pod's countable volumes, `driver/handle` → driver.
fn attachable(
    cluster: &Cluster,
    csi: Option<&CsiNode>,
    pod: &Pod,
    new_pod: bool,
    out: &mut BTreeMap<String, String>,
) -> Result<(), ListError> {
    let ns = pod.metadata.namespace_or_default();
    for v in &pod.spec.volumes {
        let found = if let Some(src) = &v.persistent_volume_claim {
            if src.claim_name.is_empty() {
                return Err(ListError::Other("PersistentVolumeClaim had no name"));
            }
            let Some(pvc) = cluster.volumes().pvc(ns, &src.claim_name) else {
                if new_pod {
                    return Err(ListError::NotFound(format!(
                        "looking up PVC {ns}/{name}: persistentvolumeclaim {name:?} not found",
                        name = src.claim_name
                    )));
                }
                continue;
            };
            driver_of_claim(cluster, csi, pvc, ns)
        } else {
            // checkAttachableInlineVolume.
            in_tree(
                v.gce_persistent_disk.as_ref(),
                v.aws_elastic_block_store.as_ref(),
                v.azure_disk.as_ref(),
                v.cinder.as_ref(),
            )
            .and_then(|(plugin, id)| migrated_driver(csi, plugin).map(|d| (d.to_string(), id)))
        };
        if let Some((driver, handle)) = found {
            if !driver.is_empty() && !handle.is_empty() {
                out.insert(format!("{driver}/{handle}"), driver);
            }
        }
    }
    Ok(())
}

impl Plugin for NodeVolumeLimits {
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
        let counts = cx.pod.pod.spec.volumes.iter().any(|v| {
            v.persistent_volume_claim.is_some()
                || in_tree(
                    v.gce_persistent_disk.as_ref(),
                    v.aws_elastic_block_store.as_ref(),
                    v.azure_disk.as_ref(),
                    v.cinder.as_ref(),
                )
                .is_some()
        });
        if counts {
            PreFilterOutput::default()
        } else {
            PreFilterOutput::skip()
        }
    }

    fn filter(
        &self,
        cx: &Cx,
        _state: Option<&dyn PluginState>,
        node: &NodeInfo,
        reasons: &mut Vec<Reason>,
    ) -> Code {
        let pod = &cx.pod.pod;
        if pod.spec.volumes.is_empty() {
            return Code::Success;
        }
        let csi = cx.cluster.volumes().csi_node(node.name());
        let mut new = BTreeMap::new();
        match attachable(cx.cluster, csi, pod, true, &mut new) {
            Ok(()) => {}
            Err(ListError::NotFound(m)) => {
                reasons.push(m.into());
                return Code::UnschedulableAndUnresolvable;
            }
            Err(ListError::Other(m)) => {
                reasons.push(m.into());
                return Code::Error;
            }
        }
        if new.is_empty() {
            return Code::Success;
        }
        // getVolumeLimits: the CSINode's counts, by driver name.
        let limits: BTreeMap<&str, i64> = csi
            .map(|c| {
                c.spec
                    .drivers
                    .iter()
                    .filter_map(|d| Some((d.name.as_str(), d.allocatable.as_ref()?.count?)))
                    .collect()
            })
            .unwrap_or_default();
        if limits.is_empty() {
            return Code::Success;
        }
        let mut attached = BTreeMap::new();
        for &p in node.pods() {
            // Only an unnamed claim fails here: missing claims of placed pods are skipped.
            if let Err(e) = attachable(
                cx.cluster,
                csi,
                &cx.cluster.pods()[p].pod,
                false,
                &mut attached,
            ) {
                reasons.push(e.message().into());
                return Code::Error;
            }
        }
        let mut attached_count: BTreeMap<&str, i64> = BTreeMap::new();
        for (name, driver) in &attached {
            new.remove(name);
            *attached_count.entry(driver.as_str()).or_default() += 1;
        }
        let mut new_count: BTreeMap<&str, i64> = BTreeMap::new();
        for driver in new.values() {
            *new_count.entry(driver.as_str()).or_default() += 1;
        }
        for (driver, count) in new_count {
            if let Some(&max) = limits.get(driver) {
                if attached_count.get(driver).copied().unwrap_or(0) + count > max {
                    reasons.push(ERR_REASON_MAX_VOLUME_COUNT.into());
                    return Code::Unschedulable;
                }
            }
        }
        Code::Success
    }
}

fn build(_args: Option<&serde_json::Value>) -> Result<Box<dyn Plugin>, Vec<FieldError>> {
    Ok(Box::new(NodeVolumeLimits))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::PodInfo;
    use crate::model::volume::{PersistentVolume, StorageClass};
    use crate::testing::{claim_pod, node, pod};
    use crate::v135::status::Status;
    use serde_json::{json, Value};

    const FULL: &str = "node(s) exceed max volume count";

    /// Node `n` has a CSINode (hostpath: 2, EBS: 1, Azure File: 0); node `free` has none, only
    /// a legacy `attachable-volumes-csi-*` allocatable that v1.35 no longer reads. On `n` run a
    /// pod using `held` and a pod whose claim `ghost` does not exist.
    fn setup() -> Cluster {
        let mut c = Cluster::default();
        c.add_node(node(json!({"metadata": {"name": "n"}})));
        c.add_node(node(
            json!({"metadata": {"name": "free"}, "status": {"allocatable": {
            "attachable-volumes-csi-hostpath.csi.k8s.io": 1}}}),
        ));
        for (i, claims) in [["held"], ["ghost"]].iter().enumerate() {
            let id = c.add_pod(PodInfo::new_v135(claim_pod(claims), 0, i));
            c.bind(id, 0);
        }
        let csi: CsiNode = serde_json::from_value(json!({"metadata": {"name": "n"},
            "spec": {"drivers": [
                {"name": "hostpath.csi.k8s.io", "allocatable": {"count": 2}},
                {"name": "ebs.csi.aws.com", "allocatable": {"count": 1}},
                {"name": "file.csi.azure.com", "allocatable": {"count": 0}},
                {"name": "no-limit.csi"}]}}))
        .expect("csinode");
        c.volumes_mut().csi_nodes.insert("n".into(), csi);
        let pvs: Vec<Value> = vec![
            json!({"metadata": {"name": "pv-held"}, "spec": {"csi": {"driver": "hostpath.csi.k8s.io", "volumeHandle": "h1"}}}),
            json!({"metadata": {"name": "pv-1"}, "spec": {"csi": {"driver": "hostpath.csi.k8s.io", "volumeHandle": "h2"}}}),
            json!({"metadata": {"name": "pv-same"}, "spec": {"csi": {"driver": "hostpath.csi.k8s.io", "volumeHandle": "h1"}}}),
            json!({"metadata": {"name": "pv-ebs"}, "spec": {"awsElasticBlockStore": {"volumeID": "aws://us-east-1a/vol-9"}}}),
        ];
        for v in pvs {
            let v: PersistentVolume = serde_json::from_value(v).expect("pv");
            c.volumes_mut().pvs.insert(v.metadata.name.clone(), v);
        }
        for (name, vol, class) in [
            ("held", "pv-held", ""),
            ("one", "pv-1", ""),
            ("same", "pv-same", ""),
            ("ebs-claim", "pv-ebs", ""),
            ("dangling", "gone", "hp"),
            ("new1", "", "hp"),
            ("other", "", "other"),
            ("intree", "", "gp2"),
            ("azf", "", "af"),
        ] {
            c.volumes_mut().add_pvc(
                serde_json::from_value(json!({"metadata": {"name": name},
                    "spec": {"volumeName": vol, "storageClassName": class}}))
                .expect("pvc"),
            );
        }
        for (name, prov) in [
            ("hp", "hostpath.csi.k8s.io"),
            ("other", "other.csi"),
            ("gp2", "kubernetes.io/aws-ebs"),
            ("af", "kubernetes.io/azure-file"),
        ] {
            let s: StorageClass =
                serde_json::from_value(json!({"metadata": {"name": name}, "provisioner": prov}))
                    .expect("class");
            c.volumes_mut().classes.insert(name.into(), s);
        }
        c
    }

    fn run(c: &Cluster, p: Pod) -> (Status, Vec<(Code, Vec<String>)>) {
        crate::v135::plugins::testkit::filter_statuses(&NodeVolumeLimits, c, p)
    }

    fn filter(c: &Cluster, p: Pod) -> Vec<(Code, Vec<String>)> {
        let (status, per_node) = run(c, p);
        assert!(status.is_success(), "{status:?}");
        per_node
    }

    fn ok() -> (Code, Vec<String>) {
        (Code::Success, vec![])
    }

    fn full() -> (Code, Vec<String>) {
        (Code::Unschedulable, vec![FULL.to_string()])
    }

    fn with_inline(claims: &[&str], inline: Value) -> Pod {
        let mut p = claim_pod(claims);
        p.spec
            .volumes
            .push(serde_json::from_value(inline).expect("volume"));
        p
    }

    #[test]
    fn pre_filter_skips_pods_without_countable_volumes() {
        let c = setup();
        assert_eq!(run(&c, pod(json!({}))).0, Status::skip());
        let iscsi = pod(json!({"spec": {"volumes": [{"name": "v", "iscsi": {"iqn": "q"}}]}}));
        assert_eq!(run(&c, iscsi).0, Status::skip());
        let gce = pod(
            json!({"spec": {"volumes": [{"name": "v", "gcePersistentDisk": {"pdName": "d"}}]}}),
        );
        assert_eq!(run(&c, gce).0, Status::success());
        assert_eq!(run(&c, claim_pod(&["one"])).0, Status::success());
    }

    #[test]
    fn csi_volumes_are_counted_per_driver_against_the_csinode() {
        let c = setup();
        // `n` holds h1 (ghost's claim is missing and not counted): 1 + 1 ≤ 2. `free` has no
        // CSINode, so no limit (its legacy allocatable is not read).
        assert_eq!(filter(&c, claim_pod(&["one"])), [ok(), ok()]);
        // 1 + 2 > 2.
        assert_eq!(filter(&c, claim_pod(&["one", "new1"])), [full(), ok()]);
        // h1 is already attached on `n`: only h2 is new.
        assert_eq!(filter(&c, claim_pod(&["one", "same"])), [ok(), ok()]);
        // The same claim twice is one volume.
        assert_eq!(filter(&c, claim_pod(&["new1", "new1"])), [ok(), ok()]);
        // A claim bound to a missing volume counts through its class: h2 + dangling = 1 + 2 > 2.
        assert_eq!(filter(&c, claim_pod(&["one", "dangling"])), [full(), ok()]);
        // A driver without a count is unlimited.
        assert_eq!(filter(&c, claim_pod(&["other", "other"])), [ok(), ok()]);
    }

    #[test]
    fn in_tree_volumes_count_for_their_csi_driver_on_nodes_with_a_csinode() {
        let c = setup();
        // The EBS PV (vol-9) counts for ebs.csi.aws.com: 0 + 1 ≤ 1.
        assert_eq!(filter(&c, claim_pod(&["ebs-claim"])), [ok(), ok()]);
        // An inline EBS volume with the same id (`aws://zone/` stripped) is the same volume.
        let same = with_inline(
            &["ebs-claim"],
            json!({"name": "x", "awsElasticBlockStore": {"volumeID": "vol-9"}}),
        );
        assert_eq!(filter(&c, same), [ok(), ok()]);
        // Another inline EBS volume: 2 > 1 on `n`; `free` has no CSINode, nothing migrates.
        let two = with_inline(
            &["ebs-claim"],
            json!({"name": "x", "awsElasticBlockStore": {"volumeID": "vol-8"}}),
        );
        assert_eq!(filter(&c, two), [full(), ok()]);
        // An unbound claim of an in-tree class counts for the migrated driver too.
        assert_eq!(
            filter(&c, claim_pod(&["intree", "ebs-claim"])),
            [full(), ok()]
        );
        // Azure File is never migrated for counting: its limit 0 is not reached.
        assert_eq!(filter(&c, claim_pod(&["azf"])), [ok(), ok()]);
    }

    #[test]
    fn a_missing_claim_of_the_pod_rejects_every_node() {
        let c = setup();
        let gone = (
            Code::UnschedulableAndUnresolvable,
            vec![
                "looking up PVC default/missing: persistentvolumeclaim \"missing\" not found"
                    .to_string(),
            ],
        );
        assert_eq!(
            filter(&c, claim_pod(&["new1", "missing"])),
            [gone.clone(), gone]
        );
        let unnamed = claim_pod(&[""]);
        let err = (
            Code::Error,
            vec!["PersistentVolumeClaim had no name".to_string()],
        );
        assert_eq!(filter(&c, unnamed), [err.clone(), err]);
    }
}
