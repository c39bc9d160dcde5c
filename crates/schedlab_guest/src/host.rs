//! The host modules a guest imports: `k8s.io/api`, `k8s.io/scheduler` and `k8s.io/klog`, with
//! the extension's buffer protocol (a getter writes only when the value fits in `buf_limit`
//! and always returns the value's length, so the guest can retry with a larger buffer).

use std::collections::{BTreeMap, HashMap};

use crate::proto::{node_list_protobuf, GuestNode};
use crate::wasm::{HostContext, Trap, ValType, Value};

/// A line a guest logged during one call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GuestLog {
    pub source: LogSource,
    pub text: String,
}

/// Where a log line came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogSource {
    /// `k8s.io/klog`, with its severity (0 info, 1 warning, 2 error, 3 fatal).
    Klog { severity: i32 },
    /// WASI `fd_write` to stdout.
    Stdout,
    /// WASI `fd_write` to stderr.
    Stderr,
    /// `handle.eventrecorder.eventf`.
    Event,
}

/// A cluster event a guest registers from `enqueue`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClusterEvent {
    /// The extension's resource name ("Pod", "Node", …, "*").
    pub resource: String,
    /// The action bits (Add = 1, Delete = 2, UpdateNodeAllocatable = 4, …, All = 63).
    pub action_type: u32,
}

/// The nodes of the snapshot, encoded once for `node`, `nodeList` and `nodeImageStates`.
#[derive(Clone, Debug, Default)]
pub struct NodeSnapshot {
    protos: Vec<Vec<u8>>,
    image_states: Vec<String>,
    index: HashMap<String, usize>,
    list: Vec<u8>,
}

impl NodeSnapshot {
    pub fn new(nodes: &[GuestNode]) -> NodeSnapshot {
        let mut num_nodes: BTreeMap<&str, usize> = BTreeMap::new();
        for node in nodes {
            for name in node.images.iter().flat_map(|i| &i.names) {
                *num_nodes.entry(name.as_str()).or_default() += 1;
            }
        }
        let image_states = nodes
            .iter()
            .map(|node| {
                let states: BTreeMap<&str, serde_json::Value> = node
                    .images
                    .iter()
                    .flat_map(|i| i.names.iter().map(move |n| (n.as_str(), i.size_bytes)))
                    .map(|(n, size)| (n, serde_json::json!({"Size": size, "NumNodes": num_nodes.get(n).copied().unwrap_or(0)})))
                    .collect();
                serde_json::to_string(&states).unwrap_or_default()
            })
            .collect();
        NodeSnapshot {
            protos: nodes.iter().map(GuestNode::to_protobuf).collect(),
            image_states,
            index: nodes
                .iter()
                .enumerate()
                .map(|(i, n)| (n.name.clone(), i))
                .collect(),
            list: node_list_protobuf(nodes),
        }
    }
}

/// What the host hands over for one call.
#[derive(Clone, Debug, Default)]
pub(crate) struct CallInput {
    pub current_pod: Vec<u8>,
    pub target_pod: Vec<u8>,
    pub node_name: String,
    pub filtered_nodes_json: String,
    pub node_to_status_json: String,
    pub node_scores_json: String,
}

/// What the guest set through the `result.*` functions during one call.
#[derive(Clone, Debug, Default)]
pub(crate) struct CallOutput {
    pub status_reason: String,
    pub node_names: Option<Vec<String>>,
    pub nominated_node_name: String,
    pub cluster_events: Vec<ClusterEvent>,
    pub normalized_scores: Option<Vec<(String, i64)>>,
}

/// Everything the host functions read and write.
#[derive(Clone, Debug, Default)]
pub(crate) struct HostState {
    pub guest_config: String,
    pub log_severity: i32,
    pub args: Vec<String>,
    pub clock_ns: u64,
    pub random_state: u64,
    pub nodes: NodeSnapshot,
    pub input: CallInput,
    pub output: CallOutput,
    pub logs: Vec<GuestLog>,
    /// Unfinished stdout and stderr lines.
    pub pending: [Vec<u8>; 2],
}

