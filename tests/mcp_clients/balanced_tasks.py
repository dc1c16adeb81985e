"""MCP tasks on more than one process that share a Redis task store: starts its own
`redis-server`, BACKENDS `tool-examples serve --http --conformance --task-store redis://...`
processes, and HAProxy round-robin in front of them (all on 127.0.0.1), then drives them with
the official Python SDK (`mcp.Client`, sessionless: protocol 2026-07-28) and prints what
happened: a table for people, then one JSON line (a list of rows, one per scenario).

    balanced_tasks.py --binary PATH --haproxy PATH --redis-server PATH [--backends 2]
                      [--tasks 200] [--concurrency 8] [--seconds 0.2]
                      [--scenarios soak,ask,cancel,kill] [--lease SECONDS]

The SDK has no tasks support; `TasksExtension` below adds it the SDK's way: a
`ClientExtension` ("io.modelcontextprotocol/tasks", SEP-2663) whose `ResultClaim` takes the
`resultType: "task"` answer of `tools/call` and resolves it by polling `tasks/get` (every
`pollIntervalMs`, for a bounded time) until the task settles, answering the questions it
waits on (`inputRequests`) with `tasks/update`, and returns the `CallToolResult`.

Scenarios, each a row:

- `soak`: TASKS `slow_compute(seconds=SECONDS, label=i)` calls through HAProxy from
  CONCURRENCY concurrent clients: round-robin sends a task's `tasks/get`s to backends that
  did not create it, so each result must come through the shared store. Counts made,
  completed, unknown (an error saying the task is unknown), lost (anything else), p50/p99
  from create to result, which backend answered each create and each get (HAProxy names it
  in a response header), how many results were read on a backend other than the creating
  one, and HAProxy's own per-backend counts. SECONDS is sent as the tool's schema takes it:
  rounded up to whole seconds while `seconds` is an integer there (the row's `task_seconds`).
- `ask`: `confirm_delete(filename="x")` created on backend 1 (directly, not through HAProxy),
  seen `input_required` on backend 2, answered there with `tasks/update`, its result
  ("Deleted x") read on backend 1.
- `cancel`: `slow_compute(seconds=60)` created on backend 1, cancelled on backend 2 with
  `tasks/cancel`; backend 1's `tasks/get` says `cancelled`.
- `kill`: `slow_compute(seconds=60)` created on backend 1, which is then killed (SIGKILL);
  backend 2's `tasks/get` must settle it `failed` (the process running it stopped) within 30
  s, never answering that the task is unknown. Runs last: backend 1 is gone after it.

Exits 0 when the scenarios ran, whatever they found (the caller judges the rows), and
non-zero only when setup fails. Every wait is bounded, and every process started here is
killed at the end, also when this script is killed (the children get SIGKILL with their
parent).
"""

import argparse
import asyncio
import contextlib
import json
import math
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from typing import Any, Literal

import httpx2
from mcp import Client
from mcp.client.extension import ClaimContext, ClientExtension, ResultClaim
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolResult, ElicitResult, Request, RequestParams, Result
from pydantic import TypeAdapter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import balanced  # noqa: E402  (the sibling script: processes, HAProxy, helpers)
from balanced import Backend, Balancer, describe, die_with_parent, free_port, percentile, stop  # noqa: E402

EXTENSION = "io.modelcontextprotocol/tasks"
CALL_SECONDS = 10  # one HTTP request
START_SECONDS = 30  # a process coming up
SETTLE_SECONDS = 30  # a task settling once it should (cancelled, failed, answered)
KILL_SECONDS = 30  # the kill scenario's wait for `failed`
SERVED_BY = "x-served-by"  # the response header HAProxy names the backend in
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)


# --- the tasks extension -----------------------------------------------------------------


class TaskCreated(Result):
    """A `tools/call` answered with a task (SEP-2663's `CreateTaskResult`, flat)."""

    result_type: Literal["task"] = "task"
    task_id: str
    status: str = "working"
    status_message: str | None = None
    created_at: str | None = None
    last_updated_at: str | None = None
    ttl_ms: int | None = None
    poll_interval_ms: int | None = None


