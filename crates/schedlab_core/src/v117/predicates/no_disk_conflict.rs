//! `NoDiskConflict`: inline volumes that cannot be shared. GCE PD (same `pdName`, unless both
//! read-only), AWS EBS (same `volumeID`), iSCSI (same `iqn`, unless both read-only) and RBD
//! (a common monitor, same pool and image, unless both read-only).

use super::PredicateSpec;
use crate::cluster::NodeInfo;
use crate::v117::{CycleContext, FailureReason, FilterPlugin, FilterResult, State};
/// `NoDiskConflict` in the legacy registry.
pub(crate) static SPEC: PredicateSpec = PredicateSpec {
    name: "NoDiskConflict",
    order: Some(6),
    plain: true,
    default_provider: Some(6),
    mandatory: false,
    build: Some(|| Box::new(NoDiskConflict)),
};

/// The predicate.
pub(crate) struct NoDiskConflict;

impl FilterPlugin for NoDiskConflict {
    fn pre_filter(&self, cx: &CycleContext) -> Result<State, crate::v117::CycleError> {
        Ok(if cx.pod.pod.spec.volumes.is_empty() {
            State::skip()
        } else {
            State::none()
        })
    }

    fn filter(&self, cx: &CycleContext, _: &State, node: &NodeInfo) -> FilterResult {
        let volumes = &cx.pod.pod.spec.volumes;
        if volumes.is_empty() {
            return Ok(vec![]);
        }
        for v in volumes {
            for &p in node.pods() {
                if cx.cluster.pods()[p]
                    .pod
                    .spec
                    .volumes
                    .iter()
                    .any(|o| v.conflicts_with(o))
                {
                    return Ok(vec![FailureReason::DiskConflict.into()]);
                }
            }
        }
        Ok(vec![])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;
    use serde_json::{json, Value};

    fn with_volume(v: Value) -> crate::model::Pod {
        pod(json!({"spec": {"volumes": [v]}}))
    }

    #[test]
    fn disk_conflicts() {
        let cases: Vec<(&str, Value, Value, bool)> = vec![
            (
                "same GCE PD",
                json!({"name": "v", "gcePersistentDisk": {"pdName": "foo"}}),
                json!({"name": "v", "gcePersistentDisk": {"pdName": "foo"}}),
                false,
            ),
            (
                "same GCE PD, both read-only",
                json!({"name": "v", "gcePersistentDisk": {"pdName": "foo", "readOnly": true}}),
                json!({"name": "v", "gcePersistentDisk": {"pdName": "foo", "readOnly": true}}),
                true,
            ),
            (
                "other GCE PD",
                json!({"name": "v", "gcePersistentDisk": {"pdName": "foo"}}),
                json!({"name": "v", "gcePersistentDisk": {"pdName": "bar"}}),
                true,
            ),
            (
                "same EBS even read-only",
                json!({"name": "v", "awsElasticBlockStore": {"volumeID": "a", "readOnly": true}}),
                json!({"name": "v", "awsElasticBlockStore": {"volumeID": "a", "readOnly": true}}),
                false,
            ),
            (
                "same iSCSI",
                json!({"name": "v", "iscsi": {"iqn": "q"}}),
                json!({"name": "v", "iscsi": {"iqn": "q"}}),
                false,
            ),
            (
                "RBD sharing a monitor",
                json!({"name": "v", "rbd": {"monitors": ["a", "b"], "image": "i"}}),
                json!({"name": "v", "rbd": {"monitors": ["b", "c"], "image": "i"}}),
                false,
            ),
            (
                "RBD other pool",
                json!({"name": "v", "rbd": {"monitors": ["a"], "pool": "x", "image": "i"}}),
                json!({"name": "v", "rbd": {"monitors": ["a"], "image": "i"}}),
                true,
            ),
            (
                "other types never conflict",
                json!({"name": "v", "persistentVolumeClaim": {"claimName": "c"}}),
                json!({"name": "v", "persistentVolumeClaim": {"claimName": "c"}}),
                true,
            ),
        ];
        for (name, existing, incoming, fits) in cases {
            let c = cluster(
                vec![node(json!({"metadata": {"name": "n"}}))],
                vec![(with_volume(existing), 0)],
            );
            let got = filter_all(&NoDiskConflict, &c, with_volume(incoming));
            assert_eq!(got[0].is_empty(), fits, "{name}");
            if !fits {
                assert_eq!(got[0], ["node(s) had no available disk"]);
            }
        }
    }
}
