#!/usr/bin/env bash
# Builds the JavaScript API for embedders: schedlab_wasm for wasm32 (release), wasm-bindgen
# --target web, plus the <schedlab-scenario> custom element and two example scenario bundles.
#
#   target/schedlab-api/          the staged API; web/index.html copies it into the site as
#                                 api/ (Trunk copy-dir), so every `trunk build` and every
#                                 rebuild of `trunk serve` includes it
#   dist/api/                     the same files, for a dist/ built before (and the example
#                                 page, dist/api-example.html)
#     schedlab.js                 the ES module (`import init, { Simulator } from ...`)
#     schedlab.d.ts               its TypeScript declarations, generated from the Rust types
#     schedlab_bg.wasm            the wasm it loads
#     schedlab-scenario.js        the custom element (crates/schedlab_wasm/js/)
#     examples/*.yaml             gallery scenarios as the playground exports them
#
# Run it before `trunk build` / `trunk serve` (scripts/serve.sh and scripts/test.sh do).
# Idempotent: each run replaces the staged folder whole.
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
setup_rust
setup_web_tools
cd "$ROOT"

STAGE="$ROOT/target/schedlab-api"
WASM="target/wasm32-unknown-unknown/release/schedlab_wasm.wasm"

say "building the JavaScript API (schedlab_wasm, wasm32, release)"
cargo build --release --target wasm32-unknown-unknown -p schedlab_wasm

rm -rf "$STAGE.new"
mkdir -p "$STAGE.new/examples"
wasm-bindgen --target web --out-name schedlab --out-dir "$STAGE.new" "$WASM"
cp crates/schedlab_wasm/js/schedlab-scenario.js "$STAGE.new/"

# A gallery example as one multi-document YAML file, in the playground's export format
# (web/src/bundle.rs): a marker line per editor. v1.17 examples carry their Policy (or none)
# and v1.17's default configuration; v1.35 examples their v1 configuration and no Policy.
bundle() {
  local name="$1" dir="assets/scenarios/$1" out="$STAGE.new/examples/$1.yaml" first=1 stem file
  {
    printf '# A schedlab scenario, exported from the playground. Import it there, or run it with\n'
    printf '# `schedlab run <this file>`.\n'
    for stem in nodes pods policy config; do
      file=""
      case "$stem" in
        nodes | pods) file="$(ls "$dir/$stem".* 2>/dev/null | head -n 1)" ;;
        policy) [ -f "$dir/config.yaml" ] || file="$(ls "$dir"/policy.* 2>/dev/null | head -n 1)" ;;
        config) if [ -f "$dir/config.yaml" ]; then file="$dir/config.yaml"; else file="assets/scenarios/config.yaml"; fi ;;
      esac
      [ -n "$file" ] || continue
      [ "$first" = 1 ] || printf -- '---\n'
      first=0
      printf '# ==== schedlab: %s ====\n' "$stem"
      # The text without its trailing blank lines, then one newline.
      printf '%s\n' "$(cat "$file")"
    done
  } >"$out"
}
bundle classic
bundle preemption-v135

rm -rf "$STAGE"
mv "$STAGE.new" "$STAGE"
mkdir -p dist
rm -rf dist/api
cp -r "$STAGE" dist/api
cp assets/api-example.html dist/
say "JavaScript API in dist/api/ ($(du -sh dist/api | cut -f1)): schedlab.js, schedlab.d.ts, schedlab-scenario.js"

# The threaded build (nightly, wasm atomics): the questions panel's worker and bench.html use
# it where the page is cross-origin isolated. Trunk copies it into the site as api-threads/
# when it is there (Trunk.toml's post_build hook). Without it everything still works, on one
# thread; CI insists on it.
if ! bash scripts/build-api-threads.sh; then
  if [ -n "${CI:-}" ]; then
    echo "the threaded build failed (scripts/build-api-threads.sh)" >&2
    exit 1
  fi
  say "warning: the threaded build failed; the page's questions and bench.html run on one thread"
  rm -rf "$ROOT/target/schedlab-api-threads"
fi
