"""What the text plan says below the tree: one line per AIMService, the warnings, the stack outputs.

`why_line` is the profile decision in a few words; `explain` shows the same decision in full, read
from the same selection (`deployed_selection`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from aim_pulumi.cli.common import one_line
from aim_pulumi.cli.render import Palette, format_value, redact_secrets
from aim_pulumi.cli.tree import resource_label

if TYPE_CHECKING:
    from aim_pulumi.cli.execution import PlanRun
    from aim_pulumi.offline.recording import PlanRecording
    from aim_pulumi.resolve.plan.result import ServicePlan
    from aim_pulumi.resolve.selection.select import ProfileSelection
    from aim_pulumi.resources.resolutions import Resolution as ServiceRecord


SERVICE_TYPE = "aim:index:AIMService"

# `pulumi.log` severities that --quiet still prints.
_PROBLEM_SEVERITIES = ("warning", "error")


UNKNOWN_NAMESPACE = (
    "namespace not known offline (an Output, such as an auto-named Namespace's name): its children "
    "and outputs are unknown until it is; give the Namespace a `metadata.name` to plan them here"
)

_SHAPES = {
    "Name": "by name",
    "ModelImage": "by image",
    "ModelAndSelector": "by model and selector",
    "Selector": "by selector",
    "Model": "by model",
}


def service_summaries(run: PlanRun, palette: Palette) -> list[str]:
    """Per AIMService: one summary line, then its warnings (and, with records, nothing else)."""
    recording = run.recording
    if recording is None:
        return []
    by_isvc = {r.plan.isvc_name: r for r in run.services.values() if r.plan is not None}
    lines: list[str] = []
    for resource in recording.of_type(SERVICE_TYPE):
        outputs = recording.outputs.get(resource.urn, {})
        record = by_isvc.get(str(outputs.get("inferenceServiceName")))
        status = redact_secrets(outputs.get("status") or {})
        if record is not None and record.plan is not None:
            title = f"AIMService {one_line(record.key)}"
            parts = [
                _choice_text(record),
                f"runtime config {runtime_config_text(record.plan)}",
                _route_text(record.plan, status),
                _replicas_text(record.plan),
                _cache_text(record.plan),
            ]
        elif not isinstance(status, Mapping):
            # Unknown in this plan: its namespace is an Output the offline engine cannot know (an
            # auto-named Namespace's name), so its children are too, as in a preview.
            title = f"AIMService {one_line(resource.name)}"
            parts = [UNKNOWN_NAMESPACE]
        else:
            title = f"AIMService {one_line(resource.name)}"
            parts = [f"status {status.get('status', '?')}"]
        lines.append(f"{palette.bold(title)}: " + one_line("; ".join(parts)))
        for log in recording.logs:
            if log.urn == resource.urn and log.severity in _PROBLEM_SEVERITIES:
                lines.append("  " + palette.warning(f"{log.severity}: {one_line(log.message)}"))
    return lines


def unknown_namespace_services(run: PlanRun) -> list[str]:
    """The Pulumi names of the AIMServices this plan could not resolve: their namespace is unknown."""
    recording = run.recording
    if recording is None:
        return []
    return [
        one_line(resource.name)
        for resource in recording.of_type(SERVICE_TYPE)
        if not isinstance(recording.outputs.get(resource.urn, {}).get("status"), Mapping)
    ]


def warning_lines(recording: PlanRecording, palette: Palette, *, services: bool = True) -> list[str]:
    """Every warning and error the program logged, as `warning: <resource>: <message>`.

    `services=False` leaves out those attached to an AIMService (its summary line lists them).
    """
    by_urn = {r.urn: r for r in recording.resources}
    lines: list[str] = []
    for log in recording.logs:
        if log.severity not in _PROBLEM_SEVERITIES:
            continue
        owner = by_urn.get(log.urn)
        if owner is not None and owner.type == SERVICE_TYPE and not services:
            continue
        where = f"{resource_label(owner)}: " if owner is not None else ""
        lines.append(palette.warning(f"{log.severity}: {where}{one_line(log.message)}"))
    return lines


def _choice_text(record: ServiceRecord) -> str:
    """What the service deploys and why: its profile, or what a folder's pipeline says it chose."""
    plan = record.plan
    assert plan is not None
    if plan.summary is not None:
        return plan.summary.choice
    return f"profile {_profile_text(plan)} ({why_line(record)})"


