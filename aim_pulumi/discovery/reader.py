"""Discovery of one image: what the operator's discovery Job prints, read from the registry instead.

The operator runs the image and prints `/workspace/aim-runtime/profiles/{$AIM_ID,general}/**/*.yaml`
and the image's `AIM_ID` and `AIM_BASE_IMAGE_REF`. The same files and variables are in the
image's manifest, config and layers, so they are read from there, with no cluster, no pod and no
image on disk:

1. the reference's tag resolves to a digest (a HEAD request; an image already in the cache by
   that digest needs nothing more);
2. the manifest by digest (verified); an image index gives its linux/amd64 manifest (Docker v2
   manifest lists and OCI indexes, Docker v2 and OCI manifests);
3. the config blob (verified): `AIM_*` environment variables and `com.amd.aim.*` labels;
4. the layers from the top down (`layers.py`), each from the cache by digest or streamed, until
   the profile tree is known; then the files of `$AIM_ID/` and `general/` are kept, each checked
   to be one YAML mapping (read as Kubernetes reads YAML), so a bad file is reported here, by
   image, layer and path, not later by a plan.

The answer is cached by digest (`cache.py`). A layer cut short by the connection is read again,
at most `Limits.attempts` times in all.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import yaml

from aim_pulumi.api.errors import AIMValidationError
from aim_pulumi.api.limits import load_yaml_documents
from aim_pulumi.discovery.cache import DiscoveryCache
from aim_pulumi.discovery.client import RegistryClient
from aim_pulumi.discovery.errors import DiscoveryError
from aim_pulumi.discovery.layers import LayerDelta, merge, read_layer
from aim_pulumi.discovery.records import ENV_PREFIX, LABEL_PREFIX, ImageRecord, LockedProfile
from aim_pulumi.discovery.reference import ImageReference, parse_reference

__all__ = ["ImageReader", "ReadStats", "record_from_json", "record_to_json"]

DOCKER_MANIFEST = "application/vnd.docker.distribution.manifest.v2+json"
DOCKER_LIST = "application/vnd.docker.distribution.manifest.list.v2+json"
OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json"
OCI_INDEX = "application/vnd.oci.image.index.v1+json"
_ACCEPT = ", ".join((OCI_INDEX, DOCKER_LIST, OCI_MANIFEST, DOCKER_MANIFEST))
_INDEXES = frozenset({DOCKER_LIST, OCI_INDEX})
_MANIFESTS = frozenset({DOCKER_MANIFEST, OCI_MANIFEST})
PLATFORM = ("linux", "amd64")


@dataclass
class ReadStats:
    """What one discovery cost: bytes over the wire against the image's size, layers read or cached."""

    image: str = ""
    bytes_read: int = 0
    image_bytes: int = 0
    layers: int = 0
    layers_read: int = 0
    layers_cached: int = 0
    from_cache: bool = False


Progress = Callable[[str], None]


