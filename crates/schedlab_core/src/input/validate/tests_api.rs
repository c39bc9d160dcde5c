// The refusals of kube-apiserver (and its Priority admission plugin) that schedlab used to run
// silently, one table row each. Every expected message was written from upstream's validation
// code (`pkg/apis/core/validation/validation.go`, `pkg/apis/storage/validation`,
// `pkg/apis/policy/validation`, apimachinery's `IsQualifiedName` and object-meta checks,
// `plugin/pkg/admission/priority`), not from a run. Each pod case is also run through a
// timeline's `createPod` and `createPods` template, which must give the same messages under
// the change's path.

use crate::input::{read_sources, Diagnostic, RefusedBy, Source};
use crate::scenario::{Scenario, SchedulerVersion};

use super::tests::{KEY_NAME, LABEL, SUBDOMAIN};

/// Which versions refuse a case.
#[derive(Clone, Copy)]
enum By {
    Both,
    Only(RefusedBy),
}

/// Errors of `text` under `version`, as `path: message`, through a scenario (so that what is
/// checked once the version is known counts too).
fn scenario_errors(text: &str, version: SchedulerVersion) -> Vec<String> {
    let src = Source {
        name: "in.yaml",
        text,
    };
    match Scenario::load_with(&[src], Some(version)) {
        Ok(_) => Vec::new(),
        Err(e) => e
            .iter()
            .map(|d| {
                // The document's place in a multi-document file is left out.
                let path = match d.path.split_once(": ") {
                    Some((doc, rest)) if doc.starts_with("document ") => rest,
                    _ => d.path.as_str(),
                };
                format!("{path}: {}", d.message)
            })
            .collect(),
    }
}

fn check(case: &str, text: &str, by: By, want: &[String]) {
    for (version, refused) in [
        (SchedulerVersion::V1_17, RefusedBy::V1_17),
        (SchedulerVersion::V1_35, RefusedBy::V1_35),
    ] {
        let applies = match by {
            By::Both => true,
            By::Only(v) => v == refused,
        };
        let got = scenario_errors(text, version);
        if applies {
            assert_eq!(got, want, "{case} under {version:?}");
        } else {
            assert_eq!(got, Vec::<String>::new(), "{case} under {version:?}");
        }
    }
}

/// A pod named `p` with this spec (YAML lines indented by two).
fn pod(meta: &str, spec: &str) -> String {
    format!("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n{meta}spec:\n{spec}")
}

