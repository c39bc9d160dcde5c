//! Real-world inputs from `shared/realworld` (see its SOURCES.md): every expectation listed
//! there, file by file and for the three combined scenarios. Whatever the input: no panic.

use schedlab_core::scheduler::Scheduler;
use schedlab_core::Scenario;
use schedlab_tests::{load, load_ok, read_file, realworld_dir, report, scenario_files, File};
use serde_json::Value;

fn input(name: &str) -> File {
    read_file(&realworld_dir().join("inputs").join(name))
}

fn extra(name: &str, text: &str) -> File {
    File {
        name: name.into(),
        text: text.into(),
    }
}

fn warnings(s: &Scenario) -> Vec<String> {
    s.warnings.iter().map(ToString::to_string).collect()
}

fn errors_of(files: &[File]) -> Vec<String> {
    match load(files) {
        Ok(_) => panic!(
            "{:?} should not load",
            files.iter().map(|f| &f.name).collect::<Vec<_>>()
        ),
        Err(e) => e.iter().map(ToString::to_string).collect(),
    }
}

fn filter_names(s: &Scenario) -> Vec<String> {
    s.scheduler.filter_names()
}

/// The v1.17 scheduler a scenario built.
fn v117(s: &Scenario) -> &schedlab_core::scheduler::v1_17::Scheduler {
    match &*s.scheduler {
        Scheduler::V117(v) => v,
        Scheduler::V135(_) => panic!("v1.35 runs, not v1.17"),
    }
}

/// The v1.35 configuration a scenario built.
fn v135(s: &Scenario) -> &schedlab_core::scheduler::v1_35::Configuration {
    match &*s.scheduler {
        Scheduler::V135(c) => c,
        Scheduler::V117(_) => panic!("v1.17 runs, not v1.35"),
    }
}

/// Whether a v1.17 scenario runs the DefaultProvider's predicates and priorities, as a
/// scenario without any Policy does.
fn runs_the_default_provider(s: &Scenario) -> bool {
    let plain = Scenario::load(&[]).expect("no input loads");
    s.scheduler.filter_names() == plain.scheduler.filter_names()
        && s.scheduler.score_names() == plain.scheduler.score_names()
}

fn cycle_of<'a>(r: &'a Value, pod: &str) -> &'a Value {
    r["cycles"]
        .as_array()
        .expect("cycles")
        .iter()
        .find(|c| c["pod"] == pod)
        .unwrap_or_else(|| panic!("no cycle for {pod}"))
}

fn pod_of<'a>(r: &'a Value, pod: &str) -> Option<&'a Value> {
    r["pods"]
        .as_array()
        .expect("pods")
        .iter()
        .find(|p| p["name"] == pod)
}

const DEFAULT_FILTERS: [&str; 11] = [
    "CheckNodeUnschedulable",
    "GeneralPredicates",
    "NoDiskConflict",
    "PodToleratesNodeTaints",
    "MaxEBSVolumeCount",
    "MaxGCEPDVolumeCount",
    "MaxCSIVolumeCountPred",
    "MaxAzureDiskVolumeCount",
    "CheckVolumeBinding",
    "NoVolumeZoneConflict",
    "MatchInterPodAffinity",
];

// ---- every file on its own ----

#[test]
fn every_input_file_loads_or_fails_cleanly_and_runs() {
    let dir = realworld_dir().join("inputs");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("shared/realworld/inputs beside the clone")
        .map(|e| e.expect("entry").path())
        .collect();
    paths.sort();
    assert_eq!(
        paths.len(),
        44,
        "SOURCES.md lists 30 input files, and 14 more in its v1 section"
    );
    for p in paths {
        let f = read_file(&p);
        // Each file as the inputs choose, and under --scheduler v1.35.
        for scheduler in [None, Some(schedlab_core::scenario::SchedulerVersion::V1_35)] {
            match schedlab_tests::load_with(std::slice::from_ref(&f), scheduler) {
                Ok(s) => {
                    let r = report(&s, 0);
                    assert!(r["cycles"].is_array(), "{}", f.name);
                }
                Err(errs) => {
                    assert!(!errs.is_empty());
                    for e in &errs {
                        assert_eq!(e.file, f.name, "every error names its file: {e}");
                    }
                }
            }
        }
    }
}

// ---- nodes ----

#[test]
fn minikube_node() {
    let s = load_ok(&[input("k9s__node_minikube.json")]);
    assert_eq!(s.cluster.nodes().len(), 1);
    let n = &s.cluster.nodes()[0];
    assert_eq!(n.name(), "minikube");
    assert_eq!(n.allocatable().milli_cpu, 4000);
    assert_eq!(n.allocatable().memory, 8_163_684 * 1024);
    assert_eq!(n.allocatable().ephemeral_storage, 16_954_240 * 1024);
    assert_eq!(n.allocatable().pods, 110);
    assert!(n.object().spec.taints.is_empty(), "no taint");
}

