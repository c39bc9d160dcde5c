//! What the cycle inspector shows of a cycle's scheduler extenders (the HTTP webhooks): each
//! call per phase (`findNodesThatFit`'s filter, `prioritizeNodes`' prioritize, `preempt`,
//! `bind`) with its request and reply, the nodes it kept or failed and the scores it gave; and
//! the extenders' columns in the filter and score tables, beside the plugins'.
//!
//! Pure: built from the core's trace ([`ExtenderCall`]), no signals, no DOM.

use crate::analysis::{CycleView, FilterCell, Phase};
pub use crate::extender_data::{CallView, FailedNode};
use schedlab_core::simulation::Cluster;
use schedlab_core::trace::{
    CycleTrace, ExtenderCall, ExtenderSource, ExtenderVerb, NamedNode, ScoreRecord,
};

/// `MaxNodeScore / MaxExtenderPriority`: an extender's 0-10 answer counts ×10 (then × its
/// weight), never clamped.
pub const EXTENDER_SCALE: i64 = 10;

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
    // A binder extender that bound the pod (or failed and is not ignorable) took the Bind
    // plugins' turn: none of them ran (`extendersBinding` before `RunBindPlugins`).
    let extender_bound = bind.is_some_and(|c| c.error.is_none() || !c.ignored);
    if let (true, Some(m)) = (extender_bound, view.modern.as_mut()) {
        m.bind.clear();
    }
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
            let verdict = t.extenders.iter().rfind(|c| {
                c.verb == ExtenderVerb::Filter
                    && c.extender == *ext
                    && (c.sent.iter().any(|&n| name(n) == row.node) || c.error.is_some())
            });
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{inspect_cycle, FilterCell};
    use crate::base::EditorFile;
    use crate::engine::host::load;
    use crate::session::Session;
    use schedlab_core::scheduler::extenders::{Exchange, PendingCall};
    use serde_json::{json, Value};

    const URL: &str = "http://127.0.0.1:8888/basic";

    /// Three nodes (`n1`, `n2-bad`, `n3`), one pod, and a v1.35 configuration whose one
    /// extender filters, prioritizes (weight 2) and binds; the Extenders editor holds `mocks`.
    fn texts(mocks: &str) -> Vec<String> {
        let nodes: Vec<Value> = ["n1", "n2-bad", "n3"]
            .iter()
            .map(|n| {
                json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": n},
                "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}})
            })
            .collect();
        let mut t = vec![String::new(); EditorFile::ALL.len()];
        t[EditorFile::Nodes.index()] =
            json!({"apiVersion": "v1", "kind": "List", "items": nodes}).to_string();
        t[EditorFile::Pods.index()] = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, resources: {requests: {cpu: 100m}}}]\n".into();
        t[EditorFile::Policy.index()] = "{\"kind\": \"Policy\", \"apiVersion\": \"v1\"}".into();
        t[EditorFile::Config.index()] = format!("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nextenders:\n- urlPrefix: {URL}\n  filterVerb: filter\n  prioritizeVerb: prioritize\n  bindVerb: bind\n  weight: 2\n");
        t[EditorFile::Extenders.index()] = mocks.into();
        t
    }

    /// The first cycle's view, with its extender calls.
    pub(super) fn cycle(s: &Session) -> CycleView {
        let detail = s.cycle_detail(0).expect("a cycle");
        let (trace, cluster, claims) = &*detail;
        let mut view = inspect_cycle(trace, cluster, claims, &s.info, 0)
            .cycle
            .expect("a cycle");
        add_to_cycle(&mut view, trace, cluster, s.bind_call(0).as_ref());
        view
    }

    /// What `tests/extender/extender.py` answers in its `basic` mode.
    fn basic(call: &PendingCall) -> Exchange {
        let args: Value = serde_json::from_str(&call.body).expect("a JSON request");
        let names: Vec<String> = match &args["NodeNames"] {
            Value::Array(a) => a
                .iter()
                .map(|n| n.as_str().unwrap_or_default().to_string())
                .collect(),
            _ => args["Nodes"]["items"]
                .as_array()
                .map(|items| {
                    items
                        .iter()
                        .map(|i| {
                            i["metadata"]["name"]
                                .as_str()
                                .unwrap_or_default()
                                .to_string()
                        })
                        .collect()
                })
                .unwrap_or_default(),
        };
        let body = if call.url.ends_with("/filter") {
            let items: Vec<Value> = args["Nodes"]["items"]
                .as_array()
                .map(|items| {
                    items
                        .iter()
                        .filter(|i| {
                            !i["metadata"]["name"]
                                .as_str()
                                .unwrap_or_default()
                                .contains("bad")
                        })
                        .cloned()
                        .collect()
                })
                .unwrap_or_default();
            let failed: serde_json::Map<String, Value> = names
                .iter()
                .filter(|n| n.contains("bad"))
                .map(|n| (n.clone(), Value::String(format!("{n} is bad"))))
                .collect();
            json!({"Nodes": {"metadata": {}, "items": items}, "NodeNames": null, "FailedNodes": failed, "Error": ""})
        } else if call.url.ends_with("/prioritize") {
            let scores: Vec<Value> = names
                .iter()
                .map(|n| {
                    let digits: String = n.chars().rev().take_while(char::is_ascii_digit).collect();
                    let score: i64 = digits
                        .chars()
                        .rev()
                        .collect::<String>()
                        .parse()
                        .unwrap_or(0);
                    json!({"Host": n, "Score": score})
                })
                .collect();
            Value::Array(scores)
        } else {
            json!({"Error": ""})
        };
        Exchange::Reply {
            status: 200,
            body: body.to_string(),
        }
    }

    #[test]
    fn a_mock_shows_in_every_phase_and_in_the_tables() {
        let mocks = format!("apiVersion: schedlab.dev/v1alpha1\nkind: ExtenderMock\nmetadata: {{name: basic}}\nurlPrefix: {URL}\nrules:\n- nodes: [n2-bad]\n  filter: Fail\n  message: n2-bad is bad\n- nodes: [n3]\n  score: 3\n- nodes: [n1]\n  score: 1\n");
        let scenario = load(&texts(&mocks)).expect("loads");
        let mut s = Session::new(scenario, 0);
        while !s.run_some(64) {}
        assert_eq!(s.info.extenders.configured[0].answered_by, "mock");
        let c = cycle(&s);
        assert_eq!(c.chosen.as_deref(), Some("n3"));
        let phases: Vec<(&str, &str)> = c
            .extenders
            .iter()
            .map(|e| (e.verb.as_str(), e.phase.as_str()))
            .collect();
        assert_eq!(
            phases,
            [
                ("filter", "findNodesThatFit"),
                ("prioritize", "prioritizeNodes"),
                ("bind", "bind")
            ]
        );
        let filter = &c.extenders[0];
        assert_eq!(filter.source, "mock");
        assert_eq!(filter.kept, ["n1", "n3"]);
        assert_eq!(filter.failed[0].message, "n2-bad is bad");
        assert!(filter
            .request
            .as_deref()
            .is_some_and(|r| r.contains("\"Nodes\"")));
        assert_eq!(
            c.extenders[1].scores,
            [("n1".to_string(), 1, 20), ("n3".to_string(), 3, 60)]
        );
        assert_eq!(c.extenders[2].node.as_deref(), Some("n3"));
        // The binder extender bound the pod: no Bind plugin ran.
        assert!(c.modern.as_ref().expect("a v1.35 cycle").bind.is_empty());
        // The filter table: the extender's column after the plugins', n2-bad failed there.
        let col = column_name(URL);
        assert_eq!(c.filter.columns.last(), Some(&col));
        let bad = c
            .filter
            .rows
            .iter()
            .find(|r| r.node == "n2-bad")
            .expect("n2-bad");
        assert!(!bad.fits);
        assert_eq!(bad.code, Some("Unschedulable"));
        assert!(
            matches!(bad.cells.last(), Some(FilterCell::Fail { reason, .. }) if reason == "n2-bad is bad")
        );
        let n1 = c.filter.rows.iter().find(|r| r.node == "n1").expect("n1");
        assert_eq!(n1.cells.last(), Some(&FilterCell::Pass));
        assert_eq!(n1.cells.len(), c.filter.columns.len());
        // The score table: raw → raw × 10, weight 2, in the totals.
        let k = c
            .scores
            .columns
            .iter()
            .position(|n| *n == col)
            .expect("the column");
        assert_eq!(c.scores.weights[k], 2);
        let n3 = c.scores.rows.iter().find(|r| r.node == "n3").expect("n3");
        assert_eq!(
            (n3.cells[k].raw, n3.cells[k].score, n3.cells[k].weight),
            (3, 30, 2)
        );
        let plugins: i64 = n3.cells[..k].iter().map(|e| e.score * e.weight).sum();
        assert_eq!(n3.total, plugins + 60);
        // The inspection crosses to the page as JSON.
        let back: CycleView =
            serde_json::from_str(&serde_json::to_string(&c).expect("JSON")).expect("reads");
        assert_eq!(back.extenders, c.extenders);
    }

    #[test]
    fn live_calls_pause_the_run_until_the_host_adds_the_replies() {
        let scenario = load(&texts("")).expect("loads");
        let mut s = Session::new(scenario, 0);
        let mut made = Vec::new();
        loop {
            if s.run_some(64) {
                break;
            }
            let calls = s.take_awaited_calls();
            assert!(!calls.is_empty(), "the run paused for nothing");
            for call in calls {
                assert_eq!(call.timeout, Some(schedlab_core::model::Millis(5_000)));
                let reply = basic(&call);
                s.add_exchange(&call, reply, 3);
                made.push(call.url);
            }
        }
        assert_eq!(
            made,
            [
                format!("{URL}/filter"),
                format!("{URL}/prioritize"),
                format!("{URL}/bind")
            ]
        );
        assert_eq!(s.live_calls(), 3);
        let facts = &s.info.extenders;
        assert_eq!(
            (facts.live_calls, facts.configured[0].answered_by.as_str()),
            (3, "live")
        );
        let c = cycle(&s);
        assert_eq!(c.chosen.as_deref(), Some("n3"));
        assert!(c
            .extenders
            .iter()
            .all(|e| e.source == "live" && e.error.is_none()));
        // kubernetes#141781: the filter answered with Nodes, so the Score plugins saw fresh
        // nodes.
        assert!(c.fresh_nodes && c.extenders[0].fresh_nodes);
        // Saved as a recording, the same texts replay with no server.
        let yaml = s.recording_yaml().expect("a recording");
        let mocks = crate::forms::extenders::with_recording("", &yaml).expect("added");
        let scenario = load(&texts(&mocks)).expect("loads with the recording");
        let mut replay = Session::new(scenario, 0);
        assert!(replay.run_some(64), "a replay asks nothing");
        assert_eq!(replay.info.extenders.configured[0].answered_by, "recording");
        assert_eq!(replay.info.extenders.recorded_calls, 3);
        let again = cycle(&replay);
        assert_eq!(again.chosen, c.chosen);
        assert_eq!(again.scores, c.scores);
        assert!(again.extenders.iter().all(|e| e.source == "recording"));
        // A failed call is remembered for the page's notice.
        let scenario = load(&texts("")).expect("loads");
        let mut s = Session::new(scenario, 0);
        assert!(!s.run_some(64));
        let call = s.take_awaited_calls().remove(0);
        s.add_exchange(&call, Exchange::Failed("nothing answers".into()), 1);
        while !s.run_some(64) {
            for call in s.take_awaited_calls() {
                let reply = basic(&call);
                s.add_exchange(&call, reply, 1);
            }
        }
        assert_eq!(
            s.info.extenders.failures,
            [(format!("{URL}/filter"), "nothing answers".to_string())]
        );
        let c = cycle(&s);
        assert_eq!(c.outcome, "Error");
        assert!(c.extenders[0]
            .error
            .as_deref()
            .is_some_and(|e| e.ends_with(": nothing answers")));
        assert!(!c.extenders[0].ignored);
    }
}

