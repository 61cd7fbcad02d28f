"""AIMSharedCache: one Shared model cache (PVC + download Job), owned by the stack, not a service.

A Shared cache serves every service in its namespace that deploys the same profile from the same
source (behaviour §12). Making it a child of the first service that needs it would delete weights
other services mount when that one service is removed, so it is its own component with no
parent, registered once per stack under `<namespace>-<PVC name>` (DESIGN decision 7), and its PVC
and download Job are `retain_on_delete`: even when the last service goes, the downloaded weights
(and the Job that says they are complete) stay in the cluster. Several stacks may declare the same
Shared cache (two teams, one namespace, one model): each applies it forced (`cache.py`), so they
co-own what they agree on, and none deletes it when it is destroyed. Each stack applies the PVC and
the Job under a field manager named after it (`stack_field_manager`): the `managedFields` of a cache
then say which stacks hold a share, a destroyed one included, whose share docs/cluster.md releases.
"""

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any

import pulumi

from aim_pulumi.manifests import build_cache_pvc, build_download_job
from aim_pulumi.manifests._common import PATCH_FIELD_MANAGER, stack_field_manager, with_field_manager
from aim_pulumi.manifests.env_secret import split_env_secrets
from aim_pulumi.resolve.types import CachePlan
from aim_pulumi.resources import levers
from aim_pulumi.resources.children import inherited_dependencies, register_child, warn_if_kept_at_creation
from aim_pulumi.resources.registry import current_registry
from aim_pulumi.resources.secrets import MaskedArgs, holds_output, mask_outputs, restore_outputs

__all__ = [
    "AIMSharedCache",
    "declare_prewarmed_caches",
    "shared_cache_name",
    "shared_plan",
    "with_users_labels",
]


MANAGER_FIXED_AT_CREATION = f'metadata.annotations["{PATCH_FIELD_MANAGER}"]'
"""A Shared cache PVC keeps the field manager of its creation (its Job keeps all its metadata).

When the manager of an object changes, pulumi-kubernetes applies under the new one and then
releases the old one's fields; the new one leaves out what `ignoreChanges` keeps (the access
modes), so the release removed them, which Kubernetes refuses for a PVC, and the `up` failed. A
PVC created before stacks named their managers (or by a stack since renamed) keeps its first."""


def shared_cache_name(cache: CachePlan) -> str:
    """The component's Pulumi name: `<namespace>-<PVC name>` (unique per stack, like the PVC)."""
    return f"{cache.namespace}-{cache.pvc_name}"


