"""`aim-pulumi import (--from DUMP | --kubeconfig FILE ...) -o DIR`: put a running AIM operator deployment
under Pulumi.

DUMP is what `kubectl get -o yaml` prints for the AIM objects and their children (a file, a
directory of files, or `-` for standard input). `--kubeconfig FILE [--context NAME] (-n NS |
--all-namespaces)` lists the same objects from the cluster instead, read-only
(`aim_pulumi.adopt.cluster`); both feed the same code. Into DIR go `aim/` (the AIM YAML that
`AIMStack` or `aim-pulumi plan` plans, with the operator's profile choice kept as the sticky
binding's start), `import.json` (a `pulumi import --file` document for every child that already
exists), and `report.json`; standard output gets the same report as text, then the steps that
take the operator out. What is adopted, kept and changed is decided by `aim_pulumi.adopt`
(`aim_pulumi.adopt.run`); this module reads the arguments, hands the package the offline planner,
writes what it returns and prints it.

Nothing is ever replaced silently: when the first `pulumi up` would replace an adopted
InferenceService (a model restart that can take many minutes) or PVC (downloaded weights lost),
or shrink a PVC, `import` exits 1 and writes no `import.json` unless `--allow-replace` is given.
`--format python` writes the same objects as a Python program instead of `aim/`. `--apply` makes
the removal steps that are API calls once the files are written (`aim_pulumi.adopt.cluster`): the
operator scaled to zero, the ownerReferences removed, and with `--delete-aim-objects` the AIM
objects deleted, orphaning their children.

Exit status: 0 written, 1 a replacement was found (without `--allow-replace`), the dump (or the
namespace) holds no AIMService, the cluster could not be read, the plan of the written YAML
failed, or an `--apply` call was refused, 2 usage error.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import shlex
import sys
import tempfile
import traceback
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from aim_pulumi.adopt.cluster import ClusterReadError
from aim_pulumi.adopt.dump import describe, read_dump_placed
from aim_pulumi.adopt.matching import Adoption, Child, ServiceReport
from aim_pulumi.adopt.program import PROGRAM_FILE
from aim_pulumi.adopt.removal import kept_lines
from aim_pulumi.adopt.run import ImportFailed, Planner, Started, start_import
from aim_pulumi.api.errors import AIMValidationError, escape
from aim_pulumi.cli.common import EXIT_FAILED, EXIT_OK, EXIT_USAGE, STDOUT, UsageError, format_problem
from aim_pulumi.cli.files import WriteFailed, WriteRefused, write_files

if TYPE_CHECKING:
    from aim_pulumi.adopt.matching import PlannedStack

__all__ = ["register", "run"]

DEFAULT_STACK_NAME = "aim"
DEFAULT_OPERATOR_NAMESPACE = "aim-system"
DEFAULT_OPERATOR_DEPLOYMENT = "aim-engine-controller-manager"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "import",
        help="move a running AIM operator deployment under Pulumi (from a kubectl dump or the cluster)",
        description="Read the AIM objects and their children from a `kubectl get -o yaml` dump (--from) "
        "or from a cluster (--kubeconfig; read-only unless --apply), write the "
        "AIM YAML (or, --format python, a program), a `pulumi import --file` document for every child "
        "that exists, and a report of what the first `pulumi up` would change. Exit 0 written, 1 an "
        "InferenceService or PVC would be replaced (without --allow-replace), the cluster could not be "
        "read, the plan failed or an --apply call was refused, 2 usage error.",
    )
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "--from",
        dest="source",
        metavar="FILE_OR_DIR",
        help="the dump: a file, a directory of *.yaml/*.yml, or - for standard input",
    )
    source.add_argument(
        "--kubeconfig",
        metavar="FILE",
        help="read the objects from the cluster this kubeconfig names instead (read-only: lists only)",
    )
    parser.add_argument("--context", help="the kubeconfig context (default: its current context)")
    scope = parser.add_mutually_exclusive_group()
    scope.add_argument("-n", "--namespace", metavar="NS", help="with --kubeconfig: the namespace to read")
    scope.add_argument(
        "--all-namespaces", action="store_true", help="with --kubeconfig: read every namespace"
    )
    parser.add_argument(
        "-o",
        "--output-dir",
        metavar="DIR",
        required=True,
        help="where to write aim/, import.json, report.json",
    )
    parser.add_argument(
        "--format",
        choices=("yaml", "python"),
        default="yaml",
        help="yaml (default): the AIM objects as aim/*.yaml, for AIMStack or `aim-pulumi plan`; python: "
        "the same objects declared by a Python program, DIR/__main__.py (import.json names its resources)",
    )
    parser.add_argument(
        "--allow-replace",
        action="store_true",
        help="write import.json and exit 0 even when an InferenceService or PVC would be replaced",
    )
    parser.add_argument(
        "--name",
        default=DEFAULT_STACK_NAME,
        help="the AIMStack's Pulumi name in the program that declares aim/ (default: aim, the name "
        "`aim-pulumi plan DIR/aim` gives it); every Pulumi name in import.json starts with it",
    )
    parser.add_argument(
        "--operator-namespace",
        default=DEFAULT_OPERATOR_NAMESPACE,
        help="the operator's namespace (default: aim-system)",
    )
    parser.add_argument(
        "--operator-deployment",
        default=DEFAULT_OPERATOR_DEPLOYMENT,
        help=f"the operator's Deployment (default: {DEFAULT_OPERATOR_DEPLOYMENT})",
    )
    parser.add_argument(
        "--apply",
        action="store_true",
        help="with --kubeconfig: once the files are written, scale the operator to zero and remove the "
        "children's ownerReferences to AIM objects (the printed steps 1 and 2), as API calls",
    )
    parser.add_argument(
        "--delete-aim-objects",
        action="store_true",
        help="with --apply: then delete the AIM objects with propagationPolicy Orphan (every child stays)",
    )
    parser.add_argument("--debug", action="store_true", help="show the traceback of a failed plan")
    parser.set_defaults(func=run)


def _read(source: str, stdin: TextIO) -> tuple[list[dict[str, Any]], list[str]]:
    """The dump's objects and where each was read."""
    if source == STDOUT:
        return read_dump_placed(stdin)
    path = Path(source)
    if not path.exists():
        raise UsageError(f"--from {escape(source)}: no such file or directory")
    try:
        return read_dump_placed(path)
    except FileNotFoundError as exc:  # not a regular file, a symlink leading out of the directory
        raise UsageError(escape(exc)) from None


