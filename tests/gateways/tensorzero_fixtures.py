"""Fixtures of TensorZero's native inference format (`POST /inference`), from the real gateway.

    .venv-gateways/bin/python tests/gateways/tensorzero_fixtures.py tool-runtime/tests/fixtures/providers/tensorzero

Starts, in this process, a scripted upstream that speaks OpenAI Chat Completions
(`POST /v1/chat/completions`, whole or streamed, on 127.0.0.1:0 in a thread) and writes a
`tensorzero.toml` whose model `scripted` is an `openai` provider pointed at it, with the tools
`get_weather` and `python_exec` and the chat functions `assistant` (both tools) and `bare` (no
tools). Then, for each scenario, it scripts the upstream's reply and saves what the gateway's
native inference answers, pretty-printed with its fields and their order unchanged, plus the
request bodies the upstream received where they show how TensorZero encodes things for
OpenAI. Finally it probes the request fields (`variant_name`, `episode_id`, `allowed_tools`,
`additional_tools`, `tool_choice`, `parallel_tool_calls`, input block shapes, ...) and writes
what the gateway did with each to `probes.json`.

The HTTP gateway that the package can start (`_start_http_gateway`) has only the
OpenAI-compatible routes: `POST /inference` there is a 404, which the script checks and
records. The native inference therefore runs in the same package's embedded gateway, whose
answer is captured as JSON before the client turns it into dataclasses: see `Gateway`.

Everything listens on 127.0.0.1; every wait has a timeout, and the whole run a watchdog. The
gateway's ids (`inference_id`, `episode_id`) vary per run; tool call ids are the upstream's.
"""

import json
import os
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

os.environ.setdefault("TENSORZERO_DISABLE_PSEUDONYMOUS_USAGE_ANALYTICS", "1")

from tensorzero import _start_http_gateway  # noqa: E402

HTTP_TIMEOUT = 30  # seconds, per request to the gateway
STREAM_DEADLINE = 60  # seconds, for a whole streamed response

# ---------------------------------------------------------------------------------------------
# The scripted upstream (OpenAI Chat Completions)
# ---------------------------------------------------------------------------------------------


class Upstream:
    """Replies to each `POST /v1/chat/completions` with the next scripted reply, and keeps the
    request bodies it received. A reply is a dict: `content` (str or None),
    `reasoning_content` (str or None), `tool_calls` (list of (id, name, arguments string))."""

    def __init__(self):
        self.lock = threading.Lock()
        self.replies = []
        self.requests = []
        upstream = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = {"unparsed": raw.decode("utf-8", "replace")}
                with upstream.lock:
                    upstream.requests.append(body)
                    reply = upstream.replies.pop(0) if upstream.replies else None
                if not self.path.endswith("/chat/completions") or reply is None:
                    data = json.dumps({"error": {"message": "no scripted reply", "type": "test"}})
                    self.send_response(500)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data.encode())
                    return
                if body.get("stream"):
                    self.stream(body, reply)
                else:
                    data = json.dumps(whole(reply)).encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)

            def stream(self, body, reply):
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Connection", "close")
                self.end_headers()
                include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
                for chunk in chunks(reply, include_usage):
                    self.wfile.write(b"data: " + json.dumps(chunk).encode() + b"\n\n")
                    self.wfile.flush()
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()
                self.close_connection = True

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.base = "http://127.0.0.1:%d/v1" % self.server.server_address[1]

    def script(self, *replies):
        with self.lock:
            self.replies = list(replies)
            self.requests = []

    def received(self):
        with self.lock:
            return list(self.requests)

    def close(self):
        self.server.shutdown()
        self.server.server_close()


CREATED = 1750000000
USAGE = {"prompt_tokens": 42, "completion_tokens": 17, "total_tokens": 59}


def whole(reply):
    message = {"role": "assistant", "content": reply.get("content")}
    if reply.get("reasoning_content") is not None:
        message["reasoning_content"] = reply["reasoning_content"]
    calls = reply.get("tool_calls") or []
    if calls:
        message["tool_calls"] = [
            {"id": i, "type": "function", "function": {"name": n, "arguments": a}}
            for i, n, a in calls
        ]
    return {
        "id": "chatcmpl-scripted",
        "object": "chat.completion",
        "created": CREATED,
        "model": "scripted",
        "choices": [
            {
                "index": 0,
                "message": message,
                "logprobs": None,
                "finish_reason": "tool_calls" if calls else "stop",
            }
        ],
        "usage": USAGE,
    }


