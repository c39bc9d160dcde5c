//! `TaintToleration` (v1.35, `tainttoleration/taint_toleration.go`; reference §4.3): Filter,
//! PreScore, Score (weight 3 by default), NormalizeScore.
//!
//! - Filter: the first node taint with effect `NoSchedule` or `NoExecute` that no toleration of
//!   the pod tolerates rejects the node: UnschedulableAndUnresolvable,
//!   `node(s) had untolerated taint(s)`.
//! - PreScore keeps the pod's tolerations whose effect is empty or `PreferNoSchedule`.
//! - Score: how many `PreferNoSchedule` taints of the node none of those tolerates.
//! - NormalizeScore: [`super::helper::default_normalize_score`]`(100, reverse)`: fewer such taints, higher score.
//!
//! Toleration matching is `ToleratesTaint` with the alpha gate `TaintTolerationComparisonOperators`
//! off (`Lt`/`Gt` never match), which is [`crate::model::taint::Toleration::tolerates`].

use super::helper::default_normalize_score;
use crate::cluster::{Cluster, NodeId, NodeInfo, PodInfo};
use crate::model::field::FieldError;
use crate::model::taint::{Toleration, NO_EXECUTE, NO_SCHEDULE, PREFER_NO_SCHEDULE};
use crate::sched::Reason;
use crate::v135::plugin::{state, Cx, Plugin, PluginState, PreScoreOutput};
use crate::v135::plugin::{PluginSpec, Point, Points};
use crate::v135::status::Code;

/// The registry entry.
pub(crate) static SPEC: PluginSpec = PluginSpec {
    name: "TaintToleration",
    points: Points::of(&[Point::Filter, Point::PreScore, Point::Score]),
    default_enabled: true,
    default_weight: Some(3),
    args_kind: None,
    args_checked_by_validation: false,
    build,
};

/// The Filter's reason (v1.34 named the taint; v1.17 said
/// `node(s) had taints that the pod didn't tolerate`).
pub(crate) const ERR_REASON_UNTOLERATED: &str = "node(s) had untolerated taint(s)";

use crate::model::taint::tolerated;
use crate::queue::ClusterChange;
/// `MaxNodeScore`.
use crate::sched::MAX_NODE_SCORE;
use crate::v135::plugin::QueueingHint;

/// PreScore's state: the indices of the pod's tolerations whose effect is empty or
/// `PreferNoSchedule` (`getAllTolerationPreferNoSchedule`), so Score copies nothing.
#[derive(Clone, Debug, Default)]
struct PreferNoScheduleTolerations(Vec<u32>);

/// The plugin.
pub(crate) struct TaintToleration;

impl TaintToleration {
    /// `countIntolerableTaintsPreferNoSchedule`.
    fn count_intolerable(tolerations: &[Toleration], keep: &[u32], node: &NodeInfo) -> i64 {
        node.object()
            .spec
            .taints
            .iter()
            .filter(|t| t.effect == PREFER_NO_SCHEDULE)
            .filter(|t| !keep.iter().any(|&i| tolerations[i as usize].tolerates(t)))
            .count() as i64
    }

    fn prefer_no_schedule(tolerations: &[Toleration]) -> PreferNoScheduleTolerations {
        PreferNoScheduleTolerations(
            tolerations
                .iter()
                .enumerate()
                .filter(|(_, t)| t.effect.is_empty() || t.effect == PREFER_NO_SCHEDULE)
                .map(|(i, _)| i as u32)
                .collect(),
        )
    }
}

impl Plugin for TaintToleration {
    /// A new node, or a taint change, whose taints the pod tolerates.
    fn queueing_hint(
        &self,
        change: &ClusterChange,
        pod: &PodInfo,
        cluster: &Cluster,
    ) -> QueueingHint {
        let tolerates = |id: NodeId| {
            cluster.nodes().get(id).is_some_and(|n| {
                n.object()
                    .spec
                    .taints
                    .iter()
                    .filter(|t| t.effect == NO_SCHEDULE || t.effect == NO_EXECUTE)
                    .all(|t| tolerated(&pod.pod.spec.tolerations, t))
            })
        };
        QueueingHint::queue_if(match *change {
            ClusterChange::NodeAdd(n) => tolerates(n),
            ClusterChange::NodeUpdate { node, change, .. } => change.taints && tolerates(node),
            ClusterChange::PodAdd(_) | ClusterChange::PodDelete(_) => false,
        })
    }

