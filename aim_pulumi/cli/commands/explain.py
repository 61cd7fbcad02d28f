"""`aim-pulumi explain PROGRAM --service NS/NAME`: why a service deploys what it deploys.

The program runs offline like `plan`, and everything printed is read from what the planner
returned for the service, never worked out again here: the selection it deployed (every profile
considered, the filter that dropped it, its rank and the tier that decided it), the runtime-config
layers it read (`ServicePlan.runtime_config_sources`) and the env layer of every variable of the
inference container (`ContainerPlan.env_sources`). So `explain` cannot disagree with `plan`. A
service whose selection fails is explained too: the failed selection carries its candidates and
the filter each one failed (`NoProfileSelected`), what a user needs to fix the selector.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import traceback
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from aim_pulumi.cli.common import EXIT_FAILED, EXIT_OK, EXIT_USAGE, UsageError
from aim_pulumi.cli.execution import execute
from aim_pulumi.cli.project import add_program_arguments, load_program
from aim_pulumi.cli.render import Palette, format_value, palette_for, table
from aim_pulumi.cli.stdin import from_stdin, program_path
from aim_pulumi.cli.summary import (
    deployed_selection,
    runtime_config_text,
    unknown_namespace_services,
    why_line,
)

if TYPE_CHECKING:
    from aim_pulumi.resolve.plan.result import ServicePlan
    from aim_pulumi.resolve.selection.explanation import CandidateExplanation, SelectionExplanation
    from aim_pulumi.resources.resolutions import Resolution as ServiceRecord

__all__ = ["env_rows", "explain_document", "explain_lines", "register", "run", "runtime_config_rows"]

_PLACEHOLDER = re.compile(r"__AIM_OUTPUT_[0-9]+_[A-Za-z0-9.~-]+__")


def _failure_text(error: BaseException) -> str:
    """Why a service's planning failed, on one line, after the line of the program that declared it."""
    from aim_pulumi.resources.reported import reported_text

    return " ".join(reported_text(error).split())


def _pipeline(record: ServiceRecord) -> str:
    from aim_pulumi.resolve.catalog.extension import choose_pipeline

    return choose_pipeline(record.service, record.catalog.extension)[0]


def _pipeline_reason(record: ServiceRecord, pipeline: str) -> str:
    """Why a service takes a pipeline other than the profile one, and how to leave it (behaviour §7.1),
    in the words of the extension that adds it (the catalog's: v1alpha1's template pipeline)."""
    from aim_pulumi.resolve.catalog.extension import pipeline_reason

    return pipeline_reason(record.catalog.extension, pipeline, record.service)


# --------------------------------------------------------------------------------------------------
# Candidate table


def _yes(value: bool) -> str:
    return "yes" if value else "no"


def _row(c: CandidateExplanation, outcome: str) -> list[str]:
    rank = str(c.rank) if c.rank is not None else "-"
    facts = [c.name, c.kind, c.scope, _yes(c.available), _yes(c.primary), c.type or "(unset)"]
    return [rank, *facts, c.version or "-", outcome]


def candidate_rows(ex: SelectionExplanation) -> list[list[str]]:
    rows = []
    ordered = sorted(
        ex.candidates, key=lambda c: (c.rank is None, c.rank or 0, c.scope != "Namespace", c.name)
    )
    for c in ordered:
        if c.name == ex.winner and c.rank is not None:
            outcome = "selected"
        elif c.rank is not None:
            outcome = f"ranked below the winner on {c.decided_by}"
        else:
            outcome = f"dropped by {c.dropped_by}"
        rows.append(_row(c, outcome))
    return rows


_CANDIDATE_HEADERS = [
    "Rank",
    "Profile",
    "Kind",
    "Scope",
    "Available",
    "Primary",
    "Type",
    "Version",
    "Outcome",
]


def _failed_candidate_rows(ex: SelectionExplanation) -> tuple[str, list[list[str]]]:
    """For a failed selection: every profile the selector reached and the filter it failed."""
    rows = []
    for c in ex.candidates:
        failed = c.dropped_by
        if failed == "floor" and ex.floor_implicit:
            failed += " (autoSelectionPolicy is not any)"
        rows.append(_row(c, f"dropped by {failed}" if failed else "qualifies"))
    implicit = " (implicit)" if ex.floor_implicit else ""
    header = f"selector {format_value(dict(ex.selector), 200)}, floor {ex.floor}{implicit}"
    return header, rows


