//! `NodePreferAvoidPodsPriority` (default weight 10000): 0 on a node whose
//! `scheduler.alpha.kubernetes.io/preferAvoidPods` annotation names the pod's controlling
//! ReplicationController or ReplicaSet (by kind and uid), else 100. Pods without such a
//! controller, and annotations that do not parse, score 100.

use super::PrioritySpec;
use super::MAX_NODE_SCORE;
use crate::cluster::NodeInfo;
use crate::v117::{CycleContext, CycleError, ScorePlugin, State};
/// `NodePreferAvoidPodsPriority` in the legacy registry.
pub(crate) static SPEC: PrioritySpec = PrioritySpec {
    name: "NodePreferAvoidPodsPriority",
    default_weight: 10000,
    default_provider: true,
    build: || Box::new(NodePreferAvoidPods),
};

/// The priority.
pub(crate) struct NodePreferAvoidPods;

impl ScorePlugin for NodePreferAvoidPods {
    fn normalizes(&self) -> bool {
        false
    }
    fn normalize_uniform(&self, raw: i64) -> Option<i64> {
        Some(raw) // no normalize: scores are kept
    }

    fn pre_score(&self, cx: &CycleContext, _: &[&NodeInfo]) -> Result<State, CycleError> {
        let controlled = cx
            .pod
            .pod
            .metadata
            .controller()
            .is_some_and(|c| c.kind == "ReplicationController" || c.kind == "ReplicaSet");
        Ok(if controlled {
            State::none()
        } else {
            State::uniform(MAX_NODE_SCORE)
        })
    }

    fn score(&self, cx: &CycleContext, _: &State, node: &NodeInfo) -> Result<i64, CycleError> {
        let Some(ctrl) = cx.pod.pod.metadata.controller() else {
            return Ok(MAX_NODE_SCORE);
        };
        if ctrl.kind != "ReplicationController" && ctrl.kind != "ReplicaSet" {
            return Ok(MAX_NODE_SCORE);
        }
        let Some(avoid) = &node.facts().avoid_controllers else {
            return Ok(MAX_NODE_SCORE);
        };
        let listed = avoid.iter().any(|(k, u)| *k == ctrl.kind && *u == ctrl.uid);
        Ok(if listed { 0 } else { MAX_NODE_SCORE })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;
    use serde_json::json;

    #[test]
    fn avoided_controllers_score_zero() {
        let annotation = r#"{"preferAvoidPods":[{"podSignature":{"podController":{"apiVersion":"v1","kind":"ReplicationController","name":"foo","uid":"abcdef123456","controller":true}},"reason":"some reason","message":"some message"}]}"#;
        let c = cluster(
            vec![
                node(
                    json!({"metadata": {"name": "a", "annotations": {"scheduler.alpha.kubernetes.io/preferAvoidPods": annotation}}}),
                ),
                node(json!({"metadata": {"name": "b"}})),
                node(
                    json!({"metadata": {"name": "bad", "annotations": {"scheduler.alpha.kubernetes.io/preferAvoidPods": "{not json"}}}),
                ),
            ],
            vec![],
        );
        let owned = |kind: &str, uid: &str| {
            pod(json!({"metadata": {"ownerReferences": [
            {"kind": kind, "name": "foo", "uid": uid, "controller": true}]}}))
        };
        assert_eq!(
            score_all(
                &NodePreferAvoidPods,
                &c,
                owned("ReplicationController", "abcdef123456")
            )
            .1,
            [0, 100, 100]
        );
        assert_eq!(
            score_all(
                &NodePreferAvoidPods,
                &c,
                owned("ReplicationController", "other")
            )
            .1,
            [100, 100, 100]
        );
        assert_eq!(
            score_all(
                &NodePreferAvoidPods,
                &c,
                owned("StatefulSet", "abcdef123456")
            )
            .1,
            [100, 100, 100]
        );
        assert_eq!(
            score_all(&NodePreferAvoidPods, &c, pod(json!({}))).1,
            [100, 100, 100]
        );
    }
}