def _start(args: argparse.Namespace, stdin: TextIO) -> Started:
    """The objects of `--from` or of the cluster, sorted out; raises UsageError, ClusterReadError,
    ImportFailed."""
    if args.delete_aim_objects and not args.apply:
        raise UsageError("--delete-aim-objects is a step of --apply: give both")
    if args.kubeconfig is None:
        if args.namespace is not None or args.all_namespaces or args.context is not None or args.apply:
            raise UsageError(
                "-n, --all-namespaces, --context and --apply act on a cluster: they need --kubeconfig"
            )
        objects, places = _read(args.source, stdin)
        return start_import(objects, [], escape(args.source), places)
    if args.namespace is None and not args.all_namespaces:
        raise UsageError("--kubeconfig needs -n NS or --all-namespaces")
    if not Path(args.kubeconfig).is_file():
        raise UsageError(f"--kubeconfig {escape(args.kubeconfig)}: no such file")
    from kubernetes.config import ConfigException

    from aim_pulumi.adopt import cluster

    try:
        read = cluster.read_cluster(
            args.kubeconfig, args.context, None if args.all_namespaces else args.namespace
        )
    except (ConfigException, OSError) as exc:
        raise UsageError(f"--kubeconfig {escape(args.kubeconfig)}: {escape(exc)}") from None
    where = "any namespace" if args.all_namespaces else f"namespace {escape(args.namespace)}"
    return start_import(read.objects, read.others, f"{where} of the cluster")


