"""Every planning of an AIMService in a run, for the tools that explain a run (`plan`, `explain`).

The components keep their typed objects to themselves; observers registered here see each
planning, failed ones included, without the components knowing who listens.
"""

import contextlib
import dataclasses
from collections.abc import Callable, Iterator
from typing import Any

from aim_pulumi import api
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.plan.result import ServicePlan
from aim_pulumi.resolve.plan.service import plan_service
from aim_pulumi.resolve.settings import Settings

__all__ = ["Resolution", "observe_resolutions", "observed_plan"]


@dataclasses.dataclass(frozen=True)
class Resolution:
    """One planning of an AIMService during a run, as tools that explain a run need it.

    The component keeps its typed service and catalog to itself; the offline `plan` summary and
    `explain` need both, including for a service whose planning failed (`plan` is None and
    `error` says why). Secret values appear here only as placeholders.
    """

    service: api.AIMServiceObject
    catalog: Catalog
    settings: Settings
    plan: ServicePlan | None = None
    error: BaseException | None = None

    @property
    def key(self) -> str:
        return f"{self.service.metadata.namespace or 'default'}/{self.service.metadata.name}"


_OBSERVERS: list[Callable[[Resolution], None]] = []


@contextlib.contextmanager
def observe_resolutions(callback: Callable[[Resolution], None]) -> Iterator[None]:
    """Call `callback` with every service planning made while the block runs."""
    _OBSERVERS.append(callback)
    try:
        yield
    finally:
        _OBSERVERS.remove(callback)


def observed_plan(
    service: api.AIMServiceObject, catalog: Catalog, settings: Settings, **kwargs: Any
) -> ServicePlan:
    """`plan_service`, reported to every observer whether it succeeds or fails."""
    try:
        plan = plan_service(service, catalog, settings, **kwargs)
    except Exception as exc:
        for observer in list(_OBSERVERS):
            observer(Resolution(service, catalog, settings, error=exc))
        raise
    for observer in list(_OBSERVERS):
        observer(Resolution(service, catalog, settings, plan=plan))
    return plan
