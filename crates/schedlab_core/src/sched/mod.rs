//! What both schedulers use, naming no version: why a node was rejected ([`reason`]), how many
//! feasible nodes a cycle looks for ([`sampling`]), the seeded `selectHost`
//! ([`select_host`]), nominated pods ([`nominations`]), a FitError's parts ([`fit_error`]),
//! preemption's choice among candidates ([`victims`]), the state carried between cycles
//! ([`state`]), the full scans split over two threads ([`split_scan`]) and scheduler
//! extenders ([`extender`]).
//!
//! Architecture Invariant: nothing here knows which version runs; `v117/` and `v135/` build
//! on it and never on each other.

pub(crate) mod extender;
pub(crate) mod fit_error;
pub(crate) mod nominations;
pub(crate) mod reason;
pub(crate) mod sampling;
pub(crate) mod select_host;
pub(crate) mod split_scan;
pub(crate) mod state;
pub(crate) mod victims;
pub(crate) mod volume_binder;

pub(crate) use reason::{FailureReason, Reason};

/// `framework.MaxNodeScore`: the highest score a Score plugin (priority) gives a node, the
/// same in v1.17 and v1.35.
pub(crate) const MAX_NODE_SCORE: i64 = 100;
