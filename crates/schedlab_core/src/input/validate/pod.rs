//! `ValidatePodSpec`: containers (names, ports, resource names, quantities and requirements),
//! restart and DNS policies, host network ports, node and scheduler names, affinity,
//! tolerations, topology spread constraints, volumes, the grace period. Fields only v1.35
//! knows are in `versioned`.

use super::facts::{Amounts, ContainerFacts, PodSpecFacts};
use super::{labels, preemption_policy, quoted, selector, taint_effect, Check};
use crate::model::field::{FieldError, Value};
use crate::model::names::{dns1123_label, dns1123_subdomain, label_value, qualified_name};
use crate::model::pod::{
    Container, PodAffinity, PodAffinityTerm, PodSpec, ResourceRequirements,
    TopologySpreadConstraint,
};
use crate::model::resources::{is_extended_resource, Resources, CPU, EPHEMERAL_STORAGE, MEMORY};
use crate::model::Toleration;
use std::collections::{HashMap, HashSet};

const PROTOCOLS: [&str; 3] = ["SCTP", "TCP", "UDP"];
const WHEN_UNSATISFIABLE: [&str; 2] = ["DoNotSchedule", "ScheduleAnyway"];
const PORT_RANGE: &str = "must be between 1 and 65535, inclusive";
const WEIGHT_RANGE: &str = "must be in the range 1-100";
const NOT_POSITIVE: &str = "must be greater than zero";

const RESTART_POLICIES: [&str; 3] = ["Always", "OnFailure", "Never"];
const DNS_POLICIES: [&str; 4] = ["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"];
/// The sources of a pod volume, in the order `validateVolumeSource` looks at them.
const VOLUME_SOURCES: [&str; 30] = [
    "hostPath",
    "emptyDir",
    "gitRepo",
    "gcePersistentDisk",
    "awsElasticBlockStore",
    "secret",
    "nfs",
    "iscsi",
    "glusterfs",
    "flocker",
    "persistentVolumeClaim",
    "rbd",
    "quobyte",
    "cinder",
    "cephfs",
    "flexVolume",
    "downwardAPI",
    "fc",
    "azureFile",
    "configMap",
    "vsphereVolume",
    "azureDisk",
    "photonPersistentDisk",
    "projected",
    "portworxVolume",
    "scaleIO",
    "storageos",
    "csi",
    "ephemeral",
    "image",
];

/// The pod spec (see the module documentation).
pub(super) fn spec(c: &mut Check, s: &PodSpec, facts: &PodSpecFacts) {
    volumes(c, s, facts);
    if s.containers.is_empty() {
        c.error(FieldError::required("spec.containers", ""));
    }
    container_names(c, s);
    containers(c, &s.containers, "spec.containers");
    containers(c, &s.init_containers, "spec.initContainers");
    container_amounts(c, &facts.containers, "spec.containers");
    container_amounts(c, &facts.init_containers, "spec.initContainers");
    if facts.host_network {
        host_network_ports(c, &s.containers);
    }
    policies(c, facts);
    if let Some(r) = &s.resources {
        resources(c, r, "spec.resources");
    }
    if let Some(r) = &facts.resources {
        for (list, which) in [(&r.requests, "requests"), (&r.limits, "limits")] {
            integer_amounts(c, list, &format!("spec.resources.{which}"));
        }
    }
    if s.termination_grace_period_seconds.is_some_and(|g| g < 0) {
        c.warn(FieldError::plain(
            "spec.terminationGracePeriodSeconds",
            "must be >= 0; negative values are invalid and will be treated as 1 \
             (schedlab treats them as 0)",
        ));
    }
    if !s.node_selector.is_empty() {
        labels(c, &s.node_selector, "spec.nodeSelector");
    }
    if !s.node_name.is_empty() {
        c.invalid_each(dns1123_subdomain(&s.node_name), &s.node_name, || {
            "spec.nodeName".into()
        });
    }
    if !s.priority_class_name.is_empty() {
        let name = &s.priority_class_name;
        c.invalid_each(dns1123_subdomain(name), name, || {
            "spec.priorityClassName".into()
        });
    }
    if !s.scheduler_name.is_empty() {
        let name = &s.scheduler_name;
        c.invalid_each(dns1123_subdomain(name), name, || {
            "spec.schedulerName".into()
        });
    }
    preemption_policy(c, s.preemption_policy.as_deref(), "spec.preemptionPolicy");
    affinity(c, s);
    tolerations(c, &s.tolerations);
    spread_constraints(c, &s.topology_spread_constraints);
}