#[test]
fn openshift_gcp_nodes_only_workers_take_an_untolerating_pod() {
    let pods = extra(
        "pods.yaml",
        "apiVersion: v1\nkind: Pod\nmetadata: {name: w1}\nspec:\n  containers: [{name: c, resources: {requests: {cpu: 100m}}}]\n\
---\napiVersion: v1\nkind: Pod\nmetadata: {name: w2}\nspec:\n  containers: [{name: c, resources: {requests: {cpu: 100m}}}]\n\
---\napiVersion: v1\nkind: Pod\nmetadata: {name: w3}\nspec:\n  containers: [{name: c, resources: {requests: {cpu: 100m}}}]\n",
    );
    let s = load_ok(&[input("insights__nodelist_openshift_gcp_6nodes.json"), pods]);
    assert_eq!(s.cluster.nodes().len(), 6);
    for n in s.cluster.nodes() {
        assert_eq!(n.allocatable().milli_cpu, 3500, "{}", n.name());
        assert_eq!(n.allocatable().pods, 250);
        assert_eq!(n.allocatable().scalar("attachable-volumes-gce-pd"), 127);
    }
    let r = report(&s, 3);
    for pod in ["default/w1", "default/w2", "default/w3"] {
        let c = cycle_of(&r, pod);
        assert_eq!(c["outcome"], "Scheduled");
        let node = c["node"].as_str().expect("node");
        assert!(node.contains("-worker-"), "{pod} went to {node}");
        // Masters are rejected by their NoSchedule taint (filters.md B.7).
        let master = &c["filter"]["ci-ln-3z9y7mt-f76d1-69jcr-master-0"];
        assert_eq!(
            master["PodToleratesNodeTaints"],
            serde_json::json!(["node(s) had taints that the pod didn't tolerate"])
        );
    }
}

#[test]
fn nodes_without_kind_are_a_missing_kind_error_naming_the_file() {
    for name in [
        "insights__node_openshift_master0_nokind.json",
        "managedkube__node_gke_preemptible_raw_nokind.json",
    ] {
        let errs = errors_of(&[input(name)]);
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert!(
            errs[0].starts_with(&format!("{name}: missing kind")),
            "{}",
            errs[0]
        );
    }
}

#[test]
fn aks_nodes_with_managed_fields() {
    let s = load_ok(&[input("mobiledgex__nodelist_aks_3nodes_managedfields.json")]);
    let w = warnings(&s);
    assert!(!w.iter().any(|w| w.contains("xtender")), "{w:?}");
    let names: Vec<&str> = s.cluster.nodes().iter().map(|n| n.name()).collect();
    assert_eq!(
        names,
        [
            "aks-agentpool-30520393-vmss000000",
            "aks-agentpool-30520393-vmss000001",
            "aks-agentpool-30520393-vmss000002"
        ]
    );
    let n = &s.cluster.nodes()[0];
    assert_eq!(n.allocatable().milli_cpu, 1900);
    assert_eq!(n.allocatable().memory, 5_497_568 * 1024);
    assert_eq!(n.allocatable().ephemeral_storage, 119_716_326_407);
    assert_eq!(n.allocatable().scalar("attachable-volumes-azure-disk"), 4);
}

#[test]
fn eks_node() {
    let s = load_ok(&[input("qovery__nodelist_eks_1node.json")]);
    assert_eq!(s.cluster.nodes().len(), 1);
    let n = &s.cluster.nodes()[0];
    assert_eq!(n.name(), "ip-10-0-105-29.us-east-2.compute.internal");
    assert_eq!(n.allocatable().milli_cpu, 1930);
    assert_eq!(n.allocatable().memory, 7_408_576 * 1024);
    assert_eq!(n.allocatable().pods, 35);
    assert_eq!(n.allocatable().scalar("attachable-volumes-aws-ebs"), 39);
}

#[test]
fn open_simulator_nodes_use_allocatable_even_above_capacity() {
    let s = load_ok(&[input("opensim__multidoc_nodes_demo1_4nodes.yaml")]);
    let w = warnings(&s);
    assert!(!w.iter().any(|w| w.contains("xtender")), "{w:?}");
    let names: Vec<&str> = s.cluster.nodes().iter().map(|n| n.name()).collect();
    assert_eq!(names, ["master-1", "master-2", "master-3", "worker-1"]);
    for n in s.cluster.nodes() {
        assert_eq!(n.allocatable().milli_cpu, 8000, "{}", n.name());
        assert_eq!(n.allocatable().memory, 16 << 30, "{}", n.name());
    }
    let tainted: Vec<&str> = s
        .cluster
        .nodes()
        .iter()
        .filter(|n| !n.object().spec.taints.is_empty())
        .map(|n| n.name())
        .collect();
    assert_eq!(tainted, ["master-1"]);
}

#[test]
fn numeric_yaml_cpu_is_a_quantity() {
    let s = load_ok(&[input("opensim__node_gpushare_numeric_cpu.yaml")]);
    let n = &s.cluster.nodes()[0];
    assert_eq!(n.allocatable().milli_cpu, 64_000);
    assert_eq!(n.allocatable().memory, 256_000 << 20);
    assert_eq!(n.allocatable().scalar("alibabacloud.com/gpu-count"), 2);
    assert_eq!(
        n.allocatable().scalar("alibabacloud.com/gpu-mem"),
        32_560 << 20
    );
}

// ---- pods and workloads ----

#[test]
fn openshift_podlist_items_take_their_kind() {
    let f = input("insights__podlist_openshift_upshift_nokind_items.json");
    let s = load_ok(std::slice::from_ref(&f));
    // One pending pod; the other pending two are bound to pvx507/pvx510 (not in the input),
    // two are Failed and the rest are bound to nodes not in this file.
    assert_eq!(s.queue.len(), 1);
    assert_eq!(
        s.cluster.pods()[s.queue[0]].full_name,
        "openshift-ingress/router-default-7bbdcfcf9b-7xdln"
    );
    // Priorities come from spec.priority (2000000000 / 2000001000) without PriorityClasses.
    assert_eq!(s.cluster.pods()[s.queue[0]].priority, 2_000_000_000);
    // Pods bound to unknown nodes are accepted (a warning at most), never an error.
    let w = warnings(&s);
    assert!(w.iter().any(|w| w.contains("pvx507")), "{w:?}");
    // Alone there are no nodes: the pending pod's cycle is the no-nodes error.
    let r = report(&s, 0);
    assert_eq!(r["cycles"].as_array().map(Vec::len), Some(1));
    assert_eq!(r["cycles"][0]["outcome"], "Error");
    assert_eq!(
        r["cycles"][0]["message"],
        "no nodes available to schedule pods"
    );
}

