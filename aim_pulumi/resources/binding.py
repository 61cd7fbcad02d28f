"""Sticky binding through Pulumi state: a tiny dynamic resource per service (DESIGN decision 4).

The operator keeps a service on the profile it first bound while that profile still qualifies;
it remembers the binding in the service's status. Without an operator the memory is Pulumi state:
the program declares `<service>-binding` with the winner of a fresh ranking and every profile
that still qualifies, and the provider's `check(olds, news)` keeps the old binding while it is
among them (and no rebind is forced), else takes the winner. `check` runs in preview too, so the
bound profile is known before anything is applied and a preview shows every child.

The same state carries what else must survive between runs with no cluster to ask:
the cache mode (immutable once chosen; changing it fails `check`) and the high-water mark of
every cache PVC size (a PVC never shrinks: `check` keeps the larger of old and new).

The provider is pickled into state by reference (the bytes name `aim_pulumi.resources.binding`
and `BindingProvider`, nothing of its code), so the engine's plugin imports this module to run it,
and its rule is the resolver's own: `decide_binding` calls
`aim_pulumi.resolve.selection.sticky.sticky_decision`, the one place the sticky rule is written. The
class keeps its name and module, so a stack deployed by an earlier version stores the same bytes
and its binding previews with no change (`tests/resources/test_binding.py` pins them).

A dynamic resource is run by the engine's `pulumi-python` plugin, which imports the pickled
provider with whatever Python is on PATH: a program of another language (through the component
provider) has no such environment, so there the binding is `ProviderBinding`, the custom resource
`aim:index:Binding` that the component provider itself serves (`aim_pulumi.provider_server`).
Both take the same inputs and keep the same state by the same rule (`decide_binding`,
`binding_changes`); only who runs the rule differs.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

import pulumi
from pulumi.dynamic import CheckFailure, CheckResult, CreateResult, DiffResult, ResourceProvider, UpdateResult
from pulumi.dynamic.dynamic import PROVIDER_KEY, serialize_provider

from aim_pulumi.resolve.selection.sticky import sticky_decision

__all__ = [
    "BINDING_KEYS",
    "NEW_BINDING_KEY",
    "PROVIDER_BINDING_TYPE",
    "REBINDING_KEY",
    "Binding",
    "BindingProvider",
    "BindingState",
    "ProviderBinding",
    "binding_changes",
    "binding_inputs",
    "decide_binding",
    "parse_profile_key",
    "profile_key",
    "stored",
]

# Keys whose change is an update of the binding (everything `check` writes or reads).
BINDING_KEYS = (
    "service",
    "winner",
    "qualifying",
    "force",
    "bound",
    "previous",
    "reason",
    "cacheMode",
    "cacheSizes",
)


class BindingState(TypedDict, total=False):
    """Inputs and outputs of the binding resource (camelCase, as stored in state)."""

    service: str
    winner: str
    qualifying: list[str]
    force: bool
    bound: str
    previous: str
    reason: str
    cacheMode: str
    cacheSizes: dict[str, int]
    rebinding: bool
    newBinding: bool


def profile_key(kind: str, namespace: str, name: str) -> str:
    """How a profile is named in binding state: `AIMProfile/<ns>/<name>` or `AIMClusterProfile/<name>`."""
    return f"{kind}/{namespace}/{name}" if kind == "AIMProfile" else f"{kind}/{name}"


def parse_profile_key(key: str) -> tuple[str, str, str]:
    """(kind, namespace, name) of a binding key; cluster profiles have namespace ""."""
    parts = key.split("/")
    if len(parts) == 3 and parts[0] == "AIMProfile":
        return parts[0], parts[1], parts[2]
    if len(parts) == 2 and parts[0] == "AIMClusterProfile":
        return parts[0], "", parts[1]
    raise ValueError(f"not a profile binding key: {key!r}")


def decide_binding(
    olds: Mapping[str, Any], news: Mapping[str, Any]
) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """The binding's `check`: the new state and any failures (property, reason).

    The sticky rule is the resolver's (`sticky_decision`): keep the previous binding while it is
    set, no rebind is forced and it is still among the qualifying profiles. Seeing only the
    qualifying keys, the binding has no deleted profile: one that is gone no longer matches, and
    the resolver, which sees the catalog, names `deleted` in the ProfileRebound it reports. A
    rebind is recorded only when the bound profile changes.
    """
    previous = str(olds.get("bound") or "")
    winner = str(news.get("winner") or "")
    qualifying = {str(q) for q in (news.get("qualifying") or [])}
    decision = sticky_decision(
        previous, candidate_ok=previous in qualifying, force_rebind=bool(news.get("force"))
    )
    if decision.keep:
        bound, reason = previous, ""
    else:
        bound = winner
        reason = decision.reason if decision.reason is not None and previous != winner else ""
    failures: list[tuple[str, str]] = []
    old_mode = str(olds.get("cacheMode") or "")
    new_mode = str(news.get("cacheMode") or "")
    if old_mode and new_mode and old_mode != new_mode:
        failures.append(
            (
                "cacheMode",
                f"spec.caching.mode is immutable: this service's caches are {old_mode}, the program asks for "
                f"{new_mode}; delete and recreate the service to change it",
            )
        )
    sizes: dict[str, int] = {str(k): int(v) for k, v in (olds.get("cacheSizes") or {}).items()}
    for key, value in (news.get("cacheSizes") or {}).items():
        sizes[str(key)] = max(int(value), sizes.get(str(key), 0))
    state = {k: v for k, v in news.items() if k != "__provider"}
    rebound = bound != previous
    state.update(
        bound=bound,
        # The last rebind stays on record while the binding holds: clearing it in the run after
        # would be an update of the binding alone, and `pulumi preview --expect-no-changes` after
        # a rebind would fail on it.
        previous=previous if rebound else str(olds.get("previous") or ""),
        reason=reason if rebound else str(olds.get("reason") or ""),
        cacheMode=new_mode or old_mode,
        cacheSizes=dict(sorted(sizes.items())),
        # Whether this run moves the binding off a profile it held (`REBINDING_KEY`).
        rebinding=rebound and bool(previous),
        # Whether the state holds no binding of the service yet (`NEW_BINDING_KEY`).
        newBinding=not olds,
    )
    return state, failures


REBINDING_KEY = "rebinding"
"""The binding's note that the run it is checked in rebinds; what the ProfileRebound warning waits for.

