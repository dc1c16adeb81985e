#!/usr/bin/env bash
# Installs Redis from the system's packages (Debian's `redis-server`), idempotently: a second
# run with it in place does nothing. The load-balanced MCP tasks test
# (`tests/mcp_clients/balanced_tasks.py`, run by `scripts/soak-balanced.sh` with TASKS set)
# runs it when `redis-server` is missing. Only the binary is used: the package's own service
# is never left running (the tests start `redis-server` themselves, on a free 127.0.0.1 port,
# with no persistence), and nothing listens on 6379 after this script.
#
# Prints the path of `redis-server` as its last line on stdout; everything else goes to stderr.
# Needs root (or sudo without a password) the first time; exits non-zero, saying why, when the
# package can't be installed, and the callers skip what needs it.
set -euo pipefail

log() { echo "install-redis: $*" >&2; }

# The installed binary, if any.
found() {
    command -v redis-server 2>/dev/null || { [ -x /usr/bin/redis-server ] && echo /usr/bin/redis-server; }
}

if path=$(found); then
    log "redis-server already installed: $path"
    echo "$path"
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    as_root=()
elif command -v sudo >/dev/null 2>&1 && timeout 10 sudo -n true 2>/dev/null; then
    as_root=(sudo -n)
else
    log "redis-server is missing and installing it needs root (apt-get install redis-server)"
    exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
    log "redis-server is missing and there is no apt-get here to install it"
    exit 1
fi

# Whether something accepts connections on 127.0.0.1:6379 (the package's default port).
listening_6379() {
    timeout 2 bash -c 'exec 3<>/dev/tcp/127.0.0.1/6379' 2>/dev/null
}

# One install at a time (test binaries may run this in parallel on a fresh machine).
exec 9>/tmp/install-redis.lock
if ! flock -w 900 9; then
    log "another install held the lock for 15 minutes; giving up"
    exit 1
fi
if path=$(found); then
    log "redis-server installed meanwhile: $path"
    echo "$path"
    exit 0
fi

busy_before=""
listening_6379 && busy_before=yes

log "installing redis-server (apt-get)"
export DEBIAN_FRONTEND=noninteractive
# policy-rc.d 101: the package's service must not start (it would take 6379 and persist to
# /var/lib/redis). An existing policy is left as it is; the service is stopped below anyway.
policy=/usr/sbin/policy-rc.d
restore=""
if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | "${as_root[@]}" tee "$policy" >/dev/null
    "${as_root[@]}" chmod +x "$policy"
    restore=yes
fi
apt_install() {
    timeout 600 "${as_root[@]}" apt-get install -y -qq --no-install-recommends redis-server >/dev/null
}
status=0
if ! apt_install; then
    # `update` only when the install fails without it: the lists may be there already.
    log "apt-get install failed; running apt-get update and trying again"
    timeout 600 "${as_root[@]}" apt-get update -qq || true
    apt_install || status=$?
fi
[ -n "$restore" ] && "${as_root[@]}" rm -f "$policy"
if [ "$status" -ne 0 ]; then
    log "apt-get install redis-server failed ($status)"
    exit "$status"
fi

# Belt and braces: had the service started all the same (a policy that allows it), stop it
# and keep it from starting at boot. Each step is bounded, and one that isn't there is skipped.
if [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then
    timeout 60 "${as_root[@]}" systemctl disable --now redis-server >/dev/null 2>&1 || true
elif command -v invoke-rc.d >/dev/null 2>&1; then
    timeout 60 "${as_root[@]}" invoke-rc.d --force redis-server stop >/dev/null 2>&1 || true
fi
if [ -z "$busy_before" ]; then
    pidfile=/run/redis/redis-server.pid
    for _ in $(seq 50); do # at most ~10 s
        listening_6379 || break
        if [ -s "$pidfile" ]; then
            # The package's own server, by the pid it recorded.
            "${as_root[@]}" kill "$(cat "$pidfile")" 2>/dev/null || true
        fi
        sleep 0.2
    done
    if listening_6379; then
        log "something still listens on 127.0.0.1:6379 after the install; stop the redis-server service"
        exit 1
    fi
else
    log "127.0.0.1:6379 was in use before the install; left alone"
fi

path=$(found) || { log "the package installed, but no redis-server binary is there"; exit 1; }
log "ready: $("$path" --version | head -n 1)"
echo "$path"
