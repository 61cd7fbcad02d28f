"""The plan of one AIMService: everything the manifest builders and the Pulumi layer need, decided.

It lives with the planning room because it carries the selection that produced it (what `explain`
reports); the parts it is made of are the plain types of `aim_pulumi.resolve.types`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from aim_pulumi.resolve.catalog.pipelines import PipelineSummary
from aim_pulumi.resolve.runtime_config.merge import (
    INLINE_RUNTIME_CONFIG,
    SERVICE_FIELDS,
    FieldSource,
    Layer,
    field_sources,
    inline_runtime_config_layer,
    service_inline_layer,
)
from aim_pulumi.resolve.selection.select import ProfileSelection
from aim_pulumi.resolve.types import (
    AwaitPlan,
    CachePlan,
    Condition,
    ContainerPlan,
    Diagnostic,
    ObjectRef,
    ProfileConfigPlan,
    ResolvedRuntimeConfig,
    RoutePlan,
    RuntimeConfigScope,
    ScalingPlan,
)


@dataclass(frozen=True)
class ServicePlan:
    """Everything the manifest builders need for one AIMService, decided at deploy time.

    `profile_spec` is the effective profile spec (overlay applied) as a camelCase dict; the
    builders shape what this object holds and decide nothing themselves.
    """

    name: str
    namespace: str
    uid: str
    pipeline: str  # the pipeline that ran: "profile", or the catalog's extension's ("template")
    isvc_name: str
    route_name: str
    predictor_name: str
    profile_name: str
    profile_spec: Mapping[str, Any]
    profile_hash: str
    container: ContainerPlan
    scaling: ScalingPlan
    isvc_labels: Mapping[str, str]
    deployment_mode: str = "Standard"
    # Propagated service annotations, model id and metrics annotations (resolve/children/annotations.py).
    isvc_annotations: Mapping[str, str] = field(default_factory=dict)
    wait: AwaitPlan = field(default_factory=AwaitPlan)
    profile_config: ProfileConfigPlan | None = None
    route: RoutePlan | None = None
    caches: tuple[CachePlan, ...] = ()
    resolved_profile: ObjectRef | None = None
    profile_overlay: str | None = None
    resolved_model: ObjectRef | None = None
    also_resolved: tuple[tuple[str, ObjectRef], ...] = ()
    """Declared objects the pipeline resolved beyond the profile and the model, by status field."""
    summary: PipelineSummary | None = None
    """How a folder pipeline words its choice (None: the profile selection says it)."""
    runtime_config: ResolvedRuntimeConfig | None = None
    conditions: tuple[Condition, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()
    status: Mapping[str, Any] = field(default_factory=dict)
    selection: ProfileSelection | None = field(default=None, compare=False, repr=False)
    """The profile selection this plan deployed (profile pipeline): what `explain` reports."""
    runtime_config_scopes: tuple[RuntimeConfigScope, ...] = field(default=(), compare=False, repr=False)
    """The runtime configs merged for the service, lowest first (`explain`)."""
    service_spec: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """The service's spec as planned: its inline `spec.runtimeConfig` and own fields are the
    runtime-config layers above the scopes."""
    derivation: Mapping[str, Any] | None = field(default=None, compare=False, repr=False)
    """When a profile set derived the resolved profile: its set, source, overrides and image
    decision (`aim_pulumi/resolve/derivation/derive.py:derivation_facts`, for `explain`)."""

    def runtime_config_layers(self) -> list[Layer]:
        """The runtime-config layers the service reads, lowest first: the runtime config's scopes,
        its inline `spec.runtimeConfig`, then its own `storage`, `routing` and `scaleFromZero`."""
        return [
            *(Layer(scope.label, scope.spec) for scope in self.runtime_config_scopes),
            inline_runtime_config_layer(self.service_spec, label=INLINE_RUNTIME_CONFIG),
            service_inline_layer(self.service_spec, label=SERVICE_FIELDS, include_env=False),
        ]

    def runtime_config_sources(self) -> list[FieldSource]:
        """Every runtime-config field the service reads, with the layer that set it (`explain`)."""
        return field_sources(self.runtime_config_layers())
