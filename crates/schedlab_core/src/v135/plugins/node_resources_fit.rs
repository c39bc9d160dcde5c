//! `NodeResourcesFit` (v1.35, `noderesources/fit.go`, `resource_allocation.go`,
//! `least_allocated.go`, `most_allocated.go`, `requested_to_capacity_ratio.go`; reference §4.6,
//! §1.4, §2.3): PreFilter, Filter, PreScore, Score (weight 1 by default); args
//! `NodeResourcesFitArgs`.
//!
//! **Requests.** The pod's request is `resource.PodRequests` (sidecars added to the containers
//! and to every later init container's use, the init maximum, `spec.overhead` added), which
//! [`crate::cluster::PodInfo::new_v135`] computes as `request`; a node's `requested` sums its
//! pods' requests the same way, and its `nonzero_cpu`/`nonzero_memory` sum them with the
//! 100m / 200Mi default for every container (regular and init) that lacks one. PreFilter has
//! nothing to compute, so it stores no state: Filter reads the pod's `request`.
//!
//! **Filter** (`fitsRequest`), reasons in this order: `Too many pods` (even for a pod that
//! requests nothing); then, if the pod requests anything, `Insufficient cpu`, `Insufficient
//! memory`, `Insufficient ephemeral-storage`, and `Insufficient <name>` for each scalar
//! resource (in name order: upstream walks a Go map), skipping extended resources named in
//! `ignoredResources` or whose group (before `/`) is in `ignoredResourceGroups`. The code is
//! Unschedulable, or UnschedulableAndUnresolvable when some failing resource's request exceeds
//! the node's allocatable (`Too many pods` never does).
//!
//! **Score** (`resourceAllocationScorer` with `useRequested = false`): per configured resource,
//! the pod's request with the non-zero defaults for cpu and memory, added to the node's
//! `NonZeroRequested` (cpu, memory) or `Requested` (the others); a scalar resource the pod does
//! not request, and any resource with allocatable 0, is left out. Then the strategy:
//! LeastAllocated `(alloc - req) * 100 / alloc` (0 past capacity), MostAllocated
//! `min(req, alloc) * 100 / alloc`, both averaged as `Σ score·w / Σ w` with integer division;
//! RequestedToCapacityRatio maps the utilization `req * 100 / alloc` (100 past capacity)
//! through the broken-linear shape (scores ×10), keeps only resources scoring above 0, and
//! rounds `Σ f·w / Σ w` with `math.Round`. No NormalizeScore.

use super::helper::{decode_args, dedup_errors};
use crate::cluster::{Cluster, NodeId, NodeInfo, PodInfo};
use crate::model::field::{FieldError, Value};
use crate::model::resources::{
    is_extended_resource, is_scalar_resource, CPU, EPHEMERAL_STORAGE, MEMORY,
};
use crate::sched::Reason;
use crate::v135::plugin::{state, Cx, Plugin, PluginState, PreFilterOutput, PreScoreOutput};
use crate::v135::plugin::{PluginSpec, Point, Points};
use crate::v135::status::Code;
use serde::Deserialize;
use std::borrow::Cow;

/// The registry entry.
pub static SPEC: PluginSpec = PluginSpec {
    name: "NodeResourcesFit",
    points: Points::of(&[
        Point::PreFilter,
        Point::Filter,
        Point::PreScore,
        Point::Score,
    ]),
    default_enabled: true,
    default_weight: Some(1),
    args_kind: Some("NodeResourcesFitArgs"),
    args_checked_by_validation: false,
    build,
};

