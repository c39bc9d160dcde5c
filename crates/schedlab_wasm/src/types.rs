//! The shapes the JavaScript API returns, as Rust types: the source of the TypeScript
//! declarations (`#[derive(Tsify)]` writes each one into wasm-bindgen's `.d.ts`).
//!
//! The report, a cycle and the queue are built by `schedlab_core::report` as JSON values, and
//! the API hands out exactly those values (`JSON.parse` of the core's string, so the CLI's
//! report keeps its bytes). The types here mirror them field for field: the tests read every
//! golden scenario's report through these types with `deny_unknown_fields` and write it back
//! unchanged, so a key or value the core adds or renames fails a test until it is declared
//! here. The explanation and the input errors are built from these types directly.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use tsify::Tsify;
use wasm_bindgen::prelude::*;

/// One input file: its name (used in error messages) and its text (JSON or YAML).
#[derive(Tsify, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    /// The file name, e.g. `nodes.yaml`.
    pub name: String,
    /// The file's text.
    pub text: String,
}

/// Which kube-scheduler runs: v1.17 (the legacy Policy) or v1.35 (profiles and plugins).
#[derive(Tsify, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchedulerName {
    /// kube-scheduler v1.17.
    #[serde(rename = "v1.17")]
    V1_17,
    /// kube-scheduler v1.35.
    #[serde(rename = "v1.35")]
    V1_35,
}

/// Options of `Simulator.fromFiles`.
#[derive(Tsify, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SimulatorOptions {
    /// Seeds the tie-break between equally scored nodes (`--seed`; default 0): a non-negative
    /// integer, as a number (up to 2^53) or a bigint.
    #[tsify(optional, type = "number | bigint")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The scheduler (`--scheduler`). Default: v1.35 when an input holds a
    /// `kubescheduler.config.k8s.io/v1` configuration, else v1.17.
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scheduler: Option<SchedulerName>,
    /// Leave each cycle's `filter`, `scores` and `totals` out (`--summary`), for big runs.
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<bool>,
    /// Call no live extender (`--offline`): a call that no ExtenderMock and no
    /// ExtenderRecording answers is an error of its cycle. By default such a call pauses the
    /// run (`AwaitingExtender`) until its reply is added (`addExchange`, or `runLive`).
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offline: Option<bool>,
    /// Fix kubernetes#141781 (`--fidelity extender-nodeinfo-fix`): v1.35's Score plugins see
    /// the pods of the nodes an extender returned as `Nodes`.
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extender_nodeinfo_fix: Option<bool>,
    /// Custom plugins by name (`schedlab run --plugin NAME=FILE`): each a
    /// kube-scheduler-wasm-extension guest's bytes, enabled by that name in the scenario's v1
    /// configuration like an in-tree plugin. (Read from the object by `fromFiles`, never
    /// serialized.)
    #[tsify(optional, type = "Record<string, Uint8Array | ArrayBuffer>")]
    #[serde(skip)]
    pub plugins: Option<()>,
}

/// An extender call the run paused at (`awaitedCalls()`): POST `body` to `url` with
/// `Content-Type: application/json`, waiting at most `timeoutMs`.
#[derive(Tsify, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AwaitedCall {
    /// The full URL (`urlPrefix` + `/` + verb).
    pub url: String,
    /// The JSON body.
    pub body: String,
    /// The extender's `httpTimeout` in milliseconds (`null`: no limit).
    pub timeout_ms: Option<u64>,
}

/// What an extender call gave (`addExchange`, `callExtender`): a reply (`status`, `body`),
/// `timedOut`, or the `error` of a request that could not be made.
#[derive(Tsify, Serialize, Deserialize, Clone, Debug, Default, PartialEq, Eq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ExtenderReply {
    /// The HTTP status of the reply.
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// The reply's body.
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// No reply within the timeout.
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timed_out: Option<bool>,
    /// The request could not be made: why.
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// How long it took, in milliseconds (kept in a recording, never used).
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elapsed_ms: Option<u64>,
}

