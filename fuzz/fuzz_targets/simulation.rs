//! A whole simulation of a small structured scenario, under both schedulers (v1.17 and v1.35),
//! stepped one step at a time with the invariants checked after every step:
//!
//! - no over-commit: on every node, the requests of the pods on it (bound or assumed), summed
//!   from the generated containers, stay within allocatable cpu, memory and pods, and equal the
//!   cache's own `requested` and pod count;
//! - every binding passes, at the time, what this target can check on its own: resources, pod
//!   count, `nodeSelector`, required node affinity, NoSchedule/NoExecute taints, the cordon,
//!   host ports and required pod anti-affinity on `kubernetes.io/hostname` (both directions);
//! - every preemption victim (of every candidate) has a lower priority than its preemptor;
//! - determinism: the stepped run's report equals `Scenario::run_with`'s, run twice.
//!
//! The scenario is built from `arbitrary` data (a few nodes and pods, an optional
//! PriorityClass and PodDisruptionBudget), written as one JSON `List` and read through
//! `Scenario::load_with`, as a user's file would be. Pods bound in the input are only placed
//! where they fit, so over-commit can only come from the scheduler.

#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use schedlab_core::model::Millis;
use schedlab_core::report::json_report;
use schedlab_core::scenario::SchedulerVersion;
use schedlab_core::simulation::{Cluster, NodeId};
use schedlab_core::simulation::{Limits, Simulation, StepKind, StopReason};
use schedlab_core::trace::Outcome;
use schedlab_core::{Scenario, Source};
use serde_json::{json, Map, Value};

const MAX_NODES: usize = 5;
const MAX_PODS: usize = 10;
const LIMITS: Limits = Limits {
    until: Some(Millis(3_600_000)),
    max_cycles: Some(500),
};
const HOSTNAME: &str = "kubernetes.io/hostname";
const ZONE: &str = "topology.kubernetes.io/zone";
const UNSCHEDULABLE: &str = "node.kubernetes.io/unschedulable";

/// (key, value, effect)
const TAINTS: [(&str, &str, &str); 4] = [
    ("dedicated", "db", "NoSchedule"),
    ("gpu", "", "NoExecute"),
    ("spot", "yes", "PreferNoSchedule"),
    ("dedicated", "db", "NoExecute"),
];

/// (key, operator, value, effect)
const TOLERATIONS: [(&str, &str, &str, &str); 5] = [
    ("dedicated", "Equal", "db", "NoSchedule"),
    ("gpu", "Exists", "", ""),
    ("", "Exists", "", ""),
    (UNSCHEDULABLE, "Exists", "", "NoSchedule"),
    ("dedicated", "Equal", "web", ""),
];

const APPS: [&str; 3] = ["web", "db", "batch"];
const VALUES: [&str; 4] = ["a", "b", "n0", "n1"];
const OPERATORS: [&str; 4] = ["In", "NotIn", "Exists", "DoesNotExist"];
const KEYS: [&str; 3] = ["tier", ZONE, HOSTNAME];

#[derive(Arbitrary, Debug)]
struct Input {
    seed: u8,
    nodes: Vec<GenNode>,
    pods: Vec<GenPod>,
    class: Option<GenClass>,
    pdb: Option<GenPdb>,
}

