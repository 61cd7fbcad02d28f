"""Manifests in and out: dispatch on apiVersion + kind, YAML loading, and `to_manifest` (defined in `base`).

Document positions are 1-based and count every YAML document of a file, empty ones included,
so `file:3` is the third `---` section a reader sees.
"""

from __future__ import annotations

import difflib
import io
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import yaml
from pydantic import ValidationError

from aim_pulumi.api.base import AIM_GROUP, SKIP_ADMISSION, AIMKind, errors_from_validation, object_ref
from aim_pulumi.api.base import to_manifest as to_manifest  # the object's manifest form lives with the object
from aim_pulumi.api.errors import AIMValidationError
from aim_pulumi.api.limits import MAX_FILE_BYTES, load_yaml_documents, yaml_error_line
from aim_pulumi.api.model import AIMClusterModel, AIMModel
from aim_pulumi.api.model_source import AIMClusterModelSource
from aim_pulumi.api.profile import AIMClusterProfile, AIMProfile
from aim_pulumi.api.profile_set import AIMClusterProfileSet, AIMProfileSet
from aim_pulumi.api.runtime_config import AIMClusterRuntimeConfig, AIMRuntimeConfig
from aim_pulumi.api.service import AIMServiceObject

# The core's AIM objects; `parse` returns a kind a version's folder serves as its own class.
AIMObject = (
    AIMServiceObject
    | AIMProfile
    | AIMClusterProfile
    | AIMModel
    | AIMClusterModel
    | AIMClusterModelSource
    | AIMProfileSet
    | AIMClusterProfileSet
    | AIMRuntimeConfig
    | AIMClusterRuntimeConfig
)


class Kinds(Mapping[str, type[AIMKind]]):
    """The model class of each AIM kind a program serves: an immutable value, passed where it is read.

    `KINDS` holds the core's kinds; a program that serves a version's folder too (v1alpha1) reads
    with `KINDS.serving(*its kinds)`, built once at the entry point that composes the folder in
    (`aim_pulumi/resolve/catalog/extension.py:served_kinds`) and handed down. A class of a kind
    already served replaces it (the folder's AIMService reads both versions).
    """

    def __init__(self, *classes: type[AIMKind]) -> None:
        self._kinds: dict[str, type[AIMKind]] = {cls.KIND: cls for cls in classes}

    def serving(self, *classes: type[AIMKind]) -> Kinds:
        """These kinds and `classes`, a class replacing the one of its kind."""
        return Kinds(*self._kinds.values(), *classes)

    def __getitem__(self, kind: str) -> type[AIMKind]:
        return self._kinds[kind]

    def __iter__(self) -> Iterator[str]:
        return iter(self._kinds)

    def __len__(self) -> int:
        return len(self._kinds)


#: The core's kinds (v1alpha2): what every reader serves unless it is handed more.
KINDS = Kinds(
    AIMServiceObject,
    AIMProfile,
    AIMClusterProfile,
    AIMModel,
    AIMClusterModel,
    AIMProfileSet,
    AIMClusterProfileSet,
    AIMRuntimeConfig,
    AIMClusterRuntimeConfig,
    AIMClusterModelSource,
)

YAML_SUFFIXES = (".yaml", ".yml")
# The discovery lock file (`aim_pulumi/discovery/lock.py`) lives beside the manifests it pins and
# is not one of them.
LOCK_FILE = "aim.lock.yaml"
ROOT = "(root)"


def kind_class(obj: Any, kinds: Kinds = KINDS) -> type[AIMKind]:
    """The model class a manifest's apiVersion and kind select among `kinds`; errors name what is wrong."""
    if not isinstance(obj, Mapping):
        raise AIMValidationError(
            ROOT, "InvalidSpec", f"a manifest must be a mapping, got {type(obj).__name__}"
        )
    api_version = obj.get("apiVersion")
    kind = obj.get("kind")
    if not isinstance(api_version, str) or not api_version:
        raise AIMValidationError(
            "apiVersion", "InvalidSpec", "apiVersion is required (aim.eai.amd.com/<version>)"
        )
    if not isinstance(kind, str) or not kind:
        raise AIMValidationError("kind", "InvalidSpec", "kind is required")
    group, _, version = api_version.rpartition("/")
    cls = kinds.get(kind)
    if group != AIM_GROUP and cls is None:
        raise AIMValidationError(
            "kind",
            "UnknownKind",
            f"{kind} ({api_version}) is not an AIM kind; only {AIM_GROUP} objects are read",
        )
    if cls is None:
        close = difflib.get_close_matches(kind, sorted(kinds), n=1)
        hint = f"; did you mean `{close[0]}`?" if close else f"; known kinds: {', '.join(sorted(kinds))}"
        raise AIMValidationError("kind", "UnknownKind", f"unknown AIM kind {kind!r}{hint}")
    if group != AIM_GROUP or version not in cls.SERVED_VERSIONS:
        served = ", ".join(f"{AIM_GROUP}/{v}" for v in cls.SERVED_VERSIONS)
        raise AIMValidationError(
            "apiVersion", "UnsupportedVersion", f"{kind} is not served at {api_version!r}; served: {served}"
        )
    return cls.reader_for(obj)


