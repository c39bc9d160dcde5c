//! `schedlab compare`, `sweep` and `capacity`: the policy author's questions, answered by
//! `schedlab_core::questions` over whole runs of the scenario.

use crate::{print_errors, read_files, warn};
use clap::{Args, ValueEnum};
use schedlab_core::input::Inputs;
use schedlab_core::questions::{capacity, compare, sweep, SchedulerChoice};
use schedlab_core::report::terminal_safe;
use schedlab_core::scenario::SchedulerVersion;
use schedlab_core::{Diagnostic, Source};
use std::process::ExitCode;

/// `compare`'s arguments.
#[derive(Args)]
pub struct CompareArgs {
    /// Configuration A: `v1.17` or `v1.35` (that version's defaults), or a file holding a
    /// Policy and/or KubeSchedulerConfiguration (give --a twice for a Policy and a v1alpha1
    /// configuration). Default: the scenario's own configuration.
    #[arg(long = "a", value_name = "CONFIG")]
    a: Vec<String>,
    /// Configuration B, as --a.
    #[arg(long = "b", value_name = "CONFIG")]
    b: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    output: TextOrJson,
    /// Seed for tie-breaking (both runs).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The scheduler of the scenario's own configuration (where --a or --b is not given).
    #[arg(long, value_name = "VERSION", value_parser = crate::parse_scheduler)]
    scheduler: Option<SchedulerVersion>,
    /// The scenario's files (JSON or YAML; `-` for standard input).
    #[arg(required = true)]
    files: Vec<String>,
}

/// `sweep`'s arguments.
#[derive(Args)]
pub struct SweepArgs {
    /// The setting: seed, percentageOfNodesToScore, scoringStrategy (v1.35) or weight.NAME (a
    /// v1.17 priority or a v1.35 Score plugin).
    #[arg(long, value_name = "SETTING")]
    set: String,
    /// The values: a comma-separated list whose items are values or ranges FROM..TO or
    /// FROM..TO:STEP (inclusive), e.g. `1,2,5,10` or `10..100:10`.
    #[arg(long, value_name = "LIST")]
    values: String,
    /// The configuration to vary (as compare's --a). Default: the scenario's own.
    #[arg(long, value_name = "CONFIG")]
    config: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "csv")]
    output: SweepOutput,
    /// Seed for tie-breaking (every run; ignored when sweeping `seed`).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The scheduler of the scenario's own configuration.
    #[arg(long, value_name = "VERSION", value_parser = crate::parse_scheduler)]
    scheduler: Option<SchedulerVersion>,
    /// The scenario's files.
    #[arg(required = true)]
    files: Vec<String>,
}

/// `capacity`'s arguments.
#[derive(Args)]
pub struct CapacityArgs {
    /// A file holding the pod template: a Pod, or a Deployment (its spec.template). Give it
    /// several times (or put several objects in one file) to place templates in turn.
    #[arg(long, value_name = "FILE", required = true)]
    pod: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    output: TextOrJson,
    /// Seed for tie-breaking.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The scheduler: v1.17 or v1.35.
    #[arg(long, value_name = "VERSION", value_parser = crate::parse_scheduler)]
    scheduler: Option<SchedulerVersion>,
    /// The scenario's files.
    #[arg(required = true)]
    files: Vec<String>,
}

#[derive(Clone, Copy, ValueEnum)]
enum TextOrJson {
    /// Readable text.
    Text,
    /// Indented JSON.
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
enum SweepOutput {
    /// One row per value: the value, then each summary metric.
    Csv,
    /// `{"setting", "points": [{"value", "seed", "summary"}]}`, indented.
    Json,
}

/// Every text read: the scenario's files, then the option files.
struct Texts(Vec<(String, String)>);

impl Texts {
    fn sources(&self) -> Vec<Source<'_>> {
        self.0
            .iter()
            .map(|(name, text)| Source { name, text })
            .collect()
    }
}

fn fail(errors: Vec<Diagnostic>) -> ExitCode {
    print_errors(&errors);
    ExitCode::from(1)
}

/// Reads files into their objects, printing errors; the texts stay for line numbers.
fn read(files: &[String], texts: &mut Texts) -> Result<Vec<Inputs>, ExitCode> {
    let read = read_files(files).map_err(|errs| {
        for e in errs {
            eprintln!("error: {}", terminal_safe(&e));
        }
        ExitCode::from(1)
    })?;
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (name, text) in &read {
        match schedlab_core::input::read_source(&Source { name, text }) {
            Ok(i) => out.push(i),
            Err(e) => errors.extend(e),
        }
    }
    texts.0.extend(read);
    if !errors.is_empty() {
        return Err(fail(errors));
    }
    Ok(out)
}

/// The scenario's objects (its warnings printed).
fn cluster(files: &[String], texts: &mut Texts) -> Result<Inputs, ExitCode> {
    let parts = read(files, texts)?;
    let mut inputs = Inputs::default();
    for p in parts {
        inputs.append(p);
    }
    Ok(inputs)
}

/// `--a`/`--b`/`--config`: a version's defaults, or the configuration documents of files.
fn choice(specs: &[String], texts: &mut Texts) -> Result<Option<SchedulerChoice>, ExitCode> {
    if specs.is_empty() {
        return Ok(None);
    }
    if let [one] = specs {
        if let Some(version) = SchedulerVersion::parse(one) {
            return Ok(Some(SchedulerChoice::defaults(version)));
        }
    }
    let read = read_files(specs).map_err(|errs| {
        for e in errs {
            eprintln!("error: {}", terminal_safe(&e));
        }
        ExitCode::from(1)
    })?;
    let sources: Vec<Source> = read
        .iter()
        .map(|(name, text)| Source { name, text })
        .collect();
    let c = SchedulerChoice::from_sources(&sources).map_err(fail)?;
    texts.0.extend(read);
    Ok(Some(c))
}

