//! `KubeSchedulerConfiguration` `kubescheduler.config.k8s.io/v1`: read, defaulted, merged with
//! v1.35's default plugins and validated as upstream does (reference §1–2).
//!
//! [`read`] runs upstream's steps in order, and stops after the first step that fails:
//!
//! 1. **strict decoding** (`types.rs`): every v1 field and no other; an unknown field or a
//!    wrong type is an error at its path (`profiles` given as a mapping fails at `profiles`,
//!    never reads as "no profiles"). Plugin `args` stay raw JSON. Process-only fields
//!    (`leaderElection`, `clientConnection`, profiling, `delayCacheUntilActive`) are accepted
//!    and ignored, `parallelism` is only validated.
//! 2. **defaulting** (reference §1.1): one profile when none is given; `default-scheduler` only
//!    for a single profile without `schedulerName`; backoffs 1 s / 10 s; percentage 0 (adaptive);
//!    each profile's `plugins` merged with the default plugins ([`merge`], §2.1).
//! 3. **validation** (§2.3), worded as upstream with paths inside the document; every error at
//!    once. Plugins whose args validation checks (`args_checked_by_validation`) are built here
//!    from their `pluginConfig`, and their errors are placed under
//!    `profiles[i].pluginConfig[j].args`.
//! 4. **framework build** of each profile (§2.2, see `build.rs`): the per-point lists, the
//!    `multiPoint` expansion, Score weights, and the plugin instances. Errors are upstream's
//!    (`initializing profiles: creating profile for scheduler name <name>: …`) at the path of
//!    the offending entry; one per failing profile (upstream stops at the first profile).
//!
//! `extenders` are validated with the rest, then built as upstream's `buildExtenders` does
//! ([`Configuration::extenders`]: `httpTimeout` read as a Go duration, ignorable ones last);
//! their `ignoredByScheduler` managed resources become NodeResourcesFit's `ignoredResources`
//! in every profile.
//!
//! [`plan`] runs steps 1–4 without building plugins and returns the merged sets and the
//! resulting per-point lists ([`ProfilePlan`]), for tests and for the page.

pub(crate) mod merge;

mod build;
mod defaults;
mod types;
mod validate;

#[cfg(test)]
mod tests;

pub use defaults::DEFAULT_SCHEDULER_NAME;
pub(crate) use merge::Plugins;

use crate::model::field::FieldError;
use crate::v135::plugin::Point;
use crate::v135::profile::Profile;
use defaults::Defaulted;
use serde_json::Value;

/// The apiVersion read here.
pub const V1: &str = "kubescheduler.config.k8s.io/v1";

/// A read, defaulted, validated configuration with its built profiles.
#[derive(Debug)]
pub struct Configuration {
    /// The profiles, in input order.
    pub profiles: Vec<Profile>,
    /// The global `percentageOfNodesToScore` (0: adaptive); a profile's own overrides it.
    pub percentage_of_nodes_to_score: i32,
    /// `podInitialBackoffSeconds`.
    pub pod_initial_backoff_seconds: i64,
    /// `extenders`, shared by every profile, ignorable ones last.
    pub extenders: Vec<crate::sched::extender::Extender>,
    /// `podMaxBackoffSeconds`.
    pub pod_max_backoff_seconds: i64,
}

impl Configuration {
    /// v1.35 with every default (what `--scheduler v1.35` runs without a configuration).
    pub fn defaults() -> Configuration {
        let doc = serde_json::json!({"apiVersion": V1, "kind": "KubeSchedulerConfiguration"});
        match read(doc) {
            Ok((c, _)) => c,
            Err(e) => panic!("the default configuration must build: {e:?}"),
        }
    }

    /// Each profile's `percentageOfNodesToScore`: its own, or the global one.
    pub fn percentages(&self) -> impl Iterator<Item = i32> + '_ {
        self.profiles.iter().map(|p| {
            p.percentage_of_nodes_to_score
                .unwrap_or(self.percentage_of_nodes_to_score)
        })
    }

    /// The profile for a scheduler name.
    pub fn profile(&self, scheduler_name: &str) -> Option<&Profile> {
        self.profiles
            .iter()
            .find(|p| p.scheduler_name == scheduler_name)
    }
}

/// A profile as the framework lays it out, without plugin instances: the result of the merge
/// with the defaults, and what runs at each point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfilePlan {
    /// `schedulerName`.
    pub scheduler_name: String,
    /// The profile's `percentageOfNodesToScore`, if set.
    pub percentage_of_nodes_to_score: Option<i32>,
    /// Its `plugins` merged with the default plugins (`mergePlugins`), before expansion.
    pub plugins: Plugins,
    /// For each [`Point`] (indexed by `Point as usize`), the plugins that run there, in order,
    /// each with its Score weight (1 for a plugin without one), as in
    /// [`crate::v135::profile::Enabled::weight`].
    pub points: [Vec<(String, i64)>; 12],
}

