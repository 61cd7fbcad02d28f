"""Runtime-config lookup (behaviour §3): which object a consumer names and the spec it ends up with.

A missing `default` is not an error (a fresh cluster has none): `resolve_runtime_config` returns
None and the caller records `RuntimeConfigReady=True/DefaultConfigNotFound` (see
`runtime_config_condition`). An explicitly named config that exists in neither scope is a hard
error, because the user asked for settings that are not there.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from aim_pulumi.api import to_manifest
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resolve.runtime_config.merge import merge_layers_with_provenance
from aim_pulumi.resolve.types import Condition, ObjectRef, ResolvedRuntimeConfig, RuntimeConfigScope

if TYPE_CHECKING:
    from aim_pulumi.api import AIMObject

DEFAULT_NAME = "default"


class RuntimeConfigSource(Protocol):
    """What the lookup reads of a catalog: the two objects a name can mean, either may be None.

    A protocol rather than the catalog itself, because the catalog resolves runtime configs too
    (for the profiles it generates) and sits above this room.
    """

    def runtime_config_objects(
        self, namespace: str, name: str
    ) -> tuple[AIMObject | None, AIMObject | None]: ...


def _spec(obj: AIMObject) -> dict[str, Any]:
    spec = to_manifest(obj).get("spec")
    return dict(spec) if isinstance(spec, Mapping) else {}


def _ref(obj: AIMObject, namespace: str) -> ObjectRef:
    if obj.kind == "AIMRuntimeConfig":
        return ObjectRef(obj.kind, obj.metadata.name, namespace, "Namespace", obj.effective_uid)
    return ObjectRef(obj.kind, obj.metadata.name, "", "Cluster", obj.effective_uid)


def resolve_runtime_config(
    catalog: RuntimeConfigSource, namespace: str, name: str | None = None
) -> ResolvedRuntimeConfig | None:
    """Resolve `name` (absent or "" = `default`) for a consumer in `namespace` per the §3 table.

    Returns None only for a missing `default` (DefaultConfigNotFound); raises
    `AIMResolutionError("spec.runtimeConfigName", "ReferenceNotFound")` for any other missing name.
    """
    wanted = name or DEFAULT_NAME
    ns_obj, cluster_obj = catalog.runtime_config_objects(namespace, wanted)
    if ns_obj is None and cluster_obj is None:
        if wanted == DEFAULT_NAME:
            return None
        raise AIMResolutionError(
            "spec.runtimeConfigName",
            "ReferenceNotFound",
            f'runtime config "{wanted}" not found: neither an AIMRuntimeConfig in namespace '
            f'"{namespace}" nor an AIMClusterRuntimeConfig has that name',
        )
    ns_spec = _spec(ns_obj) if ns_obj is not None else None
    cluster_spec = _spec(cluster_obj) if cluster_obj is not None else None
    merged, contributions = merge_layers_with_provenance([("Cluster", cluster_spec), ("Namespace", ns_spec)])
    chosen = ns_obj if ns_obj is not None else cluster_obj
    assert chosen is not None
    scopes = []
    if cluster_spec is not None:
        scopes.append(RuntimeConfigScope.of(f"AIMClusterRuntimeConfig {wanted}", cluster_spec))
    if ns_spec is not None:
        scopes.append(RuntimeConfigScope.of(f"AIMRuntimeConfig {namespace}/{wanted}", ns_spec))
    return ResolvedRuntimeConfig(
        ref=_ref(chosen, namespace), spec=merged, contributions=contributions, scopes=tuple(scopes)
    )


def runtime_config_condition(result: ResolvedRuntimeConfig | None) -> Condition:
    """The `RuntimeConfigReady` condition of a consumer, given its resolution result."""
    if result is None:
        return Condition(
            "RuntimeConfigReady",
            "True",
            "DefaultConfigNotFound",
            'no runtime config named "default" exists; continuing without runtime-config overrides',
        )
    ref = result.ref
    where = f"{ref.namespace}/{ref.name}" if ref.namespace else ref.name
    return Condition("RuntimeConfigReady", "True", "RuntimeConfigResolved", f"using {ref.kind} {where}")


UNUSED_RUNTIME_CONFIG = "RuntimeConfigUnused"


def unused_runtime_configs(
    configs: Iterable[tuple[str, str]], used_namespaces: Iterable[str]
) -> list[tuple[str, str, str]]:
    """(namespace, name, message) of each namespaced runtime config in a namespace nothing else uses.

    A runtime config applies only to the services, models and profiles of its own namespace, so one
    whose namespace holds nothing else is read by nothing: most often a misspelt namespace, whose
    services then silently take the cluster config. The message names the closest namespace in use.
    """
    used = sorted(set(used_namespaces))
    out: list[tuple[str, str, str]] = []
    for namespace, name in sorted(set(configs)):
        if namespace in used:
            continue
        close = difflib.get_close_matches(namespace, used, n=1, cutoff=0.6)
        hint = f' (did you mean namespace "{close[0]}"?)' if close else ""
        message = (
            f"{UNUSED_RUNTIME_CONFIG}: AIMRuntimeConfig {namespace}/{name} is used by nothing: no service, "
            f'model or profile of the program lives in namespace "{namespace}"{hint}, and a namespaced '
            "runtime config applies only to its own namespace (the others take the cluster config); "
            "move it to the namespace of the objects it is meant for"
        )
        out.append((namespace, name, message))
    return out
