"""The AIM guardrails: what a platform team may require of every AIMService a stack deploys.

Each guardrail is a pure check of a `StackView` (`aim_pulumi/policy/stack.py`) under a plain
configuration mapping, returning its violations; `aim_pulumi/policy/pack.py` wraps each as a
CrossGuard policy (`pulumi-policy`), and `aim_pulumi/policy/offline.py` runs the same policies on
an offline plan. The configuration schemas below are what the policy SDK hands the engine: their
defaults apply when a pack's configuration leaves a property out, under the engine and offline.

The operator has only per-object CEL rules; these are rules across objects and namespaces (GPUs
per namespace) and about what the components decided (the image a profile resolved to, whether a
cache was planned), which no single CRD can check.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal

from aim_pulumi.api.base import names_a_credential
from aim_pulumi.policy.stack import Container, ServiceView, StackView, describe, is_known
from aim_pulumi.schemas.quantity import quantity_value

__all__ = ["GUARDRAILS", "Guardrail", "Violation", "image_reference"]

Enforcement = Literal["advisory", "mandatory", "remediate", "disabled"]


@dataclass(frozen=True)
class Violation:
    """One finding: the message names the service (and the child), the URN is the resource's."""

    message: str
    urn: str


Check = Callable[[StackView, Mapping[str, Any]], list[Violation]]


@dataclass(frozen=True)
class Guardrail:
    """A guardrail as the policy SDK describes a policy: name, words, default level, config schema."""

    name: str
    description: str
    remediation: str
    enforcement: Enforcement
    severity: Literal["low", "medium", "high", "critical"]
    config: Mapping[str, Mapping[str, Any]]
    check: Check

    def defaults(self) -> dict[str, Any]:
        """The configuration a pack that says nothing about this guardrail gets."""
        return {key: prop["default"] for key, prop in self.config.items() if "default" in prop}

    def run(self, view: StackView, config: Mapping[str, Any] | None = None) -> list[Violation]:
        """The violations under `config` (each property missing from it takes its default)."""
        return self.check(view, {**self.defaults(), **(config or {})})


# Images ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ImageReference:
    """An image reference split as the container runtime reads it."""

    registry: str
    repository: str
    tag: str | None
    digest: str | None


def image_reference(image: str) -> ImageReference:
    """Split `registry/repository:tag@digest` as Docker does: the first path part is a registry only
    when it has a dot or a port or is `localhost`; otherwise the registry is Docker Hub."""
    rest, _, digest = image.partition("@")
    first, slash, remainder = rest.partition("/")
    if slash and ("." in first or ":" in first or first == "localhost"):
        registry, path = first, remainder
    else:
        registry, path = "docker.io", rest
    name, colon, tag = path.rpartition(":") if ":" in path.rsplit("/", 1)[-1] else (path, "", "")
    return ImageReference(registry, name if colon else path, tag or None, digest or None)


def _containers(view: StackView) -> Iterator[tuple[ServiceView, Container, str]]:
    for service in view.services():
        for container in service.containers():
            if container.image is not None:
                yield service, container, container.image


def _where(service: ServiceView, container: Container) -> str:
    return f"{service.label}: {describe(container.owner)} {container.path}"


def _allowed_images(view: StackView, config: Mapping[str, Any]) -> list[Violation]:
    registries = [str(r).rstrip("/") for r in config.get("registries") or []]
    tag_patterns = [re.compile(str(p)) for p in config.get("tagPatterns") or []]
    forbidden = {str(t) for t in config.get("forbiddenTags") or []}
    found = []
    for service, container, image in _containers(view):
        ref = image_reference(image)
        where = _where(service, container)
        full = f"{ref.registry}/{ref.repository}"
        if registries and not any(
            full == r or full.startswith(r + "/") or ref.registry == r for r in registries
        ):
            allowed = ", ".join(registries)
            found.append(
                Violation(
                    f"{where}: image {image} is not from an allowed registry ({allowed})", container.owner.urn
                )
            )
        tag = ref.tag or ("" if ref.digest else "latest")
        if tag and tag in forbidden:
            found.append(
                Violation(
                    f"{where}: image {image} uses the tag {tag!r}, which is not allowed", container.owner.urn
                )
            )
        elif tag and tag_patterns and not any(p.fullmatch(tag) for p in tag_patterns):
            patterns = ", ".join(p.pattern for p in tag_patterns)
            found.append(
                Violation(
                    f"{where}: image {image}: tag {tag!r} matches none of {patterns}", container.owner.urn
                )
            )
    return found