impl ProfilePlan {
    /// The plugins at `point`, with weights.
    pub fn at(&self, point: Point) -> &[(String, i64)] {
        &self.points[point as usize]
    }

    /// The names of the plugins at `point`, in order.
    pub fn names_at(&self, point: Point) -> Vec<&str> {
        self.at(point).iter().map(|(n, _)| n.as_str()).collect()
    }
}

/// `profiles[i]`.
fn profile_path(i: usize) -> String {
    format!("profiles[{i}]")
}

/// Steps 1–3: decoded, defaulted, validated; with the warnings.
fn prepare(value: Value) -> Result<(Defaulted, Vec<FieldError>), Vec<FieldError>> {
    let raw = types::decode(value).map_err(|e| vec![e])?;
    let config = defaults::apply(raw);
    let errors = validate::validate(&config);
    if !errors.is_empty() {
        return Err(errors);
    }
    let warnings = Vec::new();
    Ok((config, warnings))
}

/// Reads a v1 document (already known to be apiVersion v1, kind KubeSchedulerConfiguration).
/// Ok: the configuration and warnings (each at its path, e.g. `profiles[0].plugins...`).
/// Err: every error, each a FieldError whose path is inside the document.
pub(crate) fn read(value: Value) -> Result<(Configuration, Vec<FieldError>), Vec<FieldError>> {
    let (config, warnings) = prepare(value)?;
    let extenders = build_extenders(&config.extenders)?;
    let ignored: Vec<String> = config
        .extenders
        .iter()
        .flat_map(|e| &e.managed_resources)
        .filter(|r| r.ignored_by_scheduler)
        .map(|r| r.name.clone())
        .collect();
    let mut profiles = Vec::new();
    let mut errors = Vec::new();
    for (i, p) in config.profiles.iter().enumerate() {
        match build::build_profile(i, p, &ignored) {
            Ok(profile) => profiles.push(profile),
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok((
        Configuration {
            profiles,
            percentage_of_nodes_to_score: config.percentage_of_nodes_to_score,
            pod_initial_backoff_seconds: config.pod_initial_backoff_seconds,
            pod_max_backoff_seconds: config.pod_max_backoff_seconds,
            extenders,
        },
        warnings,
    ))
}

/// `buildExtenders`: each extender as configured, `httpTimeout` read as a `metav1.Duration`
/// (a bad one is a decoding error at its path), ignorable ones moved to the end.
fn build_extenders(
    raw: &[types::RawExtender],
) -> Result<Vec<crate::sched::extender::Extender>, Vec<FieldError>> {
    use crate::sched::extender::{config, ignorable_last, Extender, ManagedResource};
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (i, e) in raw.iter().enumerate() {
        let ext = Extender {
            url_prefix: e.url_prefix.clone(),
            filter_verb: e.filter_verb.clone(),
            preempt_verb: e.preempt_verb.clone(),
            prioritize_verb: e.prioritize_verb.clone(),
            bind_verb: e.bind_verb.clone(),
            weight: e.weight,
            enable_https: e.enable_https,
            http_timeout: None,
            node_cache_capable: e.node_cache_capable,
            managed_resources: e
                .managed_resources
                .iter()
                .map(|r| ManagedResource {
                    name: r.name.clone(),
                    ignored_by_scheduler: r.ignored_by_scheduler,
                })
                .collect(),
            ignorable: e.ignorable,
        };
        match config::from_v1_fields(ext, e.http_timeout.as_deref()) {
            Ok(ext) => out.push(ext),
            Err(message) => errors.push(FieldError::plain(
                format!("extenders[{i}].httpTimeout"),
                message,
            )),
        }
    }
    if errors.is_empty() {
        Ok(ignorable_last(out))
    } else {
        Err(errors)
    }
}

/// Like [`read`], but lays the profiles out without building their plugins (so plugin args
/// are checked only where validation checks them): the merged plugin sets and the list at
/// each point, with Score weights.
pub fn plan(value: Value) -> Result<(Vec<ProfilePlan>, Vec<FieldError>), Vec<FieldError>> {
    let (config, warnings) = prepare(value)?;
    let mut plans = Vec::new();
    let mut errors = Vec::new();
    for (i, p) in config.profiles.iter().enumerate() {
        match build::plan_profile(i, p) {
            Ok(plan) => plans.push(plan),
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok((plans, warnings))
    } else {
        Err(errors)
    }
}
