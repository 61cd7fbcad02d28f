"""The API versions this installation serves: v1alpha2, and v1alpha1 while its folder is installed.

The one place v1alpha1 is composed in. Its `Extension` (`aim_pulumi/resolve/legacy/extension.py`)
is imported here with a plain guarded import, and the entry points hand it down as a value: a
program run builds its catalog with it (`aim_pulumi/resources/registry.py`), which carries it to
everything that plans, and so does the component provider, whose components are a program run's;
the CLI's commands pass it, or the kinds it serves, to what they call (`migrate` exists only when
it carries a migration, `validate` admits and notes its kinds, `import` keeps and writes what it
says of them). A program's own `aim_pulumi.parse` and `aim_pulumi.load_manifests` read manifests
as the program serves them (`parse`, `load_manifests` below); `aim_pulumi.api`'s read the core's
kinds unless handed these. Deleting the folder makes the import fail: v1alpha2 alone.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import IO, Any

from aim_pulumi import api
from aim_pulumi.api import Kinds, io
from aim_pulumi.resolve.catalog.extension import Extension, served_kinds

__all__ = ["EXTENSION", "SERVED_KINDS", "load_manifests", "parse"]

EXTENSION: Extension | None
try:
    from aim_pulumi.resolve.legacy.extension import V1ALPHA1 as EXTENSION
except ModuleNotFoundError as missing:  # the folder deleted: v1alpha2 alone; any other failure is a bug
    if not (missing.name or "").startswith("aim_pulumi.resolve.legacy"):
        raise
    EXTENSION = None

#: The kinds this installation reads documents as.
SERVED_KINDS: Kinds = served_kinds(EXTENSION)


def parse(obj: Mapping[str, Any]) -> api.AIMObject:
    """`aim_pulumi.api.parse` of a manifest of any version this installation serves."""
    return io.parse(obj, SERVED_KINDS)


def load_manifests(source: str | os.PathLike[str] | IO[str]) -> list[api.AIMObject]:
    """`aim_pulumi.api.load_manifests` of manifests of any version this installation serves."""
    return io.load_manifests(source, SERVED_KINDS)
