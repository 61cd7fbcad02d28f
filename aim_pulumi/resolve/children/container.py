"""The inference container and the profile ConfigMap, derived from the effective profile (behaviour §13).

Everything here works on camelCase spec dicts with presence semantics (what `to_manifest(obj)["spec"]`
gives), so that the profile pipeline, overlays and generated profiles all feed the same rules.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import yaml

from aim_pulumi.api.admission import normalise_flag
from aim_pulumi.api.base import names_a_credential
from aim_pulumi.api.errors import escape
from aim_pulumi.api.limits import UNRESOLVED_VALUE
from aim_pulumi.resolve.children.names import profile_configmap_name
from aim_pulumi.resolve.runtime_config.merge import merge_env, merge_env_with_sources
from aim_pulumi.resolve.scalars import text
from aim_pulumi.resolve.types import ContainerPlan, Diagnostic, ProfileConfigPlan

AIM_CACHE_ROOT = "/workspace/cache"
PROFILE_MOUNT_ROOT = "/workspace/aim-runtime/profiles/custom"
VLLM_PORT = 8000
PROFILE_ID_ENV = "AIM_PROFILE_ID"
# What a deploy-time env value contributes to a profile's hash.
DEPLOY_TIME_VALUE = "(known at deploy time)"

_VENDOR_RESOURCE = {"amd": "amd.com/gpu", "nvidia": "nvidia.com/gpu"}
_RESOURCE_MAPS = ("requests", "limits")


def _count(spec: Mapping[str, Any]) -> int:
    """An absent count means no devices: the CRD has no default and a guess would request GPUs."""
    value = spec.get("acceleratorCount")
    return int(value) if value is not None else 0


# --------------------------------------------------------------------------------------- resources


def _merge_resource_layers(*layers: Mapping[str, Any] | None) -> dict[str, Any]:
    """Requests and limits merge per key (the later layer wins); every other key is replaced whole."""
    result: dict[str, Any] = {}
    for layer in layers:
        if not layer:
            continue
        for key, value in layer.items():
            if value is None:
                continue
            if key in _RESOURCE_MAPS and isinstance(value, Mapping):
                merged = dict(result.get(key) or {})
                merged.update({str(k): _plain(v) for k, v in value.items() if v is not None})
                result[key] = {k: merged[k] for k in sorted(merged)}
            else:
                result[key] = _plain(value)
    return {key: result[key] for key in sorted(result)}


def accelerator_resources(profile_spec: Mapping[str, Any]) -> dict[str, Any]:
    """The device request a GPU profile implies, so that a profile without `resources` still schedules."""
    count = _count(profile_spec)
    if text(profile_spec.get("acceleratorType")).lower() != "gpu" or count <= 0:
        return {}
    vendor = text(profile_spec.get("acceleratorVendor")).lower()
    resource = _VENDOR_RESOURCE.get(vendor, _VENDOR_RESOURCE["amd"])
    return {"limits": {resource: count}, "requests": {resource: count}}


def profile_resources(
    profile_spec: Mapping[str, Any], profile_status: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Accelerator default < `spec.resources` < `status.resources`, each per key (§13.3)."""
    status_resources = profile_status.get("resources") if profile_status else None
    return _merge_resource_layers(
        accelerator_resources(profile_spec), profile_spec.get("resources"), status_resources
    )


