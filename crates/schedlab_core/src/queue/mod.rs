//! The scheduling queue of kube-scheduler v1.17 (`internal/queue/scheduling_queue.go` and
//! `pod_backoff.go`) on a virtual clock, and beside it, selected by [`QueueMode`], the queue of
//! v1.35 (`backend/queue/{scheduling_queue,active_queue,backoff_queue,unschedulable_pods}.go`).
//!
//! See `shared/reference/queue-preemption.md` section A (v1.17), `shared/reference/modern.md`
//! section 5 (v1.35) and the CLI contract, "How a run proceeds" and "The modern scheduler".
//!
//! # Modelled (v1.17 mode, the default)
//!
//! - **activeQ**, popped by priority (higher first), then by the time the pod was last queued
//!   (`Timestamp`: set by [`SchedulingQueue::add`] and by
//!   [`SchedulingQueue::add_unschedulable_if_not_present`], kept by every move), then by a
//!   sequence number given when the pod is added, so pods of equal priority queued at the same
//!   time pop in the order they were added (upstream's heap has no tie-break).
//! - **podBackoffQ**, ordered by backoff expiry, with v1.17's [`PodBackoffMap`]: one record per
//!   pod, a failure recorded only when the pod is not still backing off, backoff
//!   `initial × 2^(attempts−1)` capped at `max` (1 s and 10 s by default), expiry measured from
//!   the last recorded failure, and the record dropped when the next failure comes more than
//!   `max` after the last recorded one.
//! - **unschedulableQ** and the rule of `AddUnschedulableIfNotPresent`: a failed pod goes to
//!   podBackoffQ when `moveRequestCycle >= podSchedulingCycle` (a move request came during or
//!   after the cycle that popped it), otherwise to unschedulableQ.
//! - The two background loops as explicit calls at tick times chosen by the caller:
//!   [`SchedulingQueue::flush_backoff_completed`] (every 1 s: pods whose expiry is not after the
//!   tick) and [`SchedulingQueue::flush_unschedulable_leftover`] (every 30 s: pods put back
//!   strictly more than 60 s before the tick, so a pod put back at t = 0 moves at t = 90). The
//!   contract's ticks are the exact multiples 0, 1, 2, … s and 0, 30, 60, … s;
//!   [`SchedulingQueue::next_flush`] gives the next tick at which something would move, so a
//!   simulator can jump from event to event.
//! - The cluster events of table A.6 ([`InformerEvent`]): `MoveAllToActiveOrBackoffQueue`
//!   (backing-off pods to podBackoffQ, the others to activeQ, then
//!   `moveRequestCycle = schedulingCycle`, even when nothing moved), the node-update rule
//!   (move all when no pod is unschedulable or a scheduling property changed), and
//!   `AssignedPodAdded`/`AssignedPodUpdated`, which move only the pods the caller's affinity
//!   matcher selects and also set `moveRequestCycle`.
//! - `Update` and `Delete` of a queued pod, including their effect on backoff records, and
//!   nominated pods (A.7).
//!
//! # Simplified (v1.17 mode)
//!
//! - Pods are [`PodId`]s with a priority passed in. Everything that needs the pod object is the
//!   caller's: whether an update changed more than the status (`isPodUpdated`), the
//!   `status.nominatedNodeName`, and which unschedulable pods have a required pod-affinity term
//!   matching an assigned pod. The module holds no scheduling logic.
//! - The error function's asynchronous GET does not exist: the caller requeues synchronously
//!   with the scheduling cycle it read after [`SchedulingQueue::pop`] (reference 4.3).
//! - Time is [`Millis`], integer milliseconds of virtual time; no wall clock. Upstream v1.16/1.17
//!   `PodBackoffMap` read `time.Now()`; here every call takes `now`.
//! - A failure exactly at its pod's backoff expiry is recorded (the pod is no longer backing
//!   off: `isPodBackingoff` is `expiry > now`). Upstream's `backoffPod` tests
//!   `boTime.Before(now)`, which differs only at that exact instant; upstream's cycles take real
//!   time so it never arises there, while schedlab's zero-duration cycles at exact ticks would
//!   make it arise every time and would hold backoff at 1 s.
//! - Records are dropped when the last recorded failure is more than `max` in the past, as in
//!   the reference's `pod_backoff.go` @ `10b52bae…` and the contract. Another `PodBackoffMap`
//!   version (clock injected, comment "We should wait longer than the maxDuration") waits
//!   `2 × max`; which one v1.17.0 shipped is not checked. With `max`, a pod at the 10 s cap whose
//!   expiry falls between two 1 s ticks (e.g. failure at 0.5 s, moved at 11 s) fails more than
//!   10 s after its last recorded failure and starts again at 1 s.
//! - The podBackoffQ key is the expiry computed when the pod enters it. A record can only change
//!   while the pod is out of the queue or after its expiry has passed, so this is the same
//!   order and the same flush times as upstream's live comparison.
//! - [`QueuedPodInfo::attempts`] counts pops (v1.18's `PodInfo.Attempts`) for the UI; the backoff
//!   uses the v1.17 record's count, shown separately in [`QueuedPodView`].
//! - Errors are returned where upstream logs them; nothing blocks (`pop` on an empty activeQ
//!   returns `None`), and there is no `Close`.
//!
//! # v1.35 mode ([`QueueMode::V1_35`], [`QueueConfig::v1_35`])
//!
//! Modelled (reference `modern.md` §5, with `SchedulerQueueingHints` GA and
//! `SchedulerPopFromBackoffQ` on, as in v1.35's defaults):
//!
//! - **activeQ** ordered as in v1.17 (PrioritySort: priority, then `Timestamp`, then the
//!   sequence number).
//! - **backoffQ** as two heaps. `podBackoffQ` holds pods rejected by plugins, ordered by their
//!   backoff window and then by the activeQ order; `podErrorBackoffQ` holds pods that failed
//!   with an error (no rejector plugin), ordered by window (ties, which upstream's heap leaves
//!   open, by the activeQ order). Both are [`SubQueue::Backoff`] to the outside;
//!   [`QueuedPodView::error_backoff`] tells them apart.
//! - **unschedulablePods**, holding the rejected pods and the **gated** pods
//!   ([`SchedulingQueue::add_gated`]: a PreEnqueue plugin, e.g. SchedulingGates, rejected the pod
//!   on `Add`; no attempt, no backoff). Gated pods are [`SubQueue::Unschedulable`] with
//!   [`QueuedPodView::gated`] set. They leave only through [`SchedulingQueue::ungate`] (the pod's
//!   gates were removed, the only event SchedulingGates' hint answers `Queue` to), which puts
//!   them in activeQ with the `Timestamp` of their `Add`.
//! - **Pop** ([`SchedulingQueue::pop`]): the activeQ head, or, when activeQ is empty, the head of
//!   podBackoffQ even though it is still backing off; podErrorBackoffQ is never popped early.
//!   `Attempts` is incremented; the rejector plugins are forgotten.
//! - **Failure** ([`SchedulingQueue::add_unschedulable_v135`]): with rejector plugins,
//!   `UnschedulableCount++` and `ConsecutiveErrorsCount = 0`; without (an error, a bind failure),
//!   `ConsecutiveErrorsCount++`. `Timestamp = now`. A rejected pod goes to unschedulablePods
//!   (`queueSkip`); a pod with no rejector plugin goes through `queueAfterBackoff`
//!   (podErrorBackoffQ while backing off, else activeQ). See "Simplified" for why no in-flight
//!   event is replayed.
//! - **Backoff**: `count = ConsecutiveErrorsCount if > 0 else UnschedulableCount`; no backoff
//!   when `count == 0` or `max == 0`; otherwise `duration = initial << (count − 1)`, or `max` when
//!   `initial > max >> (count − 1)` ([`v135::backoff_duration_v135`]): 1, 2, 4, 8, 10, 10 … s with the
//!   defaults. The counts live on the pod's [`QueuedPodInfo`] and are never reset by time (no
//!   `PodBackoffMap`); a new `Add` starts from zero.
//! - **Whole-second window**: upstream aligns the expiry to the 1 s ordering window,
//!   `window = (Timestamp + duration).Truncate(1s)`, and a pod is backing off while
//!   `!window.Before(now.Truncate(1s))`. On the integer-millisecond clock this is exact:
//!   `window = ⌊(Timestamp + duration) / 1000⌋ × 1000`, and backing off ⇔ `window ≥ ⌊now⌋₁ₛ`
//!   ⇔ `now < window + 1 s`. The queue therefore keys podBackoffQ and podErrorBackoffQ by
//!   `window + 1 s`, "the first instant at which the pod is no longer backing off", and tests
//!   `key > now` just as v1.17 tests `expiry > now`; [`QueuedPodView::backoff_expiry`] shows that
//!   instant too. Consequence, faithful to upstream: a pod that fails at t = 0 with a 1 s backoff
//!   is in window 1 s, still backing off at the 1 s tick (the window is the current one) and
//!   moved by the 2 s tick; one that fails at 0.5 s is moved at 2 s too. Upstream's real cycles
//!   end a little after the tick they start at, which gives the same windows, so this is not an
//!   artefact of zero-duration cycles. Events between ticks (a timeline change at 1.5 s) compare
//!   with the truncated `now` as upstream does.
//! - **Flushes**: `flushBackoffQCompleted` at every 1 s tick moves both heaps' expired pods to
//!   activeQ (podBackoffQ first, then podErrorBackoffQ; PreEnqueue is not re-run);
//!   `flushUnschedulablePodsLeftover` at every 30 s tick moves the non-gated pods with
//!   `now − Timestamp > 5 min` through `queueAfterBackoff` (event `UnschedulableTimeout`): a pod
//!   put back at t = 0 and never requeued by an event moves at t = 330.
//! - **Cluster events with QueueingHints** ([`SchedulingQueue::move_with_hints`]): for each
//!   non-gated pod in unschedulablePods, the caller's `worth(pod, rejector plugins)` evaluates the
//!   rejector plugins' hint functions for the event (`isPodWorthRequeuing`). An approved pod goes
//!   to activeQ at once if its rejectors were Pending plugins (`queueImmediately`), otherwise
//!   through `queueAfterBackoff` (podBackoffQ while backing off, else activeQ); a refused one
//!   stays. A pod without rejector plugins, and every pod on the wildcard `UnschedulableTimeout`
//!   event, is requeued without asking (`queueAfterBackoff`), as upstream. There is no
//!   `moveRequestCycle`.
//! - `activate` ([`SchedulingQueue::activate`]): from unschedulablePods or either backoff heap
//!   straight to activeQ.
//!
//! Simplified (v1.35 mode):
//!
//! - **No in-flight events.** Upstream records the cluster events that arrive while a pod is
//!   being scheduled and replays them through the hints when it fails
//!   (`determineSchedulingHintForInFlightPod`). schedlab's cycles take no virtual time, so no
//!   event can arrive between a pop and the failure: the replay always finds no event, a rejected
//!   pod always takes `queueSkip` (unschedulablePods) and a pod without rejector plugins
//!   `queueAfterBackoff`. A binding that fails later (bind latency > 0) is an error and takes
//!   `queueAfterBackoff` as well.
//! - The hint functions, the events' `isEventOfInterest` filter and the candidate pre-selection
//!   of assigned-pod events (`getUnschedulablePodsWithCrossTopologyTerm`) are the caller's: its
//!   `worth` answers for each pod. A pod's rejectors are either all Unschedulable or all Pending
//!   plugins (`pending`), not a mix.
//! - PreEnqueue runs are the caller's: it decides on `Add` whether a pod is gated, and on
//!   `ungate` that its gates are gone. PreEnqueue is not re-run on other moves (DefaultPreemption's
//!   PreEnqueue, which holds a pod while its asynchronous preemption is in flight, does not arise
//!   with synchronous preemption). Upstream also hands a gated pod to `UnschedulableTimeout` and
//!   to events its gating plugin registered, re-runs PreEnqueue and puts it back, unchanged;
//!   here it simply stays.
//! - Gated pods get no nomination ([`NominatedPods`] is untouched by `add_gated`; upstream records
//!   one only when the pod enters activeQ); [`SchedulingQueue::add_unschedulable_v135`] leaves
//!   the nomination alone, as upstream's `AddUnschedulableIfNotPresent` does (the caller records a
//!   PostFilter nomination with [`SchedulingQueue::update_nominated_pod_for_node`]).
//! - The v1.17 entry points still work in v1.35 mode, without v1.17's machinery:
//!   [`SchedulingQueue::add_unschedulable_if_not_present`] counts a rejection by unnamed plugins
//!   (unschedulablePods, requeued by every event); [`SchedulingQueue::on_cluster_event`],
//!   [`SchedulingQueue::move_all_to_active_or_backoff`] and [`SchedulingQueue::move_matching`]
//!   requeue as if every hint said `Queue`; [`SchedulingQueue::note_move_request`] does nothing;
//!   [`SchedulingQueue::update`] keeps a pod in activeQ or backoffQ in place (v1.35's `Update`)
//!   and requeues an unschedulable pod whose spec changed through `queueAfterBackoff` (as if the
//!   `Pod/Update` hint said `Queue`).
//! - [`SchedulingQueue::num_unschedulable_pods`] and [`SchedulingQueue::unschedulable_pods`]
//!   count only the non-gated pods (those a flush or an event can move); gated pods are in
//!   [`SchedulingQueue::gated_pods`].

