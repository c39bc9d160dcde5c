use super::*;
use crate::input::Source;
use crate::rng::Rng;
use crate::trace::Outcome;
use serde_json::{json, Value};

fn load(docs: &[Value]) -> Scenario {
    let text = serde_json::to_string(&json!({"kind": "List", "items": docs})).expect("json");
    Scenario::load(&[Source {
        name: "t.json",
        text: &text,
    }])
    .unwrap_or_else(|e| panic!("{e:?}"))
}

fn node(name: &str, cpu: &str, pods: i64) -> Value {
    json!({"kind": "Node", "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name}},
        "status": {"allocatable": {"cpu": cpu, "memory": "8Gi", "pods": pods}}})
}

fn pod(name: &str, cpu: &str, priority: i32) -> Value {
    json!({"kind": "Pod", "metadata": {"name": name},
        "spec": {"priority": priority, "containers": [{"name": "c", "resources": {"requests": {"cpu": cpu}}}]}})
}

fn timeline(spec: Value) -> Value {
    json!({"kind": "Timeline", "apiVersion": "schedlab.dev/v1alpha1", "spec": spec})
}

/// A scenario with retries, a failed binding, latency, node and pod changes.
fn story() -> Scenario {
    let mut docs = vec![node("n1", "2", 10), node("n2", "1", 10)];
    for i in 0..6 {
        docs.push(pod(&format!("p{i}"), "700m", i % 3));
    }
    docs.push(timeline(json!({"bindLatency": "1500ms", "changes": [
        {"at": 0, "failBinding": "p2"},
        {"at": 5, "addNode": node("n3", "1", 10)},
        {"at": 40, "deletePod": "p0"},
        {"at": 41, "cordonNode": "n3"},
        {"at": 70, "uncordonNode": "n3"},
        {"at": 75, "createPods": {"replicas": 3, "template": pod("batch", "300m", 5)}},
        {"at": 100, "deleteNode": "n2"},
    ]})));
    load(&docs)
}

fn summary(sim: &Simulation) -> Vec<(Millis, String)> {
    sim.steps()[..sim.position()]
        .iter()
        .map(|s| {
            (
                s.time,
                format!("{:?} {:?} {:?}", s.kind, s.move_event, s.moved),
            )
        })
        .collect()
}

#[test]
fn the_story_runs_to_the_end_and_every_pod_settles() {
    let s = story();
    let mut sim = Simulation::new(&s, 3, false);
    assert_eq!(sim.run(Limits::default()), StopReason::Quiescent);
    assert!(sim.is_finished());
    // Nothing is left in flight and the queue holds only unschedulable pods.
    assert_eq!(sim.queue().num_active_pods(), 0);
    assert_eq!(sim.queue().num_backoff_pods(), 0);
    for (i, p) in sim.pod_states().iter().enumerate() {
        assert!(
            !matches!(p.phase, PodPhase::Assumed(_)),
            "pod {i} still assumed"
        );
    }
    // p2's first binding failed (failBinding).
    let p2 = sim
        .cluster()
        .pods()
        .iter()
        .position(|p| p.full_name == "default/p2")
        .expect("p2");
    assert!(sim.events().iter().any(|e| e.object == "default/p2"
        && e.message == "Binding rejected: injected fault (failBinding)"));
    assert!(sim
        .steps()
        .iter()
        .any(|s| s.kind == StepKind::BindFailed { pod: p2 }));
    // p0 was deleted; the three batch pods exist with their numbered names.
    let names: Vec<&str> = sim
        .cluster()
        .pods()
        .iter()
        .map(|p| p.full_name.as_str())
        .collect();
    for n in ["default/batch-0", "default/batch-1", "default/batch-2"] {
        assert!(names.contains(&n), "{names:?}");
    }
    assert_eq!(sim.pod_states()[0].phase, PodPhase::Deleted);
    assert!(!sim.cluster().node_index().contains_key("n2"));
}

