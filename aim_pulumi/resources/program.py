"""Whole-program resolution: every service resolves against everything the program declares.

The operator resolves a service against the whole cluster, and a Pulumi program is one
declaration of the whole desired state, written in whatever order its modules and functions
happen to run. So no component decides anything in its constructor. Each one validates what it
can alone (catalog objects join the stack catalog at once, so a duplicate fails on its own line)
and joins the program's *round*; its outputs are Outputs that the round resolves.

The round runs once the program body has declared everything (`_sdk.after_program_body`: at the
end of the body, before Pulumi waits for the outstanding registrations; under the SDK's unit-test
mocks, on the event loop's first turn after the declarations). It then:

1. computes the status of every catalog object against the complete catalog;
2. plans every service, in (namespace, name) order, collecting every failure; if any service
   fails, nothing is registered and one error names every failing object, its field and reason
   and the file and line that declared it;
3. registers each selector service's sticky binding, and, once all bindings have settled (one
   `apply` over all of them, so a preview still shows every child with its full inputs),
   registers every Kubernetes child and Shared cache.

A service whose `namespace` is an Output waits for it; in a preview where it is still unknown,
the service's children and outputs are unknown, as with any Output-dependent resource.

Declarations after the round (inside an `apply`, which runs after the program body): a service
is resolved on the spot against the then complete catalog; a catalog object is rejected, since
services already resolved without it.

The component provider has no program body: a program of another language reaches it through one
Construct call per component, and a call must answer with the component's outputs before the
engine sends the next one that depends on it. There each call's components form a round of their
own, on the event loop's next turn, against everything constructed so far in the same deployment
(`registry.py`); the engine sends a component only after what it depends on, so a service that
depends on its models and runtime configs sees them all. A catalog object that arrives after
services (or other catalog objects) already resolved is checked against them: if any would now
resolve differently, its Construct fails naming them and asking for the dependency, so the result
never depends on the order in which independent calls happen to arrive.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import pulumi

from aim_pulumi.api import AIMValidationError
from aim_pulumi.api.errors import AIMError
from aim_pulumi.manifests.object_identity import Collision, ObjectKey, collisions, object_text
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resolve.runtime_config.lookup import unused_runtime_configs
from aim_pulumi.resources import _sdk, levers
from aim_pulumi.resources.live_services import warn_lost_bindings
from aim_pulumi.resources.namespace_guard import guard_namespaces
from aim_pulumi.resources.outputs import gathered
from aim_pulumi.resources.registry import current_registry, in_component_provider
from aim_pulumi.resources.reported import as_reported, plain_text
from aim_pulumi.resources.round_member import CatalogMember, Deferred, Judged, RoundMember, ServiceMember
from aim_pulumi.resources.shared_cache import declare_prewarmed_caches
from aim_pulumi.resources.sites import DeclarationSite, declaration_of, declaration_site, declare

__all__ = [
    "AIMProgramError",
    "DeclarationSite",
    "Deferred",
    "ProgramRound",
    "claim_name",
    "declaration_site",
    "enlist_catalog_object",
    "enlist_plain_objects",
    "enlist_service",
    "failure_lines",
    "locate",
    "reject_late_catalog_object",
    "warn_or_fail",
    "with_children",
]


def locate(error: BaseException, site: DeclarationSite | None, object_ref: str) -> BaseException:
    """The error, naming its object and the line that declared it: it was raised away from the user's code."""
    if isinstance(error, AIMError):
        error = error.located(object_ref=object_ref)
    return as_reported(declare(error, site, object_ref), object_ref)


class AIMProgramError(pulumi.RunError):
    """Several objects of one program failed; nothing was registered. Each failure keeps its line."""

    def __init__(self, failures: Sequence[BaseException]) -> None:
        self.failures = tuple(failures)
        super().__init__(
            f"{len(self.failures)} AIM objects failed; no Kubernetes resource was registered:\n"
            + "\n".join(failure_lines(self))
        )


