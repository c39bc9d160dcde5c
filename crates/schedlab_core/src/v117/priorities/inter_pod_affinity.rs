//! `InterPodAffinityPriority`: preferred pod affinity (+weight) and anti-affinity (−weight), both
//! the incoming pod's and, symmetrically, existing pods' (their preferred terms, and their
//! required affinity terms with `hardPodAffinitySymmetricWeight`).
//!
//! Contributions are added per topology domain of the existing pod's node, then each node sums
//! the domains it belongs to. Normalisation uses min and max that both start at 0:
//! `int64(100 * (count - min) / (max - min))`, all 0 when max = min.

use super::PrioritySpec;
use super::MAX_NODE_SCORE;
use crate::cluster::TermKind;
use crate::cluster::{NodeInfo, PodInfo};
use crate::model::pod::PodAffinityTerm;
use crate::v117::predicates::match_inter_pod_affinity::{term_matches, term_matches_labels};
use crate::v117::{CycleContext, CycleError, ScorePlugin, State};
use std::collections::HashMap;
/// `InterPodAffinityPriority` in the legacy registry.
pub(crate) static SPEC: PrioritySpec = PrioritySpec {
    name: "InterPodAffinityPriority",
    default_weight: 1,
    default_provider: true,
    build: || Box::new(InterPodAffinity),
};

/// The priority. Reads the cluster's [`crate::cluster::TopologyIndex`]; falls back to
/// [`Reference`] when a topology key of the pod is not in the index.
pub(crate) struct InterPodAffinity;

/// The same priority computed by scanning every bound pod each cycle (the tested reference).
pub(crate) struct Reference;

/// Fast path state: per key id, the summed score of each domain (dense by value id).
struct FastScores(Vec<(usize, Vec<i64>)>);

fn fast_pre_score(cx: &CycleContext) -> Option<State> {
    let index = &cx.cluster.topology();
    let pod = cx.pod;
    let mut out: Vec<(usize, Vec<i64>)> = Vec::new();
    let mut touched = false;
    let mut add = |key: usize, counts: &crate::cluster::DomainCounts, weight: i64| {
        let pos = match out.iter().position(|(k, _)| *k == key) {
            Some(p) => p,
            None => {
                out.push((key, vec![0; index.keys[key].values.len()]));
                out.len() - 1
            }
        };
        let scores = &mut out[pos].1;
        #[allow(
            clippy::iter_over_hash_type,
            reason = "sums per domain: the order is not seen"
        )]
        for (&v, &c) in counts {
            if c != 0 {
                scores[v as usize] += weight * c;
                touched = true;
            }
        }
    };
    let mut own: Vec<(&PodAffinityTerm, i64)> = Vec::new();
    if let Some(a) = pod.pod.pod_affinity() {
        for t in &a.preferred_during_scheduling_ignored_during_execution {
            own.push((&t.pod_affinity_term, i64::from(t.weight)));
        }
    }
    if let Some(a) = pod.pod.pod_anti_affinity() {
        for t in &a.preferred_during_scheduling_ignored_during_execution {
            own.push((&t.pod_affinity_term, -i64::from(t.weight)));
        }
    }
    let mut own_keys = Vec::with_capacity(own.len());
    for (t, _) in &own {
        own_keys.push(index.key_id(&t.topology_key)?);
    }
    for ((t, w), &key) in own.iter().zip(&own_keys) {
        if t.topology_key.is_empty() || *w == 0 {
            continue;
        }
        for g in &index.groups {
            if term_matches_labels(t, &pod.namespace, &g.namespace, &g.labels) {
                add(key, &g.counts[key], *w);
            }
        }
    }
    let hard = cx.settings.hard_pod_affinity_weight;
    for t in &index.terms {
        let w = match t.kind {
            TermKind::RequiredAffinity if hard > 0 => hard,
            TermKind::PreferredAffinity => t.weight,
            TermKind::PreferredAntiAffinity => -t.weight,
            _ => continue,
        };
        if t.term.topology_key.is_empty() || w == 0 || t.counts.is_empty() {
            continue;
        }
        if term_matches(&t.term, &t.namespace, pod) {
            add(t.key, &t.counts, w);
        }
    }
    if !touched {
        return Some(State::uniform(0));
    }
    Some(State::new(FastScores(out)))
}

