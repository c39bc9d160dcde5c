//! The embedders' API: `Simulator`, a scenario run step by step from JavaScript, handing out
//! the CLI contract's JSON as plain JavaScript objects.
//!
//! [`Embedded`] is the API in plain Rust (tested natively against the CLI's output);
//! [`Simulator`] is its wasm-bindgen face: JavaScript values in, `JSON.parse`d objects out,
//! `Error`s with structured details thrown. No scheduling logic lives here.

use crate::types::{
    ErrorDetails, Explanation, InputError, NodeExplanation, NodeView, Outcome, Queue, Report,
    RunOptions, ScenarioFile, SchedulerName, SimulatorOptions, StopReason as StopName,
};
use schedlab_core::model::resources::{format_usage, CPU, MEMORY};
use schedlab_core::model::Millis;
use schedlab_core::scenario::SchedulerVersion;
use schedlab_core::simulation::{Limits, PodPhase, Simulation, StopReason};
use schedlab_core::trace::explain::{explain_for, gated, not_queued};
use schedlab_core::trace::Outcome as CoreOutcome;
use schedlab_core::{report, Diagnostic, Scenario, Source};
use serde_json::{Map, Value};
use tsify::Ts;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// A scenario's simulation with its history, as the JavaScript API sees it.
pub struct Embedded {
    pub(crate) sim: Simulation,
    /// `--summary`: cycles without their tables.
    summary: bool,
    /// Why the history so far stopped where it is (the report's `end.reason`).
    pub(crate) stop: StopReason,
    /// Set when the last `run` stopped at a default bound (the report's `end.warning`).
    warning: Option<String>,
    /// The v1.17 configuration's `schedulerName` (what `schedlab explain` names for a pod
    /// that was never queued).
    scheduler_names: Vec<String>,
    scheduler: SchedulerVersion,
    /// The scenario's scheduler (which PreEnqueue plugin holds a never-tried pod back).
    gates: std::sync::Arc<schedlab_core::scheduler::Scheduler>,
    /// Who answers the scenario's extenders: its mocks and recording, and the exchanges added.
    pub(crate) answers: std::sync::Arc<schedlab_core::scheduler::extenders::Answers>,
    /// The extender calls the run paused at, not answered yet (`awaitedCalls()`).
    pub(crate) awaited: Vec<schedlab_core::scheduler::extenders::PendingCall>,
}

impl Embedded {
    /// Loads a scenario, as `schedlab run` does; every problem with the inputs on failure.
    pub fn load(
        files: &[ScenarioFile],
        options: &SimulatorOptions,
    ) -> Result<Embedded, Vec<Diagnostic>> {
        Embedded::load_with_plugins(files, options, &[])
    }

    /// [`Embedded::load`] with custom plugins in scope (`schedlab run --plugin`).
    pub fn load_with_plugins(
        files: &[ScenarioFile],
        options: &SimulatorOptions,
        plugins: &[schedlab_core::scheduler::v1_35::CustomPlugin],
    ) -> Result<Embedded, Vec<Diagnostic>> {
        let sources: Vec<Source> = files
            .iter()
            .map(|f| Source {
                name: &f.name,
                text: &f.text,
            })
            .collect();
        let requested = options.scheduler.map(|s| match s {
            SchedulerName::V1_17 => SchedulerVersion::V1_17,
            SchedulerName::V1_35 => SchedulerVersion::V1_35,
        });
        let mut scenario = schedlab_core::scheduler::v1_35::with_custom_plugins(plugins, || {
            Scenario::load_for(&sources, requested, schedlab_core::model::FrontEnd::Js)
        })?;
        let summary = options.summary.unwrap_or(false);
        scenario.extender_nodeinfo_fix = options.extender_nodeinfo_fix.unwrap_or(false);
        if !options.offline.unwrap_or(false) {
            // A call no mock and no recording answers pauses the run (`AwaitingExtender`).
            scenario.extender_answers.set_wait_for_host(true);
        }
        Ok(Embedded {
            sim: Simulation::new(&scenario, options.seed.unwrap_or(0), !summary),
            summary,
            // Before any cycle the history is what `schedlab run --max-cycles 0` reports.
            stop: StopReason::MaxCycles,
            warning: None,
            scheduler_names: scenario.scheduler.scheduler_names(),
            scheduler: scenario.version(),
            gates: std::sync::Arc::clone(&scenario.scheduler),
            answers: std::sync::Arc::clone(&scenario.extender_answers),
            awaited: Vec::new(),
        })
    }

