//! The scheduler's cache: `NodeInfo` per node and derived `PodInfo` per pod.
//!
//! Everything a predicate or priority needs per node is pre-computed here once (requested
//! resources, the non-zero requests used for scoring, used host ports, image sizes, the
//! `preferAvoidPods` annotation, the zone key), and kept up to date as pods bind. A cycle then
//! reads it without allocating. Pods and nodes are referred to by index (`PodId`, `NodeId`).
//!
//! [`TopologyIndex`] serves the affinity and spreading plugins: every topology key that some
//! pod's affinity term or spread constraint names, with each node's value interned; bound pods
//! grouped by (namespace, labels); bound pods' distinct affinity terms; both counted per
//! topology domain. `Cluster::add_node`, `add_pod` and `bind` keep it true, so a cycle matches
//! a term once per label group (not once per pod) and a node check is an array lookup.

use crate::model::pod::{ContainerPort, PodAffinityTerm};
use crate::model::resources::{CPU, MEMORY};
use crate::model::{LabelSelector, Labels, Node, Pod, PriorityClass, Resources, Service};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// Index of a pod in [`Cluster::pods`].
pub type PodId = usize;
/// Index of a node in [`Cluster::nodes`].
pub type NodeId = usize;

/// `DefaultMilliCPURequest`: 100m, the scoring default for a container without a cpu request.
pub const DEFAULT_MILLI_CPU_REQUEST: i64 = 100;
/// `DefaultMemoryRequest`: 200 MiB, the scoring default for a container without a memory request.
pub const DEFAULT_MEMORY_REQUEST: i64 = 200 * 1024 * 1024;

/// The zone label keys (beta first, GA fallback).
pub const ZONE_LABEL: &str = "failure-domain.beta.kubernetes.io/zone";
/// Region beta label.
pub const REGION_LABEL: &str = "failure-domain.beta.kubernetes.io/region";
/// Zone GA label.
pub const ZONE_LABEL_GA: &str = "topology.kubernetes.io/zone";
/// Region GA label.
pub const REGION_LABEL_GA: &str = "topology.kubernetes.io/region";

/// A host port a pod uses, normalised (`0.0.0.0`, `TCP` defaults).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostPort {
    /// Host IP.
    pub ip: String,
    /// Protocol.
    pub protocol: String,
    /// Port.
    pub port: i32,
}

impl HostPort {
    fn from_container_port(p: &ContainerPort) -> Option<HostPort> {
        (p.host_port > 0).then(|| HostPort {
            ip: if p.host_ip.is_empty() {
                "0.0.0.0".into()
            } else {
                p.host_ip.clone()
            },
            protocol: if p.protocol.is_empty() {
                "TCP".into()
            } else {
                p.protocol.clone()
            },
            port: p.host_port,
        })
    }
}

/// A pod plus what the scheduler derives from it.
#[derive(Clone, Debug)]
pub struct PodInfo {
    /// The pod as given.
    pub pod: Pod,
    /// `namespace/name`.
    pub full_name: String,
    /// Namespace with the `default` fallback.
    pub namespace: String,
    /// Resolved priority.
    pub priority: i32,
    /// Request of an incoming pod (`GetResourceRequest`: containers summed, max with each init).
    pub request: Resources,
    /// What the pod adds to a node it is on (containers only; v1.17 NodeInfo ignores init).
    pub node_request: Resources,
    /// Scoring request: containers with the non-zero cpu default.
    pub nonzero_cpu: i64,
    /// Scoring request: containers with the non-zero memory default.
    pub nonzero_memory: i64,
    /// Host ports of app containers.
    pub host_ports: Vec<HostPort>,
    /// Position in the input.
    pub input_index: usize,
}