def _pinned_by_digest(view: StackView, config: Mapping[str, Any]) -> list[Violation]:
    exempt = [str(r).rstrip("/") for r in config.get("exemptRegistries") or []]
    found = []
    for service, container, image in _containers(view):
        ref = image_reference(image)
        if ref.digest and ref.digest.startswith("sha256:"):
            continue
        if ref.registry in exempt:
            continue
        found.append(
            Violation(
                f"{_where(service, container)}: image {image} is not pinned by digest (@sha256:...)",
                container.owner.urn,
            )
        )
    return found


# GPUs ------------------------------------------------------------------------------------------


def _gpus_per_replica(predictor: Mapping[str, Any]) -> Decimal:
    """GPUs one replica asks for: every `*/gpu` resource (amd.com/gpu, nvidia.com/gpu) of its
    containers, the limit where there is one (Kubernetes requires requests = limits for them)."""
    total = Decimal(0)
    containers: list[Mapping[str, Any]] = [
        c for c in predictor.get("containers") or [] if isinstance(c, Mapping)
    ]
    model = predictor.get("model")
    if isinstance(model, Mapping):
        containers.append(model)
    for container in containers:
        resources = container.get("resources")
        if not isinstance(resources, Mapping):
            continue
        limits = _mapping(resources.get("limits"))
        requests = _mapping(resources.get("requests"))
        names = {n for n in [*limits, *requests] if str(n).endswith("/gpu")}
        for name in names:
            value = quantity_value(limits.get(name, requests.get(name)))
            total += value or 0
    return total


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _replicas(predictor: Mapping[str, Any], count: str) -> int:
    low, high = predictor.get("minReplicas"), predictor.get("maxReplicas")
    low = low if isinstance(low, int) else 1
    high = high if isinstance(high, int) else low
    return max(low, high) if count == "max" else low


def service_gpus(service: ServiceView, count: str = "max") -> Decimal:
    """The GPUs a service may hold: per replica times its replicas (the most it scales to, or
    its minimum under `count: min`)."""
    return sum(
        (_gpus_per_replica(predictor) * _replicas(predictor, count) for _, predictor in service.predictors()),
        Decimal(0),
    )


def _gpu_quota(view: StackView, config: Mapping[str, Any]) -> list[Violation]:
    count = str(config.get("count") or "max")
    per_service = config.get("maxPerService")
    per_namespace = config.get("maxPerNamespace") or {}
    default_namespace = config.get("defaultMaxPerNamespace")
    found = []
    totals: dict[str, Decimal] = {}
    first_urn: dict[str, str] = {}
    for service in view.services():
        gpus = service_gpus(service, count)
        totals[service.namespace] = totals.get(service.namespace, Decimal(0)) + gpus
        first_urn.setdefault(service.namespace, service.component.urn)
        if isinstance(per_service, int) and gpus > per_service:
            found.append(
                Violation(
                    f"{service.label}: asks for {_n(gpus)} GPUs ({count} replicas), more than the "
                    f"{per_service} a service may have",
                    service.component.urn,
                )
            )
    for namespace, total in sorted(totals.items()):
        limit = (
            per_namespace.get(namespace, default_namespace) if isinstance(per_namespace, Mapping) else None
        )
        if isinstance(limit, int) and total > limit:
            names = ", ".join(s.label for s in view.services() if s.namespace == namespace)
            found.append(
                Violation(
                    f"namespace {namespace}: its services ask for {_n(total)} GPUs ({count} replicas), "
                    f"more than its {limit} ({names})",
                    first_urn[namespace],
                )
            )
    return found


