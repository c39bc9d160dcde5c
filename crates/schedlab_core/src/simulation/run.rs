//! What a run produced, up to where it stopped ([`Run`]): the cycles, the Kubernetes events
//! ([`Event`]), the steps, every pod's end state ([`Phase`]); and [`Scenario::run`], which
//! runs a scenario to its end.

use super::{Limits, PodPhase, PodState, Repeat, Simulation, Step, StopReason};
use crate::cluster::{Cluster, NodeId, PodId};
use crate::model::timeline::Timeline;
use crate::model::Millis;
use crate::scenario::Scenario;
use crate::scheduler::SchedulerVersion;
use crate::trace::{CycleTrace, Outcome};

/// What a run reports about a pod at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// On a node.
    Bound,
    /// Not on a node (or assumed, its binding not complete).
    Pending,
    /// Deleted (by the timeline, with its node, or as a preemption victim).
    Deleted,
}

impl Phase {
    /// The report spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Bound => "Bound",
            Phase::Pending => "Pending",
            Phase::Deleted => "Deleted",
        }
    }
}

/// A Kubernetes event, as `kubectl get events` shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// `Normal` or `Warning`.
    pub kind: &'static str,
    /// `Scheduled`, `FailedScheduling`.
    pub reason: &'static str,
    /// `namespace/name` of the pod.
    pub object: String,
    /// The message.
    pub message: String,
    /// The cycle that produced it.
    pub cycle: usize,
    /// Virtual time.
    pub time: Millis,
    /// The step that emitted it.
    pub step: usize,
}

impl Scenario {
    /// Runs the whole simulation until nothing can happen any more.
    pub fn run(&self, seed: u64, detail: bool) -> Run {
        self.run_with(seed, detail, Limits::default())
    }

    /// Runs the simulation within `limits` (`--until`, `--max-cycles`), and within the
    /// default bounds where they set none ([`Limits::or_defaults`]); a run that stops at a
    /// default bound says so in [`Run::warning`].
    pub fn run_with(&self, seed: u64, detail: bool, limits: Limits) -> Run {
        let mut sim = Simulation::new(self, seed, detail);
        // Read once at the end: no going back, so no checkpoints.
        sim.set_keep_history(false);
        sim.set_compact_repeats(true);
        let stop = sim.run(limits.or_defaults());
        let mut run = sim.to_run(stop);
        run.warning = limits.default_bound_warning(stop);
        run
    }
}

/// The result of a run, up to where it stopped.
#[derive(Clone)]
pub struct Run {
    /// The cluster cache at the end (assumed pods count on their nodes).
    pub cluster: Cluster,
    /// Every cycle, in order (but for the copies that `repeats` counts).
    pub cycles: Vec<CycleTrace>,
    /// Events, in order.
    pub events: Vec<Event>,
    /// Blocks of `steps` (with their cycles and events) that ran again right after
    /// themselves, identically but for the clock (or, [`Repeat::similar`], but for what the
    /// seeded tie-break decided), counted rather than listed (see [`Repeat`]); empty for most
    /// runs.
    pub repeats: Vec<Repeat>,
    /// Filter names, by profile index.
    pub filter_names: Vec<String>,
    /// Score names, by profile index.
    pub score_names: Vec<String>,
    /// The scheduler that ran.
    pub scheduler: SchedulerVersion,
    /// Every pod's state at the end, by pod id.
    pub pod_states: Vec<PodState>,
    /// Every step, in order (but for the copies that `repeats` counts).
    pub steps: Vec<Step>,
    /// The scenario's timeline.
    pub timeline: Timeline,
    /// The virtual time of the last step.
    pub end_time: Millis,
    /// Why the run stopped.
    pub stop: StopReason,
    /// Set when the run stopped at a default bound ([`Limits::or_defaults`]), saying which.
    pub warning: Option<String>,
}

impl Run {
    /// The number (from 1) that kept cycle `i` had in the run: the copies that
    /// [`Run::repeats`] counts before it take theirs.
    pub fn cycle_number(&self, i: usize) -> usize {
        i + 1
            + self
                .repeats
                .iter()
                .filter(|r| r.cycles.end <= i)
                .map(|r| r.cycles_run())
                .sum::<usize>()
    }

    /// Cycles run in all, the copies that [`Run::repeats`] counts included.
    pub fn total_cycles(&self) -> usize {
        self.cycles.len() + self.repeats.iter().map(|r| r.cycles_run()).sum::<usize>()
    }

    /// Cycles the repeats count rather than list (`folded` in the reports).
    pub fn folded_cycles(&self) -> usize {
        self.repeats.iter().map(|r| r.cycles_run()).sum()
    }

    /// A pod's final phase (an assumed pod is still `Pending`).
    pub fn phase(&self, pod: PodId) -> Phase {
        match self.pod_states.get(pod).map(|s| &s.phase) {
            Some(PodPhase::Bound) => Phase::Bound,
            Some(PodPhase::Deleted) => Phase::Deleted,
            _ => Phase::Pending,
        }
    }

    /// The node a pod is bound to.
    pub fn node_of(&self, pod: PodId) -> Option<NodeId> {
        match self.phase(pod) {
            Phase::Bound => self.cluster.pod_node()[pod],
            _ => None,
        }
    }

    /// Finds a pod by `namespace/name` (or `name` in `default`).
    pub fn find_pod(&self, name: &str) -> Option<PodId> {
        let full = if name.contains('/') {
            name.to_string()
        } else {
            format!("default/{name}")
        };
        self.cluster.pods().iter().position(|p| p.full_name == full)
    }

    /// How many cycles ended with a node chosen.
    pub fn scheduled_count(&self) -> usize {
        self.cycles
            .iter()
            .filter(|c| c.outcome == Outcome::Scheduled)
            .count()
    }

    /// Nodes evaluated by the filters, summed over every cycle.
    pub fn evaluated_nodes(&self) -> usize {
        self.cycles.iter().map(|c| c.evaluated).sum()
    }

    /// The last cycle of a pod.
    pub fn last_cycle_of(&self, pod: PodId) -> Option<&CycleTrace> {
        self.cycles.iter().rev().find(|c| c.pod == pod)
    }
}
