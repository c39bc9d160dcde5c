//! A legacy v1.17 `Policy` → the `kubescheduler.config.k8s.io/v1` `KubeSchedulerConfiguration`
//! it becomes (`schedlab translate`), following upstream's legacy translation of v1.18–v1.22
//! (`legacy_registry.go` and `factory.go` `createFromPolicy`, read at v1.22.6; reference
//! `shared/reference/modern.md` §6), expressed against v1.35's plugins and defaults (§1–2).
//!
//! # Output
//!
//! [`translate`] returns a [`Translation`]: the configuration as a JSON value, and one warning
//! per predicate, priority, argument or field that has no v1.35 equivalent (left out), or whose
//! v1.35 equivalent is a substitution the reader should know about. Each warning starts with
//! what it is about (`predicates[3] MaxEBSVolumeCount`, `default priority
//! NodePreferAvoidPodsPriority`, `hardPodAffinitySymmetricWeight`, `extenders[0]`) and says why.
//!
//! - [`to_json`]: `{"configuration": {...}, "warnings": ["...", ...]}` (`translate --output
//!   json`);
//! - [`to_yaml`]: one `# warning: ...` comment line per warning, then the configuration as YAML
//!   (`translate --output yaml`, the default), ready to be passed to `schedlab run`.
//!
//! The configuration is `{apiVersion, kind, profiles: [one profile], extenders?}`; the profile
//! is `{schedulerName: default-scheduler, plugins, pluginConfig?}`.
//!
//! # The translation (v1.22)
//!
//! - **Predicates.** `predicates` absent → v1.22's `DefaultPredicates` (v1.17's DefaultProvider
//!   set plus `EvenPodsSpread`); `[]` → none. `PodToleratesNodeTaints` and
//!   `CheckNodeUnschedulable` are always added. `PodFitsPorts` is an alias of
//!   `PodFitsHostPorts`. The predicate keys are visited in `predicateOrdering`, each adding its
//!   plugins unless already present, so the Filter order is the order of first appearance (for
//!   example `GeneralPredicates` adds NodeResourcesFit, NodeName, NodePorts, NodeAffinity).
//! - **Priorities.** `priorities` absent → v1.22's `DefaultPriorities` (v1.17's plus
//!   `EvenPodsSpreadPriority` weight 2); `EqualPriority` is skipped; `ServiceSpreadingPriority`
//!   is an alias of `SelectorSpreadPriority`, and two entries with one key keep the later
//!   weight (upstream's map). Keys are visited in sorted order (the key of any
//!   `requestedToCapacityRatioArguments` entry is `RequestedToCapacityRatio`).
//!   `SelectorSpreadPriority` becomes PodTopologySpread with `defaultingType: System` (v1.22
//!   with `DefaultPodTopologySpread` on), `EvenPodsSpreadPriority` PodTopologySpread with
//!   `defaultingType: List` unless args were already set. **When two priorities reach one
//!   plugin the first weight stays**: upstream's `appendToPluginSet` says "Keep the max weight",
//!   but assigns the larger weight to the loop's copy of the entry (`for _, e := range
//!   set.Enabled`), so it never takes effect (checked in v1.22.6's source). Only PodTopologySpread
//!   can be reached twice, and `EvenPodsSpreadPriority` sorts first, so its weight is kept; a
//!   warning names the weight that was lost.
//! - `hardPodAffinitySymmetricWeight` ≠ 0 → `InterPodAffinityArgs.hardPodAffinityWeight`, when
//!   `InterPodAffinityPriority` is used (otherwise it has no effect, as in v1.22: warning).
//! - `alwaysCheckAllPredicates: true` has no v1 equivalent (warning).
//! - `extenders` are carried over to the configuration's `extenders`, with their fields renamed
//!   to the v1 `Extender` names (`enableHttps` → `enableHTTPS`, `httpTimeout` nanoseconds → a
//!   duration string); schedlab never calls them (warning). v1.35 itself gives their
//!   `ignoredByScheduler` resources to NodeResourcesFit's `ignoredResources`.
//!
//! # Against v1.35
//!
//! - Plugins v1.35 does not have are left out with a warning: `EBSLimits`, `GCEPDLimits`,
//!   `AzureDiskLimits`, `CinderLimits` (the `Max*VolumeCount` predicates), `NodeLabel`
//!   (`labelsPresence`, `labelPreference`), `ServiceAffinity` (`serviceAffinity`,
//!   `serviceAntiAffinity`), `NodePreferAvoidPods`, `NodeResourceLimits`. The condition
//!   predicates removed in v1.17 (`CheckNodeMemoryPressure`, ...) are left out too.
//! - `LeastRequestedPriority`, `MostRequestedPriority` and `RequestedToCapacityRatio` were the
//!   NodeResourcesLeastAllocated / MostAllocated / RequestedToCapacityRatio Score plugins; in
//!   v1.35 they are the `scoringStrategy` (`LeastAllocated`, `MostAllocated`,
//!   `RequestedToCapacityRatio`, resources cpu 1 and memory 1, or the Policy's resources and
//!   shape, scores unscaled on 0–10) of NodeResourcesFit's Score, with the priority's weight.
//!   A profile has one strategy, so when the Policy uses several, the one with the largest
//!   weight is kept (on a tie, the first in sorted name order) and the others are left out with
//!   a warning. `RequestedToCapacityRatioPriority` without arguments (v1.17's default shape,
//!   utilization 0 → 10, 100 → 0; v1.22 rejected the name) is translated the same way.
//!
//! # Why this `plugins` form
//!
//! Each point the Policy decides is written out in full and closes v1.35's defaults with
//! `disabled: [{name: "*"}]`: `preFilter`, `filter`, `preScore`, `score`, `reserve`, `preBind`.
//! Under v1.35's merge (§2.1) a set that disables `"*"` is exactly its own `enabled` list, and
//! the MultiPoint expansion (§2.2) adds nothing at such a point; an explicit Score weight is
//! the one used. So every one of those lists runs exactly as written, in the translated order.
//!
//! - `filter` is the translated Filter list. `preFilter` holds, in the same order, each of
//!   those plugins that has a PreFilter in v1.35 (v1.35's Filters read what their PreFilter
//!   computed; VolumeRestrictions, NodeVolumeLimits and VolumeZone gained one after v1.22).
//! - `score` is the translated Score list with weights; `preScore` holds, in that order, each
//!   of them that has a PreScore in v1.35 (NodeResourcesFit and
//!   NodeResourcesBalancedAllocation gained one).
//! - `reserve` and `preBind` hold VolumeBinding when `CheckVolumeBinding` is translated, and are
//!   empty otherwise: left to the defaults, VolumeBinding would reserve without its PreFilter
//!   having run, which fails in v1.35.
//! - `multiPoint` keeps v1.35's default list but disables `DynamicResources`: a Policy knows no
//!   DRA, and DynamicResources must run at all of its points or none (its Reserve and PostFilter
//!   read what its PreFilter stored). What the default list then gives at the remaining points
//!   is the fixed part of v1.22's translation, QueueSort `PrioritySort`, PostFilter
//!   `DefaultPreemption`, Bind `DefaultBinder`, plus v1.35's PreEnqueue `SchedulingGates` and
//!   `DefaultPreemption`. Keeping the default list also gives every such plugin its default
//!   `pluginConfig`.
//!
//! `pluginConfig` holds only what differs from v1.35's defaults or states a translated choice:
//! NodeResourcesFit's `scoringStrategy`, PodTopologySpread's `defaultingType`,
//! InterPodAffinity's `hardPodAffinityWeight`, in v1.35's plugin order, without `apiVersion`
//! and `kind` (the plugin name decides the kind).

use crate::v117::policy::{PolicyDocument, PredicatePolicy, PriorityPolicy, RtcrArgs};
use crate::v135::plugin::Point;
use crate::v135::registry;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// The apiVersion of the configuration written.
pub(crate) const API_VERSION: &str = "kubescheduler.config.k8s.io/v1";

/// The profile's `schedulerName` (`v1.DefaultSchedulerName`, as v1.22's translation named it).
pub(crate) const SCHEDULER_NAME: &str = "default-scheduler";

/// A Policy, translated.
#[derive(Clone, Debug, PartialEq)]
pub struct Translation {
    /// The `KubeSchedulerConfiguration`.
    pub configuration: Value,
    /// What has no v1.35 equivalent, or changed on the way; each names its item and says why.
    pub warnings: Vec<String>,
}

