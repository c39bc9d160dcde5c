//! The depth-first search (`allocateOne`, `allocateDevice`, the `matchAttribute` constraints)
//! and the `AllocationResult` it builds (reference `dra.md` §3.4–§3.8).

use super::{
    split_qualified_name, AllocationResult, ClaimPlan, DeviceAllocationConfiguration,
    DeviceAllocationResult, DeviceAttribute, DeviceRequestAllocationResult, DeviceTable, Found,
    NodeSelector, NodeSelectorTerm, Plan, Req, Requirement, ResourceClaim, Search, Solution, Taken,
    ALLOCATION_RESULTS_MAX_SIZE,
};

impl<'a> Search<'a> {
    /// The (sub)request `s` of request `r` of claim `c`.
    fn req(&self, c: usize, r: usize, s: usize) -> Option<&Req> {
        self.plan.claims[c].reqs[r].subs.get(s)
    }

    /// How many devices claim `c` holds so far (its entries end the taken list).
    fn held(&self, c: usize) -> usize {
        self.taken
            .iter()
            .rev()
            .take_while(|t| t.claim as usize == c)
            .count()
    }

    /// `allocateOne(claim, request, subrequest, device, inSubrequest)`.
    pub(super) fn allocate_one(
        &mut self,
        c: usize,
        r: usize,
        s: usize,
        d: usize,
        in_sub: bool,
    ) -> Result<Found, String> {
        self.invocations += 1;
        let plan = self.plan;
        if c == plan.claims.len() {
            return Ok(Found::Yes);
        }
        let cp = &plan.claims[c];
        if r == cp.reqs.len() {
            let next = self.allocate_one(c + 1, 0, 0, 0, false)?;
            return Ok(if next == Found::MaxSize {
                Found::No
            } else {
                next
            });
        }
        if cp.reqs[r].has_subs && !in_sub {
            let mut all_max = true;
            for sub in 0..cp.reqs[r].subs.len() {
                match self.allocate_one(c, r, sub, d, true)? {
                    Found::MaxSize => {}
                    Found::Yes => return Ok(Found::Yes),
                    Found::No => all_max = false,
                }
            }
            return Ok(if all_max { Found::MaxSize } else { Found::No });
        }
        // A request of no known type never gets here (PreFilter rejects its pod).
        let Some(req) = self.req(c, r, s) else {
            return Ok(Found::No);
        };
        let num_devices = self.num_devices(req);
        if req.all && num_devices == 0 {
            return Ok(Found::No);
        }
        if d >= num_devices {
            return self.allocate_one(c, r + 1, 0, 0, false);
        }
        if self.held(c) + num_devices - d > ALLOCATION_RESULTS_MAX_SIZE {
            return Ok(Found::MaxSize);
        }
        if req.all {
            let dev = self.all_devices[req.all_slot][d];
            if !self.allocate_device(c, r, s, dev, true)? {
                return Ok(Found::No);
            }
            // T35 quirk: the subrequest index is not passed on here.
            let found = self.allocate_one(c, r, 0, d + 1, in_sub);
            if found != Ok(Found::Yes) {
                self.undo();
            }
            return found;
        }
        self.try_devices(c, r, s, d, in_sub)
    }

    /// Step 9: every candidate device in pool, slice, device order.
    fn try_devices(
        &mut self,
        c: usize,
        r: usize,
        s: usize,
        d: usize,
        in_sub: bool,
    ) -> Result<Found, String> {
        let pools = self.pools;
        let table = self.world.table;
        let plan = self.plan;
        let cp = &plan.claims[c];
        let req = &cp.reqs[r].subs[s];
        let ck = || cp.key.clone();
        for pool in pools.iter().filter(|p| !p.incomplete && !p.invalid) {
            for &slice in &pool.slices {
                let e = &table.slices[slice as usize];
                for dev in e.first..e.first + e.len {
                    if !self.may_take(c, req.admin, table.keys[dev as usize]) {
                        continue;
                    }
                    if !self.selectable(&ck, req, dev)? {
                        continue;
                    }
                    if !self.allocate_device(c, r, s, dev, false)? {
                        continue;
                    }
                    match self.allocate_one(c, r, s, d + 1, in_sub) {
                        Ok(Found::Yes) => return Ok(Found::Yes),
                        Ok(Found::No) => self.undo(),
                        other => {
                            self.undo();
                            return other;
                        }
                    }
                }
            }
        }
        Ok(Found::No)
    }

    /// Whether claim `c` may take the device with `key`: an admin request only if this claim
    /// does not hold it yet; any other only if no claim holds it (in the cluster or in this
    /// call).
    fn may_take(&self, c: usize, admin: bool, key: u32) -> bool {
        let keys = &self.world.table.keys;
        if admin {
            !self
                .taken
                .iter()
                .any(|t| t.claim as usize == c && keys[t.device as usize] == key)
        } else {
            !(self.world.in_use)(key) && !self.taken.iter().any(|t| keys[t.device as usize] == key)
        }
    }

