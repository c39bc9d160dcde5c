// Policy tests: DefaultProvider sets, mandatory predicates, Ordering(), names, arguments and
// upstream's validation messages. Expected lists and strings come from
// `shared/reference/filters.md` (A.5 Ordering, C.1–C.4) and `scores.md` (2.4, 5); the
// KubeSchedulerConfiguration rules from `shared/spec/cli-contract.md`.

use super::config::{self, SchedulerConfiguration, V1ALPHA1};
use super::*;
use serde_json::json;

fn doc(v: serde_json::Value) -> PolicyDocument {
    serde_json::from_value(v).expect("policy document")
}

fn build_ok(v: serde_json::Value) -> Built {
    let d = doc(v);
    match build(Some(&d), &SchedulerConfiguration::default()) {
        Ok(b) => b,
        Err(e) => panic!("unexpected errors: {e:?}"),
    }
}

fn build_err(v: serde_json::Value) -> Vec<PolicyError> {
    let d = doc(v);
    match build(Some(&d), &SchedulerConfiguration::default()) {
        Ok(b) => panic!("expected errors; filters {:?}", filter_names(&b.algorithm)),
        Err(e) => e,
    }
}

fn filter_names(p: &Algorithm) -> Vec<&str> {
    p.filters.iter().map(|f| f.name.as_str()).collect()
}

fn score_set(p: &Algorithm) -> Vec<(String, i64)> {
    let mut v: Vec<(String, i64)> = p
        .scores
        .iter()
        .map(|s| (s.name.clone(), s.weight))
        .collect();
    v.sort();
    v
}

fn messages(errs: &[PolicyError]) -> Vec<&str> {
    errs.iter().map(|e| e.message.as_str()).collect()
}

/// v1.17 DefaultProvider predicates in `Ordering()` order (filters.md C.1, "Effective evaluation
/// order"), without EvenPodsSpread (its gate is off; the contract keeps it out of the provider).
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

/// v1.17 DefaultProvider priorities with weights (scores.md 5), sorted by name.
fn default_scores() -> Vec<(String, i64)> {
    let mut v: Vec<(String, i64)> = [
        ("SelectorSpreadPriority", 1),
        ("InterPodAffinityPriority", 1),
        ("LeastRequestedPriority", 1),
        ("BalancedResourceAllocation", 1),
        ("NodePreferAvoidPodsPriority", 10000),
        ("NodeAffinityPriority", 1),
        ("TaintTolerationPriority", 1),
        ("ImageLocalityPriority", 1),
    ]
    .iter()
    .map(|(n, w)| (n.to_string(), *w))
    .collect();
    v.sort();
    v
}

#[test]
fn no_policy_means_the_default_provider() {
    let b = build(None, &SchedulerConfiguration::default()).expect("builds");
    assert_eq!(filter_names(&b.algorithm), DEFAULT_FILTERS);
    assert_eq!(score_set(&b.algorithm), default_scores());
    assert!(b.warnings.is_empty(), "{:?}", b.warnings);
    let s = &b.algorithm.settings;
    assert!(!s.always_check_all_predicates);
    assert_eq!(s.hard_pod_affinity_weight, 1);
    assert_eq!(s.percentage_of_nodes_to_score, 0);
    assert!(s.ignored_resources.is_empty());
}

#[test]
fn omitted_lists_mean_the_default_provider_sets() {
    // filters.md C.2: "omitted/null → DefaultProvider predicates"; same for priorities.
    for v in [
        json!({"kind": "Policy", "apiVersion": "v1"}),
        json!({"kind": "Policy", "apiVersion": "v1", "predicates": null, "priorities": null}),
    ] {
        let b = build_ok(v);
        assert_eq!(filter_names(&b.algorithm), DEFAULT_FILTERS);
        assert_eq!(score_set(&b.algorithm), default_scores());
    }
    // Only one list omitted: that one defaults, the other is as given.
    let b = build_ok(json!({"priorities": [{"name": "EqualPriority", "weight": 3}]}));
    assert_eq!(filter_names(&b.algorithm), DEFAULT_FILTERS);
    assert_eq!(score_set(&b.algorithm), [("EqualPriority".to_string(), 3)]);
    let b = build_ok(json!({"predicates": [{"name": "HostName"}]}));
    assert_eq!(
        filter_names(&b.algorithm),
        [
            "CheckNodeUnschedulable",
            "HostName",
            "PodToleratesNodeTaints"
        ]
    );
    assert_eq!(score_set(&b.algorithm), default_scores());
}

