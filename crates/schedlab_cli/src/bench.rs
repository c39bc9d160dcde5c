//! `schedlab bench`: throughput on kube-scheduler's `scheduler_perf` workload shapes:
//! SchedulingBasic (5000 nodes, 5000 bound pods, 50 000 pending pods of 100m/500Mi,
//! DefaultProvider), SchedulingPodAntiAffinity (5000 / 1000 / 2000), SchedulingPodAffinity
//! (5000 / 5000 / 5000), TopologySpreading (5000 / 5000 / 5000), PreemptionBasic
//! (1000 / 4000 / 1000) and, under v1.35 only, the DRA workload (1000 nodes of 8 devices,
//! 5000 pending pods with a claim from a template).

// A benchmark times its runs: the one place that reads the clock (clippy.toml).
#![allow(clippy::disallowed_methods)]

use clap::Args;
use schedlab_core::scenario::SchedulerVersion;
use schedlab_core::simulation::{Limits, Simulation, StepKind};
use schedlab_core::Scenario;
use schedlab_core::{build_for, single_pass, Workload};
#[cfg(not(feature = "mimalloc"))]
use std::alloc::System;
use std::alloc::{GlobalAlloc, Layout};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Benchmark options.
#[derive(Args)]
pub struct BenchArgs {
    /// Workload: scheduling-basic, pod-anti-affinity, pod-affinity, topology-spreading,
    /// preemption or dra (which always runs v1.35).
    #[arg(long, default_value = "scheduling-basic", value_parser = parse_workload)]
    workload: Workload,
    /// Nodes (default: the workload's, 5000).
    #[arg(long)]
    nodes: Option<usize>,
    /// Pods already bound (default: the workload's; 5000, 1000 for pod-anti-affinity).
    #[arg(long)]
    bound: Option<usize>,
    /// Pods to schedule (default: the workload's; 50 000 for scheduling-basic, 2000 for
    /// pod-anti-affinity, 5000 otherwise).
    #[arg(long)]
    pending: Option<usize>,
    /// percentageOfNodesToScore (0 = adaptive).
    #[arg(long, default_value_t = 0)]
    percentage: i32,
    /// Record the full trace (filter and score tables) as the UI does.
    #[arg(long)]
    trace: bool,
    /// Seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The scheduler: v1.17 (DefaultProvider) or v1.35 (the default v1 configuration); the
    /// dra workload runs v1.35 whatever is asked.
    #[arg(long, default_value = "v1.17", value_parser = parse_scheduler)]
    scheduler: SchedulerVersion,
    /// `queue`: the full simulation (scheduling queue, assume/bind steps, history);
    /// `single`: the bare loop of one cycle per pending pod, bound at once: the scheduler's
    /// cycles alone, for comparison.
    #[arg(long = "loop", value_enum, default_value = "queue")]
    mode: LoopMode,
    /// After the run, step back this many cycles and report the time it took.
    #[arg(long, default_value_t = 1000)]
    step_back: usize,
    /// Take no checkpoints (as `schedlab run` does): going back then replays from the start.
    #[arg(long)]
    no_history: bool,
    /// Independent runs of the workload (seeds `seed`, `seed + 1`, ...) shared out over
    /// `--threads`, as a sweep or a comparison makes them. Prints their cycles per second of
    /// wall time and a fingerprint of each run's decisions (the same whatever `--threads`).
    #[arg(long, default_value_t = 1)]
    runs: usize,
    /// Add an extender (filter and prioritize, weight 1) answered by an ExtenderMock: the
    /// simulation's own cost of calling an extender, with no network.
    #[arg(long)]
    mock_extender: bool,
    /// Enable a custom plugin at Score (weight 1; and at PreScore when it has one), under
    /// v1.35: `--plugin NAME=guest.wasm --score-plugin NAME`, what a custom plugin costs.
    #[arg(long, value_name = "NAME")]
    score_plugin: Option<String>,
}

/// Which loop the benchmark times.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum LoopMode {
    /// The simulator.
    Queue,
    /// One cycle per pod, no queue.
    Single,
}

/// The allocator underneath: the system's, chosen on measurements (docs/benchmarks.md,
/// issue 14): mimalloc (the `mimalloc` feature) ran the whole basic workload some 8 % faster
/// but held 156 MiB at the peak of `schedlab validate` against the system allocator's 140 MiB
/// (the target is 150 MB), and made no difference to `schedlab bench`.
#[cfg(feature = "mimalloc")]
static INNER: mimalloc::MiMalloc = mimalloc::MiMalloc;
#[cfg(not(feature = "mimalloc"))]
static INNER: System = System;

