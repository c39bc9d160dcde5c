//! `NodeResourcesBalancedAllocation` (v1.35, `noderesources/balanced_allocation.go`; reference
//! §4.7, §1.4, §2.3): PreScore, Score (weight 1 by default); args
//! `NodeResourcesBalancedAllocationArgs` (`resources`, default cpu and memory; every weight must
//! be 1).
//!
//! The resource allocation scorer of [`super::fit`] with `useRequested = true`:
//! the pod's real requests (no 100m / 200Mi defaults) added to the node's `Requested` (not
//! `NonZeroRequested`); a scalar resource the pod does not request, and any resource with
//! allocatable 0, is left out.
//!
//! - PreScore: a pod requesting none of the configured resources (best effort) → `Skip`.
//! - Score: each resource's `fraction = requested / allocatable` (float64, capped at 1);
//!   `std = |f0 - f1| / 2` with two fractions, `sqrt(Σ(f - mean)² / n)` with more, 0 with fewer;
//!   score `int64((1 - std) * 100)` (truncation). No NormalizeScore.

use super::resource_allocation::{
    default_resources, pod_requests, ResourceKind, ResourceSpecIn, ScoredResource,
};
use crate::cluster::NodeInfo;
use crate::model::field::{FieldError, Value};
use crate::v135::plugin::{state, Cx, Plugin, PluginState, PreScoreOutput};
use crate::v135::plugin::{PluginSpec, Point, Points};
use crate::v135::plugins::helper::{decode_args, dedup_errors};
use serde::Deserialize;
use smallvec::SmallVec;

/// The registry entry.
pub(crate) static SPEC: PluginSpec = PluginSpec {
    name: "NodeResourcesBalancedAllocation",
    points: Points::of(&[Point::PreScore, Point::Score]),
    default_enabled: true,
    default_weight: Some(1),
    args_kind: Some("NodeResourcesBalancedAllocationArgs"),
    args_checked_by_validation: true,
    build,
};

const MAX_NODE_SCORE: f64 = crate::sched::MAX_NODE_SCORE as f64;

/// The plugin.
pub(crate) struct NodeResourcesBalancedAllocation {
    resources: Vec<ScoredResource>,
}

/// PreScore's state: the pod's real request of each configured resource.
#[derive(Clone, Debug)]
struct BalancedPreScore(Vec<i64>);

impl NodeResourcesBalancedAllocation {
    /// `balancedResourceScorer` over the node's (allocatable, requested) pairs.
    fn score_node(&self, requests: &[i64], node: &NodeInfo) -> i64 {
        if let ([cpu, memory], [a, b]) = (requests, self.resources.as_slice()) {
            if a.kind == ResourceKind::Cpu && b.kind == ResourceKind::Memory {
                return Self::score_cpu_memory(*cpu, *memory, node);
            }
        }
        let mut fractions: SmallVec<[f64; 4]> = SmallVec::new();
        let mut total = 0.0f64;
        for (r, &p) in self.resources.iter().zip(requests) {
            let (alloc, req) = r.kind.allocatable_requested(node, p, true);
            if alloc == 0 {
                continue;
            }
            let mut f = req as f64 / alloc as f64;
            if f > 1.0 {
                f = 1.0;
            }
            total += f;
            fractions.push(f);
        }
        let std = match fractions.len() {
            2 => ((fractions[0] - fractions[1]) / 2.0).abs(),
            n if n > 2 => {
                let mean = total / n as f64;
                let mut sum = 0.0f64;
                for f in &fractions {
                    sum += (f - mean) * (f - mean);
                }
                (sum / n as f64).sqrt()
            }
            _ => 0.0,
        };
        ((1.0 - std) * MAX_NODE_SCORE) as i64
    }
}

impl NodeResourcesBalancedAllocation {
    /// [`Self::score_node`] for the default resources (cpu and memory), with the same
    /// operations in the same order.
    fn score_cpu_memory(cpu: i64, memory: i64, node: &NodeInfo) -> i64 {
        let alloc = node.hot();
        let fraction = |alloc: i64, req: i64| (req as f64 / alloc as f64).min(1.0);
        let std = match (alloc.milli_cpu, alloc.memory) {
            (0, _) | (_, 0) => 0.0,
            (c, m) => {
                let f0 = fraction(c, node.requested().milli_cpu + cpu);
                let f1 = fraction(m, node.requested().memory + memory);
                ((f0 - f1) / 2.0).abs()
            }
        };
        ((1.0 - std) * MAX_NODE_SCORE) as i64
    }
}

impl Plugin for NodeResourcesBalancedAllocation {
    fn normalizes(&self) -> bool {
        false
    }

