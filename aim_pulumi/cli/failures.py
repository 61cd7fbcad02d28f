"""One clear line for a failed plan: where (file:line or file:document), the object, the field, the reason."""

from __future__ import annotations

import contextlib
import traceback
from pathlib import Path
from types import TracebackType

from aim_pulumi.cli.common import display_path, one_line
from aim_pulumi.cli.project import Program
from aim_pulumi.cli.render import as_mapping


def _program_location(tb: TracebackType | None, program: Program) -> str | None:
    """`file:line` of the innermost traceback frame inside the program's own files."""
    root = program.path
    found: str | None = None
    for frame, line in traceback.walk_tb(tb):
        filename = Path(frame.f_code.co_filename)
        with contextlib.suppress(ValueError):
            filename.resolve().relative_to(root)
            found = f"{display_path(filename)}:{line}"
    return found


def _declared_in_program(exc: BaseException, program: Program) -> str | None:
    """The program's line that declared the failing component (resolution runs after the body)."""
    # Only a program's failures come here, so the Pulumi layer is loaded already.
    from aim_pulumi.resources.sites import declaration_of

    site, _ = declaration_of(exc)
    if site is None:
        return None
    filename = Path(site.filename)
    try:
        filename.resolve().relative_to(program.path)
    except ValueError:
        return None
    return f"{display_path(filename)}:{site.line}"


def _manifest_location(object_ref: str | None, field: str, program: Program) -> str | None:
    """`file:line` of the object a resolution error names (the line of its field, as `validate`
    finds it), when the program is a YAML tree.

    A resolution error can name an object other than the service that failed (a template without
    sources, a runtime config), and a YAML program has no declaring line: its document is the place
    to fix. Read again only on this error path.
    """
    if not object_ref or program.kind != "manifests":
        return None
    from aim_pulumi.api.sources import read_manifest_set

    try:
        found = read_manifest_set(program.path)
    except (OSError, ValueError):
        return None
    for doc in found.aim:
        if doc.object_ref == object_ref:
            lines = found.lines(doc.file)
            line = lines.line(doc.document, field or "(root)") if lines is not None else None
            return f"{program.shown(doc.file)}:{line if line is not None else doc.document}"
    return None


def _chained_location(exc: BaseException, program: Program) -> str | None:
    """The program's own line, also when Pulumi re-raised the error from a failed registration."""
    seen: set[int] = set()
    current: BaseException | None = exc
    from aim_pulumi.offline.engine import ORIGIN_TRACEBACK

    while current is not None and id(current) not in seen:
        seen.add(id(current))
        for tb in (current.__traceback__, getattr(current, ORIGIN_TRACEBACK, None)):
            found = _program_location(tb, program)
            if found is not None:
                return found
        current = current.__cause__ or current.__context__
    return None


def _component_in(tb: TracebackType | None) -> str | None:
    """The innermost AIM component whose constructor was running.

    Named as the object it declares (`AIMService/ml-team/chat`, the form resolution errors use)
    when its args say so, else by its Pulumi name (`AIMStack models`).
    """
    import pulumi

    from aim_pulumi.api.io import KINDS, manifest_ref

    found: str | None = None
    for frame, _ in traceback.walk_tb(tb):
        owner = frame.f_locals.get("self")
        name = frame.f_locals.get("name")
        if (
            isinstance(owner, pulumi.ComponentResource)
            and type(owner).__module__.startswith("aim_pulumi.resources")
            and isinstance(name, str)
            and frame.f_code.co_name in ("__init__", "_setup", "_declare")
        ):
            kind = type(owner).__name__
            args = as_mapping(frame.f_locals.get("args"))
            # Args are either the Python shorthand (`name`, `namespace`) or a whole manifest.
            written = as_mapping(args.get("metadata"))
            metadata = {
                "name": args.get("name") or written.get("name") or name,
                "namespace": args.get("namespace") or written.get("namespace"),
            }
            ref = manifest_ref({"kind": kind, "metadata": metadata})
            found = ref if kind in KINDS and "?" not in ref.split("/") else f"{kind} {name}"
    return found


def failure_line(exc: BaseException, program: Program) -> str:
    """One line naming where (file:line or file:document), the object, the field and the reason.

    A program whose resolution failed for several objects gets one such line for each.
    """
    from aim_pulumi.api import AIMValidationError
    from aim_pulumi.api.errors import INTERNAL_ERROR, internal_failure
    from aim_pulumi.api.io import ManifestPathError
    from aim_pulumi.offline.engine import ORIGIN_TRACEBACK
    from aim_pulumi.offline.recording import DynamicCheckFailed
    from aim_pulumi.resolve.errors import AIMResolutionError
    from aim_pulumi.resources.program import AIMProgramError

    if isinstance(exc, AIMProgramError):
        return "\n".join(failure_line(failure, program) for failure in exc.failures)
    # Resolution runs after the program body, so the declaring line travels with the error.
    location = _chained_location(exc, program) or _declared_in_program(exc, program)
    component = _component_in(exc.__traceback__)
    parts: list[str | None]
    # An AIM error names its object itself, or none: guessing one from the frames the error passed
    # through would name one here and not under `pulumi preview` (whose words these must be).
    if isinstance(exc, AIMValidationError):
        where = exc.file
        if where is not None:
            # The line, as `validate` reports it; the document only when the line is not known.
            at = exc.line if exc.line is not None else exc.document
            where = program.shown(where) + (f":{at}" if at is not None else "")
        where = where or location or _manifest_location(exc.object_ref, exc.field, program)
        parts = [where, exc.object_ref, exc.field, exc.reason, exc.message]
    elif isinstance(exc, AIMResolutionError):
        # A stack setting is where the project or the command line sets it, not where it was read.
        setting = program.config_sources.get(exc.field) if exc.reason == "InvalidSetting" else None
        where = setting or location or _manifest_location(exc.object_ref, exc.field, program)
        parts = [where, exc.object_ref, exc.field, exc.reason, exc.message]
    elif isinstance(exc, DynamicCheckFailed):
        detail = "; ".join(f"{prop}: {reason}" for prop, reason in exc.failures)
        parts = [location, exc.resource_name, detail]
    elif isinstance(exc, ManifestPathError):
        # Its message names the path and what is wrong with it; its type would only add noise.
        parts = [location, component, str(exc)]
    elif isinstance(exc, SyntaxError):
        where = f"{display_path(Path(exc.filename))}:{exc.lineno}" if exc.filename else location
        parts = [where, "SyntaxError", exc.msg]
    elif (internal := internal_failure(exc, getattr(exc, ORIGIN_TRACEBACK, None))) is not None:
        parts = [location, component, INTERNAL_ERROR, internal]
    else:
        parts = [location, component, type(exc).__name__, str(exc)]
    return ": ".join(one_line(p) for p in parts if p)
