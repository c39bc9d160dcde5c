//! The structured allocator, "incubating" variant (reference `dra.md` §3): the pools a node
//! sees, the validation of every request, and the exhaustive depth-first search over claims,
//! requests, subrequests and devices that returns the first solution. Pure: it reads the
//! device table, the classes and the devices in use, and a selector evaluator.
//!
//! schedlab's order where upstream's is random (§0.2, `docs/fidelity.md`): pools by
//! `(driver, pool name)`, the slices of a pool by name (then input order), devices in slice
//! order.

use crate::model::dra::catalog::{keep_answer, known_answer, DeviceTable, NodePool, SelectorRow};
use crate::model::dra::{
    split_qualified_name, AllocationResult, DeviceAllocationConfiguration, DeviceAllocationResult,
    DeviceAttribute, DeviceClass, DeviceRequestAllocationResult, DeviceSelector, ResourceClaim,
    ALL, ALLOCATION_RESULTS_MAX_SIZE, EXACT_COUNT,
};
use crate::model::{Labels, NodeSelector, NodeSelectorTerm, Requirement};
use smallvec::SmallVec;
use std::collections::BTreeMap;
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

/// A pool as the node sees it; driver and name are its first slice's.
type Pool = NodePool;

/// `driver/pool`.
fn pool_id(pool: &Pool, table: &DeviceTable) -> String {
    let spec = &table.slices[pool.slices[0] as usize].slice.spec;
    format!("{}/{}", spec.driver, spec.pool.name)
}

/// `GatherPools`: the pools of the slices `node` sees, in schedlab's order (the table's).
pub(crate) fn gather_pools<'t>(
    table: &'t DeviceTable,
    node: &NodeRef,
) -> Result<std::borrow::Cow<'t, [Pool]>, AllocError> {
    table
        .pools_for(node.name, node.labels)
        .map_err(AllocError::Error)
}

/// One request or subrequest, validated.
#[derive(Debug)]
struct Req {
    /// The result's `request`: `req` or `req/sub`.
    result_name: String,
    class: Arc<DeviceClass>,
    selectors: Vec<String>,
    /// The answers of the class's selectors, then of `selectors`, per device.
    rows: Vec<SelectorRow>,
    /// `All`: its devices are found per node, in the search's slot `all_slot`.
    all: bool,
    all_slot: usize,
    /// `count` (ExactCount).
    count: usize,
    admin: bool,
}

/// A request: itself (`exactly`), or its subrequests.
#[derive(Debug)]
struct ReqData {
    name: String,
    subs: Vec<Req>,
    has_subs: bool,
}

/// A `matchAttribute` constraint.
#[derive(Debug)]
struct ConstraintSpec {
    requests: Vec<String>,
    attribute: String,
}

/// One claim's node-independent validation.
#[derive(Debug)]
struct ClaimPlan {
    /// `klog.KObj(claim)`.
    key: String,
    /// The requests (and subrequests) validated before `error`, in order.
    reqs: Vec<ReqData>,
    /// The first node-independent error, right after the last (sub)request of `reqs`.
    error: Option<String>,
    /// The constraints, or the first empty one's error.
    constraints: Result<Vec<ConstraintSpec>, String>,
    /// Where its constraints' states start in the search's list.
    constraint_offset: usize,
}

/// What `Allocate` validates without looking at a node, computed once per cycle: the requests
/// with their classes, and the errors in the order validation meets them (an `All` request's
/// devices, and so its errors, are the node's and are found per node, in the same order).
#[derive(Debug)]
pub(crate) struct Plan {
    claims: Vec<ClaimPlan>,
    /// How many `All` (sub)requests.
    all_slots: usize,
    /// How many constraints in all.
    constraints: usize,
}

fn expressions(selectors: &[DeviceSelector]) -> Result<Vec<String>, usize> {
    selectors
        .iter()
        .enumerate()
        .map(|(i, s)| s.cel.as_ref().map(|c| c.expression.clone()).ok_or(i))
        .collect()
}