/// Most log bytes kept per call; past it, lines are dropped and one marker line says so.
pub(crate) const MAX_LOG_BYTES: usize = 1 << 20;

impl HostState {
    /// Keeps a log line unless the call already logged `MAX_LOG_BYTES`.
    pub(crate) fn push_log(&mut self, source: LogSource, text: String) {
        let used: usize = self.logs.iter().map(|l| l.text.len()).sum();
        if used + text.len() <= MAX_LOG_BYTES {
            self.logs.push(GuestLog { source, text });
        } else if self.logs.last().is_none_or(|l| l.text != LOG_TRUNCATED) {
            self.logs.push(GuestLog {
                source,
                text: LOG_TRUNCATED.to_string(),
            });
        }
    }
}

const LOG_TRUNCATED: &str = "(more log output dropped)";

pub(crate) type Ctx<'a> = HostContext<'a, HostState>;
pub(crate) type HostResult = Result<Vec<Value>, Trap>;

pub(crate) fn arg(args: &[Value], i: usize) -> u32 {
    args.get(i).and_then(Value::as_i32).unwrap_or(0) as u32
}

pub(crate) fn read_bytes(ctx: &Ctx, ptr: u32, len: u32, what: &str) -> Result<Vec<u8>, Trap> {
    match ctx.memory.read(ptr, len) {
        Some(b) => Ok(b.to_vec()),
        None => Err(Trap::Host(format!("out of memory reading {what}"))),
    }
}

fn read_string(ctx: &Ctx, ptr: u32, len: u32, what: &str) -> Result<String, Trap> {
    Ok(String::from_utf8_lossy(&read_bytes(ctx, ptr, len, what)?).into_owned())
}

/// The getter protocol: nothing written when empty or larger than `limit`; the length returned.
fn write_if_under_limit(ctx: &mut Ctx, value: &[u8], buf: u32, limit: u32) -> HostResult {
    if !value.is_empty() && value.len() <= limit as usize && !ctx.memory.write(buf, value) {
        return Err(Trap::Host("out of memory writing a result buffer".into()));
    }
    Ok(vec![Value::I32(value.len() as i32)])
}

/// A getter of a value from the state: `(buf, buf_limit) -> len`.
fn getter(args: &[Value], ctx: &mut Ctx, value: impl FnOnce(&HostState) -> Vec<u8>) -> HostResult {
    let bytes = value(ctx.data);
    write_if_under_limit(ctx, &bytes, arg(args, 0), arg(args, 1))
}

fn node(ctx: &mut Ctx, args: &[Value]) -> HostResult {
    let name = read_string(ctx, arg(args, 0), arg(args, 1), "nodeName")?;
    let nodes = &ctx.data.nodes;
    let bytes = nodes
        .index
        .get(&name)
        .and_then(|&i| nodes.protos.get(i))
        .cloned()
        .unwrap_or_default();
    write_if_under_limit(ctx, &bytes, arg(args, 2), arg(args, 3))
}

fn node_image_states(ctx: &mut Ctx, args: &[Value]) -> HostResult {
    let name = read_string(ctx, arg(args, 0), arg(args, 1), "nodeName")?;
    let nodes = &ctx.data.nodes;
    let json = nodes
        .index
        .get(&name)
        .and_then(|&i| nodes.image_states.get(i))
        .cloned();
    let json = json.unwrap_or_else(|| "null".to_string());
    write_if_under_limit(ctx, json.as_bytes(), arg(args, 2), arg(args, 3))
}

fn klog_log(ctx: &mut Ctx, args: &[Value]) -> HostResult {
    let severity = arg(args, 0) as i32;
    if severity >= ctx.data.log_severity {
        if let Ok(text) = read_string(ctx, arg(args, 1), arg(args, 2), "a log message") {
            let text = text.strip_suffix('\n').map(str::to_string).unwrap_or(text);
            ctx.data.push_log(LogSource::Klog { severity }, text);
        }
    }
    Ok(Vec::new())
}

