"""AIMModel and AIMClusterModel components: models whose profiles services select.

A model is catalog data (no Kubernetes children). An ID-backed model (`spec.modelId`) gets
profiles generated from the fallbacks of its runtime config (behaviour §6); an image-backed model
needs its profiles declared with the `aim.eai.amd.com/source-model` label, since no discovery Job
can run; a derived model (`spec.profiles`) gets the profiles its child AIMProfileSet derives
(`aim_pulumi/resolve/derivation/`). The component exports the generated or derived profiles against
the program's complete catalog.
"""

from collections.abc import Callable
from typing import Any, TypeVar, Unpack, overload

import pulumi

from aim_pulumi import api
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.derivation.derive import Derivation, derivation_status
from aim_pulumi.resolve.derivation.model_sets import model_kind
from aim_pulumi.resources.catalog_component import CatalogComponent
from aim_pulumi.resources.constructors import plain_args, schema_args
from aim_pulumi.resources.inputs import (
    AIMClusterModelArgs,
    AIMClusterModelArgsDict,
    AIMClusterModelKwargs,
    AIMModelArgs,
    AIMModelArgsDict,
    AIMModelKwargs,
)
from aim_pulumi.resources.statuses import AIMModelStatus

__all__ = [
    "AIMClusterModel",
    "AIMClusterModelArgs",
    "AIMClusterModelArgsDict",
    "AIMModel",
    "AIMModelArgs",
    "AIMModelArgsDict",
    "model_status",
]

AnyModel = api.AIMModel | api.AIMClusterModel
# Discovery faults that fail the program: what the lock must have (`aim:discovery: locked`) or a
# lock file that cannot be read. Any other fault of a live read is reported on the model.
FATAL_DISCOVERY = frozenset({"NotInLock", "InvalidLock"})
_ModelT = TypeVar("_ModelT", bound=AnyModel)


def model_status(model: AnyModel, catalog: Catalog) -> dict[str, Any]:
    """The model's deploy-time status: its onboarding path and the profiles generated for it.

    An image-backed model whose image was discovered reports what the operator's status does
    (`kind`, `aimId`, `baseImage`, `version`, `discoveredProfiles`, `managedProfiles`) and the
    digest it was read at; one whose image could not be discovered fails the program here, with
    the line that declared it.
    """
    spec: dict[str, Any] = api.to_manifest(model).get("spec") or {}
    failed = catalog.discovery_error(model)
    if failed is not None and failed.reason in FATAL_DISCOVERY:
        raise failed
    if model.spec.profiles is not None:
        return _derived_model_status(model, catalog)
    error = catalog.generation_error(model)
    generated = [p.metadata.name for p in catalog.generated_profiles_of(model)]
    status: dict[str, Any] = {
        "status": "Failed" if error is not None else "Ready",
        "source": "image" if spec.get("image") else "modelId",
        "generatedProfiles": generated,
    }
    if failed is not None:
        # A registry that cannot be read now leaves the model without discovered profiles; a
        # service that needs them fails on its own, and the model says why (the template path, the
        # operator's other pipeline, is not held up by it).
        status["status"] = "Degraded"
        status["conditions"] = [
            {
                "type": "ProfilesDiscovered",
                "status": "False",
                "reason": failed.reason,
                "message": f"{failed.message}; run `aim-pulumi discover` once the registry answers",
            }
        ]
    discovered = catalog.discovered(model)
    if discovered is not None:
        status.update(discovered.status)
        status["discoveredProfileNames"] = sorted(p.metadata.name for p in discovered.supported)
        origins = {o.digest for o in discovered.origins.values()}
        status["discoveredFrom"] = {
            "image": spec.get("image"),
            "digest": next(iter(origins), ""),
            "fromLock": not catalog.read_live(str(spec.get("image"))),
        }
        if not discovered.supported:
            status["status"] = "NotAvailable"
            status["conditions"] = [
                {
                    "type": "Ready",
                    "status": "False",
                    "reason": "NoSupportedProfiles",
                    "message": "no discovered profile's hardware is in aim:inventory",
                }
            ]
    if error is not None:
        status["conditions"] = [
            {
                "type": "RuntimeConfigReady",
                "status": "False",
                "reason": error.reason,
                "message": error.message,
            }
        ]
    return status


