//! A kube-scheduler-wasm-extension guest: loaded, checked and instantiated like the
//! extension does it (`scheduler/plugin/guest.go`), then called per extension point with
//! plain data, its packed results decoded.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use crate::host::{
    k8s_function, CallInput, CallOutput, ClusterEvent, Ctx, GuestLog, HostState, LogSource,
    NodeSnapshot,
};
use crate::proto::GuestNode;
use crate::wasi::{enosys_results, wasi_function};
use crate::wasm::{
    ExportKind, FuncType, HostFunc, Instance, InstanceLimits, Module, Trap, ValType, Value,
};

/// How a guest is loaded and run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GuestConfig {
    /// Fuel for each call (one unit per instruction); running out is the error `out of fuel`.
    pub fuel_per_call: u64,
    /// Fuel for `_start` at load (TinyGo's `main`, which decodes the config and registers the plugin).
    pub fuel_at_load: u64,
    /// Memory cap in 64 KiB pages.
    pub memory_pages_max: u32,
    /// Deepest nesting of wasm calls.
    pub max_call_depth: usize,
    /// The pluginConfig's `guestConfig` string (the plugin's JSON args), read by `get_config`.
    pub guest_config: String,
    /// Lowest klog severity kept (0 info, 1 warning, 2 error, 3 fatal); `severity()` returns it.
    pub log_severity: i32,
    /// The guest's `os.Args` (WASI `args_get`); empty by default.
    pub args: Vec<String>,
    /// Seed of the WASI `random_get` sequence.
    pub random_seed: u64,
}

impl Default for GuestConfig {
    fn default() -> Self {
        GuestConfig {
            fuel_per_call: 10_000_000,
            fuel_at_load: 100_000_000,
            memory_pages_max: 4096,
            max_call_depth: 1024,
            guest_config: String::new(),
            log_severity: 0,
            args: Vec::new(),
            random_seed: 0,
        }
    }
}

/// A guest export the extension looks for, with the signature it requires.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Export {
    Enqueue,
    PreFilter,
    Filter,
    PostFilter,
    PreScore,
    Score,
    NormalizeScore,
    Reserve,
    Unreserve,
    Permit,
    PreBind,
    Bind,
    PostBind,
    AddPod,
    RemovePod,
}

impl Export {
    pub const ALL: [Export; 15] = [
        Export::Enqueue,
        Export::PreFilter,
        Export::Filter,
        Export::PostFilter,
        Export::PreScore,
        Export::Score,
        Export::NormalizeScore,
        Export::Reserve,
        Export::Unreserve,
        Export::Permit,
        Export::PreBind,
        Export::Bind,
        Export::PostBind,
        Export::AddPod,
        Export::RemovePod,
    ];

    /// The export's name in the guest.
    pub fn name(self) -> &'static str {
        match self {
            Export::Enqueue => "enqueue",
            Export::PreFilter => "prefilter",
            Export::Filter => "filter",
            Export::PostFilter => "postfilter",
            Export::PreScore => "prescore",
            Export::Score => "score",
            Export::NormalizeScore => "normalizescore",
            Export::Reserve => "reserve",
            Export::Unreserve => "unreserve",
            Export::Permit => "permit",
            Export::PreBind => "prebind",
            Export::Bind => "bind",
            Export::PostBind => "postbind",
            Export::AddPod => "addpod",
            Export::RemovePod => "removepod",
        }
    }

    /// The one result type (none for enqueue, unreserve, postbind); parameters are always none.
    fn result(self) -> Option<ValType> {
        match self {
            Export::Enqueue | Export::Unreserve | Export::PostBind => None,
            Export::PostFilter | Export::Score | Export::Permit => Some(ValType::I64),
            _ => Some(ValType::I32),
        }
    }
}

/// A framework status: code (v1.35: Success 0, Error 1, Unschedulable 2,
/// UnschedulableAndUnresolvable 3, Wait 4, Skip 5, Pending 6) and reason.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GuestStatus {
    pub code: u32,
    pub reason: String,
}

/// PreFilter's answer: a status, and the node names the guest narrowed the cycle to, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreFilterResult {
    pub status: GuestStatus,
    pub node_names: Option<Vec<String>>,
}

