//! v1.35-mode queue tests. Expected values are worked out by hand from `modern.md` §5 and the
//! contract's "The modern scheduler" → "Queue", with the arithmetic in the comments. `ms(x)` is
//! x milliseconds, `sec(x)` x seconds. Defaults: initial backoff 1 s, max 10 s.
//!
//! Reminder of the window rule (module docs): `window = ⌊Timestamp + duration⌋₁ₛ`; the pod backs
//! off while `window ≥ ⌊now⌋₁ₛ`, i.e. until `end = window + 1 s`, which is the backoff-heap key
//! and `QueuedPodView::backoff_expiry`.

use super::*;

const NRF: &str = "NodeResourcesFit";
const TT: &str = "TaintToleration";
const NA: &str = "NodeAffinity";
const DRA: &str = "DynamicResources";
const GATES: &str = "SchedulingGates";

fn ms(x: u64) -> Millis {
    Millis(x)
}

fn sec(x: u64) -> Millis {
    Millis::secs(x)
}

fn q135() -> SchedulingQueue {
    SchedulingQueue::new(QueueConfig::v1_35(1, 10))
}

/// Pops `pod` (it must be the head) and fails it at `now` with `rejectors` (empty: an error).
fn pop_and_fail(
    q: &mut SchedulingQueue,
    pod: PodId,
    rejectors: &[&'static str],
    now: Millis,
) -> SubQueue {
    let info = q.pop().expect("something to pop");
    assert_eq!(info.pod, pod, "head");
    q.add_unschedulable_v135(info, rejectors.to_vec(), false, now)
        .unwrap()
}

fn approve(_: PodId, _: &[&'static str]) -> bool {
    true
}

fn view_of(q: &SchedulingQueue, pod: PodId) -> QueuedPodView {
    q.view().into_iter().find(|v| v.pod == pod).expect("queued")
}

fn pop_order(q: &mut SchedulingQueue) -> Vec<PodId> {
    std::iter::from_fn(|| q.pop().map(|i| i.pod)).collect()
}

#[test]
fn config_and_mode() {
    let c = QueueConfig::v1_35(1, 10);
    assert_eq!(c.mode, QueueMode::V1_35);
    assert_eq!(
        (c.pod_initial_backoff, c.pod_max_backoff),
        (sec(1), sec(10))
    );
    assert_eq!(QueueConfig::from_seconds(1, 10).mode, QueueMode::V1_17);
    assert_eq!(QueueConfig::default().mode, QueueMode::V1_17);
    assert_eq!(q135().mode(), QueueMode::V1_35);
    assert_eq!(SchedulingQueue::default().mode(), QueueMode::V1_17);
}

#[test]
fn backoff_duration_is_initial_shifted_by_count_minus_one_capped_at_max() {
    // (initial s, max s, [(count, duration ms or None)])
    type Rows = &'static [(u32, Option<u64>)];
    let cases: &[(u64, u64, Rows)] = &[
        (
            1,
            10,
            &[
                (0, None),         // no failure yet: no backoff
                (1, Some(1_000)),  // 1 << 0
                (2, Some(2_000)),  // 1 << 1
                (3, Some(4_000)),  // 1 << 2
                (4, Some(8_000)),  // 1 << 3
                (5, Some(10_000)), // 10_000 >> 4 = 625 < 1_000 → max
                (6, Some(10_000)),
                (64, Some(10_000)),
                (65, Some(10_000)), // shift 64: Go's >> gives 0 → max
                (u32::MAX, Some(10_000)),
            ],
        ),
        // 5_000 >> 2 = 1_250 < 2_000 → max at count 3.
        (
            2,
            5,
            &[(1, Some(2_000)), (2, Some(4_000)), (3, Some(5_000))],
        ),
        // 13_000 >> 2 = 3_250 ≥ 3_000 → 3 << 2 = 12 s; 13_000 >> 3 = 1_625 < 3_000 → 13 s.
        (3, 13, &[(3, Some(12_000)), (4, Some(13_000))]),
        // max 0: no backoff at all.
        (1, 0, &[(1, None), (7, None)]),
    ];
    for &(initial, max, rows) in cases {
        for &(count, want) in rows {
            assert_eq!(
                backoff_duration_v135(sec(initial), sec(max), count),
                want.map(ms),
                "{initial}s/{max}s, count {count}"
            );
        }
    }
}

#[test]
fn consecutive_rejections_back_off_1_2_4_8_10_10_s_without_reset() {
    // The pod is rejected each time it is tried, and only the 5-minute leftover flush brings it
    // back: at the first 30 s tick strictly more than 300 s after the rejection. The gaps are
    // far above the 10 s after which v1.17's PodBackoffMap restarted at 1 s; v1.35 keeps
    // counting. (rejected at s, UnschedulableCount, backoff s, end = window + 1 s, next tick)
    //   0:    count 1, 1 s,  window ⌊0 + 1⌋ = 1,       end 2;    tick: first multiple of 30 > 300 = 330
    //   330:  count 2, 2 s,  window 332,               end 333;  tick > 630 → 660
    //   660:  count 3, 4 s,  window 664,               end 665;  tick > 960 → 990
    //   990:  count 4, 8 s,  window 998,               end 999;  tick > 1290 → 1320
    //   1320: count 5, 10 s, window 1330,              end 1331; tick > 1620 → 1650
    //   1650: count 6, 10 s, window 1660,              end 1661; tick > 1950 → 1980
    let rows: &[(u64, u32, u64, u64)] = &[
        (0, 1, 2, 330),
        (330, 2, 333, 660),
        (660, 3, 665, 990),
        (990, 4, 999, 1320),
        (1320, 5, 1331, 1650),
        (1650, 6, 1661, 1980),
    ];
    let mut q = q135();
    q.add(0, 0, None, sec(0));
    for &(t, count, end, tick) in rows {
        assert_eq!(
            pop_and_fail(&mut q, 0, &[NRF], sec(t)),
            SubQueue::Unschedulable
        );
        let info = *q.info(0).unwrap();
        assert_eq!(
            (
                info.unschedulable_count,
                info.consecutive_errors_count,
                info.timestamp
            ),
            (count, 0, sec(t))
        );
        let v = view_of(&q, 0);
        assert_eq!(
            (v.backoff_attempts, v.backoff_expiry),
            (count, Some(sec(end))),
            "rejected at {t}"
        );
        assert_eq!(v.rejector_plugins, vec![NRF]);
        // The driver handled the ticks at t; nothing moves before `tick`.
        assert_eq!(q.next_flush(Millis(sec(t).0 + 1)), Some(sec(tick)));
        assert_eq!(q.flush_unschedulable_leftover(sec(tick - 30)).event, None);
        let r = q.flush_unschedulable_leftover(sec(tick));
        assert_eq!(r.event, Some(ClusterEvent::UnschedulableTimeout));
        // Long past its backoff: straight to activeQ.
        assert_eq!(
            r.moved,
            vec![Moved {
                pod: 0,
                to: SubQueue::Active
            }]
        );
        assert_eq!(
            q.info(0).unwrap().timestamp,
            sec(t),
            "a move keeps the timestamp"
        );
    }
    assert_eq!(q.move_request_cycle(), -1, "no move requests in v1.35");
    assert!(q.backoff_map().is_empty(), "no PodBackoffMap in v1.35");
}

#[test]
fn leftover_moves_after_strictly_more_than_5_minutes_at_30_s_ticks() {
    // (rejected at ms, first 30 s tick that moves it): the smallest multiple of 30 s strictly
    // greater than rejection + 300 s. A pod put back at t = 0 is retried at t = 330 (contract).
    let rows: &[(u64, u64)] = &[
        (0, 330_000),      // 300 − 0 = 300 is not > 300; 330 − 0 = 330 is
        (500, 330_000),    // 330 − 0.5 = 329.5 > 300
        (29_999, 330_000), // 330 − 29.999 = 300.001 > 300
        (30_000, 360_000), // 330 − 30 = 300 is not > 300
        (59_999, 360_000),
        (60_000, 390_000),
    ];
    for &(put_back, tick) in rows {
        let mut q = q135();
        q.add(0, 0, None, ms(put_back));
        assert_eq!(
            pop_and_fail(&mut q, 0, &[NRF], ms(put_back)),
            SubQueue::Unschedulable
        );
        assert_eq!(
            q.next_leftover_flush(ms(put_back)),
            Some(ms(tick)),
            "put back at {put_back}"
        );
        assert_eq!(q.next_flush(ms(put_back)), Some(ms(tick)));
        let mut t = ms(put_back).ceil_to(LEFTOVER_FLUSH_PERIOD);
        while t < ms(tick) {
            assert_eq!(
                q.flush_unschedulable_leftover(t).event,
                None,
                "{put_back} at {t:?}"
            );
            t = Millis(t.0 + 30_000);
        }
        let r = q.flush_unschedulable_leftover(ms(tick));
        assert_eq!(
            r.moved,
            vec![Moved {
                pod: 0,
                to: SubQueue::Active
            }]
        );
    }
    // The helper never answers a tick before `from`.
    let mut q = q135();
    q.add(0, 0, None, sec(0));
    pop_and_fail(&mut q, 0, &[NRF], sec(0));
    assert_eq!(q.next_leftover_flush(sec(331)), Some(sec(360)));
}

#[test]
fn backoff_window_truncation_on_the_millisecond_clock() {
    // Rejected at f ms (count 1, 1 s), then a hint approves at once (still backing off →
    // podBackoffQ). end = ⌊f + 1000⌋₁ₛ + 1000; the flush moves it at the tick `end`.
    //   f = 0:    ⌊1000⌋ = 1000 → 2000 (v1.17 would move it at 1000)
    //   f = 1:    ⌊1001⌋ = 1000 → 2000
    //   f = 500:  ⌊1500⌋ = 1000 → 2000
    //   f = 999:  ⌊1999⌋ = 1000 → 2000
    //   f = 1000: ⌊2000⌋ = 2000 → 3000
    //   f = 2999: ⌊3999⌋ = 3000 → 4000
    let rows: &[(u64, u64)] = &[
        (0, 2000),
        (1, 2000),
        (500, 2000),
        (999, 2000),
        (1000, 3000),
        (2999, 4000),
    ];
    for &(f, end) in rows {
        let mut q = q135();
        q.add(0, 0, None, ms(f));
        pop_and_fail(&mut q, 0, &[NRF], ms(f));
        let r = q.move_with_hints(ClusterEvent::NodeAdd, ms(f), approve);
        assert_eq!(
            r.moved,
            vec![Moved {
                pod: 0,
                to: SubQueue::Backoff
            }],
            "f = {f}"
        );
        assert_eq!(view_of(&q, 0).backoff_expiry, Some(ms(end)));
        assert_eq!(q.next_backoff_flush(ms(f)), Some(ms(end)));
        // The tick before: the window is the current one (or later), still backing off.
        assert!(q.is_backing_off(0, ms(end - 1000)));
        assert!(q.is_backing_off(0, ms(end - 1)));
        assert!(!q.is_backing_off(0, ms(end)));
        assert!(
            q.flush_backoff_completed(ms(end - 1000)).is_empty(),
            "f = {f}"
        );
        assert_eq!(q.flush_backoff_completed(ms(end)), vec![0], "f = {f}");
        assert_eq!(q.queue_of(0), Some(SubQueue::Active));
    }
    // Events between ticks compare with the truncated clock: rejected at 0 (window 1 s), an
    // event at 1.5 s finds ⌊1.5⌋ = 1 ≤ 1: still backing off → podBackoffQ; at 2 s → activeQ.
    for (at, to) in [
        (ms(1500), SubQueue::Backoff),
        (ms(1999), SubQueue::Backoff),
        (sec(2), SubQueue::Active),
    ] {
        let mut q = q135();
        q.add(0, 0, None, sec(0));
        pop_and_fail(&mut q, 0, &[NRF], sec(0));
        let r = q.move_with_hints(ClusterEvent::NodeAdd, at, approve);
        assert_eq!(r.moved, vec![Moved { pod: 0, to }], "event at {at:?}");
    }
}

#[test]
fn errors_count_separately_from_rejections() {
    // All at the instants given; a hint approves right after each rejection so the pod can be
    // popped again from podBackoffQ (activeQ is empty).
    let mut q = q135();
    q.add(0, 0, None, sec(0));
    // 1. Rejected at 0: UC 1 → 1 s, window 1, end 2.
    assert_eq!(
        pop_and_fail(&mut q, 0, &[NRF], sec(0)),
        SubQueue::Unschedulable
    );
    q.move_with_hints(ClusterEvent::NodeAdd, sec(0), approve);
    // 2. Rejected again at 0: UC 2 → 2 s, window 2, end 3.
    assert_eq!(
        pop_and_fail(&mut q, 0, &[NRF], sec(0)),
        SubQueue::Unschedulable
    );
    assert_eq!(view_of(&q, 0).backoff_expiry, Some(sec(3)));
    q.move_with_hints(ClusterEvent::NodeAdd, sec(0), approve);
    // 3. An error at 0: CEC 1, UC stays 2; the count used is CEC = 1 → 1 s, window 1, end 2.
    //    queueAfterBackoff: backing off → podErrorBackoffQ.
    assert_eq!(pop_and_fail(&mut q, 0, &[], sec(0)), SubQueue::Backoff);
    let i = *q.info(0).unwrap();
    assert_eq!(
        (
            i.unschedulable_count,
            i.consecutive_errors_count,
            i.backoff_count()
        ),
        (2, 1, 1)
    );
    let v = view_of(&q, 0);
    assert!(v.error_backoff && !v.gated);
    assert_eq!((v.backoff_attempts, v.backoff_expiry), (1, Some(sec(2))));
    assert!(v.rejector_plugins.is_empty());
    assert_eq!(q.error_backoff_pods().collect::<Vec<_>>(), vec![0]);
    // podErrorBackoffQ is never popped early.
    assert!(!q.can_pop());
    assert_eq!(q.pop(), None);
    assert!(q.flush_backoff_completed(sec(1)).is_empty());
    assert_eq!(q.flush_backoff_completed(sec(2)), vec![0]);
    // 4. Another error at 2: CEC 2 → 2 s, window ⌊2 + 2⌋ = 4, end 5.
    assert_eq!(pop_and_fail(&mut q, 0, &[], sec(2)), SubQueue::Backoff);
    assert_eq!(view_of(&q, 0).backoff_expiry, Some(sec(5)));
    assert_eq!(q.next_backoff_flush(sec(2)), Some(sec(5)));
    assert_eq!(q.flush_backoff_completed(sec(5)), vec![0]);
    // 5. Rejected at 5: UC 3, CEC reset to 0 → count 3 → 4 s, window 9, end 10; unschedulablePods.
    assert_eq!(
        pop_and_fail(&mut q, 0, &[TT], sec(5)),
        SubQueue::Unschedulable
    );
    let i = *q.info(0).unwrap();
    assert_eq!(
        (
            i.unschedulable_count,
            i.consecutive_errors_count,
            i.attempts
        ),
        (3, 0, 5)
    );
    let v = view_of(&q, 0);
    assert_eq!(
        (v.backoff_attempts, v.backoff_expiry, v.error_backoff),
        (3, Some(sec(10)), false)
    );
    // With max 0 there is no backoff: an error goes straight to activeQ.
    let mut q = SchedulingQueue::new(QueueConfig::v1_35(1, 0));
    q.add(0, 0, None, sec(0));
    assert_eq!(pop_and_fail(&mut q, 0, &[], sec(0)), SubQueue::Active);
    assert_eq!(view_of(&q, 0).backoff_expiry, None);
}

#[test]
fn pop_takes_the_pod_backoff_q_head_when_active_q_is_empty_but_never_the_error_queue() {
    let mut q = q135();
    for p in 0..3 {
        q.add(p, 0, None, sec(0));
    }
    // Pod 0 rejected at 0, pod 1 fails with an error at 0 (podErrorBackoffQ until 2 s).
    assert_eq!(
        pop_and_fail(&mut q, 0, &[NRF], sec(0)),
        SubQueue::Unschedulable
    );
    assert_eq!(pop_and_fail(&mut q, 1, &[], sec(0)), SubQueue::Backoff);
    // A hint approves pod 0 at 0: backing off (end 2 s) → podBackoffQ.
    let r = q.move_with_hints(ClusterEvent::NodeAdd, sec(0), approve);
    assert_eq!(
        r.moved,
        vec![Moved {
            pod: 0,
            to: SubQueue::Backoff
        }]
    );
    // activeQ first.
    assert_eq!(q.head(), Some((2, SubQueue::Active)));
    assert_eq!(q.pop().unwrap().pod, 2);
    // activeQ empty: the podBackoffQ head, though its backoff runs until 2 s.
    assert_eq!(q.head(), Some((0, SubQueue::Backoff)));
    let info = q.pop().unwrap();
    assert_eq!((info.pod, info.attempts), (0, 2));
    assert_eq!(q.scheduling_cycle(), 4);
    // Only podErrorBackoffQ is left: nothing to pop until the 2 s flush.
    assert_eq!((q.head(), q.can_pop()), (None, false));
    assert_eq!(q.num_backoff_pods(), 1);
    assert_eq!(q.next_backoff_flush(sec(0)), Some(sec(2)));
    assert_eq!(q.flush_backoff_completed(sec(2)), vec![1]);
    assert_eq!(q.pop().unwrap().pod, 1);
    // v1.17 mode never pops podBackoffQ.
    let mut q = SchedulingQueue::default();
    q.add(0, 0, None, sec(0));
    let info = q.pop().unwrap();
    q.move_all_to_active_or_backoff(ClusterEvent::NodeAdd, sec(0));
    let c = q.scheduling_cycle();
    assert_eq!(
        q.add_unschedulable_if_not_present(info, c, None, sec(0)),
        Ok(SubQueue::Backoff)
    );
    assert_eq!((q.head(), q.can_pop(), q.pop()), (None, false, None));
}

#[test]
fn pod_backoff_q_orders_by_window_then_like_active_q() {
    // Pods (id, priority): 0 (0), 1 (5), 2 (0), 3 (10), all added at 0 and all popped; then
    // rejected: 2 at 0.1 s, 0 at 0.2 s, 1 at 0.7 s, 3 at 1.0 s (count 1, 1 s each).
    //   windows: 2 → ⌊1.1⌋ = 1, 0 → ⌊1.2⌋ = 1, 1 → ⌊1.7⌋ = 1, 3 → ⌊2.0⌋ = 2 (ends 2, 2, 2, 3 s).
    // A hint approves all at 1.0 s, all still backing off → podBackoffQ. Order: window 1 by
    // priority then timestamp: 1 (prio 5), 2 (0.1 s), 0 (0.2 s); then window 2: 3.
    // (v1.17's exact expiries would give 2, 0, 1, 3.)
    let mut q = q135();
    for (p, prio) in [(0, 0), (1, 5), (2, 0), (3, 10)] {
        q.add(p, prio, None, sec(0));
    }
    let infos: Vec<QueuedPodInfo> = std::iter::from_fn(|| q.pop()).collect();
    assert_eq!(
        infos.iter().map(|i| i.pod).collect::<Vec<_>>(),
        vec![3, 1, 0, 2]
    );
    for (pod, at) in [(2, 100), (0, 200), (1, 700), (3, 1000)] {
        let info = *infos.iter().find(|i| i.pod == pod).unwrap();
        q.add_unschedulable_v135(info, vec![NRF], false, ms(at))
            .unwrap();
    }
    let r = q.move_with_hints(ClusterEvent::NodeAdd, sec(1), approve);
    assert!(r.moved.iter().all(|m| m.to == SubQueue::Backoff));
    let backoff: Vec<PodId> = q.view().iter().map(|v| v.pod).collect();
    assert_eq!(backoff, vec![1, 2, 0, 3]);
    // The 2 s flush takes the whole window 1; activeQ then orders by priority and timestamp.
    let mut flushed = q.clone();
    assert_eq!(flushed.flush_backoff_completed(sec(2)), vec![1, 2, 0]);
    assert_eq!(pop_order(&mut flushed), vec![1, 2, 0, 3]);
    // Popped early (activeQ empty), in podBackoffQ order.
    assert_eq!(pop_order(&mut q), vec![1, 2, 0, 3]);
}

#[test]
fn gated_pods_never_move_until_ungated() {
    let mut q = q135();
    q.add_gated(0, 0, GATES, sec(0));
    q.add(1, 0, None, sec(1));
    assert_eq!(q.queue_of(0), Some(SubQueue::Unschedulable));
    assert!(q.is_gated(0));
    assert_eq!((q.num_gated_pods(), q.num_unschedulable_pods()), (1, 0));
    let v = view_of(&q, 0);
    assert_eq!(
        (
            v.gated,
            v.attempts,
            v.backoff_attempts,
            v.backoff_expiry,
            v.rejector_plugins
        ),
        (true, 0, 0, None, vec![GATES])
    );
    // Not popped: pod 1 is the only candidate. It is rejected at 40 s.
    assert_eq!(
        pop_and_fail(&mut q, 1, &[NRF], sec(40)),
        SubQueue::Unschedulable
    );
    assert!(!q.can_pop());
    // Events ask the hints of pod 1 only; the gated pod is never offered.
    let mut asked = Vec::new();
    let r = q.move_with_hints(ClusterEvent::NodeAdd, sec(40), |p, _| {
        asked.push(p);
        false
    });
    assert_eq!((asked, r.event, r.moved), (vec![1], None, vec![]));
    // The leftover flush ignores the gated pod (added at 0: 330 would be its tick); pod 1,
    // rejected at 40, moves at the first multiple of 30 > 340, 360.
    assert_eq!(q.next_leftover_flush(sec(41)), Some(sec(360)));
    assert_eq!(q.flush_unschedulable_leftover(sec(330)).event, None);
    let r = q.flush_unschedulable_leftover(sec(360));
    assert_eq!(
        r.moved,
        vec![Moved {
            pod: 1,
            to: SubQueue::Active
        }]
    );
    // Only the gated pod is left beside pod 1 in activeQ: no flush can move anything.
    assert_eq!(q.next_flush(sec(361)), None);
    assert_eq!(q.pop().unwrap().pod, 1);
    assert_eq!(
        (q.next_flush(sec(361)), q.can_pop(), q.len()),
        (None, false, 1)
    );
    assert_eq!(q.unschedulable_pods().count(), 0);
    assert_eq!(q.gated_pods().collect::<Vec<_>>(), vec![0]);
    // Neither activate, a wildcard event nor an update releases it.
    assert!(!q.activate(0));
    assert!(q
        .move_with_hints(ClusterEvent::UnschedulableTimeout, sec(400), approve)
        .moved
        .is_empty());
    assert_eq!(
        q.update(0, 0, None, None, true, sec(400)),
        SubQueue::Unschedulable
    );
    assert!(q.is_gated(0));
    assert!(!q.is_backing_off(0, sec(400)));
    // Ungated at 500 s: activeQ with its Add timestamp (0), so it sorts before pod 2 added at
    // 450 s and pod 1 re-added at 460 s with equal priority.
    q.add(2, 0, None, sec(450));
    q.add(1, 0, None, sec(460));
    assert!(q.ungate(0, sec(500)));
    assert!(!q.ungate(0, sec(500)), "no longer gated");
    let i = *q.info(0).unwrap();
    assert_eq!(
        (i.timestamp, i.initial_attempt_timestamp, i.attempts),
        (sec(0), sec(500), 0)
    );
    assert_eq!(view_of(&q, 0).rejector_plugins, Vec::<&str>::new());
    assert_eq!(pop_order(&mut q), vec![0, 2, 1]);
    // v1.17 knows no gates: add_gated is add, ungate does nothing.
    let mut q = SchedulingQueue::default();
    q.add_gated(0, 0, GATES, sec(0));
    assert_eq!(
        (q.queue_of(0), q.is_gated(0), q.ungate(0, sec(1))),
        (Some(SubQueue::Active), false, false)
    );
}

#[test]
fn hints_approve_or_refuse_each_pod() {
    // Pods 0–4 added at 0 and failed at 0 (count 1: backing off until 2 s):
    //   0: NodeResourcesFit, 1: TaintToleration, 2: NodeAffinity + TaintToleration,
    //   3: DynamicResources as a Pending plugin, 4: the v1.17 entry point (no plugin names).
    let mut q = q135();
    for p in 0..5 {
        q.add(p, 0, None, sec(0));
    }
    pop_and_fail(&mut q, 0, &[NRF], sec(0));
    pop_and_fail(&mut q, 1, &[TT], sec(0));
    pop_and_fail(&mut q, 2, &[NA, TT], sec(0));
    let info = q.pop().unwrap();
    assert_eq!(
        q.add_unschedulable_v135(info, vec![DRA], true, sec(0)),
        Ok(SubQueue::Unschedulable)
    );
    let info = q.pop().unwrap();
    let c = q.scheduling_cycle();
    assert_eq!(
        q.add_unschedulable_if_not_present(info, c, None, sec(0)),
        Ok(SubQueue::Unschedulable)
    );
    assert_eq!(q.info(4).unwrap().unschedulable_count, 1);
    assert_eq!(q.num_unschedulable_pods(), 5);
    // A taint change at 0.5 s: the caller's hints say TaintToleration and DynamicResources
    // may now pass.
    let mut asked: Vec<(PodId, Vec<&str>)> = Vec::new();
    let r = q.move_with_hints(ClusterEvent::NodeTaintChange, ms(500), |p, plugins| {
        asked.push((p, plugins.to_vec()));
        plugins.contains(&TT) || plugins.contains(&DRA)
    });
    // Pod 4 has no rejector plugin: requeued without asking (queueAfterBackoff).
    assert_eq!(
        asked,
        vec![
            (0, vec![NRF]),
            (1, vec![TT]),
            (2, vec![NA, TT]),
            (3, vec![DRA])
        ]
    );
    assert_eq!(r.event, Some(ClusterEvent::NodeTaintChange));
    assert_eq!(
        r.moved,
        vec![
            // queueAfterBackoff, still backing off at 0.5 s (end 2 s).
            Moved {
                pod: 1,
                to: SubQueue::Backoff
            },
            Moved {
                pod: 2,
                to: SubQueue::Backoff
            },
            // queueImmediately: a Pending plugin said Queue.
            Moved {
                pod: 3,
                to: SubQueue::Active
            },
            Moved {
                pod: 4,
                to: SubQueue::Backoff
            },
        ]
    );
    assert_eq!(q.unschedulable_pods().collect::<Vec<_>>(), vec![0]);
    // Refused: nothing moves, no event.
    let r = q.move_with_hints(ClusterEvent::NodeAdd, ms(600), |_, _| false);
    assert_eq!((r.event, r.moved), (None, vec![]));
    // The wildcard UnschedulableTimeout requeues without asking.
    let r = q.move_with_hints(ClusterEvent::UnschedulableTimeout, ms(700), |_, _| {
        panic!("hints are not asked for a wildcard event")
    });
    assert_eq!(
        r.moved,
        vec![Moved {
            pod: 0,
            to: SubQueue::Backoff
        }]
    );
    assert_eq!(q.move_request_cycle(), -1);
    // The v1.17 event entry point requeues every non-gated pod as if each hint said Queue.
    let mut q2 = q135();
    q2.add(0, 0, None, sec(0));
    q2.add_gated(1, 0, GATES, sec(0));
    pop_and_fail(&mut q2, 0, &[NRF], sec(0));
    let r = q2.on_cluster_event(InformerEvent::NodeAdd, sec(5), |_| false);
    assert_eq!(
        r.moved,
        vec![Moved {
            pod: 0,
            to: SubQueue::Active
        }]
    );
    assert_eq!((q2.move_request_cycle(), q2.is_gated(1)), (-1, true));
    assert_eq!(
        q2.note_move_request(ClusterEvent::AssignedPodAdd).event,
        None
    );
}

#[test]
fn active_queue_order_priority_then_timestamp_then_sequence() {
    // (pod, priority, added at) → pop order: priority first, then the time queued, then the
    // order of adding (equal priority and time: input order, not pod id).
    let adds: &[(PodId, i32, u64)] = &[
        (0, 0, 0),
        (1, 10, 2),
        (2, 0, 0),
        (3, 10, 1),
        (4, -5, 0),
        (7, 0, 0),
        (5, 0, 0),
    ];
    let mut q = q135();
    for &(pod, prio, t) in adds {
        q.add(pod, prio, None, sec(t));
    }
    // 3 (10, 1 s), 1 (10, 2 s), then priority 0 at 0 s in adding order 0, 2, 7, 5, then 4.
    assert_eq!(pop_order(&mut q), vec![3, 1, 0, 2, 7, 5, 4]);
    // A rejected pod sorts by its rejection time: pod 0 rejected at 5 s and moved back sorts
    // behind pod 2 added at 3 s and before pod 3 added at 7 s.
    let mut q = q135();
    q.add(0, 0, None, sec(0));
    q.add(1, 0, None, sec(0));
    pop_and_fail(&mut q, 0, &[NRF], sec(5));
    q.add(2, 0, None, sec(3));
    q.add(3, 0, None, sec(7));
    let r = q.move_with_hints(ClusterEvent::NodeAdd, sec(7), approve); // 7 ≥ end 7 s: activeQ
    assert_eq!(
        r.moved,
        vec![Moved {
            pod: 0,
            to: SubQueue::Active
        }]
    );
    assert_eq!(pop_order(&mut q), vec![1, 2, 0, 3]);
}

#[test]
fn next_flush_jumps_to_330_s_ticks_and_ends_when_nothing_can_move() {
    // Rejected at 0 and never requeued by an event: retried at 330 (> 300 at the 30 s ticks),
    // rejected there, retried at 660 (630 − 330 = 300 is not more than 300), then 990, 1320.
    let mut q = q135();
    q.add(0, 0, None, sec(0));
    let mut now = sec(0);
    let mut retried_at = Vec::new();
    for _ in 0..4 {
        assert_eq!(
            pop_and_fail(&mut q, 0, &[NRF], now),
            SubQueue::Unschedulable
        );
        let next = q.next_flush(Millis(now.0 + 1)).unwrap();
        assert!(q.flush_backoff_completed(next).is_empty());
        let r = q.flush_unschedulable_leftover(next);
        assert_eq!(
            r.moved,
            vec![Moved {
                pod: 0,
                to: SubQueue::Active
            }]
        );
        now = next;
        retried_at.push(now);
    }
    assert_eq!(retried_at, vec![sec(330), sec(660), sec(990), sec(1320)]);
    assert!(q.pop().is_some());
    assert_eq!(
        (q.next_flush(now), q.can_pop(), q.is_empty()),
        (None, false, true)
    );
    // An error at 1320 s (count 1 → window 1321, end 1322) is flushed at 1322.
    q.add(1, 0, None, now);
    assert_eq!(pop_and_fail(&mut q, 1, &[], now), SubQueue::Backoff);
    assert_eq!(q.next_flush(Millis(now.0 + 1)), Some(sec(1322)));
}

#[test]
fn activate_update_and_delete() {
    // Pod 0 unschedulable, pod 1 in podErrorBackoffQ, pod 2 in podBackoffQ, pod 3 in activeQ;
    // all failed at 0 (ends 2 s).
    fn setup() -> SchedulingQueue {
        let mut q = q135();
        for p in 0..4 {
            q.add(p, 0, None, sec(0));
        }
        pop_and_fail(&mut q, 0, &[NRF], sec(0));
        pop_and_fail(&mut q, 1, &[], sec(0));
        pop_and_fail(&mut q, 2, &[TT], sec(0));
        q.move_with_hints(ClusterEvent::NodeTaintChange, sec(0), |p, _| p == 2);
        assert_eq!(q.queue_of(2), Some(SubQueue::Backoff));
        q
    }
    // activate: from unschedulablePods or either backoff heap straight to activeQ.
    let mut q = setup();
    assert!(q.activate(0) && q.activate(1) && q.activate(2));
    assert!(!q.activate(3), "already in activeQ");
    assert!(!q.activate(9), "not queued");
    assert_eq!(q.num_active_pods(), 4);
    assert_eq!(q.info(0).unwrap().unschedulable_count, 1, "counts kept");
    // update (v1.35): activeQ and backoff heaps in place; an unschedulable pod with a spec
    // change goes through queueAfterBackoff (0.5 s: backing off; 5 s: not); without, stays.
    // (pod, spec changed, at, where afterwards)
    let rows: &[(PodId, bool, Millis, SubQueue)] = &[
        (0, false, ms(500), SubQueue::Unschedulable),
        (0, true, ms(500), SubQueue::Backoff),
        (0, true, sec(5), SubQueue::Active),
        (1, true, ms(500), SubQueue::Backoff),
        (2, true, ms(500), SubQueue::Backoff),
        (3, true, ms(500), SubQueue::Active),
        (9, true, ms(500), SubQueue::Active),
    ];
    for &(pod, changed, at, want) in rows {
        let mut q = setup();
        assert_eq!(
            q.update(pod, 7, None, None, changed, at),
            want,
            "pod {pod} at {at:?}"
        );
        assert_eq!(q.info(pod).unwrap().priority, 7);
    }
    let mut q = setup();
    q.update(1, 7, None, None, false, ms(500));
    assert!(view_of(&q, 1).error_backoff, "stays in podErrorBackoffQ");
    // delete
    q.delete(2);
    q.delete(1);
    assert_eq!(
        (q.queue_of(1), q.queue_of(2), q.num_backoff_pods()),
        (None, None, 0)
    );
    assert_eq!(q.next_backoff_flush(sec(0)), None);
}

#[test]
fn v135_operations_need_v135_mode_and_duplicates_are_errors() {
    let mut q = SchedulingQueue::default();
    q.add(0, 0, None, sec(0));
    let info = q.pop().unwrap();
    assert_eq!(
        q.add_unschedulable_v135(info, vec![NRF], false, sec(0)),
        Err(QueueError::WrongMode { pod: 0 })
    );
    assert_eq!(
        QueueError::WrongMode { pod: 0 }.to_string(),
        "the v1.35 operation was called on a v1.17 queue"
    );
    // v1.17: move_with_hints is MoveAllToActiveOrBackoffQueue; the hints are not asked.
    let c = q.scheduling_cycle();
    q.add_unschedulable_if_not_present(info, c, None, sec(0))
        .unwrap();
    let r = q.move_with_hints(ClusterEvent::NodeAdd, sec(5), |_, _| {
        panic!("no hints in v1.17")
    });
    assert_eq!(
        r.moved,
        vec![Moved {
            pod: 0,
            to: SubQueue::Active
        }]
    );
    assert_eq!(q.move_request_cycle(), 1);
    // v1.35: a pod already queued.
    let mut q = q135();
    q.add(0, 0, None, sec(0));
    let dup = *q.info(0).unwrap();
    assert_eq!(
        q.add_unschedulable_v135(dup, vec![NRF], false, sec(0)),
        Err(QueueError::AlreadyPresent {
            pod: 0,
            queue: SubQueue::Active
        })
    );
}
