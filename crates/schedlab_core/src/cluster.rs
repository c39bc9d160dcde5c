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
//! topology domain. `Cluster::add_node`, `add_pod`, `bind`, `unbind`, `update_node` and
//! `remove_node` keep it true, so a cycle matches a term once per label group (not once per pod)
//! and a node check is an array lookup.
//!
//! Pods, node objects and node image maps sit behind `Arc`, so cloning a `Cluster` (a history
//! checkpoint) copies only the per-node accounting and the indexes, never a pod or a node.

use crate::model::pod::{ContainerPort, PodAffinityTerm};
use crate::model::resources::{CPU, MEMORY};
use crate::model::{LabelSelector, Labels, Node, Pod, PriorityClass, Resources, Service};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// Index of a pod in [`Cluster::pods`].
pub type PodId = usize;
/// Index of a node in [`Cluster::nodes`].
pub type NodeId = usize;

/// Node name → id, with [`NameHash`]: names are short and looked up for every nominated node
/// each time the nominations change, where SipHash (then FNV-1a) showed in profiles. Iteration
/// order is never used.
pub(crate) type NodeIndex = HashMap<String, NodeId, std::hash::BuildHasherDefault<NameHash>>;

pub use crate::model::names::NameHash;

/// `DefaultMilliCPURequest`: 100m, the scoring default for a container without a cpu request.
pub(crate) const DEFAULT_MILLI_CPU_REQUEST: i64 = 100;
/// `DefaultMemoryRequest`: 200 MiB, the scoring default for a container without a memory request.
pub(crate) const DEFAULT_MEMORY_REQUEST: i64 = 200 * 1024 * 1024;

/// The zone label keys (beta first, GA fallback).
pub(crate) const ZONE_LABEL: &str = "failure-domain.beta.kubernetes.io/zone";
/// Region beta label.
pub(crate) const REGION_LABEL: &str = "failure-domain.beta.kubernetes.io/region";
/// Zone GA label.
pub(crate) const ZONE_LABEL_GA: &str = "topology.kubernetes.io/zone";
/// Region GA label.
pub(crate) const REGION_LABEL_GA: &str = "topology.kubernetes.io/region";

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

/// A pod plus what the scheduler derives from it. Laid out in declaration order, the
/// accounting a node adds up first: preemption reads it for many pods in a row, and it then
/// sits in the first cache lines after the `Arc`'s counts instead of among the pod's fields.
#[derive(Clone, Debug)]
#[repr(C)]
pub struct PodInfo {
    /// Resolved priority.
    pub priority: i32,
    /// `pod.has_pod_affinity()`, kept here: node accounting asks it for every pod it adds.
    pub has_pod_affinity: bool,
    /// Scoring request: containers with the non-zero cpu default.
    pub nonzero_cpu: i64,
    /// Scoring request: containers with the non-zero memory default.
    pub nonzero_memory: i64,
    /// What the pod adds to a node it is on (containers only; v1.17 NodeInfo ignores init).
    pub node_request: Resources,
    /// Host ports of app containers.
    pub host_ports: Vec<HostPort>,
    /// Request of an incoming pod (`GetResourceRequest`: containers summed, max with each init).
    pub request: Resources,
    /// The pod as given (boxed where it was read: it is not copied again).
    pub pod: Box<Pod>,
    /// `namespace/name`.
    pub full_name: String,
    /// Namespace with the `default` fallback.
    pub namespace: String,
    /// Position in the input.
    pub input_index: usize,
}

impl PodInfo {
    /// Derives requests and ports. `priority` must already be resolved.
    pub fn new(pod: impl Into<Box<Pod>>, priority: i32, input_index: usize) -> PodInfo {
        let pod = pod.into();
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
        let has_pod_affinity = pod.has_pod_affinity();
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
            has_pod_affinity,
            input_index,
        }
    }

    /// Derives requests and ports as v1.35 does (`resource.PodRequests`, reference §4.6):
    /// sidecars (restartable init containers) add to the containers and to every later init
    /// container's use, the init maximum counts on the node too, `spec.overhead` is added, and
    /// pod-level `spec.resources.requests` replace the containers' cpu and memory. The scoring
    /// sums apply the 100m / 200Mi defaults per container, regular and init alike. Host ports
    /// include the sidecars'. `request` and `node_request` are the same amount.
    pub fn new_v135(pod: impl Into<Box<Pod>>, priority: i32, input_index: usize) -> PodInfo {
        let pod = pod.into();
        let request = pod_requests_v135(&pod, false);
        let nonzero = pod_requests_v135(&pod, true);
        let host_ports = pod
            .spec
            .containers
            .iter()
            .chain(pod.spec.init_containers.iter().filter(|c| c.is_sidecar()))
            .flat_map(|c| c.ports.iter().filter_map(HostPort::from_container_port))
            .collect();
        let has_pod_affinity = pod.has_pod_affinity();
        PodInfo {
            full_name: pod.full_name(),
            namespace: pod.metadata.namespace_or_default().to_string(),
            pod,
            priority,
            node_request: request.clone(),
            request,
            nonzero_cpu: nonzero.milli_cpu,
            nonzero_memory: nonzero.memory,
            host_ports,
            has_pod_affinity,
            input_index,
        }
    }

    /// Labels of the pod.
    pub fn labels(&self) -> &Labels {
        &self.pod.metadata.labels
    }
}

/// `resource.PodRequests` of v1.35 (reference §4.6). With `non_missing`, every container
/// without a cpu (memory) request counts 100m (200Mi) for it (`NonMissingContainerRequests`),
/// which is what scoring reads.
pub(crate) fn pod_requests_v135(pod: &Pod, non_missing: bool) -> Resources {
    let own = |c: &crate::model::pod::Container| {
        let mut r = c.resources.requests.0.clone();
        if non_missing {
            if !r.has_cpu {
                r.milli_cpu = DEFAULT_MILLI_CPU_REQUEST;
                r.has_cpu = true;
            }
            if !r.has_memory {
                r.memory = DEFAULT_MEMORY_REQUEST;
                r.has_memory = true;
            }
        }
        r
    };
    let mut reqs = Resources::default();
    for c in &pod.spec.containers {
        reqs.add(&own(c));
    }
    let mut sidecars = Resources::default();
    let mut init_max = Resources::default();
    for c in &pod.spec.init_containers {
        let r = own(c);
        if c.is_sidecar() {
            reqs.add(&r);
            sidecars.add(&r);
            init_max.max_with(&sidecars);
        } else {
            let mut used = r;
            used.add(&sidecars);
            init_max.max_with(&used);
        }
    }
    reqs.max_with(&init_max);
    if let Some(level) = pod.spec.resources.as_ref().map(|r| &r.requests.0) {
        // PodLevelResources: the pod-level request of cpu or memory replaces the containers'
        // aggregate. (Pod-level hugepages are not read: a stated simplification.)
        if level.has_cpu {
            reqs.milli_cpu = level.milli_cpu;
        }
        if level.has_memory {
            reqs.memory = level.memory;
        }
    }
    if let Some(overhead) = &pod.spec.overhead {
        reqs.add(&overhead.0);
    }
    reqs.pods = 0;
    reqs
}

/// What a pod adds to the sums of the node it is on, in a few words (see [`Cluster::add_to`]).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PodCounts {
    milli_cpu: i64,
    memory: i64,
    ephemeral_storage: i64,
    pods: i64,
    nonzero_cpu: i64,
    nonzero_memory: i64,
    /// No scalar resource, no host port and no pod (anti-)affinity: these numbers are all the
    /// pod adds.
    plain: bool,
}

impl PodCounts {
    fn of(info: &PodInfo) -> PodCounts {
        let r = &info.node_request;
        PodCounts {
            milli_cpu: r.milli_cpu,
            memory: r.memory,
            ephemeral_storage: r.ephemeral_storage,
            pods: r.pods,
            nonzero_cpu: info.nonzero_cpu,
            nonzero_memory: info.nonzero_memory,
            plain: r.scalars.is_empty() && info.host_ports.is_empty() && !info.has_pod_affinity,
        }
    }
}

/// A node's accounting just before a pod was added: see [`NodeInfo::mark`].
#[derive(Debug)]
pub struct AddMark {
    /// `requested` without its scalar list (the flags are not changed by adding pods).
    milli_cpu: i64,
    memory: i64,
    ephemeral_storage: i64,
    pod_count: i64,
    /// The scalar list, copied only when it was not empty.
    scalars: Option<Vec<(String, i64)>>,
    nonzero_cpu: i64,
    nonzero_memory: i64,
    pods: usize,
    pods_with_affinity: usize,
    used_ports: usize,
}

