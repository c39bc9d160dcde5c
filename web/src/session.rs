//! One loaded scenario's simulation, and the plain views the page draws from it.
//!
//! A [`Session`] owns a [`Simulation`] (no signals, no DOM). It is run to its end once, so the
//! scrubber knows every step; the controls then move its position with
//! [`Session::go_to`], which replays from the nearest checkpoint. At every position the page
//! asks for a [`Frame`]: the cluster, the queue and the pods as they are at that moment. What
//! does not change with the position (pod names, the event log, the timeline's marks) is built
//! once, in [`SessionInfo`].

use crate::devices::{pod_claim_devices, ClaimDevices};
use schedlab_core::model::resources::format_amount;
use schedlab_core::model::selector::LabelSelector;
use schedlab_core::scenario::SchedulerVersion;
use schedlab_core::scheduler::extenders::{Exchange, PendingCall, Verb};
use schedlab_core::simulation::Run;
use schedlab_core::simulation::{Cluster, NodeId, PodId};
use schedlab_core::simulation::{
    Limits, PodPhase, PodState, Simulation, Snapshot, StepKind, StopReason,
};
use schedlab_core::trace::{CycleTrace, ExtenderCall};
use schedlab_core::{model::Millis, simulation::SubQueue};
use schedlab_core::{Diagnostic, Scenario};
use std::cell::RefCell;
use std::sync::Arc;

/// A run longer than this many cycles stops (the status says so); the CLI's `--max-cycles`
/// is the way to go further.
pub const MAX_CYCLES: usize = Limits::DEFAULT_MAX_CYCLES;

/// The page's bounds on a run: `schedlab run`'s default bounds (24 h of virtual time,
/// [`MAX_CYCLES`] cycles), so every run, cut short or not, is the one the CLI runs without
/// `--until` or `--max-cycles`.
pub const LIMITS: Limits = Limits {
    until: Some(Limits::DEFAULT_UNTIL),
    max_cycles: Some(MAX_CYCLES),
};

/// What does not change while stepping: names, the whole event log, the scrubber's marks.
#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SessionInfo {
    /// Every pod the run knows (input pods and pods the timeline creates), by pod id.
    pub pods: Vec<PodStatic>,
    /// Pod ids in input order (the placements table's order).
    pub input_order: Vec<PodId>,
    /// Every event of the whole run.
    pub events: Vec<EventRow>,
    /// The step that ran each cycle.
    pub cycle_steps: Vec<usize>,
    /// Each cycle's pod and whether it placed it.
    pub cycles: Vec<CycleFact>,
    /// Each pod's cycles, in order.
    pub pod_cycles: Vec<Vec<usize>>,
    /// The steps that applied a timeline change, with what it did (the scrubber's marks).
    pub marks: Vec<Mark>,
    /// Predicate names, in evaluation order.
    pub filter_names: Vec<String>,
    /// Priority names, in profile order.
    pub score_names: Vec<String>,
    /// Warnings from reading the inputs.
    pub warnings: Vec<Diagnostic>,
    /// Steps in the whole run.
    pub end: usize,
    /// Why the run ended.
    pub stop: StopReason,
    /// Nodes at the start.
    pub node_count: usize,
    /// The kube-scheduler that ran (`v1.17` or `v1.35`).
    pub scheduler: SchedulerVersion,
    /// The seed it ran with.
    pub seed: u64,
    /// Nodes evaluated over every cycle: the rows of a full report's filter tables (what
    /// makes it big).
    pub evaluated_nodes: usize,
    /// The scheduler's extenders, who answered them, the live calls made.
    #[serde(default)]
    pub extenders: crate::extender_data::ExtenderFacts,
    /// The plugins the Plugins editor's program registered (set by the engine's host).
    #[serde(default)]
    pub custom_plugins: Vec<crate::plugins::CustomPluginFact>,
}

impl SessionInfo {
    /// The last cycle run before `position`.
    pub fn last_cycle_at(&self, position: usize) -> Option<usize> {
        let steps = &self.cycle_steps;
        steps.partition_point(|&s| s < position).checked_sub(1)
    }

    /// The position just after cycle `cycle` ran.
    pub fn position_after_cycle(&self, cycle: usize) -> Option<usize> {
        self.cycle_steps.get(cycle).map(|s| s + 1)
    }

    /// The position after the next cycle from `position` (the end when no cycle is left).
    pub fn next_cycle_end(&self, position: usize) -> usize {
        let steps = &self.cycle_steps;
        let next = steps.partition_point(|&s| s < position);
        steps.get(next).map_or(self.end, |s| s + 1)
    }

    /// Where Step stood one cycle before `position`: just after the cycle before the last
    /// one that ran (the start when there is none), so that Back undoes Step.
    pub fn previous_cycle_end(&self, position: usize) -> usize {
        match self.last_cycle_at(position) {
            Some(c) if c > 0 => self.cycle_steps[c - 1] + 1,
            _ => 0,
        }
    }

