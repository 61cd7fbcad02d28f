"""One AIMService in the program round: its phases, and the work that moves it from one to the next.

The component (`service.py`) only declares; the round (`program.py`) owns this record and takes
every service through the same phases together, each a typed value that holds what the phase
decided: `Declared` (the document, nothing planned), `Planned` (the first plan against the
complete catalog), `Bound` (its sticky binding registered with that plan's winner), `Decided`
(the plan to deploy, once every binding has answered) and `Registered` (its children declared).
A phase is reached only once every service of the round reached the one before, which is how a
failure anywhere stops the program before any child is registered.
"""

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import pulumi

from aim_pulumi import api
from aim_pulumi.adopt.record import adopt_plan, adopted_record, keep_adopted, planned_cache_names
from aim_pulumi.api import io as api_io
from aim_pulumi.manifests import build_cache_pvc, build_download_job, build_service_manifests
from aim_pulumi.manifests._common import plain
from aim_pulumi.manifests.child_admission import check_children
from aim_pulumi.manifests.env_secret import ENV_SECRET_DIGEST, env_secret_digest, split_env_secrets
from aim_pulumi.resolve.catalog.extension import served_kinds
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.children.names import hash_suffix
from aim_pulumi.resolve.objects import FORCE_REBIND_ANNOTATION
from aim_pulumi.resolve.plan.result import ServicePlan
from aim_pulumi.resolve.selection.select import qualifying_profile_refs
from aim_pulumi.resolve.settings import Settings
from aim_pulumi.resolve.types import CachePlan
from aim_pulumi.resources.binding import Binding, ProviderBinding, parse_profile_key, profile_key
from aim_pulumi.resources.children import (
    ObservedCustomResource,
    read_child,
    register_child,
    warn_if_kept_at_creation,
)
from aim_pulumi.resources.namespace_guard import note_namespaces
from aim_pulumi.resources.outputs import gathered, settled_output
from aim_pulumi.resources.registry import current_registry, in_component_provider
from aim_pulumi.resources.resolutions import observed_plan
from aim_pulumi.resources.round_member import Deferred, Enlisted, Judged, PendingNamespace
from aim_pulumi.resources.secrets import (
    MaskedArgs,
    build_independent_of_outputs,
    holds_output,
    redact,
    restore_outputs,
)
from aim_pulumi.resources.service_status import observed_status, plan_sources
from aim_pulumi.resources.shared_cache import AIMSharedCache
from aim_pulumi.resources.sites import DeclarationSite
from aim_pulumi.resources.status_read import ProgramRead, program_status_reader

__all__ = [
    "Bound",
    "Built",
    "Decided",
    "Declared",
    "Phase",
    "Planned",
    "Registered",
    "ServiceDeclaration",
    "ServiceRecord",
]


# Pulumi role of each service-owned child (behaviour §14).
_ROLES: Mapping[str, str] = {
    "InferenceService": "isvc",
    "ConfigMap": "profile-config",
    "HTTPRoute": "route",
    "ScaledObject": "scaledobject",
}


@dataclasses.dataclass(frozen=True)
class Built:
    """One planning pass: the typed service, its plan and every manifest the plan yields."""

    service: api.AIMServiceObject
    plan: ServicePlan
    manifests: tuple[dict[str, Any], ...]
    caches: tuple[tuple[CachePlan, dict[str, Any], dict[str, Any]], ...]

    def render(self) -> Any:
        return [list(self.manifests), [[p, j] for _, p, j in self.caches], dict(self.plan.status)]


@dataclasses.dataclass(frozen=True)
class ServiceDeclaration:
    """What the constructor fixed: none of it changes while the round runs."""

    name: str
    site: DeclarationSite | None
    settings: Settings
    catalog: Catalog
    force: bool
    wait_for_cache: bool


@dataclasses.dataclass(frozen=True)
class Declared:
    """Enlisted: nothing is decided until the catalog is complete."""


@dataclasses.dataclass(frozen=True)
class Planned:
    """The first plan, against the complete catalog, before any binding has answered."""

    first: Built
    # The document's Outputs masked for planning (with the runtime configs' env Outputs joined).
    masked: MaskedArgs
    # Selector shapes keep their profile, cached services their cache sizes, through a binding.
    binds: bool
    # The binding keys of every profile that qualifies: the binding keeps one of them.
    qualifying: list[str]


