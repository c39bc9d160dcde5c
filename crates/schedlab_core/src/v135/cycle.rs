//! One v1.35 scheduling cycle (`schedulingCycle` → `SchedulePod`, reference §3): PreFilter
//! (skips, node-set results, rejections), the nominated node first, Filter in plugin order
//! stopping at the first rejection (with the two nominated-pod passes), `nextStartNodeIndex`
//! over the whole snapshot, PreScore / Score / NormalizeScore with weights, the host, and on a
//! `FitError` the PostFilter plugins (DynamicResources, then DefaultPreemption).
//!
//! Deviations, stated (also in `docs/fidelity.md`):
//! - Nodes are filtered one after another and the scan stops exactly at the
//!   `numFeasibleNodesToFind`-th feasible node (upstream: 16 in parallel).
//! - A PreFilter node-set result is visited in node-tree order (upstream: Go set order, random).
//! - Ties are broken by the seeded uniform choice (v1.34's `selectHost`; v1.35.7's heap order
//!   is an unintended artefact, upstream PR #141024).

use super::plugin::Point;
use super::plugin::{Cx, Plugin, PluginState};
use super::profile::Profile;
use super::status::{Code, Status};
use crate::cluster::{Cluster, NodeId, NodeInfo, PodId};
use crate::sched::extender::calls::{Caller, NamedNode};
use crate::sched::extender::EXTENDER_NAME;
use crate::sched::fit_error::{histogram, NO_NODES_AVAILABLE};
use crate::sched::nominations::Nominations;
use crate::sched::sampling::num_feasible_nodes_to_find;
use crate::sched::select_host::{select_host, ties_of_best};
use crate::sched::split_scan::{
    cut, join_cut, rotated_parts, rows_in_parts, split_scan, RotatedPart, Scan,
};
use crate::sched::state::SchedulerState;
use crate::sched::Reason;
use crate::trace::v135::NodeClaims;
pub(crate) use crate::trace::v135::{ModernTrace, PluginStatus};
use crate::trace::{CycleTrace, NodeFilterRecord, NodeScoreRecord, Outcome, ScoreRecord};
use std::borrow::Cow;
use std::collections::BTreeSet;
use std::sync::Arc;

pub(crate) use super::plugin::MAX_NODE_SCORE;

/// Each plugin's state this cycle (upstream's `CycleState`), by profile plugin index.
pub(crate) struct CycleStates {
    states: Vec<Option<Box<dyn PluginState>>>,
}

impl Clone for CycleStates {
    fn clone(&self) -> Self {
        CycleStates {
            states: self
                .states
                .iter()
                .map(|s| s.as_ref().map(|s| (**s).clone_state()))
                .collect(),
        }
    }
}

impl CycleStates {
    fn new(n: usize) -> CycleStates {
        CycleStates {
            states: (0..n).map(|_| None).collect(),
        }
    }

    /// Plugin `i`'s state.
    pub(crate) fn get(&self, i: usize) -> Option<&dyn PluginState> {
        self.states.get(i).and_then(|s| s.as_deref())
    }

    /// Plugin `i`'s state, mutably.
    pub(crate) fn get_mut(&mut self, i: usize) -> Option<&mut dyn PluginState> {
        self.states.get_mut(i).and_then(|s| s.as_deref_mut())
    }
}

/// A node's rejection: the plugin (profile index), its code, and where its reasons end in
/// [`Diagnosis::reasons`].
#[derive(Clone, Copy, Debug)]
struct Rejection {
    node: NodeId,
    code: Code,
    end: usize,
}

/// `framework.Diagnosis`: which nodes said no, with what, and the PreFilter message. Kept
/// whatever the detail, since the FitError text and preemption read it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Diagnosis {
    rejections: Vec<Rejection>,
    reasons: Vec<Reason>,
    /// The status of the nodes not in `rejections` that were not feasible either: a PreFilter
    /// rejection, or nodes a PreFilter result left out.
    pub absent: Option<Status>,
    /// `PreFilterMsg`.
    pub pre_filter_msg: Option<String>,
    /// Plugins that rejected the pod somewhere (`UnschedulablePlugins`).
    pub unschedulable_plugins: BTreeSet<&'static str>,
    /// Reasons an extender gave for names that are no node of the cluster (upstream's
    /// `NodeToStatus` takes any name; the FitError counts them).
    pub unknown_nodes: Vec<Reason>,
    /// The profile indices already in `unschedulable_plugins` (below 128), so the filter scan
    /// inserts each name once.
    noted: u128,
}

impl Diagnosis {
    /// Records `node`'s status with these reasons.
    pub(crate) fn push_reasons(&mut self, node: NodeId, code: Code, reasons: Vec<Reason>) {
        self.reasons.extend(reasons);
        self.push(node, code);
    }

    /// Adds the plugin at profile index `i` to `unschedulable_plugins`.
    fn note_plugin(&mut self, i: usize, name: &'static str) {
        let bit = 1u128.checked_shl(i as u32).unwrap_or(0);
        if bit == 0 || self.noted & bit == 0 {
            self.unschedulable_plugins.insert(name);
            self.noted |= bit;
        }
    }

    fn push(&mut self, node: NodeId, code: Code) {
        self.rejections.push(Rejection {
            node,
            code,
            end: self.reasons.len(),
        });
    }

    /// Appends a scanned part's rejections, whose ends count in the part's own `reasons`.
    fn append_part(&mut self, rejections: Vec<Rejection>, reasons: Vec<Reason>) {
        let offset = self.reasons.len();
        self.reasons.extend(reasons);
        self.rejections
            .extend(rejections.into_iter().map(|r| Rejection {
                end: r.end + offset,
                ..r
            }));
    }

    /// Forgets `node`'s first rejection and its reasons (the nominated node's, tried first,
    /// when the scan meets the node again: the scan's verdict replaces it).
    fn forget(&mut self, node: NodeId) {
        let Some(i) = self.rejections.iter().position(|r| r.node == node) else {
            return;
        };
        let from = if i == 0 {
            0
        } else {
            self.rejections[i - 1].end
        };
        let to = self.rejections[i].end;
        self.reasons.drain(from..to);
        self.rejections.remove(i);
        for r in &mut self.rejections[i..] {
            r.end -= to - from;
        }
    }

    /// Each rejected node with its code and reasons.
    pub(crate) fn rejected(&self) -> impl Iterator<Item = (NodeId, Code, &[Reason])> {
        let mut start = 0;
        self.rejections.iter().map(move |r| {
            let reasons = &self.reasons[start..r.end];
            start = r.end;
            (r.node, r.code, reasons)
        })
    }