    /// The cycle that the step at `position` runs, if that step is a cycle.
    pub fn cycle_at(&self, position: usize) -> Option<usize> {
        self.cycle_steps.binary_search(&position).ok()
    }

    /// The first position at or after `position` whose step is a cycle (what phase stepping
    /// walks through), with that cycle.
    pub fn next_cycle_from(&self, position: usize) -> Option<(usize, usize)> {
        let next = self.cycle_steps.partition_point(|&s| s < position);
        self.cycle_steps.get(next).map(|&at| (at, next))
    }
}

/// One cycle's outcome, in short.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CycleFact {
    /// The pod it tried to place.
    pub pod: PodId,
    /// It placed it.
    pub placed: bool,
}

/// A pod's fixed facts.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PodStatic {
    /// `namespace/name`.
    pub name: String,
    /// The name without `default/`.
    pub short: String,
    /// Resolved priority.
    pub priority: i32,
    /// What it requests, in short.
    pub requests: String,
}

/// One event, as `kubectl get events` lists it.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct EventRow {
    /// `Normal` or `Warning`.
    #[serde(deserialize_with = "crate::interned::static_str")]
    pub kind: crate::interned::StaticStr,
    /// `Scheduled`, `FailedScheduling`, `Preempted`, ...
    #[serde(deserialize_with = "crate::interned::static_str")]
    pub reason: crate::interned::StaticStr,
    /// `pod/name` (namespace dropped when `default`).
    pub object: String,
    /// The message.
    pub message: String,
    /// Virtual time.
    pub time: Millis,
    /// The step that emitted it.
    pub step: usize,
    /// The cycle that produced it.
    pub cycle: usize,
}

/// A timeline change on the scrubber.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Mark {
    /// The step that applied it.
    pub step: usize,
    /// Its time.
    pub time: Millis,
    /// `addNode node-9`, ...
    pub label: String,
}

/// The world at one position.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Frame {
    /// Steps applied.
    pub position: usize,
    /// Steps in the whole run.
    pub end: usize,
    /// The virtual clock.
    pub now: Millis,
    /// Cycles run so far.
    pub cycles_done: usize,
    /// The last cycle run so far.
    pub last_cycle: Option<usize>,
    /// What the next step will do, in words.
    pub next: Option<String>,
    /// The nodes, in cache order.
    pub nodes: Vec<NodeCard>,
    /// Each pod's status, by pod id.
    pub pods: Vec<PodStatus>,
    /// The scheduling queue.
    pub queue: QueueView,
    /// Events emitted so far.
    pub events_done: usize,
    /// The PodDisruptionBudgets, in input order, with the pods each covers at this position.
    pub pdbs: Vec<PdbView>,
}

/// A PodDisruptionBudget at one position.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PdbView {
    /// Its name (`namespace/name` outside `default`).
    pub name: String,
    /// Its selector as kubectl prints one (`app=postgres`); empty when it has none, and then
    /// it covers no pod.
    pub selector: String,
    /// `status.disruptionsAllowed`, as the input gives it (the disruption controller's
    /// number; the scheduler only reads it).
    pub disruptions_allowed: i64,
    /// The pods it covers at this position, by pod id: created, not deleted, in its namespace
    /// and matching its selector.
    pub pods: Vec<PodId>,
}

/// Requested against allocatable.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Usage {
    /// Requested (milli-CPU, bytes or pods).
    pub used: i64,
    /// Allocatable.
    pub total: i64,
}

impl Usage {
    /// Fraction used, 0 when nothing is allocatable.
    pub fn ratio(self) -> f64 {
        if self.total <= 0 {
            if self.used > 0 {
                1.0
            } else {
                0.0
            }
        } else {
            self.used as f64 / self.total as f64
        }
    }
}

/// One node as the cluster view draws it.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct NodeCard {
    /// Name.
    pub name: String,
    /// CPU (milli).
    pub cpu: Usage,
    /// Memory (bytes).
    pub memory: Usage,
    /// Pod count.
    pub pods: Usage,
    /// Labels, without the ones every node has (`kubernetes.io/hostname`, `.../os`, `.../arch`).
    pub labels: Vec<(String, String)>,
    /// `key=value:Effect`.
    pub taints: Vec<String>,
    /// Cordoned (`spec.unschedulable`).
    pub cordoned: bool,
    /// The pods on it or headed for it.
    pub chips: Vec<Chip>,
    /// The devices its ResourceSlices publish (Dynamic Resource Allocation), free or held.
    pub devices: Vec<crate::devices::DeviceChip>,
}

/// A pod on a node card.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Chip {
    /// The pod.
    pub pod: PodId,
    /// How it is there.
    pub kind: ChipKind,
    /// Covered by a PodDisruptionBudget.
    pub budgeted: bool,
}

