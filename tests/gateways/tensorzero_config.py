"""Loads a TensorZero configuration in the real gateway, and says whether it took it.

    .venv-gateways/bin/python tests/gateways/tensorzero_config.py PATH/tensorzero.toml

Builds the gateway that the PyPI package `tensorzero` embeds
(`TensorZeroGateway.build_embedded`, no ClickHouse, Postgres or Valkey), which loads and checks
the whole configuration, the files it names included (tool parameter schemas, templates), as
the standalone gateway does at startup. Prints one line on stdout:

    CONFIG_OK                       exit 0
    CONFIG_ERROR <TensorZero's message, on one line>      exit 1

The gateway's own log lines go to stderr. The load runs in a thread that is given
`TIMEOUT` seconds; past that the script prints `CONFIG_ERROR timed out ...` and exits 1.
The message is the client's, which wraps TensorZero's: `Failed to construct TensorZero client:
ConfigParsing { error: Other { source: TensorZeroInternalError(Error(Config { message: "..." }))
}, glob: ... }`, the inner `message` being the reason.

What tensorzero 2026.6.0 does with `[tools.NAME]` (tried with this script):

- accepted: a valid config with tools and schema files; a tool no function uses; a schema
  whose top-level type is not `object` (`{"type": "string"}`); `strict = true`.
- refused: a missing schema file (`tools.get_weather.parameters: Failed to resolve path
  ...`); a schema file that is not JSON (`Failed to parse JSON Schema ...`); a schema that is
  not a valid JSON Schema: `{"type": 12}` (`Failed to compile JSON Schema t.json: 12 is not
  valid under any of the schemas listed in the 'anyOf' keyword`), `{"properties": 5}`; a
  function naming a tool that is not defined (`functions.f.tools: tool nope is not present in
  the config`); no `description`; an unknown field (`unknown field foo, expected one of
  description, parameters, name, strict`).
- tool keys: any TOML key except those starting with `tensorzero::` (`Tool name cannot start
  with 'tensorzero::'`). Accepted: `a.b`, `a-b`, `a b`, `a/b`, `a:b`, `über`, `日本`, an emoji,
  `""`, control characters (`\t`, `\n`, `\u0000`), 64, 65 and 200 characters. Nothing checks
  the name against what providers allow: it is sent as given.
- `name = "..."` exists: the name sent to the provider and returned as the call's `name`,
  distinct from the key (`[tools.weather_v2] name = "get_weather"`). Two tools with the same
  `name`, even in one function, load; an inference of that function is then 400 `Duplicate
  tool name: get_weather. Tool names must be unique.` `allowed_tools` takes the key
  (`weather_v2`; `get_weather` is 400 `Tool not found`) but sends the key in OpenAI's
  `allowed_tools` choice, which then names no tool that was sent; `tool_choice.specific`
  takes the `name` (`get_weather`; `weather_v2` is 400 `Tool not found`).
"""

import os
import sys
import threading

os.environ.setdefault("TENSORZERO_DISABLE_PSEUDONYMOUS_USAGE_ANALYTICS", "1")

TIMEOUT = 60  # seconds
STDOUT = 1


def one_line(text):
    return " ".join(str(text).split())


def finish(code, line):
    # The marker is the only thing this script writes to the real stdout.
    os.write(STDOUT, (line + "\n").encode())
    sys.stderr.flush()
    # `_exit`: a load still running in its thread must not keep the process alive.
    os._exit(code)


def load(config, outcome):
    try:
        from tensorzero import TensorZeroGateway

        client = TensorZeroGateway.build_embedded(
            config_file=config,
            clickhouse_url=None,
            postgres_url=None,
            valkey_url=None,
            timeout=TIMEOUT,
        )
        client.close()
        outcome.append(None)
    except BaseException as error:  # the client's TensorZero*Error, or anything else
        outcome.append(error)


def main():
    global STDOUT
    # The gateway logs on stdout (fd 1, from Rust): send fd 1 to stderr and keep the real
    # stdout for the one result line.
    sys.stdout.flush()
    STDOUT = os.dup(1)
    os.dup2(2, 1)
    if len(sys.argv) != 2:
        sys.stderr.write(__doc__)
        finish(2, "CONFIG_ERROR usage: tensorzero_config.py PATH/tensorzero.toml")
    config = os.path.abspath(sys.argv[1])
    if not os.path.isfile(config):
        finish(1, "CONFIG_ERROR no such file: " + config)
    outcome = []
    worker = threading.Thread(target=load, args=(config, outcome), daemon=True)
    worker.start()
    worker.join(TIMEOUT)
    if not outcome:
        finish(1, "CONFIG_ERROR timed out after %ds loading %s" % (TIMEOUT, config))
    error = outcome[0]
    if error is None:
        finish(0, "CONFIG_OK")
    message = getattr(error, "text", None) or getattr(error, "msg", None) or str(error)
    finish(1, "CONFIG_ERROR " + one_line(message or type(error).__name__))


if __name__ == "__main__":
    main()
