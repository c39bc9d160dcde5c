//! Legacy v1.17 predicates (Filter extension point), one per file, and their evaluation order.
//!
//! Every file has the same anatomy: a `//!` doc of the rule, the predicate type implementing
//! `FilterPlugin`, then a table of test cases whose expected values come from the reference.

pub mod check_node_label_presence;
pub mod check_node_unschedulable;
pub mod check_service_affinity;
pub mod check_volume_binding;
pub mod even_pods_spread;
pub mod general_predicates;
pub mod host_name;
pub mod match_inter_pod_affinity;
pub mod match_node_selector;
pub mod max_csi_volume_count;
pub mod max_volume_count;
pub mod no_disk_conflict;
pub mod no_volume_zone_conflict;
pub mod pod_fits_host_ports;
pub mod pod_fits_resources;
pub mod pod_tolerates_node_taints;

use crate::framework::FilterPlugin;
use max_volume_count::{MaxVolumeCount, VolumeType};

/// `predicates.Ordering()` of v1.17: predicates run in this order, whatever the Policy order.
pub const ORDERING: [&str; 20] = [
    "CheckNodeUnschedulable",
    "GeneralPredicates",
    "HostName",
    "PodFitsHostPorts",
    "MatchNodeSelector",
    "PodFitsResources",
    "NoDiskConflict",
    "PodToleratesNodeTaints",
    "PodToleratesNodeNoExecuteTaints",
    "CheckNodeLabelPresence",
    "CheckServiceAffinity",
    "MaxEBSVolumeCount",
    "MaxGCEPDVolumeCount",
    "MaxCSIVolumeCountPred",
    "MaxAzureDiskVolumeCount",
    "MaxCinderVolumeCount",
    "CheckVolumeBinding",
    "NoVolumeZoneConflict",
    "EvenPodsSpread",
    "MatchInterPodAffinity",
];

/// Predicate names a v1.17 Policy accepts without an argument.
pub const NAMES: [&str; 18] = [
    "PodFitsPorts",
    "PodFitsHostPorts",
    "PodFitsResources",
    "HostName",
    "MatchNodeSelector",
    "NoVolumeZoneConflict",
    "MaxEBSVolumeCount",
    "MaxGCEPDVolumeCount",
    "MaxAzureDiskVolumeCount",
    "MaxCSIVolumeCountPred",
    "MaxCinderVolumeCount",
    "MatchInterPodAffinity",
    "NoDiskConflict",
    "GeneralPredicates",
    "PodToleratesNodeTaints",
    "CheckNodeUnschedulable",
    "CheckVolumeBinding",
    "EvenPodsSpread",
];

/// Condition predicates removed in v1.17 (accepted with a warning, never run).
pub const REMOVED: [&str; 4] = [
    "CheckNodeCondition",
    "CheckNodeMemoryPressure",
    "CheckNodeDiskPressure",
    "CheckNodePIDPressure",
];

/// Always added (`RegisterMandatoryFitPredicate`).
pub const MANDATORY: [&str; 2] = ["PodToleratesNodeTaints", "CheckNodeUnschedulable"];

/// The DefaultProvider predicate set of v1.17.
pub const DEFAULT_PROVIDER: [&str; 11] = [
    "NoVolumeZoneConflict",
    "MaxEBSVolumeCount",
    "MaxGCEPDVolumeCount",
    "MaxAzureDiskVolumeCount",
    "MaxCSIVolumeCountPred",
    "MatchInterPodAffinity",
    "NoDiskConflict",
    "GeneralPredicates",
    "PodToleratesNodeTaints",
    "CheckVolumeBinding",
    "CheckNodeUnschedulable",
];

/// Registered in v1.17 (the 1.0 name of PodFitsHostPorts) but absent from `Ordering()`, so
/// kube-scheduler v1.17 accepts it and never runs it.
pub const REGISTERED_NEVER_RUN: &str = "PodFitsPorts";

/// Position in [`ORDERING`].
pub fn ordering_index(key: &str) -> Option<usize> {
    ORDERING.iter().position(|k| *k == key)
}

/// The implementation of a plain (argument-less) predicate name.
pub fn builtin(name: &str) -> Option<Box<dyn FilterPlugin>> {
    use check_node_unschedulable::CheckNodeUnschedulable;
    Some(match name {
        "CheckNodeUnschedulable" => Box::new(CheckNodeUnschedulable),
        "GeneralPredicates" => Box::new(general_predicates::GeneralPredicates),
        "HostName" => Box::new(host_name::HostName),
        "PodFitsHostPorts" => Box::new(pod_fits_host_ports::PodFitsHostPorts),
        "MatchNodeSelector" => Box::new(match_node_selector::MatchNodeSelector),
        "PodFitsResources" => Box::new(pod_fits_resources::PodFitsResources),
        "NoDiskConflict" => Box::new(no_disk_conflict::NoDiskConflict),
        "PodToleratesNodeTaints" => Box::new(pod_tolerates_node_taints::PodToleratesNodeTaints),
        "MaxEBSVolumeCount" => Box::new(MaxVolumeCount(VolumeType::Ebs)),
        "MaxGCEPDVolumeCount" => Box::new(MaxVolumeCount(VolumeType::GcePd)),
        "MaxAzureDiskVolumeCount" => Box::new(MaxVolumeCount(VolumeType::AzureDisk)),
        "MaxCinderVolumeCount" => Box::new(MaxVolumeCount(VolumeType::Cinder)),
        "MaxCSIVolumeCountPred" => Box::new(max_csi_volume_count::MaxCsiVolumeCount),
        "CheckVolumeBinding" => Box::new(check_volume_binding::CheckVolumeBinding),
        "NoVolumeZoneConflict" => Box::new(no_volume_zone_conflict::NoVolumeZoneConflict),
        "EvenPodsSpread" => Box::new(even_pods_spread::EvenPodsSpread),
        "MatchInterPodAffinity" => Box::new(match_inter_pod_affinity::MatchInterPodAffinity),
        _ => return None,
    })
}
