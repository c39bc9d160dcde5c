//! `HostName` (`PodFitsHost`): a pod with `spec.nodeName` fits only that node.

use super::PredicateSpec;
use crate::cluster::NodeInfo;
use crate::v117::{CycleContext, FailureReason, FilterPlugin, FilterResult, Reason, State};
/// `HostName` in the legacy registry.
pub(crate) static SPEC: PredicateSpec = PredicateSpec {
    name: "HostName",
    order: Some(2),
    plain: true,
    default_provider: None,
    mandatory: false,
    build: Some(|| Box::new(HostName)),
};

/// The predicate.
pub(crate) struct HostName;

/// The check, shared with `GeneralPredicates`.
pub(crate) fn check(cx: &CycleContext, node: &NodeInfo) -> Option<Reason> {
    let want = &cx.pod.pod.spec.node_name;
    (!want.is_empty() && want != node.name()).then_some(FailureReason::PodNotMatchHostName.into())
}

impl FilterPlugin for HostName {
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
    fn only_the_named_node_fits() {
        let c = cluster(
            vec![
                node(json!({"metadata": {"name": "a"}})),
                node(json!({"metadata": {"name": "b"}})),
            ],
            vec![],
        );
        assert_eq!(
            filter_all(&HostName, &c, pod(json!({}))),
            vec![Vec::<String>::new(), vec![]]
        );
        assert_eq!(
            filter_all(&HostName, &c, pod(json!({"spec": {"nodeName": "b"}}))),
            vec![
                vec!["node(s) didn't match the requested hostname".to_string()],
                vec![]
            ]
        );
    }
}
