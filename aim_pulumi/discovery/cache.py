"""What discovery read, kept under the user's cache directory by content digest.

Two kinds of entry, both named by a digest, so an entry can never be stale: a layer's delta
(`layers/<algorithm>/<hex>.json`, shared by every image built on the layer) and an image's
answer (`images/<algorithm>/<hex>.json`, by the digest its tag resolved to and by the digest of
the platform manifest it chose). A second discovery of an unchanged image asks the registry only
which digest its tag names.

The directory is `$AIM_PULUMI_CACHE_DIR`, else `$XDG_CACHE_HOME/aim-pulumi/discovery`, else
`~/.cache/aim-pulumi/discovery`. Entries are written to a temporary file and renamed into place,
so a reader never sees half an entry; an entry that cannot be read or parsed is ignored and
written again. Nothing secret is ever cached: images' profile files, labels and environment
variables that discovery reads (`AIM_*`), no credentials.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["DiscoveryCache", "default_cache_dir"]

_DIGEST = re.compile(r"^(sha256|sha512):([0-9a-f]{64,128})$")


def default_cache_dir() -> Path:
    configured = os.environ.get("AIM_PULUMI_CACHE_DIR")
    if configured:
        return Path(configured)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "aim-pulumi" / "discovery"


class DiscoveryCache:
    """Entries by digest; `directory=None` keeps nothing (every lookup misses)."""

    def __init__(self, directory: Path | None) -> None:
        self.directory = directory

    def _path(self, kind: str, digest: str) -> Path | None:
        match = _DIGEST.match(digest)
        if self.directory is None or match is None:
            return None
        return self.directory / kind / match.group(1) / f"{match.group(2)}.json"

    def get(self, kind: str, digest: str) -> dict[str, Any] | None:
        path = self._path(kind, digest)
        if path is None:
            return None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def put(self, kind: str, digest: str, data: dict[str, Any]) -> None:
        """Write an entry; a cache that cannot be written only costs the next run a read."""
        path = self._path(kind, digest)
        if path is None:
            return
        text = json.dumps(data, sort_keys=True, separators=(",", ":"))
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
            try:
                with os.fdopen(handle, "w", encoding="utf-8") as out:
                    out.write(text)
                os.replace(temporary, path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
                raise
        except OSError:
            return
