#!/usr/bin/env bash
# Soak test of the MCP HTTP server (issue 8, "Load"): builds `tool-examples` and the `soak`
# binary (feature `soak`, never built by `cargo test`) in release mode, then runs CLIENTS
# concurrent MCP clients against `tool-examples serve --http 127.0.0.1:0` for SECONDS,
# mixing good, bad and slow calls. Prints calls per second, answers by kind, latency
# percentiles and the server's peak memory; exits non-zero when a call was lost or answered
# wrongly, the server died, or its peak RSS passed --max-rss-mb.
#
#   scripts/soak.sh                    # 60 s, 16 clients
#   scripts/soak.sh 120 64             # 120 s, 64 clients
#   scripts/soak.sh 60 16 --no-exec    # further flags go to the binary (soak --help)
#
# All traffic stays on 127.0.0.1; the server and its scratch workspace go away at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_=${1:-60}
CLIENTS=${2:-16}
shift $(( $# < 2 ? $# : 2 ))
cargo build --release --quiet -p tool-examples --features soak --bin tool-examples --bin soak
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores" >&2
target/release/soak --seconds "$SECONDS_" --clients "$CLIENTS" "$@"