/// Bounds of `Simulator.run` (`--until`, `--max-cycles`); without them it runs to the end, or
/// to schedlab's default bounds (24 h of virtual time, 200 000 cycles; the report's
/// `end.warning` then says so).
#[derive(Tsify, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RunOptions {
    /// Apply no step after this virtual time, in seconds.
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<f64>,
    /// Stop once this many cycles have run in all (counting those already run).
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_cycles: Option<u32>,
}

/// One problem with the inputs: the file, the path inside it, what is wrong and, when the
/// parser knows it, the 1-based line.
#[derive(Tsify, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct InputError {
    /// The file name.
    pub file: String,
    /// The path inside the document (`items[3].spec.containers[0]...`); empty for the whole
    /// document.
    pub path: String,
    /// What is wrong, in the CLI's words.
    pub message: String,
    /// The 1-based line of the path, when known.
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
}

/// What an `Error` thrown by the API carries besides its message (every problem, one line
/// each, as `file: path: message`).
#[derive(Tsify, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ErrorDetails {
    /// Every problem with the inputs; empty for an error that is not about them (an unknown
    /// pod in `explain`).
    pub errors: Vec<InputError>,
}

#[wasm_bindgen(typescript_custom_section)]
const SCHEDLAB_ERROR: &'static str = r#"
/** What the API throws: a real `Error` whose message lists the problems, with the details. */
export type SchedlabError = Error & ErrorDetails;
"#;

/// The contract's JSON report: exactly what `schedlab run --output json` prints.
#[derive(Tsify, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Report {
    /// Every pod of the scenario, in input order, in its state at the end of the history.
    pub pods: Vec<ReportPod>,
    /// One entry per scheduling cycle, in the order they ran.
    pub cycles: Vec<Cycle>,
    /// What `kubectl get events` would show, in order.
    pub events: Vec<ReportEvent>,
    /// The timeline's changes that were applied.
    pub timeline: Vec<TimelineChange>,
    /// When and why the run stopped.
    pub end: RunEnd,
    /// The scheduler that ran.
    pub scheduler: SchedulerName,
    /// Every ResourceClaim (`resource.k8s.io/v1`) at the end: the input's in input order,
    /// then those generated from templates (present only when the scenario has claims).
    #[tsify(optional)]
    #[serde(
        rename = "resourceClaims",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub resource_claims: Option<Vec<ReportClaim>>,
    /// Blocks of `cycles` (and `events`) that ran again and again right after themselves,
    /// identically but for the clock: the copies after the first 4 are counted here, not
    /// listed (present only when some were).
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub repeats: Vec<Repeat>,
    /// The cycles `repeats` count rather than list (present with `repeats`).
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub folded: Option<usize>,
}

/// A ResourceClaim in the report.
#[derive(Tsify, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReportClaim {
    /// `namespace/name`.
    pub name: String,
    /// Whether the claim has an allocation.
    pub allocated: bool,
    /// The node the allocation binds to (`null` when it is not bound to one node).
    pub node: Option<String>,
    /// The devices allocated, one per request result.
    pub devices: Vec<ReportClaimDevice>,
    /// The pods the claim is reserved for, `namespace/name`.
    pub reserved_for: Vec<String>,
}

/// One device of a claim's allocation.
#[derive(Tsify, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ReportClaimDevice {
    /// The request (`name`, or `name/subrequest`).
    pub request: String,
    /// The driver.
    pub driver: String,
    /// The pool.
    pub pool: String,
    /// The device.
    pub device: String,
}

/// A repeated block of the report: `cycles[firstCycle ..][.. cycles]` and
/// `events[firstEvent ..][.. events]` ran `times` more times right after themselves, each copy
/// `every` seconds after the one before, the last copy from `lastTime`.
#[derive(Tsify, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Repeat {
    /// Index of the block's first cycle in `cycles`.
    pub first_cycle: usize,
    /// The block's cycles.
    pub cycles: usize,
    /// Index of the block's first event in `events`.
    pub first_event: usize,
    /// The block's events.
    pub events: usize,
    /// Copies after the listed one.
    pub times: usize,
    /// Seconds from one copy to the next.
    pub every: f64,
    /// When the last copy's first cycle ran, in seconds.
    pub last_time: f64,
    /// `true` when the copies are the block but for what the seeded tie-break decided (the
    /// node chosen among equal ones); the newest copy is then listed after the block.
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub similar: bool,
}

