"""AIMStack: point a program at existing AIM YAML and deploy every object in it.

Teams that already keep AIM manifests for the operator can deploy them unchanged: the stack
loads a file or a directory (`*.yaml`, `*.yml`), declares every catalog object first (runtime
configs, models, templates, profiles, profile sets) and then every service, each as its own component named
`<stack>-<kind lowercased>-<namespace>-<name>` (`<stack>-<kind lowercased>-<name>` for cluster
kinds). Plain Kubernetes objects of the directory (its Namespace, Secrets, ServiceAccounts, ...)
are declared too, as pulumi-kubernetes resources named the same way, once every service of the
program has planned (so a failing program creates none of them), and the children of the services
of a namespace wait for them; `kustomization.yaml`, `Pulumi*.yaml` and documents that are no object
are skipped with an info message. A ConfigMap in the operator's discovery-cache format is also
read as the discovery cache a profile set's `sourceRef` may name. Like every AIM component, the
objects resolve in the program's one resolution round against everything the program declares, so
reordering files or documents changes nothing, and one service that cannot resolve leaves every
service undeployed.

`catalogAs: data` is the graph option for a large catalog. Every profile, model and runtime
config as a component of its own is a resource in the state, in every preview and in every
`up`, and under the real engine that is most of what a 10x catalog costs. As data, they join the
program's catalog exactly as components would and resolve the same way, but the stack is their
one resource: their statuses are its `catalog` output, by `Kind/namespace/name`. Switching
between the two changes the graph (the components leave the state, or come back), never what
any service deploys.
"""

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any, Final, Unpack, overload

import pulumi

from aim_pulumi import api
from aim_pulumi.api import io as api_io
from aim_pulumi.api.io import ManifestDocument
from aim_pulumi.api.sources import Skipped, read_manifest_set
from aim_pulumi.resolve.catalog.extension import Extension, served_kinds
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.derivation.discovery_cache import is_discovery_cache, read_discovery_cache
from aim_pulumi.resources.catalog_component import CatalogComponent, CatalogRecord
from aim_pulumi.resources.constructors import plain_args, schema_args
from aim_pulumi.resources.inputs import AIMStackArgs, AIMStackArgsDict, AIMStackKwargs
from aim_pulumi.resources.kubernetes_objects import check_kubernetes_object, declare_kubernetes_object
from aim_pulumi.resources.model import AIMClusterModel, AIMModel
from aim_pulumi.resources.model_source import AIMClusterModelSource
from aim_pulumi.resources.namespace_guard import note_namespaces
from aim_pulumi.resources.outputs import gathered, output_of
from aim_pulumi.resources.profile import AIMClusterProfile, AIMProfile
from aim_pulumi.resources.profile_set import AIMClusterProfileSet, AIMProfileSet
from aim_pulumi.resources.program import (
    AIMProgramError,
    Declaration,
    declaration_site,
    enlist_catalog_object,
    enlist_plain_objects,
    reject_late_catalog_object,
    warn_or_fail,
    with_children,
)
from aim_pulumi.resources.registry import current_registry
from aim_pulumi.resources.round_member import PendingNamespace
from aim_pulumi.resources.runtime_config import AIMClusterRuntimeConfig, AIMRuntimeConfig
from aim_pulumi.resources.service import AIMService
from aim_pulumi.resources.statuses import AIMServiceStatus

__all__ = [
    "CATALOG_AS",
    "AIMStack",
    "AIMStackArgs",
    "AIMStackArgsDict",
    "kubernetes_object_name",
    "stack_component_name",
]

CATALOG_AS: Final = ("components", "data")
"""How an AIMStack declares its catalog objects: a component each (the default), or as its data."""

# Catalog kinds before services; within the catalog, what others depend on first. A kind of the
# catalog's extension (v1alpha1's templates) goes where its `KindSurface` says (`_order`).
_ORDER = (
    "AIMClusterRuntimeConfig",
    "AIMRuntimeConfig",
    "AIMClusterModelSource",
    "AIMClusterModel",
    "AIMModel",
    "AIMClusterProfile",
    "AIMProfile",
    "AIMClusterProfileSet",
    "AIMProfileSet",
    "AIMService",
)
_COMPONENTS: Mapping[str, type[CatalogComponent[Any]]] = {
    "AIMClusterRuntimeConfig": AIMClusterRuntimeConfig,
    "AIMRuntimeConfig": AIMRuntimeConfig,
    "AIMClusterModelSource": AIMClusterModelSource,
    "AIMClusterModel": AIMClusterModel,
    "AIMModel": AIMModel,
    "AIMClusterProfile": AIMClusterProfile,
    "AIMProfile": AIMProfile,
    "AIMClusterProfileSet": AIMClusterProfileSet,
    "AIMProfileSet": AIMProfileSet,
}
_SERVICE_OPTIONS = ("strict", "skipAwait", "waitFor", "gatewayProvider", "waitForCache")


