//! Small targeted scenarios for edge cases of the reference, each with its expectation worked
//! out by hand in the comment above it (filters.md / scores.md section cited).

use schedlab_tests::{load, load_ok, report, File};
use serde_json::{json, Value};

fn run(yaml: &str) -> Value {
    let s = load_ok(&[File {
        name: "cluster.yaml".into(),
        text: yaml.into(),
    }]);
    report(&s, 0)
}

fn cycle<'a>(r: &'a Value, pod: &str) -> &'a Value {
    r["cycles"]
        .as_array()
        .expect("cycles")
        .iter()
        .find(|c| c["pod"] == pod)
        .unwrap_or_else(|| panic!("no cycle for {pod} in {r}"))
}

fn node(name: &str, extra: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Node\nmetadata:\n  name: {name}\n{extra}status:\n  allocatable: {{cpu: '4', memory: 4Gi, pods: '10'}}\n---\n"
    )
}

fn score(c: &Value, node: &str, prio: &str) -> Value {
    c["scores"][node][prio]["score"].clone()
}

const ONLY_EQUAL: &str =
    "apiVersion: v1\nkind: Policy\npriorities: [{name: EqualPriority, weight: 1}]\n---\n";

// ---- filters ----

/// The errors of a text that must not load, each as `file: path: message`.
fn refused(yaml: &str) -> Vec<String> {
    match load(&[File {
        name: "cluster.yaml".into(),
        text: yaml.into(),
    }]) {
        Ok(_) => panic!("should not load:\n{yaml}"),
        Err(e) => e.iter().map(ToString::to_string).collect(),
    }
}

#[test]
fn empty_key_equal_toleration_tolerates_only_empty_values() {
    // B.7: empty key skips the key check; Equal with empty value matches only empty values.
    // kube-apiserver refuses an empty key with any operator but Exists (ValidateTolerations),
    // so such a pod never reaches the scheduler; with Exists it tolerates every value.
    let nodes = format!(
        "{}{}",
        node(
            "empty",
            "spec:\n  taints: [{key: anything, effect: NoSchedule}]\n"
        ),
        node(
            "valued",
            "spec:\n  taints: [{key: anything, value: v, effect: NoSchedule}]\n"
        ),
    );
    let pod = |toleration: &str| {
        format!(
            "{nodes}apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec:\n  tolerations: [{toleration}]\n  containers: [{{name: c}}]\n"
        )
    };
    assert_eq!(
        refused(&pod("{operator: Equal, value: '', effect: NoSchedule}")),
        [
            "cluster.yaml: document 3: spec.tolerations[0].operator: Invalid value: \"Equal\": \
          operator must be Exists when `key` is empty, which means \"match all values and all \
          keys\""
        ]
    );
    let r = run(&pod("{operator: Exists, effect: NoSchedule}"));
    let c = cycle(&r, "default/p");
    assert_eq!(c["filter"]["valued"]["PodToleratesNodeTaints"], json!([]));
    assert_eq!(c["filter"]["empty"]["PodToleratesNodeTaints"], json!([]));
}

#[test]
fn unschedulable_is_tolerated_with_the_default_operator() {
    // B.8: the synthetic taint has an empty value, so {key, effect} with operator "" (Equal)
    // and value "" tolerates it.
    let yaml = format!(
        "{}apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec:\n  tolerations: [{{key: node.kubernetes.io/unschedulable, effect: NoSchedule}}]\n  containers: [{{name: c}}]\n",
        node("cordoned", "spec:\n  unschedulable: true\n"),
    );
    let r = run(&yaml);
    assert_eq!(cycle(&r, "default/p")["node"], "cordoned");
}

#[test]
fn the_pod_count_is_checked_before_the_zero_request_shortcut() {
    // B.1: len(pods)+1 > allowedPodNumber comes first, even for a pod requesting nothing.
    let yaml = "apiVersion: v1\nkind: Node\nmetadata: {name: full}\nstatus: {allocatable: {cpu: '4', memory: 4Gi, pods: '0'}}\n---\n\
apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c}]}\n";
    let r = run(yaml);
    assert_eq!(
        cycle(&r, "default/p")["message"],
        "0/1 nodes are available: 1 Insufficient pods."
    );
}

