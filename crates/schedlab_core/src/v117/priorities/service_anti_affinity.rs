//! `ServiceAntiAffinity` (Policy argument `serviceAntiAffinity {label}`): spread the pods of the
//! pod's first Service across the values of a node label.
//!
//! Map: pods on the node in the namespace, not terminating, matching the first Service that
//! selects the pod. Reduce: with `total` such pods over the scored nodes and `count(v)` of them on
//! nodes whose label is `v`, a node with the label scores `100 * (total - count(v)) / total`
//! (100 when total is 0); a node without the label scores 0.

use super::selector_spread::{count_matching, SpreadSelector};
use super::MAX_NODE_SCORE;
use crate::cluster::NodeInfo;
use crate::v117::{CycleContext, CycleError, ScorePlugin, State};
use std::collections::HashMap;

/// The priority with its label.
pub(crate) struct ServiceAntiAffinity {
    /// The node label whose values spread the service.
    pub label: String,
}

impl ScorePlugin for ServiceAntiAffinity {
    fn pre_score(&self, cx: &CycleContext, _: &[&NodeInfo]) -> Result<State, CycleError> {
        let first = cx.cluster.services_selecting(cx.pod).next();
        let selectors: Vec<SpreadSelector> = first
            .map(|s| SpreadSelector::Set(s.spec.selector.clone()))
            .into_iter()
            .collect();
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
        let total: i64 = scores.iter().sum();
        let mut by_value: HashMap<&str, i64> = HashMap::new();
        for (node, &count) in nodes.iter().zip(scores.iter()) {
            if let Some(v) = node.labels().get(&self.label) {
                *by_value.entry(v.as_str()).or_default() += count;
            }
        }
        for (node, score) in nodes.iter().zip(scores.iter_mut()) {
            *score = match node.labels().get(&self.label) {
                None => 0,
                Some(v) => {
                    let mut f = MAX_NODE_SCORE as f64;
                    if total > 0 {
                        f = MAX_NODE_SCORE as f64
                            * ((total - by_value[v.as_str()]) as f64 / total as f64);
                    }
                    f as i64
                }
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Service;
    use crate::testing::*;
    use serde_json::json;

    #[test]
    fn spreads_over_label_values() {
        let z = |name: &str, zone: Option<&str>| match zone {
            Some(zv) => node(json!({"metadata": {"name": name, "labels": {"zone": zv}}})),
            None => node(json!({"metadata": {"name": name}})),
        };
        let web = || pod(json!({"metadata": {"labels": {"app": "web"}}}));
        let mut c = cluster(
            vec![
                z("a1", Some("a")),
                z("a2", Some("a")),
                z("b1", Some("b")),
                z("x", None),
            ],
            vec![(web(), 0), (web(), 1), (web(), 2)],
        );
        c.objects_mut().services.push(
            serde_json::from_value::<Service>(
                json!({"metadata": {"name": "s"}, "spec": {"selector": {"app": "web"}}}),
            )
            .unwrap(),
        );
        let p = ServiceAntiAffinity {
            label: "zone".into(),
        };
        let (raw, norm) = score_all(&p, &c, web());
        assert_eq!(raw, [1, 1, 1, 0]);
        // total 3; zone a holds 2 -> 100*(1/3) = 33; zone b holds 1 -> 100*(2/3) = 66; no label -> 0
        assert_eq!(norm, [33, 33, 66, 0]);
    }
}
