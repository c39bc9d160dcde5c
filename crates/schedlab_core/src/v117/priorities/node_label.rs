//! `NodeLabelPriority` (Policy argument `labelPreference {label, presence}`): 100 when the label's
//! presence on the node is as wanted, else 0. The value is ignored.

use super::MAX_NODE_SCORE;
use crate::cluster::NodeInfo;
use crate::v117::{CycleContext, CycleError, ScorePlugin, State};

/// The priority with its arguments.
pub(crate) struct NodeLabel {
    /// The label key.
    pub label: String,
    /// Whether presence is preferred.
    pub presence: bool,
}

impl ScorePlugin for NodeLabel {
    fn normalizes(&self) -> bool {
        false
    }
    fn score(&self, _: &CycleContext, _: &State, node: &NodeInfo) -> Result<i64, CycleError> {
        let exists = node.labels().contains_key(&self.label);
        Ok(if exists == self.presence {
            MAX_NODE_SCORE
        } else {
            0
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;
    use serde_json::json;

    #[test]
    fn presence_is_rewarded() {
        let c = cluster(
            vec![
                node(json!({"metadata": {"name": "a", "labels": {"ssd": ""}}})),
                node(json!({"metadata": {"name": "b"}})),
            ],
            vec![],
        );
        let want = NodeLabel {
            label: "ssd".into(),
            presence: true,
        };
        assert_eq!(score_all(&want, &c, pod(json!({}))).1, [100, 0]);
        let avoid = NodeLabel {
            label: "ssd".into(),
            presence: false,
        };
        assert_eq!(score_all(&avoid, &c, pod(json!({}))).1, [0, 100]);
    }
}