def _check_output(out_dir: Path, files: Mapping[str, str]) -> None:
    """Refuse to mix with an earlier import's YAML: an object gone since would still be planned."""
    if out_dir.exists() and not out_dir.is_dir():
        raise UsageError(f"-o {escape(out_dir)} exists and is not a directory")
    aim_dir = out_dir / "aim"
    if aim_dir.is_dir():
        stale = sorted(
            p for p in aim_dir.rglob("*") if p.is_file() and p.relative_to(out_dir).as_posix() not in files
        )
        if stale:
            raise UsageError(
                f"{escape(stale[0])} is not one of the objects of this dump; remove {escape(aim_dir)} "
                "(or choose another -o) so that only the dump's objects are planned"
            )


def _planner(name: str, debug: bool, err: TextIO) -> Planner:
    """Plan files as `aim-pulumi plan` would, in a scratch copy; None (the error printed) when it fails."""

    def plan(files: Mapping[str, str]) -> PlannedStack | None:
        from aim_pulumi.cli.execution import execute
        from aim_pulumi.cli.project import load_program
        from aim_pulumi.offline.plan_document import planned_stack

        with tempfile.TemporaryDirectory(prefix="aim-pulumi-import-") as scratch:
            # A Python program (`--format python`) is planned from its own directory, YAML from aim/.
            root = Path(scratch) if PROGRAM_FILE in files else Path(scratch) / "aim"
            # Confined as the output directory is (`write_files`): `aim_pulumi.adopt` refuses any
            # name that could lead out, and no path is written before it is checked all the same.
            write_files(
                [(Path(scratch) / relative, text) for relative, text in files.items()],
                root=Path(scratch),
                create_parents=True,
            )
            root.mkdir(exist_ok=True)
            program = dataclasses.replace(load_program(str(root)), project=name)
            outcome = execute(program, debug=debug)
            if outcome.error is not None:
                if debug:
                    traceback.print_exception(outcome.error.cause, file=err)
                for line in outcome.error.line.splitlines():
                    print(f"error: {line}", file=err)
                return None
            assert outcome.recording is not None
            return planned_stack(outcome.recording)

    return plan


def _value(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False) if not isinstance(value, str) else value
    return escape(text if len(text) <= 120 else text[:117] + "...")


def _child_lines(child: Child) -> list[str]:
    _, kind, namespace, name = child.key
    label = f"{kind} {namespace}/{name}" if namespace else f"{kind} {name}"
    pulumi_name = child.resource.name
    if child.live is None:
        return [f"  create  {label}  ({pulumi_name}): not in the cluster; the first `pulumi up` creates it"]
    effects = child.effects()
    verdict = (
        "REPLACED"
        if "replaces" in effects
        else "REFUSED"
        if "refused" in effects
        else "rolls pods"
        if "rolls-pods" in effects
        else "KEPT AT CREATION: every `pulumi up` warns (CacheKeptAtCreation) until it is recreated"
        if "kept-at-creation" in effects
        else "updated in place"
        if child.changes
        else "unchanged"
    )
    if child.kept and verdict == "unchanged":
        verdict = "unchanged: the operator's values are kept, so its pods stay as they run"
    lines = [f"  adopt   {label}  ({pulumi_name}): {verdict}"]
    if child.planned_name:
        lines.append(
            f"      = metadata.name: kept as the operator named it (the plan's own: {child.planned_name})"
        )
    # Values as the report holds them: no credential (`aim_pulumi.adopt.redact`).
    for change in child.shown_kept():
        if isinstance(change.live, list | Mapping) and change.planned is not None:
            extras = ", ".join(sorted(set(_extra_fields(change.live, change.planned, ""))))
            lines.append(
                f"      = {escape(change.path)}: the live value kept, with fields the plan does not set: "
                f"{escape(extras)}"
            )
            continue
        live = "(absent)" if change.live is None else _value(change.live)
        planned = "does not set it" if change.planned is None else f"sets {_value(change.planned)}"
        lines.append(f"      = {escape(change.path)}: {live} kept (the plan alone {planned})")
    explained: set[str] = set()
    for change in child.shown_changes():
        live = _value(change.live)
        planned = _value(change.planned)
        note = ""
        if change.effect != "update":
            # Each reason once per object: the first change it applies to carries it.
            note = (
                f"  [{change.effect}]"
                if change.reason in explained
                else f"  [{change.effect}: {change.reason}]"
            )
            explained.add(change.reason)
        lines.append(f"      ~ {escape(change.path)}: {live} -> {planned}{note}")
    return lines


