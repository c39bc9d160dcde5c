//! The simulation's side of Dynamic Resource Allocation: what the scheduler and the
//! resourceclaim controller write to claims, and the claim events that follow.
//!
//! - assume (Reserve): each claim the pod's cycle allocated takes its allocation and the
//!   finalizer, in flight until the binding ends;
//! - the binding's end (PreBind): the pod joins each claim's `reservedFor` (a claim update);
//! - PostFilter's deallocation: `allocation` and `reservedFor` cleared (a claim update);
//! - a bound pod deleted: the controller removes it from `reservedFor` and deallocates a claim
//!   no pod holds any more (a claim update).
//!
//! A claim update asks DynamicResources' QueueingHint (`isSchedulableAfterClaimChange`) for
//! each pod it rejected, and lets through the pods it gated whose claims now all exist.

use super::State;
use crate::cluster::{NodeId, PodId};
use crate::model::dra::{ResourceClaim, ResourceClaimConsumerReference, FINALIZER};
use crate::queue::{ClusterEvent, MoveReport};
use crate::v135::cycle::CycleResult;
use crate::v135::plugins::dynamic_resources::{pod_claims, DraState};
use crate::v135::profile::Profile;
use std::sync::Arc;

const PLUGIN: &str = "DynamicResources";

/// Reserve: the allocations the cycle found on `node` go to their claims, in flight.
pub(super) fn assume(
    state: &mut State,
    profile: &Profile,
    result: &CycleResult,
    pod: PodId,
    node: NodeId,
) {
    write_allocations(&mut state.cluster, profile, result, pod, node);
}

/// The allocations a v1.35 cycle's DynamicResources found on `node` written to their claims
/// (with the finalizer), in flight for `pod`: what Reserve hands to PreBind. Also used by the
/// benchmarks' single-pass loop, which binds at once.
pub(crate) fn write_allocations(
    cluster: &mut crate::cluster::Cluster,
    profile: &Profile,
    result: &CycleResult,
    pod: PodId,
    node: NodeId,
) {
    let Some(i) = profile.plugins.iter().position(|e| e.spec.name == PLUGIN) else {
        return;
    };
    let Some(st) = crate::v135::plugin::state::<DraState>(result.states.get(i)) else {
        return;
    };
    let uid = cluster.pods()[pod].pod.metadata.uid.clone();
    for (claim, allocation) in st.allocations_on(node) {
        let (ns, name) = (
            claim.metadata.namespace_or_default().to_string(),
            claim.metadata.name.clone(),
        );
        cluster.dra_mut().update_claim(&ns, &name, |e| {
            let c = Arc::make_mut(&mut e.claim);
            if !c.metadata.finalizers.iter().any(|f| f == FINALIZER) {
                c.metadata.finalizers.push(FINALIZER.to_string());
            }
            c.status.allocation = Some(allocation.clone());
            e.in_flight = Some(uid.clone());
        });
    }
}

/// The binding ended: on success the pod joins `reservedFor` of each of its claims; either
/// way nothing is in flight any more. Returns the claims that changed, before and after.
pub(super) fn bound(
    state: &mut State,
    pod: PodId,
    success: bool,
) -> Vec<(Arc<ResourceClaim>, Arc<ResourceClaim>)> {
    let info = Arc::clone(&state.cluster.pods()[pod]);
    let Ok(claims) = pod_claims(&info, &state.cluster) else {
        return Vec::new();
    };
    let mut changed = Vec::new();
    for c in claims {
        let (ns, name) = (
            c.metadata.namespace_or_default().to_string(),
            c.metadata.name.clone(),
        );
        let dra = state.cluster.dra_mut();
        let old = dra.update_claim(&ns, &name, |e| {
            e.in_flight = None;
            let c = Arc::make_mut(&mut e.claim);
            let uid = &info.pod.metadata.uid;
            let name = &info.pod.metadata.name;
            let present = c
                .status
                .reserved_for
                .iter()
                .any(|r| r.uid == *uid && r.name == *name);
            if success && !present {
                c.status.reserved_for.push(ResourceClaimConsumerReference {
                    api_group: String::new(),
                    resource: "pods".into(),
                    name: name.clone(),
                    uid: uid.clone(),
                });
            }
        });
        if let (Some(old), Some(new)) = (old, dra.claim(&ns, &name).map(|e| Arc::clone(&e.claim))) {
            if old.status != new.status {
                changed.push((old, new));
            }
        }
    }
    changed
}

