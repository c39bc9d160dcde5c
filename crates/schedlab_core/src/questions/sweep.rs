//! `schedlab sweep`: one setting tried over a list or range of values, each value one
//! independent run of the scenario (shared out over the thread pool), each run summarised
//! ([`Summary`]). The settings, as `--set` names them:
//!
//! - `seed`: the seed of `selectHost`'s ties;
//! - `percentageOfNodesToScore`: v1.17's `KubeSchedulerConfiguration` field, or v1.35's (at
//!   the top, and in each profile that sets its own);
//! - `weight.NAME`: a v1.17 Policy priority's weight (the DefaultProvider's priorities when the
//!   scenario has no Policy), or a v1.35 Score plugin's weight (`plugins.score.enabled` of
//!   every profile, which takes precedence over `multiPoint` as upstream's does);
//! - `scoringStrategy`: v1.35 `NodeResourcesFit`'s `scoringStrategy.type` (`LeastAllocated`,
//!   `MostAllocated`, `RequestedToCapacityRatio` (whose `shape` the scenario's args must give)).

use super::summary::Summary;
use super::SchedulerChoice;
use crate::input::{Diagnostic, Inputs, Origin, Source};
use crate::scenario::{Scenario, SchedulerVersion};
use crate::simulation::Limits;
use crate::v117::policy::{PolicyDocument, PriorityPolicy};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// The setting a sweep varies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Setting {
    /// The seed.
    Seed,
    /// `percentageOfNodesToScore`.
    PercentageOfNodesToScore,
    /// A priority's or Score plugin's weight.
    Weight(String),
    /// `NodeResourcesFit`'s `scoringStrategy.type` (v1.35).
    ScoringStrategy,
}

impl Setting {
    /// Reads `--set`.
    pub fn parse(text: &str) -> Result<Setting, String> {
        match text {
            "seed" => Ok(Setting::Seed),
            "percentageOfNodesToScore" => Ok(Setting::PercentageOfNodesToScore),
            "scoringStrategy" => Ok(Setting::ScoringStrategy),
            _ => match text.strip_prefix("weight.") {
                Some(name) if !name.is_empty() => Ok(Setting::Weight(name.to_string())),
                _ => Err(format!(
                    "{text:?}: expected seed, percentageOfNodesToScore, scoringStrategy or weight.NAME (a priority or Score plugin, e.g. weight.NodeResourcesBalancedAllocation)"
                )),
            },
        }
    }

    /// How outputs name it.
    pub fn name(&self) -> String {
        match self {
            Setting::Seed => "seed".into(),
            Setting::PercentageOfNodesToScore => "percentageOfNodesToScore".into(),
            Setting::Weight(n) => format!("weight.{n}"),
            Setting::ScoringStrategy => "scoringStrategy".into(),
        }
    }

    /// Whether its values are numbers.
    pub fn is_numeric(&self) -> bool {
        !matches!(self, Setting::ScoringStrategy)
    }
}

/// Reads `--values`: a comma-separated list whose items are values or inclusive ranges
/// `FROM..TO` (step 1) or `FROM..TO:STEP` (numbers only). At most [`MAX_VALUES`] values.
pub fn parse_values(setting: &Setting, text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        if !setting.is_numeric() {
            out.push(item.to_string());
            continue;
        }
        if let Some((from, rest)) = item.split_once("..") {
            let (to, step) = rest.split_once(':').unwrap_or((rest, "1"));
            let num = |s: &str| {
                s.trim()
                    .parse::<i64>()
                    .map_err(|_| format!("{item:?}: {s:?} is not a whole number"))
            };
            let (from, to, step) = (num(from)?, num(to)?, num(step)?);
            if step <= 0 {
                return Err(format!("{item:?}: the step must be positive"));
            }
            if to < from {
                return Err(format!("{item:?}: the range ends before it starts"));
            }
            let count = (to - from) / step + 1;
            if count as usize + out.len() > MAX_VALUES {
                return Err(format!("{item:?}: more than {MAX_VALUES} values"));
            }
            let mut v = from;
            while v <= to {
                out.push(v.to_string());
                v += step;
            }
        } else {
            item.parse::<i64>()
                .map_err(|_| format!("{item:?} is not a whole number"))?;
            out.push(item.to_string());
        }
        if out.len() > MAX_VALUES {
            return Err(format!("more than {MAX_VALUES} values"));
        }
    }
    if out.is_empty() {
        return Err("no values".into());
    }
    Ok(out)
}

