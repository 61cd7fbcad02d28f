"""`-` as PROGRAM: AIM and Kubernetes YAML read from standard input (`kustomize build | aim-pulumi plan -`).

The YAML is copied into a temporary directory that lives for the command, so everything else
reads it as it reads a directory of manifests; the project is named `stdin`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from aim_pulumi.cli.project import Program

__all__ = ["STDIN", "from_stdin", "program_path"]

STDIN = "-"
STDIN_FILE = "manifests.yaml"


@contextlib.contextmanager
def program_path(program: str, stdin: TextIO) -> Iterator[str]:
    """PROGRAM itself, or for `-` a temporary `stdin/manifests.yaml` holding standard input."""
    if program != STDIN:
        yield program
        return
    with tempfile.TemporaryDirectory(prefix="aim-pulumi-") as scratch:
        directory = Path(scratch) / "stdin"
        directory.mkdir()
        (directory / STDIN_FILE).write_bytes(_bounded_bytes(stdin))
        yield str(directory)


def from_stdin(program: Program, given: str) -> Program:
    """`program` as loaded from PROGRAM `given`: for `-`, its file is named `<stdin>` in messages."""
    if given != STDIN:
        return program
    return dataclasses.replace(program, stdin_file=str(program.path / STDIN_FILE))


def _bounded_bytes(stdin: TextIO) -> bytes:
    """At most one byte more than the reader accepts, undecoded: the reader reports size and encoding."""
    from aim_pulumi.api.limits import MAX_FILE_BYTES

    raw = getattr(stdin, "buffer", None)
    if raw is not None:
        data: bytes = raw.read(MAX_FILE_BYTES + 1)
        return data
    return stdin.read(MAX_FILE_BYTES + 1).encode("utf-8", errors="surrogatepass")
