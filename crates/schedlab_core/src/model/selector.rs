//! Label selectors and node selector terms, with apimachinery's matching rules.
//!
//! Two families share the operators `In`, `NotIn`, `Exists`, `DoesNotExist`:
//! `metav1.LabelSelector` (pods, workloads; nil matches nothing, `{}` matches everything) and
//! `v1.NodeSelectorTerm` (node affinity; adds `Gt`/`Lt` and `matchFields`). A requirement that
//! apimachinery could not build (bad values, unknown operator) makes its term match nothing,
//! never an error, as upstream's `MatchNodeSelectorTerms` does.

use super::meta::Labels;
use serde::{Deserialize, Serialize};

/// `metav1.LabelSelector`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct LabelSelector {
    /// Exact key/value pairs, ANDed.
    #[serde(default)]
    pub match_labels: Labels,
    /// Set-based requirements, ANDed.
    #[serde(default)]
    pub match_expressions: Vec<Requirement>,
}

/// One `matchExpressions` entry (labels or node selector).
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Requirement {
    /// The label key.
    pub key: String,
    /// `In`, `NotIn`, `Exists`, `DoesNotExist` (and `Gt`, `Lt` for nodes).
    pub operator: String,
    /// The values.
    #[serde(default)]
    pub values: Vec<String>,
}

/// `v1.NodeSelectorTerm`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct NodeSelectorTerm {
    /// Label requirements, ANDed.
    #[serde(default)]
    pub match_expressions: Vec<Requirement>,
    /// Field requirements (`metadata.name`), ANDed.
    #[serde(default)]
    pub match_fields: Vec<Requirement>,
}

/// `v1.NodeSelector`: terms ORed.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct NodeSelector {
    /// The terms.
    #[serde(default)]
    pub node_selector_terms: Vec<NodeSelectorTerm>,
}

