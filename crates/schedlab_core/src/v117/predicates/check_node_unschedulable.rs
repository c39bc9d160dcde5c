//! `CheckNodeUnschedulable`: a cordoned node (`spec.unschedulable`) takes only pods that
//! tolerate the `node.kubernetes.io/unschedulable:NoSchedule` taint. Mandatory in v1.17.

use super::PredicateSpec;
use crate::cluster::NodeInfo;
use crate::model::taint::{tolerated, NO_SCHEDULE, TAINT_NODE_UNSCHEDULABLE};
use crate::model::Taint;
use crate::v117::{CycleContext, FailureReason, FilterPlugin, FilterResult, State};

/// `CheckNodeUnschedulable` in the legacy registry.
pub(crate) static SPEC: PredicateSpec = PredicateSpec {
    name: "CheckNodeUnschedulable",
    order: Some(0),
    plain: true,
    default_provider: Some(10),
    mandatory: true,
    build: Some(|| Box::new(CheckNodeUnschedulable)),
};

/// The predicate.
pub(crate) struct CheckNodeUnschedulable;

impl FilterPlugin for CheckNodeUnschedulable {
    fn pre_filter(&self, cx: &CycleContext) -> Result<State, crate::v117::CycleError> {
        Ok(if cx.cluster.nodes_cordoned() == 0 {
            State::skip()
        } else {
            State::none()
        })
    }

    fn filter(&self, cx: &CycleContext, _: &State, node: &NodeInfo) -> FilterResult {
        if !node.object().spec.unschedulable {
            return Ok(vec![]);
        }
        let taint = Taint {
            key: TAINT_NODE_UNSCHEDULABLE.into(),
            value: String::new(),
            effect: NO_SCHEDULE.into(),
        };
        if tolerated(&cx.pod.pod.spec.tolerations, &taint) {
            Ok(vec![])
        } else {
            Ok(vec![FailureReason::NodeUnschedulable.into()])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;
    use serde_json::json;

    #[test]
    fn cordoned_nodes_reject_pods_without_the_toleration() {
        let c = cluster(
            vec![
                node(json!({"metadata": {"name": "open"}})),
                node(json!({"metadata": {"name": "cordoned"}, "spec": {"unschedulable": true}})),
            ],
            vec![],
        );
        let plain = pod(json!({}));
        assert_eq!(
            filter_all(&CheckNodeUnschedulable, &c, plain),
            vec![vec![], vec!["node(s) were unschedulable".to_string()]]
        );
        let tolerant = pod(json!({"spec": {"tolerations": [
            {"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"}]}}));
        assert_eq!(
            filter_all(&CheckNodeUnschedulable, &c, tolerant),
            vec![Vec::<String>::new(), vec![]]
        );
        let wrong_effect = pod(json!({"spec": {"tolerations": [
            {"key": "node.kubernetes.io/unschedulable", "operator": "Exists", "effect": "NoExecute"}]}}));
        assert_eq!(
            filter_all(&CheckNodeUnschedulable, &c, wrong_effect)[1].len(),
            1
        );
    }
}
