"""Admission rules (behaviour §2): cross-field checks a CRD schema alone cannot express.

Single-field rules (enums, bounds, patterns, required fields) live on the model fields themselves;
the rules here look at several fields at once. Each function returns every problem it finds, in
rule order, so `validate` can report them all while construction raises the first. Rules on
sub-models shared by several kinds return paths relative to that sub-model.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from aim_pulumi.api.errors import AIMValidationError
from aim_pulumi.schemas.metadata import is_dns1123_label, is_dns1123_subdomain

if TYPE_CHECKING:
    from aim_pulumi.api.base import AIMKind
    from aim_pulumi.api.common import EnvVar, Fallback, S3Auth, S3Tls
    from aim_pulumi.api.model import ModelKind
    from aim_pulumi.api.profile import ProfileKind
    from aim_pulumi.api.runtime_config import AIMClusterRuntimeConfig, AIMRuntimeConfig
    from aim_pulumi.api.service import AIMService
    from aim_pulumi.api.template import TemplateKind

Problems = list[AIMValidationError]

# KServe names the predictor host `<isvc>-predictor-<namespace>` within 63 characters; the
# InferenceService name keeps at least 10 characters after `-predictor-` and the namespace.
_ISVC_HOST_BUDGET = 63 - 11
_MIN_ISVC_NAME = 10

PROFILE_ROLE_LABEL = "aim.eai.amd.com/profile-role"
_PROFILE_ROLES = ("deployable", "base")

# Flags the direct vLLM command line manages itself (behaviour §13.5).
_MANAGED_VLLM_FLAGS = ("model", "host", "port")


def _problem(field: str, message: str, reason: str = "InvalidSpec") -> AIMValidationError:
    return AIMValidationError(field, reason, message)


def _set(value: str | None) -> bool:
    return bool(value)


# --- every kind ------------------------------------------------------------------------------


def metadata_rules(obj: AIMKind) -> Problems:
    """A23 (Kubernetes names), cluster kinds carry no namespace, A22 for services, label syntax."""
    out: Problems = [*_label_rules(obj), *_service_name_rules(obj)]
    name = obj.metadata.name
    if not is_dns1123_subdomain(name):
        out.append(
            _problem(
                "metadata.name",
                f"{name!r} is not a DNS-1123 subdomain (lowercase alphanumerics, '-' and '.', "
                "starting and ending alphanumeric, at most 253 characters)",
            )
        )
    namespace = obj.metadata.namespace
    if obj.SCOPE == "Cluster":
        if namespace is not None:
            out.append(_problem("metadata.namespace", f"{obj.KIND} is cluster-scoped and has no namespace"))
        return out
    if namespace is not None and not is_dns1123_label(namespace):
        out.append(
            _problem(
                "metadata.namespace",
                f"{namespace!r} is not a DNS-1123 label (lowercase alphanumerics and '-', "
                "starting and ending alphanumeric, at most 63 characters)",
            )
        )
    elif obj.KIND == "AIMService" and namespace is not None:
        room = _ISVC_HOST_BUDGET - len(namespace)
        if room < _MIN_ISVC_NAME:
            out.append(
                _problem(
                    "metadata.namespace",
                    f"namespace {namespace!r} leaves {room} characters for the InferenceService name "
                    f"(at least {_MIN_ISVC_NAME} needed for the `<isvc>-predictor-<namespace>` host); "
                    f"use a namespace of at most {_ISVC_HOST_BUDGET - _MIN_ISVC_NAME} characters",
                    "NameTooLong",
                )
            )
    return out


def _label_rules(obj: AIMKind) -> Problems:
    """Labels and annotation keys as the API server checks them: labels propagate to children.

    A label the API server would refuse on a child would fail half-way through a deployment; it
    is refused here, with the AIM field that holds it.
    """
    from aim_pulumi.api.limits import UNRESOLVED_VALUE
    from aim_pulumi.schemas.metadata import label_value_errors, qualified_name_errors

    out: Problems = []
    for key, value in obj.metadata.labels.items():
        for message in qualified_name_errors(key):
            out.append(_problem(f"metadata.labels.{key}", f"label key {key!r}: {message}"))
        if UNRESOLVED_VALUE.search(value):
            continue  # known only at deploy time
        for message in label_value_errors(value):
            out.append(_problem(f"metadata.labels.{key}", f"label value {value!r}: {message}"))
    for key in obj.metadata.annotations:
        for message in qualified_name_errors(key.lower()):
            out.append(_problem(f"metadata.annotations.{key}", f"annotation key {key!r}: {message}"))
    return out


def _service_name_rules(obj: AIMKind) -> Problems:
    """KServe names an InferenceService by DNS-1035: it must start with a letter, and so the service."""
    name = obj.metadata.name
    if obj.KIND != "AIMService" or not name or (name[0].isascii() and name[0].isalpha()):
        return []
    return [
        _problem(
            "metadata.name",
            f"{name!r} must start with a letter: the InferenceService named after it is a DNS-1035 label",
        )
    ]


def path_segment_problems(field: str, value: str | None) -> Problems:
    """A value that becomes part of a container path must stay below the directory it is put in.

    `aimId` and model ids are joined onto mount roots; `..`, `.` or empty segments, an absolute
    path, backslashes and control characters could point the mount anywhere in the container.
    """
    if not value:
        return []
    segments = value.split("/")
    bad = (
        value.startswith("/")
        or "\\" in value
        or any(segment in ("", ".", "..") for segment in segments)
        or any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in value)
    )
    if not bad:
        return []
    return [
        _problem(
            field,
            f"{value!r} must be a relative path of plain segments (no '..', '.', empty segments, "
            "leading '/', backslashes or control characters): it becomes part of a container path",
        )
    ]


def env_var_rules(env: EnvVar) -> Problems:
    """A24: an EnvVar takes its value from `value` or `valueFrom`, not both."""
    if env.value is not None and env.value_from is not None:
        return [_problem("", f"env var {env.name!r} sets both `value` and `valueFrom`; set one")]
    return []


# --- AIMService ------------------------------------------------------------------------------


def service_rules(svc: AIMService) -> Problems:
    """A1-A13, A20, A21 and the autoscaling-needs-metrics rule, in that order."""
    return [
        *_service_version_rules(svc),
        *_service_anchor_rules(svc),
        *_service_profile_rules(svc),
        *_service_model_rules(svc),
        *_service_replica_rules(svc),
        *_service_override_rules(svc),
        *_service_autoscaling_rules(svc),
        *_service_unsupported_rules(svc),
    ]


def _service_version_rules(svc: AIMService) -> Problems:
    """A1, A2: v1alpha1-isms rejected on v1alpha2."""
    if svc.is_legacy:
        return []
    out: Problems = []
    if svc.spec.template is not None:
        out.append(
            _problem(
                "spec.template", "spec.template is not accepted on v1alpha2; use spec.profile or spec.model"
            )
        )
    if svc.spec.overrides is not None:
        out.append(
            _problem(
                "spec.overrides", "spec.overrides is not accepted on v1alpha2; use spec.profileOverrides"
            )
        )
    return out


def _service_anchor_rules(svc: AIMService) -> Problems:
    """A3 (something to resolve), A4 (one pipeline per service)."""
    out: Problems = []
    spec = svc.spec
    if spec.model is None and spec.profile is None:
        out.append(_problem("spec", "one of spec.model or spec.profile must be specified"))
    elif (
        spec.model is None
        and spec.profile is not None
        and not _set(spec.profile.name)
        and spec.profile.selector is None
    ):
        # An empty profile block names nothing: resolving it would rank every profile in reach, the
        # unanchored selection A7 forbids for an explicit selector.
        out.append(
            _problem(
                "spec.profile",
                "spec.profile needs a name or a selector, or spec.model beside it; it names nothing",
            )
        )
    if spec.profile is not None and spec.template is not None:
        out.append(_problem("spec.template", "spec.profile and spec.template are mutually exclusive"))
    return out


def _service_profile_rules(svc: AIMService) -> Problems:
    """A5 (overrides need a named seed), A6 (never a base role), A7 (anchored selector), A8."""
    out: Problems = []
    spec = svc.spec
    profile_name = spec.profile.name if spec.profile is not None else None
    selector = spec.profile.selector if spec.profile is not None else None
    if spec.profile_overrides is not None and not _set(profile_name):
        out.append(
            _problem(
                "spec.profileOverrides", "spec.profileOverrides requires spec.profile.name (the seed profile)"
            )
        )
    if selector is not None:
        out.extend(path_segment_problems("spec.profile.selector.aimId", selector.aim_id))
        if selector.role is not None and selector.role != "deployable":
            out.append(
                _problem(
                    "spec.profile.selector.role",
                    f"role {selector.role!r} is reserved: a service only binds deployable profiles; "
                    "omit role or set it to deployable",
                )
            )
        anchored = (
            _set(selector.aim_id)
            or (selector.model_ref is not None and _set(selector.model_ref.name))
            or spec.model is not None
        )
        if not anchored:
            out.append(
                _problem(
                    "spec.profile.selector",
                    "a selector needs selector.aimId, selector.modelRef.name, or spec.model",
                )
            )
        if _set(profile_name):
            out.append(
                _problem(
                    "spec.profile.selector",
                    "spec.profile.name and spec.profile.selector are mutually exclusive",
                )
            )
    return out


def _service_model_rules(svc: AIMService) -> Problems:
    """A9 (exactly one model anchor)."""
    model = svc.spec.model
    if model is None:
        return []
    anchors = [n for n, v in (("name", model.name), ("image", model.image)) if _set(v)]
    if model.custom is not None:
        anchors.append("custom")
    if len(anchors) != 1:
        found = ", ".join(anchors) if anchors else "none"
        return [
            _problem("spec.model", f"spec.model needs exactly one of name, image, custom (found: {found})")
        ]
    return []


def _service_replica_rules(svc: AIMService) -> Problems:
    """A11: bounds in order (the single-field bounds are on the fields)."""
    spec = svc.spec
    if (
        spec.min_replicas is not None
        and spec.max_replicas is not None
        and spec.min_replicas > spec.max_replicas
    ):
        return [
            _problem(
                "spec.minReplicas",
                f"minReplicas ({spec.min_replicas}) must not exceed maxReplicas ({spec.max_replicas})",
            )
        ]
    return []


def _service_override_rules(svc: AIMService) -> Problems:
    """A13: partitioning changes the device count, so the count must be given with it."""
    overrides = svc.spec.profile_overrides
    if (
        overrides is not None
        and _set(overrides.accelerator_partitioning_mode)
        and overrides.accelerator_count is None
    ):
        return [
            _problem(
                "spec.profileOverrides.acceleratorPartitioningMode",
                "spec.profileOverrides.acceleratorPartitioningMode requires "
                "spec.profileOverrides.acceleratorCount",
            )
        ]
    return []


def _service_autoscaling_rules(svc: AIMService) -> Problems:
    """A20 (buildable triggers) and AutoscalingRequiresMetrics (bounds with nothing to scale on)."""
    out: Problems = []
    spec = svc.spec
    metrics = spec.auto_scaling.metrics if spec.auto_scaling is not None else []
    for i, metric in enumerate(metrics):
        base = f"spec.autoScaling.metrics[{i}]"
        pod = metric.podmetric
        if pod is None:
            out.append(_problem(f"{base}.podmetric", "a PodMetric trigger needs podmetric"))
            continue
        source = pod.metric
        if source is None or (not source.metric_names and not _set(source.query)):
            out.append(_problem(f"{base}.podmetric.metric", "podmetric.metric needs metricNames or query"))
        if pod.target is None or pod.target.type is None:
            out.append(
                _problem(
                    f"{base}.podmetric.target.type",
                    "podmetric.target.type is required (Value, AverageValue or Utilization)",
                )
            )
    autoscaling = (
        spec.auto_scaling is not None or spec.min_replicas is not None or spec.max_replicas is not None
    )
    minimum = spec.min_replicas if spec.min_replicas is not None else 1
    if autoscaling and minimum > 0 and not metrics:
        out.append(
            _problem(
                "spec.autoScaling.metrics",
                f"autoscaling with minReplicas {minimum} needs at least one spec.autoScaling.metrics entry "
                "(or minReplicas: 0 for scale-from-zero)",
                "AutoscalingRequiresMetrics",
            )
        )
    return out


def _service_unsupported_rules(svc: AIMService) -> Problems:
    """A10, A21: accepted by the operator's schema but not implementable without a cluster."""
    out: Problems = []
    if svc.spec.model is not None and svc.spec.model.custom is not None:
        out.append(
            _problem(
                "spec.model.custom",
                "inline custom models need a discovery Job and are not supported; declare an AIMModel and "
                "its profiles and use spec.model.name",
                "Unsupported",
            )
        )
    if svc.spec.adapters is not None:
        out.append(_problem("spec.adapters", "LoRA adapters are not supported", "Unsupported"))
    return out