/// How a pod is on a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ChipKind {
    /// Bound.
    Bound,
    /// Assumed: the binding is in flight.
    Assumed,
    /// A preemption victim in its grace period.
    Terminating,
    /// Nominated here by a preemption; not on the node yet.
    Nominated,
}

impl ChipKind {
    /// CSS class and word.
    pub fn as_str(self) -> &'static str {
        match self {
            ChipKind::Bound => "bound",
            ChipKind::Assumed => "assumed",
            ChipKind::Terminating => "terminating",
            ChipKind::Nominated => "nominated",
        }
    }
}

/// A pod's status at one position.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PodStatus {
    /// `Pending`, `Assumed`, `Bound`, `Terminating`, `Deleted`, or `Not created` for a pod the
    /// timeline has not created yet.
    #[serde(deserialize_with = "crate::interned::static_str")]
    pub phase: crate::interned::StaticStr,
    /// Its node (assumed or bound).
    pub node: Option<String>,
    /// `status.nominatedNodeName`.
    pub nominated: Option<String>,
    /// Its last cycle so far.
    pub last_cycle: Option<usize>,
}

/// The queue at one position.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct QueueView {
    /// activeQ, in pop order.
    pub active: Vec<QueueRow>,
    /// podBackoffQ, by expiry.
    pub backoff: Vec<QueueRow>,
    /// unschedulableQ.
    pub unschedulable: Vec<QueueRow>,
}

/// One queued pod.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct QueueRow {
    /// The pod.
    pub pod: PodId,
    /// Times popped so far.
    pub attempts: u32,
    /// For a pod in podBackoffQ: the virtual time until its backoff ends and it is retried.
    pub retry_in: Option<Millis>,
    /// Why it waits: its last `FailedScheduling` message.
    pub reason: Option<String>,
    /// Its nominated node.
    pub nominated: Option<String>,
}

/// Detailed cycles kept for the inspector (the most recent ones).
const DETAIL_CACHE: usize = 32;
/// States kept from the positions the user stepped from (stepping back restores one).
const TRAIL: usize = 16;

/// A cycle's detailed trace, the cluster it saw, and the pod's claims with their devices just
/// after it (allocated at `assume` when it scheduled the pod).
pub type CycleDetail = Arc<(CycleTrace, Cluster, Vec<ClaimDevices>)>;

/// A cycle's detail from the clusters before and after it.
fn detail((trace, before, after): (CycleTrace, Cluster, Cluster)) -> CycleDetail {
    let claims = pod_claim_devices(&after, trace.pod);
    Arc::new((trace, before, claims))
}

/// A scenario's simulation and its fixed facts.
pub struct Session {
    sim: Simulation,
    /// The scenario it runs, kept for the exports (a fresh run with every table).
    scenario: Scenario,
    /// The seed it runs with.
    seed: u64,
    /// What does not change with the position.
    pub info: Arc<SessionInfo>,
    /// Recently inspected cycles, most recent last.
    details: RefCell<Vec<(usize, CycleDetail)>>,
    /// Snapshots of the positions the user moved forward from, oldest first.
    trail: Vec<Snapshot>,
    /// Live extender calls that got no reply: (URL, what happened).
    live_failures: Vec<(String, String)>,
    /// The Plugins program's plugins.
    custom_plugins: Vec<crate::plugins::CustomPluginFact>,
}

impl Session {
    /// Starts a session at t = 0. [`Session::run_some`] takes it to its end. The session
    /// keeps `scenario` (for replays and exports), taken rather than copied.
    pub fn new(scenario: Scenario, seed: u64) -> Session {
        // An extender call that no mock and no recording answers pauses the run: the host
        // makes it with `fetch` ([`Session::take_awaited_calls`]).
        scenario.extender_answers.set_wait_for_host(true);
        let mut sim = Simulation::new(&scenario, seed, false);
        // Checkpoints close enough that going back or explaining a past cycle replays a few
        // milliseconds of work: a step costs about one pass over the nodes.
        let nodes = scenario.cluster.nodes().len().max(1);
        sim.set_checkpoint_spacing((8_000 / nodes).clamp(4, 256), 16);
        let info = Arc::new(SessionInfo {
            pods: Vec::new(),
            input_order: Vec::new(),
            events: Vec::new(),
            cycle_steps: Vec::new(),
            cycles: Vec::new(),
            pod_cycles: Vec::new(),
            marks: Vec::new(),
            filter_names: sim.filter_names.clone(),
            score_names: sim.score_names.clone(),
            warnings: scenario.warnings.clone(),
            end: 0,
            stop: StopReason::MaxCycles,
            node_count: scenario.cluster.nodes().len(),
            scheduler: scenario.version(),
            seed,
            evaluated_nodes: 0,
            extenders: Default::default(),
            custom_plugins: Vec::new(),
        });
        Session {
            sim,
            scenario,
            seed,
            info,
            custom_plugins: Vec::new(),
            details: RefCell::new(Vec::new()),
            trail: Vec::new(),
            live_failures: Vec::new(),
        }
    }

