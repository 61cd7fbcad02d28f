"""What a cluster offers, as plain values: nodes, the pods already bound to them, quotas, storage.

`capacity_from_objects` turns the objects one list per kind returned (Node, Pod, ResourceQuota,
StorageClass, Namespace, PersistentVolumeClaim, as the API server's JSON) into a `ClusterCapacity`;
`capacity_from_inventory` builds the same value from the pools of `aim:inventory` that say how many
nodes they have, so the fit has one input whether a cluster was read or not.

Every amount is an integer in thousandths of the resource's unit (millicores, thousandths of a
byte, thousandths of a GPU): the scheduler compares CPU in millicores, and one integer scale for
every resource keeps the arithmetic exact and the output byte-identical between runs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_CEILING, Decimal
from typing import Any

from aim_pulumi.resolve.catalog.inventory import InventoryPool
from aim_pulumi.schemas.quantity import parse_quantity

__all__ = [
    "ARTIFACT_QUOTA_ANNOTATION",
    "CPU",
    "MEMORY",
    "MILLI",
    "PODS",
    "STORAGE",
    "BoundPod",
    "Claim",
    "ClusterCapacity",
    "Node",
    "Quota",
    "StorageClass",
    "Taint",
    "capacity_from_inventory",
    "capacity_from_objects",
    "milli",
    "pod_requests",
]

MILLI = 1000
CPU = "cpu"
MEMORY = "memory"
PODS = "pods"
STORAGE = "storage"
ARTIFACT_QUOTA_ANNOTATION = "aim.eai.amd.com/artifact-storage-quota"
DEFAULT_CLASS_ANNOTATIONS = (
    "storageclass.kubernetes.io/is-default-class",
    "storageclass.beta.kubernetes.io/is-default-class",
)
_FINISHED_PHASES = frozenset({"Succeeded", "Failed"})


def milli(value: Any) -> int:
    """A Kubernetes quantity in thousandths of its unit, rounded up (Go's `MilliValue`).

    Raises ValueError for what is not a quantity.
    """
    number: Decimal = parse_quantity(value) * MILLI
    return int(number.to_integral_value(rounding=ROUND_CEILING))


def _amounts(values: Any) -> dict[str, int]:
    """A ResourceList as amounts; an entry that is not a quantity is left out (the API server
    never stores one, and a hand-written inventory is validated before it gets here)."""
    out: dict[str, int] = {}
    for key, value in sorted((values or {}).items()):
        try:
            out[str(key)] = milli(value)
        except ValueError:
            continue
    return out


@dataclass(frozen=True)
class Taint:
    key: str
    value: str
    effect: str

    def __str__(self) -> str:
        return f"{self.key}={self.value}:{self.effect}" if self.value else f"{self.key}:{self.effect}"


@dataclass(frozen=True)
class Node:
    """One node: its labels, what it can hold (`status.allocatable`), and whether it takes pods.

    A resource missing from `allocatable` is none (the scheduler's reading: a node without the
    device plugin has no `amd.com/gpu`), except those in `unbounded`: what an inventory pool does
    not say (CPU, memory) never limits.
    """

    name: str
    labels: Mapping[str, str]
    allocatable: Mapping[str, int]
    unschedulable: bool = False
    taints: tuple[Taint, ...] = ()
    unbounded: frozenset[str] = frozenset()
    pool: str = ""

    def limits(self, resource: str) -> bool:
        return resource not in self.unbounded


@dataclass(frozen=True)
class BoundPod:
    """A pod the scheduler has placed (`spec.nodeName`) that still holds its requests."""

    namespace: str
    name: str
    node: str
    labels: Mapping[str, str]
    requests: Mapping[str, int]
    limits: Mapping[str, int]


@dataclass(frozen=True)
class Quota:
    """A ResourceQuota: `hard` and `used` as the quota controller last wrote them.

    A quota with `scopes` or a `scopeSelector` counts only some pods (by priority class, by
    termination...), which the plan cannot tell apart: it is kept, `scoped`, and not judged.
    """

    namespace: str
    name: str
    hard: Mapping[str, int]
    used: Mapping[str, int]
    scoped: bool = False


@dataclass(frozen=True)
class StorageClass:
    name: str
    default: bool = False


@dataclass(frozen=True)
class Claim:
    """A PersistentVolumeClaim: its class (None: none named) and requested size."""

    namespace: str
    name: str
    storage_class: str | None
    request: int
    labels: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class ClusterCapacity:
    """Everything the fit reads of a cluster (or of `aim:inventory`).

    A kind that could not be read is None (and named in `unread` with the reason), so a check that
    needs it is skipped and said to be, never judged against nothing. `from_cluster` is False for
    capacity built from the inventory, where only the nodes are known.
    """

    source: str
    nodes: tuple[Node, ...]
    pods: tuple[BoundPod, ...] | None = None
    quotas: tuple[Quota, ...] | None = None
    storage_classes: tuple[StorageClass, ...] | None = None
    artifact_quotas: Mapping[str, int] | None = None
    claims: tuple[Claim, ...] | None = None
    unread: tuple[str, ...] = ()
    from_cluster: bool = True

    def default_storage_class(self) -> str | None:
        """The class a PVC naming none is given: the default one (the newest name wins a tie, as the
        API server picks the most recently created; names are what is deterministic here)."""
        defaults = sorted(c.name for c in self.storage_classes or () if c.default)
        return defaults[-1] if defaults else None


# ---------------------------------------------------------------------------------------- parsing


def _labels(obj: Mapping[str, Any]) -> dict[str, str]:
    return {str(k): str(v) for k, v in sorted(((obj.get("metadata") or {}).get("labels") or {}).items())}


def _name(obj: Mapping[str, Any]) -> str:
    return str((obj.get("metadata") or {}).get("name") or "")


def _namespace(obj: Mapping[str, Any]) -> str:
    return str((obj.get("metadata") or {}).get("namespace") or "default")


def node_from(obj: Mapping[str, Any]) -> Node:
    spec = obj.get("spec") or {}
    status = obj.get("status") or {}
    taints = tuple(
        Taint(str(t.get("key") or ""), str(t.get("value") or ""), str(t.get("effect") or ""))
        for t in spec.get("taints") or ()
        if isinstance(t, Mapping)
    )
    return Node(
        name=_name(obj),
        labels=_labels(obj),
        allocatable=_amounts(status.get("allocatable")),
        unschedulable=spec.get("unschedulable") is True,
        taints=taints,
    )


def _container_amounts(container: Mapping[str, Any]) -> tuple[dict[str, int], dict[str, int]]:
    """A container's requests (a limit stands in for a missing request, as the API server defaults
    it) and limits."""
    resources = container.get("resources") or {}
    limits = _amounts(resources.get("limits"))
    requests = {**limits, **_amounts(resources.get("requests"))}
    return requests, limits


def _add(total: dict[str, int], amounts: Mapping[str, int]) -> None:
    for key, value in amounts.items():
        total[key] = total.get(key, 0) + value


def _at_least(total: dict[str, int], amounts: Mapping[str, int]) -> None:
    for key, value in amounts.items():
        total[key] = max(total.get(key, 0), value)


def pod_requests(spec: Mapping[str, Any]) -> tuple[dict[str, int], dict[str, int]]:
    """A pod's effective requests and limits, as the scheduler and the quota controller count them.

    The app containers and the restartable (sidecar) init containers add up; a plain init container
    runs alone, so it counts only where it needs more than they do; the pod overhead adds to both.
    """
    requests: dict[str, int] = {}
    limits: dict[str, int] = {}
    for container in spec.get("containers") or ():
        if isinstance(container, Mapping):
            r, lim = _container_amounts(container)
            _add(requests, r)
            _add(limits, lim)
    init_requests: dict[str, int] = {}
    init_limits: dict[str, int] = {}
    sidecars_r: dict[str, int] = {}
    sidecars_l: dict[str, int] = {}
    for container in spec.get("initContainers") or ():
        if not isinstance(container, Mapping):
            continue
        r, lim = _container_amounts(container)
        if container.get("restartPolicy") == "Always":
            _add(sidecars_r, r)
            _add(sidecars_l, lim)
            continue
        # A plain init container runs with the sidecars started before it.
        _at_least(init_requests, {k: v + sidecars_r.get(k, 0) for k, v in r.items()})
        _at_least(init_limits, {k: v + sidecars_l.get(k, 0) for k, v in lim.items()})
    _add(requests, sidecars_r)
    _add(limits, sidecars_l)
    _at_least(requests, init_requests)
    _at_least(limits, init_limits)
    overhead = _amounts(spec.get("overhead"))
    _add(requests, overhead)
    _add(limits, {k: v for k, v in overhead.items() if k in limits})
    return dict(sorted(requests.items())), dict(sorted(limits.items()))


def pod_from(obj: Mapping[str, Any]) -> BoundPod | None:
    """A pod holding room on a node, or None (not bound yet, or finished)."""
    spec = obj.get("spec") or {}
    node = spec.get("nodeName")
    phase = (obj.get("status") or {}).get("phase")
    if not node or phase in _FINISHED_PHASES:
        return None
    requests, limits = pod_requests(spec)
    return BoundPod(_namespace(obj), _name(obj), str(node), _labels(obj), requests, limits)


def quota_from(obj: Mapping[str, Any]) -> Quota:
    spec = obj.get("spec") or {}
    status = obj.get("status") or {}
    hard = _amounts(status.get("hard") or spec.get("hard"))
    return Quota(
        namespace=_namespace(obj),
        name=_name(obj),
        hard=hard,
        used=_amounts(status.get("used")),
        scoped=bool(spec.get("scopes") or spec.get("scopeSelector")),
    )


def storage_class_from(obj: Mapping[str, Any]) -> StorageClass:
    annotations = (obj.get("metadata") or {}).get("annotations") or {}
    default = any(str(annotations.get(key, "")).lower() == "true" for key in DEFAULT_CLASS_ANNOTATIONS)
    return StorageClass(_name(obj), default)


def claim_from(obj: Mapping[str, Any]) -> Claim:
    spec = obj.get("spec") or {}
    requested = ((spec.get("resources") or {}).get("requests") or {}).get(STORAGE)
    try:
        size = milli(requested) if requested is not None else 0
    except ValueError:
        size = 0
    storage_class = spec.get("storageClassName")
    return Claim(
        _namespace(obj),
        _name(obj),
        str(storage_class) if storage_class is not None else None,
        size,
        _labels(obj),
    )


def artifact_quota_of(obj: Mapping[str, Any]) -> int | None:
    """The namespace's artifact storage quota annotation, or None (absent or not a quantity)."""
    annotations = (obj.get("metadata") or {}).get("annotations") or {}
    value = annotations.get(ARTIFACT_QUOTA_ANNOTATION)
    if value is None:
        return None
    try:
        return milli(str(value).strip())
    except ValueError:
        return None


