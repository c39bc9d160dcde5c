//! End-to-end golden scenarios: `tests/scenarios/<name>/` holds the input files and an
//! `expect.json` of hand-derived facts (see `schedlab_tests` for its format).

use schedlab_tests::run_golden;

macro_rules! golden {
    ($($test:ident => $dir:literal,)*) => {
        $(
            #[test]
            fn $test() {
                run_golden($dir);
            }
        )*

        const ALL: &[&str] = &[$($dir),*];
    };
}

golden! {
    extender_mock => "extender-mock",
    resources_init_extended => "resources-init-extended",
    node_selector_affinity => "node-selector-affinity",
    taints_tolerations_cordon => "taints-tolerations-cordon",
    always_check_all_false => "always-check-all-false",
    always_check_all_true => "always-check-all-true",
    predicate_order_short_circuit => "predicate-order-short-circuit",
    host_ports => "host-ports",
    priority_queue => "priority-queue",
    scheduler_name_and_phases => "scheduler-name-and-phases",
    no_nodes => "no-nodes",
    inter_pod_anti_affinity => "inter-pod-anti-affinity",
    sampling_200_adaptive => "sampling-200-adaptive",
    sampling_cordoned_rotation => "sampling-cordoned-rotation",
    sampling_percentage_config => "sampling-percentage-config",
    least_requested_balanced => "least-requested-balanced",
    ties_seed => "ties-seed",
    histogram_byte_order => "histogram-byte-order",
    node_tree_zones => "node-tree-zones",
    selector_spread_zones => "selector-spread-zones",
    inter_pod_affinity_priority => "inter-pod-affinity-priority",
    image_locality_avoid_pods => "image-locality-avoid-pods",
    volumes_and_labels => "volumes-and-labels",
    even_pods_spread => "even-pods-spread",
    inter_pod_affinity_rules => "inter-pod-affinity-rules",
    inter_pod_affinity_symmetric_preferred => "inter-pod-affinity-symmetric-preferred",
    even_pods_spread_priority => "even-pods-spread-priority",
    volume_binding_zones => "volume-binding-zones",
    volume_counts => "volume-counts",
    volume_zone_errors => "volume-zone-errors",
    timeline_node_added => "timeline-node-added",
    backoff_doubling => "backoff-doubling",
    bind_failure_requeue => "bind-failure-requeue",
    timeline_node_updates => "timeline-node-updates",
    preemption_basic => "preemption-basic",
    v135_fit_balanced => "v135-fit-balanced",
    v135_dra_gpus => "v135-dra-gpus",
    v135_extender_mock => "v135-extender-mock",
    v135_dra_admin_all => "v135-dra-admin-all",
    v135_dra_missing => "v135-dra-missing",
    v135_dra_example_driver => "v135-dra-example-driver",
    v135_dra_nvidia_gpus => "v135-dra-nvidia-gpus",
    v135_inter_pod_affinity_scores => "v135-inter-pod-affinity-scores",
    v135_system_spreading => "v135-system-spreading",
    preemption_pdb_steers => "preemption-pdb-steers",
    preemption_pdb_only_option => "preemption-pdb-only-option",
    preemption_pick_highest_victim => "preemption-pick-highest-victim",
    preemption_pick_first_victim_pdb => "preemption-pick-first-victim-pdb",
    preemption_pick_priority_sum => "preemption-pick-priority-sum",
    preemption_pick_fewest_victims => "preemption-pick-fewest-victims",
    preemption_pick_start_time => "preemption-pick-start-time",
    preemption_pick_first => "preemption-pick-first",
    preemption_policy_never => "preemption-policy-never",
    preemption_disabled => "preemption-disabled",
    preemption_nominated_reserves => "preemption-nominated-reserves",
    preemption_unresolvable => "preemption-unresolvable",
    preemption_clears_lower_nomination => "preemption-clears-lower-nomination",
    v135_fit_error_histogram => "v135-fit-error-histogram",
    v135_score_most_allocated_weights => "v135-score-most-allocated-weights",
    v135_topology_spread_filter => "v135-topology-spread-filter",
    v135_inter_pod_affinity_filter => "v135-inter-pod-affinity-filter",
    v135_preemption_pdb => "v135-preemption-pdb",
    v135_queue_hints => "v135-queue-hints",
    v135_queue_error_backoff => "v135-queue-error-backoff",
    v135_volumes => "v135-volumes",
    v135_multi_profile => "v135-multi-profile",
    v135_translated_policy => "v135-translated-policy",
    v135_nominated_node_first => "v135-nominated-node-first",
    v135_requested_to_capacity_ratio => "v135-requested-to-capacity-ratio",
    v135_prefilter_node_names => "v135-prefilter-node-names",
    v135_preemption_eligibility => "v135-preemption-eligibility",
    v135_pod_requests_sidecars => "v135-pod-requests-sidecars",
    v135_image_locality => "v135-image-locality",
    v135_inter_pod_affinity_preferred => "v135-inter-pod-affinity-preferred",
    v135_topology_spread_scoring => "v135-topology-spread-scoring",
    v135_queue_pod_events => "v135-queue-pod-events",
    v135_taints_tolerations => "v135-taints-tolerations",
    v135_preemption_nominations => "v135-preemption-nominations",
    v135_config_merge_order => "v135-config-merge-order",
    v135_system_spreading_owner => "v135-system-spreading-owner",
    v135_volume_prefilter_errors => "v135-volume-prefilter-errors",
    v135_added_affinity => "v135-added-affinity",
    v135_volume_limits => "v135-volume-limits",
    v135_queue_order => "v135-queue-order",
    v135_balanced_three_resources => "v135-balanced-three-resources",
    v135_spread_taints_policy => "v135-spread-taints-policy",
    v135_next_start_index => "v135-next-start-index",
    v135_nominated_pods_two_passes => "v135-nominated-pods-two-passes",
}

