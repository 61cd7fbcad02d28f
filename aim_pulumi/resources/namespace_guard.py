"""A Namespace the stack declares never takes the retained Shared caches in it down with it.

A Shared cache's PVC and download Job are `retain_on_delete`: destroying the stack, or removing
every service that mounts it, leaves the weights in the cluster. A Namespace the same program
declares is not retained, so `pulumi destroy` deleted it after the cache, and the namespace
controller deleted the cache with it. Pulumi deletes a resource only after everything that
depends on it, and refuses to delete a protected resource at all, so the stack guards each such
Namespace with two resources:

- `<namespace resource>-cache-guard`, a small resource in state (a dynamic resource, like the
  sticky binding) whose `check` remembers every Shared cache the stack ever declared in the
  Namespace: removing the service that mounted a cache does not make it forgotten (the cache is
  still in the cluster), and `destroy` does not run the program.
- while it remembers any, the ConfigMap `aim-retained-caches` in that Namespace, listing them, which
  depends on the Namespace and is `protect`ed: `pulumi destroy` (or an `up` that removes the
  Namespace) stops at preview, before anything is deleted, naming it.

Then either `pulumi destroy --exclude-protected` keeps the Namespace and its caches (and deletes
everything else), or `aim:namespaceDeletion: allow` and a `pulumi up` lift the protection, after
which `destroy` deletes the Namespace and the weights with it, as asked.

The guard is declared for every Namespace resource an AIM component of the program waits for
(its namespace Output, `depends_on`, or a directory's Namespace object), whether it holds a cache
now or not, so that removing a service keeps the memory. A program of another language (through
the component provider) declares none yet.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pulumi
import pulumi_kubernetes as k8s
from pulumi.dynamic import CheckResult, CreateResult, DiffResult, ResourceProvider, UpdateResult
from pulumi.dynamic.dynamic import PROVIDER_KEY, serialize_provider
from pulumi.runtime import rpc

__all__ = [
    "GUARD_KEYS",
    "RETAINED_CACHES",
    "NamespaceGuard",
    "guard_namespaces",
    "namespaces_of",
    "note_namespaces",
    "remember_caches",
    "retained_caches_manifest",
]

GUARD_KEYS = ("namespace", "caches", "retained")
RETAINED_CACHES = "aim-retained-caches"
"""The protected ConfigMap's name, in the guarded Namespace."""


def remember_caches(olds: Mapping[str, Any], news: Mapping[str, Any]) -> dict[str, Any]:
    """The guard's `check`: the caches declared now in its Namespace, and every one declared before.

    `caches` are `namespace/pvc` of the Shared caches the services waiting for the Namespace mount;
    only those in the Namespace count (a service may wait for several). A namespace not known yet
    (a preview of a new auto-named Namespace) keeps what was remembered and counts every cache.
    """
    namespace = news.get("namespace")
    known = isinstance(namespace, str) and namespace != rpc.UNKNOWN
    caches = [str(c) for c in news.get("caches") or []]
    current = {c for c in caches if not known or c.partition("/")[0] == namespace}
    same = not known or olds.get("namespace") in (namespace, None)
    earlier = set(olds.get("retained") or []) if same else set()
    state = {k: v for k, v in news.items() if k != PROVIDER_KEY}
    state["retained"] = sorted(earlier | current)
    return state


class NamespaceGuardProvider(ResourceProvider):
    """The dynamic provider of `<namespace>-cache-guard`: all of its logic is `remember_caches`."""

    serialize_as_secret_always = False

    def check(self, _olds: dict[str, Any], news: dict[str, Any]) -> CheckResult:
        return CheckResult(remember_caches(_olds or {}, news), [])

    def diff(self, _id: str, _olds: dict[str, Any], _news: dict[str, Any]) -> DiffResult:
        changed = any(_olds.get(key) != _news.get(key) for key in GUARD_KEYS)
        return DiffResult(changes=changed, replaces=[], stables=[], delete_before_replace=False)

    def create(self, props: dict[str, Any]) -> CreateResult:
        return CreateResult(str(props.get("namespace") or "namespace"), outs=dict(props))

    def update(self, _id: str, _olds: dict[str, Any], _news: dict[str, Any]) -> UpdateResult:
        return UpdateResult(outs=dict(_news))


