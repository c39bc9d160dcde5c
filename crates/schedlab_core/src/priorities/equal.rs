//! `EqualPriority`: every node scores 1 (unscaled).

use crate::cluster::NodeInfo;
use crate::framework::{CycleContext, CycleError, ScorePlugin, State};

/// The priority.
pub struct EqualPriority;

impl ScorePlugin for EqualPriority {
    fn pre_score(&self, _: &CycleContext, _: &[&NodeInfo]) -> Result<State, CycleError> {
        Ok(State::uniform(1))
    }

    fn score(&self, _: &CycleContext, _: &State, _: &NodeInfo) -> Result<i64, CycleError> {
        Ok(1)
    }
}