use crate::model::Node;
use crate::queue::ClusterChange;
use crate::sched::MAX_NODE_SCORE;
use crate::v135::plugin::QueueingHint;
/// `MaxCustomPriorityScore`: shape scores are given on 0..10.
const MAX_CUSTOM_PRIORITY_SCORE: i64 = 10;
const LEAST_ALLOCATED: &str = "LeastAllocated";
const MOST_ALLOCATED: &str = "MostAllocated";
const REQUESTED_TO_CAPACITY_RATIO: &str = "RequestedToCapacityRatio";
/// `supportedScoringStrategyTypes`, sorted as `sets.List` gives them.
const STRATEGY_TYPES: [&str; 3] = [LEAST_ALLOCATED, MOST_ALLOCATED, REQUESTED_TO_CAPACITY_RATIO];

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
                    node.requested.milli_cpu
                } else {
                    node.nonzero_cpu
                };
                (alloc.milli_cpu, used + pod_request)
            }
            ResourceKind::Memory => {
                let used = if use_requested {
                    node.requested.memory
                } else {
                    node.nonzero_memory
                };
                (alloc.memory, used + pod_request)
            }
            ResourceKind::EphemeralStorage => (
                alloc.ephemeral_storage,
                node.requested.ephemeral_storage + pod_request,
            ),
            ResourceKind::Scalar(_) if pod_request == 0 => (0, 0),
            ResourceKind::Scalar(name) => (
                node.allocatable().scalar(name),
                node.requested.scalar(name) + pod_request,
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
enum Strategy {
    LeastAllocated,
    MostAllocated,
    /// The shape with scores already scaled to 0..100.
    RequestedToCapacityRatio(Vec<(i64, i64)>),
}

/// `helper.BuildBrokenLinearFunction`: integer interpolation between the points (Go's
/// truncating division), flat before the first point and after the last.
fn broken_linear(shape: &[(i64, i64)], p: i64) -> i64 {
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
fn least_allocated_cpu_memory(
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
    let cpu_score = || least(c, node.nonzero_cpu + cpu) * cpu_weight;
    let memory_score = || least(m, node.nonzero_memory + memory) * memory_weight;
    match (c == 0, m == 0) {
        (false, false) => (cpu_score() + memory_score()) / (cpu_weight + memory_weight),
        (false, true) => cpu_score() / cpu_weight,
        (true, false) => memory_score() / memory_weight,
        (true, true) => 0,
    }
}

impl Strategy {
    fn score(&self, resources: &[ScoredResource], requests: &[i64], node: &NodeInfo) -> i64 {
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

// ---------------------------------------------------------------------------------------------
// The plugin.

/// The plugin, with its args defaulted and validated.
pub struct NodeResourcesFit {
    ignored_resources: Vec<String>,
    ignored_resource_groups: Vec<String>,
    resources: Vec<ScoredResource>,
    strategy: Strategy,
}

/// PreScore's state: the pod's request of each configured resource (non-zero defaults).
#[derive(Clone, Debug)]
struct FitPreScore(Vec<i64>);

impl NodeResourcesFit {
    /// Whether an extended resource is ignored by `ignoredResources` / `ignoredResourceGroups`.
    fn ignored(&self, name: &str) -> bool {
        if !is_extended_resource(name) {
            return false;
        }
        if self.ignored_resources.iter().any(|r| r == name) {
            return true;
        }
        !self.ignored_resource_groups.is_empty() && {
            let prefix = name.split('/').next().unwrap_or("");
            self.ignored_resource_groups.iter().any(|g| g == prefix)
        }
    }
}

impl Plugin for NodeResourcesFit {
    /// A freed pod, a new node or more allocatable that could hold the pod.
    fn queueing_hint(
        &self,
        change: &ClusterChange,
        pod: &PodInfo,
        cluster: &Cluster,
    ) -> QueueingHint {
        let node = |id: NodeId| cluster.nodes.get(id).map(|n| n.object());
        QueueingHint::queue_if(match *change {
            ClusterChange::PodDelete(_) => true,
            ClusterChange::NodeAdd(n) => node(n).is_some_and(|n| fits_empty(pod, n)),
            ClusterChange::NodeUpdate {
                node: n, change, ..
            } => change.allocatable && node(n).is_some_and(|n| fits_empty(pod, n)),
            ClusterChange::PodAdd(_) => false,
        })
    }

    fn normalizes(&self) -> bool {
        false
    }

    fn name(&self) -> &'static str {
        SPEC.name
    }

    fn pre_filter(&self, _cx: &Cx) -> PreFilterOutput {
        // `computePodResourceRequest` is the pod's `request`, already computed.
        PreFilterOutput::default()
    }

    fn filter(
        &self,
        cx: &Cx,
        _state: Option<&dyn PluginState>,
        node: &NodeInfo,
        reasons: &mut Vec<Reason>,
    ) -> Code {
        let req = &cx.pod.request;
        let alloc = node.hot();
        let used = &node.requested;
        let mut failed = false;
        let mut unresolvable = false;
        if node.pods.len() as i64 + 1 > alloc.pods {
            reasons.push(Reason::Message(Cow::Borrowed("Too many pods")));
            failed = true;
        }
        if !req.is_zero() {
            let mut check = |name: Cow<'static, str>, want: i64, have: i64, in_use: i64| {
                if want > 0 && want > have - in_use {
                    reasons.push(Reason::Insufficient {
                        resource: name,
                        requested: want,
                        used: in_use,
                        capacity: have,
                    });
                    failed = true;
                    unresolvable |= want > have;
                }
            };
            check(
                Cow::Borrowed(CPU),
                req.milli_cpu,
                alloc.milli_cpu,
                used.milli_cpu,
            );
            check(Cow::Borrowed(MEMORY), req.memory, alloc.memory, used.memory);
            check(
                Cow::Borrowed(EPHEMERAL_STORAGE),
                req.ephemeral_storage,
                alloc.ephemeral_storage,
                used.ephemeral_storage,
            );
            for (name, want) in &req.scalars {
                if *want == 0 || self.ignored(name) {
                    continue;
                }
                let have = node.allocatable().scalar(name);
                let in_use = used.scalar(name);
                if *want > have - in_use {
                    // Checked first so that a fitting resource costs no name copy.
                    check(Cow::Owned(name.clone()), *want, have, in_use);
                }
            }
        }
        match (failed, unresolvable) {
            (false, _) => Code::Success,
            (true, false) => Code::Unschedulable,
            (true, true) => Code::UnschedulableAndUnresolvable,
        }
    }

    fn pre_score(&self, cx: &Cx, _nodes: &[&NodeInfo]) -> PreScoreOutput {
        PreScoreOutput::with_state(FitPreScore(pod_requests(&self.resources, cx.pod, false)))
    }

    fn score_nodes(
        &self,
        cx: &Cx,
        st: Option<&dyn PluginState>,
        nodes: &[&NodeInfo],
        out: &mut [i64],
    ) -> Result<(), String> {
        let owned;
        let requests = match state::<FitPreScore>(st) {
            Some(s) => &s.0,
            None => {
                owned = pod_requests(&self.resources, cx.pod, false);
                &owned
            }
        };
        match (
            &self.strategy,
            requests.as_slice(),
            self.resources.as_slice(),
        ) {
            (Strategy::LeastAllocated, &[cpu, memory], [c, m])
                if c.kind == ResourceKind::Cpu && m.kind == ResourceKind::Memory =>
            {
                if (c.weight, m.weight) == (1, 1) {
                    // The defaults, with the weights as constants.
                    for (slot, node) in out.iter_mut().zip(nodes) {
                        *slot = least_allocated_cpu_memory(cpu, memory, 1, 1, node);
                    }
                } else {
                    for (slot, node) in out.iter_mut().zip(nodes) {
                        *slot = least_allocated_cpu_memory(cpu, memory, c.weight, m.weight, node);
                    }
                }
            }
            _ => {
                for (slot, node) in out.iter_mut().zip(nodes) {
                    *slot = self.strategy.score(&self.resources, requests, node);
                }
            }
        }
        Ok(())
    }

    fn score(&self, cx: &Cx, st: Option<&dyn PluginState>, node: &NodeInfo) -> Result<i64, String> {
        Ok(match state::<FitPreScore>(st) {
            Some(s) => self.strategy.score(&self.resources, &s.0, node),
            None => {
                let reqs = pod_requests(&self.resources, cx.pod, false);
                self.strategy.score(&self.resources, &reqs, node)
            }
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Args.

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct NodeResourcesFitArgs {
    #[serde(default)]
    ignored_resources: Option<Vec<String>>,
    #[serde(default)]
    ignored_resource_groups: Option<Vec<String>>,
    #[serde(default)]
    scoring_strategy: Option<ScoringStrategyIn>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ScoringStrategyIn {
    #[serde(default, rename = "type")]
    type_: Option<String>,
    #[serde(default)]
    resources: Option<Vec<ResourceSpecIn>>,
    #[serde(default)]
    requested_to_capacity_ratio: Option<RequestedToCapacityRatioIn>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct RequestedToCapacityRatioIn {
    #[serde(default)]
    shape: Option<Vec<ShapePointIn>>,
}

#[derive(Deserialize, Default, Clone, Copy)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ShapePointIn {
    #[serde(default)]
    utilization: i32,
    #[serde(default)]
    score: i32,
}

/// `validateFunctionShape` under `path`.
fn validate_shape(shape: &[ShapePointIn], path: &str, errs: &mut Vec<FieldError>) {
    if shape.is_empty() {
        errs.push(FieldError::required(
            path,
            "at least one point must be specified",
        ));
        return;
    }
    for i in 1..shape.len() {
        if shape[i - 1].utilization >= shape[i].utilization {
            errs.push(FieldError::invalid(
                format!("{path}[{i}].utilization"),
                Value::Int(shape[i].utilization as i64),
                "values must be sorted in increasing order",
            ));
            break;
        }
    }
    for (i, p) in shape.iter().enumerate() {
        if !(0..=100).contains(&p.utilization) {
            errs.push(FieldError::invalid(
                format!("{path}[{i}].utilization"),
                Value::Int(p.utilization as i64),
                "not in valid range [0, 100]",
            ));
        }
        if !(0..=MAX_CUSTOM_PRIORITY_SCORE as i32).contains(&p.score) {
            errs.push(FieldError::invalid(
                format!("{path}[{i}].score"),
                Value::Int(p.score as i64),
                "not in valid range [0, 10]",
            ));
        }
    }
}

/// Reads `NodeResourcesFitArgs`, defaults it (`SetDefaults_NodeResourcesFitArgs`) and validates
/// it as `NewFit` does (`ValidateNodeResourcesFitArgs`, paths without prefix).
fn build(args: Option<&serde_json::Value>) -> Result<Box<dyn Plugin>, Vec<FieldError>> {
    let args: NodeResourcesFitArgs = decode_args(args)?.unwrap_or_default();
    let (type_, resources, rtcr) = match args.scoring_strategy {
        None => (LEAST_ALLOCATED.to_string(), default_resource_specs(), None),
        Some(s) => (
            s.type_.unwrap_or_default(),
            default_resources(s.resources),
            s.requested_to_capacity_ratio,
        ),
    };
    let ignored_resources = args.ignored_resources.unwrap_or_default();
    let ignored_resource_groups = args.ignored_resource_groups.unwrap_or_default();
    let mut errs = Vec::new();
    for (i, r) in ignored_resources.iter().enumerate() {
        super::helper::validate_label_name(r, &format!("ignoredResources[{i}]"), &mut errs);
    }
    for (i, g) in ignored_resource_groups.iter().enumerate() {
        let path = format!("ignoredResourceGroups[{i}]");
        if g.contains('/') {
            errs.push(FieldError::invalid(
                path.clone(),
                Value::Str(g),
                "resource group name can't contain '/'",
            ));
        }
        super::helper::validate_label_name(g, &path, &mut errs);
    }
    if !STRATEGY_TYPES.contains(&type_.as_str()) {
        errs.push(FieldError::not_supported(
            "scoringStrategy.type",
            Value::Str(&type_),
            &STRATEGY_TYPES,
        ));
    }
    for (i, (name, w)) in resources.iter().enumerate() {
        if *w <= 0 || *w > 100 {
            errs.push(FieldError::invalid(
                format!("scoringStrategy.resources[{i}].weight"),
                Value::Int(*w),
                &format!("resource weight of {name} not in valid range (0, 100]"),
            ));
        }
    }
    let shape = rtcr.map(|r| r.shape.unwrap_or_default());
    if let Some(shape) = &shape {
        validate_shape(shape, "scoringStrategy.shape", &mut errs);
    }
    if !errs.is_empty() {
        return Err(dedup_errors(errs));
    }
    let strategy = match type_.as_str() {
        LEAST_ALLOCATED => Strategy::LeastAllocated,
        MOST_ALLOCATED => Strategy::MostAllocated,
        _ => match shape {
            Some(shape) => Strategy::RequestedToCapacityRatio(
                shape
                    .iter()
                    .map(|p| {
                        (
                            p.utilization as i64,
                            p.score as i64 * (MAX_NODE_SCORE / MAX_CUSTOM_PRIORITY_SCORE),
                        )
                    })
                    .collect(),
            ),
            // v1.35 dereferences the missing parameter and panics in `NewFit`; here it is an
            // error, worded as later releases word it.
            None => {
                return Err(vec![FieldError::required(
                    "scoringStrategy.requestedToCapacityRatio",
                    "must be specified when type is RequestedToCapacityRatio",
                )])
            }
        },
    };
    Ok(Box::new(NodeResourcesFit {
        ignored_resources,
        ignored_resource_groups,
        resources: resources
            .into_iter()
            .map(|(name, weight)| ScoredResource {
                kind: ResourceKind::of(&name),
                weight,
            })
            .collect(),
        strategy,
    }))
}

/// The pod's requests fit the node's allocatable when it is empty (the hint's node check: an
/// added node, or more allocatable, that could hold the pod).
fn fits_empty(pod: &PodInfo, node: &Node) -> bool {
    let alloc = node.allocatable().0;
    let r = &pod.request;
    r.milli_cpu <= alloc.milli_cpu
        && r.memory <= alloc.memory
        && r.ephemeral_storage <= alloc.ephemeral_storage
        && r.scalars.iter().all(|(name, v)| *v <= alloc.scalar(name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{node, pod};
    use crate::v135::plugins::testkit::*;
    use serde_json::json;

    fn fit(args: serde_json::Value) -> Box<dyn Plugin> {
        build(Some(&args)).unwrap_or_else(|e| panic!("{e:?}"))
    }

    fn errors(args: serde_json::Value) -> Vec<String> {
        crate::v135::plugins::testkit::build_errors(build, args)
    }

    fn sized(name: &str, alloc: serde_json::Value) -> crate::model::Node {
        node(json!({"metadata": {"name": name}, "status": {"allocatable": alloc}}))
    }

    fn requesting(requests: serde_json::Value) -> crate::model::Pod {
        pod(json!({"spec": {"containers": [{"name": "c", "resources": {"requests": requests}}]}}))
    }

    fn fail(code: Code, reasons: &[&str]) -> (Code, Vec<String>) {
        (code, reasons.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn sidecar_init_and_overhead_arithmetic_in_the_filter() {
        // containers 100m + 200m = 300m; sidecar s1 50m and s2 100m add 150m → 450m.
        // Init-time uses: s1 → R = 50; i1 → 500 + 50 = 550; s2 → R = 150; i2 → 200 + 150 = 350.
        // initMax = 550 > 450, so 550m; overhead +10m → 560m.
        let p = info(pod(json!({"spec": {
            "containers": [
                {"name": "c1", "resources": {"requests": {"cpu": "100m"}}},
                {"name": "c2", "resources": {"requests": {"cpu": "200m"}}}],
            "initContainers": [
                {"name": "s1", "restartPolicy": "Always", "resources": {"requests": {"cpu": "50m"}}},
                {"name": "i1", "resources": {"requests": {"cpu": "500m"}}},
                {"name": "s2", "restartPolicy": "Always", "resources": {"requests": {"cpu": "100m"}}},
                {"name": "i2", "resources": {"requests": {"cpu": "200m"}}}],
            "overhead": {"cpu": "10m"}}})));
        assert_eq!(p.request.milli_cpu, 560);
        let c = cluster135(
            vec![
                sized("exact", json!({"cpu": "560m", "pods": 10})),
                sized("small", json!({"cpu": "559m", "pods": 10})),
                sized("busy", json!({"cpu": "1", "pods": 10})),
            ],
            vec![(requesting(json!({"cpu": "500m"})), 2)],
        );
        let plugin = build(None).expect("default");
        assert_eq!(
            run_filter(&*plugin, &c, &p),
            [
                ok(),
                // 560 > 559 - 0 and 560 > 559 (allocatable): unresolvable.
                fail(Code::UnschedulableAndUnresolvable, &["Insufficient cpu"]),
                // 560 > 1000 - 500 but 560 ≤ 1000: preemption may help.
                fail(Code::Unschedulable, &["Insufficient cpu"]),
            ]
        );
    }

    #[test]
    fn too_many_pods_and_each_resource_reason() {
        let c = cluster135(
            vec![
                sized("full", json!({"cpu": "1", "memory": "1000", "pods": 1})),
                sized(
                    "tiny",
                    json!({"cpu": "1", "memory": "100", "ephemeral-storage": "10",
                    "example.com/gpu": 1, "pods": 10}),
                ),
                sized(
                    "roomy",
                    json!({"cpu": "4", "memory": "4000", "ephemeral-storage": "4000",
                    "example.com/gpu": 4, "pods": 10}),
                ),
            ],
            vec![(requesting(json!({"cpu": "500m"})), 0)],
        );
        let plugin = build(None).expect("default");
        // A pod requesting nothing still meets `Too many pods` (1 pod + 1 > 1), resolvable.
        let empty = info(requesting(json!({})));
        assert_eq!(
            run_filter(&*plugin, &c, &empty),
            [fail(Code::Unschedulable, &["Too many pods"]), ok(), ok()]
        );
        // cpu 600m: full node 600 > 1000 - 500 (resolvable) after Too many pods.
        // memory 200 > 100, ephemeral 20 > 10, gpu 2 > 1 on the tiny node (all unresolvable).
        let p = info(requesting(json!({"cpu": "600m", "memory": "200",
            "ephemeral-storage": "20", "example.com/gpu": 2})));
        assert_eq!(
            run_filter(&*plugin, &c, &p),
            [
                // memory 200 ≤ 1000; ephemeral 20 > 0 - 0 and gpu 2 > 0: both beyond allocatable.
                fail(
                    Code::UnschedulableAndUnresolvable,
                    &[
                        "Too many pods",
                        "Insufficient cpu",
                        "Insufficient ephemeral-storage",
                        "Insufficient example.com/gpu"
                    ]
                ),
                fail(
                    Code::UnschedulableAndUnresolvable,
                    &[
                        "Insufficient memory",
                        "Insufficient ephemeral-storage",
                        "Insufficient example.com/gpu"
                    ]
                ),
                ok(),
            ]
        );
        // Too many pods plus a resolvable cpu shortage stays Unschedulable.
        let p = info(requesting(json!({"cpu": "600m"})));
        assert_eq!(
            run_filter(&*plugin, &c, &p)[0],
            fail(Code::Unschedulable, &["Too many pods", "Insufficient cpu"])
        );
        // The numbers behind the reason.
        let order = [0usize, 1, 2];
        let cx = Cx {
            cluster: &c,
            pod: &p,
            order: &order,
        };
        let mut reasons = Vec::new();
        plugin.filter(&cx, None, &c.nodes[0], &mut reasons);
        assert_eq!(
            reasons[1],
            Reason::Insufficient {
                resource: "cpu".into(),
                requested: 600,
                used: 500,
                capacity: 1000
            }
        );
    }

    #[test]
    fn ignored_resources_and_groups() {
        let c = cluster135(vec![sized("n", json!({"cpu": "1", "pods": 10}))], vec![]);
        let p = info(requesting(json!({"example.com/foo": 1, "other.io/bar": 1,
            "kubernetes.io/batteries": 1, "example.com/zero": 0})));
        // Every scalar with a request > 0 fails, in name order; the zero request is skipped.
        assert_eq!(
            run_filter(&*build(None).expect("default"), &c, &p),
            [fail(
                Code::UnschedulableAndUnresolvable,
                &[
                    "Insufficient example.com/foo",
                    "Insufficient kubernetes.io/batteries",
                    "Insufficient other.io/bar"
                ]
            )]
        );
        let by_name = fit(json!({"ignoredResources": ["example.com/foo"]}));
        assert_eq!(
            run_filter(&*by_name, &c, &p),
            [fail(
                Code::UnschedulableAndUnresolvable,
                &[
                    "Insufficient kubernetes.io/batteries",
                    "Insufficient other.io/bar"
                ]
            )]
        );
        // A group applies to extended resources only: kubernetes.io/ is never ignored.
        let by_group = fit(json!({"ignoredResourceGroups": ["other.io", "kubernetes.io"]}));
        assert_eq!(
            run_filter(&*by_group, &c, &p),
            [fail(
                Code::UnschedulableAndUnresolvable,
                &[
                    "Insufficient example.com/foo",
                    "Insufficient kubernetes.io/batteries"
                ]
            )]
        );
        let zero_only = info(requesting(json!({"example.com/zero": 0})));
        assert_eq!(run_filter(&*by_group, &c, &zero_only), [ok()]);
    }

    /// Three nodes and one bound pod for the scoring tests:
    /// A: cpu 4000m, memory 10000, with a bound pod of 1000m / 2000;
    /// B: cpu 3000m, memory 7000; C: cpu 500m, memory 2000.
    fn scoring_cluster() -> crate::cluster::Cluster {
        cluster135(
            vec![
                sized("a", json!({"cpu": "4", "memory": "10000", "pods": 10})),
                sized("b", json!({"cpu": "3", "memory": "7000", "pods": 10})),
                sized("c", json!({"cpu": "500m", "memory": "2000", "pods": 10})),
            ],
            vec![(requesting(json!({"cpu": "1", "memory": "2000"})), 0)],
        )
    }

    #[test]
    fn least_allocated() {
        let c = scoring_cluster();
        let p = info(requesting(json!({"cpu": "1", "memory": "3000"})));
        // A: cpu (4000-2000)*100/4000 = 50, memory (10000-5000)*100/10000 = 50 → 100/2 = 50.
        // B: cpu 200000/3000 = 66, memory 400000/7000 = 57 → 123/2 = 61.
        // C: both requests exceed capacity → 0.
        assert_eq!(
            run_score(&*build(None).expect("default"), &c, &p),
            Some((vec![50, 61, 0], vec![50, 61, 0]))
        );
        // Weights cpu 3, memory 1: B (66*3 + 57)/4 = 255/4 = 63; A (150+50)/4 = 50.
        let w = fit(json!({"scoringStrategy": {"type": "LeastAllocated",
            "resources": [{"name": "cpu", "weight": 3}, {"name": "memory", "weight": 1}]}}));
        assert_eq!(run_score(&*w, &c, &p).map(|s| s.0), Some(vec![50, 63, 0]));
    }

    #[test]
    fn most_allocated() {
        let c = scoring_cluster();
        let p = info(requesting(json!({"cpu": "1", "memory": "3000"})));
        let most = fit(json!({"scoringStrategy": {"type": "MostAllocated"}}));
        // A: 2000*100/4000 = 50, 5000*100/10000 = 50 → 50.
        // B: 1000*100/3000 = 33, 3000*100/7000 = 42 → 75/2 = 37.
        // C: requests capped at capacity: 100 and 100 → 100.
        assert_eq!(
            run_score(&*most, &c, &p).map(|s| s.0),
            Some(vec![50, 37, 100])
        );
    }

    #[test]
    fn zero_capacity_resources_are_left_out() {
        let c = cluster135(
            vec![
                sized("cpu-only", json!({"cpu": "2", "pods": 10})),
                sized("nothing", json!({"pods": 10})),
                sized("memory-only", json!({"memory": "12000", "pods": 10})),
            ],
            vec![],
        );
        let p = info(requesting(json!({"cpu": "1", "memory": "3000"})));
        // cpu-only: memory alloc 0 is left out; cpu (2000-1000)*100/2000 = 50 over weight 1.
        // nothing: no resource counts → 0.
        // memory-only: (12000-3000)*100/12000 = 75 over weight 1.
        assert_eq!(
            run_score(&*build(None).expect("default"), &c, &p).map(|s| s.0),
            Some(vec![50, 0, 75])
        );
        // Weights cpu 3, memory 2: cpu-only 50*3/3 = 50; memory-only 75*2/2 = 75.
        let w = fit(json!({"scoringStrategy": {"type": "LeastAllocated",
            "resources": [{"name": "cpu", "weight": 3}, {"name": "memory", "weight": 2}]}}));
        assert_eq!(run_score(&*w, &c, &p).map(|s| s.0), Some(vec![50, 0, 75]));
    }

    #[test]
    fn non_zero_defaults_in_scoring() {
        let gi = 1i64 << 30;
        // A bound pod without requests counts 100m and 200Mi on node 1.
        let c = cluster135(
            vec![
                sized("empty", json!({"cpu": "1", "memory": "1Gi", "pods": 10})),
                sized("used", json!({"cpu": "1", "memory": "1Gi", "pods": 10})),
            ],
            vec![(requesting(json!({})), 1)],
        );
        assert_eq!(c.nodes[1].nonzero_memory, 200 << 20);
        let p = info(requesting(json!({})));
        // empty: cpu (1000-100)*100/1000 = 90; memory (1Gi-200Mi)*100/1Gi = 80 (80.47) → 85.
        // used: cpu (1000-200)*100/1000 = 80; memory (1Gi-400Mi)*100/1Gi = 60 (60.94) → 70.
        assert_eq!((gi - (200 << 20)) * 100 / gi, 80);
        assert_eq!(
            run_score(&*build(None).expect("default"), &c, &p).map(|s| s.0),
            Some(vec![85, 70])
        );
        // Defaults apply to init containers too: a sidecar without cpu counts 100m on top of
        // the container's 50m (nonzero cpu 150), memory 100 + 100 = 200; the filter request
        // has cpu 50 only.
        let c = cluster135(
            vec![sized(
                "n",
                json!({"cpu": "1", "memory": "1000", "pods": 10}),
            )],
            vec![],
        );
        let p = info(pod(json!({"spec": {
            "containers": [{"name": "c", "resources": {"requests": {"cpu": "50m", "memory": "100"}}}],
            "initContainers": [{"name": "s", "restartPolicy": "Always",
                "resources": {"requests": {"memory": "100"}}}]}})));
        assert_eq!(
            (p.request.milli_cpu, p.nonzero_cpu, p.nonzero_memory),
            (50, 150, 200)
        );
        // cpu (1000-150)*100/1000 = 85; memory (1000-200)*100/1000 = 80 → 165/2 = 82.
        assert_eq!(
            run_score(&*build(None).expect("default"), &c, &p).map(|s| s.0),
            Some(vec![82])
        );
    }

    #[test]
    fn ephemeral_and_scalar_resources_in_scoring() {
        let c = cluster135(
            vec![
                sized(
                    "gpu",
                    json!({"cpu": "1", "ephemeral-storage": "1000",
                    "example.com/gpu": 4, "pods": 10}),
                ),
                sized(
                    "plain",
                    json!({"cpu": "1", "ephemeral-storage": "1000", "pods": 10}),
                ),
            ],
            vec![(requesting(json!({"cpu": "1", "example.com/gpu": 1})), 0)],
        );
        let args = json!({"scoringStrategy": {"type": "LeastAllocated", "resources": [
            {"name": "cpu", "weight": 1}, {"name": "example.com/gpu", "weight": 2},
            {"name": "ephemeral-storage", "weight": 1}]}});
        let plugin = fit(args);
        let p = info(requesting(json!({"cpu": "100m", "example.com/gpu": 1})));
        // gpu node: cpu (1000-1100) < 0 → 0 (requested > capacity); gpu (4-2)*100/4 = 50;
        // ephemeral requested 0 still counts (only scalars are dropped): 100.
        // (0*1 + 50*2 + 100*1)/4 = 200/4 = 50.
        // plain node: cpu (1000-100)*100/1000 = 90; gpu alloc 0 → left out; ephemeral 100:
        // (90 + 100)/2 = 95.
        assert_eq!(run_score(&*plugin, &c, &p).map(|s| s.0), Some(vec![50, 95]));
        // A pod not requesting the gpu leaves it out everywhere: gpu node (0 + 100)/2 = 50.
        let q = info(requesting(json!({"cpu": "100m"})));
        assert_eq!(run_score(&*plugin, &c, &q).map(|s| s.0), Some(vec![50, 95]));
    }

    /// A one-node cluster with cpu 1000m and memory 1000, and a pod using `cpu` milli-cores and
    /// `mem` bytes: utilizations `cpu/10` and `mem/10` percent.
    fn rtcr_score(args: serde_json::Value, cpu: i64, mem: i64) -> i64 {
        let c = cluster135(
            vec![sized(
                "n",
                json!({"cpu": "1", "memory": "1000", "pods": 10}),
            )],
            vec![],
        );
        let p = info(requesting(
            json!({"cpu": format!("{cpu}m"), "memory": mem.to_string()}),
        ));
        run_score(&*fit(args), &c, &p).expect("scored").0[0]
    }

    fn rtcr(shape: serde_json::Value, resources: serde_json::Value) -> serde_json::Value {
        json!({"scoringStrategy": {"type": "RequestedToCapacityRatio", "resources": resources,
            "requestedToCapacityRatio": {"shape": shape}}})
    }

    #[test]
    fn requested_to_capacity_ratio() {
        let linear = rtcr(
            json!([{"utilization": 0, "score": 0}, {"utilization": 100, "score": 10}]),
            json!([]),
        );
        // Scores ×10: u=50 for both → f = 0 + 100*50/100 = 50 → round(100/2) = 50.
        assert_eq!(rtcr_score(linear.clone(), 500, 500), 50);
        // u_cpu = 330*100/1000 = 33 → 33; u_mem = 420*100/1000 = 42 → 42;
        // round(75/2 = 37.5) = 38 (half away from zero).
        assert_eq!(rtcr_score(linear.clone(), 330, 420), 38);
        // Requests above capacity: u = 100 → 100 each.
        assert_eq!(rtcr_score(linear.clone(), 1500, 2000), 100);
        // Weights: cpu 1 (f 50), memory 2 (f 33): round((50 + 66)/3 = 38.67) = 39.
        let weighted = rtcr(
            json!([{"utilization": 0, "score": 0}, {"utilization": 100, "score": 10}]),
            json!([{"name": "cpu", "weight": 1}, {"name": "memory", "weight": 2}]),
        );
        assert_eq!(rtcr_score(weighted, 500, 330), 39);
    }

    #[test]
    fn rtcr_shape_interpolation_truncates() {
        // Points (10,2), (50,8), (80,3) → scaled (10,20), (50,80), (80,30); memory is not
        // configured, so the score is f(u_cpu) alone.
        let shape = json!([{"utilization": 10, "score": 2}, {"utilization": 50, "score": 8},
            {"utilization": 80, "score": 3}]);
        let args = rtcr(shape, json!([{"name": "cpu", "weight": 1}]));
        // u=5 ≤ 10: first score, 20.
        assert_eq!(rtcr_score(args.clone(), 50, 0), 20);
        // u=30: 20 + 60*(30-10)/40 = 20 + 30 = 50.
        assert_eq!(rtcr_score(args.clone(), 300, 0), 50);
        // u=33: 20 + 60*23/40 = 20 + 34 (34.5 truncated) = 54.
        assert_eq!(rtcr_score(args.clone(), 330, 0), 54);
        // u=65: 80 + (-50)*15/30 = 80 - 25 = 55.
        assert_eq!(rtcr_score(args.clone(), 650, 0), 55);
        // u=67: 80 + (-50)*17/30 = 80 + (-850/30 = -28, toward zero) = 52.
        assert_eq!(rtcr_score(args.clone(), 670, 0), 52);
        // u=90 beyond the last point: 30.
        assert_eq!(rtcr_score(args.clone(), 900, 0), 30);
        // u=10 exactly at the first point: 20; u=50 at the second: 20 + 60*40/40 = 80.
        assert_eq!(rtcr_score(args.clone(), 100, 0), 20);
        assert_eq!(rtcr_score(args, 500, 0), 80);
    }

    #[test]
    fn rtcr_counts_only_resources_scoring_above_zero() {
        // f = 0 up to u=50, then 0 + 100*(u-50)/50.
        let args = rtcr(
            json!([{"utilization": 0, "score": 0}, {"utilization": 50, "score": 0},
                   {"utilization": 100, "score": 10}]),
            json!([]),
        );
        // cpu u=40 → 0, left out with its weight; memory u=80 → 100*30/50 = 60 → 60/1 = 60
        // (not 30).
        assert_eq!(rtcr_score(args.clone(), 400, 800), 60);
        // Both at 0 → no resource counted → 0.
        assert_eq!(rtcr_score(args, 400, 200), 0);
    }

    #[test]
    fn args_default_and_accept_type_meta() {
        // Weight 0 becomes 1 and an empty list becomes cpu+memory: both equal LeastAllocated
        // with the defaults on the scoring cluster (50, 61, 0).
        let c = scoring_cluster();
        let p = info(requesting(json!({"cpu": "1", "memory": "3000"})));
        for args in [
            json!({"kind": "NodeResourcesFitArgs", "apiVersion": "kubescheduler.config.k8s.io/v1"}),
            json!({"scoringStrategy": {"type": "LeastAllocated"}}),
            json!({"scoringStrategy": {"type": "LeastAllocated", "resources": []}}),
            json!({"scoringStrategy": {"type": "LeastAllocated", "resources": [
                {"name": "cpu", "weight": 0}, {"name": "memory"}]}}),
            json!(null),
        ] {
            assert_eq!(
                run_score(&*fit(args.clone()), &c, &p).map(|s| s.0),
                Some(vec![50, 61, 0]),
                "{args}"
            );
        }
    }

    #[test]
    fn args_validation_messages() {
        let label_re = "name part must consist of alphanumeric characters, '-', '_' or '.', and \
            must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or \
            '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
        assert_eq!(
            errors(json!({"ignoredResources": ["example.com/ok", "bad name"],
                "ignoredResourceGroups": ["example.com", "a/b", "-x"]})),
            [
                format!("ignoredResources[1]: Invalid value: \"bad name\": {label_re}"),
                "ignoredResourceGroups[1]: Invalid value: \"a/b\": resource group name can't contain '/'"
                    .to_string(),
                format!("ignoredResourceGroups[2]: Invalid value: \"-x\": {label_re}"),
            ]
        );
        assert_eq!(
            errors(
                json!({"scoringStrategy": {"type": "Balanced", "resources": [
                {"name": "cpu", "weight": -1}, {"name": "memory", "weight": 101},
                {"name": "example.com/gpu", "weight": 100}]}})
            ),
            [
                "scoringStrategy.type: Unsupported value: \"Balanced\": supported values: \
                 \"LeastAllocated\", \"MostAllocated\", \"RequestedToCapacityRatio\"",
                "scoringStrategy.resources[0].weight: Invalid value: -1: resource weight of cpu \
                 not in valid range (0, 100]",
                "scoringStrategy.resources[1].weight: Invalid value: 101: resource weight of \
                 memory not in valid range (0, 100]",
            ]
        );
        // A given scoringStrategy without a type is not defaulted.
        assert_eq!(
            errors(json!({"scoringStrategy": {}})),
            [
                "scoringStrategy.type: Unsupported value: \"\": supported values: \
              \"LeastAllocated\", \"MostAllocated\", \"RequestedToCapacityRatio\""
            ]
        );
        assert_eq!(
            errors(rtcr(json!([]), json!([]))),
            ["scoringStrategy.shape: Required value: at least one point must be specified"]
        );
        assert_eq!(
            errors(rtcr(
                json!([{"utilization": 50, "score": 1}, {"utilization": 50, "score": 11},
                       {"utilization": 40, "score": -1}, {"utilization": 101, "score": 0}]),
                json!([])
            )),
            [
                "scoringStrategy.shape[1].utilization: Invalid value: 50: values must be sorted \
                 in increasing order",
                "scoringStrategy.shape[1].score: Invalid value: 11: not in valid range [0, 10]",
                "scoringStrategy.shape[2].score: Invalid value: -1: not in valid range [0, 10]",
                "scoringStrategy.shape[3].utilization: Invalid value: 101: not in valid range \
                 [0, 100]",
            ]
        );
        // The shape is validated even when another strategy is chosen.
        assert_eq!(
            errors(json!({"scoringStrategy": {"type": "MostAllocated",
                "requestedToCapacityRatio": {"shape": []}}})),
            ["scoringStrategy.shape: Required value: at least one point must be specified"]
        );
        assert_eq!(
            errors(json!({"scoringStrategy": {"type": "RequestedToCapacityRatio"}})),
            [
                "scoringStrategy.requestedToCapacityRatio: Required value: must be specified when \
              type is RequestedToCapacityRatio"
            ]
        );
        // Decoding: unknown fields and wrong types, with their paths.
        let unknown = errors(json!({"scoringStrategy": {"typ": "LeastAllocated"}}));
        assert!(unknown[0].contains("unknown field `typ`"), "{unknown:?}");
        let typed =
            errors(json!({"scoringStrategy": {"resources": [{"name": "cpu", "weight": "x"}]}}));
        assert!(
            typed[0].starts_with("scoringStrategy.resources[0].weight: invalid type"),
            "{typed:?}"
        );
    }
}