#[test]
fn empty_lists_mean_mandatory_predicates_and_no_priorities() {
    let b = build_ok(json!({"predicates": [], "priorities": []}));
    assert_eq!(
        filter_names(&b.algorithm),
        ["CheckNodeUnschedulable", "PodToleratesNodeTaints"]
    );
    assert!(b.algorithm.scores.is_empty());
}

#[test]
fn predicates_run_in_ordering_order_whatever_the_policy_order() {
    // Policy order reversed against Ordering(); mandatory ones are added at their slots.
    let b = build_ok(json!({"predicates": [
        {"name": "MatchInterPodAffinity"},
        {"name": "NoVolumeZoneConflict"},
        {"name": "PodFitsResources"},
        {"name": "MatchNodeSelector"},
        {"name": "PodFitsHostPorts"},
        {"name": "HostName"},
        {"name": "GeneralPredicates"},
        {"name": "EvenPodsSpread"},
        {"name": "MaxCinderVolumeCount"}
    ]}));
    assert_eq!(
        filter_names(&b.algorithm),
        [
            "CheckNodeUnschedulable",
            "GeneralPredicates",
            "HostName",
            "PodFitsHostPorts",
            "MatchNodeSelector",
            "PodFitsResources",
            "PodToleratesNodeTaints",
            "MaxCinderVolumeCount",
            "NoVolumeZoneConflict",
            "EvenPodsSpread",
            "MatchInterPodAffinity",
        ]
    );
}

#[test]
fn mandatory_predicates_are_not_duplicated_when_listed() {
    let b = build_ok(json!({"predicates": [
        {"name": "PodToleratesNodeTaints"},
        {"name": "CheckNodeUnschedulable"},
        {"name": "PodToleratesNodeTaints"}
    ]}));
    assert_eq!(
        filter_names(&b.algorithm),
        ["CheckNodeUnschedulable", "PodToleratesNodeTaints"]
    );
}

#[test]
fn classic_policy_with_the_pod_fits_ports_alias() {
    // kubernetes examples/scheduler-policy-config.json: PodFitsPorts is registered in v1.17
    // under its 1.0 name (filters.md C.2), which is not in Ordering(); a configured name missing
    // from Ordering() is never run (A.5). So it is accepted, with a warning, and absent from the
    // filters. ServiceSpreadingPriority and EqualPriority are registered names.
    let b = build_ok(json!({
        "kind": "Policy", "apiVersion": "v1",
        "predicates": [
            {"name": "PodFitsPorts"}, {"name": "PodFitsResources"}, {"name": "NoDiskConflict"},
            {"name": "MatchNodeSelector"}, {"name": "HostName"}
        ],
        "priorities": [
            {"name": "LeastRequestedPriority", "weight": 1},
            {"name": "BalancedResourceAllocation", "weight": 1},
            {"name": "ServiceSpreadingPriority", "weight": 1},
            {"name": "EqualPriority", "weight": 1}
        ]
    }));
    assert_eq!(
        filter_names(&b.algorithm),
        [
            "CheckNodeUnschedulable",
            "HostName",
            "MatchNodeSelector",
            "PodFitsResources",
            "NoDiskConflict",
            "PodToleratesNodeTaints",
        ]
    );
    assert_eq!(b.warnings.len(), 1);
    assert_eq!(b.warnings[0].0, "predicates[0].name");
    assert!(b.warnings[0]
        .1
        .starts_with("PodFitsPorts is accepted but never runs in v1.17"));
    let names: Vec<&str> = b.algorithm.scores.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "LeastRequestedPriority",
            "BalancedResourceAllocation",
            "ServiceSpreadingPriority",
            "EqualPriority"
        ]
    );
}

