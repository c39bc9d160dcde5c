//! `TaintTolerationPriority`: counts the node's `PreferNoSchedule` taints that the pod's
//! tolerations (with empty or `PreferNoSchedule` effect) do not tolerate, then
//! `NormalizeReduce(100, true)`: fewer intolerable taints score higher.

use super::PrioritySpec;
use super::{normalize_reduce, MAX_NODE_SCORE};
use crate::cluster::NodeInfo;
use crate::model::taint::{tolerated, PREFER_NO_SCHEDULE};
use crate::model::Toleration;
use crate::v117::{CycleContext, CycleError, ScorePlugin, State};
/// `TaintTolerationPriority` in the legacy registry.
pub(crate) static SPEC: PrioritySpec = PrioritySpec {
    name: "TaintTolerationPriority",
    default_weight: 1,
    default_provider: true,
    build: || Box::new(TaintToleration),
};

/// The priority.
pub(crate) struct TaintToleration;

impl ScorePlugin for TaintToleration {
    fn pre_score(&self, cx: &CycleContext, _: &[&NodeInfo]) -> Result<State, CycleError> {
        if cx.cluster.nodes_with_soft_taints() == 0 {
            return Ok(State::uniform(0));
        }
        let relevant: Vec<Toleration> = cx
            .pod
            .pod
            .spec
            .tolerations
            .iter()
            .filter(|t| t.effect.is_empty() || t.effect == PREFER_NO_SCHEDULE)
            .cloned()
            .collect();
        Ok(State::new(relevant))
    }

    fn score(&self, _: &CycleContext, state: &State, node: &NodeInfo) -> Result<i64, CycleError> {
        let tolerations = state
            .get::<Vec<Toleration>>()
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        Ok(node
            .object()
            .spec
            .taints
            .iter()
            .filter(|t| t.effect == PREFER_NO_SCHEDULE && !tolerated(tolerations, t))
            .count() as i64)
    }

    fn normalize(&self, _: &CycleContext, _: &State, _: &[&NodeInfo], scores: &mut [i64]) {
        normalize_reduce(scores, MAX_NODE_SCORE, true);
    }

    fn normalize_uniform(&self, raw: i64) -> Option<i64> {
        Some(super::normalize_reduce_uniform(raw, MAX_NODE_SCORE, true))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;
    use serde_json::json;

    #[test]
    fn intolerable_soft_taints_lower_the_score() {
        let taints = |n: usize| {
            let list: Vec<_> = (0..n)
                .map(
                    |i| json!({"key": format!("k{i}"), "value": "v", "effect": "PreferNoSchedule"}),
                )
                .collect();
            list
        };
        let c = cluster(
            vec![
                node(json!({"metadata": {"name": "none"}})),
                node(json!({"metadata": {"name": "one"}, "spec": {"taints": taints(1)}})),
                node(json!({"metadata": {"name": "two"}, "spec": {"taints": taints(2)}})),
                node(json!({"metadata": {"name": "hard"}, "spec": {"taints": [
                    {"key": "x", "effect": "NoSchedule"}]}})),
            ],
            vec![],
        );
        let (raw, norm) = score_all(&TaintToleration, &c, pod(json!({})));
        assert_eq!(raw, [0, 1, 2, 0]);
        assert_eq!(norm, [100, 50, 0, 100]);
        // Tolerating k0 with effect PreferNoSchedule; a NoSchedule toleration does not count.
        let p = pod(json!({"spec": {"tolerations": [
            {"key": "k0", "operator": "Exists", "effect": "PreferNoSchedule"},
            {"key": "k1", "operator": "Exists", "effect": "NoSchedule"}]}}));
        assert_eq!(score_all(&TaintToleration, &c, p).0, [0, 0, 1, 0]);
    }
}
