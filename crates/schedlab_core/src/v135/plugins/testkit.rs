//! The plugins' test kit: a cycle context, a plugin built from its args, each extension
//! point called as the framework calls it.

use crate::cluster::{Cluster, NodeId, PodInfo};
use crate::model::{Node, Pod};
use crate::v135::plugin::{Cx, Plugin, PreFilterOutput, PreScoreOutput};
use crate::v135::status::Code;

/// The error lines a plugin's `build` gives for `args` (none when they are valid).
pub(crate) fn build_errors(
    build: crate::v135::plugin::BuildFn,
    args: serde_json::Value,
) -> Vec<String> {
    match build(Some(&args)) {
        Ok(_) => Vec::new(),
        Err(e) => e.iter().map(ToString::to_string).collect(),
    }
}

/// PreFilter's status, then (when it succeeded) each node's Filter code and reasons.
pub(crate) fn filter_statuses(
    p: &dyn Plugin,
    c: &Cluster,
    pod: Pod,
) -> (crate::v135::status::Status, Vec<(Code, Vec<String>)>) {
    let info = PodInfo::new_v135(pod, 0, usize::MAX);
    let order = c.node_tree_order();
    let cx = Cx {
        cluster: c,
        pod: &info,
        order: &order,
    };
    let out = p.pre_filter(&cx);
    if !out.status.is_success() {
        return (out.status, vec![]);
    }
    let per_node = c
        .nodes()
        .iter()
        .map(|n| {
            let mut reasons = Vec::new();
            let code = p.filter(&cx, out.state.as_deref(), n, &mut reasons);
            (code, reasons.iter().map(|r| r.to_string()).collect())
        })
        .collect();
    (out.status, per_node)
}

/// Raw and normalised scores over every node; `None` when PreScore skips.
pub(crate) fn score_all(
    p: &dyn Plugin,
    c: &Cluster,
    incoming: &PodInfo,
) -> Option<(Vec<i64>, Vec<i64>)> {
    let order = c.node_tree_order();
    let cx = Cx {
        cluster: c,
        pod: incoming,
        order: &order,
    };
    let nodes: Vec<&crate::cluster::NodeInfo> = c.nodes().iter().collect();
    let out = p.pre_score(&cx, &nodes);
    if out.status.code == Code::Skip {
        return None;
    }
    assert!(out.status.is_success(), "{:?}", out.status);
    let raw: Vec<i64> = nodes
        .iter()
        .map(|n| p.score(&cx, out.state.as_deref(), n).expect("score"))
        .collect();
    // The framework scores through `score_nodes`: it must agree with `score`.
    let mut batch = vec![-1; nodes.len()];
    p.score_nodes(&cx, out.state.as_deref(), &nodes, &mut batch)
        .expect("score_nodes");
    assert_eq!(batch, raw, "{}: score_nodes disagrees with score", p.name());
    let mut norm = raw.clone();
    p.normalize(&cx, out.state.as_deref(), &nodes, &mut norm);
    Some((raw, norm))
}

/// Runs `f` with the incoming pod added to the cluster (its keys in the topology index)
/// and with it outside the cluster (keys the index may lack: counted pod by pod); both
/// must agree.
pub(crate) fn both_ways<T: PartialEq + std::fmt::Debug>(
    c: &Cluster,
    incoming: Pod,
    f: impl Fn(&Cluster, &PodInfo) -> T,
) -> T {
    let mut with = c.clone();
    let id = with.add_pod(PodInfo::new_v135(incoming.clone(), 0, usize::MAX));
    let indexed = f(&with, &with.pods()[id]);
    let standalone = f(c, &PodInfo::new_v135(incoming, 0, usize::MAX));
    assert_eq!(indexed, standalone, "index and scan paths differ");
    indexed
}

/// A pod with v1.35's accounting (`PodInfo::new_v135`).
pub(crate) fn info(p: Pod) -> PodInfo {
    let prio = p.spec.priority.unwrap_or(0);
    PodInfo::new_v135(p, prio, usize::MAX)
}

/// A cluster with these nodes and, for each `(pod, node index)`, a pod bound with v1.35's
/// accounting.
pub(crate) fn cluster135(nodes: Vec<Node>, bound: Vec<(Pod, NodeId)>) -> Cluster {
    let mut c = Cluster::default();
    for n in nodes {
        c.add_node(n);
    }
    for (i, (p, n)) in bound.into_iter().enumerate() {
        let prio = p.spec.priority.unwrap_or(0);
        let id = c.add_pod(PodInfo::new_v135(p, prio, i));
        c.bind(id, n);
    }
    c
}

/// A node's result that is a success.
pub(crate) fn ok() -> (Code, Vec<String>) {
    (Code::Success, Vec::new())
}

fn with_cx<R>(c: &Cluster, pod: &PodInfo, f: impl FnOnce(&Cx) -> R) -> R {
    let order: Vec<NodeId> = (0..c.nodes().len()).collect();
    let cx = Cx {
        cluster: c,
        pod,
        order: &order,
    };
    f(&cx)
}

/// PreFilter alone.
pub(crate) fn run_pre_filter(plugin: &dyn Plugin, c: &Cluster, pod: &PodInfo) -> PreFilterOutput {
    with_cx(c, pod, |cx| plugin.pre_filter(cx))
}

/// PreFilter then Filter on every node: each node's code and reason strings (all success
/// when PreFilter skips; panics when PreFilter rejects).
pub(crate) fn run_filter(
    plugin: &dyn Plugin,
    c: &Cluster,
    pod: &PodInfo,
) -> Vec<(Code, Vec<String>)> {
    with_cx(c, pod, |cx| {
        let pre = plugin.pre_filter(cx);
        match pre.status.code {
            Code::Skip => return c.nodes().iter().map(|_| ok()).collect(),
            Code::Success => {}
            other => panic!("PreFilter returned {other:?}: {}", pre.status.message()),
        }
        c.nodes()
            .iter()
            .map(|n| {
                let mut reasons = Vec::new();
                let code = plugin.filter(cx, pre.state.as_deref(), n, &mut reasons);
                (code, reasons.iter().map(|r| r.to_string()).collect())
            })
            .collect()
    })
}

/// PreScore alone.
pub(crate) fn run_pre_score(plugin: &dyn Plugin, c: &Cluster, pod: &PodInfo) -> PreScoreOutput {
    with_cx(c, pod, |cx| {
        let nodes: Vec<_> = c.nodes().iter().collect();
        plugin.pre_score(cx, &nodes)
    })
}

/// PreScore, Score on every node, NormalizeScore: `(raw, normalized)`, or `None` when
/// PreScore skips (panics on an error).
pub(crate) fn run_score(
    plugin: &dyn Plugin,
    c: &Cluster,
    pod: &PodInfo,
) -> Option<(Vec<i64>, Vec<i64>)> {
    with_cx(c, pod, |cx| {
        let nodes: Vec<_> = c.nodes().iter().collect();
        let pre = plugin.pre_score(cx, &nodes);
        match pre.status.code {
            Code::Skip => return None,
            Code::Success => {}
            other => panic!("PreScore returned {other:?}: {}", pre.status.message()),
        }
        let st = pre.state.as_deref();
        let raw: Vec<i64> = nodes
            .iter()
            .map(|n| plugin.score(cx, st, n).expect("score"))
            .collect();
        let mut norm = raw.clone();
        plugin.normalize(cx, st, &nodes, &mut norm);
        Some((raw, norm))
    })
}
