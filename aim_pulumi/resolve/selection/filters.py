"""The selector filters of behaviour §4.2-4.3: the effective selector, each filter, and the type floor.

A candidate is dropped by the first filter it fails, and that filter's name is what an explanation
reports, so the order of the checks in `SelectorFilter.first_failing` is part of the behaviour.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from aim_pulumi.resolve.scalars import text
from aim_pulumi.resolve.selection.candidate import TYPE_RANK, ProfileEntry

# The floor compares the same type ranks the ranking uses.
FLOOR_RANK: Mapping[str, int] = TYPE_RANK
FLOOR_ANY = "any"
IMPLICIT_FLOOR = "optimized"

_EXACT_FIELDS = ("aimId", "modelId", "profileId", "engine", "metric", "precision", "type")
_CASELESS_FIELDS = ("acceleratorModel", "acceleratorVendor", "acceleratorType")


# --------------------------------------------------------------------------------------------------
# Effective selector and filters


@dataclass(frozen=True)
class EffectiveSelector:
    """The selector after §4.2: role forced to deployable, modelRef from `spec.model.name`, a floor."""

    fields: Mapping[str, Any]
    model_name: str
    model_scope: str
    floor: str
    floor_implicit: bool


def effective_selector(selector: Mapping[str, Any] | None, model_name: str | None) -> EffectiveSelector:
    fields = dict(selector or {})
    fields["role"] = "deployable"
    model_ref = dict(fields.get("modelRef") or {})
    if not text(model_ref.get("name")) and model_name:
        model_ref = {"name": model_name, "scope": "Auto"}
    if model_ref:
        fields["modelRef"] = model_ref
    floor = text(fields.get("minimumType"))
    return EffectiveSelector(
        fields=fields,
        model_name=text(model_ref.get("name")),
        model_scope=text(model_ref.get("scope")) or "Auto",
        floor=floor or IMPLICIT_FLOOR,
        floor_implicit=not floor,
    )


def json_equal(a: Any, b: Any) -> bool:
    """JSON value equality: `true` is not `1`, `1` equals `1.0`, objects and arrays compare deeply."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and bool(a == b)


def partitioning_matches(wanted: str, have: str) -> bool:
    """`acceleratorPartitioningMode` selector semantics of §4.3 (case-insensitive)."""
    want, got = wanted.strip().lower(), have.strip().lower()
    if want == "unpartitioned":
        return got in ("", "unpartitioned")
    if want == "partitioned":
        return got not in ("", "unpartitioned")
    if "-" in want:
        return got == want
    return got == want or got.startswith(want + "-")


class SelectorFilter:
    """The §4.3 filters (floor excluded) of one effective selector, prepared for many profiles.

    Only the selector fields that are set are kept, so that testing a profile costs a comparison per
    field the user actually constrained.
    """

    def __init__(self, selector: EffectiveSelector, namespace: str) -> None:
        fields = selector.fields
        self.namespace = namespace
        self.model_scope = selector.model_scope
        self.model_name = selector.model_name
        self.origin = text(fields.get("origin"))
        self.exact = [(k, text(fields.get(k))) for k in _EXACT_FIELDS if text(fields.get(k))]
        self.caseless = [(k, text(fields.get(k)).lower()) for k in _CASELESS_FIELDS if text(fields.get(k))]
        count = fields.get("acceleratorCount")
        self.count = count if isinstance(count, int) and not isinstance(count, bool) and count > 0 else None
        self.mode = text(fields.get("acceleratorPartitioningMode"))
        args = fields.get("engineArgs")
        self.engine_args: Mapping[str, Any] = args if isinstance(args, Mapping) else {}

    def first_failing(self, entry: ProfileEntry) -> str | None:
        if entry.scope == "Namespace" and entry.namespace != self.namespace:
            return "scope"
        if self.model_scope == "Namespace" and (
            entry.scope != "Namespace" or entry.source_model_scope != "namespace"
        ):
            return "scope"
        if self.model_scope == "Cluster" and (
            entry.scope != "Cluster" or entry.source_model_scope != "cluster"
        ):
            return "scope"
        if entry.role == "base":
            return "role"
        if entry.overlay:
            return "overlay"
        if entry.spec.manual_selection_only:
            # The publisher keeps this profile for services that name it (`spec.profile.name`).
            return "manualSelectionOnly"
        if self.model_name and entry.source_model != self.model_name:
            return "modelRef.name"
        if self.origin and entry.origin != self.origin:
            return "origin"
        texts = entry.texts
        for key, wanted in self.exact:
            if texts[key] != wanted:
                return key
        for key, wanted in self.caseless:
            if texts[key].lower() != wanted:
                return key
        if self.count is not None and entry.spec.accelerator_count != self.count:
            return "acceleratorCount"
        if self.mode and not partitioning_matches(self.mode, texts["acceleratorPartitioningMode"]):
            return "acceleratorPartitioningMode"
        if self.engine_args:
            have: Mapping[str, Any] = entry.spec.engine_args
            for key, value in self.engine_args.items():
                if key not in have or not json_equal(have[key], value):
                    return "engineArgs"
        return None


def first_failing_filter(entry: ProfileEntry, selector: EffectiveSelector, namespace: str) -> str | None:
    """The first §4.3 filter (floor excluded) that `entry` fails for a service in `namespace`."""
    return SelectorFilter(selector, namespace).first_failing(entry)


def passes_floor(entry: ProfileEntry, floor: str) -> bool:
    return floor == FLOOR_ANY or entry.type_rank <= FLOOR_RANK.get(floor, FLOOR_RANK[IMPLICIT_FLOOR])