mod backoff;
mod events;
mod nominated;
mod v135;

use std::cmp::Reverse;
use std::collections::BTreeSet;
use std::sync::Arc;

pub(crate) use backoff::PodBackoffMap;
pub(crate) use events::{ClusterChange, ClusterEvent, InformerEvent, NodeChange};
pub(crate) use nominated::NominatedPods;
#[cfg(test)]
use v135::backoff_duration_v135;

use crate::cluster::PodId;
use crate::model::Millis;

/// Period of `flushBackoffQCompleted`.
pub(crate) const BACKOFF_FLUSH_PERIOD: Millis = Millis::secs(1);
/// Period of `flushUnschedulableQLeftover`.
pub(crate) const LEFTOVER_FLUSH_PERIOD: Millis = Millis::secs(30);
/// `unschedulableQTimeInterval`: a leftover moves after waiting strictly longer than this.
pub(crate) const UNSCHEDULABLE_Q_TIME_INTERVAL: Millis = Millis::secs(60);
/// `DefaultPodInitialBackoffDuration`.
pub(crate) const DEFAULT_POD_INITIAL_BACKOFF: Millis = Millis::secs(1);
/// `DefaultPodMaxBackoffDuration`.
pub(crate) const DEFAULT_POD_MAX_BACKOFF: Millis = Millis::secs(10);
/// v1.35's `DefaultPodMaxInUnschedulablePodsDuration`: in v1.35 mode a leftover moves after
/// waiting strictly longer than this.
pub(crate) const POD_MAX_IN_UNSCHEDULABLE_PODS_DURATION: Millis = Millis::secs(300);
/// v1.35's `backoffQOrderingWindowDuration`: backoff expiries are truncated to this window.
pub(crate) const BACKOFF_Q_ORDERING_WINDOW: Millis = Millis::secs(1);

