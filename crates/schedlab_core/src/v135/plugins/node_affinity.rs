//! `NodeAffinity` (v1.35, `nodeaffinity/node_affinity.go`, matching from component-helpers'
//! `nodeaffinity.go`; reference §4.4, §2.3): PreFilter, Filter, PreScore, Score (weight 2 by
//! default), NormalizeScore; args `NodeAffinityArgs` with `addedAffinity`.
//!
//! - PreFilter: `Skip` when the pod has no required node affinity, no `nodeSelector`, and the
//!   plugin has no `addedAffinity.required`. Otherwise, when every required term names nodes
//!   with `matchFields: metadata.name In [...]`, the union over terms of the per-term
//!   intersections is the PreFilterResult (empty: UnschedulableAndUnresolvable
//!   `pod affinity terms conflict`).
//! - Filter: `addedAffinity.required` not matched → `node(s) didn't match scheduler-enforced node
//!   affinity`; `nodeSelector` AND the required terms (ORed) not matched → `node(s) didn't match
//!   Pod's node affinity/selector`; both UnschedulableAndUnresolvable.
//! - PreScore: `Skip` without preferred terms in the pod or in `addedAffinity`; a pod preferred
//!   term that does not parse makes PreScore fail with the parse errors.
//! - Score: the summed weights of the matching preferred terms (pod's and added; `matchFields`
//!   honoured; weight-0 and empty terms ignored). NormalizeScore:
//!   `DefaultNormalizeScore(100, false)`.
//!
//! Term parsing follows `newNodeSelectorTerm`: a term with neither expressions nor fields is
//! dropped (a selector whose terms are all dropped matches nothing); a term with a requirement
//! `labels.NewRequirement` would refuse (unknown operator, bad key, bad values, non-integer
//! `Gt`/`Lt` value) never matches; `matchFields` take `In`/`NotIn` with exactly one value and
//! compare against the field set `{metadata.name: <node name>}`.

use super::helper::{
    aggregate_message, decode_args, dedup_errors, default_normalize_score, label_key_errors,
    label_value_errors,
};
use crate::cluster::{Cluster, NodeId, NodeInfo, PodInfo};
use crate::model::field::{FieldError, Value};
use crate::model::pod::PreferredSchedulingTerm;
use crate::model::selector::set_matches;
use crate::model::{Labels, NodeSelector, NodeSelectorTerm, Pod, Requirement};
use crate::sched::Reason;
use crate::v135::plugin::{state, Cx, Plugin, PluginState, PreFilterOutput, PreScoreOutput};
use crate::v135::plugin::{PluginSpec, Point, Points};
use crate::v135::status::{Code, Status};
use serde::Deserialize;
use std::collections::BTreeSet;

/// The registry entry.
pub(crate) static SPEC: PluginSpec = PluginSpec {
    name: "NodeAffinity",
    points: Points::of(&[
        Point::PreFilter,
        Point::Filter,
        Point::PreScore,
        Point::Score,
    ]),
    default_enabled: true,
    default_weight: Some(2),
    args_kind: Some("NodeAffinityArgs"),
    args_checked_by_validation: true,
    build,
};

/// `ErrReasonPod`.
pub(crate) const ERR_REASON_POD: &str = "node(s) didn't match Pod's node affinity/selector";
/// `errReasonEnforced`.
pub(crate) const ERR_REASON_ENFORCED: &str =
    "node(s) didn't match scheduler-enforced node affinity";
/// `errReasonConflict`.
pub(crate) const ERR_REASON_CONFLICT: &str = "pod affinity terms conflict";

use crate::queue::ClusterChange;
use crate::sched::MAX_NODE_SCORE;
use crate::v135::plugin::QueueingHint;
const NODE_NAME_FIELD: &str = "metadata.name";
const SELECTOR_OPERATORS: [&str; 6] = ["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"];
const FIELD_OPERATORS: [&str; 2] = ["In", "NotIn"];