impl PodInfo {
    /// Derives requests and ports. `priority` must already be resolved.
    pub fn new(pod: Pod, priority: i32, input_index: usize) -> PodInfo {
        let mut node_request = Resources::default();
        let mut nonzero_cpu = 0i64;
        let mut nonzero_memory = 0i64;
        let mut host_ports = Vec::new();
        for c in &pod.spec.containers {
            let r = &c.resources.requests.0;
            node_request.add(r);
            let cpu = if r.has_cpu {
                r.milli_cpu
            } else {
                DEFAULT_MILLI_CPU_REQUEST
            };
            let memory = if r.has_memory {
                r.memory
            } else {
                DEFAULT_MEMORY_REQUEST
            };
            nonzero_cpu = nonzero_cpu.saturating_add(cpu);
            nonzero_memory = nonzero_memory.saturating_add(memory);
            host_ports.extend(c.ports.iter().filter_map(HostPort::from_container_port));
        }
        node_request.pods = 0;
        let mut request = node_request.clone();
        for c in &pod.spec.init_containers {
            request.max_with(&c.resources.requests.0);
        }
        PodInfo {
            full_name: pod.full_name(),
            namespace: pod.metadata.namespace_or_default().to_string(),
            pod,
            priority,
            request,
            node_request,
            nonzero_cpu,
            nonzero_memory,
            host_ports,
            input_index,
        }
    }

    /// Labels of the pod.
    pub fn labels(&self) -> &Labels {
        &self.pod.metadata.labels
    }
}

/// One node and the pods on it (`nodeinfo.NodeInfo`).
#[derive(Clone, Debug)]
pub struct NodeInfo {
    /// The node as given (shared: cloning a cluster copies no node object).
    pub node: Arc<Node>,
    /// Its index.
    pub id: NodeId,
    /// Allocatable resources (`allocatable`, else `capacity`).
    pub allocatable: Resources,
    /// Sum of the requests of pods on the node.
    pub requested: Resources,
    /// Sum of the scoring (non-zero) cpu requests.
    pub nonzero_cpu: i64,
    /// Sum of the scoring (non-zero) memory requests.
    pub nonzero_memory: i64,
    /// Pods on the node, in the order they arrived.
    pub pods: Vec<PodId>,
    /// Pods on the node that have pod affinity or anti-affinity.
    pub pods_with_affinity: Vec<PodId>,
    /// Host ports in use.
    pub used_ports: Vec<HostPort>,
    /// `GetZoneKey`: `region:\0:zone`, empty without zone labels.
    pub zone_key: String,
    /// Image name → size in bytes (shared between clones).
    pub images: Arc<HashMap<String, i64>>,
    /// Controllers listed in `scheduler.alpha.kubernetes.io/preferAvoidPods`: (kind, uid).
    /// `None` when the annotation does not parse.
    pub avoid_controllers: Option<Vec<(String, String)>>,
}

/// `utilnode.GetZoneKey` with v1.17's fallback to the GA labels.
pub fn zone_key(labels: &Labels) -> String {
    let get = |beta: &str, ga: &str| {
        labels
            .get(beta)
            .or_else(|| labels.get(ga))
            .cloned()
            .unwrap_or_default()
    };
    let region = get(REGION_LABEL, REGION_LABEL_GA);
    let zone = get(ZONE_LABEL, ZONE_LABEL_GA);
    if region.is_empty() && zone.is_empty() {
        String::new()
    } else {
        format!("{region}:\x00:{zone}")
    }
}

const PREFER_AVOID_PODS: &str = "scheduler.alpha.kubernetes.io/preferAvoidPods";

fn parse_avoid_pods(node: &Node) -> Option<Vec<(String, String)>> {
    let Some(text) = node.metadata.annotations.get(PREFER_AVOID_PODS) else {
        return Some(Vec::new());
    };
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    let entries = match v.get("preferAvoidPods") {
        None | Some(serde_json::Value::Null) => return Some(Vec::new()),
        Some(serde_json::Value::Array(a)) => a,
        Some(_) => return None,
    };
    let mut out = Vec::new();
    for e in entries {
        let ctrl = e.get("podSignature").and_then(|s| s.get("podController"));
        if let Some(c) = ctrl {
            let s = |k: &str| c.get(k).and_then(|x| x.as_str()).unwrap_or("").to_string();
            out.push((s("kind"), s("uid")));
        }
    }
    Some(out)
}

impl NodeInfo {
    /// A node with no pods yet.
    pub fn new(node: Node, id: NodeId) -> NodeInfo {
        let allocatable = node.allocatable().0;
        let mut images = HashMap::new();
        for img in &node.status.images {
            for name in &img.names {
                images.insert(name.clone(), img.size_bytes);
            }
        }
        NodeInfo {
            zone_key: zone_key(&node.metadata.labels),
            avoid_controllers: parse_avoid_pods(&node),
            node: Arc::new(node),
            id,
            allocatable,
            requested: Resources::default(),
            nonzero_cpu: 0,
            nonzero_memory: 0,
            pods: Vec::new(),
            pods_with_affinity: Vec::new(),
            used_ports: Vec::new(),
            images: Arc::new(images),
        }
    }

