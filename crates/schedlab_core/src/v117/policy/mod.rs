//! The legacy scheduler `Policy` (apiVersion `v1`) and the v1.17 `KubeSchedulerConfiguration`:
//! parse, validate with upstream's rules and wording, apply the DefaultProvider and mandatory
//! predicates, and build a runnable [`Algorithm`].
//!
//! Deliberate deviations (also in `docs/fidelity.md`):
//! - argument predicates (`serviceAffinity`, `labelsPresence`) and argument priorities
//!   (`serviceAntiAffinity`, `labelPreference`) stay one per Policy entry, under the entry's
//!   name (v1.17 merges entries of one type into a single predicate or priority); predicates
//!   run at the `Ordering()` slot of their type;
//! - the condition predicates removed in v1.17 are accepted with a warning and never run;
//! - (not a deviation) extenders are read by `sched::extender::config` and called as v1.17
//!   calls them; their `ignoredByScheduler` resources are PodFitsResources' ignored extended
//!   resources.

pub(crate) mod config;

use crate::v117::predicates::check_service_affinity::CheckServiceAffinity;
use crate::v117::predicates::{self, check_node_label_presence::CheckNodeLabelPresence};
use crate::v117::priorities::requested_to_capacity_ratio::{RequestedToCapacityRatio, ShapePoint};
use crate::v117::priorities::{
    self, node_label::NodeLabel, service_anti_affinity::ServiceAntiAffinity,
};
use crate::v117::{Algorithm, AlgorithmSettings, ConfiguredFilter, ConfiguredScore};
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
    /// `extenders`.
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
pub(crate) const MAX_WEIGHT: i64 = i64::MAX / 10;

/// The validation regexp for registered algorithm names.
pub(crate) fn is_valid_algorithm_name(name: &str) -> bool {
    let b = name.as_bytes();
    b.len() >= 2
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
}

/// A algorithm built from a Policy, with warnings.
pub struct Built {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Warnings: (path, message).
    pub warnings: Warnings,
}

/// A Policy's warnings: (path, message) each.
pub(crate) type Warnings = Vec<(String, String)>;

/// A provider's predicate names and (priority name, weight) pairs.
type ProviderSets = (Vec<&'static str>, Vec<(&'static str, i64)>);

/// The predicate and priority sets of a named algorithm provider (`DefaultProvider`, or
/// `ClusterAutoscalerProvider`, which scores with MostRequestedPriority instead of
/// LeastRequestedPriority); `None` for any other name.
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

/// Builds the algorithm from an optional Policy and the configuration. All validation errors are
/// returned together.
pub fn build(
    policy: Option<&PolicyDocument>,
    cfg: &SchedulerConfiguration,
) -> Result<Built, Vec<PolicyError>> {
    let (default_preds, default_prios) = resolve_provider(&cfg.provider)?;
    let mut settings = configuration_settings(cfg);
    let mut builder = ProfileBuilder::default();
    match policy.and_then(|p| p.predicates.as_ref()) {
        None => builder.add_provider_predicates(&default_preds),
        Some(list) => {
            for (i, p) in list.iter().enumerate() {
                builder.add_policy_predicate(i, p);
            }
        }
    }
    builder.add_mandatory_predicates();
    builder.sort_filters_in_ordering();
    match policy.and_then(|p| p.priorities.as_ref()) {
        None => builder.add_provider_priorities(&default_prios),
        Some(list) => {
            let mut seen = ArgumentPrioritiesSeen::default();
            for (i, p) in list.iter().enumerate() {
                builder.add_policy_priority(i, p, &mut seen);
            }
        }
    }
    if let Some(p) = policy {
        builder.apply_policy_settings(p, &mut settings);
    }
    builder.check_total_weight();
    builder.finish(settings)
}