    /// `allocateDevice`: whether `dev` can go to claim `c`'s request; `must` turns a refusing
    /// constraint into an error.
    fn allocate_device(
        &mut self,
        c: usize,
        r: usize,
        s: usize,
        dev: u32,
        must: bool,
    ) -> Result<bool, String> {
        let table = self.world.table;
        let plan = self.plan;
        let cp = &plan.claims[c];
        let req = &cp.reqs[r].subs[s];
        if !self.may_take(c, req.admin, table.keys[dev as usize]) {
            return Ok(false);
        }
        let specs = cp.constraints.as_deref().unwrap_or(&[]);
        if specs.is_empty() && !table.unusable(dev) {
            self.take(c, r, s, dev);
            return Ok(true);
        }
        let (device, driver, pool) = self.device(dev);
        if !device.consumes_counters.is_empty() {
            return Ok(false);
        }
        for i in 0..specs.len() {
            if !self.constraint_add(cp, i, r, s, device, driver) {
                for j in 0..i {
                    self.constraint_remove(cp, j, r, s);
                }
                if must {
                    let own = req
                        .result_name
                        .rsplit('/')
                        .next()
                        .unwrap_or(&req.result_name);
                    return Err(format!(
                        "claim {}, request {own}: cannot add device {driver}/{pool}/{} because a claim constraint would not be satisfied",
                        cp.key,
                        device.name
                    ));
                }
                return Ok(false);
            }
        }
        self.take(c, r, s, dev);
        Ok(true)
    }

    fn take(&mut self, c: usize, r: usize, s: usize, dev: u32) {
        self.taken.push(Taken {
            claim: c as u32,
            request: r as u32,
            sub: s as u32,
            device: dev,
        });
    }

    /// Undoes the last device taken.
    fn undo(&mut self) {
        let Some(t) = self.taken.pop() else {
            return;
        };
        let cp = &self.plan.claims[t.claim as usize];
        let n = cp.constraints.as_deref().map_or(0, <[_]>::len);
        for i in 0..n {
            self.constraint_remove(cp, i, t.request as usize, t.sub as usize);
        }
    }

    fn constraint_add(
        &mut self,
        cp: &ClaimPlan,
        i: usize,
        r: usize,
        s: usize,
        device: &'a crate::model::dra::Device,
        driver: &str,
    ) -> bool {
        if !applies(cp, i, r, s) {
            return true;
        }
        let Ok(specs) = &cp.constraints else {
            return true;
        };
        let Some(value) = lookup_attribute(device, driver, &specs[i].attribute) else {
            return false;
        };
        let k = &mut self.constraints[cp.constraint_offset + i];
        if k.count == 0 {
            k.value = Some(value);
        } else if !same_value(k.value, value) {
            return false;
        }
        k.count += 1;
        true
    }

    fn constraint_remove(&mut self, cp: &ClaimPlan, i: usize, r: usize, s: usize) {
        if applies(cp, i, r, s) {
            let k = &mut self.constraints[cp.constraint_offset + i];
            k.count = k.count.saturating_sub(1);
        }
    }
}

/// Whether constraint `i` of the claim applies to request `r`, subrequest `s` (named `req` or
/// `req/sub`).
fn applies(cp: &ClaimPlan, i: usize, r: usize, s: usize) -> bool {
    let Ok(specs) = &cp.constraints else {
        return false;
    };
    let names = &specs[i].requests;
    if names.is_empty() {
        return true;
    }
    let data = &cp.reqs[r];
    let sub = &data.subs[s].result_name;
    names.iter().any(|n| *n == data.name || n == sub)
}

impl Solution {
    /// `computeScore`'s part for the claims of the plan: `8 − i` for each `firstAvailable`
    /// request and each of its subrequests `i` that got a device (each pair once, as the
    /// results' `request` names are matched upstream).
    pub(crate) fn prioritized_score(&self, plan: &Plan) -> i64 {
        let mut seen: smallvec::SmallVec<[(u32, u32, u32); 4]> = smallvec::SmallVec::new();
        let mut score = 0;
        for t in &self.0 {
            let data = &plan.claims[t.claim as usize].reqs[t.request as usize];
            let key = (t.claim, t.request, t.sub);
            if data.has_subs && !seen.contains(&key) {
                seen.push(key);
                score += (crate::model::dra::FIRST_AVAILABLE_MAX_SIZE as i64)
                    .saturating_sub(i64::from(t.sub));
            }
        }
        score
    }

    /// One `AllocationResult` per claim of the plan (`claims` are the plan's).
    pub(crate) fn results(
        &self,
        table: &DeviceTable,
        plan: &Plan,
        claims: &[&ResourceClaim],
    ) -> Vec<AllocationResult> {
        (0..plan.claims.len())
            .map(|c| self.result(table, plan, claims[c], c))
            .collect()
    }

