//! What Filter and Score share (upstream's `common.go`): the constraints a pod is checked
//! against, with their selectors and defaults, and the topology domains their keys count in.

use super::*;

// ---------------------------------------------------------------------------------------------
// Constraints.

/// `topologySpreadConstraint`: a constraint with its selector merged and its defaults applied.
#[derive(Clone, Debug)]
pub(super) struct Constraint {
    pub(super) max_skew: i64,
    pub(super) key: String,
    /// `None`: `labels.Nothing()` (a nil labelSelector).
    pub(super) selector: Option<LabelSelector>,
    pub(super) min_domains: i64,
    /// `nodeAffinityPolicy: Honor` (the default).
    pub(super) honor_affinity: bool,
    /// `nodeTaintsPolicy: Honor` (default `Ignore`).
    pub(super) honor_taints: bool,
}

impl Constraint {
    pub(super) fn new(c: &TopologySpreadConstraint, selector: Option<LabelSelector>) -> Constraint {
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
    pub(super) fn matches(&self, labels: &Labels) -> bool {
        selector_matches(self.selector.as_ref(), labels)
    }

    /// Whether `countPodsMatchSelector` can count anything: an empty selector (`{}`) counts
    /// nothing there (`selector.Empty()`), and neither does a nil one.
    pub(super) fn counts_pods(&self) -> bool {
        self.selector.as_ref().is_some_and(|s| !s.is_empty())
    }

    /// `matchNodeInclusionPolicies`.
    pub(super) fn includes(&self, pod: &PodFacts, node: &NodeInfo) -> bool {
        (!self.honor_affinity || pod.matches_node(node))
            && (!self.honor_taints || pod.tolerates(node))
    }
}

/// `filterTopologySpreadConstraints`: the constraints with this action, `matchLabelKeys` merged
/// into a non-nil selector as `key In (value)` (`mergeLabelSetWithSelector` keeps Nothing).
pub(super) fn filter_constraints(
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
pub(super) fn default_selector(cluster: &Cluster, pod: &PodInfo) -> LabelSelector {
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
                .replication_controllers()
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
                &cluster.replica_sets()
            } else {
                &cluster.stateful_sets()
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
    pub(super) fn constraints(&self, cx: &Cx, action: &str) -> Vec<Constraint> {
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
    pub(super) fn terminating(&self, cluster: &Cluster) -> Vec<PodId> {
        let mut t = self
            .terminating
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        t.refresh(cluster.pods());
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
pub(super) struct Terminating {
    pub(super) scanned: usize,
    pub(super) last: Option<Arc<PodInfo>>,
    pub(super) ids: Vec<PodId>,
}

impl Terminating {
    pub(super) fn refresh(&mut self, pods: &[Arc<PodInfo>]) {
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
pub(super) struct PodFacts<'a> {
    pub(super) pod: &'a PodInfo,
    /// The pod has a nodeSelector or required node affinity.
    pub(super) selects_nodes: bool,
}

impl<'a> PodFacts<'a> {
    pub(super) fn new(pod: &'a PodInfo) -> PodFacts<'a> {
        let selects_nodes = !pod.pod.spec.node_selector.is_empty()
            || pod.pod.node_affinity().is_some_and(|na| {
                na.required_during_scheduling_ignored_during_execution
                    .is_some()
            });
        PodFacts { pod, selects_nodes }
    }

    /// `RequiredNodeAffinity.Match`: the nodeSelector and the required node affinity terms.
    pub(super) fn matches_node(&self, node: &NodeInfo) -> bool {
        !self.selects_nodes || required_node_affinity_matches(&self.pod.pod, node)
    }

    /// No untolerated `NoSchedule` / `NoExecute` taint.
    pub(super) fn tolerates(&self, node: &NodeInfo) -> bool {
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
pub(super) enum DomainMap {
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
    pub(super) fn build(
        cluster: &Cluster,
        key: &str,
        missing_as_empty: bool,
        domains: bool,
    ) -> DomainMap {
        let index = &cluster.topology();
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
            .nodes()
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

    pub(super) fn slots(&self) -> usize {
        match self {
            DomainMap::Index { slots, .. } | DomainMap::Local { slots, .. } => *slots,
            DomainMap::KeyOnly(_) => 0,
        }
    }

    /// The key id when the group counts of the index can be used.
    pub(super) fn index_key(&self) -> Option<usize> {
        match self {
            DomainMap::Index { key, .. } => Some(*key),
            _ => None,
        }
    }

    /// The node's value id / local id, `None` without the key.
    pub(super) fn keyed(&self, index: &TopologyIndex, node: &NodeInfo) -> Option<u32> {
        match self {
            DomainMap::Index { key, .. } => index.node_value(*key, node.id()),
            DomainMap::Local { nodes, .. } => nodes.get(node.id()).copied().filter(|&d| d != NONE),
            DomainMap::KeyOnly(key) => node.labels().contains_key(key).then_some(NONE),
        }
    }

    /// Whether the node carries the key.
    pub(super) fn has_key(&self, index: &TopologyIndex, node: &NodeInfo) -> bool {
        self.keyed(index, node).is_some()
    }

    /// The node's domain slot (the `""` domain for a node without the key, when it counts).
    pub(super) fn of(&self, index: &TopologyIndex, node: &NodeInfo) -> Option<usize> {
        let missing = match self {
            DomainMap::Index { missing, .. } | DomainMap::Local { missing, .. } => *missing,
            DomainMap::KeyOnly(_) => return None,
        };
        self.keyed(index, node).or(missing).map(|d| d as usize)
    }
}

/// `countPodsMatchSelector`: pods on the node in `ns`, not being deleted, matching.
pub(super) fn count_on_node(cluster: &Cluster, c: &Constraint, ns: &str, node: &NodeInfo) -> i64 {
    if !c.counts_pods() {
        return 0;
    }
    node.pods()
        .iter()
        .filter(|&&p| {
            let o = &cluster.pods()[p];
            o.pod.metadata.deletion_timestamp.is_none()
                && o.namespace == ns
                && c.matches(o.labels())
        })
        .count() as i64
}

/// Adds, per domain of the index key `key`, the pods in `ns` matching `c`, read off the
/// index's label groups; the groups count pods being deleted too, so `terminating` are taken
/// off again.
fn count_from_index(
    cluster: &Cluster,
    c: &Constraint,
    ns: &str,
    key: usize,
    terminating: &[PodId],
    add: &mut impl FnMut(usize, i64),
) {
    let index = cluster.topology();
    for g in &index.groups {
        if g.namespace == ns && c.matches(&g.labels) {
            #[allow(
                clippy::iter_over_hash_type,
                reason = "sums per domain: the order is not seen"
            )]
            for (&v, &n) in &g.counts[key] {
                add(v as usize, n);
            }
        }
    }
    for &p in terminating {
        let o = &cluster.pods()[p];
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

/// Adds to every present slot of `counts[i]` the matching pods on the nodes that count for
/// constraint `i`: those carrying every key (when `require_all`) and passing its inclusion
/// policies. With `mark_present`, every domain of such a node becomes present first
/// (PreFilter); otherwise the present slots are given (PreScore).
///
/// Returns, for each constraint with `per_node[i]` whose pods had to be visited on every node
/// anyway, the matching pods per node id (scoring's per-node count for a hostname constraint
/// with the same selector).
#[allow(clippy::too_many_arguments)]
pub(super) fn count_domains(
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
    let index = &cluster.topology();
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
        for node in cluster.nodes() {
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
                    with_key[i].push(node.id());
                } else {
                    without_key[i].push(node.id());
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
            Some(key) => count_from_index(cluster, c, ns, key, terminating, &mut add),
            None if per_node[i]
                && with_key[i].len() + without_key[i].len() == cluster.nodes().len() =>
            {
                // Every node counts: keep the per-node numbers.
                let mut on_node = vec![0i64; cluster.nodes().len()];
                for node in cluster.nodes() {
                    let n = count_on_node(cluster, c, ns, node);
                    on_node[node.id()] = n;
                    if let Some(d) = maps[i].of(index, node) {
                        add(d, n);
                    }
                }
                kept[i] = Some(on_node);
                continue;
            }
            None => {
                for &n in &with_key[i] {
                    let node = &cluster.nodes()[n];
                    if let Some(d) = maps[i].of(index, node) {
                        add(d, count_on_node(cluster, c, ns, node));
                    }
                }
            }
        }
        for &n in &without_key[i] {
            let node = &cluster.nodes()[n];
            if let Some(d) = maps[i].of(index, node) {
                add(d, count_on_node(cluster, c, ns, node));
            }
        }
    }
    kept
}
