//! The scenario's DRA objects, indexed for the allocator ([`DraCatalog`]): device classes,
//! claim templates, resource slices (with a [`DeviceTable`] of every device and which slices
//! each node sees), and claims in report order (input order, then generated ones), with the
//! devices their allocations hold.
//!
//! A claim's allocation counts from the moment the scheduler assumes its pod (upstream's
//! in-flight allocation after Reserve, then the object PreBind writes); results with
//! `adminAccess: true` never count (`allocateddevices.go`).

use super::{AllocationResult, DeviceClass, ResourceClaim, ResourceClaimTemplate, ResourceSlice};
use crate::model::names::NameHash;
use crate::model::Labels;
use std::collections::{BTreeMap, HashMap};
use std::hash::BuildHasherDefault;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex};

/// `(driver, pool, device)`, `DeviceID`.
pub type DeviceId = (String, String, String);

/// One claim of the scenario.
#[derive(Clone, Debug)]
pub struct ClaimEntry {
    /// The claim as it is now.
    pub claim: Arc<ResourceClaim>,
    /// Generated from a template for a pod (by schedlab's claim controller).
    pub generated: bool,
    /// The UID of the pod whose binding cycle is writing this claim's allocation (upstream's
    /// in-flight claim, between Reserve and PreBind).
    pub in_flight: Option<String>,
    /// Deleted by the timeline (kept so that report order stays stable).
    pub deleted: bool,
}

/// One slice in the device table.
#[derive(Clone, Debug)]
pub struct SliceEntry {
    /// The slice.
    pub slice: Arc<ResourceSlice>,
    /// Its devices: `devices[first..first + len]` of the table.
    pub first: u32,
    /// How many devices.
    pub len: u32,
    /// Skipped by the allocator (partitionable fields with the gate off, or no node selection).
    pub skipped: bool,
    /// Two of its devices have the same name (a pool holding it is invalid).
    pub duplicate_names: bool,
}

/// What the allocator knows about a pool across every node.
#[derive(Clone, Debug, Default)]
pub struct PoolFacts {
    /// The highest generation of any slice.
    pub max_generation: i64,
    /// Slices per generation.
    pub slices_at: BTreeMap<i64, i64>,
}

/// A pool as one node sees it (the allocator's `GatherPools`): its slices (the node's, of the
/// pool's newest generation, by name), and whether it is incomplete or invalid.
#[derive(Clone, Debug)]
pub struct NodePool {
    /// Indices in [`DeviceTable::slices`].
    pub slices: Vec<u32>,
    /// Fewer slices than `resourceSliceCount` at its generation.
    pub incomplete: bool,
    /// Two devices with the same name.
    pub invalid: bool,
}

/// Every device of every slice, and the indexes the allocator reads. Built whenever the slices
/// change; shared (with its selector cache) by the clones of a cluster.
#[derive(Debug, Default)]
pub struct DeviceTable {
    /// Slices in input order.
    pub slices: Vec<SliceEntry>,
    /// Each device's key: the same [`DeviceId`] gets the same key.
    pub keys: Vec<u32>,
    /// Key → device id.
    pub ids: Vec<DeviceId>,
    key_of: HashMap<DeviceId, u32>,
    /// Slices by `nodeName`, in input order.
    by_node: HashMap<String, Vec<u32>>,
    /// Slices with `nodeSelector` or `allNodes`, in input order.
    shared: Vec<u32>,
    /// Pools by `(driver, name)`.
    pub pools: BTreeMap<(String, String), PoolFacts>,
    /// Each device's slice (an index in `slices`).
    slice_at: Vec<u32>,
    /// Each device that the allocator never takes with v1.35's default gates: it has
    /// `bindingConditions` or `consumesCounters` (kept apart so that the search reads no
    /// device it does not take).
    unusable: Vec<bool>,
    /// The selectors' answers, by expression, per device ([`SelectorRow`]).
    selector_rows: Mutex<HashMap<Arc<str>, SelectorRow>>,
    /// The pools of each node named by a slice, when no slice is shared (`nodeSelector` or
    /// `allNodes`): then a node's name alone decides what it sees, and this is computed once.
    local_pools: HashMap<String, Vec<NodePool>, BuildHasherDefault<NameHash>>,
}

/// One selector's answers per device: 0 not known yet, 1 false, 2 true (an evaluation error
/// is never kept). An answer depends only on the expression and the device, so whichever
/// thread fills a slot first, the same value lands there.
pub type SelectorRow = Arc<[AtomicU8]>;

