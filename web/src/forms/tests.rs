use super::node::{self, NodeEdit};
use super::pod::{self, PodField};
use super::policy::{self, PolicyEdit};
use super::syntax;
use super::*;
use serde_json::json;

const CLASSIC_NODES: &str = include_str!("../../../assets/scenarios/classic/nodes.yaml");
const CLASSIC_PODS: &str = include_str!("../../../assets/scenarios/classic/pods.yaml");
const CLASSIC_POLICY: &str = include_str!("../../../assets/scenarios/classic/policy.json");
const PDB_PODS: &str = include_str!("../../../assets/scenarios/pdb-steers/pods.yaml");
const CONFIG: &str = include_str!("../../../assets/scenarios/config.yaml");

fn reparse(doc: &Document) -> Document {
    Document::parse(&doc.to_text()).expect("the written text parses")
}

fn node_ref(doc: &Document, name: &str) -> ObjRef {
    doc.find(node::KIND, name).expect("node exists")
}

fn pod_ref(doc: &Document, name: &str) -> ObjRef {
    doc.find(pod::KIND, name).expect("pod exists")
}

#[test]
fn list_layout_round_trips() {
    let doc = Document::parse(CLASSIC_NODES).unwrap();
    assert_eq!(doc.format(), Format::Yaml);
    assert_eq!(doc.of_kind("Node").count(), 5);
    let text = doc.to_text();
    assert!(text.contains("kind: List") && text.contains("items:"));
    assert!(!text.contains("---"));
    assert_eq!(reparse(&doc), doc);
}

#[test]
fn node_edits_set_capacity_and_allocatable() {
    let mut doc = Document::parse(CLASSIC_NODES).unwrap();
    let r = node_ref(&doc, "node-a1");
    node::apply(&mut doc, r, NodeEdit::Resource("cpu", "16".into())).unwrap();
    node::apply(&mut doc, r, NodeEdit::Resource("memory", "64Gi".into())).unwrap();
    node::apply(&mut doc, r, NodeEdit::Unschedulable(true)).unwrap();
    node::apply(
        &mut doc,
        r,
        NodeEdit::Taints("dedicated=db:NoSchedule".into()),
    )
    .unwrap();
    node::apply(&mut doc, r, NodeEdit::Name("big".into())).unwrap();
    let doc = reparse(&doc);
    let v = doc.get(node_ref(&doc, "big")).unwrap();
    assert_eq!(v["status"]["capacity"]["cpu"], "16");
    assert_eq!(v["status"]["allocatable"]["cpu"], "16");
    assert_eq!(v["status"]["allocatable"]["memory"], "64Gi");
    assert_eq!(v["spec"]["unschedulable"], true);
    assert_eq!(
        v["spec"]["taints"],
        json!([{"key": "dedicated", "value": "db", "effect": "NoSchedule"}])
    );
    assert_eq!(v["metadata"]["labels"]["kubernetes.io/hostname"], "big");
    // Other nodes untouched.
    let orig = Document::parse(CLASSIC_NODES).unwrap();
    let b2 = |d: &Document| d.get(node_ref(d, "node-b2")).cloned();
    assert_eq!(b2(&doc), b2(&orig));
}

#[test]
fn node_edit_rejects_bad_values_and_duplicate_names() {
    let mut doc = Document::parse(CLASSIC_NODES).unwrap();
    let r = node_ref(&doc, "node-a1");
    assert!(node::apply(&mut doc, r, NodeEdit::Resource("cpu", "lots".into())).is_err());
    assert!(node::apply(&mut doc, r, NodeEdit::Name("node-b1".into())).is_err());
    assert!(node::apply(&mut doc, r, NodeEdit::Taints("x=y:Sometimes".into())).is_err());
}