/// Whether a value is a valid label value (empty, or ≤63 chars of `[A-Za-z0-9._-]` starting and
/// ending alphanumeric).
pub fn is_valid_label_value(v: &str) -> bool {
    if v.is_empty() {
        return true;
    }
    let b = v.as_bytes();
    v.len() <= 63
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

impl Requirement {
    /// Evaluates against labels; `None` when the requirement is invalid (apimachinery would
    /// refuse to build it).
    fn eval(&self, labels: &Labels, allow_numeric: bool) -> Option<bool> {
        let value = labels.get(&self.key);
        match self.operator.as_str() {
            "In" | "NotIn" => {
                if self.values.is_empty() || !self.values.iter().all(|v| is_valid_label_value(v)) {
                    return None;
                }
                let found = value.is_some_and(|v| self.values.iter().any(|x| x == v));
                Some(if self.operator == "In" { found } else { !found })
            }
            "Exists" | "DoesNotExist" => {
                if !self.values.is_empty() {
                    return None;
                }
                let present = value.is_some();
                Some(if self.operator == "Exists" {
                    present
                } else {
                    !present
                })
            }
            "Gt" | "Lt" if allow_numeric => {
                if self.values.len() != 1 || !is_valid_label_value(&self.values[0]) {
                    return None;
                }
                let want: i64 = self.values[0].parse().ok()?;
                let Some(have) = value else {
                    return Some(false);
                };
                let Ok(have) = have.parse::<i64>() else {
                    return Some(false);
                };
                Some(if self.operator == "Gt" {
                    have > want
                } else {
                    have < want
                })
            }
            _ => None,
        }
    }
}

impl LabelSelector {
    /// `LabelSelectorAsSelector(sel).Matches(labels)`; an invalid selector matches nothing.
    pub fn matches(&self, labels: &Labels) -> bool {
        self.match_labels
            .iter()
            .all(|(k, v)| labels.get(k) == Some(v))
            && self
                .match_expressions
                .iter()
                .all(|r| r.eval(labels, false) == Some(true))
    }

    /// True when the selector selects everything (`{}`).
    pub fn is_empty(&self) -> bool {
        self.match_labels.is_empty() && self.match_expressions.is_empty()
    }
}

/// `labels.SelectorFromSet(set).Matches(labels)`: every pair present with equal value.
/// An empty set matches everything.
pub fn set_matches(set: &Labels, labels: &Labels) -> bool {
    set.iter().all(|(k, v)| labels.get(k) == Some(v))
}

/// Matches an optional `LabelSelector`: `None` matches nothing.
pub fn selector_matches(sel: Option<&LabelSelector>, labels: &Labels) -> bool {
    sel.is_some_and(|s| s.matches(labels))
}

impl NodeSelectorTerm {
    /// True when the term has no requirements at all (matches nothing).
    pub fn is_empty(&self) -> bool {
        self.match_expressions.is_empty() && self.match_fields.is_empty()
    }

    /// Whether this term matches a node with these labels and name.
    pub fn matches(&self, labels: &Labels, node_name: &str) -> bool {
        if self.is_empty() {
            return false;
        }
        let exprs_ok = self
            .match_expressions
            .iter()
            .all(|r| r.eval(labels, true) == Some(true));
        if !exprs_ok {
            return false;
        }
        self.match_fields
            .iter()
            .all(|f| field_matches(f, node_name))
    }

    /// Preference matching for `NodeAffinityPriority`: only `matchExpressions` count; an empty
    /// expression list matches nothing.
    pub fn matches_expressions_only(&self, labels: &Labels) -> bool {
        !self.match_expressions.is_empty()
            && self
                .match_expressions
                .iter()
                .all(|r| r.eval(labels, true) == Some(true))
    }
}

fn field_matches(req: &Requirement, node_name: &str) -> bool {
    if req.key != "metadata.name" || req.values.len() != 1 {
        return false;
    }
    match req.operator.as_str() {
        "In" => req.values[0] == node_name,
        "NotIn" => req.values[0] != node_name,
        _ => false,
    }
}

impl NodeSelector {
    /// Terms are ORed; no terms match nothing.
    pub fn matches(&self, labels: &Labels, node_name: &str) -> bool {
        self.node_selector_terms
            .iter()
            .any(|t| t.matches(labels, node_name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(pairs: &[(&str, &str)]) -> Labels {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }
    fn req(key: &str, op: &str, values: &[&str]) -> Requirement {
        Requirement {
            key: key.into(),
            operator: op.into(),
            values: values.iter().map(|s| s.to_string()).collect(),
        }
    }
    fn term(exprs: Vec<Requirement>) -> NodeSelectorTerm {
        NodeSelectorTerm {
            match_expressions: exprs,
            match_fields: vec![],
        }
    }

    #[test]
    fn node_selector_operators() {
        let l = labels(&[("zone", "a"), ("gen", "5")]);
        let cases: &[(&str, Requirement, bool)] = &[
            ("In with the value", req("zone", "In", &["a", "b"]), true),
            ("In without the value", req("zone", "In", &["b"]), false),
            ("In on a missing key", req("x", "In", &["a"]), false),
            (
                "NotIn on a missing key matches",
                req("x", "NotIn", &["a"]),
                true,
            ),
            ("NotIn with the value", req("zone", "NotIn", &["a"]), false),
            ("Exists", req("zone", "Exists", &[]), true),
            (
                "Exists with values is invalid",
                req("zone", "Exists", &["a"]),
                false,
            ),
            ("DoesNotExist", req("x", "DoesNotExist", &[]), true),
            ("Gt", req("gen", "Gt", &["4"]), true),
            ("Gt equal is false", req("gen", "Gt", &["5"]), false),
            ("Lt", req("gen", "Lt", &["6"]), true),
            (
                "Gt with two values is invalid",
                req("gen", "Gt", &["1", "2"]),
                false,
            ),
            ("Gt on non-numeric label", req("zone", "Gt", &["1"]), false),
            (
                "In with empty values is invalid",
                req("zone", "In", &[]),
                false,
            ),
            (
                "invalid label value",
                req("zone", "In", &["___@#$%^"]),
                false,
            ),
            ("unknown operator", req("zone", "Like", &["a"]), false),
        ];
        for (name, r, want) in cases {
            assert_eq!(term(vec![r.clone()]).matches(&l, "n1"), *want, "{name}");
        }
    }

    #[test]
    fn empty_terms_match_nothing_and_fields_use_the_name() {
        let l = labels(&[]);
        assert!(!NodeSelectorTerm::default().matches(&l, "n1"));
        let by_name = NodeSelectorTerm {
            match_expressions: vec![],
            match_fields: vec![req("metadata.name", "In", &["n1"])],
        };
        assert!(by_name.matches(&l, "n1"));
        assert!(!by_name.matches(&l, "n2"));
        let two_values = NodeSelectorTerm {
            match_expressions: vec![],
            match_fields: vec![req("metadata.name", "In", &["n1", "n2"])],
        };
        assert!(!two_values.matches(&l, "n1"));
        assert!(!NodeSelector::default().matches(&l, "n1"));
    }

    #[test]
    fn label_selectors() {
        let l = labels(&[("app", "web")]);
        assert!(LabelSelector::default().matches(&l));
        assert!(!selector_matches(None, &l));
        let s = LabelSelector {
            match_labels: labels(&[("app", "web")]),
            match_expressions: vec![req("tier", "DoesNotExist", &[])],
        };
        assert!(s.matches(&l));
        // Gt is not a label-selector operator.
        let gt = LabelSelector {
            match_labels: Labels::new(),
            match_expressions: vec![req("app", "Gt", &["1"])],
        };
        assert!(!gt.matches(&l));
    }
}
