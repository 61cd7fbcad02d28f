"""Model caching decisions (behaviour §12): whether a service caches, and one plan per model source.

A cache is a PVC plus the Job that fills it. Everything that decides their shape (names, size, storage
class, downloader env, labels, image) is decided here from plain specs, so the Pulumi layer only has to
register what these plans describe, and the same inputs always give the same children.

Inputs are camelCase spec dicts with presence semantics (`to_manifest(obj)["spec"]`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from aim_pulumi.resolve.children.container import cache_mount_path
from aim_pulumi.resolve.children.labels import propagate_labels, standard_labels
from aim_pulumi.resolve.children.names import CacheMode, cache_job_name, cache_pvc_name
from aim_pulumi.resolve.children.quantity import to_gi_ceil
from aim_pulumi.resolve.children.source_size import (
    CACHE_SIZE_UNKNOWN,
    declares_size,
    filter_lists,
    source_size_bytes,
    split_source_uri,
)
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resolve.runtime_config.merge import merge_env, merge_layers, plain_copy
from aim_pulumi.resolve.scalars import text
from aim_pulumi.resolve.settings import DEFAULT_DOWNLOAD_IMAGE, Settings
from aim_pulumi.resolve.types import CachePlan, Diagnostic

DEFAULT_HEADROOM_PERCENT = 10
DEFAULT_ACCESS_MODE = Settings.cache_access_mode
DEFAULT_DOWNLOAD_TIMEOUT_SECONDS = Settings.download_timeout_seconds
DOWNLOAD_MOUNT_PATH = "/cache/models"
CA_MOUNT_PATH = "/etc/aim/s3-ca"
DEFAULT_CA_BUNDLE_KEY = "ca.crt"
DEFAULT_ACCESS_KEY_ID_KEY = "accessKeyId"
DEFAULT_SECRET_ACCESS_KEY_KEY = "secretAccessKey"

CACHE_MODE_LABEL = "aim.eai.amd.com/cache-mode"
PROFILE_LABEL = "aim.eai.amd.com/profile"

SUPPORTED_SCHEMES = ("hf", "s3")
IGNORED_INPUT = "CacheInputIgnored"
SHRINK_REFUSED = "CacheShrinkRefused"


@dataclass(frozen=True)
class CacheSettings:
    """Deploy-time settings with no runtime-config field (stack config `aim:*` or component args)."""

    download_image: str | None = None
    timeout_seconds: int = DEFAULT_DOWNLOAD_TIMEOUT_SECONDS
    access_mode: str = DEFAULT_ACCESS_MODE
    skip_await: bool = False
    list_s3: bool = False

    @classmethod
    def from_settings(cls, settings: Settings) -> CacheSettings:
        """The cache-related part of the stack settings (`aim:downloadImage`, ...)."""
        return cls(
            download_image=settings.download_image,
            timeout_seconds=settings.download_timeout_seconds,
            access_mode=settings.cache_access_mode,
            skip_await=settings.skip_await,
            list_s3=settings.list_s3,
        )


class SizeOf(Protocol):
    """How many bytes a model source occupies; `source_size_bytes` is the real one."""

    def __call__(
        self,
        source: Mapping[str, Any],
        *,
        s3_settings: Mapping[str, Any] | None,
        download_filter: Mapping[str, Any] | None,
        field: str = "",
    ) -> int: ...


@dataclass(frozen=True)
class CacheProfile:
    """The effective profile whose model sources the caches hold, and where they live.

    A Shared cache is a function of this (and its runtime config) alone, which is what lets one
    plan serve every service on the profile.
    """

    namespace: str
    name: str
    spec: Mapping[str, Any]
    kind: str = "AIMProfile"


@dataclass(frozen=True)
class CacheConsumer:
    """The service a cache is planned for: a Dedicated cache's owner, or one user of a Shared one.

    `storage`, `env` and `caching` are the service's `spec.storage`, `spec.env` and
    `spec.caching`: a Dedicated cache belongs to the service and honours them; a Shared one serves
    every service on the profile, so one service's wishes cannot shape it and they are ignored
    with a warning. `labels` are the labels of the services the cache serves, in (namespace, name)
    order (one for Dedicated), the first value of a key winning; `label_match` the propagation
    patterns of the cache's runtime config (None when propagation is off).
    """

    name: str = ""
    uid: str = ""
    storage: Mapping[str, Any] | None = None
    env: Sequence[Mapping[str, Any]] | None = None
    caching: Mapping[str, Any] | None = None
    labels: Sequence[Mapping[str, str]] = ()
    label_match: Sequence[str] | None = None


NO_CONSUMER = CacheConsumer()
"""A Shared cache before any service's labels: the plan every user copies."""


