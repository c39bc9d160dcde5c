//! `MatchNodeSelector` (`PodMatchNodeSelector`): `spec.nodeSelector` must match the node's labels,
//! and so must the required node affinity terms (ORed; expressions and fields ANDed in a term).
//! A node affinity without a required part only applies the nodeSelector.

use super::PredicateSpec;
use crate::cluster::NodeInfo;
use crate::model::selector::set_matches;
use crate::model::{Node, Pod};
use crate::v117::{CycleContext, FailureReason, FilterPlugin, FilterResult, Reason, State};
/// `MatchNodeSelector` in the legacy registry.
pub(crate) static SPEC: PredicateSpec = PredicateSpec {
    name: "MatchNodeSelector",
    order: Some(4),
    plain: true,
    default_provider: None,
    mandatory: false,
    build: Some(|| Box::new(MatchNodeSelector)),
};

/// The predicate.
pub(crate) struct MatchNodeSelector;

/// `PodMatchesNodeSelectorAndAffinityTerms`.
pub(crate) fn pod_matches_node(pod: &Pod, node: &Node) -> bool {
    let labels = &node.metadata.labels;
    if !pod.spec.node_selector.is_empty() && !set_matches(&pod.spec.node_selector, labels) {
        return false;
    }
    match pod.node_affinity() {
        Some(na) => match &na.required_during_scheduling_ignored_during_execution {
            None => true,
            Some(sel) => sel.matches(labels, &node.metadata.name),
        },
        None => true,
    }
}

/// The check, shared with `GeneralPredicates`.
pub(crate) fn check(cx: &CycleContext, node: &NodeInfo) -> Option<Reason> {
    (!pod_matches_node(&cx.pod.pod, node.object()))
        .then_some(FailureReason::NodeSelectorNotMatch.into())
}

impl FilterPlugin for MatchNodeSelector {
    fn filter(&self, cx: &CycleContext, _: &State, node: &NodeInfo) -> FilterResult {
        Ok(check(cx, node).into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;
    use serde_json::json;

    #[test]
    fn node_selector_and_required_affinity() {
        let c = cluster(
            vec![
                node(
                    json!({"metadata": {"name": "ssd-a", "labels": {"disk": "ssd", "zone": "a"}}}),
                ),
                node(
                    json!({"metadata": {"name": "hdd-b", "labels": {"disk": "hdd", "zone": "b"}}}),
                ),
            ],
            vec![],
        );
        let fit = |p| {
            filter_all(&MatchNodeSelector, &c, p)
                .iter()
                .map(|r| r.is_empty())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            fit(pod(json!({}))),
            [true, true],
            "no selector fits everywhere"
        );
        assert_eq!(
            fit(pod(json!({"spec": {"nodeSelector": {"disk": "ssd"}}}))),
            [true, false]
        );
        assert_eq!(
            fit(pod(json!({"spec": {"nodeSelector": {"gpu": "yes"}}}))),
            [false, false]
        );
        let affinity = |terms| {
            pod(json!({"spec": {"affinity": {"nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}}}}}))
        };
        assert_eq!(
            fit(affinity(
                json!([{"matchExpressions": [{"key": "zone", "operator": "In", "values": ["b"]}]}])
            )),
            [false, true]
        );
        assert_eq!(
            fit(affinity(json!([
                {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a"]}]},
                {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["hdd-b"]}]}]))),
            [true, true],
            "terms are ORed"
        );
        assert_eq!(
            fit(affinity(
                json!([{"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a"]}],
                "matchFields": [{"key": "metadata.name", "operator": "In", "values": ["hdd-b"]}]}])
            )),
            [false, false],
            "expressions and fields of one term are ANDed"
        );
        assert_eq!(
            fit(affinity(json!([]))),
            [false, false],
            "no terms match nothing"
        );
        assert_eq!(
            fit(affinity(json!([{}]))),
            [false, false],
            "an empty term matches nothing"
        );
        // A node affinity with only preferences keeps the nodeSelector check.
        let pref_only = pod(
            json!({"spec": {"nodeSelector": {"disk": "hdd"}, "affinity": {"nodeAffinity": {
            "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1, "preference": {}}]}}}}),
        );
        assert_eq!(fit(pref_only), [false, true]);
        assert_eq!(
            filter_all(
                &MatchNodeSelector,
                &c,
                pod(json!({"spec": {"nodeSelector": {"disk": "ssd"}}}))
            )[1],
            ["node(s) didn't match node selector"]
        );
    }
}
