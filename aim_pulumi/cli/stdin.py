"""`-` as PROGRAM: AIM and Kubernetes YAML read from standard input (`kustomize build | aim-pulumi plan -`).

The YAML is copied into a temporary directory that lives for the command, so everything else
reads it as it reads a directory of manifests; the project is named `stdin`.
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

__all__ = ["STDIN", "program_path"]

STDIN = "-"


@contextlib.contextmanager
def program_path(program: str, stdin: TextIO) -> Iterator[str]:
    """PROGRAM itself, or for `-` a temporary `stdin/manifests.yaml` holding standard input."""
    if program != STDIN:
        yield program
        return
    with tempfile.TemporaryDirectory(prefix="aim-pulumi-") as scratch:
        directory = Path(scratch) / "stdin"
        directory.mkdir()
        (directory / "manifests.yaml").write_text(stdin.read(), encoding="utf-8")
        yield str(directory)