#[test]
fn every_scenario_folder_has_a_test() {
    let mut dirs: Vec<String> = std::fs::read_dir(schedlab_tests::scenarios_dir())
        .expect("tests/scenarios")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    dirs.sort();
    let mut listed: Vec<String> = ALL.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(dirs, listed);
}

fn scenario(name: &str) -> schedlab_core::Scenario {
    schedlab_tests::load_ok(&schedlab_tests::scenario_files(
        &schedlab_tests::scenarios_dir().join(name),
    ))
}

#[test]
fn ties_are_broken_by_the_seed_among_the_tie_set_only() {
    // selectHost (filters.md A.8) picks each tied node with probability 1/3: over 64 seeds every
    // pick is a twin, the same seed picks the same twin, and more than one twin gets picked.
    let s = scenario("ties-seed");
    let mut picked = std::collections::BTreeSet::new();
    for seed in 0..64u64 {
        let r = schedlab_tests::report(&s, seed);
        let node = r["cycles"][0]["node"]
            .as_str()
            .expect("scheduled")
            .to_string();
        assert!(
            ["twin-a", "twin-b", "twin-c"].contains(&node.as_str()),
            "{node}"
        );
        assert_eq!(
            r,
            schedlab_tests::report(&s, seed),
            "seed {seed} is not repeatable"
        );
        picked.insert(node);
    }
    assert!(picked.len() >= 2, "64 seeds always picked {picked:?}");
}

#[test]
fn sampling_third_cycle_avoids_the_node_that_got_a_pod() {
    // In the third cycle of sampling-200-adaptive the window n000..n099 is scanned again; the
    // node that took p1 scores lower on LeastRequested (its 100m/100Mi count), so p3 goes
    // elsewhere.
    let s = scenario("sampling-200-adaptive");
    for seed in [0, 1, 2, 3] {
        let r = schedlab_tests::report(&s, seed);
        assert_ne!(
            r["cycles"][0]["node"], r["cycles"][2]["node"],
            "seed {seed}"
        );
        let t = &r["cycles"][2]["totals"];
        let first = r["cycles"][0]["node"].as_str().expect("node");
        let third = r["cycles"][2]["node"].as_str().expect("node");
        assert!(t[first].as_i64() < t[third].as_i64(), "{t}");
    }
}

