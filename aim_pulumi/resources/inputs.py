"""Typed inputs of the AIM components, generated from the API models: do not edit.

Every `spec` and nested object is a TypedDict; each component's arguments come three ways, as
in Pulumi's generated SDKs: `<Kind>ArgsDict` (camelCase keys, what the component provider's
schema is inferred from), the `@pulumi.input_type` class `<Kind>Args` and `<Kind>Kwargs`
(the same arguments as snake_case keywords).

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
    CatalogAs: TypeAlias = Literal["components", "data"]
    DerivationRole: TypeAlias = Literal["base", "deployable"]
    GatewayProvider: TypeAlias = Literal["envoyGateway", "kgateway", "custom", "none"]
    Metric: TypeAlias = Literal["latency", "throughput"]
    MetricTargetType: TypeAlias = Literal["Value", "AverageValue", "Utilization"]
    MinimumType: TypeAlias = Literal["optimized", "general", "preview", "unoptimized", "any"]
    ModelRefScope: TypeAlias = Literal["Auto", "Namespace", "Cluster"]
    Precision: TypeAlias = Literal["fp4", "fp8", "fp16", "fp32", "bf16", "int4", "int8"]
    ProfileOrigin: TypeAlias = Literal["discovered", "derived", "generated", "user-authored"]
    ProfileType: TypeAlias = Literal["optimized", "general", "preview", "unoptimized"]
    ReconcilerPipeline: TypeAlias = Literal["profile", "template"]
    S3AuthMode: TypeAlias = Literal["chain", "static", "anonymous"]
    SelectorPrecision: TypeAlias = Literal[
        "auto", "fp4", "fp8", "fp16", "fp32", "fp64", "bf16", "int4", "int8"
    ]
    ServiceCachingMode: TypeAlias = Literal["Shared", "Dedicated"]
    VersionPolicy: TypeAlias = Literal["pinned", "latest", "all"]
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

    class CatalogAs(StrEnum):
        """How an AIMStack declares its catalog objects: a component each, or as its data."""

        COMPONENTS = "components"
        DATA = "data"

    class DerivationRole(StrEnum):
        """Allowed values of DerivationRole."""

        BASE = "base"
        DEPLOYABLE = "deployable"

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

    class MinimumType(StrEnum):
        """Allowed values of MinimumType."""

        OPTIMIZED = "optimized"
        GENERAL = "general"
        PREVIEW = "preview"
        UNOPTIMIZED = "unoptimized"
        ANY = "any"

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

    class ProfileOrigin(StrEnum):
        """Allowed values of ProfileOrigin."""

        DISCOVERED = "discovered"
        DERIVED = "derived"
        GENERATED = "generated"
        USER_AUTHORED = "user-authored"

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

    class SelectorPrecision(StrEnum):
        """Allowed values of SelectorPrecision."""

        AUTO = "auto"
        FP4 = "fp4"
        FP8 = "fp8"
        FP16 = "fp16"
        FP32 = "fp32"
        FP64 = "fp64"
        BF16 = "bf16"
        INT4 = "int4"
        INT8 = "int8"

    class ServiceCachingMode(StrEnum):
        """Allowed values of ServiceCachingMode."""

        SHARED = "Shared"
        DEDICATED = "Dedicated"

    class VersionPolicy(StrEnum):
        """Allowed values of VersionPolicy."""

        PINNED = "pinned"
        LATEST = "latest"
        ALL = "all"


class ServiceModel(TypedDict, total=False):
    """The model anchor: exactly one of `name`, `image`, `custom` (A9)."""

    name: pulumi.Input[str]
    """An AIMModel in the service's namespace, else an AIMClusterModel, by name (resolution by model)."""
    image: pulumi.Input[str]
    """A container image; the service resolves against the profiles of the model that image backs."""
    custom: Any
    """An inline custom model (v1alpha1, bridge window): a base image, one model source, hardware."""


class ModelRef(TypedDict, total=False):
    name: pulumi.Input[str]
    """The model whose profiles the selector considers."""
    scope: pulumi.Input[ModelRefScope]
    """Where the model is looked up: `Auto` tries the namespace, then the cluster. Default "Auto"."""


class ProfileSelector(TypedDict, total=False):
    aimId: pulumi.Input[str]
    """Matches `spec.aimId` of a profile."""
    modelId: pulumi.Input[str]
    """Matches `spec.modelId` of a profile."""
    profileId: pulumi.Input[str]
    """Matches `spec.profileId` of a profile."""
    modelRef: ModelRef
    """Limits the candidates to the profiles of one model."""
    origin: pulumi.Input[str]
    """Matches the `aim.eai.amd.com/profile-origin` label."""
    role: pulumi.Input[str]
    """Matches the `aim.eai.amd.com/profile-role` label."""
    engine: pulumi.Input[str]
    """Matches `spec.engine` (e.g. `vllm`)."""
    metric: pulumi.Input[str]
    """Matches `spec.metric` (`latency` or `throughput`)."""
    precision: pulumi.Input[str]
    """Matches `spec.precision` (e.g. `fp8`)."""
    type: pulumi.Input[str]
    """Matches `spec.type` exactly."""
    minimumType: pulumi.Input[MinimumType]
    """
    The lowest optimization tier admitted; when unset, `optimized`, with a second pass for
    `autoSelectionPolicy: any` profiles.
    """
    acceleratorModel: pulumi.Input[str]
    """Matches `spec.acceleratorModel` (e.g. `MI300X`)."""
    acceleratorVendor: pulumi.Input[str]
    """Matches `spec.acceleratorVendor`."""
    acceleratorType: pulumi.Input[str]
    """Matches `spec.acceleratorType`."""
    acceleratorCount: pulumi.Input[int]
    """Matches `spec.acceleratorCount`."""
    acceleratorPartitioningMode: pulumi.Input[str]
    """Matches `spec.acceleratorPartitioningMode`."""
    engineArgs: Mapping[str, Any]
    """Every key given must equal the profile's engine argument of that key."""


class ServiceProfile(TypedDict, total=False):
    name: pulumi.Input[str]
    """Bind this AIMProfile (namespace) or AIMClusterProfile by name, skipping selection."""
    selector: ProfileSelector
    """Select among the candidate profiles by these fields; the best-ranked match wins."""


class KeySelector(TypedDict, total=False):
    name: pulumi.Input[str]
    """The Secret or ConfigMap holding the value."""
    key: Required[pulumi.Input[str]]
    """The key whose value is read."""
    optional: pulumi.Input[bool]
    """Start the container even when the key or object is missing."""


class FieldSelector(TypedDict, total=False):
    apiVersion: pulumi.Input[str]
    """Schema version the field path is written in (default `v1`)."""
    fieldPath: Required[pulumi.Input[str]]
    """The pod field to read, e.g. `metadata.namespace`."""


class ResourceFieldSelector(TypedDict, total=False):
    containerName: pulumi.Input[str]
    """The container whose resource is read (default this one)."""
    resource: Required[pulumi.Input[str]]
    """The resource to read, e.g. `limits.memory`."""
    divisor: pulumi.Input[Quantity]
    """Unit the value is expressed in (default 1)."""


class EnvVarSource(TypedDict, total=False):
    secretKeyRef: KeySelector
    """A key of a Secret (how secrets reach the container)."""
    configMapKeyRef: KeySelector
    """A key of a ConfigMap."""
    fieldRef: FieldSelector
    """A field of the pod."""
    resourceFieldRef: ResourceFieldSelector
    """A resource request or limit of a container."""


class EnvVar(TypedDict, total=False):
    """A Kubernetes EnvVar (A24: a name, and not both `value` and `valueFrom`)."""

    name: Required[pulumi.Input[str]]
    """Variable name."""
    value: pulumi.Input[str]
    """Literal value (may be a secret Output in a program)."""
    valueFrom: EnvVarSource
    """Read the value from a Secret, ConfigMap, field or resource instead."""


class ModelSource(TypedDict, total=False):
    """A profile model source; `sourceURI` and a `name` standing for `modelId` are read as aliases."""

    modelId: pulumi.Input[str]
    """The model id the weights are known by (e.g. a Hugging Face repository)."""
    sourceUri: pulumi.Input[str]
    """Where the weights come from: `hf://org/model` or `s3://bucket/prefix`."""
    size: pulumi.Input[Quantity]
    """Size of the weights; sizes the cache PVC (S3 prefixes can also be listed)."""
    env: Sequence[EnvVar]
    """Environment variables for downloading this source."""


class ProfileOverrides(TypedDict, total=False):
    modelSources: Sequence[ModelSource]
    """Replace the profile's model sources (custom weights); they key the cache too."""
    acceleratorModel: pulumi.Input[str]
    """Override the profile's accelerator model."""
    acceleratorPartitioningMode: pulumi.Input[str]
    """Override the profile's accelerator partitioning mode."""
    acceleratorCount: pulumi.Input[int]
    """Override the profile's accelerator count."""
    containerEnv: Sequence[EnvVar]
    """Environment variables added to the inference container."""
    engineEnv: Mapping[str, pulumi.Input[str]]
    """Engine environment variables merged over the profile's."""
    engineArgs: Mapping[str, Any]
    """Engine arguments merged over the profile's."""


class DownloadFilter(TypedDict, total=False):
    include: Sequence[pulumi.Input[str]]
    """Glob patterns of files to download."""
    exclude: Sequence[pulumi.Input[str]]
    """Glob patterns of files to skip."""


class Storage(TypedDict, total=False):
    defaultStorageClassName: pulumi.Input[str]
    """Storage class of cache PVCs."""
    pvcHeadroomPercent: pulumi.Input[int]
    """Extra space on top of the model size when sizing a cache PVC."""
    downloadFilter: DownloadFilter
    """Which files of a model source are downloaded."""


class GatewayRef(TypedDict, total=False):
    """A Gateway API parentRef (A18: `name` is required)."""

    group: pulumi.Input[str]
    """API group of the parent (default `gateway.networking.k8s.io`)."""
    kind: pulumi.Input[str]
    """Kind of the parent (default `Gateway`)."""
    name: Required[pulumi.Input[str]]
    """The Gateway the HTTPRoute attaches to."""
    namespace: pulumi.Input[str]
    """The Gateway's namespace; default the service's."""
    sectionName: pulumi.Input[str]
    """A listener of the Gateway."""
    port: pulumi.Input[int]
    """A listener port of the Gateway."""


class Routing(TypedDict, total=False):
    enabled: pulumi.Input[bool]
    """Create an HTTPRoute for the service."""
    gatewayRef: GatewayRef
    """The Gateway the route attaches to."""
    hostnames: Sequence[pulumi.Input[str]]
    """Hostnames the route matches."""
    pathTemplate: pulumi.Input[str]
    """
    Path prefix rendered from the AIMService with JSONPath (`/{.metadata.namespace}/...`); default
    `/<namespace>/<uid>`.
    """
    requestTimeout: pulumi.Input[str]
    """Gateway API request timeout (e.g. `60s`)."""
    annotations: Mapping[str, pulumi.Input[str]]
    """Annotations of the HTTPRoute."""


class ScaleFromZero(TypedDict, total=False):
    activationMetricQueryTemplate: pulumi.Input[str]
    """
    Query of the KEDA trigger that wakes the service; placeholders `${namespace}`, `${serviceName}`,
    `${httpRouteName}`, `${predictorDeployment}`.
    """


class LabelPropagation(TypedDict, total=False):
    enabled: pulumi.Input[bool]
    """Copy matching labels of AIM objects to their children."""
    match: Sequence[pulumi.Input[str]]
    """Label keys to copy; `filepath.Match` patterns such as `org.example/*`."""