#[test]
fn node_affinity_edge_cases() {
    // B.4: NotIn matches a node without the key; Gt on a non-numeric node value does not match.
    // A required NodeSelector with no terms, Exists with values, Gt with two values and In
    // without values would match nothing, but kube-apiserver refuses them
    // (ValidateNodeSelector, ValidateNodeSelectorRequirement): they never reach the scheduler.
    let nodes = format!(
        "{}{}",
        node("plain", "  labels: {cores: many}\n"),
        node("numeric", "  labels: {cores: '8'}\n")
    );
    let pod = |name: &str, terms: &str| {
        format!(
            "{nodes}apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\nspec:\n  containers: [{{name: c}}]\n  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n        nodeSelectorTerms: {terms}\n"
        )
    };
    let r = run(&pod(
        "notin-absent",
        "[{matchExpressions: [{key: disk, operator: NotIn, values: [ssd]}, {key: cores, operator: Gt, values: ['4']}]}]",
    ));
    // disk is absent everywhere (NotIn matches); only `numeric` has an integer > 4.
    assert_eq!(cycle(&r, "default/notin-absent")["node"], "numeric");
    let at = "cluster.yaml: document 3: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";
    for (name, terms, error) in [
        ("no-terms", "[]", format!("{at}: Required value: must have at least one node selector term")),
        (
            "exists-with-values",
            "[{matchExpressions: [{key: cores, operator: Exists, values: ['8']}]}]",
            format!("{at}[0].matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
        ),
        (
            "gt-two-values",
            "[{matchExpressions: [{key: cores, operator: Gt, values: ['1', '2']}]}]",
            format!("{at}[0].matchExpressions[0].values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'"),
        ),
        (
            "in-empty-values",
            "[{matchExpressions: [{key: cores, operator: In, values: []}]}]",
            format!("{at}[0].matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"),
        ),
    ] {
        assert_eq!(refused(&pod(name, terms)), [error], "{name}");
    }
}

#[test]
fn gt_with_a_negative_value_is_not_a_valid_requirement() {
    // B.4: "Building the requirement fails (-> term skipped, i.e. no match) if values are
    // invalid label values". A label value must start with an alphanumeric character, so "-1"
    // is invalid for every operator, Gt included: the term matches nothing.
    let yaml = format!(
        "{}apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec:\n  containers: [{{name: c}}]\n  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n        nodeSelectorTerms: [{{matchExpressions: [{{key: cores, operator: Gt, values: ['-1']}}]}}]\n",
        node("numeric", "  labels: {cores: '8'}\n"),
    );
    let r = run(&yaml);
    assert_eq!(
        cycle(&r, "default/p")["message"],
        "0/1 nodes are available: 1 node(s) didn't match node selector."
    );
}

#[test]
fn required_pod_affinity_first_pod_of_a_group() {
    // B.11 step 3: no pod matches the terms; the pod that matches its own term fits anywhere,
    // the one that does not fits nowhere.
    let yaml = format!(
        "{}apiVersion: v1\nkind: Pod\nmetadata: {{name: first, labels: {{app: grp}}}}\nspec:\n  containers: [{{name: c}}]\n  affinity:\n    podAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n      - {{labelSelector: {{matchLabels: {{app: grp2}}}}, topologyKey: kubernetes.io/hostname}}\n---\n\
apiVersion: v1\nkind: Pod\nmetadata: {{name: self, labels: {{app: solo}}}}\nspec:\n  containers: [{{name: c}}]\n  affinity:\n    podAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n      - {{labelSelector: {{matchLabels: {{app: solo}}}}, topologyKey: kubernetes.io/hostname}}\n",
        node("h", "  labels: {kubernetes.io/hostname: h}\n"),
    );
    let r = run(&yaml);
    assert_eq!(cycle(&r, "default/self")["node"], "h");
    // "pod affinity rules" sorts before "pod affinity/anti-affinity" (' ' < '/').
    assert_eq!(
        cycle(&r, "default/first")["message"],
        "0/1 nodes are available: 1 node(s) didn't match pod affinity rules, 1 node(s) didn't match pod affinity/anti-affinity."
    );
}

#[test]
fn anti_affinity_never_violated_on_a_node_without_the_topology_key() {
    // B.11 step 4: a node lacking term.topologyKey never violates that anti-affinity term.
    let yaml = format!(
        "{}{}apiVersion: v1\nkind: Pod\nmetadata: {{name: db-0, labels: {{app: db}}}}\nspec: {{nodeName: with, containers: [{{name: c}}]}}\n---\n\
apiVersion: v1\nkind: Pod\nmetadata: {{name: db-1, labels: {{app: db}}}}\nspec:\n  containers: [{{name: c}}]\n  affinity:\n    podAntiAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n      - {{labelSelector: {{matchLabels: {{app: db}}}}, topologyKey: rack}}\n",
        node("with", "  labels: {rack: r1}\n"),
        node("without", ""),
    );
    let r = run(&yaml);
    assert_eq!(cycle(&r, "default/db-1")["node"], "without");
}

#[test]
fn ignored_by_scheduler_applies_to_extended_resources_only() {
    // B.1: `IsExtendedResourceName(rName) && ignored.Has(rName)`; hugepages are not extended
    // resources, so they are still checked (the Policy's managed name must be an extended
    // resource name, so only example.com/foo can be ignored). Huge pages come with cpu, as
    // kube-apiserver requires.
    let yaml = format!(
        "apiVersion: v1\nkind: Policy\nextenders:\n- urlPrefix: http://x\n  filterVerb: filter\n  managedResources: [{{name: example.com/foo, ignoredByScheduler: true}}]\n---\n\
apiVersion: schedlab.dev/v1alpha1\nkind: ExtenderMock\nmetadata: {{name: x}}\nurlPrefix: http://x\n---\n{}\
apiVersion: v1\nkind: Pod\nmetadata: {{name: foo}}\nspec:\n  containers: [{{name: c, resources: {{requests: {{example.com/foo: '5'}}}}}}]\n---\n\
apiVersion: v1\nkind: Pod\nmetadata: {{name: huge}}\nspec:\n  containers: [{{name: c, resources: {{requests: {{hugepages-2Mi: 2Mi, cpu: 1m}}}}}}]\n",
        node("n", ""),
    );
    let r = run(&yaml);
    assert_eq!(cycle(&r, "default/foo")["node"], "n");
    assert_eq!(
        cycle(&r, "default/huge")["message"],
        "0/1 nodes are available: 1 Insufficient hugepages-2Mi."
    );
}

// ---- scores ----

fn two_nodes_policy(priorities: &str, n1: &str, n2: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Policy\npriorities: {priorities}\n---\n\
apiVersion: v1\nkind: Node\nmetadata: {{name: n1}}\nstatus: {{allocatable: {n1}}}\n---\n\
apiVersion: v1\nkind: Node\nmetadata: {{name: n2}}\nstatus: {{allocatable: {n2}}}\n---\n"
    )
}

