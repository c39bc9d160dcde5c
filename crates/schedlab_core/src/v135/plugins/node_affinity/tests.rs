use super::*;
use crate::testing::{node, pod};
use crate::v135::plugins::testkit::*;
use serde_json::json;

fn labelled(name: &str, labels: serde_json::Value) -> crate::model::Node {
    node(json!({"metadata": {"name": name, "labels": labels}}))
}

fn three_nodes() -> crate::cluster::Cluster {
    cluster135(
        vec![
            labelled("n1", json!({"zone": "a", "gen": "5"})),
            labelled("n2", json!({"zone": "b", "gen": "9"})),
            labelled("n3", json!({})),
        ],
        vec![],
    )
}

fn plugin(args: serde_json::Value) -> Box<dyn Plugin> {
    build(Some(&args)).unwrap_or_else(|e| panic!("{e:?}"))
}

fn default_plugin() -> Box<dyn Plugin> {
    build(None).expect("default")
}

fn pod_fail() -> (Code, Vec<String>) {
    (
        Code::UnschedulableAndUnresolvable,
        vec!["node(s) didn't match Pod's node affinity/selector".to_string()],
    )
}

#[test]
fn pre_filter_skips_pods_without_requirements() {
    let c = three_nodes();
    let p = info(pod(json!({})));
    assert_eq!(
        run_pre_filter(&*default_plugin(), &c, &p).status.code,
        Code::Skip
    );
    // Only preferred terms: still Skip at PreFilter.
    let p = info(pod(json!({"spec": {"affinity": {"nodeAffinity": {
        "preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": 1, "preference": {"matchExpressions": [
                {"key": "zone", "operator": "Exists"}]}}]}}}})));
    assert_eq!(
        run_pre_filter(&*default_plugin(), &c, &p).status.code,
        Code::Skip
    );
    // With addedAffinity.required it runs even for a plain pod.
    let added = plugin(
        json!({"addedAffinity": {"requiredDuringSchedulingIgnoredDuringExecution":
        {"nodeSelectorTerms": [{"matchExpressions": [{"key": "zone", "operator": "Exists"}]}]}}}),
    );
    let p = info(pod(json!({})));
    assert_eq!(run_pre_filter(&*added, &c, &p).status.code, Code::Success);
    let enforced = (
        Code::UnschedulableAndUnresolvable,
        vec!["node(s) didn't match scheduler-enforced node affinity".to_string()],
    );
    assert_eq!(run_filter(&*added, &c, &p), [ok(), ok(), enforced]);
}

#[test]
fn node_selector_and_required_terms() {
    let c = three_nodes();
    let sel = info(pod(json!({"spec": {"nodeSelector": {"zone": "a"}}})));
    assert_eq!(
        run_filter(&*default_plugin(), &c, &sel),
        [ok(), pod_fail(), pod_fail()]
    );
    // Terms are ORed; expressions in a term ANDed. Term 0: zone In [b] AND gen Gt 6 (n2);
    // term 1: zone DoesNotExist (n3).
    let terms = info(pod(json!({"spec": {"affinity": {"nodeAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
            {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["b"]},
                                  {"key": "gen", "operator": "Gt", "values": ["6"]}]},
            {"matchExpressions": [{"key": "zone", "operator": "DoesNotExist"}]}]}}}}})));
    assert_eq!(
        run_filter(&*default_plugin(), &c, &terms),
        [pod_fail(), ok(), ok()]
    );
    // nodeSelector AND the terms: zone=b and (zone In [b] ...) → only n2.
    let both = info(pod(json!({"spec": {"nodeSelector": {"zone": "a"},
        "affinity": {"nodeAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
            {"matchExpressions": [{"key": "gen", "operator": "Lt", "values": ["9"]}]}]}}}}})));
    // n1: zone=a and gen 5 < 9 → ok; n2: zone b ≠ a; n3: no zone.
    assert_eq!(
        run_filter(&*default_plugin(), &c, &both),
        [ok(), pod_fail(), pod_fail()]
    );
}

