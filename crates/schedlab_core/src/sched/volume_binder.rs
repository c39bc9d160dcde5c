//! The volume binder's scheduler side, the same rules in v1.17 (`CheckVolumeBinding`,
//! `filters.md` B.14) and v1.35 (`VolumeBinding`, `modern.md` §4.10): a pod's claims sorted
//! by `getPodVolumes` ([`pod_claims`]), `FindPodVolumes` on one node ([`find_pod_volumes`]),
//! and the bindings `AssumePodVolumes` makes once the pod is placed ([`bindings_for`]).
//! Errors are upstream's texts; each version turns them into its own status.

use crate::cluster::{Cluster, NodeInfo, PodInfo};
use crate::model::volume::{PersistentVolumeClaim, ANN_SELECTED_NODE};
use crate::model::Labels;

/// A claim and what the binder decided for it on the chosen node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct VolumeBinding {
    /// The claim's namespace.
    pub namespace: String,
    /// The claim's name.
    pub claim: String,
    /// The chosen volume, or `None` when the class provisions one.
    pub pv: Option<String>,
}

/// The pod's claims, sorted by `getPodVolumes`.
#[derive(Clone, Debug, Default)]
pub(crate) struct PodClaims {
    /// Fully bound claims: (claim, volume name).
    pub bound: Vec<(String, String)>,
    /// Unbound WaitForFirstConsumer claims.
    pub delayed: Vec<PersistentVolumeClaim>,
}

/// Whether the pod uses any claim.
pub(crate) fn has_claims(pod: &PodInfo) -> bool {
    pod.pod
        .spec
        .volumes
        .iter()
        .any(|v| v.persistent_volume_claim.is_some())
}

/// `IsDelayBindingMode`.
pub(crate) fn is_delay_binding(
    cluster: &Cluster,
    pvc: &PersistentVolumeClaim,
) -> Result<bool, String> {
    let name = pvc.class();
    if name.is_empty() {
        return Ok(false);
    }
    match cluster.volumes().class(name) {
        None => Ok(false),
        Some(c) => match c.volume_binding_mode.as_deref() {
            None => Err(format!(
                "VolumeBindingMode not set for StorageClass {name:?}"
            )),
            Some(m) => Ok(m == "WaitForFirstConsumer"),
        },
    }
}

/// `getPodVolumes` and the immediate-claims check of `FindPodVolumes`.
pub(crate) fn pod_claims(cluster: &Cluster, pod: &PodInfo) -> Result<PodClaims, String> {
    let ns = pod.pod.metadata.namespace_or_default();
    let mut out = PodClaims::default();
    let mut immediate = 0;
    for v in &pod.pod.spec.volumes {
        let Some(src) = &v.persistent_volume_claim else {
            continue;
        };
        let Some(pvc) = cluster.volumes().pvc(ns, &src.claim_name) else {
            return Err(format!(
                "error getting PVC \"{ns}/{}\": could not find v1.PersistentVolumeClaim \"{ns}/{}\"",
                src.claim_name, src.claim_name
            ));
        };
        if pvc.fully_bound() {
            out.bound
                .push((pvc.metadata.name.clone(), pvc.spec.volume_name.clone()));
        } else if is_delay_binding(cluster, pvc)? && pvc.spec.volume_name.is_empty() {
            out.delayed.push(pvc.clone());
        } else {
            immediate += 1;
        }
    }
    if immediate > 0 {
        return Err("pod has unbound immediate PersistentVolumeClaims".into());
    }
    Ok(out)
}

