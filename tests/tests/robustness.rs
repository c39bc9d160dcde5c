//! Robustness: whatever the input, `Scenario::load` and a run never panic (cli-contract.md:
//! "Never a panic, whatever the input"). Random bytes, random JSON, truncated and mutated
//! real-world files, structural mutations of a scenario that exercises every predicate and
//! priority, huge numbers, deep nesting, a 10 MB document and YAML alias bombs.

// Three tests bound, generously, how long a hostile input may take (a hang guard, not a speed
// target): they read the clock.
#![allow(clippy::disallowed_methods)]

use proptest::prelude::*;
use schedlab_core::report::{json_report, text_report};
use schedlab_core::simulation::{Limits, Simulation};
use schedlab_tests::{load, read_file, realworld_dir, File};
use serde_json::{json, Value};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// Loads and, when that succeeds, runs with details and renders both reports. Returns the
/// panic message if anything panicked.
fn survive(files: &[File]) -> Result<(), String> {
    catch_unwind(AssertUnwindSafe(|| {
        if let Ok(s) = load(files) {
            let run = s.run(1, true);
            let _ = json_report(&run, true);
            let _ = text_report(&run);
            let _ = json_report(&s.run(2, false), false);
            // The stepping API: forward, back to the middle, a recomputed cycle.
            let mut sim = Simulation::new(&s, 3, false);
            sim.run(Limits::default());
            sim.go_to_step(sim.position() / 2);
            let _ = sim.cycle_detail(0);
            let _ = sim.queue_view();
        }
    }))
    .map_err(|e| {
        e.downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "panic".into())
    })
}

fn file(name: &str, text: impl Into<String>) -> File {
    File {
        name: name.into(),
        text: text.into(),
    }
}

fn assert_survives(what: &str, files: &[File]) {
    if let Err(msg) = survive(files) {
        panic!("{what}: panicked: {msg}");
    }
}

/// A tiny deterministic generator (xorshift64*), so failures are reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// `text` with 1 to `edits` random edits: a `noise` piece inserted, up to `max_cut` bytes cut,
/// or a byte replaced by a random ASCII one.
fn mutated(text: &str, rng: &mut Rng, noise: &[&str], edits: usize, max_cut: usize) -> Vec<u8> {
    let mut text = text.as_bytes().to_vec();
    for _ in 0..1 + rng.below(edits) {
        let at = rng.below(text.len() + 1);
        match rng.below(3) {
            0 => {
                let n = noise[rng.below(noise.len())].as_bytes();
                text.splice(at..at, n.iter().copied());
            }
            1 => {
                let end = (at + 1 + rng.below(max_cut)).min(text.len());
                text.drain(at..end);
            }
            _ => {
                if at < text.len() {
                    text[at] = (rng.next() & 0x7f) as u8;
                }
            }
        }
    }
    text
}

fn realworld_inputs() -> Vec<File> {
    let mut paths: Vec<_> = std::fs::read_dir(realworld_dir().join("inputs"))
        .expect("shared/realworld/inputs")
        .map(|e| e.expect("entry").path())
        .collect();
    paths.sort();
    paths.iter().map(|p| read_file(p)).collect()
}

// ---- random bytes and values ----

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_text_never_panics(text in "(?s).{0,400}") {
        prop_assert!(survive(&[file("random.txt", text)]).is_ok());
    }

    #[test]
    fn random_bytes_as_lossy_utf8_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        prop_assert!(survive(&[file("bytes.bin", text)]).is_ok());
    }

    #[test]
    fn yamlish_text_never_panics(
        lines in prop::collection::vec(
            "( {0,4})(kind|apiVersion|metadata|name|spec|items|-|containers|resources|requests|cpu|nodeName|taints|---|&a|\\*a|<<)(: ?)([a-zA-Z0-9{}\\[\\],.\"'!&*-]{0,12})",
            0..30)
    ) {
        let text = lines.join("\n");
        prop_assert!(survive(&[file("yamlish.yaml", text)]).is_ok());
    }
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<u64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| json!(f)),
        prop_oneof![
            Just("Node"),
            Just("Pod"),
            Just("List"),
            Just("Policy"),
            Just("v1"),
            Just("12x"),
            Just("-1"),
            Just("9Ei"),
            Just("1e999"),
            Just("NoSchedule"),
            Just("Exists"),
            Just("In"),
            Just("Gt"),
            Just(""),
        ]
        .prop_map(|s| json!(s)),
        "[a-z/.-]{0,10}".prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(
                prop_oneof![
                    Just("kind".to_string()),
                    Just("apiVersion".to_string()),
                    Just("metadata".to_string()),
                    Just("name".to_string()),
                    Just("spec".to_string()),
                    Just("status".to_string()),
                    Just("items".to_string()),
                    Just("containers".to_string()),
                    Just("allocatable".to_string()),
                    Just("predicates".to_string()),
                    Just("priorities".to_string()),
                    "[a-zA-Z]{1,8}",
                ],
                inner,
                0..6
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_json_values_never_panic(v in json_value()) {
        prop_assert!(survive(&[file("value.json", v.to_string())]).is_ok());
    }

    #[test]
    fn random_specs_of_known_kinds_never_panic(
        kind in prop_oneof![Just("Node"), Just("Pod"), Just("Policy"), Just("Service"),
            Just("ReplicaSet"), Just("ReplicationController"), Just("StatefulSet"),
            Just("PriorityClass"), Just("KubeSchedulerConfiguration")],
        spec in json_value(),
        status in json_value(),
    ) {
        let api = if kind == "KubeSchedulerConfiguration" {
            "kubescheduler.config.k8s.io/v1alpha1"
        } else {
            "v1"
        };
        let doc = json!({"kind": kind, "apiVersion": api, "metadata": {"name": "x"},
            "spec": spec, "status": status, "predicates": spec, "priorities": status});
        let node = json!({"kind": "Node", "apiVersion": "v1", "metadata": {"name": "n"},
            "status": {"allocatable": {"cpu": "1", "memory": "1Gi", "pods": "10"}}});
        let pod = json!({"kind": "Pod", "apiVersion": "v1", "metadata": {"name": "p"},
            "spec": {"containers": [{"name": "c"}]}});
        let list = json!({"kind": "List", "apiVersion": "v1", "items": [node, pod, doc]});
        prop_assert!(survive(&[file("list.json", list.to_string())]).is_ok());
    }
}