#[derive(Arbitrary, Debug)]
struct GenNode {
    milli_cpu: u16,
    memory_mi: u16,
    pods: u8,
    zone: u8,
    tier: u8,
    taints: Vec<u8>,
    unschedulable: bool,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
struct GenContainer {
    milli_cpu: u16,
    memory_mi: u16,
}

#[derive(Arbitrary, Debug)]
enum GenPriority {
    Unset,
    Value(i8),
    Class,
    MissingClass,
}

#[derive(Arbitrary, Debug)]
struct GenExpr {
    key: u8,
    operator: u8,
    values: u8,
}

#[derive(Arbitrary, Debug)]
struct GenPod {
    app: u8,
    containers: Vec<GenContainer>,
    init: Option<GenContainer>,
    host_port: Option<bool>,
    priority: GenPriority,
    never_preempt: bool,
    grace_seconds: Option<u8>,
    selector: u8,
    tolerations: Vec<u8>,
    /// Required node affinity: terms (ORed) of expressions (ANDed).
    node_affinity: Vec<Vec<GenExpr>>,
    preferred_zone: Option<u8>,
    /// Required anti-affinity on the hostname against this app.
    anti_affinity: Option<u8>,
    preferred_affinity: Option<u8>,
    spread: Option<(u8, bool)>,
    bound_to: Option<u8>,
}

#[derive(Arbitrary, Debug)]
struct GenClass {
    value: i8,
    global_default: bool,
    never: bool,
}

#[derive(Arbitrary, Debug)]
struct GenPdb {
    app: u8,
    disruptions_allowed: u8,
}

/// A node as generated, with what the checks need.
struct NodeSpec {
    name: String,
    labels: Map<String, Value>,
    milli_cpu: i64,
    memory: i64,
    pods: i64,
    taints: Vec<usize>,
    unschedulable: bool,
}

/// A pod as generated, with what the checks need.
struct PodSpec {
    app: &'static str,
    /// What the pod needs to fit: its containers summed, then the max with its init container.
    need: (i64, i64),
    /// What it counts on its node once there: v1.17's cache sums only the containers
    /// (upstream's `calculateResource`), v1.35's counts what it needs.
    counts: (i64, i64),
    host_port: Option<u16>,
    selector: Option<(&'static str, &'static str)>,
    tolerations: Vec<usize>,
    /// (key, operator, values) per term.
    node_affinity: Vec<Vec<(&'static str, &'static str, Vec<&'static str>)>>,
    anti_affinity: Option<&'static str>,
    bound_to: Option<usize>,
}

fn pick<T: Copy>(list: &[T], i: u8) -> T {
    list[usize::from(i) % list.len()]
}

fn mi(v: i64) -> i64 {
    v * 1024 * 1024
}

fn nodes_of(input: &Input) -> Vec<NodeSpec> {
    let mut nodes: Vec<NodeSpec> = input
        .nodes
        .iter()
        .take(MAX_NODES)
        .enumerate()
        .map(|(i, n)| {
            let name = format!("n{i}");
            let mut labels = Map::new();
            labels.insert(HOSTNAME.into(), json!(name));
            if n.zone % 3 != 0 {
                labels.insert(ZONE.into(), json!(pick(&["a", "b"], n.zone)));
            }
            if n.tier % 3 != 0 {
                labels.insert("tier".into(), json!(pick(&["a", "b"], n.tier)));
            }
            let mut taints: Vec<usize> = n
                .taints
                .iter()
                .take(2)
                .map(|&t| usize::from(t) % TAINTS.len())
                .collect();
            taints.sort_unstable();
            taints.dedup();
            NodeSpec {
                name,
                labels,
                milli_cpu: i64::from(n.milli_cpu % 8001),
                memory: mi(i64::from(n.memory_mi % 16385)),
                pods: i64::from(n.pods % 12),
                taints,
                unschedulable: n.unschedulable,
            }
        })
        .collect();
    if nodes.is_empty() {
        nodes.push(NodeSpec {
            name: "n0".into(),
            labels: Map::from_iter([(HOSTNAME.to_string(), json!("n0"))]),
            milli_cpu: 1000,
            memory: mi(1024),
            pods: 4,
            taints: Vec::new(),
            unschedulable: false,
        });
    }
    nodes
}

/// The pod's containers summed, and the max of that with its init container.
fn requests(p: &GenPod) -> ((i64, i64), (i64, i64)) {
    let containers = p.containers.iter().take(2);
    let cpu: i64 = containers
        .clone()
        .map(|c| i64::from(c.milli_cpu % 3001))
        .sum();
    let mem: i64 = containers.map(|c| mi(i64::from(c.memory_mi % 4097))).sum();
    let need = match p.init {
        Some(init) => (
            cpu.max(i64::from(init.milli_cpu % 3001)),
            mem.max(mi(i64::from(init.memory_mi % 4097))),
        ),
        None => (cpu, mem),
    };
    ((cpu, mem), need)
}

fn pod_spec(
    p: &GenPod,
    version: SchedulerVersion,
    nodes: &[NodeSpec],
    used: &mut [(i64, i64, i64)],
) -> PodSpec {
    let (containers, need) = requests(p);
    let counts = match version {
        SchedulerVersion::V1_17 => containers,
        SchedulerVersion::V1_35 => need,
    };
    let (milli_cpu, memory) = need;
    // Bound in the input only where it fits: over-commit must come from the scheduler.
    let bound_to = p
        .bound_to
        .map(|b| usize::from(b) % nodes.len())
        .filter(|&n| {
            let (c, m, k) = used[n];
            let node = &nodes[n];
            c + milli_cpu <= node.milli_cpu && m + memory <= node.memory && k < node.pods
        });
    if let Some(n) = bound_to {
        used[n].0 += counts.0;
        used[n].1 += counts.1;
        used[n].2 += 1;
    }
    let selector = match p.selector % 5 {
        0 | 1 => None,
        2 => Some(("tier", "a")),
        3 => Some(("tier", "b")),
        _ => Some((ZONE, "a")),
    };
    let mut tolerations: Vec<usize> = p
        .tolerations
        .iter()
        .take(2)
        .map(|&t| usize::from(t) % TOLERATIONS.len())
        .collect();
    tolerations.sort_unstable();
    tolerations.dedup();
    let node_affinity = p
        .node_affinity
        .iter()
        .take(2)
        .map(|term| {
            term.iter()
                .take(2)
                .map(|e| {
                    let op = pick(&OPERATORS, e.operator);
                    let values = match op {
                        "In" | "NotIn" => {
                            let first = pick(&VALUES, e.values);
                            let second = pick(&VALUES, e.values / 4);
                            let mut v = vec![first];
                            if second != first {
                                v.push(second);
                            }
                            v
                        }
                        _ => Vec::new(),
                    };
                    (pick(&KEYS, e.key), op, values)
                })
                .collect::<Vec<_>>()
        })
        .filter(|term: &Vec<_>| !term.is_empty())
        .collect();
    PodSpec {
        app: pick(&APPS, p.app),
        need,
        counts,
        host_port: p.host_port.map(|b| if b { 80 } else { 81 }),
        selector,
        tolerations,
        node_affinity,
        anti_affinity: p.anti_affinity.map(|a| pick(&APPS, a)),
        bound_to,
    }
}

fn quantity(c: &GenContainer) -> Value {
    json!({"cpu": format!("{}m", c.milli_cpu % 3001), "memory": format!("{}Mi", c.memory_mi % 4097)})
}

fn pod_json(i: usize, p: &GenPod, s: &PodSpec, nodes: &[NodeSpec]) -> Value {
    let mut containers: Vec<Value> = p
        .containers
        .iter()
        .take(2)
        .enumerate()
        .map(|(j, c)| json!({"name": format!("c{j}"), "resources": {"requests": quantity(c)}}))
        .collect();
    if containers.is_empty() {
        containers.push(json!({"name": "c0"}));
    }
    if let Some(port) = s.host_port {
        containers[0]["ports"] = json!([{"containerPort": 8080, "hostPort": port}]);
    }
    let mut spec = json!({"containers": containers});
    if let Some(init) = &p.init {
        spec["initContainers"] =
            json!([{"name": "init", "resources": {"requests": quantity(init)}}]);
    }
    match p.priority {
        GenPriority::Unset => {}
        GenPriority::Value(v) => spec["priority"] = json!(i32::from(v) * 10),
        GenPriority::Class => spec["priorityClassName"] = json!("fuzz"),
        GenPriority::MissingClass => spec["priorityClassName"] = json!("missing"),
    }
    if p.never_preempt {
        spec["preemptionPolicy"] = json!("Never");
    }
    if let Some(g) = p.grace_seconds {
        spec["terminationGracePeriodSeconds"] = json!(g % 61);
    }
    if let Some((k, v)) = s.selector {
        spec["nodeSelector"] = json!({k: v});
    }
    let tolerations: Vec<Value> = s
        .tolerations
        .iter()
        .map(|&t| {
            let (key, operator, value, effect) = TOLERATIONS[t];
            json!({"key": key, "operator": operator, "value": value, "effect": effect})
        })
        .collect();
    spec["tolerations"] = json!(tolerations);
    let mut affinity = Map::new();
    if !s.node_affinity.is_empty() || p.preferred_zone.is_some() {
        let mut na = Map::new();
        if !s.node_affinity.is_empty() {
            let terms: Vec<Value> = s
                .node_affinity
                .iter()
                .map(|term| {
                    let exprs: Vec<Value> = term
                        .iter()
                        .map(|(k, op, values)| json!({"key": k, "operator": op, "values": values}))
                        .collect();
                    json!({"matchExpressions": exprs})
                })
                .collect();
            na.insert(
                "requiredDuringSchedulingIgnoredDuringExecution".into(),
                json!({"nodeSelectorTerms": terms}),
            );
        }
        if let Some(z) = p.preferred_zone {
            na.insert(
                "preferredDuringSchedulingIgnoredDuringExecution".into(),
                json!([{"weight": i64::from(z % 100) + 1, "preference": {"matchExpressions": [
                    {"key": ZONE, "operator": "In", "values": [pick(&["a", "b"], z)]}]}}]),
            );
        }
        affinity.insert("nodeAffinity".into(), Value::Object(na));
    }
    if let Some(app) = s.anti_affinity {
        affinity.insert(
            "podAntiAffinity".into(),
            json!({"requiredDuringSchedulingIgnoredDuringExecution": [
                {"labelSelector": {"matchLabels": {"app": app}}, "topologyKey": HOSTNAME}]}),
        );
    }
    if let Some(a) = p.preferred_affinity {
        affinity.insert(
            "podAffinity".into(),
            json!({"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": i64::from(a % 100) + 1,
                "podAffinityTerm": {"labelSelector": {"matchLabels": {"app": pick(&APPS, a)}},
                    "topologyKey": ZONE}}]}),
        );
    }
    if !affinity.is_empty() {
        spec["affinity"] = Value::Object(affinity);
    }
    if let Some((skew, hard)) = p.spread {
        spec["topologySpreadConstraints"] = json!([{"maxSkew": i64::from(skew % 3) + 1,
            "topologyKey": ZONE,
            "whenUnsatisfiable": if hard { "DoNotSchedule" } else { "ScheduleAnyway" },
            "labelSelector": {"matchLabels": {"app": s.app}}}]);
    }
    if let Some(n) = s.bound_to {
        spec["nodeName"] = json!(nodes[n].name);
    }
    json!({"kind": "Pod", "apiVersion": "v1",
        "metadata": {"name": format!("p{i}"), "labels": {"app": s.app}}, "spec": spec})
}