class TaskParams(RequestParams):
    """The params of `tasks/get`, `tasks/cancel` and `tasks/update`."""

    task_id: str
    input_responses: dict[str, Any] | None = None


class TaskRequest(Request[TaskParams, str]):
    """A `tasks/*` request; its `Mcp-Name` header carries the task id, as SEP-2663 asks."""

    name_param = "taskId"


ANY = TypeAdapter(dict[str, Any])
SETTLED = ("completed", "failed", "cancelled")


class TaskFailed(Exception):
    """A task that settled `failed` (its JSON-RPC error) or `cancelled`."""

    def __init__(self, task_id, status, error=None):
        self.task_id, self.status, self.error = task_id, status, error or {}
        message = self.error.get("message", "") if isinstance(self.error, dict) else str(self.error)
        super().__init__(f"task {status}: {message}" if message else f"task {status}")


class TasksExtension(ClientExtension):
    """The tasks extension for `mcp.Client(extensions=[...])`: `tools/call`s answered with a
    task are polled to their end and give their `CallToolResult` as a plain call would.

    `answer(method, params)` answers a question the task waits on (an `inputRequests` entry:
    `elicitation/create`, `sampling/createMessage`, `roots/list`) with the result to send in
    `tasks/update`; without it a task that asks fails the call. `settle_seconds` bounds the
    whole poll. `created(task)`, if given, is told each task's creation."""

    identifier = EXTENSION

    def __init__(self, answer=None, settle_seconds=60.0, created=None):
        self.answer = answer
        self.settle_seconds = settle_seconds
        self.created = created

    def claims(self):
        return [ResultClaim(result_type="task", model=TaskCreated, resolve=self.resolve)]

    # The three requests, on any session (the task may be read on a server other than the
    # one that created it).

    @staticmethod
    async def get(session, task_id, timeout=CALL_SECONDS):
        request = TaskRequest(method="tasks/get", params=TaskParams(task_id=task_id))
        return await session.send_request(request, ANY, request_read_timeout_seconds=timeout)

    @staticmethod
    async def update(session, task_id, responses, timeout=CALL_SECONDS):
        params = TaskParams(task_id=task_id, input_responses=responses)
        request = TaskRequest(method="tasks/update", params=params)
        return await session.send_request(request, ANY, request_read_timeout_seconds=timeout)

    @staticmethod
    async def cancel(session, task_id, timeout=CALL_SECONDS):
        request = TaskRequest(method="tasks/cancel", params=TaskParams(task_id=task_id))
        return await session.send_request(request, ANY, request_read_timeout_seconds=timeout)

    async def resolve(self, created: TaskCreated, ctx: ClaimContext) -> CallToolResult:
        if self.created is not None:
            self.created(created)
        session, task_id = ctx.session, created.task_id
        interval = created.poll_interval_ms
        deadline = time.monotonic() + self.settle_seconds
        answered = set()
        task = created.model_dump(by_alias=True)
        while True:
            if task["status"] == "completed":
                return CallToolResult.model_validate(task["result"], by_name=False)
            if task["status"] in ("failed", "cancelled"):
                raise TaskFailed(task_id, task["status"], task.get("error"))
            waiting = {k: q for k, q in (task.get("inputRequests") or {}).items() if k not in answered}
            if task["status"] == "input_required" and waiting:
                if self.answer is None:
                    raise RuntimeError(f"task {task_id} asks {sorted(waiting)} and nothing answers")
                responses = {k: await self.answer(q.get("method"), q.get("params") or {}) for k, q in waiting.items()}
                await self.update(session, task_id, responses)
                answered.update(responses)
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"task {task_id} still {task['status']} after {self.settle_seconds:g} s")
            # The server's pace (pollIntervalMs), within reason, and never past the deadline.
            pause = min(max((interval or 500) / 1000, 0.01), 5.0, left)
            await asyncio.sleep(pause)
            task = await self.get(session, task_id)
            interval = task.get("pollIntervalMs", interval)


