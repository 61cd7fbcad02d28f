"""The plan as documents: the `--json` plan document, the Kubernetes manifests, and their schema check.

Everything here is a plain function of a recording (`recording.PlanRecording`): `aim-pulumi plan`
writes what it returns (`--json`, `--yaml`) and prints what `validation_problems` finds, `--diff`
starts from what `previous_state` reads back, and `import` matches the live objects with
`planned_stack`. Secrets are written as `[secret]` unless asked for and unknown values as
`[unknown]`, by the conventions of `documents.py`; resources come in the tree's order (`tree.py`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import yaml
from pulumi.runtime import rpc

from aim_pulumi.offline.documents import UNKNOWN, as_mapping, mark_unknowns, redact_secrets
from aim_pulumi.offline.recording import plain
from aim_pulumi.offline.tree import KUBERNETES_PREFIX, parents, tree_order

if TYPE_CHECKING:
    from aim_pulumi.adopt.matching import PlannedStack
    from aim_pulumi.offline.recording import PlanRecording, RecordedResource

__all__ = [
    "kubernetes_manifests",
    "manifests_yaml",
    "plan_document",
    "planned_stack",
    "previous_state",
    "unvalidated_manifests",
    "validation_problems",
]


DYNAMIC_PREFIX = "pulumi-python:dynamic"

PROVIDER_INPUT = "__provider"


def _reveal(value: Any, show_secrets: bool) -> Any:
    """Secrets as `[secret]` (what `pulumi preview` shows), or their plaintext when asked for.

    Values not known before `pulumi up` (a StackReference output, an id) are `[unknown]` either way.
    """
    return mark_unknowns(plain(value)) if show_secrets else redact_secrets(value)


_SECRET_TYPE = "kubernetes:core/v1:Secret"

_SECRET_DATA = ("data", "stringData")


def _secret_per_key(inputs: Mapping[str, Any]) -> dict[str, Any]:
    """A Secret's data held as one Pulumi secret, as one secret per key: the plan shows its keys."""
    out = dict(inputs)
    for field_name in _SECRET_DATA:
        value: Any = out.get(field_name)
        if rpc.is_rpc_secret(value) and isinstance(value["value"], Mapping):
            out[field_name] = {
                key: item if rpc.is_rpc_secret(item) else {**value, "value": item}
                for key, item in value["value"].items()
            }
    return out


def _inputs_for_document(r: RecordedResource, show_secrets: bool) -> dict[str, Any]:
    raw = {k: v for k, v in r.inputs.items() if k != PROVIDER_INPUT}
    if r.type == _SECRET_TYPE:
        raw = _secret_per_key(raw)
    inputs = _reveal(raw, show_secrets)
    return _ordered_manifest(inputs) if r.type.startswith(KUBERNETES_PREFIX) else dict(inputs)


_LEADING_KEYS = ("apiVersion", "kind", "metadata")


def _ordered_manifest(manifest: Mapping[str, Any]) -> dict[str, Any]:
    """Kubernetes' customary top-level order (`apiVersion`, `kind`, `metadata`), the rest as recorded."""
    ordered = {k: manifest[k] for k in _LEADING_KEYS if k in manifest}
    ordered.update({k: v for k, v in manifest.items() if k not in _LEADING_KEYS})
    return ordered


def _options(r: RecordedResource) -> dict[str, Any]:
    """The resource options the engine was given, in pulumi's camelCase names."""
    return {
        "protect": r.protect,
        "retainOnDelete": r.retain_on_delete,
        "deleteBeforeReplace": r.delete_before_replace,
        "ignoreChanges": list(r.ignore_changes),
        "replaceOnChanges": list(r.replace_on_changes),
        "customTimeouts": dict(r.custom_timeouts),
        "providers": dict(r.providers),
    }


def plan_document(recording: PlanRecording, *, show_secrets: bool = False) -> dict[str, Any]:
    """The machine-readable plan (`--json`): every resource as the engine saw it, and the stack outputs.

    Each resource has its URN, parent (Pulumi name and URN), provider reference, `dependsOn`
    URNs, options, inputs and (components) registered outputs; `outputs` at the top are the
    stack's exports, what `pulumi stack output` would print. Secrets are written as `[secret]`
    unless `show_secrets`, unknown values as `[unknown]`; the dynamic providers' pickled code is
    left out.
    """
    by_urn, _ = parents(recording)
    resources = []
    for _, r in tree_order(recording):
        parent = by_urn.get(r.parent)
        entry: dict[str, Any] = {
            "type": r.type,
            "name": r.name,
            "urn": r.urn,
            "custom": r.custom,
            "parent": parent.name if parent is not None else None,
            "parentUrn": parent.urn if parent is not None else None,
            "provider": r.provider or None,
            "dependsOn": sorted(r.dependencies),
            "options": _options(r),
            "inputs": _inputs_for_document(r, show_secrets),
        }
        registered = recording.outputs.get(r.urn)
        if registered:
            entry["outputs"] = _reveal(registered, show_secrets)
        if r.type.startswith(DYNAMIC_PREFIX):
            # What `check` decided (the sticky binding): `--diff` against this plan starts from it,
            # as `pulumi preview` starts from the state `pulumi up` left.
            state = {k: v for k, v in r.outputs.items() if k != PROVIDER_INPUT}
            entry["state"] = _reveal(state, show_secrets)
        resources.append(entry)
    return {
        "project": recording.project,
        "stack": recording.stack,
        "resources": resources,
        "outputs": _reveal(recording.stack_outputs(), show_secrets),
    }


