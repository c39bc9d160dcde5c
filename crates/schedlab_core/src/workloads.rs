//! Synthetic workloads mirroring kube-scheduler's `scheduler_perf` benchmarks, built directly
//! as model objects (no parsing), for `schedlab bench` and the wasm benchmark; and
//! [`single_pass`], the bare loop of cycles those benchmarks once timed.

use crate::cluster::{Cluster, PodInfo};
use crate::model::resources::Resources;
use crate::model::{Node, Pod, ResourceList};
use crate::scenario::{Scenario, SchedulerVersion};
use crate::sched::fit_error::FailedNodes;
use crate::sched::nominations::Nominations;
use crate::sched::state::SchedulerState;
use crate::scheduler::Scheduler;
use crate::trace::CycleTrace;
use crate::v117::policy::config::SchedulerConfiguration;
use crate::v117::policy::PolicyDocument;

/// The benchmark workloads, after kube-scheduler's `scheduler_perf` (v1.17 legacy benchmarks and
/// the later `performance-config.yaml`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Workload {
    /// `SchedulingBasic`: plain 100m/500Mi pods.
    Basic,
    /// `SchedulingPodAntiAffinity`: pending pods labelled `color: green` with required
    /// anti-affinity to `color: green` on `kubernetes.io/hostname`.
    PodAntiAffinity,
    /// `SchedulingPodAffinity`: every node in zone `zone1`; pending pods labelled `foo: ""` with
    /// required affinity to `foo: ""` on `failure-domain.beta.kubernetes.io/zone`.
    PodAffinity,
    /// `TopologySpreading`: nodes in three zones (`topology.kubernetes.io/zone` moon-1..3);
    /// pending pods labelled `color: blue` with a `DoNotSchedule` constraint (maxSkew 5) on the
    /// zone; a Policy adds `EvenPodsSpread` and `EvenPodsSpreadPriority` to the DefaultProvider.
    TopologySpreading,
    /// `PreemptionBasic`: the bound pods are low-priority (0) pods of 900m, four per node; the
    /// pending pods are high-priority (1000) pods of 3000m, each of which must evict three.
    Preemption,
    /// Dynamic Resource Allocation (issue 37; no upstream `scheduler_perf` twin is read here):
    /// every node publishes one ResourceSlice of 8 devices (driver `gpu.example.com`, its own
    /// pool), one DeviceClass selects the driver's devices with CEL, and every pending pod
    /// has a claim from the template `one-gpu` (one device of the class), generated before
    /// its first cycle. v1.35 only: DRA does not exist in v1.17.
    Dra,
}

impl Workload {
    /// Every workload with its command-line name.
    pub const ALL: [(&'static str, Workload); 6] = [
        ("scheduling-basic", Workload::Basic),
        ("pod-anti-affinity", Workload::PodAntiAffinity),
        ("pod-affinity", Workload::PodAffinity),
        ("topology-spreading", Workload::TopologySpreading),
        ("preemption", Workload::Preemption),
        ("dra", Workload::Dra),
    ];

    /// The workload with this command-line name.
    pub fn parse(name: &str) -> Option<Workload> {
        Self::ALL.iter().find(|(n, _)| *n == name).map(|(_, w)| *w)
    }

    /// The upstream benchmark's name.
    pub fn upstream_name(self) -> &'static str {
        match self {
            Workload::Basic => "SchedulingBasic",
            Workload::PodAntiAffinity => "SchedulingPodAntiAffinity",
            Workload::PodAffinity => "SchedulingPodAffinity",
            Workload::TopologySpreading => "TopologySpreading",
            Workload::Preemption => "PreemptionBasic",
            Workload::Dra => "SchedulingWithResourceClaimTemplate",
        }
    }

    /// The scheduler the workload runs under whatever is asked: DRA exists only in v1.35.
    pub fn scheduler(self, asked: SchedulerVersion) -> SchedulerVersion {
        match self {
            Workload::Dra => SchedulerVersion::V1_35,
            _ => asked,
        }
    }

    /// Default (nodes, bound, pending).
    pub fn default_size(self) -> (usize, usize, usize) {
        match self {
            Workload::Basic => (5000, 5000, 50_000),
            Workload::PodAntiAffinity => (5000, 1000, 2000),
            Workload::PodAffinity => (5000, 5000, 5000),
            Workload::TopologySpreading => (5000, 5000, 5000),
            Workload::Preemption => (1000, 4000, 1000),
            Workload::Dra => (1000, 0, 5000),
        }
    }
}

