"""Does the whole program fit: replicas packed onto nodes as a scheduler would, quotas, storage.

The scheduler places one pod at a time on one node that has room for all of its requests, so a
replica asking for 8 GPUs needs a node with 8 free, whatever the pool's total. The program's
replicas are packed first-fit-decreasing (largest first: GPUs, then CPU, then memory; ties in
(namespace, name) order; each onto the first node, by name, with room), which is how far a
scheduler's placement can be predicted without its scoring, and deterministic.

Order of the judgement:

1. storage: each cache PVC against its storage class (it must exist), the namespace's storage
   quotas (`requests.storage`, `persistentvolumeclaims`, and their per-class forms) and the AIM
   artifact storage quota annotation; a service whose cache is refused does not run, so its
   replicas are not packed;
2. the minimum replicas of every service, against the nodes and the namespaces' quotas (checked
   first, as admission refuses a pod before the scheduler sees it); a service with a replica left
   over does not fit;
3. the replicas between minimum and maximum of the services that fit at minimum, packed on what is
   left: all placed, the service fits at its maximum; otherwise autoscaling will be capped.

Room on a node is its `status.allocatable` less the requests of the pods bound to it that the
program does not own (its own predictor pods, by KServe's `serving.kserve.io/inferenceservice`
label, and download Job pods, by `job-name`, are replaced by what the plan asks). A quota's room is
its `hard` less its `used`, where the program's own pods and PVCs are taken out of `used` the same
way. The predictor tolerates no taint of its own; it is given the tolerations admission adds: the
`ExtendedResourceToleration` plugin's for the GPU resource it requests (`NoSchedule`) and the default
`not-ready`/`unreachable` `NoExecute` ones; a `PreferNoSchedule` taint never blocks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from aim_pulumi.resolve.capacity.accelerators import GPU_RESOURCES, node_models, node_offers
from aim_pulumi.resolve.capacity.cluster import (
    AIM_ACCELERATOR_PREFIX,
    CPU,
    MEMORY,
    MILLI,
    PODS,
    BoundPod,
    Claim,
    ClusterCapacity,
    Node,
    Quota,
    Taint,
    show_amount,
)
from aim_pulumi.resolve.capacity.demand import CacheDemand, ServiceDemand

__all__ = [
    "DOES_NOT_FIT",
    "FITS_AT_MAX",
    "FITS_AT_MIN_ONLY",
    "NOT_CHECKED",
    "CapacityReport",
    "PoolRow",
    "QuotaRow",
    "ServiceFit",
    "StorageRow",
    "Verdict",
    "judge",
]

Verdict = Literal["FitsAtMax", "FitsAtMinOnly", "DoesNotFit", "NotChecked"]
FITS_AT_MAX: Verdict = "FitsAtMax"
FITS_AT_MIN_ONLY: Verdict = "FitsAtMinOnly"
DOES_NOT_FIT: Verdict = "DoesNotFit"
NOT_CHECKED: Verdict = "NotChecked"

ISVC_LABEL = "serving.kserve.io/inferenceservice"
JOB_LABELS = ("job-name", "batch.kubernetes.io/job-name")
ARTIFACT_LABELS = ("aim.eai.amd.com/artifact", "aim.eai.amd.com/cache-mode")
CLASS_QUOTA = ".storageclass.storage.k8s.io/"
# Taints the predictor tolerates whatever it requests (added by the DefaultTolerationSeconds plugin).
_DEFAULT_TOLERATED = frozenset(
    {("node.kubernetes.io/not-ready", "NoExecute"), ("node.kubernetes.io/unreachable", "NoExecute")}
)
_SHOWN_NODES = 3


@dataclass(frozen=True)
class ServiceFit:
    """The verdict on one service; `placements` are (node, replicas) of the replicas that fit."""

    namespace: str
    name: str
    verdict: Verdict
    min_replicas: int
    max_replicas: int
    schedulable: int
    reason: str = ""
    placements: tuple[tuple[str, int], ...] = ()

    @property
    def ref(self) -> str:
        return f"AIMService/{self.namespace}/{self.name}"

    @property
    def message(self) -> str:
        """The verdict in one sentence, with the reason when it is not a full fit."""
        replicas = "replica" if self.max_replicas == 1 else "replicas"
        if self.verdict == FITS_AT_MAX:
            if self.min_replicas == self.max_replicas:
                return f"fits: {self.max_replicas} {replicas}"
            return f"fits at its maximum of {self.max_replicas} {replicas}"
        if self.verdict == FITS_AT_MIN_ONLY:
            return (
                f"fits at its minimum of {self.min_replicas}, not at its maximum of {self.max_replicas} "
                f"{replicas}: autoscaling will be capped at {self.schedulable}: {self.reason}"
            )
        if self.verdict == DOES_NOT_FIT:
            return f"does not fit: {self.reason}"
        return f"not checked: {self.reason}"


@dataclass(frozen=True)
class PoolRow:
    """One accelerator pool (or the CPU and memory of every usable node) in the table."""

    pool: str
    resource: str
    nodes: int
    usable_nodes: int
    allocatable: int
    used_by_others: int
    demand_min: int
    demand_max: int

    @property
    def headroom_min(self) -> int:
        return self.allocatable - self.used_by_others - self.demand_min

    @property
    def headroom_max(self) -> int:
        return self.allocatable - self.used_by_others - self.demand_max


@dataclass(frozen=True)
class QuotaRow:
    """One constrained resource of one quota (a ResourceQuota, or the artifact storage annotation)."""

    namespace: str
    quota: str
    resource: str
    hard: int
    used_by_others: int
    demand_min: int
    demand_max: int

    @property
    def headroom_max(self) -> int:
        return self.hard - self.used_by_others - self.demand_max


@dataclass(frozen=True)
class StorageRow:
    """The cache storage the program holds in one namespace and class (None: the default class)."""

    namespace: str
    storage_class: str | None
    claims: int
    demand: int


@dataclass(frozen=True)
class CapacityReport:
    """The whole judgement: what was read, the tables, a verdict per service, and what was not judged."""

    source: str
    checked: bool
    services: tuple[ServiceFit, ...]
    pools: tuple[PoolRow, ...] = ()
    quotas: tuple[QuotaRow, ...] = ()
    storage: tuple[StorageRow, ...] = ()
    notes: tuple[str, ...] = ()

    def fit_of(self, namespace: str, name: str) -> ServiceFit | None:
        for fit in self.services:
            if (fit.namespace, fit.name) == (namespace, name):
                return fit
        return None


# ------------------------------------------------------------------------------ quota arithmetic


def pod_quota_amount(key: str, requests: Mapping[str, int], limits: Mapping[str, int]) -> int:
    """What one pod counts against a quota key (`requests.cpu`, `cpu`, `limits.memory`, `pods`, ...)."""
    if key in (PODS, "count/pods"):
        return MILLI
    if key.startswith("requests."):
        return requests.get(key[len("requests.") :], 0)
    if key.startswith("limits."):
        return limits.get(key[len("limits.") :], 0)
    if key in (CPU, MEMORY, "ephemeral-storage"):
        return requests.get(key, 0)
    return 0


def claim_quota_amount(key: str, storage_class: str | None, size: int) -> int:
    """What one PVC of `storage_class` and `size` counts against a quota key."""
    if key == "requests.storage":
        return size
    if key in ("persistentvolumeclaims", "count/persistentvolumeclaims"):
        return MILLI
    if CLASS_QUOTA in key:
        klass, _, rest = key.partition(CLASS_QUOTA)
        if klass != (storage_class or ""):
            return 0
        return size if rest == "requests.storage" else MILLI if rest == "persistentvolumeclaims" else 0
    return 0


def _is_storage_key(key: str) -> bool:
    return key in ("requests.storage", "persistentvolumeclaims", "count/persistentvolumeclaims") or (
        CLASS_QUOTA in key
    )


# ----------------------------------------------------------------------------------- the packing


@dataclass
class _Item:
    demand: int
    replica: int


@dataclass
class _Outcome:
    """What one pass did for one service."""

    placed: dict[str, int] = field(default_factory=dict)
    failed: int = 0
    reason: str = ""


def _tolerates(demand: ServiceDemand, taint: Taint) -> bool:
    if taint.effect not in ("NoSchedule", "NoExecute"):
        return True
    if (taint.key, taint.effect) in _DEFAULT_TOLERATED:
        return True
    extended = {r for r, amount in demand.requests.items() if "/" in r and amount > 0}
    return taint.effect == "NoSchedule" and taint.key in extended


def _blocked_by(demand: ServiceDemand, node: Node) -> str | None:
    """Why the predictor may not run on the node at all (cordoned, a taint), or None."""
    if node.unschedulable:
        return f"{node.name} (cordoned)"
    for taint in node.taints:
        if not _tolerates(demand, taint):
            return f"{node.name} (taint {taint})"
    return None


def _where(demand: ServiceDemand) -> str:
    return f"{demand.model} node" if demand.model else "node"


class _Cluster:
    """Room left on each node and in each quota as replicas and caches are admitted."""

    def __init__(self, capacity: ClusterCapacity, demands: Sequence[ServiceDemand]) -> None:
        self.capacity = capacity
        self.demands = demands
        self.nodes = {node.name: node for node in capacity.nodes}
        owned_isvcs = {(d.namespace, d.isvc_name) for d in demands}
        owned_jobs = {(d.namespace, job) for d in demands for job in d.job_names}
        self.own_pods: list[BoundPod] = []
        self.others: list[BoundPod] = []
        for pod in capacity.pods or ():
            mine = (pod.namespace, pod.labels.get(ISVC_LABEL, "")) in owned_isvcs or any(
                (pod.namespace, pod.labels.get(label, "")) in owned_jobs for label in JOB_LABELS
            )
            (self.own_pods if mine else self.others).append(pod)
        self.used_by_others: dict[str, dict[str, int]] = {name: {} for name in self.nodes}
        for pod in self.others:
            used = self.used_by_others.setdefault(pod.node, {})
            for resource, amount in pod.requests.items():
                used[resource] = used.get(resource, 0) + amount
            used[PODS] = used.get(PODS, 0) + MILLI
        self.free: dict[str, dict[str, int]] = {
            name: {
                r: node.allocatable.get(r, 0) - self.used_by_others[name].get(r, 0) for r in node.allocatable
            }
            for name, node in self.nodes.items()
        }
        planned = {(c.namespace, c.pvc_name) for d in demands for c in d.caches}
        self.own_claims: list[Claim] = []
        self.other_claims: list[Claim] = []
        for claim in capacity.claims or ():
            (self.own_claims if (claim.namespace, claim.name) in planned else self.other_claims).append(claim)
        self.quotas: list[Quota] = [q for q in capacity.quotas or () if not q.scoped]
        self.quota_used: dict[tuple[str, str], dict[str, int]] = {}
        for quota in self.quotas:
            used = dict(quota.used)
            for pod in self.own_pods:
                if pod.namespace == quota.namespace:
                    for key in quota.hard:
                        used[key] = used.get(key, 0) - pod_quota_amount(key, pod.requests, pod.limits)
            for claim in self.own_claims:
                if claim.namespace == quota.namespace:
                    for key in quota.hard:
                        used[key] = used.get(key, 0) - claim_quota_amount(
                            key, claim.storage_class, claim.request
                        )
            self.quota_used[(quota.namespace, quota.name)] = {k: max(used.get(k, 0), 0) for k in quota.hard}
        self.quota_left = {
            (q.namespace, q.name): {k: q.hard[k] - self.quota_used[(q.namespace, q.name)][k] for k in q.hard}
            for q in self.quotas
        }
        self.eligible: list[list[str]] = []
        self.matching: list[list[str]] = []
        for demand in demands:
            matching = [
                n.name
                for n in capacity.nodes
                if node_offers(n, demand.model, demand.accelerator_type, demand.partitioning)
            ]
            self.matching.append(matching)
            self.eligible.append([n for n in matching if _blocked_by(demand, self.nodes[n]) is None])

    # ---------------------------------------------------------------- one replica

    def _fits_on(self, name: str, requests: Mapping[str, int]) -> bool:
        node, free = self.nodes[name], self.free[name]
        return all(
            amount <= 0 or not node.limits(resource) or free.get(resource, 0) >= amount
            for resource, amount in requests.items()
        )

    def _quota_refusal(self, demand: ServiceDemand) -> tuple[Quota, str] | None:
        for quota in self.quotas:
            if quota.namespace != demand.namespace:
                continue
            left = self.quota_left[(quota.namespace, quota.name)]
            for key in sorted(quota.hard):
                if _is_storage_key(key):
                    continue
                if pod_quota_amount(key, demand.requests, demand.limits) > left[key]:
                    return quota, key
        return None

    def place(self, index: int) -> tuple[str | None, str]:
        """Admit and place one replica of demand `index`: (node, "") or (None, why not)."""
        demand = self.demands[index]
        refused = self._quota_refusal(demand)
        if refused is not None:
            quota, key = refused
            return None, f"quota:{quota.namespace}:{quota.name}:{key}"
        for name in self.eligible[index]:
            if self._fits_on(name, demand.requests):
                free = self.free[name]
                for resource, amount in demand.requests.items():
                    if resource in free:
                        free[resource] -= amount
                for quota in self.quotas:
                    if quota.namespace == demand.namespace:
                        left = self.quota_left[(quota.namespace, quota.name)]
                        for key in left:
                            left[key] -= pod_quota_amount(key, demand.requests, demand.limits)
                return name, ""
        return None, self._node_reason(index)

    def _node_reason(self, index: int) -> str:
        """Why no node takes the replica, with what is free, read at the moment it was refused."""
        demand = self.demands[index]
        where = _where(demand)
        if not self.matching[index]:
            if demand.model:
                label = f"{AIM_ACCELERATOR_PREFIX}{demand.model}"
                return f"no node offers {demand.model}" + (
                    f" (no node has the label {label} or a GPU operator label naming it)"
                    if self.capacity.from_cluster
                    else ""
                )
            return "the cluster has no node"
        eligible = self.eligible[index]
        if not eligible:
            blocked = [b for n in self.matching[index] if (b := _blocked_by(demand, self.nodes[n]))]
            shown = ", ".join(blocked[:_SHOWN_NODES])
            more = f" and {len(blocked) - _SHOWN_NODES} more" if len(blocked) > _SHOWN_NODES else ""
            plural = "s are" if len(blocked) != 1 else " is"
            return (
                f"every {where} is cordoned or has a taint the predictor does not tolerate "
                f"({len(blocked)} {where}{plural} out: {shown}{more})"
            )
        order = [demand.gpu_resource] if demand.gpu_resource else []
        order += [CPU, MEMORY, PODS]
        order += sorted(r for r in demand.requests if r not in order)
        for resource in order:
            if resource is None:
                continue
            wanted = demand.requests.get(resource, 0)
            if wanted <= 0:
                continue
            limiting = [n for n in eligible if self.nodes[n].limits(resource)]
            if not limiting:
                continue
            frees = [max(self.free[n].get(resource, 0), 0) for n in limiting]
            if max(frees) < wanted:
                nodes = f"{len(limiting)} {where}{'s' if len(limiting) != 1 else ''}"
                if resource == demand.gpu_resource:
                    model = f"{demand.model} " if demand.model else ""
                    wants = f"no node with {show_amount(resource, wanted)} free {model}GPUs ({resource})"
                else:
                    wants = (
                        f"no {where} with {show_amount(resource, wanted)} free {_resource_words(resource)}"
                    )
                return (
                    f"{wants}: the most free on one node is {show_amount(resource, max(frees))}, "
                    f"{show_amount(resource, sum(frees))} free on {nodes} in all"
                )
        asked = ", ".join(
            f"{show_amount(r, a)} {_resource_words(r)}" for r, a in demand.requests.items() if a > 0
        )
        return f"no {where} has room for {asked} at once"


def _resource_words(resource: str) -> str:
    if resource == PODS:
        return "pod slots"
    return resource


def _size_key(demand: ServiceDemand) -> tuple[int, int, int]:
    gpu = demand.requests.get(demand.gpu_resource, 0) if demand.gpu_resource else 0
    return (-gpu, -demand.requests.get(CPU, 0), -demand.requests.get(MEMORY, 0))


def _pack(cluster: _Cluster, items: list[_Item]) -> dict[int, _Outcome]:
    """First-fit-decreasing over `items`; each service's outcome (what was placed, the first refusal)."""
    demands = cluster.demands
    items.sort(key=lambda i: (_size_key(demands[i.demand]), demands[i.demand].key, i.replica))
    outcomes: dict[int, _Outcome] = {}
    for item in items:
        outcome = outcomes.setdefault(item.demand, _Outcome())
        node, reason = cluster.place(item.demand)
        if node is not None:
            outcome.placed[node] = outcome.placed.get(node, 0) + 1
        else:
            outcome.failed += 1
            if not outcome.reason:
                outcome.reason = reason
    return outcomes


