#!/usr/bin/env bash
# Builds the cargo-fuzz targets in fuzz/ and runs each for a while; fails on the first crash
# (its input is left in fuzz/artifacts/TARGET/). See docs/fuzzing.md.
#
#   bash scripts/fuzz.sh                      # every target, 20 s each (what CI runs)
#   bash scripts/fuzz.sh 600 simulation       # one target, ten minutes
#
# New inputs go to fuzz/target/corpus/TARGET (kept between local runs, not committed); the
# committed seeds in fuzz/corpus/TARGET and reproducers in fuzz/regressions/TARGET are read
# at the start of every run.
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
setup_fuzz
cd "$ROOT"

seconds="${1:-20}"
shift || true
if [ $# -gt 0 ]; then targets=("$@"); else mapfile -t targets < <(cargo +nightly fuzz list); fi

# Optimised (the core and its parsers; see fuzz/Cargo.toml), with debug assertions and
# overflow checks. No sanitizer by default: the workspace has no unsafe code, and
# AddressSanitizer makes the runs about six times slower. FUZZ_SANITIZER=address turns it on
# (a full rebuild of fuzz/target).
build=(--sanitizer "${FUZZ_SANITIZER:-none}" --codegen-units 16)
say "cargo fuzz build ${build[*]}"
cargo +nightly fuzz build "${build[@]}"

for t in "${targets[@]}"; do
  work="fuzz/target/corpus/$t"
  mkdir -p "$work"
  dirs=("$work" "fuzz/corpus/$t")
  if [ -d "fuzz/regressions/$t" ]; then dirs+=("fuzz/regressions/$t"); fi
  opts=(-max_total_time="$seconds" -rss_limit_mb=2048 -timeout=30 -print_final_stats=1)
  case "$t" in
    input_documents | configurations | block_yaml) opts+=(-dict=fuzz/dicts/kubernetes.dict) ;;
    # Structured (arbitrary) input: long inputs from the start make bigger scenarios.
    simulation) opts+=(-max_len=1024 -len_control=0) ;;
  esac
  say "cargo fuzz run $t (${seconds} s)"
  cargo +nightly fuzz run "${build[@]}" "$t" "${dirs[@]}" -- "${opts[@]}"
done
