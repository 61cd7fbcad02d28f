"""Typed `spec` inputs of the AIM components, generated from the API models: do not edit.

Regenerate with `python scripts/generate_types.py`. Type checkers see closed sets as `Literal`
and a quantity as `str | int | float`; at run time (what the component provider's schema is
inferred from) they are `StrEnum`s and `str`, because the schema has no unions.
"""

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Literal, Required, TypeAlias, TypedDict

import pulumi

if TYPE_CHECKING:
    Quantity: TypeAlias = str | int | float
    AcceleratorType: TypeAlias = Literal["gpu", "cpu"]
    AcceleratorVendor: TypeAlias = Literal["amd", "nvidia"]
    AutoScalingMetricType: TypeAlias = Literal["PodMetric"]
    AutoSelectionPolicy: TypeAlias = Literal["optimized", "any"]
    CaBundleRefKind: TypeAlias = Literal["ConfigMap", "Secret"]
    GatewayProvider: TypeAlias = Literal["envoyGateway", "kgateway", "custom", "none"]
    Metric: TypeAlias = Literal["latency", "throughput"]
    MetricTargetType: TypeAlias = Literal["Value", "AverageValue", "Utilization"]
    ModelRefScope: TypeAlias = Literal["Auto", "Namespace", "Cluster"]
    Precision: TypeAlias = Literal["fp4", "fp8", "fp16", "fp32", "bf16", "int4", "int8"]
    ProfileSelectorMinimumType: TypeAlias = Literal["optimized", "general", "preview", "unoptimized", "any"]
    ProfileType: TypeAlias = Literal["optimized", "general", "preview", "unoptimized"]
    ReconcilerPipeline: TypeAlias = Literal["profile", "template"]
    S3AuthMode: TypeAlias = Literal["chain", "static", "anonymous"]
    ServiceCachingMode: TypeAlias = Literal["Shared", "Dedicated"]
else:
    Quantity = str

    class AcceleratorType(StrEnum):
        """Allowed values of AcceleratorType."""

        GPU = "gpu"
        CPU = "cpu"

    class AcceleratorVendor(StrEnum):
        """Allowed values of AcceleratorVendor."""

        AMD = "amd"
        NVIDIA = "nvidia"

    class AutoScalingMetricType(StrEnum):
        """Allowed values of AutoScalingMetricType."""

        POD_METRIC = "PodMetric"

    class AutoSelectionPolicy(StrEnum):
        """Allowed values of AutoSelectionPolicy."""

        OPTIMIZED = "optimized"
        ANY = "any"

    class CaBundleRefKind(StrEnum):
        """Allowed values of CaBundleRefKind."""

        CONFIG_MAP = "ConfigMap"
        SECRET = "Secret"

    class GatewayProvider(StrEnum):
        """Which gateway's activation metric wakes a service from zero (`none` disables it)."""

        ENVOY_GATEWAY = "envoyGateway"
        KGATEWAY = "kgateway"
        CUSTOM = "custom"
        NONE = "none"

    class Metric(StrEnum):
        """Allowed values of Metric."""

        LATENCY = "latency"
        THROUGHPUT = "throughput"

    class MetricTargetType(StrEnum):
        """Allowed values of MetricTargetType."""

        VALUE = "Value"
        AVERAGE_VALUE = "AverageValue"
        UTILIZATION = "Utilization"

    class ModelRefScope(StrEnum):
        """Allowed values of ModelRefScope."""

        AUTO = "Auto"
        NAMESPACE = "Namespace"
        CLUSTER = "Cluster"

    class Precision(StrEnum):
        """Allowed values of Precision."""

        FP4 = "fp4"
        FP8 = "fp8"
        FP16 = "fp16"
        FP32 = "fp32"
        BF16 = "bf16"
        INT4 = "int4"
        INT8 = "int8"

    class ProfileSelectorMinimumType(StrEnum):
        """Allowed values of ProfileSelectorMinimumType."""

        OPTIMIZED = "optimized"
        GENERAL = "general"
        PREVIEW = "preview"
        UNOPTIMIZED = "unoptimized"
        ANY = "any"

    class ProfileType(StrEnum):
        """Allowed values of ProfileType."""

        OPTIMIZED = "optimized"
        GENERAL = "general"
        PREVIEW = "preview"
        UNOPTIMIZED = "unoptimized"

    class ReconcilerPipeline(StrEnum):
        """Values of the `aim.eai.amd.com/reconciler-pipeline` annotation."""

        PROFILE = "profile"
        TEMPLATE = "template"

    class S3AuthMode(StrEnum):
        """Allowed values of S3AuthMode."""

        CHAIN = "chain"
        STATIC = "static"
        ANONYMOUS = "anonymous"

    class ServiceCachingMode(StrEnum):
        """Allowed values of ServiceCachingMode."""

        SHARED = "Shared"
        DEDICATED = "Dedicated"


