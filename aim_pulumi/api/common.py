"""Sub-models shared by several kinds: env vars, resources, references, routing, storage, S3, fallbacks.

Runtime-config shaped blocks (storage, routing, scale-from-zero, env, label propagation, artifact)
are one set of classes, used by both runtime-config kinds and by the inline `spec.runtimeConfig`
and direct fields of an AIMService, so a rule on them holds wherever they appear.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal, Self

from pydantic import AfterValidator, Field, PlainValidator, model_validator
from pydantic_core import PydanticCustomError

from aim_pulumi.api.admission import Problems, problem
from aim_pulumi.api.base import AIMBase, AIMStatusBase, rename_alias
from aim_pulumi.api.errors import AIMValidationError
from aim_pulumi.api.limits import INT32_MAX, INT32_MIN, INT64_MAX

NonEmptyStr = Annotated[str, Field(min_length=1)]


def _quantity(value: Any) -> str | int | float:
    """A quantity that reaches a child must be one the API server parses (`UPPER` is not)."""
    from aim_pulumi.api.limits import UNRESOLVED_VALUE
    from aim_pulumi.schemas.quantity import quantity_value

    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise PydanticCustomError("quantity_type", "Input should be a Kubernetes quantity (string or number)")
    if isinstance(value, float) and not math.isfinite(value):
        raise PydanticCustomError("quantity_value", "a Kubernetes quantity must be a finite number")
    if isinstance(value, str) and UNRESOLVED_VALUE.fullmatch(value):
        return value
    parsed = quantity_value(value)
    if parsed is None:
        raise PydanticCustomError(
            "quantity_value", "Input should be a Kubernetes quantity such as 500m, 2, 1.5Gi or 64Gi"
        )
    if abs(parsed) > INT64_MAX:
        # Kubernetes reads a quantity as int64; sizes beyond it also lose precision in Pulumi's
        # state, whose numbers are doubles.
        raise PydanticCustomError("quantity_value", "a Kubernetes quantity must be less than 8Ei (2^63)")
    return value


# A Kubernetes quantity as written (`16Gi`, `500m`, `2`): kept verbatim so manifests round-trip.
Quantity = Annotated[str | int | float, PlainValidator(_quantity)]


def _json_problem(value: Any, path: str) -> str | None:
    """Where `value` stops being JSON (the path below the field), or None when all of it is JSON."""
    if value is None or isinstance(value, str | bool | int):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else path
    items: list[tuple[str, Any]]
    if isinstance(value, list):
        items = [(f"{path}[{i}]", item) for i, item in enumerate(value)]
    elif isinstance(value, dict):
        items = []
        for key, item in value.items():
            inner = f"{path}.{key}" if path else str(key)
            if not isinstance(key, str):
                return inner
            items.append((inner, item))
    else:
        return path
    for inner, item in items:
        problem = _json_problem(item, inner)
        if problem is not None:
            return problem
    return None


def _json_object(value: dict[str, Any]) -> dict[str, Any]:
    # YAML also yields sets, binary and NaN, which no JSON consumer (ConfigMap, vLLM flags) can carry.
    problem = _json_problem(value, "")
    if problem is not None:
        raise AIMValidationError(
            problem,
            "InvalidSpec",
            "engine arguments must be JSON: strings, finite numbers, booleans, null, lists, and objects "
            "with string keys",
        )
    return value


# P4: engine arguments are a JSON object, written into the profile ConfigMap and vLLM flags.
JsonObject = Annotated[dict[str, Any], AfterValidator(_json_object)]

Metric = Literal["latency", "throughput"]
Precision = Literal["fp4", "fp8", "fp16", "fp32", "bf16", "int4", "int8"]
ProfileType = Literal["optimized", "general", "preview", "unoptimized"]
AutoSelectionPolicy = Literal["optimized", "any"]
AcceleratorVendor = Literal["amd", "nvidia"]
AcceleratorType = Literal["gpu", "cpu"]


def _raise_first(problems: list[AIMValidationError]) -> None:
    if problems:
        raise problems[0]


class LocalObjectReference(AIMBase):
    name: str
    """Name of the object (a pull Secret) in the same namespace."""


class KeySelector(AIMBase):
    name: str | None = None
    """The Secret or ConfigMap holding the value."""
    key: str
    """The key whose value is read."""
    optional: bool | None = None
    """Start the container even when the key or object is missing."""

    @model_validator(mode="after")
    def _check(self) -> Self:
        _raise_first(key_selector_rules(self))
        return self


class FieldSelector(AIMBase):
    api_version: str | None = None
    """Schema version the field path is written in (default `v1`)."""
    field_path: str
    """The pod field to read, e.g. `metadata.namespace`."""


class ResourceFieldSelector(AIMBase):
    container_name: str | None = None
    """The container whose resource is read (default this one)."""
    resource: str
    """The resource to read, e.g. `limits.memory`."""
    divisor: Quantity | None = None
    """Unit the value is expressed in (default 1)."""


class EnvVarSource(AIMBase):
    secret_key_ref: KeySelector | None = None
    """A key of a Secret (how secrets reach the container)."""
    config_map_key_ref: KeySelector | None = None
    """A key of a ConfigMap."""
    field_ref: FieldSelector | None = None
    """A field of the pod."""
    resource_field_ref: ResourceFieldSelector | None = None
    """A resource request or limit of a container."""


class EnvVar(AIMBase):
    """A Kubernetes EnvVar (A24: a name, and not both `value` and `valueFrom`)."""

    name: NonEmptyStr
    """Variable name."""
    value: str | None = None
    """Literal value (may be a secret Output in a program)."""
    value_from: EnvVarSource | None = None
    """Read the value from a Secret, ConfigMap, field or resource instead."""

    @model_validator(mode="after")
    def _check(self) -> Self:
        _raise_first(env_var_rules(self))
        return self


class ResourceRequirements(AIMBase):
    requests: dict[str, Quantity] = Field(default_factory=dict)
    """Resources the scheduler reserves (`cpu`, `memory`, `amd.com/gpu`, ...)."""
    limits: dict[str, Quantity] = Field(default_factory=dict)
    """Upper bounds the container may use."""
    claims: list[dict[str, Any]] = Field(default_factory=list)
    """Dynamic resource claims, passed through unchanged."""

    @model_validator(mode="after")
    def _check(self) -> Self:
        _raise_first(resource_quantity_rules(self))
        return self


class ModelSource(AIMBase):
    """A profile model source; `sourceURI` and a `name` standing for `modelId` are read as aliases."""

    model_id: str | None = None
    """The model id the weights are known by (e.g. a Hugging Face repository)."""
    source_uri: str | None = None
    """Where the weights come from: `hf://org/model` or `s3://bucket/prefix`."""
    size: Quantity | None = None
    """Size of the weights; sizes the cache PVC (S3 prefixes can also be listed)."""
    env: list[EnvVar] = Field(default_factory=list)
    """Environment variables for downloading this source."""

    @classmethod
    def _normalise_input(cls, data: dict[Any, Any]) -> dict[Any, Any]:
        data = rename_alias(data, "sourceURI", "sourceUri")
        if "name" in data and "modelId" not in data and "model_id" not in data:
            data = rename_alias(data, "name", "modelId")
        elif "name" in data and data["name"] == data.get("modelId", data.get("model_id")):
            data = {k: v for k, v in data.items() if k != "name"}
        return data


# --- routing ---------------------------------------------------------------------------------


# Gateway API v1 ParentReference and Hostname rules: these values are copied into the HTTPRoute,
# so anything the HTTPRoute schema refuses is refused here, where the AIM field can be named.
_DNS1123_LABEL = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_DNS1123_SUBDOMAIN = rf"{_DNS1123_LABEL}(\.{_DNS1123_LABEL})*"
GatewayGroup = Annotated[str, Field(max_length=253, pattern=rf"^$|^{_DNS1123_SUBDOMAIN}$")]
GatewayKind = Annotated[
    str, Field(min_length=1, max_length=63, pattern=r"^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$")
]
GatewayName = Annotated[str, Field(min_length=1, max_length=253, pattern=rf"^{_DNS1123_SUBDOMAIN}$")]
GatewayNamespace = Annotated[str, Field(min_length=1, max_length=63, pattern=rf"^{_DNS1123_LABEL}$")]
SectionName = Annotated[str, Field(min_length=1, max_length=253, pattern=rf"^{_DNS1123_SUBDOMAIN}$")]
Hostname = Annotated[str, Field(min_length=1, max_length=253, pattern=rf"^(\*\.)?{_DNS1123_SUBDOMAIN}$")]


class GatewayRef(AIMBase):
    """A Gateway API parentRef (A18: `name` is required)."""

    group: GatewayGroup | None = None
    """API group of the parent (default `gateway.networking.k8s.io`)."""
    kind: GatewayKind | None = None
    """Kind of the parent (default `Gateway`)."""
    name: GatewayName
    """The Gateway the HTTPRoute attaches to."""
    namespace: GatewayNamespace | None = None
    """The Gateway's namespace; default the service's."""
    section_name: SectionName | None = None
    """A listener of the Gateway."""
    port: Annotated[int, Field(ge=1, le=65535)] | None = None
    """A listener port of the Gateway."""


# A17: the Gateway API duration format, copied verbatim into the HTTPRoute.
RequestTimeout = Annotated[str, Field(pattern=r"^([0-9]{1,5}(h|m|s|ms)){1,4}$")]


class Routing(AIMBase):
    enabled: bool | None = None
    """Create an HTTPRoute for the service."""
    gateway_ref: GatewayRef | None = None
    """The Gateway the route attaches to."""
    hostnames: Annotated[list[Hostname], Field(max_length=16)] = Field(default_factory=list)
    """Hostnames the route matches."""
    path_template: str | None = None
    """
    Path prefix rendered from the AIMService with JSONPath (`/{.metadata.namespace}/...`); default
    `/<namespace>/<uid>`.
    """
    request_timeout: RequestTimeout | None = None
    """Gateway API request timeout (e.g. `60s`)."""
    annotations: dict[str, str] = Field(default_factory=dict)
    """Annotations of the HTTPRoute."""

    @model_validator(mode="after")
    def _check(self) -> Self:
        _raise_first(routing_annotation_rules(self.annotations))
        return self


# --- storage ---------------------------------------------------------------------------------


class DownloadFilter(AIMBase):
    include: list[str] = Field(default_factory=list)
    """Glob patterns of files to download."""
    exclude: list[str] = Field(default_factory=list)
    """Glob patterns of files to skip."""


HeadroomPercent = Annotated[int, Field(ge=0, le=INT32_MAX)]


class Storage(AIMBase):
    default_storage_class_name: str | None = None
    """Storage class of cache PVCs."""
    pvc_headroom_percent: HeadroomPercent | None = None
    """Extra space on top of the model size when sizing a cache PVC."""
    download_filter: DownloadFilter | None = None
    """Which files of a model source are downloaded."""


class ScaleFromZero(AIMBase):
    activation_metric_query_template: Annotated[str, Field(min_length=1, max_length=4096)] | None = None
    """
    Query of the KEDA trigger that wakes the service; placeholders `${namespace}`, `${serviceName}`,
    `${httpRouteName}`, `${predictorDeployment}`.
    """


class LabelPropagation(AIMBase):
    enabled: bool | None = None
    """Copy matching labels of AIM objects to their children."""
    match: list[str] = Field(default_factory=list)
    """Label keys to copy; `filepath.Match` patterns such as `org.example/*`."""


# --- artifact / S3 ---------------------------------------------------------------------------


class CredentialsSecretRef(AIMBase):
    name: NonEmptyStr
    """The Secret holding the S3 credentials, in the workload's namespace."""
    access_key_id_key: str | None = None
    """Key of the access key id in the Secret (default `accessKeyId`)."""
    secret_access_key_key: str | None = None
    """Key of the secret access key in the Secret (default `secretAccessKey`)."""
    session_token_key: str | None = None
    """Key of a session token in the Secret; none is read when unset."""


