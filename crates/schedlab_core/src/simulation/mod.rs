//! The simulator: kube-scheduler v1.17's `scheduleOne` loop over the scheduling queue, the
//! cache (assume, bind, forget) and a timeline of cluster changes, on a virtual clock that jumps
//! from event to event. Every step can be undone.
//!
//! See `shared/reference/queue-preemption.md` sections A, B and D and the CLI contract, "How a
//! run proceeds".
//!
//! # Steps
//!
//! A run is a sequence of [`Step`]s, each at a virtual time. When several things are due at
//! the same instant they happen in this order (a stated choice; upstream runs them
//! concurrently):
//!
//! 1. timeline changes, in file order;
//! 2. bindings that complete ([`StepKind::Bound`] or [`StepKind::BindFailed`]);
//! 3. the backoff flush (1 s ticks), then the leftover flush (30 s ticks);
//! 4. one scheduling cycle ([`StepKind::Cycle`]) if activeQ is not empty.
//!
//! A cycle takes no virtual time. A chosen node is assumed at once; the binding completes
//! `bindLatency` later (default 0: still a separate step, before the next cycle). The run ends
//! when nothing can happen any more (the contract's definition, [`StopReason::Quiescent`]).
//!
//! # Modelled
//!
//! - The queue of [`crate::queue`] with the upstream moves: node add, node update
//!   (`nodeSchedulingPropertiesChange`), assigned pod add (only pods whose required pod
//!   affinity matches), assigned pod delete; pending pod add and delete.
//! - assume → bind → `Scheduled` event; a failed bind is forgotten (`ForgetPod`), requeued
//!   through `AddUnschedulableIfNotPresent` with the scheduling cycle read at the failure, and
//!   reported as `FailedScheduling` `Binding rejected: ...` with the PodScheduled reason
//!   `SchedulerError`. A failed cycle sets PodScheduled `False` / `Unschedulable`.
//! - `skipPodSchedule` for a pod with a deletion timestamp (`skip schedule deleting pod`).
//!
//! # Simplified (also in `docs/fidelity.md`)
//!
//! - The informer's `Add` of a bound pod arrives at the moment its binding completes, so an
//!   assumed pod never expires (the 30 s assumed-pod TTL never applies).
//! - `deleteNode` deletes the node's pods at the same instant (upstream the pod garbage
//!   collector does it later); a binding to a deleted node fails.
//! - Bindings fail only when the timeline says so (`failBinding`, `bindFailurePercent`).
//! - Volume bindings are made when the pod is assumed and kept if the binding fails.
//!
//! # Going back
//!
//! The state after step `k` is rebuilt from the nearest earlier checkpoint by replaying the
//! steps in between; runs are deterministic, so the replay is exact. Checkpoints are taken
//! every [`Simulation::checkpoint_interval`] steps; pods and nodes are shared between them
//! (`Arc`), so a checkpoint costs the per-node and per-queue bookkeeping only. The logs
//! (steps, cycles, events) are kept whole: stepping forward again after going back recomputes
//! the state and finds the log entries already there.

pub(crate) mod dra;
mod engine;
mod log;
mod preempt;
mod run;

use log::Log;
pub use log::Repeat;
pub use run::{Event, Phase, Run};

// The cache and the queue as a run shows them.
pub use crate::cluster::{Cluster, NodeId, NodeInfo, PodId, PodInfo};
pub use crate::queue::{QueuedPodView, SubQueue};

use crate::model::timeline::Timeline;
use crate::model::{FrontEnd, Millis, OptionName};
use crate::queue::{ClusterEvent, Moved, QueuedPodInfo, SchedulingQueue};
use crate::rng::Rng;
use crate::scenario::Scenario;
use crate::sched::nominations::Nominations;
use crate::sched::state::SchedulerState;
pub use crate::sched::victims::StartTime;
use crate::scheduler::Scheduler;
use crate::trace::CycleTrace;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Where a pod is in its life.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PodPhase {
    /// Not on a node (queued, or never queued because another scheduler owns it).
    Pending,
    /// Assumed on a node; its binding has not completed.
    Assumed(NodeId),
    /// Bound to a node.
    Bound,
    /// Deleted.
    Deleted,
}

