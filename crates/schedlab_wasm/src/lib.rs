//! `schedlab_wasm`: the JavaScript-facing API, a thin adapter over `schedlab_core`.
//!
//! Inputs in, one call into the core, a JSON string out. No scheduling logic lives here.

use schedlab_core::simulation::{Limits, Simulation};
use schedlab_core::{report, workloads, Scenario, Source};
use wasm_bindgen::prelude::*;

/// Runs a scenario. `files` is a JSON array of `{"name": ..., "text": ...}`. Returns the CLI
/// contract's JSON report, or `{"errors": ["file: path: message", ...]}`.
#[wasm_bindgen]
pub fn run(files: &str, seed: u64, summary: bool) -> String {
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
    let files = match parsed {
        Ok(f) => f,
        Err(e) => return serde_json::json!({ "errors": [e] }).to_string(),
    };
    let sources: Vec<Source> = files
        .iter()
        .map(|(name, text)| Source { name, text })
        .collect();
    match Scenario::load(&sources) {
        Ok(s) => report::json_report(&s.run(seed, !summary), !summary).to_string(),
        Err(errs) => {
            let list: Vec<String> = errs.iter().map(ToString::to_string).collect();
            serde_json::json!({ "errors": list }).to_string()
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
            scenario: workloads::scheduling_basic(nodes, bound, pending, percentage),
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
        let w = workloads::Workload::parse(workload)?;
        Some(BenchWorkload {
            scenario: workloads::build(w, nodes, bound, pending, percentage),
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
        let victims = (0..run.cluster.pods.len())
            .filter(|&p| run.phase(p) == schedlab_core::scenario::Phase::Deleted)
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
