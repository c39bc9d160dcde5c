//! `MaxCSIVolumeCountPred` (filters.md B.13): per CSI driver, a node attaches at most so many
//! volumes.
//!
//! Only claims count (CSI volumes are persistent volumes). A claim's driver and handle come from
//! its bound volume's `spec.csi`; an unbound claim, or one whose volume is missing, counts once
//! (per namespace/name) for the driver that is its class's provisioner. In-tree volumes and
//! provisioners (`kubernetes.io/aws-ebs`, `gce-pd`, `azure-disk`, `azure-file`, `cinder`) count for
//! their CSI driver only when the node's CSINode lists the plugin as migrated. A claim not in the
//! input, or with no driver, is not counted.
//!
//! Limits, by `attachable-volumes-csi-<driver>` (long driver names shortened as upstream's
//! `GetCSIAttachLimitKey`: the first 23 characters + 16 hex digits of the name's SHA-1): every
//! `attachable-volumes-*` of the node's allocatable, overridden by the CSINode's
//! `spec.drivers[].allocatable.count`. A node without any limit fits; a driver without a limit is
//! unlimited. Volumes already on the node are not counted twice. Exceeding a limit:
//! `node(s) exceed max volume count`.
//!
//! Deviation: a migrated in-tree volume's handle is its in-tree id (upstream translates it to
//! the CSI form, e.g. `projects/UNSPECIFIED/zones/Z/disks/NAME`); only uniqueness matters here.

use super::PredicateSpec;
use crate::cluster::{Cluster, NodeInfo};
use crate::model::pod::Volume;
use crate::model::volume::{csi_name_of, CsiNode, PersistentVolumeClaim};
use crate::v117::{CycleContext, CycleError, FailureReason, FilterPlugin, FilterResult, State};
use std::collections::{BTreeMap, HashMap};
/// `MaxCSIVolumeCountPred` in the legacy registry.
pub(crate) static SPEC: PredicateSpec = PredicateSpec {
    name: "MaxCSIVolumeCountPred",
    order: Some(13),
    plain: true,
    default_provider: Some(4),
    mandatory: false,
    build: Some(|| Box::new(MaxCsiVolumeCount)),
};

/// The predicate.
pub(crate) struct MaxCsiVolumeCount;

const LIMIT_PREFIX: &str = "attachable-volumes-csi-";

/// `GetCSIAttachLimitKey`.
pub(crate) fn attach_limit_key(driver: &str) -> String {
    if LIMIT_PREFIX.len() + driver.len() > 63 {
        let hash = sha1_hex(driver.as_bytes());
        let cut: String = driver.chars().take(23).collect();
        format!("{LIMIT_PREFIX}{cut}{}", &hash[..16])
    } else {
        format!("{LIMIT_PREFIX}{driver}")
    }
}

fn driver_from_class(
    cluster: &Cluster,
    csi: Option<&CsiNode>,
    pvc: &PersistentVolumeClaim,
    namespace: &str,
) -> Option<(String, String)> {
    let class = cluster
        .volumes()
        .class(pvc.spec.storage_class_name.as_deref()?)?;
    let handle = format!("\u{0}claim-{namespace}/{}", pvc.metadata.name);
    let prov = class.provisioner.as_str();
    match csi_name_of(prov) {
        Some(driver) => csi
            .is_some_and(|c| c.migrated(prov))
            .then(|| (driver.to_string(), handle)),
        None => Some((prov.to_string(), handle)),
    }
}

