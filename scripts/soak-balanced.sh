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
# With TASKS set (a number), it then also runs MCP tasks through the same kind of setup with a
# shared task store (tests/mcp_clients/balanced_tasks.py, scenario `soak`): its own
# `redis-server` (scripts/install-redis.sh installs it when missing), BACKENDS
# `serve --conformance --task-store redis://...` processes behind HAProxy round-robin, and
# TASKS `slow_compute` tasks from CONCURRENCY clients, each polled with `tasks/get` wherever
# round-robin sends it; it prints their table, and exits non-zero when a task was lost or
# answered as unknown.
#
#   TASKS=500 scripts/soak-balanced.sh       # the modes above, then 500 tasks
#
# Installs HAProxy (scripts/install-balancer.sh) and the Python SDK
# (scripts/install-test-clients.sh) when missing. Every process it starts is stopped at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
CALLS=${1:-3000}
CONCURRENCY=${2:-8}
BACKENDS=${3:-2}
TASKS=${TASKS:-}
if [ -n "$TASKS" ] && ! [[ "$TASKS" =~ ^[0-9]+$ ]]; then
    echo "soak-balanced: TASKS must be a number of tasks, not '$TASKS'" >&2
    exit 2
fi
bash scripts/install-balancer.sh
[ -x .venv/bin/python ] || bash scripts/install-test-clients.sh
cargo build --release --quiet -p tool-examples --bin tool-examples --features redis
TARGET=${CARGO_TARGET_DIR:-target}
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores" >&2
out=$(.venv/bin/python tests/mcp_clients/balanced.py --binary "$TARGET/release/tool-examples" \
    --backends "$BACKENDS" --calls "$CALLS" --concurrency "$CONCURRENCY")
echo "$out" | sed '$d'
status=0
echo "$out" | tail -n 1 | python3 -c '
import json, sys
rows = {row["mode"]: row for row in json.load(sys.stdin)}
bad = [m for m in ("sessionless", "sticky") if rows[m]["lost"]]
sys.exit(f"lost calls in: {bad}" if bad else 0)' || status=1

if [ -n "$TASKS" ]; then
    REDIS=$(bash scripts/install-redis.sh | tail -n 1)
    out=$(.venv/bin/python tests/mcp_clients/balanced_tasks.py --binary "$TARGET/release/tool-examples" \
        --redis-server "$REDIS" --backends "$BACKENDS" --concurrency "$CONCURRENCY" \
        --tasks "$TASKS" --scenarios soak)
    echo "$out" | sed '$d'
    echo "$out" | tail -n 1 | python3 -c '
import json, sys
row = next(row for row in json.load(sys.stdin) if row["scenario"] == "soak")
if "lost" not in row:
    sys.exit("the tasks soak broke: " + str(row.get("error")))
if row["lost"] or row["unknown"]:
    sys.exit("tasks: {} lost, {} unknown of {}".format(row["lost"], row["unknown"], row["made"]))' || status=1
fi
exit "$status"