/// topology key → value → score.
type TopologyScore = HashMap<String, HashMap<String, i64>>;

fn add(scores: &mut TopologyScore, term: &PodAffinityTerm, node: &NodeInfo, weight: i64) {
    if term.topology_key.is_empty() || weight == 0 {
        return;
    }
    if let Some(v) = node.labels().get(&term.topology_key) {
        *scores
            .entry(term.topology_key.clone())
            .or_default()
            .entry(v.clone())
            .or_default() += weight;
    }
}

fn contributions(cx: &CycleContext, ep: &PodInfo, ep_node: &NodeInfo, scores: &mut TopologyScore) {
    let pod = cx.pod;
    if let Some(a) = pod.pod.pod_affinity() {
        for t in &a.preferred_during_scheduling_ignored_during_execution {
            if term_matches(&t.pod_affinity_term, &pod.namespace, ep) {
                add(scores, &t.pod_affinity_term, ep_node, i64::from(t.weight));
            }
        }
    }
    if let Some(a) = pod.pod.pod_anti_affinity() {
        for t in &a.preferred_during_scheduling_ignored_during_execution {
            if term_matches(&t.pod_affinity_term, &pod.namespace, ep) {
                add(scores, &t.pod_affinity_term, ep_node, -i64::from(t.weight));
            }
        }
    }
    if let Some(a) = ep.pod.pod_affinity() {
        let hard = cx.settings.hard_pod_affinity_weight;
        if hard > 0 {
            for t in &a.required_during_scheduling_ignored_during_execution {
                if term_matches(t, &ep.namespace, pod) {
                    add(scores, t, ep_node, hard);
                }
            }
        }
        for t in &a.preferred_during_scheduling_ignored_during_execution {
            if term_matches(&t.pod_affinity_term, &ep.namespace, pod) {
                add(scores, &t.pod_affinity_term, ep_node, i64::from(t.weight));
            }
        }
    }
    if let Some(a) = ep.pod.pod_anti_affinity() {
        for t in &a.preferred_during_scheduling_ignored_during_execution {
            if term_matches(&t.pod_affinity_term, &ep.namespace, pod) {
                add(scores, &t.pod_affinity_term, ep_node, -i64::from(t.weight));
            }
        }
    }
}

impl ScorePlugin for InterPodAffinity {
    fn pre_score(&self, cx: &CycleContext, nodes: &[&NodeInfo]) -> Result<State, CycleError> {
        match fast_pre_score(cx) {
            Some(state) => Ok(state),
            None => Reference.pre_score(cx, nodes),
        }
    }

    fn score(&self, cx: &CycleContext, state: &State, node: &NodeInfo) -> Result<i64, CycleError> {
        let Some(FastScores(scores)) = state.get::<FastScores>() else {
            return Reference.score(cx, state, node);
        };
        let index = &cx.cluster.topology();
        Ok(scores
            .iter()
            .filter_map(|(k, values)| index.node_value(*k, node.id()).map(|v| values[v as usize]))
            .sum())
    }

    fn normalize(&self, cx: &CycleContext, state: &State, nodes: &[&NodeInfo], scores: &mut [i64]) {
        Reference.normalize(cx, state, nodes, scores);
    }

    fn normalize_uniform(&self, raw: i64) -> Option<i64> {
        Reference.normalize_uniform(raw)
    }
}

impl ScorePlugin for Reference {
    fn pre_score(&self, cx: &CycleContext, _: &[&NodeInfo]) -> Result<State, CycleError> {
        let cluster = cx.cluster;
        let mut scores = TopologyScore::new();
        if cx.pod.pod.has_pod_affinity() {
            for node in cluster.nodes() {
                for &p in node.pods() {
                    contributions(cx, &cluster.pods()[p], node, &mut scores);
                }
            }
        } else {
            for &p in cluster.pods_with_affinity() {
                if let Some(n) = cluster.pod_node()[p] {
                    contributions(cx, &cluster.pods()[p], &cluster.nodes()[n], &mut scores);
                }
            }
        }
        if scores.is_empty() {
            return Ok(State::uniform(0));
        }
        Ok(State::new(scores))
    }