/// The preemptors' priority in [`Workload::Preemption`].
pub(crate) const HIGH_PRIORITY: i32 = 1000;

/// `SchedulingBasic`-like: `nodes` nodes (4 CPU, 32Gi, 110 pods), `bound` pods already spread
/// round-robin over them, `pending` pods to schedule; every pod requests 100m and 500Mi.
/// `percentage` sets `percentageOfNodesToScore` (0 = adaptive).
pub fn scheduling_basic(nodes: usize, bound: usize, pending: usize, percentage: i32) -> Scenario {
    build(Workload::Basic, nodes, bound, pending, percentage)
}

fn labels(pairs: &[(&str, &str)]) -> crate::model::Labels {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn json_into<T: serde::de::DeserializeOwned>(v: serde_json::Value) -> T {
    serde_json::from_value(v).expect("workload object")
}

/// Builds a workload: `nodes` nodes (4 CPU, 32Gi, 110 pods), `bound` plain pods spread
/// round-robin over them, `pending` pods of the workload's template to schedule; every pod
/// requests 100m and 500Mi. `percentage` sets `percentageOfNodesToScore` (0 = adaptive).
pub fn build(
    workload: Workload,
    nodes: usize,
    bound: usize,
    pending: usize,
    percentage: i32,
) -> Scenario {
    build_for(
        workload,
        nodes,
        bound,
        pending,
        percentage,
        SchedulerVersion::V1_17,
    )
}

/// [`build`] for a scheduler: under v1.35 the pods get v1.35's accounting and the default
/// v1.35 configuration runs (with `percentage` as its `percentageOfNodesToScore`; the
/// TopologySpreading pods' own constraints are read by PodTopologySpread). The DRA workload
/// always runs v1.35 ([`Workload::scheduler`]).
pub fn build_for(
    workload: Workload,
    nodes: usize,
    bound: usize,
    pending: usize,
    percentage: i32,
    scheduler: SchedulerVersion,
) -> Scenario {
    let modern = workload.scheduler(scheduler) == SchedulerVersion::V1_35;
    let mut cluster = Cluster::default();
    for i in 0..nodes {
        cluster.add_node(benchmark_node(workload, i));
    }
    if workload == Workload::Dra {
        dra::devices(&mut cluster, nodes);
    }
    for i in 0..bound {
        let p = match workload {
            Workload::Preemption => plain_pod(format!("low-{i}"), 900),
            _ => plain_pod(format!("bound-{i}"), 100),
        };
        let id = cluster.add_pod(pod_info(modern, p, 0, i));
        if nodes > 0 {
            cluster.bind(id, i % nodes);
        }
    }
    let mut queue = Vec::with_capacity(pending);
    for i in 0..pending {
        let mut p = pending_pod(workload, format!("pending-{i}"));
        if workload == Workload::Dra {
            dra::claim_for(&mut cluster, &mut p);
        }
        let priority = p.spec.priority.unwrap_or(0);
        queue.push(cluster.add_pod(pod_info(modern, p, priority, bound + i)));
    }
    let scheduler = if modern {
        let mut c = crate::v135::config::Configuration::defaults();
        c.percentage_of_nodes_to_score = percentage;
        Scheduler::V135(c)
    } else {
        legacy_scheduler(workload, percentage)
    };
    Scenario {
        cluster,
        queue,
        scheduler: std::sync::Arc::new(scheduler),
        warnings: Vec::new(),
        timeline: Default::default(),
        timeline_pods: Vec::new(),
        extender_answers: Default::default(),
        extender_nodeinfo_fix: false,
    }
}

/// A pod as the cluster keeps it, with v1.35's accounting under v1.35 (`modern`).
fn pod_info(modern: bool, p: Pod, priority: i32, index: usize) -> PodInfo {
    if modern {
        crate::v135::pod_info(p, priority, index)
    } else {
        PodInfo::new(p, priority, index)
    }
}

/// Node `node-{i}`: 4 CPU, 32Gi, 110 pods, labelled with its hostname, and with its zone in
/// PodAffinity (all `zone1`) and TopologySpreading (`moon-1`..`moon-3` in turn).
fn benchmark_node(workload: Workload, i: usize) -> Node {
    let mut n = Node::default();
    n.metadata.name = format!("node-{i}");
    n.metadata
        .labels
        .insert("kubernetes.io/hostname".into(), n.metadata.name.clone());
    match workload {
        Workload::PodAffinity => {
            n.metadata
                .labels
                .insert(crate::cluster::ZONE_LABEL.into(), "zone1".into());
        }
        Workload::TopologySpreading => {
            n.metadata.labels.insert(
                crate::cluster::ZONE_LABEL_GA.into(),
                format!("moon-{}", i % 3 + 1),
            );
        }
        _ => {}
    }
    n.status.allocatable = Some(ResourceList(Resources {
        milli_cpu: 4000,
        memory: 32 << 30,
        pods: 110,
        ..Resources::default()
    }));
    n
}

/// A pod in `default` with one pause container requesting `milli_cpu` and 500Mi.
fn plain_pod(name: String, milli_cpu: i64) -> Pod {
    let mut p = Pod::default();
    p.metadata.name = name;
    p.metadata.namespace = "default".into();
    let mut c = crate::model::pod::Container {
        name: "pause".into(),
        image: "registry.k8s.io/pause:3.1".into(),
        ..Default::default()
    };
    let mut r = Resources {
        milli_cpu,
        memory: 500 << 20,
        ..Resources::default()
    };
    r.has_cpu = true;
    r.has_memory = true;
    c.resources.requests = ResourceList(r);
    p.spec.containers.push(c);
    p
}

/// A pending pod of the workload's template: a plain 100m pod, with the workload's labels and
/// affinity or spread constraint (or, for Preemption, 3000m at high priority).
fn pending_pod(workload: Workload, name: String) -> Pod {
    use serde_json::json;
    let mut p = plain_pod(name, 100);
    match workload {
        Workload::Basic => {}
        Workload::Dra => {
            p.metadata.uid = format!("uid-{}", p.metadata.name);
            p.spec.resource_claims = vec![crate::model::dra::PodResourceClaim {
                name: "gpu".into(),
                resource_claim_name: None,
                resource_claim_template_name: Some(dra::TEMPLATE.into()),
            }];
        }
        Workload::Preemption => {
            p = plain_pod(p.metadata.name, 3000);
            p.spec.priority = Some(HIGH_PRIORITY);
        }
        Workload::PodAntiAffinity => {
            p.metadata.labels = labels(&[("name", "test"), ("color", "green")]);
            p.spec.affinity = Some(json_into(json!({"podAntiAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": [{
                    "labelSelector": {"matchLabels": {"color": "green"}},
                    "topologyKey": "kubernetes.io/hostname"}]}})));
        }
        Workload::PodAffinity => {
            p.metadata.labels = labels(&[("foo", "")]);
            p.spec.affinity = Some(json_into(json!({"podAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": [{
                    "labelSelector": {"matchLabels": {"foo": ""}},
                    "topologyKey": crate::cluster::ZONE_LABEL}]}})));
        }
        Workload::TopologySpreading => {
            p.metadata.labels = labels(&[("color", "blue")]);
            p.spec.topology_spread_constraints = json_into(json!([{
                "maxSkew": 5,
                "topologyKey": crate::cluster::ZONE_LABEL_GA,
                "whenUnsatisfiable": "DoNotSchedule",
                "labelSelector": {"matchLabels": {"color": "blue"}}}]));
        }
    }
    p
}