    /// The code of `node`'s status: its own, else the absent status's, else `None` (a node
    /// that was never evaluated and has no absent status).
    pub(crate) fn code_of(&self, node: NodeId) -> Option<Code> {
        self.rejections
            .iter()
            .rev()
            .find(|r| r.node == node)
            .map(|r| r.code)
            .or(self.absent.as_ref().map(|s| s.code))
    }

    /// `NodeToStatus.Len()`.
    pub(crate) fn len(&self) -> usize {
        self.rejections.len()
    }
}

/// `FitError.Error()` of v1.35 (§3.7), without the PostFilter part.
pub(crate) fn fit_error_message(num_all_nodes: usize, d: &Diagnosis) -> String {
    let mut msg = format!("0/{num_all_nodes} nodes are available:");
    if let Some(pre) = &d.pre_filter_msg {
        msg.push_str(&format!(" {pre}."));
        return msg;
    }
    let rejected = d
        .rejected()
        .flat_map(|(_, _, reasons)| reasons.iter().map(|r| (r, 1)))
        .chain(d.unknown_nodes.iter().map(|r| (r, 1)));
    let absent = match &d.absent {
        Some(absent) if d.len() < num_all_nodes => absent.reasons.as_slice(),
        _ => &[],
    };
    let entries = histogram(rejected.chain(absent.iter().map(|r| (r, num_all_nodes - d.len()))));
    if !entries.is_empty() {
        msg.push_str(&format!(" {}.", entries.join(", ")));
    }
    msg
}

/// The result of `SchedulePod`, before PostFilter.
pub(crate) struct CycleResult {
    /// The trace (outcome, node, message without the PostFilter part, tables with detail).
    pub trace: CycleTrace,
    /// Why nodes failed.
    pub diagnosis: Diagnosis,
    /// The plugins' states (PostFilter and preemption read them).
    pub states: CycleStates,
    /// Whether the failure is a `FitError` (PostFilter runs only then).
    pub fit_error: bool,
    /// Whether DynamicResources' PreFilter ran (its PostFilter needs its state).
    pub dra_pre_filter_ran: bool,
    /// The Filter plugins that run this cycle: (filter index, plugin index).
    pub filters: Vec<(usize, usize)>,
}

/// What one cycle reads besides its profile: the snapshot, every node in node-tree order, the
/// pod, the nominations, and the node in the pod's `status.nominatedNodeName` (if it exists).
pub(crate) struct CycleInput<'a> {
    /// The snapshot.
    pub cluster: &'a Cluster,
    /// Every node, in node-tree order.
    pub order: &'a [NodeId],
    /// The pod to schedule.
    pub pod: PodId,
    /// Every nominated pod, by node.
    pub nominations: &'a Nominations,
    /// The pod's nominated node, tried first.
    pub nominated: Option<NodeId>,
    /// Whether to record the filter and score tables.
    pub detail: bool,
    /// The scheduler's extenders (`None`: it has none).
    pub extenders: Option<&'a Caller<'a>>,
}

/// Runs one cycle of `profile` for the input's pod. `st` carries `nextStartNodeIndex` and the
/// seeded randomness from cycle to cycle (one for the scheduler, shared by its profiles);
/// `global_percentage` is the configuration's `percentageOfNodesToScore`.
pub(crate) fn schedule_pod(
    profile: &Profile,
    global_percentage: i32,
    st: &mut SchedulerState,
    input: &CycleInput,
) -> CycleResult {
    let (cluster, detail) = (input.cluster, input.detail);
    let all = input.order.len();
    let mut trace = CycleTrace::new(input.pod, all, st.next_start_node_index);
    let modern = ModernTrace {
        profile: if detail {
            profile.scheduler_name.clone()
        } else {
            String::new()
        },
        filter_names: Arc::clone(&profile.filter_names),
        score_names: Arc::clone(&profile.score_names),
        ..ModernTrace::default()
    };
    let result = CycleResult {
        trace: CycleTrace::new(input.pod, all, st.next_start_node_index),
        diagnosis: Diagnosis::default(),
        states: CycleStates::new(profile.plugins.len()),
        fit_error: false,
        dra_pre_filter_ran: false,
        filters: Vec::new(),
    };
    if all == 0 {
        trace.message = Some(NO_NODES_AVAILABLE.to_string());
        trace.modern = Some(Box::new(modern));
        return CycleResult { trace, ..result };
    }
    let mut cycle = Cycle {
        profile,
        cx: Cx {
            cluster,
            pod: &cluster.pods()[input.pod],
            order: input.order,
        },
        input,
        trace,
        modern,
        result,
        fresh_nodes: false,
    };
    let outcome = cycle.run(st, global_percentage);
    let Cycle {
        cx,
        mut trace,
        mut modern,
        mut result,
        ..
    } = cycle;
    if detail {
        modern.claims = claim_answers(profile, &cx, &result.states, &trace);
    }
    let outcome = outcome.and_then(|()| match (trace.outcome, trace.node) {
        (Outcome::Scheduled, Some(node)) => {
            let node = &cluster.nodes()[node];
            reserve_to_bind(profile, &cx, &result.states, node, detail, &mut modern)
        }
        _ => Ok(()),
    });
    if let Err(msg) = outcome {
        trace.outcome = Outcome::Error;
        trace.node = None;
        trace.message = Some(msg);
    }
    // Without details (`--summary`, benchmarks) only the decision is kept.
    trace.modern = detail.then(|| Box::new(modern));
    result.trace = trace;
    result
}

/// For a detailed trace: each Filter plugin's answer per resource claim on every node it
/// ran on (DynamicResources' allocator, claim by claim), in evaluation order.
fn claim_answers(
    profile: &Profile,
    cx: &Cx,
    states: &CycleStates,
    trace: &CycleTrace,
) -> Vec<NodeClaims> {
    let mut out = Vec::new();
    for (f, &i) in profile.points[Point::Filter as usize].iter().enumerate() {
        let plugin = &profile.plugins[i].plugin;
        for record in trace.filter.iter().filter(|r| r.result(f).is_some()) {
            let node = &cx.cluster.nodes()[record.node];
            let claims = plugin.claim_answers(cx, states.get(i), node);
            if !claims.is_empty() {
                out.push(NodeClaims {
                    node: record.node,
                    claims,
                });
            }
        }
    }
    out
}