#[test]
fn a_pod_bound_to_an_unknown_node_alone_schedules_nothing() {
    let s = load_ok(&[input("k9s__pod_nginx_rs_owned.json")]);
    assert!(s.queue.is_empty());
    let w = warnings(&s);
    assert!(
        w.iter()
            .any(|w| w.contains("gke-k9s-default-pool-0fa2fb89-lbtf")),
        "{w:?}"
    );
    let r = report(&s, 0);
    assert_eq!(r["cycles"], serde_json::json!([]));
}

#[test]
fn static_scheduler_pod_with_a_missing_priority_class() {
    let s = load_ok(&[input("gpushare__pod_kube_scheduler_static.yaml")]);
    assert_eq!(s.queue.len(), 1);
    let p = &s.cluster.pods()[s.queue[0]];
    assert_eq!(p.full_name, "kube-system/kube-scheduler");
    assert_eq!(p.priority, 0);
    assert_eq!(p.request.milli_cpu, 100);
    let w = warnings(&s);
    assert!(
        w.iter().any(|w| w.contains("system-node-critical")),
        "{w:?}"
    );
}

#[test]
fn cluster_capacity_rc_rs_pod() {
    let s = load_ok(&[input("clustercap__multidoc_rc_rs_pod.yaml")]);
    assert_eq!(s.cluster.replication_controllers().len(), 1);
    assert_eq!(
        s.cluster.replication_controllers()[0]
            .1
            .get("app")
            .map(String::as_str),
        Some("nginx")
    );
    // extensions/v1beta1 ReplicaSet: accepted, or skipped with a warning naming the apiVersion.
    let w = warnings(&s);
    assert!(w.iter().any(|w| w.contains("extensions/v1beta1")), "{w:?}");
    assert!(s.cluster.replica_sets().len() <= 1);
    assert_eq!(s.queue.len(), 1);
    let p = &s.cluster.pods()[s.queue[0]];
    assert_eq!(p.full_name, "default/small-pod");
    assert_eq!((p.request.milli_cpu, p.request.memory), (150, 100 << 20));
}

fn topolvm_with_a_node() -> Scenario {
    load_ok(&[
        input("topolvm__multidoc_pvc_pods_ephemeral.yaml"),
        input("k9s__node_minikube.json"),
    ])
}

#[test]
fn topolvm_pvc_pods_are_not_scheduled_without_volumes() {
    let s = topolvm_with_a_node();
    assert_eq!(s.queue.len(), 3);
    let r = report(&s, 0);
    for pod in ["default/my-pod", "default/my-pod-thin"] {
        let c = cycle_of(&r, pod);
        assert_ne!(c["outcome"], "Scheduled", "{pod}: {c}");
        assert_eq!(pod_of(&r, pod).expect("listed")["phase"], "Pending");
    }
}

#[test]
fn topolvm_pvc_pods_fail_with_unbound_immediate_claims() {
    // SOURCES.md: "In v1.17 an unbound PVC whose StorageClass does not exist makes the pod
    // unschedulable". Derived by hand for v1.17: both claims exist in `default` (basic checks
    // pass); their class `topolvm-provisioner(-thin)` is not in the input, so
    // `IsDelayBindingMode` answers false (NotFound is not an error) and the claims are unbound
    // *immediate* claims; the Max*VolumeCount predicates do not count them (no class); on
    // minikube (no zone labels) CheckVolumeBinding is the first to look, and `FindPodVolumes`
    // returns the error "pod has unbound immediate PersistentVolumeClaims", which aborts the
    // cycle (the pod stays Pending, condition Unschedulable with that message). The ephemeral
    // volume is a 1.19 field v1.17 does not know: that pod has no claim and schedules.
    let s = topolvm_with_a_node();
    let r = report(&s, 0);
    for pod in ["default/my-pod", "default/my-pod-thin"] {
        let c = cycle_of(&r, pod);
        assert_eq!(c["outcome"], "Error", "{pod}: {c}");
        assert_eq!(
            c["message"], "pod has unbound immediate PersistentVolumeClaims",
            "{pod}"
        );
        assert_eq!(pod_of(&r, pod).expect("listed")["phase"], "Pending");
    }
    assert_eq!(
        cycle_of(&r, "default/my-pod-ephemeral")["outcome"],
        "Scheduled"
    );
}

#[test]
fn stork_multidoc_warns_for_unused_kinds_and_ignores_the_embedded_policy() {
    let s = load_ok(&[input("stork__multidoc_configmap_policy_deployment.yaml")]);
    let w = warnings(&s);
    for kind in [
        "ConfigMap",
        "ServiceAccount",
        "ClusterRole",
        "ClusterRoleBinding",
        "Deployment",
    ] {
        assert!(
            w.iter().any(|x| x.contains(&format!("skipped {kind}"))),
            "{kind}: {w:?}"
        );
    }
    assert_eq!(s.cluster.services().len(), 1, "the Service is read");
    assert!(
        runs_the_default_provider(&s),
        "the Policy inside the ConfigMap is not applied"
    );
}