def pieces(text, n=3):
    """`text` cut into `n` non-empty pieces (fewer if it is shorter)."""
    if not text:
        return []
    size = max(1, -(-len(text) // n))
    return [text[i : i + size] for i in range(0, len(text), size)]


def chunks(reply, include_usage):
    def chunk(delta, finish=None):
        return {
            "id": "chatcmpl-scripted",
            "object": "chat.completion.chunk",
            "created": CREATED,
            "model": "scripted",
            "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
        }

    # As OpenAI starts a stream: `content: ""` before text, `content: null` before tool calls.
    yield chunk({"role": "assistant", "content": "" if reply.get("content") else None})
    for piece in pieces(reply.get("reasoning_content")):
        yield chunk({"reasoning_content": piece})
    for piece in pieces(reply.get("content")):
        yield chunk({"content": piece})
    calls = reply.get("tool_calls") or []
    for index, (call_id, name, arguments) in enumerate(calls):
        # As OpenAI streams: id, type and name in the first delta only, with `arguments: ""`;
        # then argument fragments under the same `index`.
        yield chunk(
            {
                "tool_calls": [
                    {
                        "index": index,
                        "id": call_id,
                        "type": "function",
                        "function": {"name": name, "arguments": ""},
                    }
                ]
            }
        )
        for piece in pieces(arguments):
            yield chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
    yield chunk({}, "tool_calls" if calls else "stop")
    if include_usage:
        last = chunk({})
        last["choices"] = []
        last["usage"] = USAGE
        yield last


# ---------------------------------------------------------------------------------------------
# The gateway's configuration
# ---------------------------------------------------------------------------------------------

GET_WEATHER = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "description": "City name, e.g. Paris"},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
    },
    "required": ["city"],
    "additionalProperties": False,
}

PYTHON_EXEC = {
    "type": "object",
    "properties": {"code": {"type": "string", "description": "Python source to run"}},
    "required": ["code"],
    "additionalProperties": False,
}

LOOKUP = {
    "type": "object",
    "properties": {"query": {"type": "string"}},
    "required": ["query"],
    "additionalProperties": False,
}

CONFIG = """
[gateway.observability]
enabled = false

[models.scripted]
routing = ["upstream"]

[models.scripted.providers.upstream]
type = "openai"
api_base = "{upstream}"
model_name = "scripted"
api_key_location = "none"

[tools.get_weather]
description = "Get the current weather in a city."
parameters = "tools/get_weather.json"
strict = false

[tools.python_exec]
description = "Run Python code and return its standard output."
parameters = "tools/python_exec.json"
strict = false

[functions.assistant]
type = "chat"
tools = ["get_weather", "python_exec"]

[functions.assistant.variants.scripted_variant]
type = "chat_completion"
model = "scripted"

[functions.assistant.variants.other_variant]
type = "chat_completion"
model = "scripted"

# Sampling picks scripted_variant; other_variant is reached only by pinning `variant_name`.
[functions.assistant.experimentation]
type = "static"
candidate_variants = ["scripted_variant"]

[functions.bare]
type = "chat"

[functions.bare.variants.scripted_variant]
type = "chat_completion"
model = "scripted"
"""


def write_config(folder, upstream):
    os.makedirs(os.path.join(folder, "tools"), exist_ok=True)
    for name, schema in (("get_weather", GET_WEATHER), ("python_exec", PYTHON_EXEC)):
        with open(os.path.join(folder, "tools", name + ".json"), "w") as f:
            json.dump(schema, f, indent=2)
    path = os.path.join(folder, "tensorzero.toml")
    with open(path, "w") as f:
        f.write(CONFIG.format(upstream=upstream))
    return path


# ---------------------------------------------------------------------------------------------
# Talking to the gateway
# ---------------------------------------------------------------------------------------------