    /// The node's name.
    pub fn name(&self) -> &str {
        &self.node.metadata.name
    }

    /// The node's labels.
    pub fn labels(&self) -> &Labels {
        &self.node.metadata.labels
    }

    /// Adds a pod's accounting (`NodeInfo.AddPod`).
    pub fn add_pod(&mut self, id: PodId, info: &PodInfo) {
        self.requested.add(&info.node_request);
        self.nonzero_cpu = self.nonzero_cpu.saturating_add(info.nonzero_cpu);
        self.nonzero_memory = self.nonzero_memory.saturating_add(info.nonzero_memory);
        self.used_ports.extend(info.host_ports.iter().cloned());
        self.pods.push(id);
        if info.pod.has_pod_affinity() {
            self.pods_with_affinity.push(id);
        }
    }

    /// The node's allowed pod count.
    pub fn allowed_pods(&self) -> i64 {
        self.allocatable.pods
    }

    /// Requested amount of a resource for scoring: non-zero sums for cpu/memory, plain
    /// requests otherwise.
    pub fn scoring_requested(&self, resource: &str) -> i64 {
        match resource {
            CPU => self.nonzero_cpu,
            MEMORY => self.nonzero_memory,
            r => self.requested.get(r),
        }
    }
}

/// The cluster snapshot: nodes with their pods, every pod, and the selector sources.
#[derive(Clone, Debug, Default)]
pub struct Cluster {
    /// Nodes in input order.
    pub nodes: Vec<NodeInfo>,
    /// Every pod in input order (bound and pending), shared: cloning a cluster copies no pod.
    pub pods: Vec<Arc<PodInfo>>,
    /// Services.
    pub services: Vec<Service>,
    /// ReplicationControllers: (namespace, selector).
    pub replication_controllers: Vec<(String, Labels)>,
    /// ReplicaSets: (namespace, selector).
    pub replica_sets: Vec<(String, Option<LabelSelector>)>,
    /// StatefulSets: (namespace, selector).
    pub stateful_sets: Vec<(String, Option<LabelSelector>)>,
    /// PriorityClasses.
    pub priority_classes: Vec<PriorityClass>,
    /// Node name → id.
    pub node_index: HashMap<String, NodeId>,
    /// Image name → number of nodes reporting it (for ImageLocality).
    pub image_node_counts: HashMap<String, usize>,
    /// Where each pod is bound (or `None`).
    pub pod_node: Vec<Option<NodeId>>,
    /// Bound pods that have pod affinity or anti-affinity, in binding order.
    pub pods_with_affinity: Vec<PodId>,
    /// Number of nodes carrying at least one `PreferNoSchedule` taint.
    pub nodes_with_soft_taints: usize,
    /// Number of nodes carrying at least one `NoSchedule` or `NoExecute` taint.
    pub nodes_with_hard_taints: usize,
    /// Number of cordoned nodes (`spec.unschedulable`).
    pub nodes_cordoned: usize,
    /// PersistentVolumes, claims, storage classes and CSINodes.
    pub volumes: crate::model::volume::VolumeCatalog,
    /// Bound pods counted per topology domain, for the affinity and spreading plugins.
    pub topology: TopologyIndex,
}

impl Cluster {
    /// Adds a node; its pods come later through [`Cluster::bind`].
    pub fn add_node(&mut self, node: Node) -> NodeId {
        let id = self.nodes.len();
        self.node_index.insert(node.metadata.name.clone(), id);
        let mut names: Vec<&String> = node.status.images.iter().flat_map(|i| &i.names).collect();
        names.sort();
        names.dedup();
        for n in names {
            *self.image_node_counts.entry(n.clone()).or_default() += 1;
        }
        use crate::model::taint::{NO_EXECUTE, NO_SCHEDULE, PREFER_NO_SCHEDULE};
        let taints = &node.spec.taints;
        self.nodes_with_soft_taints +=
            usize::from(taints.iter().any(|t| t.effect == PREFER_NO_SCHEDULE));
        self.nodes_with_hard_taints += usize::from(
            taints
                .iter()
                .any(|t| t.effect == NO_SCHEDULE || t.effect == NO_EXECUTE),
        );
        self.nodes_cordoned += usize::from(node.spec.unschedulable);
        self.topology.add_node(&node.metadata.labels);
        self.nodes.push(NodeInfo::new(node, id));
        id
    }

