// Input parsing tests: documents → typed objects, diagnostics naming file, path and line.
//
// Expected values come from `shared/spec/cli-contract.md` ("Objects read, by kind" and the
// quirks list) and the Kubernetes quantity rules; nothing here was copied from a run.

use super::*;

fn src<'a>(name: &'a str, text: &'a str) -> Source<'a> {
    Source { name, text }
}

fn read(files: &[(&str, &str)]) -> Result<Inputs, Vec<Diagnostic>> {
    let sources: Vec<Source> = files.iter().map(|(n, t)| src(n, t)).collect();
    read_sources(&sources)
}

fn ok(files: &[(&str, &str)]) -> Inputs {
    match read(files) {
        Ok(i) => i,
        Err(e) => panic!(
            "expected no errors, got: {:?}",
            e.iter().map(ToString::to_string).collect::<Vec<_>>()
        ),
    }
}

fn errors(files: &[(&str, &str)]) -> Vec<Diagnostic> {
    match read(files) {
        Ok(i) => panic!(
            "expected errors; read {} nodes, {} pods, warnings {:?}",
            i.nodes.len(),
            i.pods.len(),
            i.warnings
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
        ),
        Err(e) => e,
    }
}

fn node_names(i: &Inputs) -> Vec<&str> {
    i.nodes
        .iter()
        .map(|(n, _)| n.metadata.name.as_str())
        .collect()
}

fn pod_names(i: &Inputs) -> Vec<String> {
    i.pods.iter().map(|(p, _)| p.full_name()).collect()
}

/// What a successful read must contain.
#[derive(Default)]
struct Want {
    nodes: &'static [&'static str],
    pods: &'static [&'static str],
    services: usize,
    rcs: usize,
    replica_sets: usize,
    policies: usize,
    configs: usize,
    /// Each must be a substring of some warning.
    warnings: &'static [&'static str],
    /// Exact number of warnings, when it matters.
    warning_count: Option<usize>,
}

struct OkCase {
    name: &'static str,
    files: &'static [(&'static str, &'static str)],
    want: Want,
}

const NODE_A_JSON: &str = r#"{"kind": "Node", "apiVersion": "v1", "metadata": {"name": "a"},
  "status": {"allocatable": {"cpu": "2", "memory": "4Gi", "pods": "110"}}}"#;

/// Reads each case's files and checks them against what the case wants.
fn assert_reads(cases: &[OkCase]) {
    for case in cases {
        let inputs = match read(case.files) {
            Ok(i) => i,
            Err(e) => panic!(
                "{}: unexpected errors {:?}",
                case.name,
                e.iter().map(ToString::to_string).collect::<Vec<_>>()
            ),
        };
        let w = &case.want;
        assert_eq!(node_names(&inputs), w.nodes, "{}: nodes", case.name);
        assert_eq!(pod_names(&inputs), w.pods, "{}: pods", case.name);
        assert_eq!(inputs.services.len(), w.services, "{}: services", case.name);
        assert_eq!(
            inputs.replication_controllers.len(),
            w.rcs,
            "{}: replication controllers",
            case.name
        );
        assert_eq!(
            inputs.replica_sets.len(),
            w.replica_sets,
            "{}: replica sets",
            case.name
        );
        assert_eq!(inputs.policies.len(), w.policies, "{}: policies", case.name);
        assert_eq!(inputs.configs.len(), w.configs, "{}: configs", case.name);
        let warnings: Vec<String> = inputs.warnings.iter().map(ToString::to_string).collect();
        for needle in w.warnings {
            assert!(
                warnings.iter().any(|x| x.contains(needle)),
                "{}: no warning mentions {needle:?}: {warnings:?}",
                case.name
            );
        }
        if let Some(n) = w.warning_count {
            assert_eq!(warnings.len(), n, "{}: warnings {warnings:?}", case.name);
        }
    }
}

