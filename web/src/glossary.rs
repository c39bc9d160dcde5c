//! The glossary: every term the inspector, the queue and the cluster view show, in one or two
//! plain sentences, with the Kubernetes documentation page that covers it.
//!
//! Pure data. [`lookup`] finds an entry by any of its names; the `Term` component
//! (`components/term.rs`) draws a term with its entry on hover and focus. The unit tests check
//! that every v1.17 predicate and priority and every v1.35 plugin the core registers has an
//! entry, and that every link is a kubernetes.io page. The sentences follow the semantics of
//! `/work/shared/reference/` (v1.17 and v1.35 kube-scheduler).

/// One glossary entry.
#[derive(Debug, PartialEq, Eq)]
pub struct Entry {
    /// The names the entry is found under; the first is its title.
    pub names: &'static [&'static str],
    /// One or two plain sentences.
    pub text: &'static str,
    /// The kubernetes.io page that covers it.
    pub url: &'static str,
}

impl Entry {
    /// The title: the entry's first name.
    pub fn title(&self) -> &'static str {
        self.names[0]
    }
}

/// The kubernetes.io pages the entries link to (pages only: no deep anchors).
mod docs {
    pub const KUBE_SCHEDULER: &str =
        "https://kubernetes.io/docs/concepts/scheduling-eviction/kube-scheduler/";
    pub const FRAMEWORK: &str =
        "https://kubernetes.io/docs/concepts/scheduling-eviction/scheduling-framework/";
    pub const TAINTS: &str =
        "https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/";
    pub const ASSIGN: &str =
        "https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/";
    pub const SPREAD: &str =
        "https://kubernetes.io/docs/concepts/scheduling-eviction/topology-spread-constraints/";
    pub const PREEMPTION: &str =
        "https://kubernetes.io/docs/concepts/scheduling-eviction/pod-priority-preemption/";
    pub const DISRUPTIONS: &str = "https://kubernetes.io/docs/concepts/workloads/pods/disruptions/";
    pub const PERF_TUNING: &str =
        "https://kubernetes.io/docs/concepts/scheduling-eviction/scheduler-perf-tuning/";
    pub const CONFIG: &str = "https://kubernetes.io/docs/reference/scheduling/config/";
    pub const POLICIES: &str = "https://kubernetes.io/docs/reference/scheduling/policies/";
    pub const RESOURCES: &str =
        "https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/";
    pub const BIN_PACKING: &str =
        "https://kubernetes.io/docs/concepts/scheduling-eviction/resource-bin-packing/";
    pub const NODES: &str = "https://kubernetes.io/docs/concepts/architecture/nodes/";
    pub const VOLUME_LIMITS: &str = "https://kubernetes.io/docs/concepts/storage/storage-limits/";
    pub const VOLUMES: &str = "https://kubernetes.io/docs/concepts/storage/persistent-volumes/";
    pub const READINESS: &str =
        "https://kubernetes.io/docs/concepts/scheduling-eviction/pod-scheduling-readiness/";
    pub const DRA: &str =
        "https://kubernetes.io/docs/concepts/scheduling-eviction/dynamic-resource-allocation/";
}

use docs::*;

const fn entry(names: &'static [&'static str], text: &'static str, url: &'static str) -> Entry {
    Entry { names, text, url }
}