def _failed_selection(record: ServiceRecord) -> SelectionExplanation | None:
    """The candidates of the selection that failed the service's plan, as the planner reported them."""
    from aim_pulumi.resolve.selection.select import NoProfileSelected

    return record.error.explanation if isinstance(record.error, NoProfileSelected) else None


# --------------------------------------------------------------------------------------------------
# Runtime-config layers


def runtime_config_rows(plan: ServicePlan) -> tuple[list[str], list[list[str]]]:
    """(layer labels, rows of field / value / winning layer / other layers that set it)."""
    rows = [
        [f.path, _shown(_path_parts(f.path), f.value), f.set_by, ", ".join(f.overridden) or "-"]
        for f in plan.runtime_config_sources()
    ]
    return [layer.label for layer in plan.runtime_config_layers() if layer.spec], rows


NOT_SHOWN = "[not shown]"


def _path_parts(path: str) -> tuple[str, ...]:
    return tuple(part for part in re.split(r"[.\[\]]", path) if part)


def _shown(loc: tuple[str, ...], value: Any) -> str:
    """A value as `validate` would show it: not at all where the field may hold credentials.

    One rule for both commands (`api.base.may_hold_credentials`), so the output of neither can
    put a token into a CI log that the other keeps out.
    """
    from aim_pulumi.api.base import may_hold_credentials

    if may_hold_credentials(loc) and not _PLACEHOLDER.search(repr(value)):
        return NOT_SHOWN  # a Pulumi secret says `[secret]`, which shows where the value comes from
    return format_value(_redact(value), 60)