fn scenario_json(input: &Input, nodes: &[NodeSpec], pods: &[PodSpec]) -> String {
    let mut items: Vec<Value> = nodes
        .iter()
        .map(|n| {
            let taints: Vec<Value> = n
                .taints
                .iter()
                .map(|&t| json!({"key": TAINTS[t].0, "value": TAINTS[t].1, "effect": TAINTS[t].2}))
                .collect();
            json!({"kind": "Node", "apiVersion": "v1",
                "metadata": {"name": n.name, "labels": n.labels},
                "spec": {"taints": taints, "unschedulable": n.unschedulable},
                "status": {"allocatable": {"cpu": format!("{}m", n.milli_cpu),
                    "memory": format!("{}Mi", n.memory / mi(1)), "pods": n.pods.to_string()}}})
        })
        .collect();
    for (i, (p, s)) in input.pods.iter().zip(pods).enumerate() {
        items.push(pod_json(i, p, s, nodes));
    }
    if let Some(c) = &input.class {
        items.push(
            json!({"kind": "PriorityClass", "apiVersion": "scheduling.k8s.io/v1",
            "metadata": {"name": "fuzz"}, "value": i32::from(c.value) * 10,
            "globalDefault": c.global_default,
            "preemptionPolicy": if c.never { "Never" } else { "PreemptLowerPriority" }}),
        );
    }
    if let Some(b) = &input.pdb {
        items.push(
            json!({"kind": "PodDisruptionBudget", "apiVersion": "policy/v1",
            "metadata": {"name": "budget"},
            "spec": {"selector": {"matchLabels": {"app": pick(&APPS, b.app)}}},
            "status": {"disruptionsAllowed": b.disruptions_allowed % 3}}),
        );
    }
    json!({"kind": "List", "apiVersion": "v1", "items": items}).to_string()
}