def _derived_model_status(model: AnyModel, catalog: Catalog) -> dict[str, Any]:
    """A derived model's status: its child profile set's (upstream copies its counts and readiness)."""
    profiles = model.spec.profiles
    assert profiles is not None
    aim_id = ""
    if profiles.overrides is not None and profiles.overrides.aim_id:
        aim_id = profiles.overrides.aim_id
    elif profiles.derived_from is not None:
        aim_id = profiles.derived_from.selector.aim_id or ""
    status: dict[str, Any] = {"source": "profiles", "kind": model_kind(model)}
    if aim_id:
        status["aimId"] = aim_id
    derivation = catalog.model_derivation(model)
    if not isinstance(derivation, Derivation):
        error = derivation.message if derivation is not None else "no profile set"
        reason = derivation.reason if derivation is not None else "InvalidSpec"
        status["status"] = "Failed"
        status["conditions"] = [
            {"type": "ProfileSetReady", "status": "False", "reason": reason, "message": error}
        ]
        return status
    profile_set = derivation.profile_set
    status["profileSetRef"] = {
        "name": profile_set.metadata.name,
        "namespace": profile_set.metadata.namespace or "",
    }
    derived = derivation_status(derivation, lambda p: catalog.entry_for(p).available)
    status["status"] = derived["status"]
    status["managedProfiles"] = derived["managedProfiles"]
    status["derivedProfiles"] = derived["derivedProfiles"]
    condition = dict(derived["conditions"][0])
    condition["type"] = "ProfileSetReady"
    status["conditions"] = [condition]
    return status


class _ModelComponent(CatalogComponent[_ModelT]):
    """What both model kinds do; the subclasses only fix the kind and the argument type.

    `status` holds status, onboarding source and generated profile names.
    """

    model_name: pulumi.Output[str]
    """metadata.name of the model."""
    status: pulumi.Output[AIMModelStatus]
    """Onboarding source and the profiles generated for the model (or why none could be)."""

    _NAME_OUTPUT = "model_name"

    @classmethod
    def status_of(
        cls, declared: api.AIMObject, catalog: Catalog, warn: Callable[[str], None]
    ) -> dict[str, Any]:
        """A model whose profiles cannot be generated still declares; the program run says why."""
        assert isinstance(declared, api.AIMModel | api.AIMClusterModel)
        status = model_status(declared, catalog)
        for condition in status.get("conditions", []):
            if condition.get("status") == "True" or not condition.get("message"):
                continue
            prefix = f"image {declared.spec.image}: " if condition["type"] == "ProfilesDiscovered" else ""
            warn(f"{prefix}{condition['reason']}: {condition['message']}")
        discovered = catalog.discovered(declared)
        if discovered is not None:
            for problem in discovered.problems:
                warn(
                    f"InvalidDiscoveredProfile: image {declared.spec.image}: {problem}; the file is left out"
                )
            if not status["discoveredFrom"]["fromLock"]:
                warn(
                    f"DiscoveredLive: image {declared.spec.image} is not in aim.lock.yaml and was read "
                    "from its registry; run `aim-pulumi discover` to pin it"
                )
        return status


class AIMModel(_ModelComponent[api.AIMModel]):
    """A namespaced AIM model: the anchor `spec.model.name` of a service refers to."""

    _KIND_CLASS = api.AIMModel

    # Constructor overloads, written by scripts/generate_types.py: run it after changing one.
    @overload
    def __init__(
        self,
        resource_name: str,
        args: AIMModelArgsDict,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
        _object: api.AIMModel | None = None,
    ) -> None: ...

    @overload
    def __init__(
        self,
        resource_name: str,
        args: AIMModelArgs,
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
        **kwargs: Unpack[AIMModelKwargs],
    ) -> None: ...

    # End of the generated constructor overloads.

    @schema_args(AIMModelArgsDict)
    def __init__(
        self,
        resource_name: str,
        args: AIMModelArgsDict | AIMModelArgs | None = None,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
        _object: api.AIMModel | None = None,
        **kwargs: Any,
    ) -> None:
        options = plain_args("AIMModel", args, kwargs, AIMModelArgs)
        super().__init__(resource_name, options, opts, catalog=catalog, _object=_object)


class AIMClusterModel(_ModelComponent[api.AIMClusterModel]):
    """A cluster-wide AIM model, visible to services in every namespace."""

    _KIND_CLASS = api.AIMClusterModel

    # Constructor overloads, written by scripts/generate_types.py: run it after changing one.
    @overload
    def __init__(
        self,
        resource_name: str,
        args: AIMClusterModelArgsDict,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
        _object: api.AIMClusterModel | None = None,
    ) -> None: ...

    @overload
    def __init__(
        self,
        resource_name: str,
        args: AIMClusterModelArgs,
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
        **kwargs: Unpack[AIMClusterModelKwargs],
    ) -> None: ...

    # End of the generated constructor overloads.

    @schema_args(AIMClusterModelArgsDict)
    def __init__(
        self,
        resource_name: str,
        args: AIMClusterModelArgsDict | AIMClusterModelArgs | None = None,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
        _object: api.AIMClusterModel | None = None,
        **kwargs: Any,
    ) -> None:
        options = plain_args("AIMClusterModel", args, kwargs, AIMClusterModelArgs)
        super().__init__(resource_name, options, opts, catalog=catalog, _object=_object)
