//! The JSON of `k8s.io/kube-scheduler/extender/v1`, as Go's `encoding/json` writes and reads
//! it: the structs have no JSON tags, so the keys are the Go field names (`Pod`, `NodeNames`,
//! `Host`, `Score`), nil pointers and maps are `null`, and a reply's keys match those names
//! ignoring case (`{"host": "n1", "score": 3}` is read as upstream reads it). Unknown keys in a
//! reply are ignored; a value of the wrong type is an error in Go's words.

use super::Extender;
use crate::cluster::{NodeId, NodeInfo, PodInfo};
use crate::model::Pod;
use serde_json::{json, Map, Value};

/// A node in a reply: a cluster node id (mock answers) or a name to look up (decoded text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum NodeRef {
    /// A node of the cluster.
    Id(NodeId),
    /// A node name as the reply spells it.
    Name(String),
}

/// `ExtenderFilterResult`.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct FilterReply {
    /// `Nodes` (the names of its items); `None` when `null`.
    pub nodes: Option<Vec<NodeRef>>,
    /// `NodeNames`; `None` when `null`.
    pub node_names: Option<Vec<NodeRef>>,
    /// `FailedNodes`: node → message, in key order.
    pub failed: Vec<(NodeRef, String)>,
    /// `FailedAndUnresolvableNodes` (read by v1.35 only).
    pub failed_unresolvable: Vec<(NodeRef, String)>,
    /// `Error`.
    pub error: String,
}

/// `HostPriorityList`: (host, score) in reply order.
pub(crate) type PriorityReply = Vec<(NodeRef, i64)>;

/// `MetaVictims`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct MetaVictims {
    /// `Pods[].UID` (`None` for a `null` entry).
    pub pods: Vec<Option<String>>,
    /// `NumPDBViolations`.
    pub num_pdb_violations: i64,
}

/// `ExtenderPreemptionResult.NodeNameToMetaVictims`: node → victims (`None`: a `null`
/// value), in key order; `None` when the map is `null`.
pub(crate) type PreemptReply = Option<Vec<(String, Option<MetaVictims>)>>;

/// `ExtenderBindingResult.Error`.
pub(crate) type BindReply = String;

/// The pod's UID: `metadata.uid`, or one made from its namespace and name (the same on every
/// run and platform) when the input has none.
pub(crate) fn uid_of(pod: &Pod) -> String {
    if !pod.metadata.uid.is_empty() {
        return pod.metadata.uid.clone();
    }
    // FNV-1a, 128 bits, over "namespace/name", printed as a UUID.
    let mut h: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    let key = format!(
        "{}/{}",
        pod.metadata.namespace_or_default(),
        pod.metadata.name
    );
    for b in key.bytes() {
        h ^= u128::from(b);
        h = h.wrapping_mul(0x0000_0000_0100_0000_0000_0000_0000_013b);
    }
    let hex = format!("{h:032x}");
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

/// The `v1.Pod` an extender receives (with its UID).
pub(crate) fn pod_object(pod: &Pod) -> Value {
    let mut v = serde_json::to_value(pod).unwrap_or(Value::Null);
    if let Some(meta) = v.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.insert("uid".into(), uid_of(pod).into());
        meta.entry("namespace")
            .or_insert_with(|| pod.metadata.namespace_or_default().into());
    }
    v
}

/// The `v1.Node` an extender receives.
pub(crate) fn node_object(node: &NodeInfo) -> Value {
    serde_json::to_value(node.object()).unwrap_or(Value::Null)
}

