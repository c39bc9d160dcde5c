//! Queue tests. Times are computed by hand from reference A (queue-preemption.md) and the
//! contract's "How a run proceeds"; `ms(x)` is x milliseconds, `sec(x)` x seconds.

use super::*;

fn ms(x: u64) -> Millis {
    Millis(x)
}

fn sec(x: u64) -> Millis {
    Millis::secs(x)
}

fn no_match(_: PodId) -> bool {
    false
}

/// Pops `pod` (it must be the head) at `now`; if `move_during`, a cluster event (NodeAdd) comes
/// during its cycle; then the pod fails. Returns where it went.
fn pop_and_fail(q: &mut SchedulingQueue, pod: PodId, now: Millis, move_during: bool) -> SubQueue {
    let info = q.pop().expect("activeQ not empty");
    assert_eq!(info.pod, pod, "head of activeQ");
    let cycle = q.scheduling_cycle();
    if move_during {
        q.move_all_to_active_or_backoff(ClusterEvent::NodeAdd, now);
    }
    q.add_unschedulable_if_not_present(info, cycle, None, now)
        .unwrap()
}

/// Brings `pod` back to activeQ at `now` (from unschedulableQ by an event, from podBackoffQ by
/// a flush, which requires its backoff to have expired), then pops it and fails it with no
/// move request.
fn requeue_and_fail(q: &mut SchedulingQueue, pod: PodId, now: Millis) -> SubQueue {
    match q.queue_of(pod) {
        Some(SubQueue::Unschedulable) => {
            q.move_all_to_active_or_backoff(ClusterEvent::NodeAdd, now);
            if q.queue_of(pod) == Some(SubQueue::Backoff) {
                q.flush_backoff_completed(now);
            }
        }
        Some(SubQueue::Backoff) => {
            q.flush_backoff_completed(now);
        }
        _ => {}
    }
    assert_eq!(q.queue_of(pod), Some(SubQueue::Active));
    pop_and_fail(q, pod, now, false)
}

/// A named case: (name, rows).
type Case<R> = (&'static str, &'static [R]);
/// (pod, sub-queue, attempts, timestamp, backoff attempts, backoff expiry, nominated node).
type ViewRow<'a> = (
    PodId,
    SubQueue,
    u32,
    Millis,
    u32,
    Option<Millis>,
    Option<&'a str>,
);

fn pop_order(q: &mut SchedulingQueue) -> Vec<PodId> {
    std::iter::from_fn(|| q.pop().map(|i| i.pod)).collect()
}

#[test]
fn active_queue_order_priority_then_timestamp_then_input_order() {
    // (pod, priority, added at)
    type OrderCase<'a> = (&'a str, &'a [(PodId, i32, Millis)], &'a [PodId]);
    let cases: &[OrderCase] = &[
        (
            "priority first, then time queued, then input order",
            &[
                (0, 0, sec(0)),
                (1, 10, sec(2)),
                (2, 0, sec(0)),
                (3, 10, sec(1)),
                (4, -5, sec(0)),
            ],
            &[3, 1, 0, 2, 4],
        ),
        (
            "equal priority and time: input order, not pod id",
            &[(7, 1, sec(0)), (3, 1, sec(0)), (5, 1, sec(0))],
            &[7, 3, 5],
        ),
        (
            "adding again refreshes the timestamp",
            &[(0, 0, sec(0)), (1, 0, sec(1)), (0, 0, sec(2))],
            &[1, 0],
        ),
    ];
    for (name, adds, want) in cases {
        let mut q = SchedulingQueue::default();
        for &(pod, prio, t) in adds.iter() {
            q.add(pod, prio, None, t);
        }
        assert_eq!(pop_order(&mut q), *want, "{name}");
        assert_eq!(q.scheduling_cycle(), want.len() as i64, "{name}");
    }
}