    /// Adds a pod (not yet on any node).
    pub fn add_pod(&mut self, info: PodInfo) -> PodId {
        self.topology.register_pod_keys(&info.pod, &self.nodes);
        self.pods.push(Arc::new(info));
        self.pod_node.push(None);
        self.pods.len() - 1
    }

    /// The Services in the pod's namespace whose (non-empty) selector selects the pod, in input
    /// order (`GetPodServices`).
    pub fn services_selecting<'a>(
        &'a self,
        pod: &'a PodInfo,
    ) -> impl Iterator<Item = &'a Service> + 'a {
        self.services.iter().filter(move |s| {
            s.metadata.namespace_or_default() == pod.namespace
                && !s.spec.selector.is_empty()
                && crate::model::selector::set_matches(&s.spec.selector, pod.labels())
        })
    }

    /// Puts a pod on a node and updates the node's accounting.
    pub fn bind(&mut self, pod: PodId, node: NodeId) {
        self.pod_node[pod] = Some(node);
        let info = &self.pods[pod];
        if info.pod.has_pod_affinity() {
            self.pods_with_affinity.push(pod);
        }
        self.topology.bind(info, node, &self.nodes);
        self.nodes[node].add_pod(pod, info);
    }

    /// The node order of v1.17's node tree: zones by first appearance, one node from each zone
    /// in turn (zones A=[a1,a2,a3], B=[b1] give a1, b1, a2, a3).
    pub fn node_tree_order(&self) -> Vec<NodeId> {
        let mut zones: Vec<(&str, Vec<NodeId>)> = Vec::new();
        let mut zone_pos: BTreeMap<&str, usize> = BTreeMap::new();
        for n in &self.nodes {
            let key = n.zone_key.as_str();
            let i = *zone_pos.entry(key).or_insert_with(|| {
                zones.push((key, Vec::new()));
                zones.len() - 1
            });
            zones[i].1.push(n.id);
        }
        let mut out = Vec::with_capacity(self.nodes.len());
        let mut cursor = vec![0usize; zones.len()];
        while out.len() < self.nodes.len() {
            for (z, (_, members)) in zones.iter().enumerate() {
                if cursor[z] < members.len() {
                    out.push(members[cursor[z]]);
                    cursor[z] += 1;
                }
            }
        }
        out
    }
}

/// One topology key named by some pod: the interned values of the nodes that carry it.
#[derive(Clone, Debug, Default)]
pub struct TopologyKey {
    /// The label key.
    pub key: String,
    value_ids: HashMap<String, u32>,
    /// Value id → value.
    pub values: Vec<String>,
    /// Node id → value id (`None`: the node lacks the key).
    pub node_value: Vec<Option<u32>>,
}

impl TopologyKey {
    fn push_node(&mut self, labels: &Labels) {
        let v = labels.get(&self.key).map(|v| {
            let next = self.values.len() as u32;
            *self.value_ids.entry(v.clone()).or_insert_with(|| {
                self.values.push(v.clone());
                next
            })
        });
        self.node_value.push(v);
    }
}

/// Sparse counts: value id → number of pods.
pub type DomainCounts = HashMap<u32, i64>;

/// Bound pods sharing a namespace and a label set: a term or selector matches all of them or
/// none, so it is evaluated once per group instead of once per pod.
#[derive(Clone, Debug)]
pub struct LabelGroup {
    /// Namespace.
    pub namespace: String,
    /// Labels.
    pub labels: Labels,
    /// Per topology key id: the group's pods counted per domain of their nodes.
    pub counts: Vec<DomainCounts>,
    node_pods: BTreeMap<NodeId, i64>,
}

/// The kind of an existing pod's affinity term.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TermKind {
    /// Required pod affinity.
    RequiredAffinity,
    /// Required pod anti-affinity.
    RequiredAntiAffinity,
    /// Preferred pod affinity.
    PreferredAffinity,
    /// Preferred pod anti-affinity.
    PreferredAntiAffinity,
}

