"""Discovery caches: the source profiles a set's `sourceRef` names.

Upstream keeps what a discovery Job read from an image in a ConfigMap (`profiles.<path>.yaml` keys
holding the image's profile files, `/` written `__`, and a `metadata.json` with `aimId`,
`sourceImage`, `baseImage`); a set with `sourceRef.name` derives from its entries instead of from
profile objects, with no copyable or provenance filter. The same ConfigMap (seeded by hand, or
exported from a cluster) is read here into plain sources. An entry's spec is upstream's mapping of
the profile file: `aim_id` (else the cache's aimId), `model_id`, `metadata.{engine, metric,
precision, type, primary, accelerator_model (or gpu), accelerator_type, accelerator_count (or
gpu_count)}`, `engine_args`, `env_vars`; the image is the cache's source image, the model source
`hf://<model_id>`, the profile id the file's base name; a `general/` file gives way to the model's
own files when the image has any.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import yaml

from aim_pulumi.resolve.derivation.sources import SourceProfile, extract_tag, is_deployable_spec
from aim_pulumi.resolve.scalars import text

PROFILES_PREFIX = "profiles."
PROFILES_SUFFIX = ".yaml"
METADATA_KEY = "metadata.json"


@dataclass(frozen=True)
class DiscoveryCache:
    """A discovery cache by (namespace, name): its sources, or why it cannot be read."""

    namespace: str
    name: str
    sources: tuple[SourceProfile, ...] = ()
    error: str = ""


def _relative_path(key: str) -> str | None:
    if not key.startswith(PROFILES_PREFIX) or not key.endswith(PROFILES_SUFFIX):
        return None
    middle = key[len(PROFILES_PREFIX) : -len(PROFILES_SUFFIX)]
    return middle.replace("__", "/") + PROFILES_SUFFIX if middle else None


def is_discovery_cache(manifest: Mapping[str, Any]) -> bool:
    """A ConfigMap holding at least one `profiles.*.yaml` key."""
    data = manifest.get("data")
    return (
        manifest.get("kind") == "ConfigMap"
        and isinstance(data, Mapping)
        and any(_relative_path(str(key)) for key in data)
    )


def _entry_spec(raw: Mapping[str, Any], relpath: str, aim_id: str, image: str) -> dict[str, Any]:
    meta = raw.get("metadata") if isinstance(raw.get("metadata"), Mapping) else {}
    assert isinstance(meta, Mapping)
    accelerator_model = text(meta.get("accelerator_model")) or text(meta.get("gpu"))
    legacy_gpu = not text(meta.get("accelerator_model")) and bool(text(meta.get("gpu")))
    count = meta.get("accelerator_count")
    legacy_count = count is None and meta.get("gpu_count") is not None
    if count is None:
        count = meta.get("gpu_count")
    accelerator_type = text(meta.get("accelerator_type")) or ("gpu" if legacy_gpu or legacy_count else "")
    model_id = text(raw.get("model_id"))
    profile_id = relpath.rsplit("/", 1)[-1][: -len(PROFILES_SUFFIX)]
    spec: dict[str, Any] = {
        "aimId": text(raw.get("aim_id")) or aim_id,
        "modelId": model_id,
        "profileId": profile_id,
        "engine": text(meta.get("engine")),
        "metric": text(meta.get("metric")),
        "precision": text(meta.get("precision")),
        "type": text(meta.get("type")),
        "primary": meta.get("primary") is True,
        "acceleratorModel": accelerator_model,
        "acceleratorType": accelerator_type,
        "acceleratorCount": count if isinstance(count, int) and not isinstance(count, bool) else 0,
        "image": image,
    }
    engine_args = raw.get("engine_args")
    if isinstance(engine_args, Mapping) and engine_args:
        spec["engineArgs"] = dict(engine_args)
    env = raw.get("env_vars")
    if isinstance(env, Mapping) and env:
        spec["engineEnv"] = {str(k): text(v) for k, v in env.items()}
    if model_id:
        spec["modelSources"] = [{"modelId": model_id, "sourceUri": f"hf://{model_id}"}]
    # Go leaves zero values out of the object it writes; so are they here.
    return {key: value for key, value in spec.items() if value not in ("", 0, False) or key == "image"}


def read_discovery_cache(namespace: str, manifest: Mapping[str, Any]) -> DiscoveryCache:
    """The cache a ConfigMap manifest holds (its `error` says why it cannot be read)."""
    metadata = manifest.get("metadata") if isinstance(manifest.get("metadata"), Mapping) else {}
    assert isinstance(metadata, Mapping)
    name = text(metadata.get("name"))
    data = manifest.get("data") if isinstance(manifest.get("data"), Mapping) else {}
    assert isinstance(data, Mapping)
    try:
        side = json.loads(text(data.get(METADATA_KEY)) or "{}")
        if not isinstance(side, Mapping):
            raise ValueError("metadata.json is not a JSON object")
        paths = sorted((str(key), rel) for key in data if (rel := _relative_path(str(key))) is not None)
        if not paths:
            raise ValueError(f"ConfigMap {namespace}/{name} has no profiles.*.yaml keys")
        aim_id, image, base_image = (text(side.get(k)) for k in ("aimId", "sourceImage", "baseImage"))
        entries: list[tuple[str, dict[str, Any]]] = []
        for key, rel in paths:
            raw = yaml.safe_load(text(data[key])) or {}
            if not isinstance(raw, Mapping):
                raise ValueError(f"{key}: a profile file is a mapping")
            entries.append((rel, _entry_spec(raw, rel, aim_id, image)))
    except (ValueError, yaml.YAMLError) as error:
        return DiscoveryCache(namespace, name, error=" ".join(str(error).split()))
    if aim_id and any(rel.startswith(aim_id + "/") for rel, _ in entries):
        entries = [(rel, spec) for rel, spec in entries if not rel.startswith("general/")]
    version = extract_tag(image)
    sources = tuple(
        SourceProfile(
            kind="",
            namespace=namespace,
            name=text(spec.get("profileId")) or text(spec.get("modelId")),
            spec=spec,
            version=version,
            base_image=base_image,
            role="deployable" if is_deployable_spec(spec) else "base",
            origin="discovered",
            source_model="",
            source_model_scope="",
            copyable=True,
        )
        for _, spec in entries
    )
    return DiscoveryCache(namespace, name, sources)