/// v1.22's `DefaultPredicates` (used when `predicates` is absent).
const DEFAULT_PREDICATES: [&str; 12] = [
    "NoVolumeZoneConflict",
    "MaxEBSVolumeCount",
    "MaxGCEPDVolumeCount",
    "MaxAzureDiskVolumeCount",
    "MaxCSIVolumeCountPred",
    "MatchInterPodAffinity",
    "NoDiskConflict",
    "GeneralPredicates",
    "PodToleratesNodeTaints",
    "CheckVolumeBinding",
    "CheckNodeUnschedulable",
    "EvenPodsSpread",
];

/// v1.22's `mandatoryPredicates`.
const MANDATORY_PREDICATES: [&str; 2] = ["PodToleratesNodeTaints", "CheckNodeUnschedulable"];

/// v1.22's `predicateOrdering`: every predicate key, in the order its plugins are added.
const PREDICATE_ORDERING: [&str; 19] = [
    "CheckNodeUnschedulable",
    "GeneralPredicates",
    "HostName",
    "PodFitsHostPorts",
    "MatchNodeSelector",
    "PodFitsResources",
    "NoDiskConflict",
    "PodToleratesNodeTaints",
    "CheckNodeLabelPresence",
    "CheckServiceAffinity",
    "MaxEBSVolumeCount",
    "MaxGCEPDVolumeCount",
    "MaxCSIVolumeCountPred",
    "MaxAzureDiskVolumeCount",
    "MaxCinderVolumeCount",
    "CheckVolumeBinding",
    "NoVolumeZoneConflict",
    "EvenPodsSpread",
    "MatchInterPodAffinity",
];

/// v1.22's `DefaultPriorities` with weights (used when `priorities` is absent).
const DEFAULT_PRIORITIES: [(&str, i64); 9] = [
    ("SelectorSpreadPriority", 1),
    ("InterPodAffinityPriority", 1),
    ("LeastRequestedPriority", 1),
    ("BalancedResourceAllocation", 1),
    ("NodePreferAvoidPodsPriority", 10000),
    ("NodeAffinityPriority", 1),
    ("TaintTolerationPriority", 1),
    ("ImageLocalityPriority", 1),
    ("EvenPodsSpreadPriority", 2),
];

/// The priority keys translated to a v1.35 Score plugin, each with that plugin.
const PRIORITY_PLUGINS: [(&str, &str); 10] = [
    (
        "BalancedResourceAllocation",
        "NodeResourcesBalancedAllocation",
    ),
    ("EvenPodsSpreadPriority", "PodTopologySpread"),
    ("ImageLocalityPriority", "ImageLocality"),
    ("InterPodAffinityPriority", "InterPodAffinity"),
    ("LeastRequestedPriority", "NodeResourcesFit"),
    ("MostRequestedPriority", "NodeResourcesFit"),
    ("NodeAffinityPriority", "NodeAffinity"),
    ("RequestedToCapacityRatio", "NodeResourcesFit"),
    ("SelectorSpreadPriority", "PodTopologySpread"),
    ("TaintTolerationPriority", "TaintToleration"),
];

/// The keys whose priorities are scoring strategies of NodeResourcesFit in v1.35.
const RESOURCE_KEYS: [&str; 3] = [
    "LeastRequestedPriority",
    "MostRequestedPriority",
    "RequestedToCapacityRatio",
];

/// The v1.35 Filter plugins a predicate key adds, in order; or the v1.22 plugin v1.35 lacks.
enum Producer {
    Filter(&'static [&'static str]),
    Gone(&'static str),
}

fn predicate_producer(key: &str) -> Producer {
    match key {
        "CheckNodeUnschedulable" => Producer::Filter(&["NodeUnschedulable"]),
        "GeneralPredicates" => {
            Producer::Filter(&["NodeResourcesFit", "NodeName", "NodePorts", "NodeAffinity"])
        }
        "HostName" => Producer::Filter(&["NodeName"]),
        "PodFitsHostPorts" => Producer::Filter(&["NodePorts"]),
        "MatchNodeSelector" => Producer::Filter(&["NodeAffinity"]),
        "PodFitsResources" => Producer::Filter(&["NodeResourcesFit"]),
        "NoDiskConflict" => Producer::Filter(&["VolumeRestrictions"]),
        "PodToleratesNodeTaints" => Producer::Filter(&["TaintToleration"]),
        "CheckNodeLabelPresence" => Producer::Gone("NodeLabel"),
        "CheckServiceAffinity" => Producer::Gone("ServiceAffinity"),
        "MaxEBSVolumeCount" => Producer::Gone("EBSLimits"),
        "MaxGCEPDVolumeCount" => Producer::Gone("GCEPDLimits"),
        "MaxCSIVolumeCountPred" => Producer::Filter(&["NodeVolumeLimits"]),
        "MaxAzureDiskVolumeCount" => Producer::Gone("AzureDiskLimits"),
        "MaxCinderVolumeCount" => Producer::Gone("CinderLimits"),
        "CheckVolumeBinding" => Producer::Filter(&["VolumeBinding"]),
        "NoVolumeZoneConflict" => Producer::Filter(&["VolumeZone"]),
        "EvenPodsSpread" => Producer::Filter(&["PodTopologySpread"]),
        "MatchInterPodAffinity" => Producer::Filter(&["InterPodAffinity"]),
        _ => Producer::Filter(&[]),
    }
}

/// The condition predicates v1.17 removed (schedlab's v1.17 mode accepts them with a warning).
const CONDITION_PREDICATES: [&str; 4] = [
    "CheckNodeCondition",
    "CheckNodeMemoryPressure",
    "CheckNodeDiskPressure",
    "CheckNodePIDPressure",
];

/// A resolved priority key.
struct Scored {
    /// What the warnings call it (`priorities[2] ServiceSpreadingPriority`).
    label: String,
    weight: i64,
    /// For the NodeResourcesFit keys: the `scoringStrategy`.
    strategy: Option<Value>,
}

/// Translates a Policy. Never fails: what cannot be translated is left out with a warning (a
/// Policy that v1.17 rejects should be refused before, as `schedlab translate` does).
pub fn translate(policy: &PolicyDocument) -> Translation {
    let mut warnings = Vec::new();
    let predicate_keys = predicate_keys(policy, &mut warnings);
    let filter = filter_plugins(&predicate_keys);
    let volume_binding = predicate_keys.contains(&"CheckVolumeBinding");
    let priority_keys = priority_keys(policy, &mut warnings);
    let strategy = choose_scoring_strategy(&priority_keys, &mut warnings);
    let mut plan = score_plan(&priority_keys, strategy, &mut warnings);
    plan.args.hard_pod_affinity_weight =
        hard_pod_affinity_weight(policy, plan.inter_pod_affinity, &mut warnings);
    warn_always_check_all_predicates(policy, &mut warnings);
    let plugins = plugins_json(&filter, &plan.score, volume_binding, &mut warnings);
    let plugin_config = plugin_config(plan.args);
    let configuration = configuration(policy, plugins, plugin_config, &mut warnings);
    Translation {
        configuration,
        warnings,
    }
}

/// The v1.22 predicate keys of the Policy (v1.22's `DefaultPredicates` when `predicates` is
/// absent), then the mandatory ones; what has no key is left out with a warning.
fn predicate_keys(policy: &PolicyDocument, warnings: &mut Vec<String>) -> Vec<&'static str> {
    let mut keys: Vec<&'static str> = Vec::new();
    match &policy.predicates {
        None => {
            warnings.push(
                "predicates: not given, so v1.22's DefaultPredicates are translated: v1.17's \
                 DefaultProvider set plus EvenPodsSpread"
                    .to_string(),
            );
            for name in DEFAULT_PREDICATES {
                let p = PredicatePolicy {
                    name: name.to_string(),
                    argument: None,
                };
                let label = format!("default predicate {name}");
                keys.extend(predicate_key(&p, &label, warnings));
            }
        }
        Some(list) => {
            for (i, p) in list.iter().enumerate() {
                let label = format!("predicates[{i}] {}", p.name);
                keys.extend(predicate_key(p, &label, warnings));
            }
        }
    }
    keys.extend(MANDATORY_PREDICATES);
    keys
}

