"""A planned service's demand, its monthly cost, and the words, tables and status built from them."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from demands import cluster, demand
from k8s_objects import node

from aim_pulumi.api import parse
from aim_pulumi.resolve import Catalog, Settings, plan_service
from aim_pulumi.resolve.capacity.cluster import MILLI
from aim_pulumi.resolve.capacity.cost import cost_change_lines, cost_report
from aim_pulumi.resolve.capacity.demand import GI_MILLI, service_demand
from aim_pulumi.resolve.capacity.fit import judge
from aim_pulumi.resolve.capacity.report import capacity_document, capacity_lines, cost_lines, service_status
from aim_pulumi.resolve.catalog.inventory import Inventory

GI = 1024**3


def _obj(kind: str, name: str, spec: dict[str, Any], **meta: Any) -> Any:
    version = "v1alpha2"
    return parse(
        {
            "apiVersion": f"aim.eai.amd.com/{version}",
            "kind": kind,
            "metadata": {"name": name, "namespace": "team", **meta},
            "spec": spec,
        }
    )


def test_the_demand_of_a_planned_service() -> None:
    profile = _obj(
        "AIMProfile",
        "big",
        {
            "aimId": "qwen/qwen3-32b",
            "image": "amdenterpriseai/aim-qwen-qwen3-32b:0.8.5",
            "acceleratorVendor": "amd",
            "acceleratorType": "gpu",
            "acceleratorModel": "MI300X",
            "acceleratorCount": 4,
            "resources": {"requests": {"cpu": "16", "memory": "128Gi"}, "limits": {"memory": "256Gi"}},
            "modelSources": [
                {"modelId": "Qwen/Qwen3-32B", "sourceUri": "hf://Qwen/Qwen3-32B", "size": "60Gi"}
            ],
        },
    )
    service = _obj(
        "AIMService",
        "chat",
        {
            "profile": {"name": "big"},
            "caching": {"mode": "Dedicated"},
            "storage": {"defaultStorageClassName": "fast"},
            "replicas": 2,
        },
    )
    plan = plan_service(service, Catalog([profile]), Settings())
    demand_ = service_demand(plan)
    assert (demand_.model, demand_.gpu_resource, demand_.gpus) == ("MI300X", "amd.com/gpu", 4)
    assert demand_.requests == {
        "amd.com/gpu": 4 * MILLI,
        "cpu": 16 * MILLI,
        "memory": 128 * GI * MILLI,
        "pods": MILLI,
    }
    assert demand_.limits == {"amd.com/gpu": 4 * MILLI, "memory": 256 * GI * MILLI}
    assert (demand_.min_replicas, demand_.max_replicas, demand_.isvc_name) == (2, 2, plan.isvc_name)
    (cache,) = demand_.caches
    assert (cache.storage_class, cache.size, cache.shared) == (
        "fast",
        plan.caches[0].size_gi * GI_MILLI,
        False,
    )
    assert demand_.job_names == (plan.caches[0].job_name,)


def test_prices_by_model_pool_resource_then_any() -> None:
    pools = Inventory.from_config([{"model": "MI325X", "devices": 8, "nodes": 1, "name": "big-iron"}]).pools
    demands = [
        demand("a", gpus=2, replicas=1, max_replicas=3),
        demand("b", gpus=8, model="MI325X"),
        demand("c", gpus=1, model="MI210"),
        demand("d", gpus=1, model="H100", resource="nvidia.com/gpu"),
        demand("e", gpus=0),
    ]
    prices = {"mi300x": Decimal("2.50"), "big-iron": Decimal(4), "amd.com/gpu": Decimal(1), "*": Decimal(3)}
    cost = cost_report(demands, prices, pools)
    figures = {c.name: (c.price_key, c.monthly_min, c.monthly_max) for c in cost.services}
    assert figures == {
        "a": ("mi300x", Decimal("3650.00"), Decimal("10950.00")),  # 2.50 x 2 GPUs x 730 h x 1 / 3
        "b": ("big-iron", Decimal("23360.00"), Decimal("23360.00")),  # 4 x 8 x 730
        "c": ("amd.com/gpu", Decimal("730.00"), Decimal("730.00")),
        "d": ("*", Decimal("2190.00"), Decimal("2190.00")),
    }
    assert (cost.total_min, cost.total_max) == (Decimal("29930.00"), Decimal("37230.00"))
    unpriced = cost_report(demands[:1], {"H100": Decimal(9)})
    assert unpriced.unpriced == ("team/a",) and unpriced.total_max == 0


def test_the_cost_change_of_a_change() -> None:
    before = cost_report([demand("a", gpus=2, replicas=1, max_replicas=2)], {"*": Decimal(1)}).document()
    after = cost_report([demand("a", gpus=2, replicas=1, max_replicas=4)], {"*": Decimal(1)}).document()
    assert cost_change_lines(before, after) == [
        "monthly GPU cost at maximum replicas: 2,920.00 -> 5,840.00 (+2,920.00)",
        "  AIMService team/a at maximum: 2,920.00 -> 5,840.00 (+2,920.00)",
    ]
    assert cost_change_lines(after, after) == []
    assert cost_change_lines(None, before)[0] == "monthly GPU cost at minimum replicas: none -> 1,460.00"


def test_the_table_the_status_and_the_output_say_the_same() -> None:
    demands = [demand("chat", gpus=4, replicas=1, max_replicas=4)]
    report = judge(demands, cluster([node("a"), node("b", gpus=4)]))
    cost = cost_report(demands, {"MI300X": Decimal(2)})
    assert capacity_lines(report) == [
        "Capacity (test cluster):",
        "  pool       resource     nodes  allocatable  used by others  min  max  headroom at max",
        "  MI300X     amd.com/gpu    2/2           12               0    4   16               -4",
        "  all nodes  cpu            2/2          256               0    0    0              256",
        "  all nodes  memory         2/2          2Ti               0    0    0              2Ti",
        "",
        "  AIMService/team/chat: fits at its minimum of 1, not at its maximum of 4 replicas: autoscaling "
        "will be capped at 3: no node with 4 free MI300X GPUs (amd.com/gpu): the most free on one node "
        "is 0, 0 free on 2 MI300X nodes in all",
    ]
    assert cost_lines(cost) == [
        "Monthly GPU cost (aim:gpuHourPrice, 730 hours a month):",
        "  AIMService team/chat: 4 GPU(s) a replica at 2 (MI300X) a GPU-hour: 5,840.00 at minimum, "
        "23,360.00 at maximum",
        "  total: 5,840.00 at minimum, 23,360.00 at maximum",
    ]
    status = service_status(report.services[0], cost, ("team", "chat"))
    assert status == {
        "verdict": "FitsAtMinOnly",
        "message": report.services[0].message,
        "minReplicas": 1,
        "maxReplicas": 4,
        "schedulableReplicas": 3,
        "monthlyCost": {"atMin": 5840.0, "atMax": 23360.0},
    }
    document = capacity_document(report, cost)
    assert document["services"] == {
        "team/chat": {
            "verdict": "FitsAtMinOnly",
            "message": report.services[0].message,
            "schedulableReplicas": 3,
        }
    }
    assert document["table"] == capacity_lines(report)
    assert document["cost"]["totalMonthlyAtMax"] == 23360.0
    assert document["pools"][0]["headroomAtMax"] == "-4"