/// Files and documents: one object or several YAML documents, JSON or YAML told apart by
/// the content.
#[test]
fn a_file_holds_one_object_or_several_documents_in_json_or_yaml_whatever_its_name() {
    assert_reads(&[
        OkCase {
            name: "single JSON object",
            files: &[("node.json", NODE_A_JSON)],
            want: Want {
                nodes: &["a"],
                warning_count: Some(0),
                ..Want::default()
            },
        },
        OkCase {
            name: "multi-document YAML with a leading --- and a trailing empty document",
            files: &[(
                "multi.yaml",
                "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: m1\n---\napiVersion: v1\nkind: Node\nmetadata:\n  name: m2\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: c\n---\n",
            )],
            want: Want {
                nodes: &["m1", "m2"],
                pods: &["default/web"],
                warning_count: Some(0),
                ..Want::default()
            },
        },
        OkCase {
            name: "multi-document YAML without a leading ---",
            files: &[(
                "multi.yml",
                "kind: Node\napiVersion: v1\nmetadata: {name: a}\n---\nkind: Node\napiVersion: v1\nmetadata: {name: b}\n",
            )],
            want: Want {
                nodes: &["a", "b"],
                ..Want::default()
            },
        },
        OkCase {
            name: "JSON is detected from the content whatever the file name",
            files: &[("policy.cfg", "\n\n   {\"kind\" : \"Policy\", \"apiVersion\" : \"v1\"}")],
            want: Want {
                policies: 1,
                ..Want::default()
            },
        },
        OkCase {
            name: "YAML in a file named .json is read as YAML",
            files: &[("looks.json", "kind: Node\napiVersion: v1\nmetadata:\n  name: yaml-node\n")],
            want: Want {
                nodes: &["yaml-node"],
                ..Want::default()
            },
        },
        OkCase {
            name: "a UTF-8 byte order mark before JSON",
            files: &[("bom.json", "\u{feff}{\"kind\":\"Node\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"bom\"}}")],
            want: Want {
                nodes: &["bom"],
                ..Want::default()
            },
        },
        OkCase {
            name: "several files make one input",
            files: &[
                ("a.json", NODE_A_JSON),
                (
                    "b.yaml",
                    "kind: Pod\napiVersion: v1\nmetadata:\n  name: p\nspec:\n  containers: [{name: c}]\n",
                ),
            ],
            want: Want {
                nodes: &["a"],
                pods: &["default/p"],
                ..Want::default()
            },
        },
    ]);
}

/// Lists: `kind: List` items carry their own kind, `<Kind>List` items take the list's.
#[test]
fn list_items_are_read_one_by_one_and_take_the_lists_kind_when_they_have_none() {
    assert_reads(&[
        OkCase {
            name: "kind: List with kinds on every item",
            files: &[(
                "list.json",
                r#"{"kind": "List", "apiVersion": "v1", "items": [
                    {"kind": "Node", "apiVersion": "v1", "metadata": {"name": "n1"}},
                    {"kind": "Pod", "apiVersion": "v1", "metadata": {"name": "p1", "namespace": "ns"},
                     "spec": {"containers": [{"name": "c"}]}},
                    {"kind": "Node", "apiVersion": "v1", "metadata": {"name": "n2"}}
                ]}"#,
            )],
            want: Want {
                nodes: &["n1", "n2"],
                pods: &["ns/p1"],
                warning_count: Some(0),
                ..Want::default()
            },
        },
        OkCase {
            name: "NodeList items take their kind from the list",
            files: &[(
                "nodes.json",
                r#"{"kind": "NodeList", "apiVersion": "v1", "metadata": {"resourceVersion": "1"},
                   "items": [{"metadata": {"name": "x"}}, {"metadata": {"name": "y"}}]}"#,
            )],
            want: Want {
                nodes: &["x", "y"],
                // Items lack apiVersion too: they take the list's.
                warning_count: Some(0),
                ..Want::default()
            },
        },
        OkCase {
            name: "PodList items take their kind from the list; namespace defaults to default",
            files: &[(
                "pods.yaml",
                "kind: PodList\napiVersion: v1\nitems:\n- metadata:\n    name: p\n  spec:\n    containers:\n    - name: c\n- metadata:\n    name: q\n    namespace: kube-system\n  spec:\n    containers: [{name: c}]\n",
            )],
            want: Want {
                pods: &["default/p", "kube-system/q"],
                // Items lack apiVersion too: they take the list's.
                warning_count: Some(0),
                ..Want::default()
            },
        },
        OkCase {
            name: "ServiceList items take their kind",
            files: &[(
                "svc.json",
                r#"{"kind": "ServiceList", "apiVersion": "v1", "items": [
                    {"metadata": {"name": "s1"}, "spec": {"selector": {"app": "a"}}},
                    {"metadata": {"name": "kubernetes"}, "spec": {}}]}"#,
            )],
            want: Want {
                services: 2,
                // Items lack apiVersion too: they take the list's.
                warning_count: Some(0),
                ..Want::default()
            },
        },
        OkCase {
            name: "an empty kind: List is fine",
            files: &[("empty.json", r#"{"kind": "List", "apiVersion": "v1", "items": []}"#)],
            want: Want {
                warning_count: Some(0),
                ..Want::default()
            },
        },
    ]);
}

/// Fields the model does not read, or that are null, are no reason to fail.
#[test]
fn nulls_managed_fields_and_unknown_fields_do_not_stop_an_object_being_read() {
    assert_reads(&[
        OkCase {
            name: "nulls are absent values",
            files: &[(
                "nulls.json",
                r#"{"kind": "Node", "apiVersion": "v1",
                   "metadata": {"name": "n", "creationTimestamp": null, "labels": null, "annotations": null},
                   "spec": {"taints": null, "unschedulable": null},
                   "status": {"allocatable": null, "capacity": {"cpu": "1"}, "images": null}}"#,
            )],
            want: Want {
                nodes: &["n"],
                warning_count: Some(0),
                ..Want::default()
            },
        },
        OkCase {
            name: "managedFields and unknown fields are ignored",
            files: &[(
                "mf.json",
                r#"{"kind": "Node", "apiVersion": "v1",
                   "metadata": {"name": "mf", "managedFields": [{"manager": "kubelet", "operation": "Update",
                      "fieldsType": "FieldsV1", "fieldsV1": {"f:status": {"f:conditions": {"k:{\"type\":\"Ready\"}": {".": {}}}}}}],
                      "someFutureField": {"x": [1, 2, 3]}},
                   "spec": {"podCIDR": "10.244.1.0/24", "providerID": "azure:///x"},
                   "status": {"allocatable": {"cpu": "1900m"}, "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
                              "conditions": [{"type": "Ready", "status": "True"}]}}"#,
            )],
            want: Want {
                nodes: &["mf"],
                warning_count: Some(0),
                ..Want::default()
            },
        },
    ]);
}