/// `ExtenderArgs` (the filter and prioritize body): `Nodes` as a `NodeList` or `NodeNames`,
/// by `nodeCacheCapable`, the other `null`.
pub(crate) fn node_args(ext: &Extender, pod: &Pod, nodes: &[&NodeInfo]) -> String {
    let (list, names) = if ext.node_cache_capable {
        let names: Vec<&str> = nodes.iter().map(|n| n.name()).collect();
        (Value::Null, json!(names))
    } else {
        let items: Vec<Value> = nodes.iter().map(|n| node_object(n)).collect();
        (json!({"metadata": {}, "items": items}), Value::Null)
    };
    // Field order as Go writes it: Pod, Nodes, NodeNames.
    let mut m = Map::new();
    m.insert("Pod".into(), pod_object(pod));
    m.insert("Nodes".into(), list);
    m.insert("NodeNames".into(), names);
    Value::Object(m).to_string()
}

/// One node's victims as preemption offers them.
pub(crate) struct OfferedVictims<'a> {
    /// The node's name.
    pub node: &'a str,
    /// The victims.
    pub pods: Vec<&'a PodInfo>,
    /// `NumPDBViolations`.
    pub num_pdb_violations: i64,
}

/// `ExtenderPreemptionArgs`: `NodeNameToVictims` (whole pods) or, when `nodeCacheCapable`,
/// `NodeNameToMetaVictims` (UIDs), the other `null`. Go writes map keys sorted.
pub(crate) fn preempt_args(ext: &Extender, pod: &Pod, offered: &[OfferedVictims]) -> String {
    let mut by_node: Vec<&OfferedVictims> = offered.iter().collect();
    by_node.sort_by(|a, b| a.node.cmp(b.node));
    let mut victims = Map::new();
    for o in by_node {
        let pods: Vec<Value> = o
            .pods
            .iter()
            .map(|p| {
                if ext.node_cache_capable {
                    json!({"UID": uid_of(&p.pod)})
                } else {
                    pod_object(&p.pod)
                }
            })
            .collect();
        victims.insert(
            o.node.to_string(),
            json!({"Pods": pods, "NumPDBViolations": o.num_pdb_violations}),
        );
    }
    let (full, meta) = if ext.node_cache_capable {
        (Value::Null, Value::Object(victims))
    } else {
        (Value::Object(victims), Value::Null)
    };
    let mut m = Map::new();
    m.insert("Pod".into(), pod_object(pod));
    m.insert("NodeNameToVictims".into(), full);
    m.insert("NodeNameToMetaVictims".into(), meta);
    Value::Object(m).to_string()
}

/// `ExtenderBindingArgs`.
pub(crate) fn bind_args(pod: &Pod, node: &str) -> String {
    let mut m = Map::new();
    m.insert("PodName".into(), pod.metadata.name.clone().into());
    m.insert(
        "PodNamespace".into(),
        pod.metadata.namespace_or_default().into(),
    );
    m.insert("PodUID".into(), uid_of(pod).into());
    m.insert("Node".into(), node.into());
    Value::Object(m).to_string()
}

// ---- replies ----------------------------------------------------------------------------

/// How Go's decoder names a JSON value's kind in a type error.
fn kind(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(_) => "bool".into(),
        Value::Number(n) => format!("number {n}"),
        Value::String(_) => "string".into(),
        Value::Array(_) => "array".into(),
        Value::Object(_) => "object".into(),
    }
}

fn type_error(v: &Value, at: &str, go_type: &str) -> String {
    format!(
        "json: cannot unmarshal {} into Go struct field {at} of type {go_type}",
        kind(v)
    )
}

/// The first JSON value of `body`, as `json.Decoder.Decode` reads it (what follows it is not
/// read), or Go's error text.
fn first_value(body: &str) -> Result<Value, String> {
    let trimmed = body.trim_start_matches([' ', '\t', '\n', '\r']);
    let Some(c) = trimmed.chars().next() else {
        return Err("EOF".into());
    };
    if !matches!(c, '{' | '[' | '"' | '-' | '0'..='9' | 't' | 'f' | 'n') {
        return Err(format!(
            "invalid character {} looking for beginning of value",
            go_rune(c)
        ));
    }
    if let Some(error) = literal_error(trimmed) {
        return Err(error);
    }
    match serde_json::Deserializer::from_str(trimmed)
        .into_iter::<Value>()
        .next()
    {
        Some(Ok(v)) => Ok(v),
        Some(Err(e)) if e.is_eof() => Err("unexpected EOF".into()),
        Some(Err(e)) => Err(format!("invalid JSON: {e}")),
        None => Err("EOF".into()),
    }
}

