"""The packing and the verdicts: each scenario counted by hand, then properties over random clusters."""

from __future__ import annotations

import random
from collections.abc import Sequence

from demands import GPU, cluster, demand
from hypothesis import given
from hypothesis import strategies as st
from k8s_objects import claim, namespace, node, pod, quota, storage_class

from aim_pulumi.resolve.capacity.cluster import MILLI, ClusterCapacity
from aim_pulumi.resolve.capacity.demand import GI_MILLI, CacheDemand, ServiceDemand
from aim_pulumi.resolve.capacity.fit import (
    DOES_NOT_FIT,
    FITS_AT_MAX,
    FITS_AT_MIN_ONLY,
    NOT_CHECKED,
    CapacityReport,
    judge,
    not_checked,
)


def verdict(report: CapacityReport, name: str, namespace: str = "team") -> tuple[str, str]:
    fit = report.fit_of(namespace, name)
    assert fit is not None
    return fit.verdict, fit.message


def gpus_placed(report: CapacityReport, demands: Sequence[ServiceDemand]) -> dict[str, int]:
    by_key = {d.key: d for d in demands}
    placed: dict[str, int] = {}
    for fit in report.services:
        for node_name, replicas in fit.placements:
            placed[node_name] = placed.get(node_name, 0) + replicas * by_key[(fit.namespace, fit.name)].gpus
    return placed


# ------------------------------------------------------------------------------------ the scenarios


def test_a_program_that_fits_is_placed_node_by_node() -> None:
    report = judge([demand("chat", gpus=4, replicas=3)], cluster([node("a"), node("b")]))
    assert verdict(report, "chat") == (FITS_AT_MAX, "fits: 3 replicas")
    assert report.services[0].placements == (("a", 2), ("b", 1))
    (row, *_rest) = report.pools
    assert (
        row.pool,
        row.nodes,
        row.allocatable // MILLI,
        row.demand_max // MILLI,
        row.headroom_max // MILLI,
    ) == (
        "MI300X",
        2,
        16,
        12,
        4,
    )


def test_enough_gpus_in_total_but_fragmented_does_not_fit() -> None:
    """12 GPUs free on three nodes, 4 on each: an 8-GPU replica needs one node with 8."""
    busy = [pod(f"other-{n}", n, {GPU: "4"}) for n in ("a", "b", "c")]
    report = judge([demand("big", gpus=8)], cluster([node("a"), node("b"), node("c")], pods=busy))
    assert verdict(report, "big") == (
        DOES_NOT_FIT,
        "does not fit: no node with 8 free MI300X GPUs (amd.com/gpu): the most free on one node is 4, "
        "12 free on 3 MI300X nodes in all",
    )
    row = report.pools[0]
    assert (row.allocatable, row.used_by_others, row.demand_min) == (24 * MILLI, 12 * MILLI, 8 * MILLI)


def test_a_quota_exceeded_names_the_quota_and_the_hand_count() -> None:
    report = judge(
        [demand("chat", gpus=2, replicas=3)],
        cluster(
            [node("a"), node("b")],
            quotas=[quota("gpus", "team", {"requests.amd.com/gpu": "4"}, {"requests.amd.com/gpu": "1"})],
        ),
    )
    assert verdict(report, "chat") == (
        DOES_NOT_FIT,
        "does not fit: quota requests.amd.com/gpu of namespace team exceeded by 3 (ResourceQuota gpus: "
        "hard 4, used by others 1, the program asks 6)",
    )
    (row,) = report.quotas
    assert (row.hard, row.used_by_others, row.demand_min, row.headroom_max) == (4000, 1000, 6000, -3000)