/// `logs`: a message and NUL-separated key/value strings, logged as `msg key="value" …`.
fn klog_logs(ctx: &mut Ctx, args: &[Value]) -> HostResult {
    let severity = arg(args, 0) as i32;
    if severity < ctx.data.log_severity {
        return Ok(Vec::new());
    }
    let (Ok(mut text), Ok(kvs)) = (
        read_string(ctx, arg(args, 1), arg(args, 2), "a log message"),
        read_bytes(ctx, arg(args, 3), arg(args, 4), "log key/values"),
    ) else {
        return Ok(Vec::new());
    };
    let parts = nul_separated(&kvs);
    for pair in parts.chunks(2) {
        let value = pair.get(1).map_or("(MISSING)", String::as_str);
        text.push_str(&format!(" {}={value:?}", pair[0]));
    }
    ctx.data.push_log(LogSource::Klog { severity }, text);
    Ok(Vec::new())
}

/// Non-empty strings between NULs.
pub(crate) fn nul_separated(b: &[u8]) -> Vec<String> {
    b.split(|&c| c == 0)
        .filter(|s| !s.is_empty())
        .map(|s| String::from_utf8_lossy(s).into_owned())
        .collect()
}

fn result_cluster_events(ctx: &mut Ctx, args: &[Value]) -> HostResult {
    const RESOURCES: [&str; 11] = [
        "Pod",
        "Node",
        "PersistentVolume",
        "PersistentVolumeClaim",
        "PodSchedulingContext",
        "ResourceClaim",
        "storage.k8s.io/StorageClass",
        "storage.k8s.io/CSINode",
        "storage.k8s.io/CSIDriver",
        "storage.k8s.io/CSIStorageCapacity",
        "*",
    ];
    let b = read_bytes(ctx, arg(args, 0), arg(args, 1), "clusterEvents")?;
    let word = |c: &[u8]| u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
    ctx.data.output.cluster_events = b
        .chunks_exact(8)
        .map(|c| {
            let gvk = word(&c[..4]);
            let resource = RESOURCES
                .get(gvk as usize)
                .map_or_else(|| format!("EventResource({gvk})"), |r| r.to_string());
            ClusterEvent {
                resource,
                action_type: word(&c[4..]),
            }
        })
        .collect();
    Ok(Vec::new())
}

fn result_string(
    ctx: &mut Ctx,
    args: &[Value],
    what: &str,
    set: fn(&mut CallOutput, Vec<u8>),
) -> HostResult {
    let b = read_bytes(ctx, arg(args, 0), arg(args, 1), what)?;
    set(&mut ctx.data.output, b);
    Ok(Vec::new())
}

fn result_normalized_scores(ctx: &mut Ctx, args: &[Value]) -> HostResult {
    let b = read_bytes(ctx, arg(args, 0), arg(args, 1), "normalized score list")?;
    let map: BTreeMap<String, i64> = serde_json::from_slice(&b).map_err(|e| {
        Trap::Host(format!(
            "result.normalized_score_list is not a JSON {{node: score}} map: {e}"
        ))
    })?;
    ctx.data.output.normalized_scores = Some(map.into_iter().collect());
    Ok(Vec::new())
}

fn eventf(ctx: &mut Ctx, args: &[Value]) -> HostResult {
    let b = read_bytes(ctx, arg(args, 0), arg(args, 1), "eventrecorder event")?;
    let msg: serde_json::Value = serde_json::from_slice(&b)
        .map_err(|e| Trap::Host(format!("handle.eventrecorder.eventf: bad JSON: {e}")))?;
    let field = |k: &str| {
        msg.get(k)
            .and_then(|v| v.as_str())
            .unwrap_or("")
            .to_string()
    };
    let regarding = msg
        .get("RegardingReference")
        .and_then(|r| r.get("Name"))
        .and_then(|v| v.as_str())
        .unwrap_or("");
    let text = format!(
        "{} {} {} {} (regarding {regarding})",
        field("Eventtype"),
        field("Reason"),
        field("Action"),
        field("Note")
    );
    ctx.data.push_log(LogSource::Event, text.trim().to_string());
    Ok(Vec::new())
}

