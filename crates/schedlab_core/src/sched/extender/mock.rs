//! A mock extender (`kind: ExtenderMock`): a table that answers for the extender with the same
//! `urlPrefix`, so a scenario with an extender runs anywhere (a lesson, a shared link, CI).
//!
//! ```yaml
//! apiVersion: schedlab.dev/v1alpha1
//! kind: ExtenderMock
//! metadata: {name: gpu}
//! urlPrefix: http://127.0.0.1:8888/scheduler
//! rules:                       # the first rule that matches the pod and the node decides
//! - nodes: [node-b]            # by name; or nodeSelector: {gpu: "true"}; none: every node
//!   podSelector: {app: ml}     # or pods: [default/train-1]; none: every pod
//!   filter: Fail               # Pass (the default), Fail or Unresolvable
//!   message: no free GPU
//! - nodeSelector: {gpu: "true"}
//!   score: 7                   # prioritize's 0-10 answer (not clamped); default 0
//!   preempt: Keep              # Keep (the default) the victims offered, Drop the node, or
//!                              # NoVictims (the node with an empty victim list)
//! verbs:                       # how each whole call answers (all optional)
//!   filter: {status: 200, delayMs: 0, error: "", answerWith: NodeNames}
//!   prioritize: {status: 500}
//!   bind: {delayMs: 6000}      # longer than httpTimeout: the call times out
//! ```
//!
//! `answerWith` picks the filter reply's list: `NodeNames` or `Nodes`; by default the one the
//! request used (`nodeCacheCapable`). A node no rule matches passes with score 0. A status
//! other than 200, or a delay longer than `httpTimeout`, makes the call fail as a server's
//! would; `error` fills the reply's `Error` (filter and bind).

use super::answers::Decoded;
use super::wire::{FilterReply, MetaVictims, NodeRef, OfferedVictims, PreemptReply};
use super::Extender;
use crate::cluster::{Cluster, NodeFacts, NodeInfo};
use crate::model::meta::Labels;
use crate::model::Pod;
use serde::Deserialize;
use std::sync::{Arc, Mutex, PoisonError};

/// A rule's filter verdict.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub enum Verdict {
    /// The node is kept.
    #[default]
    Pass,
    /// `FailedNodes`: preemption may still help.
    Fail,
    /// `FailedAndUnresolvableNodes` (v1.35; v1.17 does not read it, so the node is simply
    /// missing from the kept list).
    Unresolvable,
}

/// What a rule does with a node preemption offers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub enum PreemptRule {
    /// Keep the node with the victims offered.
    #[default]
    Keep,
    /// Leave the node out.
    Drop,
    /// Return the node with no victims.
    NoVictims,
}

/// Which list a filter reply carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum AnswerWith {
    /// `NodeNames`.
    NodeNames,
    /// `Nodes` (a `NodeList`).
    Nodes,
}

/// One row of the table.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Rule {
    /// Node names it applies to (empty: any).
    pub nodes: Vec<String>,
    /// Node labels it applies to (all must match).
    pub node_selector: Labels,
    /// Pods (`namespace/name`, or `name` in `default`) it applies to (empty: any).
    pub pods: Vec<String>,
    /// Pod labels it applies to.
    pub pod_selector: Labels,
    /// The filter verdict.
    pub filter: Verdict,
    /// The failure message.
    pub message: Option<String>,
    /// The prioritize score.
    pub score: i64,
    /// What preemption's call does with the node.
    pub preempt: PreemptRule,
}

/// How one verb's whole call answers.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct VerbBehaviour {
    /// HTTP status.
    pub status: u16,
    /// How long the extender takes (against `httpTimeout`).
    pub delay_ms: u64,
    /// The reply's `Error`.
    pub error: String,
    /// The filter reply's list.
    pub answer_with: Option<AnswerWith>,
}

impl Default for VerbBehaviour {
    fn default() -> Self {
        VerbBehaviour {
            status: 200,
            delay_ms: 0,
            error: String::new(),
            answer_with: None,
        }
    }
}