/// Every entry, grouped as the page meets them: phases, the filter scan, the queue, the
/// extension points and status codes, preemption and budgets, then v1.17's predicates and
/// priorities and v1.35's plugins.
pub static ENTRIES: &[Entry] = &[
    // ---- the phases of one cycle ----
    entry(
        &["scheduleOne"],
        "One scheduling cycle: kube-scheduler pops the next pod from activeQ, filters the nodes, scores the ones that fit and picks one. When none fits, it tries preemption.",
        KUBE_SCHEDULER,
    ),
    entry(
        &["findNodesThatFit"],
        "Filtering: each node is checked by the predicates (v1.17) or Filter plugins (v1.35) in order, and a node stops at its first failure. The nodes that pass are the feasible ones.",
        KUBE_SCHEDULER,
    ),
    entry(
        &["prioritizeNodes"],
        "Scoring: every feasible node gets a score from each priority (v1.17) or Score plugin (v1.35), times its weight. A node's total is the sum.",
        KUBE_SCHEDULER,
    ),
    entry(
        &["selectHost"],
        "Picks the node with the highest total score. When several nodes share it, one of them is picked at random; schedlab seeds that choice, so a run repeats.",
        KUBE_SCHEDULER,
    ),
    entry(
        &["preempt"],
        "After a FitError, a pod may evict pods of lower priority. kube-scheduler looks for the node where removing the fewest, least important victims lets the pod fit, nominates the pod there and deletes the victims.",
        PREEMPTION,
    ),
    entry(
        &["assume"],
        "The scheduler counts the pod on its chosen node in its own cache at once, so the next cycles already see its requests there while the binding is written.",
        FRAMEWORK,
    ),
    entry(
        &["bind"],
        "The binding cycle writes the pod's node to the API server (a Binding), asynchronously, after the scheduling cycle. Until it completes, the pod is only assumed.",
        FRAMEWORK,
    ),
    // ---- the filter scan and the choice ----
    entry(
        &["numFeasibleNodesToFind"],
        "How many feasible nodes the filter scan looks for before it stops. Below 100 nodes it is every node; otherwise percentageOfNodesToScore of them, but at least 100.",
        PERF_TUNING,
    ),
    entry(
        &["percentageOfNodesToScore"],
        "A scheduler setting for big clusters: the share of nodes to find feasible before scoring. 0, the default, is adaptive: 50% minus 1% per 125 nodes, at least 5%.",
        PERF_TUNING,
    ),
    entry(
        &["nextStartNodeIndex", "start index"],
        "Where the filter scan starts in the node list. Each cycle moves it on by the number of nodes it examined, so successive pods start their search at different nodes.",
        PERF_TUNING,
    ),
    entry(
        &["tie set"],
        "The nodes that share the best total score. selectHost picks one of them uniformly at random (seeded here, so runs repeat).",
        KUBE_SCHEDULER,
    ),
    entry(
        &["FitError"],
        "The error of a cycle in which no node passed the filters: \"0/N nodes are available: …\" with each reason counted. It becomes a FailedScheduling event, and preemption may run next.",
        KUBE_SCHEDULER,
    ),
    entry(
        &["nominatedNodeName", "nomination", "nominated"],
        "Set on a pod by preemption: the node where its victims are being evicted. Pods of equal or lower priority see that room as taken, and v1.35 tries the nominated node first on the next attempt.",
        PREEMPTION,
    ),
    entry(
        &["extender", "extenders", "scheduler extender"],
        "An HTTP webhook kube-scheduler calls after its own filters and scores: it may drop nodes, add its 0-10 score × weight × 10, trim preemption's candidates and bind pods.",
        POLICIES,
    ),
    entry(
        &["profile", "schedulerName"],
        "A scheduler profile: a name (a pod picks it with spec.schedulerName) and its own set of plugins at each extension point.",
        CONFIG,
    ),
    // ---- the scheduling queue ----
    entry(
        &["activeQ"],
        "The pods ready to be scheduled, popped highest priority first, then the longest queued (the QueueSort plugin PrioritySort).",
        FRAMEWORK,
    ),
    entry(
        &["podBackoffQ"],
        "Pods that failed and wait out a backoff before they go back to activeQ: 1 s, doubling at each attempt, at most 10 s by default.",
        FRAMEWORK,
    ),
    entry(
        &["unschedulableQ"],
        "v1.17: pods that did not fit wait here until a cluster change (a node added, a pod deleted, …) might let them fit, or until they have waited more than 60 s.",
        FRAMEWORK,
    ),
    entry(
        &["unschedulablePods"],
        "v1.35's unschedulableQ: a rejected pod waits here until an event that one of the plugins that rejected it cares about (its queueing hint says Queue), or until it has waited 5 minutes.",
        FRAMEWORK,
    ),
    // ---- the extension points of the scheduling framework ----
    entry(
        &["PreEnqueue"],
        "Runs before a pod enters activeQ. A rejection (SchedulingGates, for one) parks the pod in unschedulablePods.",
        FRAMEWORK,
    ),
    entry(
        &["QueueSort"],
        "Orders the pods in activeQ. Only one QueueSort plugin can be enabled: PrioritySort by default.",
        FRAMEWORK,
    ),
    entry(
        &["PreFilter"],
        "Runs once per cycle before filtering, to prepare state for the pod. Skip turns the plugin's Filter off for this cycle; a rejection ends the cycle.",
        FRAMEWORK,
    ),
    entry(
        &["Filter"],
        "Decides whether the pod can run on one node. The Filter plugins run in order, and the first rejection makes the node infeasible.",
        FRAMEWORK,
    ),
    entry(
        &["PostFilter"],
        "Runs only when no node is feasible. DefaultPreemption, the usual one, tries to make room by preempting pods of lower priority.",
        FRAMEWORK,
    ),
    entry(
        &["PreScore"],
        "Runs once before scoring, over the feasible nodes, to prepare state for Score. Skip drops the plugin's Score for this cycle.",
        FRAMEWORK,
    ),
    entry(
        &["Score"],
        "Ranks each feasible node. After NormalizeScore every plugin's score is between 0 and 100; a node's total is the sum of score × weight.",
        FRAMEWORK,
    ),
    entry(
        &["NormalizeScore"],
        "A Score plugin's extension that rescales its node scores into 0–100 before the weights apply.",
        FRAMEWORK,
    ),
    entry(
        &["Reserve"],
        "Runs once a node is chosen, before binding: plugins reserve what the pod needs there (volumes, claims). If a later step fails, Unreserve undoes it.",
        FRAMEWORK,
    ),
    entry(
        &["Permit"],
        "Approves, denies or delays (Wait) the binding of a pod after Reserve.",
        FRAMEWORK,
    ),
    entry(
        &["PreBind"],
        "Runs before the binding for work that must come first, such as binding a pod's volumes.",
        FRAMEWORK,
    ),
    entry(
        &["Bind"],
        "Binds the pod to its node. Bind plugins run in order until one takes the pod (the others return Skip); DefaultBinder writes the Binding.",
        FRAMEWORK,
    ),
    entry(
        &["PostBind"],
        "Informational: runs after a pod is bound, for cleanup.",
        FRAMEWORK,
    ),
    // ---- status codes (v1.35) ----
    entry(
        &["Success"],
        "The plugin found nothing wrong: the node passes, or the step worked.",
        FRAMEWORK,
    ),
    entry(
        &["Unschedulable"],
        "A rejection that preemption might fix, such as Insufficient cpu: the node stays a preemption candidate.",
        FRAMEWORK,
    ),
    entry(
        &["UnschedulableAndUnresolvable"],
        "A rejection that preemption cannot fix, such as an untolerated taint, a node selector or a cordon: the node is not a preemption candidate.",
        FRAMEWORK,
    ),
    entry(
        &["Skip"],
        "The plugin has nothing to do for this pod. At PreFilter or PreScore its Filter or Score does not run this cycle; at Bind the next plugin binds.",
        FRAMEWORK,
    ),
    entry(
        &["Error"],
        "Something went wrong inside a plugin: the cycle ends, and the pod goes back to the queue to be retried.",
        FRAMEWORK,
    ),
    entry(
        &["Wait"],
        "Permit only: the binding waits until a plugin allows it, or is denied when the wait times out.",
        FRAMEWORK,
    ),
    entry(
        &["Pending"],
        "A rejection that waits for something outside the scheduler; the pod is retried without backoff as soon as a matching event arrives.",
        FRAMEWORK,
    ),
    // ---- priority, preemption, budgets, taints ----
    entry(
        &["priority"],
        "A pod's importance, an integer taken from its PriorityClass. activeQ pops higher priorities first, and only a pod of higher priority can preempt another.",
        PREEMPTION,
    ),
    entry(
        &["PriorityClass", "priorityClassName"],
        "A cluster object that maps a name to a priority value; a pod names one in spec.priorityClassName. A class marked globalDefault applies to pods that name none.",
        PREEMPTION,
    ),
    entry(
        &["victims", "victim"],
        "The pods preemption would delete on a candidate node: only pods of lower priority, as few and as unimportant as possible. Pods whose eviction would violate a PodDisruptionBudget are the first ones it tries to spare.",
        PREEMPTION,
    ),
    entry(
        &["PodDisruptionBudget", "PDB"],
        "Limits how many pods of an application voluntary disruptions may take down at once. Preemption prefers victims that do not violate a budget, but may violate one when nothing else works.",
        DISRUPTIONS,
    ),
    entry(
        &["disruptionsAllowed"],
        "A PodDisruptionBudget's status: how many of the pods it covers may be disrupted now. At 0, evicting any of them violates the budget.",
        DISRUPTIONS,
    ),
    entry(
        &["PDB violations"],
        "How many of a candidate node's victims would violate a PodDisruptionBudget. The candidate with the fewest wins first.",
        PREEMPTION,
    ),
    entry(
        &["taint", "taints"],
        "A mark on a node, key=value:Effect. NoSchedule and NoExecute keep pods that do not tolerate it off the node; PreferNoSchedule only lowers the node's score.",
        TAINTS,
    ),
    entry(
        &["toleration", "tolerations"],
        "A pod's permission to run on nodes with a matching taint. It allows the node, it does not attract the pod to it.",
        TAINTS,
    ),
    entry(
        &["cordoned", "cordon"],
        "A node with spec.unschedulable set (kubectl cordon): no new pod is placed there unless it tolerates the node.kubernetes.io/unschedulable taint.",
        NODES,
    ),
    // ---- pickOneNodeForPreemption's criteria ----
    entry(
        &["onlyCandidate"],
        "Only one node could make room by preemption, so it is chosen.",
        PREEMPTION,
    ),
    entry(
        &["noVictims"],
        "v1.17: a candidate where the pod fits without evicting anyone is chosen at once.",
        PREEMPTION,
    ),
    entry(
        &["fewestPDBViolations"],
        "The first criterion between candidates: the node whose victims violate the fewest PodDisruptionBudgets.",
        PREEMPTION,
    ),
    entry(
        &["lowestHighestPriorityVictim"],
        "Between candidates with as few budget violations: the node whose most important victim has the lowest priority.",
        PREEMPTION,
    ),
    entry(
        &["lowestPrioritySum"],
        "Next criterion: the node whose victims' priorities add up to the least.",
        PREEMPTION,
    ),
    entry(
        &["fewestVictims"],
        "Next criterion: the node with the fewest victims.",
        PREEMPTION,
    ),
    entry(
        &["latestStartTime"],
        "Next criterion: the node whose most important victims started last, so the least work is lost.",
        PREEMPTION,
    ),
    entry(
        &["first"],
        "Every criterion tied: the first remaining candidate is chosen.",
        PREEMPTION,
    ),
    // ---- v1.17 predicates ----
    entry(
        &["PodFitsPorts"],
        "Kubernetes 1.0's name for PodFitsHostPorts. v1.17 still accepts it in a Policy but never runs it: it is not in the predicate order.",
        POLICIES,
    ),
    entry(
        &["PodFitsHostPorts"],
        "Fails a node where a host port the pod asks for (protocol, IP and port) is already taken by a pod there.",
        POLICIES,
    ),
    entry(
        &["PodFitsResources"],
        "Fails a node whose allocatable CPU, memory, ephemeral storage, extended resources or pod count cannot hold the pod's requests on top of its pods' requests.",
        RESOURCES,
    ),
    entry(
        &["HostName"],
        "When the pod sets spec.nodeName, fails every other node.",
        ASSIGN,
    ),
    entry(
        &["MatchNodeSelector"],
        "Fails a node whose labels do not match the pod's nodeSelector or its required node affinity.",
        ASSIGN,
    ),
    entry(
        &["NoVolumeZoneConflict"],
        "Fails a node whose zone or region labels differ from those of a persistent volume the pod uses.",
        POLICIES,
    ),
    entry(
        &["MaxEBSVolumeCount"],
        "Fails a node where the pod's AWS EBS volumes would exceed the node's attach limit (39 by default).",
        VOLUME_LIMITS,
    ),
    entry(
        &["MaxGCEPDVolumeCount"],
        "Fails a node where the pod's GCE persistent disks would exceed the node's attach limit (16 by default).",
        VOLUME_LIMITS,
    ),
    entry(
        &["MaxAzureDiskVolumeCount"],
        "Fails a node where the pod's Azure disks would exceed the node's attach limit (16 by default).",
        VOLUME_LIMITS,
    ),
    entry(
        &["MaxCinderVolumeCount"],
        "Fails a node where the pod's OpenStack Cinder volumes would exceed the node's attach limit (256 by default).",
        VOLUME_LIMITS,
    ),
    entry(
        &["MaxCSIVolumeCountPred"],
        "Fails a node where the pod's CSI volumes would exceed a driver's attach limit on that node.",
        VOLUME_LIMITS,
    ),
    entry(
        &["MatchInterPodAffinity"],
        "Checks required pod affinity and anti-affinity by topology domain: the pod's own terms, and existing pods' anti-affinity towards it.",
        ASSIGN,
    ),
    entry(
        &["NoDiskConflict"],
        "Fails a node where a pod already uses the same GCE PD, AWS EBS, iSCSI or RBD volume, unless both mount it read-only (for EBS, even then).",
        POLICIES,
    ),
    entry(
        &["GeneralPredicates"],
        "PodFitsResources, HostName, PodFitsHostPorts and MatchNodeSelector in one predicate: all four run, and their reasons are reported together.",
        POLICIES,
    ),
    entry(
        &["PodToleratesNodeTaints"],
        "Fails a node with a NoSchedule or NoExecute taint the pod does not tolerate. v1.17 always adds it.",
        TAINTS,
    ),
    entry(
        &["PodToleratesNodeNoExecuteTaints"],
        "Like PodToleratesNodeTaints, for NoExecute taints only.",
        TAINTS,
    ),
    entry(
        &["CheckNodeUnschedulable"],
        "Fails a cordoned node (spec.unschedulable) unless the pod tolerates the node.kubernetes.io/unschedulable taint. v1.17 always adds it, and runs it first.",
        NODES,
    ),
    entry(
        &["CheckVolumeBinding"],
        "Checks the pod's PersistentVolumeClaims: a bound volume's node affinity must allow the node, and an unbound claim must find a matching volume there.",
        VOLUMES,
    ),
    entry(
        &["EvenPodsSpread"],
        "Enforces topologySpreadConstraints with whenUnsatisfiable: DoNotSchedule: placing the pod must keep each domain within maxSkew of the least crowded one. Alpha in v1.17.",
        SPREAD,
    ),
    entry(
        &["CheckNodeLabelPresence"],
        "A Policy predicate with an argument (labelsPresence): nodes must have, or must not have, the listed label keys.",
        POLICIES,
    ),
    entry(
        &["CheckServiceAffinity"],
        "A Policy predicate with an argument (serviceAffinity): a service's pods go to nodes with the same values of the listed labels as the node of the first of its pods already placed.",
        POLICIES,
    ),
    // ---- v1.17 priorities ----
    entry(
        &["EqualPriority"],
        "Gives every node the score 1. Used when no priority is configured.",
        POLICIES,
    ),
    entry(
        &["MostRequestedPriority"],
        "Favours the nodes whose CPU and memory are most requested once the pod is added: requested ÷ allocatable, averaged. Packs pods tightly.",
        POLICIES,
    ),
    entry(
        &["RequestedToCapacityRatioPriority"],
        "Scores each resource's requested ÷ capacity ratio through a configurable shape of (utilization, score) points, weighted per resource.",
        BIN_PACKING,
    ),
    entry(
        &["SelectorSpreadPriority"],
        "Spreads the pods of one Service, ReplicationController, ReplicaSet or StatefulSet: nodes (and zones) with fewer of them score higher.",
        POLICIES,
    ),
    entry(
        &["ServiceSpreadingPriority"],
        "SelectorSpreadPriority for Services only: nodes with fewer pods of the pod's services score higher.",
        POLICIES,
    ),
    entry(
        &["InterPodAffinityPriority"],
        "Adds the weights of the preferred pod affinity terms a node's topology domain satisfies and subtracts the anti-affinity ones, then scales the sums to 0–100.",
        ASSIGN,
    ),
    entry(
        &["LeastRequestedPriority"],
        "Favours the nodes with the most CPU and memory left once the pod is added: (allocatable − requested) ÷ allocatable, averaged. Spreads load.",
        POLICIES,
    ),
    entry(
        &["BalancedResourceAllocation"],
        "Favours the nodes whose CPU and memory would be used in the same proportion: 100 − |cpu fraction − memory fraction| × 100.",
        POLICIES,
    ),
    entry(
        &["NodePreferAvoidPodsPriority"],
        "Scores 0 on a node whose preferAvoidPods annotation names the pod's controller, 100 elsewhere. Its default weight, 10000, makes it decide over the others.",
        POLICIES,
    ),
    entry(
        &["NodeAffinityPriority"],
        "Adds the weights of the pod's preferred node affinity terms that the node matches, scaled to 0–100.",
        ASSIGN,
    ),
    entry(
        &["TaintTolerationPriority"],
        "Counts the node's PreferNoSchedule taints the pod does not tolerate; fewer is better (reversed onto 0–100).",
        TAINTS,
    ),
    entry(
        &["ImageLocalityPriority"],
        "Favours the nodes that already have the pod's container images, by image size and by how many nodes have them.",
        POLICIES,
    ),
    entry(
        &["ResourceLimitsPriority"],
        "Scores 1 on a node whose allocatable CPU or memory can hold the pod's limits. Alpha in v1.17, behind a feature gate.",
        POLICIES,
    ),
    entry(
        &["EvenPodsSpreadPriority"],
        "Scores the soft topologySpreadConstraints (ScheduleAnyway): nodes whose domains hold fewer matching pods score higher. Alpha in v1.17.",
        SPREAD,
    ),
    // ---- v1.35 plugins ----
    entry(
        &["SchedulingGates"],
        "PreEnqueue: a pod with spec.schedulingGates stays out of activeQ until every gate is removed.",
        READINESS,
    ),
    entry(
        &["PrioritySort"],
        "QueueSort: orders activeQ by priority, then by the time each pod was queued.",
        CONFIG,
    ),
    entry(
        &["NodeUnschedulable"],
        "Filter: rejects a cordoned node (spec.unschedulable) unless the pod tolerates node.kubernetes.io/unschedulable:NoSchedule.",
        NODES,
    ),
    entry(
        &["NodeName"],
        "Filter: when the pod sets spec.nodeName, only that node passes.",
        ASSIGN,
    ),
    entry(
        &["TaintToleration"],
        "Filter: rejects a node with a NoSchedule or NoExecute taint the pod does not tolerate. Score: fewer untolerated PreferNoSchedule taints is better.",
        TAINTS,
    ),
    entry(
        &["NodeAffinity"],
        "Filter: the pod's nodeSelector and required node affinity must match the node's labels. Score: the weights of the preferred terms the node matches.",
        ASSIGN,
    ),
    entry(
        &["NodePorts"],
        "Filter: rejects a node where a host port the pod needs is taken. Its PreFilter returns Skip for a pod without host ports.",
        CONFIG,
    ),
    entry(
        &["NodeResourcesFit"],
        "Filter: the node's allocatable resources must hold the pod's requests on top of its pods' requests. Score: LeastAllocated by default, the most room left wins.",
        RESOURCES,
    ),
    entry(
        &["VolumeRestrictions"],
        "Filter: rejects a node where a volume the pod uses (GCE PD, AWS EBS, iSCSI, RBD, a ReadWriteOncePod claim) is already in conflicting use.",
        CONFIG,
    ),
    entry(
        &["NodeVolumeLimits"],
        "Filter: rejects a node where the pod's CSI volumes would exceed a driver's attach limit.",
        VOLUME_LIMITS,
    ),
    entry(
        &["VolumeBinding"],
        "Filter: the pod's PersistentVolumeClaims must be bound, or bindable, to volumes the node can use. Reserve and PreBind then bind them.",
        VOLUMES,
    ),
    entry(
        &["VolumeZone"],
        "Filter: the node's zone and region labels must match those of the persistent volumes the pod uses.",
        CONFIG,
    ),
    entry(
        &["PodTopologySpread"],
        "Filter: hard topologySpreadConstraints (DoNotSchedule) must stay within maxSkew. Score: soft ones (ScheduleAnyway) favour the less crowded domains.",
        SPREAD,
    ),
    entry(
        &["InterPodAffinity"],
        "Filter: required pod affinity and anti-affinity, including existing pods' anti-affinity. Score: the preferred terms, by topology domain.",
        ASSIGN,
    ),
    entry(
        &["DynamicResources"],
        "Allocates devices to a pod's ResourceClaims: Filter runs the allocator on each node, Score prefers earlier firstAvailable choices. A pod without claims skips it.",
        DRA,
    ),
    entry(
        &["DeviceClass", "DeviceClasses"],
        "A kind of device (resource.k8s.io/v1): CEL selectors that every device a claim asks of the class must pass.",
        DRA,
    ),
    entry(
        &["ResourceSlice", "ResourceSlices", "devices"],
        "A driver's list of devices in a pool, published for one node (nodeName) or for several; each device has attributes and capacity that CEL selectors read.",
        DRA,
    ),
    entry(
        &["ResourceClaim", "ResourceClaims"],
        "A request for devices: how many of which class, with selectors and constraints. The scheduler allocates devices on the chosen node and reserves the claim for the pod.",
        DRA,
    ),
    entry(
        &["ResourceClaimTemplate", "ResourceClaimTemplates"],
        "A claim spec from which a claim is made for each pod that names it, owned by that pod.",
        DRA,
    ),
    entry(
        &["matchAttribute"],
        "A claim constraint: every device allocated to the listed requests must have the same value of this attribute (one GPU model, one PCIe root).",
        DRA,
    ),
    entry(
        &["firstAvailable"],
        "A prioritized list: the request takes the first subrequest that can be allocated. DynamicResources' Score favours nodes that satisfy an earlier one.",
        DRA,
    ),
    entry(
        &["DefaultPreemption"],
        "PostFilter: preemption. It finds a node where evicting victims of lower priority lets the pod fit, and nominates the pod there.",
        PREEMPTION,
    ),
    entry(
        &["NodeResourcesBalancedAllocation"],
        "Score: favours the nodes whose resources would be used evenly, 1 − the standard deviation of the requested fractions. A pod without requests skips it.",
        BIN_PACKING,
    ),
    entry(
        &["ImageLocality"],
        "Score: favours the nodes that already have the pod's images, by image size and by how many nodes have them.",
        CONFIG,
    ),
    entry(
        &["DefaultBinder"],
        "Bind: writes the pod's Binding to the API server.",
        FRAMEWORK,
    ),
];

