//! The extender module against Go's behaviour, worked out by hand from
//! `extenders-plugins.md` §A and `filters.md` §C.4 (the HTTP round trips are tested for real in
//! `crates/schedlab_cli/tests/extenders_http.rs`).

use super::config::{from_policy, parse_go_duration, timeout_from_nanos};
use super::wire::{bind_args, decode_bind, decode_filter, decode_priorities, node_args, NodeRef};
use super::*;
use crate::testing::{cluster, node, pod};
use serde_json::json;

fn name(n: &str) -> NodeRef {
    NodeRef::Name(n.into())
}

#[test]
fn replies_are_read_case_insensitively() {
    let r = decode_filter(r#"{"nodenames":["a"],"failednodes":{"b":"no"},"ERROR":""}"#)
        .expect("a reply");
    assert_eq!(r.node_names, Some(vec![name("a")]));
    assert_eq!(r.nodes, None);
    assert_eq!(r.failed, vec![(name("b"), "no".to_string())]);
    assert_eq!(r.error, "");
    let p = decode_priorities(r#"[{"host":"a","score":7},{"Host":"b","Score":-2}]"#).expect("ok");
    assert_eq!(p, vec![(name("a"), 7), (name("b"), -2)]);
    assert_eq!(decode_bind(r#"{"error":"nope"}"#).expect("ok"), "nope");
}

#[test]
fn replies_of_the_wrong_shape_fail_in_gos_words() {
    assert_eq!(
        decode_filter(r#"{"NodeNames":"a"}"#).unwrap_err(),
        "json: cannot unmarshal string into Go struct field ExtenderFilterResult.NodeNames of \
         type []string"
    );
    assert_eq!(
        decode_priorities(r#"{"Host":"a"}"#).unwrap_err(),
        "json: cannot unmarshal object into Go value of type v1.HostPriorityList"
    );
    assert_eq!(
        decode_priorities(r#"[{"Host":"a","Score":"7"}]"#).unwrap_err(),
        "json: cannot unmarshal string into Go struct field HostPriority.Score of type int64"
    );
    // json.Decoder.Decode on what is not JSON.
    assert_eq!(decode_bind("").unwrap_err(), "EOF");
    assert_eq!(
        decode_bind("<html>").unwrap_err(),
        "invalid character '<' looking for beginning of value"
    );
    assert_eq!(decode_bind("nul").unwrap_err(), "unexpected EOF");
    assert_eq!(
        decode_bind("not json").unwrap_err(),
        "invalid character 'o' in literal null (expecting 'u')"
    );
    // The decoder reads the first value only: what follows it is never looked at.
    assert_eq!(decode_bind(r#"{"Error":""} trailing"#).expect("ok"), "");
    // `null` is the zero value: no error, nothing kept.
    assert_eq!(decode_filter("null").expect("ok").node_names, None);
}

#[test]
fn requests_use_the_go_field_names() {
    let p = pod(
        json!({"metadata": {"name": "p", "uid": "u1"}, "spec": {"containers": [{"name": "c"}]}}),
    );
    assert_eq!(
        bind_args(&p, "n1"),
        r#"{"PodName":"p","PodNamespace":"default","PodUID":"u1","Node":"n1"}"#
    );
    let c = cluster(
        vec![
            node(json!({"metadata": {"name": "n1"}})),
            node(json!({"metadata": {"name": "n2"}})),
        ],
        vec![],
    );
    let nodes: Vec<&crate::cluster::NodeInfo> = c.nodes().iter().collect();
    let by_name = Extender {
        node_cache_capable: true,
        ..Extender::default()
    };
    let body: serde_json::Value =
        serde_json::from_str(&node_args(&by_name, &p, &nodes)).expect("JSON");
    assert_eq!(body["NodeNames"], json!(["n1", "n2"]));
    assert!(body["Nodes"].is_null());
    let text = node_args(&Extender::default(), &p, &nodes);
    // Pod, Nodes, NodeNames in Go's field order; a NodeList with empty list metadata.
    assert!(text.starts_with(r#"{"Pod":{"#), "{text}");
    assert!(
        text.contains(r#""Nodes":{"metadata":{},"items":[{"#),
        "{text}"
    );
    assert!(text.ends_with(r#""NodeNames":null}"#), "{text}");
}

#[test]
fn go_durations_and_policy_timeouts() {
    assert_eq!(parse_go_duration("1m30s"), Ok(90_000_000_000));
    assert_eq!(parse_go_duration("1.5s"), Ok(1_500_000_000));
    assert_eq!(parse_go_duration("-2h"), Ok(-7_200_000_000_000));
    assert_eq!(parse_go_duration("0"), Ok(0));
    assert_eq!(parse_go_duration("300ms"), Ok(300_000_000));
    // ParseDuration takes everything up to the next digit or '.' as the unit.
    assert_eq!(
        parse_go_duration("5 s"),
        Err("time: unknown unit \" s\" in duration \"5 s\"".into())
    );
    assert_eq!(
        parse_go_duration("5"),
        Err("time: missing unit in duration \"5\"".into())
    );
    assert_eq!(
        parse_go_duration(""),
        Err("time: invalid duration \"\"".into())
    );
    // A Policy's httpTimeout is a time.Duration: integer nanoseconds; zero is the default
    // 5 s and a negative one means no timeout.
    assert_eq!(timeout_from_nanos(30_000_000_000), Some(Millis::secs(30)));
    assert_eq!(timeout_from_nanos(0), Some(Millis::secs(5)));
    assert_eq!(timeout_from_nanos(-1), None);
    assert_eq!(timeout_from_nanos(1), Some(Millis(1)));
}

#[test]
fn policy_extenders_are_validated_with_v117s_messages() {
    let errors = from_policy(&[
        json!({"urlPrefix": "http://a", "prioritizeVerb": "p", "weight": 0, "bindVerb": "bind",
               "managedResources": [{"name": "example.com/foo"}, {"name": "example.com/foo"}]}),
        json!({"URLPrefix": "http://b", "BindVerb": "bind",
               "managedResources": [{"name": "foo"}]}),
    ])
    .unwrap_err();
    let messages: Vec<&str> = errors.iter().map(|(_, m)| m.as_str()).collect();
    for expected in [
        "Priority for extender http://a should have a positive weight applied to it",
        "Duplicate extender managed resource name example.com/foo",
        "foo is an invalid extended resource name",
        // The keys are matched without regard to case: BindVerb counts.
        "Only one extender can implement bind, found 2",
    ] {
        assert!(messages.contains(&expected), "{expected}: {errors:?}");
    }
}

#[test]
fn policy_extenders_read_any_case_and_put_ignorable_ones_last() {
    let list = from_policy(&[
        json!({"urlPrefix": "http://a", "ignorable": true, "httpTimeout": 30_000_000_000_i64}),
        json!({"URLPREFIX": "http://b", "FilterVerb": "filter", "NodeCacheCapable": true}),
        json!({"urlPrefix": "http://c", "Ignorable": true}),
        json!({"urlPrefix": "http://d", "enableHttps": true}),
    ])
    .expect("valid");
    let urls: Vec<&str> = list.iter().map(|e| e.url_prefix.as_str()).collect();
    assert_eq!(urls, ["http://b", "http://d", "http://a", "http://c"]);
    assert_eq!(list[0].filter_verb, "filter");
    assert!(list[0].node_cache_capable);
    assert!(list[1].enable_https);
    assert_eq!(list[2].http_timeout, Some(Millis::secs(30)));
}

#[test]
fn an_extender_is_interested_in_pods_using_its_resources() {
    let ext = Extender {
        managed_resources: vec![ManagedResource {
            name: "example.com/gpu".into(),
            ignored_by_scheduler: false,
        }],
        ..Extender::default()
    };
    let plain = pod(json!({"metadata": {"name": "p"}, "spec": {"containers": [{"name": "c"}]}}));
    assert!(!ext.is_interested(&plain));
    assert!(Extender::default().is_interested(&plain));
    // A limit in an init container is enough.
    let init = pod(json!({"metadata": {"name": "p"}, "spec": {
        "initContainers": [{"name": "i", "resources": {"limits": {"example.com/gpu": "1"}}}],
        "containers": [{"name": "c"}]}}));
    assert!(ext.is_interested(&init));
    // The verb's URL: the prefix's trailing slashes trimmed, then "/" and the verb.
    let e = Extender {
        url_prefix: "http://x/api//".into(),
        filter_verb: "filter".into(),
        ..Extender::default()
    };
    assert_eq!(e.url(Verb::Filter), "http://x/api/filter");
}
