"""What a cluster's objects say, read as the scheduler and the quota controller count them."""

from __future__ import annotations

import pytest
from k8s_objects import claim, namespace, node, pod, quota, storage_class

from aim_pulumi.resolve.capacity.cluster import (
    MILLI,
    capacity_from_inventory,
    capacity_from_objects,
    milli,
    pod_requests,
    show_amount,
)
from aim_pulumi.resolve.catalog.inventory import Inventory

GI = 1024**3


@pytest.mark.parametrize(
    ("quantity", "expected"),
    [("1", 1000), ("500m", 500), ("1.5", 1500), ("1Gi", GI * 1000), ("1m", 1), ("0.0001", 1), (8, 8000)],
)
def test_amounts_are_whole_thousandths_rounded_up(quantity: object, expected: int) -> None:
    assert milli(quantity) == expected


def test_a_pod_counts_its_containers_sidecars_init_containers_and_overhead() -> None:
    spec = {
        "containers": [
            {"resources": {"requests": {"cpu": "1", "memory": "1Gi"}}},
            # A limit stands in for a missing request.
            {"resources": {"limits": {"cpu": "2", "amd.com/gpu": "1"}}},
        ],
        "initContainers": [
            {"resources": {"requests": {"cpu": "500m"}}, "restartPolicy": "Always"},  # a sidecar
            {"resources": {"requests": {"cpu": "10", "memory": "512Mi"}}},  # runs alone, before
        ],
        "overhead": {"cpu": "100m"},
    }
    requests, limits = pod_requests(spec)
    # cpu: max(1 + 2 + 0.5, 10 + 0.5) + 0.1; memory: max(1Gi, 512Mi); the GPU from its limit.
    assert requests == {"amd.com/gpu": 1000, "cpu": 10600, "memory": GI * 1000}
    assert limits == {"amd.com/gpu": 1000, "cpu": 2100}


def test_the_objects_of_a_cluster() -> None:
    capacity = capacity_from_objects(
        "test",
        nodes=[
            node("b", taints=[{"key": "k", "value": "v", "effect": "NoSchedule"}]),
            node("a", unschedulable=True),
        ],
        pods=[
            pod("p", "a", {"cpu": "1"}),
            pod("q", None, {"cpu": "1"}),
            pod("r", "a", {}, phase="Succeeded"),
        ],
        quotas=[
            quota("q", "ns", {"pods": "10"}, {"pods": "3"}),
            quota("s", "ns", {"pods": "1"}, scopes=["BestEffort"]),
        ],
        storage_classes=[
            storage_class("b", default=True),
            storage_class("a", default=True),
            storage_class("c"),
        ],
        namespaces=[namespace("ns", "100Gi"), namespace("other"), namespace("bad", "lots")],
        claims=[claim("c", "ns", "10Gi", storage_class="a"), claim("d", "ns", "1Gi")],
    )
    assert [n.name for n in capacity.nodes] == ["a", "b"]
    assert capacity.nodes[0].unschedulable and str(capacity.nodes[1].taints[0]) == "k=v:NoSchedule"
    assert capacity.nodes[1].allocatable["amd.com/gpu"] == 8 * MILLI
    assert [p.name for p in capacity.pods or ()] == ["p"]
    assert [(q.name, q.scoped, q.used) for q in capacity.quotas or ()] == [
        ("q", False, {"pods": 3000}),
        ("s", True, {"pods": 0}),
    ]
    assert capacity.default_storage_class() == "b"
    assert capacity.artifact_quotas == {"ns": 100 * GI * MILLI}
    assert [(c.name, c.storage_class, c.request) for c in capacity.claims or ()] == [
        ("c", "a", 10 * GI * MILLI),
        ("d", None, GI * MILLI),
    ]


def test_a_kind_not_read_stays_unknown() -> None:
    capacity = capacity_from_objects("test", nodes=[], unread=["pods (HTTP 403 Forbidden)"])
    assert (capacity.pods, capacity.quotas, capacity.claims, capacity.unread) == (
        None,
        None,
        None,
        ("pods (HTTP 403 Forbidden)",),
    )


def test_the_inventory_stands_in_only_when_every_pool_says_how_many_nodes() -> None:
    pools = Inventory.from_config(
        [
            {"vendor": "amd", "type": "gpu", "model": "MI300X", "devices": 8, "nodes": 2, "name": "big"},
            {"vendor": "nvidia", "type": "gpu", "model": "H100", "devices": 4, "nodes": 1},
        ]
    ).pools
    capacity = capacity_from_inventory(pools)
    assert capacity is not None and not capacity.from_cluster
    assert [(n.name, dict(n.allocatable)) for n in capacity.nodes] == [
        ("big-1", {"amd.com/gpu": 8000}),
        ("big-2", {"amd.com/gpu": 8000}),
        ("H100-1", {"nvidia.com/gpu": 4000}),
    ]
    assert capacity.nodes[0].labels == {
        "feature.node.kubernetes.io/aim-accelerator.MI300X": "8",
        "feature.node.kubernetes.io/aim-accelerator.partitioning-scheme.default": "8",
    }
    assert not capacity.nodes[0].limits("cpu") and capacity.nodes[0].limits("amd.com/gpu")
    without = Inventory.from_config([{"model": "MI300X", "devices": 8}]).pools
    assert capacity_from_inventory(without) is None


@pytest.mark.parametrize(
    ("resource", "amount", "text"),
    [
        ("cpu", 1500, "1500m"),
        ("cpu", 4000, "4"),
        ("memory", 64 * GI * MILLI, "64Gi"),
        ("requests.storage", 1536 * 1024**2 * MILLI, "1.5Gi"),
        ("amd.com/gpu", -3000, "-3"),
        ("pods", 0, "0"),
    ],
)
def test_amounts_as_people_read_them(resource: str, amount: int, text: str) -> None:
    assert show_amount(resource, amount) == text