/// Go's scanner error for a bare word that is not the literal its first letter starts
/// (`not json`: ``invalid character 'o' in literal null (expecting 'u')``).
fn literal_error(text: &str) -> Option<String> {
    let literal = match text.chars().next()? {
        't' => "true",
        'f' => "false",
        'n' => "null",
        _ => return None,
    };
    let mut chars = text.chars();
    for expected in literal.chars() {
        match chars.next() {
            None => return Some("unexpected EOF".into()),
            Some(c) if c != expected => {
                return Some(format!(
                    "invalid character {} in literal {literal} (expecting {})",
                    go_rune(c),
                    go_rune(expected)
                ))
            }
            Some(_) => {}
        }
    }
    None
}

/// Go's `%q` of a rune: `'h'`, `'\n'`.
fn go_rune(c: char) -> String {
    match c {
        '\'' => "'\\''".into(),
        c if c.is_control() => format!("'{}'", c.escape_default()),
        c => format!("'{c}'"),
    }
}

/// The field `name` of a reply object: the last key equal to it ignoring case, as Go's
/// decoder sets the field once per matching key, in document order.
fn key<'a>(o: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
    o.iter()
        .rev()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v)
}

/// A reply that must be an object (or `null`, the zero value).
fn object<'a>(v: &'a Value, go_type: &str) -> Result<Option<&'a Map<String, Value>>, String> {
    match v {
        Value::Null => Ok(None),
        Value::Object(o) => Ok(Some(o)),
        other => Err(format!(
            "json: cannot unmarshal {} into Go value of type {go_type}",
            kind(other)
        )),
    }
}

fn string_of(v: Option<&Value>, at: &str) -> Result<String, String> {
    match v {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(other) => Err(type_error(other, at, "string")),
    }
}

fn int_of(v: Option<&Value>, at: &str) -> Result<i64, String> {
    match v {
        None | Some(Value::Null) => Ok(0),
        Some(n @ Value::Number(num)) => num.as_i64().ok_or_else(|| type_error(n, at, "int64")),
        Some(other) => Err(type_error(other, at, "int64")),
    }
}

/// A `map[string]string` (`FailedNodes`), in key order.
fn string_map(v: Option<&Value>, at: &str) -> Result<Vec<(NodeRef, String)>, String> {
    match v {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Object(o)) => {
            let mut out: Vec<(NodeRef, String)> = Vec::with_capacity(o.len());
            for (k, v) in o {
                match v {
                    Value::String(s) => out.push((NodeRef::Name(k.clone()), s.clone())),
                    Value::Null => out.push((NodeRef::Name(k.clone()), String::new())),
                    other => return Err(type_error(other, at, "string")),
                }
            }
            out.sort_by(|a, b| name_of(&a.0).cmp(name_of(&b.0)));
            Ok(out)
        }
        Some(other) => Err(type_error(other, at, "extenderv1.FailedNodesMap")),
    }
}

fn name_of(r: &NodeRef) -> &str {
    match r {
        NodeRef::Name(n) => n,
        NodeRef::Id(_) => "",
    }
}