class CredentialsSecretRef(TypedDict, total=False):
    name: Required[pulumi.Input[str]]
    """The Secret holding the S3 credentials, in the workload's namespace."""
    accessKeyIdKey: pulumi.Input[str]
    """Key of the access key id in the Secret (default `accessKeyId`)."""
    secretAccessKeyKey: pulumi.Input[str]
    """Key of the secret access key in the Secret (default `secretAccessKey`)."""
    sessionTokenKey: pulumi.Input[str]
    """Key of a session token in the Secret; none is read when unset."""


class S3Auth(TypedDict, total=False):
    """R4: `static` mode and a credentials secret go together."""

    mode: pulumi.Input[S3AuthMode]
    """How the download authenticates: the SDK's credential chain, a static Secret, or anonymously."""
    credentialsSecretRef: CredentialsSecretRef
    """The Secret of `static` mode."""


class CaBundleRef(TypedDict, total=False):
    kind: Required[pulumi.Input[CaBundleRefKind]]
    """What holds the CA bundle."""
    name: Required[pulumi.Input[str]]
    """Name of the ConfigMap or Secret."""
    key: pulumi.Input[str]
    """Key of the bundle in it (default `ca.crt`)."""


class S3Tls(TypedDict, total=False):
    """R5: a CA bundle and skipping verification contradict each other."""

    caBundleRef: CaBundleRef
    """A CA bundle to trust for the S3 endpoint."""
    insecureSkipVerify: pulumi.Input[bool]
    """Skip verifying the endpoint's certificate."""


class S3Settings(TypedDict, total=False):
    endpoint: pulumi.Input[str]
    """The S3 endpoint URL, scheme included (the Job's `AWS_ENDPOINT_URL`)."""
    region: pulumi.Input[str]
    """The S3 region (the Job's `AWS_REGION`)."""
    addressingStyle: pulumi.Input[str]
    """Bucket addressing style, e.g. `path` or `virtual` (`AIM_S3_ADDRESSING_STYLE`)."""
    signatureVersion: pulumi.Input[str]
    """The request signature version, e.g. `s3v4` (`AIM_S3_SIGNATURE_VERSION`)."""
    auth: S3Auth
    """How the download authenticates."""
    tls: S3Tls
    """How the endpoint's certificate is checked."""


class Artifact(TypedDict, total=False):
    modelDownloadImage: pulumi.Input[str]
    """Image of the download Jobs."""
    s3: S3Settings
    """How S3 model sources are reached."""


class InlineRuntimeConfig(TypedDict, total=False):
    """The runtime-config fields an AIMService may also carry inline (`spec.runtimeConfig`)."""

    storage: Storage
    """Cache storage defaults."""
    routing: Routing
    """Routing defaults services inherit when their own `routing` leaves a field unset."""
    scaleFromZero: ScaleFromZero
    """Scale-from-zero activation query."""
    env: Sequence[EnvVar]
    """Environment variables injected into managed workloads."""
    labelPropagation: LabelPropagation
    """Which labels are copied to children."""
    artifact: Artifact
    """Download Job image and S3 settings."""
    defaultStorageClassName: pulumi.Input[str]
    """Storage class of cache PVCs (same as `storage.defaultStorageClassName`)."""
    pvcHeadroomPercent: pulumi.Input[int]
    """Extra cache PVC space (same as `storage.pvcHeadroomPercent`)."""


class PodMetricSource(TypedDict, total=False):
    backend: pulumi.Input[str]
    """Where KEDA reads the metric (e.g. `opentelemetry`)."""
    metricNames: Sequence[pulumi.Input[str]]
    """The metrics the query reads (vLLM OpenTelemetry names)."""
    query: pulumi.Input[str]
    """The metric query, when the backend takes one."""
    operationOverTime: pulumi.Input[str]
    """How samples are aggregated over time (e.g. `last_one`, `avg`)."""
    serverAddress: pulumi.Input[str]
    """Address of the metrics server, when not the default."""


class MetricTarget(TypedDict, total=False):
    type: pulumi.Input[MetricTargetType]
    """How the metric is compared with the target."""
    value: pulumi.Input[Quantity]
    """Target of `Value`."""
    averageValue: pulumi.Input[Quantity]
    """Target per pod, of `AverageValue`."""
    averageUtilization: pulumi.Input[int]
    """Target percentage, of `Utilization`."""


class PodMetric(TypedDict, total=False):
    metric: PodMetricSource
    """Which metric is read, and from where."""
    target: MetricTarget
    """The value KEDA keeps the metric at."""


class AutoScalingMetric(TypedDict, total=False):
    type: Required[pulumi.Input[AutoScalingMetricType]]
    """The kind of metric; only `PodMetric`."""
    podmetric: PodMetric
    """The pod metric and its target."""


class AutoScaling(TypedDict, total=False):
    metrics: Sequence[AutoScalingMetric]
    """The metrics KEDA scales on."""
    pollingInterval: pulumi.Input[int]
    """Seconds between KEDA metric polls."""
    cooldownPeriod: pulumi.Input[int]
    """Seconds after the last active trigger before scaling to zero."""


class ResourceRequirements(TypedDict, total=False):
    requests: Mapping[str, pulumi.Input[Quantity]]
    """Resources the scheduler reserves (`cpu`, `memory`, `amd.com/gpu`, ...)."""
    limits: Mapping[str, pulumi.Input[Quantity]]
    """Upper bounds the container may use."""
    claims: Sequence[Mapping[str, Any]]
    """Dynamic resource claims, passed through unchanged."""


class LocalObjectReference(TypedDict, total=False):
    name: Required[pulumi.Input[str]]
    """Name of the object (a pull Secret) in the same namespace."""


class ServiceCaching(TypedDict, total=False):
    """Cache mode (A14); legacy `Auto`/`Always` read as `Shared`, `Never` as `Dedicated`."""

    mode: pulumi.Input[ServiceCachingMode]
    """
    `Shared`: one cache PVC per (namespace, profile, source), kept beyond any service; `Dedicated`: one per
    service, deleted with it. Default "Shared".
    """
    env: Sequence[EnvVar]
    """Environment variables for the download Job."""


class SelectionCriteria(TypedDict, total=False):
    precision: pulumi.Input[str]
    """Only templates of this precision."""
    metric: pulumi.Input[str]
    """Only templates optimized for this metric (`latency`, `throughput`)."""
    acceleratorModel: pulumi.Input[str]
    """Only templates for this GPU model."""
    acceleratorCount: pulumi.Input[int]
    """Only templates for this GPU count."""
    engine: pulumi.Input[str]
    """Only templates of this inference engine."""


class ServiceTemplateRef(TypedDict, total=False):
    name: pulumi.Input[str]
    """The AIMServiceTemplate / AIMClusterServiceTemplate to use."""
    selectionCriteria: SelectionCriteria
    """Choose a template of the model by these criteria instead."""
    allowUnoptimized: pulumi.Input[bool]
    """
    Let the automatic choice take `unoptimized` templates (an inline custom model's, and a custom profile's
    by default), which it passes over otherwise, as the operator does; a template named by `name` is taken
    whatever its type.
    """


class GpuSelector(TypedDict, total=False):
    model: pulumi.Input[str]
    """GPU model the service needs, over the template's."""
    count: pulumi.Input[int]
    """GPU count the service needs, over the template's."""


class ServiceOverrides(TypedDict, total=False):
    metric: pulumi.Input[str]
    """Optimization metric, over the template's."""
    precision: pulumi.Input[str]
    """Precision, over the template's."""
    engineArgs: Mapping[str, Any]
    """Engine arguments merged over the template's."""
    env: Sequence[EnvVar]
    """Environment variables over the template's."""
    gpuSelector: GpuSelector
    """The GPUs the service runs on, over the template's."""


class AIMServiceSpec(TypedDict, total=False):
    """The `spec` of AIMService (camelCase, as in the CRD)."""

    model: ServiceModel
    """The model to serve: by name (an AIMModel / AIMClusterModel) or by image."""
    profile: ServiceProfile
    """The profile to bind: by name, or chosen by a selector."""
    profileOverrides: ProfileOverrides
    """A service-owned overlay of `profile.name` (needs `profile.name`, not a selector)."""
    runtimeConfigName: pulumi.Input[str]
    """The runtime config to resolve (namespace merged over cluster); default `default`."""
    runtimeConfig: InlineRuntimeConfig
    """Runtime-config fields set inline on this service; they win over the named config."""
    storage: Storage
    """Storage settings for this service's caches, over the runtime config's."""
    routing: Routing
    """Expose the service through a Gateway API HTTPRoute."""
    scaleFromZero: ScaleFromZero
    """The activation query that wakes a service scaled to zero."""
    env: Sequence[EnvVar]
    """Environment variables for the inference container, over the runtime config's."""
    replicas: pulumi.Input[int]
    """Fixed replica count (default 1) when no autoscaling bounds are set."""
    minReplicas: pulumi.Input[int]
    """Lower autoscaling bound; 0 scales to zero (needs routing)."""
    maxReplicas: pulumi.Input[int]
    """Upper autoscaling bound; setting it enables KEDA autoscaling."""
    autoScaling: AutoScaling
    """Custom KEDA metrics (typically vLLM OpenTelemetry metrics)."""
    resources: ResourceRequirements
    """Container resources, merged over the resolved profile's."""
    imagePullSecrets: Sequence[LocalObjectReference]
    """Pull secrets, merged with the profile's."""
    serviceAccountName: pulumi.Input[str]
    """Service account of the inference pods."""
    priorityClassName: pulumi.Input[str]
    """Priority class of the inference pods."""
    caching: ServiceCaching
    """Pre-download the model sources onto a PVC before the InferenceService starts."""
    adapters: Any
    """LoRA adapters: rejected with reason Unsupported."""
    template: ServiceTemplateRef
    """Legacy v1alpha1 template reference or selection criteria."""
    overrides: ServiceOverrides
    """Legacy v1alpha1 overrides of the template's runtime parameters."""


class ProfileCaching(TypedDict, total=False):
    enabled: pulumi.Input[bool]
    """Cache the model sources of services bound to this profile."""
    env: Sequence[EnvVar]
    """Environment variables for the download Job."""


class AIMProfileSpec(TypedDict, total=False):
    """The `spec` of AIMProfile and AIMClusterProfile (camelCase, as in the CRD)."""

    aimId: pulumi.Input[str]
    """
    The AIM id (e.g. `qwen/qwen3-32b`) selectors and models match; unset together with `modelSources` on a
    base (skeleton) profile, which the catalog keeps but no service can bind (behaviour §4.9, reason
    `BaseProfile`).
    """
    image: Required[pulumi.Input[str]]
    """The serving image."""
    modelId: pulumi.Input[str]
    """The model the profile serves."""
    profileId: pulumi.Input[str]
    """Publisher's profile id."""
    engine: pulumi.Input[str]
    """Serving engine (e.g. `vllm`)."""
    metric: pulumi.Input[Metric]
    """What the profile is tuned for."""
    precision: pulumi.Input[Precision]
    """Precision of the weights."""
    type: pulumi.Input[ProfileType]
    """Optimization tier; selection admits `optimized` unless told otherwise."""
    primary: pulumi.Input[bool]
    """Ranks above non-primary profiles of the same tier."""
    autoSelectionPolicy: pulumi.Input[AutoSelectionPolicy]
    """`any` admits a lower tier in the second selection pass."""
    engineArgs: Mapping[str, Any]
    """Engine arguments (written to the profile ConfigMap and vLLM flags)."""
    engineEnv: Mapping[str, pulumi.Input[str]]
    """Engine environment variables."""
    manualSelectionOnly: pulumi.Input[bool]
    """Bound only by name (`spec.profile.name`), never chosen by a selector or by model."""
    variant: pulumi.Input[str]
    """The publisher's variant of the runtime (e.g. `eagle`)."""
    features: Sequence[pulumi.Input[str]]
    """Runtime features the image supports (e.g. `adapters`)."""
    acceleratorModel: pulumi.Input[str]
    """Accelerator model (a node label value)."""
    acceleratorVendor: pulumi.Input[AcceleratorVendor]
    """Accelerator vendor."""
    acceleratorType: pulumi.Input[AcceleratorType]
    """Accelerator type."""
    acceleratorCount: pulumi.Input[int]
    """Devices per replica."""
    acceleratorPartitioningMode: pulumi.Input[str]
    """Accelerator partitioning mode."""
    resources: ResourceRequirements
    """Container resources."""
    modelSources: Sequence[ModelSource]
    """The weights to serve; what caches download."""
    containerEnv: Sequence[EnvVar]
    """Environment variables of the inference container."""
    imagePullSecrets: Sequence[LocalObjectReference]
    """Pull secrets of the inference pods."""
    serviceAccountName: pulumi.Input[str]
    """Service account of the inference pods."""
    runtimeConfigName: pulumi.Input[str]
    """The runtime config the profile's consumers resolve."""
    storageClassName: pulumi.Input[str]
    """Storage class of this profile's caches, over the runtime config's."""
    caching: ProfileCaching
    """Cache the model sources (namespace profiles only)."""


