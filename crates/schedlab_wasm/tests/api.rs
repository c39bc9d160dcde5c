//! The JavaScript API (`Simulator`) under Node, through wasm-bindgen-test:
//!
//! ```sh
//! CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
//!   cargo test -p schedlab_wasm --target wasm32-unknown-unknown
//! ```
//!
//! Expected outcomes come from the gallery's `preemption-v135` scenario, worked out by hand in
//! the comments of its `pods.yaml`; whole reports are compared with the core's own
//! `report::json_report` for the same scenario and seed.
#![cfg(target_arch = "wasm32")]

use js_sys::{Array, Object, Reflect, JSON};
use schedlab_core::simulation::Limits;
use schedlab_core::{report, Scenario, Source};
use schedlab_wasm::Simulator;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

const FILES: [(&str, &str); 3] = [
    (
        "nodes.yaml",
        include_str!("../../../assets/scenarios/preemption-v135/nodes.yaml"),
    ),
    (
        "pods.yaml",
        include_str!("../../../assets/scenarios/preemption-v135/pods.yaml"),
    ),
    (
        "config.yaml",
        include_str!("../../../assets/scenarios/preemption-v135/config.yaml"),
    ),
];

const FIT_ERROR: &str = "0/2 nodes are available: 2 Insufficient cpu.";
const BACKFILL: &str = "0/2 nodes are available: 2 Insufficient cpu. no new claims to deallocate, preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.";

/// `[{name, text}, ...]`.
fn as_array(files: &[(&str, &str)]) -> JsValue {
    let array = Array::new();
    for (name, text) in files {
        let o = Object::new();
        Reflect::set(&o, &"name".into(), &(*name).into()).unwrap();
        Reflect::set(&o, &"text".into(), &(*text).into()).unwrap();
        array.push(&o);
    }
    array.into()
}

/// `{"nodes.yaml": "...", ...}`.
fn as_object(files: &[(&str, &str)]) -> JsValue {
    let o = Object::new();
    for (name, text) in files {
        Reflect::set(&o, &(*name).into(), &(*text).into()).unwrap();
    }
    o.into()
}

fn options(json: &str) -> Option<JsValue> {
    Some(JSON::parse(json).unwrap())
}

fn load(seed: u64) -> Simulator {
    Simulator::from_files(as_array(&FILES), options(&format!("{{\"seed\": {seed}}}")))
        .unwrap_or_else(|e| panic!("loads: {}", stringify(&e)))
}

fn get(v: &JsValue, path: &str) -> JsValue {
    path.split('.')
        .fold(v.clone(), |v, key| match key.parse::<u32>() {
            Ok(i) => Reflect::get_u32(&v, i).unwrap(),
            Err(_) => Reflect::get(&v, &key.into()).unwrap(),
        })
}

fn string(v: &JsValue, path: &str) -> Option<String> {
    get(v, path).as_string()
}

fn stringify(v: &JsValue) -> String {
    JSON::stringify(v).unwrap().into()
}

/// The core's report for the same scenario, as JavaScript prints it.
fn native_report(seed: u64, max_cycles: Option<usize>) -> String {
    let sources: Vec<Source> = FILES
        .iter()
        .map(|(name, text)| Source { name, text })
        .collect();
    let s = Scenario::load(&sources).unwrap();
    let run = s.run_with(
        seed,
        true,
        Limits {
            until: None,
            max_cycles,
        },
    );
    let json = report::json_report(&run, true).to_string();
    stringify(&JSON::parse(&json).unwrap())
}