def capacity_from_objects(
    source: str,
    *,
    nodes: Iterable[Mapping[str, Any]],
    pods: Iterable[Mapping[str, Any]] | None = None,
    quotas: Iterable[Mapping[str, Any]] | None = None,
    storage_classes: Iterable[Mapping[str, Any]] | None = None,
    namespaces: Iterable[Mapping[str, Any]] | None = None,
    claims: Iterable[Mapping[str, Any]] | None = None,
    unread: Sequence[str] = (),
) -> ClusterCapacity:
    """The capacity of a cluster from its listed objects; a kind passed as None was not read."""
    bound = None
    if pods is not None:
        found = (pod_from(p) for p in pods)
        bound = tuple(sorted((p for p in found if p is not None), key=lambda p: (p.namespace, p.name)))
    artifact = None
    if namespaces is not None:
        artifact = {_name(ns): quota for ns in namespaces if (quota := artifact_quota_of(ns)) is not None}
    return ClusterCapacity(
        source=source,
        nodes=tuple(sorted((node_from(n) for n in nodes), key=lambda n: n.name)),
        pods=bound,
        quotas=None
        if quotas is None
        else tuple(sorted((quota_from(q) for q in quotas), key=lambda q: (q.namespace, q.name))),
        storage_classes=None
        if storage_classes is None
        else tuple(sorted((storage_class_from(s) for s in storage_classes), key=lambda s: s.name)),
        artifact_quotas=None if artifact is None else dict(sorted(artifact.items())),
        claims=None
        if claims is None
        else tuple(sorted((claim_from(c) for c in claims), key=lambda c: (c.namespace, c.name))),
        unread=tuple(unread),
    )