/// Clears a claim's allocation and reservations (PostFilter, or the controller once no pod
/// holds it). Returns the claim before and after.
pub(super) fn deallocate(
    state: &mut State,
    ns: &str,
    name: &str,
) -> Option<(Arc<ResourceClaim>, Arc<ResourceClaim>)> {
    let dra = state.cluster.dra_mut();
    let old = dra.update_claim(ns, name, |e| {
        let c = Arc::make_mut(&mut e.claim);
        c.status.allocation = None;
        c.status.reserved_for.clear();
        e.in_flight = None;
    })?;
    let new = Arc::clone(&dra.claim(ns, name)?.claim);
    Some((old, new))
}

/// A deleted bound pod leaves `reservedFor`; a claim no pod holds is deallocated.
pub(super) fn released(
    state: &mut State,
    pod: PodId,
) -> Vec<(Arc<ResourceClaim>, Arc<ResourceClaim>)> {
    let info = Arc::clone(&state.cluster.pods()[pod]);
    if info.pod.spec.resource_claims.is_empty() {
        return Vec::new();
    }
    let Ok(claims) = pod_claims(&info, &state.cluster) else {
        return Vec::new();
    };
    let mut changed = Vec::new();
    for c in claims {
        let (ns, name) = (
            c.metadata.namespace_or_default().to_string(),
            c.metadata.name.clone(),
        );
        let dra = state.cluster.dra_mut();
        let old = dra.update_claim(&ns, &name, |e| {
            let c = Arc::make_mut(&mut e.claim);
            c.status
                .reserved_for
                .retain(|r| !(r.uid == info.pod.metadata.uid && r.name == info.pod.metadata.name));
            if c.status.reserved_for.is_empty() {
                c.status.allocation = None;
            }
        });
        if let (Some(old), Some(e)) = (old, dra.claim(&ns, &name)) {
            if old.status != e.claim.status {
                changed.push((old, Arc::clone(&e.claim)));
            }
        }
    }
    changed
}

/// `isSchedulableAfterClaimChange` (`dra.md` §2.9) for a pod DynamicResources rejected.
fn may_help(state: &State, waiting: PodId, old: &ResourceClaim, new: &ResourceClaim) -> bool {
    claim_change_helps(&state.cluster, &state.cluster.pods()[waiting], old, new)
}

/// `isSchedulableAfterClaimChange` for `pod` when a claim changes from `old` to `new`: its own
/// claim lookup must succeed; any deallocation helps; otherwise only a status change of one of
/// its claims does.
fn claim_change_helps(
    cluster: &crate::cluster::Cluster,
    info: &crate::cluster::PodInfo,
    old: &ResourceClaim,
    new: &ResourceClaim,
) -> bool {
    let Ok(claims) = pod_claims(info, cluster) else {
        return false;
    };
    if old.status.allocation.is_some() && new.status.allocation.is_none() {
        return true;
    }
    let mine = claims.iter().any(|c| {
        c.metadata.name == new.metadata.name
            && c.metadata.namespace_or_default() == new.metadata.namespace_or_default()
    });
    mine && old.status != new.status
}

/// Claim updates reach the queue: DynamicResources' rejected pods are asked its hint; its
/// gated pods whose claims all exist now enter activeQ.
pub(super) fn claim_events(
    state: &mut State,
    v135: bool,
    changes: &[(Arc<ResourceClaim>, Arc<ResourceClaim>)],
) -> MoveReport {
    let mut report = MoveReport {
        event: None,
        moved: Vec::new(),
    };
    if changes.is_empty() || !v135 {
        return report;
    }
    for (old, new) in changes {
        let st: &State = state;
        let worth: Vec<PodId> = st
            .queue
            .unschedulable_pods()
            .filter(|&p| may_help(st, p, old, new))
            .collect();
        let more = state.queue.move_with_hints(
            ClusterEvent::ResourceClaimUpdate,
            state.now,
            |p, rejectors| rejectors.contains(&PLUGIN) && worth.contains(&p),
        );
        if more.event.is_some() {
            report.event = more.event;
        }
        report.moved.extend(more.moved);
    }
    ungate_pods_with_claims(state);
    report
}