def failure_lines(error: BaseException) -> list[str]:
    """One line per failing object: `file:line: Kind/namespace/name: field: reason: message`."""
    failures = error.failures if isinstance(error, AIMProgramError) else (error,)
    lines = []
    for failure in failures:
        site, owner = declaration_of(failure)
        text = " ".join(plain_text(failure).split())
        if owner and not text.startswith(owner):
            # The failing object is another one (a profile, a runtime config): say whose plan it broke.
            text = f"{owner}: {text}"
        lines.append(f"{site}: {text}" if site is not None else text)
    return lines


@dataclass
class ProgramRound:
    """The components declared since the last round, and whether it has run.

    Each declaration joins as a record (`round_member.py`): `members` in the order they were
    declared, and each kind again on its own, so the round never has to ask a member what it is.
    """

    members: list[RoundMember] = field(default_factory=list)
    catalog_objects: list[CatalogMember] = field(default_factory=list)
    services: list[ServiceMember] = field(default_factory=list)
    # What registers plain Kubernetes objects of the program (AIMStack's): run with the children.
    before_children: list[Callable[[], None]] = field(default_factory=list)
    # Those plain objects, each with its declaration: no service child may be one of them.
    plain_objects: list[tuple[Declaration, list[dict[str, Any]]]] = field(default_factory=list)
    armed: bool = False
    started: bool = False
    task: Any = None
    # Puts the collector's thresholds back: its window opens when the round is armed (`collector.py`).
    put_back_collector: Callable[[], None] = field(default=lambda: None)


@dataclass(frozen=True)
class _Roster:
    """The members of a round once it starts: later declarations join another round."""

    members: list[RoundMember]
    catalog_objects: list[CatalogMember]
    services: list[ServiceMember]
    before_children: list[Callable[[], None]]
    put_back_collector: Callable[[], None]
    plain_objects: list[tuple[Declaration, list[dict[str, Any]]]]

    def fail(self, error: BaseException) -> None:
        """Every member fails with `error`; nothing more registers, so the collector's window ends."""
        self.put_back_collector()
        current_registry().capacity.fail(error)
        for member in self.members:
            member.fail(error)


def reject_late_catalog_object(object_ref: str) -> None:
    """A catalog object declared after the round would be silently ignored: refuse it instead."""
    if current_registry().program_ended:
        raise AIMResolutionError(
            "",
            "DeclaredAfterResolution",
            "declared after the program's services were resolved (inside an apply, or after the "
            "program body), so no service could see it; declare profiles, models and runtime configs "
            "in the program body",
            object_ref=object_ref,
        )


def claim_name(
    type_token: str, name: str, opts: pulumi.ResourceOptions | None, site: DeclarationSite | None
) -> None:
    """Refuse a second component of one type, name and parent before it registers.

    The engine would refuse it too, but only as `Duplicate resource URN '...'`, after the program
    body, without saying where either was declared. Two services of one name in two namespaces is
    the usual way to get here: the fix is a name of their own for each.
    """
    parent = opts.parent if opts is not None else None
    key = (type_token, name, id(parent) if parent is not None else None)
    claimed = current_registry().names
    if key in claimed:
        first = claimed[key]
        kind = type_token.rpartition(":")[2]
        where = ""
        if first is not None:
            same_file = site is not None and site.filename == first.filename
            where = f" (first at line {first.line})" if same_file else f" (first at {first})"
        raise AIMValidationError(
            "",
            "DuplicateName",
            f'{kind} "{name}" is declared twice{where}'
            f"; a Pulumi resource name is unique per type and parent: give each its own "
            f'(e.g. "{name}-<namespace>"; `name` in the arguments keeps the Kubernetes name "{name}")',
        )
    claimed[key] = site


def enlist_catalog_object(member: CatalogMember) -> None:
    """Add a just-declared catalog object to the program's open round."""
    late = current_registry().program_ended
    current = _open_round()
    current.catalog_objects.append(member)
    _join(current, member, late)


def enlist_service(member: ServiceMember) -> None:
    """Add a just-declared service to the program's open round (or resolve a late one now)."""
    late = current_registry().program_ended
    current = _open_round()
    current.services.append(member)
    _join(current, member, late)