#[test]
fn a_stepped_run_equals_a_continuous_run_and_repeats_exactly() {
    let s = story();
    let mut continuous = Simulation::new(&s, 11, true);
    continuous.run(Limits::default());
    let mut stepped = Simulation::new(&s, 11, true);
    while stepped.step().is_some() {}
    assert_eq!(summary(&continuous), summary(&stepped));
    assert_eq!(continuous.cycles(), stepped.cycles());
    assert_eq!(continuous.events(), stepped.events());
    let again = s.run(11, true);
    let report = |r: &crate::simulation::Run| crate::report::json_report(r, true);
    assert_eq!(
        report(&again),
        report(&continuous.to_run(StopReason::Quiescent))
    );
}

#[test]
fn going_back_gives_the_state_a_fresh_run_has_at_that_step() {
    // Long enough for replays from a checkpoint (interval 256 steps).
    let mut docs: Vec<Value> = (0..8).map(|i| node(&format!("n{i}"), "4", 40)).collect();
    for i in 0..300 {
        docs.push(pod(&format!("p{i}"), "150m", i % 4));
    }
    docs.push(timeline(json!({"bindLatency": "250ms", "changes": [
        {"at": 1, "addNode": node("late", "8", 60)},
        {"at": 2, "deletePod": "p7"},
        {"at": 3, "createPods": {"replicas": 40, "template": pod("w", "100m", 1)}},
    ]})));
    let s = load(&docs);
    let mut sim = Simulation::new(&s, 5, false);
    sim.run(Limits::default());
    let total = sim.position();
    assert!(total > 600, "{total} steps");
    let log = summary(&sim);
    for k in [total, 0, 1, 255, 256, 257, 400, total - 1, 3, total / 2] {
        sim.go_to_step(k);
        let mut fresh = Simulation::new(&s, 5, false);
        fresh.go_to_step(k);
        assert_eq!(sim.position(), k);
        assert_eq!(sim.now(), fresh.now(), "step {k}");
        assert_eq!(sim.queue_view(), fresh.queue_view(), "step {k}");
        assert_eq!(sim.pod_states(), fresh.pod_states(), "step {k}");
        assert_eq!(
            sim.cluster().pod_node(),
            fresh.cluster().pod_node(),
            "step {k}"
        );
        assert_eq!(sim.cycles_done(), fresh.cycles_done(), "step {k}");
    }
    // Forward again from the middle: the same history.
    sim.go_to_step(total / 3);
    sim.run(Limits::default());
    assert_eq!(summary(&sim), log);
    sim.step_back();
    assert_eq!(sim.position(), total - 1);
}

#[test]
fn cycle_detail_recomputes_the_tables_of_a_light_run() {
    let s = story();
    let mut light = Simulation::new(&s, 2, false);
    light.run(Limits::default());
    let mut full = Simulation::new(&s, 2, true);
    full.run(Limits::default());
    assert!(light.cycles().iter().all(|c| c.filter.is_empty()));
    for i in 0..full.cycles().len() {
        assert_eq!(
            light.cycle_detail(i).as_ref(),
            Some(&full.cycles()[i]),
            "cycle {i}"
        );
    }
    assert!(light.cycle_detail(full.cycles().len()).is_none());
}

#[test]
fn limits_stop_the_run_early() {
    let s = story();
    let mut sim = Simulation::new(&s, 0, false);
    assert_eq!(sim.run_until(Millis::secs(40)), StopReason::Until);
    assert!(sim.now() <= Millis::secs(40));
    assert!(sim.next_time().is_some_and(|t| t > Millis::secs(40)));
    let mut sim = Simulation::new(&s, 0, false);
    assert_eq!(
        sim.run(Limits {
            until: None,
            max_cycles: Some(3)
        }),
        StopReason::MaxCycles
    );
    assert_eq!(sim.cycles_done(), 3);
}

