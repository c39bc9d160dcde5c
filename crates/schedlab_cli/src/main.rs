//! `schedlab`: run, validate, explain and benchmark kube-scheduler v1.17 decisions on your own
//! nodes, pods and policies. The command-line contract is `shared/spec/cli-contract.md`:
//! exit 0 when the run completed, 1 for invalid input (each error names file and path), 2 for
//! usage errors.

mod bench;

#[global_allocator]
static ALLOCATOR: bench::CountingAllocator = bench::CountingAllocator;

use clap::{Parser, Subcommand, ValueEnum};
use schedlab_core::queue::Millis;
use schedlab_core::simulation::{Limits, Simulation};
use schedlab_core::trace::explain::explain;
use schedlab_core::{Diagnostic, Scenario, Source};
use std::io::Read;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "schedlab",
    version,
    about = "kube-scheduler v1.17, simulated: see where each pod lands and why"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
enum Output {
    /// A readable summary.
    Text,
    /// The contract's JSON report, indented.
    Json,
    /// The same JSON on one line (byte-for-byte what `schedlab_wasm.run` returns).
    JsonCompact,
}

#[derive(Subcommand)]
enum Command {
    /// Schedule every pending pod and report placements and cycles.
    Run {
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        output: Output,
        /// Seed for tie-breaking between equally scored nodes.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Leave the filter, scores and totals tables out of the JSON report.
        #[arg(long)]
        summary: bool,
        /// Stop before the first step after this virtual time (seconds, or a duration such
        /// as 90s or 1m30s).
        #[arg(long, value_name = "SECONDS", value_parser = parse_until)]
        until: Option<Millis>,
        /// Stop after this many scheduling cycles.
        #[arg(long, value_name = "N")]
        max_cycles: Option<usize>,
        /// Input files (JSON or YAML; `-` for standard input).
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Check the inputs and the policy; list every error.
    Validate {
        /// Input files.
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Explain why a pod went where it did, or why it is Pending.
    Explain {
        /// The pod, as NAMESPACE/NAME (or NAME in `default`).
        #[arg(long)]
        pod: String,
        /// Seed for tie-breaking.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Input files.
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Measure scheduling throughput on a synthetic SchedulingBasic workload.
    Bench(bench::BenchArgs),
}

/// `--until`: seconds or a Go duration, as the timeline's `at`.
fn parse_until(text: &str) -> Result<Millis, String> {
    let value = match text.parse::<f64>() {
        Ok(n) => serde_json::json!(n),
        Err(_) => serde_json::json!(text),
    };
    schedlab_core::input::timeline::parse_duration(&value)
}

/// Reads every file; returns (name, text) pairs or the read errors.
fn read_files(files: &[String]) -> Result<Vec<(String, String)>, Vec<String>> {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for f in files {
        let mut bytes = Vec::new();
        let res = if f == "-" {
            std::io::stdin().read_to_end(&mut bytes).map(|_| ())
        } else {
            std::fs::File::open(f).and_then(|mut h| {
                let len = h.metadata().map(|m| m.len()).unwrap_or(0);
                if len > schedlab_core::input::MAX_FILE_BYTES as u64 {
                    return Err(std::io::Error::other(format!(
                        "file is too large ({} MiB; the limit is {} MiB)",
                        len >> 20,
                        schedlab_core::input::MAX_FILE_BYTES >> 20
                    )));
                }
                h.read_to_end(&mut bytes).map(|_| ())
            })
        };
        let name = if f == "-" {
            "<stdin>".to_string()
        } else {
            f.clone()
        };
        match res {
            Err(e) => errors.push(format!("{name}: cannot read: {e}")),
            Ok(()) => match String::from_utf8(bytes) {
                Ok(text) => out.push((name, text)),
                Err(_) => errors.push(format!("{name}: not UTF-8 text")),
            },
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

fn print_errors(errors: &[Diagnostic]) {
    for e in errors {
        eprintln!("error: {e}");
    }
}

fn load(files: &[String]) -> Result<Scenario, ExitCode> {
    let texts = read_files(files).map_err(|errs| {
        for e in errs {
            eprintln!("error: {e}");
        }
        ExitCode::from(1)
    })?;
    let sources: Vec<Source> = texts
        .iter()
        .map(|(name, text)| Source { name, text })
        .collect();
    let scenario = Scenario::load(&sources).map_err(|errs| {
        print_errors(&errs);
        ExitCode::from(1)
    })?;
    for w in &scenario.warnings {
        eprintln!("warning: {w}");
    }
    Ok(scenario)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Run {
            output,
            seed,
            summary,
            until,
            max_cycles,
            files,
        } => {
            let scenario = match load(&files) {
                Ok(s) => s,
                Err(code) => return code,
            };
            let run = scenario.run_with(seed, !summary, Limits { until, max_cycles });
            match output {
                Output::Json => {
                    let report = schedlab_core::report::json_report(&run, !summary);
                    println!(
                        "{}",
                        serde_json::to_string_pretty(&report).unwrap_or_default()
                    );
                }
                Output::JsonCompact => {
                    println!("{}", schedlab_core::report::json_report(&run, !summary));
                }
                Output::Text => print!("{}", schedlab_core::report::text_report(&run)),
            }
            ExitCode::SUCCESS
        }
        Command::Validate { files } => match load(&files) {
            Ok(s) => {
                println!(
                    "ok: {} node(s), {} pod(s), {} pending for {}",
                    s.cluster.nodes.len(),
                    s.cluster.pods.len(),
                    s.queue.len(),
                    s.config.scheduler_name
                );
                ExitCode::SUCCESS
            }
            Err(code) => code,
        },
        Command::Explain { pod, seed, files } => {
            let scenario = match load(&files) {
                Ok(s) => s,
                Err(code) => return code,
            };
            let mut sim = Simulation::new(&scenario, seed, true);
            let stop = sim.run(Limits::default());
            let run = sim.to_run(stop);
            let Some(id) = run.find_pod(&pod) else {
                eprintln!("error: no pod {pod:?} in the inputs");
                return ExitCode::from(1);
            };
            let last = run.cycles.iter().rposition(|c| c.pod == id);
            match last {
                Some(i) => {
                    // Explain against the cluster as that cycle saw it.
                    let cluster = sim.cluster_before_cycle(i).unwrap_or(run.cluster.clone());
                    print!("{}", explain(&cluster, &run.cycles[i]))
                }
                None => match run.node_of(id) {
                    Some(n) => println!(
                        "{} was already bound to {} in the input; it was not scheduled.",
                        run.cluster.pods[id].full_name,
                        run.cluster.nodes[n].name()
                    ),
                    None => println!(
                        "{} was not queued: its schedulerName is not {:?}.",
                        run.cluster.pods[id].full_name, scenario.config.scheduler_name
                    ),
                },
            }
            ExitCode::SUCCESS
        }
        Command::Bench(args) => bench::run(&args),
    }
}