/// `verbs`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Verbs {
    /// The filter call.
    pub filter: VerbBehaviour,
    /// The prioritize call.
    pub prioritize: VerbBehaviour,
    /// The preempt call.
    pub preempt: VerbBehaviour,
    /// The bind call.
    pub bind: VerbBehaviour,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Document {
    #[allow(dead_code)]
    api_version: String,
    #[allow(dead_code)]
    kind: String,
    #[serde(default)]
    metadata: crate::model::meta::ObjectMeta,
    url_prefix: String,
    #[serde(default)]
    rules: Vec<Rule>,
    #[serde(default)]
    verbs: Verbs,
}

/// The answer a mock gives to one call.
pub(crate) struct MockAnswer {
    /// How long it takes.
    pub delay_ms: u64,
    /// HTTP status.
    pub status: u16,
    /// The reply.
    pub reply: Decoded,
}

/// Which rules match each node, cached by node (the node's facts decide, so a changed node is
/// matched again).
#[derive(Default)]
struct NodeMatches {
    by_node: Vec<Option<(Arc<NodeFacts>, u64)>>,
}

/// A mock extender.
pub struct Mock {
    /// The extender it answers for.
    pub url_prefix: String,
    /// `metadata.name`.
    pub name: String,
    /// The table.
    pub rules: Vec<Rule>,
    /// Whole-call behaviour.
    pub verbs: Verbs,
    matches: Mutex<NodeMatches>,
}

impl Clone for Mock {
    fn clone(&self) -> Self {
        Mock {
            url_prefix: self.url_prefix.clone(),
            name: self.name.clone(),
            rules: self.rules.clone(),
            verbs: self.verbs.clone(),
            matches: Mutex::default(),
        }
    }
}

impl std::fmt::Debug for Mock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mock")
            .field("url_prefix", &self.url_prefix)
            .field("rules", &self.rules.len())
            .finish()
    }
}

/// The message of a failing rule without one.
const DEFAULT_MESSAGE: &str = "rejected by the extender";

impl Mock {
    /// Reads a `kind: ExtenderMock` object. Err: (path, message).
    pub fn read(value: &serde_json::Value) -> Result<Mock, (String, String)> {
        let doc: Document = serde_path_to_error::deserialize(value).map_err(|e| {
            let path = e.path().to_string();
            let path = if path == "." { String::new() } else { path };
            let message = crate::model::words::with_field_hint(e.into_inner().to_string());
            (path, message)
        })?;
        if doc.url_prefix.is_empty() {
            return Err((
                "urlPrefix".into(),
                "Required value: the extender's urlPrefix".into(),
            ));
        }
        for (i, v) in [
            &doc.verbs.filter,
            &doc.verbs.prioritize,
            &doc.verbs.preempt,
            &doc.verbs.bind,
        ]
        .into_iter()
        .enumerate()
        {
            if !(100..=599).contains(&v.status) {
                let verb = ["filter", "prioritize", "preempt", "bind"][i];
                return Err((
                    format!("verbs.{verb}.status"),
                    format!("invalid HTTP status {}: must be 100-599", v.status),
                ));
            }
        }
        Ok(Mock {
            url_prefix: doc.url_prefix,
            name: doc.metadata.name,
            rules: doc.rules,
            verbs: doc.verbs,
            matches: Mutex::default(),
        })
    }

    /// The rules that apply to `pod`, as bits (rule `i` is bit `i`; at most 64 rules are
    /// matched this way, see [`Self::each_rule`]).
    fn pod_mask(&self, pod: &Pod) -> u64 {
        let full = format!(
            "{}/{}",
            pod.metadata.namespace_or_default(),
            pod.metadata.name
        );
        let mut mask = 0u64;
        for (i, r) in self.rules.iter().enumerate().take(64) {
            let named = r.pods.is_empty()
                || r.pods.iter().any(|p| {
                    *p == full
                        || (!p.contains('/')
                            && pod.metadata.namespace_or_default() == "default"
                            && *p == pod.metadata.name)
                });
            if named && labels_match(&r.pod_selector, &pod.metadata.labels) {
                mask |= 1 << i;
            }
        }
        mask
    }

    fn node_matches(rule: &Rule, node: &NodeInfo) -> bool {
        (rule.nodes.is_empty() || rule.nodes.iter().any(|n| n == node.name()))
            && labels_match(&rule.node_selector, node.labels())
    }

