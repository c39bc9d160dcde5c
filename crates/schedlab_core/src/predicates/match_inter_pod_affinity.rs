//! `MatchInterPodAffinity`: required pod affinity and anti-affinity, both ways.
//!
//! In order: (1) an existing pod's required anti-affinity that matches the incoming pod keeps
//! it out of that pod's topology domain; (2) every required affinity term needs a domain holding
//! a pod that matches *all* terms, except for the first pod of a group (no such pod anywhere and
//! the pod matches its own terms); (3) no required anti-affinity term may find a matching pod in
//! the node's domain. Topology pairs are computed once per cycle in `pre_filter`, so each node
//! is a few set lookups.

use crate::cluster::{Cluster, NodeInfo, PodInfo};
use crate::framework::{
    CycleContext, CycleError, FailureReason, FilterPlugin, FilterResult, State,
};
use crate::model::pod::PodAffinityTerm;
use crate::model::selector::selector_matches;
use std::collections::HashSet;

/// The predicate.
pub struct MatchInterPodAffinity;

/// Whether `target` matches `term` owned by a pod in `owner_namespace`
/// (namespaces, then label selector; a nil selector matches nothing).
pub fn term_matches(term: &PodAffinityTerm, owner_namespace: &str, target: &PodInfo) -> bool {
    let ns_ok = if term.namespaces.is_empty() {
        target.namespace == owner_namespace
    } else {
        term.namespaces.contains(&target.namespace)
    };
    ns_ok && selector_matches(term.label_selector.as_ref(), target.labels())
}

type Pairs = HashSet<(String, String)>;

struct Meta {
    existing_anti: Pairs,
    affinity: Pairs,
    affinity_terms: Vec<PodAffinityTerm>,
    self_match: bool,
    anti: Pairs,
    anti_terms: Vec<PodAffinityTerm>,
}

fn bound_pods(cluster: &Cluster) -> impl Iterator<Item = (&PodInfo, &NodeInfo)> {
    cluster
        .nodes
        .iter()
        .flat_map(move |n| n.pods.iter().map(move |&p| (&cluster.pods[p], n)))
}

fn pair(node: &NodeInfo, key: &str) -> Option<(String, String)> {
    node.labels().get(key).map(|v| (key.to_string(), v.clone()))
}

impl FilterPlugin for MatchInterPodAffinity {
    fn pre_filter(&self, cx: &CycleContext) -> Result<State, CycleError> {
        let cluster = cx.cluster;
        let pod = cx.pod;
        let mut existing_anti = Pairs::new();
        for &id in &cluster.pods_with_affinity {
            let ep = &cluster.pods[id];
            let Some(node) = cluster.pod_node[id] else {
                continue;
            };
            let Some(anti) = ep.pod.pod_anti_affinity() else {
                continue;
            };
            for term in &anti.required_during_scheduling_ignored_during_execution {
                if term_matches(term, &ep.namespace, pod) {
                    existing_anti.extend(pair(&cluster.nodes[node], &term.topology_key));
                }
            }
        }
        let affinity_terms: Vec<PodAffinityTerm> = pod
            .pod
            .pod_affinity()
            .map(|a| {
                a.required_during_scheduling_ignored_during_execution
                    .clone()
            })
            .unwrap_or_default();
        let anti_terms: Vec<PodAffinityTerm> = pod
            .pod
            .pod_anti_affinity()
            .map(|a| {
                a.required_during_scheduling_ignored_during_execution
                    .clone()
            })
            .unwrap_or_default();
        let mut affinity = Pairs::new();
        let mut anti = Pairs::new();
        if !affinity_terms.is_empty() || !anti_terms.is_empty() {
            for (ep, node) in bound_pods(cluster) {
                if !affinity_terms.is_empty()
                    && affinity_terms
                        .iter()
                        .all(|t| term_matches(t, &pod.namespace, ep))
                {
                    for t in &affinity_terms {
                        affinity.extend(pair(node, &t.topology_key));
                    }
                }
                for t in &anti_terms {
                    if term_matches(t, &pod.namespace, ep) {
                        anti.extend(pair(node, &t.topology_key));
                    }
                }
            }
        }
        if existing_anti.is_empty() && affinity_terms.is_empty() && anti_terms.is_empty() {
            return Ok(State::skip());
        }
        let self_match = affinity_terms
            .iter()
            .all(|t| term_matches(t, &pod.namespace, pod));
        Ok(State::new(Meta {
            existing_anti,
            affinity,
            affinity_terms,
            self_match,
            anti,
            anti_terms,
        }))
    }