def _quota_text(cluster: _Cluster, refusal: str, level: Callable[[ServiceDemand], int]) -> str:
    """`quota:<name>:<key>` as a person reads it, with the hand count behind it at this level."""
    _, namespace, name, key = refusal.split(":", 3)
    quota = next(q for q in cluster.quotas if (q.namespace, q.name) == (namespace, name))
    asked = sum(
        pod_quota_amount(key, d.requests, d.limits) * level(d)
        for d in cluster.demands
        if d.namespace == quota.namespace
    )
    used = cluster.quota_used[(quota.namespace, quota.name)][key]
    over = used + asked - quota.hard[key]
    return (
        f"quota {key} of namespace {quota.namespace} exceeded by {show_amount(key, over)} "
        f"(ResourceQuota {quota.name}: hard {show_amount(key, quota.hard[key])}, used by others "
        f"{show_amount(key, used)}, the program asks {show_amount(key, asked)})"
    )


# ----------------------------------------------------------------------------------------- storage


@dataclass
class _StorageItem:
    cache: CacheDemand
    users: list[int]


def _storage_refusals(cluster: _Cluster) -> tuple[dict[int, str], list[str]]:
    """Reasons by service index for caches that cannot be created, and notes on what was not judged."""
    capacity = cluster.capacity
    notes: list[str] = []
    items: dict[tuple[str, str], _StorageItem] = {}
    for index, demand in enumerate(cluster.demands):
        for cache in demand.caches:
            items.setdefault((cache.namespace, cache.pvc_name), _StorageItem(cache, [])).users.append(index)
    if not items or not capacity.from_cluster:
        return {}, notes
    refusals: dict[int, str] = {}
    default_class = capacity.default_storage_class()
    classes = {c.name for c in capacity.storage_classes} if capacity.storage_classes is not None else None
    existing = {(c.namespace, c.name): c.request for c in cluster.own_claims}
    left = {key: dict(value) for key, value in cluster.quota_left.items()}
    artifact_used: dict[str, int] = {}
    for claim in cluster.other_claims:
        if any(label in claim.labels for label in ARTIFACT_LABELS):
            artifact_used[claim.namespace] = artifact_used.get(claim.namespace, 0) + claim.request
    artifact_asked: dict[str, int] = {}
    for cache in (i.cache for i in items.values()):
        artifact_asked[cache.namespace] = artifact_asked.get(cache.namespace, 0) + cache.size
    artifact_left = {
        ns: limit - artifact_used.get(ns, 0) for ns, limit in (capacity.artifact_quotas or {}).items()
    }
    ordered = sorted(items.values(), key=lambda i: (i.cache.namespace, -i.cache.size, i.cache.pvc_name))
    for item in ordered:
        cache = item.cache
        klass = cache.storage_class or default_class
        reason = ""
        if cache.storage_class and classes is not None and cache.storage_class not in classes:
            reason = f"storage class {cache.storage_class} of cache PVC {cache.pvc_name} does not exist"
        size = max(cache.size, existing.get((cache.namespace, cache.pvc_name), 0))
        if not reason:
            for quota in cluster.quotas:
                if quota.namespace != cache.namespace:
                    continue
                room = left[(quota.namespace, quota.name)]
                for key in sorted(quota.hard):
                    amount = claim_quota_amount(key, klass, size)
                    if amount and amount > room[key]:
                        asked = sum(
                            claim_quota_amount(key, i.cache.storage_class or default_class, i.cache.size)
                            for i in items.values()
                            if i.cache.namespace == quota.namespace
                        )
                        used = cluster.quota_used[(quota.namespace, quota.name)][key]
                        hard = quota.hard[key]
                        reason = (
                            f"storage quota {key} of namespace {quota.namespace} exceeded by "
                            f"{show_amount(key, used + asked - hard)} (ResourceQuota {quota.name}: "
                            f"hard {show_amount(key, hard)}, used by others {show_amount(key, used)}, "
                            f"the program's caches ask {show_amount(key, asked)})"
                        )
                        break
                if reason:
                    break
        if not reason and cache.namespace in artifact_left and size > artifact_left[cache.namespace]:
            limit = (capacity.artifact_quotas or {})[cache.namespace]
            used = artifact_used.get(cache.namespace, 0)
            asked = artifact_asked[cache.namespace]
            reason = (
                f"artifact storage quota of namespace {cache.namespace} exceeded by "
                f"{show_amount('storage', used + asked - limit)} (annotation "
                f"aim.eai.amd.com/artifact-storage-quota: {show_amount('storage', limit)}, other caches "
                f"{show_amount('storage', used)}, the program's caches ask {show_amount('storage', asked)})"
            )
        if reason:
            for user in item.users:
                refusals.setdefault(user, reason)
            continue
        for quota in cluster.quotas:
            if quota.namespace == cache.namespace:
                room = left[(quota.namespace, quota.name)]
                for key in room:
                    room[key] -= claim_quota_amount(key, klass, size)
        if cache.namespace in artifact_left:
            artifact_left[cache.namespace] -= size
    if capacity.claims is None:
        notes.append("PVCs were not read: storage quotas count the program's existing caches as others'")
    return refusals, notes