#[test]
fn contract_storage_kinds_are_read_not_skipped() {
    // cli-contract.md "Objects read, by kind" lists PersistentVolume, PersistentVolumeClaim,
    // StorageClass and CSINode; SOURCES.md: "Service and StorageClass are read" (stork),
    // "3 objects, 0 errors" (k9s list, whose PVC names a PV that is not in the input).
    for name in [
        "stork__multidoc_configmap_policy_deployment.yaml",
        "k9s__list_gce_storageclass_pv_pvc.json",
    ] {
        let s = load_ok(&[input(name)]);
        for w in warnings(&s) {
            for kind in [
                "StorageClass",
                "PersistentVolume",
                "PersistentVolumeClaim",
                "CSINode",
            ] {
                assert!(!w.contains(&format!("skipped {kind}:")), "{name}: {w}");
            }
        }
    }
    let stork = load_ok(&[input("stork__multidoc_configmap_policy_deployment.yaml")]);
    assert_eq!(stork.cluster.volumes().classes.len(), 1);
    let k9s = load_ok(&[input("k9s__list_gce_storageclass_pv_pvc.json")]);
    let v = &k9s.cluster.volumes();
    assert_eq!(
        (v.classes.len(), v.pvs.len(), v.pvcs.len()),
        (1, 1, 1),
        "3 objects"
    );
    let pvc = v.pvcs.values().next().expect("one claim");
    assert!(
        v.pv(&pvc.spec.volume_name).is_none(),
        "the claim's volume is another one, not in the input: tolerated"
    );
}

#[test]
fn contract_pdb_is_read_not_skipped() {
    // cli-contract.md "Objects read, by kind" lists PodDisruptionBudget; SOURCES.md: "1 PDB,
    // 0 errors" (k9s pdb).
    let s = load_ok(&[input("k9s__pdb_policy_v1.json")]);
    for w in warnings(&s) {
        assert!(!w.contains("skipped PodDisruptionBudget:"), "{w}");
    }
    assert_eq!(s.cluster.pdbs().len(), 1);
}

#[test]
fn replicaset_with_a_wrong_api_version() {
    let f = input("k9s__replicaset_wrong_apiversion.json");
    match load(std::slice::from_ref(&f)) {
        Ok(s) => {
            let w = warnings(&s);
            assert!(
                w.iter().any(|w| w.contains("networking.k8s.io/v1")),
                "{w:?}"
            );
        }
        Err(errs) => assert!(
            errs.iter()
                .any(|e| e.to_string().contains("networking.k8s.io/v1")),
            "{errs:?}"
        ),
    }
}

#[test]
fn raw_service_list() {
    let s = load_ok(&[input("managedkube__servicelist_gke_raw.json")]);
    assert_eq!(s.cluster.services().len(), 12);
    let k = s
        .cluster
        .services()
        .iter()
        .find(|x| x.metadata.name == "kubernetes")
        .expect("default/kubernetes");
    assert!(k.spec.selector.is_empty());
    // Same names in two namespaces are two services.
    let grafana = s
        .cluster
        .services()
        .iter()
        .filter(|x| x.metadata.name == "cost-attribution-grafana")
        .count();
    assert_eq!(grafana, 2);
}

#[test]
fn selectorless_service_matches_no_pod() {
    // The kubernetes Service has no selector: a pod in `default` is not spread by it, so
    // SelectorSpread's raw count stays 0 on a node that already holds a matching-label pod.
    let cluster = extra(
        "cluster.yaml",
        "apiVersion: v1\nkind: Node\nmetadata: {name: a}\nstatus: {allocatable: {cpu: '4', memory: 8Gi, pods: '10'}}\n---\n\
apiVersion: v1\nkind: Node\nmetadata: {name: b}\nstatus: {allocatable: {cpu: '4', memory: 8Gi, pods: '10'}}\n---\n\
apiVersion: v1\nkind: Pod\nmetadata: {name: old, labels: {component: apiserver}}\nspec: {nodeName: a, containers: [{name: c}]}\n---\n\
apiVersion: v1\nkind: Pod\nmetadata: {name: new, labels: {component: apiserver}}\nspec: {containers: [{name: c}]}\n",
    );
    let s = load_ok(&[input("managedkube__servicelist_gke_raw.json"), cluster]);
    let r = report(&s, 0);
    let c = cycle_of(&r, "default/new");
    assert_eq!(c["scores"]["a"]["SelectorSpreadPriority"]["raw"], 0);
    assert_eq!(c["scores"]["a"]["SelectorSpreadPriority"]["score"], 100);
}

#[test]
fn storage_list_and_pdb_load_without_errors() {
    for name in [
        "k9s__list_gce_storageclass_pv_pvc.json",
        "k9s__pdb_policy_v1.json",
    ] {
        let s = load_ok(&[input(name)]);
        assert!(s.queue.is_empty(), "{name}");
    }
}

#[test]
fn simulator_snapshot_format_is_not_a_kubernetes_object() {
    let errs = errors_of(&[input("ksimulator__import_body_foreign_format.json")]);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0].starts_with("ksimulator__import_body_foreign_format.json: missing kind"),
        "{}",
        errs[0]
    );
}

// ---- policies ----

#[test]
fn classic_policy_with_legacy_names() {
    // PodFitsPorts is registered in v1.17 but absent from Ordering(), so it never runs
    // (filters.md A.5, C.2): accepted with one warning that says so.
    let s = load_ok(&[input("k8s__policy_classic_legacy_names.json")]);
    let w = warnings(&s);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].contains("predicates[0].name: PodFitsPorts is accepted but never runs"),
        "{}",
        w[0]
    );
    assert_eq!(
        filter_names(&s),
        [
            "CheckNodeUnschedulable",
            "HostName",
            "MatchNodeSelector",
            "PodFitsResources",
            "NoDiskConflict",
            "PodToleratesNodeTaints",
        ]
    );
}