/// A `[]string` as a field error prints it (JSON; a missing list is `null`).
fn string_list(values: &[String]) -> Value<'static> {
    if values.is_empty() {
        Value::Raw("null".into())
    } else {
        Value::Raw(serde_json::to_string(values).unwrap_or_default())
    }
}

// ---------------------------------------------------------------------------------------------
// Parsing node selector terms (validity and errors) and matching them.

/// Where parse errors go: counted always, worded only when someone wants them.
struct Sink<'a> {
    errs: Option<&'a mut Vec<FieldError>>,
    ok: bool,
}

impl Sink<'_> {
    fn push(&mut self, e: impl FnOnce() -> FieldError) {
        self.ok = false;
        if let Some(errs) = self.errs.as_deref_mut() {
            errs.push(e());
        }
    }
}

/// `labels.NewRequirement` for a node selector expression (the operator already known good).
fn check_requirement(r: &Requirement, path: &str, sink: &mut Sink) {
    let key_errs = label_key_errors(&r.key);
    if !key_errs.is_empty() {
        sink.push(|| {
            FieldError::invalid(
                format!("{path}.key"),
                Value::Str(&r.key),
                &key_errs.join("; "),
            )
        });
    }
    let vals = &r.values;
    match r.operator.as_str() {
        "In" | "NotIn" if vals.is_empty() => sink.push(|| {
            FieldError::invalid(
                format!("{path}.values"),
                string_list(vals),
                "for 'in', 'notin' operators, values set can't be empty",
            )
        }),
        "Exists" | "DoesNotExist" if !vals.is_empty() => sink.push(|| {
            FieldError::invalid(
                format!("{path}.values"),
                string_list(vals),
                "values set must be empty for exists and does not exist",
            )
        }),
        "Gt" | "Lt" => {
            if vals.len() != 1 {
                sink.push(|| {
                    FieldError::invalid(
                        format!("{path}.values"),
                        string_list(vals),
                        "for 'Gt', 'Lt' operators, exactly one value is required",
                    )
                });
            }
            for (i, v) in vals.iter().enumerate() {
                if v.parse::<i64>().is_err() {
                    sink.push(|| {
                        FieldError::invalid(
                            format!("{path}.values[{i}]"),
                            Value::Str(v),
                            "for 'Gt', 'Lt' operators, the value must be an integer",
                        )
                    });
                }
            }
        }
        _ => {}
    }
    for (i, v) in vals.iter().enumerate() {
        let v_errs = label_value_errors(v);
        if !v_errs.is_empty() {
            sink.push(|| {
                FieldError::invalid(
                    format!("{path}.values[{i}][{}]", r.key),
                    Value::Str(v),
                    &v_errs.join("; "),
                )
            });
        }
    }
}

/// `newNodeSelectorTerm`'s parse errors (paths under `path`).
fn check_term(term: &NodeSelectorTerm, path: &str, sink: &mut Sink) {
    for (i, r) in term.match_expressions.iter().enumerate() {
        let p = || format!("{path}.matchExpressions[{i}]");
        if !SELECTOR_OPERATORS.contains(&r.operator.as_str()) {
            sink.push(|| {
                FieldError::not_supported(
                    format!("{}.operator", p()),
                    Value::Str(&r.operator),
                    &SELECTOR_OPERATORS,
                )
            });
            continue;
        }
        if sink.errs.is_some() {
            check_requirement(r, &p(), sink);
        } else {
            check_requirement(r, "", sink);
        }
    }
    for (i, r) in term.match_fields.iter().enumerate() {
        let p = || format!("{path}.matchFields[{i}]");
        match r.operator.as_str() {
            "In" | "NotIn" if r.values.len() != 1 => sink.push(|| {
                FieldError::invalid(
                    format!("{}.values", p()),
                    string_list(&r.values),
                    "must have one element",
                )
            }),
            "In" | "NotIn" => {}
            _ => sink.push(|| {
                FieldError::not_supported(
                    format!("{}.operator", p()),
                    Value::Str(&r.operator),
                    &FIELD_OPERATORS,
                )
            }),
        }
    }
}