#[test]
fn summary_runs_leave_out_the_tables() {
    // cli-contract.md: --summary keeps time, pod, outcome, node, message and preemption.
    let s = scenario("host-ports");
    let r = schedlab_tests::summary(&s, 1);
    for c in r["cycles"].as_array().expect("cycles") {
        let keys: std::collections::BTreeSet<&str> = c
            .as_object()
            .expect("cycle")
            .keys()
            .map(String::as_str)
            .collect();
        for k in ["time", "pod", "outcome", "node", "message", "preemption"] {
            assert!(keys.contains(k), "missing {k}");
        }
        for k in ["filter", "scores", "totals"] {
            assert!(!keys.contains(k), "unexpected {k}");
        }
    }
}

#[test]
fn volume_explanations_name_the_claim_the_volume_and_the_zone() {
    use schedlab_core::trace::explain::explain;
    let s = scenario("volume-binding-zones");
    let run = s.run(0, true);
    let text = |pod: &str| {
        let id = run.find_pod(pod).expect("pod");
        explain(&run.cluster, run.last_cycle_of(id).expect("cycle")).to_string()
    };
    let db0 = text("db-0");
    assert!(
        db0.contains("Claim default/data-db-0 was bound to volume local-b1."),
        "{db0}"
    );
    let zonal = text("zonal");
    assert!(
        zonal.contains("claim disk-a is bound to volume gce-a, which is in failure-domain.beta.kubernetes.io/zone=us-a; this node has \"us-b\""),
        "{zonal}"
    );
    let web = text("web");
    assert!(
        web.contains("claim data-db-0 is bound to volume local-b1, whose spec.nodeAffinity excludes this node"),
        "{web}"
    );
    let db1 = text("db-1");
    assert!(
        db1.contains("claim data-db-1 (class local, requests 8Gi)")
            && db1.contains("the class cannot provision new volumes"),
        "{db1}"
    );
    let provisioned = text("provisioned");
    assert!(
        provisioned.contains("Claim default/fast-0 will be provisioned for this node")
            && provisioned.contains("allowedTopologies, which exclude this node"),
        "{provisioned}"
    );
    let immediate = text("immediate");
    assert!(
        immediate.contains("claim imm has the Immediate class standard"),
        "{immediate}"
    );
    // The provisioned claim is marked for its node; the bound one took its volume.
    let v = &run.cluster.volumes();
    assert_eq!(
        v.pvc("default", "fast-0")
            .expect("claim")
            .metadata
            .annotations["volume.kubernetes.io/selected-node"],
        "zone-b-2"
    );
    let pv = v.pv("local-b1").expect("pv");
    assert_eq!(
        pv.spec.claim_ref.as_ref().map(|r| r.name.as_str()),
        Some("data-db-0")
    );
}

#[test]
fn gallery_volume_zone_pod_waits_for_the_zone_of_its_volume() {
    // assets/scenarios/volume-zone: postgres-0's disk is in eu-west-1b, whose nodes have 500m
    // CPU left for a 1-CPU pod; eu-west-1a has room but the wrong zone (filters.md B.6).
    let dir = schedlab_tests::scenarios_dir().join("../../assets/scenarios/volume-zone");
    let s = schedlab_tests::load_ok(&schedlab_tests::scenario_files(&dir));
    let r = schedlab_tests::report(&s, 0);
    let cycles = r["cycles"].as_array().expect("cycles");
    assert_eq!(cycles[0]["pod"], "default/postgres-0");
    assert_eq!(cycles[0]["outcome"], "Unschedulable");
    assert_eq!(
        cycles[0]["message"],
        "0/4 nodes are available: 2 Insufficient cpu, 2 node(s) had no available volume zone."
    );
    assert_eq!(cycles[1]["pod"], "default/web-0");
    assert_eq!(cycles[1]["outcome"], "Scheduled");
}

#[test]
fn preemption_explanations_name_the_deciding_criterion() {
    use schedlab_core::trace::explain::explain;
    // (scenario, words worked out from its expect.json `about`).
    let cases = [
        (
            "preemption-pick-highest-victim",
            "Preemption: n2 chosen: its highest victim has priority 10, n1's has 20.",
        ),
        (
            "preemption-pdb-steers",
            "Preemption: n2 chosen: its victims violate 0 PodDisruptionBudget(s), n1's would violate 1.",
        ),
        (
            "preemption-pick-start-time",
            "Preemption: n2 chosen: its highest-priority victims started later than n1's",
        ),
    ];
    for (name, want) in cases {
        let run = scenario(name).run(0, true);
        let p = run.find_pod("default/p").expect("pod p");
        let first = run.cycles.iter().find(|c| c.pod == p).expect("a cycle");
        let text = explain(&run.cluster, first).to_string();
        assert!(text.contains(want), "{name}:\n{text}");
        assert!(
            text.contains("default/p is nominated to n2"),
            "{name}:\n{text}"
        );
    }
}