/// What the scheduler does not use, or an unexpected apiVersion, warns and reads on.
#[test]
fn unknown_kinds_and_odd_api_versions_are_warnings_not_errors() {
    assert_reads(&[
        OkCase {
            name: "unknown kinds are skipped with a warning that names them",
            files: &[(
                "misc.yaml",
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  policy.cfg: '{\"kind\":\"Policy\"}'\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n---\nkind: Node\napiVersion: v1\nmetadata:\n  name: kept\n",
            )],
            want: Want {
                nodes: &["kept"],
                policies: 0,
                warnings: &["ConfigMap", "Deployment"],
                warning_count: Some(2),
                ..Want::default()
            },
        },
        OkCase {
            name: "an odd apiVersion gives a warning, not an error",
            files: &[(
                "rs.yaml",
                "apiVersion: extensions/v1beta1\nkind: ReplicaSet\nmetadata:\n  name: frontend\nspec:\n  selector:\n    matchExpressions:\n    - {key: tier, operator: In, values: [frontend]}\n",
            )],
            want: Want {
                replica_sets: 1,
                warnings: &["extensions/v1beta1"],
                warning_count: Some(1),
                ..Want::default()
            },
        },
        OkCase {
            name: "a Node with apiVersion v2 is read with a warning",
            files: &[(
                "n.json",
                r#"{"kind": "Node", "apiVersion": "v2", "metadata": {"name": "v2"}}"#,
            )],
            want: Want {
                nodes: &["v2"],
                warnings: &["v2"],
                warning_count: Some(1),
                ..Want::default()
            },
        },
    ]);
}

/// The kinds around the pods: a workload's selector, the Policy and the v1.17 configuration.
#[test]
fn a_workload_selector_a_policy_and_a_v1alpha1_configuration_are_read() {
    assert_reads(&[
        OkCase {
            name: "a ReplicationController with a plain-map selector",
            files: &[(
                "rc.yaml",
                "apiVersion: v1\nkind: ReplicationController\nmetadata:\n  name: rc\nspec:\n  replicas: 2\n  selector:\n    app: nginx\n",
            )],
            want: Want {
                rcs: 1,
                warning_count: Some(0),
                ..Want::default()
            },
        },
        OkCase {
            name: "a v1alpha1 KubeSchedulerConfiguration and a Policy",
            files: &[
                (
                    "config.yaml",
                    "apiVersion: kubescheduler.config.k8s.io/v1alpha1\nkind: KubeSchedulerConfiguration\nschedulerName: my-scheduler\n",
                ),
                ("policy.json", r#"{"kind": "Policy", "apiVersion": "v1", "predicates": []}"#),
            ],
            want: Want {
                policies: 1,
                configs: 1,
                ..Want::default()
            },
        },
    ]);
}

/// What an error must look like.
struct ErrCase {
    name: &'static str,
    files: &'static [(&'static str, &'static str)],
    /// (file, path, message prefix, line) for each expected error, in order.
    want: &'static [(&'static str, &'static str, &'static str, Option<usize>)],
}

/// Reads each case's files and checks that they fail with exactly the errors the case wants.
fn assert_fails(cases: &[ErrCase]) {
    for case in cases {
        let errs = errors(case.files);
        let shown: Vec<String> = errs.iter().map(ToString::to_string).collect();
        assert_eq!(
            errs.len(),
            case.want.len(),
            "{}: errors {shown:?}",
            case.name
        );
        for (e, (file, path, prefix, line)) in errs.iter().zip(case.want) {
            assert_eq!(e.file, *file, "{}: file of {e}", case.name);
            assert_eq!(e.path, *path, "{}: path of {e}", case.name);
            assert!(
                e.message.starts_with(prefix),
                "{}: message {:?} should start with {prefix:?}",
                case.name,
                e.message
            );
            if line.is_some() {
                assert_eq!(e.line, *line, "{}: line of {e}", case.name);
            }
        }
    }
}