/// The DRA workload's objects.
mod dra {
    use crate::cluster::Cluster;
    use crate::model::dra::{DeviceClass, ResourceClaimTemplate, ResourceSlice};
    use crate::model::Pod;
    use serde_json::json;
    use std::sync::Arc;

    /// The driver, and the name of the class that selects its devices.
    pub(super) const DRIVER: &str = "gpu.example.com";
    /// The claim template every pending pod names.
    pub(super) const TEMPLATE: &str = "one-gpu";
    /// Devices per node.
    pub(super) const DEVICES_PER_NODE: usize = 8;

    /// The class, the template and one slice of 8 devices per node (`node-{i}`).
    pub(super) fn devices(cluster: &mut Cluster, nodes: usize) {
        let class: DeviceClass = super::json_into(json!({
            "metadata": {"name": DRIVER},
            "spec": {"selectors": [{"cel": {"expression": format!("device.driver == \"{DRIVER}\"")}}]}}));
        let template: ResourceClaimTemplate = super::json_into(json!({
            "metadata": {"name": TEMPLATE, "namespace": "default"},
            "spec": {"spec": {"devices": {"requests": [{"name": "gpu",
                "exactly": {"deviceClassName": DRIVER, "allocationMode": "ExactCount", "count": 1}}]}}}}));
        let slices: Vec<Arc<ResourceSlice>> = (0..nodes)
            .map(|i| {
                let node = format!("node-{i}");
                let devices: Vec<serde_json::Value> = (0..DEVICES_PER_NODE)
                    .map(|d| {
                        json!({"name": format!("gpu-{d}"),
                        "attributes": {"model": {"string": "A100"}, "index": {"int": d}}})
                    })
                    .collect();
                Arc::new(super::json_into(json!({
                    "metadata": {"name": format!("{node}-{DRIVER}")},
                    "spec": {"driver": DRIVER, "nodeName": node,
                        "pool": {"name": node, "generation": 1, "resourceSliceCount": 1},
                        "devices": devices}})))
            })
            .collect();
        let dra = cluster.dra_mut();
        dra.classes.insert(DRIVER.into(), Arc::new(class));
        dra.templates
            .insert(("default".into(), TEMPLATE.into()), Arc::new(template));
        dra.set_slices(slices);
    }

