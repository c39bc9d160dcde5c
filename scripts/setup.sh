# Installs what schedlab's build and tests need, skipping whatever is already there at the
# right version. Sourced by scripts/serve.sh and scripts/test.sh; safe to run again.
# Versions: see shared/guide/TOOLCHAIN.md (trunk 0.21.14 builds on stable, wasm-bindgen-cli
# must equal the wasm-bindgen in Cargo.lock, wasm-opt comes from npm binaryen@132; cargo-fuzz
# and cargo-deny: see docs/fuzzing.md and docs/dependencies.md).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WASM_BINDGEN_VERSION=0.2.130
TRUNK_VERSION=0.21.14
CARGO_FUZZ_VERSION=0.13.2
CARGO_DENY_VERSION=0.20.2
WASM_SPLIT_VERSION=0.2.4

# Each step's line carries the time since the first script started ([mm:ss]), so a slow CI
# run shows where its hour went.
export SCHEDLAB_T0="${SCHEDLAB_T0:-$(date +%s)}"
say() {
  local t=$(($(date +%s) - SCHEDLAB_T0))
  printf '\033[1m==> [%02d:%02d] %s\033[0m\n' $((t / 60)) $((t % 60)) "$*"
}

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "need root for: $*" >&2; return 1; fi
}

setup_rust() {
  # rust-toolchain.toml pins the toolchain; make sure its wasm target and components exist.
  local tc
  tc="$(sed -n 's/^channel *= *"\(.*\)"/\1/p' "$ROOT/rust-toolchain.toml")"
  if ! rustup +"$tc" target list --installed 2>/dev/null | grep -q '^wasm32-unknown-unknown$'; then
    say "adding the wasm32-unknown-unknown target to $tc"
    rustup target add wasm32-unknown-unknown --toolchain "$tc"
  fi
  for c in rustfmt clippy; do
    rustup +"$tc" component list --installed 2>/dev/null | grep -q "^$c" || rustup component add "$c" --toolchain "$tc"
  done
}

setup_web_tools() {
  export PATH="$ROOT/node_modules/.bin:$HOME/.cargo/bin:$PATH"
  if ! trunk --version 2>/dev/null | grep -q "$TRUNK_VERSION"; then
    # Unoptimised (`--debug`): trunk only drives cargo, wasm-bindgen and wasm-opt and copies
    # files, and builds in about a third of the time.
    say "installing trunk $TRUNK_VERSION (about 4 minutes, once)"
    cargo install "trunk@$TRUNK_VERSION" --locked --debug
  fi
  # wasm-bindgen-cli also brings wasm-bindgen-test-runner (the API's tests run under Node).
  if ! wasm-bindgen --version 2>/dev/null | grep -q "$WASM_BINDGEN_VERSION" \
    || ! wasm-bindgen-test-runner --version 2>/dev/null | grep -q "$WASM_BINDGEN_VERSION"; then
    say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 3 minutes, once)"
    cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
  fi
  # wasm-split-cli cuts the page's wasm at its `#[lazy]` split points (scripts/split-page.sh).
  if ! cargo install --list 2>/dev/null | grep -q "^wasm_split_cli_support v$WASM_SPLIT_VERSION:" \
    || ! command -v wasm-split-cli >/dev/null; then
    say "installing wasm-split-cli $WASM_SPLIT_VERSION (about 2 minutes, once)"
    cargo install "wasm_split_cli_support@$WASM_SPLIT_VERSION" --locked --features build-binary
  fi
  if [ ! -x "$ROOT/node_modules/.bin/wasm-opt" ] || [ ! -d "$ROOT/node_modules/playwright-core" ]; then
    say "installing npm packages (binaryen's wasm-opt, playwright-core)"
    (cd "$ROOT" && npm ci --no-audit --no-fund)
  fi
  (cd "$ROOT" && cargo fetch --quiet)
  export TRUNK_SKIP_VERSION_CHECK=true
}

setup_browser() {
  if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    say "installing Debian chromium and chromium-driver"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
  fi
}

# CI's tools, built unoptimised (`--debug`): they only drive cargo and read Cargo.lock, and so
# build in a third of the time (cargo-fuzz in about 1 minute, cargo-deny in about 2).
# cargo-fuzz needs a nightly toolchain (sanitizers, -Z flags); the workspace stays on stable.
setup_fuzz() {
  export PATH="$HOME/.cargo/bin:$PATH"
  if ! rustup toolchain list | grep -q '^nightly'; then
    say "installing the nightly toolchain (for cargo-fuzz)"
    rustup toolchain install nightly --profile minimal
  fi
  if ! cargo fuzz --version 2>/dev/null | grep -q "$CARGO_FUZZ_VERSION"; then
    say "installing cargo-fuzz $CARGO_FUZZ_VERSION (about 1 minute, once)"
    cargo install "cargo-fuzz@$CARGO_FUZZ_VERSION" --locked --debug
  fi
}

setup_deny() {
  export PATH="$HOME/.cargo/bin:$PATH"
  if ! cargo deny --version 2>/dev/null | grep -q "$CARGO_DENY_VERSION"; then
    say "installing cargo-deny $CARGO_DENY_VERSION (about 2 minutes, once)"
    cargo install "cargo-deny@$CARGO_DENY_VERSION" --locked --debug
  fi
}
