//! `DynamicResources` (v1.35, reference §4.19 and §3.6): PreEnqueue, PreFilter, Filter,
//! PostFilter, Score, Reserve, PreBind.
//!
//! Dynamic resource allocation is not modelled (ResourceClaims, ResourceSlices and
//! DeviceClasses are not read; the input warns about pods with `resourceClaims`). Every pod is
//! therefore treated as a pod without claims, which upstream handles so:
//! - PreEnqueue passes;
//! - PreFilter stores an empty state and returns `Skip`, so Filter never runs for the pod;
//! - Score is 0 on every node (the plugin stays in the score list with weight 2 and adds
//!   nothing);
//! - Reserve and PreBind do nothing;
//! - PostFilter answers Unschedulable `no new claims to deallocate` (the framework words it,
//!   see [`crate::v135::cycle`]).
//!
//! Args (`DynamicResourcesArgs`): `filterTimeout` and `bindingTimeout` (durations such as
//! `10s`) are read strictly and ignored.
//!
//! Deviations: a pod with `resourceClaims` is scheduled as if it had none (upstream looks the
//! claims up and allocates devices). The args are not validated: upstream forbids
//! `bindingTimeout` while its alpha gates are off and checks that `filterTimeout` is not
//! negative.

pub(crate) mod cel;
mod cel_check;
pub(crate) mod allocator;
mod selectors;
#[cfg(test)]
mod allocator_tests;

use crate::cluster::NodeInfo;
use crate::model::field::FieldError;
use crate::sched::Reason;
use crate::v135::plugin::{Cx, Plugin, PluginState, PreFilterOutput};
use crate::v135::plugin::{PluginSpec, Point, Points};
use crate::v135::status::Code;
use serde::Deserialize;

/// The registry entry.
pub(crate) static SPEC: PluginSpec = PluginSpec {
    name: "DynamicResources",
    points: Points::of(&[
        Point::PreEnqueue,
        Point::PreFilter,
        Point::Filter,
        Point::PostFilter,
        Point::Score,
        Point::Reserve,
        Point::PreBind,
    ]),
    default_enabled: true,
    default_weight: Some(2),
    args_kind: Some("DynamicResourcesArgs"),
    args_checked_by_validation: true,
    build,
};

/// `DynamicResourcesArgs`.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Args {
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    api_version: Option<String>,
    #[serde(default)]
    filter_timeout: Option<String>,
    #[serde(default)]
    binding_timeout: Option<String>,
}

/// The plugin.
pub(crate) struct DynamicResources;

/// PreFilter's state: the pod's claims (always none here).
#[derive(Clone, Debug, Default)]
struct DraState;

impl Plugin for DynamicResources {
    fn name(&self) -> &'static str {
        SPEC.name
    }

    fn uniform_score(&self, _cx: &Cx, _state: Option<&dyn PluginState>) -> Option<i64> {
        // No claims are modelled: every node scores 0.
        Some(0)
    }

    fn pre_filter(&self, _cx: &Cx) -> PreFilterOutput {
        // No claims: an empty state is written and the plugin is skipped.
        PreFilterOutput {
            state: Some(Box::new(DraState)),
            ..PreFilterOutput::skip()
        }
    }

    fn filter(
        &self,
        _cx: &Cx,
        _state: Option<&dyn PluginState>,
        _node: &NodeInfo,
        _reasons: &mut Vec<Reason>,
    ) -> Code {
        Code::Success
    }

    fn score(
        &self,
        _cx: &Cx,
        _state: Option<&dyn PluginState>,
        _node: &NodeInfo,
    ) -> Result<i64, String> {
        Ok(0)
    }
}

fn build(args: Option<&serde_json::Value>) -> Result<Box<dyn Plugin>, Vec<FieldError>> {
    if let Some(v) = args {
        let args: Args = serde_path_to_error::deserialize(v).map_err(|e| {
            vec![FieldError::plain(
                e.path().to_string().trim_start_matches('.'),
                e.into_inner().to_string(),
            )]
        })?;
        let _ = (
            args.kind,
            args.api_version,
            args.filter_timeout,
            args.binding_timeout,
        );
    }
    Ok(Box::new(DynamicResources))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::{Cluster, PodInfo};
    use crate::testing::{node, pod};
    use crate::v135::status::Status;
    use serde_json::json;

    #[test]
    fn a_pod_without_claims_is_skipped_and_scores_zero() {
        let mut c = Cluster::default();
        c.add_node(node(json!({"metadata": {"name": "a"}})));
        let info = PodInfo::new_v135(pod(json!({})), 0, 0);
        let order = c.node_tree_order();
        let cx = Cx {
            cluster: &c,
            pod: &info,
            order: &order,
        };
        let pl = build(None).expect("builds");
        assert_eq!(pl.pre_enqueue(&info), Status::success());
        let out = pl.pre_filter(&cx);
        assert_eq!(out.status, Status::skip());
        assert!(out.nodes.is_none());
        assert!(out.state.is_some(), "an empty state is written");
        let mut reasons = Vec::new();
        assert_eq!(
            pl.filter(&cx, None, &c.nodes()[0], &mut reasons),
            Code::Success
        );
        assert!(reasons.is_empty());
        assert_eq!(pl.score(&cx, None, &c.nodes()[0]), Ok(0));
    }

    fn errors(v: serde_json::Value) -> Vec<String> {
        crate::v135::plugins::testkit::build_errors(build, v)
    }

    #[test]
    fn args_are_read_strictly_and_ignored() {
        assert!(errors(json!({})).is_empty());
        assert!(errors(json!({"kind": "DynamicResourcesArgs",
            "apiVersion": "kubescheduler.config.k8s.io/v1",
            "filterTimeout": "10s", "bindingTimeout": "600s"}))
        .is_empty());
        assert!(errors(json!({"filterTimeout": null})).is_empty());
        let e = errors(json!({"filterTimeOut": "1s"}));
        assert_eq!(e.len(), 1);
        assert!(e[0].contains("unknown field `filterTimeOut`"), "{e:?}");
        let e = errors(json!({"filterTimeout": 10}));
        assert!(e[0].starts_with("filterTimeout: invalid type"), "{e:?}");
    }
}
