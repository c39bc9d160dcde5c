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
pub static SPEC: PluginSpec = PluginSpec {
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
pub const ERR_REASON_POD: &str = "node(s) didn't match Pod's node affinity/selector";
/// `errReasonEnforced`.
pub const ERR_REASON_ENFORCED: &str = "node(s) didn't match scheduler-enforced node affinity";
/// `errReasonConflict`.
pub const ERR_REASON_CONFLICT: &str = "pod affinity terms conflict";

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
pub fn required_node_affinity_matches(pod: &Pod, node: &NodeInfo) -> bool {
    required_node_affinity_matches_labels(pod, node.object())
}

/// [`required_node_affinity_matches`] on a node object (QueueingHints compare a node before
/// and after an update).
pub fn required_node_affinity_matches_labels(pod: &Pod, node: &crate::model::Node) -> bool {
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
pub struct NodeAffinity {
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
                .nodes
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
mod tests {
    use super::*;
    use crate::testing::{node, pod};
    use crate::v135::plugins::testkit::*;
    use serde_json::json;

    fn labelled(name: &str, labels: serde_json::Value) -> crate::model::Node {
        node(json!({"metadata": {"name": name, "labels": labels}}))
    }

    fn three_nodes() -> crate::cluster::Cluster {
        cluster135(
            vec![
                labelled("n1", json!({"zone": "a", "gen": "5"})),
                labelled("n2", json!({"zone": "b", "gen": "9"})),
                labelled("n3", json!({})),
            ],
            vec![],
        )
    }

    fn plugin(args: serde_json::Value) -> Box<dyn Plugin> {
        build(Some(&args)).unwrap_or_else(|e| panic!("{e:?}"))
    }

    fn default_plugin() -> Box<dyn Plugin> {
        build(None).expect("default")
    }

    fn pod_fail() -> (Code, Vec<String>) {
        (
            Code::UnschedulableAndUnresolvable,
            vec!["node(s) didn't match Pod's node affinity/selector".to_string()],
        )
    }

    #[test]
    fn pre_filter_skips_pods_without_requirements() {
        let c = three_nodes();
        let p = info(pod(json!({})));
        assert_eq!(
            run_pre_filter(&*default_plugin(), &c, &p).status.code,
            Code::Skip
        );
        // Only preferred terms: still Skip at PreFilter.
        let p = info(pod(json!({"spec": {"affinity": {"nodeAffinity": {
            "preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 1, "preference": {"matchExpressions": [
                    {"key": "zone", "operator": "Exists"}]}}]}}}})));
        assert_eq!(
            run_pre_filter(&*default_plugin(), &c, &p).status.code,
            Code::Skip
        );
        // With addedAffinity.required it runs even for a plain pod.
        let added = plugin(
            json!({"addedAffinity": {"requiredDuringSchedulingIgnoredDuringExecution":
            {"nodeSelectorTerms": [{"matchExpressions": [{"key": "zone", "operator": "Exists"}]}]}}}),
        );
        let p = info(pod(json!({})));
        assert_eq!(run_pre_filter(&*added, &c, &p).status.code, Code::Success);
        let enforced = (
            Code::UnschedulableAndUnresolvable,
            vec!["node(s) didn't match scheduler-enforced node affinity".to_string()],
        );
        assert_eq!(run_filter(&*added, &c, &p), [ok(), ok(), enforced]);
    }

    #[test]
    fn node_selector_and_required_terms() {
        let c = three_nodes();
        let sel = info(pod(json!({"spec": {"nodeSelector": {"zone": "a"}}})));
        assert_eq!(
            run_filter(&*default_plugin(), &c, &sel),
            [ok(), pod_fail(), pod_fail()]
        );
        // Terms are ORed; expressions in a term ANDed. Term 0: zone In [b] AND gen Gt 6 (n2);
        // term 1: zone DoesNotExist (n3).
        let terms = info(pod(json!({"spec": {"affinity": {"nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["b"]},
                                      {"key": "gen", "operator": "Gt", "values": ["6"]}]},
                {"matchExpressions": [{"key": "zone", "operator": "DoesNotExist"}]}]}}}}})));
        assert_eq!(
            run_filter(&*default_plugin(), &c, &terms),
            [pod_fail(), ok(), ok()]
        );
        // nodeSelector AND the terms: zone=b and (zone In [b] ...) → only n2.
        let both = info(pod(json!({"spec": {"nodeSelector": {"zone": "a"},
            "affinity": {"nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                {"matchExpressions": [{"key": "gen", "operator": "Lt", "values": ["9"]}]}]}}}}})));
        // n1: zone=a and gen 5 < 9 → ok; n2: zone b ≠ a; n3: no zone.
        assert_eq!(
            run_filter(&*default_plugin(), &c, &both),
            [ok(), pod_fail(), pod_fail()]
        );
    }

    #[test]
    fn bad_and_empty_terms_never_match() {
        let c = three_nodes();
        let req = |terms: serde_json::Value| {
            info(pod(json!({"spec": {"affinity": {"nodeAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}}}}})))
        };
        // An empty term is dropped; with no other term nothing matches.
        let p = req(json!([{}]));
        assert_eq!(
            run_filter(&*default_plugin(), &c, &p),
            [pod_fail(), pod_fail(), pod_fail()]
        );
        // No terms at all: nothing matches.
        let p = req(json!([]));
        assert_eq!(
            run_filter(&*default_plugin(), &c, &p),
            [pod_fail(), pod_fail(), pod_fail()]
        );
        // A bad term fails alone; the good term still matches n3.
        for bad in [
            json!({"key": "zone", "operator": "Like", "values": ["a"]}),
            json!({"key": "gen", "operator": "Gt", "values": ["x"]}),
            json!({"key": "gen", "operator": "Gt", "values": ["1", "2"]}),
            json!({"key": "zone", "operator": "In", "values": []}),
            json!({"key": "zone", "operator": "Exists", "values": ["a"]}),
            json!({"key": "zone", "operator": "NotIn", "values": ["-a"]}),
            json!({"key": "bad key", "operator": "Exists"}),
        ] {
            let p = req(json!([{"matchExpressions": [bad.clone()]},
                               {"matchExpressions": [{"key": "zone", "operator": "DoesNotExist"}]}]));
            assert_eq!(
                run_filter(&*default_plugin(), &c, &p),
                [pod_fail(), pod_fail(), ok()],
                "{bad}"
            );
            assert!(
                !required_node_affinity_matches(&p.pod, &c.nodes[0]),
                "{bad}"
            );
            assert!(required_node_affinity_matches(&p.pod, &c.nodes[2]), "{bad}");
        }
        // Gt against a non-numeric label never matches; NotIn on a missing key does.
        let p = req(
            json!([{"matchExpressions": [{"key": "zone", "operator": "Gt", "values": ["1"]}]}]),
        );
        assert_eq!(
            run_filter(&*default_plugin(), &c, &p),
            [pod_fail(), pod_fail(), pod_fail()]
        );
        let p = req(
            json!([{"matchExpressions": [{"key": "zone", "operator": "NotIn", "values": ["a"]}]}]),
        );
        assert_eq!(
            run_filter(&*default_plugin(), &c, &p),
            [pod_fail(), ok(), ok()]
        );
    }

    #[test]
    fn match_fields_and_the_pre_filter_result() {
        let c = three_nodes();
        let req = |terms: serde_json::Value| {
            info(pod(json!({"spec": {"affinity": {"nodeAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}}}}})))
        };
        let names = |v: &[&str]| Some(v.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>());
        // One term naming n2: result {n2}; the filter passes n2 only.
        let p = req(
            json!([{"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n2"]}]}]),
        );
        let out = run_pre_filter(&*default_plugin(), &c, &p);
        assert_eq!(out.nodes, names(&["n2"]));
        assert_eq!(
            run_filter(&*default_plugin(), &c, &p),
            [pod_fail(), ok(), pod_fail()]
        );
        // Two terms: union {n1} ∪ {n3}.
        let p = req(json!([
            {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n1"]}]},
            {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n3"]}],
             "matchExpressions": [{"key": "zone", "operator": "Exists"}]}]));
        assert_eq!(
            run_pre_filter(&*default_plugin(), &c, &p).nodes,
            names(&["n1", "n3"])
        );
        // A term without a metadata.name In requirement: no result at all.
        let p = req(json!([
            {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n1"]}]},
            {"matchExpressions": [{"key": "zone", "operator": "Exists"}]}]));
        let out = run_pre_filter(&*default_plugin(), &c, &p);
        assert_eq!((out.status.code, out.nodes), (Code::Success, None));
        // Two In requirements in one term intersect: {n1,n2} ∩ {n2,n3} = {n2}; that term does
        // not parse (two values), so the filter still rejects every node.
        let p = req(json!([{"matchFields": [
            {"key": "metadata.name", "operator": "In", "values": ["n1", "n2"]},
            {"key": "metadata.name", "operator": "In", "values": ["n2", "n3"]}]}]));
        assert_eq!(
            run_pre_filter(&*default_plugin(), &c, &p).nodes,
            names(&["n2"])
        );
        // Disjoint intersection: conflict.
        let p = req(json!([{"matchFields": [
            {"key": "metadata.name", "operator": "In", "values": ["n1"]},
            {"key": "metadata.name", "operator": "In", "values": ["n2"]}]}]));
        let out = run_pre_filter(&*default_plugin(), &c, &p);
        assert_eq!(out.status.code, Code::UnschedulableAndUnresolvable);
        assert_eq!(out.status.message(), "pod affinity terms conflict");
        // NotIn on metadata.name.
        let p = req(
            json!([{"matchFields": [{"key": "metadata.name", "operator": "NotIn", "values": ["n1"]}]}]),
        );
        assert_eq!(
            run_filter(&*default_plugin(), &c, &p),
            [pod_fail(), ok(), ok()]
        );
    }

    #[test]
    fn scoring_sums_weights_and_normalizes() {
        let c = three_nodes();
        let p = info(pod(json!({"spec": {"affinity": {"nodeAffinity": {
            "preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 2, "preference": {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a"]}]}},
                {"weight": 5, "preference": {"matchExpressions": [{"key": "zone", "operator": "Exists"}]}},
                {"weight": 3, "preference": {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n3"]}]}},
                {"weight": 0, "preference": {"matchExpressions": [{"key": "zone", "operator": "Exists"}]}},
                {"weight": 9, "preference": {}}]}}}})));
        // n1: 2 + 5 = 7; n2: 5; n3: 3 (matchFields honoured). Normalize max 7:
        // 100*7/7 = 100, 100*5/7 = 71 (71.4), 100*3/7 = 42 (42.8).
        assert_eq!(
            run_score(&*default_plugin(), &c, &p),
            Some((vec![7, 5, 3], vec![100, 71, 42]))
        );
        // No preferred terms anywhere: Skip.
        let plain = info(pod(json!({})));
        assert_eq!(run_score(&*default_plugin(), &c, &plain), None);
        // addedAffinity.preferred adds to every pod: gen Gt 6 (n2) weight 4.
        let added = plugin(
            json!({"addedAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": 4, "preference": {"matchExpressions": [{"key": "gen", "operator": "Gt", "values": ["6"]}]}}]}}),
        );
        assert_eq!(
            run_score(&*added, &c, &plain),
            Some((vec![0, 4, 0], vec![0, 100, 0]))
        );
        // n1: 7, n2: 5 + 4 = 9, n3: 3 → 100*7/9 = 77, 100, 100*3/9 = 33.
        assert_eq!(
            run_score(&*added, &c, &p),
            Some((vec![7, 9, 3], vec![77, 100, 33]))
        );
        // All zero: normalization leaves zeros.
        let nowhere = info(pod(json!({"spec": {"affinity": {"nodeAffinity": {
            "preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 2, "preference": {"matchExpressions": [{"key": "x", "operator": "Exists"}]}}]}}}})));
        assert_eq!(
            run_score(&*default_plugin(), &c, &nowhere),
            Some((vec![0, 0, 0], vec![0, 0, 0]))
        );
    }

    #[test]
    fn an_unparsable_preferred_term_fails_pre_score() {
        let c = three_nodes();
        let p = info(pod(json!({"spec": {"affinity": {"nodeAffinity": {
            "preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 1, "preference": {"matchExpressions": [{"key": "zone", "operator": "Exists"}]}},
                {"weight": 1, "preference": {"matchExpressions": [{"key": "zone", "operator": "Like"}]}}]}}}})));
        let out = run_pre_score(&*default_plugin(), &c, &p);
        assert_eq!(out.status.code, Code::Error);
        assert_eq!(
            out.status.message(),
            "[1].matchExpressions[0].operator: Unsupported value: \"Like\": supported values: \
             \"In\", \"NotIn\", \"Exists\", \"DoesNotExist\", \"Gt\", \"Lt\""
        );
    }

    #[test]
    fn args_are_read_strictly_and_validated() {
        assert!(build(Some(&json!({}))).is_ok());
        assert!(build(Some(&json!({"kind": "NodeAffinityArgs",
            "apiVersion": "kubescheduler.config.k8s.io/v1"})))
        .is_ok());
        let errs = |v: serde_json::Value| -> Vec<String> {
            match build(Some(&v)) {
                Ok(_) => Vec::new(),
                Err(e) => e.iter().map(|e| e.to_string()).collect(),
            }
        };
        let unknown = errs(json!({"addedAffinity": {"foo": 1}}));
        assert_eq!(unknown.len(), 1);
        assert!(unknown[0].contains("unknown field `foo`"), "{unknown:?}");
        let typed = errs(
            json!({"addedAffinity": {"preferredDuringSchedulingIgnoredDuringExecution":
            [{"weight": "x"}]}}),
        );
        assert!(
            typed[0].starts_with(
                "addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: "
            ),
            "{typed:?}"
        );
        let r = "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";
        let got = errs(json!({"addedAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                {},
                {"matchExpressions": [
                    {"key": "zone", "operator": "Like", "values": ["a"]},
                    {"key": "zone", "operator": "In"},
                    {"key": "gen", "operator": "Gt", "values": ["x"]},
                    {"key": "zone", "operator": "Exists", "values": ["a"]}],
                 "matchFields": [
                    {"key": "metadata.name", "operator": "In", "values": ["a", "b"]},
                    {"key": "metadata.name", "operator": "Exists"}]},
                {"matchExpressions": [
                    {"key": "gen", "operator": "Lt", "values": ["1", "2"]},
                    {"key": "zone", "operator": "In", "values": ["-a"]}]}]},
            "preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 0, "preference": {"matchExpressions": [{"key": "zone", "operator": "Like"}]}},
                {"weight": 1, "preference": {"matchExpressions": [{"key": "a/b/c", "operator": "Exists"}]}}]}}));
        let key_msg = "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and \
            must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or \
            '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with \
            an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";
        let value_msg = "a valid label must be an empty string or consist of alphanumeric \
            characters, '-', '_' or '.', and must start and end with an alphanumeric character \
            (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is \
            '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
        assert_eq!(
            got,
            [
                format!("{r}[1].matchExpressions[0].operator: Unsupported value: \"Like\": supported values: \"In\", \"NotIn\", \"Exists\", \"DoesNotExist\", \"Gt\", \"Lt\""),
                format!("{r}[1].matchExpressions[1].values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty"),
                format!("{r}[1].matchExpressions[2].values[0]: Invalid value: \"x\": for 'Gt', 'Lt' operators, the value must be an integer"),
                format!("{r}[1].matchExpressions[3].values: Invalid value: [\"a\"]: values set must be empty for exists and does not exist"),
                format!("{r}[1].matchFields[0].values: Invalid value: [\"a\",\"b\"]: must have one element"),
                format!("{r}[1].matchFields[1].operator: Unsupported value: \"Exists\": supported values: \"In\", \"NotIn\""),
                format!("{r}[2].matchExpressions[0].values: Invalid value: [\"1\",\"2\"]: for 'Gt', 'Lt' operators, exactly one value is required"),
                format!("{r}[2].matchExpressions[1].values[0][zone]: Invalid value: \"-a\": {value_msg}"),
                format!("addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[1].matchExpressions[0].key: Invalid value: \"a/b/c\": {key_msg}"),
            ]
        );
    }

    #[test]
    fn label_key_and_value_messages() {
        let name_re =
            "name part must consist of alphanumeric characters, '-', '_' or '.', and must \
            start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or \
            '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
        assert!(label_key_errors("zone").is_empty());
        assert!(label_key_errors("example.com/zone").is_empty());
        assert_eq!(
            label_key_errors(""),
            ["name part must be non-empty", name_re]
        );
        assert_eq!(label_key_errors("-a"), [name_re]);
        assert_eq!(
            label_key_errors(&"a".repeat(64)),
            ["name part must be no more than 63 bytes"]
        );
        assert_eq!(label_key_errors("/a"), ["prefix part must be non-empty"]);
        assert_eq!(
            label_key_errors("Example.com/a"),
            ["prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric \
              characters, '-' or '.', and must start and end with an alphanumeric character (e.g. \
              'example.com', regex used for validation is \
              '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"]
        );
        assert!(label_value_errors("").is_empty());
        assert!(label_value_errors("a_b.c-d").is_empty());
        assert_eq!(
            label_value_errors("-a"),
            ["a valid label must be an empty string or consist of alphanumeric characters, '-', \
              '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  \
              or 'my_value',  or '12345', regex used for validation is \
              '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"]
        );
        assert_eq!(
            label_value_errors(&"a".repeat(64)),
            ["must be no more than 63 bytes"]
        );
    }
}