/// Every document and list item needs a kind.
#[test]
fn a_document_or_list_item_without_a_kind_is_an_error_naming_where_it_is() {
    assert_fails(&[
        ErrCase {
            name: "kind: List items without kind are errors naming items[N]",
            files: &[(
                "list.json",
                r#"{"kind": "List", "apiVersion": "v1", "items": [
                    {"kind": "Node", "apiVersion": "v1", "metadata": {"name": "fine"}},
                    {"apiVersion": "v1", "metadata": {"name": "nokind"}}]}"#,
            )],
            want: &[("list.json", "items[1]", "missing kind", None)],
        },
        ErrCase {
            name: "a top-level document without kind names the file",
            files: &[(
                "master-0.json",
                r#"{"metadata": {"name": "master-0"}, "spec": {}, "status": {"capacity": {"cpu": "8"}}}"#,
            )],
            want: &[("master-0.json", "", "missing kind", None)],
        },
        ErrCase {
            name: "a YAML document without kind names the file",
            files: &[("x.yaml", "metadata:\n  name: a\n")],
            want: &[("x.yaml", "", "missing kind", None)],
        },
        ErrCase {
            name: "a foreign JSON format (no kind at the top) is an error, not an empty scenario",
            files: &[(
                "import.json",
                r#"{"pods": [], "nodes": [], "pvs": [], "schedulerConfig": {}}"#,
            )],
            want: &[("import.json", "", "missing kind", None)],
        },
    ]);
}

/// Wrong types and shapes, from a field deep in a list item to the document itself.
#[test]
fn a_value_or_document_of_the_wrong_type_is_an_error_at_its_path() {
    assert_fails(&[
        ErrCase {
            name: "wrong type: a string where a boolean is expected",
            files: &[(
                "n.json",
                r#"{"kind": "Node", "apiVersion": "v1", "metadata": {"name": "n"}, "spec": {"unschedulable": "yes"}}"#,
            )],
            want: &[("n.json", "spec.unschedulable", "invalid type", None)],
        },
        ErrCase {
            name: "wrong type deep inside a list item",
            files: &[(
                "pods.json",
                r#"{"kind": "PodList", "apiVersion": "v1", "items": [
                    {"metadata": {"name": "ok"}, "spec": {"containers": [{"name": "c"}]}},
                    {"metadata": {"name": "bad"}, "spec": {"containers": [{"name": "c",
                        "ports": [{"containerPort": 80, "hostPort": "eighty"}]}]}}]}"#,
            )],
            want: &[(
                "pods.json",
                "items[1].spec.containers[0].ports[0].hostPort",
                "invalid type",
                None,
            )],
        },
        ErrCase {
            name: "labels must be a map",
            files: &[(
                "n.yaml",
                "kind: Node\napiVersion: v1\nmetadata:\n  name: n\n  labels:\n  - a\n  - b\n",
            )],
            want: &[("n.yaml", "metadata.labels", "invalid type", None)],
        },
        ErrCase {
            name: "items must be a list",
            files: &[(
                "l.json",
                r#"{"kind": "List", "apiVersion": "v1", "items": "nope"}"#,
            )],
            want: &[("l.json", "items", "", None)],
        },
        ErrCase {
            name: "a document that is not a map",
            files: &[("s.yaml", "just a string\n")],
            want: &[("s.yaml", "", "", None)],
        },
        ErrCase {
            name: "a JSON array at the top",
            files: &[("a.json", r#"[{"kind": "Node", "metadata": {"name": "n"}}]"#)],
            want: &[("a.json", "", "", None)],
        },
        ErrCase {
            name: "a Policy with a wrong type",
            files: &[(
                "policy.json",
                r#"{"kind": "Policy", "apiVersion": "v1", "priorities": [{"name": "LeastRequestedPriority", "weight": "one"}]}"#,
            )],
            want: &[("policy.json", "priorities[0].weight", "invalid type", None)],
        },
    ]);
}