#[test]
fn extender_only_policy_keeps_the_default_provider() {
    let s = load_ok(&[input("k8s__policy_extender_only.json")]);
    assert_eq!(filter_names(&s), DEFAULT_FILTERS);
    assert_eq!(v117(&s).algorithm.scores.len(), 8);
    // Not called silently: with no server, no mock and no recording the filter call fails,
    // and a non-ignorable extender's failure is the cycle's error (no preemption).
    let pod = extra(
        "pod.yaml",
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c}]\n",
    );
    let s = load_ok(&[
        input("k8s__policy_extender_only.json"),
        input("k9s__node_minikube.json"),
        pod,
    ]);
    let r = report(&s, 0);
    let c = cycle_of(&r, "default/p");
    assert_eq!(c["outcome"], "Error", "{c}");
    let message = c["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("http://127.0.0.1:12346/scheduler")
            && message.contains("no recorded reply"),
        "{message}"
    );
}

#[test]
fn gpushare_extender_resource_is_still_checked() {
    let pod = extra(
        "pod.yaml",
        "apiVersion: v1\nkind: Pod\nmetadata: {name: gpu}\nspec:\n  containers:\n  - name: c\n    resources: {requests: {aliyun.com/gpu-mem: '1'}}\n",
    );
    let s = load_ok(&[
        input("gpushare__policy_extender_managed_resources.json"),
        input("k9s__node_minikube.json"),
        pod,
    ]);
    assert_eq!(filter_names(&s), DEFAULT_FILTERS);
    // The predicates leave no node, so the extender is never asked (no answer needed).
    let r = report(&s, 0);
    assert_eq!(
        cycle_of(&r, "default/gpu")["message"],
        "0/1 nodes are available: 1 Insufficient aliyun.com/gpu-mem."
    );
}

#[test]
fn topolvm_ignored_by_scheduler_resource_is_not_checked() {
    let mut policy_file = input("topolvm__policy_extender_ignoredbyscheduler.cfg.json");
    // The original is named scheduler-policy.cfg: JSON is detected from the content.
    policy_file.name = "scheduler-policy.cfg".into();
    let pod = extra(
        "pod.yaml",
        "apiVersion: v1\nkind: Pod\nmetadata: {name: lvm}\nspec:\n  containers:\n  - name: c\n    resources: {requests: {topolvm.cybozu.com/capacity: 10Gi}}\n",
    );
    // topolvm's extender answers from a mock that keeps every node (its score: 0).
    let mock = extra(
        "mock.yaml",
        "apiVersion: schedlab.dev/v1alpha1\nkind: ExtenderMock\nmetadata: {name: topolvm}\nurlPrefix: http://127.0.0.1:9251\n",
    );
    let s = load_ok(&[policy_file, input("k9s__node_minikube.json"), pod, mock]);
    assert_eq!(
        v117(&s).algorithm.settings.ignored_resources,
        ["topolvm.cybozu.com/capacity"]
    );
    let w = warnings(&s);
    assert!(!w.iter().any(|w| w.contains("xtender")), "{w:?}");
    let r = report(&s, 0);
    let c = cycle_of(&r, "default/lvm");
    assert_eq!(c["outcome"], "Scheduled", "{c}");
    assert_eq!(c["node"], "minikube");
}

#[test]
fn openshift311_policy_custom_region_and_zone() {
    let s = load_ok(&[input("acsengine__policy_openshift311_region_zone.json")]);
    // Removed condition predicates: accepted with a warning naming them.
    let w = warnings(&s);
    for name in ["CheckNodeMemoryPressure", "CheckNodeDiskPressure"] {
        assert!(w.iter().any(|x| x.contains(name)), "{name}: {w:?}");
    }
    assert_eq!(filter_names(&s), OPENSHIFT311_FILTERS);
    // With the GCP nodes, a pod lands on a worker; Region appears in `filter`, Zone (weight 2)
    // in `scores`; no node has a `zone` label, so Zone scores 0 everywhere (scores.md 2.7).
    let pod = extra(
        "pod.yaml",
        "apiVersion: v1\nkind: Pod\nmetadata: {name: app}\nspec:\n  containers: [{name: c}]\n",
    );
    let s = load_ok(&[
        input("acsengine__policy_openshift311_region_zone.json"),
        input("insights__nodelist_openshift_gcp_6nodes.json"),
        pod,
    ]);
    let r = report(&s, 0);
    let c = cycle_of(&r, "default/app");
    assert_eq!(c["outcome"], "Scheduled");
    let worker = "ci-ln-3z9y7mt-f76d1-69jcr-worker-b-q6vs9";
    assert_eq!(c["filter"][worker]["Region"], serde_json::json!([]));
    let scores = c["scores"].as_object().expect("scores");
    assert_eq!(scores.len(), 3, "the three workers are scored");
    for (node, s) in scores {
        assert_eq!(s["Zone"]["weight"], 2, "{node}");
        assert_eq!(s["Zone"]["score"], 0, "{node}");
        assert_eq!(s["NodePreferAvoidPodsPriority"]["weight"], 10000);
    }
}

// ---- KubeSchedulerConfiguration ----

#[test]
fn v1alpha1_config_with_a_policy_file_reference() {
    let s = load_ok(&[input(
        "topolvm__ksc_v1alpha1_algorithmsource_policy_file.yaml",
    )]);
    assert_eq!(v117(&s).config.scheduler_name, "default-scheduler");
    let w = warnings(&s);
    assert!(
        w.iter().any(|w| w.contains("algorithmSource.policy.file")),
        "{w:?}"
    );
    assert_eq!(filter_names(&s), DEFAULT_FILTERS);
}

