//! The v1.35 in-tree plugins, one file (or folder) each, named as upstream names its plugin
//! folders. Each declares its [`crate::v135::plugin::PluginSpec`] as `SPEC`, its queueing
//! hints beside its code, and its tests at the bottom. [`helper`] is what several share;
//! `testkit` runs one plugin's extension points for their tests.

pub(crate) mod default_binder;
pub(crate) mod default_preemption;
pub(crate) mod dynamic_resources;
pub(crate) mod helper;
pub(crate) mod image_locality;
pub(crate) mod inter_pod_affinity;
pub(crate) mod node_affinity;
pub(crate) mod node_name;
pub(crate) mod node_ports;
pub(crate) mod node_resources;
pub(crate) mod node_unschedulable;
pub(crate) mod node_volume_limits;
pub(crate) mod pod_topology_spread;
pub(crate) mod priority_sort;
pub(crate) mod scheduling_gates;
pub(crate) mod taint_toleration;
#[cfg(test)]
pub(crate) mod testkit;
pub(crate) mod volume_binding;
pub(crate) mod volume_restrictions;
pub(crate) mod volume_zone;