/// A selector's known answer for device `d`.
pub fn known_answer(row: &SelectorRow, d: u32) -> Option<bool> {
    match row.get(d as usize).map(|v| v.load(Ordering::Relaxed)) {
        Some(2) => Some(true),
        Some(1) => Some(false),
        _ => None,
    }
}

/// Keeps a selector's answer for device `d`.
pub fn keep_answer(row: &SelectorRow, d: u32, answer: bool) {
    if let Some(v) = row.get(d as usize) {
        v.store(if answer { 2 } else { 1 }, Ordering::Relaxed);
    }
}

impl DeviceTable {
    fn new(slices: &[Arc<ResourceSlice>]) -> DeviceTable {
        let mut t = DeviceTable::default();
        for (i, s) in slices.iter().enumerate() {
            let spec = &s.spec;
            let first = t.keys.len() as u32;
            t.slice_at
                .extend(std::iter::repeat_n(i as u32, spec.devices.len()));
            for d in &spec.devices {
                t.unusable
                    .push(!d.binding_conditions.is_empty() || !d.consumes_counters.is_empty());
                let id = (spec.driver.clone(), spec.pool.name.clone(), d.name.clone());
                let next = t.ids.len() as u32;
                let key = *t.key_of.entry(id.clone()).or_insert(next);
                if key == next {
                    t.ids.push(id);
                }
                t.keys.push(key);
            }
            let skipped = spec.per_device_node_selection == Some(true)
                || !spec.shared_counters.is_empty()
                || !(spec.node_name.is_some()
                    || spec.node_selector.is_some()
                    || spec.all_nodes == Some(true));
            if !skipped {
                match &spec.node_name {
                    Some(n) => t.by_node.entry(n.clone()).or_default().push(i as u32),
                    None => t.shared.push(i as u32),
                }
                let facts = t
                    .pools
                    .entry((spec.driver.clone(), spec.pool.name.clone()))
                    .or_default();
                facts.max_generation = facts.max_generation.max(spec.pool.generation);
                *facts.slices_at.entry(spec.pool.generation).or_default() += 1;
            }
            let mut names: Vec<&str> = spec.devices.iter().map(|d| d.name.as_str()).collect();
            names.sort_unstable();
            let duplicate_names = names.windows(2).any(|w| w[0] == w[1]);
            t.slices.push(SliceEntry {
                slice: Arc::clone(s),
                first,
                len: spec.devices.len() as u32,
                skipped,
                duplicate_names,
            });
        }
        if t.shared.is_empty() {
            let no_labels = super::super::Labels::default();
            let names: Vec<String> = t.by_node.keys().cloned().collect();
            for name in names {
                // Without shared slices no node selector is read, so this never fails.
                if let Ok(pools) = t.gather_pools(&name, &no_labels) {
                    t.local_pools.insert(name, pools);
                }
            }
        }
        t
    }

