//! Runs kube-scheduler-wasm-extension guests deterministically, natively and in a browser.
//!
//! `wasm` is an own WebAssembly interpreter (fuel, caps, no unsafe, never panics on guest
//! input). On top of it, the extension's host side: `Guest` loads a plugin module the way the
//! extension does, serves the `k8s.io/api`, `k8s.io/scheduler`, `k8s.io/klog` and WASI
//! imports, and calls its exports with plain data (`GuestPod`/`GuestNode` as protobuf bytes,
//! node names, scores), decoding the packed results. Nothing here knows schedlab's model.

mod guest;
mod host;
mod proto;
mod wasi;
pub mod wasm;

pub use guest::{
    Export, Guest, GuestConfig, GuestError, GuestStatus, NormalizeResult, PermitResult,
    PostFilterResult, PreFilterResult, ScoreResult,
};
pub use host::{ClusterEvent, GuestLog, LogSource, NodeSnapshot};
pub use proto::{
    node_list_protobuf, GuestContainer, GuestImage, GuestNode, GuestNodeAffinity, GuestPod,
    GuestRequirement, GuestSelectorTerm, GuestTaint, GuestToleration,
};