#[test]
fn a_failed_pod_sorts_behind_pods_queued_before_its_failure() {
    let mut q = SchedulingQueue::default();
    q.add(0, 0, None, sec(0));
    q.add(1, 0, None, sec(0));
    // Pod 0 fails at t=5 with a move request during its cycle: podBackoffQ, expiry 6.
    assert_eq!(pop_and_fail(&mut q, 0, sec(5), true), SubQueue::Backoff);
    q.add(2, 0, None, sec(3));
    q.add(3, 0, None, sec(7));
    assert_eq!(q.flush_backoff_completed(sec(6)), vec![0]);
    // Timestamps: 1 → 0 s, 2 → 3 s, 0 → 5 s (its failure), 3 → 7 s.
    assert_eq!(q.info(0).unwrap().timestamp, sec(5));
    assert_eq!(q.info(0).unwrap().attempts, 1);
    assert_eq!(pop_order(&mut q), vec![1, 2, 0, 3]);
}

#[test]
fn backoff_duration_doubles_per_recorded_failure_capped_at_max() {
    type AttemptsSecs = (u32, u64);
    // (initial s, max s, attempts → backoff s)
    let cases: &[(u64, u64, &[AttemptsSecs])] = &[
        (
            1,
            10,
            &[
                (0, 1),
                (1, 1),
                (2, 2),
                (3, 4),
                (4, 8),
                (5, 10),
                (6, 10),
                (40, 10),
            ],
        ),
        (2, 5, &[(1, 2), (2, 4), (3, 5), (4, 5)]),
        (3, 3, &[(1, 3), (2, 3)]),
    ];
    for &(initial, max, rows) in cases {
        let m = PodBackoffMap::new(sec(initial), sec(max));
        for &(attempts, want) in rows {
            assert_eq!(
                m.duration_for(attempts),
                sec(want),
                "{initial}s/{max}s, attempts {attempts}"
            );
        }
    }
    let c = QueueConfig::from_seconds(1, 10);
    assert_eq!(c, QueueConfig::default());
    // Huge configured values saturate instead of overflowing.
    let mut q = SchedulingQueue::new(QueueConfig::from_seconds(i64::MAX, i64::MAX));
    q.add(0, 0, None, sec(0));
    pop_and_fail(&mut q, 0, sec(1), true);
    assert_eq!(q.next_backoff_expiry(), Some(Millis(u64::MAX)));
    assert_eq!(q.next_backoff_flush(sec(0)), Some(Millis(u64::MAX)));
    assert!(q.flush_backoff_completed(sec(1_000_000)).is_empty());
}

#[test]
fn backoff_sequence_1_2_4_8_10_10_seconds() {
    // The pod fails at every tick at which it comes back; a move request comes during each of
    // its cycles, so it always goes to podBackoffQ. Expiry = failure + backoff.
    // (failure at s, recorded attempts, expiry s)
    let rows: &[(u64, u32, u64)] = &[
        (0, 1, 1),
        (1, 2, 3),
        (3, 3, 7),
        (7, 4, 15),
        (15, 5, 25),
        (25, 6, 35),
        (35, 7, 45),
    ];
    let mut q = SchedulingQueue::default();
    q.add(0, 0, None, sec(0));
    for &(fail_at, attempts, expiry) in rows {
        assert_eq!(
            pop_and_fail(&mut q, 0, sec(fail_at), true),
            SubQueue::Backoff
        );
        let rec = q.backoff_map().record(0).unwrap();
        assert_eq!(rec.attempts, attempts, "failure at {fail_at}");
        assert_eq!(rec.last_update, sec(fail_at));
        assert_eq!(q.view()[0].backoff_expiry, Some(sec(expiry)));
        assert_eq!(q.next_backoff_flush(sec(fail_at)), Some(sec(expiry)));
        // Not at the tick before the expiry; at the expiry tick.
        assert!(q.flush_backoff_completed(sec(expiry - 1)).is_empty());
        assert_eq!(q.flush_backoff_completed(sec(expiry)), vec![0]);
        assert_eq!(q.queue_of(0), Some(SubQueue::Active));
    }
}

