//! A plugin written in a host's language (JavaScript in the page and the JS API): the host
//! implements [`ScriptPlugin`] over plain JSON, and this adapter makes it a v1.35 plugin.
//!
//! What a script sees: the pod as Kubernetes writes it, and each node as its object with
//! `requested` (what its pods ask for, as a resource list) and `pods` (`namespace/name` of
//! the pods on it). Nothing else (no wall clock): results stay deterministic. A script that
//! throws, or answers garbage, is an `Error` status naming the plugin.

use super::super::plugin::{Cx, Plugin, PluginState, Points};
use super::super::status::Code;
use super::CustomPlugin;
use crate::cluster::NodeInfo;
use crate::sched::Reason;
use serde_json::{json, Value};
use std::sync::Arc;

/// A Filter answer: upstream's code name (`Success`, `Unschedulable`,
/// `UnschedulableAndUnresolvable`, `Error`) and its reasons.
pub type ScriptStatus = (String, Vec<String>);

/// A pod or a node as a script reads it, made only when asked ([`ScriptObject::json`]), with a
/// key that names this very state of it: a host may keep what it made of the JSON for a key
/// (a node's key changes with any change to the node; a pod's is the object's).
pub struct ScriptObject<'a> {
    key: (u64, u64),
    make: &'a dyn Fn() -> Value,
}

impl ScriptObject<'_> {
    /// Names this state of the object: equal keys, equal JSON (within one run).
    pub fn key(&self) -> (u64, u64) {
        self.key
    }

    /// The object as JSON.
    pub fn json(&self) -> Value {
        (self.make)()
    }
}

/// What a host-language plugin implements. Err: the message of an `Error` status.
pub trait ScriptPlugin: Send + Sync {
    /// The extension points it implements (Filter, Score).
    fn points(&self) -> Points;
    /// Filter: the pod on `node`.
    fn filter(&self, pod: &ScriptObject, node: &ScriptObject) -> Result<ScriptStatus, String>;
    /// Score: the node's raw score.
    fn score(&self, pod: &ScriptObject, node: &ScriptObject) -> Result<i64, String>;
    /// Whether it normalizes its scores.
    fn normalizes(&self) -> bool;
    /// NormalizeScore: the scores of the cycle (node name, score), changed in place.
    fn normalize(&self, pod: &ScriptObject, scores: &mut [(String, i64)]) -> Result<(), String>;
}

/// Makes a script's instance for a profile from its `pluginConfig` args.
pub type ScriptFactory =
    dyn Fn(Option<&Value>) -> Result<Arc<dyn ScriptPlugin>, String> + Send + Sync;

/// A custom plugin made of a script; `build` makes one per profile from its
/// `pluginConfig` args.
pub fn script_plugin(name: &str, points: Points, build: Arc<ScriptFactory>) -> CustomPlugin {
    let plugin_name = name.to_string();
    CustomPlugin {
        name: name.to_string(),
        points,
        factory: Arc::new(move |args| {
            let script = build(args)?;
            Ok(Box::new(Scripted {
                name: super::static_name(&plugin_name),
                script,
            }) as Box<dyn Plugin>)
        }),
    }
}

struct Scripted {
    name: &'static str,
    script: Arc<dyn ScriptPlugin>,
}

/// The pod as the script reads it.
fn pod_json(cx: &Cx) -> Value {
    serde_json::to_value(&*cx.pod.pod).unwrap_or(Value::Null)
}

/// The key of the cycle's pod: its object's address and its input index (a pod's object is
/// not changed while it waits to be scheduled).
fn pod_key(cx: &Cx) -> (u64, u64) {
    let object: &crate::model::Pod = &cx.pod.pod;
    (
        std::ptr::from_ref(object) as usize as u64,
        cx.pod.input_index as u64,
    )
}

/// Calls `f` with the cycle's pod and `node` as a script reads them (made when asked).
fn with_objects<R>(
    cx: &Cx,
    node: &NodeInfo,
    f: impl FnOnce(&ScriptObject, &ScriptObject) -> R,
) -> R {
    let (make_pod, make_node) = (|| pod_json(cx), || node_json(cx, node));
    f(
        &ScriptObject {
            key: pod_key(cx),
            make: &make_pod,
        },
        &ScriptObject {
            key: node_key(node),
            make: &make_node,
        },
    )
}

/// The key of a node's state: its id and its count of changes.
fn node_key(node: &NodeInfo) -> (u64, u64) {
    (node.id() as u64, node.changes())
}

/// A node as the script reads it.
fn node_json(cx: &Cx, node: &NodeInfo) -> Value {
    let mut v = serde_json::to_value(node.object()).unwrap_or(Value::Null);
    let pods: Vec<String> = node
        .pods()
        .iter()
        .map(|&p| cx.cluster.pods()[p].full_name.clone())
        .collect();
    if let Value::Object(m) = &mut v {
        m.insert(
            "requested".into(),
            json!({
                "cpu": format!("{}m", node.requested().milli_cpu),
                "memory": node.requested().memory.to_string(),
                "pods": pods.len().to_string(),
            }),
        );
        m.insert("pods".into(), json!(pods));
    }
    v
}

impl Plugin for Scripted {
    fn name(&self) -> &'static str {
        self.name
    }

    fn filter(
        &self,
        cx: &Cx,
        _state: Option<&dyn PluginState>,
        node: &NodeInfo,
        reasons: &mut Vec<Reason>,
    ) -> Code {
        let answer = with_objects(cx, node, |pod, node| self.script.filter(pod, node));
        let (code, texts) = match answer {
            Ok((code, texts)) => match code.as_str() {
                "Success" | "" => return Code::Success,
                "Unschedulable" => (Code::Unschedulable, texts),
                "UnschedulableAndUnresolvable" => (Code::UnschedulableAndUnresolvable, texts),
                "Error" => (Code::Error, texts),
                other => (
                    Code::Error,
                    vec![format!(
                        "{}: filter returned the unknown code {other:?}",
                        self.name
                    )],
                ),
            },
            Err(e) => (Code::Error, vec![format!("{}: {e}", self.name)]),
        };
        reasons.extend(texts.into_iter().map(|t| Reason::Message(t.into())));
        code
    }

    fn score(
        &self,
        cx: &Cx,
        _state: Option<&dyn PluginState>,
        node: &NodeInfo,
    ) -> Result<i64, String> {
        with_objects(cx, node, |pod, node| self.script.score(pod, node))
            .map_err(|e| format!("{}: {e}", self.name))
    }

    fn normalizes(&self) -> bool {
        self.script.normalizes()
    }

    fn normalize(
        &self,
        cx: &Cx,
        _state: Option<&dyn PluginState>,
        nodes: &[&NodeInfo],
        scores: &mut [i64],
    ) {
        let mut list: Vec<(String, i64)> = nodes
            .iter()
            .zip(scores.iter())
            .map(|(n, s)| (n.name().to_string(), *s))
            .collect();
        // A failed normalize keeps the raw scores.
        let make_pod = || pod_json(cx);
        let pod = ScriptObject {
            key: pod_key(cx),
            make: &make_pod,
        };
        if self.script.normalize(&pod, &mut list).is_ok() {
            for (slot, (_, s)) in scores.iter_mut().zip(list) {
                *slot = s;
            }
        }
    }
}
