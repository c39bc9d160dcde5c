//! Tests. Every expectation is worked out by hand from `shared/reference/modern.md` §1–2 and
//! `shared/realworld/SOURCES.md` ("KubeSchedulerConfiguration v1 and the modern mode").

use super::build::{self, aggregate};
use super::defaults::{Defaulted, ProfileConfig};
use super::merge::{merge_plugin_set, PluginEntry, PluginSet, Plugins};
use super::types::RawPluginConfig;
use super::validate::validate;
use super::*;
use crate::model::field::FieldError;
use crate::model::Millis;
use crate::sched::MAX_NODE_SCORE;
use crate::v135::plugin::Point;
use crate::v135::registry;
use serde::Deserialize;
use serde_json::{json, Value};

// ---------------------------------------------------------------------------------------------
// Helpers

/// A v1 document with these fields.
fn doc(fields: Value) -> Value {
    let mut d = json!({"apiVersion": V1, "kind": "KubeSchedulerConfiguration"});
    for (k, v) in fields.as_object().expect("an object") {
        d[k] = v.clone();
    }
    d
}

/// A document with one profile named `default-scheduler` holding these `plugins`.
fn with_plugins(plugins: Value) -> Value {
    doc(json!({"profiles": [{"schedulerName": "default-scheduler", "plugins": plugins}]}))
}

/// The errors of `read`, as printed.
fn errors(v: Value) -> Vec<String> {
    match read(v) {
        Ok(_) => panic!("expected errors"),
        Err(e) => e.iter().map(ToString::to_string).collect(),
    }
}

/// The one error of `read`, as (path, message).
fn one_error(v: Value) -> (String, String) {
    match read(v) {
        Ok(_) => panic!("expected an error"),
        Err(e) => {
            assert_eq!(e.len(), 1, "{e:?}");
            (e[0].path.clone(), e[0].message.clone())
        }
    }
}

/// The plans of a valid document.
fn plans(v: Value) -> Vec<ProfilePlan> {
    match plan(v) {
        Ok((p, _)) => p,
        Err(e) => panic!("{e:?}"),
    }
}

/// The plan of a valid document with one profile.
fn plan1(v: Value) -> ProfilePlan {
    let mut p = plans(v);
    assert_eq!(p.len(), 1);
    p.remove(0)
}

fn with_weights(list: &[(&str, i64)]) -> Vec<(String, i64)> {
    list.iter().map(|&(n, w)| (n.to_string(), w)).collect()
}

fn framework_error(name: &str, err: &str) -> String {
    format!("initializing profiles: creating profile for scheduler name {name}: {err}")
}

/// A file of `shared/realworld/inputs`, its first YAML document as JSON (upstream reads the
/// first document only).
fn realworld(file: &str) -> Value {
    let path = format!(
        "{}/../../../shared/realworld/inputs/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let first = serde_yaml_ng::Deserializer::from_str(&text)
        .next()
        .expect("a document");
    Value::deserialize(first).expect("YAML")
}

/// D: the default Score list in order, with weights (SOURCES.md; reference §1.3).
const D: [(&str, i64); 9] = [
    ("TaintToleration", 3),
    ("NodeAffinity", 2),
    ("NodeResourcesFit", 1),
    ("VolumeBinding", 1),
    ("PodTopologySpread", 2),
    ("InterPodAffinity", 2),
    ("DynamicResources", 2),
    ("NodeResourcesBalancedAllocation", 1),
    ("ImageLocality", 1),
];

/// The default list at every point except Score (reference §1.3, read column by column).
fn default_names(point: Point) -> Vec<&'static str> {
    match point {
        Point::PreEnqueue => vec!["SchedulingGates", "DynamicResources", "DefaultPreemption"],
        Point::QueueSort => vec!["PrioritySort"],
        Point::PreFilter => vec![
            "NodeAffinity",
            "NodePorts",
            "NodeResourcesFit",
            "VolumeRestrictions",
            "NodeVolumeLimits",
            "VolumeBinding",
            "VolumeZone",
            "PodTopologySpread",
            "InterPodAffinity",
            "DynamicResources",
        ],
        Point::Filter => vec![
            "NodeUnschedulable",
            "NodeName",
            "TaintToleration",
            "NodeAffinity",
            "NodePorts",
            "NodeResourcesFit",
            "VolumeRestrictions",
            "NodeVolumeLimits",
            "VolumeBinding",
            "VolumeZone",
            "PodTopologySpread",
            "InterPodAffinity",
            "DynamicResources",
        ],
        Point::PostFilter => vec!["DynamicResources", "DefaultPreemption"],
        Point::PreScore => vec![
            "TaintToleration",
            "NodeAffinity",
            "NodeResourcesFit",
            "VolumeBinding",
            "PodTopologySpread",
            "InterPodAffinity",
            "NodeResourcesBalancedAllocation",
        ],
        Point::Score => D.iter().map(|(n, _)| *n).collect(),
        Point::Reserve => vec!["VolumeBinding", "DynamicResources"],
        Point::Permit => vec![],
        Point::PreBind => vec!["VolumeBinding", "DynamicResources"],
        Point::Bind => vec!["DefaultBinder"],
        Point::PostBind => vec![],
    }
}

/// Asserts that `plan` is v1.35's default profile, at every point.
fn assert_default_points(plan: &ProfilePlan) {
    for point in Point::ALL {
        if point != Point::Score {
            assert_eq!(plan.names_at(point), default_names(point), "{point}");
        }
    }
    assert_eq!(plan.at(Point::Score), with_weights(&D));
}

/// A custom set: `enabled` (name, weight) with their indexes, `disabled` names.
fn custom(enabled: &[(&str, Option<i64>)], disabled: &[&str]) -> PluginSet {
    PluginSet {
        enabled: enabled
            .iter()
            .enumerate()
            .map(|(i, &(n, w))| PluginEntry {
                name: n.into(),
                weight: w,
                index: Some(i),
            })
            .collect(),
        disabled: disabled.iter().map(|d| d.to_string()).collect(),
    }
}