    /// The session with the facts of the Plugins program's plugins, shown once its run is read.
    pub fn with_custom_plugins(mut self, facts: Vec<crate::plugins::CustomPluginFact>) -> Session {
        self.custom_plugins = facts;
        self
    }

    /// The whole run again, from the start to the end, as `schedlab run --seed SEED` runs it
    /// (within [`LIMITS`]), whatever the position on screen. `detail` records every cycle's
    /// filter and score tables (the report's `filter`, `scores`, `totals`); the session's
    /// own run keeps a light log, so this is a second run of the same scenario and seed,
    /// which gives the same decisions.
    pub fn export_run(&self, detail: bool) -> Run {
        // No limits asked: the default bounds, with their warning, as `schedlab run`.
        self.scenario.run_with(self.seed, detail, Limits::default())
    }

    /// Exactly what `schedlab run --output json [--seed SEED] [--summary] FILE` prints for
    /// the scenario (the export of the editors that made this session):
    /// [`crate::export::report_json`] of a fresh run, with the CLI's default bounds (a run
    /// cut short by one says so in its `end.warning`).
    pub fn report_json(&self, summary: bool) -> String {
        crate::export::report_json(&self.export_run(!summary), !summary)
    }

    /// The placements as CSV ([`crate::export::placements_csv`]), from the same run as
    /// [`Session::report_json`] (without the tables: it does not need them).
    pub fn placements_csv(&self) -> String {
        crate::export::placements_csv(&self.export_run(false))
    }

    /// Runs up to `cycles` more cycles towards the end of the run. Returns true once the run
    /// is over (then [`Session::info`] is complete and the position is at the end).
    pub fn run_some(&mut self, cycles: usize) -> bool {
        let cap = (self.sim.cycles_done() + cycles).min(MAX_CYCLES);
        let stop = self.sim.run(Limits {
            until: LIMITS.until,
            max_cycles: Some(cap),
        });
        if stop == StopReason::AwaitingExtender {
            // Not over: the host makes the calls, then runs on.
            return false;
        }
        // Over unless only this slice's cap stopped it.
        let over = stop != StopReason::MaxCycles || cap >= MAX_CYCLES;
        if over {
            self.finish(stop);
        }
        over
    }

    /// The extender calls the run paused at (taken: empty when it did not pause). The host
    /// makes them, adds the replies ([`Session::add_exchange`]) and runs on.
    pub fn take_awaited_calls(&self) -> Vec<PendingCall> {
        self.sim.take_awaited_calls()
    }

    /// Adds the exchange of a call the host made; a call that got no reply is remembered
    /// for the page's notice.
    pub fn add_exchange(&mut self, call: &PendingCall, exchange: Exchange, elapsed_ms: u64) {
        match &exchange {
            Exchange::TimedOut => self
                .live_failures
                .push((call.url.clone(), "no reply within httpTimeout".to_string())),
            Exchange::Failed(e) => self.live_failures.push((call.url.clone(), e.clone())),
            Exchange::Reply { .. } => {}
        }
        self.scenario
            .extender_answers
            .add_exchange(&call.url, &call.body, exchange, elapsed_ms);
    }

    /// The exchanges made with live servers so far.
    pub fn live_calls(&self) -> usize {
        let recording = self.scenario.extender_answers.recording();
        recording.calls().iter().filter(|c| !c.recorded).count()
    }

    /// Every extender exchange of the run (the scenario's recording, then the live calls) as
    /// a `kind: ExtenderRecording` document in YAML; `None` when there is none.
    pub fn recording_yaml(&self) -> Option<String> {
        let recording = self.scenario.extender_answers.recording();
        if recording.is_empty() {
            return None;
        }
        serde_yaml_ng::to_string(&recording.to_object("recorded-in-the-playground")).ok()
    }

    /// The call a binder extender got when the pod of cycle `cycle` was bound (replayed with
    /// its request and reply); `None` when the scheduler has no binder extender.
    pub fn bind_call(&self, cycle: usize) -> Option<ExtenderCall> {
        let binds = self
            .scenario
            .scheduler
            .extenders()
            .iter()
            .any(|e| e.has(Verb::Bind));
        if !binds {
            return None;
        }
        let at = *self.info.cycle_steps.get(cycle)?;
        let pod = self.info.cycles.get(cycle)?.pod;
        let step = self.sim.steps().iter().enumerate().skip(at + 1).find(|(_, s)| {
            matches!(s.kind, StepKind::Bound { pod: p, .. } | StepKind::BindFailed { pod: p } if p == pod)
        })?;
        self.sim.step_detail(step.0)?.extender.map(|c| *c)
    }