/// Reserve and Permit for the chosen node, then the binding cycle's PreBind and Bind, each
/// plugin's status recorded. The in-tree plugins' work at these points is the simulation's
/// assume and bind steps, and none of them fails there, so a status other than Success (or
/// Skip, or Permit's Wait) is reported as an error of the cycle (upstream would Unreserve
/// and retry the pod).
fn reserve_to_bind(
    profile: &Profile,
    cx: &Cx,
    states: &CycleStates,
    node: &NodeInfo,
    detail: bool,
    modern: &mut ModernTrace,
) -> Result<(), String> {
    type Run = fn(&dyn Plugin, &Cx, Option<&dyn PluginState>, &NodeInfo) -> Status;
    let points: [(Point, &str, Run); 4] = [
        (Point::Reserve, "Reserve", |p, cx, s, n| p.reserve(cx, s, n)),
        (Point::Permit, "Permit", |p, cx, s, n| p.permit(cx, s, n)),
        (Point::PreBind, "PreBind", |p, cx, s, n| {
            p.pre_bind(cx, s, n)
        }),
        (Point::Bind, "Bind", |p, cx, s, n| p.bind(cx, s, n)),
    ];
    for (point, label, run) in points {
        for &i in &profile.points[point as usize] {
            let e = &profile.plugins[i];
            let status = run(&*e.plugin, cx, states.get(i), node);
            let code = status.code;
            if detail {
                let record = PluginStatus {
                    plugin: e.spec.name,
                    code,
                    message: status.message(),
                };
                match point {
                    Point::Reserve => modern.reserve.push(record),
                    Point::Permit => modern.permit.push(record),
                    Point::PreBind => modern.pre_bind.push(record),
                    _ => modern.bind.push(record),
                }
            }
            let fine = code == Code::Success
                || code == Code::Skip
                || (point == Point::Permit && code == Code::Wait);
            if !fine {
                return Err(format!(
                    "running {label} plugin {:?}: {}",
                    e.spec.name,
                    status.message()
                ));
            }
            if point == Point::Bind && code == Code::Success {
                break;
            }
        }
    }
    Ok(())
}

/// The filters at a profile's Filter point that run this cycle: (filter index, plugin index).
type ActiveFilters = Vec<(usize, usize)>;

/// One cycle in progress (`SchedulePod`): what it reads, and the trace and result it fills.
struct Cycle<'a> {
    profile: &'a Profile,
    cx: Cx<'a>,
    input: &'a CycleInput<'a>,
    trace: CycleTrace,
    modern: ModernTrace,
    result: CycleResult,
    /// An extender answered its filter with `Nodes`: the Score plugins see the nodes without
    /// their pods (kubernetes#141781, reproduced unless fixed by the scenario).
    fresh_nodes: bool,
}

/// What PreFilter left for the filters: the nodes its results narrowed the search to (`None`:
/// every node) and the plugins that narrowed it.
struct Narrowed {
    nodes: Option<BTreeSet<String>>,
    by: Vec<&'static str>,
}

impl<'a> Cycle<'a> {
    /// `SchedulePod` after its checks: PreFilter, the nominated node, `findNodesThatFit`,
    /// `prioritizeNodes` and `selectHost`; the trace says how it ended. An `Err` is a plugin's
    /// error, which ends the cycle with outcome `Error`.
    fn run(&mut self, st: &mut SchedulerState, global_percentage: i32) -> Result<(), String> {
        let Some(narrowed) = self.pre_filter()? else {
            return Ok(());
        };
        let visited = self.filters_to_visit();
        if self.nominated_node_fits(&visited)? {
            return Ok(());
        }
        let candidates = self.candidates(&narrowed);
        let feasible = self.find_nodes_that_fit(st, global_percentage, &candidates, &visited)?;
        let feasible = self.pass_extenders(feasible)?;
        self.select_host(st, &feasible)
    }

    /// `findNodesThatPassExtenders` after the Filter plugins: the nodes the extenders keep.
    /// Their failures join the diagnosis (`FailedAndUnresolvableNodes` as
    /// UnschedulableAndUnresolvable), and when they dropped a node `Extender` joins the
    /// rejectors, so any cluster event requeues the pod. An error ends the cycle.
    fn pass_extenders(&mut self, feasible: Vec<NodeId>) -> Result<Vec<NodeId>, String> {
        let Some(c) = self.input.extenders.filter(|c| c.any()) else {
            return Ok(feasible);
        };
        if feasible.is_empty() {
            return Ok(feasible);
        }
        let before = feasible.len();
        let passed = c.filter(
            self.cx.cluster,
            self.cx.pod,
            feasible,
            &mut self.trace.extenders,
        )?;
        let d = &mut self.result.diagnosis;
        for f in passed.failed {
            let code = if f.unresolvable {
                Code::UnschedulableAndUnresolvable
            } else {
                Code::Unschedulable
            };
            let reason = Reason::Message(f.message.into());
            match f.node {
                NamedNode::Known(id) => d.push_reasons(id, code, vec![reason]),
                NamedNode::Unknown(_) => d.unknown_nodes.push(reason),
            }
        }
        if passed.feasible.len() != before {
            d.unschedulable_plugins.insert(EXTENDER_NAME);
        }
        self.fresh_nodes = passed.fresh;
        self.trace.feasible = passed.feasible.len();
        Ok(passed.feasible)
    }

