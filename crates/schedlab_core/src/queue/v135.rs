//! The operations of v1.35 mode ([`QueueMode::V1_35`]): gated pods, failures with rejector
//! plugins and counts, the backoff with its 1 s window, QueueingHints and `activate`. The module
//! docs of [`super`] list what is modelled and what is simplified.

use std::sync::Arc;

use super::{
    ClusterEvent, Entry, Millis, MoveReport, Moved, Place, QueueError, QueueMode, QueuedPodInfo,
    SchedulingQueue, SubQueue, BACKOFF_Q_ORDERING_WINDOW,
};
use crate::cluster::PodId;

/// v1.35's `calculateBackoffDuration` for a pod whose backoff count
/// ([`QueuedPodInfo::backoff_count`]) is `count`: `None` (no backoff) when `count == 0` or
/// `max == 0`; otherwise `initial << (count − 1)`, or `max` when
/// `initial > max >> (count − 1)`. With 1 s and 10 s: 1, 2, 4, 8, 10, 10 … s.
pub(super) fn backoff_duration_v135(initial: Millis, max: Millis, count: u32) -> Option<Millis> {
    if max.0 == 0 || count == 0 {
        return None;
    }
    let shift = count - 1;
    // Go's `x >> s` is 0 for s >= 64; Rust's `checked_shr` says so with `None`.
    let max_shifted = max.0.checked_shr(shift).unwrap_or(0);
    if initial.0 > max_shifted {
        Some(max)
    } else {
        // initial <= max >> shift, so initial << shift <= max: no overflow.
        Some(Millis(initial.0.checked_shl(shift).unwrap_or(0)))
    }
}

impl SchedulingQueue {
    /// v1.35: the first instant at which the pod is no longer backing off, `window + 1 s` with
    /// `window = ⌊Timestamp + duration⌋₁ₛ` (upstream's `BackoffExpiration`, aligned to the
    /// ordering window; the pod backs off while `window ≥ ⌊now⌋₁ₛ`, i.e. while
    /// `now < window + 1 s`). `Millis::ZERO` when the pod has no backoff.
    pub(super) fn backoff_end_v135(&self, info: &QueuedPodInfo) -> Millis {
        let Some(d) = backoff_duration_v135(
            self.backoff.initial(),
            self.backoff.max(),
            info.backoff_count(),
        ) else {
            return Millis::ZERO;
        };
        info.timestamp
            .plus(d)
            .floor_to(BACKOFF_Q_ORDERING_WINDOW)
            .plus(BACKOFF_Q_ORDERING_WINDOW)
    }

    /// Whether a queued pod is still backing off at `now`: v1.17, its backoff record's expiry
    /// is after `now`; v1.35, its backoff window is not before `now`'s (`isPodBackingoff`).
    /// `false` for a pod that is not queued, and for a gated pod.
    pub fn is_backing_off(&self, pod: PodId, now: Millis) -> bool {
        match self.mode {
            QueueMode::V1_17 => {
                self.pods.get(pod).is_some() && self.backoff.is_backing_off(pod, now)
            }
            QueueMode::V1_35 => self
                .pods
                .get(pod)
                .filter(|e| e.place != Place::Gated)
                .is_some_and(|e| self.backoff_end_v135(&e.info) > now),
        }
    }

    /// v1.35 `Add` of a pod that a PreEnqueue plugin (`gating_plugin`, e.g. `SchedulingGates`)
    /// rejects: it is parked in unschedulablePods, flagged gated, with `Timestamp = now`, no
    /// attempt and no backoff, and leaves it only through [`Self::ungate`]. A pod queued before
    /// is taken out first. The nominations are untouched.
    ///
    /// In v1.17 mode, which knows no scheduling gates, this is [`Self::add`] with no nomination.
    pub fn add_gated(
        &mut self,
        pod: PodId,
        priority: i32,
        gating_plugin: &'static str,
        now: Millis,
    ) {
        if !self.is_v135() {
            self.add(pod, priority, None, now);
            return;
        }
        self.remove(pod);
        let info = self.new_info(pod, priority, now);
        let mut e = Entry::new(info, Place::Gated);
        e.plugins = Some(Arc::from([gating_plugin]));
        self.insert_entry(e);
    }

