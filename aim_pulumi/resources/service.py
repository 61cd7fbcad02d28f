"""AIMService: the operator's reconcile loop, run once per `pulumi preview` / `pulumi up`.

The constructor only records the service; the program's resolution round (`program.py`) plans it
against the complete catalog together with every other service, and only when all of them plan
does it register any child, so a hard error (admission, missing runtime config,
`ProfileNotFound`, ...) leaves nothing half-declared. The children the plan describes are
named `<name>-<role>` with the service as parent: the InferenceService (`isvc`), the
profile ConfigMap (`profile-config`), the HTTPRoute (`route`), the KEDA ScaledObject
(`scaledobject`), Dedicated caches (`cache-<h>`, `download-<h>`); Shared caches are stack-owned
`AIMSharedCache` components the InferenceService depends on. Env values that are Pulumi Outputs
go into a Secret beside their workload (`isvc-env`, `download-<h>-env`), referenced by
`secretKeyRef`, so the workload itself never holds them and stays reviewable in a preview.

A service resolved through a selector keeps its profile across runs through `<name>-binding`
(see `binding.py`); the children are then built inside one `apply` of the bindings' outputs,
from the bound profile. The binding's value comes from its provider's `check`, which runs in
preview too, so a preview shows every child with its full inputs.
"""

from collections.abc import Mapping
from typing import Any, Unpack, overload

import pulumi

from aim_pulumi import api
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.objects import FORCE_REBIND_ANNOTATION
from aim_pulumi.resolve.settings import Settings
from aim_pulumi.resources import levers
from aim_pulumi.resources.catalog_component import default_resource_name, object_manifest
from aim_pulumi.resources.children import inherited_dependencies
from aim_pulumi.resources.constructors import plain_args, schema_args
from aim_pulumi.resources.inputs import AIMServiceArgs, AIMServiceArgsDict, AIMServiceKwargs
from aim_pulumi.resources.program import claim_name, declaration_site, enlist_service
from aim_pulumi.resources.registry import current_registry
from aim_pulumi.resources.round_member import PendingNamespace
from aim_pulumi.resources.secrets import OUTPUT_NOT_ALLOWED
from aim_pulumi.resources.service_record import ServiceDeclaration, ServiceRecord
from aim_pulumi.resources.service_status import route_endpoint
from aim_pulumi.resources.statuses import AIMServiceStatus, ResolvedObjectRef

__all__ = [
    "AIMService",
    "AIMServiceArgs",
    "AIMServiceArgsDict",
    "settings_overrides",
]


# Component options that are deploy-time settings (camelCase argument -> Settings attribute).
_SETTING_OPTIONS: Mapping[str, str] = {
    "strict": "strict",
    "skipAwait": "skip_await",
    "waitFor": "wait_for",
    "gatewayProvider": "gateway_provider",
}
_COMPONENT_OPTIONS = (*_SETTING_OPTIONS, "forceRebind", "waitForCache")
# Any Kubernetes type token: what `get_provider` needs to find the service's Kubernetes provider.
_KUBERNETES_TYPE = "kubernetes:core/v1:PersistentVolumeClaim"


def _plain_option(args: Mapping[str, Any], key: str) -> Any:
    value = args.get(key)
    if isinstance(value, pulumi.Output):
        raise api.AIMValidationError(
            key, OUTPUT_NOT_ALLOWED, f"the {key} option decides what gets deployed and must be a plain value"
        )
    return value


def settings_overrides(args: Mapping[str, Any]) -> dict[str, Any]:
    """The Settings fields the component options (`strict`, `skipAwait`, ...) override."""
    overrides: dict[str, Any] = {}
    for key, attribute in _SETTING_OPTIONS.items():
        if key in args:
            value = _plain_option(args, key)
            if key == "waitFor" and value == "":
                value = None
            overrides[attribute] = value
    return overrides


def _with_annotation(document: Mapping[str, Any], key: str, value: str) -> dict[str, Any]:
    out = dict(document)
    metadata = dict(out.get("metadata") or {})
    annotations = dict(metadata.get("annotations") or {})
    annotations[key] = value
    metadata["annotations"] = annotations
    out["metadata"] = metadata
    return out


