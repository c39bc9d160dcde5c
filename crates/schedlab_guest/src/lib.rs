//! Runs kube-scheduler-wasm-extension guests deterministically.
//!
//! `wasm` is an own WebAssembly interpreter (fuel, caps, no unsafe, never panics on guest
//! input). The rest is the extension's host side: the guest ABI.

pub mod wasm;