# ----------------------------------------------------------------------------------- when / mode


def caching_enabled(
    profile_kind: str, profile_spec: Mapping[str, Any], service_spec: Mapping[str, Any]
) -> bool:
    """Whether the service gets caches: the service asks for them, or its namespace profile does.

    Only namespaced profiles carry `caching` (cluster profiles cannot opt a namespace into storage use),
    and a profile without model sources has nothing to download.
    """
    if not _sources(profile_spec):
        return False
    if service_spec.get("caching") is not None:
        return True
    if profile_kind != "AIMProfile":
        return False
    caching = profile_spec.get("caching")
    return isinstance(caching, Mapping) and caching.get("enabled") is True


def cache_mode(service_spec: Mapping[str, Any]) -> CacheMode:
    """`spec.caching.mode`, Shared by default; legacy spellings arrive already normalised by the API."""
    caching = service_spec.get("caching")
    mode = caching.get("mode") if isinstance(caching, Mapping) else None
    if mode is None or mode == "Shared":
        return "Shared"
    if mode == "Dedicated":
        return "Dedicated"
    raise AIMResolutionError(
        "spec.caching.mode", "InvalidSpec", f"cache mode {mode!r} is not Shared or Dedicated"
    )


# ------------------------------------------------------------------------------------- planning


def plan_caches(
    mode: CacheMode,
    profile: CacheProfile,
    consumer: CacheConsumer,
    *,
    rc_spec: Mapping[str, Any] | None,
    settings: CacheSettings | None = None,
    size_of: SizeOf = source_size_bytes,
    effective_rc: Mapping[str, Any] | None = None,
    shared_plans: Sequence[CachePlan] | None = None,
) -> tuple[list[CachePlan], list[Diagnostic]]:
    """One `CachePlan` per model source of the effective profile, plus the diagnostics to log.

    `rc_spec` is the merged runtime config of the cache: the profile's (resolved in the cache
    namespace) for Shared, the service's for Dedicated.

    `effective_rc`, when given, is `cache_runtime_config` of the same inputs computed once for
    many services (a Shared cache's depends on its runtime config alone); it is only read.
    `shared_plans`, likewise, is `shared_cache_plans` of the same inputs (Shared mode only).
    """
    settings = settings or CacheSettings()
    if mode == "Dedicated":
        if effective_rc is None:
            effective_rc = cache_runtime_config(rc_spec, consumer.storage)
        plans = _plan_sources(mode, profile, consumer, effective_rc, settings, size_of)
        return plans, s3_listings(profile, effective_rc, settings)
    diagnostics = _ignored_inputs(consumer.name, consumer.storage, consumer.env, consumer.caching)
    diagnostics += s3_listings(profile, effective_rc or rc_spec, settings)
    if shared_plans is None:
        shared_plans = shared_cache_plans(
            profile, rc_spec=rc_spec, settings=settings, size_of=size_of, effective_rc=effective_rc
        )
    return [_own_plan(plan, consumer.labels, consumer.label_match) for plan in shared_plans], diagnostics


def shared_cache_plans(
    profile: CacheProfile,
    *,
    rc_spec: Mapping[str, Any] | None,
    settings: CacheSettings | None = None,
    size_of: SizeOf = source_size_bytes,
    effective_rc: Mapping[str, Any] | None = None,
) -> list[CachePlan]:
    """The Shared caches of a profile before any service's labels: the same for every service on it.

    `plan_caches` gives each service its own copy with its labels propagated; a caller may compute
    these once for many services (sized by a function of the source alone) and pass them along.
    """
    if effective_rc is None:
        effective_rc = cache_runtime_config(rc_spec)
    return _plan_sources("Shared", profile, NO_CONSUMER, effective_rc, settings or CacheSettings(), size_of)