# ------------------------------------------------------------------------------------------ tables


def _pool_rows(cluster: _Cluster) -> list[PoolRow]:
    rows: list[PoolRow] = []
    demands = cluster.demands
    covered: set[str] = set()
    pools: dict[tuple[str, str], list[int]] = {}
    for index, demand in enumerate(demands):
        if demand.gpu_resource:
            pools.setdefault((demand.pool, demand.gpu_resource), []).append(index)
    for (pool, resource), members in sorted(pools.items()):
        names = sorted({n for i in members for n in cluster.matching[i]})
        usable = sorted({n for i in members for n in cluster.eligible[i]})
        covered.update(names)
        rows.append(_row(cluster, pool, resource, names, usable, [demands[i] for i in members]))
    by_models: dict[tuple[str, str], list[str]] = {}
    for node in cluster.capacity.nodes:
        if node.name in covered:
            continue
        for resource in GPU_RESOURCES.values():
            if node.allocatable.get(resource, 0) > 0:
                label = "/".join(node_models(node)) or node.pool or resource
                by_models.setdefault((label, resource), []).append(node.name)
    for (pool, resource), names in sorted(by_models.items()):
        usable = [n for n in names if not _unusable(cluster.nodes[n])]
        rows.append(_row(cluster, pool, resource, names, usable, []))
    everything = [n.name for n in cluster.capacity.nodes]
    usable_all = [n for n in everything if not _unusable(cluster.nodes[n])]
    for resource in (CPU, MEMORY):
        if all(not cluster.nodes[n].limits(resource) for n in everything):
            continue
        rows.append(_row(cluster, "all nodes", resource, everything, usable_all, list(demands)))
    return rows


