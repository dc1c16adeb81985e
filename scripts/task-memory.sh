#!/usr/bin/env bash
# What an MCP server's tasks keep in memory at doubling task counts (BENCHMARKS.md §10.5):
# each count in a fresh process, tasks with 1 MiB of arguments each waiting on a question,
# spread over 32 sessionless clients (loopback addresses).
#
#   scripts/task-memory.sh [CLIENTS] [ARG_BYTES]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q -p tool-runtime --features mcp --example task_memory
for tasks in 8 16 32 64 128 256; do
    target/debug/examples/task_memory "$tasks" "${1:-32}" "${2:-1047552}"
done