def stack_component_name(stack: str, obj: api.AIMObject) -> str:
    """`<stack>-<kind>-<namespace>-<name>` (kind lowercased); cluster kinds have no namespace part."""
    kind = obj.kind.lower()
    if obj.scope == "Namespace":
        return f"{stack}-{kind}-{obj.metadata.namespace or 'default'}-{obj.metadata.name}"
    return f"{stack}-{kind}-{obj.metadata.name}"


def kubernetes_object_name(stack: str, manifest: Mapping[str, Any]) -> str:
    """`<stack>-<kind>-<namespace>-<name>`, or without the namespace part when none is written."""
    metadata = manifest.get("metadata") or {}
    namespace = metadata.get("namespace")
    middle = f"{namespace}-" if isinstance(namespace, str) and namespace else ""
    return f"{stack}-{str(manifest['kind']).lower()}-{middle}{metadata.get('name')}"


def _load(path: str, kinds: api.Kinds) -> tuple[list[api.AIMObject], list[ManifestDocument], list[Skipped]]:
    """(AIM objects of `kinds`, plain Kubernetes documents, what is skipped).

    Every problem of the directory is found before any is raised, each at the file and line it
    concerns, as `aim-pulumi validate` reports them (`ManifestSet.problems`): one failing document
    does not hide the next. One problem is raised as it is; several together (`AIMProgramError`).
    """
    found = read_manifest_set(path, kinds, keep_going=True)
    failures: list[api.AIMValidationError] = list(found.errors)
    objects: list[api.AIMObject] = []
    by_ref: dict[str, api.AIMObject] = {}
    for doc in found.aim:
        try:
            parsed = api_io.parse(doc.data, kinds)
        except api.AIMValidationError as err:
            # Every problem of the document, not only the first the parser met.
            failures.extend(found.problems(doc, kinds=kinds) or found.problems(doc, [err], kinds))
            continue
        # The same object written twice is one object (the catalog refuses two different ones).
        if by_ref.setdefault(parsed.object_ref, parsed) is parsed or by_ref[parsed.object_ref] != parsed:
            objects.append(parsed)
    manifests: list[ManifestDocument] = []
    # As for AIM objects (the catalog): the same object written twice is one object; two different
    # ones under one name would be two Pulumi resources of one name, and one cluster object.
    seen: dict[tuple[str, str, str, str], ManifestDocument] = {}
    for doc in found.kubernetes:
        try:
            check_kubernetes_object(doc.data)
        except api.AIMValidationError as err:
            failures.extend(found.problems(doc, [err], kinds))
            continue
        metadata = doc.data.get("metadata") or {}
        key = (
            str(doc.data["apiVersion"]).rpartition("/")[0],
            str(doc.data["kind"]),
            str(metadata.get("namespace") or ""),
            str(metadata.get("name")),
        )
        first = seen.setdefault(key, doc)
        if first is not doc:
            if first.data == doc.data:
                continue
            duplicate = api.AIMValidationError(
                "metadata.name",
                "DuplicateObject",
                "declared twice with different content (first "
                + (f"as document {first.document}" if first.file == doc.file else f"in {first.file}")
                + "); declare each object once",
            )
            failures.extend(found.problems(doc, [duplicate], kinds))
            continue
        manifests.append(doc)
    if failures:
        # In reading order, as `validate` lists them: file by file, document by document.
        files = {file: index for index, file in enumerate(found.texts)}
        failures.sort(key=lambda e: (files.get(e.file or "", len(files)), e.document or 0))
        raise failures[0] if len(failures) == 1 else AIMProgramError(failures)
    return objects, manifests, list(found.skipped)


def _shown(file: str) -> str:
    """A file as a message names it: relative to the working directory when it is inside it."""
    try:
        return str(Path(file).resolve().relative_to(Path.cwd()))
    except ValueError:
        return file


def _waited_for(obj: api.AIMObject, manifests: Sequence[Mapping[str, Any]]) -> list[int]:
    """Indexes of the plain objects a service waits for: its Namespace and its namespace's objects."""
    namespace = obj.metadata.namespace or "default"
    out = []
    for index, manifest in enumerate(manifests):
        metadata = manifest.get("metadata") or {}
        if (manifest.get("kind") == "Namespace" and metadata.get("name") == namespace) or metadata.get(
            "namespace"
        ) == namespace:
            out.append(index)
    return out