fn entry(name: &str, weight: Option<i64>, index: Option<usize>) -> PluginEntry {
    PluginEntry {
        name: name.into(),
        weight,
        index,
    }
}

// ---------------------------------------------------------------------------------------------
// mergePluginSet (reference §2.1)

#[test]
fn merge_replaces_in_place_keeps_unused_and_appends_the_rest() {
    // Default [A(1), B, C(3)]; custom enabled [C(9), D, A], disabled [B].
    // Walk the defaults: A → the custom A (index 2, no weight); B is disabled; C → the custom
    // C (index 0, weight 9). Then D (index 1), which replaced nothing.
    let default = PluginSet {
        enabled: vec![
            PluginEntry::default_entry("A", Some(1)),
            PluginEntry::default_entry("B", None),
            PluginEntry::default_entry("C", Some(3)),
        ],
        disabled: vec![],
    };
    let merged = merge_plugin_set(
        &default,
        &custom(&[("C", Some(9)), ("D", None), ("A", None)], &["B"]),
    );
    assert_eq!(
        merged.enabled,
        vec![
            entry("A", None, Some(2)),
            entry("C", Some(9), Some(0)),
            entry("D", None, Some(1)),
        ]
    );
    assert_eq!(merged.disabled, vec!["B"]);
}

#[test]
fn merge_disabled_lists_custom_names_then_the_defaults_own() {
    let default = PluginSet {
        enabled: vec![],
        disabled: vec!["X".into()],
    };
    let merged = merge_plugin_set(&default, &custom(&[], &["Y"]));
    assert_eq!(merged.disabled, vec!["Y", "X"]);
}

#[test]
fn merge_star_keeps_no_default() {
    let merged = merge_plugin_set(
        &Plugins::defaults().multi_point,
        &custom(&[("NodeName", None), ("Foo", Some(2))], &["*"]),
    );
    assert_eq!(
        merged.enabled,
        vec![
            entry("NodeName", None, Some(0)),
            entry("Foo", Some(2), Some(1))
        ]
    );
    assert_eq!(merged.disabled, vec!["*"]);
}

#[test]
fn merge_weight_given_in_multi_point_replaces_the_default_weight_in_place() {
    // multiPoint: enabled: [{name: NodeAffinity, weight: 5}] keeps NodeAffinity 6th.
    let merged = merge_plugin_set(
        &Plugins::defaults().multi_point,
        &custom(&[("NodeAffinity", Some(5))], &[]),
    );
    assert_eq!(merged.enabled.len(), 19);
    assert_eq!(merged.enabled[5], entry("NodeAffinity", Some(5), Some(0)));
    assert_eq!(merged.enabled[4], entry("TaintToleration", Some(3), None));
    // An entry without a weight takes the slot without one: the default 3 is gone.
    let merged = merge_plugin_set(
        &Plugins::defaults().multi_point,
        &custom(&[("TaintToleration", None)], &[]),
    );
    assert_eq!(merged.enabled[4], entry("TaintToleration", None, Some(0)));
}

#[test]
fn merge_disable_and_re_enable_moves_the_plugin_to_the_custom_position() {
    let merged = merge_plugin_set(
        &Plugins::defaults().multi_point,
        &custom(&[("NodeName", None)], &["NodeName"]),
    );
    let names = merged.names();
    assert_eq!(names.len(), 19);
    assert_eq!(&names[2..4], ["NodeUnschedulable", "TaintToleration"]);
    assert_eq!(&names[17..], ["DefaultBinder", "NodeName"]);
}

#[test]
fn merge_duplicate_names_the_last_takes_the_default_slot_the_first_is_appended() {
    let merged = merge_plugin_set(
        &Plugins::defaults().multi_point,
        &custom(
            &[("ImageLocality", Some(5)), ("ImageLocality", Some(7))],
            &[],
        ),
    );
    let tail: Vec<&PluginEntry> = merged.enabled.iter().skip(17).collect();
    assert_eq!(
        tail,
        [
            &entry("ImageLocality", Some(7), Some(1)),
            &entry("DefaultBinder", None, None),
            &entry("ImageLocality", Some(5), Some(0)),
        ]
    );
}

#[test]
fn merge_without_plugins_keeps_the_defaults_and_other_points_start_empty() {
    assert_eq!(Plugins::merged(None), Plugins::defaults());
    let d = Plugins::defaults();
    assert!(Point::ALL.iter().all(|&p| d.at(p) == &PluginSet::default()));
    let names = d.multi_point.names();
    assert_eq!(names.first(), Some(&"SchedulingGates"));
    assert_eq!(names.last(), Some(&"DefaultBinder"));
}

// ---------------------------------------------------------------------------------------------
// Defaults and expansion (reference §1, §2.2)

#[test]
fn the_default_configuration_runs_the_default_plugins() {
    let p = plan1(doc(json!({})));
    assert_eq!(p.scheduler_name, "default-scheduler");
    assert_eq!(p.percentage_of_nodes_to_score, None);
    assert_default_points(&p);

    let c = Configuration::defaults();
    assert_eq!(c.percentage_of_nodes_to_score, 0);
    assert_eq!(c.pod_initial_backoff_seconds, 1);
    assert_eq!(c.pod_max_backoff_seconds, 10);
    assert_eq!(c.profiles.len(), 1);
    let profile = c.profile("default-scheduler").expect("default profile");
    assert!(c.profile("other").is_none());
    for point in Point::ALL {
        let expected: Vec<&str> = p.names_at(point);
        assert_eq!(profile.names_at(point), expected, "{point}");
    }
    let score: Vec<(&str, i64)> = profile
        .at(Point::Score)
        .map(|e| (e.spec.name, e.weight))
        .collect();
    assert_eq!(score, D);
    // Every default plugin is built once; each instance answers to its own name.
    assert_eq!(profile.plugins.len(), 19);
    for e in &profile.plugins {
        assert_eq!(e.plugin.name(), e.spec.name);
    }
    // Weight 1 for plugins that do not score.
    let binder = profile.at(Point::Bind).next().expect("a binder");
    assert_eq!((binder.spec.name, binder.weight), ("DefaultBinder", 1));
}

