//! `PodTopologySpread` (v1.35, reference §4.12): PreFilter (+AddPod/RemovePod), Filter,
//! PreScore, Score, NormalizeScore.
//!
//! Constraints are the pod's own `topologySpreadConstraints`, else the default ones (the
//! system defaults, hostname maxSkew 3 and zone maxSkew 5, both `ScheduleAnyway`, or the
//! `List` given in the args) with a selector built from the Services and the controller that
//! select the pod. `matchLabelKeys` is merged into the selector here (merging the API server's
//! merge again changes nothing).
//!
//! Counting works on topology domains. A key some pod names sits in the cluster's
//! [`TopologyIndex`]: a domain is its value id, and when every node carrying the key counts, the
//! matching pods per domain are summed from the index's label groups (minus the terminating pods
//! the groups include) instead of visiting every pod. Other keys (default constraints) are
//! interned once per cycle and counted by visiting the pods of the nodes that count. Filter and
//! Score then look a node's domain up in an array.

use crate::cluster::{Cluster, NodeId, NodeInfo, PodId, PodInfo, TopologyIndex};
use crate::model::field::{FieldError, Value};
use crate::model::pod::{TopologySpreadConstraint, DO_NOT_SCHEDULE, SCHEDULE_ANYWAY};
use crate::model::selector::{selector_matches, set_matches};
use crate::model::taint::{tolerated, NO_EXECUTE, NO_SCHEDULE};
use crate::model::{LabelSelector, Labels, Requirement};
use crate::sched::Reason;
use crate::v135::plugin::{
    state, state_mut, Cx, Plugin, PluginState, PreFilterOutput, PreScoreOutput,
};
use crate::v135::plugin::{PluginSpec, Point, Points};
use crate::v135::plugins::node_affinity::required_node_affinity_matches;
use crate::v135::status::Code;
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The registry entry.
pub(crate) static SPEC: PluginSpec = PluginSpec {
    name: "PodTopologySpread",
    points: Points::of(&[
        Point::PreFilter,
        Point::Filter,
        Point::PreScore,
        Point::Score,
    ]),
    default_enabled: true,
    default_weight: Some(2),
    args_kind: Some("PodTopologySpreadArgs"),
    args_checked_by_validation: true,
    build,
};

/// `v1.LabelHostname`: scoring counts per node for this key.
pub(crate) const HOSTNAME: &str = "kubernetes.io/hostname";
/// `v1.LabelTopologyZone`.
const ZONE: &str = "topology.kubernetes.io/zone";
/// `ErrReasonConstraintsNotMatch`.
pub(crate) const ERR_CONSTRAINTS_NOT_MATCH: &str =
    "node(s) didn't match pod topology spread constraints";
/// `ErrReasonNodeLabelNotMatch`.
pub(crate) const ERR_NODE_LABEL_NOT_MATCH: &str =
    "node(s) didn't match pod topology spread constraints (missing required label)";
use crate::queue::ClusterChange;
/// `fwk.MaxNodeScore`.
use crate::sched::MAX_NODE_SCORE;
use crate::v135::plugin::QueueingHint;

mod common;
use common::Terminating;
mod filtering;
mod scoring;
/// `v1.NodeInclusionPolicyHonor`.
const HONOR: &str = "Honor";

/// No domain / an empty critical path.
const NONE: u32 = u32::MAX;
/// A domain slot that is not a domain (no node that counts carries that value).
const ABSENT: i64 = i64::MIN;

/// The plugin, with its defaulted args.
pub(crate) struct PodTopologySpread {
    /// The default constraints (`systemDefaultConstraints` with `System`).
    defaults: Vec<TopologySpreadConstraint>,
    /// `defaultingType: System`.
    system_defaulted: bool,
    /// Whether some default constraint is `DoNotSchedule` / `ScheduleAnyway`.
    hard_defaults: bool,
    soft_defaults: bool,
    /// The bound pods with a deletion timestamp, found once (see [`Terminating`]).
    terminating: Mutex<Terminating>,
}

impl PodTopologySpread {
    /// The defaulting type and the default constraints in force.
    #[cfg(test)]
    pub fn defaults(&self) -> (&'static str, &[TopologySpreadConstraint]) {
        let kind = if self.system_defaulted {
            "System"
        } else {
            "List"
        };
        (kind, &self.defaults)
    }
}

