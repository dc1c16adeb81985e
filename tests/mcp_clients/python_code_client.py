"""Calls a server's code tool with the official Python SDK (`mcp` from PyPI) and prints what
it saw as one JSON object, for `tool-examples/tests/code_mode.rs` to check.

    python_code_client.py COMMAND [ARGS...]

Starts the server over stdio (`tool-examples --code-mode serve`), lists its tools, and calls
`run_python` twice: code that reads a file and lists a directory through the tools, and code
that raises. Every step is bounded in time.
"""

import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from driving import STEP_SECONDS, step, wire

GOOD = """
text = read_file(path="hello.txt")
names = list_dir(path=".")
print("lines:", len(text.splitlines()))
sorted(names.splitlines())
"""

BAD = "read_file(path=5)"


async def main():
    params = StdioServerParameters(command=sys.argv[1], args=sys.argv[2:])
    seen = {}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await step(session.initialize())
            tools = await step(session.list_tools())
            seen["tools"] = [wire(tool) for tool in tools.tools]
            seen["good"] = wire(await step(session.call_tool("run_python", {"code": GOOD})))
            seen["bad"] = wire(await step(session.call_tool("run_python", {"code": BAD})))
    print(json.dumps(seen))


asyncio.run(asyncio.wait_for(main(), 4 * STEP_SECONDS))
