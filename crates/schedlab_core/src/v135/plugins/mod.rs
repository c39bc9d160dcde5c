//! The v1.35 in-tree plugins, one file each, named as upstream names its plugin folders.
//! Each file declares its [`crate::v135::registry::PluginSpec`] as `SPEC`.

pub mod default_binder;
pub mod default_preemption;
pub mod dynamic_resources;
pub mod image_locality;
pub mod inter_pod_affinity;
pub mod node_affinity;
pub mod node_name;
pub mod node_ports;
pub mod node_resources_balanced_allocation;
pub mod node_resources_fit;
pub mod node_unschedulable;
pub mod node_volume_limits;
pub mod pod_topology_spread;
pub mod priority_sort;
pub mod scheduling_gates;
pub mod taint_toleration;
pub mod volume_binding;
pub mod volume_restrictions;
pub mod volume_zone;
