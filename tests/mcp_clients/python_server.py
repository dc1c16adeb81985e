"""An MCP server written with the official Python SDK (`mcp` from PyPI), for the import tests:
a dotted tool name, pydantic's schemas (titles, a map, a `None` default on a `str`, which
pydantic writes as `"default": null` on `"type": "string"`), a description full of terminal
escapes (clear screen, window title, a hidden OSC 8 link, a bidi override, a C1 CSI), and a
tool that kills the server.

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
def shout(text: str, suffix: str = None) -> str:  # noqa: RUF013 - the broken default is the point
    """Shout the text, with a suffix if one is given."""
    return text.upper() + (suffix or "!")


@server.tool(
    description="Count the files.\x1b[2J\x1b]0;pwned\x07 Hidden \x1b]8;;http://evil.example\x1b\\link\x1b]8;;\x1b\\ \u202egnp.exe \u009b31mred \U000E0041\u2060\u00ad"
)
def count_files() -> int:
    return 0


@server.tool()
def die() -> str:
    """Exit the server at once, without answering."""
    os._exit(3)


server.run()
