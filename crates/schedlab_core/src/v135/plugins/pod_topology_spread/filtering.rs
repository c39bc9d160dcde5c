//! PreFilter (with AddPod/RemovePod) and Filter (upstream's `filtering.go`): the matching pods
//! per domain, and a node's skew against each `DoNotSchedule` constraint.

use super::common::*;
use super::*;

// ---------------------------------------------------------------------------------------------
// PreFilter / Filter.

/// What PreFilter found that AddPod/RemovePod never change.
#[derive(Debug)]
pub(super) struct FilterShared {
    pub(super) constraints: Vec<Constraint>,
    pub(super) maps: Vec<DomainMap>,
    /// Per constraint: the incoming pod matches its selector (`selfMatchNum`).
    pub(super) self_match: Vec<bool>,
}

/// `preFilterState`.
#[derive(Clone, Debug)]
pub(super) struct FilterState {
    pub(super) shared: Arc<FilterShared>,
    pub(super) per: Vec<DomainCounts>,
}

/// One constraint's `TpValueToMatchNum` and `CriticalPaths`.
#[derive(Clone, Debug)]
pub(super) struct DomainCounts {
    /// Domain slot → matching pods, `ABSENT` when not a domain. Copied on first write.
    pub(super) counts: Arc<Vec<i64>>,
    /// The number of domains (`len(TpValueToMatchNum[i])`).
    pub(super) domains: i64,
    /// `criticalPaths`: the two domains with the fewest matching pods, fewest first.
    pub(super) paths: [(u32, i64); 2],
}

impl DomainCounts {
    pub(super) fn new(counts: Vec<i64>) -> DomainCounts {
        let mut dc = DomainCounts {
            counts: Arc::new(Vec::new()),
            domains: 0,
            paths: [(NONE, i32::MAX.into()); 2],
        };
        for (d, &n) in counts.iter().enumerate() {
            if n != ABSENT {
                dc.domains += 1;
                dc.update_paths(d as u32, n);
            }
        }
        dc.counts = Arc::new(counts);
        dc
    }

    /// `criticalPaths.update`.
    pub(super) fn update_paths(&mut self, d: u32, num: i64) {
        let p = &mut self.paths;
        let i = if d == p[0].0 {
            Some(0)
        } else if d == p[1].0 {
            Some(1)
        } else {
            None
        };
        match i {
            Some(i) => {
                p[i].1 = num;
                if p[0].1 > p[1].1 {
                    p.swap(0, 1);
                }
            }
            None => {
                if num < p[0].1 {
                    p[1] = p[0];
                    p[0] = (d, num);
                } else if num < p[1].1 {
                    p[1] = (d, num);
                }
            }
        }
    }

    /// `TpValueToMatchNum[i][v] += delta` and the critical paths' update.
    pub(super) fn add(&mut self, d: usize, delta: i64) {
        let counts = Arc::make_mut(&mut self.counts);
        let Some(slot) = counts.get_mut(d) else {
            return;
        };
        if *slot == ABSENT {
            *slot = 0;
            self.domains += 1;
        }
        *slot += delta;
        let n = *slot;
        self.update_paths(d as u32, n);
    }

    /// `minMatchNum`.
    pub(super) fn min_match(&self, min_domains: i64) -> i64 {
        if self.domains < min_domains {
            0
        } else {
            self.paths[0].1
        }
    }
}

impl PodTopologySpread {
    /// `updateWithPod`.
    pub(super) fn update_with_pod(
        &self,
        cx: &Cx,
        s: &mut FilterState,
        pod: &PodInfo,
        node: &NodeInfo,
        delta: i64,
    ) {
        if pod.namespace != cx.pod.namespace {
            return;
        }
        let index = &cx.cluster.topology();
        let shared = Arc::clone(&s.shared);
        if !shared.maps.iter().all(|m| m.has_key(index, node)) {
            return;
        }
        let facts = PodFacts::new(cx.pod);
        for (i, c) in shared.constraints.iter().enumerate() {
            if !c.matches(pod.labels()) || !c.includes(&facts, node) {
                continue;
            }
            if let Some(d) = shared.maps[i].of(index, node) {
                s.per[i].add(d, delta);
            }
        }
    }
}

impl PodTopologySpread {
    pub(super) fn prepare_filter(&self, cx: &Cx) -> PreFilterOutput {
        let constraints = self.constraints(cx, DO_NOT_SCHEDULE);
        if constraints.is_empty() {
            return PreFilterOutput::skip();
        }
        let cluster = cx.cluster;
        let maps: Vec<DomainMap> = constraints
            .iter()
            .map(|c| DomainMap::build(cluster, &c.key, false, true))
            .collect();
        let mut counts: Vec<Vec<i64>> = maps.iter().map(|m| vec![ABSENT; m.slots()]).collect();
        let terminating = self.terminating(cluster);
        let no_per_node = vec![false; constraints.len()];
        count_domains(
            cx,
            &constraints,
            &maps,
            true,
            true,
            &mut counts,
            &terminating,
            &no_per_node,
        );
        let self_match = constraints
            .iter()
            .map(|c| c.matches(cx.pod.labels()))
            .collect();
        PreFilterOutput::with_state(FilterState {
            per: counts.into_iter().map(DomainCounts::new).collect(),
            shared: Arc::new(FilterShared {
                constraints,
                maps,
                self_match,
            }),
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
            self.update_with_pod(cx, s, added, node, 1);
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
            self.update_with_pod(cx, s, removed, node, -1);
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
                "reading \"PreFilterPodTopologySpread\" from cycleState: not found",
            ));
            return Code::Error;
        };
        let index = &cx.cluster.topology();
        let shared = &s.shared;
        for (i, c) in shared.constraints.iter().enumerate() {
            let Some(d) = shared.maps[i].of(index, node) else {
                reasons.push(ERR_NODE_LABEL_NOT_MATCH.into());
                return Code::UnschedulableAndUnresolvable;
            };
            let per = &s.per[i];
            let min = per.min_match(c.min_domains);
            let matched = match per.counts.get(d) {
                Some(&n) if n != ABSENT => n,
                _ => 0,
            };
            let skew = matched + i64::from(shared.self_match[i]) - min;
            if skew > c.max_skew {
                reasons.push(ERR_CONSTRAINTS_NOT_MATCH.into());
                return Code::Unschedulable;
            }
        }
        Code::Success
    }
}
