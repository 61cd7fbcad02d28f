"""AIMClusterModelSource: cluster models kept in step with what a registry publishes.

The operator lists the registry every `syncInterval` and creates one AIMClusterModel per image its
filters match (never deleting one). Here the listing happens when `aim-pulumi discover` runs (or
live, when the lock has no entry), and the program materialises the models from what it recorded
(`aim_pulumi/resolve/catalog/model_sources.py`).
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field

from aim_pulumi.api.base import AIM_GROUP, AIMBase, AIMKind, AIMStatusBase, Scope
from aim_pulumi.api.common import AcceleratorVendor, EnvVar, LocalObjectReference, Precision, Quantity


class ModelSourceFilter(AIMBase):
    image: Annotated[str, Field(max_length=512)]
    """Repository pattern (`org/aim-*`), optionally with a registry and a tag."""
    exclude: list[str] = Field(default_factory=list)
    """Repositories to skip (exact names, registry not compared)."""
    versions: list[str] = Field(default_factory=list)
    """Semantic version constraints every tag must meet (over the spec's)."""


class SourceModelAccelerator(AIMBase):
    count: Annotated[int, Field(ge=0)] | None = None
    """Devices per replica."""
    model: Annotated[str, Field(max_length=64)] | None = None
    """Accelerator model."""
    partitioning_mode: str | None = None
    """Accelerator partitioning mode."""
    vendor: AcceleratorVendor | None = None
    """Accelerator vendor."""


class SourceModelLocation(AIMBase):
    uri: Annotated[str, Field(pattern=r"^(hf|s3)://[^ \t\r\n]+$")] | None = None
    """Where the weights are (`hf://...`, `s3://...`)."""
    size: Quantity | None = None
    """Size of the weights."""
    precision: Precision | None = None
    """Precision of the weights."""
    env: list[EnvVar] = Field(default_factory=list)
    """Environment of the download."""


class SourceModel(AIMBase):
    model_id: Annotated[str, Field(pattern=r"^[a-zA-Z0-9_-]+/[a-zA-Z0-9._-]+$")]
    """The model id of an ID-backed cluster model to declare."""
    aim_id: str | None = None
    """The AIM id of its profiles."""
    source: SourceModelLocation | None = None
    """Its weights (default `hf://<modelId>`)."""
    accelerator: SourceModelAccelerator | None = None
    """Its hardware shape."""


class ModelSourceSpec(AIMBase):
    registry: str | None = None
    """The registry to list (default `docker.io`)."""
    image_pull_secrets: list[LocalObjectReference] = Field(default_factory=list)
    """Pull secrets copied to the models."""
    filters: list[ModelSourceFilter] = Field(default_factory=list)
    """Which images become models (any filter matching); exclusive with `images`."""
    images: list[str] = Field(default_factory=list)
    """Explicit images (`repo:tag`, or `repo` with `versions`); exclusive with `filters`."""
    models: list[SourceModel] = Field(default_factory=list)
    """ID-backed cluster models to declare."""
    sync_interval: str | None = None
    """How often the operator lists the registry; here `aim-pulumi discover` lists it."""
    versions: list[str] = Field(default_factory=list)
    """Semantic version constraints for filters without their own."""
    max_models: Annotated[int, Field(ge=1, le=10000)] | None = None
    """At most this many models (default 100); earlier ones are never dropped."""


class ModelSourceStatus(AIMStatusBase):
    discovered_models: int | None = None
    available_models: int | None = None
    models_limit_reached: bool | None = None
    last_sync_time: str | None = None


class AIMClusterModelSource(AIMKind):
    KIND: ClassVar[str] = "AIMClusterModelSource"
    SCOPE: ClassVar[Scope] = "Cluster"
    SERVED_VERSIONS: ClassVar[tuple[str, ...]] = ("v1alpha1",)

    api_version: str = f"{AIM_GROUP}/v1alpha1"
    kind: Literal["AIMClusterModelSource"] = "AIMClusterModelSource"
    spec: ModelSourceSpec
    status: ModelSourceStatus | None = None