/// The pod's `PodScheduled` condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PodScheduledCondition {
    /// `True` once bound.
    pub status: bool,
    /// `Unschedulable` or `SchedulerError` (empty when `True`).
    pub reason: &'static str,
    /// The error text (empty when `True`).
    pub message: String,
}

/// `PodState::tried_at_change` of a pod never tried.
const NEVER_TRIED: u64 = u64::MAX;

/// What the simulation knows about a pod beyond the cluster cache.
#[derive(Clone, Debug, PartialEq)]
pub struct PodState {
    /// The phase.
    pub phase: PodPhase,
    /// The PodScheduled condition, once the scheduler has said something (shared: every
    /// checkpoint copies this table, and bound pods all share one `True` condition).
    pub condition: Option<Arc<PodScheduledCondition>>,
    /// When it started: its input `status.startTime`, or when the simulation bound it; `None`
    /// for a bound input pod without one (it counts as the moment of evaluation).
    pub start_time: Option<StartTime>,
    /// `status.nominatedNodeName`, as the scheduler last wrote it.
    pub nominated: Option<String>,
    /// Being deleted (`metadata.deletionTimestamp` set): a preemption victim in its grace
    /// period, or an input pod that was already terminating.
    pub terminating: bool,
    /// The next binding of this pod fails (`failBinding`).
    pub fail_next_binding: bool,
    /// The change counter when the pod was last tried (`NEVER_TRIED` before), for the
    /// end-of-run rule.
    tried_at_change: u64,
}

impl PodState {
    fn new(phase: PodPhase) -> PodState {
        PodState {
            phase,
            condition: None,
            start_time: None,
            nominated: None,
            terminating: false,
            fail_next_binding: false,
            tried_at_change: NEVER_TRIED,
        }
    }
}

/// What a step did.
#[derive(Clone, Debug, PartialEq)]
pub enum StepKind {
    /// Timeline change `index` (into [`Timeline::changes`]) was applied.
    Change {
        /// Index into the timeline.
        index: usize,
    },
    /// A binding completed: the pod is bound (`Scheduled` event).
    Bound {
        /// The pod.
        pod: PodId,
        /// Its node.
        node: String,
    },
    /// A binding failed; the pod was forgotten and requeued.
    BindFailed {
        /// The pod.
        pod: PodId,
    },
    /// A preemption victim's grace period ended: it is deleted.
    Deleted {
        /// The pod.
        pod: PodId,
    },
    /// `flushBackoffQCompleted` moved these pods to activeQ.
    BackoffFlush {
        /// The pods, in expiry order.
        moved: Vec<PodId>,
    },
    /// `flushUnschedulableQLeftover` moved pods (see [`Step::moved`]).
    LeftoverFlush,
    /// Scheduling cycle `cycle` ran (index into [`Simulation::cycles`]).
    Cycle {
        /// Index of the cycle.
        cycle: usize,
    },
}

/// One step of the run.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// Virtual time.
    pub time: Millis,
    /// What happened.
    pub kind: StepKind,
    /// The queue move it requested, if any (`MoveAllToActiveOrBackoffQueue` & co.).
    pub move_event: Option<ClusterEvent>,
    /// Pods that left unschedulableQ because of it.
    pub moved: Vec<Moved>,
    /// A binding's call to a binder extender (with details on).
    pub extender: Option<Box<crate::trace::ExtenderCall>>,
}

/// Why a run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum StopReason {
    /// Nothing can happen any more.
    Quiescent,
    /// The next step lies after `--until`.
    Until,
    /// `--max-cycles` cycles ran.
    MaxCycles,
    /// The next step calls an extender whose reply the host has not made yet (the page's
    /// `fetch`): [`Simulation::take_awaited_calls`] says which; add the replies, then run on.
    AwaitingExtender,
}

impl StopReason {
    /// The report spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            StopReason::Quiescent => "Quiescent",
            StopReason::Until => "Until",
            StopReason::MaxCycles => "MaxCycles",
            StopReason::AwaitingExtender => "AwaitingExtender",
        }
    }
}