def test_every_matching_node_tainted_or_cordoned() -> None:
    nodes = [
        node("a", taints=[{"key": "dedicated", "value": "training", "effect": "NoSchedule"}]),
        node("b", unschedulable=True),
        node("other", model="MI325X"),
    ]
    report = judge([demand("chat")], cluster(nodes))
    assert verdict(report, "chat") == (
        DOES_NOT_FIT,
        "does not fit: every MI300X node is cordoned or has a taint the predictor does not tolerate "
        "(2 MI300X nodes are out: a (taint dedicated=training:NoSchedule), b (cordoned))",
    )


def test_tolerated_taints_do_not_block() -> None:
    nodes = [
        node("a", taints=[{"key": GPU, "effect": "NoSchedule"}]),  # ExtendedResourceToleration's
        node("b", taints=[{"key": "node.kubernetes.io/not-ready", "effect": "NoExecute"}]),
        node("c", taints=[{"key": "busy", "effect": "PreferNoSchedule"}]),
    ]
    report = judge([demand("chat", gpus=8, replicas=3)], cluster(nodes))
    assert report.services[0].placements == (("a", 1), ("b", 1), ("c", 1))
    # A NoExecute taint of the GPU's key is not what the admission plugin tolerates.
    strict = [node("a", taints=[{"key": GPU, "effect": "NoExecute"}])]
    assert verdict(judge([demand("chat")], cluster(strict)), "chat")[0] == DOES_NOT_FIT


def test_autoscaling_beyond_capacity_fits_at_min_only() -> None:
    report = judge([demand("chat", gpus=4, replicas=1, max_replicas=6)], cluster([node("a"), node("b")]))
    fit = report.services[0]
    assert fit.verdict == FITS_AT_MIN_ONLY
    assert fit.schedulable == 4
    assert fit.message == (
        "fits at its minimum of 1, not at its maximum of 6 replicas: autoscaling will be capped at 4: "
        "no node with 4 free MI300X GPUs (amd.com/gpu): the most free on one node is 0, 0 free on 2 "
        "MI300X nodes in all"
    )


def test_minimum_replicas_of_every_service_come_before_anyone_scales() -> None:
    """One 8-GPU node: the 4-GPU service's maximum would crowd out the other's minimum."""
    small = demand("small", gpus=4, replicas=1, max_replicas=2)
    other = demand("other", gpus=4, replicas=1)
    report = judge([small, other], cluster([node("a")]))
    assert verdict(report, "other")[0] == FITS_AT_MAX
    assert verdict(report, "small")[0] == FITS_AT_MIN_ONLY


def test_no_node_offers_the_model() -> None:
    report = judge([demand("chat", model="MI355X")], cluster([node("a")]))
    assert verdict(report, "chat") == (
        DOES_NOT_FIT,
        "does not fit: no node offers MI355X (no node has the label "
        "feature.node.kubernetes.io/aim-accelerator.MI355X or a GPU operator label naming it)",
    )


def test_cpu_and_memory_count_as_well() -> None:
    report = judge([demand("chat", gpus=1, cpu=100)], cluster([node("a", cpu="64")]))
    assert verdict(report, "chat") == (
        DOES_NOT_FIT,
        "does not fit: no MI300X node with 100 free cpu: the most free on one node is 64, 64 free on "
        "1 MI300X node in all",
    )


def test_the_programs_own_pods_are_not_counted_twice() -> None:
    """After `up`, the predictor and download pods run and the quota counts them: the next preview
    must judge alike, and say so of the quota."""
    mine = [
        pod(
            "chat-predictor-1",
            "a",
            {GPU: "8"},
            namespace="team",
            labels={"serving.kserve.io/inferenceservice": "chat-isvc"},
        ),
        pod("cache-job-x", "a", {"cpu": "1"}, namespace="team", labels={"job-name": "cache-job"}),
    ]
    hard = {"requests.amd.com/gpu": "8", "pods": "2"}
    cache = CacheDemand("team", "cache", None, 10 * GI_MILLI, shared=False)
    chat = demand("chat", gpus=8, caches=[cache])
    before = judge([chat], cluster([node("a")], quotas=[quota("gpus", "team", hard)]))
    after = judge([chat], cluster([node("a")], pods=mine, quotas=[quota("gpus", "team", hard, hard)]))
    assert verdict(after, "chat") == verdict(before, "chat") == (FITS_AT_MAX, "fits: 1 replica")
    assert after.quotas == before.quotas
    assert [r.used_by_others for r in after.quotas] == [0, 0]
    assert after.pools == before.pools