/// What a node object alone decides, worked out once when the node is added or updated:
/// shared between copies of its [`NodeInfo`], so a copy of a node costs only its pods'
/// accounting.
#[derive(Clone, Debug, Default)]
pub struct NodeFacts {
    /// The node as given.
    pub node: Node,
    /// Allocatable resources (`allocatable`, else `capacity`).
    pub allocatable: Resources,
    /// `GetZoneKey`: `region:\0:zone`, empty without zone labels.
    pub zone_key: String,
    /// Image name → size in bytes.
    pub images: HashMap<String, i64>,
    /// Controllers listed in `scheduler.alpha.kubernetes.io/preferAvoidPods`: (kind, uid).
    /// `None` when the annotation does not parse.
    pub avoid_controllers: Option<Vec<(String, String)>>,
}

impl NodeFacts {
    /// Works out everything derived from `node` alone.
    pub fn new(node: Node) -> NodeFacts {
        let mut images = HashMap::new();
        for img in &node.status.images {
            for name in &img.names {
                images.insert(name.clone(), img.size_bytes);
            }
        }
        NodeFacts {
            allocatable: node.allocatable().0,
            zone_key: zone_key(&node.metadata.labels),
            avoid_controllers: parse_avoid_pods(&node),
            images,
            node,
        }
    }
}

/// The numbers of a node's facts that every cycle reads for hundreds of nodes (the resource
/// filters and scores, SelectorSpread's zones), kept beside its accounting so that the hot loops
/// read one compact [`NodeInfo`] instead of also following its `facts` to a large object.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HotFacts {
    /// Allocatable cpu, in thousandths of a core.
    pub milli_cpu: i64,
    /// Allocatable memory, in bytes.
    pub memory: i64,
    /// Allocatable ephemeral storage, in bytes.
    pub ephemeral_storage: i64,
    /// Allowed pod count.
    pub pods: i64,
    /// Whether the node has a zone key (`NodeFacts::zone_key` is not empty).
    pub has_zone: bool,
}

impl HotFacts {
    fn of(facts: &NodeFacts) -> HotFacts {
        let a = &facts.allocatable;
        HotFacts {
            milli_cpu: a.milli_cpu,
            memory: a.memory,
            ephemeral_storage: a.ephemeral_storage,
            pods: a.pods,
            has_zone: !facts.zone_key.is_empty(),
        }
    }
}

/// One node and the pods on it (`nodeinfo.NodeInfo`).
///
/// Laid out by hand, one 64-byte cache line per group: every cycle reads hundreds of nodes once
/// per filter pass and once per score pass, and the score passes read only the first line (the
/// allocatable numbers and the non-zero requests); the filters add the second and third.
#[derive(Debug)]
#[repr(C, align(64))]
pub struct NodeInfo {
    // Line 1: what the resource scores read.
    /// Copies of the facts' most read numbers (always equal to them).
    hot: HotFacts,
    /// Sum of the scoring (non-zero) cpu requests.
    nonzero_cpu: i64,
    /// Sum of the scoring (non-zero) memory requests.
    nonzero_memory: i64,
    /// Its index.
    id: NodeId,
    // Line 2.
    /// Sum of the requests of pods on the node.
    requested: Resources,
    // Line 3.
    /// The node object and what it alone decides (shared: cloning a cluster or copying a node
    /// for preemption copies none of it). Replaced only by [`NodeInfo::set_facts`] and by
    /// copying another node's (`clone`, `clone_from`), both of which keep `hot` in step.
    facts: Arc<NodeFacts>,
    /// Pods on the node, in the order they arrived.
    pods: Vec<PodId>,
    /// Pods on the node that have pod affinity or anti-affinity.
    pods_with_affinity: Vec<PodId>,
    /// How many times the accounting above has changed: every change counts one, so along one
    /// history (no restore in between) a node with the same count and the same facts is the
    /// same node with the same pods. Copies start from their source's count.
    changes: u64,
    // Line 4.
    /// Host ports in use.
    used_ports: Vec<HostPort>,
}

impl NodeInfo {
    /// Its index ([`NodeId`]).
    #[inline]
    pub fn id(&self) -> NodeId {
        self.id
    }

    /// The sum of its pods' requests.
    #[inline]
    pub fn requested(&self) -> &Resources {
        &self.requested
    }

    /// The sum of its pods' scoring (non-zero) cpu requests.
    #[inline]
    pub fn nonzero_cpu(&self) -> i64 {
        self.nonzero_cpu
    }

    /// The sum of its pods' scoring (non-zero) memory requests.
    #[inline]
    pub fn nonzero_memory(&self) -> i64 {
        self.nonzero_memory
    }

    /// Its pods, in the order they arrived.
    #[inline]
    pub fn pods(&self) -> &[PodId] {
        &self.pods
    }

    /// Its pods with pod affinity or anti-affinity.
    #[inline]
    pub fn pods_with_affinity(&self) -> &[PodId] {
        &self.pods_with_affinity
    }

    /// The host ports in use.
    #[inline]
    pub fn used_ports(&self) -> &[HostPort] {
        &self.used_ports
    }
}

impl Clone for NodeInfo {
    fn clone(&self) -> Self {
        NodeInfo {
            facts: Arc::clone(&self.facts),
            hot: self.hot,
            id: self.id,
            requested: self.requested.clone(),
            nonzero_cpu: self.nonzero_cpu,
            nonzero_memory: self.nonzero_memory,
            pods: self.pods.clone(),
            pods_with_affinity: self.pods_with_affinity.clone(),
            used_ports: self.used_ports.clone(),
            changes: self.changes,
        }
    }

    /// Reuses `self`'s buffers (preemption copies one node after another into one scratch).
    fn clone_from(&mut self, source: &Self) {
        self.copy_facts_of(source);
        self.requested.clone_from(&source.requested);
        self.nonzero_cpu = source.nonzero_cpu;
        self.nonzero_memory = source.nonzero_memory;
        self.pods.clone_from(&source.pods);
        self.pods_with_affinity
            .clone_from(&source.pods_with_affinity);
        self.used_ports.clone_from(&source.used_ports);
        self.changes = source.changes;
    }
}

