//! `NoVolumeZoneConflict`, `MaxCSIVolumeCountPred` and `CheckVolumeBinding` for pods without
//! claims: all three only look at PersistentVolumeClaims, so a pod that reaches them (claims
//! are turned away earlier, see `runner`) always fits, as upstream does for such pods.
//! The volume issue replaces this file with the real predicates.

use crate::cluster::NodeInfo;
use crate::framework::{CycleContext, FilterPlugin, FilterResult, State};

/// A claim-only volume predicate that passes pods without claims.
pub struct ClaimOnlyVolumePredicate;

impl FilterPlugin for ClaimOnlyVolumePredicate {
    fn pre_filter(&self, _: &CycleContext) -> Result<State, crate::framework::CycleError> {
        Ok(State::skip())
    }

    fn filter(&self, _: &CycleContext, _: &State, _: &NodeInfo) -> FilterResult {
        Ok(vec![])
    }
}