    /// Generates the pod's claim from the template, as the scenario's claim controller does.
    pub(super) fn claim_for(cluster: &mut Cluster, pod: &mut Pod) {
        let dra = cluster.dra();
        let mut counter = dra.claims().len() as u64;
        let generated =
            crate::model::dra::generate::for_pod(pod, &dra.templates, &mut counter, &|n| {
                dra.claim("default", n).is_some()
            });
        for c in generated.claims {
            cluster.dra_mut().add_claim(c, true);
        }
    }
}

/// The v1.17 scheduler of a workload: the DefaultProvider, with `percentage` as
/// `percentageOfNodesToScore`; TopologySpreading adds EvenPodsSpread and
/// EvenPodsSpreadPriority through a Policy.
fn legacy_scheduler(workload: Workload, percentage: i32) -> Scheduler {
    let policy = (workload == Workload::TopologySpreading).then(topology_spreading_policy);
    let config = SchedulerConfiguration {
        percentage_of_nodes_to_score: percentage,
        ..SchedulerConfiguration::default()
    };
    let (scheduler, _) = crate::v117::Scheduler::new(policy.as_ref(), config)
        .expect("the workloads' policies build");
    Scheduler::V117(scheduler)
}

/// The DefaultProvider's predicates and priorities plus `EvenPodsSpread` and
/// `EvenPodsSpreadPriority` (weight 1), as a Policy.
fn topology_spreading_policy() -> PolicyDocument {
    use serde_json::json;
    let mut predicates: Vec<serde_json::Value> = crate::v117::predicates::default_provider()
        .iter()
        .map(|n| json!({"name": n}))
        .collect();
    predicates.push(json!({"name": "EvenPodsSpread"}));
    let mut priorities: Vec<serde_json::Value> = crate::v117::priorities::default_provider()
        .iter()
        .map(|(n, w)| json!({"name": n, "weight": w}))
        .collect();
    priorities.push(json!({"name": "EvenPodsSpreadPriority", "weight": 1}));
    json_into(json!({"kind": "Policy", "apiVersion": "v1",
        "predicates": predicates, "priorities": priorities}))
}

/// What [`single_pass`] did: each cycle, and the `Scheduled` message of each pod it bound.
pub struct SinglePass {
    /// Every cycle, in queue order.
    pub cycles: Vec<CycleTrace>,
    /// `Successfully assigned <pod> to <node>`, for each pod placed.
    pub events: Vec<String>,
}