async def accept_confirm(method, params):
    """Answers every elicitation with yes (`{"confirm": true}`)."""
    if method != "elicitation/create":
        raise RuntimeError(f"no answer for {method}")
    return {"action": "accept", "content": {"confirm": True}}


async def elicitation_callback(context, params):
    # Declares elicitation (a task's tool may ask only a client that can answer); the
    # questions themselves come in `inputRequests`, answered by `accept_confirm`.
    return ElicitResult(action="accept", content={"confirm": True})


@contextlib.asynccontextmanager
async def connect(url, extension, hooks=None):
    """A sessionless (2026-07-28) SDK client for `url` with the tasks extension."""
    async with httpx2.AsyncClient(timeout=httpx2.Timeout(CALL_SECONDS), event_hooks=hooks or {}) as http:
        transport = streamable_http_client(url, http_client=http)
        async with Client(
            transport,
            extensions=[extension],
            elicitation_callback=elicitation_callback,
            read_timeout_seconds=CALL_SECONDS,
        ) as client:
            yield client


def what(error):
    """An error in a few words, task ids left out (so that like errors count together)."""
    return UUID.sub("<id>", describe(error))


def is_unknown(text):
    return "unknown task" in text.lower()


# --- processes -----------------------------------------------------------------------------


class Redis:
    """`redis-server` on a free 127.0.0.1 port, nothing persisted, in the scratch folder."""

    def __init__(self, binary, scratch):
        self.port = free_port()
        self.log = os.path.join(scratch, "redis.log")
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(
                [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                 "--appendonly", "no", "--dir", scratch],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                preexec_fn=die_with_parent,
            )
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited ({self.process.returncode}): {self.tail()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                    s.settimeout(2)
                    s.sendall(b"PING\r\n")
                    if s.recv(64).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"redis-server did not answer within {START_SECONDS} s: {self.tail()}")

    @property
    def url(self):
        return f"redis://127.0.0.1:{self.port}/0"

    def tail(self):
        with open(self.log, errors="replace") as f:
            return f.read()[-2000:]


class TaskBackend(Backend):
    """One `tool-examples --root DIR serve --http 127.0.0.1:0 --conformance [--task-store URL]`
    (`Backend`'s readiness, with the conformance tools and the shared store)."""

    def __init__(self, binary, name, scratch, task_store, lease=None):
        self.name = name
        root = os.path.join(scratch, name)
        os.makedirs(root)
        self.log = os.path.join(scratch, f"{name}.log")
        command = [binary, "--root", root, "serve", "--http", "127.0.0.1:0", "--conformance"]
        if task_store:
            command += ["--task-store", task_store]
            if lease is not None:
                command += ["--task-lease", str(lease)]
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=log,
                preexec_fn=die_with_parent,
            )
        self.addr = None

    @property
    def url(self):
        return f"http://{self.addr}/mcp"


def has_task_store(binary):
    help_text = subprocess.run(
        [binary, "serve", "--help"], capture_output=True, text=True, timeout=START_SECONDS
    ).stdout
    return "--task-store" in help_text


@contextlib.contextmanager
def naming_backends():
    """HAProxy configs written meanwhile (`balanced.haproxy_config`) also name the backend
    that served each response in a header, so the client sees where each request went."""
    original = balanced.haproxy_config

    def config(*args, **kwargs):
        line = "    balance roundrobin\n"
        return original(*args, **kwargs).replace(
            line, line + f"    http-response set-header {SERVED_BY} %[srv_name]\n"
        )

    balanced.haproxy_config = config
    try:
        yield
    finally:
        balanced.haproxy_config = original


# --- scenarios -----------------------------------------------------------------------------