#[test]
fn backoff_record_dropped_when_next_failure_is_more_than_max_after_last_recorded() {
    // Failures with no move request (→ unschedulableQ); the pod is brought back by an event.
    // (failure times ms, then (attempts, expiry ms) after each)
    let cases: &[Case<(u64, u32, u64)>] = &[
        (
            "gap 12.5 s > 10 s: count restarts",
            &[(0, 1, 1000), (1000, 2, 3000), (13_500, 1, 14_500)],
        ),
        (
            "gap exactly 10 s is not more than max: kept",
            &[(0, 1, 1000), (1000, 2, 3000), (11_000, 3, 15_000)],
        ),
        (
            "gap 10.001 s: restarts",
            &[(0, 1, 1000), (10_001, 1, 11_001)],
        ),
        (
            "at the cap, expiry between ticks: the next tick is > 10 s later, restarts",
            &[
                (500, 1, 1500),
                (1500, 2, 3500),
                (3500, 3, 7500),
                (7500, 4, 15_500),
                (15_500, 5, 25_500),
                // Moved at the 26 s tick, fails 10.5 s after the recorded 15.5 s.
                (26_000, 1, 27_000),
            ],
        ),
        (
            "long after a capped backoff: restarts at 1 s",
            &[
                (0, 1, 1000),
                (1000, 2, 3000),
                (3000, 3, 7000),
                (7000, 4, 15_000),
                (15_000, 5, 25_000),
                (25_000, 6, 35_000),
                (100_000, 1, 101_000),
            ],
        ),
    ];
    for (name, rows) in cases {
        let mut q = SchedulingQueue::default();
        q.add(0, 0, None, sec(0));
        for &(t, attempts, expiry) in rows.iter() {
            assert_eq!(requeue_and_fail(&mut q, 0, ms(t)), SubQueue::Unschedulable);
            let rec = q.backoff_map().record(0).unwrap();
            assert_eq!(
                (rec.attempts, q.backoff_map().backoff_time(0)),
                (attempts, Some(ms(expiry))),
                "{name}: failure at {t} ms"
            );
        }
    }
}

#[test]
fn a_failure_while_still_backing_off_is_not_recorded() {
    let mut q = SchedulingQueue::default();
    q.add(0, 0, None, sec(0));
    assert_eq!(pop_and_fail(&mut q, 0, sec(0), true), SubQueue::Backoff);
    // A spec update moves it from podBackoffQ to activeQ without clearing the record.
    assert_eq!(q.update(0, 0, None, None, true, ms(500)), SubQueue::Active);
    assert_eq!(pop_and_fail(&mut q, 0, ms(500), true), SubQueue::Backoff);
    let rec = q.backoff_map().record(0).unwrap();
    assert_eq!((rec.attempts, rec.last_update), (1, sec(0)));
    // Still expires at 1 s (measured from the recorded failure), though its timestamp is 0.5 s.
    assert_eq!(q.info(0).unwrap().timestamp, ms(500));
    assert_eq!(q.flush_backoff_completed(sec(1)), vec![0]);
}

#[test]
fn backoff_flush_at_exact_one_second_ticks() {
    // Failure at f ms with a move request → podBackoffQ, expiry f + 1 s; it moves at the first
    // 1 s tick not before the expiry. (failure ms, expiry ms, tick ms)
    let rows: &[(u64, u64, u64)] = &[
        (0, 1000, 1000),
        (1, 1001, 2000),
        (500, 1500, 2000),
        (999, 1999, 2000),
        (1000, 2000, 2000),
        (2999, 3999, 4000),
    ];
    for &(f, expiry, tick) in rows {
        let mut q = SchedulingQueue::default();
        q.add(0, 0, None, ms(f));
        pop_and_fail(&mut q, 0, ms(f), true);
        assert_eq!(q.view()[0].backoff_expiry, Some(ms(expiry)));
        assert_eq!(
            q.next_backoff_flush(ms(f)),
            Some(ms(tick)),
            "failure at {f}"
        );
        assert_eq!(q.next_flush(ms(f)), Some(ms(tick)));
        assert!(q.flush_backoff_completed(ms(tick - 1000)).is_empty());
        assert_eq!(
            q.flush_backoff_completed(ms(tick)),
            vec![0],
            "failure at {f}"
        );
    }
    // An already expired pod entering podBackoffQ after a tick moves at the next tick.
    let mut q = SchedulingQueue::default();
    q.add(0, 0, None, sec(0));
    pop_and_fail(&mut q, 0, sec(0), false); // unschedulableQ, record expires at 1 s
    q.flush_backoff_completed(sec(1));
    // The backoff has expired at 1 s: the event sends the pod to activeQ, not podBackoffQ.
    let r = q.on_cluster_event(InformerEvent::NodeAdd, sec(1), no_match);
    assert_eq!(
        r.moved,
        vec![Moved {
            pod: 0,
            to: SubQueue::Active
        }]
    );
    // Failing again at exactly 1 s is recorded (2 attempts, expiry 3 s).
    assert_eq!(pop_and_fail(&mut q, 0, sec(1), true), SubQueue::Backoff);
    assert_eq!(q.next_backoff_flush(ms(1001)), Some(sec(3)));
    assert_eq!(q.next_backoff_flush(sec(5)), Some(sec(5)));
}