class ServiceModel(TypedDict, total=False):
    """The model anchor: exactly one of `name`, `image`, `custom` (A9)."""

    name: pulumi.Input[str]
    image: pulumi.Input[str]
    custom: Any


class ModelRef(TypedDict, total=False):
    """The `ModelRef` object of the AIM API."""

    name: pulumi.Input[str]
    scope: pulumi.Input[ModelRefScope]
    """Default "Auto"."""


class ProfileSelector(TypedDict, total=False):
    """The `ProfileSelector` object of the AIM API."""

    aimId: pulumi.Input[str]
    modelId: pulumi.Input[str]
    profileId: pulumi.Input[str]
    modelRef: ModelRef
    origin: pulumi.Input[str]
    role: pulumi.Input[str]
    engine: pulumi.Input[str]
    metric: pulumi.Input[str]
    precision: pulumi.Input[str]
    type: pulumi.Input[str]
    minimumType: pulumi.Input[ProfileSelectorMinimumType]
    acceleratorModel: pulumi.Input[str]
    acceleratorVendor: pulumi.Input[str]
    acceleratorType: pulumi.Input[str]
    acceleratorCount: pulumi.Input[int]
    acceleratorPartitioningMode: pulumi.Input[str]
    engineArgs: Mapping[str, Any]


class ServiceProfile(TypedDict, total=False):
    """The `ServiceProfile` object of the AIM API."""

    name: pulumi.Input[str]
    selector: ProfileSelector


class KeySelector(TypedDict, total=False):
    """The `KeySelector` object of the AIM API."""

    name: pulumi.Input[str]
    key: Required[pulumi.Input[str]]
    optional: pulumi.Input[bool]


class FieldSelector(TypedDict, total=False):
    """The `FieldSelector` object of the AIM API."""

    apiVersion: pulumi.Input[str]
    fieldPath: Required[pulumi.Input[str]]


class ResourceFieldSelector(TypedDict, total=False):
    """The `ResourceFieldSelector` object of the AIM API."""

    containerName: pulumi.Input[str]
    resource: Required[pulumi.Input[str]]
    divisor: pulumi.Input[Quantity]


class EnvVarSource(TypedDict, total=False):
    """The `EnvVarSource` object of the AIM API."""

    secretKeyRef: KeySelector
    configMapKeyRef: KeySelector
    fieldRef: FieldSelector
    resourceFieldRef: ResourceFieldSelector


class EnvVar(TypedDict, total=False):
    """A Kubernetes EnvVar (A24: a name, and not both `value` and `valueFrom`)."""

    name: Required[pulumi.Input[str]]
    value: pulumi.Input[str]
    valueFrom: EnvVarSource


class ModelSource(TypedDict, total=False):
    """A profile model source; `sourceURI` and a `name` standing for `modelId` are read as aliases."""

    modelId: pulumi.Input[str]
    sourceUri: pulumi.Input[str]
    size: pulumi.Input[Quantity]
    env: Sequence[EnvVar]


