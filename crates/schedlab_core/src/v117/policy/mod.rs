//! The legacy scheduler `Policy` (apiVersion `v1`) and the v1.17 `KubeSchedulerConfiguration`:
//! parse, validate with upstream's rules and wording, apply the DefaultProvider and mandatory
//! predicates, and build a runnable [`Profile`].
//!
//! Deliberate deviations (also in `docs/fidelity.md`):
//! - argument predicates (`serviceAffinity`, `labelsPresence`) and argument priorities
//!   (`serviceAntiAffinity`, `labelPreference`) stay one per Policy entry, under the entry's
//!   name (v1.17 merges entries of one type into a single predicate or priority); predicates
//!   run at the `Ordering()` slot of their type;
//! - the condition predicates removed in v1.17 are accepted with a warning and never run;
//! - extenders are not called: a warning says so, and their `ignoredByScheduler` managed
//!   resources are still honoured by PodFitsResources.

pub mod config;

use crate::v117::predicates::check_service_affinity::CheckServiceAffinity;
use crate::v117::predicates::{self, check_node_label_presence::CheckNodeLabelPresence};
use crate::v117::priorities::requested_to_capacity_ratio::{RequestedToCapacityRatio, ShapePoint};
use crate::v117::priorities::{
    self, node_label::NodeLabel, service_anti_affinity::ServiceAntiAffinity,
};
use crate::v117::{ConfiguredFilter, ConfiguredScore, Profile, ProfileSettings};
use config::SchedulerConfiguration;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A `kind: Policy` document.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PolicyDocument {
    /// `predicates`: absent means the provider's set; `[]` means only the mandatory ones.
    #[serde(default)]
    pub predicates: Option<Vec<PredicatePolicy>>,
    /// `priorities`: absent means the provider's set; `[]` means none (EqualPriority).
    #[serde(default)]
    pub priorities: Option<Vec<PriorityPolicy>>,
    /// `extenders` (not called; see module docs).
    #[serde(default)]
    pub extenders: Option<Vec<Value>>,
    /// `hardPodAffinitySymmetricWeight` (0 keeps the configuration's value).
    #[serde(default)]
    pub hard_pod_affinity_symmetric_weight: Option<i64>,
    /// `alwaysCheckAllPredicates`.
    #[serde(default)]
    pub always_check_all_predicates: bool,
}

/// One `predicates` entry.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PredicatePolicy {
    /// The name (a registered name, or any name with an argument).
    pub name: String,
    /// The argument.
    #[serde(default)]
    pub argument: Option<PredicateArgument>,
}

/// `PredicateArgument`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PredicateArgument {
    /// `serviceAffinity {labels}`.
    #[serde(default)]
    pub service_affinity: Option<LabelsArg>,
    /// `labelsPresence {labels, presence}`.
    #[serde(default)]
    pub labels_presence: Option<LabelsPresenceArg>,
}

/// `{labels: [...]}`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
pub struct LabelsArg {
    /// Label keys.
    #[serde(default)]
    pub labels: Vec<String>,
}

/// `{labels: [...], presence: bool}`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
pub struct LabelsPresenceArg {
    /// Label keys.
    #[serde(default)]
    pub labels: Vec<String>,
    /// Present or absent.
    #[serde(default)]
    pub presence: bool,
}

/// One `priorities` entry.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PriorityPolicy {
    /// The name.
    pub name: String,
    /// The weight (must be positive).
    #[serde(default)]
    pub weight: i64,
    /// The argument.
    #[serde(default)]
    pub argument: Option<PriorityArgument>,
}

/// `PriorityArgument`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PriorityArgument {
    /// `serviceAntiAffinity {label}`.
    #[serde(default)]
    pub service_anti_affinity: Option<LabelArg>,
    /// `labelPreference {label, presence}`.
    #[serde(default)]
    pub label_preference: Option<LabelPreferenceArg>,
    /// `requestedToCapacityRatioArguments`.
    #[serde(default)]
    pub requested_to_capacity_ratio_arguments: Option<RtcrArgs>,
}

/// `{label}`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
pub struct LabelArg {
    /// The label key.
    #[serde(default)]
    pub label: String,
}

/// `{label, presence}`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
pub struct LabelPreferenceArg {
    /// The label key.
    #[serde(default)]
    pub label: String,
    /// Preferred presence.
    #[serde(default)]
    pub presence: bool,
}

