//! `compare`, `sweep` and `capacity` for JavaScript: files as the `Simulator` takes them,
//! answers as objects shaped as `docs/questions.md` says (the CLI's `--output json`), problems
//! thrown as `SchedlabError`s. [`Question`] is the same in plain Rust (native tests).

use crate::api::{get, input_error, parse, problem, read_files, throw_inputs};
use crate::types::{InputError, ScenarioFile};
use schedlab_core::input::{read_sources, Inputs};
use schedlab_core::questions::{capacity as cap, compare as cmp, sweep as swp, SchedulerChoice};
use schedlab_core::scenario::SchedulerVersion;
use schedlab_core::{Diagnostic, Source};
use serde_json::Value;
use wasm_bindgen::prelude::*;

/// A configuration argument: the scenario's own, a version's defaults, or configuration files.
#[derive(Clone, Debug, Default)]
pub enum Configuration {
    /// The scenario's own configuration (`undefined` or `""`).
    #[default]
    Own,
    /// `"v1.17"` or `"v1.35"`: that version's defaults.
    Defaults(SchedulerVersion),
    /// Files holding a Policy and/or a KubeSchedulerConfiguration.
    Files(Vec<ScenarioFile>),
}

/// One of the three questions, asked of `files`.
pub enum Question {
    /// Configuration A against B.
    Compare(Configuration, Configuration),
    /// `setting` over `values` under a configuration.
    Sweep(Configuration, String, String),
    /// Copies of the templates in these files, in turn.
    Capacity(Vec<ScenarioFile>),
}

fn sources(files: &[ScenarioFile]) -> Vec<Source<'_>> {
    files
        .iter()
        .map(|f| Source {
            name: &f.name,
            text: &f.text,
        })
        .collect()
}

fn usage(message: String) -> Vec<Diagnostic> {
    vec![Diagnostic::new("", "", message)]
}

fn choice(c: &Configuration, own: &SchedulerChoice) -> Result<SchedulerChoice, Vec<Diagnostic>> {
    match c {
        Configuration::Own => Ok(own.clone()),
        Configuration::Defaults(v) => Ok(SchedulerChoice::defaults(*v)),
        Configuration::Files(files) => SchedulerChoice::from_sources(&sources(files)),
    }
}

impl Question {
    /// The answer for `files` with `seed`.
    pub fn answer(&self, files: &[ScenarioFile], seed: u64) -> Result<Value, Vec<Diagnostic>> {
        let mut inputs: Inputs = read_sources(&sources(files))?;
        match self {
            Question::Compare(a, b) => {
                let own = SchedulerChoice::take_from(&mut inputs, None);
                let (a, b) = (choice(a, &own)?, choice(b, &own)?);
                let src = sources(files);
                let sa = a.scenario(&inputs, &src)?;
                let sb = b.scenario(&inputs, &src)?;
                Ok(cmp::compare((&a.label, &sa), (&b.label, &sb), seed).to_json())
            }
            Question::Sweep(config, setting, values) => {
                let own = SchedulerChoice::take_from(&mut inputs, None);
                let config = choice(config, &own)?;
                let setting = swp::Setting::parse(setting).map_err(usage)?;
                let values = swp::parse_values(&setting, values).map_err(usage)?;
                let points =
                    swp::sweep(&inputs, &sources(files), &config, &setting, &values, seed)?;
                Ok(swp::to_json(&setting, &points))
            }
            Question::Capacity(pods) => {
                let mut templates = Vec::new();
                for f in pods {
                    let part = read_sources(&sources(std::slice::from_ref(f)))?;
                    templates.extend(cap::templates(&f.name, part)?);
                }
                let all: Vec<ScenarioFile> = files.iter().chain(pods).cloned().collect();
                let answer = cap::capacity(&inputs, &sources(&all), None, &templates, seed)?;
                Ok(answer.to_json())
            }
        }
    }
}

/// A configuration argument from JavaScript.
fn configuration(value: &JsValue, what: &str) -> Result<Configuration, Vec<InputError>> {
    if value.is_undefined() || value.is_null() {
        return Ok(Configuration::Own);
    }
    if let Some(text) = value.as_string() {
        return match text.trim() {
            "" => Ok(Configuration::Own),
            t => SchedulerVersion::parse(t)
                .map(Configuration::Defaults)
                .ok_or_else(|| {
                    vec![problem(
                        what,
                        "",
                        format!("{t:?}: expected \"v1.17\", \"v1.35\" or configuration files"),
                    )]
                }),
        };
    }
    read_files(value).map(Configuration::Files)
}

fn seed(options: &JsValue) -> Result<u64, Vec<InputError>> {
    let s = get(options, "seed");
    if s.is_undefined() {
        return Ok(0);
    }
    match s.as_f64() {
        Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= 9_007_199_254_740_991.0 => Ok(n as u64),
        _ => Err(vec![problem(
            "options",
            "seed",
            "expected a whole number from 0",
        )]),
    }
}

fn string(options: &JsValue, key: &str) -> Result<String, Vec<InputError>> {
    get(options, key)
        .as_string()
        .ok_or_else(|| vec![problem("options", key, "expected a string")])
}

fn ask(
    files: &JsValue,
    options: &JsValue,
    question: impl FnOnce() -> Result<Question, Vec<InputError>>,
) -> Result<JsValue, JsValue> {
    let files = read_files(files).map_err(throw_inputs)?;
    let seed = seed(options).map_err(throw_inputs)?;
    let question = question().map_err(throw_inputs)?;
    let answer = question
        .answer(&files, seed)
        .map_err(|e| throw_inputs(e.iter().map(input_error).collect()))?;
    Ok(parse(&answer.to_string()))
}

/// `schedlab compare`: `options` is `{a?, b?, seed?}`, `a` and `b` each `"v1.17"`, `"v1.35"`,
/// configuration files (as `files`), or absent for the scenario's own configuration.
#[wasm_bindgen]
pub fn compare(files: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    ask(&files, &options, || {
        Ok(Question::Compare(
            configuration(&get(&options, "a"), "options.a")?,
            configuration(&get(&options, "b"), "options.b")?,
        ))
    })
}

/// `schedlab sweep`: `options` is `{set, values, config?, seed?}`, as `--set`, `--values`
/// and `--config`.
#[wasm_bindgen]
pub fn sweep(files: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    ask(&files, &options, || {
        Ok(Question::Sweep(
            configuration(&get(&options, "config"), "options.config")?,
            string(&options, "set")?,
            string(&options, "values")?,
        ))
    })
}

/// `schedlab capacity`: `options` is `{pods, seed?}`, `pods` the template files (Pods or
/// Deployments, as `files`), placed in turn.
#[wasm_bindgen]
pub fn capacity(files: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    ask(&files, &options, || {
        Ok(Question::Capacity(read_files(&get(&options, "pods"))?))
    })
}
