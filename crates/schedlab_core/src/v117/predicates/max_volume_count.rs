//! `MaxEBSVolumeCount`, `MaxGCEPDVolumeCount`, `MaxAzureDiskVolumeCount` and
//! `MaxCinderVolumeCount`: a node attaches at most so many volumes of one cloud type.
//!
//! Unique volume ids of that type among the pod's inline volumes are added to those already on
//! the node; more than the limit fails. Limits are upstream's defaults (EBS 39, or 25 on Nitro
//! instance types; GCE PD 16; Azure 16; Cinder 256), overridden by the node's allocatable
//! `attachable-volumes-*`.
//!
//! Claims count too (filters.md B.13): a claim bound to a volume of this type counts as that
//! volume's id; an unbound claim, or one whose volume is missing, counts (once per
//! namespace/name) when its `storageClassName` names a class whose provisioner is this type's
//! in-tree plugin (`kubernetes.io/aws-ebs`, `kubernetes.io/gce-pd`, `kubernetes.io/azure-disk`,
//! `kubernetes.io/cinder`); a claim not in the input is not counted. A claim with no name is the
//! error `PersistentVolumeClaim had no name`. When the node's CSINode lists the in-tree plugin in
//! `storage.alpha.kubernetes.io/migrated-plugins`, the node fits and `MaxCSIVolumeCountPred`
//! counts those volumes instead.
//!
//! Deviation: that last rule follows the reference; in v1.17 it also needs the per-plugin
//! `CSIMigrationAWS`/`GCE`/`AzureDisk`/`OpenStack` feature gates, which are off by default.

use super::PredicateSpec;
use crate::cluster::{Cluster, NodeInfo};
use crate::model::pod::Volume;
use crate::model::volume::PersistentVolume;
use crate::v117::{CycleContext, CycleError, FailureReason, FilterPlugin, FilterResult, State};
use std::collections::HashSet;

/// Which cloud volume type a checker counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum VolumeType {
    /// AWS EBS.
    Ebs,
    /// GCE persistent disk.
    GcePd,
    /// Azure disk.
    AzureDisk,
    /// OpenStack Cinder.
    Cinder,
}
/// `MaxEBSVolumeCount` in the legacy registry.
pub(crate) static EBS: PredicateSpec = PredicateSpec {
    name: "MaxEBSVolumeCount",
    order: Some(11),
    plain: true,
    default_provider: Some(1),
    mandatory: false,
    build: Some(|| Box::new(MaxVolumeCount(VolumeType::Ebs))),
};

/// `MaxGCEPDVolumeCount` in the legacy registry.
pub(crate) static GCE_PD: PredicateSpec = PredicateSpec {
    name: "MaxGCEPDVolumeCount",
    order: Some(12),
    plain: true,
    default_provider: Some(2),
    mandatory: false,
    build: Some(|| Box::new(MaxVolumeCount(VolumeType::GcePd))),
};

/// `MaxAzureDiskVolumeCount` in the legacy registry.
pub(crate) static AZURE_DISK: PredicateSpec = PredicateSpec {
    name: "MaxAzureDiskVolumeCount",
    order: Some(14),
    plain: true,
    default_provider: Some(3),
    mandatory: false,
    build: Some(|| Box::new(MaxVolumeCount(VolumeType::AzureDisk))),
};

/// `MaxCinderVolumeCount` in the legacy registry.
pub(crate) static CINDER: PredicateSpec = PredicateSpec {
    name: "MaxCinderVolumeCount",
    order: Some(15),
    plain: true,
    default_provider: None,
    mandatory: false,
    build: Some(|| Box::new(MaxVolumeCount(VolumeType::Cinder))),
};

/// The predicate for one volume type.
pub(crate) struct MaxVolumeCount(pub VolumeType);

impl VolumeType {
    fn id(self, v: &Volume) -> Option<&str> {
        match self {
            VolumeType::Ebs => v
                .aws_elastic_block_store
                .as_ref()
                .map(|s| s.volume_id.as_str()),
            VolumeType::GcePd => v.gce_persistent_disk.as_ref().map(|s| s.pd_name.as_str()),
            VolumeType::AzureDisk => v.azure_disk.as_ref().map(|s| s.disk_name.as_str()),
            VolumeType::Cinder => v.cinder.as_ref().map(|s| s.volume_id.as_str()),
        }
    }

