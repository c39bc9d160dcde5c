#!/usr/bin/env bash
# cargo deny (deny.toml): licences, bans and sources always; security advisories only when the
# RustSec advisory database can be fetched. GitHub, where it lives, is unreachable from these
# machines and CI, so there the advisories are skipped, said in one line, and CI goes on.
# See docs/dependencies.md.
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
setup_deny
cd "$ROOT"

say "cargo deny check licenses bans sources"
cargo deny check licenses bans sources

say "cargo deny check advisories"
log="$(mktemp)"
if timeout 120 cargo deny fetch db >"$log" 2>&1; then
  cargo deny --offline check advisories
else
  echo "cargo deny: advisories SKIPPED: the advisory database (github.com/rustsec/advisory-db) is unreachable:"
  grep -m1 -E 'fatal|error|ERROR' "$log" | sed 's/^/  /' || true
fi
rm -f "$log"
