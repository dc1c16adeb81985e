#!/usr/bin/env bash
# MCP on more than one process behind a real load balancer: builds `tool-examples` in release
# mode, starts BACKENDS `tool-examples serve --http` processes and HAProxy in front of them
# (round-robin, 127.0.0.1 ports, a generated config), and drives it with the official Python
# SDK: CALLS `tools/call`s from CONCURRENCY concurrent clients in each mode
#
#   sessionless   protocol 2026-07-28 (the SDK's default): no sessions, any backend answers
#   classic       the `initialize` handshake and `Mcp-Session-Id` behind plain round-robin:
#                 calls are lost (expected; it shows why sessions need stickiness)
#   sticky        the same handshake with HAProxy's stick table on `Mcp-Session-Id`
#
# and prints a table: calls made, answered, lost, p50/p99 latency, calls per second, each
# backend's share; then what HAProxy counted per backend, and the lost calls' errors. Exits
# non-zero when a sessionless or sticky call was lost.
#
#   scripts/soak-balanced.sh                 # 3000 calls per mode, 8 clients, 2 backends
#   scripts/soak-balanced.sh 10000 16 3      # 10000 calls, 16 clients, 3 backends
#
# Installs HAProxy (scripts/install-balancer.sh) and the Python SDK
# (scripts/install-test-clients.sh) when missing. Every process it starts is stopped at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
CALLS=${1:-3000}
CONCURRENCY=${2:-8}
BACKENDS=${3:-2}
bash scripts/install-balancer.sh
[ -x .venv/bin/python ] || bash scripts/install-test-clients.sh
cargo build --release --quiet -p tool-examples --bin tool-examples
TARGET=${CARGO_TARGET_DIR:-target}
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores" >&2
out=$(.venv/bin/python tests/mcp_clients/balanced.py --binary "$TARGET/release/tool-examples" \
    --backends "$BACKENDS" --calls "$CALLS" --concurrency "$CONCURRENCY")
echo "$out" | sed '$d'
echo "$out" | tail -n 1 | python3 -c '
import json, sys
rows = {row["mode"]: row for row in json.load(sys.stdin)}
bad = [m for m in ("sessionless", "sticky") if rows[m]["lost"]]
sys.exit(f"lost calls in: {bad}" if bad else 0)'