def _extra_fields(live: Any, planned: Any, path: str) -> list[str]:
    """The paths (items by index) of the fields `live` holds and `planned` does not set."""
    if isinstance(live, Mapping):
        other = planned if isinstance(planned, Mapping) else {}
        return [
            p
            for key, value in live.items()
            for p in (
                [f"{path}.{key}".lstrip(".")]
                if key not in other
                else _extra_fields(value, other[key], f"{path}.{key}")
            )
        ]
    if isinstance(live, list) and isinstance(planned, list):
        return [
            p
            for i, (q, r) in enumerate(zip(live, planned, strict=False))
            for p in _extra_fields(q, r, f"{path}[{i}]")
        ]
    return []


def _profile_line(report: ServiceReport) -> str | None:
    if report.profile is None:
        return None
    name = f"{report.profile.get('kind')} {report.profile.get('name')}"
    operator = report.operator_profile
    if operator is None:
        return f"  profile {name} (the operator recorded none)"
    if operator.get("name") == report.profile.get("name"):
        return f"  profile {name}: kept, as the operator resolved it (status.resolvedProfile)"
    return (
        f"  profile {name}: CHANGED from the operator's {operator.get('kind')} {operator.get('name')}, "
        "which no longer qualifies; the first `pulumi up` rebinds the service"
    )


def _report_lines(adoption: Adoption) -> list[str]:
    lines: list[str] = []
    for report in adoption.services:
        title = "Shared caches" if report.key == "shared caches" else f"AIMService {report.key}"
        lines.append(title)
        profile = _profile_line(report)
        if profile:
            lines.append(profile)
        for child in report.adopted + report.missing:
            lines.extend(_child_lines(child))
        for obj, why in report.unmanaged:
            lines.append(f"  leave   {escape(describe(obj))}: {why}")
        lines.append("")
    if adoption.unmanaged:
        lines.append("Not managed by the plan")
        for obj, why in adoption.unmanaged:
            lines.append(f"  leave   {escape(describe(obj))}: {why}")
        lines.append("")
    adopted = adoption.adopted
    missing = [c for c in adoption.children if c.live is None]
    replaced = [c for c in adopted if "replaces" in c.effects()]
    rolls = [c for c in adopted if "rolls-pods" in c.effects()]
    not_managed = len(adoption.unmanaged) + sum(len(r.unmanaged) for r in adoption.services)
    lines.append(
        f"{len(adopted)} adopted, {len(missing)} to create, {len(replaced)} replaced, "
        f"{len(rolls)} restarting pods, {not_managed} not managed"
    )
    return lines