def slow_args(seconds, label):
    # `seconds` as the tool's schema has it: an integer when it is a whole number.
    value = int(seconds) if float(seconds).is_integer() else seconds
    return {"seconds": value, "label": label}


async def seconds_to_send(url, seconds):
    """`seconds` as `slow_compute` takes it: rounded up when its schema wants whole seconds
    (the row says what was sent)."""
    async with connect(url, TasksExtension()) as client:
        tools = (await client.list_tools()).tools
    schema = next((t.input_schema for t in tools if t.name == "slow_compute"), None) or {}
    kind = ((schema.get("properties") or {}).get("seconds") or {}).get("type")
    if kind == "integer" and not float(seconds).is_integer():
        return float(math.ceil(seconds))
    return seconds


async def soak_worker(url, labels, seconds, records):
    """One client: makes its calls one after another; each recorded as a dict."""
    seen = {"create": None, "gets": defaultdict(list)}

    async def on_response(response):
        headers = response.request.headers
        method, served = headers.get("mcp-method"), response.headers.get(SERVED_BY)
        if method == "tools/call":
            seen["create"] = served
        elif method == "tasks/get":
            seen["gets"][headers.get("mcp-name")].append(served)

    last = {}
    extension = TasksExtension(
        answer=accept_confirm,
        settle_seconds=SETTLE_SECONDS + seconds,
        created=lambda task: last.update(id=task.task_id, create=seen["create"]),
    )
    done = 0
    try:
        async with connect(url, extension, {"response": [on_response]}) as client:
            for label in labels:
                last.clear()
                start = time.perf_counter()
                try:
                    result = await asyncio.wait_for(
                        client.call_tool("slow_compute", slow_args(seconds, label)),
                        SETTLE_SECONDS + seconds + CALL_SECONDS,
                    )
                    text = "".join(getattr(block, "text", "") for block in result.content)
                    if "id" not in last:
                        outcome = "lost", f"no task: {text[:80]}"
                    elif result.is_error or not text.startswith(f"Computed {label} in"):
                        outcome = "lost", f"wrong answer: {text[:80]}"
                    else:
                        outcome = "completed", text
                except Exception as error:  # every failure is counted
                    why = what(error)
                    outcome = ("unknown" if is_unknown(why) else "lost"), why
                gets = seen["gets"].pop(last.get("id"), [])
                records.append({
                    "outcome": outcome[0],
                    "detail": outcome[1],
                    "ms": (time.perf_counter() - start) * 1000,
                    "create": last.get("create"),
                    "gets": gets,
                })
                done += 1
    except Exception as error:
        # The connection itself failed (or its close did): what was not made is lost.
        why = what(error)
        records.extend(
            {"outcome": "unknown" if is_unknown(why) else "lost", "detail": why, "ms": 0.0,
             "create": None, "gets": []}
            for _ in labels[done:]
        )


async def soak(url, tasks, concurrency, seconds):
    sent = await asyncio.wait_for(seconds_to_send(url, seconds), START_SECONDS)
    labels = [str(i) for i in range(tasks)]
    shares = [labels[i::concurrency] for i in range(concurrency)]
    records = []
    start = time.perf_counter()
    per_worker = max(len(s) for s in shares) if shares else 0
    await asyncio.wait_for(
        asyncio.gather(*(soak_worker(url, share, sent, records) for share in shares if share)),
        per_worker * (SETTLE_SECONDS + sent + CALL_SECONDS) + START_SECONDS,
    )
    elapsed = time.perf_counter() - start
    completed = [r for r in records if r["outcome"] == "completed"]
    latencies = sorted(r["ms"] for r in completed)
    with_gets = [r for r in completed if r["gets"] and r["create"]]
    return {
        "scenario": "soak",
        "ok": len(completed) == tasks,
        "made": len(records),
        "completed": len(completed),
        "unknown": sum(r["outcome"] == "unknown" for r in records),
        "lost": sum(r["outcome"] == "lost" for r in records),
        "p50_ms": round(percentile(latencies, 50), 1),
        "p99_ms": round(percentile(latencies, 99), 1),
        "seconds": round(elapsed, 2),
        "task_seconds": sent,
        "creates": dict(Counter(r["create"] for r in records if r["create"])),
        "gets": dict(Counter(g for r in records for g in r["gets"] if g)),
        # Results read on a backend other than the one that created the task.
        "read_elsewhere": sum(r["gets"][-1] != r["create"] for r in with_gets),
        "gets_per_task": round(sum(len(r["gets"]) for r in completed) / max(len(completed), 1), 2),
        "errors": dict(Counter(r["detail"] for r in records if r["outcome"] != "completed").most_common(3)),
    }