class ModelAccelerator(TypedDict, total=False):
    """The model's hardware shape; `count` drives the device request and tensor parallelism (M3)."""

    count: pulumi.Input[int]
    """Devices per replica: the device request and the engine's tensor-parallel size. Default 1."""
    vendor: pulumi.Input[AcceleratorVendor]
    """Narrows which fallbacks apply."""
    model: pulumi.Input[str]
    """Narrows further, and is stamped on the generated profile."""
    partitioningMode: pulumi.Input[str]
    """Accelerator partitioning mode (e.g. `unpartitioned`)."""


class ModelSourceSpec(TypedDict, total=False):
    uri: pulumi.Input[str]
    """Where the weights come from (`hf://...`, `s3://...`); default from `modelId`."""
    size: pulumi.Input[Quantity]
    """Size of the weights; sizes the cache PVC."""
    precision: pulumi.Input[str]
    """Precision of the weights."""


class DerivationModelRef(TypedDict, total=False):
    name: Required[pulumi.Input[str]]
    """The AIMModel or AIMClusterModel whose profiles are sources (the `source-model` label)."""
    scope: pulumi.Input[ModelRefScope]
    """`Auto` (default): the set's namespace first, then the cluster; or only one of them."""


class DerivationSelector(TypedDict, total=False):
    """Which profiles are sources: every field set must match (an unset field matches anything)."""

    aimId: pulumi.Input[str]
    """Matches the source's `spec.aimId`."""
    modelId: pulumi.Input[str]
    """Matches the source's `spec.modelId`."""
    profileId: pulumi.Input[str]
    """Matches the source's `spec.profileId`."""
    engine: pulumi.Input[str]
    """Matches the source's `spec.engine`."""
    metric: pulumi.Input[Metric]
    """Matches the source's `spec.metric`."""
    precision: pulumi.Input[SelectorPrecision]
    """Matches the source's `spec.precision`."""
    type: pulumi.Input[ProfileType]
    """Matches the source's `spec.type` exactly."""
    minimumType: pulumi.Input[MinimumType]
    """The lowest optimization tier a source may have; unset or `any` admits every tier."""
    acceleratorModel: pulumi.Input[str]
    """Matches the source's `spec.acceleratorModel` (exactly)."""
    acceleratorVendor: pulumi.Input[AcceleratorVendor]
    """Matches the source's `spec.acceleratorVendor` (namespaced sets only)."""
    acceleratorPartitioningMode: pulumi.Input[str]
    """`unpartitioned`, `partitioned`, a scheme prefix (`CPX`) or an exact mode (`CPX-NPS1`)."""
    acceleratorType: pulumi.Input[AcceleratorType]
    """Matches the source's `spec.acceleratorType`."""
    acceleratorCount: pulumi.Input[int]
    """Matches the source's `spec.acceleratorCount`."""
    engineArgs: Mapping[str, Any]
    """Every top-level key given must exist in the source's engine arguments with an equal value."""
    modelRef: DerivationModelRef
    """Only the profiles of this model (by its `aim.eai.amd.com/source-model` label)."""
    role: pulumi.Input[DerivationRole]
    """`deployable` (default) or `base`: a base image's profiles, which derivation makes deployable."""
    origin: pulumi.Input[ProfileOrigin]
    """Only profiles of this origin (the `aim.eai.amd.com/profile-origin` label)."""


class DerivationSourceRef(TypedDict, total=False):
    name: Required[pulumi.Input[str]]
    """A discovery cache (ConfigMap) to read source profiles from instead of the catalog."""


class ModelDerivedFrom(TypedDict, total=False):
    selector: DerivationSelector
    """
    Which profiles the model's profiles are derived from. Default DerivationSelector(aim_id=None,
    model_id=None, profile_id=None, engine=None, metric=None, precision=None, type=None, minimum_type=None,
    accelerator_model=None, accelerator_vendor=None, accelerator_partitioning_mode=None,
    accelerator_type=None, accelerator_count=None, engine_args=None, model_ref=None, role=None, origin=None).
    """
    sourceRef: DerivationSourceRef
    """Read source profiles from a discovery cache instead of selecting catalog profiles."""


class ModelProfileOverrides(TypedDict, total=False):
    aimId: pulumi.Input[str]
    """The derived profile's `spec.aimId` (required with `selector.role: base`)."""
    modelId: pulumi.Input[str]
    """The derived profile's `spec.modelId` (default: the first model source's, when sources are given)."""
    profileId: pulumi.Input[str]
    """The derived profile's `spec.profileId`."""
    modelSources: Sequence[ModelSource]
    """New weights: they replace the source's model sources and rebase the image (see `image`)."""
    image: pulumi.Input[str]
    """The derived profile's image, over every other rule."""
    acceleratorModel: pulumi.Input[str]
    """Replaces the source's accelerator model."""
    acceleratorVendor: pulumi.Input[AcceleratorVendor]
    """Replaces the source's accelerator vendor (namespaced sets only)."""
    acceleratorCount: pulumi.Input[int]
    """Replaces the source's accelerator count."""
    acceleratorPartitioningMode: pulumi.Input[str]
    """Replaces the source's partitioning mode; needs `acceleratorCount`."""
    containerEnv: Sequence[EnvVar]
    """Merged by name over the source's container env."""
    engineEnv: Mapping[str, pulumi.Input[str]]
    """Merged by key over the source's engine env."""
    engineArgs: Mapping[str, Any]
    """Shallow-merged over the source's engine arguments (top-level keys replaced)."""
    features: Sequence[pulumi.Input[str]]
    """Runtime capabilities added to the derived profiles (not modelled: refused when set)."""


class ModelProfiles(TypedDict, total=False):
    """A derived model: its profiles are derived from others by the child AIMProfileSet it creates."""

    derivedFrom: ModelDerivedFrom
    """The source profiles (required)."""
    versionPolicy: pulumi.Input[VersionPolicy]
    """`pinned` (default, with `version`), `latest` (the highest source version), or `all`."""
    version: pulumi.Input[str]
    """The source version a `pinned` policy copies."""
    overrides: ModelProfileOverrides
    """What the derived profiles change (new weights, identity, image, hardware, env, arguments)."""


class AIMModelSpec(TypedDict, total=False):
    """The `spec` of AIMModel and AIMClusterModel (camelCase, as in the CRD)."""

    image: pulumi.Input[str]
    """An AIM image; its profiles must be declared (no discovery Job runs)."""
    modelId: pulumi.Input[str]
    """A model id (e.g. `Qwen/Qwen3-8B`); profiles are generated from the runtime config's fallbacks."""
    aimId: pulumi.Input[str]
    """The AIM id profiles of this model carry."""
    accelerator: ModelAccelerator
    """The model's hardware shape."""
    source: ModelSourceSpec
    """The model's weights."""
    runtimeConfigName: pulumi.Input[str]
    """The runtime config whose fallbacks generate profiles; default `default`."""
    imagePullSecrets: Sequence[LocalObjectReference]
    """Pull secrets of the generated profiles."""
    serviceAccountName: pulumi.Input[str]
    """Service account of the generated profiles."""
    profiles: ModelProfiles
    """Derive the model's profiles from other profiles (a custom or fine-tuned model)."""
    derivedFrom: Any
    """Deprecated spelling of `profiles.derivedFrom`: refused on a new object."""
    profileCopy: Any
    """Deprecated (v1alpha1): refused on a new object; use `profiles`."""
    custom: Any
    """Deprecated (v1alpha1): refused on a new object; use `profiles`."""
    customTemplates: Any
    """Deprecated (v1alpha1): refused on a new object; use `profiles`."""
    modelSources: Any
    """Deprecated (v1alpha1): refused on a new object; use `profiles.overrides.modelSources`."""


class DerivationOverrides(TypedDict, total=False):
    """What every derived profile gets written over its source's spec."""

    aimId: pulumi.Input[str]
    """The derived profile's `spec.aimId` (required with `selector.role: base`)."""
    modelId: pulumi.Input[str]
    """The derived profile's `spec.modelId` (default: the first model source's, when sources are given)."""
    profileId: pulumi.Input[str]
    """The derived profile's `spec.profileId`."""
    modelSources: Sequence[ModelSource]
    """New weights: they replace the source's model sources and rebase the image (see `image`)."""
    image: pulumi.Input[str]
    """The derived profile's image, over every other rule."""
    acceleratorModel: pulumi.Input[str]
    """Replaces the source's accelerator model."""
    acceleratorVendor: pulumi.Input[AcceleratorVendor]
    """Replaces the source's accelerator vendor (namespaced sets only)."""
    acceleratorCount: pulumi.Input[int]
    """Replaces the source's accelerator count."""
    acceleratorPartitioningMode: pulumi.Input[str]
    """Replaces the source's partitioning mode; needs `acceleratorCount`."""
    containerEnv: Sequence[EnvVar]
    """Merged by name over the source's container env."""
    engineEnv: Mapping[str, pulumi.Input[str]]
    """Merged by key over the source's engine env."""
    engineArgs: Mapping[str, Any]
    """Shallow-merged over the source's engine arguments (top-level keys replaced)."""


class AIMProfileSetSpec(TypedDict, total=False):
    """The `spec` of AIMProfileSet and AIMClusterProfileSet (camelCase, as in the CRD)."""

    sourceRef: DerivationSourceRef
    """Read source profiles from a discovery cache instead of selecting catalog profiles."""
    selector: DerivationSelector
    """
    Which profiles are sources. Default DerivationSelector(aim_id=None, model_id=None, profile_id=None,
    engine=None, metric=None, precision=None, type=None, minimum_type=None, accelerator_model=None,
    accelerator_vendor=None, accelerator_partitioning_mode=None, accelerator_type=None,
    accelerator_count=None, engine_args=None, model_ref=None, role=None, origin=None).
    """
    versionPolicy: pulumi.Input[VersionPolicy]
    """`pinned` (default, with `version`), `latest` (the highest source version), or `all`."""
    version: pulumi.Input[str]
    """The source version a `pinned` policy copies (a source's `status.version`, else its image tag)."""
    image: pulumi.Input[str]
    """The derived profiles' image (`overrides.image` wins over it)."""
    overrides: DerivationOverrides
    """What the derived profiles change."""
    imagePullSecrets: Sequence[LocalObjectReference]
    """Pull secrets of the derived profiles (default: each source's)."""
    serviceAccountName: pulumi.Input[str]
    """Service account of the derived profiles (default: each source's)."""


