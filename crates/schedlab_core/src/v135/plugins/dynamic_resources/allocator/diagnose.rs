//! Why claims found no devices on a node, claim by claim: what `schedlab explain` and the
//! text report say beside upstream's bare `cannot allocate all claims`. Only detailed traces
//! ask for it, so it may repeat the search: the claims in order (the first that fails with
//! the ones before it is the one the allocator stopped at), then that claim alone, then each
//! (sub)request's devices counted on the node. Nothing here changes a decision.

use super::{
    allocate_planned, gather_pools, AllocError, NodeRef, Plan, Req, ReqData, ResourceClaim, Search,
    Solution, World,
};
use crate::trace::v135::ClaimAnswer;

/// The allocator's answer for each claim (in order) on `node`.
pub(crate) fn diagnose(
    world: &World,
    node: &NodeRef,
    claims: &[&ResourceClaim],
) -> Vec<ClaimAnswer> {
    let n = claims.len();
    let mut answers: Vec<ClaimAnswer> = Vec::with_capacity(n);
    let mut last_ok: Option<Solution> = None;
    let mut failed_at = None;
    for k in 0..n {
        let plan = Plan::new(world.classes, world.table, &claims[..=k]);
        match allocate_planned(world, node, &plan).0 {
            Ok(Some(s)) => last_ok = Some(s),
            Ok(None) => {
                failed_at = Some((k, None));
                break;
            }
            Err(AllocError::OnNode(m) | AllocError::Error(m)) => {
                failed_at = Some((k, Some(m)));
                break;
            }
        }
    }
    let upto = failed_at.as_ref().map_or(n, |(k, _)| *k);
    if let Some(s) = &last_ok {
        let plan = Plan::new(world.classes, world.table, &claims[..upto]);
        answers.extend(
            s.results(world.table, &plan, &claims[..upto])
                .into_iter()
                .map(|a| {
                    ClaimAnswer::Devices(
                        a.devices
                            .results
                            .into_iter()
                            .map(|r| (r.request, format!("{}/{}/{}", r.driver, r.pool, r.device)))
                            .collect(),
                    )
                }),
        );
    }
    let Some((k, error)) = failed_at else {
        return answers;
    };
    answers.push(ClaimAnswer::Failed(match error {
        Some(m) => m,
        None => alone(world, node, claims[k]).unwrap_or_else(|| {
            let before: Vec<String> = claims[..k].iter().map(|c| c.key()).collect();
            format!(
                "it would fit on its own, but not once {} before it in spec.resourceClaims {} allocated on this node",
                before.join(", "),
                if k == 1 { "is" } else { "are" }
            )
        }),
    }));
    for c in &claims[k + 1..] {
        answers.push(match alone(world, node, c) {
            Some(why) => ClaimAnswer::Failed(why),
            None => ClaimAnswer::NotReached,
        });
    }
    answers
}

/// Why `claim` finds no devices on the node by itself, or `None` if it does.
fn alone(world: &World, node: &NodeRef, claim: &ResourceClaim) -> Option<String> {
    let plan = Plan::new(world.classes, world.table, &[claim]);
    match allocate_planned(world, node, &plan).0 {
        Ok(Some(_)) => None,
        Err(AllocError::OnNode(m) | AllocError::Error(m)) => Some(m),
        Ok(None) => Some(why_requests(world, node, &plan)),
    }
}

/// How many devices of the node a (sub)request could use.
#[derive(Default)]
struct Counts {
    /// Of the request's class.
    class: usize,
    /// Of the class and the request's own selectors.
    matching: usize,
    /// Of those, not allocated to another claim (every one, for admin access).
    free: usize,
}

