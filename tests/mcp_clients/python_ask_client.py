"""Drives the conformance tools that ask their client (sampling, elicitation) with the official
Python SDK (`mcp` from PyPI), answering as a client would, and prints what it saw as one JSON
object, for `tool-examples/tests/mcp.rs` to check.

    python_ask_client.py stdio COMMAND [ARGS...]
    python_ask_client.py http URL

Two sessions, both with the classic `initialize` handshake (2025-11-25: protocol 2026-07-28 has
no server-to-client requests):

- one with a sampling callback and an elicitation callback, which calls `test_sampling` once
  and `test_elicitation` three times, the callback answering accept, decline and cancel in turn,
  and keeps the requests the callbacks received;
- one with no callbacks (so no `sampling` or `elicitation` capability), which calls both tools
  and must get error results.

Every step is bounded in time.
"""

import asyncio
import json
import sys
from contextlib import asynccontextmanager

from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from driving import STEP_SECONDS, model_says, step, wire


@asynccontextmanager
async def streams():
    transport, target = sys.argv[1], sys.argv[2]
    if transport == "stdio":
        params = StdioServerParameters(command=target, args=sys.argv[3:])
        async with stdio_client(params) as (read, write):
            yield read, write
    else:
        async with create_mcp_http_client() as http:
            async with streamable_http_client(target, http_client=http) as (read, write):
                yield read, write


async def asking_session():
    seen = {"sampling_requests": [], "elicitation_requests": []}
    answers = []

    async def sample(context, params):
        seen["sampling_requests"].append(wire(params))
        return model_says("the client's model says hi")

    async def elicit(context, params):
        seen["elicitation_requests"].append(wire(params))
        action = answers.pop(0)
        if action == "accept":
            return types.ElicitResult(
                action="accept", content={"username": "ada", "email": "ada@example.com"}
            )
        return types.ElicitResult(action=action)

    async with streams() as (read, write):
        async with ClientSession(
            read, write, sampling_callback=sample, elicitation_callback=elicit
        ) as session:
            init = await step(session.initialize())
            seen["protocol"] = init.protocol_version
            seen["sampled"] = wire(
                await step(session.call_tool("test_sampling", {"prompt": "Say hi"}))
            )
            seen["elicited"] = {}
            for action in ["accept", "decline", "cancel"]:
                answers.append(action)
                seen["elicited"][action] = wire(
                    await step(session.call_tool("test_elicitation", {"message": "Who are you?"}))
                )
    return seen


async def plain_session():
    seen = {}
    async with streams() as (read, write):
        async with ClientSession(read, write) as session:
            await step(session.initialize())
            seen["sampled"] = wire(
                await step(session.call_tool("test_sampling", {"prompt": "Say hi"}))
            )
            seen["elicited"] = wire(
                await step(session.call_tool("test_elicitation", {"message": "Who?"}))
            )
    return seen


async def main():
    seen = {"asking": await asking_session(), "plain": await plain_session()}
    print(json.dumps(seen))


asyncio.run(asyncio.wait_for(main(), 6 * STEP_SECONDS))
