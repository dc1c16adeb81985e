"""MCP behind a load balancer: starts BACKENDS `tool-examples serve --http` processes and
HAProxy in front of them (round-robin, a generated config, all on 127.0.0.1), then drives it
with the official Python SDK (`mcp.Client`, several concurrent clients) and prints what
happened: a table for people, then one JSON line for `tool-examples/tests/mcp_balanced.rs`.

    balanced.py --binary PATH [--backends 2] [--calls 3000] [--concurrency 8]
                [--modes sessionless,classic,sticky] [--haproxy PATH]

Modes, each with a fresh HAProxy in front of the same backends:

- `sessionless`: the SDK's default (`mode="auto"`), which speaks 2026-07-28: no handshake,
  each request names its version, so any backend can answer any request.
- `classic`: the `initialize` handshake (`mode="legacy"`) and its `Mcp-Session-Id`, behind
  plain round-robin: a session's requests reach backends that never saw it, which answer
  404, so calls are lost. This mode is expected to lose calls; it shows why.
- `sticky`: the same handshake, with HAProxy sending every request that carries a session
  id to the backend that issued it (a stick table filled from the `Mcp-Session-Id` of the
  responses): nothing is lost.

Each backend serves its own scratch workspace holding `backend.txt` with its name; every
call reads it (`read_file`), so each answer says which backend served it. A call is
answered when its result names a backend and is not an error; lost otherwise (an error, a
timeout, a wrong answer). Every wait is bounded and every process started here is killed
at the end, also when this script is killed (the children get SIGKILL with their parent).
"""

import argparse
import asyncio
import ctypes
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

CALL_SECONDS = 10
START_SECONDS = 30


def die_with_parent():
    """Runs in each child before exec: SIGKILL when this script dies, however it dies."""
    libc = ctypes.CDLL("libc.so.6", use_errno=True)
    libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Backend:
    """One `tool-examples --root DIR serve --http 127.0.0.1:0`."""

    def __init__(self, binary, name, scratch):
        self.name = name
        root = os.path.join(scratch, name)
        os.makedirs(root)
        with open(os.path.join(root, "backend.txt"), "w") as f:
            f.write(name + "\n")
        # Its stderr goes to a file, which no full pipe can stop it writing to.
        self.log = os.path.join(scratch, f"{name}.log")
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(
                [binary, "--root", root, "serve", "--http", "127.0.0.1:0"],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=log,
                preexec_fn=die_with_parent,
            )
        self.addr = None

    def wait_ready(self, deadline):
        # The server prints its URL on stderr once it listens.
        seen = ""
        while time.monotonic() < deadline:
            with open(self.log, errors="replace") as log:
                seen = log.read()
            at = seen.find("http://")
            if at >= 0 and "\n" in seen[at:]:
                url = seen[at:].split()[0]
                self.addr = url.removeprefix("http://").split("/")[0]
                return
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited: {seen}")
            time.sleep(0.02)
        raise RuntimeError(f"{self.name} printed no URL within {START_SECONDS} s: {seen}")


def haproxy_config(port, backends, sticky, socket_path):
    """Round-robin over the backends; with `sticky`, a request carrying an `Mcp-Session-Id`
    goes where the response that issued that id came from."""
    servers = "\n".join(f"    server {b.name} {b.addr}" for b in backends)
    stick = (
        "    stick-table type string len 128 size 100k expire 30m\n"
        "    stick match req.hdr(mcp-session-id)\n"
        "    stick store-response res.hdr(mcp-session-id)\n"
        if sticky
        else ""
    )
    return f"""global
    maxconn 2048
    stats socket {socket_path} mode 600 level user

defaults
    mode http
    timeout connect 5s
    timeout client 60s
    timeout server 60s

frontend mcp
    bind 127.0.0.1:{port}
    default_backend tools

backend tools
    balance roundrobin
{stick}{servers}
"""


class Balancer:
    """HAProxy, in the foreground (`-db`), with a generated config."""

    def __init__(self, haproxy, backends, sticky, scratch):
        self.port = free_port()
        self.socket = os.path.join(scratch, f"haproxy-{self.port}.sock")
        config = os.path.join(scratch, f"haproxy-{self.port}.cfg")
        with open(config, "w") as f:
            f.write(haproxy_config(self.port, backends, sticky, self.socket))
        subprocess.run([haproxy, "-c", "-q", "-f", config], check=True, timeout=START_SECONDS)
        self.process = subprocess.Popen(
            [haproxy, "-db", "-f", config],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=die_with_parent,
        )
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"haproxy exited ({self.process.returncode})")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.02)
        raise RuntimeError(f"haproxy did not listen within {START_SECONDS} s")

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}/mcp"

    def statuses(self):
        """Each backend's answers by HTTP status class, from HAProxy's stats socket."""
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(5)
            s.connect(self.socket)
            s.sendall(b"show stat\n")
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        lines = data.decode().splitlines()
        header = lines[0].lstrip("# ").split(",")
        out = {}
        for line in lines[1:]:
            row = dict(zip(header, line.split(",")))
            if row.get("pxname") == "tools" and row.get("svname") not in ("BACKEND", None):
                out[row["svname"]] = {k: int(row[k] or 0) for k in ("hrsp_2xx", "hrsp_4xx", "hrsp_5xx")}
        return out