class FallbackMatch(TypedDict, total=False):
    acceleratorVendor: Required[pulumi.Input[str]]
    """The model's accelerator vendor this fallback serves (`amd`, `nvidia`)."""
    acceleratorType: Required[pulumi.Input[AcceleratorType]]
    """`gpu` or `cpu`."""
    acceleratorModel: pulumi.Input[str]
    """Only this accelerator model (e.g. `MI300X`); any when unset."""
    acceleratorPartitioningMode: pulumi.Input[str]
    """Only this partitioning mode of the accelerator."""


class FallbackRuntime(TypedDict, total=False):
    image: Required[pulumi.Input[str]]
    """The serving image of the generated profiles."""
    engine: Required[pulumi.Input[str]]
    """The inference engine the image runs (e.g. `vllm`)."""
    engineArgs: Mapping[str, Any]
    """Engine arguments of the generated profiles."""
    engineEnv: Mapping[str, pulumi.Input[str]]
    """Engine environment variables of the generated profiles."""
    containerEnv: Sequence[EnvVar]
    """Container environment of the generated profiles."""
    resources: ResourceRequirements
    """Container resources of the generated profiles."""
    imagePullSecrets: Sequence[LocalObjectReference]
    """Pull secrets of the image."""
    serviceAccountName: pulumi.Input[str]
    """Service account of the inference pods."""


class Fallback(TypedDict, total=False):
    """R1: a generic runtime for a hardware class, turned into profiles for ID-backed models."""

    name: Required[pulumi.Input[str]]
    """Fallbacks merge by name across namespace and cluster configs."""
    priority: pulumi.Input[int]
    """Higher wins among matching fallbacks. Default 0."""
    type: pulumi.Input[ProfileType]
    """Optimization tier of the generated profiles. Default "unoptimized"."""
    autoSelectionPolicy: pulumi.Input[AutoSelectionPolicy]
    """`any` lets generated profiles into the second selection pass. Default "optimized"."""
    match: Required[FallbackMatch]
    """The hardware class this fallback serves."""
    runtime: Required[FallbackRuntime]
    """The serving runtime of the generated profiles."""


class ProfileGeneration(TypedDict, total=False):
    fallbacks: Sequence[Fallback]
    """Generic runtimes that generate profiles for models declared by `modelId`."""


class RuntimeConfigModelSettings(TypedDict, total=False):
    profileGeneration: ProfileGeneration
    """How profiles are generated for models declared by `modelId`."""


class AIMRuntimeConfigSpec(TypedDict, total=False):
    """The `spec` of AIMRuntimeConfig (camelCase, as in the CRD)."""

    storage: Storage
    """Cache storage defaults."""
    routing: Routing
    """Routing defaults services inherit when their own `routing` leaves a field unset."""
    scaleFromZero: ScaleFromZero
    """Scale-from-zero activation query."""
    env: Sequence[EnvVar]
    """Environment variables injected into managed workloads."""
    labelPropagation: LabelPropagation
    """Which labels are copied to children."""
    artifact: Artifact
    """Download Job image and S3 settings."""
    defaultStorageClassName: pulumi.Input[str]
    """Storage class of cache PVCs (same as `storage.defaultStorageClassName`)."""
    pvcHeadroomPercent: pulumi.Input[int]
    """Extra cache PVC space (same as `storage.pvcHeadroomPercent`)."""
    model: RuntimeConfigModelSettings
    """Settings for models: the profile-generation fallbacks of ID-backed models."""


class AIMClusterRuntimeConfigSpec(TypedDict, total=False):
    """The `spec` of AIMClusterRuntimeConfig (camelCase, as in the CRD)."""

    storage: Storage
    """Cache storage defaults."""
    routing: Routing
    """Routing defaults services inherit when their own `routing` leaves a field unset."""
    scaleFromZero: ScaleFromZero
    """Scale-from-zero activation query."""
    env: Sequence[EnvVar]
    """Environment variables injected into managed workloads."""
    labelPropagation: LabelPropagation
    """Which labels are copied to children."""
    artifact: Artifact
    """Download Job image and S3 settings."""
    defaultStorageClassName: pulumi.Input[str]
    """Storage class of cache PVCs (same as `storage.defaultStorageClassName`)."""
    pvcHeadroomPercent: pulumi.Input[int]
    """Extra cache PVC space (same as `storage.pvcHeadroomPercent`)."""
    model: RuntimeConfigModelSettings
    """Settings for models: the profile-generation fallbacks of ID-backed models."""
    artifactStorageQuota: Any
    """Accepted for operator manifests and ignored: no storage quota is enforced."""


class ModelSourceFilter(TypedDict, total=False):
    image: Required[pulumi.Input[str]]
    """Repository pattern (`org/aim-*`), optionally with a registry and a tag."""
    exclude: Sequence[pulumi.Input[str]]
    """Repositories to skip (exact names, registry not compared)."""
    versions: Sequence[pulumi.Input[str]]
    """Semantic version constraints every tag must meet (over the spec's)."""


class SourceModelLocation(TypedDict, total=False):
    uri: pulumi.Input[str]
    """Where the weights are (`hf://...`, `s3://...`)."""
    size: pulumi.Input[Quantity]
    """Size of the weights."""
    precision: pulumi.Input[Precision]
    """Precision of the weights."""
    env: Sequence[EnvVar]
    """Environment of the download."""


class SourceModelAccelerator(TypedDict, total=False):
    count: pulumi.Input[int]
    """Devices per replica."""
    model: pulumi.Input[str]
    """Accelerator model."""
    partitioningMode: pulumi.Input[str]
    """Accelerator partitioning mode."""
    vendor: pulumi.Input[AcceleratorVendor]
    """Accelerator vendor."""


class SourceModel(TypedDict, total=False):
    modelId: Required[pulumi.Input[str]]
    """The model id of an ID-backed cluster model to declare."""
    aimId: pulumi.Input[str]
    """The AIM id of its profiles."""
    source: SourceModelLocation
    """Its weights (default `hf://<modelId>`)."""
    accelerator: SourceModelAccelerator
    """Its hardware shape."""


class AIMClusterModelSourceSpec(TypedDict, total=False):
    """The `spec` of AIMClusterModelSource (camelCase, as in the CRD)."""

    registry: pulumi.Input[str]
    """The registry to list (default `docker.io`)."""
    imagePullSecrets: Sequence[LocalObjectReference]
    """Pull secrets copied to the models."""
    filters: Sequence[ModelSourceFilter]
    """Which images become models (any filter matching); exclusive with `images`."""
    images: Sequence[pulumi.Input[str]]
    """Explicit images (`repo:tag`, or `repo` with `versions`); exclusive with `filters`."""
    models: Sequence[SourceModel]
    """ID-backed cluster models to declare."""
    syncInterval: pulumi.Input[str]
    """How often the operator lists the registry; here `aim-pulumi discover` lists it."""
    versions: Sequence[pulumi.Input[str]]
    """Semantic version constraints for filters without their own."""
    maxModels: pulumi.Input[int]
    """At most this many models (default 100); earlier ones are never dropped."""


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
SelectionCriteriaArgsDict = SelectionCriteria
ServiceTemplateRefArgsDict = ServiceTemplateRef
GpuSelectorArgsDict = GpuSelector
ServiceOverridesArgsDict = ServiceOverrides
AIMServiceSpecArgsDict = AIMServiceSpec
ProfileCachingArgsDict = ProfileCaching
AIMProfileSpecArgsDict = AIMProfileSpec
ModelAcceleratorArgsDict = ModelAccelerator
ModelSourceSpecArgsDict = ModelSourceSpec
DerivationModelRefArgsDict = DerivationModelRef
DerivationSelectorArgsDict = DerivationSelector
DerivationSourceRefArgsDict = DerivationSourceRef
ModelDerivedFromArgsDict = ModelDerivedFrom
ModelProfileOverridesArgsDict = ModelProfileOverrides
ModelProfilesArgsDict = ModelProfiles
AIMModelSpecArgsDict = AIMModelSpec
DerivationOverridesArgsDict = DerivationOverrides
AIMProfileSetSpecArgsDict = AIMProfileSetSpec
FallbackMatchArgsDict = FallbackMatch
FallbackRuntimeArgsDict = FallbackRuntime
FallbackArgsDict = Fallback
ProfileGenerationArgsDict = ProfileGeneration
RuntimeConfigModelSettingsArgsDict = RuntimeConfigModelSettings
AIMRuntimeConfigSpecArgsDict = AIMRuntimeConfigSpec
AIMClusterRuntimeConfigSpecArgsDict = AIMClusterRuntimeConfigSpec
ModelSourceFilterArgsDict = ModelSourceFilter
SourceModelLocationArgsDict = SourceModelLocation
SourceModelAcceleratorArgsDict = SourceModelAccelerator
SourceModelArgsDict = SourceModel
AIMClusterModelSourceSpecArgsDict = AIMClusterModelSourceSpec


class AIMServiceArgsDict(TypedDict, total=False):
    """The AIMService object (camelCase `spec` as in the CRD) plus component-only options."""

    name: str
    """metadata.name; defaults to the Pulumi resource name."""
    namespace: pulumi.Input[str]
    """metadata.namespace (default `default`), or an Output of it."""
    labels: Mapping[str, str]
    """metadata.labels; `aim.eai.amd.com/*` and matching labels propagate to the children."""
    annotations: Mapping[str, str]
    """metadata.annotations, e.g. `aim.eai.amd.com/force-rebind`."""
    spec: AIMServiceSpec
    """The AIMService spec (v1alpha2, camelCase): model, profile, replicas, routing, caching, ..."""
    strict: bool
    """Turn degradations (invalid path template, missing gateway, bad activation query) into errors."""
    skipAwait: bool
    """Do not wait for any child to become ready (`pulumi.com/skipAwait` on every child)."""
    waitFor: str
    """The InferenceService's `pulumi.com/waitFor` (default `condition=Ready`); empty removes it."""
    gatewayProvider: GatewayProvider
    """envoyGateway, kgateway, custom or none: decides the default scale-from-zero activation query."""
    forceRebind: bool
    """Re-rank the profiles and bind the current winner, as the force-rebind annotation does."""
    waitForCache: bool
    """Make the InferenceService wait for its cache PVCs and download Jobs (default true)."""


class AIMServiceKwargs(TypedDict, total=False):
    """The keyword arguments of `AIMService(resource_name, ..., opts=...)`: AIMServiceArgs, by keyword."""

    name: str
    """metadata.name; defaults to the Pulumi resource name."""
    namespace: pulumi.Input[str]
    """metadata.namespace (default `default`), or an Output of it."""
    labels: Mapping[str, str]
    """metadata.labels; `aim.eai.amd.com/*` and matching labels propagate to the children."""
    annotations: Mapping[str, str]
    """metadata.annotations, e.g. `aim.eai.amd.com/force-rebind`."""
    spec: AIMServiceSpec
    """The AIMService spec (v1alpha2, camelCase): model, profile, replicas, routing, caching, ..."""
    strict: bool
    """Turn degradations (invalid path template, missing gateway, bad activation query) into errors."""
    skip_await: bool
    """Do not wait for any child to become ready (`pulumi.com/skipAwait` on every child)."""
    wait_for: str
    """The InferenceService's `pulumi.com/waitFor` (default `condition=Ready`); empty removes it."""
    gateway_provider: GatewayProvider
    """envoyGateway, kgateway, custom or none: decides the default scale-from-zero activation query."""
    force_rebind: bool
    """Re-rank the profiles and bind the current winner, as the force-rebind annotation does."""
    wait_for_cache: bool
    """Make the InferenceService wait for its cache PVCs and download Jobs (default true)."""