/// `utilnode.GetZoneKey` with v1.17's fallback to the GA labels.
pub(crate) fn zone_key(labels: &Labels) -> String {
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
        let facts = NodeFacts::new(node);
        NodeInfo {
            hot: HotFacts::of(&facts),
            facts: Arc::new(facts),
            id,
            requested: Resources::default(),
            nonzero_cpu: 0,
            nonzero_memory: 0,
            pods: Vec::new(),
            pods_with_affinity: Vec::new(),
            used_ports: Vec::new(),
            changes: 0,
        }
    }

    /// How many times the pods' accounting has changed (see the field).
    pub fn changes(&self) -> u64 {
        self.changes
    }

    /// The node object.
    pub fn object(&self) -> &Node {
        &self.facts.node
    }

    /// The node object and what it alone decides.
    pub fn facts(&self) -> &NodeFacts {
        &self.facts
    }

    /// The shared node facts themselves (a cache keyed by them holds them alive).
    pub(crate) fn facts_arc(&self) -> Arc<NodeFacts> {
        Arc::clone(&self.facts)
    }

    /// Whether `other` shares this node's facts (the same object, not an equal one).
    pub fn shares_facts_with(&self, other: &NodeInfo) -> bool {
        Arc::ptr_eq(&self.facts, &other.facts)
    }

    /// Replaces the node's facts (and their copies in [`NodeInfo::hot`]).
    pub fn set_facts(&mut self, facts: Arc<NodeFacts>) {
        self.hot = HotFacts::of(&facts);
        self.facts = facts;
    }

    /// Allocatable resources (`allocatable`, else `capacity`), scalar resources included.
    pub fn allocatable(&self) -> &Resources {
        &self.facts.allocatable
    }

    /// Allocatable cpu, memory, ephemeral storage and pods, and whether the node has a zone:
    /// the same numbers as [`NodeInfo::allocatable`] and [`NodeFacts::zone_key`], read without
    /// leaving the `NodeInfo` (the hot path).
    pub fn hot(&self) -> &HotFacts {
        &self.hot
    }

    /// The node's name.
    pub fn name(&self) -> &str {
        &self.facts.node.metadata.name
    }

    /// The node's labels.
    pub fn labels(&self) -> &Labels {
        &self.facts.node.metadata.labels
    }

    /// Adds a pod's accounting (`NodeInfo.AddPod`).
    pub fn add_pod(&mut self, id: PodId, info: &PodInfo) {
        self.add_plain(id, &PodCounts::of(info));
        self.requested.add_scalars(&info.node_request);
        if !info.host_ports.is_empty() {
            self.used_ports.extend(info.host_ports.iter().cloned());
        }
        if info.has_pod_affinity {
            self.pods_with_affinity.push(id);
        }
    }

    /// Whether `other` is this node with exactly the same accounting (the node facts shared,
    /// the same pods in the same order, the same sums and ports).
    #[cfg(test)]
    pub fn same_as(&self, other: &NodeInfo) -> bool {
        Arc::ptr_eq(&self.facts, &other.facts)
            && self.id == other.id
            && self.nonzero_cpu == other.nonzero_cpu
            && self.nonzero_memory == other.nonzero_memory
            && self.pods == other.pods
            && self.requested == other.requested
            && self.pods_with_affinity == other.pods_with_affinity
            && self.used_ports == other.used_ports
    }

    /// [`NodeInfo::add_pod`] of a plain pod (see [`PodCounts`]), from its counts: the numbers
    /// every pod adds, and the pod itself.
    fn add_plain(&mut self, id: PodId, c: &PodCounts) {
        self.changes += 1;
        let r = &mut self.requested;
        r.milli_cpu = r.milli_cpu.saturating_add(c.milli_cpu);
        r.memory = r.memory.saturating_add(c.memory);
        r.ephemeral_storage = r.ephemeral_storage.saturating_add(c.ephemeral_storage);
        r.pods = r.pods.saturating_add(c.pods);
        self.nonzero_cpu = self.nonzero_cpu.saturating_add(c.nonzero_cpu);
        self.nonzero_memory = self.nonzero_memory.saturating_add(c.nonzero_memory);
        self.pods.push(id);
    }

    /// Where [`NodeInfo::undo_add`] takes the node back to: taken just before some
    /// [`NodeInfo::add_pod`] calls.
    pub fn mark(&self) -> AddMark {
        let r = &self.requested;
        AddMark {
            milli_cpu: r.milli_cpu,
            memory: r.memory,
            ephemeral_storage: r.ephemeral_storage,
            pod_count: r.pods,
            scalars: (!r.scalars.is_empty()).then(|| r.scalars.clone()),
            nonzero_cpu: self.nonzero_cpu,
            nonzero_memory: self.nonzero_memory,
            pods: self.pods.len(),
            pods_with_affinity: self.pods_with_affinity.len(),
            used_ports: self.used_ports.len(),
        }
    }

    /// Undoes every [`NodeInfo::add_pod`] made since `mark` was taken (and nothing else
    /// happened), exactly: the same state as [`NodeInfo::remove_pod`] of those pods, without
    /// recounting the others.
    pub fn undo_add(&mut self, mark: AddMark) {
        self.changes += 1;
        let r = &mut self.requested;
        r.milli_cpu = mark.milli_cpu;
        r.memory = mark.memory;
        r.ephemeral_storage = mark.ephemeral_storage;
        r.pods = mark.pod_count;
        match mark.scalars {
            Some(scalars) => r.scalars = scalars,
            None => r.scalars.clear(),
        }
        self.nonzero_cpu = mark.nonzero_cpu;
        self.nonzero_memory = mark.nonzero_memory;
        self.pods.truncate(mark.pods);
        self.pods_with_affinity.truncate(mark.pods_with_affinity);
        self.used_ports.truncate(mark.used_ports);
    }

    /// Removes a pod's accounting: the exact inverse of [`NodeInfo::add_pod`] (the sums are
    /// recomputed over the pods left, in order, so saturation and scalar entries come out as if
    /// the pod had never been added). `pods` resolves pod ids. Returns false, changing nothing,
    /// when the pod is not on the node.
    pub fn remove_pod(&mut self, id: PodId, pods: &[Arc<PodInfo>]) -> bool {
        if !self.pods.contains(&id) {
            return false;
        }
        self.retain_pods(pods, |p| p != id);
        true
    }

    /// Keeps only the pods `keep` accepts (in order), recomputing the sums once.
    pub fn retain_pods(&mut self, pods: &[Arc<PodInfo>], mut keep: impl FnMut(PodId) -> bool) {
        self.changes += 1;
        self.pods.retain(|&p| keep(p));
        let kept = &self.pods;
        self.pods_with_affinity.retain(|p| kept.contains(p));
        self.recount(pods);
    }

    /// Makes `self` a copy of `source` with only the pods `keep` accepts (in order), reusing
    /// `self`'s buffers: the same result as `clone_from` then [`NodeInfo::retain_pods`], without
    /// copying the pods that go. Preemption does this for every candidate node.
    pub fn copy_keeping(
        &mut self,
        source: &NodeInfo,
        pods: &[Arc<PodInfo>],
        mut keep: impl FnMut(PodId) -> bool,
    ) {
        self.copy_facts_of(source);
        self.changes = source.changes + 1;
        self.pods.clear();
        self.pods
            .extend(source.pods.iter().copied().filter(|&p| keep(p)));
        let kept = &self.pods;
        self.pods_with_affinity.clear();
        self.pods_with_affinity.extend(
            source
                .pods_with_affinity
                .iter()
                .copied()
                .filter(|p| kept.contains(p)),
        );
        self.recount(pods);
    }

    /// Shares the node facts of `source`.
    fn copy_facts_of(&mut self, source: &NodeInfo) {
        if !Arc::ptr_eq(&self.facts, &source.facts) {
            self.facts = Arc::clone(&source.facts);
            self.hot = source.hot;
        }
        self.id = source.id;
    }

    /// Recomputes the sums and the used ports over `self.pods`, in order.
    fn recount(&mut self, pods: &[Arc<PodInfo>]) {
        self.used_ports.clear();
        self.requested = Resources::default();
        self.nonzero_cpu = 0;
        self.nonzero_memory = 0;
        for &p in &self.pods {
            if let Some(info) = pods.get(p) {
                self.requested.add(&info.node_request);
                self.nonzero_cpu = self.nonzero_cpu.saturating_add(info.nonzero_cpu);
                self.nonzero_memory = self.nonzero_memory.saturating_add(info.nonzero_memory);
                self.used_ports.extend(info.host_ports.iter().cloned());
            }
        }
    }

    /// The node's allowed pod count.
    pub fn allowed_pods(&self) -> i64 {
        self.hot.pods
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

/// The objects besides nodes and pods that the scheduler reads, as the inputs give them.
#[derive(Clone, Debug, Default)]
pub struct ClusterObjects {
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
    /// PodDisruptionBudgets (read by preemption).
    pub pdbs: Vec<crate::model::PodDisruptionBudget>,
    /// Namespaces' labels, by name (v1.35's InterPodAffinity `namespaceSelector`); a
    /// namespace not given has no labels.
    pub namespaces: BTreeMap<String, Labels>,
}

/// The cluster snapshot: nodes with their pods, every pod, and the selector sources.
#[derive(Clone, Debug, Default)]
pub struct Cluster {
    /// Nodes in input order.
    nodes: Vec<NodeInfo>,
    /// Every pod in input order (bound and pending), shared: cloning a cluster copies no pod.
    /// Pods are only ever added, through [`Cluster::add_pod`].
    pods: Vec<Arc<PodInfo>>,
    /// Each pod's priority, by pod id: a dense copy of `pods[p].priority`, which preemption
    /// reads for every pod of every node (one cache line holds sixteen).
    pub(crate) priorities: Vec<i32>,
    /// What each pod adds to a node's sums, by pod id, dense like `priorities`: preemption adds
    /// pods back to node copies one after another (see [`Cluster::add_to`]).
    pub(crate) counts: Vec<PodCounts>,
    /// The objects besides nodes and pods that the scheduler reads.
    objects: ClusterObjects,
    /// Node name → id.
    node_index: Arc<NodeIndex>,
    /// Image name → number of nodes reporting it (for ImageLocality).
    image_node_counts: HashMap<String, usize>,
    /// Where each pod is bound (or `None`).
    pod_node: Vec<Option<NodeId>>,
    /// Bound pods that have pod affinity or anti-affinity, in binding order.
    pods_with_affinity: Vec<PodId>,
    /// Number of nodes carrying at least one `PreferNoSchedule` taint.
    nodes_with_soft_taints: usize,
    /// Number of nodes carrying at least one `NoSchedule` or `NoExecute` taint.
    nodes_with_hard_taints: usize,
    /// Number of cordoned nodes (`spec.unschedulable`).
    nodes_cordoned: usize,
    /// PersistentVolumes, claims, storage classes and CSINodes.
    volumes: crate::model::volume::VolumeCatalog,
    /// Device classes, slices, claims and claim templates (Dynamic Resource Allocation).
    dra: crate::model::dra::catalog::DraCatalog,
    /// Bound pods counted per topology domain, for the affinity and spreading plugins.
    topology: TopologyIndex,
}

impl Cluster {
    /// An empty cluster (no node, no pod) with these objects.
    pub fn with_objects(objects: ClusterObjects) -> Cluster {
        Cluster {
            objects,
            ..Cluster::default()
        }
    }

    /// The objects besides nodes and pods, to change them (tests).
    #[cfg(test)]
    pub(crate) fn objects_mut(&mut self) -> &mut ClusterObjects {
        &mut self.objects
    }

    /// The nodes, to change their facts in place (tests).
    #[cfg(test)]
    pub(crate) fn nodes_mut(&mut self) -> &mut [NodeInfo] {
        &mut self.nodes
    }

    /// Room for `n` more pods.
    pub fn reserve_pods(&mut self, n: usize) {
        self.pods.reserve(n);
    }

    /// The nodes, in input order (index = [`NodeId`]).
    #[inline]
    pub fn nodes(&self) -> &[NodeInfo] {
        &self.nodes
    }

    /// Every pod, in input order (index = [`PodId`]), bound and pending.
    #[inline]
    pub fn pods(&self) -> &[Arc<PodInfo>] {
        &self.pods
    }

    /// The Services.
    pub fn services(&self) -> &[Service] {
        &self.objects.services
    }

    /// The ReplicationControllers: (namespace, selector).
    pub fn replication_controllers(&self) -> &[(String, Labels)] {
        &self.objects.replication_controllers
    }

    /// The ReplicaSets: (namespace, selector).
    pub fn replica_sets(&self) -> &[(String, Option<LabelSelector>)] {
        &self.objects.replica_sets
    }

    /// The StatefulSets: (namespace, selector).
    pub fn stateful_sets(&self) -> &[(String, Option<LabelSelector>)] {
        &self.objects.stateful_sets
    }

    /// The PriorityClasses.
    pub fn priority_classes(&self) -> &[PriorityClass] {
        &self.objects.priority_classes
    }

    /// The PodDisruptionBudgets.
    pub fn pdbs(&self) -> &[crate::model::PodDisruptionBudget] {
        &self.objects.pdbs
    }

    /// Namespaces' labels, by name (a namespace not given has none).
    pub fn namespaces(&self) -> &BTreeMap<String, Labels> {
        &self.objects.namespaces
    }

    /// Node name → id.
    #[inline]
    pub fn node_index(&self) -> &NodeIndex {
        &self.node_index
    }

    /// Bound pods with pod affinity or anti-affinity, in binding order.
    pub fn pods_with_affinity(&self) -> &[PodId] {
        &self.pods_with_affinity
    }

    /// PersistentVolumes, claims, storage classes and CSINodes.
    #[inline]
    pub fn volumes(&self) -> &crate::model::volume::VolumeCatalog {
        &self.volumes
    }

    /// The volume catalog, to bind a claim or give it a node.
    pub fn volumes_mut(&mut self) -> &mut crate::model::volume::VolumeCatalog {
        &mut self.volumes
    }

    /// The DRA objects.
    pub fn dra(&self) -> &crate::model::dra::catalog::DraCatalog {
        &self.dra
    }

    /// The DRA objects, to change them.
    pub fn dra_mut(&mut self) -> &mut crate::model::dra::catalog::DraCatalog {
        &mut self.dra
    }

    /// Bound pods counted per topology domain.
    #[inline]
    pub fn topology(&self) -> &TopologyIndex {
        &self.topology
    }

    /// Image name → number of nodes reporting it (for ImageLocality). Kept by the node
    /// mutations.
    pub fn image_node_counts(&self) -> &HashMap<String, usize> {
        &self.image_node_counts
    }

    /// Where each pod is bound (or `None`), by pod id. Kept by `bind`/`unbind`.
    pub fn pod_node(&self) -> &[Option<NodeId>] {
        &self.pod_node
    }

    /// How many nodes carry a `PreferNoSchedule` taint.
    pub fn nodes_with_soft_taints(&self) -> usize {
        self.nodes_with_soft_taints
    }

    /// How many nodes carry a `NoSchedule` or `NoExecute` taint.
    pub fn nodes_with_hard_taints(&self) -> usize {
        self.nodes_with_hard_taints
    }

    /// How many nodes are cordoned (`spec.unschedulable`).
    pub fn nodes_cordoned(&self) -> usize {
        self.nodes_cordoned
    }

    /// Adds a node; its pods come later through [`Cluster::bind`].
    pub fn add_node(&mut self, node: Node) -> NodeId {
        let id = self.nodes.len();
        Arc::make_mut(&mut self.node_index).insert(node.metadata.name.clone(), id);
        self.count_node(&node, true);
        self.topology.add_node(&node.metadata.labels);
        self.nodes.push(NodeInfo::new(node, id));
        id
    }

    /// Counts a node in (or out of) the cluster-wide counters: image node counts, tainted and
    /// cordoned nodes.
    fn count_node(&mut self, node: &Node, add: bool) {
        let mut names: Vec<&String> = node.status.images.iter().flat_map(|i| &i.names).collect();
        names.sort();
        names.dedup();
        for n in names {
            if add {
                *self.image_node_counts.entry(n.clone()).or_default() += 1;
            } else if let Some(c) = self.image_node_counts.get_mut(n) {
                *c = c.saturating_sub(1);
                if *c == 0 {
                    self.image_node_counts.remove(n);
                }
            }
        }
        use crate::model::taint::{NO_EXECUTE, NO_SCHEDULE, PREFER_NO_SCHEDULE};
        let taints = &node.spec.taints;
        let soft = taints.iter().any(|t| t.effect == PREFER_NO_SCHEDULE);
        let hard = taints
            .iter()
            .any(|t| t.effect == NO_SCHEDULE || t.effect == NO_EXECUTE);
        for (counter, on) in [
            (&mut self.nodes_with_soft_taints, soft),
            (&mut self.nodes_with_hard_taints, hard),
            (&mut self.nodes_cordoned, node.spec.unschedulable),
        ] {
            if on {
                *counter = if add {
                    *counter + 1
                } else {
                    counter.saturating_sub(1)
                };
            }
        }
    }

    /// Adds a pod (not yet on any node).
    pub fn add_pod(&mut self, info: PodInfo) -> PodId {
        self.topology.register_pod_keys(&info.pod, &self.nodes);
        self.priorities.push(info.priority);
        self.counts.push(PodCounts::of(&info));
        self.pods.push(Arc::new(info));
        self.pod_node.push(None);
        self.pods.len() - 1
    }

    /// Adds pod `pod`'s accounting to `node` (a copy the caller owns): the same as
    /// [`NodeInfo::add_pod`], read from the dense counts when the pod has nothing else to add.
    pub fn add_to(&self, node: &mut NodeInfo, pod: PodId) {
        match self.counts.get(pod) {
            Some(counts) if counts.plain => node.add_plain(pod, counts),
            _ => node.add_pod(pod, &self.pods[pod]),
        }
    }

    /// A pod's resolved priority.
    pub fn priority(&self, pod: PodId) -> i32 {
        match self.priorities.get(pod) {
            Some(&p) => p,
            None => self.pods[pod].priority,
        }
    }

    /// The Services in the pod's namespace whose (non-empty) selector selects the pod, in input
    /// order (`GetPodServices`).
    pub fn services_selecting<'a>(
        &'a self,
        pod: &'a PodInfo,
    ) -> impl Iterator<Item = &'a Service> + 'a {
        self.objects.services.iter().filter(move |s| {
            s.metadata.namespace_or_default() == pod.namespace
                && !s.spec.selector.is_empty()
                && crate::model::selector::set_matches(&s.spec.selector, pod.labels())
        })
    }

    /// Puts a pod on a node and updates the node's accounting. A pod already bound elsewhere is
    /// unbound first; unknown pod or node ids change nothing.
    pub fn bind(&mut self, pod: PodId, node: NodeId) {
        if pod >= self.pods.len() || node >= self.nodes.len() {
            return;
        }
        if self.pod_node[pod].is_some() {
            self.unbind(pod);
        }
        self.pod_node[pod] = Some(node);
        let info = &self.pods[pod];
        if info.has_pod_affinity {
            self.pods_with_affinity.push(pod);
        }
        self.topology.bind(info, node, &self.nodes);
        self.nodes[node].add_pod(pod, info);
    }

    /// Takes a pod off its node: the exact inverse of [`Cluster::bind`] (node accounting, the
    /// affinity lists and the topology index end as if the pod had never been bound). Returns
    /// the node it was on; `None`, changing nothing, when it was not bound.
    pub fn unbind(&mut self, pod: PodId) -> Option<NodeId> {
        let node = self.pod_node.get(pod).copied().flatten()?;
        self.pod_node[pod] = None;
        if let Some(i) = self.pods_with_affinity.iter().position(|&p| p == pod) {
            self.pods_with_affinity.remove(i);
        }
        let info = Arc::clone(&self.pods[pod]);
        self.topology.unbind(&info, node);
        if let Some(n) = self.nodes.get_mut(node) {
            n.remove_pod(pod, &self.pods);
        }
        Some(node)
    }

    /// Replaces a node's object (labels, taints, unschedulable, allocatable, images and
    /// annotations may all change), keeping its id and its pods, and brings every derived value
    /// up to date: allocatable, zone key, images, preferAvoidPods, the cluster-wide counters, the
    /// node index (if renamed) and the topology domains of the node and its pods. An unknown id
    /// changes nothing.
    pub fn update_node(&mut self, node: NodeId, new: Node) {
        let Some(facts) = self.nodes.get(node).map(|n| Arc::clone(&n.facts)) else {
            return;
        };
        let old = &facts.node;
        self.count_node(old, false);
        self.count_node(&new, true);
        if old.metadata.name != new.metadata.name {
            let index = Arc::make_mut(&mut self.node_index);
            if index.get(&old.metadata.name) == Some(&node) {
                index.remove(&old.metadata.name);
            }
            index.insert(new.metadata.name.clone(), node);
        }
        let relabel = old.metadata.labels != new.metadata.labels;
        let pods = if relabel {
            self.nodes[node].pods.clone()
        } else {
            Vec::new()
        };
        for &p in &pods {
            self.topology.count(&self.pods[p], node, -1);
        }
        self.nodes[node].set_facts(Arc::new(NodeFacts::new(new)));
        if relabel {
            self.topology.reintern(&self.nodes);
        }
        for &p in &pods {
            self.topology.count(&self.pods[p], node, 1);
        }
    }

    /// Unbinds every pod on a node and removes the node. Returns those pods in node order. The
    /// ids of the nodes after it shift down by one everywhere (`NodeInfo::id`, `node_index`,
    /// `pod_node`, the topology index). An unknown id changes nothing and returns no pods.
    pub fn remove_node(&mut self, node: NodeId) -> Vec<PodId> {
        if node >= self.nodes.len() {
            return Vec::new();
        }
        let pods = self.nodes[node].pods.clone();
        for &p in &pods {
            self.pod_node[p] = None;
            let info = Arc::clone(&self.pods[p]);
            self.topology.unbind(&info, node);
        }
        let pod_node = &self.pod_node;
        self.pods_with_affinity.retain(|&p| pod_node[p].is_some());
        let old = self.nodes.remove(node);
        for n in &mut self.nodes[node..] {
            n.id -= 1;
        }
        self.count_node(old.object(), false);
        let index = Arc::make_mut(&mut self.node_index);
        if index.get(old.name()) == Some(&node) {
            index.remove(old.name());
        }
        #[allow(
            clippy::iter_over_hash_type,
            reason = "each id is shifted on its own: the order is not seen"
        )]
        for id in index.values_mut() {
            if *id > node {
                *id -= 1;
            }
        }
        for n in self.pod_node.iter_mut().flatten() {
            if *n > node {
                *n -= 1;
            }
        }
        self.topology.remove_node(node, &self.nodes);
        pods
    }

    /// The node order of v1.17's node tree: zones by first appearance, one node from each zone
    /// in turn (zones A = {a1, a2, a3}, B = {b1} give a1, b1, a2, a3).
    pub fn node_tree_order(&self) -> Vec<NodeId> {
        let mut zones: Vec<(&str, Vec<NodeId>)> = Vec::new();
        let mut zone_pos: BTreeMap<&str, usize> = BTreeMap::new();
        for n in &self.nodes {
            let key = n.facts.zone_key.as_str();
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
pub(crate) type DomainCounts = HashMap<u32, i64>;

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
#[allow(
    clippy::enum_variant_names,
    reason = "the Kubernetes words: required or preferred, affinity or anti-affinity"
)]
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
    /// [`group_hash`] of a group's namespace and labels → the groups with that hash: a bound
    /// pod finds its group without copying its namespace and labels into a key.
    group_ids: HashMap<u64, Vec<usize>>,
    /// Distinct affinity terms of bound pods.
    pub terms: Vec<TermGroup>,
    term_ids: HashMap<(TermKind, String, i64, String), usize>,
    /// Per term: how many bound pods carry it (the term is dropped at 0).
    term_pods: Vec<i64>,
}

