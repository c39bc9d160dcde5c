//! What each verb's answer does to a cycle (`findNodesThatPassExtenders`, the extender part of
//! `prioritizeNodes`, `callExtenders` in preemption, `extendersBinding`), for both versions;
//! [`Flavor`] names where they differ. Each version's cycle applies the results to its own
//! records (v1.17's failed-predicate map, v1.35's diagnosis).

use super::answers::{Answers, Call, Decoded, Source, Texts};
use super::wire::{self, NodeRef, OfferedVictims};
use super::{Extender, Flavor, Verb};
use crate::cluster::{Cluster, NodeId, NodeInfo, PodInfo};
use crate::sched::victims::{Candidate, Victims};
use std::collections::HashMap;

/// A node an extender named: one of the cluster's, or a name it does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NamedNode {
    /// A node of the cluster.
    Known(NodeId),
    /// A name that is no node of the cluster.
    Unknown(String),
}

/// How a filter call treated one node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeFailure {
    /// The node.
    pub node: NamedNode,
    /// The extender's message.
    pub message: String,
    /// `FailedAndUnresolvableNodes` (v1.35).
    pub unresolvable: bool,
}

/// One extender call, as a cycle's trace keeps it (with details on).
#[derive(Clone, Debug, PartialEq)]
pub struct ExtenderCall {
    /// The extender's URL prefix.
    pub extender: String,
    /// The verb.
    pub verb: Verb,
    /// Who answered.
    pub source: Source,
    /// The error, if the call failed.
    pub error: Option<String>,
    /// Whether the error was skipped (`ignorable`, or any prioritize error).
    pub ignored: bool,
    /// filter: the nodes sent.
    pub sent: Vec<NodeId>,
    /// filter: the nodes kept.
    pub kept: Vec<NodeId>,
    /// filter: the nodes failed, with their messages.
    pub failed: Vec<NodeFailure>,
    /// filter (v1.35): the kept nodes are fresh `NodeInfo`s without pods, which the Score
    /// plugins then read (kubernetes#141781).
    pub fresh_nodes: bool,
    /// prioritize: each node's 0-10 answer (not clamped), summed over repeated hosts.
    pub scores: Vec<(NodeId, i64)>,
    /// prioritize: the weight.
    pub weight: i64,
    /// preempt: the nodes left, each with its victim count.
    pub victims: Vec<(NodeId, usize)>,
    /// bind: the node.
    pub node: Option<String>,
    /// The request and the reply, for the inspector.
    pub texts: Texts,
}

impl ExtenderCall {
    fn new(ext: &Extender, verb: Verb, source: Source, texts: Texts) -> ExtenderCall {
        ExtenderCall {
            extender: ext.url_prefix.clone(),
            verb,
            source,
            error: None,
            ignored: false,
            sent: Vec::new(),
            kept: Vec::new(),
            failed: Vec::new(),
            fresh_nodes: false,
            scores: Vec::new(),
            weight: ext.weight,
            victims: Vec::new(),
            node: None,
            texts,
        }
    }
}

/// The extenders a cycle calls, and who answers them.
pub(crate) struct Caller<'a> {
    /// The configured extenders, ignorable ones last.
    pub extenders: &'a [Extender],
    /// Who answers.
    pub answers: &'a Answers,
    /// Whose rules apply.
    pub flavor: Flavor,
    /// Whether the calls are kept for the trace.
    pub detail: bool,
    /// v1.35's kubernetes#141781 is reproduced: nodes an extender returns as `Nodes` reach
    /// the Score plugins without their pods.
    pub nodeinfo_bug: bool,
}

/// The nodes left after the filter extenders.
pub(crate) struct Filtered {
    /// The feasible nodes, in the order the last extender returned them.
    pub feasible: Vec<NodeId>,
    /// Nodes the extenders failed, in the order they were read.
    pub failed: Vec<NodeFailure>,
    /// Whether the Score plugins see the nodes without their pods (v1.35 bug).
    pub fresh: bool,
}