    /// Runs until one scheduling cycle has run; that cycle as the report spells it, or `None`
    /// when the run ended first. Afterwards the history is what `schedlab run --max-cycles N`
    /// reports, N being the cycles run.
    pub fn step(&mut self) -> Option<Value> {
        match self.sim.step_cycle() {
            Some(i) => {
                self.stop = StopReason::MaxCycles;
                self.warning = None;
                Some(self.cycle_json(i))
            }
            None => {
                self.stop = if self.collect_awaited() {
                    StopReason::AwaitingExtender
                } else {
                    StopReason::Quiescent
                };
                self.warning = None;
                None
            }
        }
    }

    /// Runs until nothing can happen any more, or a limit (the default bounds where `limits`
    /// sets none, as `schedlab run`); why it stopped.
    pub fn run(&mut self, limits: Limits) -> StopReason {
        self.stop = self.sim.run(limits.or_defaults());
        if self.stop == StopReason::AwaitingExtender {
            self.collect_awaited();
        }
        self.warning =
            limits.default_bound_warning_for(self.stop, schedlab_core::model::FrontEnd::Js);
        self.stop
    }

    /// The contract's report of the history so far: what `schedlab run --output json`
    /// prints (with `--summary` when the simulator was made with `summary`).
    pub fn report(&self) -> Value {
        let mut run = self.sim.to_run(self.stop);
        run.warning.clone_from(&self.warning);
        report::json_report(&run, !self.summary)
    }

    /// Cycle `i` of the history, as the report spells it.
    fn cycle_json(&self, i: usize) -> Value {
        report::cycle_json(
            self.sim.cluster(),
            &self.sim.filter_names,
            &self.sim.score_names,
            &self.sim.cycles()[i],
            !self.summary,
        )
    }

    /// The queue now: `queue_json`'s entries, by sub-queue, and the virtual time.
    pub fn queue(&self) -> Value {
        let mut groups: [Vec<Value>; 3] = Default::default();
        let entries = report::queue_json(self.sim.cluster(), &self.sim.queue_view());
        for entry in entries.as_array().into_iter().flatten() {
            let slot = match entry.get("queue").and_then(Value::as_str) {
                Some("activeQ") => 0,
                Some("podBackoffQ") => 1,
                _ => 2,
            };
            groups[slot].push(entry.clone());
        }
        let [active, backoff, unschedulable] = groups;
        let mut m = Map::new();
        m.insert("time".into(), Value::from(self.sim.now().as_secs_f64()));
        m.insert("activeQ".into(), Value::Array(active));
        m.insert("podBackoffQ".into(), Value::Array(backoff));
        m.insert("unschedulableQ".into(), Value::Array(unschedulable));
        Value::Object(m)
    }

    /// Every node now, in input order, with the pods on it.
    pub fn nodes(&self) -> Vec<NodeView> {
        let c = self.sim.cluster();
        c.nodes()
            .iter()
            .map(|n| NodeView {
                name: n.name().to_string(),
                pods: n
                    .pods()
                    .iter()
                    .map(|&p| c.pods()[p].full_name.clone())
                    .collect(),
                cpu: format_usage(CPU, n.requested().milli_cpu, n.allocatable().milli_cpu),
                memory: format_usage(MEMORY, n.requested().memory, n.allocatable().memory),
                unschedulable: n.object().spec.unschedulable,
            })
            .collect()
    }