def planned_stack(recording: PlanRecording) -> PlannedStack:
    """What `import` matches with the live objects: every resource in tree order, secrets in plaintext,
    and the resolved profile each AIMStack reports for its services."""
    from aim_pulumi.adopt.matching import PlannedResource, PlannedStack

    by_urn, _ = parents(recording)
    resources = []
    profiles: dict[str, Mapping[str, Any]] = {}
    for _, r in tree_order(recording):
        parent = by_urn.get(r.parent)
        manifest = _inputs_for_document(r, show_secrets=True)
        resources.append(
            PlannedResource(
                r.type, r.name, parent.name if parent else None, r.custom, manifest, tuple(r.ignore_changes)
            )
        )
        if r.type == "aim:index:AIMStack":
            services = as_mapping(_reveal(recording.outputs.get(r.urn) or {}, True).get("services"))
            for key, status in services.items():
                if isinstance(status, Mapping) and isinstance(status.get("resolvedProfile"), Mapping):
                    profiles[str(key)] = status["resolvedProfile"]
    return PlannedStack(tuple(resources), profiles)


def previous_state(plan: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The dynamic resources' state recorded in a `--json` plan, by name, for `execute(previous=...)`."""
    return {
        str(r["name"]): dict(r["state"])
        for r in plan.get("resources") or []
        if isinstance(r, Mapping) and isinstance(r.get("state"), Mapping)
    }


# Helm's install order (what `helm install` and most tools apply in): what others live in or refer to
# first, so `kubectl apply -f plan.yaml` works on a fresh cluster. Custom resources come last.
_APPLY_ORDER = (
    "Namespace", "NetworkPolicy", "ResourceQuota", "LimitRange", "PodDisruptionBudget", "ServiceAccount",
    "Secret", "ConfigMap", "StorageClass", "PersistentVolume", "PersistentVolumeClaim",
    "CustomResourceDefinition", "ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding", "Service",
    "DaemonSet", "Pod", "ReplicationController", "ReplicaSet", "Deployment", "HorizontalPodAutoscaler",
    "StatefulSet", "Job", "CronJob", "IngressClass", "Ingress", "APIService",
)  # fmt: skip
_APPLY_RANK = {kind: rank for rank, kind in enumerate(_APPLY_ORDER)}


def kubernetes_manifests(recording: PlanRecording, *, show_secrets: bool = False) -> list[dict[str, Any]]:
    """Every Kubernetes object of the plan in the order it can be applied: by kind as Helm installs
    them (a Namespace before what is in it), then kind, namespace and name.

    A field Pulumi holds as a secret is written as `[secret]` unless `show_secrets`.
    """
    manifests = [
        _ordered_manifest(mark_unknowns(r.auto_named(_inputs_for_document(r, show_secrets))))
        for r in recording.kubernetes()
    ]

    def key(m: Mapping[str, Any]) -> tuple[int, str, str, str]:
        meta = as_mapping(m.get("metadata"))
        kind = str(m.get("kind", ""))
        rank = _APPLY_RANK.get(kind, len(_APPLY_ORDER))
        return (rank, kind, str(meta.get("namespace") or ""), str(meta.get("name") or ""))

    return sorted(manifests, key=key)


def _canonical_manifest(manifest: Mapping[str, Any]) -> dict[str, Any]:
    """Kubernetes' customary top-level order, every other map sorted.

    The engine hands inputs back as protobuf structs whose key order follows the interpreter's
    hash seed; sorting makes the written file byte-identical between identical runs.
    """
    nested: dict[str, Any] = json.loads(json.dumps(manifest), object_hook=lambda d: dict(sorted(d.items())))
    ordered = {k: nested[k] for k in _LEADING_KEYS if k in nested}
    ordered.update((k, v) for k, v in nested.items() if k not in _LEADING_KEYS)
    return ordered


class _ManifestDumper(yaml.SafeDumper):
    """Multi-line strings (profile files in ConfigMaps) as literal blocks, as a person writes them."""


def _represent_text(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    style = "|" if "\n" in text else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_ManifestDumper.add_representer(str, _represent_text)


def manifests_yaml(recording: PlanRecording, *, show_secrets: bool = False) -> str:
    """The `--yaml` file: `kubernetes_manifests` as one multi-document stream, byte-identical between runs."""
    documents = [_canonical_manifest(m) for m in kubernetes_manifests(recording, show_secrets=show_secrets)]
    return yaml.dump_all(documents, Dumper=_ManifestDumper, sort_keys=False, default_flow_style=False)


def _has_schema(manifest: Mapping[str, Any]) -> bool:
    from aim_pulumi.schemas.registry import schema_document

    return schema_document(str(manifest.get("apiVersion")), str(manifest.get("kind"))) is not None


def validation_problems(recording: PlanRecording) -> list[str]:
    """One line per schema violation: `Kind/namespace/name (pulumi name): path: message`.

    Kinds the project vendors no schema for (a foreign CRD) are not checked: `unvalidated_manifests`.
    """
    from aim_pulumi.manifests.child_admission import shown_detail
    from aim_pulumi.schemas import manifest_identity, validate_manifest

    problems: list[str] = []
    for r in recording.kubernetes():
        manifest = _ordered_manifest(mark_unknowns(r.manifest))
        if not _has_schema(manifest):
            continue
        for error in validate_manifest(manifest):
            # A value known only after `pulumi up` cannot be judged now, as in `pulumi preview`.
            if UNKNOWN not in error:
                field, _, detail = error.partition(": ")
                shown = f"{field}: {shown_detail(field, detail)}" if detail else error
                problems.append(f"{manifest_identity(manifest)} ({r.name}): {shown}")
    return problems


def unvalidated_manifests(recording: PlanRecording) -> list[dict[str, Any]]:
    """The Kubernetes objects of the plan whose kind has no vendored schema, in plan order."""
    manifests = (_ordered_manifest(r.manifest) for r in recording.kubernetes())
    return [m for m in manifests if not _has_schema(m)]