#[test]
fn unknown_names_are_upstream_errors_with_a_suggestion() {
    let errs = build_err(json!({
        "predicates": [{"name": "PodFitResources"}, {"name": "TotallyMadeUp"}],
        "priorities": [{"name": "LeastRequestPriority", "weight": 1}]
    }));
    assert_eq!(
        messages(&errs),
        [
            "Invalid configuration: Predicate type not found for PodFitResources (did you mean PodFitsResources?)",
            "Invalid configuration: Predicate type not found for TotallyMadeUp",
            "Invalid configuration: Priority type not found for LeastRequestPriority (did you mean LeastRequestedPriority?)",
        ]
    );
    assert_eq!(errs[0].path, "predicates[0].name");
    assert_eq!(errs[1].path, "predicates[1].name");
    assert_eq!(errs[2].path, "priorities[0].name");
}

#[test]
fn pod_tolerates_node_no_execute_taints_is_not_a_policy_name() {
    // filters.md C.2: in Ordering() but not registered for Policy use in v1.17.
    let errs = build_err(json!({"predicates": [{"name": "PodToleratesNodeNoExecuteTaints"}]}));
    assert_eq!(errs.len(), 1);
    assert!(
        errs[0].message.starts_with(
            "Invalid configuration: Predicate type not found for PodToleratesNodeNoExecuteTaints"
        ),
        "{}",
        errs[0].message
    );
}

#[test]
fn non_positive_or_overflowing_weights_are_rejected() {
    let max = MAX_WEIGHT;
    assert_eq!(max, i64::MAX / 10);
    for (w, bad) in [
        (json!(0), true),
        (json!(-3), true),
        (json!(max), true),
        (json!(max - 1), false),
        (json!(1), false),
    ] {
        let v = json!({"priorities": [{"name": "LeastRequestedPriority", "weight": w}]});
        let r = build(Some(&doc(v)), &SchedulerConfiguration::default());
        if bad {
            let errs = r.err().unwrap_or_else(|| panic!("weight {w} should fail"));
            assert_eq!(
                messages(&errs),
                ["Priority LeastRequestedPriority should have a positive weight applied to it or it has overflown"],
                "weight {w}"
            );
            assert_eq!(errs[0].path, "priorities[0].weight");
        } else {
            assert!(r.is_ok(), "weight {w} should pass");
        }
    }
    // An omitted weight is 0.
    let errs = build_err(json!({"priorities": [{"name": "ImageLocalityPriority"}]}));
    assert_eq!(
        messages(&errs),
        ["Priority ImageLocalityPriority should have a positive weight applied to it or it has overflown"]
    );
}

#[test]
fn total_priority_overflow_is_rejected() {
    // scores.md 4 (validateSelectedConfigs): Weight*MaxNodeScore > MaxTotalScore - total is an
    // error. 5e16 * 100 = 5e18 passes alone; a second one needs 5e18 > 9223372036854775807 - 5e18.
    let w = 50_000_000_000_000_000i64;
    assert!(w < MAX_WEIGHT);
    let b = build_ok(json!({"priorities": [{"name": "LeastRequestedPriority", "weight": w}]}));
    assert_eq!(b.algorithm.scores[0].weight, w);
    let errs = build_err(json!({"priorities": [
        {"name": "LeastRequestedPriority", "weight": w},
        {"name": "BalancedResourceAllocation", "weight": w}
    ]}));
    assert_eq!(
        messages(&errs),
        ["total priority of priority functions has overflown"]
    );
}

#[test]
fn policy_weight_replaces_the_default_weight() {
    let b = build_ok(json!({"priorities": [
        {"name": "NodePreferAvoidPodsPriority", "weight": 5},
        {"name": "LeastRequestedPriority", "weight": 7}
    ]}));
    assert_eq!(
        score_set(&b.algorithm),
        [
            ("LeastRequestedPriority".to_string(), 7),
            ("NodePreferAvoidPodsPriority".to_string(), 5)
        ]
    );
}