/// Which kube-scheduler's queue the [`SchedulingQueue`] behaves as.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum QueueMode {
    /// v1.17: `PodBackoffMap`, unschedulableQ with the 60 s leftover rule, `moveRequestCycle`.
    #[default]
    V1_17,
    /// v1.35: per-pod counts, podBackoffQ and podErrorBackoffQ with the 1 s window,
    /// unschedulablePods with gated pods and the 5-minute leftover rule, QueueingHints, popping
    /// from podBackoffQ when activeQ is empty.
    V1_35,
}

/// Queue settings from the configuration (`podInitialBackoffSeconds`, `podMaxBackoffSeconds`)
/// and the scheduler version whose queue to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueueConfig {
    pub pod_initial_backoff: Millis,
    pub pod_max_backoff: Millis,
    pub mode: QueueMode,
}

impl Default for QueueConfig {
    fn default() -> Self {
        QueueConfig {
            pod_initial_backoff: DEFAULT_POD_INITIAL_BACKOFF,
            pod_max_backoff: DEFAULT_POD_MAX_BACKOFF,
            mode: QueueMode::V1_17,
        }
    }
}

impl QueueConfig {
    /// v1.17's queue, from the configuration's seconds (validated elsewhere: initial > 0,
    /// max >= initial); negative values count as 0 and huge ones saturate.
    pub fn from_seconds(initial: i64, max: i64) -> Self {
        QueueConfig {
            pod_initial_backoff: Millis::secs(initial.max(0) as u64),
            pod_max_backoff: Millis::secs(max.max(0) as u64),
            mode: QueueMode::V1_17,
        }
    }

    /// v1.35's queue, from the configuration's seconds, read as [`Self::from_seconds`] does.
    pub fn v1_35(initial: i64, max: i64) -> Self {
        QueueConfig {
            mode: QueueMode::V1_35,
            ..Self::from_seconds(initial, max)
        }
    }
}

/// The three sub-queues.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SubQueue {
    Active,
    /// podBackoffQ; in v1.35 mode also podErrorBackoffQ.
    Backoff,
    /// unschedulableQ; in v1.35 mode unschedulablePods, gated pods included.
    Unschedulable,
}

impl SubQueue {
    /// Upstream name.
    pub fn name(self) -> &'static str {
        match self {
            SubQueue::Active => "activeQ",
            SubQueue::Backoff => "podBackoffQ",
            SubQueue::Unschedulable => "unschedulableQ",
        }
    }
}

/// A queued pod's bookkeeping (`framework.PodInfo`). [`SchedulingQueue::pop`] hands it out and
/// [`SchedulingQueue::add_unschedulable_if_not_present`] (or, in v1.35 mode,
/// [`SchedulingQueue::add_unschedulable_v135`]) takes it back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueuedPodInfo {
    pub pod: PodId,
    pub priority: i32,
    /// The time the pod was last queued (`Timestamp`).
    pub timestamp: Millis,
    /// Pops so far (v1.18 `Attempts`; informational).
    pub attempts: u32,
    /// When the pod was first added (`InitialAttemptTimestamp`); for a gated pod in v1.35
    /// mode, when it was ungated.
    pub initial_attempt_timestamp: Millis,
    /// Tie-break for equal priority and timestamp: the order in which pods were added.
    pub seq: u64,
    /// v1.35 `UnschedulableCount`: failures with rejector plugins (0 in v1.17 mode).
    pub unschedulable_count: u32,
    /// v1.35 `ConsecutiveErrorsCount`: failures without rejector plugins since the last
    /// rejection (0 in v1.17 mode).
    pub consecutive_errors_count: u32,
}

impl QueuedPodInfo {
    /// v1.35's backoff count: `ConsecutiveErrorsCount` if > 0, else `UnschedulableCount`.
    pub fn backoff_count(&self) -> u32 {
        if self.consecutive_errors_count > 0 {
            self.consecutive_errors_count
        } else {
            self.unschedulable_count
        }
    }
}