# --- profiles --------------------------------------------------------------------------------


def normalise_flag(key: str) -> str:
    """vLLM accepts `max_model_len`, `--max-model-len` and `max-model-len` alike as one flag."""
    return key.lstrip("-").replace("_", "-")


def profile_rules(profile: ProfileKind) -> Problems:
    """P1 (non-empty anchors), P4 (engine args), P5 (cluster caching), P6 (role label)."""
    out: Problems = []
    spec = profile.spec
    if spec.aim_id is not None and not spec.aim_id.strip():
        out.append(_problem("spec.aimId", "spec.aimId must not be blank; omit it only on a base profile"))
    elif spec.aim_id is None and spec.model_sources:
        out.append(
            _problem(
                "spec.aimId",
                "spec.modelSources needs spec.aimId: a deployable profile names its model; a base "
                "profile sets neither",
            )
        )
    out.extend(path_segment_problems("spec.aimId", spec.aim_id))
    out.extend(path_segment_problems("spec.modelId", spec.model_id))
    if not spec.image.strip():
        out.append(_problem("spec.image", "spec.image must not be blank"))
    if spec.accelerator_vendor == "nvidia" and (spec.engine or "").lower() == "vllm":
        seen: dict[str, str] = {}
        for key in spec.engine_args:
            flag = normalise_flag(key)
            if flag in _MANAGED_VLLM_FLAGS:
                out.append(
                    _problem(
                        "spec.engineArgs",
                        f"engine arg {key!r} is managed by the vLLM command line; remove it",
                    )
                )
            elif flag in seen:
                out.append(
                    _problem(
                        "spec.engineArgs",
                        f"engine args {seen[flag]!r} and {key!r} name the same vLLM flag --{flag}",
                    )
                )
            seen.setdefault(flag, key)
    if profile.SCOPE == "Cluster" and spec.caching is not None:
        out.append(
            _problem("spec.caching", "caching is namespace-only; AIMClusterProfile cannot set spec.caching")
        )
    role = profile.metadata.labels.get(PROFILE_ROLE_LABEL)
    if role is not None and role not in _PROFILE_ROLES:
        out.append(
            _problem(
                f"metadata.labels.{PROFILE_ROLE_LABEL}", f"profile role {role!r} must be deployable or base"
            )
        )
    return out