    fn name(&self) -> &'static str {
        SPEC.name
    }

    fn pre_score(&self, cx: &Cx, _nodes: &[&NodeInfo]) -> PreScoreOutput {
        let reqs = pod_requests(&self.resources, cx.pod, true);
        if reqs.iter().all(|&r| r == 0) {
            // Best-effort pods are not scored (issue #129138).
            return PreScoreOutput::skip();
        }
        PreScoreOutput::with_state(BalancedPreScore(reqs))
    }

    fn score_nodes(
        &self,
        cx: &Cx,
        st: Option<&dyn PluginState>,
        nodes: &[&NodeInfo],
        out: &mut [i64],
    ) -> Result<(), String> {
        let owned;
        let requests = match state::<BalancedPreScore>(st) {
            Some(s) => &s.0,
            None => {
                owned = pod_requests(&self.resources, cx.pod, true);
                if owned.iter().all(|&r| r == 0) {
                    out.fill(0);
                    return Ok(());
                }
                &owned
            }
        };
        match (requests.as_slice(), self.resources.as_slice()) {
            ([cpu, memory], [a, b])
                if a.kind == ResourceKind::Cpu && b.kind == ResourceKind::Memory =>
            {
                for (slot, node) in out.iter_mut().zip(nodes) {
                    *slot = Self::score_cpu_memory(*cpu, *memory, node);
                }
            }
            _ => {
                for (slot, node) in out.iter_mut().zip(nodes) {
                    *slot = self.score_node(requests, node);
                }
            }
        }
        Ok(())
    }

    fn score(&self, cx: &Cx, st: Option<&dyn PluginState>, node: &NodeInfo) -> Result<i64, String> {
        Ok(match state::<BalancedPreScore>(st) {
            Some(s) => self.score_node(&s.0, node),
            None => {
                let reqs = pod_requests(&self.resources, cx.pod, true);
                if reqs.iter().all(|&r| r == 0) {
                    0
                } else {
                    self.score_node(&reqs, node)
                }
            }
        })
    }
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct NodeResourcesBalancedAllocationArgs {
    #[serde(default)]
    resources: Option<Vec<ResourceSpecIn>>,
}