impl Plan {
    /// The plan for `claims` (in order) against the classes, for the devices of `table`.
    pub(crate) fn new(
        classes: &BTreeMap<String, Arc<DeviceClass>>,
        table: &DeviceTable,
        claims: &[&ResourceClaim],
    ) -> Plan {
        let mut plan = Plan {
            claims: Vec::with_capacity(claims.len()),
            all_slots: 0,
            constraints: 0,
        };
        for claim in claims {
            let mut cp = ClaimPlan {
                key: claim.key(),
                reqs: Vec::new(),
                error: None,
                constraints: Ok(Vec::new()),
                constraint_offset: plan.constraints,
            };
            cp.error = plan.requests((classes, table), claim, &mut cp).err();
            let mut list = Vec::new();
            for (i, c) in claim.spec.devices.constraints.iter().enumerate() {
                let Some(attribute) = &c.match_attribute else {
                    cp.constraints = Err(format!(
                        "claim {}, constraint #{i}: empty constraint (unsupported constraint type?)",
                        cp.key
                    ));
                    break;
                };
                list.push(ConstraintSpec {
                    requests: c.requests.clone(),
                    attribute: attribute.clone(),
                });
            }
            if cp.constraints.is_ok() {
                plan.constraints += list.len();
                cp.constraints = Ok(list);
            }
            plan.claims.push(cp);
        }
        plan
    }

    /// The claim's requests into `cp.reqs`, up to the first node-independent error.
    fn requests(
        &mut self,
        classes: (&BTreeMap<String, Arc<DeviceClass>>, &DeviceTable),
        claim: &ResourceClaim,
        cp: &mut ClaimPlan,
    ) -> Result<(), String> {
        let ck = cp.key.clone();
        for r in &claim.spec.devices.requests {
            if let Some(e) = &r.exactly {
                let sel = expressions(&e.selectors).map_err(|i| {
                    format!("claim {ck}, request {}, selector #{i}: CEL expression empty (unsupported selector type?)", r.name)
                })?;
                let req = self.request(
                    classes,
                    (&ck, &r.name),
                    r.name.clone(),
                    &e.device_class_name,
                    sel,
                    (&e.allocation_mode, e.count),
                    e.admin_access == Some(true),
                )?;
                cp.reqs.push(ReqData {
                    name: r.name.clone(),
                    subs: vec![req],
                    has_subs: false,
                });
            } else if let Some(subs) = &r.first_available {
                cp.reqs.push(ReqData {
                    name: r.name.clone(),
                    subs: Vec::with_capacity(subs.len()),
                    has_subs: true,
                });
                for s in subs {
                    let sel = expressions(&s.selectors).map_err(|i| {
                        format!("claim {ck}, request {}, selector #{i}: CEL expression empty (unsupported selector type?)", s.name)
                    })?;
                    let req = self.request(
                        classes,
                        (&ck, &s.name),
                        format!("{}/{}", r.name, s.name),
                        &s.device_class_name,
                        sel,
                        (&s.allocation_mode, s.count),
                        false,
                    )?;
                    if let Some(last) = cp.reqs.last_mut() {
                        last.subs.push(req);
                    }
                }
            } else {
                cp.reqs.push(ReqData {
                    name: r.name.clone(),
                    subs: Vec::new(),
                    has_subs: false,
                });
            }
        }
        Ok(())
    }