class Gateway:
    """The native inference endpoint of the real gateway, reached through the Python client's
    embedded mode.

    `_start_http_gateway` serves only the OpenAI-compatible routes (`/openai/v1/...`: see
    `http_routes`), so `POST /inference` is answered here by `TensorZeroGateway.build_embedded`,
    which runs the same `tensorzero_core::endpoints::inference::inference` as the standalone
    gateway's `/inference` handler. A request body is passed as the client's keyword arguments
    (the client's HTTP mode sends the same fields as that JSON body). The response is the
    `serde_json` serialization of `InferenceResponse` / `InferenceResponseChunk` that the client
    hands to `tensorzero.types.parse_inference_response` / `parse_inference_chunk`, captured
    there: the bytes the HTTP handler would write (`Json(response)`; one SSE `data:` event per
    chunk, then `data: [DONE]`). Errors come back as the client's `TensorZeroError`, whose
    `status_code` and `text` are the HTTP handler's (`{"error": ...}`)."""

    def __init__(self, config):
        import tensorzero
        import tensorzero.types as types

        self.captured = []
        original_response = types.parse_inference_response
        original_chunk = types.parse_inference_chunk

        def response(data):
            self.captured.append(data)
            return original_response(data)

        def chunk(data):
            self.captured.append(data)
            return original_chunk(data)

        # The extension looks these up by name on first use, so they are replaced before it.
        types.parse_inference_response = response
        types.parse_inference_chunk = chunk
        self.errors = (tensorzero.TensorZeroError, tensorzero.TensorZeroInternalError)
        self.client = tensorzero.TensorZeroGateway.build_embedded(
            config_file=config,
            clickhouse_url=None,
            postgres_url=None,
            valkey_url=None,
            timeout=HTTP_TIMEOUT,
        )

    def call(self, body):
        """(status, captured JSON values or error text) of one inference."""
        self.captured = []
        try:
            result = self.client.inference(**body)
            if body.get("stream"):
                for _ in result:
                    pass
            return 200, list(self.captured)
        except TypeError as error:  # a field the client has no parameter for
            return None, "client: " + str(error)
        except self.errors as error:
            # `TensorZeroError` carries the HTTP handler's status and body; a
            # `TensorZeroInternalError` is the client refusing the request before the gateway
            # (over HTTP, a request the gateway would refuse with a 4xx of its own).
            status = getattr(error, "status_code", None)
            text = getattr(error, "text", None) or str(error)
            if status is None:
                text = "client: " + text
            if self.captured:  # a stream that failed after some chunks
                return status, list(self.captured) + [{"error_raised": text}]
            return status, text
        except ValueError as error:  # refused by the client before the gateway saw it
            return None, "client: " + str(error)

    def infer(self, body):
        """(status, response bytes) as `POST /inference` would give them."""
        status, data = self.call(body)
        if status == 200:
            return 200, json.dumps(data[0], ensure_ascii=False).encode()
        return status, data.encode() if isinstance(data, str) else json.dumps(data).encode()

    def infer_stream(self, body):
        """(status, [data payloads as strings]) as a streamed `POST /inference` would give them,
        without the final `[DONE]` (the HTTP handler appends it to every stream)."""
        status, data = self.call(dict(body, stream=True))
        if isinstance(data, str):
            return status, [data]
        # Compact, as `serde_json` writes an SSE event's data.
        return status, [json.dumps(d, ensure_ascii=False, separators=(",", ":")) for d in data]

    def close(self):
        self.client.close()


def http_routes(base_url):
    """What `_start_http_gateway` (the HTTP gateway the package can start) answers on the
    native route and on the OpenAI-compatible one."""
    root = base_url.rstrip("/")
    if root.endswith("/openai/v1"):
        root = root[: -len("/openai/v1")]
    native = post(root + "/inference", {"function_name": "assistant", "input": ASK_WEATHER})
    return {
        "base_url": base_url,
        "POST /inference": summary(*native),
    }


def post(url, body):
    """(status, response bytes) of a JSON POST."""
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def summary(status, data):
    try:
        parsed = json.loads(data)
    except ValueError:
        return {"status": status, "body": data.decode("utf-8", "replace")}
    return {"status": status, "body": parsed}


def upstream_view(request):
    """The tool-related fields of a request the upstream received."""
    keys = ("tools", "tool_choice", "parallel_tool_calls")
    view = {k: request[k] for k in keys if k in request}
    if "tools" in view:
        view["tool_names"] = [t.get("function", {}).get("name") for t in view.pop("tools")]
    return view


# ---------------------------------------------------------------------------------------------
# Scenarios
# ---------------------------------------------------------------------------------------------

ASK_WEATHER = {"messages": [{"role": "user", "content": "What is the weather in Paris?"}]}
ASK_BOTH = {
    "messages": [
        {"role": "user", "content": "What is the weather in Paris? Also run print(1) in Python."}
    ]
}