    /// What `schedlab explain --pod POD` prints, for the history so far (after a run to the
    /// end, its text is the CLI's, byte for byte). `Err` for a pod not in the inputs.
    pub fn explain(&self, pod: &str) -> Result<Explanation, String> {
        let full = if pod.contains('/') {
            pod.to_string()
        } else {
            format!("default/{pod}")
        };
        let cluster = self.sim.cluster();
        let Some(id) = cluster.pods().iter().position(|p| p.full_name == full) else {
            return Err(format!("no pod {pod:?} in the inputs"));
        };
        let name = cluster.pods()[id].full_name.clone();
        let cycles = &self.sim.cycles()[..self.sim.cycles_done()];
        if let Some(i) = cycles.iter().rposition(|c| c.pod == id) {
            // Explain against the cluster as that cycle saw it, as the CLI does.
            let (trace, before) = self
                .sim
                .cycle_detail_and_cluster(i)
                .unwrap_or_else(|| (cycles[i].clone(), cluster.clone()));
            let e = explain_for(&before, &trace, schedlab_core::model::FrontEnd::Js);
            let text = e.to_string();
            return Ok(Explanation {
                pod: name,
                cycle: Some(i),
                outcome: Some(match trace.outcome {
                    CoreOutcome::Scheduled => Outcome::Scheduled,
                    CoreOutcome::Unschedulable => Outcome::Unschedulable,
                    CoreOutcome::Error => Outcome::Error,
                }),
                summary: e.summary,
                preemption: e.preemption,
                nodes: e
                    .nodes
                    .into_iter()
                    .map(|n| NodeExplanation {
                        node: n.node,
                        reasons: n.reasons,
                        hints: n.hints,
                    })
                    .collect(),
                text,
            });
        }
        let bound = matches!(
            self.sim.pod_states().get(id).map(|s| &s.phase),
            Some(PodPhase::Bound)
        );
        let node = if bound { cluster.pod_node()[id] } else { None };
        let waiting = (!self.sim.is_finished())
            .then(|| self.sim.queue_view().into_iter().find(|q| q.pod == id))
            .flatten();
        let summary = match (node, waiting) {
            (Some(n), _) => format!(
                "{name} was already bound to {} in the input; it was not scheduled.",
                cluster.nodes()[n].name()
            ),
            // Not in the CLI, which explains a finished run: a pod whose turn has not come.
            (None, Some(q)) => format!(
                "{name} has had no scheduling cycle yet: it waits in {}.",
                q.queue.name()
            ),
            // As the CLI says it: a PreEnqueue plugin holds the pod back, or no profile has it.
            (None, None) => {
                let info = &cluster.pods()[id];
                let gate = self
                    .gates
                    .owns(&info.pod)
                    .then(|| self.gates.pre_enqueue_gate(info, cluster))
                    .flatten();
                match gate {
                    Some((plugin, msg)) => gated(&name, plugin, &msg),
                    None => not_queued(&name, &self.scheduler_names),
                }
            }
        };
        Ok(Explanation {
            pod: name,
            cycle: None,
            outcome: None,
            text: format!("{summary}\n"),
            summary,
            preemption: None,
            nodes: Vec::new(),
        })
    }

    /// The scheduler that runs.
    pub fn scheduler(&self) -> SchedulerVersion {
        self.scheduler
    }

    /// Whether nothing can happen any more.
    pub fn finished(&self) -> bool {
        self.sim.is_finished()
    }

    /// Cycles run so far.
    pub fn cycles_run(&self) -> usize {
        self.sim.cycles_done()
    }

    /// The virtual clock, in seconds.
    pub fn time(&self) -> f64 {
        self.sim.now().as_secs_f64()
    }
}