/// `filterAttachableVolumes`: unique name (`driver/handle`) → limit key.
fn filter_attachable(
    cluster: &Cluster,
    csi: Option<&CsiNode>,
    volumes: &[Volume],
    namespace: &str,
    out: &mut HashMap<String, String>,
) -> Result<(), CycleError> {
    for v in volumes {
        let Some(src) = &v.persistent_volume_claim else {
            continue;
        };
        if src.claim_name.is_empty() {
            return Err(CycleError("PersistentVolumeClaim had no name".into()));
        }
        let Some(pvc) = cluster.volumes().pvc(namespace, &src.claim_name) else {
            continue;
        };
        let info = match cluster.volumes().pv(&pvc.spec.volume_name) {
            Some(pv) if !pvc.spec.volume_name.is_empty() => {
                if let Some(c) = &pv.spec.csi {
                    Some((c.driver.clone(), c.volume_handle.clone()))
                } else {
                    let s = &pv.spec;
                    let intree = s
                        .aws_elastic_block_store
                        .as_ref()
                        .map(|x| ("kubernetes.io/aws-ebs", x.volume_id.clone()))
                        .or_else(|| {
                            s.gce_persistent_disk
                                .as_ref()
                                .map(|x| ("kubernetes.io/gce-pd", x.pd_name.clone()))
                        })
                        .or_else(|| {
                            s.azure_disk
                                .as_ref()
                                .map(|x| ("kubernetes.io/azure-disk", x.disk_name.clone()))
                        })
                        .or_else(|| {
                            s.cinder
                                .as_ref()
                                .map(|x| ("kubernetes.io/cinder", x.volume_id.clone()))
                        });
                    intree.and_then(|(plugin, id)| {
                        csi.is_some_and(|c| c.migrated(plugin))
                            .then(|| (csi_name_of(plugin).unwrap_or_default().to_string(), id))
                    })
                }
            }
            _ => driver_from_class(cluster, csi, pvc, namespace),
        };
        if let Some((driver, handle)) = info {
            if !driver.is_empty() && !handle.is_empty() {
                out.insert(format!("{driver}/{handle}"), attach_limit_key(&driver));
            }
        }
    }
    Ok(())
}

impl FilterPlugin for MaxCsiVolumeCount {
    fn pre_filter(&self, cx: &CycleContext) -> Result<State, CycleError> {
        Ok(
            if cx
                .pod
                .pod
                .spec
                .volumes
                .iter()
                .any(|v| v.persistent_volume_claim.is_some())
            {
                State::none()
            } else {
                State::skip()
            },
        )
    }

    fn filter(&self, cx: &CycleContext, _: &State, node: &NodeInfo) -> FilterResult {
        let pod = &cx.pod.pod;
        if pod.spec.volumes.is_empty() {
            return Ok(vec![]);
        }
        let csi = cx.cluster.volumes().csi_node(node.name());
        let mut new = HashMap::new();
        filter_attachable(
            cx.cluster,
            csi,
            &pod.spec.volumes,
            pod.metadata.namespace_or_default(),
            &mut new,
        )?;
        if new.is_empty() {
            return Ok(vec![]);
        }
        let mut limits: BTreeMap<String, i64> = node
            .allocatable()
            .scalars
            .iter()
            .filter(|(n, _)| n.starts_with("attachable-volumes-"))
            .cloned()
            .collect();
        if let Some(c) = csi {
            for d in &c.spec.drivers {
                if let Some(count) = d.allocatable.as_ref().and_then(|a| a.count) {
                    limits.insert(attach_limit_key(&d.name), count);
                }
            }
        }
        if limits.is_empty() {
            return Ok(vec![]);
        }
        let mut attached = HashMap::new();
        for &p in node.pods() {
            let p = &cx.cluster.pods()[p].pod;
            filter_attachable(
                cx.cluster,
                csi,
                &p.spec.volumes,
                p.metadata.namespace_or_default(),
                &mut attached,
            )?;
        }
        let mut attached_count: HashMap<&str, i64> = HashMap::new();
        #[allow(
            clippy::iter_over_hash_type,
            reason = "counts per key: the order is not seen"
        )]
        for (name, key) in &attached {
            new.remove(name);
            *attached_count.entry(key.as_str()).or_default() += 1;
        }
        let mut new_count: BTreeMap<&str, i64> = BTreeMap::new();
        #[allow(
            clippy::iter_over_hash_type,
            reason = "counts per key, kept in a BTreeMap: the order is not seen"
        )]
        for key in new.values() {
            *new_count.entry(key.as_str()).or_default() += 1;
        }
        for (key, count) in new_count {
            if let Some(&max) = limits.get(key) {
                if attached_count.get(key).copied().unwrap_or(0) + count > max {
                    return Ok(vec![FailureReason::MaxVolumeCountExceeded.into()]);
                }
            }
        }
        Ok(vec![])
    }
}

