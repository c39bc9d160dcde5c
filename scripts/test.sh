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
cargo clippy -p schedlab_core -p schedlab_web --target wasm32-unknown-unknown -- -D warnings

say "cargo test"
cargo test --workspace --exclude schedlab_web

say "trunk build --release"
trunk build --release

say "browser test (headless Chromium)"
node --test tests/browser/
