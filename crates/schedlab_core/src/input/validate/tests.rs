// Validation tests: one per class of rule. Every expected message was written by hand from
// upstream's wording (apimachinery's validation.go and field errors, kube-apiserver's
// pkg/apis/*/validation, the Priority admission plugin, pkg/api/pod/warnings.go); nothing here
// was copied from a run.

use crate::input::{read_sources, Diagnostic, RefusedBy, Source};
use crate::Scenario;

pub(super) const SUBDOMAIN: &str =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric \
    characters, '-' or '.', and must start and end with an alphanumeric character (e.g. \
    'example.com', regex used for validation is \
    '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
pub(super) const LABEL: &str =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric \
    characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  \
    or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
pub(super) const KEY_NAME: &str =
    "name part must consist of alphanumeric characters, '-', '_' or '.', \
    and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or \
    '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const VALUE: &str = "a valid label must be an empty string or consist of alphanumeric \
    characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. \
    'MyValue',  or 'my_value',  or '12345', regex used for validation is \
    '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

fn read(text: &str) -> Result<crate::input::Inputs, Vec<Diagnostic>> {
    read_sources(&[Source {
        name: "in.yaml",
        text,
    }])
}

/// Every error under v1.35, as `path: message` (the file is always `in.yaml`).
fn errors(text: &str) -> Vec<String> {
    errors_in(RefusedBy::V1_35, text)
}

/// Every error under `version`: those of any version, else those of that version only.
fn errors_in(version: RefusedBy, text: &str) -> Vec<String> {
    let shown = |d: &Diagnostic| {
        assert_eq!(d.file, "in.yaml");
        format!("{}: {}", d.path, d.message)
    };
    match read(text) {
        Ok(i) => {
            let only: Vec<String> = (i.version_errors.iter())
                .filter(|(v, _)| *v == version)
                .map(|(_, d)| shown(d))
                .collect();
            assert!(
                !only.is_empty(),
                "expected errors; warnings {:?}",
                i.warnings
            );
            only
        }
        Err(e) => e.iter().map(shown).collect(),
    }
}

/// Every warning of a text that reads without errors.
fn warnings(text: &str) -> Vec<String> {
    match read(text) {
        Ok(i) => i
            .warnings
            .iter()
            .map(|d| format!("{}: {}", d.path, d.message))
            .collect(),
        Err(e) => panic!(
            "expected no errors: {:?}",
            e.iter().map(ToString::to_string).collect::<Vec<_>>()
        ),
    }
}

fn pod(spec: &str) -> String {
    format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec:\n{spec}")
}

const C: &str = "  containers: [{name: c}]\n";

#[test]
fn object_names_are_dns1123_subdomains() {
    for kind in [
        "Node",
        "Pod",
        "PersistentVolume",
        "PersistentVolumeClaim",
        "StorageClass",
        "PriorityClass",
        "PodDisruptionBudget",
    ] {
        let spec = match kind {
            "PersistentVolume" => {
                "{capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], hostPath: {path: /d}}"
            }
            "StorageClass" => "{}\nprovisioner: example.com/disk",
            _ => "{containers: [{name: c}]}",
        };
        let text = format!("kind: {kind}\nmetadata: {{name: Web_1}}\nspec: {spec}\n");
        assert_eq!(
            errors(&text),
            [format!(
                "metadata.name: Invalid value: \"Web_1\": {SUBDOMAIN}"
            )],
            "{kind}"
        );
    }
    // Too long: only the length (254 letters still match the regex).
    let long = "a".repeat(254);
    assert_eq!(
        errors(&format!("kind: Node\nmetadata: {{name: {long}}}\n")),
        [format!(
            "metadata.name: Invalid value: \"{long}\": must be no more than 253 characters"
        )]
    );
    // Control and right-to-left characters are escaped in the message, as Go's %q does.
    assert_eq!(
        errors("{\"kind\": \"Node\", \"metadata\": {\"name\": \"a\\u0000\\u202eb\"}}"),
        [format!(
            "metadata.name: Invalid value: \"a\\x00\\u202eb\": {SUBDOMAIN}"
        )]
    );
    // Names that were already required keep their message; PriorityClass and
    // PodDisruptionBudget now need one too, in upstream's words.
    assert_eq!(
        errors("kind: PriorityClass\nvalue: 1\n"),
        ["metadata.name: Required value: name or generateName is required"]
    );
}

#[test]
fn namespaces_are_dns1123_labels() {
    assert_eq!(
        errors(&format!(
            "kind: Pod\nmetadata: {{name: p, namespace: Team_A}}\nspec:\n{C}"
        )),
        [format!(
            "metadata.namespace: Invalid value: \"Team_A\": {LABEL}"
        )]
    );
    assert_eq!(
        errors("kind: PersistentVolumeClaim\nmetadata: {name: c, namespace: team.a}\n"),
        ["metadata.namespace: Invalid value: \"team.a\": must not contain dots"]
    );
    let long = "n".repeat(64);
    assert_eq!(
        errors(&format!(
            "kind: PodDisruptionBudget\nmetadata: {{name: b, namespace: {long}}}\n"
        )),
        [format!(
            "metadata.namespace: Invalid value: \"{long}\": must be no more than 63 characters"
        )]
    );
}

#[test]
fn label_keys_are_qualified_names_and_values_label_values() {
    let node = |labels: &str| {
        errors(&format!(
            "kind: Node\nmetadata:\n  name: n\n  labels:\n{labels}"
        ))
    };
    assert_eq!(
        node("    app name: x\n"),
        [format!(
            "metadata.labels[\"app name\"]: Invalid value: \"app name\": {KEY_NAME}"
        )]
    );
    assert_eq!(
        node("    Example.com/x: y\n"),
        [format!(
            "metadata.labels[\"Example.com/x\"]: Invalid value: \"Example.com/x\": prefix part {SUBDOMAIN}"
        )]
    );
    assert_eq!(
        node("    /x: y\n"),
        ["metadata.labels[\"/x\"]: Invalid value: \"/x\": prefix part must be non-empty"]
    );
    assert_eq!(
        node("    a/b/c: y\n"),
        [
            "metadata.labels[\"a/b/c\"]: Invalid value: \"a/b/c\": a valid label key must consist \
          of alphanumeric characters, '-', '_' or '.', and must start and end with an \
          alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for \
          validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS \
          subdomain prefix and '/' (e.g. 'example.com/MyName')"
        ]
    );
    let long = "k".repeat(64);
    assert_eq!(
        node(&format!("    example.com/{long}: y\n")),
        [format!(
            "metadata.labels[\"example.com/{long}\"]: Invalid value: \"example.com/{long}\": \
             name part must be no more than 63 characters"
        )]
    );
    let value = "v".repeat(64);
    assert_eq!(
        node(&format!("    tier: {value}\n    zone: -a\n    empty: ''\n")),
        [
            format!(
                "metadata.labels.tier: Invalid value: \"{value}\": must be no more than 63 characters"
            ),
            format!("metadata.labels.zone: Invalid value: \"-a\": {VALUE}"),
        ]
    );
    // Lines are found for bracketed keys too.
    let e = read("kind: Node\nmetadata:\n  name: n\n  labels:\n    ok: x\n    app name: x\n")
        .unwrap_err();
    assert_eq!(e[0].line, Some(6));
}

#[test]
fn taints() {
    let node = |taints: &str| {
        errors(&format!(
            "kind: Node\nmetadata: {{name: n}}\nspec:\n  taints:\n{taints}"
        ))
    };
    assert_eq!(
        node("  - {key: 'a b', value: '-x', effect: NoSchedule}\n"),
        [
            format!("spec.taints[0].key: Invalid value: \"a b\": {KEY_NAME}"),
            format!("spec.taints[0].value: Invalid value: \"-x\": {VALUE}"),
        ]
    );
    assert_eq!(
        node("  - {key: a, effect: ''}\n  - {key: a, effect: Sometimes}\n"),
        [
            "spec.taints[0].effect: Required value",
            "spec.taints[1].effect: Unsupported value: \"Sometimes\": supported values: \
             \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"",
        ]
    );
    assert_eq!(
        node("  - {key: gpu, value: a, effect: NoSchedule}\n  - {key: gpu, effect: NoExecute}\n  - {key: gpu, value: b, effect: NoSchedule}\n"),
        ["spec.taints[2]: Duplicate value: core.Taint{Key:\"gpu\", Value:\"b\", \
          Effect:\"NoSchedule\", TimeAdded:<nil>}: taints must be unique by key and effect pair"]
    );
}

#[test]
fn tolerations() {
    let p = |t: &str| errors(&pod(&format!("{C}  tolerations:\n{t}")));
    assert_eq!(
        p("  - {key: gpu, operator: Exists, value: 'yes'}\n"),
        [
            "spec.tolerations[0].value: Invalid value: \"yes\": value must be empty when \
          `operator` is 'Exists'"
        ]
    );
    assert_eq!(
        p("  - {operator: Equal, value: a}\n"),
        [
            "spec.tolerations[0].operator: Invalid value: \"Equal\": operator must be Exists \
          when `key` is empty, which means \"match all values and all keys\""
        ]
    );
    assert_eq!(
        p("  - {key: a, operator: Gt, value: '1'}\n  - {key: a, effect: Never}\n"),
        [
            "spec.tolerations[0].operator: Unsupported value: \"Gt\": supported values: \
             \"Equal\", \"Exists\"",
            "spec.tolerations[1].effect: Unsupported value: \"Never\": supported values: \
             \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"",
        ]
    );
    assert_eq!(
        p("  - {key: a, operator: Exists, effect: NoSchedule, tolerationSeconds: 30}\n  - {key: 'b', value: 'a b'}\n"),
        [
            "spec.tolerations[0].effect: Invalid value: \"NoSchedule\": effect must be \
             'NoExecute' when `tolerationSeconds` is set"
                .to_string(),
            format!("spec.tolerations[1].value: Invalid value: \"a b\": {VALUE}"),
        ]
    );
    // The usual ones are valid.
    assert_eq!(
        warnings(&pod(&format!(
            "{C}  tolerations:\n  - {{operator: Exists}}\n  - {{key: k, operator: Exists, \
             effect: NoExecute, tolerationSeconds: 300}}\n  - {{key: k, value: v}}\n"
        ))),
        Vec::<String>::new()
    );
}

#[test]
fn containers_and_ports() {
    assert_eq!(
        errors(&pod("  containers: []\n")),
        ["spec.containers: Required value"]
    );
    assert_eq!(
        errors("kind: Pod\nmetadata: {name: p}\n"),
        ["spec.containers: Required value"]
    );
    let ports = errors(&pod(
        "  containers:\n  - name: a\n    ports:\n    - {hostPort: 80}\n    - {containerPort: 70000, hostPort: -1, protocol: HTTP}\n  - name: b\n    ports:\n    - {containerPort: 8080, hostPort: 80, protocol: TCP}\n    - {containerPort: 53, hostPort: 80, protocol: UDP}\n  initContainers:\n  - name: i\n    ports: [{containerPort: 1, hostPort: 80}]\n",
    ));
    assert_eq!(
        ports,
        [
            "spec.containers[0].ports[0].containerPort: Required value",
            "spec.containers[0].ports[1].containerPort: Invalid value: 70000: must be between \
             1 and 65535, inclusive",
            "spec.containers[0].ports[1].hostPort: Invalid value: -1: must be between 1 and \
             65535, inclusive",
            "spec.containers[0].ports[1].protocol: Unsupported value: \"HTTP\": supported \
             values: \"SCTP\", \"TCP\", \"UDP\"",
            // 80/TCP again in the same list (a protocol left out is TCP); UDP is another
            // port; init containers are a list of their own.
            "spec.containers[1].ports[0].hostPort: Duplicate value: \"TCP//80\"",
        ]
    );
}

#[test]
fn requests_and_limits() {
    let res = |r: &str| {
        errors(&pod(&format!(
            "  containers:\n  - name: c\n    resources: {r}\n"
        )))
    };
    assert_eq!(
        res("{requests: {cpu: '2', memory: 1Gi}, limits: {cpu: 1500m, memory: 512Mi}}"),
        [
            "spec.containers[0].resources.requests.cpu: Invalid value: \"2\": must be less \
             than or equal to cpu limit of 1500m",
            "spec.containers[0].resources.requests.memory: Invalid value: \"1Gi\": must be \
             less than or equal to memory limit of 512Mi",
        ]
    );
    assert_eq!(
        res("{requests: {example.com/gpu: 1, hugepages-2Mi: 4Mi, cpu: 1}, limits: {example.com/gpu: 2}}"),
        [
            "spec.containers[0].resources.requests[\"example.com/gpu\"]: Invalid value: \"1\": \
          must be equal to example.com/gpu limit of 2"
        ]
    );
    // An extended resource or huge pages without a limit: a warning.
    assert_eq!(
        warnings(&pod(
            "  containers:\n  - name: c\n    resources: {requests: {hugepages-2Mi: 4Mi, memory: 1Gi}}\n"
        )),
        ["spec.containers[0].resources.limits: Required value: Limit must be set for non \
          overcommitable resources (kube-apiserver refuses the pod; schedlab uses the request)"]
    );
    // Equal, or below the limit, or without a limit: valid. 1G is decimal.
    assert_eq!(
        warnings(&pod(
            "  containers:\n  - name: c\n    resources: {requests: {cpu: 500m, memory: 1G, \
             example.com/gpu: 1}, limits: {cpu: '1', example.com/gpu: 1}}\n"
        )),
        Vec::<String>::new()
    );
    assert_eq!(
        errors(&pod(
            "  containers: [{name: c}]\n  resources: {requests: {memory: 1G}, limits: {memory: 999M}}\n"
        )),
        ["spec.resources.requests.memory: Invalid value: \"1G\": must be less than or equal \
          to memory limit of 999M"]
    );
    // Negative amounts were refused while reading, before validation.
    assert_eq!(
        res("{requests: {cpu: -1}}"),
        [
            "spec.containers[0].resources.requests.cpu: negative quantity for cpu: must be \
          greater than or equal to 0"
        ]
    );
}

#[test]
fn pod_names_it_points_to() {
    assert_eq!(
        errors(&pod(&format!(
            "{C}  nodeName: Node-1\n  priorityClassName: High\n  schedulerName: my_scheduler\n  preemptionPolicy: Sometimes\n"
        ))),
        [
            format!("spec.nodeName: Invalid value: \"Node-1\": {SUBDOMAIN}"),
            format!("spec.priorityClassName: Invalid value: \"High\": {SUBDOMAIN}"),
            format!("spec.schedulerName: Invalid value: \"my_scheduler\": {SUBDOMAIN}"),
            "spec.preemptionPolicy: Unsupported value: \"Sometimes\": supported values: \
             \"Never\", \"PreemptLowerPriority\""
                .to_string(),
        ]
    );
    assert_eq!(
        errors(&pod(&format!("{C}  nodeSelector: {{'disk type': ssd}}\n"))),
        [format!(
            "spec.nodeSelector[\"disk type\"]: Invalid value: \"disk type\": {KEY_NAME}"
        )]
    );
}

#[test]
fn priority_classes() {
    let pc = |body: &str| format!("apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n{body}");
    assert_eq!(
        errors(&pc("metadata: {name: urgent}\nvalue: 1000000001\n")),
        ["value: Forbidden: maximum allowed value of a user defined priority is 1000000000"]
    );
    assert_eq!(
        errors(&pc("metadata: {name: system-urgent}\nvalue: 5\n")),
        [
            "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved \
          for system use only. error: system-urgent is not a known system priority class"
        ]
    );
    assert_eq!(
        errors(&pc(
            "metadata: {name: system-node-critical}\nvalue: 2000000000\n"
        )),
        [
            "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved \
          for system use only. error: value of system-node-critical PriorityClass must be \
          2000001000"
        ]
    );
    assert_eq!(
        errors(&pc(
            "metadata: {name: system-cluster-critical}\nvalue: 2000000000\nglobalDefault: true\n"
        )),
        [
            "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved \
          for system use only. error: globalDefault of system-cluster-critical PriorityClass \
          must be false"
        ]
    );
    assert_eq!(
        errors(&pc(
            "metadata: {name: a}\nvalue: 1\npreemptionPolicy: Always\n"
        )),
        [
            "preemptionPolicy: Unsupported value: \"Always\": supported values: \"Never\", \
          \"PreemptLowerPriority\""
        ]
    );
    // The system classes as a cluster holds them, and the highest user value, are valid.
    assert_eq!(
        warnings(&pc(
            "metadata: {name: system-node-critical}\nvalue: 2000001000\n---\nkind: PriorityClass\nmetadata: {name: top}\nvalue: 1000000000\n"
        )),
        Vec::<String>::new()
    );
}

#[test]
fn two_global_default_priority_classes_are_a_warning() {
    let a = "kind: PriorityClass\nmetadata: {name: low}\nvalue: 10\nglobalDefault: true\n";
    let b = "kind: PriorityClass\nmetadata: {name: high}\nvalue: 20\nglobalDefault: true\n";
    let s = Scenario::load(&[
        Source {
            name: "a.yaml",
            text: a,
        },
        Source {
            name: "b.yaml",
            text: b,
        },
    ])
    .expect("loads");
    let w: Vec<String> = s.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(
        w,
        [
            "b.yaml: globalDefault: PriorityClass low is already marked as default. Only one \
          default can exist (schedlab gives pods without a class the value of the first, \
          \"low\": 10)"
        ]
    );
    assert_eq!(s.warnings[0].line, Some(4));
}

#[test]
fn pod_disruption_budgets() {
    let pdb = |spec: &str| {
        errors(&format!(
            "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {{name: b}}\nspec: {spec}\n"
        ))
    };
    assert_eq!(
        pdb("{minAvailable: 1, maxUnavailable: '10%'}"),
        [
            "spec: Invalid value: {minAvailable: 1, maxUnavailable: \"10%\"}: minAvailable and \
          maxUnavailable cannot be both set"
        ]
    );
    assert_eq!(
        pdb("{minAvailable: 150%}"),
        ["spec.minAvailable: Invalid value: \"150%\": must not be greater than 100%"]
    );
    assert_eq!(
        pdb("{maxUnavailable: -1}"),
        ["spec.maxUnavailable: Invalid value: -1: must be greater than or equal to 0"]
    );
    let percent = "a valid percent string must be a numeric string followed by an ending '%' \
        (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";
    assert_eq!(
        pdb("{maxUnavailable: '-10%'}"),
        [format!(
            "spec.maxUnavailable: Invalid value: \"-10%\": {percent}"
        )]
    );
    assert_eq!(
        pdb("{minAvailable: half}"),
        [format!(
            "spec.minAvailable: Invalid value: \"half\": {percent}"
        )]
    );
    assert_eq!(
        pdb("{selector: {matchExpressions: [{key: app, operator: In}]}}"),
        [
            "spec.selector.matchExpressions[0].values: Required value: must be specified when \
          `operator` is 'In' or 'NotIn'"
        ]
    );
    // Not a number nor a string: refused while reading.
    assert_eq!(
        pdb("{minAvailable: 1.5}"),
        [
            "spec.minAvailable: invalid type: floating point `1.5`, expected a 32-bit integer or \
          a string such as \"25%\""
        ]
    );
}

#[test]
fn topology_spread_constraints() {
    let e = errors(&pod(&format!(
        "{C}  topologySpreadConstraints:\n  - {{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}}\n  - {{maxSkew: 1, topologyKey: '', whenUnsatisfiable: Never}}\n  - {{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}}\n"
    )));
    assert_eq!(
        e,
        [
            "spec.topologySpreadConstraints[0]: Duplicate value: \"{zone, DoNotSchedule}\"",
            "spec.topologySpreadConstraints[1].topologyKey: Required value: can not be empty",
            "spec.topologySpreadConstraints[1].whenUnsatisfiable: Unsupported value: \"Never\": \
             supported values: \"DoNotSchedule\", \"ScheduleAnyway\"",
        ]
    );
    // Fields v1.17 does not know: errors under v1.35 only.
    let text = pod(&format!(
        "{C}  topologySpreadConstraints:\n  - {{maxSkew: 1, topologyKey: host, whenUnsatisfiable: ScheduleAnyway, minDomains: 0, nodeTaintsPolicy: Always, matchLabelKeys: ['bad key!']}}\n"
    ));
    assert_eq!(
        errors(&text),
        [
            "spec.topologySpreadConstraints[0].minDomains: Invalid value: 0: must be greater than zero",
            "spec.topologySpreadConstraints[0].minDomains: Invalid value: 0: can only use \
             minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway",
            "spec.topologySpreadConstraints[0].nodeTaintsPolicy: Unsupported value: \"Always\": \
             supported values: \"Honor\", \"Ignore\"",
            "spec.topologySpreadConstraints[0].matchLabelKeys: Forbidden: must not be specified \
             when labelSelector is not set",
        ]
    );
    let inputs = read(&text).expect("no error of every version");
    assert!(inputs
        .version_errors
        .iter()
        .all(|(v, _)| *v == RefusedBy::V1_35));
}

#[test]
fn a_spread_constraint_without_skew_is_an_error() {
    for skew in [0, -3] {
        assert_eq!(
            errors(&pod(&format!(
                "{C}  topologySpreadConstraints:\n  - {{maxSkew: {skew}, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}}\n"
            ))),
            [format!(
                "spec.topologySpreadConstraints[0].maxSkew: Invalid value: {skew}: must be \
                 greater than zero"
            )]
        );
    }
}

#[test]
fn affinity_terms_and_selectors() {
    let e = errors(&pod(&format!(
        "{C}  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchExpressions:
          - {{key: gen, operator: Gt, values: ['1', '2']}}
          - {{key: zone, operator: Exists, values: [a]}}
          - {{key: zone, operator: Near, values: [a]}}
          matchFields:
          - {{key: metadata.uid, operator: In, values: [a, b]}}
      preferredDuringSchedulingIgnoredDuringExecution:
      - {{weight: 0, preference: {{matchExpressions: [{{key: zone, operator: In}}]}}}}
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - {{labelSelector: {{matchExpressions: [{{key: app, operator: DoesNotExist, values: [x]}}, {{key: app, operator: Like}}]}}, topologyKey: '', namespaces: [Team]}}
      preferredDuringSchedulingIgnoredDuringExecution:
      - {{weight: 101, podAffinityTerm: {{labelSelector: {{matchLabels: {{app: 'a b'}}}}, topologyKey: 'kubernetes.io/host name'}}}}
"
    )));
    let req = "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]";
    let pref = "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]";
    let anti = "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]";
    let soft = "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]";
    assert_eq!(
        e,
        [
            format!("{req}.matchExpressions[0].values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'"),
            format!("{req}.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
            format!("{req}.matchExpressions[2].operator: Invalid value: \"Near\": not a valid selector operator"),
            format!("{req}.matchFields[0].values: Required value: must be only one value when `operator` is 'In' or 'NotIn' for node field selector"),
            format!("{req}.matchFields[0].key: Invalid value: \"metadata.uid\": not a valid field selector key"),
            format!("{pref}.weight: Invalid value: 0: must be in the range 1-100"),
            format!("{pref}.preference.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"),
            format!("{anti}.labelSelector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
            format!("{anti}.labelSelector.matchExpressions[1].operator: Invalid value: \"Like\": not a valid selector operator"),
            format!("{anti}.namespaces[0]: Invalid value: \"Team\": {LABEL}"),
            format!("{anti}.topologyKey: Required value: can not be empty"),
            format!("{soft}.weight: Invalid value: 101: must be in the range 1-100"),
            format!("{soft}.podAffinityTerm.labelSelector.matchLabels.app: Invalid value: \"a b\": {VALUE}"),
            format!("{soft}.podAffinityTerm.topologyKey: Invalid value: \"kubernetes.io/host name\": {KEY_NAME}"),
        ]
    );
    assert_eq!(
        errors(&pod(&format!(
            "{C}  affinity: {{nodeAffinity: {{requiredDuringSchedulingIgnoredDuringExecution: {{nodeSelectorTerms: []}}}}}}\n"
        ))),
        ["spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term"]
    );
}

#[test]
fn volumes() {
    assert_eq!(
        errors(&pod(&format!(
            "{C}  volumes:\n  - {{name: data, emptyDir: {{}}}}\n  - {{name: data}}\n  - {{name: Cache, configMap: {{name: x}}}}\n  - {{emptyDir: {{}}}}\n"
        ))),
        [
            "spec.volumes[1]: Required value: must specify a volume type".to_string(),
            "spec.volumes[1].name: Duplicate value: \"data\"".to_string(),
            format!("spec.volumes[2].name: Invalid value: \"Cache\": {LABEL}"),
            "spec.volumes[3].name: Required value".to_string(),
        ]
    );
}

#[test]
fn a_negative_grace_period_is_a_warning() {
    assert_eq!(
        warnings(&pod(&format!("{C}  terminationGracePeriodSeconds: -1\n"))),
        [
            "spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and \
          will be treated as 1 (schedlab treats them as 0)"
        ]
    );
}

#[test]
fn duplicate_keys_name_their_path_and_line() {
    let e = read("kind: Node\nmetadata:\n  name: n\nkind: Pod\n").unwrap_err();
    assert_eq!(
        (e[0].path.as_str(), e[0].message.as_str(), e[0].line),
        ("kind", "duplicate field \"kind\"", Some(4))
    );
    let json = "{\"kind\": \"List\", \"items\": [\n {\"kind\": \"Node\", \"metadata\": {\"name\": \"a\"}},\n {\"kind\": \"Node\", \"metadata\": {\"name\": \"b\",\n   \"labels\": {\"app name\": \"x\",\n              \"app name\": \"y\"}}}]}";
    let e = read(json).unwrap_err();
    assert_eq!(
        (e[0].path.as_str(), e[0].message.as_str(), e[0].line),
        (
            "items[1].metadata.labels[\"app name\"]",
            "duplicate field \"app name\"",
            Some(5)
        )
    );
    assert_eq!(
        e[0].to_string(),
        "in.yaml: items[1].metadata.labels[\"app name\"]: duplicate field \"app name\""
    );
    // A later document is named; a flow-style document is YAML.
    let e = read("kind: Node\nmetadata: {name: a}\n---\nkind: Pod\nspec:\n  containers:\n  - name: c\n    image: a\n    image: b\n").unwrap_err();
    assert_eq!(
        (e[0].path.as_str(), e[0].line),
        ("document 2: spec.containers[0].image", Some(9))
    );
    let e = read("{kind: Node, metadata: {name: a, name: b}}").unwrap_err();
    assert_eq!(e[0].path, "metadata.name");
    assert_eq!(e.len(), 1);
    // Kinds schedlab skips are refused too: the document is not one object.
    let e = read("kind: ConfigMap\ndata: {a: '1', a: '2'}\n").unwrap_err();
    assert_eq!(e[0].path, "data.a");
}

#[test]
fn errors_of_one_object_are_bounded() {
    let mut text = String::from("kind: Node\nmetadata:\n  name: n\n  labels:\n");
    for i in 0..10_000 {
        text.push_str(&format!("    'bad key {i}': x\n"));
    }
    let e = read(&text).unwrap_err();
    assert_eq!(e.len(), super::MAX_PER_OBJECT + 1);
    assert_eq!(
        (e[100].path.as_str(), e[100].message.as_str()),
        ("", "more errors in this object are not shown (at most 100)")
    );
}

#[test]
fn real_world_inputs_meet_every_rule() {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/realworld/inputs"
    );
    let Ok(entries) = std::fs::read_dir(dir) else {
        return; // shared/ is beside the clone; without it there is nothing to check.
    };
    const FROM_VALIDATION: [&str; 6] = [
        "Invalid value",
        "Required value",
        "Unsupported value",
        "Duplicate value",
        "Forbidden",
        "duplicate field",
    ];
    for e in entries {
        let path = e.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("text");
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let diags = match read_sources(&[Source { name, text: &text }]) {
            Ok(i) => i.warnings,
            Err(e) => e,
        };
        for d in diags {
            assert!(
                !FROM_VALIDATION.iter().any(|m| d.message.starts_with(m)),
                "{d}"
            );
        }
    }
}