// ---- real-world files, truncated and mutated ----

#[test]
fn truncated_real_world_files_never_panic() {
    let mut failures = Vec::new();
    for f in realworld_inputs() {
        let len = f.text.len();
        // At most 24 cut points per file, spread over the file (on char boundaries).
        let step = (len / 24).max(1);
        let mut cut = 0;
        while cut < len {
            if f.text.is_char_boundary(cut) {
                let t = file(&f.name, &f.text[..cut]);
                if let Err(m) = survive(&[t]) {
                    failures.push(format!("{} cut at {cut}: {m}", f.name));
                }
            }
            cut += step;
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn byte_mutated_real_world_files_never_panic() {
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let noise: &[&str] = &[
        "{",
        "}",
        "[",
        "]",
        ":",
        ",",
        "\"",
        "-",
        "---\n",
        "\n",
        " ",
        "\t",
        "&a ",
        "*a",
        "null",
        "1e999",
        "-1",
        "9Ei",
        "12x",
        "\u{0}",
        "é",
        "\\",
        "'",
        "!!binary ",
        "? ",
        "|",
    ];
    let mut failures = Vec::new();
    for f in realworld_inputs() {
        // Big files get fewer mutations to keep the test fast.
        let rounds = if f.text.len() > 100_000 { 3 } else { 16 };
        for round in 0..rounds {
            let text = mutated(&f.text, &mut rng, noise, 4, 16);
            let t = file(&f.name, String::from_utf8_lossy(&text).into_owned());
            if let Err(m) = survive(&[t]) {
                failures.push(format!("{} round {round}: {m}", f.name));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn real_world_scenarios_combined_with_every_input_never_panic() {
    // Each combined scenario plus one more real-world file: mixes of nodes, pods, policies.
    let inputs = realworld_inputs();
    for sc in [
        "aks-3nodes-clustercap-legacy-policy",
        "opensim-masters-v1alpha1-config",
    ] {
        let base = schedlab_tests::scenario_files(&realworld_dir().join("scenarios").join(sc));
        for extra in &inputs {
            if extra.text.len() > 100_000 {
                continue;
            }
            let mut files = base.clone();
            files.push(extra.clone());
            assert_survives(&format!("{sc} + {}", extra.name), &files);
        }
    }
}

// ---- structural mutations of a scenario that touches every plugin ----

/// Nodes, pods and a Policy naming every predicate and priority, with every field the model
/// reads: labels, taints, images, preferAvoidPods, ports, volumes, affinities, spread
/// constraints, init containers, priorities, selectors of every workload kind.
fn everything() -> Value {
    let mut items = workload_objects();
    items.extend(everything_nodes());
    items.extend(storage_objects());
    items.push(everything_pod("bound-0", Some("n0")));
    items.push(everything_pod("bound-2", Some("n2")));
    for i in 0..4 {
        items.push(everything_pod(&format!("web-{i}"), None));
    }
    items.push(json!({"kind": "Pod", "apiVersion": "v1", "metadata": {"name": "db", "labels": {"app": "db"}},
        "spec": {"priority": 5, "containers": [{"name": "c"}],
            "affinity": {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "zone"}]}}}}));
    items.push(policy_naming_everything());
    items.push(timeline_with_every_change());
    json!({"kind": "List", "apiVersion": "v1", "items": items})
}

/// A PriorityClass, a Service and a workload of every kind, all selecting `app: web`.
fn workload_objects() -> Vec<Value> {
    vec![
        json!({"kind": "PriorityClass", "apiVersion": "scheduling.k8s.io/v1",
            "metadata": {"name": "high"}, "value": 1000, "globalDefault": false}),
        json!({"kind": "Service", "apiVersion": "v1", "metadata": {"name": "svc"},
            "spec": {"selector": {"app": "web"}}}),
        json!({"kind": "ReplicationController", "apiVersion": "v1", "metadata": {"name": "rc"},
            "spec": {"selector": {"app": "web"}}}),
        json!({"kind": "ReplicaSet", "apiVersion": "apps/v1", "metadata": {"name": "rs"},
            "spec": {"selector": {"matchLabels": {"app": "web"},
                "matchExpressions": [{"key": "tier", "operator": "In", "values": ["fe"]}]}}}),
        json!({"kind": "StatefulSet", "apiVersion": "apps/v1", "metadata": {"name": "ss"},
            "spec": {"selector": {"matchExpressions": [{"key": "app", "operator": "Exists"}]}}}),
    ]
}

/// Nodes n0..n3 in zones z1, z1, z2, z3, with labels, an avoid-pods annotation, taints on n2,
/// n3 unschedulable, extended and volume-limit resources and images.
fn everything_nodes() -> Vec<Value> {
    let mut items = Vec::new();
    for (i, zone) in ["z1", "z1", "z2", "z3"].iter().enumerate() {
        items.push(json!({"kind": "Node", "apiVersion": "v1",
            "metadata": {"name": format!("n{i}"),
                "labels": {"failure-domain.beta.kubernetes.io/zone": zone,
                    "failure-domain.beta.kubernetes.io/region": "r", "kubernetes.io/hostname": format!("n{i}"),
                    "disk": if i % 2 == 0 { "ssd" } else { "hdd" }, "cores": (i * 4).to_string(), "zone": zone},
                "annotations": {"scheduler.alpha.kubernetes.io/preferAvoidPods":
                    "{\"preferAvoidPods\":[{\"podSignature\":{\"podController\":{\"kind\":\"ReplicaSet\",\"uid\":\"rs-uid\"}}}]}"}},
            "spec": {"unschedulable": i == 3,
                "taints": if i == 2 { json!([{"key": "k", "value": "v", "effect": "NoSchedule"},
                    {"key": "soft", "effect": "PreferNoSchedule"}]) } else { json!([]) }},
            "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "20",
                    "ephemeral-storage": "10Gi", "example.com/gpu": "20",
                    "attachable-volumes-aws-ebs": "20", "hugepages-2Mi": "0"},
                "images": [{"names": ["nginx:1.17", "docker.io/nginx:1.17"], "sizeBytes": 200_000_000}]}}));
    }
    items
}

/// A `web` pod with every field the model reads; bound to `node` (with a host port) if given.
fn everything_pod(name: &str, node: Option<&str>) -> Value {
    let mut spec = json!({
        "priorityClassName": "high",
        "initContainers": [{"name": "init", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}],
        "containers": [{"name": "c", "image": "nginx:1.17",
            "resources": {"requests": {"cpu": "100m", "memory": "64Mi", "example.com/gpu": "1",
                "ephemeral-storage": "1Gi"}, "limits": {"cpu": "1", "memory": "1Gi"}},
            "ports": [{"containerPort": 80, "hostPort": if node.is_some() { 8080 } else { 0 },
                "protocol": "TCP"}]}],
        "nodeSelector": {"disk": "ssd"},
        "tolerations": [{"key": "k", "operator": "Equal", "value": "v", "effect": "NoSchedule"},
            {"operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 30}],
        "volumes": [{"name": "ebs", "awsElasticBlockStore": {"volumeID": format!("vol-{name}")}},
            {"name": "gce", "gcePersistentDisk": {"pdName": "pd", "readOnly": true}},
            {"name": "rbd", "rbd": {"monitors": ["m1"], "image": format!("img-{name}")}},
            {"name": "iscsi", "iscsi": {"iqn": format!("iqn.{name}"), "readOnly": false}},
            {"name": "az", "azureDisk": {"diskName": "d"}},
            {"name": "cinder", "cinder": {"volumeID": "c1"}},
            {"name": "data", "persistentVolumeClaim": {"claimName": format!("data-{name}")}},
            {"name": "shared", "persistentVolumeClaim": {"claimName": "shared", "readOnly": true}}],
        "topologySpreadConstraints": [
            {"maxSkew": 5, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
             "labelSelector": {"matchLabels": {"app": "web"}}},
            {"maxSkew": 2, "topologyKey": "kubernetes.io/hostname", "whenUnsatisfiable": "ScheduleAnyway",
             "labelSelector": {"matchLabels": {"app": "web"}}}],
        "affinity": {
            "nodeAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                    {"matchExpressions": [{"key": "cores", "operator": "Lt", "values": ["100"]}]},
                    {"matchFields": [{"key": "metadata.name", "operator": "NotIn", "values": ["n9"]}]}]},
                "preferredDuringSchedulingIgnoredDuringExecution": [
                    {"weight": 5, "preference": {"matchExpressions": [{"key": "disk", "operator": "In", "values": ["ssd"]}]}}]},
            "podAffinity": {
                "preferredDuringSchedulingIgnoredDuringExecution": [
                    {"weight": 10, "podAffinityTerm": {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "zone"}}]},
            "podAntiAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": [
                    {"labelSelector": {"matchLabels": {"app": "db"}}, "topologyKey": "kubernetes.io/hostname"}],
                "preferredDuringSchedulingIgnoredDuringExecution": [
                    {"weight": 3, "podAffinityTerm": {"labelSelector": {"matchExpressions": [{"key": "app", "operator": "In", "values": ["web"]}]},
                     "namespaces": ["default", "other"], "topologyKey": "kubernetes.io/hostname"}}]}}
    });
    if let Some(n) = node {
        spec["nodeName"] = json!(n);
    }
    json!({"kind": "Pod", "apiVersion": "v1",
        "metadata": {"name": name, "labels": {"app": "web", "tier": "fe"},
            "ownerReferences": [{"kind": "ReplicaSet", "name": "rs", "uid": "rs-uid", "controller": true}]},
        "spec": spec, "status": {"phase": if node.is_some() { "Running" } else { "Pending" }}})
}