#[test]
fn custom_argument_predicates_and_priorities_keep_their_own_names() {
    // acs-engine's OpenShift 3.11 policy: Region (serviceAffinity) and Zone (serviceAntiAffinity).
    let b = build_ok(json!({
        "predicates": [
            {"name": "Region", "argument": {"serviceAffinity": {"labels": ["region"]}}},
            {"name": "requireZone", "argument": {"labelsPresence": {"labels": ["zone"], "presence": true}}},
            {"name": "MatchNodeSelector"}
        ],
        "priorities": [
            {"name": "Zone", "weight": 2, "argument": {"serviceAntiAffinity": {"label": "zone"}}},
            {"name": "preferSSD", "weight": 3, "argument": {"labelPreference": {"label": "ssd", "presence": true}}},
            {"name": "custom-rtcr", "weight": 4, "argument": {"requestedToCapacityRatioArguments": {
                "shape": [{"utilization": 0, "score": 0}, {"utilization": 100, "score": 10}],
                "resources": [{"name": "cpu", "weight": 1}]}}}
        ]
    }));
    // Ordering slots: MatchNodeSelector (4) < PodToleratesNodeTaints (7) <
    // CheckNodeLabelPresence (9) < CheckServiceAffinity (10).
    assert_eq!(
        filter_names(&b.algorithm),
        [
            "CheckNodeUnschedulable",
            "MatchNodeSelector",
            "PodToleratesNodeTaints",
            "requireZone",
            "Region"
        ]
    );
    let scores: Vec<(&str, i64)> = b
        .algorithm
        .scores
        .iter()
        .map(|s| (s.name.as_str(), s.weight))
        .collect();
    assert_eq!(scores, [("Zone", 2), ("preferSSD", 3), ("custom-rtcr", 4)]);
}

#[test]
fn exactly_one_argument_is_required() {
    let errs = build_err(json!({"predicates": [
        {"name": "both", "argument": {"serviceAffinity": {"labels": ["a"]},
                                      "labelsPresence": {"labels": ["b"], "presence": false}}},
        {"name": "none", "argument": {}}
    ]}));
    assert_eq!(
        messages(&errs),
        [
            "Exactly 1 predicate argument is required, numArgs: 2, Predicate: both",
            "Exactly 1 predicate argument is required, numArgs: 0, Predicate: none",
        ]
    );
    let errs = build_err(json!({"priorities": [
        {"name": "two", "weight": 1, "argument": {"serviceAntiAffinity": {"label": "a"},
                                                   "labelPreference": {"label": "b", "presence": true}}},
        {"name": "three", "weight": 1, "argument": {"serviceAntiAffinity": {"label": "a"},
                                                     "labelPreference": {"label": "b", "presence": true},
                                                     "requestedToCapacityRatioArguments": {"shape": [{"utilization": 0, "score": 0}]}}},
        {"name": "empty", "weight": 1, "argument": {}}
    ]}));
    assert_eq!(
        messages(&errs),
        [
            "Exactly 1 priority argument is required, numArgs: 2, Priority: two",
            "Exactly 1 priority argument is required, numArgs: 3, Priority: three",
            "No priority arguments set for priority empty",
        ]
    );
}

#[test]
fn custom_names_must_match_the_algorithm_name_regexp() {
    for bad in ["-lead", "trail-", "under_score", "a"] {
        let errs = build_err(json!({"predicates": [
            {"name": bad, "argument": {"labelsPresence": {"labels": ["x"], "presence": true}}}
        ]}));
        assert_eq!(errs.len(), 1, "{bad}: {errs:?}");
        assert_eq!(errs[0].path, "predicates[0].name", "{bad}");
    }
    let b = build_ok(json!({"predicates": [
        {"name": "ok-Name-9", "argument": {"labelsPresence": {"labels": ["x"], "presence": true}}}
    ]}));
    assert!(filter_names(&b.algorithm).contains(&"ok-Name-9"));
}

#[test]
fn requested_to_capacity_ratio_may_be_declared_once() {
    let rtcr = json!({"requestedToCapacityRatioArguments": {
        "shape": [{"utilization": 0, "score": 10}, {"utilization": 100, "score": 0}]}});
    let errs = build_err(json!({"priorities": [
        {"name": "first", "weight": 1, "argument": rtcr},
        {"name": "second", "weight": 1, "argument": rtcr}
    ]}));
    assert_eq!(
        messages(&errs),
        [
            r#"Priority "second" redeclares custom priority "RequestedToCapacityRatio", from:"first""#
        ]
    );
}