/// PostFilter's answer (`mode<<32 | code`, the node through `result.nominated_node_name`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PostFilterResult {
    pub status: GuestStatus,
    /// The framework's NominatingMode: 0 Noop, 1 Override.
    pub nominating_mode: i32,
    pub nominated_node_name: String,
}

/// Score's answer (`score<<32 | code`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreResult {
    pub score: i64,
    pub status: GuestStatus,
}

/// NormalizeScore's answer: the guest's map (sorted by node name), or the input list when
/// the guest set none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NormalizeResult {
    pub status: GuestStatus,
    pub scores: Vec<(String, i64)>,
}

/// Permit's answer (`code<<32 | timeout_ms`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PermitResult {
    pub status: GuestStatus,
    pub timeout_ms: u32,
}

/// Why a guest could not be loaded or a call failed. The message reads like the extension's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GuestError {
    /// The module is malformed, imports something unknown, exports the wrong things, or
    /// `_start` failed.
    Load(String),
    /// A call trapped (also: out of fuel, call stack exhausted) or returned garbage.
    Call {
        /// The export's name ("filter", "score", …).
        function: &'static str,
        message: String,
        /// What the guest wrote to stdout/stderr during the call.
        output: String,
        logs: Vec<GuestLog>,
    },
}

impl fmt::Display for GuestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GuestError::Load(message) => f.write_str(message),
            GuestError::Call {
                function,
                message,
                output,
                ..
            } if output.is_empty() => {
                write!(f, "wasm: {function} error: {message}")
            }
            GuestError::Call {
                function,
                message,
                output,
                ..
            } => write!(f, "wasm: {function} error: {output}\n{message}"),
        }
    }
}

impl std::error::Error for GuestError {}

/// A loaded guest: one instance whose cycle state lives inside it across calls.
pub struct Guest {
    instance: Instance<HostState>,
    exports: Vec<Export>,
    fuel_per_call: u64,
}

impl fmt::Debug for Guest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Guest")
            .field("exports", &self.exports)
            .field("fuel_per_call", &self.fuel_per_call)
            .finish()
    }
}

fn load_err(message: impl Into<String>) -> GuestError {
    GuestError::Load(message.into())
}

/// One host function per import, or the reason an import cannot be served.
fn resolve_imports(module: &Module) -> Result<Vec<HostFunc<HostState>>, GuestError> {
    let mut hosts: Vec<HostFunc<HostState>> = Vec::new();
    for (module_name, name, ty) in module.imports() {
        let found = if module_name == "wasi_snapshot_preview1" {
            wasi_function(name)
        } else {
            k8s_function(module_name, name)
        };
        match found {
            Some((f, params, results)) => {
                if *ty != (FuncType { params, results }) {
                    return Err(load_err(format!(
                        "wasm: guest imports {module_name}.{name} with the wrong signature {ty:?}"
                    )));
                }
                hosts.push(Box::new(move |ctx: &mut Ctx, args: &[Value]| f(ctx, args)));
            }
            None if module_name == "wasi_snapshot_preview1" => {
                let results = enosys_results(&ty.results);
                hosts.push(Box::new(
                    move |_: &mut Ctx, _: &[Value]| Ok(results.clone()),
                ));
            }
            None => {
                return Err(load_err(format!(
                    "wasm: guest imports an unknown function {module_name}.{name}"
                )))
            }
        }
    }
    Ok(hosts)
}

/// The plugin exports, checked like the extension's `detectInterfaces`.
fn detect_exports(module: &Module) -> Result<Vec<Export>, GuestError> {
    if !module
        .exports()
        .any(|(name, kind)| name == "memory" && kind == ExportKind::Memory)
    {
        return Err(load_err("wasm: guest doesn't export memory[memory]"));
    }
    let mut found = Vec::new();
    for export in Export::ALL {
        let Some(ty) = module.exported_func(export.name()) else {
            continue;
        };
        let results: Vec<ValType> = export.result().into_iter().collect();
        if !ty.params.is_empty() || ty.results != results {
            let shown = match export.result() {
                Some(ValType::I64) => "(i64)",
                Some(_) => "(i32)",
                None => "()",
            };
            return Err(load_err(format!(
                "wasm: guest exports the wrong signature for func[{}]. should be () -> {shown}",
                export.name()
            )));
        }
        found.push(export);
    }
    if found.is_empty() {
        return Err(load_err("wasm: guest does not export any plugin functions"));
    }
    Ok(found)
}

