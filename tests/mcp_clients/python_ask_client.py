"""Drives the conformance tools that ask their client (sampling, elicitation) with the official
Python SDK (`mcp` from PyPI), answering as a client would, and prints what it saw as one JSON
object, for `tool-examples/tests/mcp.rs` to check.

    python_ask_client.py stdio COMMAND [ARGS...]
    python_ask_client.py http URL

Three sessions, two with the classic `initialize` handshake (2025-11-25: requests to the
client) and one in the SDK's default mode (`mcp.Client`, protocol 2026-07-28: questions in
input-required results, which the SDK answers through the same callbacks and retries):

- one with a sampling callback and an elicitation callback, which calls `test_sampling` once,
  `test_elicitation` three times and `test_elicitation_url` three times, the callback
  answering accept, decline and cancel in turn, and keeps the requests the callbacks received
  and the `notifications/elicitation/complete` the server sent; then `test_url_required`,
  which must fail with an `MCPError` of code -32042 listing the URL-mode elicitations;
- one with no callbacks (so no `sampling` or `elicitation` capability), which calls the tools
  and must get error results;
- one in 2026-07-28 with an elicitation callback, which calls `test_elicitation_url` and
  accepts, then `test_url_required`, whose URL the callback is asked in URL mode (no
  -32042 there) before the retry's result.

Every step is bounded in time.
"""

import asyncio
import json
import sys
from contextlib import asynccontextmanager

from mcp import (
    Client,
    ClientSession,
    MCPError,
    StdioServerParameters,
    UrlElicitationRequiredError,
    types,
)
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


def auto_client(**callbacks):
    """An `mcp.Client` in its default mode (2026-07-28 where the server offers it)."""
    transport, target = sys.argv[1], sys.argv[2]
    if transport == "stdio":
        return Client(StdioServerParameters(command=target, args=sys.argv[3:]), **callbacks)
    return Client(streamable_http_client(target), **callbacks)


URL = "https://example.com/connect?state=8d1f"


async def asking_session():
    seen = {"sampling_requests": [], "elicitation_requests": [], "url_requests": [], "completed": []}
    answers = []
    completed = asyncio.Event()

    async def sample(context, params):
        seen["sampling_requests"].append(wire(params))
        return model_says("the client's model says hi")

    async def elicit(context, params):
        action = answers.pop(0)
        if params.mode == "url":
            seen["url_requests"].append(wire(params))
            return types.ElicitResult(action=action)
        seen["elicitation_requests"].append(wire(params))
        if action == "accept":
            return types.ElicitResult(
                action="accept", content={"username": "ada", "email": "ada@example.com"}
            )
        return types.ElicitResult(action=action)

    async def notified(message):
        if isinstance(message, types.ElicitCompleteNotification):
            seen["completed"].append(wire(message.params))
            completed.set()

    async with streams() as (read, write):
        async with ClientSession(
            read,
            write,
            sampling_callback=sample,
            elicitation_callback=elicit,
            message_handler=notified,
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
            seen["visited"] = {}
            for action in ["accept", "decline", "cancel"]:
                answers.append(action)
                arguments = {"url": URL, "message": "Sign in to connect."}
                seen["visited"][action] = wire(
                    await step(session.call_tool("test_elicitation_url", arguments))
                )
            seen["url_required"] = await refused(
                session.call_tool("test_url_required", {"url": URL, "message": "Sign in first."})
            )
            # The completion may travel on another stream than the result (the session's
            # GET stream over HTTP): wait for it, bounded.
            try:
                await asyncio.wait_for(completed.wait(), STEP_SECONDS)
            except asyncio.TimeoutError:
                pass
    return seen


async def refused(call):
    """What a call refused with an `MCPError` carried: its code, message and elicitations
    (read back by the SDK's own `UrlElicitationRequiredError`)."""
    try:
        result = await step(call)
    except MCPError as error:
        seen = {"code": error.code, "message": error.message, "data": error.data}
        if error.code == -32042:
            elicitations = UrlElicitationRequiredError.from_error(error.error).elicitations
            seen["elicitations"] = [wire(e) for e in elicitations]
        return seen
    return {"result": wire(result)}


async def sessionless_session():
    seen = {"url_requests": []}

    async def elicit(context, params):
        seen["url_requests"].append(wire(params))
        return types.ElicitResult(action="accept")

    async with auto_client(elicitation_callback=elicit) as client:
        seen["protocol"] = client.protocol_version
        arguments = {"url": URL, "message": "Sign in to connect."}
        seen["visited"] = wire(await step(client.call_tool("test_elicitation_url", arguments)))
        arguments = {"url": URL, "message": "Sign in first."}
        seen["url_required"] = await refused(client.call_tool("test_url_required", arguments))
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
            arguments = {"url": URL, "message": "Sign in to connect."}
            seen["visited"] = wire(await step(session.call_tool("test_elicitation_url", arguments)))
            arguments = {"url": URL, "message": "Sign in first."}
            seen["url_required"] = await refused(session.call_tool("test_url_required", arguments))
    return seen


async def main():
    seen = {
        "asking": await asking_session(),
        "plain": await plain_session(),
        "sessionless": await sessionless_session(),
    }
    print(json.dumps(seen))


asyncio.run(asyncio.wait_for(main(), 8 * STEP_SECONDS))
