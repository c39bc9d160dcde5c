//! The depth-first search (`allocateOne`, `allocateDevice`, the `matchAttribute` constraints)
//! and the `AllocationResult` it builds (reference `dra.md` §3.4–§3.8).

use super::{
    split_qualified_name, AllocationResult, DeviceAllocationConfiguration, DeviceAllocationResult,
    DeviceAttribute, DeviceRequestAllocationResult, Found, NodeRef, NodeSelector, NodeSelectorTerm,
    Requirement, Search, Taken, ALLOCATION_RESULTS_MAX_SIZE,
};

impl Search<'_> {
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
        if c == self.claims.len() {
            return Ok(Found::Yes);
        }
        if r == self.reqs[c].len() {
            let next = self.allocate_one(c + 1, 0, 0, 0, false)?;
            return Ok(if next == Found::MaxSize {
                Found::No
            } else {
                next
            });
        }
        if self.reqs[c][r].has_subs && !in_sub {
            let mut all_max = true;
            for sub in 0..self.reqs[c][r].subs.len() {
                match self.allocate_one(c, r, sub, d, true)? {
                    Found::MaxSize => {}
                    Found::Yes => return Ok(Found::Yes),
                    Found::No => all_max = false,
                }
            }
            return Ok(if all_max { Found::MaxSize } else { Found::No });
        }
        let req = &self.reqs[c][r].subs[s];
        if req.all && req.all_devices.is_empty() {
            return Ok(Found::No);
        }
        if d >= req.num_devices {
            return self.allocate_one(c, r + 1, 0, 0, false);
        }
        if self.taken[c].len() + req.num_devices - d > ALLOCATION_RESULTS_MAX_SIZE {
            return Ok(Found::MaxSize);
        }
        if req.all {
            let dev = req.all_devices[d];
            if !self.allocate_device(c, r, s, dev, true)? {
                return Ok(Found::No);
            }
            // T35 quirk: the subrequest index is not passed on here.
            let found = self.allocate_one(c, r, 0, d + 1, in_sub);
            if found != Ok(Found::Yes) {
                self.undo(c);
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
        let ck = self.claims[c].key();
        for pool in pools.iter().filter(|p| !p.incomplete && !p.invalid) {
            for &slice in &pool.slices {
                let e = &table.slices[slice as usize];
                for dev in e.first..e.first + e.len {
                    let key = table.keys[dev as usize];
                    let taken_by = self.allocating.get(&key);
                    if self.reqs[c][r].subs[s].admin {
                        if taken_by.is_some_and(|v| v.contains(&c)) {
                            continue;
                        }
                    } else if (self.world.in_use)(key) || taken_by.is_some_and(|v| !v.is_empty()) {
                        continue;
                    }
                    if !self.selectable(&ck, &self.reqs[c][r].subs[s], dev)? {
                        continue;
                    }
                    if !self.allocate_device(c, r, s, dev, false)? {
                        continue;
                    }
                    match self.allocate_one(c, r, s, d + 1, in_sub) {
                        Ok(Found::Yes) => return Ok(Found::Yes),
                        Ok(Found::No) => self.undo(c),
                        other => {
                            self.undo(c);
                            return other;
                        }
                    }
                }
            }
        }
        Ok(Found::No)
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
        let key = table.keys[dev as usize];
        let admin = self.reqs[c][r].subs[s].admin;
        let taken_by = self.allocating.get(&key);
        if admin {
            if taken_by.is_some_and(|v| v.contains(&c)) {
                return Ok(false);
            }
        } else if (self.world.in_use)(key) || taken_by.is_some_and(|v| !v.is_empty()) {
            return Ok(false);
        }
        let (device, driver, pool) = self.device(dev);
        if !device.consumes_counters.is_empty() {
            return Ok(false);
        }
        let req_name = self.reqs[c][r].name.clone();
        let sub_name = self.reqs[c][r].subs[s].result_name.clone();
        for i in 0..self.constraints[c].len() {
            if !self.constraint_add(c, i, &req_name, &sub_name, device, driver) {
                for j in 0..i {
                    self.constraint_remove(c, j, &req_name, &sub_name);
                }
                if must {
                    let own = sub_name.rsplit('/').next().unwrap_or(&sub_name);
                    return Err(format!(
                        "claim {}, request {own}: cannot add device {driver}/{pool}/{} because a claim constraint would not be satisfied",
                        self.claims[c].key(),
                        device.name
                    ));
                }
                return Ok(false);
            }
        }
        self.allocating.entry(key).or_default().push(c);
        self.taken[c].push(Taken {
            request: r,
            sub: s,
            device: dev,
        });
        Ok(true)
    }

    /// Undoes the last device taken by claim `c`.
    fn undo(&mut self, c: usize) {
        let Some(t) = self.taken[c].pop() else {
            return;
        };
        let key = self.world.table.keys[t.device as usize];
        if let Some(v) = self.allocating.get_mut(&key) {
            if let Some(i) = v.iter().rposition(|&x| x == c) {
                v.remove(i);
            }
        }
        let req_name = self.reqs[c][t.request].name.clone();
        let sub_name = self.reqs[c][t.request].subs[t.sub].result_name.clone();
        for i in 0..self.constraints[c].len() {
            self.constraint_remove(c, i, &req_name, &sub_name);
        }
    }

    /// Whether constraint `i` of claim `c` applies to the request (`req` or `req/sub`).
    fn applies(&self, c: usize, i: usize, req: &str, sub: &str) -> bool {
        let names = &self.constraints[c][i].requests;
        names.is_empty() || names.iter().any(|n| n == req || n == sub)
    }

    fn constraint_add(
        &mut self,
        c: usize,
        i: usize,
        req: &str,
        sub: &str,
        device: &crate::model::dra::Device,
        driver: &str,
    ) -> bool {
        if !self.applies(c, i, req, sub) {
            return true;
        }
        let k = &mut self.constraints[c][i];
        let Some(value) = lookup_attribute(device, driver, &k.attribute) else {
            return false;
        };
        if k.count == 0 {
            k.value = Some(value.clone());
        } else if !same_value(k.value.as_ref(), value) {
            return false;
        }
        k.count += 1;
        true
    }

    fn constraint_remove(&mut self, c: usize, i: usize, req: &str, sub: &str) {
        if self.applies(c, i, req, sub) {
            let k = &mut self.constraints[c][i];
            k.count = k.count.saturating_sub(1);
        }
    }

    /// One `AllocationResult` per claim.
    pub(super) fn results(&self, node: &NodeRef) -> Vec<AllocationResult> {
        let _ = node;
        (0..self.claims.len()).map(|c| self.result(c)).collect()
    }

    fn result(&self, c: usize) -> AllocationResult {
        let claim = self.claims[c];
        let mut results = Vec::with_capacity(self.taken[c].len());
        let mut selected = vec![None; self.reqs[c].len()];
        for t in &self.taken[c] {
            let (device, driver, pool) = self.device(t.device);
            let req = &self.reqs[c][t.request].subs[t.sub];
            selected[t.request].get_or_insert(t.sub);
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
        for (r, data) in self.reqs[c].iter().enumerate() {
            let req = &data.subs[selected[r].unwrap_or(0)];
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
            for (r, data) in self.reqs[c].iter().enumerate() {
                let sub = &data.subs[selected[r].unwrap_or(0)].result_name;
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
            node_selector: self.node_selector(c),
        }
    }

    /// `createNodeSelector`: the first device of a `nodeName` slice pins the node; otherwise
    /// the slices' selectors are merged into one term; `allNodes` alone gives none.
    fn node_selector(&self, c: usize) -> Option<NodeSelector> {
        let table = self.world.table;
        let mut term = NodeSelectorTerm::default();
        for t in &self.taken[c] {
            let slice = table
                .slices
                .iter()
                .find(|e| e.first <= t.device && t.device < e.first + e.len)?;
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