# -------------------------------------------------------------------------------------- inventory

_GPU_RESOURCE = {"amd": "amd.com/gpu", "nvidia": "nvidia.com/gpu"}
AIM_ACCELERATOR_PREFIX = "feature.node.kubernetes.io/aim-accelerator."
PARTITIONING_PREFIX = AIM_ACCELERATOR_PREFIX + "partitioning-scheme."


def capacity_from_inventory(
    pools: Sequence[InventoryPool], source: str = "aim:inventory"
) -> ClusterCapacity | None:
    """Nodes stood in for by the inventory's pools, when every pool says how many nodes it has.

    A pool `{vendor, type, model, partitioningMode, devices, nodes, name}` becomes `nodes` nodes,
    each with `devices` of the vendor's GPU resource and the labels the AIM accelerator detector
    would write; CPU, memory and pods are not declared, so they never limit. Without a node count on
    every pool nothing can be judged (None): a pool of unknown size fits anything or nothing.
    """
    if not pools or any(pool.nodes is None for pool in pools):
        return None
    nodes: list[Node] = []
    for index, pool in enumerate(pools):
        model = pool.model
        name = pool.name or model or f"pool{index + 1}"
        labels: dict[str, str] = {}
        if model:
            labels[AIM_ACCELERATOR_PREFIX + model] = str(pool.devices)
        is_gpu = (pool.type or "gpu").lower() != "cpu"
        mode = pool.partitioning_mode.strip()
        if is_gpu:
            scheme = "default" if mode.lower() in ("", "unpartitioned") else mode.upper()
            labels[PARTITIONING_PREFIX + scheme] = str(pool.devices)
        allocatable: dict[str, int] = {}
        if is_gpu:
            resource = _GPU_RESOURCE.get(pool.vendor.lower(), _GPU_RESOURCE["amd"])
            allocatable[resource] = pool.devices * MILLI
        unbounded = frozenset({CPU, MEMORY, PODS, "ephemeral-storage"})
        for number in range(pool.nodes or 0):
            nodes.append(
                Node(
                    name=f"{name}-{number + 1}",
                    labels=labels,
                    allocatable=allocatable,
                    unbounded=unbounded,
                    pool=name,
                )
            )
    return ClusterCapacity(source=source, nodes=tuple(nodes), from_cluster=False)