#[test]
fn mock_answers_decide_alike_with_and_without_details() {
    // A run without details takes a plain mock's answers straight from its table; a detailed
    // run reads the reply the mock writes. Every verdict and list kind, in both versions: the
    // same decisions (the detailed path is the one the goldens and the HTTP tests check).
    use schedlab_tests::File;
    let nodes = "apiVersion: v1\nkind: List\nitems:\n\
        - {apiVersion: v1, kind: Node, metadata: {name: n1, labels: {gpu: \"true\"}}, status: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}}}\n\
        - {apiVersion: v1, kind: Node, metadata: {name: n2}, status: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}}}\n\
        - {apiVersion: v1, kind: Node, metadata: {name: n3, labels: {gpu: \"true\"}}, status: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}}}\n\
        - {apiVersion: v1, kind: Node, metadata: {name: n4}, status: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}}}\n\
        - {apiVersion: v1, kind: Pod, metadata: {name: a, labels: {app: x}}, spec: {containers: [{name: c, resources: {requests: {cpu: 100m}}}]}}\n\
        - {apiVersion: v1, kind: Pod, metadata: {name: b}, spec: {containers: [{name: c, resources: {requests: {cpu: \"3\"}}}]}}\n\
        - {apiVersion: v1, kind: Pod, metadata: {name: c}, spec: {containers: [{name: c, resources: {requests: {cpu: \"3\"}}}]}}\n\
        - {apiVersion: v1, kind: Pod, metadata: {name: d, labels: {app: x}}, spec: {containers: [{name: c, resources: {requests: {cpu: \"2\"}}}]}}\n";
    let url = "http://mock.invalid/x";
    for answer_with in ["", "NodeNames", "Nodes"] {
        for cache in [true, false] {
            let verbs = if answer_with.is_empty() {
                String::new()
            } else {
                format!("verbs: {{filter: {{answerWith: {answer_with}}}}}\n")
            };
            let mock = format!(
                "apiVersion: schedlab.dev/v1alpha1\nkind: ExtenderMock\nmetadata: {{name: m}}\nurlPrefix: {url}\n{verbs}rules:\n\
                 - {{nodes: [n1], filter: Fail, message: no free GPU}}\n\
                 - {{nodes: [n2], podSelector: {{app: x}}, filter: Unresolvable, message: gone}}\n\
                 - {{nodeSelector: {{gpu: \"true\"}}, score: 9}}\n\
                 - {{nodes: [n4], score: -3}}\n"
            );
            let policy = format!(
                "{{\"kind\": \"Policy\", \"apiVersion\": \"v1\", \"extenders\": [{{\"urlPrefix\": \"{url}\", \"filterVerb\": \"filter\", \"prioritizeVerb\": \"prioritize\", \"weight\": 2, \"nodeCacheCapable\": {cache}}}]}}"
            );
            let config = format!(
                "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nextenders:\n- {{urlPrefix: \"{url}\", filterVerb: filter, prioritizeVerb: prioritize, weight: 2, nodeCacheCapable: {cache}}}\n"
            );
            for scheduler in [policy, config] {
                let file = |name: &str, text: &str| File {
                    name: name.into(),
                    text: text.into(),
                };
                let name = if scheduler.starts_with('{') {
                    "policy.json"
                } else {
                    "config.yaml"
                };
                let s = schedlab_tests::load_ok(&[
                    file("cluster.yaml", nodes),
                    file("mock.yaml", &mock),
                    file(name, &scheduler),
                ]);
                for seed in [0, 1] {
                    assert_eq!(
                        schedlab_tests::decisions(&schedlab_tests::report(&s, seed)),
                        schedlab_tests::decisions(&schedlab_tests::summary(&s, seed)),
                        "{name}, answerWith {answer_with:?}, nodeCacheCapable {cache}, seed {seed}"
                    );
                }
            }
        }
    }
}