/// Where one pod went in a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moved {
    pub pod: PodId,
    pub to: SubQueue,
}

/// The result of a cluster event or a leftover flush.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveReport {
    /// The event that requested the move; `None` when the event moves nothing and does not
    /// count as a move request (node delete, a node update that changes nothing relevant, a
    /// StorageClass that is not `WaitForFirstConsumer`, a leftover flush that found nothing).
    /// In v1.35 mode, which has no move requests, `None` exactly when no pod moved.
    pub event: Option<ClusterEvent>,
    /// The pods moved, by pod id.
    pub moved: Vec<Moved>,
}

/// Errors where upstream logs or returns an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueError {
    /// `AddUnschedulableIfNotPresent` on a pod that is already queued.
    AlreadyPresent { pod: PodId, queue: SubQueue },
    /// A v1.35 operation on a queue in v1.17 mode.
    WrongMode { pod: PodId },
}

impl std::fmt::Display for QueueError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            QueueError::AlreadyPresent { queue, .. } => {
                write!(f, "pod is already present in the {}", queue.name())
            }
            QueueError::WrongMode { .. } => {
                f.write_str("the v1.35 operation was called on a v1.17 queue")
            }
        }
    }
}

impl std::error::Error for QueueError {}

/// One queued pod, for the UI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueuedPodView {
    pub pod: PodId,
    pub queue: SubQueue,
    pub priority: i32,
    /// Pops so far.
    pub attempts: u32,
    /// The time the pod was last queued.
    pub timestamp: Millis,
    /// v1.17: recorded failures in the backoff record (0 without one). v1.35: the count the
    /// backoff uses ([`QueuedPodInfo::backoff_count`]).
    pub backoff_attempts: u32,
    /// Backoff expiry: the first instant at which the pod is no longer backing off. The
    /// podBackoffQ key for pods there; otherwise, v1.17: the record's expiry if the pod has a
    /// record, v1.35: the expiry its counts and timestamp give, if it has a backoff (either may
    /// lie in the past). In v1.35 mode this is the end of the 1 s window, see the module docs.
    pub backoff_expiry: Option<Millis>,
    pub nominated_node: Option<String>,
    /// v1.35: a gated pod (PreEnqueue rejected it), held in unschedulablePods.
    pub gated: bool,
    /// v1.35: in podErrorBackoffQ (the pod failed with an error), shown as podBackoffQ.
    pub error_backoff: bool,
    /// v1.35: the plugins that rejected the pod in its last attempt (for a gated pod, its
    /// gating plugin), kept by moves until the pod is popped or ungated; empty for a pod not
    /// rejected since its last pop, and always in v1.17 mode.
    pub rejector_plugins: Vec<&'static str>,
}

/// Where a queued pod is, finer than [`SubQueue`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    Active,
    /// podBackoffQ.
    Backoff,
    /// v1.35's podErrorBackoffQ.
    ErrorBackoff,
    Unschedulable,
    /// v1.35: in unschedulablePods, gated.
    Gated,
}

impl Place {
    fn sub_queue(self) -> SubQueue {
        match self {
            Place::Active => SubQueue::Active,
            Place::Backoff | Place::ErrorBackoff => SubQueue::Backoff,
            Place::Unschedulable | Place::Gated => SubQueue::Unschedulable,
        }
    }
}

#[derive(Clone, Debug)]
struct Entry {
    info: QueuedPodInfo,
    place: Place,
    /// The backoff-heap key, for pods in podBackoffQ or podErrorBackoffQ.
    expiry: Millis,
    /// v1.35: the rejector plugins of the last attempt, or the gating plugin of a gated pod;
    /// `None` when there are none.
    plugins: Option<Arc<[&'static str]>>,
    /// v1.35: the rejector plugins are Pending plugins (an approving hint queues immediately).
    pending: bool,
}

impl Entry {
    fn new(info: QueuedPodInfo, place: Place) -> Self {
        Entry {
            info,
            place,
            expiry: Millis::ZERO,
            plugins: None,
            pending: false,
        }
    }

    fn plugins(&self) -> &[&'static str] {
        self.plugins.as_deref().unwrap_or(&[])
    }
}

type ActiveKey = (Reverse<i32>, Millis, u64, PodId);

fn active_key(i: &QueuedPodInfo) -> ActiveKey {
    (Reverse(i.priority), i.timestamp, i.seq, i.pod)
}

/// A backoff heap's key: the expiry, then (v1.35) the activeQ order. In v1.17 mode the second
/// part is `(Reverse(0), 0, seq, pod)`, so the order is expiry, then sequence number.
type BackoffKey = (Millis, ActiveKey);

/// `(timestamp, seq, pod)`: unschedulable and gated pods, by the time they were queued.
type TimeKey = (Millis, u64, PodId);

fn time_key(i: &QueuedPodInfo) -> TimeKey {
    (i.timestamp, i.seq, i.pod)
}

/// Queued pods by id.
#[derive(Clone, Debug, Default)]
struct PodTable {
    slots: Vec<Option<Entry>>,
    len: usize,
}

impl PodTable {
    fn get(&self, pod: PodId) -> Option<&Entry> {
        self.slots.get(pod)?.as_ref()
    }

    fn insert(&mut self, pod: PodId, e: Entry) {
        if pod >= self.slots.len() {
            self.slots.resize(pod + 1, None);
        }
        if self.slots[pod].replace(e).is_none() {
            self.len += 1;
        }
    }

    fn remove(&mut self, pod: PodId) -> Option<Entry> {
        let e = self.slots.get_mut(pod)?.take()?;
        self.len -= 1;
        Some(e)
    }