#[wasm_bindgen_test]
fn from_files_takes_an_array_or_an_object() {
    let a = load(0);
    let b = Simulator::from_files(as_object(&FILES), None).unwrap();
    assert_eq!(stringify(&a.report().into()), stringify(&b.report().into()));
    assert_eq!(
        a.scheduler().js_value().as_string().as_deref(),
        Some("v1.35")
    );
    // The scheduler asked for: the v1 configuration cannot run under v1.17.
    let err = Simulator::from_files(as_object(&FILES), options(r#"{"scheduler": "v1.17"}"#))
        .err()
        .expect("a v1 configuration under v1.17 is an error");
    assert!(err.is_instance_of::<js_sys::Error>());
    assert_eq!(
        string(&err, "errors.0.file").as_deref(),
        Some("config.yaml")
    );
}

#[wasm_bindgen_test]
fn from_files_throws_an_error_naming_file_path_and_line() {
    let pods = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\nspec:\n  containers:\n    - name: c\n      resources:\n        requests:\n          cpu: 12x\n";
    let err = Simulator::from_files(as_array(&[("pods.yaml", pods)]), None)
        .err()
        .expect("an invalid quantity is an error");
    assert!(err.is_instance_of::<js_sys::Error>(), "{}", stringify(&err));
    let error: &js_sys::Error = err.unchecked_ref();
    let message: String = error.message().into();
    assert!(
        message.starts_with("pods.yaml: spec.containers[0].resources.requests.cpu: "),
        "{message}"
    );
    assert_eq!(string(&err, "errors.0.file").as_deref(), Some("pods.yaml"));
    assert_eq!(
        string(&err, "errors.0.path").as_deref(),
        Some("spec.containers[0].resources.requests.cpu")
    );
    assert!(string(&err, "errors.0.message").unwrap().contains("12x"));
    assert_eq!(get(&err, "errors.0.line").as_f64(), Some(10.0));
    assert_eq!(get(&err, "errors.length").as_f64(), Some(1.0));

    // Options are checked too, and every problem is listed.
    let err = Simulator::from_files(
        as_array(&FILES),
        options(r#"{"seed": -1, "scheduler": "v2"}"#),
    )
    .err()
    .expect("bad options are an error");
    assert!(err.is_instance_of::<js_sys::Error>());
    assert_eq!(string(&err, "errors.0.path").as_deref(), Some("seed"));
    assert_eq!(string(&err, "errors.1.path").as_deref(), Some("scheduler"));
    // Files that are not files.
    let err = Simulator::from_files(JsValue::from(42), None)
        .err()
        .unwrap();
    assert!(err.is_instance_of::<js_sys::Error>());
}

#[wasm_bindgen_test]
fn step_returns_each_cycle_then_null() {
    let mut sim = load(0);
    let first = sim.step();
    assert_eq!(string(&first, "pod").as_deref(), Some("default/checkout"));
    assert_eq!(string(&first, "outcome").as_deref(), Some("Unschedulable"));
    assert_eq!(string(&first, "message").as_deref(), Some(FIT_ERROR));
    assert_eq!(string(&first, "preemption.node").as_deref(), Some("node-b"));
    assert_eq!(
        string(&first, "preemption.victims.0").as_deref(),
        Some("default/reports-0")
    );
    assert_eq!(sim.cycles_run(), 1);
    let second = sim.step();
    assert_eq!(string(&second, "pod").as_deref(), Some("default/backfill"));
    assert_eq!(string(&second, "message").as_deref(), Some(BACKFILL));
    let third = sim.step();
    assert_eq!(string(&third, "outcome").as_deref(), Some("Scheduled"));
    assert_eq!(string(&third, "node").as_deref(), Some("node-b"));
    assert_eq!(get(&third, "time").as_f64(), Some(30.0));
    assert!(get(&third, "message").is_null());
    // Each cycle is the report's cycle, tables included.
    let native: JsValue = JSON::parse(&native_report(0, None)).unwrap();
    assert_eq!(stringify(&third), stringify(&get(&native, "cycles.2")));
    let fourth = sim.step();
    assert_eq!(string(&fourth, "pod").as_deref(), Some("default/backfill"));
    assert!(sim.step().is_null());
    assert!(sim.step().is_null());
    assert!(sim.finished());
    assert_eq!(sim.cycles_run(), 4);
}

#[wasm_bindgen_test]
fn run_returns_why_it_stopped() {
    let mut sim = load(0);
    let stop = sim.run(options(r#"{"maxCycles": 1}"#)).unwrap();
    assert_eq!(stop.js_value().as_string().as_deref(), Some("MaxCycles"));
    assert_eq!(sim.cycles_run(), 1);
    let stop = sim.run(options(r#"{"until": 10}"#)).unwrap();
    assert_eq!(stop.js_value().as_string().as_deref(), Some("Until"));
    assert_eq!(sim.cycles_run(), 2);
    let stop = sim.run(None).unwrap();
    assert_eq!(stop.js_value().as_string().as_deref(), Some("Quiescent"));
    assert_eq!(sim.time(), 30.0);
    assert!(sim.run(options(r#"{"maxCycles": 1.5}"#)).is_err());
}

#[wasm_bindgen_test]
fn run_refuses_what_the_cli_refuses_naming_the_option() {
    // `--until -1`, `--until 1e300` and `--max-cycles 1.5` are refused by the CLI; run()
    // refuses the same values with a RangeError, and a value of the wrong type with a
    // TypeError, each naming its option. Nothing runs.
    let mut sim = load(0);
    let mut error = |json: &str| {
        let e = sim.run(options(json)).expect_err(json);
        let kind = if e.is_instance_of::<js_sys::RangeError>() {
            "RangeError"
        } else if e.is_instance_of::<js_sys::TypeError>() {
            "TypeError"
        } else {
            "other"
        };
        let message = js_sys::Reflect::get(&e, &"message".into())
            .ok()
            .and_then(|m| m.as_string())
            .unwrap_or_default();
        (kind, message)
    };
    let (kind, message) = error(r#"{"until": -1}"#);
    assert_eq!(kind, "RangeError");
    assert_eq!(
        message,
        "run(options): until: invalid duration -1.0: must not be negative"
    );
    let (kind, message) = error(r#"{"until": 1e300}"#);
    assert_eq!(kind, "RangeError");
    assert!(
        message.starts_with("run(options): until: duration "),
        "{message}"
    );
    let (kind, message) = error(r#"{"until": "10"}"#);
    assert_eq!(kind, "TypeError");
    assert_eq!(
        message,
        "run(options): until: expected seconds, as a number"
    );
    let (kind, message) = error(r#"{"maxCycles": -2}"#);
    assert_eq!(kind, "RangeError");
    assert!(
        message.starts_with("run(options): maxCycles: expected a whole number"),
        "{message}"
    );
    let (kind, _) = error(r#"{"maxCycles": "3"}"#);
    assert_eq!(kind, "TypeError");
    // NaN and Infinity, which JSON cannot spell.
    for value in [f64::NAN, f64::INFINITY] {
        let o = js_sys::Object::new();
        js_sys::Reflect::set(&o, &"until".into(), &value.into()).unwrap();
        let e = sim.run(Some(o.into())).expect_err("refused");
        assert!(e.is_instance_of::<js_sys::RangeError>(), "{value}");
    }
    assert_eq!(sim.cycles_run(), 0);
}

#[wasm_bindgen_test]
fn report_is_the_native_json_report() {
    for seed in [0, 7] {
        let mut sim = load(seed);
        sim.run(None).unwrap();
        assert_eq!(stringify(&sim.report().into()), native_report(seed, None));
    }
    // The history so far: after two steps, what `--max-cycles 2` reports.
    let mut sim = load(0);
    sim.step();
    sim.step();
    assert_eq!(stringify(&sim.report().into()), native_report(0, Some(2)));
    // A seed above 2^53 as a bigint.
    let big = JSON::parse("{}").unwrap();
    Reflect::set(&big, &"seed".into(), &js_sys::BigInt::from(u64::MAX).into()).unwrap();
    let mut sim = Simulator::from_files(as_array(&FILES), Some(big)).unwrap();
    sim.run(None).unwrap();
    assert_eq!(
        stringify(&sim.report().into()),
        native_report(u64::MAX, None)
    );
}

#[wasm_bindgen_test]
fn explain_says_what_schedlab_explain_says() {
    let mut sim = load(0);
    sim.run(None).unwrap();
    let checkout: JsValue = sim.explain("checkout").unwrap().into();
    assert_eq!(
        string(&checkout, "pod").as_deref(),
        Some("default/checkout")
    );
    assert_eq!(get(&checkout, "cycle").as_f64(), Some(2.0));
    assert_eq!(string(&checkout, "outcome").as_deref(), Some("Scheduled"));
    let text = string(&checkout, "text").unwrap();
    assert!(
        text.starts_with("default/checkout was scheduled to node-b"),
        "{text}"
    );
    let backfill: JsValue = sim.explain("default/backfill").unwrap().into();
    assert_eq!(get(&backfill, "cycle").as_f64(), Some(3.0));
    assert_eq!(
        string(&backfill, "summary"),
        Some(format!("default/backfill is Pending: {BACKFILL}"))
    );
    assert_eq!(get(&backfill, "nodes.length").as_f64(), Some(2.0));
    assert!(string(&backfill, "nodes.0.reasons.0")
        .unwrap()
        .contains("cpu"));
    // A pod bound in the input had no cycle.
    let reports: JsValue = sim.explain("reports-0").unwrap().into();
    assert!(get(&reports, "cycle").is_null());
    let err = sim.explain("nobody").expect_err("an unknown pod");
    assert!(err.is_instance_of::<js_sys::Error>());
    assert_eq!(
        err.unchecked_ref::<js_sys::Error>().message(),
        "no pod \"nobody\" in the inputs"
    );
    assert_eq!(get(&err, "errors.length").as_f64(), Some(0.0));
}

#[wasm_bindgen_test]
fn queue_lists_the_sub_queues() {
    let mut sim = load(0);
    // Before any cycle: both pending pods in activeQ, the critical one first.
    let q: JsValue = sim.queue().into();
    assert_eq!(
        string(&q, "activeQ.0.pod").as_deref(),
        Some("default/checkout")
    );
    assert_eq!(string(&q, "activeQ.0.queue").as_deref(), Some("activeQ"));
    assert_eq!(get(&q, "activeQ.0.priority").as_f64(), Some(1_000_000.0));
    assert_eq!(
        string(&q, "activeQ.1.pod").as_deref(),
        Some("default/backfill")
    );
    assert_eq!(get(&q, "podBackoffQ.length").as_f64(), Some(0.0));
    assert_eq!(get(&q, "unschedulableQ.length").as_f64(), Some(0.0));
    assert_eq!(get(&q, "time").as_f64(), Some(0.0));
    // After checkout's failed cycle it waits, nominated to node-b; backfill is next.
    sim.step();
    let q: JsValue = sim.queue().into();
    assert_eq!(get(&q, "activeQ.length").as_f64(), Some(1.0));
    assert_eq!(
        string(&q, "activeQ.0.pod").as_deref(),
        Some("default/backfill")
    );
    let waiting = [get(&q, "podBackoffQ"), get(&q, "unschedulableQ")]
        .iter()
        .flat_map(|l| l.unchecked_ref::<Array>().iter().collect::<Vec<_>>())
        .find(|p| string(p, "pod").as_deref() == Some("default/checkout"))
        .expect("checkout waits");
    assert_eq!(string(&waiting, "nominatedNode").as_deref(), Some("node-b"));
    assert_eq!(get(&waiting, "attempts").as_f64(), Some(1.0));
    // The nodes at that moment: reports-0 still on node-b, terminating.
    let nodes: JsValue = sim.nodes();
    assert_eq!(string(&nodes, "1.name").as_deref(), Some("node-b"));
    let on_b = stringify(&get(&nodes, "1.pods"));
    assert!(on_b.contains("default/reports-0"), "{on_b}");
    sim.run(None).unwrap();
    let nodes: JsValue = sim.nodes();
    let on_b = stringify(&get(&nodes, "1.pods"));
    assert!(on_b.contains("default/checkout"), "{on_b}");
    assert!(!on_b.contains("default/reports-0"), "{on_b}");
}

#[wasm_bindgen_test]
fn a_wasm_guest_plugin_is_enabled_by_name() {
    // NodeNumber (hand-written WAT): its Filter keeps only the node whose name ends in the
    // pod name's last digit, so web-2 goes to node-2; without the guest the configuration
    // names a plugin that does not exist.
    let wat = include_str!("../../schedlab_guest/guests/node_number.wat");
    let bytes = wat::parse_str(wat).expect("assembles");
    let files = [
        (
            "cluster.yaml",
            "apiVersion: v1\nkind: List\nitems:\n\
             - {apiVersion: v1, kind: Node, metadata: {name: node-1}, status: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}}}\n\
             - {apiVersion: v1, kind: Node, metadata: {name: node-2}, status: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}}}\n\
             - {apiVersion: v1, kind: Pod, metadata: {name: web-2}, spec: {containers: [{name: c}]}}\n",
        ),
        (
            "config.yaml",
            "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n\
             - schedulerName: default-scheduler\n  plugins:\n    filter:\n      enabled: [{name: NodeNumber}]\n",
        ),
    ];
    let plugins = Object::new();
    Reflect::set(
        &plugins,
        &"NodeNumber".into(),
        &js_sys::Uint8Array::from(&bytes[..]).into(),
    )
    .unwrap();
    let options = Object::new();
    Reflect::set(&options, &"plugins".into(), &plugins).unwrap();
    let mut sim = Simulator::from_files(as_array(&files), Some(options.into()))
        .unwrap_or_else(|e| panic!("loads: {}", stringify(&e)));
    let cycle = sim.step();
    assert_eq!(string(&cycle, "node").as_deref(), Some("node-2"));
    let without = Simulator::from_files(as_array(&files), None);
    let Err(e) = without else {
        panic!("NodeNumber is not registered without the guest");
    };
    assert!(
        stringify(&e).contains("does not exist"),
        "{}",
        stringify(&e)
    );
    // Not bytes: an error naming the option.
    let bad = Object::new();
    Reflect::set(&bad, &"NodeNumber".into(), &"x".into()).unwrap();
    let options = Object::new();
    Reflect::set(&options, &"plugins".into(), &bad).unwrap();
    let Err(e) = Simulator::from_files(as_array(&files), Some(options.into())) else {
        panic!("refused");
    };
    assert!(
        stringify(&e).contains("plugins.NodeNumber"),
        "{}",
        stringify(&e)
    );
}

/// Two nodes, pods `pod-2` and `pod-1`, and a v1 configuration whose `plugins` block is
/// `plugins` (indented under the profile).
fn plugin_files(plugins: &str) -> [(&'static str, String); 2] {
    [
        (
            "cluster.yaml",
            "apiVersion: v1\nkind: List\nitems:\n\
             - {apiVersion: v1, kind: Node, metadata: {name: node-1}, status: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}}}\n\
             - {apiVersion: v1, kind: Node, metadata: {name: node-2}, status: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}}}\n\
             - {apiVersion: v1, kind: Pod, metadata: {name: pod-2}, spec: {containers: [{name: c}]}}\n\
             - {apiVersion: v1, kind: Pod, metadata: {name: pod-1}, spec: {containers: [{name: c}]}}\n"
                .to_string(),
        ),
        (
            "config.yaml",
            format!(
                "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n\
                 - schedulerName: default-scheduler\n{plugins}"
            ),
        ),
    ]
}

/// `Simulator.fromFiles` with `{plugins: {name: value}}`.
fn with_plugin(
    files: &[(&str, String)],
    name: &str,
    value: &JsValue,
) -> Result<Simulator, JsValue> {
    let files: Vec<(&str, &str)> = files.iter().map(|(n, t)| (*n, t.as_str())).collect();
    let plugins = Object::new();
    Reflect::set(&plugins, &name.into(), value).unwrap();
    let options = Object::new();
    Reflect::set(&options, &"plugins".into(), &plugins).unwrap();
    Simulator::from_files(as_array(&files), Some(options.into()))
}

/// A JavaScript value from source text.
fn js_value(source: &str) -> JsValue {
    js_sys::Function::new_no_args(&format!("return ({source});"))
        .call0(&JsValue::UNDEFINED)
        .unwrap()
}

const SCORE_ONLY: &str = "  plugins:\n    score:\n      disabled: [{name: \"*\"}]\n      enabled: [{name: NodeNumber, weight: 3}]\n";

#[wasm_bindgen_test]
fn a_javascript_score_plugin_scores_as_the_wasm_guest_with_the_same_logic() {
    // NodeNumber's rule in JavaScript: 10 when the node name's last digit is the pod name's,
    // else 0. pod-2: node-2 10 x weight 3 = 30, node-1 0; pod-1 then goes to node-1 (30).
    let js = js_value(
        "{score(pod, node) { const d = (s) => s.slice(-1); \
         return d(pod.metadata.name) === d(node.metadata.name) ? 10 : 0; }}",
    );
    let mut sim = with_plugin(&plugin_files(SCORE_ONLY), "NodeNumber", &js)
        .unwrap_or_else(|e| panic!("loads: {}", stringify(&e)));
    sim.run(None).unwrap();
    let report: JsValue = sim.report().into();
    assert_eq!(string(&report, "cycles.0.node").as_deref(), Some("node-2"));
    assert_eq!(
        stringify(&get(&report, "cycles.0.totals")),
        r#"{"node-1":0,"node-2":30}"#
    );
    assert_eq!(string(&report, "cycles.1.node").as_deref(), Some("node-1"));
    // The WAT guest, whose PreScore reads the pod's digit, enabled at preScore too: the
    // same totals.
    let wat = include_str!("../../schedlab_guest/guests/node_number.wat");
    let bytes: JsValue = js_sys::Uint8Array::from(&wat::parse_str(wat).unwrap()[..]).into();
    let with_prescore = format!(
        "  plugins:\n    preScore:\n      enabled: [{{name: NodeNumber}}]\n{}",
        &SCORE_ONLY[11..]
    );
    let mut guest = with_plugin(&plugin_files(&with_prescore), "NodeNumber", &bytes)
        .unwrap_or_else(|e| panic!("loads: {}", stringify(&e)));
    guest.run(None).unwrap();
    let guest_report: JsValue = guest.report().into();
    for path in ["cycles.0.totals", "cycles.1.totals"] {
        assert_eq!(
            stringify(&get(&guest_report, path)),
            stringify(&get(&report, path)),
            "{path}"
        );
    }
}

#[wasm_bindgen_test]
fn a_javascript_filter_plugin_and_a_factory_with_args() {
    // filter: a string is an Unschedulable reason. pod-2 fits node-2 only.
    let js = js_value(
        "{filter(pod, node) { return pod.metadata.name.slice(-1) === node.metadata.name.slice(-1) \
         ? undefined : 'digit ' + node.metadata.name.slice(-1); }}",
    );
    let filter = "  plugins:\n    filter:\n      enabled: [{name: Digits}]\n";
    let mut sim = with_plugin(&plugin_files(filter), "Digits", &js).unwrap();
    sim.run(None).unwrap();
    let report: JsValue = sim.report().into();
    assert_eq!(string(&report, "cycles.0.node").as_deref(), Some("node-2"));
    assert_eq!(
        string(&report, "cycles.0.filter.node-1.Digits.0").as_deref(),
        Some("digit 1")
    );
    // A factory gets the pluginConfig args: every node scores `bonus` (7) x weight 2 = 14.
    let factory = js_value("(args) => ({score() { return args ? args.bonus : 0; }})");
    let config = "  plugins:\n    score:\n      disabled: [{name: \"*\"}]\n      enabled: [{name: Bonus, weight: 2}]\n  pluginConfig:\n  - {name: Bonus, args: {bonus: 7}}\n";
    let mut sim = with_plugin(&plugin_files(config), "Bonus", &factory).unwrap();
    sim.run(None).unwrap();
    let report: JsValue = sim.report().into();
    assert_eq!(
        stringify(&get(&report, "cycles.0.totals")),
        r#"{"node-1":14,"node-2":14}"#
    );
}

#[wasm_bindgen_test]
fn a_javascript_plugin_that_throws_is_an_error_naming_it() {
    let js = js_value("{score() { throw new Error('boom'); }}");
    let config = SCORE_ONLY.replace("NodeNumber", "Thrower");
    let mut sim = with_plugin(&plugin_files(&config), "Thrower", &js).unwrap();
    sim.run(None).unwrap();
    let report: JsValue = sim.report().into();
    assert_eq!(
        string(&report, "cycles.0.outcome").as_deref(),
        Some("Error")
    );
    let message = string(&report, "cycles.0.message").unwrap_or_default();
    assert!(message.contains("Thrower: score threw: boom"), "{message}");
    // Neither filter nor score: refused, naming the option.
    let Err(e) = with_plugin(&plugin_files(SCORE_ONLY), "NodeNumber", &js_value("{}")) else {
        panic!("refused");
    };
    assert!(
        stringify(&e).contains("plugins.NodeNumber"),
        "{}",
        stringify(&e)
    );
}

/// One pod on two equal nodes whose every binding fails: it is retried for as long as the run
/// goes on, so a run stops only at a bound.
const FAILING_BINDINGS: &str = "apiVersion: v1\nkind: Node\nmetadata: {name: a}\nstatus: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: b}\nstatus: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec: {containers: [{name: c}]}\n---\napiVersion: schedlab.dev/v1alpha1\nkind: Timeline\nspec: {bindFailurePercent: 100}\n";

#[wasm_bindgen_test]
fn a_default_bound_warning_names_the_run_option_not_the_cli_flag() {
    // The CLI says "pass --until" / "pass --max-cycles"; a JavaScript caller sets run()'s
    // `until` and `maxCycles` options instead.
    let mut sim = Simulator::from_files(as_array(&[("s.yaml", FAILING_BINDINGS)]), None).unwrap();
    let stop = sim.run(None).unwrap();
    assert_eq!(stop.js_value().as_string().as_deref(), Some("Until"));
    let report: JsValue = sim.report().into();
    assert_eq!(
        string(&report, "end.warning").as_deref(),
        Some(
            "the run stopped at schedlab's default bound of 24h of virtual time, with more \
             still to happen (pods being retried, bindings or timeline changes later); pass \
             the `until` option to go further"
        )
    );
    // A year asked for: the 200 000-cycle bound stops it first (a retry every 90 s makes
    // about 350 000 in a year).
    let mut sim = Simulator::from_files(as_array(&[("s.yaml", FAILING_BINDINGS)]), None).unwrap();
    let stop = sim.run(options(r#"{"until": 31536000}"#)).unwrap();
    assert_eq!(stop.js_value().as_string().as_deref(), Some("MaxCycles"));
    let report: JsValue = sim.report().into();
    assert_eq!(
        string(&report, "end.warning").as_deref(),
        Some(
            "the run stopped at schedlab's default bound of 200000 scheduling cycles, with \
             more still to happen; pass the `maxCycles` option to go further"
        )
    );
}

#[wasm_bindgen_test]
fn a_scheduler_message_names_the_scheduler_option_not_the_cli_flag() {
    // The CLI says "but --scheduler v1.17 was given".
    let err = Simulator::from_files(as_object(&FILES), options(r#"{"scheduler": "v1.17"}"#))
        .err()
        .expect("a v1 configuration under v1.17 is an error");
    assert_eq!(
        string(&err, "errors.0.message").as_deref(),
        Some(
            "a kubescheduler.config.k8s.io/v1 configuration is for kube-scheduler v1.35, but \
             the `scheduler` option \"v1.17\" was given"
        )
    );
    // A legacy Policy under the `scheduler` option "v1.35".
    let policy = "apiVersion: v1\nkind: Policy\npredicates: [{name: PodFitsResources}]\n";
    let err = Simulator::from_files(
        as_array(&[("policy.yaml", policy)]),
        options(r#"{"scheduler": "v1.35"}"#),
    )
    .err()
    .expect("a Policy under v1.35 is an error");
    assert_eq!(
        string(&err, "errors.0.message").as_deref(),
        Some(
            "a legacy Policy (kube-scheduler v1.17) cannot be mixed with kube-scheduler v1.35 \
             (the `scheduler` option \"v1.35\"); `schedlab translate policy.yaml` prints the v1 \
             configuration a Policy becomes"
        )
    );
}