#[cfg(test)]
mod preempt_tests {
    use super::*;
    use crate::analysis::inspect_cycle;
    use crate::base::EditorFile;
    use crate::engine::host::load;
    use crate::session::Session;

    /// One 1-CPU node `n1` holding a low-priority pod; a high-priority pod that needs the
    /// CPU; two extenders: `gpu` preempts (a mock keeping the victims), `flaky` filters and
    /// answers 500 but is ignorable.
    fn texts() -> Vec<String> {
        let mut t = vec![String::new(); EditorFile::ALL.len()];
        t[EditorFile::Nodes.index()] = "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: '1', memory: 1Gi, pods: '10'}}\n".into();
        t[EditorFile::Pods.index()] = "apiVersion: v1\nkind: Pod\nmetadata: {name: low}\nspec:\n  nodeName: n1\n  priority: 1\n  containers: [{name: c, resources: {requests: {cpu: '1'}}}]\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: high}\nspec:\n  priority: 100\n  containers: [{name: c, resources: {requests: {cpu: '1'}}}]\n".into();
        t[EditorFile::Policy.index()] = "{\"kind\": \"Policy\", \"apiVersion\": \"v1\"}".into();
        t[EditorFile::Config.index()] = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nextenders:\n- urlPrefix: http://gpu\n  preemptVerb: preempt\n- urlPrefix: http://flaky\n  filterVerb: filter\n  ignorable: true\n".into();
        t[EditorFile::Extenders.index()] = "apiVersion: schedlab.dev/v1alpha1\nkind: ExtenderMock\nmetadata: {name: gpu}\nurlPrefix: http://gpu\n---\napiVersion: schedlab.dev/v1alpha1\nkind: ExtenderMock\nmetadata: {name: flaky}\nurlPrefix: http://flaky\nverbs:\n  filter: {status: 500}\n".into();
        t
    }

