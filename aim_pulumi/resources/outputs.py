"""Outputs of plain data without the SDK's walk of every leaf.

`pulumi.Output.from_input` of a dict builds an Output for every key and every value, nested all
the way down, and joins them again with `Output.all`; `Output.all` does the same to the value of
every Output it is given. For a status, a spec or a list of statuses that is dozens of futures,
tasks and callbacks per value, each also tracked until the program ends, for data that holds no
Output at all. The helpers here give the same Output (value, known, secret, resources) as the
SDK's functions, and take the SDK's walk only when a value does hold an Output or an awaitable.
"""

import asyncio
import inspect
from collections.abc import Awaitable, Mapping, Sequence
from typing import Any, TypeVar

import pulumi
from pulumi.output import UNKNOWN, contains_unknowns

from aim_pulumi.resources import _sdk

__all__ = ["PLAIN_SCALARS", "gathered", "is_output_like", "known_output", "output_of", "settled_output"]

T = TypeVar("T")

_NOT_PLAIN = object()


def known_output(value: T) -> pulumi.Output[T]:
    """One known, non-secret Output of `value`, which holds no Output or awaitable.

    The value is not copied: pass data built for this output alone. It is one resolved future,
    as the SDK makes the Output of a plain scalar.
    """
    future: asyncio.Future[Any] = asyncio.get_event_loop().create_future()
    future.set_result(_sdk.output_data(set(), value, True, False))
    return _sdk.output_from_data(future)


PLAIN_SCALARS: frozenset[type] = frozenset({str, int, float, bool, type(None)})
"""Types that are never awaited: most leaves of any argument, answered before the costly checks."""


def is_output_like(value: Any) -> bool:
    """An Output or another awaitable, which the SDK would wait for.

    `inspect.isawaitable` ends in an abstract-class check, the slow part of walking arguments, so
    plain scalars are answered by their type first.
    """
    if type(value) in PLAIN_SCALARS:
        return False
    return isinstance(value, pulumi.Output) or inspect.isawaitable(value)


def _plain_copy(value: Any) -> Any:
    """A copy of `value` as `from_input` rebuilds it, or `_NOT_PLAIN` if it holds anything to await."""
    if type(value) in PLAIN_SCALARS:
        return value
    if isinstance(value, dict):
        if not value:
            return value
        copied: dict[Any, Any] = {}
        for key, item in value.items():
            if is_output_like(key):
                return _NOT_PLAIN
            item = _plain_copy(item)
            if item is _NOT_PLAIN:
                return _NOT_PLAIN
            copied[key] = item
        return copied
    if isinstance(value, list | tuple):
        if not value:
            return value
        items = []
        for item in value:
            item = _plain_copy(item)
            if item is _NOT_PLAIN:
                return _NOT_PLAIN
            items.append(item)
        return items if isinstance(value, list) else tuple(items)
    if is_output_like(value) or _sdk.is_input_type(value):
        return _NOT_PLAIN
    return value


def output_of(value: Any) -> pulumi.Output[Any]:
    """`pulumi.Output.from_input(value)`, as one known Output when `value` holds no Output."""
    if isinstance(value, pulumi.Output):
        return value.apply(_unwrapped, True)
    copied = _plain_copy(value)
    if copied is _NOT_PLAIN:
        return pulumi.Output.from_input(value)
    return known_output(copied)


def _unwrapped(value: Any) -> Any:
    """What `from_input` makes of an Output's value: the value itself unless it holds Outputs."""
    copied = _plain_copy(value)
    return pulumi.Output.from_input(value) if copied is _NOT_PLAIN else copied


_SINGLE = "single"


_Data = tuple[set[pulumi.Resource], Any, bool, bool]


async def _data_of(item: Any) -> _Data:
    """(resources, value, known, secret) of `Output.from_input(item)`, walking no plain value.

    An Output's value goes through `from_input` again, as the SDK does, only when it holds Outputs;
    an unknown one is `UNKNOWN`, as the SDK's `apply(..., run_with_unknowns=True)` hands it on.
    """
    if not isinstance(item, pulumi.Output):
        copied = _plain_copy(item)
        if copied is not _NOT_PLAIN:
            return set(), copied, True, False
        return await _data_of(pulumi.Output.from_input(item))
    resources = await item.resources()
    value = await item.future(with_unknowns=True)
    known = await item.is_known()
    secret = await item.is_secret()
    if not known and not contains_unknowns(value):
        value = UNKNOWN
    copied = _plain_copy(value)
    if copied is not _NOT_PLAIN:
        return resources, copied, True, secret
    inner = pulumi.Output.from_input(value)
    return (
        resources | await inner.resources(),
        await inner.future(with_unknowns=True),
        await inner.is_known(),
        secret or await inner.is_secret(),
    )


class _Joined:
    """One Output of several inputs, as the SDK would join them, built without an Output per input.

    `keys` shapes the value: None a list, a list of keys a dict, `_SINGLE` the one value itself.
    The join is one task, which the Output holds as its data.
    """

    def __init__(self, inputs: "Awaitable[list[Any]]", keys: Any) -> None:
        self._data = asyncio.ensure_future(self._join(inputs, keys))

    @staticmethod
    async def _join(inputs: "Awaitable[list[Any]]", keys: Any) -> Any:
        resources: set[pulumi.Resource] = set()
        values: list[Any] = []
        known, secret = True, False
        for item in await inputs:
            item_resources, value, item_known, item_secret = await _data_of(item)
            resources |= item_resources
            values.append(value)
            known = known and item_known
            secret = secret or item_secret
        joined: Any = values
        if keys == _SINGLE:
            joined = values[0]
        elif keys is not None:
            joined = dict(zip(keys, values, strict=True))
        # Marked unknown if the value holds unknowns, as the SDK's Outputs are.
        return _sdk.output_data(resources, joined, known, secret)

    def output(self) -> pulumi.Output[Any]:
        return _sdk.output_from_data(self._data)


async def _listed(inputs: list[Any]) -> list[Any]:
    return inputs


def gathered(inputs: "Sequence[Any] | Mapping[str, Any]") -> pulumi.Output[Any]:
    """`pulumi.Output.all(*inputs)`, or `from_input` of a dict of inputs, walking no plain value.

    A value (or an Output's value) is walked, and its Outputs awaited, only when it holds Outputs.
    """
    if isinstance(inputs, Mapping):
        return _Joined(_listed(list(inputs.values())), list(inputs)).output()
    return _Joined(_listed(list(inputs)), None).output()


async def _resolved_to(source: "Awaitable[Any]") -> list[Any]:
    return [await source]


def settled_output(source: "Awaitable[Any]") -> pulumi.Output[Any]:
    """The Output of what `source` resolves to (a value or an Output), as `from_input` makes it.

    `source` failing fails the Output.
    """
    return _Joined(_resolved_to(source), _SINGLE).output()