#[test]
fn requested_to_capacity_ratio_shape_is_scaled_by_ten() {
    use crate::testing::{cluster, node, pod, score_all};
    // Shape {0→0},{100→10} on cpu only becomes {0→0},{100→100}.
    let b = build_ok(json!({"priorities": [
        {"name": "rtcr", "weight": 1, "argument": {"requestedToCapacityRatioArguments": {
            "shape": [{"utilization": 0, "score": 0}, {"utilization": 100, "score": 10}],
            "resources": [{"name": "cpu", "weight": 1}]}}}
    ]}));
    let c = cluster(
        vec![node(json!({"metadata": {"name": "n"},
            "status": {"allocatable": {"cpu": "1", "memory": "1Gi", "pods": "10"}}}))],
        vec![],
    );
    let p = pod(json!({"spec": {"containers": [{"name": "c",
        "resources": {"requests": {"cpu": "500m", "memory": "0"}}}]}}));
    // utilization = 100 - (1000-500)*100/1000 = 50 → 0 + (100-0)*(50-0)/100 = 50 (5 unscaled).
    let (raw, norm) = score_all(b.algorithm.scores[0].plugin.as_ref(), &c, p.clone());
    assert_eq!((raw, norm), (vec![50], vec![50]));

    // Resource weight 0 becomes 1: cpu (weight 0→1) scores 50, memory (weight 3) at 100 %
    // utilisation scores 100 → round((50*1 + 100*3) / 4) = round(87.5) = 88.
    let b = build_ok(json!({"priorities": [
        {"name": "rtcr", "weight": 1, "argument": {"requestedToCapacityRatioArguments": {
            "shape": [{"utilization": 0, "score": 0}, {"utilization": 100, "score": 10}],
            "resources": [{"name": "cpu", "weight": 0}, {"name": "memory", "weight": 3}]}}}
    ]}));
    let p = pod(json!({"spec": {"containers": [{"name": "c",
        "resources": {"requests": {"cpu": "500m", "memory": "1Gi"}}}]}}));
    let (raw, _) = score_all(b.algorithm.scores[0].plugin.as_ref(), &c, p);
    assert_eq!(raw, vec![88]);
}

#[test]
fn invalid_requested_to_capacity_ratio_shapes_are_errors() {
    for shape in [
        json!([]),
        json!([{"utilization": 0, "score": 11}]),
        json!([{"utilization": 50, "score": 1}, {"utilization": 50, "score": 2}]),
        json!([{"utilization": 60, "score": 1}, {"utilization": 10, "score": 2}]),
        json!([{"utilization": 101, "score": 1}]),
        json!([{"utilization": -1, "score": 1}]),
        json!([{"utilization": 0, "score": -1}]),
    ] {
        let errs = build_err(json!({"priorities": [
            {"name": "rtcr", "weight": 1, "argument": {"requestedToCapacityRatioArguments": {"shape": shape}}}
        ]}));
        assert_eq!(errs.len(), 1, "{shape}: {errs:?}");
        assert!(
            errs[0]
                .message
                .starts_with("invalid RequestedToCapacityRatioPriority arguments: "),
            "{shape}: {}",
            errs[0].message
        );
    }
}

#[test]
fn service_anti_affinity_and_label_preference_share_one_weight() {
    // filters.md C.4: "%s  priority %q has a different weight with %q" (two spaces, verbatim).
    let errs = build_err(json!({"priorities": [
        {"name": "zone1", "weight": 2, "argument": {"serviceAntiAffinity": {"label": "zone"}}},
        {"name": "rack", "weight": 2, "argument": {"serviceAntiAffinity": {"label": "rack"}}},
        {"name": "zone2", "weight": 3, "argument": {"serviceAntiAffinity": {"label": "zone"}}},
        {"name": "ssd", "weight": 1, "argument": {"labelPreference": {"label": "ssd", "presence": true}}},
        {"name": "gpu", "weight": 5, "argument": {"labelPreference": {"label": "gpu", "presence": true}}}
    ]}));
    assert_eq!(
        messages(&errs),
        [
            r#"ServiceAntiAffinity  priority "zone2" has a different weight with "zone1""#,
            r#"LabelPreference  priority "gpu" has a different weight with "ssd""#,
        ]
    );
    // Same weights are fine, and each entry is a priority of its own.
    let b = build_ok(json!({"priorities": [
        {"name": "zone", "weight": 2, "argument": {"serviceAntiAffinity": {"label": "zone"}}},
        {"name": "rack", "weight": 2, "argument": {"serviceAntiAffinity": {"label": "rack"}}},
        {"name": "ssd", "weight": 4, "argument": {"labelPreference": {"label": "ssd", "presence": true}}},
        {"name": "nogpu", "weight": 4, "argument": {"labelPreference": {"label": "gpu", "presence": false}}}
    ]}));
    assert_eq!(b.algorithm.scores.len(), 4);
}

