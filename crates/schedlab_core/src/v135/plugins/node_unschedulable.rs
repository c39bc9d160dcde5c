//! `NodeUnschedulable` (v1.35, `nodeunschedulable/node_unschedulable.go`; reference §4.1):
//! Filter only. A cordoned node (`spec.unschedulable`) passes only a pod that tolerates the
//! taint `node.kubernetes.io/unschedulable:NoSchedule`; otherwise the node is rejected as
//! UnschedulableAndUnresolvable with `node(s) were unschedulable`.

use crate::cluster::{Cluster, NodeInfo, PodInfo};
use crate::model::field::FieldError;
use crate::model::taint::{tolerated, Taint, NO_SCHEDULE, TAINT_NODE_UNSCHEDULABLE};
use crate::queue::ClusterChange;
use crate::sched::Reason;
use crate::v135::plugin::QueueingHint;
use crate::v135::plugin::{Cx, Plugin, PluginState};
use crate::v135::plugin::{PluginSpec, Point, Points};
use crate::v135::status::Code;
use std::sync::OnceLock;

/// The registry entry.
pub(crate) static SPEC: PluginSpec = PluginSpec {
    name: "NodeUnschedulable",
    points: Points::of(&[Point::Filter]),
    default_enabled: true,
    default_weight: None,
    args_kind: None,
    args_checked_by_validation: false,
    build,
};

/// `ErrReasonUnschedulable`.
pub(crate) const ERR_REASON_UNSCHEDULABLE: &str = "node(s) were unschedulable";

/// The taint a pod must tolerate to land on a cordoned node (empty value, `NoSchedule`).
fn unschedulable_taint() -> &'static Taint {
    static TAINT: OnceLock<Taint> = OnceLock::new();
    TAINT.get_or_init(|| Taint {
        key: TAINT_NODE_UNSCHEDULABLE.into(),
        value: String::new(),
        effect: NO_SCHEDULE.into(),
    })
}

/// The plugin.
pub(crate) struct NodeUnschedulable;

impl Plugin for NodeUnschedulable {
    /// A new node the pod may use, or a node uncordoned.
    fn queueing_hint(
        &self,
        change: &ClusterChange,
        pod: &PodInfo,
        cluster: &Cluster,
    ) -> QueueingHint {
        QueueingHint::queue_if(match *change {
            ClusterChange::NodeAdd(n) => cluster.nodes().get(n).is_some_and(|n| {
                !n.object().spec.unschedulable
                    || tolerated(&pod.pod.spec.tolerations, unschedulable_taint())
            }),
            ClusterChange::NodeUpdate { change, .. } => change.became_schedulable,
            ClusterChange::PodAdd(_) | ClusterChange::PodDelete(_) => false,
        })
    }

    fn name(&self) -> &'static str {
        SPEC.name
    }

    fn passes_everywhere(&self, cx: &Cx) -> bool {
        cx.cluster.nodes_cordoned() == 0
    }

    fn filter(
        &self,
        cx: &Cx,
        _state: Option<&dyn PluginState>,
        node: &NodeInfo,
        reasons: &mut Vec<Reason>,
    ) -> Code {
        if !node.object().spec.unschedulable
            || tolerated(&cx.pod.pod.spec.tolerations, unschedulable_taint())
        {
            return Code::Success;
        }
        reasons.push(ERR_REASON_UNSCHEDULABLE.into());
        Code::UnschedulableAndUnresolvable
    }
}

fn build(_args: Option<&serde_json::Value>) -> Result<Box<dyn Plugin>, Vec<FieldError>> {
    Ok(Box::new(NodeUnschedulable))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{node, pod};
    use crate::v135::plugins::testkit::*;
    use serde_json::json;

    #[test]
    fn cordoned_nodes_reject_unless_the_taint_is_tolerated() {
        let c = cluster135(
            vec![
                node(json!({"metadata": {"name": "open"}})),
                node(json!({"metadata": {"name": "cordoned"}, "spec": {"unschedulable": true}})),
            ],
            vec![],
        );
        let plain = info(pod(json!({})));
        assert_eq!(
            run_filter(&NodeUnschedulable, &c, &plain),
            [
                ok(),
                (
                    Code::UnschedulableAndUnresolvable,
                    vec!["node(s) were unschedulable".to_string()]
                )
            ]
        );
        // Tolerations that match {node.kubernetes.io/unschedulable, "", NoSchedule}.
        for tol in [
            json!({"key": "node.kubernetes.io/unschedulable", "operator": "Exists",
                   "effect": "NoSchedule"}),
            json!({"key": "node.kubernetes.io/unschedulable", "operator": "Exists"}),
            json!({"operator": "Exists"}),
            json!({"key": "node.kubernetes.io/unschedulable", "value": ""}),
        ] {
            let p = info(pod(json!({"spec": {"tolerations": [tol.clone()]}})));
            assert_eq!(
                run_filter(&NodeUnschedulable, &c, &p),
                [ok(), ok()],
                "{tol}"
            );
        }
        // Tolerations that do not match it.
        for tol in [
            json!({"key": "node.kubernetes.io/unschedulable", "operator": "Exists",
                   "effect": "NoExecute"}),
            json!({"key": "node.kubernetes.io/unschedulable", "value": "true"}),
            json!({"key": "other", "operator": "Exists"}),
        ] {
            let p = info(pod(json!({"spec": {"tolerations": [tol.clone()]}})));
            let got = run_filter(&NodeUnschedulable, &c, &p);
            assert_eq!(got[1].0, Code::UnschedulableAndUnresolvable, "{tol}");
        }
    }
}