/// `ValidateVolumes`: one source, a name that is a DNS-1123 label, no name twice.
fn volumes(c: &mut Check, s: &PodSpec, facts: &PodSpecFacts) {
    let mut seen: HashSet<&str> = HashSet::new();
    for (i, v) in s.volumes.iter().enumerate() {
        if let Some(keys) = facts.volumes.get(i) {
            let mut sources = VOLUME_SOURCES
                .iter()
                .filter(|k| keys.0.iter().any(|g| g == **k));
            if sources.next().is_none() {
                c.error(FieldError::required(
                    format!("spec.volumes[{i}]"),
                    "must specify a volume type",
                ));
            }
            for extra in sources {
                c.error(FieldError::forbidden(
                    format!("spec.volumes[{i}].{extra}"),
                    "may not specify more than 1 volume type",
                ));
            }
        }
        let at = || format!("spec.volumes[{i}].name");
        if v.name.is_empty() {
            c.error(FieldError::required(at(), ""));
        } else {
            c.invalid_each(dns1123_label(&v.name), &v.name, at);
        }
        if !seen.insert(v.name.as_str()) {
            c.error(FieldError::duplicate(at(), quoted(&v.name)));
        }
    }
}

/// Container names (`validateContainers`, `validateInitContainers`): DNS-1123 labels, none
/// twice across containers and init containers. An empty name is not checked (see
/// `docs/fidelity.md`).
fn container_names(c: &mut Check, s: &PodSpec) {
    let mut seen: HashSet<&str> = HashSet::new();
    let lists = [
        (&s.containers, "spec.containers"),
        (&s.init_containers, "spec.initContainers"),
    ];
    for (list, at) in lists {
        for (i, ctr) in list.iter().enumerate() {
            let name = ctr.name.as_str();
            if name.is_empty() {
                continue;
            }
            let path = || format!("{at}[{i}].name");
            c.invalid_each(dns1123_label(name), name, path);
            if !seen.insert(name) {
                c.error(FieldError::duplicate(path(), quoted(name)));
            }
        }
    }
}

/// `validateRestartPolicy` and `validateDNSPolicy` (an empty value is defaulted first).
fn policies(c: &mut Check, facts: &PodSpecFacts) {
    let checks = [
        (
            &facts.restart_policy,
            "spec.restartPolicy",
            &RESTART_POLICIES[..],
        ),
        (&facts.dns_policy, "spec.dnsPolicy", &DNS_POLICIES[..]),
    ];
    for (value, path, supported) in checks {
        if let Some(v) = value.as_deref().filter(|v| !v.is_empty()) {
            if !supported.contains(&v) {
                c.error(FieldError::not_supported(path, quoted(v), supported));
            }
        }
    }
}

/// `validateHostNetwork`: with `hostNetwork`, a host port given is the container port.
fn host_network_ports(c: &mut Check, list: &[Container]) {
    for (i, ctr) in list.iter().enumerate() {
        for (j, port) in ctr.ports.iter().enumerate() {
            if port.host_port != 0 && port.host_port != port.container_port {
                c.error(FieldError::invalid(
                    format!("spec.containers[{i}].ports[{j}].hostPort"),
                    Value::Int(i64::from(port.host_port)),
                    "must match `containerPort` when `hostNetwork` is true",
                ));
            }
        }
    }
}

/// Each container's resource names (`validateContainerResourceName`), whole amounts where
/// they must be (`ValidateResourceQuantityValue`), fractional bytes (a warning, as
/// `pkg/api/pod/warnings.go` gives it) and huge pages only beside cpu or memory.
fn container_amounts(c: &mut Check, list: &[ContainerFacts], at: &str) {
    for (i, ctr) in list.iter().enumerate() {
        let base = format!("{at}[{i}].resources");
        let r = &ctr.resources;
        let mut cpu_or_memory = false;
        let mut huge_pages = false;
        for (amounts, which) in [(&r.limits, "limits"), (&r.requests, "requests")] {
            let list_path = format!("{base}.{which}");
            for (name, q) in &amounts.0 {
                let path = || super::key_path(&list_path, name);
                c.invalid_each(super::resources::container_resource_name(name), name, path);
                cpu_or_memory |= name == CPU || name == MEMORY;
                huge_pages |= name.starts_with("hugepages-");
                if (name == MEMORY || name == EPHEMERAL_STORAGE)
                    && q.milli_value().is_some_and(|m| m % 1000 != 0)
                {
                    c.warn(FieldError::plain(
                        path(),
                        format!(
                            "fractional byte value {} is invalid, must be an integer",
                            quoted(&super::resources::shown(q))
                        ),
                    ));
                }
            }
            integer_amounts(c, amounts, &list_path);
        }
        if huge_pages && !cpu_or_memory {
            c.error(FieldError::forbidden(
                base,
                "HugePages require cpu or memory",
            ));
        }
    }
}