/// One distinct affinity term of bound pods (kind, owner namespace, weight, term), with the
/// number of its occurrences per domain of its topology key.
#[derive(Clone, Debug)]
pub struct TermGroup {
    /// Kind.
    pub kind: TermKind,
    /// Namespace of the pods that own the term.
    pub namespace: String,
    /// Weight (preferred terms; 0 for required).
    pub weight: i64,
    /// The term.
    pub term: PodAffinityTerm,
    /// Key id of `term.topology_key`.
    pub key: usize,
    /// Occurrences per domain.
    pub counts: DomainCounts,
}

/// The per-cluster index the affinity and spreading plugins read: every topology key some pod
/// names, bound pods grouped by (namespace, labels), and bound pods' distinct affinity terms, all
/// counted per topology domain and kept up to date by [`Cluster::bind`].
#[derive(Clone, Debug, Default)]
pub struct TopologyIndex {
    /// Registered keys.
    pub keys: Vec<TopologyKey>,
    key_ids: HashMap<String, usize>,
    /// Label groups of bound pods.
    pub groups: Vec<LabelGroup>,
    group_ids: HashMap<(String, Labels), usize>,
    /// Distinct affinity terms of bound pods.
    pub terms: Vec<TermGroup>,
    term_ids: HashMap<(TermKind, String, i64, String), usize>,
}

impl TopologyIndex {
    /// The id of a registered key.
    pub fn key_id(&self, key: &str) -> Option<usize> {
        self.key_ids.get(key).copied()
    }

    /// The node's value id for a key id.
    pub fn node_value(&self, key: usize, node: NodeId) -> Option<u32> {
        self.keys[key].node_value.get(node).copied().flatten()
    }

    fn add_node(&mut self, labels: &Labels) {
        for k in &mut self.keys {
            k.push_node(labels);
        }
    }

    /// Registers a key (and fills its counts for the groups that exist); returns its id.
    pub fn register_key(&mut self, key: &str, nodes: &[NodeInfo]) -> usize {
        if let Some(id) = self.key_ids.get(key) {
            return *id;
        }
        let mut k = TopologyKey {
            key: key.to_string(),
            ..TopologyKey::default()
        };
        for n in nodes {
            k.push_node(n.labels());
        }
        for g in &mut self.groups {
            let mut counts = DomainCounts::new();
            for (&node, &c) in &g.node_pods {
                if let Some(v) = k.node_value[node] {
                    *counts.entry(v).or_default() += c;
                }
            }
            g.counts.push(counts);
        }
        let id = self.keys.len();
        self.keys.push(k);
        self.key_ids.insert(key.to_string(), id);
        id
    }

    fn register_pod_keys(&mut self, pod: &Pod, nodes: &[NodeInfo]) {
        for (_, _, t) in pod_terms(pod) {
            self.register_key(&t.topology_key, nodes);
        }
        for c in &pod.spec.topology_spread_constraints {
            self.register_key(&c.topology_key, nodes);
        }
    }

    fn bind(&mut self, info: &PodInfo, node: NodeId, nodes: &[NodeInfo]) {
        self.register_pod_keys(&info.pod, nodes);
        let gkey = (info.namespace.clone(), info.labels().clone());
        let gid = match self.group_ids.get(&gkey) {
            Some(&g) => g,
            None => {
                self.groups.push(LabelGroup {
                    namespace: info.namespace.clone(),
                    labels: info.labels().clone(),
                    counts: vec![DomainCounts::new(); self.keys.len()],
                    node_pods: BTreeMap::new(),
                });
                self.group_ids.insert(gkey, self.groups.len() - 1);
                self.groups.len() - 1
            }
        };
        let g = &mut self.groups[gid];
        *g.node_pods.entry(node).or_default() += 1;
        for (k, counts) in self.keys.iter().zip(g.counts.iter_mut()) {
            if let Some(v) = k.node_value[node] {
                *counts.entry(v).or_default() += 1;
            }
        }
        for (kind, weight, term) in pod_terms(&info.pod) {
            let tkey = (kind, info.namespace.clone(), weight, format!("{term:?}"));
            let tid = match self.term_ids.get(&tkey) {
                Some(&t) => t,
                None => {
                    self.terms.push(TermGroup {
                        kind,
                        namespace: info.namespace.clone(),
                        weight,
                        term: term.clone(),
                        key: self.key_ids[&term.topology_key],
                        counts: DomainCounts::new(),
                    });
                    self.term_ids.insert(tkey, self.terms.len() - 1);
                    self.terms.len() - 1
                }
            };
            let t = &mut self.terms[tid];
            if let Some(v) = self.keys[t.key].node_value[node] {
                *t.counts.entry(v).or_default() += 1;
            }
        }
    }
}

