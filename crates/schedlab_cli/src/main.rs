//! `schedlab`: run, validate, explain and benchmark kube-scheduler v1.17 decisions on your own
//! nodes, pods and policies. The command-line contract is `shared/spec/cli-contract.md`:
//! exit 0 when the run completed, 1 for invalid input (each error names file and path), 2 for
//! usage errors.

/// `print!` to standard output; a closed pipe (`schedlab run ... | head`) ends the process
/// quietly, as SIGPIPE ends other tools, instead of a panic.
macro_rules! out {
    ($($arg:tt)*) => { $crate::emit(format_args!($($arg)*)) };
}

/// `println!` through [`out!`].
macro_rules! outln {
    ($($arg:tt)*) => { $crate::emit(format_args!("{}\n", format_args!($($arg)*))) };
}

mod bench;
mod extenders;
mod questions;

#[global_allocator]
static ALLOCATOR: bench::CountingAllocator = bench::CountingAllocator;

use clap::{Parser, Subcommand, ValueEnum};
use schedlab_core::model::Millis;
use schedlab_core::report::terminal_safe;
use schedlab_core::scenario::SchedulerVersion;
use schedlab_core::simulation::{Limits, Simulation};
use schedlab_core::trace::explain::{explain, gated, not_queued};
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
    /// Threads for reading large JSON and YAML lists, for independent runs (`bench --runs`, `sweep`,
    /// `compare`, `capacity`), and for one run's full scans (`percentageOfNodesToScore: 100` on
    /// 1000 nodes or more: each scan in two halves). Default: the machine's cores.
    /// Objects, decisions, reports and errors are the same whatever the number.
    #[arg(long, global = true, value_name = "N",
          value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
    /// A custom plugin: a kube-scheduler-wasm-extension guest (`NAME=guest.wasm`), enabled by
    /// NAME in a v1 configuration like an in-tree plugin (`pluginConfig` args are its guest
    /// config). Repeatable. With a custom plugin everything runs on one thread.
    #[arg(long = "plugin", global = true, value_name = "NAME=FILE")]
    plugins: Vec<String>,
    #[command(subcommand)]
    command: Command,
}

/// The custom plugins of `--plugin`, in scope whenever a scenario loads.
static CUSTOM_PLUGINS: std::sync::OnceLock<Vec<schedlab_core::scheduler::v1_35::CustomPlugin>> =
    std::sync::OnceLock::new();

