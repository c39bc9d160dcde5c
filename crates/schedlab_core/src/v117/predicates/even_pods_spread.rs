//! `EvenPodsSpread` (alpha in v1.17; runs when a Policy names it): hard
//! `topologySpreadConstraints` (`whenUnsatisfiable: DoNotSchedule`).
//!
//! Once per cycle: the eligible nodes are those matching the pod's nodeSelector and required
//! node affinity and carrying every constraint's topology key; each (key, value) domain counts
//! the pods on eligible nodes in the pod's namespace that match the constraint's selector. A node
//! fails when it lacks a key, or when `domain count + (1 if the pod matches itself) - global
//! minimum > maxSkew`. With no eligible node at all every node fits.

use super::match_node_selector::pod_matches_node;
use super::PredicateSpec;
use crate::cluster::NodeInfo;
use crate::model::pod::{TopologySpreadConstraint, DO_NOT_SCHEDULE};
use crate::model::selector::selector_matches;
use crate::v117::{CycleContext, CycleError, FailureReason, FilterPlugin, FilterResult, State};
use std::collections::HashMap;
/// `EvenPodsSpread` in the legacy registry.
pub(crate) static SPEC: PredicateSpec = PredicateSpec {
    name: "EvenPodsSpread",
    order: Some(18),
    plain: true,
    default_provider: None,
    mandatory: false,
    build: Some(|| Box::new(EvenPodsSpread)),
};

/// The predicate. When the pod has no nodeSelector or required node affinity and its
/// constraints share one topology key, counts come from the cluster's
/// [`crate::cluster::TopologyIndex`]; otherwise from [`Reference`].
pub(crate) struct EvenPodsSpread;

/// The same predicate counting every pod on every eligible node each cycle (the tested reference).
pub(crate) struct Reference;

/// Whether every node is eligible apart from the topology key: no nodeSelector and no required
/// node affinity.
pub(crate) fn selects_every_node(pod: &crate::model::Pod) -> bool {
    pod.spec.node_selector.is_empty()
        && pod.node_affinity().is_none_or(|na| {
            na.required_during_scheduling_ignored_during_execution
                .is_none()
        })
}

/// Fast path: the key id shared by all constraints, when usable.
pub(crate) fn shared_key(
    cx: &CycleContext,
    constraints: &[&TopologySpreadConstraint],
) -> Option<usize> {
    let first = constraints.first()?;
    if !selects_every_node(&cx.pod.pod)
        || constraints
            .iter()
            .any(|c| c.topology_key != first.topology_key)
    {
        return None;
    }
    cx.cluster.topology().key_id(&first.topology_key)
}

struct FastMeta {
    key: usize,
    counts: Vec<i64>,
    /// Per constraint: `maxSkew + min - selfMatch`, the largest count a domain may hold.
    limits: Vec<i64>,
}

fn hard<'a>(cx: &CycleContext<'a>) -> Vec<&'a TopologySpreadConstraint> {
    cx.pod
        .pod
        .spec
        .topology_spread_constraints
        .iter()
        .filter(|c| c.when_unsatisfiable == DO_NOT_SCHEDULE)
        .collect()
}

struct Meta {
    constraints: Vec<TopologySpreadConstraint>,
    counts: HashMap<(String, String), i64>,
    min_by_key: HashMap<String, i64>,
}

impl FilterPlugin for EvenPodsSpread {
    fn reads_other_pods(&self) -> bool {
        true
    }

    fn pre_filter(&self, cx: &CycleContext) -> Result<State, CycleError> {
        let constraints = hard(cx);
        if constraints.is_empty() {
            return Ok(State::skip());
        }
        let Some(key) = shared_key(cx, &constraints) else {
            return Reference.pre_filter(cx);
        };
        let index = &cx.cluster.topology();
        let mut counts = vec![0i64; index.keys[key].values.len()];
        for c in &constraints {
            for g in &index.groups {
                if g.namespace == cx.pod.namespace
                    && selector_matches(c.label_selector.as_ref(), &g.labels)
                {
                    #[allow(
                        clippy::iter_over_hash_type,
                        reason = "sums per domain: the order is not seen"
                    )]
                    for (&v, &n) in &g.counts[key] {
                        counts[v as usize] += n;
                    }
                }
            }
        }
        let min = counts.iter().copied().min().unwrap_or(0);
        let limits = constraints
            .iter()
            .map(|c| {
                let self_match =
                    i64::from(selector_matches(c.label_selector.as_ref(), cx.pod.labels()));
                i64::from(c.max_skew) + min - self_match
            })
            .collect();
        Ok(State::new(FastMeta {
            key,
            counts,

            limits,
        }))
    }

    fn filter(&self, cx: &CycleContext, state: &State, node: &NodeInfo) -> FilterResult {
        let Some(meta) = state.get::<FastMeta>() else {
            return Reference.filter(cx, state, node);
        };
        if meta.counts.is_empty() {
            return Ok(vec![]);
        }
        // count + selfMatch - min > maxSkew  <=>  count > maxSkew + min - selfMatch
        let fits = cx
            .cluster
            .topology()
            .node_value(meta.key, node.id())
            .is_some_and(|v| {
                let count = meta.counts[v as usize];
                meta.limits.iter().all(|&limit| count <= limit)
            });
        Ok(if fits {
            vec![]
        } else {
            vec![FailureReason::TopologySpreadConstraintsNotMatch.into()]
        })
    }
}

