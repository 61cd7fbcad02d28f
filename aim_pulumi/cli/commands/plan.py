"""`aim-pulumi plan PROGRAM`: what a `pulumi preview` would show, with no cluster and no Pulumi CLI.

PROGRAM is a Pulumi Python program directory (its `__main__.py`, configured by `Pulumi.yaml` and
`Pulumi.<stack>.yaml` as the Pulumi CLI would configure it) or a file/directory of AIM YAML, which
is planned through `AIMStack`. The program runs under the SDK's mock engine (`engine.run_program`);
every registration is recorded and shown as a tree, followed by one line per AIMService saying
which profile won and why, the runtime config, route, replicas and caches.

Exit status: 0 planned, 1 the plan failed (one line names the file or object, the field and the
reason; `--debug` adds the traceback), `--validate` found an invalid manifest or `--expect-no-changes`
found changes, 2 usage error, 3 changes found (only with `--detailed-exitcode`).
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from aim_pulumi.api.errors import bounded, escape
from aim_pulumi.cli import policies
from aim_pulumi.cli.common import (
    EXIT_CHANGES,
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    STDOUT,
    UsageError,
    collector_paused,
)
from aim_pulumi.cli.diff import diff_lines
from aim_pulumi.cli.execution import PlanRun, execute
from aim_pulumi.cli.plan_files import check_outputs, load_plan, remove_stale, write_plan_files
from aim_pulumi.cli.progress import Progress
from aim_pulumi.cli.project import Program, add_program_arguments, load_program
from aim_pulumi.cli.render import Palette, as_mapping, palette_for
from aim_pulumi.cli.stdin import from_stdin, program_path
from aim_pulumi.cli.summary import output_lines, service_summaries, skipped_lines, warning_lines
from aim_pulumi.cli.tree import tree_lines
from aim_pulumi.offline.plan_diff import diff_plans, identity_note
from aim_pulumi.offline.plan_document import (
    manifests_yaml,
    plan_document,
    previous_state,
    unvalidated_manifests,
    validation_problems,
)

if TYPE_CHECKING:
    from aim_pulumi.offline.plan_diff import PlanDiff
    from aim_pulumi.offline.recording import PlanRecording
    from aim_pulumi.resources.capacity_read import ClusterAccess

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "plan",
        help="show what a program would deploy, offline",
        description="Run a Pulumi program (or AIM YAML) under the Pulumi mock engine and show every "
        "resource it would create, with no cluster contacted. Exit 0 planned, 1 the plan failed, "
        "--validate found problems or --expect-no-changes found changes, 2 usage error, "
        "3 changes found (only with --detailed-exitcode).",
    )
    add_program_arguments(parser)
    parser.add_argument(
        "--yaml", metavar="FILE", help="write every Kubernetes manifest (multi-document); - for stdout"
    )
    parser.add_argument("--json", metavar="FILE", help="write the machine-readable plan; - for stdout")
    parser.add_argument(
        "--validate",
        action="store_true",
        help="check every manifest against the vendored upstream schemas (kinds without one are listed "
        "as not validated)",
    )
    parser.add_argument(
        "--diff", metavar="OLD.json", help="compare with a plan saved with --json (- reads stdin)"
    )
    parser.add_argument(
        "--expect-no-changes",
        action="store_true",
        help="with --diff: fail (exit 1) when anything would change, as `pulumi preview --expect-no-changes`",
    )
    parser.add_argument(
        "--detailed-exitcode",
        action="store_true",
        help="with --diff: exit 0 no changes, 3 changes (1 failed and 2 usage error keep their meaning)",
    )
    parser.add_argument(
        "--quiet", action="store_true", help="print only problems: errors, warnings and schema violations"
    )
    parser.add_argument(
        "--show-secrets",
        action="store_true",
        help="write secret values in plaintext to --yaml and --json files",
    )
    parser.add_argument(
        "--policy-pack",
        metavar="DIR",
        action="append",
        default=[],
        help="run a policy pack's policies on the plan (repeatable); a mandatory violation fails the plan "
        "(exit 1), as `pulumi preview --policy-pack`",
    )
    parser.add_argument(
        "--policy-pack-config",
        metavar="FILE",
        action="append",
        default=[],
        help="the JSON configuration of the --policy-pack of the same position (pulumi's format)",
    )
    parser.add_argument(
        "--capacity",
        action="store_true",
        help="print the capacity table (accelerator pools, quotas, cache storage) and a verdict per service",
    )
    parser.add_argument(
        "--kubeconfig",
        metavar="FILE",
        help="read the capacity of the cluster this kubeconfig names (read-only lists); without it "
        "aim:inventory is the source",
    )
    parser.add_argument(
        "--context", help="with --kubeconfig: the kubeconfig context (default: its current one)"
    )
    parser.set_defaults(func=run)


def _check_arguments(args: argparse.Namespace) -> None:
    if args.yaml == STDOUT and args.json == STDOUT:
        raise UsageError("--yaml - and --json - cannot both write to standard output")
    for flag in ("expect_no_changes", "detailed_exitcode"):
        if getattr(args, flag) and not args.diff:
            raise UsageError(f"--{flag.replace('_', '-')} needs --diff OLD.json (the plan to compare with)")
    if args.diff == STDOUT and args.program == STDOUT:
        raise UsageError("PROGRAM - and --diff - cannot both read standard input")
    if args.context is not None and args.kubeconfig is None:
        raise UsageError("--context names a context of a kubeconfig: it needs --kubeconfig FILE")
    if args.kubeconfig is not None and not Path(args.kubeconfig).is_file():
        raise UsageError(f"--kubeconfig {escape(args.kubeconfig)}: no such file")


def _cluster(args: argparse.Namespace) -> ClusterAccess | None:
    from aim_pulumi.resources.capacity_read import ClusterAccess

    if args.kubeconfig is None:
        return None
    return ClusterAccess(str(Path(args.kubeconfig).resolve()), args.context, "--kubeconfig")


def _document_to_stdout(args: argparse.Namespace) -> bool:
    return STDOUT in (args.yaml, args.json)


def _quiet(args: argparse.Namespace) -> bool:
    """A document written to standard output is all standard output carries: no text plan."""
    return bool(args.quiet or _document_to_stdout(args))


def run(args: argparse.Namespace, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """The `plan` command; `stdout`/`stderr` default to the process streams (tests pass buffers)."""
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    quiet = _quiet(args)
    err_palette = palette_for(err, no_color=args.no_color)
    try:
        _check_arguments(args)
        old_plan = None
        if args.diff:
            old_plan = load_plan(args.diff, stdin=sys.stdin)
        packs = policies.load(args.policy_pack, args.policy_pack_config)
        with program_path(args.program, sys.stdin) as path:
            program = from_stdin(load_program(path, stack=args.stack, config=args.config), args.program)
            targets = check_outputs(args)
            for warning in program.warnings:
                print(err_palette.warning("warning: ") + warning, file=err)
            with Progress(err, enabled=not quiet and not args.debug):
                outcome = execute(
                    program,
                    catalogs=args.catalog,
                    debug=args.debug,
                    previous=previous_state(old_plan) if old_plan is not None else None,
                    cluster=_cluster(args),
                )
        if outcome.error is not None:
            remove_stale(targets)
            if args.debug:
                traceback.print_exception(outcome.error.cause, file=err)
            for line in outcome.error.line.splitlines():
                print(err_palette.error("error: ") + bounded(line), file=err)
            return EXIT_FAILED
        recording = outcome.recording
        assert recording is not None
    except UsageError as exc:
        print(bounded(f"aim-pulumi plan: error: {exc}"), file=err)
        return EXIT_USAGE
    with collector_paused():
        code = _write_out(args, program, outcome, old_plan, out, err)
        if packs and code in (EXIT_OK, EXIT_CHANGES):
            try:
                results = policies.run_packs(packs, recording)
            except UsageError as exc:
                print(bounded(f"aim-pulumi plan: error: {exc}"), file=err)
                return EXIT_USAGE
            shown = err if _document_to_stdout(args) else out
            if policies.print_verdicts(results, palette_for(shown, no_color=args.no_color), shown, quiet):
                return EXIT_FAILED
        return code


def _write_out(
    args: argparse.Namespace,
    program: Program,
    outcome: PlanRun,
    old_plan: Mapping[str, Any] | None,
    out: TextIO,
    err: TextIO,
) -> int:
    """What a run that planned writes: plan files, the text plan, the validation, and its exit code."""
    recording = outcome.recording
    assert recording is not None
    document_to_stdout = _document_to_stdout(args)
    quiet = _quiet(args)
    palette = palette_for(out, no_color=args.no_color)
    err_palette = palette_for(err, no_color=args.no_color)
    files: list[tuple[str, str]] = []
    try:
        if args.json:
            document = plan_document(recording, show_secrets=args.show_secrets)
            text = json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
            files.append((args.json, text))
        if args.yaml:
            files.append((args.yaml, manifests_yaml(recording, show_secrets=args.show_secrets)))
        write_plan_files(files, out, secret=args.show_secrets)
    except UsageError as exc:
        print(f"aim-pulumi plan: error: {exc}", file=err)
        return EXIT_USAGE
    changes = None
    if old_plan is not None:
        revealed = plan_document(recording, show_secrets=True)
        changes = diff_plans(old_plan, plan_document(recording), revealed)
    if not quiet:
        _print_plan(args, program, outcome, changes, old_plan, palette, out)
    else:
        for line in warning_lines(recording, err_palette):
            print(bounded(line), file=err)
    code = EXIT_OK
    if args.validate:
        code = _print_validation(recording, quiet, out if not document_to_stdout else err, err, err_palette)
    if code == EXIT_OK and changes is not None and changes.changes:
        if args.expect_no_changes:
            print(
                err_palette.error("error: ")
                + f"--expect-no-changes: {changes.summary()} against {args.diff}",
                file=err,
            )
            return EXIT_FAILED
        if args.detailed_exitcode:
            return EXIT_CHANGES
    return code


def _print_plan(
    args: argparse.Namespace,
    program: Program,
    outcome: PlanRun,
    changes: PlanDiff | None,
    old_plan: Mapping[str, Any] | None,
    palette: Palette,
    out: TextIO,
) -> None:
    recording = outcome.recording
    assert recording is not None
    if changes is not None:
        print(
            palette.bold(f"Changes for {program.project} (stack {program.stack}) against {args.diff}:"),
            file=out,
        )
        note = identity_note(changes)
        if note:
            print(palette.warning(note), file=out)
        for line in diff_lines(changes, palette):
            print(bounded(line), file=out)
    else:
        count = len(recording.resources)
        noun = "resource" if count == 1 else "resources"
        print(
            palette.bold(f"Plan for {program.project} (stack {program.stack}): {count} {noun} to create"),
            file=out,
        )
        for line in tree_lines(recording, palette):
            print(line, file=out)
    summaries = service_summaries(outcome, palette) + warning_lines(recording, palette, services=False)
    summaries += [palette.dim(f"note: {line}") for line in skipped_lines(outcome)]
    if summaries:
        print("", file=out)
        for line in summaries:
            print(bounded(line), file=out)
    for section in _capacity_sections(args, outcome, old_plan):
        print("", file=out)
        for line in section:
            print(bounded(line), file=out)
    if changes is None:
        lines = output_lines(recording, palette)
        if lines:
            print("", file=out)
            for line in lines:
                print(line, file=out)


def _capacity_sections(
    args: argparse.Namespace, outcome: PlanRun, old_plan: Mapping[str, Any] | None
) -> list[list[str]]:
    """The capacity table (`--capacity`), the monthly cost (when priced) and, with --diff, its change."""
    from aim_pulumi.resolve.capacity.cost import cost_change_lines
    from aim_pulumi.resolve.capacity.report import capacity_lines, cost_lines
    from aim_pulumi.resources.capacity import OUTPUT_NAME

    check = outcome.capacity
    sections: list[list[str]] = []
    if args.capacity:
        if check is None or check.report is None:
            sections.append(["Capacity: not checked (aim:capacity is off)"])
        elif not check.report.checked:
            sections.append([f"Capacity: not checked: {check.report.notes[0]}"])
        else:
            sections.append(capacity_lines(check.report))
    if check is not None and check.cost is not None:
        sections.append(cost_lines(check.cost))
    if old_plan is not None and outcome.recording is not None:
        old = _output_cost(as_mapping(old_plan.get("outputs")), OUTPUT_NAME)
        new = _output_cost(outcome.recording.stack_outputs(), OUTPUT_NAME)
        change = cost_change_lines(old, new)
        if change:
            sections.append(["Cost change:", *(f"  {line}" for line in change)])
    return sections


def _output_cost(outputs: Mapping[str, Any] | None, name: str) -> Mapping[str, Any] | None:
    document = (outputs or {}).get(name)
    cost = document.get("cost") if isinstance(document, Mapping) else None
    return cost if isinstance(cost, Mapping) else None


def _print_validation(
    recording: PlanRecording, quiet: bool, out: TextIO, err: TextIO, err_palette: Palette
) -> int:
    from aim_pulumi.schemas import manifest_identity

    problems = validation_problems(recording)
    for problem in problems:
        print(err_palette.error("invalid: ") + problem, file=err)
    unvalidated = unvalidated_manifests(recording)
    manifests = len(recording.kubernetes())
    if problems:
        print(f"{len(problems)} schema violation(s) in {manifests} manifest(s)", file=err)
        return EXIT_FAILED
    if not quiet:
        for manifest in unvalidated:
            print(f"not validated (no vendored schema): {manifest_identity(manifest)}", file=out)
        checked = manifests - len(unvalidated)
        print(f"{checked} manifests valid against the vendored schemas", file=out)
    return EXIT_OK