/// Reads each `--plugin NAME=FILE` guest; an error names the flag.
fn read_plugins(
    specs: &[String],
) -> Result<Vec<schedlab_core::scheduler::v1_35::CustomPlugin>, String> {
    let mut out: Vec<schedlab_core::scheduler::v1_35::CustomPlugin> = Vec::new();
    for spec in specs {
        let Some((name, file)) = spec
            .split_once('=')
            .filter(|(n, f)| !n.is_empty() && !f.is_empty())
        else {
            return Err(format!(
                "--plugin {spec:?}: expected NAME=FILE (a .wasm guest)"
            ));
        };
        if schedlab_core::scheduler::v1_35::REGISTRY
            .iter()
            .any(|s| s.name == name)
            || out.iter().any(|p| p.name == name)
        {
            return Err(format!(
                "--plugin {spec:?}: a plugin named {name:?} already exists"
            ));
        }
        let bytes = std::fs::read(file).map_err(|e| format!("--plugin {spec:?}: {file}: {e}"))?;
        let plugin = schedlab_core::scheduler::v1_35::wasm_guest_plugin(name, bytes.into())
            .map_err(|e| format!("--plugin {spec:?}: {file}: {e}"))?;
        out.push(plugin);
    }
    Ok(out)
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
        /// as 90s or 1m30s). Default: 24h, with a warning when the run reaches it.
        #[arg(long, value_name = "SECONDS", value_parser = parse_until)]
        until: Option<Millis>,
        /// Stop after this many scheduling cycles. Default: 200000, with a warning when the
        /// run reaches it.
        #[arg(long, value_name = "N")]
        max_cycles: Option<usize>,
        /// The scheduler: v1.17 (the legacy Policy; the default) or v1.35 (profiles and
        /// plugins; also chosen by a kubescheduler.config.k8s.io/v1 input).
        #[arg(long, value_name = "VERSION", value_parser = parse_scheduler)]
        scheduler: Option<SchedulerVersion>,
        #[command(flatten)]
        extenders: extenders::ExtenderArgs,
        /// Input files (JSON or YAML; `-` for standard input).
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Check the inputs and the policy or configuration; list every error.
    Validate {
        /// The scheduler to validate for: v1.17 or v1.35.
        #[arg(long, value_name = "VERSION", value_parser = parse_scheduler)]
        scheduler: Option<SchedulerVersion>,
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
        /// The scheduler: v1.17 or v1.35.
        #[arg(long, value_name = "VERSION", value_parser = parse_scheduler)]
        scheduler: Option<SchedulerVersion>,
        #[command(flatten)]
        extenders: extenders::ExtenderArgs,
        /// Input files.
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Print the kubescheduler.config.k8s.io/v1 configuration a legacy Policy becomes.
    ///
    /// Follows upstream's legacy translation of v1.18–v1.22, expressed against kube-scheduler
    /// v1.35. Every predicate, priority or argument without a v1.35 equivalent (or changed on
    /// the way) gets a warning. `--output yaml` (the default) prints one `# warning: ...`
    /// comment line per warning, then the configuration as YAML, which `schedlab run` reads.
    /// `--output json` prints `{"configuration": {...}, "warnings": ["...", ...]}`.
    /// Exit 1 when the file holds no Policy, more than one, or an invalid one.
    Translate {
        /// Output format.
        #[arg(long, value_enum, default_value = "yaml")]
        output: TranslateOutput,
        /// The Policy file (JSON or YAML; `-` for standard input).
        policy_file: String,
    },
    /// Measure scheduling throughput on a synthetic SchedulingBasic workload.
    Bench(bench::BenchArgs),
    /// Run the scenario under two scheduler configurations and show what differs.
    ///
    /// Pods placed on different nodes (with the score rows that decided each), pods pending
    /// under one only, preemptions, and each run's summary (requested CPU and memory per node,
    /// their mean and spread, empty nodes, largest free block per resource).
    Compare(questions::CompareArgs),
    /// Run the scenario once per value of one setting; print each run's summary (CSV).
    Sweep(questions::SweepArgs),
    /// How many more copies of a pod the cluster takes, where they land, and why the next
    /// one does not fit.
    Capacity(questions::CapacityArgs),
    /// Forward a page's extender calls to an extender on this machine, adding the CORS
    /// headers a browser needs (loopback only).
    ///
    /// The playground calls extenders with `fetch`; a browser lets a page read the reply only
    /// when the server allows its origin (CORS), and Chrome asks before a public page reaches
    /// a loopback address. Point the scheduler configuration's `urlPrefix` at the proxy
    /// (`http://127.0.0.1:8889/<prefix>`); it forwards `POST <path>` to `--to` + `<path>`.
    ExtenderProxy(extenders::ProxyArgs),
}

#[derive(Clone, Copy, ValueEnum)]
enum TranslateOutput {
    /// The configuration as YAML, warnings as `# warning:` comments first.
    Yaml,
    /// `{"configuration": ..., "warnings": [...]}`, indented.
    Json,
}

/// `--scheduler`: `v1.17` or `v1.35`.
fn parse_scheduler(text: &str) -> Result<SchedulerVersion, String> {
    SchedulerVersion::parse(text).ok_or_else(|| format!("{text:?}: expected v1.17 or v1.35"))
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
    // Read at most one byte past the limit, so standard input or a device such as /dev/zero
    // never fills memory before the limit is checked.
    let limit = schedlab_core::input::MAX_FILE_BYTES as u64;
    let too_large = |len: u64| {
        std::io::Error::other(format!(
            "file is too large ({} MiB; the limit is {} MiB)",
            len >> 20,
            limit >> 20
        ))
    };
    let read_bounded = |from: &mut dyn Read, bytes: &mut Vec<u8>| {
        from.take(limit + 1).read_to_end(bytes)?;
        if bytes.len() as u64 > limit {
            return Err(std::io::Error::other(format!(
                "more than {} MiB (the limit)",
                limit >> 20
            )));
        }
        Ok(())
    };
    for f in files {
        let mut bytes = Vec::new();
        let res = if f == "-" {
            read_bounded(&mut std::io::stdin(), &mut bytes)
        } else {
            std::fs::File::open(f).and_then(|mut h| {
                let len = h.metadata().map(|m| m.len()).unwrap_or(0);
                if len > limit {
                    return Err(too_large(len));
                }
                // Room for the whole file at once: no copy on the way (a file that grew since
                // is still read to its end).
                bytes.reserve_exact(len as usize + 1);
                read_bounded(&mut h, &mut bytes)
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
        eprintln!("error: {}", terminal_safe(&e.to_string()));
    }
}

/// Writes to standard output (see [`out!`]).
fn emit(args: std::fmt::Arguments) {
    use std::io::Write;
    if let Err(e) = std::io::stdout().lock().write_fmt(args) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write the output: {e}");
        std::process::exit(1);
    }
}

/// Writes `value` to standard output as JSON (indented, or on one line) and a newline, as it
/// is serialised: a large report is never held as one string.
fn emit_json(value: &impl serde::Serialize, pretty: bool) {
    use std::io::Write;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let written = if pretty {
        serde_json::to_writer_pretty(&mut out, value)
    } else {
        serde_json::to_writer(&mut out, value)
    }
    .map_err(std::io::Error::from)
    .and_then(|()| out.write_all(b"\n"))
    .and_then(|()| out.flush());
    if let Err(e) = written {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write the output: {e}");
        std::process::exit(1);
    }
}

/// Prints a warning on standard error.
fn warn(message: &str) {
    eprintln!("warning: {}", terminal_safe(message));
}

fn load(files: &[String], scheduler: Option<SchedulerVersion>) -> Result<Scenario, ExitCode> {
    let texts = read_files(files).map_err(|errs| {
        for e in errs {
            eprintln!("error: {}", terminal_safe(&e.to_string()));
        }
        ExitCode::from(1)
    })?;
    let sources: Vec<Source> = texts
        .iter()
        .map(|(name, text)| Source { name, text })
        .collect();
    let plugins = CUSTOM_PLUGINS.get().map_or(&[][..], Vec::as_slice);
    let loaded = schedlab_core::scheduler::v1_35::with_custom_plugins(plugins, || {
        Scenario::load_with(&sources, scheduler)
    });
    let scenario = loaded.map_err(|errs| {
        print_errors(&errs);
        ExitCode::from(1)
    })?;
    for w in &scenario.warnings {
        warn(&w.to_string());
    }
    Ok(scenario)
}

/// Leaves a large value for the process's exit to reclaim: freeing a scenario of 55 000 pods
/// object by object took a tenth of `schedlab validate`'s time, and the process ends right
/// after (standard output is flushed by `println!`'s line buffering and at exit).
fn left_to_exit<T>(value: T) {
    std::mem::forget(value);
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match read_plugins(&cli.plugins) {
        Ok(plugins) => {
            let _ = CUSTOM_PLUGINS.set(plugins);
        }
        Err(e) => {
            eprintln!("error: {}", terminal_safe(&e));
            return ExitCode::from(2);
        }
    }
    // A guest is one instance with state between its calls: one thread keeps them in order.
    let one_thread = !cli.plugins.is_empty();
    let threads = cli.threads.filter(|_| !one_thread).map_or_else(
        || {
            if one_thread {
                1
            } else {
                std::thread::available_parallelism().map_or(1, |n| n.get())
            }
        },
        usize::from,
    );
    match schedlab_core::with_threads(threads, move || command(cli)) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: --threads {threads}: {e}");
            ExitCode::from(2)
        }
    }
}

/// Pending pods × nodes past which a full JSON report is said to be huge: 2000 pods on 5000
/// nodes print some 0.8 GB of tables.
const HUGE_TABLES: usize = 10_000_000;

/// Warns, before a run, that its full JSON report (every cycle's filter and score tables) will
/// take gigabytes of memory and output, when it will; `--summary` is the form for big runs.
fn warn_if_the_tables_are_huge(scenario: &Scenario) {
    let (pending, nodes) = (scenario.queue.len(), scenario.cluster.nodes().len());
    if pending.saturating_mul(nodes) >= HUGE_TABLES {
        eprintln!(
            "warning: the full report holds every cycle's filter and score tables: for {pending} \
             pending pods on {nodes} nodes that can take gigabytes of memory and output; \
             --summary leaves the tables out (the decisions are the same)"
        );
    }
}

/// Runs the command (on the thread pool that `--threads` sized).
fn command(cli: Cli) -> ExitCode {
    match cli.command {
        Command::Run {
            output,
            seed,
            summary,
            until,
            max_cycles,
            scheduler,
            extenders,
            files,
        } => {
            let mut scenario = match load(&files, scheduler) {
                Ok(s) => s,
                Err(code) => return code,
            };
            extenders.prepare(&mut scenario);
            // The per-node tables are kept only for a JSON report that prints them: the text
            // report reads placements and events, and the tables of a 50 000-pod run on 5000
            // nodes would take some 15 GB.
            // A scenario with DRA objects keeps them for the text report too, which names the
            // claims that found no devices on each node (unless that would be huge).
            let text_claims = !scenario.cluster.dra().is_empty()
                && scenario
                    .queue
                    .len()
                    .saturating_mul(scenario.cluster.nodes().len())
                    < HUGE_TABLES;
            let tables = !summary && (!matches!(output, Output::Text) || text_claims);
            if tables {
                warn_if_the_tables_are_huge(&scenario);
            }
            let run = scenario.run_with(seed, tables, Limits { until, max_cycles });
            if let Some(w) = &run.warning {
                eprintln!("warning: {w}");
            }
            if let Err(e) = extenders.save(&scenario) {
                eprintln!("error: --record-extenders {e}");
                return ExitCode::from(1);
            }
            let report = schedlab_core::report::JsonReport {
                run: &run,
                detail: !summary,
            };
            match output {
                Output::Json => emit_json(&report, true),
                Output::JsonCompact => emit_json(&report, false),
                Output::Text => out!(
                    "{}",
                    terminal_safe(&schedlab_core::report::text_report(&run))
                ),
            }
            left_to_exit(run);
            left_to_exit(scenario);
            ExitCode::SUCCESS
        }
        Command::Validate { scheduler, files } => match load(&files, scheduler) {
            Ok(s) => {
                let names = s.scheduler.scheduler_names().join(", ");
                outln!(
                    "ok: {} node(s), {} pod(s), {} pending for {} (kube-scheduler {})",
                    s.cluster.nodes().len(),
                    s.cluster.pods().len(),
                    s.queue.len(),
                    names,
                    s.version().as_str()
                );
                left_to_exit(s);
                ExitCode::SUCCESS
            }
            Err(code) => code,
        },
        Command::Explain {
            pod,
            seed,
            scheduler,
            extenders,
            files,
        } => {
            let mut scenario = match load(&files, scheduler) {
                Ok(s) => s,
                Err(code) => return code,
            };
            extenders.prepare(&mut scenario);
            // A light log and no checkpoints: the explained cycle is replayed from the start
            // with its tables, so a run of 200 000 cycles keeps no tables and no snapshots.
            let mut sim = Simulation::new(&scenario, seed, false);
            sim.set_keep_history(false);
            // Within the default bounds, as `run` (unbounded, retries that never end would
            // never let it answer).
            let stop = sim.run(Limits::default().or_defaults());
            let run = sim.to_run(stop);
            let Some(id) = run.find_pod(&pod) else {
                eprintln!("error: no pod {pod:?} in the inputs");
                return ExitCode::from(1);
            };
            let last = run.cycles.iter().rposition(|c| c.pod == id);
            match last {
                Some(i) => {
                    // Explain against the cluster as that cycle saw it (the run's folded
                    // repeats count cycles before it: the simulation's index is its number).
                    let (trace, cluster) = sim
                        .cycle_detail_and_cluster(run.cycle_number(i) - 1)
                        .unwrap_or_else(|| (run.cycles[i].clone(), run.cluster.clone()));
                    out!("{}", terminal_safe(&explain(&cluster, &trace).to_string()))
                }
                None => match run.node_of(id) {
                    Some(n) => outln!(
                        "{}",
                        terminal_safe(&format!(
                            "{} was already bound to {} in the input; it was not scheduled.",
                            run.cluster.pods()[id].full_name,
                            run.cluster.nodes()[n].name()
                        ))
                    ),
                    None => {
                        let info = &run.cluster.pods()[id];
                        let gate = scenario
                            .scheduler
                            .owns(&info.pod)
                            .then(|| scenario.scheduler.pre_enqueue_gate(info, &run.cluster));
                        let text = match gate.flatten() {
                            Some((plugin, msg)) => gated(&info.full_name, plugin, &msg),
                            None => {
                                not_queued(&info.full_name, &scenario.scheduler.scheduler_names())
                            }
                        };
                        outln!("{}", terminal_safe(&text))
                    }
                },
            }
            ExitCode::SUCCESS
        }
        Command::Translate {
            output,
            policy_file,
        } => translate(output, &policy_file),
        Command::Bench(args) => bench::run(&args),
        Command::Compare(args) => questions::compare(&args),
        Command::Sweep(args) => questions::sweep(&args),
        Command::Capacity(args) => questions::capacity(&args),
        Command::ExtenderProxy(args) => extenders::proxy(&args),
    }
}

/// `schedlab translate`: the file's one Policy, validated as v1.17 validates it, translated.
fn translate(output: TranslateOutput, file: &str) -> ExitCode {
    use schedlab_core::scheduler as translate;
    let texts = match read_files(&[file.to_string()]) {
        Ok(t) => t,
        Err(errs) => {
            for e in errs {
                eprintln!("error: {}", terminal_safe(&e.to_string()));
            }
            return ExitCode::from(1);
        }
    };
    let sources: Vec<Source> = texts
        .iter()
        .map(|(name, text)| Source { name, text })
        .collect();
    let inputs = match schedlab_core::input::read_sources(&sources) {
        Ok(i) => i,
        Err(errs) => {
            print_errors(&errs);
            return ExitCode::from(1);
        }
    };
    for w in &inputs.warnings {
        eprintln!("warning: {}", terminal_safe(&w.to_string()));
    }
    let (policy, origin) = match inputs.policies.as_slice() {
        [one] => one,
        [] => {
            let name = texts.first().map(|(n, _)| n.as_str()).unwrap_or(file);
            eprintln!("error: {name}: no Policy (kind: Policy, apiVersion: v1) to translate");
            return ExitCode::from(1);
        }
        [_, (_, second), ..] => {
            let at = Diagnostic::new(
                &second.file,
                second.path.clone(),
                "a second Policy; translate takes one",
            );
            eprintln!("error: {at}");
            return ExitCode::from(1);
        }
    };
    let v1_17 = schedlab_core::scheduler::v1_17::SchedulerConfiguration::default();
    if let Err(errs) = schedlab_core::scheduler::v1_17::build(Some(policy), &v1_17) {
        let errs: Vec<Diagnostic> = errs
            .into_iter()
            .map(|e| {
                let path = schedlab_core::input::join_path(&origin.path, &e.path);
                Diagnostic::new(&origin.file, path, e.message)
            })
            .collect();
        print_errors(&errs);
        return ExitCode::from(1);
    }
    let t = translate::translate(policy);
    match output {
        TranslateOutput::Yaml => out!("{}", translate::to_yaml(&t)),
        TranslateOutput::Json => outln!(
            "{}",
            serde_json::to_string_pretty(&translate::to_json(&t)).unwrap_or_default()
        ),
    }
    ExitCode::SUCCESS
}