def test_others_pods_that_finished_or_are_not_bound_take_no_room() -> None:
    pods = [
        pod("done", "a", {GPU: "8"}, phase="Succeeded"),
        pod("failed", "a", {GPU: "8"}, phase="Failed"),
        pod("pending", None, {GPU: "8"}, phase="Pending"),
    ]
    assert verdict(judge([demand("chat", gpus=8)], cluster([node("a")], pods=pods)), "chat")[0] == FITS_AT_MAX


def test_a_scoped_quota_is_not_judged_and_said_so() -> None:
    scoped = quota("best-effort", "team", {"pods": "0"}, scopes=["BestEffort"])
    report = judge([demand("chat")], cluster([node("a")], quotas=[scoped]))
    assert verdict(report, "chat")[0] == FITS_AT_MAX
    assert "scoped quotas are not judged (they count only some pods): team/best-effort" in report.notes


# ------------------------------------------------------------------------------------------ storage


def test_a_missing_storage_class_does_not_fit() -> None:
    cache = CacheDemand("team", "cache-a", "fast", 10 * GI_MILLI, shared=False)
    report = judge(
        [demand("chat", caches=[cache])], cluster([node("a")], storage_classes=[storage_class("slow")])
    )
    assert verdict(report, "chat") == (
        DOES_NOT_FIT,
        "does not fit: storage class fast of cache PVC cache-a does not exist",
    )


def test_storage_quota_per_class_and_in_total() -> None:
    cache = CacheDemand("team", "cache-a", None, 100 * GI_MILLI, shared=False)
    quotas = [
        quota(
            "storage",
            "team",
            {"fast.storageclass.storage.k8s.io/requests.storage": "120Gi"},
            {"fast.storageclass.storage.k8s.io/requests.storage": "40Gi"},
        )
    ]
    report = judge(
        [demand("chat", caches=[cache])],
        cluster([node("a")], quotas=quotas, storage_classes=[storage_class("fast", default=True)]),
    )
    assert verdict(report, "chat") == (
        DOES_NOT_FIT,
        "does not fit: storage quota fast.storageclass.storage.k8s.io/requests.storage of namespace team "
        "exceeded by 20Gi (ResourceQuota storage: hard 120Gi, used by others 40Gi, the program's caches "
        "ask 100Gi)",
    )


def test_the_artifact_storage_annotation_counts_other_caches_not_the_programs_own() -> None:
    cache = CacheDemand("team", "cache-a", None, 60 * GI_MILLI, shared=False)
    claims = [
        claim("cache-a", "team", "60Gi", labels={"aim.eai.amd.com/cache-mode": "dedicated"}),
        claim("someone-elses", "team", "50Gi", labels={"aim.eai.amd.com/artifact": "x"}),
        claim("not-a-cache", "team", "500Gi"),
    ]
    report = judge(
        [demand("chat", caches=[cache])],
        cluster([node("a")], namespaces=[namespace("team", "100Gi")], claims=claims),
    )
    assert verdict(report, "chat") == (
        DOES_NOT_FIT,
        "does not fit: artifact storage quota of namespace team exceeded by 10Gi (annotation "
        "aim.eai.amd.com/artifact-storage-quota: 100Gi, other caches 50Gi, the program's caches ask 60Gi)",
    )