#[test]
fn node_add_duplicate_delete() {
    let mut doc = Document::parse(CLASSIC_NODES).unwrap();
    let copy = doc.duplicate(node_ref(&doc, "node-b3")).unwrap();
    assert_eq!(copy, "node-b4");
    let added = node::add(&mut doc);
    assert!(doc.find("Node", &added).is_some());
    doc.remove(node_ref(&doc, "node-a2"));
    let doc = reparse(&doc);
    let names: Vec<&str> = doc.of_kind("Node").map(|(_, v)| name_of(v)).collect();
    assert_eq!(
        names,
        ["node-a1", "node-b1", "node-b2", "node-b3", "node-b4", &added]
    );
    let b4 = doc.get(node_ref(&doc, "node-b4")).unwrap();
    assert_eq!(
        b4["metadata"]["labels"]["kubernetes.io/hostname"],
        "node-b4"
    );
    assert_eq!(b4["status"]["allocatable"]["cpu"], "2");
}

#[test]
fn multi_document_keeps_other_kinds() {
    let mut doc = Document::parse(PDB_PODS).unwrap();
    assert_eq!(doc.objects().count(), 6);
    let r = pod_ref(&doc, "checkout");
    pod::apply(&mut doc, r, PodField::Cpu, "3").unwrap();
    pod::apply(&mut doc, r, PodField::Priority, "5").unwrap();
    let copy = doc.duplicate(pod_ref(&doc, "checkout")).unwrap();
    assert_eq!(copy, "checkout-2");
    let text = doc.to_text();
    assert_eq!(text.matches("---\n").count(), 6);
    let doc = reparse(&doc);
    let orig = Document::parse(PDB_PODS).unwrap();
    for kind in ["PriorityClass", "PodDisruptionBudget"] {
        let a: Vec<_> = doc.of_kind(kind).map(|(_, v)| v.clone()).collect();
        let b: Vec<_> = orig.of_kind(kind).map(|(_, v)| v.clone()).collect();
        assert_eq!(a, b);
    }
    let v = doc.get(pod_ref(&doc, "checkout")).unwrap();
    assert_eq!(pod::request(v, "cpu"), "3");
    assert_eq!(v["spec"]["priority"], 5);
    assert_eq!(v["spec"]["priorityClassName"], "critical");
    assert!(doc.find("Pod", "checkout-2").is_some());
}