/// `requestedToCapacityRatioArguments`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
pub struct RtcrArgs {
    /// Points, scores on 0–10.
    #[serde(default)]
    pub shape: Vec<RtcrPoint>,
    /// Resources and weights.
    #[serde(default)]
    pub resources: Vec<RtcrResource>,
}

/// A shape point.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
pub struct RtcrPoint {
    /// 0..=100.
    #[serde(default)]
    pub utilization: i64,
    /// 0..=10.
    #[serde(default)]
    pub score: i64,
}

/// A resource weight.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
pub struct RtcrResource {
    /// Resource name.
    #[serde(default)]
    pub name: String,
    /// Weight (0 becomes 1).
    #[serde(default)]
    pub weight: i64,
}

/// A validation problem: the path inside the Policy and upstream's message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicyError {
    /// Path (`priorities[2].weight`).
    pub path: String,
    /// Message.
    pub message: String,
}

fn err(path: impl Into<String>, message: impl Into<String>) -> PolicyError {
    PolicyError {
        path: path.into(),
        message: message.into(),
    }
}

/// `MaxWeight = MaxTotalScore / MaxCustomPriorityScore`.
pub const MAX_WEIGHT: i64 = i64::MAX / 10;

/// The validation regexp for registered algorithm names.
pub fn is_valid_algorithm_name(name: &str) -> bool {
    let b = name.as_bytes();
    b.len() >= 2
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
}

/// A profile built from a Policy, with warnings.
pub struct Built {
    /// The profile.
    pub profile: Profile,
    /// Warnings: (path, message).
    pub warnings: Warnings,
}

/// A Policy's warnings: (path, message) each.
pub type Warnings = Vec<(String, String)>;

/// The names of the provider's predicate and priority sets.
/// A provider's predicate names and (priority name, weight) pairs.
type ProviderSets = (Vec<&'static str>, Vec<(&'static str, i64)>);

fn provider_sets(provider: &str) -> Option<ProviderSets> {
    let preds = predicates::default_provider();
    let mut prios = priorities::default_provider();
    match provider {
        "DefaultProvider" => Some((preds, prios)),
        "ClusterAutoscalerProvider" => {
            for p in &mut prios {
                if p.0 == "LeastRequestedPriority" {
                    p.0 = "MostRequestedPriority";
                }
            }
            Some((preds, prios))
        }
        _ => None,
    }
}

