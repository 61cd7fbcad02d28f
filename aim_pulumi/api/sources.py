"""A directory of manifests as `kubectl apply -f DIR` sees it: AIM objects, other objects, and the rest.

Teams keep AIM manifests next to the Namespace, Secret and ServiceAccount they need, often with a
`kustomization.yaml` and, in a Pulumi project, `Pulumi.yaml` and its stack files. All of that is
one deployable unit, so a directory is split three ways instead of failing on the first non-AIM
document: AIM objects (parsed and admitted as before), plain Kubernetes objects (any other
apiVersion + kind, kept as written), and skipped files or documents, each with the reason a
reader is told. Pure: no pulumi import.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aim_pulumi.api.base import AIM_GROUP
from aim_pulumi.api.errors import join_path
from aim_pulumi.api.io import KINDS, Kinds, ManifestDocument, iter_documents, manifest_files, read_text

__all__ = [
    "ManifestSet",
    "Skipped",
    "add_documents",
    "expand_lists",
    "is_aim_document",
    "read_manifest_set",
    "skip_reason",
]

_KUSTOMIZE = frozenset({"kustomization.yaml", "kustomization.yml", "kustomization"})
_PULUMI = re.compile(r"^Pulumi(\.[^.]+)?\.ya?ml$")


@dataclass(frozen=True)
class Skipped:
    """A file, or one document of a file (`document` set), that is not deployed, and why."""

    file: str
    reason: str
    document: int | None = None

    @property
    def line(self) -> str:
        where = f"{self.file}:{self.document}" if self.document is not None else self.file
        return f"{where}: skipped: {self.reason}"


@dataclass
class ManifestSet:
    """The documents of a file or directory, by what becomes of them."""

    aim: list[ManifestDocument] = field(default_factory=list)
    kubernetes: list[ManifestDocument] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)


_KUSTOMIZE_REASON = (
    "kustomize configuration, not an object (`kustomize build DIR | aim-pulumi plan -` plans what it builds)"
)
# kustomize's own kinds (Kustomization, Component): build instructions, never sent to a cluster.
_KUSTOMIZE_GROUP = "kustomize.config.k8s.io"


def skip_reason(path: Path) -> str | None:
    """Why a whole YAML file is not a manifest file (None: read its documents)."""
    if path.name.lower() in _KUSTOMIZE:
        return _KUSTOMIZE_REASON
    if _PULUMI.match(path.name):
        return "Pulumi project or stack settings, not an object"
    return None


def is_aim_document(data: Any, kinds: Kinds = KINDS) -> bool:
    """An AIM object (or one meant to be: one of `kinds` or the AIM API group), checked as such."""
    if not isinstance(data, dict):
        return False
    api_version, kind = data.get("apiVersion"), data.get("kind")
    group = api_version.rpartition("/")[0] if isinstance(api_version, str) else ""
    return group == AIM_GROUP or kind in kinds


def _is_object(data: Any) -> bool:
    return (
        isinstance(data, dict)
        and isinstance(data.get("apiVersion"), str)
        and isinstance(data.get("kind"), str)
    )


def add_documents(result: ManifestSet, text: str, file: str, kinds: Kinds = KINDS) -> None:
    """Split the documents of one YAML text into `result` (a syntax error raises `InvalidYAML`).

    A document with neither apiVersion nor kind (a values file, a comment-only file) is skipped
    with a note; one with only one of them, or an AIM document that does not parse, stays an error
    of the AIM loader, located at its file and document.
    """
    for doc in expand_lists(iter_documents(text, file)):
        if _is_object(doc.data) and str(doc.data["apiVersion"]).rpartition("/")[0] == _KUSTOMIZE_GROUP:
            result.skipped.append(Skipped(file, _KUSTOMIZE_REASON, doc.document))
        elif is_aim_document(doc.data, kinds):
            result.aim.append(doc)
        elif _is_object(doc.data):
            result.kubernetes.append(doc)
        elif isinstance(doc.data, dict) and ("apiVersion" in doc.data or "kind" in doc.data):
            result.aim.append(doc)  # half an object header: the AIM loader names what is missing
        else:
            result.skipped.append(
                Skipped(file, "not a Kubernetes object (no apiVersion and kind)", doc.document)
            )


def _is_list(data: Any) -> bool:
    """A `kind: List` (or `ConfigMapList`, ...) document: kubectl applies its items, not it."""
    return (
        isinstance(data, dict)
        and str(data.get("kind") or "").endswith("List")
        and isinstance(data.get("items"), list)
    )


def expand_lists(documents: Iterable[ManifestDocument]) -> Iterator[ManifestDocument]:
    """Each `*List` document replaced by its items (nested lists too), as kubectl and `import` read
    them; an item keeps its document's position and says where in it it is (`items[2]`)."""
    for doc in documents:
        if not _is_list(doc.data):
            yield doc
            continue
        items = [
            dataclasses.replace(doc, data=item, within=join_path(doc.within, "items", index))
            for index, item in enumerate(doc.data["items"])
            if item is not None
        ]
        yield from expand_lists(items)


def read_manifest_set(path: str | os.PathLike[str], kinds: Kinds = KINDS) -> ManifestSet:
    """Every document of a file or directory tree (sorted), split into AIM, Kubernetes and skipped."""
    result = ManifestSet()
    special: list[Path] = []
    for file in manifest_files(path, special):
        reason = skip_reason(file)
        if reason is not None:
            result.skipped.append(Skipped(str(file), reason))
            continue
        add_documents(result, read_text(file), str(file), kinds)
    result.skipped.extend(Skipped(str(p), "not a regular file (a FIFO, socket or device)") for p in special)
    return result