#[test]
fn config_versions_v1_35_no_longer_reads_are_refused_in_upstreams_words() {
    // SOURCES.md, "Rejected: apiVersion that v1.35 no longer reads", and the v1alpha2 /
    // v1beta1 / v1beta2 files of the older section: only v1alpha1 (v1.17) and v1 are read.
    for (name, api) in [
        (
            "schedplugins__ksc_v1alpha2_coscheduling.yaml",
            "kubescheduler.config.k8s.io/v1alpha2",
        ),
        (
            "schedplugins__ksc_v1beta1_coscheduling_pluginconfig.yaml",
            "kubescheduler.config.k8s.io/v1beta1",
        ),
        (
            "gpushare__ksc_v1beta2_extender.yaml",
            "kubescheduler.config.k8s.io/v1beta2",
        ),
        (
            "schedplugins__ksc_v1beta3_trimaran_removed_leastallocated.yaml",
            "kubescheduler.config.k8s.io/v1beta3",
        ),
        (
            "k8s__ksc_v1beta1_serviceaffinity_full_legacy_fields.yaml",
            "kubescheduler.config.k8s.io/v1beta1",
        ),
        (
            "fgdsim__ksc_v1beta1_gpu_frag_custom_binder_pct100.yaml",
            "kubescheduler.config.k8s.io/v1beta1",
        ),
    ] {
        let errs = errors_of(&[input(name)]);
        assert_eq!(errs.len(), 1, "{name}: {errs:?}");
        let want = format!(
            "{name}: apiVersion: no kind \"KubeSchedulerConfiguration\" is registered for version {api:?}"
        );
        assert!(errs[0].starts_with(&want), "{}", errs[0]);
    }
}

#[test]
fn v1_configurations_select_v1_35_and_load_as_upstream_reads_them() {
    use schedlab_core::scenario::SchedulerVersion;
    use schedlab_core::scheduler::v1_35::Point;
    // SOURCES.md, "Accepted configurations": each loads with 0 errors under v1.35.
    for name in [
        "k8sweb__ksc_v1_two_profiles_no_scoring.yaml",
        "k8sweb__ksc_v1_rtcr_shape_extended_resources_only.yaml",
        "openshift__ksc_v1_highnodeutilization_mostallocated_fit5.yaml",
        "openshift__ksc_v1_defaultconfig_leaderelection_no_profiles.yaml",
        "k8s__ksc_v1_pts_list_empty_defaultconstraints.yaml",
        "homecdk8s__ksc_v1_pts_list_zone_clientconnection.yaml",
        "mostallocsched__ksc_v1_custom_only_profile_explicit_filter_order.yaml",
        "ksimulator__ksc_v1_minimal.yaml",
    ] {
        let s = load_ok(&[input(name)]);
        assert_eq!(s.version(), SchedulerVersion::V1_35, "{name}");
    }
    // The two-profiles file: both profiles, and the second has no Score plugin.
    let s = load_ok(&[input("k8sweb__ksc_v1_two_profiles_no_scoring.yaml")]);
    let m = v135(&s);
    let names: Vec<&str> = m
        .profiles
        .iter()
        .map(|p| p.scheduler_name.as_str())
        .collect();
    assert_eq!(names, ["default-scheduler", "no-scoring-scheduler"]);
    let no_scoring = m.profile("no-scoring-scheduler").expect("profile");
    assert!(no_scoring.names_at(Point::Score).is_empty());
    assert!(no_scoring.names_at(Point::PreScore).is_empty());
    // mostallocsched: only custom-scheduler exists, in the Filter order SOURCES.md gives.
    let s = load_ok(&[input(
        "mostallocsched__ksc_v1_custom_only_profile_explicit_filter_order.yaml",
    )]);
    let m = v135(&s);
    assert!(m.profile("default-scheduler").is_none());
    let custom = m.profile("custom-scheduler").expect("custom-scheduler");
    assert_eq!(
        custom.names_at(Point::Filter),
        [
            "NodeResourcesFit",
            "NodeUnschedulable",
            "NodeName",
            "TaintToleration",
            "NodeAffinity",
            "VolumeBinding",
            "NodePorts",
            "InterPodAffinity",
            "VolumeRestrictions",
            "NodeVolumeLimits",
            "VolumeZone",
            "PodTopologySpread",
            "DynamicResources",
        ]
    );
}

#[test]
fn v1_configurations_upstream_refuses_name_the_file_path_and_plugin() {
    for (name, path, text) in [
        (
            "schedplugins__ksc_v1_noderesourcesallocatable_disable_all.yaml",
            "profiles[0].plugins.score.enabled",
            "ScorePlugin \"NodeResourcesAllocatable\" does not exist",
        ),
        (
            "schedplugins__ksc_v1_coscheduling_multipoint_queuesort_disable_all.yaml",
            "profiles[0].plugins.queueSort.enabled[0]",
            "QueueSortPlugin \"Coscheduling\" does not exist",
        ),
        (
            "wasmext__ksc_v1_multipoint_wasm_nodenumber_extender.yaml",
            "profiles[0].plugins.multiPoint.enabled[0]",
            "PreFilterPlugin \"wasm\" does not exist",
        ),
        ("timohomelab__ksc_v1_profiles_is_a_map.yaml", "profiles", ""),
    ] {
        let errs = errors_of(&[input(name)]);
        assert!(
            errs.iter()
                .any(|e| e.starts_with(&format!("{name}: {path}")) && e.contains(text)),
            "{name}: {errs:?}"
        );
    }
    // Four configurations in one file: the later three are errors of their own, and the first
    // fails on its out-of-tree score plugin.
    let name = "schedplugins__ksc_v1_nodemetadata_multidoc_4configs.yaml";
    let errs = errors_of(&[input(name)]);
    assert_eq!(
        errs.iter()
            .filter(|e| e.contains("a second KubeSchedulerConfiguration"))
            .count(),
        3,
        "{errs:?}"
    );
    assert!(
        errs.iter()
            .any(|e| e.contains("profiles[0].plugins.score.enabled[0]")
                && e.contains("ScorePlugin \"NodeMetadata\" does not exist")),
        "{errs:?}"
    );
}