def _redact(value: Any) -> Any:
    if isinstance(value, str):
        return _PLACEHOLDER.sub("[secret]", value)
    if isinstance(value, Mapping):
        return {k: _redact(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_redact(v) for v in value]
    return value


# --------------------------------------------------------------------------------------------------
# Env layers of the inference container


def _env_value(entry: Mapping[str, Any]) -> str:
    source = entry.get("valueFrom")
    if isinstance(source, Mapping):
        for kind, ref in source.items():
            if isinstance(ref, Mapping):
                target = "/".join(str(ref[k]) for k in ("name", "key") if ref.get(k))
                return f"valueFrom {kind} {target}".rstrip()
        return "valueFrom"
    return _shown(("env", str(entry.get("name", "")), "value"), entry.get("value", ""))


def env_rows(plan: ServicePlan) -> list[list[str]]:
    """Per variable of the container: name, value, the layer that set it, the layers it overrode."""
    rows = []
    for entry in plan.container.env:
        name = str(entry.get("name", ""))
        labels = plan.container.env_sources.get(name) or ("?",)
        earlier = [label for label in labels[:-1] if label != labels[-1]]
        rows.append([name, _env_value(entry), labels[-1], ", ".join(dict.fromkeys(earlier)) or "-"])
    return rows


# --------------------------------------------------------------------------------------------------
# Printing


def explain_lines(record: ServiceRecord, palette: Palette) -> list[str]:
    from aim_pulumi.resolve.catalog.pipelines import PROFILE

    lines = [palette.bold(f"AIMService {record.key}")]
    plan = record.plan
    if record.error is not None:
        lines.append(palette.error("  resolution failed: ") + _failure_text(record.error))
    pipeline = plan.pipeline if plan is not None else _pipeline(record)
    if pipeline != PROFILE and plan is not None:
        lines.append(f"  {why_line(record)}")
    elif pipeline != PROFILE:
        reason = _pipeline_reason(record, pipeline)
        lines.append(f"  {pipeline} pipeline: {reason}; no profile is considered")
    else:
        lines.extend(_selection_lines(record, palette))
    if plan is None:
        return lines
    lines.extend(_derivation_lines(plan, palette))
    labels, rc_rows = runtime_config_rows(plan)
    lines.append("")
    used = runtime_config_text(plan)
    lines.append(palette.bold(f"Runtime config: {used}; layers, lowest first: {', '.join(labels) or 'none'}"))
    if rc_rows:
        lines.extend(table(["Field", "Value", "Set by", "Also set by (overridden)"], rc_rows))
    else:
        lines.append("  no field is set by any layer")
    lines.append("")
    lines.append(
        palette.bold("Environment of kserve-container; layers, lowest first: ")
        + ", ".join(dict.fromkeys(plan.container.env_layers))
    )
    lines.extend(table(["Name", "Value", "Set by", "Also set by (overridden)"], env_rows(plan)))
    return lines


def _selection_lines(record: ServiceRecord, palette: Palette) -> list[str]:
    failed = _failed_selection(record)
    if failed is not None:
        header, rows = _failed_candidate_rows(failed)
        out = [f"  {header}", "", palette.bold(f"Candidates ({len(rows)} reachable, none selected):")]
        out.extend(
            table(_CANDIDATE_HEADERS, rows) if rows else ["  no profile is reachable from this selector"]
        )
        return out
    selection = deployed_selection(record)
    if selection is None or selection.explanation is None:
        return []
    ex = selection.explanation
    out = [f"  profile pipeline, shape {ex.shape}" + (f", model {ex.model}" if ex.model else "")]
    if ex.shape != "Name":
        implicit = " (implicit)" if ex.floor_implicit else ""
        out.append(
            f"  selector {format_value(dict(ex.selector), 200)}, floor {ex.floor}{implicit}, "
            f"selection pass {ex.selection_pass or '-'}, ranked scope {ex.ranked_scope or '-'}"
        )
    if ex.previous:
        out.append(f"  previous binding {ex.previous}: {ex.sticky}")
    out.append(f"  decision: {why_line(record)}")
    origin = _discovered_origin(record)
    if origin is not None:
        out.append(
            f"  profile discovered from image {origin.image} at {origin.digest}: "
            f"file {origin.path} (layer {origin.layer})"
        )
    out.append("")
    out.append(palette.bold(f"Candidates ({len(ex.candidates)} considered):"))
    out.extend(table(_CANDIDATE_HEADERS, candidate_rows(ex)))
    return out


def _discovered_origin(record: ServiceRecord) -> Any:
    """The image, digest and file the deployed profile was discovered from (None: not discovered)."""
    plan = record.plan
    ref = plan.resolved_profile if plan is not None else None
    if ref is None:
        return None
    entry = record.catalog.profile_entry(ref.kind, ref.namespace or None, ref.name)
    return record.catalog.discovered_origin(entry.obj) if entry is not None else None


def _derivation_lines(plan: ServicePlan, palette: Palette) -> list[str]:
    """The derived profile the plan deployed: its set, source, overrides and image decision."""
    facts = plan.derivation
    if facts is None:
        return []
    pinned = f" {facts['version']}" if facts.get("version") else ""
    model = f" (the child set of model {facts['model']})" if facts.get("model") else ""
    lines = [
        "",
        palette.bold(f"Derived profile {facts['profile']}"),
        f"  derived by {facts['set']}{model}, versionPolicy {facts['versionPolicy']}{pinned}",
        f"  from {facts['source']} (version {facts['sourceVersion'] or '-'})",
        f"  image {facts['image']}: {facts['imageRule']}, {facts['imageReason']}",
    ]
    overrides = facts["overrides"]
    if not overrides:
        lines.append("  overrides: none")
    for key in sorted(overrides):
        lines.append(f"  overrides.{key}: {_shown(('overrides', key), overrides[key])}")
    return lines


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "explain",
        help="why a service resolves to its profile, runtime config and env",
        description="Run a program offline and explain one AIMService: the profile candidates with "
        "the filter that dropped each and the ranking tier that decided, the runtime-config layer of "
        "every merged field, and the env layers of the inference container.",
    )
    add_program_arguments(parser)
    parser.add_argument("--service", required=True, metavar="NAMESPACE/NAME", help="the service to explain")
    parser.add_argument(
        "--output",
        choices=("text", "json"),
        default="text",
        help="text tables (default) or one JSON document",
    )
    parser.set_defaults(func=run)