    /// The PreFilter plugins in order: their states, the nodes their results narrow the search
    /// to, the Filter plugins they skip. `None` when one rejected the pod (the trace then holds
    /// the FitError).
    fn pre_filter(&mut self) -> Result<Option<Narrowed>, String> {
        let (profile, detail) = (self.profile, self.input.detail);
        let mut skipped: Vec<usize> = Vec::new();
        let mut narrowed = Narrowed {
            nodes: None,
            by: Vec::new(),
        };
        let mut rejection: Option<(&'static str, Status)> = None;
        for &i in &profile.points[Point::PreFilter as usize] {
            let e = &profile.plugins[i];
            let name = e.spec.name;
            if name == "DynamicResources" {
                self.result.dra_pre_filter_ran = true;
            }
            let out = e.plugin.pre_filter(&self.cx);
            if detail {
                self.modern.pre_filter.push(PluginStatus {
                    plugin: name,
                    code: out.status.code,
                    message: out.status.message(),
                });
            }
            match out.status.code {
                Code::Success => {
                    self.result.states.states[i] = out.state;
                    if let Some(nodes) = out.nodes {
                        if let Some(status) = narrowed.narrow(name, nodes) {
                            rejection = Some((name, status));
                            break;
                        }
                    }
                }
                Code::Skip => skipped.push(i),
                Code::UnschedulableAndUnresolvable => {
                    rejection = Some((name, out.status));
                    break;
                }
                Code::Unschedulable => {
                    self.result.states.states[i] = out.state;
                    if rejection.is_none() {
                        rejection = Some((name, out.status));
                    }
                }
                _ => {
                    return Err(format!(
                        "running PreFilter plugin {:?}: {}",
                        name,
                        out.status.message()
                    ))
                }
            }
        }
        let filter_point = &profile.points[Point::Filter as usize];
        self.result.filters = filter_point
            .iter()
            .enumerate()
            .filter(|(_, i)| !skipped.contains(i))
            .map(|(f, &i)| (f, i))
            .collect();
        if detail {
            self.modern.skipped_filters = filter_point
                .iter()
                .enumerate()
                .filter(|(_, i)| skipped.contains(i))
                .map(|(f, _)| f)
                .collect();
        }
        let Some((plugin, status)) = rejection else {
            return Ok(Some(narrowed));
        };
        let d = &mut self.result.diagnosis;
        d.pre_filter_msg = Some(status.message());
        d.unschedulable_plugins.insert(plugin);
        d.absent = Some(status);
        self.fit_error();
        Ok(None)
    }

    /// Filters that pass every node this cycle are only visited when the trace records them.
    fn filters_to_visit(&self) -> ActiveFilters {
        let filters = &self.result.filters;
        if self.input.detail {
            return filters.clone();
        }
        filters
            .iter()
            .copied()
            .filter(|&(_, i)| !self.profile.plugins[i].plugin.passes_everywhere(&self.cx))
            .collect()
    }

    /// The pod's nominated node, tried first: whether it passed (then it is the cycle's node,
    /// without scoring). A node that fails is recorded in the diagnosis.
    fn nominated_node_fits(&mut self, visited: &[(usize, usize)]) -> Result<bool, String> {
        let Some(node) = self.input.nominated else {
            return Ok(false);
        };
        let d = &mut self.result.diagnosis;
        let info = &self.cx.cluster.nodes()[node];
        let mut record = NodeFilterRecord {
            node,
            ..NodeFilterRecord::default()
        };
        let start = d.reasons.len();
        let code = filter_with_nominated(
            self.profile,
            visited,
            &self.result.states,
            &self.cx,
            info,
            self.input.nominations,
            &mut d.reasons,
            &mut record,
            self.input.detail,
        )?;
        self.modern.nominated_node = Some((node, code == Code::Success));
        if code != Code::Success {
            note_rejection(d, self.profile, &record, node, code);
            return Ok(false);
        }
        d.reasons.truncate(start);
        // evaluateNominatedNode runs the extenders' filters on it too; a rejection or an
        // error (only logged upstream) leaves the decision to the full scan.
        if let Some(c) = self.input.extenders.filter(|c| c.has_filters()) {
            let kept = c.filter(
                self.cx.cluster,
                self.cx.pod,
                vec![node],
                &mut self.trace.extenders,
            );
            if !kept.is_ok_and(|k| !k.feasible.is_empty()) {
                self.modern.nominated_node = Some((node, false));
                return Ok(false);
            }
        }
        let trace = &mut self.trace;
        trace.outcome = Outcome::Scheduled;
        trace.node = Some(node);
        trace.tie_set = vec![node];
        trace.feasible = 1;
        trace.evaluated = 1;
        if self.input.detail {
            trace.filter.push(record);
            self.modern.node_codes.push(code);
        }
        Ok(true)
    }

    /// The nodes to filter: every node, or those a PreFilter result narrowed the search to
    /// (then the others' status is that they did not satisfy those plugins).
    fn candidates(&mut self, narrowed: &Narrowed) -> Cow<'a, [NodeId]> {
        let order = self.cx.order;
        let Some(names) = &narrowed.nodes else {
            return Cow::Borrowed(order);
        };
        let cluster = self.cx.cluster;
        let candidates: Vec<NodeId> = order
            .iter()
            .copied()
            .filter(|&n| names.contains(cluster.nodes()[n].name()))
            .collect();
        self.modern.pre_filter_nodes = Some(candidates.len());
        let mut by = narrowed.by.clone();
        by.sort_unstable();
        self.result.diagnosis.absent = Some(Status::new(
            Code::UnschedulableAndUnresolvable,
            format!("node(s) didn't satisfy plugin(s) [{}]", by.join(" ")),
        ));
        Cow::Owned(candidates)
    }

    /// `findNodesThatFit` over `candidates` from `nextStartNodeIndex`, wrapping around, until
    /// `numFeasibleNodesToFind` nodes fit (one node when no Score plugin runs): the feasible
    /// nodes, in the order found. The rejected nodes go into the diagnosis.
    fn find_nodes_that_fit(
        &mut self,
        st: &mut SchedulerState,
        global_percentage: i32,
        candidates: &[NodeId],
        visited: &[(usize, usize)],
    ) -> Result<Vec<NodeId>, String> {
        let (profile, detail) = (self.profile, self.input.detail);
        let nominated = self.input.nominated;
        let all = self.cx.order.len();
        let n = candidates.len();
        let extenders = self.input.extenders;
        let to_find = if profile.points[Point::Score as usize].is_empty()
            && !extenders.is_some_and(|c| c.has_filters() || c.has_prioritizers())
        {
            1
        } else {
            let pct = profile
                .percentage_of_nodes_to_score
                .unwrap_or(global_percentage);
            num_feasible_nodes_to_find(n, pct)
        };
        self.trace.num_to_find = to_find;
        let mut feasible: Vec<NodeId> = Vec::with_capacity(to_find.min(n));
        let start = st.next_start_node_index % n.max(1);
        let mut evaluated = 0;
        // The nominated node's status counts once in `NodeToStatus` even when the scan meets it
        // again.
        let nominated_failed = self.modern.nominated_node.is_some();
        if !detail && to_find >= n && split_scan(n) {
            self.append_parts(
                filter_in_parts(
                    profile,
                    visited,
                    &self.result.states,
                    &self.cx,
                    self.input.nominations,
                    (candidates, start),
                ),
                nominated.filter(|_| nominated_failed),
                &mut feasible,
            )?;
            evaluated = n;
        }
        // The nodes from `start` on, wrapping around (no division per node).
        let rotated = candidates[start..].iter().chain(&candidates[..start]);
        for &node in rotated.skip(evaluated) {
            if feasible.len() >= to_find {
                break;
            }
            evaluated += 1;
            let d = &mut self.result.diagnosis;
            let mut record = NodeFilterRecord {
                node,
                ..NodeFilterRecord::default()
            };
            let code = filter_with_nominated(
                profile,
                visited,
                &self.result.states,
                &self.cx,
                &self.cx.cluster.nodes()[node],
                self.input.nominations,
                &mut d.reasons,
                &mut record,
                detail,
            )?;
            if detail {
                self.trace.filter.push(record.clone());
                self.modern.node_codes.push(code);
            }
            if code == Code::Success {
                feasible.push(node);
            } else {
                let again = nominated_failed && Some(node) == nominated;
                reject(d, profile, &record, node, code, again);
            }
        }
        let processed = feasible.len() + self.result.diagnosis.len();
        st.next_start_node_index = (st.next_start_node_index + processed) % all;
        self.trace.evaluated = evaluated;
        self.trace.feasible = feasible.len();
        Ok(feasible)
    }