    #[test]
    fn preempt_calls_and_an_ignorable_error_show_in_their_phases() {
        let scenario = load(&texts()).expect("loads");
        let mut s = Session::new(scenario, 0);
        while !s.run_some(64) {}
        let view = super::tests::cycle(&s);
        assert_eq!(view.outcome, "Unschedulable");
        let preempt: Vec<&CallView> = view
            .extenders
            .iter()
            .filter(|c| c.verb == "preempt")
            .collect();
        assert_eq!(preempt.len(), 1);
        assert_eq!(preempt[0].phase, "preempt");
        assert_eq!(preempt[0].victims, [("n1".to_string(), 1)]);
        // The flaky extender is never asked: no node passed the filters (it runs only while
        // nodes are feasible). In the next cycle (the victim gone) it answers 500, ignored.
        let later = (1..s.info.cycle_steps.len())
            .find_map(|c| {
                let detail = s.cycle_detail(c)?;
                let (trace, cluster, claims) = &*detail;
                let mut v = inspect_cycle(trace, cluster, claims, &s.info, c).cycle?;
                add_to_cycle(&mut v, trace, cluster, None);
                v.extenders
                    .iter()
                    .any(|e| e.extender == "http://flaky")
                    .then_some(v)
            })
            .expect("a cycle that asks the flaky extender");
        let flaky = later
            .extenders
            .iter()
            .find(|e| e.extender == "http://flaky")
            .expect("called");
        assert!(
            flaky
                .error
                .as_deref()
                .is_some_and(|e| e.contains("code 500")),
            "{flaky:?}"
        );
        assert!(flaky.ignored);
        assert_eq!(later.chosen.as_deref(), Some("n1"));
        // Its column is "not run" for every node: the error, not a verdict.
        assert!(later
            .filter
            .rows
            .iter()
            .all(|r| r.cells.last() == Some(&FilterCell::NotRun)));
    }
}

