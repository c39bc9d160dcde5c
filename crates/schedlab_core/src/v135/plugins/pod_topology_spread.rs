//! `PodTopologySpread` (v1.35, reference §4.12): PreFilter (+AddPod/RemovePod), Filter,
//! PreScore, Score, NormalizeScore.
//!
//! Constraints are the pod's own `topologySpreadConstraints`, else the default ones (the
//! system defaults, hostname maxSkew 3 and zone maxSkew 5, both `ScheduleAnyway`, or the
//! `List` given in the args) with a selector built from the Services and the controller that
//! select the pod. `matchLabelKeys` is merged into the selector here (merging the API server's
//! merge again changes nothing).
//!
//! Counting works on topology domains. A key some pod names sits in the cluster's
//! [`TopologyIndex`]: a domain is its value id, and when every node carrying the key counts, the
//! matching pods per domain are summed from the index's label groups (minus the terminating pods
//! the groups include) instead of visiting every pod. Other keys (default constraints) are
//! interned once per cycle and counted by visiting the pods of the nodes that count. Filter and
//! Score then look a node's domain up in an array.

use crate::cluster::{Cluster, NodeId, NodeInfo, PodId, PodInfo, TopologyIndex};
use crate::model::field::{FieldError, Value};
use crate::model::pod::{TopologySpreadConstraint, DO_NOT_SCHEDULE, SCHEDULE_ANYWAY};
use crate::model::selector::{selector_matches, set_matches};
use crate::model::taint::{tolerated, NO_EXECUTE, NO_SCHEDULE};
use crate::model::{LabelSelector, Labels, Requirement};
use crate::sched::Reason;
use crate::v135::plugin::{
    state, state_mut, Cx, Plugin, PluginState, PreFilterOutput, PreScoreOutput,
};
use crate::v135::plugin::{PluginSpec, Point, Points};
use crate::v135::plugins::node_affinity::required_node_affinity_matches;
use crate::v135::status::Code;
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The registry entry.
pub static SPEC: PluginSpec = PluginSpec {
    name: "PodTopologySpread",
    points: Points::of(&[
        Point::PreFilter,
        Point::Filter,
        Point::PreScore,
        Point::Score,
    ]),
    default_enabled: true,
    default_weight: Some(2),
    args_kind: Some("PodTopologySpreadArgs"),
    args_checked_by_validation: true,
    build,
};

/// `v1.LabelHostname`: scoring counts per node for this key.
pub const HOSTNAME: &str = "kubernetes.io/hostname";
/// `v1.LabelTopologyZone`.
const ZONE: &str = "topology.kubernetes.io/zone";
/// `ErrReasonConstraintsNotMatch`.
pub const ERR_CONSTRAINTS_NOT_MATCH: &str = "node(s) didn't match pod topology spread constraints";
/// `ErrReasonNodeLabelNotMatch`.
pub const ERR_NODE_LABEL_NOT_MATCH: &str =
    "node(s) didn't match pod topology spread constraints (missing required label)";
use crate::queue::ClusterChange;
/// `fwk.MaxNodeScore`.
use crate::sched::MAX_NODE_SCORE;
use crate::v135::plugin::QueueingHint;
/// `v1.NodeInclusionPolicyHonor`.
const HONOR: &str = "Honor";

/// No domain / an empty critical path.
const NONE: u32 = u32::MAX;
/// A domain slot that is not a domain (no node that counts carries that value).
const ABSENT: i64 = i64::MIN;

/// The plugin, with its defaulted args.
pub struct PodTopologySpread {
    /// The default constraints (`systemDefaultConstraints` with `System`).
    defaults: Vec<TopologySpreadConstraint>,
    /// `defaultingType: System`.
    system_defaulted: bool,
    /// Whether some default constraint is `DoNotSchedule` / `ScheduleAnyway`.
    hard_defaults: bool,
    soft_defaults: bool,
    /// The bound pods with a deletion timestamp, found once (see [`Terminating`]).
    terminating: Mutex<Terminating>,
}

impl PodTopologySpread {
    /// The defaulting type and the default constraints in force.
    pub fn defaults(&self) -> (&'static str, &[TopologySpreadConstraint]) {
        let kind = if self.system_defaulted {
            "System"
        } else {
            "List"
        };
        (kind, &self.defaults)
    }
}

/// `systemDefaultConstraints`.
fn system_default_constraints() -> Vec<TopologySpreadConstraint> {
    [(HOSTNAME, 3), (ZONE, 5)]
        .into_iter()
        .map(|(key, max_skew)| TopologySpreadConstraint {
            max_skew,
            topology_key: key.to_string(),
            when_unsatisfiable: SCHEDULE_ANYWAY.to_string(),
            ..TopologySpreadConstraint::default()
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Args.

/// `PodTopologySpreadArgs`.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Args {
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    api_version: Option<String>,
    #[serde(default)]
    default_constraints: Option<Vec<ArgConstraint>>,
    #[serde(default)]
    defaulting_type: Option<String>,
}

/// `v1.TopologySpreadConstraint` as read strictly from the args.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ArgConstraint {
    #[serde(default)]
    max_skew: i32,
    #[serde(default)]
    topology_key: String,
    #[serde(default)]
    when_unsatisfiable: String,
    #[serde(default)]
    label_selector: Option<LabelSelector>,
    #[serde(default)]
    min_domains: Option<i32>,
    #[serde(default)]
    node_affinity_policy: Option<String>,
    #[serde(default)]
    node_taints_policy: Option<String>,
    #[serde(default)]
    match_label_keys: Option<Vec<String>>,
}

impl From<ArgConstraint> for TopologySpreadConstraint {
    fn from(c: ArgConstraint) -> Self {
        TopologySpreadConstraint {
            max_skew: c.max_skew,
            topology_key: c.topology_key,
            when_unsatisfiable: c.when_unsatisfiable,
            label_selector: c.label_selector,
            min_domains: c.min_domains,
            node_affinity_policy: c.node_affinity_policy,
            node_taints_policy: c.node_taints_policy,
            match_label_keys: c.match_label_keys.unwrap_or_default(),
        }
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
    // SetDefaults_PodTopologySpreadArgs: an empty defaultingType is System.
    let defaulting = match args.defaulting_type.as_deref() {
        None | Some("") => "System".to_string(),
        Some(t) => t.to_string(),
    };
    let constraints: Vec<TopologySpreadConstraint> = args
        .default_constraints
        .unwrap_or_default()
        .into_iter()
        .map(Into::into)
        .collect();
    let errors = validate(&defaulting, &constraints);
    if !errors.is_empty() {
        return Err(errors);
    }
    let system_defaulted = defaulting == "System";
    let defaults = if system_defaulted {
        system_default_constraints()
    } else {
        constraints
    };
    let has = |action: &str| defaults.iter().any(|c| c.when_unsatisfiable == action);
    Ok(Box::new(PodTopologySpread {
        hard_defaults: has(DO_NOT_SCHEDULE),
        soft_defaults: has(SCHEDULE_ANYWAY),
        defaults,
        system_defaulted,
        terminating: Mutex::new(Terminating::default()),
    }))
}

/// `ValidatePodTopologySpreadArgs`, paths relative to the args.
fn validate(defaulting: &str, constraints: &[TopologySpreadConstraint]) -> Vec<FieldError> {
    let mut errors = Vec::new();
    if defaulting != "System" && defaulting != "List" {
        errors.push(FieldError::not_supported(
            "defaultingType",
            Value::Str(defaulting),
            &["System", "List"],
        ));
    } else if defaulting == "System" && !constraints.is_empty() {
        errors.push(FieldError::invalid(
            "defaultingType",
            Value::Str(defaulting),
            "when .defaultConstraints are not empty",
        ));
    }
    for (i, c) in constraints.iter().enumerate() {
        let p = format!("defaultConstraints[{i}]");
        if c.max_skew <= 0 {
            errors.push(FieldError::invalid(
                format!("{p}.maxSkew"),
                Value::Int(c.max_skew.into()),
                "not in valid range (0, inf)",
            ));
        }
        let key_path = format!("{p}.topologyKey");
        if c.topology_key.is_empty() {
            errors.push(FieldError::required(key_path, "can not be empty"));
        } else {
            for msg in qualified_name_errors(&c.topology_key) {
                errors.push(FieldError::invalid(
                    key_path.clone(),
                    Value::Str(&c.topology_key),
                    &msg,
                ));
            }
        }
        let action_path = format!("{p}.whenUnsatisfiable");
        if c.when_unsatisfiable.is_empty() {
            errors.push(FieldError::required(action_path, "can not be empty"));
        } else if c.when_unsatisfiable != DO_NOT_SCHEDULE && c.when_unsatisfiable != SCHEDULE_ANYWAY
        {
            errors.push(FieldError::not_supported(
                action_path,
                Value::Str(&c.when_unsatisfiable),
                &[DO_NOT_SCHEDULE, SCHEDULE_ANYWAY],
            ));
        }
        if c.label_selector.is_some() {
            errors.push(FieldError::forbidden(
                format!("{p}.labelSelector"),
                "constraint must not define a selector, as they deduced for each pod",
            ));
        }
        if constraints[..i].iter().any(|o| {
            o.topology_key == c.topology_key && o.when_unsatisfiable == c.when_unsatisfiable
        }) {
            errors.push(FieldError::duplicate(
                p,
                Value::Str(&format!("{{{}, {}}}", c.topology_key, c.when_unsatisfiable)),
            ));
        }
    }
    errors
}

/// apimachinery's `IsQualifiedName` messages (`ValidateLabelName`).
fn qualified_name_errors(value: &str) -> Vec<String> {
    const NAME_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    const DNS_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    let mut errs = Vec::new();
    let parts: Vec<&str> = value.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_string());
            } else {
                if prefix.len() > 253 {
                    errs.push("prefix part must be no more than 253 characters".to_string());
                }
                let label_ok = |l: &str| {
                    let b = l.as_bytes();
                    !b.is_empty()
                        && (b[0].is_ascii_lowercase() || b[0].is_ascii_digit())
                        && (b[b.len() - 1].is_ascii_lowercase() || b[b.len() - 1].is_ascii_digit())
                        && b.iter()
                            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
                };
                if !prefix.split('.').all(label_ok) {
                    errs.push(format!("prefix part {DNS_MSG}"));
                }
            }
            *name
        }
        _ => {
            return vec![format!("a qualified name {NAME_MSG} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')")];
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_string());
    } else if name.len() > 63 {
        errs.push("name part must be no more than 63 characters".to_string());
    }
    let b = name.as_bytes();
    let name_ok = !b.is_empty()
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'));
    if !name_ok {
        errs.push(format!("name part {NAME_MSG}"));
    }
    errs
}

