"""What the client scripts of this folder share: a result as the JSON it was on the wire, a
step bounded in time, and the answer of the client's (made-up) model to a sampling request.
Python puts a script's own folder first on its path, so `from driving import ...` finds it.
"""

import asyncio

from mcp import types

STEP_SECONDS = 20


def wire(result):
    return result.model_dump(by_alias=True, exclude_none=True, mode="json")


async def step(awaitable):
    return await asyncio.wait_for(awaitable, STEP_SECONDS)


def model_says(text):
    """What a sampling callback answers: `text`, from `python-test-model`."""
    return types.CreateMessageResult(
        role="assistant",
        content=types.TextContent(type="text", text=text),
        model="python-test-model",
        stop_reason="endTurn",
    )