/// `Toleration.ToleratesTaint`, written on its own.
fn tolerates(tol: usize, key: &str, value: &str, effect: &str) -> bool {
    let (k, op, v, e) = TOLERATIONS[tol];
    (e.is_empty() || e == effect)
        && (k.is_empty() || k == key)
        && match op {
            "Exists" => true,
            _ => v == value,
        }
}

fn affinity_matches(pod: &PodSpec, node: &NodeSpec) -> bool {
    if pod.node_affinity.is_empty() {
        return true;
    }
    pod.node_affinity.iter().any(|term| {
        term.iter().all(|(key, op, values)| {
            let have = node.labels.get(*key).and_then(Value::as_str);
            match *op {
                "In" => have.is_some_and(|h| values.contains(&h)),
                "NotIn" => have.is_none_or(|h| !values.contains(&h)),
                "Exists" => have.is_some(),
                _ => have.is_none(),
            }
        })
    })
}

/// Why pod `p` may not be put on node `n` next to `others` (the pods already there), as far
/// as this target checks; `None` when it may.
fn refusal(
    p: usize,
    n: usize,
    others: &[usize],
    nodes: &[NodeSpec],
    pods: &[PodSpec],
) -> Option<String> {
    let pod = &pods[p];
    let node = &nodes[n];
    let cpu: i64 = others.iter().map(|&o| pods[o].counts.0).sum();
    let mem: i64 = others.iter().map(|&o| pods[o].counts.1).sum();
    let (milli_cpu, memory) = pod.need;
    if others.len() as i64 + 1 > node.pods {
        return Some(format!(
            "too many pods: {} already, {} allowed",
            others.len(),
            node.pods
        ));
    }
    if (milli_cpu > 0 || memory > 0)
        && (cpu + milli_cpu > node.milli_cpu || mem + memory > node.memory)
    {
        return Some(format!(
            "no room: {cpu}m + {milli_cpu}m of {}m cpu, {mem} + {memory} of {} memory",
            node.milli_cpu, node.memory
        ));
    }
    if let Some((k, v)) = pod.selector {
        if node.labels.get(k).and_then(Value::as_str) != Some(v) {
            return Some(format!("nodeSelector {k}={v}"));
        }
    }
    if !affinity_matches(pod, node) {
        return Some("required node affinity".into());
    }
    for &t in &node.taints {
        let (k, v, e) = TAINTS[t];
        if e != "PreferNoSchedule" && !pod.tolerations.iter().any(|&tol| tolerates(tol, k, v, e)) {
            return Some(format!("untolerated taint {k}={v}:{e}"));
        }
    }
    if node.unschedulable
        && !pod
            .tolerations
            .iter()
            .any(|&tol| tolerates(tol, UNSCHEDULABLE, "", "NoSchedule"))
    {
        return Some("cordoned".into());
    }
    if let Some(port) = pod.host_port {
        if others.iter().any(|&o| pods[o].host_port == Some(port)) {
            return Some(format!("host port {port} in use"));
        }
    }
    if let Some(app) = pod.anti_affinity {
        if others.iter().any(|&o| pods[o].app == app) {
            return Some(format!("anti-affinity against app={app}"));
        }
    }
    if let Some(&o) = others
        .iter()
        .find(|&&o| pods[o].anti_affinity == Some(pod.app))
    {
        return Some(format!("p{o}'s anti-affinity against app={}", pod.app));
    }
    None
}

