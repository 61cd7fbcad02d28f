"""`aim-pulumi validate FILE_OR_DIR...`: admission checks of AIM manifests, no cluster contacted.

Every problem is one line, `file:line: Kind/namespace/name: field: reason: message` (line is
where the offending key or list item is written, found by following the field path through the
document as far as it exists: a missing field points at the mapping that lacks it; cluster kinds
print `Kind/name`), on stdout; the `file:line:` form is the one editors and terminals jump to. Plain
Kubernetes objects beside the AIM ones are checked against the vendored schemas when the
project has one for their kind (reason `SchemaViolation`) and listed as not validated otherwise;
`kustomization.yaml`, `Pulumi*.yaml` and documents that are no object are skipped. Notes go to
standard error. Exit 0 when every object is valid, 1 when any problem was found, 2 for a usage
error (a missing path, or nothing to validate). `-` reads standard input; `--output json` prints
one JSON document instead of lines, with both the line and the document (1-based position of the
YAML document in its file) of each problem.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from aim_pulumi.api.errors import AIMValidationError, escape
from aim_pulumi.api.io import ManifestDocument, admission_problems, manifest_files, manifest_ref, read_text
from aim_pulumi.api.limits import MAX_FILE_BYTES
from aim_pulumi.api.locations import DocumentLines
from aim_pulumi.api.sources import ManifestSet, add_documents, located, skip_reason
from aim_pulumi.cli.common import format_problem
from aim_pulumi.versions import EXTENSION, SERVED_KINDS

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_USAGE = 2
SCHEMA_VIOLATION = "SchemaViolation"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "validate",
        help="check AIM manifests against the admission rules",
        description="Check AIM YAML manifests (files, directories searched for *.yaml/*.yml, or - for "
        "standard input) against the admission rules, and plain Kubernetes objects beside them against "
        "the vendored schemas. Exit 0 valid, 1 problems, 2 usage error.",
    )
    parser.add_argument("paths", nargs="+", metavar="FILE_OR_DIR", help="manifests; - for standard input")
    parser.add_argument(
        "--output", choices=("text", "json"), default="text", help="text lines (default) or one JSON document"
    )
    parser.add_argument("--debug", action="store_true", help="show the traceback of an unexpected failure")
    parser.set_defaults(func=run)


@dataclass
class Report:
    """What `validate` found: problems, documents read, and notes (skipped or not validated)."""

    problems: list[AIMValidationError] = field(default_factory=list)
    documents: int = 0
    notes: list[str] = field(default_factory=list)
    unvalidated: list[str] = field(default_factory=list)


def _located(
    doc: ManifestDocument, errors: list[AIMValidationError], lines: DocumentLines
) -> list[AIMValidationError]:
    return located(doc, errors, lines, SERVED_KINDS)


def _where(file: str, document: int, lines: DocumentLines) -> str:
    """`file:line` of a document's first line (its document position when it cannot be found)."""
    return f"{file}:{lines.line(document, '(root)') or document}"


def _schema_problems(doc: ManifestDocument, lines: DocumentLines) -> list[AIMValidationError] | None:
    """Schema violations of a plain Kubernetes object; None when no schema is vendored for its kind."""
    from aim_pulumi.manifests.child_admission import shown_detail
    from aim_pulumi.schemas import validate_manifest
    from aim_pulumi.schemas.registry import schema_document

    data = doc.data
    if schema_document(str(data.get("apiVersion")), str(data.get("kind"))) is None:
        return None
    out = []
    for error in validate_manifest(data):
        path, _, message = error.partition(": ")
        shown = shown_detail(path, message) if message else error
        out.append(AIMValidationError(path or "(root)", SCHEMA_VIOLATION, shown))
    return _located(doc, out, lines)


def _deployability_notes(data: Any) -> list[str]:
    """What the operator admits but `plan` refuses for any service using it (a v1alpha1 template
    with no sources, say): notes, not problems, since the object is valid AIM.

    The folder that owns such a kind knows what its plan refuses, and words the note
    (`Extension.manifest_note` of the extension the CLI serves).
    """
    note = EXTENSION.manifest_note(data) if EXTENSION is not None else None
    notes = [note] if note is not None else []
    if isinstance(data, dict) and data.get("kind") in ("AIMProfile", "AIMClusterProfile"):
        from aim_pulumi.api.io import parse
        from aim_pulumi.api.profile import AIMClusterProfile, AIMProfile, deprecation_notes

        try:
            profile = parse(data)
        except AIMValidationError:
            return notes  # reported as a problem already
        if isinstance(profile, AIMProfile | AIMClusterProfile):
            notes += deprecation_notes(profile.spec)
    return notes


def _plain_object_problem(data: Any) -> AIMValidationError | None:
    """What keeps a plain object from becoming its pulumi-kubernetes resource, as `plan` checks it."""
    from aim_pulumi.resources.kubernetes_objects import check_kubernetes_object

    try:
        check_kubernetes_object(data, values=False)
    except AIMValidationError as error:
        return error
    return None


