"""The plan as files: writing the `--json` plan and the `--yaml` manifests, and reading a plan back.

What the files hold is built by the offline engine's package (`aim_pulumi/offline/plan_document.py`);
this module writes it atomically, refuses before anything runs when writing would harm an input
(`check_outputs`), and reads a plan back for `--diff` (`load_plan`), bounded and with no secret kept.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, TextIO

from aim_pulumi.api.errors import escape
from aim_pulumi.cli.common import STDOUT, UsageError
from aim_pulumi.offline.documents import without_secrets

MAX_PLAN_BYTES = 64 * 1024 * 1024
"""The largest `--json` plan `--diff` reads: a thousand services write a few MiB."""


def _plan_text(path: str, stdin: TextIO | None) -> str:
    """The text of a plan file, bounded as YAML input is: a regular file (never a FIFO, which would
    block, or a device such as `/dev/zero`, which never ends) of at most MAX_PLAN_BYTES."""
    limit = f"larger than {MAX_PLAN_BYTES // (1024 * 1024)} MiB"
    if path == "-" and stdin is not None:
        text = stdin.read(MAX_PLAN_BYTES + 1)
        if len(text) > MAX_PLAN_BYTES:
            raise UsageError(f"--diff -: not a plan written by --json: {limit}")
        return text
    try:
        info = Path(path).stat()
    except FileNotFoundError:
        raise UsageError(f"--diff {escape(path)}: no such file") from None
    except (OSError, ValueError) as exc:
        raise UsageError(f"--diff {escape(path)}: cannot read: {escape(exc)}") from None
    if not stat.S_ISREG(info.st_mode):
        raise UsageError(f"--diff {escape(path)}: not a regular file (a FIFO, socket or device)")
    if info.st_size > MAX_PLAN_BYTES:
        raise UsageError(f"--diff {escape(path)}: not a plan written by --json: {limit}")
    with Path(path).open(encoding="utf-8") as handle:
        return handle.read(MAX_PLAN_BYTES + 1)


def load_plan(path: str, stdin: TextIO | None = None) -> dict[str, Any]:
    """A plan written by `plan --json` (`-`: from `stdin`); anything else is a usage error naming the file."""
    try:
        data = json.loads(_plan_text(path, stdin))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise UsageError(f"--diff {escape(path)}: not a plan written by --json: {escape(exc)}") from None
    except RecursionError:
        raise UsageError(f"--diff {escape(path)}: not a plan written by --json: nested too deeply") from None
    resources = data.get("resources") if isinstance(data, Mapping) else None
    if not isinstance(resources, list) or not all(
        isinstance(r, Mapping) and isinstance(r.get("type"), str) and isinstance(r.get("name"), str)
        for r in resources
    ):
        raise UsageError(
            f"--diff {escape(path)}: not a plan written by --json (no resources list of type/name)"
        )
    return dict(without_secrets(data))


def check_outputs(args: argparse.Namespace) -> list[Path]:
    """The plan files to write, refused before anything runs when writing them would harm input.

    A plan file that is PROGRAM, inside the planned directory (the next plan would read it as
    AIM YAML), a `--catalog` path, a symlink, not a regular file, a file the user cannot write,
    or in a directory that does not exist (a typo would otherwise become a new directory) is a
    usage error, so a plan is never run only to find its result cannot be kept.
    """
    from aim_pulumi.api.errors import escape
    from aim_pulumi.cli.files import WriteRefused, check_target, same_or_inside

    targets = [Path(p) for p in (args.json, args.yaml) if p and p != STDOUT]
    if len(targets) == 2 and targets[0].resolve() == targets[1].resolve():
        raise UsageError(f"--json and --yaml name the same file {escape(targets[0])}")
    for target in targets:
        for source in [args.program, *args.catalog]:
            if source != STDOUT and Path(source).exists() and same_or_inside(target, Path(source)):
                raise UsageError(
                    f"{escape(target)} is {escape(source)} or inside it; write the plan elsewhere"
                )
        try:
            check_target(target)
        except WriteRefused as exc:
            raise UsageError(str(exc)) from None
    return targets


def write_plan_files(files: list[tuple[str, str]], out: TextIO, *, secret: bool) -> None:
    """Write the plan files (`-` is standard output); plaintext secrets only for the owner.

    A failure removes the plan files, so neither is mistaken for this plan's result; standard
    output is written last, once the files are kept.
    """
    from aim_pulumi.cli.files import WriteFailed, WriteRefused, write_files

    writes = [(Path(target), text) for target, text in files if target != STDOUT]
    try:
        write_files(writes, mode=0o600 if secret else None)
    except (WriteFailed, WriteRefused) as exc:
        remove_stale(target for target, _ in writes)
        raise UsageError(str(exc)) from None
    for target, text in files:
        if target == STDOUT:
            out.write(text)


def remove_stale(targets: Iterable[Path]) -> None:
    """A failed plan leaves no plan file that could be mistaken for its result.

    A file the user cannot write is left: this run could not have replaced it, so it is not
    taken for its result, and removing it would undo the user's protection.
    """
    from aim_pulumi.cli.files import protected

    for target in targets:
        if target.is_file() and not target.is_symlink() and protected(target) is None:
            with contextlib.suppress(OSError):
                target.unlink()