    fn name(&self) -> &'static str {
        SPEC.name
    }

    fn passes_everywhere(&self, cx: &Cx) -> bool {
        cx.cluster.nodes_with_hard_taints() == 0
    }

    fn uniform_score(&self, cx: &Cx, _state: Option<&dyn PluginState>) -> Option<i64> {
        (cx.cluster.nodes_with_soft_taints() == 0).then_some(0)
    }

    fn filter(
        &self,
        cx: &Cx,
        _state: Option<&dyn PluginState>,
        node: &NodeInfo,
        reasons: &mut Vec<Reason>,
    ) -> Code {
        let tolerations = &cx.pod.pod.spec.tolerations;
        let untolerated = node.object().spec.taints.iter().any(|t| {
            (t.effect == NO_SCHEDULE || t.effect == NO_EXECUTE)
                && !tolerations.iter().any(|tl| tl.tolerates(t))
        });
        if !untolerated {
            return Code::Success;
        }
        reasons.push(ERR_REASON_UNTOLERATED.into());
        Code::UnschedulableAndUnresolvable
    }

    fn pre_score(&self, cx: &Cx, _nodes: &[&NodeInfo]) -> PreScoreOutput {
        PreScoreOutput::with_state(Self::prefer_no_schedule(&cx.pod.pod.spec.tolerations))
    }

    fn score(&self, cx: &Cx, st: Option<&dyn PluginState>, node: &NodeInfo) -> Result<i64, String> {
        let tolerations = &cx.pod.pod.spec.tolerations;
        Ok(match state::<PreferNoScheduleTolerations>(st) {
            Some(keep) => Self::count_intolerable(tolerations, &keep.0, node),
            None => {
                let keep = Self::prefer_no_schedule(tolerations);
                Self::count_intolerable(tolerations, &keep.0, node)
            }
        })
    }

    fn normalize(
        &self,
        _cx: &Cx,
        _state: Option<&dyn PluginState>,
        _nodes: &[&NodeInfo],
        scores: &mut [i64],
    ) {
        default_normalize_score(MAX_NODE_SCORE, true, scores);
    }
}

fn build(_args: Option<&serde_json::Value>) -> Result<Box<dyn Plugin>, Vec<FieldError>> {
    Ok(Box::new(TaintToleration))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{node, pod};
    use crate::v135::plugins::testkit::*;
    use serde_json::{json, Value};

    fn tainted(name: &str, taints: Value) -> crate::model::Node {
        node(json!({"metadata": {"name": name}, "spec": {"taints": taints}}))
    }

    #[test]
    fn filter_rejects_untolerated_hard_taints_only() {
        let c = cluster135(
            vec![
                tainted("none", json!([])),
                tainted("soft", json!([{"key": "a", "effect": "PreferNoSchedule"}])),
                tainted(
                    "hard",
                    json!([{"key": "a", "value": "x", "effect": "NoSchedule"}]),
                ),
                tainted("evict", json!([{"key": "b", "effect": "NoExecute"}])),
            ],
            vec![],
        );
        let untol = (
            Code::UnschedulableAndUnresolvable,
            vec!["node(s) had untolerated taint(s)".to_string()],
        );
        let plain = info(pod(json!({})));
        assert_eq!(
            run_filter(&TaintToleration, &c, &plain),
            [ok(), ok(), untol.clone(), untol.clone()]
        );
        // a=x:NoSchedule tolerated by value; b:NoExecute still not.
        let p = info(pod(
            json!({"spec": {"tolerations": [{"key": "a", "value": "x", "effect": "NoSchedule"}]}}),
        ));
        assert_eq!(
            run_filter(&TaintToleration, &c, &p),
            [ok(), ok(), ok(), untol.clone()]
        );
        // Lt/Gt never match with the alpha gate off.
        let p = info(pod(
            json!({"spec": {"tolerations": [{"key": "a", "operator": "Gt", "value": "1"}]}}),
        ));
        assert_eq!(run_filter(&TaintToleration, &c, &p)[2], untol);
        // Exists with an empty key tolerates everything.
        let p = info(pod(
            json!({"spec": {"tolerations": [{"operator": "Exists"}]}}),
        ));
        assert_eq!(
            run_filter(&TaintToleration, &c, &p),
            [ok(), ok(), ok(), ok()]
        );
    }

    #[test]
    fn score_counts_untolerated_prefer_no_schedule_taints_reversed() {
        let c = cluster135(
            vec![
                tainted("zero", json!([])),
                tainted(
                    "one",
                    json!([{"key": "a", "effect": "PreferNoSchedule"},
                           {"key": "h", "effect": "NoSchedule"}]),
                ),
                tainted(
                    "three",
                    json!([{"key": "a", "effect": "PreferNoSchedule"},
                           {"key": "b", "effect": "PreferNoSchedule"},
                           {"key": "c", "effect": "PreferNoSchedule"}]),
                ),
            ],
            vec![],
        );
        // No tolerations: raw 0, 1, 3 (the NoSchedule taint is not counted).
        // Normalized reverse with max 3: 100-0 = 100, 100-100*1/3 = 100-33 = 67, 100-100 = 0.
        let plain = info(pod(json!({})));
        assert_eq!(
            run_score(&TaintToleration, &c, &plain),
            Some((vec![0, 1, 3], vec![100, 67, 0]))
        );
        // A toleration with effect NoSchedule is not kept by PreScore, so it tolerates nothing
        // here; one with an empty effect is kept: it tolerates `a`.
        let p = info(pod(json!({"spec": {"tolerations": [
            {"key": "b", "operator": "Exists", "effect": "NoSchedule"},
            {"key": "a", "operator": "Exists"}]}})));
        // Raw: 0, 0, 2 (b and c). Normalized: 100, 100, 100-100*2/2 = 0.
        assert_eq!(
            run_score(&TaintToleration, &c, &p),
            Some((vec![0, 0, 2], vec![100, 100, 0]))
        );
        // Everything tolerated: raw all 0, reverse gives 100 everywhere.
        let p = info(pod(json!({"spec": {"tolerations": [
            {"operator": "Exists", "effect": "PreferNoSchedule"}]}})));
        assert_eq!(
            run_score(&TaintToleration, &c, &p),
            Some((vec![0, 0, 0], vec![100, 100, 100]))
        );
    }
}