async def created_on(client, tool, arguments):
    """Calls `tool` and gives the task it started (not polled)."""
    result = await client.session.call_tool(tool, arguments, allow_claimed=True)
    if not isinstance(result, TaskCreated):
        raise RuntimeError(f"{tool} answered without a task: {str(result)[:200]}")
    return result.task_id


async def poll_until(session, task_id, done, seconds, pause=0.1, statuses=None, errors=None):
    """Polls `tasks/get` on `session` until `done(task)`, at most `seconds`; every status
    seen and every error (by text) is counted in `statuses` / `errors`. Gives the last task
    read (or None)."""
    deadline = time.monotonic() + seconds
    task = None
    while time.monotonic() < deadline:
        try:
            task = await TasksExtension.get(session, task_id, timeout=min(CALL_SECONDS, seconds))
            if statuses is not None:
                statuses[task.get("status")] += 1
            if done(task):
                return task
        except MCPError as error:
            if errors is None:
                raise
            errors[what(error)] += 1
        await asyncio.sleep(pause)
    return task


def first_backend_and_other(backends):
    return backends[0], backends[1] if len(backends) > 1 else backends[0]


async def ask(backends, row):
    one, two = first_backend_and_other(backends)
    row.update(created_on=one.name, answered_on=two.name)
    start = time.perf_counter()
    async with connect(one.url, TasksExtension()) as c1, connect(two.url, TasksExtension()) as c2:
        task_id = await created_on(c1, "confirm_delete", {"filename": "x"})
        waiting = await poll_until(c2.session, task_id, lambda t: t.get("status") == "input_required", SETTLE_SECONDS)
        row["status_on_2"] = (waiting or {}).get("status")
        requests = (waiting or {}).get("inputRequests") or {}
        if row["status_on_2"] != "input_required" or not requests:
            row["error"] = f"backend 2 never saw the question: {json.dumps(waiting)[:300]}"
            return
        key, question = next(iter(requests.items()))
        row["key"], row["question"] = key, (question.get("params") or {}).get("message")
        await TasksExtension.update(c2.session, task_id, {key: await accept_confirm(question.get("method"), {})})
        done = await poll_until(c1.session, task_id, lambda t: t.get("status") in SETTLED, SETTLE_SECONDS)
        row["status"] = (done or {}).get("status")
        content = ((done or {}).get("result") or {}).get("content") or [{}]
        row["text"] = content[0].get("text")
        row["ok"] = row["status"] == "completed" and row["text"] == "Deleted x"
        if not row["ok"]:
            row["error"] = f"backend 1 read {json.dumps(done)[:300]}"
    row["seconds"] = round(time.perf_counter() - start, 2)


async def cancel(backends, row):
    one, two = first_backend_and_other(backends)
    row.update(created_on=one.name, cancelled_on=two.name)
    start = time.perf_counter()
    async with connect(one.url, TasksExtension()) as c1, connect(two.url, TasksExtension()) as c2:
        task_id = await created_on(c1, "slow_compute", slow_args(60, "cancel"))
        ack = await TasksExtension.cancel(c2.session, task_id)
        row["ack"] = ack
        done = await poll_until(c1.session, task_id, lambda t: t.get("status") in SETTLED, SETTLE_SECONDS)
        row["status"] = (done or {}).get("status")
        row["ok"] = row["status"] == "cancelled"
        if not row["ok"]:
            row["error"] = f"backend 1 read {json.dumps(done)[:300]}"
    row["seconds"] = round(time.perf_counter() - start, 2)


