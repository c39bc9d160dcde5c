//! "Why is my pod Pending?": per node, the blocking reasons in plain words, with numbers and a
//! hint of what would change the outcome. Built only from a cycle's trace and the cluster.

use super::{CycleTrace, Outcome};
use crate::cluster::{Cluster, NodeInfo};
use crate::model::selector::set_matches;
use crate::model::taint::{tolerated, NO_EXECUTE, NO_SCHEDULE};
use crate::model::volume::{
    label_zones_to_set, PersistentVolumeClaim, ANN_SELECTED_NODE, LABEL_REGION, LABEL_ZONE,
};
use crate::sched::{FailureReason, Reason};

/// One node's story.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct NodeExplanation {
    /// The node.
    pub node: String,
    /// Plain-words reasons, each with numbers where they exist.
    pub reasons: Vec<String>,
    /// What would make the node fit.
    pub hints: Vec<String>,
}

/// The explanation of a cycle.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Explanation {
    /// One-line summary.
    pub summary: String,
    /// Rejected nodes, in evaluation order.
    pub nodes: Vec<NodeExplanation>,
    /// What preemption did after the failure, if it ran.
    pub preemption: Option<String>,
    /// The extenders' calls, one line each (with the request and reply, cut).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extenders: Vec<String>,
}

/// Why a pending pod never had a cycle: its `schedulerName` is none of the scheduler's.
pub fn not_queued(pod: &str, scheduler_names: &[String]) -> String {
    match scheduler_names {
        [one] => format!("{pod} was not queued: its schedulerName is not {one:?}."),
        names => format!(
            "{pod} was not queued: its schedulerName is none of {}.",
            names
                .iter()
                .map(|n| format!("{n:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Why a pending pod never had a cycle although its scheduler owns it: a PreEnqueue plugin
/// holds it back (`plugin`, with its status `message`).
pub fn gated(pod: &str, plugin: &str, message: &str) -> String {
    format!("{pod} was never tried: the PreEnqueue plugin {plugin} holds it back: {message}.")
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
                    .object()
                    .spec
                    .taints
                    .iter()
                    .filter(|t| (t.effect == NO_SCHEDULE || t.effect == NO_EXECUTE) && !tolerated(&pod.pod.spec.tolerations, t))
                    .map(ToString::to_string)
                    .collect();
                format!("add a toleration for {}", untolerated.join(", "))
            }
            FailureReason::NodeUnschedulable => "the node is cordoned: `kubectl uncordon` it, or tolerate node.kubernetes.io/unschedulable".into(),
            FailureReason::PodNotMatchHostName => format!("the pod asks for node {:?} by spec.nodeName", pod.pod.spec.node_name),
            FailureReason::PodNotFitsHostPorts => {
                let ports: Vec<String> = pod
                    .host_ports
                    .iter()
                    .filter(|p| node.used_ports().iter().any(|u| u.port == p.port && u.protocol == p.protocol))
                    .map(|p| format!("{}/{}", p.port, p.protocol))
                    .collect();
                format!("host port(s) {} are taken on this node", ports.join(", "))
            }
            FailureReason::NodeLabelPresenceViolated => "the policy's labelsPresence rule rejects this node's labels".into(),
            FailureReason::ServiceAffinityViolated => "pods of the same service already run on nodes with other label values".into(),
            FailureReason::DiskConflict => "a pod on this node already uses one of the pod's disks".into(),
            FailureReason::MaxVolumeCountExceeded => "the node has reached its volume attach limit (allocatable attachable-volumes-*, a CSINode driver count, or the cloud default)".into(),
            FailureReason::VolumeZoneConflict => volume_zone_hint(cluster, pod, node)?,
            FailureReason::VolumeNodeConflict => volume_node_hint(cluster, pod, node)?,
            FailureReason::VolumeBindConflict => volume_bind_hint(cluster, pod, node)?,
            FailureReason::PodAffinityRulesNotMatch => "no pod matching the pod's required affinity runs in this node's topology domain".into(),
            FailureReason::PodAntiAffinityRulesNotMatch => "a pod the pod's required anti-affinity avoids runs in this node's topology domain".into(),
            FailureReason::ExistingPodsAntiAffinityRulesNotMatch => "a pod in this node's topology domain has anti-affinity against this pod".into(),
            FailureReason::TopologySpreadConstraintsNotMatch => "placing the pod here would exceed maxSkew, or the node lacks the topology key".into(),
            _ => {
                let _ = cluster;
                return None;
            }
        },
        Reason::Message(_) => return None,
    })
}

/// The pod's claims that exist, with their namespace.
fn claims_of<'a>(
    cluster: &'a Cluster,
    pod: &'a crate::cluster::PodInfo,
) -> impl Iterator<Item = &'a PersistentVolumeClaim> + 'a {
    let ns = pod.pod.metadata.namespace_or_default();
    pod.pod
        .spec
        .volumes
        .iter()
        .filter_map(|v| v.persistent_volume_claim.as_ref())
        .filter_map(move |c| cluster.volumes().pvc(ns, &c.claim_name))
}