def _order(extension: Extension | None) -> list[str]:
    """`_ORDER` with each kind of `extension` just before the core kind it names, in its order."""
    order = list(_ORDER)
    for surface in extension.kind_surfaces if extension is not None else ():
        order.insert(order.index(surface.declared_before), surface.kind)
    return order


def _ordered(objects: Sequence[api.AIMObject], extension: Extension | None) -> list[api.AIMObject]:
    order = _order(extension)

    def key(obj: api.AIMObject) -> tuple[int, str, str]:
        return (order.index(obj.kind), obj.metadata.namespace or "", obj.metadata.name)

    return sorted(objects, key=key)


class AIMStack(pulumi.ComponentResource):
    """Every AIM object of a YAML file or directory, declared as components of this stack."""

    services: pulumi.Output[dict[str, AIMServiceStatus]]
    """The status of every service in the manifests, by `namespace/name`."""
    objects: pulumi.Output[list[str]]
    """Every object declared, as `Kind/namespace/name` (or `Kind/name`), in declaration order."""
    catalog: pulumi.Output[dict[str, Any]]
    """With `catalogAs: data`, the status of every profile, model and runtime config, by
    `Kind/namespace/name` (`Kind/name` for cluster kinds); with components, each has its own."""

    # Constructor overloads, written by scripts/generate_types.py: run it after changing one.
    @overload
    def __init__(
        self,
        resource_name: str,
        args: AIMStackArgsDict,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
    ) -> None: ...

    @overload
    def __init__(
        self,
        resource_name: str,
        args: AIMStackArgs,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
    ) -> None: ...

    @overload
    def __init__(
        self,
        resource_name: str,
        *,
        opts: pulumi.ResourceOptions | None = None,
        catalog: Catalog | None = None,
        **kwargs: Unpack[AIMStackKwargs],
    ) -> None: ...

    # End of the generated constructor overloads.

    @schema_args(AIMStackArgsDict)
    def __init__(
        self,
        resource_name: str,
        args: AIMStackArgsDict | AIMStackArgs | None = None,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
        **kwargs: Any,
    ) -> None:
        name = resource_name
        given = plain_args("AIMStack", args, kwargs, AIMStackArgs)
        path = given.get("path")
        if not isinstance(path, str) or not path:
            raise api.AIMValidationError(
                "path", "InvalidSpec", "AIMStack needs `path`: a YAML file or directory"
            )
        if not Path(path).exists():
            raise api.AIMValidationError("path", "InvalidSpec", f"{path}: no such file or directory")
        target = catalog if catalog is not None else current_registry().catalog
        loaded, documents, skipped = _load(path, served_kinds(target.extension))
        manifests = [dict(doc.data) for doc in documents]
        objects = _ordered(loaded, target.extension)
        options = {k: given[k] for k in _SERVICE_OPTIONS if k in given}
        catalog_as = given.get("catalogAs") or "components"
        if catalog_as not in CATALOG_AS:
            raise api.AIMValidationError(
                "catalogAs", "InvalidSpec", f"{catalog_as!r} is not one of {', '.join(CATALOG_AS)}"
            )
        super().__init__("aim:index:AIMStack", name, None, opts)
        # What the directory holds that is not deployed, for a caller that reports it (`plan`).
        self._aim_skipped = tuple(skipped)
        for note in skipped:
            pulumi.log.info(note.line, resource=self)
        child_opts = pulumi.ResourceOptions(parent=self)
        statuses: dict[str, Any] = {}
        catalog_statuses: dict[str, Any] = {}
        declared: list[str] = []
        waiting: list[tuple[AIMService, list[int]]] = []
        for manifest in manifests:
            declared.append(api.io.manifest_ref(manifest))
            if is_discovery_cache(manifest):
                # A discovery cache beside a profile set: what its `sourceRef` names (it deploys too).
                namespace = str((manifest.get("metadata") or {}).get("namespace") or "default")
                target.add_discovery_cache(read_discovery_cache(namespace, manifest))
        for obj in objects:
            component_name = stack_component_name(name, obj)
            declared.append(obj.object_ref)
            if obj.kind == "AIMService":
                assert isinstance(obj, api.AIMServiceObject)
                service_args: Any = dict(options)
                service = AIMService(component_name, service_args, child_opts, catalog=catalog, _object=obj)
                waiting.append((service, _waited_for(obj, manifests)))
                statuses[f"{obj.metadata.namespace or 'default'}/{obj.metadata.name}"] = service.status
            elif obj.kind in _COMPONENTS and catalog_as == "data":
                catalog_statuses[obj.object_ref] = _declare_as_data(obj, _COMPONENTS[obj.kind], target, self)
            elif obj.kind in _COMPONENTS:
                _COMPONENTS[obj.kind](component_name, {}, child_opts, catalog=catalog, _object=obj)
            else:
                # A folder's kind (a v1alpha1 template) has no component: it is catalog data only.
                _declare_folder_object(obj, target, self)

        def declare_plain_objects() -> None:
            # With the services' children: a program whose services fail creates none of them either.
            plain = [
                declare_kubernetes_object(kubernetes_object_name(name, manifest), manifest, child_opts)
                for manifest in manifests
            ]
            for service, indexes in waiting:
                service._record.wait_for([plain[i] for i in indexes])
            # The directory's Namespaces its AIM objects live in are the program's: guarded.
            homes = {obj.metadata.namespace or "default" for obj in objects if obj.scope == "Namespace"}
            note_namespaces(
                resource
                for resource, manifest in zip(plain, manifests, strict=True)
                if manifest.get("kind") == "Namespace"
                and (manifest.get("metadata") or {}).get("name") in homes
            )

        if manifests:
            enlist_plain_objects(
                [
                    (
                        Declaration(
                            ("plain", name, doc.file, doc.document, doc.within),
                            f'{doc.object_ref} of AIMStack "{name}" ({_shown(doc.file)}:{doc.document})',
                            doc.object_ref,
                            file=doc.file,
                            document=doc.document,
                        ),
                        [manifest],
                    )
                    for doc, manifest in zip(documents, manifests, strict=True)
                ]
            )
            with_children(declare_plain_objects)
        self.services = gathered(statuses)
        self.objects = output_of(declared)
        outputs: dict[str, Any] = {"services": self.services, "objects": self.objects}
        self.catalog = gathered(catalog_statuses)
        if catalog_as == "data":
            # Only here: a stack of components keeps the outputs (and the state) it always had.
            outputs["catalog"] = self.catalog
        self.register_outputs(outputs)