/// A JSON object with sorted keys, as Go's `json.Marshal` writes a map.
fn json_map(entries: impl IntoIterator<Item = (String, i64)>) -> String {
    let map: BTreeMap<String, i64> = entries.into_iter().collect();
    serde_json::to_string(&map).unwrap_or_default()
}

fn call_input(pod: &[u8], node_name: &str) -> CallInput {
    CallInput {
        current_pod: pod.to_vec(),
        node_name: node_name.to_string(),
        ..CallInput::default()
    }
}

/// The low and high 32 bits of a packed i64 result.
fn split(raw: u64) -> (u32, u32) {
    (raw as u32, (raw >> 32) as u32)
}

impl Guest {
    /// Decodes, checks and instantiates a guest, then runs `_initialize` or `_start` if exported.
    pub fn load(bytes: &[u8], config: GuestConfig) -> Result<Guest, GuestError> {
        let module = Module::decode(bytes)
            .map_err(|e| load_err(format!("wasm: error compiling guest: {e}")))?;
        let exports = detect_exports(&module)?;
        let hosts = resolve_imports(&module)?;
        let state = HostState {
            guest_config: config.guest_config,
            log_severity: config.log_severity,
            args: config.args,
            random_state: config.random_seed,
            ..HostState::default()
        };
        let limits = InstanceLimits {
            max_memory_pages: config.memory_pages_max,
            max_call_depth: config.max_call_depth,
            ..InstanceLimits::default()
        };
        let module = Arc::new(module);
        let mut instance = Instance::new(Arc::clone(&module), hosts, state, limits)
            .map_err(|t| load_err(format!("wasm: error instantiating guest: {t}")))?;
        instance.set_fuel(config.fuel_at_load);
        let mut outcome = instance.run_start();
        for init in ["_initialize", "_start"] {
            if outcome.is_ok()
                && module
                    .exported_func(init)
                    .is_some_and(|t| t.params.is_empty() && t.results.is_empty())
            {
                outcome = instance.call(init, &[]).map(|_| ());
                break;
            }
        }
        let mut guest = Guest {
            instance,
            exports,
            fuel_per_call: config.fuel_per_call,
        };
        guest.flush_output();
        match outcome {
            Ok(()) | Err(Trap::Exit(0)) => Ok(guest),
            Err(trap) => {
                let output = guest.output_text();
                let detail = if output.is_empty() {
                    String::new()
                } else {
                    format!("{output}\n")
                };
                Err(load_err(format!(
                    "wasm: error instantiating guest: _start: {detail}{trap}"
                )))
            }
        }
    }

    /// The plugin exports the guest has.
    pub fn exports(&self) -> &[Export] {
        &self.exports
    }

    pub fn has(&self, export: Export) -> bool {
        self.exports.contains(&export)
    }

    /// The nodes `k8s.io/api.node`, `nodeList` and `nodeImageStates` answer from.
    pub fn set_nodes(&mut self, nodes: &[GuestNode]) {
        self.instance.data_mut().nodes = NodeSnapshot::new(nodes);
    }

    /// The same, already encoded (to share one snapshot between guests).
    pub fn set_snapshot(&mut self, snapshot: NodeSnapshot) {
        self.instance.data_mut().nodes = snapshot;
    }

    /// The virtual clock WASI `clock_time_get` answers, in nanoseconds since the epoch.
    pub fn set_clock_ns(&mut self, now: u64) {
        self.instance.data_mut().clock_ns = now;
    }

    /// Restarts the `random_get` sequence from a seed.
    pub fn set_random_seed(&mut self, seed: u64) {
        self.instance.data_mut().random_state = seed;
    }

