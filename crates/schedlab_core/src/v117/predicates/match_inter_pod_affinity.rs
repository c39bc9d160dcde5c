//! `MatchInterPodAffinity`: required pod affinity and anti-affinity, both ways.
//!
//! In order: (1) an existing pod's required anti-affinity that matches the incoming pod keeps
//! it out of that pod's topology domain; (2) every required affinity term needs a domain holding
//! a pod that matches *all* terms, except for the first pod of a group (no such pod anywhere and
//! the pod matches its own terms); (3) no required anti-affinity term may find a matching pod in
//! the node's domain. Topology pairs are computed once per cycle in `pre_filter`, so each node
//! is a few set lookups.

use super::PredicateSpec;
use crate::cluster::{Cluster, DomainCounts, NodeId, NodeInfo, PodInfo, TermKind, TopologyIndex};
use crate::model::pod::PodAffinityTerm;
use crate::model::selector::selector_matches;
use crate::model::Labels;
use crate::v117::{CycleContext, CycleError, FailureReason, FilterPlugin, FilterResult, State};
use std::collections::HashSet;
/// `MatchInterPodAffinity` in the legacy registry.
pub(crate) static SPEC: PredicateSpec = PredicateSpec {
    name: "MatchInterPodAffinity",
    order: Some(19),
    plain: true,
    default_provider: Some(5),
    mandatory: false,
    build: Some(|| Box::new(MatchInterPodAffinity)),
};

/// The predicate. Reads the cluster's [`TopologyIndex`]; falls back to [`Reference`] when a
/// topology key of the pod is not in the index (a pod that was never added to the cluster).
pub(crate) struct MatchInterPodAffinity;

/// The same predicate computed the straightforward way, scanning every bound pod each cycle.
/// Kept as the reference the fast path is tested against.
pub(crate) struct Reference;

/// Whether `target` matches `term` owned by a pod in `owner_namespace`
/// (namespaces, then label selector; a nil selector matches nothing).
pub(crate) fn term_matches(
    term: &PodAffinityTerm,
    owner_namespace: &str,
    target: &PodInfo,
) -> bool {
    term_matches_labels(term, owner_namespace, &target.namespace, target.labels())
}

/// [`term_matches`] against a namespace and a label set (a [`crate::cluster::LabelGroup`]).
pub(crate) fn term_matches_labels(
    term: &PodAffinityTerm,
    owner_namespace: &str,
    namespace: &str,
    labels: &Labels,
) -> bool {
    let ns_ok = if term.namespaces.is_empty() {
        namespace == owner_namespace
    } else {
        term.namespaces.iter().any(|n| n == namespace)
    };
    ns_ok && selector_matches(term.label_selector.as_ref(), labels)
}

/// Domains of one topology key (dense by value id) where something was found.
pub(crate) struct Domains {
    pub key: usize,
    pub found: Vec<bool>,
}

impl Domains {
    pub(crate) fn new(index: &TopologyIndex, key: usize) -> Domains {
        Domains {
            key,
            found: vec![false; index.keys[key].values.len()],
        }
    }
    /// Marks every domain with a non-zero count; returns whether any was marked.
    pub(crate) fn mark(&mut self, counts: &DomainCounts) -> bool {
        let mut any = false;
        #[allow(
            clippy::iter_over_hash_type,
            reason = "marks per domain: the order is not seen"
        )]
        for (&v, &c) in counts {
            if c != 0 {
                self.found[v as usize] = true;
                any = true;
            }
        }
        any
    }
    /// Whether the node is in a marked domain.
    pub(crate) fn contains(&self, index: &TopologyIndex, node: NodeId) -> bool {
        index
            .node_value(self.key, node)
            .is_some_and(|v| self.found[v as usize])
    }
}

/// The fast path's per-cycle state: domains as dense flags over the cluster's topology index.
struct FastMeta {
    existing_anti: Vec<Domains>,
    has_affinity_terms: bool,
    affinity: Vec<Domains>,
    affinity_empty: bool,
    self_match: bool,
    anti: Vec<Domains>,
}

fn required(a: Option<&crate::model::pod::PodAffinity>) -> Vec<&PodAffinityTerm> {
    a.map(|a| {
        a.required_during_scheduling_ignored_during_execution
            .iter()
            .collect()
    })
    .unwrap_or_default()
}

