//! The structured allocator, "incubating" variant (reference `dra.md` §3): the pools a node
//! sees, the validation of every request, and the exhaustive depth-first search over claims,
//! requests, subrequests and devices that returns the first solution. Pure: it reads the
//! device table, the classes and the devices in use, and a selector evaluator.
//!
//! schedlab's order where upstream's is random (§0.2, `docs/fidelity.md`): pools by
//! `(driver, pool name)`, the slices of a pool by name (then input order), devices in slice
//! order.

use crate::model::dra::catalog::DeviceTable;
use crate::model::dra::{
    split_qualified_name, AllocationResult, DeviceAllocationConfiguration, DeviceAllocationResult,
    DeviceAttribute, DeviceClass, DeviceRequestAllocationResult, DeviceSelector, ResourceClaim,
    ALL, ALLOCATION_RESULTS_MAX_SIZE, EXACT_COUNT,
};
use crate::model::{Labels, NodeSelector, NodeSelectorTerm, Requirement};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// Why a selector could not be evaluated.
pub(crate) enum SelectorError {
    /// It does not compile.
    Compile(String),
    /// It failed on this device.
    Runtime(String),
}

/// What the allocator reads besides the claims.
pub(crate) struct World<'a> {
    /// Every device.
    pub table: &'a DeviceTable,
    /// Device classes by name.
    pub classes: &'a BTreeMap<String, Arc<DeviceClass>>,
    /// Whether a device (by key) is allocated to some claim (admin allocations excluded).
    pub in_use: &'a dyn Fn(u32) -> bool,
    /// A selector's answer for a device (by index in the table).
    pub selector: &'a dyn Fn(&str, u32) -> Result<bool, SelectorError>,
}

/// The node the allocation is for.
pub(crate) struct NodeRef<'a> {
    /// `metadata.name`.
    pub name: &'a str,
    /// Labels.
    pub labels: &'a Labels,
}

/// How an allocation attempt failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum AllocError {
    /// `ErrFailedAllocationOnNode` (`invalid resource pools were encountered`): the node is
    /// unschedulable.
    OnNode(String),
    /// Any other error: Filter returns `Error`.
    Error(String),
}

/// A pool as the node sees it.
#[derive(Clone, Debug)]
pub(crate) struct Pool {
    driver: String,
    name: String,
    slices: Vec<u32>,
    incomplete: bool,
    invalid: bool,
}

/// `GatherPools`: the pools of the slices `node` sees, in schedlab's order.
pub(crate) fn gather_pools(table: &DeviceTable, node: &NodeRef) -> Result<Vec<Pool>, AllocError> {
    let mut groups: BTreeMap<(String, String), (i64, Vec<u32>)> = BTreeMap::new();
    for s in table.slices_for(node.name) {
        let e = &table.slices[s as usize];
        if e.skipped {
            continue;
        }
        let spec = &e.slice.spec;
        if spec.node_name.is_none() && spec.all_nodes != Some(true) {
            let Some(sel) = &spec.node_selector else {
                continue;
            };
            if sel.node_selector_terms.len() != 1 {
                return Err(AllocError::Error(format!(
                    "gather pool information: failed to perform node selection for slice {}: unsupported ResourceSlice.NodeSelector with {} terms",
                    e.slice.metadata.name,
                    sel.node_selector_terms.len()
                )));
            }
            if !sel.matches(node.labels, node.name) {
                continue;
            }
        }
        let key = (spec.driver.clone(), spec.pool.name.clone());
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
    for ((driver, name), (gen, mut slices)) in groups {
        let first = &table.slices[slices[0] as usize].slice.spec.pool;
        let mut incomplete = false;
        if slices.len() as i64 != first.resource_slice_count {
            let facts = &table.pools[&(driver.clone(), name.clone())];
            if facts.max_generation > gen {
                continue;
            }
            incomplete =
                facts.slices_at.get(&gen).copied().unwrap_or(0) != first.resource_slice_count;
        }
        slices.sort_by(|&a, &b| {
            let (x, y) = (&table.slices[a as usize], &table.slices[b as usize]);
            x.slice
                .metadata
                .name
                .cmp(&y.slice.metadata.name)
                .then(a.cmp(&b))
        });
        let mut seen = std::collections::HashSet::new();
        let invalid = slices.iter().any(|&s| {
            table.slices[s as usize]
                .slice
                .spec
                .devices
                .iter()
                .any(|d| !seen.insert(d.name.as_str()))
        });
        pools.push(Pool {
            driver,
            name,
            slices,
            incomplete,
            invalid,
        });
    }
    Ok(pools)
}

/// One request or subrequest, validated.
struct Req {
    /// The result's `request`: `req` or `req/sub`.
    result_name: String,
    class: Arc<DeviceClass>,
    selectors: Vec<String>,
    all: bool,
    num_devices: usize,
    admin: bool,
    all_devices: Vec<u32>,
}

/// A request: itself (`exactly`), or its subrequests.
struct ReqData {
    name: String,
    subs: Vec<Req>,
    has_subs: bool,
}

/// A `matchAttribute` constraint's state.
struct Constraint {
    requests: Vec<String>,
    attribute: String,
    value: Option<DeviceAttribute>,
    count: usize,
}

/// One device taken by the search.
#[derive(Clone, Copy)]
struct Taken {
    request: usize,
    sub: usize,
    device: u32,
}

/// What one step of the search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Found {
    Yes,
    No,
    /// More than 32 devices for a claim: try the next subrequest.
    MaxSize,
}