def _join(current: ProgramRound, member: RoundMember, late: bool) -> None:
    current.members.append(member)
    if late:
        _settle(current)


@dataclass(frozen=True)
class Declaration:
    """Who declares a Kubernetes object, as a duplicate names it; equal for one declaration.

    `identity` decides equality (a service, a Shared cache's key, one document of a directory);
    `text` names it for a person, `site`/`ref`/`file`/`document` locate the error it gets.
    """

    identity: tuple[Any, ...]
    text: str = field(compare=False)
    ref: str = field(compare=False)
    site: DeclarationSite | None = field(default=None, compare=False)
    file: str | None = field(default=None, compare=False)
    document: int | None = field(default=None, compare=False)


def enlist_plain_objects(declared: Sequence[tuple[Declaration, list[dict[str, Any]]]]) -> None:
    """Tell the round about plain Kubernetes objects the program declares with the children."""
    _open_round().plain_objects.extend(declared)


def _service_declarations(service: ServiceMember) -> list[tuple[Declaration, list[dict[str, Any]]]]:
    where = f", {service.site}" if service.site is not None else ""
    own = Declaration(
        ("service", id(service)),
        f'{service.ref} (AIMService "{service.name}"{where})',
        service.ref,
        service.site,
    )
    out: list[tuple[Declaration, list[dict[str, Any]]]] = []
    for key, manifest in service.declared_objects():
        if key is None:
            out.append((own, [manifest]))
        else:
            text = f"the Shared cache of {own.text}"
            out.append((Declaration(("shared-cache", key), text, service.ref, service.site), [manifest]))
    return out


def _prewarmed_declarations() -> list[tuple[Declaration, list[dict[str, Any]]]]:
    """The caches profiles pre-warm: each a Shared cache, one declaration with a service's of it."""
    from aim_pulumi.manifests import build_cache_pvc, build_download_job

    out: list[tuple[Declaration, list[dict[str, Any]]]] = []
    for member, plans in current_registry().prewarmed:
        where = f", {member.site}" if member.site is not None else ""
        for plan in plans:
            text = f"the Shared cache {member.ref} pre-warms{where}"
            owner = Declaration(("shared-cache", plan.key), text, member.ref, member.site)
            out.append((owner, [build_cache_pvc(plan), build_download_job(plan)]))
    return out


def _duplicate_objects(
    services: Sequence[ServiceMember], plain: Sequence[tuple[Declaration, list[dict[str, Any]]]]
) -> list[BaseException]:
    """One failure per Kubernetes object that two declarations of the program describe.

    Earlier rounds' objects count too (`StackRegistry.kubernetes_objects`); the plain objects of a
    directory come first, then the services in the order the round plans them.
    """
    declared = [*plain, *(d for service in services for d in _service_declarations(service))]
    declared += _prewarmed_declarations()
    found = collisions(declared, current_registry().kubernetes_objects)
    return [_duplicate_error(collision) for collision in found]


def _duplicate_error(collision: Collision[Declaration]) -> BaseException:
    first, second = collision.first, collision.second
    error = AIMValidationError(
        "metadata.name",
        "DuplicateObject",
        f"{object_text(collision.key)} is declared twice, by {first.text} and by {second.text}: two "
        "declarations of one Kubernetes object overwrite each other's fields on every run; give each "
        "its own name (a service's children are named after the service's metadata.name)",
        file=second.file,
        document=second.document,
        object_ref=second.ref,
    )
    return locate(error, second.site, second.ref)


def _claim_objects(
    services: Sequence[ServiceMember], plain: Sequence[tuple[Declaration, list[dict[str, Any]]]]
) -> None:
    """Remember what this round registers, for the rounds after it."""
    from aim_pulumi.manifests.object_identity import object_key

    claimed: dict[ObjectKey, Any] = current_registry().kubernetes_objects
    declared = [*plain, *(d for service in services for d in _service_declarations(service))]
    for owner, manifests in [*declared, *_prewarmed_declarations()]:
        for manifest in manifests:
            claimed.setdefault(object_key(manifest), owner)