    fn len(&self) -> usize {
        self.len
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// kube-scheduler v1.17's `PriorityQueue` on a virtual clock, or v1.35's (see [`QueueMode`]).
#[derive(Clone, Debug)]
pub struct SchedulingQueue {
    mode: QueueMode,
    /// v1.17's records; in v1.35 mode it only holds the initial and maximum backoff.
    backoff: PodBackoffMap,
    /// By pod id (a flat table: cheap to clone for checkpoints).
    pods: PodTable,
    active: BTreeSet<ActiveKey>,
    /// podBackoffQ.
    backoff_q: BTreeSet<BackoffKey>,
    /// v1.35's podErrorBackoffQ (always empty in v1.17 mode).
    error_backoff_q: BTreeSet<BackoffKey>,
    /// unschedulableQ / the non-gated pods of unschedulablePods.
    unschedulable: BTreeSet<TimeKey>,
    /// v1.35: the gated pods of unschedulablePods.
    gated: BTreeSet<TimeKey>,
    nominated: NominatedPods,
    scheduling_cycle: i64,
    move_request_cycle: i64,
    next_seq: u64,
}

impl Default for SchedulingQueue {
    fn default() -> Self {
        Self::new(QueueConfig::default())
    }
}

impl SchedulingQueue {
    /// An empty queue: scheduling cycle 0, move request cycle −1.
    pub fn new(config: QueueConfig) -> Self {
        SchedulingQueue {
            mode: config.mode,
            backoff: PodBackoffMap::new(config.pod_initial_backoff, config.pod_max_backoff),
            pods: PodTable::default(),
            active: BTreeSet::new(),
            backoff_q: BTreeSet::new(),
            error_backoff_q: BTreeSet::new(),
            unschedulable: BTreeSet::new(),
            gated: BTreeSet::new(),
            nominated: NominatedPods::default(),
            scheduling_cycle: 0,
            move_request_cycle: -1,
            next_seq: 0,
        }
    }

    /// The queue's mode.
    pub fn mode(&self) -> QueueMode {
        self.mode
    }

    fn is_v135(&self) -> bool {
        self.mode == QueueMode::V1_35
    }

    // ---- sub-queue plumbing -------------------------------------------------------------

    fn backoff_key(&self, info: &QueuedPodInfo, expiry: Millis) -> BackoffKey {
        match self.mode {
            QueueMode::V1_17 => (expiry, (Reverse(0), Millis::ZERO, info.seq, info.pod)),
            QueueMode::V1_35 => (expiry, active_key(info)),
        }
    }

    fn insert(&mut self, info: QueuedPodInfo, place: Place) {
        self.insert_entry(Entry::new(info, place));
    }

    /// Puts `e` in `e.place`, computing the backoff key for the backoff heaps.
    fn insert_entry(&mut self, mut e: Entry) {
        let info = e.info;
        e.expiry = Millis::ZERO;
        match e.place {
            Place::Active => {
                self.active.insert(active_key(&info));
            }
            Place::Backoff | Place::ErrorBackoff => {
                e.expiry = match self.mode {
                    QueueMode::V1_17 => self.backoff.backoff_time(info.pod).unwrap_or(Millis::ZERO),
                    QueueMode::V1_35 => self.backoff_end_v135(&info),
                };
                let key = self.backoff_key(&info, e.expiry);
                if e.place == Place::Backoff {
                    self.backoff_q.insert(key);
                } else {
                    self.error_backoff_q.insert(key);
                }
            }
            Place::Unschedulable => {
                self.unschedulable.insert(time_key(&info));
            }
            Place::Gated => {
                self.gated.insert(time_key(&info));
            }
        }
        self.pods.insert(info.pod, e);
    }

    fn remove(&mut self, pod: PodId) -> Option<Entry> {
        let e = self.pods.remove(pod)?;
        match e.place {
            Place::Active => self.active.remove(&active_key(&e.info)),
            Place::Backoff => {
                let key = self.backoff_key(&e.info, e.expiry);
                self.backoff_q.remove(&key)
            }
            Place::ErrorBackoff => {
                let key = self.backoff_key(&e.info, e.expiry);
                self.error_backoff_q.remove(&key)
            }
            Place::Unschedulable => self.unschedulable.remove(&time_key(&e.info)),
            Place::Gated => self.gated.remove(&time_key(&e.info)),
        };
        Some(e)
    }

    /// Moves a queued pod to `place`, keeping its bookkeeping.
    fn move_to(&mut self, pod: PodId, place: Place) {
        if let Some(mut e) = self.remove(pod) {
            e.place = place;
            self.insert_entry(e);
        }
    }

    fn new_info(&mut self, pod: PodId, priority: i32, now: Millis) -> QueuedPodInfo {
        let seq = self.next_seq;
        self.next_seq += 1;
        QueuedPodInfo {
            pod,
            priority,
            timestamp: now,
            attempts: 0,
            initial_attempt_timestamp: now,
            seq,
            unschedulable_count: 0,
            consecutive_errors_count: 0,
        }
    }

    // ---- upstream operations ------------------------------------------------------------

    /// `Add`: a new pod (or a pod added again) goes to activeQ with `Timestamp = now` and
    /// 0 attempts (and, in v1.35 mode, zero counts), leaving any other sub-queue; the nomination
    /// is re-read from `status_nominated` (its `status.nominatedNodeName`). In v1.35 mode this is
    /// `Add` of a pod that passes every PreEnqueue plugin; see [`Self::add_gated`].
    pub fn add(&mut self, pod: PodId, priority: i32, status_nominated: Option<&str>, now: Millis) {
        self.remove(pod);
        let info = self.new_info(pod, priority, now);
        self.insert(info, Place::Active);
        self.nominated.add(pod, None, status_nominated);
    }

    /// `Pop`: the head of activeQ, with its attempts and the scheduling cycle incremented.
    /// In v1.35 mode, when activeQ is empty, the head of podBackoffQ even if it is still backing
    /// off (`SchedulerPopFromBackoffQ`; never podErrorBackoffQ). `None` when nothing can be
    /// popped (upstream blocks). The nomination stays.
    pub fn pop(&mut self) -> Option<QueuedPodInfo> {
        let pod = self.head()?.0;
        let mut info = self.remove(pod)?.info;
        info.attempts += 1;
        self.scheduling_cycle += 1;
        Some(info)
    }

    /// The pod [`Self::pop`] would return, and the sub-queue it would come from.
    pub fn head(&self) -> Option<(PodId, SubQueue)> {
        if let Some(k) = self.active.first() {
            return Some((k.3, SubQueue::Active));
        }
        if self.is_v135() {
            if let Some(k) = self.backoff_q.first() {
                return Some((k.1 .3, SubQueue::Backoff));
            }
        }
        None
    }

    /// Whether [`Self::pop`] would return a pod: activeQ is not empty, or (v1.35 mode)
    /// podBackoffQ is not. A simulator runs a cycle whenever this holds.
    pub fn can_pop(&self) -> bool {
        self.head().is_some()
    }

    /// `AddUnschedulableIfNotPresent`: puts a pod that failed back, with `Timestamp = now`,
    /// after recording the failure in its backoff record (unless it is still backing off). It
    /// goes to podBackoffQ if `moveRequestCycle >= pod_scheduling_cycle`, else to
    /// unschedulableQ. `pod_scheduling_cycle` is [`Self::scheduling_cycle`] as read after the pop
    /// that took the pod. The nomination is re-read from `status_nominated`.
    ///
    /// In v1.35 mode (no `moveRequestCycle`), this is [`Self::add_unschedulable_v135`] for a pod
    /// rejected by plugins whose names are not given (`UnschedulableCount++`, unschedulablePods;
    /// every event requeues it), with the nomination re-read as above.
    pub fn add_unschedulable_if_not_present(
        &mut self,
        mut info: QueuedPodInfo,
        pod_scheduling_cycle: i64,
        status_nominated: Option<&str>,
        now: Millis,
    ) -> Result<SubQueue, QueueError> {
        if let Some(e) = self.pods.get(info.pod) {
            return Err(QueueError::AlreadyPresent {
                pod: info.pod,
                queue: e.place.sub_queue(),
            });
        }
        if self.is_v135() {
            let to = self.requeue_failed_v135(info, true, None, false, now);
            self.nominated.add(info.pod, None, status_nominated);
            return Ok(to);
        }
        info.timestamp = now;
        self.backoff.backoff_pod(info.pod, now);
        let to = if self.move_request_cycle >= pod_scheduling_cycle {
            Place::Backoff
        } else {
            Place::Unschedulable
        };
        self.insert(info, to);
        self.nominated.add(info.pod, None, status_nominated);
        Ok(to.sub_queue())
    }

    /// `flushBackoffQCompleted` at tick `now`: every podBackoffQ pod whose expiry is not after
    /// `now` goes to activeQ, then (v1.35 mode) every such podErrorBackoffQ pod. Returns them in
    /// that order, each heap in its own order.
    pub fn flush_backoff_completed(&mut self, now: Millis) -> Vec<PodId> {
        let mut moved = Vec::new();
        for error_q in [false, true] {
            loop {
                let q = if error_q {
                    &self.error_backoff_q
                } else {
                    &self.backoff_q
                };
                let Some(&(expiry, (_, _, _, pod))) = q.first() else {
                    break;
                };
                if expiry > now {
                    break;
                }
                self.move_to(pod, Place::Active);
                moved.push(pod);
            }
        }
        moved
    }

    /// `flushUnschedulableQLeftover` at tick `now`: every unschedulableQ pod put back strictly
    /// more than 60 s before `now` moves (to podBackoffQ if still backing off, else activeQ).
    /// When some pod moves this is a move request (`UnschedulableTimeout`).
    ///
    /// In v1.35 mode (`flushUnschedulablePodsLeftover`): every non-gated pod of
    /// unschedulablePods queued strictly more than 5 minutes before `now`, through
    /// `queueAfterBackoff`.
    pub fn flush_unschedulable_leftover(&mut self, now: Millis) -> MoveReport {
        let interval = self.leftover_interval();
        let pods: Vec<PodId> = self
            .unschedulable
            .iter()
            .take_while(|(ts, _, _)| now.0.saturating_sub(ts.0) > interval.0)
            .map(|&(_, _, p)| p)
            .collect();
        if pods.is_empty() {
            return MoveReport {
                event: None,
                moved: Vec::new(),
            };
        }
        self.move_pods(pods, ClusterEvent::UnschedulableTimeout, now)
    }

    /// How long a pod waits in unschedulableQ / unschedulablePods before a leftover flush moves
    /// it (strictly more than this).
    fn leftover_interval(&self) -> Millis {
        match self.mode {
            QueueMode::V1_17 => UNSCHEDULABLE_Q_TIME_INTERVAL,
            QueueMode::V1_35 => POD_MAX_IN_UNSCHEDULABLE_PODS_DURATION,
        }
    }

    /// `movePodsToActiveOrBackoffQueue`: moves the given unschedulableQ pods, then sets
    /// `moveRequestCycle = schedulingCycle` (even for an empty list). In v1.35 mode: every
    /// given pod through `queueAfterBackoff`, and no move request.
    fn move_pods(&mut self, mut pods: Vec<PodId>, event: ClusterEvent, now: Millis) -> MoveReport {
        pods.sort_unstable();
        if self.is_v135() {
            let approved = pods.into_iter().map(|p| (p, false)).collect();
            return self.requeue_unschedulable_v135(approved, event, now);
        }
        let mut moved = Vec::with_capacity(pods.len());
        for pod in pods {
            if self.pods.get(pod).is_none() {
                continue;
            }
            let to = if self.backoff.is_backing_off(pod, now) {
                Place::Backoff
            } else {
                Place::Active
            };
            self.move_to(pod, to);
            moved.push(Moved {
                pod,
                to: to.sub_queue(),
            });
        }
        self.move_request_cycle = self.scheduling_cycle;
        MoveReport {
            event: Some(event),
            moved,
        }
    }

    /// `MoveAllToActiveOrBackoffQueue`: every unschedulableQ pod moves; a move request. In v1.35
    /// mode: every non-gated unschedulable pod, as if each hint said `Queue`.
    pub fn move_all_to_active_or_backoff(
        &mut self,
        event: ClusterEvent,
        now: Millis,
    ) -> MoveReport {
        let pods = self.unschedulable.iter().map(|&(_, _, p)| p).collect();
        self.move_pods(pods, event, now)
    }

    /// `AssignedPodAdded` / `AssignedPodUpdated`: moves the unschedulableQ pods for which
    /// `affinity_matches` is true (the caller tests their required pod-affinity terms against
    /// the assigned pod); a move request even when none match. In v1.35 mode: the selected
    /// non-gated pods, as if each hint said `Queue`.
    pub fn move_matching(
        &mut self,
        event: ClusterEvent,
        now: Millis,
        mut affinity_matches: impl FnMut(PodId) -> bool,
    ) -> MoveReport {
        let pods = self
            .unschedulable
            .iter()
            .map(|&(_, _, p)| p)
            .filter(|&p| affinity_matches(p))
            .collect();
        self.move_pods(pods, event, now)
    }

    /// A move request that moves nothing (`AssignedPodAdded` when no queued pod has a required
    /// pod-affinity term): only `moveRequestCycle = schedulingCycle`. In v1.35 mode, which has
    /// no move requests, nothing (event `None`).
    pub fn note_move_request(&mut self, event: ClusterEvent) -> MoveReport {
        if self.is_v135() {
            return MoveReport {
                event: None,
                moved: Vec::new(),
            };
        }
        self.move_request_cycle = self.scheduling_cycle;
        MoveReport {
            event: Some(event),
            moved: Vec::new(),
        }
    }

    /// Applies an informer event as `eventhandlers.go` does (table A.6). `affinity_matches` is
    /// used only for assigned pod add/update. In v1.35 mode the same table applies without
    /// QueueingHints (see [`Self::move_with_hints`] for them).
    pub fn on_cluster_event(
        &mut self,
        event: InformerEvent,
        now: Millis,
        affinity_matches: impl FnMut(PodId) -> bool,
    ) -> MoveReport {
        use ClusterEvent as E;
        let all = match event {
            InformerEvent::NodeAdd => E::NodeAdd,
            InformerEvent::NodeUpdate(change) => {
                if self.unschedulable.is_empty() {
                    E::Unknown
                } else if let Some(e) = change.event() {
                    e
                } else {
                    return MoveReport {
                        event: None,
                        moved: Vec::new(),
                    };
                }
            }
            InformerEvent::NodeDelete
            | InformerEvent::StorageClassAdd {
                wait_for_first_consumer: false,
            } => {
                return MoveReport {
                    event: None,
                    moved: Vec::new(),
                };
            }
            InformerEvent::AssignedPodAdd => {
                return self.move_matching(E::AssignedPodAdd, now, affinity_matches);
            }
            InformerEvent::AssignedPodUpdate => {
                return self.move_matching(E::AssignedPodUpdate, now, affinity_matches);
            }
            InformerEvent::AssignedPodDelete => E::AssignedPodDelete,
            InformerEvent::PvAdd => E::PvAdd,
            InformerEvent::PvUpdate => E::PvUpdate,
            InformerEvent::PvcAdd => E::PvcAdd,
            InformerEvent::PvcUpdate => E::PvcUpdate,
            InformerEvent::StorageClassAdd {
                wait_for_first_consumer: true,
            } => E::StorageClassAdd,
            InformerEvent::ServiceAdd => E::ServiceAdd,
            InformerEvent::ServiceUpdate => E::ServiceUpdate,
            InformerEvent::ServiceDelete => E::ServiceDelete,
            InformerEvent::CsiNodeAdd => E::CsiNodeAdd,
            InformerEvent::CsiNodeUpdate => E::CsiNodeUpdate,
        };
        self.move_all_to_active_or_backoff(all, now)
    }

    /// `Update` of a pending pod. `spec_changed` is upstream's `isPodUpdated` (the pod differs in
    /// more than `ResourceVersion`, `Generation` and `Status`); `old_nominated`/`new_nominated`
    /// are the `status.nominatedNodeName` of the old and new object.
    ///
    /// - in activeQ: updated in place (timestamp kept);
    /// - in podBackoffQ: moved to activeQ (timestamp kept, backoff record kept);
    /// - in unschedulableQ: with `spec_changed`, the backoff record is cleared and the pod moves
    ///   to activeQ (timestamp kept); otherwise it stays;
    /// - in no queue: added to activeQ with `Timestamp = now`.
    ///
    /// In v1.35 mode: activeQ and both backoff heaps update in place; an unschedulable pod with
    /// `spec_changed` goes through `queueAfterBackoff`, otherwise it stays; a gated pod stays
    /// (see [`Self::ungate`]); a pod in no queue is added to activeQ.
    ///
    /// Returns where the pod is afterwards.
    pub fn update(
        &mut self,
        pod: PodId,
        priority: i32,
        old_nominated: Option<&str>,
        new_nominated: Option<&str>,
        spec_changed: bool,
        now: Millis,
    ) -> SubQueue {
        let Some(place) = self.pods.get(pod).map(|e| e.place) else {
            let info = self.new_info(pod, priority, now);
            self.insert(info, Place::Active);
            self.nominated.add(pod, None, new_nominated);
            return SubQueue::Active;
        };
        self.nominated.update(pod, old_nominated, new_nominated);
        let Some(mut e) = self.remove(pod) else {
            return place.sub_queue();
        };
        e.info.priority = priority;
        if self.is_v135() {
            if place == Place::Unschedulable && spec_changed {
                return self.requeue_v135(e, false, now);
            }
            self.insert_entry(e);
            return place.sub_queue();
        }
        e.place = match place {
            Place::Active | Place::Backoff | Place::ErrorBackoff => Place::Active,
            Place::Unschedulable if spec_changed => {
                self.backoff.clear(pod);
                Place::Active
            }
            Place::Unschedulable | Place::Gated => place,
        };
        let to = e.place.sub_queue();
        self.insert_entry(e);
        to
    }

    /// `Delete`: drops the nomination and the pod. Like upstream, the backoff record is cleared
    /// only when the pod was not in activeQ (v1.17; v1.35's counts go with the pod).
    pub fn delete(&mut self, pod: PodId) {
        self.nominated.delete(pod);
        match self.remove(pod) {
            Some(e) if e.place == Place::Active => {}
            _ => self.backoff.clear(pod),
        }
    }

    // ---- nominated pods -----------------------------------------------------------------

    /// `UpdateNominatedPodForNode`: records the nomination in memory (after preemption).
    pub fn update_nominated_pod_for_node(&mut self, pod: PodId, node: &str) {
        self.nominated.add(pod, Some(node), None);
    }

    /// `DeleteNominatedPodIfExists` (called when the pod is assumed).
    pub fn delete_nominated_pod_if_exists(&mut self, pod: PodId) {
        self.nominated.delete(pod);
    }

    /// `NominatedPodsForNode`, in nomination order. The caller filters by priority (A.7).
    pub fn nominated_pods_for_node(&self, node: &str) -> &[PodId] {
        self.nominated.for_node(node)
    }

    /// The nominations.
    pub fn nominated(&self) -> &NominatedPods {
        &self.nominated
    }

    // ---- clock helpers ------------------------------------------------------------------

    /// The earliest expiry in podBackoffQ (and, v1.35, podErrorBackoffQ).
    pub fn next_backoff_expiry(&self) -> Option<Millis> {
        let a = self.backoff_q.first().map(|k| k.0);
        let b = self.error_backoff_q.first().map(|k| k.0);
        match (a, b) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The first 1 s tick at or after `from` at which `flush_backoff_completed` would move a
    /// pod, or `None` when the backoff heaps are empty.
    pub fn next_backoff_flush(&self, from: Millis) -> Option<Millis> {
        let expiry = self.next_backoff_expiry()?;
        Some(expiry.max(from).ceil_to(BACKOFF_FLUSH_PERIOD))
    }

    /// The first 30 s tick at or after `from` at which `flush_unschedulable_leftover` would move
    /// a pod, or `None` when no pod can be moved by it (unschedulableQ empty; in v1.35 mode,
    /// no non-gated pod in unschedulablePods).
    pub fn next_leftover_flush(&self, from: Millis) -> Option<Millis> {
        let &(ts, _, _) = self.unschedulable.first()?;
        let p = LEFTOVER_FLUSH_PERIOD.0;
        // The smallest multiple of 30 s strictly greater than ts + 60 s (v1.35: + 5 min).
        let first = (ts.0.saturating_add(self.leftover_interval().0) / p)
            .saturating_add(1)
            .saturating_mul(p);
        Some(Millis(first).max(from.ceil_to(LEFTOVER_FLUSH_PERIOD)))
    }

    /// The earlier of [`Self::next_backoff_flush`] and [`Self::next_leftover_flush`].
    pub fn next_flush(&self, from: Millis) -> Option<Millis> {
        match (
            self.next_backoff_flush(from),
            self.next_leftover_flush(from),
        ) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    // ---- read-only accessors ------------------------------------------------------------

    /// `SchedulingCycle()`: the number of pops so far.
    pub fn scheduling_cycle(&self) -> i64 {
        self.scheduling_cycle
    }

    /// The cycle of the latest move request (−1 before any; always −1 in v1.35 mode).
    pub fn move_request_cycle(&self) -> i64 {
        self.move_request_cycle
    }

    /// `NumUnschedulablePods()`; in v1.35 mode the non-gated pods only.
    pub fn num_unschedulable_pods(&self) -> usize {
        self.unschedulable.len()
    }

    /// Pods in activeQ.
    pub fn num_active_pods(&self) -> usize {
        self.active.len()
    }

    /// Pods in podBackoffQ (and, v1.35, podErrorBackoffQ).
    pub fn num_backoff_pods(&self) -> usize {
        self.backoff_q.len() + self.error_backoff_q.len()
    }

    /// Gated pods (v1.35; always 0 in v1.17 mode).
    pub fn num_gated_pods(&self) -> usize {
        self.gated.len()
    }

    /// All queued pods, gated ones included.
    pub fn len(&self) -> usize {
        self.pods.len()
    }

    /// Whether no pod is queued.
    pub fn is_empty(&self) -> bool {
        self.pods.is_empty()
    }

    /// The sub-queue holding `pod`.
    pub fn queue_of(&self, pod: PodId) -> Option<SubQueue> {
        self.pods.get(pod).map(|e| e.place.sub_queue())
    }

    /// Whether `pod` is a gated pod (v1.35).
    pub fn is_gated(&self, pod: PodId) -> bool {
        self.pods.get(pod).is_some_and(|e| e.place == Place::Gated)
    }

    /// The queued pod's bookkeeping.
    pub fn info(&self, pod: PodId) -> Option<&QueuedPodInfo> {
        self.pods.get(pod).map(|e| &e.info)
    }

    /// The pods in unschedulableQ (v1.35: the non-gated pods of unschedulablePods), by the time
    /// they were put back.
    pub fn unschedulable_pods(&self) -> impl Iterator<Item = PodId> + '_ {
        self.unschedulable.iter().map(|k| k.2)
    }

    /// The gated pods (v1.35), by the time they were added.
    pub fn gated_pods(&self) -> impl Iterator<Item = PodId> + '_ {
        self.gated.iter().map(|k| k.2)
    }

    /// The pods in podErrorBackoffQ (v1.35), in its order. They leave only at a backoff flush,
    /// so a simulator that ends a run when nothing can change has to decide whether retrying
    /// a pod whose error persists counts as a change.
    pub fn error_backoff_pods(&self) -> impl Iterator<Item = PodId> + '_ {
        self.error_backoff_q.iter().map(|k| k.1 .3)
    }

    /// The backoff records (v1.17; empty in v1.35 mode).
    pub fn backoff_map(&self) -> &PodBackoffMap {
        &self.backoff
    }

    /// Every queued pod: activeQ in pop order, then podBackoffQ in its order, then
    /// podErrorBackoffQ (v1.35), then unschedulableQ by the time it was put back, then the gated
    /// pods (v1.35) by the time they were added.
    pub fn view(&self) -> Vec<QueuedPodView> {
        let order = self
            .active
            .iter()
            .map(|k| k.3)
            .chain(self.backoff_q.iter().map(|k| k.1 .3))
            .chain(self.error_backoff_q.iter().map(|k| k.1 .3))
            .chain(self.unschedulable.iter().map(|k| k.2))
            .chain(self.gated.iter().map(|k| k.2));
        order
            .filter_map(|pod| self.pods.get(pod))
            .map(|e| {
                let pod = e.info.pod;
                let in_backoff = matches!(e.place, Place::Backoff | Place::ErrorBackoff);
                let (backoff_attempts, backoff_expiry) = match self.mode {
                    QueueMode::V1_17 => (
                        self.backoff.record(pod).map_or(0, |r| r.attempts),
                        if in_backoff {
                            Some(e.expiry)
                        } else {
                            self.backoff.backoff_time(pod)
                        },
                    ),
                    QueueMode::V1_35 => (
                        e.info.backoff_count(),
                        if in_backoff {
                            Some(e.expiry)
                        } else if e.place == Place::Gated {
                            None
                        } else {
                            Some(self.backoff_end_v135(&e.info)).filter(|&t| t > Millis::ZERO)
                        },
                    ),
                };
                QueuedPodView {
                    pod,
                    queue: e.place.sub_queue(),
                    priority: e.info.priority,
                    attempts: e.info.attempts,
                    timestamp: e.info.timestamp,
                    backoff_attempts,
                    backoff_expiry,
                    nominated_node: self.nominated.node_of(pod).map(str::to_string),
                    gated: e.place == Place::Gated,
                    error_backoff: e.place == Place::ErrorBackoff,
                    rejector_plugins: e.plugins().to_vec(),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_v135;
