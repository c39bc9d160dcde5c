//! `DefaultPreemption` (v1.35, reference §4.16): PostFilter. The evaluator itself lives in
//! [`crate::v135::preemption`]; this file holds the plugin's args
//! (`minCandidateNodesPercentage`, `minCandidateNodesAbsolute`) and their validation.

use crate::model::field::{FieldError, Value};
use crate::v135::plugin::Plugin;
use crate::v135::plugin::{PluginSpec, Point, Points};
use serde::Deserialize;

/// The registry entry.
pub(crate) static SPEC: PluginSpec = PluginSpec {
    name: "DefaultPreemption",
    points: Points::of(&[Point::PreEnqueue, Point::PostFilter]),
    default_enabled: true,
    default_weight: None,
    args_kind: Some("DefaultPreemptionArgs"),
    args_checked_by_validation: true,
    build,
};

/// `DefaultPreemptionArgs`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Args {
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    api_version: Option<String>,
    min_candidate_nodes_percentage: Option<i32>,
    min_candidate_nodes_absolute: Option<i32>,
}

/// The plugin, with its defaulted args.
pub(crate) struct DefaultPreemption {
    percentage: i32,
    absolute: i32,
}

impl DefaultPreemption {
    /// (`minCandidateNodesPercentage`, `minCandidateNodesAbsolute`).
    pub(crate) fn args(&self) -> (i32, i32) {
        (self.percentage, self.absolute)
    }
}

impl Plugin for DefaultPreemption {
    fn name(&self) -> &'static str {
        SPEC.name
    }
}

fn build(args: Option<&serde_json::Value>) -> Result<Box<dyn Plugin>, Vec<FieldError>> {
    let args: Args = match args {
        None => Args {
            kind: None,
            api_version: None,
            min_candidate_nodes_percentage: None,
            min_candidate_nodes_absolute: None,
        },
        Some(v) => serde_path_to_error::deserialize(v.clone()).map_err(|e| {
            vec![FieldError::plain(
                e.path().to_string().trim_start_matches('.'),
                e.into_inner().to_string(),
            )]
        })?,
    };
    let _ = (&args.kind, &args.api_version);
    let percentage = args.min_candidate_nodes_percentage.unwrap_or(10);
    let absolute = args.min_candidate_nodes_absolute.unwrap_or(100);
    let mut errors = Vec::new();
    if !(0..=100).contains(&percentage) {
        errors.push(FieldError::invalid(
            "minCandidateNodesPercentage",
            Value::Int(percentage.into()),
            "not in valid range [0, 100]",
        ));
    }
    if absolute < 0 {
        errors.push(FieldError::invalid(
            "minCandidateNodesAbsolute",
            Value::Int(absolute.into()),
            "not in valid range [0, inf)",
        ));
    }
    if percentage == 0 && absolute == 0 {
        errors.push(FieldError::invalid(
            "minCandidateNodesPercentage",
            Value::Int(0),
            "cannot be zero at the same time as minCandidateNodesAbsolute",
        ));
        errors.push(FieldError::invalid(
            "minCandidateNodesAbsolute",
            Value::Int(0),
            "cannot be zero at the same time as minCandidateNodesPercentage",
        ));
    }
    if errors.is_empty() {
        Ok(Box::new(DefaultPreemption {
            percentage,
            absolute,
        }))
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn errors(v: serde_json::Value) -> Vec<String> {
        crate::v135::plugins::testkit::build_errors(build, v)
    }

    #[test]
    fn args_default_to_10_percent_and_100_nodes() {
        let p = build(None).expect("defaults build");
        let dp = p
            .as_any()
            .downcast_ref::<DefaultPreemption>()
            .expect("type");
        assert_eq!(dp.args(), (10, 100));
    }

    #[test]
    fn args_are_validated_with_upstreams_wording() {
        assert_eq!(
            errors(json!({"minCandidateNodesPercentage": 101})),
            ["minCandidateNodesPercentage: Invalid value: 101: not in valid range [0, 100]"]
        );
        assert_eq!(
            errors(json!({"minCandidateNodesAbsolute": -1})),
            ["minCandidateNodesAbsolute: Invalid value: -1: not in valid range [0, inf)"]
        );
        assert_eq!(
            errors(json!({"minCandidateNodesPercentage": 0, "minCandidateNodesAbsolute": 0})),
            [
                "minCandidateNodesPercentage: Invalid value: 0: cannot be zero at the same time as minCandidateNodesAbsolute",
                "minCandidateNodesAbsolute: Invalid value: 0: cannot be zero at the same time as minCandidateNodesPercentage"
            ]
        );
        assert_eq!(
            errors(json!({"kind": "DefaultPreemptionArgs", "minCandidateNodesAbsolute": 5})),
            Vec::<String>::new()
        );
        assert_eq!(errors(json!({"bogus": 1})).len(), 1);
    }
}