/// The hash a label group is found by in [`TopologyIndex`]: of its namespace and labels.
fn group_hash(namespace: &str, labels: &Labels) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = NameHash::default();
    namespace.hash(&mut h);
    labels.hash(&mut h);
    h.finish()
}

/// Adds `delta` to a count, dropping the entry at 0 so the map equals a never-counted one.
fn adjust<K: std::hash::Hash + Eq + Copy>(counts: &mut HashMap<K, i64>, k: K, delta: i64) {
    let v = counts.entry(k).or_default();
    *v += delta;
    if *v == 0 {
        counts.remove(&k);
    }
}

/// [`adjust`] for a `BTreeMap`.
fn adjust_ordered<K: Ord + Copy>(counts: &mut BTreeMap<K, i64>, k: K, delta: i64) {
    let v = counts.entry(k).or_default();
    *v += delta;
    if *v == 0 {
        counts.remove(&k);
    }
}

/// The identity of a distinct term in [`TopologyIndex`].
fn term_key(
    kind: TermKind,
    namespace: &str,
    weight: i64,
    term: &PodAffinityTerm,
) -> (TermKind, String, i64, String) {
    (kind, namespace.to_string(), weight, format!("{term:?}"))
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
        self.count(info, node, 1);
    }

    /// Takes a bound pod out of the counts and drops its label group and terms when no bound
    /// pod is left in them.
    fn unbind(&mut self, info: &PodInfo, node: NodeId) {
        self.count(info, node, -1);
        if let Some(gid) = self.group_of(&info.namespace, info.labels()) {
            if self.groups[gid].node_pods.is_empty() {
                // The last group moves into the freed place.
                let last = self.groups.len() - 1;
                self.leave_group(gid);
                if gid != last {
                    self.leave_group(last);
                }
                self.groups.swap_remove(gid);
                if gid != last {
                    self.enter_group(gid);
                }
            }
        }
        for (kind, weight, term) in pod_terms(&info.pod) {
            let tkey = term_key(kind, &info.namespace, weight, term);
            let Some(&tid) = self.term_ids.get(&tkey) else {
                continue;
            };
            if self.term_pods[tid] > 0 {
                continue;
            }
            self.term_ids.remove(&tkey);
            self.terms.swap_remove(tid);
            self.term_pods.swap_remove(tid);
            if let Some(t) = self.terms.get(tid) {
                self.term_ids
                    .insert(term_key(t.kind, &t.namespace, t.weight, &t.term), tid);
            }
        }
    }

    /// The label group of `namespace` and `labels`, if some bound pod has them.
    fn group_of(&self, namespace: &str, labels: &Labels) -> Option<usize> {
        self.group_ids
            .get(&group_hash(namespace, labels))?
            .iter()
            .copied()
            .find(|&g| self.groups[g].namespace == namespace && self.groups[g].labels == *labels)
    }

    /// Enters group `gid` (at its place in `groups`) in `group_ids`.
    fn enter_group(&mut self, gid: usize) {
        let g = &self.groups[gid];
        let hash = group_hash(&g.namespace, &g.labels);
        self.group_ids.entry(hash).or_default().push(gid);
    }

    /// Takes group `gid` out of `group_ids`.
    fn leave_group(&mut self, gid: usize) {
        let g = &self.groups[gid];
        let hash = group_hash(&g.namespace, &g.labels);
        if let Some(ids) = self.group_ids.get_mut(&hash) {
            ids.retain(|&i| i != gid);
            if ids.is_empty() {
                self.group_ids.remove(&hash);
            }
        }
    }

    /// Adds `delta` (±1) occurrences of a pod on a node to its label group and its terms,
    /// creating them when missing. The pod's keys must be registered.
    fn count(&mut self, info: &PodInfo, node: NodeId, delta: i64) {
        let gid = match self.group_of(&info.namespace, info.labels()) {
            Some(g) => g,
            None => {
                self.groups.push(LabelGroup {
                    namespace: info.namespace.clone(),
                    labels: info.labels().clone(),
                    counts: vec![DomainCounts::new(); self.keys.len()],
                    node_pods: BTreeMap::new(),
                });
                let g = self.groups.len() - 1;
                self.enter_group(g);
                g
            }
        };
        let g = &mut self.groups[gid];
        adjust_ordered(&mut g.node_pods, node, delta);
        for (k, counts) in self.keys.iter().zip(g.counts.iter_mut()) {
            if let Some(v) = k.node_value.get(node).copied().flatten() {
                adjust(counts, v, delta);
            }
        }
        for (kind, weight, term) in pod_terms(&info.pod) {
            let tkey = term_key(kind, &info.namespace, weight, term);
            let tid = match self.term_ids.get(&tkey) {
                Some(&t) => t,
                None => {
                    let Some(&key) = self.key_ids.get(&term.topology_key) else {
                        continue;
                    };
                    self.terms.push(TermGroup {
                        kind,
                        namespace: info.namespace.clone(),
                        weight,
                        term: term.clone(),
                        key,
                        counts: DomainCounts::new(),
                    });
                    self.term_pods.push(0);
                    self.term_ids.insert(tkey, self.terms.len() - 1);
                    self.terms.len() - 1
                }
            };
            self.term_pods[tid] += delta;
            let t = &mut self.terms[tid];
            if let Some(v) = self.keys[t.key].node_value.get(node).copied().flatten() {
                adjust(&mut t.counts, v, delta);
            }
        }
    }

    /// Re-interns every key's values from the nodes' labels (first appearance in node order,
    /// as a cluster built from scratch would) and renumbers the counts accordingly. Values no
    /// node carries any more disappear; they hold no pods by then.
    fn reintern(&mut self, nodes: &[NodeInfo]) {
        for (ki, old) in self.keys.iter_mut().enumerate() {
            let mut k = TopologyKey {
                key: std::mem::take(&mut old.key),
                ..TopologyKey::default()
            };
            for n in nodes {
                k.push_node(n.labels());
            }
            let same = k.values == old.values;
            let map: Vec<Option<u32>> = if same {
                Vec::new()
            } else {
                old.values
                    .iter()
                    .map(|v| k.value_ids.get(v).copied())
                    .collect()
            };
            *old = k;
            if same {
                continue;
            }
            let remap = |counts: &mut DomainCounts| {
                *counts = counts
                    .drain()
                    .filter_map(|(v, c)| Some((map.get(v as usize).copied().flatten()?, c)))
                    .collect();
            };
            for g in &mut self.groups {
                remap(&mut g.counts[ki]);
            }
            for t in self.terms.iter_mut().filter(|t| t.key == ki) {
                remap(&mut t.counts);
            }
        }
    }

    /// Forgets a removed node (it must hold no pods): later node ids shift down by one.
    fn remove_node(&mut self, node: NodeId, nodes: &[NodeInfo]) {
        for g in &mut self.groups {
            g.node_pods = std::mem::take(&mut g.node_pods)
                .into_iter()
                .filter(|&(n, _)| n != node)
                .map(|(n, c)| (if n > node { n - 1 } else { n }, c))
                .collect();
        }
        self.reintern(nodes);
    }
}

