use super::*;
use crate::testing::{node, pod};
use crate::v135::plugins::testkit::{both_ways, score_all};
use serde_json::{json, Value as Json};

fn plugin(args: Option<Json>) -> Box<dyn Plugin> {
    build(args.as_ref()).unwrap_or_else(|e| panic!("{e:?}"))
}

fn arg_errors(args: Json) -> Vec<String> {
    crate::v135::plugins::testkit::build_errors(build, args)
}

/// Nodes `name` with a hostname label and, when given, a zone label.
fn zoned(list: &[(&str, Option<&str>)]) -> Vec<crate::model::Node> {
    list.iter()
        .map(|(name, zone)| {
            let mut labels = json!({HOSTNAME: name});
            if let Some(z) = zone {
                labels["zone"] = json!(z);
                labels[ZONE] = json!(z);
            }
            node(json!({"metadata": {"name": name, "labels": labels}}))
        })
        .collect()
}

fn cluster(nodes: Vec<crate::model::Node>, bound: Vec<(Pod, usize)>) -> Cluster {
    let mut c = Cluster::default();
    for n in nodes {
        c.add_node(n);
    }
    for (i, (p, n)) in bound.into_iter().enumerate() {
        let id = c.add_pod(PodInfo::new_v135(p, 0, i));
        c.bind(id, n);
    }
    c
}

use crate::model::Pod;

fn labelled(labels: Json) -> Pod {
    pod(json!({"metadata": {"labels": labels}}))
}

/// A pod labelled `app: web` with these constraints.
fn spread(constraints: Json) -> Pod {
    pod(json!({"metadata": {"labels": {"app": "web"}},
        "spec": {"topologySpreadConstraints": constraints}}))
}

fn hard(key: &str, max_skew: i32, extra: Json) -> Json {
    let mut c = json!({"maxSkew": max_skew, "topologyKey": key,
        "whenUnsatisfiable": DO_NOT_SCHEDULE,
        "labelSelector": {"matchLabels": {"app": "web"}}});
    for (k, v) in extra.as_object().expect("object") {
        c[k] = v.clone();
    }
    c
}

/// Each node's Filter verdict as `(code, reasons)`; `None` when PreFilter skips.
type Verdicts = Option<Vec<(Code, String)>>;

fn filter_all(p: &dyn Plugin, c: &Cluster, incoming: &PodInfo) -> Verdicts {
    let order = c.node_tree_order();
    let cx = Cx {
        cluster: c,
        pod: incoming,
        order: &order,
    };
    let out = p.pre_filter(&cx);
    if out.status.code == Code::Skip {
        return None;
    }
    assert!(out.status.is_success(), "{:?}", out.status);
    Some(
        c.nodes()
            .iter()
            .map(|n| {
                let mut reasons = Vec::new();
                let code = p.filter(&cx, out.state.as_deref(), n, &mut reasons);
                let text: Vec<String> = reasons.iter().map(ToString::to_string).collect();
                (code, text.join(", "))
            })
            .collect(),
    )
}

const OK: (Code, &str) = (Code::Success, "");
const SKEW: (Code, &str) = (Code::Unschedulable, ERR_CONSTRAINTS_NOT_MATCH);
const MISSING: (Code, &str) = (Code::UnschedulableAndUnresolvable, ERR_NODE_LABEL_NOT_MATCH);

fn expect(v: &[(Code, &str)]) -> Verdicts {
    Some(v.iter().map(|(c, s)| (*c, s.to_string())).collect())
}

fn web() -> Pod {
    labelled(json!({"app": "web"}))
}