    /// One request's (or subrequest's) data; `names` = (claim, the request's own name).
    #[allow(clippy::too_many_arguments)]
    fn request(
        &mut self,
        (classes, table): (&BTreeMap<String, Arc<DeviceClass>>, &DeviceTable),
        (ck, own_name): (&str, &str),
        result_name: String,
        class_name: &str,
        selectors: Vec<String>,
        (mode, count): (&str, i64),
        admin: bool,
    ) -> Result<Req, String> {
        if class_name.is_empty() {
            return Err(format!(
                "claim {ck}, request {own_name}: missing device class name (unsupported request type?)"
            ));
        }
        let Some(class) = classes.get(class_name) else {
            return Err(format!(
                "claim {ck}, request {own_name}: could not retrieve device class {class_name}: deviceclass.resource.k8s.io \"{class_name}\" not found"
            ));
        };
        let rows = class
            .spec
            .selectors
            .iter()
            .map(|s| s.cel.as_ref().map_or("", |c| c.expression.as_str()))
            .chain(selectors.iter().map(String::as_str))
            .map(|e| table.selector_row(e))
            .collect();
        let mut req = Req {
            result_name,
            class: Arc::clone(class),
            selectors,
            rows,
            all: false,
            all_slot: 0,
            count: 0,
            admin,
        };
        match mode {
            EXACT_COUNT => req.count = count.max(0) as usize,
            ALL => {
                req.all = true;
                req.all_slot = self.all_slots;
                self.all_slots += 1;
            }
            other => {
                return Err(format!(
                    "claim {ck}, request {own_name}: unsupported count mode {other}"
                ))
            }
        }
        Ok(req)
    }
}

/// The `matchAttribute` state of one constraint on one node: the first value, and how many
/// devices hold it.
#[derive(Clone, Copy, Default)]
struct ConstraintState<'a> {
    value: Option<&'a DeviceAttribute>,
    count: usize,
}

/// One device taken by the search: claim, request and subrequest indices, the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Taken {
    claim: u32,
    request: u32,
    sub: u32,
    device: u32,
}

/// The devices taken, in order (most claims take a few: kept inline).
type TakenList = SmallVec<[Taken; 4]>;

/// A solution found on a node, kept compact: the devices taken, in order. The claims'
/// `AllocationResult`s are built from it for the node the pod goes to ([`Solution::results`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Solution(TakenList);

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
    plan: &'a Plan,
    /// Each `All` (sub)request's devices on this node, by slot.
    all_devices: Vec<Vec<u32>>,
    /// Every constraint's state (claims' constraints one after another).
    constraints: Vec<ConstraintState<'a>>,
    /// The devices taken, in order: the last ones are the current claim's (a step that fails
    /// undoes what it took), so this is also upstream's `allocating` set.
    taken: TakenList,
    invocations: u64,
}

/// `Allocate(node, claims)`: one allocation per claim, `None` when there is no solution, or
/// the error. The second value counts `allocateOne` invocations (upstream's tests pin it).
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) fn allocate(
    world: &World,
    node: &NodeRef,
    claims: &[&ResourceClaim],
) -> (Result<Option<Vec<AllocationResult>>, AllocError>, u64) {
    let plan = Plan::new(world.classes, world.table, claims);
    let (found, invocations) = allocate_planned(world, node, &plan);
    let out = found.map(|o| o.map(|s| s.results(world.table, &plan, claims)));
    (out, invocations)
}

/// [`allocate`] with the claims' plan made beforehand: the solution, compact.
pub(crate) fn allocate_planned(
    world: &World,
    node: &NodeRef,
    plan: &Plan,
) -> (Result<Option<Solution>, AllocError>, u64) {
    let pools = match gather_pools(world.table, node) {
        Ok(p) => p,
        Err(e) => return (Err(e), 0),
    };
    let mut search = Search {
        world,
        pools: &pools,
        plan,
        all_devices: vec![Vec::new(); plan.all_slots],
        constraints: vec![ConstraintState::default(); plan.constraints],
        taken: TakenList::new(),
        invocations: 0,
    };
    if let Err(e) = search.validate() {
        return (Err(AllocError::Error(e)), 0);
    }
    let found = search.allocate_one(0, 0, 0, 0, false);
    let invocations = search.invocations;
    let out = match found {
        Err(e) => Err(AllocError::Error(e)),
        Ok(Found::Yes) => Ok(Some(Solution(search.taken))),
        Ok(_) if pools.iter().any(|p| p.invalid) => Err(AllocError::OnNode(
            "invalid resource pools were encountered".into(),
        )),
        Ok(_) => Ok(None),
    };
    (out, invocations)
}