def _rows(keys: Sequence[str], rows: Sequence[Sequence[str]]) -> list[dict[str, str]]:
    return [dict(zip(keys, row, strict=True)) for row in rows]


_CANDIDATE_KEYS = ("rank", "profile", "kind", "scope", "available", "primary", "type", "version", "outcome")
_LAYER_KEYS = ("value", "setBy", "overriddenBy")


def explain_document(record: ServiceRecord, error: str | None = None) -> dict[str, Any]:
    """The explanation as data (`--output json`): the same rows the tables print."""
    plan = record.plan
    document: dict[str, Any] = {
        "service": record.key,
        "pipeline": _pipeline(record),
        "error": error or (_failure_text(record.error) if record.error is not None else None),
        "decision": why_line(record) if plan is not None else None,
        "profile": plan.resolved_profile.as_dict() if plan is not None and plan.resolved_profile else None,
    }
    origin = _discovered_origin(record)
    if origin is not None:
        document["profileDiscoveredFrom"] = {
            "image": origin.image,
            "digest": origin.digest,
            "path": origin.path,
            "layer": origin.layer,
        }
    failed = _failed_selection(record)
    selection = deployed_selection(record) if failed is None else None
    if failed is not None:
        document["candidates"] = _rows(_CANDIDATE_KEYS, _failed_candidate_rows(failed)[1])
    elif selection is not None and selection.explanation is not None:
        document["candidates"] = _rows(_CANDIDATE_KEYS, candidate_rows(selection.explanation))
    if plan is not None:
        labels, rc_rows = runtime_config_rows(plan)
        document["runtimeConfig"] = {
            "used": runtime_config_text(plan),
            "layers": labels,
            "fields": _rows(("field", *_LAYER_KEYS), rc_rows),
        }
        document["env"] = _rows(("name", *_LAYER_KEYS), env_rows(plan))
        if plan.derivation is not None:
            facts = dict(plan.derivation)
            facts["overrides"] = {k: _shown(("overrides", k), v) for k, v in facts["overrides"].items()}
            document["derivation"] = facts
    return document


def _service_key(text: str) -> str:
    namespace, separator, name = text.partition("/")
    if not separator:
        return f"default/{text}"
    if not namespace or not name or "/" in name:
        raise UsageError(f"--service expects NAMESPACE/NAME, got {text!r}")
    return text


def run(args: argparse.Namespace, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    palette = palette_for(out, no_color=args.no_color)
    try:
        key = _service_key(args.service)
        with program_path(args.program, sys.stdin) as path:
            program = from_stdin(load_program(path, stack=args.stack, config=args.config), args.program)
            outcome = execute(program, catalogs=args.catalog, debug=args.debug)
    except UsageError as exc:
        print(f"aim-pulumi explain: error: {exc}", file=err)
        return EXIT_USAGE
    record = outcome.services.get(key)
    if outcome.error is not None and args.debug:
        traceback.print_exception(outcome.error.cause, file=err)
    if record is None:
        if outcome.error is not None:
            print(
                f"error: AIMService {key} was not planned; the plan stopped at: {outcome.error.line}",
                file=err,
            )
        else:
            known = ", ".join(sorted(outcome.services)) or "none"
            unknown = unknown_namespace_services(outcome)
            pending = (
                f"; with a namespace not known offline (an Output, such as an auto-named Namespace's "
                f"name; give the Namespace a `metadata.name` to explain them): {', '.join(unknown)}"
                if unknown
                else ""
            )
            print(f"error: no AIMService {key} in the plan; services: {known}{pending}", file=err)
        return EXIT_FAILED
    if args.output == "json":
        error = outcome.error.line if outcome.error is not None else None
        print(json.dumps(explain_document(record, error), indent=2, sort_keys=True), file=out)
        return EXIT_FAILED if outcome.error is not None else EXIT_OK
    for line in explain_lines(record, palette):
        print(line, file=out)
    if outcome.error is not None:
        print(f"error: {outcome.error.line}", file=err)
        return EXIT_FAILED
    return EXIT_OK