    /// Takes a split scan's two parts in node order: their feasible nodes into `feasible`,
    /// their rejections into the diagnosis (the nominated node's first entry, `again`, replaced
    /// by the scan's), or the first error.
    fn append_parts(
        &mut self,
        parts: [ScannedPart; 2],
        again: Option<NodeId>,
        feasible: &mut Vec<NodeId>,
    ) -> Result<(), String> {
        let profile = self.profile;
        let d = &mut self.result.diagnosis;
        for part in parts {
            if let Some(e) = part.error {
                return Err(e);
            }
            feasible.extend(part.feasible);
            if let Some(node) = again {
                if part.rejections.iter().any(|r| r.node == node) {
                    d.forget(node);
                }
            }
            for (f, _) in part.stopped_at.iter().enumerate().filter(|(_, s)| **s) {
                let i = profile.points[Point::Filter as usize][f];
                d.note_plugin(i, profile.plugins[i].spec.name);
            }
            d.append_part(part.rejections, part.reasons);
        }
        Ok(())
    }

    /// No node fit: the trace holds v1.35's FitError text (PostFilter's part comes later).
    fn fit_error(&mut self) {
        let all = self.cx.order.len();
        self.trace.outcome = Outcome::Unschedulable;
        self.trace.message = Some(fit_error_message(all, &self.result.diagnosis));
        self.result.fit_error = true;
    }

    /// The cycle's node among the feasible ones: the only one, or the seeded uniform choice
    /// among the best totals of `prioritizeNodes`; a FitError when there is none.
    fn select_host(&mut self, st: &mut SchedulerState, feasible: &[NodeId]) -> Result<(), String> {
        match feasible {
            [] => {
                self.fit_error();
                return Ok(());
            }
            &[only] => {
                self.trace.outcome = Outcome::Scheduled;
                self.trace.node = Some(only);
                self.trace.tie_set = vec![only];
                return Ok(());
            }
            _ => {}
        }
        let cluster = self.cx.cluster;
        // kubernetes#141781: fresh NodeInfos, the node alone (no pods, no image states).
        let fresh: Vec<NodeInfo> = if self.fresh_nodes {
            feasible
                .iter()
                .map(|&n| {
                    let mut node = cluster.nodes()[n].object().clone();
                    node.status.images.clear();
                    NodeInfo::new(node, n)
                })
                .collect()
        } else {
            Vec::new()
        };
        let nodes: Vec<&NodeInfo> = if self.fresh_nodes {
            fresh.iter().collect()
        } else {
            feasible.iter().map(|&n| &cluster.nodes()[n]).collect()
        };
        if self.input.detail && self.fresh_nodes {
            self.modern.fresh_nodes = true;
        }
        let extenders = self.input.extenders.filter(|c| c.any());
        let mut totals = match extenders {
            // No Score plugin but extenders: every plugin total is 0, the extenders add theirs.
            Some(_) if self.profile.points[Point::Score as usize].is_empty() => {
                vec![0; nodes.len()]
            }
            _ => prioritize(
                self.profile,
                &self.cx,
                &self.result.states,
                &nodes,
                self.input.detail,
                (&mut self.trace, &mut self.modern),
                &mut st.scratch,
            )?,
        };
        if let Some(c) = extenders {
            c.prioritize(
                cluster,
                self.cx.pod,
                &nodes,
                &mut totals,
                &mut self.trace.extenders,
            );
            if self.input.detail {
                self.trace.record_totals(&nodes, &totals);
            }
        }
        // selectHost: the seeded uniform choice among the best totals.
        let selected = feasible[select_host(&totals, &mut st.rng)];
        if self.input.detail {
            self.trace.tie_set = ties_of_best(&totals).map(|i| feasible[i]).collect();
        }
        self.trace.outcome = Outcome::Scheduled;
        self.trace.node = Some(selected);
        Ok(())
    }
}

impl Narrowed {
    /// Intersects the search with `nodes`, a PreFilter result of `plugin`: the status that
    /// rejects the pod when nothing is left.
    fn narrow(&mut self, plugin: &'static str, nodes: BTreeSet<String>) -> Option<Status> {
        self.by.push(plugin);
        let merged = match self.nodes.take() {
            None => nodes,
            Some(prev) => prev.intersection(&nodes).cloned().collect(),
        };
        if !merged.is_empty() {
            self.nodes = Some(merged);
            return None;
        }
        self.by.sort_unstable();
        let msg = if self.by.len() == 1 {
            format!("node(s) didn't satisfy plugin {}", self.by[0])
        } else {
            format!(
                "node(s) didn't satisfy plugin(s) [{}] simultaneously",
                self.by.join(" ")
            )
        };
        Some(Status::new(Code::UnschedulableAndUnresolvable, msg))
    }
}

/// Adds `scores` times `weight` to `totals` (wrapping), and says whether every score is in
/// `[0, MaxNodeScore]`: the range check and the weighted sum in one pass (a negative score, as
/// unsigned, is above MaxNodeScore too).
fn add_weighted_in_range(totals: &mut [i64], scores: &[i64], weight: i64) -> bool {
    let mut in_range = true;
    for (total, &score) in totals.iter_mut().zip(scores) {
        in_range &= (score as u64) <= MAX_NODE_SCORE as u64;
        *total = total.wrapping_add(score.wrapping_mul(weight));
    }
    in_range
}

