//! Test helpers: build pods, nodes and clusters from JSON, and run one plugin on one node.

use crate::cluster::{Cluster, NodeId, PodInfo};
use crate::model::{Node, Pod};
use crate::v117::{AlgorithmSettings, CycleContext, FilterPlugin, ScorePlugin};
use serde_json::Value;

/// A pod from JSON (`metadata.name` defaults to `p`).
pub fn pod(v: Value) -> Pod {
    let mut p: Pod = serde_json::from_value(v).expect("test pod");
    if p.metadata.name.is_empty() {
        p.metadata.name = "p".into();
    }
    p
}

/// A pod whose volumes are these PersistentVolumeClaims (each volume named after its claim).
pub fn claim_pod(claims: &[&str]) -> Pod {
    let vols: Vec<Value> = claims
        .iter()
        .map(|c| serde_json::json!({"name": c, "persistentVolumeClaim": {"claimName": c}}))
        .collect();
    pod(serde_json::json!({"spec": {"volumes": vols}}))
}

/// A node from JSON.
pub fn node(v: Value) -> Node {
    serde_json::from_value(v).expect("test node")
}

/// A cluster with these nodes and, for each `(pod, node index)`, a bound pod.
pub fn cluster(nodes: Vec<Node>, bound: Vec<(Pod, NodeId)>) -> Cluster {
    let mut c = Cluster::default();
    for n in nodes {
        c.add_node(n);
    }
    for (i, (p, n)) in bound.into_iter().enumerate() {
        let prio = p.spec.priority.unwrap_or(0);
        let id = c.add_pod(PodInfo::new(p, prio, i));
        c.bind(id, n);
    }
    c
}

/// Nodes n0..n3 and one pod `v{i}` per (node index, priority) in `bound`, pod ids in that order.
pub fn four_nodes_with_pods(bound: &[(usize, i32)]) -> Cluster {
    let nodes = (0..4)
        .map(|i| node(serde_json::json!({"metadata": {"name": format!("n{i}")}})))
        .collect();
    let pods = bound
        .iter()
        .enumerate()
        .map(|(i, &(n, prio))| {
            let v = serde_json::json!({"metadata": {"name": format!("v{i}")}, "spec": {"priority": prio}});
            (pod(v), n)
        })
        .collect();
    cluster(nodes, pods)
}

/// Runs a filter for `incoming` on every node; returns each node's reason strings.
pub fn filter_all(plugin: &dyn FilterPlugin, c: &Cluster, incoming: Pod) -> Vec<Vec<String>> {
    filter_all_with(plugin, c, incoming, &AlgorithmSettings::default())
}

/// [`filter_all`] with settings.
pub fn filter_all_with(
    plugin: &dyn FilterPlugin,
    c: &Cluster,
    incoming: Pod,
    settings: &AlgorithmSettings,
) -> Vec<Vec<String>> {
    let prio = incoming.spec.priority.unwrap_or(0);
    let info = PodInfo::new(incoming, prio, usize::MAX);
    let cx = CycleContext {
        cluster: c,
        pod: &info,
        settings,
    };
    let state = plugin.pre_filter(&cx).expect("pre_filter");
    c.nodes()
        .iter()
        .map(|n| match state {
            crate::v117::State::Skip => Vec::new(),
            _ => plugin
                .filter(&cx, &state, n)
                .expect("filter")
                .iter()
                .map(|r| r.to_string())
                .collect(),
        })
        .collect()
}

/// Runs a filter that may end the cycle with an error: `pre_filter`'s error, else each node's
/// reason strings or error.
pub fn try_filter_all(
    plugin: &dyn FilterPlugin,
    c: &Cluster,
    incoming: Pod,
) -> Result<Vec<Result<Vec<String>, crate::v117::CycleError>>, crate::v117::CycleError> {
    let prio = incoming.spec.priority.unwrap_or(0);
    let info = PodInfo::new(incoming, prio, usize::MAX);
    let settings = AlgorithmSettings::default();
    let cx = CycleContext {
        cluster: c,
        pod: &info,
        settings: &settings,
    };
    let state = plugin.pre_filter(&cx)?;
    Ok(c.nodes()
        .iter()
        .map(|n| match state {
            crate::v117::State::Skip => Ok(Vec::new()),
            _ => plugin
                .filter(&cx, &state, n)
                .map(|r| r.iter().map(|x| x.to_string()).collect()),
        })
        .collect())
}

/// Runs a priority over every node: (raw, normalised).
pub fn score_all(plugin: &dyn ScorePlugin, c: &Cluster, incoming: Pod) -> (Vec<i64>, Vec<i64>) {
    score_all_with(plugin, c, incoming, &AlgorithmSettings::default())
}

/// [`score_all`] with settings.
pub fn score_all_with(
    plugin: &dyn ScorePlugin,
    c: &Cluster,
    incoming: Pod,
    settings: &AlgorithmSettings,
) -> (Vec<i64>, Vec<i64>) {
    let prio = incoming.spec.priority.unwrap_or(0);
    let info = PodInfo::new(incoming, prio, usize::MAX);
    let cx = CycleContext {
        cluster: c,
        pod: &info,
        settings,
    };
    let nodes: Vec<_> = c.nodes().iter().collect();
    let state = plugin.pre_score(&cx, &nodes).expect("pre_score");
    let raw: Vec<i64> = nodes
        .iter()
        .map(|n| match state {
            crate::v117::State::Uniform(v) => v,
            _ => plugin.score(&cx, &state, n).expect("score"),
        })
        .collect();
    if !matches!(state, crate::v117::State::Uniform(_)) {
        // The runner scores all nodes at once: every plugin test checks that path too.
        let mut batch = vec![0; nodes.len()];
        plugin
            .score_nodes(&cx, &state, &nodes, &mut batch)
            .expect("score_nodes");
        assert_eq!(batch, raw, "score_nodes differs from score node by node");
    }
    let mut norm = raw.clone();
    plugin.normalize(&cx, &state, &nodes, &mut norm);
    if let crate::v117::State::Uniform(v) = state {
        // The runner adds a uniform priority's one normalised value without normalising:
        // every plugin test checks that it is what normalising gives.
        if let Some(each) = plugin.normalize_uniform(v) {
            assert!(
                norm.iter().all(|&s| s == each),
                "normalize_uniform({v}) = {each}, normalize gave {norm:?}"
            );
        }
    }
    (raw, norm)
}