/// The Filter list: the predicate keys visited in `predicateOrdering`, each adding its v1.35
/// plugins unless already present.
fn filter_plugins(predicate_keys: &[&'static str]) -> Vec<&'static str> {
    let mut filter: Vec<&'static str> = Vec::new();
    for key in PREDICATE_ORDERING {
        if !predicate_keys.contains(&key) {
            continue;
        }
        if let Producer::Filter(plugins) = predicate_producer(key) {
            for p in plugins {
                push_unique(&mut filter, p);
            }
        }
    }
    filter
}

/// The Policy's priorities by v1.22 key (v1.22's `DefaultPriorities` when `priorities` is
/// absent), in sorted key order; two entries with one key keep the later, with a warning.
fn priority_keys(
    policy: &PolicyDocument,
    warnings: &mut Vec<String>,
) -> BTreeMap<&'static str, Scored> {
    let mut keys: BTreeMap<&'static str, Scored> = BTreeMap::new();
    match &policy.priorities {
        None => {
            warnings.push(
                "priorities: not given, so v1.22's DefaultPriorities are translated: v1.17's \
                 DefaultProvider set plus EvenPodsSpreadPriority with weight 2"
                    .to_string(),
            );
            for (name, weight) in DEFAULT_PRIORITIES {
                let p = PriorityPolicy {
                    name: name.to_string(),
                    weight,
                    argument: None,
                };
                let label = format!("default priority {name}");
                if let Some((key, scored)) = priority_key(&p, label, warnings) {
                    insert_priority_key(&mut keys, key, scored, warnings);
                }
            }
        }
        Some(list) => {
            for (i, p) in list.iter().enumerate() {
                let label = format!("priorities[{i}] {}", p.name);
                if let Some((key, scored)) = priority_key(p, label, warnings) {
                    insert_priority_key(&mut keys, key, scored, warnings);
                }
            }
        }
    }
    keys
}

/// Records a priority under its key; one already there is replaced (upstream's map), with a
/// warning.
fn insert_priority_key(
    keys: &mut BTreeMap<&'static str, Scored>,
    key: &'static str,
    scored: Scored,
    warnings: &mut Vec<String>,
) {
    let label = scored.label.clone();
    let weight = scored.weight;
    if let Some(prev) = keys.insert(key, scored) {
        warnings.push(format!(
            "{label}: replaces {} (both are {key}); as in v1.18–v1.22 the later entry's weight \
             ({weight}) is used",
            prev.label
        ));
    }
}

/// The one NodeResourcesFit scoring strategy among the resource keys: the largest weight, the
/// first key on a tie. Warns what it becomes, and that every other resource key is left out.
fn choose_scoring_strategy(
    keys: &BTreeMap<&'static str, Scored>,
    warnings: &mut Vec<String>,
) -> Option<&'static str> {
    let mut chosen: Option<&'static str> = None;
    for key in RESOURCE_KEYS {
        if let Some(s) = keys.get(key) {
            if chosen.is_none_or(|c| s.weight > keys[c].weight) {
                chosen = Some(key);
            }
        }
    }
    let c = chosen?;
    let kept = &keys[c];
    let strategy = kept
        .strategy
        .as_ref()
        .map(describe_strategy)
        .unwrap_or_default();
    warnings.push(format!(
        "{}: becomes NodeResourcesFit's Score (weight {}) with scoringStrategy {strategy}; \
         v1.35 has no {} plugin, and this scoring strategy is its equivalent",
        kept.label,
        kept.weight,
        match c {
            "LeastRequestedPriority" => "NodeResourcesLeastAllocated",
            "MostRequestedPriority" => "NodeResourcesMostAllocated",
            _ => "RequestedToCapacityRatio",
        }
    ));
    for key in RESOURCE_KEYS {
        if key == c {
            continue;
        }
        if let Some(s) = keys.get(key) {
            warnings.push(format!(
                "{} (weight {}): left out: in v1.35 LeastAllocated, MostAllocated and \
                 RequestedToCapacityRatio are scoring strategies of the one NodeResourcesFit \
                 Score plugin and a profile has one; {} (weight {}) was kept",
                s.label, s.weight, kept.label, kept.weight
            ));
        }
    }
    chosen
}

/// The arguments the translation gives plugins (each `None` keeps v1.35's default).
#[derive(Default)]
struct PluginArgs {
    /// NodeResourcesFit's `scoringStrategy`.
    fit_strategy: Option<Value>,
    /// PodTopologySpread's `defaultingType`.
    spread_defaulting: Option<&'static str>,
    /// InterPodAffinity's `hardPodAffinityWeight`.
    hard_pod_affinity_weight: Option<i64>,
}

