"""AIM-shaped test images, built in memory and pushed to a registry with the distribution API.

An AIM image keeps its profiles in `/workspace/aim-runtime/profiles/{$AIM_ID,general}/`, names its
model in the config's `AIM_ID` and its base in `AIM_BASE_IMAGE_REF`. The builders here make such
images (and broken ones) byte for byte: tar layers compressed with gzip or zstd, whiteouts and
opaque directories, Docker v2 and OCI manifests and indexes. Nothing uses Docker.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import json
import os
import tarfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import urllib3
import zstandard

ROOT = "workspace/aim-runtime/profiles"
DOCKER_MANIFEST = "application/vnd.docker.distribution.manifest.v2+json"
DOCKER_LIST = "application/vnd.docker.distribution.manifest.list.v2+json"
OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json"
OCI_INDEX = "application/vnd.oci.image.index.v1+json"
Compression = Literal["gzip", "zstd", "none"]
LAYER_TYPES = {
    ("gzip", "docker"): "application/vnd.docker.image.rootfs.diff.tar.gzip",
    ("gzip", "oci"): "application/vnd.oci.image.layer.v1.tar+gzip",
    ("zstd", "docker"): "application/vnd.oci.image.layer.v1.tar+zstd",
    ("zstd", "oci"): "application/vnd.oci.image.layer.v1.tar+zstd",
    ("none", "docker"): "application/vnd.docker.image.rootfs.diff.tar",
    ("none", "oci"): "application/vnd.oci.image.layer.v1.tar",
}


def digest_of(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


@dataclass
class Entry:
    """One tar entry: a file (`data`), a directory, a link or a special file."""

    name: str
    data: bytes | None = None
    kind: Literal["file", "dir", "symlink", "hardlink", "device", "fifo"] = "file"
    target: str = ""


def file(path: str, text: str | bytes) -> Entry:
    return Entry(path, text.encode() if isinstance(text, str) else text)


def profile(rel: str, text: str) -> Entry:
    return file(f"{ROOT}/{rel}", text)


def whiteout(path: str) -> Entry:
    directory, _, name = path.rpartition("/")
    return Entry(f"{directory}/.wh.{name}" if directory else f".wh.{name}", b"")


def opaque(directory: str) -> Entry:
    return Entry(f"{directory}/.wh..wh..opq", b"")


def tar_bytes(entries: Iterable[Entry]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.PAX_FORMAT) as archive:
        for entry in entries:
            info = tarfile.TarInfo(entry.name)
            info.mtime = 0
            info.mode = 0o644
            if entry.kind == "dir":
                info.type = tarfile.DIRTYPE
                info.mode = 0o755
                archive.addfile(info)
            elif entry.kind == "symlink":
                info.type = tarfile.SYMTYPE
                info.linkname = entry.target
                archive.addfile(info)
            elif entry.kind == "hardlink":
                info.type = tarfile.LNKTYPE
                info.linkname = entry.target
                archive.addfile(info)
            elif entry.kind == "device":
                info.type = tarfile.CHRTYPE
                archive.addfile(info)
            elif entry.kind == "fifo":
                info.type = tarfile.FIFOTYPE
                archive.addfile(info)
            else:
                data = entry.data or b""
                info.size = len(data)
                archive.addfile(info, io.BytesIO(data))
    return out.getvalue()


def compress(data: bytes, compression: Compression) -> bytes:
    if compression == "gzip":
        return gzip.compress(data, mtime=0)
    if compression == "zstd":
        return zstandard.ZstdCompressor().compress(data)
    return data


@dataclass
class Layer:
    blob: bytes
    media_type: str

    @property
    def digest(self) -> str:
        return digest_of(self.blob)

    def descriptor(self) -> dict[str, Any]:
        return {"mediaType": self.media_type, "digest": self.digest, "size": len(self.blob)}


def layer(
    entries: Iterable[Entry], compression: Compression = "gzip", flavour: Literal["docker", "oci"] = "oci"
) -> Layer:
    return Layer(compress(tar_bytes(entries), compression), LAYER_TYPES[(compression, flavour)])


def config_blob(env: Mapping[str, str] = {}, labels: Mapping[str, str] = {}) -> bytes:
    document = {
        "architecture": "amd64",
        "os": "linux",
        "config": {"Env": [f"{k}={v}" for k, v in env.items()], "Labels": dict(labels)},
        "rootfs": {"type": "layers", "diff_ids": []},
    }
    return json.dumps(document, sort_keys=True).encode()


@dataclass
class Image:
    """An image: its config and layers (bottom first), as a Docker v2 or OCI manifest."""

    layers: list[Layer]
    config: bytes = field(default_factory=config_blob)
    flavour: Literal["docker", "oci"] = "oci"

    def manifest(self) -> bytes:
        media = DOCKER_MANIFEST if self.flavour == "docker" else OCI_MANIFEST
        config_type = (
            "application/vnd.docker.container.image.v1+json"
            if self.flavour == "docker"
            else "application/vnd.oci.image.config.v1+json"
        )
        return json.dumps(
            {
                "schemaVersion": 2,
                "mediaType": media,
                "config": {
                    "mediaType": config_type,
                    "digest": digest_of(self.config),
                    "size": len(self.config),
                },
                "layers": [item.descriptor() for item in self.layers],
            },
            sort_keys=True,
        ).encode()

    @property
    def media_type(self) -> str:
        return DOCKER_MANIFEST if self.flavour == "docker" else OCI_MANIFEST

    @property
    def size(self) -> int:
        return len(self.config) + sum(len(item.blob) for item in self.layers)


def aim_profile(
    aim_id: str | None = "Qwen/Qwen3-0.6B",
    model_id: str | None = "Qwen/Qwen3-0.6B",
    *,
    gpu: str = "MI300X",
    count: int = 1,
    precision: str = "fp8",
    metric: str = "latency",
    type: str = "optimized",
    primary: bool | None = None,
    engine_args: Mapping[str, Any] | None = None,
    env_vars: Mapping[str, str] | None = None,
) -> str:
    """A profile file as AIM images ship them."""
    document: dict[str, Any] = {}
    if aim_id is not None:
        document["aim_id"] = aim_id
    if model_id is not None:
        document["model_id"] = model_id
    metadata: dict[str, Any] = {
        "engine": "vllm",
        "gpu": gpu,
        "precision": precision,
        "gpu_count": count,
        "metric": metric,
        "type": type,
    }
    if primary is not None:
        metadata["primary"] = primary
    document["metadata"] = metadata
    document["engine_args"] = dict(engine_args or {"max-model-len": 8192})
    document["env_vars"] = dict(env_vars or {"VLLM_USE_TRITON_FLASH_ATTN": "0"})
    return json.dumps(document, indent=2, sort_keys=True) + "\n"


class Pusher:
    """Pushes blobs, manifests and tags to a registry (`http://host:port`), with a login if given."""

    def __init__(self, base: str, username: str | None = None, password: str | None = None) -> None:
        self.base = base.rstrip("/")
        self.pool = urllib3.PoolManager(retries=False, timeout=urllib3.Timeout(connect=5, read=60))
        self.headers: dict[str, str] = {}
        if username is not None:
            pair = f"{username}:{password}".encode()
            self.headers["Authorization"] = "Basic " + base64.b64encode(pair).decode()

    def blob(self, repository: str, data: bytes) -> str:
        digest = digest_of(data)
        head = self.pool.request("HEAD", f"{self.base}/v2/{repository}/blobs/{digest}", headers=self.headers)
        if head.status == 200:
            return digest
        start = self.pool.request("POST", f"{self.base}/v2/{repository}/blobs/uploads/", headers=self.headers)
        assert start.status == 202, (start.status, start.data)
        location = start.headers["Location"]
        if location.startswith("/"):
            location = self.base + location
        separator = "&" if "?" in location else "?"
        done = self.pool.request(
            "PUT",
            f"{location}{separator}digest={digest}",
            body=data,
            headers={**self.headers, "Content-Type": "application/octet-stream"},
        )
        assert done.status == 201, (done.status, done.data)
        return digest

    def manifest(self, repository: str, reference: str, body: bytes, media_type: str) -> str:
        response = self.pool.request(
            "PUT",
            f"{self.base}/v2/{repository}/manifests/{reference}",
            body=body,
            headers={**self.headers, "Content-Type": media_type},
        )
        assert response.status == 201, (response.status, response.data)
        return digest_of(body)

    def image(self, repository: str, tag: str, image: Image) -> str:
        self.blob(repository, image.config)
        for item in image.layers:
            self.blob(repository, item.blob)
        return self.manifest(repository, tag, image.manifest(), image.media_type)

    def index(
        self,
        repository: str,
        tag: str,
        platforms: Mapping[tuple[str, str], Image],
        flavour: Literal["docker", "oci"] = "oci",
    ) -> str:
        entries = []
        for (os_name, arch), image in platforms.items():
            digest = self.image(repository, f"{arch}-{os_name}", image)
            entries.append(
                {
                    "mediaType": image.media_type,
                    "digest": digest,
                    "size": len(image.manifest()),
                    "platform": {"os": os_name, "architecture": arch},
                }
            )
        media = DOCKER_LIST if flavour == "docker" else OCI_INDEX
        body = json.dumps(
            {"schemaVersion": 2, "mediaType": media, "manifests": entries}, sort_keys=True
        ).encode()
        return self.manifest(repository, tag, body, media)


def random_bytes(n: int, seed: int = 1) -> bytes:
    """Incompressible filler of `n` bytes, the same for the same seed (a stand-in for a big base layer)."""
    out = bytearray()
    counter = 0
    while len(out) < n:
        out.extend(hashlib.sha256(f"{seed}:{counter}".encode()).digest())
        counter += 1
    return bytes(out[:n])


def env_flag(name: str) -> bool:
    return os.environ.get(name, "") not in ("", "0", "false")
