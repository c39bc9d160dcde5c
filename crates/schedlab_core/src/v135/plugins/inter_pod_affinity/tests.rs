use super::*;
use crate::cluster::PodId;
use crate::testing::{node, pod};
use crate::v135::plugins::testkit::{both_ways, score_all};
use serde_json::{json, Value as Json};

fn plugin(args: Option<Json>) -> Box<dyn Plugin> {
    build(args.as_ref()).unwrap_or_else(|e| panic!("{e:?}"))
}

fn arg_errors(args: Json) -> Vec<String> {
    crate::v135::plugins::testkit::build_errors(build, args)
}

/// Nodes with a hostname label and, when given, a `zone` label.
fn nodes(list: &[(&str, Option<&str>)]) -> Vec<crate::model::Node> {
    list.iter()
        .map(|(name, zone)| {
            let mut labels = json!({"kubernetes.io/hostname": name});
            if let Some(z) = zone {
                labels["zone"] = json!(z);
            }
            node(json!({"metadata": {"name": name, "labels": labels}}))
        })
        .collect()
}

fn zones() -> Vec<crate::model::Node> {
    nodes(&[
        ("a1", Some("a")),
        ("a2", Some("a")),
        ("b1", Some("b")),
        ("nozone", None),
    ])
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

fn app(name: &str) -> Pod {
    pod(json!({"metadata": {"labels": {"app": name}}}))
}

fn in_ns(ns: &str, name: &str) -> Pod {
    pod(json!({"metadata": {"namespace": ns, "labels": {"app": name}}}))
}

/// A required term selecting `app: target` on `key`, with extra fields.
fn term(target: &str, key: &str, extra: Json) -> Json {
    let mut t = json!({"labelSelector": {"matchLabels": {"app": target}}, "topologyKey": key});
    for (k, v) in extra.as_object().expect("object") {
        t[k] = v.clone();
    }
    t
}

/// A pod labelled `app: label` with this affinity.
fn with(label: &str, affinity: Json) -> Pod {
    pod(json!({"metadata": {"labels": {"app": label}}, "spec": {"affinity": affinity}}))
}

fn required(kind: &str, terms: Vec<Json>) -> Json {
    json!({kind: {"requiredDuringSchedulingIgnoredDuringExecution": terms}})
}

fn preferred(kind: &str, weighted: Vec<(i32, Json)>) -> Json {
    let list: Vec<Json> = weighted
        .into_iter()
        .map(|(w, t)| json!({"weight": w, "podAffinityTerm": t}))
        .collect();
    json!({kind: {"preferredDuringSchedulingIgnoredDuringExecution": list}})
}

/// Merges affinity objects (podAffinity and podAntiAffinity).
fn both(a: Json, b: Json) -> Json {
    let mut out = a;
    for (k, v) in b.as_object().expect("object") {
        out[k] = v.clone();
    }
    out
}

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
    Some(verdicts(p, &cx, out.state.as_deref()))
}

fn verdicts(p: &dyn Plugin, cx: &Cx, st: Option<&dyn PluginState>) -> Vec<(Code, String)> {
    cx.cluster
        .nodes()
        .iter()
        .map(|n| {
            let mut reasons = Vec::new();
            let code = p.filter(cx, st, n, &mut reasons);
            let text: Vec<String> = reasons.iter().map(ToString::to_string).collect();
            (code, text.join(", "))
        })
        .collect()
}

const OK: (Code, &str) = (Code::Success, "");
const AFF: (Code, &str) = (Code::UnschedulableAndUnresolvable, ERR_AFFINITY);
const ANTI: (Code, &str) = (Code::Unschedulable, ERR_ANTI_AFFINITY);
const EXISTING: (Code, &str) = (Code::Unschedulable, ERR_EXISTING_ANTI_AFFINITY);

fn expect(v: &[(Code, &str)]) -> Verdicts {
    Some(v.iter().map(|(c, s)| (*c, s.to_string())).collect())
}

/// A pod labelled `app: guard` with required anti-affinity to `app: web` per hostname.
fn guard() -> Pod {
    with(
        "guard",
        required(
            "podAntiAffinity",
            vec![term("web", "kubernetes.io/hostname", json!({}))],
        ),
    )
}