#[cfg(test)]
mod v117_replay {
    use crate::base::EditorFile;
    use crate::engine::host::load;
    use crate::session::Session;
    use schedlab_core::scheduler::extenders::Exchange;

    #[test]
    /// v1.17 (a Policy's extender, a v1alpha1 configuration): a live run saved as a
    /// recording replays with no call left to make.
    fn a_v117_live_run_replays_from_its_recording() {
        let classic = crate::gallery::example_named("classic")
            .texts()
            .expect("compiled");
        let mut t: Vec<String> = EditorFile::ALL
            .iter()
            .map(|f| classic.text(*f).to_string())
            .collect();
        t[EditorFile::Nodes.index()] = "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: n3}\nstatus: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}\n".into();
        t[EditorFile::Pods.index()] = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, resources: {requests: {cpu: 100m}}}]\n".into();
        t[EditorFile::Policy.index()] = r#"{"kind":"Policy","apiVersion":"v1","predicates":[{"name":"PodFitsResources"}],"priorities":[{"name":"LeastRequestedPriority","weight":1}],"extenders":[{"urlPrefix":"http://x/basic","filterVerb":"filter","prioritizeVerb":"prioritize","bindVerb":"bind","weight":2,"httpTimeout":5000000000}]}"#.into();
        let mut s = Session::new(load(&t).expect("loads"), 0);
        let mut bodies = Vec::new();
        while !s.run_some(64) {
            for call in s.take_awaited_calls() {
                let body = if call.url.ends_with("filter") {
                    let args: serde_json::Value = serde_json::from_str(&call.body).unwrap();
                    serde_json::json!({"Nodes": args["Nodes"], "NodeNames": null, "FailedNodes": {}, "Error": ""}).to_string()
                } else if call.url.ends_with("prioritize") {
                    "[]".to_string()
                } else {
                    "{\"Error\":\"\"}".to_string()
                };
                bodies.push(call.body.clone());
                s.add_exchange(&call, Exchange::Reply { status: 200, body }, 1);
            }
        }
        let yaml = s.recording_yaml().unwrap();
        t[EditorFile::Extenders.index()] =
            crate::forms::extenders::with_recording("", &yaml).unwrap();
        let mut r = Session::new(load(&t).expect("loads"), 0);
        assert!(
            r.run_some(64),
            "the replay paused at {:?}",
            r.take_awaited_calls()
        );
        assert_eq!(bodies.len(), 3);
    }
}