#[test]
fn leftover_moves_after_strictly_more_than_60_s_at_30_s_ticks() {
    // (put back at ms, first 30 s tick that moves it)
    let rows: &[(u64, u64)] = &[
        (0, 90_000),
        (500, 90_000),
        (29_000, 90_000),
        (29_999, 90_000),
        (30_000, 120_000),
        (59_999, 120_000),
        (60_000, 150_000),
    ];
    for &(put_back, tick) in rows {
        let mut q = SchedulingQueue::default();
        q.add(0, 0, None, ms(put_back));
        assert_eq!(
            pop_and_fail(&mut q, 0, ms(put_back), false),
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
            let r = q.flush_unschedulable_leftover(t);
            assert_eq!(r.event, None, "put back at {put_back}, tick {t:?}");
            t = Millis(t.0 + 30_000);
        }
        let mrc_before = q.move_request_cycle();
        let r = q.flush_unschedulable_leftover(ms(tick));
        assert_eq!(r.event, Some(ClusterEvent::UnschedulableTimeout));
        assert_eq!(
            r.moved,
            vec![Moved {
                pod: 0,
                to: SubQueue::Active
            }]
        );
        assert_eq!(mrc_before, -1);
        assert_eq!(
            q.move_request_cycle(),
            1,
            "a leftover move is a move request"
        );
        // It keeps the time it was put back.
        assert_eq!(q.info(0).unwrap().timestamp, ms(put_back));
    }
    // The helper never answers a tick before `from`.
    let mut q = SchedulingQueue::default();
    q.add(0, 0, None, sec(0));
    pop_and_fail(&mut q, 0, sec(0), false);
    assert_eq!(q.next_leftover_flush(sec(91)), Some(sec(120)));
}