/// Storage: a WaitForFirstConsumer class with local volumes in two zones, a provisioning
/// class, bound claims, a CSI volume and a CSINode with a limit and migrated plugins.
fn storage_objects() -> Vec<Value> {
    let mut items = vec![
        json!({"kind": "StorageClass", "apiVersion": "storage.k8s.io/v1",
            "metadata": {"name": "local"}, "provisioner": "kubernetes.io/no-provisioner",
            "volumeBindingMode": "WaitForFirstConsumer"}),
        json!({"kind": "StorageClass", "apiVersion": "storage.k8s.io/v1",
            "metadata": {"name": "csi"}, "provisioner": "hostpath.csi.k8s.io",
            "volumeBindingMode": "WaitForFirstConsumer",
            "allowedTopologies": [{"matchLabelExpressions": [{"key": "zone", "values": ["z1", "z2"]}]}]}),
    ];
    for (i, zone) in ["z1", "z2", "z3"].iter().enumerate() {
        items.push(json!({"kind": "PersistentVolume", "apiVersion": "v1",
            "metadata": {"name": format!("local-{i}"),
                "labels": {"failure-domain.beta.kubernetes.io/zone": format!("{zone}__z9")}},
            "spec": {"capacity": {"storage": format!("{}Gi", i + 1)}, "accessModes": ["ReadWriteOnce"],
                "storageClassName": "local", "volumeMode": "Filesystem",
                "local": {"path": format!("/mnt/disk-{i}")},
                "nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [
                    {"key": "zone", "operator": "In", "values": [zone]}]}]}}},
            "status": {"phase": "Available"}}));
    }
    items.push(
        json!({"kind": "PersistentVolume", "apiVersion": "v1", "metadata": {"name": "shared-pv"},
        "spec": {"capacity": {"storage": "5Gi"}, "accessModes": ["ReadOnlyMany"],
            "csi": {"driver": "hostpath.csi.k8s.io", "volumeHandle": "h-shared"},
            "claimRef": {"name": "shared", "namespace": "default"}},
        "status": {"phase": "Bound"}}),
    );
    items.push(json!({"kind": "PersistentVolumeClaim", "apiVersion": "v1",
        "metadata": {"name": "shared", "annotations": {"pv.kubernetes.io/bind-completed": "yes"}},
        "spec": {"volumeName": "shared-pv", "accessModes": ["ReadOnlyMany"],
            "resources": {"requests": {"storage": "1Gi"}}},
        "status": {"phase": "Bound"}}));
    for name in ["bound-0", "bound-2", "web-0", "web-1", "web-2", "web-3"] {
        items.push(json!({"kind": "PersistentVolumeClaim", "apiVersion": "v1",
            "metadata": {"name": format!("data-{name}")},
            "spec": {"storageClassName": if name.ends_with('3') { "csi" } else { "local" },
                "accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}},
                "selector": {"matchExpressions": [{"key": "tier", "operator": "DoesNotExist"}]}},
            "status": {"phase": "Pending"}}));
    }
    items.push(json!({"kind": "CSINode", "apiVersion": "storage.k8s.io/v1",
        "metadata": {"name": "n0", "annotations": {
            "storage.alpha.kubernetes.io/migrated-plugins": "kubernetes.io/aws-ebs,kubernetes.io/gce-pd"}},
        "spec": {"drivers": [{"name": "hostpath.csi.k8s.io", "nodeID": "n0", "allocatable": {"count": 3}}]}}));
    items
}

