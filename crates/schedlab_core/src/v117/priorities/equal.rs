//! `EqualPriority`: every node scores 1 (unscaled).

use super::PrioritySpec;
use crate::cluster::NodeInfo;
use crate::v117::{CycleContext, CycleError, ScorePlugin, State};
/// `EqualPriority` in the legacy registry.
pub(crate) static SPEC: PrioritySpec = PrioritySpec {
    name: "EqualPriority",
    default_weight: 1,
    default_provider: false,
    build: || Box::new(EqualPriority),
};

/// The priority.
pub(crate) struct EqualPriority;

impl ScorePlugin for EqualPriority {
    fn normalizes(&self) -> bool {
        false
    }
    fn normalize_uniform(&self, raw: i64) -> Option<i64> {
        Some(raw) // no normalize: scores are kept
    }

    fn pre_score(&self, _: &CycleContext, _: &[&NodeInfo]) -> Result<State, CycleError> {
        Ok(State::uniform(1))
    }

    fn score(&self, _: &CycleContext, _: &State, _: &NodeInfo) -> Result<i64, CycleError> {
        Ok(1)
    }
}
