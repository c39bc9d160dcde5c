//! Defaulting (`SetDefaults_KubeSchedulerConfiguration`, reference §1.1) and the merge of each
//! profile's plugins with the default ones.

use super::merge::Plugins;
use super::types::{RawConfiguration, RawExtender, RawPluginConfig};

/// `v1.DefaultSchedulerName`.
pub const DEFAULT_SCHEDULER_NAME: &str = "default-scheduler";

/// A defaulted configuration, before validation.
#[derive(Debug)]
pub(crate) struct Defaulted {
    pub parallelism: i32,
    pub percentage_of_nodes_to_score: i32,
    pub pod_initial_backoff_seconds: i64,
    pub pod_max_backoff_seconds: i64,
    pub profiles: Vec<ProfileConfig>,
    pub extenders: Vec<RawExtender>,
}

/// A defaulted profile.
#[derive(Debug)]
pub(crate) struct ProfileConfig {
    /// `schedulerName`; empty when none was given and none defaulted.
    pub scheduler_name: String,
    pub percentage_of_nodes_to_score: Option<i32>,
    /// Whether the input gave `plugins` (for error paths).
    pub plugins_given: bool,
    /// The plugins merged with the defaults.
    pub plugins: Plugins,
    pub plugin_config: Vec<RawPluginConfig>,
}

impl ProfileConfig {
    /// The pluginConfig entry for `name` (the first one), with its index.
    pub(super) fn config_of(&self, name: &str) -> Option<(usize, &RawPluginConfig)> {
        self.plugin_config
            .iter()
            .enumerate()
            .find(|(_, c)| c.name == name)
    }
}

/// Applies v1.35's defaults.
pub(crate) fn apply(raw: RawConfiguration) -> Defaulted {
    let mut profiles = raw.profiles.unwrap_or_default();
    if profiles.is_empty() {
        profiles.push(Default::default());
    }
    // The name is defaulted only for a single profile that gives none.
    if let [only] = profiles.as_mut_slice() {
        only.scheduler_name
            .get_or_insert_with(|| DEFAULT_SCHEDULER_NAME.to_string());
    }
    Defaulted {
        parallelism: raw.parallelism.unwrap_or(16),
        percentage_of_nodes_to_score: raw.percentage_of_nodes_to_score.unwrap_or(0),
        pod_initial_backoff_seconds: raw.pod_initial_backoff_seconds.unwrap_or(1),
        pod_max_backoff_seconds: raw.pod_max_backoff_seconds.unwrap_or(10),
        profiles: profiles
            .into_iter()
            .map(|p| ProfileConfig {
                scheduler_name: p.scheduler_name.unwrap_or_default(),
                percentage_of_nodes_to_score: p.percentage_of_nodes_to_score,
                plugins_given: p.plugins.is_some(),
                plugins: Plugins::merged(p.plugins.map(|p| p.custom()).as_ref()),
                plugin_config: p.plugin_config.unwrap_or_default(),
            })
            .collect(),
        extenders: raw.extenders.unwrap_or_default(),
    }
}