/// The loop the simulator replaced: each pending pod tried once, in queue order, bound at
/// once; no queue, no history, no preemption. Its cycles are the scheduler's alone
/// (`findNodesThatFit`, `prioritizeNodes`, `selectHost`), so with `percentageOfNodesToScore:
/// 100` on 5000 nodes it times the full scans themselves, split over two threads as a run
/// splits them ([`crate::parallel::with_helper`]).
pub fn single_pass(s: &Scenario, seed: u64, detail: bool) -> SinglePass {
    let mut cluster = s.cluster.clone();
    let order = cluster.node_tree_order();
    let nominations = Nominations::new();
    let mut state = SchedulerState::new(seed);
    let mut failed = FailedNodes::new();
    let mut out = SinglePass {
        cycles: Vec::with_capacity(s.queue.len()),
        events: Vec::with_capacity(s.queue.len()),
    };
    let mut run = || {
        for &pod in &s.queue {
            let trace = match &*s.scheduler {
                Scheduler::V117(v) => crate::v117::cycle::schedule_one(
                    &v.algorithm,
                    &mut state,
                    &cluster,
                    &order,
                    pod,
                    &nominations,
                    detail,
                    &mut failed,
                    None,
                ),
                Scheduler::V135(config) => {
                    // Only pods of a profile are queued.
                    let Some(profile) = config.profile(cluster.pods()[pod].pod.scheduler_name())
                    else {
                        continue;
                    };
                    let global = config.percentage_of_nodes_to_score;
                    let input = crate::v135::cycle::CycleInput {
                        cluster: &cluster,
                        order: &order,
                        pod,
                        nominations: &nominations,
                        nominated: None,
                        detail,
                        extenders: None,
                    };
                    let result =
                        crate::v135::cycle::schedule_pod(profile, global, &mut state, &input);
                    // The devices the pod's claims got count for the pods after it.
                    if let Some(node) = result.trace.node {
                        crate::simulation::dra::write_allocations(
                            &mut cluster,
                            profile,
                            &result,
                            pod,
                            node,
                        );
                    }
                    result.trace
                }
            };
            if let Some(node) = trace.node {
                cluster.bind(pod, node);
                out.events.push(format!(
                    "Successfully assigned {} to {}",
                    cluster.pods()[pod].full_name,
                    cluster.nodes()[node].name()
                ));
            }
            out.cycles.push(trace);
        }
    };
    if s.scheduler.scans_every_node(s.cluster.nodes().len()) {
        crate::parallel::with_helper(run);
    } else {
        run();
    }
    out
}

/// Enables `plugin` (a custom plugin with a Score point) at Score with weight 1, and at
/// PreScore when it has one, in a built v1.35 workload's configuration, which keeps its
/// `percentageOfNodesToScore`: for `schedlab bench --score-plugin`, what a custom plugin costs
/// the run. Err: why it could not be added.
pub fn add_score_plugin(
    scenario: &mut Scenario,
    plugin: &crate::v135::custom::CustomPlugin,
) -> Result<(), String> {
    use crate::v135::plugin::Point;
    let crate::scheduler::Scheduler::V135(old) = &*scenario.scheduler else {
        return Err("a custom plugin runs under v1.35 only (--scheduler v1.35)".into());
    };
    if !plugin.points.has(Point::Score) {
        return Err(format!("{} has no Score point", plugin.name));
    }
    let mut plugins =
        serde_json::json!({"score": {"enabled": [{"name": plugin.name, "weight": 1}]}});
    if plugin.points.has(Point::PreScore) {
        plugins["preScore"] = serde_json::json!({"enabled": [{"name": plugin.name}]});
    }
    let doc = serde_json::json!({
        "apiVersion": "kubescheduler.config.k8s.io/v1",
        "kind": "KubeSchedulerConfiguration",
        "percentageOfNodesToScore": old.percentage_of_nodes_to_score,
        "profiles": [{"schedulerName": "default-scheduler", "plugins": plugins}],
    });
    let read = crate::v135::custom::with_custom_plugins(std::slice::from_ref(plugin), || {
        crate::v135::config::read(doc)
    });
    let (config, _) = read.map_err(|errs| {
        errs.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; ")
    })?;
    scenario.scheduler = std::sync::Arc::new(crate::scheduler::Scheduler::V135(config));
    Ok(())
}

/// The URL prefix of the benchmarks' mock extender.
pub const BENCH_EXTENDER: &str = "http://bench-extender.invalid/scheduler";

