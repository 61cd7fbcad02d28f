"""The API versions the tests read and plan with, composed as the package composes them.

The package's readers serve the core's kinds unless they are handed more; the package composes
v1alpha1 in once (`aim_pulumi/versions.py`, a guarded import of its `Extension`), and its entry
points hand that down. Tests that read documents of either version, or plan against a catalog that
may hold templates, use the same value from here, so they run unchanged where the folder is deleted
(`tests/layout/test_v1alpha1_folder.py`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from aim_pulumi import api
from aim_pulumi.resolve.catalog import store
from aim_pulumi.versions import EXTENSION, load_manifests, parse
from aim_pulumi.versions import SERVED_KINDS as KINDS

__all__ = ["EXTENSION", "KINDS", "Catalog", "admission_problems", "load_manifests", "parse"]


def admission_problems(obj: Mapping[str, Any] | api.AIMKind) -> list[api.AIMValidationError]:
    return api.admission_problems(obj, KINDS)


class Catalog(store.Catalog):
    """A catalog of a program that serves what the tests serve (`Catalog(extension=EXTENSION)`)."""

    def __init__(self, objects: Iterable[api.AIMObject] = (), **options: Any) -> None:
        super().__init__(objects, extension=EXTENSION, **options)
