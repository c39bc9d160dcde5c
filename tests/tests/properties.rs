//! Property tests: quantity parsing against an independent i128 computation, and scheduling
//! decisions of random small clusters against an independent fit oracle written from
//! filters.md (B.1 resources, B.4 nodeSelector, B.7 taints, B.8 unschedulable).

use proptest::prelude::*;
use schedlab_core::model::Quantity;
use schedlab_tests::{load_ok, report, File};
use serde_json::{json, Value};
use std::collections::BTreeMap;

// ---- quantities ----

/// (suffix, power of ten, power of two).
const SUFFIXES: &[(&str, i32, u32)] = &[
    ("", 0, 0),
    ("n", -9, 0),
    ("u", -6, 0),
    ("m", -3, 0),
    ("k", 3, 0),
    ("M", 6, 0),
    ("G", 9, 0),
    ("T", 12, 0),
    ("P", 15, 0),
    ("E", 18, 0),
    ("Ki", 0, 10),
    ("Mi", 0, 20),
    ("Gi", 0, 30),
    ("Ti", 0, 40),
    ("Pi", 0, 50),
    ("Ei", 0, 60),
];

/// ceil(num / den) for num >= 0, den > 0; `None` when it does not fit an i64.
fn ceil_div(num: i128, den: i128) -> Option<i64> {
    let q = num / den + i128::from(num % den != 0);
    i64::try_from(q).ok()
}

/// The exact value of `<sign><int>.<frac><suffix>` scaled by 10^scale, rounded towards +inf,
/// computed as a fraction num/den in i128.
fn expected(
    negative: bool,
    int: u64,
    frac: &str,
    exp10: i32,
    exp2: u32,
    scale: i32,
) -> Option<i64> {
    let mut num: i128 = i128::from(int);
    let mut den: i128 = 1;
    for d in frac.bytes() {
        num = num * 10 + i128::from(d - b'0');
        den *= 10;
    }
    num <<= exp2;
    let p = exp10 + scale;
    if p >= 0 {
        num *= 10i128.pow(p as u32);
    } else {
        den *= 10i128.pow((-p) as u32);
    }
    if negative && num != 0 {
        // ceil(-x) = -floor(x)
        i64::try_from(-(num / den)).ok()
    } else {
        ceil_div(num, den)
    }
}