class S3Auth(AIMBase):
    """R4: `static` mode and a credentials secret go together."""

    mode: Literal["chain", "static", "anonymous"] | None = None
    """How the download authenticates: the SDK's credential chain, a static Secret, or anonymously."""
    credentials_secret_ref: CredentialsSecretRef | None = None
    """The Secret of `static` mode."""

    @model_validator(mode="after")
    def _check(self) -> Self:
        _raise_first(s3_auth_rules(self))
        return self


class CaBundleRef(AIMBase):
    kind: Literal["ConfigMap", "Secret"]
    """What holds the CA bundle."""
    name: NonEmptyStr
    """Name of the ConfigMap or Secret."""
    key: str | None = None
    """Key of the bundle in it (default `ca.crt`)."""


class S3Tls(AIMBase):
    """R5: a CA bundle and skipping verification contradict each other."""

    ca_bundle_ref: CaBundleRef | None = None
    """A CA bundle to trust for the S3 endpoint."""
    insecure_skip_verify: bool | None = None
    """Skip verifying the endpoint's certificate."""

    @model_validator(mode="after")
    def _check(self) -> Self:
        _raise_first(s3_tls_rules(self))
        return self


class S3Settings(AIMBase):
    endpoint: Annotated[str, Field(pattern=r"^https?://[^ \t\r\n]+$")] | None = None
    """The S3 endpoint URL, scheme included (the Job's `AWS_ENDPOINT_URL`)."""
    region: str | None = None
    """The S3 region (the Job's `AWS_REGION`)."""
    addressing_style: str | None = None
    """Bucket addressing style, e.g. `path` or `virtual` (`AIM_S3_ADDRESSING_STYLE`)."""
    signature_version: str | None = None
    """The request signature version, e.g. `s3v4` (`AIM_S3_SIGNATURE_VERSION`)."""
    auth: S3Auth | None = None
    """How the download authenticates."""
    tls: S3Tls | None = None
    """How the endpoint's certificate is checked."""


