//! A kube-scheduler-wasm-extension guest as a v1.35 plugin, run by `schedlab_guest`'s own
//! interpreter (so the same budget and results natively and in the browser).
//!
//! The guest's exports decide its points: `prefilter` PreFilter, `filter` Filter, `prescore`
//! PreScore, `score` Score (with `normalizescore` its NormalizeScore), `reserve` Reserve,
//! `permit` Permit, `prebind` PreBind. Its `postfilter`, `bind`, `postbind` and `enqueue`
//! exports are not called yet (docs/fidelity.md). Each cycle starts with `prefilter` (the
//! SDK clears its cached pod there), as the extension's host does. A trap, a call out of
//! fuel or a bad result is an `Error` status naming the plugin; the same input fails the
//! same way on every run (the fuel budget is fixed).

use super::super::plugin::{
    Cx, Plugin, PluginState, Point, Points, PreFilterOutput, PreScoreOutput,
};
use super::super::status::{Code, Status};
use super::CustomPlugin;
use crate::cluster::{NodeFacts, NodeInfo};
use crate::model::{Node, Pod};
use crate::sched::Reason;
use schedlab_guest::{Export, Guest, GuestConfig, GuestError, GuestNode, GuestPod, GuestStatus};
use std::sync::{Arc, Mutex, PoisonError};

/// A custom plugin made of a guest module's bytes: each profile that enables it loads its
/// own instance, with the `pluginConfig` args as the guest's config (`guestConfig`).
pub fn wasm_guest_plugin(name: &str, bytes: Arc<[u8]>) -> Result<CustomPlugin, String> {
    // Loaded once here to learn its exports (and to fail early on a bad module).
    let probe = Guest::load(&bytes, GuestConfig::default()).map_err(|e| e.to_string())?;
    let points = points_of(&probe);
    let plugin_name = name.to_string();
    Ok(CustomPlugin {
        name: name.to_string(),
        points,
        factory: Arc::new(move |args| {
            let config = GuestConfig {
                guest_config: args.map(|a| a.to_string()).unwrap_or_default(),
                ..GuestConfig::default()
            };
            let guest = Guest::load(&bytes, config).map_err(|e| e.to_string())?;
            Ok(Box::new(WasmGuest::new(&plugin_name, guest)) as Box<dyn Plugin>)
        }),
    })
}

/// The points a guest's exports give it.
fn points_of(guest: &Guest) -> Points {
    let table = [
        (Export::PreFilter, Point::PreFilter),
        (Export::Filter, Point::Filter),
        (Export::PreScore, Point::PreScore),
        (Export::Score, Point::Score),
        (Export::Reserve, Point::Reserve),
        (Export::Permit, Point::Permit),
        (Export::PreBind, Point::PreBind),
    ];
    let points: Vec<Point> = table
        .iter()
        .filter(|(e, _)| guest.has(*e))
        .map(|(_, p)| *p)
        .collect();
    Points::of(&points)
}

/// The guest and what it was last handed.
struct Loaded {
    guest: Guest,
    /// The addresses of the node facts of the snapshot it holds (compared, never read), to
    /// hand it a new one only when a node changed.
    snapshot_of: Vec<usize>,
    /// The cycle last checked (the pod's and the node order's addresses): the nodes are
    /// compared once a cycle, not at every call.
    checked: (usize, usize, usize),
}

fn address(facts: &NodeFacts) -> usize {
    facts as *const NodeFacts as usize
}

/// A guest plugin instance.
pub struct WasmGuest {
    name: &'static str,
    exports: Vec<Export>,
    loaded: Mutex<Loaded>,
}

/// Per-cycle state: the pod as protobuf bytes.
#[derive(Clone)]
struct CyclePod(Arc<Vec<u8>>);

impl WasmGuest {
    fn new(name: &str, guest: Guest) -> WasmGuest {
        WasmGuest {
            name: super::static_name(name),
            exports: guest.exports().to_vec(),
            loaded: Mutex::new(Loaded {
                guest,
                snapshot_of: Vec::new(),
                checked: (0, 0, 0),
            }),
        }
    }

    fn has(&self, e: Export) -> bool {
        self.exports.contains(&e)
    }