/// A Policy naming every predicate and priority, with arguments, hardPodAffinitySymmetricWeight
/// and alwaysCheckAllPredicates.
fn policy_naming_everything() -> Value {
    json!({"kind": "Policy", "apiVersion": "v1",
        "predicates": [
            {"name": "CheckNodeUnschedulable"}, {"name": "GeneralPredicates"}, {"name": "HostName"},
            {"name": "PodFitsHostPorts"}, {"name": "MatchNodeSelector"}, {"name": "PodFitsResources"},
            {"name": "NoDiskConflict"}, {"name": "PodToleratesNodeTaints"},
            {"name": "labels", "argument": {"labelsPresence": {"labels": ["disk"], "presence": true}}},
            {"name": "svc-aff", "argument": {"serviceAffinity": {"labels": ["failure-domain.beta.kubernetes.io/region"]}}},
            {"name": "MaxEBSVolumeCount"}, {"name": "MaxGCEPDVolumeCount"}, {"name": "MaxCSIVolumeCountPred"},
            {"name": "MaxAzureDiskVolumeCount"}, {"name": "MaxCinderVolumeCount"}, {"name": "CheckVolumeBinding"},
            {"name": "NoVolumeZoneConflict"}, {"name": "EvenPodsSpread"}, {"name": "MatchInterPodAffinity"}],
        "priorities": [
            {"name": "EqualPriority", "weight": 1}, {"name": "MostRequestedPriority", "weight": 1},
            {"name": "SelectorSpreadPriority", "weight": 2}, {"name": "ServiceSpreadingPriority", "weight": 1},
            {"name": "InterPodAffinityPriority", "weight": 3}, {"name": "LeastRequestedPriority", "weight": 1},
            {"name": "BalancedResourceAllocation", "weight": 1}, {"name": "NodePreferAvoidPodsPriority", "weight": 10000},
            {"name": "NodeAffinityPriority", "weight": 1}, {"name": "TaintTolerationPriority", "weight": 1},
            {"name": "ImageLocalityPriority", "weight": 1}, {"name": "ResourceLimitsPriority", "weight": 1},
            {"name": "EvenPodsSpreadPriority", "weight": 1},
            {"name": "anti", "weight": 2, "argument": {"serviceAntiAffinity": {"label": "zone"}}},
            {"name": "ssd", "weight": 2, "argument": {"labelPreference": {"label": "disk", "presence": true}}},
            {"name": "rtcr", "weight": 2, "argument": {"requestedToCapacityRatioArguments": {
                "shape": [{"utilization": 0, "score": 0}, {"utilization": 50, "score": 10}, {"utilization": 100, "score": 2}],
                "resources": [{"name": "cpu", "weight": 1}, {"name": "example.com/gpu", "weight": 0}]}}}],
        "hardPodAffinitySymmetricWeight": 10,
        "alwaysCheckAllPredicates": true})
}