#[test]
fn filter_skew_against_the_global_minimum_with_min_domains() {
    let nodes = zoned(&[
        ("a1", Some("a")),
        ("a2", Some("a")),
        ("b1", Some("b")),
        ("c1", Some("c")),
        ("x", None),
    ]);
    let deleting = pod(
        json!({"metadata": {"labels": {"app": "web"}, "deletionTimestamp": "2024-01-01T00:00:00Z"}}),
    );
    let other_ns = pod(json!({"metadata": {"namespace": "other", "labels": {"app": "web"}}}));
    // Counted: a = 2 (a1, a2), b = 1, c = 1; the terminating pod on b1 and the pod of
    // another namespace on c1 do not count, nor does the node without a zone.
    let c = cluster(
        nodes,
        vec![
            (web(), 0),
            (web(), 1),
            (web(), 2),
            (web(), 3),
            (deleting, 2),
            (other_ns, 3),
            (web(), 4),
        ],
    );
    let p = plugin(None);
    // minDomains unset (1): 3 domains, min 1, self 1.
    // a: 2+1-1 = 2 > 1; b: 1+1-1 = 1; c: 1; x lacks the key.
    let got = both_ways(&c, spread(json!([hard("zone", 1, json!({}))])), |c, i| {
        filter_all(&*p, c, i)
    });
    assert_eq!(got, expect(&[SKEW, SKEW, OK, OK, MISSING]));
    // minDomains 3 = the 3 domains: the same.
    let got = both_ways(
        &c,
        spread(json!([hard("zone", 1, json!({"minDomains": 3}))])),
        |c, i| filter_all(&*p, c, i),
    );
    assert_eq!(got, expect(&[SKEW, SKEW, OK, OK, MISSING]));
    // minDomains 4 > 3 domains: the minimum counts as 0.
    // a: 2+1-0 = 3 > 1; b: 1+1-0 = 2 > 1; c: 2 > 1.
    let got = both_ways(
        &c,
        spread(json!([hard("zone", 1, json!({"minDomains": 4}))])),
        |c, i| filter_all(&*p, c, i),
    );
    assert_eq!(got, expect(&[SKEW, SKEW, SKEW, SKEW, MISSING]));
    // maxSkew 2 with minDomains 4: a: 3 > 2; b, c: 2.
    let got = both_ways(
        &c,
        spread(json!([hard("zone", 2, json!({"minDomains": 4}))])),
        |c, i| filter_all(&*p, c, i),
    );
    assert_eq!(got, expect(&[SKEW, SKEW, OK, OK, MISSING]));
    // A pod the selector does not select adds no self match: a: 2+0-1 = 1 fits.
    let mut other = spread(json!([hard("zone", 1, json!({}))]));
    other.metadata.labels.clear();
    let got = both_ways(&c, other, |c, i| filter_all(&*p, c, i));
    assert_eq!(got, expect(&[OK, OK, OK, OK, MISSING]));
}

#[test]
fn filter_checks_constraints_in_order_and_a_missing_second_key() {
    // Node "a1" has a zone and a rack, "b1" only a zone.
    let c = cluster(
        vec![
            node(json!({"metadata": {"name": "a1", "labels": {"zone": "a", "rack": "r1"}}})),
            node(json!({"metadata": {"name": "b1", "labels": {"zone": "b"}}})),
        ],
        vec![(web(), 0), (web(), 0)],
    );
    let p = plugin(None);
    let incoming = spread(json!([
        hard("zone", 1, json!({})),
        hard("rack", 5, json!({}))
    ]));
    // Only a1 carries both keys, so only zone a is a domain: zone a = 2, min 2.
    // a1: zone 2+1-2 = 1 ok, rack r1 = 2, min 2, 1 ok. b1: zone b is no domain, 0+1-2 <= 1
    // passes, then the rack key is missing.
    let got = both_ways(&c, incoming, |c, i| filter_all(&*p, c, i));
    assert_eq!(got, expect(&[OK, MISSING]));
}