/// `ValidateResourceQuantityValue`'s whole-number rule, for each amount of `list` at `at`.
pub(super) fn integer_amounts(c: &mut Check, list: &Amounts, at: &str) {
    for (name, q) in &list.0 {
        if super::resources::is_integer_resource(name)
            && q.milli_value().is_some_and(|m| m % 1000 != 0)
        {
            c.error(FieldError::invalid(
                super::key_path(at, name),
                quoted(&super::resources::shown(q)),
                "must be an integer",
            ));
        }
    }
}

/// Ports (`validateContainerPorts`, `AccumulateUniqueHostPorts`) and resources of each
/// container of one list.
fn containers(c: &mut Check, list: &[Container], at: &str) {
    let mut host_ports: HashSet<String> = HashSet::new();
    for (i, ctr) in list.iter().enumerate() {
        for (j, port) in ctr.ports.iter().enumerate() {
            let p = |f: &str| format!("{at}[{i}].ports[{j}].{f}");
            if port.container_port == 0 {
                c.error(FieldError::required(p("containerPort"), ""));
            } else if !(1..=65535).contains(&port.container_port) {
                let v = Value::Int(i64::from(port.container_port));
                c.error(FieldError::invalid(p("containerPort"), v, PORT_RANGE));
            }
            if port.host_port != 0 && !(1..=65535).contains(&port.host_port) {
                let v = Value::Int(i64::from(port.host_port));
                c.error(FieldError::invalid(p("hostPort"), v, PORT_RANGE));
            }
            // An empty protocol is defaulted to TCP before validation.
            let protocol = match port.protocol.as_str() {
                "" => "TCP",
                other => other,
            };
            if !PROTOCOLS.contains(&protocol) {
                c.error(FieldError::not_supported(
                    p("protocol"),
                    quoted(protocol),
                    &PROTOCOLS,
                ));
            }
            if port.host_port != 0 {
                let key = format!("{protocol}/{}/{}", port.host_ip, port.host_port);
                if host_ports.contains(&key) {
                    c.error(FieldError::duplicate(p("hostPort"), quoted(&key)));
                } else {
                    host_ports.insert(key);
                }
            }
        }
        resources(c, &ctr.resources, &format!("{at}[{i}].resources"));
    }
}

/// A quantity in canonical form, from its amount: cpu in cores or millicores, bytes with the
/// largest exact binary (else decimal) suffix, counts as numbers.
fn amount(name: &str, v: i64) -> String {
    if name == CPU {
        return if v % 1000 == 0 {
            (v / 1000).to_string()
        } else {
            format!("{v}m")
        };
    }
    let bytes = name == MEMORY || name == EPHEMERAL_STORAGE || name.starts_with("hugepages-");
    if bytes && v != 0 {
        const BINARY: [(&str, u32); 6] = [
            ("Ei", 60),
            ("Pi", 50),
            ("Ti", 40),
            ("Gi", 30),
            ("Mi", 20),
            ("Ki", 10),
        ];
        for (suffix, shift) in BINARY {
            if v % (1i64 << shift) == 0 {
                return format!("{}{suffix}", v >> shift);
            }
        }
        const DECIMAL: [(&str, i64); 6] = [
            ("E", 1_000_000_000_000_000_000),
            ("P", 1_000_000_000_000_000),
            ("T", 1_000_000_000_000),
            ("G", 1_000_000_000),
            ("M", 1_000_000),
            ("k", 1_000),
        ];
        for (suffix, unit) in DECIMAL {
            if v % unit == 0 {
                return format!("{}{suffix}", v / unit);
            }
        }
    }
    v.to_string()
}

/// Whether requests may be below limits (`IsOvercommitAllowed`): not for extended resources
/// and huge pages.
fn overcommit_allowed(name: &str) -> bool {
    !is_extended_resource(name) && !name.starts_with("hugepages-")
}

