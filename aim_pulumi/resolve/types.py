"""Plain result types shared by the resolver, the manifest builders and the Pulumi layer.

They are frozen dataclasses holding plain JSON-like values (camelCase Kubernetes shapes where they
end up in a manifest), so that a plan can be compared, hashed, printed and tested without Pulumi.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Scope = Literal["Namespace", "Cluster"]
Level = Literal["info", "warn"]


@dataclass(frozen=True)
class ObjectRef:
    """A typed reference as the operator records it in status (`resolvedProfile`, ...)."""

    kind: str
    name: str
    namespace: str
    scope: Scope
    uid: str

    def as_dict(self) -> dict[str, str]:
        return {
            "kind": self.kind,
            "name": self.name,
            "namespace": self.namespace,
            "scope": self.scope,
            "uid": self.uid,
        }


@dataclass(frozen=True)
class Condition:
    """A status condition without timestamps, so identical runs export identical status."""

    type: str
    status: Literal["True", "False", "Unknown"]
    reason: str
    message: str = ""

    def as_dict(self) -> dict[str, str]:
        return {"type": self.type, "status": self.status, "reason": self.reason, "message": self.message}


@dataclass(frozen=True)
class Diagnostic:
    """An operator event turned into an engine diagnostic (`pulumi.log.<level>` on the component)."""

    level: Level
    reason: str
    message: str


@dataclass(frozen=True)
class ResolvedRuntimeConfig:
    """The merged runtime config a consumer uses, and the one object `resolvedRuntimeConfig` names."""

    ref: ObjectRef
    spec: Mapping[str, Any]
    # For `explain`: dotted field path -> the scope ("Cluster" | "Namespace") whose value won.
    contributions: Mapping[str, str] = field(default_factory=dict)
    # The scopes merged, lowest first (`explain` names each); immutable, so every copy shares them.
    scopes: tuple[RuntimeConfigScope, ...] = field(default=(), compare=False, repr=False)


def env_names(spec: Mapping[str, Any] | None) -> frozenset[str]:
    """The names a runtime-config-shaped spec's `env` sets."""
    env = (spec or {}).get("env")
    return frozenset(str(e.get("name")) for e in env or () if isinstance(e, Mapping))


@dataclass(frozen=True)
class RuntimeConfigScope:
    """One runtime config merged into a consumer's (`AIMClusterRuntimeConfig default`, then the
    namespace's of the same name), kept for `explain`: its label, its spec as JSON text (read back
    by `spec`, so no plan can change what another explains) and the names its `env` sets."""

    label: str
    text: str
    env_names: frozenset[str]

    @staticmethod
    def of(label: str, spec: Mapping[str, Any]) -> RuntimeConfigScope:
        return RuntimeConfigScope(label, json.dumps(spec, default=str), env_names(spec))

    @property
    def spec(self) -> dict[str, Any]:
        spec: dict[str, Any] = json.loads(self.text)
        return spec


@dataclass(frozen=True)
class ContainerPlan:
    """The inference container and pod identity, every precedence rule already applied."""

    image: str
    env: tuple[Mapping[str, Any], ...]
    resources: Mapping[str, Any]
    image_pull_secrets: tuple[str, ...] = ()
    service_account_name: str | None = None
    priority_class_name: str | None = None
    command: tuple[str, ...] | None = None
    args: tuple[str, ...] | None = None
    # For `explain`: the env layers merged, lowest first, and each variable's name -> the layers that
    # set it; the last one's value is in `env` (`aim_pulumi.resolve.children.container.inference_env_layers`).
    env_layers: tuple[str, ...] = field(default=(), compare=False, repr=False)
    env_sources: Mapping[str, tuple[str, ...]] = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class ProfileConfigPlan:
    """The profile ConfigMap (behaviour §13.1) mounted into the AIM runtime."""

    name: str
    file_name: str
    content: str
    mount_path: str
    labels: Mapping[str, str]


@dataclass(frozen=True)
class RoutePlan:
    """The HTTPRoute of a service whose routing is enabled and renderable (behaviour §8)."""

    name: str
    namespace: str
    path: str
    parent_ref: Mapping[str, Any]
    backend_service: str
    hostnames: tuple[str, ...] = ()
    annotations: Mapping[str, str] = field(default_factory=dict)
    request_timeout: str | None = None
    labels: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class ScaledObjectPlan:
    """The KEDA ScaledObject (behaviour §9); `triggers` are KEDA trigger dicts in order."""

    name: str
    namespace: str
    target_name: str
    min_replicas: int
    max_replicas: int
    triggers: tuple[Mapping[str, Any], ...]
    labels: Mapping[str, str]
    polling_interval: int | None = None
    cooldown_period: int | None = None


@dataclass(frozen=True)
class ScalingPlan:
    """Replica bounds of the predictor and the autoscaler that owns them."""

    min_replicas: int
    max_replicas: int
    autoscaler_class: Literal["external", "none"]
    scaled_object: ScaledObjectPlan | None = None


@dataclass(frozen=True)
class CachePlan:
    """One model source's cache: a PVC and the Job that fills it (behaviour §12)."""

    mode: Literal["Shared", "Dedicated"]
    namespace: str
    profile_name: str
    source: Mapping[str, Any]
    pvc_name: str
    job_name: str
    size_gi: int
    access_mode: str
    mount_path: str
    job_image: str
    job_env: tuple[Mapping[str, Any], ...]
    pvc_labels: Mapping[str, str]
    job_labels: Mapping[str, str]
    storage_class_name: str | None = None
    image_pull_secrets: tuple[str, ...] = ()
    service_account_name: str | None = None
    ca_bundle: Mapping[str, Any] | None = None  # {"kind": ConfigMap|Secret, "name", "key"}
    timeout_seconds: int = 3600
    skip_await: bool = False
    # A cache adopted from the operator: the live values its PVC and Job keep, by kind
    # (`aim_pulumi.adopt.record.keep_fields`); empty for every other cache.
    adopted: Mapping[str, Mapping[str, Any]] = field(default_factory=dict, compare=False)

    @property
    def key(self) -> tuple[str, ...]:
        """Identity of a Shared cache: one per (namespace, profile, source URI) in a stack."""
        return (self.namespace, self.profile_name, str(self.source.get("sourceUri", "")))


@dataclass(frozen=True)
class AwaitPlan:
    """How Pulumi waits for the InferenceService (behaviour §13.4)."""

    wait_for: str | None = "condition=Ready"
    timeout_seconds: int | None = 1800
    skip_await: bool = False
