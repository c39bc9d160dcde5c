//! Preemption's choice among candidate nodes, the same in v1.17 and v1.35
//! (`queue-preemption.md` C.5, `modern.md` §6): each candidate with its minimal victims
//! ([`Candidate`]), and `pickOneNodeForPreemption` ([`pick_one_node_for_preemption`]) with the
//! criterion that decided ([`Criterion`]), deterministic where upstream walks a map.
//! Which nodes are candidates, and their victims, each version finds itself.

use crate::cluster::{Cluster, NodeId, PodId};
use crate::model::Millis;
use smallvec::SmallVec;

/// When a pod started, for `MoreImportantPod` and the start-time criterion. Start times given
/// in the input (`status.startTime`) all lie before the simulation's t = 0 and keep their order;
/// pods the simulation binds start at a virtual time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum StartTime {
    /// An input `status.startTime`: seconds and nanoseconds since the Unix epoch.
    Input(i64, u32),
    /// A virtual time of the simulation.
    Virtual(Millis),
}

impl StartTime {
    /// A number in the same order as the start times (an input start before any virtual
    /// one; then seconds and nanoseconds, or milliseconds), cheap to compare.
    pub fn order_key(self) -> u128 {
        match self {
            StartTime::Input(secs, nanos) => {
                (u128::from((secs as u64) ^ (1 << 63)) << 32) | u128::from(nanos)
            }
            StartTime::Virtual(Millis(ms)) => (1 << 96) | u128::from(ms),
        }
    }
}

/// A candidate's victims: a few pods, kept inline.
pub(crate) type Victims = SmallVec<[PodId; 4]>;

/// One node where preemption would make room, with its minimal victims.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The node.
    pub node: NodeId,
    /// The victims: those that would violate a PodDisruptionBudget first, then the others,
    /// each group most important first.
    pub victims: Victims,
    /// How many victims violate a PodDisruptionBudget.
    pub pdb_violations: usize,
}

/// The criterion of `pickOneNodeForPreemption` that chose the node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Criterion {
    /// The only candidate.
    OnlyCandidate,
    /// 1. A node that needs no victims.
    NoVictims,
    /// 2. The fewest PodDisruptionBudget violations.
    FewestPdbViolations,
    /// 3. The lowest priority of the highest-priority victim.
    LowestHighestPriorityVictim,
    /// 4. The lowest sum of victim priorities.
    LowestPrioritySum,
    /// 5. The fewest victims.
    FewestVictims,
    /// 6. The latest start time of the highest-priority victims.
    LatestStartTime,
    /// 7. The first remaining node.
    First,
}

impl Criterion {
    /// The report spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Criterion::OnlyCandidate => "onlyCandidate",
            Criterion::NoVictims => "noVictims",
            Criterion::FewestPdbViolations => "fewestPDBViolations",
            Criterion::LowestHighestPriorityVictim => "lowestHighestPriorityVictim",
            Criterion::LowestPrioritySum => "lowestPrioritySum",
            Criterion::FewestVictims => "fewestVictims",
            Criterion::LatestStartTime => "latestStartTime",
            Criterion::First => "first",
        }
    }
}

/// The chosen candidate, the criterion that chose it, and the candidate it beat at that step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pick {
    /// Index into the candidates.
    pub chosen: usize,
    /// The deciding criterion.
    pub decided_by: Criterion,
    /// The best of the candidates the deciding criterion ruled out (for the explanation).
    pub runner_up: Option<usize>,
}

