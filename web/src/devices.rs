//! Dynamic Resource Allocation as the page shows it: the devices each node's ResourceSlices
//! publish, free or held by a claim (and by which pods), for the node cards; and the devices a
//! pod's claims hold, for the cycle inspector's `assume`.
//!
//! Plain data from the core's cluster cache ([`Cluster::dra`]): no signals, no DOM.

use schedlab_core::model::dra::catalog::DeviceId;
use schedlab_core::model::dra::{DeviceAttribute, ResourceClaim};
use schedlab_core::simulation::{Cluster, PodId};
use std::collections::HashMap;

/// One device on a node card.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DeviceChip {
    /// `spec.driver` of its slice.
    pub driver: String,
    /// `spec.pool.name` of its slice.
    pub pool: String,
    /// The device's name.
    pub name: String,
    /// What it is in a word: its `model` (or `productName`, `type`) attribute, when it has one.
    pub label: Option<String>,
    /// Its attributes and capacity, `key=value` (for the tooltip).
    pub details: Vec<String>,
    /// The claim whose allocation holds it (`namespace/name`, `default/` left out); `None`
    /// when it is free.
    pub claim: Option<String>,
    /// The pods the claim is reserved for (short names), or the pod whose binding is writing
    /// it ([`DeviceChip::in_flight`]).
    pub pods: Vec<String>,
    /// Allocated at `assume`, the binding still in flight (not in `reservedFor` yet).
    pub in_flight: bool,
    /// Held with `adminAccess` (does not make the device unavailable).
    pub admin: bool,
    /// Published by a slice shared by several nodes (`nodeSelector` or `allNodes`): the same
    /// device is on the card of every node the slice reaches.
    #[serde(default)]
    pub shared: bool,
}

impl DeviceChip {
    /// `free`, `allocated` or `assumed`: the chip's CSS class and `data-state`.
    pub fn state(&self) -> &'static str {
        match (&self.claim, self.in_flight) {
            (None, _) => "free",
            (Some(_), true) => "assumed",
            (Some(_), false) => "allocated",
        }
    }

    /// The chip's tooltip: the device, its attributes, and who holds it.
    pub fn title(&self) -> String {
        let mut t = format!(
            "{} · driver {} · pool {}",
            self.name, self.driver, self.pool
        );
        if self.shared {
            t.push_str(" · shared by the nodes its slice selects");
        }
        for d in &self.details {
            t.push_str("\n  ");
            t.push_str(d);
        }
        match &self.claim {
            None => t.push_str("\nfree"),
            Some(c) => {
                t.push_str(&format!("\nallocated to claim {c}"));
                if self.admin {
                    t.push_str(" (adminAccess)");
                }
                if !self.pods.is_empty() {
                    let verb = if self.in_flight {
                        "assumed for pod"
                    } else {
                        "reserved for"
                    };
                    t.push_str(&format!(", {verb} {}", self.pods.join(", ")));
                }
            }
        }
        t
    }
}

/// Who holds a device: the claim, its pods, in flight, admin access.
type Holder = (String, Vec<String>, bool, bool);

/// `default/x` as `x`, as the page names pods.
fn short(namespace: &str, name: &str) -> String {
    if namespace == "default" {
        name.to_string()
    } else {
        format!("{namespace}/{name}")
    }
}

/// The holders of every allocated device, by device id.
fn holders(cluster: &Cluster) -> HashMap<DeviceId, Holder> {
    let dra = cluster.dra();
    let mut by_uid: Option<HashMap<&str, PodId>> = None;
    let mut out = HashMap::new();
    for e in dra.claims().iter().filter(|e| !e.deleted) {
        let c = &e.claim;
        let Some(allocation) = &c.status.allocation else {
            continue;
        };
        let ns = c.metadata.namespace_or_default();
        let mut pods: Vec<String> = c
            .status
            .reserved_for
            .iter()
            .map(|r| short(ns, &r.name))
            .collect();
        if let Some(uid) = &e.in_flight {
            let index = by_uid.get_or_insert_with(|| {
                cluster
                    .pods()
                    .iter()
                    .enumerate()
                    .map(|(i, p)| (p.pod.metadata.uid.as_str(), i))
                    .collect()
            });
            if let Some(&p) = index.get(uid.as_str()) {
                let info = &cluster.pods()[p];
                let name = short(&info.namespace, &info.pod.metadata.name);
                if !pods.contains(&name) {
                    pods.push(name);
                }
            }
        }
        let claim = short(ns, &c.metadata.name);
        for r in &allocation.devices.results {
            out.insert(
                (r.driver.clone(), r.pool.clone(), r.device.clone()),
                (
                    claim.clone(),
                    pods.clone(),
                    e.in_flight.is_some(),
                    r.admin_access == Some(true),
                ),
            );
        }
    }
    out
}

