//! Why a node was rejected: typed data whose `Display` is upstream's exact reason string.

use crate::model::resources::format_amount;
use std::fmt;

/// The fixed reason strings of v1.17's `predicates/error.go`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FailureReason {
    /// NoDiskConflict.
    DiskConflict,
    /// NoVolumeZoneConflict.
    VolumeZoneConflict,
    /// MatchNodeSelector.
    NodeSelectorNotMatch,
    /// MatchInterPodAffinity umbrella reason.
    PodAffinityNotMatch,
    /// Required pod affinity failed.
    PodAffinityRulesNotMatch,
    /// Required pod anti-affinity failed.
    PodAntiAffinityRulesNotMatch,
    /// An existing pod's anti-affinity rejects the incoming pod.
    ExistingPodsAntiAffinityRulesNotMatch,
    /// PodToleratesNodeTaints.
    TaintsTolerationsNotMatch,
    /// HostName.
    PodNotMatchHostName,
    /// PodFitsHostPorts.
    PodNotFitsHostPorts,
    /// CheckNodeLabelPresence.
    NodeLabelPresenceViolated,
    /// CheckServiceAffinity.
    ServiceAffinityViolated,
    /// Max*VolumeCount.
    MaxVolumeCountExceeded,
    /// CheckNodeUnschedulable.
    NodeUnschedulable,
    /// No node object.
    NodeUnknownCondition,
    /// CheckVolumeBinding: a bound PV's node affinity.
    VolumeNodeConflict,
    /// CheckVolumeBinding: no PV to bind.
    VolumeBindConflict,
    /// EvenPodsSpread.
    TopologySpreadConstraintsNotMatch,
}

impl FailureReason {
    /// The exact upstream string.
    pub fn message(self) -> &'static str {
        use FailureReason::*;
        match self {
            DiskConflict => "node(s) had no available disk",
            VolumeZoneConflict => "node(s) had no available volume zone",
            NodeSelectorNotMatch => "node(s) didn't match node selector",
            PodAffinityNotMatch => "node(s) didn't match pod affinity/anti-affinity",
            PodAffinityRulesNotMatch => "node(s) didn't match pod affinity rules",
            PodAntiAffinityRulesNotMatch => "node(s) didn't match pod anti-affinity rules",
            ExistingPodsAntiAffinityRulesNotMatch => {
                "node(s) didn't satisfy existing pods anti-affinity rules"
            }
            TaintsTolerationsNotMatch => "node(s) had taints that the pod didn't tolerate",
            PodNotMatchHostName => "node(s) didn't match the requested hostname",
            PodNotFitsHostPorts => "node(s) didn't have free ports for the requested pod ports",
            NodeLabelPresenceViolated => "node(s) didn't have the requested labels",
            ServiceAffinityViolated => "node(s) didn't match service affinity",
            MaxVolumeCountExceeded => "node(s) exceed max volume count",
            NodeUnschedulable => "node(s) were unschedulable",
            NodeUnknownCondition => "node(s) had unknown conditions",
            VolumeNodeConflict => "node(s) had volume node affinity conflict",
            VolumeBindConflict => "node(s) didn't find available persistent volumes to bind",
            TopologySpreadConstraintsNotMatch => {
                "node(s) didn't match pod topology spread constraints"
            }
        }
    }

    /// Whether preemption cannot help a node failing for this reason
    /// (`unresolvablePredicateFailureErrors`).
    pub fn is_unresolvable(self) -> bool {
        use FailureReason::*;
        matches!(
            self,
            NodeSelectorNotMatch
                | PodAffinityRulesNotMatch
                | PodNotMatchHostName
                | TaintsTolerationsNotMatch
                | NodeLabelPresenceViolated
                | NodeUnschedulable
                | NodeUnknownCondition
                | VolumeZoneConflict
                | VolumeNodeConflict
                | VolumeBindConflict
        )
    }
}

/// One reason a predicate gave for rejecting a node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// A fixed reason string.
    Fixed(FailureReason),
    /// `InsufficientResourceError`: `Insufficient <resource>`, with the numbers behind it.
    Insufficient {
        /// Resource name (`cpu`, `memory`, `pods`, `example.com/gpu`).
        resource: std::borrow::Cow<'static, str>,
        /// What the pod asks for.
        requested: i64,
        /// What is already used on the node.
        used: i64,
        /// The node's allocatable amount.
        capacity: i64,
    },
    /// Any other reason string, as the v1.35 plugins word it
    /// (`node(s) had untolerated taint(s)`).
    Message(std::borrow::Cow<'static, str>),
}

impl Reason {
    /// Whether both print the same text (the numbers of `Insufficient` are not printed).
    pub fn same_text(&self, other: &Reason) -> bool {
        match (self, other) {
            (Reason::Fixed(a), Reason::Fixed(b)) => a == b,
            (
                Reason::Insufficient { resource: a, .. },
                Reason::Insufficient { resource: b, .. },
            ) => a == b,
            (Reason::Message(a), Reason::Message(b)) => a == b,
            _ => false,
        }
    }

    /// Whether preemption cannot help with this reason (see [`FailureReason::is_unresolvable`]).
    pub fn is_unresolvable(&self) -> bool {
        self.fixed().is_some_and(FailureReason::is_unresolvable)
    }

    /// The fixed reason, if this is one.
    pub fn fixed(&self) -> Option<FailureReason> {
        match self {
            Reason::Fixed(f) => Some(*f),
            Reason::Insufficient { .. } | Reason::Message(_) => None,
        }
    }

    /// A plain-words explanation with numbers.
    pub fn explain(&self) -> String {
        match self {
            Reason::Insufficient {
                resource,
                requested,
                used,
                capacity,
            } => {
                let free = (capacity - used).max(0);
                if resource == "pods" {
                    format!(
                        "Insufficient pods: the node already runs {used} of at most {capacity} pods"
                    )
                } else {
                    format!(
                        "Insufficient {resource}: the pod requests {}, {} of {} are free",
                        format_amount(resource, *requested),
                        format_amount(resource, free),
                        format_amount(resource, *capacity)
                    )
                }
            }
            Reason::Fixed(f) => f.message().to_string(),
            Reason::Message(m) => m.to_string(),
        }
    }
}

impl From<&'static str> for Reason {
    fn from(m: &'static str) -> Reason {
        Reason::Message(std::borrow::Cow::Borrowed(m))
    }
}

impl From<String> for Reason {
    fn from(m: String) -> Reason {
        Reason::Message(std::borrow::Cow::Owned(m))
    }
}

impl From<FailureReason> for Reason {
    fn from(f: FailureReason) -> Reason {
        Reason::Fixed(f)
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Fixed(r) => f.write_str(r.message()),
            Reason::Insufficient { resource, .. } => write!(f, "Insufficient {resource}"),
            Reason::Message(m) => f.write_str(m),
        }
    }
}
