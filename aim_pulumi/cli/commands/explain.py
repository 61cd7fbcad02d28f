"""`aim-pulumi explain PROGRAM --service NS/NAME`: why a service deploys what it deploys.

The program runs offline like `plan`, and the explanation is read from the very selection the
plan deployed (one resolution result, read by both), so it names the plan's winner whatever the
order of declarations. Three tables are printed: every profile considered
(scope, the filter that dropped it, its rank and the tier that decided it), every merged
runtime-config field with the layer that set it, and every variable of the inference container
with the env layer it came from. A service whose selection fails is explained too: its
candidates and the filter each one failed are what a user needs to fix the selector.
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
from aim_pulumi.cli.render import Palette, as_mapping, format_value, palette_for, table
from aim_pulumi.cli.stdin import program_path
from aim_pulumi.cli.summary import deployed_selection, runtime_config_text, why_line

if TYPE_CHECKING:
    from aim_pulumi.resolve.runtime_config.merge import Layer
    from aim_pulumi.resolve.selection.explanation import SelectionExplanation
    from aim_pulumi.resources.resolutions import Resolution as ServiceRecord

__all__ = [
    "env_layers",
    "explain_lines",
    "register",
    "run",
    "runtime_config_rows",
]

_PLACEHOLDER = re.compile(r"__AIM_OUTPUT_[0-9]+_[A-Za-z0-9.~-]+__")
_PATH_TOKEN = re.compile(r"\.?([A-Za-z_][A-Za-z0-9_]*)|\[([^\]]*)\]")


def _service_spec(record: ServiceRecord) -> dict[str, Any]:
    from aim_pulumi.api import to_manifest

    spec = to_manifest(record.service).get("spec")
    return dict(spec) if isinstance(spec, Mapping) else {}


def _pipeline(record: ServiceRecord) -> str:
    from aim_pulumi.resolve.catalog.pipelines import choose_pipeline

    return choose_pipeline(record.service)[0]


def _pipeline_reason(record: ServiceRecord, pipeline: str) -> str:
    """Why a service takes a pipeline other than the profile one, and how to leave it (behaviour §7.1).

    Only the folder that adds the pipeline (v1alpha1's template pipeline) knows its rule, and
    registers the words (`aim_pulumi.api.extensions.register_pipeline_reason`).
    """
    from aim_pulumi.api.extensions import pipeline_reason

    return pipeline_reason(pipeline, record.service)


# --------------------------------------------------------------------------------------------------
# Candidate table


def _yes(value: bool) -> str:
    return "yes" if value else "no"


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
        rows.append(
            [
                str(c.rank) if c.rank is not None else "-",
                c.name,
                c.kind,
                c.scope,
                _yes(c.available),
                _yes(c.primary),
                c.type or "(unset)",
                c.version or "-",
                outcome,
            ]
        )
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


def _failed_candidate_rows(record: ServiceRecord) -> tuple[str, list[list[str]]]:
    """For a failed selection: every profile the selector could reach and the filter it failed."""
    from aim_pulumi.resolve.selection.evaluation import candidate_pool
    from aim_pulumi.resolve.selection.filters import effective_selector, first_failing_filter, passes_floor

    spec = _service_spec(record)
    profile = as_mapping(spec.get("profile"))
    model = as_mapping(spec.get("model"))
    selector = profile.get("selector") if isinstance(profile.get("selector"), Mapping) else None
    model_name = model.get("name") if isinstance(model.get("name"), str) else None
    effective = effective_selector(selector, model_name)
    namespace = record.service.metadata.namespace or "default"
    pool = candidate_pool(effective, record.catalog, namespace)
    rows = []
    for entry in pool:
        failed = first_failing_filter(entry, effective, namespace)
        if failed is None and not passes_floor(entry, effective.floor):
            failed = "floor" + (" (autoSelectionPolicy is not any)" if effective.floor_implicit else "")
        rows.append(
            [
                "-",
                entry.name,
                entry.kind,
                entry.scope,
                _yes(entry.available),
                _yes(entry.primary),
                entry.field("type") or "(unset)",
                entry.version.text or "-",
                f"dropped by {failed}" if failed else "qualifies",
            ]
        )
    implicit = " (implicit)" if effective.floor_implicit else ""
    header = f"selector {format_value(dict(effective.fields), 200)}, floor {effective.floor}{implicit}"
    return header, rows


# --------------------------------------------------------------------------------------------------
# Runtime-config layers


def _layers(record: ServiceRecord, *, service_inline: bool) -> list[Layer]:
    from aim_pulumi.api import to_manifest
    from aim_pulumi.resolve.catalog.embedded import embedded_default_runtime_config
    from aim_pulumi.resolve.runtime_config.merge import (
        Layer,
        inline_runtime_config_layer,
        service_inline_layer,
    )

    spec = _service_spec(record)
    namespace = record.service.metadata.namespace or "default"
    name = str(spec.get("runtimeConfigName") or "default")
    ns_obj, cluster_obj = record.catalog.runtime_config_objects(namespace, name)
    layers: list[Layer] = []
    if cluster_obj is not None:
        embedded = " (embedded default)" if cluster_obj is embedded_default_runtime_config() else ""
        layers.append(
            Layer(f"AIMClusterRuntimeConfig {name}{embedded}", to_manifest(cluster_obj).get("spec"))
        )
    if ns_obj is not None:
        layers.append(Layer(f"AIMRuntimeConfig {namespace}/{name}", to_manifest(ns_obj).get("spec")))
    layers.append(inline_runtime_config_layer(spec, label="AIMService spec.runtimeConfig"))
    if service_inline:
        layers.append(service_inline_layer(spec, label="AIMService spec", include_env=False))
    return layers


def _value_at(document: Any, path: str) -> Any:
    current = document
    for match in _PATH_TOKEN.finditer(path):
        key = match.group(1) if match.group(1) is not None else match.group(2)
        if isinstance(current, Mapping):
            current = current.get(key)
        elif isinstance(current, list):
            current = next((i for i in current if isinstance(i, Mapping) and i.get("name") == key), None)
        else:
            return None
    return current


def _related(path: str, other: str) -> bool:
    return (
        path == other
        or other.startswith((path + ".", path + "["))
        or path.startswith((other + ".", other + "["))
    )


def runtime_config_rows(record: ServiceRecord) -> tuple[list[str], list[list[str]]]:
    """(layer labels, rows of field / value / winning layer / other layers that set it)."""
    from aim_pulumi.resolve.runtime_config.merge import merge_layers_with_provenance

    layers = _layers(record, service_inline=True)
    merged, contributions = merge_layers_with_provenance(layers)
    own = {layer.label: set(merge_layers_with_provenance([layer])[1]) for layer in layers}
    rows = []
    for path, label in contributions.items():
        others = [
            layer.label
            for layer in layers
            if layer.label != label and any(_related(path, p) for p in own[layer.label])
        ]
        value = _shown(_path_parts(path), _value_at(merged, path))
        rows.append([path, value, label, ", ".join(others) or "-"])
    return [layer.label for layer in layers if layer.spec], rows


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


def env_layers(record: ServiceRecord) -> list[tuple[str, list[Mapping[str, Any]]]]:
    """The layers of behaviour §10.1, lowest first, each entry labelled by where it came from."""
    from aim_pulumi.resolve.catalog.pipelines import container_defaults
    from aim_pulumi.resolve.children.container import framework_env, is_direct_vllm, vllm_env
    from aim_pulumi.resolve.runtime_config.merge import merge_layers_with_provenance

    plan = record.plan
    if plan is None:
        return []
    spec = _service_spec(record)
    profile_spec = plan.profile_spec
    cache_mount = plan.caches[0].mount_path if plan.caches else None
    overrides = as_mapping(spec.get("profileOverrides"))
    layers: list[tuple[str, list[Mapping[str, Any]]]] = []
    for layer in _layers(record, service_inline=False):
        env = _entries(merge_layers_with_provenance([layer])[0].get("env"))
        if env:
            layers.append((layer.label, env))
    layers.append((f"profile {plan.profile_name} containerEnv", _entries(profile_spec.get("containerEnv"))))
    if is_direct_vllm(profile_spec):
        layers.append(
            ("vLLM (profile engineEnv, model, offline mode)", list(vllm_env(profile_spec, cache_mount)))
        )
    else:
        # A profile converted from a template names the template's profile id in its labels.
        runtime_id = container_defaults(plan.isvc_labels, profile_spec).runtime_profile_id
        framework: list[Mapping[str, Any]] = list(framework_env(profile_spec, runtime_profile_id=runtime_id))
        layers.append(("AIM runtime (profile id, model, cache path)", framework))
    layers.append(("AIMService spec.env", _entries(spec.get("env"))))
    layers.append(("AIMService spec.profileOverrides.containerEnv", _entries(overrides.get("containerEnv"))))
    return layers


def _entries(value: Any) -> list[Mapping[str, Any]]:
    return [item for item in (value or ()) if isinstance(item, Mapping)]


def _env_value(entry: Mapping[str, Any]) -> str:
    source = entry.get("valueFrom")
    if isinstance(source, Mapping):
        for kind, ref in source.items():
            if isinstance(ref, Mapping):
                target = "/".join(str(ref[k]) for k in ("name", "key") if ref.get(k))
                return f"valueFrom {kind} {target}".rstrip()
        return "valueFrom"
    return _shown(("env", str(entry.get("name", "")), "value"), entry.get("value", ""))


def env_rows(record: ServiceRecord) -> list[list[str]]:
    plan = record.plan
    if plan is None:
        return []
    history: dict[str, list[str]] = {}
    for label, entries in env_layers(record):
        for entry in entries:
            history.setdefault(str(entry.get("name", "")), []).append(label)
    rows = []
    for entry in plan.container.env:
        name = str(entry.get("name", ""))
        labels = history.get(name, ["?"])
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
        lines.append(palette.error("  resolution failed: ") + " ".join(str(record.error).split()))
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
    labels, rc_rows = runtime_config_rows(record)
    lines.append("")
    used = runtime_config_text(plan)
    lines.append(palette.bold(f"Runtime config: {used}; layers, lowest first: {', '.join(labels) or 'none'}"))
    if rc_rows:
        lines.extend(table(["Field", "Value", "Set by", "Also set by (overridden)"], rc_rows))
    else:
        lines.append("  no field is set by any layer")
    lines.append("")
    layer_names = [label for label, _ in env_layers(record)]
    lines.append(
        palette.bold("Environment of kserve-container; layers, lowest first: ")
        + ", ".join(dict.fromkeys(layer_names))
    )
    lines.extend(table(["Name", "Value", "Set by", "Also set by (overridden)"], env_rows(record)))
    return lines


def _selection_lines(record: ServiceRecord, palette: Palette) -> list[str]:
    selection = deployed_selection(record) if record.plan is not None or record.error is not None else None
    if selection is None or selection.explanation is None:
        if record.plan is not None and record.plan.resolved_profile is None:
            return []
        header, rows = _failed_candidate_rows(record)
        out = [f"  {header}", "", palette.bold(f"Candidates ({len(rows)} reachable, none selected):")]
        out.extend(
            table(_CANDIDATE_HEADERS, rows) if rows else ["  no profile is reachable from this selector"]
        )
        return out
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
    out.append("")
    out.append(palette.bold(f"Candidates ({len(ex.candidates)} considered):"))
    out.extend(table(_CANDIDATE_HEADERS, candidate_rows(ex)))
    return out


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
        "error": error or (" ".join(str(record.error).split()) if record.error is not None else None),
        "decision": why_line(record) if plan is not None else None,
        "profile": plan.resolved_profile.as_dict() if plan is not None and plan.resolved_profile else None,
    }
    selection = deployed_selection(record) if plan is not None or record.error is not None else None
    if selection is not None and selection.explanation is not None:
        document["candidates"] = _rows(_CANDIDATE_KEYS, candidate_rows(selection.explanation))
    elif plan is None or plan.resolved_profile is not None:
        document["candidates"] = _rows(_CANDIDATE_KEYS, _failed_candidate_rows(record)[1])
    if plan is not None:
        labels, rc_rows = runtime_config_rows(record)
        document["runtimeConfig"] = {
            "used": runtime_config_text(plan),
            "layers": labels,
            "fields": _rows(("field", *_LAYER_KEYS), rc_rows),
        }
        document["env"] = _rows(("name", *_LAYER_KEYS), env_rows(record))
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
            program = load_program(path, stack=args.stack, config=args.config)
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
            print(f"error: no AIMService {key} in the plan; services: {known}", file=err)
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