    fn score(&self, _: &CycleContext, state: &State, node: &NodeInfo) -> Result<i64, CycleError> {
        let Some(scores) = state.get::<TopologyScore>() else {
            return Ok(0);
        };
        let labels = node.labels();
        Ok(scores
            .iter()
            .filter_map(|(k, values)| labels.get(k).and_then(|v| values.get(v)))
            .sum())
    }

    fn normalize_uniform(&self, _raw: i64) -> Option<i64> {
        // Equal scores differ by 0: each becomes 0.
        Some(0)
    }

    fn normalize(&self, _: &CycleContext, _: &State, _: &[&NodeInfo], scores: &mut [i64]) {
        let max = scores.iter().copied().fold(0, i64::max);
        let min = scores.iter().copied().fold(0, i64::min);
        let diff = max - min;
        if diff <= 0 {
            // Every score is the same: each becomes 0.
            scores.fill(0);
            return;
        }
        for s in scores.iter_mut() {
            *s = (MAX_NODE_SCORE as f64 * ((*s - min) as f64 / diff as f64)) as i64;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;
    use crate::v117::AlgorithmSettings;
    use serde_json::json;

    fn nodes() -> Vec<crate::model::Node> {
        vec![
            node(json!({"metadata": {"name": "a", "labels": {"zone": "a"}}})),
            node(json!({"metadata": {"name": "b", "labels": {"zone": "b"}}})),
            node(json!({"metadata": {"name": "c", "labels": {"zone": "c"}}})),
        ]
    }
    fn labelled(app: &str) -> crate::model::Pod {
        pod(json!({"metadata": {"labels": {"app": app}}}))
    }

    #[test]
    fn preferred_affinity_and_anti_affinity() {
        let c = cluster(nodes(), vec![(labelled("cache"), 0), (labelled("db"), 1)]);
        let p = pod(json!({"spec": {"affinity": {
            "podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 8,
                "podAffinityTerm": {"labelSelector": {"matchLabels": {"app": "cache"}}, "topologyKey": "zone"}}]},
            "podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 2,
                "podAffinityTerm": {"labelSelector": {"matchLabels": {"app": "db"}}, "topologyKey": "zone"}}]}}}}));
        let (raw, norm) = score_all(&InterPodAffinity, &c, p);
        assert_eq!(raw, [8, -2, 0]);
        // min -2, max 8: a 100*(10/10) = 100, b 0, c 100*(2/10) = 20
        assert_eq!(norm, [100, 0, 20]);
    }

    #[test]
    fn existing_required_affinity_attracts_with_the_symmetric_weight() {
        let existing = pod(
            json!({"metadata": {"labels": {"app": "web"}}, "spec": {"affinity": {"podAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": [
                {"labelSelector": {"matchLabels": {"app": "cache"}}, "topologyKey": "zone"}]}}}}),
        );
        let c = cluster(nodes(), vec![(existing, 1)]);
        let settings = AlgorithmSettings {
            hard_pod_affinity_weight: 5,
            ..AlgorithmSettings::default()
        };
        let (raw, norm) = score_all_with(&InterPodAffinity, &c, labelled("cache"), &settings);
        assert_eq!(raw, [0, 5, 0]);
        assert_eq!(norm, [0, 100, 0]);
        let off = AlgorithmSettings {
            hard_pod_affinity_weight: 0,
            ..AlgorithmSettings::default()
        };
        assert_eq!(
            score_all_with(&InterPodAffinity, &c, labelled("cache"), &off).0,
            [0, 0, 0]
        );
    }

    #[test]
    fn all_positive_counts_keep_zero_as_minimum() {
        let c = cluster(
            nodes(),
            vec![
                (labelled("cache"), 0),
                (labelled("cache"), 1),
                (labelled("cache"), 1),
            ],
        );
        let p = pod(
            json!({"spec": {"affinity": {"podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": 3, "podAffinityTerm": {"labelSelector": {"matchLabels": {"app": "cache"}}, "topologyKey": "zone"}}]}}}}),
        );
        let (raw, norm) = score_all(&InterPodAffinity, &c, p);
        assert_eq!(raw, [3, 6, 0]);
        assert_eq!(norm, [50, 100, 0]);
    }
}
