"""Field-by-field merge of runtime-config-shaped specs, with presence semantics.

A value a more specific layer sets explicitly wins, including `false`, `0` and `""`; only absent
(or null) fields inherit. That is what lets a namespace turn off what the cluster turned on, which
a zero-value-skipping merge cannot express. Lists are replaced whole except the ones that are
really keyed collections (`env` by name, profile-generation fallbacks by name); `artifact.s3`
is replaced whole because endpoint, credentials and TLS only make sense together.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

ENGINE_ARGS_ENV = "AIM_ENGINE_ARGS"

Path = tuple[str, ...]

_ENV_PATH: Path = ("env",)
_FALLBACKS_PATH: Path = ("model", "profileGeneration", "fallbacks")
_ALWAYS_ATOMIC: frozenset[Path] = frozenset({("artifact", "s3")})
_DEPRECATED_STORAGE_KEYS = ("defaultStorageClassName", "pvcHeadroomPercent")
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

SERVICE_INLINE_FIELDS = ("storage", "routing", "scaleFromZero", "env")
#: How `explain` names a service's own runtime-config layers.
INLINE_RUNTIME_CONFIG = "AIMService spec.runtimeConfig"
SERVICE_FIELDS = "AIMService spec"
SERVICE_LAYER_REPLACES: frozenset[str] = frozenset({"routing.gatewayRef"})


@dataclass(frozen=True)
class Layer:
    """One scope of a merge: its label for provenance, its spec, and paths it replaces whole.

    `replace` holds dotted paths (e.g. `routing.gatewayRef`) where this layer's object, when
    present, replaces the lower layers' object instead of merging into it.
    """

    label: str
    spec: Mapping[str, Any] | None
    replace: frozenset[str] = field(default_factory=frozenset)


#: Leaves a deep copy returns as they are; testing for them first keeps the walk cheap.
_IMMUTABLE_LEAVES = frozenset({str, int, float, bool, type(None)})


def drop_nulls(value: Any) -> Any:
    """A deep copy of `value` without null-valued keys, since null counts as absent everywhere."""
    kind = type(value)
    if kind in _IMMUTABLE_LEAVES:
        return value
    if kind is dict or isinstance(value, Mapping):
        return {str(key): drop_nulls(item) for key, item in value.items() if item is not None}
    if kind is list or isinstance(value, list | tuple):
        return [drop_nulls(item) for item in value]
    return copy.deepcopy(value)


def plain_copy(value: Any) -> Any:
    """A deep copy of JSON-like data (nulls kept), cheaper than `copy.deepcopy` for dicts and lists."""
    kind = type(value)
    if kind in _IMMUTABLE_LEAVES:
        return value
    if kind is dict:
        return {key: plain_copy(item) for key, item in value.items()}
    if kind is list:
        return [plain_copy(item) for item in value]
    return copy.deepcopy(value)


def normalize_runtime_config_spec(spec: Mapping[str, Any] | None) -> dict[str, Any]:
    """One scope's spec as the merge sees it: nulls dropped, deprecated storage keys moved.

    The deprecated top-level `defaultStorageClassName` / `pvcHeadroomPercent` fill `storage.*`
    only when that key is absent in the same scope; an empty string moves nothing.
    """
    normalized: dict[str, Any] = drop_nulls(spec or {})
    for key in _DEPRECATED_STORAGE_KEYS:
        if key not in normalized:
            continue
        value = normalized.pop(key)
        if value == "" and isinstance(value, str):
            continue
        storage = normalized.get("storage")
        if not isinstance(storage, dict):
            storage = {}
            normalized["storage"] = storage
        storage.setdefault(key, value)
    return normalized


def _engine_args_object(entry: Mapping[str, Any]) -> dict[str, Any] | None:
    if "valueFrom" in entry:
        return None
    value = entry.get("value")
    if not isinstance(value, str):
        return None
    try:
        parsed = json.loads(value)
    except ValueError:
        return None
    return parsed if isinstance(parsed, dict) else None


def _deep_merge_json(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in over.items():
        current = merged.get(key)
        if isinstance(current, Mapping) and isinstance(value, Mapping):
            merged[key] = _deep_merge_json(current, value)
        else:
            merged[key] = value
    return merged


def _merge_env_entry(base: Mapping[str, Any] | None, over: Mapping[str, Any]) -> dict[str, Any]:
    entry: dict[str, Any] = drop_nulls(over)
    if base is None or entry.get("name") != ENGINE_ARGS_ENV:
        return entry
    base_args = _engine_args_object(base)
    over_args = _engine_args_object(entry)
    if base_args is None or over_args is None:
        return entry
    merged = _deep_merge_json(base_args, over_args)
    entry["value"] = json.dumps(merged, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return entry


def _merge_env_into(
    merged: dict[str, dict[str, Any]], layer: Iterable[Mapping[str, Any]] | None
) -> list[str]:
    """Merge one env layer into `merged` (ordered by first appearance); return the names it set."""
    touched: list[str] = []
    for raw in layer or ():
        name = str(raw.get("name", ""))
        merged[name] = _merge_env_entry(merged.get(name), raw)
        touched.append(name)
    return touched


def merge_env_with_sources(
    layers: Sequence[tuple[str, Sequence[Mapping[str, Any]] | None]],
) -> tuple[list[dict[str, Any]], dict[str, tuple[str, ...]]]:
    """`merge_env` of labelled layers, and for each name the labels of the layers that set it, lowest
    first: the last is the one whose value the result holds (`explain` prints them)."""
    merged: dict[str, dict[str, Any]] = {}
    sources: dict[str, list[str]] = {}
    for label, layer in layers:
        for name in _merge_env_into(merged, layer):
            sources.setdefault(name, []).append(label)
    return list(merged.values()), {name: tuple(labels) for name, labels in sources.items()}


def merge_env(*layers: Sequence[Mapping[str, Any]] | None) -> list[dict[str, Any]]:
    """Kubernetes EnvVar lists merged by name, lowest precedence first.

    A name keeps the position of its first appearance and takes the value of its last; an
    `AIM_ENGINE_ARGS` pair of JSON objects is deep-merged instead of replaced, so a namespace can
    add one engine flag without repeating the cluster's.
    """
    merged: dict[str, dict[str, Any]] = {}
    for layer in layers:
        _merge_env_into(merged, layer)
    return list(merged.values())


def _merge_by_name(base: list[Any], over: list[Any]) -> tuple[list[Any], list[str]]:
    entries: dict[str, Any] = {}
    for item in base:
        entries[str(item.get("name", "")) if isinstance(item, Mapping) else json.dumps(item)] = item
    touched: list[str] = []
    for item in over:  # a normalised layer's own copy, so taken as it is
        key = str(item.get("name", "")) if isinstance(item, Mapping) else json.dumps(item)
        entries[key] = item
        touched.append(key)
    return list(entries.values()), touched


def _render_path(path: Path) -> str:
    rendered = ""
    for token in path:
        if token.startswith("["):
            rendered += token
        elif not rendered:
            rendered = token
        elif _IDENTIFIER.match(token):
            rendered += "." + token
        else:
            rendered += f"[{token}]"
    return rendered


class _Merger:
    """Accumulates layers into one spec and remembers which layer set each leaf."""

    def __init__(self) -> None:
        self.result: dict[str, Any] = {}
        self.contributions: dict[Path, str] = {}

    def _forget(self, path: Path) -> None:
        for known in [p for p in self.contributions if p[: len(path)] == path]:
            del self.contributions[known]

    def _record(self, path: Path, label: str) -> None:
        self._forget(path)
        self.contributions[path] = label

    def add(self, layer: Layer) -> None:
        replace = {tuple(dotted.split(".")) for dotted in layer.replace}
        spec = normalize_runtime_config_spec(layer.spec)
        self._merge_object(self.result, spec, (), layer.label, replace)

    def _merge_object(
        self, base: dict[str, Any], over: Mapping[str, Any], path: Path, label: str, replace: set[Path]
    ) -> None:
        for key, value in over.items():
            child = (*path, key)
            current = base.get(key)
            if child == _ENV_PATH and isinstance(value, list):
                entries: dict[str, dict[str, Any]] = {}
                _merge_env_into(entries, current if isinstance(current, list) else [])
                for name in _merge_env_into(entries, value):
                    self._record((*child, f"[{name}]"), label)
                base[key] = list(entries.values())
            elif child == _FALLBACKS_PATH and isinstance(value, list):
                merged, touched = _merge_by_name(current if isinstance(current, list) else [], value)
                base[key] = merged
                for name in touched:
                    self._record((*child, f"[{name}]"), label)
            elif isinstance(value, Mapping) and child not in _ALWAYS_ATOMIC and child not in replace:
                if not isinstance(current, dict):
                    self._forget(child)
                    current = {}
                    base[key] = current
                self._merge_object(current, value, child, label, replace)
            else:
                # `over` is the layer's normalised copy (`add`), so its values need no copy of their own.
                base[key] = value
                self._record(child, label)


def merge_layers_with_provenance(
    layers: Sequence[Layer | tuple[str, Mapping[str, Any] | None]],
) -> tuple[dict[str, Any], dict[str, str]]:
    """Stack runtime-config-shaped specs (lowest first); also say which layer set each field.

    Contributions map a field path (`routing.enabled`, `env[HF_TOKEN]`,
    `model.profileGeneration.fallbacks[nvidia-vllm]`, `routing.annotations[example.com/x]`) to
    the label of the layer whose value is in the result; `explain` shows them.
    """
    merger = _Merger()
    for layer in layers:
        merger.add(layer if isinstance(layer, Layer) else Layer(layer[0], layer[1]))
    contributions = {_render_path(path): label for path, label in sorted(merger.contributions.items())}
    return merger.result, contributions


@dataclass(frozen=True)
class FieldSource:
    """One field of a merge: its path, its merged value, the layer whose value it is, and the other
    layers that set it (or a field under or above it) and were overridden."""

    path: str
    value: Any
    set_by: str
    overridden: tuple[str, ...]


_PATH_TOKEN = re.compile(r"\.?([A-Za-z_][A-Za-z0-9_]*)|\[([^\]]*)\]")


def value_at(document: Any, path: str) -> Any:
    """The value at a contribution path (`env[HF_TOKEN]`, `routing.annotations[example.com/x]`):
    a key of a map, or the item of a keyed list with that name."""
    current = document
    for match in _PATH_TOKEN.finditer(path):
        key = match.group(1) if match.group(1) is not None else match.group(2)
        if isinstance(current, Mapping):
            current = current.get(key)
        elif isinstance(current, list):
            current = next((i for i in current if isinstance(i, Mapping) and i.get("name") == key), None)
        else:
            return None
    return current


def _related(path: str, other: str) -> bool:
    return (
        path == other
        or other.startswith((path + ".", path + "["))
        or path.startswith((other + ".", other + "["))
    )


def field_sources(layers: Sequence[Layer]) -> list[FieldSource]:
    """Every field the layers set, merged as `merge_layers_with_provenance` merges them, with its layer
    and the layers it overrode, in path order."""
    merged, contributions = merge_layers_with_provenance(layers)
    own = [(layer.label, set(merge_layers_with_provenance([layer])[1])) for layer in layers]
    return [
        FieldSource(
            path,
            value_at(merged, path),
            label,
            tuple(other for other, paths in own if other != label and any(_related(path, p) for p in paths)),
        )
        for path, label in contributions.items()
    ]


def merge_layers(*specs: Mapping[str, Any] | None) -> dict[str, Any]:
    """Stack any number of runtime-config-shaped specs, lowest precedence first; inputs are not mutated."""
    merged, _ = merge_layers_with_provenance([Layer(str(index), spec) for index, spec in enumerate(specs)])
    return merged


def merge_runtime_config_specs(
    cluster: Mapping[str, Any] | None, namespace: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The namespace runtime config merged field by field over the cluster one of the same name."""
    return merge_layers(cluster, namespace)


