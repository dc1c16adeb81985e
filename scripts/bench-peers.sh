#!/usr/bin/env bash
# Our registry against rmcp and rig on the same tool, in one criterion run, then the same
# paths in instructions per call (callgrind), then the tables and the chart
# (bench-peers/results/per-call.svg).
#
#   scripts/bench-peers.sh                 # MEASURE=4 (seconds per bench), CALLS=20000
#   SKIP_COUNTS=1 scripts/bench-peers.sh   # criterion only
#
# bench-peers/ is its own workspace (the main one excludes it, so `cargo test --workspace`
# never builds rmcp, rig or criterion); it shares the main build directory. The first build
# takes about 11 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
MEASURE=${MEASURE:-4}
CALLS=${CALLS:-20000}
export CARGO_TARGET_DIR=$ROOT/target
export CRITERION_HOME=$ROOT/target/criterion-peers
RESULTS=$ROOT/bench-peers/results
mkdir -p "$RESULTS"

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
(cd bench-peers && cargo bench --bench peers -- --warm-up-time 1 --measurement-time "$MEASURE")
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

COUNTS=$CRITERION_HOME/counts.tsv
if [ -z "${SKIP_COUNTS:-}" ]; then
    bin=$(cd bench-peers && cargo bench --bench peer_counts --no-run --message-format=json 2>/dev/null \
        | sed -n 's/.*"executable":"\([^"]*peer_counts[^"]*\)".*/\1/p' | tail -1)
    count() {
        valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$@" 2>&1 \
            | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
    }
    : >"$COUNTS"
    for size in small large; do
        for path in baseline ours_blocking ours_async ours_sync_await ours_inline_await rmcp rig; do
            zero=$(count "$path" "$size" 0)
            many=$(count "$path" "$size" "$CALLS")
            echo "$size $path $(( (many - zero) / CALLS ))" | tee -a "$COUNTS"
        done
    done
fi

python3 scripts/bench_peers_report.py "$CRITERION_HOME" "$COUNTS" "$RESULTS/per-call.svg" | tee "$RESULTS/peers.md"
