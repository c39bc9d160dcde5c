#!/usr/bin/env bash
# Builds the playground and serves it on http://127.0.0.1:8080, installing what is missing.
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
setup_rust
setup_web_tools
cd "$ROOT"
# The JavaScript API first: web/index.html copies it into the site (api/, api-example.html),
# so every rebuild of `trunk serve` keeps it. Rerun scripts/build-api.sh after changing it.
bash scripts/build-api.sh
say "building and serving the playground on http://127.0.0.1:8080 (the API example: /api-example.html)"
exec trunk serve --release
