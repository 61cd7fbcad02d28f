"""The one seam through which v1alpha1 plugs into the core, so that removing it is deleting a folder.

The v1alpha1 kinds (AIMServiceTemplate, AIMClusterServiceTemplate), their catalog index, the
template pipeline, `migrate` and their schema relaxations live in `aim_pulumi/resolve/legacy/`,
which fills the core's small registries when its `register` module is imported: the kinds of
`aim_pulumi.api.io.KINDS`, the indexes of the catalog, the pipelines of the plan, the relaxations
of `aim_pulumi.schemas.seed_overlays` and the commands of the CLI. This module is the only place
that imports that folder.

It imports it by name and on first need (the first read of a registry), never at import: the folder
sits in the resolve layer above this one and loads the whole resolver, which `aim-pulumi --version`
and a bare `aim_pulumi.api` must not pay for, and which an import from here would turn into an
upward dependency. When the folder is missing (v1alpha1 deleted) the import fails and the core
serves v1alpha2 alone; any other failure inside the folder is a bug and propagates.

The registries of the layers above resolve (the stack's declaration order, the CLI's `import`,
`validate`, `explain` and `migrate`) live here rather than beside their readers: the folder sits in
the resolve layer and may not import `aim_pulumi.resources` or `aim_pulumi.cli`, while every layer
reaches this module. They hold plain data and callables, never a model, so this module imports
nothing of the api package (`aim_pulumi.api.io` imports it while it loads, and the CRD checks of
every model reach it to load the folder's schema relaxations first).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = [
    "FOLDER",
    "KindExtension",
    "Migration",
    "MigrationProblem",
    "MigrationResult",
    "declared_version",
    "kind_extension",
    "kind_extensions",
    "load",
    "manifest_notes",
    "migration",
    "pipeline_reason",
    "register_declared_version",
    "register_kinds",
    "register_manifest_note",
    "register_migration",
    "register_pipeline_reason",
]

#: The folder that owns v1alpha1, and the module of it that fills the registries.
FOLDER = "aim_pulumi.resolve.legacy"
_REGISTER = f"{FOLDER}.register"

_state = {"loaded": False}


def load() -> None:
    """Fill the registries from the v1alpha1 folder once, if it is there; cheap after the first call."""
    if _state["loaded"]:
        return
    _state["loaded"] = True  # first: the folder reads the registries it fills while it loads
    try:
        importlib.import_module(_REGISTER)
    except ImportError as error:
        if error.name not in (FOLDER, _REGISTER):
            raise


# --------------------------------------------------------------------------------------------------
# Registries of the layers above resolve (see the module docstring for why they live here).


@dataclass(frozen=True)
class KindExtension:
    """What the stack and the CLI must know of a kind a folder adds; its model is in `api.io.KINDS`.

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


class MigrationResult(Protocol):
    """The converted documents in input order, whether each changed, and the problems."""

    @property
    def objects(self) -> Sequence[Any]: ...
    @property
    def converted(self) -> Sequence[bool]: ...
    @property
    def problems(self) -> Sequence[MigrationProblem]: ...


@dataclass(frozen=True)
class Migration:
    """What `aim-pulumi migrate` converts with, and how its command describes that.

    The command (file handling, YAML round-trip, reports) is the CLI's; what is converted into what
    is the folder's, so without a registered migration there is no `migrate` command.
    """

    help: str
    description: str
    #: `convert(documents, reading=...)`: `reading` gives a document's values as Kubernetes reads them.
    convert: Callable[..., MigrationResult]


_KINDS: list[KindExtension] = []
_MIGRATIONS: list[Migration] = []
_NOTES: list[Callable[[Mapping[str, Any]], str | None]] = []
_VERSIONS: list[Callable[[Mapping[str, Any]], str | None]] = []
# Keyed by pipeline; each takes the AIMService (typed `Any`: this module imports nothing of the api
# package, which reaches it from its lowest modules).
_REASONS: dict[str, Callable[[Any], str]] = {}


def register_kinds(*kinds: KindExtension) -> None:
    """Add kinds beyond the core's, in the order a stack declares kinds sharing a `declared_before`."""
    _KINDS.extend(kinds)


def kind_extensions() -> tuple[KindExtension, ...]:
    load()
    return tuple(_KINDS)


def kind_extension(kind: str) -> KindExtension | None:
    """What a folder registered for `kind`; None for the core's kinds and unknown ones."""
    return next((k for k in kind_extensions() if k.kind == kind), None)


def register_migration(migration: Migration) -> None:
    _MIGRATIONS.append(migration)


def migration() -> Migration | None:
    """The conversion `migrate` runs (the last registered), or None: then there is no `migrate`."""
    load()
    return _MIGRATIONS[-1] if _MIGRATIONS else None


def register_manifest_note(note: Callable[[Mapping[str, Any]], str | None]) -> None:
    """Let `validate` note what it admits in a manifest but a plan refuses (`field: reason: message`)."""
    _NOTES.append(note)


def manifest_notes(manifest: Mapping[str, Any]) -> list[str]:
    """Every registered note on one admitted manifest, in registration order."""
    load()
    return [found for note in _NOTES if (found := note(manifest)) is not None]


def register_declared_version(read: Callable[[Mapping[str, Any]], str | None]) -> None:
    """Let `import` tell, from a live object's content, a version it was declared in.

    The API server lists every object of a kind in the group's preferred version, whichever version
    it was written in; a version whose fields the preferred one refuses is told by those fields.
    """
    _VERSIONS.append(read)


def declared_version(manifest: Mapping[str, Any]) -> str | None:
    """The apiVersion a registered reader tells for a live object, or None: it reads as listed."""
    load()
    return next((found for read in _VERSIONS if (found := read(manifest)) is not None), None)


def register_pipeline_reason(pipeline: str, reason: Callable[[Any], str]) -> None:
    """Let `explain` say why a service takes a folder's pipeline, and how to leave it."""
    _REASONS[pipeline] = reason


def pipeline_reason(pipeline: str, service: Any) -> str:
    """Why `service` takes `pipeline`, as the folder that registered it words it; empty when none did."""
    load()
    reason = _REASONS.get(pipeline)
    return reason(service) if reason is not None else ""
