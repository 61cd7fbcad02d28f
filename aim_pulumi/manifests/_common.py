"""Small shared pieces of every builder: Pulumi's annotations and plain deterministic copies."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from aim_pulumi.resolve.objects import PATCH_FORCE as PATCH_FORCE  # one definition, read by adoption too
from aim_pulumi.resolve.objects import STACK_FIELD_MANAGER_PREFIX

SKIP_AWAIT = "pulumi.com/skipAwait"
WAIT_FOR = "pulumi.com/waitFor"
TIMEOUT_SECONDS = "pulumi.com/timeoutSeconds"
PATCH_FIELD_MANAGER = "pulumi.com/patchFieldManager"
"""The server-side apply field manager pulumi-kubernetes applies an object under (else a random
`pulumi-kubernetes-<hex>` per object, which names no stack)."""
FIELD_MANAGER_MAX_LENGTH = 128
"""The API server refuses a longer `fieldManager` (apimachinery's `ValidateFieldManager`)."""


def stack_field_manager(project: str, stack: str) -> str:
    """`aim-pulumi-<project>-<stack>`: the field manager of a stack's objects that other stacks co-own.

    A retained Shared cache outlives the stack that applied it, and its `managedFields` then list
    the stack's manager: under this name whoever reads them knows which stack it was (and can
    release its share, docs/cluster.md). The same project and stack always give the same name; a
    name past the API server's 128 characters is cut and ends in a hash of the whole, so two long
    names that differ only at their end stay two managers.
    """
    name = f"{STACK_FIELD_MANAGER_PREFIX}{project}-{stack}"
    if len(name) <= FIELD_MANAGER_MAX_LENGTH:
        return name
    digest = hashlib.sha256(name.encode()).hexdigest()[:10]
    return f"{name[: FIELD_MANAGER_MAX_LENGTH - len(digest) - 1]}-{digest}"


def with_field_manager(manifest: Mapping[str, Any], manager: str) -> dict[str, Any]:
    """A copy of `manifest` that pulumi-kubernetes applies under `manager` (its annotations sorted)."""
    out = dict(manifest)
    meta = dict(out.get("metadata") or {})
    meta["annotations"] = sorted_map({**(meta.get("annotations") or {}), PATCH_FIELD_MANAGER: manager})
    out["metadata"] = meta
    return out


def plain(value: Any) -> Any:
    """Deep copy into dicts and lists so a manifest never aliases (or freezes) a plan's data."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    return value


def sorted_map(values: Mapping[str, Any]) -> dict[str, Any]:
    """Labels and annotations have no order; sorting keeps identical runs byte-identical."""
    return {str(k): plain(values[k]) for k in sorted(values, key=str)}


def metadata(
    name: str,
    namespace: str,
    labels: Mapping[str, str],
    annotations: Mapping[str, str] | None = None,
    *,
    skip_await: bool = False,
) -> dict[str, Any]:
    """Object metadata; `skip_await` tells Pulumi not to wait for the object to become ready."""
    notes = dict(annotations or {})
    notes[PATCH_FORCE] = "true"
    if skip_await:
        notes[SKIP_AWAIT] = "true"
    meta: dict[str, Any] = {"name": name, "namespace": namespace}
    if labels:
        meta["labels"] = sorted_map(labels)
    if notes:
        meta["annotations"] = sorted_map(notes)
    return meta
