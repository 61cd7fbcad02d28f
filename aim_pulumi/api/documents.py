"""Validation of whole streams: multi-document YAML, JSON, and `*List` kinds, as kubectl reads them.

`*List` objects (`kind: List`, `ConfigMapList`...) are flattened into their items, because that is
what the API server receives; document indexes count the flattened documents.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from aim_pulumi.api.limits import load_yaml_documents
from aim_pulumi.schemas.validator import manifest_identity, validate_manifest

DocumentReport = tuple[int, str, list[str]]
"""(document index, `Kind/namespace/name`, errors; [] when valid)."""


def _is_list_kind(document: Mapping[str, Any]) -> bool:
    return str(document.get("kind", "")).endswith("List") and isinstance(document.get("items"), list)


def expand_documents(documents: Iterable[object]) -> Iterator[object]:
    """Documents with `*List` kinds and JSON arrays replaced by their items; empty documents dropped."""
    for document in documents:
        if document is None:
            continue
        if isinstance(document, Mapping) and _is_list_kind(document):
            yield from expand_documents(document["items"])
        elif isinstance(document, list):
            yield from expand_documents(document)
        else:
            yield document


def parse_documents(text: str) -> list[Any]:
    """The documents of a YAML stream or a JSON text, flattened.

    YAML is read as kubectl reads it (`aim_pulumi.api.limits.load_yaml_documents`: go-yaml's
    scalars, bounded). Malformed input raises `yaml.YAMLError` (a JSON text that fails to parse is
    read as YAML, which reports the position of the problem); input beyond the bounds raises
    `AIMValidationError`.
    """
    stripped = text.lstrip()
    if stripped.startswith(("{", "[")):
        try:
            return list(expand_documents([json.loads(text)]))
        except json.JSONDecodeError:
            pass
    return list(expand_documents(load_yaml_documents(text)))


def validate_documents(documents: Iterable[object]) -> dict[int, list[str]]:
    """Errors of every document by index (after flattening lists); [] for a valid one."""
    results: dict[int, list[str]] = {}
    for index, document in enumerate(expand_documents(documents)):
        if isinstance(document, Mapping):
            results[index] = validate_manifest(document)
        else:
            results[index] = [f".: Invalid value: the document is a {type(document).__name__}, not an object"]
    return results


def validate_yaml_stream(text: str) -> list[DocumentReport]:
    """One report per document of a YAML/JSON stream, in stream order."""
    documents = parse_documents(text)
    results = validate_documents(documents)
    return [(index, manifest_identity(document), results[index]) for index, document in enumerate(documents)]
