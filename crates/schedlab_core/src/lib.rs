//! schedlab_core: a deterministic re-implementation of kube-scheduler, twice: v1.17 (the legacy
//! `Policy`: predicates and priorities) and v1.35 (the scheduling framework: profiles and
//! plugins), with the scheduling queue, preemption and binding on a virtual clock.
//!
//! Data flows one way: input files ([`input`]) → model ([`model`]) → a [`Scenario`] (the
//! cluster cache, the pending pods, the [`scheduler::Scheduler`] its configuration builds) →
//! the `scheduleOne` loop ([`simulation`]: the queue, each version's cycle, assume, bind) →
//! the cycles' records ([`trace`]) → renderers ([`report`], the CLI, the page). The
//! [`questions`] compare whole runs.
//!
//! The floors, bottom up: `model`, `cluster` (the cache), `queue`, `sched` (what both versions
//! share), `trace`; then `v117` and `v135`, which never import each other; `translate`, the
//! one module that sees both; `input`; `scheduler`; `scenario`; `simulation`.
//!
//! This crate does no I/O, reads no clock and uses no global state or OS randomness: the same
//! inputs and seed give the same run, natively and in WebAssembly.

#![warn(clippy::iter_over_hash_type)]

pub mod cluster;
pub mod input;
pub mod model;
pub mod parallel;
pub mod questions;
pub mod queue;
pub mod report;
pub mod rng;
pub mod scenario;
pub mod sched;
pub mod scheduler;
pub mod simulation;
pub mod trace;
pub mod translate;
pub mod v117;
pub mod v135;
pub mod workloads;

#[cfg(test)]
mod testing;

pub use input::{Diagnostic, Source};
pub use scenario::Scenario;
pub use simulation::Run;

// The page still names these here (until its imports follow the moves).
#[doc(hidden)]
pub use questions as analysis;
#[doc(hidden)]
pub use v117::{policy, predicates, priorities};
#[doc(hidden)]
pub use v135 as modern;
#[doc(hidden)]
pub mod framework {
    pub use crate::v117::preemption;
}