/// A pod in the report.
#[derive(Tsify, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReportPod {
    /// `namespace/name`.
    pub name: String,
    /// The node it is bound to.
    pub node: Option<String>,
    /// Its nominated node (`status.nominatedNodeName`) while it waits.
    pub nominated_node: Option<String>,
    /// Its phase.
    pub phase: PodPhase,
    /// The node it is assumed on while its binding has not completed.
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assumed_node: Option<String>,
    /// Its `PodScheduled` condition, once a cycle has decided it.
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conditions: Option<Vec<PodCondition>>,
}

/// A pod's phase in the report.
#[derive(Tsify, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PodPhase {
    /// On a node.
    Bound,
    /// Not on a node (or assumed, its binding not complete).
    Pending,
    /// Deleted (by the timeline, or as a preemption victim).
    Deleted,
}

/// The `PodScheduled` condition.
#[derive(Tsify, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PodCondition {
    /// Always `PodScheduled`.
    #[serde(rename = "type")]
    #[tsify(type = "\"PodScheduled\"")]
    pub kind: String,
    /// `True` once scheduled.
    pub status: ConditionStatus,
    /// Why not (only when `False`).
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<ConditionReason>,
    /// The scheduler's message (only when `False`).
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// A condition's status.
#[derive(Tsify, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConditionStatus {
    /// Scheduled.
    True,
    /// Not scheduled.
    False,
}

/// Why a pod is not scheduled.
#[derive(Tsify, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConditionReason {
    /// No node fits.
    Unschedulable,
    /// The cycle or the binding failed.
    SchedulerError,
}

/// One scheduling cycle, as the contract spells it.
#[derive(Tsify, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Cycle {
    /// The virtual clock, in seconds since the start, when the cycle began.
    pub time: f64,
    /// The pod, `namespace/name`.
    pub pod: String,
    /// What the cycle decided.
    pub outcome: Outcome,
    /// The chosen node.
    pub node: Option<String>,
    /// For `Unschedulable` and `Error`, the exact kube-scheduler text; else null.
    pub message: Option<String>,
    /// Per evaluated node, each filter that ran on it mapped to its reasons (`[]` when it
    /// passed). Absent with `summary`.
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filter: Option<BTreeMap<String, BTreeMap<String, Vec<String>>>>,
    /// Per scored node, each priority or Score plugin. Absent with `summary`.
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scores: Option<BTreeMap<String, BTreeMap<String, Score>>>,
    /// Per scored node, the weighted sum that picked the winner. Absent with `summary`.
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub totals: Option<BTreeMap<String, i64>>,
    /// v1.35, DRA: per node DynamicResources' Filter ran on, each of the pod's claims with the
    /// allocator's answer there. Absent for a pod without claims, and with `summary`.
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claims: Option<BTreeMap<String, Vec<ClaimOnNode>>>,
    /// The preemption this cycle nominated a node by, else null.
    pub preemption: Option<Preemption>,
}

/// One claim on one node: exactly one of `devices` (what the allocator chose), `failed`
/// (why it found none), `allocated` (allocated before the cycle: usable on this node or not)
/// or `notTried` (an earlier claim failed first).
#[derive(Tsify, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClaimOnNode {
    /// The claim, `namespace/name`.
    pub claim: String,
    /// The devices chosen.
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub devices: Option<Vec<ClaimDevice>>,
    /// Why no devices could be.
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed: Option<String>,
    /// Allocated before the cycle: whether its allocation's node selector admits the node.
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allocated: Option<bool>,
    /// Not tried: an earlier claim failed first (it would fit on its own).
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_tried: Option<bool>,
}