/// Quantities and integers the fields cannot hold, each reported where it is written.
#[test]
fn bad_quantities_and_out_of_range_numbers_are_errors_at_their_path_every_one_reported() {
    assert_fails(&[
        ErrCase {
            name: "a quantity too large to count names itself as written and the limit",
            files: &[(
                "pods.yaml",
                "kind: Pod\napiVersion: v1\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    resources: {requests: {cpu: \"99999999999999999999\", memory: 1e19}}\n",
            )],
            // cpu counts millicores: 99999999999999999999 cores are 10^23 m > 2^63-1. The map
            // stops at its first error, so memory (10^19 > 2^63-1 bytes) is not reached.
            want: &[(
                "pods.yaml",
                "spec.containers[0].resources.requests.cpu",
                "quantity \"99999999999999999999\" is too large for cpu: at most 9223372036854775807m can be counted",
                None,
            )],
        },
        ErrCase {
            name: "too large a memory quantity, written as a YAML number",
            files: &[(
                "n.yaml",
                "kind: Node\napiVersion: v1\nmetadata: {name: n}\nstatus:\n  allocatable: {memory: 10000000000000000000}\n",
            )],
            want: &[(
                "n.yaml",
                "status.allocatable.memory",
                "quantity \"10000000000000000000\" is too large for memory: at most 9223372036854775807 can be counted",
                None,
            )],
        },
        ErrCase {
            name: "a priority outside int32 says what the field accepts",
            files: &[(
                "pods.yaml",
                "kind: Pod\napiVersion: v1\nmetadata: {name: p}\nspec:\n  priority: 3000000000\n  containers: [{name: c}]\n",
            )],
            want: &[(
                "pods.yaml",
                "spec.priority",
                "invalid value: integer `3000000000`, expected a 32-bit integer (-2147483648 to 2147483647)",
                None,
            )],
        },
        ErrCase {
            name: "every error is reported, not only the first",
            files: &[(
                "pods.json",
                r#"{"kind": "PodList", "apiVersion": "v1", "items": [
                    {"metadata": {"name": "a"}, "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "1q"}}}]}},
                    {"metadata": {"name": "b"}, "spec": {"containers": [{"name": "c", "resources": {"requests": {"memory": "lots"}}}]}}]}"#,
            )],
            want: &[
                (
                    "pods.json",
                    "items[0].spec.containers[0].resources.requests.cpu",
                    "invalid quantity \"1q\"",
                    None,
                ),
                (
                    "pods.json",
                    "items[1].spec.containers[0].resources.requests.memory",
                    "invalid quantity \"lots\"",
                    None,
                ),
            ],
        },
        ErrCase {
            name: "a negative request is rejected at its path",
            files: &[(
                "p.yaml",
                "kind: Pod\napiVersion: v1\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    resources:\n      requests:\n        cpu: -1\n",
            )],
            want: &[(
                "p.yaml",
                "spec.containers[0].resources.requests.cpu",
                "",
                None,
            )],
        },
    ]);
}

/// Syntax errors have no path: their line says where.
#[test]
fn json_and_yaml_syntax_errors_report_their_line() {
    assert_fails(&[
        ErrCase {
            name: "malformed JSON reports its line",
            files: &[(
                "bad.json",
                "{\n  \"kind\": \"Node\",\n  \"metadata\": {\"name\": \"a\",}\n}\n",
            )],
            want: &[("bad.json", "", "invalid JSON", Some(3))],
        },
        ErrCase {
            name: "truncated JSON reports its line",
            files: &[("cut.json", "{\n  \"kind\": \"Node\",\n  \"metadata\": {\n")],
            want: &[("cut.json", "", "invalid JSON", Some(4))],
        },
        ErrCase {
            name: "malformed YAML reports its line",
            files: &[(
                "bad.yaml",
                "kind: Node\napiVersion: v1\nmetadata: name: a\n",
            )],
            want: &[("bad.yaml", "", "invalid YAML", Some(3))],
        },
    ]);
}

/// Objects that read but cannot be used as given.
#[test]
fn a_pod_without_a_name_and_a_configuration_version_v1_35_no_longer_reads_are_errors() {
    assert_fails(&[
        ErrCase {
            name: "a Pod without a name",
            files: &[(
                "p.json",
                r#"{"kind": "Pod", "apiVersion": "v1", "metadata": {}, "spec": {"containers": []}}"#,
            )],
            want: &[("p.json", "metadata.name", "", None)],
        },
        ErrCase {
            name: "a KubeSchedulerConfiguration apiVersion v1.35 no longer reads is an error",
            files: &[(
                "ksc.yaml",
                "apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n",
            )],
            want: &[(
                "ksc.yaml",
                "apiVersion",
                "no kind \"KubeSchedulerConfiguration\" is registered for version \"kubescheduler.config.k8s.io/v1beta3\"",
                Some(1),
            )],
        },
    ]);
}

#[test]
fn invalid_quantity_message_is_exactly_the_contracts() {
    // The contract's own example: `pods.yaml: items[3].spec.containers[0].resources.requests.cpu:
    // invalid quantity "12x"`.
    let text = "kind: PodList\napiVersion: v1\nitems:\n\
        - metadata: {name: p0}\n  spec: {containers: [{name: c}]}\n\
        - metadata: {name: p1}\n  spec: {containers: [{name: c}]}\n\
        - metadata: {name: p2}\n  spec: {containers: [{name: c}]}\n\
        - metadata: {name: p3}\n  spec:\n    containers:\n    - name: c\n      resources:\n        requests:\n          cpu: 12x\n";
    let errs = errors(&[("pods.yaml", text)]);
    let shown: Vec<String> = errs.iter().map(ToString::to_string).collect();
    assert_eq!(
        shown,
        ["pods.yaml: items[3].spec.containers[0].resources.requests.cpu: invalid quantity \"12x\""]
    );
}