/// The resources a list names, with their amounts. cpu and memory know whether they were
/// given; ephemeral storage counts as given when it is not zero.
fn entries(r: &Resources) -> impl Iterator<Item = (&str, i64)> {
    let cpu = r.has_cpu.then_some((CPU, r.milli_cpu));
    let memory = r.has_memory.then_some((MEMORY, r.memory));
    let storage = (r.ephemeral_storage != 0).then_some((EPHEMERAL_STORAGE, r.ephemeral_storage));
    cpu.into_iter()
        .chain(memory)
        .chain(storage)
        .chain(r.scalars.iter().map(|(n, v)| (n.as_str(), *v)))
}

/// The amount of one resource in a list, if the list names it (as [`entries`] sees it).
fn get(r: &Resources, name: &str) -> Option<i64> {
    match name {
        CPU => r.has_cpu.then_some(r.milli_cpu),
        MEMORY => r.has_memory.then_some(r.memory),
        EPHEMERAL_STORAGE => (r.ephemeral_storage != 0).then_some(r.ephemeral_storage),
        _ => r
            .scalars
            .binary_search_by(|(n, _)| n.as_str().cmp(name))
            .ok()
            .map(|i| r.scalars[i].1),
    }
}

/// `validateResourceRequirements`: a request is at most its limit, and equals it for extended
/// resources and huge pages, which also need a limit (a warning here). Negative amounts are
/// refused while reading.
fn resources(c: &mut Check, r: &ResourceRequirements, at: &str) {
    let limits = &r.limits.0;
    for (name, req) in entries(&r.requests.0) {
        let limit = get(limits, name);
        let path = || crate::input::validate::key_path(&format!("{at}.requests"), name);
        match limit {
            Some(lim) if !overcommit_allowed(name) && req != lim => c.error(FieldError::invalid(
                path(),
                quoted(&amount(name, req)),
                &format!("must be equal to {name} limit of {}", amount(name, lim)),
            )),
            Some(lim) if req > lim => c.error(FieldError::invalid(
                path(),
                quoted(&amount(name, req)),
                &format!(
                    "must be less than or equal to {name} limit of {}",
                    amount(name, lim)
                ),
            )),
            Some(_) => {}
            None if !overcommit_allowed(name) => {
                // A warning: hand-written scenarios give extended resources as requests only,
                // and requests are all the scheduler reads.
                let mut w = FieldError::required(
                    format!("{at}.limits"),
                    "Limit must be set for non overcommitable resources",
                );
                w.message
                    .push_str(" (kube-apiserver refuses the pod; schedlab uses the request)");
                c.warn(w)
            }
            None => {}
        }
    }
}

/// Node affinity (`validateNodeAffinity`), pod affinity and anti-affinity
/// (`validatePodAffinity`, `validatePodAntiAffinity`).
fn affinity(c: &mut Check, s: &PodSpec) {
    let Some(a) = &s.affinity else { return };
    if let Some(na) = &a.node_affinity {
        let at = "spec.affinity.nodeAffinity";
        if let Some(sel) = &na.required_during_scheduling_ignored_during_execution {
            let p = format!("{at}.requiredDuringSchedulingIgnoredDuringExecution");
            selector::node_selector(c, sel, &p);
        }
        for (i, t) in na
            .preferred_during_scheduling_ignored_during_execution
            .iter()
            .enumerate()
        {
            let p = format!("{at}.preferredDuringSchedulingIgnoredDuringExecution[{i}]");
            weight(c, t.weight, &p);
            selector::node_selector_term(c, &t.preference, &format!("{p}.preference"));
        }
    }
    for (pa, at) in [
        (&a.pod_affinity, "spec.affinity.podAffinity"),
        (&a.pod_anti_affinity, "spec.affinity.podAntiAffinity"),
    ] {
        if let Some(pa) = pa {
            pod_affinity(c, pa, at);
        }
    }
}

fn pod_affinity(c: &mut Check, pa: &PodAffinity, at: &str) {
    for (i, t) in pa
        .required_during_scheduling_ignored_during_execution
        .iter()
        .enumerate()
    {
        let p = format!("{at}.requiredDuringSchedulingIgnoredDuringExecution[{i}]");
        pod_affinity_term(c, t, &p);
    }
    for (i, w) in pa
        .preferred_during_scheduling_ignored_during_execution
        .iter()
        .enumerate()
    {
        let p = format!("{at}.preferredDuringSchedulingIgnoredDuringExecution[{i}]");
        weight(c, w.weight, &p);
        pod_affinity_term(c, &w.pod_affinity_term, &format!("{p}.podAffinityTerm"));
    }
}