#[test]
fn the_default_name_is_given_only_to_a_single_unnamed_profile() {
    assert_eq!(
        plan1(doc(json!({"profiles": [{}]}))).scheduler_name,
        "default-scheduler"
    );
    assert_eq!(
        plan1(doc(json!({"profiles": [{"schedulerName": "x"}]}))).scheduler_name,
        "x"
    );
    // Two profiles: no default, so the unnamed one is an error.
    assert_eq!(
        errors(doc(json!({"profiles": [{}, {"schedulerName": "b"}]}))),
        ["profiles[0].schedulerName: Required value"]
    );
    // An empty name is a name: not defaulted.
    assert_eq!(
        errors(doc(json!({"profiles": [{"schedulerName": ""}]}))),
        ["profiles[0].schedulerName: Required value"]
    );
}

#[test]
fn top_level_values_are_read_and_the_profile_percentage_is_kept() {
    let (c, warnings) = read(doc(json!({
        "percentageOfNodesToScore": 40,
        "podInitialBackoffSeconds": 2,
        "podMaxBackoffSeconds": 20,
        "parallelism": 8,
        "profiles": [{"schedulerName": "a", "percentageOfNodesToScore": 70}]
    })))
    .expect("valid");
    assert!(warnings.is_empty());
    assert_eq!(c.percentage_of_nodes_to_score, 40);
    assert_eq!(c.pod_initial_backoff_seconds, 2);
    assert_eq!(c.pod_max_backoff_seconds, 20);
    assert_eq!(c.profiles[0].percentage_of_nodes_to_score, Some(70));
}

#[test]
fn an_explicit_list_overrides_multi_point_and_leftover_explicit_plugins_go_last() {
    // NodeName leaves multiPoint; filter enables NodeName then TaintToleration. Filter:
    // (1) overrides in explicit order: TaintToleration; (2) multiPoint-only, multiPoint order;
    // (3) the other explicit plugins: NodeName.
    let p = plan1(with_plugins(json!({
        "multiPoint": {"disabled": [{"name": "NodeName"}]},
        "filter": {"enabled": [{"name": "NodeName"}, {"name": "TaintToleration"}]}
    })));
    assert_eq!(
        p.names_at(Point::Filter),
        [
            "TaintToleration",
            "NodeUnschedulable",
            "NodeAffinity",
            "NodePorts",
            "NodeResourcesFit",
            "VolumeRestrictions",
            "NodeVolumeLimits",
            "VolumeBinding",
            "VolumeZone",
            "PodTopologySpread",
            "InterPodAffinity",
            "DynamicResources",
            "NodeName",
        ]
    );
    // Every other point is as by default (NodeName is a Filter plugin only).
    for point in Point::ALL {
        if point != Point::Filter && point != Point::Score {
            assert_eq!(p.names_at(point), default_names(point), "{point}");
        }
    }
    assert_eq!(p.at(Point::Score), with_weights(&D));
}

#[test]
fn a_point_can_disable_a_multi_point_plugin_at_that_point_only() {
    let p = plan1(with_plugins(
        json!({"filter": {"disabled": [{"name": "TaintToleration"}]}}),
    ));
    let mut filter = default_names(Point::Filter);
    filter.retain(|n| *n != "TaintToleration");
    assert_eq!(p.names_at(Point::Filter), filter);
    assert_eq!(p.names_at(Point::PreScore), default_names(Point::PreScore));
    assert_eq!(p.at(Point::Score), with_weights(&D));
}

#[test]
fn an_explicit_score_weight_beats_the_multi_point_weight() {
    let p = plan1(with_plugins(
        json!({"score": {"enabled": [{"name": "TaintToleration", "weight": 7}]}}),
    ));
    assert_eq!(
        p.at(Point::Score),
        with_weights(&[
            ("TaintToleration", 7),
            ("NodeAffinity", 2),
            ("NodeResourcesFit", 1),
            ("VolumeBinding", 1),
            ("PodTopologySpread", 2),
            ("InterPodAffinity", 2),
            ("DynamicResources", 2),
            ("NodeResourcesBalancedAllocation", 1),
            ("ImageLocality", 1),
        ])
    );
}

#[test]
fn multi_point_weights_replace_the_default_weight_in_place() {
    let p = plan1(with_plugins(
        json!({"multiPoint": {"enabled": [{"name": "NodeAffinity", "weight": 5}]}}),
    ));
    let mut expected = D;
    expected[1] = ("NodeAffinity", 5);
    assert_eq!(p.at(Point::Score), with_weights(&expected));
    // Without a weight the entry has none, and the framework reads that as 1.
    let p = plan1(with_plugins(
        json!({"multiPoint": {"enabled": [{"name": "TaintToleration"}]}}),
    ));
    let mut expected = D;
    expected[0] = ("TaintToleration", 1);
    assert_eq!(p.at(Point::Score), with_weights(&expected));
}

#[test]
fn a_zero_weight_becomes_one() {
    let p = plan1(with_plugins(
        json!({"score": {"enabled": [{"name": "ImageLocality", "weight": 0}]}}),
    ));
    let score = p.at(Point::Score);
    assert_eq!(score[0], ("ImageLocality".to_string(), 1));
    assert_eq!(score.len(), 9);
}