/// Adds to a built workload an extender with filter and prioritize verbs (weight 1,
/// `nodeCacheCapable`), answered by an ExtenderMock: the first two nodes fail with a message,
/// every other node passes and scores 5. For `schedlab bench --mock-extender`: what an
/// extender costs the simulation itself. Err: why it could not be added.
pub fn add_mock_extender(scenario: &mut Scenario) -> Result<(), String> {
    use crate::sched::extender::mock::Mock;
    use crate::sched::extender::recording::Recording;
    use crate::sched::extender::{answers::Answers, Extender};
    let ext = Extender {
        url_prefix: BENCH_EXTENDER.into(),
        filter_verb: "filter".into(),
        prioritize_verb: "prioritize".into(),
        weight: 1,
        node_cache_capable: true,
        http_timeout: Some(crate::sched::extender::DEFAULT_TIMEOUT),
        ..Extender::default()
    };
    match std::sync::Arc::get_mut(&mut scenario.scheduler) {
        Some(crate::scheduler::Scheduler::V117(s)) => s.algorithm.settings.extenders.push(ext),
        Some(crate::scheduler::Scheduler::V135(c)) => c.extenders.push(ext),
        None => return Err("the scenario's scheduler is shared".into()),
    }
    let mock = Mock::read(&serde_json::json!({
        "apiVersion": crate::model::SCHEDLAB_API_VERSION,
        "kind": "ExtenderMock",
        "metadata": {"name": "bench"},
        "urlPrefix": BENCH_EXTENDER,
        "rules": [
            {"nodes": ["node-0", "node-1"], "filter": "Fail", "message": "reserved by the extender"},
            {"score": 5}
        ]
    }))
    .map_err(|(path, message)| format!("the mock: {path}: {message}"))?;
    scenario.extender_answers = std::sync::Arc::new(Answers::new(vec![mock], Recording::default()));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::Outcome;

    #[test]
    fn small_workloads_schedule_every_pod_as_expected() {
        for (name, w) in Workload::ALL {
            let run = build(w, 30, 20, 40, 0).run(0, false);
            let scheduled = run
                .cycles
                .iter()
                .filter(|c| c.outcome == Outcome::Scheduled)
                .count();
            // Anti-affinity: one green pod per node, so 30 of 40. Preemption: 20 nodes hold a
            // 900m pod and 10 are empty, so 30 pods of 3000m fit at once; the other 10 cannot
            // preempt (a node's only lower-priority pod frees 900m next to a 3000m pod).
            let want = if matches!(w, Workload::PodAntiAffinity | Workload::Preemption) {
                30
            } else {
                40
            };
            assert_eq!(scheduled, want, "{name}");
        }
    }

    #[test]
    fn every_preemptor_evicts_three_low_priority_pods() {
        // 10 nodes of 4000m, each with four 900m pods (3600m used, 400m free); a 3000m pod
        // needs 3000m free, so three victims (400 + 2700 = 3100) and the fourth is reprieved.
        // Ten preemptors, one per node (a node nominated to one cannot take another), all
        // placed once the victims' 30 s grace period ends.
        let s = build(Workload::Preemption, 10, 40, 10, 0);
        let run = s.run(0, false);
        let deleted = (0..40)
            .filter(|&p| run.phase(p) == crate::simulation::Phase::Deleted)
            .count();
        assert_eq!(deleted, 30);
        for &p in &s.queue {
            assert_eq!(run.phase(p), crate::simulation::Phase::Bound);
        }
        assert_eq!(run.end_time, crate::model::Millis::secs(30));
        let preempting = run.cycles.iter().filter(|c| c.preemption.is_some()).count();
        assert_eq!(preempting, 10);
    }

    #[test]
    fn dra_pods_take_each_device_once_in_both_loops() {
        // 2 nodes of 8 devices and 20 pods of one device each: 16 placed, 4 left without a
        // device, under the full simulation and the single-pass loop alike.
        let s = build(Workload::Dra, 2, 0, 20, 0);
        let placed = |cycles: &[CycleTrace]| {
            cycles
                .iter()
                .filter(|c| c.outcome == Outcome::Scheduled)
                .count()
        };
        let run = s.run(0, false);
        assert_eq!(placed(&run.cycles), 16);
        assert_eq!(placed(&single_pass(&s, 0, false).cycles), 16);
        // Every allocated claim holds a device no other claim holds.
        let mut held: Vec<String> = run
            .cluster
            .dra()
            .claims()
            .iter()
            .filter_map(|e| e.claim.status.allocation.as_ref())
            .flat_map(|a| a.devices.results.iter())
            .map(|r| format!("{}/{}/{}", r.driver, r.pool, r.device))
            .collect();
        assert_eq!(held.len(), 16);
        held.sort();
        held.dedup();
        assert_eq!(held.len(), 16);
    }
}
