"""Which pipeline reconciles an AIMService: the profile path or the legacy template path (behaviour §7.1).

The operator's bridge release runs both pipelines side by side and lets one annotation opt a service
into either, so teams can move service by service. The marker is advice, never a reason to fail: a
value that cannot apply to the service is ignored with an `InvalidReconcilerPipeline` warning and the
shape of the spec decides, exactly as if the annotation were absent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from aim_pulumi.api import AIMServiceObject, to_manifest
from aim_pulumi.resolve.types import Diagnostic

Pipeline = Literal["profile", "template"]

RECONCILER_PIPELINE_ANNOTATION = "aim.eai.amd.com/reconciler-pipeline"
INVALID_RECONCILER_PIPELINE = "InvalidReconcilerPipeline"


def _present(mapping: Mapping[str, Any], key: str) -> bool:
    return mapping.get(key) is not None


def _shape_pipeline(spec: Mapping[str, Any]) -> Pipeline:
    """The pipeline a service takes without (or despite) a marker."""
    return "profile" if _present(spec, "profile") else "template"


def _marker_problem(marker: str, spec: Mapping[str, Any]) -> str | None:
    """Why the marker cannot apply to this spec, or None when it decides the pipeline."""
    model = spec.get("model")
    model = model if isinstance(model, Mapping) else {}
    if marker == "profile":
        if _present(spec, "profile"):
            return None
        if _present(spec, "template"):
            return "the profile pipeline cannot take spec.template"
        if _present(model, "name") or _present(model, "image"):
            return None
        return "the profile pipeline needs spec.profile, spec.model.name or spec.model.image"
    if marker == "template":
        if not _present(spec, "model"):
            return "the template pipeline needs spec.model"
        if _present(spec, "profile"):
            return "spec.profile always selects the profile pipeline"
        return None
    if marker == "":
        return "the value is empty"
    return "the known values are profile and template"


def choose_pipeline(service: AIMServiceObject) -> tuple[Pipeline, tuple[Diagnostic, ...]]:
    """Decide the pipeline of a service of either apiVersion, and the warning for a marker it ignores."""
    spec: Mapping[str, Any] = to_manifest(service).get("spec") or {}
    annotations = service.metadata.annotations or {}
    if RECONCILER_PIPELINE_ANNOTATION not in annotations:
        return _shape_pipeline(spec), ()
    marker = annotations[RECONCILER_PIPELINE_ANNOTATION]
    problem = _marker_problem(marker, spec)
    if problem is None:
        return ("profile" if marker == "profile" else "template"), ()
    chosen = _shape_pipeline(spec)
    warning = Diagnostic(
        level="warn",
        reason=INVALID_RECONCILER_PIPELINE,
        message=(
            f"annotation {RECONCILER_PIPELINE_ANNOTATION}={marker!r} is ignored ({problem}); "
            f"the service uses the {chosen} pipeline"
        ),
    )
    return chosen, (warning,)