/// Whether the term parses (no allocation when it does).
fn term_parses(term: &NodeSelectorTerm) -> bool {
    let mut sink = Sink {
        errs: None,
        ok: true,
    };
    check_term(term, "", &mut sink);
    sink.ok
}

/// The term's parse errors, under `path` (`[0]` or `a.nodeSelectorTerms[0]`).
fn term_errors(term: &NodeSelectorTerm, path: &str, errs: &mut Vec<FieldError>) {
    let mut sink = Sink {
        errs: Some(errs),
        ok: true,
    };
    check_term(term, path, &mut sink);
}

/// `Requirement.Matches` for a requirement that parsed.
fn requirement_matches(r: &Requirement, labels: &Labels) -> bool {
    let value = labels.get(&r.key);
    match r.operator.as_str() {
        "In" => value.is_some_and(|v| r.values.iter().any(|x| x == v)),
        "NotIn" => value.is_none_or(|v| !r.values.iter().any(|x| x == v)),
        "Exists" => value.is_some(),
        "DoesNotExist" => value.is_none(),
        "Gt" | "Lt" => {
            let Some(have) = value.and_then(|v| v.parse::<i64>().ok()) else {
                return false;
            };
            let Some(want) = r.values.first().and_then(|v| v.parse::<i64>().ok()) else {
                return false;
            };
            if r.operator == "Gt" {
                have > want
            } else {
                have < want
            }
        }
        _ => false,
    }
}

/// `nodeSelectorTerm.match` for a non-empty term that parsed: every expression against the
/// labels, and (when the node has a name) every field requirement against
/// `{metadata.name: name}` (a missing field reads as `""`).
fn parsed_term_matches(term: &NodeSelectorTerm, labels: &Labels, node_name: &str) -> bool {
    if !term
        .match_expressions
        .iter()
        .all(|r| requirement_matches(r, labels))
    {
        return false;
    }
    if node_name.is_empty() {
        return true;
    }
    term.match_fields.iter().all(|r| {
        let have = if r.key == NODE_NAME_FIELD {
            node_name
        } else {
            ""
        };
        let want = r.values.first().map(String::as_str).unwrap_or("");
        if r.operator == "In" {
            have == want
        } else {
            have != want
        }
    })
}

/// A term of a required node selector matches: not empty, parses, and matches.
fn term_matches(term: &NodeSelectorTerm, labels: &Labels, node_name: &str) -> bool {
    !term.is_empty() && term_parses(term) && parsed_term_matches(term, labels, node_name)
}

/// `LazyErrorNodeSelector.Match`: some term matches (no usable term: nothing matches).
fn node_selector_matches(sel: &NodeSelector, labels: &Labels, node_name: &str) -> bool {
    sel.node_selector_terms
        .iter()
        .any(|t| term_matches(t, labels, node_name))
}

/// `GetRequiredNodeAffinity(pod).Match(node)`: the pod's own `nodeSelector` (every pair) AND its
/// required node affinity terms (ORed), as PodTopologySpread's `nodeAffinityPolicy: Honor`
/// reads them. The plugin's `addedAffinity` is not part of it.
pub(crate) fn required_node_affinity_matches(pod: &Pod, node: &NodeInfo) -> bool {
    required_node_affinity_matches_labels(pod, node.object())
}

/// [`required_node_affinity_matches`] on a node object (QueueingHints compare a node before
/// and after an update).
pub(crate) fn required_node_affinity_matches_labels(pod: &Pod, node: &crate::model::Node) -> bool {
    let labels = &node.metadata.labels;
    if !set_matches(&pod.spec.node_selector, labels) {
        return false;
    }
    match pod.node_affinity().and_then(|a| {
        a.required_during_scheduling_ignored_during_execution
            .as_ref()
    }) {
        Some(sel) => node_selector_matches(sel, labels, &node.metadata.name),
        None => true,
    }
}

