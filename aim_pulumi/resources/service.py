"""AIMService: the operator's reconcile loop, run once per `pulumi preview` / `pulumi up`.

The constructor only records the service; the program's resolution round (`program.py`) plans it
against the complete catalog together with every other service, and only when all of them plan
does it register any child, so a hard error (admission, missing runtime config,
`ProfileNotFound`, ...) leaves nothing half-declared. The children the plan describes are
named `<name>-<role>` with the service as parent: the InferenceService (`isvc`), the
profile ConfigMap (`profile-config`), the HTTPRoute (`route`), the KEDA ScaledObject
(`scaledobject`), Dedicated caches (`cache-<h>`, `download-<h>`); Shared caches are stack-owned
`AIMSharedCache` components the InferenceService depends on. Env values that are Pulumi Outputs
go into a Secret beside their workload (`isvc-env`, `download-<h>-env`), referenced by
`secretKeyRef`, so the workload itself never holds them and stays reviewable in a preview.

A service resolved through a selector keeps its profile across runs through `<name>-binding`
(see `binding.py`); the children are then built inside one `apply` of the bindings' outputs,
from the bound profile. The binding's value comes from its provider's `check`, which runs in
preview too, so a preview shows every child with its full inputs.
"""

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, Unpack, overload

import pulumi

from aim_pulumi import api
from aim_pulumi.manifests import build_cache_pvc, build_download_job, build_service_manifests
from aim_pulumi.manifests._common import plain
from aim_pulumi.manifests.adopted import adopt_plan, adopted_record, keep_adopted, planned_cache_names
from aim_pulumi.manifests.child_admission import check_children
from aim_pulumi.manifests.env_secret import split_env_secrets
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.children.names import hash_suffix
from aim_pulumi.resolve.objects import FORCE_REBIND_ANNOTATION
from aim_pulumi.resolve.plan.result import ServicePlan
from aim_pulumi.resolve.selection.select import qualifying_profile_refs
from aim_pulumi.resolve.settings import Settings
from aim_pulumi.resolve.types import CachePlan
from aim_pulumi.resources.binding import Binding, ProviderBinding, parse_profile_key, profile_key
from aim_pulumi.resources.catalog_component import default_resource_name, object_manifest
from aim_pulumi.resources.children import inherited_dependencies, register_child
from aim_pulumi.resources.constructors import plain_args, schema_args
from aim_pulumi.resources.inputs import AIMServiceArgs, AIMServiceArgsDict, AIMServiceKwargs
from aim_pulumi.resources.outputs import gathered, is_output_like, settled_output
from aim_pulumi.resources.program import Deferred, claim_name, declaration_site, enlist, known_namespace
from aim_pulumi.resources.registry import current_registry, in_component_provider
from aim_pulumi.resources.resolutions import observed_plan
from aim_pulumi.resources.secrets import (
    OUTPUT_NOT_ALLOWED,
    MaskedArgs,
    build_independent_of_outputs,
    holds_output,
    redact,
    restore_outputs,
)
from aim_pulumi.resources.service_status import observed_status, plan_sources, route_endpoint
from aim_pulumi.resources.shared_cache import AIMSharedCache
from aim_pulumi.resources.statuses import AIMServiceStatus, ResolvedObjectRef

__all__ = [
    "AIMService",
    "AIMServiceArgs",
    "AIMServiceArgsDict",
    "settings_overrides",
]


# Pulumi role of each service-owned child (behaviour §14).
_ROLES: Mapping[str, str] = {
    "InferenceService": "isvc",
    "ConfigMap": "profile-config",
    "HTTPRoute": "route",
    "ScaledObject": "scaledobject",
}
# Component options that are deploy-time settings (camelCase argument -> Settings attribute).
_SETTING_OPTIONS: Mapping[str, str] = {
    "strict": "strict",
    "skipAwait": "skip_await",
    "waitFor": "wait_for",
    "gatewayProvider": "gateway_provider",
}
_COMPONENT_OPTIONS = (*_SETTING_OPTIONS, "forceRebind", "waitForCache")
# Any Kubernetes type token: what `get_provider` needs to find the service's Kubernetes provider.
_KUBERNETES_TYPE = "kubernetes:core/v1:PersistentVolumeClaim"