/// The search's state (`allocator` in `allocator_incubating.go`).
struct Search<'a> {
    world: &'a World<'a>,
    pools: &'a [Pool],
    claims: &'a [&'a ResourceClaim],
    reqs: Vec<Vec<ReqData>>,
    constraints: Vec<Vec<Constraint>>,
    taken: Vec<Vec<Taken>>,
    allocating: HashMap<u32, Vec<usize>>,
    invocations: u64,
}

/// `Allocate(node, claims)`: one allocation per claim, `None` when there is no solution, or
/// the error. The second value counts `allocateOne` invocations (upstream's tests pin it).
pub(crate) fn allocate(
    world: &World,
    node: &NodeRef,
    claims: &[&ResourceClaim],
) -> (Result<Option<Vec<AllocationResult>>, AllocError>, u64) {
    let pools = match gather_pools(world.table, node) {
        Ok(p) => p,
        Err(e) => return (Err(e), 0),
    };
    let mut search = Search {
        world,
        pools: &pools,
        claims,
        reqs: Vec::new(),
        constraints: Vec::new(),
        taken: vec![Vec::new(); claims.len()],
        allocating: HashMap::new(),
        invocations: 0,
    };
    if let Err(e) = search.validate() {
        return (Err(AllocError::Error(e)), 0);
    }
    let found = search.allocate_one(0, 0, 0, 0, false);
    let invocations = search.invocations;
    let out = match found {
        Err(e) => Err(AllocError::Error(e)),
        Ok(Found::Yes) => Ok(Some(search.results(node))),
        Ok(_) if pools.iter().any(|p| p.invalid) => Err(AllocError::OnNode(
            "invalid resource pools were encountered".into(),
        )),
        Ok(_) => Ok(None),
    };
    (out, invocations)
}

fn expressions(selectors: &[DeviceSelector]) -> Result<Vec<String>, usize> {
    selectors
        .iter()
        .enumerate()
        .map(|(i, s)| s.cel.as_ref().map(|c| c.expression.clone()).ok_or(i))
        .collect()
}

impl<'a> Search<'a> {
    /// The validation phase: every request's data, the claim limits, the constraints.
    fn validate(&mut self) -> Result<(), String> {
        for claim in self.claims {
            let ck = claim.key();
            let mut reqs = Vec::new();
            let mut min_devices = 0usize;
            for r in &claim.spec.devices.requests {
                let mut data = ReqData {
                    name: r.name.clone(),
                    subs: Vec::new(),
                    has_subs: false,
                };
                if let Some(e) = &r.exactly {
                    let sel = expressions(&e.selectors).map_err(|i| {
                        format!("claim {ck}, request {}, selector #{i}: CEL expression empty (unsupported selector type?)", r.name)
                    })?;
                    let req = self.request(
                        &ck,
                        &r.name,
                        r.name.clone(),
                        &e.device_class_name,
                        sel,
                        &e.allocation_mode,
                        e.count,
                        e.admin_access == Some(true),
                    )?;
                    min_devices += req.num_devices;
                    data.subs.push(req);
                } else if let Some(subs) = &r.first_available {
                    data.has_subs = true;
                    for s in subs {
                        let sel = expressions(&s.selectors).map_err(|i| {
                            format!("claim {ck}, request {}, selector #{i}: CEL expression empty (unsupported selector type?)", s.name)
                        })?;
                        let name = format!("{}/{}", r.name, s.name);
                        let req = self.request(
                            &ck,
                            &s.name,
                            name,
                            &s.device_class_name,
                            sel,
                            &s.allocation_mode,
                            s.count,
                            false,
                        )?;
                        data.subs.push(req);
                    }
                    min_devices += data.subs.iter().map(|s| s.num_devices).min().unwrap_or(0);
                }
                reqs.push(data);
            }
            if min_devices > ALLOCATION_RESULTS_MAX_SIZE {
                return Err(format!(
                    "claim {ck}: number of requested devices {min_devices} exceeds the claim limit of {ALLOCATION_RESULTS_MAX_SIZE}"
                ));
            }
            let mut constraints = Vec::new();
            for (i, c) in claim.spec.devices.constraints.iter().enumerate() {
                let Some(attribute) = &c.match_attribute else {
                    return Err(format!(
                        "claim {ck}, constraint #{i}: empty constraint (unsupported constraint type?)"
                    ));
                };
                constraints.push(Constraint {
                    requests: c.requests.clone(),
                    attribute: attribute.clone(),
                    value: None,
                    count: 0,
                });
            }
            self.reqs.push(reqs);
            self.constraints.push(constraints);
        }
        Ok(())
    }