def _unusable(node: Node) -> bool:
    """Cordoned, or with a taint no pod tolerates by default (the table's 'usable' column)."""
    return node.unschedulable or any(
        t.effect in ("NoSchedule", "NoExecute") and (t.key, t.effect) not in _DEFAULT_TOLERATED
        for t in node.taints
    )


def _row(
    cluster: _Cluster,
    pool: str,
    resource: str,
    names: Sequence[str],
    usable: Sequence[str],
    demands: Iterable[ServiceDemand],
) -> PoolRow:
    limiting = [n for n in usable if cluster.nodes[n].limits(resource)]
    demands = list(demands)
    return PoolRow(
        pool=pool,
        resource=resource,
        nodes=len(names),
        usable_nodes=len(usable),
        allocatable=sum(cluster.nodes[n].allocatable.get(resource, 0) for n in limiting),
        used_by_others=sum(cluster.used_by_others.get(n, {}).get(resource, 0) for n in limiting),
        demand_min=sum(d.requests.get(resource, 0) * d.min_replicas for d in demands),
        demand_max=sum(d.requests.get(resource, 0) * d.max_replicas for d in demands),
    )


def _quota_rows(cluster: _Cluster) -> list[QuotaRow]:
    namespaces = {d.namespace for d in cluster.demands}
    capacity = cluster.capacity
    rows: list[QuotaRow] = []
    default_class = capacity.default_storage_class()
    for quota in cluster.quotas:
        if quota.namespace not in namespaces:
            continue
        mine = [d for d in cluster.demands if d.namespace == quota.namespace]
        caches = {(c.namespace, c.pvc_name): c for d in mine for c in d.caches}
        for key in sorted(quota.hard):
            if _is_storage_key(key):
                asked = sum(
                    claim_quota_amount(key, c.storage_class or default_class, c.size) for c in caches.values()
                )
                low = high = asked
            else:
                low = sum(pod_quota_amount(key, d.requests, d.limits) * d.min_replicas for d in mine)
                high = sum(pod_quota_amount(key, d.requests, d.limits) * d.max_replicas for d in mine)
            rows.append(
                QuotaRow(
                    quota.namespace,
                    quota.name,
                    key,
                    quota.hard[key],
                    cluster.quota_used[(quota.namespace, quota.name)][key],
                    low,
                    high,
                )
            )
    for namespace, limit in sorted((capacity.artifact_quotas or {}).items()):
        if namespace not in namespaces:
            continue
        asked = sum(
            c.size
            for c in {(c.namespace, c.pvc_name): c for d in cluster.demands for c in d.caches}.values()
            if c.namespace == namespace
        )
        used = sum(
            c.request
            for c in cluster.other_claims
            if c.namespace == namespace and any(label in c.labels for label in ARTIFACT_LABELS)
        )
        rows.append(QuotaRow(namespace, "artifact-storage-quota", "storage", limit, used, asked, asked))
    return rows


