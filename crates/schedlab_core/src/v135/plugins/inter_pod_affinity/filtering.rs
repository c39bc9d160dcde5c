//! PreFilter (with AddPod/RemovePod) and Filter (upstream's `filtering.go`): the topology
//! pairs that existing pods' anti-affinity and the incoming pod's required terms count, and a
//! node's verdict against them.

use super::common::*;
use super::*;

// ---------------------------------------------------------------------------------------------
// PreFilter / Filter.

/// What PreFilter found that AddPod/RemovePod never change.
#[derive(Debug)]
pub(super) struct FilterShared {
    pub(super) affinity: Vec<Term>,
    pub(super) anti: Vec<Term>,
    /// The slot of each affinity / anti-affinity term's key in its counts.
    pub(super) affinity_slots: Vec<usize>,
    pub(super) anti_slots: Vec<usize>,
    /// `podMatchesAllAffinityTerms(affinity terms, incoming pod)`.
    pub(super) self_match: bool,
    pub(super) namespace_labels: Labels,
}

/// `preFilterState`.
#[derive(Clone, Debug)]
pub(super) struct FilterState {
    pub(super) shared: Arc<FilterShared>,
    pub(super) existing_anti: PairCounts,
    pub(super) affinity: PairCounts,
    pub(super) anti: PairCounts,
}

/// Whether `terms` is not empty and every term matches (`podMatchesAllAffinityTerms`).
pub(super) fn matches_all(terms: &[Term], namespace: &str, labels: &Labels) -> bool {
    !terms.is_empty() && terms.iter().all(|t| t.matches(namespace, labels))
}

impl InterPodAffinity {
    /// `preFilterState.updateWithPod`.
    pub(super) fn update_with_pod(
        cx: &Cx,
        s: &mut FilterState,
        pod: &PodInfo,
        node: &NodeInfo,
        m: i64,
    ) {
        let index = &cx.cluster.topology();
        let shared = Arc::clone(&s.shared);
        for (t, _) in required(pod.pod.pod_anti_affinity()) {
            if existing_term_matches(t, &pod.namespace, cx.pod, &shared.namespace_labels) {
                let slot = s.existing_anti.slot(index, &t.topology_key);
                s.existing_anti.add_node(index, slot, node, m);
            }
        }
        if matches_all(&shared.affinity, &pod.namespace, pod.labels()) {
            for &slot in &shared.affinity_slots {
                s.affinity.add_node(index, slot, node, m);
            }
        }
        for (t, &slot) in shared.anti.iter().zip(&shared.anti_slots) {
            if t.matches(&pod.namespace, pod.labels()) {
                s.anti.add_node(index, slot, node, m);
            }
        }
    }
}