class ProfileOverrides(TypedDict, total=False):
    """The `ProfileOverrides` object of the AIM API."""

    modelSources: Sequence[ModelSource]
    acceleratorModel: pulumi.Input[str]
    acceleratorPartitioningMode: pulumi.Input[str]
    acceleratorCount: pulumi.Input[int]
    containerEnv: Sequence[EnvVar]
    engineEnv: Mapping[str, pulumi.Input[str]]
    engineArgs: Mapping[str, Any]


class SelectionCriteria(TypedDict, total=False):
    """The `SelectionCriteria` object of the AIM API."""

    precision: pulumi.Input[str]
    metric: pulumi.Input[str]
    acceleratorModel: pulumi.Input[str]
    acceleratorCount: pulumi.Input[int]
    engine: pulumi.Input[str]


class ServiceTemplateRef(TypedDict, total=False):
    """The `ServiceTemplateRef` object of the AIM API."""

    name: pulumi.Input[str]
    selectionCriteria: SelectionCriteria


class GpuSelector(TypedDict, total=False):
    """The `GpuSelector` object of the AIM API."""

    model: pulumi.Input[str]
    count: pulumi.Input[int]


class ServiceOverrides(TypedDict, total=False):
    """The `ServiceOverrides` object of the AIM API."""

    metric: pulumi.Input[str]
    precision: pulumi.Input[str]
    engineArgs: Mapping[str, Any]
    env: Sequence[EnvVar]
    gpuSelector: GpuSelector


class DownloadFilter(TypedDict, total=False):
    """The `DownloadFilter` object of the AIM API."""

    include: Sequence[pulumi.Input[str]]
    exclude: Sequence[pulumi.Input[str]]


class Storage(TypedDict, total=False):
    """The `Storage` object of the AIM API."""

    defaultStorageClassName: pulumi.Input[str]
    pvcHeadroomPercent: pulumi.Input[int]
    downloadFilter: DownloadFilter


class GatewayRef(TypedDict, total=False):
    """A Gateway API parentRef (A18: `name` is required)."""

    group: pulumi.Input[str]
    kind: pulumi.Input[str]
    name: Required[pulumi.Input[str]]
    namespace: pulumi.Input[str]
    sectionName: pulumi.Input[str]
    port: pulumi.Input[int]


class Routing(TypedDict, total=False):
    """The `Routing` object of the AIM API."""

    enabled: pulumi.Input[bool]
    gatewayRef: GatewayRef
    hostnames: Sequence[pulumi.Input[str]]
    pathTemplate: pulumi.Input[str]
    requestTimeout: pulumi.Input[str]
    annotations: Mapping[str, pulumi.Input[str]]


class ScaleFromZero(TypedDict, total=False):
    """The `ScaleFromZero` object of the AIM API."""

    activationMetricQueryTemplate: pulumi.Input[str]


class LabelPropagation(TypedDict, total=False):
    """The `LabelPropagation` object of the AIM API."""

    enabled: pulumi.Input[bool]
    match: Sequence[pulumi.Input[str]]


class CredentialsSecretRef(TypedDict, total=False):
    """The `CredentialsSecretRef` object of the AIM API."""

    name: Required[pulumi.Input[str]]
    accessKeyIdKey: pulumi.Input[str]
    secretAccessKeyKey: pulumi.Input[str]
    sessionTokenKey: pulumi.Input[str]


class S3Auth(TypedDict, total=False):
    """R4: `static` mode and a credentials secret go together."""

    mode: pulumi.Input[S3AuthMode]
    credentialsSecretRef: CredentialsSecretRef


class CaBundleRef(TypedDict, total=False):
    """The `CaBundleRef` object of the AIM API."""

    kind: Required[pulumi.Input[CaBundleRefKind]]
    name: Required[pulumi.Input[str]]
    key: pulumi.Input[str]


class S3Tls(TypedDict, total=False):
    """R5: a CA bundle and skipping verification contradict each other."""

    caBundleRef: CaBundleRef
    insecureSkipVerify: pulumi.Input[bool]