    /// Cycles run so far while taking the run to its end.
    pub fn cycles_known(&self) -> usize {
        self.sim.cycles().len()
    }

    fn finish(&mut self, stop: StopReason) {
        let sim = &self.sim;
        let cluster = sim.cluster();
        let pods: Vec<PodStatic> = cluster
            .pods()
            .iter()
            .map(|p| PodStatic {
                short: short_name(&p.full_name).to_string(),
                name: p.full_name.clone(),
                priority: p.priority,
                requests: requests_summary(&p.request),
            })
            .collect();
        let mut input_order: Vec<PodId> = (0..pods.len()).collect();
        input_order.sort_by_key(|&id| cluster.pods()[id].input_index);
        let mut cycle_steps = vec![0; sim.cycles().len()];
        let mut marks = Vec::new();
        for (i, step) in sim.steps().iter().enumerate() {
            match &step.kind {
                StepKind::Cycle { cycle } => cycle_steps[*cycle] = i,
                StepKind::Change { index } => marks.push(Mark {
                    step: i,
                    time: step.time,
                    label: sim
                        .timeline()
                        .changes
                        .get(*index)
                        .map(|c| format!("{} {}", c.change.verb(), c.change.object()))
                        .unwrap_or_default(),
                }),
                _ => {}
            }
        }
        let mut pod_cycles = vec![Vec::new(); pods.len()];
        for (i, t) in sim.cycles().iter().enumerate() {
            if let Some(list) = pod_cycles.get_mut(t.pod) {
                list.push(i);
            }
        }
        let events = sim
            .events()
            .iter()
            .map(|e| EventRow {
                kind: e.kind,
                reason: e.reason,
                object: format!("pod/{}", short_name(&e.object)),
                message: e.message.clone(),
                time: e.time,
                step: e.step,
                cycle: e.cycle,
            })
            .collect();
        self.info = Arc::new(SessionInfo {
            pods,
            input_order,
            events,
            cycle_steps,
            cycles: sim
                .cycles()
                .iter()
                .map(|t| CycleFact {
                    pod: t.pod,
                    placed: t.node.is_some(),
                })
                .collect(),
            pod_cycles,
            marks,
            filter_names: self.info.filter_names.clone(),
            score_names: self.info.score_names.clone(),
            warnings: self.info.warnings.clone(),
            end: sim.position(),
            stop,
            node_count: self.info.node_count,
            scheduler: self.info.scheduler,
            seed: self.seed,
            evaluated_nodes: sim.cycles().iter().map(|t| t.evaluated).sum(),
            extenders: crate::extender_data::facts(&self.scenario, &self.live_failures),
            custom_plugins: self.custom_plugins.clone(),
        });
    }

    /// The current position.
    pub fn position(&self) -> usize {
        self.sim.position()
    }

    /// Goes to the state after `step` steps (clamped to the run). Going forward, the last
    /// cycle passed is recorded in detail on the way (it is what the inspector shows next).
    pub fn go_to(&mut self, step: usize) {
        let step = step.min(self.info.end);
        let here = self.sim.position();
        if step > here && !self.trail.iter().any(|s| s.position() == here) {
            if self.trail.len() >= TRAIL {
                self.trail.remove(0);
            }
            self.trail.push(self.sim.snapshot());
        }
        // Start from the closest known state at or before the target: the current one when
        // going forward, else the nearest checkpoint, unless a snapshot is closer.
        let start = if step >= here {
            here
        } else {
            self.sim.checkpoint_before(step)
        };
        let closer = self
            .trail
            .iter()
            .filter(|s| s.position() <= step && s.position() > start)
            .max_by_key(|s| s.position());
        if let Some(snapshot) = closer {
            self.sim.restore(snapshot);
        }
        if step > self.sim.position() {
            if let Some(last) = self.info.last_cycle_at(step) {
                let at = self.info.cycle_steps[last];
                if at >= self.sim.position() && !self.is_cached(last) {
                    self.sim.go_to_step(at);
                    if let Some(d) = self.sim.next_cycle_detail_and_after() {
                        self.remember(last, detail(d));
                    }
                }
            }
        }
        self.sim.go_to_step(step);
    }

    /// Records the cycle about to run in detail (phase stepping shows it before it runs).
    pub fn prefetch_next_cycle(&self) {
        if let Some(c) = self.info.cycle_at(self.position()) {
            if !self.is_cached(c) {
                if let Some(d) = self.sim.next_cycle_detail_and_after() {
                    self.remember(c, detail(d));
                }
            }
        }
    }

    fn is_cached(&self, cycle: usize) -> bool {
        self.details.borrow().iter().any(|(c, _)| *c == cycle)
    }

    fn remember(&self, cycle: usize, detail: CycleDetail) {
        let mut cache = self.details.borrow_mut();
        cache.retain(|(c, _)| *c != cycle);
        if cache.len() >= DETAIL_CACHE {
            cache.remove(0);
        }
        cache.push((cycle, detail));
    }