/// Bounds on a run (`--until`, `--max-cycles`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Apply no step later than this.
    pub until: Option<Millis>,
    /// Stop once this many cycles have run.
    pub max_cycles: Option<usize>,
}

impl Limits {
    /// The bound on virtual time when none is given: one day. Pods that never fit are retried
    /// every minute or so for as long as the run goes on, so without a bound a far-off
    /// timeline change, a huge grace period or a bind latency of a year would run millions
    /// of cycles.
    pub const DEFAULT_UNTIL: Millis = Millis(24 * 3600 * 1000);
    /// The bound on scheduling cycles when none is given (four times the biggest benchmark).
    pub const DEFAULT_MAX_CYCLES: usize = 200_000;

    /// These limits, with the default bounds where none is given.
    pub fn or_defaults(self) -> Limits {
        Limits {
            until: self.until.or(Some(Limits::DEFAULT_UNTIL)),
            max_cycles: self.max_cycles.or(Some(Limits::DEFAULT_MAX_CYCLES)),
        }
    }

    /// The warning for a run that stopped (`stop`) at a default bound: these limits, as
    /// asked, did not set it.
    pub fn default_bound_warning(self, stop: StopReason) -> Option<String> {
        self.default_bound_warning_for(stop, FrontEnd::Cli)
    }

    /// [`Limits::default_bound_warning`] naming the option as `front` spells it (`pass
    /// --until` on the command line, `pass the \`until\` option` for JavaScript).
    pub fn default_bound_warning_for(self, stop: StopReason, front: FrontEnd) -> Option<String> {
        match stop {
            StopReason::Until if self.until.is_none() => Some(format!(
                "the run stopped at schedlab's default bound of {}h of virtual time, with more still to happen (pods being retried, bindings or timeline changes later); pass {} to go further",
                Limits::DEFAULT_UNTIL.0 / 3_600_000,
                front.option(OptionName::Until)
            )),
            StopReason::MaxCycles if self.max_cycles.is_none() => Some(format!(
                "the run stopped at schedlab's default bound of {} scheduling cycles, with more still to happen; pass {} to go further",
                Limits::DEFAULT_MAX_CYCLES,
                front.option(OptionName::MaxCycles)
            )),
            _ => None,
        }
    }
}

/// A binding in flight.
#[derive(Clone, Debug)]
struct Binding {
    info: QueuedPodInfo,
    node: String,
    cycle: usize,
}

/// Everything that changes during a run; cloned into checkpoints.
#[derive(Clone)]
struct State {
    now: Millis,
    cluster: Cluster,
    order: Arc<[NodeId]>,
    node_names: Arc<[String]>,
    queue: SchedulingQueue,
    scheduler: SchedulerState,
    pods: Vec<PodState>,
    next_change: usize,
    /// (completion time, sequence) → binding.
    bindings: BTreeMap<(Millis, u64), Binding>,
    /// Bumped whenever the node set (and so node ids) changes.
    node_epoch: u64,
    /// Cached nominations by node id: ((nominations generation, node epoch), index).
    nominations: ((u64, u64), Arc<Nominations>),
    /// Buffers reused from cycle to cycle.
    buffers: engine::Buffers,
    /// (deletion time, sequence) → a preemption victim whose grace period ends then.
    deletions: BTreeMap<(Millis, u64), PodId>,
    binding_seq: u64,
    fault_rng: Rng,
    /// Counts changes to the cluster (timeline changes, bindings, deletions).
    changes: u64,
    cycles: usize,
    events: usize,
    /// Steps applied (the position).
    steps: usize,
}

/// What stays fixed during a run.
struct Setup {
    timeline: Timeline,
    /// The pods each change refers to or creates, with their names (resolved at load: the
    /// order of creation is fixed, so are the ids).
    change_pods: Vec<Vec<(PodId, String)>>,
    /// The scheduler that runs, as the scenario built it.
    scheduler: Arc<Scheduler>,
    /// Who answers its extenders.
    answers: Arc<crate::sched::extender::answers::Answers>,
    /// kubernetes#141781 (v1.35, extenders answering with `Nodes`) is reproduced.
    extender_nodeinfo_bug: bool,
    detail: bool,
    /// Whether any pod has a required pod-affinity term (else assigned pod adds move nothing).
    any_required_affinity: bool,
    /// The `PodScheduled: True` condition every bound pod shares.
    scheduled: Arc<PodScheduledCondition>,
}