def container_resources(
    profile_resources: Mapping[str, Any], service_resources: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The service's resources refine the profile's per key rather than replacing them (seed)."""
    return _merge_resource_layers(profile_resources, service_resources)


# ------------------------------------------------------------------------------------ pod identity


@dataclass(frozen=True)
class PodIdentity:
    """Who the predictor pod runs as and which registries it may pull from (§13.2)."""

    image_pull_secrets: tuple[str, ...]
    service_account_name: str | None
    priority_class_name: str | None


def _secret_names(value: Any) -> list[str]:
    names: list[str] = []
    for item in value or ():
        name = item.get("name") if isinstance(item, Mapping) else item
        if name:
            names.append(str(name))
    return names


def pod_identity(service_spec: Mapping[str, Any], profile_spec: Mapping[str, Any]) -> PodIdentity:
    """Service secrets come first and the profile's are added, so neither side loses a registry."""
    secrets: list[str] = []
    for name in [
        *_secret_names(service_spec.get("imagePullSecrets")),
        *_secret_names(profile_spec.get("imagePullSecrets")),
    ]:
        if name not in secrets:
            secrets.append(name)
    account = text(service_spec.get("serviceAccountName")) or text(profile_spec.get("serviceAccountName"))
    priority = text(service_spec.get("priorityClassName"))
    return PodIdentity(tuple(secrets), account or None, priority or None)


# --------------------------------------------------------------------------------- profile config


def engine_name(profile_spec: Mapping[str, Any]) -> str:
    return text(profile_spec.get("engine")) or "vllm"


def served_model_id(profile_spec: Mapping[str, Any]) -> str:
    """The model identity the engine serves: `modelId`, else the first source's, else the AIM id."""
    model_id = text(profile_spec.get("modelId"))
    if model_id:
        return model_id
    sources = profile_spec.get("modelSources") or ()
    if sources and isinstance(sources[0], Mapping):
        first = text(sources[0].get("modelId"))
        if first:
            return first
    return text(profile_spec.get("aimId"))


def profile_config_file_name(profile_spec: Mapping[str, Any]) -> str:
    """Every segment has a fallback so that the name never has empty parts (upstream leaves them empty)."""
    accelerator = text(profile_spec.get("acceleratorModel")).lower() or "none"
    precision = text(profile_spec.get("precision")) or "auto"
    metric = text(profile_spec.get("metric")) or "default"
    count = _count(profile_spec)
    return f"{engine_name(profile_spec)}-{accelerator}-{precision}-tp{count}-{metric}.yaml"


def profile_config_document(profile_spec: Mapping[str, Any]) -> dict[str, Any]:
    """The profile as the AIM runtime reads it from `profiles/custom/<aimId>/`."""
    return {
        "aim_id": text(profile_spec.get("aimId")),
        "model_id": served_model_id(profile_spec),
        "metadata": {
            "engine": engine_name(profile_spec),
            "accelerator_model": text(profile_spec.get("acceleratorModel")),
            "accelerator_type": text(profile_spec.get("acceleratorType")),
            "accelerator_count": _count(profile_spec),
            "manual_selection_only": False,
            "metric": text(profile_spec.get("metric")),
            "precision": text(profile_spec.get("precision")),
            "type": text(profile_spec.get("type")),
        },
        "engine_args": _plain(profile_spec.get("engineArgs") or {}),
        "env_vars": {str(k): _env_text(v) for k, v in (profile_spec.get("engineEnv") or {}).items()},
    }


def profile_config_content(profile_spec: Mapping[str, Any]) -> str:
    """Sorted keys keep the ConfigMap byte-identical between runs, so Pulumi shows no spurious diff."""
    document = profile_config_document(profile_spec)
    try:
        # JSON tells apart every value YAML would write differently (1, 1.0, true, "1").
        key = json.dumps(document, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError):
        return _dump_profile_config(document)
    return _rendered_profile_config(key)


@functools.lru_cache(maxsize=4096)
def _rendered_profile_config(key: str) -> str:
    """Many services share a profile; the pure-Python YAML emitter is the slowest step of a plan."""
    return _dump_profile_config(json.loads(key))


def _dump_profile_config(document: Mapping[str, Any]) -> str:
    return yaml.safe_dump(document, sort_keys=True, default_flow_style=False, allow_unicode=True)


def profile_mount_path(profile_spec: Mapping[str, Any]) -> str:
    return f"{PROFILE_MOUNT_ROOT}/{text(profile_spec.get('aimId'))}"


def profile_id(profile_spec: Mapping[str, Any]) -> str:
    """`AIM_PROFILE_ID` points the runtime at the mounted file, named without its extension."""
    stem = profile_config_file_name(profile_spec).removesuffix(".yaml")
    return f"custom/{text(profile_spec.get('aimId'))}/{stem}"


def _deploy_time(entry: Any) -> bool:
    value = entry.get("value") if isinstance(entry, dict) else None
    return isinstance(value, str) and UNRESOLVED_VALUE.search(value) is not None


def profile_hash(profile_spec: Mapping[str, Any]) -> str:
    """A content hash of canonical JSON: key order never matters, any value change does.

    A `containerEnv` value known only at deploy time (a secret a service's `profileOverrides`
    adds) counts as that, not by its content: the container reads it from a Secret, and a
    rotated secret must not rename what the profile identifies.
    """
    spec = _plain(profile_spec)
    env = spec.get("containerEnv")
    if isinstance(env, list):
        spec["containerEnv"] = [
            {**entry, "value": DEPLOY_TIME_VALUE} if _deploy_time(entry) else entry for entry in env
        ]
    canonical = json.dumps(spec, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:8]


# ------------------------------------------------------------------------------------- direct vLLM


def is_direct_vllm(profile_spec: Mapping[str, Any]) -> bool:
    """NVIDIA vLLM profiles run the upstream vLLM image, which has no AIM runtime to read a profile."""
    return (
        text(profile_spec.get("acceleratorVendor")).lower() == "nvidia"
        and text(profile_spec.get("engine")).lower() == "vllm"
    )


def _flag_value(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(_plain(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _render_flag(flag: str, value: Any) -> list[str]:
    if value is None or value is True:
        return [f"--{flag}"]
    if value is False:
        return [f"--no-{flag}"]
    if isinstance(value, list | tuple):
        return [f"--{flag}={_flag_value(item)}" for item in value]
    return [f"--{flag}={_flag_value(value)}"]


def engine_arg_flags(engine_args: Mapping[str, Any]) -> list[str]:
    """engineArgs as CLI flags in sorted key order, so the pod spec is stable whatever the input order."""
    flags: list[str] = []
    for key in sorted(engine_args, key=lambda k: (normalise_flag(str(k)), str(k))):
        flags.extend(_render_flag(normalise_flag(str(key)), engine_args[key]))
    return flags


def vllm_command() -> tuple[str, ...]:
    return ("vllm", "serve")


def vllm_args(profile_spec: Mapping[str, Any]) -> tuple[str, ...]:
    """Managed flags first; a flag the profile already sets in engineArgs is not emitted twice."""
    engine_args: Mapping[str, Any] = profile_spec.get("engineArgs") or {}
    user_flags = {normalise_flag(str(key)) for key in engine_args}
    args = ["$(AIM_VLLM_MODEL)"]
    if "served-model-name" not in user_flags:
        args.append(f"--served-model-name={served_model_id(profile_spec)}")
    args.extend(["--host=0.0.0.0", f"--port={VLLM_PORT}"])
    count = _count(profile_spec)
    if count > 0 and "tensor-parallel-size" not in user_flags:
        args.append(f"--tensor-parallel-size={count}")
    args.extend(engine_arg_flags(engine_args))
    return tuple(args)


# --------------------------------------------------------------------------------------------- env


def cache_mount_path(model_id: str | None, pvc_name: str) -> str:
    """`..` is removed so a model id can never climb out of the cache root; no id falls back to the PVC."""
    cleaned = (model_id or "").replace("..", "")
    segments = [segment for segment in cleaned.split("/") if segment]
    tail = "/".join(segments) or pvc_name
    return f"{AIM_CACHE_ROOT}/{tail}"


def _env(name: str, value: str) -> dict[str, Any]:
    return {"name": name, "value": value}


def _env_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(_plain(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def framework_env(
    profile_spec: Mapping[str, Any],
    *,
    runtime_profile_id: str | None = None,
    runtime_aim_id: str | None = None,
) -> list[dict[str, Any]]:
    """The variables the AIM runtime reads to find its profile and model (§10.1 layer 3).

    They are framework-owned, as the operator's are: a profile's `containerEnv` cannot replace
    them (only `spec.profileOverrides.containerEnv`, above them, can). `runtime_profile_id` names
    a profile the image ships instead of the computed `custom/<aimId>/<file>` path: a profile
    converted from a template runs the template's profile id, as the operator's template
    container does (`legacy.template_profile.template_runtime_profile_id`). `runtime_aim_id` is
    the AIM id announced where sources would leave it empty (`ContainerDefaults.runtime_aim_id`).
    """
    env = [_env(PROFILE_ID_ENV, runtime_profile_id or profile_id(profile_spec))]
    sources = profile_spec.get("modelSources") or ()
    if sources:
        first = sources[0] if isinstance(sources[0], Mapping) else {}
        env.extend(
            [
                _env("AIM_ID", runtime_aim_id or ""),
                _env("AIM_CACHE_PATH", AIM_CACHE_ROOT),
                _env("AIM_MODEL_ID", text(first.get("modelId"))),
            ]
        )
    else:
        env.append(_env("AIM_ID", text(profile_spec.get("aimId"))))
    return env


def vllm_env(profile_spec: Mapping[str, Any], cache_mount: str | None) -> list[dict[str, Any]]:
    """vLLM has no profile file: engineEnv becomes container env and the model path comes from the cache."""
    engine_env: Mapping[str, Any] = profile_spec.get("engineEnv") or {}
    env = [_env(str(name), _env_text(engine_env[name])) for name in sorted(engine_env, key=str)]
    offline = "1" if cache_mount else "0"
    env.extend(
        [
            _env("AIM_VLLM_MODEL", cache_mount or served_model_id(profile_spec)),
            _env("HF_HUB_OFFLINE", offline),
            _env("TRANSFORMERS_OFFLINE", offline),
        ]
    )
    return env


RC_ENV = "the runtime config"
VLLM_ENV = "vLLM (profile engineEnv, model, offline mode)"
FRAMEWORK_ENV = "AIM runtime (profile id, model, cache path)"
SERVICE_ENV = "AIMService spec.env"
OVERRIDE_ENV = "AIMService spec.profileOverrides.containerEnv"


def inference_env_layers(
    profile_spec: Mapping[str, Any],
    service_spec: Mapping[str, Any],
    rc_spec: Mapping[str, Any] | None = None,
    *,
    cache_mount: str | None = None,
    override_env: Sequence[Mapping[str, Any]] | None = None,
    base_env: Sequence[Mapping[str, Any]] | None = None,
    runtime_profile_id: str | None = None,
    runtime_aim_id: str | None = None,
    labels: Mapping[str, str] | None = None,
) -> list[tuple[str, list[Mapping[str, Any]]]]:
    """§10.1's env layers, lowest first, each with the label `explain` names it by.

    RC env < profile containerEnv < framework vars < service env < profileOverrides env. `rc_spec`
    is the merged runtime config (cluster < namespace < inline `spec.runtimeConfig`); `cache_mount`
    is where the first model source's cache is mounted, when one is. `override_env` replaces
    `spec.profileOverrides.containerEnv` as the final layer: a legacy service's `spec.overrides.env`,
    which outranks its `spec.env` just as its migrated form does. `base_env` ranks below the RC env
    (a template profile's operator defaults, §10.3); `runtime_profile_id` and `runtime_aim_id` see
    `framework_env`.
    `labels` names the layers whose source the caller knows: `base`, `profile`, `override`. The
    layers below the profile are left out when they set nothing.
    """
    named = labels or {}
    if override_env is None:
        override_env = (service_spec.get("profileOverrides") or {}).get("containerEnv")
    direct = is_direct_vllm(profile_spec)
    framework: list[Mapping[str, Any]] = list(
        vllm_env(profile_spec, cache_mount)
        if direct
        else framework_env(profile_spec, runtime_profile_id=runtime_profile_id, runtime_aim_id=runtime_aim_id)
    )
    below = [
        (named.get("base", "the profile's defaults"), _env_list(base_env)),
        (RC_ENV, _env_list((rc_spec or {}).get("env"))),
    ]
    return [
        *((label, entries) for label, entries in below if entries),
        (named.get("profile", "the profile's containerEnv"), _env_list(profile_spec.get("containerEnv"))),
        (VLLM_ENV if direct else FRAMEWORK_ENV, framework),
        (SERVICE_ENV, _env_list(service_spec.get("env"))),
        (named.get("override", OVERRIDE_ENV), _env_list(override_env)),
    ]


def _by_scope(
    layers: Sequence[str],
    sources: Mapping[str, tuple[str, ...]],
    scopes: Sequence[tuple[str, Collection[str]]],
) -> tuple[tuple[str, ...], dict[str, tuple[str, ...]]]:
    """The runtime config's env layer named scope by scope: the scopes whose `env` sets a variable
    (`scopes`: label and names, lowest first, those with an `env` only) stand for it, as their merge
    made it."""

    def expand(labels: Sequence[str], name: str | None) -> tuple[str, ...]:
        out: list[str] = []
        for label in labels:
            named = [scope for scope, names in scopes if name is None or name in names]
            out.extend(named if label == RC_ENV and named else [label])
        return tuple(out)

    return expand(layers, None), {name: expand(labels, name) for name, labels in sources.items()}


def inference_env(
    profile_spec: Mapping[str, Any],
    service_spec: Mapping[str, Any],
    rc_spec: Mapping[str, Any] | None = None,
    *,
    cache_mount: str | None = None,
    override_env: Sequence[Mapping[str, Any]] | None = None,
    base_env: Sequence[Mapping[str, Any]] | None = None,
    runtime_profile_id: str | None = None,
    runtime_aim_id: str | None = None,
) -> list[dict[str, Any]]:
    """§10.1: RC env < profile containerEnv < framework vars < service env < profileOverrides env
    (`inference_env_layers`, merged by name)."""
    layers = inference_env_layers(
        profile_spec,
        service_spec,
        rc_spec,
        cache_mount=cache_mount,
        override_env=override_env,
        base_env=base_env,
        runtime_profile_id=runtime_profile_id,
        runtime_aim_id=runtime_aim_id,
    )
    return merge_env(*(entries for _, entries in layers))


def _env_list(value: Any) -> list[Mapping[str, Any]]:
    return [item for item in (value or ()) if isinstance(item, Mapping)]


# ------------------------------------------------------------------------------------------ plans


@dataclass(frozen=True)
class ContainerDefaults:
    """What a declared profile's labels add to its container: the defaults no profile field can say.

    An extension's container-defaults reader fills it (`Extension.container_defaults`); the profile
    pipeline's profiles carry none.
    """

    isvc_labels: Mapping[str, str | None] = field(default_factory=dict)
    #: The env layer below the runtime config's (see `inference_env`).
    base_env: list[dict[str, str]] = field(default_factory=list)
    #: How `explain` names `base_env`.
    base_env_label: str = "the profile's defaults"
    #: A per-GPU default of resources (§7.2), applied only when neither the profile nor the service
    #: sets `resources`, as the operator applies it.
    default_resources: dict[str, Any] | None = None
    runtime_profile_id: str | None = None
    #: The AIM id the runtime is told (`AIM_ID`) even where the framework leaves it empty (a profile
    #: with model sources): a profile whose own file lives under it (a custom profile's).
    runtime_aim_id: str | None = None


NO_DEFAULTS = ContainerDefaults()


def build_container_plan(
    service_spec: Mapping[str, Any],
    profile_spec: Mapping[str, Any],
    *,
    rc_spec: Mapping[str, Any] | None = None,
    profile_status: Mapping[str, Any] | None = None,
    cache_mount: str | None = None,
    override_env: Sequence[Mapping[str, Any]] | None = None,
    defaults: ContainerDefaults = NO_DEFAULTS,
    rc_scopes: Sequence[tuple[str, Collection[str]]] | None = None,
    env_labels: Mapping[str, str] | None = None,
) -> ContainerPlan:
    """The profile pipeline's container: every precedence rule of §10.1 and §13.2-13.5 applied.

    `override_env` is the final env layer when it is not `spec.profileOverrides.containerEnv`;
    `defaults` what the declared profile's labels add below the profile's own fields. `env_labels`
    name the env layers (`inference_env_layers`) and `rc_scopes` (each runtime config merged into
    `rc_spec`, lowest first, with the names its `env` sets) the runtime config's: the container
    records which layer set each variable.
    """
    identity = pod_identity(service_spec, profile_spec)
    direct = is_direct_vllm(profile_spec)
    resources = profile_resources(profile_spec, profile_status)
    default_resources = defaults.default_resources
    if default_resources and not profile_spec.get("resources") and not service_spec.get("resources"):
        resources = _merge_resource_layers(default_resources, resources)
    layers = inference_env_layers(
        profile_spec,
        service_spec,
        rc_spec,
        cache_mount=cache_mount,
        override_env=override_env,
        base_env=defaults.base_env,
        runtime_profile_id=defaults.runtime_profile_id,
        runtime_aim_id=defaults.runtime_aim_id,
        labels={"base": defaults.base_env_label, **(env_labels or {})},
    )
    env, sources = merge_env_with_sources(layers)
    names = tuple(label for label, _ in layers)
    if rc_scopes is not None:
        names, sources = _by_scope(names, sources, [(label, n) for label, n in rc_scopes if n])
    return ContainerPlan(
        image=text(profile_spec.get("image")),
        env=tuple(env),
        env_layers=names,
        env_sources=sources,
        resources=container_resources(resources, service_spec.get("resources")),
        image_pull_secrets=identity.image_pull_secrets,
        service_account_name=identity.service_account_name,
        priority_class_name=identity.priority_class_name,
        command=vllm_command() if direct else None,
        args=vllm_args(profile_spec) if direct else None,
    )


def build_profile_config_plan(
    service_name: str,
    profile_spec: Mapping[str, Any],
    labels: Mapping[str, str],
    *,
    content: str | None = None,
) -> ProfileConfigPlan | None:
    """None for direct vLLM profiles: nothing in the vLLM image reads an AIM profile file.

    `content` is `profile_config_content(profile_spec)` when the caller rendered it already (a
    profile many services deploy is rendered once).
    """
    if is_direct_vllm(profile_spec):
        return None
    return ProfileConfigPlan(
        name=profile_configmap_name(service_name),
        file_name=profile_config_file_name(profile_spec),
        content=profile_config_content(profile_spec) if content is None else content,
        mount_path=profile_mount_path(profile_spec),
        labels=dict(sorted(labels.items())),
    )


def _plain(value: Any) -> Any:
    """Deep copy into plain dicts and lists, so results never alias (or freeze) the caller's data."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value


__all__ = [
    "AIM_CACHE_ROOT",
    "NO_DEFAULTS",
    "PROFILE_ID_ENV",
    "PROFILE_MOUNT_ROOT",
    "ContainerDefaults",
    "PodIdentity",
    "accelerator_resources",
    "build_container_plan",
    "build_profile_config_plan",
    "cache_mount_path",
    "container_resources",
    "engine_arg_flags",
    "framework_env",
    "inference_env",
    "inference_env_layers",
    "is_direct_vllm",
    "normalise_flag",
    "pod_identity",
    "profile_config_content",
    "profile_config_file_name",
    "profile_hash",
    "profile_id",
    "profile_mount_path",
    "profile_resources",
    "served_model_id",
    "vllm_args",
    "vllm_env",
]


# Values whose shape is a well-known credential's, whatever the variable is called: a Hugging Face,
# GitHub, OpenAI-style or AWS access key.
_CREDENTIAL_VALUE = re.compile(
    r"^(hf_[A-Za-z0-9]{20,}|gh[pousr]_[A-Za-z0-9]{20,}|sk-[A-Za-z0-9_-]{20,}|AKIA[0-9A-Z]{16})$"
)
PLAIN_CREDENTIAL = "PlainCredential"


def plain_credentials(env: Sequence[Mapping[str, Any]]) -> list[Diagnostic]:
    """A warning per env variable whose plain value looks like a credential.

    A plain `value` lands as written in the InferenceService (and the download Job), the Pulumi
    state and every preview, where `explain` hides it and a review would not; an Output (shown here
    by its placeholder) or a `valueFrom` does not.
    """
    out: list[Diagnostic] = []
    for entry in env:
        name, value = entry.get("name"), entry.get("value")
        if not isinstance(name, str) or not isinstance(value, str) or not value.strip():
            continue
        if UNRESOLVED_VALUE.search(value):
            continue
        if names_a_credential(name) or _CREDENTIAL_VALUE.match(value.strip()):
            out.append(
                Diagnostic(
                    "warn",
                    PLAIN_CREDENTIAL,
                    f"env {escape(name)} holds a plain value that looks like a credential: it is written in "
                    "plain text into the InferenceService, the Pulumi state and every preview; pass it as "
                    "pulumi.Output.secret(...) (it then goes into a Secret the container reads), or as "
                    "valueFrom.secretKeyRef",
                )
            )
    return out


PULL_SECRET_NAME_INVALID = "PullSecretNameInvalid"


def pull_secret_name_warnings(names: Sequence[str]) -> list[Diagnostic]:
    """A warning per image pull secret name that no Secret can have.

    The API server takes any text in `imagePullSecrets[].name` (a LocalObjectReference is not
    validated), but a Secret's name is a DNS-1123 subdomain, so such a reference never finds its
    Secret and every image pull from a private registry fails on the node, long after `pulumi up`.
    """
    from aim_pulumi.schemas.metadata import dns1123_subdomain_errors

    out: list[Diagnostic] = []
    for name in names:
        problems = dns1123_subdomain_errors(name)
        if problems:
            out.append(
                Diagnostic(
                    "warn",
                    PULL_SECRET_NAME_INVALID,
                    f"imagePullSecrets name {json.dumps(escape(name))} can name no Secret ({problems[0]}): "
                    "the node never finds it and pulls from a private registry fail; use the Secret's name",
                )
            )
    return out
