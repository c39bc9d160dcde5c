#!/usr/bin/env bash
# Builds schedlab_wasm for wasm32 and runs a benchmark workload in Node
# (WORKLOAD=scheduling-basic|pod-anti-affinity|pod-affinity|topology-spreading; see bench-wasm.mjs).
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
setup_rust
setup_web_tools
cd "$ROOT"
cargo build --release --target wasm32-unknown-unknown -p schedlab_wasm
wasm-bindgen --target nodejs --out-dir target/wasm-bench target/wasm32-unknown-unknown/release/schedlab_wasm.wasm
node scripts/bench-wasm.mjs