#[test]
fn scoring_ignores_init_containers() {
    // scores.md 1.2: containers only. n1 (4 cpu, 8Gi): cpu 3000*100/4000 = 75, memory
    // 7168*100/8192 = 87 -> 81. n2 (8 cpu, 8Gi): 87 and 87 -> 87. With the 3-cpu init
    // container counted they would be 56 and 74.
    let yaml = two_nodes_policy(
        "[{name: LeastRequestedPriority, weight: 1}]",
        "{cpu: '4', memory: 8Gi, pods: '10'}",
        "{cpu: '8', memory: 8Gi, pods: '10'}",
    ) + "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  initContainers: [{name: i, resources: {requests: {cpu: '3', memory: 1Gi}}}]\n  containers: [{name: c, resources: {requests: {cpu: '1', memory: 1Gi}}}]\n";
    let r = run(&yaml);
    let c = cycle(&r, "default/p");
    assert_eq!(score(c, "n1", "LeastRequestedPriority"), 81);
    assert_eq!(score(c, "n2", "LeastRequestedPriority"), 87);
}

#[test]
fn explicit_zero_requests_and_empty_pods_are_not_defaulted() {
    // scores.md 1.1: an explicit "0" stays 0; a pod with no containers requests nothing. On an
    // empty 1-cpu / 1Gi node: LR 100, BRA 100. A container without requests gets 100m/200Mi:
    // cpu 900*100/1000 = 90, memory 824*100/1024 = 80 -> 85.
    let yaml = two_nodes_policy(
        "[{name: LeastRequestedPriority, weight: 1}, {name: BalancedResourceAllocation, weight: 1}]",
        "{cpu: '1', memory: 1Gi, pods: '10'}",
        "{cpu: '1', memory: 1Gi, pods: '10'}",
    ) + "apiVersion: v1\nkind: Pod\nmetadata: {name: zero}\nspec:\n  containers: [{name: c, resources: {requests: {cpu: '0', memory: '0'}}}]\n---\n\
apiVersion: v1\nkind: Pod\nmetadata: {name: defaulted}\nspec: {containers: [{name: c}]}\n";
    // A pod with no containers would request nothing, but kube-apiserver refuses it.
    assert_eq!(
        refused(&format!(
            "{yaml}---\napiVersion: v1\nkind: Pod\nmetadata: {{name: empty}}\nspec: {{containers: []}}\n"
        )),
        ["cluster.yaml: document 6: spec.containers: Required value"]
    );
    let r = run(&yaml);
    for p in ["default/zero"] {
        let c = cycle(&r, p);
        for n in ["n1", "n2"] {
            assert_eq!(score(c, n, "LeastRequestedPriority"), 100, "{p} {n}");
            assert_eq!(score(c, n, "BalancedResourceAllocation"), 100, "{p} {n}");
        }
    }
    let c = cycle(&r, "default/defaulted");
    assert_eq!(score(c, "n1", "LeastRequestedPriority"), 85);
    assert_eq!(score(c, "n2", "LeastRequestedPriority"), 85);
}

