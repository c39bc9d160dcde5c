//! PreScore, Score and NormalizeScore (upstream's `scoring.go`): the matching pods per domain
//! for each `ScheduleAnyway` constraint, weighted by the domains' number.

use super::common::*;
use super::*;

// ---------------------------------------------------------------------------------------------
// PreScore / Score.

/// `preScoreState`.
#[derive(Clone, Debug)]
pub(super) struct ScoreState {
    pub(super) constraints: Vec<Constraint>,
    pub(super) maps: Vec<DomainMap>,
    /// Per constraint, per domain slot: matching pods (`ABSENT`: not a domain). Empty for the
    /// hostname key, counted per node in Score.
    pub(super) counts: Vec<Vec<i64>>,
    /// `TopologyNormalizingWeight`.
    pub(super) weights: Vec<f64>,
    /// `IgnoredNodes`, by node id (empty when none is ignored).
    pub(super) ignored: Vec<bool>,
    /// Per constraint: the matching pods per node id, when PreScore visited every node for it.
    pub(super) node_counts: Vec<Option<Vec<i64>>>,
    /// Per hostname constraint: the constraint whose `node_counts` it reads (same selector).
    pub(super) per_node_from: Vec<Option<usize>>,
}

impl ScoreState {
    pub(super) fn ignored(&self, node: &NodeInfo) -> bool {
        self.ignored.get(node.id()).copied().unwrap_or(false)
    }
}

/// `topologyNormalizingWeight`.
pub(super) fn normalizing_weight(size: usize) -> f64 {
    ((size + 2) as f64).ln()
}

impl PodTopologySpread {
    pub(super) fn prepare_score(&self, cx: &Cx, nodes: &[&NodeInfo]) -> PreScoreOutput {
        let cluster = cx.cluster;
        if cluster.nodes().is_empty() {
            return PreScoreOutput::skip();
        }
        let constraints = self.constraints(cx, SCHEDULE_ANYWAY);
        if constraints.is_empty() {
            return PreScoreOutput::skip();
        }
        let index = &cluster.topology();
        // Nodes must carry every key unless the system defaults apply.
        let require_all =
            !cx.pod.pod.spec.topology_spread_constraints.is_empty() || !self.system_defaulted;
        let maps: Vec<DomainMap> = constraints
            .iter()
            .map(|c| DomainMap::build(cluster, &c.key, !require_all, c.key != HOSTNAME))
            .collect();
        let mut ignored = Vec::new();
        let mut ignored_count = 0usize;
        let mut counts: Vec<Vec<i64>> = constraints
            .iter()
            .zip(&maps)
            .map(|(c, m)| {
                if c.key == HOSTNAME {
                    Vec::new()
                } else {
                    vec![ABSENT; m.slots()]
                }
            })
            .collect();
        let mut sizes = vec![0usize; constraints.len()];
        for node in nodes {
            if require_all && !maps.iter().all(|m| m.has_key(index, node)) {
                if ignored.is_empty() {
                    ignored = vec![false; cluster.nodes().len()];
                }
                if let Some(slot) = ignored.get_mut(node.id()) {
                    if !*slot {
                        *slot = true;
                        ignored_count += 1;
                    }
                }
                continue;
            }
            for (i, m) in maps.iter().enumerate() {
                if counts[i].is_empty() {
                    continue;
                }
                if let Some(d) = m.of(index, node) {
                    if counts[i][d] == ABSENT {
                        counts[i][d] = 0;
                        sizes[i] += 1;
                    }
                }
            }
        }
        let weights = constraints
            .iter()
            .zip(&sizes)
            .map(|(c, &size)| {
                let size = if c.key == HOSTNAME {
                    nodes.len() - ignored_count
                } else {
                    size
                };
                normalizing_weight(size)
            })
            .collect();
        // A hostname constraint counts per node in Score; when a constraint with the same
        // selector visits every node's pods here anyway, Score reads its per-node numbers.
        let same_selector_as_hostname: Vec<bool> = constraints
            .iter()
            .map(|c| {
                c.key != HOSTNAME
                    && constraints
                        .iter()
                        .any(|h| h.key == HOSTNAME && h.selector == c.selector)
            })
            .collect();
        let mut node_counts = Vec::new();
        if counts.iter().any(|c| !c.is_empty()) {
            let terminating = self.terminating(cluster);
            node_counts = count_domains(
                cx,
                &constraints,
                &maps,
                require_all,
                false,
                &mut counts,
                &terminating,
                &same_selector_as_hostname,
            );
        }
        let per_node_from = constraints
            .iter()
            .map(|h| {
                (h.key == HOSTNAME)
                    .then(|| {
                        (0..constraints.len()).find(|&i| {
                            node_counts.get(i).is_some_and(Option::is_some)
                                && constraints[i].selector == h.selector
                        })
                    })
                    .flatten()
            })
            .collect();
        PreScoreOutput::with_state(ScoreState {
            constraints,
            maps,
            counts,
            weights,
            ignored,
            node_counts,
            per_node_from,
        })
    }

    pub(super) fn score_node(
        &self,
        cx: &Cx,
        st: Option<&dyn PluginState>,
        node: &NodeInfo,
    ) -> Result<i64, String> {
        let Some(s) = state::<ScoreState>(st) else {
            return Err("reading \"PreScorePodTopologySpread\" from cycleState: not found".into());
        };
        if s.ignored(node) {
            return Ok(0);
        }
        let index = &cx.cluster.topology();
        let mut score = 0.0f64;
        for (i, c) in s.constraints.iter().enumerate() {
            let map = &s.maps[i];
            if !map.has_key(index, node) {
                continue;
            }
            let cnt = if c.key == HOSTNAME {
                let kept = s.per_node_from[i]
                    .and_then(|j| s.node_counts[j].as_ref())
                    .and_then(|counts| counts.get(node.id()));
                match kept {
                    Some(&n) => n,
                    None => count_on_node(cx.cluster, c, &cx.pod.namespace, node),
                }
            } else {
                match map.of(index, node).and_then(|d| s.counts[i].get(d)) {
                    Some(&n) if n != ABSENT => n,
                    _ => 0,
                }
            };
            // scoreForCount
            score += cnt as f64 * s.weights[i] + (c.max_skew - 1) as f64;
        }
        Ok(score.round() as i64)
    }

    pub(super) fn normalize_scores(
        &self,
        _cx: &Cx,
        st: Option<&dyn PluginState>,
        nodes: &[&NodeInfo],
        scores: &mut [i64],
    ) {
        let Some(s) = state::<ScoreState>(st) else {
            return;
        };
        let mut min = i64::MAX;
        let mut max = 0i64;
        for (node, &score) in nodes.iter().zip(scores.iter()) {
            if s.ignored(node) {
                continue;
            }
            min = min.min(score);
            max = max.max(score);
        }
        for (node, score) in nodes.iter().zip(scores.iter_mut()) {
            if s.ignored(node) {
                *score = 0;
            } else if max == 0 {
                *score = MAX_NODE_SCORE;
            } else {
                let v = i128::from(MAX_NODE_SCORE)
                    * (i128::from(max) + i128::from(min) - i128::from(*score))
                    / i128::from(max);
                *score = v as i64;
            }
        }
    }
}
