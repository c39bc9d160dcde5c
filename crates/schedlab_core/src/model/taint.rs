//! Taints and tolerations with v1.17's `ToleratesTaint` rule (operators `Equal` and `Exists`).

use serde::{Deserialize, Serialize};

/// `v1.Taint`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Taint {
    /// The key.
    pub key: String,
    /// The value (may be empty).
    #[serde(default)]
    pub value: String,
    /// `NoSchedule`, `PreferNoSchedule` or `NoExecute`.
    pub effect: String,
}

/// `v1.Toleration`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Toleration {
    /// Empty matches every key.
    #[serde(default)]
    pub key: String,
    /// `Equal` (default) or `Exists`.
    #[serde(default)]
    pub operator: String,
    /// Compared with `Equal`.
    #[serde(default)]
    pub value: String,
    /// Empty matches every effect.
    #[serde(default)]
    pub effect: String,
    /// Irrelevant to scheduling; kept for round-trips.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toleration_seconds: Option<i64>,
}

/// `v1.TaintNodeUnschedulable`: the taint of a cordoned node (empty value, `NoSchedule`).
pub const TAINT_NODE_UNSCHEDULABLE: &str = "node.kubernetes.io/unschedulable";

/// `key=value:effect`, or `key:effect` without a value, as `kubectl describe node` prints it.
impl std::fmt::Display for Taint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.value.is_empty() {
            write!(f, "{}:{}", self.key, self.effect)
        } else {
            write!(f, "{}={}:{}", self.key, self.value, self.effect)
        }
    }
}

/// `NoSchedule`.
pub const NO_SCHEDULE: &str = "NoSchedule";
/// `PreferNoSchedule`.
pub const PREFER_NO_SCHEDULE: &str = "PreferNoSchedule";
/// `NoExecute`.
pub const NO_EXECUTE: &str = "NoExecute";

impl Toleration {
    /// `Toleration.ToleratesTaint` as of v1.17.
    pub fn tolerates(&self, taint: &Taint) -> bool {
        if !self.effect.is_empty() && self.effect != taint.effect {
            return false;
        }
        if !self.key.is_empty() && self.key != taint.key {
            return false;
        }
        match self.operator.as_str() {
            "" | "Equal" => self.value == taint.value,
            "Exists" => true,
            _ => false,
        }
    }
}

/// `TolerationsTolerateTaint`: some toleration tolerates the taint.
pub fn tolerated(tolerations: &[Toleration], taint: &Taint) -> bool {
    tolerations.iter().any(|t| t.tolerates(taint))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn taint(k: &str, v: &str, e: &str) -> Taint {
        Taint {
            key: k.into(),
            value: v.into(),
            effect: e.into(),
        }
    }
    fn tol(k: &str, op: &str, v: &str, e: &str) -> Toleration {
        Toleration {
            key: k.into(),
            operator: op.into(),
            value: v.into(),
            effect: e.into(),
            toleration_seconds: None,
        }
    }

    #[test]
    fn toleration_rules() {
        let t = taint("dedicated", "gpu", NO_SCHEDULE);
        let cases = [
            (
                "equal key and value",
                tol("dedicated", "Equal", "gpu", NO_SCHEDULE),
                true,
            ),
            (
                "empty operator means Equal",
                tol("dedicated", "", "gpu", ""),
                true,
            ),
            (
                "wrong value",
                tol("dedicated", "Equal", "cpu", NO_SCHEDULE),
                false,
            ),
            (
                "exists ignores value",
                tol("dedicated", "Exists", "", NO_SCHEDULE),
                true,
            ),
            (
                "other effect",
                tol("dedicated", "Exists", "", NO_EXECUTE),
                false,
            ),
            (
                "empty key with Exists tolerates all",
                tol("", "Exists", "", ""),
                true,
            ),
            ("other key", tol("x", "Exists", "", ""), false),
            ("unknown operator", tol("dedicated", "Gt", "gpu", ""), false),
        ];
        for (name, tl, want) in cases {
            assert_eq!(tl.tolerates(&t), want, "{name}");
        }
    }
}
