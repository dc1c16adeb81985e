#!/usr/bin/env bash
# Instructions per call for each pipeline path and the hand-written baseline, counted by
# callgrind (deterministic: other load on the machine doesn't change it). Each path runs twice,
# with 0 and with $CALLS calls; the difference divided by $CALLS is one call's cost.
set -euo pipefail
cd "$(dirname "$0")/.."
CALLS=${CALLS:-20000}
cargo bench -p tool-tests --features bench --bench pipeline_counts --no-run 2>&1 | tail -1
bin=$(ls -t target/release/deps/pipeline_counts-* | grep -v '\.d$' | head -1)
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$@" 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
printf '%-8s %-16s %12s %8s\n' size path instr/call ratio
for size in small large; do
    base=0
    for path in baseline exact validation_off range_checked; do
        zero=$(count "$path" "$size" 0)
        many=$(count "$path" "$size" "$CALLS")
        per=$(( (many - zero) / CALLS ))
        [ "$path" = baseline ] && base=$per
        printf '%-8s %-16s %12d %8s\n' "$size" "$path" "$per" "$(awk -v a="$per" -v b="$base" 'BEGIN{printf "%.2fx", a/b}')"
    done
done