#[test]
fn move_request_cycle_decides_backoff_or_unschedulable() {
    #[derive(Clone, Copy, Debug)]
    enum During {
        Nothing,
        EventBeforePop,
        NodeAdd,
        NodeDelete,
        NodeUpdateIrrelevantWithOtherUnschedulable,
        NodeUpdateIrrelevantNoUnschedulable,
        NodeUpdateTaints,
        AssignedPodAddNoMatch,
        StorageClassImmediate,
        StorageClassWffc,
        LeftoverFlushNothing,
    }
    use During::*;
    let rows: &[(During, SubQueue)] = &[
        (Nothing, SubQueue::Unschedulable),
        (EventBeforePop, SubQueue::Unschedulable),
        (NodeAdd, SubQueue::Backoff),
        (NodeDelete, SubQueue::Unschedulable),
        (
            NodeUpdateIrrelevantWithOtherUnschedulable,
            SubQueue::Unschedulable,
        ),
        (NodeUpdateIrrelevantNoUnschedulable, SubQueue::Backoff),
        (NodeUpdateTaints, SubQueue::Backoff),
        (AssignedPodAddNoMatch, SubQueue::Backoff),
        (StorageClassImmediate, SubQueue::Unschedulable),
        (StorageClassWffc, SubQueue::Backoff),
        (LeftoverFlushNothing, SubQueue::Unschedulable),
    ];
    for &(during, want) in rows {
        let t = sec(100);
        let mut q = SchedulingQueue::default();
        q.add(0, 0, None, sec(0));
        q.add(1, 0, None, sec(0));
        if matches!(during, NodeUpdateIrrelevantWithOtherUnschedulable) {
            // Pod 0 fails first and sits in unschedulableQ.
            pop_and_fail(&mut q, 0, sec(0), false);
        } else {
            // Pod 0 is popped too, and will fail after pod 1's cycle.
            q.pop();
        }
        if matches!(during, EventBeforePop) {
            q.on_cluster_event(InformerEvent::NodeAdd, t, no_match);
        }
        let info = q.pop().unwrap();
        assert_eq!(info.pod, 1);
        let cycle = q.scheduling_cycle();
        assert_eq!(cycle, 2);
        let ev = match during {
            Nothing | EventBeforePop => None,
            NodeAdd => Some(InformerEvent::NodeAdd),
            NodeDelete => Some(InformerEvent::NodeDelete),
            NodeUpdateIrrelevantWithOtherUnschedulable | NodeUpdateIrrelevantNoUnschedulable => {
                Some(InformerEvent::NodeUpdate(NodeChange::default()))
            }
            NodeUpdateTaints => Some(InformerEvent::NodeUpdate(NodeChange {
                taints: true,
                ..NodeChange::default()
            })),
            AssignedPodAddNoMatch => Some(InformerEvent::AssignedPodAdd),
            StorageClassImmediate => Some(InformerEvent::StorageClassAdd {
                wait_for_first_consumer: false,
            }),
            StorageClassWffc => Some(InformerEvent::StorageClassAdd {
                wait_for_first_consumer: true,
            }),
            LeftoverFlushNothing => {
                q.flush_unschedulable_leftover(t);
                None
            }
        };
        if let Some(ev) = ev {
            q.on_cluster_event(ev, t, no_match);
        }
        let got = q
            .add_unschedulable_if_not_present(info, cycle, None, t)
            .unwrap();
        assert_eq!(got, want, "{during:?}");
    }
    // A pod popped in an earlier cycle than the move request also goes to podBackoffQ.
    let mut q = SchedulingQueue::default();
    q.add(0, 0, None, sec(0));
    q.add(1, 0, None, sec(0));
    let a = q.pop().unwrap();
    let a_cycle = q.scheduling_cycle();
    let _b = q.pop().unwrap();
    q.move_all_to_active_or_backoff(ClusterEvent::NodeAdd, sec(0));
    assert_eq!(q.move_request_cycle(), 2);
    assert_eq!(
        q.add_unschedulable_if_not_present(a, a_cycle, None, sec(0)),
        Ok(SubQueue::Backoff)
    );
    // A pod already queued is an error.
    let dup = QueuedPodInfo {
        ..*q.info(0).unwrap()
    };
    assert_eq!(
        q.add_unschedulable_if_not_present(dup, 2, None, sec(0)),
        Err(QueueError::AlreadyPresent {
            pod: 0,
            queue: SubQueue::Backoff
        })
    );
    assert_eq!(
        QueueError::AlreadyPresent {
            pod: 0,
            queue: SubQueue::Backoff
        }
        .to_string(),
        "pod is already present in the podBackoffQ"
    );
}