async def kill(backends, row):
    if len(backends) < 2:
        row.update(ok=None, skipped="needs 2 backends")
        return
    one, two = backends[0], backends[1]
    row.update(killed=one.name, polled_on=two.name)
    statuses, errors = Counter(), Counter()
    async with connect(two.url, TasksExtension()) as c2:
        # A client of its own for the backend about to die; closed before the kill.
        async with connect(one.url, TasksExtension()) as c1:
            task_id = await created_on(c1, "slow_compute", slow_args(60, "kill"))
        before = await poll_until(c2.session, task_id, lambda t: True, CALL_SECONDS, statuses=statuses, errors=errors)
        row["status_before"] = (before or {}).get("status")
        one.process.send_signal(signal.SIGKILL)
        one.process.wait(CALL_SECONDS)
        start = time.perf_counter()
        done = await poll_until(
            c2.session, task_id, lambda t: t.get("status") in SETTLED, KILL_SECONDS,
            pause=0.1, statuses=statuses, errors=errors,
        )
        row["seconds"] = round(time.perf_counter() - start, 2)
    row["status"] = (done or {}).get("status")
    error = (done or {}).get("error") or {}
    row["message"] = error.get("message") if isinstance(error, dict) else str(error)
    row["statuses"] = dict(statuses)
    row["errors"] = dict(errors)
    row["unknown"] = sum(n for e, n in errors.items() if is_unknown(e))
    row["ok"] = row["status"] == "failed" and row["unknown"] == 0
    if not row["ok"]:
        row["error"] = f"backend 2 read {json.dumps(done)[:300]}; errors {dict(errors)}"


SCENARIOS = {"ask": ask, "cancel": cancel, "kill": kill}


# --- report --------------------------------------------------------------------------------


def table(rows, backends):
    lines = []
    soaks = [r for r in rows if r["scenario"] == "soak"]
    if soaks:
        names = [b.name for b in backends]
        head = ["scenario", "made", "completed", "unknown", "lost", "p50 ms", "p99 ms", "tasks/s", "read elsewhere"]
        head += [f"{n} creates/gets" for n in names]
        lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for r in soaks:
            rate = r["made"] / r["seconds"] if r["seconds"] else 0
            cells = [r["scenario"], r["made"], r["completed"], r["unknown"], r["lost"], r["p50_ms"],
                     r["p99_ms"], f"{rate:.1f}", r["read_elsewhere"]]
            cells += [f"{r['creates'].get(n, 0)}/{r['gets'].get(n, 0)}" for n in names]
            lines.append("| " + " | ".join(str(c) for c in cells) + " |")
            lines.append(f"soak: HAProxy saw per backend {r.get('haproxy')}")
            if r["errors"]:
                lines.append(f"soak: errors (most common) {r['errors']}")
    others = [r for r in rows if r["scenario"] != "soak"]
    if others:
        if lines:
            lines.append("")
        lines += ["| scenario | ok | seconds | detail |", "|---|---|---|---|"]
        for r in others:
            if r.get("skipped"):
                detail = f"skipped: {r['skipped']}"
            elif "status" not in r:
                detail = ""  # it broke before it read a status: its error says how
            elif r["scenario"] == "ask":
                detail = f"{r.get('status_on_2')} on {r.get('answered_on')}, then {r['status']}: {r.get('text')!r}"
            elif r["scenario"] == "cancel":
                detail = f"cancelled on {r.get('cancelled_on')}, {r.get('created_on')} says {r['status']}"
            elif r["scenario"] == "kill":
                detail = f"{r.get('polled_on')} says {r['status']}: {r.get('message')!r}; unknown {r.get('unknown')}"
            else:
                detail = ""
            if r.get("error") and not r.get("ok"):
                detail += f" ({r['error'][:200]})"
            ok = "skip" if r.get("ok") is None else ("yes" if r.get("ok") else "NO")
            lines.append(f"| {r['scenario']} | {ok} | {r.get('seconds', '')} | {detail} |")
    return "\n".join(lines)