// ---------------------------------------------------------------------------------------------
// Args.

/// `NodeAffinityArgs` as read (strict).
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct NodeAffinityArgs {
    #[serde(default)]
    added_affinity: Option<AffinityIn>,
}

/// `v1.NodeAffinity`, read strictly.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct AffinityIn {
    #[serde(default)]
    required_during_scheduling_ignored_during_execution: Option<SelectorIn>,
    #[serde(default)]
    preferred_during_scheduling_ignored_during_execution: Option<Vec<PreferredIn>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct SelectorIn {
    #[serde(default)]
    node_selector_terms: Option<Vec<TermIn>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct TermIn {
    #[serde(default)]
    match_expressions: Option<Vec<RequirementIn>>,
    #[serde(default)]
    match_fields: Option<Vec<RequirementIn>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct RequirementIn {
    #[serde(default)]
    key: String,
    #[serde(default)]
    operator: String,
    #[serde(default)]
    values: Option<Vec<String>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct PreferredIn {
    #[serde(default)]
    weight: i32,
    #[serde(default)]
    preference: Option<TermIn>,
}

impl TermIn {
    fn into_term(self) -> NodeSelectorTerm {
        let reqs = |v: Option<Vec<RequirementIn>>| {
            v.unwrap_or_default()
                .into_iter()
                .map(|r| Requirement {
                    key: r.key,
                    operator: r.operator,
                    values: r.values.unwrap_or_default(),
                })
                .collect()
        };
        NodeSelectorTerm {
            match_expressions: reqs(self.match_expressions),
            match_fields: reqs(self.match_fields),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The plugin.

/// The plugin, with its `addedAffinity` parsed.
pub(crate) struct NodeAffinity {
    /// `addedNodeSelector`: `addedAffinity.required`, every term valid.
    added_required: Option<NodeSelector>,
    /// `addedPrefSchedTerms` is non-nil (the list in args was not empty).
    has_added_preferred: bool,
    /// The usable added preferred terms (weight ≠ 0, not empty, all valid).
    added_preferred: Vec<PreferredSchedulingTerm>,
}

/// PreFilter's state: which of the pod's required terms parse.
#[derive(Clone, Debug, Default)]
struct RequiredState {
    parses: Vec<bool>,
}

/// PreScore's state: the indices of the pod's usable preferred terms.
#[derive(Clone, Debug, Default)]
struct PreferredState {
    terms: Vec<u32>,
}

impl NodeAffinity {
    fn added_score(&self, labels: &Labels, name: &str) -> i64 {
        self.added_preferred
            .iter()
            .filter(|t| parsed_term_matches(&t.preference, labels, name))
            .map(|t| t.weight as i64)
            .sum()
    }

    /// `NewPreferredSchedulingTerms` over the pod's terms: the usable ones, or the errors.
    fn pod_preferred(pod: &Pod) -> Result<PreferredState, Vec<FieldError>> {
        let Some(aff) = pod.node_affinity() else {
            return Ok(PreferredState::default());
        };
        let mut errs = Vec::new();
        let mut terms = Vec::new();
        for (i, t) in aff
            .preferred_during_scheduling_ignored_during_execution
            .iter()
            .enumerate()
        {
            if t.weight == 0 || t.preference.is_empty() {
                continue;
            }
            if term_parses(&t.preference) {
                terms.push(i as u32);
            } else {
                term_errors(&t.preference, &format!("[{i}]"), &mut errs);
            }
        }
        if errs.is_empty() {
            Ok(PreferredState { terms })
        } else {
            Err(errs)
        }
    }
}

impl Plugin for NodeAffinity {
    /// A node that now matches the pod's required affinity (and, for an update, did not
    /// before).
    fn queueing_hint(
        &self,
        change: &ClusterChange,
        pod: &PodInfo,
        cluster: &Cluster,
    ) -> QueueingHint {
        let matches = |id: NodeId| {
            cluster
                .nodes()
                .get(id)
                .is_some_and(|n| required_node_affinity_matches(&pod.pod, n))
        };
        QueueingHint::queue_if(match *change {
            ClusterChange::NodeAdd(n) => matches(n),
            ClusterChange::NodeUpdate { node, change, old } => {
                change.labels
                    && matches(node)
                    && !required_node_affinity_matches_labels(&pod.pod, old)
            }
            ClusterChange::PodAdd(_) | ClusterChange::PodDelete(_) => false,
        })
    }

    fn name(&self) -> &'static str {
        SPEC.name
    }

    fn pre_filter(&self, cx: &Cx) -> PreFilterOutput {
        let pod = &cx.pod.pod;
        let required = pod.node_affinity().and_then(|a| {
            a.required_during_scheduling_ignored_during_execution
                .as_ref()
        });
        if required.is_none() && self.added_required.is_none() && pod.spec.node_selector.is_empty()
        {
            return PreFilterOutput::skip();
        }
        let terms = required
            .map(|r| r.node_selector_terms.as_slice())
            .unwrap_or(&[]);
        let st = RequiredState {
            parses: terms.iter().map(term_parses).collect(),
        };
        let mut union: Option<BTreeSet<String>> = None;
        for t in terms {
            let mut names: Option<BTreeSet<&str>> = None;
            for r in &t.match_fields {
                if r.key == NODE_NAME_FIELD && r.operator == "In" {
                    let s: BTreeSet<&str> = r.values.iter().map(String::as_str).collect();
                    names = Some(match names {
                        None => s,
                        Some(prev) => prev.intersection(&s).copied().collect(),
                    });
                }
            }
            let Some(names) = names else {
                return PreFilterOutput::with_state(st);
            };
            union
                .get_or_insert_with(BTreeSet::new)
                .extend(names.into_iter().map(String::from));
        }
        match union {
            Some(u) if u.is_empty() => {
                PreFilterOutput::status(Code::UnschedulableAndUnresolvable, ERR_REASON_CONFLICT)
            }
            nodes => PreFilterOutput {
                status: Status::success(),
                nodes,
                state: Some(Box::new(st)),
            },
        }
    }

    fn filter(
        &self,
        cx: &Cx,
        st: Option<&dyn PluginState>,
        node: &NodeInfo,
        reasons: &mut Vec<Reason>,
    ) -> Code {
        let labels = node.labels();
        let name = node.name();
        if let Some(added) = &self.added_required {
            if !node_selector_matches(added, labels, name) {
                reasons.push(ERR_REASON_ENFORCED.into());
                return Code::UnschedulableAndUnresolvable;
            }
        }
        let pod = &cx.pod.pod;
        let ok = set_matches(&pod.spec.node_selector, labels)
            && match pod.node_affinity().and_then(|a| {
                a.required_during_scheduling_ignored_during_execution
                    .as_ref()
            }) {
                None => true,
                Some(sel) => match state::<RequiredState>(st) {
                    Some(s) if s.parses.len() == sel.node_selector_terms.len() => sel
                        .node_selector_terms
                        .iter()
                        .zip(&s.parses)
                        .any(|(t, &parses)| {
                            parses && !t.is_empty() && parsed_term_matches(t, labels, name)
                        }),
                    _ => node_selector_matches(sel, labels, name),
                },
            };
        if ok {
            return Code::Success;
        }
        reasons.push(ERR_REASON_POD.into());
        Code::UnschedulableAndUnresolvable
    }

    fn pre_score(&self, cx: &Cx, _nodes: &[&NodeInfo]) -> PreScoreOutput {
        let pod = &cx.pod.pod;
        let has_pod_preferred = pod.node_affinity().is_some_and(|a| {
            !a.preferred_during_scheduling_ignored_during_execution
                .is_empty()
        });
        if !has_pod_preferred && !self.has_added_preferred {
            return PreScoreOutput::skip();
        }
        match Self::pod_preferred(pod) {
            Ok(st) => PreScoreOutput::with_state(st),
            Err(errs) => PreScoreOutput {
                status: Status::new(Code::Error, aggregate_message(&errs)),
                state: None,
            },
        }
    }

    fn score(&self, cx: &Cx, st: Option<&dyn PluginState>, node: &NodeInfo) -> Result<i64, String> {
        let labels = node.labels();
        let name = node.name();
        let mut count = self.added_score(labels, name);
        let computed;
        let st = match state::<PreferredState>(st) {
            Some(s) => s,
            None => {
                computed = Self::pod_preferred(&cx.pod.pod).map_err(|e| aggregate_message(&e))?;
                &computed
            }
        };
        if let Some(aff) = cx.pod.pod.node_affinity() {
            let terms = &aff.preferred_during_scheduling_ignored_during_execution;
            for &i in &st.terms {
                let t = &terms[i as usize];
                if parsed_term_matches(&t.preference, labels, name) {
                    count += t.weight as i64;
                }
            }
        }
        Ok(count)
    }

    fn normalize(
        &self,
        _cx: &Cx,
        _state: Option<&dyn PluginState>,
        _nodes: &[&NodeInfo],
        scores: &mut [i64],
    ) {
        default_normalize_score(MAX_NODE_SCORE, false, scores);
    }
}

/// Reads `NodeAffinityArgs` (default: no `addedAffinity`) and validates it as
/// `ValidateNodeAffinityArgs` does: the required selector's terms, then the preferred terms
/// (weight-0 and empty ones skipped), with paths under `addedAffinity`.
fn build(args: Option<&serde_json::Value>) -> Result<Box<dyn Plugin>, Vec<FieldError>> {
    let args: NodeAffinityArgs = decode_args(args)?.unwrap_or_default();
    let mut errs = Vec::new();
    let mut plugin = NodeAffinity {
        added_required: None,
        has_added_preferred: false,
        added_preferred: Vec::new(),
    };
    if let Some(aff) = args.added_affinity {
        if let Some(req) = aff.required_during_scheduling_ignored_during_execution {
            let terms: Vec<NodeSelectorTerm> = req
                .node_selector_terms
                .unwrap_or_default()
                .into_iter()
                .map(TermIn::into_term)
                .collect();
            for (i, t) in terms.iter().enumerate() {
                if !t.is_empty() {
                    term_errors(
                        t,
                        &format!(
                            "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[{i}]"
                        ),
                        &mut errs,
                    );
                }
            }
            plugin.added_required = Some(NodeSelector {
                node_selector_terms: terms.into_iter().filter(|t| !t.is_empty()).collect(),
            });
        }
        let preferred = aff
            .preferred_during_scheduling_ignored_during_execution
            .unwrap_or_default();
        plugin.has_added_preferred = !preferred.is_empty();
        for (i, p) in preferred.into_iter().enumerate() {
            let term = p.preference.map(TermIn::into_term).unwrap_or_default();
            if p.weight == 0 || term.is_empty() {
                continue;
            }
            let before = errs.len();
            term_errors(
                &term,
                &format!("addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[{i}]"),
                &mut errs,
            );
            if errs.len() == before {
                plugin.added_preferred.push(PreferredSchedulingTerm {
                    weight: p.weight,
                    preference: term,
                });
            }
        }
    }
    if errs.is_empty() {
        Ok(Box::new(plugin))
    } else {
        Err(dedup_errors(errs))
    }
}

#[cfg(test)]
mod tests;