#[test]
fn a_legacy_policy_and_a_v1_configuration_do_not_mix() {
    let errs = errors_of(&[
        input("k8s__policy_classic_legacy_names.json"),
        input("ksimulator__ksc_v1_minimal.yaml"),
    ]);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0].starts_with("k8s__policy_classic_legacy_names.json")
            && errs[0].contains("ksimulator__ksc_v1_minimal.yaml")
            && errs[0].contains("schedlab translate"),
        "{}",
        errs[0]
    );
}

// ---- combined scenarios ----

fn realworld_scenario(name: &str) -> Scenario {
    load_ok(&scenario_files(
        &realworld_dir().join("scenarios").join(name),
    ))
}

/// The OpenShift 3.11 policy's filters in v1.17 `Ordering()` order (filters.md A.5): its two
/// removed condition predicates are gone, and `Region` (serviceAffinity) sits at the
/// CheckServiceAffinity slot; PodToleratesNodeTaints and CheckNodeUnschedulable are mandatory.
const OPENSHIFT311_FILTERS: [&str; 11] = [
    "CheckNodeUnschedulable",
    "GeneralPredicates",
    "NoDiskConflict",
    "PodToleratesNodeTaints",
    "Region",
    "MaxEBSVolumeCount",
    "MaxGCEPDVolumeCount",
    "MaxAzureDiskVolumeCount",
    "CheckVolumeBinding",
    "NoVolumeZoneConflict",
    "MatchInterPodAffinity",
];

const WORKER0: &str = "worker-0.imeixner20210707.lab.upshift.rdu2.redhat.com";
const MASTER0: &str = "master-0.imeixner20210707.lab.upshift.rdu2.redhat.com";

#[test]
fn openshift_router_goes_to_worker_0() {
    let s = realworld_scenario("openshift-upshift-router-pending");
    // Warnings at most for the pods bound to pvx507/pvx510, plus the removed predicates the
    // Policy names (the contract warns about those).
    for w in warnings(&s) {
        assert!(
            w.contains("pvx507")
                || w.contains("pvx510")
                || w.contains("CheckNodeMemoryPressure")
                || w.contains("CheckNodeDiskPressure"),
            "unexpected warning {w}"
        );
    }
    assert_eq!(s.queue.len(), 1);
    let r = report(&s, 0);
    let cycles = r["cycles"].as_array().expect("cycles");
    assert_eq!(cycles.len(), 1);
    let c = &cycles[0];
    assert_eq!(
        c["pod"],
        "openshift-ingress/router-default-7bbdcfcf9b-7xdln"
    );
    assert_eq!(c["outcome"], "Scheduled");
    assert_eq!(c["node"], WORKER0);
    // master-0 fails the worker nodeSelector inside GeneralPredicates (before the taint check).
    assert_eq!(
        c["filter"][MASTER0],
        serde_json::json!({"CheckNodeUnschedulable": [],
            "GeneralPredicates": ["node(s) didn't match node selector"]})
    );
    // worker-0 passes every configured predicate, Region at the CheckServiceAffinity slot; the
    // removed condition predicates never run.
    let want: serde_json::Map<String, Value> = OPENSHIFT311_FILTERS
        .iter()
        .map(|k| (k.to_string(), serde_json::json!([])))
        .collect();
    assert_eq!(c["filter"][WORKER0], Value::Object(want));
    // The only feasible node: no scoring.
    assert_eq!(c["totals"], serde_json::json!({}));
    assert_eq!(
        pod_of(&r, "openshift-ingress/router-default-7bbdcfcf9b-7xdln").expect("listed")["node"],
        WORKER0
    );
}

#[test]
fn openshift_bound_pods_count_and_failed_pods_are_ignored() {
    let s = realworld_scenario("openshift-upshift-router-pending");
    let pods: Value = serde_json::from_str(
        &read_file(&realworld_dir().join("scenarios/openshift-upshift-router-pending/pods.json"))
            .text,
    )
    .expect("pods.json");
    let r = report(&s, 0);
    let mut bound = 0;
    for p in pods["items"].as_array().expect("items") {
        let name = format!(
            "{}/{}",
            p["metadata"]["namespace"].as_str().unwrap_or("default"),
            p["metadata"]["name"].as_str().expect("name")
        );
        let node = p["spec"]["nodeName"].as_str().unwrap_or("");
        let phase = p["status"]["phase"].as_str().unwrap_or("");
        let entry = pod_of(&r, &name);
        if phase == "Failed" {
            if let Some(e) = entry {
                assert_ne!(e["phase"], "Bound", "{name} is Failed");
            }
        } else if node == MASTER0 || node == WORKER0 {
            bound += 1;
            let e = entry.unwrap_or_else(|| panic!("{name} missing"));
            assert_eq!(e["phase"], "Bound", "{name}");
            assert_eq!(e["node"], node, "{name}");
        } else if node.starts_with("pvx") {
            if let Some(e) = entry {
                assert_ne!(e["phase"], "Bound", "{name} is on an unknown node");
            }
        }
    }
    assert_eq!(bound, 30);
    // They count on their nodes: master-0 has 28 pods, worker-0 two plus the router.
    let count = |n: &str| {
        s.cluster
            .nodes()
            .iter()
            .find(|x| x.name() == n)
            .map(|x| x.pods().len())
    };
    assert_eq!(count(MASTER0), Some(28));
    assert_eq!(count(WORKER0), Some(2));
}