def _profile_text(plan: ServicePlan) -> str:
    ref = plan.resolved_profile
    if ref is None:
        return plan.profile_name
    text = f"{ref.kind} {ref.name}"
    if plan.profile_overlay:
        text += f" + overlay {plan.profile_overlay}"
    return text


def runtime_config_text(plan: ServicePlan) -> str:
    """`AIMRuntimeConfig team-a/default`: the runtime config a service plan used."""
    rc = plan.runtime_config
    if rc is None:
        return "none (DefaultConfigNotFound)"
    where = f"{rc.ref.namespace}/{rc.ref.name}" if rc.ref.namespace else rc.ref.name
    return f"{rc.ref.kind} {where}"


def _route_text(plan: ServicePlan, status: Mapping[str, Any]) -> str:
    if plan.route is not None:
        return f"route {plan.route.path}"
    for condition in status.get("conditions") or []:
        if condition.get("type") == "HTTPRouteReady":
            return f"no route ({condition.get('reason')})"
    return "no route"


def _replicas_text(plan: ServicePlan) -> str:
    scaling = plan.scaling
    if scaling.autoscaler_class != "external":
        return f"replicas {scaling.min_replicas}"
    keda = "KEDA" if scaling.scaled_object is not None else "no ScaledObject"
    zero = ", scale from zero" if scaling.min_replicas == 0 and scaling.scaled_object is not None else ""
    return f"replicas {scaling.min_replicas}-{scaling.max_replicas} ({keda}{zero})"


def _cache_text(plan: ServicePlan) -> str:
    if not plan.caches:
        return "no cache"
    listed = ", ".join(f"{c.pvc_name} {c.size_gi}Gi" for c in plan.caches)
    return f"cache {plan.caches[0].mode} ({listed})"


def deployed_selection(record: ServiceRecord) -> ProfileSelection | None:
    """The selection the plan deployed; re-selected only to show why a failed service found none."""
    from aim_pulumi.resolve.errors import AIMResolutionError
    from aim_pulumi.resolve.selection.select import select_profile

    if record.plan is not None:
        return record.plan.selection
    try:
        return select_profile(record.service, record.catalog)
    except AIMResolutionError:
        return None


def why_line(record: ServiceRecord) -> str:
    """The profile decision in a few words: shape, how many candidates, the deciding tier."""
    plan = record.plan
    if plan is not None and plan.summary is not None:
        return plan.summary.why
    selection = deployed_selection(record)
    if selection is None or selection.explanation is None:
        return "resolved"
    ex = selection.explanation
    if ex.shape == "Name":
        return "by name"
    head = _SHAPES.get(ex.shape, ex.shape) + (f" {ex.model}" if ex.model else "")
    if ex.sticky == "kept":
        return f"{head}: kept from the previous binding"
    ranked = sorted((c for c in ex.candidates if c.rank is not None), key=lambda c: c.rank or 0)
    if len(ranked) <= 1:
        text = f"{head}: the only candidate of {len(ex.candidates)} considered"
    else:
        runner = ranked[1]
        text = f"{head}: ranked 1st of {len(ranked)}, ahead of {runner.name} on {runner.decided_by}"
    if ex.selection_pass == 2:
        text += ", admitted by autoSelectionPolicy any"
    if selection.ambiguous:
        text += f", tied with {', '.join(selection.tied)} (name order decided)"
    if selection.rebound_from:
        text += f"; rebound from {selection.rebound_from} ({selection.rebound_reason})"
    return text


def skipped_lines(outcome: PlanRun) -> list[str]:
    """For AIM YAML: the files and documents that are not deployed (`kustomization.yaml`, ...)."""
    return [replace(s, file=outcome.program.shown(s.file)).line for s in outcome.skipped]


def output_lines(recording: PlanRecording, palette: Palette) -> list[str]:
    """The stack outputs as `pulumi preview` ends with them: `Outputs:`, then `name: value` lines."""
    outputs = redact_secrets(recording.stack_outputs())
    if not outputs:
        return []
    width = max(len(name) for name in outputs)
    lines = [palette.bold("Outputs:")]
    for name in sorted(outputs):
        lines.append(f"    {name.ljust(width)}: {format_value(outputs[name], None)}")
    return lines
