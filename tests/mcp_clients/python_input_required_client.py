"""Drives the conformance tools and prompt that ask their client with the official Python SDK
(`mcp` from PyPI) speaking protocol 2026-07-28, where the questions come back as
input-required results (SEP-2322) that the SDK's `Client` answers through its callbacks and
retries on its own, and prints what it saw as one JSON object, for
`tool-examples/tests/mcp.rs` to check.

    python_input_required_client.py stdio COMMAND [ARGS...]
    python_input_required_client.py http URL

One `mcp.Client` in its default mode (`auto`: it probes `server/discover` and speaks
2026-07-28 when the server offers it) with a sampling, an elicitation and a roots callback,
which calls the tools that elicit (`test_input_required_result_elicitation`), sample
(`..._sampling`), ask three things at once (`..._multiple_inputs`) and ask in two rounds
(`..._multi_round`), and gets the prompt that asks (`test_input_required_result_prompt`).
Each callback keeps the key it was called under: under 2026-07-28 the SDK's driver passes the
`inputRequests` key as the request id, where a server-to-client request has a number.

Then one classic session (the `initialize` handshake, 2025-11-25) gets the same prompt, whose
question is a server-to-client `elicitation/create` there. Every step is bounded in time.
"""

import asyncio
import json
import sys

from mcp import Client, ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from driving import STEP_SECONDS, model_says, step, wire

PROMPT = "test_input_required_result_prompt"

# What the user types into each form, by the form's one field.
FORM_ANSWERS = {"name": "Ada", "color": "teal", "context": "a sailing club"}


def callbacks(asked):
    """The three callbacks, each noting (its kind, the key or id it was called under)."""

    async def sample(context, params):
        asked.append({"kind": "sampling", "key": context.request_id, "params": wire(params)})
        return model_says("Good day")

    async def elicit(context, params):
        asked.append({"kind": "elicitation", "key": context.request_id, "params": wire(params)})
        field = next(iter(params.requested_schema["properties"]))
        return types.ElicitResult(action="accept", content={field: FORM_ANSWERS[field]})

    async def roots(context):
        asked.append({"kind": "roots", "key": context.request_id})
        return types.ListRootsResult(roots=[types.Root(uri="file:///work", name="work")])

    return {"sampling_callback": sample, "elicitation_callback": elicit, "list_roots_callback": roots}


def text_of(result):
    return wire(result)["content"][0]["text"]


async def modern(target):
    """The 2026-07-28 client: every question an input-required round."""
    asked = []
    seen = {"asked": asked}
    async with Client(target, **callbacks(asked)) as client:
        seen["protocol"] = client.protocol_version
        calls = {}
        for tool in ["elicitation", "sampling", "multiple_inputs", "multi_round"]:
            result = await step(client.call_tool(f"test_input_required_result_{tool}", {}))
            calls[tool] = {"isError": result.is_error, "text": text_of(result)}
        seen["calls"] = calls
        seen["prompt"] = wire(await step(client.get_prompt(PROMPT)))
    return seen


async def classic(read, write):
    """A handshake session: the prompt's question is a request to this client."""
    asked = []
    async with ClientSession(read, write, **callbacks(asked)) as session:
        init = await step(session.initialize())
        prompt = wire(await step(session.get_prompt(PROMPT)))
    return {"protocol": init.protocol_version, "asked": asked, "prompt": prompt}


async def main():
    transport, target = sys.argv[1], sys.argv[2]
    if transport == "stdio":
        params = StdioServerParameters(command=target, args=sys.argv[3:])
        seen = {"modern": await modern(params)}
        async with stdio_client(params) as (read, write):
            seen["classic"] = await classic(read, write)
    else:
        async with create_mcp_http_client() as http:
            seen = {"modern": await modern(streamable_http_client(target, http_client=http))}
            async with streamable_http_client(target, http_client=http) as (read, write):
                seen["classic"] = await classic(read, write)
    print(json.dumps(seen))


asyncio.run(asyncio.wait_for(main(), 8 * STEP_SECONDS))