def _declare_as_data(
    obj: api.AIMObject, kind: type[CatalogComponent[Any]], target: Catalog, stack: AIMStack
) -> pulumi.Output[Any]:
    """A catalog object as the stack's data: in the catalog and the round as a component would be.

    Its status is settled by the same rule (`status_of`) against the same complete catalog; what
    that rule warns about is said on the stack, naming the object.
    """
    reject_late_catalog_object(obj.object_ref)
    target.add(obj)  # first: a different object under the same name is a DuplicateObject
    return _enlist_data(obj, target, stack, lambda warn: partial(kind.status_of, warn=warn)).status.output


def _enlist_data(
    obj: api.AIMObject,
    target: Catalog,
    stack: AIMStack,
    status_rule: Callable[[Callable[[str], None]], Any],
) -> CatalogRecord:
    """The round's record of a stack's data object; what its rules warn about is said on the stack,
    naming the object (`status_rule` makes the object's status rule from that warning)."""

    def warn(message: str) -> None:
        warn_or_fail(message, lambda text: pulumi.log.warn(f"{obj.object_ref}: {text}", resource=stack))

    record = CatalogRecord(
        obj,
        target,
        site=declaration_site(),
        namespace=PendingNamespace(),
        status_of=status_rule(warn),
        warn=warn,
    )
    enlist_catalog_object(record)
    return record


def _declare_folder_object(obj: api.AIMObject, target: Catalog, stack: AIMStack) -> None:
    """A folder's object (a v1alpha1 template): catalog data, and in the round when it pre-warms.

    A namespaced object with `caching.enabled: true` caches its sources with no service; the round
    plans those caches once the catalog is complete (`CatalogRecord.prewarm`, which asks the
    catalog's extension what profile the object pre-warms as). It has no status of its own.
    """
    target.add(obj)
    caching = (api.to_manifest(obj).get("spec") or {}).get("caching")
    if obj.scope != "Namespace" or not (isinstance(caching, Mapping) and caching.get("enabled") is True):
        return
    _enlist_data(obj, target, stack, lambda _warn: _no_status)


def _no_status(obj: api.AIMObject, catalog: Catalog) -> dict[str, Any]:
    """A folder's object shows no status of its own: services report what they resolve of it."""
    return {}