/// `systemDefaultConstraints`.
fn system_default_constraints() -> Vec<TopologySpreadConstraint> {
    [(HOSTNAME, 3), (ZONE, 5)]
        .into_iter()
        .map(|(key, max_skew)| TopologySpreadConstraint {
            max_skew,
            topology_key: key.to_string(),
            when_unsatisfiable: SCHEDULE_ANYWAY.to_string(),
            ..TopologySpreadConstraint::default()
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Args.

/// `PodTopologySpreadArgs`.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Args {
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    api_version: Option<String>,
    #[serde(default)]
    default_constraints: Option<Vec<ArgConstraint>>,
    #[serde(default)]
    defaulting_type: Option<String>,
}

/// `v1.TopologySpreadConstraint` as read strictly from the args.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ArgConstraint {
    #[serde(default)]
    max_skew: i32,
    #[serde(default)]
    topology_key: String,
    #[serde(default)]
    when_unsatisfiable: String,
    #[serde(default)]
    label_selector: Option<LabelSelector>,
    #[serde(default)]
    min_domains: Option<i32>,
    #[serde(default)]
    node_affinity_policy: Option<String>,
    #[serde(default)]
    node_taints_policy: Option<String>,
    #[serde(default)]
    match_label_keys: Option<Vec<String>>,
}

impl From<ArgConstraint> for TopologySpreadConstraint {
    fn from(c: ArgConstraint) -> Self {
        TopologySpreadConstraint {
            max_skew: c.max_skew,
            topology_key: c.topology_key,
            when_unsatisfiable: c.when_unsatisfiable,
            label_selector: c.label_selector,
            min_domains: c.min_domains,
            node_affinity_policy: c.node_affinity_policy,
            node_taints_policy: c.node_taints_policy,
            match_label_keys: c.match_label_keys.unwrap_or_default(),
        }
    }
}

fn build(args: Option<&serde_json::Value>) -> Result<Box<dyn Plugin>, Vec<FieldError>> {
    let args: Args = match args {
        None => Args::default(),
        Some(v) => serde_path_to_error::deserialize(v.clone()).map_err(|e| {
            vec![FieldError::plain(
                e.path().to_string().trim_start_matches('.'),
                e.into_inner().to_string(),
            )]
        })?,
    };
    let _ = (&args.kind, &args.api_version);
    // SetDefaults_PodTopologySpreadArgs: an empty defaultingType is System.
    let defaulting = match args.defaulting_type.as_deref() {
        None | Some("") => "System".to_string(),
        Some(t) => t.to_string(),
    };
    let constraints: Vec<TopologySpreadConstraint> = args
        .default_constraints
        .unwrap_or_default()
        .into_iter()
        .map(Into::into)
        .collect();
    let errors = validate(&defaulting, &constraints);
    if !errors.is_empty() {
        return Err(errors);
    }
    let system_defaulted = defaulting == "System";
    let defaults = if system_defaulted {
        system_default_constraints()
    } else {
        constraints
    };
    let has = |action: &str| defaults.iter().any(|c| c.when_unsatisfiable == action);
    Ok(Box::new(PodTopologySpread {
        hard_defaults: has(DO_NOT_SCHEDULE),
        soft_defaults: has(SCHEDULE_ANYWAY),
        defaults,
        system_defaulted,
        terminating: Mutex::new(Terminating::default()),
    }))
}

/// `ValidatePodTopologySpreadArgs`, paths relative to the args.
fn validate(defaulting: &str, constraints: &[TopologySpreadConstraint]) -> Vec<FieldError> {
    let mut errors = Vec::new();
    if defaulting != "System" && defaulting != "List" {
        errors.push(FieldError::not_supported(
            "defaultingType",
            Value::Str(defaulting),
            &["System", "List"],
        ));
    } else if defaulting == "System" && !constraints.is_empty() {
        errors.push(FieldError::invalid(
            "defaultingType",
            Value::Str(defaulting),
            "when .defaultConstraints are not empty",
        ));
    }
    for (i, c) in constraints.iter().enumerate() {
        let p = format!("defaultConstraints[{i}]");
        if c.max_skew <= 0 {
            errors.push(FieldError::invalid(
                format!("{p}.maxSkew"),
                Value::Int(c.max_skew.into()),
                "not in valid range (0, inf)",
            ));
        }
        let key_path = format!("{p}.topologyKey");
        if c.topology_key.is_empty() {
            errors.push(FieldError::required(key_path, "can not be empty"));
        } else {
            for msg in qualified_name_errors(&c.topology_key) {
                errors.push(FieldError::invalid(
                    key_path.clone(),
                    Value::Str(&c.topology_key),
                    &msg,
                ));
            }
        }
        let action_path = format!("{p}.whenUnsatisfiable");
        if c.when_unsatisfiable.is_empty() {
            errors.push(FieldError::required(action_path, "can not be empty"));
        } else if c.when_unsatisfiable != DO_NOT_SCHEDULE && c.when_unsatisfiable != SCHEDULE_ANYWAY
        {
            errors.push(FieldError::not_supported(
                action_path,
                Value::Str(&c.when_unsatisfiable),
                &[DO_NOT_SCHEDULE, SCHEDULE_ANYWAY],
            ));
        }
        if c.label_selector.is_some() {
            errors.push(FieldError::forbidden(
                format!("{p}.labelSelector"),
                "constraint must not define a selector, as they deduced for each pod",
            ));
        }
        if constraints[..i].iter().any(|o| {
            o.topology_key == c.topology_key && o.when_unsatisfiable == c.when_unsatisfiable
        }) {
            errors.push(FieldError::duplicate(
                p,
                Value::Str(&format!("{{{}, {}}}", c.topology_key, c.when_unsatisfiable)),
            ));
        }
    }
    errors
}

/// apimachinery's `IsQualifiedName` messages (`ValidateLabelName`).
fn qualified_name_errors(value: &str) -> Vec<String> {
    const NAME_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    const DNS_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    let mut errs = Vec::new();
    let parts: Vec<&str> = value.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_string());
            } else {
                if prefix.len() > 253 {
                    errs.push("prefix part must be no more than 253 characters".to_string());
                }
                let label_ok = |l: &str| {
                    let b = l.as_bytes();
                    !b.is_empty()
                        && (b[0].is_ascii_lowercase() || b[0].is_ascii_digit())
                        && (b[b.len() - 1].is_ascii_lowercase() || b[b.len() - 1].is_ascii_digit())
                        && b.iter()
                            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
                };
                if !prefix.split('.').all(label_ok) {
                    errs.push(format!("prefix part {DNS_MSG}"));
                }
            }
            *name
        }
        _ => {
            return vec![format!("a qualified name {NAME_MSG} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')")];
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_string());
    } else if name.len() > 63 {
        errs.push("name part must be no more than 63 characters".to_string());
    }
    let b = name.as_bytes();
    let name_ok = !b.is_empty()
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'));
    if !name_ok {
        errs.push(format!("name part {NAME_MSG}"));
    }
    errs
}

