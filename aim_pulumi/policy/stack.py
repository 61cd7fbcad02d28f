"""What the guardrails read of a stack: each AIMService with its children and the caches it mounts.

A policy pack sees a stack as a flat list of resources (type, URN, parent, properties), under the
engine (`pulumi preview --policy-pack`: the components' registered outputs, the children's
planned objects) and offline (`aim-pulumi plan --policy-pack`: the same, from the recording).
`StackView` turns that list into the services a guardrail judges: the AIMService component, the
InferenceService, HTTPRoute and ScaledObject it parents, and the caches it mounts with their
download Jobs (a Shared cache is a component of its own, found by its PVC name from the service's
`status.cache`). Pure: plain mappings in, plain views out; no Pulumi import, so the same code runs
in both places and is tested directly.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "AIM_SERVICE",
    "UNKNOWN",
    "Container",
    "Resource",
    "ServiceView",
    "StackView",
    "describe",
    "is_known",
]

AIM_SERVICE = "aim:index:AIMService"
INFERENCE_SERVICE = "kubernetes:serving.kserve.io/v1beta1:InferenceService"
HTTP_ROUTE = "kubernetes:gateway.networking.k8s.io/v1:HTTPRoute"
SCALED_OBJECT = "kubernetes:keda.sh/v1alpha1:ScaledObject"
JOB = "kubernetes:batch/v1:Job"
PVC = "kubernetes:core/v1:PersistentVolumeClaim"
CACHE_COMPONENTS = ("aim:index:AIMSharedCache", "aim:index:AIMDedicatedCache")
MODEL_COMPONENTS = ("aim:index:AIMModel", "aim:index:AIMClusterModel")
PROFILE_COMPONENTS = ("aim:index:AIMProfile", "aim:index:AIMClusterProfile")
SERVICE_LABEL = "aim.eai.amd.com/service"

# The engine's markers for a value a preview does not know yet, by type (string, boolean, number,
# array, asset, archive, object): the policy SDK hands them over as these strings.
UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9"
UNKNOWNS = frozenset(
    {
        UNKNOWN,
        "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7",
        "3eeb2bf0-c639-47a8-9e75-3b44932eb421",
        "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2",
        "030794c1-ac77-496b-92df-f27374a8bd58",
        "e48ece36-62e2-4504-bad9-02848725956a",
        "dd056dcd-154b-4c76-9bd3-c8f88648b5ff",
    }
)


def is_known(value: Any) -> bool:
    """False for a value a preview does not know yet (one of the engine's markers, or None)."""
    return value is not None and not (isinstance(value, str) and value in UNKNOWNS)


@dataclass(frozen=True)
class Resource:
    """One resource of the stack as a policy sees it: its properties are its outputs (a child's
    planned object, a component's registered outputs)."""

    type: str
    urn: str
    name: str
    props: Mapping[str, Any]
    parent: str = ""


def describe(resource: Resource) -> str:
    """`InferenceService ml-team/qwen-chat-faa5534a`: a child as kubectl names it (its Pulumi name
    when the object has no name yet)."""
    kind = resource.type.rsplit(":", 1)[-1]
    meta = resource.props.get("metadata")
    if isinstance(meta, Mapping) and _text(meta.get("name")):
        namespace = _text(meta.get("namespace"))
        return f"{kind} {namespace + '/' if namespace else ''}{meta['name']}"
    return f"{kind} {resource.name}"


@dataclass(frozen=True)
class Container:
    """A container of a workload child, with the child it belongs to (for the violation's URN)."""

    owner: Resource
    path: str
    spec: Mapping[str, Any]

    @property
    def image(self) -> str | None:
        image = self.spec.get("image")
        return image if isinstance(image, str) and is_known(image) else None


@dataclass(frozen=True)
class ServiceView:
    """An AIMService and what it deploys, as a guardrail judges it."""

    component: Resource
    namespace: str
    name: str
    inference_services: tuple[Resource, ...] = ()
    routes: tuple[Resource, ...] = ()
    scaled_objects: tuple[Resource, ...] = ()
    caches: tuple[Resource, ...] = ()
    download_jobs: tuple[Resource, ...] = ()
    model: Resource | None = None
    profile: Resource | None = None

    @property
    def label(self) -> str:
        """`AIMService ml-team/qwen-chat`: how every violation names the service."""
        return f"AIMService {self.namespace}/{self.name}"

    @property
    def status(self) -> Mapping[str, Any]:
        status = self.component.props.get("status")
        return status if isinstance(status, Mapping) else {}

    def predictors(self) -> Iterator[tuple[Resource, Mapping[str, Any]]]:
        for isvc in self.inference_services:
            predictor = _path(isvc.props, "spec", "predictor")
            if isinstance(predictor, Mapping):
                yield isvc, predictor

    def containers(self) -> Iterator[Container]:
        """Every container the service runs: its predictor's, then its caches' download Jobs'."""
        for isvc, predictor in self.predictors():
            for i, spec in enumerate(_list(predictor.get("containers"))):
                yield Container(isvc, f"spec.predictor.containers[{i}]", spec)
            model = predictor.get("model")
            if isinstance(model, Mapping):
                yield Container(isvc, "spec.predictor.model", model)
        for job in self.download_jobs:
            pod = _path(job.props, "spec", "template", "spec")
            if isinstance(pod, Mapping):
                for key in ("initContainers", "containers"):
                    for i, spec in enumerate(_list(pod.get(key))):
                        yield Container(job, f"spec.template.spec.{key}[{i}]", spec)


@dataclass
class StackView:
    """The stack's resources, indexed for the questions the guardrails ask."""

    resources: Sequence[Resource]
    _children: dict[str, list[Resource]] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        for resource in self.resources:
            self._children.setdefault(resource.parent, []).append(resource)

    def children(self, parent: Resource, type_: str | tuple[str, ...]) -> tuple[Resource, ...]:
        types = (type_,) if isinstance(type_, str) else type_
        return tuple(r for r in self._children.get(parent.urn, []) if r.type in types)

    def services(self) -> list[ServiceView]:
        """Every AIMService of the stack, sorted by namespace and name."""
        views = [self._service(r) for r in self.resources if r.type == AIM_SERVICE]
        return sorted(views, key=lambda v: (v.namespace, v.name, v.component.urn))

    def _service(self, component: Resource) -> ServiceView:
        isvcs = self.children(component, INFERENCE_SERVICE)
        namespace, name = "", component.name
        for isvc in isvcs:
            meta = isvc.props.get("metadata")
            if isinstance(meta, Mapping):
                namespace = _text(meta.get("namespace")) or namespace
                labels = meta.get("labels")
                if isinstance(labels, Mapping):
                    name = _text(labels.get(SERVICE_LABEL)) or name
        caches = self._caches_of(component)
        jobs = [*self.children(component, JOB)]
        for cache in caches:
            if cache.parent != component.urn:
                jobs.extend(self.children(cache, JOB))
        status = component.props.get("status")
        status = status if isinstance(status, Mapping) else {}
        profile_ref = component.props.get("resolvedProfile") or status.get("resolvedProfile")
        model = self._catalog_object(status.get("resolvedModel"), MODEL_COMPONENTS, "modelName")
        if model is None:
            model = self._model_generating(profile_ref)
        return ServiceView(
            component=component,
            namespace=namespace or "default",
            name=name,
            inference_services=isvcs,
            routes=self.children(component, HTTP_ROUTE),
            scaled_objects=self.children(component, SCALED_OBJECT),
            caches=tuple(caches),
            download_jobs=tuple(jobs),
            model=model,
            profile=self._catalog_object(profile_ref, PROFILE_COMPONENTS, "profileName"),
        )

    def _model_generating(self, profile_ref: Any) -> Resource | None:
        """The model whose generated profiles include the one the service resolved (a service
        named by model binds a profile generated from it, and its status names that profile)."""
        if not isinstance(profile_ref, Mapping):
            return None
        for resource in self.resources:
            status = resource.props.get("status")
            generated = status.get("generatedProfiles") if isinstance(status, Mapping) else None
            if resource.type in MODEL_COMPONENTS and profile_ref.get("name") in _list(generated):
                return resource
        return None

    def _caches_of(self, component: Resource) -> list[Resource]:
        """The cache components and PVCs the service mounts: its own children, and the Shared
        caches its status names (components of their own, outside the service)."""
        status = component.props.get("status")
        cache = status.get("cache") if isinstance(status, Mapping) else None
        claims = set(_list(cache.get("persistentVolumeClaims"))) if isinstance(cache, Mapping) else set()
        found = [*self.children(component, CACHE_COMPONENTS), *self.children(component, PVC)]
        for resource in self.resources:
            mounted = resource.type in CACHE_COMPONENTS and resource.props.get("pvcName") in claims
            if mounted and resource not in found:
                found.append(resource)
        return found

    def _catalog_object(self, ref: Any, types: tuple[str, ...], name_key: str) -> Resource | None:
        """The catalog component a service resolved to, by the reference in its status."""
        if not isinstance(ref, Mapping):
            return None
        name, namespace = ref.get("name"), ref.get("namespace") or ""
        for resource in self.resources:
            if resource.type not in types:
                continue
            own = resource.props.get(name_key) or resource.name
            if own != name:
                continue
            cluster = resource.type.startswith("aim:index:AIMCluster")
            if cluster or not namespace or _namespace_of(resource) in ("", namespace):
                return resource
        return None


def _namespace_of(resource: Resource) -> str:
    spec_ns = resource.props.get("namespace")
    return spec_ns if isinstance(spec_ns, str) else ""


def _path(value: Any, *keys: str) -> Any:
    for key in keys:
        if not isinstance(value, Mapping):
            return None
        value = value.get(key)
    return value


def _list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, Sequence) and not isinstance(value, str | bytes) else []


def _text(value: Any) -> str:
    return value if isinstance(value, str) and is_known(value) else ""