    fn pv_id(self, pv: &PersistentVolume) -> Option<&str> {
        let s = &pv.spec;
        match self {
            VolumeType::Ebs => s
                .aws_elastic_block_store
                .as_ref()
                .map(|v| v.volume_id.as_str()),
            VolumeType::GcePd => s.gce_persistent_disk.as_ref().map(|v| v.pd_name.as_str()),
            VolumeType::AzureDisk => s.azure_disk.as_ref().map(|v| v.disk_name.as_str()),
            VolumeType::Cinder => s.cinder.as_ref().map(|v| v.volume_id.as_str()),
        }
    }

    /// The in-tree plugin (and provisioner) name.
    pub(crate) fn plugin(self) -> &'static str {
        match self {
            VolumeType::Ebs => "kubernetes.io/aws-ebs",
            VolumeType::GcePd => "kubernetes.io/gce-pd",
            VolumeType::AzureDisk => "kubernetes.io/azure-disk",
            VolumeType::Cinder => "kubernetes.io/cinder",
        }
    }

    /// `filterVolumes`: the ids of this type among `volumes` of a pod in `namespace`.
    fn filter_volumes(
        self,
        cluster: &Cluster,
        volumes: &[Volume],
        namespace: &str,
        out: &mut HashSet<String>,
    ) -> Result<(), CycleError> {
        for v in volumes {
            if let Some(id) = self.id(v) {
                out.insert(id.to_string());
                continue;
            }
            let Some(src) = &v.persistent_volume_claim else {
                continue;
            };
            if src.claim_name.is_empty() {
                return Err(CycleError("PersistentVolumeClaim had no name".into()));
            }
            // Unbound claims are told apart from volume ids by a prefix no id can carry.
            let claim_id = format!("\u{0}claim-{namespace}/{}", src.claim_name);
            let Some(pvc) = cluster.volumes().pvc(namespace, &src.claim_name) else {
                continue;
            };
            let matches_provisioner = || {
                pvc.spec
                    .storage_class_name
                    .as_deref()
                    .and_then(|c| cluster.volumes().class(c))
                    .is_some_and(|c| c.provisioner == self.plugin())
            };
            let pv_name = &pvc.spec.volume_name;
            match (pv_name.is_empty(), cluster.volumes().pv(pv_name)) {
                (false, Some(pv)) => {
                    if let Some(id) = self.pv_id(pv) {
                        out.insert(id.to_string());
                    }
                }
                _ => {
                    if matches_provisioner() {
                        out.insert(claim_id);
                    }
                }
            }
        }
        Ok(())
    }

    fn allocatable_key(self) -> &'static str {
        match self {
            VolumeType::Ebs => "attachable-volumes-aws-ebs",
            VolumeType::GcePd => "attachable-volumes-gce-pd",
            VolumeType::AzureDisk => "attachable-volumes-azure-disk",
            VolumeType::Cinder => "attachable-volumes-cinder",
        }
    }

    fn default_limit(self, node: &NodeInfo) -> i64 {
        match self {
            VolumeType::Ebs => {
                let nitro = node
                    .labels()
                    .get("beta.kubernetes.io/instance-type")
                    .is_some_and(|t| is_nitro(t));
                if nitro {
                    25
                } else {
                    39
                }
            }
            VolumeType::GcePd | VolumeType::AzureDisk => 16,
            VolumeType::Cinder => 256,
        }
    }
}

/// `EBSNitroLimitRegex = "^[cmr]5.*|t3|z1d"` (the later alternatives are unanchored).
fn is_nitro(instance_type: &str) -> bool {
    let b = instance_type.as_bytes();
    (b.len() >= 2 && matches!(b[0], b'c' | b'm' | b'r') && b[1] == b'5')
        || instance_type.contains("t3")
        || instance_type.contains("z1d")
}