/// A node's name for error texts.
fn ref_text(r: &NodeRef, cluster: &Cluster) -> String {
    match r {
        NodeRef::Id(id) => cluster.nodes()[*id].name().to_string(),
        NodeRef::Name(n) => n.clone(),
    }
}

/// A reply's node as a cluster node, if it is one.
fn resolve(r: &NodeRef, cluster: &Cluster) -> NamedNode {
    match r {
        NodeRef::Id(id) => NamedNode::Known(*id),
        NodeRef::Name(n) => match cluster.node_index().get(n.as_str()) {
            Some(&id) => NamedNode::Known(id),
            None => NamedNode::Unknown(n.clone()),
        },
    }
}

impl Caller<'_> {
    /// Whether any extender is configured.
    pub(crate) fn any(&self) -> bool {
        !self.extenders.is_empty()
    }

    /// `hasExtenderFilters`: some extender filters.
    pub(crate) fn has_filters(&self) -> bool {
        self.extenders.iter().any(|e| e.has(Verb::Filter))
    }

    /// Some extender prioritizes (`hasScoring` counts it).
    pub(crate) fn has_prioritizers(&self) -> bool {
        self.extenders.iter().any(|e| e.has(Verb::Prioritize))
    }

    /// The call of `verb` to extender `index`.
    fn ask(
        &self,
        index: usize,
        verb: Verb,
        body: &dyn Fn() -> String,
        mock: &dyn Fn(&super::mock::Mock) -> super::mock::MockAnswer,
        encode: &dyn Fn(&Decoded) -> String,
    ) -> super::answers::Answered {
        self.answers.ask(&Call {
            ext: &self.extenders[index],
            verb,
            flavor: self.flavor,
            body,
            mock,
            encode,
            detail: self.detail,
        })
    }

    /// `findNodesThatPassExtenders`: each interested extender with a filter verb, in order,
    /// while nodes are left, is given the survivors of the previous one. An error of an
    /// ignorable extender skips it; any other error ends the cycle (`Err`, an Error status,
    /// not a FitError). `calls` receives the calls (with details on).
    pub(crate) fn filter(
        &self,
        cluster: &Cluster,
        info: &PodInfo,
        feasible: Vec<NodeId>,
        calls: &mut Vec<ExtenderCall>,
    ) -> Result<Filtered, String> {
        let mut out = Filtered {
            feasible,
            failed: Vec::new(),
            fresh: false,
        };
        for (index, ext) in self.extenders.iter().enumerate() {
            if out.feasible.is_empty() {
                break;
            }
            if !ext.has(Verb::Filter) || !ext.is_interested(&info.pod) {
                continue;
            }
            let nodes: Vec<&NodeInfo> = out.feasible.iter().map(|&n| &cluster.nodes()[n]).collect();
            if let Some(mock) = self.plain_mock(ext, Verb::Filter) {
                let (kept, failed, fresh) = self.plain_filter(mock, ext, info, &nodes);
                out.fresh |= fresh;
                out.feasible = kept;
                out.failed.extend(failed);
                continue;
            }
            let answered = self.ask(
                index,
                Verb::Filter,
                &|| wire::node_args(ext, &info.pod, &nodes),
                &|m| m.filter(ext, &info.pod, &nodes),
                &|d| encode(d, cluster),
            );
            let mut call = ExtenderCall::new(ext, Verb::Filter, answered.source, answered.texts);
            if self.detail {
                call.sent = out.feasible.clone();
            }
            let reply = match answered.result {
                Ok(Decoded::Filter(r)) if r.error.is_empty() => r,
                Ok(Decoded::Filter(r)) => {
                    self.failed_call(&mut call, ext, r.error, calls)?;
                    continue;
                }
                Ok(_) => unreachable!("a filter call decodes a filter reply"),
                Err(e) => {
                    self.failed_call(&mut call, ext, e, calls)?;
                    continue;
                }
            };
            let kept = match self.kept_nodes(ext, &reply, &out.feasible, cluster) {
                Ok(kept) => kept,
                Err(e) => {
                    self.failed_call(&mut call, ext, e, calls)?;
                    continue;
                }
            };
            let mut failed = Vec::new();
            let unresolvable = self.flavor == Flavor::V135;
            if unresolvable {
                for (r, message) in &reply.failed_unresolvable {
                    failed.push(NodeFailure {
                        node: resolve(r, cluster),
                        message: message.clone(),
                        unresolvable: true,
                    });
                }
            }
            for (r, message) in &reply.failed {
                let node = resolve(r, cluster);
                if unresolvable
                    && reply
                        .failed_unresolvable
                        .iter()
                        .any(|(u, _)| resolve(u, cluster) == node)
                {
                    continue;
                }
                failed.push(NodeFailure {
                    node,
                    message: message.clone(),
                    unresolvable: false,
                });
            }
            out.fresh |= kept.1;
            out.feasible = kept.0;
            if self.detail {
                call.kept = out.feasible.clone();
                call.failed = failed.clone();
                call.fresh_nodes = kept.1;
                calls.push(call);
            }
            out.failed.extend(failed);
        }
        Ok(out)
    }

    /// A mock that answers `verb` plainly, when no details are kept ([`Answers::plain_mock`]).
    fn plain_mock(&self, ext: &Extender, verb: Verb) -> Option<&super::mock::Mock> {
        if self.detail {
            return None;
        }
        self.answers.plain_mock(ext, verb)
    }

    /// A plain mock's filter call, as its reply would have been read: the nodes kept, the
    /// nodes failed (v1.35: the unresolvable ones first, as the reply's two lists are read;
    /// v1.17 reads no unresolvable list, so those nodes are simply not kept), and whether
    /// the kept nodes are fresh (kubernetes#141781).
    fn plain_filter(
        &self,
        mock: &super::mock::Mock,
        ext: &Extender,
        info: &PodInfo,
        nodes: &[&NodeInfo],
    ) -> (Vec<NodeId>, Vec<NodeFailure>, bool) {
        let mut kept = Vec::with_capacity(nodes.len());
        let mut verdicts = Vec::new();
        mock.filter_into(&info.pod, nodes, &mut kept, &mut verdicts);
        let failure = |(id, message, unresolvable): &(NodeId, String, bool)| NodeFailure {
            node: NamedNode::Known(*id),
            message: message.clone(),
            unresolvable: *unresolvable,
        };
        let failed: Vec<NodeFailure> = match self.flavor {
            Flavor::V135 => verdicts
                .iter()
                .filter(|v| v.2)
                .chain(verdicts.iter().filter(|v| !v.2))
                .map(failure)
                .collect(),
            Flavor::V117 => verdicts.iter().filter(|v| !v.2).map(failure).collect(),
        };
        // As `kept_nodes` reads the reply: `NodeNames` only from a nodeCacheCapable extender.
        match (mock.answers_with(ext), ext.node_cache_capable) {
            (super::mock::AnswerWith::NodeNames, true) => (kept, failed, false),
            (super::mock::AnswerWith::Nodes, _) => {
                let fresh = self.flavor == Flavor::V135 && self.nodeinfo_bug;
                (kept, failed, fresh)
            }
            (super::mock::AnswerWith::NodeNames, false) => (Vec::new(), failed, false),
        }
    }

    /// A failed call: skipped when the extender is ignorable (recorded), else the cycle's
    /// error.
    fn failed_call(
        &self,
        call: &mut ExtenderCall,
        ext: &Extender,
        error: String,
        calls: &mut Vec<ExtenderCall>,
    ) -> Result<(), String> {
        call.error = Some(error.clone());
        call.ignored = ext.ignorable;
        if self.detail {
            calls.push(call.clone());
        }
        if ext.ignorable {
            Ok(())
        } else {
            Err(error)
        }
    }

    /// The nodes a filter reply keeps, and whether they are fresh `NodeInfo`s: `NodeNames`
    /// (when `nodeCacheCapable`) mapped to the nodes sent (v1.35) or to any node (v1.17), an
    /// unknown name being an error; else `Nodes`, matched by name (v1.35: fresh, the bug);
    /// else none.
    fn kept_nodes(
        &self,
        ext: &Extender,
        reply: &wire::FilterReply,
        sent: &[NodeId],
        cluster: &Cluster,
    ) -> Result<(Vec<NodeId>, bool), String> {
        if let (true, Some(names)) = (ext.node_cache_capable, &reply.node_names) {
            let mut kept = Vec::with_capacity(names.len());
            // v1.35 looks names up among the nodes sent; built at the first name (a mock
            // answers with node ids).
            let mut sent_by_name: Option<HashMap<&str, NodeId>> = None;
            for r in names {
                let found = match (r, self.flavor) {
                    (NodeRef::Id(id), _) => Some(*id),
                    (NodeRef::Name(n), Flavor::V135) => sent_by_name
                        .get_or_insert_with(|| {
                            sent.iter()
                                .map(|&id| (cluster.nodes()[id].name(), id))
                                .collect()
                        })
                        .get(n.as_str())
                        .copied(),
                    (NodeRef::Name(n), Flavor::V117) => {
                        cluster.node_index().get(n.as_str()).copied()
                    }
                };
                match found {
                    Some(id) => kept.push(id),
                    None => {
                        let list = match self.flavor {
                            Flavor::V117 => "nodeNameToInfo map",
                            Flavor::V135 => "the input node list",
                        };
                        return Err(format!(
                            "extender {:?} claims a filtered node {:?} which is not found in {list}",
                            ext.url_prefix,
                            ref_text(r, cluster)
                        ));
                    }
                }
            }
            return Ok((kept, false));
        }
        if let Some(nodes) = &reply.nodes {
            let mut kept = Vec::with_capacity(nodes.len());
            for r in nodes {
                match resolve(r, cluster) {
                    NamedNode::Known(id) => kept.push(id),
                    NamedNode::Unknown(n) => {
                        return Err(format!(
                            "extender {:?} returned the node {n:?}, which is not in the cluster",
                            ext.url_prefix
                        ))
                    }
                }
            }
            let fresh = self.flavor == Flavor::V135 && self.nodeinfo_bug;
            return Ok((kept, fresh));
        }
        Ok((Vec::new(), false))
    }

    /// The extender part of `prioritizeNodes`: each interested extender with a prioritize
    /// verb adds `score × weight × 10` to each feasible node it names (wrapping as Go's int64
    /// does; never clamped). Errors are ignored, whether or not the extender is ignorable.
    pub(crate) fn prioritize(
        &self,
        cluster: &Cluster,
        info: &PodInfo,
        feasible: &[&NodeInfo],
        totals: &mut [i64],
        calls: &mut Vec<ExtenderCall>,
    ) {
        for (index, ext) in self.extenders.iter().enumerate() {
            if !ext.has(Verb::Prioritize) || !ext.is_interested(&info.pod) {
                continue;
            }
            let scale = ext.weight.wrapping_mul(EXTENDER_SCALE);
            if let Some(mock) = self.plain_mock(ext, Verb::Prioritize) {
                mock.score_into(&info.pod, feasible, scale, totals);
                continue;
            }
            let answered = self.ask(
                index,
                Verb::Prioritize,
                &|| wire::node_args(ext, &info.pod, feasible),
                &|m| m.prioritize(&info.pod, feasible),
                &|d| encode(d, cluster),
            );
            let mut call =
                ExtenderCall::new(ext, Verb::Prioritize, answered.source, answered.texts);
            let list = match answered.result {
                Ok(Decoded::Priorities(list)) => list,
                Ok(_) => unreachable!("a prioritize call decodes a priority list"),
                Err(e) => {
                    call.error = Some(e);
                    call.ignored = true;
                    if self.detail {
                        calls.push(call);
                    }
                    continue;
                }
            };
            // Each named feasible node gets `score × weight × 10` (summed over repeated
            // hosts first upstream; the same in wrapping arithmetic). The raw answers are
            // kept only for the trace.
            let mut raw: Option<Vec<Option<i64>>> = self.detail.then(|| vec![None; feasible.len()]);
            let mut by_name: Option<HashMap<&str, usize>> = None;
            for (k, (r, score)) in list.iter().enumerate() {
                // Only hosts among the feasible nodes count. Replies usually keep the order
                // of the request: look there first.
                let at = feasible.get(k);
                let position = match r {
                    NodeRef::Id(id) if at.is_some_and(|n| n.id() == *id) => Some(k),
                    NodeRef::Id(id) => feasible.iter().position(|n| n.id() == *id),
                    NodeRef::Name(name) if at.is_some_and(|n| n.name() == name) => Some(k),
                    NodeRef::Name(name) => by_name
                        .get_or_insert_with(|| {
                            let mut m = HashMap::with_capacity(feasible.len());
                            for (i, n) in feasible.iter().enumerate().rev() {
                                m.insert(n.name(), i);
                            }
                            m
                        })
                        .get(name.as_str())
                        .copied(),
                };
                if let Some(i) = position {
                    totals[i] = totals[i].wrapping_add(score.wrapping_mul(scale));
                    if let Some(raw) = raw.as_mut() {
                        let slot = raw[i].get_or_insert(0);
                        *slot = slot.wrapping_add(*score);
                    }
                }
            }
            if let Some(raw) = raw {
                call.scores = raw
                    .iter()
                    .enumerate()
                    .filter_map(|(i, r)| r.map(|s| (feasible[i].id(), s)))
                    .collect();
                calls.push(call);
            }
        }
    }

    /// `callExtenders` (v1.35) / `processPreemptionWithExtenders` (v1.17): each interested
    /// extender with a preempt verb may shrink the candidates while any are left. The victims
    /// it returns (by UID) are found on their node. Err: the error that ends preemption.
    pub(crate) fn preempt(
        &self,
        cluster: &Cluster,
        info: &PodInfo,
        mut candidates: Vec<Candidate>,
        calls: &mut Vec<ExtenderCall>,
    ) -> Result<Vec<Candidate>, String> {
        if candidates.is_empty() {
            return Ok(candidates);
        }
        for (index, ext) in self.extenders.iter().enumerate() {
            if !ext.has(Verb::Preempt) || !ext.is_interested(&info.pod) {
                continue;
            }
            let offered: Vec<OfferedVictims> = candidates
                .iter()
                .map(|c| OfferedVictims {
                    node: cluster.nodes()[c.node].name(),
                    pods: c.victims.iter().map(|&v| &*cluster.pods()[v]).collect(),
                    num_pdb_violations: c.pdb_violations as i64,
                })
                .collect();
            let answered = self.ask(
                index,
                Verb::Preempt,
                &|| wire::preempt_args(ext, &info.pod, &offered),
                &|m| m.preempt(&info.pod, &offered, cluster),
                &|d| encode(d, cluster),
            );
            let mut call = ExtenderCall::new(ext, Verb::Preempt, answered.source, answered.texts);
            let result = match answered.result {
                Ok(Decoded::Preempt(reply)) => self.victims_of(ext, reply, &candidates, cluster),
                Ok(_) => unreachable!("a preempt call decodes a preemption result"),
                Err(e) => Err(e),
            };
            match result {
                Ok(next) => {
                    candidates = next;
                    if self.detail {
                        call.victims = candidates
                            .iter()
                            .map(|c| (c.node, c.victims.len()))
                            .collect();
                        calls.push(call);
                    }
                }
                Err(e) => {
                    self.failed_call(&mut call, ext, e, calls)?;
                    continue;
                }
            }
            if candidates.is_empty() {
                break;
            }
        }
        Ok(candidates)
    }

    /// A preemption reply as candidates: each node's victims found by UID among its pods, in
    /// the order of the candidates offered (then new nodes by name). v1.35 refuses a node with
    /// no victims (an ignorable extender's such node is dropped instead).
    fn victims_of(
        &self,
        ext: &Extender,
        reply: wire::PreemptReply,
        offered: &[Candidate],
        cluster: &Cluster,
    ) -> Result<Vec<Candidate>, String> {
        let mut out: Vec<(usize, Candidate)> = Vec::new();
        for (node_name, victims) in reply.unwrap_or_default() {
            let Some(&node) = cluster.node_index().get(node_name.as_str()) else {
                return Err(format!("nodeinfo not found for node name {node_name:?}"));
            };
            let victims = victims.unwrap_or_default();
            let mut pods = Victims::new();
            for uid in &victims.pods {
                let uid = uid.clone().unwrap_or_default();
                let found = cluster.nodes()[node]
                    .pods()
                    .iter()
                    .copied()
                    .find(|&p| wire::uid_of(&cluster.pods()[p].pod) == uid);
                match found {
                    Some(p) => pods.push(p),
                    None => {
                        return Err(format!(
                            "extender: {} claims to preempt pod (UID: &{{{uid}}}) on node: {node_name}, but the pod is not found on that node",
                            ext.url_prefix
                        ))
                    }
                }
            }
            if self.flavor == Flavor::V135 && pods.is_empty() {
                if ext.ignorable {
                    continue;
                }
                return Err(format!(
                    "expected at least one victim pod on node {node_name:?}"
                ));
            }
            let order = offered
                .iter()
                .position(|c| c.node == node)
                .unwrap_or(usize::MAX);
            out.push((
                order,
                Candidate {
                    node,
                    victims: pods,
                    pdb_violations: victims.num_pdb_violations.max(0) as usize,
                },
            ));
        }
        out.sort_by_key(|(order, c)| (*order, cluster.nodes()[c.node].name().to_string()));
        Ok(out.into_iter().map(|(_, c)| c).collect())
    }

    /// `extendersBinding`: the binder extender interested in the pod binds it to `node`.
    /// `None`: no extender binds it (the default binder does). v1.35 skips an ignorable
    /// binder's error (then the next binder, or the default); v1.17 takes the first binder,
    /// and its error fails the binding.
    pub(crate) fn bind(
        &self,
        pod: &PodInfo,
        node: &str,
        calls: &mut Vec<ExtenderCall>,
    ) -> Option<Result<(), String>> {
        for (index, ext) in self.extenders.iter().enumerate() {
            if !ext.has(Verb::Bind) {
                continue;
            }
            if !ext.is_interested(&pod.pod) {
                match self.flavor {
                    Flavor::V135 => continue,
                    // getBinderFunc: the first binder, if interested; else the default.
                    Flavor::V117 => return None,
                }
            }
            let answered = self.ask(
                index,
                Verb::Bind,
                &|| wire::bind_args(&pod.pod, node),
                &|m| m.bind(),
                &|d| match d {
                    Decoded::Bind(e) => wire::encode_bind(e),
                    _ => String::new(),
                },
            );
            let mut call = ExtenderCall::new(ext, Verb::Bind, answered.source, answered.texts);
            call.node = Some(node.to_string());
            let result = match answered.result {
                Ok(Decoded::Bind(e)) if e.is_empty() => Ok(()),
                Ok(Decoded::Bind(e)) => Err(e),
                Ok(_) => unreachable!("a bind call decodes a binding result"),
                Err(e) => Err(e),
            };
            if let Err(e) = &result {
                call.error = Some(e.clone());
                if self.flavor == Flavor::V135 && ext.ignorable {
                    call.ignored = true;
                    calls.push(call);
                    continue;
                }
            }
            calls.push(call);
            return Some(result);
        }
        None
    }
}

/// `MaxNodeScore / MaxExtenderPriority`: an extender's 0-10 counts ×10.
pub(crate) const EXTENDER_SCALE: i64 = crate::sched::MAX_NODE_SCORE / 10;

/// A mock's decoded reply as the JSON a server sends (for recordings and the inspector).
fn encode(d: &Decoded, cluster: &Cluster) -> String {
    let names = |id: NodeId| cluster.nodes()[id].name();
    match d {
        Decoded::Filter(r) => wire::encode_filter(r, &names, &|r| match r {
            NodeRef::Id(id) => wire::node_object(&cluster.nodes()[*id]),
            NodeRef::Name(n) => serde_json::json!({"metadata": {"name": n}}),
        }),
        Decoded::Priorities(list) => wire::encode_priorities(list, &names),
        Decoded::Preempt(r) => wire::encode_preempt(r),
        Decoded::Bind(e) => wire::encode_bind(e),
    }
}
