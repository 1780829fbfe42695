#!/usr/bin/env bash
# Lints the OpenAPI document the server serves with Spectral's `spectral:oas` rules and Redocly's recommended ones
# (scripts/spectral.yaml and scripts/redocly.yaml say which rules they turn off, and why); a warning fails too.
# Both run from node_modules, offline. CI: `bash scripts/openapi-lint.sh` (or `npm run lint:openapi`).
set -euo pipefail
cd "$(dirname "$0")/.."
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
npx tsx scripts/openapi-document.ts "$out/openapi.json"
npx spectral lint "$out/openapi.json" --ruleset scripts/spectral.yaml --fail-severity warn
npx redocly lint "$out/openapi.json" --config scripts/redocly.yaml --format stylish --max-problems 50
