"""What the program's GPUs cost a month, at each service's minimum and maximum replicas.

`aim:gpuHourPrice` maps a price per GPU-hour to an accelerator model (`MI300X`, compared without
case), an `aim:inventory` pool's `name`, a GPU resource (`amd.com/gpu`: every GPU of that vendor
not priced by model), or `*` (every GPU). A service's price is the first of those that is set, in
that order. A month is 730 hours (8,760 a year over 12). Amounts are Decimals rounded to cents, so
the same program and prices always give the same figures; a service without GPUs costs nothing here
(CPU and memory are not priced), one whose GPUs no key prices is listed as unpriced.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from aim_pulumi.resolve.capacity.demand import ServiceDemand
from aim_pulumi.resolve.catalog.inventory import InventoryPool

__all__ = ["HOURS_PER_MONTH", "CostReport", "ServiceCost", "cost_change_lines", "cost_report", "money"]

HOURS_PER_MONTH = Decimal(730)
ANY = "*"
_CENT = Decimal("0.01")


def money(value: Decimal) -> str:
    """A monthly amount as the plan prints it: `1,460.00`."""
    return f"{value.quantize(_CENT, rounding=ROUND_HALF_UP):,.2f}"


@dataclass(frozen=True)
class ServiceCost:
    namespace: str
    name: str
    gpus: int
    price_key: str | None
    price: Decimal | None
    monthly_min: Decimal
    monthly_max: Decimal

    @property
    def key(self) -> str:
        return f"{self.namespace}/{self.name}"


@dataclass(frozen=True)
class CostReport:
    services: tuple[ServiceCost, ...]
    total_min: Decimal
    total_max: Decimal
    unpriced: tuple[str, ...]

    def document(self) -> dict[str, object]:
        """The figures as plain data (stack output, plan JSON, status): amounts as numbers in cents."""
        return {
            "hoursPerMonth": int(HOURS_PER_MONTH),
            "services": {
                c.key: {
                    "gpus": c.gpus,
                    "pricePerGpuHour": None if c.price is None else float(c.price),
                    "priceKey": c.price_key,
                    "monthlyAtMin": _number(c.monthly_min),
                    "monthlyAtMax": _number(c.monthly_max),
                }
                for c in self.services
            },
            "totalMonthlyAtMin": _number(self.total_min),
            "totalMonthlyAtMax": _number(self.total_max),
            "unpriced": list(self.unpriced),
        }


def _number(value: Decimal) -> float:
    return float(value.quantize(_CENT, rounding=ROUND_HALF_UP))


def _price(
    demand: ServiceDemand, prices: Mapping[str, Decimal], pools: Sequence[InventoryPool]
) -> tuple[str, Decimal] | None:
    by_lower = {key.lower(): (key, price) for key, price in prices.items()}
    candidates = [demand.model] if demand.model else []
    candidates += [
        pool.name
        for pool in pools
        if pool.name and demand.model and pool.model.lower() == demand.model.lower()
    ]
    candidates += [demand.gpu_resource or "", ANY]
    for candidate in candidates:
        found = by_lower.get(candidate.lower()) if candidate else None
        if found is not None:
            return found
    return None


def cost_report(
    demands: Sequence[ServiceDemand], prices: Mapping[str, Decimal], pools: Sequence[InventoryPool] = ()
) -> CostReport:
    """The monthly cost of every service with GPUs, and the program's total, at min and max replicas."""
    services: list[ServiceCost] = []
    unpriced: list[str] = []
    for demand in sorted(demands, key=lambda d: d.key):
        if demand.gpus <= 0:
            continue
        found = _price(demand, prices, pools)
        if found is None:
            unpriced.append(f"{demand.namespace}/{demand.name}")
            services.append(
                ServiceCost(demand.namespace, demand.name, demand.gpus, None, None, Decimal(0), Decimal(0))
            )
            continue
        key, price = found
        per_replica = price * demand.gpus * HOURS_PER_MONTH
        services.append(
            ServiceCost(
                demand.namespace,
                demand.name,
                demand.gpus,
                key,
                price,
                (per_replica * demand.min_replicas).quantize(_CENT, rounding=ROUND_HALF_UP),
                (per_replica * demand.max_replicas).quantize(_CENT, rounding=ROUND_HALF_UP),
            )
        )
    return CostReport(
        tuple(services),
        sum((c.monthly_min for c in services), Decimal(0)),
        sum((c.monthly_max for c in services), Decimal(0)),
        tuple(unpriced),
    )


def _amount(value: object) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        return Decimal(str(value))
    except ArithmeticError:
        return None


def _change(label: str, old: Decimal | None, new: Decimal | None) -> str | None:
    if old == new:
        return None
    before = money(old) if old is not None else "none"
    after = money(new) if new is not None else "none"
    delta = ""
    if old is not None and new is not None:
        difference = new - old
        delta = f" ({'+' if difference >= 0 else '-'}{money(abs(difference))})"
    return f"{label}: {before} -> {after}{delta}"


def cost_change_lines(old: Mapping[str, object] | None, new: Mapping[str, object] | None) -> list[str]:
    """How a change moves the monthly cost: the total and each service whose figure changed.

    `old` and `new` are `CostReport.document()`s as two plans recorded them (None: not priced then).
    """
    if not old and not new:
        return []
    old, new = old or {}, new or {}
    lines: list[str] = []
    for field, words in (
        ("totalMonthlyAtMin", "at minimum replicas"),
        ("totalMonthlyAtMax", "at maximum replicas"),
    ):
        line = _change(f"monthly GPU cost {words}", _amount(old.get(field)), _amount(new.get(field)))
        if line:
            lines.append(line)
    old_services = old.get("services") if isinstance(old.get("services"), Mapping) else {}
    new_services = new.get("services") if isinstance(new.get("services"), Mapping) else {}
    assert isinstance(old_services, Mapping) and isinstance(new_services, Mapping)
    for key in sorted(set(old_services) | set(new_services)):
        before = old_services.get(key) or {}
        after = new_services.get(key) or {}
        for field, words in (("monthlyAtMin", "at minimum"), ("monthlyAtMax", "at maximum")):
            old_value = _amount(before.get(field)) if isinstance(before, Mapping) else None
            new_value = _amount(after.get(field)) if isinstance(after, Mapping) else None
            line = _change(f"  AIMService {key} {words}", old_value, new_value)
            if line:
                lines.append(line)
    return lines