#[test]
fn cluster_events_move_unschedulable_pods() {
    // Pods 0 and 1 fail at t=0 with no move request (unschedulableQ, backoff expiry 1 s); pod 1
    // has a required pod-affinity term matching the assigned pod of the AssignedPod* events.
    // The event comes at `at`: at 0.5 s they are still backing off (→ podBackoffQ), at 5 s not.
    type Row = (InformerEvent, Option<ClusterEvent>, &'static [PodId]);
    let sc = |w| InformerEvent::StorageClassAdd {
        wait_for_first_consumer: w,
    };
    let nu = |c: NodeChange| InformerEvent::NodeUpdate(c);
    let d = NodeChange::default();
    use ClusterEvent as E;
    let rows: &[Row] = &[
        (InformerEvent::NodeAdd, Some(E::NodeAdd), &[0, 1]),
        (InformerEvent::NodeDelete, None, &[]),
        (nu(d), None, &[]),
        (
            nu(NodeChange {
                became_schedulable: true,
                labels: true,
                ..d
            }),
            Some(E::NodeSpecUnschedulableChange),
            &[0, 1],
        ),
        (
            nu(NodeChange {
                allocatable: true,
                taints: true,
                ..d
            }),
            Some(E::NodeAllocatableChange),
            &[0, 1],
        ),
        (
            nu(NodeChange { labels: true, ..d }),
            Some(E::NodeLabelChange),
            &[0, 1],
        ),
        (
            nu(NodeChange { taints: true, ..d }),
            Some(E::NodeTaintChange),
            &[0, 1],
        ),
        (
            nu(NodeChange {
                conditions: true,
                ..d
            }),
            Some(E::NodeConditionChange),
            &[0, 1],
        ),
        (InformerEvent::AssignedPodAdd, Some(E::AssignedPodAdd), &[1]),
        (
            InformerEvent::AssignedPodUpdate,
            Some(E::AssignedPodUpdate),
            &[1],
        ),
        (
            InformerEvent::AssignedPodDelete,
            Some(E::AssignedPodDelete),
            &[0, 1],
        ),
        (InformerEvent::PvAdd, Some(E::PvAdd), &[0, 1]),
        (InformerEvent::PvUpdate, Some(E::PvUpdate), &[0, 1]),
        (InformerEvent::PvcAdd, Some(E::PvcAdd), &[0, 1]),
        (InformerEvent::PvcUpdate, Some(E::PvcUpdate), &[0, 1]),
        (sc(false), None, &[]),
        (sc(true), Some(E::StorageClassAdd), &[0, 1]),
        (InformerEvent::ServiceAdd, Some(E::ServiceAdd), &[0, 1]),
        (
            InformerEvent::ServiceUpdate,
            Some(E::ServiceUpdate),
            &[0, 1],
        ),
        (
            InformerEvent::ServiceDelete,
            Some(E::ServiceDelete),
            &[0, 1],
        ),
        (InformerEvent::CsiNodeAdd, Some(E::CsiNodeAdd), &[0, 1]),
        (
            InformerEvent::CsiNodeUpdate,
            Some(E::CsiNodeUpdate),
            &[0, 1],
        ),
    ];
    for &(ev, want_event, want_moved) in rows {
        for (at, to) in [(ms(500), SubQueue::Backoff), (sec(5), SubQueue::Active)] {
            let mut q = SchedulingQueue::default();
            q.add(0, 0, None, sec(0));
            q.add(1, 0, None, sec(0));
            pop_and_fail(&mut q, 0, sec(0), false);
            pop_and_fail(&mut q, 1, sec(0), false);
            let r = q.on_cluster_event(ev, at, |p| p == 1);
            assert_eq!(r.event, want_event, "{ev:?}");
            let want: Vec<Moved> = want_moved.iter().map(|&pod| Moved { pod, to }).collect();
            assert_eq!(r.moved, want, "{ev:?} at {at:?}");
            assert_eq!(q.num_unschedulable_pods(), 2 - want_moved.len());
            assert_eq!(
                q.move_request_cycle(),
                if want_event.is_some() { 2 } else { -1 },
                "{ev:?}"
            );
        }
    }
    assert_eq!(E::CsiNodeAdd.name(), "CSINodeAdd");
    assert_eq!(E::NodeAdd.name(), "NodeAdd");
    // With no unschedulable pod, a node update of any kind is a move request (`Unknown`).
    let mut q = SchedulingQueue::default();
    let r = q.on_cluster_event(nu(d), sec(0), no_match);
    assert_eq!((r.event, q.move_request_cycle()), (Some(E::Unknown), 0));
}

#[test]
fn update_and_delete_of_queued_pods() {
    // Pod 0 ends in podBackoffQ (failure at 0 with a move request), pod 1 in unschedulableQ
    // (failure at 0), pod 2 in activeQ (added at 0).
    fn setup() -> SchedulingQueue {
        let mut q = SchedulingQueue::default();
        for p in 0..3 {
            q.add(p, 0, None, sec(0));
        }
        pop_and_fail(&mut q, 0, sec(0), true);
        pop_and_fail(&mut q, 1, sec(0), false);
        q
    }
    // (pod, spec changed, where afterwards, backoff record kept, timestamp afterwards)
    let rows: &[(PodId, bool, SubQueue, bool, Millis)] = &[
        (0, false, SubQueue::Active, true, sec(0)),
        (0, true, SubQueue::Active, true, sec(0)),
        (1, false, SubQueue::Unschedulable, true, sec(0)),
        (1, true, SubQueue::Active, false, sec(0)),
        (2, true, SubQueue::Active, false, sec(0)),
        (9, true, SubQueue::Active, false, sec(4)),
    ];
    for &(pod, changed, want, kept, ts) in rows {
        let mut q = setup();
        assert_eq!(
            q.update(pod, 5, None, None, changed, sec(4)),
            want,
            "pod {pod}"
        );
        assert_eq!(q.backoff_map().record(pod).is_some(), kept, "pod {pod}");
        let info = q.info(pod).unwrap();
        assert_eq!((info.timestamp, info.priority), (ts, 5), "pod {pod}");
    }
    // Delete: from activeQ the backoff record survives (upstream clears it only when the pod
    // was not in activeQ); from podBackoffQ or unschedulableQ it is cleared.
    let mut q = setup();
    q.update(0, 0, None, None, false, sec(0)); // pod 0: podBackoffQ → activeQ, record kept
    q.delete(0);
    assert_eq!(q.queue_of(0), None);
    assert!(q.backoff_map().record(0).is_some());
    q.delete(1);
    assert_eq!(q.queue_of(1), None);
    assert!(q.backoff_map().record(1).is_none());
    let mut q = setup();
    q.delete(0);
    assert!(q.backoff_map().record(0).is_none());
    assert_eq!(
        (
            q.num_active_pods(),
            q.num_backoff_pods(),
            q.num_unschedulable_pods()
        ),
        (1, 0, 1)
    );
}

#[test]
fn nominated_pods() {
    let mut q = SchedulingQueue::default();
    // Add reads status.nominatedNodeName.
    q.add(0, 0, Some("n1"), sec(0));
    q.add(1, 0, None, sec(0));
    q.add(2, 0, Some("n1"), sec(0));
    assert_eq!(q.nominated_pods_for_node("n1"), &[0, 2]);
    assert_eq!(q.nominated_pods_for_node("n2"), &[] as &[PodId]);
    // Preemption nominates in memory; a node changes by delete + append.
    q.update_nominated_pod_for_node(1, "n2");
    q.update_nominated_pod_for_node(0, "n2");
    assert_eq!(q.nominated_pods_for_node("n1"), &[2]);
    assert_eq!(q.nominated_pods_for_node("n2"), &[1, 0]);
    // Update with both statuses empty keeps the in-memory nomination.
    q.update(1, 0, None, None, false, sec(1));
    assert_eq!(q.nominated().node_of(1), Some("n2"));
    // A new status wins; a cleared status (old non-empty) drops it.
    q.update(1, 0, None, Some("n3"), false, sec(1));
    assert_eq!(q.nominated().node_of(1), Some("n3"));
    q.update(1, 0, Some("n3"), None, false, sec(1));
    assert_eq!(q.nominated().node_of(1), None);
    // Pop keeps the nomination; requeue re-reads the status (here: empty → dropped).
    let head = q.pop().unwrap();
    assert_eq!(head.pod, 0);
    assert_eq!(q.nominated().node_of(0), Some("n2"));
    let c = q.scheduling_cycle();
    q.add_unschedulable_if_not_present(head, c, Some("n4"), sec(1))
        .unwrap();
    assert_eq!(q.nominated().node_of(0), Some("n4"));
    // Assume drops it; delete drops it.
    q.delete_nominated_pod_if_exists(0);
    q.delete(2);
    let all: Vec<(&str, PodId)> = q.nominated().iter().collect();
    assert!(all.is_empty(), "{all:?}");
}

#[test]
fn view_lists_every_pod_with_its_sub_queue() {
    let mut q = SchedulingQueue::default();
    q.add(0, 0, None, sec(0));
    q.add(1, 0, Some("n1"), sec(0));
    q.add(2, 3, None, sec(2));
    pop_and_fail(&mut q, 2, sec(2), true); // podBackoffQ, expiry 3 s
    pop_and_fail(&mut q, 0, sec(2), false); // unschedulableQ, record expiry 3 s
    let v = q.view();
    let rows: Vec<ViewRow> = v
        .iter()
        .map(|r| {
            (
                r.pod,
                r.queue,
                r.attempts,
                r.timestamp,
                r.backoff_attempts,
                r.backoff_expiry,
                r.nominated_node.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            (1, SubQueue::Active, 0, sec(0), 0, None, Some("n1")),
            (2, SubQueue::Backoff, 1, sec(2), 1, Some(sec(3)), None),
            (0, SubQueue::Unschedulable, 1, sec(2), 1, Some(sec(3)), None),
        ]
    );
    assert_eq!(SubQueue::Backoff.name(), "podBackoffQ");
    assert_eq!(q.len(), 3);
    assert_eq!(q.num_active_pods(), 1);
    assert_eq!(sec(90).as_secs_f64(), 90.0);
    // Same operations, same view.
    let mut a = SchedulingQueue::default();
    let mut b = SchedulingQueue::default();
    for q in [&mut a, &mut b] {
        for p in (0..20).rev() {
            q.add(p, (p % 3) as i32, None, ms((p as u64 % 4) * 250));
        }
    }
    assert_eq!(a.view(), b.view());
}

#[test]
fn jumping_from_flush_to_flush_with_next_flush() {
    // A pod that never fits and sees no cluster event: put back at 0, retried at 90 (> 60 s at
    // the 30 s ticks), put back at 90, retried at 180 (150 − 90 = 60 is not more than 60), …
    // Each failure comes more than 10 s after the previous one, so the record restarts at 1.
    let mut q = SchedulingQueue::default();
    q.add(0, 0, None, sec(0));
    let mut now = sec(0);
    let mut retried_at = Vec::new();
    for _ in 0..4 {
        assert_eq!(pop_and_fail(&mut q, 0, now, false), SubQueue::Unschedulable);
        assert_eq!(q.backoff_map().record(0).unwrap().attempts, 1);
        // The driver has handled the ticks at `now`; the next one is strictly later.
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
    assert_eq!(retried_at, vec![sec(90), sec(180), sec(270), sec(360)]);
    assert!(q.pop().is_some());
    assert!(q.pop().is_none());
    assert_eq!(q.next_flush(now), None);
    // Add of a pod sitting in unschedulableQ takes it out, with a fresh timestamp.
    q.add(1, 0, None, now);
    pop_and_fail(&mut q, 1, now, false);
    q.add(1, 0, None, sec(400));
    assert_eq!(q.queue_of(1), Some(SubQueue::Active));
    assert_eq!(q.info(1).unwrap().timestamp, sec(400));
    assert_eq!(q.num_unschedulable_pods(), 0);
}

#[test]
fn nominated_pods_tell_which_nodes_changed_since_a_generation() {
    let mut n = NominatedPods::default();
    let start = n.generation();
    n.add(1, Some("a"), None);
    n.add(2, Some("b"), None);
    let after_two = n.generation();
    // Pod 1 moves from a to c: both nodes changed.
    n.add(1, Some("c"), None);
    let changed: Vec<&str> = n.changed_since(after_two).expect("recent").collect();
    assert_eq!(changed, ["a", "c"]);
    let all: Vec<&str> = n.changed_since(start).expect("recent").collect();
    assert_eq!(all, ["a", "b", "a", "c"]);
    assert_eq!(n.changed_since(n.generation()).expect("now").count(), 0);
    // A generation the map never had cannot be answered.
    assert!(n.changed_since(n.generation() + 1).is_none());
    // Sixteen more changes push the first ones out: too long ago to tell.
    for i in 0..8 {
        n.add(3, Some(if i % 2 == 0 { "x" } else { "y" }), None);
    }
    assert!(n.changed_since(start).is_none());
    assert_eq!(n.changed_since(after_two).map(Iterator::count), None);
    let last = n.generation();
    n.delete(3);
    let changed: Vec<&str> = n.changed_since(last).expect("recent").collect();
    assert_eq!(changed, ["y"]);
}