#[test]
fn extenders_are_built_and_ignored_resources_are_recorded() {
    // topolvm's scheduler-policy.cfg: one extender managing an ignoredByScheduler resource.
    let b = build_ok(json!({
        "kind": "Policy", "apiVersion": "v1",
        "extenders": [{
            "urlPrefix": "http://127.0.0.1:9251", "filterVerb": "predicate", "prioritizeVerb": "prioritize",
            "nodeCacheCapable": false, "weight": 1,
            "managedResources": [{"name": "topolvm.cybozu.com/capacity", "ignoredByScheduler": true}]
        }, {
            "urlPrefix": "http://127.0.0.1:12345/gpushare-scheduler", "filterVerb": "filter", "bindVerb": "bind",
            "managedResources": [{"name": "aliyun.com/gpu-mem", "ignoredByScheduler": false}]
        }]
    }));
    assert_eq!(
        b.algorithm.settings.ignored_resources,
        ["topolvm.cybozu.com/capacity"]
    );
    // The extender's presence does not change the provider sets.
    assert_eq!(filter_names(&b.algorithm), DEFAULT_FILTERS);
    assert_eq!(score_set(&b.algorithm), default_scores());
    assert!(b.warnings.is_empty(), "{:?}", b.warnings);
    // Both extenders are called, in the policy's order (neither is ignorable).
    let e = &b.algorithm.settings.extenders;
    assert_eq!(e.len(), 2);
    assert_eq!(e[0].url_prefix, "http://127.0.0.1:9251");
    assert_eq!(
        (e[0].filter_verb.as_str(), e[0].prioritize_verb.as_str()),
        ("predicate", "prioritize")
    );
    assert_eq!(e[0].weight, 1);
    assert_eq!(e[1].url_prefix, "http://127.0.0.1:12345/gpushare-scheduler");
    assert_eq!(e[1].bind_verb, "bind");
}

#[test]
fn extender_config_keys_are_case_insensitive() {
    // filters.md C.3: ExtenderConfig decoding is case-insensitive.
    let b = build_ok(json!({"extenders": [{
        "URLPrefix": "http://x", "FilterVerb": "filter",
        "ManagedResources": [{"Name": "example.com/foo", "IgnoredByScheduler": true}]
    }]}));
    assert_eq!(b.algorithm.settings.ignored_resources, ["example.com/foo"]);
}

#[test]
fn extender_validation_messages() {
    let errs = build_err(json!({"extenders": [
        {"urlPrefix": "http://a", "prioritizeVerb": "prioritize", "weight": 0, "bindVerb": "bind",
         "managedResources": [{"name": "example.com/foo"}, {"name": "example.com/foo"}]},
        {"urlPrefix": "http://b", "bindVerb": "bind",
         "managedResources": [{"name": "cpu"}]}
    ]}));
    let m = messages(&errs);
    for want in [
        "Priority for extender http://a should have a positive weight applied to it",
        "Duplicate extender managed resource name example.com/foo",
        "cpu is an invalid extended resource name",
        "Only one extender can implement bind, found 2",
    ] {
        assert!(m.contains(&want), "missing {want:?} in {m:?}");
    }
    assert_eq!(m.len(), 4, "{m:?}");
}