impl InterPodAffinity {
    pub(super) fn prepare_filter(&self, cx: &Cx) -> PreFilterOutput {
        let cluster = cx.cluster;
        let index = &cluster.topology();
        let pod = cx.pod;
        let has_affinity = required(pod.pod.pod_affinity()).next().is_some();
        let has_anti = required(pod.pod.pod_anti_affinity()).next().is_some();
        if !has_affinity
            && !has_anti
            && !index
                .terms
                .iter()
                .any(|t| t.kind == TermKind::RequiredAntiAffinity)
        {
            return PreFilterOutput::skip();
        }
        let namespace_labels = namespace_labels(cx);
        // Existing pods' required anti-affinity terms that match the incoming pod.
        let mut existing_anti = PairCounts::default();
        for t in &index.terms {
            if t.kind == TermKind::RequiredAntiAffinity
                && !t.counts.is_empty()
                && existing_term_matches(&t.term, &t.namespace, pod, &namespace_labels)
            {
                let slot = existing_anti.slot(index, &t.term.topology_key);
                existing_anti.add_counts(slot, &t.counts, 1);
            }
        }
        if existing_anti.nonzero == 0 && !has_affinity && !has_anti {
            return PreFilterOutput::skip();
        }
        let affinity_terms = resolve_all(required(pod.pod.pod_affinity()), pod, cluster);
        let anti_terms = resolve_all(required(pod.pod.pod_anti_affinity()), pod, cluster);
        let mut affinity = PairCounts::default();
        let mut anti = PairCounts::default();
        let affinity_slots: Vec<usize> = affinity_terms
            .iter()
            .map(|t| affinity.slot(index, &t.key))
            .collect();
        let anti_slots: Vec<usize> = anti_terms
            .iter()
            .map(|t| anti.slot(index, &t.key))
            .collect();
        // The incoming pod's terms against the existing pods: once per label group when every
        // key is in the index, else pod by pod.
        let affinity_ids: Option<Vec<usize>> =
            affinity_slots.iter().map(|&s| affinity.key_id(s)).collect();
        let anti_ids: Option<Vec<usize>> = anti_slots.iter().map(|&s| anti.key_id(s)).collect();
        match (affinity_ids, anti_ids) {
            (Some(affinity_ids), Some(anti_ids)) => {
                for g in &index.groups {
                    if matches_all(&affinity_terms, &g.namespace, &g.labels) {
                        for (&slot, &id) in affinity_slots.iter().zip(&affinity_ids) {
                            affinity.add_counts(slot, &g.counts[id], 1);
                        }
                    }
                    for ((t, &slot), &id) in anti_terms.iter().zip(&anti_slots).zip(&anti_ids) {
                        if t.matches(&g.namespace, &g.labels) {
                            anti.add_counts(slot, &g.counts[id], 1);
                        }
                    }
                }
            }
            _ => {
                for node in cluster.nodes() {
                    for &p in node.pods() {
                        let ep = &cluster.pods()[p];
                        if matches_all(&affinity_terms, &ep.namespace, ep.labels()) {
                            for &slot in &affinity_slots {
                                affinity.add_node(index, slot, node, 1);
                            }
                        }
                        for (t, &slot) in anti_terms.iter().zip(&anti_slots) {
                            if t.matches(&ep.namespace, ep.labels()) {
                                anti.add_node(index, slot, node, 1);
                            }
                        }
                    }
                }
            }
        }
        let self_match = matches_all(&affinity_terms, &pod.namespace, pod.labels());
        PreFilterOutput::with_state(FilterState {
            shared: Arc::new(FilterShared {
                affinity: affinity_terms,
                anti: anti_terms,
                affinity_slots,
                anti_slots,
                self_match,
                namespace_labels,
            }),
            existing_anti,
            affinity,
            anti,
        })
    }

    pub(super) fn count_added_pod(
        &self,
        cx: &Cx,
        st: &mut dyn PluginState,
        added: &PodInfo,
        node: &NodeInfo,
    ) {
        if let Some(s) = state_mut::<FilterState>(st) {
            Self::update_with_pod(cx, s, added, node, 1);
        }
    }

    pub(super) fn count_removed_pod(
        &self,
        cx: &Cx,
        st: &mut dyn PluginState,
        removed: &PodInfo,
        node: &NodeInfo,
    ) {
        if let Some(s) = state_mut::<FilterState>(st) {
            Self::update_with_pod(cx, s, removed, node, -1);
        }
    }

    pub(super) fn filter_node(
        &self,
        cx: &Cx,
        st: Option<&dyn PluginState>,
        node: &NodeInfo,
        reasons: &mut Vec<Reason>,
    ) -> Code {
        let Some(s) = state::<FilterState>(st) else {
            reasons.push(Reason::from(
                "reading \"PreFilterInterPodAffinity\" from cycleState: not found",
            ));
            return Code::Error;
        };
        let index = &cx.cluster.topology();
        let shared = &s.shared;
        // satisfyPodAffinity: every key present; some matching pod in each domain, or the
        // first pod of a group.
        let mut pods_exist = true;
        for &slot in &shared.affinity_slots {
            match s.affinity.positive(index, slot, node) {
                None => {
                    reasons.push(ERR_AFFINITY.into());
                    return Code::UnschedulableAndUnresolvable;
                }
                Some(false) => pods_exist = false,
                Some(true) => {}
            }
        }
        let first_of_group = s.affinity.nonzero == 0 && shared.self_match;
        if !pods_exist && !first_of_group {
            reasons.push(ERR_AFFINITY.into());
            return Code::UnschedulableAndUnresolvable;
        }
        // satisfyPodAntiAffinity.
        if s.anti.nonzero > 0
            && shared
                .anti_slots
                .iter()
                .any(|&slot| s.anti.positive(index, slot, node) == Some(true))
        {
            reasons.push(ERR_ANTI_AFFINITY.into());
            return Code::Unschedulable;
        }
        // satisfyExistingPodsAntiAffinity: any of the node's pairs.
        if s.existing_anti.nonzero > 0
            && (0..s.existing_anti.keys.len())
                .any(|slot| s.existing_anti.positive(index, slot, node) == Some(true))
        {
            reasons.push(ERR_EXISTING_ANTI_AFFINITY.into());
            return Code::Unschedulable;
        }
        Code::Success
    }
}
