//! `EqualPriority`: every node scores 1 (unscaled).

use crate::cluster::NodeInfo;
use crate::framework::{CycleContext, CycleError, ScorePlugin, State};

/// The priority.
pub struct EqualPriority;

impl ScorePlugin for EqualPriority {
    fn score(&self, _: &CycleContext, _: &State, _: &NodeInfo) -> Result<i64, CycleError> {
        Ok(1)
    }
}