#[test]
fn a_negative_weight_is_accepted_only_when_no_score_plugin_follows_it() {
    // ImageLocality is the last Score plugin of multiPoint: total 1400 - 100, no overflow.
    let p = plan1(with_plugins(
        json!({"multiPoint": {"enabled": [{"name": "ImageLocality", "weight": -1}]}}),
    ));
    assert_eq!(p.at(Point::Score)[8], ("ImageLocality".to_string(), -1));
    // In score.enabled it comes first: the running total is -100, MaxTotalScore - (-100)
    // wraps around in Go's int64, and the next plugin (TaintToleration, a multiPoint default)
    // fails the check.
    let (path, message) = one_error(with_plugins(
        json!({"score": {"enabled": [{"name": "ImageLocality", "weight": -1}]}}),
    ));
    assert_eq!(path, "profiles[0].plugins.multiPoint");
    assert_eq!(
        message,
        framework_error(
            "default-scheduler",
            "total score of Score plugins could overflow"
        )
    );
}

#[test]
fn weights_that_overflow_the_total_score_are_rejected() {
    // Weights beyond int32 cannot be written in a v1 document, so the profile is made by hand.
    // ImageLocality: 92233720368547758 × 100 = 9223372036854775800 ≤ MaxInt64 - 0. Then
    // TaintToleration (3): 300 > MaxInt64 - 9223372036854775800 = 7.
    let big = i64::MAX / MAX_NODE_SCORE;
    let mut custom_plugins = Plugins::default();
    custom_plugins.points[Point::Score as usize] = custom(&[("ImageLocality", Some(big))], &[]);
    let p = ProfileConfig {
        scheduler_name: "s".into(),
        percentage_of_nodes_to_score: None,
        plugins_given: true,
        plugins: Plugins::merged(Some(&custom_plugins)),
        plugin_config: vec![],
    };
    let err = build::plan_profile(0, &p).expect_err("overflow");
    assert_eq!(err.path, "profiles[0].plugins.multiPoint");
    assert_eq!(
        err.message,
        framework_error("s", "total score of Score plugins could overflow")
    );
    // Three less: 9223372036854775500 leaves 307, so TaintToleration (300) fits and leaves 7;
    // NodeAffinity (200) then overflows.
    custom_plugins.points[Point::Score as usize] = custom(&[("ImageLocality", Some(big - 3))], &[]);
    let p = ProfileConfig {
        plugins: Plugins::merged(Some(&custom_plugins)),
        ..p
    };
    let err = build::plan_profile(0, &p).expect_err("overflow");
    assert_eq!(err.path, "profiles[0].plugins.multiPoint");
}

#[test]
fn a_second_multi_point_entry_of_a_name_is_already_registered() {
    // The default slot takes the second entry (index 1); the first is appended after
    // DefaultBinder. ImageLocality is a Score plugin only, so Score fails.
    let (path, message) = one_error(with_plugins(json!({"multiPoint": {"enabled": [
        {"name": "ImageLocality"}, {"name": "ImageLocality"}
    ]}})));
    assert_eq!(path, "profiles[0].plugins.multiPoint.enabled[0]");
    assert_eq!(
        message,
        framework_error(
            "default-scheduler",
            r#"plugin "ImageLocality" already registered as "ScorePlugin""#
        )
    );
}

#[test]
fn per_point_framework_errors() {
    let cases = [
        (
            json!({"filter": {"enabled": [{"name": "PrioritySort"}]}}),
            "profiles[0].plugins.filter.enabled[0]",
            r#"plugin "PrioritySort" does not extend FilterPlugin plugin"#.to_string(),
        ),
        (
            json!({"filter": {"enabled": [{"name": "NodeName"}, {"name": "NodeName"}]}}),
            "profiles[0].plugins.filter.enabled[1]",
            r#"plugin "NodeName" already registered as "FilterPlugin""#.to_string(),
        ),
        (
            // Per-point lists come before multiPoint, and PreFilter before Filter.
            json!({
                "multiPoint": {"enabled": [{"name": "Foo"}]},
                "filter": {"enabled": [{"name": "Bar"}]},
                "preFilter": {"enabled": [{"name": "Baz"}]}
            }),
            "profiles[0].plugins.preFilter.enabled[0]",
            r#"PreFilterPlugin "Baz" does not exist"#.to_string(),
        ),
        (
            // A removed plugin in multiPoint is not caught by validation: it is unknown.
            json!({"multiPoint": {"enabled": [{"name": "GCEPDLimits"}]}}),
            "profiles[0].plugins.multiPoint.enabled[0]",
            r#"PreFilterPlugin "GCEPDLimits" does not exist"#.to_string(),
        ),
        (
            // With PreFilter and Filter disabled ('*'), multiPoint is first expanded at
            // PostFilter.
            json!({
                "multiPoint": {"enabled": [{"name": "Foo"}]},
                "preFilter": {"disabled": [{"name": "*"}]},
                "filter": {"disabled": [{"name": "*"}]}
            }),
            "profiles[0].plugins.multiPoint.enabled[0]",
            r#"PostFilterPlugin "Foo" does not exist"#.to_string(),
        ),
        (
            json!({"bind": {"disabled": [{"name": "DefaultBinder"}]}}),
            "profiles[0].plugins.bind",
            r#"at least one bind plugin is needed for profile with scheduler name "default-scheduler""#
                .to_string(),
        ),
        (
            json!({"queueSort": {"disabled": [{"name": "*"}]}}),
            "profiles[0].plugins.queueSort",
            r#"only one queue sort plugin required for profile with scheduler name "default-scheduler", but got 0"#
                .to_string(),
        ),
    ];
    for (plugins, path, err) in cases {
        let (p, m) = one_error(with_plugins(plugins.clone()));
        assert_eq!(p, path, "{plugins}");
        assert_eq!(m, framework_error("default-scheduler", &err), "{plugins}");
    }
}