@dataclasses.dataclass(frozen=True)
class Bound:
    """The sticky binding is registered with the first plan's winner; its answer is pending."""

    planned: Planned
    winner: str


@dataclasses.dataclass(frozen=True)
class Decided:
    """The plan to deploy: the first one, or one rebuilt from the profile the binding kept.

    `new_binding`: the binding's check found no record of it in the state (`NEW_BINDING_KEY`).
    """

    planned: Planned
    built: Built
    new_binding: bool = False


@dataclasses.dataclass(frozen=True)
class Registered:
    """The children are declared; `endpoint` reads the route's hostnames from here."""

    planned: Planned
    built: Built
    hostnames: tuple[str, ...]


Phase = Declared | Planned | Bound | Decided | Registered


async def _noted(rebinding: pulumi.Output[Any]) -> bool:
    """A note of the binding's check (rebinding, new binding), False where its outputs have none.

    A binding stored before the note existed, kept by a run that changes nothing, has no such
    output, and a preview gives a missing output as unknown: waiting for it would hold every child
    of every service back for ever. Such a run rebinds nothing (its binding is unchanged)."""
    if not await rebinding.is_known():
        return False
    return bool(await rebinding.future())


def _with_previous_profile(document: Mapping[str, Any], ref: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(document)
    status = dict(out.get("status") or {})
    status["resolvedProfile"] = dict(ref)
    out["status"] = status
    return out


def _awaited_children(plan: ServicePlan) -> list[str]:
    """What `pulumi up` will wait for, for how long, and what a timeout means, one line each."""
    service = f"AIMService {plan.namespace}/{plan.name}"
    lines = []
    for cache in plan.caches:
        if not cache.skip_await:
            lines.append(
                f"{service}: waiting up to {cache.timeout_seconds} s for download Job {cache.job_name} "
                "to complete (aim:downloadTimeoutSeconds)"
            )
    if _isvc_awaited(plan):
        lines.append(
            f"{service}: waiting up to {plan.wait.timeout_seconds} s for InferenceService {plan.isvc_name} "
            f"to report {plan.wait.wait_for} (aim:waitFor, aim:readyTimeoutSeconds)"
        )
    return lines


async def _reported(resource: Any) -> Any:
    """A child's `status` as the engine (or a `ProgramRead`) observed it; None where unknown (a
    preview's new child)."""
    output = getattr(resource, "status", None)
    if not isinstance(output, pulumi.Output):
        return None
    value = await output.future()
    return plain(value) if isinstance(value, Mapping) else None


async def _observed_status(
    planned: Mapping[str, Any],
    *,
    runtime: pulumi.Resource | None,
    caches: Sequence[pulumi.Resource],
    route: Sequence[Any],
    autoscaler: Sequence[Any],
) -> dict[str, Any]:
    """The status to export: the plan's, updated with what the children report (`observed_status`).

    `planned` may hold Outputs (restored env or label values); `observed_status` touches only the
    conditions and the rollup, so they pass through to `settled_output`, which awaits them.
    `route` and `autoscaler` are where that child's status is read, in order (its read after the
    apply, then the child itself): the first that reports a status is the one taken.
    """
    reports = [await _reported(job) for job in caches]
    return observed_status(
        planned,
        runtime=await _reported(runtime),
        caches=reports,
        route=await _first_reported(route),
        autoscaler=await _first_reported(autoscaler),
    )


async def _first_reported(resources: Sequence[Any]) -> Any:
    for resource in resources:
        found = await _reported(resource)
        if found is not None:
            return found
    return None


def _isvc_awaited(plan: ServicePlan) -> bool:
    """Whether `pulumi up` waits for the InferenceService (`_awaited_children` says so too)."""
    return bool(plan.wait.wait_for) and not plan.wait.skip_await


def _renders_yaml() -> bool:
    """Whether the default Kubernetes provider writes manifests to files instead of applying them
    (`kubernetes:renderYamlToDirectory`): there is no cluster to read a child back from, and a read
    would fail the update."""
    return bool(pulumi.Config("kubernetes").get("renderYamlToDirectory"))


def _with_env_secret(manifest: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A workload and, when env values are Outputs, the Secret registered beside it."""
    workload, secret = split_env_secrets(manifest, holds_output)
    return [workload] if secret is None else [workload, secret]


def _with_env_secret_digest(workload: Mapping[str, Any], secret: Mapping[str, Any]) -> dict[str, Any]:
    """The InferenceService annotated with the digest of its env Secret's content (`ENV_SECRET_DIGEST`).

    The values are Pulumi secrets; their digest is not one (it says whether they changed, not what
    they are), so the InferenceService's metadata stays reviewable in a preview.
    """
    digest = pulumi.Output.unsecret(
        pulumi.Output.from_input(secret.get("stringData") or {}).apply(env_secret_digest)
    )
    meta = dict(workload.get("metadata") or {})
    notes = {**(meta.get("annotations") or {}), ENV_SECRET_DIGEST: digest}
    meta["annotations"] = {key: notes[key] for key in sorted(notes)}
    return {**workload, "metadata": meta}


def _binding_key(ref: Any) -> str:
    return profile_key(ref.kind, ref.namespace, ref.name)


def _ref_for_key(key: str, catalog: Catalog) -> dict[str, Any]:
    """The `status.resolvedProfile` a binding key stands for (also for a profile since deleted)."""
    kind, namespace, name = parse_profile_key(key)
    entry = catalog.profile_entry(kind, namespace or None, name)
    if entry is not None:
        return entry.ref.as_dict()
    return {
        "kind": kind,
        "name": name,
        "namespace": namespace,
        "scope": "Namespace" if namespace else "Cluster",
    }


def _needs_binding(built: Built) -> bool:
    """Selector shapes need the sticky binding; any cached service needs its cache memory."""
    if built.plan.caches:
        return True
    if built.plan.pipeline != "profile":
        return False
    profile = (api.to_manifest(built.service).get("spec") or {}).get("profile") or {}
    return not (isinstance(profile, Mapping) and profile.get("name"))


class ServiceRecord(Enlisted):
    """What an AIMService declared, the phase the round has taken it to, and the work of each phase.

    `owner` is the component: the parent of the binding and of every child, and the resource the
    plan's diagnostics are logged against.
    """

    def __init__(
        self,
        owner: pulumi.ComponentResource,
        declaration: ServiceDeclaration,
        *,
        document: dict[str, Any],
        namespace: PendingNamespace,
        depends_on: list[Any],
        providers: list[pulumi.ProviderResource],
    ) -> None:
        self.status = Deferred()
        self.isvc_name = Deferred()
        super().__init__(declaration.site, namespace, [(self.status, dict), (self.isvc_name, str)])
        self.owner = owner
        self.name = declaration.name
        self.declaration = declaration
        # What the round learns changes these two: the namespace Output's value, what it waits for.
        self.document = document
        self.depends_on = depends_on
        # A Shared cache has no parent, so it is given the Kubernetes provider the children inherit.
        self.providers = providers
        self.phase: Phase = Declared()
        # What the capacity check says of the service (`capacity.py`), exported as `status.capacity`.
        self.capacity: Mapping[str, Any] = {}

    # ------------------------------------------------------------------ what the round reads

    @property
    def ref(self) -> str:
        metadata = self.document.get("metadata") or {}
        namespace = "?" if not self.namespace.known else metadata.get("namespace") or "default"
        return f"AIMService/{namespace}/{metadata.get('name')}"

    @property
    def hostnames(self) -> tuple[str, ...]:
        """The route's hostnames once the children are registered; none before."""
        return self.phase.hostnames if isinstance(self.phase, Registered) else ()

    def order_key(self) -> tuple[str, str, str]:
        metadata = self.document.get("metadata") or {}
        return (str(metadata.get("namespace") or ""), str(metadata.get("name") or ""), self.name)

    async def await_outputs(self) -> None:
        value = await self.namespace.settle()
        if value is None:
            return
        metadata = dict(self.document.get("metadata") or {})
        metadata["namespace"] = value
        self.document = {**self.document, "metadata": metadata}
        # The children wait for whatever produced the namespace (typically its Namespace).
        output = self.namespace.output
        assert output is not None
        self.depends_on = [*self.depends_on, *sorted(await output.resources(), key=id)]

    def unknown(self, output: pulumi.Output[Any]) -> None:
        pulumi.log.info(
            "a namespace is not known in this preview; the children are planned once it is",
            resource=self.owner,
        )
        super().unknown(output)

    def wait_for(self, resources: Sequence[pulumi.Resource]) -> None:
        """Make the children also wait for resources registered in the round (AIMStack's objects)."""
        self.depends_on = [*self.depends_on, *resources]

    def resolve_status(self, status: Any) -> None:
        self.status.resolve(status)

    @property
    def own_provider(self) -> bool:
        """Whether the children go through a Kubernetes provider the program gave (not the default)."""
        return bool(self.providers)

    def capacity_view(self) -> Judged | None:
        """The service as the capacity check judges it: the plan to deploy, else the first plan."""
        phase = self.phase
        built = phase.built if isinstance(phase, Decided | Registered) else None
        if built is None:
            planned = self._planned()
            built = planned.first if planned is not None else None
        if built is None:
            return None
        return Judged(self.ref, built.plan, self.owner, self.site)

    def with_capacity(self, status: Mapping[str, Any]) -> None:
        self.capacity = dict(status)

    def bound_anew(self) -> tuple[Judged, Catalog] | None:
        """The plan to deploy and the catalog, when the binding's check found no record of it."""
        phase = self.phase
        if not isinstance(phase, Decided) or not phase.new_binding:
            return None
        return Judged(self.ref, phase.built.plan, self.owner, self.site), self.declaration.catalog

    # ------------------------------------------------------------------ Declared -> Planned

    def _build(self, document: Any, previous_sizes: Mapping[str, int] | None = None) -> Built:
        service = api_io.parse(document, served_kinds(self.declaration.catalog.extension))
        assert isinstance(service, api.AIMServiceObject)
        # A service adopted from the operator keeps its cache names and running predictor (adopted.py).
        adopted = adopted_record(service.metadata.annotations)
        if previous_sizes is not None and adopted:
            planned = planned_cache_names(adopted)
            previous_sizes = {planned.get(k, k): v for k, v in previous_sizes.items()}
        plan = adopt_plan(
            observed_plan(
                service,
                self.declaration.catalog,
                self.declaration.settings,
                previous_cache_sizes=previous_sizes,
            ),
            adopted,
        )
        caches = tuple((c, build_cache_pvc(c), build_download_job(c)) for c in plan.caches)
        manifests = tuple(keep_adopted(build_service_manifests(plan), adopted))
        check_children(
            [*manifests, *(m for _, pvc, job in caches for m in (pvc, job))],
            service.object_ref,
            lambda: plan_sources(service, plan, self.declaration.catalog),
        )
        return Built(service, plan, manifests, caches)

    def prepare(self) -> None:
        first, masked = build_independent_of_outputs(self.document, self._build, Built.render)
        # The children also carry the runtime configs' env Outputs (merged into the container env).
        joined = current_registry().catalog_outputs.joined(masked)
        binds = _needs_binding(first)
        qualifying = (
            [_binding_key(r) for r in qualifying_profile_refs(first.service, self.declaration.catalog)]
            if binds and first.plan.resolved_profile is not None
            else []
        )
        self.phase = Planned(first, joined, binds, qualifying)
        self.isvc_name.resolve(first.plan.isvc_name)

    def _planned(self) -> Planned | None:
        phase = self.phase
        if isinstance(phase, Planned):
            return phase
        if isinstance(phase, Bound | Decided | Registered):
            return phase.planned
        return None

    def changed_by_later(self) -> bool:
        planned = self._planned()
        if planned is None:
            return False
        try:
            again, _ = build_independent_of_outputs(self.document, self._build, Built.render)
        except Exception:
            return True
        return bool(again.render() != planned.first.render())

    def declared_objects(self) -> list[tuple[tuple[str, ...] | None, dict[str, Any]]]:
        """The plan in hand's Kubernetes objects, its env Secrets included; a Shared cache's with its key."""
        phase = self.phase
        if isinstance(phase, Decided | Registered):
            built = phase.built
        else:
            planned = self._planned()
            if planned is None:
                return []
            built = planned.first
        objects: list[tuple[tuple[str, ...] | None, dict[str, Any]]] = []
        for manifest in built.manifests:
            objects += [(None, m) for m in _with_env_secret(manifest)]
        for cache, pvc, job in built.caches:
            key = cache.key if cache.mode == "Shared" else None
            objects += [(key, m) for m in (pvc, *_with_env_secret(job))]
        return objects

    # ------------------------------------------------------------------ Planned -> Bound

    def bind(self) -> pulumi.Output[list[Any]] | None:
        planned = self.phase
        if not isinstance(planned, Planned):
            raise self._out_of_order("Planned")
        if not planned.binds:
            return None
        first = planned.first
        winner = _binding_key(first.plan.resolved_profile) if first.plan.resolved_profile else ""
        self.phase = Bound(planned, winner)
        # A program of another language cannot run a Python dynamic resource (binding.py).
        kind = ProviderBinding if in_component_provider() else Binding
        binding = kind(
            f"{self.name}-binding",
            service=f"{first.plan.namespace}/{first.plan.name}",
            winner=winner,
            qualifying=planned.qualifying,
            force=self.declaration.force
            or bool((first.service.metadata.annotations or {}).get(FORCE_REBIND_ANNOTATION)),
            cache_mode=first.plan.caches[0].mode if first.plan.caches else "",
            cache_sizes={c.pvc_name: c.size_gi for c in first.plan.caches},
            opts=pulumi.ResourceOptions(parent=self.owner),
        )
        rebinding = settled_output(_noted(binding.rebinding))
        new_binding = settled_output(_noted(binding.new_binding))
        return gathered([binding.bound, binding.previous, binding.cache_sizes, rebinding, new_binding])

    # ------------------------------------------------------------------ Planned or Bound -> Decided

    def decide(self, state: list[Any] | None) -> None:
        phase = self.phase
        if state is not None and isinstance(phase, Bound):
            new_binding = len(state) > 4 and bool(state[4])
            self.phase = Decided(phase.planned, self._rebuilt(phase, state), new_binding)
            return
        if not isinstance(phase, Planned | Bound):
            raise self._out_of_order("Planned or Bound")
        planned = phase if isinstance(phase, Planned) else phase.planned
        self.phase = Decided(planned, planned.first)

    def _rebuilt(self, bound: Bound, state: list[Any]) -> Built:
        """The first plan unless the binding kept another profile or cache size; else planned from it."""
        first = bound.planned.first
        document = bound.planned.masked.value
        answer, sizes = str(state[0] or ""), {str(k): int(v) for k, v in dict(state[2] or {}).items()}
        # The last rebind stays on record; it is reported in the run that makes it only (`REBINDING_KEY`).
        previous = str(state[1] or "") if len(state) > 3 and state[3] else ""
        sizes_unchanged = all(sizes.get(c.pvc_name) == c.size_gi for c in first.plan.caches)
        if answer == bound.winner and not previous and sizes_unchanged:
            return first
        if not answer:
            return self._build(document, sizes)
        built: Built | None = None
        if previous:
            # Planning from the previous binding reports the rebind (old, new, reason) itself.
            candidate = self._build(
                _with_previous_profile(document, _ref_for_key(previous, self.declaration.catalog)), sizes
            )
            if (
                candidate.plan.resolved_profile is not None
                and _binding_key(candidate.plan.resolved_profile) == answer
            ):
                built = candidate
        if built is None:
            built = self._build(
                _with_previous_profile(document, _ref_for_key(answer, self.declaration.catalog)), sizes
            )
            if previous and previous != answer:
                pulumi.log.info(
                    f'ProfileRebound: rebound from "{parse_profile_key(previous)[2]}" to '
                    f'"{parse_profile_key(answer)[2]}"',
                    resource=self.owner,
                )
        return built

    # ------------------------------------------------------------------ Decided -> Registered

    def record_caches(self) -> None:
        decided = self._decided()
        first = decided.planned.first
        current_registry().use_shared_caches(
            (first.plan.namespace, first.plan.name),
            [c for c, _, _ in decided.built.caches if c.mode == "Shared"],
            decided.planned.masked,
        )

    def register(self) -> Any:
        """Log the plan's diagnostics, register its children and return the status to export."""
        decided = self._decided()
        built, masked = decided.built, decided.planned.masked
        plan = built.plan
        self._log_diagnostics(plan)
        shared = [f"{c.namespace}/{c.pvc_name}" for c in plan.caches if c.mode == "Shared"]
        note_namespaces(self.depends_on, shared)
        cache_dependencies, download_jobs = self._register_caches(built, masked)
        observed = self._register_workloads(built, masked, cache_dependencies)
        self.phase = Registered(
            decided.planned, built, plan.route.hostnames if plan.route is not None else ()
        )
        planned_status = dict(plan.status)
        if self.capacity:
            planned_status["capacity"] = dict(self.capacity)
        return settled_output(
            _observed_status(
                restore_outputs(planned_status, masked),
                runtime=observed.get("InferenceService"),
                caches=download_jobs,
                route=self._observations(observed, "HTTPRoute", _isvc_awaited(plan)),
                autoscaler=self._observations(observed, "ScaledObject", _isvc_awaited(plan)),
            )
        )

    def _decided(self) -> Decided:
        if not isinstance(self.phase, Decided):
            raise self._out_of_order("Decided")
        return self.phase

    def _log_diagnostics(self, plan: ServicePlan) -> None:
        for diagnostic in plan.diagnostics:
            message = f"{diagnostic.reason}: {redact(diagnostic.message)}"
            if diagnostic.level == "warn":
                pulumi.log.warn(message, resource=self.owner)
            else:
                pulumi.log.info(message, resource=self.owner)
        if not pulumi.runtime.is_dry_run():
            # Said before the waits: when one times out, the provider's error names only the child.
            for waited in _awaited_children(plan):
                pulumi.log.info(waited, resource=self.owner)

    def _child_options(self, *dependencies: Any) -> pulumi.ResourceOptions:
        """Children are parented here and also wait for what the service itself was told to wait for."""
        return pulumi.ResourceOptions(parent=self.owner, depends_on=[*self.depends_on, *dependencies])

    def _register_caches(
        self, built: Built, masked: MaskedArgs
    ) -> tuple[list[pulumi.Resource], list[pulumi.CustomResource]]:
        """Dedicated caches as children, Shared ones once per stack; what the workload may wait for."""
        cache_opts = pulumi.ResourceOptions(providers=self.providers, depends_on=list(self.depends_on))
        cache_dependencies: list[pulumi.Resource] = []
        download_jobs: list[pulumi.CustomResource] = []
        for cache, pvc_manifest, job_manifest in built.caches:
            if cache.mode == "Shared":
                shared = AIMSharedCache.declare(cache, masked=masked, opts=cache_opts)
                cache_dependencies.append(shared)
                download_jobs.append(shared.job)
                continue
            suffix = hash_suffix(cache.pvc_name)
            pvc = register_child(
                f"{self.name}-cache-{suffix}",
                restore_outputs(pvc_manifest, masked, secrets=False, owner=self.ref),
                self._child_options(),
            )
            warn_if_kept_at_creation(pvc, pvc_manifest, cache.job_name, self.owner)
            job_manifest, job_secret = split_env_secrets(job_manifest, holds_output)
            job_waits: list[pulumi.Resource] = [pvc]
            if job_secret is not None:
                job_waits.append(
                    register_child(
                        f"{self.name}-download-{suffix}-env",
                        restore_outputs(job_secret, masked),
                        self._child_options(),
                    )
                )
            job = register_child(
                f"{self.name}-download-{suffix}",
                restore_outputs(job_manifest, masked, secrets=False, owner=self.ref),
                self._child_options(*job_waits),
            )
            cache_dependencies.extend([pvc, job])
            download_jobs.append(job)
        return cache_dependencies, download_jobs

    def _register_workloads(
        self, built: Built, masked: MaskedArgs, cache_dependencies: Sequence[pulumi.Resource]
    ) -> dict[str, pulumi.CustomResource]:
        """The profile ConfigMap first, then the InferenceService, HTTPRoute and ScaledObject."""
        by_kind = {str(m.get("kind")): m for m in built.manifests}
        config_map = None
        if "ConfigMap" in by_kind:
            config_map = register_child(
                f"{self.name}-{_ROLES['ConfigMap']}",
                restore_outputs(by_kind["ConfigMap"], masked, secrets=False, owner=self.ref),
                self._child_options(),
            )
        isvc_dependencies: list[pulumi.Resource] = [config_map] if config_map is not None else []
        if self.declaration.wait_for_cache and not built.plan.wait.skip_await:
            isvc_dependencies.extend(cache_dependencies)
        observed: dict[str, pulumi.CustomResource] = {}
        for manifest in built.manifests:
            kind = str(manifest.get("kind"))
            if kind == "ConfigMap":
                continue
            role = _ROLES.get(kind)
            if role is None:
                raise ValueError(f"{self.name}: the plan produced an unexpected {kind}")
            waits: list[pulumi.Resource] = []
            if kind == "InferenceService":
                # Deploy-time env values live in a Secret beside it, so the spec stays reviewable.
                manifest, env_secret = split_env_secrets(manifest, holds_output)
                waits = list(isvc_dependencies)
                if env_secret is not None:
                    secret = restore_outputs(env_secret, masked)
                    waits.append(register_child(f"{self.name}-{role}-env", secret, self._child_options()))
                    restored = _with_env_secret_digest(
                        restore_outputs(manifest, masked, secrets=False, owner=self.ref), secret
                    )
                    observed[kind] = register_child(
                        f"{self.name}-{role}", restored, self._child_options(*waits)
                    )
                    continue
            observed[kind] = register_child(
                f"{self.name}-{role}",
                restore_outputs(manifest, masked, secrets=False, owner=self.ref),
                self._child_options(*waits),
            )
        return observed

    def _observations(
        self, observed: Mapping[str, pulumi.CustomResource], kind: str, awaited: bool
    ) -> list[Any]:
        """Where the status of child `kind` is read: its read-back first, unless the stack turns it
        off (`aim:readBackStatus: false`), and only after an InferenceService Pulumi awaits
        (without the wait a read finds what the child's own apply found, and a later refresh would
        report the controller's answer as a change of the read), then the child itself."""
        reads = self.declaration.settings.read_back_status and awaited
        back = self._read_back(observed, kind) if reads else None
        return [r for r in (back, observed.get(kind)) if r is not None]

    def _read_back(self, observed: Mapping[str, pulumi.CustomResource], kind: str) -> Any:
        """The child `kind` (HTTPRoute, ScaledObject) read back once the InferenceService is ready.

        Pulumi waits for neither (a gateway or KEDA may never answer), and the provider reads their
        status only when it creates, updates or refreshes them, a moment before their controller
        has seen them at creation; by the time the InferenceService has become Ready (minutes: the
        predictor pulls its image and loads the model), a gateway has long accepted or refused the
        route and KEDA has long validated the ScaledObject. So a read of each waits for the
        InferenceService and reports what the controller wrote: the status of a successful `up`
        says whether they are ready, without a second run.

        The program reads it (`status_read.ProgramRead`: one GET, nothing in the state, no step)
        from the default provider's cluster. Where the program cannot know the cluster (an explicit
        provider, no kubeconfig) a Pulumi read does (`read_child`), whose price `aim:readBackStatus:
        false` spares a large stack: one more resource in the state and a `read` step of every
        update, preview and refresh, for which the engine writes the whole state twice. Without the
        reads the status says what the child's own apply and `pulumi up --refresh` read. A stack
        that stops making Pulumi reads discards them from its state (nothing in the cluster changes).
        """
        child = observed.get(kind)
        if not isinstance(child, ObservedCustomResource) or _renders_yaml():
            return None
        waits: list[pulumi.CustomResource] = [child]
        if "InferenceService" in observed:
            waits.append(observed["InferenceService"])
        reader = program_status_reader(self.own_provider)
        if reader is not None:
            return ProgramRead(
                reader, child.api_version_of, child.kind_of, child, after=waits, warn_on=self.owner
            )
        return read_child(
            f"{self.name}-{_ROLES[kind]}-status",
            child,
            pulumi.ResourceOptions(parent=self.owner, depends_on=list(waits)),
        )

    def _out_of_order(self, expected: str) -> RuntimeError:
        """The round moves every service through the phases in order; anything else is a bug."""
        return RuntimeError(f"{self.ref}: {expected} expected, found {type(self.phase).__name__}")
