"""Drives the conformance server's resources, template and prompts with the official Python SDK
(`mcp` from PyPI) and prints what it saw as one JSON object, for `tool-examples/tests/mcp.rs`
to check.

    python_resources_client.py MODE stdio COMMAND [ARGS...]
    python_resources_client.py MODE http URL

MODE is how the SDK negotiates, as in `python_client.py`: `legacy` (the `initialize`
handshake) or `auto` (`mcp.Client`, 2026-07-28 where the server offers it). The SDK validates
every result against its own types.

Steps: list resources, templates and prompts; read a text resource, a binary one, one from the
template, and a URI nothing has (an error); get each prompt, and one without its required
argument (an error); complete a prompt argument and a template variable. In `legacy` mode
also subscribe to `test://watched-resource`, wait for `notifications/resources/updated`
(the server says it changed every second), and unsubscribe: protocol 2026-07-28 replaces
`resources/subscribe` with `subscriptions/listen`. Every step is bounded in time.
"""

import asyncio
import json
import sys
import warnings

from mcp import Client, ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.exceptions import MCPError

from driving import STEP_SECONDS, step, wire

# `legacy` subscribes the 2025 way on purpose: the SDK's deprecation notice is expected.
warnings.filterwarnings("ignore", message="resources/(un)?subscribe is removed")

WATCHED = "test://watched-resource"


async def error_of(awaitable):
    try:
        return {"result": wire(await step(awaitable))}
    except MCPError as error:
        return {"code": error.code, "message": error.message}


async def drive(session, legacy, updates):
    seen = {}
    if legacy:
        init = await step(session.initialize())
        seen["protocol"] = init.protocol_version
        capabilities = init.capabilities
    else:
        seen["protocol"] = session.protocol_version
        capabilities = session.server_capabilities
    seen["capabilities"] = capabilities.model_dump(by_alias=True, exclude_none=True, mode="json")

    seen["resources"] = wire(await step(session.list_resources()))
    seen["templates"] = wire(await step(session.list_resource_templates()))
    seen["prompts"] = wire(await step(session.list_prompts()))
    seen["read"] = {
        uri: wire(await step(session.read_resource(uri)))
        for uri in ["test://static-text", "test://static-binary", "test://template/42/data"]
    }
    seen["missing"] = await error_of(session.read_resource("test://nothing-here"))
    seen["got"] = {
        "simple": wire(await step(session.get_prompt("test_simple_prompt"))),
        "args": wire(
            await step(
                session.get_prompt("test_prompt_with_arguments", {"arg1": "one", "arg2": "two"})
            )
        ),
        "image": wire(await step(session.get_prompt("test_prompt_with_image"))),
        "embedded": wire(
            await step(
                session.get_prompt(
                    "test_prompt_with_embedded_resource", {"resourceUri": "test://x"}
                )
            )
        ),
    }
    seen["without_argument"] = await error_of(
        session.get_prompt("test_prompt_with_arguments", {"arg1": "one"})
    )
    seen["completed"] = {
        "prompt": wire(
            await step(
                session.complete(
                    types.PromptReference(type="ref/prompt", name="test_prompt_with_arguments"),
                    {"name": "arg1", "value": "te"},
                )
            )
        ),
        "template": wire(
            await step(
                session.complete(
                    types.ResourceTemplateReference(
                        type="ref/resource", uri="test://template/{id}/data"
                    ),
                    {"name": "id", "value": "1"},
                )
            )
        ),
    }
    if legacy:
        await step(session.subscribe_resource(WATCHED))
        seen["updated"] = await step(updates.get())
        await step(session.unsubscribe_resource(WATCHED))
    return seen


async def main():
    mode, transport, target = sys.argv[1], sys.argv[2], sys.argv[3]
    legacy = mode == "legacy"
    updates = asyncio.Queue()

    async def on_message(message):
        if isinstance(message, types.ResourceUpdatedNotification):
            await updates.put(message.params.uri)

    if transport == "stdio":
        params = StdioServerParameters(command=target, args=sys.argv[4:])
        if legacy:
            async with stdio_client(params) as (read, write):
                async with ClientSession(read, write, message_handler=on_message) as session:
                    seen = await drive(session, legacy, updates)
        else:
            async with Client(params) as client:
                seen = await drive(client, legacy, updates)
    else:
        async with create_mcp_http_client() as http:
            if legacy:
                async with streamable_http_client(target, http_client=http) as (read, write):
                    async with ClientSession(read, write, message_handler=on_message) as session:
                        seen = await drive(session, legacy, updates)
            else:
                async with Client(streamable_http_client(target, http_client=http)) as client:
                    seen = await drive(client, legacy, updates)
    print(json.dumps(seen))


asyncio.run(asyncio.wait_for(main(), 4 * STEP_SECONDS))
