"""The catalog components: profiles, models and runtime configs declared from component arguments.

Their data joins the program's catalog (`registry.py`); the program's round (`program.py`)
settles their statuses once every object is known.
"""

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, ClassVar, Generic, Self, TypeVar

import pulumi

from aim_pulumi.api import AIM_GROUP, AIMKind, AIMObject, AIMValidationError, to_manifest
from aim_pulumi.api.io import parse
from aim_pulumi.manifests import build_cache_pvc, build_download_job
from aim_pulumi.manifests.child_admission import check_children
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.plan.prewarm import profile_caches
from aim_pulumi.resolve.types import CachePlan
from aim_pulumi.resources.children import inherited_dependencies
from aim_pulumi.resources.constructors import camel_case
from aim_pulumi.resources.namespace_guard import note_namespaces
from aim_pulumi.resources.outputs import PLAIN_SCALARS, is_output_like, known_output
from aim_pulumi.resources.program import (
    claim_name,
    declaration_site,
    enlist_catalog_object,
    reject_late_catalog_object,
    warn_or_fail,
)
from aim_pulumi.resources.registry import current_registry
from aim_pulumi.resources.round_member import Deferred, Enlisted, PendingNamespace
from aim_pulumi.resources.secrets import CatalogOutputs
from aim_pulumi.resources.sites import DeclarationSite

# Any Kubernetes type token: what `get_provider` needs to find the component's Kubernetes provider.
_KUBERNETES_TYPE = "kubernetes:core/v1:PersistentVolumeClaim"

