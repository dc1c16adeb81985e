#!/usr/bin/env bash
# Build times a contributor and a user feel, for one revision of the workspace (debug profile,
# crates already downloaded, so the network is not timed):
#
#   runtime_cold   `cargo build -p tool-runtime` (default features) into an empty target folder;
#   text_touch     the same build again after touching one text format's file (hermes.rs);
#   text_edit      and after adding a comment line to it (an edit: the crate recompiles);
#   user10_cold    a user crate with ten `#[tool]` fns (scripts/gen_compile_bench.py's `c_tool`),
#                  into an empty target folder of its own: the runtime and every dependency too;
#   user10_touch   that crate again after touching its own lib.rs.
#
#   scripts/bench-build.sh [REV]        default HEAD; prints one line per figure (wall seconds)
#
# The revision is checked out with `git worktree` under target/build-bench/, so any commit can be
# measured beside the current one on the same machine. `cargo build --timings` writes each cold
# build's HTML report under its target folder's cargo-timings/. Wall time moves with the machine's
# other load: measure the two revisions one after the other, on a quiet machine, and compare them.
set -euo pipefail
cd "$(dirname "$0")/.."
REV=${1:-HEAD}
SHA=$(git rev-parse --short "$REV")
OUT=$PWD/target/build-bench/$SHA
rm -rf "$OUT"
mkdir -p "$OUT"
git worktree add -q --detach "$OUT/src" "$SHA"
trap 'git worktree remove --force "$OUT/src"' EXIT

timed() {
    local name=$1
    shift
    local start end
    start=$(date +%s.%N)
    "$@" >"$OUT/$name.log" 2>&1
    end=$(date +%s.%N)
    printf '%-14s %7.1f s\n' "$name" "$(echo "$end - $start" | bc)"
}

export CARGO_TARGET_DIR=$OUT/target
(cd "$OUT/src" && timed runtime_cold cargo build --timings -p tool-runtime)
file=$(cd "$OUT/src" && git ls-files | grep '/hermes\.rs$' | grep -v '^tests/' | head -n 1)
touch "$OUT/src/$file"
(cd "$OUT/src" && timed text_touch cargo build -p tool-runtime)
echo "  rebuilt: $(grep -o 'Compiling [a-z_-]*' "$OUT/text_touch.log" | cut -d' ' -f2 | tr '\n' ' ')"
# An edit, not a touch: a comment changes the file's spans, so the crate recompiles for real.
echo "// edited" >>"$OUT/src/$file"
(cd "$OUT/src" && timed text_edit cargo build -p tool-runtime)

# Today's generator (an old revision's may name paths that have moved), run from the revision's
# checkout so that the crate depends on that revision's runtime.
cp scripts/gen_compile_bench.py "$OUT/src/scripts/gen_compile_bench.py"
python3 "$OUT/src/scripts/gen_compile_bench.py" "$OUT/user" 10 >/dev/null
export CARGO_TARGET_DIR=$OUT/user-target
(cd "$OUT/user" && timed user10_cold cargo build --timings -p c_tool)
touch "$OUT/user/c_tool/src/lib.rs"
(cd "$OUT/user" && timed user10_touch cargo build -p c_tool)
echo "reports: $OUT/target/cargo-timings, $OUT/user-target/cargo-timings"
