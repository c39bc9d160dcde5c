//! `DynamicResources` (v1.35, reference `dra.md` §2): PreEnqueue, PreFilter, Filter (the
//! structured allocator, [`allocator`]), PostFilter (deallocation), Score and NormalizeScore
//! (`DRAPrioritizedList`), Reserve and PreBind, and the QueueingHints of claim, slice and class
//! changes.
//!
//! The simulation does the writes: at assume (Reserve) the claims take the allocation Filter
//! found for the chosen node (in flight: their devices count as allocated for every later pod);
//! when the binding completes (PreBind) the pod is added to `reservedFor`; PostFilter's
//! deallocation is applied after the cycle. Every rejection is UnschedulableAndUnresolvable,
//! allocator errors are `Error`s, as upstream.
//!
//! Deviations (also in `docs/fidelity.md`): pools and slices are visited in a fixed order
//! (§0.2); PostFilter deallocates the lowest unavailable claim index; the 10 s filter timeout
//! never fires; the args are read strictly and not validated.

pub(crate) mod allocator;
#[cfg(test)]
mod allocator_tests;
pub(crate) mod cel;
mod cel_check;
mod selectors;
#[cfg(test)]
mod tests;

use crate::cluster::{Cluster, NodeId, NodeInfo, PodInfo};
use crate::model::dra::catalog::DeviceTable;
use crate::model::dra::{AllocationResult, ResourceClaim, FIRST_AVAILABLE_MAX_SIZE};
use crate::model::field::FieldError;
use crate::model::NodeSelector;
use crate::queue::ClusterChange;
use crate::sched::Reason;
use crate::trace::v135::{ClaimAnswer, ClaimOnNode};
use crate::v135::plugin::{state, Cx, Plugin, PluginState, PreFilterOutput, QueueingHint};
use crate::v135::plugin::{PluginSpec, Point, Points};
use crate::v135::status::{Code, Status};
use allocator::{AllocError, NodeRef, Plan, SelectorError, Solution, World};
use selectors::Selectors;
use serde::Deserialize;
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

/// The registry entry.
pub(crate) static SPEC: PluginSpec = PluginSpec {
    name: "DynamicResources",
    points: Points::of(&[
        Point::PreEnqueue,
        Point::PreFilter,
        Point::Filter,
        Point::PostFilter,
        Point::Score,
        Point::Reserve,
        Point::PreBind,
    ]),
    default_enabled: true,
    default_weight: Some(2),
    args_kind: Some("DynamicResourcesArgs"),
    args_checked_by_validation: true,
    build,
};

/// `DynamicResourcesArgs`.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Args {
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    api_version: Option<String>,
    #[serde(default)]
    filter_timeout: Option<String>,
    #[serde(default)]
    binding_timeout: Option<String>,
}

/// The plugin, with its compiled selectors.
#[derive(Default)]
pub(crate) struct DynamicResources {
    selectors: Selectors,
}

/// PreFilter's state (`stateData`).
#[derive(Clone, Debug, Default)]
pub(crate) struct DraState {
    /// The pod's claims, in `spec.resourceClaims` order.
    pub(crate) claims: Vec<Arc<ResourceClaim>>,
    /// The indices of the claims to allocate.
    to_allocate: Vec<usize>,
    /// Where each allocated claim is usable (`availableOnNodes`).
    available_on: Vec<Option<NodeSelector>>,
    /// The device table the allocations were computed against.
    table: Option<Arc<DeviceTable>>,
    /// The node-independent part of allocating the claims to allocate.
    plan: Option<Arc<Plan>>,
    /// `nodeAllocations`: Filter's result per node, compact.
    /// (by node id, sized to the cycle's nodes).
    node_allocations: Arc<Mutex<Vec<Option<Solution>>>>,
    /// `unavailableClaims`.
    unavailable: Arc<Mutex<BTreeSet<usize>>>,
}

