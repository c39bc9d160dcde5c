//! `MaxEBSVolumeCount`, `MaxGCEPDVolumeCount`, `MaxAzureDiskVolumeCount` and
//! `MaxCinderVolumeCount`: a node attaches at most so many volumes of one cloud type.
//!
//! Unique volume ids of that type among the pod's inline volumes are added to those already on
//! the node; more than the limit fails. Limits are upstream's defaults (EBS 39, or 25 on Nitro
//! instance types; GCE PD 16; Azure 16; Cinder 256), overridden by the node's allocatable
//! `attachable-volumes-*`. Claims (PVCs) are not modelled yet: a pod with one ends its cycle with
//! an error before any predicate runs (see `runner`), so only inline volumes reach this file.

use crate::cluster::NodeInfo;
use crate::framework::{CycleContext, FailureReason, FilterPlugin, FilterResult, State};
use crate::model::pod::Volume;
use std::collections::HashSet;

/// Which cloud volume type a checker counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VolumeType {
    /// AWS EBS.
    Ebs,
    /// GCE persistent disk.
    GcePd,
    /// Azure disk.
    AzureDisk,
    /// OpenStack Cinder.
    Cinder,
}

/// The predicate for one volume type.
pub struct MaxVolumeCount(pub VolumeType);

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
    fn pre_filter(&self, cx: &CycleContext) -> Result<State, crate::framework::CycleError> {
        let kind = self.0;
        Ok(
            if cx.pod.pod.spec.volumes.iter().any(|v| kind.id(v).is_some()) {
                State::none()
            } else {
                State::skip()
            },
        )
    }

    fn filter(&self, cx: &CycleContext, _: &State, node: &NodeInfo) -> FilterResult {
        let kind = self.0;
        let wanted: HashSet<&str> = cx
            .pod
            .pod
            .spec
            .volumes
            .iter()
            .filter_map(|v| kind.id(v))
            .collect();
        if wanted.is_empty() {
            return Ok(vec![]);
        }
        let existing: HashSet<&str> = node
            .pods
            .iter()
            .flat_map(|&p| cx.cluster.pods[p].pod.spec.volumes.iter())
            .filter_map(|v| kind.id(v))
            .collect();
        let new = wanted.iter().filter(|id| !existing.contains(*id)).count() as i64;
        let key = kind.allocatable_key();
        let limit = if node.allocatable.scalars.iter().any(|(n, _)| n == key) {
            node.allocatable.scalar(key)
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
}