def with_children(register: Callable[[], None]) -> None:
    """Run `register` (it declares plain Kubernetes objects) only once every service has planned."""
    if current_registry().program_ended:
        register()
        return
    _open_round().before_children.append(register)


_CALL_ROUND: ContextVar[ProgramRound | None] = ContextVar("aim_call_round", default=None)


def _open_round() -> ProgramRound:
    """The round declarations join: open, and armed to run at the end of the program body."""
    registry = current_registry()
    # A Construct call's round is its own, even while another call of the deployment is in flight.
    current: ProgramRound | None = _CALL_ROUND.get() if in_component_provider() else registry.round
    if current is None or current.started:
        current = ProgramRound()
        if in_component_provider():
            _CALL_ROUND.set(current)
        else:
            registry.round = current
    if current.armed or registry.program_ended:
        return current
    current.armed = True
    current.put_back_collector = levers.open_round()
    chosen = current

    def at_program_end(body_error: BaseException | None) -> None:
        registry.program_ended = True
        _settle(chosen, body_error=body_error)

    if not _sdk.after_program_body(at_program_end):
        _sdk.event_loop().call_soon(_settle_quietly, chosen)
    return current


def _settle_quietly(current: ProgramRound) -> None:
    """The event-loop path: a failure reaches the components' outputs, there is no body to fail."""
    try:
        _settle(current)
    except Exception as error:
        pulumi.log.error(str(error))


def _settle(current: ProgramRound, *, body_error: BaseException | None = None) -> None:
    """Run the round. Every component output settles, with the round's failure if there is one.

    A failed program body resolves nothing; its outputs fail with the body's own exception, so
    Pulumi reports that one error and no `apply` of the user runs on a made-up value.
    """
    if current.started:
        return
    current.started = True
    roster = _Roster(
        list(current.members),
        list(current.catalog_objects),
        list(current.services),
        current.before_children,
        current.put_back_collector,
        list(current.plain_objects),
    )
    if body_error is not None:
        roster.fail(body_error)
        return
    try:
        # Exported now, while the stack's outputs are still open; the round settles its value.
        current_registry().capacity.export(in_component_provider())
        discovering = current_registry().catalog.start_discoveries()
        if discovering or any(m.waits_for_outputs() for m in roster.members):
            current.task = asyncio.ensure_future(_settle_later(roster), loop=_sdk.event_loop())
            return
        _resolve(roster)
    except BaseException as error:
        roster.fail(error)
        raise


async def _settle_later(roster: _Roster) -> None:
    """Wait for the Outputs that decide where services go, then resolve as usual."""
    try:
        # Catalog objects first: a service sees them only once they joined the catalog.
        for member in [*roster.catalog_objects, *roster.services]:
            await member.await_outputs()
        await _discovered()
        _resolve(roster)
    except BaseException as error:
        roster.fail(error)


async def _discovered() -> None:
    """Wait, off the event loop's thread, for the registry reads the catalog started.

    An image the lock file lacks is read while the program's body and registrations go on; the
    round resolves once every read has ended (a failed one is reported by its model).
    """
    catalog = current_registry().catalog
    while True:
        running = catalog.start_discoveries()
        if not running:
            return
        await asyncio.gather(*(asyncio.wrap_future(read) for read in running), return_exceptions=True)


def _resolve(roster: _Roster) -> None:
    # Every binding and child registers in here, or in `_finish_all`: one long stretch of
    # synchronous work, made cheaper by the levers (`levers.py`).
    with levers.registering():
        _resolve_round(roster)