impl FilterPlugin for MaxVolumeCount {
    fn pre_filter(&self, cx: &CycleContext) -> Result<State, CycleError> {
        let pod = &cx.pod.pod;
        if pod.spec.volumes.is_empty() {
            return Ok(State::skip());
        }
        let mut wanted = HashSet::new();
        let r = self.0.filter_volumes(
            cx.cluster,
            &pod.spec.volumes,
            pod.metadata.namespace_or_default(),
            &mut wanted,
        );
        Ok(match r {
            Ok(()) if wanted.is_empty() => State::skip(),
            Ok(()) => State::new(Ok::<_, CycleError>(wanted)),
            Err(e) => State::new(Err::<HashSet<String>, _>(e)),
        })
    }

    fn filter(&self, cx: &CycleContext, state: &State, node: &NodeInfo) -> FilterResult {
        let kind = self.0;
        let wanted = match state.get::<Result<HashSet<String>, CycleError>>() {
            Some(Ok(w)) => w,
            Some(Err(e)) => return Err(e.clone()),
            None => return Ok(vec![]),
        };
        if cx
            .cluster
            .volumes()
            .csi_node(node.name())
            .is_some_and(|c| c.migrated(kind.plugin()))
        {
            return Ok(vec![]);
        }
        let mut existing = HashSet::new();
        for &p in node.pods() {
            let p = &cx.cluster.pods()[p].pod;
            kind.filter_volumes(
                cx.cluster,
                &p.spec.volumes,
                p.metadata.namespace_or_default(),
                &mut existing,
            )?;
        }
        let new = wanted.iter().filter(|id| !existing.contains(*id)).count() as i64;
        let key = kind.allocatable_key();
        let limit = if node.allocatable().scalars.iter().any(|(n, _)| n == key) {
            node.allocatable().scalar(key)
        } else {
            kind.default_limit(node)
        };
        Ok(if existing.len() as i64 + new > limit {
            vec![FailureReason::MaxVolumeCountExceeded.into()]
        } else {
            vec![]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;
    use serde_json::json;

    fn ebs(ids: &[&str]) -> crate::model::Pod {
        let vols: Vec<_> = ids
            .iter()
            .map(|id| json!({"name": id, "awsElasticBlockStore": {"volumeID": id}}))
            .collect();
        pod(json!({"spec": {"volumes": vols}}))
    }

    #[test]
    fn counts_unique_volumes_against_the_limit() {
        let n = node(
            json!({"metadata": {"name": "n"}, "status": {"allocatable": {"attachable-volumes-aws-ebs": 2}}}),
        );
        let c = cluster(vec![n], vec![(ebs(&["a"]), 0)]);
        let check = |p| filter_all(&MaxVolumeCount(VolumeType::Ebs), &c, p)[0].clone();
        assert_eq!(check(ebs(&["b"])), Vec::<String>::new());
        assert_eq!(check(ebs(&["b", "c"])), ["node(s) exceed max volume count"]);
        assert_eq!(
            check(ebs(&["a", "b"])),
            Vec::<String>::new(),
            "a volume already there is not counted twice"
        );
        assert_eq!(check(pod(json!({}))), Vec::<String>::new());
        // GCE volumes do not count against EBS.
        let gce = pod(
            json!({"spec": {"volumes": [{"name": "g", "gcePersistentDisk": {"pdName": "x"}}]}}),
        );
        assert_eq!(check(gce), Vec::<String>::new());
    }

    #[test]
    fn default_limits_and_nitro() {
        assert!(is_nitro("m5.large"));
        assert!(is_nitro("t3.micro"));
        assert!(is_nitro("xz1d"));
        assert!(!is_nitro("m4.large"));
        assert!(!is_nitro("a5.large"));
        let nitro = node(
            json!({"metadata": {"name": "n", "labels": {"beta.kubernetes.io/instance-type": "c5.xlarge"}}}),
        );
        let ids: Vec<String> = (0..26).map(|i| format!("v{i}")).collect();
        let refs: Vec<&str> = ids.iter().map(|s| s.as_str()).collect();
        let c = cluster(
            vec![nitro, node(json!({"metadata": {"name": "plain"}}))],
            vec![],
        );
        let got = filter_all(&MaxVolumeCount(VolumeType::Ebs), &c, ebs(&refs));
        assert_eq!(got[0].len(), 1, "26 > 25 on Nitro");
        assert!(got[1].is_empty(), "26 <= 39 elsewhere");
    }

    #[test]
    fn claims_count_by_volume_or_provisioner() {
        use crate::model::volume::{PersistentVolume, StorageClass};
        let n = node(
            json!({"metadata": {"name": "n"}, "status": {"allocatable": {"attachable-volumes-aws-ebs": 2}}}),
        );
        let claim_pod = |claims: &[&str]| {
            let vols: Vec<_> = claims
                .iter()
                .map(|c| json!({"name": c, "persistentVolumeClaim": {"claimName": c}}))
                .collect();
            pod(json!({"spec": {"volumes": vols}}))
        };
        // Node holds inline EBS "a" and claim "bound-a" (PV with volumeID "a": the same volume).
        let mut c = cluster(
            vec![n],
            vec![(ebs(&["a"]), 0), (claim_pod(&["bound-a"]), 0)],
        );
        let pv: PersistentVolume = serde_json::from_value(json!({"metadata": {"name": "pv-a"},
            "spec": {"awsElasticBlockStore": {"volumeID": "a"}}}))
        .unwrap();
        c.volumes_mut().pvs.insert("pv-a".into(), pv);
        let pv: PersistentVolume = serde_json::from_value(json!({"metadata": {"name": "pv-g"},
            "spec": {"gcePersistentDisk": {"pdName": "g"}}}))
        .unwrap();
        c.volumes_mut().pvs.insert("pv-g".into(), pv);
        for (name, class, vol) in [
            ("bound-a", "ebs", "pv-a"),
            ("bound-g", "", "pv-g"),
            ("unbound-ebs", "ebs", ""),
            ("unbound-ebs2", "ebs", ""),
            ("unbound-gce", "gce", ""),
            ("lost-ebs", "ebs", "missing-pv"),
        ] {
            c.volumes_mut().add_pvc(
                serde_json::from_value(json!({"metadata": {"name": name},
                    "spec": {"storageClassName": class, "volumeName": vol}}))
                .unwrap(),
            );
        }
        for (name, prov) in [
            ("ebs", "kubernetes.io/aws-ebs"),
            ("gce", "kubernetes.io/gce-pd"),
        ] {
            let s: StorageClass =
                serde_json::from_value(json!({"metadata": {"name": name}, "provisioner": prov}))
                    .unwrap();
            c.volumes_mut().classes.insert(name.into(), s);
        }
        let check = |p| filter_all(&MaxVolumeCount(VolumeType::Ebs), &c, p)[0].clone();
        let none = Vec::<String>::new();
        let full = vec!["node(s) exceed max volume count".to_string()];
        // existing = {a}: one more fits, two more do not.
        assert_eq!(check(claim_pod(&["unbound-ebs"])), none);
        assert_eq!(check(claim_pod(&["unbound-ebs", "unbound-ebs2"])), full);
        assert_eq!(
            check(claim_pod(&["unbound-ebs", "lost-ebs"])),
            full,
            "missing PV counted by its class"
        );
        assert_eq!(
            check(claim_pod(&["unbound-ebs", "bound-a"])),
            none,
            "bound-a is volume a, already there"
        );
        assert_eq!(
            check(claim_pod(&[
                "unbound-ebs",
                "bound-g",
                "unbound-gce",
                "nope"
            ])),
            none,
            "other types and unknown claims do not count"
        );
        let mut migrated = c.clone();
        let csi: crate::model::volume::CsiNode = serde_json::from_value(json!({"metadata": {"name": "n",
            "annotations": {"storage.alpha.kubernetes.io/migrated-plugins": "kubernetes.io/aws-ebs"}}})).unwrap();
        migrated.volumes_mut().csi_nodes.insert("n".into(), csi);
        assert_eq!(
            filter_all(
                &MaxVolumeCount(VolumeType::Ebs),
                &migrated,
                claim_pod(&["unbound-ebs", "unbound-ebs2"])
            )[0],
            none,
            "migrated to CSI: this predicate lets the CSI one count"
        );
    }
}