def stop(process):
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


async def client(url, mode, calls, results):
    """One client: connects once (`mode` "auto" or "legacy") and makes `calls` calls, each
    recorded as (ok, seconds, backend or error)."""
    done = 0
    try:
        async with httpx2.AsyncClient(timeout=httpx2.Timeout(CALL_SECONDS)) as http:
            transport = streamable_http_client(url, http_client=http)
            async with Client(transport, mode=mode, read_timeout_seconds=CALL_SECONDS) as session:
                for _ in range(calls):
                    start = time.perf_counter()
                    try:
                        result = await asyncio.wait_for(
                            session.call_tool("read_file", {"path": "backend.txt"}), CALL_SECONDS
                        )
                        text = "".join(getattr(block, "text", "") for block in result.content)
                        backend = next((w for w in text.split() if w.startswith("backend-")), None)
                        if result.is_error or backend is None:
                            outcome = (False, time.perf_counter() - start, f"wrong answer: {text[:80]}")
                        else:
                            outcome = (True, time.perf_counter() - start, backend)
                    except Exception as error:  # every failure is a lost call, counted
                        outcome = (False, time.perf_counter() - start, describe(error))
                    results.append(outcome)
                    done += 1
    except Exception as error:
        # The connection itself failed (or its close did): what was not made is lost.
        results.extend((False, 0.0, describe(error)) for _ in range(calls - done))


def describe(error):
    if isinstance(error, BaseExceptionGroup):
        return describe(error.exceptions[0])
    text = str(error) or type(error).__name__
    return f"{type(error).__name__}: {text}"[:120]


def percentile(sorted_values, p):
    if not sorted_values:
        return 0.0
    return sorted_values[min(len(sorted_values) - 1, int(p / 100 * len(sorted_values)))]


async def run_mode(url, mode, calls, concurrency):
    sdk_mode = "auto" if mode == "sessionless" else "legacy"
    results = []
    shares = [calls // concurrency + (1 if i < calls % concurrency else 0) for i in range(concurrency)]
    start = time.perf_counter()
    await asyncio.wait_for(
        asyncio.gather(*(client(url, sdk_mode, n, results) for n in shares if n)),
        CALL_SECONDS * calls,
    )
    elapsed = time.perf_counter() - start
    answered = [r for r in results if r[0]]
    latencies = sorted(r[1] for r in answered)
    return {
        "mode": mode,
        "made": len(results),
        "answered": len(answered),
        "lost": len(results) - len(answered),
        "p50_ms": round(percentile(latencies, 50) * 1000, 1),
        "p99_ms": round(percentile(latencies, 99) * 1000, 1),
        "seconds": round(elapsed, 2),
        "backends": dict(Counter(r[2] for r in answered)),
        "errors": dict(Counter(r[2] for r in results if not r[0]).most_common(3)),
    }


def table(rows, backends):
    names = [b.name for b in backends]
    head = ["mode", "made", "answered", "lost", "p50 ms", "p99 ms", "calls/s"] + [f"{n} share" for n in names]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        rate = r["made"] / r["seconds"] if r["seconds"] else 0
        shares = [f"{100 * r['backends'].get(n, 0) / max(r['answered'], 1):.1f}%" for n in names]
        cells = [r["mode"], r["made"], r["answered"], r["lost"], r["p50_ms"], r["p99_ms"], f"{rate:.0f}"] + shares
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    for r in rows:
        lines.append(f"{r['mode']}: HAProxy saw per backend {r['haproxy']}")
        if r["errors"]:
            lines.append(f"{r['mode']}: lost calls' errors (most common) {r['errors']}")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True, help="the tool-examples binary")
    parser.add_argument("--backends", type=int, default=2)
    parser.add_argument("--calls", type=int, default=3000, help="calls per mode")
    parser.add_argument("--concurrency", type=int, default=8, help="concurrent clients")
    parser.add_argument("--modes", default="sessionless,classic,sticky")
    parser.add_argument("--haproxy", default=shutil.which("haproxy") or "/usr/sbin/haproxy")
    args = parser.parse_args()

    scratch = tempfile.mkdtemp(prefix="mcp-balanced-")
    processes = []
    try:
        backends = [Backend(args.binary, f"backend-{i + 1}", scratch) for i in range(args.backends)]
        processes += [b.process for b in backends]
        deadline = time.monotonic() + START_SECONDS
        for b in backends:
            b.wait_ready(deadline)
        rows = []
        for mode in args.modes.split(","):
            balancer = Balancer(args.haproxy, backends, mode == "sticky", scratch)
            processes.append(balancer.process)
            row = asyncio.run(run_mode(balancer.url, mode, args.calls, args.concurrency))
            row["haproxy"] = balancer.statuses()
            rows.append(row)
            stop(balancer.process)
        print(table(rows, backends))
        print(f"({args.backends} backends, {args.concurrency} concurrent clients, {args.calls} calls per mode)")
        print(json.dumps(rows))
    finally:
        for process in processes:
            stop(process)
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