def _resolve_round(roster: _Roster) -> None:
    unknown = [m for m in roster.catalog_objects if not m.known()]
    if unknown:
        # A preview that does not know where a catalog object lives cannot know what any service
        # sees: every service's children and outputs are unknown, none is guessed.
        output = unknown[0].namespace.output
        assert output is not None
        for member in roster.members:
            member.unknown(output)
        current_registry().capacity.unknown(output)
        for register in roster.before_children:
            register()
        levers.after_registrations(None, roster.put_back_collector)
        return
    failures: list[BaseException] = _changed_by_late_objects(roster.catalog_objects)
    if failures:
        raise failures[0] if len(failures) == 1 else AIMProgramError(failures)
    registry = current_registry()
    # The cluster is read before anything is planned: its nodes decide which profiles are available.
    registry.capacity.before_planning(registry.catalog, any(s.own_provider for s in roster.services))
    prewarmed: list[tuple[CatalogMember, list[Any]]] = []
    for catalog_object in roster.catalog_objects:
        try:
            catalog_object.settle_status()
            plans = catalog_object.prewarm()
        except Exception as error:
            failures.append(locate(error, catalog_object.site, catalog_object.ref))
            continue
        if plans:
            prewarmed.append((catalog_object, plans))
    current_registry().prewarmed.extend(prewarmed)
    ready = []
    for service in sorted(roster.services, key=lambda s: s.order_key()):
        if not service.known():
            output = service.namespace.output
            assert output is not None
            service.unknown(output)
            continue
        try:
            service.prepare()
        except Exception as error:
            failures.append(locate(error, service.site, service.ref))
            continue
        ready.append(service)
    if not failures:
        failures = _duplicate_objects(ready, roster.plain_objects)
    if not failures and not in_component_provider() and all(s.known() for s in roster.services):
        failures = _unused_runtime_configs(roster.catalog_objects, ready)
    if failures:
        raise failures[0] if len(failures) == 1 else AIMProgramError(failures)
    failures = _capacity_failures(registry.capacity.gate(_judged(ready)))
    if failures:
        raise failures[0] if len(failures) == 1 else AIMProgramError(failures)
    registry.settled.extend(roster.members)
    register_children(ready, roster.before_children, roster.put_back_collector, roster.plain_objects)


def warn_or_fail(message: str, warn: Callable[[str], None]) -> None:
    """Say a warning (`Reason: message`), or, under `aim:strict`, fail with it."""
    if not current_registry().settings.strict:
        warn(message)
        return
    reason, separator, rest = message.partition(": ")
    if not separator or not reason.isidentifier():
        reason, rest = "Warning", message
    raise AIMResolutionError("", reason, f"{rest} (strict mode turns warnings into errors)")


def _unused_runtime_configs(
    members: Sequence[CatalogMember], services: Sequence[ServiceMember]
) -> list[BaseException]:
    """Warn (fail under `aim:strict`) for each namespaced runtime config nothing of the program reads.

    Only a Python program's round sees the whole program at once; a Construct call of the component
    provider sees one component, so it does not judge.
    """
    registry = current_registry()
    objects = registry.catalog.objects()
    configs = []
    used = {service.order_key()[0] or "default" for service in services}
    used.add(registry.settings.system_namespace)
    for obj in objects:
        namespace = obj.metadata.namespace or "default"
        if obj.kind == "AIMRuntimeConfig":
            configs.append((namespace, obj.metadata.name))
        elif obj.scope == "Namespace":
            used.add(namespace)
    by_ref = {member.ref: member for member in members}
    failures: list[BaseException] = []
    for namespace, name, message in unused_runtime_configs(configs, used):
        ref = f"AIMRuntimeConfig/{namespace}/{name}"
        member = by_ref.get(ref)
        try:
            if member is not None:
                member.warn(message)
            else:
                warn_or_fail(message, pulumi.log.warn)
        except Exception as error:
            failures.append(locate(error, member.site if member else None, ref))
    return failures


def _judged(services: Sequence[ServiceMember]) -> list[Judged]:
    return [view for service in services if (view := service.capacity_view()) is not None]


def _capacity_failures(found: Sequence[tuple[Judged, AIMError]]) -> list[BaseException]:
    """A service that does not fit under `aim:capacity: enforce`, as a failure naming its line."""
    return [locate(error, judged.site, judged.ref) for judged, error in found]