class ImageReader:
    """Reads images through one client and one cache; `progress` hears about long reads."""

    def __init__(
        self, client: RegistryClient, cache: DiscoveryCache, progress: Progress | None = None
    ) -> None:
        self.client = client
        self.cache = cache
        self.progress = progress or (lambda _message: None)

    def discover(self, image: str) -> tuple[ImageRecord, ReadStats]:
        ref = parse_reference(image)
        stats = ReadStats(image=image)
        start = self.client.bytes_read
        try:
            record = self._discover(image, ref, stats)
        finally:
            stats.bytes_read = self.client.bytes_read - start
        return record, stats

    # ------------------------------------------------------------------ steps

    def _discover(self, image: str, ref: ImageReference, stats: ReadStats) -> ImageRecord:
        scope = f"repository:{ref.repository}:pull"
        digest = ref.digest or self._resolve_tag(ref, scope, image)
        cached = self._cached(digest)
        if cached is not None:
            stats.from_cache = True
            return cached.for_image(image)
        body, media_type = self._manifest(ref, digest, scope, image)
        platform_digest: str | None = None
        if media_type in _INDEXES:
            platform_digest = self._choose_platform(body, image)
            cached = self._cached(platform_digest)
            if cached is not None:
                stats.from_cache = True
                record = ImageRecord(
                    image, digest, platform_digest, cached.env, cached.labels, cached.profiles
                )
                self.cache.put("images", digest, record_to_json(record))
                return record
            body, media_type = self._manifest(ref, platform_digest, scope, image)
            if media_type not in _MANIFESTS:
                raise DiscoveryError(
                    "InvalidManifest",
                    f"the linux/amd64 entry of the index is a {media_type or 'untyped document'}",
                    image=image,
                )
        config_descriptor = _descriptor(body.get("config"), "config", image)
        layers = [_descriptor(item, "layer", image) for item in body.get("layers") or []]
        stats.layers = len(layers)
        stats.image_bytes = config_descriptor[1] + sum(size for _, size in layers)
        env, labels = self._config(ref, config_descriptor, scope, image)
        found, _consulted = merge(self._deltas(ref, layers, scope, image, stats))
        record = ImageRecord(
            image=image,
            digest=digest,
            platform_digest=platform_digest,
            env=env,
            labels=labels,
            profiles=self._kept(found, env.get("AIM_ID", ""), image),
        )
        stored = record_to_json(record)
        self.cache.put("images", digest, stored)
        if platform_digest is not None:
            self.cache.put("images", platform_digest, stored)
        return record

    def _resolve_tag(self, ref: ImageReference, scope: str, image: str) -> str:
        path = f"/v2/{ref.repository}/manifests/{ref.reference}"
        response = self.client.get(
            ref.api_host, path, scope=scope, image=image, accept=_ACCEPT, method="HEAD"
        )
        try:
            status = response.status
            digest = response.headers.get("Docker-Content-Digest", "")
        finally:
            response.close()
        if status == 404:
            raise _not_found(ref, image)
        if status == 200 and digest.startswith("sha256:"):
            return digest
        # No digest header (or no HEAD): the manifest's own bytes name it.
        body = self._get_manifest_bytes(ref, ref.reference, scope, image)
        return "sha256:" + hashlib.sha256(body).hexdigest()

    def _get_manifest_bytes(self, ref: ImageReference, reference: str, scope: str, image: str) -> bytes:
        path = f"/v2/{ref.repository}/manifests/{reference}"
        response = self.client.get(ref.api_host, path, scope=scope, image=image, accept=_ACCEPT)
        try:
            if response.status == 404:
                raise _not_found(ref, image)
            if response.status != 200:
                raise DiscoveryError(
                    "RegistryUnavailable", f"the manifest request answered {response.status}", image=image
                )
            return response.read_all(self.client.limits.max_manifest_bytes, "manifest", image)
        finally:
            response.close()

    def _manifest(
        self, ref: ImageReference, digest: str, scope: str, image: str
    ) -> tuple[dict[str, Any], str]:
        body = self._get_manifest_bytes(ref, digest, scope, image)
        _verify(body, digest, "manifest", image)
        try:
            document = json.loads(body)
        except ValueError:
            raise DiscoveryError("InvalidManifest", f"manifest {digest} is not JSON", image=image) from None
        if not isinstance(document, dict):
            raise DiscoveryError("InvalidManifest", f"manifest {digest} is not a JSON object", image=image)
        media_type = str(document.get("mediaType") or "")
        if not media_type:
            media_type = (
                OCI_INDEX if "manifests" in document else OCI_MANIFEST if "layers" in document else ""
            )
        if media_type not in _INDEXES | _MANIFESTS:
            raise DiscoveryError(
                "InvalidManifest",
                f"manifest {digest} is {media_type or 'of no known type'}; "
                "discovery reads Docker v2 and OCI images",
                image=image,
            )
        return document, media_type

    def _choose_platform(self, index: Mapping[str, Any], image: str) -> str:
        seen: list[str] = []
        for entry in index.get("manifests") or []:
            if not isinstance(entry, Mapping):
                continue
            platform = entry.get("platform") or {}
            pair = (str(platform.get("os") or ""), str(platform.get("architecture") or ""))
            seen.append("/".join(pair))
            if pair == PLATFORM and isinstance(entry.get("digest"), str):
                return str(entry["digest"])
        raise DiscoveryError(
            "PlatformNotFound",
            f"the image index has no linux/amd64 manifest (it has: {', '.join(seen) or 'none'})",
            image=image,
        )

    def _config(
        self, ref: ImageReference, descriptor: tuple[str, int], scope: str, image: str
    ) -> tuple[dict[str, str], dict[str, str]]:
        digest, size = descriptor
        limit = self.client.limits.max_config_bytes
        if size > limit:
            raise DiscoveryError(
                "InvalidManifest", f"the image config is {size} bytes, over {limit}", image=image
            )
        response = self.client.get(
            ref.api_host, f"/v2/{ref.repository}/blobs/{digest}", scope=scope, image=image
        )
        try:
            if response.status != 200:
                raise DiscoveryError(
                    "InvalidManifest", f"config blob {digest} answered {response.status}", image=image
                )
            body = response.read_all(limit, "image config", image)
        finally:
            response.close()
        _verify(body, digest, "config", image)
        try:
            config = json.loads(body)
        except ValueError:
            raise DiscoveryError("InvalidManifest", f"config {digest} is not JSON", image=image) from None
        inner = (config.get("config") if isinstance(config, Mapping) else None) or {}
        env: dict[str, str] = {}
        for item in inner.get("Env") or []:
            if isinstance(item, str) and "=" in item:
                key, _, value = item.partition("=")
                if key.startswith(ENV_PREFIX):
                    env[key] = value
        labels = {
            str(k): str(v)
            for k, v in (inner.get("Labels") or {}).items()
            if isinstance(k, str) and k.startswith(LABEL_PREFIX)
        }
        return dict(sorted(env.items())), dict(sorted(labels.items()))

    def _deltas(
        self, ref: ImageReference, layers: list[tuple[str, int]], scope: str, image: str, stats: ReadStats
    ) -> Iterator[LayerDelta]:
        total = len(layers)
        for position, (digest, size) in enumerate(reversed(layers), start=1):
            cached = self.cache.get("layers", digest)
            if cached is not None:
                try:
                    delta = LayerDelta.from_json(cached)
                except (KeyError, TypeError, ValueError):
                    delta = None
                if delta is not None and delta.digest == digest:
                    stats.layers_cached += 1
                    yield delta
                    continue
            self.progress(f"{image}: reading layer {position}/{total} ({_size(size)})")
            delta = self._read_layer(ref, digest, size, scope, image)
            stats.layers_read += 1
            self.cache.put("layers", digest, delta.to_json())
            yield delta

    def _read_layer(self, ref: ImageReference, digest: str, size: int, scope: str, image: str) -> LayerDelta:
        attempts = self.client.limits.attempts
        for attempt in range(1, attempts + 1):
            response = self.client.get(
                ref.api_host, f"/v2/{ref.repository}/blobs/{digest}", scope=scope, image=image
            )
            try:
                if response.status == 404:
                    raise DiscoveryError(
                        "ImageNotFound", f"layer {digest} is missing from the registry", image=image
                    )
                if response.status != 200:
                    raise DiscoveryError(
                        "RegistryUnavailable", f"layer {digest} answered {response.status}", image=image
                    )
                return read_layer(
                    response.chunks(), digest=digest, size=size, image=image, limits=self.client.limits
                )
            except DiscoveryError as error:
                if error.reason != "TruncatedBlob" or attempt == attempts:
                    raise
            finally:
                response.close()
        raise AssertionError("unreachable")

    def _kept(self, found: Mapping[str, Any], aim_id: str, image: str) -> tuple[LockedProfile, ...]:
        prefixes = tuple(p for p in (f"{aim_id}/" if aim_id else "", "general/") if p)
        kept: list[LockedProfile] = []
        for path in sorted(found):
            if not path.startswith(prefixes):
                continue
            item = found[path]
            _check_profile_yaml(item.content, path, item.layer, image)
            kept.append(LockedProfile(path, item.layer, item.content))
        limit = self.client.limits.max_profile_files
        if len(kept) > limit:
            raise DiscoveryError(
                "TooManyFiles", f"the image has {len(kept)} profile files, over {limit}", image=image
            )
        return tuple(kept)

    def _cached(self, digest: str) -> ImageRecord | None:
        data = self.cache.get("images", digest)
        if data is None:
            return None
        try:
            return record_from_json(data)
        except (KeyError, TypeError, ValueError):
            return None


