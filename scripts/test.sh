#!/usr/bin/env bash
# Runs every check and test: formatting, clippy (native and wasm32), the Rust tests, the
# release web build, and the headless-Chromium browser test. Installs what is missing first.
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
setup_rust
setup_web_tools
setup_browser
cd "$ROOT"

say "cargo fmt --check"
cargo fmt --all -- --check

say "cargo clippy (native)"
cargo clippy --workspace --all-targets -- -D warnings

say "cargo clippy (wasm32-unknown-unknown)"
cargo clippy -p schedlab_core -p schedlab_wasm -p schedlab_web --target wasm32-unknown-unknown -- -D warnings

say "cargo test"
cargo test --workspace --exclude schedlab_web
# The playground's pure parts (form documents, import/export bundles), natively.
cargo test -p schedlab_web --lib

say "native = wasm, byte for byte"
cargo build --release -p schedlab_cli
cargo build --release --target wasm32-unknown-unknown -p schedlab_wasm
wasm-bindgen --target nodejs --out-dir target/wasm-bench target/wasm32-unknown-unknown/release/schedlab_wasm.wasm
node scripts/determinism.mjs

say "trunk build --release"
trunk build --release

say "browser test (headless Chromium)"
node --test tests/browser/