class Artifact(AIMBase):
    model_download_image: str | None = None
    """Image of the download Jobs."""
    s3: S3Settings | None = None
    """How S3 model sources are reached."""


# --- profile generation fallbacks ------------------------------------------------------------


class FallbackMatch(AIMBase):
    accelerator_vendor: NonEmptyStr
    """The model's accelerator vendor this fallback serves (`amd`, `nvidia`)."""
    accelerator_type: AcceleratorType  # the generated profile's rule, reported where it is written
    """`gpu` or `cpu`."""
    accelerator_model: str | None = None
    """Only this accelerator model (e.g. `MI300X`); any when unset."""
    accelerator_partitioning_mode: str | None = None
    """Only this partitioning mode of the accelerator."""


class FallbackRuntime(AIMBase):
    image: NonEmptyStr
    """The serving image of the generated profiles."""
    engine: NonEmptyStr
    """The inference engine the image runs (e.g. `vllm`)."""
    engine_args: JsonObject = Field(default_factory=dict)
    """Engine arguments of the generated profiles."""
    engine_env: dict[str, str] = Field(default_factory=dict)
    """Engine environment variables of the generated profiles."""
    container_env: list[EnvVar] = Field(default_factory=list)
    """Container environment of the generated profiles."""
    resources: ResourceRequirements | None = None
    """Container resources of the generated profiles."""
    image_pull_secrets: list[LocalObjectReference] = Field(default_factory=list)
    """Pull secrets of the image."""
    service_account_name: str | None = None
    """Service account of the inference pods."""