#[test]
fn node_affinity_priority_skips_zero_weights_and_match_fields() {
    // scores.md 2.11: weight-0 terms are skipped, but kube-apiserver refuses them (weights are
    // 1 to 100); only matchExpressions count, so a term with only matchFields matches nothing.
    // Raw n1 0, n2 3 -> normalised 0 and 100.
    let yaml = |zero: &str| {
        ONLY_EQUAL.replace("EqualPriority", "NodeAffinityPriority")
            + &format!(
                "{}{}apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec:\n  containers: [{{name: c}}]\n  affinity:\n    nodeAffinity:\n      preferredDuringSchedulingIgnoredDuringExecution:\n{zero}      - {{weight: 7, preference: {{matchFields: [{{key: metadata.name, operator: In, values: [n1]}}]}}}}\n      - {{weight: 3, preference: {{matchExpressions: [{{key: y, operator: Exists}}]}}}}\n",
                node("n1", "  labels: {x: '1'}\n"),
                node("n2", "  labels: {y: any}\n"),
            )
    };
    assert_eq!(
        refused(&yaml(
            "      - {weight: 0, preference: {matchExpressions: [{key: x, operator: In, values: ['1']}]}}\n"
        )),
        ["cluster.yaml: document 4: spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100"]
    );
    let r = run(&yaml(""));
    let c = cycle(&r, "default/p");
    assert_eq!(c["scores"]["n1"]["NodeAffinityPriority"]["raw"], 0);
    assert_eq!(c["scores"]["n2"]["NodeAffinityPriority"]["raw"], 3);
    assert_eq!(score(c, "n1", "NodeAffinityPriority"), 0);
    assert_eq!(score(c, "n2", "NodeAffinityPriority"), 100);
    assert_eq!(c["node"], "n2");
}

