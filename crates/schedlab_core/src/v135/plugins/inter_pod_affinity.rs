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
pub static SPEC: PluginSpec = PluginSpec {
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
pub const ERR_EXISTING_ANTI_AFFINITY: &str =
    "node(s) didn't satisfy existing pods anti-affinity rules";
/// `ErrReasonAffinityRulesNotMatch`.
pub const ERR_AFFINITY: &str = "node(s) didn't match pod affinity rules";
/// `ErrReasonAntiAffinityRulesNotMatch`.
pub const ERR_ANTI_AFFINITY: &str = "node(s) didn't match pod anti-affinity rules";
use crate::queue::ClusterChange;
/// `fwk.MaxNodeScore`.
use crate::sched::MAX_NODE_SCORE;
use crate::v135::plugin::QueueingHint;

/// What kube-apiserver does to a new pod's pod (anti-)affinity terms, required and preferred
/// (`applyMatchLabelKeysAndMismatchLabelKeys`): a term with a non-nil labelSelector gets
/// `key In (value)` for each `matchLabelKeys` key the pod has a label for, and `key NotIn
/// (value)` for each `mismatchLabelKeys` key. Terms with a nil selector (match nothing) are
/// left alone.
pub fn apply_match_label_keys(pod: &mut Pod) {
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
pub struct InterPodAffinity {
    /// `hardPodAffinityWeight` (default 1).
    hard_weight: i64,
    /// `ignorePreferredTermsOfExistingPods` (default false).
    ignore_existing_preferred: bool,
}

impl InterPodAffinity {
    /// (`hardPodAffinityWeight`, `ignorePreferredTermsOfExistingPods`).
    pub fn args(&self) -> (i64, bool) {
        (self.hard_weight, self.ignore_existing_preferred)
    }
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

// ---------------------------------------------------------------------------------------------
// Terms.

/// An incoming pod's term after `mergeAffinityTermNamespacesIfNotEmpty`: a non-empty
/// namespaceSelector resolved into namespace names (and then matching nothing itself).
#[derive(Clone, Debug)]
struct Term {
    selector: Option<LabelSelector>,
    namespaces: Namespaces,
    key: String,
    /// The weight (negative for preferred anti-affinity; 0 for required terms).
    weight: i64,
}

#[derive(Clone, Debug)]
enum Namespaces {
    /// `namespaceSelector: {}`: every namespace.
    All,
    /// These names.
    Names(Vec<String>),
}

impl Term {
    fn resolve(t: &PodAffinityTerm, weight: i64, owner_ns: &str, cluster: &Cluster) -> Term {
        let namespaces = match &t.namespace_selector {
            Some(s) if s.is_empty() => Namespaces::All,
            Some(s) => {
                let mut names = t.namespaces.clone();
                names.extend(
                    cluster
                        .namespaces
                        .iter()
                        .filter(|(_, labels)| s.matches(labels))
                        .map(|(n, _)| n.clone()),
                );
                Namespaces::Names(names)
            }
            None if t.namespaces.is_empty() => Namespaces::Names(vec![owner_ns.to_string()]),
            None => Namespaces::Names(t.namespaces.clone()),
        };
        Term {
            selector: t.label_selector.clone(),
            namespaces,
            key: t.topology_key.clone(),
            weight,
        }
    }

    /// `AffinityTerm.Matches(pod, nil)`.
    fn matches(&self, namespace: &str, labels: &Labels) -> bool {
        let ns_ok = match &self.namespaces {
            Namespaces::All => true,
            Namespaces::Names(names) => names.iter().any(|n| n == namespace),
        };
        ns_ok && selector_matches(self.selector.as_ref(), labels)
    }
}

/// `AffinityTerm.Matches(pod, nsLabels)` for a term of an existing pod in `owner_ns`: the
/// pod's namespace is listed (the owner's own when neither namespaces nor namespaceSelector is
/// set), or the namespaceSelector matches `ns_labels`; then the label selector must match.
pub(crate) fn existing_term_matches(
    t: &PodAffinityTerm,
    owner_ns: &str,
    pod: &PodInfo,
    ns_labels: &Labels,
) -> bool {
    let ns = pod.namespace.as_str();
    let listed = if t.namespaces.is_empty() && t.namespace_selector.is_none() {
        owner_ns == ns
    } else {
        t.namespaces.iter().any(|n| n == ns)
    };
    (listed
        || t.namespace_selector
            .as_ref()
            .is_some_and(|s| s.matches(ns_labels)))
        && selector_matches(t.label_selector.as_ref(), pod.labels())
}

fn resolve_all<'a>(
    terms: impl Iterator<Item = (&'a PodAffinityTerm, i64)>,
    pod: &PodInfo,
    cluster: &Cluster,
) -> Vec<Term> {
    terms
        .map(|(t, w)| Term::resolve(t, w, &pod.namespace, cluster))
        .collect()
}

fn required(
    a: Option<&crate::model::pod::PodAffinity>,
) -> impl Iterator<Item = (&PodAffinityTerm, i64)> {
    a.into_iter().flat_map(|a| {
        a.required_during_scheduling_ignored_during_execution
            .iter()
            .map(|t| (t, 0))
    })
}

fn preferred(
    a: Option<&crate::model::pod::PodAffinity>,
    sign: i64,
) -> impl Iterator<Item = (&PodAffinityTerm, i64)> {
    a.into_iter().flat_map(move |a| {
        a.preferred_during_scheduling_ignored_during_execution
            .iter()
            .map(move |t| (&t.pod_affinity_term, sign * i64::from(t.weight)))
    })
}

/// The incoming pod's namespace labels (`GetNamespaceLabelsSnapshot`; none when the namespace
/// object is not known).
fn namespace_labels(cx: &Cx) -> Labels {
    cx.cluster
        .namespaces
        .get(&cx.pod.namespace)
        .cloned()
        .unwrap_or_default()
}

// ---------------------------------------------------------------------------------------------
// Counts per topology pair.

/// `topologyToMatchedTermCount` (or a `scoreMap`): a number per (key, value).
#[derive(Clone, Debug, Default)]
struct PairCounts {
    keys: Vec<KeyCounts>,
    /// Pairs with a non-zero number (`len` of upstream's map, which drops zeros).
    nonzero: usize,
}

#[derive(Clone, Debug)]
struct KeyCounts {
    key: String,
    values: Values,
}

#[derive(Clone, Debug)]
enum Values {
    /// A key of the topology index: by value id. Copied on first write.
    Dense(usize, Arc<DenseCounts>),
    /// Any other key: by value.
    Sparse(Arc<HashMap<String, i64>>),
}

/// The numbers of one index key, by value id, with whether each is above zero (what Filter
/// reads: one byte per domain keeps the node scan in cache).
#[derive(Clone, Debug)]
struct DenseCounts {
    counts: Vec<i64>,
    positive: Vec<bool>,
}

impl DenseCounts {
    fn new(values: usize) -> DenseCounts {
        DenseCounts {
            counts: vec![0; values],
            positive: vec![false; values],
        }
    }

    /// Adds `delta` at value id `v` (ids past the end change nothing).
    fn add(&mut self, nonzero: &mut usize, v: usize, delta: i64) {
        if let Some(x) = self.counts.get_mut(v) {
            PairCounts::bump(nonzero, x, delta);
            self.positive[v] = *x > 0;
        }
    }
}

impl PairCounts {
    /// The slot of `key`, added when new.
    fn slot(&mut self, index: &TopologyIndex, key: &str) -> usize {
        if let Some(i) = self.keys.iter().position(|k| k.key == key) {
            return i;
        }
        let values = match index.key_id(key) {
            Some(id) => Values::Dense(id, Arc::new(DenseCounts::new(index.keys[id].values.len()))),
            None => Values::Sparse(Arc::default()),
        };
        self.keys.push(KeyCounts {
            key: key.to_string(),
            values,
        });
        self.keys.len() - 1
    }

    fn bump(nonzero: &mut usize, v: &mut i64, delta: i64) {
        let before = *v;
        *v += delta;
        match (before == 0, *v == 0) {
            (true, false) => *nonzero += 1,
            (false, true) => *nonzero -= 1,
            _ => {}
        }
    }

    /// Adds `weight` times every count of `counts` (value id → number) to the pairs of the
    /// index key of `slot`.
    fn add_counts(&mut self, slot: usize, counts: &DomainCounts, weight: i64) {
        if let Values::Dense(_, vals) = &mut self.keys[slot].values {
            let vals = Arc::make_mut(vals);
            for (&v, &n) in counts {
                vals.add(&mut self.nonzero, v as usize, weight * n);
            }
        }
    }

    /// `update(node, key, delta)`: adds to the node's pair when it carries the key; returns
    /// whether it did.
    fn add_node(
        &mut self,
        index: &TopologyIndex,
        slot: usize,
        node: &NodeInfo,
        delta: i64,
    ) -> bool {
        let k = &mut self.keys[slot];
        match &mut k.values {
            Values::Dense(id, vals) => {
                let Some(v) = index.node_value(*id, node.id) else {
                    return false;
                };
                Arc::make_mut(vals).add(&mut self.nonzero, v as usize, delta);
                true
            }
            Values::Sparse(map) => {
                let Some(v) = node.labels().get(&k.key) else {
                    return false;
                };
                let map = Arc::make_mut(map);
                let x = map.entry(v.clone()).or_insert(0);
                Self::bump(&mut self.nonzero, x, delta);
                if *x == 0 {
                    map.remove(v);
                }
                true
            }
        }
    }

    /// Whether the number at the node's pair is above zero; `None` when the node lacks the
    /// key. Read from one byte per domain for index keys.
    fn positive(&self, index: &TopologyIndex, slot: usize, node: &NodeInfo) -> Option<bool> {
        let k = &self.keys[slot];
        match &k.values {
            Values::Dense(id, vals) => {
                let v = index.node_value(*id, node.id)?;
                Some(vals.positive.get(v as usize).copied().unwrap_or(false))
            }
            Values::Sparse(map) => {
                let v = node.labels().get(&k.key)?;
                Some(map.get(v).is_some_and(|&n| n > 0))
            }
        }
    }

    /// The key id, when the key is in the index.
    fn key_id(&self, slot: usize) -> Option<usize> {
        match &self.keys[slot].values {
            Values::Dense(id, _) => Some(*id),
            Values::Sparse(_) => None,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// PreFilter / Filter.

/// What PreFilter found that AddPod/RemovePod never change.
#[derive(Debug)]
struct FilterShared {
    affinity: Vec<Term>,
    anti: Vec<Term>,
    /// The slot of each affinity / anti-affinity term's key in its counts.
    affinity_slots: Vec<usize>,
    anti_slots: Vec<usize>,
    /// `podMatchesAllAffinityTerms(affinity terms, incoming pod)`.
    self_match: bool,
    namespace_labels: Labels,
}

/// `preFilterState`.
#[derive(Clone, Debug)]
struct FilterState {
    shared: Arc<FilterShared>,
    existing_anti: PairCounts,
    affinity: PairCounts,
    anti: PairCounts,
}

/// Whether `terms` is not empty and every term matches (`podMatchesAllAffinityTerms`).
fn matches_all(terms: &[Term], namespace: &str, labels: &Labels) -> bool {
    !terms.is_empty() && terms.iter().all(|t| t.matches(namespace, labels))
}

impl InterPodAffinity {
    /// `preFilterState.updateWithPod`.
    fn update_with_pod(cx: &Cx, s: &mut FilterState, pod: &PodInfo, node: &NodeInfo, m: i64) {
        let index = &cx.cluster.topology;
        let shared = Arc::clone(&s.shared);
        for (t, _) in required(pod.pod.pod_anti_affinity()) {
            if existing_term_matches(t, &pod.namespace, cx.pod, &shared.namespace_labels) {
                let slot = s.existing_anti.slot(index, &t.topology_key);
                s.existing_anti.add_node(index, slot, node, m);
            }
        }
        if matches_all(&shared.affinity, &pod.namespace, pod.labels()) {
            for &slot in &shared.affinity_slots {
                s.affinity.add_node(index, slot, node, m);
            }
        }
        for (t, &slot) in shared.anti.iter().zip(&shared.anti_slots) {
            if t.matches(&pod.namespace, pod.labels()) {
                s.anti.add_node(index, slot, node, m);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// PreScore / Score.

/// `preScoreState`: the summed weights per topology pair, by index key (value id → sum) and
/// by any other key (value → sum).
#[derive(Clone, Debug)]
struct ScoreState {
    dense: Vec<(usize, Vec<i64>)>,
    sparse: Vec<(String, HashMap<String, i64>)>,
}

/// PreScore's state, or the error Score gives without it.
fn score_state(st: Option<&dyn PluginState>) -> Result<&ScoreState, String> {
    state::<ScoreState>(st)
        .ok_or_else(|| "reading \"PreScoreInterPodAffinity\" from cycleState: not found".into())
}

impl ScoreState {
    /// The node's raw score: the sums at each of its pairs.
    fn score(&self, cx: &Cx, node: &NodeInfo) -> i64 {
        let index = &cx.cluster.topology;
        let mut score = 0;
        for (id, sums) in &self.dense {
            if let Some(v) = index.node_value(*id, node.id) {
                score += sums.get(v as usize).copied().unwrap_or(0);
            }
        }
        for (key, sums) in &self.sparse {
            if let Some(v) = node.labels().get(key) {
                score += sums.get(v).copied().unwrap_or(0);
            }
        }
        score
    }
}

impl From<PairCounts> for ScoreState {
    fn from(p: PairCounts) -> ScoreState {
        let mut s = ScoreState {
            dense: Vec::new(),
            sparse: Vec::new(),
        };
        for k in p.keys {
            match k.values {
                Values::Dense(id, vals) => s.dense.push((
                    id,
                    Arc::try_unwrap(vals).map_or_else(|a| a.counts.clone(), |d| d.counts),
                )),
                Values::Sparse(map) => s
                    .sparse
                    .push((k.key, Arc::try_unwrap(map).unwrap_or_else(|a| (*a).clone()))),
            }
        }
        s
    }
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
        let cluster = cx.cluster;
        let index = &cluster.topology;
        let pod = cx.pod;
        let has_affinity = required(pod.pod.pod_affinity()).next().is_some();
        let has_anti = required(pod.pod.pod_anti_affinity()).next().is_some();
        if !has_affinity
            && !has_anti
            && !index
                .terms
                .iter()
                .any(|t| t.kind == TermKind::RequiredAntiAffinity)
        {
            return PreFilterOutput::skip();
        }
        let namespace_labels = namespace_labels(cx);
        // Existing pods' required anti-affinity terms that match the incoming pod.
        let mut existing_anti = PairCounts::default();
        for t in &index.terms {
            if t.kind == TermKind::RequiredAntiAffinity
                && !t.counts.is_empty()
                && existing_term_matches(&t.term, &t.namespace, pod, &namespace_labels)
            {
                let slot = existing_anti.slot(index, &t.term.topology_key);
                existing_anti.add_counts(slot, &t.counts, 1);
            }
        }
        if existing_anti.nonzero == 0 && !has_affinity && !has_anti {
            return PreFilterOutput::skip();
        }
        let affinity_terms = resolve_all(required(pod.pod.pod_affinity()), pod, cluster);
        let anti_terms = resolve_all(required(pod.pod.pod_anti_affinity()), pod, cluster);
        let mut affinity = PairCounts::default();
        let mut anti = PairCounts::default();
        let affinity_slots: Vec<usize> = affinity_terms
            .iter()
            .map(|t| affinity.slot(index, &t.key))
            .collect();
        let anti_slots: Vec<usize> = anti_terms
            .iter()
            .map(|t| anti.slot(index, &t.key))
            .collect();
        // The incoming pod's terms against the existing pods: once per label group when every
        // key is in the index, else pod by pod.
        let affinity_ids: Option<Vec<usize>> =
            affinity_slots.iter().map(|&s| affinity.key_id(s)).collect();
        let anti_ids: Option<Vec<usize>> = anti_slots.iter().map(|&s| anti.key_id(s)).collect();
        match (affinity_ids, anti_ids) {
            (Some(affinity_ids), Some(anti_ids)) => {
                for g in &index.groups {
                    if matches_all(&affinity_terms, &g.namespace, &g.labels) {
                        for (&slot, &id) in affinity_slots.iter().zip(&affinity_ids) {
                            affinity.add_counts(slot, &g.counts[id], 1);
                        }
                    }
                    for ((t, &slot), &id) in anti_terms.iter().zip(&anti_slots).zip(&anti_ids) {
                        if t.matches(&g.namespace, &g.labels) {
                            anti.add_counts(slot, &g.counts[id], 1);
                        }
                    }
                }
            }
            _ => {
                for node in &cluster.nodes {
                    for &p in &node.pods {
                        let ep = &cluster.pods[p];
                        if matches_all(&affinity_terms, &ep.namespace, ep.labels()) {
                            for &slot in &affinity_slots {
                                affinity.add_node(index, slot, node, 1);
                            }
                        }
                        for (t, &slot) in anti_terms.iter().zip(&anti_slots) {
                            if t.matches(&ep.namespace, ep.labels()) {
                                anti.add_node(index, slot, node, 1);
                            }
                        }
                    }
                }
            }
        }
        let self_match = matches_all(&affinity_terms, &pod.namespace, pod.labels());
        PreFilterOutput::with_state(FilterState {
            shared: Arc::new(FilterShared {
                affinity: affinity_terms,
                anti: anti_terms,
                affinity_slots,
                anti_slots,
                self_match,
                namespace_labels,
            }),
            existing_anti,
            affinity,
            anti,
        })
    }

    fn add_pod(&self, cx: &Cx, st: &mut dyn PluginState, added: &PodInfo, node: &NodeInfo) {
        if let Some(s) = state_mut::<FilterState>(st) {
            Self::update_with_pod(cx, s, added, node, 1);
        }
    }

    fn remove_pod(&self, cx: &Cx, st: &mut dyn PluginState, removed: &PodInfo, node: &NodeInfo) {
        if let Some(s) = state_mut::<FilterState>(st) {
            Self::update_with_pod(cx, s, removed, node, -1);
        }
    }

    fn filter(
        &self,
        cx: &Cx,
        st: Option<&dyn PluginState>,
        node: &NodeInfo,
        reasons: &mut Vec<Reason>,
    ) -> Code {
        let Some(s) = state::<FilterState>(st) else {
            reasons.push(Reason::from(
                "reading \"PreFilterInterPodAffinity\" from cycleState: not found",
            ));
            return Code::Error;
        };
        let index = &cx.cluster.topology;
        let shared = &s.shared;
        // satisfyPodAffinity: every key present; some matching pod in each domain, or the
        // first pod of a group.
        let mut pods_exist = true;
        for &slot in &shared.affinity_slots {
            match s.affinity.positive(index, slot, node) {
                None => {
                    reasons.push(ERR_AFFINITY.into());
                    return Code::UnschedulableAndUnresolvable;
                }
                Some(false) => pods_exist = false,
                Some(true) => {}
            }
        }
        let first_of_group = s.affinity.nonzero == 0 && shared.self_match;
        if !pods_exist && !first_of_group {
            reasons.push(ERR_AFFINITY.into());
            return Code::UnschedulableAndUnresolvable;
        }
        // satisfyPodAntiAffinity.
        if s.anti.nonzero > 0
            && shared
                .anti_slots
                .iter()
                .any(|&slot| s.anti.positive(index, slot, node) == Some(true))
        {
            reasons.push(ERR_ANTI_AFFINITY.into());
            return Code::Unschedulable;
        }
        // satisfyExistingPodsAntiAffinity: any of the node's pairs.
        if s.existing_anti.nonzero > 0
            && (0..s.existing_anti.keys.len())
                .any(|slot| s.existing_anti.positive(index, slot, node) == Some(true))
        {
            reasons.push(ERR_EXISTING_ANTI_AFFINITY.into());
            return Code::Unschedulable;
        }
        Code::Success
    }

    fn pre_score(&self, cx: &Cx, _nodes: &[&NodeInfo]) -> PreScoreOutput {
        let cluster = cx.cluster;
        let index = &cluster.topology;
        let pod = cx.pod;
        let has_constraints = preferred(pod.pod.pod_affinity(), 1).next().is_some()
            || preferred(pod.pod.pod_anti_affinity(), -1).next().is_some();
        if self.ignore_existing_preferred && !has_constraints {
            return PreScoreOutput::skip();
        }
        let mut scores = PairCounts::default();
        let mut touched = false;
        if has_constraints {
            let terms = resolve_all(
                preferred(pod.pod.pod_affinity(), 1)
                    .chain(preferred(pod.pod.pod_anti_affinity(), -1)),
                pod,
                cluster,
            );
            let slots: Vec<usize> = terms.iter().map(|t| scores.slot(index, &t.key)).collect();
            let ids: Option<Vec<usize>> = slots.iter().map(|&s| scores.key_id(s)).collect();
            match ids {
                Some(ids) => {
                    for ((t, &slot), &id) in terms.iter().zip(&slots).zip(&ids) {
                        for g in &index.groups {
                            if t.matches(&g.namespace, &g.labels) && !g.counts[id].is_empty() {
                                scores.add_counts(slot, &g.counts[id], t.weight);
                                touched = true;
                            }
                        }
                    }
                }
                None => {
                    for node in &cluster.nodes {
                        if node.labels().is_empty() {
                            continue;
                        }
                        for &p in &node.pods {
                            let ep = &cluster.pods[p];
                            for (t, &slot) in terms.iter().zip(&slots) {
                                if t.matches(&ep.namespace, ep.labels()) {
                                    touched |= scores.add_node(index, slot, node, t.weight);
                                }
                            }
                        }
                    }
                }
            }
        }
        // Existing pods' terms that the incoming pod matches (with its namespace's labels).
        let mut namespace_labels: Option<Labels> = None;
        for t in &index.terms {
            let weight = match t.kind {
                TermKind::RequiredAffinity if self.hard_weight > 0 => self.hard_weight,
                TermKind::PreferredAffinity => t.weight,
                TermKind::PreferredAntiAffinity => -t.weight,
                _ => continue,
            };
            if t.counts.is_empty() {
                continue;
            }
            let ns_labels = namespace_labels.get_or_insert_with(|| self::namespace_labels(cx));
            if !existing_term_matches(&t.term, &t.namespace, pod, ns_labels) {
                continue;
            }
            let slot = scores.slot(index, &t.term.topology_key);
            scores.add_counts(slot, &t.counts, weight);
            touched = true;
        }
        if !touched {
            return PreScoreOutput::skip();
        }
        PreScoreOutput::with_state(ScoreState::from(scores))
    }

    fn score_nodes(
        &self,
        cx: &Cx,
        st: Option<&dyn PluginState>,
        nodes: &[&NodeInfo],
        out: &mut [i64],
    ) -> Result<(), String> {
        let s = score_state(st)?;
        for (slot, node) in out.iter_mut().zip(nodes) {
            *slot = s.score(cx, node);
        }
        Ok(())
    }

    fn score(&self, cx: &Cx, st: Option<&dyn PluginState>, node: &NodeInfo) -> Result<i64, String> {
        Ok(score_state(st)?.score(cx, node))
    }

    fn normalize(
        &self,
        _cx: &Cx,
        st: Option<&dyn PluginState>,
        _nodes: &[&NodeInfo],
        scores: &mut [i64],
    ) {
        if state::<ScoreState>(st).is_none() {
            return;
        }
        let min = scores.iter().copied().min().unwrap_or(i64::MAX);
        let max = scores.iter().copied().max().unwrap_or(i64::MIN);
        let diff = max.wrapping_sub(min);
        for s in scores.iter_mut() {
            let mut f = 0.0f64;
            if diff > 0 {
                f = MAX_NODE_SCORE as f64 * ((*s - min) as f64 / diff as f64);
            }
            *s = f as i64;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::PodId;
    use crate::testing::{node, pod};
    use crate::v135::plugins::testkit::{both_ways, score_all};
    use serde_json::{json, Value as Json};

    fn plugin(args: Option<Json>) -> Box<dyn Plugin> {
        build(args.as_ref()).unwrap_or_else(|e| panic!("{e:?}"))
    }

    fn arg_errors(args: Json) -> Vec<String> {
        crate::v135::plugins::testkit::build_errors(build, args)
    }

    /// Nodes with a hostname label and, when given, a `zone` label.
    fn nodes(list: &[(&str, Option<&str>)]) -> Vec<crate::model::Node> {
        list.iter()
            .map(|(name, zone)| {
                let mut labels = json!({"kubernetes.io/hostname": name});
                if let Some(z) = zone {
                    labels["zone"] = json!(z);
                }
                node(json!({"metadata": {"name": name, "labels": labels}}))
            })
            .collect()
    }

    fn zones() -> Vec<crate::model::Node> {
        nodes(&[
            ("a1", Some("a")),
            ("a2", Some("a")),
            ("b1", Some("b")),
            ("nozone", None),
        ])
    }

    fn cluster(nodes: Vec<crate::model::Node>, bound: Vec<(Pod, usize)>) -> Cluster {
        let mut c = Cluster::default();
        for n in nodes {
            c.add_node(n);
        }
        for (i, (p, n)) in bound.into_iter().enumerate() {
            let id = c.add_pod(PodInfo::new_v135(p, 0, i));
            c.bind(id, n);
        }
        c
    }

    fn app(name: &str) -> Pod {
        pod(json!({"metadata": {"labels": {"app": name}}}))
    }

    fn in_ns(ns: &str, name: &str) -> Pod {
        pod(json!({"metadata": {"namespace": ns, "labels": {"app": name}}}))
    }

    /// A required term selecting `app: target` on `key`, with extra fields.
    fn term(target: &str, key: &str, extra: Json) -> Json {
        let mut t = json!({"labelSelector": {"matchLabels": {"app": target}}, "topologyKey": key});
        for (k, v) in extra.as_object().expect("object") {
            t[k] = v.clone();
        }
        t
    }

    /// A pod labelled `app: label` with this affinity.
    fn with(label: &str, affinity: Json) -> Pod {
        pod(json!({"metadata": {"labels": {"app": label}}, "spec": {"affinity": affinity}}))
    }

    fn required(kind: &str, terms: Vec<Json>) -> Json {
        json!({kind: {"requiredDuringSchedulingIgnoredDuringExecution": terms}})
    }

    fn preferred(kind: &str, weighted: Vec<(i32, Json)>) -> Json {
        let list: Vec<Json> = weighted
            .into_iter()
            .map(|(w, t)| json!({"weight": w, "podAffinityTerm": t}))
            .collect();
        json!({kind: {"preferredDuringSchedulingIgnoredDuringExecution": list}})
    }

    /// Merges affinity objects (podAffinity and podAntiAffinity).
    fn both(a: Json, b: Json) -> Json {
        let mut out = a;
        for (k, v) in b.as_object().expect("object") {
            out[k] = v.clone();
        }
        out
    }

    type Verdicts = Option<Vec<(Code, String)>>;

    fn filter_all(p: &dyn Plugin, c: &Cluster, incoming: &PodInfo) -> Verdicts {
        let order = c.node_tree_order();
        let cx = Cx {
            cluster: c,
            pod: incoming,
            order: &order,
        };
        let out = p.pre_filter(&cx);
        if out.status.code == Code::Skip {
            return None;
        }
        assert!(out.status.is_success(), "{:?}", out.status);
        Some(verdicts(p, &cx, out.state.as_deref()))
    }

    fn verdicts(p: &dyn Plugin, cx: &Cx, st: Option<&dyn PluginState>) -> Vec<(Code, String)> {
        cx.cluster
            .nodes
            .iter()
            .map(|n| {
                let mut reasons = Vec::new();
                let code = p.filter(cx, st, n, &mut reasons);
                let text: Vec<String> = reasons.iter().map(ToString::to_string).collect();
                (code, text.join(", "))
            })
            .collect()
    }

    const OK: (Code, &str) = (Code::Success, "");
    const AFF: (Code, &str) = (Code::UnschedulableAndUnresolvable, ERR_AFFINITY);
    const ANTI: (Code, &str) = (Code::Unschedulable, ERR_ANTI_AFFINITY);
    const EXISTING: (Code, &str) = (Code::Unschedulable, ERR_EXISTING_ANTI_AFFINITY);

    fn expect(v: &[(Code, &str)]) -> Verdicts {
        Some(v.iter().map(|(c, s)| (*c, s.to_string())).collect())
    }

    /// A pod labelled `app: guard` with required anti-affinity to `app: web` per hostname.
    fn guard() -> Pod {
        with(
            "guard",
            required(
                "podAntiAffinity",
                vec![term("web", "kubernetes.io/hostname", json!({}))],
            ),
        )
    }

    #[test]
    fn each_rule_has_its_reason_and_code() {
        let p = plugin(None);
        let c = cluster(zones(), vec![(app("cache"), 0)]);
        // Affinity to the zone of a cache pod: a1, a2 fit; b1 has no cache pod; nozone lacks
        // the key. UnschedulableAndUnresolvable.
        let aff = with(
            "web",
            required("podAffinity", vec![term("cache", "zone", json!({}))]),
        );
        let got = both_ways(&c, aff, |c, i| filter_all(&*p, c, i));
        assert_eq!(got, expect(&[OK, OK, AFF, AFF]));
        // Anti-affinity to it: zone a is taken; a node without the key passes. Unschedulable.
        let anti = with(
            "web",
            required("podAntiAffinity", vec![term("cache", "zone", json!({}))]),
        );
        let got = both_ways(&c, anti, |c, i| filter_all(&*p, c, i));
        assert_eq!(got, expect(&[ANTI, ANTI, OK, OK]));
        // An existing pod's anti-affinity to web pods on its host (b1).
        let c = cluster(zones(), vec![(guard(), 2)]);
        let got = both_ways(&c, app("web"), |c, i| filter_all(&*p, c, i));
        assert_eq!(got, expect(&[OK, OK, EXISTING, OK]));
        // A pod the guard does not select, with no terms of its own: Skip.
        assert_eq!(both_ways(&c, app("db"), |c, i| filter_all(&*p, c, i)), None);
    }

    #[test]
    fn affinity_is_checked_before_anti_affinity_before_existing_pods() {
        let p = plugin(None);
        let c = cluster(
            nodes(&[
                ("a1", Some("a")),
                ("a2", Some("a")),
                ("b1", Some("b")),
                ("c1", Some("c")),
                ("nozone", None),
            ]),
            vec![
                (app("cache"), 0),
                (app("cache"), 2),
                (app("db"), 1),
                (app("db"), 3),
                (guard(), 0),
                (guard(), 2),
                (guard(), 3),
            ],
        );
        let incoming = with(
            "web",
            both(
                required("podAffinity", vec![term("cache", "zone", json!({}))]),
                required("podAntiAffinity", vec![term("db", "zone", json!({}))]),
            ),
        );
        // a1: affinity ok, anti (db in zone a) and existing (guard) fail -> anti.
        // a2: anti. b1: affinity and anti ok, existing (guard) fails.
        // c1: every rule fails -> affinity. nozone: no zone -> affinity.
        let got = both_ways(&c, incoming, |c, i| filter_all(&*p, c, i));
        assert_eq!(got, expect(&[ANTI, ANTI, EXISTING, AFF, AFF]));
    }

    #[test]
    fn the_first_pod_of_a_group_may_go_anywhere_with_the_key() {
        let p = plugin(None);
        // Only a cache pod of another namespace, which the term does not see.
        let c = cluster(zones(), vec![(in_ns("other", "cache"), 0)]);
        let self_matching = with(
            "cache",
            required("podAffinity", vec![term("cache", "zone", json!({}))]),
        );
        let got = both_ways(&c, self_matching.clone(), |c, i| filter_all(&*p, c, i));
        assert_eq!(got, expect(&[OK, OK, OK, AFF]));
        // A pod that does not match its own term fits nowhere.
        let other = with(
            "web",
            required("podAffinity", vec![term("cache", "zone", json!({}))]),
        );
        let got = both_ways(&c, other, |c, i| filter_all(&*p, c, i));
        assert_eq!(got, expect(&[AFF, AFF, AFF, AFF]));
        // Once a matching pod exists (zone b), the exception is over.
        let c = cluster(zones(), vec![(app("cache"), 2)]);
        let got = both_ways(&c, self_matching, |c, i| filter_all(&*p, c, i));
        assert_eq!(got, expect(&[AFF, AFF, OK, AFF]));
    }

    #[test]
    fn namespaces_and_namespace_selectors() {
        let p = plugin(None);
        let mut c = cluster(zones(), vec![(in_ns("other", "cache"), 0)]);
        let anti = |extra: Json| {
            with(
                "web",
                required("podAntiAffinity", vec![term("cache", "zone", extra)]),
            )
        };
        // The pod's own namespace only: the cache pod is not seen.
        let got = both_ways(&c, anti(json!({})), |c, i| filter_all(&*p, c, i));
        assert_eq!(got, expect(&[OK, OK, OK, OK]));
        // Listed namespaces.
        let got = both_ways(&c, anti(json!({"namespaces": ["other"]})), |c, i| {
            filter_all(&*p, c, i)
        });
        assert_eq!(got, expect(&[ANTI, ANTI, OK, OK]));
        // namespaceSelector {} selects every namespace, known or not.
        let got = both_ways(&c, anti(json!({"namespaceSelector": {}})), |c, i| {
            filter_all(&*p, c, i)
        });
        assert_eq!(got, expect(&[ANTI, ANTI, OK, OK]));
        // A label selector over the Namespace objects: none known yet, then "other" labelled.
        let team = json!({"namespaceSelector": {"matchLabels": {"team": "x"}}});
        let got = both_ways(&c, anti(team.clone()), |c, i| filter_all(&*p, c, i));
        assert_eq!(got, expect(&[OK, OK, OK, OK]));
        c.namespaces.insert(
            "other".into(),
            [("team".to_string(), "x".to_string())].into(),
        );
        let got = both_ways(&c, anti(team), |c, i| filter_all(&*p, c, i));
        assert_eq!(got, expect(&[ANTI, ANTI, OK, OK]));
        // An existing pod's namespaceSelector is matched against the labels of the incoming
        // pod's namespace.
        let selective_guard = pod(
            json!({"metadata": {"namespace": "other", "labels": {"app": "guard"}},
            "spec": {"affinity": required("podAntiAffinity", vec![term("web", "kubernetes.io/hostname",
                json!({"namespaceSelector": {"matchLabels": {"team": "web"}}}))])}}),
        );
        let mut c = cluster(zones(), vec![(selective_guard, 2)]);
        assert_eq!(
            both_ways(&c, app("web"), |c, i| filter_all(&*p, c, i)),
            None
        );
        c.namespaces.insert(
            "default".into(),
            [("team".to_string(), "web".to_string())].into(),
        );
        let got = both_ways(&c, app("web"), |c, i| filter_all(&*p, c, i));
        assert_eq!(got, expect(&[OK, OK, EXISTING, OK]));
    }

    #[test]
    fn add_pod_and_remove_pod_change_the_verdict() {
        let p = plugin(None);
        let mut c = cluster(zones(), vec![]);
        let cache: PodId = c.add_pod(PodInfo::new_v135(app("cache"), 0, 0));
        let guard_id = c.add_pod(PodInfo::new_v135(guard(), 0, 1));
        let anti = c.add_pod(PodInfo::new_v135(
            with(
                "web",
                required("podAntiAffinity", vec![term("cache", "zone", json!({}))]),
            ),
            0,
            2,
        ));
        let aff = c.add_pod(PodInfo::new_v135(
            with(
                "web",
                required("podAffinity", vec![term("cache", "zone", json!({}))]),
            ),
            0,
            3,
        ));
        let order = c.node_tree_order();
        let strings = |v: &[(Code, &str)]| -> Vec<(Code, String)> {
            v.iter().map(|(c, s)| (*c, s.to_string())).collect()
        };
        // Anti-affinity to cache pods: none, every node fits.
        let cx = Cx {
            cluster: &c,
            pod: &c.pods[anti],
            order: &order,
        };
        let mut out = p.pre_filter(&cx);
        let st = out.state.as_deref_mut().expect("state");
        assert_eq!(verdicts(&*p, &cx, Some(&*st)), strings(&[OK, OK, OK, OK]));
        // A cache pod nominated to a1 takes zone a.
        p.add_pod(&cx, st, &c.pods[cache], &c.nodes[0]);
        assert_eq!(
            verdicts(&*p, &cx, Some(&*st)),
            strings(&[ANTI, ANTI, OK, OK])
        );
        // A guard on b1 keeps web pods off b1.
        p.add_pod(&cx, st, &c.pods[guard_id], &c.nodes[2]);
        assert_eq!(
            verdicts(&*p, &cx, Some(&*st)),
            strings(&[ANTI, ANTI, EXISTING, OK])
        );
        // Both removed again.
        p.remove_pod(&cx, st, &c.pods[cache], &c.nodes[0]);
        p.remove_pod(&cx, st, &c.pods[guard_id], &c.nodes[2]);
        assert_eq!(verdicts(&*p, &cx, Some(&*st)), strings(&[OK, OK, OK, OK]));
        // Affinity to cache pods from a web pod: nowhere, until a cache pod is on b1.
        let cx = Cx {
            cluster: &c,
            pod: &c.pods[aff],
            order: &order,
        };
        let mut out = p.pre_filter(&cx);
        let st = out.state.as_deref_mut().expect("state");
        assert_eq!(
            verdicts(&*p, &cx, Some(&*st)),
            strings(&[AFF, AFF, AFF, AFF])
        );
        p.add_pod(&cx, st, &c.pods[cache], &c.nodes[2]);
        assert_eq!(
            verdicts(&*p, &cx, Some(&*st)),
            strings(&[AFF, AFF, OK, AFF])
        );
        p.remove_pod(&cx, st, &c.pods[cache], &c.nodes[2]);
        assert_eq!(
            verdicts(&*p, &cx, Some(&*st)),
            strings(&[AFF, AFF, AFF, AFF])
        );
    }

    fn abc() -> Vec<crate::model::Node> {
        nodes(&[("a", Some("a")), ("b", Some("b")), ("c", Some("c"))])
    }

    fn prefers(affinity: Json) -> Pod {
        with("web", affinity)
    }

    #[test]
    fn preferred_terms_and_min_max_normalisation() {
        let p = plugin(None);
        // +8 per cache pod in the zone, -2 per db pod.
        let c = cluster(abc(), vec![(app("cache"), 0), (app("db"), 1)]);
        let incoming = prefers(both(
            preferred("podAffinity", vec![(8, term("cache", "zone", json!({})))]),
            preferred("podAntiAffinity", vec![(2, term("db", "zone", json!({})))]),
        ));
        // Raw 8, -2, 0; min -2, max 8, diff 10: 100*10/10 = 100, 0, 100*2/10 = 20.
        let got = both_ways(&c, incoming, |c, i| score_all(&*p, c, i));
        assert_eq!(got, Some((vec![8, -2, 0], vec![100, 0, 20])));
        let three = || {
            prefers(preferred(
                "podAffinity",
                vec![(3, term("cache", "zone", json!({})))],
            ))
        };
        // Equal scores: diff 0 gives 0 everywhere (v1.17 gave 100).
        let c = cluster(
            abc(),
            vec![(app("cache"), 0), (app("cache"), 1), (app("cache"), 2)],
        );
        let got = both_ways(&c, three(), |c, i| score_all(&*p, c, i));
        assert_eq!(got, Some((vec![3, 3, 3], vec![0, 0, 0])));
        // All positive: the lowest becomes 0 (v1.17: 100*3/6 = 50). Raw 3, 6, 3.
        let c = cluster(
            abc(),
            vec![
                (app("cache"), 0),
                (app("cache"), 1),
                (app("cache"), 1),
                (app("cache"), 2),
            ],
        );
        let got = both_ways(&c, three(), |c, i| score_all(&*p, c, i));
        assert_eq!(got, Some((vec![3, 6, 3], vec![0, 100, 0])));
        // All negative or zero: raw -2, -6, 0; min -6, diff 6: 100*4/6 = 66, 0, 100.
        let c = cluster(
            abc(),
            vec![
                (app("db"), 0),
                (app("db"), 1),
                (app("db"), 1),
                (app("db"), 1),
            ],
        );
        let avoid = prefers(preferred(
            "podAntiAffinity",
            vec![(2, term("db", "zone", json!({})))],
        ));
        let got = both_ways(&c, avoid, |c, i| score_all(&*p, c, i));
        assert_eq!(got, Some((vec![-2, -6, 0], vec![66, 0, 100])));
    }

    #[test]
    fn existing_pods_terms_with_hard_pod_affinity_weight() {
        // A web pod on b requires affinity to cache pods in its zone; the incoming cache pod
        // matches it: +hardPodAffinityWeight on zone b.
        let needy = with(
            "web",
            required("podAffinity", vec![term("cache", "zone", json!({}))]),
        );
        let c = cluster(abc(), vec![(needy, 1)]);
        let default = plugin(None);
        // Weight 1: raw 0, 1, 0; min 0, max 1: 0, 100, 0.
        let got = both_ways(&c, app("cache"), |c, i| score_all(&*default, c, i));
        assert_eq!(got, Some((vec![0, 1, 0], vec![0, 100, 0])));
        let five = plugin(Some(json!({"hardPodAffinityWeight": 5})));
        let got = both_ways(&c, app("cache"), |c, i| score_all(&*five, c, i));
        assert_eq!(got, Some((vec![0, 5, 0], vec![0, 100, 0])));
        // Weight 0: nothing recorded, Skip.
        let zero = plugin(Some(json!({"hardPodAffinityWeight": 0})));
        assert_eq!(
            both_ways(&c, app("cache"), |c, i| score_all(&*zero, c, i)),
            None
        );
        // A pod the term does not select: Skip.
        assert_eq!(
            both_ways(&c, app("db"), |c, i| score_all(&*default, c, i)),
            None
        );
    }

    #[test]
    fn existing_preferred_terms_and_ignore_preferred_terms_of_existing_pods() {
        let likes = with(
            "x",
            preferred("podAffinity", vec![(4, term("cache", "zone", json!({})))]),
        );
        let dislikes = with(
            "y",
            preferred(
                "podAntiAffinity",
                vec![(6, term("cache", "zone", json!({})))],
            ),
        );
        let c = cluster(abc(), vec![(likes, 0), (dislikes, 1)]);
        let p = plugin(None);
        // Raw 4, -6, 0; min -6, diff 10: 100, 0, 100*6/10 = 60.
        let got = both_ways(&c, app("cache"), |c, i| score_all(&*p, c, i));
        assert_eq!(got, Some((vec![4, -6, 0], vec![100, 0, 60])));
        let ignoring = plugin(Some(json!({"ignorePreferredTermsOfExistingPods": true})));
        // The incoming pod has no preferred term: Skip.
        assert_eq!(
            both_ways(&c, app("cache"), |c, i| score_all(&*ignoring, c, i)),
            None
        );
        // With a preferred term of its own (matching nothing), existing pods' terms count again.
        let mut own = prefers(preferred(
            "podAffinity",
            vec![(1, term("none", "zone", json!({})))],
        ));
        own.metadata.labels.insert("app".into(), "cache".into());
        let got = both_ways(&c, own, |c, i| score_all(&*ignoring, c, i));
        assert_eq!(got, Some((vec![4, -6, 0], vec![100, 0, 60])));
    }

    #[test]
    fn index_and_scan_paths_agree_on_random_clusters() {
        use crate::rng::Rng;
        fn pick<'a>(r: &mut Rng, xs: &[&'a str]) -> &'a str {
            xs[r.intn(xs.len() as u64) as usize]
        }
        fn random_term(r: &mut Rng) -> Json {
            let mut t =
                json!({"topologyKey": pick(r, &["zone", "rack", "kubernetes.io/hostname"])});
            match r.intn(5) {
                0 => {}
                1 => t["labelSelector"] = json!({}),
                _ => {
                    t["labelSelector"] =
                        json!({"matchLabels": {"app": pick(r, &["web", "db", "cache"])}})
                }
            }
            match r.intn(5) {
                0 => t["namespaces"] = json!([pick(r, &["default", "other"])]),
                1 => t["namespaceSelector"] = json!({}),
                2 => t["namespaceSelector"] = json!({"matchLabels": {"team": "x"}}),
                _ => {}
            }
            t
        }
        fn random_affinity(r: &mut Rng) -> Json {
            let mut a = json!({});
            for kind in ["podAffinity", "podAntiAffinity"] {
                if r.intn(2) == 0 {
                    continue;
                }
                let req: Vec<Json> = (0..r.intn(3)).map(|_| random_term(r)).collect();
                let pref: Vec<Json> = (0..r.intn(3))
                    .map(|_| json!({"weight": 1 + r.intn(9) as i64, "podAffinityTerm": random_term(r)}))
                    .collect();
                a[kind] = json!({"requiredDuringSchedulingIgnoredDuringExecution": req,
                    "preferredDuringSchedulingIgnoredDuringExecution": pref});
            }
            a
        }
        fn random_pod(r: &mut Rng) -> Pod {
            let mut spec = json!({});
            if r.intn(3) == 0 {
                spec["affinity"] = random_affinity(r);
            }
            pod(
                json!({"metadata": {"namespace": pick(r, &["default", "default", "other"]),
                "labels": {"app": pick(r, &["web", "db", "cache"])}}, "spec": spec}),
            )
        }
        let plugins = [
            plugin(None),
            plugin(Some(json!({"hardPodAffinityWeight": 0}))),
            plugin(Some(json!({"ignorePreferredTermsOfExistingPods": true}))),
        ];
        let mut r = Rng::new(135);
        for case in 0..300 {
            let list: Vec<crate::model::Node> = (0..1 + r.intn(6))
                .map(|i| {
                    let mut labels = json!({"kubernetes.io/hostname": format!("n{i}")});
                    for (key, values) in [("zone", ["a", "b", "c"]), ("rack", ["r1", "r2", "r1"])] {
                        if r.intn(4) != 0 {
                            labels[key] = json!(pick(&mut r, &values));
                        }
                    }
                    node(json!({"metadata": {"name": format!("n{i}"), "labels": labels}}))
                })
                .collect();
            let n = list.len() as u64;
            let bound: Vec<(Pod, usize)> = (0..r.intn(10))
                .map(|_| (random_pod(&mut r), r.intn(n) as usize))
                .collect();
            let mut c = cluster(list, bound);
            for ns in ["default", "other"] {
                if r.intn(2) == 0 {
                    c.namespaces
                        .insert(ns.into(), [("team".to_string(), "x".to_string())].into());
                }
            }
            let mut incoming = random_pod(&mut r);
            if r.intn(2) == 0 {
                incoming.spec.affinity = serde_json::from_value(random_affinity(&mut r)).ok();
            }
            for p in &plugins {
                let got = both_ways(&c, incoming.clone(), |c, i| {
                    (filter_all(&**p, c, i), score_all(&**p, c, i))
                });
                if let Some((_, norm)) = &got.1 {
                    assert!(
                        norm.iter().all(|s| (0..=MAX_NODE_SCORE).contains(s)),
                        "case {case}"
                    );
                }
            }
        }
    }

    #[test]
    fn args_default_and_validate() {
        assert!(build(None).is_ok());
        assert!(arg_errors(json!({"kind": "InterPodAffinityArgs",
            "apiVersion": "kubescheduler.config.k8s.io/v1",
            "hardPodAffinityWeight": 100, "ignorePreferredTermsOfExistingPods": true}))
        .is_empty());
        assert!(arg_errors(json!({"hardPodAffinityWeight": 0})).is_empty());
        assert_eq!(
            arg_errors(json!({"hardPodAffinityWeight": 101})),
            ["hardPodAffinityWeight: Invalid value: 101: not in valid range [0, 100]"]
        );
        assert_eq!(
            arg_errors(json!({"hardPodAffinityWeight": -1})),
            ["hardPodAffinityWeight: Invalid value: -1: not in valid range [0, 100]"]
        );
        let unknown = arg_errors(json!({"hardPodAffinityWeigth": 1}));
        assert_eq!(unknown.len(), 1);
        assert!(
            unknown[0].contains("unknown field `hardPodAffinityWeigth`"),
            "{unknown:?}"
        );
    }

    #[test]
    fn match_label_keys_are_merged_as_the_api_server_does() {
        let mut p = pod(
            json!({"metadata": {"labels": {"app": "web", "version": "v1", "tenant": "t1"}},
            "spec": {"affinity": {
                "podAffinity": {
                    "requiredDuringSchedulingIgnoredDuringExecution": [
                        {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "zone",
                         "matchLabelKeys": ["version", "absent"], "mismatchLabelKeys": ["tenant"]},
                        {"topologyKey": "zone", "matchLabelKeys": ["version"]}]},
                "podAntiAffinity": {
                    "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1,
                        "podAffinityTerm": {"labelSelector": {}, "topologyKey": "zone",
                            "mismatchLabelKeys": ["tenant"]}}]}}}}),
        );
        apply_match_label_keys(&mut p);
        let req = |key: &str, op: &str, v: &str| Requirement {
            key: key.into(),
            operator: op.into(),
            values: vec![v.into()],
        };
        let aff = p.pod_affinity().expect("affinity");
        let first = &aff.required_during_scheduling_ignored_during_execution[0];
        assert_eq!(
            first
                .label_selector
                .as_ref()
                .expect("selector")
                .match_expressions,
            [req("version", "In", "v1"), req("tenant", "NotIn", "t1")]
        );
        // A nil selector stays nil (it matches nothing anyway).
        assert!(aff.required_during_scheduling_ignored_during_execution[1]
            .label_selector
            .is_none());
        let anti = p.pod_anti_affinity().expect("anti");
        let pref = &anti.preferred_during_scheduling_ignored_during_execution[0].pod_affinity_term;
        assert_eq!(
            pref.label_selector
                .as_ref()
                .expect("selector")
                .match_expressions,
            [req("tenant", "NotIn", "t1")]
        );
        // The merged terms select by the pod's own values: a v1 web pod of another tenant.
        let sel = first.label_selector.as_ref().expect("selector");
        let labels = |v: &str, t: &str| -> Labels {
            [("app", "web"), ("version", v), ("tenant", t)]
                .into_iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        assert!(sel.matches(&labels("v1", "t2")));
        assert!(!sel.matches(&labels("v2", "t2")));
        assert!(!sel.matches(&labels("v1", "t1")));
    }
}
