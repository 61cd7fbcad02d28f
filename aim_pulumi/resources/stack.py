"""AIMStack: point a program at existing AIM YAML and deploy every object in it.

Teams that already keep AIM manifests for the operator can deploy them unchanged: the stack
loads a file or a directory (`*.yaml`, `*.yml`), declares every catalog object first (runtime
configs, models, templates, profiles) and then every service, each as its own component named
`<stack>-<kind lowercased>-<namespace>-<name>` (`<stack>-<kind lowercased>-<name>` for cluster
kinds). Declaration order is fixed by kind and name, not by file order, so reordering files or
documents changes nothing. The manifests are one unit: every service is resolved before the
first component registers, so one that cannot resolve leaves the others undeployed too.
"""

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypedDict

import pulumi

from aim_pulumi import api
from aim_pulumi.resolve.catalog import Catalog
from aim_pulumi.resources.model import AIMClusterModel, AIMModel
from aim_pulumi.resources.profile import AIMClusterProfile, AIMProfile
from aim_pulumi.resources.registry import current_registry
from aim_pulumi.resources.runtime_config import AIMClusterRuntimeConfig, AIMRuntimeConfig
from aim_pulumi.resources.service import AIMService, observed_plan, settings_overrides

__all__ = ["AIMStack", "AIMStackArgs", "stack_component_name"]

# Catalog kinds before services; within the catalog, what others depend on first.
_ORDER = (
    "AIMClusterRuntimeConfig",
    "AIMRuntimeConfig",
    "AIMClusterModel",
    "AIMModel",
    "AIMClusterServiceTemplate",
    "AIMServiceTemplate",
    "AIMClusterProfile",
    "AIMProfile",
    "AIMService",
)
_COMPONENTS: Mapping[str, Any] = {
    "AIMClusterRuntimeConfig": AIMClusterRuntimeConfig,
    "AIMRuntimeConfig": AIMRuntimeConfig,
    "AIMClusterModel": AIMClusterModel,
    "AIMModel": AIMModel,
    "AIMClusterProfile": AIMClusterProfile,
    "AIMProfile": AIMProfile,
}
_SERVICE_OPTIONS = ("strict", "skipAwait", "waitFor", "gatewayProvider", "waitForCache")


class AIMStackArgs(TypedDict, total=False):
    """Where the AIM manifests are, and options applied to every service in them."""

    path: str
    """A YAML file or a directory of `*.yaml` / `*.yml` AIM manifests (multi-document allowed)."""
    strict: bool
    """Turn every service's degradations into errors."""
    skipAwait: bool
    """Wait for no child of any service to become ready."""
    waitFor: str
    """`pulumi.com/waitFor` for every InferenceService (default `condition=Ready`); empty removes it."""
    gatewayProvider: str
    """envoyGateway, kgateway, custom or none, for every service."""
    waitForCache: bool
    """Make InferenceServices wait for their caches (default true)."""


def stack_component_name(stack: str, obj: api.AIMObject) -> str:
    """`<stack>-<kind>-<namespace>-<name>` (kind lowercased); cluster kinds have no namespace part."""
    kind = obj.kind.lower()
    if obj.scope == "Namespace":
        return f"{stack}-{kind}-{obj.metadata.namespace or 'default'}-{obj.metadata.name}"
    return f"{stack}-{kind}-{obj.metadata.name}"


def _ordered(objects: Sequence[api.AIMObject]) -> list[api.AIMObject]:
    def key(obj: api.AIMObject) -> tuple[int, str, str]:
        return (_ORDER.index(obj.kind), obj.metadata.namespace or "", obj.metadata.name)

    return sorted(objects, key=key)


def _resolve_all(objects: Sequence[api.AIMObject], target: Catalog, options: Mapping[str, Any]) -> None:
    """Resolve every service of the manifests against a scratch copy of the catalog they join.

    Each service fails before its own children register; the manifests are one unit, so a
    service that cannot resolve (or an object declared twice) must also stop the services listed
    before it from being half-deployed.
    """
    scratch = Catalog(
        target.objects(),
        inventory=target.inventory,
        embed_default=target.embed_default,
        system_namespace=target.system_namespace,
    )
    scratch.extend(obj for obj in objects if obj.kind != "AIMService")
    settings = current_registry().settings.with_overrides(**settings_overrides(options))
    for obj in objects:
        if isinstance(obj, api.AIMService):
            observed_plan(obj, scratch, settings)


class AIMStack(pulumi.ComponentResource):
    """Every AIM object of a YAML file or directory, declared as components of this stack."""

    services: pulumi.Output[dict[str, Any]]
    """The status of every service in the manifests, by `namespace/name`."""
    objects: pulumi.Output[list[str]]
    """Every object declared, as `Kind/namespace/name` (or `Kind/name`), in declaration order."""

    def __init__(
        self,
        name: str,
        args: AIMStackArgs,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
    ) -> None:
        path = args.get("path")
        if not isinstance(path, str) or not path:
            raise api.AIMValidationError(
                "path", "InvalidSpec", "AIMStack needs `path`: a YAML file or directory"
            )
        if not Path(path).exists():
            raise api.AIMValidationError("path", "InvalidSpec", f"{path}: no such file or directory")
        objects = _ordered(api.load_manifests(path))
        options = {k: args[k] for k in _SERVICE_OPTIONS if k in args}  # type: ignore[literal-required]
        target = catalog if catalog is not None else current_registry().catalog
        _resolve_all(objects, target, options)
        super().__init__("aim:index:AIMStack", name, None, opts)
        child_opts = pulumi.ResourceOptions(parent=self)
        statuses: dict[str, Any] = {}
        declared: list[str] = []
        for obj in objects:
            component_name = stack_component_name(name, obj)
            declared.append(obj.object_ref)
            if obj.kind == "AIMService":
                assert isinstance(obj, api.AIMService)
                service = AIMService(component_name, dict(options), child_opts, catalog=catalog, _object=obj)  # type: ignore[arg-type]
                statuses[f"{obj.metadata.namespace or 'default'}/{obj.metadata.name}"] = service.status
            elif obj.kind in _COMPONENTS:
                _COMPONENTS[obj.kind](component_name, {}, child_opts, catalog=catalog, _object=obj)
            else:
                # Templates have no component of their own: they are catalog data for legacy services.
                target.add(obj)
        self.services = pulumi.Output.from_input(statuses)
        self.objects = pulumi.Output.from_input(declared)
        self.register_outputs({"services": self.services, "objects": self.objects})
