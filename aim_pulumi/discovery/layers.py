"""What one image layer does to the profile tree, read from its compressed bytes as they arrive.

An image's file system is its layers applied in order: each layer adds or replaces files, and
removes lower ones with whiteouts (`.wh.<name>` removes `<name>`, `.wh..wh..opq` hides everything
a lower layer put in its directory). Discovery needs only `/workspace/aim-runtime/profiles`, so a
layer is reduced to its `LayerDelta`: the profile files it holds (`*.yaml` under the root, text
as written) and what it removes or hides below it. A delta depends on the layer alone, so it is
cached by the layer's digest and shared by every image built on that layer.

A layer is streamed: its bytes are hashed while they are decompressed (gzip, zstd, or none, told
by the magic bytes as Docker tells them, whatever the media type says) and read as a tar stream
(stdlib `tarfile` in stream mode); nothing but the profile files is kept, nothing is written.
Every bound has its own error: the layer must be as long as its descriptor says and hash to its
digest; a profile file is at most `Limits.max_profile_bytes`, an image has at most
`Limits.max_profile_files` of them and a layer at most `Limits.max_layer_entries` entries; an
absolute or `..` path anywhere, and a link, device or FIFO where a profile file would be (or in
place of the profile root), stop discovery instead of being followed.

`merge` applies deltas from the top layer down: a path takes the first (highest) layer that has
it, unless a higher layer removed or hid it, and a layer that removes or hides the whole root ends
the walk, since nothing below it can be seen.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import io
import tarfile
import zlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import IO, Any

import zstandard
from urllib3.exceptions import HTTPError as Urllib3Error

from aim_pulumi.discovery.client import Limits
from aim_pulumi.discovery.errors import DiscoveryError

__all__ = ["PROFILE_ROOT", "LayerDelta", "ProfileFile", "merge", "read_layer"]

PROFILE_ROOT = "workspace/aim-runtime/profiles"
_ROOT = tuple(PROFILE_ROOT.split("/"))
_OPAQUE = ".wh..wh..opq"
_WHITEOUT = ".wh."
_GZIP_MAGIC = b"\x1f\x8b"
_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
_FILE_TYPES = frozenset({tarfile.REGTYPE, tarfile.AREGTYPE, tarfile.CONTTYPE})


@dataclass(frozen=True)
class ProfileFile:
    """One profile file as the image holds it: its path under the profile root and its text."""

    path: str
    content: str
    layer: str


@dataclass(frozen=True)
class LayerDelta:
    """What a layer does under the profile root (paths relative to it, "" is the root itself)."""

    digest: str
    files: Mapping[str, str] = field(default_factory=dict)
    removed: frozenset[str] = frozenset()
    opaque: frozenset[str] = frozenset()
    root_removed: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "digest": self.digest,
            "files": dict(sorted(self.files.items())),
            "removed": sorted(self.removed),
            "opaque": sorted(self.opaque),
            "rootRemoved": self.root_removed,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LayerDelta:
        files = data["files"]
        if not isinstance(files, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in files.items()
        ):
            raise ValueError("files")
        return cls(
            digest=str(data["digest"]),
            files=dict(files),
            removed=frozenset(str(p) for p in data["removed"]),
            opaque=frozenset(str(p) for p in data["opaque"]),
            root_removed=bool(data["rootRemoved"]),
        )


class _Truncated(Exception):
    """The connection ended before the blob did."""


class _Oversize(Exception):
    """More bytes arrived than the descriptor announced."""


class _Blob(io.RawIOBase):
    """The compressed layer as a file: hashes and counts what passes, refuses more than `size`."""

    def __init__(self, chunks: Iterator[bytes], size: int, algorithm: str) -> None:
        self._chunks = chunks
        self._size = size
        self._pending = b""
        self.hasher = hashlib.new(algorithm)
        self.count = 0

    def readable(self) -> bool:
        return True

    def _next(self) -> bytes:
        try:
            chunk = next(self._chunks, b"")
        except (Urllib3Error, OSError) as error:
            raise _Truncated(type(error).__name__) from None
        if chunk:
            self.count += len(chunk)
            if self.count > self._size:
                raise _Oversize()
            self.hasher.update(chunk)
        return chunk

    def peek(self, n: int) -> bytes:
        while len(self._pending) < n:
            chunk = self._next()
            if not chunk:
                break
            self._pending += chunk
        return self._pending[:n]

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        if not self._pending:
            self._pending = self._next()
            if not self._pending:
                return 0
        n = min(len(view), len(self._pending))
        view[:n] = self._pending[:n]
        self._pending = self._pending[n:]
        return n

    def drain(self) -> None:
        """Read (and hash) whatever is left, up to the announced size."""
        self._pending = b""
        while self._next():
            pass


def _decompressed(blob: _Blob) -> IO[bytes]:
    magic = blob.peek(4)
    if magic.startswith(_GZIP_MAGIC):
        return gzip.GzipFile(fileobj=blob, mode="rb")  # type: ignore[return-value]
    if magic.startswith(_ZSTD_MAGIC):
        source: IO[bytes] = io.BufferedReader(blob)
        return zstandard.ZstdDecompressor().stream_reader(source, read_across_frames=True, closefd=False)
    return io.BufferedReader(blob)


def _parts(name: str, image: str, layer: str) -> tuple[str, ...]:
    """A member name as path components; absolute and `..` names are refused, not resolved."""
    if name.startswith("/"):
        raise _unsafe(image, layer, name, "has an absolute path")
    parts = tuple(p for p in name.split("/") if p not in ("", "."))
    if ".." in parts:
        raise _unsafe(image, layer, name, "has a `..` path component")
    return parts


def _unsafe(image: str, layer: str, name: str, what: str) -> DiscoveryError:
    return DiscoveryError(
        "UnsafeLayer",
        f"layer {layer}: tar entry {name!r} {what}; discovery does not read such layers",
        image=image,
    )


def _relative(parts: tuple[str, ...]) -> str:
    return "/".join(parts[len(_ROOT) :])


def _under_root(parts: tuple[str, ...]) -> bool:
    return len(parts) > len(_ROOT) and parts[: len(_ROOT)] == _ROOT


def _covers_root(parts: tuple[str, ...]) -> bool:
    """`parts` is the root or one of its ancestors."""
    return len(parts) <= len(_ROOT) and _ROOT[: len(parts)] == parts


def _scan(
    members: Iterable[tarfile.TarInfo], archive: tarfile.TarFile, digest: str, image: str, limits: Limits
) -> LayerDelta:
    files: dict[str, str] = {}
    removed: set[str] = set()
    opaque: set[str] = set()
    root_removed = False
    entries = 0
    for member in members:
        entries += 1
        if entries > limits.max_layer_entries:
            raise DiscoveryError(
                "TooManyFiles",
                f"layer {digest} has more than {limits.max_layer_entries} entries; refusing to read further",
                image=image,
            )
        parts = _parts(member.name, image, digest)
        if not parts:
            continue
        base = parts[-1]
        if base.startswith(_WHITEOUT):
            directory = parts[:-1]
            if base == _OPAQUE:
                if _covers_root(directory):
                    root_removed = root_removed or directory != _ROOT
                    if directory == _ROOT:
                        opaque.add("")
                elif _under_root(directory):
                    opaque.add(_relative(directory))
                continue
            target = (*directory, base[len(_WHITEOUT) :])
            if _covers_root(target):
                root_removed = True
            elif _under_root(target):
                removed.add(_relative(target))
            continue
        if _covers_root(parts):
            if member.isdir():
                continue
            if member.issym() or member.islnk():
                raise _unsafe(image, digest, member.name, "is a link in place of the profile directory")
            root_removed = True
            continue
        if not _under_root(parts):
            continue
        relative = _relative(parts)
        if member.isdir():
            continue
        if member.issym() or member.islnk():
            raise _unsafe(image, digest, member.name, "is a link in the profile tree")
        if member.type not in _FILE_TYPES:
            raise _unsafe(
                image, digest, member.name, "is a device, FIFO or other special file in the profile tree"
            )
        removed.add(relative)
        if not relative.endswith(".yaml"):
            continue
        if member.size > limits.max_profile_bytes:
            raise DiscoveryError(
                "ProfileTooLarge",
                f"layer {digest}: profile file {relative} is {member.size} bytes, over the "
                f"{limits.max_profile_bytes}-byte limit",
                image=image,
            )
        if len(files) >= limits.max_profile_files:
            raise DiscoveryError(
                "TooManyFiles",
                f"layer {digest} holds more than {limits.max_profile_files} profile files",
                image=image,
            )
        handle = archive.extractfile(member)
        raw = handle.read(limits.max_profile_bytes + 1) if handle is not None else b""
        try:
            files[relative] = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise DiscoveryError(
                "InvalidProfile", f"layer {digest}: profile file {relative} is not UTF-8 text", image=image
            ) from None
    # A layer's own files stay visible; what it removes applies to the layers below it.
    return LayerDelta(digest, files, frozenset(removed), frozenset(opaque), root_removed)


def read_layer(chunks: Iterator[bytes], *, digest: str, size: int, image: str, limits: Limits) -> LayerDelta:
    """The layer's delta from its streamed blob, verified against `digest` and `size`.

    A layer whose bytes hash to another digest is reported as `DigestMismatch` even when its
    compression or tar is also broken (the bytes are then not the layer); a broken layer whose
    bytes are right is `CorruptLayer`.
    """
    algorithm, _, expected = digest.partition(":")
    if algorithm not in ("sha256", "sha512"):
        raise DiscoveryError(
            "InvalidManifest", f"layer digest {digest!r} uses an unknown algorithm", image=image
        )
    blob = _Blob(chunks, size, algorithm)
    broken: str | None = None
    delta: LayerDelta | None = None
    try:
        stream = _decompressed(blob)
        archive = tarfile.open(fileobj=stream, mode="r|")  # noqa: SIM115 (read to its end below)
        delta = _scan(archive, archive, digest, image, limits)
        while stream.read(1024 * 1024):  # the compression trailer (gzip's CRC is checked here)
            pass
        blob.drain()
    except DiscoveryError:
        raise
    except _Truncated:
        raise DiscoveryError(
            "TruncatedBlob",
            f"layer {digest}: the connection ended after {blob.count} of {size} bytes",
            image=image,
        ) from None
    except _Oversize:
        raise DiscoveryError(
            "DigestMismatch",
            f"layer {digest}: more bytes arrived than the {size} its descriptor announces",
            image=image,
        ) from None
    except (tarfile.TarError, zlib.error, gzip.BadGzipFile, EOFError, zstandard.ZstdError, OSError) as error:
        broken = f"{type(error).__name__}: {error}"
        with contextlib.suppress(_Truncated, _Oversize):
            blob.drain()
    if blob.count != size and broken is None:
        raise DiscoveryError(
            "TruncatedBlob",
            f"layer {digest}: {blob.count} bytes arrived, its descriptor announces {size}",
            image=image,
        )
    if blob.hasher.hexdigest() != expected:
        raise DiscoveryError(
            "DigestMismatch",
            f"layer {digest}: the bytes received hash to {algorithm}:{blob.hasher.hexdigest()}; the registry "
            "served other content than the manifest names",
            image=image,
        )
    if broken is not None or delta is None:
        raise DiscoveryError(
            "CorruptLayer", f"layer {digest} cannot be decompressed or read as tar ({broken})", image=image
        )
    return delta


def merge(deltas: Iterable[LayerDelta]) -> tuple[dict[str, ProfileFile], int]:
    """The profile tree of layers given top layer first, and how many layers were consulted.

    The walk ends at a layer that removes or hides the whole root: the caller need not read the
    layers below it (`deltas` may be a lazy iterator that reads them on demand).
    """
    found: dict[str, ProfileFile] = {}
    hidden: set[str] = set()
    consulted = 0
    for delta in deltas:
        consulted += 1
        for path, content in delta.files.items():
            if path not in found and not _is_hidden(path, hidden):
                found[path] = ProfileFile(path, content, delta.digest)
        if delta.root_removed or "" in delta.opaque:
            break
        hidden.update(delta.removed)
        hidden.update(delta.opaque)
    return found, consulted


def _is_hidden(path: str, hidden: set[str]) -> bool:
    parts = path.split("/")
    return any("/".join(parts[:i]) in hidden for i in range(1, len(parts) + 1))
