//! `KubeSchedulerConfiguration` `kubescheduler.config.k8s.io/v1alpha1`, the v1.17 component
//! config: the fields that change scheduling decisions, with v1.17 defaults and validation.
//! The input layer sends `kubescheduler.config.k8s.io/v1` to [`crate::v135::config`] and
//! refuses other versions; this reader is v1alpha1's alone.

use serde::Deserialize;
use serde_json::Value;

/// The supported apiVersion.
pub const V1ALPHA1: &str = "kubescheduler.config.k8s.io/v1alpha1";

/// The fields schedlab reads, defaulted.
#[derive(Clone, Debug, PartialEq)]
pub struct SchedulerConfiguration {
    /// `schedulerName` (default `default-scheduler`).
    pub scheduler_name: String,
    /// `algorithmSource.provider` (default `DefaultProvider`).
    pub provider: String,
    /// `percentageOfNodesToScore` (0 = adaptive).
    pub percentage_of_nodes_to_score: i32,
    /// `disablePreemption`.
    pub disable_preemption: bool,
    /// `hardPodAffinitySymmetricWeight` (default 1; 0 means the default).
    pub hard_pod_affinity_symmetric_weight: i64,
    /// `podInitialBackoffSeconds` (default 1).
    pub pod_initial_backoff_seconds: i64,
    /// `podMaxBackoffSeconds` (default 10).
    pub pod_max_backoff_seconds: i64,
    /// `bindTimeoutSeconds` (default 600).
    pub bind_timeout_seconds: i64,
}

impl Default for SchedulerConfiguration {
    fn default() -> Self {
        SchedulerConfiguration {
            scheduler_name: "default-scheduler".into(),
            provider: "DefaultProvider".into(),
            percentage_of_nodes_to_score: 0,
            disable_preemption: false,
            hard_pod_affinity_symmetric_weight: 1,
            pod_initial_backoff_seconds: 1,
            pod_max_backoff_seconds: 10,
            bind_timeout_seconds: 600,
        }
    }
}

impl SchedulerConfiguration {
    /// The configuration as a v1alpha1 document (every field schedlab reads, spelled out).
    pub fn to_document(&self) -> Value {
        serde_json::json!({
            "apiVersion": V1ALPHA1,
            "kind": "KubeSchedulerConfiguration",
            "schedulerName": self.scheduler_name,
            "algorithmSource": {"provider": self.provider},
            "percentageOfNodesToScore": self.percentage_of_nodes_to_score,
            "disablePreemption": self.disable_preemption,
            "hardPodAffinitySymmetricWeight": self.hard_pod_affinity_symmetric_weight,
            "podInitialBackoffSeconds": self.pod_initial_backoff_seconds,
            "podMaxBackoffSeconds": self.pod_max_backoff_seconds,
            "bindTimeoutSeconds": self.bind_timeout_seconds,
        })
    }
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct RawConfig {
    scheduler_name: Option<String>,
    algorithm_source: Option<AlgorithmSource>,
    percentage_of_nodes_to_score: Option<i32>,
    disable_preemption: Option<bool>,
    hard_pod_affinity_symmetric_weight: Option<i64>,
    pod_initial_backoff_seconds: Option<i64>,
    pod_max_backoff_seconds: Option<i64>,
    bind_timeout_seconds: Option<i64>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct AlgorithmSource {
    provider: Option<String>,
    policy: Option<Value>,
}

/// A (path, message) pair.
pub(crate) type PathMessage = (String, String);

/// Reads and validates a configuration; returns warnings (path, message) alongside.
pub(crate) fn read(
    api_version: &str,
    value: Value,
) -> Result<(SchedulerConfiguration, Vec<PathMessage>), PathMessage> {
    if api_version != V1ALPHA1 {
        return Err((
            "apiVersion".into(),
            format!(
                "KubeSchedulerConfiguration {api_version:?} is not kube-scheduler v1.17's configuration: \
                 v1.17 reads {V1ALPHA1} (kubescheduler.config.k8s.io/v1 selects kube-scheduler v1.35)"
            ),
        ));
    }
    let raw: RawConfig = serde_path_to_error::deserialize(value)
        .map_err(|e| (e.path().to_string(), e.into_inner().to_string()))?;
    let mut warnings = Vec::new();
    let mut c = SchedulerConfiguration::default();
    if let Some(n) = raw.scheduler_name {
        if n.is_empty() {
            return Err(("schedulerName".into(), "Required value".into()));
        }
        c.scheduler_name = n;
    }
    if let Some(src) = raw.algorithm_source {
        if let Some(p) = src.provider {
            c.provider = p;
        }
        if let Some(policy) = src.policy {
            let what = if policy.get("file").is_some() {
                "file"
            } else {
                "configMap"
            };
            warnings.push((
                format!("algorithmSource.policy.{what}"),
                format!(
                    "the policy {what} reference is not followed: pass the Policy file itself as an input \
                     (until then the {} applies)",
                    c.provider
                ),
            ));
        }
    }
    if let Some(p) = raw.percentage_of_nodes_to_score {
        if !(0..=100).contains(&p) {
            return Err((
                "percentageOfNodesToScore".into(),
                format!("Invalid value: {p}: not in valid range 0-100"),
            ));
        }
        c.percentage_of_nodes_to_score = p;
    }
    c.disable_preemption = raw.disable_preemption.unwrap_or(false);
    if let Some(w) = raw.hard_pod_affinity_symmetric_weight {
        if !(0..=100).contains(&w) {
            return Err((
                "hardPodAffinitySymmetricWeight".into(),
                format!("Invalid value: {w}: not in valid range 0-100"),
            ));
        }
        if w != 0 {
            c.hard_pod_affinity_symmetric_weight = w;
        }
    }
    if let Some(b) = raw.pod_initial_backoff_seconds {
        if b <= 0 {
            return Err((
                "podInitialBackoffSeconds".into(),
                format!("Invalid value: {b}: must be greater than 0"),
            ));
        }
        c.pod_initial_backoff_seconds = b;
    }
    if let Some(b) = raw.pod_max_backoff_seconds {
        c.pod_max_backoff_seconds = b;
    }
    if c.pod_max_backoff_seconds < c.pod_initial_backoff_seconds {
        return Err((
            "podMaxBackoffSeconds".into(),
            format!(
                "Invalid value: {}: must be greater than or equal to PodInitialBackoffSeconds",
                c.pod_max_backoff_seconds
            ),
        ));
    }
    if let Some(b) = raw.bind_timeout_seconds {
        c.bind_timeout_seconds = b;
    }
    Ok((c, warnings))
}
