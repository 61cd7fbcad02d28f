"""The one-Output helpers agree with `Output.from_input` / `Output.all` on every value they can meet."""

from __future__ import annotations

import asyncio
from typing import Any

import pulumi
import pytest
from pulumi.output import UNKNOWN

from aim_pulumi.resources.outputs import gathered, output_of, settled_output


def _state(output: pulumi.Output[Any]) -> Any:
    async def read() -> tuple[Any, ...]:
        return (
            await output.future(with_unknowns=True),
            await output.is_known(),
            await output.is_secret(),
            await output.resources(),
        )

    return read()


_AFTERWARDS: list[asyncio.AbstractEventLoop] = []


def _run_async(main: Any) -> Any:
    """Run a coroutine function on a loop of its own; the thread keeps a current loop afterwards.

    The loop kept afterwards is one and the same across calls: a fresh one per call would be
    dropped unclosed by the next call and finalised whenever the collector gets to it, warning
    in whatever test then runs.
    """
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    try:
        return loop.run_until_complete(main())
    finally:
        loop.close()
        if not _AFTERWARDS or _AFTERWARDS[0].is_closed():
            _AFTERWARDS[:] = [asyncio.new_event_loop()]
        asyncio.set_event_loop(_AFTERWARDS[0])


def _run(make: Any) -> Any:
    async def main() -> Any:
        return await _state(make())

    return _run_async(main)


def _plain() -> Any:
    return {"a": [1, {"b": None, "c": (2, "x")}], "d": {}, "e": [], "f": True}


def _with_outputs() -> Any:
    return {
        "a": [1, pulumi.Output.secret("s")],
        "b": {"c": pulumi.Output.from_input({"d": pulumi.Output.from_input(3)})},
    }


def _with_unknown() -> Any:
    return {"a": [1, UNKNOWN]}


def _unknown_output() -> Any:
    return pulumi.Output(set(), _done(None), _done(False))


def _done(value: Any) -> asyncio.Future[Any]:
    future: asyncio.Future[Any] = asyncio.get_event_loop().create_future()
    future.set_result(value)
    return future


def _normal(state: Any) -> Any:
    value, known, secret, resources = state
    # An unknown value compares as unknown, whichever placeholder the SDK left in it.
    return (value if known else "<unknown>", known, secret, resources)


VALUES = {
    "plain": _plain,
    "outputs": _with_outputs,
    "unknown leaf": _with_unknown,
    "scalar": lambda: "text",
    "none": lambda: None,
    "output of plain": lambda: pulumi.Output.from_input(_plain()),
    "output of outputs": lambda: pulumi.Output.from_input(1).apply(lambda _: _with_outputs()),
    "secret output": lambda: pulumi.Output.secret({"k": [1]}),
    "unknown output": _unknown_output,
    "output of an unknown leaf": lambda: pulumi.Output.from_input(1).apply(lambda _: _with_unknown()),
    "gathered unknown leaf": lambda: gathered([1, _with_unknown()]),
}


@pytest.mark.parametrize("name", list(VALUES))
def test_output_of_is_from_input(name: str) -> None:
    make = VALUES[name]
    assert _normal(_run(lambda: output_of(make()))) == _normal(_run(lambda: pulumi.Output.from_input(make())))


@pytest.mark.parametrize("name", list(VALUES))
def test_settled_output_is_from_input_of_the_awaited_value(name: str) -> None:
    make = VALUES[name]

    def settled() -> pulumi.Output[Any]:
        future: asyncio.Future[Any] = asyncio.get_event_loop().create_future()
        output = settled_output(future)
        future.set_result(make())
        return output

    def sdk() -> pulumi.Output[Any]:
        future: asyncio.Future[Any] = asyncio.get_event_loop().create_future()
        output = pulumi.Output.from_input(future)
        future.set_result(make())
        return output

    assert _normal(_run(settled)) == _normal(_run(sdk))


def test_gathered_is_output_all_for_a_list_and_from_input_for_a_dict() -> None:
    def items() -> list[Any]:
        return [make() for make in VALUES.values()]

    assert _normal(_run(lambda: gathered(items()))) == _normal(_run(lambda: pulumi.Output.all(*items())))
    names = list(VALUES)

    def mapping() -> dict[str, Any]:
        return dict(zip(names, items(), strict=True))

    assert _normal(_run(lambda: gathered(mapping()))) == _normal(
        _run(lambda: pulumi.Output.from_input(mapping()))
    )
    assert _run(lambda: gathered({})) == ({}, True, False, set())
    assert _run(lambda: gathered([])) == ([], True, False, set())


def test_a_plain_value_becomes_one_known_output_and_a_copy() -> None:
    value = _plain()

    async def main() -> Any:
        tracked_before = len(pulumi.runtime.settings.SETTINGS.outputs)
        output = output_of(value)
        created = len(pulumi.runtime.settings.SETTINGS.outputs) - tracked_before
        return created, await output.future()

    created, seen = _run_async(main)
    assert created == 1
    assert seen == value and seen is not value and seen["a"] is not value["a"]
    assert isinstance(seen["a"][1]["c"], tuple)


def test_a_failed_source_fails_the_output_with_its_error() -> None:
    async def main() -> Any:
        future: asyncio.Future[Any] = asyncio.get_event_loop().create_future()
        output = settled_output(future)
        future.set_exception(ValueError("no plan"))
        with pytest.raises(ValueError, match="no plan"):
            await output.future()
        with pytest.raises(ValueError, match="no plan"):
            await output.is_known()

    _run_async(main)


def test_resources_of_nested_outputs_are_kept() -> None:
    class Res:
        pass

    marker: Any = Res()

    def make() -> Any:
        inner = pulumi.Output({marker}, _done({"x": 1}), _done(True))
        return {"a": inner, "b": [inner.apply(lambda v: v["x"])]}

    assert _run(lambda: output_of(make())) == ({"a": {"x": 1}, "b": [1]}, True, False, {marker})
    assert _run(lambda: gathered([make()])) == ([{"a": {"x": 1}, "b": [1]}], True, False, {marker})