impl DraState {
    /// The allocation Filter found on `node` for each claim to allocate: (claim, allocation).
    pub(crate) fn allocations_on(
        &self,
        node: NodeId,
    ) -> Vec<(Arc<ResourceClaim>, AllocationResult)> {
        let Some(found) = self.found_on(node) else {
            return Vec::new();
        };
        self.to_allocate
            .iter()
            .zip(self.results(&found))
            .map(|(&i, a)| (Arc::clone(&self.claims[i]), a))
            .collect()
    }

    /// The solution Filter found on `node`, if it passed there.
    fn found_on(&self, node: NodeId) -> Option<Solution> {
        let found = self
            .node_allocations
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        found.get(node).cloned().flatten()
    }

    /// The claims' allocations of a solution Filter found.
    fn results(&self, found: &Solution) -> Vec<AllocationResult> {
        let (Some(table), Some(plan)) = (&self.table, &self.plan) else {
            return Vec::new();
        };
        let claims: Vec<&ResourceClaim> =
            self.to_allocate.iter().map(|&i| &*self.claims[i]).collect();
        found.results(table, plan, &claims)
    }
}

/// `foreachPodResourceClaim`: the pod's claims in order, or the first lookup error.
pub(crate) fn pod_claims(
    pod: &PodInfo,
    cluster: &Cluster,
) -> Result<Vec<Arc<ResourceClaim>>, String> {
    let p = &pod.pod;
    let ns = &pod.namespace;
    let mut out = Vec::with_capacity(p.spec.resource_claims.len());
    for entry in &p.spec.resource_claims {
        let (name, owned) = if let Some(n) = &entry.resource_claim_name {
            (n.clone(), false)
        } else if entry.resource_claim_template_name.is_some() {
            let Some(st) = p
                .status
                .resource_claim_statuses
                .iter()
                .find(|s| s.name == entry.name)
            else {
                return Err(format!(
                    "pod \"{}\": ResourceClaim not created yet",
                    pod.full_name
                ));
            };
            match &st.resource_claim_name {
                Some(n) => (n.clone(), true),
                None => continue,
            }
        } else {
            return Err(format!(
                "pod \"{}\", spec.resourceClaim \"{}\": none of the supported fields are set",
                pod.full_name, entry.name
            ));
        };
        let Some(e) = cluster.dra().claim(ns, &name) else {
            return Err(format!("could not find ResourceClaim \"{ns}/{name}\""));
        };
        let claim = &e.claim;
        if claim.metadata.deletion_timestamp.is_some() {
            return Err(format!("resourceclaim {name:?} is being deleted"));
        }
        if owned {
            let ok = claim
                .metadata
                .controller()
                .is_some_and(|o| o.kind == "Pod" && o.uid == p.metadata.uid);
            if !ok {
                return Err(format!(
                    "ResourceClaim {ns}/{name} was not created for pod {} (pod is not owner)",
                    pod.full_name
                ));
            }
        }
        out.push(Arc::clone(claim));
    }
    Ok(out)
}

fn unresolvable(msg: impl Into<Reason>) -> PreFilterOutput {
    PreFilterOutput::status(Code::UnschedulableAndUnresolvable, msg)
}

impl DynamicResources {
    /// The class check of PreFilter (`validateDeviceClass`).
    fn check_classes(&self, claim: &ResourceClaim, cluster: &Cluster) -> Option<PreFilterOutput> {
        let classes = &cluster.dra().classes;
        for r in &claim.spec.devices.requests {
            let list: Vec<(String, &str)> = match (&r.exactly, &r.first_available) {
                (Some(e), _) => vec![(r.name.clone(), e.device_class_name.as_str())],
                (_, Some(subs)) => subs
                    .iter()
                    .map(|s| {
                        (
                            format!("{}/{}", r.name, s.name),
                            s.device_class_name.as_str(),
                        )
                    })
                    .collect(),
                _ => {
                    return Some(unresolvable(format!(
                        "resource claim {}, request {}: unknown request type",
                        claim.key(),
                        r.name
                    )))
                }
            };
            for (name, class) in list {
                if class.is_empty() {
                    return Some(PreFilterOutput::status(
                        Code::Error,
                        format!("request {name}: unsupported request type"),
                    ));
                }
                if !classes.contains_key(class) {
                    return Some(unresolvable(format!(
                        "request {name}: device class {class} does not exist"
                    )));
                }
            }
        }
        None
    }

