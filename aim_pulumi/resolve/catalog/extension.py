"""A version's folder composed into the core as one value: what it serves, plans, converts and says.

v1alpha1 (`aim_pulumi/resolve/legacy/`) is not wired in by imports that fill registries: its
`extension.py` builds one `Extension`, and the few entry points that serve it (the resources'
program run, `aim_pulumi/resources/registry.py`; the CLI, `aim_pulumi/cli/parser.py`) import it with
a plain `try: ... except ImportError` and hand it down as a value. The catalog carries it
(`Catalog(extension=...)`), so everything that plans against a catalog reads the same one: the
catalog builds the folder's index, `plan_service` lets it choose a service's pipeline and runs it
(`aim_pulumi/resolve/plan/service.py`), and the layers above read its kinds, its migration and its
words. Without the folder the value is None and the core serves v1alpha2 alone.

It lives in the catalog room because the catalog holds it and the folder (one room up) builds it;
what the stack and the CLI read of it is plain data and callables, so no layer above resolve has to
be importable from here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from aim_pulumi.api import KINDS, AIMKind, AIMServiceObject, Kinds
from aim_pulumi.resolve.catalog.indexes import CatalogIndex
from aim_pulumi.resolve.catalog.pipelines import PROFILE, EffectiveProfile
from aim_pulumi.resolve.children.container import ContainerDefaults
from aim_pulumi.resolve.types import Diagnostic
from aim_pulumi.schemas.seed_overlays import SeedOverlay

__all__ = [
    "Extension",
    "KindSurface",
    "Migration",
    "MigrationProblem",
    "MigrationResult",
    "choose_pipeline",
    "container_defaults",
    "pipeline_reason",
    "served_kinds",
]


@dataclass(frozen=True)
class KindSurface:
    """What the stack and the CLI must know of a kind a folder adds (its model is among `kinds`).

    The core's components and commands name the core kinds themselves; a folder's kind has no
    component, so whatever treats kinds one by one learns it here.
    """

    kind: str
    #: The core kind an AIMStack declares it just before (catalog objects others depend on go first).
    declared_before: str
    #: The status fields `aim-pulumi import` keeps of a live object: what the operator wrote there
    #: that the plan reads and no deploy-time run can recompute.
    adopted_status: tuple[str, ...] = ()
    #: Having no component, the YAML file beside a program `aim-pulumi import --format python`
    #: writes its objects to (declared by an AIMStack named after the file's stem), and the comment
    #: above that declaration.
    program_file: str = ""
    program_comment: str = ""


class MigrationProblem(Protocol):
    """One document `migrate` could not convert: its 0-based position, where, and why."""

    @property
    def index(self) -> int: ...
    @property
    def field(self) -> str: ...
    @property
    def reason(self) -> str: ...
    @property
    def message(self) -> str: ...


class MigrationNotice(Protocol):
    """What a converted document changes on the next deployment: its 0-based position, and why."""

    @property
    def index(self) -> int: ...
    @property
    def message(self) -> str: ...


class MigrationResult(Protocol):
    """The converted documents in input order, whether each changed, the documents a conversion
    adds after each (new objects its v1alpha2 form needs), the problems, and what converted
    documents change on the next deployment (`notices`)."""

    @property
    def objects(self) -> Sequence[Any]: ...
    @property
    def converted(self) -> Sequence[bool]: ...
    @property
    def added(self) -> Sequence[Sequence[Any]]: ...
    @property
    def problems(self) -> Sequence[MigrationProblem]: ...
    @property
    def notices(self) -> Sequence[MigrationNotice]: ...


@dataclass(frozen=True)
class Migration:
    """What `aim-pulumi migrate` converts with, and how its command describes that.

    The command (file handling, YAML round-trip, reports) is the CLI's; what is converted into what
    is the folder's, so without a folder's migration there is no `migrate` command.
    """

    help: str
    description: str
    #: `convert(documents, reading=..., custom_models=...)`: `reading` gives a document's values as
    #: Kubernetes reads them; `custom_models` is one of `custom_model_forms`.
    convert: Callable[..., MigrationResult]
    #: The forms an inline custom model may take (the first the default), with what each does.
    custom_model_forms: tuple[str, ...] = ()
    custom_model_help: str = ""


def _prewarms_nothing(obj: AIMKind, catalog: Any) -> AIMKind | None:
    """A folder none of whose objects caches anything with no service."""
    return None


@dataclass(frozen=True)
class Extension:
    """Everything a version's folder adds to the core, in one value handed down from an entry point.

    The catalog parameter of `index` and `pipeline` is typed `Any`: the catalog holds this value,
    so naming its class here would make the two modules import each other; the folder's own
    functions are typed against `Catalog`.
    """

    #: The API version the folder serves (for messages).
    version: str
    #: The model classes of its kinds; a class of a core kind replaces the core's (AIMService read
    #: at both versions). Each carries its schema relaxations (`AIMKind.SCHEMA_RELAXATIONS`).
    kinds: tuple[type[AIMKind], ...]
    #: `index(catalog)`: the catalog index of its kinds, built once per catalog.
    index: Callable[[Any], CatalogIndex]
    #: Its pipeline's name, and which pipeline a service takes (with the warnings of choosing it).
    pipeline_name: str
    choose_pipeline: Callable[[AIMServiceObject], tuple[str, tuple[Diagnostic, ...]]]
    #: `pipeline(service, catalog)`: its pipeline, for the services `choose_pipeline` sends to it.
    pipeline: Callable[[AIMServiceObject, Any], EffectiveProfile]
    #: What a declared profile's labels add to its container (a profile converted from a template).
    container_defaults: Callable[[Mapping[str, str] | None, Mapping[str, Any]], ContainerDefaults]
    #: What `migrate` converts, and its words; None: no `migrate` command.
    migration: Migration | None
    #: Where AIMStack declares its kinds, what `import` keeps of them and writes for them.
    kind_surfaces: tuple[KindSurface, ...]
    #: The note `validate` writes for an admitted manifest a plan refuses (`field: reason: message`).
    manifest_note: Callable[[Mapping[str, Any]], str | None]
    #: The apiVersion `import` writes a live object back in, told by its content (None: as listed).
    declared_version: Callable[[Mapping[str, Any]], str | None]
    #: Why `explain` says a service takes its pipeline, and how to leave it.
    pipeline_reason: Callable[[AIMServiceObject], str]
    #: `prewarmed_profile(obj, catalog)`: the profile one of its objects pre-warms as with no
    #: service (a namespaced template with `caching.enabled`), or None; raises what is wrong.
    prewarmed_profile: Callable[[AIMKind, Any], AIMKind | None] = _prewarms_nothing

    @property
    def schema_relaxations(self) -> tuple[SeedOverlay, ...]:
        """The relaxations its kinds' schemas are checked with, each once, in kind order."""
        seen: dict[int, SeedOverlay] = {}
        for cls in self.kinds:
            for overlay in cls.SCHEMA_RELAXATIONS:
                seen.setdefault(id(overlay), overlay)
        return tuple(seen.values())

    def kind_surface(self, kind: str) -> KindSurface | None:
        """What it says of `kind`; None for the core's kinds and unknown ones."""
        return next((surface for surface in self.kind_surfaces if surface.kind == kind), None)


def served_kinds(extension: Extension | None) -> Kinds:
    """The kinds a program composed with `extension` reads: the core's, and the folder's over them."""
    return KINDS if extension is None else KINDS.serving(*extension.kinds)


def choose_pipeline(
    service: AIMServiceObject, extension: Extension | None
) -> tuple[str, tuple[Diagnostic, ...]]:
    """The pipeline a service takes, and the warnings of choosing it: the core's profile pipeline,
    unless the extension chooses its own."""
    return extension.choose_pipeline(service) if extension is not None else (PROFILE, ())


def container_defaults(
    extension: Extension | None, labels: Mapping[str, str] | None, profile_spec: Mapping[str, Any]
) -> ContainerDefaults:
    """What a declared profile's labels add to its container (nothing without an extension)."""
    return (
        extension.container_defaults(labels, profile_spec) if extension is not None else ContainerDefaults()
    )


def pipeline_reason(extension: Extension | None, pipeline: str, service: AIMServiceObject) -> str:
    """Why a service takes the extension's pipeline, in its words; empty for the profile pipeline."""
    if extension is None or pipeline != extension.pipeline_name:
        return ""
    return extension.pipeline_reason(service)