/// Reads `NodeResourcesBalancedAllocationArgs`, defaults it and validates it
/// (`ValidateNodeResourcesBalancedAllocationArgs`: a repeated name is a Duplicate, a weight
/// other than 1 is Invalid `must be 1`).
fn build(args: Option<&serde_json::Value>) -> Result<Box<dyn Plugin>, Vec<FieldError>> {
    let args: NodeResourcesBalancedAllocationArgs = decode_args(args)?.unwrap_or_default();
    let resources = default_resources(args.resources);
    let mut errs = Vec::new();
    for (i, (name, weight)) in resources.iter().enumerate() {
        if resources[..i].iter().any(|(n, _)| n == name) {
            errs.push(FieldError::duplicate(
                format!("resources[{i}].name"),
                Value::Str(name),
            ));
        }
        if *weight != 1 {
            errs.push(FieldError::invalid(
                format!("resources[{i}].weight"),
                Value::Int(*weight),
                "must be 1",
            ));
        }
    }
    if !errs.is_empty() {
        return Err(dedup_errors(errs));
    }
    Ok(Box::new(NodeResourcesBalancedAllocation {
        resources: resources
            .into_iter()
            .map(|(name, weight)| ScoredResource {
                kind: ResourceKind::of(&name),
                weight,
            })
            .collect(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{node, pod};
    use crate::v135::plugins::testkit::*;
    use serde_json::json;

    fn sized(name: &str, alloc: serde_json::Value) -> crate::model::Node {
        node(json!({"metadata": {"name": name}, "status": {"allocatable": alloc}}))
    }

    fn requesting(requests: serde_json::Value) -> crate::model::Pod {
        pod(json!({"spec": {"containers": [{"name": "c", "resources": {"requests": requests}}]}}))
    }

    fn plugin(args: serde_json::Value) -> Box<dyn Plugin> {
        build(Some(&args)).unwrap_or_else(|e| panic!("{e:?}"))
    }

    fn errors(args: serde_json::Value) -> Vec<String> {
        crate::v135::plugins::testkit::build_errors(build, args)
    }

    #[test]
    fn two_resources() {
        let c = cluster135(
            vec![
                sized("empty", json!({"cpu": "1", "memory": "1000", "pods": 10})),
                // A bound pod without requests adds nothing here (real requests, no defaults).
                sized(
                    "plain-pod",
                    json!({"cpu": "1", "memory": "1000", "pods": 10}),
                ),
                sized("half", json!({"cpu": "1", "memory": "1000", "pods": 10})),
                sized("no-memory", json!({"cpu": "1", "pods": 10})),
                sized("over", json!({"cpu": "250m", "memory": "1000", "pods": 10})),
            ],
            vec![
                (requesting(json!({})), 1),
                (requesting(json!({"cpu": "500m"})), 2),
            ],
        );
        let p = info(requesting(json!({"cpu": "500m", "memory": "750"})));
        // empty / plain-pod: cpu 500/1000 = 0.5, memory 750/1000 = 0.75;
        //   std = |0.5 - 0.75|/2 = 0.125 → (1 - 0.125)*100 = 87.5 → 87.
        // half: cpu (500+500)/1000 = 1.0, memory 0.75 → std 0.125 → 87.
        // no-memory: one fraction → std 0 → 100.
        // over: cpu 500/250 = 2 capped to 1, memory 0.75 → 87.
        let p2 = info(requesting(json!({"cpu": "500m", "memory": "250"})));
        // For p2: empty 0.5 / 0.25 → std 0.125 → 87; half 1.0 / 0.25 → std 0.375 → 62 (62.5);
        // over: 1 / 0.25 → 62.
        let ba = build(None).expect("default");
        assert_eq!(
            run_score(&*ba, &c, &p),
            Some((vec![87, 87, 87, 100, 87], vec![87, 87, 87, 100, 87]))
        );
        assert_eq!(
            run_score(&*ba, &c, &p2).map(|s| s.0),
            Some(vec![87, 87, 62, 100, 62])
        );
    }

    #[test]
    fn three_resources() {
        let c = cluster135(
            vec![sized(
                "n",
                json!({"cpu": "1", "memory": "1000", "example.com/gpu": 2, "pods": 10}),
            )],
            vec![],
        );
        let ba = plugin(json!({"resources": [{"name": "cpu", "weight": 1},
            {"name": "memory", "weight": 1}, {"name": "example.com/gpu", "weight": 1}]}));
        // Fractions 0.5, 0.5, 1.0: mean 2/3, deviations -1/6, -1/6, 1/3; squares sum
        // 1/36 + 1/36 + 4/36 = 1/6; / 3 = 1/18; sqrt = 0.2357 → (1 - 0.2357)*100 = 76.4 → 76.
        let p = info(requesting(
            json!({"cpu": "500m", "memory": "500", "example.com/gpu": 2}),
        ));
        assert_eq!(run_score(&*ba, &c, &p).map(|s| s.0), Some(vec![76]));
        // Without a gpu request the gpu is left out: 0.5 and 0.5 → std 0 → 100.
        let q = info(requesting(json!({"cpu": "500m", "memory": "500"})));
        assert_eq!(run_score(&*ba, &c, &q).map(|s| s.0), Some(vec![100]));
    }

    #[test]
    fn best_effort_pods_skip() {
        let c = cluster135(
            vec![sized(
                "n",
                json!({"cpu": "1", "memory": "1000", "pods": 10}),
            )],
            vec![],
        );
        let ba = build(None).expect("default");
        assert_eq!(run_score(&*ba, &c, &info(requesting(json!({})))), None);
        // A request for a resource that is not configured does not count.
        assert_eq!(
            run_score(&*ba, &c, &info(requesting(json!({"example.com/gpu": 1})))),
            None
        );
        // One configured resource requested is enough: cpu 0.5, memory 0 → std 0.25 → 75.
        assert_eq!(
            run_score(&*ba, &c, &info(requesting(json!({"cpu": "500m"})))).map(|s| s.0),
            Some(vec![75])
        );
    }

    #[test]
    fn args() {
        // Defaults: nothing, an empty list and weight 0 all mean cpu and memory, weight 1.
        for args in [
            json!({}),
            json!({"kind": "NodeResourcesBalancedAllocationArgs",
                   "apiVersion": "kubescheduler.config.k8s.io/v1", "resources": []}),
            json!({"resources": [{"name": "cpu"}, {"name": "memory", "weight": 0}]}),
        ] {
            let c = cluster135(
                vec![sized(
                    "n",
                    json!({"cpu": "1", "memory": "1000", "pods": 10}),
                )],
                vec![],
            );
            let p = info(requesting(json!({"cpu": "500m", "memory": "750"})));
            assert_eq!(
                run_score(&*plugin(args.clone()), &c, &p).map(|s| s.0),
                Some(vec![87]),
                "{args}"
            );
        }
        assert_eq!(
            errors(json!({"resources": [{"name": "cpu", "weight": 2},
                {"name": "memory"}, {"name": "cpu", "weight": -1}]})),
            [
                "resources[0].weight: Invalid value: 2: must be 1",
                "resources[2].name: Duplicate value: \"cpu\"",
                "resources[2].weight: Invalid value: -1: must be 1",
            ]
        );
        let unknown = errors(json!({"resource": []}));
        assert!(
            unknown[0].contains("unknown field `resource`"),
            "{unknown:?}"
        );
    }
}