class S3Settings(TypedDict, total=False):
    """The `S3Settings` object of the AIM API."""

    endpoint: pulumi.Input[str]
    region: pulumi.Input[str]
    addressingStyle: pulumi.Input[str]
    signatureVersion: pulumi.Input[str]
    auth: S3Auth
    tls: S3Tls


class Artifact(TypedDict, total=False):
    """The `Artifact` object of the AIM API."""

    modelDownloadImage: pulumi.Input[str]
    s3: S3Settings


class InlineRuntimeConfig(TypedDict, total=False):
    """The runtime-config fields an AIMService may also carry inline (`spec.runtimeConfig`)."""

    storage: Storage
    routing: Routing
    scaleFromZero: ScaleFromZero
    env: Sequence[EnvVar]
    labelPropagation: LabelPropagation
    artifact: Artifact
    defaultStorageClassName: pulumi.Input[str]
    pvcHeadroomPercent: pulumi.Input[int]


class PodMetricSource(TypedDict, total=False):
    """The `PodMetricSource` object of the AIM API."""

    backend: pulumi.Input[str]
    metricNames: Sequence[pulumi.Input[str]]
    query: pulumi.Input[str]
    operationOverTime: pulumi.Input[str]
    serverAddress: pulumi.Input[str]


class MetricTarget(TypedDict, total=False):
    """The `MetricTarget` object of the AIM API."""

    type: pulumi.Input[MetricTargetType]
    value: pulumi.Input[Quantity]
    averageValue: pulumi.Input[Quantity]
    averageUtilization: pulumi.Input[int]


class PodMetric(TypedDict, total=False):
    """The `PodMetric` object of the AIM API."""

    metric: PodMetricSource
    target: MetricTarget


class AutoScalingMetric(TypedDict, total=False):
    """The `AutoScalingMetric` object of the AIM API."""

    type: Required[pulumi.Input[AutoScalingMetricType]]
    podmetric: PodMetric


class AutoScaling(TypedDict, total=False):
    """The `AutoScaling` object of the AIM API."""

    metrics: Sequence[AutoScalingMetric]
    pollingInterval: pulumi.Input[int]
    cooldownPeriod: pulumi.Input[int]


class ResourceRequirements(TypedDict, total=False):
    """The `ResourceRequirements` object of the AIM API."""

    requests: Mapping[str, pulumi.Input[Quantity]]
    limits: Mapping[str, pulumi.Input[Quantity]]
    claims: Sequence[Mapping[str, Any]]


class LocalObjectReference(TypedDict, total=False):
    """The `LocalObjectReference` object of the AIM API."""

    name: Required[pulumi.Input[str]]


class ServiceCaching(TypedDict, total=False):
    """Cache mode (A14); legacy `Auto`/`Always` read as `Shared`, `Never` as `Dedicated`."""

    mode: pulumi.Input[ServiceCachingMode]
    """Default "Shared"."""
    env: Sequence[EnvVar]


class AIMServiceSpec(TypedDict, total=False):
    """The `AIMServiceSpec` object of the AIM API."""

    model: ServiceModel
    profile: ServiceProfile
    profileOverrides: ProfileOverrides
    template: ServiceTemplateRef
    overrides: ServiceOverrides
    runtimeConfigName: pulumi.Input[str]
    runtimeConfig: InlineRuntimeConfig
    storage: Storage
    routing: Routing
    scaleFromZero: ScaleFromZero
    env: Sequence[EnvVar]
    replicas: pulumi.Input[int]
    minReplicas: pulumi.Input[int]
    maxReplicas: pulumi.Input[int]
    autoScaling: AutoScaling
    resources: ResourceRequirements
    imagePullSecrets: Sequence[LocalObjectReference]
    serviceAccountName: pulumi.Input[str]
    priorityClassName: pulumi.Input[str]
    caching: ServiceCaching
    adapters: Any


class ProfileCaching(TypedDict, total=False):
    """The `ProfileCaching` object of the AIM API."""

    enabled: pulumi.Input[bool]
    env: Sequence[EnvVar]


