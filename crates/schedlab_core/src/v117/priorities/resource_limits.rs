//! `ResourceLimitsPriority` (alpha gate; runs when a Policy names it): 1 when the pod's cpu or
//! memory *limit* is set and fits the node's allocatable, else 0. Not scaled to 100.

use super::PrioritySpec;
use crate::cluster::NodeInfo;
use crate::model::Resources;
use crate::v117::{CycleContext, CycleError, ScorePlugin, State};
/// `ResourceLimitsPriority` in the legacy registry.
pub(crate) static SPEC: PrioritySpec = PrioritySpec {
    name: "ResourceLimitsPriority",
    default_weight: 1,
    default_provider: false,
    build: || Box::new(ResourceLimits),
};

/// The priority.
pub(crate) struct ResourceLimits;

fn fits(limit: i64, allocatable: i64) -> bool {
    limit != 0 && allocatable != 0 && limit <= allocatable
}

impl ScorePlugin for ResourceLimits {
    fn normalizes(&self) -> bool {
        false
    }
    fn pre_score(&self, cx: &CycleContext, _: &[&NodeInfo]) -> Result<State, CycleError> {
        let mut limits = Resources::default();
        for c in &cx.pod.pod.spec.containers {
            limits.add(&c.resources.limits.0);
        }
        for c in &cx.pod.pod.spec.init_containers {
            limits.max_with(&c.resources.limits.0);
        }
        Ok(State::new(limits))
    }

    fn score(&self, _: &CycleContext, state: &State, node: &NodeInfo) -> Result<i64, CycleError> {
        let Some(l) = state.get::<Resources>() else {
            return Ok(0);
        };
        let a = &node.allocatable();
        Ok(i64::from(
            fits(l.milli_cpu, a.milli_cpu) || fits(l.memory, a.memory),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;
    use serde_json::json;

    #[test]
    fn limits_that_fit_score_one() {
        let c = cluster(
            vec![
                node(
                    json!({"metadata": {"name": "big"}, "status": {"allocatable": {"cpu": "4", "memory": 10000}}}),
                ),
                node(
                    json!({"metadata": {"name": "small"}, "status": {"allocatable": {"cpu": "1", "memory": 1000}}}),
                ),
            ],
            vec![],
        );
        let p = pod(json!({"spec": {"containers": [
            {"name": "a", "resources": {"limits": {"cpu": "2", "memory": 4000}}}]}}));
        assert_eq!(score_all(&ResourceLimits, &c, p).1, [1, 0]);
        assert_eq!(score_all(&ResourceLimits, &c, pod(json!({}))).1, [0, 0]);
    }
}
