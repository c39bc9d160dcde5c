//! `schedlab_wasm`: the JavaScript-facing API, a thin adapter over `schedlab_core`.
//!
//! Inputs in, one call into the core, a JSON string out. No scheduling logic lives here.
//!
//! [`Simulator`] (in `api`) is the API for embedders: JavaScript objects in and out, errors
//! as `Error`s with details, TypeScript declarations from [`types`]. `run`, [`Session`] and
//! [`BenchWorkload`] serve the playground's scripts (determinism, benchmarks).

mod api;
mod extenders;
pub mod types;

pub use api::{input_error, limits, Embedded, Simulator};
pub use extenders::call_extender;

use schedlab_core::simulation::{Limits, Simulation, StopReason};
use schedlab_core::{report, Scenario, Source};
use wasm_bindgen::prelude::*;

/// Parses `[{"name", "text"}, ...]`; errors as `{"errors": [...]}`.
fn parse_files(files: &str) -> Result<Vec<(String, String)>, String> {
    let parsed: Result<Vec<(String, String)>, String> =
        serde_json::from_str::<serde_json::Value>(files)
            .map_err(|e| e.to_string())
            .and_then(|v| {
                v.as_array()
                    .ok_or_else(|| "expected an array of {name, text}".to_string())?
                    .iter()
                    .map(|f| {
                        let name = f
                            .get("name")
                            .and_then(|n| n.as_str())
                            .unwrap_or("input")
                            .to_string();
                        let text = f
                            .get("text")
                            .and_then(|t| t.as_str())
                            .ok_or_else(|| format!("{name}: missing text"))?
                            .to_string();
                        Ok((name, text))
                    })
                    .collect()
            });
    parsed.map_err(|e| serde_json::json!({ "errors": [e] }).to_string())
}

/// `{"errors": [...]}` for diagnostics.
fn errors_json(errs: &[schedlab_core::Diagnostic]) -> String {
    let list: Vec<String> = errs.iter().map(ToString::to_string).collect();
    serde_json::json!({ "errors": list }).to_string()
}

fn sources(files: &[(String, String)]) -> Vec<Source<'_>> {
    files
        .iter()
        .map(|(name, text)| Source { name, text })
        .collect()
}

/// Parses `[{"name", "text"}, ...]` and loads the scenario; errors as `{"errors": [...]}`.
fn load(files: &str) -> Result<Scenario, String> {
    let files = parse_files(files)?;
    Scenario::load(&sources(&files)).map_err(|errs| errors_json(&errs))
}

/// Runs a scenario. `files` is a JSON array of `{"name": ..., "text": ...}`. Returns the CLI
/// contract's JSON report, or `{"errors": ["file: path: message", ...]}`.
#[wasm_bindgen]
pub fn run(files: &str, seed: u64, summary: bool) -> String {
    match load(files) {
        Ok(s) => serde_json::to_string(&report::JsonReport {
            run: &s.run(seed, !summary),
            detail: !summary,
        })
        .unwrap_or_default(),
        Err(e) => e,
    }
}

pub mod questions;
pub use questions::{capacity, compare, sweep, Configuration, Question};

/// A simulation the page steps through: forward, back, to a time; its queue, its report and
/// any cycle's tables on demand. The log keeps no tables (`cycle` recomputes them).
#[wasm_bindgen]
pub struct Session {
    sim: Simulation,
}

#[wasm_bindgen]
impl Session {
    /// Loads `files` (as [`run`]); throws the `{"errors": [...]}` JSON on invalid input.
    pub fn load(files: &str, seed: u64) -> Result<Session, JsValue> {
        let scenario = load(files).map_err(|e| JsValue::from_str(&e))?;
        Ok(Session {
            sim: Simulation::new(&scenario, seed, false),
        })
    }

    /// Applies one step; false when nothing can happen any more.
    pub fn step(&mut self) -> bool {
        self.sim.step().is_some()
    }

    /// Steps until a cycle has run; its index, or -1 when the run ended first.
    pub fn step_cycle(&mut self) -> i64 {
        self.sim.step_cycle().map_or(-1, |c| c as i64)
    }

    /// Goes back one step.
    pub fn step_back(&mut self) {
        self.sim.step_back();
    }

    /// Goes to the state after `step` steps.
    pub fn go_to_step(&mut self, step: usize) {
        self.sim.go_to_step(step);
    }

