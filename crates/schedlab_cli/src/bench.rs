//! `schedlab bench`: throughput on kube-scheduler's SchedulingBasic workload shape
//! (5000 nodes, 5000 bound pods, 50 000 pending pods of 100m/500Mi, DefaultProvider).

use clap::Args;
use schedlab_core::trace::Outcome;
use schedlab_core::workloads::scheduling_basic;
use std::process::ExitCode;
use std::time::Instant;

/// Benchmark options.
#[derive(Args)]
pub struct BenchArgs {
    /// Nodes.
    #[arg(long, default_value_t = 5000)]
    nodes: usize,
    /// Pods already bound.
    #[arg(long, default_value_t = 5000)]
    bound: usize,
    /// Pods to schedule.
    #[arg(long, default_value_t = 50_000)]
    pending: usize,
    /// percentageOfNodesToScore (0 = adaptive).
    #[arg(long, default_value_t = 0)]
    percentage: i32,
    /// Record the full trace (filter and score tables) as the UI does.
    #[arg(long)]
    trace: bool,
    /// Seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

/// Peak resident memory in bytes (Linux `VmHWM`), if known.
fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Runs the benchmark and prints one JSON line of results.
pub fn run(a: &BenchArgs) -> ExitCode {
    let setup = Instant::now();
    let scenario = scheduling_basic(a.nodes, a.bound, a.pending, a.percentage);
    let setup_s = setup.elapsed().as_secs_f64();
    let start = Instant::now();
    let run = scenario.run(a.seed, a.trace);
    let secs = start.elapsed().as_secs_f64();
    let scheduled = run
        .cycles
        .iter()
        .filter(|c| c.outcome == Outcome::Scheduled)
        .count();
    let evaluated: usize = run.cycles.iter().map(|c| c.evaluated).sum();
    let per_pod = evaluated as f64 / run.cycles.len().max(1) as f64;
    println!(
        "{{\"workload\":\"SchedulingBasic\",\"nodes\":{},\"bound\":{},\"pending\":{},\"percentageOfNodesToScore\":{},\"trace\":{},\
         \"scheduled\":{},\"seconds\":{:.3},\"podsPerSecond\":{:.0},\"evaluatedNodesPerPod\":{:.1},\"setupSeconds\":{:.3},\"peakRssMiB\":{}}}",
        a.nodes,
        a.bound,
        a.pending,
        a.percentage,
        a.trace,
        scheduled,
        secs,
        run.cycles.len() as f64 / secs.max(1e-9),
        per_pod,
        setup_s,
        peak_rss().map(|b| format!("{:.1}", b as f64 / (1 << 20) as f64)).unwrap_or_else(|| "null".into())
    );
    ExitCode::SUCCESS
}