/// The output of one step, before it is logged.
struct StepOutput {
    step: Step,
    cycle: Option<CycleTrace>,
    events: Vec<Event>,
}

/// The state at one position of a [`Simulation`], from [`Simulation::snapshot`].
#[derive(Clone)]
pub struct Snapshot {
    state: State,
}

impl Snapshot {
    /// The position it was taken at.
    pub fn position(&self) -> usize {
        self.state.steps
    }
}

/// A run in progress, steppable forwards and backwards.
pub struct Simulation {
    setup: Arc<Setup>,
    state: State,
    log: Log,
    position: usize,
    checkpoints: BTreeMap<usize, State>,
    checkpoint_interval: usize,
    /// How many of the most recent intervals keep every checkpoint before thinning starts.
    dense_intervals: usize,
    keep_history: bool,
    /// Filter names, by profile index.
    pub filter_names: Vec<String>,
    /// Score names, by profile index.
    pub score_names: Vec<String>,
}

impl Simulation {
    /// A simulation of `scenario` at t = 0, before any step. `detail` records the filter and
    /// score tables of every cycle (see also [`Simulation::cycle_detail`]).
    pub fn new(scenario: &Scenario, seed: u64, detail: bool) -> Simulation {
        let scheduler = Arc::clone(&scenario.scheduler);
        let cluster = scenario.cluster.clone();
        let pods: Vec<PodState> = (0..cluster.pods().len())
            .map(|p| engine::initial_pod_state(&cluster.pods()[p], cluster.pod_node()[p].is_some()))
            .collect();
        let mut queue = SchedulingQueue::new(scheduler.queue_config());
        for &p in &scenario.queue {
            let nominated = pods[p].nominated.as_deref();
            enqueue(&mut queue, &cluster, &scheduler, p, nominated, Millis::ZERO);
        }
        let any_required_affinity = cluster.pods().iter().any(|p| has_required_affinity(&p.pod))
            || scenario.timeline.changes.iter().any(|c| match &c.change {
                crate::model::timeline::Change::CreatePod(p) => has_required_affinity(p),
                crate::model::timeline::Change::CreatePods { template, .. } => {
                    has_required_affinity(template)
                }
                _ => false,
            });
        let size = cluster.pods().len() + cluster.nodes().len();
        let mut state = State {
            now: Millis::ZERO,
            order: Arc::from([]),
            node_names: Arc::from([]),
            cluster,
            queue,
            scheduler: SchedulerState::new(seed),
            pods,
            next_change: 0,
            bindings: BTreeMap::new(),
            deletions: BTreeMap::new(),
            node_epoch: 0,
            nominations: ((u64::MAX, 0), Arc::new(Nominations::new())),
            buffers: engine::Buffers::default(),
            binding_seq: 0,
            fault_rng: Rng::new(seed ^ 0x6269_6e64_6661_756c),
            changes: 0,
            cycles: 0,
            events: 0,
            steps: 0,
        };
        engine::refresh_nodes(&mut state);
        let setup = Setup {
            change_pods: scenario.timeline_pods.clone(),
            timeline: scenario.timeline.clone(),
            scheduler: Arc::clone(&scheduler),
            answers: Arc::clone(&scenario.extender_answers),
            extender_nodeinfo_bug: !scenario.extender_nodeinfo_fix,
            detail,
            any_required_affinity,
            scheduled: Arc::new(PodScheduledCondition {
                status: true,
                reason: "",
                message: String::new(),
            }),
        };
        let mut checkpoints = BTreeMap::new();
        checkpoints.insert(0, state.clone());
        Simulation {
            filter_names: scheduler.filter_names(),
            score_names: scheduler.score_names(),
            setup: Arc::new(setup),
            state,
            // Every queued pod gets at least one cycle: reserve for that.
            log: Log::new(false, scenario.queue.len()),
            position: 0,
            checkpoints,
            checkpoint_interval: (size / 8).clamp(256, 1 << 16),
            dense_intervals: 8,
            keep_history: true,
        }
    }