class AIMProfileSpec(TypedDict, total=False):
    """The `AIMProfileSpec` object of the AIM API."""

    aimId: Required[pulumi.Input[str]]
    image: Required[pulumi.Input[str]]
    modelId: pulumi.Input[str]
    profileId: pulumi.Input[str]
    engine: pulumi.Input[str]
    metric: pulumi.Input[Metric]
    precision: pulumi.Input[Precision]
    type: pulumi.Input[ProfileType]
    primary: pulumi.Input[bool]
    autoSelectionPolicy: pulumi.Input[AutoSelectionPolicy]
    engineArgs: Mapping[str, Any]
    engineEnv: Mapping[str, pulumi.Input[str]]
    acceleratorModel: pulumi.Input[str]
    acceleratorVendor: pulumi.Input[AcceleratorVendor]
    acceleratorType: pulumi.Input[AcceleratorType]
    acceleratorCount: pulumi.Input[int]
    acceleratorPartitioningMode: pulumi.Input[str]
    resources: ResourceRequirements
    modelSources: Sequence[ModelSource]
    containerEnv: Sequence[EnvVar]
    imagePullSecrets: Sequence[LocalObjectReference]
    serviceAccountName: pulumi.Input[str]
    runtimeConfigName: pulumi.Input[str]
    storageClassName: pulumi.Input[str]
    caching: ProfileCaching


class ModelAccelerator(TypedDict, total=False):
    """The model's hardware shape; `count` drives the device request and tensor parallelism (M3)."""

    count: pulumi.Input[int]
    """Default 1."""
    vendor: pulumi.Input[AcceleratorVendor]
    model: pulumi.Input[str]
    partitioningMode: pulumi.Input[str]


class ModelSourceSpec(TypedDict, total=False):
    """The `ModelSourceSpec` object of the AIM API."""

    uri: pulumi.Input[str]
    size: pulumi.Input[Quantity]
    precision: pulumi.Input[str]


class AIMModelSpec(TypedDict, total=False):
    """The `AIMModelSpec` object of the AIM API."""

    image: pulumi.Input[str]
    modelId: pulumi.Input[str]
    aimId: pulumi.Input[str]
    accelerator: ModelAccelerator
    source: ModelSourceSpec
    runtimeConfigName: pulumi.Input[str]
    imagePullSecrets: Sequence[LocalObjectReference]
    serviceAccountName: pulumi.Input[str]
    profiles: Any


class FallbackMatch(TypedDict, total=False):
    """The `FallbackMatch` object of the AIM API."""

    acceleratorVendor: Required[pulumi.Input[str]]
    acceleratorType: Required[pulumi.Input[str]]
    acceleratorModel: pulumi.Input[str]
    acceleratorPartitioningMode: pulumi.Input[str]


class FallbackRuntime(TypedDict, total=False):
    """The `FallbackRuntime` object of the AIM API."""

    image: Required[pulumi.Input[str]]
    engine: Required[pulumi.Input[str]]
    engineArgs: Mapping[str, Any]
    engineEnv: Mapping[str, pulumi.Input[str]]
    containerEnv: Sequence[EnvVar]
    resources: ResourceRequirements
    imagePullSecrets: Sequence[LocalObjectReference]
    serviceAccountName: pulumi.Input[str]


class Fallback(TypedDict, total=False):
    """R1: a generic runtime for a hardware class, turned into profiles for ID-backed models."""

    name: Required[pulumi.Input[str]]
    priority: pulumi.Input[int]
    """Default 0."""
    type: pulumi.Input[ProfileType]
    """Default "unoptimized"."""
    autoSelectionPolicy: pulumi.Input[AutoSelectionPolicy]
    """Default "optimized"."""
    match: Required[FallbackMatch]
    runtime: Required[FallbackRuntime]


class ProfileGeneration(TypedDict, total=False):
    """The `ProfileGeneration` object of the AIM API."""

    fallbacks: Sequence[Fallback]