/// A timeline using every change, with latency and random binding failures.
fn timeline_with_every_change() -> Value {
    json!({"kind": "Timeline", "apiVersion": "schedlab.dev/v1alpha1",
        "metadata": {"name": "day"},
        "spec": {"bindLatency": "1500ms", "bindFailurePercent": 30, "changes": [
            {"at": 0, "failBinding": "web-0"},
            {"at": 1, "setNodeLabels": {"node": "n1", "labels": {"disk": "hdd"}, "remove": ["zone"]}},
            {"at": "2s", "setNodeTaints": {"node": "n2", "taints": [{"key": "k", "value": "v", "effect": "NoSchedule"}]}},
            {"at": 3, "cordonNode": "n3"},
            {"at": 5, "addNode": {"metadata": {"name": "n9", "labels": {"disk": "ssd", "zone": "z9"}},
                "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "20"}}}},
            {"at": 8, "createPods": {"replicas": 3, "template": everything_pod("burst", None)}},
            {"at": 9, "createPod": everything_pod("late", Some("n9"))},
            {"at": 12, "deletePod": "bound-2"},
            {"at": 13, "deletePod": "burst-1"},
            {"at": 20, "uncordonNode": "n3"},
            {"at": 30, "updateNode": {"metadata": {"name": "n0", "labels": {"disk": "ssd"}},
                "status": {"allocatable": {"cpu": "1", "memory": "1Gi", "pods": "3"}}}},
            {"at": 40, "deleteNode": "n9"},
            {"at": "1m", "createPods": {"replicas": 2, "template": everything_pod("burst", None)}}]}})
}

/// Values a mutation may put anywhere.
fn nasty(rng: &mut Rng) -> Value {
    let pool = [
        Value::Null,
        json!(true),
        json!(0),
        json!(-1),
        json!(i64::MAX),
        json!(i64::MIN),
        json!(u64::MAX),
        json!(1e300),
        json!(-1e-300),
        json!(""),
        json!("12x"),
        json!("-1"),
        json!("9Ei"),
        json!("7Ei"),
        json!("9223372036854775807"),
        json!("1e18"),
        json!("0.000000001"),
        json!("Exists"),
        json!("Gt"),
        json!("NoExecute"),
        json!("DoNotSchedule"),
        json!([]),
        json!({}),
        json!([{}]),
        json!({"key": "", "operator": "Lt", "values": ["-9223372036854775808"]}),
        json!("x".repeat(300)),
    ];
    pool[rng.below(pool.len())].clone()
}

fn count_nodes(v: &Value) -> usize {
    1 + match v {
        Value::Array(a) => a.iter().map(count_nodes).sum(),
        Value::Object(m) => m.values().map(count_nodes).sum(),
        _ => 0,
    }
}

/// Replaces the `target`-th node (pre-order) with `with`; returns how many nodes were passed.
fn replace_nth(v: &mut Value, target: &mut usize, with: &Value) -> bool {
    if *target == 0 {
        *v = with.clone();
        return true;
    }
    *target -= 1;
    match v {
        Value::Array(a) => a.iter_mut().any(|x| replace_nth(x, target, with)),
        Value::Object(m) => m.values_mut().any(|x| replace_nth(x, target, with)),
        _ => false,
    }
}

#[test]
fn the_everything_scenario_runs() {
    let text = everything().to_string();
    let s = load(&[file("everything.json", text)]).unwrap_or_else(|e| {
        panic!(
            "{:?}",
            e.iter().map(ToString::to_string).collect::<Vec<_>>()
        )
    });
    let run = s.run(1, true);
    // The storage objects are read and used: some claim took a local volume when its pod bound.
    assert!(run.cluster.volumes().pvcs.values().any(
        |c| c.metadata.name.starts_with("data-web") && c.spec.volume_name.starts_with("local-")
    ));
    let r = json_report(&run, true);
    // Every timeline change was applied.
    assert_eq!(
        r["timeline"].as_array().map(Vec::len),
        Some(13),
        "{}",
        r["timeline"]
    );
    let cycles = r["cycles"].as_array().expect("cycles");
    // At least one cycle scores several nodes, so every priority runs.
    assert!(cycles
        .iter()
        .any(|c| c["scores"].as_object().is_some_and(|m| m.len() >= 2)));
}

#[test]
fn structural_mutations_of_the_everything_scenario_never_panic() {
    let base = everything();
    let total = count_nodes(&base);
    let mut rng = Rng(0xdead_beef_cafe_f00d);
    let mut failures = Vec::new();
    for round in 0..400 {
        let mut v = base.clone();
        for _ in 0..1 + rng.below(3) {
            let with = nasty(&mut rng);
            let mut at = rng.below(total);
            replace_nth(&mut v, &mut at, &with);
        }
        let text = v.to_string();
        if let Err(m) = survive(&[file("mutated.json", text.clone())]) {
            failures.push(format!("round {round}: {m}\n{text}"));
            if failures.len() >= 3 {
                break;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

// ---- huge numbers ----

fn node_doc(name: &str, alloc: Value) -> Value {
    json!({"kind": "Node", "apiVersion": "v1", "metadata": {"name": name},
        "status": {"allocatable": alloc}})
}

fn pod_doc(name: &str, requests: Value, node: Option<&str>) -> Value {
    let mut spec = json!({"containers": [{"name": "c", "resources": {"requests": requests}}]});
    if let Some(n) = node {
        spec["nodeName"] = json!(n);
    }
    json!({"kind": "Pod", "apiVersion": "v1", "metadata": {"name": name}, "spec": spec})
}

fn list(items: Vec<Value>) -> File {
    file(
        "huge.json",
        json!({"kind": "List", "apiVersion": "v1", "items": items}).to_string(),
    )
}

#[test]
fn huge_quantities_are_errors_or_work_without_panicking() {
    for q in [
        json!("9223372036854775807"),
        json!("9223372036854775807m"),
        json!("9223372036854775808"),
        json!("8Ei"),
        json!("1e400"),
        json!(1e300),
        json!(u64::MAX),
        json!(i64::MIN),
        json!("99999999999999999999999999999999999999999999"),
        json!("0.00000000000000000000000000000000001"),
        json!("1e-9999"),
        json!("1e9999"),
    ] {
        let files = [list(vec![
            node_doc(
                "n",
                json!({"cpu": q, "memory": q, "pods": q, "example.com/x": q}),
            ),
            pod_doc(
                "p",
                json!({"cpu": q, "memory": q, "example.com/x": q}),
                None,
            ),
        ])];
        assert_survives(&format!("quantity {q}"), &files);
    }
}

#[test]
fn huge_allocatable_does_not_overflow_scoring() {
    // 7Ei of memory (8070450532247928832 bytes) and 9e15 cores are valid quantities that fit an
    // int64; with two feasible nodes the priorities run. Upstream Go wraps silently; schedlab
    // must at least not panic (cli-contract.md: "Never a panic, whatever the input").
    let big = json!({"cpu": "9000000000000000", "memory": "7Ei", "pods": "110"});
    for (what, priorities, request) in [
        (
            "default priorities",
            Value::Null,
            json!({"cpu": "1", "memory": "1Gi"}),
        ),
        (
            "MostRequested, huge request",
            json!([{"name": "MostRequestedPriority", "weight": 1}]),
            json!({"cpu": "8000000000000000", "memory": "6Ei"}),
        ),
        (
            "RequestedToCapacityRatio",
            json!([{"name": "RequestedToCapacityRatioPriority", "weight": 1}]),
            json!({"cpu": "1", "memory": "1Gi"}),
        ),
    ] {
        let mut items = vec![
            node_doc("a", big.clone()),
            node_doc("b", big.clone()),
            pod_doc("p", request, None),
        ];
        if !priorities.is_null() {
            items.push(json!({"kind": "Policy", "apiVersion": "v1", "priorities": priorities}));
        }
        assert_survives(what, &[list(items)]);
    }
}

#[test]
fn summed_requests_near_the_limit_do_not_overflow() {
    // Node with 7Ei memory already holding a 7Ei pod; another 7Ei pod: used + request does not
    // fit an int64. The incoming pod must simply not fit (or be reported), never panic.
    let files = [list(vec![
        node_doc("a", json!({"cpu": "1", "memory": "7Ei", "pods": "110"})),
        pod_doc("first", json!({"memory": "7Ei"}), Some("a")),
        pod_doc("second", json!({"memory": "7Ei"}), None),
    ])];
    assert_survives("7Ei twice", &files);
    let s = load(&files).expect("loads");
    let r = json_report(&s.run(0, true), true);
    assert_eq!(r["cycles"][0]["outcome"], "Unschedulable");
    assert_eq!(
        r["cycles"][0]["message"],
        "0/1 nodes are available: 1 Insufficient memory."
    );
}

#[test]
fn huge_weights_sizes_and_counts_do_not_panic() {
    let node = json!({"kind": "Node", "apiVersion": "v1",
        "metadata": {"name": "n", "labels": {"big": "9223372036854775807"}},
        "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "9223372036854775807"},
            "images": [{"names": ["img:1"], "sizeBytes": i64::MAX}, {"names": ["img:2"], "sizeBytes": i64::MAX}]}});
    let node2 = {
        let mut n = node.clone();
        n["metadata"]["name"] = json!("m");
        n
    };
    let pod = json!({"kind": "Pod", "apiVersion": "v1", "metadata": {"name": "p"},
        "spec": {"priority": i32::MAX,
            "containers": [{"name": "a", "image": "img:1"}, {"name": "b", "image": "img:2"}],
            "affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": i32::MAX, "preference": {"matchExpressions": [{"key": "big", "operator": "Gt", "values": ["-9223372036854775808"]}]}},
                {"weight": i32::MAX, "preference": {"matchExpressions": [{"key": "big", "operator": "Exists"}]}}]},
              "podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": i32::MAX, "podAffinityTerm": {"labelSelector": {}, "topologyKey": "big"}}]}}}});
    let policy = json!({"kind": "Policy", "apiVersion": "v1",
        "priorities": [
            {"name": "ImageLocalityPriority", "weight": 922337203685477579i64},
            {"name": "NodeAffinityPriority", "weight": 1},
            {"name": "InterPodAffinityPriority", "weight": 1}],
        "hardPodAffinitySymmetricWeight": 100});
    let files = [list(vec![node, node2, pod, policy])];
    assert_survives("huge weights", &files);
}

