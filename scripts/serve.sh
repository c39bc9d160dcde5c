#!/usr/bin/env bash
# Builds the playground and serves it on http://127.0.0.1:8080, installing what is missing.
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
setup_rust
setup_web_tools
cd "$ROOT"
say "building and serving the playground on http://127.0.0.1:8080"
exec trunk serve --release
