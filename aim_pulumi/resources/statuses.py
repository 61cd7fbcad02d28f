"""The shapes of the components' outputs: what the operator would show in each object's status.

They type the `pulumi.Output`s a program reads (`chat.status.apply(lambda s: s["conditions"])`),
and the component provider's schema is inferred from them, so other languages see the same
fields. Keys are camelCase, as in the CRDs' status. The values are built in `resolve.plan`
(services) and in each catalog component (`profile_status`, `model_status`, ...); a key these
types do not list would be dropped by the provider, so a new status field is added here too.
"""

from typing import Any, TypedDict

__all__ = [
    "AIMClusterModelSourceStatus",
    "AIMModelStatus",
    "AIMProfileSetStatus",
    "AIMProfileStatus",
    "AIMRuntimeConfigStatus",
    "AIMServiceStatus",
    "DiscoveredFrom",
    "DiscoveredProfileCounts",
    "HardwareGroup",
    "HardwareProfile",
    "ManagedProfileCounts",
    "ProfileOverlayStatus",
    "ProfileSetRef",
    "ResolvedObjectRef",
    "ServiceCacheStatus",
    "ServiceCapacityCost",
    "ServiceCapacityStatus",
    "ServiceRoutingStatus",
    "ServiceRuntimeStatus",
    "StatusCondition",
]


class ResolvedObjectRef(TypedDict, total=False):
    """An AIM object a service resolved to (status.resolvedProfile, resolvedModel, ...)."""

    kind: str
    """AIMProfile, AIMClusterProfile, AIMModel, ..."""
    name: str
    """metadata.name of the object."""
    namespace: str | None
    """metadata.namespace; empty or null for a cluster-scoped object."""
    scope: str
    """Namespace or Cluster."""
    uid: str
    """The object's uid as this program derives it (uuid5 of kind, namespace and name)."""


class StatusCondition(TypedDict, total=False):
    """One status condition, without timestamps, so identical runs export identical status."""

    type: str
    """ProfileReady, ProfileCacheReady, InferenceServiceReady, HTTPRouteReady, HPAReady, Ready, ..."""
    status: str
    """True, False or Unknown."""
    reason: str
    """The AIM reason (ProfileResolved, PathTemplateInvalid, ...)."""
    message: str
    """What happened, for a person."""


class ProfileOverlayStatus(TypedDict, total=False):
    """The service-owned overlay of `spec.profile.name` that `spec.profileOverrides` produced."""

    name: str
    """Name of the overlay profile."""


class ServiceRoutingStatus(TypedDict, total=False):
    """Observed routing: present when an HTTPRoute is planned."""

    path: str
    """The rendered HTTP path prefix of the route."""


class ServiceCacheStatus(TypedDict, total=False):
    """The model caches the service mounts."""

    mode: str
    """Shared or Dedicated."""
    persistentVolumeClaims: list[str]
    """Names of the cache PVCs."""


class ServiceRuntimeStatus(TypedDict, total=False):
    """Replica bounds, when autoscaling is active."""

    minReplicas: int
    """Lower autoscaling bound."""
    maxReplicas: int
    """Upper autoscaling bound."""


class ServiceCapacityCost(TypedDict, total=False):
    """What the service's GPUs cost a month at the stack's `aim:gpuHourPrice`."""

    atMin: float
    """At its minimum replicas."""
    atMax: float
    """At its maximum replicas."""


class ServiceCapacityStatus(TypedDict, total=False):
    """Whether the service fits the cluster (or `aim:inventory`), judged in the preview."""

    verdict: str
    """FitsAtMax, FitsAtMinOnly (autoscaling will be capped) or DoesNotFit."""
    message: str
    """The verdict in a sentence: why it does not fit, and what is free."""
    minReplicas: int
    """The service's minimum replicas."""
    maxReplicas: int
    """The service's maximum replicas."""
    schedulableReplicas: int
    """How many replicas the cluster has room for, packed with the rest of the program."""
    monthlyCost: ServiceCapacityCost
    """The monthly GPU cost, when `aim:gpuHourPrice` prices its accelerator."""


class AIMServiceStatus(TypedDict, total=False):
    """The AIMService status as known at deploy time."""

    status: str
    """Starting or Degraded in a preview; after `pulumi up` Running, Starting or Degraded."""
    reconcilerPipeline: str
    """profile (v1alpha2) or template (legacy v1alpha1)."""
    resolvedProfile: ResolvedObjectRef
    """The profile backing the service."""
    profileOverlay: ProfileOverlayStatus
    """The overlay profile, when `spec.profileOverrides` is set."""
    resolvedModel: ResolvedObjectRef
    """The model the service resolved, when it names or creates one."""
    resolvedTemplate: ResolvedObjectRef
    """The template of a legacy (template pipeline) service."""
    resolvedRuntimeConfig: ResolvedObjectRef
    """The runtime config that contributed defaults."""
    routing: ServiceRoutingStatus
    """Observed routing, with the rendered path."""
    cache: ServiceCacheStatus
    """The caches the service mounts."""
    runtime: ServiceRuntimeStatus
    """Replica bounds when autoscaling is active."""
    conditions: list[StatusCondition]
    """Per-component conditions and their Ready aggregate."""
    capacity: ServiceCapacityStatus
    """Whether it fits the cluster, and its monthly cost (absent when nothing was judged or priced)."""


