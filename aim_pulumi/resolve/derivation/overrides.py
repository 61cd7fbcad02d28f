"""A set's overrides written over a source profile's spec (upstream `ApplyProfileCopyOverrides`).

Identity first (`aimId`, `modelId`, `profileId` replace the source's when set), then new weights:
`modelSources` replace the source's and, unless `modelId` was given, the derived profile's model
id becomes the first source's. Accelerator fields replace when set. Container env merges by name
(an override replaces the entry of its name in place, a new name is appended), engine env by key,
and engine arguments shallow-merge (an override replaces a top-level key, nested objects are not
merged). Everything works on camelCase manifest dicts; the input is never modified.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from aim_pulumi.resolve.derivation.images import ImageDecision, derived_image
from aim_pulumi.resolve.derivation.sources import is_deployable_spec
from aim_pulumi.resolve.scalars import text

_IDENTITY = ("aimId", "modelId", "profileId")
_REPLACED_WHEN_SET = ("acceleratorModel", "acceleratorVendor", "acceleratorPartitioningMode")


def merge_container_env(
    base: Sequence[Mapping[str, Any]], overrides: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """Env vars by name: an override takes the place of the base entry of its name, or is appended."""
    result = [copy.deepcopy(dict(item)) for item in base]
    index = {text(item.get("name")): position for position, item in enumerate(result)}
    for item in overrides:
        name = text(item.get("name"))
        if name in index:
            result[index[name]] = copy.deepcopy(dict(item))
        else:
            index[name] = len(result)
            result.append(copy.deepcopy(dict(item)))
    return result


def merge_engine_args(base: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """A shallow merge: each top-level key of `overrides` replaces the base's."""
    merged = copy.deepcopy(dict(base))
    merged.update(copy.deepcopy(dict(overrides)))
    return merged


def apply_overrides(
    source_spec: Mapping[str, Any], overrides: Mapping[str, Any], image_override: str, base_image: str
) -> tuple[dict[str, Any], ImageDecision]:
    """The derived spec and its image decision.

    `overrides` is the set's `overrides` as written (present keys only); `image_override` is the
    set's `spec.image`, which `overrides.image` beats.
    """
    result = copy.deepcopy(dict(source_spec))
    resolved_override = text(overrides.get("image")) or image_override
    weights_changed = bool(overrides.get("modelSources"))
    decision = derived_image(
        resolved_override,
        base_image,
        text(source_spec.get("image")),
        source_deployable=is_deployable_spec(source_spec),
        weights_changed=weights_changed,
    )
    result["image"] = decision.image
    for key in _IDENTITY:
        if text(overrides.get(key)):
            result[key] = overrides[key]
    if "modelSources" in overrides:
        sources = copy.deepcopy(list(overrides.get("modelSources") or []))
        if sources:
            result["modelSources"] = sources
        else:
            result.pop("modelSources", None)  # an empty list written clears them, as in Go
        first = text(sources[0].get("modelId")) if sources else ""
        if not text(overrides.get("modelId")) and first:
            result["modelId"] = first
    for key in _REPLACED_WHEN_SET:
        if text(overrides.get(key)):
            result[key] = overrides[key]
    if overrides.get("acceleratorCount") is not None:
        result["acceleratorCount"] = overrides["acceleratorCount"]
    env = merge_container_env(result.get("containerEnv") or [], overrides.get("containerEnv") or [])
    _set_or_drop(result, "containerEnv", env)
    engine_env = {**(result.get("engineEnv") or {}), **(overrides.get("engineEnv") or {})}
    _set_or_drop(result, "engineEnv", engine_env)
    if overrides.get("engineArgs") is not None:
        result["engineArgs"] = merge_engine_args(result.get("engineArgs") or {}, overrides["engineArgs"])
    return result, decision


def _set_or_drop(spec: dict[str, Any], key: str, value: list[Any] | dict[str, Any]) -> None:
    if value:
        spec[key] = value
    else:
        spec.pop(key, None)