#[test]
fn aks_small_pod_ties_across_the_three_nodes() {
    let s = realworld_scenario("aks-3nodes-clustercap-legacy-policy");
    assert_eq!(s.cluster.nodes().len(), 3);
    assert_eq!(s.cluster.replication_controllers().len(), 1);
    let w = warnings(&s);
    assert!(
        s.cluster.replica_sets().len() == 1 || w.iter().any(|x| x.contains("extensions/v1beta1")),
        "{w:?}"
    );
    let nodes = [
        "aks-agentpool-30520393-vmss000000",
        "aks-agentpool-30520393-vmss000001",
        "aks-agentpool-30520393-vmss000002",
    ];
    // small-pod (150m/100Mi) on 1900m / 5497568Ki (5497564Ki on the third): LR
    // ((1750*100)/1900 = 92 + 98) / 2 = 95; BRA int((1 - |0.0789 - 0.0186|) * 100) = 93;
    // ServiceSpreading: the ReplicaSet selects the pod but no pod is placed yet, so 100 (with
    // zones: 100/3 + 2/3*100 = 100); EqualPriority 1. Total 95 + 93 + 100 + 1 = 289 on each.
    let mut picked = std::collections::BTreeSet::new();
    for seed in 0..16 {
        let r = report(&s, seed);
        let c = cycle_of(&r, "default/small-pod");
        assert_eq!(c["outcome"], "Scheduled");
        let node = c["node"].as_str().expect("node").to_string();
        assert!(nodes.contains(&node.as_str()), "{node}");
        picked.insert(node);
        for n in nodes {
            assert_eq!(c["totals"][n], 289, "{n}: {}", c["totals"]);
            let sc = &c["scores"][n];
            assert_eq!(sc["LeastRequestedPriority"]["score"], 95, "{n}");
            assert_eq!(sc["BalancedResourceAllocation"]["score"], 93, "{n}");
            assert_eq!(sc["ServiceSpreadingPriority"]["score"], 100, "{n}");
            assert_eq!(sc["EqualPriority"]["score"], 1, "{n}");
        }
    }
    assert!(
        picked.len() >= 2,
        "the seed should break the tie: {picked:?}"
    );
}

#[test]
fn opensim_masters_with_a_v1alpha1_config() {
    let s = realworld_scenario("opensim-masters-v1alpha1-config");
    let w = warnings(&s);
    assert!(
        w.iter().any(|x| x.contains("algorithmSource.policy.file")),
        "{w:?}"
    );
    assert!(
        runs_the_default_provider(&s),
        "the referenced policy file is not read"
    );
    assert_eq!(filter_names(&s), DEFAULT_FILTERS);
    for seed in 0..8 {
        let r = report(&s, seed);
        let single = cycle_of(&r, "default/single-pod");
        let sched = cycle_of(&r, "kube-system/kube-scheduler");
        assert_eq!(single["outcome"], "Scheduled");
        assert_eq!(sched["outcome"], "Scheduled");
        let a = single["node"].as_str().expect("node");
        let b = sched["node"].as_str().expect("node");
        assert!(["master-1", "master-2", "master-3"].contains(&a), "{a}");
        assert!(["master-2", "master-3", "worker-1"].contains(&b), "{b}");
        // Allocatable (8 cpu / 16Gi) is used, not capacity: an empty node gives
        // LR ((7900*100)/8000 = 98 + (16184*100)/16384 = 98) / 2 = 98, BRA 99, so
        // 100 + 98 + 99 + 1000000 + 100 = 1000397 (capacity would give LR 97).
        for m in ["master-1", "master-2", "master-3"] {
            assert_eq!(single["totals"][m], 1000397, "{m}");
        }
        // The node that took single-pod now scores lower for kube-scheduler.
        if a != "master-1" {
            assert_ne!(a, b, "seed {seed}");
        }
    }
}

#[test]
fn k9s_claim_bound_to_a_volume_not_in_the_input() {
    // The k9s PVC www-nginx-sts-0 is fully bound (bind-completed) to pvc-fbabd470..., which is
    // not in the file. v1.17 for a pod using it on minikube (no zone labels): basic checks pass
    // (the claim exists); MaxGCEPDVolumeCount counts it through its class (gce-pd, 1 <= 16);
    // MaxCSIVolumeCountPred finds no CSI driver (gce-pd not migrated); CheckVolumeBinding's
    // checkBoundClaims cannot find the volume in its cache: the cycle ends with that error.
    let pod = extra(
        "pod.yaml",
        "apiVersion: v1\nkind: Pod\nmetadata: {name: web-0}\nspec:\n  containers: [{name: c}]\n  volumes:\n  - name: www\n    persistentVolumeClaim: {claimName: www-nginx-sts-0}\n",
    );
    let s = load_ok(&[
        input("k9s__list_gce_storageclass_pv_pvc.json"),
        input("k9s__node_minikube.json"),
        pod,
    ]);
    let r = report(&s, 0);
    let c = cycle_of(&r, "default/web-0");
    assert_eq!(c["outcome"], "Error", "{c}");
    assert_eq!(
        c["message"],
        "could not find v1.PersistentVolume \"pvc-fbabd470-8725-11e9-a8e8-42010a80015b\""
    );
}