/// `pickOneNodeForPreemption` (C.5), deterministic: "first" is the first in candidate order.
pub(crate) fn pick_one_node_for_preemption(
    candidates: &[Candidate],
    cluster: &Cluster,
    start: &impl Fn(PodId) -> StartTime,
) -> Option<Pick> {
    if candidates.is_empty() {
        return None;
    }
    if let Some(i) = candidates.iter().position(|c| c.victims.is_empty()) {
        return Some(Pick {
            chosen: i,
            decided_by: Criterion::NoVictims,
            runner_up: None,
        });
    }
    if candidates.len() == 1 {
        return Some(Pick {
            chosen: 0,
            decided_by: Criterion::OnlyCandidate,
            runner_up: None,
        });
    }
    let priority = |p: PodId| i64::from(cluster.priority(p));
    // Criteria 2–5, each lower is better: PDB violations, the first victim's priority, the sum
    // of (priority + 2^31) over the victims, the number of victims.
    let criteria = [
        Criterion::FewestPdbViolations,
        Criterion::LowestHighestPriorityVictim,
        Criterion::LowestPrioritySum,
        Criterion::FewestVictims,
    ];
    let keys: Vec<[i64; 4]> = candidates
        .iter()
        .map(|c| {
            [
                c.pdb_violations as i64,
                priority(c.victims[0]),
                c.victims
                    .iter()
                    .map(|&p| priority(p) + i64::from(i32::MAX) + 1)
                    .sum(),
                c.victims.len() as i64,
            ]
        })
        .collect();
    // Applying criteria 2–5 one after another keeps the candidates equal to the
    // lexicographically smallest key on one more component each time. So each candidate's
    // standing is how many leading components it shares with that key: criterion k keeps those
    // sharing more than k, and rules out those sharing exactly k.
    let best = *keys.iter().min()?;
    let shared: Vec<usize> = keys
        .iter()
        .map(|key| key.iter().zip(&best).take_while(|(a, b)| a == b).count())
        .collect();
    let mut standing = [0usize; 5];
    for &l in &shared {
        standing[l] += 1;
    }
    let mut kept = candidates.len();
    for (k, criterion) in criteria.into_iter().enumerate() {
        kept -= standing[k];
        if kept == 1 {
            let chosen = shared.iter().position(|&l| l > k)?;
            let runner_up = (0..candidates.len())
                .filter(|&i| shared[i] == k)
                .min_by_key(|&i| (keys[i][k], i));
            return Some(Pick {
                chosen,
                decided_by: criterion,
                runner_up,
            });
        }
    }
    let set: Vec<usize> = (0..candidates.len()).filter(|&i| shared[i] == 4).collect();
    // 6: the latest of the earliest start times among each node's highest-priority victims
    // (computed once per remaining candidate).
    let earliest: Vec<Option<u128>> = set
        .iter()
        .map(|&i| {
            let c = &candidates[i];
            let top = priority(c.victims[0]);
            c.victims
                .iter()
                .filter(|&&p| priority(p) == top)
                .map(|&p| start(p).order_key())
                .min()
        })
        .collect();
    let mut at = 0;
    for k in 1..set.len() {
        if earliest[k] > earliest[at] {
            at = k;
        }
    }
    let (chosen, latest) = (set[at], earliest[at]);
    let strictly_latest = (0..set.len()).all(|k| k == at || earliest[k] < latest);
    let runner_up = (0..set.len())
        .filter(|&k| k != at)
        .max_by_key(|&k| (earliest[k], std::cmp::Reverse(set[k])))
        .map(|k| set[k]);
    Some(Pick {
        chosen,
        decided_by: if strictly_latest {
            Criterion::LatestStartTime
        } else {
            Criterion::First
        },
        runner_up,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::four_nodes_with_pods;

    fn cand(node: NodeId, victims: &[PodId], pdb: usize) -> Candidate {
        Candidate {
            node,
            victims: victims.into(),
            pdb_violations: pdb,
        }
    }

    fn at(c: &Cluster) -> impl Fn(PodId) -> StartTime + '_ {
        // v3 started latest (2 s), the others at 1 s.
        move |p| {
            StartTime::Virtual(Millis(if c.pods()[p].full_name == "default/v3" {
                2000
            } else {
                1000
            }))
        }
    }

    #[test]
    fn a_node_without_victims_wins_first_and_a_lone_candidate_needs_no_criterion() {
        let c = four_nodes_with_pods(&[(0, 1)]);
        let start = at(&c);
        let picks = pick_one_node_for_preemption(&[cand(0, &[0], 0), cand(1, &[], 0)], &c, &start)
            .expect("a pick");
        assert_eq!((picks.chosen, picks.decided_by), (1, Criterion::NoVictims));
        let lone = pick_one_node_for_preemption(&[cand(0, &[0], 3)], &c, &start).expect("pick");
        assert_eq!(lone.decided_by, Criterion::OnlyCandidate);
        assert_eq!(pick_one_node_for_preemption(&[], &c, &start), None);
    }

    #[test]
    fn each_criterion_decides_in_order() {
        // Pods: v0 (n0, 10), v1 (n1, 10), v2 (n1, 5), v3 (n2, 10), v4 (n3, 20).
        let c = four_nodes_with_pods(&[(0, 10), (1, 10), (1, 5), (2, 10), (3, 20)]);
        let start = at(&c);
        let pick = |cands: &[Candidate]| pick_one_node_for_preemption(cands, &c, &start).unwrap();
        // 2: fewer PDB violations beats everything after it.
        let p = pick(&[cand(0, &[0], 1), cand(3, &[4], 0)]);
        assert_eq!(
            (p.chosen, p.decided_by, p.runner_up),
            (1, Criterion::FewestPdbViolations, Some(0))
        );
        // 3: the first victim's priority, 10 against 20.
        let p = pick(&[cand(3, &[4], 0), cand(0, &[0], 0)]);
        assert_eq!(
            (p.chosen, p.decided_by),
            (1, Criterion::LowestHighestPriorityVictim)
        );
        // 4: sums (10 + 2^31) + (5 + 2^31) against 10 + 2^31: the single victim wins.
        let p = pick(&[cand(1, &[1, 2], 0), cand(0, &[0], 0)]);
        assert_eq!((p.chosen, p.decided_by), (1, Criterion::LowestPrioritySum));
        // 6: equal on 2–5 (one victim of 10 each); v3 started later than v0.
        let p = pick(&[cand(0, &[0], 0), cand(2, &[3], 0)]);
        assert_eq!(
            (p.chosen, p.decided_by, p.runner_up),
            (1, Criterion::LatestStartTime, Some(0))
        );
        // 7: equal on everything: the first.
        let p = pick(&[cand(1, &[1], 0), cand(0, &[0], 0)]);
        assert_eq!((p.chosen, p.decided_by), (0, Criterion::First));
    }

    #[test]
    fn fewest_victims_decides_when_the_sums_tie() {
        // A victim of priority i32::MIN adds 0 to the offset sum, so {v0} and {v0', v_min} tie
        // on 4 and 5 decides (the only way two counts can tie on the sum).
        let c = four_nodes_with_pods(&[(0, 7), (1, 7), (1, i32::MIN)]);
        let start = at(&c);
        let p = pick_one_node_for_preemption(&[cand(1, &[1, 2], 0), cand(0, &[0], 0)], &c, &start)
            .unwrap();
        assert_eq!((p.chosen, p.decided_by), (1, Criterion::FewestVictims));
    }

    #[test]
    fn start_time_order_keys_keep_the_order_of_start_times() {
        // Input times (before t = 0, in epoch seconds, negative ones included) come before
        // every virtual time; then seconds, nanoseconds, milliseconds.
        let times = [
            StartTime::Input(i64::MIN, 0),
            StartTime::Input(-1, 999_999_999),
            StartTime::Input(0, 0),
            StartTime::Input(0, 1),
            StartTime::Input(1_600_000_000, 5),
            StartTime::Input(i64::MAX, 999_999_999),
            StartTime::Virtual(Millis(0)),
            StartTime::Virtual(Millis(1)),
            StartTime::Virtual(Millis(u64::MAX)),
        ];
        assert!(times.is_sorted());
        for a in times {
            for b in times {
                assert_eq!(a.order_key().cmp(&b.order_key()), a.cmp(&b), "{a:?} {b:?}");
            }
        }
    }
}