#[test]
fn each_rule_has_its_reason_and_code() {
    let p = plugin(None);
    let c = cluster(zones(), vec![(app("cache"), 0)]);
    // Affinity to the zone of a cache pod: a1, a2 fit; b1 has no cache pod; nozone lacks
    // the key. UnschedulableAndUnresolvable.
    let aff = with(
        "web",
        required("podAffinity", vec![term("cache", "zone", json!({}))]),
    );
    let got = both_ways(&c, aff, |c, i| filter_all(&*p, c, i));
    assert_eq!(got, expect(&[OK, OK, AFF, AFF]));
    // Anti-affinity to it: zone a is taken; a node without the key passes. Unschedulable.
    let anti = with(
        "web",
        required("podAntiAffinity", vec![term("cache", "zone", json!({}))]),
    );
    let got = both_ways(&c, anti, |c, i| filter_all(&*p, c, i));
    assert_eq!(got, expect(&[ANTI, ANTI, OK, OK]));
    // An existing pod's anti-affinity to web pods on its host (b1).
    let c = cluster(zones(), vec![(guard(), 2)]);
    let got = both_ways(&c, app("web"), |c, i| filter_all(&*p, c, i));
    assert_eq!(got, expect(&[OK, OK, EXISTING, OK]));
    // A pod the guard does not select, with no terms of its own: Skip.
    assert_eq!(both_ways(&c, app("db"), |c, i| filter_all(&*p, c, i)), None);
}

#[test]
fn affinity_is_checked_before_anti_affinity_before_existing_pods() {
    let p = plugin(None);
    let c = cluster(
        nodes(&[
            ("a1", Some("a")),
            ("a2", Some("a")),
            ("b1", Some("b")),
            ("c1", Some("c")),
            ("nozone", None),
        ]),
        vec![
            (app("cache"), 0),
            (app("cache"), 2),
            (app("db"), 1),
            (app("db"), 3),
            (guard(), 0),
            (guard(), 2),
            (guard(), 3),
        ],
    );
    let incoming = with(
        "web",
        both(
            required("podAffinity", vec![term("cache", "zone", json!({}))]),
            required("podAntiAffinity", vec![term("db", "zone", json!({}))]),
        ),
    );
    // a1: affinity ok, anti (db in zone a) and existing (guard) fail -> anti.
    // a2: anti. b1: affinity and anti ok, existing (guard) fails.
    // c1: every rule fails -> affinity. nozone: no zone -> affinity.
    let got = both_ways(&c, incoming, |c, i| filter_all(&*p, c, i));
    assert_eq!(got, expect(&[ANTI, ANTI, EXISTING, AFF, AFF]));
}

#[test]
fn the_first_pod_of_a_group_may_go_anywhere_with_the_key() {
    let p = plugin(None);
    // Only a cache pod of another namespace, which the term does not see.
    let c = cluster(zones(), vec![(in_ns("other", "cache"), 0)]);
    let self_matching = with(
        "cache",
        required("podAffinity", vec![term("cache", "zone", json!({}))]),
    );
    let got = both_ways(&c, self_matching.clone(), |c, i| filter_all(&*p, c, i));
    assert_eq!(got, expect(&[OK, OK, OK, AFF]));
    // A pod that does not match its own term fits nowhere.
    let other = with(
        "web",
        required("podAffinity", vec![term("cache", "zone", json!({}))]),
    );
    let got = both_ways(&c, other, |c, i| filter_all(&*p, c, i));
    assert_eq!(got, expect(&[AFF, AFF, AFF, AFF]));
    // Once a matching pod exists (zone b), the exception is over.
    let c = cluster(zones(), vec![(app("cache"), 2)]);
    let got = both_ways(&c, self_matching, |c, i| filter_all(&*p, c, i));
    assert_eq!(got, expect(&[AFF, AFF, OK, AFF]));
}