    /// Calls `f` with each node and the first rule that matches the pod and it (the node
    /// matches are cached per node, under one lock for the whole call).
    fn each_rule<'n>(
        &self,
        pod: &Pod,
        nodes: impl IntoIterator<Item = &'n NodeInfo>,
        mut f: impl FnMut(&'n NodeInfo, Option<&Rule>),
    ) {
        let pod_mask = self.pod_mask(pod);
        if self.rules.len() > 64 {
            for node in nodes {
                let rule = self.rules.iter().enumerate().find(|(i, r)| {
                    let pod_ok = if *i < 64 {
                        pod_mask & (1 << i) != 0
                    } else {
                        Self::pod_matches_slow(r, pod)
                    };
                    pod_ok && Self::node_matches(r, node)
                });
                f(node, rule.map(|(_, r)| r));
            }
            return;
        }
        let mut cache = self.matches.lock().unwrap_or_else(PoisonError::into_inner);
        for node in nodes {
            let id = node.id();
            if cache.by_node.len() <= id {
                cache.by_node.resize(id + 1, None);
            }
            let node_mask = match &cache.by_node[id] {
                Some((facts, mask)) if std::ptr::eq(Arc::as_ptr(facts), node.facts()) => *mask,
                _ => {
                    let mut mask = 0u64;
                    for (i, r) in self.rules.iter().enumerate() {
                        if Self::node_matches(r, node) {
                            mask |= 1 << i;
                        }
                    }
                    cache.by_node[id] = Some((node.facts_arc(), mask));
                    mask
                }
            };
            let both = node_mask & pod_mask;
            f(
                node,
                (both != 0).then(|| &self.rules[both.trailing_zeros() as usize]),
            );
        }
    }

    fn pod_matches_slow(r: &Rule, pod: &Pod) -> bool {
        let full = format!(
            "{}/{}",
            pod.metadata.namespace_or_default(),
            pod.metadata.name
        );
        (r.pods.is_empty() || r.pods.contains(&full) || r.pods.contains(&pod.metadata.name))
            && labels_match(&r.pod_selector, &pod.metadata.labels)
    }

    /// How the whole call of `verb` answers.
    pub(crate) fn behaviour(&self, verb: super::Verb) -> &VerbBehaviour {
        match verb {
            super::Verb::Filter => &self.verbs.filter,
            super::Verb::Prioritize => &self.verbs.prioritize,
            super::Verb::Preempt => &self.verbs.preempt,
            super::Verb::Bind => &self.verbs.bind,
        }
    }

    /// The list a filter reply carries for `ext`.
    pub(crate) fn answers_with(&self, ext: &Extender) -> AnswerWith {
        self.verbs
            .filter
            .answer_with
            .unwrap_or(if ext.node_cache_capable {
                AnswerWith::NodeNames
            } else {
                AnswerWith::Nodes
            })
    }

    /// The filter call's verdicts with no reply built (a plain call, [`Answers::plain_mock`]):
    /// the nodes kept into `kept`, each failed one into `failed` as (node, message,
    /// unresolvable).
    ///
    /// [`Answers::plain_mock`]: super::answers::Answers::plain_mock
    pub(crate) fn filter_into(
        &self,
        pod: &Pod,
        nodes: &[&NodeInfo],
        kept: &mut Vec<crate::cluster::NodeId>,
        failed: &mut Vec<(crate::cluster::NodeId, String, bool)>,
    ) {
        self.each_rule(pod, nodes.iter().copied(), |node, rule| {
            match rule.map_or(Verdict::Pass, |r| r.filter) {
                Verdict::Pass => kept.push(node.id()),
                Verdict::Fail => failed.push((node.id(), message(rule), false)),
                Verdict::Unresolvable => failed.push((node.id(), message(rule), true)),
            }
        });
    }

    /// The prioritize call's scores with no reply built (a plain call): `score × scale`
    /// added to each node's total (`totals` as long as `nodes`, wrapping).
    pub(crate) fn score_into(
        &self,
        pod: &Pod,
        nodes: &[&NodeInfo],
        scale: i64,
        totals: &mut [i64],
    ) {
        let mut i = 0;
        self.each_rule(pod, nodes.iter().copied(), |_, rule| {
            let score = rule.map_or(0, |r| r.score);
            totals[i] = totals[i].wrapping_add(score.wrapping_mul(scale));
            i += 1;
        });
    }