    /// Log lines of the last call (or of the load, before any call).
    pub fn logs(&self) -> &[GuestLog] {
        &self.instance.data().logs
    }

    /// Fuel the last call used.
    pub fn fuel_used(&self) -> u64 {
        self.fuel_per_call.saturating_sub(self.instance.fuel())
    }

    /// Ends unfinished stdout/stderr lines.
    fn flush_output(&mut self) {
        let state = self.instance.data_mut();
        for (i, source) in [LogSource::Stdout, LogSource::Stderr]
            .into_iter()
            .enumerate()
        {
            let pending = std::mem::take(&mut state.pending[i]);
            if !pending.is_empty() {
                state.push_log(source, String::from_utf8_lossy(&pending).into_owned());
            }
        }
    }

    /// What the guest wrote to stdout and stderr, one line each.
    fn output_text(&self) -> String {
        let lines = self
            .logs()
            .iter()
            .filter(|l| matches!(l.source, LogSource::Stdout | LogSource::Stderr));
        lines
            .map(|l| l.text.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn call_error(&self, export: Export, message: String) -> GuestError {
        GuestError::Call {
            function: export.name(),
            message,
            output: self.output_text(),
            logs: self.logs().to_vec(),
        }
    }

    /// Calls an export with this input; its raw result (zero-extended), if it has one.
    fn invoke(&mut self, export: Export, input: CallInput) -> Result<u64, GuestError> {
        if !self.has(export) {
            return Err(self.call_error(export, "the guest does not export this function".into()));
        }
        let state = self.instance.data_mut();
        state.input = input;
        state.output = CallOutput::default();
        state.logs.clear();
        self.instance.set_fuel(self.fuel_per_call);
        let result = self.instance.call(export.name(), &[]);
        self.flush_output();
        match result {
            Ok(values) => Ok(match values.first() {
                Some(Value::I32(v)) => u64::from(*v as u32),
                Some(Value::I64(v)) => *v as u64,
                _ => 0,
            }),
            Err(trap) => Err(self.call_error(export, trap.to_string())),
        }
    }

    /// A status from a returned code and the reason the guest set.
    fn status(&self, export: Export, code: u32) -> Result<GuestStatus, GuestError> {
        if code > 6 {
            return Err(self.call_error(
                export,
                format!("the guest returned an unknown status code {code}"),
            ));
        }
        Ok(GuestStatus {
            code,
            reason: self.instance.data().output.status_reason.clone(),
        })
    }

    fn status_call(&mut self, export: Export, input: CallInput) -> Result<GuestStatus, GuestError> {
        let raw = self.invoke(export, input)?;
        self.status(export, raw as u32)
    }

    /// EnqueueExtensions: the cluster events the guest registers.
    pub fn enqueue(&mut self) -> Result<Vec<ClusterEvent>, GuestError> {
        self.invoke(Export::Enqueue, CallInput::default())?;
        Ok(std::mem::take(
            &mut self.instance.data_mut().output.cluster_events,
        ))
    }

    pub fn prefilter(&mut self, pod: &[u8]) -> Result<PreFilterResult, GuestError> {
        let status = self.status_call(Export::PreFilter, call_input(pod, ""))?;
        Ok(PreFilterResult {
            status,
            node_names: self.instance.data_mut().output.node_names.take(),
        })
    }

    pub fn filter(&mut self, pod: &[u8], node_name: &str) -> Result<GuestStatus, GuestError> {
        self.status_call(Export::Filter, call_input(pod, node_name))
    }

    /// PostFilter with the filter codes per node (`nodeToStatusMap`).
    pub fn postfilter(
        &mut self,
        pod: &[u8],
        node_codes: &[(String, u32)],
    ) -> Result<PostFilterResult, GuestError> {
        let input = CallInput {
            node_to_status_json: json_map(
                node_codes.iter().map(|(n, c)| (n.clone(), i64::from(*c))),
            ),
            ..call_input(pod, "")
        };
        let (code, mode) = split(self.invoke(Export::PostFilter, input)?);
        let status = self.status(Export::PostFilter, code)?;
        let nominated_node_name =
            std::mem::take(&mut self.instance.data_mut().output.nominated_node_name);
        Ok(PostFilterResult {
            status,
            nominating_mode: mode as i32,
            nominated_node_name,
        })
    }

    /// PreScore with the nodes that passed filtering (`filteredNodeList`).
    pub fn prescore(
        &mut self,
        pod: &[u8],
        filtered_nodes: &[String],
    ) -> Result<GuestStatus, GuestError> {
        let json = serde_json::to_string(filtered_nodes).unwrap_or_default();
        self.status_call(
            Export::PreScore,
            CallInput {
                filtered_nodes_json: json,
                ..call_input(pod, "")
            },
        )
    }

    pub fn score(&mut self, pod: &[u8], node_name: &str) -> Result<ScoreResult, GuestError> {
        let (code, score) = split(self.invoke(Export::Score, call_input(pod, node_name))?);
        let status = self.status(Export::Score, code)?;
        Ok(ScoreResult {
            score: i64::from(score as i32),
            status,
        })
    }

    /// NormalizeScore over the raw scores (`nodeScoreList`).
    pub fn normalize_score(
        &mut self,
        pod: &[u8],
        scores: &[(String, i64)],
    ) -> Result<NormalizeResult, GuestError> {
        let input = CallInput {
            node_scores_json: json_map(scores.iter().cloned()),
            ..call_input(pod, "")
        };
        let status = self.status_call(Export::NormalizeScore, input)?;
        let normalized = self
            .instance
            .data_mut()
            .output
            .normalized_scores
            .take()
            .filter(|s| !s.is_empty());
        Ok(NormalizeResult {
            status,
            scores: normalized.unwrap_or_else(|| scores.to_vec()),
        })
    }

    pub fn reserve(&mut self, pod: &[u8], node_name: &str) -> Result<GuestStatus, GuestError> {
        self.status_call(Export::Reserve, call_input(pod, node_name))
    }

    pub fn unreserve(&mut self, pod: &[u8], node_name: &str) -> Result<(), GuestError> {
        self.invoke(Export::Unreserve, call_input(pod, node_name))
            .map(|_| ())
    }

    pub fn permit(&mut self, pod: &[u8], node_name: &str) -> Result<PermitResult, GuestError> {
        let (timeout_ms, code) = split(self.invoke(Export::Permit, call_input(pod, node_name))?);
        Ok(PermitResult {
            status: self.status(Export::Permit, code)?,
            timeout_ms,
        })
    }

    pub fn prebind(&mut self, pod: &[u8], node_name: &str) -> Result<GuestStatus, GuestError> {
        self.status_call(Export::PreBind, call_input(pod, node_name))
    }

    pub fn bind(&mut self, pod: &[u8], node_name: &str) -> Result<GuestStatus, GuestError> {
        self.status_call(Export::Bind, call_input(pod, node_name))
    }

    pub fn postbind(&mut self, pod: &[u8], node_name: &str) -> Result<(), GuestError> {
        self.invoke(Export::PostBind, call_input(pod, node_name))
            .map(|_| ())
    }

    /// PreFilterExtensions.AddPod: `target_pod` is the pod added to `node_name`.
    pub fn add_pod(
        &mut self,
        pod: &[u8],
        target_pod: &[u8],
        node_name: &str,
    ) -> Result<GuestStatus, GuestError> {
        self.target_call(Export::AddPod, pod, target_pod, node_name)
    }

    /// PreFilterExtensions.RemovePod: `target_pod` is the pod removed from `node_name`.
    pub fn remove_pod(
        &mut self,
        pod: &[u8],
        target_pod: &[u8],
        node_name: &str,
    ) -> Result<GuestStatus, GuestError> {
        self.target_call(Export::RemovePod, pod, target_pod, node_name)
    }

    /// AddPod or RemovePod: a status call that also hands over `target_pod`.
    fn target_call(
        &mut self,
        export: Export,
        pod: &[u8],
        target_pod: &[u8],
        node_name: &str,
    ) -> Result<GuestStatus, GuestError> {
        let input = CallInput {
            target_pod: target_pod.to_vec(),
            ..call_input(pod, node_name)
        };
        self.status_call(export, input)
    }
}