/// The entry for `name` (any of its names, exactly as written).
pub fn lookup(name: &str) -> Option<&'static Entry> {
    ENTRIES.iter().find(|e| e.names.contains(&name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use schedlab_core::scheduler::v1_35::Code;
    use schedlab_core::scheduler::v1_35::{Point, REGISTRY};
    use schedlab_core::scheduler::Criterion;
    use std::collections::BTreeSet;

    fn missing<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
        names.into_iter().filter(|n| lookup(n).is_none()).collect()
    }

    #[test]
    fn every_v117_predicate_and_priority_has_an_entry() {
        let predicates = schedlab_core::scheduler::v1_17::PREDICATES
            .iter()
            .map(|s| s.name);
        assert_eq!(missing(predicates), Vec::<&str>::new());
        // `ordering()` and `names()` derive from the registry; checked too in case one grows.
        assert_eq!(
            missing(schedlab_core::scheduler::v1_17::predicate_ordering()),
            Vec::<&str>::new()
        );
        assert_eq!(
            missing(schedlab_core::scheduler::v1_17::predicate_names()),
            Vec::<&str>::new()
        );
        let priorities = schedlab_core::scheduler::v1_17::priority_names();
        assert_eq!(
            missing(priorities.iter().map(|(n, _)| *n)),
            Vec::<&str>::new()
        );
    }

    #[test]
    fn every_v135_plugin_and_extension_point_has_an_entry() {
        assert_eq!(missing(REGISTRY.iter().map(|s| s.name)), Vec::<&str>::new());
        assert_eq!(
            missing(Point::ALL.iter().map(|p| p.title())),
            Vec::<&str>::new()
        );
        assert!(lookup("NormalizeScore").is_some());
    }

    #[test]
    fn every_status_code_and_preemption_criterion_has_an_entry() {
        let codes = [
            Code::Success,
            Code::Error,
            Code::Unschedulable,
            Code::UnschedulableAndUnresolvable,
            Code::Wait,
            Code::Skip,
            Code::Pending,
        ];
        // A new code fails to compile here until it is listed above (and in the glossary).
        for c in codes {
            match c {
                Code::Success
                | Code::Error
                | Code::Unschedulable
                | Code::UnschedulableAndUnresolvable
                | Code::Wait
                | Code::Skip
                | Code::Pending => {}
            }
        }
        assert_eq!(missing(codes.map(Code::as_str)), Vec::<&str>::new());
        let criteria = [
            Criterion::OnlyCandidate,
            Criterion::NoVictims,
            Criterion::FewestPdbViolations,
            Criterion::LowestHighestPriorityVictim,
            Criterion::LowestPrioritySum,
            Criterion::FewestVictims,
            Criterion::LatestStartTime,
            Criterion::First,
        ];
        assert_eq!(missing(criteria.map(Criterion::as_str)), Vec::<&str>::new());
    }

    #[test]
    fn the_pages_terms_have_entries() {
        // What the inspector, the queue and the cluster view label with a term.
        let shown = [
            "scheduleOne",
            "findNodesThatFit",
            "prioritizeNodes",
            "selectHost",
            "preempt",
            "assume",
            "bind",
            "numFeasibleNodesToFind",
            "percentageOfNodesToScore",
            "start index",
            "nextStartNodeIndex",
            "tie set",
            "nominatedNodeName",
            "nomination",
            "activeQ",
            "podBackoffQ",
            "unschedulableQ",
            "unschedulablePods",
            "FitError",
            "PodDisruptionBudget",
            "disruptionsAllowed",
            "PDB violations",
            "taint",
            "toleration",
            "priority",
            "PriorityClass",
            "victims",
            "profile",
            "DeviceClass",
            "ResourceSlice",
            "ResourceClaim",
            "ResourceClaimTemplate",
            "matchAttribute",
            "firstAvailable",
            "extender",
        ];
        assert_eq!(missing(shown), Vec::<&str>::new());
        for phase in [
            crate::analysis::Phase::QueuePop,
            crate::analysis::Phase::Filter,
            crate::analysis::Phase::Score,
            crate::analysis::Phase::SelectHost,
            crate::analysis::Phase::Preempt,
            crate::analysis::Phase::Assume,
            crate::analysis::Phase::Bind,
        ] {
            assert!(lookup(phase.function()).is_some(), "{phase:?}");
        }
    }

    #[test]
    fn every_link_is_a_kubernetes_io_page() {
        for e in ENTRIES {
            assert!(
                e.url.starts_with("https://kubernetes.io/docs/"),
                "{}: {}",
                e.title(),
                e.url
            );
            assert!(e.url.ends_with('/'), "{}: a page, no anchor", e.title());
            assert!(!e.url.contains('#'), "{}: no anchor", e.title());
        }
    }

    #[test]
    fn entries_are_short_plain_and_unique() {
        let mut seen = BTreeSet::new();
        for e in ENTRIES {
            assert!(!e.names.is_empty());
            for n in e.names {
                assert!(seen.insert(*n), "{n} is in two entries");
            }
            let sentences = e.text.matches(". ").count() + 1;
            assert!(sentences <= 2, "{}: {sentences} sentences", e.title());
            assert!(e.text.len() <= 240, "{}: {} bytes", e.title(), e.text.len());
            assert!(e.text.ends_with('.'), "{}", e.title());
        }
    }
}