class RuntimeConfigModelSettings(TypedDict, total=False):
    """The `RuntimeConfigModelSettings` object of the AIM API."""

    profileGeneration: ProfileGeneration


class AIMRuntimeConfigSpec(TypedDict, total=False):
    """The `AIMRuntimeConfigSpec` object of the AIM API."""

    storage: Storage
    routing: Routing
    scaleFromZero: ScaleFromZero
    env: Sequence[EnvVar]
    labelPropagation: LabelPropagation
    artifact: Artifact
    defaultStorageClassName: pulumi.Input[str]
    pvcHeadroomPercent: pulumi.Input[int]
    model: RuntimeConfigModelSettings


class AIMClusterRuntimeConfigSpec(TypedDict, total=False):
    """The `AIMClusterRuntimeConfigSpec` object of the AIM API."""

    storage: Storage
    routing: Routing
    scaleFromZero: ScaleFromZero
    env: Sequence[EnvVar]
    labelPropagation: LabelPropagation
    artifact: Artifact
    defaultStorageClassName: pulumi.Input[str]
    pvcHeadroomPercent: pulumi.Input[int]
    model: RuntimeConfigModelSettings
    artifactStorageQuota: Any


# The Python names Pulumi's generated SDKs give these types.
ServiceModelArgsDict = ServiceModel
ModelRefArgsDict = ModelRef
ProfileSelectorArgsDict = ProfileSelector
ServiceProfileArgsDict = ServiceProfile
KeySelectorArgsDict = KeySelector
FieldSelectorArgsDict = FieldSelector
ResourceFieldSelectorArgsDict = ResourceFieldSelector
EnvVarSourceArgsDict = EnvVarSource
EnvVarArgsDict = EnvVar
ModelSourceArgsDict = ModelSource
ProfileOverridesArgsDict = ProfileOverrides
SelectionCriteriaArgsDict = SelectionCriteria
ServiceTemplateRefArgsDict = ServiceTemplateRef
GpuSelectorArgsDict = GpuSelector
ServiceOverridesArgsDict = ServiceOverrides
DownloadFilterArgsDict = DownloadFilter
StorageArgsDict = Storage
GatewayRefArgsDict = GatewayRef
RoutingArgsDict = Routing
ScaleFromZeroArgsDict = ScaleFromZero
LabelPropagationArgsDict = LabelPropagation
CredentialsSecretRefArgsDict = CredentialsSecretRef
S3AuthArgsDict = S3Auth
CaBundleRefArgsDict = CaBundleRef
S3TlsArgsDict = S3Tls
S3SettingsArgsDict = S3Settings
ArtifactArgsDict = Artifact
InlineRuntimeConfigArgsDict = InlineRuntimeConfig
PodMetricSourceArgsDict = PodMetricSource
MetricTargetArgsDict = MetricTarget
PodMetricArgsDict = PodMetric
AutoScalingMetricArgsDict = AutoScalingMetric
AutoScalingArgsDict = AutoScaling
ResourceRequirementsArgsDict = ResourceRequirements
LocalObjectReferenceArgsDict = LocalObjectReference
ServiceCachingArgsDict = ServiceCaching
AIMServiceSpecArgsDict = AIMServiceSpec
ProfileCachingArgsDict = ProfileCaching
AIMProfileSpecArgsDict = AIMProfileSpec
ModelAcceleratorArgsDict = ModelAccelerator
ModelSourceSpecArgsDict = ModelSourceSpec
AIMModelSpecArgsDict = AIMModelSpec
FallbackMatchArgsDict = FallbackMatch
FallbackRuntimeArgsDict = FallbackRuntime
FallbackArgsDict = Fallback
ProfileGenerationArgsDict = ProfileGeneration
RuntimeConfigModelSettingsArgsDict = RuntimeConfigModelSettings
AIMRuntimeConfigSpecArgsDict = AIMRuntimeConfigSpec
AIMClusterRuntimeConfigSpecArgsDict = AIMClusterRuntimeConfigSpec