#[test]
fn a_run_stops_at_the_default_bounds_with_a_warning() {
    // One pod that never fits, retried about once a minute (the unschedulable queue's flush),
    // and a node that joins after two days: without bounds the run would go on for two days
    // of retries. The default bound stops it at 24h, and says so.
    let s = load(&[
        node("n1", "1", 10),
        pod("big", "2", 0),
        timeline(json!({"changes": [{"at": "48h", "addNode": node("n2", "4", 10)}]})),
    ]);
    let run = s.run_with(0, false, Limits::default());
    assert_eq!(run.stop, StopReason::Until);
    assert!(run.end_time <= Limits::DEFAULT_UNTIL);
    let warning = run.warning.expect("a warning");
    assert!(warning.contains("default bound of 24h"), "{warning}");
    assert!(warning.contains("--until"), "{warning}");
    // A day of retries: at most one per 60 s flush and a few from the backoff at the start.
    assert!(
        run.cycles.len() <= 24 * 60 + 10,
        "{} cycles",
        run.cycles.len()
    );

    // Asked for, the bound is the user's: no warning, and the node joins.
    let run = s.run_with(
        0,
        false,
        Limits {
            until: Some(Millis::secs(72 * 3600)),
            max_cycles: None,
        },
    );
    assert_eq!(run.stop, StopReason::Quiescent);
    assert_eq!(run.warning, None);
    let report = crate::report::json_report(&run, false);
    assert_eq!(report["pods"][0]["node"], "n2");
    assert_eq!(report["end"].get("warning"), None);

    // The cycle bound, when it comes first, is named.
    let warning = Limits::default().default_bound_warning(StopReason::MaxCycles);
    assert!(warning.is_some_and(|w| w.contains("200000 scheduling cycles")));
    let asked = Limits {
        until: None,
        max_cycles: Some(5),
    };
    assert_eq!(asked.default_bound_warning(StopReason::MaxCycles), None);
}

#[test]
fn equal_priorities_pop_in_input_order_and_higher_priorities_first() {
    // queue-preemption.md A.2: priority first, then the time queued; input order breaks ties.
    let s = load(&[
        node("n", "10", 110),
        pod("low-a", "100m", 1),
        pod("high", "100m", 9),
        pod("low-b", "100m", 1),
        pod("mid", "100m", 5),
    ]);
    let run = s.run(0, false);
    let order: Vec<&str> = run
        .cycles
        .iter()
        .map(|c| run.cluster.pods()[c.pod].full_name.as_str())
        .collect();
    assert_eq!(
        order,
        [
            "default/high",
            "default/mid",
            "default/low-a",
            "default/low-b"
        ]
    );
}

