//! What Filter and Score share: the pods' affinity terms resolved against the cluster
//! (namespaces, selectors, topology keys), and counts per topology pair.

use super::*;

// ---------------------------------------------------------------------------------------------
// Terms.

/// An incoming pod's term after `mergeAffinityTermNamespacesIfNotEmpty`: a non-empty
/// namespaceSelector resolved into namespace names (and then matching nothing itself).
#[derive(Clone, Debug)]
pub(super) struct Term {
    pub(super) selector: Option<LabelSelector>,
    pub(super) namespaces: Namespaces,
    pub(super) key: String,
    /// The weight (negative for preferred anti-affinity; 0 for required terms).
    pub(super) weight: i64,
}

#[derive(Clone, Debug)]
pub(super) enum Namespaces {
    /// `namespaceSelector: {}`: every namespace.
    All,
    /// These names.
    Names(Vec<String>),
}

impl Term {
    pub(super) fn resolve(
        t: &PodAffinityTerm,
        weight: i64,
        owner_ns: &str,
        cluster: &Cluster,
    ) -> Term {
        let namespaces = match &t.namespace_selector {
            Some(s) if s.is_empty() => Namespaces::All,
            Some(s) => {
                let mut names = t.namespaces.clone();
                names.extend(
                    cluster
                        .namespaces()
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
    pub(super) fn matches(&self, namespace: &str, labels: &Labels) -> bool {
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

pub(super) fn resolve_all<'a>(
    terms: impl Iterator<Item = (&'a PodAffinityTerm, i64)>,
    pod: &PodInfo,
    cluster: &Cluster,
) -> Vec<Term> {
    terms
        .map(|(t, w)| Term::resolve(t, w, &pod.namespace, cluster))
        .collect()
}

pub(super) fn required(
    a: Option<&crate::model::pod::PodAffinity>,
) -> impl Iterator<Item = (&PodAffinityTerm, i64)> {
    a.into_iter().flat_map(|a| {
        a.required_during_scheduling_ignored_during_execution
            .iter()
            .map(|t| (t, 0))
    })
}

pub(super) fn preferred(
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
pub(super) fn namespace_labels(cx: &Cx) -> Labels {
    cx.cluster
        .namespaces()
        .get(&cx.pod.namespace)
        .cloned()
        .unwrap_or_default()
}

// ---------------------------------------------------------------------------------------------
// Counts per topology pair.

/// `topologyToMatchedTermCount` (or a `scoreMap`): a number per (key, value).
#[derive(Clone, Debug, Default)]
pub(super) struct PairCounts {
    pub(super) keys: Vec<KeyCounts>,
    /// Pairs with a non-zero number (`len` of upstream's map, which drops zeros).
    pub(super) nonzero: usize,
}

#[derive(Clone, Debug)]
pub(super) struct KeyCounts {
    pub(super) key: String,
    pub(super) values: Values,
}

#[derive(Clone, Debug)]
pub(super) enum Values {
    /// A key of the topology index: by value id. Copied on first write.
    Dense(usize, Arc<DenseCounts>),
    /// Any other key: by value.
    Sparse(Arc<HashMap<String, i64>>),
}

/// The numbers of one index key, by value id, with whether each is above zero (what Filter
/// reads: one byte per domain keeps the node scan in cache).
#[derive(Clone, Debug)]
pub(super) struct DenseCounts {
    pub(super) counts: Vec<i64>,
    pub(super) positive: Vec<bool>,
}

impl DenseCounts {
    pub(super) fn new(values: usize) -> DenseCounts {
        DenseCounts {
            counts: vec![0; values],
            positive: vec![false; values],
        }
    }

    /// Adds `delta` at value id `v` (ids past the end change nothing).
    pub(super) fn add(&mut self, nonzero: &mut usize, v: usize, delta: i64) {
        if let Some(x) = self.counts.get_mut(v) {
            PairCounts::bump(nonzero, x, delta);
            self.positive[v] = *x > 0;
        }
    }
}

impl PairCounts {
    /// The slot of `key`, added when new.
    pub(super) fn slot(&mut self, index: &TopologyIndex, key: &str) -> usize {
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

    pub(super) fn bump(nonzero: &mut usize, v: &mut i64, delta: i64) {
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
    pub(super) fn add_counts(&mut self, slot: usize, counts: &DomainCounts, weight: i64) {
        if let Values::Dense(_, vals) = &mut self.keys[slot].values {
            let vals = Arc::make_mut(vals);
            #[allow(
                clippy::iter_over_hash_type,
                reason = "sums per domain: the order is not seen"
            )]
            for (&v, &n) in counts {
                vals.add(&mut self.nonzero, v as usize, weight * n);
            }
        }
    }

    /// `update(node, key, delta)`: adds to the node's pair when it carries the key; returns
    /// whether it did.
    pub(super) fn add_node(
        &mut self,
        index: &TopologyIndex,
        slot: usize,
        node: &NodeInfo,
        delta: i64,
    ) -> bool {
        let k = &mut self.keys[slot];
        match &mut k.values {
            Values::Dense(id, vals) => {
                let Some(v) = index.node_value(*id, node.id()) else {
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
    pub(super) fn positive(
        &self,
        index: &TopologyIndex,
        slot: usize,
        node: &NodeInfo,
    ) -> Option<bool> {
        let k = &self.keys[slot];
        match &k.values {
            Values::Dense(id, vals) => {
                let v = index.node_value(*id, node.id())?;
                Some(vals.positive.get(v as usize).copied().unwrap_or(false))
            }
            Values::Sparse(map) => {
                let v = node.labels().get(&k.key)?;
                Some(map.get(v).is_some_and(|&n| n > 0))
            }
        }
    }

    /// The key id, when the key is in the index.
    pub(super) fn key_id(&self, slot: usize) -> Option<usize> {
        match &self.keys[slot].values {
            Values::Dense(id, _) => Some(*id),
            Values::Sparse(_) => None,
        }
    }
}
