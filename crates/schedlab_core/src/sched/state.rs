//! What a scheduler carries from one cycle to the next, in both versions:
//! `nextStartNodeIndex`, the seeded tie-breaker of `selectHost`, and buffers kept for speed.

use super::fit_error::FailedNodes;
use super::nominations::NominatedCopies;
use crate::rng::Rng;

/// What carries over from one cycle to the next.
#[derive(Clone, Debug)]
pub(crate) struct SchedulerState {
    /// `nextStartNodeIndex`.
    pub next_start_node_index: usize,
    /// The seeded tie-breaker.
    pub rng: Rng,
    /// Score buffers reused from cycle to cycle (raw, normalised).
    pub scratch: (Vec<i64>, Vec<i64>),
    /// The nodes' copies with their nominated pods, reused while they stay true.
    pub nominated_copies: NominatedCopies,
    /// What the second part of a split scan ([`super::split_scan`]) keeps apart: its
    /// nominated copies and its failed nodes.
    pub second_part: Box<(NominatedCopies, FailedNodes)>,
}

impl SchedulerState {
    /// The state before the first cycle, with a seeded tie-breaker.
    pub(crate) fn new(seed: u64) -> SchedulerState {
        SchedulerState {
            next_start_node_index: 0,
            rng: Rng::new(seed),
            scratch: (Vec::new(), Vec::new()),
            nominated_copies: NominatedCopies::default(),
            second_part: Box::default(),
        }
    }
}