/// Gated pods whose claims all exist now enter activeQ (PreEnqueue passes).
fn ungate_pods_with_claims(state: &mut State) {
    let gated: Vec<PodId> = state.queue.gated_pods().collect();
    for p in gated {
        let info = &state.cluster.pods()[p];
        if !info.pod.spec.resource_claims.is_empty()
            && pod_claims(info, &state.cluster).is_ok()
            && info.pod.spec.scheduling_gates.is_empty()
        {
            state.queue.ungate(p, state.now);
        }
    }
}

/// A timeline change to a DRA object (`applyDeviceClass`, `applyResourceSlice`,
/// `applyResourceClaim`, and the deletes), applied to the catalog, with the event upstream
/// registers for it (dra.md §2.9): a class or slice added or updated requeues the pods
/// DynamicResources rejected (no hint); a claim added or updated asks
/// `isSchedulableAfterClaimChange`; deletes are not registered.
pub(super) fn apply_object_change(
    state: &mut State,
    v135: bool,
    change: &crate::model::timeline::Change,
) -> MoveReport {
    use crate::model::timeline::{Change, DraKind, DraObject};
    let none = MoveReport {
        event: None,
        moved: Vec::new(),
    };
    let dra = state.cluster.dra_mut();
    let event = match change {
        Change::ApplyDra(o) => match o.as_ref() {
            DraObject::DeviceClass(c) => {
                let old = dra
                    .classes
                    .insert(c.metadata.name.clone(), Arc::new(c.clone()));
                if old.is_some() {
                    ClusterEvent::DeviceClassUpdate
                } else {
                    ClusterEvent::DeviceClassAdd
                }
            }
            DraObject::ResourceSlice(sl) => {
                let mut slices = dra.slices().to_vec();
                let at = slices
                    .iter()
                    .position(|x| x.metadata.name == sl.metadata.name);
                let event = match at {
                    Some(i) => {
                        slices[i] = Arc::new(sl.clone());
                        ClusterEvent::ResourceSliceUpdate
                    }
                    None => {
                        slices.push(Arc::new(sl.clone()));
                        ClusterEvent::ResourceSliceAdd
                    }
                };
                dra.set_slices(slices);
                event
            }
            DraObject::ResourceClaim(c) => return apply_claim(state, v135, c),
        },
        Change::DeleteDra { kind, name } => {
            match kind {
                DraKind::DeviceClass => {
                    dra.classes.remove(name);
                }
                DraKind::ResourceSlice => {
                    let slices: Vec<_> = dra
                        .slices()
                        .iter()
                        .filter(|x| x.metadata.name != *name)
                        .cloned()
                        .collect();
                    dra.set_slices(slices);
                }
                DraKind::ResourceClaim => {
                    let (ns, n) = name.split_once('/').unwrap_or(("default", name));
                    dra.delete_claim(ns, n);
                }
            }
            return none;
        }
        _ => return none,
    };
    if !v135 {
        return none;
    }
    state
        .queue
        .move_with_hints(event, state.now, |_, rejectors| rejectors.contains(&PLUGIN))
}

/// `applyResourceClaim`: a new claim (its pods' hint: created, so Queue when it is theirs;
/// gated pods whose claims now all exist are ungated) or a changed one (the claim-update
/// hint).
fn apply_claim(state: &mut State, v135: bool, c: &ResourceClaim) -> MoveReport {
    let ns = c.metadata.namespace_or_default().to_string();
    let name = c.metadata.name.clone();
    let dra = state.cluster.dra_mut();
    if dra.claim(&ns, &name).is_some() {
        let new = c.clone();
        let old = dra.update_claim(&ns, &name, |e| e.claim = Arc::new(new));
        let changed: Vec<(Arc<ResourceClaim>, Arc<ResourceClaim>)> = old
            .into_iter()
            .filter_map(|o| dra.claim(&ns, &name).map(|e| (o, Arc::clone(&e.claim))))
            .collect();
        return claim_events(state, v135, &changed);
    }
    dra.add_claim(c.clone(), false);
    if !v135 {
        return MoveReport {
            event: None,
            moved: Vec::new(),
        };
    }
    let st: &State = state;
    let worth: Vec<PodId> = st
        .queue
        .unschedulable_pods()
        .filter(|&p| {
            let info = &st.cluster.pods()[p];
            pod_claims(info, &st.cluster).is_ok_and(|claims| {
                claims
                    .iter()
                    .any(|x| x.metadata.name == name && x.metadata.namespace_or_default() == ns)
            })
        })
        .collect();
    let report =
        state
            .queue
            .move_with_hints(ClusterEvent::ResourceClaimAdd, state.now, |p, rejectors| {
                rejectors.contains(&PLUGIN) && worth.contains(&p)
            });
    ungate_pods_with_claims(state);
    report
}

