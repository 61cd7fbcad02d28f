"""The per-stack catalog: every AIM component the program declares, plus the embedded default.

Services resolve against the complete catalog once the program body has declared everything
(`program.py`), so declaration order never matters. The registry belongs to one program run: it
is keyed by the resource monitor Pulumi connected the run to, so two runs in one process (tests,
the offline `plan` command) never see each other's objects, and `reset_registry` clears everything.

The component provider serves a program of another language through one Construct call per
component, each with a monitor connection of its own, so there the run is named by what the
engine sends with every call of one deployment (`enter_program_run`): the monitor address, the
organization, project and stack, and whether it is a preview. Every Construct call of that
deployment then shares one registry, and a service sees the models constructed before it.

The registry also remembers the Shared cache components already declared, because a Shared
cache is registered once per stack however many services mount it (DESIGN decision 7).
"""

import threading
import weakref
from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from pulumi.runtime import settings as pulumi_settings

from aim_pulumi import versions
from aim_pulumi.api import AIMObject
from aim_pulumi.resolve.catalog.extension import Extension
from aim_pulumi.resolve.catalog.inventory import Inventory
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.settings import Settings
from aim_pulumi.resources.capacity import CapacityCheck
from aim_pulumi.resources.secrets import CatalogOutputs

#: What a program run serves beside v1alpha2 (`aim_pulumi/versions.py`: v1alpha1 while its folder
#: is installed, else None); the run's catalog carries it to everything that plans.
EXTENSION: Extension | None = versions.EXTENSION

__all__ = [
    "EXTENSION",
    "StackRegistry",
    "current_registry",
    "enter_program_run",
    "in_component_provider",
    "reset_registry",
]


@dataclass
class StackRegistry:
    """What one program run declares, and its resolution round."""

    settings: Settings
    catalog: Catalog
    shared_caches: dict[tuple[str, ...], Any] = field(default_factory=dict)
    # Shared cache key -> (namespace, name) of each service using it -> that service's plan of the
    # cache and its masked arguments: the cache carries the labels of all of them (behaviour §11).
    shared_cache_users: dict[tuple[str, ...], dict[tuple[str, str], tuple[Any, Any]]] = field(
        default_factory=dict
    )

    # The components waiting for the program's resolution round, and whether the body has ended.
    round: Any = None
    program_ended: bool = False
    # Env values of runtime configs that are Outputs, kept out of the catalog (secrets.py).
    catalog_outputs: CatalogOutputs = field(default_factory=CatalogOutputs)
    # Components of the rounds already run (one per Construct call in the component provider): a
    # catalog object constructed later must not change what they resolved to (`program.py`).
    settled: list[Any] = field(default_factory=list)
    # (type, name, id of the parent) of every component declared, with its declaring line.
    names: dict[tuple[str, str, int | None], Any] = field(default_factory=dict)
    # The pulumi-kubernetes Namespaces AIM objects wait for (by id), with the Shared caches in them,
    # and the guard declared for each (`namespace_guard.py`).
    guarded_namespaces: dict[int, tuple[Any, set[str]]] = field(default_factory=dict)
    namespace_guards: dict[int, Any] = field(default_factory=dict)
    # Catalog objects (profiles with caching.enabled) and the Shared caches they pre-warm, not yet declared.
    prewarmed: list[tuple[Any, list[Any]]] = field(default_factory=list)
    # (group, kind, namespace, name) of every Kubernetes object a round registered, with who declared it.
    kubernetes_objects: dict[tuple[str, str, str, str], Any] = field(default_factory=dict)
    # The cluster's capacity, read once per run, and the verdicts on the services (`capacity.py`).
    capacity: CapacityCheck = field(default=None)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.capacity is None:
            self.capacity = CapacityCheck(self.settings)

    @classmethod
    def for_settings(cls, settings: Settings) -> "StackRegistry":
        inventory = (
            Inventory.from_config(list(settings.inventory)) if settings.inventory is not None else None
        )
        from aim_pulumi.resources.discovery import discoveries_for

        catalog = Catalog(
            inventory=inventory,
            embed_default=settings.embed_default_runtime_config,
            system_namespace=settings.system_namespace,
            discovery=discoveries_for(settings),
            extension=EXTENSION,
        )
        return cls(settings=settings, catalog=catalog)

    def add(self, obj: AIMObject) -> None:
        """Make a catalog object visible to every service of the program."""
        self.catalog.add(obj)

    def use_shared_caches(self, user: tuple[str, str], caches: Sequence[Any], masked: Any) -> None:
        """Record the Shared caches the service `user` ((namespace, name)) mounts, replacing its last word.

        Every service of a round records its final plan before any Shared cache is built, so
        each cache sees all of its users.
        """
        keys = {cache.key for cache in caches}
        for key, users in self.shared_cache_users.items():
            if key not in keys:
                users.pop(user, None)
        for cache in caches:
            self.shared_cache_users.setdefault(cache.key, {})[user] = (cache, masked)


class _NoMonitor:
    """Stands in for the monitor when a program runs outside any Pulumi engine."""


_LOCK = threading.Lock()
_NO_MONITOR = _NoMonitor()
_REGISTRIES: weakref.WeakKeyDictionary[object, StackRegistry] = weakref.WeakKeyDictionary()
# A provider process serves one engine command; its few deployments are kept until it exits.
_RUNS: dict[tuple[str, ...], StackRegistry] = {}
_PROGRAM_RUN: ContextVar[tuple[str, ...] | None] = ContextVar("aim_program_run", default=None)


def enter_program_run(*identity: str) -> None:
    """Name the program run the current Construct call belongs to (the component provider's task).

    The context variable lives in the call's own task, so concurrent calls keep their own.
    """
    _PROGRAM_RUN.set(("provider", *identity))


def in_component_provider() -> bool:
    """Whether the running components are constructed by the component provider for the engine."""
    return _PROGRAM_RUN.get() is not None


def _lookup(key: object) -> StackRegistry | None:
    return _RUNS.get(key) if isinstance(key, tuple) else _REGISTRIES.get(key)


def _store(key: object, created: StackRegistry) -> StackRegistry:
    if isinstance(key, tuple):
        return _RUNS.setdefault(key, created)
    return _REGISTRIES.setdefault(key, created)


def _monitor_key() -> object:
    run = _PROGRAM_RUN.get()
    if run is not None:
        return run
    monitor = pulumi_settings.get_monitor()
    return _NO_MONITOR if monitor is None else monitor


# The registry current_registry() returned last, with its key: every component asks several times.
_LAST: tuple[object, StackRegistry] | None = None


def current_registry() -> StackRegistry:
    """The registry of the running program, created on first use from its stack settings."""
    global _LAST
    key = _monitor_key()
    last = _LAST
    if last is not None and last[0] is key:
        return last[1]
    with _LOCK:
        registry = _lookup(key)
    if registry is None:
        # Imported here: settings reads pulumi.Config, which needs the run's config to be in place.
        from aim_pulumi.resources.settings import stack_settings

        created = StackRegistry.for_settings(stack_settings())
        with _LOCK:
            registry = _store(key, created)
    _LAST = (key, registry)
    return registry


def reset_registry() -> None:
    """Forget every program's declarations (between runs in one process, and in tests)."""
    global _LAST
    with _LOCK:
        _LAST = None
        _REGISTRIES.clear()
        _RUNS.clear()