/// The generated pod index of every cluster pod, and the generated node of every cluster node.
fn indices(c: &Cluster) -> (Vec<usize>, Vec<usize>) {
    let index = |name: &str, prefix: char| -> usize {
        name.strip_prefix(prefix)
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("unexpected name {name}"))
    };
    let pods = c
        .pods()
        .iter()
        .map(|p| index(&p.pod.metadata.name, 'p'))
        .collect();
    let nodes = c.nodes().iter().map(|n| index(n.name(), 'n')).collect();
    (pods, nodes)
}

/// The generated pods on each cluster node.
fn placements(c: &Cluster, pod_index: &[usize]) -> Vec<Vec<usize>> {
    let mut on: Vec<Vec<usize>> = vec![Vec::new(); c.nodes().len()];
    for (id, node) in c.pod_node().iter().enumerate() {
        if let Some(n) = *node {
            on[n].push(pod_index[id]);
        }
    }
    on
}

fn check_accounting(
    c: &Cluster,
    on: &[Vec<usize>],
    node_index: &[usize],
    nodes: &[NodeSpec],
    pods: &[PodSpec],
) {
    for (id, here) in on.iter().enumerate() {
        let node = &nodes[node_index[id]];
        let cpu: i64 = here.iter().map(|&p| pods[p].counts.0).sum();
        let mem: i64 = here.iter().map(|&p| pods[p].counts.1).sum();
        assert!(
            here.len() as i64 <= node.pods && cpu <= node.milli_cpu && mem <= node.memory,
            "{} over-committed: pods {:?} need {cpu}m cpu, {mem} memory; allocatable {}m, {}, {} pods",
            node.name, here, node.milli_cpu, node.memory, node.pods
        );
        let info = &c.nodes()[id];
        assert_eq!(
            info.requested().milli_cpu,
            cpu,
            "{}: the cache's cpu",
            node.name
        );
        assert_eq!(
            info.requested().memory,
            mem,
            "{}: the cache's memory",
            node.name
        );
        assert_eq!(
            info.pods().len(),
            here.len(),
            "{}: the cache's pod count",
            node.name
        );
    }
}