impl FilterPlugin for Reference {
    fn reads_other_pods(&self) -> bool {
        true
    }

    fn pre_filter(&self, cx: &CycleContext) -> Result<State, CycleError> {
        let constraints: Vec<TopologySpreadConstraint> = cx
            .pod
            .pod
            .spec
            .topology_spread_constraints
            .iter()
            .filter(|c| c.when_unsatisfiable == DO_NOT_SCHEDULE)
            .cloned()
            .collect();
        if constraints.is_empty() {
            return Ok(State::skip());
        }
        let mut counts: HashMap<(String, String), i64> = HashMap::new();
        for node in cx.cluster.nodes() {
            let labels = node.labels();
            if !constraints
                .iter()
                .all(|c| labels.contains_key(&c.topology_key))
                || !pod_matches_node(&cx.pod.pod, node.object())
            {
                continue;
            }
            for c in &constraints {
                let matching = node
                    .pods()
                    .iter()
                    .filter(|&&p| {
                        let other = &cx.cluster.pods()[p];
                        other.namespace == cx.pod.namespace
                            && selector_matches(c.label_selector.as_ref(), other.labels())
                    })
                    .count() as i64;
                let key = (c.topology_key.clone(), labels[&c.topology_key].clone());
                *counts.entry(key).or_default() += matching;
            }
        }
        let mut min_by_key: HashMap<String, i64> = HashMap::new();
        #[allow(
            clippy::iter_over_hash_type,
            reason = "a minimum per key: the order is not seen"
        )]
        for ((k, _), n) in &counts {
            let m = min_by_key.entry(k.clone()).or_insert(*n);
            *m = (*m).min(*n);
        }
        Ok(State::new(Meta {
            constraints,
            counts,
            min_by_key,
        }))
    }

    fn filter(&self, cx: &CycleContext, state: &State, node: &NodeInfo) -> FilterResult {
        let Some(meta) = state.get::<Meta>() else {
            return Ok(vec![]);
        };
        if meta.counts.is_empty() {
            return Ok(vec![]);
        }
        let fail = vec![FailureReason::TopologySpreadConstraintsNotMatch.into()];
        for c in &meta.constraints {
            let Some(value) = node.labels().get(&c.topology_key) else {
                return Ok(fail);
            };
            let self_match =
                i64::from(selector_matches(c.label_selector.as_ref(), cx.pod.labels()));
            let min = meta.min_by_key.get(&c.topology_key).copied().unwrap_or(0);
            let count = meta
                .counts
                .get(&(c.topology_key.clone(), value.clone()))
                .copied()
                .unwrap_or(0);
            if count + self_match - min > i64::from(c.max_skew) {
                return Ok(fail);
            }
        }
        Ok(vec![])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;
    use serde_json::json;

    fn spread_pod(max_skew: i32) -> crate::model::Pod {
        pod(
            json!({"metadata": {"labels": {"app": "web"}}, "spec": {"topologySpreadConstraints": [
            {"maxSkew": max_skew, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
             "labelSelector": {"matchLabels": {"app": "web"}}}]}}),
        )
    }
    fn web() -> crate::model::Pod {
        pod(json!({"metadata": {"labels": {"app": "web"}}}))
    }

    #[test]
    fn skew_against_the_emptiest_zone() {
        let nodes = vec![
            node(json!({"metadata": {"name": "a", "labels": {"zone": "a"}}})),
            node(json!({"metadata": {"name": "b", "labels": {"zone": "b"}}})),
            node(json!({"metadata": {"name": "c", "labels": {"zone": "c"}}})),
            node(json!({"metadata": {"name": "x"}})),
        ];
        // Zone a holds 2 web pods, b holds 1, c none: min 0.
        let c = cluster(nodes, vec![(web(), 0), (web(), 0), (web(), 1)]);
        let fits = |p| {
            filter_all(&EvenPodsSpread, &c, p)
                .iter()
                .map(|r| r.is_empty())
                .collect::<Vec<_>>()
        };
        // maxSkew 1: a -> 2+1-0 = 3 > 1; b -> 1+1-0 = 2 > 1; c -> 0+1-0 = 1 ok; x lacks the key.
        assert_eq!(fits(spread_pod(1)), [false, false, true, false]);
        // maxSkew 2: b -> 2 ok.
        assert_eq!(fits(spread_pod(2)), [false, true, true, false]);
        assert_eq!(
            filter_all(&EvenPodsSpread, &c, spread_pod(1))[0],
            ["node(s) didn't match pod topology spread constraints"]
        );
        // ScheduleAnyway constraints do not filter.
        let soft = pod(json!({"spec": {"topologySpreadConstraints": [
            {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "ScheduleAnyway",
             "labelSelector": {"matchLabels": {"app": "web"}}}]}}));
        assert_eq!(fits(soft), [true, true, true, true]);
    }

    #[test]
    fn no_eligible_node_means_every_node_fits() {
        let c = cluster(vec![node(json!({"metadata": {"name": "x"}}))], vec![]);
        assert_eq!(
            filter_all(&EvenPodsSpread, &c, spread_pod(1)),
            vec![Vec::<String>::new()]
        );
    }
}
