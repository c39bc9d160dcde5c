//! `schedlab bench`: throughput on kube-scheduler's `scheduler_perf` workload shapes:
//! SchedulingBasic (5000 nodes, 5000 bound pods, 50 000 pending pods of 100m/500Mi,
//! DefaultProvider), SchedulingPodAntiAffinity (5000 / 1000 / 2000), SchedulingPodAffinity
//! (5000 / 5000 / 5000) and TopologySpreading (5000 / 5000 / 5000).

use clap::Args;
use schedlab_core::workloads::{build, Workload};
use std::process::ExitCode;
use std::time::Instant;

/// Benchmark options.
#[derive(Args)]
pub struct BenchArgs {
    /// Workload: scheduling-basic, pod-anti-affinity, pod-affinity or topology-spreading.
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

/// Runs the benchmark and prints one JSON line of results.
pub fn run(a: &BenchArgs) -> ExitCode {
    let (dn, db, dp) = a.workload.default_size();
    let (nodes, bound, pending) = (
        a.nodes.unwrap_or(dn),
        a.bound.unwrap_or(db),
        a.pending.unwrap_or(dp),
    );
    let setup = Instant::now();
    let scenario = build(a.workload, nodes, bound, pending, a.percentage);
    let setup_s = setup.elapsed().as_secs_f64();
    let start = Instant::now();
    let run = scenario.run(a.seed, a.trace);
    let secs = start.elapsed().as_secs_f64();
    let scheduled = run.scheduled_count();
    let evaluated = run.evaluated_nodes();
    let per_pod = evaluated as f64 / run.cycles.len().max(1) as f64;
    println!(
        "{{\"workload\":\"{}\",\"nodes\":{},\"bound\":{},\"pending\":{},\"percentageOfNodesToScore\":{},\"trace\":{},\
         \"scheduled\":{},\"seconds\":{:.3},\"podsPerSecond\":{:.0},\"evaluatedNodesPerPod\":{:.1},\"setupSeconds\":{:.3},\"peakRssMiB\":{}}}",
        a.workload.upstream_name(),
        nodes,
        bound,
        pending,
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
