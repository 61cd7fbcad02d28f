"""Env values known only at deploy time move into a Secret the workload references.

A Pulumi secret inside a container's env makes Pulumi hold the whole enclosing property (the
InferenceService `spec`, the Job `spec`) as one secret, so the object that matters most in a
review shows as `[secret]`. Kubernetes users keep such values in a Secret and reference them, and
so does this: each env entry whose value the caller marks (`holds_output`) becomes a
`valueFrom.secretKeyRef` to a Secret beside the workload, whose `stringData` holds the value
under the env name. The workload is then fully reviewable and never carries the value; plain
values and existing `valueFrom` entries are left as they are. Pure: the caller decides what an
Output looks like.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from aim_pulumi.manifests._common import PATCH_FORCE

__all__ = [
    "ENV_SECRET_DIGEST",
    "ENV_SECRET_SUFFIX",
    "env_secret_digest",
    "env_secret_name",
    "split_env_secrets",
]

ENV_SECRET_SUFFIX = "-env"
ENV_SECRET_DIGEST = "aim.eai.amd.com/env-secret-sha256"
"""The InferenceService annotation holding `env_secret_digest` of its env Secret.

A container reads a Secret's values into its env when it starts, so a rotated value (a new token in
the stack's config) reached the model only at its next restart. KServe copies an InferenceService's
annotations into the predictor's pod template: a digest of the Secret's content there makes a
rotation roll the predictor, and only a rotation. The digest says whether the content changed, not
what it is."""
# Pod templates of the kinds whose env can carry a deploy-time value.
_POD_SPECS: Mapping[str, tuple[str, ...]] = {
    "InferenceService": ("spec", "predictor"),
    "Job": ("spec", "template", "spec"),
}
_CONTAINER_LISTS = ("initContainers", "containers")


def env_secret_digest(string_data: Mapping[str, str]) -> str:
    """SHA-256 of a Secret's `stringData` (keys sorted): the same values always give the same digest."""
    text = json.dumps({str(k): str(v) for k, v in string_data.items()}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def env_secret_name(workload_name: str) -> str:
    """`<workload>-env`: the Secret sits beside its workload under the workload's own name."""
    return f"{workload_name}{ENV_SECRET_SUFFIX}"


def _containers(manifest: dict[str, Any]) -> Iterator[dict[str, Any]]:
    path = _POD_SPECS.get(str(manifest.get("kind")))
    if path is None:
        return
    node: Any = manifest
    for key in path:
        node = node.get(key) if isinstance(node, dict) else None
    if not isinstance(node, dict):
        return
    for key in _CONTAINER_LISTS:
        for container in node.get(key) or []:
            if isinstance(container, dict):
                yield container


def _marks_any(manifest: dict[str, Any], holds_output: Callable[[str], bool]) -> bool:
    return any(
        isinstance(entry, dict) and isinstance(entry.get("value"), str) and holds_output(entry["value"])
        for container in _containers(manifest)
        for entry in container.get("env") or []
    )


def split_env_secrets(
    manifest: Mapping[str, Any], holds_output: Callable[[str], bool]
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """(the workload with marked env values as secretKeyRefs, the Secret holding them or None).

    The Secret key is the env name; when two containers set one name to different values the
    second is keyed `<container>.<name>`. The Secret takes the workload's namespace and labels.
    Only a workload with a marked value is copied (deeply, and then changed); otherwise the result
    shares its parts with `manifest`, which is most workloads, each a sizeable pod template.
    """
    if not _marks_any(dict(manifest), holds_output):
        return dict(manifest), None
    out = copy.deepcopy(dict(manifest))
    metadata = out.get("metadata") or {}
    secret_name = env_secret_name(str(metadata.get("name")))
    data: dict[str, str] = {}
    for container in _containers(out):
        for entry in container.get("env") or []:
            value = entry.get("value") if isinstance(entry, dict) else None
            if not isinstance(value, str) or not holds_output(value):
                continue
            key = str(entry["name"])
            if key in data and data[key] != value:
                key = f"{container.get('name')}.{key}"
            data[key] = value
            entry.pop("value")
            entry["valueFrom"] = {"secretKeyRef": {"name": secret_name, "key": key}}
    if not data:
        return out, None
    secret_metadata: dict[str, Any] = {"name": secret_name}
    if metadata.get("namespace"):
        secret_metadata["namespace"] = metadata["namespace"]
    if metadata.get("labels"):
        secret_metadata["labels"] = dict(metadata["labels"])
    secret_metadata["annotations"] = {PATCH_FORCE: "true"}
    secret = {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": secret_metadata,
        "type": "Opaque",
        "stringData": dict(sorted(data.items())),
    }
    return out, secret
