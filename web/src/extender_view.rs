//! What the cycle inspector shows of a cycle's scheduler extenders (the HTTP webhooks): each
//! call per phase (`findNodesThatFit`'s filter, `prioritizeNodes`' prioritize, `preempt`,
//! `bind`) with its request and reply, the nodes it kept or failed and the scores it gave; and
//! the extenders' columns in the filter and score tables, beside the plugins'.
//!
//! Pure: built from the core's trace ([`ExtenderCall`]), no signals, no DOM.

use crate::analysis::{CycleView, FilterCell, Phase};
use schedlab_core::simulation::Cluster;
use schedlab_core::trace::{
    CycleTrace, ExtenderCall, ExtenderSource, ExtenderVerb, NamedNode, ScoreRecord,
};
use serde::{Deserialize, Serialize};

/// `MaxNodeScore / MaxExtenderPriority`: an extender's 0-10 answer counts ×10 (then × its
/// weight), never clamped.
pub const EXTENDER_SCALE: i64 = 10;

/// One call to an extender, ready to render.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CallView {
    /// The extender's `urlPrefix` (its name upstream).
    pub extender: String,
    /// `filter`, `prioritize`, `preempt` or `bind`.
    pub verb: String,
    /// The inspector section it belongs to.
    pub phase: String,
    /// Who answered: `mock`, `recording` or `live`.
    pub source: String,
    /// The call's error (`failed filter with extender at URL ..., code 500`, a timeout, ...).
    pub error: Option<String>,
    /// Whether the error was skipped: the extender is `ignorable` (filter, preempt, v1.35's
    /// bind), or it was a prioritize call (whose errors are always ignored).
    pub ignored: bool,
    /// filter: the nodes sent.
    pub sent: Vec<String>,
    /// filter: the nodes it kept.
    pub kept: Vec<String>,
    /// filter: the nodes it failed, each with its message.
    pub failed: Vec<FailedNode>,
    /// filter: the nodes it left out without a message (v1.17 does not read
    /// `FailedAndUnresolvableNodes`: such nodes are simply missing).
    pub dropped: Vec<String>,
    /// filter (v1.35): the kept nodes came back as `Nodes`, fresh NodeInfos without their
    /// pods, which the Score plugins then read (kubernetes#141781).
    pub fresh_nodes: bool,
    /// prioritize: each node's answer: (node, raw 0-10, raw × weight × 10).
    pub scores: Vec<(String, i64, i64)>,
    /// prioritize: the weight.
    pub weight: i64,
    /// preempt: the nodes it left, each with its victim count.
    pub victims: Vec<(String, usize)>,
    /// bind: the node.
    pub node: Option<String>,
    /// The request body (`None` when too large to keep).
    pub request: Option<String>,
    /// The reply body, or what happened instead (`HTTP 500`, a timeout).
    pub reply: Option<String>,
}

/// A node an extender's filter failed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailedNode {
    /// The node's name (as the extender wrote it).
    pub node: String,
    /// The extender's message.
    pub message: String,
    /// `FailedAndUnresolvableNodes` (v1.35: preemption will not try the node).
    pub unresolvable: bool,
    /// The name is no node of the cluster.
    pub unknown: bool,
}

fn source_name(s: ExtenderSource) -> &'static str {
    match s {
        ExtenderSource::Mock => "mock",
        ExtenderSource::Recording => "recording",
        ExtenderSource::Live => "live",
    }
}

fn phase_of(verb: ExtenderVerb) -> Phase {
    match verb {
        ExtenderVerb::Filter => Phase::Filter,
        ExtenderVerb::Prioritize => Phase::Score,
        ExtenderVerb::Preempt => Phase::Preempt,
        ExtenderVerb::Bind => Phase::Bind,
    }
}

/// One call as the inspector shows it; `name` gives a node id's name.
pub fn call_view(call: &ExtenderCall, name: &dyn Fn(usize) -> String) -> CallView {
    let names = |ids: &[usize]| ids.iter().map(|&n| name(n)).collect::<Vec<_>>();
    let failed: Vec<FailedNode> = call
        .failed
        .iter()
        .map(|f| match &f.node {
            NamedNode::Known(id) => FailedNode {
                node: name(*id),
                message: f.message.clone(),
                unresolvable: f.unresolvable,
                unknown: false,
            },
            NamedNode::Unknown(n) => FailedNode {
                node: n.clone(),
                message: f.message.clone(),
                unresolvable: f.unresolvable,
                unknown: true,
            },
        })
        .collect();
    let dropped = if call.error.is_none() && call.verb == ExtenderVerb::Filter {
        call.sent
            .iter()
            .filter(|n| !call.kept.contains(n))
            .map(|&n| name(n))
            .filter(|n| !failed.iter().any(|f| f.node == *n))
            .collect()
    } else {
        Vec::new()
    };
    CallView {
        extender: call.extender.clone(),
        verb: call.verb.as_str().to_string(),
        phase: phase_of(call.verb).function().to_string(),
        source: source_name(call.source).to_string(),
        error: call.error.clone(),
        ignored: call.ignored || (call.error.is_some() && call.verb == ExtenderVerb::Prioritize),
        sent: names(&call.sent),
        kept: names(&call.kept),
        failed,
        dropped,
        fresh_nodes: call.fresh_nodes,
        scores: call
            .scores
            .iter()
            .map(|&(n, raw)| {
                let weighted = raw.wrapping_mul(call.weight).wrapping_mul(EXTENDER_SCALE);
                (name(n), raw, weighted)
            })
            .collect(),
        weight: call.weight,
        victims: call.victims.iter().map(|&(n, k)| (name(n), k)).collect(),
        node: call.node.clone(),
        request: call.texts.request.clone(),
        reply: call.texts.reply.clone(),
    }
}