#[test]
fn removed_condition_predicates_warn_and_never_run() {
    let b = build_ok(json!({"predicates": [
        {"name": "CheckNodeCondition"}, {"name": "CheckNodeMemoryPressure"},
        {"name": "CheckNodeDiskPressure"}, {"name": "CheckNodePIDPressure"},
        {"name": "GeneralPredicates"}
    ]}));
    assert_eq!(
        filter_names(&b.algorithm),
        [
            "CheckNodeUnschedulable",
            "GeneralPredicates",
            "PodToleratesNodeTaints"
        ]
    );
    assert_eq!(b.warnings.len(), 4, "{:?}", b.warnings);
    for (i, name) in [
        "CheckNodeCondition",
        "CheckNodeMemoryPressure",
        "CheckNodeDiskPressure",
        "CheckNodePIDPressure",
    ]
    .iter()
    .enumerate()
    {
        assert_eq!(b.warnings[i].0, format!("predicates[{i}].name"));
        assert!(
            b.warnings[i].1.contains(name) && b.warnings[i].1.contains("v1.17"),
            "{:?}",
            b.warnings[i]
        );
    }
}

#[test]
fn hard_pod_affinity_symmetric_weight_range() {
    for w in [-1, 101, 1000] {
        let errs = build_err(json!({"hardPodAffinitySymmetricWeight": w}));
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].path, "hardPodAffinitySymmetricWeight");
        assert!(
            errs[0].message.contains("not in valid range [0-100]"),
            "{}",
            errs[0].message
        );
    }
    for (w, effective) in [(0, 1), (1, 1), (10, 10), (100, 100)] {
        let b = build_ok(json!({"hardPodAffinitySymmetricWeight": w}));
        assert_eq!(
            b.algorithm.settings.hard_pod_affinity_weight, effective,
            "{w}"
        );
    }
}

#[test]
fn always_check_all_predicates_is_a_setting() {
    let b = build_ok(json!({"alwaysCheckAllPredicates": true}));
    assert!(b.algorithm.settings.always_check_all_predicates);
    let b = build_ok(json!({"alwaysCheckAllPredicates": false}));
    assert!(!b.algorithm.settings.always_check_all_predicates);
}

#[test]
fn all_problems_are_reported_together() {
    let errs = build_err(json!({
        "predicates": [{"name": "Nope"}],
        "priorities": [{"name": "EqualPriority", "weight": 0}],
        "hardPodAffinitySymmetricWeight": 500
    }));
    assert_eq!(errs.len(), 3, "{errs:?}");
}

// ---- KubeSchedulerConfiguration ----

fn cfg_ok(v: serde_json::Value) -> (SchedulerConfiguration, Vec<config::PathMessage>) {
    config::read(V1ALPHA1, v).expect("valid configuration")
}

#[test]
fn v1alpha1_defaults() {
    let (c, w) = cfg_ok(json!({"apiVersion": V1ALPHA1, "kind": "KubeSchedulerConfiguration"}));
    assert_eq!(c, SchedulerConfiguration::default());
    assert!(w.is_empty());
    assert_eq!(c.scheduler_name, "default-scheduler");
    assert_eq!(c.provider, "DefaultProvider");
    assert_eq!(c.percentage_of_nodes_to_score, 0);
    assert!(!c.disable_preemption);
    assert_eq!(c.hard_pod_affinity_symmetric_weight, 1);
    assert_eq!(c.pod_initial_backoff_seconds, 1);
    assert_eq!(c.pod_max_backoff_seconds, 10);
    assert_eq!(c.bind_timeout_seconds, 600);
}

#[test]
fn v1alpha1_fields_are_read() {
    let (c, w) = cfg_ok(json!({
        "apiVersion": V1ALPHA1, "kind": "KubeSchedulerConfiguration",
        "schedulerName": "topolvm-scheduler",
        "percentageOfNodesToScore": 30,
        "disablePreemption": true,
        "hardPodAffinitySymmetricWeight": 7,
        "podInitialBackoffSeconds": 2,
        "podMaxBackoffSeconds": 20,
        "bindTimeoutSeconds": 100,
        "leaderElection": {"leaderElect": false},
        "clientConnection": {"kubeconfig": "/etc/kubernetes/scheduler.conf"}
    }));
    assert_eq!(c.scheduler_name, "topolvm-scheduler");
    assert_eq!(c.percentage_of_nodes_to_score, 30);
    assert!(c.disable_preemption);
    assert_eq!(c.hard_pod_affinity_symmetric_weight, 7);
    assert_eq!(c.pod_initial_backoff_seconds, 2);
    assert_eq!(c.pod_max_backoff_seconds, 20);
    assert_eq!(c.bind_timeout_seconds, 100);
    assert!(w.is_empty(), "{w:?}");
    // The algorithm carries the configuration's settings.
    let b = build(None, &c).expect("builds");
    assert_eq!(b.algorithm.settings.percentage_of_nodes_to_score, 30);
    assert_eq!(b.algorithm.settings.hard_pod_affinity_weight, 7);
    // A Policy's own hardPodAffinitySymmetricWeight wins over the configuration's.
    let b = build(Some(&doc(json!({"hardPodAffinitySymmetricWeight": 3}))), &c).expect("builds");
    assert_eq!(b.algorithm.settings.hard_pod_affinity_weight, 3);
}

