//! `BalancedResourceAllocation`: favours nodes whose cpu and memory fractions stay close.
//! `int64((1 - |cpuFraction - memFraction|) * 100)`, 0 when either fraction is ≥ 1; a zero
//! capacity counts as fraction 1. The volume variant is gated off in v1.17.

use super::PrioritySpec;
use super::{
    cpu_allocatable_and_requested, memory_allocatable_and_requested, score_each, MAX_NODE_SCORE,
};
use crate::cluster::NodeInfo;
use crate::v117::{CycleContext, CycleError, ScorePlugin, State};
/// `BalancedResourceAllocation` in the legacy registry.
pub(crate) static SPEC: PrioritySpec = PrioritySpec {
    name: "BalancedResourceAllocation",
    default_weight: 1,
    default_provider: true,
    build: || Box::new(BalancedResourceAllocation),
};

/// The priority.
pub(crate) struct BalancedResourceAllocation;

fn fraction(requested: i64, capacity: i64) -> f64 {
    if capacity == 0 {
        return 1.0;
    }
    requested as f64 / capacity as f64
}

fn score_node(cx: &CycleContext, node: &NodeInfo) -> i64 {
    let (ca, cr) = cpu_allocatable_and_requested(cx, node);
    let (ma, mr) = memory_allocatable_and_requested(cx, node);
    let cpu = fraction(cr, ca);
    let mem = fraction(mr, ma);
    if cpu >= 1.0 || mem >= 1.0 {
        return 0;
    }
    let diff = (cpu - mem).abs();
    ((1.0 - diff) * MAX_NODE_SCORE as f64) as i64
}

impl ScorePlugin for BalancedResourceAllocation {
    fn normalizes(&self) -> bool {
        false
    }
    fn score(&self, cx: &CycleContext, _: &State, node: &NodeInfo) -> Result<i64, CycleError> {
        Ok(score_node(cx, node))
    }

    fn score_nodes(
        &self,
        cx: &CycleContext,
        _: &State,
        nodes: &[&NodeInfo],
        out: &mut [i64],
    ) -> Result<(), CycleError> {
        score_each(cx, nodes, out, score_node);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;
    use serde_json::json;

    #[test]
    fn balanced_cases() {
        let c = cluster(
            vec![
                node(
                    json!({"metadata": {"name": "m1"}, "status": {"allocatable": {"cpu": "4", "memory": 10000}}}),
                ),
                node(
                    json!({"metadata": {"name": "m2"}, "status": {"allocatable": {"cpu": "6", "memory": 10000}}}),
                ),
                node(
                    json!({"metadata": {"name": "full"}, "status": {"allocatable": {"cpu": "3", "memory": 10000}}}),
                ),
            ],
            vec![],
        );
        let p = pod(json!({"spec": {"containers": [
            {"name": "a", "resources": {"requests": {"cpu": "3", "memory": 5000}}}]}}));
        // m1: 0.75 vs 0.5 -> 75; m2: 0.5 vs 0.5 -> 100; full: cpu fraction 1 -> 0
        assert_eq!(
            score_all(&BalancedResourceAllocation, &c, p).1,
            [75, 100, 0]
        );
    }
}
