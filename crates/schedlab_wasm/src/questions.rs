//! `compare`, `sweep` and `capacity` for JavaScript: JSON strings in and out, as `run`; the
//! shapes are `docs/questions.md`'s (the CLI's `--output json`).

use crate::{errors_json, parse_files, sources};
use schedlab_core::analysis::{capacity as cap, compare as cmp, sweep as swp, SchedulerChoice};
use schedlab_core::input::{read_sources, Inputs};
use schedlab_core::scenario::SchedulerVersion;
use wasm_bindgen::prelude::*;

/// A configuration argument: `"v1.17"`, `"v1.35"`, `""` (the scenario's own) or a JSON array
/// of `{name, text}` configuration files.
fn choice(spec: &str, own: &SchedulerChoice) -> Result<SchedulerChoice, String> {
    let spec = spec.trim();
    if spec.is_empty() {
        return Ok(own.clone());
    }
    if let Some(v) = SchedulerVersion::parse(spec) {
        return Ok(SchedulerChoice::defaults(v));
    }
    let files = parse_files(spec)?;
    SchedulerChoice::from_sources(&sources(&files)).map_err(|e| errors_json(&e))
}

/// The scenario's objects with its own configuration taken out.
fn cluster(files: &[(String, String)]) -> Result<(Inputs, SchedulerChoice), String> {
    let mut inputs = read_sources(&sources(files)).map_err(|e| errors_json(&e))?;
    let own = SchedulerChoice::take_from(&mut inputs, None);
    Ok((inputs, own))
}

fn answer(result: Result<String, String>) -> String {
    result.unwrap_or_else(|e| e)
}

/// `schedlab compare --output json`: `files` as `run`'s, `a` and `b` as configuration
/// arguments (`"v1.17"`, `"v1.35"`, `""` for the scenario's own, or `[{name, text}]`).
#[wasm_bindgen]
pub fn compare(files: &str, a: &str, b: &str, seed: u64) -> String {
    answer((|| {
        let files = parse_files(files)?;
        let (inputs, own) = cluster(&files)?;
        let (a, b) = (choice(a, &own)?, choice(b, &own)?);
        let src = sources(&files);
        let sa = a.scenario(&inputs, &src).map_err(|e| errors_json(&e))?;
        let sb = b.scenario(&inputs, &src).map_err(|e| errors_json(&e))?;
        Ok(cmp::compare((&a.label, &sa), (&b.label, &sb), seed)
            .to_json()
            .to_string())
    })())
}

/// `schedlab sweep --output json`: `config` as a configuration argument, `setting` and
/// `values` as `--set` and `--values`.
#[wasm_bindgen]
pub fn sweep(files: &str, config: &str, setting: &str, values: &str, seed: u64) -> String {
    answer((|| {
        let error = |e: String| serde_json::json!({ "errors": [e] }).to_string();
        let setting = swp::Setting::parse(setting).map_err(error)?;
        let values = swp::parse_values(&setting, values).map_err(error)?;
        let files = parse_files(files)?;
        let (inputs, own) = cluster(&files)?;
        let config = choice(config, &own)?;
        let points = swp::sweep(&inputs, &sources(&files), &config, &setting, &values, seed)
            .map_err(|e| errors_json(&e))?;
        Ok(swp::to_json(&setting, &points).to_string())
    })())
}

/// `schedlab capacity --output json`: `pods` is a JSON array of `{name, text}` template files
/// (Pods or Deployments), placed in turn.
#[wasm_bindgen]
pub fn capacity(files: &str, pods: &str, seed: u64) -> String {
    answer((|| {
        let files = parse_files(files)?;
        let pod_files = parse_files(pods)?;
        let inputs = read_sources(&sources(&files)).map_err(|e| errors_json(&e))?;
        let mut templates = Vec::new();
        for (name, text) in &pod_files {
            let part = read_sources(&sources(&[(name.clone(), text.clone())]))
                .map_err(|e| errors_json(&e))?;
            templates.extend(cap::templates(name, part).map_err(|e| errors_json(&e))?);
        }
        let mut all = files.clone();
        all.extend(pod_files);
        let answer = cap::capacity(&inputs, &sources(&all), None, &templates, seed)
            .map_err(|e| errors_json(&e))?;
        Ok(answer.to_json().to_string())
    })())
}
