#!/usr/bin/env bash
# Installs the real servers the agent tests put between the transports and the scripted
# upstream, into the project's own ignored folders, idempotently:
#
#   .venv-gateways/     TensorZero (PyPI `tensorzero`: its embedded HTTP gateway, with an
#                       OpenAI-compatible endpoint) and LiteLLM's proxy (PyPI `litellm[proxy]`,
#                       with an Anthropic Messages endpoint)
#
# (OpenAI request bodies are checked against the official OpenAPI spec in-process, by
# tests/support/src/openapi.rs; Prism 5.14.2, tried first, does not check them.)
#
# A separate virtualenv from .venv (the MCP SDK's), so the two dependency sets never meet.
# Versions are pinned so that a test run means the same thing everywhere; bump them here.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

TENSORZERO=2026.6.0
LITELLM=1.79.3

log() { echo "install-gateways: $*" >&2; }

mkdir -p .test-clients
exec 9>.test-clients/.gateways.lock
flock -w 1200 9

VENV=.venv-gateways
has() { # PACKAGE VERSION
    "$VENV/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('$1') != '$2')" 2>/dev/null
}
if [ -x "$VENV/bin/python" ] && has tensorzero "$TENSORZERO" && has litellm "$LITELLM"; then
    log "tensorzero $TENSORZERO and litellm $LITELLM already in $VENV"
else
    log "installing tensorzero $TENSORZERO and litellm[proxy] $LITELLM into $VENV"
    [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
        "tensorzero==$TENSORZERO" "litellm[proxy]==$LITELLM"
fi

log "ready: $VENV/bin/python (tensorzero $TENSORZERO, litellm $LITELLM)"

