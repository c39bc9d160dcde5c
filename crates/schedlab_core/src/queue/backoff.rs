//! v1.15–v1.17 `PodBackoffMap` (`internal/queue/pod_backoff.go`) on the virtual clock.
//!
//! One record per pod: the number of recorded failures and the time of the last recorded one.
//! The backoff is `initial × 2^(attempts−1)`, capped at `max`; it expires at
//! `last recorded failure + backoff`. Records whose last update is more than `max` in the past
//! are dropped by [`PodBackoffMap::cleanup`] (upstream `CleanupPodsCompletesBackingoff`), which
//! upstream runs only when a failure is about to be recorded; so does the queue.

use std::collections::{BTreeMap, BTreeSet};

use super::Millis;
use crate::cluster::PodId;

/// One pod's backoff record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BackoffRecord {
    /// Recorded failures (`podAttempts`).
    pub attempts: u32,
    /// Time of the last recorded failure (`podLastUpdateTime`).
    pub last_update: Millis,
}

/// Per-pod backoff records, keyed by pod (upstream: by `NamespacedName`).
#[derive(Clone, Debug)]
pub struct PodBackoffMap {
    initial: Millis,
    max: Millis,
    records: BTreeMap<PodId, BackoffRecord>,
    /// `(last_update, pod)` for every record, so that cleanup does not scan every pod.
    by_update: BTreeSet<(Millis, PodId)>,
}

impl PodBackoffMap {
    /// A map with the given initial and maximum backoff.
    pub fn new(initial: Millis, max: Millis) -> Self {
        PodBackoffMap {
            initial,
            max,
            records: BTreeMap::new(),
            by_update: BTreeSet::new(),
        }
    }

    /// The initial backoff.
    pub fn initial(&self) -> Millis {
        self.initial
    }

    /// The maximum backoff.
    pub fn max(&self) -> Millis {
        self.max
    }

    /// The pod's record, if any.
    pub fn record(&self, pod: PodId) -> Option<BackoffRecord> {
        self.records.get(&pod).copied()
    }

    /// `calculateBackoffDuration`: `initial` doubled `attempts − 1` times, returning `max` as soon
    /// as a doubling exceeds it. Attempts 0 and 1 both give `initial`.
    pub fn duration_for(&self, attempts: u32) -> Millis {
        let mut d = self.initial.0;
        for _ in 1..attempts {
            d = d.saturating_mul(2);
            if d > self.max.0 {
                return self.max;
            }
        }
        Millis(d)
    }

    /// `GetBackoffTime`: last recorded failure + backoff, or `None` without a record.
    pub fn backoff_time(&self, pod: PodId) -> Option<Millis> {
        self.records.get(&pod).map(|r| {
            Millis(
                r.last_update
                    .0
                    .saturating_add(self.duration_for(r.attempts).0),
            )
        })
    }

    /// `isPodBackingoff`: a record exists and its expiry is strictly after `now`.
    pub fn is_backing_off(&self, pod: PodId, now: Millis) -> bool {
        self.backoff_time(pod).is_some_and(|t| t > now)
    }

    /// `CleanupPodsCompletesBackingoff`: drops every record with `last_update + max < now`
    /// (strictly before), so the next failure of that pod counts from 1 again.
    pub fn cleanup(&mut self, now: Millis) {
        while let Some(&(last, pod)) = self.by_update.first() {
            if last.0.saturating_add(self.max.0) < now.0 {
                self.by_update.pop_first();
                self.records.remove(&pod);
            } else {
                break;
            }
        }
    }

    /// `BackoffPod`: records one more failure at `now`.
    pub fn record_failure(&mut self, pod: PodId, now: Millis) {
        let rec = self.records.entry(pod).or_insert(BackoffRecord {
            attempts: 0,
            last_update: now,
        });
        self.by_update.remove(&(rec.last_update, pod));
        rec.attempts = rec.attempts.saturating_add(1);
        rec.last_update = now;
        self.by_update.insert((now, pod));
    }

    /// The queue's `backoffPod`: cleanup, then record a failure unless the pod is still backing
    /// off. Returns whether a failure was recorded.
    ///
    /// "Still backing off" is `expiry > now`, the same test as [`Self::is_backing_off`]: a failure
    /// at exactly the expiry time is recorded. Upstream writes `!found || boTime.Before(now)`,
    /// which differs only when the failure happens at the very instant of expiry, which real
    /// clocks never produce but schedlab's zero-duration cycles at exact ticks always do (see the
    /// module docs of [`super`]).
    pub fn backoff_pod(&mut self, pod: PodId, now: Millis) -> bool {
        self.cleanup(now);
        if self.is_backing_off(pod, now) {
            return false;
        }
        self.record_failure(pod, now);
        true
    }

    /// `clearPodBackoff`: forgets the pod's record.
    pub fn clear(&mut self, pod: PodId) {
        if let Some(rec) = self.records.remove(&pod) {
            self.by_update.remove(&(rec.last_update, pod));
        }
    }

    /// Number of records.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether there are no records.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }
}