/// Every pod affinity term of a pod with its kind and weight (0 for required terms).
pub fn pod_terms(pod: &Pod) -> Vec<(TermKind, i64, &PodAffinityTerm)> {
    use TermKind::*;
    let mut out = Vec::new();
    for (a, req, pref) in [
        (pod.pod_affinity(), RequiredAffinity, PreferredAffinity),
        (
            pod.pod_anti_affinity(),
            RequiredAntiAffinity,
            PreferredAntiAffinity,
        ),
    ] {
        let Some(a) = a else { continue };
        for t in &a.required_during_scheduling_ignored_during_execution {
            out.push((req, 0, t));
        }
        for t in &a.preferred_during_scheduling_ignored_during_execution {
            out.push((pref, i64::from(t.weight), &t.pod_affinity_term));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(name: &str, zone: Option<&str>) -> Node {
        let mut n = Node::default();
        n.metadata.name = name.into();
        if let Some(z) = zone {
            n.metadata.labels.insert(ZONE_LABEL.into(), z.into());
        }
        n
    }

    #[test]
    fn node_tree_takes_one_node_per_zone_in_turn() {
        let mut c = Cluster::default();
        for (name, zone) in [("a1", "A"), ("a2", "A"), ("b1", "B"), ("a3", "A")] {
            c.add_node(node(name, Some(zone)));
        }
        let names: Vec<&str> = c
            .node_tree_order()
            .into_iter()
            .map(|i| c.nodes[i].name())
            .collect();
        assert_eq!(names, ["a1", "b1", "a2", "a3"]);
    }

    #[test]
    fn zone_key_falls_back_to_ga_labels() {
        let mut l = Labels::new();
        assert_eq!(zone_key(&l), "");
        l.insert(ZONE_LABEL_GA.into(), "z".into());
        assert_eq!(zone_key(&l), ":\x00:z");
        l.insert(ZONE_LABEL.into(), "beta".into());
        l.insert(REGION_LABEL_GA.into(), "r".into());
        assert_eq!(zone_key(&l), "r:\x00:beta");
    }
}

/// The affinity and spreading plugins' fast paths (this index) against their straightforward
/// references, on random small clusters.
#[cfg(test)]
mod index_tests {
    use super::*;
    use crate::framework::ProfileSettings;
    use crate::predicates::{even_pods_spread as eps, match_inter_pod_affinity as mipa};
    use crate::priorities::{even_pods_spread as epsp, inter_pod_affinity as ipa};
    use crate::rng::Rng;
    use crate::testing::{filter_all_with, node, pod, score_all_with};
    use serde_json::{json, Value};

    const KEYS: [&str; 4] = ["zone", "kubernetes.io/hostname", "rack", ""];

    fn pick<'a>(r: &mut Rng, xs: &[&'a str]) -> &'a str {
        xs[r.intn(xs.len() as u64) as usize]
    }

    fn selector(r: &mut Rng) -> Value {
        match r.intn(6) {
            0 => Value::Null,
            1 => json!({}),
            2 => {
                json!({"matchExpressions": [{"key": "app", "operator": "In", "values": ["x", "y"]}]})
            }
            _ => json!({"matchLabels": {"app": pick(r, &["x", "y", "z"])}}),
        }
    }

    fn term(r: &mut Rng) -> Value {
        let mut t = json!({"topologyKey": pick(r, &KEYS)});
        let s = selector(r);
        if !s.is_null() {
            t["labelSelector"] = s;
        }
        if r.intn(4) == 0 {
            t["namespaces"] = json!([pick(r, &["default", "other"])]);
        }
        t
    }

    fn affinity(r: &mut Rng) -> Value {
        let mut a = json!({});
        for kind in ["podAffinity", "podAntiAffinity"] {
            if r.intn(2) == 0 {
                continue;
            }
            let req: Vec<Value> = (0..r.intn(3)).map(|_| term(r)).collect();
            let pref: Vec<Value> = (0..r.intn(3))
                .map(|_| json!({"weight": r.intn(5) as i64, "podAffinityTerm": term(r)}))
                .collect();
            a[kind] = json!({"requiredDuringSchedulingIgnoredDuringExecution": req,
                "preferredDuringSchedulingIgnoredDuringExecution": pref});
        }
        a
    }

    fn random_pod(r: &mut Rng, name: String, incoming: bool) -> crate::model::Pod {
        let mut labels = json!({});
        if r.intn(4) != 0 {
            labels["app"] = json!(pick(r, &["x", "y", "z"]));
        }
        if r.intn(2) == 0 {
            labels["tier"] = json!(pick(r, &["1", "2"]));
        }
        let mut spec = json!({});
        if r.intn(3) != 0 {
            spec["affinity"] = affinity(r);
        }
        if incoming && r.intn(2) == 0 {
            let same = r.intn(2) == 0;
            let k = pick(r, &KEYS[..3]);
            let cs: Vec<Value> = (0..1 + r.intn(2))
                .map(|_| {
                    let mut c = json!({"maxSkew": 1 + r.intn(2) as i64,
                        "topologyKey": if same { k } else { pick(r, &KEYS[..3]) },
                        "whenUnsatisfiable": pick(r, &["DoNotSchedule", "ScheduleAnyway"])});
                    let s = selector(r);
                    if !s.is_null() {
                        c["labelSelector"] = s;
                    }
                    c
                })
                .collect();
            spec["topologySpreadConstraints"] = json!(cs);
        }
        if incoming && r.intn(5) == 0 {
            spec["nodeSelector"] = json!({"zone": "a"});
        }
        let ns = if r.intn(4) == 0 { "other" } else { "default" };
        pod(json!({"metadata": {"name": name, "namespace": ns, "labels": labels}, "spec": spec}))
    }

    #[test]
    fn fast_paths_match_the_reference_on_random_clusters() {
        let mut r = Rng::new(17);
        for case in 0..400 {
            let mut c = Cluster::default();
            let n_nodes = 1 + r.intn(6) as usize;
            for i in 0..n_nodes {
                let mut labels = json!({});
                if r.intn(5) != 0 {
                    labels["zone"] = json!(pick(&mut r, &["a", "b", "c"]));
                }
                if r.intn(6) != 0 {
                    labels["kubernetes.io/hostname"] = json!(format!("n{i}"));
                }
                if r.intn(2) == 0 {
                    labels["rack"] = json!(pick(&mut r, &["r1", "r2"]));
                }
                c.add_node(node(
                    json!({"metadata": {"name": format!("n{i}"), "labels": labels}}),
                ));
            }
            // Pending pods come before, between and after bound ones, as in a scenario.
            let mut incoming = Vec::new();
            for i in 0..r.intn(12) as usize {
                let p = random_pod(&mut r, format!("b{i}"), false);
                let id = c.add_pod(PodInfo::new(p, 0, i));
                if r.intn(5) == 0 {
                    incoming.push(id);
                } else {
                    c.bind(id, r.intn(n_nodes as u64) as usize);
                }
            }
            for i in 0..3 {
                let p = random_pod(&mut r, format!("p{i}"), true);
                incoming.push(c.add_pod(PodInfo::new(p, 0, 100 + i)));
            }
            let settings = ProfileSettings {
                hard_pod_affinity_weight: r.intn(3) as i64,
                ..ProfileSettings::default()
            };
            for &p in &incoming {
                let p = c.pods[p].pod.clone();
                let ctx = format!("case {case}, pod {p:?}");
                assert_eq!(
                    filter_all_with(&mipa::MatchInterPodAffinity, &c, p.clone(), &settings),
                    filter_all_with(&mipa::Reference, &c, p.clone(), &settings),
                    "MatchInterPodAffinity, {ctx}"
                );
                assert_eq!(
                    filter_all_with(&eps::EvenPodsSpread, &c, p.clone(), &settings),
                    filter_all_with(&eps::Reference, &c, p.clone(), &settings),
                    "EvenPodsSpread, {ctx}"
                );
                assert_eq!(
                    score_all_with(&ipa::InterPodAffinity, &c, p.clone(), &settings),
                    score_all_with(&ipa::Reference, &c, p.clone(), &settings),
                    "InterPodAffinityPriority, {ctx}"
                );
                assert_eq!(
                    score_all_with(&epsp::EvenPodsSpreadPriority, &c, p.clone(), &settings),
                    score_all_with(&epsp::Reference, &c, p.clone(), &settings),
                    "EvenPodsSpreadPriority, {ctx}"
                );
            }
        }
    }
}