    /// v1.35: the gated pod's gates were removed (its gating plugin's hint says `Queue` and
    /// PreEnqueue now passes): it moves to activeQ, keeping the `Timestamp` of its `Add`, so it
    /// sorts among equal-priority pods by when it was added; its `InitialAttemptTimestamp`
    /// becomes `now` (upstream sets it when the pod first enters activeQ). Returns `false`, and
    /// does nothing, when the pod is not gated.
    pub fn ungate(&mut self, pod: PodId, now: Millis) -> bool {
        if !self.is_gated(pod) {
            return false;
        }
        let Some(mut e) = self.remove(pod) else {
            return false;
        };
        e.place = Place::Active;
        e.plugins = None;
        e.info.initial_attempt_timestamp = now;
        self.insert_entry(e);
        true
    }

    /// v1.35 `AddUnschedulableIfNotPresent` for a popped pod whose cycle failed at `now`.
    /// `rejectors` are the plugins that rejected it (its `UnschedulablePlugins`, or with
    /// `pending` its `PendingPlugins`); empty means the cycle failed with an error (a plugin
    /// error, a bind failure …).
    ///
    /// - with rejectors: `UnschedulableCount++`, `ConsecutiveErrorsCount = 0`, and the pod goes
    ///   to unschedulablePods (`queueSkip`: no cluster event can have arrived during a cycle
    ///   that takes no time, so none is replayed through the hints);
    /// - without: `ConsecutiveErrorsCount++` and `queueAfterBackoff`: podErrorBackoffQ while
    ///   backing off, else activeQ.
    ///
    /// `Timestamp = now` either way, and the nomination is left alone. Returns the sub-queue
    /// the pod went to; an error if it is already queued, or if the queue is in v1.17 mode.
    pub fn add_unschedulable_v135(
        &mut self,
        info: QueuedPodInfo,
        rejectors: Vec<&'static str>,
        pending: bool,
        now: Millis,
    ) -> Result<SubQueue, QueueError> {
        if !self.is_v135() {
            return Err(QueueError::WrongMode { pod: info.pod });
        }
        if let Some(e) = self.pods.get(info.pod) {
            return Err(QueueError::AlreadyPresent {
                pod: info.pod,
                queue: e.place.sub_queue(),
            });
        }
        let rejected = !rejectors.is_empty();
        let plugins = rejected.then(|| Arc::from(rejectors));
        Ok(self.requeue_failed_v135(info, rejected, plugins, pending && rejected, now))
    }