@pulumi.input_type
class AIMServiceArgs:
    """
    The AIMService object (camelCase `spec` as in the CRD) plus component-only options. Keyword arguments in
    snake_case.
    """

    def __init__(
        self,
        *,
        name: str | None = None,
        namespace: pulumi.Input[str] | None = None,
        labels: Mapping[str, str] | None = None,
        annotations: Mapping[str, str] | None = None,
        spec: AIMServiceSpec | None = None,
        strict: bool | None = None,
        skip_await: bool | None = None,
        wait_for: str | None = None,
        gateway_provider: GatewayProvider | None = None,
        force_rebind: bool | None = None,
        wait_for_cache: bool | None = None,
    ) -> None:
        if name is not None:
            pulumi.set(self, "name", name)
        if namespace is not None:
            pulumi.set(self, "namespace", namespace)
        if labels is not None:
            pulumi.set(self, "labels", labels)
        if annotations is not None:
            pulumi.set(self, "annotations", annotations)
        if spec is not None:
            pulumi.set(self, "spec", spec)
        if strict is not None:
            pulumi.set(self, "strict", strict)
        if skip_await is not None:
            pulumi.set(self, "skip_await", skip_await)
        if wait_for is not None:
            pulumi.set(self, "wait_for", wait_for)
        if gateway_provider is not None:
            pulumi.set(self, "gateway_provider", gateway_provider)
        if force_rebind is not None:
            pulumi.set(self, "force_rebind", force_rebind)
        if wait_for_cache is not None:
            pulumi.set(self, "wait_for_cache", wait_for_cache)

    @property
    @pulumi.getter
    def name(self) -> str | None:
        """metadata.name; defaults to the Pulumi resource name."""
        return pulumi.get(self, "name")  # type: ignore[no-any-return]

    @name.setter
    def name(self, value: str | None) -> None:
        pulumi.set(self, "name", value)

    @property
    @pulumi.getter
    def namespace(self) -> pulumi.Input[str] | None:
        """metadata.namespace (default `default`), or an Output of it."""
        return pulumi.get(self, "namespace")  # type: ignore[no-any-return]

    @namespace.setter
    def namespace(self, value: pulumi.Input[str] | None) -> None:
        pulumi.set(self, "namespace", value)

    @property
    @pulumi.getter
    def labels(self) -> Mapping[str, str] | None:
        """metadata.labels; `aim.eai.amd.com/*` and matching labels propagate to the children."""
        return pulumi.get(self, "labels")  # type: ignore[no-any-return]

    @labels.setter
    def labels(self, value: Mapping[str, str] | None) -> None:
        pulumi.set(self, "labels", value)

    @property
    @pulumi.getter
    def annotations(self) -> Mapping[str, str] | None:
        """metadata.annotations, e.g. `aim.eai.amd.com/force-rebind`."""
        return pulumi.get(self, "annotations")  # type: ignore[no-any-return]

    @annotations.setter
    def annotations(self, value: Mapping[str, str] | None) -> None:
        pulumi.set(self, "annotations", value)

    @property
    @pulumi.getter
    def spec(self) -> AIMServiceSpec | None:
        """The AIMService spec (v1alpha2, camelCase): model, profile, replicas, routing, caching, ..."""
        return pulumi.get(self, "spec")  # type: ignore[no-any-return]

    @spec.setter
    def spec(self, value: AIMServiceSpec | None) -> None:
        pulumi.set(self, "spec", value)

    @property
    @pulumi.getter
    def strict(self) -> bool | None:
        """Turn degradations (invalid path template, missing gateway, bad activation query) into errors."""
        return pulumi.get(self, "strict")  # type: ignore[no-any-return]

    @strict.setter
    def strict(self, value: bool | None) -> None:
        pulumi.set(self, "strict", value)

    @property
    @pulumi.getter(name="skipAwait")
    def skip_await(self) -> bool | None:
        """Do not wait for any child to become ready (`pulumi.com/skipAwait` on every child)."""
        return pulumi.get(self, "skip_await")  # type: ignore[no-any-return]

    @skip_await.setter
    def skip_await(self, value: bool | None) -> None:
        pulumi.set(self, "skip_await", value)

    @property
    @pulumi.getter(name="waitFor")
    def wait_for(self) -> str | None:
        """The InferenceService's `pulumi.com/waitFor` (default `condition=Ready`); empty removes it."""
        return pulumi.get(self, "wait_for")  # type: ignore[no-any-return]

    @wait_for.setter
    def wait_for(self, value: str | None) -> None:
        pulumi.set(self, "wait_for", value)

    @property
    @pulumi.getter(name="gatewayProvider")
    def gateway_provider(self) -> GatewayProvider | None:
        """envoyGateway, kgateway, custom or none: decides the default scale-from-zero activation query."""
        return pulumi.get(self, "gateway_provider")  # type: ignore[no-any-return]

    @gateway_provider.setter
    def gateway_provider(self, value: GatewayProvider | None) -> None:
        pulumi.set(self, "gateway_provider", value)

    @property
    @pulumi.getter(name="forceRebind")
    def force_rebind(self) -> bool | None:
        """Re-rank the profiles and bind the current winner, as the force-rebind annotation does."""
        return pulumi.get(self, "force_rebind")  # type: ignore[no-any-return]

    @force_rebind.setter
    def force_rebind(self, value: bool | None) -> None:
        pulumi.set(self, "force_rebind", value)

    @property
    @pulumi.getter(name="waitForCache")
    def wait_for_cache(self) -> bool | None:
        """Make the InferenceService wait for its cache PVCs and download Jobs (default true)."""
        return pulumi.get(self, "wait_for_cache")  # type: ignore[no-any-return]

    @wait_for_cache.setter
    def wait_for_cache(self, value: bool | None) -> None:
        pulumi.set(self, "wait_for_cache", value)


class AIMProfileArgsDict(TypedDict, total=False):
    """The AIMProfile object: camelCase `spec` as in the CRD, plus its metadata."""

    name: str
    """metadata.name; defaults to the Pulumi resource name."""
    namespace: pulumi.Input[str]
    """
    metadata.namespace (default `default`), or an Output of it. The profile is visible only to services
    there.
    """
    labels: Mapping[str, str]
    """metadata.labels, e.g. `aim.eai.amd.com/source-model` to tie the profile to a model."""
    annotations: Mapping[str, str]
    """metadata.annotations."""
    spec: AIMProfileSpec
    """The AIMProfile spec (camelCase): aimId, image, accelerator*, engineArgs, modelSources, ..."""


class AIMProfileKwargs(TypedDict, total=False):
    """The keyword arguments of `AIMProfile(resource_name, ..., opts=...)`: AIMProfileArgs, by keyword."""

    name: str
    """metadata.name; defaults to the Pulumi resource name."""
    namespace: pulumi.Input[str]
    """
    metadata.namespace (default `default`), or an Output of it. The profile is visible only to services
    there.
    """
    labels: Mapping[str, str]
    """metadata.labels, e.g. `aim.eai.amd.com/source-model` to tie the profile to a model."""
    annotations: Mapping[str, str]
    """metadata.annotations."""
    spec: AIMProfileSpec
    """The AIMProfile spec (camelCase): aimId, image, accelerator*, engineArgs, modelSources, ..."""


@pulumi.input_type
class AIMProfileArgs:
    """
    The AIMProfile object: camelCase `spec` as in the CRD, plus its metadata. Keyword arguments in
    snake_case.
    """

    def __init__(
        self,
        *,
        name: str | None = None,
        namespace: pulumi.Input[str] | None = None,
        labels: Mapping[str, str] | None = None,
        annotations: Mapping[str, str] | None = None,
        spec: AIMProfileSpec | None = None,
    ) -> None:
        if name is not None:
            pulumi.set(self, "name", name)
        if namespace is not None:
            pulumi.set(self, "namespace", namespace)
        if labels is not None:
            pulumi.set(self, "labels", labels)
        if annotations is not None:
            pulumi.set(self, "annotations", annotations)
        if spec is not None:
            pulumi.set(self, "spec", spec)

    @property
    @pulumi.getter
    def name(self) -> str | None:
        """metadata.name; defaults to the Pulumi resource name."""
        return pulumi.get(self, "name")  # type: ignore[no-any-return]

    @name.setter
    def name(self, value: str | None) -> None:
        pulumi.set(self, "name", value)

    @property
    @pulumi.getter
    def namespace(self) -> pulumi.Input[str] | None:
        """
        metadata.namespace (default `default`), or an Output of it. The profile is visible only to services
        there.
        """
        return pulumi.get(self, "namespace")  # type: ignore[no-any-return]

    @namespace.setter
    def namespace(self, value: pulumi.Input[str] | None) -> None:
        pulumi.set(self, "namespace", value)

    @property
    @pulumi.getter
    def labels(self) -> Mapping[str, str] | None:
        """metadata.labels, e.g. `aim.eai.amd.com/source-model` to tie the profile to a model."""
        return pulumi.get(self, "labels")  # type: ignore[no-any-return]

    @labels.setter
    def labels(self, value: Mapping[str, str] | None) -> None:
        pulumi.set(self, "labels", value)

    @property
    @pulumi.getter
    def annotations(self) -> Mapping[str, str] | None:
        """metadata.annotations."""
        return pulumi.get(self, "annotations")  # type: ignore[no-any-return]

    @annotations.setter
    def annotations(self, value: Mapping[str, str] | None) -> None:
        pulumi.set(self, "annotations", value)

    @property
    @pulumi.getter
    def spec(self) -> AIMProfileSpec | None:
        """The AIMProfile spec (camelCase): aimId, image, accelerator*, engineArgs, modelSources, ..."""
        return pulumi.get(self, "spec")  # type: ignore[no-any-return]

    @spec.setter
    def spec(self, value: AIMProfileSpec | None) -> None:
        pulumi.set(self, "spec", value)


class AIMClusterProfileArgsDict(TypedDict, total=False):
    """The AIMClusterProfile object: camelCase `spec` as in the CRD, plus its metadata."""

    name: str
    """metadata.name; defaults to the Pulumi resource name."""
    labels: Mapping[str, str]
    """metadata.labels, e.g. `aim.eai.amd.com/source-model` to tie the profile to a model."""
    annotations: Mapping[str, str]
    """metadata.annotations."""
    spec: AIMProfileSpec
    """The AIMClusterProfile spec (camelCase); `caching` is namespace-only."""


class AIMClusterProfileKwargs(TypedDict, total=False):
    """
    The keyword arguments of `AIMClusterProfile(resource_name, ..., opts=...)`: AIMClusterProfileArgs, by
    keyword.
    """

    name: str
    """metadata.name; defaults to the Pulumi resource name."""
    labels: Mapping[str, str]
    """metadata.labels, e.g. `aim.eai.amd.com/source-model` to tie the profile to a model."""
    annotations: Mapping[str, str]
    """metadata.annotations."""
    spec: AIMProfileSpec
    """The AIMClusterProfile spec (camelCase); `caching` is namespace-only."""