def _changed_by_late_objects(late: Sequence[CatalogMember]) -> list[BaseException]:
    """One failure per catalog object of this round that changes what an earlier round resolved.

    Only the component provider runs several rounds with catalog objects (a Python program's
    late catalog objects are refused at once), so only there can it happen.
    """
    settled: list[RoundMember] = current_registry().settled
    if not late or not settled:
        return []
    changed = sorted({m.ref for m in settled if m.changed_by_later()})
    if not changed:
        return []
    shown = ", ".join(changed)
    return [
        locate(
            AIMResolutionError(
                "",
                "DeclaredAfterResolution",
                f"constructed after {shown} resolved, and with it they would resolve differently; "
                "make them depend on it (dependsOn, or one of its outputs) so that it is constructed first",
                object_ref=member.ref,
            ),
            member.site,
            member.ref,
        )
        for member in late
    ]


def register_children(
    services: Sequence[ServiceMember],
    before_children: Sequence[Callable[[], None]],
    put_back_collector: Callable[[], None],
    plain_objects: Sequence[tuple[Declaration, list[dict[str, Any]]]] = (),
) -> None:
    """Bindings first; every child once every binding has settled (nothing before all planned).

    The collector's window ends once the engine has answered every registration made here.
    """
    bindings = []
    for service in services:
        with levers.declared_at(service.site), levers.on_binding_lane():
            bindings.append(service.bind())
    if all(b is None for b in bindings):
        try:
            _finish_all(services, [None] * len(services), before_children, plain_objects)
        finally:
            levers.after_registrations(None, put_back_collector)
        return
    states = gathered(bindings)
    done = states.apply(lambda values: _finish_all(services, list(values), before_children, plain_objects))
    levers.after_registrations(done, put_back_collector)
    for position, service in enumerate(services):
        service.resolve_status(done.apply(_at(position)))


def _at(position: int) -> Callable[[list[Any]], Any]:
    return lambda statuses: statuses[position]


def _finish_all(
    services: Sequence[ServiceMember],
    states: list[Any],
    before_children: Sequence[Callable[[], None]] = (),
    plain_objects: Sequence[tuple[Declaration, list[dict[str, Any]]]] = (),
) -> list[Any]:
    """Final plans of all services (a binding may keep an earlier profile), then all children."""
    with levers.registering():
        return _finish_round(services, states, before_children, plain_objects)


def _warn_lost_bindings(services: Sequence[ServiceMember]) -> None:
    """The services whose binding is new in the state: warned where the cluster runs another profile.

    Asks the cluster only when there is such a service (`live_services.py`)."""
    new = [anew for anew in (service.bound_anew() for service in services) if anew is not None]
    if not new:
        return
    registry = current_registry()
    explicit = any(service.own_provider for service in services if service.bound_anew() is not None)
    access = registry.capacity.live_access(explicit)
    warn_lost_bindings(new, access, registry.settings.capacity_timeout_seconds)


def _finish_round(
    services: Sequence[ServiceMember],
    states: list[Any],
    before_children: Sequence[Callable[[], None]],
    plain_objects: Sequence[tuple[Declaration, list[dict[str, Any]]]] = (),
) -> list[Any]:
    failures: list[BaseException] = []
    for service, state in zip(services, states, strict=True):
        try:
            service.decide(state)
        except Exception as error:
            failures.append(locate(error, service.site, service.ref))
    if not failures:
        # A binding that kept another profile may rename a child: checked again on the final plans.
        failures = _duplicate_objects(services, plain_objects)
    if not failures:
        check = current_registry().capacity
        verdicts, refused = check.settle(_judged(services))
        failures = _capacity_failures(refused)
        for service in services:
            view = service.capacity_view()
            if view is not None:
                service.with_capacity(verdicts.get((view.plan.namespace, view.plan.name), {}))
    if not failures:
        _claim_objects(services, plain_objects)
        _warn_lost_bindings(services)
    if failures:
        combined = failures[0] if len(failures) == 1 else AIMProgramError(failures)
        current_registry().capacity.fail(combined)
        for service in services:
            service.fail(combined)
        raise combined
    for register in before_children:
        register()
    for service in services:
        service.record_caches()
    statuses = []
    for service in services:
        with levers.declared_at(service.site):
            statuses.append(service.register())
    declare_prewarmed_caches()
    if not in_component_provider():
        guard_namespaces()
    if all(state is None for state in states):
        for service, status in zip(services, statuses, strict=True):
            service.resolve_status(status)
    return statuses