    /// The guest, with the cycle's nodes handed over when they changed.
    fn lock(&self, cx: &Cx) -> std::sync::MutexGuard<'_, Loaded> {
        let mut l = self.loaded.lock().unwrap_or_else(PoisonError::into_inner);
        let cycle = (
            cx.pod as *const _ as usize,
            cx.order.as_ptr() as usize,
            cx.order.len(),
        );
        if l.checked == cycle {
            return l;
        }
        l.checked = cycle;
        let nodes = cx.cluster.nodes();
        let same = l.snapshot_of.len() == nodes.len()
            && l.snapshot_of
                .iter()
                .zip(nodes)
                .all(|(p, n)| *p == address(n.facts()));
        if !same {
            let guest_nodes: Vec<GuestNode> =
                nodes.iter().map(|n| guest_node(n.object())).collect();
            l.guest.set_nodes(&guest_nodes);
            l.snapshot_of = nodes.iter().map(|n| address(n.facts())).collect();
        }
        l
    }

    /// The error status of a failed call.
    fn error(&self, e: &GuestError) -> Status {
        Status::new(
            Code::Error,
            Reason::Message(format!("{}: {e}", self.name).into()),
        )
    }
}

/// The pod bytes of the cycle: PreFilter's, else made now.
fn pod_bytes(cx: &Cx, state: Option<&dyn PluginState>) -> Arc<Vec<u8>> {
    match super::super::plugin::state::<CyclePod>(state) {
        Some(p) => Arc::clone(&p.0),
        None => Arc::new(guest_pod(&cx.pod.pod).to_protobuf()),
    }
}

/// A guest's status as the framework's.
fn status_of(s: &GuestStatus) -> Status {
    let code = match s.code {
        0 => return Status::success(),
        2 => Code::Unschedulable,
        3 => Code::UnschedulableAndUnresolvable,
        4 => Code::Wait,
        5 => return Status::skip(),
        6 => Code::Pending,
        _ => Code::Error,
    };
    Status::new(code, Reason::Message(s.reason.clone().into()))
}

impl Plugin for WasmGuest {
    fn name(&self) -> &'static str {
        self.name
    }

    fn pre_filter(&self, cx: &Cx) -> PreFilterOutput {
        let pod = Arc::new(guest_pod(&cx.pod.pod).to_protobuf());
        let mut l = self.lock(cx);
        let mut out = PreFilterOutput::with_state(CyclePod(Arc::clone(&pod)));
        if self.has(Export::PreFilter) {
            match l.guest.prefilter(&pod) {
                Ok(r) => {
                    out.status = status_of(&r.status);
                    out.nodes = r.node_names.map(|n| n.into_iter().collect());
                }
                Err(e) => out.status = self.error(&e),
            }
        }
        out
    }

    fn filter(
        &self,
        cx: &Cx,
        state: Option<&dyn PluginState>,
        node: &NodeInfo,
        reasons: &mut Vec<Reason>,
    ) -> Code {
        let pod = pod_bytes(cx, state);
        let mut l = self.lock(cx);
        let status = match l.guest.filter(&pod, node.name()) {
            Ok(s) => status_of(&s),
            Err(e) => self.error(&e),
        };
        reasons.extend(status.reasons);
        status.code
    }

    fn pre_score(&self, cx: &Cx, nodes: &[&NodeInfo]) -> PreScoreOutput {
        let pod = pod_bytes(cx, None);
        let names: Vec<String> = nodes.iter().map(|n| n.name().to_string()).collect();
        let mut l = self.lock(cx);
        let status = match l.guest.prescore(&pod, &names) {
            Ok(s) => status_of(&s),
            Err(e) => self.error(&e),
        };
        if status.code == Code::Skip {
            return PreScoreOutput::skip();
        }
        PreScoreOutput {
            status,
            state: Some(Box::new(CyclePod(pod))),
        }
    }

    fn score(
        &self,
        cx: &Cx,
        state: Option<&dyn PluginState>,
        node: &NodeInfo,
    ) -> Result<i64, String> {
        let pod = pod_bytes(cx, state);
        let mut l = self.lock(cx);
        match l.guest.score(&pod, node.name()) {
            Ok(r) if r.status.code == 0 => Ok(r.score),
            Ok(r) => Err(format!("{}: {}", self.name, r.status.reason)),
            Err(e) => Err(format!("{}: {e}", self.name)),
        }
    }

    fn normalizes(&self) -> bool {
        self.has(Export::NormalizeScore)
    }

    fn normalize(
        &self,
        cx: &Cx,
        state: Option<&dyn PluginState>,
        nodes: &[&NodeInfo],
        scores: &mut [i64],
    ) {
        if !self.has(Export::NormalizeScore) {
            return;
        }
        let pod = pod_bytes(cx, state);
        let list: Vec<(String, i64)> = nodes
            .iter()
            .zip(scores.iter())
            .map(|(n, s)| (n.name().to_string(), *s))
            .collect();
        let mut l = self.lock(cx);
        // A failed normalize keeps the raw scores (the framework's Score error path is not
        // reachable from NormalizeScore here).
        if let Ok(r) = l.guest.normalize_score(&pod, &list) {
            if r.status.code == 0 {
                for (slot, (name, _)) in scores.iter_mut().zip(&list) {
                    if let Some((_, s)) = r.scores.iter().find(|(n, _)| n == name) {
                        *slot = *s;
                    }
                }
            }
        }
    }

    fn reserve(&self, cx: &Cx, state: Option<&dyn PluginState>, node: &NodeInfo) -> Status {
        self.node_call(cx, state, node, |g, pod, n| g.reserve(pod, n))
    }

    fn permit(&self, cx: &Cx, state: Option<&dyn PluginState>, node: &NodeInfo) -> Status {
        self.node_call(cx, state, node, |g, pod, n| {
            g.permit(pod, n).map(|r| r.status)
        })
    }

    fn pre_bind(&self, cx: &Cx, state: Option<&dyn PluginState>, node: &NodeInfo) -> Status {
        self.node_call(cx, state, node, |g, pod, n| g.prebind(pod, n))
    }
}

