"""Writing files so that none is ever lost: temporary file beside the target, fsync, rename.

An interrupted or failing write (a kill, a full disk, `ulimit -f`) leaves the old file whole,
because the target only changes in the final `os.replace`. A target that is a symlink, that
resolves outside the directory it is meant to be in, or that the user cannot write is refused
rather than written through or replaced: `os.replace` only needs the directory to be writable,
so without the check a file the user made read-only would be replaced all the same. Directories
are not created unless the caller asks (`migrate -o DIR` mirrors its input tree): a mistyped
output path is an error, not a new directory somewhere.

Temporary files are named `.<target name>.<random>.aim-pulumi.tmp`: hidden, never `*.yaml`, so
no reader takes one for a manifest, and recognisable, so the next write of the same target
removes what a killed run left behind.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
from collections.abc import Sequence
from pathlib import Path

from aim_pulumi.api.errors import escape

TEMP_SUFFIX = ".aim-pulumi.tmp"


class WriteRefused(Exception):
    """A target that must not be written (symlink, outside its directory, not a regular file,
    not writable, or in a directory that does not exist)."""


class WriteFailed(Exception):
    """The write itself failed; the old file, if any, is unchanged."""


def check_target(target: Path, root: Path | None = None, *, create_parents: bool = False) -> None:
    """Refuse a target that is a symlink, not a regular file, outside `root` once resolved, not
    writable by the user, or (unless `create_parents`) in a directory that does not exist."""
    if target.is_symlink():
        raise WriteRefused(f"{escape(target)} is a symlink; refusing to write through it")
    if target.exists() and not target.is_file():
        raise WriteRefused(f"{escape(target)} exists and is not a regular file")
    if root is not None:
        resolved_root = root.resolve()
        if not target.resolve().is_relative_to(resolved_root):
            raise WriteRefused(f"{escape(target)} resolves outside {escape(root)}; refusing to write there")
    parent = target.parent
    if not parent.is_dir():
        if create_parents and not parent.exists():
            return
        problem = "is not a directory" if parent.exists() else "is not an existing directory; create it first"
        raise WriteRefused(f"cannot write {escape(target)}: {escape(parent)} {problem}")
    protection = protected(target)
    if protection is not None:
        raise WriteRefused(f"{escape(target)} is {protection}; refusing to replace it")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise WriteRefused(f"cannot write {escape(target)}: directory {escape(parent)} is not writable")


def protected(target: Path) -> str | None:
    """Why an existing file must not be replaced or removed (None: it may be).

    Replacing goes through the directory, so the file's own mode has to be asked. A file
    without any write bit is taken as the user's "keep this" even for root, whom `os.access`
    lets write anything, as an editor refuses to write a read-only file without `!`.
    """
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except OSError:
        return None
    if not mode & 0o222:
        return f"read-only (mode {mode:04o})"
    if not os.access(target, os.W_OK):
        return f"not writable by this user (mode {mode:04o})"
    return None


def _leftover(name: str) -> re.Pattern[str]:
    """A temporary file of `name` a killed run left: this module's, or the bare `.tmp` of older
    releases (`tempfile`'s eight random characters), so nothing else is ever matched."""
    return re.compile(rf"\.{re.escape(name)}\.[a-z0-9_]{{8}}({re.escape(TEMP_SUFFIX)}|\.tmp)")


def remove_leftovers(target: Path) -> None:
    """Remove the temporary files a killed earlier write of `target` left beside it.

    A concurrent write of the same target loses its temporary file and fails cleanly at its
    rename; two runs writing one file at once could not both win anyway.
    """
    pattern = _leftover(target.name)
    with contextlib.suppress(OSError):
        for name in os.listdir(target.parent):
            if pattern.fullmatch(name):
                with contextlib.suppress(OSError):
                    os.unlink(target.parent / name)


def _default_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o644 & ~umask


def _detail(exc: BaseException) -> str:
    return exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)


def _discard(temps: Sequence[str]) -> None:
    for temp in temps:
        with contextlib.suppress(OSError):
            os.unlink(temp)


def write_files(
    writes: Sequence[tuple[Path, str]],
    *,
    mode: int | None = None,
    root: Path | None = None,
    create_parents: bool = False,
) -> None:
    """Replace every target with its text, or (short of the rename window) none of them.

    Every target is checked, then every new text is written to a temporary file beside its
    target and fsynced; only when all are on disk are they renamed into place. A refusal or a
    failure up to then changes no target and removes every temporary file. The renames of N
    files are N steps, not one: a failure or kill among them leaves the first targets new and
    the rest old. The caller's rerun (idempotent: already-new files are left as they are)
    finishes the job; a failing rename says how many files were already replaced.

    Each new file keeps the old one's permission bits unless `mode` is given (0o600 for files
    that hold secrets); a new file gets 0o644, narrowed by the umask.
    """
    for target, _ in writes:
        check_target(target, root, create_parents=create_parents)
    staged: list[tuple[str, Path]] = []
    target = writes[0][0] if writes else Path()
    try:
        for target, text in writes:
            directory = target.parent
            if create_parents:
                directory.mkdir(parents=True, exist_ok=True)
                check_target(target, root)  # a directory created above cannot have moved it outside
            remove_leftovers(target)
            try:
                file_mode = mode if mode is not None else stat.S_IMODE(target.stat().st_mode)
            except FileNotFoundError:
                file_mode = _default_mode()
            fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TEMP_SUFFIX, dir=directory)
            staged.append((temp, target))
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                os.fchmod(handle.fileno(), file_mode)
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
    except (OSError, UnicodeEncodeError) as exc:
        _discard([temp for temp, _ in staged])
        raise WriteFailed(f"cannot write {escape(target)}: {escape(_detail(exc))}") from None
    except WriteRefused:
        _discard([temp for temp, _ in staged])
        raise
    for done, (temp, target) in enumerate(staged):
        try:
            os.replace(temp, target)
        except OSError as exc:
            _discard([temp for temp, _ in staged[done:]])
            already = (
                f"; {done} of {len(staged)} files were already replaced, run again to finish" if done else ""
            )
            raise WriteFailed(f"cannot write {escape(target)}: {escape(_detail(exc))}{already}") from None
    for directory in dict.fromkeys(target.parent for _, target in staged):
        _sync_directory(directory)


def atomic_write(
    target: Path,
    text: str,
    *,
    mode: int | None = None,
    root: Path | None = None,
    create_parents: bool = False,
) -> None:
    """Replace `target` with `text` atomically (`write_files` of one file)."""
    write_files([(target, text)], mode=mode, root=root, create_parents=create_parents)


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
