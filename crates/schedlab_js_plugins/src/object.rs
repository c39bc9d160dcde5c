//! A JavaScript plugin: an object with `filter(pod, node)`,
//! `score(pod, node)` and `normalizeScore(pod, scores)` (any of them), or a factory function
//! that takes the plugin's `pluginConfig.args` and returns such an object. They run
//! synchronously inside the run, on the thread that made them (so results stay
//! deterministic); see `schedlab_core`'s `ScriptPlugin` for what they are handed.
//!
//! `filter` returns nothing (or `true`) for Success, a string for Unschedulable with that
//! reason, or `{code, reasons}` (`code`: `Unschedulable`, `UnschedulableAndUnresolvable`,
//! `Error`). `score` returns a number. `normalizeScore` gets `[{node, score}]` and returns the
//! new scores as an array of numbers (or changes the `score`s in place). A plugin that throws is
//! an `Error` status naming it. The pod and nodes a plugin is handed are frozen and shared
//! between its calls (a node is made again once it changed).

use js_sys::{Array, Function, Object, Reflect};
use schedlab_core::scheduler::v1_35::{
    script_plugin, CustomPlugin, Point, Points, ScriptObject, ScriptPlugin, ScriptStatus,
};
use send_wrapper::SendWrapper;
use serde_json::Value;
use std::cell::RefCell;
use std::sync::Arc;
use wasm_bindgen::{JsCast, JsValue};

/// Nodes (by id) whose objects are kept between calls; a node past them is made per call.
const MAX_CACHED_NODES: usize = 1 << 20;

/// One instance: the object, its methods, and the JavaScript objects made for the pods and
/// nodes it was handed, by their keys ([`ScriptObject::key`]): a node is made again only
/// once it changed (kept by node id). They are frozen, deeply: a plugin cannot change what the next call sees.
struct JsPlugin {
    object: SendWrapper<Object>,
    filter: Option<SendWrapper<Function>>,
    score: Option<SendWrapper<Function>>,
    normalize: Option<SendWrapper<Function>>,
    pod: SendWrapper<RefCell<Option<KeptPod>>>,
    nodes: SendWrapper<RefCell<Vec<Option<KeptNode>>>>,
    freeze: SendWrapper<Option<Function>>,
}

/// The pod made last: its key and its object.
type KeptPod = ((u64, u64), JsValue);
/// A node's object and the count of changes it was made at.
type KeptNode = (u64, JsValue);

/// A function that freezes an object and everything in it (`None`: the engine has no
/// `Function` constructor, and objects are handed unfrozen).
fn deep_freeze() -> Option<Function> {
    let constructor = Reflect::get(&js_sys::global(), &"Function".into())
        .ok()?
        .dyn_into::<Function>()
        .ok()?;
    let body = "const f = (o) => { if (o && typeof o === 'object' && !Object.isFrozen(o)) { Object.freeze(o); for (const k of Object.keys(o)) f(o[k]); } return o; }; return f(v);";
    Reflect::construct(&constructor, &Array::of2(&"v".into(), &body.into()))
        .ok()?
        .dyn_into::<Function>()
        .ok()
}

fn method(object: &Object, name: &str) -> Option<SendWrapper<Function>> {
    Reflect::get(object, &name.into())
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
        .map(SendWrapper::new)
}

impl JsPlugin {
    fn new(object: Object) -> JsPlugin {
        JsPlugin {
            filter: method(&object, "filter"),
            score: method(&object, "score"),
            normalize: method(&object, "normalizeScore"),
            object: SendWrapper::new(object),
            pod: SendWrapper::new(RefCell::new(None)),
            nodes: SendWrapper::new(RefCell::new(Vec::new())),
            freeze: SendWrapper::new(deep_freeze()),
        }
    }

    fn points(&self) -> Points {
        let mut points = Vec::new();
        if self.filter.is_some() {
            points.push(Point::Filter);
        }
        if self.score.is_some() {
            points.push(Point::Score);
        }
        Points::of(&points)
    }

    /// A pod or node as a frozen JavaScript object.
    fn made(&self, object: &ScriptObject) -> JsValue {
        let value = js(&object.json());
        match &*self.freeze {
            Some(f) => f.call1(&JsValue::UNDEFINED, &value).unwrap_or(value),
            None => value,
        }
    }

    /// Makes the cycle's pod, once per pod.
    fn keep_pod(&self, pod: &ScriptObject) {
        let kept = self
            .pod
            .borrow()
            .as_ref()
            .is_some_and(|(k, _)| *k == pod.key());
        if !kept {
            let value = self.made(pod);
            *self.pod.borrow_mut() = Some((pod.key(), value));
        }
    }

    /// Makes a node's object again only once the node changed; `Some`: a node past
    /// [`MAX_CACHED_NODES`], made for this call alone.
    fn keep_node(&self, node: &ScriptObject) -> Option<JsValue> {
        let (id, changes) = node.key();
        let Ok(slot) = usize::try_from(id) else {
            return Some(self.made(node));
        };
        if slot >= MAX_CACHED_NODES {
            return Some(self.made(node));
        }
        let kept = self
            .nodes
            .borrow()
            .get(slot)
            .is_some_and(|s| s.as_ref().is_some_and(|(c, _)| *c == changes));
        if !kept {
            let value = self.made(node);
            let mut nodes = self.nodes.borrow_mut();
            if nodes.len() <= slot {
                nodes.resize_with(slot + 1, || None);
            }
            nodes[slot] = Some((changes, value));
        }
        None
    }