    /// The pools node `name` (with `labels`) sees (`GatherPools`, dra.md §3.2), in
    /// schedlab's order: pools by (driver, name), the slices of a pool by name. Slices that
    /// select nodes by label are matched against `labels`; one with other than one term is
    /// an error.
    pub fn pools_for<'a>(
        &'a self,
        name: &str,
        labels: &Labels,
    ) -> Result<std::borrow::Cow<'a, [NodePool]>, String> {
        if self.shared.is_empty() {
            let pools = self.local_pools.get(name).map_or(&[][..], Vec::as_slice);
            return Ok(std::borrow::Cow::Borrowed(pools));
        }
        self.gather_pools(name, labels).map(std::borrow::Cow::Owned)
    }

    fn gather_pools(&self, name: &str, labels: &Labels) -> Result<Vec<NodePool>, String> {
        let mut groups: BTreeMap<(&str, &str), (i64, Vec<u32>)> = BTreeMap::new();
        for s in self.slices_for(name) {
            let e = &self.slices[s as usize];
            if e.skipped {
                continue;
            }
            let spec = &e.slice.spec;
            if spec.node_name.is_none() && spec.all_nodes != Some(true) {
                let Some(sel) = &spec.node_selector else {
                    continue;
                };
                if sel.node_selector_terms.len() != 1 {
                    return Err(format!(
                        "gather pool information: failed to perform node selection for slice {}: unsupported ResourceSlice.NodeSelector with {} terms",
                        e.slice.metadata.name,
                        sel.node_selector_terms.len()
                    ));
                }
                if !sel.matches(labels, name) {
                    continue;
                }
            }
            let key = (spec.driver.as_str(), spec.pool.name.as_str());
            let gen = spec.pool.generation;
            let g = groups.entry(key).or_insert((gen, Vec::new()));
            if gen > g.0 {
                *g = (gen, Vec::new());
            }
            if gen == g.0 {
                g.1.push(s);
            }
        }
        let mut pools = Vec::with_capacity(groups.len());
        for ((driver, pool), (gen, slices)) in groups {
            if let Some(p) = self.node_pool(driver, pool, gen, slices) {
                pools.push(p);
            }
        }
        Ok(pools)
    }

    /// A pool from the node's slices of its newest generation: `None` if a newer generation
    /// exists elsewhere (obsolete); incomplete if fewer slices of that generation exist than
    /// `resourceSliceCount`; invalid if two devices share a name.
    fn node_pool(
        &self,
        driver: &str,
        pool: &str,
        gen: i64,
        mut slices: Vec<u32>,
    ) -> Option<NodePool> {
        let first = &self.slices[slices[0] as usize].slice.spec.pool;
        let mut incomplete = false;
        if slices.len() as i64 != first.resource_slice_count {
            let facts = self.pools.get(&(driver.to_string(), pool.to_string()))?;
            if facts.max_generation > gen {
                return None;
            }
            incomplete =
                facts.slices_at.get(&gen).copied().unwrap_or(0) != first.resource_slice_count;
        }
        let invalid = if let [only] = slices[..] {
            self.slices[only as usize].duplicate_names
        } else {
            slices.sort_by(|&a, &b| {
                let (x, y) = (&self.slices[a as usize], &self.slices[b as usize]);
                x.slice
                    .metadata
                    .name
                    .cmp(&y.slice.metadata.name)
                    .then(a.cmp(&b))
            });
            let mut names: Vec<&str> = slices
                .iter()
                .flat_map(|&s| self.slices[s as usize].slice.spec.devices.iter())
                .map(|d| d.name.as_str())
                .collect();
            names.sort_unstable();
            names.windows(2).any(|w| w[0] == w[1])
        };
        Some(NodePool {
            slices,
            incomplete,
            invalid,
        })
    }

    /// The device at index `d` and its slice.
    pub fn device_at(&self, d: u32) -> (&super::Device, &ResourceSlice) {
        let e = &self.slices[self.slice_of(d)];
        (&e.slice.spec.devices[(d - e.first) as usize], &e.slice)
    }

    /// Whether device `d` has `bindingConditions` or `consumesCounters`.
    pub fn unusable(&self, d: u32) -> bool {
        self.unusable.get(d as usize).copied().unwrap_or(true)
    }

    /// The index of the slice that holds device `d`.
    pub fn slice_of(&self, d: u32) -> usize {
        self.slice_at.get(d as usize).map_or(0, |&s| s as usize)
    }

    /// The answers of one selector expression, per device.
    pub fn selector_row(&self, expr: &str) -> SelectorRow {
        let mut rows = self.selector_rows.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(r) = rows.get(expr) {
            return Arc::clone(r);
        }
        let row: SelectorRow = (0..self.keys.len()).map(|_| AtomicU8::new(0)).collect();
        rows.insert(Arc::from(expr), Arc::clone(&row));
        row
    }

    /// The key of a device id, if a slice has it.
    pub fn key(&self, id: &DeviceId) -> Option<u32> {
        self.key_of.get(id).copied()
    }

    /// The slices a node may see (`nodeName` equal, or `nodeSelector`/`allNodes`), in input
    /// order; the caller matches the selectors.
    pub fn slices_for(&self, node: &str) -> impl Iterator<Item = u32> + '_ {
        let local = self.by_node.get(node).map(Vec::as_slice).unwrap_or(&[]);
        merge_sorted(local, &self.shared)
    }
}

/// Two ascending lists merged.
fn merge_sorted<'a>(a: &'a [u32], b: &'a [u32]) -> impl Iterator<Item = u32> + 'a {
    let (mut i, mut j) = (0, 0);
    std::iter::from_fn(move || match (a.get(i), b.get(j)) {
        (Some(&x), Some(&y)) if x <= y => {
            i += 1;
            Some(x)
        }
        (_, Some(&y)) => {
            j += 1;
            Some(y)
        }
        (Some(&x), None) => {
            i += 1;
            Some(x)
        }
        (None, None) => None,
    })
}

/// Every DRA object of the scenario.
#[derive(Clone, Debug, Default)]
pub struct DraCatalog {
    /// DeviceClasses by name.
    pub classes: BTreeMap<String, Arc<DeviceClass>>,
    /// ResourceClaimTemplates by (namespace, name).
    pub templates: BTreeMap<(String, String), Arc<ResourceClaimTemplate>>,
    slices: Vec<Arc<ResourceSlice>>,
    table: Arc<DeviceTable>,
    claims: Vec<ClaimEntry>,
    claim_index: BTreeMap<(String, String), usize>,
    /// Non-admin allocations per device key.
    in_use: Vec<u32>,
    /// Bumped whenever slices change (caches keyed by it).
    epoch: u64,
}

