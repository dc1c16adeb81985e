#!/usr/bin/env bash
# The first export of 1,000 tools in a fresh process, per dialect: the median and range over
# several processes (`tests/benches/first_export.rs`), and the page faults the export took.
#
#   scripts/bench-first-export.sh [PROCESSES] [DIALECT ...]     default: 15 processes, all
set -euo pipefail
cd "$(dirname "$0")/.."
PROCESSES=${1:-15}
shift || true
DIALECTS=${*:-openai-chat openai-responses anthropic gemini mcp \
    openai-chat_strict openai-responses_strict anthropic_strict}
cargo bench -p tool-tests --features bench --bench first_export --no-run 2>&1 | tail -1
bin=$(ls -t target/release/deps/first_export-* | grep -v '\.d$' | head -1)
printf '%-26s %10s %16s %12s\n' "first export, 1,000 tools" "median ms" "range ms" "page faults"
for dialect in $DIALECTS; do
    for _ in $(seq "$PROCESSES"); do "$bin" "$dialect"; done | sort -n | awk -v d="$dialect" '
        { ms[NR] = $1; faults[NR] = $2 }
        END { m = int((NR + 1) / 2);
              printf "%-26s %10.2f %7.2f-%-8.2f %12d\n", d, ms[m], ms[1], ms[NR], faults[m] }'
done
echo "($PROCESSES fresh processes per dialect)"