@pulumi.input_type
class AIMClusterProfileArgs:
    """
    The AIMClusterProfile object: camelCase `spec` as in the CRD, plus its metadata. Keyword arguments in
    snake_case.
    """

    def __init__(
        self,
        *,
        name: str | None = None,
        labels: Mapping[str, str] | None = None,
        annotations: Mapping[str, str] | None = None,
        spec: AIMProfileSpec | None = None,
    ) -> None:
        if name is not None:
            pulumi.set(self, "name", name)
        if labels is not None:
            pulumi.set(self, "labels", labels)
        if annotations is not None:
            pulumi.set(self, "annotations", annotations)
        if spec is not None:
            pulumi.set(self, "spec", spec)

    @property
    @pulumi.getter
    def name(self) -> str | None:
        """metadata.name; defaults to the Pulumi resource name."""
        return pulumi.get(self, "name")  # type: ignore[no-any-return]

    @name.setter
    def name(self, value: str | None) -> None:
        pulumi.set(self, "name", value)

    @property
    @pulumi.getter
    def labels(self) -> Mapping[str, str] | None:
        """metadata.labels, e.g. `aim.eai.amd.com/source-model` to tie the profile to a model."""
        return pulumi.get(self, "labels")  # type: ignore[no-any-return]

    @labels.setter
    def labels(self, value: Mapping[str, str] | None) -> None:
        pulumi.set(self, "labels", value)

    @property
    @pulumi.getter
    def annotations(self) -> Mapping[str, str] | None:
        """metadata.annotations."""
        return pulumi.get(self, "annotations")  # type: ignore[no-any-return]

    @annotations.setter
    def annotations(self, value: Mapping[str, str] | None) -> None:
        pulumi.set(self, "annotations", value)

    @property
    @pulumi.getter
    def spec(self) -> AIMProfileSpec | None:
        """The AIMClusterProfile spec (camelCase); `caching` is namespace-only."""
        return pulumi.get(self, "spec")  # type: ignore[no-any-return]

    @spec.setter
    def spec(self, value: AIMProfileSpec | None) -> None:
        pulumi.set(self, "spec", value)


class AIMModelArgsDict(TypedDict, total=False):
    """The AIMModel object: camelCase `spec` as in the CRD, plus its metadata."""

    name: str
    """metadata.name; defaults to the Pulumi resource name."""
    namespace: pulumi.Input[str]
    """metadata.namespace (default `default`), or an Output of it."""
    labels: Mapping[str, str]
    """metadata.labels."""
    annotations: Mapping[str, str]
    """metadata.annotations."""
    spec: AIMModelSpec
    """
    The AIMModel spec (camelCase): exactly one of `image`, `modelId` or `profiles`, accelerator, source, ...
    """


class AIMModelKwargs(TypedDict, total=False):
    """The keyword arguments of `AIMModel(resource_name, ..., opts=...)`: AIMModelArgs, by keyword."""

    name: str
    """metadata.name; defaults to the Pulumi resource name."""
    namespace: pulumi.Input[str]
    """metadata.namespace (default `default`), or an Output of it."""
    labels: Mapping[str, str]
    """metadata.labels."""
    annotations: Mapping[str, str]
    """metadata.annotations."""
    spec: AIMModelSpec
    """
    The AIMModel spec (camelCase): exactly one of `image`, `modelId` or `profiles`, accelerator, source, ...
    """


@pulumi.input_type
class AIMModelArgs:
    """
    The AIMModel object: camelCase `spec` as in the CRD, plus its metadata. Keyword arguments in snake_case.
    """

    def __init__(
        self,
        *,
        name: str | None = None,
        namespace: pulumi.Input[str] | None = None,
        labels: Mapping[str, str] | None = None,
        annotations: Mapping[str, str] | None = None,
        spec: AIMModelSpec | None = None,
    ) -> None:
        if name is not None:
            pulumi.set(self, "name", name)
        if namespace is not None:
            pulumi.set(self, "namespace", namespace)
        if labels is not None:
            pulumi.set(self, "labels", labels)
        if annotations is not None:
            pulumi.set(self, "annotations", annotations)
        if spec is not None:
            pulumi.set(self, "spec", spec)

    @property
    @pulumi.getter
    def name(self) -> str | None:
        """metadata.name; defaults to the Pulumi resource name."""
        return pulumi.get(self, "name")  # type: ignore[no-any-return]

    @name.setter
    def name(self, value: str | None) -> None:
        pulumi.set(self, "name", value)

    @property
    @pulumi.getter
    def namespace(self) -> pulumi.Input[str] | None:
        """metadata.namespace (default `default`), or an Output of it."""
        return pulumi.get(self, "namespace")  # type: ignore[no-any-return]

    @namespace.setter
    def namespace(self, value: pulumi.Input[str] | None) -> None:
        pulumi.set(self, "namespace", value)

    @property
    @pulumi.getter
    def labels(self) -> Mapping[str, str] | None:
        """metadata.labels."""
        return pulumi.get(self, "labels")  # type: ignore[no-any-return]

    @labels.setter
    def labels(self, value: Mapping[str, str] | None) -> None:
        pulumi.set(self, "labels", value)

    @property
    @pulumi.getter
    def annotations(self) -> Mapping[str, str] | None:
        """metadata.annotations."""
        return pulumi.get(self, "annotations")  # type: ignore[no-any-return]

    @annotations.setter
    def annotations(self, value: Mapping[str, str] | None) -> None:
        pulumi.set(self, "annotations", value)

    @property
    @pulumi.getter
    def spec(self) -> AIMModelSpec | None:
        """
        The AIMModel spec (camelCase): exactly one of `image`, `modelId` or `profiles`, accelerator, source,
        ...
        """
        return pulumi.get(self, "spec")  # type: ignore[no-any-return]

    @spec.setter
    def spec(self, value: AIMModelSpec | None) -> None:
        pulumi.set(self, "spec", value)


class AIMClusterModelArgsDict(TypedDict, total=False):
    """The AIMClusterModel object: camelCase `spec` as in the CRD, plus its metadata."""

    name: str
    """metadata.name; defaults to the Pulumi resource name."""
    labels: Mapping[str, str]
    """metadata.labels."""
    annotations: Mapping[str, str]
    """metadata.annotations."""
    spec: AIMModelSpec
    """The AIMClusterModel spec (camelCase): exactly one of `image`, `modelId` or `profiles`, ..."""


class AIMClusterModelKwargs(TypedDict, total=False):
    """
    The keyword arguments of `AIMClusterModel(resource_name, ..., opts=...)`: AIMClusterModelArgs, by
    keyword.
    """

    name: str
    """metadata.name; defaults to the Pulumi resource name."""
    labels: Mapping[str, str]
    """metadata.labels."""
    annotations: Mapping[str, str]
    """metadata.annotations."""
    spec: AIMModelSpec
    """The AIMClusterModel spec (camelCase): exactly one of `image`, `modelId` or `profiles`, ..."""


@pulumi.input_type
class AIMClusterModelArgs:
    """
    The AIMClusterModel object: camelCase `spec` as in the CRD, plus its metadata. Keyword arguments in
    snake_case.
    """

    def __init__(
        self,
        *,
        name: str | None = None,
        labels: Mapping[str, str] | None = None,
        annotations: Mapping[str, str] | None = None,
        spec: AIMModelSpec | None = None,
    ) -> None:
        if name is not None:
            pulumi.set(self, "name", name)
        if labels is not None:
            pulumi.set(self, "labels", labels)
        if annotations is not None:
            pulumi.set(self, "annotations", annotations)
        if spec is not None:
            pulumi.set(self, "spec", spec)

    @property
    @pulumi.getter
    def name(self) -> str | None:
        """metadata.name; defaults to the Pulumi resource name."""
        return pulumi.get(self, "name")  # type: ignore[no-any-return]

    @name.setter
    def name(self, value: str | None) -> None:
        pulumi.set(self, "name", value)

    @property
    @pulumi.getter
    def labels(self) -> Mapping[str, str] | None:
        """metadata.labels."""
        return pulumi.get(self, "labels")  # type: ignore[no-any-return]

    @labels.setter
    def labels(self, value: Mapping[str, str] | None) -> None:
        pulumi.set(self, "labels", value)

    @property
    @pulumi.getter
    def annotations(self) -> Mapping[str, str] | None:
        """metadata.annotations."""
        return pulumi.get(self, "annotations")  # type: ignore[no-any-return]

    @annotations.setter
    def annotations(self, value: Mapping[str, str] | None) -> None:
        pulumi.set(self, "annotations", value)

    @property
    @pulumi.getter
    def spec(self) -> AIMModelSpec | None:
        """The AIMClusterModel spec (camelCase): exactly one of `image`, `modelId` or `profiles`, ..."""
        return pulumi.get(self, "spec")  # type: ignore[no-any-return]

    @spec.setter
    def spec(self, value: AIMModelSpec | None) -> None:
        pulumi.set(self, "spec", value)


class AIMProfileSetArgsDict(TypedDict, total=False):
    """The AIMProfileSet object: camelCase `spec` as in the CRD, plus its metadata."""

    name: str
    """metadata.name; defaults to the Pulumi resource name."""
    namespace: pulumi.Input[str]
    """
    metadata.namespace (default `default`), or an Output of it. Its sources are that namespace's profiles
    (then the cluster's); its profiles live there.
    """
    labels: Mapping[str, str]
    """metadata.labels; its `aim.eai.amd.com/*` labels are propagated to the derived profiles."""
    annotations: Mapping[str, str]
    """metadata.annotations."""
    spec: AIMProfileSetSpec
    """
    The AIMProfileSet spec (camelCase): selector or sourceRef, versionPolicy, version, image, overrides, ...
    """


class AIMProfileSetKwargs(TypedDict, total=False):
    """
    The keyword arguments of `AIMProfileSet(resource_name, ..., opts=...)`: AIMProfileSetArgs, by keyword.
    """

    name: str
    """metadata.name; defaults to the Pulumi resource name."""
    namespace: pulumi.Input[str]
    """
    metadata.namespace (default `default`), or an Output of it. Its sources are that namespace's profiles
    (then the cluster's); its profiles live there.
    """
    labels: Mapping[str, str]
    """metadata.labels; its `aim.eai.amd.com/*` labels are propagated to the derived profiles."""
    annotations: Mapping[str, str]
    """metadata.annotations."""
    spec: AIMProfileSetSpec
    """
    The AIMProfileSet spec (camelCase): selector or sourceRef, versionPolicy, version, image, overrides, ...
    """


@pulumi.input_type
class AIMProfileSetArgs:
    """
    The AIMProfileSet object: camelCase `spec` as in the CRD, plus its metadata. Keyword arguments in
    snake_case.
    """

    def __init__(
        self,
        *,
        name: str | None = None,
        namespace: pulumi.Input[str] | None = None,
        labels: Mapping[str, str] | None = None,
        annotations: Mapping[str, str] | None = None,
        spec: AIMProfileSetSpec | None = None,
    ) -> None:
        if name is not None:
            pulumi.set(self, "name", name)
        if namespace is not None:
            pulumi.set(self, "namespace", namespace)
        if labels is not None:
            pulumi.set(self, "labels", labels)
        if annotations is not None:
            pulumi.set(self, "annotations", annotations)
        if spec is not None:
            pulumi.set(self, "spec", spec)

    @property
    @pulumi.getter
    def name(self) -> str | None:
        """metadata.name; defaults to the Pulumi resource name."""
        return pulumi.get(self, "name")  # type: ignore[no-any-return]

    @name.setter
    def name(self, value: str | None) -> None:
        pulumi.set(self, "name", value)

    @property
    @pulumi.getter
    def namespace(self) -> pulumi.Input[str] | None:
        """
        metadata.namespace (default `default`), or an Output of it. Its sources are that namespace's profiles
        (then the cluster's); its profiles live there.
        """
        return pulumi.get(self, "namespace")  # type: ignore[no-any-return]

    @namespace.setter
    def namespace(self, value: pulumi.Input[str] | None) -> None:
        pulumi.set(self, "namespace", value)

    @property
    @pulumi.getter
    def labels(self) -> Mapping[str, str] | None:
        """metadata.labels; its `aim.eai.amd.com/*` labels are propagated to the derived profiles."""
        return pulumi.get(self, "labels")  # type: ignore[no-any-return]

    @labels.setter
    def labels(self, value: Mapping[str, str] | None) -> None:
        pulumi.set(self, "labels", value)

    @property
    @pulumi.getter
    def annotations(self) -> Mapping[str, str] | None:
        """metadata.annotations."""
        return pulumi.get(self, "annotations")  # type: ignore[no-any-return]

    @annotations.setter
    def annotations(self, value: Mapping[str, str] | None) -> None:
        pulumi.set(self, "annotations", value)

    @property
    @pulumi.getter
    def spec(self) -> AIMProfileSetSpec | None:
        """
        The AIMProfileSet spec (camelCase): selector or sourceRef, versionPolicy, version, image, overrides,
        ...
        """
        return pulumi.get(self, "spec")  # type: ignore[no-any-return]

    @spec.setter
    def spec(self, value: AIMProfileSetSpec | None) -> None:
        pulumi.set(self, "spec", value)


