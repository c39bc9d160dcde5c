//! kube-scheduler v1.35: the scheduling framework with profiles and plugins
//! (`kubescheduler.config.k8s.io/v1`).
//!
//! - [`registry`]: the list of every plugin's [`plugin::PluginSpec`], from which every list derives.
//! - [`plugins`]: one file per in-tree plugin, named as upstream names them.
//! - [`plugin`]: the interface a plugin implements, one method per extension point.
//! - [`status`]: upstream's status codes.
//! - [`config`]: reading, defaulting, merging and validating a v1 configuration.
//! - [`custom`]: plugins an author brings (kube-scheduler-wasm-extension guests).
//! - [`profile`]: a profile ready to run: plugin instances and the list at each point.
//!
//! Semantics: `shared/reference/modern.md` (v1.35.7).

pub(crate) mod config;
pub(crate) mod custom;
pub(crate) mod cycle;
pub(crate) mod plugin;
pub(crate) mod plugins;
pub(crate) mod preemption;
pub(crate) mod profile;
pub(crate) mod queueing;
pub(crate) mod registry;
pub(crate) mod status;

use crate::cluster::PodInfo;
use crate::model::Pod;

/// A pod as v1.35 reads it: `matchLabelKeys`/`mismatchLabelKeys` merged into its pod
/// (anti-)affinity selectors as kube-apiserver does at creation, then v1.35's accounting
/// ([`PodInfo::new_v135`]).
pub(crate) fn pod_info(pod: impl Into<Box<Pod>>, priority: i32, input_index: usize) -> PodInfo {
    let mut pod = pod.into();
    plugins::inter_pod_affinity::apply_match_label_keys(&mut pod);
    PodInfo::new_v135(pod, priority, input_index)
}
