//! `NodeAffinityPriority`: the sum of the weights of preferred node affinity terms that match
//! (only `matchExpressions`; an empty term matches nothing), then `NormalizeReduce(100, false)`.

use super::PrioritySpec;
use super::{normalize_reduce, MAX_NODE_SCORE};
use crate::cluster::NodeInfo;
use crate::v117::{CycleContext, CycleError, ScorePlugin, State};
/// `NodeAffinityPriority` in the legacy registry.
pub(crate) static SPEC: PrioritySpec = PrioritySpec {
    name: "NodeAffinityPriority",
    default_weight: 1,
    default_provider: true,
    build: || Box::new(NodeAffinity),
};

/// The priority.
pub(crate) struct NodeAffinity;

impl ScorePlugin for NodeAffinity {
    fn pre_score(&self, cx: &CycleContext, _: &[&NodeInfo]) -> Result<State, CycleError> {
        let has_preferences = cx.pod.pod.node_affinity().is_some_and(|na| {
            !na.preferred_during_scheduling_ignored_during_execution
                .is_empty()
        });
        Ok(if has_preferences {
            State::none()
        } else {
            State::uniform(0)
        })
    }

    fn score(&self, cx: &CycleContext, _: &State, node: &NodeInfo) -> Result<i64, CycleError> {
        let Some(na) = cx.pod.pod.node_affinity() else {
            return Ok(0);
        };
        Ok(na
            .preferred_during_scheduling_ignored_during_execution
            .iter()
            .filter(|t| t.weight != 0 && t.preference.matches_expressions_only(node.labels()))
            .map(|t| i64::from(t.weight))
            .sum())
    }

    fn normalize(&self, _: &CycleContext, _: &State, _: &[&NodeInfo], scores: &mut [i64]) {
        normalize_reduce(scores, MAX_NODE_SCORE, false);
    }

    fn normalize_uniform(&self, raw: i64) -> Option<i64> {
        Some(super::normalize_reduce_uniform(raw, MAX_NODE_SCORE, false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;
    use serde_json::json;

    #[test]
    fn weights_sum_and_normalise() {
        let c = cluster(
            vec![
                node(json!({"metadata": {"name": "a", "labels": {"foo": "bar"}}})),
                node(json!({"metadata": {"name": "b", "labels": {"foo": "bar", "key": "value"}}})),
                node(json!({"metadata": {"name": "c"}})),
            ],
            vec![],
        );
        let p = pod(
            json!({"spec": {"affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": 2, "preference": {"matchExpressions": [{"key": "foo", "operator": "In", "values": ["bar"]}]}},
            {"weight": 4, "preference": {"matchExpressions": [{"key": "key", "operator": "In", "values": ["value"]}]}},
            {"weight": 5, "preference": {}}]}}}}),
        );
        let (raw, norm) = score_all(&NodeAffinity, &c, p);
        assert_eq!(raw, [2, 6, 0]);
        // 100*2/6 = 33, 100, 0
        assert_eq!(norm, [33, 100, 0]);
    }
}