@functools.cache
def _serialized_provider() -> str:
    return str(serialize_provider(NamespaceGuardProvider()))


class NamespaceGuard(pulumi.dynamic.Resource, module="aim", name="NamespaceGuard"):
    """What the stack remembers of the Shared caches in one Namespace it declares."""

    retained: pulumi.Output[list[str]]

    def __init__(
        self,
        name: str,
        *,
        namespace: pulumi.Input[str],
        caches: Sequence[str],
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        props: dict[str, Any] = {"namespace": namespace, "caches": sorted(set(caches)), "retained": None}
        props[PROVIDER_KEY] = _serialized_provider()
        pulumi.CustomResource.__init__(self, f"pulumi-python:{self._resource_type_name}", name, props, opts)


def retained_caches_manifest(namespace: str, retained: Sequence[str]) -> dict[str, Any]:
    """The ConfigMap that stands for the retained caches of `namespace`: protected, it stops a delete."""
    names = [cache.partition("/")[2] for cache in retained]
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {
            "name": RETAINED_CACHES,
            "namespace": namespace,
            "labels": {"app.kubernetes.io/managed-by": "aim-pulumi"},
            "annotations": {"pulumi.com/patchForce": "true"},
        },
        "data": {
            "caches": "".join(f"{name}\n" for name in names),
            "README": (
                "The Shared caches listed in `caches` are retained when the stack is destroyed or their "
                "services removed; deleting this Namespace would delete them with it. This ConfigMap is "
                "protected in the stack that declares the Namespace: `pulumi destroy --exclude-protected` "
                "keeps the Namespace and the caches; `aim:namespaceDeletion: allow` and `pulumi up` lift "
                "the protection, and the next destroy deletes the Namespace and the weights with it.\n"
            ),
        },
    }


def namespaces_of(resources: Iterable[Any]) -> list[k8s.core.v1.Namespace]:
    """The pulumi-kubernetes Namespaces among `resources`, once each, in order."""
    found: dict[int, k8s.core.v1.Namespace] = {}
    for resource in resources:
        if isinstance(resource, k8s.core.v1.Namespace):
            found.setdefault(id(resource), resource)
    return list(found.values())


def note_namespaces(resources: Iterable[Any], caches: Iterable[str] = ()) -> None:
    """Record that an AIM object of the program waits for these resources, and mounts these caches.

    Each pulumi-kubernetes Namespace among them is guarded once the round registers its children.
    """
    from aim_pulumi.resources.registry import current_registry

    guarded = current_registry().guarded_namespaces
    for namespace in namespaces_of(resources):
        guarded.setdefault(id(namespace), (namespace, set()))[1].update(caches)


def guard_namespaces() -> None:
    """Declare the guard of each Namespace noted and not guarded yet, and its ConfigMap once it
    remembers a cache (one per Namespace resource and stack)."""
    from aim_pulumi.resources.children import register_child
    from aim_pulumi.resources.registry import current_registry

    registry = current_registry()
    allow_deletion = registry.settings.namespace_deletion == "allow"
    declared = registry.namespace_guards
    for key, (namespace, caches) in sorted(registry.guarded_namespaces.items(), key=lambda i: i[1][0]._name):
        if key in declared:
            continue
        name = namespace._name
        guard = NamespaceGuard(
            f"{name}-cache-guard",
            namespace=namespace.metadata.name,
            caches=sorted(caches),
            opts=pulumi.ResourceOptions(depends_on=[namespace]),
        )
        declared[key] = guard

        def protect(
            values: list[Any], namespace: k8s.core.v1.Namespace = namespace, name: str = name
        ) -> None:
            guarded_name, retained = values
            if not retained or not isinstance(guarded_name, str):
                return
            register_child(
                f"{name}-retained-caches",
                retained_caches_manifest(guarded_name, retained),
                # On the cluster of the Namespace: its own provider (None: the default one).
                pulumi.ResourceOptions(
                    depends_on=[namespace], protect=not allow_deletion, provider=namespace._provider
                ),
            )

        pulumi.Output.all(guard.namespace, guard.retained).apply(protect)  # type: ignore[attr-defined]
