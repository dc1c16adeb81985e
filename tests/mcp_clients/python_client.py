"""Drives an MCP server with the official Python SDK (`mcp` from PyPI) and prints what it saw
as one JSON object, for `tool-examples/tests/mcp.rs` to check.

    python_client.py MODE stdio COMMAND [ARGS...]
    python_client.py MODE http URL [TOKEN]

MODE is how the SDK negotiates: `legacy` is the classic `initialize` handshake
(`ClientSession.initialize`), `auto` is the SDK's default (`mcp.Client`: it probes
`server/discover` and speaks 2026-07-28 where the server offers it, falling back to the
handshake). Both must succeed: the SDK validates every result against its own types.

Steps: connect, list every tool (following cursors), call `read_file` with good
arguments, `search_files` (a JSON result), `read_file` with bad arguments, and a tool that
doesn't exist. Every step is bounded in time.
"""

import asyncio
import json
import sys

from mcp import Client, ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.exceptions import MCPError

from driving import STEP_SECONDS, step, wire


async def drive(session, legacy):
    """`session` is a `ClientSession` (legacy: not yet initialized) or an entered `Client`."""
    seen = {}
    if legacy:
        init = await step(session.initialize())
        seen["server"] = init.server_info.name
        seen["protocol"] = init.protocol_version
        capabilities = init.capabilities
    else:
        seen["server"] = session.server_info.name
        seen["protocol"] = session.protocol_version
        capabilities = session.server_capabilities
    seen["capabilities"] = capabilities.model_dump(by_alias=True, exclude_none=True, mode="json")

    tools, cursor, pages = [], None, 0
    while True:
        params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
        page = await step(session.list_tools(params=params) if legacy else session.list_tools(cursor=cursor))
        pages += 1
        tools.extend(wire(tool) for tool in page.tools)
        cursor = page.next_cursor
        if not cursor or pages > 100:
            break
    seen["tools"] = tools
    seen["pages"] = pages

    seen["good"] = wire(await step(session.call_tool("read_file", {"path": "hello.txt"})))
    # `search_files` declares an `outputSchema`: the SDK validates the structured result
    # against it, and fails the call if it doesn't conform.
    seen["json"] = wire(await step(session.call_tool("search_files", {"query": "world"})))
    seen["bad"] = wire(await step(session.call_tool("read_file", {"path": 5, "limit": "many"})))
    try:
        unknown = await step(session.call_tool("read_fil", {"path": "hello.txt"}))
        seen["unknown"] = {"result": wire(unknown)}
    except MCPError as error:
        seen["unknown"] = {"code": error.code, "message": error.message, "data": error.data}
    return seen


async def main():
    mode, transport, target = sys.argv[1], sys.argv[2], sys.argv[3]
    legacy = mode == "legacy"
    if transport == "stdio":
        params = StdioServerParameters(command=target, args=sys.argv[4:])
        if legacy:
            async with stdio_client(params) as (read, write):
                async with ClientSession(read, write) as session:
                    seen = await drive(session, legacy)
        else:
            async with Client(params) as client:
                seen = await drive(client, legacy)
    else:
        headers = {"Authorization": f"Bearer {sys.argv[4]}"} if len(sys.argv) > 4 else None
        async with create_mcp_http_client(headers=headers) as http:
            if legacy:
                async with streamable_http_client(target, http_client=http) as (read, write):
                    async with ClientSession(read, write) as session:
                        seen = await drive(session, legacy)
            else:
                async with Client(streamable_http_client(target, http_client=http)) as client:
                    seen = await drive(client, legacy)
    print(json.dumps(seen))


asyncio.run(asyncio.wait_for(main(), 4 * STEP_SECONDS))