/// One scanned part of the nodes ([`filter_in_parts`]): what the loop over the part's nodes
/// would have added to the [`Diagnosis`], for the caller to append in node order.
struct ScannedPart {
    /// The feasible nodes.
    feasible: Vec<NodeId>,
    /// The first error, which ends the scan of the part.
    error: Option<String>,
    /// The rejected nodes, their ends counted in `reasons`.
    rejections: Vec<Rejection>,
    /// Their reasons.
    reasons: Vec<Reason>,
    /// Which filters (positions in the profile's Filter list) rejected a node.
    stopped_at: Vec<bool>,
}

/// The filters over every node of `order`, starting at `start` and wrapping around (no
/// trace), in two parts side by side ([`crate::sched::split_scan::cut`]); the caller takes the parts in
/// order, which gives what the loop over all the nodes would: the same feasible nodes,
/// rejections, reasons and first error.
fn filter_in_parts(
    profile: &Profile,
    visited: &[(usize, usize)],
    states: &CycleStates,
    cx: &Cx,
    nominations: &Nominations,
    (order, start): (&[NodeId], usize),
) -> [ScannedPart; 2] {
    let scan = |ids: RotatedPart<NodeId>| -> ScannedPart {
        let mut part = ScannedPart {
            feasible: Vec::with_capacity(ids.size_hint().0),
            error: None,
            rejections: Vec::new(),
            reasons: Vec::new(),
            stopped_at: vec![false; profile.points[Point::Filter as usize].len()],
        };
        // One record for the whole part: without a trace it keeps no failures, only `ran`.
        let mut record = NodeFilterRecord::default();
        for &node in ids {
            record.node = node;
            record.ran = 0;
            let code = match filter_with_nominated(
                profile,
                visited,
                states,
                cx,
                &cx.cluster.nodes()[node],
                nominations,
                &mut part.reasons,
                &mut record,
                false,
            ) {
                Ok(code) => code,
                Err(e) => {
                    part.error = Some(e);
                    return part;
                }
            };
            if code == Code::Success {
                part.feasible.push(node);
            } else {
                // The filters stop at the first rejection: the last one that ran rejected
                // the node.
                if let Some(f) = record.ran.checked_sub(1) {
                    part.stopped_at[f] = true;
                }
                part.rejections.push(Rejection {
                    node,
                    code,
                    end: part.reasons.len(),
                });
            }
        }
        part
    };
    let [first, second] = rotated_parts(order, start, cut(Scan::Filters, order.len()));
    let (a, b) = join_cut(Scan::Filters, || scan(first), || scan(second));
    [a, b]
}

/// Records a node the filters rejected; `again` when it is the nominated node, tried first
/// and met again by the scan, whose first entry this one replaces (same verdict).
fn reject(
    d: &mut Diagnosis,
    profile: &Profile,
    record: &NodeFilterRecord,
    node: NodeId,
    code: Code,
    again: bool,
) {
    if again {
        d.forget(node);
    }
    note_rejection(d, profile, record, node, code);
}

/// Records `node`'s rejection (its reasons are already at the end of `d.reasons`).
fn note_rejection(
    d: &mut Diagnosis,
    profile: &Profile,
    record: &NodeFilterRecord,
    node: NodeId,
    code: Code,
) {
    // The filters stop at the first rejection: the last one that ran rejected the node.
    if let Some(f) = record.ran.checked_sub(1) {
        let i = profile.points[Point::Filter as usize][f];
        d.note_plugin(i, profile.plugins[i].spec.name);
    }
    d.push(node, code);
}

/// `RunFilterPluginsWithNominatedPods`: with the pods of equal or higher priority nominated
/// to the node added (pass 1, on copies of the node and the states), then without them
/// (pass 2, only when pass 1 added pods and passed). The reasons of a rejection are appended
/// to `reasons`; `record` gets what the trace shows (the deciding pass).
#[allow(clippy::too_many_arguments)]
pub(crate) fn filter_with_nominated(
    profile: &Profile,
    filters: &[(usize, usize)],
    states: &CycleStates,
    cx: &Cx,
    node: &NodeInfo,
    nominations: &Nominations,
    reasons: &mut Vec<Reason>,
    record: &mut NodeFilterRecord,
    keep_failures: bool,
) -> Result<Code, String> {
    let run = |states: &CycleStates,
               node: &NodeInfo,
               record: &mut NodeFilterRecord,
               reasons: &mut Vec<Reason>| {
        run_filters(
            profile,
            filters,
            states,
            cx,
            node,
            reasons,
            record,
            keep_failures,
        )
    };
    if nominations.is_empty() {
        return run(states, node, record, reasons);
    }
    let priority = cx.pod.priority;
    let mut adding = nominations
        .to(node.id())
        .iter()
        .filter(|n| n.priority >= priority && !std::ptr::eq(&*cx.cluster.pods()[n.pod], cx.pod))
        .peekable();
    if adding.peek().is_some() {
        let mut copy = node.clone();
        let mut copied = states.clone();
        for n in adding {
            let added = &cx.cluster.pods()[n.pod];
            cx.cluster.add_to(&mut copy, n.pod);
            for &i in &profile.points[Point::PreFilter as usize] {
                if let Some(s) = copied.states[i].as_deref_mut() {
                    profile.plugins[i].plugin.add_pod(cx, s, added, &copy);
                }
            }
        }
        let code = run(&copied, &copy, record, reasons)?;
        if code != Code::Success {
            return Ok(code);
        }
        record.ran = 0;
        record.failures.clear();
    }
    run(states, node, record, reasons)
}

/// `RunFilterPlugins`: the filters in order, stopping at the first that does not succeed.
/// `record.failures` gets the rejection only with `keep_failures` (a trace's detail).
#[allow(clippy::too_many_arguments)]
fn run_filters(
    profile: &Profile,
    filters: &[(usize, usize)],
    states: &CycleStates,
    cx: &Cx,
    node: &NodeInfo,
    reasons: &mut Vec<Reason>,
    record: &mut NodeFilterRecord,
    keep_failures: bool,
) -> Result<Code, String> {
    for &(f, i) in filters {
        let before = reasons.len();
        let e = &profile.plugins[i];
        let code = e.plugin.filter(cx, states.get(i), node, reasons);
        record.ran = f + 1;
        match code {
            Code::Success => {}
            Code::Unschedulable | Code::UnschedulableAndUnresolvable | Code::Pending => {
                if keep_failures {
                    record.failures.push((f, reasons[before..].to_vec()));
                }
                return Ok(code);
            }
            _ => {
                let msg = reasons[before..]
                    .iter()
                    .map(|r| r.to_string())
                    .collect::<Vec<_>>()
                    .join(", ");
                reasons.truncate(before);
                return Err(format!("running {:?} filter plugin: {msg}", e.spec.name));
            }
        }
    }
    Ok(Code::Success)
}

