"""`aim.lock.yaml`: what discovery read, pinned by digest, as a package manager pins versions.

`aim-pulumi discover` writes it beside the program; `plan`, `pulumi preview` and `pulumi up` read
it and touch no registry. Per image reference it holds the digest the reference resolved to (and
the linux/amd64 manifest of an index), the `AIM_*` environment and `com.amd.aim.*` labels of the
image config, and every profile file of `$AIM_ID/` and `general/` verbatim with the layer it came
from; per model source the images its listing materialises. Keys are sorted, nothing records a
time or a host, so the same registry content writes the same bytes, and a moved tag shows in
review as a changed digest and changed profile text.

The file is replaced atomically (a temporary file renamed over it), so a failed or interrupted
`discover` leaves the previous lock as it was.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from aim_pulumi.api.io import LOCK_FILE
from aim_pulumi.discovery.errors import DiscoveryError
from aim_pulumi.discovery.records import ImageRecord, LockedProfile, SourceImage, SourceRecord

__all__ = ["LOCK_FILE", "LOCK_VERSION", "Lock", "read_lock", "render_lock", "write_lock"]

LOCK_VERSION = 1
_HEADER = (
    "# aim.lock.yaml: the AIM images and model sources this program names, as discovery read them.\n"
    "# Written by `aim-pulumi discover`; plan, preview and up read it and contact no registry.\n"
)
MAX_LOCK_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class Lock:
    """Images by the reference the program writes, model sources by name."""

    images: Mapping[str, ImageRecord] = field(default_factory=dict)
    sources: Mapping[str, SourceRecord] = field(default_factory=dict)

    def merged(self, other: Lock) -> Lock:
        """This lock with `other`'s entries replacing or adding to its own."""
        return Lock({**self.images, **other.images}, {**self.sources, **other.sources})


class _Dumper(yaml.SafeDumper):
    """Block style; multi-line text as a literal block, so a profile reads as the file it is."""


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _text)


def _image_document(record: ImageRecord) -> dict[str, Any]:
    document: dict[str, Any] = {"digest": record.digest}
    if record.platform_digest:
        document["platformDigest"] = record.platform_digest
    if record.env:
        document["env"] = dict(sorted(record.env.items()))
    if record.labels:
        document["labels"] = dict(sorted(record.labels.items()))
    document["profiles"] = [
        {"path": p.path, "layer": p.layer, "content": p.content}
        for p in sorted(record.profiles, key=lambda p: p.path)
    ]
    return document


def _source_document(record: SourceRecord) -> dict[str, Any]:
    def entries(images: tuple[SourceImage, ...]) -> list[dict[str, str]]:
        return [{"registry": i.registry, "repository": i.repository, "tag": i.tag} for i in images]

    return {"specHash": record.spec_hash, "images": entries(record.images), "listed": entries(record.listed)}


def render_lock(lock: Lock) -> str:
    """The lock's text: the same lock always renders to the same bytes."""
    document: dict[str, Any] = {"version": LOCK_VERSION}
    document["images"] = {name: _image_document(lock.images[name]) for name in sorted(lock.images)}
    if lock.sources:
        document["sources"] = {name: _source_document(lock.sources[name]) for name in sorted(lock.sources)}
    body = yaml.dump(
        document, Dumper=_Dumper, sort_keys=True, default_flow_style=False, allow_unicode=True, width=1000
    )
    return _HEADER + body


def write_lock(path: Path, lock: Lock) -> bool:
    """Replace `path` with the lock atomically; False when its content was already that."""
    text = render_lock(lock)
    try:
        if path.read_text(encoding="utf-8") == text:
            return False
    except OSError:
        pass
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".aim.lock.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return True


def read_lock(path: Path) -> Lock:
    """The lock at `path`; an absent file is an empty lock, a damaged one an error naming the file."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return Lock()
    if size > MAX_LOCK_BYTES:
        raise _invalid(path, f"it is {size} bytes, over {MAX_LOCK_BYTES}")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        raise _invalid(path, f"it cannot be read as YAML ({type(error).__name__})") from None
    if data is None:
        return Lock()
    try:
        return _parse(data)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise _invalid(path, f"it does not have the lock's shape ({error})") from None


def _parse(data: Any) -> Lock:
    if not isinstance(data, Mapping):
        raise TypeError("expected a mapping")
    if data.get("version") != LOCK_VERSION:
        raise ValueError(f"version {data.get('version')!r}; this aim-pulumi writes version {LOCK_VERSION}")
    images: dict[str, ImageRecord] = {}
    for name, entry in (data.get("images") or {}).items():
        profiles = tuple(
            LockedProfile(_str(p["path"]), _str(p["layer"]), _str(p["content"]))
            for p in entry.get("profiles") or []
        )
        images[_str(name)] = ImageRecord(
            image=_str(name),
            digest=_str(entry["digest"]),
            platform_digest=_str(entry["platformDigest"]) if entry.get("platformDigest") else None,
            env={_str(k): _str(v) for k, v in (entry.get("env") or {}).items()},
            labels={_str(k): _str(v) for k, v in (entry.get("labels") or {}).items()},
            profiles=profiles,
        )
    sources: dict[str, SourceRecord] = {}
    for name, entry in (data.get("sources") or {}).items():
        sources[_str(name)] = SourceRecord(
            name=_str(name),
            spec_hash=_str(entry["specHash"]),
            images=tuple(_source_image(i) for i in entry.get("images") or []),
            listed=tuple(_source_image(i) for i in entry.get("listed") or []),
        )
    return Lock(images, sources)


def _source_image(item: Mapping[str, Any]) -> SourceImage:
    return SourceImage(_str(item["registry"]), _str(item["repository"]), _str(item["tag"]))


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected text, got {type(value).__name__}")
    return value


def _invalid(path: Path, why: str) -> DiscoveryError:
    return DiscoveryError("InvalidLock", f"{path}: {why}; write it again with `aim-pulumi discover`")
