"""Running PROGRAM under the offline engine and remembering what each service resolved against.

`execute` is what `plan` and `explain` both run: catalog objects from `--catalog` first, then the
program body (a Pulumi program, or `AIMStack` over AIM YAML) under `engine.run_program`; a failure
is kept as one line (`failures.failure_line`) rather than raised.
"""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aim_pulumi.cli.common import UsageError, one_line
from aim_pulumi.cli.failures import failure_line
from aim_pulumi.cli.project import Program
from aim_pulumi.cli.tree import resource_label

if TYPE_CHECKING:
    from aim_pulumi.api import AIMObject
    from aim_pulumi.api.sources import Skipped
    from aim_pulumi.offline.recording import PlanRecording
    from aim_pulumi.resolve.catalog.store import Catalog
    from aim_pulumi.resolve.settings import Settings
    from aim_pulumi.resources.capacity import CapacityCheck
    from aim_pulumi.resources.capacity_read import ClusterAccess
    from aim_pulumi.resources.resolutions import Resolution as ServiceRecord


class PlanFailure(Exception):
    """The program failed to plan (exit 1); `line` is the one-line explanation to print."""

    def __init__(self, line: str, cause: BaseException) -> None:
        super().__init__(line)
        self.line = line
        self.cause = cause


@dataclass
class PlanRun:
    """A finished (or failed) program run: the recording and every service's last plan."""

    program: Program
    recording: PlanRecording | None
    services: dict[str, ServiceRecord] = field(default_factory=dict)
    catalog: Catalog | None = None
    settings: Settings | None = None
    # The run's capacity check: what was read, the verdicts and the cost (`plan --capacity`).
    capacity: CapacityCheck | None = None
    error: PlanFailure | None = None
    # For AIM YAML: the files and documents the run's AIMStack read and did not deploy.
    skipped: list[Skipped] = field(default_factory=list)


@contextlib.contextmanager
def _recording_service_plans(sink: dict[str, ServiceRecord]) -> Iterator[None]:
    """Keep the last planning of each service of one run (the summary lines and `explain` read it)."""
    from aim_pulumi.resources.resolutions import observe_resolutions

    def keep(record: ServiceRecord) -> None:
        sink[record.key] = record

    with observe_resolutions(keep):
        yield


def _engine_logger(debug: bool) -> logging.Logger:
    """Engine diagnostics are shown by the command itself; the raw stream only with --debug."""
    logger = logging.getLogger("aim_pulumi.cli.plan.engine")
    logger.propagate = False
    logger.handlers.clear()
    if debug:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("engine %(levelname)s: %(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
    else:
        logger.addHandler(logging.NullHandler())
    return logger


def _load_catalog_objects(directories: Sequence[str]) -> list[AIMObject]:
    from aim_pulumi.api.errors import escape
    from aim_pulumi.api.io import load_manifests
    from aim_pulumi.versions import SERVED_KINDS

    objects: list[AIMObject] = []
    for directory in directories:
        if not Path(directory).exists():
            raise UsageError(f"--catalog {directory}: no such file or directory")
        try:
            found = load_manifests(directory, SERVED_KINDS)
        except FileNotFoundError as exc:  # not a regular file or directory, a symlink leading out
            raise UsageError(f"--catalog {escape(exc)}") from None
        for obj in found:
            if obj.kind == "AIMService":
                raise UsageError(
                    f"--catalog {directory}: {obj.object_ref} is a service; --catalog takes profiles, "
                    "models, runtime configs and templates (plan services as PROGRAM)"
                )
            objects.append(obj)
    return objects


def execute(
    program: Program,
    *,
    catalogs: Sequence[str] = (),
    debug: bool = False,
    previous: Mapping[str, Mapping[str, Any]] | None = None,
    cluster: ClusterAccess | None = None,
) -> PlanRun:
    """Run PROGRAM under the recording mock engine; a failure is kept in `PlanRun.error`.

    `previous` is the dynamic resources' state after an earlier run, by name (`previous_state`).
    `cluster` is the cluster whose capacity the run reads (`plan --kubeconfig`); None reads none.

    Raises UsageError for unusable `--catalog` paths. Catalog objects are added to the stack
    catalog before the program starts, as if declared first.
    """
    from aim_pulumi.offline.engine import run_program
    from aim_pulumi.resources.registry import current_registry

    services: dict[str, ServiceRecord] = {}
    outcome = PlanRun(program=program, recording=None, services=services)
    try:
        extra = _load_catalog_objects(catalogs)
    except UsageError:
        raise
    except Exception as exc:
        outcome.error = PlanFailure(failure_line(exc, program), exc)
        return outcome
    body = _program_body(program, outcome.skipped)

    def entry() -> None:
        registry = current_registry()
        outcome.catalog, outcome.settings = registry.catalog, registry.settings
        outcome.capacity = registry.capacity
        registry.capacity.access = cluster
        for obj in extra:
            registry.add(obj)
        body()

    from aim_pulumi.resources.discovery import using_root

    try:
        with _recording_service_plans(services), using_root(program.root or program.path):
            outcome.recording = run_program(
                entry,
                project=program.project,
                stack=program.stack,
                config=program.config,
                secret_config_keys=program.secret_keys,
                previous=previous,
                logger=_engine_logger(debug),
            )
    except Exception as exc:
        outcome.error = PlanFailure(failure_line(exc, program), exc)
        return outcome
    duplicate = _duplicate_urn(outcome.recording)
    if duplicate is not None:
        outcome.error = PlanFailure(one_line(str(duplicate)), duplicate)
    return outcome


class DuplicateResource(Exception):
    """Two resources of one stack share a URN, which the Pulumi engine refuses before any change."""


def _duplicate_urn(recording: PlanRecording) -> DuplicateResource | None:
    """The first resource registered twice under one URN, worded as `pulumi preview` words it."""
    seen: set[str] = set()
    for r in recording.resources:
        if r.urn in seen:
            label = resource_label(r)
            return DuplicateResource(
                f"{label}: Duplicate resource URN '{r.urn}'; try giving it a unique name"
            )
        seen.add(r.urn)
    return None


def _program_body(program: Program, skipped: list[Skipped]) -> Any:
    if program.kind == "pulumi":
        from aim_pulumi.offline.engine import program_callable

        return program_callable(program.path)
    path = str(program.path)
    name = program.project

    def manifests() -> None:
        from aim_pulumi.resources import AIMStack

        skipped.extend(AIMStack(name, {"path": path})._aim_skipped)

    return manifests
