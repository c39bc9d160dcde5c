//! The scheduling queue of kube-scheduler v1.17 (`internal/queue/scheduling_queue.go` and
//! `pod_backoff.go`) on a virtual clock, as a standalone module: nothing else uses it yet.
//!
//! See `shared/reference/queue-preemption.md` section A and the CLI contract, "How a run
//! proceeds".
//!
//! # Modelled
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
//! # Simplified
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

mod backoff;
mod events;
mod nominated;

use std::cmp::Reverse;
use std::collections::BTreeSet;

pub use backoff::{BackoffRecord, PodBackoffMap};
pub use events::{ClusterEvent, InformerEvent, NodeChange};
pub use nominated::NominatedPods;

use crate::cluster::PodId;

/// Virtual time or a duration, in integer milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Millis(pub u64);

impl Millis {
    /// Zero.
    pub const ZERO: Millis = Millis(0);

    /// Whole seconds.
    pub const fn secs(s: u64) -> Millis {
        Millis(s.saturating_mul(1000))
    }

    /// `self + d`, saturating.
    pub const fn plus(self, d: Millis) -> Millis {
        Millis(self.0.saturating_add(d.0))
    }

    /// Seconds as a float, for reports.
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / 1000.0
    }

    /// The smallest multiple of `period` that is `>= self` (`period` > 0).
    pub fn ceil_to(self, period: Millis) -> Millis {
        Millis(self.0.div_ceil(period.0).saturating_mul(period.0))
    }
}

/// Go's `time.Duration` spelling: `0s`, `500ms`, `1.5s`, `1m30s`, `2h0m5s`.
impl std::fmt::Display for Millis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ms = self.0;
        if ms == 0 {
            return f.write_str("0s");
        }
        if ms < 1000 {
            return write!(f, "{ms}ms");
        }
        let (h, m) = (ms / 3_600_000, ms / 60_000 % 60);
        let (s, frac) = (ms / 1000 % 60, ms % 1000);
        if h > 0 {
            write!(f, "{h}h{m}m")?;
        } else if m > 0 {
            write!(f, "{m}m")?;
        }
        if frac == 0 {
            write!(f, "{s}s")
        } else {
            let frac = format!("{frac:03}");
            write!(f, "{s}.{}s", frac.trim_end_matches('0'))
        }
    }
}

/// Period of `flushBackoffQCompleted`.
pub const BACKOFF_FLUSH_PERIOD: Millis = Millis::secs(1);
/// Period of `flushUnschedulableQLeftover`.
pub const LEFTOVER_FLUSH_PERIOD: Millis = Millis::secs(30);
/// `unschedulableQTimeInterval`: a leftover moves after waiting strictly longer than this.
pub const UNSCHEDULABLE_Q_TIME_INTERVAL: Millis = Millis::secs(60);
/// `DefaultPodInitialBackoffDuration`.
pub const DEFAULT_POD_INITIAL_BACKOFF: Millis = Millis::secs(1);
/// `DefaultPodMaxBackoffDuration`.
pub const DEFAULT_POD_MAX_BACKOFF: Millis = Millis::secs(10);

/// Queue settings from the configuration (`podInitialBackoffSeconds`, `podMaxBackoffSeconds`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueueConfig {
    pub pod_initial_backoff: Millis,
    pub pod_max_backoff: Millis,
}

impl Default for QueueConfig {
    fn default() -> Self {
        QueueConfig {
            pod_initial_backoff: DEFAULT_POD_INITIAL_BACKOFF,
            pod_max_backoff: DEFAULT_POD_MAX_BACKOFF,
        }
    }
}

impl QueueConfig {
    /// From the configuration's seconds (validated elsewhere: initial > 0, max >= initial);
    /// negative values count as 0 and huge ones saturate.
    pub fn from_seconds(initial: i64, max: i64) -> Self {
        QueueConfig {
            pod_initial_backoff: Millis::secs(initial.max(0) as u64),
            pod_max_backoff: Millis::secs(max.max(0) as u64),
        }
    }
}