/// The single claim of `plan` has no solution on the node: each (sub)request's devices.
fn why_requests(world: &World, node: &NodeRef, plan: &Plan) -> String {
    let Ok(pools) = gather_pools(world.table, node) else {
        return "cannot allocate all claims".into();
    };
    let search = Search {
        world,
        pools: &pools,
        plan,
        all_devices: Vec::new(),
        constraints: Vec::new(),
        taken: super::TakenList::new(),
        invocations: 0,
    };
    let cp = &plan.claims[0];
    let usable: Vec<u32> = pools
        .iter()
        .filter(|p| !p.incomplete && !p.invalid)
        .flat_map(|p| p.slices.iter())
        .flat_map(|&s| {
            let e = &world.table.slices[s as usize];
            e.first..e.first + e.len
        })
        .collect();
    let mut notes: Vec<String> = Vec::new();
    for p in pools.iter() {
        if p.incomplete {
            notes.push(format!(
                "pool {} is incomplete (being updated), its devices are not used",
                super::pool_id(p, world.table)
            ));
        } else if p.invalid {
            notes.push(format!(
                "pool {} is invalid (two devices with one name)",
                super::pool_id(p, world.table)
            ));
        }
    }
    if usable.is_empty() && notes.is_empty() {
        return "no ResourceSlice offers devices to this node".into();
    }
    let mut short: Vec<String> = Vec::new();
    for data in &cp.reqs {
        match request_text(&search, &cp.key, data, &usable) {
            Ok(Some(t)) => short.push(t),
            Ok(None) => {}
            Err(e) => return e,
        }
    }
    if short.is_empty() {
        let specs = cp.constraints.as_deref().unwrap_or(&[]);
        short.push(if specs.is_empty() {
            "each request has enough free devices, but not all of them together".into()
        } else {
            let attrs: Vec<&str> = specs.iter().map(|c| c.attribute.as_str()).collect();
            format!(
                "each request has enough free devices, but no choice of them has the same {} (matchAttribute)",
                attrs.join(", ")
            )
        });
    }
    short.extend(notes);
    short.join("; ")
}

/// A request's shortfall on the node, or `None` when it has enough free devices on its own.
fn request_text(
    search: &Search,
    ck: &str,
    data: &ReqData,
    usable: &[u32],
) -> Result<Option<String>, String> {
    let mut parts = Vec::with_capacity(data.subs.len());
    for req in &data.subs {
        let c = count(search, ck, req, usable)?;
        let enough = if req.all {
            c.matching > 0 && c.free == c.matching
        } else {
            c.free >= req.count
        };
        if enough {
            return Ok(None);
        }
        parts.push(sub_text(req, &c));
    }
    Ok(Some(if data.has_subs {
        format!(
            "request {}: none of its {} choices fits ({})",
            data.name,
            data.subs.len(),
            parts.join("; ")
        )
    } else {
        parts.join("")
    }))
}

/// What one (sub)request wants and what the node has.
fn sub_text(req: &Req, c: &Counts) -> String {
    let class = &req.class.metadata.name;
    let want = if req.all {
        format!("asks for all devices of class {class}")
    } else {
        format!("asks for {} device(s) of class {class}", req.count)
    };
    let have = if c.class == 0 {
        "the node has none".to_string()
    } else if c.matching == c.class {
        format!("the node has {}, {} free", c.class, c.free)
    } else {
        format!(
            "the node has {} of the class, {} matching the request's selectors, {} free",
            c.class, c.matching, c.free
        )
    };
    let have = if req.all && c.matching > c.free {
        format!("{have} (all must be free)")
    } else {
        have
    };
    format!("request {} {want}: {have}", req.result_name)
}

fn count(search: &Search, ck: &str, req: &Req, usable: &[u32]) -> Result<Counts, String> {
    let mut c = Counts::default();
    let class_only = Req {
        result_name: req.result_name.clone(),
        class: req.class.clone(),
        selectors: Vec::new(),
        rows: req.rows[..req.class.spec.selectors.len().min(req.rows.len())].to_vec(),
        all: req.all,
        all_slot: 0,
        count: req.count,
        admin: req.admin,
    };
    let key = || ck.to_string();
    for &d in usable {
        if !search.selectable(&key, &class_only, d)? {
            continue;
        }
        c.class += 1;
        if !search.selectable(&key, req, d)? {
            continue;
        }
        c.matching += 1;
        if req.admin || !(search.world.in_use)(search.world.table.keys[d as usize]) {
            c.free += 1;
        }
    }
    Ok(c)
}
