//! `GeneralPredicates`: PodFitsResources, then HostName, PodFitsHostPorts and MatchNodeSelector.
//! All four always run; their reasons are concatenated in that order.

use super::PredicateSpec;
use super::{host_name, match_node_selector, pod_fits_host_ports, pod_fits_resources};
use crate::cluster::NodeInfo;
use crate::v117::{CycleContext, CycleError, FilterPlugin, FilterResult, Reason, State};
/// `GeneralPredicates` in the legacy registry.
pub(crate) static SPEC: PredicateSpec = PredicateSpec {
    name: "GeneralPredicates",
    order: Some(1),
    plain: true,
    default_provider: Some(7),
    mandatory: false,
    build: Some(|| Box::new(GeneralPredicates)),
};

/// The predicate.
pub(crate) struct GeneralPredicates;

impl FilterPlugin for GeneralPredicates {
    fn filter(&self, cx: &CycleContext, state: &State, node: &NodeInfo) -> FilterResult {
        let mut reasons = Vec::new();
        self.filter_into(cx, state, node, &mut reasons)?;
        Ok(reasons)
    }

    fn filter_into(
        &self,
        cx: &CycleContext,
        state: &State,
        node: &NodeInfo,
        out: &mut Vec<Reason>,
    ) -> Result<(), CycleError> {
        // Most nodes fit: the checks without their reasons first, the reasons only for a no.
        if self.passes(cx, state, node)? {
            return Ok(());
        }
        let hostname = host_name::check(cx, node);
        let ports = pod_fits_host_ports::check(cx, node);
        let selector = match_node_selector::check(cx, node);
        pod_fits_resources::check_into(cx, node, out);
        out.extend(hostname);
        out.extend(ports);
        out.extend(selector);
        Ok(())
    }

    fn passes(&self, cx: &CycleContext, _: &State, node: &NodeInfo) -> Result<bool, CycleError> {
        Ok(pod_fits_resources::fits(cx, node)
            && host_name::check(cx, node).is_none()
            && pod_fits_host_ports::check(cx, node).is_none()
            && match_node_selector::check(cx, node).is_none())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;
    use serde_json::json;

    #[test]
    fn every_sub_check_runs_and_reasons_keep_their_order() {
        let c = cluster(
            vec![node(
                json!({"metadata": {"name": "n"}, "status": {"allocatable": {"cpu": "1", "pods": 10}}}),
            )],
            vec![(
                pod(json!({"spec": {"containers": [{"name": "c", "ports": [{"hostPort": 80}]}]}})),
                0,
            )],
        );
        let incoming = pod(json!({"spec": {
            "nodeName": "other", "nodeSelector": {"a": "b"},
            "containers": [{"name": "c", "resources": {"requests": {"cpu": "2"}}, "ports": [{"hostPort": 80}]}]}}));
        let reasons = filter_all(&GeneralPredicates, &c, incoming.clone());
        assert_eq!(
            reasons[0],
            [
                "Insufficient cpu",
                "node(s) didn't match the requested hostname",
                "node(s) didn't have free ports for the requested pod ports",
                "node(s) didn't match node selector"
            ]
        );
    }

    #[test]
    fn passes_agrees_with_filter() {
        use crate::cluster::PodInfo;
        use crate::v117::AlgorithmSettings;
        let c = cluster(
            vec![node(
                json!({"metadata": {"name": "n", "labels": {"a": "b"}}, "status": {"allocatable": {"cpu": "1", "pods": 2}}}),
            )],
            vec![(
                pod(
                    json!({"spec": {"containers": [{"name": "c", "ports": [{"hostPort": 80}], "resources": {"requests": {"cpu": "500m"}}}]}}),
                ),
                0,
            )],
        );
        for spec in [
            json!({"containers": [{"name": "c", "resources": {"requests": {"cpu": "400m"}}}]}),
            json!({"containers": [{"name": "c", "resources": {"requests": {"cpu": "600m"}}}]}),
            json!({"nodeName": "other", "containers": [{"name": "c"}]}),
            json!({"nodeSelector": {"a": "c"}, "containers": [{"name": "c"}]}),
            json!({"nodeSelector": {"a": "b"}, "containers": [{"name": "c", "ports": [{"hostPort": 80}]}]}),
            json!({"nodeSelector": {"a": "b"}, "containers": [{"name": "c", "ports": [{"hostPort": 81}]}]}),
        ] {
            let info = PodInfo::new(pod(json!({"spec": spec})), 0, usize::MAX);
            let settings = AlgorithmSettings::default();
            let cx = CycleContext {
                cluster: &c,
                pod: &info,
                settings: &settings,
            };
            let node = &c.nodes()[0];
            let reasons = GeneralPredicates.filter(&cx, &State::none(), node).unwrap();
            let passes = GeneralPredicates.passes(&cx, &State::none(), node).unwrap();
            assert_eq!(passes, reasons.is_empty(), "{spec} {reasons:?}");
        }
    }
}
