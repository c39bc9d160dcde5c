//! PreScore, Score and NormalizeScore (upstream's `scoring.go`): the weights of preferred
//! terms (and, symmetrically, of existing pods' terms) summed per topology pair, then scaled to
//! 0..100.

use super::common::*;
use super::*;

// ---------------------------------------------------------------------------------------------
// PreScore / Score.

/// `preScoreState`: the summed weights per topology pair, by index key (value id → sum) and
/// by any other key (value → sum).
#[derive(Clone, Debug)]
pub(super) struct ScoreState {
    pub(super) dense: Vec<(usize, Vec<i64>)>,
    pub(super) sparse: Vec<(String, HashMap<String, i64>)>,
}

/// PreScore's state, or the error Score gives without it.
pub(super) fn score_state(st: Option<&dyn PluginState>) -> Result<&ScoreState, String> {
    state::<ScoreState>(st)
        .ok_or_else(|| "reading \"PreScoreInterPodAffinity\" from cycleState: not found".into())
}

impl ScoreState {
    /// The node's raw score: the sums at each of its pairs.
    pub(super) fn score(&self, cx: &Cx, node: &NodeInfo) -> i64 {
        let index = &cx.cluster.topology();
        let mut score = 0;
        for (id, sums) in &self.dense {
            if let Some(v) = index.node_value(*id, node.id()) {
                score += sums.get(v as usize).copied().unwrap_or(0);
            }
        }
        for (key, sums) in &self.sparse {
            if let Some(v) = node.labels().get(key) {
                score += sums.get(v).copied().unwrap_or(0);
            }
        }
        score
    }
}

impl From<PairCounts> for ScoreState {
    fn from(p: PairCounts) -> ScoreState {
        let mut s = ScoreState {
            dense: Vec::new(),
            sparse: Vec::new(),
        };
        for k in p.keys {
            match k.values {
                Values::Dense(id, vals) => s.dense.push((
                    id,
                    Arc::try_unwrap(vals).map_or_else(|a| a.counts.clone(), |d| d.counts),
                )),
                Values::Sparse(map) => s
                    .sparse
                    .push((k.key, Arc::try_unwrap(map).unwrap_or_else(|a| (*a).clone()))),
            }
        }
        s
    }
}

impl InterPodAffinity {
    pub(super) fn prepare_score(&self, cx: &Cx, _nodes: &[&NodeInfo]) -> PreScoreOutput {
        let cluster = cx.cluster;
        let index = &cluster.topology();
        let pod = cx.pod;
        let has_constraints = preferred(pod.pod.pod_affinity(), 1).next().is_some()
            || preferred(pod.pod.pod_anti_affinity(), -1).next().is_some();
        if self.ignore_existing_preferred && !has_constraints {
            return PreScoreOutput::skip();
        }
        let mut scores = PairCounts::default();
        let mut touched = false;
        if has_constraints {
            let terms = resolve_all(
                preferred(pod.pod.pod_affinity(), 1)
                    .chain(preferred(pod.pod.pod_anti_affinity(), -1)),
                pod,
                cluster,
            );
            let slots: Vec<usize> = terms.iter().map(|t| scores.slot(index, &t.key)).collect();
            let ids: Option<Vec<usize>> = slots.iter().map(|&s| scores.key_id(s)).collect();
            match ids {
                Some(ids) => {
                    for ((t, &slot), &id) in terms.iter().zip(&slots).zip(&ids) {
                        for g in &index.groups {
                            if t.matches(&g.namespace, &g.labels) && !g.counts[id].is_empty() {
                                scores.add_counts(slot, &g.counts[id], t.weight);
                                touched = true;
                            }
                        }
                    }
                }
                None => {
                    for node in cluster.nodes() {
                        if node.labels().is_empty() {
                            continue;
                        }
                        for &p in node.pods() {
                            let ep = &cluster.pods()[p];
                            for (t, &slot) in terms.iter().zip(&slots) {
                                if t.matches(&ep.namespace, ep.labels()) {
                                    touched |= scores.add_node(index, slot, node, t.weight);
                                }
                            }
                        }
                    }
                }
            }
        }
        // Existing pods' terms that the incoming pod matches (with its namespace's labels).
        let mut namespace_labels: Option<Labels> = None;
        for t in &index.terms {
            let weight = match t.kind {
                TermKind::RequiredAffinity if self.hard_weight > 0 => self.hard_weight,
                TermKind::PreferredAffinity => t.weight,
                TermKind::PreferredAntiAffinity => -t.weight,
                _ => continue,
            };
            if t.counts.is_empty() {
                continue;
            }
            let ns_labels = namespace_labels.get_or_insert_with(|| self::namespace_labels(cx));
            if !existing_term_matches(&t.term, &t.namespace, pod, ns_labels) {
                continue;
            }
            let slot = scores.slot(index, &t.term.topology_key);
            scores.add_counts(slot, &t.counts, weight);
            touched = true;
        }
        if !touched {
            return PreScoreOutput::skip();
        }
        PreScoreOutput::with_state(ScoreState::from(scores))
    }

    pub(super) fn score_all(
        &self,
        cx: &Cx,
        st: Option<&dyn PluginState>,
        nodes: &[&NodeInfo],
        out: &mut [i64],
    ) -> Result<(), String> {
        let s = score_state(st)?;
        for (slot, node) in out.iter_mut().zip(nodes) {
            *slot = s.score(cx, node);
        }
        Ok(())
    }

    pub(super) fn score_node(
        &self,
        cx: &Cx,
        st: Option<&dyn PluginState>,
        node: &NodeInfo,
    ) -> Result<i64, String> {
        Ok(score_state(st)?.score(cx, node))
    }

    pub(super) fn normalize_scores(
        &self,
        _cx: &Cx,
        st: Option<&dyn PluginState>,
        _nodes: &[&NodeInfo],
        scores: &mut [i64],
    ) {
        if state::<ScoreState>(st).is_none() {
            return;
        }
        let min = scores.iter().copied().min().unwrap_or(i64::MAX);
        let max = scores.iter().copied().max().unwrap_or(i64::MIN);
        let diff = max.wrapping_sub(min);
        for s in scores.iter_mut() {
            let mut f = 0.0f64;
            if diff > 0 {
                f = MAX_NODE_SCORE as f64 * ((*s - min) as f64 / diff as f64);
            }
            *s = f as i64;
        }
    }
}
