"""An MCP server written with the official Python SDK (`mcp` from PyPI), for the import tests:
a dotted tool name, pydantic's schemas (titles, a map), and a tool that kills the server.

    python_server.py
"""

import os

from mcp.server.mcpserver import MCPServer

server = MCPServer("python-fixture")


@server.tool()
def ping() -> str:
    """Answer pong."""
    return "pong"


@server.tool(name="math.add")
def add(a: int, b: int = 1) -> int:
    """Add two integers."""
    return a + b


@server.tool()
def tally(counts: dict[str, int]) -> int:
    """Sum the counts of a map from word to count."""
    return sum(counts.values())


@server.tool()
def die() -> str:
    """Exit the server at once, without answering."""
    os._exit(3)


server.run()
