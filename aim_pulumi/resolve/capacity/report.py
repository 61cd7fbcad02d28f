"""The capacity judgement in the words and shapes users read: tables, status, the stack output.

`capacity_lines` is what `aim-pulumi plan --capacity` prints, `capacity_document` what the stack
output `aimCapacity` (and the plan's JSON) holds, `service_status` what an AIMService's
`status.capacity` says. All three are built from one `CapacityReport` and `CostReport`, so they
never disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from aim_pulumi.resolve.capacity.cluster import show_amount
from aim_pulumi.resolve.capacity.cost import HOURS_PER_MONTH, CostReport, money
from aim_pulumi.resolve.capacity.fit import CapacityReport, ServiceFit

__all__ = ["capacity_document", "capacity_lines", "cost_lines", "service_status", "table"]


def table(header: Sequence[str], rows: Sequence[Sequence[str]], indent: str = "  ") -> list[str]:
    """Columns padded to their widest cell; numbers are right-aligned."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows, strict=True)]

    def line(cells: Sequence[str], numeric: bool) -> str:
        out = []
        for index, (cell, width) in enumerate(zip(cells, widths, strict=True)):
            right = numeric and index >= 2 and _number_like(cell)
            out.append(cell.rjust(width) if right else cell.ljust(width))
        return (indent + "  ".join(out)).rstrip()

    return [line(header, False), *(line(row, True) for row in rows)]


def _number_like(cell: str) -> bool:
    return bool(cell) and (cell[0].isdigit() or cell[0] == "-")


def capacity_lines(report: CapacityReport) -> list[str]:
    """The tables (accelerator pools, quotas, cache storage) and one verdict line per service."""
    lines = [f"Capacity ({report.source}):"]
    if report.pools:
        rows = [
            [
                row.pool,
                row.resource,
                f"{row.usable_nodes}/{row.nodes}",
                show_amount(row.resource, row.allocatable),
                show_amount(row.resource, row.used_by_others),
                show_amount(row.resource, row.demand_min),
                show_amount(row.resource, row.demand_max),
                show_amount(row.resource, row.headroom_max),
            ]
            for row in report.pools
        ]
        lines += table(
            ["pool", "resource", "nodes", "allocatable", "used by others", "min", "max", "headroom at max"],
            rows,
        )
    if report.quotas:
        lines.append("")
        rows = [
            [
                f"{row.namespace}/{row.quota}",
                row.resource,
                show_amount(row.resource, row.hard),
                show_amount(row.resource, row.used_by_others),
                show_amount(row.resource, row.demand_min),
                show_amount(row.resource, row.demand_max),
                show_amount(row.resource, row.headroom_max),
            ]
            for row in report.quotas
        ]
        lines += table(["quota", "resource", "hard", "used by others", "min", "max", "headroom at max"], rows)
    if report.storage:
        lines.append("")
        rows = [
            [
                row.namespace,
                row.storage_class or "(default)",
                str(row.claims),
                show_amount("storage", row.demand),
            ]
            for row in report.storage
        ]
        lines += table(["namespace", "storage class", "cache PVCs", "size"], rows)
    if report.services:
        lines.append("")
        lines += [f"  {fit.ref}: {fit.message}" for fit in report.services]
    lines += [f"  note: {note}" for note in report.notes]
    return lines


def cost_lines(cost: CostReport) -> list[str]:
    """Monthly cost per service and in total, at minimum and maximum replicas."""
    lines = [f"Monthly GPU cost (aim:gpuHourPrice, {int(HOURS_PER_MONTH)} hours a month):"]
    for service in cost.services:
        if service.price is None:
            lines.append(f"  AIMService {service.key}: {service.gpus} GPU(s) a replica, no price for them")
            continue
        lines.append(
            f"  AIMService {service.key}: {service.gpus} GPU(s) a replica at {service.price} "
            f"({service.price_key}) a GPU-hour: {money(service.monthly_min)} at minimum, "
            f"{money(service.monthly_max)} at maximum"
        )
    lines.append(f"  total: {money(cost.total_min)} at minimum, {money(cost.total_max)} at maximum")
    return lines


def service_status(fit: ServiceFit | None, cost: CostReport | None, key: tuple[str, str]) -> dict[str, Any]:
    """`status.capacity` of one service: the verdict, its reason, replicas that fit, monthly cost."""
    status: dict[str, Any] = {}
    if fit is not None:
        status.update(
            {
                "verdict": fit.verdict,
                "message": fit.message,
                "minReplicas": fit.min_replicas,
                "maxReplicas": fit.max_replicas,
                "schedulableReplicas": fit.schedulable,
            }
        )
    if cost is not None:
        found = next((c for c in cost.services if (c.namespace, c.name) == key), None)
        if found is not None and found.price is not None:
            status["monthlyCost"] = {
                "atMin": float(found.monthly_min),
                "atMax": float(found.monthly_max),
            }
    return status


def capacity_document(report: CapacityReport | None, cost: CostReport | None) -> dict[str, Any]:
    """The stack output `aimCapacity`: the tables as data, the verdicts, the cost, and the text."""
    document: dict[str, Any] = {}
    if report is not None and not report.checked:
        document.update({"source": report.source, "checked": False, "notes": list(report.notes)})
    elif report is not None:
        document.update(
            {
                "source": report.source,
                "checked": report.checked,
                "pools": [
                    {
                        "pool": r.pool,
                        "resource": r.resource,
                        "nodes": r.nodes,
                        "usableNodes": r.usable_nodes,
                        "allocatable": show_amount(r.resource, r.allocatable),
                        "usedByOthers": show_amount(r.resource, r.used_by_others),
                        "demandAtMin": show_amount(r.resource, r.demand_min),
                        "demandAtMax": show_amount(r.resource, r.demand_max),
                        "headroomAtMax": show_amount(r.resource, r.headroom_max),
                    }
                    for r in report.pools
                ],
                "quotas": [
                    {
                        "namespace": r.namespace,
                        "quota": r.quota,
                        "resource": r.resource,
                        "hard": show_amount(r.resource, r.hard),
                        "usedByOthers": show_amount(r.resource, r.used_by_others),
                        "demandAtMin": show_amount(r.resource, r.demand_min),
                        "demandAtMax": show_amount(r.resource, r.demand_max),
                        "headroomAtMax": show_amount(r.resource, r.headroom_max),
                    }
                    for r in report.quotas
                ],
                "services": {
                    f"{fit.namespace}/{fit.name}": {
                        "verdict": fit.verdict,
                        "message": fit.message,
                        "schedulableReplicas": fit.schedulable,
                    }
                    for fit in report.services
                },
                "notes": list(report.notes),
                "table": capacity_lines(report),
            }
        )
    if cost is not None:
        document["cost"] = cost.document()
    return document