def _build(cls: type[AIMKind], obj: Mapping[str, Any], *, admit: bool) -> AIMKind:
    """Validate a manifest as the API server reads it: camelCase keys only.

    Python construction also accepts the snake_case attribute names; a manifest does not, because
    the API server would reject (or silently prune) `min_replicas`, so accepting it here would pass
    files that do not deploy as written and make `to_manifest` rewrite the user's keys.
    """
    return cls.model_validate(dict(obj), context={SKIP_ADMISSION: not admit}, by_alias=True, by_name=False)


def _validate(obj: Any, *, admit: bool, kinds: Kinds) -> AIMKind:
    cls = kind_class(obj, kinds)
    try:
        return _build(cls, obj, admit=admit)
    except ValidationError as exc:
        raise errors_from_validation(exc, cls)[0] from None
    except AIMValidationError:
        raise
    except Exception as exc:  # anything pydantic lets through must still be a validation error
        raise AIMValidationError(ROOT, "InvalidSpec", f"{type(exc).__name__}: {exc}") from None


def parse(obj: Mapping[str, Any], kinds: Kinds = KINDS) -> AIMObject:
    """Build the typed object a manifest describes (one of `kinds`), applying every admission rule."""
    return _validate(obj, admit=True, kinds=kinds)  # type: ignore[return-value]


def admission_problems(obj: Mapping[str, Any] | AIMKind, kinds: Kinds = KINDS) -> list[AIMValidationError]:
    """Every problem of a manifest (or typed object), not just the first; empty when it is admitted."""
    if isinstance(obj, AIMKind):
        return obj.admission_problems()
    try:
        cls = kind_class(obj, kinds)
    except AIMValidationError as err:
        return [err]
    try:
        built = _build(cls, obj, admit=False)
    except ValidationError as exc:
        return errors_from_validation(exc, cls)
    except AIMValidationError as err:
        return [err]
    except Exception as exc:
        return [AIMValidationError(ROOT, "InvalidSpec", f"{type(exc).__name__}: {exc}")]
    return built.admission_problems()


def manifest_ref(obj: Any, kinds: Kinds = KINDS) -> str:
    """`Kind/namespace/name` of a raw manifest as far as it can be read (`?` for unreadable parts);
    the scope of a kind is its class's among `kinds`."""
    if not isinstance(obj, Mapping):
        return "?"
    kind = obj.get("kind") if isinstance(obj.get("kind"), str) else "?"
    meta = obj.get("metadata")
    meta = meta if isinstance(meta, Mapping) else {}
    name = meta.get("name") if isinstance(meta.get("name"), str) else "?"
    namespace = meta.get("namespace")
    namespace = namespace if isinstance(namespace, str) else None
    cls = kinds.get(str(kind))
    if cls is not None:
        namespace = None if cls.SCOPE == "Cluster" else namespace or "default"
    return object_ref(str(kind), namespace, str(name))


# --- YAML ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ManifestDocument:
    """One non-empty YAML document and where it came from."""

    file: str
    document: int
    data: Any
    # Where the object is inside its document: "" for the document itself, `items[2]` for an item
    # of a `kind: List` document (which kubectl applies as its items).
    within: str = ""

    @property
    def object_ref(self) -> str:
        """The document's reference as the core's kinds scope it (`ref` for a program's own)."""
        return manifest_ref(self.data)

    def ref(self, kinds: Kinds) -> str:
        """The document's reference, scoped as the kinds a program serves scope it."""
        return manifest_ref(self.data, kinds)


def iter_documents(text: str, file: str) -> Iterator[ManifestDocument]:
    """Yield the non-empty documents of a YAML text; a syntax error raises `InvalidYAML`."""
    index = 0
    try:
        for data in load_yaml_documents(text):
            index += 1
            if data is not None:
                yield ManifestDocument(file, index, data)
    except AIMValidationError as err:
        raise err.located(file=file, document=index + 1) from None
    except yaml.YAMLError as exc:
        raise AIMValidationError(
            ROOT,
            "InvalidYAML",
            " ".join(str(exc).split()),
            file=file,
            document=index + 1,
            line=yaml_error_line(exc, text),
        ) from None