def _n(value: Decimal) -> str:
    return str(int(value)) if value == value.to_integral_value() else str(value)


# Caching ---------------------------------------------------------------------------------------


def model_size(service: ServiceView) -> Decimal | None:
    """The model's declared size in bytes: its AIMModel's `spec.source.size`, else the sum of
    its AIMProfile's `spec.modelSources[].size`; None when the stack declares none (a catalog read as
    data, a size the plan would have to list from the source)."""
    if service.model is not None:
        spec = service.model.props.get("spec")
        source = spec.get("source") if isinstance(spec, Mapping) else None
        if isinstance(source, Mapping) and is_known(source.get("size")):
            return quantity_value(source["size"])
    if service.profile is not None:
        spec = service.profile.props.get("spec")
        sources = spec.get("modelSources") if isinstance(spec, Mapping) else None
        sizes = [quantity_value(s.get("size")) for s in sources or [] if isinstance(s, Mapping)]
        if sizes and all(size is not None for size in sizes):
            return sum((s for s in sizes if s is not None), Decimal(0))
    return None


def _cache_required(view: StackView, config: Mapping[str, Any]) -> list[Violation]:
    threshold = quantity_value(config.get("minSize"))
    if threshold is None:
        return []
    found = []
    for service in view.services():
        cached = bool(service.caches) or isinstance(service.status.get("cache"), Mapping)
        size = model_size(service)
        if cached or size is None or size < threshold:
            continue
        found.append(
            Violation(
                f"{service.label}: its model is {_gi(size)} (at least {config['minSize']}) and it has "
                "no cache: set spec.caching.mode to Shared or Dedicated",
                service.component.urn,
            )
        )
    return found


def _gi(size: Decimal) -> str:
    return f"{_n((size / 2**30).quantize(Decimal('0.1')).normalize())}Gi"


# Scaling ---------------------------------------------------------------------------------------


def _scale_to_zero_needs_routing(view: StackView, config: Mapping[str, Any]) -> list[Violation]:
    found = []
    for service in view.services():
        to_zero = any(predictor.get("minReplicas") == 0 for _, predictor in service.predictors())
        runtime = service.status.get("runtime")
        if isinstance(runtime, Mapping) and runtime.get("minReplicas") == 0:
            to_zero = True
        for scaled in service.scaled_objects:
            spec = scaled.props.get("spec")
            if isinstance(spec, Mapping) and spec.get("minReplicaCount") == 0:
                to_zero = True
        routing = service.status.get("routing")
        routed = bool(service.routes) or (isinstance(routing, Mapping) and bool(routing.get("path")))
        if to_zero and not routed:
            found.append(
                Violation(
                    f"{service.label}: scales to zero replicas without routing: nothing would wake it "
                    "(set spec.routing.enabled and a gatewayRef, or minReplicas >= 1)",
                    service.component.urn,
                )
            )
    return found


# Credentials -----------------------------------------------------------------------------------


def _no_plain_credentials(view: StackView, config: Mapping[str, Any]) -> list[Violation]:
    allowed = {str(n) for n in config.get("allowedNames") or []}
    found = []
    for service in view.services():
        for container in service.containers():
            for env in container.spec.get("env") or []:
                if not isinstance(env, Mapping):
                    continue
                name = env.get("name")
                if not isinstance(name, str) or name in allowed or "value" not in env:
                    continue
                if names_a_credential(name):
                    found.append(
                        Violation(
                            f"{_where(service, container)}: env {name} holds a credential as a plain "
                            "value: pass it as a Pulumi secret (it then goes to a Secret) or "
                            "valueFrom.secretKeyRef",
                            container.owner.urn,
                        )
                    )
    return found


# The guardrails --------------------------------------------------------------------------------

_STRINGS = {"type": "array", "items": {"type": "string"}}