def _own_plan(
    plan: CachePlan, parents: Sequence[Mapping[str, str]], match: Sequence[str] | None
) -> CachePlan:
    """A Shared plan as one service's: its own copy of every mutable part, its labels propagated."""
    return dataclasses.replace(
        plan,
        source=plain_copy(plan.source),
        job_env=tuple(plain_copy(entry) for entry in plan.job_env),
        pvc_labels=_with_parents(plan.pvc_labels, parents, match),
        job_labels=_with_parents(plan.job_labels, parents, match),
        ca_bundle=plain_copy(plan.ca_bundle),
        adopted=plain_copy(plan.adopted),
    )


def _plan_sources(
    mode: CacheMode,
    profile: CacheProfile,
    consumer: CacheConsumer,
    effective_rc: Mapping[str, Any],
    settings: CacheSettings,
    size_of: SizeOf,
) -> list[CachePlan]:
    """One plan per model source; the consumer is a Dedicated service's (`NO_CONSUMER` for Shared)."""
    namespace, profile_name, profile_spec = profile.namespace, profile.name, profile.spec
    service_name, parent_labels, label_match = consumer.name, consumer.labels, consumer.label_match
    storage: Mapping[str, Any] = effective_rc.get("storage") or {}
    artifact: Mapping[str, Any] = effective_rc.get("artifact") or {}
    s3_settings: Mapping[str, Any] = artifact.get("s3") or {}
    download_filter = storage.get("downloadFilter")
    headroom = _headroom(storage)
    storage_class = _storage_class(profile_spec, storage)
    image = str(artifact.get("modelDownloadImage") or settings.download_image or DEFAULT_DOWNLOAD_IMAGE)
    profile_env = _profile_download_env(profile_spec)
    service_layers = [_env_list(consumer.env), _env_list((consumer.caching or {}).get("env"))]
    object_ref = _object_ref(profile.kind, namespace, profile_name)
    pull_secrets = _secret_names(profile_spec.get("imagePullSecrets"))
    account = str(profile_spec.get("serviceAccountName") or "") or None

    plans: list[CachePlan] = []
    first_of_uri: dict[str, str] = {}
    first_of_mount: dict[str, str] = {}
    owner = {"service": service_name, "service_uid": consumer.uid} if mode == "Dedicated" else {}
    for index, source in enumerate(_sources(profile_spec)):
        field = f"spec.modelSources[{index}]"
        scheme = _check_source(source, field, object_ref)
        pvc_name = cache_pvc_name(source, mode=mode, namespace=namespace, profile=profile_name, **owner)
        job_name = cache_job_name(source, mode=mode, namespace=namespace, profile=profile_name, **owner)
        mount_path = cache_mount_path(text(source.get("modelId")) or None, pvc_name)
        _check_unique(first_of_uri, text(source.get("sourceUri")), f"{field}.sourceUri", object_ref)
        _check_unique(first_of_mount, mount_path, f"{field}.modelId", object_ref)
        if scheme == "s3" and not declares_size(source) and not settings.list_s3:
            raise AIMResolutionError(
                f"{field}.size",
                CACHE_SIZE_UNKNOWN,
                f"model source {text(source.get('sourceUri'))} has no size, and sizing it means listing "
                f"the bucket with the local AWS credentials at {_s3_endpoint(s3_settings)}: set `size` on "
                "the model source, or allow the listing in trusted configuration (stack config "
                "`aim:listS3: true`, or `-c aim:listS3=true`)",
                object_ref=object_ref,
            )
        try:
            size_bytes = size_of(
                source, s3_settings=s3_settings, download_filter=download_filter, field=field
            )
        except AIMResolutionError as exc:
            if not exc.object_ref:
                raise AIMResolutionError(exc.field, exc.reason, exc.message, object_ref=object_ref) from exc
            raise
        s3_env, ca_bundle = _s3_env(s3_settings) if scheme == "s3" else ([], None)
        job_env = merge_env(
            _default_env(size_bytes, pvc_name, namespace, download_filter),
            _env_list(effective_rc.get("env")),
            profile_env,
            *service_layers,
            _env_list(source.get("env")),
            s3_env,
        )
        plans.append(
            CachePlan(
                mode=mode,
                namespace=namespace,
                profile_name=profile_name,
                source=dict(source),
                pvc_name=pvc_name,
                job_name=job_name,
                size_gi=pvc_size_gi(size_bytes, headroom),
                access_mode=settings.access_mode,
                mount_path=mount_path,
                job_image=image,
                job_env=tuple(job_env),
                pvc_labels=_labels("cache", mode, profile_name, service_name, parent_labels, label_match),
                job_labels=_labels("download", mode, profile_name, service_name, parent_labels, label_match),
                storage_class_name=storage_class,
                image_pull_secrets=pull_secrets,
                service_account_name=account,
                ca_bundle=ca_bundle,
                timeout_seconds=settings.timeout_seconds,
                skip_await=settings.skip_await,
            )
        )
    return plans