/// A preference's weight: 1 to 100.
fn weight(c: &mut Check, w: i32, at: &str) {
    if !(1..=100).contains(&w) {
        c.error(FieldError::invalid(
            format!("{at}.weight"),
            Value::Int(i64::from(w)),
            WEIGHT_RANGE,
        ));
    }
}

/// `validatePodAffinityTerm`: the selectors, the namespaces, a topology key.
fn pod_affinity_term(c: &mut Check, t: &PodAffinityTerm, at: &str) {
    if let Some(sel) = &t.label_selector {
        selector::label_selector(c, sel, &format!("{at}.labelSelector"));
    }
    for (k, ns) in t.namespaces.iter().enumerate() {
        c.invalid_each(dns1123_label(ns), ns, || format!("{at}.namespaces[{k}]"));
    }
    if t.topology_key.is_empty() {
        c.error(FieldError::required(
            format!("{at}.topologyKey"),
            "can not be empty",
        ));
    } else {
        c.invalid_each(qualified_name(&t.topology_key), &t.topology_key, || {
            format!("{at}.topologyKey")
        });
    }
}

/// `ValidateTolerations`.
fn tolerations(c: &mut Check, list: &[Toleration]) {
    for (i, t) in list.iter().enumerate() {
        let p = |f: &str| format!("spec.tolerations[{i}].{f}");
        if !t.key.is_empty() {
            c.invalid_each(qualified_name(&t.key), &t.key, || p("key"));
        }
        if t.key.is_empty() && t.operator != "Exists" {
            c.error(FieldError::invalid(
                p("operator"),
                quoted(&t.operator),
                "operator must be Exists when `key` is empty, which means \"match all values \
                 and all keys\"",
            ));
        }
        if t.toleration_seconds.is_some() && t.effect != "NoExecute" {
            c.error(FieldError::invalid(
                p("effect"),
                quoted(&t.effect),
                "effect must be 'NoExecute' when `tolerationSeconds` is set",
            ));
        }
        match t.operator.as_str() {
            "" | "Equal" => {
                let msgs = label_value(&t.value);
                if !msgs.is_empty() {
                    let m = msgs.join(";");
                    c.error(FieldError::invalid(p("value"), quoted(&t.value), &m));
                }
            }
            "Exists" if !t.value.is_empty() => c.error(FieldError::invalid(
                p("value"),
                quoted(&t.value),
                "value must be empty when `operator` is 'Exists'",
            )),
            "Exists" => {}
            op => c.error(FieldError::not_supported(
                p("operator"),
                quoted(op),
                &["Equal", "Exists"],
            )),
        }
        taint_effect(c, &t.effect, true, || p("effect"));
    }
}

/// `validateTopologySpreadConstraints`. A repeated `{topologyKey, whenUnsatisfiable}` pair is
/// reported at the earlier constraint, as upstream reports it.
fn spread_constraints(c: &mut Check, list: &[TopologySpreadConstraint]) {
    if list.is_empty() {
        return;
    }
    let mut last: HashMap<(&str, &str), usize> = HashMap::new();
    for (i, t) in list.iter().enumerate() {
        last.insert((t.topology_key.as_str(), t.when_unsatisfiable.as_str()), i);
    }
    for (i, t) in list.iter().enumerate() {
        let p = |f: &str| format!("spec.topologySpreadConstraints[{i}].{f}");
        if t.max_skew <= 0 {
            let v = Value::Int(i64::from(t.max_skew));
            c.error(FieldError::invalid(p("maxSkew"), v, NOT_POSITIVE));
        }
        if t.topology_key.is_empty() {
            c.error(FieldError::required(p("topologyKey"), "can not be empty"));
        }
        let action = t.when_unsatisfiable.as_str();
        if !WHEN_UNSATISFIABLE.contains(&action) {
            c.error(FieldError::not_supported(
                p("whenUnsatisfiable"),
                quoted(action),
                &WHEN_UNSATISFIABLE,
            ));
        }
        if last
            .get(&(t.topology_key.as_str(), action))
            .is_some_and(|&j| j > i)
        {
            let pair = format!("{{{}, {action}}}", t.topology_key);
            c.error(FieldError::duplicate(
                format!("spec.topologySpreadConstraints[{i}]"),
                quoted(&pair),
            ));
        }
        if let Some(sel) = &t.label_selector {
            selector::label_selector(c, sel, &p("labelSelector"));
        }
    }
}