// ---- size and depth ----

fn deep_json_arrays(depth: usize) -> String {
    format!("{}{}", "[".repeat(depth), "]".repeat(depth))
}

fn deep_json_objects(depth: usize) -> String {
    let mut obj = String::from(
        "{\"kind\": \"Node\", \"apiVersion\": \"v1\", \"metadata\": {\"name\": \"n\"}, \"spec\": ",
    );
    obj.push_str(&"{\"a\": ".repeat(depth));
    obj.push('1');
    obj.push_str(&"}".repeat(depth + 1));
    obj
}

fn deep_yaml_flow(depth: usize) -> String {
    format!(
        "kind: Node\nmetadata: {}1{}\n",
        "[".repeat(depth),
        "]".repeat(depth)
    )
}

#[test]
fn deep_nesting_is_rejected_without_panicking() {
    let depth = 1_000;
    for (name, text) in [
        ("deep-arrays.json", deep_json_arrays(depth)),
        ("deep-objects.json", deep_json_objects(depth)),
        ("deep-objects-100k.json", deep_json_objects(100_000)),
        ("deep-flow.yaml", deep_yaml_flow(depth)),
    ] {
        assert_survives(name, &[file(name, text.clone())]);
        let errs = load(&[file(name, text)])
            .err()
            .expect("too deep to be a scenario");
        assert_eq!(errs[0].file, name);
    }
    let mut block = String::from("kind: Pod\napiVersion: v1\nmetadata:\n  name: p\nspec:\n");
    for i in 0..depth {
        block.push_str(&" ".repeat(2 * (i + 1)));
        block.push_str("x:\n");
    }
    assert_survives("deep YAML block", &[file("deep.yaml", block)]);
}

#[test]
fn very_deep_yaml_flow_is_rejected_quickly() {
    // A 200 KB file must not take minutes: "[[[[...]]]]" (also reached through the JSON→YAML
    // fallback) is rejected by serde_yaml's recursion limit only after libyaml's scanner has
    // walked its flow-level stack once per token.
    for (name, text) in [
        ("deep-flow.yaml", deep_yaml_flow(100_000)),
        ("deep-arrays.json", deep_json_arrays(100_000)),
    ] {
        let start = Instant::now();
        assert_survives(name, &[file(name, text)]);
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{name} took {:?}",
            start.elapsed()
        );
    }
}

