"""Which accelerators a node offers, and so which profiles the cluster can run: one rule for both.

The AIM operator's accelerator detector writes one label per identifier it finds on a node
(`feature.node.kubernetes.io/aim-accelerator.<MODEL>`, plus a `partitioning-scheme.<SCHEME>` axis),
and the operator's node matching reads them: a profile needing a model matches a node carrying that
model's label key, a GPU profile also the partitioning label its mode asks for, and the node must
have at least the profile's device request in `status.allocatable` where it reports the resource
(a label without device-plugin capacity still counts: the kubelet refuses an over-request later).
Availability (`NodeInventory.has`) is that rule over the cluster's nodes; the fit uses the same
`node_offers` for where a replica may run.

Nodes the detector has not labelled are matched by what the GPU operators publish instead, as the
operator's older template path did: AMD's `amd.com/gpu.device-id` (a PCI id, mapped to its product),
`amd.com/gpu.product-name` and `amd.com/gpu.family` (and their `beta.amd.com/` forms, and the
count-encoded `<label>.<value>=N` forms), NVIDIA's `nvidia.com/gpu.product`, `nvidia.com/mig.product`
and `nvidia.com/gpu.family`. Their values are product names (`AMD_Instinct_MI300X_OAM`,
`NVIDIA-H100-80GB-HBM3`), so they are compared by the model token they contain, case-insensitively;
without partitioning labels such a node is taken as unpartitioned.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from aim_pulumi.resolve.capacity.cluster import (
    AIM_ACCELERATOR_PREFIX,
    CPU,
    MILLI,
    PARTITIONING_PREFIX,
    Node,
)

__all__ = [
    "GPU_RESOURCES",
    "NodeInventory",
    "gpu_resource",
    "node_models",
    "node_offers",
]

GPU_RESOURCES = {"amd": "amd.com/gpu", "nvidia": "nvidia.com/gpu"}
DEFAULT_SCHEME = "default"

# PCI device ids of AMD accelerators, as `amd.com/gpu.device-id` carries them (lower-case hex).
AMD_DEVICE_IDS: Mapping[str, str] = {
    "738c": "MI100",
    "738e": "MI100",
    "7408": "MI250X",
    "740c": "MI250X",
    "740f": "MI210",
    "7410": "MI210",
    "74a0": "MI300A",
    "74a1": "MI300X",
    "74a2": "MI308X",
    "74a5": "MI325X",
    "74a8": "MI308X",
    "74a9": "MI300X",
    "74b5": "MI300X",
    "74b6": "MI308X",
    "74b9": "MI325X",
    "74bd": "MI300X",
    "75a0": "MI350X",
    "75a3": "MI355X",
    "75b0": "MI350X",
    "75b3": "MI355X",
}
_AMD_DEVICE_LABELS = ("amd.com/gpu.device-id", "beta.amd.com/gpu.device-id")
_AMD_NAME_LABELS = (
    "amd.com/gpu.product-name",
    "beta.amd.com/gpu.product-name",
    "amd.com/gpu.family",
    "beta.amd.com/gpu.family",
)
_NVIDIA_NAME_LABELS = ("nvidia.com/gpu.product", "nvidia.com/mig.product", "nvidia.com/gpu.family")
# Words of a product name that are not its model.
_NOT_MODELS = frozenset({"AMD", "NVIDIA", "INSTINCT", "TESLA", "RADEON", "PRO", "OAM", "SXM", "PCIE", "GPU"})
_MODEL_TOKEN = re.compile(r"^[A-Z]*[0-9]+[A-Z0-9]*$")


def gpu_resource(vendor: str | None) -> str:
    """The extended resource a vendor's device plugin advertises; an unset vendor means AMD."""
    return GPU_RESOURCES.get((vendor or "").strip().lower(), GPU_RESOURCES["amd"])


def _tokens(value: str) -> list[str]:
    return [t for t in re.split(r"[-_ /:().,]+", value.strip().upper()) if t]


def _product_models(value: str) -> set[str]:
    """The model tokens of a product name (`AMD_Instinct_MI300X_OAM` -> MI300X)."""
    return {t for t in _tokens(value) if t not in _NOT_MODELS and _MODEL_TOKEN.match(t)}


def _label_values(labels: Mapping[str, str], keys: Sequence[str]) -> list[str]:
    """Each key's value, and the suffix of each count-encoded `<key>.<value>=N` label (N not 0)."""
    found: list[str] = []
    for key in keys:
        value = labels.get(key, "").strip()
        if value:
            found.append(value)
        prefix = key + "."
        for label, count in labels.items():
            if label.startswith(prefix) and count.strip() not in ("", "0"):
                found.append(label[len(prefix) :])
    return found


def aim_accelerators(node: Node) -> frozenset[str]:
    """The identifiers the AIM accelerator detector wrote on the node (partitioning keys aside)."""
    return frozenset(
        key[len(AIM_ACCELERATOR_PREFIX) :]
        for key in node.labels
        if key.startswith(AIM_ACCELERATOR_PREFIX) and not key.startswith(PARTITIONING_PREFIX)
    )