#[test]
fn v1alpha1_policy_file_reference_is_not_followed() {
    let (c, w) = cfg_ok(json!({
        "apiVersion": V1ALPHA1, "kind": "KubeSchedulerConfiguration",
        "schedulerName": "topolvm-scheduler",
        "algorithmSource": {"policy": {"file": {"path": "/var/lib/scheduler/scheduler-policy.cfg"}}}
    }));
    assert_eq!(c.provider, "DefaultProvider");
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].0, "algorithmSource.policy.file");
    let (_, w) = cfg_ok(json!({
        "algorithmSource": {"policy": {"configMap": {"name": "p", "namespace": "kube-system"}}}
    }));
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].0, "algorithmSource.policy.configMap");
}

#[test]
fn cluster_autoscaler_provider_swaps_least_for_most_requested() {
    let (c, _) = cfg_ok(json!({"algorithmSource": {"provider": "ClusterAutoscalerProvider"}}));
    let b = build(None, &c).expect("builds");
    assert_eq!(filter_names(&b.algorithm), DEFAULT_FILTERS);
    let mut want = default_scores();
    for s in &mut want {
        if s.0 == "LeastRequestedPriority" {
            s.0 = "MostRequestedPriority".into();
        }
    }
    want.sort();
    assert_eq!(score_set(&b.algorithm), want);
    // An unknown provider is an error.
    let (c, _) = cfg_ok(json!({"algorithmSource": {"provider": "NoSuchProvider"}}));
    let errs = build(None, &c).err().expect("unknown provider");
    assert_eq!(errs[0].path, "algorithmSource.provider");
}

#[test]
fn v1alpha1_validation() {
    for (v, path) in [
        (
            json!({"percentageOfNodesToScore": 101}),
            "percentageOfNodesToScore",
        ),
        (
            json!({"percentageOfNodesToScore": -1}),
            "percentageOfNodesToScore",
        ),
        (
            json!({"hardPodAffinitySymmetricWeight": 101}),
            "hardPodAffinitySymmetricWeight",
        ),
        (
            json!({"hardPodAffinitySymmetricWeight": -5}),
            "hardPodAffinitySymmetricWeight",
        ),
        (json!({"schedulerName": ""}), "schedulerName"),
        (
            json!({"percentageOfNodesToScore": "half"}),
            "percentageOfNodesToScore",
        ),
    ] {
        let e = config::read(V1ALPHA1, v.clone())
            .err()
            .unwrap_or_else(|| panic!("{v} should fail"));
        assert_eq!(e.0, path, "{v}: {e:?}");
    }
}

#[test]
fn other_kube_scheduler_configuration_versions_are_rejected() {
    for api in [
        "kubescheduler.config.k8s.io/v1alpha2",
        "kubescheduler.config.k8s.io/v1beta1",
        "kubescheduler.config.k8s.io/v1beta2",
        "kubescheduler.config.k8s.io/v1beta3",
        "kubescheduler.config.k8s.io/v1",
        "v1",
        "",
    ] {
        let e = config::read(
            api,
            json!({"apiVersion": api, "kind": "KubeSchedulerConfiguration"}),
        )
        .err()
        .unwrap_or_else(|| panic!("{api} should be rejected"));
        assert_eq!(e.0, "apiVersion", "{api}");
        assert!(e.1.contains(&format!("{api:?}")), "{api}: {}", e.1);
        assert!(
            e.1.contains(V1ALPHA1),
            "the message says what is supported: {}",
            e.1
        );
    }
}