# --- models ----------------------------------------------------------------------------------


def model_rules(model: ModelKind) -> Problems:
    """M1 (one onboarding path), M2 (derivation unsupported)."""
    spec = model.spec
    out: Problems = [
        *path_segment_problems("spec.aimId", spec.aim_id),
        *path_segment_problems("spec.modelId", spec.model_id),
    ]
    if _set(spec.image) and _set(spec.model_id):
        out.append(_problem("spec.modelId", "set exactly one of spec.image and spec.modelId, not both"))
    elif not _set(spec.image) and not _set(spec.model_id):
        out.append(
            _problem(
                "spec.image", "set exactly one of spec.image (image-backed) and spec.modelId (ID-backed)"
            )
        )
    if spec.profiles is not None:
        out.append(
            _problem(
                "spec.profiles",
                "profile derivation (spec.profiles) is not supported; declare profiles",
                "Unsupported",
            )
        )
    return out


# --- runtime configs -------------------------------------------------------------------------


def runtime_config_rules(rc: AIMRuntimeConfig | AIMClusterRuntimeConfig) -> Problems:
    """R1-R5 are single-block rules enforced on the blocks themselves; nothing spans the kind."""
    return []


def fallback_list_rules(fallbacks: Sequence[Fallback]) -> Problems:
    """R1: fallbacks merge by name, so a name appears once per list."""
    out: Problems = []
    seen: set[str] = set()
    for i, fallback in enumerate(fallbacks):
        if fallback.name in seen:
            out.append(
                _problem(f"fallbacks[{i}].name", f"fallback name {fallback.name!r} is used more than once")
            )
        seen.add(fallback.name)
    return out


