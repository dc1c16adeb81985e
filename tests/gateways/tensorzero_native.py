"""TensorZero's native inference endpoint (`POST /inference`) over HTTP, for the agent tests.

    python tensorzero_native.py PATH/tensorzero.toml LOG.jsonl

The HTTP gateway that the PyPI package `tensorzero` can start (`_start_http_gateway`) serves
only the OpenAI-compatible routes; `POST /inference` there is a 404 (see
`tensorzero_fixtures.py`). This script serves that route on 127.0.0.1 with the package's
embedded gateway (`TensorZeroGateway.build_embedded`), which runs the same native inference
function as the standalone gateway's handler: each request body is handed to it as is, and its
answer written back as the handler writes it (`tensorzero_fixtures.Gateway` captures the JSON
before the client turns it into dataclasses): the response JSON, or one server-sent event per
chunk followed by `data: [DONE]`, or the gateway's error status and `{"error": ...}` body.
This HTTP layer is the only part that is not TensorZero's own.

Each request body is appended to LOG.jsonl (one JSON per line), so a test can check what the
transport sent. Prints `GATEWAY_URL http://127.0.0.1:N` on a line of its own, then serves until
stdin closes.
"""

import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

os.environ.setdefault("TENSORZERO_DISABLE_PSEUDONYMOUS_USAGE_ANALYTICS", "1")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tensorzero_fixtures import Gateway  # noqa: E402

MAX_BODY = 16 << 20


def main():
    config, log = sys.argv[1], sys.argv[2]
    gateway = Gateway(config)
    # The embedded client is not made for concurrent calls: one inference at a time.
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def reply(self, status, content_type, data):
            self.send_response(status)
            self.send_header("content-type", content_type)
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self):
            length = int(self.headers.get("content-length") or 0)
            if self.path.rstrip("/") != "/inference" or length > MAX_BODY:
                self.reply(404, "application/json", b'{"error": "Route not found"}')
                return
            raw = self.rfile.read(length)
            try:
                body = json.loads(raw)
            except ValueError as error:
                self.reply(400, "application/json", json.dumps({"error": str(error)}).encode())
                return
            with open(log, "a") as f:
                f.write(json.dumps(body) + "\n")
            with lock:
                if body.get("stream"):
                    status, events = gateway.infer_stream(body)
                else:
                    status, events = gateway.infer(body)
            if status != 200:
                data = events[0] if isinstance(events, list) else events
                data = data.encode() if isinstance(data, str) else data
                if status is None:  # refused by the client before the gateway: a bad request
                    status, data = 400, json.dumps({"error": data.decode()}).encode()
                self.reply(status, "application/json", data)
            elif body.get("stream"):
                data = "".join("data: %s\n\n" % e for e in events) + "data: [DONE]\n\n"
                self.reply(200, "text/event-stream", data.encode())
            else:
                self.reply(200, "application/json", events)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print("GATEWAY_URL http://127.0.0.1:%d" % server.server_address[1], flush=True)
    sys.stdin.read()
    server.shutdown()
    gateway.close()


if __name__ == "__main__":
    main()