    /// Runs until quiescent, or until `until_seconds` / `max_cycles` (negative: no bound).
    /// Returns why it stopped: `Quiescent`, `Until` or `MaxCycles`.
    pub fn run(&mut self, until_seconds: f64, max_cycles: i64) -> String {
        let limits = Limits {
            until: (until_seconds >= 0.0).then_some(schedlab_core::model::Millis(
                (until_seconds * 1000.0) as u64,
            )),
            max_cycles: usize::try_from(max_cycles).ok(),
        };
        self.sim.run(limits).as_str().to_string()
    }

    /// Steps applied so far.
    pub fn position(&self) -> usize {
        self.sim.position()
    }

    /// Steps known so far (more than `position` after going back).
    pub fn known_steps(&self) -> usize {
        self.sim.steps().len()
    }

    /// The virtual clock, in seconds.
    pub fn now_seconds(&self) -> f64 {
        self.sim.now().as_secs_f64()
    }

    /// The queue as JSON (see `report::queue_json`).
    pub fn queue(&self) -> String {
        report::queue_json(self.sim.cluster(), &self.sim.queue_view()).to_string()
    }

    /// The contract's report of the history up to the current position (summary form).
    pub fn report(&self) -> String {
        let stop = if self.sim.is_finished() {
            StopReason::Quiescent
        } else {
            StopReason::Until
        };
        serde_json::to_string(&report::JsonReport {
            run: &self.sim.to_run(stop),
            detail: false,
        })
        .unwrap_or_default()
    }

    /// Cycle `cycle` with its filter and score tables (recomputed), as the report spells a
    /// cycle; `null` for a cycle not run yet.
    pub fn cycle(&self, cycle: usize) -> String {
        match self.sim.cycle_detail(cycle) {
            Some(t) => report::cycle_json(
                self.sim.cluster(),
                &self.sim.filter_names,
                &self.sim.score_names,
                &t,
                true,
            )
            .to_string(),
            None => "null".to_string(),
        }
    }
}

/// Builds a benchmark workload (kept out of the timed part by the caller).
#[wasm_bindgen]
pub struct BenchWorkload {
    scenario: Scenario,
}

#[wasm_bindgen]
impl BenchWorkload {
    /// `nodes` nodes, `bound` bound pods, `pending` pods to schedule.
    #[wasm_bindgen(constructor)]
    pub fn new(nodes: usize, bound: usize, pending: usize, percentage: i32) -> BenchWorkload {
        BenchWorkload {
            scenario: schedlab_core::scheduling_basic(nodes, bound, pending, percentage),
        }
    }

    /// A named workload (`scheduling-basic`, `pod-anti-affinity`, `pod-affinity`,
    /// `topology-spreading`); `undefined` for an unknown name.
    pub fn named(
        workload: &str,
        nodes: usize,
        bound: usize,
        pending: usize,
        percentage: i32,
    ) -> Option<BenchWorkload> {
        let w = schedlab_core::Workload::parse(workload)?;
        Some(BenchWorkload {
            scenario: schedlab_core::build(w, nodes, bound, pending, percentage),
        })
    }

    /// The simulation of this workload with its history (checkpoints), as the playground runs
    /// it, for timing the run and stepping back from JavaScript.
    pub fn simulation(&self, seed: u64) -> BenchSimulation {
        BenchSimulation {
            sim: Simulation::new(&self.scenario, seed, false),
        }
    }

    /// Schedules every pending pod; returns `[scheduled, evaluated nodes, preemption victims]`.
    pub fn run(&self, seed: u64, trace: bool) -> Vec<f64> {
        let run = self.scenario.run(seed, trace);
        let victims = (0..run.cluster.pods().len())
            .filter(|&p| run.phase(p) == schedlab_core::simulation::Phase::Deleted)
            .count();
        vec![
            run.scheduled_count() as f64,
            run.evaluated_nodes() as f64,
            victims as f64,
        ]
    }
}

/// A steppable simulation of a benchmark workload.
#[wasm_bindgen]
pub struct BenchSimulation {
    sim: Simulation,
}

#[wasm_bindgen]
impl BenchSimulation {
    /// Runs until quiescent; returns the number of cycles.
    pub fn run(&mut self) -> usize {
        self.sim.run(Limits::default());
        self.sim.cycles_done()
    }

    /// Goes back to the step just before cycle `cycles_done - n`; returns the new position.
    pub fn step_back_cycles(&mut self, n: usize) -> usize {
        let target = self.sim.cycles_done().saturating_sub(n);
        let step = self.sim.step_of_cycle(target).unwrap_or(0);
        self.sim.go_to_step(step);
        self.sim.position()
    }
}