# ---------------------------------------------------------------------------------------- display

_BYTES = frozenset(
    {
        MEMORY,
        STORAGE,
        "ephemeral-storage",
        "requests.storage",
        "requests.memory",
        "limits.memory",
        "requests.ephemeral-storage",
        "limits.ephemeral-storage",
    }
)
_BINARY = (("Ti", 1024**4), ("Gi", 1024**3), ("Mi", 1024**2), ("Ki", 1024))


def _decimal_text(value: Decimal) -> str:
    text = f"{value:f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def is_bytes(resource: str) -> bool:
    """Whether a resource (or quota key) counts bytes: memory and storage."""
    return resource in _BYTES or resource.endswith("/requests.storage") or resource.endswith(".memory")


def show_amount(resource: str, amount: int) -> str:
    """An amount as a person reads it: `4`, `500m` CPU, `64Gi`, `1.5Gi`; negative amounts keep the sign."""
    sign, amount = ("-", -amount) if amount < 0 else ("", amount)
    if is_bytes(resource):
        whole = Decimal(amount) / MILLI
        for suffix, size in _BINARY:
            if whole >= size:
                return sign + _decimal_text((whole / size).quantize(Decimal("0.1"))) + suffix
        return sign + _decimal_text(whole.quantize(Decimal(1)))
    if resource in (CPU, "requests.cpu", "limits.cpu") and amount % MILLI:
        return f"{sign}{amount}m"
    return sign + _decimal_text((Decimal(amount) / MILLI).quantize(Decimal("0.001")))
