"""`aim-pulumi validate FILE_OR_DIR...`: admission checks of AIM manifests, no cluster contacted.

Every problem is one line, `file:doc: Kind/namespace/name: field: reason: message` (doc is the
1-based YAML document position in its file; cluster kinds print `Kind/name`), on stdout. Exit 0
when every object is valid, 1 when any problem was found, 2 for a usage error (a missing path, or
nothing to validate). `-` reads standard input.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO

from aim_pulumi.api.errors import AIMValidationError
from aim_pulumi.api.io import (
    ManifestDocument,
    admission_problems,
    iter_documents,
    manifest_files,
)

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_USAGE = 2


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "validate",
        help="check AIM manifests against the admission rules",
        description="Check AIM YAML manifests (files, directories searched for *.yaml/*.yml, or - for "
        "standard input) against the admission rules. Exit 0 valid, 1 problems, 2 usage error.",
    )
    parser.add_argument("paths", nargs="+", metavar="FILE_OR_DIR")
    parser.set_defaults(func=run)


def format_problem(err: AIMValidationError) -> str:
    """The one-line form of a problem: `file:doc: ref: field: reason: message`."""
    where = err.file or "<input>"
    if err.document is not None:
        where = f"{where}:{err.document}"
    return f"{where}: {err.object_ref or '?'}: {err.field or '(root)'}: {err.reason}: {err.message}"


def _check_text(text: str, label: str, problems: list[AIMValidationError]) -> int:
    """Check the documents of one file in order; a YAML error ends the file. Returns documents read."""
    count = 0
    try:
        for doc in iter_documents(text, label):
            count += 1
            problems.extend(_located(doc, admission_problems(doc.data)))
    except AIMValidationError as err:
        problems.append(err.located(object_ref="?"))
    return count


def _located(doc: ManifestDocument, errors: list[AIMValidationError]) -> list[AIMValidationError]:
    return [e.located(file=doc.file, document=doc.document, object_ref=doc.object_ref) for e in errors]


def check(paths: list[str], stdin: TextIO, stderr: TextIO) -> tuple[int, list[AIMValidationError], int]:
    """Validate every document under `paths`: (exit code, problems, number of documents read)."""
    sources: list[tuple[str, str | None]] = []
    for path in paths:
        if path == "-":
            sources.append(("<stdin>", None))
            continue
        try:
            sources.extend((str(file), str(file)) for file in manifest_files(path))
        except FileNotFoundError:
            print(f"aim-pulumi validate: error: no such file or directory: {path}", file=stderr)
            return EXIT_USAGE, [], 0
    problems: list[AIMValidationError] = []
    count = 0
    for label, file in sources:
        if file is None:
            count += _check_text(stdin.read(), label, problems)
            continue
        try:
            text = Path(file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            problems.append(
                AIMValidationError("(root)", "InvalidYAML", f"cannot read: {exc}", file=file, object_ref="?")
            )
            continue
        count += _check_text(text, label, problems)
    if count == 0 and not problems:
        print(f"aim-pulumi validate: error: no manifests found in {' '.join(paths)}", file=stderr)
        return EXIT_USAGE, [], 0
    return (EXIT_PROBLEMS if problems else EXIT_OK), problems, count


def run(args: argparse.Namespace, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    code, problems, count = check(list(args.paths), sys.stdin, err)
    if code == EXIT_USAGE:
        return code
    for problem in problems:
        print(format_problem(problem), file=out)
    if problems:
        bad = len({(p.file, p.document) for p in problems})
        print(f"{len(problems)} problem(s) in {bad} of {count} document(s)", file=err)
    else:
        print(f"{count} objects valid", file=out)
    return code