ONE_CALL = {"content": None, "tool_calls": [("call_weather_1", "get_weather", '{"city":"Paris"}')]}
TWO_CALLS = {
    "content": "Let me check the weather and run the code.",
    "tool_calls": [
        ("call_weather_1", "get_weather", '{"city": "Paris", "unit": "celsius"}'),
        ("call_python_1", "python_exec", '{"code": "print(1)"}'),
    ],
}
TEXT_ONLY = {"content": "It is sunny in Paris, 21 degrees Celsius."}
UNKNOWN_TOOL = {
    "content": None,
    "tool_calls": [("call_unknown_1", "send_email", '{"to": "a@example.com"}')],
}
BAD_ARGUMENTS = {
    "content": None,
    "tool_calls": [
        ("call_bad_json", "get_weather", '{"city": "Par'),
        ("call_bad_schema", "get_weather", '{"city": 12}'),
    ],
}
THOUGHT = {
    "reasoning_content": "The user asks for the weather in Paris; I should call get_weather.",
    "content": "Checking the weather in Paris.",
    "tool_calls": [("call_weather_1", "get_weather", '{"city":"Paris"}')],
}
FINAL = {"content": "It is 21 degrees Celsius in Paris, and the code printed 1."}


class Run:
    def __init__(self, out, gateway, upstream):
        self.out = out
        self.gateway = gateway
        self.upstream = upstream
        self.probes = {}

    def save(self, name, data):
        """Saves a JSON response, pretty-printed (fields and their order unchanged)."""
        path = os.path.join(self.out, name)
        try:
            text = json.dumps(json.loads(data), indent=2, ensure_ascii=False) + "\n"
        except ValueError:
            text = data.decode("utf-8", "replace")
        with open(path, "w") as f:
            f.write(text)
        print("wrote", path, flush=True)

    def save_json(self, name, value):
        path = os.path.join(self.out, name)
        with open(path, "w") as f:
            f.write(json.dumps(value, indent=2, ensure_ascii=False) + "\n")
        print("wrote", path, flush=True)

    def call(self, body, *replies):
        self.upstream.script(*replies)
        status, data = self.gateway.infer(body)
        return status, data, self.upstream.received()

    def probe(self, name, body, *replies, note=None, messages=False):
        status, data, received = self.call(body, *replies)
        entry = {"request": body, "response": summary(status, data)}
        entry["upstream_received"] = [upstream_view(r) for r in received]
        if messages:
            entry["upstream_received_messages"] = [r.get("messages") for r in received]
        if note:
            entry["note"] = note
        self.probes[name] = entry
        print("probe", name, status, flush=True)
        return status, data, received

    def whole(self, name, reply, input=ASK_WEATHER, **extra):
        body = {"function_name": "assistant", "input": input, **extra}
        status, data, received = self.call(body, reply)
        if status != 200:
            print("!!", name, status, data[:500], file=sys.stderr, flush=True)
        self.save(name, data)
        return status, data, received

    def stream(self, name, reply, input):
        self.upstream.script(reply)
        body = {"function_name": "assistant", "input": input, "stream": True}
        status, payloads = self.gateway.infer_stream(body)
        if status != 200:
            print("!!", name, status, payloads, file=sys.stderr, flush=True)
        path = os.path.join(self.out, name)
        with open(path, "w") as f:
            for payload in payloads:
                f.write(payload + "\n")
        print("wrote", path, flush=True)
        self.probes["stream " + name] = {
            "status": status,
            "data_events_before_DONE": len(payloads),
            "upstream_received_stream_options": [
                {k: r.get(k) for k in ("stream", "stream_options")}
                for r in self.upstream.received()
            ],
        }

    def all(self):
        # 1-6: whole responses.
        _, first, _ = self.whole("one_call.json", ONE_CALL)
        _, two, _ = self.whole("two_calls.json", TWO_CALLS, input=ASK_BOTH)
        self.whole("text_only.json", TEXT_ONLY)
        self.whole("unknown_tool.json", UNKNOWN_TOOL)
        self.whole("bad_arguments.json", BAD_ARGUMENTS)
        self.whole("thought.json", THOUGHT)

        # 7: streams.
        self.stream("one_call.stream.jsonl", ONE_CALL, ASK_WEATHER)
        self.stream("two_calls.stream.jsonl", TWO_CALLS, ASK_BOTH)
        self.stream("thought.stream.jsonl", THOUGHT, ASK_WEATHER)

        # 8: second turn, after two_calls.
        self.second_turn(json.loads(two))

        # Request fields.
        self.additional_tools()
        self.fields(json.loads(first))
        self.save_json("probes.json", self.probes)

    def second_turn(self, two):
        calls = [b for b in two["content"] if b["type"] == "tool_call"]
        texts = [b for b in two["content"] if b["type"] == "text"]
        results = [
            {
                "type": "tool_result",
                "id": calls[0]["id"],
                "name": calls[0]["name"],
                "result": '{"temperature": 21, "unit": "celsius"}',
            },
            {
                "type": "tool_result",
                "id": calls[1]["id"],
                "name": calls[1]["name"],
                "result": "Error: python_exec is not available in this sandbox",
            },
        ]

        def body(call_blocks):
            return {
                "function_name": "assistant",
                "episode_id": two["episode_id"],
                "input": {
                    "messages": ASK_BOTH["messages"]
                    + [
                        {"role": "assistant", "content": texts + call_blocks},
                        {"role": "user", "content": results},
                    ]
                },
            }

        # The shapes an assistant tool call can take in the input.
        as_object = [
            {"type": "tool_call", "id": c["id"], "name": c["name"], "arguments": c["arguments"]}
            for c in calls
        ]
        as_string = [
            {"type": "tool_call", "id": c["id"], "name": c["name"], "arguments": c["raw_arguments"]}
            for c in calls
        ]
        as_output = [dict(c) for c in calls]  # the response's block, unchanged
        raw_only = [
            {
                "type": "tool_call",
                "id": c["id"],
                "raw_name": c["raw_name"],
                "raw_arguments": c["raw_arguments"],
            }
            for c in calls
        ]
        bad_string = [dict(as_string[0], arguments='{"city": "Par'), as_string[1]]
        for label, blocks in (
            ("arguments as object", as_object),
            ("arguments as string", as_string),
            ("response block echoed (raw_name, raw_arguments, name, arguments)", as_output),
            ("only raw_name + raw_arguments", raw_only),
            ("arguments as a string that is not JSON", bad_string),
        ):
            self.probe("second turn: tool_call " + label, body(blocks), FINAL, messages=True)
        for label, result in (
            ("result as an object", dict(results[0], result={"temperature": 21})),
            ("without name", {k: v for k, v in results[0].items() if k != "name"}),
            ("with an id no call has", dict(results[0], id="call_nobody")),
        ):
            request = body(as_object)
            request["input"]["messages"][-1]["content"] = [result, results[1]]
            self.probe("second turn: tool_result " + label, request, FINAL, messages=True)

        request = body(as_object)
        status, data, received = self.call(request, FINAL)
        self.save_json("second_turn.request.json", request)
        self.save("second_turn.json", data)
        self.save_json("second_turn.upstream.json", received[0] if received else None)

    def additional_tools(self):
        tool = {
            "name": "lookup",
            "description": "Look something up in the knowledge base.",
            "parameters": LOOKUP,
            "strict": False,
        }
        request = {
            "function_name": "bare",
            "input": {"messages": [{"role": "user", "content": "Look up the Eiffel Tower."}]},
            "additional_tools": [tool],
        }
        reply = {"content": None, "tool_calls": [("call_lookup_1", "lookup", '{"query":"Eiffel Tower"}')]}
        status, data, received = self.call(request, reply)
        self.save_json("additional_tools.request.json", request)
        self.save("additional_tools.json", data)
        self.save_json("additional_tools.upstream.json", received[0] if received else None)

        # Without `strict`, without `description`: which fields are required?
        for label, t in (
            ("without strict", {k: v for k, v in tool.items() if k != "strict"}),
            ("without description", {k: v for k, v in tool.items() if k != "description"}),
            ("strict true", dict(tool, strict=True)),
            ("name with a dot", dict(tool, name="kb.lookup")),
            ("name with a space", dict(tool, name="kb lookup")),
            ("name clashing with a configured tool", dict(tool, name="get_weather")),
        ):
            fn = "assistant" if "clashing" in label else "bare"
            call = {"content": None, "tool_calls": [("call_lookup_1", t["name"], '{"query":"Eiffel Tower"}')]}
            status, data, received = self.probe(
                "additional_tools " + label,
                dict(request, function_name=fn, additional_tools=[t]),
                call,
            )
            if received and "tools" in received[0]:
                self.probes["additional_tools " + label]["upstream_received_tools"] = received[0]["tools"]

    def fields(self, first):
        ask = {"function_name": "assistant", "input": ASK_WEATHER}
        episode = first["episode_id"]

        self.probe("variant_name pinned", dict(ask, variant_name="other_variant"), TEXT_ONLY)
        self.probe("variant_name unknown", dict(ask, variant_name="nope"), TEXT_ONLY)
        self.probe("model_name instead of function_name", {"model_name": "scripted", "input": ASK_WEATHER}, TEXT_ONLY)

        self.probe("episode_id from turn 1", dict(ask, episode_id=episode), TEXT_ONLY)
        self.probe("episode_id uuid4", dict(ask, episode_id=str(uuid.uuid4())), TEXT_ONLY)
        self.probe("episode_id not a uuid", dict(ask, episode_id="episode-1"), TEXT_ONLY)
        self.probe("episode_id fresh uuid7", dict(ask, episode_id=uuid7()), TEXT_ONLY)
        self.probe(
            "episode_id uuid7 one hour ahead",
            dict(ask, episode_id=uuid7(time.time() + 3600)),
            TEXT_ONLY,
        )
        self.probe("episode_id uuid7 from 2020", dict(ask, episode_id=uuid7(1.6e9)), TEXT_ONLY)

        self.probe("allowed_tools [get_weather]", dict(ask, allowed_tools=["get_weather"]), ONE_CALL)
        self.probe("allowed_tools []", dict(ask, allowed_tools=[]), TEXT_ONLY)
        self.probe("allowed_tools unknown name", dict(ask, allowed_tools=["nope"]), TEXT_ONLY)
        self.probe(
            "allowed_tools [get_weather], upstream calls python_exec",
            dict(ask, allowed_tools=["get_weather"]),
            {"content": None, "tool_calls": [("call_python_1", "python_exec", '{"code":"print(1)"}')]},
        )
        self.probe(
            "dynamic_tool_params (old nesting)",
            dict(ask, dynamic_tool_params={"allowed_tools": ["get_weather"]}),
            ONE_CALL,
        )
        for choice in ("auto", "required", "none", "off", {"specific": "python_exec"}, {"specific": "nope"}):
            self.probe("tool_choice " + json.dumps(choice), dict(ask, tool_choice=choice), ONE_CALL)
        self.probe("parallel_tool_calls false", dict(ask, parallel_tool_calls=False), ONE_CALL)
        self.probe("parallel_tool_calls true", dict(ask, parallel_tool_calls=True), TWO_CALLS)
        self.probe("unknown top-level field", dict(ask, no_such_field=1), TEXT_ONLY)
        self.probe("dryrun true", dict(ask, dryrun=True), TEXT_ONLY)
        self.probe(
            "tool_result for an unknown tool name",
            dict(
                ask,
                input={
                    "messages": [
                        {"role": "user", "content": "hi"},
                        {
                            "role": "assistant",
                            "content": [
                                {"type": "tool_call", "id": "c1", "name": "nope", "arguments": {}}
                            ],
                        },
                        {
                            "role": "user",
                            "content": [{"type": "tool_result", "id": "c1", "name": "nope", "result": "x"}],
                        },
                    ]
                },
            ),
            TEXT_ONLY,
        )