/// Builds the profile from an optional Policy and the configuration. All validation errors are
/// returned together.
pub fn build(
    policy: Option<&PolicyDocument>,
    cfg: &SchedulerConfiguration,
) -> Result<Built, Vec<PolicyError>> {
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    let Some((default_preds, default_prios)) = provider_sets(&cfg.provider) else {
        return Err(vec![err(
            "algorithmSource.provider",
            format!(
                "unknown algorithm provider {:?} (known: DefaultProvider, ClusterAutoscalerProvider)",
                cfg.provider
            ),
        )]);
    };
    let mut settings = ProfileSettings {
        hard_pod_affinity_weight: cfg.hard_pod_affinity_symmetric_weight,
        always_check_all_predicates: false,
        percentage_of_nodes_to_score: cfg.percentage_of_nodes_to_score,
        ignored_resources: Vec::new(),
    };

    // (ordering index, policy position, configured name, plugin)
    let mut filters: Vec<(usize, usize, ConfiguredFilter)> = Vec::new();
    let mut scores: Vec<ConfiguredScore> = Vec::new();

    let add_plain_filter =
        |name: &str, pos: usize, filters: &mut Vec<(usize, usize, ConfiguredFilter)>| {
            if filters.iter().any(|(_, _, f)| f.name == name) {
                return;
            }
            if let (Some(idx), Some(plugin)) =
                (predicates::ordering_index(name), predicates::builtin(name))
            {
                filters.push((
                    idx,
                    pos,
                    ConfiguredFilter {
                        name: name.to_string(),
                        plugin,
                    },
                ));
            }
        };

    match policy.and_then(|p| p.predicates.as_ref()) {
        None => {
            for (i, name) in default_preds.iter().enumerate() {
                add_plain_filter(name, i, &mut filters);
            }
        }
        Some(list) => {
            for (i, p) in list.iter().enumerate() {
                let path = format!("predicates[{i}]");
                match &p.argument {
                    Some(arg) => {
                        let n = usize::from(arg.service_affinity.is_some())
                            + usize::from(arg.labels_presence.is_some());
                        if n != 1 {
                            errors.push(err(
                                format!("{path}.argument"),
                                format!("Exactly 1 predicate argument is required, numArgs: {n}, Predicate: {}", p.name),
                            ));
                            continue;
                        }
                        if !is_valid_algorithm_name(&p.name) {
                            errors.push(err(format!("{path}.name"), format!(
                                "algorithm name {} does not match the name validation regexp \"^[a-zA-Z0-9]([-a-zA-Z0-9]*[a-zA-Z0-9])$\".",
                                p.name)));
                            continue;
                        }
                        if filters.iter().any(|(_, _, f)| f.name == p.name) {
                            continue;
                        }
                        let (slot, plugin): (&str, Box<dyn crate::v117::FilterPlugin>) =
                            if let Some(sa) = &arg.service_affinity {
                                (
                                    "CheckServiceAffinity",
                                    Box::new(CheckServiceAffinity {
                                        labels: sa.labels.clone(),
                                    }),
                                )
                            } else {
                                let lp = arg.labels_presence.as_ref().expect("counted above");
                                (
                                    "CheckNodeLabelPresence",
                                    Box::new(CheckNodeLabelPresence {
                                        labels: lp.labels.clone(),
                                        presence: lp.presence,
                                    }),
                                )
                            };
                        let idx = predicates::ordering_index(slot).expect("slot is in Ordering()");
                        filters.push((
                            idx,
                            i,
                            ConfiguredFilter {
                                name: p.name.clone(),
                                plugin,
                            },
                        ));
                    }
                    None => {
                        if p.name == predicates::REGISTERED_NEVER_RUN {
                            warnings.push((
                                format!("{path}.name"),
                                "PodFitsPorts is accepted but never runs in v1.17: it is registered under its 1.0 name, \
                                 which is missing from predicates.Ordering(). Use PodFitsHostPorts (or \
                                 GeneralPredicates) to check host ports"
                                    .to_string(),
                            ));
                        } else if predicates::REMOVED.contains(&p.name.as_str()) {
                            warnings.push((
                                format!("{path}.name"),
                                format!(
                                    "predicate {} was removed in v1.17 (node conditions now act through taints); \
                                     accepted and ignored",
                                    p.name
                                ),
                            ));
                        } else if predicates::names().contains(&p.name.as_str()) {
                            add_plain_filter(&p.name, i, &mut filters);
                        } else {
                            let hint = crate::model::words::nearest(&p.name, predicates::names())
                                .map(|s| format!(" (did you mean {s}?)"))
                                .unwrap_or_default();
                            errors.push(err(
                                format!("{path}.name"),
                                format!(
                                    "Invalid configuration: Predicate type not found for {}{hint}",
                                    p.name
                                ),
                            ));
                        }
                    }
                }
            }
        }
    }
    for (i, name) in predicates::mandatory().iter().enumerate() {
        add_plain_filter(name, 1000 + i, &mut filters);
    }
    filters.sort_by_key(|(idx, pos, _)| (*idx, *pos));

    match policy.and_then(|p| p.priorities.as_ref()) {
        None => {
            for (name, weight) in &default_prios {
                if let Some(plugin) = priorities::builtin(name) {
                    scores.push(ConfiguredScore {
                        name: name.to_string(),
                        weight: *weight,
                        plugin,
                    });
                }
            }
        }
        Some(list) => {
            let mut rtcr_seen: Option<String> = None;
            let mut label_pref: Option<(String, i64)> = None;
            let mut svc_anti: Option<(String, i64)> = None;
            for (i, p) in list.iter().enumerate() {
                let path = format!("priorities[{i}]");
                if p.weight <= 0 || p.weight >= MAX_WEIGHT {
                    errors.push(err(
                        format!("{path}.weight"),
                        format!("Priority {} should have a positive weight applied to it or it has overflown", p.name),
                    ));
                    continue;
                }
                match &p.argument {
                    Some(arg) => {
                        let n = usize::from(arg.service_anti_affinity.is_some())
                            + usize::from(arg.label_preference.is_some())
                            + usize::from(arg.requested_to_capacity_ratio_arguments.is_some());
                        if n == 0 {
                            errors.push(err(
                                format!("{path}.argument"),
                                format!("No priority arguments set for priority {}", p.name),
                            ));
                            continue;
                        }
                        if n > 1 {
                            errors.push(err(
                                format!("{path}.argument"),
                                format!("Exactly 1 priority argument is required, numArgs: {n}, Priority: {}", p.name),
                            ));
                            continue;
                        }
                        if !is_valid_algorithm_name(&p.name) {
                            errors.push(err(format!("{path}.name"), format!(
                                "algorithm name {} does not match the name validation regexp \"^[a-zA-Z0-9]([-a-zA-Z0-9]*[a-zA-Z0-9])$\".",
                                p.name)));
                            continue;
                        }
                        if let Some(sa) = &arg.service_anti_affinity {
                            if let Some((prev, w)) = &svc_anti {
                                if *w != p.weight {
                                    errors.push(err(format!("{path}.weight"), format!(
                                        "ServiceAntiAffinity  priority {:?} has a different weight with {:?}", p.name, prev)));
                                    continue;
                                }
                            }
                            svc_anti.get_or_insert((p.name.clone(), p.weight));
                            scores.push(ConfiguredScore {
                                name: p.name.clone(),
                                weight: p.weight,
                                plugin: Box::new(ServiceAntiAffinity {
                                    label: sa.label.clone(),
                                }),
                            });
                        } else if let Some(lp) = &arg.label_preference {
                            if let Some((prev, w)) = &label_pref {
                                if *w != p.weight {
                                    errors.push(err(format!("{path}.weight"), format!(
                                        "LabelPreference  priority {:?} has a different weight with {:?}", p.name, prev)));
                                    continue;
                                }
                            }
                            label_pref.get_or_insert((p.name.clone(), p.weight));
                            scores.push(ConfiguredScore {
                                name: p.name.clone(),
                                weight: p.weight,
                                plugin: Box::new(NodeLabel {
                                    label: lp.label.clone(),
                                    presence: lp.presence,
                                }),
                            });
                        } else if let Some(args) = &arg.requested_to_capacity_ratio_arguments {
                            if let Some(prev) = &rtcr_seen {
                                errors.push(err(
                                    path.clone(),
                                    format!(
                                        "Priority {:?} redeclares custom priority {:?}, from:{:?}",
                                        p.name, "RequestedToCapacityRatio", prev
                                    ),
                                ));
                                continue;
                            }
                            rtcr_seen = Some(p.name.clone());
                            match rtcr_from_args(args) {
                                Ok(plugin) => scores.push(ConfiguredScore {
                                    name: p.name.clone(),
                                    weight: p.weight,
                                    plugin: Box::new(plugin),
                                }),
                                Err(m) => errors.push(err(
                                    format!("{path}.argument.requestedToCapacityRatioArguments"),
                                    format!(
                                        "invalid RequestedToCapacityRatioPriority arguments: {m}"
                                    ),
                                )),
                            }
                        }
                    }
                    None => {
                        match priorities::builtin(&p.name) {
                            Some(plugin) => scores.push(ConfiguredScore {
                                name: p.name.clone(),
                                weight: p.weight,
                                plugin,
                            }),
                            None => {
                                let hint = crate::model::words::nearest(
                                    &p.name,
                                    priorities::names().into_iter().map(|(n, _)| n),
                                )
                                .map(|s| format!(" (did you mean {s}?)"))
                                .unwrap_or_default();
                                errors.push(err(
                                format!("{path}.name"),
                                format!("Invalid configuration: Priority type not found for {}{hint}", p.name),
                            ));
                            }
                        }
                    }
                }
            }
        }
    }

    if let Some(p) = policy {
        settings.always_check_all_predicates = p.always_check_all_predicates;
        if let Some(w) = p.hard_pod_affinity_symmetric_weight {
            if !(0..=100).contains(&w) {
                errors.push(err(
                    "hardPodAffinitySymmetricWeight",
                    format!("Invalid value: {w}: not in valid range [0-100]"),
                ));
            } else if w != 0 {
                settings.hard_pod_affinity_weight = w;
            }
        }
        if let Some(extenders) = &p.extenders {
            read_extenders(extenders, &mut settings, &mut warnings, &mut errors);
        }
    }

    // validateSelectedConfigs, with Go's wrapping int64 arithmetic (so, as upstream, a weight
    // just under MaxWeight wraps and passes this check).
    let mut total: i64 = 0;
    for s in &scores {
        let w = s.weight.wrapping_mul(priorities::MAX_NODE_SCORE);
        if w > i64::MAX.wrapping_sub(total) {
            errors.push(err(
                "priorities",
                "total priority of priority functions has overflown",
            ));
            break;
        }
        total = total.wrapping_add(w);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(Built {
        profile: Profile {
            filters: filters.into_iter().map(|(_, _, f)| f).collect(),
            scores,
            settings,
        },
        warnings,
    })
}

fn rtcr_from_args(args: &RtcrArgs) -> Result<RequestedToCapacityRatio, String> {
    if args.shape.is_empty() {
        return Err("at least one point must be specified".into());
    }
    for (i, p) in args.shape.iter().enumerate() {
        if i > 0 && p.utilization <= args.shape[i - 1].utilization {
            return Err(format!(
                "utilization values must be sorted. Utilization[{}]=={} >= Utilization[{}]=={}",
                i - 1,
                args.shape[i - 1].utilization,
                i,
                p.utilization
            ));
        }
        if !(0..=100).contains(&p.utilization) {
            return Err(format!(
                "utilization values must be between 0 and 100. Utilization[{i}]=={}",
                p.utilization
            ));
        }
        if !(0..=10).contains(&p.score) {
            return Err(format!(
                "score values must be between 0 and 10. Score[{i}]=={}",
                p.score
            ));
        }
    }
    let shape = args
        .shape
        .iter()
        .map(|p| ShapePoint {
            utilization: p.utilization,
            score: p.score * 10,
        })
        .collect();
    let resources = if args.resources.is_empty() {
        vec![("cpu".to_string(), 1), ("memory".to_string(), 1)]
    } else {
        args.resources
            .iter()
            .map(|r| (r.name.clone(), if r.weight == 0 { 1 } else { r.weight }))
            .collect()
    };
    Ok(RequestedToCapacityRatio { shape, resources })
}

fn field<'a>(v: &'a Value, name: &str) -> Option<&'a Value> {
    v.as_object()?
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v)
}

