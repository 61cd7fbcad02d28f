"""Small shared pieces of every builder: Pulumi's annotations and plain deterministic copies."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aim_pulumi.resolve.objects import PATCH_FORCE as PATCH_FORCE  # one definition, read by adoption too

SKIP_AWAIT = "pulumi.com/skipAwait"
WAIT_FOR = "pulumi.com/waitFor"
TIMEOUT_SECONDS = "pulumi.com/timeoutSeconds"


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