def _storage_rows(demands: Sequence[ServiceDemand]) -> list[StorageRow]:
    totals: dict[tuple[str, str], tuple[int, int]] = {}
    caches = {(c.namespace, c.pvc_name): c for d in demands for c in d.caches}
    for cache in caches.values():
        key = (cache.namespace, cache.storage_class or "")
        count, size = totals.get(key, (0, 0))
        totals[key] = (count + 1, size + cache.size)
    return [
        StorageRow(ns, klass or None, count, size) for (ns, klass), (count, size) in sorted(totals.items())
    ]


# ------------------------------------------------------------------------------------------ verdicts


def not_checked(demands: Sequence[ServiceDemand], source: str, why: str) -> CapacityReport:
    """The report when there is nothing to judge against: every service `NotChecked`, saying why."""
    fits = tuple(
        ServiceFit(d.namespace, d.name, NOT_CHECKED, d.min_replicas, d.max_replicas, 0, why)
        for d in sorted(demands, key=lambda d: d.key)
    )
    return CapacityReport(source, False, fits, storage=tuple(_storage_rows(demands)), notes=(why,))


def judge(demands: Sequence[ServiceDemand], capacity: ClusterCapacity) -> CapacityReport:
    """The verdict on every service of the program, and the tables behind them."""
    demands = sorted(demands, key=lambda d: d.key)
    cluster = _Cluster(capacity, demands)
    notes = [f"not read: {what}" for what in capacity.unread]
    if capacity.from_cluster and capacity.pods is None:
        notes.append("pods were not read: nothing counts as used by others on the nodes")
    if capacity.from_cluster and capacity.quotas is None:
        notes.append("resource quotas were not read: no quota is judged")
    scoped = [q for q in capacity.quotas or () if q.scoped]
    if scoped:
        names = ", ".join(f"{q.namespace}/{q.name}" for q in scoped)
        notes.append(f"scoped quotas are not judged (they count only some pods): {names}")
    if not capacity.from_cluster:
        notes.append("from aim:inventory: only accelerators are counted (no CPU, memory, quotas or storage)")
    storage_refused, storage_notes = _storage_refusals(cluster)
    notes.extend(storage_notes)

    minimum = [
        _Item(i, r) for i, d in enumerate(demands) if i not in storage_refused for r in range(d.min_replicas)
    ]
    at_min = _pack(cluster, minimum)
    fits_min = [
        i for i in range(len(demands)) if i not in storage_refused and at_min.get(i, _Outcome()).failed == 0
    ]
    extras = [_Item(i, r) for i in fits_min for r in range(demands[i].min_replicas, demands[i].max_replicas)]
    at_max = _pack(cluster, extras)

    results: list[ServiceFit] = []
    for index, demand in enumerate(demands):
        low = at_min.get(index, _Outcome())
        high = at_max.get(index, _Outcome())
        placed: dict[str, int] = dict(low.placed)
        for node, count in high.placed.items():
            placed[node] = placed.get(node, 0) + count
        placements = tuple(sorted(placed.items()))
        common = (demand.namespace, demand.name)
        bounds = (demand.min_replicas, demand.max_replicas)
        if index in storage_refused:
            results.append(ServiceFit(*common, DOES_NOT_FIT, *bounds, 0, storage_refused[index]))
        elif low.failed:
            reason = low.reason
            if reason.startswith("quota:"):
                reason = _quota_text(cluster, reason, lambda d: d.min_replicas)
            results.append(
                ServiceFit(*common, DOES_NOT_FIT, *bounds, sum(low.placed.values()), reason, placements)
            )
        elif high.failed:
            reason = high.reason
            if reason.startswith("quota:"):
                reason = _quota_text(cluster, reason, lambda d: d.max_replicas)
            schedulable = sum(placed.values())
            results.append(ServiceFit(*common, FITS_AT_MIN_ONLY, *bounds, schedulable, reason, placements))
        else:
            results.append(ServiceFit(*common, FITS_AT_MAX, *bounds, demand.max_replicas, "", placements))
    return CapacityReport(
        source=capacity.source,
        checked=True,
        services=tuple(results),
        pools=tuple(_pool_rows(cluster)),
        quotas=tuple(_quota_rows(cluster)),
        storage=tuple(_storage_rows(demands)),
        notes=tuple(notes),
    )
