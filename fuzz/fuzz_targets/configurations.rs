//! Fuzzed scheduler configurations beside a fixed cluster: a legacy `Policy`, a v1alpha1
//! `KubeSchedulerConfiguration` and a v1 `KubeSchedulerConfiguration`. Loading, validating,
//! running and (for a Policy v1.17 accepts) translating must never panic, and a translated
//! Policy must load as the v1 configuration it claims to be.
//!
//! The first byte picks the form: the fuzzed text after a fixed `apiVersion`/`kind` header
//! (so the fuzzer explores the body), or the text as it is (any form, JSON included).

#![no_main]

use libfuzzer_sys::fuzz_target;
use schedlab_core::input::{read_source, Source};
use schedlab_core::model::Millis;
use schedlab_core::report::json_report;
use schedlab_core::scheduler as translate;
use schedlab_core::scheduler::v1_17::SchedulerConfiguration;
use schedlab_core::simulation::Limits;
use schedlab_core::Scenario;

/// Three nodes (zones, a taint, a cordon) and pods that reach most filters and scores: a bound
/// low-priority pod, requests, a selector, a toleration, anti-affinity, a spread constraint
/// and a high-priority pod that needs preemption.
const CLUSTER: &str = r#"
apiVersion: v1
kind: List
items:
- kind: Node
  apiVersion: v1
  metadata: {name: n1, labels: {kubernetes.io/hostname: n1, topology.kubernetes.io/zone: a, tier: web}}
  status: {allocatable: {cpu: "2", memory: 4Gi, pods: "4"}}
- kind: Node
  apiVersion: v1
  metadata: {name: n2, labels: {kubernetes.io/hostname: n2, topology.kubernetes.io/zone: b}}
  spec: {taints: [{key: dedicated, value: db, effect: NoSchedule}]}
  status: {allocatable: {cpu: "1", memory: 2Gi, pods: "3"}}
- kind: Node
  apiVersion: v1
  metadata: {name: n3, labels: {kubernetes.io/hostname: n3, topology.kubernetes.io/zone: b}}
  spec: {unschedulable: true}
  status: {allocatable: {cpu: "4", memory: 8Gi, pods: "10"}}
- kind: Pod
  apiVersion: v1
  metadata: {name: low, labels: {app: web}}
  spec:
    nodeName: n1
    priority: 1
    containers: [{name: c, resources: {requests: {cpu: 1500m, memory: 1Gi}}}]
- kind: Pod
  apiVersion: v1
  metadata: {name: web-1, labels: {app: web}}
  spec:
    containers: [{name: c, resources: {requests: {cpu: 300m, memory: 256Mi}}, ports: [{containerPort: 80, hostPort: 8080}]}]
    affinity:
      podAntiAffinity:
        requiredDuringSchedulingIgnoredDuringExecution:
        - labelSelector: {matchLabels: {app: web}}
          topologyKey: kubernetes.io/hostname
    topologySpreadConstraints:
    - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: web}}}
- kind: Pod
  apiVersion: v1
  metadata: {name: db-0, labels: {app: db}}
  spec:
    nodeSelector: {topology.kubernetes.io/zone: b}
    tolerations: [{key: dedicated, operator: Equal, value: db, effect: NoSchedule}]
    containers: [{name: c, resources: {requests: {cpu: 500m, memory: 1Gi}}}]
- kind: Pod
  apiVersion: v1
  metadata: {name: urgent}
  spec:
    priority: 1000
    containers: [{name: c, resources: {requests: {cpu: "1", memory: 1Gi}}}]
"#;

/// The headers put before the fuzzed body, by form.
const HEADERS: [&str; 3] = [
    "apiVersion: v1\nkind: Policy\n",
    "apiVersion: kubescheduler.config.k8s.io/v1alpha1\nkind: KubeSchedulerConfiguration\n",
    "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n",
];

const LIMITS: Limits = Limits {
    until: Some(Millis(3_600_000)),
    max_cycles: Some(100),
};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let body = String::from_utf8_lossy(rest);
    let text = match HEADERS.get(usize::from(mode % 4)) {
        Some(header) => format!("{header}{body}"),
        None => body.into_owned(),
    };
    let config = Source {
        name: "config.yaml",
        text: &text,
    };
    let sources = [
        Source {
            name: "cluster.yaml",
            text: CLUSTER,
        },
        config,
    ];
    if let Ok(scenario) = Scenario::load(&sources) {
        drop(json_report(&scenario.run_with(7, true, LIMITS), true));
    }
    translate_policy(&config);
});

/// A Policy that v1.17 accepts translates to a v1 configuration that loads.
fn translate_policy(config: &Source) {
    let Ok(inputs) = read_source(config) else {
        return;
    };
    let [(policy, _)] = inputs.policies.as_slice() else {
        return;
    };
    if schedlab_core::scheduler::v1_17::build(Some(policy), &SchedulerConfiguration::default())
        .is_err()
    {
        return;
    }
    let t = translate::translate(policy);
    drop(translate::to_json(&t));
    let yaml = translate::to_yaml(&t);
    let sources = [
        Source {
            name: "cluster.yaml",
            text: CLUSTER,
        },
        Source {
            name: "translated.yaml",
            text: &yaml,
        },
    ];
    if let Err(errors) = Scenario::load(&sources) {
        let errors: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        panic!("the translation of an accepted Policy does not load:\n{yaml}\n{errors:#?}");
    }
}
