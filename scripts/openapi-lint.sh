#!/usr/bin/env bash
# Lints the OpenAPI document the server serves with Redocly's recommended rules (scripts/redocly.yaml says which
# rules it turns off, and why). CI: `bash scripts/openapi-lint.sh` (or `npm run lint:openapi`).
set -euo pipefail
cd "$(dirname "$0")/.."
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
npx tsx scripts/openapi-document.ts "$out/openapi.json"
npx redocly lint "$out/openapi.json" --config scripts/redocly.yaml --format stylish