/// Counts live heap bytes, to measure what the retained history costs.
pub struct CountingAllocator;

static LIVE_BYTES: AtomicUsize = AtomicUsize::new(0);

// The only unsafe code in the workspace (lint `unsafe_code = "deny"`): a global allocator must
// implement this trait.
// SAFETY: every call is forwarded to the underlying allocator unchanged; only a counter is
// kept.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE_BYTES.fetch_add(layout.size(), Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { INNER.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        LIVE_BYTES.fetch_add(layout.size(), Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { INNER.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE_BYTES.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { INNER.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE_BYTES.fetch_add(new_size, Ordering::Relaxed);
        LIVE_BYTES.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { INNER.realloc(ptr, layout, new_size) }
    }
}

fn live_bytes() -> usize {
    LIVE_BYTES.load(Ordering::Relaxed)
}

/// [`single_pass`]'s cycles, placements, evaluated nodes and decisions' fingerprint.
fn single_pass_summary(s: &Scenario, seed: u64, detail: bool) -> (usize, usize, usize, u64) {
    let pass = single_pass(s, seed, detail);
    let cycles = &pass.cycles;
    let scheduled = cycles.iter().filter(|c| c.node.is_some()).count();
    let evaluated = cycles.iter().map(|c| c.evaluated).sum();
    let decisions: Vec<(usize, Option<usize>)> = cycles.iter().map(|c| (c.pod, c.node)).collect();
    (cycles.len(), scheduled, evaluated, fingerprint(&decisions))
}

fn parse_scheduler(s: &str) -> Result<SchedulerVersion, String> {
    SchedulerVersion::parse(s).ok_or_else(|| format!("{s:?}: expected v1.17 or v1.35"))
}

fn parse_workload(s: &str) -> Result<Workload, String> {
    Workload::parse(s).ok_or_else(|| {
        let names: Vec<&str> = Workload::ALL.iter().map(|(n, _)| *n).collect();
        format!("expected one of {}", names.join(", "))
    })
}

/// Peak resident memory in bytes (Linux `VmHWM`), if known.
fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// `--runs N`: N whole runs of the scenario as `schedlab run` makes them (no history), one
/// per seed, on the thread pool; one JSON line with their cycles per second of wall time and
/// a fingerprint of each run's decisions.
fn independent_runs(a: &BenchArgs, scenario: &Scenario, setup_s: f64) -> ExitCode {
    let seeds: Vec<u64> = (0..a.runs as u64).map(|i| a.seed + i).collect();
    let start = Instant::now();
    let runs = schedlab_core::map(&seeds, |&seed| {
        let run = scenario.run_with(seed, a.trace, Limits::default());
        let decisions: Vec<(usize, Option<usize>)> =
            run.cycles.iter().map(|c| (c.pod, c.node)).collect();
        (run.total_cycles(), fingerprint(&decisions))
    });
    let secs = start.elapsed().as_secs_f64();
    let cycles: usize = runs.iter().map(|r| r.0).sum();
    let prints: Vec<String> = runs.iter().map(|r| format!("\"{:016x}\"", r.1)).collect();
    outln!(
        "{{\"workload\":\"{}\",\"scheduler\":\"{}\",\"nodes\":{},\"pending\":{},\"percentageOfNodesToScore\":{},\"runs\":{},\"threads\":{},\"cycles\":{cycles},\"seconds\":{secs:.3},\"podsPerSecond\":{:.0},\"setupSeconds\":{setup_s:.3},\"decisions\":[{}],\"peakRssMiB\":{}}}",
        a.workload.upstream_name(),
        a.workload.scheduler(a.scheduler).as_str(),
        scenario.cluster.nodes().len(),
        scenario.queue.len(),
        a.percentage,
        a.runs,
        schedlab_core::threads(),
        cycles as f64 / secs.max(1e-9),
        prints.join(","),
        peak_rss()
            .map(|b| format!("{:.1}", b as f64 / (1 << 20) as f64))
            .unwrap_or_else(|| "null".into())
    );
    ExitCode::SUCCESS
}

/// FNV-1a over the debug text of `v`: equal decisions, equal fingerprints.
fn fingerprint<T: std::fmt::Debug>(v: &T) -> u64 {
    format!("{v:?}")
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        })
}