def _check_profile_yaml(content: str, path: str, layer: str, image: str) -> None:
    try:
        documents = [d for d in load_yaml_documents(content) if d is not None]
    except (AIMValidationError, yaml.YAMLError) as error:
        why = error.message if isinstance(error, AIMValidationError) else str(error).splitlines()[0]
        raise DiscoveryError(
            "InvalidProfile",
            f"layer {layer}: profile file {path} is not valid YAML ({why})",
            image=image,
        ) from None
    if len(documents) != 1 or not isinstance(documents[0], Mapping):
        raise DiscoveryError(
            "InvalidProfile", f"layer {layer}: profile file {path} is not one YAML mapping", image=image
        )


def _descriptor(value: Any, what: str, image: str) -> tuple[str, int]:
    if not isinstance(value, Mapping):
        raise DiscoveryError("InvalidManifest", f"the manifest's {what} descriptor is missing", image=image)
    digest, size = value.get("digest"), value.get("size")
    if not isinstance(digest, str) or not isinstance(size, int) or isinstance(size, bool) or size < 0:
        raise DiscoveryError("InvalidManifest", f"a {what} descriptor has no digest or size", image=image)
    return digest, size


def _verify(body: bytes, digest: str, what: str, image: str) -> None:
    algorithm, _, expected = digest.partition(":")
    if algorithm not in ("sha256", "sha512"):
        raise DiscoveryError(
            "InvalidManifest", f"{what} digest {digest!r} uses an unknown algorithm", image=image
        )
    actual = hashlib.new(algorithm, body).hexdigest()
    if actual != expected:
        raise DiscoveryError(
            "DigestMismatch",
            f"the {what} received hashes to {algorithm}:{actual}, not {digest}; "
            "the registry served other content",
            image=image,
        )


def _not_found(ref: ImageReference, image: str) -> DiscoveryError:
    return DiscoveryError(
        "ImageNotFound",
        f"{ref.registry} has no {ref.reference} of repository {ref.repository} (check the name and tag)",
        image=image,
    )


def _size(n: int) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n = n / 1024  # type: ignore[assignment]
    return f"{n} B"


def record_to_json(record: ImageRecord) -> dict[str, Any]:
    return {
        "digest": record.digest,
        "platformDigest": record.platform_digest,
        "env": dict(record.env),
        "labels": dict(record.labels),
        "profiles": [{"path": p.path, "layer": p.layer, "content": p.content} for p in record.profiles],
    }


def record_from_json(data: Mapping[str, Any], image: str = "") -> ImageRecord:
    profiles = tuple(
        LockedProfile(str(p["path"]), str(p["layer"]), str(p["content"])) for p in data.get("profiles") or []
    )
    platform = data.get("platformDigest")
    return ImageRecord(
        image=image,
        digest=str(data["digest"]),
        platform_digest=str(platform) if platform else None,
        env={str(k): str(v) for k, v in (data.get("env") or {}).items()},
        labels={str(k): str(v) for k, v in (data.get("labels") or {}).items()},
        profiles=profiles,
    )