/// The provider's predicate and priority sets, or the one error an unknown
/// `algorithmSource.provider` gives.
fn resolve_provider(provider: &str) -> Result<ProviderSets, Vec<PolicyError>> {
    provider_sets(provider).ok_or_else(|| {
        vec![err(
            "algorithmSource.provider",
            format!(
                "unknown algorithm provider {provider:?} (known: DefaultProvider, ClusterAutoscalerProvider)"
            ),
        )]
    })
}

/// The settings the configuration gives before any Policy field applies: its
/// `hardPodAffinitySymmetricWeight` and `percentageOfNodesToScore`.
fn configuration_settings(cfg: &SchedulerConfiguration) -> AlgorithmSettings {
    AlgorithmSettings {
        hard_pod_affinity_weight: cfg.hard_pod_affinity_symmetric_weight,
        always_check_all_predicates: false,
        percentage_of_nodes_to_score: cfg.percentage_of_nodes_to_score,
        ignored_resources: Vec::new(),
        extenders: Vec::new(),
    }
}

/// The error of a custom (argument) predicate or priority whose name fails upstream's
/// algorithm-name regexp.
fn invalid_algorithm_name(path: &str, name: &str) -> PolicyError {
    err(
        format!("{path}.name"),
        format!(
            "algorithm name {name} does not match the name validation regexp \"^[a-zA-Z0-9]([-a-zA-Z0-9]*[a-zA-Z0-9])$\"."
        ),
    )
}

/// A predicate placed in the algorithm, with what decides where it runs.
struct OrderedFilter {
    /// Its slot in `predicates.Ordering()` (an argument predicate takes its type's slot).
    ordering: usize,
    /// Its position in the Policy (mandatory predicates come after every listed one).
    position: usize,
    /// The predicate.
    filter: ConfiguredFilter,
}

/// The first argument priority of each kind whose later entries must keep its weight
/// (`serviceAntiAffinity`, `labelPreference`) or may not be declared again
/// (`requestedToCapacityRatioArguments`).
#[derive(Default)]
struct ArgumentPrioritiesSeen {
    /// The first `serviceAntiAffinity` entry: (name, weight).
    service_anti_affinity: Option<(String, i64)>,
    /// The first `labelPreference` entry: (name, weight).
    label_preference: Option<(String, i64)>,
    /// The first `requestedToCapacityRatioArguments` entry's name.
    requested_to_capacity_ratio: Option<String>,
}

/// The algorithm being built from a Policy: its predicates and priorities so far, and every
/// warning and error found on the way.
#[derive(Default)]
struct ProfileBuilder {
    filters: Vec<OrderedFilter>,
    scores: Vec<ConfiguredScore>,
    warnings: Warnings,
    errors: Vec<PolicyError>,
}

impl ProfileBuilder {
    /// Whether a predicate of this name is already in the algorithm.
    fn has_filter(&self, name: &str) -> bool {
        self.filters.iter().any(|f| f.filter.name == name)
    }

    /// Adds a registered argument-less predicate once, at its `Ordering()` slot; a name that
    /// never runs (no slot or no implementation) adds nothing.
    fn add_plain_predicate(&mut self, name: &str, position: usize) {
        if self.has_filter(name) {
            return;
        }
        let Some(spec) = predicates::lookup(name) else {
            return;
        };
        if let (Some(order), Some(build)) = (spec.order, spec.build) {
            self.filters.push(OrderedFilter {
                ordering: usize::from(order),
                position,
                filter: ConfiguredFilter {
                    name: name.to_string(),
                    plugin: build(),
                },
            });
        }
    }

    /// `predicates` absent: the provider's predicate set.
    fn add_provider_predicates(&mut self, names: &[&str]) {
        for (i, name) in names.iter().enumerate() {
            self.add_plain_predicate(name, i);
        }
    }

    /// Checks and adds the Policy's `predicates[i]`.
    fn add_policy_predicate(&mut self, i: usize, p: &PredicatePolicy) {
        let path = format!("predicates[{i}]");
        match &p.argument {
            Some(arg) => self.add_argument_predicate(i, &path, p, arg),
            None => self.add_named_predicate(i, &path, p),
        }
    }