// ---------------------------------------------------------------------------------------------
// Constraints.

/// `topologySpreadConstraint`: a constraint with its selector merged and its defaults applied.
#[derive(Clone, Debug)]
struct Constraint {
    max_skew: i64,
    key: String,
    /// `None`: `labels.Nothing()` (a nil labelSelector).
    selector: Option<LabelSelector>,
    min_domains: i64,
    /// `nodeAffinityPolicy: Honor` (the default).
    honor_affinity: bool,
    /// `nodeTaintsPolicy: Honor` (default `Ignore`).
    honor_taints: bool,
}

impl Constraint {
    fn new(c: &TopologySpreadConstraint, selector: Option<LabelSelector>) -> Constraint {
        Constraint {
            max_skew: c.max_skew.into(),
            key: c.topology_key.clone(),
            selector,
            min_domains: c.min_domains.unwrap_or(1).into(),
            honor_affinity: c.node_affinity_policy.as_deref().is_none_or(|p| p == HONOR),
            honor_taints: c.node_taints_policy.as_deref() == Some(HONOR),
        }
    }

    /// `Selector.Matches`.
    fn matches(&self, labels: &Labels) -> bool {
        selector_matches(self.selector.as_ref(), labels)
    }

    /// Whether `countPodsMatchSelector` can count anything: an empty selector (`{}`) counts
    /// nothing there (`selector.Empty()`), and neither does a nil one.
    fn counts_pods(&self) -> bool {
        self.selector.as_ref().is_some_and(|s| !s.is_empty())
    }

    /// `matchNodeInclusionPolicies`.
    fn includes(&self, pod: &PodFacts, node: &NodeInfo) -> bool {
        (!self.honor_affinity || pod.matches_node(node))
            && (!self.honor_taints || pod.tolerates(node))
    }
}

/// `filterTopologySpreadConstraints`: the constraints with this action, `matchLabelKeys` merged
/// into a non-nil selector as `key In (value)` (`mergeLabelSetWithSelector` keeps Nothing).
fn filter_constraints(
    list: &[TopologySpreadConstraint],
    pod_labels: &Labels,
    action: &str,
) -> Vec<Constraint> {
    list.iter()
        .filter(|c| c.when_unsatisfiable == action)
        .map(|c| {
            let mut selector = c.label_selector.clone();
            if let Some(sel) = selector.as_mut() {
                for key in &c.match_label_keys {
                    if let Some(v) = pod_labels.get(key) {
                        sel.match_expressions.push(Requirement {
                            key: key.clone(),
                            operator: "In".into(),
                            values: vec![v.clone()],
                        });
                    }
                }
            }
            Constraint::new(c, selector)
        })
        .collect()
}

/// `helper.DefaultSelector`: the selectors of the Services in the pod's namespace that select
/// it (merged as a label set), then its controller's: a ReplicationController's set merged in, a
/// ReplicaSet's or StatefulSet's requirements added.
///
/// The cluster keeps no workload names, so the controller is found as the first workload of
/// the owner's kind in the pod's namespace whose selector selects the pod (upstream gets it by
/// the owner reference's name and checks its apiVersion too).
fn default_selector(cluster: &Cluster, pod: &PodInfo) -> LabelSelector {
    let mut sel = LabelSelector::default();
    for s in cluster.services_selecting(pod) {
        for (k, v) in &s.spec.selector {
            sel.match_labels.insert(k.clone(), v.clone());
        }
    }
    let Some(owner) = pod.pod.metadata.controller() else {
        return sel;
    };
    let labels = pod.labels();
    let in_ns = |ns: &String| *ns == pod.namespace;
    match owner.kind.as_str() {
        "ReplicationController" => {
            if let Some((_, rc)) = cluster
                .replication_controllers
                .iter()
                .find(|(ns, s)| in_ns(ns) && !s.is_empty() && set_matches(s, labels))
            {
                for (k, v) in rc {
                    sel.match_labels.insert(k.clone(), v.clone());
                }
            }
        }
        kind @ ("ReplicaSet" | "StatefulSet") => {
            let list = if kind == "ReplicaSet" {
                &cluster.replica_sets
            } else {
                &cluster.stateful_sets
            };
            if let Some(owner_sel) = list
                .iter()
                .find_map(|(ns, s)| s.as_ref().filter(|s| in_ns(ns) && s.matches(labels)))
            {
                // LabelSelectorAsSelector: matchLabels become `In` requirements.
                for (k, v) in &owner_sel.match_labels {
                    sel.match_expressions.push(Requirement {
                        key: k.clone(),
                        operator: "In".into(),
                        values: vec![v.clone()],
                    });
                }
                sel.match_expressions
                    .extend(owner_sel.match_expressions.iter().cloned());
            }
        }
        _ => {}
    }
    sel
}

impl PodTopologySpread {
    /// `getConstraints` / the constraints PreScore reads, for one action.
    fn constraints(&self, cx: &Cx, action: &str) -> Vec<Constraint> {
        let pod = cx.pod;
        let own = &pod.pod.spec.topology_spread_constraints;
        if !own.is_empty() {
            return filter_constraints(own, pod.labels(), action);
        }
        let wanted = if action == DO_NOT_SCHEDULE {
            self.hard_defaults
        } else {
            self.soft_defaults
        };
        if !wanted {
            return Vec::new();
        }
        // buildDefaultConstraints: the default selector replaces every selector.
        let selector = default_selector(cx.cluster, pod);
        if selector.is_empty() {
            return Vec::new();
        }
        self.defaults
            .iter()
            .filter(|c| c.when_unsatisfiable == action)
            .map(|c| Constraint::new(c, Some(selector.clone())))
            .collect()
    }

    /// The ids of bound pods being deleted (usually none).
    fn terminating(&self, cluster: &Cluster) -> Vec<PodId> {
        let mut t = self
            .terminating
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        t.refresh(&cluster.pods);
        t.ids
            .iter()
            .copied()
            .filter(|&p| cluster.pod_node().get(p).copied().flatten().is_some())
            .collect()
    }
}

/// The pods with a deletion timestamp among `Cluster::pods`, which only ever grows and whose
/// pods never change: only the pods added since the last look are read. The last pod seen is
/// kept alive, so a pointer match means the same list (a clone of the same cluster history).
#[derive(Default)]
struct Terminating {
    scanned: usize,
    last: Option<Arc<PodInfo>>,
    ids: Vec<PodId>,
}

impl Terminating {
    fn refresh(&mut self, pods: &[Arc<PodInfo>]) {
        let same = match &self.last {
            None => self.scanned == 0,
            Some(last) => pods
                .get(self.scanned.wrapping_sub(1))
                .is_some_and(|p| Arc::ptr_eq(p, last)),
        };
        if !same {
            *self = Terminating::default();
        }
        for (i, p) in pods.iter().enumerate().skip(self.scanned) {
            if p.pod.metadata.deletion_timestamp.is_some() {
                self.ids.push(i);
            }
        }
        self.scanned = pods.len();
        self.last = pods.last().cloned();
    }
}

/// What the inclusion policies ask of the incoming pod.
struct PodFacts<'a> {
    pod: &'a PodInfo,
    /// The pod has a nodeSelector or required node affinity.
    selects_nodes: bool,
}

