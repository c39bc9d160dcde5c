//! `SelectorSpreadPriority` (and `ServiceSpreadingPriority`, which behaves the same inside a
//! running v1.17 scheduler): spread pods of the same Services, ReplicationControllers,
//! ReplicaSets and StatefulSets across nodes and zones.
//!
//! Map: the number of pods on the node, in the pod's namespace, not terminating, that match
//! *all* of the pod's selectors (0 when it has none). Reduce: `100 * (max - count) / max` per
//! node, blended 1/3 : 2/3 with the same formula over zones (zones counted over the scored nodes
//! only) when any scored node has a zone; float arithmetic in upstream's order, then truncated.

use super::PrioritySpec;
use super::MAX_NODE_SCORE;
use crate::cluster::NodeInfo;
use crate::model::selector::set_matches;
use crate::model::{LabelSelector, Labels};
use crate::v117::{CycleContext, CycleError, ScorePlugin, State};
use std::collections::HashMap;
/// `SelectorSpreadPriority` in the legacy registry.
pub(crate) static SPEC: PrioritySpec = PrioritySpec {
    name: "SelectorSpreadPriority",
    default_weight: 1,
    default_provider: true,
    build: || Box::new(SelectorSpread),
};

/// `ServiceSpreadingPriority`, the older name of SelectorSpreadPriority (same implementation).
pub(crate) static SERVICE_SPREADING: PrioritySpec = PrioritySpec {
    name: "ServiceSpreadingPriority",
    default_weight: 1,
    default_provider: false,
    build: || Box::new(SelectorSpread),
};

/// The priority.
pub(crate) struct SelectorSpread;

/// A selector of a workload or Service that selects the pod.
#[derive(Clone, Debug)]
pub(crate) enum SpreadSelector {
    /// A Service or ReplicationController selector (a plain map).
    Set(Labels),
    /// A ReplicaSet or StatefulSet selector.
    Selector(LabelSelector),
}

impl SpreadSelector {
    /// Whether these labels are selected.
    pub(crate) fn matches(&self, labels: &Labels) -> bool {
        match self {
            SpreadSelector::Set(s) => set_matches(s, labels),
            SpreadSelector::Selector(s) => s.matches(labels),
        }
    }
}

/// The selectors of every Service, ReplicationController, ReplicaSet and StatefulSet in the
/// pod's namespace that selects the pod. Empty selectors select nothing.
pub(crate) fn pod_selectors(cx: &CycleContext) -> Vec<SpreadSelector> {
    let ns = cx.pod.namespace.as_str();
    let labels = cx.pod.labels();
    let c = cx.cluster;
    let mut out = Vec::new();
    for s in c.services_selecting(cx.pod) {
        out.push(SpreadSelector::Set(s.spec.selector.clone()));
    }
    for (rc_ns, sel) in c.replication_controllers() {
        if rc_ns == ns && !sel.is_empty() && set_matches(sel, labels) {
            out.push(SpreadSelector::Set(sel.clone()));
        }
    }
    for (set_ns, sel) in c.replica_sets().iter().chain(c.stateful_sets()) {
        if let Some(sel) = sel {
            if set_ns == ns && !sel.is_empty() && sel.matches(labels) {
                out.push(SpreadSelector::Selector(sel.clone()));
            }
        }
    }
    out
}

/// Pods on the node in `namespace`, not terminating, matching every selector.
pub(crate) fn count_matching(
    cx: &CycleContext,
    node: &NodeInfo,
    selectors: &[SpreadSelector],
) -> i64 {
    if selectors.is_empty() {
        return 0;
    }
    node.pods()
        .iter()
        .filter(|&&p| {
            let other = &cx.cluster.pods()[p];
            other.namespace == cx.pod.namespace
                && other.pod.metadata.deletion_timestamp.is_none()
                && selectors.iter().all(|s| s.matches(other.labels()))
        })
        .count() as i64
}

const ZONE_WEIGHTING: f64 = 2.0 / 3.0;

impl ScorePlugin for SelectorSpread {
    fn pre_score(&self, cx: &CycleContext, _: &[&NodeInfo]) -> Result<State, CycleError> {
        let selectors = pod_selectors(cx);
        if selectors.is_empty() {
            return Ok(State::uniform(0));
        }
        Ok(State::new(selectors))
    }

    fn score(&self, cx: &CycleContext, state: &State, node: &NodeInfo) -> Result<i64, CycleError> {
        let selectors = state
            .get::<Vec<SpreadSelector>>()
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        Ok(count_matching(cx, node, selectors))
    }

