"""What the first `pulumi up` would change on an adopted object: the planned manifest against the live one.

The comparison reads only the fields the plan sets. pulumi-kubernetes applies with server-side
apply, so a field the plan leaves out stays as it is on the cluster (whoever set it: the API
server's defaults, KServe's webhook, the operator); flagging it would report changes that never
happen. Lists whose items carry a `name` (containers, env, volumes, mounts) are merged by name,
as the API server merges them; other lists are compared whole, item by item, because apply
replaces them whole. Quantities compare by value (`1Gi` equals `1024Mi`).

Each change is classified the way pulumi-kubernetes decides it (`forceNewProperties` in its
`provider/pkg/provider/diff.go`): a change to a field listed there replaces the object (delete,
then create, for an object with a fixed name); a smaller PVC request is refused by the API server;
a change to an InferenceService's predictor (or to the labels and annotations KServe copies onto
the predictor pods) restarts the model's pods. Everything else is an update in place.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from aim_pulumi.schemas.crds import crd_schema
from aim_pulumi.schemas.defaulting import apply_defaults, field_schema, item_schema
from aim_pulumi.schemas.quantity import quantity_value

__all__ = [
    "REPLACING_FIELDS",
    "Change",
    "Effect",
    "diff_manifest",
    "same",
    "same_scalar",
]

Effect = Literal["update", "rolls-pods", "replaces", "refused", "kept-at-creation"]

# The replacing fields of pulumi-kubernetes (`forceNewProperties`), by kind, as dotted paths
# without list selectors; a change at or under one of them replaces the object.
_METADATA_REPLACES = (".metadata.name", ".metadata.namespace")
REPLACING_FIELDS: dict[str, tuple[str, ...]] = {
    "PersistentVolumeClaim": (
        ".spec.accessModes",
        ".spec.selector",
        ".spec.storageClassName",
        ".spec.volumeName",
    ),
    "Job": (".spec.completions", ".spec.parallelism", ".spec.selector", ".spec.template"),
    # ConfigMaps and Secrets are immutable in pulumi-kubernetes unless the provider is configured
    # with enableConfigMapMutable / enableSecretMutable.
    "ConfigMap": (".binaryData", ".data"),
    "Secret": (".type", ".stringData", ".data"),
}
# InferenceService fields KServe applies without a new pod template: the replica bounds.
_ISVC_SCALING = (".spec.predictor.minReplicas", ".spec.predictor.maxReplicas")
_SELECTOR = re.compile(r"\[[^\]]*\]")


@dataclass(frozen=True)
class Change:
    """One field the first `up` would set: where, the live and the planned value, and what it does."""

    path: str
    live: Any
    planned: Any
    effect: Effect
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "live": self.live,
            "planned": self.planned,
            "effect": self.effect,
            "reason": self.reason,
        }


_MISSING = object()


def same_scalar(planned: Any, live: Any) -> bool:
    if planned == live and type(planned) is type(live):
        return True
    if isinstance(planned, bool) or isinstance(live, bool):
        return planned is live
    if isinstance(planned, int | float) and isinstance(live, int | float):
        return float(planned) == float(live)
    if isinstance(planned, str | int) and isinstance(live, str | int):
        a, b = quantity_value(planned), quantity_value(live)
        return a is not None and a == b
    return False


def _keyed(items: Sequence[Any]) -> bool:
    return bool(items) and all(isinstance(i, Mapping) and isinstance(i.get("name"), str) for i in items)


Schema = Mapping[str, Any] | None


def same(planned: Any, live: Any) -> bool:
    """Whole values equal (quantities by value)."""
    if isinstance(planned, Mapping) and isinstance(live, Mapping):
        return planned.keys() == live.keys() and all(same(planned[k], live[k]) for k in planned)
    if isinstance(planned, list) and isinstance(live, list):
        return len(planned) == len(live) and all(same(p, q) for p, q in zip(planned, live, strict=True))
    return same_scalar(planned, live)


def _walk(planned: Any, live: Any, path: str, out: list[tuple[str, Any, Any]], schema: Schema = None) -> None:
    """Collect (path, live, planned) for every planned field whose live value differs.

    `schema` is the CRD schema at `path` (None for the API server's own kinds): a list the schema
    does not declare a `map` (the default for a CRD list: atomic, like KServe's `containers`), or a
    map it declares atomic, is replaced whole by the apply, so it is compared whole, every live
    field included, after the schema's defaults are applied to the planned value.
    """
    if (
        schema is not None
        and live is not _MISSING
        and (
            (isinstance(planned, list) and schema.get("x-kubernetes-list-type") != "map")
            or (isinstance(planned, Mapping) and schema.get("x-kubernetes-map-type") == "atomic")
        )
    ):
        if not same(apply_defaults(planned, schema), live):
            out.append((path, live, planned))
        return
    if isinstance(planned, Mapping):
        if live is _MISSING:
            live = {}  # a planned map the object lacks: report each of its fields
        if not isinstance(live, Mapping):
            out.append((path, None if live is _MISSING else live, planned))
            return
        for key, value in planned.items():
            _walk(value, live.get(key, _MISSING), f"{path}.{key}", out, field_schema(schema, key))
        return
    if isinstance(planned, list):
        if not isinstance(live, list):
            out.append((path, None if live is _MISSING else live, planned))
            return
        keys = list(schema.get("x-kubernetes-list-map-keys") or []) if schema is not None else []
        if keys and all(isinstance(i, Mapping) for i in [*planned, *live]):
            by_key = {tuple(item.get(k) for k in keys): item for item in live}
            for item in planned:
                key = tuple(item.get(k) for k in keys)
                selector = ",".join(f"{k}={v}" for k, v in zip(keys, key, strict=True))
                _walk(item, by_key.get(key, _MISSING), f"{path}[{selector}]", out, item_schema(schema))
            return
        if _keyed(planned) and (not live or _keyed(live)):
            by_name = {item["name"]: item for item in live}
            for item in planned:
                _walk(item, by_name.get(item["name"], _MISSING), f"{path}[name={item['name']}]", out)
            return
        if len(planned) != len(live) or any(
            not isinstance(p, Mapping) and not same_scalar(p, q) for p, q in zip(planned, live, strict=False)
        ):
            out.append((path, live, planned))
            return
        for index, (p, q) in enumerate(zip(planned, live, strict=True)):
            if isinstance(p, Mapping):
                _walk(p, q, f"{path}[{index}]", out)
        return
    if live is _MISSING or not same_scalar(planned, live):
        out.append((path, None if live is _MISSING else live, planned))


def _value_at(obj: Any, path: str) -> Any:
    for part in path.strip(".").split("."):
        if not isinstance(obj, Mapping) or part not in obj:
            return _MISSING
        obj = obj[part]
    return obj


def _under(path: str, prefixes: Sequence[str]) -> str | None:
    bare = _SELECTOR.sub("", path)
    for prefix in prefixes:
        if bare == prefix or bare.startswith(prefix + "."):
            return prefix
    return None


def _classify(kind: str, path: str, live: Any, planned: Any) -> tuple[Effect, str]:
    field = _under(path, _METADATA_REPLACES)
    if field:
        return "replaces", f"{field} is the object's identity"
    if kind == "PersistentVolumeClaim" and _under(path, (".spec.resources.requests.storage",)):
        old, new = quantity_value(live), quantity_value(planned)
        if old is not None and new is not None and new < old:
            return "refused", "the API server refuses to shrink a PVC"
        return "update", "a larger request expands the volume in place"
    field = _under(path, REPLACING_FIELDS.get(kind, ()))
    if field:
        return "replaces", f"pulumi-kubernetes replaces a {kind} when {field} changes"
    if kind == "InferenceService":
        if _under(path, _ISVC_SCALING):
            return "update", "replica bounds change without a new pod template"
        if _under(path, (".spec.predictor",)):
            return "rolls-pods", "a new predictor pod template restarts the model"
        if _under(path, (".metadata.labels", ".metadata.annotations")):
            return (
                "rolls-pods",
                "KServe copies the InferenceService's labels and annotations onto the predictor pods",
            )
    return "update", "updated in place"


def diff_manifest(planned: Mapping[str, Any], live: Mapping[str, Any]) -> list[Change]:
    """Every field `planned` sets that `live` holds differently, with what changing it does.

    `apiVersion` and `kind` are the object's type (the match already agreed on them); status and
    server-set metadata are never in a plan, so they never appear.
    """
    raw: list[tuple[str, Any, Any]] = []
    body = {k: v for k, v in planned.items() if k not in ("apiVersion", "kind", "status")}
    kind = str(planned.get("kind") or "")
    _walk(body, live, "", raw, crd_schema(str(planned.get("apiVersion") or ""), kind))
    # A replacing field is compared whole: pulumi-kubernetes compares it with what `pulumi import`
    # read, so a value the live object holds there and the plan does not (the API server's defaults
    # inside a Job's template, a PVC's default StorageClass or bound volume) replaces the object too.
    for path in REPLACING_FIELDS.get(kind, ()):
        planned_value, live_value = _value_at(body, path), _value_at(live, path)
        if planned_value is _MISSING and live_value is _MISSING:
            continue
        if planned_value is not _MISSING and live_value is not _MISSING and same(planned_value, live_value):
            continue
        if any(p == path or p.startswith(path + ".") or p.startswith(path + "[") for p, _, _ in raw):
            continue
        raw.append(
            (
                path,
                None if live_value is _MISSING else live_value,
                None if planned_value is _MISSING else planned_value,
            )
        )
    changes = []
    # By path: the plan's key order is not stable from one run to the next (annotations merged
    # from several sources), and the report must not change with it.
    for path, old, new in sorted(raw, key=lambda r: r[0]):
        effect, reason = _classify(kind, path, old, new)
        changes.append(Change(path.lstrip("."), old, new, effect, reason))
    return changes