impl<'a> PodFacts<'a> {
    fn new(pod: &'a PodInfo) -> PodFacts<'a> {
        let selects_nodes = !pod.pod.spec.node_selector.is_empty()
            || pod.pod.node_affinity().is_some_and(|na| {
                na.required_during_scheduling_ignored_during_execution
                    .is_some()
            });
        PodFacts { pod, selects_nodes }
    }

    /// `RequiredNodeAffinity.Match`: the nodeSelector and the required node affinity terms.
    fn matches_node(&self, node: &NodeInfo) -> bool {
        !self.selects_nodes || required_node_affinity_matches(&self.pod.pod, node)
    }

    /// No untolerated `NoSchedule` / `NoExecute` taint.
    fn tolerates(&self, node: &NodeInfo) -> bool {
        let tolerations = &self.pod.pod.spec.tolerations;
        node.object()
            .spec
            .taints
            .iter()
            .filter(|t| t.effect == NO_SCHEDULE || t.effect == NO_EXECUTE)
            .all(|t| tolerated(tolerations, t))
    }
}

// ---------------------------------------------------------------------------------------------
// Domains.

/// Where a node's domain of one constraint's key is found.
#[derive(Clone, Debug)]
enum DomainMap {
    /// The key is in the cluster's topology index: a domain is a value id. `missing`: the
    /// domain of a node without the key (the value `""`), when such nodes count.
    Index {
        key: usize,
        missing: Option<u32>,
        slots: usize,
    },
    /// Interned this cycle: node id → domain (`NONE` without the key).
    Local {
        nodes: Vec<u32>,
        missing: Option<u32>,
        slots: usize,
    },
    /// No domains needed (hostname scoring counts per node): only whether a node has the key.
    KeyOnly(String),
}

impl DomainMap {
    fn build(cluster: &Cluster, key: &str, missing_as_empty: bool, domains: bool) -> DomainMap {
        let index = &cluster.topology;
        if let Some(k) = index.key_id(key) {
            let values = &index.keys[k].values;
            let (missing, slots) = if missing_as_empty {
                match values.iter().position(|v| v.is_empty()) {
                    Some(p) => (Some(p as u32), values.len()),
                    None => (Some(values.len() as u32), values.len() + 1),
                }
            } else {
                (None, values.len())
            };
            return DomainMap::Index {
                key: k,
                missing,
                slots,
            };
        }
        if !domains {
            return DomainMap::KeyOnly(key.to_string());
        }
        let mut ids: HashMap<&str, u32> = HashMap::new();
        let missing = missing_as_empty.then(|| {
            ids.insert("", 0);
            0
        });
        let nodes = cluster
            .nodes
            .iter()
            .map(|n| match n.labels().get(key) {
                Some(v) => {
                    let next = ids.len() as u32;
                    *ids.entry(v.as_str()).or_insert(next)
                }
                None => NONE,
            })
            .collect();
        DomainMap::Local {
            nodes,
            missing,
            slots: ids.len(),
        }
    }

    fn slots(&self) -> usize {
        match self {
            DomainMap::Index { slots, .. } | DomainMap::Local { slots, .. } => *slots,
            DomainMap::KeyOnly(_) => 0,
        }
    }

    /// The key id when the group counts of the index can be used.
    fn index_key(&self) -> Option<usize> {
        match self {
            DomainMap::Index { key, .. } => Some(*key),
            _ => None,
        }
    }

    /// The node's value id / local id, `None` without the key.
    fn keyed(&self, index: &TopologyIndex, node: &NodeInfo) -> Option<u32> {
        match self {
            DomainMap::Index { key, .. } => index.node_value(*key, node.id),
            DomainMap::Local { nodes, .. } => nodes.get(node.id).copied().filter(|&d| d != NONE),
            DomainMap::KeyOnly(key) => node.labels().contains_key(key).then_some(NONE),
        }
    }

    /// Whether the node carries the key.
    fn has_key(&self, index: &TopologyIndex, node: &NodeInfo) -> bool {
        self.keyed(index, node).is_some()
    }

    /// The node's domain slot (the `""` domain for a node without the key, when it counts).
    fn of(&self, index: &TopologyIndex, node: &NodeInfo) -> Option<usize> {
        let missing = match self {
            DomainMap::Index { missing, .. } | DomainMap::Local { missing, .. } => *missing,
            DomainMap::KeyOnly(_) => return None,
        };
        self.keyed(index, node).or(missing).map(|d| d as usize)
    }
}

/// `countPodsMatchSelector`: pods on the node in `ns`, not being deleted, matching.
fn count_on_node(cluster: &Cluster, c: &Constraint, ns: &str, node: &NodeInfo) -> i64 {
    if !c.counts_pods() {
        return 0;
    }
    node.pods
        .iter()
        .filter(|&&p| {
            let o = &cluster.pods[p];
            o.pod.metadata.deletion_timestamp.is_none()
                && o.namespace == ns
                && c.matches(o.labels())
        })
        .count() as i64
}

/// Adds to every present slot of `counts[i]` the matching pods on the nodes that count for
/// constraint `i`: those carrying every key (when `require_all`) and passing its inclusion
/// policies. With `mark_present`, every domain of such a node becomes present first
/// (PreFilter); otherwise the present slots are given (PreScore).
///
/// Returns, for each constraint with `per_node[i]` whose pods had to be visited on every node
/// anyway, the matching pods per node id (scoring's per-node count for a hostname constraint
/// with the same selector).
#[allow(clippy::too_many_arguments)]
fn count_domains(
    cx: &Cx,
    constraints: &[Constraint],
    maps: &[DomainMap],
    require_all: bool,
    mark_present: bool,
    counts: &mut [Vec<i64>],
    terminating: &[PodId],
    per_node: &[bool],
) -> Vec<Option<Vec<i64>>> {
    let mut kept: Vec<Option<Vec<i64>>> = vec![None; constraints.len()];
    let cluster = cx.cluster;
    let index = &cluster.topology;
    let facts = PodFacts::new(cx.pod);
    let ns = cx.pod.namespace.as_str();
    let k = constraints.len();
    // Per constraint: the counted nodes with the key, those without it (the "" domain), and
    // whether every node with the key counts (then the index's group counts are exact).
    let mut with_key: Vec<Vec<NodeId>> = vec![Vec::new(); k];
    let mut without_key: Vec<Vec<NodeId>> = vec![Vec::new(); k];
    let mut exact: Vec<bool> = maps.iter().map(|m| m.index_key().is_some()).collect();
    // Constraints without domains to count (the hostname key in scoring) are left alone.
    let active: Vec<bool> = counts.iter().map(|c| !c.is_empty()).collect();
    // The common case needs no look at the nodes: every constraint on one key of the index,
    // nodes counted for carrying it alone, and no inclusion policy that can exclude a node.
    // The counted nodes are then exactly those with the key, and every value of the key is
    // carried by some node, so every value is a domain.
    let first_key = maps.first().and_then(DomainMap::index_key);
    let trivial = require_all
        && first_key.is_some()
        && maps.iter().all(
            |m| matches!(m, DomainMap::Index { key, missing: None, .. } if Some(*key) == first_key),
        )
        && constraints.iter().all(|c| {
            (!c.honor_affinity || !facts.selects_nodes)
                && (!c.honor_taints || cluster.nodes_with_hard_taints() == 0)
        });
    if trivial {
        if mark_present {
            for (i, slots) in counts.iter_mut().enumerate() {
                if active[i] {
                    slots.fill(0);
                }
            }
        }
    } else {
        for node in &cluster.nodes {
            let has_all = !require_all || maps.iter().all(|m| m.has_key(index, node));
            let mut affinity_ok: Option<bool> = None;
            let mut taints_ok: Option<bool> = None;
            for i in 0..k {
                if !active[i] {
                    continue;
                }
                let c = &constraints[i];
                let has_key = maps[i].has_key(index, node);
                let counted = has_all
                    && (!c.honor_affinity
                        || *affinity_ok.get_or_insert_with(|| facts.matches_node(node)))
                    && (!c.honor_taints || *taints_ok.get_or_insert_with(|| facts.tolerates(node)));
                if !counted {
                    if has_key {
                        exact[i] = false;
                    }
                    continue;
                }
                let Some(d) = maps[i].of(index, node) else {
                    continue;
                };
                if mark_present && counts[i][d] == ABSENT {
                    counts[i][d] = 0;
                }
                if has_key {
                    with_key[i].push(node.id);
                } else {
                    without_key[i].push(node.id);
                }
            }
        }
    }
    for i in 0..k {
        let c = &constraints[i];
        if !active[i] || !c.counts_pods() {
            continue;
        }
        let slots = &mut counts[i];
        let mut add = |d: usize, n: i64| {
            if let Some(s) = slots.get_mut(d) {
                if *s != ABSENT {
                    *s += n;
                }
            }
        };
        match maps[i].index_key().filter(|_| exact[i]) {
            Some(key) => {
                for g in &index.groups {
                    if g.namespace == ns && c.matches(&g.labels) {
                        for (&v, &n) in &g.counts[key] {
                            add(v as usize, n);
                        }
                    }
                }
                // The groups count pods being deleted too.
                for &p in terminating {
                    let o = &cluster.pods[p];
                    let Some(node) = cluster.pod_node()[p] else {
                        continue;
                    };
                    if o.namespace == ns && c.matches(o.labels()) {
                        if let Some(v) = index.node_value(key, node) {
                            add(v as usize, -1);
                        }
                    }
                }
            }
            None if per_node[i]
                && with_key[i].len() + without_key[i].len() == cluster.nodes.len() =>
            {
                // Every node counts: keep the per-node numbers.
                let mut on_node = vec![0i64; cluster.nodes.len()];
                for node in &cluster.nodes {
                    let n = count_on_node(cluster, c, ns, node);
                    on_node[node.id] = n;
                    if let Some(d) = maps[i].of(index, node) {
                        add(d, n);
                    }
                }
                kept[i] = Some(on_node);
                continue;
            }
            None => {
                for &n in &with_key[i] {
                    let node = &cluster.nodes[n];
                    if let Some(d) = maps[i].of(index, node) {
                        add(d, count_on_node(cluster, c, ns, node));
                    }
                }
            }
        }
        for &n in &without_key[i] {
            let node = &cluster.nodes[n];
            if let Some(d) = maps[i].of(index, node) {
                add(d, count_on_node(cluster, c, ns, node));
            }
        }
    }
    kept
}

// ---------------------------------------------------------------------------------------------
// PreFilter / Filter.

/// What PreFilter found that AddPod/RemovePod never change.
#[derive(Debug)]
struct FilterShared {
    constraints: Vec<Constraint>,
    maps: Vec<DomainMap>,
    /// Per constraint: the incoming pod matches its selector (`selfMatchNum`).
    self_match: Vec<bool>,
}

/// `preFilterState`.
#[derive(Clone, Debug)]
struct FilterState {
    shared: Arc<FilterShared>,
    per: Vec<DomainCounts>,
}

/// One constraint's `TpValueToMatchNum` and `CriticalPaths`.
#[derive(Clone, Debug)]
struct DomainCounts {
    /// Domain slot → matching pods, `ABSENT` when not a domain. Copied on first write.
    counts: Arc<Vec<i64>>,
    /// The number of domains (`len(TpValueToMatchNum[i])`).
    domains: i64,
    /// `criticalPaths`: the two domains with the fewest matching pods, fewest first.
    paths: [(u32, i64); 2],
}

impl DomainCounts {
    fn new(counts: Vec<i64>) -> DomainCounts {
        let mut dc = DomainCounts {
            counts: Arc::new(Vec::new()),
            domains: 0,
            paths: [(NONE, i32::MAX.into()); 2],
        };
        for (d, &n) in counts.iter().enumerate() {
            if n != ABSENT {
                dc.domains += 1;
                dc.update_paths(d as u32, n);
            }
        }
        dc.counts = Arc::new(counts);
        dc
    }