    /// One request's (or subrequest's) data.
    #[allow(clippy::too_many_arguments)]
    fn request(
        &self,
        ck: &str,
        own_name: &str,
        result_name: String,
        class_name: &str,
        selectors: Vec<String>,
        mode: &str,
        count: i64,
        admin: bool,
    ) -> Result<Req, String> {
        if class_name.is_empty() {
            return Err(format!(
                "claim {ck}, request {own_name}: missing device class name (unsupported request type?)"
            ));
        }
        let Some(class) = self.world.classes.get(class_name) else {
            return Err(format!(
                "claim {ck}, request {own_name}: could not retrieve device class {class_name}: deviceclass.resource.k8s.io \"{class_name}\" not found"
            ));
        };
        let mut req = Req {
            result_name,
            class: Arc::clone(class),
            selectors,
            all: false,
            num_devices: 0,
            admin,
            all_devices: Vec::new(),
        };
        match mode {
            EXACT_COUNT => req.num_devices = count.max(0) as usize,
            ALL => {
                req.all = true;
                for pool in self.pools {
                    let id = format!("{}/{}", pool.driver, pool.name);
                    if pool.incomplete {
                        return Err(format!("claim {ck}, request {own_name}: asks for all devices, but resource pool {id} is currently being updated"));
                    }
                    if pool.invalid {
                        return Err(format!("claim {ck}, request {own_name}: asks for all devices, but resource pool {id} is currently invalid"));
                    }
                    for &s in &pool.slices {
                        let e = &self.world.table.slices[s as usize];
                        for d in e.first..e.first + e.len {
                            if self.selectable(ck, &req, d)? {
                                req.all_devices.push(d);
                            }
                        }
                    }
                }
                req.num_devices = req.all_devices.len();
            }
            other => {
                return Err(format!(
                    "claim {ck}, request {own_name}: unsupported count mode {other}"
                ))
            }
        }
        Ok(req)
    }

    /// The device at table index `d`, its driver and pool.
    fn device(&self, d: u32) -> (&'a crate::model::dra::Device, &'a str, &'a str) {
        let (device, slice) = self.world.table.device_at(d);
        (
            device,
            slice.spec.driver.as_str(),
            slice.spec.pool.name.as_str(),
        )
    }

    /// `isSelectable`: no binding conditions, the class's selectors, then the request's.
    fn selectable(&self, ck: &str, req: &Req, d: u32) -> Result<bool, String> {
        let (device, _, _) = self.device(d);
        if !device.binding_conditions.is_empty() {
            return Ok(false);
        }
        let class = &req.class;
        for (i, s) in class.spec.selectors.iter().enumerate() {
            let expr = s.cel.as_ref().map(|c| c.expression.as_str()).unwrap_or("");
            let who = format!("class {}", class.metadata.name);
            if !self.eval(&who, i, expr, d)? {
                return Ok(false);
            }
        }
        for (i, expr) in req.selectors.iter().enumerate() {
            if !self.eval(&format!("claim {ck}"), i, expr, d)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn eval(&self, who: &str, i: usize, expr: &str, d: u32) -> Result<bool, String> {
        (self.world.selector)(expr, d).map_err(|e| match e {
            SelectorError::Compile(m) => format!("{who}: selector #{i}: CEL compile error: {m}"),
            SelectorError::Runtime(m) => format!("{who}: selector #{i}: CEL runtime error: {m}"),
        })
    }
}

mod search;