def service_inline_layer(
    service_spec: Mapping[str, Any] | None, *, label: str = "AIMService", include_env: bool = True
) -> Layer:
    """The AIMService's own `storage`, `routing`, `scaleFromZero` and `env` as the top merge layer.

    Two rules differ from a runtime-config scope: a service `routing.gatewayRef` replaces the
    inherited one whole (a gateway reference is one unit), and a blank activation query template
    does not count as set. `include_env=False` leaves `spec.env` to the caller, for consumers
    that place it at another precedence (the inference container puts it above profile env).
    """
    spec = service_spec or {}
    fields = SERVICE_INLINE_FIELDS if include_env else tuple(f for f in SERVICE_INLINE_FIELDS if f != "env")
    layer: dict[str, Any] = {name: drop_nulls(spec[name]) for name in fields if spec.get(name) is not None}
    scale_from_zero = layer.get("scaleFromZero")
    if isinstance(scale_from_zero, dict):
        template = scale_from_zero.get("activationMetricQueryTemplate")
        if isinstance(template, str) and not template.strip():
            del scale_from_zero["activationMetricQueryTemplate"]
    return Layer(label, layer, SERVICE_LAYER_REPLACES)


def inline_runtime_config_layer(
    service_spec: Mapping[str, Any] | None, *, label: str = "AIMService.spec.runtimeConfig"
) -> Layer:
    """The service's inline `spec.runtimeConfig` block: one more runtime-config scope, normal rules."""
    block = (service_spec or {}).get("runtimeConfig")
    return Layer(label, block if isinstance(block, Mapping) else None)