/// `FindPodVolumes` on one node: (unbound satisfied, bound satisfied, bindings).
pub(crate) fn find_pod_volumes(
    cluster: &Cluster,
    claims: &PodClaims,
    node_name: &str,
    labels: &Labels,
) -> Result<(bool, bool, Vec<VolumeBinding>), String> {
    let mut bound_ok = true;
    for (_, pv_name) in &claims.bound {
        let Some(pv) = cluster.volumes().pv(pv_name) else {
            return Err(format!("could not find v1.PersistentVolume {pv_name:?}"));
        };
        if !pv.node_affinity_matches(labels) {
            bound_ok = false;
            break;
        }
    }
    let mut bindings = Vec::new();
    if claims.delayed.is_empty() {
        return Ok((true, bound_ok, bindings));
    }
    let mut to_provision: Vec<&PersistentVolumeClaim> = Vec::new();
    let mut to_match: Vec<&PersistentVolumeClaim> = Vec::new();
    for c in &claims.delayed {
        match c.metadata.annotations.get(ANN_SELECTED_NODE) {
            Some(n) if n != node_name => return Ok((false, bound_ok, Vec::new())),
            Some(_) => to_provision.push(c),
            None => to_match.push(c),
        }
    }
    let mut unbound_ok = true;
    if !to_match.is_empty() {
        // byPVCSize: increasing request (insertion sort for these sizes: stable).
        to_match.sort_by_key(|c| c.request());
        let mut chosen: Vec<&str> = Vec::new();
        for c in to_match {
            match find_matching_volume(cluster, c, labels, &chosen) {
                Some(pv) => {
                    chosen.push(pv);
                    bindings.push(VolumeBinding {
                        namespace: c.metadata.namespace_or_default().to_string(),
                        claim: c.metadata.name.clone(),
                        pv: Some(pv.to_string()),
                    });
                }
                None => {
                    unbound_ok = false;
                    to_provision.push(c);
                }
            }
        }
    }
    if !to_provision.is_empty() {
        unbound_ok = true;
        for c in to_provision {
            let class_name = c.class();
            let key = format!("{}/{}", c.metadata.namespace_or_default(), c.metadata.name);
            if class_name.is_empty() {
                return Err(format!("no class for claim {key:?}"));
            }
            let Some(class) = cluster.volumes().class(class_name) else {
                return Err(format!("failed to find storage class {class_name:?}"));
            };
            if class.provisioner.is_empty()
                || class.provisioner == "kubernetes.io/no-provisioner"
                || !class.topology_allows(labels)
            {
                return Ok((false, bound_ok, Vec::new()));
            }
            bindings.push(VolumeBinding {
                namespace: c.metadata.namespace_or_default().to_string(),
                claim: c.metadata.name.clone(),
                pv: None,
            });
        }
    }
    Ok((unbound_ok, bound_ok, bindings))
}

/// `FindMatchingVolume` on the scheduler path (a node given, delayed binding).
fn find_matching_volume<'a>(
    cluster: &'a Cluster,
    claim: &PersistentVolumeClaim,
    labels: &Labels,
    excluded: &[&str],
) -> Option<&'a str> {
    let class = claim.class();
    let request = claim.request();
    let mode = |m: &Option<String>| m.clone().unwrap_or_else(|| "Filesystem".into());
    let mut smallest: Option<(&str, i64)> = None;
    for (name, pv) in cluster
        .volumes()
        .pvs
        .iter()
        .filter(|(_, v)| v.class() == class)
    {
        if excluded.contains(&name.as_str()) {
            continue;
        }
        if pv.spec.claim_ref.is_some() && !pv.bound_to(claim) {
            continue;
        }
        let qty = pv.capacity();
        if qty < request {
            continue;
        }
        if mode(&pv.spec.volume_mode) != mode(&claim.spec.volume_mode) {
            continue;
        }
        if pv.metadata.deletion_timestamp.is_some() {
            continue;
        }
        let affinity_ok = pv.node_affinity_matches(labels);
        if pv.bound_to(claim) {
            return affinity_ok.then_some(name.as_str());
        }
        if pv.status.phase != "Available" || pv.spec.claim_ref.is_some() {
            continue;
        }
        if let Some(sel) = &claim.spec.selector {
            if !sel.matches(&pv.metadata.labels) {
                continue;
            }
        }
        if !affinity_ok {
            continue;
        }
        if !claim
            .spec
            .access_modes
            .iter()
            .all(|m| pv.spec.access_modes.contains(m))
        {
            continue;
        }
        if smallest.is_none_or(|(_, q)| q > qty) {
            smallest = Some((name.as_str(), qty));
        }
    }
    smallest.map(|(n, _)| n)
}

/// The bindings `AssumePodVolumes` makes for a pod placed on a node (empty when the pod has no
/// unbound WaitForFirstConsumer claim or the binder cannot place them).
pub(crate) fn bindings_for(
    cluster: &Cluster,
    pod: &PodInfo,
    node: &NodeInfo,
) -> Vec<VolumeBinding> {
    if !has_claims(pod) {
        return Vec::new();
    }
    let Ok(claims) = pod_claims(cluster, pod) else {
        return Vec::new();
    };
    match find_pod_volumes(cluster, &claims, node.name(), node.labels()) {
        Ok((true, _, b)) => b,
        _ => Vec::new(),
    }
}