fn suffix_strategy() -> impl Strategy<Value = (String, i32, u32)> {
    prop_oneof![
        (0..SUFFIXES.len()).prop_map(|i| {
            let (s, e10, e2) = SUFFIXES[i];
            (s.to_string(), e10, e2)
        }),
        (prop::bool::ANY, -9i32..=9)
            .prop_map(|(upper, e)| { (format!("{}{e}", if upper { "E" } else { "e" }), e, 0) }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn quantity_values_are_exact_and_round_up(
        sign in prop_oneof![Just(""), Just("+"), Just("-")],
        int in 0u64..1_000_000,
        frac in "[0-9]{0,9}",
        (suffix, exp10, exp2) in suffix_strategy(),
    ) {
        let text = if frac.is_empty() {
            format!("{sign}{int}{suffix}")
        } else {
            format!("{sign}{int}.{frac}{suffix}")
        };
        let q = Quantity::parse(&text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        let negative = sign == "-";
        prop_assert_eq!(
            q.milli_value(),
            expected(negative, int, &frac, exp10, exp2, 3),
            "milli of {}", text
        );
        prop_assert_eq!(
            q.value(),
            expected(negative, int, &frac, exp10, exp2, 0),
            "value of {}", text
        );
    }

    #[test]
    fn leading_dot_fractions_parse(frac in "[0-9]{1,9}", i in 0..SUFFIXES.len()) {
        let (suffix, exp10, exp2) = SUFFIXES[i];
        let text = format!(".{frac}{suffix}");
        let q = Quantity::parse(&text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        prop_assert_eq!(q.milli_value(), expected(false, 0, &frac, exp10, exp2, 3));
    }

    #[test]
    fn unknown_suffixes_are_invalid(
        int in 0u64..1_000_000,
        bad in prop_oneof![
            Just("K"), Just("x"), Just("Kb"), Just("mi"), Just("gi"), Just("KiB"), Just("b"),
            Just("e"), Just("e+"), Just("ee1"), Just(" Mi"), Just("m3"), Just(".1.2"),
            Just("0x"), Just("i"), Just("MM"), Just("e12345")
        ],
    ) {
        let text = format!("{int}{bad}");
        prop_assert!(Quantity::parse(&text).is_err(), "{:?} should be invalid", text);
    }

    #[test]
    fn arbitrary_strings_never_panic(s in ".{0,80}") {
        if let Ok(q) = Quantity::parse(&s) {
            let _ = (q.milli_value(), q.value());
        }
    }
}

// ---- random clusters against an independent oracle ----

#[derive(Clone, Debug)]
struct GenNode {
    cpu: i64,
    mem_mi: i64,
    pods: i64,
    gpu: i64,
    tier: Option<&'static str>,
    ssd: bool,
    taints: Vec<usize>,
    unschedulable: bool,
}

#[derive(Clone, Debug)]
struct GenContainer {
    cpu: i64,
    mem_mi: i64,
    gpu: i64,
}

#[derive(Clone, Debug)]
struct GenPod {
    containers: Vec<GenContainer>,
    init: Option<GenContainer>,
    selector: Option<usize>,
    tolerations: Vec<usize>,
}

/// (key, value, effect)
const TAINTS: &[(&str, &str, &str)] = &[
    ("k1", "v1", "NoSchedule"),
    ("k2", "x", "NoExecute"),
    ("k3", "v3", "PreferNoSchedule"),
    ("k1", "v1", "NoExecute"),
];

/// (key, operator, value, effect)
const TOLERATIONS: &[(&str, &str, &str, &str)] = &[
    ("k1", "Equal", "v1", "NoSchedule"),
    ("k2", "Exists", "", ""),
    ("", "Exists", "", ""),
    (
        "node.kubernetes.io/unschedulable",
        "Exists",
        "",
        "NoSchedule",
    ),
    ("k1", "", "wrong", "NoSchedule"),
    ("k1", "Exists", "", "NoExecute"),
];

const SELECTORS: &[&[(&str, &str)]] = &[
    &[("tier", "a")],
    &[("tier", "b")],
    &[("tier", "a"), ("disk", "ssd")],
];

fn container() -> impl Strategy<Value = GenContainer> {
    (
        0i64..=2000,
        0i64..=2048,
        prop_oneof![3 => Just(0i64), 1 => 1i64..=2],
    )
        .prop_map(|(cpu, mem_mi, gpu)| GenContainer { cpu, mem_mi, gpu })
}

fn node() -> impl Strategy<Value = GenNode> {
    (
        (0i64..=4000, 0i64..=8192, 0i64..=6, 0i64..=2),
        prop_oneof![Just(None), Just(Some("a")), Just(Some("b"))],
        prop::bool::ANY,
        prop::collection::btree_set(0..TAINTS.len(), 0..=2),
        prop::bool::weighted(0.15),
    )
        .prop_map(
            |((cpu, mem_mi, pods, gpu), tier, ssd, taints, unschedulable)| GenNode {
                cpu,
                mem_mi,
                pods,
                gpu,
                tier,
                ssd,
                taints: taints.into_iter().collect(),
                unschedulable,
            },
        )
}

fn pod() -> impl Strategy<Value = GenPod> {
    (
        prop::collection::vec(container(), 1..=2),
        prop::option::weighted(0.3, container()),
        prop::option::weighted(0.4, 0..SELECTORS.len()),
        prop::collection::btree_set(0..TOLERATIONS.len(), 0..=2),
    )
        .prop_map(|(containers, init, selector, tolerations)| GenPod {
            containers,
            init,
            selector,
            tolerations: tolerations.into_iter().collect(),
        })
}

fn resources(c: &GenContainer) -> Value {
    let mut r = json!({"cpu": format!("{}m", c.cpu), "memory": format!("{}Mi", c.mem_mi)});
    if c.gpu > 0 {
        r["example.com/gpu"] = json!(c.gpu.to_string());
    }
    json!({"requests": r})
}

fn to_files(nodes: &[GenNode], pods: &[GenPod]) -> Vec<File> {
    let mut items = Vec::new();
    for (i, n) in nodes.iter().enumerate() {
        let mut labels = json!({});
        if let Some(t) = n.tier {
            labels["tier"] = json!(t);
        }
        if n.ssd {
            labels["disk"] = json!("ssd");
        }
        let taints: Vec<Value> = n
            .taints
            .iter()
            .map(|&t| json!({"key": TAINTS[t].0, "value": TAINTS[t].1, "effect": TAINTS[t].2}))
            .collect();
        let mut alloc = json!({"cpu": format!("{}m", n.cpu), "memory": format!("{}Mi", n.mem_mi),
            "pods": n.pods.to_string()});
        if n.gpu > 0 {
            alloc["example.com/gpu"] = json!(n.gpu.to_string());
        }
        items.push(json!({"kind": "Node", "apiVersion": "v1",
            "metadata": {"name": format!("node-{i}"), "labels": labels},
            "spec": {"taints": taints, "unschedulable": n.unschedulable},
            "status": {"allocatable": alloc}}));
    }
    for (i, p) in pods.iter().enumerate() {
        let containers: Vec<Value> = p
            .containers
            .iter()
            .enumerate()
            .map(|(j, c)| json!({"name": format!("c{j}"), "resources": resources(c)}))
            .collect();
        let mut spec = json!({"containers": containers});
        if let Some(c) = &p.init {
            spec["initContainers"] = json!([{"name": "init", "resources": resources(c)}]);
        }
        if let Some(s) = p.selector {
            let m: BTreeMap<&str, &str> = SELECTORS[s].iter().copied().collect();
            spec["nodeSelector"] = json!(m);
        }
        let tolerations: Vec<Value> = p
            .tolerations
            .iter()
            .map(|&t| {
                let (k, op, v, e) = TOLERATIONS[t];
                json!({"key": k, "operator": op, "value": v, "effect": e})
            })
            .collect();
        spec["tolerations"] = json!(tolerations);
        items.push(json!({"kind": "Pod", "apiVersion": "v1",
            "metadata": {"name": format!("pod-{i}")}, "spec": spec}));
    }
    vec![File {
        name: "cluster.json".into(),
        text: json!({"kind": "List", "apiVersion": "v1", "items": items}).to_string(),
    }]
}

/// `Toleration.ToleratesTaint` (filters.md B.7), written independently.
fn tolerates(tol: usize, key: &str, value: &str, effect: &str) -> bool {
    let (k, op, v, e) = TOLERATIONS[tol];
    if !e.is_empty() && e != effect {
        return false;
    }
    if !k.is_empty() && k != key {
        return false;
    }
    match op {
        "" | "Equal" => v == value,
        "Exists" => true,
        _ => false,
    }
}

/// Per node: what the run has put there so far (containers only, filters.md B.1 caveat).
#[derive(Clone, Default)]
struct Used {
    cpu: i64,
    mem_mi: i64,
    gpu: i64,
    pods: i64,
}

/// The incoming pod's request: containers summed, then max with each init container.
fn request(p: &GenPod) -> GenContainer {
    let mut r = GenContainer {
        cpu: 0,
        mem_mi: 0,
        gpu: 0,
    };
    for c in &p.containers {
        r.cpu += c.cpu;
        r.mem_mi += c.mem_mi;
        r.gpu += c.gpu;
    }
    if let Some(i) = &p.init {
        r.cpu = r.cpu.max(i.cpu);
        r.mem_mi = r.mem_mi.max(i.mem_mi);
        r.gpu = r.gpu.max(i.gpu);
    }
    r
}

/// Whether the pod passes every DefaultProvider predicate on the node (no volumes, ports or
/// affinity are generated, so the others pass).
fn fits(p: &GenPod, n: &GenNode, used: &Used) -> bool {
    // CheckNodeUnschedulable (B.8).
    if n.unschedulable
        && !p
            .tolerations
            .iter()
            .any(|&t| tolerates(t, "node.kubernetes.io/unschedulable", "", "NoSchedule"))
    {
        return false;
    }
    // PodFitsResources (B.1).
    if used.pods + 1 > n.pods {
        return false;
    }
    let r = request(p);
    let has_gpu_key = p.containers.iter().any(|c| c.gpu > 0) || p.init.iter().any(|c| c.gpu > 0);
    let requests_something = r.cpu != 0 || r.mem_mi != 0 || has_gpu_key;
    if requests_something
        && (n.cpu < r.cpu + used.cpu
            || n.mem_mi < r.mem_mi + used.mem_mi
            || n.gpu < r.gpu + used.gpu)
    {
        return false;
    }
    // MatchNodeSelector (B.4).
    if let Some(s) = p.selector {
        for (k, v) in SELECTORS[s] {
            let have = match *k {
                "tier" => n.tier,
                "disk" => n.ssd.then_some("ssd"),
                _ => None,
            };
            if have != Some(*v) {
                return false;
            }
        }
    }
    // PodToleratesNodeTaints (B.7): NoSchedule and NoExecute taints must be tolerated.
    for &t in &n.taints {
        let (k, v, e) = TAINTS[t];
        if e == "PreferNoSchedule" {
            continue;
        }
        if !p.tolerations.iter().any(|&tol| tolerates(tol, k, v, e)) {
            return false;
        }
    }
    true
}

fn index_of(name: &str, prefix: &str) -> usize {
    name.trim_start_matches(prefix)
        .parse()
        .unwrap_or_else(|_| panic!("unexpected name {name}"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn decisions_match_an_independent_fit_oracle(
        nodes in prop::collection::vec(node(), 1..=5),
        pods in prop::collection::vec(pod(), 1..=8),
        seed in 0u64..1000,
    ) {
        let s = load_ok(&to_files(&nodes, &pods));
        let r = report(&s, seed);
        prop_assert_eq!(&r, &report(&s, seed), "same seed, same report");
        let mut used = vec![Used::default(); nodes.len()];
        for c in r["cycles"].as_array().expect("cycles") {
            let p = &pods[index_of(c["pod"].as_str().expect("pod"), "default/pod-")];
            let feasible: Vec<usize> =
                (0..nodes.len()).filter(|&i| fits(p, &nodes[i], &used[i])).collect();
            match c["outcome"].as_str() {
                Some("Scheduled") => {
                    let n = index_of(c["node"].as_str().expect("node"), "node-");
                    prop_assert!(
                        feasible.contains(&n),
                        "{} was put on node-{} but fits only on {:?}", c["pod"], n, feasible
                    );
                    let u = &mut used[n];
                    for k in &p.containers {
                        u.cpu += k.cpu;
                        u.mem_mi += k.mem_mi;
                        u.gpu += k.gpu;
                    }
                    u.pods += 1;
                }
                Some("Unschedulable") => {
                    prop_assert!(
                        feasible.is_empty(),
                        "{} is unschedulable but fits on {:?}: {}", c["pod"], feasible, c["message"]
                    );
                    let msg = c["message"].as_str().expect("message");
                    let prefix = format!("0/{} nodes are available: ", nodes.len());
                    prop_assert!(msg.starts_with(&prefix) && msg.ends_with('.'), "{}", msg);
                }
                other => prop_assert!(false, "unexpected outcome {:?}", other),
            }
        }
        // After the run: nothing on a node exceeds its allocatable, and the report's final
        // placements are the ones replayed above.
        for (i, n) in nodes.iter().enumerate() {
            let u = &used[i];
            prop_assert!(u.pods <= n.pods, "node-{} pods", i);
            if u.cpu + u.mem_mi + u.gpu > 0 {
                // Zero-request pods only need a pod slot (B.1).
                prop_assert!(u.cpu <= n.cpu && u.mem_mi <= n.mem_mi && u.gpu <= n.gpu,
                    "node-{} over-committed", i);
            }
            let info = &s.cluster.nodes()[i];
            prop_assert_eq!(info.allocatable().milli_cpu, n.cpu);
        }
        for p in r["pods"].as_array().expect("pods") {
            let name = p["name"].as_str().expect("name");
            let bound_in_cycles = r["cycles"].as_array().expect("cycles").iter()
                .any(|c| c["pod"] == name && c["outcome"] == "Scheduled");
            prop_assert_eq!(p["phase"] == "Bound", bound_in_cycles, "{}", name);
        }
    }
}
