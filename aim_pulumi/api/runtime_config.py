"""AIMRuntimeConfig and AIMClusterRuntimeConfig (v1alpha1): defaults that workloads inherit."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import Field

from aim_pulumi.api.admission import Problems
from aim_pulumi.api.base import AIM_GROUP, AIMKind, Scope
from aim_pulumi.api.common import GenericStatus, RuntimeConfigBlock, RuntimeConfigModel
from aim_pulumi.api.errors import AIMValidationError


class RuntimeConfigSpec(RuntimeConfigBlock):
    model: RuntimeConfigModel | None = None
    """Settings for models: the profile-generation fallbacks of ID-backed models."""


class ClusterRuntimeConfigSpec(RuntimeConfigSpec):
    artifact_storage_quota: Any = None
    """Accepted for operator manifests and ignored: no storage quota is enforced."""


class AIMRuntimeConfig(AIMKind):
    KIND: ClassVar[str] = "AIMRuntimeConfig"
    SCOPE: ClassVar[Scope] = "Namespace"
    SERVED_VERSIONS: ClassVar[tuple[str, ...]] = ("v1alpha1",)

    api_version: str = f"{AIM_GROUP}/v1alpha1"
    kind: Literal["AIMRuntimeConfig"] = "AIMRuntimeConfig"
    spec: RuntimeConfigSpec = Field(default_factory=RuntimeConfigSpec)
    status: GenericStatus | None = None

    def own_rules(self) -> list[AIMValidationError]:
        return [*super().own_rules(), *runtime_config_rules(self)]


class AIMClusterRuntimeConfig(AIMKind):
    KIND: ClassVar[str] = "AIMClusterRuntimeConfig"
    SCOPE: ClassVar[Scope] = "Cluster"
    SERVED_VERSIONS: ClassVar[tuple[str, ...]] = ("v1alpha1",)

    api_version: str = f"{AIM_GROUP}/v1alpha1"
    kind: Literal["AIMClusterRuntimeConfig"] = "AIMClusterRuntimeConfig"
    spec: ClusterRuntimeConfigSpec = Field(default_factory=ClusterRuntimeConfigSpec)
    status: GenericStatus | None = None

    def own_rules(self) -> list[AIMValidationError]:
        return [*super().own_rules(), *runtime_config_rules(self)]


# --- admission rules of this kind (behaviour §2) -------------------------------------------------


def runtime_config_rules(rc: AIMRuntimeConfig | AIMClusterRuntimeConfig) -> Problems:
    """R1-R5 are single-block rules enforced on the blocks themselves; nothing spans the kind."""
    return []
