//! Legacy v1.17 priorities (Score extension point, 0–100 scale), one per file.
//!
//! Each file: a `//!` doc with the formula, the priority type implementing `ScorePlugin` (map =
//! `score`, reduce = `normalize`), then table tests whose expected values were worked out by
//! hand from the reference. Integer arithmetic is upstream's (multiply first, then divide,
//! truncating); float formulas keep upstream's operation order so truncation matches.

pub(crate) mod balanced_resource_allocation;
pub(crate) mod equal;
pub(crate) mod even_pods_spread;
pub(crate) mod image_locality;
pub(crate) mod inter_pod_affinity;
pub(crate) mod least_requested;
pub(crate) mod most_requested;
pub(crate) mod node_affinity;
pub(crate) mod node_label;
pub(crate) mod node_prefer_avoid_pods;
pub(crate) mod requested_to_capacity_ratio;
pub(crate) mod resource_limits;
pub(crate) mod selector_spread;
pub(crate) mod service_anti_affinity;
pub(crate) mod taint_toleration;

use crate::cluster::NodeInfo;
use crate::model::resources::{CPU, MEMORY};
use crate::v117::{CycleContext, ScorePlugin};

/// `framework.MaxNodeScore` in v1.17.
pub(crate) use crate::sched::MAX_NODE_SCORE;

/// What a priority file declares about its priority; every list below derives from these.
pub(crate) struct PrioritySpec {
    /// The name a Policy uses.
    pub name: &'static str,
    /// Its weight when a provider adds it.
    pub default_weight: i64,
    /// Whether the DefaultProvider has it.
    pub default_provider: bool,
    /// Builds it.
    pub build: fn() -> Box<dyn ScorePlugin>,
}

/// Every argument-less v1.17 priority, in the order suggestions and forms list them (the
/// DefaultProvider's keep this order in an algorithm).
pub(crate) static REGISTRY: &[&PrioritySpec] = &[
    &equal::SPEC,
    &most_requested::SPEC,
    &requested_to_capacity_ratio::SPEC,
    &selector_spread::SPEC,
    &selector_spread::SERVICE_SPREADING,
    &inter_pod_affinity::SPEC,
    &least_requested::SPEC,
    &balanced_resource_allocation::SPEC,
    &node_prefer_avoid_pods::SPEC,
    &node_affinity::SPEC,
    &taint_toleration::SPEC,
    &image_locality::SPEC,
    &resource_limits::SPEC,
    &even_pods_spread::SPEC,
];

/// Priority names a v1.17 Policy accepts without an argument, with their default weights.
pub fn names() -> Vec<(&'static str, i64)> {
    REGISTRY
        .iter()
        .map(|s| (s.name, s.default_weight))
        .collect()
}

/// The DefaultProvider priorities of v1.17 with weights, in algorithm order.
pub fn default_provider() -> Vec<(&'static str, i64)> {
    REGISTRY
        .iter()
        .filter(|s| s.default_provider)
        .map(|s| (s.name, s.default_weight))
        .collect()
}

/// The implementation of a plain (argument-less) priority name.
pub(crate) fn builtin(name: &str) -> Option<Box<dyn ScorePlugin>> {
    REGISTRY
        .iter()
        .find(|s| s.name == name)
        .map(|s| (s.build)())
}

/// `value * scale / divisor` with upstream's truncation, without overflowing for absurd
/// quantities (Go's int64 would wrap there; schedlab computes the exact result instead).
pub(crate) fn mul_div(value: i64, scale: i64, divisor: i64) -> i64 {
    const SAFE: i64 = i64::MAX / 1024;
    if (-SAFE..=SAFE).contains(&value) && (0..=1024).contains(&scale) {
        value * scale / divisor
    } else {
        (i128::from(value) * i128::from(scale) / i128::from(divisor)) as i64
    }
}

/// `NormalizeReduce(maxPriority, reverse)`.
pub(crate) fn normalize_reduce(scores: &mut [i64], max_priority: i64, reverse: bool) {
    let max_count = scores.iter().copied().fold(0, i64::max);
    if max_count == 0 {
        if reverse {
            scores.iter_mut().for_each(|s| *s = max_priority);
        }
        return;
    }
    for s in scores.iter_mut() {
        let mut v = max_priority * *s / max_count;
        if reverse {
            v = max_priority - v;
        }
        *s = v;
    }
}

