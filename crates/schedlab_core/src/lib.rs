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

pub mod input;
pub mod model;
pub mod questions;
pub mod report;
pub mod scenario;
pub mod scheduler;
pub mod simulation;
pub mod trace;

pub(crate) mod cluster;
pub(crate) mod parallel;
pub(crate) mod queue;
pub(crate) mod rng;
pub(crate) mod sched;
pub(crate) mod translate;
pub(crate) mod v117;
pub(crate) mod v135;
pub(crate) mod workloads;

#[cfg(test)]
mod testing;

pub use input::{Diagnostic, Source};
#[cfg(feature = "parallel")]
pub use parallel::with_threads;
pub use parallel::{map, threads};
pub use scenario::Scenario;
pub use simulation::Run;
pub use workloads::{
    add_mock_extender, add_score_plugin, build, build_for, scheduling_basic, single_pass,
    SinglePass, Workload,
};