#[test]
fn a_ten_megabyte_document_loads_and_runs() {
    // 2,500 nodes with a 4 KB annotation each (~10 MB) and three pods.
    let note = "n".repeat(4_000);
    let mut items: Vec<Value> = (0..2_500)
        .map(|i| {
            json!({"metadata": {"name": format!("node-{i:04}"), "annotations": {"note": note}},
                "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}})
        })
        .collect();
    let text =
        json!({"kind": "NodeList", "apiVersion": "v1", "items": items.split_off(0)}).to_string();
    assert!(text.len() >= 10_000_000, "{} bytes", text.len());
    let pods = file(
        "pods.yaml",
        "kind: Pod\napiVersion: v1\nmetadata: {name: a}\nspec: {containers: [{name: c}]}\n---\n\
kind: Pod\napiVersion: v1\nmetadata: {name: b}\nspec: {containers: [{name: c}]}\n---\n\
kind: Pod\napiVersion: v1\nmetadata: {name: c}\nspec: {containers: [{name: c}]}\n",
    );
    let files = [file("nodes.json", text), pods];
    let start = Instant::now();
    let s = load(&files).expect("a big but valid document loads");
    assert_eq!(s.cluster.nodes().len(), 2_500);
    // numFeasibleNodesToFind(2500) = 2500 * (50 - 2500/125 = 30) / 100 = 750 (filters.md A.3).
    let r = json_report(&s.run(0, true), true);
    for c in r["cycles"].as_array().expect("cycles") {
        assert_eq!(c["outcome"], "Scheduled");
        assert_eq!(c["filter"].as_object().map(|m| m.len()), Some(750));
    }
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn files_over_the_size_limit_are_an_error() {
    let big = " ".repeat(schedlab_core::input::MAX_FILE_BYTES + 1);
    let errs = load(&[file("big.yaml", big)]).err().expect("too large");
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].file, "big.yaml");
}

#[test]
fn yaml_alias_bombs_finish_quickly() {
    // The "billion laughs": nine levels of nine aliases each.
    let mut bomb = String::from(
        "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
    for w in names.windows(2) {
        let (prev, next) = (w[0], w[1]);
        bomb.push_str(&format!(
            "{next}: &{next} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]\n"
        ));
    }
    let as_doc = format!(
        "kind: Node\napiVersion: v1\nmetadata:\n  name: n\n  labels:\n{}",
        bomb.lines()
            .map(|l| format!("    {l}\n"))
            .collect::<String>()
    );
    for (name, text) in [("bomb.yaml", bomb.clone()), ("bomb-node.yaml", as_doc)] {
        let start = Instant::now();
        assert_survives(name, &[file(name, text)]);
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{name} took {:?}",
            start.elapsed()
        );
    }
    // Aliases that do not blow up are fine: a merge key and a reused mapping.
    let ok = "kind: Node\napiVersion: v1\nmetadata:\n  name: n\n  labels: &l {a: b}\n  annotations: *l\n";
    let s = load(&[file("alias.yaml", ok)]).expect("small aliases are YAML");
    assert_eq!(
        s.cluster.nodes()[0].labels().get("a").map(String::as_str),
        Some("b")
    );
}

#[test]
fn odd_but_valid_documents() {
    for (name, text) in [
        ("empty.yaml", ""),
        ("only-dashes.yaml", "---\n---\n---\n"),
        ("comment.yaml", "# nothing here\n"),
        ("null.yaml", "null\n"),
        ("empty.json", "{}"),
        ("array.json", "[]"),
        ("number.json", "42"),
        ("string.yaml", "\"kind: Node\""),
        ("tabs.yaml", "kind:\tNode\n"),
        ("crlf.yaml", "kind: Node\r\napiVersion: v1\r\nmetadata:\r\n  name: crlf\r\n"),
        ("bom.yaml", "\u{feff}kind: Node\napiVersion: v1\nmetadata: {name: bom}\n"),
        ("dup-keys.json", "{\"kind\":\"Node\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"d\"}}"),
        ("dup-keys.yaml", "kind: Node\nkind: Pod\nmetadata: {name: d}\n"),
        ("nul.json", "{\"kind\":\"Node\u{0}\"}"),
        ("binary.yaml", "!!binary aGVsbG8=\n"),
        ("tagged.yaml", "kind: !!str Node\napiVersion: v1\nmetadata: {name: !!int 5}\n"),
        ("anchors-only.yaml", "&a\n"),
        ("list-of-lists.json", "{\"kind\":\"List\",\"items\":[{\"kind\":\"List\",\"items\":[{\"kind\":\"List\",\"items\":[]}]}]}"),
        ("pod-list-in-list.json", "{\"kind\":\"List\",\"items\":[{\"kind\":\"PodList\",\"items\":[{\"metadata\":{\"name\":\"p\"},\"spec\":{\"containers\":[]}}]}]}"),
        ("dup-names.yaml", "kind: Node\napiVersion: v1\nmetadata: {name: x}\n---\nkind: Node\napiVersion: v1\nmetadata: {name: x}\n"),
    ] {
        assert_survives(name, &[file(name, text)]);
    }
}

#[test]
fn a_name_of_70_000_characters_renders_in_the_text_report() {
    // Issue 16: a 65 536-character name overflowed the formatter's width (a panic). A Pod
    // document with such a name is refused (kube-apiserver's 253-character limit), and since
    // issue 40 so is a Timeline's created pod: the longest name that reaches the report is
    // 253 characters, which the report still cuts to its column.
    let name = "p".repeat(70_000);
    let nodes = list(vec![node_doc(
        "n1",
        json!({"cpu": "4", "memory": "8Gi", "pods": "110"}),
    )]);
    let pod =
        |name: &str| json!({"metadata": {"name": name}, "spec": {"containers": [{"name": "c"}]}});
    let mut as_document = pod(&name);
    as_document["kind"] = json!("Pod");
    as_document["apiVersion"] = json!("v1");
    let timeline = |name: &str| {
        json!({"apiVersion": "schedlab.dev/v1alpha1", "kind": "Timeline",
            "spec": {"changes": [{"at": 0, "createPod": pod(name)}]}})
    };
    for (file_name, text, path) in [
        ("pods.json", as_document.to_string(), "metadata.name"),
        (
            "timeline.json",
            timeline(&name).to_string(),
            "spec.changes[0].createPod.metadata.name",
        ),
    ] {
        let errs = load(&[nodes.clone(), file(file_name, text)])
            .err()
            .expect("a 70 000-character pod name is refused");
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].path, path);
        assert!(errs[0]
            .message
            .ends_with("\": must be no more than 253 characters"));
    }
    let name = "p".repeat(253);
    let files = [nodes, file("timeline.json", timeline(&name).to_string())];
    assert_survives("a 253-character pod name", &files);
    let s = load(&files).expect("loads");
    let text = text_report(&s.run(0, false));
    // The column stops at 64 characters: the header is not padded to the name's length.
    let header = text.lines().nth(1).expect("header");
    assert_eq!(header, format!("POD{}  PHASE     NODE", " ".repeat(61)));
    assert!(text.contains(&format!("default/{name}  Bound     n1")));
}