    fn result(
        &self,
        table: &DeviceTable,
        plan: &Plan,
        claim: &ResourceClaim,
        c: usize,
    ) -> AllocationResult {
        let reqs = &plan.claims[c].reqs;
        let taken: Vec<&Taken> = self.0.iter().filter(|t| t.claim as usize == c).collect();
        let mut results = Vec::with_capacity(taken.len());
        let mut selected = vec![None; reqs.len()];
        for t in &taken {
            let (device, slice) = table.device_at(t.device);
            let (driver, pool) = (&slice.spec.driver, &slice.spec.pool.name);
            let (r, sub) = (t.request as usize, t.sub as usize);
            let req = &reqs[r].subs[sub];
            selected[r].get_or_insert(sub);
            results.push(DeviceRequestAllocationResult {
                request: req.result_name.clone(),
                driver: driver.to_string(),
                pool: pool.to_string(),
                device: device.name.clone(),
                admin_access: req.admin.then_some(true),
            });
        }
        let mut config: Vec<DeviceAllocationConfiguration> = Vec::new();
        let mut class_entries: Vec<(String, Vec<usize>)> = Vec::new();
        for (r, data) in reqs.iter().enumerate() {
            let Some(req) = data.subs.get(selected[r].unwrap_or(0)) else {
                continue;
            };
            let class = &req.class;
            match class_entries
                .iter()
                .find(|(n, _)| *n == class.metadata.name)
            {
                Some((_, idx)) => {
                    for &i in idx {
                        config[i].requests.push(req.result_name.clone());
                    }
                }
                None => {
                    let mut idx = Vec::new();
                    for cfg in &class.spec.config {
                        idx.push(config.len());
                        config.push(DeviceAllocationConfiguration {
                            source: "FromClass".into(),
                            requests: vec![req.result_name.clone()],
                            opaque: cfg.opaque.clone(),
                        });
                    }
                    class_entries.push((class.metadata.name.clone(), idx));
                }
            }
        }
        for cfg in &claim.spec.devices.config {
            if cfg.requests.is_empty() {
                config.push(DeviceAllocationConfiguration {
                    source: "FromClaim".into(),
                    requests: Vec::new(),
                    opaque: cfg.opaque.clone(),
                });
                continue;
            }
            for (r, data) in reqs.iter().enumerate() {
                let Some(sub) = data.subs.get(selected[r].unwrap_or(0)) else {
                    continue;
                };
                let sub = &sub.result_name;
                if cfg.requests.iter().any(|n| *n == data.name || n == sub) {
                    config.push(DeviceAllocationConfiguration {
                        source: "FromClaim".into(),
                        requests: cfg.requests.clone(),
                        opaque: cfg.opaque.clone(),
                    });
                }
            }
        }
        AllocationResult {
            devices: DeviceAllocationResult { results, config },
            node_selector: node_selector(table, &taken),
        }
    }
}

/// `createNodeSelector`: the first device of a `nodeName` slice pins the node; otherwise the
/// slices' selectors are merged into one term; `allNodes` alone gives none.
fn node_selector(table: &DeviceTable, taken: &[&Taken]) -> Option<NodeSelector> {
    {
        let mut term = NodeSelectorTerm::default();
        for t in taken {
            let slice = &table.slices[table.slice_of(t.device)];
            let spec = &slice.slice.spec;
            if let Some(node) = &spec.node_name {
                return Some(NodeSelector {
                    node_selector_terms: vec![NodeSelectorTerm {
                        match_expressions: Vec::new(),
                        match_fields: vec![Requirement {
                            key: "metadata.name".into(),
                            operator: "In".into(),
                            values: vec![node.clone()],
                        }],
                    }],
                });
            }
            if let Some(sel) = &spec.node_selector {
                for t in &sel.node_selector_terms {
                    for r in &t.match_expressions {
                        if !term.match_expressions.contains(r) {
                            term.match_expressions.push(r.clone());
                        }
                    }
                    for r in &t.match_fields {
                        if !term.match_fields.contains(r) {
                            term.match_fields.push(r.clone());
                        }
                    }
                }
            }
        }
        (!term.match_expressions.is_empty() || !term.match_fields.is_empty()).then(|| {
            NodeSelector {
                node_selector_terms: vec![term],
            }
        })
    }
}

/// `lookupAttribute`: the full name, else the bare id when the domain is the driver's.
fn lookup_attribute<'d>(
    device: &'d crate::model::dra::Device,
    driver: &str,
    name: &str,
) -> Option<&'d DeviceAttribute> {
    if let Some(v) = device.attributes.get(name) {
        return Some(v);
    }
    let (domain, id) = split_qualified_name(name, driver);
    if domain == driver {
        return device.attributes.get(id);
    }
    None
}

/// Same type and equal value (versions compared as strings).
fn same_value(a: Option<&DeviceAttribute>, b: &DeviceAttribute) -> bool {
    let Some(a) = a else {
        return false;
    };
    match (a, b) {
        (DeviceAttribute { int: Some(x), .. }, DeviceAttribute { int: Some(y), .. }) => x == y,
        (DeviceAttribute { bool: Some(x), .. }, DeviceAttribute { bool: Some(y), .. }) => x == y,
        (
            DeviceAttribute {
                string: Some(x), ..
            },
            DeviceAttribute {
                string: Some(y), ..
            },
        ) => x == y,
        (
            DeviceAttribute {
                version: Some(x), ..
            },
            DeviceAttribute {
                version: Some(y), ..
            },
        ) => x == y,
        _ => false,
    }
}