    /// Cycle `cycle` with its filter and score tables, and the cluster it saw (replayed from
    /// the nearest checkpoint unless recently seen).
    pub fn cycle_detail(&self, cycle: usize) -> Option<CycleDetail> {
        let cached = self
            .details
            .borrow()
            .iter()
            .find(|(c, _)| *c == cycle)
            .map(|(_, d)| Arc::clone(d));
        if let Some(d) = cached {
            return Some(d);
        }
        let d = detail(self.sim.cycle_detail_and_after(cycle)?);
        self.remember(cycle, Arc::clone(&d));
        Some(d)
    }

    /// The world at the current position.
    pub fn frame(&self) -> Frame {
        let sim = &self.sim;
        let info = &self.info;
        let position = sim.position();
        let cluster = sim.cluster();
        let states = sim.pod_states();
        let last_cycle = info.last_cycle_at(position);

        let pdbs = pdb_views(cluster, states);
        let mut budgeted = vec![false; cluster.pods().len()];
        for p in pdbs.iter().flat_map(|b| &b.pods) {
            budgeted[*p] = true;
        }
        let budgeted = |p: PodId| budgeted.get(p).copied().unwrap_or(false);

        let devices = crate::devices::node_devices(cluster);
        let mut nodes: Vec<NodeCard> = cluster
            .nodes()
            .iter()
            .zip(devices)
            .map(|(n, devices)| {
                let mut labels: Vec<(String, String)> = n
                    .labels()
                    .iter()
                    .filter(|(k, _)| !COMMON_LABELS.contains(&k.as_str()))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                labels.sort();
                NodeCard {
                    name: n.name().to_string(),
                    cpu: Usage {
                        used: n.requested().milli_cpu,
                        total: n.allocatable().milli_cpu,
                    },
                    memory: Usage {
                        used: n.requested().memory,
                        total: n.allocatable().memory,
                    },
                    pods: Usage {
                        used: n.pods().len() as i64,
                        total: n.allocatable().pods,
                    },
                    labels,
                    taints: n
                        .object()
                        .spec
                        .taints
                        .iter()
                        .map(|t| {
                            if t.value.is_empty() {
                                format!("{}:{}", t.key, t.effect)
                            } else {
                                format!("{}={}:{}", t.key, t.value, t.effect)
                            }
                        })
                        .collect(),
                    cordoned: n.object().spec.unschedulable,
                    chips: n
                        .pods()
                        .iter()
                        .map(|&p| Chip {
                            pod: p,
                            kind: match states.get(p).map(|s| (&s.phase, s.terminating)) {
                                Some((_, true)) => ChipKind::Terminating,
                                Some((PodPhase::Assumed(_), _)) => ChipKind::Assumed,
                                _ => ChipKind::Bound,
                            },
                            budgeted: budgeted(p),
                        })
                        .collect(),
                    devices,
                }
            })
            .collect();

        let mut pods = Vec::with_capacity(info.pods.len());
        for p in 0..info.pods.len() {
            let Some(s) = states.get(p) else {
                // Created by a later timeline change.
                pods.push(PodStatus {
                    phase: "Not created",
                    node: None,
                    nominated: None,
                    last_cycle: None,
                });
                continue;
            };
            let node = cluster.pod_node().get(p).copied().flatten();
            let phase = match (&s.phase, s.terminating) {
                (PodPhase::Deleted, _) => "Deleted",
                (_, true) => "Terminating",
                (PodPhase::Bound, _) => "Bound",
                (PodPhase::Assumed(_), _) => "Assumed",
                (PodPhase::Pending, _) => "Pending",
            };
            if let (Some(nominated), PodPhase::Pending) = (&s.nominated, &s.phase) {
                if let Some(&n) = cluster.node_index().get(nominated.as_str()) {
                    nodes[n].chips.push(Chip {
                        pod: p,
                        kind: ChipKind::Nominated,
                        budgeted: budgeted(p),
                    });
                }
            }
            let last = info.pod_cycles.get(p).and_then(|cycles| {
                let k = cycles.partition_point(|&c| Some(c) <= last_cycle);
                k.checked_sub(1).map(|k| cycles[k])
            });
            pods.push(PodStatus {
                phase,
                node: node.map(|n: NodeId| cluster.nodes()[n].name().to_string()),
                nominated: s.nominated.clone(),
                last_cycle: last,
            });
        }

        let now = sim.now();
        let queue = self.queue();

        Frame {
            position,
            end: info.end,
            now,
            cycles_done: sim.cycles_done(),
            last_cycle,
            next: self.describe_next(),
            nodes,
            pods,
            queue,
            events_done: sim.events_done(),
            pdbs,
        }
    }