#[test]
fn inclusion_policies_decide_which_nodes_count() {
    let nodes = vec![
        node(json!({"metadata": {"name": "a1", "labels": {"zone": "a", "disk": "ssd"}}})),
        node(
            json!({"metadata": {"name": "b1", "labels": {"zone": "b", "disk": "hdd"}},
            "spec": {"taints": [{"key": "k", "value": "v", "effect": "NoSchedule"}]}}),
        ),
        node(json!({"metadata": {"name": "c1", "labels": {"zone": "c", "disk": "ssd"}}})),
    ];
    let c = cluster(nodes, vec![(web(), 0), (web(), 2)]);
    let p = plugin(None);
    let with_selector = |policy: Json| {
        let mut pd = spread(json!([hard("zone", 1, policy)]));
        pd.spec.node_selector.insert("disk".into(), "ssd".into());
        pd
    };
    // nodeAffinityPolicy Honor (default): b1 (hdd) does not count: domains a = 1, c = 1,
    // min 1. a: 1+1-1 = 1 ok; b: no domain, 0+1-1 = 0 ok; c ok.
    let got = both_ways(&c, with_selector(json!({})), |c, i| filter_all(&*p, c, i));
    assert_eq!(got, expect(&[OK, OK, OK]));
    // Ignore: b = 0 counts, min 0. a: 1+1-0 = 2 > 1; b: 1 ok; c: 2 > 1.
    let got = both_ways(
        &c,
        with_selector(json!({"nodeAffinityPolicy": "Ignore"})),
        |c, i| filter_all(&*p, c, i),
    );
    assert_eq!(got, expect(&[SKEW, OK, SKEW]));
    // nodeTaintsPolicy Ignore (default), no nodeSelector: b counts, min 0: as above.
    let plain = spread(json!([hard("zone", 1, json!({}))]));
    let got = both_ways(&c, plain, |c, i| filter_all(&*p, c, i));
    assert_eq!(got, expect(&[SKEW, OK, SKEW]));
    // nodeTaintsPolicy Honor: b1's NoSchedule taint is not tolerated, b does not count.
    let honor = spread(json!([hard(
        "zone",
        1,
        json!({"nodeTaintsPolicy": "Honor"})
    )]));
    let got = both_ways(&c, honor, |c, i| filter_all(&*p, c, i));
    assert_eq!(got, expect(&[OK, OK, OK]));
    // ... unless the pod tolerates it.
    let mut tolerant = spread(json!([hard(
        "zone",
        1,
        json!({"nodeTaintsPolicy": "Honor"})
    )]));
    tolerant.spec.tolerations =
        serde_json::from_value(json!([{"key": "k", "operator": "Exists"}])).expect("tolerations");
    let got = both_ways(&c, tolerant, |c, i| filter_all(&*p, c, i));
    assert_eq!(got, expect(&[SKEW, OK, SKEW]));
}

#[test]
fn match_label_keys_narrow_the_selector_and_merging_twice_changes_nothing() {
    let versioned = |v: &str| labelled(json!({"app": "web", "version": v}));
    let c = cluster(
        zoned(&[("a1", Some("a")), ("b1", Some("b"))]),
        vec![
            (versioned("v1"), 0),
            (versioned("v1"), 0),
            (versioned("v2"), 1),
        ],
    );
    let p = plugin(None);
    let incoming = |constraint: Json| {
        let mut pd = spread(json!([constraint]));
        pd.metadata.labels.insert("version".into(), "v2".into());
        pd
    };
    // Without matchLabelKeys: a = 2, b = 1, min 1: a 2+1-1 = 2 > 1, b 1 ok.
    let got = both_ways(&c, incoming(hard("zone", 1, json!({}))), |c, i| {
        filter_all(&*p, c, i)
    });
    assert_eq!(got, expect(&[SKEW, OK]));
    // matchLabelKeys [version]: only v2 pods count: a = 0, b = 1, min 0:
    // a 0+1-0 = 1 ok, b 1+1-0 = 2 > 1.
    let keyed = hard("zone", 1, json!({"matchLabelKeys": ["version"]}));
    let got = both_ways(&c, incoming(keyed), |c, i| filter_all(&*p, c, i));
    assert_eq!(got, expect(&[OK, SKEW]));
    // The API server's merge already in the selector, merged again here: the same.
    let merged = hard(
        "zone",
        1,
        json!({"matchLabelKeys": ["version"], "labelSelector": {
            "matchLabels": {"app": "web"},
            "matchExpressions": [{"key": "version", "operator": "In", "values": ["v2"]}]}}),
    );
    let got = both_ways(&c, incoming(merged), |c, i| filter_all(&*p, c, i));
    assert_eq!(got, expect(&[OK, SKEW]));
    // A nil selector stays Nothing: no pod counts, no self match: everything fits.
    let nil = json!({"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": DO_NOT_SCHEDULE,
        "matchLabelKeys": ["version"]});
    let got = both_ways(&c, incoming(nil), |c, i| filter_all(&*p, c, i));
    assert_eq!(got, expect(&[OK, OK]));
}