/// The most values one sweep takes.
pub const MAX_VALUES: usize = 1000;

/// One value's run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// The value, as given.
    pub value: String,
    /// The seed the run used.
    pub seed: u64,
    /// Its summary.
    pub summary: Summary,
}

/// `choice` with `setting` set to `value` (the seed is not part of a configuration).
pub fn configure(
    choice: &SchedulerChoice,
    setting: &Setting,
    value: &str,
) -> Result<SchedulerChoice, String> {
    let mut c = choice.clone();
    let int = || {
        value
            .parse::<i64>()
            .map_err(|_| format!("{value:?} is not a whole number"))
    };
    let origin = || Origin {
        file: format!("--set {}={value}", setting.name()),
        path: String::new(),
    };
    match (setting, c.version()) {
        (Setting::Seed, _) => {}
        (Setting::PercentageOfNodesToScore, SchedulerVersion::V1_17) => {
            let p = i32::try_from(int()?).map_err(|_| format!("{value:?} is out of range"))?;
            if c.configs.is_empty() {
                c.configs.push((Default::default(), origin()));
            }
            for (config, _) in &mut c.configs {
                config.percentage_of_nodes_to_score = p;
            }
        }
        (Setting::PercentageOfNodesToScore, SchedulerVersion::V1_35) => {
            let p = int()?;
            for doc in modern_documents(&mut c, origin) {
                doc["percentageOfNodesToScore"] = json!(p);
                for profile in doc["profiles"].as_array_mut().into_iter().flatten() {
                    if profile.get("percentageOfNodesToScore").is_some() {
                        profile["percentageOfNodesToScore"] = json!(p);
                    }
                }
            }
        }
        (Setting::Weight(name), SchedulerVersion::V1_17) => {
            let w = int()?;
            if c.policies.is_empty() {
                c.policies.push((PolicyDocument::default(), origin()));
            }
            for (policy, _) in &mut c.policies {
                let priorities = policy.priorities.get_or_insert_with(|| {
                    crate::v117::priorities::default_provider()
                        .into_iter()
                        .map(|(name, weight)| PriorityPolicy {
                            name: name.to_string(),
                            weight,
                            argument: None,
                        })
                        .collect()
                });
                match priorities.iter_mut().find(|p| p.name == *name) {
                    Some(p) => p.weight = w,
                    None => {
                        let names: Vec<&str> = priorities.iter().map(|p| p.name.as_str()).collect();
                        return Err(format!(
                            "the Policy has no priority {name:?}; it has {}",
                            names.join(", ")
                        ));
                    }
                }
            }
        }
        (Setting::Weight(name), SchedulerVersion::V1_35) => {
            let w = int()?;
            for doc in modern_documents(&mut c, origin) {
                for profile in profiles(doc) {
                    let enabled = &mut profile["plugins"]["score"]["enabled"];
                    if !enabled.is_array() {
                        *enabled = json!([]);
                    }
                    let list = enabled.as_array_mut().expect("an array");
                    match list.iter_mut().find(|p| p["name"] == json!(name)) {
                        Some(p) => p["weight"] = json!(w),
                        None => list.push(json!({"name": name, "weight": w})),
                    }
                }
            }
        }
        (Setting::ScoringStrategy, SchedulerVersion::V1_17) => {
            return Err("scoringStrategy is a v1.35 setting (NodeResourcesFit's args); under v1.17 sweep weight.LeastRequestedPriority or weight.MostRequestedPriority".into());
        }
        (Setting::ScoringStrategy, SchedulerVersion::V1_35) => {
            for doc in modern_documents(&mut c, origin) {
                for profile in profiles(doc) {
                    let configs = &mut profile["pluginConfig"];
                    if !configs.is_array() {
                        *configs = json!([]);
                    }
                    let list = configs.as_array_mut().expect("an array");
                    let fit = match list
                        .iter()
                        .position(|p| p["name"] == json!("NodeResourcesFit"))
                    {
                        Some(i) => &mut list[i],
                        None => {
                            list.push(json!({"name": "NodeResourcesFit", "args": {}}));
                            list.last_mut().expect("just pushed")
                        }
                    };
                    if !fit["args"].is_object() {
                        fit["args"] = json!({});
                    }
                    if !fit["args"]["scoringStrategy"].is_object() {
                        fit["args"]["scoringStrategy"] = json!({});
                    }
                    fit["args"]["scoringStrategy"]["type"] = json!(value);
                }
            }
        }
    }
    Ok(c)
}