/// The report's name of an extender's column: `Extender(<urlPrefix>)`.
pub fn column_name(url_prefix: &str) -> String {
    format!("Extender({url_prefix})")
}

/// Adds the cycle's extenders to its inspection: every call (`bind`: the binding's call, from
/// the step that completed it), and the extenders' columns in the filter and score tables.
pub fn add_to_cycle(
    view: &mut CycleView,
    t: &CycleTrace,
    cluster: &Cluster,
    bind: Option<&ExtenderCall>,
) {
    let name = |n: usize| t.node_name(cluster, n).to_string();
    view.extenders = t
        .extenders
        .iter()
        .chain(bind)
        .map(|c| call_view(c, &name))
        .collect();
    view.fresh_nodes = t.modern.as_ref().is_some_and(|m| m.fresh_nodes)
        || t.extenders.iter().any(|c| c.fresh_nodes);
    add_filter_columns(view, t, &name);
    add_score_columns(view, t, &name);
}

/// One column per extender that filtered, after the Filter plugins (predicates): a node it
/// kept passes; one it failed shows the message (and v1.35's status code); one it left out
/// without a message fails with a note; a node that never reached it (an earlier rejection)
/// is covered by that rejection's cell. With a call made twice (v1.35's nominated node, then
/// the scan), the last verdict on each node counts.
fn add_filter_columns(view: &mut CycleView, t: &CycleTrace, name: &dyn Fn(usize) -> String) {
    let mut columns: Vec<&str> = Vec::new();
    for c in t
        .extenders
        .iter()
        .filter(|c| c.verb == ExtenderVerb::Filter)
    {
        if !columns.contains(&c.extender.as_str()) {
            columns.push(&c.extender);
        }
    }
    if columns.is_empty() {
        return;
    }
    let modern = t.modern.is_some();
    let table = &mut view.filter;
    let count = columns.len();
    for row in &mut table.rows {
        let mut cells: Vec<FilterCell> = Vec::with_capacity(count);
        for ext in &columns {
            let verdict = t
                .extenders
                .iter()
                .filter(|c| c.verb == ExtenderVerb::Filter && c.extender == *ext)
                .filter(|c| c.sent.iter().any(|&n| name(n) == row.node) || c.error.is_some())
                .next_back();
            cells.push(match verdict {
                None => FilterCell::NotRun,
                Some(c) if c.error.is_some() => FilterCell::NotRun,
                Some(c) if c.kept.iter().any(|&n| name(n) == row.node) => FilterCell::Pass,
                Some(c) => {
                    let failure = c.failed.iter().find(|f| match &f.node {
                        NamedNode::Known(id) => name(*id) == row.node,
                        NamedNode::Unknown(_) => false,
                    });
                    let (reason, detail, code) = match failure {
                        Some(f) if f.unresolvable => (
                            f.message.clone(),
                            "FailedAndUnresolvableNodes: preemption will not try this node"
                                .to_string(),
                            "UnschedulableAndUnresolvable",
                        ),
                        Some(f) => (
                            f.message.clone(),
                            "FailedNodes".to_string(),
                            "Unschedulable",
                        ),
                        None => (
                            "left out by the extender (no message)".to_string(),
                            "not among the nodes the extender returned".to_string(),
                            "Unschedulable",
                        ),
                    };
                    if modern && row.code.is_none() {
                        row.code = Some(code);
                    }
                    row.fits = false;
                    FilterCell::Fail {
                        reason,
                        detail,
                        span: 1,
                    }
                }
            });
        }
        merge_cells(&mut row.cells, cells);
    }
    table.columns.extend(columns.iter().map(|c| column_name(c)));
}

/// Appends the extenders' cells to a row: a row that already ends with a failure (a plugin's
/// rejection) never reached the extenders, so its failure spans their columns; an extender's
/// failure spans the later extenders' columns.
fn merge_cells(row: &mut Vec<FilterCell>, cells: Vec<FilterCell>) {
    let count = cells.len();
    if let Some(FilterCell::Fail { span, .. }) = row.last_mut() {
        *span += count;
        return;
    }
    let mut failed = false;
    for cell in cells {
        if failed {
            if let Some(FilterCell::Fail { span, .. }) = row.last_mut() {
                *span += 1;
            }
            continue;
        }
        failed = matches!(cell, FilterCell::Fail { .. });
        row.push(cell);
    }
}

