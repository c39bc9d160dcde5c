#!/usr/bin/env bash
# Builds the threaded benchmark API (crates/schedlab_wasm_threads: the core's `parallel`
# feature on a wasm-bindgen-rayon pool of Web Workers) into target/schedlab-api-threads/:
#
#   schedlab_threads.js, schedlab_threads_bg.wasm, snippets/wasm-bindgen-rayon-*/...
#
# For the benchmark page only (assets/bench.html?threaded=api-threads/; scripts/bench-page.mjs
# serves it as api-threads/ when it is there). The stable API (scripts/build-api.sh) is
# untouched. Needs the nightly toolchain with rust-src and the wasm32 target (installed here
# when missing) and wasm-bindgen-cli 0.2.130. std is rebuilt with atomics (build-std), the
# first time in a few minutes.
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
export PATH="$HOME/.cargo/bin:$PATH"
if ! wasm-bindgen --version 2>/dev/null | grep -q "$WASM_BINDGEN_VERSION"; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 3 minutes, once)"
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi
rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
rustup +nightly component list --installed | grep -q '^rust-src' || rustup component add rust-src --toolchain nightly
rustup +nightly target list --installed | grep -q '^wasm32-unknown-unknown$' || rustup target add wasm32-unknown-unknown --toolchain nightly

CRATE="$ROOT/crates/schedlab_wasm_threads"
STAGE="$ROOT/target/schedlab-api-threads"
# Its own target folder: nightly, build-std and the atomics flags share nothing with the rest.
export CARGO_TARGET_DIR="$ROOT/target/threads"

say "building the threaded benchmark API (nightly, build-std, wasm atomics)"
# In the crate's folder, so its rust-toolchain.toml (nightly) and .cargo/config.toml apply.
(cd "$CRATE" && cargo build --release)

rm -rf "$STAGE.new"
wasm-bindgen --target web --out-name schedlab_threads --out-dir "$STAGE.new" \
  "$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/schedlab_wasm_threads.wasm"
rm -rf "$STAGE"
mv "$STAGE.new" "$STAGE"
say "threaded API in target/schedlab-api-threads/ ($(du -sh "$STAGE" | cut -f1))"
