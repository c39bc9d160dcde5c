//! The resource allocation scorer the two NodeResources plugins share
//! (`noderesources/resource_allocation.go`, `least_allocated.go`, `most_allocated.go`,
//! `requested_to_capacity_ratio.go`): the configured resources with their weights, how each
//! is read off a pod and a node, and the scoring strategies.

use crate::cluster::{NodeInfo, PodInfo};
use crate::model::resources::{is_scalar_resource, CPU, EPHEMERAL_STORAGE, MEMORY};
use crate::sched::MAX_NODE_SCORE;
use serde::Deserialize;

/// `ResourceSpec` as read: `{name, weight}`.
#[derive(Deserialize, Default, Clone)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct ResourceSpecIn {
    #[serde(default)]
    pub(crate) name: Option<String>,
    #[serde(default)]
    pub(crate) weight: i64,
}

/// `defaultResourceSpec`: cpu and memory, weight 1.
pub(crate) fn default_resource_specs() -> Vec<(String, i64)> {
    vec![(CPU.to_string(), 1), (MEMORY.to_string(), 1)]
}

/// Defaulting of a resource list (`SetDefaults_NodeResources*Args`): empty → cpu and memory;
/// weight 0 → 1.
pub(crate) fn default_resources(given: Option<Vec<ResourceSpecIn>>) -> Vec<(String, i64)> {
    let given = given.unwrap_or_default();
    if given.is_empty() {
        return default_resource_specs();
    }
    given
        .into_iter()
        .map(|r| {
            let w = if r.weight == 0 { 1 } else { r.weight };
            (r.name.unwrap_or_default(), w)
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The resource allocation scorer, shared with NodeResourcesBalancedAllocation.

/// How a configured resource is read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ResourceKind {
    /// `cpu`, in milli-cores.
    Cpu,
    /// `memory`.
    Memory,
    /// `ephemeral-storage`.
    EphemeralStorage,
    /// A scalar resource (extended, hugepages, attachable volumes, `kubernetes.io/…`).
    Scalar(String),
    /// Anything else (`pods`, `storage`, ...): never present in a node's scalar resources, so
    /// always left out of the score.
    Other,
}

impl ResourceKind {
    pub(crate) fn of(name: &str) -> ResourceKind {
        match name {
            CPU => ResourceKind::Cpu,
            MEMORY => ResourceKind::Memory,
            EPHEMERAL_STORAGE => ResourceKind::EphemeralStorage,
            n if is_scalar_resource(n) => ResourceKind::Scalar(n.to_string()),
            _ => ResourceKind::Other,
        }
    }

    /// `calculatePodResourceRequest`: the pod's request of this resource; with
    /// `use_requested == false` cpu and memory carry the non-zero defaults.
    pub(crate) fn pod_request(&self, pod: &PodInfo, use_requested: bool) -> i64 {
        match self {
            ResourceKind::Cpu if use_requested => pod.request.milli_cpu,
            ResourceKind::Cpu => pod.nonzero_cpu,
            ResourceKind::Memory if use_requested => pod.request.memory,
            ResourceKind::Memory => pod.nonzero_memory,
            ResourceKind::EphemeralStorage => pod.request.ephemeral_storage,
            ResourceKind::Scalar(name) => pod.request.scalar(name),
            ResourceKind::Other => 0,
        }
    }

    /// `calculateResourceAllocatableRequest`: (allocatable, node requested + pod request);
    /// `(0, 0)` leaves the resource out.
    pub(crate) fn allocatable_requested(
        &self,
        node: &NodeInfo,
        pod_request: i64,
        use_requested: bool,
    ) -> (i64, i64) {
        let alloc = node.hot();
        match self {
            ResourceKind::Cpu => {
                let used = if use_requested {
                    node.requested().milli_cpu
                } else {
                    node.nonzero_cpu()
                };
                (alloc.milli_cpu, used + pod_request)
            }
            ResourceKind::Memory => {
                let used = if use_requested {
                    node.requested().memory
                } else {
                    node.nonzero_memory()
                };
                (alloc.memory, used + pod_request)
            }
            ResourceKind::EphemeralStorage => (
                alloc.ephemeral_storage,
                node.requested().ephemeral_storage + pod_request,
            ),
            ResourceKind::Scalar(_) if pod_request == 0 => (0, 0),
            ResourceKind::Scalar(name) => (
                node.allocatable().scalar(name),
                node.requested().scalar(name) + pod_request,
            ),
            ResourceKind::Other => (0, 0),
        }
    }
}

/// A configured resource: how to read it and its weight.
#[derive(Clone, Debug)]
pub(crate) struct ScoredResource {
    pub(crate) kind: ResourceKind,
    pub(crate) weight: i64,
}

/// The pod's request of every configured resource, once per cycle.
pub(crate) fn pod_requests(
    resources: &[ScoredResource],
    pod: &PodInfo,
    use_requested: bool,
) -> Vec<i64> {
    resources
        .iter()
        .map(|r| r.kind.pod_request(pod, use_requested))
        .collect()
}

/// The scoring strategy.
#[derive(Clone, Debug)]
pub(crate) enum Strategy {
    LeastAllocated,
    MostAllocated,
    /// The shape with scores already scaled to 0..100.
    RequestedToCapacityRatio(Vec<(i64, i64)>),
}

/// `helper.BuildBrokenLinearFunction`: integer interpolation between the points (Go's
/// truncating division), flat before the first point and after the last.
pub(crate) fn broken_linear(shape: &[(i64, i64)], p: i64) -> i64 {
    for (i, &(u, s)) in shape.iter().enumerate() {
        if p <= u {
            if i == 0 {
                return s;
            }
            let (u0, s0) = shape[i - 1];
            return s0 + (s - s0) * (p - u0) / (u - u0);
        }
    }
    shape.last().map_or(0, |&(_, s)| s)
}

/// [`Strategy::score`] for `LeastAllocated` over cpu and memory (weights `cpu_weight`,
/// `memory_weight`), with the same operations in the same order.
#[inline(always)]
pub(crate) fn least_allocated_cpu_memory(
    cpu: i64,
    memory: i64,
    cpu_weight: i64,
    memory_weight: i64,
    node: &NodeInfo,
) -> i64 {
    let alloc = node.hot();
    let least = |alloc: i64, req: i64| {
        if req > alloc {
            0
        } else {
            (alloc - req) * MAX_NODE_SCORE / alloc
        }
    };
    let (c, m) = (alloc.milli_cpu, alloc.memory);
    let cpu_score = || least(c, node.nonzero_cpu() + cpu) * cpu_weight;
    let memory_score = || least(m, node.nonzero_memory() + memory) * memory_weight;
    match (c == 0, m == 0) {
        (false, false) => (cpu_score() + memory_score()) / (cpu_weight + memory_weight),
        (false, true) => cpu_score() / cpu_weight,
        (true, false) => memory_score() / memory_weight,
        (true, true) => 0,
    }
}

impl Strategy {
    pub(crate) fn score(
        &self,
        resources: &[ScoredResource],
        requests: &[i64],
        node: &NodeInfo,
    ) -> i64 {
        let mut node_score = 0i64;
        let mut weight_sum = 0i64;
        for (r, &p) in resources.iter().zip(requests) {
            let (alloc, req) = r.kind.allocatable_requested(node, p, false);
            if alloc == 0 {
                continue;
            }
            let s = match self {
                Strategy::LeastAllocated => {
                    if req > alloc {
                        0
                    } else {
                        (alloc - req) * MAX_NODE_SCORE / alloc
                    }
                }
                Strategy::MostAllocated => req.min(alloc) * MAX_NODE_SCORE / alloc,
                Strategy::RequestedToCapacityRatio(shape) => {
                    let u = if req > alloc { 100 } else { req * 100 / alloc };
                    let f = broken_linear(shape, u);
                    if f <= 0 {
                        continue;
                    }
                    f
                }
            };
            node_score += s * r.weight;
            weight_sum += r.weight;
        }
        if weight_sum == 0 {
            return 0;
        }
        match self {
            Strategy::RequestedToCapacityRatio(_) => {
                (node_score as f64 / weight_sum as f64).round() as i64
            }
            _ => node_score / weight_sum,
        }
    }
}
