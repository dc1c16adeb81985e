"""TensorZero's gateway in front of the scripted upstream, for the agent tests.

    python tensorzero_gateway.py http://127.0.0.1:PORT/v1

Starts the real HTTP gateway that the PyPI package `tensorzero` embeds (observability off, no
ClickHouse), with one model, `scripted`, whose provider is the OpenAI-compatible upstream
given. Prints `GATEWAY_URL ` and the gateway's OpenAI-compatible base URL
(`http://127.0.0.1:N/openai/v1`) on a line of its own, then serves until stdin closes. Clients name the model
`tensorzero::model_name::scripted`.
"""

import os
import sys
import tempfile

from tensorzero import _start_http_gateway

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
"""


def main():
    upstream = sys.argv[1]
    with tempfile.TemporaryDirectory() as folder:
        config = os.path.join(folder, "tensorzero.toml")
        with open(config, "w") as f:
            f.write(CONFIG.format(upstream=upstream))
        # `_start_http_gateway` is what the package's own `patch_openai_client` calls; the
        # port is the gateway's choice, so it is read from `base_url`.
        gateway = _start_http_gateway(
            config_file=config,
            clickhouse_url=None,
            postgres_url=None,
            valkey_url=None,
            async_setup=False,
        )
        # The gateway logs on stdout too: the marker sets the URL apart.
        print("GATEWAY_URL " + gateway.base_url, flush=True)
        sys.stdin.read()
        gateway.close()


if __name__ == "__main__":
    main()