/// SHA-1 of `data`, as lowercase hex (only for `GetCSIAttachLimitKey`).
fn sha1_hex(data: &[u8]) -> String {
    let mut h: [u32; 5] = [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0];
    let mut msg = data.to_vec();
    let bits = (data.len() as u64).wrapping_mul(8);
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&bits.to_be_bytes());
    for chunk in msg.chunks(64) {
        let mut w = [0u32; 80];
        for (i, word) in chunk.chunks(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..80 {
            w[i] = (w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]).rotate_left(1);
        }
        let [mut a, mut b, mut c, mut d, mut e] = h;
        for (i, wi) in w.iter().enumerate() {
            let (f, k) = match i {
                0..=19 => ((b & c) | (!b & d), 0x5A827999),
                20..=39 => (b ^ c ^ d, 0x6ED9EBA1),
                40..=59 => ((b & c) | (b & d) | (c & d), 0x8F1BBCDC),
                _ => (b ^ c ^ d, 0xCA62C1D6),
            };
            let t = a
                .rotate_left(5)
                .wrapping_add(f)
                .wrapping_add(e)
                .wrapping_add(k)
                .wrapping_add(*wi);
            e = d;
            d = c;
            c = b.rotate_left(30);
            b = a;
            a = t;
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e]) {
            *x = x.wrapping_add(y);
        }
    }
    h.iter().map(|x| format!("{x:08x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::volume::{PersistentVolume, StorageClass};
    use crate::testing::*;
    use serde_json::json;

    #[test]
    fn sha1_and_long_driver_names() {
        assert_eq!(sha1_hex(b"abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
        assert_eq!(sha1_hex(b""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
        assert_eq!(
            attach_limit_key("ebs.csi.aws.com"),
            "attachable-volumes-csi-ebs.csi.aws.com"
        );
        let long = "a-very-long-csi-driver-name.storage.example.com"; // 47 chars: 23 + 47 > 63
        let key = attach_limit_key(long);
        assert_eq!(key.len(), 23 + 23 + 16);
        assert!(key.starts_with("attachable-volumes-csi-a-very-long-csi-driver"));
    }

    #[test]
    fn per_driver_limits() {
        let n = node(
            json!({"metadata": {"name": "n"}, "status": {"allocatable": {
            "attachable-volumes-csi-hostpath.csi.k8s.io": 2}}}),
        );
        let free = node(json!({"metadata": {"name": "free"}}));
        let mut c = cluster(vec![n, free], vec![(claim_pod(&["held"]), 0)]);
        for (name, handle) in [("pv-held", "h1"), ("pv-1", "h2"), ("pv-same", "h1")] {
            let pv: PersistentVolume = serde_json::from_value(json!({"metadata": {"name": name},
                "spec": {"csi": {"driver": "hostpath.csi.k8s.io", "volumeHandle": handle}}}))
            .unwrap();
            c.volumes_mut().pvs.insert(name.into(), pv);
        }
        for (name, vol, class) in [
            ("held", "pv-held", ""),
            ("one", "pv-1", ""),
            ("same", "pv-same", ""),
            ("new1", "", "hp"),
            ("new2", "", "hp"),
            ("other", "", "other"),
        ] {
            c.volumes_mut().add_pvc(
                serde_json::from_value(json!({"metadata": {"name": name},
                "spec": {"volumeName": vol, "storageClassName": class}}))
                .unwrap(),
            );
        }
        for (name, prov) in [("hp", "hostpath.csi.k8s.io"), ("other", "other.csi")] {
            let s: StorageClass =
                serde_json::from_value(json!({"metadata": {"name": name}, "provisioner": prov}))
                    .unwrap();
            c.volumes_mut().classes.insert(name.into(), s);
        }
        let full = vec!["node(s) exceed max volume count".to_string()];
        let none = Vec::<String>::new();
        let check = |claims: &[&str]| filter_all(&MaxCsiVolumeCount, &c, claim_pod(claims));
        assert_eq!(check(&["one"]), [none.clone(), none.clone()]);
        assert_eq!(
            check(&["one", "new1"]),
            [full.clone(), none.clone()],
            "1 attached + 2 > 2; no limit on `free`"
        );
        assert_eq!(
            check(&["one", "same"]),
            [none.clone(), none.clone()],
            "same handle as the attached one"
        );
        assert_eq!(
            check(&["new1", "other", "missing"]),
            [none.clone(), none.clone()],
            "other driver unlimited"
        );
        // The CSINode count overrides the node's allocatable.
        let mut c2 = c.clone();
        let csi: CsiNode =
            serde_json::from_value(json!({"metadata": {"name": "n"}, "spec": {"drivers": [
            {"name": "hostpath.csi.k8s.io", "allocatable": {"count": 3}}]}}))
            .unwrap();
        c2.volumes_mut().csi_nodes.insert("n".into(), csi);
        assert_eq!(
            filter_all(&MaxCsiVolumeCount, &c2, claim_pod(&["one", "new1"]))[0],
            none
        );
        assert_eq!(
            filter_all(&MaxCsiVolumeCount, &c2, claim_pod(&["one", "new1", "new2"]))[0],
            full
        );
    }
}
