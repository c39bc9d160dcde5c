//! `NodeName` (v1.35, `nodename/node_name.go`; reference §4.2): Filter only. A pod whose
//! `spec.nodeName` is set fits only the node of that name; the others are rejected as
//! UnschedulableAndUnresolvable with `node(s) didn't match the requested node name` (v1.17 said
//! `hostname`).

use crate::cluster::{Cluster, NodeInfo, PodInfo};
use crate::model::field::FieldError;
use crate::queue::ClusterChange;
use crate::sched::Reason;
use crate::v135::plugin::QueueingHint;
use crate::v135::plugin::{Cx, Plugin, PluginState};
use crate::v135::plugin::{PluginSpec, Point, Points};
use crate::v135::status::Code;

/// The registry entry.
pub(crate) static SPEC: PluginSpec = PluginSpec {
    name: "NodeName",
    points: Points::of(&[Point::Filter]),
    default_enabled: true,
    default_weight: None,
    args_kind: None,
    args_checked_by_validation: false,
    build,
};

/// `ErrReason`.
pub(crate) const ERR_REASON: &str = "node(s) didn't match the requested node name";

/// The plugin.
pub(crate) struct NodeName;

impl Plugin for NodeName {
    /// The node the pod names, added.
    fn queueing_hint(
        &self,
        change: &ClusterChange,
        pod: &PodInfo,
        cluster: &Cluster,
    ) -> QueueingHint {
        QueueingHint::queue_if(match *change {
            ClusterChange::NodeAdd(n) => cluster
                .nodes()
                .get(n)
                .is_some_and(|n| n.name() == pod.pod.spec.node_name),
            _ => false,
        })
    }

    fn name(&self) -> &'static str {
        SPEC.name
    }

    fn passes_everywhere(&self, cx: &Cx) -> bool {
        cx.pod.pod.spec.node_name.is_empty()
    }

    fn filter(
        &self,
        cx: &Cx,
        _state: Option<&dyn PluginState>,
        node: &NodeInfo,
        reasons: &mut Vec<Reason>,
    ) -> Code {
        let wanted = &cx.pod.pod.spec.node_name;
        if wanted.is_empty() || wanted == node.name() {
            return Code::Success;
        }
        reasons.push(ERR_REASON.into());
        Code::UnschedulableAndUnresolvable
    }
}

fn build(_args: Option<&serde_json::Value>) -> Result<Box<dyn Plugin>, Vec<FieldError>> {
    Ok(Box::new(NodeName))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{node, pod};
    use crate::v135::plugins::testkit::*;
    use serde_json::json;

    #[test]
    fn only_the_named_node_fits() {
        let c = cluster135(
            vec![
                node(json!({"metadata": {"name": "a"}})),
                node(json!({"metadata": {"name": "b"}})),
            ],
            vec![],
        );
        let free = info(pod(json!({})));
        assert_eq!(run_filter(&NodeName, &c, &free), [ok(), ok()]);
        let to_b = info(pod(json!({"spec": {"nodeName": "b"}})));
        assert_eq!(
            run_filter(&NodeName, &c, &to_b),
            [
                (
                    Code::UnschedulableAndUnresolvable,
                    vec!["node(s) didn't match the requested node name".to_string()]
                ),
                ok()
            ]
        );
        let nowhere = info(pod(json!({"spec": {"nodeName": "c"}})));
        let got = run_filter(&NodeName, &c, &nowhere);
        assert!(got
            .iter()
            .all(|(code, _)| *code == Code::UnschedulableAndUnresolvable));
    }
}