fn read_extenders(
    extenders: &[Value],
    settings: &mut ProfileSettings,
    warnings: &mut Vec<(String, String)>,
    errors: &mut Vec<PolicyError>,
) {
    let mut binders = 0;
    let mut seen = Vec::<String>::new();
    for (i, e) in extenders.iter().enumerate() {
        let path = format!("extenders[{i}]");
        let s = |k: &str| {
            field(e, k)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        };
        let url = s("urlPrefix");
        if !s("prioritizeVerb").is_empty()
            && field(e, "weight").and_then(Value::as_i64).unwrap_or(0) <= 0
        {
            errors.push(err(
                format!("{path}.weight"),
                format!("Priority for extender {url} should have a positive weight applied to it"),
            ));
        }
        if !s("bindVerb").is_empty() {
            binders += 1;
        }
        if let Some(Value::Array(resources)) = field(e, "managedResources") {
            for (j, r) in resources.iter().enumerate() {
                let name = field(r, "name")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string();
                if !crate::model::resources::is_extended_resource(&name) {
                    errors.push(err(
                        format!("{path}.managedResources[{j}].name"),
                        format!("{name} is an invalid extended resource name"),
                    ));
                }
                if seen.contains(&name) {
                    errors.push(err(
                        format!("{path}.managedResources[{j}].name"),
                        format!("Duplicate extender managed resource name {name}"),
                    ));
                }
                seen.push(name.clone());
                if field(r, "ignoredByScheduler")
                    .and_then(Value::as_bool)
                    .unwrap_or(false)
                {
                    settings.ignored_resources.push(name);
                }
            }
        }
        warnings.push((
            path,
            format!(
                "scheduler extenders are not supported yet: the extender at {url:?} is not called \
                 (its filter, prioritize and bind verbs are skipped; ignoredByScheduler resources are still honoured)"
            ),
        ));
    }
    if binders > 1 {
        errors.push(err(
            "extenders",
            format!("Only one extender can implement bind, found {binders}"),
        ));
    }
}

#[cfg(test)]
mod tests;