    /// The counts, the timestamp and the queue of a failed pod (see
    /// [`Self::add_unschedulable_v135`]); `rejected` is false for an error.
    pub(super) fn requeue_failed_v135(
        &mut self,
        mut info: QueuedPodInfo,
        rejected: bool,
        plugins: Option<Arc<[&'static str]>>,
        pending: bool,
        now: Millis,
    ) -> SubQueue {
        if rejected {
            info.unschedulable_count = info.unschedulable_count.saturating_add(1);
            info.consecutive_errors_count = 0;
        } else {
            info.consecutive_errors_count = info.consecutive_errors_count.saturating_add(1);
        }
        info.timestamp = now;
        let mut e = Entry::new(info, Place::Unschedulable);
        e.plugins = plugins;
        e.pending = pending;
        if rejected {
            self.insert_entry(e);
            SubQueue::Unschedulable
        } else {
            self.requeue_v135(e, false, now)
        }
    }

    /// `requeuePodWithQueueingStrategy` for a pod taken out of unschedulablePods (or just
    /// failed): `queueImmediately` (`immediately`) → activeQ; `queueAfterBackoff` → podBackoffQ
    /// (podErrorBackoffQ after an error) while backing off, else activeQ.
    pub(super) fn requeue_v135(
        &mut self,
        mut e: Entry,
        immediately: bool,
        now: Millis,
    ) -> SubQueue {
        e.place = if !immediately && self.backoff_end_v135(&e.info) > now {
            if e.info.consecutive_errors_count > 0 {
                Place::ErrorBackoff
            } else {
                Place::Backoff
            }
        } else {
            Place::Active
        };
        let to = e.place.sub_queue();
        self.insert_entry(e);
        to
    }

    /// Requeues the given unschedulable pods (`(pod, queue immediately)`), in the given order.
    /// The report's event is `Some` when some pod moved.
    pub(super) fn requeue_unschedulable_v135(
        &mut self,
        approved: Vec<(PodId, bool)>,
        event: ClusterEvent,
        now: Millis,
    ) -> MoveReport {
        let mut moved = Vec::with_capacity(approved.len());
        for (pod, immediately) in approved {
            let Some(e) = self.remove(pod) else { continue };
            let to = self.requeue_v135(e, immediately, now);
            moved.push(Moved { pod, to });
        }
        MoveReport {
            event: (!moved.is_empty()).then_some(event),
            moved,
        }
    }

    /// v1.35 `MoveAllToActiveOrBackoffQueue` with QueueingHints: for each non-gated pod in
    /// unschedulablePods, in pod-id order, `worth(pod, rejector plugins)` says whether one of the
    /// plugins that rejected it answers `Queue` to `event` (the caller runs the hint functions
    /// registered for the event, `isPodWorthRequeuing`; an erroring hint counts as `Queue`).
    /// An approved pod is requeued: to activeQ if its rejectors are Pending plugins
    /// (`queueImmediately`), else through `queueAfterBackoff` (podBackoffQ while backing off,
    /// else activeQ). A refused pod stays. `worth` is not asked, and the pod is requeued through
    /// `queueAfterBackoff`, when the pod has no rejector plugin or the event is a wildcard
    /// ([`ClusterEvent::is_wildcard`]). Gated pods never move here (see [`Self::ungate`]).
    ///
    /// In v1.17 mode, which has no hints, this is [`Self::move_all_to_active_or_backoff`] and
    /// `worth` is not called.
    pub fn move_with_hints(
        &mut self,
        event: ClusterEvent,
        now: Millis,
        mut worth: impl FnMut(PodId, &[&'static str]) -> bool,
    ) -> MoveReport {
        if !self.is_v135() {
            return self.move_all_to_active_or_backoff(event, now);
        }
        let mut pods: Vec<PodId> = self.unschedulable.iter().map(|k| k.2).collect();
        pods.sort_unstable();
        let wildcard = event.is_wildcard();
        let mut approved = Vec::new();
        for pod in pods {
            let Some(e) = self.pods.get(pod) else {
                continue;
            };
            let rejectors = e.plugins();
            if wildcard || rejectors.is_empty() {
                approved.push((pod, false));
            } else if worth(pod, rejectors) {
                approved.push((pod, e.pending));
            }
        }
        self.requeue_unschedulable_v135(approved, event, now)
    }

    /// v1.35 `activate` (the podsToActivate mechanism): a pod in unschedulablePods or in either
    /// backoff heap moves straight to activeQ, keeping its timestamp and counts. Returns whether
    /// it moved; a pod in activeQ, a gated pod (PreEnqueue would gate it again) and a pod not
    /// queued stay as they are.
    pub fn activate(&mut self, pod: PodId) -> bool {
        match self.pods.get(pod).map(|e| e.place) {
            Some(Place::Unschedulable | Place::Backoff | Place::ErrorBackoff) => {
                self.move_to(pod, Place::Active);
                true
            }
            _ => false,
        }
    }
}