def _check_text(text: str, label: str, report: Report) -> None:
    """Check the documents of one file in order; a YAML error ends the file."""
    found = ManifestSet()
    lines = DocumentLines(text)  # composed again only for a file with something to point at
    try:
        add_documents(found, text, label, SERVED_KINDS)
    except AIMValidationError as err:
        # A YAML error or a bound knows its line; one about the whole file is at its start.
        report.problems.append(err.located(object_ref="?", line=1))
        report.documents += 1  # the document that could not be read is one of those checked
    report.notes.extend(
        f"{_where(s.file, s.document, lines)}: skipped: {s.reason}" if s.document is not None else s.line
        for s in found.skipped
    )
    aim = {id(doc) for doc in found.aim}
    for doc in sorted([*found.aim, *found.kubernetes], key=lambda d: d.document):
        report.documents += 1
        if id(doc) in aim:
            admission = admission_problems(doc.data, SERVED_KINDS)
            report.problems.extend(_located(doc, admission, lines))
            if not admission:
                at = lines.line(doc.document, "spec.modelSources") or doc.document
                report.notes.extend(
                    f"{doc.file}:{at}: {doc.ref(SERVED_KINDS)}: {note}"
                    for note in _deployability_notes(doc.data)
                )
            continue
        plain = _plain_object_problem(doc.data)
        if plain is not None:
            report.problems.extend(_located(doc, [plain], lines))
            continue
        problems = _schema_problems(doc, lines)
        if problems is None:
            where = f"{_where(doc.file, doc.document, lines)}: {manifest_ref(doc.data, SERVED_KINDS)}"
            report.unvalidated.append(where)
            report.notes.append(
                f"{where}: not validated (no vendored schema for {doc.data.get('apiVersion')})"
            )
        else:
            report.problems.extend(problems)


def check(paths: list[str], stdin: TextIO, stderr: TextIO) -> tuple[int, list[AIMValidationError], int]:
    """Validate every document under `paths`: (exit code, problems, number of documents read)."""
    code, report = check_report(paths, stdin, stderr)
    return code, report.problems, report.documents


def check_report(paths: list[str], stdin: TextIO, stderr: TextIO) -> tuple[int, Report]:
    sources: list[tuple[str, str | None]] = []
    report = Report()
    for path in paths:
        if path == "-":
            sources.append(("<stdin>", None))
            continue
        try:
            skipped: list[Path] = []
            sources.extend((str(file), str(file)) for file in manifest_files(path, skipped))
            report.notes.extend(
                f"{p}: skipped: not a regular file (a FIFO, socket or device)" for p in skipped
            )
        except FileNotFoundError as exc:
            print(f"aim-pulumi validate: error: {escape(exc)}", file=stderr)
            return EXIT_USAGE, report
    for label, file in sources:
        if file is None:
            try:
                text = stdin.read(MAX_FILE_BYTES + 1)
            except UnicodeDecodeError as exc:
                report.problems.append(
                    AIMValidationError(
                        "(root)", "InvalidYAML", f"cannot read: {exc}", file=label, object_ref="?"
                    )
                )
                continue
            _check_text(text, label, report)
            continue
        reason = skip_reason(Path(file))
        if reason is not None:
            report.notes.append(f"{file}: skipped: {reason}")
            continue
        try:
            text = read_text(Path(file))
        except AIMValidationError as exc:
            report.problems.append(exc.located(object_ref="?"))
            report.documents += 1
            continue
        _check_text(text, label, report)
    if report.documents == 0 and not report.problems:
        for note in report.notes:
            print(f"note: {escape(note)}", file=stderr)
        print(f"aim-pulumi validate: error: no manifests found in {' '.join(paths)}", file=stderr)
        return EXIT_USAGE, report
    return (EXIT_PROBLEMS if report.problems else EXIT_OK), report


def _problem_json(err: AIMValidationError) -> dict[str, Any]:
    return {
        "file": err.file,
        "document": err.document,
        "line": err.line,
        "object": err.object_ref,
        "field": err.field or "(root)",
        "reason": err.reason,
        "message": err.message,
    }


def run(args: argparse.Namespace, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    code, report = check_report(list(args.paths), sys.stdin, err)
    if code == EXIT_USAGE:
        return code
    if args.output == "json":
        document = {
            "valid": not report.problems,
            "documents": report.documents,
            "problems": [_problem_json(p) for p in report.problems],
            "notValidated": report.unvalidated,
            "notes": report.notes,
        }
        print(json.dumps(document, indent=2, sort_keys=True), file=out)
        return code
    for note in report.notes:
        print(f"note: {escape(note)}", file=err)
    for problem in report.problems:
        print(format_problem(problem, by_line=True), file=out)
    if report.problems:
        bad = len({(p.file, p.document) for p in report.problems})
        print(f"{len(report.problems)} problem(s) in {bad} of {report.documents} document(s)", file=err)
    elif report.unvalidated:
        valid = report.documents - len(report.unvalidated)
        print(f"{valid} objects valid, {len(report.unvalidated)} not validated", file=out)
    else:
        print(f"{report.documents} objects valid", file=out)
    return code