impl DraCatalog {
    /// Whether the scenario has any DRA object.
    pub fn is_empty(&self) -> bool {
        self.classes.is_empty()
            && self.templates.is_empty()
            && self.slices.is_empty()
            && self.claims.is_empty()
    }

    /// The slices, in input order.
    pub fn slices(&self) -> &[Arc<ResourceSlice>] {
        &self.slices
    }

    /// The device table.
    pub fn table(&self) -> &Arc<DeviceTable> {
        &self.table
    }

    /// Bumped whenever the slices change.
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// Every claim in report order, deleted ones included.
    pub fn claims(&self) -> &[ClaimEntry] {
        &self.claims
    }

    /// A live claim by namespace and name.
    pub fn claim(&self, namespace: &str, name: &str) -> Option<&ClaimEntry> {
        let i = *self
            .claim_index
            .get(&(namespace.to_string(), name.to_string()))?;
        Some(&self.claims[i]).filter(|e| !e.deleted)
    }

    /// Whether the device with this key is held by a non-admin allocation.
    pub fn in_use(&self, key: u32) -> bool {
        self.in_use.get(key as usize).is_some_and(|&n| n > 0)
    }

    /// Replaces the slices (input order) and rebuilds the table.
    pub fn set_slices(&mut self, slices: Vec<Arc<ResourceSlice>>) {
        self.slices = slices;
        self.table = Arc::new(DeviceTable::new(&self.slices));
        self.epoch += 1;
        self.recount();
    }

    /// Adds a claim (namespace defaulted); false if one with that name exists.
    pub fn add_claim(&mut self, mut claim: ResourceClaim, generated: bool) -> bool {
        claim.metadata.namespace = claim.metadata.namespace_or_default().to_string();
        let key = (
            claim.metadata.namespace.clone(),
            claim.metadata.name.clone(),
        );
        if let Some(&i) = self.claim_index.get(&key) {
            if !self.claims[i].deleted {
                return false;
            }
        }
        self.count(claim.status.allocation.as_ref(), 1);
        self.claim_index.insert(key, self.claims.len());
        self.claims.push(ClaimEntry {
            claim: Arc::new(claim),
            generated,
            in_flight: None,
            deleted: false,
        });
        true
    }

    /// Changes a live claim; returns the claim before, or `None` if there is none.
    pub fn update_claim(
        &mut self,
        namespace: &str,
        name: &str,
        edit: impl FnOnce(&mut ClaimEntry),
    ) -> Option<Arc<ResourceClaim>> {
        let i = *self
            .claim_index
            .get(&(namespace.to_string(), name.to_string()))?;
        if self.claims[i].deleted {
            return None;
        }
        let old = Arc::clone(&self.claims[i].claim);
        self.count(old.status.allocation.as_ref(), -1);
        edit(&mut self.claims[i]);
        let new = Arc::clone(&self.claims[i].claim);
        self.count(new.status.allocation.as_ref(), 1);
        Some(old)
    }

    /// Deletes a live claim; returns it.
    pub fn delete_claim(&mut self, namespace: &str, name: &str) -> Option<Arc<ResourceClaim>> {
        let old = self.update_claim(namespace, name, |e| e.deleted = true)?;
        // A deleted claim holds nothing.
        self.count(old.status.allocation.as_ref(), -1);
        let i = self.claim_index[&(namespace.to_string(), name.to_string())];
        self.claims[i].in_flight = None;
        Some(old)
    }

    fn count(&mut self, allocation: Option<&AllocationResult>, delta: i64) {
        let Some(a) = allocation else {
            return;
        };
        for r in &a.devices.results {
            if r.admin_access == Some(true) {
                continue;
            }
            let id = (r.driver.clone(), r.pool.clone(), r.device.clone());
            if let Some(k) = self.table.key(&id) {
                let n = &mut self.in_use[k as usize];
                *n = (i64::from(*n) + delta).max(0) as u32;
            }
        }
    }

    fn recount(&mut self) {
        self.in_use = vec![0; self.table.ids.len()];
        let allocations: Vec<Arc<ResourceClaim>> = self
            .claims
            .iter()
            .filter(|e| !e.deleted)
            .map(|e| Arc::clone(&e.claim))
            .collect();
        for c in allocations {
            self.count(c.status.allocation.as_ref(), 1);
        }
    }
}