__all__ = [
    "CatalogComponent",
    "CatalogRecord",
    "default_resource_name",
    "object_manifest",
    "reject_outputs",
]


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
    """Catalog objects decide what services deploy, so they must be plain data at program time.

    Plain scalars, most of any object, are passed over without a call or a path of their own.
    """
    if is_output_like(value):
        raise AIMValidationError(
            path or "spec",
            "OutputNotAllowed",
            f"{path or 'the object'} is a Pulumi Output; catalog objects (profiles, models, runtime "
            "configs) decide what gets deployed and must be plain values",
        )
    if isinstance(value, Mapping):
        for key, item in value.items():
            if type(item) not in PLAIN_SCALARS:
                reject_outputs(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            if type(item) not in PLAIN_SCALARS:
                reject_outputs(item, f"{path}[{index}]")


def _public(value: Any, outputs: CatalogOutputs) -> pulumi.Output[Any]:
    """An output of catalog data: its env Outputs put back, so a secret among them keeps it secret."""
    restored = outputs.restore(value)
    return known_output(value) if restored is value else pulumi.Output.from_input(restored)


def default_resource_name(obj: AIMObject) -> str:
    """`from_object`'s resource name: `metadata.name`, or `namespace-name` for namespaced kinds."""
    if obj.scope == "Namespace":
        return f"{obj.metadata.namespace or 'default'}-{obj.metadata.name}"
    return obj.metadata.name


class CatalogRecord(Enlisted):
    """A catalog object in the program round: its status is settled once the catalog is complete.

    `status_of` is the kind's rule (`CatalogComponent.status_of`); `settled` is what it gave, kept
    so that a catalog object constructed in a later round can be checked against it.
    """

    def __init__(
        self,
        declared: AIMObject,
        target: Catalog,
        *,
        site: DeclarationSite | None,
        namespace: PendingNamespace,
        status_of: Callable[[AIMObject, Catalog], dict[str, Any]],
        warn: Callable[[str], None] = pulumi.log.warn,
    ) -> None:
        self.status = Deferred()
        super().__init__(site, namespace, [(self.status, dict)])
        self.declared = declared
        self.target = target
        self.settled: dict[str, Any] | None = None
        self._status_of = status_of
        # Says what the round finds wrong with the object where its status warnings are said.
        self.warn = warn
        # What its own Kubernetes objects (a profile's pre-warmed caches) wait for and apply with.
        self.depends_on: list[Any] = []
        self.providers: list[pulumi.ProviderResource] = []

    @property
    def ref(self) -> str:
        return self.declared.object_ref

    def prewarm(self) -> list[CachePlan]:
        """The Shared caches the object pre-warms with no service (a profile's `caching.enabled`),
        checked as a service's children are."""
        plans = profile_caches(self.declared, self.target, current_registry().settings)
        if plans:
            manifests = [m for plan in plans for m in (build_cache_pvc(plan), build_download_job(plan))]
            check_children(manifests, self.ref)
        return plans

    def settle_status(self) -> None:
        self.settled = self._status_of(self.declared, self.target)
        self.status.resolve(_public(self.settled, current_registry().catalog_outputs))

    def changed_by_later(self) -> bool:
        if self.settled is None:
            return False
        try:
            return bool(self._status_of(self.declared, self.target) != self.settled)
        except Exception:
            return True

    async def await_outputs(self) -> None:
        """Join the catalog once the namespace Output is known (validated already, with a stand-in)."""
        value = await self.namespace.settle()
        if value is None:
            if self.namespace.output is not None and not self.namespace.known:
                self.unknown(self.namespace.output)
            return
        output = self.namespace.output
        if output is not None:
            produced = sorted(await output.resources(), key=id)
            self.depends_on = [*self.depends_on, *produced]
            note_namespaces(produced)
        manifest = to_manifest(self.declared)
        manifest["metadata"] = {**manifest["metadata"], "namespace": value}
        self.declared = parse(manifest)
        self.target.add(self.declared)


ObjectT = TypeVar("ObjectT", bound=AIMObject)
"""The typed object a catalog component declares: each public class fixes it to its own kind."""


class CatalogComponent(pulumi.ComponentResource, Generic[ObjectT]):
    """A profile, model or runtime config: catalog data for every service of the program.

    It registers no Kubernetes children (behaviour §16.6: no AIM custom resources are applied);
    it validates its object, adds it to the stack catalog (or the explicit `catalog`) and exports
    the object's name, its spec as declared and the status its kind derives (`status_of`), which
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

    @classmethod
    def status_of(cls, declared: AIMObject, catalog: Catalog, warn: Callable[[str], None]) -> dict[str, Any]:
        """The kind's deploy-time status, computed against the program's complete catalog.

        `warn` reports what the status shows is wrong: on the component itself, or, for an object
        declared as data of an `AIMStack`, on the stack with the object's reference in front.
        """
        raise NotImplementedError

    def _warn(self, message: str) -> None:
        warn_or_fail(message, lambda text: pulumi.log.warn(text, resource=self))

    def _setup(
        self,
        name: str,
        args: Mapping[str, Any],
        opts: pulumi.ResourceOptions | None,
        catalog: Catalog | None,
        obj: ObjectT | None,
    ) -> None:
        site = declaration_site()
        namespace = PendingNamespace()
        if obj is None:
            # `namespace: ns.metadata.name`: validated now, catalogued once the round knows the value.
            args, namespace = PendingNamespace.split(args)
        declared, target = self._declare(
            name, args, opts, catalog=catalog, obj=obj, site=site, catalogued=namespace.output is None
        )
        spec: dict[str, Any] = to_manifest(declared).get("spec") or {}
        status_of = partial(self.status_of, warn=self._warn)
        record = CatalogRecord(
            declared, target, site=site, namespace=namespace, status_of=status_of, warn=self._warn
        )
        # What it waits for (a Namespace) its pre-warmed caches wait for too, on its cluster.
        record.depends_on = inherited_dependencies(opts)
        kubernetes = self.get_provider(_KUBERNETES_TYPE)
        record.providers = [kubernetes] if kubernetes is not None else []
        # A Namespace it waits for is one of the program's: guarded while AIM objects live in it.
        note_namespaces(record.depends_on)
        setattr(self, self._NAME_OUTPUT, known_output(declared.metadata.name))
        shown = current_registry().catalog_outputs.restore(spec)
        self.spec = known_output(spec) if shown is spec else pulumi.Output.from_input(shown)
        self.status = record.status.output
        self.register_outputs(
            {camel_case(self._NAME_OUTPUT): declared.metadata.name, "spec": shown, "status": self.status}
        )
        enlist_catalog_object(record)

    def _declare(
        self,
        name: str,
        args: Mapping[str, Any] | None,
        opts: pulumi.ResourceOptions | None,
        *,
        catalog: Catalog | None,
        obj: AIMObject | None,
        site: DeclarationSite | None,
        catalogued: bool,
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
            try:
                parsed = parse(object_manifest(self._KIND_CLASS, name, plain))
            except AIMValidationError as error:
                if catalogued:
                    raise
                # Validated with a stand-in namespace: the error names the object as it is known.
                raise error.naming(f"{self._KIND_CLASS.KIND}/?/{plain.get('name') or name}") from None
        else:
            parsed = obj
        if parsed.kind != self._KIND_CLASS.KIND:
            raise AIMValidationError(
                "kind", "InvalidSpec", f"expected {self._KIND_CLASS.KIND}, got {parsed.kind}"
            )
        reject_late_catalog_object(parsed.object_ref)
        target = catalog if catalog is not None else current_registry().catalog
        if catalogued:
            target.add(parsed)  # first: a different object under the same name is a DuplicateObject
        claim_name(f"aim:index:{type(self).__name__}", name, opts, site)
        super().__init__(f"aim:index:{type(self).__name__}", name, None, opts)
        return parsed, target