/// Random clusters and timelines: after every step, no node holds more than it can (bound
/// plus assumed pods under PodFitsResources), and no pod is in a cycle while its binding is
/// in flight.
#[test]
fn no_node_is_overcommitted_and_no_pod_is_scheduled_twice() {
    let mut r = Rng::new(99);
    for case in 0..60 {
        let n_nodes = 1 + r.intn(4) as usize;
        let mut docs: Vec<Value> = (0..n_nodes)
            .map(|i| {
                node(
                    &format!("n{i}"),
                    ["1", "2", "3"][r.intn(3) as usize],
                    2 + r.intn(4) as i64,
                )
            })
            .collect();
        let n_pods = 1 + r.intn(12) as usize;
        for i in 0..n_pods {
            docs.push(pod(
                &format!("p{i}"),
                ["200m", "500m", "900m", "1500m"][r.intn(4) as usize],
                r.intn(3) as i32,
            ));
        }
        let mut changes = Vec::new();
        let mut t = 0;
        for k in 0..r.intn(6) {
            t += r.intn(50);
            changes.push(match r.intn(6) {
                0 => json!({"at": t, "addNode": node(&format!("x{k}"), "2", 5)}),
                1 => json!({"at": t, "cordonNode": "n0"}),
                2 => json!({"at": t, "uncordonNode": "n0"}),
                3 => json!({"at": t, "deletePod": format!("p{}", r.intn(n_pods as u64))}),
                4 => json!({"at": t, "failBinding": format!("p{}", r.intn(n_pods as u64))}),
                _ => json!({"at": t, "createPods": {"replicas": 1 + r.intn(3), "template": pod(&format!("b{k}"), "400m", 2)}}),
            });
        }
        let latency = ["0s", "300ms", "2s"][r.intn(3) as usize];
        docs.push(timeline(json!({"bindLatency": latency, "bindFailurePercent": r.intn(3) * 20, "changes": changes})));
        let s = load(&docs);
        let mut sim = Simulation::new(&s, case, false);
        let mut in_flight = std::collections::BTreeSet::new();
        while let Some(i) = sim.step() {
            let step = &sim.steps()[i];
            match &step.kind {
                StepKind::Cycle { cycle } => {
                    let c = &sim.cycles()[*cycle];
                    assert!(
                        !in_flight.contains(&c.pod),
                        "case {case}: pod {} scheduled while binding",
                        c.pod
                    );
                    if c.outcome == Outcome::Scheduled {
                        in_flight.insert(c.pod);
                    }
                }
                StepKind::Bound { pod, .. } | StepKind::BindFailed { pod } => {
                    assert!(
                        in_flight.remove(pod),
                        "case {case}: binding of {pod} not in flight"
                    );
                }
                _ => {}
            }
            let c = sim.cluster();
            for n in c.nodes() {
                let cpu: i64 = n
                    .pods()
                    .iter()
                    .map(|&p| c.pods()[p].node_request.milli_cpu)
                    .sum();
                assert!(
                    cpu <= n.allocatable().milli_cpu,
                    "case {case}: {} over-committed: {cpu}m",
                    n.name()
                );
                assert!(
                    n.pods().len() as i64 <= n.allocatable().pods,
                    "case {case}: {} has too many pods",
                    n.name()
                );
            }
            assert!(sim.position() < 10_000, "case {case}: the run does not end");
        }
        // Pods deleted while their binding was in flight leave the set through deletion.
        for p in in_flight {
            assert_eq!(sim.pod_states()[p].phase, PodPhase::Deleted, "case {case}");
        }
    }
}

/// The cycles of a compacted run written out in full: each repeat's block again after its
/// kept copy, `times` times, each copy `every` later.
fn expanded_cycles(run: &crate::simulation::Run) -> Vec<(Millis, PodId, Outcome, Option<String>)> {
    let mut out = Vec::new();
    let mut repeats = run.repeats.iter().peekable();
    for (i, t) in run.cycles.iter().enumerate() {
        out.push((
            Millis((t.time * 1000.0).round() as u64),
            t.pod,
            t.outcome,
            t.message.clone(),
        ));
        while let Some(r) = repeats.next_if(|r| r.cycles.end == i + 1) {
            for copy in 1..=r.times as u64 {
                for c in &run.cycles[r.cycles.clone()] {
                    let at = Millis((c.time * 1000.0).round() as u64 + copy * r.every.0);
                    out.push((at, c.pod, c.outcome, c.message.clone()));
                }
            }
        }
    }
    out
}

