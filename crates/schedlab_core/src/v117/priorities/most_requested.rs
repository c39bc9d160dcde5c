//! `MostRequestedPriority`: favours fuller nodes (ClusterAutoscalerProvider).
//! Per resource `requested * 100 / capacity` (0 when capacity is 0 or exceeded), averaged.

use super::PrioritySpec;
use super::{
    cpu_allocatable_and_requested, memory_allocatable_and_requested, mul_div, MAX_NODE_SCORE,
};
use crate::cluster::NodeInfo;
use crate::v117::{CycleContext, CycleError, ScorePlugin, State};
/// `MostRequestedPriority` in the legacy registry.
pub(crate) static SPEC: PrioritySpec = PrioritySpec {
    name: "MostRequestedPriority",
    default_weight: 1,
    default_provider: false,
    build: || Box::new(MostRequested),
};

/// The priority.
pub(crate) struct MostRequested;

fn most_requested_score(requested: i64, capacity: i64) -> i64 {
    if capacity == 0 || requested > capacity {
        return 0;
    }
    mul_div(requested, MAX_NODE_SCORE, capacity)
}

impl ScorePlugin for MostRequested {
    fn normalizes(&self) -> bool {
        false
    }
    fn score(&self, cx: &CycleContext, _: &State, node: &NodeInfo) -> Result<i64, CycleError> {
        let (ca, cr) = cpu_allocatable_and_requested(cx, node);
        let (ma, mr) = memory_allocatable_and_requested(cx, node);
        Ok((most_requested_score(cr, ca) + most_requested_score(mr, ma)) / 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;
    use serde_json::json;

    #[test]
    fn most_requested_cases() {
        let c = cluster(
            vec![
                node(
                    json!({"metadata": {"name": "m1"}, "status": {"allocatable": {"cpu": "4", "memory": 10000}}}),
                ),
                node(
                    json!({"metadata": {"name": "m2"}, "status": {"allocatable": {"cpu": "2", "memory": 10000}}}),
                ),
            ],
            vec![],
        );
        let p = pod(json!({"spec": {"containers": [
            {"name": "a", "resources": {"requests": {"cpu": "3", "memory": 5000}}}]}}));
        // m1: cpu 3000*100/4000 = 75, mem 50 -> 62; m2: cpu over capacity 0, mem 50 -> 25
        assert_eq!(score_all(&MostRequested, &c, p).1, [62, 25]);
    }
}