/// `reject_waiting_pod` and `get_waiting_pod`: no pod is ever waiting here, so both write 0.
fn no_waiting_pod(ctx: &mut Ctx, args: &[Value]) -> HostResult {
    if !ctx.memory.write(arg(args, 2), &0u64.to_le_bytes()) {
        return Err(Trap::Host(
            "out of memory writing a waiting-pod result".into(),
        ));
    }
    Ok(Vec::new())
}

pub(crate) type HostFn = fn(&mut Ctx, &[Value]) -> HostResult;

/// The k8s.io host function `module.name`, with its parameter and result types.
pub(crate) fn k8s_function(
    module: &str,
    name: &str,
) -> Option<(HostFn, Vec<ValType>, Vec<ValType>)> {
    use ValType::I32;
    let getter2: (Vec<ValType>, Vec<ValType>) = (vec![I32; 2], vec![I32]);
    let getter4: (Vec<ValType>, Vec<ValType>) = (vec![I32; 4], vec![I32]);
    let setter: (Vec<ValType>, Vec<ValType>) = (vec![I32; 2], vec![]);
    let (f, (params, results)): (HostFn, _) = match (module, name) {
        ("k8s.io/api", "node") => (node, getter4),
        ("k8s.io/api", "nodeList") => (|c, a| getter(a, c, |s| s.nodes.list.clone()), getter2),
        ("k8s.io/klog", "log") => (klog_log, (vec![I32; 3], vec![])),
        ("k8s.io/klog", "logs") => (klog_logs, (vec![I32; 5], vec![])),
        ("k8s.io/klog", "severity") => (
            |c, _| Ok(vec![Value::I32(c.data.log_severity)]),
            (vec![], vec![I32]),
        ),
        ("k8s.io/scheduler", "get_config") => (
            |c, a| getter(a, c, |s| s.guest_config.clone().into_bytes()),
            getter2,
        ),
        ("k8s.io/scheduler", "currentPod") => (
            |c, a| getter(a, c, |s| s.input.current_pod.clone()),
            getter2,
        ),
        ("k8s.io/scheduler", "targetPod") => {
            (|c, a| getter(a, c, |s| s.input.target_pod.clone()), getter2)
        }
        ("k8s.io/scheduler", "currentNodeName") => (
            |c, a| getter(a, c, |s| s.input.node_name.clone().into_bytes()),
            getter2,
        ),
        ("k8s.io/scheduler", "filteredNodeList") => (
            |c, a| getter(a, c, |s| s.input.filtered_nodes_json.clone().into_bytes()),
            getter2,
        ),
        ("k8s.io/scheduler", "nodeToStatusMap") => (
            |c, a| getter(a, c, |s| s.input.node_to_status_json.clone().into_bytes()),
            getter2,
        ),
        ("k8s.io/scheduler", "nodeScoreList") => (
            |c, a| getter(a, c, |s| s.input.node_scores_json.clone().into_bytes()),
            getter2,
        ),
        ("k8s.io/scheduler", "nodeImageStates") => (node_image_states, getter4),
        ("k8s.io/scheduler", "result.cluster_events") => (result_cluster_events, setter),
        ("k8s.io/scheduler", "result.node_names") => (
            |c, a| {
                result_string(c, a, "nodeNames", |o, b| {
                    o.node_names = Some(nul_separated(&b))
                })
            },
            setter,
        ),
        ("k8s.io/scheduler", "result.nominated_node_name") => (
            |c, a| {
                result_string(c, a, "nominatedNodeName", |o, b| {
                    o.nominated_node_name = String::from_utf8_lossy(&b).into_owned()
                })
            },
            setter,
        ),
        ("k8s.io/scheduler", "result.status_reason") => (
            |c, a| {
                result_string(c, a, "status reason", |o, b| {
                    o.status_reason = String::from_utf8_lossy(&b).into_owned()
                })
            },
            setter,
        ),
        ("k8s.io/scheduler", "result.normalized_score_list") => (result_normalized_scores, setter),
        ("k8s.io/scheduler", "handle.eventrecorder.eventf") => (eventf, setter),
        ("k8s.io/scheduler", "handle.reject_waiting_pod" | "handle.get_waiting_pod") => {
            (no_waiting_pod, (vec![I32; 4], vec![]))
        }
        _ => return None,
    };
    Some((f, params, results))
}