/// Steps the run to its limits, checking the invariants after each step; returns its report.
fn stepped(scenario: &Scenario, seed: u64, nodes: &[NodeSpec], pods: &[PodSpec]) -> Value {
    let mut sim = Simulation::new(scenario, seed, true);
    let (pod_index, node_index) = indices(sim.cluster());
    let stop = loop {
        if LIMITS.max_cycles.is_some_and(|m| sim.cycles_done() >= m) {
            break StopReason::MaxCycles;
        }
        match sim.next_time() {
            None => break StopReason::Quiescent,
            Some(t) if LIMITS.until.is_some_and(|u| t > u) => break StopReason::Until,
            Some(_) => {}
        }
        let before = placements(sim.cluster(), &pod_index);
        let Some(step) = sim.step() else {
            break StopReason::Quiescent;
        };
        let on = placements(sim.cluster(), &pod_index);
        check_accounting(sim.cluster(), &on, &node_index, nodes, pods);
        let StepKind::Cycle { cycle } = sim.steps()[step].kind else {
            continue;
        };
        let trace = &sim.cycles()[cycle];
        let c = sim.cluster();
        if let (Outcome::Scheduled, Some(node)) = (trace.outcome, trace.node) {
            let p = pod_index[trace.pod];
            let others: Vec<usize> = before[node].iter().copied().filter(|&o| o != p).collect();
            if let Some(why) = refusal(p, node_index[node], &others, nodes, pods) {
                panic!("p{p} was put on {}: {why}", nodes[node_index[node]].name);
            }
        }
        if let Some(pre) = &trace.preemption {
            let prio = c.priority(trace.pod);
            for cand in &pre.candidates {
                for &v in &cand.victims {
                    assert!(
                        c.priority(v) < prio,
                        "victim p{} (priority {}) of p{} (priority {prio}) on {}",
                        pod_index[v],
                        c.priority(v),
                        pod_index[trace.pod],
                        node_name(c, cand.node)
                    );
                }
            }
        }
    };
    json_report(&sim.to_run(stop), true)
}

fn node_name(c: &Cluster, id: NodeId) -> &str {
    c.nodes()[id].name()
}

fn check(input: &Input, version: SchedulerVersion) {
    let nodes = nodes_of(input);
    let mut used = vec![(0, 0, 0); nodes.len()];
    let gen_pods: Vec<&GenPod> = input.pods.iter().take(MAX_PODS).collect();
    let pods: Vec<PodSpec> = gen_pods
        .iter()
        .map(|p| pod_spec(p, version, &nodes, &mut used))
        .collect();
    let text = scenario_json(input, &nodes, &pods);
    let sources = [Source {
        name: "fuzz.json",
        text: &text,
    }];
    let scenario = match Scenario::load_with(&sources, Some(version)) {
        Ok(s) => s,
        Err(errors) => panic!("a generated scenario does not load: {errors:#?}\n{text}"),
    };
    let seed = u64::from(input.seed);
    let report = stepped(&scenario, seed, &nodes, &pods);
    let run = || json_report(&scenario.run_with(seed, true, LIMITS), true);
    let first = run();
    assert_eq!(first, run(), "the same input and seed gave two reports");
    assert_eq!(
        report, first,
        "stepping gave another report than a whole run"
    );
}

fuzz_target!(|input: Input| {
    check(&input, SchedulerVersion::V1_17);
    check(&input, SchedulerVersion::V1_35);
});
