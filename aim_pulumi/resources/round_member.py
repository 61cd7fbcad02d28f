"""What the program round (`program.py`) may ask of the objects declared in it, written down once.

A component takes no part in the round itself: its constructor validates what it can alone,
hands the round a record of what it declared and keeps only its outputs. The round reaches the
records through the protocols below, so what it asks of a catalog object and of a service is
checked by mypy rather than listed in a docstring, and it never has to ask an object what it is.

Services and catalog objects share one part of the protocol: a `namespace` that may be an Output
(`namespace: ns.metadata.name`), which the round waits for before anything is planned, and
outputs that settle with the round, its failure or, in a preview that cannot know a namespace, an
unknown value. `Enlisted` holds that part for both.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import pulumi

from aim_pulumi.api import AIMValidationError
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.plan.result import ServicePlan
from aim_pulumi.resources import _sdk
from aim_pulumi.resources.outputs import is_output_like, settled_output
from aim_pulumi.resources.sites import DeclarationSite

__all__ = [
    "CatalogMember",
    "Deferred",
    "Enlisted",
    "Judged",
    "PendingNamespace",
    "RoundMember",
    "ServiceMember",
    "known_namespace",
]


class Deferred:
    """An output the round resolves: a value, an Output (possibly unknown in a preview) or an error.

    The Output is what `Output.from_input` would make of the value, as one Output: a status of
    plain data is not rebuilt leaf by leaf (`outputs.settled_output`).
    """

    def __init__(self) -> None:
        self._future: asyncio.Future[Any] = _sdk.event_loop().create_future()
        self.output: pulumi.Output[Any] = settled_output(self._future)

    @property
    def settled(self) -> bool:
        return self._future.done()

    def resolve(self, value: Any) -> None:
        if not self._future.done():
            self._future.set_result(value)

    def fail(self, error: BaseException) -> None:
        if not self._future.done():
            self._future.set_exception(error)


async def known_namespace(output: pulumi.Output[Any]) -> str | None:
    """The value of a namespace Output, or None while a preview cannot know it.

    Services and catalog objects both accept `namespace: ns.metadata.name`; one rule says when the
    value is usable and what a non-string value means.
    """
    value = await output.future()
    if not await output.is_known() or value is None:
        return None
    if not isinstance(value, str):
        raise AIMValidationError(
            "metadata.namespace", "InvalidSpec", f"the namespace Output resolved to {value!r}, not a string"
        )
    return value


class PendingNamespace:
    """A namespace given as an Output: where an object lives decides what it sees, so the round waits.

    `known` turns False once the round finds that a preview cannot know the value.
    """

    def __init__(self, output: pulumi.Output[Any] | None = None) -> None:
        self.output = output
        self.known = True

    @classmethod
    def split(cls, args: Mapping[str, Any]) -> tuple[Mapping[str, Any], PendingNamespace]:
        """The arguments without a namespace Output, and that Output (validated with a stand-in)."""
        if not is_output_like((args or {}).get("namespace")):
            return args, cls()
        rest = dict(args)
        return rest, cls(pulumi.Output.from_input(rest.pop("namespace")))

    async def settle(self) -> str | None:
        """The namespace learnt; None with no Output to wait for, or one a preview cannot know."""
        if self.output is None:
            return None
        value = await known_namespace(self.output)
        if value is None:
            self.known = False
        return value


class Enlisted:
    """The part of the round's protocol every record shares: its namespace and its outputs.

    Each output comes with the value it takes while a preview cannot know a namespace (made afresh
    for each, as no two outputs share a value).
    """

    def __init__(
        self,
        site: DeclarationSite | None,
        namespace: PendingNamespace,
        outputs: Sequence[tuple[Deferred, Callable[[], Any]]],
    ) -> None:
        self.site = site
        self.namespace = namespace
        self._outputs = tuple(outputs)

    def waits_for_outputs(self) -> bool:
        return self.namespace.output is not None

    def known(self) -> bool:
        return self.namespace.known

    def unknown(self, output: pulumi.Output[Any]) -> None:
        """A preview that does not know a namespace: the outputs are unknown, as `output` is."""
        for deferred, blank in self._outputs:
            deferred.resolve(output.apply(_ignoring(blank)))

    def fail(self, error: BaseException) -> None:
        for deferred, _ in self._outputs:
            deferred.fail(error)


def _ignoring(blank: Callable[[], Any]) -> Callable[[Any], Any]:
    return lambda _: blank()


@dataclass(frozen=True)
class Judged:
    """A service as the capacity check sees it: its plan, and where to say what it found."""

    ref: str
    plan: ServicePlan
    owner: pulumi.Resource | None
    site: DeclarationSite | None = None


class RoundMember(Protocol):
    """What the round asks of every object declared in it."""

    namespace: PendingNamespace

    @property
    def site(self) -> DeclarationSite | None: ...

    @property
    def ref(self) -> str:
        """`Kind/namespace/name`, as an error names the object."""
        ...

    def waits_for_outputs(self) -> bool: ...

    async def await_outputs(self) -> None:
        """Learn the namespace Output's value (a catalog object joins the catalog then)."""
        ...

    def known(self) -> bool: ...

    def unknown(self, output: pulumi.Output[Any]) -> None: ...

    def fail(self, error: BaseException) -> None: ...

    def changed_by_later(self) -> bool:
        """Once its round has run: whether the catalog as it is now would resolve it differently."""
        ...


class CatalogMember(RoundMember, Protocol):
    """A profile, model or runtime config: its status is settled against the complete catalog."""

    def settle_status(self) -> None: ...

    def warn(self, message: str) -> None:
        """Say what the round finds wrong with the object (`aim:strict` makes it an error)."""
        ...

    depends_on: list[Any]
    providers: list[pulumi.ProviderResource]

    def prewarm(self) -> list[Any]:
        """The Shared caches it pre-warms with no service (`CachePlan`s); raises what is wrong."""
        ...


class ServiceMember(RoundMember, Protocol):
    """An AIMService, taken through its phases by the round (`service_record.py`)."""

    def order_key(self) -> tuple[str, str, str]:
        """(namespace, name, resource name): the order services are planned and registered in."""
        ...

    def prepare(self) -> None:
        """Plan against the complete catalog; raises what the operator would report as failed."""
        ...

    def bind(self) -> pulumi.Output[list[Any]] | None:
        """Register the sticky binding; what it settled on, or None for a service that needs none."""
        ...

    def decide(self, state: list[Any] | None) -> None:
        """Choose the plan to deploy from what the binding settled on (None: no binding)."""
        ...

    def declared_objects(self) -> list[tuple[tuple[str, ...] | None, dict[str, Any]]]:
        """Every Kubernetes object its plan in hand declares, each with its Shared cache's key (or None)."""
        ...

    @property
    def name(self) -> str:
        """The component's Pulumi name."""
        ...

    def record_caches(self) -> None: ...

    def register(self) -> Any:
        """Register the children; the status to export."""
        ...

    def resolve_status(self, status: Any) -> None: ...

    @property
    def own_provider(self) -> bool:
        """Whether its children go through a Kubernetes provider the program gave."""
        ...

    def capacity_view(self) -> Judged | None:
        """What the capacity check judges: its plan to deploy (None before it is planned)."""
        ...

    def with_capacity(self, status: Mapping[str, Any]) -> None:
        """The capacity check's `status.capacity` for the service."""
        ...

    def bound_anew(self) -> tuple[Judged, Catalog] | None:
        """Once decided: its plan to deploy and catalog when its binding has no record in the state
        (a first deploy, or a lost record: `live_services.py` tells them apart); else None."""
        ...