/// What the priorities become in v1.35.
struct ScorePlan {
    /// The Score list: (plugin, weight, the label of the priority that gave it).
    score: Vec<(&'static str, i64, String)>,
    /// The plugin arguments the priorities choose.
    args: PluginArgs,
    /// Whether InterPodAffinityPriority is translated.
    inter_pod_affinity: bool,
}

/// The Score list, in sorted key order, and the arguments the priorities choose; when a later
/// key reaches a plugin already scoring, the first weight stays (with a warning if a larger one
/// is lost).
fn score_plan(
    keys: &BTreeMap<&'static str, Scored>,
    chosen: Option<&'static str>,
    warnings: &mut Vec<String>,
) -> ScorePlan {
    let mut plan = ScorePlan {
        score: Vec::new(),
        args: PluginArgs::default(),
        inter_pod_affinity: false,
    };
    for (key, s) in keys {
        let Some(&(_, plugin)) = PRIORITY_PLUGINS.iter().find(|(k, _)| k == key) else {
            continue;
        };
        match *key {
            "LeastRequestedPriority" | "MostRequestedPriority" | "RequestedToCapacityRatio" => {
                if chosen != Some(*key) {
                    continue;
                }
                plan.args.fit_strategy = s.strategy.clone();
            }
            "SelectorSpreadPriority" => plan.args.spread_defaulting = Some("System"),
            "EvenPodsSpreadPriority" => {
                plan.args.spread_defaulting.get_or_insert("List");
            }
            "InterPodAffinityPriority" => plan.inter_pod_affinity = true,
            _ => {}
        }
        match plan.score.iter().find(|(name, _, _)| *name == plugin) {
            Some((_, w, first)) => {
                // Only a larger later weight is lost (the intended maximum is the first then).
                if s.weight > *w {
                    warnings.push(format!(
                        "{} (weight {}): {plugin} already scores with weight {w} from {first}, \
                         which is kept: v1.20–v1.22's appendToPluginSet meant to keep the larger \
                         weight but updated a copy of the entry, so the first weight stayed",
                        s.label, s.weight
                    ));
                }
            }
            None => plan.score.push((plugin, s.weight, s.label.clone())),
        }
    }
    plan
}

/// `hardPodAffinitySymmetricWeight` ≠ 0 → InterPodAffinity's `hardPodAffinityWeight`, when
/// InterPodAffinityPriority is translated; otherwise it is left out with a warning.
fn hard_pod_affinity_weight(
    policy: &PolicyDocument,
    inter_pod_affinity: bool,
    warnings: &mut Vec<String>,
) -> Option<i64> {
    match policy.hard_pod_affinity_symmetric_weight {
        Some(w) if w != 0 => {
            if inter_pod_affinity {
                return Some(w);
            }
            warnings.push(format!(
                "hardPodAffinitySymmetricWeight ({w}): left out: it only weights \
                 InterPodAffinityPriority, which the Policy does not use (v1.22 dropped it too)"
            ));
            None
        }
        _ => None,
    }
}

/// `alwaysCheckAllPredicates: true` has no v1 equivalent: a warning.
fn warn_always_check_all_predicates(policy: &PolicyDocument, warnings: &mut Vec<String>) {
    if policy.always_check_all_predicates {
        warnings.push(
            "alwaysCheckAllPredicates: left out: the v1 configuration has no such option; v1.35 \
             stops filtering a node at the first Filter plugin that rejects it, so only that \
             plugin's reason is recorded"
                .to_string(),
        );
    }
}

/// The profile's `plugins`: each point the Policy decides written out in full and closed with
/// `disabled: [{name: "*"}]`, and the MultiPoint defaults without DynamicResources.
fn plugins_json(
    filter: &[&str],
    score: &[(&'static str, i64, String)],
    volume_binding: bool,
    warnings: &mut Vec<String>,
) -> Value {
    let has =
        |name: &str, point: Point| registry::lookup(name).is_some_and(|s| s.points.has(point));
    let mut weights = Vec::new();
    for (name, w, label) in score {
        weights.push(json!({"name": name, "weight": clamp_weight(*w, label, warnings)}));
    }
    let names = |list: &[&str]| -> Vec<Value> { list.iter().map(|n| json!({"name": n})).collect() };
    let pre_filter: Vec<&str> = filter
        .iter()
        .copied()
        .filter(|n| has(n, Point::PreFilter))
        .collect();
    let pre_score: Vec<&str> = score
        .iter()
        .map(|(n, _, _)| *n)
        .filter(|n| has(n, Point::PreScore))
        .collect();
    let binding: &[&str] = if volume_binding {
        &["VolumeBinding"]
    } else {
        &[]
    };
    let only = |enabled: Vec<Value>| json!({"enabled": enabled, "disabled": [{"name": "*"}]});
    json!({
        "preFilter": only(names(&pre_filter)),
        "filter": only(names(filter)),
        "preScore": only(names(&pre_score)),
        "score": only(weights),
        "reserve": only(names(binding)),
        "preBind": only(names(binding)),
        "multiPoint": {"disabled": [{"name": "DynamicResources"}]},
    })
}

/// The profile's `pluginConfig`: only the arguments the translation chose, in v1.35's plugin
/// order.
fn plugin_config(args: PluginArgs) -> Vec<Value> {
    let mut plugin_config = Vec::new();
    if let Some(strategy) = args.fit_strategy {
        plugin_config
            .push(json!({"name": "NodeResourcesFit", "args": {"scoringStrategy": strategy}}));
    }
    if let Some(t) = args.spread_defaulting {
        plugin_config.push(json!({"name": "PodTopologySpread", "args": {"defaultingType": t}}));
    }
    if let Some(w) = args.hard_pod_affinity_weight {
        plugin_config
            .push(json!({"name": "InterPodAffinity", "args": {"hardPodAffinityWeight": w}}));
    }
    plugin_config
}

/// The `KubeSchedulerConfiguration`: one `default-scheduler` profile, and the Policy's
/// extenders carried over (with a warning each).
fn configuration(
    policy: &PolicyDocument,
    plugins: Value,
    plugin_config: Vec<Value>,
    warnings: &mut Vec<String>,
) -> Value {
    let mut profile = Map::new();
    profile.insert("schedulerName".into(), SCHEDULER_NAME.into());
    profile.insert("plugins".into(), plugins);
    if !plugin_config.is_empty() {
        profile.insert("pluginConfig".into(), Value::Array(plugin_config));
    }
    let mut configuration = Map::new();
    configuration.insert("apiVersion".into(), API_VERSION.into());
    configuration.insert("kind".into(), "KubeSchedulerConfiguration".into());
    configuration.insert("profiles".into(), json!([profile]));
    if let Some(extenders) = policy.extenders.as_ref().filter(|e| !e.is_empty()) {
        let list = extenders
            .iter()
            .enumerate()
            .map(|(i, e)| extender(e, i, warnings))
            .collect();
        configuration.insert("extenders".into(), Value::Array(list));
    }
    Value::Object(configuration)
}

/// `{"configuration": ..., "warnings": [...]}`.
pub fn to_json(t: &Translation) -> Value {
    json!({"configuration": t.configuration, "warnings": t.warnings})
}

/// A `# warning: ...` line per warning, then the configuration as YAML.
pub fn to_yaml(t: &Translation) -> String {
    let mut out = String::new();
    for w in &t.warnings {
        out.push_str("# warning: ");
        out.push_str(&w.replace(['\r', '\n'], " "));
        out.push('\n');
    }
    match serde_yaml_ng::to_string(&t.configuration) {
        Ok(yaml) => out.push_str(&yaml),
        // Not expected for a JSON value; JSON is YAML too.
        Err(_) => {
            out.push_str(&serde_json::to_string_pretty(&t.configuration).unwrap_or_default());
            out.push('\n');
        }
    }
    out
}

fn push_unique(list: &mut Vec<&'static str>, name: &'static str) {
    if !list.contains(&name) {
        list.push(name);
    }
}

/// The v1.22 key of a predicate entry, or a warning saying why it is left out.
fn predicate_key(
    p: &PredicatePolicy,
    label: &str,
    warnings: &mut Vec<String>,
) -> Option<&'static str> {
    if let Some(arg) = &p.argument {
        match (&arg.service_affinity, &arg.labels_presence) {
            (Some(sa), None) => warnings.push(format!(
                "{label}: left out: serviceAffinity (labels {}) became v1.22's ServiceAffinity \
                 plugin, which v1.35 does not have; required pod affinity in the workloads is \
                 the closest modern form",
                list(&sa.labels)
            )),
            (None, Some(lp)) => warnings.push(format!(
                "{label}: left out: labelsPresence (labels {} {}) became v1.22's NodeLabel \
                 plugin, which v1.35 does not have; NodeAffinityArgs.addedAffinity with {} \
                 requirements is the closest modern form",
                list(&lp.labels),
                if lp.presence { "present" } else { "absent" },
                if lp.presence {
                    "Exists"
                } else {
                    "DoesNotExist"
                },
            )),
            _ => warnings.push(format!(
                "{label}: not translated: exactly 1 predicate argument is required"
            )),
        }
        return None;
    }
    let name = if p.name == "PodFitsPorts" {
        warnings.push(format!(
            "{label}: translated as its alias PodFitsHostPorts (NodePorts), as v1.18–v1.22 did; \
             v1.17 accepted this name but never ran it, so host ports are now checked"
        ));
        "PodFitsHostPorts"
    } else {
        p.name.as_str()
    };
    if CONDITION_PREDICATES.contains(&name) {
        warnings.push(format!(
            "{label}: left out: removed in v1.17 (node conditions act through the \
             node.kubernetes.io/* taints that TaintToleration checks); v1.18–v1.22 rejected the \
             name"
        ));
        return None;
    }
    let Some(key) = PREDICATE_ORDERING
        .iter()
        .copied()
        .find(|k| *k == name && !matches!(*k, "CheckNodeLabelPresence" | "CheckServiceAffinity"))
    else {
        warnings.push(format!(
            "{label}: not translated: unknown predicate (v1.22: predicate type not found for \
             {name:?})"
        ));
        return None;
    };
    if let Producer::Gone(plugin) = predicate_producer(key) {
        warnings.push(format!(
            "{label}: left out: it became the {plugin} plugin, which v1.35 no longer registers \
             (naming it in a v1 configuration is a validation error); NodeVolumeLimits \
             (MaxCSIVolumeCountPred) is v1.35's only volume-limit plugin"
        ));
        return None;
    }
    Some(key)
}

/// The v1.22 key of a priority entry with what it carries, or a warning saying why it is left
/// out.
fn priority_key(
    p: &PriorityPolicy,
    label: String,
    warnings: &mut Vec<String>,
) -> Option<(&'static str, Scored)> {
    let scored = |strategy: Option<Value>| Scored {
        label: label.clone(),
        weight: p.weight,
        strategy,
    };
    if p.name == "EqualPriority" {
        warnings.push(format!(
            "{label}: skipped, as v1.18–v1.22 did: it gives every node the same score, so no \
             decision changes"
        ));
        return None;
    }
    if let Some(arg) = &p.argument {
        let given = [
            arg.service_anti_affinity.is_some(),
            arg.label_preference.is_some(),
            arg.requested_to_capacity_ratio_arguments.is_some(),
        ];
        if given.iter().filter(|g| **g).count() != 1 {
            warnings.push(format!(
                "{label}: not translated: exactly 1 priority argument is required"
            ));
            return None;
        }
        if let Some(sa) = &arg.service_anti_affinity {
            warnings.push(format!(
                "{label}: left out: serviceAntiAffinity (label {}, weight {}) became v1.22's \
                 ServiceAffinity Score plugin, which v1.35 does not have; topology spread \
                 constraints (or PodTopologySpreadArgs.defaultConstraints) are the closest modern \
                 form",
                sa.label, p.weight
            ));
            return None;
        }
        if let Some(lp) = &arg.label_preference {
            warnings.push(format!(
                "{label}: left out: labelPreference (label {} {}, weight {}) became v1.22's \
                 NodeLabel Score plugin, which v1.35 does not have; preferred terms in \
                 NodeAffinityArgs.addedAffinity are the closest modern form",
                lp.label,
                if lp.presence { "present" } else { "absent" },
                p.weight
            ));
            return None;
        }
        let args = arg.requested_to_capacity_ratio_arguments.as_ref()?;
        let strategy = rtcr_strategy(args, &label, warnings);
        return Some(("RequestedToCapacityRatio", scored(Some(strategy))));
    }
    let key = match p.name.as_str() {
        "ServiceSpreadingPriority" | "SelectorSpreadPriority" => {
            let alias = if p.name == "ServiceSpreadingPriority" {
                "alias of SelectorSpreadPriority; "
            } else {
                ""
            };
            warnings.push(format!(
                "{label}: {alias}becomes PodTopologySpread (weight {}) with defaultingType \
                 System, as v1.22 did with DefaultPodTopologySpread on: v1.35 has no \
                 SelectorSpread plugin, and the system default constraints (hostname maxSkew 3, \
                 zone maxSkew 5, ScheduleAnyway) take its place and score differently",
                p.weight
            ));
            "SelectorSpreadPriority"
        }
        "NodePreferAvoidPodsPriority" => {
            warnings.push(format!(
                "{label}: left out: it became the NodePreferAvoidPods plugin, which v1.35 does \
                 not have, so the scheduler.alpha.kubernetes.io/preferAvoidPods node annotation \
                 is not honoured"
            ));
            return None;
        }
        "ResourceLimitsPriority" => {
            warnings.push(format!(
                "{label}: left out: v1.35 has no NodeResourceLimits plugin and no equivalent"
            ));
            return None;
        }
        "RequestedToCapacityRatioPriority" => {
            warnings.push(format!(
                "{label}: translated with v1.17's default shape (utilization 0 → score 10, 100 → \
                 0) and cpu and memory weight 1; v1.18–v1.22 accepted the name only with \
                 requestedToCapacityRatioArguments"
            ));
            let strategy = json!({
                "type": "RequestedToCapacityRatio",
                "resources": default_resources(),
                "requestedToCapacityRatio": {"shape": [
                    {"utilization": 0, "score": 10},
                    {"utilization": 100, "score": 0},
                ]},
            });
            return Some(("RequestedToCapacityRatio", scored(Some(strategy))));
        }
        "LeastRequestedPriority" => {
            let strategy = json!({"type": "LeastAllocated", "resources": default_resources()});
            return Some(("LeastRequestedPriority", scored(Some(strategy))));
        }
        "MostRequestedPriority" => {
            let strategy = json!({"type": "MostAllocated", "resources": default_resources()});
            return Some(("MostRequestedPriority", scored(Some(strategy))));
        }
        name => match PRIORITY_PLUGINS.iter().find(|(k, _)| *k == name) {
            Some((k, _)) if *k != "RequestedToCapacityRatio" => *k,
            _ => {
                warnings.push(format!(
                    "{label}: not translated: unknown priority (v1.22: priority type not found \
                     for {name:?})"
                ));
                return None;
            }
        },
    };
    Some((key, scored(None)))
}

/// cpu and memory, weight 1 (the resources of v1.22's Least/MostAllocated args).
fn default_resources() -> Value {
    json!([{"name": "cpu", "weight": 1}, {"name": "memory", "weight": 1}])
}

/// `requestedToCapacityRatioArguments` → the `RequestedToCapacityRatio` scoring strategy.
/// Shape scores stay on 0–10 (v1.35 scales them, as v1.22 did); no resources means cpu and
/// memory weight 1, and a weight 0 means 1, as in v1.17 and v1.35.
fn rtcr_strategy(args: &RtcrArgs, label: &str, warnings: &mut Vec<String>) -> Value {
    let resources = if args.resources.is_empty() {
        default_resources()
    } else {
        let list = args.resources.iter().map(|r| {
            let weight = if r.weight == 0 { 1 } else { r.weight };
            if !(1..=100).contains(&weight) {
                warnings.push(format!(
                    "{label}: resource {} has weight {weight}, outside v1.35's range (0, 100]: \
                     the configuration will not build until it is changed",
                    r.name
                ));
            }
            json!({"name": r.name, "weight": weight})
        });
        Value::Array(list.collect())
    };
    let shape: Vec<Value> = args
        .shape
        .iter()
        .map(|p| json!({"utilization": p.utilization, "score": p.score}))
        .collect();
    json!({
        "type": "RequestedToCapacityRatio",
        "resources": resources,
        "requestedToCapacityRatio": {"shape": shape},
    })
}

/// `LeastAllocated (cpu 1, memory 1)`.
fn describe_strategy(strategy: &Value) -> String {
    let kind = strategy["type"].as_str().unwrap_or_default();
    let resources: Vec<String> = strategy["resources"]
        .as_array()
        .map(|rs| {
            rs.iter()
                .map(|r| format!("{} {}", r["name"].as_str().unwrap_or_default(), r["weight"]))
                .collect()
        })
        .unwrap_or_default();
    let mut out = format!("{kind} ({})", resources.join(", "));
    if let Some(shape) = strategy["requestedToCapacityRatio"]["shape"].as_array() {
        let points: Vec<String> = shape
            .iter()
            .map(|p| format!("{}→{}", p["utilization"], p["score"]))
            .collect();
        out.push_str(&format!(
            ", shape {} with scores on 0–10 as v1.35 reads them",
            points.join(" ")
        ));
    }
    out
}

/// v1 weights are `int32`.
fn clamp_weight(w: i64, label: &str, warnings: &mut Vec<String>) -> i64 {
    let max = i64::from(i32::MAX);
    if w > max {
        warnings.push(format!(
            "{label}: weight {w} does not fit the int32 weight of a v1 configuration (v1.22 \
             truncated it to {}); written as {max}",
            w as i32
        ));
        max
    } else {
        w
    }
}

fn list(labels: &[String]) -> String {
    if labels.is_empty() {
        "none".to_string()
    } else {
        labels.join(", ")
    }
}

/// The v1 `Extender` field names, by their lowercase spelling (Policy files were read
/// case-insensitively; a v1 configuration is read strictly).
const EXTENDER_FIELDS: [&str; 12] = [
    "urlPrefix",
    "filterVerb",
    "preemptVerb",
    "prioritizeVerb",
    "weight",
    "bindVerb",
    "enableHTTPS",
    "tlsConfig",
    "httpTimeout",
    "nodeCacheCapable",
    "managedResources",
    "ignorable",
];

/// The v1 `ExtenderTLSConfig` field names.
const TLS_FIELDS: [&str; 8] = [
    "insecure",
    "serverName",
    "certFile",
    "keyFile",
    "caFile",
    "certData",
    "keyData",
    "caData",
];

/// The v1 `ExtenderManagedResource` field names.
const MANAGED_RESOURCE_FIELDS: [&str; 2] = ["name", "ignoredByScheduler"];

/// An extender of the Policy as a v1 `Extender` (`httpTimeout` in nanoseconds becomes a
/// duration string, the field names take v1's spelling).
fn extender(e: &Value, i: usize, warnings: &mut Vec<String>) -> Value {
    let path = format!("extenders[{i}]");
    let mut out = rename_fields(e, &EXTENDER_FIELDS, &path, warnings);
    if let Some(Value::Number(n)) = out.get("httpTimeout") {
        if let Some(ns) = n.as_i64() {
            out.insert("httpTimeout".into(), go_duration(ns).into());
        }
    }
    if let Some(tls) = out.get("tlsConfig") {
        let tls = rename_fields(tls, &TLS_FIELDS, &format!("{path}.tlsConfig"), warnings);
        out.insert("tlsConfig".into(), Value::Object(tls));
    }
    if let Some(Value::Array(resources)) = out.get("managedResources") {
        let resources = resources
            .iter()
            .enumerate()
            .map(|(j, r)| {
                let p = format!("{path}.managedResources[{j}]");
                Value::Object(rename_fields(r, &MANAGED_RESOURCE_FIELDS, &p, warnings))
            })
            .collect();
        out.insert("managedResources".into(), Value::Array(resources));
    }
    Value::Object(out)
}

/// The fields of `v` under their canonical names, in input order; others are left out.
fn rename_fields(
    v: &Value,
    names: &[&'static str],
    path: &str,
    warnings: &mut Vec<String>,
) -> Map<String, Value> {
    let mut out = Map::new();
    let Some(object) = v.as_object() else {
        return out;
    };
    for (k, value) in object {
        match names.iter().find(|n| n.eq_ignore_ascii_case(k)) {
            Some(name) if !value.is_null() => {
                out.insert((*name).to_string(), value.clone());
            }
            Some(_) => {}
            None => warnings.push(format!(
                "{path}.{k}: left out: not a field of the v1 configuration"
            )),
        }
    }
    out
}

/// A Policy's `httpTimeout` (a Go `time.Duration`, nanoseconds) as a duration string that
/// `time.ParseDuration` reads back exactly.
fn go_duration(ns: i64) -> String {
    for (unit, size) in [
        ("h", 3_600_000_000_000),
        ("m", 60_000_000_000),
        ("s", 1_000_000_000),
    ] {
        if ns != 0 && ns % size == 0 {
            return format!("{}{unit}", ns / size);
        }
    }
    for (unit, size) in [("ms", 1_000_000), ("us", 1_000)] {
        if ns % size == 0 && ns != 0 {
            return format!("{}{unit}", ns / size);
        }
    }
    if ns == 0 {
        "0s".to_string()
    } else {
        format!("{ns}ns")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{read_sources, Source};

    fn realworld(name: &str) -> PolicyDocument {
        let path = format!(
            "{}/../../../shared/realworld/inputs/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let inputs = read_sources(&[Source {
            name: &path,
            text: &text,
        }])
        .unwrap_or_else(|e| panic!("{e:?}"));
        inputs.policies[0].0.clone()
    }

    fn policy(v: Value) -> PolicyDocument {
        serde_json::from_value(v).expect("a Policy")
    }

    fn plugins(t: &Translation) -> &Value {
        &t.configuration["profiles"][0]["plugins"]
    }

    fn names(t: &Translation, point: &str) -> Vec<String> {
        plugins(t)[point]["enabled"]
            .as_array()
            .expect("enabled")
            .iter()
            .map(|e| e["name"].as_str().expect("name").to_string())
            .collect()
    }

    fn weights(t: &Translation) -> Vec<(String, i64)> {
        plugins(t)["score"]["enabled"]
            .as_array()
            .expect("enabled")
            .iter()
            .map(|e| {
                (
                    e["name"].as_str().expect("name").to_string(),
                    e["weight"].as_i64().expect("weight"),
                )
            })
            .collect()
    }

    fn warned(t: &Translation, start: &str) -> bool {
        t.warnings.iter().any(|w| w.starts_with(start))
    }

    #[test]
    fn a_policy_without_sections_is_v1_22s_defaults() {
        let t = translate(&policy(json!({"kind": "Policy", "apiVersion": "v1"})));
        // Keys DefaultPredicates ∪ mandatory, visited in predicateOrdering:
        // CheckNodeUnschedulable; GeneralPredicates (Fit, NodeName, NodePorts, NodeAffinity);
        // NoDiskConflict; PodToleratesNodeTaints; MaxEBS (gone); MaxGCEPD (gone);
        // MaxCSIVolumeCountPred; MaxAzureDisk (gone); CheckVolumeBinding; NoVolumeZoneConflict;
        // EvenPodsSpread; MatchInterPodAffinity.
        // Priorities in sorted key order: BalancedResourceAllocation 1, EvenPodsSpreadPriority 2
        // (PodTopologySpread, List), ImageLocalityPriority 1, InterPodAffinityPriority 1,
        // LeastRequestedPriority 1 (Fit), NodeAffinityPriority 1, NodePreferAvoidPods (gone),
        // SelectorSpreadPriority 1 (PodTopologySpread again: weight 2 stays; System replaces
        // List), TaintTolerationPriority 1.
        let set = |names: &[&str]| -> Value {
            let enabled: Vec<Value> = names.iter().map(|n| json!({"name": n})).collect();
            json!({"enabled": enabled, "disabled": [{"name": "*"}]})
        };
        let expected = json!({
            "apiVersion": "kubescheduler.config.k8s.io/v1",
            "kind": "KubeSchedulerConfiguration",
            "profiles": [{
                "schedulerName": "default-scheduler",
                "plugins": {
                    "preFilter": set(&["NodeResourcesFit", "NodePorts", "NodeAffinity",
                        "VolumeRestrictions", "NodeVolumeLimits", "VolumeBinding", "VolumeZone",
                        "PodTopologySpread", "InterPodAffinity"]),
                    "filter": set(&["NodeUnschedulable", "NodeResourcesFit", "NodeName",
                        "NodePorts", "NodeAffinity", "VolumeRestrictions", "TaintToleration",
                        "NodeVolumeLimits", "VolumeBinding", "VolumeZone", "PodTopologySpread",
                        "InterPodAffinity"]),
                    "preScore": set(&["NodeResourcesBalancedAllocation", "PodTopologySpread",
                        "InterPodAffinity", "NodeResourcesFit", "NodeAffinity",
                        "TaintToleration"]),
                    "score": {"enabled": [
                        {"name": "NodeResourcesBalancedAllocation", "weight": 1},
                        {"name": "PodTopologySpread", "weight": 2},
                        {"name": "ImageLocality", "weight": 1},
                        {"name": "InterPodAffinity", "weight": 1},
                        {"name": "NodeResourcesFit", "weight": 1},
                        {"name": "NodeAffinity", "weight": 1},
                        {"name": "TaintToleration", "weight": 1},
                    ], "disabled": [{"name": "*"}]},
                    "reserve": set(&["VolumeBinding"]),
                    "preBind": set(&["VolumeBinding"]),
                    "multiPoint": {"disabled": [{"name": "DynamicResources"}]},
                },
                "pluginConfig": [
                    {"name": "NodeResourcesFit", "args": {"scoringStrategy": {
                        "type": "LeastAllocated",
                        "resources": [{"name": "cpu", "weight": 1}, {"name": "memory", "weight": 1}],
                    }}},
                    {"name": "PodTopologySpread", "args": {"defaultingType": "System"}},
                ],
            }],
        });
        assert_eq!(t.configuration, expected);
        // Two notes on the defaults, three volume-limit plugins, NodePreferAvoidPods, and the
        // two substitutions. PodTopologySpread keeps EvenPodsSpread's 2, which is also the
        // larger weight, so SelectorSpread's 1 is lost without a warning.
        for start in [
            "predicates: not given",
            "default predicate MaxEBSVolumeCount: left out: it became the EBSLimits plugin",
            "default predicate MaxGCEPDVolumeCount: left out: it became the GCEPDLimits plugin",
            "default predicate MaxAzureDiskVolumeCount: left out: it became the AzureDiskLimits",
            "priorities: not given",
            "default priority SelectorSpreadPriority: becomes PodTopologySpread (weight 1)",
            "default priority NodePreferAvoidPodsPriority: left out",
            "default priority LeastRequestedPriority: becomes NodeResourcesFit's Score (weight 1) \
             with scoringStrategy LeastAllocated (cpu 1, memory 1)",
        ] {
            assert!(warned(&t, start), "{start}\n{:#?}", t.warnings);
        }
        assert_eq!(t.warnings.len(), 8, "{:#?}", t.warnings);
    }

    #[test]
    fn the_classic_policy_with_legacy_names() {
        let t = translate(&realworld("k8s__policy_classic_legacy_names.json"));
        // Keys: PodFitsHostPorts (alias), PodFitsResources, NoDiskConflict, MatchNodeSelector,
        // HostName + mandatory PodToleratesNodeTaints, CheckNodeUnschedulable; in
        // predicateOrdering: CheckNodeUnschedulable, HostName, PodFitsHostPorts,
        // MatchNodeSelector, PodFitsResources, NoDiskConflict, PodToleratesNodeTaints.
        assert_eq!(
            names(&t, "filter"),
            [
                "NodeUnschedulable",
                "NodeName",
                "NodePorts",
                "NodeAffinity",
                "NodeResourcesFit",
                "VolumeRestrictions",
                "TaintToleration"
            ]
        );
        assert_eq!(
            names(&t, "preFilter"),
            [
                "NodePorts",
                "NodeAffinity",
                "NodeResourcesFit",
                "VolumeRestrictions"
            ]
        );
        // Sorted keys: BalancedResourceAllocation, LeastRequestedPriority,
        // SelectorSpreadPriority (from ServiceSpreadingPriority); EqualPriority skipped.
        assert_eq!(
            weights(&t),
            [
                ("NodeResourcesBalancedAllocation".to_string(), 1),
                ("NodeResourcesFit".to_string(), 1),
                ("PodTopologySpread".to_string(), 1)
            ]
        );
        assert_eq!(
            names(&t, "preScore"),
            [
                "NodeResourcesBalancedAllocation",
                "NodeResourcesFit",
                "PodTopologySpread"
            ]
        );
        assert!(names(&t, "reserve").is_empty());
        assert!(names(&t, "preBind").is_empty());
        assert_eq!(
            t.configuration["profiles"][0]["pluginConfig"],
            json!([
                {"name": "NodeResourcesFit", "args": {"scoringStrategy": {"type": "LeastAllocated",
                    "resources": [{"name": "cpu", "weight": 1}, {"name": "memory", "weight": 1}]}}},
                {"name": "PodTopologySpread", "args": {"defaultingType": "System"}},
            ])
        );
        assert!(t.configuration.get("extenders").is_none());
        assert_eq!(
            t.warnings,
            [
                "predicates[0] PodFitsPorts: translated as its alias PodFitsHostPorts (NodePorts), \
                 as v1.18–v1.22 did; v1.17 accepted this name but never ran it, so host ports are \
                 now checked",
                "priorities[2] ServiceSpreadingPriority: alias of SelectorSpreadPriority; becomes \
                 PodTopologySpread (weight 1) with defaultingType System, as v1.22 did with \
                 DefaultPodTopologySpread on: v1.35 has no SelectorSpread plugin, and the system \
                 default constraints (hostname maxSkew 3, zone maxSkew 5, ScheduleAnyway) take its \
                 place and score differently",
                "priorities[3] EqualPriority: skipped, as v1.18–v1.22 did: it gives every node the \
                 same score, so no decision changes",
                "priorities[0] LeastRequestedPriority: becomes NodeResourcesFit's Score (weight 1) \
                 with scoringStrategy LeastAllocated (cpu 1, memory 1); v1.35 has no \
                 NodeResourcesLeastAllocated plugin, and this scoring strategy is its equivalent",
            ]
        );
    }

    #[test]
    fn the_openshift_policy_loses_region_zone_and_prefer_avoid_pods() {
        let t = translate(&realworld(
            "acsengine__policy_openshift311_region_zone.json",
        ));
        // Keys: NoVolumeZoneConflict, MaxEBS, MaxGCEPD, MaxAzureDisk (gone),
        // MatchInterPodAffinity, NoDiskConflict, GeneralPredicates, PodToleratesNodeTaints,
        // CheckVolumeBinding; the pressure predicates and Region are left out; plus
        // CheckNodeUnschedulable.
        assert_eq!(
            names(&t, "filter"),
            [
                "NodeUnschedulable",
                "NodeResourcesFit",
                "NodeName",
                "NodePorts",
                "NodeAffinity",
                "VolumeRestrictions",
                "TaintToleration",
                "VolumeBinding",
                "VolumeZone",
                "InterPodAffinity"
            ]
        );
        assert_eq!(
            names(&t, "preFilter"),
            [
                "NodeResourcesFit",
                "NodePorts",
                "NodeAffinity",
                "VolumeRestrictions",
                "VolumeBinding",
                "VolumeZone",
                "InterPodAffinity"
            ]
        );
        // Sorted: BalancedResourceAllocation, InterPodAffinityPriority, LeastRequestedPriority,
        // NodeAffinityPriority, SelectorSpreadPriority, TaintTolerationPriority (Zone and
        // NodePreferAvoidPodsPriority left out).
        assert_eq!(
            weights(&t),
            [
                ("NodeResourcesBalancedAllocation".to_string(), 1),
                ("InterPodAffinity".to_string(), 1),
                ("NodeResourcesFit".to_string(), 1),
                ("NodeAffinity".to_string(), 1),
                ("PodTopologySpread".to_string(), 1),
                ("TaintToleration".to_string(), 1)
            ]
        );
        assert_eq!(names(&t, "reserve"), ["VolumeBinding"]);
        assert_eq!(names(&t, "preBind"), ["VolumeBinding"]);
        for start in [
            "predicates[1] MaxEBSVolumeCount: left out",
            "predicates[2] MaxGCEPDVolumeCount: left out",
            "predicates[3] MaxAzureDiskVolumeCount: left out",
            "predicates[8] CheckNodeMemoryPressure: left out: removed in v1.17",
            "predicates[9] CheckNodeDiskPressure: left out: removed in v1.17",
            "predicates[11] Region: left out: serviceAffinity (labels region) became v1.22's \
             ServiceAffinity plugin",
            "priorities[0] SelectorSpreadPriority: becomes PodTopologySpread",
            "priorities[4] NodePreferAvoidPodsPriority: left out: it became the \
             NodePreferAvoidPods plugin",
            "priorities[7] Zone: left out: serviceAntiAffinity (label zone, weight 2)",
            "priorities[2] LeastRequestedPriority: becomes NodeResourcesFit's Score",
        ] {
            assert!(warned(&t, start), "{start}\n{:#?}", t.warnings);
        }
        assert_eq!(t.warnings.len(), 10, "{:#?}", t.warnings);
    }

    #[test]
    fn colliding_weights_keep_the_first_in_sorted_key_order() {
        // EvenPodsSpreadPriority sorts before SelectorSpreadPriority. v1.22's appendToPluginSet
        // keeps the first weight (its "keep the max" assignment hits a copy), so 1, not 5.
        let t = translate(&policy(json!({
            "predicates": [],
            "priorities": [
                {"name": "SelectorSpreadPriority", "weight": 5},
                {"name": "EvenPodsSpreadPriority", "weight": 1},
            ],
        })));
        assert_eq!(weights(&t), [("PodTopologySpread".to_string(), 1)]);
        assert_eq!(names(&t, "preScore"), ["PodTopologySpread"]);
        // SelectorSpread's System replaces EvenPodsSpread's List.
        assert_eq!(
            t.configuration["profiles"][0]["pluginConfig"],
            json!([{"name": "PodTopologySpread", "args": {"defaultingType": "System"}}])
        );
        assert!(warned(
            &t,
            "priorities[0] SelectorSpreadPriority (weight 5): PodTopologySpread already scores \
             with weight 1 from priorities[1] EvenPodsSpreadPriority, which is kept"
        ));
        // The other way round the larger weight happens to be first: no warning about it.
        let t = translate(&policy(json!({
            "priorities": [
                {"name": "SelectorSpreadPriority", "weight": 1},
                {"name": "EvenPodsSpreadPriority", "weight": 4},
            ],
        })));
        assert_eq!(weights(&t), [("PodTopologySpread".to_string(), 4)]);
        assert!(!t.warnings.iter().any(|w| w.contains("already scores")));
        // EvenPodsSpreadPriority alone: List, so no system default constraints.
        let t = translate(&policy(json!({
            "priorities": [{"name": "EvenPodsSpreadPriority", "weight": 3}],
        })));
        assert_eq!(
            t.configuration["profiles"][0]["pluginConfig"],
            json!([{"name": "PodTopologySpread", "args": {"defaultingType": "List"}}])
        );
    }

    #[test]
    fn one_key_twice_keeps_the_later_weight() {
        let t = translate(&policy(json!({
            "priorities": [
                {"name": "ServiceSpreadingPriority", "weight": 3},
                {"name": "SelectorSpreadPriority", "weight": 2},
            ],
        })));
        assert_eq!(weights(&t), [("PodTopologySpread".to_string(), 2)]);
        assert!(warned(
            &t,
            "priorities[1] SelectorSpreadPriority: replaces priorities[0] ServiceSpreadingPriority"
        ));
    }

    #[test]
    fn resource_priorities_share_nodes_resources_fit() {
        let t = translate(&policy(json!({
            "predicates": [],
            "priorities": [
                {"name": "LeastRequestedPriority", "weight": 2},
                {"name": "MostRequestedPriority", "weight": 3},
                {"name": "Ratio", "weight": 3, "argument": {"requestedToCapacityRatioArguments": {
                    "shape": [{"utilization": 0, "score": 0}, {"utilization": 100, "score": 10}],
                    "resources": [{"name": "cpu", "weight": 0}, {"name": "nvidia.com/gpu", "weight": 5}],
                }}},
            ],
        })));
        // The largest weight is 3, shared by MostRequestedPriority and RequestedToCapacityRatio;
        // the first in sorted key order (MostRequestedPriority) is kept.
        assert_eq!(weights(&t), [("NodeResourcesFit".to_string(), 3)]);
        assert_eq!(
            t.configuration["profiles"][0]["pluginConfig"],
            json!([{"name": "NodeResourcesFit", "args": {"scoringStrategy": {"type": "MostAllocated",
                "resources": [{"name": "cpu", "weight": 1}, {"name": "memory", "weight": 1}]}}}])
        );
        assert!(warned(&t, "priorities[1] MostRequestedPriority: becomes NodeResourcesFit's Score (weight 3) with scoringStrategy MostAllocated"));
        assert!(warned(
            &t,
            "priorities[0] LeastRequestedPriority (weight 2): left out"
        ));
        assert!(warned(&t, "priorities[2] Ratio (weight 3): left out"));
        // Only the Filter mandatory predicates; NodeResourcesFit scores without filtering.
        assert_eq!(
            names(&t, "filter"),
            ["NodeUnschedulable", "TaintToleration"]
        );
        assert!(names(&t, "preFilter").is_empty());
        assert_eq!(names(&t, "preScore"), ["NodeResourcesFit"]);

        // RequestedToCapacityRatio alone: shape unscaled, weight 0 → 1.
        let t = translate(&policy(json!({
            "priorities": [
                {"name": "Ratio", "weight": 3, "argument": {"requestedToCapacityRatioArguments": {
                    "shape": [{"utilization": 0, "score": 0}, {"utilization": 100, "score": 10}],
                    "resources": [{"name": "cpu", "weight": 0}, {"name": "nvidia.com/gpu", "weight": 5}],
                }}},
            ],
        })));
        assert_eq!(
            t.configuration["profiles"][0]["pluginConfig"],
            json!([{"name": "NodeResourcesFit", "args": {"scoringStrategy": {
                "type": "RequestedToCapacityRatio",
                "resources": [{"name": "cpu", "weight": 1}, {"name": "nvidia.com/gpu", "weight": 5}],
                "requestedToCapacityRatio": {"shape": [
                    {"utilization": 0, "score": 0}, {"utilization": 100, "score": 10}]},
            }}}])
        );
    }

    #[test]
    fn hard_pod_affinity_symmetric_weight_becomes_inter_pod_affinity_args() {
        let t = translate(&policy(json!({
            "predicates": [{"name": "MatchInterPodAffinity"}],
            "priorities": [{"name": "InterPodAffinityPriority", "weight": 4}],
            "hardPodAffinitySymmetricWeight": 10,
        })));
        assert_eq!(
            t.configuration["profiles"][0]["pluginConfig"],
            json!([{"name": "InterPodAffinity", "args": {"hardPodAffinityWeight": 10}}])
        );
        assert_eq!(weights(&t), [("InterPodAffinity".to_string(), 4)]);
        assert!(t.warnings.is_empty(), "{:#?}", t.warnings);
        // Without InterPodAffinityPriority it weights nothing: left out.
        let t = translate(&policy(json!({
            "priorities": [{"name": "ImageLocalityPriority", "weight": 1}],
            "hardPodAffinitySymmetricWeight": 10,
        })));
        assert!(t.configuration["profiles"][0].get("pluginConfig").is_none());
        assert!(warned(&t, "hardPodAffinitySymmetricWeight (10): left out"));
    }

    #[test]
    fn the_filter_order_is_first_appearance_in_predicate_ordering() {
        // Policy order is irrelevant; GeneralPredicates places NodeName, NodePorts and
        // NodeAffinity before HostName and MatchNodeSelector would, and they are not repeated.
        let t = translate(&policy(json!({
            "predicates": [
                {"name": "MatchInterPodAffinity"},
                {"name": "MatchNodeSelector"},
                {"name": "EvenPodsSpread"},
                {"name": "GeneralPredicates"},
                {"name": "HostName"},
                {"name": "MaxCSIVolumeCountPred"},
                {"name": "NoVolumeZoneConflict"},
            ],
            "priorities": [],
        })));
        assert_eq!(
            names(&t, "filter"),
            [
                "NodeUnschedulable",
                "NodeResourcesFit",
                "NodeName",
                "NodePorts",
                "NodeAffinity",
                "TaintToleration",
                "NodeVolumeLimits",
                "VolumeZone",
                "PodTopologySpread",
                "InterPodAffinity"
            ]
        );
        assert_eq!(
            names(&t, "preFilter"),
            [
                "NodeResourcesFit",
                "NodePorts",
                "NodeAffinity",
                "NodeVolumeLimits",
                "VolumeZone",
                "PodTopologySpread",
                "InterPodAffinity"
            ]
        );
        assert!(weights(&t).is_empty());
        assert!(names(&t, "preScore").is_empty());
        // EvenPodsSpread as a predicate only: no args (v1.35's default, System, as v1.22's).
        assert!(t.configuration["profiles"][0].get("pluginConfig").is_none());
        assert!(t.warnings.is_empty(), "{:#?}", t.warnings);
    }

    #[test]
    fn always_check_all_predicates_arguments_and_extenders() {
        let t = translate(&policy(json!({
            "predicates": [
                {"name": "Zoned", "argument": {"labelsPresence": {"labels": ["zone"], "presence": true}}},
                {"name": "NoSuchPredicate"},
            ],
            "priorities": [
                {"name": "Pref", "weight": 2, "argument": {"labelPreference": {"label": "ssd", "presence": true}}},
                {"name": "ResourceLimitsPriority", "weight": 1},
            ],
            "alwaysCheckAllPredicates": true,
            "extenders": [{
                "urlPrefix": "http://127.0.0.1:9251",
                "filterVerb": "predicate",
                "enableHttps": false,
                "httpTimeout": 30_000_000_000_i64,
                "apiVersion": "v1beta1",
                "managedResources": [{"name": "example.com/foo", "ignoredByScheduler": true}],
            }],
        })));
        for start in [
            "predicates[0] Zoned: left out: labelsPresence (labels zone present) became v1.22's \
             NodeLabel plugin",
            "predicates[1] NoSuchPredicate: not translated: unknown predicate",
            "priorities[0] Pref: left out: labelPreference (label ssd present, weight 2)",
            "priorities[1] ResourceLimitsPriority: left out",
            "alwaysCheckAllPredicates: left out",
            "extenders[0].apiVersion: left out",
        ] {
            assert!(warned(&t, start), "{start}\n{:#?}", t.warnings);
        }
        assert_eq!(t.warnings.len(), 6, "{:#?}", t.warnings);
        assert_eq!(
            t.configuration["extenders"],
            json!([{
                "urlPrefix": "http://127.0.0.1:9251",
                "filterVerb": "predicate",
                "enableHTTPS": false,
                "httpTimeout": "30s",
                "managedResources": [{"name": "example.com/foo", "ignoredByScheduler": true}],
            }])
        );
    }

    #[test]
    fn durations_read_back_as_go_writes_them() {
        assert_eq!(go_duration(0), "0s");
        assert_eq!(go_duration(5_000_000_000), "5s");
        assert_eq!(go_duration(90_000_000_000), "90s");
        assert_eq!(go_duration(120_000_000_000), "2m");
        assert_eq!(go_duration(7_200_000_000_000), "2h");
        assert_eq!(go_duration(1_500_000_000), "1500ms");
        assert_eq!(go_duration(2_000), "2us");
        assert_eq!(go_duration(7), "7ns");
    }

    #[test]
    fn yaml_has_the_warnings_as_comments_and_reads_back() {
        let t = translate(&realworld("k8s__policy_classic_legacy_names.json"));
        let yaml = to_yaml(&t);
        let lines: Vec<&str> = yaml.lines().collect();
        for (i, w) in t.warnings.iter().enumerate() {
            assert_eq!(lines[i], format!("# warning: {w}"));
        }
        assert_eq!(
            lines[t.warnings.len()],
            "apiVersion: kubescheduler.config.k8s.io/v1"
        );
        let back: Value = serde_yaml_ng::from_str(&yaml).expect("YAML");
        assert_eq!(back, t.configuration);
        let json = to_json(&t);
        assert_eq!(json["configuration"], t.configuration);
        assert_eq!(json["warnings"].as_array().map(Vec::len), Some(4));
    }

    /// Each translated configuration is accepted by the v1 reader, and the profile it builds
    /// runs exactly the translated lists.
    #[test]
    fn the_translations_build_in_v1_35() {
        use crate::v135::config::read;
        let policies = [
            policy(json!({"kind": "Policy", "apiVersion": "v1"})),
            realworld("k8s__policy_classic_legacy_names.json"),
            realworld("acsengine__policy_openshift311_region_zone.json"),
            realworld("topolvm__policy_extender_ignoredbyscheduler.cfg.json"),
            policy(json!({
                "priorities": [
                    {"name": "Ratio", "weight": 3, "argument": {"requestedToCapacityRatioArguments": {
                        "shape": [{"utilization": 0, "score": 0}, {"utilization": 100, "score": 10}],
                        "resources": [{"name": "cpu", "weight": 2}],
                    }}},
                    {"name": "InterPodAffinityPriority", "weight": 4},
                ],
                "hardPodAffinitySymmetricWeight": 10,
            })),
        ];
        for p in &policies {
            let t = translate(p);
            let (config, _) = match read(t.configuration.clone()) {
                Ok(c) => c,
                Err(e) => panic!("{e:?}\n{:#}", t.configuration),
            };
            assert_eq!(config.profiles.len(), 1);
            let profile = &config.profiles[0];
            assert_eq!(profile.scheduler_name, "default-scheduler");
            for (point, field) in [
                (Point::PreFilter, "preFilter"),
                (Point::Filter, "filter"),
                (Point::PreScore, "preScore"),
                (Point::Score, "score"),
                (Point::Reserve, "reserve"),
                (Point::PreBind, "preBind"),
            ] {
                assert_eq!(profile.names_at(point), names(&t, field), "{field}");
            }
            let built: Vec<(String, i64)> = profile
                .at(Point::Score)
                .map(|e| (e.spec.name.to_string(), e.weight))
                .collect();
            assert_eq!(built, weights(&t));
            // The fixed part: v1.22's QueueSort, PostFilter and Bind, v1.35's PreEnqueue.
            assert_eq!(profile.names_at(Point::QueueSort), ["PrioritySort"]);
            assert_eq!(profile.names_at(Point::PostFilter), ["DefaultPreemption"]);
            assert_eq!(profile.names_at(Point::Bind), ["DefaultBinder"]);
            assert_eq!(
                profile.names_at(Point::PreEnqueue),
                ["SchedulingGates", "DefaultPreemption"]
            );
            assert!(profile.names_at(Point::Permit).is_empty());
            assert!(profile.names_at(Point::PostBind).is_empty());
        }
    }
}