fn fast_pre_filter(cx: &CycleContext) -> Option<State> {
    let index = &cx.cluster.topology();
    let pod = cx.pod;
    let affinity_terms = required(pod.pod.pod_affinity());
    let anti_terms = required(pod.pod.pod_anti_affinity());
    let mut key_ids = Vec::new();
    for t in affinity_terms.iter().chain(&anti_terms) {
        key_ids.push(index.key_id(&t.topology_key)?);
    }
    let mut existing_anti: Vec<Domains> = Vec::new();
    for t in &index.terms {
        if t.kind == TermKind::RequiredAntiAffinity
            && !t.counts.is_empty()
            && term_matches(&t.term, &t.namespace, pod)
        {
            let pos = match existing_anti.iter().position(|d| d.key == t.key) {
                Some(p) => p,
                None => {
                    existing_anti.push(Domains::new(index, t.key));
                    existing_anti.len() - 1
                }
            };
            existing_anti[pos].mark(&t.counts);
        }
    }
    if existing_anti.is_empty() && affinity_terms.is_empty() && anti_terms.is_empty() {
        return Some(State::skip());
    }
    let (aff_keys, anti_keys) = key_ids.split_at(affinity_terms.len());
    let mut affinity: Vec<Domains> = aff_keys.iter().map(|&k| Domains::new(index, k)).collect();
    let mut anti: Vec<Domains> = anti_keys.iter().map(|&k| Domains::new(index, k)).collect();
    let mut affinity_empty = true;
    for g in &index.groups {
        if !affinity_terms.is_empty()
            && affinity_terms
                .iter()
                .all(|t| term_matches_labels(t, &pod.namespace, &g.namespace, &g.labels))
        {
            for d in &mut affinity {
                affinity_empty &= !d.mark(&g.counts[d.key]);
            }
        }
        for (t, d) in anti_terms.iter().zip(&mut anti) {
            if term_matches_labels(t, &pod.namespace, &g.namespace, &g.labels) {
                d.mark(&g.counts[d.key]);
            }
        }
    }
    let self_match = affinity_terms
        .iter()
        .all(|t| term_matches(t, &pod.namespace, pod));
    Some(State::new(FastMeta {
        existing_anti,
        has_affinity_terms: !affinity_terms.is_empty(),
        affinity,
        affinity_empty,
        self_match,
        anti,
    }))
}

fn fast_filter(cx: &CycleContext, meta: &FastMeta, node: &NodeInfo) -> FilterResult {
    use FailureReason::*;
    let index = &cx.cluster.topology();
    if meta
        .existing_anti
        .iter()
        .any(|d| d.contains(index, node.id()))
    {
        return Ok(vec![
            PodAffinityNotMatch.into(),
            ExistingPodsAntiAffinityRulesNotMatch.into(),
        ]);
    }
    if meta.has_affinity_terms {
        let all_found = meta.affinity.iter().all(|d| d.contains(index, node.id()));
        let first_of_group = meta.affinity_empty && meta.self_match;
        if !all_found && !first_of_group {
            return Ok(vec![
                PodAffinityNotMatch.into(),
                PodAffinityRulesNotMatch.into(),
            ]);
        }
    }
    if meta.anti.iter().any(|d| d.contains(index, node.id())) {
        return Ok(vec![
            PodAffinityNotMatch.into(),
            PodAntiAffinityRulesNotMatch.into(),
        ]);
    }
    Ok(vec![])
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
        .nodes()
        .iter()
        .flat_map(move |n| n.pods().iter().map(move |&p| (&*cluster.pods()[p], n)))
}

fn pair(node: &NodeInfo, key: &str) -> Option<(String, String)> {
    node.labels().get(key).map(|v| (key.to_string(), v.clone()))
}

impl FilterPlugin for MatchInterPodAffinity {
    fn reads_other_pods(&self) -> bool {
        true
    }

    fn pre_filter(&self, cx: &CycleContext) -> Result<State, CycleError> {
        match fast_pre_filter(cx) {
            Some(state) => Ok(state),
            None => Reference.pre_filter(cx),
        }
    }

    fn filter(&self, cx: &CycleContext, state: &State, node: &NodeInfo) -> FilterResult {
        match state.get::<FastMeta>() {
            Some(meta) => fast_filter(cx, meta, node),
            None => Reference.filter(cx, state, node),
        }
    }
}

impl FilterPlugin for Reference {
    fn reads_other_pods(&self) -> bool {
        true
    }

    fn pre_filter(&self, cx: &CycleContext) -> Result<State, CycleError> {
        let cluster = cx.cluster;
        let pod = cx.pod;
        let mut existing_anti = Pairs::new();
        for &id in cluster.pods_with_affinity() {
            let ep = &cluster.pods()[id];
            let Some(node) = cluster.pod_node()[id] else {
                continue;
            };
            let Some(anti) = ep.pod.pod_anti_affinity() else {
                continue;
            };
            for term in &anti.required_during_scheduling_ignored_during_execution {
                if term_matches(term, &ep.namespace, pod) {
                    existing_anti.extend(pair(&cluster.nodes()[node], &term.topology_key));
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