    // ---- stepping -----------------------------------------------------------------------

    /// The time of the next step, or `None` when the run is over.
    pub fn next_time(&self) -> Option<Millis> {
        engine::next(&self.state, &self.setup).map(|(t, _)| t)
    }

    /// Applies one step; returns its index, or `None` when nothing can happen any more (or
    /// the step awaits an extender's reply, see [`StopReason::AwaitingExtender`]).
    pub fn step(&mut self) -> Option<usize> {
        let next = engine::next(&self.state, &self.setup)?;
        self.apply(next)
    }

    /// The extender calls the run stopped at ([`StopReason::AwaitingExtender`]), taken: the
    /// host makes them and adds the replies to the scenario's answers, then runs on.
    pub fn take_awaited_calls(&self) -> Vec<crate::sched::extender::answers::PendingCall> {
        self.setup.answers.take_awaiting()
    }

    fn apply(&mut self, next: (Millis, engine::What)) -> Option<usize> {
        let record = self.position == self.log.total_steps();
        let detail = record && self.setup.detail;
        let awaiting_before = self.setup.answers.awaiting_count();
        let out = engine::apply(&mut self.state, &self.setup, next, detail);
        if self.setup.answers.awaiting_count() > awaiting_before {
            // The step asked an extender the host has not answered yet: it is undone, to be
            // applied again once the reply is there.
            self.rewind_to(self.position);
            return None;
        }
        if record {
            self.log.record(out.step, out.cycle, out.events);
        } else if self.repeats().is_empty() {
            debug_assert_eq!(
                self.log.steps[self.position], out.step,
                "a replayed step differs from the recorded one"
            );
        }
        self.position += 1;
        // Checkpoints are taken while recording new history (replays pass existing ones).
        if record && self.keep_history && self.position.is_multiple_of(self.checkpoint_interval) {
            self.checkpoint();
        }
        Some(self.position - 1)
    }

    /// The state after `at` steps, rebuilt from the nearest checkpoint (the state has moved
    /// past it without the step being kept).
    fn rewind_to(&mut self, at: usize) {
        let (&from, state) = self
            .checkpoints
            .range(..=at)
            .next_back()
            .expect("there is always a checkpoint at 0");
        self.state = state.clone();
        self.position = from;
        while self.position < at {
            if self.step().is_none() {
                break;
            }
        }
    }

    /// Keeps a checkpoint at the current position, then thins older ones: the 8 most recent
    /// intervals keep every checkpoint, older ones keep every 2nd, 4th, 8th, ... as they age,
    /// so going back a little is always cheap and memory grows only with the logarithm of the
    /// run's length.
    fn checkpoint(&mut self) {
        if self.checkpoints.contains_key(&self.position) {
            return;
        }
        self.checkpoints.insert(self.position, self.state.clone());
        let interval = self.checkpoint_interval;
        let dense = self.dense_intervals.max(1);
        let newest = self.position / interval;
        self.checkpoints.retain(|&at, _| {
            let k = at / interval;
            let age = newest.saturating_sub(k);
            // Keep multiples of 2^level, where level grows by one each time the age doubles
            // past 8 intervals.
            let level = (age / dense).checked_ilog2().map_or(0, |l| l + 1);
            at == 0 || k.is_multiple_of(1 << level.min(63))
        });
    }

    /// Steps until one scheduling cycle has run; returns its index (`None` if the run ended
    /// first).
    pub fn step_cycle(&mut self) -> Option<usize> {
        loop {
            let before = self.state.cycles;
            self.step()?;
            if self.state.cycles > before {
                return Some(before);
            }
        }
    }

    /// Applies every step due at or before `time`.
    pub fn run_until(&mut self, time: Millis) -> StopReason {
        self.run(Limits {
            until: Some(time),
            max_cycles: None,
        })
    }

    /// Runs until quiescent or a limit is reached.
    pub fn run(&mut self, limits: Limits) -> StopReason {
        if self
            .setup
            .scheduler
            .scans_every_node(self.state.cluster.nodes().len())
        {
            crate::parallel::with_helper(|| self.run_here(limits))
        } else {
            self.run_here(limits)
        }
    }