#[test]
fn a_year_of_identical_retries_is_kept_as_one_repeat() {
    // One pod that never fits n1, and a node that joins after a year. v1.17 retries it at
    // every leftover flush (30 s ticks) more than 60 s after it failed: t = 0, 90 s, 180 s, ...
    // 31 536 000 s (365 days) is a multiple of 90 s; the node joins first at that instant
    // (timeline changes before flushes and cycles), so the cycle then binds the pod:
    // 31 536 000 / 90 = 350 400 failed cycles, then one that schedules.
    let year = Millis::secs(365 * 24 * 3600);
    let s = load(&[
        node("n1", "1", 10),
        pod("big", "2", 0),
        timeline(json!({"changes": [{"at": "8760h", "addNode": node("n2", "4", 10)}]})),
    ]);
    let run = s.run_with(
        0,
        false,
        Limits {
            until: Some(Millis(year.0 + 3_600_000)),
            max_cycles: Some(usize::MAX),
        },
    );
    assert_eq!(run.stop, StopReason::Quiescent);
    assert_eq!(run.repeats.len(), 1, "{:?}", run.repeats);
    let r = &run.repeats[0];
    assert_eq!(r.every, Millis::secs(90));
    assert_eq!(r.cycles.len(), 1);
    let total = run.cycles.len() + r.cycles_run();
    assert_eq!(total, 350_401);
    // Kept: a few copies of the block, the last one, and the cycle that binds.
    assert!(run.cycles.len() <= 10, "{} kept cycles", run.cycles.len());
    assert!(run.steps.len() <= 30, "{} kept steps", run.steps.len());
    let last = run.cycles.last().expect("a cycle");
    assert_eq!(last.outcome, Outcome::Scheduled);
    assert_eq!(last.time, year.as_secs_f64());
    // Kept: the cycles at 0, 90, 180 and 270 s (4 copies of the block [cycle, leftover
    // flush]), then 350 395 counted copies (the last from 270 + 350 395 × 90 = 31 535 820 s),
    // then the copy at 31 535 910 s cut short by the node's arrival where its flush would be,
    // kept as it ran, and the cycle that binds: 4 + 350 395 + 1 = 350 400 failures.
    let report = crate::report::json_report(&run, false);
    assert_eq!(
        report["repeats"],
        json!([{"firstCycle": 3, "cycles": 1, "firstEvent": 3, "events": 1,
            "times": 350_395, "every": 90.0, "lastTime": 31_535_820.0}])
    );
    let text = crate::report::text_report(&run);
    assert!(
        text.contains("... the 1 cycle above ran 350395 more times, every 1m30s, the last from t=8759h57m0s\n#350400 t=8759h58m30s"),
        "{text}"
    );
    assert!(text.contains("#350401 t=8760h0m0s"), "{text}");
    let expanded = expanded_cycles(&run);
    assert_eq!(expanded.len(), 350_401);
    assert_eq!(expanded[350_399].0, Millis(year.0 - 90_000));
    assert_eq!(expanded[350_399].2, Outcome::Unschedulable);
    assert_eq!(
        expanded[350_399].3.as_deref(),
        Some("0/1 nodes are available: 1 Insufficient cpu.")
    );
}

#[test]
fn a_compacted_run_written_out_is_the_full_run() {
    // Lossless: the same scenario without compaction (the playground's log) lists every
    // cycle and event; the compacted run's, written out, are the same. Two pods that never
    // fit, one with a preemption attempt each time (low priority victims cannot be evicted
    // for a pod that needs more than the node has), and a node that joins after 3 hours.
    let s = load(&[
        node("n1", "1", 10),
        pod("big", "2", 5),
        pod("bigger", "3", 0),
        pod("small", "500m", 0),
        timeline(json!({"changes": [{"at": "3h", "addNode": node("n2", "8", 10)}]})),
    ]);
    let limits = Limits {
        until: Some(Millis::secs(4 * 3600)),
        max_cycles: None,
    };
    let run = s.run_with(3, true, limits);
    assert!(!run.repeats.is_empty());
    let mut full = Simulation::new(&s, 3, true);
    full.set_keep_history(false);
    let stop = full.run(limits);
    assert!(full.repeats().is_empty());
    // Its report (folded at the end) is the compacting run's, byte for byte.
    assert_eq!(
        crate::report::json_report(&full.to_run(stop), true).to_string(),
        crate::report::json_report(&run, true).to_string()
    );
    let want: Vec<_> = full
        .cycles()
        .iter()
        .map(|t| {
            (
                Millis((t.time * 1000.0).round() as u64),
                t.pod,
                t.outcome,
                t.message.clone(),
            )
        })
        .collect();
    let got = expanded_cycles(&run);
    assert_eq!(got.len(), want.len());
    assert!(got == want, "the written-out cycles differ");
    let events: usize = run.events.len()
        + run
            .repeats
            .iter()
            .map(|r| r.events_emitted())
            .sum::<usize>();
    assert_eq!(events, full.events().len());
    let steps: usize = run.steps.len() + run.repeats.iter().map(|r| r.steps_taken()).sum::<usize>();
    assert_eq!(steps, full.steps().len());
    // The kept cycles are full cycles, with their tables, equal to the full run's.
    for (t, u) in run.cycles.iter().zip(full.cycles()) {
        if t.time == u.time {
            assert_eq!(t, u);
        }
    }
    assert_eq!(run.cycles.first(), full.cycles().first());
    assert_eq!(run.cycles.last(), full.cycles().last());
}