    /// `criticalPaths.update`.
    fn update_paths(&mut self, d: u32, num: i64) {
        let p = &mut self.paths;
        let i = if d == p[0].0 {
            Some(0)
        } else if d == p[1].0 {
            Some(1)
        } else {
            None
        };
        match i {
            Some(i) => {
                p[i].1 = num;
                if p[0].1 > p[1].1 {
                    p.swap(0, 1);
                }
            }
            None => {
                if num < p[0].1 {
                    p[1] = p[0];
                    p[0] = (d, num);
                } else if num < p[1].1 {
                    p[1] = (d, num);
                }
            }
        }
    }

    /// `TpValueToMatchNum[i][v] += delta` and the critical paths' update.
    fn add(&mut self, d: usize, delta: i64) {
        let counts = Arc::make_mut(&mut self.counts);
        let Some(slot) = counts.get_mut(d) else {
            return;
        };
        if *slot == ABSENT {
            *slot = 0;
            self.domains += 1;
        }
        *slot += delta;
        let n = *slot;
        self.update_paths(d as u32, n);
    }

    /// `minMatchNum`.
    fn min_match(&self, min_domains: i64) -> i64 {
        if self.domains < min_domains {
            0
        } else {
            self.paths[0].1
        }
    }
}

impl PodTopologySpread {
    /// `updateWithPod`.
    fn update_with_pod(
        &self,
        cx: &Cx,
        s: &mut FilterState,
        pod: &PodInfo,
        node: &NodeInfo,
        delta: i64,
    ) {
        if pod.namespace != cx.pod.namespace {
            return;
        }
        let index = &cx.cluster.topology;
        let shared = Arc::clone(&s.shared);
        if !shared.maps.iter().all(|m| m.has_key(index, node)) {
            return;
        }
        let facts = PodFacts::new(cx.pod);
        for (i, c) in shared.constraints.iter().enumerate() {
            if !c.matches(pod.labels()) || !c.includes(&facts, node) {
                continue;
            }
            if let Some(d) = shared.maps[i].of(index, node) {
                s.per[i].add(d, delta);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// PreScore / Score.

/// `preScoreState`.
#[derive(Clone, Debug)]
struct ScoreState {
    constraints: Vec<Constraint>,
    maps: Vec<DomainMap>,
    /// Per constraint, per domain slot: matching pods (`ABSENT`: not a domain). Empty for the
    /// hostname key, counted per node in Score.
    counts: Vec<Vec<i64>>,
    /// `TopologyNormalizingWeight`.
    weights: Vec<f64>,
    /// `IgnoredNodes`, by node id (empty when none is ignored).
    ignored: Vec<bool>,
    /// Per constraint: the matching pods per node id, when PreScore visited every node for it.
    node_counts: Vec<Option<Vec<i64>>>,
    /// Per hostname constraint: the constraint whose `node_counts` it reads (same selector).
    per_node_from: Vec<Option<usize>>,
}

impl ScoreState {
    fn ignored(&self, node: &NodeInfo) -> bool {
        self.ignored.get(node.id).copied().unwrap_or(false)
    }
}

/// `topologyNormalizingWeight`.
fn normalizing_weight(size: usize) -> f64 {
    ((size + 2) as f64).ln()
}

impl Plugin for PodTopologySpread {
    /// A pod of the pod's namespace bound or deleted, a new node, or a node relabelled or
    /// retainted.
    fn queueing_hint(
        &self,
        change: &ClusterChange,
        pod: &PodInfo,
        cluster: &Cluster,
    ) -> QueueingHint {
        QueueingHint::queue_if(match *change {
            ClusterChange::PodAdd(p) | ClusterChange::PodDelete(p) => {
                cluster.pods[p].namespace == pod.namespace
            }
            ClusterChange::NodeAdd(_) => true,
            ClusterChange::NodeUpdate { change, .. } => change.labels || change.taints,
        })
    }

    fn name(&self) -> &'static str {
        SPEC.name
    }

    fn pre_filter(&self, cx: &Cx) -> PreFilterOutput {
        let constraints = self.constraints(cx, DO_NOT_SCHEDULE);
        if constraints.is_empty() {
            return PreFilterOutput::skip();
        }
        let cluster = cx.cluster;
        let maps: Vec<DomainMap> = constraints
            .iter()
            .map(|c| DomainMap::build(cluster, &c.key, false, true))
            .collect();
        let mut counts: Vec<Vec<i64>> = maps.iter().map(|m| vec![ABSENT; m.slots()]).collect();
        let terminating = self.terminating(cluster);
        let no_per_node = vec![false; constraints.len()];
        count_domains(
            cx,
            &constraints,
            &maps,
            true,
            true,
            &mut counts,
            &terminating,
            &no_per_node,
        );
        let self_match = constraints
            .iter()
            .map(|c| c.matches(cx.pod.labels()))
            .collect();
        PreFilterOutput::with_state(FilterState {
            per: counts.into_iter().map(DomainCounts::new).collect(),
            shared: Arc::new(FilterShared {
                constraints,
                maps,
                self_match,
            }),
        })
    }

    fn add_pod(&self, cx: &Cx, st: &mut dyn PluginState, added: &PodInfo, node: &NodeInfo) {
        if let Some(s) = state_mut::<FilterState>(st) {
            self.update_with_pod(cx, s, added, node, 1);
        }
    }

    fn remove_pod(&self, cx: &Cx, st: &mut dyn PluginState, removed: &PodInfo, node: &NodeInfo) {
        if let Some(s) = state_mut::<FilterState>(st) {
            self.update_with_pod(cx, s, removed, node, -1);
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
                "reading \"PreFilterPodTopologySpread\" from cycleState: not found",
            ));
            return Code::Error;
        };
        let index = &cx.cluster.topology;
        let shared = &s.shared;
        for (i, c) in shared.constraints.iter().enumerate() {
            let Some(d) = shared.maps[i].of(index, node) else {
                reasons.push(ERR_NODE_LABEL_NOT_MATCH.into());
                return Code::UnschedulableAndUnresolvable;
            };
            let per = &s.per[i];
            let min = per.min_match(c.min_domains);
            let matched = match per.counts.get(d) {
                Some(&n) if n != ABSENT => n,
                _ => 0,
            };
            let skew = matched + i64::from(shared.self_match[i]) - min;
            if skew > c.max_skew {
                reasons.push(ERR_CONSTRAINTS_NOT_MATCH.into());
                return Code::Unschedulable;
            }
        }
        Code::Success
    }

    fn pre_score(&self, cx: &Cx, nodes: &[&NodeInfo]) -> PreScoreOutput {
        let cluster = cx.cluster;
        if cluster.nodes.is_empty() {
            return PreScoreOutput::skip();
        }
        let constraints = self.constraints(cx, SCHEDULE_ANYWAY);
        if constraints.is_empty() {
            return PreScoreOutput::skip();
        }
        let index = &cluster.topology;
        // Nodes must carry every key unless the system defaults apply.
        let require_all =
            !cx.pod.pod.spec.topology_spread_constraints.is_empty() || !self.system_defaulted;
        let maps: Vec<DomainMap> = constraints
            .iter()
            .map(|c| DomainMap::build(cluster, &c.key, !require_all, c.key != HOSTNAME))
            .collect();
        let mut ignored = Vec::new();
        let mut ignored_count = 0usize;
        let mut counts: Vec<Vec<i64>> = constraints
            .iter()
            .zip(&maps)
            .map(|(c, m)| {
                if c.key == HOSTNAME {
                    Vec::new()
                } else {
                    vec![ABSENT; m.slots()]
                }
            })
            .collect();
        let mut sizes = vec![0usize; constraints.len()];
        for node in nodes {
            if require_all && !maps.iter().all(|m| m.has_key(index, node)) {
                if ignored.is_empty() {
                    ignored = vec![false; cluster.nodes.len()];
                }
                if let Some(slot) = ignored.get_mut(node.id) {
                    if !*slot {
                        *slot = true;
                        ignored_count += 1;
                    }
                }
                continue;
            }
            for (i, m) in maps.iter().enumerate() {
                if counts[i].is_empty() {
                    continue;
                }
                if let Some(d) = m.of(index, node) {
                    if counts[i][d] == ABSENT {
                        counts[i][d] = 0;
                        sizes[i] += 1;
                    }
                }
            }
        }
        let weights = constraints
            .iter()
            .zip(&sizes)
            .map(|(c, &size)| {
                let size = if c.key == HOSTNAME {
                    nodes.len() - ignored_count
                } else {
                    size
                };
                normalizing_weight(size)
            })
            .collect();
        // A hostname constraint counts per node in Score; when a constraint with the same
        // selector visits every node's pods here anyway, Score reads its per-node numbers.
        let same_selector_as_hostname: Vec<bool> = constraints
            .iter()
            .map(|c| {
                c.key != HOSTNAME
                    && constraints
                        .iter()
                        .any(|h| h.key == HOSTNAME && h.selector == c.selector)
            })
            .collect();
        let mut node_counts = Vec::new();
        if counts.iter().any(|c| !c.is_empty()) {
            let terminating = self.terminating(cluster);
            node_counts = count_domains(
                cx,
                &constraints,
                &maps,
                require_all,
                false,
                &mut counts,
                &terminating,
                &same_selector_as_hostname,
            );
        }
        let per_node_from = constraints
            .iter()
            .map(|h| {
                (h.key == HOSTNAME)
                    .then(|| {
                        (0..constraints.len()).find(|&i| {
                            node_counts.get(i).is_some_and(Option::is_some)
                                && constraints[i].selector == h.selector
                        })
                    })
                    .flatten()
            })
            .collect();
        PreScoreOutput::with_state(ScoreState {
            constraints,
            maps,
            counts,
            weights,
            ignored,
            node_counts,
            per_node_from,
        })
    }

    fn score(&self, cx: &Cx, st: Option<&dyn PluginState>, node: &NodeInfo) -> Result<i64, String> {
        let Some(s) = state::<ScoreState>(st) else {
            return Err("reading \"PreScorePodTopologySpread\" from cycleState: not found".into());
        };
        if s.ignored(node) {
            return Ok(0);
        }
        let index = &cx.cluster.topology;
        let mut score = 0.0f64;
        for (i, c) in s.constraints.iter().enumerate() {
            let map = &s.maps[i];
            if !map.has_key(index, node) {
                continue;
            }
            let cnt = if c.key == HOSTNAME {
                let kept = s.per_node_from[i]
                    .and_then(|j| s.node_counts[j].as_ref())
                    .and_then(|counts| counts.get(node.id));
                match kept {
                    Some(&n) => n,
                    None => count_on_node(cx.cluster, c, &cx.pod.namespace, node),
                }
            } else {
                match map.of(index, node).and_then(|d| s.counts[i].get(d)) {
                    Some(&n) if n != ABSENT => n,
                    _ => 0,
                }
            };
            // scoreForCount
            score += cnt as f64 * s.weights[i] + (c.max_skew - 1) as f64;
        }
        Ok(score.round() as i64)
    }

    fn normalize(
        &self,
        _cx: &Cx,
        st: Option<&dyn PluginState>,
        nodes: &[&NodeInfo],
        scores: &mut [i64],
    ) {
        let Some(s) = state::<ScoreState>(st) else {
            return;
        };
        let mut min = i64::MAX;
        let mut max = 0i64;
        for (node, &score) in nodes.iter().zip(scores.iter()) {
            if s.ignored(node) {
                continue;
            }
            min = min.min(score);
            max = max.max(score);
        }
        for (node, score) in nodes.iter().zip(scores.iter_mut()) {
            if s.ignored(node) {
                *score = 0;
            } else if max == 0 {
                *score = MAX_NODE_SCORE;
            } else {
                let v = i128::from(MAX_NODE_SCORE)
                    * (i128::from(max) + i128::from(min) - i128::from(*score))
                    / i128::from(max);
                *score = v as i64;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{node, pod};
    use crate::v135::plugins::testkit::{both_ways, score_all};
    use serde_json::{json, Value as Json};

    fn plugin(args: Option<Json>) -> Box<dyn Plugin> {
        build(args.as_ref()).unwrap_or_else(|e| panic!("{e:?}"))
    }

    fn arg_errors(args: Json) -> Vec<String> {
        crate::v135::plugins::testkit::build_errors(build, args)
    }

    /// Nodes `name` with a hostname label and, when given, a zone label.
    fn zoned(list: &[(&str, Option<&str>)]) -> Vec<crate::model::Node> {
        list.iter()
            .map(|(name, zone)| {
                let mut labels = json!({HOSTNAME: name});
                if let Some(z) = zone {
                    labels["zone"] = json!(z);
                    labels[ZONE] = json!(z);
                }
                node(json!({"metadata": {"name": name, "labels": labels}}))
            })
            .collect()
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

    use crate::model::Pod;

    fn labelled(labels: Json) -> Pod {
        pod(json!({"metadata": {"labels": labels}}))
    }

    /// A pod labelled `app: web` with these constraints.
    fn spread(constraints: Json) -> Pod {
        pod(json!({"metadata": {"labels": {"app": "web"}},
            "spec": {"topologySpreadConstraints": constraints}}))
    }

    fn hard(key: &str, max_skew: i32, extra: Json) -> Json {
        let mut c = json!({"maxSkew": max_skew, "topologyKey": key,
            "whenUnsatisfiable": DO_NOT_SCHEDULE,
            "labelSelector": {"matchLabels": {"app": "web"}}});
        for (k, v) in extra.as_object().expect("object") {
            c[k] = v.clone();
        }
        c
    }

    /// Each node's Filter verdict as `(code, reasons)`; `None` when PreFilter skips.
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
        Some(
            c.nodes
                .iter()
                .map(|n| {
                    let mut reasons = Vec::new();
                    let code = p.filter(&cx, out.state.as_deref(), n, &mut reasons);
                    let text: Vec<String> = reasons.iter().map(ToString::to_string).collect();
                    (code, text.join(", "))
                })
                .collect(),
        )
    }

    const OK: (Code, &str) = (Code::Success, "");
    const SKEW: (Code, &str) = (Code::Unschedulable, ERR_CONSTRAINTS_NOT_MATCH);
    const MISSING: (Code, &str) = (Code::UnschedulableAndUnresolvable, ERR_NODE_LABEL_NOT_MATCH);

    fn expect(v: &[(Code, &str)]) -> Verdicts {
        Some(v.iter().map(|(c, s)| (*c, s.to_string())).collect())
    }

    fn web() -> Pod {
        labelled(json!({"app": "web"}))
    }

    #[test]
    fn filter_skew_against_the_global_minimum_with_min_domains() {
        let nodes = zoned(&[
            ("a1", Some("a")),
            ("a2", Some("a")),
            ("b1", Some("b")),
            ("c1", Some("c")),
            ("x", None),
        ]);
        let deleting = pod(
            json!({"metadata": {"labels": {"app": "web"}, "deletionTimestamp": "2024-01-01T00:00:00Z"}}),
        );
        let other_ns = pod(json!({"metadata": {"namespace": "other", "labels": {"app": "web"}}}));
        // Counted: a = 2 (a1, a2), b = 1, c = 1; the terminating pod on b1 and the pod of
        // another namespace on c1 do not count, nor does the node without a zone.
        let c = cluster(
            nodes,
            vec![
                (web(), 0),
                (web(), 1),
                (web(), 2),
                (web(), 3),
                (deleting, 2),
                (other_ns, 3),
                (web(), 4),
            ],
        );
        let p = plugin(None);
        // minDomains unset (1): 3 domains, min 1, self 1.
        // a: 2+1-1 = 2 > 1; b: 1+1-1 = 1; c: 1; x lacks the key.
        let got = both_ways(&c, spread(json!([hard("zone", 1, json!({}))])), |c, i| {
            filter_all(&*p, c, i)
        });
        assert_eq!(got, expect(&[SKEW, SKEW, OK, OK, MISSING]));
        // minDomains 3 = the 3 domains: the same.
        let got = both_ways(
            &c,
            spread(json!([hard("zone", 1, json!({"minDomains": 3}))])),
            |c, i| filter_all(&*p, c, i),
        );
        assert_eq!(got, expect(&[SKEW, SKEW, OK, OK, MISSING]));
        // minDomains 4 > 3 domains: the minimum counts as 0.
        // a: 2+1-0 = 3 > 1; b: 1+1-0 = 2 > 1; c: 2 > 1.
        let got = both_ways(
            &c,
            spread(json!([hard("zone", 1, json!({"minDomains": 4}))])),
            |c, i| filter_all(&*p, c, i),
        );
        assert_eq!(got, expect(&[SKEW, SKEW, SKEW, SKEW, MISSING]));
        // maxSkew 2 with minDomains 4: a: 3 > 2; b, c: 2.
        let got = both_ways(
            &c,
            spread(json!([hard("zone", 2, json!({"minDomains": 4}))])),
            |c, i| filter_all(&*p, c, i),
        );
        assert_eq!(got, expect(&[SKEW, SKEW, OK, OK, MISSING]));
        // A pod the selector does not select adds no self match: a: 2+0-1 = 1 fits.
        let mut other = spread(json!([hard("zone", 1, json!({}))]));
        other.metadata.labels.clear();
        let got = both_ways(&c, other, |c, i| filter_all(&*p, c, i));
        assert_eq!(got, expect(&[OK, OK, OK, OK, MISSING]));
    }

    #[test]
    fn filter_checks_constraints_in_order_and_a_missing_second_key() {
        // Node "a1" has a zone and a rack, "b1" only a zone.
        let c = cluster(
            vec![
                node(json!({"metadata": {"name": "a1", "labels": {"zone": "a", "rack": "r1"}}})),
                node(json!({"metadata": {"name": "b1", "labels": {"zone": "b"}}})),
            ],
            vec![(web(), 0), (web(), 0)],
        );
        let p = plugin(None);
        let incoming = spread(json!([
            hard("zone", 1, json!({})),
            hard("rack", 5, json!({}))
        ]));
        // Only a1 carries both keys, so only zone a is a domain: zone a = 2, min 2.
        // a1: zone 2+1-2 = 1 ok, rack r1 = 2, min 2, 1 ok. b1: zone b is no domain, 0+1-2 <= 1
        // passes, then the rack key is missing.
        let got = both_ways(&c, incoming, |c, i| filter_all(&*p, c, i));
        assert_eq!(got, expect(&[OK, MISSING]));
    }

    #[test]
    fn inclusion_policies_decide_which_nodes_count() {
        let nodes = vec![
            node(json!({"metadata": {"name": "a1", "labels": {"zone": "a", "disk": "ssd"}}})),
            node(
                json!({"metadata": {"name": "b1", "labels": {"zone": "b", "disk": "hdd"}},
                "spec": {"taints": [{"key": "k", "value": "v", "effect": "NoSchedule"}]}}),
            ),
            node(json!({"metadata": {"name": "c1", "labels": {"zone": "c", "disk": "ssd"}}})),
        ];
        let c = cluster(nodes, vec![(web(), 0), (web(), 2)]);
        let p = plugin(None);
        let with_selector = |policy: Json| {
            let mut pd = spread(json!([hard("zone", 1, policy)]));
            pd.spec.node_selector.insert("disk".into(), "ssd".into());
            pd
        };
        // nodeAffinityPolicy Honor (default): b1 (hdd) does not count: domains a = 1, c = 1,
        // min 1. a: 1+1-1 = 1 ok; b: no domain, 0+1-1 = 0 ok; c ok.
        let got = both_ways(&c, with_selector(json!({})), |c, i| filter_all(&*p, c, i));
        assert_eq!(got, expect(&[OK, OK, OK]));
        // Ignore: b = 0 counts, min 0. a: 1+1-0 = 2 > 1; b: 1 ok; c: 2 > 1.
        let got = both_ways(
            &c,
            with_selector(json!({"nodeAffinityPolicy": "Ignore"})),
            |c, i| filter_all(&*p, c, i),
        );
        assert_eq!(got, expect(&[SKEW, OK, SKEW]));
        // nodeTaintsPolicy Ignore (default), no nodeSelector: b counts, min 0: as above.
        let plain = spread(json!([hard("zone", 1, json!({}))]));
        let got = both_ways(&c, plain, |c, i| filter_all(&*p, c, i));
        assert_eq!(got, expect(&[SKEW, OK, SKEW]));
        // nodeTaintsPolicy Honor: b1's NoSchedule taint is not tolerated, b does not count.
        let honor = spread(json!([hard(
            "zone",
            1,
            json!({"nodeTaintsPolicy": "Honor"})
        )]));
        let got = both_ways(&c, honor, |c, i| filter_all(&*p, c, i));
        assert_eq!(got, expect(&[OK, OK, OK]));
        // ... unless the pod tolerates it.
        let mut tolerant = spread(json!([hard(
            "zone",
            1,
            json!({"nodeTaintsPolicy": "Honor"})
        )]));
        tolerant.spec.tolerations =
            serde_json::from_value(json!([{"key": "k", "operator": "Exists"}]))
                .expect("tolerations");
        let got = both_ways(&c, tolerant, |c, i| filter_all(&*p, c, i));
        assert_eq!(got, expect(&[SKEW, OK, SKEW]));
    }

    #[test]
    fn match_label_keys_narrow_the_selector_and_merging_twice_changes_nothing() {
        let versioned = |v: &str| labelled(json!({"app": "web", "version": v}));
        let c = cluster(
            zoned(&[("a1", Some("a")), ("b1", Some("b"))]),
            vec![
                (versioned("v1"), 0),
                (versioned("v1"), 0),
                (versioned("v2"), 1),
            ],
        );
        let p = plugin(None);
        let incoming = |constraint: Json| {
            let mut pd = spread(json!([constraint]));
            pd.metadata.labels.insert("version".into(), "v2".into());
            pd
        };
        // Without matchLabelKeys: a = 2, b = 1, min 1: a 2+1-1 = 2 > 1, b 1 ok.
        let got = both_ways(&c, incoming(hard("zone", 1, json!({}))), |c, i| {
            filter_all(&*p, c, i)
        });
        assert_eq!(got, expect(&[SKEW, OK]));
        // matchLabelKeys [version]: only v2 pods count: a = 0, b = 1, min 0:
        // a 0+1-0 = 1 ok, b 1+1-0 = 2 > 1.
        let keyed = hard("zone", 1, json!({"matchLabelKeys": ["version"]}));
        let got = both_ways(&c, incoming(keyed), |c, i| filter_all(&*p, c, i));
        assert_eq!(got, expect(&[OK, SKEW]));
        // The API server's merge already in the selector, merged again here: the same.
        let merged = hard(
            "zone",
            1,
            json!({"matchLabelKeys": ["version"], "labelSelector": {
                "matchLabels": {"app": "web"},
                "matchExpressions": [{"key": "version", "operator": "In", "values": ["v2"]}]}}),
        );
        let got = both_ways(&c, incoming(merged), |c, i| filter_all(&*p, c, i));
        assert_eq!(got, expect(&[OK, SKEW]));
        // A nil selector stays Nothing: no pod counts, no self match: everything fits.
        let nil = json!({"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": DO_NOT_SCHEDULE,
            "matchLabelKeys": ["version"]});
        let got = both_ways(&c, incoming(nil), |c, i| filter_all(&*p, c, i));
        assert_eq!(got, expect(&[OK, OK]));
    }

    #[test]
    fn an_empty_selector_counts_no_pod_but_matches_the_pod_itself() {
        // countPodsMatchSelector returns 0 for an empty selector: every count is 0, min 0,
        // self 1: skew 1 everywhere, although zone a holds two pods.
        let c = cluster(
            zoned(&[("a1", Some("a")), ("b1", Some("b"))]),
            vec![(web(), 0), (web(), 0)],
        );
        let p = plugin(None);
        let any = json!({"maxSkew": 1, "topologyKey": "zone",
            "whenUnsatisfiable": DO_NOT_SCHEDULE, "labelSelector": {}});
        let got = both_ways(&c, spread(json!([any])), |c, i| filter_all(&*p, c, i));
        assert_eq!(got, expect(&[OK, OK]));
    }

    #[test]
    fn no_hard_constraint_skips_prefilter() {
        let c = cluster(zoned(&[("a1", Some("a"))]), vec![]);
        let p = plugin(None);
        let bare = PodInfo::new_v135(web(), 0, 0);
        assert_eq!(filter_all(&*p, &c, &bare), None);
        let soft = spread(json!([{"maxSkew": 1, "topologyKey": "zone",
            "whenUnsatisfiable": SCHEDULE_ANYWAY, "labelSelector": {"matchLabels": {"app": "web"}}}]));
        assert_eq!(filter_all(&*p, &c, &PodInfo::new_v135(soft, 0, 0)), None);
    }

    #[test]
    fn add_pod_and_remove_pod_change_the_verdict() {
        let mut c = cluster(
            zoned(&[("a1", Some("a")), ("b1", Some("b"))]),
            vec![(web(), 0)],
        );
        let extra = c.add_pod(PodInfo::new_v135(web(), 0, 10));
        let elsewhere = c.add_pod(PodInfo::new_v135(
            pod(json!({"metadata": {"namespace": "other", "labels": {"app": "web"}}})),
            0,
            11,
        ));
        let bound = 0;
        let id = c.add_pod(PodInfo::new_v135(
            spread(json!([hard("zone", 1, json!({}))])),
            0,
            12,
        ));
        let p = plugin(None);
        let order = c.node_tree_order();
        let cx = Cx {
            cluster: &c,
            pod: &c.pods[id],
            order: &order,
        };
        let mut out = p.pre_filter(&cx);
        let verdicts = |st: Option<&dyn PluginState>| -> Vec<Code> {
            c.nodes
                .iter()
                .map(|n| p.filter(&cx, st, n, &mut Vec::new()))
                .collect()
        };
        // a = 1, b = 0, min 0: a 1+1-0 = 2 > 1, b 1 ok.
        assert_eq!(
            verdicts(out.state.as_deref()),
            [Code::Unschedulable, Code::Success]
        );
        let st = out.state.as_deref_mut().expect("state");
        // A pod of another namespace changes nothing.
        p.add_pod(&cx, st, &c.pods[elsewhere], &c.nodes[1]);
        assert_eq!(verdicts(Some(&*st)), [Code::Unschedulable, Code::Success]);
        // A web pod added on b1: a = 1, b = 1, min 1: a 1+1-1 = 1 ok, b ok.
        p.add_pod(&cx, st, &c.pods[extra], &c.nodes[1]);
        assert_eq!(verdicts(Some(&*st)), [Code::Success, Code::Success]);
        // The bound pod removed from a1: a = 0, b = 1, min 0: a 1 ok, b 1+1-0 = 2 > 1.
        p.remove_pod(&cx, st, &c.pods[bound], &c.nodes[0]);
        assert_eq!(verdicts(Some(&*st)), [Code::Success, Code::Unschedulable]);
        // The state PreFilter computes on the cluster itself is untouched by the copies.
        let fresh = p.pre_filter(&cx);
        assert_eq!(
            verdicts(fresh.state.as_deref()),
            [Code::Unschedulable, Code::Success]
        );
    }

    /// Nodes for the system-default scoring test: n4 has no zone.
    fn service_cluster(extra_pods: Vec<(Pod, usize)>) -> Cluster {
        let mut bound = vec![(web(), 0), (web(), 0), (web(), 2), (web(), 3)];
        bound.extend(extra_pods);
        let mut c = cluster(
            zoned(&[
                ("n1", Some("a")),
                ("n2", Some("a")),
                ("n3", Some("b")),
                ("n4", None),
            ]),
            bound,
        );
        c.services.push(
            serde_json::from_value(json!({"metadata": {"name": "web", "namespace": "default"},
                "spec": {"selector": {"app": "web"}}}))
            .expect("service"),
        );
        c
    }

    #[test]
    fn system_defaults_score_pods_behind_a_service() {
        let c = service_cluster(vec![]);
        let p = plugin(None);
        // Filter: the system defaults are ScheduleAnyway only.
        assert_eq!(filter_all(&*p, &c, &PodInfo::new_v135(web(), 0, 0)), None);
        // Scoring. System defaulting: nodes need not carry every key; none is ignored.
        // hostname (maxSkew 3): size 4 filtered nodes, weight ln 6 = 1.7917595;
        // zone (maxSkew 5): domains a, b and "" (n4), weight ln 5 = 1.6094379;
        // zone counts a = 2 + 0, b = 1, "" = 1.
        // n1: 2*1.7917595 + 2 + 2*1.6094379 + 4 = 12.802 -> 13
        // n2: 0 + 2 + 2*1.6094379 + 4 = 9.219 -> 9
        // n3: 1.7917595 + 2 + 1.6094379 + 4 = 9.401 -> 9
        // n4: 1.7917595 + 2 (no zone label, no zone term) = 3.792 -> 4
        // Normalised: 100 * (max + min - s) / max with min 4, max 13:
        // n1 400/13 = 30, n2 800/13 = 61, n3 61, n4 1300/13 = 100.
        let got = both_ways(&c, web(), |c, i| score_all(&*p, c, i));
        assert_eq!(got, Some((vec![13, 9, 9, 4], vec![30, 61, 61, 100])));
        // The same with both keys in the topology index (some pod names them).
        let mut indexed = c.clone();
        indexed.add_pod(PodInfo::new_v135(
            spread(json!([
                hard(ZONE, 1, json!({})),
                hard(HOSTNAME, 1, json!({}))
            ])),
            0,
            99,
        ));
        let got = both_ways(&indexed, web(), |c, i| score_all(&*p, c, i));
        assert_eq!(got, Some((vec![13, 9, 9, 4], vec![30, 61, 61, 100])));
        // A pod no Service selects gets no default constraint at all.
        let bare = labelled(json!({"app": "db"}));
        assert_eq!(both_ways(&c, bare, |c, i| score_all(&*p, c, i)), None);
    }

    #[test]
    fn a_replica_set_owner_gives_a_bare_pod_default_constraints() {
        let mut c = cluster(
            zoned(&[("n1", Some("a")), ("n2", Some("b"))]),
            vec![(web(), 0)],
        );
        c.replica_sets.push((
            "default".into(),
            Some(serde_json::from_value(json!({"matchLabels": {"app": "web"}})).expect("sel")),
        ));
        let owned = pod(
            json!({"metadata": {"labels": {"app": "web"}, "ownerReferences": [
            {"kind": "ReplicaSet", "name": "web-1", "uid": "u", "controller": true}]}}),
        );
        let p = plugin(None);
        // hostname: weight ln 4 = 1.3862944; zone: 2 domains, weight ln 4; counts a = 1, b = 0.
        // n1: 1.3862944 + 2 + 1.3862944 + 4 = 8.773 -> 9; n2: 2 + 4 = 6.
        // Normalised with min 6, max 9: n1 100*6/9 = 66, n2 100*9/9 = 100.
        let got = both_ways(&c, owned, |c, i| score_all(&*p, c, i));
        assert_eq!(got, Some((vec![9, 6], vec![66, 100])));
        // Without the controller reference, nothing selects the pod.
        assert_eq!(both_ways(&c, web(), |c, i| score_all(&*p, c, i)), None);
    }

    #[test]
    fn list_defaulting_with_no_constraints_skips_and_with_some_filters() {
        let c = service_cluster(vec![]);
        let empty = plugin(Some(json!({"defaultingType": "List"})));
        assert_eq!(
            filter_all(&*empty, &c, &PodInfo::new_v135(web(), 0, 0)),
            None
        );
        assert_eq!(
            score_all(&*empty, &c, &PodInfo::new_v135(web(), 0, 0)),
            None
        );
        // A DoNotSchedule default constraint filters pods behind the Service: zone counts
        // a = 2, b = 1 (n4 has no zone), min 1. n1, n2: 2+1-1 = 2 > 1; n3: 1 ok; n4 missing.
        let list = plugin(Some(
            json!({"defaultingType": "List", "defaultConstraints": [
            {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": DO_NOT_SCHEDULE}]}),
        ));
        let got = both_ways(&c, web(), |c, i| filter_all(&*list, c, i));
        assert_eq!(got, expect(&[SKEW, SKEW, OK, MISSING]));
        // List defaulting requires every key even for default constraints: n4 is ignored.
        let soft = plugin(Some(
            json!({"defaultingType": "List", "defaultConstraints": [
            {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": SCHEDULE_ANYWAY}]}),
        ));
        // zone domains a, b: weight ln 4 = 1.3862944. n1, n2: 2*1.386 = 2.77 -> 3; n3 1.39 -> 1.
        // Normalised over n1..n3 (min 1, max 3): n1, n2 100*1/3 = 33, n3 100*3/3 = 100; n4 0.
        let got = both_ways(&c, web(), |c, i| score_all(&*soft, c, i));
        assert_eq!(got, Some((vec![3, 3, 1, 0], vec![33, 33, 100, 0])));
    }

    #[test]
    fn own_soft_constraints_ignore_nodes_without_the_key_and_all_zero_scores_give_100() {
        let soft = |selector: Json| {
            spread(json!([{"maxSkew": 1, "topologyKey": "zone",
                "whenUnsatisfiable": SCHEDULE_ANYWAY, "labelSelector": selector}]))
        };
        let nodes = || zoned(&[("n1", Some("a")), ("n2", Some("b")), ("n3", None)]);
        let p = plugin(None);
        // No matching pod: every non-ignored score is 0*w + (1-1) = 0, max 0 -> 100; n3
        // lacks the key: ignored, 0.
        let c = cluster(nodes(), vec![]);
        let got = both_ways(&c, soft(json!({"matchLabels": {"app": "web"}})), |c, i| {
            score_all(&*p, c, i)
        });
        assert_eq!(got, Some((vec![0, 0, 0], vec![100, 100, 0])));
        // Two web pods in zone a: domains a, b, weight ln 4 = 1.3862944;
        // n1 2*1.386 = 2.77 -> 3, n2 0. min 0, max 3: n1 100*(3+0-3)/3 = 0, n2 100.
        let c = cluster(nodes(), vec![(web(), 0), (web(), 0), (web(), 2)]);
        let got = both_ways(&c, soft(json!({"matchLabels": {"app": "web"}})), |c, i| {
            score_all(&*p, c, i)
        });
        assert_eq!(got, Some((vec![3, 0, 0], vec![0, 100, 0])));
        // maxSkew adds maxSkew-1 per constraint: maxSkew 3 gives n1 2.77 + 2 = 4.77 -> 5,
        // n2 2. min 2, max 5: n1 100*2/5 = 40, n2 100*5/5 = 100.
        let wide = spread(json!([{"maxSkew": 3, "topologyKey": "zone",
            "whenUnsatisfiable": SCHEDULE_ANYWAY, "labelSelector": {"matchLabels": {"app": "web"}}}]));
        let got = both_ways(&c, wide, |c, i| score_all(&*p, c, i));
        assert_eq!(got, Some((vec![5, 2, 0], vec![40, 100, 0])));
    }

    #[test]
    fn index_and_scan_paths_agree_on_random_clusters() {
        use crate::rng::Rng;
        fn pick<'a>(r: &mut Rng, xs: &[&'a str]) -> &'a str {
            xs[r.intn(xs.len() as u64) as usize]
        }
        let system = plugin(None);
        let list = plugin(Some(
            json!({"defaultingType": "List", "defaultConstraints": [
            {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": DO_NOT_SCHEDULE},
            {"maxSkew": 2, "topologyKey": HOSTNAME, "whenUnsatisfiable": SCHEDULE_ANYWAY,
             "nodeTaintsPolicy": "Honor"}]}),
        ));
        let mut r = Rng::new(35);
        for case in 0..300 {
            let nodes: Vec<crate::model::Node> = (0..1 + r.intn(7))
                .map(|i| {
                    let mut labels = json!({HOSTNAME: format!("n{i}")});
                    for (key, values) in [("zone", ["a", "b", "c", ""]), ("rack", ["r1", "r2", "", ""])] {
                        if r.intn(5) != 0 {
                            labels[key] = json!(pick(&mut r, &values));
                        }
                    }
                    labels["disk"] = json!(pick(&mut r, &["ssd", "hdd"]));
                    let taints = if r.intn(4) == 0 {
                        json!([{"key": "k", "effect": pick(&mut r, &["NoSchedule", "PreferNoSchedule"])}])
                    } else {
                        json!([])
                    };
                    node(json!({"metadata": {"name": format!("n{i}"), "labels": labels},
                        "spec": {"taints": taints}}))
                })
                .collect();
            let n = nodes.len() as u64;
            let bound: Vec<(Pod, usize)> = (0..r.intn(14))
                .map(|_| {
                    let mut meta = json!({"namespace": pick(&mut r, &["default", "default", "other"]),
                        "labels": {"app": pick(&mut r, &["web", "web", "db"]),
                                   "tier": pick(&mut r, &["1", "2"])}});
                    if r.intn(6) == 0 {
                        meta["deletionTimestamp"] = json!("2024-01-01T00:00:00Z");
                    }
                    (pod(json!({"metadata": meta})), r.intn(n) as usize)
                })
                .collect();
            let mut c = cluster(nodes, bound);
            if r.intn(2) == 0 {
                c.services.push(
                    serde_json::from_value(json!({"metadata": {"name": "s"},
                        "spec": {"selector": {"app": "web"}}}))
                    .expect("service"),
                );
            }
            let constraints: Vec<Json> = (0..r.intn(3))
                .map(|_| {
                    let mut cst = json!({"maxSkew": 1 + r.intn(3) as i64,
                        "topologyKey": pick(&mut r, &["zone", "rack", HOSTNAME]),
                        "whenUnsatisfiable": pick(&mut r, &[DO_NOT_SCHEDULE, SCHEDULE_ANYWAY])});
                    match r.intn(5) {
                        0 => {}
                        1 => cst["labelSelector"] = json!({}),
                        2 => {
                            cst["labelSelector"] = json!({"matchExpressions": [
                            {"key": "app", "operator": "In", "values": ["web", "db"]}]})
                        }
                        _ => cst["labelSelector"] = json!({"matchLabels": {"app": "web"}}),
                    }
                    if r.intn(3) == 0 {
                        cst["minDomains"] = json!(1 + r.intn(4) as i64);
                    }
                    if r.intn(3) == 0 {
                        cst["nodeAffinityPolicy"] = json!(pick(&mut r, &["Honor", "Ignore"]));
                    }
                    if r.intn(3) == 0 {
                        cst["nodeTaintsPolicy"] = json!(pick(&mut r, &["Honor", "Ignore"]));
                    }
                    if r.intn(3) == 0 {
                        cst["matchLabelKeys"] = json!(["tier"]);
                    }
                    cst
                })
                .collect();
            let mut spec = json!({"topologySpreadConstraints": constraints});
            if r.intn(3) == 0 {
                spec["nodeSelector"] = json!({"disk": "ssd"});
            }
            let incoming = pod(json!({"metadata": {"labels": {
                "app": pick(&mut r, &["web", "db"]), "tier": pick(&mut r, &["1", "2"])}},
                "spec": spec}));
            for p in [&system, &list] {
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
    fn args_default_and_validate_with_upstreams_wording() {
        let p = build(None).expect("defaults");
        let _ = p.name();
        let plugin = PodTopologySpread {
            defaults: system_default_constraints(),
            system_defaulted: true,
            hard_defaults: false,
            soft_defaults: true,
            terminating: Mutex::default(),
        };
        let (kind, list) = plugin.defaults();
        assert_eq!(kind, "System");
        assert_eq!(
            list.iter()
                .map(|c| (c.topology_key.as_str(), c.max_skew))
                .collect::<Vec<_>>(),
            [(HOSTNAME, 3), (ZONE, 5)]
        );
        assert!(arg_errors(json!({"kind": "PodTopologySpreadArgs",
            "apiVersion": "kubescheduler.config.k8s.io/v1", "defaultingType": ""}))
        .is_empty());
        assert_eq!(
            arg_errors(json!({"defaultingType": "Foo"})),
            ["defaultingType: Unsupported value: \"Foo\": supported values: \"System\", \"List\""]
        );
        let good =
            json!({"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"});
        assert_eq!(
            arg_errors(json!({"defaultConstraints": [good]})),
            ["defaultingType: Invalid value: \"System\": when .defaultConstraints are not empty"]
        );
        assert!(
            arg_errors(json!({"defaultingType": "List", "defaultConstraints": [good]})).is_empty()
        );
        // Every rule at once, in upstream's order.
        let errors = arg_errors(json!({"defaultingType": "List", "defaultConstraints": [
            {"maxSkew": 0, "topologyKey": "", "whenUnsatisfiable": ""},
            {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "Never",
             "labelSelector": {"matchLabels": {"a": "b"}}},
            {"maxSkew": 2, "topologyKey": "zone", "whenUnsatisfiable": "Never"},
            {"maxSkew": 1, "topologyKey": "a/b/c", "whenUnsatisfiable": "ScheduleAnyway"}
        ]}));
        assert_eq!(
            errors,
            [
                "defaultConstraints[0].maxSkew: Invalid value: 0: not in valid range (0, inf)",
                "defaultConstraints[0].topologyKey: Required value: can not be empty",
                "defaultConstraints[0].whenUnsatisfiable: Required value: can not be empty",
                "defaultConstraints[1].whenUnsatisfiable: Unsupported value: \"Never\": supported values: \"DoNotSchedule\", \"ScheduleAnyway\"",
                "defaultConstraints[1].labelSelector: Forbidden: constraint must not define a selector, as they deduced for each pod",
                "defaultConstraints[2].whenUnsatisfiable: Unsupported value: \"Never\": supported values: \"DoNotSchedule\", \"ScheduleAnyway\"",
                "defaultConstraints[2]: Duplicate value: \"{zone, Never}\"",
                "defaultConstraints[3].topologyKey: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
            ]
        );
        assert_eq!(
            arg_errors(json!({"defaultingType": "List", "defaultConstraints": [
                {"maxSkew": 1, "topologyKey": "Example.com/-x", "whenUnsatisfiable": "ScheduleAnyway"}]})),
            [
                "defaultConstraints[0].topologyKey: Invalid value: \"Example.com/-x\": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                "defaultConstraints[0].topologyKey: Invalid value: \"Example.com/-x\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
            ]
        );
        // Strict decoding, with the path of the unknown field.
        let unknown = arg_errors(json!({"defaultingType": "List", "defaultConstraints": [
            {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "ScheduleAnyway", "bogus": 1}]}));
        assert_eq!(unknown.len(), 1);
        assert!(
            unknown[0].starts_with("defaultConstraints[0]")
                && unknown[0].contains("unknown field `bogus`"),
            "{unknown:?}"
        );
        assert!(arg_errors(json!({"extra": true}))[0].contains("unknown field `extra`"));
    }
}
