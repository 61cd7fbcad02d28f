"""Which accelerators a node offers: the operator's node matching, and the GPU operators' labels."""

from __future__ import annotations

import pytest
from k8s_objects import AIM, UNPARTITIONED, node

from aim_pulumi.resolve.capacity.accelerators import (
    NodeInventory,
    node_models,
    node_offers,
    tells_accelerators,
)
from aim_pulumi.resolve.capacity.cluster import Node, node_from


def parsed(**kwargs: object) -> Node:
    return node_from(node("n", **kwargs))  # type: ignore[arg-type]


def test_the_detectors_label_is_matched_by_its_exact_key() -> None:
    mi300x = parsed(model="MI300X")
    assert node_offers(mi300x, "MI300X", "gpu", None)
    assert not node_offers(mi300x, "mi300x", "gpu", None)  # the operator's affinity is the exact key
    assert not node_offers(mi300x, "MI325X", "gpu", None)
    assert node_offers(mi300x, None, None, None)


@pytest.mark.parametrize(
    ("labels", "mode", "offers"),
    [
        ({UNPARTITIONED: "8"}, "", True),
        ({UNPARTITIONED: "8"}, "Unpartitioned", True),
        ({UNPARTITIONED: "8"}, "partitioned", False),
        ({AIM + "partitioning-scheme.CPX-NPS4": "64"}, "partitioned", True),
        ({AIM + "partitioning-scheme.CPX-NPS4": "64"}, "cpx-nps4", True),  # upper-cased, as upstream
        ({AIM + "partitioning-scheme.CPX-NPS4": "64"}, "", False),
    ],
)
def test_the_partitioning_term_of_a_gpu_profile(labels: dict[str, str], mode: str, offers: bool) -> None:
    node_ = parsed(labels={AIM + "MI300X": "8", **labels})
    assert node_offers(node_, "MI300X", "gpu", mode) is offers
    # A CPU profile has no partitioning term.
    assert node_offers(node_, "MI300X", "cpu", mode)


@pytest.mark.parametrize(
    ("labels", "model"),
    [
        ({"amd.com/gpu.device-id": "74a1"}, "MI300X"),
        ({"beta.amd.com/gpu.device-id": "0x74A5"}, "MI325X"),
        ({"amd.com/gpu.device-id.75a3": "8"}, "MI355X"),
        ({"amd.com/gpu.product-name": "AMD_Instinct_MI300X_OAM"}, "MI300X"),
        ({"amd.com/gpu.family": "MI250X"}, "MI250X"),
        ({"nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3"}, "H100"),
        ({"nvidia.com/mig.product": "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb"}, "A100"),
    ],
)
def test_the_gpu_operators_labels_name_a_model(labels: dict[str, str], model: str) -> None:
    node_ = parsed(model=None, labels=labels)
    assert model in node_models(node_)
    assert node_offers(node_, model, "gpu", None)
    assert node_offers(node_, model.lower(), "gpu", "unpartitioned")  # product names: any case
    assert not node_offers(node_, model, "gpu", "partitioned")


def test_the_detectors_labels_win_over_the_operators() -> None:
    node_ = parsed(labels={AIM + "MI300X": "8", UNPARTITIONED: "8", "amd.com/gpu.device-id": "74a5"})
    assert node_models(node_) == ("MI300X",)
    assert not node_offers(node_, "MI325X", "gpu", None)


def test_availability_is_the_operators_match_over_the_nodes() -> None:
    inventory = NodeInventory.of(
        [parsed(model="MI300X", gpus=4), node_from(node("small", model=None, gpus=1))]
    )
    assert inventory.has("amd", "gpu", "MI300X", None, 4)
    assert not inventory.has("amd", "gpu", "MI300X", None, 8)  # allocatable says 4
    assert not inventory.has("amd", "gpu", "MI325X", None, 1)
    assert inventory.has(None, None, None, None, None)  # no accelerator asked for
    # No model: no label to match, only the device count against what each node reports.
    assert inventory.matching_nodes("amd", "gpu", None, None, 2) == 1
    assert inventory.matching_nodes("amd", "gpu", None, None, 1) == 2
    # A label without device-plugin capacity still counts, as the operator counts it.
    bare = NodeInventory.of([parsed(model="MI300X", gpus=None)])
    assert bare.has("amd", "gpu", "MI300X", None, 8)


def test_a_cluster_that_says_nothing_of_accelerators() -> None:
    assert not tells_accelerators([parsed(model=None, gpus=None)])
    assert tells_accelerators([parsed(model=None, gpus=2)])
    assert tells_accelerators([parsed(model="MI300X", gpus=None)])