The last rebind stays on record (`previous`, `reason`) so that the run after it changes nothing, and
a program sees only a resource's outputs, which an unchanged resource keeps from the run that last
changed it: nothing in them tells the run that rebinds from the ones after it. `Check` does, since it
sees the old state; it sets this key, which no diff compares. A preview's outputs of the changed
binding are what `Check` decided, so the preview of the run that rebinds warns; `Create` and
`Update` store it cleared, so the state never carries it into a later run (nor does the `up`
after that preview warn again: a `pulumi up --skip-preview` that rebinds says so only in the
binding's update, `~ bound previous reason`)."""


NEW_BINDING_KEY = "newBinding"
"""The binding's note that the state holds no record of it: a first deploy, or a record lost.

Like `REBINDING_KEY`, only `check` can tell (it sees no old state), no diff compares it and the
stored state never keeps it. The program reads the live InferenceService only for a service whose
binding carries it, so a run over recorded bindings asks the cluster nothing
(`aim_pulumi/resources/live_services.py`)."""


def stored(props: Mapping[str, Any]) -> dict[str, Any]:
    """The binding's outputs as `Create` and `Update` store them: without the run's notes."""
    return {**props, REBINDING_KEY: False, NEW_BINDING_KEY: False}


def binding_changes(olds: Mapping[str, Any], news: Mapping[str, Any]) -> list[str]:
    """The binding's `diff`: the keys whose change is an update (none is ever a replacement)."""
    return [key for key in BINDING_KEYS if olds.get(key) != news.get(key)]


class BindingProvider(ResourceProvider):
    """The dynamic provider behind `<service>-binding`; all of its logic is `decide_binding`."""

    serialize_as_secret_always = False

    def check(self, _olds: dict[str, Any], news: dict[str, Any]) -> CheckResult:
        state, failures = decide_binding(_olds or {}, news)
        return CheckResult(state, [CheckFailure(prop, reason) for prop, reason in failures])

    def diff(self, _id: str, _olds: dict[str, Any], _news: dict[str, Any]) -> DiffResult:
        changed = bool(binding_changes(_olds, _news))
        return DiffResult(changes=changed, replaces=[], stables=[], delete_before_replace=False)

    def create(self, props: dict[str, Any]) -> CreateResult:
        return CreateResult(str(props.get("service") or "binding"), outs=stored(props))

    def update(self, _id: str, _olds: dict[str, Any], _news: dict[str, Any]) -> UpdateResult:
        return UpdateResult(outs=stored(_news))


@functools.cache
def serialized_provider() -> str:
    """The provider as state stores it, pickled once per process: it has no state of its own.

    `pulumi.dynamic.Resource` pickles its provider for every resource it declares; with one
    Binding per service that is one pickling per service of the very same bytes.
    """
    if BindingProvider.serialize_as_secret_always:
        raise AssertionError("the binding provider holds no secret and is stored in plain text")
    return str(serialize_provider(BindingProvider()))


class Binding(pulumi.dynamic.Resource, module="aim", name="Binding"):
    """`<service>-binding`: the profile a service is bound to, and its cache memory, in state."""

    bound: pulumi.Output[str]
    previous: pulumi.Output[str]
    reason: pulumi.Output[str]
    cache_mode: pulumi.Output[str]
    cache_sizes: pulumi.Output[dict[str, int]]
    rebinding: pulumi.Output[bool]
    new_binding: pulumi.Output[bool]

    def __init__(
        self,
        name: str,
        *,
        service: str,
        winner: str,
        qualifying: Sequence[str],
        force: bool,
        cache_mode: str,
        cache_sizes: Mapping[str, int],
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        props = binding_inputs(service, winner, qualifying, force, cache_mode, cache_sizes)
        # What `pulumi.dynamic.Resource.__init__` does, with the provider pickled once (see above).
        props[PROVIDER_KEY] = serialized_provider()
        pulumi.CustomResource.__init__(self, f"pulumi-python:{self._resource_type_name}", name, props, opts)
        self.cache_mode = self.cacheMode  # type: ignore[attr-defined]
        self.cache_sizes = self.cacheSizes  # type: ignore[attr-defined]
        self.new_binding = self.newBinding  # type: ignore[attr-defined]


def binding_inputs(
    service: str,
    winner: str,
    qualifying: Sequence[str],
    force: bool,
    cache_mode: str,
    cache_sizes: Mapping[str, int],
) -> dict[str, Any]:
    """What a binding is declared with; `bound`, `previous` and `reason` are its check's to fill."""
    return {
        "service": service,
        "winner": winner,
        "qualifying": sorted(set(qualifying)),
        "force": force,
        "cacheMode": cache_mode,
        "cacheSizes": dict(sorted(cache_sizes.items())),
        "bound": None,
        "previous": None,
        "reason": None,
        "rebinding": None,
        "newBinding": None,
    }


PROVIDER_BINDING_TYPE = "aim:index:Binding"
"""The binding's type when the component provider serves it (not in the schema: no program declares it)."""


class ProviderBinding(pulumi.CustomResource):
    """`<service>-binding` of a component constructed for another language, served by this provider."""

    bound: pulumi.Output[str]
    previous: pulumi.Output[str]
    reason: pulumi.Output[str]
    cache_mode: pulumi.Output[str]
    cache_sizes: pulumi.Output[dict[str, int]]
    rebinding: pulumi.Output[bool]
    new_binding: pulumi.Output[bool]

    def __init__(
        self,
        name: str,
        *,
        service: str,
        winner: str,
        qualifying: Sequence[str],
        force: bool,
        cache_mode: str,
        cache_sizes: Mapping[str, int],
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        props = binding_inputs(service, winner, qualifying, force, cache_mode, cache_sizes)
        super().__init__(PROVIDER_BINDING_TYPE, name, props, opts)
        self.cache_mode = self.cacheMode  # type: ignore[attr-defined]
        self.cache_sizes = self.cacheSizes  # type: ignore[attr-defined]
        self.new_binding = self.newBinding  # type: ignore[attr-defined]
