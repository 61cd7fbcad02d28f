"""The chart-equivalent default runtime config the package ships (behaviour §6.4).

It makes a newcomer's first plan work with nothing configured: `AIMClusterRuntimeConfig/default`
with the NVIDIA vLLM profile-generation fallback, unless the program declares its own default.
"""

from __future__ import annotations

import copy
import io
from functools import cache
from importlib import resources
from typing import Any

from aim_pulumi.api import AIMClusterRuntimeConfig, to_manifest
from aim_pulumi.api.io import load_manifests


@cache
def embedded_default_runtime_config() -> AIMClusterRuntimeConfig:
    """The chart-equivalent `AIMClusterRuntimeConfig/default` shipped as package data (§6.4)."""
    source = resources.files("aim_pulumi.resolve").joinpath("defaults/cluster-runtime-config.yaml")
    (obj,) = load_manifests(io.StringIO(source.read_text(encoding="utf-8")))
    if not isinstance(obj, AIMClusterRuntimeConfig):  # pragma: no cover - package data is fixed
        raise TypeError("embedded default is not an AIMClusterRuntimeConfig")
    return obj


def embedded_fallbacks() -> list[dict[str, Any]]:
    """The embedded default's profile-generation fallbacks, to copy into a declared default.

    A program's own `AIMClusterRuntimeConfig/default` replaces the embedded one (same name, same
    object, as on a cluster), fallbacks included; listing these in its
    `model.profileGeneration.fallbacks` keeps the embedded NVIDIA vLLM generation.
    """
    spec = to_manifest(embedded_default_runtime_config()).get("spec") or {}
    fallbacks = ((spec.get("model") or {}).get("profileGeneration") or {}).get("fallbacks") or []
    return [dict(f) for f in copy.deepcopy(fallbacks)]