#[test]
fn missing_kind_display_names_the_file_first() {
    let errs = errors(&[("node_master0.json", r#"{"metadata": {"name": "m"}}"#)]);
    assert_eq!(errs.len(), 1);
    let shown = errs[0].to_string();
    assert!(
        shown.starts_with("node_master0.json: missing kind"),
        "{shown}"
    );
}

#[test]
fn malformed_input_display_has_the_line() {
    let errs = errors(&[("bad.json", "{\n\n  \"kind\": \"Node\"\n  \"x\": 1\n}")]);
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].line, Some(4));
    let shown = errs[0].to_string();
    assert!(
        shown.starts_with("bad.json: line 4: invalid JSON"),
        "{shown}"
    );
}

#[test]
fn errors_in_a_later_yaml_document_name_that_document() {
    let text = "kind: Node\napiVersion: v1\nmetadata: {name: fine}\n---\nkind: Pod\napiVersion: v1\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    resources: {requests: {memory: 1Zi}}\n";
    let errs = errors(&[("multi.yaml", text)]);
    assert_eq!(errs.len(), 1, "{errs:?}");
    let e = &errs[0];
    assert_eq!(e.file, "multi.yaml");
    assert!(
        e.path
            .ends_with("spec.containers[0].resources.requests.memory"),
        "{}",
        e.path
    );
    assert_ne!(
        e.path, "spec.containers[0].resources.requests.memory",
        "the path should say which document"
    );
    assert_eq!(e.message, "invalid quantity \"1Zi\"");
}

#[test]
fn yaml_and_json_numbers_are_quantities() {
    // opensim's GPU node: `cpu: 64` and `memory: 256000Mi` unquoted.
    let yaml = "apiVersion: v1\nkind: Node\nmetadata:\n  name: pai-node-00\nstatus:\n  allocatable:\n    cpu: 64\n    memory: 256000Mi\n    pods: 110\n    alibabacloud.com/gpu-count: '2'\n    alibabacloud.com/gpu-mem: 32560Mi\n";
    let i = ok(&[("gpu.yaml", yaml)]);
    let r = i.nodes[0].0.allocatable().0;
    assert_eq!(r.milli_cpu, 64_000);
    assert_eq!(r.memory, 256_000 * 1024 * 1024);
    assert_eq!(r.pods, 110);
    assert_eq!(r.scalar("alibabacloud.com/gpu-count"), 2);
    assert_eq!(r.scalar("alibabacloud.com/gpu-mem"), 32_560 * 1024 * 1024);

    // A JSON float: 0.5 cores is 500m; a YAML float likewise.
    let i = ok(&[(
        "p.json",
        r#"{"kind": "Pod", "apiVersion": "v1", "metadata": {"name": "p"},
            "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": 0.5, "memory": 1024}}}]}}"#,
    )]);
    let req = &i.pods[0].0.spec.containers[0].resources.requests.0;
    assert_eq!(req.milli_cpu, 500);
    assert_eq!(req.memory, 1024);
    let i = ok(&[(
        "p.yaml",
        "kind: Pod\napiVersion: v1\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    resources: {requests: {cpu: 1.25, memory: 1e3}}\n",
    )]);
    let req = &i.pods[0].0.spec.containers[0].resources.requests.0;
    assert_eq!(req.milli_cpu, 1250);
    assert_eq!(req.memory, 1000);
}

#[test]
fn quantity_strings_convert_by_resource_name() {
    // cpu in millicores (MilliValue, rounded up), everything else in units (Value, rounded up).
    let json = r#"{"kind": "Node", "apiVersion": "v1", "metadata": {"name": "q"},
        "status": {"allocatable": {"cpu": "3500m", "memory": "14238280Ki",
        "ephemeral-storage": "119716326407", "pods": "250", "hugepages-2Mi": "0",
        "attachable-volumes-gce-pd": "127", "example.com/foo": "1k"}}}"#;
    let i = ok(&[("q.json", json)]);
    let r = i.nodes[0].0.allocatable().0;
    assert_eq!(r.milli_cpu, 3500);
    assert_eq!(r.memory, 14_238_280 * 1024);
    assert_eq!(r.ephemeral_storage, 119_716_326_407);
    assert_eq!(r.pods, 250);
    assert_eq!(r.scalar("hugepages-2Mi"), 0);
    assert_eq!(r.scalar("attachable-volumes-gce-pd"), 127);
    assert_eq!(r.scalar("example.com/foo"), 1000);
}

#[test]
fn allocatable_falls_back_to_capacity() {
    let i = ok(&[(
        "n.json",
        r#"{"kind": "Node", "apiVersion": "v1", "metadata": {"name": "c"},
            "status": {"capacity": {"cpu": "4", "memory": "1Gi", "pods": "10"}}}"#,
    )]);
    let r = i.nodes[0].0.allocatable().0;
    assert_eq!((r.milli_cpu, r.memory, r.pods), (4000, 1 << 30, 10));
    // Allocatable wins when both are given, even when it is larger (open-simulator data).
    let i = ok(&[(
        "n.yaml",
        "kind: Node\napiVersion: v1\nmetadata: {name: big}\nstatus:\n  capacity: {cpu: '4', memory: 8Gi}\n  allocatable: {cpu: '8', memory: 16Gi}\n",
    )]);
    let r = i.nodes[0].0.allocatable().0;
    assert_eq!((r.milli_cpu, r.memory), (8000, 16 << 30));
}