#[test]
fn bad_and_empty_terms_never_match() {
    let c = three_nodes();
    let req = |terms: serde_json::Value| {
        info(pod(json!({"spec": {"affinity": {"nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}}}}})))
    };
    // An empty term is dropped; with no other term nothing matches.
    let p = req(json!([{}]));
    assert_eq!(
        run_filter(&*default_plugin(), &c, &p),
        [pod_fail(), pod_fail(), pod_fail()]
    );
    // No terms at all: nothing matches.
    let p = req(json!([]));
    assert_eq!(
        run_filter(&*default_plugin(), &c, &p),
        [pod_fail(), pod_fail(), pod_fail()]
    );
    // A bad term fails alone; the good term still matches n3.
    for bad in [
        json!({"key": "zone", "operator": "Like", "values": ["a"]}),
        json!({"key": "gen", "operator": "Gt", "values": ["x"]}),
        json!({"key": "gen", "operator": "Gt", "values": ["1", "2"]}),
        json!({"key": "zone", "operator": "In", "values": []}),
        json!({"key": "zone", "operator": "Exists", "values": ["a"]}),
        json!({"key": "zone", "operator": "NotIn", "values": ["-a"]}),
        json!({"key": "bad key", "operator": "Exists"}),
    ] {
        let p = req(json!([{"matchExpressions": [bad.clone()]},
                           {"matchExpressions": [{"key": "zone", "operator": "DoesNotExist"}]}]));
        assert_eq!(
            run_filter(&*default_plugin(), &c, &p),
            [pod_fail(), pod_fail(), ok()],
            "{bad}"
        );
        assert!(
            !required_node_affinity_matches(&p.pod, &c.nodes()[0]),
            "{bad}"
        );
        assert!(
            required_node_affinity_matches(&p.pod, &c.nodes()[2]),
            "{bad}"
        );
    }
    // Gt against a non-numeric label never matches; NotIn on a missing key does.
    let p =
        req(json!([{"matchExpressions": [{"key": "zone", "operator": "Gt", "values": ["1"]}]}]));
    assert_eq!(
        run_filter(&*default_plugin(), &c, &p),
        [pod_fail(), pod_fail(), pod_fail()]
    );
    let p =
        req(json!([{"matchExpressions": [{"key": "zone", "operator": "NotIn", "values": ["a"]}]}]));
    assert_eq!(
        run_filter(&*default_plugin(), &c, &p),
        [pod_fail(), ok(), ok()]
    );
}

#[test]
fn match_fields_and_the_pre_filter_result() {
    let c = three_nodes();
    let req = |terms: serde_json::Value| {
        info(pod(json!({"spec": {"affinity": {"nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}}}}})))
    };
    let names = |v: &[&str]| Some(v.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>());
    // One term naming n2: result {n2}; the filter passes n2 only.
    let p = req(
        json!([{"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n2"]}]}]),
    );
    let out = run_pre_filter(&*default_plugin(), &c, &p);
    assert_eq!(out.nodes, names(&["n2"]));
    assert_eq!(
        run_filter(&*default_plugin(), &c, &p),
        [pod_fail(), ok(), pod_fail()]
    );
    // Two terms: union {n1} ∪ {n3}.
    let p = req(json!([
        {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n1"]}]},
        {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n3"]}],
         "matchExpressions": [{"key": "zone", "operator": "Exists"}]}]));
    assert_eq!(
        run_pre_filter(&*default_plugin(), &c, &p).nodes,
        names(&["n1", "n3"])
    );
    // A term without a metadata.name In requirement: no result at all.
    let p = req(json!([
        {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n1"]}]},
        {"matchExpressions": [{"key": "zone", "operator": "Exists"}]}]));
    let out = run_pre_filter(&*default_plugin(), &c, &p);
    assert_eq!((out.status.code, out.nodes), (Code::Success, None));
    // Two In requirements in one term intersect: {n1,n2} ∩ {n2,n3} = {n2}; that term does
    // not parse (two values), so the filter still rejects every node.
    let p = req(json!([{"matchFields": [
        {"key": "metadata.name", "operator": "In", "values": ["n1", "n2"]},
        {"key": "metadata.name", "operator": "In", "values": ["n2", "n3"]}]}]));
    assert_eq!(
        run_pre_filter(&*default_plugin(), &c, &p).nodes,
        names(&["n2"])
    );
    // Disjoint intersection: conflict.
    let p = req(json!([{"matchFields": [
        {"key": "metadata.name", "operator": "In", "values": ["n1"]},
        {"key": "metadata.name", "operator": "In", "values": ["n2"]}]}]));
    let out = run_pre_filter(&*default_plugin(), &c, &p);
    assert_eq!(out.status.code, Code::UnschedulableAndUnresolvable);
    assert_eq!(out.status.message(), "pod affinity terms conflict");
    // NotIn on metadata.name.
    let p = req(
        json!([{"matchFields": [{"key": "metadata.name", "operator": "NotIn", "values": ["n1"]}]}]),
    );
    assert_eq!(
        run_filter(&*default_plugin(), &c, &p),
        [pod_fail(), ok(), ok()]
    );
}

#[test]
fn scoring_sums_weights_and_normalizes() {
    let c = three_nodes();
    let p = info(pod(json!({"spec": {"affinity": {"nodeAffinity": {
        "preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": 2, "preference": {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a"]}]}},
            {"weight": 5, "preference": {"matchExpressions": [{"key": "zone", "operator": "Exists"}]}},
            {"weight": 3, "preference": {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n3"]}]}},
            {"weight": 0, "preference": {"matchExpressions": [{"key": "zone", "operator": "Exists"}]}},
            {"weight": 9, "preference": {}}]}}}})));
    // n1: 2 + 5 = 7; n2: 5; n3: 3 (matchFields honoured). Normalize max 7:
    // 100*7/7 = 100, 100*5/7 = 71 (71.4), 100*3/7 = 42 (42.8).
    assert_eq!(
        run_score(&*default_plugin(), &c, &p),
        Some((vec![7, 5, 3], vec![100, 71, 42]))
    );
    // No preferred terms anywhere: Skip.
    let plain = info(pod(json!({})));
    assert_eq!(run_score(&*default_plugin(), &c, &plain), None);
    // addedAffinity.preferred adds to every pod: gen Gt 6 (n2) weight 4.
    let added = plugin(
        json!({"addedAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": 4, "preference": {"matchExpressions": [{"key": "gen", "operator": "Gt", "values": ["6"]}]}}]}}),
    );
    assert_eq!(
        run_score(&*added, &c, &plain),
        Some((vec![0, 4, 0], vec![0, 100, 0]))
    );
    // n1: 7, n2: 5 + 4 = 9, n3: 3 → 100*7/9 = 77, 100, 100*3/9 = 33.
    assert_eq!(
        run_score(&*added, &c, &p),
        Some((vec![7, 9, 3], vec![77, 100, 33]))
    );
    // All zero: normalization leaves zeros.
    let nowhere = info(pod(json!({"spec": {"affinity": {"nodeAffinity": {
        "preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": 2, "preference": {"matchExpressions": [{"key": "x", "operator": "Exists"}]}}]}}}})));
    assert_eq!(
        run_score(&*default_plugin(), &c, &nowhere),
        Some((vec![0, 0, 0], vec![0, 0, 0]))
    );
}

#[test]
fn an_unparsable_preferred_term_fails_pre_score() {
    let c = three_nodes();
    let p = info(pod(json!({"spec": {"affinity": {"nodeAffinity": {
        "preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": 1, "preference": {"matchExpressions": [{"key": "zone", "operator": "Exists"}]}},
            {"weight": 1, "preference": {"matchExpressions": [{"key": "zone", "operator": "Like"}]}}]}}}})));
    let out = run_pre_score(&*default_plugin(), &c, &p);
    assert_eq!(out.status.code, Code::Error);
    assert_eq!(
        out.status.message(),
        "[1].matchExpressions[0].operator: Unsupported value: \"Like\": supported values: \
         \"In\", \"NotIn\", \"Exists\", \"DoesNotExist\", \"Gt\", \"Lt\""
    );
}

#[test]
fn args_are_read_strictly_and_validated() {
    assert!(build(Some(&json!({}))).is_ok());
    assert!(build(Some(&json!({"kind": "NodeAffinityArgs",
        "apiVersion": "kubescheduler.config.k8s.io/v1"})))
    .is_ok());
    let errs = |v: serde_json::Value| -> Vec<String> {
        match build(Some(&v)) {
            Ok(_) => Vec::new(),
            Err(e) => e.iter().map(|e| e.to_string()).collect(),
        }
    };
    let unknown = errs(json!({"addedAffinity": {"foo": 1}}));
    assert_eq!(unknown.len(), 1);
    assert!(unknown[0].contains("unknown field `foo`"), "{unknown:?}");
    let typed = errs(
        json!({"addedAffinity": {"preferredDuringSchedulingIgnoredDuringExecution":
        [{"weight": "x"}]}}),
    );
    assert!(
        typed[0].starts_with(
            "addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: "
        ),
        "{typed:?}"
    );
    let r = "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";
    let got = errs(json!({"addedAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
            {},
            {"matchExpressions": [
                {"key": "zone", "operator": "Like", "values": ["a"]},
                {"key": "zone", "operator": "In"},
                {"key": "gen", "operator": "Gt", "values": ["x"]},
                {"key": "zone", "operator": "Exists", "values": ["a"]}],
             "matchFields": [
                {"key": "metadata.name", "operator": "In", "values": ["a", "b"]},
                {"key": "metadata.name", "operator": "Exists"}]},
            {"matchExpressions": [
                {"key": "gen", "operator": "Lt", "values": ["1", "2"]},
                {"key": "zone", "operator": "In", "values": ["-a"]}]}]},
        "preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": 0, "preference": {"matchExpressions": [{"key": "zone", "operator": "Like"}]}},
            {"weight": 1, "preference": {"matchExpressions": [{"key": "a/b/c", "operator": "Exists"}]}}]}}));
    let key_msg =
        "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and \
        must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or \
        '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with \
        an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";
    let value_msg = "a valid label must be an empty string or consist of alphanumeric \
        characters, '-', '_' or '.', and must start and end with an alphanumeric character \
        (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is \
        '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
    assert_eq!(
        got,
        [
            format!("{r}[1].matchExpressions[0].operator: Unsupported value: \"Like\": supported values: \"In\", \"NotIn\", \"Exists\", \"DoesNotExist\", \"Gt\", \"Lt\""),
            format!("{r}[1].matchExpressions[1].values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty"),
            format!("{r}[1].matchExpressions[2].values[0]: Invalid value: \"x\": for 'Gt', 'Lt' operators, the value must be an integer"),
            format!("{r}[1].matchExpressions[3].values: Invalid value: [\"a\"]: values set must be empty for exists and does not exist"),
            format!("{r}[1].matchFields[0].values: Invalid value: [\"a\",\"b\"]: must have one element"),
            format!("{r}[1].matchFields[1].operator: Unsupported value: \"Exists\": supported values: \"In\", \"NotIn\""),
            format!("{r}[2].matchExpressions[0].values: Invalid value: [\"1\",\"2\"]: for 'Gt', 'Lt' operators, exactly one value is required"),
            format!("{r}[2].matchExpressions[1].values[0][zone]: Invalid value: \"-a\": {value_msg}"),
            format!("addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[1].matchExpressions[0].key: Invalid value: \"a/b/c\": {key_msg}"),
        ]
    );
}

#[test]
fn label_key_and_value_messages() {
    let name_re = "name part must consist of alphanumeric characters, '-', '_' or '.', and must \
        start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or \
        '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    assert!(label_key_errors("zone").is_empty());
    assert!(label_key_errors("example.com/zone").is_empty());
    assert_eq!(
        label_key_errors(""),
        ["name part must be non-empty", name_re]
    );
    assert_eq!(label_key_errors("-a"), [name_re]);
    assert_eq!(
        label_key_errors(&"a".repeat(64)),
        ["name part must be no more than 63 bytes"]
    );
    assert_eq!(label_key_errors("/a"), ["prefix part must be non-empty"]);
    assert_eq!(
        label_key_errors("Example.com/a"),
        [
            "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric \
          characters, '-' or '.', and must start and end with an alphanumeric character (e.g. \
          'example.com', regex used for validation is \
          '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
        ]
    );
    assert!(label_value_errors("").is_empty());
    assert!(label_value_errors("a_b.c-d").is_empty());
    assert_eq!(
        label_value_errors("-a"),
        [
            "a valid label must be an empty string or consist of alphanumeric characters, '-', \
          '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  \
          or 'my_value',  or '12345', regex used for validation is \
          '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
        ]
    );
    assert_eq!(
        label_value_errors(&"a".repeat(64)),
        ["must be no more than 63 bytes"]
    );
}