    fn normalize(&self, _: &CycleContext, _: &State, nodes: &[&NodeInfo], scores: &mut [i64]) {
        if scores.iter().all(|&s| s == 0) {
            // Every count is 0, so max_node and max_zone are 0: the same arithmetic as below
            // with f = zone_score = MAX, without counting per zone.
            let max = MAX_NODE_SCORE as f64;
            let plain = max as i64;
            let zoned = ((max * (1.0 - ZONE_WEIGHTING)) + (ZONE_WEIGHTING * max)) as i64;
            let have_zones = nodes.iter().any(|n| n.hot().has_zone);
            for (node, score) in nodes.iter().zip(scores.iter_mut()) {
                *score = if have_zones && node.hot().has_zone {
                    zoned
                } else {
                    plain
                };
            }
            return;
        }
        let max_node = scores.iter().copied().fold(0, i64::max);
        let mut by_zone: HashMap<&str, i64> = HashMap::new();
        for (node, &count) in nodes.iter().zip(scores.iter()) {
            if node.hot().has_zone {
                *by_zone.entry(node.facts().zone_key.as_str()).or_default() += count;
            }
        }
        let max_zone = by_zone.values().copied().fold(0, i64::max);
        let have_zones = !by_zone.is_empty();
        let max = MAX_NODE_SCORE as f64;
        for (node, score) in nodes.iter().zip(scores.iter_mut()) {
            let count = *score;
            let mut f = max;
            if max_node > 0 {
                f = max * ((max_node - count) as f64 / max_node as f64);
            }
            if have_zones && node.hot().has_zone {
                let mut zone_score = max;
                if max_zone > 0 {
                    let zc = by_zone[node.facts().zone_key.as_str()];
                    zone_score = max * ((max_zone - zc) as f64 / max_zone as f64);
                }
                f = (f * (1.0 - ZONE_WEIGHTING)) + (ZONE_WEIGHTING * zone_score);
            }
            *score = f as i64;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Service;
    use crate::testing::*;
    use serde_json::json;

    fn svc(sel: serde_json::Value) -> Service {
        serde_json::from_value(json!({"metadata": {"name": "s"}, "spec": {"selector": sel}}))
            .unwrap()
    }
    fn labelled(l: serde_json::Value) -> crate::model::Pod {
        pod(json!({"metadata": {"labels": l}}))
    }

    #[test]
    fn spreading_over_nodes() {
        let nodes = vec![
            node(json!({"metadata": {"name": "m1"}})),
            node(json!({"metadata": {"name": "m2"}})),
        ];
        let baz = || labelled(json!({"baz": "blah"}));
        let mut c = cluster(
            nodes,
            vec![
                (baz(), 0),
                (baz(), 1),
                (baz(), 1),
                (labelled(json!({"x": "y"})), 0),
            ],
        );
        c.objects_mut().services.push(svc(json!({"baz": "blah"})));
        let (raw, norm) = score_all(&SelectorSpread, &c, baz());
        assert_eq!(raw, [1, 2]);
        // m1: 100 * (2-1)/2 = 50; m2: 0
        assert_eq!(norm, [50, 0]);
        // A pod no service selects: every node 100.
        assert_eq!(
            score_all(&SelectorSpread, &c, labelled(json!({"other": "1"}))).1,
            [100, 100]
        );
    }

    #[test]
    fn zones_weigh_two_thirds() {
        let z = |name: &str, zone: &str| {
            node(json!({"metadata": {"name": name,
            "labels": {"failure-domain.beta.kubernetes.io/zone": zone}}}))
        };
        let nodes = vec![z("a1", "a"), z("a2", "a"), z("b1", "b")];
        let web = || labelled(json!({"app": "web"}));
        let mut c = cluster(nodes, vec![(web(), 0)]);
        c.objects_mut().services.push(svc(json!({"app": "web"})));
        let (raw, norm) = score_all(&SelectorSpread, &c, web());
        assert_eq!(raw, [1, 0, 0]);
        // node scores: a1 0, a2 100, b1 100; zone scores: a 0 (1 of max 1), b 100.
        // a1: 0*1/3 + 2/3*0 = 0; a2: 100/3 + 0 = 33.3 -> 33; b1: 100/3 + 200/3 = 100
        assert_eq!(norm, [0, 33, 100]);
    }
}