class Fallback(AIMBase):
    """R1: a generic runtime for a hardware class, turned into profiles for ID-backed models."""

    name: NonEmptyStr
    """Fallbacks merge by name across namespace and cluster configs."""
    priority: Annotated[int, Field(ge=INT32_MIN, le=INT32_MAX)] = 0
    """Higher wins among matching fallbacks."""
    type: ProfileType = "unoptimized"
    """Optimization tier of the generated profiles."""
    auto_selection_policy: AutoSelectionPolicy = "optimized"
    """`any` lets generated profiles into the second selection pass."""
    match: FallbackMatch
    """The hardware class this fallback serves."""
    runtime: FallbackRuntime
    """The serving runtime of the generated profiles."""


class ProfileGeneration(AIMBase):
    fallbacks: list[Fallback] = Field(default_factory=list)
    """Generic runtimes that generate profiles for models declared by `modelId`."""

    @model_validator(mode="after")
    def _check(self) -> Self:
        _raise_first(fallback_list_rules(self.fallbacks))
        return self


class RuntimeConfigModel(AIMBase):
    profile_generation: ProfileGeneration | None = None
    """How profiles are generated for models declared by `modelId`."""


class RuntimeConfigBlock(AIMBase):
    """The runtime-config fields an AIMService may also carry inline (`spec.runtimeConfig`)."""

    storage: Storage | None = None
    """Cache storage defaults."""
    routing: Routing | None = None
    """Routing defaults services inherit when their own `routing` leaves a field unset."""
    scale_from_zero: ScaleFromZero | None = None
    """Scale-from-zero activation query."""
    env: list[EnvVar] = Field(default_factory=list)
    """Environment variables injected into managed workloads."""
    label_propagation: LabelPropagation | None = None
    """Which labels are copied to children."""
    artifact: Artifact | None = None
    """Download Job image and S3 settings."""
    default_storage_class_name: str | None = None
    """Storage class of cache PVCs (same as `storage.defaultStorageClassName`)."""
    pvc_headroom_percent: HeadroomPercent | None = None
    """Extra cache PVC space (same as `storage.pvcHeadroomPercent`)."""


# --- status ----------------------------------------------------------------------------------


class StatusRef(AIMStatusBase):
    """A typed reference as recorded in status (`resolvedProfile`, `resolvedRuntimeConfig`, ...)."""

    kind: str | None = None
    name: str | None = None
    namespace: str | None = None
    scope: str | None = None
    uid: str | None = None


class StatusCondition(AIMStatusBase):
    type: str | None = None
    status: str | None = None
    reason: str | None = None
    message: str | None = None


