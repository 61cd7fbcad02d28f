"""The capacity check of one program run: read once, judged with the round, said where users look.

The round (`program.py`) calls in three places:

1. `before_planning`, before any catalog status or service is planned: the cluster is read once per
   run (`capacity_read.py`), or `aim:inventory` stands in; when the nodes say which accelerators
   they have, the catalog's availability is read from them (`accelerators.NodeInventory`), so
   selection prefers what the operator would mark available on this cluster;
2. `gate`, once every service has planned and before any binding or child registers: under
   `aim:capacity: enforce` a service that does not fit fails the program, naming each one;
3. `settle`, once the bindings decided the plans to deploy and before any child registers: the
   verdicts are judged again on those plans (a binding may keep an earlier profile), enforced
   again, and said: a warning on each service that does not fit (or whose autoscaling is capped),
   `status.capacity` of each service, and the stack output `aimCapacity` (the tables, the verdicts,
   the monthly cost of `aim:gpuHourPrice`).

The component provider runs one round per Construct call; each judges the services constructed so
far in the deployment together, as one program, and a stack output is not its to export.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pulumi
from pulumi.runtime import mocks as pulumi_mocks
from pulumi.runtime import settings as pulumi_settings

from aim_pulumi.resolve.capacity.accelerators import NodeInventory, tells_accelerators
from aim_pulumi.resolve.capacity.cluster import ClusterCapacity, capacity_from_inventory
from aim_pulumi.resolve.capacity.cost import CostReport, cost_report
from aim_pulumi.resolve.capacity.demand import ServiceDemand, service_demand
from aim_pulumi.resolve.capacity.fit import DOES_NOT_FIT, FITS_AT_MIN_ONLY, CapacityReport, judge, not_checked
from aim_pulumi.resolve.capacity.report import capacity_document, service_status
from aim_pulumi.resolve.catalog.inventory import Inventory
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resolve.settings import Settings
from aim_pulumi.resources.capacity_read import (
    CapacityReadError,
    ClusterAccess,
    NoCluster,
    default_access,
    read_capacity,
)
from aim_pulumi.resources.round_member import Deferred, Judged

__all__ = ["OUTPUT_NAME", "CapacityCheck"]

OUTPUT_NAME = "aimCapacity"
DOES_NOT_FIT_REASON = "CapacityExceeded"
CAPPED_REASON = "CapacityCapsAutoscaling"
_PREFIX = "aim:capacity"


@dataclass
class CapacityCheck:
    """The capacity of one run, read at most once, and the latest judgement of its services.

    `access` is set by a caller that names the cluster itself (`aim-pulumi plan --kubeconfig`);
    otherwise the cluster is the default provider's (`capacity_read.default_access`).
    """

    settings: Settings
    access: ClusterAccess | None = None
    capacity: ClusterCapacity | None = None
    why_not: str = ""
    report: CapacityReport | None = None
    cost: CostReport | None = None
    read: bool = False
    # Demands judged in earlier rounds (the component provider's earlier Construct calls).
    earlier: dict[tuple[str, str], ServiceDemand] = field(default_factory=dict)
    output: Deferred | None = None

    @property
    def enabled(self) -> bool:
        return self.settings.capacity != "off"

    @property
    def enforced(self) -> bool:
        return self.settings.capacity == "enforce"

    # ------------------------------------------------------------------ 1. before planning

    def before_planning(self, catalog: Catalog, explicit_providers: bool) -> None:
        """Read the cluster (or the inventory) once, and let its nodes decide availability."""
        if self.read or not self.enabled:
            return
        self.read = True
        access = self._access(explicit_providers)
        if isinstance(access, NoCluster):
            self.capacity = self._from_inventory()
            self.why_not = access.reason
            return
        try:
            capacity = read_capacity(access, self.settings.capacity_timeout_seconds)
        except CapacityReadError as error:
            if self.enforced:
                raise AIMResolutionError(
                    _PREFIX,
                    "CapacityUnknown",
                    f"the cluster's capacity could not be read, and aim:capacity is enforce: {error}",
                ) from None
            pulumi.log.warn(f"{_PREFIX}: capacity not checked against the cluster: {error}")
            self.capacity = self._from_inventory()
            self.why_not = f"the cluster could not be read: {error}"
            return
        self.capacity = capacity
        counts = [
            f"{len(capacity.nodes)} nodes",
            f"{len(capacity.pods)} bound pods" if capacity.pods is not None else "",
            f"{len(capacity.quotas)} resource quotas" if capacity.quotas is not None else "",
        ]
        pulumi.log.info(f"{_PREFIX}: read {capacity.source}: " + ", ".join(c for c in counts if c))
        for what in capacity.unread:
            pulumi.log.warn(f"{_PREFIX}: could not list {what}; the checks that need it are skipped")
        if tells_accelerators(capacity.nodes):
            catalog.use_inventory(NodeInventory.of(capacity.nodes))

    def _access(self, explicit_providers: bool) -> ClusterAccess | NoCluster:
        if self.access is not None:
            return self.access
        if _under_mocks():
            # A unit test or `aim-pulumi plan`: offline, whatever the stack config names.
            return NoCluster(
                "no cluster is read under the SDK's mocks (aim-pulumi plan --kubeconfig reads one)"
            )
        if self.settings.capacity_kubeconfig:
            return ClusterAccess(self.settings.capacity_kubeconfig, None, "aim:capacityKubeconfig")
        if explicit_providers:
            return NoCluster(
                "a service deploys through an explicit Kubernetes provider, whose kubeconfig the program "
                "cannot read: set aim:capacityKubeconfig to it"
            )
        return default_access(_kubernetes_config(), os.environ, Path.home())

    def live_access(self, explicit_providers: bool) -> ClusterAccess | NoCluster:
        """The cluster the program's other reads ask (`live_services.py`): this check's, whatever
        `aim:capacity` says, and never under the SDK's mocks, not even with `plan --kubeconfig`."""
        if _under_mocks():
            return NoCluster("no cluster is read under the SDK's mocks")
        return self._access(explicit_providers)

    def _from_inventory(self) -> ClusterCapacity | None:
        if self.settings.inventory is None:
            return None
        pools = Inventory.from_config(list(self.settings.inventory)).pools
        return capacity_from_inventory(pools)

    # ------------------------------------------------------------------ 2. and 3. judging

    def _judge(self, services: Sequence[Judged]) -> CapacityReport | None:
        demands = dict(self.earlier)
        for service in services:
            demand = service_demand(service.plan)
            demands[demand.key] = demand
        everything = list(demands.values())
        if self.settings.gpu_hour_price:
            pools = (
                Inventory.from_config(list(self.settings.inventory)).pools if self.settings.inventory else ()
            )
            self.cost = cost_report(everything, dict(self.settings.gpu_hour_price), pools)
        if not self.enabled:
            return None
        if self.capacity is None:
            why = self.why_not or "no capacity source"
            if self.settings.inventory is not None:
                why += "; aim:inventory does not say how many nodes each pool has (nodes)"
            return not_checked(everything, "nothing", why)
        return judge(everything, self.capacity)

    def _failures(
        self, report: CapacityReport, services: Sequence[Judged]
    ) -> list[tuple[Judged, AIMResolutionError]]:
        failures: list[tuple[Judged, AIMResolutionError]] = []
        for service in services:
            plan = service.plan
            fit = report.fit_of(plan.namespace, plan.name)
            if fit is not None and fit.verdict == DOES_NOT_FIT:
                error = AIMResolutionError(
                    "",
                    DOES_NOT_FIT_REASON,
                    f"{fit.message} (aim:capacity is enforce; nothing was registered)",
                    object_ref=service.ref,
                )
                failures.append((service, error))
        return failures

    def gate(self, services: Sequence[Judged]) -> list[tuple[Judged, AIMResolutionError]]:
        """Under `enforce`: what fails, per service that does not fit its first plan; else nothing."""
        if not self.enforced:
            return []
        report = self._judge(services)
        return self._failures(report, services) if report is not None else []

    def settle(
        self, services: Sequence[Judged]
    ) -> tuple[dict[tuple[str, str], dict[str, Any]], list[tuple[Judged, AIMResolutionError]]]:
        """Judge the plans to deploy: each service's `status.capacity`, and under `enforce` what fails.

        Without failures, each service that does not fit (or whose autoscaling will be capped) gets
        a warning, and the stack output is resolved.
        """
        report = self._judge(services)
        self.report = report
        if report is not None and self.enforced:
            failures = self._failures(report, services)
            if failures:
                return {}, failures
        statuses: dict[tuple[str, str], dict[str, Any]] = {}
        for service in services:
            plan = service.plan
            key = (plan.namespace, plan.name)
            fit = report.fit_of(*key) if report is not None and report.checked else None
            if fit is not None and service.owner is not None:
                if fit.verdict == DOES_NOT_FIT:
                    pulumi.log.warn(f"{DOES_NOT_FIT_REASON}: {fit.message}", resource=service.owner)
                elif fit.verdict == FITS_AT_MIN_ONLY:
                    pulumi.log.warn(f"{CAPPED_REASON}: {fit.message}", resource=service.owner)
            status = service_status(fit, self.cost, key)
            if status:
                statuses[key] = status
            self.earlier[key] = service_demand(plan)
        if self.output is not None:
            self.output.resolve(self.document())
        return statuses, []

    # ------------------------------------------------------------------ the stack output

    def document(self) -> dict[str, Any]:
        return capacity_document(self.report, self.cost)

    def _wants_output(self) -> bool:
        """Whether the run has something to say: prices, or a source it will judge against.

        Decided before the cluster is read (no request is made here), since the stack's outputs
        close when the program body ends; a read that then fails says so in the output's notes.
        """
        if self.settings.gpu_hour_price:
            return True
        if not self.enabled:
            return False
        if self._from_inventory() is not None:
            return True
        return not isinstance(self._access(explicit_providers=False), NoCluster)

    def export(self, in_component_provider: bool) -> None:
        """Export `aimCapacity` once per run, when there is something to say (a source or prices).

        The component provider serves another program's components: that program's stack outputs
        are not the provider's to add to.
        """
        if self.output is not None or in_component_provider or not self._wants_output():
            return
        self.output = Deferred()
        try:
            pulumi.export(OUTPUT_NAME, self.output.output)
        except Exception:  # no root stack (a unit test's mocks): nothing to export to
            self.output.resolve(None)

    def unknown(self, output: pulumi.Output[Any]) -> None:
        """A preview that cannot know where a catalog object lives: nothing is judged, as nothing plans."""
        if self.output is not None:
            self.output.resolve(output.apply(lambda _: {}))

    def fail(self, error: BaseException) -> None:
        if self.output is not None:
            self.output.fail(error)


def _under_mocks() -> bool:
    """A run under the SDK's mock monitor (unit tests, `aim-pulumi plan`): no engine, no cluster."""
    return isinstance(pulumi_settings.get_monitor(), pulumi_mocks.MockMonitor)


def _kubernetes_config() -> Mapping[str, str | None]:
    config = pulumi.Config("kubernetes")
    return {key: config.get(key) for key in ("kubeconfig", "context", "renderYamlToDirectory")}