/// Every pod affinity term of a pod with its kind and weight (0 for required terms).
pub(crate) fn pod_terms(pod: &Pod) -> Vec<(TermKind, i64, &PodAffinityTerm)> {
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
    use std::mem::{offset_of, size_of};

    #[test]
    fn a_node_info_keeps_its_groups_on_their_cache_lines() {
        // Line 1: what LeastRequested, BalancedResourceAllocation and the fit filters read.
        assert_eq!(offset_of!(NodeInfo, hot), 0);
        assert!(offset_of!(NodeInfo, nonzero_memory) + size_of::<i64>() <= 64);
        assert!(offset_of!(NodeInfo, id) + size_of::<NodeId>() <= 64);
        // Line 2: the requests; line 3 starts with the facts and the pod list.
        assert_eq!(offset_of!(NodeInfo, requested), 64);
        assert!(size_of::<Resources>() <= 64);
        assert_eq!(offset_of!(NodeInfo, facts), 128);
        assert!(offset_of!(NodeInfo, changes) + size_of::<u64>() <= 192);
        assert_eq!(std::mem::align_of::<NodeInfo>(), 64);
    }

    #[test]
    fn the_hot_copies_follow_the_facts() {
        let mut info = NodeInfo::new(node("a", None), 0);
        assert!(!info.hot().has_zone);
        let n: Node = serde_json::from_value(serde_json::json!({
            "metadata": {"name": "a", "labels": {ZONE_LABEL: "z1"}},
            "status": {"allocatable": {"cpu": "3", "pods": 7}}
        }))
        .unwrap();
        info.set_facts(Arc::new(NodeFacts::new(n)));
        assert_eq!(info.hot().milli_cpu, 3000);
        assert_eq!(info.hot().pods, 7);
        assert_eq!(info.allowed_pods(), 7);
        assert!(info.hot().has_zone);
        let mut copy = NodeInfo::new(node("b", None), 0);
        copy.clone_from(&info);
        assert_eq!(copy.hot(), info.hot());
        assert_eq!(info.clone().hot(), info.hot());
    }

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
    fn undoing_adds_restores_the_node_exactly_and_copies_keep_only_what_is_asked() {
        use crate::testing::pod;
        use serde_json::json;
        let spec = |cpu: &str, port: Option<i32>, gpu: Option<i32>| {
            let mut requests = json!({"cpu": cpu});
            if let Some(g) = gpu {
                requests["example.com/gpu"] = json!(g);
            }
            let mut c = json!({"name": "c", "resources": {"requests": requests}});
            if let Some(p) = port {
                c["ports"] = json!([{"containerPort": p, "hostPort": p}]);
            }
            pod(json!({"spec": {"containers": [c]}}))
        };
        let mut c = Cluster::default();
        c.add_node(node("n", None));
        let first = c.add_pod(PodInfo::new(spec("1", Some(80), None), 0, 0));
        c.bind(first, 0);
        let before = c.nodes[0].clone();
        let added = [
            c.add_pod(PodInfo::new(spec("2", Some(81), Some(1)), 0, 1)),
            c.add_pod(PodInfo::new(spec("500m", None, Some(2)), 0, 2)),
        ];
        let mut info = c.nodes[0].clone();
        let mark = info.mark();
        for &p in &added {
            info.add_pod(p, &c.pods[p]);
        }
        assert_eq!(info.requested.milli_cpu, 3500);
        assert_eq!(info.requested.scalar("example.com/gpu"), 3);
        assert_eq!(info.used_ports.len(), 2);
        info.undo_add(mark);
        assert!(info.same_as(&before), "{info:?}");
        // A copy keeping only `first` of a node holding all three pods.
        let mut all = before.clone();
        for &p in &added {
            all.add_pod(p, &c.pods[p]);
        }
        let mut copy = c.nodes[0].clone();
        copy.copy_keeping(&all, &c.pods, |p| p == first);
        assert!(copy.same_as(&before), "{copy:?}");
        // Cluster::add_to agrees with add_pod for a plain pod and for pods with ports or
        // scalars: 1 + 2 + 0.5 + 0.25 cpu.
        let plain = c.add_pod(PodInfo::new(spec("250m", None, None), 0, 3));
        let mut by_add_to = before.clone();
        for p in [added[0], added[1], plain] {
            c.add_to(&mut by_add_to, p);
        }
        let mut by_add_pod = before.clone();
        for p in [added[0], added[1], plain] {
            by_add_pod.add_pod(p, &c.pods[p]);
        }
        assert!(by_add_to.same_as(&by_add_pod), "{by_add_to:?}");
        assert_eq!(by_add_to.requested.milli_cpu, 3750);
        assert_eq!(by_add_to.pods, [first, added[0], added[1], plain]);
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

    fn web_pod(name: &str) -> PodInfo {
        let p = crate::testing::pod(serde_json::json!({
            "metadata": {"name": name, "labels": {"app": "web"}},
            "spec": {
                "containers": [{"name": "c",
                    "resources": {"requests": {"cpu": "500m", "example.com/gpu": "1"}},
                    "ports": [{"containerPort": 80, "hostPort": 8080}]}],
                "affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                    {"topologyKey": ZONE_LABEL, "labelSelector": {"matchLabels": {"app": "web"}}}
                ]}}
            }
        }));
        PodInfo::new(p, 0, 0)
    }

    #[test]
    fn unbind_restores_requests_and_frees_ports() {
        let mut c = Cluster::default();
        c.add_node(node("a", Some("A")));
        let id = c.add_pod(web_pod("web"));
        c.bind(id, 0);
        assert_eq!(c.nodes[0].requested.milli_cpu, 500);
        assert_eq!(c.nodes[0].used_ports.len(), 1);
        assert_eq!(c.topology.groups.len(), 1);
        assert_eq!(c.unbind(id), Some(0));
        let n = &c.nodes[0];
        assert_eq!(n.requested, Resources::default());
        assert_eq!((n.nonzero_cpu, n.nonzero_memory), (0, 0));
        assert!(n.used_ports.is_empty() && n.pods.is_empty() && n.pods_with_affinity.is_empty());
        assert!(c.pods_with_affinity.is_empty());
        assert!(c.topology.groups.is_empty() && c.topology.terms.is_empty());
        assert_eq!(c.pod_node[id], None);
        assert_eq!(c.unbind(id), None, "a second unbind is a no-op");
        assert_eq!(c.unbind(99), None, "an unknown pod is a no-op");
        c.bind(id, 0);
        assert_eq!(c.nodes[0].used_ports.len(), 1, "the port was freed");
        assert_eq!(c.nodes[0].requested.milli_cpu, 500);
    }

    #[test]
    fn remove_node_shifts_later_node_ids() {
        let mut c = Cluster::default();
        for name in ["a", "b", "c"] {
            c.add_node(node(name, Some(name)));
        }
        let on_a = c.add_pod(web_pod("x"));
        let on_c = c.add_pod(web_pod("y"));
        c.bind(on_a, 0);
        c.bind(on_c, 2);
        assert_eq!(c.remove_node(0), vec![on_a]);
        assert_eq!(c.pod_node[on_a], None);
        assert_eq!(c.pod_node[on_c], Some(1));
        assert_eq!(c.nodes[1].id, 1);
        assert_eq!(c.nodes[1].name(), "c");
        assert_eq!(c.node_index.get("c"), Some(&1));
        assert_eq!(c.node_index.get("a"), None);
        assert_eq!(c.pods_with_affinity, vec![on_c]);
        let zone = c.topology.key_id(ZONE_LABEL).expect("registered");
        assert_eq!(c.topology.keys[zone].values, ["b", "c"]);
        assert_eq!(
            c.remove_node(7),
            Vec::<PodId>::new(),
            "an unknown node is a no-op"
        );
        assert_eq!(c.nodes.len(), 2);
    }

    #[test]
    fn a_clone_is_a_checkpoint_unaffected_by_later_mutations() {
        let mut c = Cluster::default();
        c.add_node(node("a", Some("A")));
        let id = c.add_pod(web_pod("web"));
        c.bind(id, 0);
        let checkpoint = c.clone();
        assert!(Arc::ptr_eq(&c.pods[id], &checkpoint.pods[id]));
        c.update_node(0, node("a", Some("B")));
        c.unbind(id);
        assert_eq!(checkpoint.nodes[0].facts.zone_key, ":\x00:A");
        assert_eq!(checkpoint.nodes[0].pods, vec![id]);
        assert_eq!(checkpoint.pod_node[id], Some(0));
        assert_eq!(c.nodes[0].facts.zone_key, ":\x00:B");
    }
}