/// One column per extender that prioritized, after the Score plugins: `raw → raw × 10
/// ×weight`, as the report's `Extender(<urlPrefix>)` entries (a node it gave no score counts 0).
fn add_score_columns(view: &mut CycleView, t: &CycleTrace, name: &dyn Fn(usize) -> String) {
    let calls: Vec<&ExtenderCall> = t
        .extenders
        .iter()
        .filter(|c| c.verb == ExtenderVerb::Prioritize)
        .collect();
    if calls.is_empty() {
        return;
    }
    let table = &mut view.scores;
    // v1.35 with no Score plugin: the rows come from the totals alone.
    if table.rows.is_empty() {
        table.rows = t
            .totals
            .iter()
            .map(|&(n, total)| crate::analysis::ScoreRow {
                node: name(n),
                cells: Vec::new(),
                total,
                winner: t.node == Some(n),
                tied: t.tie_set.len() > 1 && t.tie_set.contains(&n),
            })
            .collect();
    }
    for row in &mut table.rows {
        for c in &calls {
            let raw = c
                .scores
                .iter()
                .filter(|&&(n, _)| name(n) == row.node)
                .map(|&(_, s)| s)
                .fold(0i64, i64::wrapping_add);
            row.cells.push(ScoreRecord {
                raw,
                score: raw.wrapping_mul(EXTENDER_SCALE),
                weight: c.weight,
            });
        }
    }
    for c in &calls {
        table.columns.push(column_name(&c.extender));
        table.weights.push(c.weight);
    }
}

/// Whether a column of the filter or score table is an extender's.
pub fn is_extender_column(name: &str) -> bool {
    name.starts_with("Extender(") && name.ends_with(')')
}

/// The scheduler's extenders as the page shows them beside the editors: what each one is,
/// who answers it, and the live calls this run made.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ExtenderFacts {
    /// The configured extenders, ignorable ones last (the order they are called in).
    pub configured: Vec<ConfiguredExtender>,
    /// Exchanges made with live servers during this run (a recording to save).
    pub live_calls: usize,
    /// Exchanges held by the scenario's recording.
    pub recorded_calls: usize,
    /// Live calls that got no reply: (URL, what happened).
    pub failures: Vec<(String, String)>,
    /// kubernetes#141781 is fixed for this run (the page's switch).
    pub nodeinfo_fix: bool,
}

/// One configured extender.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ConfiguredExtender {
    /// `urlPrefix`.
    pub url_prefix: String,
    /// The verbs it implements: (verb, its path).
    pub verbs: Vec<(String, String)>,
    /// `weight`.
    pub weight: i64,
    /// `ignorable`.
    pub ignorable: bool,
    /// `nodeCacheCapable`.
    pub node_cache_capable: bool,
    /// `httpTimeout` in milliseconds (`None`: no limit).
    pub timeout_ms: Option<u64>,
    /// Its `managedResources` (it is asked only about pods that use one of them).
    pub managed: Vec<String>,
    /// Who answers it: `mock` (an ExtenderMock), `recording` (an ExtenderRecording holds
    /// calls to it) or `live` (the page calls its URL).
    pub answered_by: String,
}

/// The facts of `scenario`'s extenders after a run; `failures` are the live calls that got
/// no reply.
pub fn facts(scenario: &schedlab_core::Scenario, failures: &[(String, String)]) -> ExtenderFacts {
    use schedlab_core::scheduler::extenders::Verb;
    let answers = &scenario.extender_answers;
    let recording = answers.recording();
    let calls = recording.calls();
    let configured = scenario
        .scheduler
        .extenders()
        .iter()
        .map(|e| {
            let prefix = e.url_prefix.trim_end_matches('/');
            let recorded = calls
                .iter()
                .any(|c| c.recorded && c.url.starts_with(prefix));
            ConfiguredExtender {
                url_prefix: e.url_prefix.clone(),
                verbs: [Verb::Filter, Verb::Prioritize, Verb::Preempt, Verb::Bind]
                    .into_iter()
                    .filter(|v| e.has(*v))
                    .map(|v| (v.as_str().to_string(), e.verb(v).to_string()))
                    .collect(),
                weight: e.weight,
                ignorable: e.ignorable,
                node_cache_capable: e.node_cache_capable,
                timeout_ms: e.http_timeout.map(|t| t.0),
                managed: e.managed_resources.iter().map(|r| r.name.clone()).collect(),
                answered_by: if answers.has_mock(&e.url_prefix) {
                    "mock"
                } else if recorded {
                    "recording"
                } else {
                    "live"
                }
                .to_string(),
            }
        })
        .collect();
    ExtenderFacts {
        configured,
        live_calls: calls.iter().filter(|c| !c.recorded).count(),
        recorded_calls: calls.iter().filter(|c| c.recorded).count(),
        failures: failures.to_vec(),
        nodeinfo_fix: scenario.extender_nodeinfo_fix,
    }
}