fn volume_zone_hint(
    cluster: &Cluster,
    pod: &crate::cluster::PodInfo,
    node: &NodeInfo,
) -> Option<String> {
    for c in claims_of(cluster, pod) {
        let Some(pv) = cluster.volumes().pv(&c.spec.volume_name) else {
            continue;
        };
        for key in [LABEL_ZONE, LABEL_REGION] {
            let Some(want) = pv.metadata.labels.get(key) else {
                continue;
            };
            let have = node.labels().get(key).map(String::as_str).unwrap_or("");
            let ok = label_zones_to_set(want).is_none_or(|set| set.contains(&have));
            if !ok {
                let have = if have.is_empty() {
                    "no value".to_string()
                } else {
                    format!("{have:?}")
                };
                return Some(format!(
                    "claim {} is bound to volume {}, which is in {key}={want}; this node has {have}: the pod can only run in the volume's zone",
                    c.metadata.name, pv.metadata.name
                ));
            }
        }
    }
    None
}

fn volume_node_hint(
    cluster: &Cluster,
    pod: &crate::cluster::PodInfo,
    node: &NodeInfo,
) -> Option<String> {
    claims_of(cluster, pod).find_map(|c| {
        let pv = cluster.volumes().pv(&c.spec.volume_name)?;
        (c.fully_bound() && !pv.node_affinity_matches(node.labels())).then(|| {
            format!(
                "claim {} is bound to volume {}, whose spec.nodeAffinity excludes this node: the pod can only run where that volume is",
                c.metadata.name, pv.metadata.name
            )
        })
    })
}

fn volume_bind_hint(
    cluster: &Cluster,
    pod: &crate::cluster::PodInfo,
    node: &NodeInfo,
) -> Option<String> {
    let mut parts = Vec::new();
    for c in claims_of(cluster, pod).filter(|c| !c.fully_bound() && c.spec.volume_name.is_empty()) {
        let class_name = c.class();
        let Some(class) = cluster.volumes().class(class_name) else {
            continue;
        };
        let of_class: Vec<_> = cluster
            .volumes()
            .pvs
            .values()
            .filter(|v| v.class() == class_name)
            .collect();
        let free = of_class
            .iter()
            .filter(|v| v.spec.claim_ref.is_none() && v.status.phase == "Available")
            .count();
        let here = of_class
            .iter()
            .filter(|v| {
                v.spec.claim_ref.is_none()
                    && v.status.phase == "Available"
                    && v.node_affinity_matches(node.labels())
            })
            .count();
        let not_available = of_class
            .iter()
            .filter(|v| v.spec.claim_ref.is_none() && v.status.phase != "Available")
            .count();
        let mut s = format!(
            "claim {} (class {class_name}, requests {}): {} volume(s) of the class, {free} free, {here} reachable from this node",
            c.metadata.name,
            crate::model::quantity::format_bytes(c.request()),
            of_class.len()
        );
        if here > 0 {
            s.push_str(" but too small or with other access modes");
        }
        if not_available > 0 {
            s.push_str(&format!(
                "; {not_available} unclaimed volume(s) lack status.phase: Available and are never matched"
            ));
        }
        if class.provisioner.is_empty() || class.provisioner == "kubernetes.io/no-provisioner" {
            s.push_str("; the class cannot provision new volumes");
        } else if !class.topology_allows(node.labels()) {
            s.push_str(
                "; the class provisions only in its allowedTopologies, which exclude this node",
            );
        } else if let Some(n) = c.metadata.annotations.get(ANN_SELECTED_NODE) {
            s.push_str(&format!("; it is being provisioned for node {n}"));
        }
        parts.push(s);
    }
    (!parts.is_empty()).then(|| parts.join(". "))
}

/// Why a claim counts as unbound and immediate (for the binder's error).
fn immediate_claims(cluster: &Cluster, pod: &crate::cluster::PodInfo) -> Vec<String> {
    claims_of(cluster, pod)
        .filter(|c| !c.fully_bound())
        .filter_map(|c| {
            let class = c.class();
            let why = if !c.spec.volume_name.is_empty() {
                format!(
                    "names volume {} but lacks the pv.kubernetes.io/bind-completed annotation, so it is not bound yet",
                    c.spec.volume_name
                )
            } else if class.is_empty() {
                "has no storageClassName, so it waits for the PV controller (Immediate)".into()
            } else {
                match cluster.volumes().class(class) {
                    None => format!("names StorageClass {class}, which is not in the input, so it counts as Immediate"),
                    Some(sc) if sc.volume_binding_mode.as_deref() == Some("WaitForFirstConsumer") => return None,
                    Some(_) => format!("has the Immediate class {class}: the PV controller must bind it before the pod can schedule"),
                }
            };
            Some(format!("claim {} {why}", c.metadata.name))
        })
        .collect()
}