/// A core problem as the API's [`InputError`].
pub fn input_error(d: &Diagnostic) -> InputError {
    InputError {
        file: d.file.clone(),
        path: d.path.clone(),
        message: d.message.clone(),
        line: d.line,
    }
}

/// `Limits` from [`RunOptions`] (a negative or non-finite `until` is no bound).
pub fn limits(options: &RunOptions) -> Limits {
    Limits {
        until: options
            .until
            .filter(|u| u.is_finite() && *u >= 0.0)
            .map(|u| Millis((u * 1000.0).round() as u64)),
        max_cycles: options.max_cycles.map(|m| m as usize),
    }
}

pub(crate) fn stop_name(stop: StopReason) -> StopName {
    match stop {
        StopReason::Quiescent => StopName::Quiescent,
        StopReason::Until => StopName::Until,
        StopReason::MaxCycles => StopName::MaxCycles,
        StopReason::AwaitingExtender => StopName::AwaitingExtender,
    }
}

// ---- the JavaScript face -----------------------------------------------------------------

/// A JavaScript object from JSON text (numbers as `JSON.parse` reads them: every report
/// number is an integer below 2^53 or a float serde_json printed exactly).
pub(crate) fn parse(json: &str) -> JsValue {
    js_sys::JSON::parse(json).unwrap_or(JsValue::NULL)
}

pub(crate) fn to_js<T: serde::Serialize>(value: &T) -> JsValue {
    parse(&serde_json::to_string(value).unwrap_or_else(|_| "null".into()))
}

/// The `Error` the API throws: `message` lists the problems, one per line; `errors` holds
/// them as [`InputError`]s.
pub(crate) fn throw(message: &str, errors: Vec<InputError>) -> JsValue {
    let error = js_sys::Error::new(message);
    error.set_name("SchedlabError");
    let details = to_js(&ErrorDetails { errors });
    let list = js_sys::Reflect::get(&details, &"errors".into()).unwrap_or(JsValue::NULL);
    let _ = js_sys::Reflect::set(&error, &"errors".into(), &list);
    error.into()
}

pub(crate) fn throw_inputs(errors: Vec<InputError>) -> JsValue {
    let lines: Vec<String> = errors
        .iter()
        .map(|e| {
            let d = Diagnostic {
                file: e.file.clone(),
                path: e.path.clone(),
                line: e.line,
                message: e.message.clone(),
            };
            d.to_string()
        })
        .collect();
    throw(&lines.join("\n"), errors)
}

pub(crate) fn problem(file: &str, path: &str, message: impl Into<String>) -> InputError {
    InputError {
        file: file.to_string(),
        path: path.to_string(),
        message: message.into(),
        line: None,
    }
}

pub(crate) fn get(object: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(object, &key.into()).unwrap_or(JsValue::UNDEFINED)
}