    /// Calls `f` with what the allocator reads for the state's claims on `node` (`None`
    /// when no claim needs allocating).
    fn with_world<T>(
        &self,
        cx: &Cx,
        st: &DraState,
        node: &NodeInfo,
        f: impl FnOnce(&World, &NodeRef, &Plan) -> T,
    ) -> Option<T> {
        let (Some(table), Some(plan)) = (&st.table, &st.plan) else {
            return None;
        };
        let dra = cx.cluster.dra();
        let in_use = |k: u32| dra.in_use(k);
        let selector = |e: &str, d: u32| -> Result<bool, SelectorError> {
            self.selectors.evaluate(table, e, d)
        };
        let world = World {
            table,
            classes: &dra.classes,
            in_use: &in_use,
            selector: &selector,
        };
        let node = NodeRef {
            name: node.name(),
            labels: node.labels(),
        };
        Some(f(&world, &node, plan))
    }

    /// Allocates the state's claims on `node`.
    fn allocate_on(
        &self,
        cx: &Cx,
        st: &DraState,
        node: &NodeInfo,
    ) -> Result<Option<Solution>, AllocError> {
        self.with_world(cx, st, node, |world, node, plan| {
            allocator::allocate_planned(world, node, plan).0
        })
        .unwrap_or(Ok(None))
    }
}

/// `computeScore`: `8 − i` for each `firstAvailable` request whose subrequest `i` was chosen,
/// over the claims allocated before the cycle (their `status.allocation`) and those Filter
/// allocated on the node (its solution).
fn compute_score(st: &DraState, found: &Solution) -> i64 {
    let mut score = st
        .plan
        .as_deref()
        .map_or(0, |plan| found.prioritized_score(plan));
    for claim in &st.claims {
        let Some(alloc) = &claim.status.allocation else {
            continue;
        };
        for r in &claim.spec.devices.requests {
            let Some(subs) = &r.first_available else {
                continue;
            };
            for (i, s) in subs.iter().enumerate() {
                let name = format!("{}/{}", r.name, s.name);
                if alloc.devices.results.iter().any(|x| x.request == name) {
                    score += (FIRST_AVAILABLE_MAX_SIZE - i) as i64;
                }
            }
        }
    }
    score
}

