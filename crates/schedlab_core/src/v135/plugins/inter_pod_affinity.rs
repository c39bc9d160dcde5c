//! `InterPodAffinity` (v1.35, reference §4.13): PreFilter (+AddPod/RemovePod), Filter,
//! PreScore, Score, NormalizeScore.
//!
//! Counts are kept per topology pair (key, value). A key some pod names sits in the cluster's
//! [`TopologyIndex`]; its values are then dense value ids, existing pods' terms come from the
//! index's distinct terms (counted per domain), and the incoming pod's terms are matched once per
//! label group instead of once per pod. A key the index lacks (a pod that was never added to the
//! cluster) is kept by value string and counted by visiting the pods. Filter and Score then look
//! a node's value up.
//!
//! `matchLabelKeys` / `mismatchLabelKeys` are not read by the scheduler: the API server merges
//! them into the selector at pod creation; [`apply_match_label_keys`] does the same for pods
//! loaded here.

use crate::cluster::{Cluster, DomainCounts, NodeInfo, PodInfo, TermKind, TopologyIndex};
use crate::model::field::{FieldError, Value};
use crate::model::pod::PodAffinityTerm;
use crate::model::selector::selector_matches;
use crate::model::{LabelSelector, Labels, Pod, Requirement};
use crate::sched::Reason;
use crate::v135::plugin::{
    state, state_mut, Cx, Plugin, PluginState, PreFilterOutput, PreScoreOutput,
};
use crate::v135::plugin::{PluginSpec, Point, Points};
use crate::v135::status::Code;
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::Arc;

/// The registry entry.
pub(crate) static SPEC: PluginSpec = PluginSpec {
    name: "InterPodAffinity",
    points: Points::of(&[
        Point::PreFilter,
        Point::Filter,
        Point::PreScore,
        Point::Score,
    ]),
    default_enabled: true,
    default_weight: Some(2),
    args_kind: Some("InterPodAffinityArgs"),
    args_checked_by_validation: true,
    build,
};

/// `ErrReasonExistingAntiAffinityRulesNotMatch`.
pub(crate) const ERR_EXISTING_ANTI_AFFINITY: &str =
    "node(s) didn't satisfy existing pods anti-affinity rules";
/// `ErrReasonAffinityRulesNotMatch`.
pub(crate) const ERR_AFFINITY: &str = "node(s) didn't match pod affinity rules";
/// `ErrReasonAntiAffinityRulesNotMatch`.
pub(crate) const ERR_ANTI_AFFINITY: &str = "node(s) didn't match pod anti-affinity rules";
use crate::queue::ClusterChange;
/// `fwk.MaxNodeScore`.
use crate::sched::MAX_NODE_SCORE;
use crate::v135::plugin::QueueingHint;

mod common;
pub(crate) use common::existing_term_matches;
mod filtering;
mod scoring;