#[test]
fn taint_toleration_priority_counts_only_prefer_no_schedule_tolerations() {
    // scores.md 2.12: only tolerations with effect "" or PreferNoSchedule count. n1 has t1 and
    // t2 (t1 tolerated, t2's toleration is NoSchedule: not counted) -> 1; n2 has t2 -> 1;
    // n3 none -> 0. Reversed: 0, 0, 100.
    let yaml = ONLY_EQUAL.replace("EqualPriority", "TaintTolerationPriority")
        + &format!(
            "{}{}{}apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec:\n  containers: [{{name: c}}]\n  tolerations:\n  - {{key: t1, operator: Exists, effect: PreferNoSchedule}}\n  - {{key: t2, operator: Exists, effect: NoSchedule}}\n",
            node("n1", "spec:\n  taints: [{key: t1, effect: PreferNoSchedule}, {key: t2, effect: PreferNoSchedule}]\n"),
            node("n2", "spec:\n  taints: [{key: t2, effect: PreferNoSchedule}]\n"),
            node("n3", ""),
        );
    let r = run(&yaml);
    let c = cycle(&r, "default/p");
    assert_eq!(c["scores"]["n1"]["TaintTolerationPriority"]["raw"], 1);
    assert_eq!(c["scores"]["n2"]["TaintTolerationPriority"]["raw"], 1);
    assert_eq!(score(c, "n1", "TaintTolerationPriority"), 0);
    assert_eq!(score(c, "n2", "TaintTolerationPriority"), 0);
    assert_eq!(score(c, "n3", "TaintTolerationPriority"), 100);
    assert_eq!(c["node"], "n3");
}

#[test]
fn selector_spread_counts_pods_matching_all_selectors_and_not_terminating() {
    // scores.md 2.6 (v1.17 = ALL): the incoming pod is selected by the Service (app=web) and
    // the ReplicationController (tier=fe). On n1: a pod with app=web only (not counted) and a
    // terminating pod with both labels (not counted); on n2: one pod with both -> counts 0, 1;
    // max 1: n1 100, n2 0.
    let yaml = ONLY_EQUAL.replace("EqualPriority", "SelectorSpreadPriority")
        + "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {selector: {app: web}}\n---\n\
apiVersion: v1\nkind: ReplicationController\nmetadata: {name: fe}\nspec: {selector: {tier: fe}}\n---\n"
        + &node("n1", "")
        + &node("n2", "")
        + "apiVersion: v1\nkind: Pod\nmetadata: {name: only-web, labels: {app: web}}\nspec: {nodeName: n1, containers: [{name: c}]}\n---\n\
apiVersion: v1\nkind: Pod\nmetadata: {name: leaving, labels: {app: web, tier: fe}, deletionTimestamp: '2020-01-01T00:00:00Z'}\nspec: {nodeName: n1, containers: [{name: c}]}\n---\n\
apiVersion: v1\nkind: Pod\nmetadata: {name: both, labels: {app: web, tier: fe}}\nspec: {nodeName: n2, containers: [{name: c}]}\n---\n\
apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {app: web, tier: fe}}\nspec: {containers: [{name: c}]}\n";
    let r = run(&yaml);
    let c = cycle(&r, "default/p");
    assert_eq!(c["scores"]["n1"]["SelectorSpreadPriority"]["raw"], 0);
    assert_eq!(c["scores"]["n2"]["SelectorSpreadPriority"]["raw"], 1);
    assert_eq!(score(c, "n1", "SelectorSpreadPriority"), 100);
    assert_eq!(score(c, "n2", "SelectorSpreadPriority"), 0);
}

#[test]
fn resource_limits_priority_is_zero_or_one() {
    // scores.md 2.5: 1 when the cpu or memory limit is set and fits allocatable; unscaled.
    // n1 (4 cpu, 8Gi) fits the 2-cpu limit; n2 (1 cpu, 1Gi) fits neither 2 cpu nor 2Gi.
    let yaml = two_nodes_policy(
        "[{name: ResourceLimitsPriority, weight: 1}]",
        "{cpu: '4', memory: 8Gi, pods: '10'}",
        "{cpu: '1', memory: 1Gi, pods: '10'}",
    ) + "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, resources: {limits: {cpu: '2', memory: 2Gi}}}]\n";
    let r = run(&yaml);
    let c = cycle(&r, "default/p");
    assert_eq!(score(c, "n1", "ResourceLimitsPriority"), 1);
    assert_eq!(score(c, "n2", "ResourceLimitsPriority"), 0);
    assert_eq!(c["totals"], json!({"n1": 1, "n2": 0}));
}