/// A Score plugin that runs this cycle: its Score index, its profile index, its PreScore state.
type RunningScore<'s> = (usize, usize, Option<&'s dyn PluginState>);

/// The PreScore plugins' states (by profile index) and the plugins that returned Skip.
type PreScored = (Vec<(usize, Option<Box<dyn PluginState>>)>, Vec<usize>);

/// `prioritizeNodes`: PreScore, Score, NormalizeScore, weights; the totals in node order.
/// `scratch` holds the raw and normalised score buffers from cycle to cycle.
fn prioritize(
    profile: &Profile,
    cx: &Cx,
    states: &CycleStates,
    nodes: &[&NodeInfo],
    detail: bool,
    (trace, modern): (&mut CycleTrace, &mut ModernTrace),
    scratch: &mut (Vec<i64>, Vec<i64>),
) -> Result<Vec<i64>, String> {
    let n = nodes.len();
    let score_points = &profile.points[Point::Score as usize];
    if score_points.is_empty() {
        if detail {
            trace.totals = nodes.iter().map(|node| (node.id(), 1)).collect();
        }
        return Ok(vec![1; n]);
    }
    let (pre_states, skip) = pre_score(profile, cx, nodes, detail.then_some(&mut *modern))?;
    let mut totals = vec![0i64; n];
    if detail {
        trace.scores = nodes
            .iter()
            .map(|node| NodeScoreRecord {
                node: node.id(),
                entries: Vec::new(),
            })
            .collect();
    }
    // The Score plugins that run, with their PreScore state; a plugin without PreScore reads
    // the state its PreFilter wrote (upstream's one CycleState: DynamicResources' Score reads
    // the allocations its Filter found).
    let pre_scoring = &profile.points[Point::PreScore as usize];
    let running: Vec<RunningScore> = score_points
        .iter()
        .enumerate()
        .filter(|(_, i)| !skip.contains(i))
        .map(|(s, &i)| {
            let state = if pre_scoring.contains(&i) {
                pre_states
                    .iter()
                    .find(|(p, _)| *p == i)
                    .and_then(|(_, s)| s.as_deref())
            } else {
                states.get(i)
            };
            (s, i, state)
        })
        .collect();
    let (all_raw, scores) = scratch;
    let added = raw_scores(profile, cx, nodes, &running, detail, all_raw, &mut totals)?;
    scores.clear();
    scores.resize(n, 0);
    for (r, &(s, i, state)) in running.iter().enumerate() {
        if added[r] {
            continue;
        }
        let e = &profile.plugins[i];
        let raw = &all_raw[r * n..(r + 1) * n];
        scores.copy_from_slice(raw);
        e.plugin.normalize(cx, state, nodes, scores);
        // A split scan skips `normalize` where `normalizes()` says it changes nothing.
        debug_assert!(
            e.plugin.normalizes() || scores == raw,
            "{}: normalizes() is false, but normalize changed the scores",
            e.spec.name
        );
        if !add_weighted_in_range(&mut totals, scores, e.weight) {
            return Err(invalid_score(e.spec.name, scores));
        }
        if detail {
            modern.scored.push(s);
            for k in 0..n {
                trace.scores[k].entries.push(ScoreRecord {
                    raw: raw[k],
                    score: scores[k],
                    weight: e.weight,
                });
            }
        }
    }
    if detail {
        trace.record_totals(nodes, &totals);
    }
    Ok(totals)
}

/// The PreScore plugins in order (each status recorded in `modern` when there is one): their
/// states and the plugins that returned Skip; an error ends the cycle.
fn pre_score(
    profile: &Profile,
    cx: &Cx,
    nodes: &[&NodeInfo],
    mut modern: Option<&mut ModernTrace>,
) -> Result<PreScored, String> {
    let mut pre_states = Vec::new();
    let mut skip: Vec<usize> = Vec::new();
    for &i in &profile.points[Point::PreScore as usize] {
        let e = &profile.plugins[i];
        let out = e.plugin.pre_score(cx, nodes);
        if let Some(m) = modern.as_deref_mut() {
            m.pre_score.push(PluginStatus {
                plugin: e.spec.name,
                code: out.status.code,
                message: out.status.message(),
            });
        }
        match out.status.code {
            Code::Success => pre_states.push((i, out.state)),
            Code::Skip => skip.push(i),
            _ => {
                return Err(format!(
                    "running PreScore plugin {:?}: {}",
                    e.spec.name,
                    out.status.message()
                ))
            }
        }
    }
    Ok((pre_states, skip))
}

/// Every running plugin's raw scores of `nodes`, a row of `all_raw` each (plugin after plugin:
/// each call is independent of the others, and a plugin reads its PreScore state once per
/// cycle). Without details, on a big cluster, the two parts of the nodes are scored side by
/// side, and a plugin without NormalizeScore is weighted and added to `totals` in each part:
/// which plugins were, by row. The first error in plugin order, then node order.
fn raw_scores(
    profile: &Profile,
    cx: &Cx,
    nodes: &[&NodeInfo],
    running: &[RunningScore],
    detail: bool,
    all_raw: &mut Vec<i64>,
    totals: &mut [i64],
) -> Result<Vec<bool>, String> {
    let n = nodes.len();
    // Every row is written whole below (a uniform score fills it): no need to zero it first.
    all_raw.resize(n * running.len(), 0);
    // One plugin's raw scores of `nodes` into `raw`.
    let score = |&(_, i, state): &RunningScore, nodes: &[&NodeInfo], raw: &mut [i64]| {
        let e = &profile.plugins[i];
        match e.plugin.uniform_score(cx, state) {
            Some(v) => {
                raw.fill(v);
                Ok(())
            }
            None => e
                .plugin
                .score_nodes(cx, state, nodes, raw)
                .map_err(|m| format!("running Score plugin {:?}: {m}", e.spec.name)),
        }
    };
    let mut added = vec![false; running.len()];
    if !detail && n > 0 && split_scan(n) {
        // Where a part finds a score out of range, the caller adds the plugin again and
        // reports the invalid score (the totals go unused).
        let done = rows_in_parts(
            running,
            nodes,
            all_raw,
            totals,
            |plugin, nodes, raw, totals| {
                score(plugin, nodes, raw)?;
                let e = &profile.plugins[plugin.1];
                Ok::<bool, String>(
                    !e.plugin.normalizes() && add_weighted_in_range(totals, raw, e.weight),
                )
            },
        );
        for (r, (a, b)) in done.into_iter().enumerate() {
            let (a, b) = (a?, b?);
            added[r] = a && b;
        }
    } else {
        for (r, plugin) in running.iter().enumerate() {
            score(plugin, nodes, &mut all_raw[r * n..(r + 1) * n])?;
        }
    }
    Ok(added)
}

