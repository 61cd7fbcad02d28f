"""Mutations of real child manifests: each one may break the manifest, or only look unusual."""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from emitted import Manifest, all_children
from hypothesis import strategies as st


def _places(node: Any, *, root: bool = True) -> Iterator[tuple[Any, Any]]:
    """(container, key) of every value inside a manifest but its apiVersion and kind."""
    if isinstance(node, dict):
        for key, item in node.items():
            if not (root and key in ("apiVersion", "kind")):
                yield node, key
            yield from _places(item, root=False)
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield node, index
            yield from _places(item, root=False)


ODD_VALUES = [
    True, False, 0, 1, -1, 70000, 1.0, 2.5, math.nan, math.inf, "", "x", "é" * 64, None, [], {}, ["a"],
    {"a": 1}, [1, True], ["a", "a"],
]  # fmt: skip
BAD_QUANTITIES = ["1e1.5", " 1Gi", "1Gi ", "lots", "+", "1.5.5", "0x10", "1GiB", "Infinity"]


class Text(str):
    """A str subclass: jsonschema treats it as a string, the predicate is unsure of it."""


class Frozen(Mapping[str, Any]):
    """A mapping that is not a dict: defaulting must turn it into one."""

    def __init__(self, items: Mapping[str, Any]) -> None:
        self._items = dict(items)

    def __getitem__(self, key: str) -> Any:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)


def _mutate(draw: Callable[[Any], Any], manifest: Manifest) -> None:
    places = list(_places(manifest))
    if not places:
        return
    container, key = draw(st.sampled_from(places))
    value = container[key]
    action = draw(
        st.sampled_from(
            [
                "delete",
                "odd",
                "unknown",
                "duplicate",
                "duplicate-short",
                "quantity",
                "long",
                "enum",
                "float",
                "exotic",
            ]
        )
    )
    if action == "delete":
        del container[key]
    elif action == "odd":
        container[key] = copy.deepcopy(draw(st.sampled_from(ODD_VALUES)))
    elif action == "unknown" and isinstance(value, dict):
        value[draw(st.sampled_from(["notAField", "Name", "spec"]))] = {"deeper": 1}
    elif action in ("duplicate", "duplicate-short") and isinstance(value, list) and value:
        item = copy.deepcopy(draw(st.sampled_from(value)))
        if action == "duplicate-short" and isinstance(item, dict) and item:
            del item[draw(st.sampled_from(sorted(item)))]  # may become equal only once defaulted
        value.append(item)
    elif action == "quantity":
        container[key] = draw(st.sampled_from(BAD_QUANTITIES))
    elif action == "long":
        container[key] = "a" * draw(st.sampled_from([63, 64, 253, 254, 300]))
    elif action == "enum" and isinstance(value, str):
        container[key] = draw(st.sampled_from([value.lower(), value.upper(), value + "x", "NotAnEnumValue"]))
    elif action == "float" and type(value) is int:
        container[key] = float(value)
    elif action == "exotic":
        container[key] = (
            Frozen(value)
            if isinstance(value, dict)
            else tuple(value)
            if isinstance(value, list)
            else Text(str(value))
        )
    else:
        container[key] = None


@st.composite
def mutated_children(draw: Callable[[Any], Any]) -> Manifest:
    manifest = copy.deepcopy(draw(st.sampled_from(all_children())))
    for _ in range(draw(st.integers(1, 3))):
        _mutate(draw, manifest)
    return manifest
