//! Legacy v1.17 predicates (Filter extension point), one per file, and their evaluation order.
//!
//! Every file has the same anatomy: a `//!` doc of the rule, the predicate type implementing
//! `FilterPlugin`, then a table of test cases whose expected values come from the reference.

pub(crate) mod check_node_label_presence;
pub(crate) mod check_node_unschedulable;
pub(crate) mod check_service_affinity;
pub(crate) mod check_volume_binding;
pub(crate) mod even_pods_spread;
pub(crate) mod general_predicates;
pub(crate) mod host_name;
pub(crate) mod match_inter_pod_affinity;
pub(crate) mod match_node_selector;
pub(crate) mod max_csi_volume_count;
pub(crate) mod max_volume_count;
pub(crate) mod no_disk_conflict;
pub(crate) mod no_volume_zone_conflict;
pub(crate) mod pod_fits_host_ports;
pub(crate) mod pod_fits_resources;
pub(crate) mod pod_tolerates_node_taints;

use crate::v117::FilterPlugin;

/// What a predicate file declares about its predicate; every list below derives from these.
pub struct PredicateSpec {
    /// The name a Policy uses.
    pub name: &'static str,
    /// Its position in v1.17's `predicates.Ordering()`; `None`: registered, never run.
    pub order: Option<u8>,
    /// Whether a Policy may name it without an argument.
    pub plain: bool,
    /// Its position in the DefaultProvider's predicate set, if it belongs to it.
    pub default_provider: Option<u8>,
    /// Always added (`RegisterMandatoryFitPredicate`).
    pub mandatory: bool,
    /// Builds the argument-less predicate (`None`: it needs a Policy argument, or never runs).
    pub build: Option<fn() -> Box<dyn FilterPlugin>>,
}

/// Every v1.17 predicate, in the order a Policy's names are listed in suggestions and forms.
pub static REGISTRY: &[&PredicateSpec] = &[
    &pod_fits_host_ports::POD_FITS_PORTS,
    &pod_fits_host_ports::SPEC,
    &pod_fits_resources::SPEC,
    &host_name::SPEC,
    &match_node_selector::SPEC,
    &no_volume_zone_conflict::SPEC,
    &max_volume_count::EBS,
    &max_volume_count::GCE_PD,
    &max_volume_count::AZURE_DISK,
    &max_csi_volume_count::SPEC,
    &max_volume_count::CINDER,
    &match_inter_pod_affinity::SPEC,
    &no_disk_conflict::SPEC,
    &general_predicates::SPEC,
    &pod_tolerates_node_taints::SPEC,
    &check_node_unschedulable::SPEC,
    &check_volume_binding::SPEC,
    &even_pods_spread::SPEC,
    &pod_tolerates_node_taints::NO_EXECUTE_TAINTS,
    &check_node_label_presence::SPEC,
    &check_service_affinity::SPEC,
];

/// The spec registered under `name`.
pub(crate) fn lookup(name: &str) -> Option<&'static PredicateSpec> {
    REGISTRY.iter().copied().find(|s| s.name == name)
}

/// `predicates.Ordering()` of v1.17: predicates run in this order, whatever the Policy order.
pub fn ordering() -> Vec<&'static str> {
    let mut specs: Vec<&PredicateSpec> = REGISTRY
        .iter()
        .copied()
        .filter(|s| s.order.is_some())
        .collect();
    specs.sort_by_key(|s| s.order);
    specs.into_iter().map(|s| s.name).collect()
}

/// Predicate names a v1.17 Policy accepts without an argument.
pub fn names() -> Vec<&'static str> {
    REGISTRY
        .iter()
        .filter(|s| s.plain)
        .map(|s| s.name)
        .collect()
}

/// The DefaultProvider predicate set of v1.17, in its listing order.
pub fn default_provider() -> Vec<&'static str> {
    let mut specs: Vec<&PredicateSpec> = REGISTRY
        .iter()
        .copied()
        .filter(|s| s.default_provider.is_some())
        .collect();
    specs.sort_by_key(|s| s.default_provider);
    specs.into_iter().map(|s| s.name).collect()
}

/// Always added (`RegisterMandatoryFitPredicate`), in the order upstream adds them.
pub fn mandatory() -> Vec<&'static str> {
    // Upstream registers PodToleratesNodeTaints, then CheckNodeUnschedulable.
    let mut m: Vec<&'static str> = REGISTRY
        .iter()
        .filter(|s| s.mandatory)
        .map(|s| s.name)
        .collect();
    m.sort_by_key(|n| std::cmp::Reverse(lookup(n).and_then(|s| s.order)));
    m
}

/// Condition predicates removed in v1.17 (accepted with a warning, never run).
pub(crate) const REMOVED: [&str; 4] = [
    "CheckNodeCondition",
    "CheckNodeMemoryPressure",
    "CheckNodeDiskPressure",
    "CheckNodePIDPressure",
];

/// Registered in v1.17 (the 1.0 name of PodFitsHostPorts) but absent from `Ordering()`, so
/// kube-scheduler v1.17 accepts it and never runs it.
pub(crate) const REGISTERED_NEVER_RUN: &str = pod_fits_host_ports::POD_FITS_PORTS.name;

/// Position in [`ordering`].
pub(crate) fn ordering_index(key: &str) -> Option<usize> {
    lookup(key).and_then(|s| s.order).map(usize::from)
}

/// The implementation of a plain (argument-less) predicate name.
#[cfg(test)]
pub fn builtin(name: &str) -> Option<Box<dyn FilterPlugin>> {
    lookup(name).and_then(|s| s.build).map(|build| build())
}

#[cfg(test)]
mod registry_tests {
    use super::*;

    #[test]
    fn the_derived_lists_are_v1_17s() {
        // filters.md A.5, `predicates.Ordering()`.
        assert_eq!(
            ordering(),
            [
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
            ]
        );
        // `defaultPredicates()` of the DefaultProvider.
        assert_eq!(
            default_provider(),
            [
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
            ]
        );
        assert_eq!(
            mandatory(),
            ["PodToleratesNodeTaints", "CheckNodeUnschedulable"]
        );
        assert_eq!(names().len(), 18);
        assert!(names().contains(&"PodFitsPorts") && !names().contains(&"CheckServiceAffinity"));
        // Every name is registered once, and every plain name but the alias builds.
        for s in REGISTRY {
            assert_eq!(
                REGISTRY.iter().filter(|t| t.name == s.name).count(),
                1,
                "{}",
                s.name
            );
            assert_eq!(
                s.build.is_some(),
                s.plain && s.name != REGISTERED_NEVER_RUN,
                "{}",
                s.name
            );
        }
    }
}