/// A device the allocator chose for a claim's request.
#[derive(Tsify, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ClaimDevice {
    /// `request` or `request/subrequest`.
    pub request: String,
    /// `driver/pool/device`.
    pub device: String,
}

/// A cycle's outcome.
#[derive(Tsify, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A node was chosen.
    Scheduled,
    /// No node fits.
    Unschedulable,
    /// Something else went wrong.
    Error,
}

/// One priority's or Score plugin's score on a node.
#[derive(Tsify, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Score {
    /// Before normalising.
    pub raw: i64,
    /// After normalising, before the weight.
    pub score: i64,
    /// The weight.
    pub weight: i64,
}

/// A preemption: the nominated node, its victims, and how the node was picked.
#[derive(Tsify, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Preemption {
    /// The nominated node.
    pub node: String,
    /// The pods preempted there.
    pub victims: Vec<String>,
    /// The criterion of `pickOneNodeForPreemption` that decided.
    pub decided_by: Option<Criterion>,
    /// Every candidate node with its victims.
    pub candidates: Vec<PreemptionCandidate>,
}

/// The criterion that picked the preemption node.
#[derive(Tsify, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub enum Criterion {
    /// One candidate.
    OnlyCandidate,
    /// A node needing no victims.
    NoVictims,
    /// Fewest PodDisruptionBudget violations.
    #[serde(rename = "fewestPDBViolations")]
    FewestPdbViolations,
    /// The lowest highest-priority victim.
    LowestHighestPriorityVictim,
    /// The lowest sum of victim priorities.
    LowestPrioritySum,
    /// Fewest victims.
    FewestVictims,
    /// The latest start time of the highest-priority victims.
    LatestStartTime,
    /// The first remaining candidate.
    First,
}

/// A candidate node of a preemption.
#[derive(Tsify, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PreemptionCandidate {
    /// The node.
    pub node: String,
    /// The pods that would be preempted there.
    pub victims: Vec<String>,
    /// How many PodDisruptionBudgets those victims would violate.
    pub pdb_violations: u64,
}

/// An event, as `kubectl get events` shows it.
#[derive(Tsify, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ReportEvent {
    /// `Normal` or `Warning`.
    #[serde(rename = "type")]
    pub kind: EventType,
    /// What happened.
    pub reason: EventReason,
    /// The pod, `namespace/name`.
    pub object: String,
    /// Upstream's message.
    pub message: String,
    /// The virtual time, in seconds.
    pub time: f64,
}

/// An event's type.
#[derive(Tsify, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventType {
    /// Normal.
    Normal,
    /// Warning.
    Warning,
}

/// An event's reason.
#[derive(Tsify, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventReason {
    /// The pod was bound.
    Scheduled,
    /// A cycle or a binding failed.
    FailedScheduling,
    /// The pod was preempted.
    Preempted,
}

/// A timeline change that was applied.
#[derive(Tsify, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TimelineChange {
    /// When, in seconds.
    pub time: f64,
    /// The change, as the timeline spells it.
    pub change: ChangeKind,
    /// What it acts on: `node/a`, `pod/default/web`, `pod/default/web-*`.
    pub object: String,
    /// The pods it moved out of unschedulableQ.
    pub moved: Vec<String>,
}

/// A timeline change's kind.
#[derive(Tsify, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub enum ChangeKind {
    /// A node joins.
    AddNode,
    /// A node is replaced.
    UpdateNode,
    /// A node leaves, with its pods.
    DeleteNode,
    /// A node is cordoned.
    CordonNode,
    /// A node is uncordoned.
    UncordonNode,
    /// A node's labels change.
    SetNodeLabels,
    /// A node's taints change.
    SetNodeTaints,
    /// A pod is created.
    CreatePod,
    /// Several pods are created from a template.
    CreatePods,
    /// A pod is deleted.
    DeletePod,
    /// A pod's next binding fails.
    FailBinding,
}