def test_a_shared_cache_is_counted_once() -> None:
    shared = CacheDemand("team", "shared", None, 60 * GI_MILLI, shared=True)
    report = judge(
        [demand("a", caches=[shared]), demand("b", caches=[shared])],
        cluster([node("n")], quotas=[quota("s", "team", {"requests.storage": "100Gi"})]),
    )
    assert [f.verdict for f in report.services] == [FITS_AT_MAX, FITS_AT_MAX]
    assert [(r.namespace, r.claims, r.demand) for r in report.storage] == [("team", 1, 60 * GI_MILLI)]


# ------------------------------------------------------------------------------------- without source


def test_nothing_to_judge_against_is_said() -> None:
    report = not_checked([demand("chat")], "nothing", "no kubeconfig")
    assert (report.checked, report.services[0].verdict, report.services[0].message) == (
        False,
        NOT_CHECKED,
        "not checked: no kubeconfig",
    )


# ------------------------------------------------------------------------------------------ properties

node_free = st.lists(st.integers(min_value=0, max_value=16), min_size=1, max_size=8)
service_shapes = st.lists(
    st.tuples(st.integers(1, 8), st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=6
)


def _program(
    frees: Sequence[int], shapes: Sequence[tuple[int, int, int]]
) -> tuple[ClusterCapacity, list[ServiceDemand]]:
    nodes = [node(f"n{i:02}", 16) for i in range(len(frees))]
    pods = [pod(f"busy-{i}", f"n{i:02}", {GPU: str(16 - free)}) for i, free in enumerate(frees) if free < 16]
    demands = [demand(f"s{i}", gpus, low, low + extra) for i, (gpus, low, extra) in enumerate(shapes)]
    return cluster(nodes, pods=pods), demands


@given(node_free, service_shapes)
def test_a_fit_never_claims_more_gpus_of_a_node_than_it_has_free(
    frees: list[int], shapes: list[tuple[int, int, int]]
) -> None:
    capacity, demands = _program(frees, shapes)
    report = judge(demands, capacity)
    placed = gpus_placed(report, demands)
    for index, free in enumerate(frees):
        assert placed.get(f"n{index:02}", 0) <= free
    for fit, d in zip(report.services, sorted(demands, key=lambda d: d.key), strict=True):
        assert sum(count for _, count in fit.placements) == fit.schedulable or fit.verdict == DOES_NOT_FIT
        assert fit.schedulable <= d.max_replicas
        if fit.verdict == FITS_AT_MAX:
            assert fit.schedulable == d.max_replicas
        elif fit.verdict == FITS_AT_MIN_ONLY:
            assert d.min_replicas <= fit.schedulable < d.max_replicas
        else:
            assert fit.verdict == DOES_NOT_FIT and fit.reason


@given(node_free, st.integers(1, 8), st.integers(0, 12))
def test_one_service_fits_exactly_when_its_replicas_fit_whole_on_nodes(
    frees: list[int], gpus: int, replicas: int
) -> None:
    """Identical replicas: first-fit is exact, so the hand count is the oracle."""
    capacity, demands = _program(frees, [(gpus, replicas, 0)])
    room = sum(free // gpus for free in frees)
    fit = judge(demands, capacity).services[0]
    assert (fit.verdict == FITS_AT_MAX) == (room >= replicas)


@given(node_free, service_shapes, st.randoms(use_true_random=False))
def test_the_verdicts_do_not_depend_on_the_order_things_are_listed(
    frees: list[int], shapes: list[tuple[int, int, int]], shuffler: random.Random
) -> None:
    nodes = [node(f"n{i:02}", 16) for i in range(len(frees))]
    pods = [pod(f"busy-{i}", f"n{i:02}", {GPU: str(16 - free)}) for i, free in enumerate(frees)]
    demands = [demand(f"s{i}", gpus, low, low + extra) for i, (gpus, low, extra) in enumerate(shapes)]
    first = judge(demands, cluster(nodes, pods=pods))
    for listed in (nodes, pods, demands):
        shuffler.shuffle(listed)
    assert judge(demands, cluster(nodes, pods=pods)) == first