#[test]
fn an_empty_selector_counts_no_pod_but_matches_the_pod_itself() {
    // countPodsMatchSelector returns 0 for an empty selector: every count is 0, min 0,
    // self 1: skew 1 everywhere, although zone a holds two pods.
    let c = cluster(
        zoned(&[("a1", Some("a")), ("b1", Some("b"))]),
        vec![(web(), 0), (web(), 0)],
    );
    let p = plugin(None);
    let any = json!({"maxSkew": 1, "topologyKey": "zone",
        "whenUnsatisfiable": DO_NOT_SCHEDULE, "labelSelector": {}});
    let got = both_ways(&c, spread(json!([any])), |c, i| filter_all(&*p, c, i));
    assert_eq!(got, expect(&[OK, OK]));
}

#[test]
fn no_hard_constraint_skips_prefilter() {
    let c = cluster(zoned(&[("a1", Some("a"))]), vec![]);
    let p = plugin(None);
    let bare = PodInfo::new_v135(web(), 0, 0);
    assert_eq!(filter_all(&*p, &c, &bare), None);
    let soft = spread(json!([{"maxSkew": 1, "topologyKey": "zone",
        "whenUnsatisfiable": SCHEDULE_ANYWAY, "labelSelector": {"matchLabels": {"app": "web"}}}]));
    assert_eq!(filter_all(&*p, &c, &PodInfo::new_v135(soft, 0, 0)), None);
}

#[test]
fn add_pod_and_remove_pod_change_the_verdict() {
    let mut c = cluster(
        zoned(&[("a1", Some("a")), ("b1", Some("b"))]),
        vec![(web(), 0)],
    );
    let extra = c.add_pod(PodInfo::new_v135(web(), 0, 10));
    let elsewhere = c.add_pod(PodInfo::new_v135(
        pod(json!({"metadata": {"namespace": "other", "labels": {"app": "web"}}})),
        0,
        11,
    ));
    let bound = 0;
    let id = c.add_pod(PodInfo::new_v135(
        spread(json!([hard("zone", 1, json!({}))])),
        0,
        12,
    ));
    let p = plugin(None);
    let order = c.node_tree_order();
    let cx = Cx {
        cluster: &c,
        pod: &c.pods()[id],
        order: &order,
    };
    let mut out = p.pre_filter(&cx);
    let verdicts = |st: Option<&dyn PluginState>| -> Vec<Code> {
        c.nodes()
            .iter()
            .map(|n| p.filter(&cx, st, n, &mut Vec::new()))
            .collect()
    };
    // a = 1, b = 0, min 0: a 1+1-0 = 2 > 1, b 1 ok.
    assert_eq!(
        verdicts(out.state.as_deref()),
        [Code::Unschedulable, Code::Success]
    );
    let st = out.state.as_deref_mut().expect("state");
    // A pod of another namespace changes nothing.
    p.add_pod(&cx, st, &c.pods()[elsewhere], &c.nodes()[1]);
    assert_eq!(verdicts(Some(&*st)), [Code::Unschedulable, Code::Success]);
    // A web pod added on b1: a = 1, b = 1, min 1: a 1+1-1 = 1 ok, b ok.
    p.add_pod(&cx, st, &c.pods()[extra], &c.nodes()[1]);
    assert_eq!(verdicts(Some(&*st)), [Code::Success, Code::Success]);
    // The bound pod removed from a1: a = 0, b = 1, min 0: a 1 ok, b 1+1-0 = 2 > 1.
    p.remove_pod(&cx, st, &c.pods()[bound], &c.nodes()[0]);
    assert_eq!(verdicts(Some(&*st)), [Code::Success, Code::Unschedulable]);
    // The state PreFilter computes on the cluster itself is untouched by the copies.
    let fresh = p.pre_filter(&cx);
    assert_eq!(
        verdicts(fresh.state.as_deref()),
        [Code::Unschedulable, Code::Success]
    );
}