impl Plugin for DynamicResources {
    fn name(&self) -> &'static str {
        SPEC.name
    }

    fn queueing_hint(
        &self,
        change: &ClusterChange,
        _pod: &PodInfo,
        _cluster: &Cluster,
    ) -> QueueingHint {
        // Node Add | UpdateNodeLabel | UpdateNodeAllocatable, without a hint; pod events are
        // not registered.
        match change {
            ClusterChange::NodeAdd(_) => QueueingHint::Queue,
            ClusterChange::NodeUpdate { change, .. } => {
                QueueingHint::queue_if(change.labels || change.allocatable)
            }
            ClusterChange::PodAdd(_) | ClusterChange::PodDelete(_) => QueueingHint::QueueSkip,
        }
    }

    fn pre_enqueue(&self, pod: &PodInfo, cluster: &Cluster) -> Status {
        match pod_claims(pod, cluster) {
            Ok(_) => Status::success(),
            Err(m) => Status::new(Code::UnschedulableAndUnresolvable, m),
        }
    }

    fn uniform_score(&self, _cx: &Cx, st: Option<&dyn PluginState>) -> Option<i64> {
        let st = state::<DraState>(st)?;
        let prioritized = st.claims.iter().any(|c| {
            c.spec
                .devices
                .requests
                .iter()
                .any(|r| r.first_available.is_some())
        });
        (!prioritized).then_some(0)
    }

    fn pre_filter(&self, cx: &Cx) -> PreFilterOutput {
        if cx.pod.pod.spec.resource_claims.is_empty() {
            return PreFilterOutput {
                state: Some(Box::new(DraState::default())),
                ..PreFilterOutput::skip()
            };
        }
        let claims = match pod_claims(cx.pod, cx.cluster) {
            Ok(c) => c,
            Err(m) => return unresolvable(m),
        };
        if claims.is_empty() {
            return PreFilterOutput {
                state: Some(Box::new(DraState::default())),
                ..PreFilterOutput::skip()
            };
        }
        let mut st = DraState {
            available_on: vec![None; claims.len()],
            ..DraState::default()
        };
        for (i, c) in claims.iter().enumerate() {
            if let Some(a) = &c.status.allocation {
                st.available_on[i] = a.node_selector.clone();
                continue;
            }
            let in_flight = cx
                .cluster
                .dra()
                .claim(&cx.pod.namespace, &c.metadata.name)
                .and_then(|e| e.in_flight.clone());
            if in_flight.is_some() {
                return unresolvable(format!(
                    "resource claim {} is in the process of being allocated",
                    c.key()
                ));
            }
            if let Some(out) = self.check_classes(c, cx.cluster) {
                return out;
            }
            st.to_allocate.push(i);
        }
        if !st.to_allocate.is_empty() {
            let dra = cx.cluster.dra();
            st.table = Some(Arc::clone(dra.table()));
            let to_allocate: Vec<&ResourceClaim> =
                st.to_allocate.iter().map(|&i| &*claims[i]).collect();
            st.plan = Some(Arc::new(Plan::new(&dra.classes, dra.table(), &to_allocate)));
            st.node_allocations = Arc::new(Mutex::new(vec![None; cx.cluster.nodes().len()]));
        }
        st.claims = claims;
        PreFilterOutput::with_state(st)
    }

    fn filter(
        &self,
        cx: &Cx,
        s: Option<&dyn PluginState>,
        node: &NodeInfo,
        reasons: &mut Vec<Reason>,
    ) -> Code {
        let Some(st) = state::<DraState>(s) else {
            return Code::Success;
        };
        let unavailable: Vec<usize> = st
            .available_on
            .iter()
            .enumerate()
            .filter(|(_, sel)| {
                sel.as_ref()
                    .is_some_and(|sel| !sel.matches(node.labels(), node.name()))
            })
            .map(|(i, _)| i)
            .collect();
        let mut found = None;
        if st.table.is_some() {
            match self.allocate_on(cx, st, node) {
                Err(AllocError::OnNode(m)) => {
                    reasons.push(m.into());
                    return Code::UnschedulableAndUnresolvable;
                }
                Err(AllocError::Error(m)) => {
                    reasons.push(m.into());
                    return Code::Error;
                }
                Ok(Some(a)) => found = Some(a),
                Ok(_) => {
                    reasons.push("cannot allocate all claims".into());
                    return Code::UnschedulableAndUnresolvable;
                }
            }
        }
        if !unavailable.is_empty() {
            st.unavailable
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .extend(unavailable);
            reasons.push("resourceclaim not available on the node".into());
            return Code::UnschedulableAndUnresolvable;
        }
        if let Some(a) = found {
            let mut all = st
                .node_allocations
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            if let Some(slot) = all.get_mut(node.id()) {
                *slot = Some(a);
            }
        }
        Code::Success
    }

    fn claim_answers(
        &self,
        cx: &Cx,
        s: Option<&dyn PluginState>,
        node: &NodeInfo,
    ) -> Vec<ClaimOnNode> {
        let Some(st) = state::<DraState>(s) else {
            return Vec::new();
        };
        let mut answers: Vec<Option<ClaimAnswer>> = vec![None; st.claims.len()];
        for (i, c) in st.claims.iter().enumerate() {
            if c.status.allocation.is_some() {
                let usable = st.available_on[i]
                    .as_ref()
                    .is_none_or(|sel| sel.matches(node.labels(), node.name()));
                answers[i] = Some(ClaimAnswer::Allocated { usable });
            }
        }
        let found = st.found_on(node.id());
        let list: Vec<ClaimAnswer> = match found {
            Some(found) => st
                .results(&found)
                .into_iter()
                .map(|a| {
                    ClaimAnswer::Devices(
                        a.devices
                            .results
                            .into_iter()
                            .map(|r| (r.request, format!("{}/{}/{}", r.driver, r.pool, r.device)))
                            .collect(),
                    )
                })
                .collect(),
            None => {
                let claims: Vec<&ResourceClaim> =
                    st.to_allocate.iter().map(|&i| &*st.claims[i]).collect();
                self.with_world(cx, st, node, |world, node, _| {
                    allocator::diagnose(world, node, &claims)
                })
                .unwrap_or_default()
            }
        };
        for (&i, a) in st.to_allocate.iter().zip(list) {
            answers[i] = Some(a);
        }
        st.claims
            .iter()
            .zip(answers)
            .filter_map(|(c, a)| {
                a.map(|answer| ClaimOnNode {
                    claim: c.key(),
                    answer,
                })
            })
            .collect()
    }

    fn score(&self, _cx: &Cx, s: Option<&dyn PluginState>, node: &NodeInfo) -> Result<i64, String> {
        let Some(st) = state::<DraState>(s) else {
            return Ok(0);
        };
        Ok(st.found_on(node.id()).map_or(0, |a| compute_score(st, &a)))
    }

    fn normalize(
        &self,
        _cx: &Cx,
        _s: Option<&dyn PluginState>,
        _nodes: &[&NodeInfo],
        scores: &mut [i64],
    ) {
        // DefaultNormalizeScore(100, reverse = false).
        let max = scores.iter().copied().max().unwrap_or(0);
        if max == 0 {
            return;
        }
        for v in scores.iter_mut() {
            *v = crate::v135::plugin::MAX_NODE_SCORE * *v / max;
        }
    }
}

