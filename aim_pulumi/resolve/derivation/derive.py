"""One profile set's derivation: its sources, the profiles it writes, and the status it reports.

The derived profile is the source's spec with the overrides applied (`overrides.py`), named as the
operator names it (`aim_pulumi/resolve/children/names.py:derived_profile_name`) in the set's scope
(an AIMProfile beside a namespaced set, an AIMClusterProfile for a cluster set), with the
operator's annotations (`profile-set-uid`, `profile-set-name`, `profile-set-namespace`,
`profile-source: copy`), the set's `aim.eai.amd.com/` labels (how an AIMModel's child set gives its
profiles the model's `source-model` labels), its role from its spec and origin `derived`; pull
secrets and service account are the set's when it sets them, else the source's.

Status (upstream's `DerivationReady` condition and `managedProfiles`): a source that cannot be
read is `SourceLoadFailed`, a selection upstream refuses `InvalidProfileSelection`, a derived
profile that fails admission `DerivationFailed`; otherwise no match is `NoMatchingProfiles`, and the
derived profiles' availability (the inventory's answer, as for every profile) gives
`ManagedProfilesReady`, `ManagedProfilesPartiallyReady` or `ManagedProfilesNotAvailable`. Nothing is
ever `Creating` here: the plan holds every derived profile at once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from aim_pulumi.api import (
    AIM_GROUP,
    AIMClusterProfile,
    AIMClusterProfileSet,
    AIMProfile,
    AIMProfileSet,
    to_manifest,
)
from aim_pulumi.api.errors import AIMValidationError
from aim_pulumi.api.io import parse
from aim_pulumi.resolve.children.labels import AIM_LABEL_PREFIX, MANAGED_BY, MANAGED_BY_LABEL
from aim_pulumi.resolve.children.names import derived_profile_name
from aim_pulumi.resolve.derivation.discovery_cache import DiscoveryCache
from aim_pulumi.resolve.derivation.identity import candidate_identity
from aim_pulumi.resolve.derivation.images import ImageDecision
from aim_pulumi.resolve.derivation.matching import (
    apply_version_policy,
    candidates,
    provenance_failure,
    selector_failure,
)
from aim_pulumi.resolve.derivation.overrides import apply_overrides
from aim_pulumi.resolve.derivation.sources import (
    COPYABLE_ANNOTATION,
    PROFILE_SET_NAME_ANNOTATION,
    PROFILE_SET_NAMESPACE_ANNOTATION,
    PROFILE_SET_UID_ANNOTATION,
    PROFILE_SOURCE_ANNOTATION,
    PROFILE_SOURCE_COPY,
    SourceProfile,
    is_deployable_spec,
)
from aim_pulumi.resolve.objects import PROFILE_ORIGIN_LABEL, PROFILE_ROLE_LABEL
from aim_pulumi.resolve.scalars import text

AnyProfileSet = AIMProfileSet | AIMClusterProfileSet
AnyProfile = AIMProfile | AIMClusterProfile

CONDITION_TYPE = "DerivationReady"
_ORIGINS = frozenset({"discovered", "derived", "generated", "user-authored"})

Reason = Literal[
    "SourceLoadFailed",
    "InvalidProfileSelection",
    "DerivationFailed",
    "NoMatchingProfiles",
    "ManagedProfilesReady",
    "ManagedProfilesPartiallyReady",
    "ManagedProfilesNotAvailable",
]


@dataclass(frozen=True)
class DerivedProfile:
    """A derived profile with what it came from (what `explain` shows)."""

    profile: AnyProfile
    source: SourceProfile
    image: ImageDecision
    overrides: Mapping[str, Any]


@dataclass(frozen=True)
class Derivation:
    """A set's derivation before availability: its profiles, or the reason it has none.

    `considered` lists every candidate with the first filter it failed (None: derived).
    `not_copyable` counts profiles that would have been candidates but for the copyable mark.
    """

    profile_set: AnyProfileSet
    profiles: tuple[DerivedProfile, ...] = ()
    failure: Reason | None = None
    message: str = ""
    considered: tuple[tuple[SourceProfile, str | None], ...] = ()
    not_copyable: int = 0

    @property
    def set_ref(self) -> str:
        return self.profile_set.object_ref


def _set_namespace(profile_set: AnyProfileSet) -> str | None:
    return profile_set.metadata.namespace if isinstance(profile_set, AIMProfileSet) else None


def _derived_manifest(
    profile_set: AnyProfileSet, spec: Mapping[str, Any], source: SourceProfile
) -> dict[str, Any]:
    set_name = profile_set.metadata.name
    namespace = _set_namespace(profile_set)
    part = text(source.spec.get("profileId")) or source.name
    labels: dict[str, str] = {MANAGED_BY_LABEL: MANAGED_BY}
    labels.update(
        (key, value)
        for key, value in sorted(profile_set.metadata.labels.items())
        if key.startswith(AIM_LABEL_PREFIX)
    )
    labels[PROFILE_ROLE_LABEL] = "deployable" if is_deployable_spec(spec) else "base"
    if labels.get(PROFILE_ORIGIN_LABEL) not in _ORIGINS:
        labels[PROFILE_ORIGIN_LABEL] = "derived"
    annotations = {
        PROFILE_SET_UID_ANNOTATION: profile_set.effective_uid,
        PROFILE_SET_NAME_ANNOTATION: set_name,
        PROFILE_SOURCE_ANNOTATION: PROFILE_SOURCE_COPY,
    }
    metadata: dict[str, Any] = {
        "name": derived_profile_name(set_name, part, candidate_identity(source)),
        "labels": labels,
        "annotations": annotations,
    }
    if namespace is not None:
        metadata["namespace"] = namespace
        annotations[PROFILE_SET_NAMESPACE_ANNOTATION] = namespace
    return {
        "apiVersion": f"{AIM_GROUP}/v1alpha2",
        "kind": "AIMProfile" if namespace is not None else "AIMClusterProfile",
        "metadata": metadata,
        "spec": dict(spec),
    }


def _derived_spec(
    set_spec: Mapping[str, Any], source: SourceProfile, cluster: bool
) -> tuple[dict[str, Any], ImageDecision]:
    overrides: Mapping[str, Any] = set_spec.get("overrides") or {}
    spec, decision = apply_overrides(source.spec, overrides, text(set_spec.get("image")), source.base_image)
    secrets = set_spec.get("imagePullSecrets") or source.spec.get("imagePullSecrets") or []
    if secrets:
        spec["imagePullSecrets"] = [dict(item) for item in secrets]
    else:
        spec.pop("imagePullSecrets", None)
    account = text(set_spec.get("serviceAccountName")) or text(source.spec.get("serviceAccountName"))
    if account:
        spec["serviceAccountName"] = account
    else:
        spec.pop("serviceAccountName", None)
    if cluster:
        spec.pop("caching", None)  # an AIMClusterProfile has none
    return spec, decision


def derive(
    profile_set: AnyProfileSet,
    namespace_sources: Sequence[SourceProfile],
    cluster_sources: Sequence[SourceProfile],
    caches: Callable[[str, str], DiscoveryCache | None],
    cache_namespace: str,
) -> Derivation:
    """The derivation of `profile_set` over the sources visible to it.

    `namespace_sources` are the set's namespace's profiles (ignored for a cluster set),
    `cluster_sources` the cluster's; `caches(namespace, name)` finds a discovery cache, and a
    cluster set reads its `sourceRef` in `cache_namespace` (the operator's namespace).
    """
    spec: Mapping[str, Any] = to_manifest(profile_set).get("spec") or {}
    selector: Mapping[str, Any] = spec.get("selector") or {}
    namespace = _set_namespace(profile_set)
    source_ref = spec.get("sourceRef")
    not_copyable = 0
    if source_ref is not None:
        where = namespace if namespace is not None else cache_namespace
        cache = caches(where, text(source_ref.get("name")))
        if cache is None or cache.error:
            why = cache.error if cache is not None else "no such discovery cache is declared"
            return Derivation(
                profile_set,
                failure="SourceLoadFailed",
                message=f"load sourceRef {text(source_ref.get('name'))!r} from namespace {where!r}: {why}",
            )
        pool = list(cache.sources)
    else:
        pool = candidates(selector, namespace_sources if namespace is not None else None, cluster_sources)
        scope = [*(namespace_sources if namespace is not None else ()), *cluster_sources]
        not_copyable = sum(
            1
            for source in scope
            if provenance_failure(source, selector) == "copyable"
            and provenance_failure(_copyable(source), selector) is None
            and selector_failure(source.spec, selector) is None
        )
    policy = text(spec.get("versionPolicy")) or "pinned"
    version = text(spec.get("version"))
    if policy == "pinned" and not version:
        return Derivation(
            profile_set,
            failure="InvalidProfileSelection",
            message="version is required when versionPolicy is pinned",
        )
    considered: dict[int, str | None] = {}
    matched: list[SourceProfile] = []
    for index, source in enumerate(pool):
        failing = selector_failure(source.spec, selector)
        considered[index] = failing
        if failing is None:
            matched.append(source)
    chosen = {id(source) for source in apply_version_policy(matched, policy, version)}
    for index, source in enumerate(pool):
        if considered[index] is None and id(source) not in chosen:
            considered[index] = "version"
    outcome: list[DerivedProfile] = []
    cluster = namespace is None
    for source in sorted(
        (source for source in pool if id(source) in chosen), key=lambda s: (s.kind, s.namespace, s.name)
    ):
        derived_spec, decision = _derived_spec(spec, source, cluster)
        manifest = _derived_manifest(profile_set, derived_spec, source)
        try:
            profile = parse(manifest)
        except AIMValidationError as error:
            return Derivation(
                profile_set,
                failure="DerivationFailed",
                message=(
                    f"the profile derived from {source.ref} is invalid: "
                    f"{error.field}: {error.reason}: {error.message}"
                ),
                considered=tuple((s, considered[i]) for i, s in enumerate(pool)),
            )
        assert isinstance(profile, AIMProfile | AIMClusterProfile)
        outcome.append(DerivedProfile(profile, source, decision, spec.get("overrides") or {}))
    return Derivation(
        profile_set,
        profiles=tuple(outcome),
        failure=None if outcome else "NoMatchingProfiles",
        message="" if outcome else _no_match_message(not_copyable),
        considered=tuple((s, considered[i]) for i, s in enumerate(pool)),
        not_copyable=not_copyable,
    )


def _copyable(source: SourceProfile) -> SourceProfile:
    return replace(source, copyable=True)


def _no_match_message(not_copyable: int) -> str:
    message = "No matching source profiles found for derivation"
    if not_copyable:
        message += (
            f"; {not_copyable} profile(s) would match but are not marked copyable "
            f'(annotation {COPYABLE_ANNOTATION}: "true")'
        )
    return message


def derivation_facts(derivation: Derivation, derived: DerivedProfile) -> dict[str, Any]:
    """What `explain` shows of a derived profile: its set, source, policy, overrides and image."""
    spec: Mapping[str, Any] = to_manifest(derivation.profile_set).get("spec") or {}
    facts: dict[str, Any] = {
        "profile": derived.profile.object_ref,
        "set": derivation.set_ref,
        "source": derived.source.ref,
        "sourceVersion": derived.source.version,
        "versionPolicy": text(spec.get("versionPolicy")) or "pinned",
        "overrides": dict(derived.overrides),
        "image": derived.image.image,
        "imageRule": derived.image.rule,
        "imageReason": derived.image.detail,
    }
    if text(spec.get("version")):
        facts["version"] = text(spec.get("version"))
    model = derivation.profile_set.metadata.annotations.get(f"{AIM_GROUP}/model-name")
    if model:
        facts["model"] = model
    return facts


# --------------------------------------------------------------------------------------------------
# Status


def derivation_status(derivation: Derivation, available: Callable[[AnyProfile], bool]) -> dict[str, Any]:
    """The set's status: `status`, `managedProfiles` and the `DerivationReady` condition."""
    profiles = derivation.profiles
    deployable = sum(1 for d in profiles if is_deployable_spec(to_manifest(d.profile).get("spec") or {}))
    ready = sum(1 for d in profiles if available(d.profile))
    counts = {
        "total": len(profiles),
        "ready": ready,
        "notAvailable": len(profiles) - ready,
        "deployable": deployable,
        "base": len(profiles) - deployable,
    }
    reason: str
    state: str
    message = derivation.message
    if derivation.failure in ("SourceLoadFailed", "DerivationFailed", "InvalidProfileSelection"):
        reason, state = (
            derivation.failure,
            "Failed" if derivation.failure == "InvalidProfileSelection" else "Degraded",
        )
    elif not profiles:
        reason, state = "NoMatchingProfiles", "NotAvailable"
    elif ready == len(profiles):
        reason, state, message = "ManagedProfilesReady", "Ready", ""
    elif ready:
        reason, state = "ManagedProfilesPartiallyReady", "Degraded"
        message = "Some derived profiles are ready, but others are not available"
    else:
        reason, state = "ManagedProfilesNotAvailable", "NotAvailable"
        message = "Derived profiles exist but none are ready"
    condition = {"type": CONDITION_TYPE, "status": "True" if state == "Ready" else "False", "reason": reason}
    if message:
        condition["message"] = message
    return {
        "status": state,
        "managedProfiles": counts,
        "derivedProfiles": sorted(d.profile.metadata.name for d in profiles),
        "conditions": [condition],
    }
