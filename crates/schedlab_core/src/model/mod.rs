//! What a cluster is made of: nodes, pods, quantities, labels, selectors, taints, workloads.
//!
//! These are plain data read from Kubernetes JSON/YAML (only the fields the scheduler uses;
//! everything else is ignored on input). Derived, per-cycle facts live in `cluster`, not here.

pub mod dra;
pub(crate) mod field;
pub mod meta;
pub(crate) mod names;
pub mod node;
pub mod pod;
pub mod quantity;
pub mod resources;
pub mod selector;
pub mod taint;
pub mod time;
pub mod timeline;
pub mod volume;
pub(crate) mod words;
pub mod workload;

/// The apiVersion of schedlab's own kinds (`Timeline`, `ExtenderMock`, `ExtenderRecording`).
pub const SCHEDLAB_API_VERSION: &str = "schedlab.dev/v1alpha1";

pub use meta::{Labels, ObjectMeta, OwnerReference};
pub use node::Node;
pub use pod::Pod;
pub use quantity::Quantity;
pub use resources::{ResourceList, Resources};
pub use selector::{LabelSelector, NodeSelector, NodeSelectorTerm, Requirement};
pub use taint::{Taint, Toleration};
pub use time::Millis;
pub use words::{FrontEnd, OptionName};
pub use workload::{
    PodDisruptionBudget, PriorityClass, ReplicationController, SelectorWorkload, Service,
};