/// [`normalize_reduce`] of scores that are all `raw`: the one value each becomes.
pub(crate) fn normalize_reduce_uniform(raw: i64, max_priority: i64, reverse: bool) -> i64 {
    let max_count = raw.max(0);
    if max_count == 0 {
        return if reverse { max_priority } else { raw };
    }
    let v = max_priority * raw / max_count;
    if reverse {
        max_priority - v
    } else {
        v
    }
}

/// `ScorePlugin::score_nodes` of a priority whose score is a plain function of the node: one
/// loop, no call through the plugin per node.
pub(crate) fn score_each(
    cx: &CycleContext,
    nodes: &[&NodeInfo],
    out: &mut [i64],
    score: impl Fn(&CycleContext, &NodeInfo) -> i64,
) {
    for (slot, node) in out.iter_mut().zip(nodes) {
        *slot = score(cx, node);
    }
}

/// [`allocatable_and_requested`] for cpu, without the name lookup (hot path).
pub(crate) fn cpu_allocatable_and_requested(cx: &CycleContext, node: &NodeInfo) -> (i64, i64) {
    (
        node.hot().milli_cpu,
        node.nonzero_cpu().saturating_add(cx.pod.nonzero_cpu),
    )
}

/// [`allocatable_and_requested`] for memory, without the name lookup (hot path).
pub(crate) fn memory_allocatable_and_requested(cx: &CycleContext, node: &NodeInfo) -> (i64, i64) {
    (
        node.hot().memory,
        node.nonzero_memory().saturating_add(cx.pod.nonzero_memory),
    )
}

/// `calculateResourceAllocatableRequest` for cpu or memory: (allocatable, node non-zero
/// requests + the pod's non-zero request).
pub(crate) fn allocatable_and_requested(
    cx: &CycleContext,
    node: &NodeInfo,
    resource: &str,
) -> (i64, i64) {
    let pod = cx.pod;
    match resource {
        CPU => cpu_allocatable_and_requested(cx, node),
        MEMORY => memory_allocatable_and_requested(cx, node),
        r => (
            node.allocatable().get(r),
            node.requested()
                .get(r)
                .saturating_add(pod.node_request.get(r)),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_provider_is_v1_17s_in_profile_order() {
        // `defaultPriorities()` of v1.17, in the order the algorithm keeps them.
        assert_eq!(
            default_provider(),
            [
                ("SelectorSpreadPriority", 1),
                ("InterPodAffinityPriority", 1),
                ("LeastRequestedPriority", 1),
                ("BalancedResourceAllocation", 1),
                ("NodePreferAvoidPodsPriority", 10000),
                ("NodeAffinityPriority", 1),
                ("TaintTolerationPriority", 1),
                ("ImageLocalityPriority", 1),
            ]
        );
        assert_eq!(names().len(), 14);
    }

    #[test]
    fn normalize_reduce_of_equal_scores_is_one_value() {
        // Worked out from NormalizeReduce: all 0 (or less) → max count 0 → 10 reversed, kept
        // otherwise; all 7 → 10 · 7 / 7 = 10, reversed 0.
        for (raw, reverse, want) in [
            (0, true, 10),
            (0, false, 0),
            (-3, true, 10),
            (-3, false, -3),
            (7, false, 10),
            (7, true, 0),
        ] {
            assert_eq!(normalize_reduce_uniform(raw, 10, reverse), want);
            let mut scores = vec![raw; 4];
            normalize_reduce(&mut scores, 10, reverse);
            assert_eq!(scores, [want; 4]);
        }
    }

    #[test]
    fn normalize_reduce_cases() {
        let mut s = vec![0, 5, 10];
        normalize_reduce(&mut s, 100, false);
        assert_eq!(s, [0, 50, 100]);
        let mut s = vec![1, 3];
        normalize_reduce(&mut s, 100, false);
        assert_eq!(s, [33, 100], "100*1/3 truncates");
        let mut s = vec![0, 0];
        normalize_reduce(&mut s, 100, false);
        assert_eq!(s, [0, 0]);
        let mut s = vec![0, 0];
        normalize_reduce(&mut s, 100, true);
        assert_eq!(s, [100, 100]);
        let mut s = vec![0, 1, 2];
        normalize_reduce(&mut s, 100, true);
        assert_eq!(s, [100, 50, 0]);
    }
}
