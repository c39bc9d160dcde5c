//! kube-scheduler v1.17: the legacy `Policy` scheduler (`shared/reference/filters.md`,
//! `scores.md`, `queue-preemption.md`).
//!
//! - [`plugin`]: the extension points (predicates as [`plugin::FilterPlugin`], priorities as
//!   [`plugin::ScorePlugin`]) and the runnable [`plugin::Algorithm`] (what v1.17's `genericScheduler` runs: the predicates in order, the weighted priorities, the settings);
//! - [`policy`]: a legacy `Policy` and `KubeSchedulerConfiguration` v1alpha1 → an algorithm;
//! - [`predicates`] and [`priorities`]: one file each, with its registry entry;
//! - [`cycle`]: `genericScheduler.Schedule` (`findNodesThatFit`, `prioritizeNodes`,
//!   `selectHost`);
//! - [`preemption`]: `genericScheduler.Preempt` (which nodes, which victims).
//!
//! Architecture Invariant: nothing here imports `v135/`; what both versions share is in
//! `sched/`.

pub(crate) mod cycle;
pub(crate) mod plugin;
pub(crate) mod policy;
pub(crate) mod predicates;
pub(crate) mod preemption;
pub(crate) mod priorities;

pub(crate) use plugin::{
    Algorithm, AlgorithmSettings, ConfiguredFilter, ConfiguredScore, CycleContext, CycleError,
    FailureReason, FilterPlugin, FilterResult, Reason, ScorePlugin, State,
};

use policy::config::SchedulerConfiguration;
use policy::{PolicyDocument, PolicyError, Warnings};

/// kube-scheduler v1.17 as a scenario configures it: the algorithm its Policy (or its
/// provider's defaults) builds, and the v1alpha1 configuration around it.
pub struct Scheduler {
    /// The predicates and priorities that run.
    pub algorithm: Algorithm,
    /// The component configuration (scheduler name, backoff, preemption, sampling).
    pub config: SchedulerConfiguration,
}

impl Scheduler {
    /// Builds the algorithm of `policy` (`None`: the provider's defaults) under `config`, with
    /// the Policy's warnings as (path, message); or every error in it.
    pub fn new(
        policy: Option<&PolicyDocument>,
        config: SchedulerConfiguration,
    ) -> Result<(Scheduler, Warnings), Vec<PolicyError>> {
        let built = policy::build(policy, &config)?;
        Ok((
            Scheduler {
                algorithm: built.algorithm,
                config,
            },
            built.warnings,
        ))
    }
}