def operator_models(labels: Mapping[str, str]) -> frozenset[str]:
    """Upper-case models the AMD and NVIDIA GPU operators' labels name."""
    models: set[str] = set()
    for device in _label_values(labels, _AMD_DEVICE_LABELS):
        known = AMD_DEVICE_IDS.get(device.lower().removeprefix("0x"))
        if known:
            models.add(known)
    for value in _label_values(labels, _AMD_NAME_LABELS) + _label_values(labels, _NVIDIA_NAME_LABELS):
        models.update(_product_models(value))
    return frozenset(models)


def node_models(node: Node) -> tuple[str, ...]:
    """What the node offers, as names the tables use: the detector's identifiers, else the operators'."""
    detected = aim_accelerators(node)
    return tuple(sorted(detected or operator_models(node.labels)))


def _canonical_mode(mode: str | None) -> str:
    lowered = (mode or "").strip().lower()
    if lowered in ("", "unpartitioned", "partitioned"):
        return lowered
    return (mode or "").strip().upper()


def _partition_matches(node: Node, mode: str | None) -> bool:
    """The operator's partitioning term: default scheme Exists, DoesNotExist, or the scheme Exists."""
    canonical = _canonical_mode(mode)
    default_key = PARTITIONING_PREFIX + DEFAULT_SCHEME
    if canonical in ("", "unpartitioned"):
        return default_key in node.labels
    if canonical == "partitioned":
        return default_key not in node.labels
    return (PARTITIONING_PREFIX + canonical) in node.labels


def node_offers(
    node: Node, model: str | None, accelerator_type: str | None, partitioning: str | None
) -> bool:
    """Whether the node carries the accelerator a profile names (labels only, not capacity).

    No model: every node. A node the detector labelled: its label key exists (the exact key, as the
    operator's affinity uses it), and for a GPU profile the partitioning term holds. Any other node:
    a GPU operator label names the model (case-insensitively), and the profile wants no partitioning.
    """
    wanted = (model or "").strip()
    if not wanted:
        return True
    is_gpu = (accelerator_type or "").strip().lower() == "gpu"
    detected = aim_accelerators(node)
    if detected:
        if wanted not in detected:
            return False
        return _partition_matches(node, partitioning) if is_gpu else True
    if wanted.upper() not in operator_models(node.labels):
        return False
    return _canonical_mode(partitioning) in ("", "unpartitioned")


def has_room_for(node: Node, requests: Mapping[str, int]) -> bool:
    """The operator's capacity test: each request within allocatable where the node reports it."""
    for resource, amount in requests.items():
        if resource in node.allocatable and node.allocatable[resource] < amount:
            return False
    return True


@dataclass(frozen=True)
class NodeInventory:
    """The catalog's inventory read from a cluster's nodes: is an accelerator present?

    It answers selection's question (`InventoryView.has`) with the operator's node matching, so a
    profile the operator would mark `HardwareNotAvailable` ranks unavailable here, and a fallback
    whose hardware no node has is not generated.
    """

    nodes: tuple[Node, ...]

    @classmethod
    def of(cls, nodes: Iterable[Node]) -> NodeInventory:
        return cls(tuple(nodes))

    def matching_nodes(
        self,
        vendor: str | None,
        type: str | None,
        model: str | None,
        partitioning_mode: str | None,
        count: int | None,
    ) -> int:
        """How many nodes match (the operator's `status.matchingNodes`)."""
        devices = count or 0
        kind = (type or "").strip().lower()
        requests: dict[str, int] = {}
        if devices > 0 and kind == "gpu":
            requests[gpu_resource(vendor)] = devices * MILLI
        elif devices > 0 and kind == "cpu":
            requests[CPU] = devices * MILLI
        return sum(
            1
            for node in self.nodes
            if node_offers(node, model, type, partitioning_mode) and has_room_for(node, requests)
        )

    def has(
        self,
        vendor: str | None,
        type: str | None,
        model: str | None,
        partitioning_mode: str | None,
        count: int | None,
    ) -> bool:
        """Available: no accelerator asked for, or some node matches (the operator's rule)."""
        if not (model or "").strip() and not count:
            return True
        return self.matching_nodes(vendor, type, model, partitioning_mode, count) > 0


def tells_accelerators(nodes: Iterable[Node]) -> bool:
    """Whether the nodes say anything about accelerators: a detector or GPU operator label, or a GPU
    resource. A cluster that says nothing (no GPU node visible, a test cluster without kubelets)
    cannot tell available hardware from absent hardware, so availability is not read from it."""
    for node in nodes:
        if aim_accelerators(node) or operator_models(node.labels):
            return True
        if any(resource in node.allocatable for resource in GPU_RESOURCES.values()):
            return True
    return False