#[test]
fn most_requested_prefers_the_fuller_node() {
    // scores.md 2.2: n1 (4 cpu, 4Gi): 1000*100/4000 = 25, 1024*100/4096 = 25 -> 25;
    // n2 (2 cpu, 4Gi): 50, 25 -> 37.
    let yaml = two_nodes_policy(
        "[{name: MostRequestedPriority, weight: 1}]",
        "{cpu: '4', memory: 4Gi, pods: '10'}",
        "{cpu: '2', memory: 4Gi, pods: '10'}",
    ) + "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, resources: {requests: {cpu: '1', memory: 1Gi}}}]\n";
    let r = run(&yaml);
    let c = cycle(&r, "default/p");
    assert_eq!(c["totals"], json!({"n1": 25, "n2": 37}));
    assert_eq!(c["node"], "n2");
}

#[test]
fn requested_to_capacity_ratio_default_shape_rounds_half_away_from_zero() {
    // scores.md 2.4, default shape {0 -> 100}, {100 -> 0} on cpu and memory. n1 (4 cpu, 4Gi):
    // utilisation 100 - 3000*100/4000 = 25 -> 75, memory 25 -> 75 -> 75. n2 (2 cpu, 4Gi):
    // cpu 100 - 50 = 50 -> 50, memory 75 -> round(125 / 2 = 62.5) = 63.
    let yaml = two_nodes_policy(
        "[{name: RequestedToCapacityRatioPriority, weight: 1}]",
        "{cpu: '4', memory: 4Gi, pods: '10'}",
        "{cpu: '2', memory: 4Gi, pods: '10'}",
    ) + "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, resources: {requests: {cpu: '1', memory: 1Gi}}}]\n";
    let r = run(&yaml);
    let c = cycle(&r, "default/p");
    assert_eq!(c["totals"], json!({"n1": 75, "n2": 63}));
}

#[test]
fn requested_to_capacity_ratio_drops_zero_scoring_resources() {
    // scores.md 2.4 quirk: a resource scoring 0 leaves the weighted average. Shape {0 -> 0},
    // {100 -> 10} (x10). cpu "0" -> utilisation 0 -> 0, dropped; memory 1Gi of 4Gi ->
    // utilisation 25 -> 25. Result 25 (13 if cpu were averaged in).
    let yaml = two_nodes_policy(
        "[{name: rtcr, weight: 1, argument: {requestedToCapacityRatioArguments: {shape: [{utilization: 0, score: 0}, {utilization: 100, score: 10}]}}}]",
        "{cpu: '4', memory: 4Gi, pods: '10'}",
        "{cpu: '4', memory: 4Gi, pods: '10'}",
    ) + "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, resources: {requests: {cpu: '0', memory: 1Gi}}}]\n";
    let r = run(&yaml);
    let c = cycle(&r, "default/p");
    assert_eq!(c["totals"], json!({"n1": 25, "n2": 25}));
}

#[test]
fn no_priorities_means_equal_priority_one() {
    // scores.md 4 step 1: priorities [] and no extenders -> every node scores 1.
    let yaml = two_nodes_policy(
        "[]",
        "{cpu: '4', memory: 4Gi, pods: '10'}",
        "{cpu: '2', memory: 4Gi, pods: '10'}",
    )
        + "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c}]}\n";
    let r = run(&yaml);
    let c = cycle(&r, "default/p");
    assert_eq!(c["totals"], json!({"n1": 1, "n2": 1}));
}

#[test]
fn label_preference_scores_presence() {
    // scores.md 2.8: MAX when (exists && presence) || (!exists && !presence), value ignored.
    let yaml = two_nodes_policy(
        "[{name: want-ssd, weight: 2, argument: {labelPreference: {label: ssd, presence: true}}}, {name: avoid-gpu, weight: 2, argument: {labelPreference: {label: gpu, presence: false}}}]",
        "{cpu: '4', memory: 4Gi, pods: '10'}",
        "{cpu: '4', memory: 4Gi, pods: '10'}",
    )
    .replace("metadata: {name: n1}", "metadata: {name: n1, labels: {ssd: 'false'}}")
    .replace("metadata: {name: n2}", "metadata: {name: n2, labels: {gpu: ''}}")
        + "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c}]}\n";
    let r = run(&yaml);
    let c = cycle(&r, "default/p");
    assert_eq!(score(c, "n1", "want-ssd"), 100);
    assert_eq!(score(c, "n1", "avoid-gpu"), 100);
    assert_eq!(score(c, "n2", "want-ssd"), 0);
    assert_eq!(score(c, "n2", "avoid-gpu"), 0);
    assert_eq!(c["totals"], json!({"n1": 400, "n2": 0}));
}

