"""The accelerators a target cluster offers, declared in stack config because no node detector runs.

Profile availability, fallback generation and the template pipeline all ask the same question (does
some pool offer this hardware?), so the matching rule lives here once.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class InventoryPool(BaseModel):
    """One class of accelerator nodes the target cluster offers; `devices` is the per-node count.

    `nodes` (how many nodes the pool has) and `name` (what `aim:gpuHourPrice` may price it as) are
    optional: availability needs neither; the capacity check judges only an inventory whose every
    pool says how many nodes it has (`aim_pulumi/resolve/capacity/cluster.py`).
    """

    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True)

    vendor: str = ""
    type: str = ""
    model: str = ""
    partitioning_mode: str = Field(default="", alias="partitioningMode")
    devices: int = Field(default=0, ge=0)
    nodes: int | None = Field(default=None, ge=0)
    name: str = ""


_POOLS = TypeAdapter(list[InventoryPool])


def _partitioning(value: str) -> str:
    lowered = value.strip().lower()
    return "" if lowered == "unpartitioned" else lowered


@dataclass(frozen=True)
class Inventory:
    """The accelerators a cluster has, declared because no node detector runs at deploy time.

    Matching (chosen): `cpu` always matches; vendor, type and model compare case-insensitively and
    only when both the pool and the request set them; partitioning modes compare case-insensitively
    with `unpartitioned` equal to unset; the pool must offer at least the requested device count.
    """

    pools: tuple[InventoryPool, ...] = ()

    @classmethod
    def from_config(cls, config: str | Sequence[Mapping[str, Any]]) -> Inventory:
        """Build from the `aim:inventory` stack value (a JSON list) or the already decoded list."""
        data = json.loads(config) if isinstance(config, str) else list(config)
        return cls(tuple(_POOLS.validate_python(data)))

    def has(
        self,
        vendor: str | None,
        type: str | None,
        model: str | None,
        partitioning_mode: str | None,
        count: int | None,
    ) -> bool:
        want_type = (type or "").lower()
        if want_type == "cpu":
            return True
        want_vendor, want_model = (vendor or "").lower(), (model or "").lower()
        want_mode, want_count = _partitioning(partitioning_mode or ""), count or 0
        for pool in self.pools:
            if want_type and pool.type and pool.type.lower() != want_type:
                continue
            if want_vendor and pool.vendor and pool.vendor.lower() != want_vendor:
                continue
            if want_model and pool.model and pool.model.lower() != want_model:
                continue
            if _partitioning(pool.partitioning_mode) != want_mode:
                continue
            if pool.devices < want_count:
                continue
            return True
        return False