def uuid7(seconds=None):
    """A UUIDv7 for the given Unix time (now by default)."""
    ms = int((time.time() if seconds is None else seconds) * 1000)
    rand = int.from_bytes(os.urandom(10), "big")
    value = (ms & ((1 << 48) - 1)) << 80
    value |= 0x7 << 76
    value |= (rand >> 68 & 0xFFF) << 64
    value |= 0b10 << 62
    value |= rand & ((1 << 62) - 1)
    return str(uuid.UUID(int=value))


WATCHDOG = 300  # seconds for the whole run


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)

    def expire():
        print("tensorzero_fixtures: no end after %ds, giving up" % WATCHDOG, file=sys.stderr, flush=True)
        os._exit(3)

    watchdog = threading.Timer(WATCHDOG, expire)
    watchdog.daemon = True
    watchdog.start()
    upstream = Upstream()
    try:
        with tempfile.TemporaryDirectory() as folder:
            config = write_config(folder, upstream.base)
            http = _start_http_gateway(
                config_file=config,
                clickhouse_url=None,
                postgres_url=None,
                valkey_url=None,
                async_setup=False,
            )
            try:
                routes = http_routes(http.base_url)
            finally:
                http.close()
            gateway = Gateway(config)
            try:
                run = Run(out, gateway, upstream)
                run.probes["HTTP gateway of _start_http_gateway"] = routes
                run.all()
            finally:
                gateway.close()
    finally:
        upstream.close()
        watchdog.cancel()


if __name__ == "__main__":
    main()