class AIMClusterProfileSetArgsDict(TypedDict, total=False):
    """The AIMClusterProfileSet object: camelCase `spec` as in the CRD, plus its metadata."""

    name: str
    """metadata.name; defaults to the Pulumi resource name."""
    labels: Mapping[str, str]
    """metadata.labels; its `aim.eai.amd.com/*` labels are propagated to the derived profiles."""
    annotations: Mapping[str, str]
    """metadata.annotations."""
    spec: AIMProfileSetSpec
    """
    The AIMClusterProfileSet spec (camelCase); it derives AIMClusterProfiles from cluster profiles and has no
    `acceleratorVendor`.
    """


class AIMClusterProfileSetKwargs(TypedDict, total=False):
    """
    The keyword arguments of `AIMClusterProfileSet(resource_name, ..., opts=...)`: AIMClusterProfileSetArgs,
    by keyword.
    """

    name: str
    """metadata.name; defaults to the Pulumi resource name."""
    labels: Mapping[str, str]
    """metadata.labels; its `aim.eai.amd.com/*` labels are propagated to the derived profiles."""
    annotations: Mapping[str, str]
    """metadata.annotations."""
    spec: AIMProfileSetSpec
    """
    The AIMClusterProfileSet spec (camelCase); it derives AIMClusterProfiles from cluster profiles and has no
    `acceleratorVendor`.
    """


@pulumi.input_type
class AIMClusterProfileSetArgs:
    """
    The AIMClusterProfileSet object: camelCase `spec` as in the CRD, plus its metadata. Keyword arguments in
    snake_case.
    """

    def __init__(
        self,
        *,
        name: str | None = None,
        labels: Mapping[str, str] | None = None,
        annotations: Mapping[str, str] | None = None,
        spec: AIMProfileSetSpec | None = None,
    ) -> None:
        if name is not None:
            pulumi.set(self, "name", name)
        if labels is not None:
            pulumi.set(self, "labels", labels)
        if annotations is not None:
            pulumi.set(self, "annotations", annotations)
        if spec is not None:
            pulumi.set(self, "spec", spec)

    @property
    @pulumi.getter
    def name(self) -> str | None:
        """metadata.name; defaults to the Pulumi resource name."""
        return pulumi.get(self, "name")  # type: ignore[no-any-return]

    @name.setter
    def name(self, value: str | None) -> None:
        pulumi.set(self, "name", value)

    @property
    @pulumi.getter
    def labels(self) -> Mapping[str, str] | None:
        """metadata.labels; its `aim.eai.amd.com/*` labels are propagated to the derived profiles."""
        return pulumi.get(self, "labels")  # type: ignore[no-any-return]

    @labels.setter
    def labels(self, value: Mapping[str, str] | None) -> None:
        pulumi.set(self, "labels", value)

    @property
    @pulumi.getter
    def annotations(self) -> Mapping[str, str] | None:
        """metadata.annotations."""
        return pulumi.get(self, "annotations")  # type: ignore[no-any-return]

    @annotations.setter
    def annotations(self, value: Mapping[str, str] | None) -> None:
        pulumi.set(self, "annotations", value)

    @property
    @pulumi.getter
    def spec(self) -> AIMProfileSetSpec | None:
        """
        The AIMClusterProfileSet spec (camelCase); it derives AIMClusterProfiles from cluster profiles and
        has no `acceleratorVendor`.
        """
        return pulumi.get(self, "spec")  # type: ignore[no-any-return]

    @spec.setter
    def spec(self, value: AIMProfileSetSpec | None) -> None:
        pulumi.set(self, "spec", value)


class AIMClusterModelSourceArgsDict(TypedDict, total=False):
    """The AIMClusterModelSource object: camelCase `spec` as in the CRD, plus its metadata."""

    name: str
    """metadata.name; defaults to the Pulumi resource name."""
    labels: Mapping[str, str]
    """metadata.labels."""
    annotations: Mapping[str, str]
    """metadata.annotations."""
    spec: AIMClusterModelSourceSpec
    """The model source spec (camelCase): registry, filters or images, versions, maxModels, models."""


class AIMClusterModelSourceKwargs(TypedDict, total=False):
    """
    The keyword arguments of `AIMClusterModelSource(resource_name, ..., opts=...)`:
    AIMClusterModelSourceArgs, by keyword.
    """

    name: str
    """metadata.name; defaults to the Pulumi resource name."""
    labels: Mapping[str, str]
    """metadata.labels."""
    annotations: Mapping[str, str]
    """metadata.annotations."""
    spec: AIMClusterModelSourceSpec
    """The model source spec (camelCase): registry, filters or images, versions, maxModels, models."""


@pulumi.input_type
class AIMClusterModelSourceArgs:
    """
    The AIMClusterModelSource object: camelCase `spec` as in the CRD, plus its metadata. Keyword arguments in
    snake_case.
    """

    def __init__(
        self,
        *,
        name: str | None = None,
        labels: Mapping[str, str] | None = None,
        annotations: Mapping[str, str] | None = None,
        spec: AIMClusterModelSourceSpec | None = None,
    ) -> None:
        if name is not None:
            pulumi.set(self, "name", name)
        if labels is not None:
            pulumi.set(self, "labels", labels)
        if annotations is not None:
            pulumi.set(self, "annotations", annotations)
        if spec is not None:
            pulumi.set(self, "spec", spec)

    @property
    @pulumi.getter
    def name(self) -> str | None:
        """metadata.name; defaults to the Pulumi resource name."""
        return pulumi.get(self, "name")  # type: ignore[no-any-return]

    @name.setter
    def name(self, value: str | None) -> None:
        pulumi.set(self, "name", value)

    @property
    @pulumi.getter
    def labels(self) -> Mapping[str, str] | None:
        """metadata.labels."""
        return pulumi.get(self, "labels")  # type: ignore[no-any-return]

    @labels.setter
    def labels(self, value: Mapping[str, str] | None) -> None:
        pulumi.set(self, "labels", value)

    @property
    @pulumi.getter
    def annotations(self) -> Mapping[str, str] | None:
        """metadata.annotations."""
        return pulumi.get(self, "annotations")  # type: ignore[no-any-return]

    @annotations.setter
    def annotations(self, value: Mapping[str, str] | None) -> None:
        pulumi.set(self, "annotations", value)

    @property
    @pulumi.getter
    def spec(self) -> AIMClusterModelSourceSpec | None:
        """The model source spec (camelCase): registry, filters or images, versions, maxModels, models."""
        return pulumi.get(self, "spec")  # type: ignore[no-any-return]

    @spec.setter
    def spec(self, value: AIMClusterModelSourceSpec | None) -> None:
        pulumi.set(self, "spec", value)


class AIMRuntimeConfigArgsDict(TypedDict, total=False):
    """The AIMRuntimeConfig object: camelCase `spec` as in the CRD, plus its metadata."""

    name: str
    """metadata.name; defaults to the Pulumi resource name (`default` is what services use)."""
    namespace: pulumi.Input[str]
    """
    metadata.namespace (default `default`), or an Output of it. Applies only to consumers in that namespace.
    """
    labels: Mapping[str, str]
    """metadata.labels."""
    annotations: Mapping[str, str]
    """metadata.annotations."""
    spec: AIMRuntimeConfigSpec
    """The runtime config spec (camelCase): storage, routing, scaleFromZero, env, labelPropagation, ..."""


class AIMRuntimeConfigKwargs(TypedDict, total=False):
    """
    The keyword arguments of `AIMRuntimeConfig(resource_name, ..., opts=...)`: AIMRuntimeConfigArgs, by
    keyword.
    """

    name: str
    """metadata.name; defaults to the Pulumi resource name (`default` is what services use)."""
    namespace: pulumi.Input[str]
    """
    metadata.namespace (default `default`), or an Output of it. Applies only to consumers in that namespace.
    """
    labels: Mapping[str, str]
    """metadata.labels."""
    annotations: Mapping[str, str]
    """metadata.annotations."""
    spec: AIMRuntimeConfigSpec
    """The runtime config spec (camelCase): storage, routing, scaleFromZero, env, labelPropagation, ..."""


@pulumi.input_type
class AIMRuntimeConfigArgs:
    """
    The AIMRuntimeConfig object: camelCase `spec` as in the CRD, plus its metadata. Keyword arguments in
    snake_case.
    """

    def __init__(
        self,
        *,
        name: str | None = None,
        namespace: pulumi.Input[str] | None = None,
        labels: Mapping[str, str] | None = None,
        annotations: Mapping[str, str] | None = None,
        spec: AIMRuntimeConfigSpec | None = None,
    ) -> None:
        if name is not None:
            pulumi.set(self, "name", name)
        if namespace is not None:
            pulumi.set(self, "namespace", namespace)
        if labels is not None:
            pulumi.set(self, "labels", labels)
        if annotations is not None:
            pulumi.set(self, "annotations", annotations)
        if spec is not None:
            pulumi.set(self, "spec", spec)

    @property
    @pulumi.getter
    def name(self) -> str | None:
        """metadata.name; defaults to the Pulumi resource name (`default` is what services use)."""
        return pulumi.get(self, "name")  # type: ignore[no-any-return]

    @name.setter
    def name(self, value: str | None) -> None:
        pulumi.set(self, "name", value)

    @property
    @pulumi.getter
    def namespace(self) -> pulumi.Input[str] | None:
        """
        metadata.namespace (default `default`), or an Output of it. Applies only to consumers in that
        namespace.
        """
        return pulumi.get(self, "namespace")  # type: ignore[no-any-return]

    @namespace.setter
    def namespace(self, value: pulumi.Input[str] | None) -> None:
        pulumi.set(self, "namespace", value)

    @property
    @pulumi.getter
    def labels(self) -> Mapping[str, str] | None:
        """metadata.labels."""
        return pulumi.get(self, "labels")  # type: ignore[no-any-return]

    @labels.setter
    def labels(self, value: Mapping[str, str] | None) -> None:
        pulumi.set(self, "labels", value)

    @property
    @pulumi.getter
    def annotations(self) -> Mapping[str, str] | None:
        """metadata.annotations."""
        return pulumi.get(self, "annotations")  # type: ignore[no-any-return]

    @annotations.setter
    def annotations(self, value: Mapping[str, str] | None) -> None:
        pulumi.set(self, "annotations", value)

    @property
    @pulumi.getter
    def spec(self) -> AIMRuntimeConfigSpec | None:
        """The runtime config spec (camelCase): storage, routing, scaleFromZero, env, labelPropagation, ..."""
        return pulumi.get(self, "spec")  # type: ignore[no-any-return]

    @spec.setter
    def spec(self, value: AIMRuntimeConfigSpec | None) -> None:
        pulumi.set(self, "spec", value)


class AIMClusterRuntimeConfigArgsDict(TypedDict, total=False):
    """The AIMClusterRuntimeConfig object: camelCase `spec` as in the CRD, plus its metadata."""

    name: str
    """metadata.name; defaults to the Pulumi resource name (`default` replaces the embedded default)."""
    labels: Mapping[str, str]
    """metadata.labels."""
    annotations: Mapping[str, str]
    """metadata.annotations."""
    spec: AIMClusterRuntimeConfigSpec
    """The runtime config spec (camelCase), including model.profileGeneration.fallbacks."""


