"""Known Outputs of plain data, without the SDK's walk of every leaf.

`pulumi.Output.from_input` of a dict builds an Output for every key and every value, nested all
the way down, and joins them again with `Output.all`: for a profile's spec and status that is
dozens of futures, tasks and callbacks for data that is plain and known when the component is
declared. A component output built from such data needs one Output holding the value.
"""

import asyncio
from typing import TypeVar

import pulumi

__all__ = ["known_output"]

T = TypeVar("T")


def _resolved(value: object) -> "asyncio.Future[object]":
    future: asyncio.Future[object] = asyncio.get_event_loop().create_future()
    future.set_result(value)
    return future


def known_output(value: T) -> pulumi.Output[T]:
    """One known, non-secret Output of `value`, which holds no Output or awaitable.

    The value is not copied: pass data built for this output alone.
    """
    return pulumi.Output(set(), _resolved(value), _resolved(True), _resolved(False))  # type: ignore[arg-type]