__all__ = [
    "AIMClusterRuntimeConfigSpec",
    "AIMClusterRuntimeConfigSpecArgsDict",
    "AIMModelSpec",
    "AIMModelSpecArgsDict",
    "AIMProfileSpec",
    "AIMProfileSpecArgsDict",
    "AIMRuntimeConfigSpec",
    "AIMRuntimeConfigSpecArgsDict",
    "AIMServiceSpec",
    "AIMServiceSpecArgsDict",
    "AcceleratorType",
    "AcceleratorVendor",
    "Artifact",
    "ArtifactArgsDict",
    "AutoScaling",
    "AutoScalingArgsDict",
    "AutoScalingMetric",
    "AutoScalingMetricArgsDict",
    "AutoScalingMetricType",
    "AutoSelectionPolicy",
    "CaBundleRef",
    "CaBundleRefArgsDict",
    "CaBundleRefKind",
    "CredentialsSecretRef",
    "CredentialsSecretRefArgsDict",
    "DownloadFilter",
    "DownloadFilterArgsDict",
    "EnvVar",
    "EnvVarArgsDict",
    "EnvVarSource",
    "EnvVarSourceArgsDict",
    "Fallback",
    "FallbackArgsDict",
    "FallbackMatch",
    "FallbackMatchArgsDict",
    "FallbackRuntime",
    "FallbackRuntimeArgsDict",
    "FieldSelector",
    "FieldSelectorArgsDict",
    "GatewayProvider",
    "GatewayRef",
    "GatewayRefArgsDict",
    "GpuSelector",
    "GpuSelectorArgsDict",
    "InlineRuntimeConfig",
    "InlineRuntimeConfigArgsDict",
    "KeySelector",
    "KeySelectorArgsDict",
    "LabelPropagation",
    "LabelPropagationArgsDict",
    "LocalObjectReference",
    "LocalObjectReferenceArgsDict",
    "Metric",
    "MetricTarget",
    "MetricTargetArgsDict",
    "MetricTargetType",
    "ModelAccelerator",
    "ModelAcceleratorArgsDict",
    "ModelRef",
    "ModelRefArgsDict",
    "ModelRefScope",
    "ModelSource",
    "ModelSourceArgsDict",
    "ModelSourceSpec",
    "ModelSourceSpecArgsDict",
    "PodMetric",
    "PodMetricArgsDict",
    "PodMetricSource",
    "PodMetricSourceArgsDict",
    "Precision",
    "ProfileCaching",
    "ProfileCachingArgsDict",
    "ProfileGeneration",
    "ProfileGenerationArgsDict",
    "ProfileOverrides",
    "ProfileOverridesArgsDict",
    "ProfileSelector",
    "ProfileSelectorArgsDict",
    "ProfileSelectorMinimumType",
    "ProfileType",
    "Quantity",
    "ReconcilerPipeline",
    "ResourceFieldSelector",
    "ResourceFieldSelectorArgsDict",
    "ResourceRequirements",
    "ResourceRequirementsArgsDict",
    "Routing",
    "RoutingArgsDict",
    "RuntimeConfigModelSettings",
    "RuntimeConfigModelSettingsArgsDict",
    "S3Auth",
    "S3AuthArgsDict",
    "S3AuthMode",
    "S3Settings",
    "S3SettingsArgsDict",
    "S3Tls",
    "S3TlsArgsDict",
    "ScaleFromZero",
    "ScaleFromZeroArgsDict",
    "SelectionCriteria",
    "SelectionCriteriaArgsDict",
    "ServiceCaching",
    "ServiceCachingArgsDict",
    "ServiceCachingMode",
    "ServiceModel",
    "ServiceModelArgsDict",
    "ServiceOverrides",
    "ServiceOverridesArgsDict",
    "ServiceProfile",
    "ServiceProfileArgsDict",
    "ServiceTemplateRef",
    "ServiceTemplateRefArgsDict",
    "Storage",
    "StorageArgsDict",
]
