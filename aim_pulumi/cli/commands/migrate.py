"""`aim-pulumi migrate FILE_OR_DIR [-o DIR] [--in-place] [--custom-models FORM]`: v1alpha1 services and
templates to v1alpha2.

The conversion and the command's help are v1alpha1's (`aim_pulumi/resolve/legacy/`), handed to
this module with its `Extension` (`aim_pulumi/versions.py`); this module reads and writes the
files, and offers the command only while the CLI serves a version with a conversion.

Manifests are read with ruamel.yaml's round-trip loader, so comments, key order and quoting survive
where the library can keep them. Converted YAML goes to standard output (one multi-document stream),
or to `-o DIR` mirroring the input file names, or back into the input files with `--in-place`; the
input is never written otherwise. What cannot be converted is written unchanged and reported on
standard error as `file:doc: Kind/namespace/name: field: reason: message` (`doc` the 1-based
document of the file, as `aim-pulumi plan` locates a YAML object). What a converted document changes
on the next deployment (an inline custom model written as a base derivation, `--custom-models
derivation`) is said on standard error as `note: file:doc: Kind/namespace/name: message`. Exit 0
everything converted, 1 something was not convertible, 2 usage error.

`--in-place` rewrites every changed file or none. A half-migrated tree is worse than either end:
services converted while the templates they name are not, or the reverse. So every file is read
and converted first, and a run with any problem writes nothing (`-o DIR` writes what converts,
beside the input). The new files are then written to hidden temporary files beside their
targets (`files.write_files`) and renamed into place only once all are on disk; a failure or
kill before that changes no input. The renames themselves are one step per file, not one
atomic step: a kill among them leaves some files migrated and the rest not. Running the same
command again finishes the job, because migration is idempotent: v1alpha2 input is left as it is
(and its file not rewritten), and a v1alpha1 service or template converts the same whether the
files beside it are migrated already or not. Temporary files a killed run left are removed at
the next run and, not being `*.yaml`, never read as input.
"""

from __future__ import annotations

import argparse
import functools
import io
import itertools
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from aim_pulumi.api.errors import AIMValidationError, escape
from aim_pulumi.api.io import iter_documents, manifest_files, manifest_ref, read_text
from aim_pulumi.cli.common import format_problem
from aim_pulumi.cli.files import WriteFailed, WriteRefused, remove_leftovers, write_files
from aim_pulumi.resolve.catalog.extension import Extension, served_kinds

EXIT_OK = 0
EXIT_NOT_CONVERTIBLE = 1
EXIT_USAGE = 2
# ruamel.yaml is an optional part of the package: only this command needs it.
MIGRATE_EXTRA = "aim-pulumi[migrate]"

if TYPE_CHECKING:
    from ruamel.yaml import YAML

_KEY_LINE = re.compile(r"^( *)[^\s#-][^#]*:\s*(#.*)?$")
_ITEM_LINE = re.compile(r"^( *)- ")


def register(subparsers: Any, extension: Extension | None) -> None:
    """Add `migrate` when the CLI serves a version with a conversion (v1alpha1's); without one, no command.

    The words of the command come with the conversion (`Extension.migration`), since only the
    folder knows what it converts; the options and the file handling are this module's.
    """
    migration = extension.migration if extension is not None else None
    if extension is None or migration is None:
        return
    parser = subparsers.add_parser("migrate", help=migration.help, description=migration.description)
    parser.add_argument("path", metavar="FILE_OR_DIR", help="a manifest file or a directory of *.yaml/*.yml")
    target = parser.add_mutually_exclusive_group()
    target.add_argument(
        "-o", "--output-dir", metavar="DIR", help="write the converted files here, mirroring input names"
    )
    target.add_argument(
        "--in-place",
        action="store_true",
        help="rewrite the input files, every one or none (nothing is written when any file has a problem)",
    )
    parser.add_argument(
        "--output",
        choices=("text", "json"),
        default="text",
        help="text: converted YAML on stdout, problems on stderr (default); json: one report on stdout",
    )
    if migration.custom_model_forms:
        parser.add_argument(
            "--custom-models",
            choices=migration.custom_model_forms,
            default=migration.custom_model_forms[0],
            help=migration.custom_model_help,
        )
    parser.add_argument("--debug", action="store_true", help="show the traceback of an unexpected failure")
    parser.set_defaults(func=functools.partial(run, extension=extension))


@dataclass
class _File:
    """One input file: its documents as loaded (None for empty ones) and how it is indented."""

    path: Path
    relative: Path
    documents: list[Any] = field(default_factory=list)
    indent: tuple[int, int, int] = (2, 4, 2)
    readable: bool = True