#[test]
fn nulls_inside_specs_are_absent() {
    let i = ok(&[(
        "p.json",
        r#"{"kind": "Pod", "apiVersion": "v1",
            "metadata": {"name": "p", "creationTimestamp": null, "namespace": null},
            "spec": {"nodeName": null, "priority": null, "affinity": null, "tolerations": null,
                     "containers": [{"name": "c", "resources": {"requests": null, "limits": null}, "ports": null}]},
            "status": {}}"#,
    )]);
    let (p, _) = &i.pods[0];
    assert_eq!(p.full_name(), "default/p");
    assert!(p.spec.node_name.is_empty());
    assert_eq!(p.spec.priority, None);
    assert!(p.spec.containers[0].resources.requests.0.is_zero());
}

#[test]
fn list_items_keep_their_own_kind_inside_a_typed_list() {
    // An item that has a kind keeps it, even inside a PodList.
    let i = ok(&[(
        "mixed.json",
        r#"{"kind": "PodList", "apiVersion": "v1", "items": [
            {"kind": "Node", "apiVersion": "v1", "metadata": {"name": "n"}},
            {"metadata": {"name": "p"}, "spec": {"containers": [{"name": "c"}]}}]}"#,
    )]);
    assert_eq!(node_names(&i), ["n"]);
    assert_eq!(pod_names(&i), ["default/p"]);
}

#[test]
fn origins_name_file_and_item() {
    let i = ok(&[(
        "nodes.json",
        r#"{"kind": "NodeList", "apiVersion": "v1", "items": [{"metadata": {"name": "x"}}, {"metadata": {"name": "y"}}]}"#,
    )]);
    assert_eq!(i.nodes[1].1.file, "nodes.json");
    assert_eq!(i.nodes[1].1.path, "items[1]");
}

#[test]
fn huge_numbers_and_absurd_quantities_are_errors_not_panics() {
    for q in [
        "1e400",
        "99999999999999999999999999",
        "9Ei",
        "1e19",
        "\"100E\"",
    ] {
        let text = format!(
            r#"{{"kind": "Node", "apiVersion": "v1", "metadata": {{"name": "n"}}, "status": {{"allocatable": {{"memory": {q}}}}}}}"#
        );
        let r = read(&[("n.json", &text)]);
        if let Err(errs) = r {
            assert!(errs.iter().all(|e| e.file == "n.json"), "{errs:?}");
            assert!(
                errs.iter()
                    .any(|e| e.path.contains("memory") || e.line.is_some()),
                "{q}: {errs:?}"
            );
        }
    }
}

#[test]
fn json_detection_looks_at_the_first_significant_character() {
    assert!(looks_like_json("{}"));
    assert!(looks_like_json("  \n\t[1]"));
    assert!(looks_like_json("\u{feff}{\"a\":1}"));
    assert!(!looks_like_json("kind: Node"));
    assert!(!looks_like_json("---\n{}"));
    assert!(!looks_like_json(""));
}

#[test]
fn flow_style_yaml_is_yaml() {
    // cli-contract.md: "FILE is JSON or YAML (detected from the content)". A YAML flow mapping
    // is YAML (and not JSON): it must be read, not rejected as invalid JSON.
    let i = ok(&[(
        "flow.yaml",
        "{kind: Node, apiVersion: v1, metadata: {name: flow}}\n",
    )]);
    assert_eq!(node_names(&i), ["flow"]);
}