#[cfg(test)]
mod tests {
    //! The claim-change rows of vector P18 (dra.md §5.1, upstream's
    //! `TestIsSchedulableAfterClaimChange`), fixture F-P.

    use super::claim_change_helps;
    use crate::cluster::{Cluster, PodInfo};
    use crate::model::dra::ResourceClaim;
    use crate::model::Pod;
    use serde_json::{json, Value};

    fn claim(name: &str, owner_uid: &str, status: Value) -> ResourceClaim {
        serde_json::from_value(json!({
            "metadata": {"name": name, "namespace": "default",
                "ownerReferences": [{"apiVersion": "v1", "kind": "Pod", "name": "my-pod", "uid": owner_uid, "controller": true}]},
            "spec": {"devices": {"requests": [{"name": "req-1", "exactly": {"deviceClassName": "my-resource-class"}}]}},
            "status": status}))
        .expect("claim")
    }

    fn pod(claims: Value, status: Value) -> PodInfo {
        let p: Pod = serde_json::from_value(
            json!({"metadata": {"name": "my-pod", "namespace": "default", "uid": "1234"},
            "spec": {"containers": [{"name": "c"}], "resourceClaims": claims}, "status": status}),
        )
        .expect("pod");
        PodInfo::new_v135(p, 0, usize::MAX)
    }

    fn allocated() -> Value {
        json!({"allocation": {"devices": {"results": [{"request": "req-1", "driver": "some-driver", "pool": "worker", "device": "instance-1"}]}}})
    }

    fn cluster(claims: Vec<ResourceClaim>) -> Cluster {
        let mut c = Cluster::default();
        for k in claims {
            c.dra_mut().add_claim(k, false);
        }
        c
    }

    #[test]
    fn p18_claim_changes_requeue_only_what_may_help() {
        let by_name = pod(
            json!([{"name": "my-resource", "resourceClaimName": "my-pod-my-resource"}]),
            json!({}),
        );
        let template_pod = pod(
            json!([{"name": "my-resource", "resourceClaimTemplateName": "my-pod-my-resource"}]),
            json!({}),
        );
        let pending = claim("my-pod-my-resource", "1234", json!({}));
        // skip-deletes / skip-unrelated (template pod without its status entry): the pod's
        // own lookup fails first, even for a deallocation.
        let other = claim("not-my-claim", "1234", allocated());
        let c = cluster(vec![pending.clone(), other.clone()]);
        let other_freed = claim("not-my-claim", "1234", json!({}));
        assert!(!claim_change_helps(&c, &template_pod, &other, &other_freed));
        // claim-deallocate: any claim's allocation going away requeues the pod.
        assert!(claim_change_helps(&c, &by_name, &other, &other_freed));
        // queue-on-status-change: the pod's own claim gets an allocation.
        let now_allocated = claim("my-pod-my-resource", "1234", allocated());
        assert!(claim_change_helps(&c, &by_name, &pending, &now_allocated));
        // skip-adding-finalizer: the status did not change.
        let mut finalized = pending.clone();
        finalized.metadata.finalizers.push("foo".into());
        assert!(!claim_change_helps(&c, &by_name, &pending, &finalized));
        // skip-unrelated-claim: another claim's status changed, nothing deallocated.
        let other_pending = claim("not-my-claim", "1234", json!({}));
        assert!(!claim_change_helps(
            &c,
            &by_name,
            &other_pending,
            &claim("not-my-claim", "1234", allocated())
        ));
        // skip-wrong-claim: the template pod's claim is controlled by another pod.
        let created = pod(
            json!([{"name": "my-resource", "resourceClaimTemplateName": "my-pod-my-resource"}]),
            json!({"resourceClaimStatuses": [{"name": "my-resource", "resourceClaimName": "my-pod-my-resource"}]}),
        );
        let wrong = claim("my-pod-my-resource", "5678", json!({}));
        let c = cluster(vec![wrong.clone()]);
        assert!(!claim_change_helps(
            &c,
            &created,
            &wrong,
            &claim("my-pod-my-resource", "5678", allocated())
        ));
    }
}
