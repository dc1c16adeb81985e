#!/usr/bin/env bash
# Installs HAProxy from the system's packages (Debian's `haproxy`), idempotently: a second run
# with it in place does nothing. The load-balanced MCP test (`tool-examples/tests/
# mcp_balanced.rs`) and `scripts/soak-balanced.sh` run it when `haproxy` is missing; `.ci/run`
# runs it with the other installs. Only the binary is used: the package's own service is never
# started here (the tests start HAProxy themselves, on 127.0.0.1 ports, with a generated config).
#
# Needs root (or sudo without a password) the first time; exits non-zero, saying why, when the
# package can't be installed, and the callers skip what needs it.
set -euo pipefail

log() { echo "install-balancer: $*" >&2; }

if command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ]; then
    log "haproxy already installed: $( (command -v haproxy || echo /usr/sbin/haproxy) | head -n 1)"
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    as_root=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    as_root=(sudo -n)
else
    log "haproxy is missing and installing it needs root (apt-get install haproxy)"
    exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
    log "haproxy is missing and there is no apt-get here to install it"
    exit 1
fi

# One install at a time (test binaries may run this in parallel on a fresh machine).
exec 9>/tmp/install-balancer.lock
flock -w 900 9
if command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ]; then
    log "haproxy installed meanwhile"
    exit 0
fi
log "installing haproxy (apt-get)"
export DEBIAN_FRONTEND=noninteractive
# `update` only when the package is unknown: the lists may be there already.
if ! apt-cache show haproxy >/dev/null 2>&1; then
    timeout 600 "${as_root[@]}" apt-get update -qq
fi
# policy-rc.d 101: the package's service must not start (it would take port 80 or fail).
policy=/usr/sbin/policy-rc.d
restore=""
if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | "${as_root[@]}" tee "$policy" >/dev/null
    "${as_root[@]}" chmod +x "$policy"
    restore=yes
fi
status=0
timeout 600 "${as_root[@]}" apt-get install -y -qq --no-install-recommends haproxy >/dev/null || status=$?
[ -n "$restore" ] && "${as_root[@]}" rm -f "$policy"
if [ "$status" -ne 0 ]; then
    log "apt-get install haproxy failed ($status)"
    exit "$status"
fi
log "ready: $(/usr/sbin/haproxy -v | head -n 1)"