GUARDRAILS: tuple[Guardrail, ...] = (
    Guardrail(
        name="aim-allowed-images",
        description="Every image an AIMService runs (predictor, download Jobs) comes from an allowed "
        "registry and has an allowed tag.",
        remediation="Use a profile whose image is in an allowed registry (or mirror it there), with a "
        "tag the policy allows.",
        enforcement="advisory",
        severity="high",
        config={
            "registries": {
                **_STRINGS,
                "default": [],
                "description": "Registries or repository prefixes (`docker.io`, `ghcr.io/silogen`); "
                "empty: any.",
            },
            "tagPatterns": {
                **_STRINGS,
                "default": [],
                "description": "Regular expressions a tag must match whole; empty: any tag.",
            },
            "forbiddenTags": {
                **_STRINGS,
                "default": ["latest"],
                "description": "Tags never allowed (an image without tag or digest counts as `latest`).",
            },
        },
        check=_allowed_images,
    ),
    Guardrail(
        name="aim-images-pinned-by-digest",
        description="Every image an AIMService runs is pinned by digest (`@sha256:...`), so a tag moved "
        "in the registry cannot change what runs.",
        remediation="Reference the image by digest in the profile or runtime config (`image@sha256:...`).",
        enforcement="advisory",
        severity="medium",
        config={
            "exemptRegistries": {
                **_STRINGS,
                "default": [],
                "description": "Registries whose images may be referenced by tag alone.",
            },
        },
        check=_pinned_by_digest,
    ),
    Guardrail(
        name="aim-gpu-quota",
        description="GPUs per AIMService and per namespace stay within their limits (per replica "
        "times the replicas a service scales to).",
        remediation="Lower replicas or pick a profile with fewer GPUs, or raise the namespace's limit.",
        enforcement="mandatory",
        severity="high",
        config={
            "maxPerService": {"type": "integer", "minimum": 0, "description": "GPUs one service may hold."},
            "maxPerNamespace": {
                "type": "object",
                "additionalProperties": {"type": "integer", "minimum": 0},
                "default": {},
                "description": "GPUs the services of a namespace may hold together, by namespace.",
            },
            "defaultMaxPerNamespace": {
                "type": "integer",
                "minimum": 0,
                "description": "The limit of a namespace not named in maxPerNamespace; unset: none.",
            },
            "count": {
                "type": "string",
                "enum": ["max", "min"],
                "default": "max",
                "description": "Count the replicas a service may scale to (max) or starts with (min).",
            },
        },
        check=_gpu_quota,
    ),
    Guardrail(
        name="aim-cache-required-above-size",
        description="An AIMService whose model is at least a given size mounts a model cache, so a "
        "restart does not download the weights again.",
        remediation="Set spec.caching.mode to Shared (or Dedicated) on the service.",
        enforcement="advisory",
        severity="medium",
        config={
            "minSize": {
                "type": "string",
                "default": "20Gi",
                "description": "A Kubernetes quantity: models of this size or more need a cache.",
            },
        },
        check=_cache_required,
    ),
    Guardrail(
        name="aim-scale-to-zero-needs-routing",
        description="An AIMService that scales to zero replicas is routed, so a request can wake it.",
        remediation="Enable spec.routing with a gatewayRef, or keep minReplicas at 1 or more.",
        enforcement="mandatory",
        severity="high",
        config={},
        check=_scale_to_zero_needs_routing,
    ),
    Guardrail(
        name="aim-no-plain-credential-env",
        description="No container of an AIMService holds a credential (an env name with token, "
        "secret, password, credential, access key or API key in it) as a plain value.",
        remediation="Pass the value as a Pulumi secret (aim-pulumi moves it into a Secret) or use "
        "valueFrom.secretKeyRef.",
        enforcement="mandatory",
        severity="critical",
        config={
            "allowedNames": {
                **_STRINGS,
                "default": [],
                "description": "Env names that look like credentials but are not (`TOKENIZER_MODE`).",
            },
        },
        check=_no_plain_credentials,
    ),
)