/// An attribute's value as text.
fn attribute_text(a: &DeviceAttribute) -> String {
    if let Some(s) = &a.string {
        s.clone()
    } else if let Some(n) = a.int {
        n.to_string()
    } else if let Some(b) = a.bool {
        b.to_string()
    } else {
        a.version.clone().unwrap_or_default()
    }
}

/// The attributes that say what a device is, first found first.
const LABELS: [&str; 3] = ["model", "productName", "type"];

/// The devices of every node (by node index, in cache order), slice by slice in input order:
/// those of the slices published for it by `nodeName`, and those of slices shared by a node
/// selector that matches it or by `allNodes` (on every card they reach, marked shared).
pub fn node_devices(cluster: &Cluster) -> Vec<Vec<DeviceChip>> {
    let mut out = vec![Vec::new(); cluster.nodes().len()];
    let dra = cluster.dra();
    if dra.slices().is_empty() {
        return out;
    }
    let holders = holders(cluster);
    for s in dra.slices() {
        let spec = &s.spec;
        let reached: Vec<usize> = if let Some(node) = spec.node_name.as_deref() {
            cluster
                .node_index()
                .get(node)
                .copied()
                .into_iter()
                .collect()
        } else if spec.all_nodes == Some(true) {
            (0..cluster.nodes().len()).collect()
        } else if let Some(sel) = &spec.node_selector {
            cluster
                .nodes()
                .iter()
                .enumerate()
                .filter(|(_, n)| sel.matches(n.labels(), n.name()))
                .map(|(i, _)| i)
                .collect()
        } else {
            Vec::new()
        };
        if reached.is_empty() {
            continue;
        }
        let shared = spec.node_name.is_none();
        for d in &spec.devices {
            let chip = device_chip(spec, d, &holders, shared);
            for &n in &reached {
                out[n].push(chip.clone());
            }
        }
    }
    out
}

/// One device of a slice, with who holds it.
fn device_chip(
    spec: &schedlab_core::model::dra::ResourceSliceSpec,
    d: &schedlab_core::model::dra::Device,
    holders: &HashMap<DeviceId, Holder>,
    shared: bool,
) -> DeviceChip {
    let id = (spec.driver.clone(), spec.pool.name.clone(), d.name.clone());
    let held = holders.get(&id);
    let label = LABELS.iter().find_map(|l| {
        d.attributes
            .iter()
            .find(|(k, _)| k.rsplit('/').next() == Some(l))
            .map(|(_, a)| attribute_text(a))
    });
    let details = d
        .attributes
        .iter()
        .map(|(k, a)| format!("{k}={}", attribute_text(a)))
        .chain(d.capacity.iter().map(|(k, c)| format!("{k}={}", c.value)))
        .collect();
    DeviceChip {
        driver: spec.driver.clone(),
        pool: spec.pool.name.clone(),
        name: d.name.clone(),
        label,
        details,
        claim: held.map(|h| h.0.clone()),
        pods: held.map(|h| h.1.clone()).unwrap_or_default(),
        in_flight: held.is_some_and(|h| h.2),
        admin: held.is_some_and(|h| h.3),
        shared,
    }
}

/// One claim of a pod and the devices its allocation holds.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ClaimDevices {
    /// The pod's name for the claim (`spec.resourceClaims[].name`).
    pub entry: String,
    /// The claim (`namespace/name`, `default/` left out).
    pub claim: String,
    /// What it asks for, in short: `gpus: 2 × gpu.example.com; matchAttribute
    /// gpu.example.com/model` (empty when the claim does not exist yet).
    pub asks: String,
    /// The allocated devices, a line per driver and pool (empty when not allocated).
    pub devices: Vec<String>,
}

/// The claims of `pod` (in `spec.resourceClaims` order) as `cluster` holds them, with their
/// allocated devices (none when a claim is not allocated, or not created yet).
pub fn pod_claim_devices(cluster: &Cluster, pod: PodId) -> Vec<ClaimDevices> {
    let Some(info) = cluster.pods().get(pod) else {
        return Vec::new();
    };
    let p = &info.pod;
    let ns = &info.namespace;
    p.spec
        .resource_claims
        .iter()
        .filter_map(|entry| {
            let name = entry.resource_claim_name.clone().or_else(|| {
                p.status
                    .resource_claim_statuses
                    .iter()
                    .find(|s| s.name == entry.name)
                    .and_then(|s| s.resource_claim_name.clone())
            })?;
            let claim = cluster.dra().claim(ns, &name).map(|e| &e.claim);
            Some(ClaimDevices {
                entry: entry.name.clone(),
                claim: short(ns, &name),
                asks: claim.map(|c| asks(c)).unwrap_or_default(),
                devices: claim.map(allocated).unwrap_or_default(),
            })
        })
        .collect()
}