/// `prioritizeNodes`' error for a plugin whose normalised scores leave `[0, MaxNodeScore]`,
/// naming the first such score in node order.
fn invalid_score(plugin: &str, scores: &[i64]) -> String {
    let bad = scores
        .iter()
        .find(|s| !(0..=MAX_NODE_SCORE).contains(*s))
        .copied()
        .unwrap_or_default();
    format!(
        "plugin {plugin:?} returns an invalid score {bad}, it should in the range of [0, {MAX_NODE_SCORE}] after normalizing"
    )
}

#[cfg(test)]
mod tests {
    //! `prioritizeNodes`' range check (reference `modern.md` §3.5): no in-tree plugin gives a
    //! score outside `[0, 100]` after normalizing, so a plugin of the test's own does.

    use super::*;
    use crate::cluster::PodInfo;
    use crate::testing::{cluster, node, pod};
    use crate::v135::plugin::{PluginSpec, Points};
    use crate::v135::profile::Enabled;
    use serde_json::json;

    /// A Score plugin without `NormalizeScore`: node `i` gets `scores[i]`.
    struct Fixed(Vec<i64>);

    impl Plugin for Fixed {
        fn name(&self) -> &'static str {
            "Fixed"
        }
        fn score(
            &self,
            _cx: &Cx,
            _state: Option<&dyn PluginState>,
            node: &NodeInfo,
        ) -> Result<i64, String> {
            Ok(self.0[node.id()])
        }
        fn normalizes(&self) -> bool {
            false
        }
    }

    static FIXED: PluginSpec = PluginSpec {
        name: "Fixed",
        points: Points::of(&[Point::Score]),
        default_enabled: false,
        default_weight: None,
        args_kind: None,
        args_checked_by_validation: false,
        build: |_| Err(Vec::new()),
    };

    /// `prioritize` of a profile whose one Score plugin (weight 2) gives `scores`, one per node,
    /// without and with the cycle's details; both answers.
    fn prioritize_fixed(scores: &[i64]) -> [Result<Vec<i64>, String>; 2] {
        let nodes = (0..scores.len())
            .map(|i| node(json!({ "metadata": { "name": format!("n{i}") } })))
            .collect();
        let c = cluster(nodes, Vec::new());
        let incoming = PodInfo::new_v135(pod(json!({ "metadata": { "name": "p" } })), 0, 0);
        let order: Vec<NodeId> = (0..scores.len()).collect();
        let cx = Cx {
            cluster: &c,
            pod: &incoming,
            order: &order,
        };
        let mut points: [Vec<usize>; 12] = std::array::from_fn(|_| Vec::new());
        points[Point::Score as usize] = vec![0];
        let profile = Profile::new(
            "default-scheduler".into(),
            None,
            vec![Enabled {
                spec: &FIXED,
                plugin: Box::new(Fixed(scores.to_vec())),
                weight: 2,
            }],
            points,
        );
        let feasible: Vec<&NodeInfo> = c.nodes().iter().collect();
        [false, true].map(|detail| {
            let mut trace = CycleTrace::new(0, scores.len(), 0);
            let mut modern = ModernTrace::default();
            let mut scratch = (Vec::new(), Vec::new());
            prioritize(
                &profile,
                &cx,
                &CycleStates::new(1),
                &feasible,
                detail,
                (&mut trace, &mut modern),
                &mut scratch,
            )
        })
    }

    /// The error upstream's framework returns for `bad`.
    fn invalid(bad: i64) -> Result<Vec<i64>, String> {
        Err(format!(
            "plugin \"Fixed\" returns an invalid score {bad}, it should in the range of [0, 100] after normalizing"
        ))
    }

    #[test]
    fn scores_in_range_are_weighted() {
        // 0 and 100 are the ends of the range, both allowed; weight 2.
        for answer in prioritize_fixed(&[0, 100, 37]) {
            assert_eq!(answer, Ok(vec![0, 200, 74]));
        }
    }

    #[test]
    fn a_score_out_of_range_is_an_error_naming_the_plugin_and_the_first_bad_score() {
        // `plugin %q returns an invalid score %v, it should in the range of [%v, %v] after
        // normalizing`, with MinNodeScore 0 and MaxNodeScore 100; the first bad node in node
        // order is the one reported.
        for answer in prioritize_fixed(&[50, 101, -5]) {
            assert_eq!(answer, invalid(101));
        }
        for answer in prioritize_fixed(&[-1, 50, 50]) {
            assert_eq!(answer, invalid(-1));
        }
        // The most negative score, whose weighted sum wraps, is out of range too.
        for answer in prioritize_fixed(&[i64::MIN, 0]) {
            assert_eq!(answer, invalid(i64::MIN));
        }
    }

    #[cfg(feature = "parallel")]
    #[test]
    fn a_split_scan_reports_the_same_bad_score() {
        // 1200 nodes under a helper on two threads: without details the scores are computed
        // in two parts side by side, cut at node 600 (a run's first cut is half and half).
        // One bad score in each part: the one reported is the first in node order, as on one
        // thread (and as the detailed answer, computed on one thread, says).
        let mut scores = vec![40; 1200];
        scores[100] = 101;
        scores[1100] = 250;
        let split = crate::parallel::with_threads(2, || {
            crate::parallel::with_helper(|| {
                assert!(split_scan(1200), "the scan was not split");
                prioritize_fixed(&scores)
            })
        })
        .expect("a pool");
        assert_eq!(split, [invalid(101), invalid(101)]);
        // Only the helper's part holds a bad score.
        scores[100] = 40;
        let split = crate::parallel::with_threads(2, || {
            crate::parallel::with_helper(|| prioritize_fixed(&scores))
        })
        .expect("a pool");
        assert_eq!(split, [invalid(250), invalid(250)]);
    }
}