/// What kube-apiserver does to a new pod's pod (anti-)affinity terms, required and preferred
/// (`applyMatchLabelKeysAndMismatchLabelKeys`): a term with a non-nil labelSelector gets
/// `key In (value)` for each `matchLabelKeys` key the pod has a label for, and `key NotIn
/// (value)` for each `mismatchLabelKeys` key. Terms with a nil selector (match nothing) are
/// left alone.
pub(crate) fn apply_match_label_keys(pod: &mut Pod) {
    let labels = pod.metadata.labels.clone();
    let Some(affinity) = pod.spec.affinity.as_mut() else {
        return;
    };
    let apply = |term: &mut PodAffinityTerm| {
        let Some(sel) = term.label_selector.as_mut() else {
            return;
        };
        for (keys, op) in [
            (&term.match_label_keys, "In"),
            (&term.mismatch_label_keys, "NotIn"),
        ] {
            for key in keys {
                if let Some(v) = labels.get(key) {
                    sel.match_expressions.push(Requirement {
                        key: key.clone(),
                        operator: op.into(),
                        values: vec![v.clone()],
                    });
                }
            }
        }
    };
    for a in [
        affinity.pod_affinity.as_mut(),
        affinity.pod_anti_affinity.as_mut(),
    ]
    .into_iter()
    .flatten()
    {
        for t in &mut a.required_during_scheduling_ignored_during_execution {
            apply(t);
        }
        for t in &mut a.preferred_during_scheduling_ignored_during_execution {
            apply(&mut t.pod_affinity_term);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Args.

/// `InterPodAffinityArgs`.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Args {
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    api_version: Option<String>,
    #[serde(default)]
    hard_pod_affinity_weight: Option<i32>,
    #[serde(default)]
    ignore_preferred_terms_of_existing_pods: Option<bool>,
}

/// The plugin, with its defaulted args.
pub(crate) struct InterPodAffinity {
    /// `hardPodAffinityWeight` (default 1).
    hard_weight: i64,
    /// `ignorePreferredTermsOfExistingPods` (default false).
    ignore_existing_preferred: bool,
}

fn build(args: Option<&serde_json::Value>) -> Result<Box<dyn Plugin>, Vec<FieldError>> {
    let args: Args = match args {
        None => Args::default(),
        Some(v) => serde_path_to_error::deserialize(v.clone()).map_err(|e| {
            vec![FieldError::plain(
                e.path().to_string().trim_start_matches('.'),
                e.into_inner().to_string(),
            )]
        })?,
    };
    let _ = (&args.kind, &args.api_version);
    let weight = args.hard_pod_affinity_weight.unwrap_or(1);
    if !(0..=100).contains(&weight) {
        return Err(vec![FieldError::invalid(
            "hardPodAffinityWeight",
            Value::Int(weight.into()),
            "not in valid range [0, 100]",
        )]);
    }
    Ok(Box::new(InterPodAffinity {
        hard_weight: weight.into(),
        ignore_existing_preferred: args
            .ignore_preferred_terms_of_existing_pods
            .unwrap_or(false),
    }))
}

impl Plugin for InterPodAffinity {
    /// Any pod bound or deleted, a new node, or relabelled node.
    fn queueing_hint(
        &self,
        change: &ClusterChange,
        pod: &PodInfo,
        cluster: &Cluster,
    ) -> QueueingHint {
        let _ = (pod, cluster);
        QueueingHint::queue_if(match *change {
            ClusterChange::PodAdd(_) | ClusterChange::PodDelete(_) | ClusterChange::NodeAdd(_) => {
                true
            }
            ClusterChange::NodeUpdate { change, .. } => change.labels,
        })
    }

    fn name(&self) -> &'static str {
        SPEC.name
    }

    fn pre_filter(&self, cx: &Cx) -> PreFilterOutput {
        self.prepare_filter(cx)
    }

    fn add_pod(&self, cx: &Cx, st: &mut dyn PluginState, added: &PodInfo, node: &NodeInfo) {
        self.count_added_pod(cx, st, added, node)
    }

    fn remove_pod(&self, cx: &Cx, st: &mut dyn PluginState, removed: &PodInfo, node: &NodeInfo) {
        self.count_removed_pod(cx, st, removed, node)
    }

    fn filter(
        &self,
        cx: &Cx,
        st: Option<&dyn PluginState>,
        node: &NodeInfo,
        reasons: &mut Vec<Reason>,
    ) -> Code {
        self.filter_node(cx, st, node, reasons)
    }

    fn pre_score(&self, cx: &Cx, nodes: &[&NodeInfo]) -> PreScoreOutput {
        self.prepare_score(cx, nodes)
    }

    fn score_nodes(
        &self,
        cx: &Cx,
        st: Option<&dyn PluginState>,
        nodes: &[&NodeInfo],
        out: &mut [i64],
    ) -> Result<(), String> {
        self.score_all(cx, st, nodes, out)
    }

    fn score(&self, cx: &Cx, st: Option<&dyn PluginState>, node: &NodeInfo) -> Result<i64, String> {
        self.score_node(cx, st, node)
    }

    fn normalize(
        &self,
        _cx: &Cx,
        st: Option<&dyn PluginState>,
        _nodes: &[&NodeInfo],
        scores: &mut [i64],
    ) {
        self.normalize_scores(_cx, st, _nodes, scores)
    }
}

#[cfg(test)]
mod tests;