    fn filter(&self, _: &CycleContext, state: &State, node: &NodeInfo) -> FilterResult {
        use FailureReason::*;
        let Some(meta) = state.get::<Meta>() else {
            return Err(CycleError(
                "metadata not pre-computed for MatchInterPodAffinity".into(),
            ));
        };
        let labels = node.labels();
        let has_pair = |set: &Pairs, key: &str| {
            labels
                .get(key)
                .is_some_and(|v| set.contains(&(key.to_string(), v.clone())))
        };
        if !meta.existing_anti.is_empty()
            && labels
                .iter()
                .any(|(k, v)| meta.existing_anti.contains(&(k.clone(), v.clone())))
        {
            return Ok(vec![
                PodAffinityNotMatch.into(),
                ExistingPodsAntiAffinityRulesNotMatch.into(),
            ]);
        }
        if !meta.affinity_terms.is_empty() {
            let all_found = meta
                .affinity_terms
                .iter()
                .all(|t| has_pair(&meta.affinity, &t.topology_key));
            let first_of_group = meta.affinity.is_empty() && meta.self_match;
            if !all_found && !first_of_group {
                return Ok(vec![
                    PodAffinityNotMatch.into(),
                    PodAffinityRulesNotMatch.into(),
                ]);
            }
        }
        if meta
            .anti_terms
            .iter()
            .any(|t| has_pair(&meta.anti, &t.topology_key))
        {
            return Ok(vec![
                PodAffinityNotMatch.into(),
                PodAntiAffinityRulesNotMatch.into(),
            ]);
        }
        Ok(vec![])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;
    use serde_json::{json, Value};

    fn zones() -> Vec<crate::model::Node> {
        vec![
            node(
                json!({"metadata": {"name": "a1", "labels": {"zone": "a", "kubernetes.io/hostname": "a1"}}}),
            ),
            node(
                json!({"metadata": {"name": "a2", "labels": {"zone": "a", "kubernetes.io/hostname": "a2"}}}),
            ),
            node(
                json!({"metadata": {"name": "b1", "labels": {"zone": "b", "kubernetes.io/hostname": "b1"}}}),
            ),
            node(
                json!({"metadata": {"name": "nozone", "labels": {"kubernetes.io/hostname": "nozone"}}}),
            ),
        ]
    }
    fn labelled(labels: Value) -> crate::model::Pod {
        pod(json!({"metadata": {"labels": labels}}))
    }
    fn with_affinity(kind: &str, labels: Value, key: &str) -> crate::model::Pod {
        pod(
            json!({"metadata": {"labels": labels}, "spec": {"affinity": {kind: {
            "requiredDuringSchedulingIgnoredDuringExecution": [
                {"labelSelector": {"matchLabels": {"app": "cache"}}, "topologyKey": key}]}}}}),
        )
    }
    fn run(c: &crate::cluster::Cluster, p: crate::model::Pod) -> Vec<Vec<String>> {
        filter_all(&MatchInterPodAffinity, c, p)
    }
    const AFF: [&str; 2] = [
        "node(s) didn't match pod affinity/anti-affinity",
        "node(s) didn't match pod affinity rules",
    ];
    const ANTI: [&str; 2] = [
        "node(s) didn't match pod affinity/anti-affinity",
        "node(s) didn't match pod anti-affinity rules",
    ];
    const EXISTING: [&str; 2] = [
        "node(s) didn't match pod affinity/anti-affinity",
        "node(s) didn't satisfy existing pods anti-affinity rules",
    ];

    #[test]
    fn a_pod_without_affinity_fits_everywhere() {
        let c = cluster(zones(), vec![(labelled(json!({"app": "cache"})), 0)]);
        assert!(run(&c, pod(json!({}))).iter().all(|r| r.is_empty()));
    }

    #[test]
    fn required_affinity_follows_the_zone_of_a_matching_pod() {
        let c = cluster(zones(), vec![(labelled(json!({"app": "cache"})), 0)]);
        let got = run(
            &c,
            with_affinity("podAffinity", json!({"app": "web"}), "zone"),
        );
        assert_eq!(got[0], Vec::<String>::new());
        assert_eq!(got[1], Vec::<String>::new(), "a2 shares zone a");
        assert_eq!(got[2], AFF);
        assert_eq!(got[3], AFF, "a node without the topology key fails");
    }

    #[test]
    fn the_first_pod_of_a_group_may_go_anywhere() {
        let c = cluster(zones(), vec![]);
        // The pod matches its own term: allowed everywhere.
        let got = run(
            &c,
            with_affinity("podAffinity", json!({"app": "cache"}), "zone"),
        );
        assert!(got.iter().all(|r| r.is_empty()));
        // It does not match its own term: nowhere.
        let got = run(
            &c,
            with_affinity("podAffinity", json!({"app": "web"}), "zone"),
        );
        assert!(got.iter().all(|r| r == &AFF));
    }

    #[test]
    fn required_anti_affinity_keeps_the_domain_free() {
        let c = cluster(zones(), vec![(labelled(json!({"app": "cache"})), 0)]);
        let got = run(
            &c,
            with_affinity("podAntiAffinity", json!({"app": "cache"}), "zone"),
        );
        assert_eq!(got[0], ANTI);
        assert_eq!(got[1], ANTI);
        assert_eq!(got[2], Vec::<String>::new());
        assert_eq!(
            got[3],
            Vec::<String>::new(),
            "no topology key, no violation"
        );
    }

    #[test]
    fn existing_pods_anti_affinity_is_symmetric() {
        let existing = with_affinity(
            "podAntiAffinity",
            json!({"app": "x"}),
            "kubernetes.io/hostname",
        );
        let c = cluster(zones(), vec![(existing, 2)]);
        let got = run(&c, labelled(json!({"app": "cache"})));
        assert_eq!(got[2], EXISTING);
        assert_eq!(got[0], Vec::<String>::new());
        // A pod the term does not select is unaffected.
        assert!(run(&c, labelled(json!({"app": "web"})))
            .iter()
            .all(|r| r.is_empty()));
    }

    #[test]
    fn terms_respect_namespaces() {
        let other_ns = pod(json!({"metadata": {"namespace": "other", "labels": {"app": "cache"}}}));
        let c = cluster(zones(), vec![(other_ns, 0)]);
        let got = run(&c, with_affinity("podAntiAffinity", json!({}), "zone"));
        assert!(
            got.iter().all(|r| r.is_empty()),
            "the term looks in the pod's own namespace"
        );
    }
}