/// Nodes for the system-default scoring test: n4 has no zone.
fn service_cluster(extra_pods: Vec<(Pod, usize)>) -> Cluster {
    let mut bound = vec![(web(), 0), (web(), 0), (web(), 2), (web(), 3)];
    bound.extend(extra_pods);
    let mut c = cluster(
        zoned(&[
            ("n1", Some("a")),
            ("n2", Some("a")),
            ("n3", Some("b")),
            ("n4", None),
        ]),
        bound,
    );
    c.objects_mut().services.push(
        serde_json::from_value(json!({"metadata": {"name": "web", "namespace": "default"},
            "spec": {"selector": {"app": "web"}}}))
        .expect("service"),
    );
    c
}

#[test]
fn system_defaults_score_pods_behind_a_service() {
    let c = service_cluster(vec![]);
    let p = plugin(None);
    // Filter: the system defaults are ScheduleAnyway only.
    assert_eq!(filter_all(&*p, &c, &PodInfo::new_v135(web(), 0, 0)), None);
    // Scoring. System defaulting: nodes need not carry every key; none is ignored.
    // hostname (maxSkew 3): size 4 filtered nodes, weight ln 6 = 1.7917595;
    // zone (maxSkew 5): domains a, b and "" (n4), weight ln 5 = 1.6094379;
    // zone counts a = 2 + 0, b = 1, "" = 1.
    // n1: 2*1.7917595 + 2 + 2*1.6094379 + 4 = 12.802 -> 13
    // n2: 0 + 2 + 2*1.6094379 + 4 = 9.219 -> 9
    // n3: 1.7917595 + 2 + 1.6094379 + 4 = 9.401 -> 9
    // n4: 1.7917595 + 2 (no zone label, no zone term) = 3.792 -> 4
    // Normalised: 100 * (max + min - s) / max with min 4, max 13:
    // n1 400/13 = 30, n2 800/13 = 61, n3 61, n4 1300/13 = 100.
    let got = both_ways(&c, web(), |c, i| score_all(&*p, c, i));
    assert_eq!(got, Some((vec![13, 9, 9, 4], vec![30, 61, 61, 100])));
    // The same with both keys in the topology index (some pod names them).
    let mut indexed = c.clone();
    indexed.add_pod(PodInfo::new_v135(
        spread(json!([
            hard(ZONE, 1, json!({})),
            hard(HOSTNAME, 1, json!({}))
        ])),
        0,
        99,
    ));
    let got = both_ways(&indexed, web(), |c, i| score_all(&*p, c, i));
    assert_eq!(got, Some((vec![13, 9, 9, 4], vec![30, 61, 61, 100])));
    // A pod no Service selects gets no default constraint at all.
    let bare = labelled(json!({"app": "db"}));
    assert_eq!(both_ways(&c, bare, |c, i| score_all(&*p, c, i)), None);
}

#[test]
fn a_replica_set_owner_gives_a_bare_pod_default_constraints() {
    let mut c = cluster(
        zoned(&[("n1", Some("a")), ("n2", Some("b"))]),
        vec![(web(), 0)],
    );
    c.objects_mut().replica_sets.push((
        "default".into(),
        Some(serde_json::from_value(json!({"matchLabels": {"app": "web"}})).expect("sel")),
    ));
    let owned = pod(
        json!({"metadata": {"labels": {"app": "web"}, "ownerReferences": [
        {"kind": "ReplicaSet", "name": "web-1", "uid": "u", "controller": true}]}}),
    );
    let p = plugin(None);
    // hostname: weight ln 4 = 1.3862944; zone: 2 domains, weight ln 4; counts a = 1, b = 0.
    // n1: 1.3862944 + 2 + 1.3862944 + 4 = 8.773 -> 9; n2: 2 + 4 = 6.
    // Normalised with min 6, max 9: n1 100*6/9 = 66, n2 100*9/9 = 100.
    let got = both_ways(&c, owned, |c, i| score_all(&*p, c, i));
    assert_eq!(got, Some((vec![9, 6], vec![66, 100])));
    // Without the controller reference, nothing selects the pod.
    assert_eq!(both_ways(&c, web(), |c, i| score_all(&*p, c, i)), None);
}