#[test]
fn pod_scheduling_fields_round_trip() {
    let mut doc = Document::parse(CLASSIC_PODS).unwrap();
    let r = pod_ref(&doc, "web-1");
    let set = |doc: &mut Document, f, t: &str| pod::apply(doc, r, f, t).unwrap();
    set(&mut doc, PodField::NodeSelector, "disktype=ssd");
    set(
        &mut doc,
        PodField::Tolerations,
        "dedicated=gpu:NoSchedule\nspot",
    );
    set(
        &mut doc,
        PodField::NodeAffinity,
        "zone in (a, b), !spot\ngpu",
    );
    set(
        &mut doc,
        PodField::PodAntiAffinity,
        "kubernetes.io/hostname: app=web",
    );
    set(
        &mut doc,
        PodField::PodAffinity,
        "topology.kubernetes.io/zone: app=cache",
    );
    set(
        &mut doc,
        PodField::Spread,
        "topology.kubernetes.io/zone 1 DoNotSchedule app=web",
    );
    set(&mut doc, PodField::HostPorts, "8080, 53/UDP");
    set(&mut doc, PodField::PriorityClass, "high");
    let doc = reparse(&doc);
    let v = doc.get(pod_ref(&doc, "web-1")).unwrap();
    assert_eq!(v["spec"]["nodeSelector"], json!({"disktype": "ssd"}));
    assert_eq!(
        v["spec"]["tolerations"],
        json!([
            {"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"},
            {"key": "spot", "operator": "Exists"}
        ])
    );
    let terms = &v["spec"]["affinity"]["nodeAffinity"]
        ["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"];
    assert_eq!(
        terms,
        &json!([
            {"matchExpressions": [
                {"key": "zone", "operator": "In", "values": ["a", "b"]},
                {"key": "spot", "operator": "DoesNotExist"}
            ]},
            {"matchExpressions": [{"key": "gpu", "operator": "Exists"}]}
        ])
    );
    assert_eq!(
        v["spec"]["affinity"]["podAntiAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"],
        json!([{"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "kubernetes.io/hostname"}])
    );
    assert_eq!(
        v["spec"]["topologySpreadConstraints"][0],
        json!({"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone",
               "whenUnsatisfiable": "DoNotSchedule", "labelSelector": {"matchLabels": {"app": "web"}}})
    );
    assert_eq!(
        pod::host_ports(v),
        [(8080, "TCP".to_string()), (53, "UDP".to_string())]
    );
    // The form shows what it wrote.
    assert_eq!(
        pod::field_text(v, PodField::NodeAffinity),
        "zone in (a,b), !spot\ngpu"
    );
    assert_eq!(pod::field_text(v, PodField::HostPorts), "8080, 53/UDP");
    assert_eq!(
        pod::field_text(v, PodField::Spread),
        "topology.kubernetes.io/zone 1 DoNotSchedule app=web"
    );
    // Clearing removes the field entirely.
    let mut doc = doc;
    let r = pod_ref(&doc, "web-1");
    pod::apply(&mut doc, r, PodField::NodeAffinity, "").unwrap();
    pod::apply(&mut doc, r, PodField::PodAntiAffinity, "").unwrap();
    let v = doc.get(r).unwrap();
    assert_eq!(
        v["spec"]["affinity"],
        json!({"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution":
            [{"labelSelector": {"matchLabels": {"app": "cache"}}, "topologyKey": "topology.kubernetes.io/zone"}]}})
    );
}

#[test]
fn host_ports_remove_keeps_container_port() {
    let mut doc = Document::parse(CLASSIC_PODS).unwrap();
    let r = pod_ref(&doc, "ingress-1");
    assert_eq!(
        pod::field_text(doc.get(r).unwrap(), PodField::HostPorts),
        "80"
    );
    pod::apply(&mut doc, r, PodField::HostPorts, "").unwrap();
    let v = doc.get(r).unwrap();
    assert_eq!(
        v["spec"]["containers"][0]["ports"],
        json!([{"containerPort": 80}])
    );
}

#[test]
fn tolerations_keep_seconds() {
    let text = "kind: Pod\nmetadata: {name: p}\nspec:\n  tolerations:\n  - {key: k, operator: Exists, effect: NoExecute, tolerationSeconds: 30}\n";
    let mut doc = Document::parse(text).unwrap();
    let r = pod_ref(&doc, "p");
    let shown = pod::field_text(doc.get(r).unwrap(), PodField::Tolerations);
    assert_eq!(shown, "k:NoExecute");
    pod::apply(
        &mut doc,
        r,
        PodField::Tolerations,
        &format!("{shown}\nother"),
    )
    .unwrap();
    let v = doc.get(r).unwrap();
    assert_eq!(v["spec"]["tolerations"][0]["tolerationSeconds"], 30);
    assert_eq!(
        v["spec"]["tolerations"][1],
        json!({"key": "other", "operator": "Exists"})
    );
}

#[test]
fn json_stays_json() {
    let mut doc = Document::parse(CLASSIC_POLICY).unwrap();
    assert_eq!(doc.format(), Format::Json);
    policy::apply(&mut doc, PolicyEdit::Predicate("HostName".into(), false)).unwrap();
    policy::apply(
        &mut doc,
        PolicyEdit::PriorityWeight("LeastRequestedPriority".into(), Some(5)),
    )
    .unwrap();
    let text = doc.to_text();
    assert!(text.starts_with("{\n  \"kind\": \"Policy\""));
    let doc = reparse(&doc);
    let v = doc.get(policy::find(&doc).unwrap()).unwrap();
    assert!(!policy::enabled_predicates(v).contains(&"HostName".to_string()));
    assert!(policy::priority_weights(v).contains(&("LeastRequestedPriority".into(), 5)));
}

#[test]
fn json_single_object_becomes_a_list_when_one_is_added() {
    let text = r#"{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"}}"#;
    let mut doc = Document::parse(text).unwrap();
    let copy = doc.duplicate(node_ref(&doc, "n1")).unwrap();
    assert_eq!(copy, "n2");
    let doc = reparse(&doc);
    assert_eq!(doc.format(), Format::Json);
    assert_eq!(doc.of_kind("Node").count(), 2);
    assert!(doc.to_text().contains("\"kind\": \"List\""));
}

#[test]
fn policy_defaults_are_written_out_on_first_toggle() {
    let mut doc =
        Document::parse("{\n  \"kind\": \"Policy\",\n  \"apiVersion\": \"v1\"\n}\n").unwrap();
    let v = doc.get(policy::find(&doc).unwrap()).unwrap();
    assert!(policy::default_predicates(v));
    policy::apply(
        &mut doc,
        PolicyEdit::Predicate("NoDiskConflict".into(), false),
    )
    .unwrap();
    policy::apply(&mut doc, PolicyEdit::HardWeight(Some(10))).unwrap();
    policy::apply(&mut doc, PolicyEdit::AlwaysCheckAll(true)).unwrap();
    policy::apply(&mut doc, PolicyEdit::AddArgument("labelsPresence")).unwrap();
    let doc = reparse(&doc);
    let v = doc.get(policy::find(&doc).unwrap()).unwrap();
    let preds = policy::enabled_predicates(v);
    assert_eq!(preds.len(), 10);
    assert!(!preds.contains(&"NoDiskConflict".to_string()));
    assert!(policy::default_priorities(v));
    assert_eq!(policy::hard_weight(v), "10");
    assert!(policy::always_check_all(v));
    let args = policy::argument_entries(v);
    assert_eq!(args.len(), 1);
    assert_eq!(args[0].kind, "labelsPresence");
    let mut doc = doc;
    policy::apply(
        &mut doc,
        PolicyEdit::Argument(
            "predicates",
            args[0].index,
            policy::ArgField::Labels,
            "a, b".into(),
        ),
    )
    .unwrap();
    let v = doc.get(policy::find(&doc).unwrap()).unwrap();
    assert_eq!(policy::argument_entries(v)[0].labels, "a, b");
}

#[test]
fn config_fields() {
    let mut doc = Document::parse(CONFIG).unwrap();
    assert!(has_comments(CONFIG));
    config::apply(&mut doc, "percentageOfNodesToScore", "30").unwrap();
    config::apply(&mut doc, "disablePreemption", "true").unwrap();
    config::apply(&mut doc, "podMaxBackoffSeconds", "").unwrap();
    assert!(config::apply(&mut doc, "podInitialBackoffSeconds", "soon").is_err());
    let doc = reparse(&doc);
    let v = doc.get(config::find(&doc).unwrap()).unwrap();
    assert_eq!(v["percentageOfNodesToScore"], 30);
    assert_eq!(v["disablePreemption"], true);
    assert!(v.get("podMaxBackoffSeconds").is_none());
    assert_eq!(v["schedulerName"], "default-scheduler");
}

#[test]
fn parse_errors_are_reported() {
    assert!(Document::parse("items: [").is_err());
    assert!(Document::parse("{\"kind\": ").is_err());
    assert!(Document::parse("- a\n- b\n").is_err());
    assert_eq!(Document::parse("").unwrap().objects().count(), 0);
}

#[test]
fn unique_names() {
    let doc = Document::parse(CLASSIC_PODS).unwrap();
    assert_eq!(doc.unique_name("Pod", "web-1"), "web-3");
    assert_eq!(doc.unique_name("Pod", "cache"), "cache-2");
    assert_eq!(doc.unique_name("Pod", "fresh"), "fresh-2");
}

#[test]
fn syntax_errors_explain() {
    assert!(syntax::parse_labels("novalue").is_err());
    assert!(syntax::parse_spread("zone x DoNotSchedule").is_err());
    assert!(syntax::parse_ports("70000").is_err());
    assert!(syntax::parse_node_terms("zone near (a)").is_err());
    assert_eq!(syntax::parse_labels("a=1, b=2").unwrap().len(), 2);
}

const CONFIG_V1: &str = include_str!("../../../assets/scenarios/config-v1.yaml");

fn v1_rows(doc: &Document) -> Vec<config_v1::PluginRow> {
    let v = doc.get(config::find(doc).unwrap()).unwrap();
    config_v1::plugin_rows(v, 0)
}

fn v1_row(doc: &Document, name: &str) -> config_v1::PluginRow {
    v1_rows(doc)
        .into_iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("{name} missing"))
}

#[test]
fn the_scheduler_of_a_configuration_text() {
    use schedlab_core::scenario::SchedulerVersion::{V1_17, V1_35};
    assert_eq!(config::scheduler_of(CONFIG), V1_17);
    assert_eq!(config::scheduler_of(CONFIG_V1), V1_35);
    assert_eq!(config::scheduler_of(""), V1_17);
    let json =
        r#"{"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration"}"#;
    assert_eq!(config::scheduler_of(json), V1_35);
    // Broken YAML is judged by its apiVersion line.
    let broken = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles: [\n";
    assert_eq!(config::scheduler_of(broken), V1_35);
    let beta =
        "apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n";
    assert_eq!(config::scheduler_of(beta), V1_17);
}

#[test]
fn v1_defaults_list_every_default_plugin_with_its_weight() {
    let doc = Document::parse(CONFIG_V1).unwrap();
    let rows = v1_rows(&doc);
    let names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
    let defaults: Vec<&str> = schedlab_core::scheduler::v1_35::default_plugins()
        .map(|(n, _)| n)
        .collect();
    assert_eq!(names, defaults);
    assert!(rows.iter().all(|r| r.enabled && r.weight.is_empty()));
    let taint = v1_row(&doc, "TaintToleration");
    assert!(taint.scores);
    assert_eq!((taint.default_weight, taint.effective_weight), (3, Some(3)));
    // VolumeBinding has no weight in the default list: 1.
    assert_eq!(v1_row(&doc, "VolumeBinding").effective_weight, Some(1));
    assert!(!v1_row(&doc, "NodePorts").scores);
    assert_eq!(
        v1_row(&doc, "NodeAffinity").points,
        ["PreFilter", "Filter", "PreScore", "Score"]
    );
    let v = doc.get(config::find(&doc).unwrap()).unwrap();
    let profiles = config_v1::profiles(v);
    assert_eq!(profiles.len(), 1);
    assert_eq!(profiles[0].shown_name(1), "default-scheduler");
}

#[test]
fn v1_weights_and_switches_write_multi_point() {
    let mut doc = Document::parse(CONFIG_V1).unwrap();
    let r = config::find(&doc).unwrap();
    let weight = |n: &str, w: Option<i64>| config_v1::V1Edit::Weight(0, n.into(), w);
    let on = |n: &str, b: bool| config_v1::V1Edit::Enabled(0, n.into(), b);
    config_v1::apply(&mut doc, r, weight("NodeAffinity", Some(5))).unwrap();
    config_v1::apply(&mut doc, r, on("ImageLocality", false)).unwrap();
    let doc2 = reparse(&doc);
    let v = doc2.get(config::find(&doc2).unwrap()).unwrap();
    assert_eq!(
        v["profiles"][0]["plugins"]["multiPoint"],
        json!({
            "enabled": [{"name": "NodeAffinity", "weight": 5}],
            "disabled": [{"name": "ImageLocality"}]
        })
    );
    assert_eq!(v["profiles"][0]["schedulerName"], "default-scheduler");
    let affinity = v1_row(&doc2, "NodeAffinity");
    assert_eq!(
        (affinity.weight.as_str(), affinity.effective_weight),
        ("5", Some(5))
    );
    assert!(!v1_row(&doc2, "ImageLocality").enabled);
    // The core's plan keeps NodeAffinity in its place with the new weight.
    let (plans, _) = schedlab_core::scheduler::v1_35::plan(v.clone()).unwrap();
    let score = plans[0].names_at(schedlab_core::scheduler::v1_35::Point::Score);
    assert_eq!(score[1], "NodeAffinity");
    assert!(!score.contains(&"ImageLocality"));

    // Disabling a plugin that has a weight drops its entry (it would come back at the end);
    // enabling and clearing the weights leaves no plugins at all.
    config_v1::apply(&mut doc, r, on("NodeAffinity", false)).unwrap();
    let v = doc.get(r).unwrap();
    assert_eq!(
        v["profiles"][0]["plugins"]["multiPoint"],
        json!({"disabled": [{"name": "ImageLocality"}, {"name": "NodeAffinity"}]})
    );
    config_v1::apply(&mut doc, r, on("NodeAffinity", true)).unwrap();
    config_v1::apply(&mut doc, r, on("ImageLocality", true)).unwrap();
    assert!(doc.get(r).unwrap()["profiles"][0].get("plugins").is_none());
    config_v1::apply(&mut doc, r, weight("TaintToleration", Some(7))).unwrap();
    config_v1::apply(&mut doc, r, weight("TaintToleration", None)).unwrap();
    assert!(doc.get(r).unwrap()["profiles"][0].get("plugins").is_none());
}

#[test]
fn v1_fields_profiles_and_unknown_plugins() {
    let text = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";
    let mut doc = Document::parse(text).unwrap();
    let r = config::find(&doc).unwrap();
    let global = |k, t: &str| config_v1::V1Edit::Global(k, t.into());
    config_v1::apply(&mut doc, r, global("percentageOfNodesToScore", "40")).unwrap();
    assert!(config_v1::apply(&mut doc, r, global("podMaxBackoffSeconds", "soon")).is_err());
    config_v1::apply(
        &mut doc,
        r,
        config_v1::V1Edit::ProfilePercentage(0, "70".into()),
    )
    .unwrap();
    config_v1::apply(
        &mut doc,
        r,
        config_v1::V1Edit::ProfileName(0, "batch".into()),
    )
    .unwrap();
    let v = doc.get(r).unwrap();
    assert_eq!(v["percentageOfNodesToScore"], 40);
    assert_eq!(
        v["profiles"],
        json!([{"schedulerName": "batch", "percentageOfNodesToScore": 70}])
    );
    // An unknown plugin stays visible (the configuration does not build, so the row follows
    // the text), and switching it off removes it.
    let mut v = v.clone();
    v["profiles"][0]["plugins"] = json!({"multiPoint": {"enabled": [{"name": "Foo"}]}});
    let rows = config_v1::plugin_rows(&v, 0);
    let foo = rows.last().unwrap();
    assert_eq!(foo.name, "Foo");
    assert!(foo.points.is_empty() && foo.enabled);
    let mut doc = Document::parse(&serde_yaml_ng::to_string(&v).unwrap()).unwrap();
    let r = config::find(&doc).unwrap();
    config_v1::apply(
        &mut doc,
        r,
        config_v1::V1Edit::Enabled(0, "Foo".into(), false),
    )
    .unwrap();
    assert!(doc.get(r).unwrap()["profiles"][0].get("plugins").is_none());
    assert!(config_v1::has_point_lists(
        &json!({"profiles": [{"plugins": {"score": {"disabled": [{"name": "*"}]}}}]}),
        0
    ));
}

#[test]
fn pod_claims_attach_a_claim_or_a_template() {
    let mut doc = Document::parse(CLASSIC_PODS).unwrap();
    let r = pod_ref(&doc, "web-1");
    pod::apply(
        &mut doc,
        r,
        PodField::Claims,
        "gpus: template two-gpus\nshared: claim team-gpu",
    )
    .unwrap();
    let doc = reparse(&doc);
    let v = doc.get(pod_ref(&doc, "web-1")).unwrap();
    assert_eq!(
        v["spec"]["resourceClaims"],
        json!([
            {"name": "gpus", "resourceClaimTemplateName": "two-gpus"},
            {"name": "shared", "resourceClaimName": "team-gpu"}
        ])
    );
    assert_eq!(
        pod::field_text(v, PodField::Claims),
        "gpus: template two-gpus\nshared: claim team-gpu"
    );
    let mut doc = doc;
    let r = pod_ref(&doc, "web-1");
    let before = doc.clone();
    let err = pod::apply(&mut doc, r, PodField::Claims, "gpus: two-gpus").unwrap_err();
    assert!(err.contains("NAME: claim CLAIM"), "{err}");
    assert_eq!(
        pod::apply(&mut doc, r, PodField::Claims, "a: claim x\na: claim y").unwrap_err(),
        "claim a is listed twice"
    );
    assert_eq!(doc, before, "a refused edit writes nothing");
    // Empty text takes the claims away.
    pod::apply(&mut doc, r, PodField::Claims, "").unwrap();
    assert!(doc.get(r).unwrap()["spec"].get("resourceClaims").is_none());
}