impl<'a> Search<'a> {
    /// The validation phase on this node: the plan's errors where validation meets them, the
    /// devices of `All` requests, the claim limits.
    fn validate(&mut self) -> Result<(), String> {
        let plan = self.plan;
        for cp in &plan.claims {
            let mut min_devices = 0usize;
            for data in &cp.reqs {
                let mut least = usize::MAX;
                for req in &data.subs {
                    if req.all {
                        self.all_devices[req.all_slot] = self.all_of(&cp.key, req)?;
                    }
                    least = least.min(self.num_devices(req));
                }
                if !data.subs.is_empty() {
                    min_devices += least;
                }
            }
            if let Some(e) = &cp.error {
                return Err(e.clone());
            }
            if min_devices > ALLOCATION_RESULTS_MAX_SIZE {
                return Err(format!(
                    "claim {}: number of requested devices {min_devices} exceeds the claim limit of {ALLOCATION_RESULTS_MAX_SIZE}",
                    cp.key
                ));
            }
            if let Err(e) = &cp.constraints {
                return Err(e.clone());
            }
        }
        Ok(())
    }

    /// An `All` request's devices: every selectable device of the node's pools (errors for
    /// incomplete and invalid pools).
    fn all_of(&self, ck: &str, req: &Req) -> Result<Vec<u32>, String> {
        let own = req
            .result_name
            .rsplit('/')
            .next()
            .unwrap_or(&req.result_name);
        let table = self.world.table;
        let mut out = Vec::new();
        for pool in self.pools {
            if pool.incomplete {
                return Err(format!("claim {ck}, request {own}: asks for all devices, but resource pool {} is currently being updated", pool_id(pool, table)));
            }
            if pool.invalid {
                return Err(format!("claim {ck}, request {own}: asks for all devices, but resource pool {} is currently invalid", pool_id(pool, table)));
            }
            for &s in &pool.slices {
                let e = &table.slices[s as usize];
                for d in e.first..e.first + e.len {
                    if self.selectable(&|| ck.to_string(), req, d)? {
                        out.push(d);
                    }
                }
            }
        }
        Ok(out)
    }

    /// A (sub)request's device count on this node.
    fn num_devices(&self, req: &Req) -> usize {
        if req.all {
            self.all_devices[req.all_slot].len()
        } else {
            req.count
        }
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
    /// `ck` names the claim in error messages.
    fn selectable(&self, ck: &dyn Fn() -> String, req: &Req, d: u32) -> Result<bool, String> {
        let (table, n) = (self.world.table, req.class.spec.selectors.len());
        if table.unusable(d) && !self.device(d).0.binding_conditions.is_empty() {
            return Ok(false);
        }
        let class = &req.class;
        for (i, s) in class.spec.selectors.iter().enumerate() {
            let expr = s.cel.as_ref().map(|c| c.expression.as_str()).unwrap_or("");
            let who = || format!("class {}", class.metadata.name);
            if !self.eval(&who, (i, expr), req.rows.get(i), d)? {
                return Ok(false);
            }
        }
        for (i, expr) in req.selectors.iter().enumerate() {
            let who = || format!("claim {}", ck());
            if !self.eval(&who, (i, expr), req.rows.get(n + i), d)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Selector `i` (`expr`) on device `d`, its answer kept in `row`.
    fn eval(
        &self,
        who: &dyn Fn() -> String,
        (i, expr): (usize, &str),
        row: Option<&SelectorRow>,
        d: u32,
    ) -> Result<bool, String> {
        if let Some(v) = row.and_then(|r| known_answer(r, d)) {
            return Ok(v);
        }
        let answer = (self.world.selector)(expr, d).map_err(|e| match e {
            SelectorError::Compile(m) => {
                format!("{}: selector #{i}: CEL compile error: {m}", who())
            }
            SelectorError::Runtime(m) => {
                format!("{}: selector #{i}: CEL runtime error: {m}", who())
            }
        })?;
        if let Some(r) = row {
            keep_answer(r, d, answer);
        }
        Ok(answer)
    }
}

mod diagnose;
mod search;

pub(crate) use diagnose::diagnose;