fn print_warnings(warnings: &[Diagnostic]) {
    for w in warnings {
        warn(&w.to_string());
    }
}

/// `schedlab compare`.
pub fn compare(args: &CompareArgs) -> ExitCode {
    let mut texts = Texts(Vec::new());
    let mut inputs = match cluster(&args.files, &mut texts) {
        Ok(i) => i,
        Err(code) => return code,
    };
    let own = SchedulerChoice::take_from(&mut inputs, args.scheduler);
    let (a, b) = match (choice(&args.a, &mut texts), choice(&args.b, &mut texts)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(code), _) | (_, Err(code)) => return code,
    };
    if let (Some(_), Some(_), Some(o)) = (&a, &b, own.origin()) {
        warn(
            &Diagnostic::new(
                &o.file,
                o.path.clone(),
                "this scheduler configuration is set aside: --a and --b give the two compared",
            )
            .to_string(),
        );
    }
    let a = a.unwrap_or_else(|| own.clone());
    let b = b.unwrap_or(own);
    let sources = texts.sources();
    let scenario_a = a.scenario(&inputs, &sources);
    let scenario_b = b.scenario(&inputs, &sources);
    let (sa, sb) = match (scenario_a, scenario_b) {
        (Ok(x), Ok(y)) => (x, y),
        (x, y) => {
            let mut errors = Vec::new();
            for (label, r) in [("A", x), ("B", y)] {
                if let Err(e) = r {
                    errors.extend(e.into_iter().map(|d| Diagnostic {
                        message: format!("{} (configuration {label})", d.message),
                        ..d
                    }));
                }
            }
            return fail(errors);
        }
    };
    print_warnings(&sa.warnings);
    print_warnings(
        &sb.warnings
            .iter()
            .filter(|w| !sa.warnings.contains(w))
            .cloned()
            .collect::<Vec<_>>(),
    );
    let c = compare::compare((&a.label, &sa), (&b.label, &sb), args.seed);
    match args.output {
        TextOrJson::Text => out!("{}", terminal_safe(&c.to_text())),
        TextOrJson::Json => outln!(
            "{}",
            serde_json::to_string_pretty(&c.to_json()).unwrap_or_default()
        ),
    }
    ExitCode::SUCCESS
}

/// `schedlab sweep`.
pub fn sweep(args: &SweepArgs) -> ExitCode {
    let setting = match sweep::Setting::parse(&args.set) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: --set {e}");
            return ExitCode::from(2);
        }
    };
    let values = match sweep::parse_values(&setting, &args.values) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: --values: {e}");
            return ExitCode::from(2);
        }
    };
    let mut texts = Texts(Vec::new());
    let mut inputs = match cluster(&args.files, &mut texts) {
        Ok(i) => i,
        Err(code) => return code,
    };
    let own = SchedulerChoice::take_from(&mut inputs, args.scheduler);
    let config = match choice(&args.config, &mut texts) {
        Ok(c) => c.unwrap_or(own),
        Err(code) => return code,
    };
    let sources = texts.sources();
    // The scenario's warnings, once (each run would repeat them).
    match config.scenario(&inputs, &sources) {
        Ok(s) => print_warnings(&s.warnings),
        Err(e) => return fail(e),
    }
    let points = match sweep::sweep(&inputs, &sources, &config, &setting, &values, args.seed) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    match args.output {
        SweepOutput::Csv => out!("{}", sweep::to_csv(&setting, &points)),
        SweepOutput::Json => outln!(
            "{}",
            serde_json::to_string_pretty(&sweep::to_json(&setting, &points)).unwrap_or_default()
        ),
    }
    ExitCode::SUCCESS
}

/// `schedlab capacity`.
pub fn capacity(args: &CapacityArgs) -> ExitCode {
    let mut texts = Texts(Vec::new());
    let inputs = match cluster(&args.files, &mut texts) {
        Ok(i) => i,
        Err(code) => return code,
    };
    let pod_texts = match read(&args.pod, &mut texts) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let mut templates = Vec::new();
    let mut errors = Vec::new();
    for (file, part) in args.pod.iter().zip(pod_texts) {
        let others =
            part.nodes.len() + part.policies.len() + part.configs.len() + part.modern_configs.len();
        if others > 0 {
            errors.push(Diagnostic::new(file, "", "a --pod file holds pod templates only (Pods or Deployments); pass the cluster and its configuration as FILE"));
        }
        for w in &part.warnings {
            if !w.message.starts_with("skipped Deployment") {
                warn(&w.to_string());
            }
        }
        match capacity::templates(file, part) {
            Ok(t) => templates.extend(t),
            Err(e) => errors.extend(e),
        }
    }
    if !errors.is_empty() {
        return fail(errors);
    }
    let sources = texts.sources();
    match schedlab_core::Scenario::from_inputs_with(inputs.clone(), &sources, args.scheduler) {
        Ok(s) => print_warnings(&s.warnings),
        Err(e) => return fail(e),
    }
    let answer = match capacity::capacity(&inputs, &sources, args.scheduler, &templates, args.seed)
    {
        Ok(a) => a,
        Err(e) => return fail(e),
    };
    match args.output {
        TextOrJson::Text => out!("{}", terminal_safe(&answer.to_text())),
        TextOrJson::Json => outln!(
            "{}",
            serde_json::to_string_pretty(&answer.to_json()).unwrap_or_default()
        ),
    }
    ExitCode::SUCCESS
}
