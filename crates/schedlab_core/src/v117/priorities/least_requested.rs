//! `LeastRequestedPriority`: favours nodes with more free cpu and memory.
//! Per resource `(capacity - requested) * 100 / capacity` (0 when capacity is 0 or exceeded),
//! averaged over cpu and memory with integer division. Requests use the non-zero defaults.

use super::PrioritySpec;
use super::{
    cpu_allocatable_and_requested, memory_allocatable_and_requested, mul_div, score_each,
    MAX_NODE_SCORE,
};
use crate::cluster::NodeInfo;
use crate::v117::{CycleContext, CycleError, ScorePlugin, State};
/// `LeastRequestedPriority` in the legacy registry.
pub(crate) static SPEC: PrioritySpec = PrioritySpec {
    name: "LeastRequestedPriority",
    default_weight: 1,
    default_provider: true,
    build: || Box::new(LeastRequested),
};

/// The priority.
pub(crate) struct LeastRequested;

/// `leastRequestedScore`.
pub(crate) fn least_requested_score(requested: i64, capacity: i64) -> i64 {
    if capacity == 0 || requested > capacity {
        return 0;
    }
    mul_div(capacity - requested, MAX_NODE_SCORE, capacity)
}

fn score_node(cx: &CycleContext, node: &NodeInfo) -> i64 {
    let (ca, cr) = cpu_allocatable_and_requested(cx, node);
    let (ma, mr) = memory_allocatable_and_requested(cx, node);
    (least_requested_score(cr, ca) + least_requested_score(mr, ma)) / 2
}

impl ScorePlugin for LeastRequested {
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
    fn least_requested_cases() {
        let c = cluster(
            vec![
                node(
                    json!({"metadata": {"name": "m1"}, "status": {"allocatable": {"cpu": "4", "memory": 10000}}}),
                ),
                node(
                    json!({"metadata": {"name": "m2"}, "status": {"allocatable": {"cpu": "6", "memory": 10000}}}),
                ),
                node(json!({"metadata": {"name": "zero"}})),
            ],
            vec![],
        );
        let p = pod(json!({"spec": {"containers": [
            {"name": "a", "resources": {"requests": {"cpu": "1", "memory": 2000}}},
            {"name": "b", "resources": {"requests": {"cpu": "2", "memory": 3000}}}]}}));
        // m1: cpu (4000-3000)*100/4000 = 25, mem (10000-5000)*100/10000 = 50 -> 37
        // m2: cpu (6000-3000)*100/6000 = 50, mem 50 -> 50; zero capacity -> 0
        assert_eq!(score_all(&LeastRequested, &c, p).1, [37, 50, 0]);
        // An empty container gets the non-zero defaults: 100m and 200Mi (> 10000 bytes -> 0).
        let empty = pod(json!({"spec": {"containers": [{"name": "a"}]}}));
        // m1: cpu (4000-100)*100/4000 = 97, mem 0 -> 48
        assert_eq!(score_all(&LeastRequested, &c, empty).1[0], 48);
    }
}