def _s3_endpoint(s3_settings: Mapping[str, Any]) -> str:
    """Where a listing would go: the runtime config's endpoint, else AWS's own."""
    endpoint = text(s3_settings.get("endpoint"))
    return f"{endpoint} (the runtime config's artifact.s3.endpoint)" if endpoint else "AWS's S3 endpoint"


def s3_listings(
    profile: CacheProfile, rc_spec: Mapping[str, Any] | None, settings: CacheSettings
) -> list[Diagnostic]:
    """What the plan says when it lists S3 to size a source (only with `aim:listS3`)."""
    if not settings.list_s3:
        return []
    s3_settings = ((rc_spec or {}).get("artifact") or {}).get("s3") or {}
    return [
        Diagnostic(
            "info",
            "S3Listing",
            f"sizing model source {text(source.get('sourceUri'))} by listing it at "
            f"{_s3_endpoint(s3_settings)} with the local AWS credentials (aim:listS3)",
        )
        for source in _sources(profile.spec)
        if split_source_uri(text(source.get("sourceUri")))[0] == "s3" and not declares_size(source)
    ]


def cache_runtime_config(
    rc_spec: Mapping[str, Any] | None, service_storage: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The runtime config a cache reads: the cache's merged one, under a Dedicated service's `storage`."""
    return merge_layers(rc_spec, {"storage": service_storage} if service_storage else None)


def pvc_size_gi(size_bytes: int, headroom_percent: int) -> int:
    """`ceil(bytes x (100 + headroom) / 100)` in whole Gi, rounded up; never 0, which the API rejects.

    Whole Gi keeps small changes in a source from resizing the PVC on every run.
    """
    with_headroom = -(-size_bytes * (100 + headroom_percent) // 100)
    return max(1, to_gi_ceil(with_headroom))


def shrink_guard(previous_gi: int | None, new_gi: int, *, pvc_name: str = "") -> tuple[int, list[Diagnostic]]:
    """Keep a PVC at its deployed size when the plan asks for less.

    Kubernetes can expand a PVC but rejects any decrease, so a smaller plan would fail the update;
    keeping the larger size and warning lets the rest of the deployment proceed.
    """
    if previous_gi is None or new_gi >= previous_gi:
        return new_gi, []
    subject = f"cache PVC {pvc_name}" if pvc_name else "cache PVC"
    return previous_gi, [
        Diagnostic(
            "warn",
            SHRINK_REFUSED,
            f"{subject} stays at {previous_gi}Gi: the plan asks for {new_gi}Gi, and Kubernetes cannot "
            "shrink a PersistentVolumeClaim",
        )
    ]


# ---------------------------------------------------------------------------------- precedence


def _headroom(storage: Mapping[str, Any]) -> int:
    value = storage.get("pvcHeadroomPercent")
    return DEFAULT_HEADROOM_PERCENT if value is None else int(value)


def _storage_class(profile_spec: Mapping[str, Any], storage: Mapping[str, Any]) -> str | None:
    """Profile class > (inline >) runtime config default > cluster default (omitted).

    An empty string counts as unset at every level: an empty `storageClassName` on a PVC would disable
    dynamic provisioning, which no one means by leaving the field blank.
    """
    for value in (profile_spec.get("storageClassName"), storage.get("defaultStorageClassName")):
        if value:
            return str(value)
    return None


def _profile_download_env(profile_spec: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """Profile `caching.env` when present (even empty), else its `containerEnv`; never `engineEnv`."""
    caching = profile_spec.get("caching")
    if isinstance(caching, Mapping) and caching.get("env") is not None:
        return _env_list(caching.get("env"))
    return _env_list(profile_spec.get("containerEnv"))


def _default_env(
    size_bytes: int, pvc_name: str, namespace: str, download_filter: Mapping[str, Any] | None
) -> list[dict[str, Any]]:
    """The downloader's own defaults (lowest layer), with the file filter it applies."""
    env = [
        _env("AIM_DOWNLOADER_PROTOCOL", "XET,HF_TRANSFER"),
        _env("TMPDIR", "/tmp/"),
        _env("HF_HOME", "/tmp/.hf"),
        _env("EXPECTED_SIZE_BYTES", str(size_bytes)),
        _env("MOUNT_PATH", DOWNLOAD_MOUNT_PATH),
        _env("TARGET_DIR", DOWNLOAD_MOUNT_PATH),
        _env("ARTIFACT_NAME", pvc_name),
        _env("ARTIFACT_NAMESPACE", namespace),
        _env("STALL_TIMEOUT", "120"),
        _env("DU_TIMEOUT", "300"),
    ]
    include, exclude = filter_lists(download_filter)
    if include:
        env.append(_env("AIM_HF_INCLUDE", ",".join(include)))
    if exclude:
        env.append(_env("AIM_HF_EXCLUDE", ",".join(exclude)))
    return env


def _s3_env(s3: Mapping[str, Any]) -> tuple[list[dict[str, Any]], dict[str, str] | None]:
    """The runtime config's typed S3 settings as downloader env (the final layer), and the CA bundle.

    Static credentials only ever appear as references to their Secret, never as values.
    """
    env: list[dict[str, Any]] = []
    for name, key in (
        ("AWS_ENDPOINT_URL", "endpoint"),
        ("AWS_REGION", "region"),
        ("AIM_S3_ADDRESSING_STYLE", "addressingStyle"),
        ("AIM_S3_SIGNATURE_VERSION", "signatureVersion"),
    ):
        if s3.get(key):
            env.append(_env(name, str(s3[key])))
    auth: Mapping[str, Any] = s3.get("auth") or {}
    if auth.get("mode"):
        env.append(_env("AIM_S3_AUTH_MODE", str(auth["mode"])))
    secret: Mapping[str, Any] = auth.get("credentialsSecretRef") or {}
    if auth.get("mode") == "static" and secret.get("name"):
        refs = [
            ("AWS_ACCESS_KEY_ID", secret.get("accessKeyIdKey") or DEFAULT_ACCESS_KEY_ID_KEY),
            ("AWS_SECRET_ACCESS_KEY", secret.get("secretAccessKeyKey") or DEFAULT_SECRET_ACCESS_KEY_KEY),
        ]
        if secret.get("sessionTokenKey"):
            refs.append(("AWS_SESSION_TOKEN", secret["sessionTokenKey"]))
        for name, key in refs:
            env.append(
                {"name": name, "valueFrom": {"secretKeyRef": {"name": str(secret["name"]), "key": str(key)}}}
            )
    tls: Mapping[str, Any] = s3.get("tls") or {}
    ca_ref: Mapping[str, Any] = tls.get("caBundleRef") or {}
    ca_bundle: dict[str, str] | None = None
    if ca_ref.get("name"):
        key = str(ca_ref.get("key") or DEFAULT_CA_BUNDLE_KEY)
        ca_bundle = {"kind": str(ca_ref.get("kind") or "ConfigMap"), "name": str(ca_ref["name"]), "key": key}
        env.append(_env("AWS_CA_BUNDLE", f"{CA_MOUNT_PATH}/{key}"))
    if tls.get("insecureSkipVerify") is True:
        env.append(_env("AIM_S3_INSECURE_SKIP_VERIFY", "true"))
    return env, ca_bundle


def _labels(
    component: str,
    mode: CacheMode,
    profile_name: str,
    service_name: str,
    parents: Sequence[Mapping[str, str]],
    match: Sequence[str] | None,
) -> dict[str, str]:
    """Standard labels first, then each parent's propagated labels; nothing already set is replaced.

    A Shared cache is no one service's child, so it carries no service label.
    """
    labels = standard_labels(
        component,
        service_name if mode == "Dedicated" else None,
        {CACHE_MODE_LABEL: mode.lower(), PROFILE_LABEL: profile_name},
    )
    return _with_parents(labels, parents, match)


def _with_parents(
    labels: Mapping[str, str], parents: Sequence[Mapping[str, str]], match: Sequence[str] | None
) -> dict[str, str]:
    """`labels` with each parent's propagated labels added (none replaced), in key order."""
    merged = dict(labels)
    for parent in parents:
        merged = propagate_labels(parent, merged, match)
    return dict(sorted(merged.items()))


def _ignored_inputs(
    service_name: str,
    storage: Mapping[str, Any] | None,
    env: Sequence[Mapping[str, Any]] | None,
    caching: Mapping[str, Any] | None,
) -> list[Diagnostic]:
    ignored = []
    if storage:
        ignored.append("spec.storage")
    if env:
        ignored.append("spec.env")
    if caching and caching.get("env"):
        ignored.append("spec.caching.env")
    if not ignored:
        return []
    return [
        Diagnostic(
            "warn",
            IGNORED_INPUT,
            f"service {service_name}: {', '.join(ignored)} not applied to the Shared cache, which every "
            "service on the profile uses; set them on the profile or its runtime config, or use "
            "caching.mode: Dedicated",
        )
    ]


# ------------------------------------------------------------------------------------- helpers


def _check_source(source: Mapping[str, Any], field: str, object_ref: str) -> str:
    """The source's scheme, once it is known to be one the downloader can fetch."""
    uri = text(source.get("sourceUri"))
    scheme, first, _ = split_source_uri(uri)
    if scheme not in SUPPORTED_SCHEMES or not first:
        raise AIMResolutionError(
            f"{field}.sourceUri",
            "InvalidSpec",
            f"model source {uri!r} cannot be cached: use hf://<org>/<repo> or s3://<bucket>/<prefix>",
            object_ref=object_ref,
        )
    return scheme


def _check_unique(seen: dict[str, str], value: str, field: str, object_ref: str) -> None:
    """One cache per source URI and one mount path per cache: a repeat would give the InferenceService
    two volumes of one name or two mounts at one path, which the API server rejects."""
    if value in seen:
        raise AIMResolutionError(
            field,
            "InvalidSpec",
            f"{value!r} is already taken by {seen[value]}: each model source needs its own source URI "
            "and its own cache mount path (/workspace/cache/<modelId>)",
            object_ref=object_ref,
        )
    seen[value] = field


def _sources(profile_spec: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [source for source in (profile_spec.get("modelSources") or ()) if isinstance(source, Mapping)]


def _env_list(value: Any) -> list[Mapping[str, Any]]:
    return [item for item in (value or ()) if isinstance(item, Mapping)]


def _env(name: str, value: str) -> dict[str, Any]:
    return {"name": name, "value": value}


def _secret_names(value: Any) -> tuple[str, ...]:
    names: list[str] = []
    for item in value or ():
        name = item.get("name") if isinstance(item, Mapping) else item
        if name and str(name) not in names:
            names.append(str(name))
    return tuple(names)


def _object_ref(kind: str, namespace: str, name: str) -> str:
    return f"{kind}/{name}" if kind.startswith("AIMCluster") else f"{kind}/{namespace}/{name}"


__all__ = [
    "CA_MOUNT_PATH",
    "DEFAULT_DOWNLOAD_IMAGE",
    "DEFAULT_HEADROOM_PERCENT",
    "CacheMode",
    "CacheSettings",
    "SizeOf",
    "cache_mode",
    "cache_runtime_config",
    "caching_enabled",
    "plan_caches",
    "pvc_size_gi",
    "shared_cache_plans",
    "shrink_guard",
]