#[test]
fn typed_list_items_take_the_list_api_version() {
    // Raw API lists (`kubectl get --raw /api/v1/pods`) omit both kind and apiVersion on items.
    // SOURCES.md expects the insights PodList to read with "warning at most" for the pods bound
    // to unknown nodes; one warning per item about a missing apiVersion is noise.
    let i = ok(&[(
        "nodes.json",
        r#"{"kind": "NodeList", "apiVersion": "v1", "items": [{"metadata": {"name": "x"}}, {"metadata": {"name": "y"}}]}"#,
    )]);
    assert_eq!(node_names(&i), ["x", "y"]);
    let warnings: Vec<String> = i.warnings.iter().map(ToString::to_string).collect();
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn storage_kinds_are_read_with_located_errors() {
    let text = "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv1, labels: {failure-domain.beta.kubernetes.io/zone: z1}}\n\
        spec:\n  capacity: {storage: 10Gi}\n  accessModes: [ReadWriteOnce]\n  csi: {driver: d, volumeHandle: h}\n\
        ---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c1}\nspec:\n  resources: {requests: {storage: 1500Mi}}\n  storageClassName: \"\"\n\
        ---\napiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: sc}\nprovisioner: p\nvolumeBindingMode: WaitForFirstConsumer\n\
        ---\napiVersion: storage.k8s.io/v1\nkind: CSINode\nmetadata: {name: n1}\nspec: {drivers: [{name: d, allocatable: {count: 4}}]}\n";
    let i = ok(&[("storage.yaml", text)]);
    assert!(i.warnings.is_empty(), "{:?}", i.warnings);
    let pv = &i.persistent_volumes[0].0;
    assert_eq!(pv.capacity(), 10 << 30);
    assert_eq!(pv.spec.csi.as_ref().map(|c| c.driver.as_str()), Some("d"));
    let pvc = &i.persistent_volume_claims[0].0;
    assert_eq!(pvc.request(), 1500 << 20);
    assert_eq!(
        pvc.spec.storage_class_name.as_deref(),
        Some(""),
        "\"\" is set, not absent"
    );
    assert_eq!(
        i.storage_classes[0].0.volume_binding_mode.as_deref(),
        Some("WaitForFirstConsumer")
    );
    assert_eq!(
        i.csi_nodes[0].0.spec.drivers[0]
            .allocatable
            .as_ref()
            .and_then(|a| a.count),
        Some(4)
    );

    let bad = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c1}\nspec:\n  resources: {requests: {storage: 10Gx}}\n";
    let shown: Vec<String> = errors(&[("pvc.yaml", bad)])
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        shown,
        ["pvc.yaml: spec.resources.requests.storage: invalid quantity \"10Gx\""]
    );
    // PodDisruptionBudget is read (preemption); its selector and status are typed.
    let pdb = "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: b}\nspec: {selector: {matchLabels: {app: db}}}\nstatus: {disruptionsAllowed: 0}\n";
    let read = ok(&[("pdb.yaml", pdb)]);
    assert!(read.warnings.is_empty(), "{:?}", read.warnings);
    assert_eq!(read.pod_disruption_budgets.len(), 1);
    let bad = "apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata: {name: b}\nstatus: {disruptionsAllowed: lots}\n";
    let shown: Vec<String> = errors(&[("pdb.yaml", bad)])
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(shown.len(), 1, "{shown:?}");
    assert!(
        shown[0].starts_with("pdb.yaml: status.disruptionsAllowed: invalid type"),
        "{shown:?}"
    );
}

#[test]
fn plain_type_names_replace_whole_rust_type_names_only() {
    use super::plain_type_names;
    assert_eq!(
        plain_type_names("invalid type: string \"x\", expected u16"),
        "invalid type: string \"x\", expected a whole number from 0 to 65535"
    );
    // Not a type name on its own: left as it is.
    assert_eq!(plain_type_names("expected i32s"), "expected i32s");
    assert_eq!(plain_type_names("expected a map"), "expected a map");
}

/// [`flow_shape`] by its definition: one byte at a time (the scanner skips; both must agree).
fn flow_shape_byte_by_byte(text: &str) -> (usize, usize) {
    let (mut depth, mut max, mut items) = (0usize, 0usize, 0usize);
    let mut second = 0u8;
    let (mut in_double, mut in_single, mut escaped) = (false, false, false);
    for b in text.bytes() {
        if in_double {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_double = false,
                _ => {}
            }
            continue;
        }
        if in_single {
            in_single = b != b'\'';
            continue;
        }
        match b {
            b'"' => in_double = true,
            b'\'' => in_single = true,
            b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
                if depth == 2 {
                    second = b;
                } else if depth == 3 && second == b'[' && b == b'{' {
                    items += 1;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    (max, items)
}

#[test]
fn flow_shape_counts_depth_and_list_items_outside_strings() {
    // Worked by hand: depth 3 (list of maps inside the top map), two items.
    assert_eq!(
        flow_shape(r#"{"kind":"List","items":[{"a":"[{"},{"b":'{[\'}]}"#),
        (3, 2)
    );
    assert_eq!(flow_shape(r#"{"items":[{"x":"\"{"}]}"#), (3, 1));
    // Unterminated strings run to the end.
    assert_eq!(flow_shape(r#"[[{"abc"#), (3, 1));
    assert_eq!(flow_shape("[['{"), (2, 0));
    assert_eq!(flow_shape("[\"\\"), (1, 0));
    assert_eq!(flow_shape(""), (0, 0));
}

proptest::proptest! {
    #[test]
    fn flow_shape_agrees_with_reading_byte_by_byte(
        text in proptest::string::string_regex(r#"[\[\]{}"'\\a é:,]{0,60}"#).unwrap()
    ) {
        proptest::prop_assert_eq!(flow_shape(&text), flow_shape_byte_by_byte(&text));
    }
}

proptest::proptest! {
    #[test]
    fn find_either_finds_the_first_of_two_bytes(
        hay in proptest::collection::vec(proptest::sample::select(vec![0u8, 1, b'"', b'\\', b'a', 0x7f, 0x80, 0xff]), 0..40),
        a in proptest::sample::select(vec![b'"', 0u8, 0x80, 0xff]),
        b in proptest::sample::select(vec![b'\\', 1u8, 0x7f]),
    ) {
        let expected = hay.iter().position(|&c| c == a || c == b);
        proptest::prop_assert_eq!(find_either(&hay, a, b), expected);
    }
}
