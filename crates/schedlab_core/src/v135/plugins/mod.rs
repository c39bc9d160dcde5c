//! The v1.35 in-tree plugins, one file (or folder) each, named as upstream names its plugin
//! folders. Each declares its [`crate::v135::plugin::PluginSpec`] as `SPEC`, its queueing
//! hints beside its code, and its tests at the bottom. [`helper`] is what several share;
//! `testkit` runs one plugin's extension points for their tests.

pub mod default_binder;
pub mod default_preemption;
pub mod dynamic_resources;
pub mod helper;
pub mod image_locality;
pub mod inter_pod_affinity;
pub mod node_affinity;
pub mod node_name;
pub mod node_ports;
pub mod node_resources;
pub mod node_unschedulable;
pub mod node_volume_limits;
pub mod pod_topology_spread;
pub mod priority_sort;
pub mod scheduling_gates;
pub mod taint_toleration;
#[cfg(test)]
pub(crate) mod testkit;
pub mod volume_binding;
pub mod volume_restrictions;
pub mod volume_zone;