#[test]
fn namespaces_and_namespace_selectors() {
    let p = plugin(None);
    let mut c = cluster(zones(), vec![(in_ns("other", "cache"), 0)]);
    let anti = |extra: Json| {
        with(
            "web",
            required("podAntiAffinity", vec![term("cache", "zone", extra)]),
        )
    };
    // The pod's own namespace only: the cache pod is not seen.
    let got = both_ways(&c, anti(json!({})), |c, i| filter_all(&*p, c, i));
    assert_eq!(got, expect(&[OK, OK, OK, OK]));
    // Listed namespaces.
    let got = both_ways(&c, anti(json!({"namespaces": ["other"]})), |c, i| {
        filter_all(&*p, c, i)
    });
    assert_eq!(got, expect(&[ANTI, ANTI, OK, OK]));
    // namespaceSelector {} selects every namespace, known or not.
    let got = both_ways(&c, anti(json!({"namespaceSelector": {}})), |c, i| {
        filter_all(&*p, c, i)
    });
    assert_eq!(got, expect(&[ANTI, ANTI, OK, OK]));
    // A label selector over the Namespace objects: none known yet, then "other" labelled.
    let team = json!({"namespaceSelector": {"matchLabels": {"team": "x"}}});
    let got = both_ways(&c, anti(team.clone()), |c, i| filter_all(&*p, c, i));
    assert_eq!(got, expect(&[OK, OK, OK, OK]));
    c.objects_mut().namespaces.insert(
        "other".into(),
        [("team".to_string(), "x".to_string())].into(),
    );
    let got = both_ways(&c, anti(team), |c, i| filter_all(&*p, c, i));
    assert_eq!(got, expect(&[ANTI, ANTI, OK, OK]));
    // An existing pod's namespaceSelector is matched against the labels of the incoming
    // pod's namespace.
    let selective_guard = pod(
        json!({"metadata": {"namespace": "other", "labels": {"app": "guard"}},
        "spec": {"affinity": required("podAntiAffinity", vec![term("web", "kubernetes.io/hostname",
            json!({"namespaceSelector": {"matchLabels": {"team": "web"}}}))])}}),
    );
    let mut c = cluster(zones(), vec![(selective_guard, 2)]);
    assert_eq!(
        both_ways(&c, app("web"), |c, i| filter_all(&*p, c, i)),
        None
    );
    c.objects_mut().namespaces.insert(
        "default".into(),
        [("team".to_string(), "web".to_string())].into(),
    );
    let got = both_ways(&c, app("web"), |c, i| filter_all(&*p, c, i));
    assert_eq!(got, expect(&[OK, OK, EXISTING, OK]));
}

#[test]
fn add_pod_and_remove_pod_change_the_verdict() {
    let p = plugin(None);
    let mut c = cluster(zones(), vec![]);
    let cache: PodId = c.add_pod(PodInfo::new_v135(app("cache"), 0, 0));
    let guard_id = c.add_pod(PodInfo::new_v135(guard(), 0, 1));
    let anti = c.add_pod(PodInfo::new_v135(
        with(
            "web",
            required("podAntiAffinity", vec![term("cache", "zone", json!({}))]),
        ),
        0,
        2,
    ));
    let aff = c.add_pod(PodInfo::new_v135(
        with(
            "web",
            required("podAffinity", vec![term("cache", "zone", json!({}))]),
        ),
        0,
        3,
    ));
    let order = c.node_tree_order();
    let strings = |v: &[(Code, &str)]| -> Vec<(Code, String)> {
        v.iter().map(|(c, s)| (*c, s.to_string())).collect()
    };
    // Anti-affinity to cache pods: none, every node fits.
    let cx = Cx {
        cluster: &c,
        pod: &c.pods()[anti],
        order: &order,
    };
    let mut out = p.pre_filter(&cx);
    let st = out.state.as_deref_mut().expect("state");
    assert_eq!(verdicts(&*p, &cx, Some(&*st)), strings(&[OK, OK, OK, OK]));
    // A cache pod nominated to a1 takes zone a.
    p.add_pod(&cx, st, &c.pods()[cache], &c.nodes()[0]);
    assert_eq!(
        verdicts(&*p, &cx, Some(&*st)),
        strings(&[ANTI, ANTI, OK, OK])
    );
    // A guard on b1 keeps web pods off b1.
    p.add_pod(&cx, st, &c.pods()[guard_id], &c.nodes()[2]);
    assert_eq!(
        verdicts(&*p, &cx, Some(&*st)),
        strings(&[ANTI, ANTI, EXISTING, OK])
    );
    // Both removed again.
    p.remove_pod(&cx, st, &c.pods()[cache], &c.nodes()[0]);
    p.remove_pod(&cx, st, &c.pods()[guard_id], &c.nodes()[2]);
    assert_eq!(verdicts(&*p, &cx, Some(&*st)), strings(&[OK, OK, OK, OK]));
    // Affinity to cache pods from a web pod: nowhere, until a cache pod is on b1.
    let cx = Cx {
        cluster: &c,
        pod: &c.pods()[aff],
        order: &order,
    };
    let mut out = p.pre_filter(&cx);
    let st = out.state.as_deref_mut().expect("state");
    assert_eq!(
        verdicts(&*p, &cx, Some(&*st)),
        strings(&[AFF, AFF, AFF, AFF])
    );
    p.add_pod(&cx, st, &c.pods()[cache], &c.nodes()[2]);
    assert_eq!(
        verdicts(&*p, &cx, Some(&*st)),
        strings(&[AFF, AFF, OK, AFF])
    );
    p.remove_pod(&cx, st, &c.pods()[cache], &c.nodes()[2]);
    assert_eq!(
        verdicts(&*p, &cx, Some(&*st)),
        strings(&[AFF, AFF, AFF, AFF])
    );
}