class GenericStatus(AIMStatusBase):
    """Status of kinds whose status this project only passes through."""

    status: str | None = None
    conditions: list[StatusCondition] = Field(default_factory=list)


# --- admission rules of the shared blocks (behaviour §2) -----------------------------------------


def routing_annotation_rules(annotations: Mapping[str, str]) -> Problems:
    """`routing.annotations` become the HTTPRoute's annotations, whose keys the API server checks."""
    from aim_pulumi.schemas.metadata import qualified_name_errors

    return [
        problem(f"annotations.{key}", f"annotation key {key!r}: {message}")
        for key in annotations
        for message in qualified_name_errors(key.lower())
    ]


def env_var_rules(env: EnvVar) -> Problems:
    """A24: an EnvVar takes its value from `value` or `valueFrom`, not both; its name is one the API
    server takes (`IsRelaxedEnvVarName`), and its value one a process can receive (no NUL byte)."""
    from aim_pulumi.schemas.pod_rules import env_name_errors, value_from_errors

    out = [problem("name", f"env var name {env.name!r}: {message}") for message in env_name_errors(env.name)]
    if isinstance(env.value, str) and "\x00" in env.value:
        out.append(
            problem("value", f"env var {env.name!r}: a value cannot hold a NUL byte (execve takes C strings)")
        )
    if env.value is not None and env.value_from is not None:
        out.append(problem("", f"env var {env.name!r} sets both `value` and `valueFrom`; set one"))
    elif env.value_from is not None:
        # `validateEnvVarValueFrom`: one source the pod can read (a field it has, a resource with a
        # divisor the API server takes), said at the AIM field rather than at the child's.
        source = env.value_from.model_dump(by_alias=True, exclude_none=True, mode="json")
        out += [
            problem(path, f"env var {env.name!r}: {message}")
            for path, message in value_from_errors({"name": env.name, "valueFrom": source})
        ]
    return out


def key_selector_rules(selector: KeySelector) -> Problems:
    """`validateSecretKeySelector` / `validateConfigMapKeySelector`: a DNS-1123 name, a config key."""
    from aim_pulumi.schemas.metadata import dns1123_subdomain_errors
    from aim_pulumi.schemas.pod_rules import config_map_key_errors

    out = (
        [problem("name", f"{selector.name!r}: {m}") for m in dns1123_subdomain_errors(selector.name)]
        if selector.name
        else []
    )
    out += [problem("key", f"{selector.key!r}: {m}") for m in config_map_key_errors(selector.key)]
    return out


def resource_quantity_rules(resources: ResourceRequirements) -> Problems:
    """`ValidateResourceQuantityValue`: never negative, whole numbers for extended resources
    (`amd.com/gpu`). Request against limit is judged on the container, where the service's and the
    profile's resources have been merged."""
    from aim_pulumi.schemas.pod_rules import container_resource_name_errors, quantity_value_errors

    return [
        *(
            problem(f"{side}.{name}", f"resource name {message}")
            for side in ("requests", "limits")
            for name in getattr(resources, side)
            for message in container_resource_name_errors(name)
        ),
        *(
            problem(f"{side}.{name}", f"{name} {value!r}: {message}")
            for side in ("requests", "limits")
            for name, value in getattr(resources, side).items()
            for message in quantity_value_errors(name, value)
        ),
    ]


def fallback_list_rules(fallbacks: Sequence[Fallback]) -> Problems:
    """R1: fallbacks merge by name, so a name appears once per list."""
    out: Problems = []
    seen: set[str] = set()
    for i, fallback in enumerate(fallbacks):
        if fallback.name in seen:
            out.append(
                problem(f"fallbacks[{i}].name", f"fallback name {fallback.name!r} is used more than once")
            )
        seen.add(fallback.name)
    return out


def s3_auth_rules(auth: S3Auth) -> Problems:
    """R4: static credentials need a secret, and a secret means static credentials."""
    static = auth.mode == "static"
    has_secret = auth.credentials_secret_ref is not None
    if static and not has_secret:
        return [problem("", "auth mode static requires credentialsSecretRef")]
    if has_secret and not static:
        return [
            problem("", f"credentialsSecretRef is only read with auth mode static (mode is {auth.mode!r})")
        ]
    return []


def s3_tls_rules(tls: S3Tls) -> Problems:
    """R5: a CA bundle is pointless when verification is skipped."""
    if tls.ca_bundle_ref is not None and tls.insecure_skip_verify is True:
        return [problem("", "set caBundleRef or insecureSkipVerify: true, not both")]
    return []