// ---- inputs that shape the run ----

#[test]
fn priority_comes_from_spec_then_class_then_global_default() {
    // cli-contract.md Pod row: spec.priority, else the named PriorityClass, else the
    // global-default class, else 0 (a pod naming a class gives no other priority: the
    // Priority admission plugin refuses it). Queue order is priority first (input order b, c, a).
    let yaml = "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: everyone}\nvalue: 100\nglobalDefault: true\n---\n\
apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: low}\nvalue: 5\n---\n"
        .to_string()
        + &node("n", "")
        + "apiVersion: v1\nkind: Pod\nmetadata: {name: b}\nspec: {priorityClassName: low, containers: [{name: c}]}\n---\n\
apiVersion: v1\nkind: Pod\nmetadata: {name: c}\nspec: {priority: 7, containers: [{name: c}]}\n---\n\
apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {containers: [{name: c}]}\n";
    let r = run(&yaml);
    let order: Vec<&str> = r["cycles"]
        .as_array()
        .expect("cycles")
        .iter()
        .map(|c| c["pod"].as_str().expect("pod"))
        .collect();
    assert_eq!(order, ["default/a", "default/c", "default/b"]);
}

#[test]
fn a_policy_and_a_v1alpha1_configuration_combine() {
    // cli-contract.md: the Policy is the algorithm source; the configuration still gives the
    // scheduler name. Only the mandatory predicates run (predicates: []), so the node selector
    // is not checked.
    let yaml = "apiVersion: kubescheduler.config.k8s.io/v1alpha1\nkind: KubeSchedulerConfiguration\nschedulerName: mine\n---\n\
apiVersion: v1\nkind: Policy\npredicates: []\npriorities: []\n---\n"
        .to_string()
        + &node("n", "")
        + "apiVersion: v1\nkind: Pod\nmetadata: {name: ours}\nspec: {schedulerName: mine, nodeSelector: {no: such}, containers: [{name: c}]}\n---\n\
apiVersion: v1\nkind: Pod\nmetadata: {name: theirs}\nspec: {containers: [{name: c}]}\n";
    let r = run(&yaml);
    let cycles = r["cycles"].as_array().expect("cycles");
    assert_eq!(cycles.len(), 1);
    assert_eq!(cycles[0]["pod"], "default/ours");
    assert_eq!(cycles[0]["node"], "n");
    assert_eq!(
        cycles[0]["filter"]["n"],
        json!({"CheckNodeUnschedulable": [], "PodToleratesNodeTaints": []})
    );
}

#[test]
fn two_policies_are_an_error() {
    let files = [
        File {
            name: "a.json".into(),
            text: r#"{"kind": "Policy", "apiVersion": "v1"}"#.into(),
        },
        File {
            name: "b.json".into(),
            text: r#"{"kind": "Policy", "apiVersion": "v1", "predicates": []}"#.into(),
        },
    ];
    let errs = schedlab_tests::load(&files).err().expect("two policies");
    assert!(errs.iter().any(|e| e.file == "b.json"), "{errs:?}");
}

#[test]
fn pods_bound_to_missing_nodes_are_ignored_with_a_warning() {
    // cli-contract.md: "A pod bound to a node that is not in the input is ignored, with a
    // warning." It takes nothing from the listed node.
    let yaml = "apiVersion: v1\nkind: Node\nmetadata: {name: n}\nstatus: {allocatable: {cpu: '1', memory: 1Gi, pods: '1'}}\n---\n\
apiVersion: v1\nkind: Pod\nmetadata: {name: ghost}\nspec: {nodeName: elsewhere, containers: [{name: c, resources: {requests: {cpu: '1'}}}]}\n---\n\
apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, resources: {requests: {cpu: '1'}}}]}\n";
    let s = load_ok(&[File {
        name: "c.yaml".into(),
        text: yaml.into(),
    }]);
    assert!(
        s.warnings
            .iter()
            .any(|w| w.to_string().contains("elsewhere")),
        "{:?}",
        s.warnings
    );
    let r = report(&s, 0);
    assert_eq!(cycle(&r, "default/p")["node"], "n");
}