fn abc() -> Vec<crate::model::Node> {
    nodes(&[("a", Some("a")), ("b", Some("b")), ("c", Some("c"))])
}

fn prefers(affinity: Json) -> Pod {
    with("web", affinity)
}

#[test]
fn preferred_terms_and_min_max_normalisation() {
    let p = plugin(None);
    // +8 per cache pod in the zone, -2 per db pod.
    let c = cluster(abc(), vec![(app("cache"), 0), (app("db"), 1)]);
    let incoming = prefers(both(
        preferred("podAffinity", vec![(8, term("cache", "zone", json!({})))]),
        preferred("podAntiAffinity", vec![(2, term("db", "zone", json!({})))]),
    ));
    // Raw 8, -2, 0; min -2, max 8, diff 10: 100*10/10 = 100, 0, 100*2/10 = 20.
    let got = both_ways(&c, incoming, |c, i| score_all(&*p, c, i));
    assert_eq!(got, Some((vec![8, -2, 0], vec![100, 0, 20])));
    let three = || {
        prefers(preferred(
            "podAffinity",
            vec![(3, term("cache", "zone", json!({})))],
        ))
    };
    // Equal scores: diff 0 gives 0 everywhere (v1.17 gave 100).
    let c = cluster(
        abc(),
        vec![(app("cache"), 0), (app("cache"), 1), (app("cache"), 2)],
    );
    let got = both_ways(&c, three(), |c, i| score_all(&*p, c, i));
    assert_eq!(got, Some((vec![3, 3, 3], vec![0, 0, 0])));
    // All positive: the lowest becomes 0 (v1.17: 100*3/6 = 50). Raw 3, 6, 3.
    let c = cluster(
        abc(),
        vec![
            (app("cache"), 0),
            (app("cache"), 1),
            (app("cache"), 1),
            (app("cache"), 2),
        ],
    );
    let got = both_ways(&c, three(), |c, i| score_all(&*p, c, i));
    assert_eq!(got, Some((vec![3, 6, 3], vec![0, 100, 0])));
    // All negative or zero: raw -2, -6, 0; min -6, diff 6: 100*4/6 = 66, 0, 100.
    let c = cluster(
        abc(),
        vec![
            (app("db"), 0),
            (app("db"), 1),
            (app("db"), 1),
            (app("db"), 1),
        ],
    );
    let avoid = prefers(preferred(
        "podAntiAffinity",
        vec![(2, term("db", "zone", json!({})))],
    ));
    let got = both_ways(&c, avoid, |c, i| score_all(&*p, c, i));
    assert_eq!(got, Some((vec![-2, -6, 0], vec![66, 0, 100])));
}

#[test]
fn existing_pods_terms_with_hard_pod_affinity_weight() {
    // A web pod on b requires affinity to cache pods in its zone; the incoming cache pod
    // matches it: +hardPodAffinityWeight on zone b.
    let needy = with(
        "web",
        required("podAffinity", vec![term("cache", "zone", json!({}))]),
    );
    let c = cluster(abc(), vec![(needy, 1)]);
    let default = plugin(None);
    // Weight 1: raw 0, 1, 0; min 0, max 1: 0, 100, 0.
    let got = both_ways(&c, app("cache"), |c, i| score_all(&*default, c, i));
    assert_eq!(got, Some((vec![0, 1, 0], vec![0, 100, 0])));
    let five = plugin(Some(json!({"hardPodAffinityWeight": 5})));
    let got = both_ways(&c, app("cache"), |c, i| score_all(&*five, c, i));
    assert_eq!(got, Some((vec![0, 5, 0], vec![0, 100, 0])));
    // Weight 0: nothing recorded, Skip.
    let zero = plugin(Some(json!({"hardPodAffinityWeight": 0})));
    assert_eq!(
        both_ways(&c, app("cache"), |c, i| score_all(&*zero, c, i)),
        None
    );
    // A pod the term does not select: Skip.
    assert_eq!(
        both_ways(&c, app("db"), |c, i| score_all(&*default, c, i)),
        None
    );
}

