"""Comparing what a plan says with what the API server holds."""

from __future__ import annotations

import base64
from collections.abc import Iterable, Mapping
from typing import Any

from harness import manifest_key
from kube import Kube


def differences(planned: Any, live: Any, path: str = "") -> list[str]:
    """Every field the plan sets whose live value differs (fields only the server sets are ignored)."""
    if isinstance(planned, Mapping):
        if not isinstance(live, Mapping):
            return [f"{path or '.'}: planned an object, live {live!r}"]
        found: list[str] = []
        for key, value in planned.items():
            if key not in live:
                found.append(f"{path}.{key}: planned {value!r}, absent live")
            else:
                found.extend(differences(value, live[key], f"{path}.{key}"))
        return found
    if isinstance(planned, list):
        if not isinstance(live, list) or len(live) != len(planned):
            return [f"{path}: planned {planned!r}, live {live!r}"]
        return [
            d
            for i, (p, v) in enumerate(zip(planned, live, strict=True))
            for d in differences(p, v, f"{path}[{i}]")
        ]
    return [] if planned == live else [f"{path}: planned {planned!r}, live {live!r}"]


def as_stored(manifest: Mapping[str, Any]) -> dict[str, Any]:
    """A planned manifest as the API server stores it: a Secret's `stringData` becomes `data`."""
    out = dict(manifest)
    if out.get("kind") == "Secret" and "stringData" in out:
        data = dict(out.get("data") or {})
        for key, value in dict(out.pop("stringData")).items():
            data[key] = base64.b64encode(str(value).encode()).decode()
        out["data"] = data
    return out


def live_of(kube: Kube, manifest: Mapping[str, Any]) -> dict[str, Any] | None:
    api_version, kind, namespace, name = manifest_key(manifest)
    return kube.find(api_version, kind, namespace or None, name)


def mismatches(
    kube: Kube, manifests: Iterable[Mapping[str, Any]]
) -> dict[tuple[str, str, str, str], list[str]]:
    """Per planned manifest, what the live object does not match ("absent" if there is none)."""
    found: dict[tuple[str, str, str, str], list[str]] = {}
    for manifest in manifests:
        live = live_of(kube, manifest)
        problems = ["absent"] if live is None else differences(as_stored(manifest), live)
        if problems:
            found[manifest_key(manifest)] = problems
    return found


def plan_namespaces(manifests: Iterable[Mapping[str, Any]]) -> set[str]:
    return {
        str((m.get("metadata") or {}).get("namespace"))
        for m in manifests
        if (m.get("metadata") or {}).get("namespace")
    }
