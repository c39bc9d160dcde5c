#!/usr/bin/env bash
# Builds the CLI (native) and schedlab_wasm (wasm32, for Node), then checks that both give the
# same JSON report, byte for byte, for every golden scenario and gallery example.
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
setup_rust
setup_web_tools
cd "$ROOT"
cargo build --release -p schedlab_cli
cargo build --release --target wasm32-unknown-unknown -p schedlab_wasm
wasm-bindgen --target nodejs --out-dir target/wasm-bench target/wasm32-unknown-unknown/release/schedlab_wasm.wasm
node scripts/determinism.mjs