/// The affinity and spreading plugins' fast paths (this index) against their straightforward
/// references, on random small clusters.
#[cfg(test)]
mod index_tests {
    use super::*;
    use crate::rng::Rng;
    use crate::testing::{filter_all_with, node, pod, score_all_with};
    use crate::v117::predicates::{even_pods_spread as eps, match_inter_pod_affinity as mipa};
    use crate::v117::priorities::{even_pods_spread as epsp, inter_pod_affinity as ipa};
    use crate::v117::AlgorithmSettings;
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
        pod(random_pod_json(r, name, incoming))
    }

    fn random_pod_json(r: &mut Rng, name: String, incoming: bool) -> Value {
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
        json!({"metadata": {"name": name, "namespace": ns, "labels": labels}, "spec": spec})
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
            let settings = AlgorithmSettings {
                hard_pod_affinity_weight: r.intn(3) as i64,
                ..AlgorithmSettings::default()
            };
            for &p in &incoming {
                let p = Pod::clone(&c.pods[p].pod);
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

    const IMAGES: [(&str, i64); 3] = [
        ("img-a", 300 << 20),
        ("img-b", 50 << 20),
        ("img-c", 900 << 20),
    ];

    /// A node with random labels (hostname = name), taints, cordon, allocatable, images and
    /// preferAvoidPods.
    fn random_node(r: &mut Rng, name: &str) -> crate::model::Node {
        let mut labels = json!({});
        if r.intn(5) != 0 {
            let z = pick(r, &["a", "b", "c"]);
            labels["zone"] = json!(z);
            if r.intn(3) != 0 {
                labels[ZONE_LABEL] = json!(z);
            }
        }
        if r.intn(6) != 0 {
            labels["kubernetes.io/hostname"] = json!(name);
        }
        if r.intn(2) == 0 {
            labels["rack"] = json!(pick(r, &["r1", "r2"]));
        }
        let taints: Vec<Value> = [
            json!({"key": "dedicated", "value": "x", "effect": "NoSchedule"}),
            json!({"key": "soft", "effect": "PreferNoSchedule"}),
            json!({"key": "evict", "effect": "NoExecute"}),
        ]
        .into_iter()
        .filter(|_| r.intn(4) == 0)
        .collect();
        let mut allocatable = json!({"cpu": pick(r, &["1", "2", "4"]),
            "memory": pick(r, &["1Gi", "4Gi"]), "pods": pick(r, &["2", "5", "110"])});
        if r.intn(3) == 0 {
            allocatable["example.com/gpu"] = json!(pick(r, &["1", "2"]));
        }
        let images: Vec<Value> = IMAGES
            .iter()
            .filter(|_| r.intn(2) == 0)
            .map(|(n, size)| json!({"names": [n, format!("{n}:v1")], "sizeBytes": size}))
            .collect();
        let mut annotations = json!({});
        if r.intn(4) == 0 {
            annotations["scheduler.alpha.kubernetes.io/preferAvoidPods"] = json!(
                r#"{"preferAvoidPods":[{"podSignature":{"podController":{"kind":"ReplicaSet","uid":"u1"}}}]}"#
            );
        }
        node(json!({
            "metadata": {"name": name, "labels": labels, "annotations": annotations},
            "spec": {"taints": taints, "unschedulable": r.intn(6) == 0},
            "status": {"allocatable": allocatable, "images": images}
        }))
    }

    /// [`random_pod_json`] plus containers with requests, host ports and images, tolerations
    /// and a ReplicaSet owner.
    fn random_full_pod(r: &mut Rng, name: String, incoming: bool) -> crate::model::Pod {
        let mut v = random_pod_json(r, name, incoming);
        let containers: Vec<Value> = (0..1 + r.intn(2))
            .map(|i| {
                let mut requests = json!({});
                if r.intn(4) != 0 {
                    requests["cpu"] = json!(pick(r, &["100m", "500m", "1"]));
                }
                if r.intn(4) != 0 {
                    requests["memory"] = json!(pick(r, &["100Mi", "1Gi"]));
                }
                if r.intn(5) == 0 {
                    requests["example.com/gpu"] = json!("1");
                }
                let mut c = json!({"name": format!("c{i}"), "resources": {"requests": requests},
                    "image": pick(r, &["img-a", "img-b:v1", "img-c", "other"])});
                if r.intn(3) == 0 {
                    c["ports"] = json!([{"containerPort": 80,
                        "hostPort": if r.intn(2) == 0 { 8080 } else { 9090 }}]);
                }
                c
            })
            .collect();
        v["spec"]["containers"] = json!(containers);
        if r.intn(2) == 0 {
            v["spec"]["tolerations"] = json!([{"key": pick(r, &["dedicated", "soft", "evict"]),
                "operator": "Exists"}]);
        }
        if r.intn(3) == 0 {
            v["metadata"]["ownerReferences"] = json!([{"kind": "ReplicaSet", "name": "rs",
                "uid": "u1", "controller": true}]);
        }
        pod(v)
    }

    /// The topology index with value ids, group and term order taken out: what a cluster
    /// built in a different order must share.
    type DomainsByName = BTreeMap<String, i64>;
    #[allow(clippy::type_complexity)]
    fn normalized_topology(
        c: &Cluster,
    ) -> (
        Vec<(String, Vec<String>, Vec<Option<u32>>)>,
        BTreeMap<String, (Vec<DomainsByName>, BTreeMap<NodeId, i64>)>,
        BTreeMap<String, (usize, DomainsByName, i64)>,
    ) {
        let t = &c.topology;
        let named = |key: usize, counts: &DomainCounts| -> DomainsByName {
            counts
                .iter()
                .map(|(&v, &n)| (t.keys[key].values[v as usize].clone(), n))
                .collect()
        };
        let keys = t
            .keys
            .iter()
            .map(|k| (k.key.clone(), k.values.clone(), k.node_value.clone()))
            .collect();
        let groups = t
            .groups
            .iter()
            .map(|g| {
                let counts = (0..t.keys.len()).map(|k| named(k, &g.counts[k])).collect();
                (
                    format!("{}/{:?}", g.namespace, g.labels),
                    (counts, g.node_pods.clone()),
                )
            })
            .collect();
        let terms = t
            .terms
            .iter()
            .zip(&t.term_pods)
            .map(|(g, &n)| {
                let k = term_key(g.kind, &g.namespace, g.weight, &g.term);
                (format!("{k:?}"), (g.key, named(g.key, &g.counts), n))
            })
            .collect();
        assert_eq!(
            t.groups.len(),
            t.group_ids.values().map(Vec::len).sum::<usize>()
        );
        for (i, g) in t.groups.iter().enumerate() {
            assert_eq!(t.group_of(&g.namespace, &g.labels), Some(i));
        }
        for (i, g) in t.terms.iter().enumerate() {
            assert_eq!(
                t.term_ids[&term_key(g.kind, &g.namespace, g.weight, &g.term)],
                i
            );
        }
        (keys, groups, terms)
    }

    /// Every derived field of `a` equals `b`'s (`b` built from scratch).
    fn assert_same_derived_state(a: &Cluster, b: &Cluster, ctx: &str) {
        assert_eq!(a.nodes.len(), b.nodes.len(), "{ctx}");
        for (i, (x, y)) in a.nodes.iter().zip(&b.nodes).enumerate() {
            let ctx = format!("{ctx}, node {i}");
            assert_eq!((x.id, y.id), (i, i), "{ctx}");
            assert_eq!(x.object(), y.object(), "{ctx}");
            assert_eq!(x.allocatable(), y.allocatable(), "{ctx}");
            assert_eq!(x.requested, y.requested, "{ctx}");
            assert_eq!(x.nonzero_cpu, y.nonzero_cpu, "{ctx}");
            assert_eq!(x.nonzero_memory, y.nonzero_memory, "{ctx}");
            assert_eq!(x.pods, y.pods, "{ctx}");
            assert_eq!(x.pods_with_affinity, y.pods_with_affinity, "{ctx}");
            assert_eq!(x.used_ports, y.used_ports, "{ctx}");
            assert_eq!(x.facts.zone_key, y.facts.zone_key, "{ctx}");
            assert_eq!(x.facts.images, y.facts.images, "{ctx}");
            assert_eq!(
                x.facts.avoid_controllers, y.facts.avoid_controllers,
                "{ctx}"
            );
        }
        assert_eq!(a.node_index, b.node_index, "{ctx}");
        assert_eq!(a.image_node_counts, b.image_node_counts, "{ctx}");
        assert_eq!(a.pod_node, b.pod_node, "{ctx}");
        assert_eq!(a.pods_with_affinity, b.pods_with_affinity, "{ctx}");
        assert_eq!(a.nodes_with_soft_taints, b.nodes_with_soft_taints, "{ctx}");
        assert_eq!(a.nodes_with_hard_taints, b.nodes_with_hard_taints, "{ctx}");
        assert_eq!(a.nodes_cordoned, b.nodes_cordoned, "{ctx}");
        let names = |c: &Cluster| -> Vec<String> {
            c.node_tree_order()
                .into_iter()
                .map(|n| c.nodes[n].name().to_string())
                .collect()
        };
        assert_eq!(names(a), names(b), "{ctx}");
        assert_eq!(normalized_topology(a), normalized_topology(b), "{ctx}");
    }

    #[test]
    fn mutations_match_a_cluster_built_from_scratch() {
        use crate::model::{LabelSelector, Service};
        let mut r = Rng::new(29);
        let filters: Vec<(&str, Box<dyn crate::v117::FilterPlugin>)> =
            crate::v117::predicates::ordering()
                .into_iter()
                .filter_map(|n| Some((n, crate::v117::predicates::builtin(n)?)))
                .collect();
        let scores: Vec<(&str, Box<dyn crate::v117::ScorePlugin>)> =
            crate::v117::priorities::names()
                .into_iter()
                .filter_map(|(n, _)| Some((n, crate::v117::priorities::builtin(n)?)))
                .collect();
        assert!(filters.len() >= 17 && scores.len() >= 13);
        for case in 0..150 {
            let mut c = Cluster::default();
            let service: Service = serde_json::from_value(
                json!({"metadata": {"name": "s"}, "spec": {"selector": {"app": "x"}}}),
            )
            .expect("service");
            c.objects.services.push(service);
            let rs: LabelSelector =
                serde_json::from_value(json!({"matchLabels": {"app": "y"}})).expect("selector");
            c.objects.replica_sets.push(("default".into(), Some(rs)));
            let mut names = 0;
            let mut new_name = || {
                names += 1;
                format!("n{names}")
            };
            for _ in 0..1 + r.intn(4) {
                let name = new_name();
                c.add_node(random_node(&mut r, &name));
            }
            // Bound pods in binding order: the order a fresh cluster binds them in.
            let mut bound: Vec<PodId> = Vec::new();
            let mut ops = Vec::new();
            for step in 0..25 {
                let n_nodes = c.nodes.len() as u64;
                let unbound: Vec<PodId> = (0..c.pods.len())
                    .filter(|&p| c.pod_node[p].is_none())
                    .collect();
                match r.intn(12) {
                    0..=3 => {
                        let p = random_full_pod(&mut r, format!("b{step}"), false);
                        let id = c.add_pod(PodInfo::new(p, 0, step));
                        if n_nodes > 0 && r.intn(4) != 0 {
                            c.bind(id, r.intn(n_nodes) as usize);
                            bound.push(id);
                        }
                        ops.push("add_pod");
                    }
                    4 if n_nodes > 0 && !unbound.is_empty() => {
                        let p = unbound[r.intn(unbound.len() as u64) as usize];
                        c.bind(p, r.intn(n_nodes) as usize);
                        bound.push(p);
                        ops.push("bind");
                    }
                    5 | 6 if !bound.is_empty() => {
                        let i = r.intn(bound.len() as u64) as usize;
                        let p = bound.remove(i);
                        let was = c.pod_node[p];
                        assert_eq!(c.unbind(p), was, "case {case}");
                        assert_eq!(c.unbind(p), None, "case {case}");
                        ops.push("unbind");
                    }
                    7 | 8 if n_nodes > 0 => {
                        let n = r.intn(n_nodes) as usize;
                        let name = c.nodes[n].name().to_string();
                        c.update_node(n, random_node(&mut r, &name));
                        ops.push("update_node");
                    }
                    9 if n_nodes > 0 => {
                        let n = r.intn(n_nodes) as usize;
                        let on = c.nodes[n].pods.clone();
                        assert_eq!(c.remove_node(n), on, "case {case}");
                        bound.retain(|p| !on.contains(p));
                        ops.push("remove_node");
                    }
                    _ => {
                        let name = new_name();
                        c.add_node(random_node(&mut r, &name));
                        ops.push("add_node");
                    }
                }
            }
            let mut fresh = Cluster::with_objects(c.objects.clone());
            for n in &c.nodes {
                fresh.add_node(n.object().clone());
            }
            for p in &c.pods {
                fresh.add_pod((**p).clone());
            }
            for &p in &bound {
                fresh.bind(p, c.pod_node[p].expect("bound"));
            }
            let ctx = format!("case {case}, ops {ops:?}");
            assert_same_derived_state(&c, &fresh, &ctx);
            let settings = AlgorithmSettings {
                hard_pod_affinity_weight: r.intn(3) as i64,
                ..AlgorithmSettings::default()
            };
            for i in 0..3 {
                let p = random_full_pod(&mut r, format!("p{i}"), true);
                for (name, f) in &filters {
                    assert_eq!(
                        filter_all_with(f.as_ref(), &c, p.clone(), &settings),
                        filter_all_with(f.as_ref(), &fresh, p.clone(), &settings),
                        "{name}, {ctx}, pod {p:?}"
                    );
                }
                for (name, s) in &scores {
                    assert_eq!(
                        score_all_with(s.as_ref(), &c, p.clone(), &settings),
                        score_all_with(s.as_ref(), &fresh, p.clone(), &settings),
                        "{name}, {ctx}, pod {p:?}"
                    );
                }
            }
        }
    }
}