/// A pod row: (case, extra metadata lines, spec lines, who refuses, errors).
type PodRow = (&'static str, &'static str, &'static str, By, Vec<String>);

/// Every pod row.
fn pod_rows() -> Vec<PodRow> {
    let mut rows = resource_rows();
    rows.extend(more_pod_rows());
    rows
}

/// The pod rows of resource names and amounts.
fn resource_rows() -> Vec<PodRow> {
    vec![
        (
            "an unqualified extended resource",
            "",
            "  containers: [{name: c, resources: {requests: {foo: 1}}}]\n",
            By::Both,
            vec![
                "spec.containers[0].resources.requests.foo: Invalid value: \"foo\": must be a \
                 standard resource type or fully qualified"
                    .into(),
                "spec.containers[0].resources.requests.foo: Invalid value: \"foo\": must be a \
                 standard resource for containers"
                    .into(),
            ],
        ),
        (
            "pods as a container request",
            "",
            "  containers: [{name: c, resources: {requests: {pods: 1}}}]\n",
            By::Both,
            vec!["spec.containers[0].resources.requests.pods: Invalid value: \"pods\": must be \
                  a standard resource for containers"
                .into()],
        ),
        (
            "a resource name with invalid characters",
            "",
            "  containers: [{name: c, resources: {limits: {'example.com/bad key': 1}}}]\n",
            By::Both,
            vec![
                format!(
                    "spec.containers[0].resources.limits[\"example.com/bad key\"]: Invalid \
                     value: \"example.com/bad key\": {KEY_NAME}"
                ),
                "spec.containers[0].resources.limits[\"example.com/bad key\"]: Invalid value: \
                 \"example.com/bad key\": doesn't follow extended resource name standard"
                    .into(),
            ],
        ),
        (
            "a fractional extended resource",
            "",
            "  containers: [{name: c, resources: {requests: {example.com/gpu: 500m}, limits: {example.com/gpu: 500m}}}]\n",
            By::Both,
            vec![
                "spec.containers[0].resources.limits[\"example.com/gpu\"]: Invalid value: \
                 \"500m\": must be an integer"
                    .into(),
                "spec.containers[0].resources.requests[\"example.com/gpu\"]: Invalid value: \
                 \"500m\": must be an integer"
                    .into(),
            ],
        ),
        (
            "huge pages without cpu or memory",
            "",
            "  containers: [{name: c, resources: {requests: {hugepages-2Mi: 4Mi}, limits: {hugepages-2Mi: 4Mi}}}]\n",
            By::Both,
            vec!["spec.containers[0].resources: Forbidden: HugePages require cpu or memory".into()],
        ),
    ]
}

/// The pod rows of containers, policies, volumes and metadata.
fn more_pod_rows() -> Vec<PodRow> {
    use RefusedBy::V1_35;
    vec![
        (
            "duplicate container names",
            "",
            "  containers: [{name: a}]\n  initContainers: [{name: a}]\n",
            By::Both,
            vec!["spec.initContainers[0].name: Duplicate value: \"a\"".into()],
        ),
        (
            "an invalid container name",
            "",
            "  containers: [{name: Web_1}]\n",
            By::Both,
            vec![format!(
                "spec.containers[0].name: Invalid value: \"Web_1\": {LABEL}"
            )],
        ),
        (
            "hostNetwork with another host port",
            "",
            "  hostNetwork: true\n  containers: [{name: c, ports: [{containerPort: 80, hostPort: 8080}]}]\n",
            By::Both,
            vec!["spec.containers[0].ports[0].hostPort: Invalid value: 8080: must match \
                  `containerPort` when `hostNetwork` is true"
                .into()],
        ),
        (
            "an unknown restartPolicy",
            "",
            "  restartPolicy: Sometimes\n  containers: [{name: c}]\n",
            By::Both,
            vec!["spec.restartPolicy: Unsupported value: \"Sometimes\": supported values: \
                  \"Always\", \"OnFailure\", \"Never\""
                .into()],
        ),
        (
            "an unknown dnsPolicy",
            "",
            "  dnsPolicy: Nearby\n  containers: [{name: c}]\n",
            By::Both,
            vec!["spec.dnsPolicy: Unsupported value: \"Nearby\": supported values: \
                  \"ClusterFirstWithHostNet\", \"ClusterFirst\", \"Default\", \"None\""
                .into()],
        ),
        (
            "a volume with two sources",
            "",
            "  containers: [{name: c}]\n  volumes: [{name: v, emptyDir: {}, hostPath: {path: /x}}]\n",
            By::Both,
            vec!["spec.volumes[0].emptyDir: Forbidden: may not specify more than 1 volume type".into()],
        ),
        (
            "invalid and duplicate scheduling gates",
            "",
            "  containers: [{name: c}]\n  schedulingGates: [{name: 'bad gate!'}, {name: a}, {name: a}]\n",
            By::Only(V1_35),
            vec![
                format!("spec.schedulingGates[0]: Invalid value: \"bad gate!\": {KEY_NAME}"),
                "spec.schedulingGates[2]: Duplicate value: \"a\"".into(),
            ],
        ),
        (
            "scheduling gates on a pod with a node",
            "",
            "  nodeName: n\n  containers: [{name: c}]\n  schedulingGates: [{name: a}]\n",
            By::Only(V1_35),
            vec!["spec.nodeName: Forbidden: cannot be set until all schedulingGates have been \
                  cleared"
                .into()],
        ),
        (
            "invalid matchLabelKeys",
            "",
            "  containers: [{name: c}]\n  affinity:\n    podAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n      - {labelSelector: {}, topologyKey: zone, matchLabelKeys: ['bad key!']}\n",
            By::Only(V1_35),
            vec![format!(
                "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].\
                 matchLabelKeys[0]: Invalid value: \"bad key!\": {KEY_NAME}"
            )],
        ),
        (
            "an invalid annotation key",
            "  annotations: {'bad key!': x}\n",
            "  containers: [{name: c}]\n",
            By::Both,
            vec![format!(
                "metadata.annotations[\"bad key!\"]: Invalid value: \"bad key!\": {KEY_NAME}"
            )],
        ),
        (
            "invalid owner references",
            "  ownerReferences:\n  - {kind: ReplicaSet, name: a, uid: u1, controller: true}\n  - {kind: ReplicaSet, name: b, controller: true}\n",
            "  containers: [{name: c}]\n",
            By::Both,
            vec![
                "metadata.ownerReferences[1].uid: Invalid value: \"\": must not be empty".into(),
                "metadata.ownerReferences[1]: Invalid value: ReplicaSet/b: Only one reference \
                 can have Controller set to true. Found \"true\" in references for ReplicaSet/a \
                 and ReplicaSet/b"
                    .into(),
            ],
        ),
        (
            "a negative maxSkew",
            "",
            "  containers: [{name: c}]\n  topologySpreadConstraints: [{maxSkew: -3, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}]\n",
            By::Both,
            vec!["spec.topologySpreadConstraints[0].maxSkew: Invalid value: -3: must be greater \
                  than zero"
                .into()],
        ),
    ]
}

#[test]
fn pods_the_api_server_refuses() {
    for (case, meta, spec, by, want) in pod_rows() {
        check(case, &pod(meta, spec), by, &want);
    }
}

/// The pod of a row, indented to sit under `key:` at `indent` spaces.
fn indented(meta: &str, spec: &str, indent: usize) -> String {
    let body = format!("metadata:\n  name: p\n{meta}spec:\n{spec}");
    let pad = " ".repeat(indent);
    body.lines().map(|l| format!("{pad}{l}\n")).collect()
}

#[test]
fn timeline_changes_are_checked_alike() {
    for (case, meta, spec, by, want) in pod_rows() {
        let one = format!(
            "apiVersion: v1\nkind: Node\nmetadata: {{name: n}}\n---\n\
             apiVersion: schedlab.io/v1alpha1\nkind: Timeline\nspec:\n  changes:\n  - at: 1\n    createPod:\n{}",
            indented(meta, spec, 6)
        );
        let prefixed =
            |p: &str| -> Vec<String> { want.iter().map(|w| format!("{p}.{w}")).collect() };
        check(case, &one, by, &prefixed("spec.changes[0].createPod"));
        let many = format!(
            "apiVersion: v1\nkind: Node\nmetadata: {{name: n}}\n---\n\
             apiVersion: schedlab.io/v1alpha1\nkind: Timeline\nspec:\n  changes:\n  - at: 1\n    createPods:\n      replicas: 2\n      template:\n{}",
            indented(meta, spec, 8)
        );
        check(
            case,
            &many,
            by,
            &prefixed("spec.changes[0].createPods.template"),
        );
    }
}

fn first_errors(text: &str) -> Vec<String> {
    match read_sources(&[Source {
        name: "in.yaml",
        text,
    }]) {
        Ok(i) => i
            .version_errors
            .iter()
            .map(|(_, d)| format!("{}: {}", d.path, d.message))
            .collect(),
        Err(e) => e
            .iter()
            .map(|d: &Diagnostic| format!("{}: {}", d.path, d.message))
            .collect(),
    }
}

#[test]
fn timeline_changes_the_issue_names() {
    let t = |changes: &str| {
        format!("apiVersion: schedlab.io/v1alpha1\nkind: Timeline\nspec:\n  changes:\n{changes}")
    };
    assert_eq!(
        first_errors(&t(
            "  - at: 1\n    createPod: {metadata: {name: 'NS!/Bad Name'}, spec: {containers: [{name: c}]}}\n"
        )),
        [format!(
            "spec.changes[0].createPod.metadata.name: Invalid value: \"NS!/Bad Name\": {SUBDOMAIN}"
        )]
    );
    assert_eq!(
        first_errors(&t(
            "  - at: 1\n    createPods: {replicas: 2, template: {metadata: {name: w, labels: {'bad key!': x}}}}\n"
        )),
        [
            format!(
                "spec.changes[0].createPods.template.metadata.labels[\"bad key!\"]: Invalid \
                 value: \"bad key!\": {KEY_NAME}"
            ),
            "spec.changes[0].createPods.template.spec.containers: Required value".into(),
        ]
    );
    assert_eq!(
        first_errors(
            "apiVersion: schedlab.io/v1alpha1\nkind: Timeline\nspec:\n  bindFailurePercent: .nan\n"
        ),
        [
            "spec.bindFailurePercent: json: unsupported value: NaN (YAML's .nan and .inf have no \
          JSON form)"
        ]
    );
    assert_eq!(
        first_errors(
            "apiVersion: schedlab.io/v1alpha1\nkind: Timeline\nchanges:\n- {at: 1, cordonNode: n}\n"
        ),
        ["changes: unknown field \"changes\"; did you mean spec.changes? (expected \
          apiVersion, kind, metadata, spec)"]
    );
    // Node changes: the node, its labels and its taints.
    assert_eq!(
        first_errors(&t(
            "  - at: 1\n    addNode: {metadata: {name: n}, spec: {podCIDR: 10.0.0.0/33}, status: {allocatable: {pods: 1.5}}}\n  - at: 2\n    setNodeLabels: {node: n, labels: {'bad key!': x}}\n  - at: 3\n    setNodeTaints: {node: n, taints: [{key: k, effect: Sometimes}]}\n"
        )),
        [
            "spec.changes[0].addNode.spec.podCIDR: Invalid value: \"10.0.0.0/33\": must be a \
             valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"
                .to_string(),
            "spec.changes[0].addNode.status.allocatable.pods: Invalid value: \"1500m\": must be \
             an integer"
                .into(),
            format!(
                "spec.changes[1].setNodeLabels.labels[\"bad key!\"]: Invalid value: \"bad key!\": \
                 {KEY_NAME}"
            ),
            "spec.changes[2].setNodeTaints.taints[0].effect: Unsupported value: \"Sometimes\": \
             supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\""
                .into(),
        ]
    );
}

/// Rows of other kinds: (case, document, who refuses, errors).
fn other_rows() -> Vec<(&'static str, &'static str, By, Vec<String>)> {
    use RefusedBy::{V1_17, V1_35};
    vec![
        (
            "a PersistentVolume without capacity, access modes or a source",
            "kind: PersistentVolume\nmetadata: {name: v}\nspec: {storageClassName: fast}\n",
            By::Both,
            vec![
                "spec.capacity: Required value".into(),
                "spec.accessModes: Required value".into(),
                "spec: Required value: must specify a volume type".into(),
            ],
        ),
        (
            "an unknown reclaim policy",
            "kind: PersistentVolume\nmetadata: {name: v}\nspec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], hostPath: {path: /d}, persistentVolumeReclaimPolicy: Keep}\n",
            By::Both,
            vec!["spec.persistentVolumeReclaimPolicy: Unsupported value: \"Keep\": supported \
                  values: \"Delete\", \"Recycle\", \"Retain\""
                .into()],
        ),
        (
            "an unknown access mode on a claim",
            "kind: PersistentVolumeClaim\nmetadata: {name: c}\nspec: {accessModes: [ReadWriteSometimes]}\n",
            By::Both,
            vec!["spec.accessModes[0]: Unsupported value: \"ReadWriteSometimes\": supported \
                  values: \"ReadOnlyMany\", \"ReadWriteMany\", \"ReadWriteOnce\", \
                  \"ReadWriteOncePod\""
                .into()],
        ),
        (
            "ReadWriteOncePod under v1.17",
            "kind: PersistentVolumeClaim\nmetadata: {name: c}\nspec: {accessModes: [ReadWriteOncePod]}\n",
            By::Only(V1_17),
            vec!["spec.accessModes[0]: Unsupported value: \"ReadWriteOncePod\": supported \
                  values: \"ReadOnlyMany\", \"ReadWriteMany\", \"ReadWriteOnce\""
                .into()],
        ),
        (
            "an unknown volumeMode on a claim",
            "kind: PersistentVolumeClaim\nmetadata: {name: c}\nspec: {volumeMode: Disk}\n",
            By::Both,
            vec!["spec.volumeMode: Unsupported value: \"Disk\": supported values: \"Block\", \
                  \"Filesystem\""
                .into()],
        ),
        (
            "an invalid storage class name on a claim",
            "kind: PersistentVolumeClaim\nmetadata: {name: c}\nspec: {storageClassName: Fast_SSD}\n",
            By::Both,
            vec![format!(
                "spec.storageClassName: Invalid value: \"Fast_SSD\": {SUBDOMAIN}"
            )],
        ),
        (
            "a StorageClass without a provisioner, with an unknown binding mode and an empty \
             topology requirement",
            "kind: StorageClass\nmetadata: {name: s}\nvolumeBindingMode: Later\nallowedTopologies: [{matchLabelExpressions: [{key: zone, values: []}]}]\n",
            By::Both,
            vec![
                "provisioner: Required value".into(),
                "volumeBindingMode: Unsupported value: \"Later\": supported values: \
                 \"Immediate\", \"WaitForFirstConsumer\""
                    .into(),
                "allowedTopologies[0].matchLabelExpressions[0].values: Required value: must \
                 specify as least one value"
                    .into(),
            ],
        ),
        (
            "an unknown unhealthyPodEvictionPolicy",
            "kind: PodDisruptionBudget\nmetadata: {name: b}\nspec: {minAvailable: 1, unhealthyPodEvictionPolicy: Sometimes}\n",
            By::Only(V1_35),
            vec!["spec.unhealthyPodEvictionPolicy: Unsupported value: \"Sometimes\": supported \
                  values: \"AlwaysAllow\", \"IfHealthyBudget\""
                .into()],
        ),
        (
            "a negative disruptionsAllowed",
            "kind: PodDisruptionBudget\nmetadata: {name: b}\nspec: {minAvailable: 1}\nstatus: {disruptionsAllowed: -1}\n",
            By::Both,
            vec!["status.disruptionsAllowed: Invalid value: -1: must be greater than or equal \
                  to 0"
                .into()],
        ),
        (
            "two PriorityClasses with one name",
            "kind: PriorityClass\nmetadata: {name: high}\nvalue: 10\n---\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 20\n",
            By::Both,
            vec!["metadata.name: duplicate PriorityClass \"high\"".into()],
        ),
        (
            "an invalid Service selector",
            "kind: Service\nmetadata: {name: s}\nspec: {selector: {'bad key!': x}}\n",
            By::Both,
            vec![format!(
                "spec.selector[\"bad key!\"]: Invalid value: \"bad key!\": {KEY_NAME}"
            )],
        ),
        (
            "an invalid podCIDR",
            "kind: Node\nmetadata: {name: n}\nspec: {podCIDR: 10.0.0.1}\n",
            By::Both,
            vec!["spec.podCIDR: Invalid value: \"10.0.0.1\": must be a valid CIDR value, (e.g. \
                  10.9.8.0/24 or 2001:db8::/64)"
                .into()],
        ),
        (
            "a fractional pod count on a node",
            "kind: Node\nmetadata: {name: n}\nstatus: {allocatable: {pods: 1.5, example.com/gpu: 0.5}}\n",
            By::Both,
            vec![
                "status.allocatable.pods: Invalid value: \"1500m\": must be an integer".into(),
                "status.allocatable[\"example.com/gpu\"]: Invalid value: \"500m\": must be an \
                 integer"
                    .into(),
            ],
        ),
        (
            "spec.priority that disagrees with its class",
            "kind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n---\nkind: Pod\nmetadata: {name: p}\nspec: {priorityClassName: high, priority: 5, containers: [{name: c}]}\n",
            By::Both,
            vec!["spec.priority: the integer value of priority (5) must not be provided in pod \
                  spec; priority admission controller computed 1000 from the given \
                  PriorityClass name"
                .into()],
        ),
        (
            "a duplicate metadata.uid",
            "kind: Pod\nmetadata: {name: a, uid: u1}\nspec: {containers: [{name: c}]}\n---\nkind: Pod\nmetadata: {name: b, uid: u1}\nspec: {containers: [{name: c}]}\n",
            By::Both,
            vec!["metadata.uid: Duplicate value: \"u1\"".into()],
        ),
    ]
}

#[test]
fn other_kinds_the_api_server_refuses() {
    for (case, text, by, want) in other_rows() {
        for (version, refused) in [
            (SchedulerVersion::V1_17, RefusedBy::V1_17),
            (SchedulerVersion::V1_35, RefusedBy::V1_35),
        ] {
            let applies = match by {
                By::Both => true,
                By::Only(v) => v == refused,
            };
            let got = scenario_errors(text, version);
            let want: Vec<String> = if applies { want.clone() } else { Vec::new() };
            assert_eq!(got, want, "{case} under {version:?}");
        }
    }
}

#[test]
fn fractional_bytes_are_a_warning() {
    let text = pod(
        "",
        "  containers: [{name: c, resources: {requests: {memory: 1.5}}}]\n",
    );
    let s = Scenario::load_with(
        &[Source {
            name: "in.yaml",
            text: &text,
        }],
        Some(SchedulerVersion::V1_35),
    )
    .expect("accepted");
    let w: Vec<String> = s
        .warnings
        .iter()
        .map(|d| format!("{}: {}", d.path, d.message))
        .collect();
    assert_eq!(
        w,
        [
            "spec.containers[0].resources.requests.memory: fractional byte value \"1500m\" is \
          invalid, must be an integer"
        ]
    );
}

#[test]
fn schedlab_kinds_name_an_unknown_field_and_the_nearest_known_one() {
    let e =
        first_errors("apiVersion: schedlab.dev/v1alpha1\nkind: ExtenderMock\nurlPrefx: http://x\n");
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].starts_with("urlPrefx: unknown field `urlPrefx`; did you mean urlPrefix? (expected"),
        "{e:?}"
    );
    let e = first_errors("apiVersion: schedlab.dev/v1alpha1\nkind: ExtenderRecording\ncall: []\n");
    assert!(
        e[0].starts_with("call: unknown field `call`; did you mean calls? (expected"),
        "{e:?}"
    );
}