/// Decodes an `ExtenderFilterResult`.
pub(crate) fn decode_filter(body: &str) -> Result<FilterReply, String> {
    let v = first_value(body)?;
    let Some(o) = object(&v, "v1.ExtenderFilterResult")? else {
        return Ok(FilterReply::default());
    };
    let at = |f: &str| format!("ExtenderFilterResult.{f}");
    let nodes = match key(o, "Nodes") {
        None | Some(Value::Null) => None,
        Some(Value::Object(list)) => {
            let items = match key(list, "Items") {
                None | Some(Value::Null) => Vec::new(),
                Some(Value::Array(items)) => items.iter().collect(),
                Some(other) => return Err(type_error(other, &at("Nodes.items"), "[]v1.Node")),
            };
            let mut names = Vec::with_capacity(items.len());
            for item in items {
                let name = item
                    .get("metadata")
                    .and_then(|m| m.get("name"))
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                names.push(NodeRef::Name(name.to_string()));
            }
            Some(names)
        }
        Some(other) => return Err(type_error(other, &at("Nodes"), "v1.NodeList")),
    };
    let node_names = match key(o, "NodeNames") {
        None | Some(Value::Null) => None,
        Some(Value::Array(items)) => {
            let mut names = Vec::with_capacity(items.len());
            for item in items {
                match item {
                    Value::String(s) => names.push(NodeRef::Name(s.clone())),
                    Value::Null => names.push(NodeRef::Name(String::new())),
                    other => return Err(type_error(other, &at("NodeNames"), "string")),
                }
            }
            Some(names)
        }
        Some(other) => return Err(type_error(other, &at("NodeNames"), "[]string")),
    };
    Ok(FilterReply {
        nodes,
        node_names,
        failed: string_map(key(o, "FailedNodes"), &at("FailedNodes"))?,
        failed_unresolvable: string_map(
            key(o, "FailedAndUnresolvableNodes"),
            &at("FailedAndUnresolvableNodes"),
        )?,
        error: string_of(key(o, "Error"), &at("Error"))?,
    })
}

/// Decodes a `HostPriorityList`.
pub(crate) fn decode_priorities(body: &str) -> Result<PriorityReply, String> {
    let v = first_value(body)?;
    let items = match &v {
        Value::Null => return Ok(Vec::new()),
        Value::Array(items) => items,
        other => {
            return Err(format!(
                "json: cannot unmarshal {} into Go value of type v1.HostPriorityList",
                kind(other)
            ))
        }
    };
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        let Some(o) = object(item, "v1.HostPriority")? else {
            out.push((NodeRef::Name(String::new()), 0));
            continue;
        };
        let host = string_of(key(o, "Host"), "HostPriority.Host")?;
        let score = int_of(key(o, "Score"), "HostPriority.Score")?;
        out.push((NodeRef::Name(host), score));
    }
    Ok(out)
}

/// Decodes an `ExtenderPreemptionResult`.
pub(crate) fn decode_preempt(body: &str) -> Result<PreemptReply, String> {
    let v = first_value(body)?;
    let Some(o) = object(&v, "v1.ExtenderPreemptionResult")? else {
        return Ok(None);
    };
    let at = "ExtenderPreemptionResult.NodeNameToMetaVictims";
    let map = match key(o, "NodeNameToMetaVictims") {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Object(m)) => m,
        Some(other) => return Err(type_error(other, at, "map[string]*v1.MetaVictims")),
    };
    let mut out = Vec::with_capacity(map.len());
    for (node, victims) in map {
        let victims = match object(victims, "v1.MetaVictims")? {
            None => None,
            Some(vo) => {
                let pods = match key(vo, "Pods") {
                    None | Some(Value::Null) => Vec::new(),
                    Some(Value::Array(ps)) => {
                        let mut uids = Vec::with_capacity(ps.len());
                        for p in ps {
                            match object(p, "v1.MetaPod")? {
                                None => uids.push(None),
                                Some(po) => {
                                    uids.push(Some(string_of(key(po, "UID"), "MetaPod.UID")?))
                                }
                            }
                        }
                        uids
                    }
                    Some(other) => {
                        return Err(type_error(other, "MetaVictims.Pods", "[]*v1.MetaPod"))
                    }
                };
                Some(MetaVictims {
                    pods,
                    num_pdb_violations: int_of(
                        key(vo, "NumPDBViolations"),
                        "MetaVictims.NumPDBViolations",
                    )?,
                })
            }
        };
        out.push((node.clone(), victims));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(Some(out))
}

