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

import inspect
import threading
import weakref
from collections.abc import Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Self, TypeVar

import pulumi
from pulumi.runtime import settings as pulumi_settings

from aim_pulumi.api import AIM_GROUP, AIMKind, AIMObject, AIMValidationError, parse, to_manifest
from aim_pulumi.resolve.catalog.inventory import Inventory
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.settings import Settings
from aim_pulumi.resources.constructors import camel_case
from aim_pulumi.resources.outputs import known_output
from aim_pulumi.resources.program import (
    Deferred,
    declaration_site,
    enlist,
    known_namespace,
    reject_late_catalog_object,
)
from aim_pulumi.resources.secrets import CatalogOutputs

__all__ = [
    "CatalogComponent",
    "StackRegistry",
    "current_registry",
    "default_resource_name",
    "enter_program_run",
    "in_component_provider",
    "object_manifest",
    "reject_outputs",
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

    @classmethod
    def for_settings(cls, settings: Settings) -> "StackRegistry":
        inventory = (
            Inventory.from_config(list(settings.inventory)) if settings.inventory is not None else None
        )
        catalog = Catalog(
            inventory=inventory,
            embed_default=settings.embed_default_runtime_config,
            system_namespace=settings.system_namespace,
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


def current_registry() -> StackRegistry:
    """The registry of the running program, created on first use from its stack settings."""
    # Imported here: settings reads pulumi.Config, which needs the run's config to be in place.
    from aim_pulumi.resources.settings import stack_settings

    key = _monitor_key()
    with _LOCK:
        registry = _lookup(key)
    if registry is not None:
        return registry
    created = StackRegistry.for_settings(stack_settings())
    with _LOCK:
        return _store(key, created)


def reset_registry() -> None:
    """Forget every program's declarations (between runs in one process, and in tests)."""
    with _LOCK:
        _REGISTRIES.clear()
        _RUNS.clear()


# --------------------------------------------------------------------------------------------------
# Declaring AIM objects from component arguments


def object_manifest(
    cls: type[AIMKind], resource_name: str, args: Mapping[str, Any], *, api_version: str | None = None
) -> dict[str, Any]:
    """The CRD-shaped manifest a component's arguments describe (`name` defaults to the resource name)."""
    metadata: dict[str, Any] = {"name": args.get("name") or resource_name}
    if cls.SCOPE == "Namespace":
        metadata["namespace"] = args.get("namespace") or "default"
    elif args.get("namespace"):
        raise AIMValidationError(
            "metadata.namespace", "InvalidSpec", f"{cls.KIND} is cluster-scoped and takes no namespace"
        )
    for key in ("labels", "annotations"):
        if args.get(key):
            metadata[key] = dict(args[key])
    manifest: dict[str, Any] = {
        "apiVersion": api_version or f"{AIM_GROUP}/{cls.SERVED_VERSIONS[-1]}",
        "kind": cls.KIND,
        "metadata": metadata,
        "spec": args.get("spec") or {},
    }
    return manifest


def reject_outputs(value: Any, path: str = "") -> None:
    """Catalog objects decide what services deploy, so they must be plain data at program time."""
    if isinstance(value, pulumi.Output) or inspect.isawaitable(value):
        raise AIMValidationError(
            path or "spec",
            "OutputNotAllowed",
            f"{path or 'the object'} is a Pulumi Output; catalog objects (profiles, models, runtime "
            "configs) decide what gets deployed and must be plain values",
        )
    if isinstance(value, Mapping):
        for key, item in value.items():
            reject_outputs(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            reject_outputs(item, f"{path}[{index}]")


def _public(value: Any, outputs: CatalogOutputs) -> pulumi.Output[Any]:
    """An output of catalog data: its env Outputs put back, so a secret among them keeps it secret."""
    restored = outputs.restore(value)
    return known_output(value) if restored is value else pulumi.Output.from_input(restored)


def _is_output(value: Any) -> bool:
    return isinstance(value, pulumi.Output) or inspect.isawaitable(value)


def default_resource_name(obj: AIMObject) -> str:
    """`from_object`'s resource name: `metadata.name`, or `namespace-name` for namespaced kinds."""
    if obj.scope == "Namespace":
        return f"{obj.metadata.namespace or 'default'}-{obj.metadata.name}"
    return obj.metadata.name


ObjectT = TypeVar("ObjectT", bound=AIMObject)
"""The typed object a catalog component declares: each public class fixes it to its own kind."""


class CatalogComponent(pulumi.ComponentResource, Generic[ObjectT]):
    """A profile, model or runtime config: catalog data for every service of the program.

    It registers no Kubernetes children (behaviour §16.6: no AIM custom resources are applied);
    it validates its object, adds it to the stack catalog (or the explicit `catalog`) and exports
    the object's name, its spec as declared and the status its kind derives (`_status`), which
    the program's resolution round computes against the complete catalog.
    """

    _KIND_CLASS: ClassVar[type[AIMKind]]
    _ENV_OUTPUTS: ClassVar[bool] = False
    """Whether `spec.env[].value` may be an Output (runtime configs: their env is only carried)."""
    _NAME_OUTPUT: ClassVar[str]
    """The output attribute holding metadata.name; it differs per kind, as published outputs do."""

    spec: pulumi.Output[dict[str, Any]]
    """The spec as declared (camelCase)."""
    status: pulumi.Output[Mapping[str, Any]]
    """What the operator would show in the object's status at deploy time (typed per kind)."""

    def __init__(
        self,
        name: str,
        args: Mapping[str, Any],
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
        _object: ObjectT | None = None,
    ) -> None:
        # Each public kind overrides this with its own `args` type, which the component Analyzer reads.
        self._setup(name, args, opts, catalog, _object)

    @classmethod
    def from_object(
        cls,
        obj: ObjectT,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
    ) -> Self:
        """Declare a typed object; the resource is named `<namespace>-<name>` (cluster kinds: `<name>`)."""
        return cls(default_resource_name(obj), {}, opts, catalog=catalog, _object=obj)

    def _status(self, declared: AIMObject, catalog: Catalog) -> dict[str, Any]:
        """The kind's deploy-time status, computed against the program's complete catalog."""
        raise NotImplementedError

    # The program round (program.py) calls these.
    _aim_is_service = False
    _aim_declared: AIMObject
    _aim_target: Catalog
    _aim_status: Deferred

    def _aim_settle_status(self) -> None:
        self._aim_settled = self._status(self._aim_declared, self._aim_target)
        self._aim_status.resolve(_public(self._aim_settled, current_registry().catalog_outputs))

    def _aim_changed_by_later(self) -> bool:
        if not hasattr(self, "_aim_settled"):
            return False
        try:
            return bool(self._status(self._aim_declared, self._aim_target) != self._aim_settled)
        except Exception:
            return True

    def _aim_waits_for_outputs(self) -> bool:
        return self._aim_namespace_output is not None

    def _aim_known(self) -> bool:
        return self._aim_namespace_known

    def _aim_unknown(self, output: pulumi.Output[Any]) -> None:
        self._aim_status.resolve(output.apply(lambda _: {}))

    async def _aim_await_outputs(self) -> None:
        """Join the catalog once the namespace Output is known (validated already, with a stand-in)."""
        output = self._aim_namespace_output
        if output is None:
            return
        value = await known_namespace(output)
        if value is None:
            self._aim_namespace_known = False
            self._aim_status.resolve(output.apply(lambda _: {}))
            return
        manifest = to_manifest(self._aim_declared)
        manifest["metadata"] = {**manifest["metadata"], "namespace": value}
        self._aim_declared = parse(manifest)
        self._aim_ref = self._aim_declared.object_ref
        self._aim_target.add(self._aim_declared)

    def _aim_fail(self, error: BaseException) -> None:
        self._aim_status.fail(error)

    def _setup(
        self,
        name: str,
        args: Mapping[str, Any],
        opts: pulumi.ResourceOptions | None,
        catalog: Catalog | None,
        obj: ObjectT | None,
    ) -> None:
        self._aim_site = declaration_site()
        self._aim_namespace_output: pulumi.Output[Any] | None = None
        self._aim_namespace_known = True
        if obj is None and _is_output((args or {}).get("namespace")):
            # `namespace: ns.metadata.name`: validated now, catalogued once the round knows the value.
            args = dict(args)
            self._aim_namespace_output = pulumi.Output.from_input(args.pop("namespace"))
        declared, target = self._declare(name, args, opts, catalog=catalog, obj=obj)
        spec: dict[str, Any] = to_manifest(declared).get("spec") or {}
        self._aim_declared = declared
        self._aim_target = target
        self._aim_ref = declared.object_ref
        self._aim_status = Deferred()
        setattr(self, self._NAME_OUTPUT, pulumi.Output.from_input(declared.metadata.name))
        shown = current_registry().catalog_outputs.restore(spec)
        self.spec = known_output(spec) if shown is spec else pulumi.Output.from_input(shown)
        self.status = self._aim_status.output
        self.register_outputs(
            {camel_case(self._NAME_OUTPUT): declared.metadata.name, "spec": shown, "status": self.status}
        )
        enlist(self)

    def _declare(
        self,
        name: str,
        args: Mapping[str, Any] | None,
        opts: pulumi.ResourceOptions | None,
        *,
        catalog: Catalog | None,
        obj: AIMObject | None,
    ) -> tuple[AIMObject, Catalog]:
        """Validate and add to the catalog first, so a bad object fails before anything registers."""
        if obj is None:
            plain = dict(args or {})
            if self._ENV_OUTPUTS:
                kind = self._KIND_CLASS
                scope = [str(plain.get("namespace") or "default")] if kind.SCOPE == "Namespace" else []
                owner = "/".join([kind.KIND, *scope, str(plain.get("name") or name)])
                plain = current_registry().catalog_outputs.mask_env_values(plain, owner)
            reject_outputs(plain)
            parsed = parse(object_manifest(self._KIND_CLASS, name, plain))
        else:
            parsed = obj
        if parsed.kind != self._KIND_CLASS.KIND:
            raise AIMValidationError(
                "kind", "InvalidSpec", f"expected {self._KIND_CLASS.KIND}, got {parsed.kind}"
            )
        reject_late_catalog_object(parsed.object_ref)
        target = catalog if catalog is not None else current_registry().catalog
        if self._aim_namespace_output is None:
            target.add(parsed)
        super().__init__(f"aim:index:{type(self).__name__}", name, None, opts)
        return parsed, target
