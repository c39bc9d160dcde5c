//! The v1 document as upstream's strict decoder reads it (`k8s.io/kube-scheduler/config/v1`,
//! `types.go`): every field v1 has, and no other. An unknown field is an error with its path.
//! Fields that only matter to a real process (`leaderElection`, `clientConnection`, profiling,
//! `delayCacheUntilActive`) are read loosely and ignored; `parallelism` is only validated.
//! Plugin `args` stay raw JSON: each plugin reads its own.

use super::merge::{PluginEntry, PluginSet, Plugins};
use crate::model::field::FieldError;
use crate::v135::plugin::Point;
use serde::Deserialize;
use serde_json::Value;

/// `KubeSchedulerConfiguration`.
// Process-only fields are decoded to be accepted (strictly), never read.
#[allow(dead_code)]
#[derive(Deserialize, Default, Debug)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct RawConfiguration {
    pub api_version: Option<String>,
    pub kind: Option<String>,
    pub parallelism: Option<i32>,
    pub leader_election: Option<Value>,
    pub client_connection: Option<Value>,
    pub enable_profiling: Option<bool>,
    pub enable_contention_profiling: Option<bool>,
    pub percentage_of_nodes_to_score: Option<i32>,
    pub pod_initial_backoff_seconds: Option<i64>,
    pub pod_max_backoff_seconds: Option<i64>,
    pub profiles: Option<Vec<RawProfile>>,
    pub extenders: Option<Vec<RawExtender>>,
    pub delay_cache_until_active: Option<bool>,
}

/// `KubeSchedulerProfile`.
#[derive(Deserialize, Default, Debug)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct RawProfile {
    pub scheduler_name: Option<String>,
    pub percentage_of_nodes_to_score: Option<i32>,
    pub plugins: Option<RawPlugins>,
    pub plugin_config: Option<Vec<RawPluginConfig>>,
}

/// `Plugins`: one `PluginSet` per extension point, and `multiPoint`.
#[derive(Deserialize, Default, Debug)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub(crate) struct RawPlugins {
    pub pre_enqueue: RawPluginSet,
    pub queue_sort: RawPluginSet,
    pub pre_filter: RawPluginSet,
    pub filter: RawPluginSet,
    pub post_filter: RawPluginSet,
    pub pre_score: RawPluginSet,
    pub score: RawPluginSet,
    pub reserve: RawPluginSet,
    pub permit: RawPluginSet,
    pub pre_bind: RawPluginSet,
    pub bind: RawPluginSet,
    pub post_bind: RawPluginSet,
    pub multi_point: RawPluginSet,
}

impl RawPlugins {
    fn at(&self, point: Point) -> &RawPluginSet {
        match point {
            Point::PreEnqueue => &self.pre_enqueue,
            Point::QueueSort => &self.queue_sort,
            Point::PreFilter => &self.pre_filter,
            Point::Filter => &self.filter,
            Point::PostFilter => &self.post_filter,
            Point::PreScore => &self.pre_score,
            Point::Score => &self.score,
            Point::Reserve => &self.reserve,
            Point::Permit => &self.permit,
            Point::PreBind => &self.pre_bind,
            Point::Bind => &self.bind,
            Point::PostBind => &self.post_bind,
        }
    }

    /// The configuration's own sets, each entry remembering its index in the input.
    pub(super) fn custom(&self) -> Plugins {
        Plugins {
            multi_point: self.multi_point.custom(),
            points: Point::ALL.map(|p| self.at(p).custom()),
        }
    }
}

/// `PluginSet`.
#[derive(Deserialize, Default, Debug)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub(crate) struct RawPluginSet {
    pub enabled: Vec<RawPlugin>,
    pub disabled: Vec<RawPlugin>,
}

impl RawPluginSet {
    fn custom(&self) -> PluginSet {
        PluginSet {
            enabled: self
                .enabled
                .iter()
                .enumerate()
                .map(|(i, p)| PluginEntry {
                    name: p.name.clone(),
                    weight: p.weight.map(i64::from),
                    index: Some(i),
                })
                .collect(),
            disabled: self.disabled.iter().map(|p| p.name.clone()).collect(),
        }
    }
}

/// `Plugin`: a name and, for Score, a weight (`*int32`).
#[derive(Deserialize, Default, Debug)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub(crate) struct RawPlugin {
    pub name: String,
    pub weight: Option<i32>,
}

/// `PluginConfig`: a plugin name and its raw args.
#[derive(Deserialize, Default, Debug, Clone)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub(crate) struct RawPluginConfig {
    pub name: String,
    pub args: Option<Value>,
}

/// `Extender`, as decoded (built into `sched::extender::Extender` by `build_extenders`).
#[allow(dead_code)]
#[derive(Deserialize, Default, Debug, Clone)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub(crate) struct RawExtender {
    pub url_prefix: String,
    pub filter_verb: String,
    pub preempt_verb: String,
    pub prioritize_verb: String,
    pub weight: i64,
    pub bind_verb: String,
    #[serde(rename = "enableHTTPS")]
    pub enable_https: bool,
    pub tls_config: Option<Value>,
    pub http_timeout: Option<String>,
    pub node_cache_capable: bool,
    pub managed_resources: Vec<RawManagedResource>,
    pub ignorable: bool,
}

/// `ExtenderManagedResource`.
#[derive(Deserialize, Default, Debug, Clone)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub(crate) struct RawManagedResource {
    pub name: String,
    pub ignored_by_scheduler: bool,
}

/// Strict decoding. Stops at the first error, as upstream's decoder does; an unknown field is
/// worded as upstream's strict decoder words it.
pub(crate) fn decode(value: Value) -> Result<RawConfiguration, FieldError> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        // For an unknown field the path ends with the unknown key itself.
        let path = match e.path().to_string() {
            root if root == "." => String::new(),
            path => path,
        };
        let message = e.into_inner().to_string();
        match unknown_field(&message) {
            Some(name) => FieldError::plain(
                path,
                format!("strict decoding error: unknown field {name:?}"),
            ),
            None => FieldError::plain(path, message),
        }
    })
}

/// The field named by serde's "unknown field `x`, expected ..." message.
fn unknown_field(message: &str) -> Option<&str> {
    let rest = message.strip_prefix("unknown field `")?;
    Some(&rest[..rest.find('`')?])
}