impl Plugin for PodTopologySpread {
    /// A pod of the pod's namespace bound or deleted, a new node, or a node relabelled or
    /// retainted.
    fn queueing_hint(
        &self,
        change: &ClusterChange,
        pod: &PodInfo,
        cluster: &Cluster,
    ) -> QueueingHint {
        QueueingHint::queue_if(match *change {
            ClusterChange::PodAdd(p) | ClusterChange::PodDelete(p) => {
                cluster.pods()[p].namespace == pod.namespace
            }
            ClusterChange::NodeAdd(_) => true,
            ClusterChange::NodeUpdate { change, .. } => change.labels || change.taints,
        })
    }

    fn name(&self) -> &'static str {
        SPEC.name
    }

    fn pre_filter(&self, cx: &Cx) -> PreFilterOutput {
        self.prepare_filter(cx)
    }

    fn add_pod(&self, cx: &Cx, st: &mut dyn PluginState, added: &PodInfo, node: &NodeInfo) {
        self.count_added_pod(cx, st, added, node)
    }

    fn remove_pod(&self, cx: &Cx, st: &mut dyn PluginState, removed: &PodInfo, node: &NodeInfo) {
        self.count_removed_pod(cx, st, removed, node)
    }

    fn filter(
        &self,
        cx: &Cx,
        st: Option<&dyn PluginState>,
        node: &NodeInfo,
        reasons: &mut Vec<Reason>,
    ) -> Code {
        self.filter_node(cx, st, node, reasons)
    }

    fn pre_score(&self, cx: &Cx, nodes: &[&NodeInfo]) -> PreScoreOutput {
        self.prepare_score(cx, nodes)
    }

    fn score(&self, cx: &Cx, st: Option<&dyn PluginState>, node: &NodeInfo) -> Result<i64, String> {
        self.score_node(cx, st, node)
    }

    fn normalize(
        &self,
        _cx: &Cx,
        st: Option<&dyn PluginState>,
        nodes: &[&NodeInfo],
        scores: &mut [i64],
    ) {
        self.normalize_scores(_cx, st, nodes, scores)
    }
}

#[cfg(test)]
mod tests;
