//! What both schedulers use, naming no version: why a node was rejected ([`reason`]), how many
//! feasible nodes a cycle looks for ([`sampling`]), the seeded `selectHost`
//! ([`select_host`]), nominated pods ([`nominations`]), a FitError's parts ([`fit_error`]),
//! preemption's choice among candidates ([`victims`]), the state carried between cycles
//! ([`state`]) and the full scans split over two threads ([`split_scan`]).
//!
//! Architecture Invariant: nothing here knows which version runs; `v117/` and `v135/` build
//! on it and never on each other.

pub mod fit_error;
pub mod nominations;
pub mod reason;
pub mod sampling;
pub mod select_host;
pub mod split_scan;
pub mod state;
pub mod victims;
pub mod volume_binder;

pub use reason::{FailureReason, Reason};

/// `framework.MaxNodeScore`: the highest score a Score plugin (priority) gives a node, the
/// same in v1.17 and v1.35.
pub const MAX_NODE_SCORE: i64 = 100;