/// PostFilter (`dra.md` §2.4): its status, and the claim (namespace, name) to deallocate.
pub(crate) fn post_filter(
    ran: bool,
    s: Option<&dyn PluginState>,
    pod: &PodInfo,
) -> (Status, Option<(String, String)>) {
    if !ran {
        return (Status::new(Code::Error, "not found"), None);
    }
    let Some(st) = state::<DraState>(s).filter(|st| !st.claims.is_empty()) else {
        return (
            Status::new(Code::Unschedulable, "no new claims to deallocate"),
            None,
        );
    };
    let unavailable = st
        .unavailable
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    for i in unavailable {
        let c = &st.claims[i];
        let reserved = &c.status.reserved_for;
        if reserved.is_empty() || (reserved.len() == 1 && reserved[0].uid == pod.pod.metadata.uid) {
            let key = (
                c.metadata.namespace_or_default().to_string(),
                c.metadata.name.clone(),
            );
            return (
                Status::new(
                    Code::Unschedulable,
                    "deallocation of ResourceClaim completed",
                ),
                Some(key),
            );
        }
    }
    (
        Status::new(Code::Unschedulable, "still not schedulable"),
        None,
    )
}

fn build(args: Option<&serde_json::Value>) -> Result<Box<dyn Plugin>, Vec<FieldError>> {
    if let Some(v) = args {
        let args: Args = serde_path_to_error::deserialize(v).map_err(|e| {
            vec![FieldError::plain(
                e.path().to_string().trim_start_matches('.'),
                e.into_inner().to_string(),
            )]
        })?;
        let _ = (
            args.kind,
            args.api_version,
            args.filter_timeout,
            args.binding_timeout,
        );
    }
    Ok(Box::new(DynamicResources::default()))
}