class ManifestPathError(FileNotFoundError):
    """A path that cannot be read as manifests: missing, not a regular file or directory, or a
    symlink in a directory that leads out of it.

    A `FileNotFoundError`, so every caller that reports a missing input path as a usage error
    reports these the same way; the message names the path and is meant to be shown as it is.
    """


def manifest_files(path: str | os.PathLike[str], skipped: list[Path] | None = None) -> list[Path]:
    """A file itself, or every `*.yaml`/`*.yml` under a directory, sorted by relative path.

    Only regular files are read: a FIFO, socket or device named `*.yaml` would block the reader
    or never end, so it is left out and, when `skipped` is given, noted there.

    A directory's manifests are what lies in it. A symlink inside it to a file that stays inside
    is read (a manifest shared under a second name); a symlink to a directory is not descended,
    because one inside only repeats files read at their own path (or loops) and one outside is
    not in the directory. A symlink that leads outside the directory, to a file or a directory,
    is refused with `ManifestPathError` naming it, rather than silently read (`x.yaml ->
    /etc/passwd`) or silently left out (a linked folder of manifests that would not deploy).
    `path` itself may be a symlink: naming it is the user's choice, and it is followed.
    """
    root = Path(path)
    if root.is_dir():
        resolved_root = root.resolve()
        found: list[Path] = []
        outside: list[tuple[Path, Path]] = []
        for p in root.rglob("*"):
            linked = p.is_symlink()
            if linked and p.suffix.lower() not in YAML_SUFFIXES and not p.is_dir():
                continue
            if linked:
                target = Path(os.path.realpath(p))  # a symlink loop resolves to itself, no error
                if not target.is_relative_to(resolved_root):
                    outside.append((p, target))
                    continue
                if p.is_dir():
                    continue
            if p.suffix.lower() not in YAML_SUFFIXES or p.name == LOCK_FILE:
                continue
            if p.is_file():
                found.append(p)
            elif skipped is not None and p.exists() and not p.is_dir():
                skipped.append(p)
        if outside:
            outside.sort(key=lambda pair: pair[0].relative_to(root).as_posix())
            link, target = outside[0]
            more = f" (and {len(outside) - 1} more such links)" if len(outside) > 1 else ""
            raise ManifestPathError(
                f"{link}: symlink to {target}, outside {root}; not followed{more} (copy it in to read it)"
            )
        return sorted(found, key=lambda p: p.relative_to(root).as_posix())
    if root.is_file():
        return [root]
    if root.exists():
        raise ManifestPathError(f"{root}: not a regular file or directory (a FIFO, socket or device)")
    raise ManifestPathError(f"{root}: no such file or directory")


def read_text(file: Path) -> str:
    """A manifest file's text, refused before reading when it is larger than any manifest can be."""
    try:
        size = file.stat().st_size
        if size > MAX_FILE_BYTES:
            raise AIMValidationError(
                ROOT,
                "InputTooLarge",
                f"{size} bytes is larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB",
                file=str(file),
            )
        return file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise AIMValidationError(ROOT, "InvalidYAML", f"cannot read: {exc}", file=str(file)) from None


def read_documents(source: str | os.PathLike[str] | IO[str]) -> list[ManifestDocument]:
    """Every non-empty YAML document of a file, a directory tree, or a text stream."""
    if isinstance(source, str | os.PathLike):
        docs: list[ManifestDocument] = []
        for file in manifest_files(source):
            docs.extend(iter_documents(read_text(file), str(file)))
        return docs
    name = getattr(source, "name", None)
    label = name if isinstance(name, str) else "<stream>"
    return list(iter_documents(source.read(MAX_FILE_BYTES + 1), label))


def load_manifests(source: str | os.PathLike[str] | IO[str], kinds: Kinds = KINDS) -> list[AIMObject]:
    """Parse every AIM object of a file, a directory (recursive, sorted), or a multi-document stream.

    Any document that is not an admitted AIM object (a Namespace in the same folder included) is
    an error carrying `.file`, `.document` and `.object_ref`.
    """
    out: list[AIMObject] = []
    for doc in read_documents(source):
        try:
            out.append(parse(doc.data, kinds))
        except AIMValidationError as err:
            raise err.located(file=doc.file, document=doc.document, object_ref=doc.ref(kinds)) from None
    return out


def dump_manifests(objects: list[AIMObject]) -> str:
    """Multi-document YAML of objects, in the given order, keys as written by `to_manifest`."""
    stream = io.StringIO()
    yaml.safe_dump_all([to_manifest(o) for o in objects], stream, sort_keys=False)
    return stream.getvalue()
