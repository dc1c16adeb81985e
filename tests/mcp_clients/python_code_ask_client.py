"""Calls the code tool of `tool-examples --code-mode serve --conformance` with the official
Python SDK (`mcp` from PyPI), whose snippet calls the conformance tools that ask their client
(sampling, elicitation), and prints what it saw as one JSON object, for
`tool-examples/tests/code_mode.rs` to check.

    python_code_ask_client.py COMMAND [ARGS...]

Two sessions, each calling `run_python` once with the same snippet (a sampling, then an
elicitation, each asked while the code waits where it is):

- the classic `initialize` handshake (2025-11-25): the questions come as requests to the
  client;
- the SDK's default mode (`mcp.Client`, protocol 2026-07-28): the questions come in
  input-required results, which the SDK answers through the same callbacks and retries.

Each callback counts the questions it got: a snippet that ran again from its start would ask
again. Every step is bounded in time.
"""

import asyncio
import json
import sys

from mcp import Client, ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client

from driving import STEP_SECONDS, model_says, step, wire

CODE = """
said = test_sampling(prompt="Say hi")
who = test_elicitation(message="Who are you?")
print(said)
who
"""


def callbacks(seen):
    async def sample(context, params):
        seen["sampled"] += 1
        return model_says("hi from the client's model")

    async def elicit(context, params):
        seen["elicited"] += 1
        return types.ElicitResult(
            action="accept", content={"username": "ada", "email": "ada@example.com"}
        )

    return {"sampling_callback": sample, "elicitation_callback": elicit}


async def main():
    params = StdioServerParameters(command=sys.argv[1], args=sys.argv[2:])
    result = {}

    seen = {"sampled": 0, "elicited": 0}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, **callbacks(seen)) as session:
            init = await step(session.initialize())
            seen["protocol"] = init.protocol_version
            seen["result"] = wire(await step(session.call_tool("run_python", {"code": CODE})))
    result["requests"] = seen

    seen = {"sampled": 0, "elicited": 0}
    async with Client(params, **callbacks(seen)) as client:
        seen["protocol"] = client.protocol_version
        seen["result"] = wire(await step(client.call_tool("run_python", {"code": CODE})))
    result["rounds"] = seen

    print(json.dumps(result))


asyncio.run(asyncio.wait_for(main(), 4 * STEP_SECONDS))
