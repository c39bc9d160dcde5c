//! "Why is my pod Pending?": per node, the blocking reasons in plain words, with numbers and a
//! hint of what would change the outcome. Built only from a cycle's trace and the cluster.

use super::{CycleTrace, Outcome};
use crate::cluster::{Cluster, NodeInfo};
use crate::framework::{FailureReason, Reason};
use crate::model::selector::set_matches;
use crate::model::taint::{tolerated, NO_EXECUTE, NO_SCHEDULE};

/// One node's story.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeExplanation {
    /// The node.
    pub node: String,
    /// Plain-words reasons, each with numbers where they exist.
    pub reasons: Vec<String>,
    /// What would make the node fit.
    pub hints: Vec<String>,
}

/// The explanation of a cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// One-line summary.
    pub summary: String,
    /// Rejected nodes, in evaluation order.
    pub nodes: Vec<NodeExplanation>,
}

fn hint(
    reason: &Reason,
    cluster: &Cluster,
    pod: &crate::cluster::PodInfo,
    node: &NodeInfo,
) -> Option<String> {
    Some(match reason {
        Reason::Insufficient { resource, .. } if resource == "pods" => {
            "the node is at its pod limit: remove a pod or raise status.allocatable.pods".into()
        }
        Reason::Insufficient {
            resource,
            requested,
            capacity,
            ..
        } if requested > capacity => format!(
            "the pod asks for more {resource} than the node has in all ({}): only a bigger node or a smaller request helps",
            crate::model::resources::format_amount(resource, *capacity)
        ),
        Reason::Insufficient { resource, .. } => {
            format!("lower the pod's {resource} request, or free {resource} on this node")
        }
        Reason::Fixed(f) => match f {
            FailureReason::NodeSelectorNotMatch => {
                let missing: Vec<String> = pod
                    .pod
                    .spec
                    .node_selector
                    .iter()
                    .filter(|(k, v)| node.labels().get(*k) != Some(*v))
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect();
                if !missing.is_empty() && !set_matches(&pod.pod.spec.node_selector, node.labels()) {
                    format!("the node lacks the label(s) {} that the pod's nodeSelector asks for", missing.join(", "))
                } else {
                    "the node does not match the pod's required node affinity".into()
                }
            }
            FailureReason::TaintsTolerationsNotMatch => {
                let untolerated: Vec<String> = node
                    .node
                    .spec
                    .taints
                    .iter()
                    .filter(|t| (t.effect == NO_SCHEDULE || t.effect == NO_EXECUTE) && !tolerated(&pod.pod.spec.tolerations, t))
                    .map(|t| {
                        if t.value.is_empty() {
                            format!("{}:{}", t.key, t.effect)
                        } else {
                            format!("{}={}:{}", t.key, t.value, t.effect)
                        }
                    })
                    .collect();
                format!("add a toleration for {}", untolerated.join(", "))
            }
            FailureReason::NodeUnschedulable => "the node is cordoned: `kubectl uncordon` it, or tolerate node.kubernetes.io/unschedulable".into(),
            FailureReason::PodNotMatchHostName => format!("the pod asks for node {:?} by spec.nodeName", pod.pod.spec.node_name),
            FailureReason::PodNotFitsHostPorts => {
                let ports: Vec<String> = pod
                    .host_ports
                    .iter()
                    .filter(|p| node.used_ports.iter().any(|u| u.port == p.port && u.protocol == p.protocol))
                    .map(|p| format!("{}/{}", p.port, p.protocol))
                    .collect();
                format!("host port(s) {} are taken on this node", ports.join(", "))
            }
            FailureReason::NodeLabelPresenceViolated => "the policy's labelsPresence rule rejects this node's labels".into(),
            FailureReason::ServiceAffinityViolated => "pods of the same service already run on nodes with other label values".into(),
            FailureReason::DiskConflict => "a pod on this node already uses one of the pod's disks".into(),
            FailureReason::MaxVolumeCountExceeded => "the node has reached its volume attach limit".into(),
            FailureReason::PodAffinityRulesNotMatch => "no pod matching the pod's required affinity runs in this node's topology domain".into(),
            FailureReason::PodAntiAffinityRulesNotMatch => "a pod the pod's required anti-affinity avoids runs in this node's topology domain".into(),
            FailureReason::ExistingPodsAntiAffinityRulesNotMatch => "a pod in this node's topology domain has anti-affinity against this pod".into(),
            FailureReason::TopologySpreadConstraintsNotMatch => "placing the pod here would exceed maxSkew, or the node lacks the topology key".into(),
            _ => {
                let _ = cluster;
                return None;
            }
        },
    })
}

/// Explains one cycle of a pod (the cycle must have been recorded with details).
pub fn explain(cluster: &Cluster, trace: &CycleTrace) -> Explanation {
    let pod = &cluster.pods[trace.pod];
    let summary = match (trace.outcome, trace.node) {
        (Outcome::Scheduled, Some(n)) => {
            let total = trace
                .totals
                .iter()
                .find(|(id, _)| *id == n)
                .map(|(_, t)| *t);
            let ties = if trace.tie_set.len() > 1 {
                format!(
                    ", tied with {} other node(s) and picked by the seeded tie-break",
                    trace.tie_set.len() - 1
                )
            } else {
                String::new()
            };
            match total {
                Some(t) => format!(
                    "{} was scheduled to {}: it had the highest total score ({t}) of {} feasible nodes{ties}.",
                    pod.full_name, cluster.nodes[n].name(), trace.feasible
                ),
                None => format!(
                    "{} was scheduled to {}, the only feasible node (scoring was skipped).",
                    pod.full_name, cluster.nodes[n].name()
                ),
            }
        }
        (Outcome::Unschedulable, _) => format!(
            "{} is Pending: {}",
            pod.full_name,
            trace.message.clone().unwrap_or_default()
        ),
        _ => format!(
            "{} could not be scheduled: {}",
            pod.full_name,
            trace.message.clone().unwrap_or_default()
        ),
    };
    let nodes = trace
        .filter
        .iter()
        .filter(|r| !r.fits())
        .map(|r| {
            let node = &cluster.nodes[r.node];
            let mut hints: Vec<String> = Vec::new();
            for reason in r.reasons() {
                if let Some(h) = hint(reason, cluster, pod, node) {
                    if !hints.contains(&h) {
                        hints.push(h);
                    }
                }
            }
            NodeExplanation {
                node: node.name().to_string(),
                reasons: r.reasons().map(Reason::explain).collect(),
                hints,
            }
        })
        .collect();
    Explanation { summary, nodes }
}

impl std::fmt::Display for Explanation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "{}", self.summary)?;
        for n in &self.nodes {
            writeln!(f, "  {}: {}", n.node, n.reasons.join("; "))?;
            for h in &n.hints {
                writeln!(f, "    hint: {h}")?;
            }
        }
        Ok(())
    }
}
