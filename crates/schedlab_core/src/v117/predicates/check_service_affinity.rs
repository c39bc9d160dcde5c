//! `CheckServiceAffinity` (Policy argument `serviceAffinity {labels}`): pods of a service stay
//! on nodes that share the listed label values.
//!
//! The values come from the pod's `nodeSelector` when it names them. The missing ones come from
//! the node of the first already-scheduled pod in the pod's namespace whose labels include all
//! of the incoming pod's labels, and only when the pod belongs to at least one Service. The node
//! must then carry exactly those values. Computed once per cycle in `pre_filter`.

use super::PredicateSpec;
use crate::cluster::NodeInfo;
use crate::model::selector::set_matches;
use crate::v117::{CycleContext, CycleError, FailureReason, FilterPlugin, FilterResult, State};
/// `CheckServiceAffinity` in the legacy registry.
pub(crate) static SPEC: PredicateSpec = PredicateSpec {
    name: "CheckServiceAffinity",
    order: Some(10),
    plain: false,
    default_provider: None,
    mandatory: false,
    build: None,
};

/// The predicate with its arguments.
pub(crate) struct CheckServiceAffinity {
    /// The label keys that must agree.
    pub labels: Vec<String>,
}

/// Whether any Service in the pod's namespace selects the pod (`GetPodServices` non-empty).
pub(crate) fn pod_has_service(cx: &CycleContext) -> bool {
    cx.cluster.services_selecting(cx.pod).next().is_some()
}

struct AffinityLabels(Vec<(String, String)>);

impl FilterPlugin for CheckServiceAffinity {
    fn reads_other_pods(&self) -> bool {
        true
    }

    fn pre_filter(&self, cx: &CycleContext) -> Result<State, CycleError> {
        let selector = &cx.pod.pod.spec.node_selector;
        let mut fixed: Vec<(String, String)> = self
            .labels
            .iter()
            .filter_map(|k| selector.get(k).map(|v| (k.clone(), v.clone())))
            .collect();
        if fixed.len() < self.labels.len() && pod_has_service(cx) {
            let cluster = cx.cluster;
            let first = cluster.pods().iter().enumerate().find(|(id, p)| {
                cluster.pod_node()[*id].is_some()
                    && p.namespace == cx.pod.namespace
                    && set_matches(cx.pod.labels(), p.labels())
            });
            if let Some((id, _)) = first {
                let node = &cluster.nodes()[cluster.pod_node()[id].unwrap_or_default()];
                for k in &self.labels {
                    if fixed.iter().any(|(f, _)| f == k) {
                        continue;
                    }
                    if let Some(v) = node.labels().get(k) {
                        fixed.push((k.clone(), v.clone()));
                    }
                }
            }
        }
        if fixed.is_empty() {
            return Ok(State::skip());
        }
        Ok(State::new(AffinityLabels(fixed)))
    }

    fn filter(&self, _: &CycleContext, state: &State, node: &NodeInfo) -> FilterResult {
        let wanted = state
            .get::<AffinityLabels>()
            .map(|a| a.0.as_slice())
            .unwrap_or(&[]);
        let ok = wanted.iter().all(|(k, v)| node.labels().get(k) == Some(v));
        Ok(if ok {
            vec![]
        } else {
            vec![FailureReason::ServiceAffinityViolated.into()]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Service;
    use crate::testing::*;
    use serde_json::json;

    fn nodes() -> Vec<crate::model::Node> {
        vec![
            node(json!({"metadata": {"name": "m1", "labels": {"region": "r1", "zone": "z11"}}})),
            node(json!({"metadata": {"name": "m2", "labels": {"region": "r1", "zone": "z12"}}})),
            node(json!({"metadata": {"name": "m3", "labels": {"region": "r2", "zone": "z21"}}})),
        ]
    }
    fn fits(c: &crate::cluster::Cluster, labels: &[&str], p: crate::model::Pod) -> Vec<bool> {
        let pred = CheckServiceAffinity {
            labels: labels.iter().map(|s| s.to_string()).collect(),
        };
        filter_all(&pred, c, p)
            .iter()
            .map(|r| r.is_empty())
            .collect()
    }

    #[test]
    fn service_affinity_cases() {
        let svc: Service = serde_json::from_value(
            json!({"metadata": {"name": "s"}, "spec": {"selector": {"foo": "bar"}}}),
        )
        .unwrap();
        let member = || pod(json!({"metadata": {"labels": {"foo": "bar"}}}));

        // Nothing scheduled and no nodeSelector: every node fits.
        let c = cluster(nodes(), vec![]);
        assert_eq!(fits(&c, &["region"], member()), [true, true, true]);

        // The nodeSelector fixes the region.
        let pinned = pod(
            json!({"metadata": {"labels": {"foo": "bar"}}, "spec": {"nodeSelector": {"region": "r1"}}}),
        );
        assert_eq!(fits(&c, &["region"], pinned), [true, true, false]);

        // A service member already on m3 pulls the pod to region r2.
        let mut c = cluster(nodes(), vec![(member(), 2)]);
        c.objects_mut().services.push(svc.clone());
        assert_eq!(fits(&c, &["region"], member()), [false, false, true]);
        assert_eq!(
            fits(&c, &["region", "zone"], member()),
            [false, false, true]
        );

        // Without a Service the scheduled pod does not count.
        let c = cluster(nodes(), vec![(member(), 2)]);
        assert_eq!(fits(&c, &["region"], member()), [true, true, true]);

        // Pods in another namespace do not count.
        let mut c = cluster(
            nodes(),
            vec![(
                pod(json!({"metadata": {"namespace": "ns", "labels": {"foo": "bar"}}})),
                2,
            )],
        );
        c.objects_mut().services.push(svc);
        assert_eq!(fits(&c, &["region"], member()), [true, true, true]);
        let got = filter_all(
            &CheckServiceAffinity {
                labels: vec!["region".into()],
            },
            &c,
            pod(json!({"spec": {"nodeSelector": {"region": "r9"}}})),
        );
        assert_eq!(got[0], ["node(s) didn't match service affinity"]);
    }
}