#[test]
fn existing_preferred_terms_and_ignore_preferred_terms_of_existing_pods() {
    let likes = with(
        "x",
        preferred("podAffinity", vec![(4, term("cache", "zone", json!({})))]),
    );
    let dislikes = with(
        "y",
        preferred(
            "podAntiAffinity",
            vec![(6, term("cache", "zone", json!({})))],
        ),
    );
    let c = cluster(abc(), vec![(likes, 0), (dislikes, 1)]);
    let p = plugin(None);
    // Raw 4, -6, 0; min -6, diff 10: 100, 0, 100*6/10 = 60.
    let got = both_ways(&c, app("cache"), |c, i| score_all(&*p, c, i));
    assert_eq!(got, Some((vec![4, -6, 0], vec![100, 0, 60])));
    let ignoring = plugin(Some(json!({"ignorePreferredTermsOfExistingPods": true})));
    // The incoming pod has no preferred term: Skip.
    assert_eq!(
        both_ways(&c, app("cache"), |c, i| score_all(&*ignoring, c, i)),
        None
    );
    // With a preferred term of its own (matching nothing), existing pods' terms count again.
    let mut own = prefers(preferred(
        "podAffinity",
        vec![(1, term("none", "zone", json!({})))],
    ));
    own.metadata.labels.insert("app".into(), "cache".into());
    let got = both_ways(&c, own, |c, i| score_all(&*ignoring, c, i));
    assert_eq!(got, Some((vec![4, -6, 0], vec![100, 0, 60])));
}

