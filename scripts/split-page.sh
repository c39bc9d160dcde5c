#!/usr/bin/env bash
# Trunk's post_build hook (Trunk.toml): cuts the page's wasm into a small main module and
# chunks fetched on first use, at the page's `#[lazy]` split points (the engine's host, the
# questions, the panels that are not on the first screen). See ARCHITECTURE.md, "The first
# load", and docs/benchmarks.md.
#
# Trunk 0.21 runs cargo and wasm-bindgen itself with no step between them, so this hook takes
# cargo's wasm again (linked with `--emit-relocs`, web/build.rs), splits it with wasm-split-cli
# (scripts/setup.sh installs it), binds it with wasm-bindgen `--keep-lld-exports` (the chunks
# import the main module's function table), and writes the result over the files Trunk made,
# under the same hashed names, so Trunk's loader in index.html stays as it is. The chunks go in a
# folder named after that hash (`schedlab_web-<hash>.split/`), so a browser never mixes one
# build's main module with another's chunks. In a release build each file then goes through
# wasm-opt -Oz (Trunk's own pass is off in web/index.html: it would optimise the unsplit module).
set -euo pipefail

staging="${TRUNK_STAGING_DIR:?run by trunk (Trunk.toml)}"
root="$(cd "${TRUNK_SOURCE_DIR:?run by trunk}/.." && pwd)"
case "${TRUNK_PROFILE:-debug}" in
  release) profile=wasm-release ;; # web/index.html: data-cargo-profile-release
  *) profile=debug ;;
esac
input="${CARGO_TARGET_DIR:-$root/target}/wasm32-unknown-unknown/$profile/schedlab_web.wasm"

fail() {
  echo "scripts/split-page.sh: $*" >&2
  exit 1
}
command -v wasm-split-cli >/dev/null || fail "wasm-split-cli is missing: run scripts/serve.sh (it installs it), or: cargo install --locked wasm_split_cli_support@0.2.4 --features build-binary"
command -v wasm-bindgen >/dev/null || fail "wasm-bindgen is missing: run scripts/serve.sh (it installs it)"
if [ "$profile" = wasm-release ] && ! command -v wasm-opt >/dev/null; then
  fail "wasm-opt is missing: run \`npm ci\` and put node_modules/.bin first on PATH (scripts/serve.sh does both)"
fi
[ -f "$input" ] || fail "no $input (cargo's wasm for this profile)"
shopt -s nullglob
glues=("$staging"/schedlab_web-*.js)
[ ${#glues[@]} = 1 ] || fail "expected one schedlab_web-<hash>.js in $staging, found ${#glues[@]}"
stem="$(basename "${glues[0]}" .js)"
chunks="$stem.split"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
wasm-split-cli --target web --out-name "$stem" "$input" "$work/split"
wasm-bindgen --keep-lld-exports --target web --no-typescript \
  --out-dir "$work/bound" --out-name "$stem" "$work/split/$stem.wasm"

# The glue imports the chunks' loader from its own folder; the loader imports the glue from the
# folder above.
grep -q '"./__wasm_split.js"' "$work/bound/$stem.js" || fail "the glue does not import ./__wasm_split.js"
sed -i "s#^\(import .* from \)\"./__wasm_split.js\"#\1\"./$chunks/__wasm_split.js\"#" "$work/bound/$stem.js"
grep -q "\"./$stem.js\"" "$work/split/__wasm_split.js" || fail "the chunks' loader does not import ./$stem.js"
sed -i "s#^\(import .* from \)\"./$stem.js\"#\1\"../$stem.js\"#" "$work/split/__wasm_split.js"

rm -rf "$staging/$chunks"
mkdir -p "$staging/$chunks"
cp "$work/split/__wasm_split.js" "$staging/$chunks/"
optimise() { # in out
  if [ "$profile" = wasm-release ]; then
    wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
      --enable-mutable-globals --enable-reference-types --enable-multivalue "$1" -o "$2"
  else
    cp "$1" "$2"
  fi
}
optimise "$work/bound/${stem}_bg.wasm" "$staging/${stem}_bg.wasm"
rm "$work/split/$stem.wasm" # the main module before wasm-bindgen, bound above
export -f optimise
export profile
find "$work/split" -name '*.wasm' -print0 |
  xargs -0 -P "$(nproc)" -I{} bash -c 'optimise "$1" "$2/$(basename "$1")"' _ {} "$staging/$chunks"
cp "$work/bound/$stem.js" "$staging/$stem.js"
# wasm-bindgen's inline JS snippets, should they differ from those Trunk copied.
if [ -d "$work/bound/snippets" ]; then cp -r "$work/bound/snippets" "$staging/"; fi
n=$(find "$staging/$chunks" -name '*.wasm' | wc -l)
echo "scripts/split-page.sh: $stem: the main module $(wc -c <"$staging/${stem}_bg.wasm") B, $n chunks in $chunks/"