    /// Calls `f` with the pod and the node (each made once per key: the objects cross by
    /// reference); a throw is its message.
    fn call_on_node(
        &self,
        f: &Function,
        name: &str,
        pod: &ScriptObject,
        node: &ScriptObject,
    ) -> Result<JsValue, String> {
        self.keep_pod(pod);
        let fresh = self.keep_node(node);
        let undefined = JsValue::UNDEFINED;
        let kept_pod = self.pod.borrow();
        let pod_value = kept_pod.as_ref().map_or(&undefined, |(_, v)| v);
        let nodes = self.nodes.borrow();
        let node_value = match &fresh {
            Some(v) => v,
            None => usize::try_from(node.key().0)
                .ok()
                .and_then(|i| nodes.get(i))
                .and_then(Option::as_ref)
                .map_or(&undefined, |(_, v)| v),
        };
        f.call2(&self.object, pod_value, node_value)
            .map_err(|e| thrown(name, &e))
    }
}

/// What a thrown value says.
pub(crate) fn thrown(method: &str, e: &JsValue) -> String {
    let message = Reflect::get(e, &"message".into())
        .ok()
        .and_then(|m| m.as_string())
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "a value that is not an Error".into());
    format!("{method} threw: {message}")
}

/// A JSON value as a JavaScript one.
pub(crate) fn js(v: &Value) -> JsValue {
    js_sys::JSON::parse(&v.to_string()).unwrap_or(JsValue::NULL)
}

impl ScriptPlugin for JsPlugin {
    fn points(&self) -> Points {
        JsPlugin::points(self)
    }

    fn filter(&self, pod: &ScriptObject, node: &ScriptObject) -> Result<ScriptStatus, String> {
        let Some(f) = &self.filter else {
            return Ok(("Success".into(), Vec::new()));
        };
        let r = self.call_on_node(f, "filter", pod, node)?;
        if r.is_undefined() || r.is_null() || r.as_bool() == Some(true) {
            return Ok(("Success".into(), Vec::new()));
        }
        if let Some(reason) = r.as_string() {
            return Ok(("Unschedulable".into(), vec![reason]));
        }
        if r.is_object() {
            let code = Reflect::get(&r, &"code".into())
                .ok()
                .and_then(|c| c.as_string())
                .unwrap_or_else(|| "Unschedulable".into());
            let reasons = Reflect::get(&r, &"reasons".into())
                .ok()
                .filter(Array::is_array)
                .map(|x| {
                    Array::from(&x)
                        .iter()
                        .map(|s| s.as_string().unwrap_or_else(|| format!("{s:?}")))
                        .collect()
                })
                .unwrap_or_default();
            return Ok((code, reasons));
        }
        Err(format!(
            "filter returned {}: expected nothing, a reason or {{code, reasons}}",
            js_sys::JSON::stringify(&r)
                .ok()
                .and_then(|s| s.as_string())
                .unwrap_or_default()
        ))
    }

    fn score(&self, pod: &ScriptObject, node: &ScriptObject) -> Result<i64, String> {
        let Some(f) = &self.score else {
            return Ok(0);
        };
        let r = self.call_on_node(f, "score", pod, node)?;
        match r.as_f64() {
            Some(n) if n.is_finite() && n.fract() == 0.0 && n.abs() <= 9.0e15 => Ok(n as i64),
            _ => Err(format!(
                "score returned {}: expected a whole number",
                js_sys::JSON::stringify(&r)
                    .ok()
                    .and_then(|s| s.as_string())
                    .unwrap_or_default()
            )),
        }
    }

    fn normalizes(&self) -> bool {
        self.normalize.is_some()
    }

    fn normalize(&self, pod: &ScriptObject, scores: &mut [(String, i64)]) -> Result<(), String> {
        let Some(f) = &self.normalize else {
            return Ok(());
        };
        let list: Array = scores
            .iter()
            .map(|(n, s)| {
                let o = Object::new();
                let _ = Reflect::set(&o, &"node".into(), &n.into());
                let _ = Reflect::set(&o, &"score".into(), &(*s as f64).into());
                JsValue::from(o)
            })
            .collect();
        self.keep_pod(pod);
        let r = {
            let kept = self.pod.borrow();
            let undefined = JsValue::UNDEFINED;
            let pod_value = kept.as_ref().map_or(&undefined, |(_, v)| v);
            f.call2(&self.object, pod_value, &list)
                .map_err(|e| thrown("normalizeScore", &e))?
        };
        let values: Vec<JsValue> = if Array::is_array(&r) {
            Array::from(&r).iter().collect()
        } else {
            list.iter()
                .map(|o| Reflect::get(&o, &"score".into()).unwrap_or(JsValue::UNDEFINED))
                .collect()
        };
        for ((_, slot), v) in scores.iter_mut().zip(values) {
            if let Some(n) = v.as_f64().filter(|n| n.is_finite()) {
                *slot = n as i64;
            }
        }
        Ok(())
    }
}

/// A JavaScript plugin from the `plugins` option's value: an object, or a factory function
/// (called with the plugin's args, `undefined` without any). Err: why it cannot be one.
pub fn js_plugin(name: &str, value: &JsValue) -> Result<CustomPlugin, String> {
    let value = SendWrapper::new(value.clone());
    let build = move |args: Option<&Value>| -> Result<Arc<dyn ScriptPlugin>, String> {
        let object = match value.dyn_ref::<Function>() {
            Some(factory) => factory
                .call1(&JsValue::UNDEFINED, &args.map_or(JsValue::UNDEFINED, js))
                .map_err(|e| thrown("the factory", &e))?,
            None => (*value).clone(),
        };
        let object: Object = object
            .dyn_into()
            .map_err(|_| "the factory returned no object".to_string())?;
        Ok(Arc::new(JsPlugin::new(object)))
    };
    let points = build(None)?.points();
    if points == Points::NONE {
        return Err("a plugin object needs a filter or a score method".into());
    }
    Ok(script_plugin(name, points, Arc::new(build)))
}
