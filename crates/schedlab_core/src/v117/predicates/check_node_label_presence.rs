//! `CheckNodeLabelPresence` (Policy argument `labelsPresence {labels, presence}`): with
//! `presence: true` every listed label key must be on the node, with `false` none may be.
//! Label values are ignored.

use super::PredicateSpec;
use crate::cluster::NodeInfo;
use crate::v117::{CycleContext, FailureReason, FilterPlugin, FilterResult, State};
/// `CheckNodeLabelPresence` in the legacy registry.
pub(crate) static SPEC: PredicateSpec = PredicateSpec {
    name: "CheckNodeLabelPresence",
    order: Some(9),
    plain: false,
    default_provider: None,
    mandatory: false,
    build: None,
};

/// The predicate with its arguments.
pub(crate) struct CheckNodeLabelPresence {
    /// Label keys.
    pub labels: Vec<String>,
    /// Whether they must be present (true) or absent (false).
    pub presence: bool,
}

impl FilterPlugin for CheckNodeLabelPresence {
    fn filter(&self, _: &CycleContext, _: &State, node: &NodeInfo) -> FilterResult {
        let node_labels = node.labels();
        let ok = self
            .labels
            .iter()
            .all(|l| node_labels.contains_key(l) == self.presence);
        Ok(if ok {
            vec![]
        } else {
            vec![FailureReason::NodeLabelPresenceViolated.into()]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;
    use serde_json::json;

    #[test]
    fn presence_and_absence() {
        let c = cluster(
            vec![
                node(json!({"metadata": {"name": "a", "labels": {"foo": "bar", "bar": "foo"}}})),
                node(json!({"metadata": {"name": "b", "labels": {"foo": "x"}}})),
            ],
            vec![],
        );
        let run = |labels: &[&str], presence| {
            let p = CheckNodeLabelPresence {
                labels: labels.iter().map(|s| s.to_string()).collect(),
                presence,
            };
            filter_all(&p, &c, pod(json!({})))
                .iter()
                .map(|r| r.is_empty())
                .collect::<Vec<_>>()
        };
        assert_eq!(run(&["foo", "bar"], true), [true, false]);
        assert_eq!(run(&["bar"], false), [false, true]);
        assert_eq!(run(&["baz"], false), [true, true]);
        assert_eq!(run(&["baz"], true), [false, false]);
        let p = CheckNodeLabelPresence {
            labels: vec!["baz".into()],
            presence: true,
        };
        assert_eq!(
            filter_all(&p, &c, pod(json!({})))[0],
            ["node(s) didn't have the requested labels"]
        );
    }
}