#[test]
fn thousands_of_errors_are_each_located_on_their_line() {
    // Issue 16: each error used to be located by walking the file again (3000 errors in a
    // 200 KB file: minutes). Item i starts on line 4 + 6i; its cpu is on line 9 + 6i.
    const N: usize = 3000;
    let mut yaml = String::from("kind: List\napiVersion: v1\nitems:\n");
    for i in 0..N {
        yaml.push_str(&format!(
            "- kind: Pod\n  apiVersion: v1\n  metadata: {{name: p{i}}}\n  spec:\n    containers:\n    - {{name: c, resources: {{requests: {{cpu: 12x}}}}}}\n"
        ));
    }
    let errs = load(&[file("pods.yaml", yaml)])
        .err()
        .expect("every pod is invalid");
    assert_eq!(errs.len(), N);
    for (i, e) in errs.iter().enumerate() {
        assert_eq!(
            e.path,
            format!("items[{i}].spec.containers[0].resources.requests.cpu")
        );
        assert_eq!(e.line, Some(9 + 6 * i), "{e}");
    }
}

// ---- Dynamic Resource Allocation inputs (v1.35) ----

/// [`survive`] under v1.35 (where DRA objects are read), with `explain` on every cycle.
fn survive_v135(files: &[File]) -> Result<(), String> {
    catch_unwind(AssertUnwindSafe(|| {
        let v135 = Some(schedlab_core::scenario::SchedulerVersion::V1_35);
        if let Ok(s) = schedlab_tests::load_with(files, v135) {
            let run = s.run(1, true);
            let _ = json_report(&run, true);
            let _ = text_report(&run);
            for c in &run.cycles {
                let _ = schedlab_core::trace::explain::explain(&run.cluster, c).to_string();
            }
            let _ = json_report(&s.run(2, false), false);
        }
    }))
    .map_err(|e| {
        e.downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "panic".into())
    })
}

#[test]
fn byte_mutated_dra_scenarios_never_panic() {
    // Every DRA golden's files, each mutated 24 times (inserted noise, cut bytes, changed
    // bytes), loaded with the scenario's other files as they are.
    let mut rng = Rng(0xd7a0_5eed_0000_0037);
    let noise: &[&str] = &[
        "{", "}", "[", "]", ":", ",", "\"", "-", "\n", " ", "null", "-1", "0", "99", "All", "9Ei",
        "'", "device.", "==", "/", "\u{0}",
    ];
    let mut failures = Vec::new();
    let dir = schedlab_tests::scenarios_dir();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("scenarios")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("v135-dra-"))
        .collect();
    names.sort();
    assert!(names.len() >= 4, "{names:?}");
    for name in names {
        let files = schedlab_tests::scenario_files(&dir.join(&name));
        for (i, f) in files.iter().enumerate() {
            for round in 0..24 {
                let text = mutated(&f.text, &mut rng, noise, 3, 12);
                let mut mutated = files.clone();
                mutated[i] = file(&f.name, String::from_utf8_lossy(&text).into_owned());
                if let Err(m) = survive_v135(&mutated) {
                    failures.push(format!("{name}/{} round {round}: {m}", f.name));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn dra_scenarios_with_odd_values_never_panic() {
    // Values the API server may refuse or the allocator must treat as errors or skip.
    let edits: &[(&str, &str)] = &[
        ("allocationMode: All", "allocationMode: Some"),
        ("count: 2", "count: 33"),
        ("count: 2", "count: -1"),
        ("count: 2", "count: 9223372036854775807"),
        ("resourceSliceCount: 1", "resourceSliceCount: 0"),
        ("resourceSliceCount: 1", "resourceSliceCount: 2"),
        ("generation: 1", "generation: -5"),
        ("nodeName: gpu-a", "allNodes: true"),
        (
            "nodeName: gpu-a",
            "nodeSelector: {nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [gpu-a]}]}, {matchExpressions: [{key: x, operator: Exists}]}]}",
        ),
        ("nodeName: gpu-a", "perDeviceNodeSelection: true"),
        ("{name: a1, attributes: {model: {string: A100}}}", "{name: a0, attributes: {model: {string: A100}}}"),
        ("{string: A100}", "{int: 100}"),
        ("{string: A100}", "{version: not-a-version}"),
        (
            "device.driver == \"gpu.example.com\"",
            "[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, [1,2,3,4,5,6,7,8,9,10].all(d, a + b + c + d > 0))))",
        ),
        ("device.driver == \"gpu.example.com\"", "device.attributes[\"x\"].y"),
        ("matchAttribute: gpu.example.com/model", "matchAttribute: nope"),
        ("resourceClaimTemplateName: two-of-a-model", "resourceClaimName: two-of-a-model"),
        ("firstAvailable:", "exactly: {deviceClassName: gpu.example.com}\n          firstAvailable:"),
    ];
    let dir = schedlab_tests::scenarios_dir().join("v135-dra-gpus");
    let base = schedlab_tests::scenario_files(&dir);
    let mut failures = Vec::new();
    for (from, to) in edits {
        let files: Vec<File> = base
            .iter()
            .map(|f| file(&f.name, f.text.replace(from, to)))
            .collect();
        if let Err(m) = survive_v135(&files) {
            failures.push(format!("{from} -> {to}: {m}"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