/// `2 × CLASS`, `all × CLASS`, with `(N selectors)`.
fn amount(mode: &str, count: i64, class: &str, selectors: usize) -> String {
    let n = if mode == "All" {
        "all".to_string()
    } else {
        count.max(1).to_string()
    };
    match selectors {
        0 => format!("{n} × {class}"),
        1 => format!("{n} × {class} (1 selector)"),
        s => format!("{n} × {class} ({s} selectors)"),
    }
}

/// A claim's requests and constraints in short: `gpus: 2 × gpu.example.com; matchAttribute
/// gpu.example.com/model`, a prioritized list as `gpu: first of h100 1 × … | a100 1 × …`.
fn asks(c: &ResourceClaim) -> String {
    let d = &c.spec.devices;
    let requests = d
        .requests
        .iter()
        .map(|r| match (&r.exactly, &r.first_available) {
            (Some(e), _) => format!(
                "{}: {}",
                r.name,
                amount(
                    &e.allocation_mode,
                    e.count,
                    &e.device_class_name,
                    e.selectors.len()
                )
            ),
            (_, Some(subs)) => {
                let subs: Vec<String> = subs
                    .iter()
                    .map(|s| {
                        let a = amount(
                            &s.allocation_mode,
                            s.count,
                            &s.device_class_name,
                            s.selectors.len(),
                        );
                        format!("{} {a}", s.name)
                    })
                    .collect();
                format!("{}: first of {}", r.name, subs.join(" | "))
            }
            _ => r.name.clone(),
        });
    let constraints = d.constraints.iter().filter_map(|k| {
        let (word, attr) = match (&k.match_attribute, &k.distinct_attribute) {
            (Some(a), _) => ("matchAttribute", a),
            (_, Some(a)) => ("distinctAttribute", a),
            _ => return None,
        };
        Some(if k.requests.is_empty() {
            format!("{word} {attr}")
        } else {
            format!("{word} {attr} for {}", k.requests.join(", "))
        })
    });
    requests.chain(constraints).collect::<Vec<_>>().join("; ")
}

/// A claim's allocated devices, a line per driver and pool:
/// `gpu.example.com · a100-node: gpu-0 (gpus), gpu-1 (gpus)` (each device with the request, or
/// the `request/subrequest` of a prioritized list, that it was allocated for).
fn allocated(c: &std::sync::Arc<ResourceClaim>) -> Vec<String> {
    let mut pools: Vec<(String, String, Vec<String>)> = Vec::new();
    for r in c.status.allocation.iter().flat_map(|a| &a.devices.results) {
        let admin = if r.admin_access == Some(true) {
            ", adminAccess"
        } else {
            ""
        };
        let device = format!("{} ({}{admin})", r.device, r.request);
        match pools
            .iter_mut()
            .find(|(d, p, _)| *d == r.driver && *p == r.pool)
        {
            Some((_, _, list)) => list.push(device),
            None => pools.push((r.driver.clone(), r.pool.clone(), vec![device])),
        }
    }
    pools
        .into_iter()
        .map(|(driver, pool, list)| format!("{driver} · {pool}: {}", list.join(", ")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const NODES: &str = "kind: List\nitems:\n- {kind: Node, metadata: {name: n1, labels: {rack: r1}}}\n- {kind: Node, metadata: {name: n2, labels: {rack: r2}}}\n- {kind: Node, metadata: {name: n3, labels: {rack: r1}}}\n";
    const SLICES: &str = r#"apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: own}
spec: {driver: d.example.com, nodeName: n2, pool: {name: own, generation: 1, resourceSliceCount: 1}, devices: [{name: a}]}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: rack}
spec:
  driver: d.example.com
  nodeSelector: {nodeSelectorTerms: [{matchExpressions: [{key: rack, operator: In, values: [r1]}]}]}
  pool: {name: rack-r1, generation: 1, resourceSliceCount: 1}
  devices: [{name: b}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: everywhere}
spec: {driver: d.example.com, allNodes: true, pool: {name: all, generation: 1, resourceSliceCount: 1}, devices: [{name: c}]}
"#;

    #[test]
    fn shared_slices_show_on_every_node_they_reach() {
        let texts = [
            NODES.to_string(),
            String::new(),
            SLICES.to_string(),
            String::new(),
            "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
                .to_string(),
            String::new(),
        ];
        let scenario = crate::engine::host::load(&texts).expect("loads");
        let cards = node_devices(&scenario.cluster);
        let names = |n: usize| {
            cards[n]
                .iter()
                .map(|c| (c.name.as_str(), c.shared))
                .collect::<Vec<_>>()
        };
        // Slice by slice in input order: n1 and n3 are in rack r1, n2 has its own slice.
        assert_eq!(names(0), [("b", true), ("c", true)]);
        assert_eq!(names(1), [("a", false), ("c", true)]);
        assert_eq!(names(2), [("b", true), ("c", true)]);
        assert!(cards[0].iter().all(|c| c.state() == "free"));
        assert!(cards[0][0]
            .title()
            .contains("shared by the nodes its slice selects"));
    }
}