/// When and why the run stopped.
#[derive(Tsify, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RunEnd {
    /// The virtual time, in seconds.
    pub time: f64,
    /// Why.
    pub reason: StopReason,
    /// Set when the run stopped at a default bound (24 h of virtual time, 200 000 cycles).
    #[tsify(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
}

/// Why a run stopped.
#[derive(Tsify, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// Nothing can happen any more.
    Quiescent,
    /// The next step lies after `until`.
    Until,
    /// `maxCycles` cycles ran (also after `step()`: the history so far is what
    /// `schedlab run --max-cycles N` reports).
    MaxCycles,
    /// The next step calls an extender whose reply is not in hand yet (live extenders in the
    /// page): make the calls `awaitedCalls()` lists, add the replies, run on.
    AwaitingExtender,
}

/// The scheduling queue at the current moment, by sub-queue, each in its order.
#[derive(Tsify, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Queue {
    /// The virtual clock, in seconds.
    pub time: f64,
    /// activeQ, in pop order.
    #[serde(rename = "activeQ")]
    pub active_q: Vec<QueuedPod>,
    /// podBackoffQ, by backoff expiry.
    #[serde(rename = "podBackoffQ")]
    pub pod_backoff_q: Vec<QueuedPod>,
    /// unschedulableQ (v1.35: the unschedulable pool).
    #[serde(rename = "unschedulableQ")]
    pub unschedulable_q: Vec<QueuedPod>,
}

/// A queued pod.
#[derive(Tsify, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct QueuedPod {
    /// `namespace/name`.
    pub pod: String,
    /// Its sub-queue.
    pub queue: QueueName,
    /// Its priority.
    pub priority: i32,
    /// Scheduling attempts so far.
    pub attempts: u32,
    /// When it was queued, in seconds.
    pub queued_at: f64,
    /// The backoff's attempt count.
    pub backoff_attempts: u32,
    /// When its backoff expires, in seconds.
    pub backoff_expiry: Option<f64>,
    /// Its nominated node.
    pub nominated_node: Option<String>,
}

/// A sub-queue.
#[derive(Tsify, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueName {
    /// The active queue.
    #[serde(rename = "activeQ")]
    ActiveQ,
    /// The backoff queue.
    #[serde(rename = "podBackoffQ")]
    PodBackoffQ,
    /// The unschedulable queue.
    #[serde(rename = "unschedulableQ")]
    UnschedulableQ,
}

/// A node at the current moment, with the pods on it (assumed ones included).
#[derive(Tsify, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NodeView {
    /// The node's name.
    pub name: String,
    /// The pods on it, `namespace/name`, in the order they came.
    pub pods: Vec<String>,
    /// CPU requested / allocatable, for people (`1.5 / 4`, `250m / 500m`).
    pub cpu: String,
    /// Memory requested / allocatable, for people (`0.63 / 5.24Gi`).
    pub memory: String,
    /// Whether the node is cordoned (`spec.unschedulable`).
    pub unschedulable: bool,
}

/// What `schedlab explain` says about a pod, for the history so far.
#[derive(Tsify, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Explanation {
    /// The pod, `namespace/name`.
    pub pod: String,
    /// The cycle explained (its index in `report().cycles`: the pod's last), or null when
    /// the pod had no cycle.
    pub cycle: Option<usize>,
    /// That cycle's outcome.
    pub outcome: Option<Outcome>,
    /// One sentence: where it went and why, or why it is Pending.
    pub summary: String,
    /// What preemption did after the failure, if it ran.
    pub preemption: Option<String>,
    /// The nodes that rejected the pod, in evaluation order.
    pub nodes: Vec<NodeExplanation>,
    /// All of it as `schedlab explain` prints it.
    pub text: String,
}

/// One node's reasons for rejecting the pod.
#[derive(Tsify, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct NodeExplanation {
    /// The node.
    pub node: String,
    /// The reasons, in plain words with numbers.
    pub reasons: Vec<String>,
    /// What would make the node fit.
    pub hints: Vec<String>,
}