    /// The scheduling queue now: activeQ, podBackoffQ and unschedulableQ, each pod with its
    /// attempts, the time left in backoff and why it waits.
    fn queue(&self) -> QueueView {
        let sim = &self.sim;
        let states = sim.pod_states();
        let now = sim.now();
        let mut queue = QueueView::default();
        for q in sim.queue_view() {
            let reason = states
                .get(q.pod)
                .and_then(|s| s.condition.as_ref())
                .filter(|c| !c.status)
                .map(|c| c.message.clone());
            let row = QueueRow {
                pod: q.pod,
                attempts: q.attempts,
                retry_in: q
                    .backoff_expiry
                    .filter(|&e| q.queue == SubQueue::Backoff && e > now)
                    .map(|e| Millis(e.0 - now.0)),
                reason,
                nominated: q.nominated_node.clone(),
            };
            match q.queue {
                SubQueue::Active => queue.active.push(row),
                SubQueue::Backoff => queue.backoff.push(row),
                SubQueue::Unschedulable => queue.unschedulable.push(row),
            }
        }
        queue
    }

    /// The next step in words: `scheduleOne default/web-1`, `bind default/web-1 to node-2`.
    fn describe_next(&self) -> Option<String> {
        let sim = &self.sim;
        let step = sim.steps().get(sim.position())?;
        let pod = |p: PodId| {
            self.info
                .pods
                .get(p)
                .map_or_else(String::new, |s| s.short.clone())
        };
        let at = step.time;
        Some(match &step.kind {
            StepKind::Cycle { cycle } => {
                let p = sim.cycles().get(*cycle).map(|t| t.pod).unwrap_or_default();
                format!("scheduleOne {} at {at}", pod(p))
            }
            StepKind::Bound { pod: p, node } => format!("bind {} to {node} at {at}", pod(*p)),
            StepKind::BindFailed { pod: p } => format!("binding of {} fails at {at}", pod(*p)),
            StepKind::Deleted { pod: p } => format!("{} is deleted at {at}", pod(*p)),
            StepKind::BackoffFlush { .. } => format!("flushBackoffQCompleted at {at}"),
            StepKind::LeftoverFlush => format!("flushUnschedulableQLeftover at {at}"),
            StepKind::Change { index } => sim
                .timeline()
                .changes
                .get(*index)
                .map(|c| format!("{} {} at {at}", c.change.verb(), c.change.object()))
                .unwrap_or_default(),
        })
    }
}

/// The PodDisruptionBudgets with the pods each covers now: the pods that exist (created by
/// now, not deleted) and that [`PodDisruptionBudget::covers`] (its namespace, a non-empty
/// selector that matches).
///
/// [`PodDisruptionBudget::covers`]: schedlab_core::model::PodDisruptionBudget::covers
fn pdb_views(cluster: &Cluster, states: &[PodState]) -> Vec<PdbView> {
    cluster
        .pdbs()
        .iter()
        .map(|b| {
            let namespace = b.metadata.namespace_or_default();
            let name = if namespace == "default" {
                b.metadata.name.clone()
            } else {
                format!("{namespace}/{}", b.metadata.name)
            };
            let pods = cluster
                .pods()
                .iter()
                .enumerate()
                .filter(|(p, _)| states.get(*p).is_some_and(|s| s.phase != PodPhase::Deleted))
                .filter(|(_, info)| b.covers(&info.namespace, info.labels()))
                .map(|(p, _)| p)
                .collect();
            PdbView {
                name,
                selector: b
                    .spec
                    .selector
                    .as_ref()
                    .map(selector_text)
                    .unwrap_or_default(),
                disruptions_allowed: b.status.disruptions_allowed,
                pods,
            }
        })
        .collect()
}

/// A label selector as kubectl prints one: `app=web,tier in (a,b),!legacy`.
pub fn selector_text(s: &LabelSelector) -> String {
    let mut parts: Vec<String> = s
        .match_labels
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    for r in &s.match_expressions {
        let values = r.values.join(",");
        parts.push(match r.operator.as_str() {
            "In" => format!("{} in ({values})", r.key),
            "NotIn" => format!("{} notin ({values})", r.key),
            "Exists" => r.key.clone(),
            "DoesNotExist" => format!("!{}", r.key),
            op => format!("{} {op} ({values})", r.key),
        });
    }
    parts.join(",")
}

/// Labels nearly every node has; the cards leave them out.
const COMMON_LABELS: [&str; 5] = [
    "kubernetes.io/hostname",
    "kubernetes.io/os",
    "kubernetes.io/arch",
    "beta.kubernetes.io/os",
    "beta.kubernetes.io/arch",
];

/// The name without a `default/` namespace.
pub fn short_name(full: &str) -> &str {
    full.strip_prefix("default/").unwrap_or(full)
}