/// The three sub-queues.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SubQueue {
    Active,
    Backoff,
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
/// [`SchedulingQueue::add_unschedulable_if_not_present`] takes it back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueuedPodInfo {
    pub pod: PodId,
    pub priority: i32,
    /// The time the pod was last queued (`Timestamp`).
    pub timestamp: Millis,
    /// Pops so far (v1.18 `Attempts`; informational).
    pub attempts: u32,
    /// When the pod was first added (`InitialAttemptTimestamp`).
    pub initial_attempt_timestamp: Millis,
    /// Tie-break for equal priority and timestamp: the order in which pods were added.
    pub seq: u64,
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
    pub event: Option<ClusterEvent>,
    /// The pods moved, by pod id.
    pub moved: Vec<Moved>,
}

/// Errors where upstream logs or returns an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueError {
    /// `AddUnschedulableIfNotPresent` on a pod that is already queued.
    AlreadyPresent { pod: PodId, queue: SubQueue },
}

impl std::fmt::Display for QueueError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            QueueError::AlreadyPresent { queue, .. } => {
                write!(f, "pod is already present in the {}", queue.name())
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
    /// Recorded failures in the backoff record (0 without one).
    pub backoff_attempts: u32,
    /// Backoff expiry: the podBackoffQ key for pods there, otherwise the record's expiry if the
    /// pod has a record (it may lie in the past).
    pub backoff_expiry: Option<Millis>,
    pub nominated_node: Option<String>,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    info: QueuedPodInfo,
    queue: SubQueue,
    /// The podBackoffQ key, for pods in podBackoffQ.
    expiry: Millis,
}

type ActiveKey = (Reverse<i32>, Millis, u64, PodId);