/// Explains one cycle of a pod (the cycle must have been recorded with details).
pub fn explain(cluster: &Cluster, trace: &CycleTrace) -> Explanation {
    explain_for(cluster, trace, crate::model::FrontEnd::Cli)
}

/// [`explain`] for a front end: an option the text mentions is named as `front` spells it.
pub fn explain_for(
    cluster: &Cluster,
    trace: &CycleTrace,
    front: crate::model::FrontEnd,
) -> Explanation {
    let pod = &cluster.pods()[trace.pod];
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
            let volumes: String = trace
                .volume_bindings
                .iter()
                .map(|(claim, pv)| match pv {
                    Some(pv) => format!(" Claim {claim} was bound to volume {pv}."),
                    None => format!(
                        " Claim {claim} will be provisioned for this node by its class's provisioner."
                    ),
                })
                .collect();
            let base = match total {
                Some(t) => format!(
                    "{} was scheduled to {}: it had the highest total score ({t}) of {} feasible nodes{ties}.",
                    pod.full_name, trace.node_name(cluster, n), trace.feasible
                ),
                None => format!(
                    "{} was scheduled to {}, the only feasible node (scoring was skipped).",
                    pod.full_name, trace.node_name(cluster, n)
                ),
            };
            let devices: String = trace
                .modern
                .as_deref()
                .and_then(|m| m.claims.iter().find(|c| c.node == n))
                .map(|c| {
                    c.claims
                        .iter()
                        .filter(|c| matches!(c.answer, super::v135::ClaimAnswer::Devices(_)))
                        .map(|c| format!(" Claim {} gets {}.", c.claim, c.answer_text()))
                        .collect()
                })
                .unwrap_or_default();
            format!("{base}{volumes}{devices}")
        }
        (Outcome::Unschedulable, _) => format!(
            "{} is Pending: {}",
            pod.full_name,
            trace.message.clone().unwrap_or_default()
        ),
        _ => {
            let msg = trace.message.clone().unwrap_or_default();
            let mut out = format!("{} could not be scheduled: {msg}", pod.full_name);
            if msg == "pod has unbound immediate PersistentVolumeClaims" {
                for why in immediate_claims(cluster, pod) {
                    out.push_str(&format!("; {why}"));
                }
            } else if msg.starts_with("persistentvolumeclaim ") {
                out.push_str(&format!(
                    " (claims are looked up in the pod's namespace {})",
                    pod.pod.metadata.namespace_or_default()
                ));
            }
            out
        }
    };
    let mut nodes: Vec<NodeExplanation> = trace
        .filter
        .iter()
        .filter(|r| !r.fits())
        .map(|r| {
            // Hints read the node's current state; a node deleted since the cycle has none.
            let name = trace.node_name(cluster, r.node);
            let node = cluster.nodes().get(r.node).filter(|n| n.name() == name);
            let mut hints: Vec<String> = Vec::new();
            // DynamicResources' answer per claim on this node.
            let claims = trace
                .modern
                .as_deref()
                .and_then(|m| m.claims.iter().find(|c| c.node == r.node));
            for c in claims
                .into_iter()
                .flat_map(|c| c.claims.iter())
                .filter(|c| c.failed())
            {
                hints.push(c.describe());
            }
            for reason in r.reasons() {
                if let Some(h) = node.and_then(|node| hint(reason, cluster, pod, node)) {
                    if !hints.contains(&h) {
                        hints.push(h);
                    }
                }
            }
            NodeExplanation {
                node: name.to_string(),
                reasons: r.reasons().map(Reason::explain).collect(),
                hints,
            }
        })
        .collect();
    for (node, reason) in super::explain_extenders::failed_nodes(cluster, trace) {
        match nodes.iter_mut().find(|n| n.node == node) {
            Some(n) => n.reasons.push(reason),
            None => nodes.push(NodeExplanation {
                node,
                reasons: vec![reason],
                hints: Vec::new(),
            }),
        }
    }
    Explanation {
        summary,
        nodes,
        preemption: super::preemption::explain_preemption(cluster, trace),
        extenders: super::explain_extenders::lines(cluster, trace, front),
    }
}

impl std::fmt::Display for Explanation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "{}", self.summary)?;
        if let Some(p) = &self.preemption {
            writeln!(f, "{p}")?;
        }
        for e in &self.extenders {
            writeln!(f, "  {e}")?;
        }
        for n in &self.nodes {
            writeln!(f, "  {}: {}", n.node, n.reasons.join("; "))?;
            for h in &n.hints {
                writeln!(f, "    hint: {h}")?;
            }
        }
        Ok(())
    }
}