    /// The filter call's answer.
    pub(crate) fn filter(&self, ext: &Extender, pod: &Pod, nodes: &[&NodeInfo]) -> MockAnswer {
        let b = &self.verbs.filter;
        let mut reply = FilterReply {
            error: b.error.clone(),
            ..FilterReply::default()
        };
        let mut kept_ids = Vec::with_capacity(nodes.len());
        let mut verdicts = Vec::new();
        self.filter_into(pod, nodes, &mut kept_ids, &mut verdicts);
        let kept: Vec<NodeRef> = kept_ids.into_iter().map(NodeRef::Id).collect();
        for (id, message, unresolvable) in verdicts {
            let list = if unresolvable {
                &mut reply.failed_unresolvable
            } else {
                &mut reply.failed
            };
            list.push((NodeRef::Id(id), message));
        }
        match self.answers_with(ext) {
            AnswerWith::NodeNames => reply.node_names = Some(kept),
            AnswerWith::Nodes => reply.nodes = Some(kept),
        }
        MockAnswer {
            delay_ms: b.delay_ms,
            status: b.status,
            reply: Decoded::Filter(reply),
        }
    }

    /// The prioritize call's answer.
    pub(crate) fn prioritize(&self, pod: &Pod, nodes: &[&NodeInfo]) -> MockAnswer {
        let b = &self.verbs.prioritize;
        let mut list = Vec::with_capacity(nodes.len());
        self.each_rule(pod, nodes.iter().copied(), |node, rule| {
            list.push((NodeRef::Id(node.id()), rule.map_or(0, |r| r.score)));
        });
        MockAnswer {
            delay_ms: b.delay_ms,
            status: b.status,
            reply: Decoded::Priorities(list),
        }
    }

    /// The preempt call's answer.
    pub(crate) fn preempt(
        &self,
        pod: &Pod,
        offered: &[OfferedVictims],
        cluster: &Cluster,
    ) -> MockAnswer {
        let b = &self.verbs.preempt;
        let mut rules: Vec<PreemptRule> = Vec::with_capacity(offered.len());
        let known: Vec<&NodeInfo> = offered
            .iter()
            .filter_map(|o| {
                cluster
                    .node_index()
                    .get(o.node)
                    .map(|&id| &cluster.nodes()[id])
            })
            .collect();
        let mut by_name: Vec<(&str, PreemptRule)> = Vec::with_capacity(known.len());
        self.each_rule(pod, known.iter().copied(), |node, rule| {
            by_name.push((node.name(), rule.map_or(PreemptRule::Keep, |r| r.preempt)));
        });
        for o in offered {
            let rule = by_name
                .iter()
                .find(|(n, _)| *n == o.node)
                .map_or(PreemptRule::Keep, |(_, r)| *r);
            rules.push(rule);
        }
        let mut out: Vec<(String, Option<MetaVictims>)> = Vec::new();
        for (o, rule) in offered.iter().zip(rules) {
            let uids = || {
                o.pods
                    .iter()
                    .map(|p| Some(super::wire::uid_of(&p.pod)))
                    .collect()
            };
            match rule {
                PreemptRule::Keep => out.push((
                    o.node.to_string(),
                    Some(MetaVictims {
                        pods: uids(),
                        num_pdb_violations: o.num_pdb_violations,
                    }),
                )),
                PreemptRule::Drop => {}
                PreemptRule::NoVictims => out.push((
                    o.node.to_string(),
                    Some(MetaVictims {
                        pods: Vec::new(),
                        num_pdb_violations: 0,
                    }),
                )),
            }
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        let reply: PreemptReply = Some(out);
        MockAnswer {
            delay_ms: b.delay_ms,
            status: b.status,
            reply: Decoded::Preempt(reply),
        }
    }

    /// The bind call's answer.
    pub(crate) fn bind(&self) -> MockAnswer {
        let b = &self.verbs.bind;
        MockAnswer {
            delay_ms: b.delay_ms,
            status: b.status,
            reply: Decoded::Bind(b.error.clone()),
        }
    }
}

fn message(r: Option<&Rule>) -> String {
    r.and_then(|r| r.message.clone())
        .unwrap_or_else(|| DEFAULT_MESSAGE.into())
}

/// Whether every `selector` label is in `labels` with the same value.
fn labels_match(selector: &Labels, labels: &Labels) -> bool {
    selector.iter().all(|(k, v)| labels.get(k) == Some(v))
}