def run(coroutine, seconds):
    return asyncio.run(asyncio.wait_for(coroutine, seconds))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True, help="the tool-examples binary")
    parser.add_argument("--haproxy", default=shutil.which("haproxy") or "/usr/sbin/haproxy")
    parser.add_argument("--redis-server", default=shutil.which("redis-server") or "/usr/bin/redis-server")
    parser.add_argument("--backends", type=int, default=2)
    parser.add_argument("--tasks", type=int, default=200, help="tasks in the soak")
    parser.add_argument("--concurrency", type=int, default=8, help="concurrent clients in the soak")
    parser.add_argument("--seconds", type=float, default=0.2, help="how long each soak task takes")
    parser.add_argument("--scenarios", default="soak,ask,cancel,kill")
    parser.add_argument("--lease", type=float, default=None,
                        help="each backend's --task-lease in seconds (the server's default: 10)")
    # Backends without a shared store (each keeps its tasks in its memory), and no Redis.
    parser.add_argument("--no-redis", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    scenarios = [s for s in args.scenarios.split(",") if s]
    unknown = [s for s in scenarios if s != "soak" and s not in SCENARIOS]
    if unknown or args.backends < 1 or args.concurrency < 1:
        parser.error(f"no such scenario: {unknown}" if unknown else "--backends and --concurrency must be >= 1")
    # `kill` leaves backend 1 dead: it runs last.
    scenarios.sort(key=lambda s: s == "kill")

    scratch = tempfile.mkdtemp(prefix="mcp-balanced-tasks-")
    processes = []
    try:
        try:
            store = None
            if not args.no_redis:
                if not has_task_store(args.binary):
                    raise RuntimeError(f"{args.binary} serve has no --task-store (this build can't share tasks)")
                redis = Redis(args.redis_server, scratch)
                processes.append(redis.process)
                store = redis.url
            backends = [TaskBackend(args.binary, f"backend-{i + 1}", scratch, store, args.lease) for i in range(args.backends)]
            processes += [b.process for b in backends]
            deadline = time.monotonic() + START_SECONDS
            for b in backends:
                b.wait_ready(deadline)
            balancer = None
            if "soak" in scenarios:
                with naming_backends():
                    balancer = Balancer(args.haproxy, backends, False, scratch)
                processes.append(balancer.process)
        except Exception as error:
            sys.exit(f"balanced_tasks: setup failed: {describe(error)}")

        rows = []
        for scenario in scenarios:
            row = {"scenario": scenario, "ok": False}
            try:
                if scenario == "soak":
                    row.update(run(soak(balancer.url, args.tasks, args.concurrency, args.seconds), None))
                    row["haproxy"] = balancer.statuses()
                else:
                    run(SCENARIOS[scenario](backends, row), 4 * SETTLE_SECONDS + KILL_SECONDS)
            except Exception as error:  # a scenario that broke is a failed row, not a crash
                row.update(ok=False, error=what(error))
            rows.append(row)
        print(table(rows, backends))
        shared = "no shared store" if args.no_redis else "a shared Redis task store"
        soaked = next((r for r in rows if r["scenario"] == "soak"), None)
        if soaked is not None:
            took = soaked.get("task_seconds", args.seconds)
            rounded = f" (asked {args.seconds:g} s; the tool takes whole seconds)" if took != args.seconds else ""
            shared += (f"; soak: {args.tasks} tasks of {took:g} s{rounded} from {args.concurrency} "
                       "concurrent clients through HAProxy round-robin")
        print(f"({args.backends} backends with {shared})")
        print(json.dumps(rows))
    finally:
        for process in processes:
            stop(process)
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