/// Decodes an `ExtenderBindingResult`.
pub(crate) fn decode_bind(body: &str) -> Result<BindReply, String> {
    let v = first_value(body)?;
    let Some(o) = object(&v, "v1.ExtenderBindingResult")? else {
        return Ok(String::new());
    };
    string_of(key(o, "Error"), "ExtenderBindingResult.Error")
}

// ---- replies written (a mock's answers, kept in a recording) ----------------------------

/// A reply's node as a name.
fn ref_name<'a>(r: &'a NodeRef, names: &'a dyn Fn(NodeId) -> &'a str) -> &'a str {
    match r {
        NodeRef::Id(id) => names(*id),
        NodeRef::Name(n) => n,
    }
}

fn failed_map<'a>(list: &'a [(NodeRef, String)], names: &'a dyn Fn(NodeId) -> &'a str) -> Value {
    if list.is_empty() {
        return Value::Null;
    }
    let m: Map<String, Value> = list
        .iter()
        .map(|(r, msg)| (ref_name(r, names).to_string(), Value::from(msg.as_str())))
        .collect();
    Value::Object(m)
}

/// An `ExtenderFilterResult` as Go writes it. `node_object` gives the `Nodes` items.
pub(crate) fn encode_filter<'a>(
    r: &'a FilterReply,
    names: &'a dyn Fn(NodeId) -> &'a str,
    node_object: &dyn Fn(&NodeRef) -> Value,
) -> String {
    let nodes = match &r.nodes {
        None => Value::Null,
        Some(list) => {
            let items: Vec<Value> = list.iter().map(node_object).collect();
            json!({"metadata": {}, "items": items})
        }
    };
    let node_names = match &r.node_names {
        None => Value::Null,
        Some(list) => Value::Array(
            list.iter()
                .map(|n| Value::from(ref_name(n, names)))
                .collect(),
        ),
    };
    let mut m = Map::new();
    m.insert("Nodes".into(), nodes);
    m.insert("NodeNames".into(), node_names);
    m.insert("FailedNodes".into(), failed_map(&r.failed, names));
    m.insert(
        "FailedAndUnresolvableNodes".into(),
        failed_map(&r.failed_unresolvable, names),
    );
    m.insert("Error".into(), r.error.clone().into());
    Value::Object(m).to_string()
}

/// A `HostPriorityList` as Go writes it.
pub(crate) fn encode_priorities<'a>(
    list: &'a PriorityReply,
    names: &'a dyn Fn(NodeId) -> &'a str,
) -> String {
    let items: Vec<Value> = list
        .iter()
        .map(|(r, score)| json!({"Host": ref_name(r, names), "Score": score}))
        .collect();
    Value::Array(items).to_string()
}

/// An `ExtenderPreemptionResult` as Go writes it.
pub(crate) fn encode_preempt(reply: &PreemptReply) -> String {
    let map = match reply {
        None => Value::Null,
        Some(list) => {
            let m: Map<String, Value> = list
                .iter()
                .map(|(node, v)| {
                    let v = match v {
                        None => Value::Null,
                        Some(v) => {
                            let pods: Vec<Value> = v
                                .pods
                                .iter()
                                .map(|u| match u {
                                    None => Value::Null,
                                    Some(u) => json!({"UID": u}),
                                })
                                .collect();
                            json!({"Pods": pods, "NumPDBViolations": v.num_pdb_violations})
                        }
                    };
                    (node.clone(), v)
                })
                .collect();
            Value::Object(m)
        }
    };
    json!({ "NodeNameToMetaVictims": map }).to_string()
}

/// An `ExtenderBindingResult` as Go writes it.
pub(crate) fn encode_bind(error: &str) -> String {
    json!({ "Error": error }).to_string()
}