#[test]
fn index_and_scan_paths_agree_on_random_clusters() {
    use crate::rng::Rng;
    fn pick<'a>(r: &mut Rng, xs: &[&'a str]) -> &'a str {
        xs[r.intn(xs.len() as u64) as usize]
    }
    fn random_term(r: &mut Rng) -> Json {
        let mut t = json!({"topologyKey": pick(r, &["zone", "rack", "kubernetes.io/hostname"])});
        match r.intn(5) {
            0 => {}
            1 => t["labelSelector"] = json!({}),
            _ => {
                t["labelSelector"] =
                    json!({"matchLabels": {"app": pick(r, &["web", "db", "cache"])}})
            }
        }
        match r.intn(5) {
            0 => t["namespaces"] = json!([pick(r, &["default", "other"])]),
            1 => t["namespaceSelector"] = json!({}),
            2 => t["namespaceSelector"] = json!({"matchLabels": {"team": "x"}}),
            _ => {}
        }
        t
    }
    fn random_affinity(r: &mut Rng) -> Json {
        let mut a = json!({});
        for kind in ["podAffinity", "podAntiAffinity"] {
            if r.intn(2) == 0 {
                continue;
            }
            let req: Vec<Json> = (0..r.intn(3)).map(|_| random_term(r)).collect();
            let pref: Vec<Json> = (0..r.intn(3))
                .map(|_| json!({"weight": 1 + r.intn(9) as i64, "podAffinityTerm": random_term(r)}))
                .collect();
            a[kind] = json!({"requiredDuringSchedulingIgnoredDuringExecution": req,
                "preferredDuringSchedulingIgnoredDuringExecution": pref});
        }
        a
    }
    fn random_pod(r: &mut Rng) -> Pod {
        let mut spec = json!({});
        if r.intn(3) == 0 {
            spec["affinity"] = random_affinity(r);
        }
        pod(
            json!({"metadata": {"namespace": pick(r, &["default", "default", "other"]),
            "labels": {"app": pick(r, &["web", "db", "cache"])}}, "spec": spec}),
        )
    }
    let plugins = [
        plugin(None),
        plugin(Some(json!({"hardPodAffinityWeight": 0}))),
        plugin(Some(json!({"ignorePreferredTermsOfExistingPods": true}))),
    ];
    let mut r = Rng::new(135);
    for case in 0..300 {
        let list: Vec<crate::model::Node> = (0..1 + r.intn(6))
            .map(|i| {
                let mut labels = json!({"kubernetes.io/hostname": format!("n{i}")});
                for (key, values) in [("zone", ["a", "b", "c"]), ("rack", ["r1", "r2", "r1"])] {
                    if r.intn(4) != 0 {
                        labels[key] = json!(pick(&mut r, &values));
                    }
                }
                node(json!({"metadata": {"name": format!("n{i}"), "labels": labels}}))
            })
            .collect();
        let n = list.len() as u64;
        let bound: Vec<(Pod, usize)> = (0..r.intn(10))
            .map(|_| (random_pod(&mut r), r.intn(n) as usize))
            .collect();
        let mut c = cluster(list, bound);
        for ns in ["default", "other"] {
            if r.intn(2) == 0 {
                c.objects_mut()
                    .namespaces
                    .insert(ns.into(), [("team".to_string(), "x".to_string())].into());
            }
        }
        let mut incoming = random_pod(&mut r);
        if r.intn(2) == 0 {
            incoming.spec.affinity = serde_json::from_value(random_affinity(&mut r)).ok();
        }
        for p in &plugins {
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
fn args_default_and_validate() {
    assert!(build(None).is_ok());
    assert!(arg_errors(json!({"kind": "InterPodAffinityArgs",
        "apiVersion": "kubescheduler.config.k8s.io/v1",
        "hardPodAffinityWeight": 100, "ignorePreferredTermsOfExistingPods": true}))
    .is_empty());
    assert!(arg_errors(json!({"hardPodAffinityWeight": 0})).is_empty());
    assert_eq!(
        arg_errors(json!({"hardPodAffinityWeight": 101})),
        ["hardPodAffinityWeight: Invalid value: 101: not in valid range [0, 100]"]
    );
    assert_eq!(
        arg_errors(json!({"hardPodAffinityWeight": -1})),
        ["hardPodAffinityWeight: Invalid value: -1: not in valid range [0, 100]"]
    );
    let unknown = arg_errors(json!({"hardPodAffinityWeigth": 1}));
    assert_eq!(unknown.len(), 1);
    assert!(
        unknown[0].contains("unknown field `hardPodAffinityWeigth`"),
        "{unknown:?}"
    );
}

#[test]
fn match_label_keys_are_merged_as_the_api_server_does() {
    let mut p = pod(
        json!({"metadata": {"labels": {"app": "web", "version": "v1", "tenant": "t1"}},
        "spec": {"affinity": {
            "podAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": [
                    {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "zone",
                     "matchLabelKeys": ["version", "absent"], "mismatchLabelKeys": ["tenant"]},
                    {"topologyKey": "zone", "matchLabelKeys": ["version"]}]},
            "podAntiAffinity": {
                "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1,
                    "podAffinityTerm": {"labelSelector": {}, "topologyKey": "zone",
                        "mismatchLabelKeys": ["tenant"]}}]}}}}),
    );
    apply_match_label_keys(&mut p);
    let req = |key: &str, op: &str, v: &str| Requirement {
        key: key.into(),
        operator: op.into(),
        values: vec![v.into()],
    };
    let aff = p.pod_affinity().expect("affinity");
    let first = &aff.required_during_scheduling_ignored_during_execution[0];
    assert_eq!(
        first
            .label_selector
            .as_ref()
            .expect("selector")
            .match_expressions,
        [req("version", "In", "v1"), req("tenant", "NotIn", "t1")]
    );
    // A nil selector stays nil (it matches nothing anyway).
    assert!(aff.required_during_scheduling_ignored_during_execution[1]
        .label_selector
        .is_none());
    let anti = p.pod_anti_affinity().expect("anti");
    let pref = &anti.preferred_during_scheduling_ignored_during_execution[0].pod_affinity_term;
    assert_eq!(
        pref.label_selector
            .as_ref()
            .expect("selector")
            .match_expressions,
        [req("tenant", "NotIn", "t1")]
    );
    // The merged terms select by the pod's own values: a v1 web pod of another tenant.
    let sel = first.label_selector.as_ref().expect("selector");
    let labels = |v: &str, t: &str| -> Labels {
        [("app", "web"), ("version", v), ("tenant", t)]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    };
    assert!(sel.matches(&labels("v1", "t2")));
    assert!(!sel.matches(&labels("v2", "t2")));
    assert!(!sel.matches(&labels("v1", "t1")));
}
