//! kube-scheduler v1.17: the legacy `Policy` scheduler (`shared/reference/filters.md`,
//! `scores.md`, `queue-preemption.md`).
//!
//! - [`plugin`]: the extension points (predicates as [`plugin::FilterPlugin`], priorities as
//!   [`plugin::ScorePlugin`]) and the runnable [`plugin::Profile`];
//! - [`policy`]: a legacy `Policy` and `KubeSchedulerConfiguration` v1alpha1 → a profile;
//! - [`predicates`] and [`priorities`]: one file each, with its registry entry;
//! - [`cycle`]: `genericScheduler.Schedule` (`findNodesThatFit`, `prioritizeNodes`,
//!   `selectHost`);
//! - [`preemption`]: `genericScheduler.Preempt` (which nodes, which victims).
//!
//! Architecture Invariant: nothing here imports `v135/`; what both versions share is in
//! `sched/`.

pub mod cycle;
pub mod plugin;
pub mod policy;
pub mod predicates;
pub mod preemption;
pub mod priorities;

pub use plugin::{
    ConfiguredFilter, ConfiguredScore, CycleContext, CycleError, FailureReason, FilterPlugin,
    FilterResult, Profile, ProfileSettings, Reason, ScorePlugin, State,
};