/// `[{name, text}, ...]` or `{"nodes.yaml": "...", ...}`.
pub(crate) fn read_files(files: &JsValue) -> Result<Vec<ScenarioFile>, Vec<InputError>> {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    if js_sys::Array::is_array(files) {
        let array: &js_sys::Array = files.unchecked_ref();
        for (i, item) in array.iter().enumerate() {
            if !item.is_object() {
                errors.push(problem(&format!("files[{i}]"), "", "expected {name, text}"));
                continue;
            }
            let name = get(&item, "name")
                .as_string()
                .unwrap_or_else(|| "input".to_string());
            match get(&item, "text").as_string() {
                Some(text) => out.push(ScenarioFile { name, text }),
                None => errors.push(problem(&name, "", "missing text: expected a string")),
            }
        }
    } else if files.is_object() && !files.is_function() {
        let object: &js_sys::Object = files.unchecked_ref();
        for entry in js_sys::Object::entries(object).iter() {
            let pair: js_sys::Array = entry.unchecked_into();
            let name = pair.get(0).as_string().unwrap_or_default();
            match pair.get(1).as_string() {
                Some(text) => out.push(ScenarioFile { name, text }),
                None => errors.push(problem(&name, "", "expected the file's text as a string")),
            }
        }
    } else {
        errors.push(problem(
            "",
            "",
            "expected the files as an array of {name, text} or an object of file names to texts",
        ));
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// The largest integer a JavaScript number holds exactly.
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// The `plugins` option: each name's kube-scheduler-wasm-extension guest, as bytes.
fn read_plugins(
    options: &JsValue,
) -> Result<Vec<schedlab_core::scheduler::v1_35::CustomPlugin>, Vec<InputError>> {
    let plugins = if options.is_object() {
        get(options, "plugins")
    } else {
        JsValue::UNDEFINED
    };
    if plugins.is_undefined() || plugins.is_null() {
        return Ok(Vec::new());
    }
    if !plugins.is_object() {
        return Err(vec![problem(
            "options",
            "plugins",
            "expected an object of plugin names to wasm guests (Uint8Array or ArrayBuffer)",
        )]);
    }
    let mut out = Vec::new();
    let mut errors = Vec::new();
    let object: &js_sys::Object = plugins.unchecked_ref();
    for key in js_sys::Object::keys(object).iter() {
        let name = key.as_string().unwrap_or_default();
        let path = format!("plugins.{name}");
        let value = get(&plugins, &name);
        let bytes = if let Some(a) = value.dyn_ref::<js_sys::Uint8Array>() {
            a.to_vec()
        } else if let Some(b) = value.dyn_ref::<js_sys::ArrayBuffer>() {
            js_sys::Uint8Array::new(b).to_vec()
        } else if value.is_object() || value.is_function() {
            match schedlab_js_plugins::js_plugin(&name, &value) {
                Ok(p) => out.push(p),
                Err(e) => errors.push(problem("options", &path, e)),
            }
            continue;
        } else {
            errors.push(problem(
                "options",
                &path,
                "expected a JavaScript plugin (an object or a factory) or a wasm guest's bytes (Uint8Array or ArrayBuffer)",
            ));
            continue;
        };
        if schedlab_core::scheduler::v1_35::REGISTRY
            .iter()
            .any(|s| s.name == name)
        {
            errors.push(problem(
                "options",
                &path,
                format!("a plugin named {name:?} already exists"),
            ));
            continue;
        }
        match schedlab_core::scheduler::v1_35::wasm_guest_plugin(&name, bytes.into()) {
            Ok(p) => out.push(p),
            Err(e) => errors.push(problem("options", &path, e)),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

fn read_options(options: &JsValue) -> Result<SimulatorOptions, Vec<InputError>> {
    let mut out = SimulatorOptions::default();
    if options.is_undefined() || options.is_null() {
        return Ok(out);
    }
    if !options.is_object() {
        return Err(vec![problem(
            "options",
            "",
            "expected {seed?, scheduler?, summary?, offline?, extenderNodeinfoFix?, plugins?}",
        )]);
    }
    let mut errors = Vec::new();
    let seed = get(options, "seed");
    if seed.is_bigint() {
        match u64::try_from(seed) {
            Ok(s) => out.seed = Some(s),
            Err(_) => errors.push(problem(
                "options",
                "seed",
                "expected an integer from 0 to 2^64-1",
            )),
        }
    } else if let Some(n) = seed.as_f64() {
        if n.fract() == 0.0 && (0.0..=MAX_SAFE_INTEGER).contains(&n) {
            out.seed = Some(n as u64);
        } else {
            errors.push(problem(
                "options",
                "seed",
                format!("expected an integer from 0 to 2^53-1 (a bigint above), got {n}"),
            ));
        }
    } else if !seed.is_undefined() && !seed.is_null() {
        errors.push(problem("options", "seed", "expected a number or a bigint"));
    }
    let scheduler = get(options, "scheduler");
    if let Some(s) = scheduler.as_string() {
        match SchedulerVersion::parse(&s) {
            Some(SchedulerVersion::V1_17) => out.scheduler = Some(SchedulerName::V1_17),
            Some(SchedulerVersion::V1_35) => out.scheduler = Some(SchedulerName::V1_35),
            None => errors.push(problem(
                "options",
                "scheduler",
                format!("{s:?}: expected v1.17 or v1.35"),
            )),
        }
    } else if !scheduler.is_undefined() && !scheduler.is_null() {
        errors.push(problem(
            "options",
            "scheduler",
            "expected \"v1.17\" or \"v1.35\"",
        ));
    }
    for (key, slot) in [
        ("summary", &mut out.summary),
        ("offline", &mut out.offline),
        ("extenderNodeinfoFix", &mut out.extender_nodeinfo_fix),
    ] {
        let value = get(options, key);
        if let Some(b) = value.as_bool() {
            *slot = Some(b);
        } else if !value.is_undefined() && !value.is_null() {
            errors.push(problem("options", key, "expected a boolean"));
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// `run()`'s options, checked as the CLI checks `--until` and `--max-cycles`: a value of the
/// wrong type is a `TypeError`, one out of range a `RangeError`, each naming the option.
pub(crate) fn read_run_options(options: &JsValue) -> Result<RunOptions, JsValue> {
    let mut out = RunOptions::default();
    if options.is_undefined() || options.is_null() {
        return Ok(out);
    }
    if !options.is_object() {
        return Err(js_sys::TypeError::new("run(options): options must be an object").into());
    }
    let until = get(options, "until");
    if let Some(u) = until.as_f64() {
        // The CLI's rule: not NaN, not negative, at most a year of virtual time.
        if let Err(e) = schedlab_core::input::timeline::parse_duration(&serde_json::json!(u))
            .and_then(|_| {
                u.is_finite()
                    .then_some(())
                    .ok_or_else(|| format!("invalid duration {u}: not a finite number"))
            })
        {
            return Err(js_sys::RangeError::new(&format!("run(options): until: {e}")).into());
        }
        out.until = Some(u);
    } else if !until.is_undefined() && !until.is_null() {
        return Err(
            js_sys::TypeError::new("run(options): until: expected seconds, as a number").into(),
        );
    }
    let max = get(options, "maxCycles");
    if let Some(m) = max.as_f64() {
        if m.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(&m) {
            out.max_cycles = Some(m as u32);
        } else {
            return Err(js_sys::RangeError::new(&format!(
                "run(options): maxCycles: expected a whole number of cycles from 0 to {}, got {m}",
                u32::MAX
            ))
            .into());
        }
    } else if !max.is_undefined() && !max.is_null() {
        return Err(js_sys::TypeError::new("run(options): maxCycles: expected a number").into());
    }
    Ok(out)
}

/// A scenario run step by step: `Simulator.fromFiles(files, options)`, then `step()`,
/// `run()`, `report()`, `explain(pod)`, `queue()`, `nodes()`. Every object returned is the
/// CLI contract's JSON (`schedlab run --output json`), as a plain JavaScript object.
#[wasm_bindgen]
pub struct Simulator {
    /// Shared with a `runLive` in progress (which borrows it only between its awaits, so
    /// never while another method runs).
    pub(crate) inner: std::rc::Rc<std::cell::RefCell<Embedded>>,
}

#[wasm_bindgen]
impl Simulator {
    /// Loads a scenario from its files: an array of `{name, text}`, or an object of file
    /// names to texts. Throws a `SchedlabError` (an `Error` with `errors`, each problem's
    /// file, path, message and line) for invalid input or options.
    #[wasm_bindgen(js_name = fromFiles)]
    pub fn from_files(
        #[wasm_bindgen(unchecked_param_type = "ScenarioFile[] | Record<string, string>")]
        files: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "SimulatorOptions")] options: Option<
            JsValue,
        >,
    ) -> Result<Simulator, JsValue> {
        let files = read_files(&files).map_err(throw_inputs)?;
        let options = options.unwrap_or(JsValue::UNDEFINED);
        let plugins = read_plugins(&options).map_err(throw_inputs)?;
        let options = read_options(&options).map_err(throw_inputs)?;
        let inner = Embedded::load_with_plugins(&files, &options, &plugins)
            .map_err(|errs| throw_inputs(errs.iter().map(input_error).collect()))?;
        Ok(Simulator {
            inner: std::rc::Rc::new(std::cell::RefCell::new(inner)),
        })
    }

    /// Runs until one scheduling cycle has run and returns that cycle, as the report spells
    /// a cycle; `null` when the run has ended.
    #[wasm_bindgen(unchecked_return_type = "Cycle | null")]
    pub fn step(&mut self) -> JsValue {
        match self.inner.borrow_mut().step() {
            Some(cycle) => parse(&cycle.to_string()),
            None => JsValue::NULL,
        }
    }

    /// Runs to the end (or to `until` seconds / `maxCycles` cycles); returns why it stopped.
    pub fn run(
        &mut self,
        #[wasm_bindgen(unchecked_optional_param_type = "RunOptions")] options: Option<JsValue>,
    ) -> Result<Ts<StopName>, JsValue> {
        let options = read_run_options(&options.unwrap_or(JsValue::UNDEFINED))?;
        let stop = self.inner.borrow_mut().run(limits(&options));
        Ok(Ts::new_unchecked(to_js(&stop_name(stop))))
    }

    /// The contract's JSON report of the history so far: what `schedlab run --output json`
    /// prints (after `run()`; after N `step()`s, what `--max-cycles N` prints).
    pub fn report(&self) -> Ts<Report> {
        Ts::new_unchecked(parse(&self.inner.borrow().report().to_string()))
    }

    /// What `schedlab explain --pod POD` says (POD as `namespace/name`, or `name` in
    /// `default`), for the history so far. Throws a `SchedlabError` for an unknown pod.
    pub fn explain(&self, pod: &str) -> Result<Ts<Explanation>, JsValue> {
        let explained = self.inner.borrow().explain(pod);
        match explained {
            Ok(e) => Ok(Ts::new_unchecked(to_js(&e))),
            Err(message) => Err(throw(&message, Vec::new())),
        }
    }

    /// The scheduling queue now: activeQ, podBackoffQ and unschedulableQ.
    pub fn queue(&self) -> Ts<Queue> {
        Ts::new_unchecked(parse(&self.inner.borrow().queue().to_string()))
    }

    /// Every node now, with the pods on it (assumed ones included).
    #[wasm_bindgen(unchecked_return_type = "NodeView[]")]
    pub fn nodes(&self) -> JsValue {
        to_js(&self.inner.borrow().nodes())
    }

    /// The scheduler that runs.
    #[wasm_bindgen(getter)]
    pub fn scheduler(&self) -> Ts<SchedulerName> {
        let name = match self.inner.borrow().scheduler() {
            SchedulerVersion::V1_17 => SchedulerName::V1_17,
            SchedulerVersion::V1_35 => SchedulerName::V1_35,
        };
        Ts::new_unchecked(to_js(&name))
    }

    /// Whether nothing can happen any more.
    #[wasm_bindgen(getter)]
    pub fn finished(&self) -> bool {
        self.inner.borrow().finished()
    }

    /// Cycles run so far.
    #[wasm_bindgen(getter, js_name = cyclesRun)]
    pub fn cycles_run(&self) -> usize {
        self.inner.borrow().cycles_run()
    }

    /// The virtual clock, in seconds.
    #[wasm_bindgen(getter)]
    pub fn time(&self) -> f64 {
        self.inner.borrow().time()
    }
}
