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

# A batch of 1,000 async calls (`dispatch_counts`): instructions per call, against the
# hand-written calls' `join_all`.
cargo bench -p tool-tests --features bench --bench dispatch_counts --no-run 2>&1 | tail -1
bin=$(ls -t target/release/deps/dispatch_counts-* | grep -v '\.d$' | head -1)
BATCHES=${BATCHES:-10}
printf '\n%-28s %12s %8s\n' batch instr/call ratio
base=0
for path in join_all_hand_written dispatch_all_parallel_safe dispatch_all_exclusive; do
    zero=$(count "$path" 0)
    many=$(count "$path" "$BATCHES")
    per=$(( (many - zero) / (BATCHES * 1000) ))
    [ "$path" = join_all_hand_written ] && base=$per
    printf '%-28s %12d %8s\n' "$path" "$per" "$(awk -v a="$per" -v b="$base" 'BEGIN{printf "%.2fx", a/b}')"
done

# A registry of 1,000 tools (`registry_counts`): instructions per build and per export.
cargo bench -p tool-tests --features bench --bench registry_counts --no-run 2>&1 | tail -1
bin=$(ls -t target/release/deps/registry_counts-* | grep -v '\.d$' | head -1)
per_run() { echo $(( ($(count "$1" 3) - $(count "$1" 0)) / 3 )); }
printf '\n%-28s %14s\n' "1,000 tools" instructions
build=$(per_run build)
printf '%-28s %14d\n' build "$build" build_validation_off "$(per_run build_validation_off)"
# "first": a fresh registry's first export with the drop of what it cached, as the build's
# difference; "lowering": the instructions inside `export_schema_shared` alone (callgrind
# counting only while it runs), the figure BENCHMARKS.md §3 quotes.
inside() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        --toggle-collect='*export_schema_shared*' "$bin" "$1" 1 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
printf '%-28s %14s %14s %14s\n' export first lowering repeated
for what in openai-chat openai-responses anthropic gemini mcp \
    openai-chat_strict openai-responses_strict anthropic_strict; do
    printf '%-28s %14d %14d %14d\n' "$what" $(( $(per_run "$what") - build )) \
        "$(inside "$what")" "$(per_run "${what}_repeat")"
done
