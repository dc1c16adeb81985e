#!/usr/bin/env bash
# Compile time of 100 tools: `#[tool]` fns, the same fns with serde-derived argument structs,
# with serde + schemars derives, and as rmcp tools. Generates the crates under
# target/compile-bench/ (scripts/gen_compile_bench.py), builds their dependencies once, then
# times an incremental release rebuild of each crate after `touch src/lib.rs` with hyperfine
# and prints the medians and their ratios.
#
#   scripts/bench-compile.sh            # RUNS=5 TOOLS=100
#   RUNS=3 CRATES="c_tool c_schemars" scripts/bench-compile.sh
#
# The generated workspace has its own build directory (target/compile-bench/target), so a
# build elsewhere in the project never holds the lock a timed build waits on. The machine's
# other load still changes wall time: the script prints the load average before and after.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
TOOLS=${TOOLS:-100}
CRATES=${CRATES:-"c_plain c_schemars c_tool c_rmcp"}
OUT=$PWD/target/compile-bench
export CARGO_TARGET_DIR=$OUT/target

if ! command -v hyperfine >/dev/null; then
    echo "installing hyperfine" >&2
    if [ "$(id -u)" = 0 ]; then apt-get install -y hyperfine >/dev/null; else sudo apt-get install -y hyperfine >/dev/null; fi
fi

python3 scripts/gen_compile_bench.py "$OUT" "$TOOLS"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for c in $CRATES; do
    # Dependencies once, and the crate itself, so the timed runs rebuild only the crate.
    (cd "$OUT" && cargo build --release -q -p "$c")
done
for c in $CRATES; do
    (cd "$OUT" && hyperfine --runs "$RUNS" --style basic \
        --prepare "touch $OUT/$c/src/lib.rs" \
        --export-json "$OUT/compile_release_$c.json" \
        "cargo build --release -q -p $c") >&2
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$OUT" $CRATES <<'EOF'
import json, statistics, sys
out, crates = sys.argv[1], sys.argv[2:]
rows = {}
for c in crates:
    result = json.load(open(f"{out}/compile_release_{c}.json"))["results"][0]
    times = result["times"]
    # CPU time (user + system, mean): less sensitive than wall time to other load.
    rows[c] = (statistics.median(times), min(times), max(times), len(times), result["user"] + result["system"])
print(f"{'crate':<12} {'median':>9} {'min':>8} {'max':>8} {'runs':>5} {'x plain':>8} {'x schemars':>11} {'cpu':>8} {'cpu x schemars':>15}")
for c, (m, lo, hi, n, cpu) in rows.items():
    rel = lambda base, i: f"{rows[c][i] / rows[base][i]:.2f}x" if base in rows else "-"
    print(f"{c:<12} {m:>8.2f}s {lo:>7.2f}s {hi:>7.2f}s {n:>5} {rel('c_plain', 0):>8} {rel('c_schemars', 0):>11} {cpu:>7.2f}s {rel('c_schemars', 4):>15}")
EOF