def run(args: argparse.Namespace, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """The `import` command; `stdout`/`stderr` default to the process streams (tests pass buffers)."""
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    out_dir = Path(args.output_dir)
    try:
        started = _start(args, sys.stdin)
        _check_output(out_dir, started.files)
        imported = started.finish(
            _planner(args.name, args.debug, err),
            python=args.format == "python",
            allow_replace=args.allow_replace,
            operator_namespace=args.operator_namespace,
            operator_deployment=args.operator_deployment,
        )
        writes = [(out_dir / relative, text) for relative, text in imported.files.items()]
        writes.append(
            (out_dir / "report.json", json.dumps(imported.report, indent=2, ensure_ascii=False) + "\n")
        )
        if imported.import_document is not None:
            writes.append((out_dir / "import.json", json.dumps(imported.import_document, indent=2) + "\n"))
        write_files(writes, root=out_dir, create_parents=True)
    except AIMValidationError as exc:
        print(format_problem(exc.located(object_ref="?")), file=err)
        return EXIT_FAILED
    except (ClusterReadError, ImportFailed) as exc:
        for line in str(exc).splitlines():
            print(f"aim-pulumi import: error: {escape(line)}", file=err)
        return EXIT_FAILED
    except (UsageError, WriteRefused, WriteFailed) as exc:
        print(f"aim-pulumi import: error: {exc}", file=err)
        return EXIT_USAGE
    blocked = imported.import_document is None
    for line in _report_lines(imported.adoption):
        print(line, file=out)
    print("", file=out)
    kept = kept_lines(imported.released)
    if kept:
        print("Field managers kept (step 2 leaves them):", file=out)
        for line in kept:
            print(f"  {escape(line)}", file=out)
        print("", file=out)
    _print_next_steps(out, out_dir, args.name if args.format == "yaml" else None, imported.steps, blocked)
    if blocked:
        for child in imported.blocking:
            _, kind, namespace, name = child.key
            fields = ", ".join(c.path for c in child.changes if c.effect in ("replaces", "refused"))
            print(
                f"error: the first `pulumi up` would replace {kind} {namespace}/{name} ({escape(fields)}); "
                "no import.json written (--allow-replace writes it anyway)"
                + ("; nothing applied" if args.apply else ""),
                file=err,
            )
        return EXIT_FAILED
    if args.apply:
        from aim_pulumi.adopt.cluster import apply_removal

        print("", file=out)
        try:
            apply_removal(
                args.kubeconfig,
                args.context,
                imported.dump,
                imported.released,
                operator_namespace=args.operator_namespace,
                operator_deployment=args.operator_deployment,
                delete=args.delete_aim_objects,
                say=lambda line: print(escape(line), file=out),
            )
        except ClusterReadError as exc:
            print(f"aim-pulumi import: error: --apply stopped: {escape(exc)}", file=err)
            return EXIT_FAILED
    return EXIT_OK


def _print_next_steps(
    out: TextIO, out_dir: Path, name: str | None, steps: list[tuple[str, list[str]]], blocked: bool
) -> None:
    """The whole move, in order: the operator stops before Pulumi takes over, its CRs go last.

    The output directory is named absolute: step 3 runs in the Pulumi project's directory, not
    where `import` ran, and its program reads `aim/` from wherever that project is."""
    out_dir = out_dir.absolute()
    print("Next, in this order:", file=out)
    number = 1
    for what, commands in steps[:2]:
        print(f"{number}. {what}:", file=out)
        # Every line under a step is one a shell runs as printed (the commands are quoted).
        for command in commands or ["# nothing to do"]:
            print(f"   {escape(command)}", file=out)
        number += 1
    if name is None:
        print(f"{number}. in the Pulumi project whose program is {escape(out_dir / PROGRAM_FILE)}:", file=out)
    else:
        # Python string literals (JSON's are Python's), whatever the name and the directory hold.
        program = f'aim.AIMStack({json.dumps(name)}, {{"path": {json.dumps(str(out_dir / "aim"))}}})'
        print(f"{number}. in the Pulumi project whose program declares {escape(program)}:", file=out)
    if blocked:
        print("   # no import.json: resolve the replacements above, or rerun with --allow-replace", file=out)
    else:
        command = shlex.join(
            [
                "pulumi",
                "import",
                "--file",
                str(out_dir / "import.json"),
                "--generate-code=false",
                "--protect=false",
                "--yes",
            ]
        )
        print(f"   {escape(command)}", file=out)
    print("   pulumi preview   # the changes listed above, and no replacement", file=out)
    print("   pulumi up", file=out)
    number += 1
    what, commands = steps[2]
    print(f"{number}. {what}:", file=out)
    for command in commands:
        print(f"   {escape(command)}", file=out)