class AIMProfileStatus(TypedDict, total=False):
    """What a profile's status says at deploy time."""

    status: str
    """Ready or NotAvailable (or the status the object was declared with)."""
    available: bool
    """Whether services may bind the profile."""
    role: str
    """deployable or base."""
    origin: str
    """Who made the profile (user-authored, generated, ...)."""
    labels: dict[str, str]
    """The provenance labels (source model and its scope, role, origin)."""
    version: str
    """The profile's version, from its status or its image tag."""


class HardwareProfile(TypedDict, total=False):
    """One discovered profile of a hardware group: what it is tuned for."""

    metric: str
    """latency or throughput."""
    precision: str
    """Precision of the weights."""


class HardwareGroup(TypedDict, total=False):
    """The discovered profiles of one accelerator shape, and whether the inventory offers it."""

    acceleratorType: str
    """gpu or cpu."""
    acceleratorModel: str
    """Accelerator model (MI300X, ...)."""
    acceleratorCount: int
    """Devices per replica."""
    supported: bool
    """Whether aim:inventory offers it (true without an inventory)."""
    profiles: list[HardwareProfile]
    """The profiles of this shape."""


class DiscoveredProfileCounts(TypedDict, total=False):
    """How many profiles the image holds, and how many its hardware allows (the operator's counts)."""

    total: int
    """Profile files of the image (after `$AIM_ID/` wins over `general/`)."""
    supported: int
    """Those whose hardware is offered."""
    unsupported: int
    """Those whose hardware is not."""
    byHardware: list[HardwareGroup]
    """The profiles by accelerator shape."""


class DiscoveredFrom(TypedDict, total=False):
    """Where a model's discovered profiles were read."""

    image: str
    """The image reference the model names."""
    digest: str
    """The manifest digest they were read at."""
    fromLock: bool
    """Whether aim.lock.yaml said so (false: read from the registry during this run)."""


class ManagedProfileCounts(TypedDict, total=False):
    """The profiles made for a model or derived by a profile set (`status.managedProfiles`).

    A discovered model counts total, deployable and base; a profile set also counts ready and
    notAvailable.
    """

    total: int
    """Every profile made."""
    ready: int
    """Those whose hardware the inventory offers (all of them without an inventory)."""
    notAvailable: int
    """Those whose hardware the inventory lacks."""
    deployable: int
    """Those with an aimId and model sources."""
    base: int
    """The others (base profiles, which no service can bind)."""


class ProfileSetRef(TypedDict, total=False):
    """The profile set a derived model created (`status.profileSetRef`)."""

    name: str
    """metadata.name of the AIMProfileSet (AIMClusterProfileSet for a cluster model)."""
    namespace: str
    """Its namespace; empty for a cluster set."""


class AIMModelStatus(TypedDict, total=False):
    """A model's onboarding: its source and the profiles discovered, generated or derived for it."""

    status: str
    """Ready; Failed when its profiles cannot be made; a derived model's follows its profile set."""
    source: str
    """image, modelId or profiles."""
    kind: str
    """Image (a discovered image), Generated, Derived or Custom (a base derivation), as the operator
    classifies it."""
    aimId: str
    """The image's AIM_ID; for a derived model `overrides.aimId`, else the selector's."""
    baseImage: str
    """The image's AIM_BASE_IMAGE_REF."""
    version: str
    """The image's tag."""
    generatedProfiles: list[str]
    """Names of the profiles generated from the runtime config's fallbacks."""
    discoveredProfiles: DiscoveredProfileCounts
    """Counts of the image's profiles: total, supported, unsupported, byHardware."""
    discoveredProfileNames: list[str]
    """Names of the profiles discovered from the image (those whose hardware is offered)."""
    discoveredFrom: DiscoveredFrom
    """The image, the digest it was read at, and whether the lock file said so (fromLock)."""
    profileSetRef: ProfileSetRef
    """The profile set `spec.profiles` creates."""
    managedProfiles: ManagedProfileCounts
    """Counts of the profiles made (discovered) or derived (by the child profile set)."""
    derivedProfiles: list[str]
    """Names of the profiles the child profile set derives."""
    conditions: list[StatusCondition]
    """Why discovery, generation or derivation failed, when it did."""


class AIMProfileSetStatus(TypedDict, total=False):
    """A profile set's derivation: its profiles, their counts and the DerivationReady condition."""

    status: str
    """Ready, Degraded, NotAvailable or Failed."""
    managedProfiles: ManagedProfileCounts
    """The derived profiles, counted."""
    derivedProfiles: list[str]
    """Names of the derived profiles (AIMProfiles, or AIMClusterProfiles for a cluster set)."""
    conditions: list[StatusCondition]
    """DerivationReady, with upstream's reasons (ManagedProfilesReady, NoMatchingProfiles, ...)."""


class AIMRuntimeConfigStatus(TypedDict, total=False):
    """The merged spec a consumer in the config's namespace sees."""

    status: str
    """Ready."""
    effectiveSpec: dict[str, Any]
    """A namespaced config merged over the cluster config of its name (camelCase)."""


class AIMClusterModelSourceStatus(TypedDict, total=False):
    """What a model source's listing materialised, as the operator counts it."""

    status: str
    """Ready."""
    discoveredModels: int
    """Listed images (and declared models) that have a model."""
    availableModels: int
    """Images the filters match now, and declared models."""
    modelsLimitReached: bool
    """Whether maxModels left some out."""
    models: list[str]
    """Names of the AIMClusterModels the source materialises."""