/// The choice's v1 configuration documents, one made when there is none.
fn modern_documents(
    c: &mut SchedulerChoice,
    origin: impl Fn() -> Origin,
) -> impl Iterator<Item = &mut Value> {
    if c.modern_configs.is_empty() {
        c.modern_configs.push((
            json!({"apiVersion": crate::v135::config::V1, "kind": "KubeSchedulerConfiguration"}),
            origin(),
        ));
    }
    c.modern_configs.iter_mut().map(|(v, _)| v)
}

/// A v1 document's profiles, the default one made when there is none.
fn profiles(doc: &mut Value) -> impl Iterator<Item = &mut Value> {
    if doc["profiles"].as_array().is_none_or(|p| p.is_empty()) {
        doc["profiles"] = json!([{"schedulerName": "default-scheduler"}]);
    }
    doc["profiles"].as_array_mut().into_iter().flatten()
}

/// Runs the sweep: one scenario per value (built from `cluster` under `choice` with the
/// setting applied), each run with `seed` (or the value, for `seed`), in value order. Errors
/// name the value they come from.
pub fn sweep(
    cluster: &Inputs,
    sources: &[Source],
    choice: &SchedulerChoice,
    setting: &Setting,
    values: &[String],
    seed: u64,
) -> Result<Vec<Point>, Vec<Diagnostic>> {
    let results = crate::parallel::map(values, |value| -> Result<Point, Vec<Diagnostic>> {
        let at = |message: String| {
            vec![Diagnostic::new(
                &format!("--set {}={value}", setting.name()),
                "",
                message,
            )]
        };
        let seed = match setting {
            Setting::Seed => value
                .parse::<u64>()
                .map_err(|_| at(format!("{value:?} is not a seed (a whole number from 0)")))?,
            _ => seed,
        };
        let configured = configure(choice, setting, value).map_err(at)?;
        let scenario: Scenario = configured.scenario(cluster, sources).map_err(|errs| {
            errs.into_iter()
                .map(|e| Diagnostic {
                    message: format!("with {}={value}: {}", setting.name(), e.message),
                    ..e
                })
                .collect::<Vec<_>>()
        })?;
        let run = scenario.run_with(seed, false, Limits::default());
        Ok(Point {
            value: value.clone(),
            seed,
            summary: Summary::of(&run),
        })
    });
    let mut points = Vec::new();
    let mut errors = Vec::new();
    for r in results {
        match r {
            Ok(p) => points.push(p),
            Err(e) => errors.extend(e),
        }
    }
    if errors.is_empty() {
        Ok(points)
    } else {
        Err(errors)
    }
}

/// The sweep as CSV: a header (`value` and each metric of [`Summary::metrics`]), then one row
/// per value.
pub fn to_csv(setting: &Setting, points: &[Point]) -> String {
    let mut out = String::from(&setting.name());
    for (name, _) in Summary::default().metrics() {
        out.push(',');
        out.push_str(name);
    }
    out.push('\n');
    for p in points {
        out.push_str(&csv_field(&p.value));
        for (_, v) in p.summary.metrics() {
            out.push(',');
            out.push_str(&format_number(v));
        }
        out.push('\n');
    }
    out
}

/// A number as CSV writes it: whole numbers without a fraction, others with up to 6 decimals.
pub fn format_number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        let s = format!("{v:.6}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The sweep as JSON: `{"setting", "points": [{"value", "seed", "summary"}]}`.
pub fn to_json(setting: &Setting, points: &[Point]) -> Value {
    json!({
        "setting": setting.name(),
        "points": points.iter().map(|p| json!({
            "value": p.value, "seed": p.seed, "summary": p.summary.to_json(),
        })).collect::<Vec<_>>(),
    })
}