#[test]
fn yaml_merge_keys_anchors_and_aliases() {
    let text = "apiVersion: v1\nkind: List\nitems:\n\
                - &base\n  apiVersion: v1\n  kind: Node\n  metadata: {name: a, labels: &l {zone: z1}}\n\
                - <<: *base\n  metadata: {name: b, labels: *l}\n\
                - <<: [{metadata: {name: c}}, *base]\n";
    let read = |text: &str| {
        read_sources(&[Source {
            name: "in.yaml",
            text,
        }])
        .unwrap_or_else(|e| panic!("{e:?}"))
    };
    let inputs = read(text);
    let names: Vec<&str> = inputs
        .nodes
        .iter()
        .map(|(n, _)| n.metadata.name.as_str())
        .collect();
    // An explicit key wins over a merged one; the first map of a list over later ones.
    assert_eq!(names, ["a", "b", "c"]);
    assert_eq!(
        inputs.nodes[1]
            .0
            .metadata
            .labels
            .get("zone")
            .map(String::as_str),
        Some("z1")
    );
    let text = "apiVersion: v1\nkind: Pod\nmetadata:\n  <<: {name: from-merge, namespace: ns}\n  name: own\nspec: {containers: [{name: c}]}\n";
    let p = &read(text).pods[0].0;
    assert_eq!(
        (p.metadata.name.as_str(), p.metadata.namespace.as_str()),
        ("own", "ns")
    );
}
