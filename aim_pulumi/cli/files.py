"""Writing files so that none is ever lost: temporary file beside the target, fsync, rename.

An interrupted or failing write (a kill, a full disk, `ulimit -f`) leaves the old file whole,
because the target only changes in the final `os.replace`. A target that is a symlink, or that
resolves outside the directory it is meant to be in, is refused rather than written through.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from aim_pulumi.api.errors import escape


class WriteRefused(Exception):
    """A target that must not be written (symlink, outside its directory, not a regular file)."""


class WriteFailed(Exception):
    """The write itself failed; the old file, if any, is unchanged."""


def check_target(target: Path, root: Path | None = None) -> None:
    """Refuse a target that is a symlink, not a regular file, or lies outside `root` once resolved."""
    if target.is_symlink():
        raise WriteRefused(f"{escape(target)} is a symlink; refusing to write through it")
    if target.exists() and not target.is_file():
        raise WriteRefused(f"{escape(target)} exists and is not a regular file")
    if root is not None:
        resolved_root = root.resolve()
        if not target.resolve().is_relative_to(resolved_root):
            raise WriteRefused(f"{escape(target)} resolves outside {escape(root)}; refusing to write there")


def atomic_write(target: Path, text: str, *, mode: int | None = None, root: Path | None = None) -> None:
    """Replace `target` with `text` atomically.

    The new file keeps the old one's permission bits unless `mode` is given (0o600 for files that
    hold secrets); a new file gets 0o644, narrowed by the umask.
    """
    check_target(target, root)
    directory = target.parent
    try:
        directory.mkdir(parents=True, exist_ok=True)
        if root is not None:
            check_target(target, root)  # a directory created above cannot have moved it outside
        if mode is None:
            try:
                mode = stat.S_IMODE(target.stat().st_mode)
            except FileNotFoundError:
                umask = os.umask(0)
                os.umask(umask)
                mode = 0o644 & ~umask
        fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise WriteFailed(f"cannot write {escape(target)}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            os.fchmod(handle.fileno(), mode)
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, target)
    except (OSError, UnicodeEncodeError) as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise WriteFailed(f"cannot write {escape(target)}: {escape(detail)}") from None
    _sync_directory(directory)


def _sync_directory(directory: Path) -> None:
    """Make the rename itself durable; not every filesystem allows opening a directory."""
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def same_or_inside(path: Path, other: Path) -> bool:
    """Whether `path` is `other`, or (when `other` is a directory) inside it, once resolved."""
    resolved, target = path.resolve(), other.resolve()
    if resolved == target:
        return True
    return target.is_dir() and resolved.is_relative_to(target)