/// Runs the benchmark and prints one JSON line of results.
pub fn run(a: &BenchArgs) -> ExitCode {
    let (dn, db, dp) = a.workload.default_size();
    let (nodes, bound, pending) = (
        a.nodes.unwrap_or(dn),
        a.bound.unwrap_or(db),
        a.pending.unwrap_or(dp),
    );
    let setup = Instant::now();
    let mut scenario = build_for(a.workload, nodes, bound, pending, a.percentage, a.scheduler);
    if a.mock_extender {
        if let Err(e) = schedlab_core::add_mock_extender(&mut scenario) {
            eprintln!("error: --mock-extender: {e}");
            return ExitCode::from(1);
        }
    }
    if let Some(name) = &a.score_plugin {
        let plugin = crate::CUSTOM_PLUGINS
            .get()
            .and_then(|list| list.iter().find(|p| p.name == *name));
        let Some(plugin) = plugin else {
            eprintln!("error: --score-plugin {name}: no --plugin {name}=FILE given");
            return ExitCode::from(1);
        };
        if let Err(e) = schedlab_core::add_score_plugin(&mut scenario, plugin) {
            eprintln!("error: --score-plugin {name}: {e}");
            return ExitCode::from(1);
        }
    }
    let setup_s = setup.elapsed().as_secs_f64();
    if a.runs > 1 {
        return independent_runs(a, &scenario, setup_s);
    }
    let extra;
    let start = Instant::now();
    let (cycles, scheduled, evaluated, secs) = match a.mode {
        LoopMode::Single => {
            let (c, s, e, print) = single_pass_summary(&scenario, a.seed, a.trace);
            extra = format!(",\"decisions\":[\"{print:016x}\"]");
            (c, s, e, start.elapsed().as_secs_f64())
        }
        LoopMode::Queue => {
            let before = live_bytes();
            let mut sim = Simulation::new(&scenario, a.seed, a.trace);
            sim.set_keep_history(!a.no_history);
            sim.run(Limits::default());
            let secs = start.elapsed().as_secs_f64();
            let cycles = sim.cycles_done();
            let scheduled = sim
                .steps()
                .iter()
                .filter(|s| matches!(s.kind, StepKind::Bound { .. }))
                .count();
            let evaluated = sim.cycles().iter().map(|c| c.evaluated).sum();
            let victims = sim
                .steps()
                .iter()
                .filter(|s| matches!(s.kind, StepKind::Deleted { .. }))
                .count();
            let with_history = live_bytes() - before;
            // Step back: the state `step_back` cycles before the end.
            let target_cycle = cycles.saturating_sub(a.step_back);
            let target = sim.step_of_cycle(target_cycle).unwrap_or(0);
            let back = Instant::now();
            sim.go_to_step(target);
            let back_ms = back.elapsed().as_secs_f64() * 1000.0;
            let checkpoints = sim.checkpoint_count();
            let interval = sim.checkpoint_interval();
            let steps = sim.steps().len();
            sim.clear_history();
            let history = with_history.saturating_sub(live_bytes() - before);
            extra = format!(
                ",\"boundPerSecond\":{:.0},\"victims\":{victims},\"victimsPerSecond\":{:.0},\"steps\":{steps},\"stepBackCycles\":{},\"stepBackMs\":{back_ms:.1},\"checkpoints\":{checkpoints},\"checkpointInterval\":{interval},\"historyBytesPerCycle\":{:.0}",
                scheduled as f64 / secs.max(1e-9),
                victims as f64 / secs.max(1e-9),
                cycles - target_cycle,
                history as f64 / cycles.max(1) as f64
            );
            (cycles, scheduled, evaluated, secs)
        }
    };
    let per_pod = evaluated as f64 / cycles.max(1) as f64;
    outln!(
        "{{\"workload\":\"{}\",\"scheduler\":\"{}\",\"loop\":\"{}\",\"nodes\":{},\"bound\":{},\"pending\":{},\"percentageOfNodesToScore\":{},\"threads\":{},\"trace\":{},\
         \"history\":{},\"cycles\":{},\"scheduled\":{},\"seconds\":{:.3},\"podsPerSecond\":{:.0},\"evaluatedNodesPerPod\":{:.1},\"setupSeconds\":{:.3},\"peakRssMiB\":{}{extra}}}",
        a.workload.upstream_name(),
        a.workload.scheduler(a.scheduler).as_str(),
        match a.mode { LoopMode::Queue => "queue", LoopMode::Single => "single" },
        nodes,
        bound,
        pending,
        a.percentage,
        schedlab_core::threads(),
        a.trace,
        matches!(a.mode, LoopMode::Queue) && !a.no_history,
        cycles,
        scheduled,
        secs,
        cycles as f64 / secs.max(1e-9),
        per_pod,
        setup_s,
        peak_rss().map(|b| format!("{:.1}", b as f64 / (1 << 20) as f64)).unwrap_or_else(|| "null".into())
    );
    ExitCode::SUCCESS
}