def _first_value_wins(label_sets: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for labels in label_sets:
        for key, value in labels.items():
            merged.setdefault(key, value)
    return dict(sorted(merged.items()))


def with_users_labels(
    cache: CachePlan, users: Mapping[tuple[str, str], tuple[CachePlan, MaskedArgs]]
) -> tuple[CachePlan, MaskedArgs]:
    """The cache labelled for every service using it, and the Outputs its labels carry.

    Each user's plan of the cache holds the standard labels plus what that one service
    propagates (resolved with the cache's runtime config); behaviour §11 gives the cache those of
    every user in (namespace, name) order, the first value of a key winning. Labels are all a
    Shared cache takes from its services, so the Outputs among them are all it needs restored.
    """
    ordered = [users[user] for user in sorted(users)]
    labels = {
        kind: _first_value_wins(
            restore_outputs(dict(getattr(plan, attr)), masked) for plan, masked in ordered
        )
        for kind, attr in (("pvc", "pvc_labels"), ("job", "job_labels"))
    }
    relabelled = mask_outputs(labels)
    plan = dataclasses.replace(cache, pvc_labels=relabelled.value["pvc"], job_labels=relabelled.value["job"])
    return plan, relabelled


def shared_plan(users: Mapping[tuple[str, str], tuple[CachePlan, MaskedArgs]]) -> CachePlan:
    """The plan the cache is built from, whichever service happens to declare it first.

    Every user plans the same cache but for its labels (merged by `with_users_labels`) and, for a
    service adopted from the operator, what the live PVC and Job keep: the first user in
    (namespace, name) order gives the plan, and the first that adopted the cache what it keeps, so
    the cache never depends on the order in which the services' registrations run.
    """
    plans = [users[user][0] for user in sorted(users)]
    adopted = next((plan.adopted for plan in plans if plan.adopted), plans[0].adopted)
    return dataclasses.replace(plans[0], adopted=adopted)


class AIMSharedCache(pulumi.ComponentResource):
    """A Shared cache PVC and the Job that fills it; services depend on it, none owns it."""

    pvc_name: pulumi.Output[str]
    """Name of the PersistentVolumeClaim holding the weights."""
    job_name: pulumi.Output[str]
    """Name of the download Job."""
    size_gi: pulumi.Output[int]
    """Requested size of the PVC in GiB."""

    def __init__(
        self,
        name: str,
        cache: CachePlan,
        opts: pulumi.ResourceOptions | None = None,
        *,
        masked: MaskedArgs | None = None,
    ) -> None:
        super().__init__("aim:index:AIMSharedCache", name, None, opts)
        # The Job's env may carry a runtime config's env Outputs: they go into a Secret beside it.
        own = masked if masked is not None else mask_outputs({})
        outputs = current_registry().catalog_outputs.joined(own)
        manager = stack_field_manager(pulumi.get_project(), pulumi.get_stack())
        job_manifest, job_secret = split_env_secrets(
            with_field_manager(build_download_job(cache), manager), holds_output
        )
        self.key = cache.key
        waits_for = inherited_dependencies(opts)
        pvc_manifest = with_field_manager(build_cache_pvc(cache), manager)
        self.pvc = register_child(
            f"{name}-pvc",
            restore_outputs(pvc_manifest, outputs, secrets=False),
            pulumi.ResourceOptions(
                parent=self,
                retain_on_delete=True,
                depends_on=waits_for,
                ignore_changes=[MANAGER_FIXED_AT_CREATION],
            ),
        )
        warn_if_kept_at_creation(self.pvc, pvc_manifest, cache.job_name, self)
        job_waits: list[pulumi.Resource] = [self.pvc]
        if job_secret is not None:
            job_waits.append(
                register_child(
                    f"{name}-download-env",
                    restore_outputs(job_secret, outputs),
                    pulumi.ResourceOptions(parent=self, depends_on=waits_for),
                )
            )
        self.job = register_child(
            f"{name}-download",
            restore_outputs(job_manifest, outputs, secrets=False),
            pulumi.ResourceOptions(parent=self, retain_on_delete=True, depends_on=[*waits_for, *job_waits]),
        )
        self.pvc_name = pulumi.Output.from_input(cache.pvc_name)
        self.job_name = pulumi.Output.from_input(cache.job_name)
        self.size_gi = pulumi.Output.from_input(cache.size_gi)
        self.register_outputs(
            {
                "pvcName": cache.pvc_name,
                "jobName": cache.job_name,
                "sizeGi": cache.size_gi,
                "mode": cache.mode,
                "profile": cache.profile_name,
                "sourceUri": str(cache.source.get("sourceUri", "")),
            }
        )

    @classmethod
    def declare(
        cls,
        cache: CachePlan,
        *,
        masked: MaskedArgs | None = None,
        opts: pulumi.ResourceOptions | None = None,
    ) -> "AIMSharedCache":
        """The stack's cache for `cache.key`, declared by the first service that needs it."""
        registry = current_registry()
        existing = registry.shared_caches.get(cache.key)
        if isinstance(existing, AIMSharedCache):
            return existing
        users = registry.shared_cache_users.get(cache.key) or {
            (cache.namespace, ""): (cache, masked if masked is not None else mask_outputs({}))
        }
        labelled, label_outputs = with_users_labels(shared_plan(users), users)
        created = cls(shared_cache_name(cache), labelled, opts, masked=label_outputs)
        registry.shared_caches[cache.key] = created
        return created


def declare_prewarmed_caches() -> None:
    """Declare the Shared caches profiles pre-warm, each once per stack (a service's of it is the same).

    A cache waits for what its profile waits for (its Namespace) and applies with its provider.
    """
    from aim_pulumi.resources.namespace_guard import note_namespaces

    registry = current_registry()
    prewarmed, registry.prewarmed = registry.prewarmed, []
    for member, plans in prewarmed:
        note_namespaces(member.depends_on, [f"{plan.namespace}/{plan.pvc_name}" for plan in plans])
        opts = pulumi.ResourceOptions(providers=member.providers, depends_on=list(member.depends_on))
        with levers.declared_at(member.site):
            for plan in plans:
                AIMSharedCache.declare(plan, opts=opts)