@dataclasses.dataclass(frozen=True)
class _Built:
    """One planning pass: the typed service, its plan and every manifest the plan yields."""

    service: api.AIMService
    plan: ServicePlan
    manifests: tuple[dict[str, Any], ...]
    caches: tuple[tuple[CachePlan, dict[str, Any], dict[str, Any]], ...]

    def render(self) -> Any:
        return [list(self.manifests), [[p, j] for _, p, j in self.caches], dict(self.plan.status)]


def _plain_option(args: Mapping[str, Any], key: str) -> Any:
    value = args.get(key)
    if isinstance(value, pulumi.Output):
        raise api.AIMValidationError(
            key, OUTPUT_NOT_ALLOWED, f"the {key} option decides what gets deployed and must be a plain value"
        )
    return value


def settings_overrides(args: Mapping[str, Any]) -> dict[str, Any]:
    """The Settings fields the component options (`strict`, `skipAwait`, ...) override."""
    overrides: dict[str, Any] = {}
    for key, attribute in _SETTING_OPTIONS.items():
        if key in args:
            value = _plain_option(args, key)
            if key == "waitFor" and value == "":
                value = None
            overrides[attribute] = value
    return overrides


def _with_annotation(document: Mapping[str, Any], key: str, value: str) -> dict[str, Any]:
    out = dict(document)
    metadata = dict(out.get("metadata") or {})
    annotations = dict(metadata.get("annotations") or {})
    annotations[key] = value
    metadata["annotations"] = annotations
    out["metadata"] = metadata
    return out


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
    if plan.wait.wait_for and not plan.wait.skip_await:
        lines.append(
            f"{service}: waiting up to {plan.wait.timeout_seconds} s for InferenceService {plan.isvc_name} "
            f"to report {plan.wait.wait_for} (aim:waitFor, aim:readyTimeoutSeconds)"
        )
    return lines


async def _reported(resource: pulumi.Resource | None) -> Any:
    """A child's `status` as the engine observed it; None where unknown (a preview's new child)."""
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
    route: pulumi.Resource | None,
) -> dict[str, Any]:
    """The status to export: the plan's, updated with what the children report (`observed_status`).

    `planned` may hold Outputs (restored env or label values); `observed_status` touches only the
    conditions and the rollup, so they pass through to `settled_output`, which awaits them.
    """
    reports = [await _reported(job) for job in caches]
    return observed_status(
        planned, runtime=await _reported(runtime), caches=reports, route=await _reported(route)
    )


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


