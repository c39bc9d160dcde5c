//! `PodToleratesNodeTaints`: every `NoSchedule` and `NoExecute` taint of the node must be
//! tolerated; `PreferNoSchedule` taints are left to TaintTolerationPriority. Mandatory in v1.17.

use super::PredicateSpec;
use crate::cluster::NodeInfo;
use crate::model::taint::{tolerated, NO_EXECUTE, NO_SCHEDULE};
use crate::v117::{CycleContext, FailureReason, FilterPlugin, FilterResult, State};
/// `PodToleratesNodeTaints` in the legacy registry.
pub(crate) static SPEC: PredicateSpec = PredicateSpec {
    name: "PodToleratesNodeTaints",
    order: Some(7),
    plain: true,
    default_provider: Some(8),
    mandatory: true,
    build: Some(|| Box::new(PodToleratesNodeTaints)),
};

/// In v1.17's `Ordering()` but no longer registered: a Policy cannot name it.
pub(crate) static NO_EXECUTE_TAINTS: PredicateSpec = PredicateSpec {
    name: "PodToleratesNodeNoExecuteTaints",
    order: Some(8),
    plain: false,
    default_provider: None,
    mandatory: false,
    build: None,
};

/// The predicate.
pub(crate) struct PodToleratesNodeTaints;

impl FilterPlugin for PodToleratesNodeTaints {
    fn pre_filter(&self, cx: &CycleContext) -> Result<State, crate::v117::CycleError> {
        Ok(if cx.cluster.nodes_with_hard_taints() == 0 {
            State::skip()
        } else {
            State::none()
        })
    }

    fn filter(&self, cx: &CycleContext, _: &State, node: &NodeInfo) -> FilterResult {
        let tolerations = &cx.pod.pod.spec.tolerations;
        let ok = node
            .object()
            .spec
            .taints
            .iter()
            .filter(|t| t.effect == NO_SCHEDULE || t.effect == NO_EXECUTE)
            .all(|t| tolerated(tolerations, t));
        Ok(if ok {
            vec![]
        } else {
            vec![FailureReason::TaintsTolerationsNotMatch.into()]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;
    use serde_json::{json, Value};

    #[test]
    fn taints_need_tolerations() {
        let tainted =
            |taints: Value| node(json!({"metadata": {"name": "n"}, "spec": {"taints": taints}}));
        let cases: Vec<(&str, Value, Value, bool)> = vec![
            (
                "a pod having no tolerations can't be scheduled onto a node with nonempty taints",
                json!([{"key": "dedicated", "value": "user1", "effect": "NoSchedule"}]),
                json!([]),
                false,
            ),
            (
                "a pod tolerating the taint fits",
                json!([{"key": "dedicated", "value": "user1", "effect": "NoSchedule"}]),
                json!([{"key": "dedicated", "operator": "Equal", "value": "user1", "effect": "NoSchedule"}]),
                true,
            ),
            (
                "a wrong value does not tolerate",
                json!([{"key": "dedicated", "value": "user1", "effect": "NoSchedule"}]),
                json!([{"key": "dedicated", "operator": "Equal", "value": "user2", "effect": "NoSchedule"}]),
                false,
            ),
            (
                "PreferNoSchedule taints are ignored",
                json!([{"key": "foo", "value": "bar", "effect": "PreferNoSchedule"}]),
                json!([]),
                true,
            ),
            (
                "NoExecute taints filter too",
                json!([{"key": "node.kubernetes.io/not-ready", "effect": "NoExecute"}]),
                json!([]),
                false,
            ),
            (
                "a node with no taints takes everyone",
                json!([]),
                json!([]),
                true,
            ),
        ];
        for (name, taints, tolerations, fits) in cases {
            let c = cluster(vec![tainted(taints)], vec![]);
            let got = filter_all(
                &PodToleratesNodeTaints,
                &c,
                pod(json!({"spec": {"tolerations": tolerations}})),
            );
            assert_eq!(got[0].is_empty(), fits, "{name}");
            if !fits {
                assert_eq!(got[0], ["node(s) had taints that the pod didn't tolerate"]);
            }
        }
    }
}