#[test]
fn every_failing_profile_reports_its_first_error() {
    let v = doc(json!({"profiles": [
        {"schedulerName": "a", "plugins": {"score": {"enabled": [{"name": "X"}]}}},
        {"schedulerName": "b"},
        {"schedulerName": "c", "plugins": {"filter": {"enabled": [{"name": "Y"}, {"name": "Z"}]}}}
    ]}));
    assert_eq!(
        errors(v),
        [
            format!(
                "profiles[0].plugins.score.enabled[0]: {}",
                framework_error("a", r#"ScorePlugin "X" does not exist"#)
            ),
            format!(
                "profiles[2].plugins.filter.enabled[0]: {}",
                framework_error("c", r#"FilterPlugin "Y" does not exist"#)
            ),
        ]
    );
}

#[test]
fn repeated_plugin_config_is_a_framework_error_too() {
    // Validation reports it first (Duplicate value); the framework's own check is reached
    // only when the profile is built directly.
    let cfg = |name: &str| RawPluginConfig {
        name: name.into(),
        args: None,
    };
    let p = ProfileConfig {
        scheduler_name: "s".into(),
        percentage_of_nodes_to_score: None,
        plugins_given: false,
        plugins: Plugins::merged(None),
        plugin_config: vec![
            cfg("NodeAffinity"),
            cfg("InterPodAffinity"),
            cfg("NodeAffinity"),
        ],
    };
    let err = build::plan_profile(0, &p).expect_err("repeated");
    assert_eq!(err.path, "profiles[0].pluginConfig[2]");
    assert_eq!(
        err.message,
        framework_error("s", "repeated config for plugin NodeAffinity")
    );
}

#[test]
fn build_errors_print_as_an_aggregate() {
    let a = FieldError::plain("x", "one");
    let b = FieldError::plain("y", "two");
    assert_eq!(aggregate(std::slice::from_ref(&a)), "x: one");
    assert_eq!(aggregate(&[a.clone(), b, a]), "[x: one, y: two]");
}

// ---------------------------------------------------------------------------------------------
// Validation (reference §2.3)

#[test]
fn validation_rows() {
    let removed = r#"was invalid in version "kubescheduler.config.k8s.io/v1" (KubeSchedulerConfiguration is version "kubescheduler.config.k8s.io/v1")"#;
    let cases: Vec<(Value, Vec<String>)> = vec![
        (
            json!({"parallelism": 0}),
            vec!["parallelism: Invalid value: 0: should be an integer value greater than zero".into()],
        ),
        (
            json!({"profiles": [{"schedulerName": "a"}, {"schedulerName": "a"}]}),
            vec![r#"profiles[1].schedulerName: Duplicate value: "profiles[0].schedulerName""#.into()],
        ),
        (
            json!({"percentageOfNodesToScore": 101}),
            vec!["percentageOfNodesToScore: Invalid value: 101: not in valid range [0-100]".into()],
        ),
        (
            json!({"profiles": [{"percentageOfNodesToScore": -1}]}),
            vec!["profiles[0].percentageOfNodesToScore: Invalid value: -1: not in valid range [0-100]".into()],
        ),
        (
            json!({"podInitialBackoffSeconds": 0}),
            vec!["podInitialBackoffSeconds: Invalid value: 0: must be greater than 0".into()],
        ),
        (
            json!({"podInitialBackoffSeconds": 6, "podMaxBackoffSeconds": 5}),
            vec!["podMaxBackoffSeconds: Invalid value: 5: must be greater than or equal to PodInitialBackoffSeconds".into()],
        ),
        (
            // Against the default initial backoff of 1.
            json!({"podMaxBackoffSeconds": 0}),
            vec!["podMaxBackoffSeconds: Invalid value: 0: must be greater than or equal to PodInitialBackoffSeconds".into()],
        ),
        (
            json!({"profiles": [{"plugins": {"filter": {"enabled": [{"name": "NodeName"}, {"name": "EBSLimits"}]}}}]}),
            vec![format!(r#"profiles[0].plugins.filter.enabled[1]: Invalid value: "EBSLimits": {removed}"#)],
        ),
        (
            json!({"profiles": [{"pluginConfig": [{"name": "AzureDiskLimits", "args": {}}]}]}),
            vec![format!(r#"profiles[0].pluginConfig[0]: Invalid value: "AzureDiskLimits": {removed}"#)],
        ),
        (
            json!({"profiles": [{"pluginConfig": [{"name": "NodeAffinity"}, {"name": "NodeAffinity"}]}]}),
            vec![r#"profiles[0].pluginConfig[1]: Duplicate value: "NodeAffinity""#.into()],
        ),
        (
            json!({"profiles": [{"pluginConfig": [{"name": "InterPodAffinity", "args": {"kind": "NodeResourcesFitArgs", "hardPodAffinityWeight": 2}}]}]}),
            vec![r#"profiles[0].pluginConfig[0].args: Invalid value: {"kind":"NodeResourcesFitArgs","hardPodAffinityWeight":2}: has to match plugin args"#.into()],
        ),
        (
            // Profile 0's queueSort set is empty (PrioritySort comes from multiPoint);
            // profile 1 names one.
            json!({"profiles": [
                {"schedulerName": "a"},
                {"schedulerName": "b", "plugins": {"queueSort": {"enabled": [{"name": "PrioritySort"}], "disabled": [{"name": "*"}]}}}
            ]}),
            vec![r#"profiles[1].plugins.queueSort: Invalid value: config.PluginSet{Enabled:[]config.Plugin{config.Plugin{Name:"PrioritySort", Weight:0}}, Disabled:[]config.Plugin{config.Plugin{Name:"*", Weight:0}}}: queueSort must be the same for all profiles"#.into()],
        ),
        (
            json!({"profiles": [
                {"schedulerName": "a", "plugins": {"queueSort": {"enabled": [{"name": "PrioritySort"}]}}},
                {"schedulerName": "b", "plugins": {"queueSort": {"enabled": [{"name": "PrioritySort"}]}},
                 "pluginConfig": [{"name": "PrioritySort", "args": {"a": 1}}]}
            ]}),
            vec![r#"profiles[1].pluginConfig.args: Invalid value: {"a":1}: queueSort must be the same for all profiles"#.into()],
        ),
        (
            json!({"profiles": [{"plugins": {"queueSort": {"enabled": [{"name": "PrioritySort"}, {"name": "Other"}]}}}]}),
            vec!["profiles[0].plugins.queueSort.Enabled: Invalid value: 2: only one queue sort plugin can be enabled".into()],
        ),
        (
            json!({"extenders": [{"urlPrefix": "http://e", "prioritizeVerb": "p", "weight": 0}]}),
            vec!["extenders[0].weight: Invalid value: 0: must have a positive weight applied to it".into()],
        ),
        (
            json!({"extenders": [{"bindVerb": "b"}, {"bindVerb": "b"}]}),
            vec![r#"extenders: Invalid value: "found 2 extenders implementing bind": only one extender can implement bind"#.into()],
        ),
        (
            json!({"extenders": [{"managedResources": [{"name": "example.com/a"}, {"name": "cpu"}, {"name": "example.com/a"}]}]}),
            vec![
                r#"extenders[0].managedResources[1].name: Invalid value: "cpu": is an invalid extended resource name"#.into(),
                r#"extenders[0].managedResources[2].name: Invalid value: "example.com/a": duplicate extender managed resource name"#.into(),
            ],
        ),
    ];
    for (fields, expected) in cases {
        assert_eq!(errors(doc(fields.clone())), expected, "{fields}");
    }
}

#[test]
fn validation_reports_every_error_in_upstream_order_and_before_any_build() {
    let v = doc(json!({
        "parallelism": -1,
        "percentageOfNodesToScore": 200,
        "podInitialBackoffSeconds": 0,
        "profiles": [
            {"schedulerName": "a", "percentageOfNodesToScore": 300,
             "plugins": {"score": {"enabled": [{"name": "Unknown"}, {"name": "CinderLimits"}]}}},
            {"schedulerName": "a"}
        ]
    }));
    assert_eq!(
        errors(v),
        [
            "parallelism: Invalid value: -1: should be an integer value greater than zero",
            "profiles[0].percentageOfNodesToScore: Invalid value: 300: not in valid range [0-100]",
            r#"profiles[0].plugins.score.enabled[1]: Invalid value: "CinderLimits": was invalid in version "kubescheduler.config.k8s.io/v1" (KubeSchedulerConfiguration is version "kubescheduler.config.k8s.io/v1")"#,
            r#"profiles[1].schedulerName: Duplicate value: "profiles[0].schedulerName""#,
            "percentageOfNodesToScore: Invalid value: 200: not in valid range [0-100]",
            "podInitialBackoffSeconds: Invalid value: 0: must be greater than 0",
        ]
    );
}

#[test]
fn no_profiles_is_required_but_defaulting_always_adds_one() {
    let empty = Defaulted {
        parallelism: 16,
        percentage_of_nodes_to_score: 0,
        pod_initial_backoff_seconds: 1,
        pod_max_backoff_seconds: 10,
        profiles: vec![],
        extenders: vec![],
    };
    let errs: Vec<String> = validate(&empty).iter().map(ToString::to_string).collect();
    assert_eq!(errs, ["profiles: Required value"]);
    assert_eq!(plans(doc(json!({"profiles": []}))).len(), 1);
}

#[test]
fn plugin_args_errors_of_validated_plugins_are_placed_under_their_plugin_config() {
    // Whatever PodTopologySpread's build says about these args (a hostname constraint with the
    // default defaultingType System), read places it under profiles[0].pluginConfig[1].args.
    let args = json!({"defaultConstraints": [
        {"maxSkew": 1, "topologyKey": "kubernetes.io/hostname", "whenUnsatisfiable": "ScheduleAnyway"}
    ]});
    let spec = registry::lookup("PodTopologySpread").expect("registered");
    assert!(spec.args_checked_by_validation);
    let direct = (spec.build)(Some(&args));
    let v = doc(json!({"profiles": [{"pluginConfig": [
        {"name": "NodeAffinity"},
        {"name": "PodTopologySpread", "args": args}
    ]}]}));
    match direct {
        Ok(_) => assert!(read(v).is_ok()),
        Err(direct) => {
            let expected: Vec<FieldError> = direct
                .into_iter()
                .map(|e| e.under("profiles[0].pluginConfig[1].args"))
                .collect();
            let got = read(v).expect_err("args errors");
            assert_eq!(got, expected);
            // SOURCES.md: what upstream says for these args.
            assert!(
                got.iter().any(|e| e.to_string()
                    == r#"profiles[0].pluginConfig[1].args.defaultingType: Invalid value: "System": when .defaultConstraints are not empty"#),
                "{got:?}"
            );
        }
    }
}

#[test]
fn node_resources_fit_args_are_checked_when_the_plugin_is_built() {
    // Not by validation (upstream's map key quirk): by the framework, wrapped.
    let args = json!({"scoringStrategy": {"type": "LeastAllocated", "resources": [{"name": "cpu", "weight": 101}]}});
    let spec = registry::lookup("NodeResourcesFit").expect("registered");
    assert!(!spec.args_checked_by_validation);
    let direct = (spec.build)(Some(&args));
    let v =
        doc(json!({"profiles": [{"pluginConfig": [{"name": "NodeResourcesFit", "args": args}]}]}));
    match direct {
        Ok(_) => assert!(read(v).is_ok()),
        Err(direct) => {
            let (path, message) = one_error(v);
            assert_eq!(path, "profiles[0].pluginConfig[0].args");
            assert_eq!(
                message,
                framework_error(
                    "default-scheduler",
                    &format!(
                        "initializing plugin \"NodeResourcesFit\": {}",
                        aggregate(&direct)
                    )
                )
            );
        }
    }
    // Validation alone passes: plan does not build plugins.
    assert!(plan(doc(json!({"profiles": [{"pluginConfig": [
        {"name": "NodeResourcesFit", "args": {"scoringStrategy": {"type": "Nonsense"}}}
    ]}]})))
    .is_ok());
}

// ---------------------------------------------------------------------------------------------
// Decoding

#[test]
fn decoding_is_strict_and_names_the_path() {
    let cases = [
        (
            doc(json!({"healthzBindAddress": "0.0.0.0:10251"})),
            "healthzBindAddress",
            r#"strict decoding error: unknown field "healthzBindAddress""#,
        ),
        (
            with_plugins(json!({"score": {"enabled": [{"name": "ImageLocality", "wieght": 2}]}})),
            "profiles[0].plugins.score.enabled[0].wieght",
            r#"strict decoding error: unknown field "wieght""#,
        ),
        (
            with_plugins(json!({"unreserve": {"enabled": [{"name": "X"}]}})),
            "profiles[0].plugins.unreserve",
            r#"strict decoding error: unknown field "unreserve""#,
        ),
        (
            doc(json!({"extenders": [{"urlPrefix": "u", "enableHttps": true}]})),
            "extenders[0].enableHttps",
            r#"strict decoding error: unknown field "enableHttps""#,
        ),
    ];
    for (v, path, message) in cases {
        assert_eq!(one_error(v), (path.to_string(), message.to_string()));
    }
    // Type errors: at the path, in serde's words.
    let (path, _) = one_error(with_plugins(
        json!({"score": {"enabled": [{"name": "ImageLocality", "weight": "2"}]}}),
    ));
    assert_eq!(path, "profiles[0].plugins.score.enabled[0].weight");
    let (path, _) = one_error(with_plugins(
        json!({"score": {"enabled": [{"name": "ImageLocality", "weight": 3_000_000_000_i64}]}}),
    ));
    assert_eq!(path, "profiles[0].plugins.score.enabled[0].weight");
    let (path, _) = one_error(doc(json!({"profiles": {"pluginConfig": []}})));
    assert_eq!(path, "profiles");
}

#[test]
fn process_fields_are_accepted_and_ignored() {
    let (c, warnings) = read(doc(json!({
        "parallelism": 4,
        "leaderElection": {"leaderElect": true, "resourceLock": "leases", "leaseDuration": "137s"},
        "clientConnection": {"kubeconfig": "/x", "qps": 50},
        "enableProfiling": false,
        "enableContentionProfiling": false,
        "delayCacheUntilActive": true
    })))
    .expect("valid");
    assert!(warnings.is_empty());
    assert_eq!(c.profiles.len(), 1);
}

#[test]
fn extenders_are_built_ignorable_last() {
    let (c, warnings) = read(doc(json!({"extenders": [
        {"urlPrefix": "http://a/", "filterVerb": "filter", "ignorable": true,
         "managedResources": [{"name": "example.com/gpu", "ignoredByScheduler": true}]},
        {"urlPrefix": "http://b/", "prioritizeVerb": "prioritize", "weight": 1, "httpTimeout": "1m30s"}
    ]})))
    .expect("valid");
    assert!(warnings.is_empty(), "{warnings:?}");
    // buildExtenders moves the ignorable extender to the end.
    let urls: Vec<&str> = c.extenders.iter().map(|e| e.url_prefix.as_str()).collect();
    assert_eq!(urls, ["http://b/", "http://a/"]);
    assert_eq!(c.extenders[0].http_timeout, Some(Millis::secs(90)));
    assert_eq!(c.extenders[1].http_timeout, Some(Millis::secs(5)));
}

// ---------------------------------------------------------------------------------------------
// Real-world files (SOURCES.md, "KubeSchedulerConfiguration v1 and the modern mode")

#[test]
fn realworld_two_profiles_one_without_scoring() {
    let p = plans(realworld("k8sweb__ksc_v1_two_profiles_no_scoring.yaml"));
    let names: Vec<&str> = p.iter().map(|p| p.scheduler_name.as_str()).collect();
    assert_eq!(names, ["default-scheduler", "no-scoring-scheduler"]);
    assert_default_points(&p[0]);
    for point in Point::ALL {
        let expected = match point {
            Point::PreScore | Point::Score => vec![],
            _ => default_names(point),
        };
        assert_eq!(p[1].names_at(point), expected, "{point}");
    }
    assert_eq!(
        p[1].names_at(Point::PostFilter),
        ["DynamicResources", "DefaultPreemption"]
    );
    let (c, _) = read(realworld("k8sweb__ksc_v1_two_profiles_no_scoring.yaml")).expect("valid");
    let none = c.profile("no-scoring-scheduler").expect("profile");
    assert_eq!(none.at(Point::Score).count(), 0);
    assert_eq!(none.at(Point::PreScore).count(), 0);
}

#[test]
fn realworld_rtcr_single_unnamed_profile_is_the_default_scheduler() {
    let v = realworld("k8sweb__ksc_v1_rtcr_shape_extended_resources_only.yaml");
    let p = plan1(v.clone());
    assert_eq!(p.scheduler_name, "default-scheduler");
    assert_default_points(&p);
    let (c, warnings) = read(v).expect("valid");
    assert!(warnings.is_empty());
    assert!(c.profile("default-scheduler").is_some());
}

#[test]
fn realworld_openshift_high_node_utilization_score_list() {
    let v = realworld("openshift__ksc_v1_highnodeutilization_mostallocated_fit5.yaml");
    let p = plan1(v.clone());
    assert_eq!(p.scheduler_name, "default-scheduler");
    assert_eq!(
        p.at(Point::Score),
        with_weights(&[
            ("NodeResourcesFit", 5),
            ("TaintToleration", 3),
            ("NodeAffinity", 2),
            ("VolumeBinding", 1),
            ("PodTopologySpread", 2),
            ("InterPodAffinity", 2),
            ("DynamicResources", 2),
            ("ImageLocality", 1),
        ])
    );
    // NodeResourcesBalancedAllocation stays at PreScore; every other point is as default.
    for point in Point::ALL {
        if point != Point::Score {
            assert_eq!(p.names_at(point), default_names(point), "{point}");
        }
    }
    assert!(read(v).is_ok());
}

#[test]
fn realworld_openshift_default_config_without_profiles() {
    let v = realworld("openshift__ksc_v1_defaultconfig_leaderelection_no_profiles.yaml");
    assert_default_points(&plan1(v.clone()));
    let (c, warnings) = read(v).expect("valid");
    assert!(warnings.is_empty());
    assert_eq!(c.percentage_of_nodes_to_score, 0);
    assert_eq!(
        (c.pod_initial_backoff_seconds, c.pod_max_backoff_seconds),
        (1, 10)
    );
    assert!(c.profile("default-scheduler").is_some());
}

#[test]
fn realworld_minimal_and_pod_topology_spread_configs_keep_the_defaults() {
    for file in [
        "ksimulator__ksc_v1_minimal.yaml",
        "k8s__ksc_v1_pts_list_empty_defaultconstraints.yaml",
        "homecdk8s__ksc_v1_pts_list_zone_clientconnection.yaml",
    ] {
        let v = realworld(file);
        let p = plan1(v.clone());
        assert_eq!(p.scheduler_name, "default-scheduler", "{file}");
        assert_default_points(&p);
        let (c, warnings) = read(v).unwrap_or_else(|e| panic!("{file}: {e:?}"));
        assert!(warnings.is_empty(), "{file}");
        assert_eq!(c.profiles.len(), 1, "{file}");
    }
}

#[test]
fn realworld_most_allocated_custom_profile_filter_and_score_order() {
    let v = realworld("mostallocsched__ksc_v1_custom_only_profile_explicit_filter_order.yaml");
    let p = plan1(v.clone());
    assert_eq!(p.scheduler_name, "custom-scheduler");
    assert_eq!(
        p.names_at(Point::Filter),
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
    assert_eq!(
        p.at(Point::Score),
        with_weights(&[
            ("NodeResourcesFit", 10),
            ("NodeResourcesBalancedAllocation", 3),
            ("TaintToleration", 3),
            ("NodeAffinity", 2),
            ("VolumeBinding", 1),
            ("PodTopologySpread", 2),
            ("InterPodAffinity", 2),
            ("DynamicResources", 2),
            ("ImageLocality", 1),
        ])
    );
    assert_eq!(p.names_at(Point::QueueSort), ["PrioritySort"]);
    assert_eq!(p.names_at(Point::Bind), ["DefaultBinder"]);
    let (c, _) = read(v).expect("valid");
    assert!(c.profile("custom-scheduler").is_some());
    assert!(c.profile("default-scheduler").is_none());
}

#[test]
fn realworld_profiles_given_as_a_mapping_fail_at_decoding() {
    let v = realworld("timohomelab__ksc_v1_profiles_is_a_map.yaml");
    let (path, _) = one_error(v.clone());
    assert_eq!(path, "profiles");
    assert!(plan(v.clone()).is_err());
    // SOURCES.md: had `profiles` been a list, PodTopologySpread's args (a hostname constraint
    // with the default defaultingType System) would fail validation.
    let mut fixed = v.clone();
    fixed["profiles"] = json!([v["profiles"].clone()]);
    let spec = registry::lookup("PodTopologySpread").expect("registered");
    let args = &v["profiles"]["pluginConfig"][0]["args"];
    match (spec.build)(Some(args)) {
        Ok(_) => assert!(read(fixed).is_ok()),
        Err(_) => assert_eq!(
            errors(fixed),
            [
                r#"profiles[0].pluginConfig[0].args.defaultingType: Invalid value: "System": when .defaultConstraints are not empty"#
            ]
        ),
    }
}

#[test]
fn realworld_out_of_tree_plugins_do_not_exist() {
    let cases = [
        (
            "schedplugins__ksc_v1_coscheduling_multipoint_queuesort_disable_all.yaml",
            "profiles[0].plugins.queueSort.enabled[0]",
            r#"QueueSortPlugin "Coscheduling" does not exist"#,
        ),
        (
            "schedplugins__ksc_v1_nodemetadata_multidoc_4configs.yaml",
            "profiles[0].plugins.score.enabled[0]",
            r#"ScorePlugin "NodeMetadata" does not exist"#,
        ),
        (
            "wasmext__ksc_v1_multipoint_wasm_nodenumber_extender.yaml",
            "profiles[0].plugins.multiPoint.enabled[0]",
            r#"PreFilterPlugin "wasm" does not exist"#,
        ),
        (
            "schedplugins__ksc_v1_noderesourcesallocatable_disable_all.yaml",
            "profiles[0].plugins.score.enabled[0]",
            r#"ScorePlugin "NodeResourcesAllocatable" does not exist"#,
        ),
    ];
    for (file, path, err) in cases {
        let v = realworld(file);
        let expected = (path.to_string(), framework_error("default-scheduler", err));
        assert_eq!(one_error(v.clone()), expected, "{file}");
        // The same without building plugins.
        let e = plan(v).expect_err(file);
        assert_eq!(
            (e[0].path.clone(), e[0].message.clone()),
            expected,
            "{file}"
        );
    }
    // The full text, as SOURCES.md quotes it.
    let e = read(realworld(
        "schedplugins__ksc_v1_coscheduling_multipoint_queuesort_disable_all.yaml",
    ))
    .expect_err("error");
    assert_eq!(
        e[0].message,
        "initializing profiles: creating profile for scheduler name default-scheduler: QueueSortPlugin \"Coscheduling\" does not exist"
    );
}
