//! kube-scheduler v1.35: the scheduling framework with profiles and plugins
//! (`kubescheduler.config.k8s.io/v1`), beside the v1.17 scheduler of [`crate::framework`].
//!
//! - [`registry`]: every plugin's [`registry::PluginSpec`], from which every list derives.
//! - [`plugins`]: one file per in-tree plugin, named as upstream names them.
//! - [`plugin`]: the interface a plugin implements, one method per extension point.
//! - [`status`]: upstream's status codes.
//! - [`config`]: reading, defaulting, merging and validating a v1 configuration.
//! - [`profile`]: a profile ready to run: plugin instances and the list at each point.
//!
//! Semantics: `shared/reference/modern.md` (v1.35.7).

pub mod config;
pub mod cycle;
pub mod hints;
pub mod plugin;
pub mod plugins;
pub mod preemption;
pub mod profile;
pub mod registry;
pub mod status;