class AIMService(pulumi.ComponentResource):
    """An AIM inference service: resolves a profile and deploys KServe, Gateway API, KEDA and caches."""

    # The outputs. The component provider's schema lists these annotations, so they are class
    # attributes rather than properties; each is settled by the program's resolution round.
    status: pulumi.Output[AIMServiceStatus]
    """The AIMService status as known at deploy time: resolvedProfile, conditions, routing, ..."""
    resolved_profile: pulumi.Output[ResolvedObjectRef]
    """status.resolvedProfile: kind, name, namespace, scope and uid of the bound profile."""
    inference_service_name: pulumi.Output[str]
    """Name of the KServe InferenceService."""
    route_path: pulumi.Output[str | None]
    """The HTTPRoute path prefix, when routing is enabled and the path rendered."""
    endpoint: pulumi.Output[str | None]
    """`<host><path>` a client calls: the route's first non-wildcard hostname, else the path alone."""
    # Without a hostname the host is the Gateway's address, and the scheme always its listener's
    # protocol: the cluster knows them, the program does not read the Gateway. None without a route.

    _aim_is_service = True

    # Constructor overloads, written by scripts/generate_types.py: run it after changing one.
    @overload
    def __init__(
        self,
        resource_name: str,
        args: AIMServiceArgsDict,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
        _object: api.AIMService | None = None,
    ) -> None: ...

    @overload
    def __init__(
        self,
        resource_name: str,
        args: AIMServiceArgs,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
    ) -> None: ...

    @overload
    def __init__(
        self,
        resource_name: str,
        *,
        opts: pulumi.ResourceOptions | None = None,
        catalog: Catalog | None = None,
        **kwargs: Unpack[AIMServiceKwargs],
    ) -> None: ...

    # End of the generated constructor overloads.

    @schema_args(AIMServiceArgsDict)
    def __init__(
        self,
        resource_name: str,
        args: AIMServiceArgsDict | AIMServiceArgs | None = None,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
        _object: api.AIMService | None = None,
        **kwargs: Any,
    ) -> None:
        name = resource_name
        site = declaration_site()
        options: Mapping[str, Any] = plain_args("AIMService", args, kwargs, AIMServiceArgs)
        registry = current_registry()
        settings: Settings = registry.settings.with_overrides(**settings_overrides(options))
        force = bool(_plain_option(options, "forceRebind"))
        wait_for_cache = _plain_option(options, "waitForCache") is not False
        namespace_output: pulumi.Output[Any] | None = None
        if _object is not None:
            document: dict[str, Any] = api.to_manifest(_object)
        else:
            crd_args = {k: v for k, v in options.items() if k not in _COMPONENT_OPTIONS}
            if is_output_like(crd_args.get("namespace")):
                # Where the service goes decides what it sees; the round waits for the value.
                namespace_output = pulumi.Output.from_input(crd_args.pop("namespace"))
            document = object_manifest(api.AIMService, name, crd_args)
        if force:
            document = _with_annotation(document, FORCE_REBIND_ANNOTATION, "true")

        claim_name("aim:index:AIMService", name, opts, site)
        super().__init__("aim:index:AIMService", name, None, opts)
        self._aim_name = name
        self._aim_site = site
        self._aim_document = document
        self._aim_settings = settings
        self._aim_catalog: Catalog = catalog if catalog is not None else registry.catalog
        self._aim_force = force
        self._aim_wait_for_cache = wait_for_cache
        self._aim_namespace_output = namespace_output
        self._aim_namespace_known = True
        self._aim_depends_on = inherited_dependencies(opts)
        # A Shared cache has no parent, so it cannot inherit the Kubernetes provider the way this
        # service's children do (from opts or from this service's own parents): it is given it.
        kubernetes = self.get_provider(_KUBERNETES_TYPE)
        self._aim_providers = [kubernetes] if kubernetes is not None else []
        self._aim_status = Deferred()
        self._aim_isvc_name = Deferred()
        self.status = self._aim_status.output
        self.inference_service_name = self._aim_isvc_name.output
        self.resolved_profile = self.status.apply(
            lambda s: ResolvedObjectRef(**((s or {}).get("resolvedProfile") or {}))
        )
        self.route_path = self.status.apply(lambda s: ((s or {}).get("routing") or {}).get("path"))
        self._aim_hostnames: tuple[str, ...] = ()
        self.endpoint = self.route_path.apply(lambda path: route_endpoint(self._aim_hostnames, path))
        self.register_outputs(
            {
                "status": self.status,
                "resolvedProfile": self.resolved_profile,
                "inferenceServiceName": self.inference_service_name,
                "routePath": self.route_path,
                "endpoint": self.endpoint,
            }
        )
        enlist(self)

    @classmethod
    def from_object(
        cls,
        obj: api.AIMService,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> "AIMService":
        """Declare a typed AIMService (v1alpha2 or legacy v1alpha1); named `<namespace>-<name>`.

        `options` takes the component-only options (`strict`, `skipAwait`, ...). A `status` on the
        object (`resolvedProfile` of an operator-managed service) seeds the sticky binding.
        """
        args: Any = dict(options or {})
        return cls(default_resource_name(obj), args, opts, catalog=catalog, _object=obj)

    # ------------------------------------------------------------------ the program round (program.py)

    @property
    def _aim_ref(self) -> str:
        metadata = self._aim_document.get("metadata") or {}
        namespace = "?" if not self._aim_namespace_known else metadata.get("namespace") or "default"
        return f"AIMService/{namespace}/{metadata.get('name')}"

    def _aim_order_key(self) -> tuple[str, str, str]:
        metadata = self._aim_document.get("metadata") or {}
        return (str(metadata.get("namespace") or ""), str(metadata.get("name") or ""), self._aim_name)

    def _aim_waits_for_outputs(self) -> bool:
        return self._aim_namespace_output is not None

    async def _aim_await_outputs(self) -> None:
        output = self._aim_namespace_output
        if output is None:
            return
        value = await known_namespace(output)
        if value is None:
            self._aim_namespace_known = False
            return
        metadata = dict(self._aim_document.get("metadata") or {})
        metadata["namespace"] = value
        self._aim_document = {**self._aim_document, "metadata": metadata}
        # The children wait for whatever produced the namespace (typically its Namespace).
        self._aim_depends_on = [*self._aim_depends_on, *sorted(await output.resources(), key=id)]

    def _aim_known(self) -> bool:
        return self._aim_namespace_known

    def _aim_unknown(self, output: pulumi.Output[Any]) -> None:
        """A preview that does not know a namespace yet: outputs and children are unknown."""
        pulumi.log.info(
            "a namespace is not known in this preview; the children are planned once it is", resource=self
        )
        self._aim_status.resolve(output.apply(lambda _: {}))
        self._aim_isvc_name.resolve(output.apply(lambda _: ""))

    def _build(self, document: Any, previous_sizes: Mapping[str, int] | None = None) -> _Built:
        service = api.parse(document)
        assert isinstance(service, api.AIMService)
        # A service adopted from the operator keeps its cache names and running predictor (adopted.py).
        adopted = adopted_record(service.metadata.annotations)
        if previous_sizes is not None and adopted:
            planned = planned_cache_names(adopted)
            previous_sizes = {planned.get(k, k): v for k, v in previous_sizes.items()}
        plan = adopt_plan(
            observed_plan(
                service, self._aim_catalog, self._aim_settings, previous_cache_sizes=previous_sizes
            ),
            adopted,
        )
        caches = tuple((c, build_cache_pvc(c), build_download_job(c)) for c in plan.caches)
        manifests = tuple(keep_adopted(build_service_manifests(plan), adopted))
        check_children(
            [*manifests, *(m for _, pvc, job in caches for m in (pvc, job))],
            service.object_ref,
            lambda: plan_sources(service, plan, self._aim_catalog),
        )
        return _Built(service, plan, manifests, caches)

    def _aim_prepare(self) -> None:
        """Plan against the complete catalog; raises what the operator would report as failed."""
        first, masked = build_independent_of_outputs(self._aim_document, self._build, _Built.render)
        self._aim_first = first
        # The children also carry the runtime configs' env Outputs (merged into the container env).
        self._aim_masked = current_registry().catalog_outputs.joined(masked)
        self._aim_user = (first.plan.namespace, first.plan.name)
        self._aim_uses_binding = self._needs_binding(first)
        self._aim_qualifying = (
            [_binding_key(r) for r in qualifying_profile_refs(first.service, self._aim_catalog)]
            if self._aim_uses_binding and first.plan.resolved_profile is not None
            else []
        )
        self._aim_isvc_name.resolve(first.plan.isvc_name)

    def _aim_changed_by_later(self) -> bool:
        """Whether the catalog as it is now plans this service differently from its round."""
        first = getattr(self, "_aim_first", None)
        if first is None:
            return False
        try:
            again, _ = build_independent_of_outputs(self._aim_document, self._build, _Built.render)
        except Exception:
            return True
        return bool(again.render() != first.render())

    def _aim_bind(self) -> pulumi.Output[list[Any]] | None:
        """Register the sticky binding (selector shapes and cached services); None when not needed."""
        if not self._aim_uses_binding:
            return None
        first = self._aim_first
        self._aim_winner = _binding_key(first.plan.resolved_profile) if first.plan.resolved_profile else ""
        # A program of another language cannot run a Python dynamic resource (binding.py).
        kind = ProviderBinding if in_component_provider() else Binding
        binding = kind(
            f"{self._aim_name}-binding",
            service=f"{first.plan.namespace}/{first.plan.name}",
            winner=self._aim_winner,
            qualifying=self._aim_qualifying,
            force=self._aim_force
            or bool((first.service.metadata.annotations or {}).get(FORCE_REBIND_ANNOTATION)),
            cache_mode=first.plan.caches[0].mode if first.plan.caches else "",
            cache_sizes={c.pvc_name: c.size_gi for c in first.plan.caches},
            opts=pulumi.ResourceOptions(parent=self),
        )
        return gathered([binding.bound, binding.previous, binding.cache_sizes])

    def _aim_final(self, state: list[Any] | None) -> _Built:
        """The plan to deploy: the first one, or one rebuilt from the profile the binding settled on."""
        first = self._aim_first
        if state is None:
            return first
        document = self._aim_masked.value
        bound, previous = str(state[0] or ""), str(state[1] or "")
        sizes = {str(k): int(v) for k, v in dict(state[2] or {}).items()}
        sizes_unchanged = all(sizes.get(c.pvc_name) == c.size_gi for c in first.plan.caches)
        if bound == self._aim_winner and not previous and sizes_unchanged:
            return first
        if not bound:
            return self._build(document, sizes)
        built: _Built | None = None
        if previous:
            # Planning from the previous binding reports the rebind (old, new, reason) itself.
            candidate = self._build(
                _with_previous_profile(document, _ref_for_key(previous, self._aim_catalog)), sizes
            )
            if (
                candidate.plan.resolved_profile is not None
                and _binding_key(candidate.plan.resolved_profile) == bound
            ):
                built = candidate
        if built is None:
            built = self._build(
                _with_previous_profile(document, _ref_for_key(bound, self._aim_catalog)), sizes
            )
            if previous and previous != bound:
                pulumi.log.info(
                    f'ProfileRebound: rebound from "{parse_profile_key(previous)[2]}" to '
                    f'"{parse_profile_key(bound)[2]}"',
                    resource=self,
                )
        return built

    def _aim_record_caches(self, built: _Built) -> None:
        current_registry().use_shared_caches(
            self._aim_user, [c for c, _, _ in built.caches if c.mode == "Shared"], self._aim_masked
        )

    def _aim_wait_for(self, resources: Sequence[pulumi.Resource]) -> None:
        """Make the children also wait for resources registered in the round (AIMStack's objects)."""
        self._aim_depends_on = [*self._aim_depends_on, *resources]

    def _aim_resolve_status(self, status: Any) -> None:
        self._aim_status.resolve(status)

    def _aim_fail(self, error: BaseException) -> None:
        self._aim_status.fail(error)
        self._aim_isvc_name.fail(error)

    # ------------------------------------------------------------------------------- internals

    @staticmethod
    def _needs_binding(built: _Built) -> bool:
        """Selector shapes need the sticky binding; any cached service needs its cache memory."""
        if built.plan.caches:
            return True
        if built.plan.pipeline != "profile":
            return False
        profile = (api.to_manifest(built.service).get("spec") or {}).get("profile") or {}
        return not (isinstance(profile, Mapping) and profile.get("name"))

    def _child_options(self, *dependencies: Any) -> pulumi.ResourceOptions:
        """Children are parented here and also wait for what the service itself was told to wait for."""
        return pulumi.ResourceOptions(parent=self, depends_on=[*self._aim_depends_on, *dependencies])

    def _aim_register(self, built: _Built) -> Any:
        """Log the plan's diagnostics, register its children and return the status to export."""
        plan = built.plan
        # Read by `endpoint`, which follows the status this call returns.
        self._aim_hostnames = plan.route.hostnames if plan.route is not None else ()
        for diagnostic in plan.diagnostics:
            message = f"{diagnostic.reason}: {redact(diagnostic.message)}"
            if diagnostic.level == "warn":
                pulumi.log.warn(message, resource=self)
            else:
                pulumi.log.info(message, resource=self)
        masked: MaskedArgs = self._aim_masked
        await_caches = self._aim_wait_for_cache and not plan.wait.skip_await
        if not pulumi.runtime.is_dry_run():
            # Said before the waits: when one times out, the provider's error names only the child.
            for waited in _awaited_children(plan):
                pulumi.log.info(waited, resource=self)
        cache_opts = pulumi.ResourceOptions(
            providers=self._aim_providers, depends_on=list(self._aim_depends_on)
        )
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
                f"{self._aim_name}-cache-{suffix}",
                restore_outputs(pvc_manifest, masked, secrets=False, owner=self._aim_ref),
                self._child_options(),
            )
            job_manifest, job_secret = split_env_secrets(job_manifest, holds_output)
            job_waits: list[pulumi.Resource] = [pvc]
            if job_secret is not None:
                job_waits.append(
                    register_child(
                        f"{self._aim_name}-download-{suffix}-env",
                        restore_outputs(job_secret, masked),
                        self._child_options(),
                    )
                )
            job = register_child(
                f"{self._aim_name}-download-{suffix}",
                restore_outputs(job_manifest, masked, secrets=False, owner=self._aim_ref),
                self._child_options(*job_waits),
            )
            cache_dependencies.extend([pvc, job])
            download_jobs.append(job)
        by_kind = {str(m.get("kind")): m for m in built.manifests}
        config_map = None
        if "ConfigMap" in by_kind:
            config_map = register_child(
                f"{self._aim_name}-{_ROLES['ConfigMap']}",
                restore_outputs(by_kind["ConfigMap"], masked, secrets=False, owner=self._aim_ref),
                self._child_options(),
            )
        isvc_dependencies: list[pulumi.Resource] = [config_map] if config_map is not None else []
        if await_caches:
            isvc_dependencies.extend(cache_dependencies)
        observed: dict[str, pulumi.CustomResource] = {}
        for manifest in built.manifests:
            kind = str(manifest.get("kind"))
            if kind == "ConfigMap":
                continue
            role = _ROLES.get(kind)
            if role is None:
                raise ValueError(f"{self._aim_name}: the plan produced an unexpected {kind}")
            waits: list[pulumi.Resource] = []
            if kind == "InferenceService":
                # Deploy-time env values live in a Secret beside it, so the spec stays reviewable.
                manifest, env_secret = split_env_secrets(manifest, holds_output)
                waits = list(isvc_dependencies)
                if env_secret is not None:
                    waits.append(
                        register_child(
                            f"{self._aim_name}-{role}-env",
                            restore_outputs(env_secret, masked),
                            self._child_options(),
                        )
                    )
            observed[kind] = register_child(
                f"{self._aim_name}-{role}",
                restore_outputs(manifest, masked, secrets=False, owner=self._aim_ref),
                self._child_options(*waits),
            )
        return settled_output(
            _observed_status(
                restore_outputs(dict(plan.status), masked),
                runtime=observed.get("InferenceService"),
                caches=download_jobs,
                route=observed.get("HTTPRoute"),
            )
        )