#[test]
fn retries_that_differ_only_in_the_tie_break_are_folded_and_counted() {
    // One pod on two equal nodes, every binding failing: each retry picks n1 or n2 as the
    // seed draws, so consecutive retries need not be identical, yet each is the same retry.
    // The run stops at 1000 cycles; v1.17 retries the pod at each leftover flush more than
    // 60 s after its failure, so cycle k (from 1) runs at (k - 1) × 90 s: the last at
    // 999 × 90 = 89 910 s.
    let s = load(&[
        node("n1", "4", 10),
        node("n2", "4", 10),
        pod("web", "1", 0),
        timeline(json!({"bindFailurePercent": 100})),
    ]);
    let limits = Limits {
        until: Some(Millis::secs(365 * 24 * 3600)),
        max_cycles: Some(1000),
    };
    for seed in [0, 1, 2] {
        let run = s.run_with(seed, false, limits);
        assert_eq!(run.stop, StopReason::MaxCycles);
        assert_eq!(run.repeats.len(), 1, "{:?}", run.repeats);
        let r = &run.repeats[0];
        assert!(
            r.similar,
            "seed {seed}: both nodes are chosen over 1000 draws"
        );
        assert_eq!(r.every, Millis::secs(90));
        assert_eq!(r.cycles.len(), 1);
        assert_eq!(run.total_cycles(), 1000);
        assert_eq!(run.folded_cycles(), r.times);
        assert!(run.cycles.len() <= 8, "{} kept cycles", run.cycles.len());
        let last = run.cycles.last().expect("a cycle");
        assert_eq!(last.time, 89_910.0);
        assert_eq!(last.outcome, Outcome::Scheduled);
        let report = crate::report::json_report(&run, false);
        assert_eq!(report["folded"], json!(r.times));
        assert_eq!(report["repeats"][0]["similar"], json!(true));
        let text = crate::report::text_report(&run);
        let line = format!(
            "... {} similar retry cycles folded: the 1 cycle above ran {} more times, every 1m30s, the same but for the node the tie-break chose",
            r.times, r.times
        );
        assert!(text.contains(&line), "{text}");
        assert!(
            text.contains(&format!(
                "\n{} repeated cycles folded (counted, not listed)\n",
                r.times
            )),
            "{text}"
        );
        assert!(text.contains("\n#1000 t=24h58m30s "), "{text}");

        // The whole history (the playground's, and `explain`'s) folds to the same report, and
        // each kept cycle is the cycle that ran at its number, node included.
        let mut full = Simulation::new(&s, seed, false);
        full.set_keep_history(false);
        let stop = full.run(limits);
        assert_eq!(full.cycles().len(), 1000);
        let folded = full.to_run(stop);
        assert_eq!(
            crate::report::json_report(&folded, false).to_string(),
            report.to_string()
        );
        for (i, t) in run.cycles.iter().enumerate() {
            assert_eq!(
                Some(t),
                full.cycles().get(run.cycle_number(i) - 1),
                "cycle {i}"
            );
        }
        // Memory kept is the distinct work: a handful of steps, not 1000 cycles' worth.
        assert!(run.steps.len() <= 24, "{} kept steps", run.steps.len());
    }
}