    fn run_here(&mut self, limits: Limits) -> StopReason {
        loop {
            if limits.max_cycles.is_some_and(|m| self.state.cycles >= m) {
                return StopReason::MaxCycles;
            }
            match engine::next(&self.state, &self.setup) {
                None => return StopReason::Quiescent,
                Some((t, _)) if limits.until.is_some_and(|u| t > u) => return StopReason::Until,
                Some(next) => {
                    if self.apply(next).is_none() {
                        return StopReason::AwaitingExtender;
                    }
                }
            }
        }
    }

    /// Goes to the state after `step` steps (0 = the start). Going forward past the known
    /// history computes new steps; going back replays from the nearest checkpoint.
    pub fn go_to_step(&mut self, step: usize) {
        if step < self.position {
            let (&at, state) = self
                .checkpoints
                .range(..=step)
                .next_back()
                .expect("there is always a checkpoint at 0");
            self.state = state.clone();
            self.position = at;
        }
        while self.position < step {
            if self.step().is_none() {
                break;
            }
        }
    }

    /// Steps back one step.
    pub fn step_back(&mut self) {
        if self.position > 0 {
            self.go_to_step(self.position - 1);
        }
    }

    /// A copy of the state at the current position, to come back to with
    /// [`Simulation::restore`] (an interactive view keeps the last few it stepped through, so
    /// stepping back costs no replay).
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            state: self.state.clone(),
        }
    }

    /// Goes back (or forward) to a snapshot of this simulation.
    pub fn restore(&mut self, snapshot: &Snapshot) {
        self.state = snapshot.state.clone();
        self.position = snapshot.state.steps;
    }

    /// The position of the checkpoint a replay to `step` would start from.
    pub fn checkpoint_before(&self, step: usize) -> usize {
        self.checkpoints
            .range(..=step)
            .next_back()
            .map_or(0, |(&at, _)| at)
    }

    /// Takes a checkpoint every `steps` steps (at least 1) from now on, and keeps every one of
    /// the last `dense` intervals before thinning older ones. The default suits long runs read
    /// at the end; an interactive view of a big cluster wants them closer, so that going back
    /// or explaining a past cycle replays only a few steps.
    pub fn set_checkpoint_spacing(&mut self, steps: usize, dense: usize) {
        self.checkpoint_interval = steps.max(1);
        self.dense_intervals = dense.max(1);
    }

    /// The next step's cycle recomputed with its filter and score tables, and the cluster it
    /// sees, when the next step is a cycle (on a copy: the position does not move). Cheaper
    /// than [`Simulation::cycle_detail`] for the cycle about to run: nothing is replayed.
    pub fn next_cycle_detail(&self) -> Option<(CycleTrace, Cluster)> {
        self.next_cycle_detail_and_after()
            .map(|(trace, before, _)| (trace, before))
    }

    /// [`Simulation::next_cycle_detail`], with the cluster cache just after the cycle (its
    /// `assume` done: the pod on its node, its claims allocated).
    pub fn next_cycle_detail_and_after(&self) -> Option<(CycleTrace, Cluster, Cluster)> {
        let next = engine::next(&self.state, &self.setup)?;
        if !matches!(next.1, engine::What::Cycle) {
            return None;
        }
        let mut state = self.state.clone();
        let before = state.cluster.clone();
        let out = engine::apply(&mut state, &self.setup, next, true);
        Some((out.cycle?, before, state.cluster))
    }

    /// Whether to take checkpoints (default on). Without them going back replays from the
    /// start: right for a run that is only read at the end (the CLI), where checkpoints would
    /// cost time and memory for nothing.
    pub fn set_keep_history(&mut self, keep: bool) {
        self.keep_history = keep;
    }

    /// Whether to fold repeated blocks of steps into [`Repeat`]s (default off); to be set
    /// before the first step. For runs read at the end: the logs ([`Self::steps`],
    /// [`Self::cycles`], [`Self::events`]) then hold the kept entries only, and a copy that
    /// was folded cannot be looked at by its index.
    pub fn set_compact_repeats(&mut self, compact: bool) {
        if self.log.total_steps() == 0 {
            self.log = Log::new(compact, self.log.cycles.capacity());
        }
    }

    /// Forgets the past: the logs and every checkpoint. The current state becomes the start
    /// (position 0) of a new history.
    pub fn clear_history(&mut self) {
        self.log = Log::default();
        self.checkpoints.clear();
        self.position = 0;
        self.checkpoints.insert(0, self.state.clone());
    }

    // ---- views --------------------------------------------------------------------------

    /// Steps applied so far (the current position in the history).
    pub fn position(&self) -> usize {
        self.position
    }

    /// The virtual clock.
    pub fn now(&self) -> Millis {
        self.state.now
    }

    /// Blocks of steps that ran again and again identically (with
    /// [`Self::set_compact_repeats`]; else empty).
    pub fn repeats(&self) -> &[Repeat] {
        &self.log.repeats
    }

    /// Every step known so far (may extend past [`Self::position`] after going back).
    pub fn steps(&self) -> &[Step] {
        &self.log.steps
    }

    /// Every cycle known so far.
    pub fn cycles(&self) -> &[CycleTrace] {
        &self.log.cycles
    }

    /// Every event known so far.
    pub fn events(&self) -> &[Event] {
        &self.log.events
    }

    /// Cycles run up to the current position.
    pub fn cycles_done(&self) -> usize {
        self.state.cycles
    }

    /// Events emitted up to the current position.
    pub fn events_done(&self) -> usize {
        self.state.events
    }

    /// The cluster cache at the current position (assumed pods count on their nodes).
    pub fn cluster(&self) -> &Cluster {
        &self.state.cluster
    }

    /// The timeline.
    pub fn timeline(&self) -> &Timeline {
        &self.setup.timeline
    }

    /// Every pod's state at the current position, by pod id.
    pub fn pod_states(&self) -> &[PodState] {
        &self.state.pods
    }

    /// The queue at the current position: activeQ in pop order, podBackoffQ by expiry, then
    /// unschedulableQ, each pod with its backoff expiry.
    pub fn queue_view(&self) -> Vec<QueuedPodView> {
        self.state.queue.view()
    }

    /// The scheduling queue itself, read-only.
    pub fn queue(&self) -> &SchedulingQueue {
        &self.state.queue
    }

    /// Steps between checkpoints (older ones are thinned out).
    pub fn checkpoint_interval(&self) -> usize {
        self.checkpoint_interval
    }

    /// How many checkpoints are kept.
    pub fn checkpoint_count(&self) -> usize {
        self.checkpoints.len()
    }

    /// Whether the run is over at the current position.
    pub fn is_finished(&self) -> bool {
        self.next_time().is_none()
    }

    /// The step that ran cycle `cycle`.
    pub fn step_of_cycle(&self, cycle: usize) -> Option<usize> {
        self.log
            .steps
            .iter()
            .position(|s| s.kind == StepKind::Cycle { cycle })
    }

    /// The state just before cycle `cycle` ran: its cluster cache and the scheduler state, on
    /// a copy (the simulation's own position does not move).
    fn state_before_cycle(&self, cycle: usize) -> Option<State> {
        self.state_before_step(self.step_of_cycle(cycle)?)
    }

    /// Step `step` of the history applied again with details (a binding's call to a binder
    /// extender, with its request and reply), on a copy: the position does not move.
    pub fn step_detail(&self, step: usize) -> Option<Step> {
        let mut state = self.state_before_step(step)?;
        let next = engine::next(&state, &self.setup)?;
        Some(engine::apply(&mut state, &self.setup, next, true).step)
    }

    /// The state just before step `step` of the history, on a copy.
    fn state_before_step(&self, step: usize) -> Option<State> {
        if step >= self.log.steps.len() {
            return None;
        }
        let (&at, state) = self.checkpoints.range(..=step).next_back()?;
        let mut state = state.clone();
        for i in at..step {
            let next = engine::next(&state, &self.setup)?;
            engine::apply(&mut state, &self.setup, next, false);
            debug_assert_eq!(state.now, self.log.steps[i].time);
        }
        Some(state)
    }

    /// The cluster cache as cycle `cycle` saw it (for explanations of past cycles).
    pub fn cluster_before_cycle(&self, cycle: usize) -> Option<Cluster> {
        self.state_before_cycle(cycle).map(|s| s.cluster)
    }

    /// Cycle `cycle` recomputed with its filter and score tables, whatever `detail` the run
    /// used: the UI keeps a light log and asks for the tables of the cycle on screen.
    pub fn cycle_detail(&self, cycle: usize) -> Option<CycleTrace> {
        let mut state = self.state_before_cycle(cycle)?;
        let next = engine::next(&state, &self.setup)?;
        let out = engine::apply(&mut state, &self.setup, next, true);
        out.cycle
    }

    /// [`Simulation::cycle_detail`] together with the cluster cache the cycle saw, from one
    /// replay (what an explanation of a past cycle needs).
    pub fn cycle_detail_and_cluster(&self, cycle: usize) -> Option<(CycleTrace, Cluster)> {
        self.cycle_detail_and_after(cycle)
            .map(|(trace, before, _)| (trace, before))
    }

    /// [`Simulation::cycle_detail_and_cluster`], with the cluster cache just after the cycle
    /// (its `assume` done: the pod on its node, its claims allocated).
    pub fn cycle_detail_and_after(&self, cycle: usize) -> Option<(CycleTrace, Cluster, Cluster)> {
        let mut state = self.state_before_cycle(cycle)?;
        let before = state.cluster.clone();
        let next = engine::next(&state, &self.setup)?;
        let out = engine::apply(&mut state, &self.setup, next, true);
        Some((out.cycle?, before, state.cluster))
    }

    /// A [`crate::simulation::Run`] of the history up to the current position, for the reports:
    /// repeated blocks are folded ([`Repeat`]) whether the log was compacted on the way or
    /// not, so every report of the same history is the same.
    pub fn to_run(&self, stop: StopReason) -> Run {
        // A compacting log is read at its end only; a whole one up to the position.
        // Either way the open repeat is ended as a step that does not continue it would.
        let log = if self.log.is_compact() {
            let mut log = self.log.clone();
            log.finish();
            log
        } else {
            Log::compacted(
                &self.log.steps[..self.position],
                &self.log.cycles[..self.state.cycles],
                &self.log.events[..self.state.events],
            )
        };
        Run {
            cluster: self.state.cluster.clone(),
            cycles: log.cycles,
            events: log.events,
            repeats: log.repeats,
            filter_names: self.filter_names.clone(),
            score_names: self.score_names.clone(),
            scheduler: self.setup.scheduler.version(),
            pod_states: self.state.pods.clone(),
            steps: log.steps,
            timeline: self.setup.timeline.clone(),
            end_time: self.state.now,
            stop,
            warning: None,
        }
    }
}

/// Adds a pending pod to the queue. Under v1.35 the PreEnqueue plugins of the pod's profile
/// run first: a pod one of them rejects (SchedulingGates: a pod with `schedulingGates`) is
/// parked as gated, under that plugin's name, and gets no cycle.
fn enqueue(
    queue: &mut SchedulingQueue,
    cluster: &Cluster,
    scheduler: &Scheduler,
    pod: PodId,
    nominated: Option<&str>,
    now: Millis,
) {
    let info = &cluster.pods()[pod];
    let gate = match scheduler {
        Scheduler::V117(_) => None,
        Scheduler::V135(c) => c
            .profile(info.pod.scheduler_name())
            .and_then(|p| p.pre_enqueue_rejection(info, cluster)),
    };
    match gate {
        Some(plugin) => queue.add_gated(pod, info.priority, plugin, now),
        None => queue.add(pod, info.priority, nominated, now),
    }
}

/// Whether a pod has a required pod-affinity term (the pods `AssignedPodAdded` may move).
fn has_required_affinity(pod: &crate::model::Pod) -> bool {
    pod.pod_affinity().is_some_and(|a| {
        !a.required_during_scheduling_ignored_during_execution
            .is_empty()
    })
}

#[cfg(test)]
mod tests;