def s3_auth_rules(auth: S3Auth) -> Problems:
    """R4: static credentials need a secret, and a secret means static credentials."""
    static = auth.mode == "static"
    has_secret = auth.credentials_secret_ref is not None
    if static and not has_secret:
        return [_problem("", "auth mode static requires credentialsSecretRef")]
    if has_secret and not static:
        return [
            _problem("", f"credentialsSecretRef is only read with auth mode static (mode is {auth.mode!r})")
        ]
    return []


def s3_tls_rules(tls: S3Tls) -> Problems:
    """R5: a CA bundle is pointless when verification is skipped."""
    if tls.ca_bundle_ref is not None and tls.insecure_skip_verify is True:
        return [_problem("", "set caBundleRef or insecureSkipVerify: true, not both")]
    return []


# --- templates -------------------------------------------------------------------------------


def template_rules(template: TemplateKind) -> Problems:
    """T1 (blank model name), T3 (namespace-only fields), T4 (one hardware class)."""
    out: Problems = []
    spec = template.spec
    if not spec.model_name.strip():
        out.append(_problem("spec.modelName", "spec.modelName must not be blank"))
    if template.SCOPE == "Cluster":
        if "env" in spec.model_fields_set:
            out.append(
                _problem("spec.env", "env is namespace-only; AIMClusterServiceTemplate cannot set spec.env")
            )
        if spec.caching is not None:
            out.append(
                _problem(
                    "spec.caching",
                    "caching is namespace-only; AIMClusterServiceTemplate cannot set spec.caching",
                )
            )
    if spec.hardware is not None and spec.hardware.gpu is not None and spec.hardware.cpu is not None:
        out.append(_problem("spec.hardware", "set hardware.gpu or hardware.cpu, not both"))
    return out