impl WasmGuest {
    /// A call that takes the pod and a node name and answers a status.
    fn node_call(
        &self,
        cx: &Cx,
        state: Option<&dyn PluginState>,
        node: &NodeInfo,
        call: impl FnOnce(&mut Guest, &[u8], &str) -> Result<GuestStatus, GuestError>,
    ) -> Status {
        let pod = pod_bytes(cx, state);
        let mut l = self.lock(cx);
        match call(&mut l.guest, &pod, node.name()) {
            Ok(s) => status_of(&s),
            Err(e) => self.error(&e),
        }
    }
}

/// `name → quantity` pairs of a resource list, as Kubernetes writes it.
fn quantities<T: serde::Serialize>(list: &T) -> Vec<(String, String)> {
    match serde_json::to_value(list) {
        Ok(serde_json::Value::Object(m)) => m
            .into_iter()
            .map(|(k, v)| (k, v.as_str().map_or_else(|| v.to_string(), str::to_string)))
            .collect(),
        _ => Vec::new(),
    }
}

fn pairs<'a>(m: impl IntoIterator<Item = (&'a String, &'a String)>) -> Vec<(String, String)> {
    m.into_iter().map(|(k, v)| (k.clone(), v.clone())).collect()
}

/// A pod as the guest reads it.
fn guest_pod(pod: &Pod) -> GuestPod {
    let container = |c: &crate::model::pod::Container| schedlab_guest::GuestContainer {
        name: c.name.clone(),
        image: c.image.clone(),
        requests: quantities(&c.resources.requests),
        limits: quantities(&c.resources.limits),
    };
    GuestPod {
        name: pod.metadata.name.clone(),
        namespace: pod.metadata.namespace_or_default().to_string(),
        uid: pod.metadata.uid.clone(),
        labels: pairs(pod.metadata.labels.iter()),
        annotations: pairs(pod.metadata.annotations.iter()),
        containers: pod.spec.containers.iter().map(container).collect(),
        init_containers: pod.spec.init_containers.iter().map(container).collect(),
        node_selector: pairs(pod.spec.node_selector.iter()),
        node_name: pod.spec.node_name.clone(),
        scheduler_name: pod.spec.scheduler_name.clone(),
        tolerations: pod
            .spec
            .tolerations
            .iter()
            .map(|t| schedlab_guest::GuestToleration {
                key: t.key.clone(),
                operator: t.operator.clone(),
                value: t.value.clone(),
                effect: t.effect.clone(),
                toleration_seconds: None,
            })
            .collect(),
        priority: pod.spec.priority,
        phase: pod.status.phase.clone(),
        nominated_node_name: pod.status.nominated_node_name.clone().unwrap_or_default(),
        ..GuestPod::default()
    }
}

/// A node as the guest reads it.
fn guest_node(node: &Node) -> GuestNode {
    GuestNode {
        name: node.metadata.name.clone(),
        uid: node.metadata.uid.clone(),
        labels: pairs(node.metadata.labels.iter()),
        annotations: pairs(node.metadata.annotations.iter()),
        unschedulable: node.spec.unschedulable,
        taints: node
            .spec
            .taints
            .iter()
            .map(|t| schedlab_guest::GuestTaint {
                key: t.key.clone(),
                value: t.value.clone(),
                effect: t.effect.clone(),
            })
            .collect(),
        capacity: node
            .status
            .capacity
            .as_ref()
            .map(quantities)
            .unwrap_or_default(),
        allocatable: node
            .status
            .allocatable
            .as_ref()
            .map(quantities)
            .unwrap_or_default(),
        images: node
            .status
            .images
            .iter()
            .map(|i| schedlab_guest::GuestImage {
                names: i.names.clone(),
                size_bytes: i.size_bytes,
            })
            .collect(),
    }
}
