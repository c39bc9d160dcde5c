//! v1.35's requeueing of unschedulable pods on a cluster event (reference §5): a pod leaves
//! the unschedulable pool only when one of the plugins that rejected it says the event may
//! help ([`super::plugin::Plugin::queueing_hint`], asked through its profile). An assigned
//! pod's add is first narrowed as `getUnschedulablePodsWithCrossTopologyTerm` narrows it.

use super::config::Configuration;
use super::plugins::inter_pod_affinity::existing_term_matches;
use crate::cluster::{Cluster, PodInfo};
use crate::queue::ClusterChange;

/// Whether `change` may make `waiting`, which the plugins `rejectors` rejected, schedulable.
pub(crate) fn may_help(
    config: &Configuration,
    change: &ClusterChange,
    waiting: &PodInfo,
    rejectors: &[&'static str],
    cluster: &Cluster,
) -> bool {
    if let ClusterChange::PodAdd(added) = *change {
        if !cross_topology(waiting, &cluster.pods()[added], rejectors, cluster) {
            return false;
        }
    }
    config
        .profile(waiting.pod.scheduler_name())
        .is_some_and(|p| p.may_help(change, waiting, rejectors, cluster))
}

/// `getUnschedulablePodsWithCrossTopologyTerm`: an assigned pod's add concerns only the
/// waiting pods with a required pod-affinity term it matches, and those PodTopologySpread
/// rejected in its namespace.
fn cross_topology(
    waiting: &PodInfo,
    added: &PodInfo,
    rejectors: &[&'static str],
    cluster: &Cluster,
) -> bool {
    if rejectors.contains(&"PodTopologySpread") && added.namespace == waiting.namespace {
        return true;
    }
    let ns_labels = cluster
        .namespaces()
        .get(&added.namespace)
        .cloned()
        .unwrap_or_default();
    waiting.pod.pod_affinity().is_some_and(|a| {
        a.required_during_scheduling_ignored_during_execution
            .iter()
            .any(|t| existing_term_matches(t, &waiting.namespace, added, &ns_labels))
    })
}
