#!/usr/bin/env bash
# Runs every check and test: formatting, clippy (native and wasm32), the Rust tests, the
# JavaScript API's tests under Node, the release web build with the API, and the
# headless-Chromium browser tests, plus cargo deny and a short fuzzing run (20 s per target).
# Installs what is missing first.
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
setup_rust
setup_web_tools
setup_browser
setup_fuzz
setup_deny
cd "$ROOT"

say "the structure check (scripts/architecture.py: import circles, v1.17/v1.35 imports, function length)"
python3 scripts/architecture.py --self-test
python3 scripts/architecture.py

say "cargo fmt --check"
cargo fmt --all -- --check
cargo fmt --manifest-path fuzz/Cargo.toml -- --check

say "cargo clippy (native)"
cargo clippy --workspace --all-targets -- -D warnings

say "cargo clippy (wasm32-unknown-unknown)"
cargo clippy -p schedlab_core -p schedlab_wasm -p schedlab_js_plugins -p schedlab_web --target wasm32-unknown-unknown -- -D warnings
cargo clippy -p schedlab_wasm --target wasm32-unknown-unknown --tests -- -D warnings

say "cargo doc (the core's intra-doc links)"
RUSTDOCFLAGS="-D rustdoc::broken_intra_doc_links -A rustdoc::private_intra_doc_links" \
  cargo doc -p schedlab_core --no-deps --document-private-items --quiet

say "cargo test"
cargo test --workspace --exclude schedlab_web
# The playground's pure parts (form documents, import/export bundles), natively.
cargo test -p schedlab_web --lib

say "cargo deny (licences, bans, sources; advisories when reachable)"
bash scripts/deny.sh

say "fuzzing: every target for 20 s (docs/fuzzing.md)"
bash scripts/fuzz.sh 20

say "the JavaScript API under Node (wasm-bindgen-test)"
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  cargo test -p schedlab_wasm --target wasm32-unknown-unknown

# The release builds below are tested, not shipped: without LTO and with 16 codegen units they
# take a third of the time and give the same answers. The page's own profile (wasm-release,
# Cargo.toml) sets its LTO and codegen units itself, so its size budget is measured as shipped.
export CARGO_PROFILE_RELEASE_LTO="${CARGO_PROFILE_RELEASE_LTO:-off}"
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS="${CARGO_PROFILE_RELEASE_CODEGEN_UNITS:-16}"

say "native = wasm, byte for byte"
cargo build --release -p schedlab_cli
cargo build --release --target wasm32-unknown-unknown -p schedlab_wasm
wasm-bindgen --target nodejs --out-dir target/wasm-bench target/wasm32-unknown-unknown/release/schedlab_wasm.wasm
node scripts/determinism.mjs

say "the JavaScript API (dist/api/), then trunk build --release"
bash scripts/build-api.sh
trunk build --release

say "the test extender (tests/extender/extender.py), for the browser tests"
# Started once and reused while it runs (a second run of this script finds it by its pid
# file); the extenders' browser test reaches it through `schedlab extender-proxy`.
start_test_extender() {
  local pidfile="$ROOT/target/test-extender.pid" portfile="$ROOT/target/test-extender.port"
  if ! { [ -f "$pidfile" ] && [ -f "$portfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; }; then
    rm -f "$portfile"
    python3 tests/extender/extender.py --port 0 --port-file "$portfile" >/dev/null 2>&1 &
    echo $! >"$pidfile"
    for _ in $(seq 50); do [ -s "$portfile" ] && break; sleep 0.1; done
    [ -s "$portfile" ] || { echo "the test extender did not start" >&2; return 1; }
  fi
  export SCHEDLAB_EXTENDER_URL="http://127.0.0.1:$(cat "$portfile")"
  export SCHEDLAB_BIN="$ROOT/target/release/schedlab"
}
start_test_extender

say "browser test (headless Chromium)"
node --test tests/browser/

say "every check and test passed"