fn active_key(i: &QueuedPodInfo) -> ActiveKey {
    (Reverse(i.priority), i.timestamp, i.seq, i.pod)
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

/// kube-scheduler v1.17's `PriorityQueue` on a virtual clock.
#[derive(Clone, Debug)]
pub struct SchedulingQueue {
    backoff: PodBackoffMap,
    /// By pod id (a flat table: cheap to clone for checkpoints).
    pods: PodTable,
    active: BTreeSet<ActiveKey>,
    /// `(expiry, seq, pod)`.
    backoff_q: BTreeSet<(Millis, u64, PodId)>,
    /// `(timestamp, seq, pod)`.
    unschedulable: BTreeSet<(Millis, u64, PodId)>,
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
            backoff: PodBackoffMap::new(config.pod_initial_backoff, config.pod_max_backoff),
            pods: PodTable::default(),
            active: BTreeSet::new(),
            backoff_q: BTreeSet::new(),
            unschedulable: BTreeSet::new(),
            nominated: NominatedPods::default(),
            scheduling_cycle: 0,
            move_request_cycle: -1,
            next_seq: 0,
        }
    }

    // ---- sub-queue plumbing -------------------------------------------------------------

    fn insert(&mut self, info: QueuedPodInfo, queue: SubQueue) {
        let expiry = match queue {
            SubQueue::Active => {
                self.active.insert(active_key(&info));
                Millis::ZERO
            }
            SubQueue::Backoff => {
                let e = self.backoff.backoff_time(info.pod).unwrap_or(Millis::ZERO);
                self.backoff_q.insert((e, info.seq, info.pod));
                e
            }
            SubQueue::Unschedulable => {
                self.unschedulable
                    .insert((info.timestamp, info.seq, info.pod));
                Millis::ZERO
            }
        };
        self.pods.insert(
            info.pod,
            Entry {
                info,
                queue,
                expiry,
            },
        );
    }

    fn remove(&mut self, pod: PodId) -> Option<Entry> {
        let e = self.pods.remove(pod)?;
        match e.queue {
            SubQueue::Active => self.active.remove(&active_key(&e.info)),
            SubQueue::Backoff => self.backoff_q.remove(&(e.expiry, e.info.seq, pod)),
            SubQueue::Unschedulable => {
                self.unschedulable
                    .remove(&(e.info.timestamp, e.info.seq, pod))
            }
        };
        Some(e)
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
        }
    }

    // ---- upstream operations ------------------------------------------------------------

    /// `Add`: a new pod (or a pod added again) goes to activeQ with `Timestamp = now` and
    /// 0 attempts, leaving any other sub-queue; the nomination is re-read from `status_nominated`
    /// (its `status.nominatedNodeName`).
    pub fn add(&mut self, pod: PodId, priority: i32, status_nominated: Option<&str>, now: Millis) {
        self.remove(pod);
        let info = self.new_info(pod, priority, now);
        self.insert(info, SubQueue::Active);
        self.nominated.add(pod, None, status_nominated);
    }

    /// `Pop`: the head of activeQ, with its attempts and the scheduling cycle incremented.
    /// `None` when activeQ is empty (upstream blocks). The nomination stays.
    pub fn pop(&mut self) -> Option<QueuedPodInfo> {
        let &(_, _, _, pod) = self.active.first()?;
        let mut info = self.remove(pod)?.info;
        info.attempts += 1;
        self.scheduling_cycle += 1;
        Some(info)
    }

    /// `AddUnschedulableIfNotPresent`: puts a pod that failed back, with `Timestamp = now`,
    /// after recording the failure in its backoff record (unless it is still backing off). It
    /// goes to podBackoffQ if `moveRequestCycle >= pod_scheduling_cycle`, else to
    /// unschedulableQ. `pod_scheduling_cycle` is [`Self::scheduling_cycle`] as read after the pop
    /// that took the pod. The nomination is re-read from `status_nominated`.
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
                queue: e.queue,
            });
        }
        info.timestamp = now;
        self.backoff.backoff_pod(info.pod, now);
        let to = if self.move_request_cycle >= pod_scheduling_cycle {
            SubQueue::Backoff
        } else {
            SubQueue::Unschedulable
        };
        self.insert(info, to);
        self.nominated.add(info.pod, None, status_nominated);
        Ok(to)
    }

    /// `flushBackoffQCompleted` at tick `now`: every podBackoffQ pod whose expiry is not after
    /// `now` goes to activeQ. Returns them in expiry order.
    pub fn flush_backoff_completed(&mut self, now: Millis) -> Vec<PodId> {
        let mut moved = Vec::new();
        while let Some(&(expiry, _, pod)) = self.backoff_q.first() {
            if expiry > now {
                break;
            }
            if let Some(e) = self.remove(pod) {
                self.insert(e.info, SubQueue::Active);
            }
            moved.push(pod);
        }
        moved
    }

    /// `flushUnschedulableQLeftover` at tick `now`: every unschedulableQ pod put back strictly
    /// more than 60 s before `now` moves (to podBackoffQ if still backing off, else activeQ).
    /// When some pod moves this is a move request (`UnschedulableTimeout`).
    pub fn flush_unschedulable_leftover(&mut self, now: Millis) -> MoveReport {
        let pods: Vec<PodId> = self
            .unschedulable
            .iter()
            .take_while(|(ts, _, _)| now.0.saturating_sub(ts.0) > UNSCHEDULABLE_Q_TIME_INTERVAL.0)
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

    /// `movePodsToActiveOrBackoffQueue`: moves the given unschedulableQ pods, then sets
    /// `moveRequestCycle = schedulingCycle` (even for an empty list).
    fn move_pods(&mut self, mut pods: Vec<PodId>, event: ClusterEvent, now: Millis) -> MoveReport {
        pods.sort_unstable();
        let mut moved = Vec::with_capacity(pods.len());
        for pod in pods {
            let Some(e) = self.remove(pod) else { continue };
            let to = if self.backoff.is_backing_off(pod, now) {
                SubQueue::Backoff
            } else {
                SubQueue::Active
            };
            self.insert(e.info, to);
            moved.push(Moved { pod, to });
        }
        self.move_request_cycle = self.scheduling_cycle;
        MoveReport {
            event: Some(event),
            moved,
        }
    }

    /// `MoveAllToActiveOrBackoffQueue`: every unschedulableQ pod moves; a move request.
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
    /// the assigned pod); a move request even when none match.
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
    /// pod-affinity term): only `moveRequestCycle = schedulingCycle`.
    pub fn note_move_request(&mut self, event: ClusterEvent) -> MoveReport {
        self.move_request_cycle = self.scheduling_cycle;
        MoveReport {
            event: Some(event),
            moved: Vec::new(),
        }
    }

    /// Applies an informer event as `eventhandlers.go` does (table A.6). `affinity_matches` is
    /// used only for assigned pod add/update.
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
        let Some(queue) = self.pods.get(pod).map(|e| e.queue) else {
            let info = self.new_info(pod, priority, now);
            self.insert(info, SubQueue::Active);
            self.nominated.add(pod, None, new_nominated);
            return SubQueue::Active;
        };
        self.nominated.update(pod, old_nominated, new_nominated);
        let to = match queue {
            SubQueue::Active | SubQueue::Backoff => SubQueue::Active,
            SubQueue::Unschedulable if spec_changed => {
                self.backoff.clear(pod);
                SubQueue::Active
            }
            SubQueue::Unschedulable => SubQueue::Unschedulable,
        };
        if let Some(mut e) = self.remove(pod) {
            e.info.priority = priority;
            self.insert(e.info, to);
        }
        to
    }

    /// `Delete`: drops the nomination and the pod. Like upstream, the backoff record is cleared
    /// only when the pod was not in activeQ.
    pub fn delete(&mut self, pod: PodId) {
        self.nominated.delete(pod);
        match self.remove(pod) {
            Some(e) if e.queue == SubQueue::Active => {}
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

    /// The earliest expiry in podBackoffQ.
    pub fn next_backoff_expiry(&self) -> Option<Millis> {
        self.backoff_q.first().map(|k| k.0)
    }

    /// The first 1 s tick at or after `from` at which `flush_backoff_completed` would move a
    /// pod, or `None` when podBackoffQ is empty.
    pub fn next_backoff_flush(&self, from: Millis) -> Option<Millis> {
        let &(expiry, _, _) = self.backoff_q.first()?;
        Some(expiry.max(from).ceil_to(BACKOFF_FLUSH_PERIOD))
    }

    /// The first 30 s tick at or after `from` at which `flush_unschedulable_leftover` would move
    /// a pod, or `None` when unschedulableQ is empty.
    pub fn next_leftover_flush(&self, from: Millis) -> Option<Millis> {
        let &(ts, _, _) = self.unschedulable.first()?;
        let p = LEFTOVER_FLUSH_PERIOD.0;
        // The smallest multiple of 30 s strictly greater than ts + 60 s.
        let first = (ts.0.saturating_add(UNSCHEDULABLE_Q_TIME_INTERVAL.0) / p)
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

    /// The cycle of the latest move request (−1 before any).
    pub fn move_request_cycle(&self) -> i64 {
        self.move_request_cycle
    }

    /// `NumUnschedulablePods()`.
    pub fn num_unschedulable_pods(&self) -> usize {
        self.unschedulable.len()
    }

    /// Pods in activeQ.
    pub fn num_active_pods(&self) -> usize {
        self.active.len()
    }

    /// Pods in podBackoffQ.
    pub fn num_backoff_pods(&self) -> usize {
        self.backoff_q.len()
    }

    /// All queued pods.
    pub fn len(&self) -> usize {
        self.pods.len()
    }

    /// Whether no pod is queued.
    pub fn is_empty(&self) -> bool {
        self.pods.is_empty()
    }

    /// The sub-queue holding `pod`.
    pub fn queue_of(&self, pod: PodId) -> Option<SubQueue> {
        self.pods.get(pod).map(|e| e.queue)
    }

    /// The queued pod's bookkeeping.
    pub fn info(&self, pod: PodId) -> Option<&QueuedPodInfo> {
        self.pods.get(pod).map(|e| &e.info)
    }

    /// The pods in unschedulableQ, by the time they were put back.
    pub fn unschedulable_pods(&self) -> impl Iterator<Item = PodId> + '_ {
        self.unschedulable.iter().map(|k| k.2)
    }

    /// The backoff records.
    pub fn backoff_map(&self) -> &PodBackoffMap {
        &self.backoff
    }

    /// Every queued pod: activeQ in pop order, then podBackoffQ in expiry order, then
    /// unschedulableQ by the time it was put back.
    pub fn view(&self) -> Vec<QueuedPodView> {
        let order = self
            .active
            .iter()
            .map(|k| k.3)
            .chain(self.backoff_q.iter().map(|k| k.2))
            .chain(self.unschedulable.iter().map(|k| k.2));
        order
            .filter_map(|pod| self.pods.get(pod))
            .map(|e| {
                let pod = e.info.pod;
                let rec = self.backoff.record(pod);
                QueuedPodView {
                    pod,
                    queue: e.queue,
                    priority: e.info.priority,
                    attempts: e.info.attempts,
                    timestamp: e.info.timestamp,
                    backoff_attempts: rec.map_or(0, |r| r.attempts),
                    backoff_expiry: if e.queue == SubQueue::Backoff {
                        Some(e.expiry)
                    } else {
                        self.backoff.backoff_time(pod)
                    },
                    nominated_node: self.nominated.node_of(pod).map(str::to_string),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