/// `cpu 500m · mem 512Mi`, plus any extended resources; `no requests` when empty.
pub fn requests_summary(r: &schedlab_core::model::Resources) -> String {
    let mut parts = Vec::new();
    if r.milli_cpu > 0 {
        parts.push(format!("cpu {}", format_amount("cpu", r.milli_cpu)));
    }
    if r.memory > 0 {
        parts.push(format!("mem {}", format_amount("memory", r.memory)));
    }
    if r.ephemeral_storage > 0 {
        parts.push(format!(
            "ephemeral {}",
            format_amount("ephemeral-storage", r.ephemeral_storage)
        ));
    }
    for (name, amount) in &r.scalars {
        if *amount > 0 {
            parts.push(format!("{name} {}", format_amount(name, *amount)));
        }
    }
    if parts.is_empty() {
        "no requests".into()
    } else {
        parts.join(" · ")
    }
}

/// A gallery example run to its end, as the page runs it (for tests).
#[cfg(test)]
pub(crate) fn run_example(name: &str) -> Session {
    let example = crate::gallery::example_named(name)
        .texts()
        .expect("natively every example is compiled in");
    assert_eq!(example.name(), name);
    let texts: Vec<String> = crate::base::EditorFile::ALL
        .iter()
        .map(|f| example.text(*f).to_string())
        .collect();
    let scenario = crate::engine::host::load(&texts).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    let mut s = Session::new(scenario, 0);
    while !s.run_some(64) {}
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::EditorFile;
    use crate::engine::host::load;
    use crate::gallery::example_named;

    /// `pdb-steers` with `extra` appended to its Pods editor, run to its end.
    fn pdb_steers(extra: &str) -> Session {
        let example = example_named("pdb-steers")
            .texts()
            .expect("natively every example is compiled in");
        let mut texts: Vec<String> = EditorFile::ALL
            .iter()
            .map(|f| example.text(*f).to_string())
            .collect();
        texts[EditorFile::Pods.index()].push_str(extra);
        let scenario = load(&texts).unwrap_or_else(|e| panic!("{e:?}"));
        let mut s = Session::new(scenario, 0);
        while !s.run_some(64) {}
        s
    }

    fn covered(s: &Session, f: &Frame, pdb: &str) -> Vec<String> {
        let b = f.pdbs.iter().find(|b| b.name == pdb).expect(pdb);
        b.pods
            .iter()
            .map(|&p| s.info.pods[p].short.clone())
            .collect()
    }

    #[test]
    fn frames_list_each_budget_with_the_pods_it_covers_now() {
        // A second budget, over reports (one disruption allowed): checkout preempts reports-0
        // at t = 0 (it is terminating for 30 s), then it is gone.
        let mut s = pdb_steers(
            "\n---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: reports, namespace: default}\nspec:\n  selector:\n    matchLabels: {app: reports}\n    matchExpressions: [{key: tier, operator: NotIn, values: [gold, silver]}, {key: legacy, operator: DoesNotExist}]\nstatus: {disruptionsAllowed: 1}\n",
        );
        s.go_to(0);
        let f = s.frame();
        assert_eq!(f.pdbs.len(), 2);
        let postgres = &f.pdbs[0];
        assert_eq!(
            (
                postgres.name.as_str(),
                postgres.selector.as_str(),
                postgres.disruptions_allowed
            ),
            ("postgres", "app=postgres", 0)
        );
        assert_eq!(covered(&s, &f, "postgres"), ["postgres-0"]);
        assert_eq!(
            f.pdbs[1].selector,
            "app=reports,tier notin (gold,silver),!legacy"
        );
        assert_eq!(covered(&s, &f, "reports"), ["reports-0"]);
        // The chips of covered pods say so.
        let chip = |info: &SessionInfo, f: &Frame, node: &str, pod: &str| {
            let n = f.nodes.iter().find(|n| n.name == node).expect(node);
            n.chips
                .iter()
                .find(|c| info.pods[c.pod].short == pod)
                .map(|c| c.budgeted)
        };
        assert_eq!(chip(&s.info, &f, "node-a", "postgres-0"), Some(true));
        // After the first cycle reports-0 is terminating: still there, still covered.
        s.go_to(s.info.position_after_cycle(0).expect("a cycle"));
        let f = s.frame();
        assert_eq!(
            f.pods[s
                .info
                .pods
                .iter()
                .position(|p| p.short == "reports-0")
                .unwrap()]
            .phase,
            "Terminating"
        );
        assert_eq!(covered(&s, &f, "reports"), ["reports-0"]);
        // At the end it is gone, and so is it from its budget; checkout has no app=reports.
        s.go_to(s.info.end);
        let f = s.frame();
        assert!(covered(&s, &f, "reports").is_empty());
        assert_eq!(covered(&s, &f, "postgres"), ["postgres-0"]);
        assert_eq!(chip(&s.info, &f, "node-b", "checkout"), Some(false));
    }
}