class AIMService(pulumi.ComponentResource):
    """An AIM inference service: resolves a profile and deploys KServe, Gateway API, KEDA and caches."""

    # The outputs. The component provider's schema lists these annotations, so they are class
    # attributes rather than properties; each is settled by the program's resolution round.
    status: pulumi.Output[AIMServiceStatus]
    """The AIMService status as known at deploy time: resolvedProfile, conditions, routing, ..."""
    resolved_profile: pulumi.Output[ResolvedObjectRef]
    """status.resolvedProfile: kind, name, namespace, scope and uid of the bound profile."""
    inference_service_name: pulumi.Output[str]
    """Name of the KServe InferenceService."""
    route_path: pulumi.Output[str | None]
    """The HTTPRoute path prefix, when routing is enabled and the path rendered."""
    endpoint: pulumi.Output[str | None]
    """`<host><path>` a client calls: the route's first non-wildcard hostname, else the path alone."""
    # Without a hostname the host is the Gateway's address, and the scheme always its listener's
    # protocol: the cluster knows them, the program does not read the Gateway. None without a route.

    # Constructor overloads, written by scripts/generate_types.py: run it after changing one.
    @overload
    def __init__(
        self,
        resource_name: str,
        args: AIMServiceArgsDict,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
        _object: api.AIMService | None = None,
    ) -> None: ...

    @overload
    def __init__(
        self,
        resource_name: str,
        args: AIMServiceArgs,
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
        **kwargs: Unpack[AIMServiceKwargs],
    ) -> None: ...

    # End of the generated constructor overloads.

    @schema_args(AIMServiceArgsDict)
    def __init__(
        self,
        resource_name: str,
        args: AIMServiceArgsDict | AIMServiceArgs | None = None,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
        _object: api.AIMService | None = None,
        **kwargs: Any,
    ) -> None:
        name = resource_name
        site = declaration_site()
        options: Mapping[str, Any] = plain_args("AIMService", args, kwargs, AIMServiceArgs)
        registry = current_registry()
        settings: Settings = registry.settings.with_overrides(**settings_overrides(options))
        force = bool(_plain_option(options, "forceRebind"))
        wait_for_cache = _plain_option(options, "waitForCache") is not False
        namespace = PendingNamespace()
        if _object is not None:
            document: dict[str, Any] = api.to_manifest(_object)
        else:
            # Where the service goes decides what it sees; the round waits for a namespace Output.
            crd_args, namespace = PendingNamespace.split(
                {k: v for k, v in options.items() if k not in _COMPONENT_OPTIONS}
            )
            document = object_manifest(api.AIMService, name, crd_args)
        if force:
            document = _with_annotation(document, FORCE_REBIND_ANNOTATION, "true")

        claim_name("aim:index:AIMService", name, opts, site)
        super().__init__("aim:index:AIMService", name, None, opts)
        depends_on = inherited_dependencies(opts)
        kubernetes = self.get_provider(_KUBERNETES_TYPE)
        # Owned by the round, which plans and registers it; kept here for AIMStack's `wait_for`.
        declaration = ServiceDeclaration(
            name, site, settings, catalog if catalog is not None else registry.catalog, force, wait_for_cache
        )
        self._record = record = ServiceRecord(
            self,
            declaration,
            document=document,
            namespace=namespace,
            depends_on=depends_on,
            providers=[kubernetes] if kubernetes is not None else [],
        )
        self.status = record.status.output
        self.inference_service_name = record.isvc_name.output
        self.resolved_profile = self.status.apply(
            lambda s: ResolvedObjectRef(**((s or {}).get("resolvedProfile") or {}))
        )
        self.route_path = self.status.apply(lambda s: ((s or {}).get("routing") or {}).get("path"))
        self.endpoint = self.route_path.apply(lambda path: route_endpoint(record.hostnames, path))
        # Its status waits for the children's apply: sent on the lane (`levers.py`).
        levers.register_late_outputs(
            self,
            {
                "status": self.status,
                "resolvedProfile": self.resolved_profile,
                "inferenceServiceName": self.inference_service_name,
                "routePath": self.route_path,
                "endpoint": self.endpoint,
            },
        )
        enlist_service(record)

    @classmethod
    def from_object(
        cls,
        obj: api.AIMService,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> "AIMService":
        """Declare a typed AIMService (v1alpha2 or legacy v1alpha1); named `<namespace>-<name>`.

        `options` takes the component-only options (`strict`, `skipAwait`, ...). A `status` on the
        object (`resolvedProfile` of an operator-managed service) seeds the sticky binding.
        """
        args: Any = dict(options or {})
        return cls(default_resource_name(obj), args, opts, catalog=catalog, _object=obj)