class AIMClusterRuntimeConfigKwargs(TypedDict, total=False):
    """
    The keyword arguments of `AIMClusterRuntimeConfig(resource_name, ..., opts=...)`:
    AIMClusterRuntimeConfigArgs, by keyword.
    """

    name: str
    """metadata.name; defaults to the Pulumi resource name (`default` replaces the embedded default)."""
    labels: Mapping[str, str]
    """metadata.labels."""
    annotations: Mapping[str, str]
    """metadata.annotations."""
    spec: AIMClusterRuntimeConfigSpec
    """The runtime config spec (camelCase), including model.profileGeneration.fallbacks."""


@pulumi.input_type
class AIMClusterRuntimeConfigArgs:
    """
    The AIMClusterRuntimeConfig object: camelCase `spec` as in the CRD, plus its metadata. Keyword arguments
    in snake_case.
    """

    def __init__(
        self,
        *,
        name: str | None = None,
        labels: Mapping[str, str] | None = None,
        annotations: Mapping[str, str] | None = None,
        spec: AIMClusterRuntimeConfigSpec | None = None,
    ) -> None:
        if name is not None:
            pulumi.set(self, "name", name)
        if labels is not None:
            pulumi.set(self, "labels", labels)
        if annotations is not None:
            pulumi.set(self, "annotations", annotations)
        if spec is not None:
            pulumi.set(self, "spec", spec)

    @property
    @pulumi.getter
    def name(self) -> str | None:
        """metadata.name; defaults to the Pulumi resource name (`default` replaces the embedded default)."""
        return pulumi.get(self, "name")  # type: ignore[no-any-return]

    @name.setter
    def name(self, value: str | None) -> None:
        pulumi.set(self, "name", value)

    @property
    @pulumi.getter
    def labels(self) -> Mapping[str, str] | None:
        """metadata.labels."""
        return pulumi.get(self, "labels")  # type: ignore[no-any-return]

    @labels.setter
    def labels(self, value: Mapping[str, str] | None) -> None:
        pulumi.set(self, "labels", value)

    @property
    @pulumi.getter
    def annotations(self) -> Mapping[str, str] | None:
        """metadata.annotations."""
        return pulumi.get(self, "annotations")  # type: ignore[no-any-return]

    @annotations.setter
    def annotations(self, value: Mapping[str, str] | None) -> None:
        pulumi.set(self, "annotations", value)

    @property
    @pulumi.getter
    def spec(self) -> AIMClusterRuntimeConfigSpec | None:
        """The runtime config spec (camelCase), including model.profileGeneration.fallbacks."""
        return pulumi.get(self, "spec")  # type: ignore[no-any-return]

    @spec.setter
    def spec(self, value: AIMClusterRuntimeConfigSpec | None) -> None:
        pulumi.set(self, "spec", value)


class AIMStackArgsDict(TypedDict, total=False):
    """Where the AIM manifests are, and options applied to every service in them."""

    path: str
    """A YAML file or directory (`*.yaml`, `*.yml`, multi-document) of AIM and Kubernetes objects."""
    strict: bool
    """Turn every service's degradations into errors."""
    skipAwait: bool
    """Wait for no child of any service to become ready."""
    waitFor: str
    """`pulumi.com/waitFor` for every InferenceService (default `condition=Ready`); empty removes it."""
    gatewayProvider: GatewayProvider
    """envoyGateway, kgateway, custom or none, for every service."""
    waitForCache: bool
    """Make InferenceServices wait for their caches (default true)."""
    catalogAs: CatalogAs
    """
    `components` (default): every profile, model and runtime config is a component of its own. `data`: they
    are data of the stack, their statuses its `catalog` output (one resource instead of one per object, for a
    large catalog).
    """


class AIMStackKwargs(TypedDict, total=False):
    """The keyword arguments of `AIMStack(resource_name, ..., opts=...)`: AIMStackArgs, by keyword."""

    path: str
    """A YAML file or directory (`*.yaml`, `*.yml`, multi-document) of AIM and Kubernetes objects."""
    strict: bool
    """Turn every service's degradations into errors."""
    skip_await: bool
    """Wait for no child of any service to become ready."""
    wait_for: str
    """`pulumi.com/waitFor` for every InferenceService (default `condition=Ready`); empty removes it."""
    gateway_provider: GatewayProvider
    """envoyGateway, kgateway, custom or none, for every service."""
    wait_for_cache: bool
    """Make InferenceServices wait for their caches (default true)."""
    catalog_as: CatalogAs
    """
    `components` (default): every profile, model and runtime config is a component of its own. `data`: they
    are data of the stack, their statuses its `catalog` output (one resource instead of one per object, for a
    large catalog).
    """


@pulumi.input_type
class AIMStackArgs:
    """
    Where the AIM manifests are, and options applied to every service in them. Keyword arguments in
    snake_case.
    """

    def __init__(
        self,
        *,
        path: str | None = None,
        strict: bool | None = None,
        skip_await: bool | None = None,
        wait_for: str | None = None,
        gateway_provider: GatewayProvider | None = None,
        wait_for_cache: bool | None = None,
        catalog_as: CatalogAs | None = None,
    ) -> None:
        if path is not None:
            pulumi.set(self, "path", path)
        if strict is not None:
            pulumi.set(self, "strict", strict)
        if skip_await is not None:
            pulumi.set(self, "skip_await", skip_await)
        if wait_for is not None:
            pulumi.set(self, "wait_for", wait_for)
        if gateway_provider is not None:
            pulumi.set(self, "gateway_provider", gateway_provider)
        if wait_for_cache is not None:
            pulumi.set(self, "wait_for_cache", wait_for_cache)
        if catalog_as is not None:
            pulumi.set(self, "catalog_as", catalog_as)

    @property
    @pulumi.getter
    def path(self) -> str | None:
        """A YAML file or directory (`*.yaml`, `*.yml`, multi-document) of AIM and Kubernetes objects."""
        return pulumi.get(self, "path")  # type: ignore[no-any-return]

    @path.setter
    def path(self, value: str | None) -> None:
        pulumi.set(self, "path", value)

    @property
    @pulumi.getter
    def strict(self) -> bool | None:
        """Turn every service's degradations into errors."""
        return pulumi.get(self, "strict")  # type: ignore[no-any-return]

    @strict.setter
    def strict(self, value: bool | None) -> None:
        pulumi.set(self, "strict", value)

    @property
    @pulumi.getter(name="skipAwait")
    def skip_await(self) -> bool | None:
        """Wait for no child of any service to become ready."""
        return pulumi.get(self, "skip_await")  # type: ignore[no-any-return]

    @skip_await.setter
    def skip_await(self, value: bool | None) -> None:
        pulumi.set(self, "skip_await", value)

    @property
    @pulumi.getter(name="waitFor")
    def wait_for(self) -> str | None:
        """`pulumi.com/waitFor` for every InferenceService (default `condition=Ready`); empty removes it."""
        return pulumi.get(self, "wait_for")  # type: ignore[no-any-return]

    @wait_for.setter
    def wait_for(self, value: str | None) -> None:
        pulumi.set(self, "wait_for", value)

    @property
    @pulumi.getter(name="gatewayProvider")
    def gateway_provider(self) -> GatewayProvider | None:
        """envoyGateway, kgateway, custom or none, for every service."""
        return pulumi.get(self, "gateway_provider")  # type: ignore[no-any-return]

    @gateway_provider.setter
    def gateway_provider(self, value: GatewayProvider | None) -> None:
        pulumi.set(self, "gateway_provider", value)

    @property
    @pulumi.getter(name="waitForCache")
    def wait_for_cache(self) -> bool | None:
        """Make InferenceServices wait for their caches (default true)."""
        return pulumi.get(self, "wait_for_cache")  # type: ignore[no-any-return]

    @wait_for_cache.setter
    def wait_for_cache(self, value: bool | None) -> None:
        pulumi.set(self, "wait_for_cache", value)

    @property
    @pulumi.getter(name="catalogAs")
    def catalog_as(self) -> CatalogAs | None:
        """
        `components` (default): every profile, model and runtime config is a component of its own. `data`:
        they are data of the stack, their statuses its `catalog` output (one resource instead of one per
        object, for a large catalog).
        """
        return pulumi.get(self, "catalog_as")  # type: ignore[no-any-return]

    @catalog_as.setter
    def catalog_as(self, value: CatalogAs | None) -> None:
        pulumi.set(self, "catalog_as", value)


__all__ = [
    "AIMClusterModelArgs",
    "AIMClusterModelArgsDict",
    "AIMClusterModelKwargs",
    "AIMClusterModelSourceArgs",
    "AIMClusterModelSourceArgsDict",
    "AIMClusterModelSourceKwargs",
    "AIMClusterModelSourceSpec",
    "AIMClusterModelSourceSpecArgsDict",
    "AIMClusterProfileArgs",
    "AIMClusterProfileArgsDict",
    "AIMClusterProfileKwargs",
    "AIMClusterProfileSetArgs",
    "AIMClusterProfileSetArgsDict",
    "AIMClusterProfileSetKwargs",
    "AIMClusterRuntimeConfigArgs",
    "AIMClusterRuntimeConfigArgsDict",
    "AIMClusterRuntimeConfigKwargs",
    "AIMClusterRuntimeConfigSpec",
    "AIMClusterRuntimeConfigSpecArgsDict",
    "AIMModelArgs",
    "AIMModelArgsDict",
    "AIMModelKwargs",
    "AIMModelSpec",
    "AIMModelSpecArgsDict",
    "AIMProfileArgs",
    "AIMProfileArgsDict",
    "AIMProfileKwargs",
    "AIMProfileSetArgs",
    "AIMProfileSetArgsDict",
    "AIMProfileSetKwargs",
    "AIMProfileSetSpec",
    "AIMProfileSetSpecArgsDict",
    "AIMProfileSpec",
    "AIMProfileSpecArgsDict",
    "AIMRuntimeConfigArgs",
    "AIMRuntimeConfigArgsDict",
    "AIMRuntimeConfigKwargs",
    "AIMRuntimeConfigSpec",
    "AIMRuntimeConfigSpecArgsDict",
    "AIMServiceArgs",
    "AIMServiceArgsDict",
    "AIMServiceKwargs",
    "AIMServiceSpec",
    "AIMServiceSpecArgsDict",
    "AIMStackArgs",
    "AIMStackArgsDict",
    "AIMStackKwargs",
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
    "CatalogAs",
    "CredentialsSecretRef",
    "CredentialsSecretRefArgsDict",
    "DerivationModelRef",
    "DerivationModelRefArgsDict",
    "DerivationOverrides",
    "DerivationOverridesArgsDict",
    "DerivationRole",
    "DerivationSelector",
    "DerivationSelectorArgsDict",
    "DerivationSourceRef",
    "DerivationSourceRefArgsDict",
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
    "MinimumType",
    "ModelAccelerator",
    "ModelAcceleratorArgsDict",
    "ModelDerivedFrom",
    "ModelDerivedFromArgsDict",
    "ModelProfileOverrides",
    "ModelProfileOverridesArgsDict",
    "ModelProfiles",
    "ModelProfilesArgsDict",
    "ModelRef",
    "ModelRefArgsDict",
    "ModelRefScope",
    "ModelSource",
    "ModelSourceArgsDict",
    "ModelSourceFilter",
    "ModelSourceFilterArgsDict",
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
    "ProfileOrigin",
    "ProfileOverrides",
    "ProfileOverridesArgsDict",
    "ProfileSelector",
    "ProfileSelectorArgsDict",
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
    "SelectorPrecision",
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
    "SourceModel",
    "SourceModelAccelerator",
    "SourceModelAcceleratorArgsDict",
    "SourceModelArgsDict",
    "SourceModelLocation",
    "SourceModelLocationArgsDict",
    "Storage",
    "StorageArgsDict",
    "VersionPolicy",
]