    /// A predicate with an argument (`serviceAffinity` or `labelsPresence`): exactly one
    /// argument, a valid custom name, added once under that name at its type's slot.
    fn add_argument_predicate(
        &mut self,
        i: usize,
        path: &str,
        p: &PredicatePolicy,
        arg: &PredicateArgument,
    ) {
        let n = usize::from(arg.service_affinity.is_some())
            + usize::from(arg.labels_presence.is_some());
        if n != 1 {
            self.errors.push(err(
                format!("{path}.argument"),
                format!(
                    "Exactly 1 predicate argument is required, numArgs: {n}, Predicate: {}",
                    p.name
                ),
            ));
            return;
        }
        if !is_valid_algorithm_name(&p.name) {
            self.errors.push(invalid_algorithm_name(path, &p.name));
            return;
        }
        if self.has_filter(&p.name) {
            return;
        }
        let (slot, plugin) = argument_predicate_plugin(arg);
        let ordering = predicates::ordering_index(slot).expect("slot is in Ordering()");
        self.filters.push(OrderedFilter {
            ordering,
            position: i,
            filter: ConfiguredFilter {
                name: p.name.clone(),
                plugin,
            },
        });
    }

    /// A predicate named without an argument: the never-run and removed names warn, a
    /// registered name is added, any other name is an error with a suggestion.
    fn add_named_predicate(&mut self, i: usize, path: &str, p: &PredicatePolicy) {
        if p.name == predicates::REGISTERED_NEVER_RUN {
            self.warnings.push((
                format!("{path}.name"),
                "PodFitsPorts is accepted but never runs in v1.17: it is registered under its 1.0 name, \
                 which is missing from predicates.Ordering(). Use PodFitsHostPorts (or \
                 GeneralPredicates) to check host ports"
                    .to_string(),
            ));
        } else if predicates::REMOVED.contains(&p.name.as_str()) {
            self.warnings.push((
                format!("{path}.name"),
                format!(
                    "predicate {} was removed in v1.17 (node conditions now act through taints); \
                     accepted and ignored",
                    p.name
                ),
            ));
        } else if predicates::names().contains(&p.name.as_str()) {
            self.add_plain_predicate(&p.name, i);
        } else {
            let hint = crate::model::words::nearest(&p.name, predicates::names())
                .map(|s| format!(" (did you mean {s}?)"))
                .unwrap_or_default();
            self.errors.push(err(
                format!("{path}.name"),
                format!(
                    "Invalid configuration: Predicate type not found for {}{hint}",
                    p.name
                ),
            ));
        }
    }

    /// The mandatory predicates (`RegisterMandatoryFitPredicate`), after every listed one.
    fn add_mandatory_predicates(&mut self) {
        for (i, name) in predicates::mandatory().iter().enumerate() {
            self.add_plain_predicate(name, 1000 + i);
        }
    }

    /// Predicates run in `predicates.Ordering()`, Policy order within one slot.
    fn sort_filters_in_ordering(&mut self) {
        self.filters.sort_by_key(|f| (f.ordering, f.position));
    }

