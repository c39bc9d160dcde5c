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

use crate::cluster::{Cluster, NodeId, NodeInfo, PodInfo};
use crate::model::field::{FieldError, Value};
use crate::model::resources::{is_extended_resource, CPU, EPHEMERAL_STORAGE, MEMORY};
use crate::sched::Reason;
use crate::v135::plugin::{state, Cx, Plugin, PluginState, PreFilterOutput, PreScoreOutput};
use crate::v135::plugin::{PluginSpec, Point, Points};
use crate::v135::plugins::helper::{decode_args, dedup_errors};
use crate::v135::status::Code;
use serde::Deserialize;
use std::borrow::Cow;

use super::resource_allocation::{
    default_resource_specs, default_resources, least_allocated_cpu_memory, pod_requests,
    ResourceKind, ResourceSpecIn, ScoredResource, Strategy,
};
/// The registry entry.
pub(crate) static SPEC: PluginSpec = PluginSpec {
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

// ---------------------------------------------------------------------------------------------
// The plugin.

/// The plugin, with its args defaulted and validated.
pub(crate) struct NodeResourcesFit {
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
        let node = |id: NodeId| cluster.nodes().get(id).map(|n| n.object());
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
        let used = &node.requested();
        let mut failed = false;
        let mut unresolvable = false;
        if node.pods().len() as i64 + 1 > alloc.pods {
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
        crate::v135::plugins::helper::validate_label_name(
            r,
            &format!("ignoredResources[{i}]"),
            &mut errs,
        );
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
        crate::v135::plugins::helper::validate_label_name(g, &path, &mut errs);
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
mod tests;