def _guess_indent(text: str) -> tuple[int, int, int]:
    """(mapping, sequence, offset) of the first block sequence under a key, so output keeps the style."""
    lines = text.splitlines()
    for previous, line in itertools.pairwise(lines):
        key, item = _KEY_LINE.match(previous), _ITEM_LINE.match(line)
        if key and item:
            offset = len(item.group(1)) - len(key.group(1))
            if offset <= 0:
                return (2, 2, 0)
            return (2, offset + 2, offset)
    return (2, 4, 2)


def _yaml(indent: tuple[int, int, int]) -> YAML:
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 4096
    mapping, sequence, offset = indent
    yaml.indent(mapping=mapping, sequence=sequence, offset=offset)
    return yaml


def _as_kubernetes_reads(value: Any) -> Any:
    """A round-trip document's values as Kubernetes' YAML reader types them, for admission.

    ruamel reads YAML 1.2 and keeps an unquoted `yes` or `1:30` as text; the Go reader makes the
    first a boolean (and the second text). Quoted and block scalars are their own string types in
    the round-trip tree, so a plain `str` is exactly an unquoted scalar: it is read again the
    Go way. The written file keeps what the user wrote either way.
    """
    from aim_pulumi.api.goyaml import plain_value

    if isinstance(value, dict):
        return {key: _as_kubernetes_reads(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_as_kubernetes_reads(item) for item in value]
    if type(value) is str:
        return plain_value(value)
    return value


def _read(file: _File, errors: list[str]) -> None:
    try:
        text = read_text(file.path)
        # The round-trip loader has no bounds of its own: the bounded loader vets the text first.
        for _ in iter_documents(text, str(file.path)):
            pass
    except AIMValidationError as exc:
        errors.append(format_problem(exc.located(object_ref="?")))
        file.readable = False
        return
    file.indent = _guess_indent(text)
    from ruamel.yaml.error import YAMLError

    try:
        file.documents = list(_yaml(file.indent).load_all(text))
    except YAMLError as exc:
        errors.append(
            escape(
                f"{file.path}:{len(file.documents) + 1}: ?: (root): InvalidYAML: {' '.join(str(exc).split())}"
            )
        )
        file.readable = False


def _dump(documents: list[Any], indent: tuple[int, int, int]) -> str:
    stream = io.StringIO()
    _yaml(indent).dump_all([d for d in documents if d is not None], stream)
    text = stream.getvalue()
    return text if not text or text.endswith("\n") else text + "\n"


def _files(path: Path, output_dir: Path | None, skipped: list[Path]) -> list[_File]:
    """The input files; an output directory inside the input is not input (a rerun rewrites it)."""
    found = manifest_files(path, skipped)
    if path.is_dir():
        skip = output_dir.resolve() if output_dir is not None else None
        if skip is not None and skip != path.resolve():
            found = [f for f in found if not f.resolve().is_relative_to(skip)]
        return [_File(f, f.relative_to(path)) for f in found]
    return [_File(f, Path(f.name)) for f in found]


def _file_json(
    file: _File, changed: bool, args: argparse.Namespace, output_dir: Path | None, written: set[Path]
) -> dict[str, Any]:
    """One input file in the `--output json` report; `content` only when nothing was to be written."""
    entry: dict[str, Any] = {"path": str(file.path), "readable": file.readable, "converted": changed}
    if output_dir is not None or args.in_place:
        target = output_dir / file.relative if output_dir is not None else file.path
        entry["written"] = str(target) if target in written else None
    else:
        entry["content"] = _dump(file.documents, file.indent) if file.readable else None
    return entry


def run(
    args: argparse.Namespace,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    *,
    extension: Extension,
) -> int:
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    try:
        import ruamel.yaml  # noqa: F401
    except ImportError:
        print(f"aim-pulumi migrate: error: needs ruamel.yaml: pip install '{MIGRATE_EXTRA}'", file=err)
        return EXIT_USAGE
    source = Path(args.path)
    output_dir = Path(args.output_dir) if args.output_dir else None
    if output_dir is not None and output_dir.exists() and not output_dir.is_dir():
        print(f"aim-pulumi migrate: error: -o {escape(output_dir)} exists and is not a directory", file=err)
        return EXIT_USAGE
    skipped: list[Path] = []
    try:
        files = _files(source, output_dir, skipped)
    except FileNotFoundError as exc:  # missing, not a regular file, a symlink leading out
        print(f"aim-pulumi migrate: error: {escape(exc)}", file=err)
        return EXIT_USAGE
    for path in skipped:
        print(f"note: {escape(path)}: skipped: not a regular file (a FIFO, socket or device)", file=err)
    if not files:
        print(f"aim-pulumi migrate: error: no *.yaml or *.yml file in {source}", file=err)
        return EXIT_USAGE
    if output_dir is not None:
        inputs = {f.path.resolve() for f in files}
        clash = [f for f in files if (output_dir / f.relative).resolve() in inputs]
        if clash:
            print(
                f"aim-pulumi migrate: error: {output_dir / clash[0].relative} is an input file; "
                "use --in-place to rewrite the input",
                file=err,
            )
            return EXIT_USAGE

    reports: list[str] = []
    for file in files:
        _read(file, reports)
    located = [
        (file, number) for file in files for number, doc in enumerate(file.documents, 1) if doc is not None
    ]
    documents = [file.documents[number - 1] for file, number in located]
    migration = extension.migration
    if migration is None:  # `register` adds no command then; a direct caller gets the same answer
        print("aim-pulumi migrate: error: no older API version is installed to migrate from", file=err)
        return EXIT_USAGE
    options = {"custom_models": args.custom_models} if migration.custom_model_forms else {}
    result = migration.convert(documents, reading=_as_kubernetes_reads, **options)
    # What a converted document changes on the next deployment: on stderr whatever the output form
    # (and in the JSON report).
    notes: list[str] = []
    for notice in result.notices:
        file, number = located[notice.index]
        ref = manifest_ref(documents[notice.index], served_kinds(extension))
        notes.append(": ".join(escape(p) for p in (f"{file.path}:{number}", ref, notice.message)))
    for line in notes:
        print(f"note: {line}", file=err)
    for problem in result.problems:
        file, number = located[problem.index]
        ref = manifest_ref(documents[problem.index], served_kinds(extension))
        parts = (f"{file.path}:{number}", ref, problem.field or "(root)", problem.reason, problem.message)
        reports.append(": ".join(escape(p) for p in parts))
    for (file, number), converted in zip(located, result.objects, strict=True):
        file.documents[number - 1] = converted
    # Documents a conversion adds go right after the one that needs them, last position first so
    # the positions of the others hold.
    additions = list(zip(located, result.added, strict=True)) if result.added else []
    for (file, number), extra in reversed(additions):
        file.documents[number:number] = list(extra)

    changed_files = {
        id(file) for (file, _), changed in zip(located, result.converted, strict=True) if changed
    }
    readable = [f for f in files if f.readable]
    writes: list[tuple[Path, _File]]
    if output_dir is not None:
        writes = [(output_dir / f.relative, f) for f in readable]
    elif args.in_place:
        for file in files:
            remove_leftovers(file.path)
        writes = [(f.path, f) for f in readable if id(f) in changed_files]
    else:
        writes = []
    if output_dir is None and not args.in_place and args.output != "json":
        out.write("---\n".join(_dump(f.documents, f.indent) for f in readable if any(f.documents)))
    refusal: str | None = None
    if args.in_place and reports:
        refusal = (
            f"{len(reports)} problem(s), nothing written: --in-place rewrites every file or none "
            "(fix them, or write what converts with -o DIR)"
        )
        writes = []
    written: set[Path] = set()
    try:
        if output_dir is not None:
            write_files(
                [(target, _dump(f.documents, f.indent)) for target, f in writes],
                root=output_dir,
                create_parents=True,
            )
        elif writes:
            write_files(
                [(target, _dump(f.documents, f.indent)) for target, f in writes],
                root=source if source.is_dir() else source.parent,
            )
        written = {target for target, _ in writes}
    except (WriteRefused, WriteFailed) as exc:
        for line in reports:
            print(line, file=err)
        print(f"aim-pulumi migrate: error: {exc}", file=err)
        return EXIT_NOT_CONVERTIBLE

    total = len(documents)
    if args.output == "json":
        report = {
            "converted": sum(result.converted),
            "documents": total,
            "problems": reports,
            "notices": notes,
            "files": [_file_json(f, id(f) in changed_files, args, output_dir, written) for f in files],
        }
        out.write(json.dumps(report, indent=2, sort_keys=True) + "\n")
        if refusal is not None:
            print(f"aim-pulumi migrate: error: {refusal}", file=err)
        return EXIT_NOT_CONVERTIBLE if reports else EXIT_OK
    for line in reports:
        print(line, file=err)
    print(
        f"{sum(result.converted)} of {total} document(s) converted, {len(reports)} problem(s)",
        file=err,
    )
    if refusal is not None:
        print(f"aim-pulumi migrate: error: {refusal}", file=err)
    return EXIT_NOT_CONVERTIBLE if reports else EXIT_OK