    /// `priorities` absent: the provider's priorities with their weights.
    fn add_provider_priorities(&mut self, prios: &[(&'static str, i64)]) {
        for (name, weight) in prios {
            if let Some(plugin) = priorities::builtin(name) {
                self.scores.push(ConfiguredScore {
                    name: name.to_string(),
                    weight: *weight,
                    plugin,
                });
            }
        }
    }

    /// Checks and adds the Policy's `priorities[i]`: a positive weight below `MaxWeight`, then
    /// its argument or its registered name.
    fn add_policy_priority(
        &mut self,
        i: usize,
        p: &PriorityPolicy,
        seen: &mut ArgumentPrioritiesSeen,
    ) {
        let path = format!("priorities[{i}]");
        if p.weight <= 0 || p.weight >= MAX_WEIGHT {
            self.errors.push(err(
                format!("{path}.weight"),
                format!(
                    "Priority {} should have a positive weight applied to it or it has overflown",
                    p.name
                ),
            ));
            return;
        }
        match &p.argument {
            Some(arg) => self.add_argument_priority(&path, p, arg, seen),
            None => self.add_named_priority(&path, p),
        }
    }

    /// A priority with an argument: exactly one argument and a valid custom name, then the
    /// argument's own checks.
    fn add_argument_priority(
        &mut self,
        path: &str,
        p: &PriorityPolicy,
        arg: &PriorityArgument,
        seen: &mut ArgumentPrioritiesSeen,
    ) {
        let n = usize::from(arg.service_anti_affinity.is_some())
            + usize::from(arg.label_preference.is_some())
            + usize::from(arg.requested_to_capacity_ratio_arguments.is_some());
        if n == 0 {
            self.errors.push(err(
                format!("{path}.argument"),
                format!("No priority arguments set for priority {}", p.name),
            ));
            return;
        }
        if n > 1 {
            self.errors.push(err(
                format!("{path}.argument"),
                format!(
                    "Exactly 1 priority argument is required, numArgs: {n}, Priority: {}",
                    p.name
                ),
            ));
            return;
        }
        if !is_valid_algorithm_name(&p.name) {
            self.errors.push(invalid_algorithm_name(path, &p.name));
            return;
        }
        if let Some(sa) = &arg.service_anti_affinity {
            let plugin = Box::new(ServiceAntiAffinity {
                label: sa.label.clone(),
            });
            let first = &mut seen.service_anti_affinity;
            self.add_same_weight_priority(path, p, "ServiceAntiAffinity", first, plugin);
        } else if let Some(lp) = &arg.label_preference {
            let plugin = Box::new(NodeLabel {
                label: lp.label.clone(),
                presence: lp.presence,
            });
            let first = &mut seen.label_preference;
            self.add_same_weight_priority(path, p, "LabelPreference", first, plugin);
        } else if let Some(args) = &arg.requested_to_capacity_ratio_arguments {
            let first = &mut seen.requested_to_capacity_ratio;
            self.add_requested_to_capacity_ratio(path, p, args, first);
        }
    }

    /// A `serviceAntiAffinity` or `labelPreference` priority (`kind`): every entry of one kind
    /// must have the first entry's weight.
    fn add_same_weight_priority(
        &mut self,
        path: &str,
        p: &PriorityPolicy,
        kind: &str,
        first: &mut Option<(String, i64)>,
        plugin: Box<dyn crate::v117::ScorePlugin>,
    ) {
        if let Some((prev, w)) = first {
            if *w != p.weight {
                self.errors.push(err(
                    format!("{path}.weight"),
                    format!(
                        "{kind}  priority {:?} has a different weight with {:?}",
                        p.name, prev
                    ),
                ));
                return;
            }
        }
        first.get_or_insert((p.name.clone(), p.weight));
        self.scores.push(ConfiguredScore {
            name: p.name.clone(),
            weight: p.weight,
            plugin,
        });
    }

    /// A `requestedToCapacityRatioArguments` priority: declared once, with a valid shape.
    fn add_requested_to_capacity_ratio(
        &mut self,
        path: &str,
        p: &PriorityPolicy,
        args: &RtcrArgs,
        first: &mut Option<String>,
    ) {
        if let Some(prev) = first {
            self.errors.push(err(
                path,
                format!(
                    "Priority {:?} redeclares custom priority {:?}, from:{:?}",
                    p.name, "RequestedToCapacityRatio", prev
                ),
            ));
            return;
        }
        *first = Some(p.name.clone());
        match rtcr_from_args(args) {
            Ok(plugin) => self.scores.push(ConfiguredScore {
                name: p.name.clone(),
                weight: p.weight,
                plugin: Box::new(plugin),
            }),
            Err(m) => self.errors.push(err(
                format!("{path}.argument.requestedToCapacityRatioArguments"),
                format!("invalid RequestedToCapacityRatioPriority arguments: {m}"),
            )),
        }
    }

    /// A priority named without an argument: a registered name is added with the Policy's
    /// weight, any other name is an error with a suggestion.
    fn add_named_priority(&mut self, path: &str, p: &PriorityPolicy) {
        match priorities::builtin(&p.name) {
            Some(plugin) => self.scores.push(ConfiguredScore {
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
                self.errors.push(err(
                    format!("{path}.name"),
                    format!(
                        "Invalid configuration: Priority type not found for {}{hint}",
                        p.name
                    ),
                ));
            }
        }
    }

    /// The Policy's settings: `alwaysCheckAllPredicates`, `hardPodAffinitySymmetricWeight`
    /// (0–100; 0 keeps the configuration's) and the extenders.
    fn apply_policy_settings(&mut self, p: &PolicyDocument, settings: &mut AlgorithmSettings) {
        settings.always_check_all_predicates = p.always_check_all_predicates;
        if let Some(w) = p.hard_pod_affinity_symmetric_weight {
            if !(0..=100).contains(&w) {
                self.errors.push(err(
                    "hardPodAffinitySymmetricWeight",
                    format!("Invalid value: {w}: not in valid range [0-100]"),
                ));
            } else if w != 0 {
                settings.hard_pod_affinity_weight = w;
            }
        }
        if let Some(extenders) = &p.extenders {
            read_extenders(extenders, settings, &mut self.errors);
        }
    }

    /// `validateSelectedConfigs`, with Go's wrapping int64 arithmetic (so, as upstream, a
    /// weight just under MaxWeight wraps and passes this check).
    fn check_total_weight(&mut self) {
        let mut total: i64 = 0;
        for s in &self.scores {
            let w = s.weight.wrapping_mul(priorities::MAX_NODE_SCORE);
            if w > i64::MAX.wrapping_sub(total) {
                self.errors.push(err(
                    "priorities",
                    "total priority of priority functions has overflown",
                ));
                break;
            }
            total = total.wrapping_add(w);
        }
    }

    /// The algorithm with its warnings, or every error found.
    fn finish(self, settings: AlgorithmSettings) -> Result<Built, Vec<PolicyError>> {
        if !self.errors.is_empty() {
            return Err(self.errors);
        }
        Ok(Built {
            algorithm: Algorithm {
                filters: self.filters.into_iter().map(|f| f.filter).collect(),
                scores: self.scores,
                settings,
            },
            warnings: self.warnings,
        })
    }
}

/// The `Ordering()` slot and implementation of an argument predicate: CheckServiceAffinity for
/// `serviceAffinity`, CheckNodeLabelPresence for `labelsPresence` (exactly one is set).
fn argument_predicate_plugin(
    arg: &PredicateArgument,
) -> (&'static str, Box<dyn crate::v117::FilterPlugin>) {
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
    }
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

/// The Policy's `extenders` (`sched::extender::config`), validated as v1.17 does; their
/// `ignoredByScheduler` resources go to `PodFitsResources`' ignored extended resources.
fn read_extenders(
    extenders: &[Value],
    settings: &mut AlgorithmSettings,
    errors: &mut Vec<PolicyError>,
) {
    match crate::sched::extender::config::from_policy(extenders) {
        Ok(list) => {
            for e in &list {
                for r in e
                    .managed_resources
                    .iter()
                    .filter(|r| r.ignored_by_scheduler)
                {
                    settings.ignored_resources.push(r.name.clone());
                }
            }
            settings.extenders = list;
        }
        Err(list) => errors.extend(list.into_iter().map(|(path, message)| err(path, message))),
    }
}

#[cfg(test)]
mod tests;