#[test]
fn list_defaulting_with_no_constraints_skips_and_with_some_filters() {
    let c = service_cluster(vec![]);
    let empty = plugin(Some(json!({"defaultingType": "List"})));
    assert_eq!(
        filter_all(&*empty, &c, &PodInfo::new_v135(web(), 0, 0)),
        None
    );
    assert_eq!(
        score_all(&*empty, &c, &PodInfo::new_v135(web(), 0, 0)),
        None
    );
    // A DoNotSchedule default constraint filters pods behind the Service: zone counts
    // a = 2, b = 1 (n4 has no zone), min 1. n1, n2: 2+1-1 = 2 > 1; n3: 1 ok; n4 missing.
    let list = plugin(Some(
        json!({"defaultingType": "List", "defaultConstraints": [
        {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": DO_NOT_SCHEDULE}]}),
    ));
    let got = both_ways(&c, web(), |c, i| filter_all(&*list, c, i));
    assert_eq!(got, expect(&[SKEW, SKEW, OK, MISSING]));
    // List defaulting requires every key even for default constraints: n4 is ignored.
    let soft = plugin(Some(
        json!({"defaultingType": "List", "defaultConstraints": [
        {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": SCHEDULE_ANYWAY}]}),
    ));
    // zone domains a, b: weight ln 4 = 1.3862944. n1, n2: 2*1.386 = 2.77 -> 3; n3 1.39 -> 1.
    // Normalised over n1..n3 (min 1, max 3): n1, n2 100*1/3 = 33, n3 100*3/3 = 100; n4 0.
    let got = both_ways(&c, web(), |c, i| score_all(&*soft, c, i));
    assert_eq!(got, Some((vec![3, 3, 1, 0], vec![33, 33, 100, 0])));
}

#[test]
fn own_soft_constraints_ignore_nodes_without_the_key_and_all_zero_scores_give_100() {
    let soft = |selector: Json| {
        spread(json!([{"maxSkew": 1, "topologyKey": "zone",
            "whenUnsatisfiable": SCHEDULE_ANYWAY, "labelSelector": selector}]))
    };
    let nodes = || zoned(&[("n1", Some("a")), ("n2", Some("b")), ("n3", None)]);
    let p = plugin(None);
    // No matching pod: every non-ignored score is 0*w + (1-1) = 0, max 0 -> 100; n3
    // lacks the key: ignored, 0.
    let c = cluster(nodes(), vec![]);
    let got = both_ways(&c, soft(json!({"matchLabels": {"app": "web"}})), |c, i| {
        score_all(&*p, c, i)
    });
    assert_eq!(got, Some((vec![0, 0, 0], vec![100, 100, 0])));
    // Two web pods in zone a: domains a, b, weight ln 4 = 1.3862944;
    // n1 2*1.386 = 2.77 -> 3, n2 0. min 0, max 3: n1 100*(3+0-3)/3 = 0, n2 100.
    let c = cluster(nodes(), vec![(web(), 0), (web(), 0), (web(), 2)]);
    let got = both_ways(&c, soft(json!({"matchLabels": {"app": "web"}})), |c, i| {
        score_all(&*p, c, i)
    });
    assert_eq!(got, Some((vec![3, 0, 0], vec![0, 100, 0])));
    // maxSkew adds maxSkew-1 per constraint: maxSkew 3 gives n1 2.77 + 2 = 4.77 -> 5,
    // n2 2. min 2, max 5: n1 100*2/5 = 40, n2 100*5/5 = 100.
    let wide = spread(json!([{"maxSkew": 3, "topologyKey": "zone",
        "whenUnsatisfiable": SCHEDULE_ANYWAY, "labelSelector": {"matchLabels": {"app": "web"}}}]));
    let got = both_ways(&c, wide, |c, i| score_all(&*p, c, i));
    assert_eq!(got, Some((vec![5, 2, 0], vec![40, 100, 0])));
}

#[test]
fn index_and_scan_paths_agree_on_random_clusters() {
    use crate::rng::Rng;
    fn pick<'a>(r: &mut Rng, xs: &[&'a str]) -> &'a str {
        xs[r.intn(xs.len() as u64) as usize]
    }
    let system = plugin(None);
    let list = plugin(Some(
        json!({"defaultingType": "List", "defaultConstraints": [
        {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": DO_NOT_SCHEDULE},
        {"maxSkew": 2, "topologyKey": HOSTNAME, "whenUnsatisfiable": SCHEDULE_ANYWAY,
         "nodeTaintsPolicy": "Honor"}]}),
    ));
    let mut r = Rng::new(35);
    for case in 0..300 {
        let nodes: Vec<crate::model::Node> = (0..1 + r.intn(7))
            .map(|i| {
                let mut labels = json!({HOSTNAME: format!("n{i}")});
                for (key, values) in [("zone", ["a", "b", "c", ""]), ("rack", ["r1", "r2", "", ""])] {
                    if r.intn(5) != 0 {
                        labels[key] = json!(pick(&mut r, &values));
                    }
                }
                labels["disk"] = json!(pick(&mut r, &["ssd", "hdd"]));
                let taints = if r.intn(4) == 0 {
                    json!([{"key": "k", "effect": pick(&mut r, &["NoSchedule", "PreferNoSchedule"])}])
                } else {
                    json!([])
                };
                node(json!({"metadata": {"name": format!("n{i}"), "labels": labels},
                    "spec": {"taints": taints}}))
            })
            .collect();
        let n = nodes.len() as u64;
        let bound: Vec<(Pod, usize)> = (0..r.intn(14))
            .map(|_| {
                let mut meta = json!({"namespace": pick(&mut r, &["default", "default", "other"]),
                    "labels": {"app": pick(&mut r, &["web", "web", "db"]),
                               "tier": pick(&mut r, &["1", "2"])}});
                if r.intn(6) == 0 {
                    meta["deletionTimestamp"] = json!("2024-01-01T00:00:00Z");
                }
                (pod(json!({"metadata": meta})), r.intn(n) as usize)
            })
            .collect();
        let mut c = cluster(nodes, bound);
        if r.intn(2) == 0 {
            c.objects_mut().services.push(
                serde_json::from_value(json!({"metadata": {"name": "s"},
                    "spec": {"selector": {"app": "web"}}}))
                .expect("service"),
            );
        }
        let constraints: Vec<Json> = (0..r.intn(3))
            .map(|_| {
                let mut cst = json!({"maxSkew": 1 + r.intn(3) as i64,
                    "topologyKey": pick(&mut r, &["zone", "rack", HOSTNAME]),
                    "whenUnsatisfiable": pick(&mut r, &[DO_NOT_SCHEDULE, SCHEDULE_ANYWAY])});
                match r.intn(5) {
                    0 => {}
                    1 => cst["labelSelector"] = json!({}),
                    2 => {
                        cst["labelSelector"] = json!({"matchExpressions": [
                        {"key": "app", "operator": "In", "values": ["web", "db"]}]})
                    }
                    _ => cst["labelSelector"] = json!({"matchLabels": {"app": "web"}}),
                }
                if r.intn(3) == 0 {
                    cst["minDomains"] = json!(1 + r.intn(4) as i64);
                }
                if r.intn(3) == 0 {
                    cst["nodeAffinityPolicy"] = json!(pick(&mut r, &["Honor", "Ignore"]));
                }
                if r.intn(3) == 0 {
                    cst["nodeTaintsPolicy"] = json!(pick(&mut r, &["Honor", "Ignore"]));
                }
                if r.intn(3) == 0 {
                    cst["matchLabelKeys"] = json!(["tier"]);
                }
                cst
            })
            .collect();
        let mut spec = json!({"topologySpreadConstraints": constraints});
        if r.intn(3) == 0 {
            spec["nodeSelector"] = json!({"disk": "ssd"});
        }
        let incoming = pod(json!({"metadata": {"labels": {
            "app": pick(&mut r, &["web", "db"]), "tier": pick(&mut r, &["1", "2"])}},
            "spec": spec}));
        for p in [&system, &list] {
            let got = both_ways(&c, incoming.clone(), |c, i| {
                (filter_all(&**p, c, i), score_all(&**p, c, i))
            });
            if let Some((_, norm)) = &got.1 {
                assert!(
                    norm.iter().all(|s| (0..=MAX_NODE_SCORE).contains(s)),
                    "case {case}"
                );
            }
        }
    }
}

#[test]
fn args_default_and_validate_with_upstreams_wording() {
    let p = build(None).expect("defaults");
    let _ = p.name();
    let plugin = PodTopologySpread {
        defaults: system_default_constraints(),
        system_defaulted: true,
        hard_defaults: false,
        soft_defaults: true,
        terminating: Mutex::default(),
    };
    let (kind, list) = plugin.defaults();
    assert_eq!(kind, "System");
    assert_eq!(
        list.iter()
            .map(|c| (c.topology_key.as_str(), c.max_skew))
            .collect::<Vec<_>>(),
        [(HOSTNAME, 3), (ZONE, 5)]
    );
    assert!(arg_errors(json!({"kind": "PodTopologySpreadArgs",
        "apiVersion": "kubescheduler.config.k8s.io/v1", "defaultingType": ""}))
    .is_empty());
    assert_eq!(
        arg_errors(json!({"defaultingType": "Foo"})),
        ["defaultingType: Unsupported value: \"Foo\": supported values: \"System\", \"List\""]
    );
    let good = json!({"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"});
    assert_eq!(
        arg_errors(json!({"defaultConstraints": [good]})),
        ["defaultingType: Invalid value: \"System\": when .defaultConstraints are not empty"]
    );
    assert!(arg_errors(json!({"defaultingType": "List", "defaultConstraints": [good]})).is_empty());
    // Every rule at once, in upstream's order.
    let errors = arg_errors(json!({"defaultingType": "List", "defaultConstraints": [
        {"maxSkew": 0, "topologyKey": "", "whenUnsatisfiable": ""},
        {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "Never",
         "labelSelector": {"matchLabels": {"a": "b"}}},
        {"maxSkew": 2, "topologyKey": "zone", "whenUnsatisfiable": "Never"},
        {"maxSkew": 1, "topologyKey": "a/b/c", "whenUnsatisfiable": "ScheduleAnyway"}
    ]}));
    assert_eq!(
        errors,
        [
            "defaultConstraints[0].maxSkew: Invalid value: 0: not in valid range (0, inf)",
            "defaultConstraints[0].topologyKey: Required value: can not be empty",
            "defaultConstraints[0].whenUnsatisfiable: Required value: can not be empty",
            "defaultConstraints[1].whenUnsatisfiable: Unsupported value: \"Never\": supported values: \"DoNotSchedule\", \"ScheduleAnyway\"",
            "defaultConstraints[1].labelSelector: Forbidden: constraint must not define a selector, as they deduced for each pod",
            "defaultConstraints[2].whenUnsatisfiable: Unsupported value: \"Never\": supported values: \"DoNotSchedule\", \"ScheduleAnyway\"",
            "defaultConstraints[2]: Duplicate value: \"{zone, Never}\"",
            "defaultConstraints[3].topologyKey: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
        ]
    );
    assert_eq!(
        arg_errors(json!({"defaultingType": "List", "defaultConstraints": [
            {"maxSkew": 1, "topologyKey": "Example.com/-x", "whenUnsatisfiable": "ScheduleAnyway"}]})),
        [
            "defaultConstraints[0].topologyKey: Invalid value: \"Example.com/-x\": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
            "defaultConstraints[0].topologyKey: Invalid value: \"Example.com/-x\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        ]
    );
    // Strict decoding, with the path of the unknown field.
    let unknown = arg_errors(json!({"defaultingType": "List", "defaultConstraints": [
        {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "ScheduleAnyway", "bogus": 1}]}));
    assert_eq!(unknown.len(), 1);
    assert!(
        unknown[0].starts_with("defaultConstraints[0]")
            && unknown[0].contains("unknown field `bogus`"),
        "{unknown:?}"
    );
    assert!(arg_errors(json!({"extra": true}))[0].contains("unknown field `extra`"));
}
