"""Fixtures shared by the whole suite."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, Protocol

import pytest
from hypothesis import HealthCheck, settings

from aim_pulumi.offline.engine import run_program
from aim_pulumi.offline.recording import PlanRecording
from aim_pulumi.resources.registry import reset_registry

# Property tests check what holds, never how fast: no per-example deadline or slow-generation check,
# which a loaded machine (CI runs the cluster lanes beside the unit tests) turns into failures that
# mean nothing.
settings.register_profile("aim", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("aim")


class Recorder(Protocol):
    def __call__(
        self,
        program: Callable[[], object],
        *,
        config: Mapping[str, str] | None = None,
        previous: Mapping[str, Mapping[str, Any]] | None = None,
        preview: bool = True,
        project: str = "aim",
        stack: str = "dev",
    ) -> PlanRecording: ...


@pytest.fixture
def recording() -> Iterator[Recorder]:
    """Run a Pulumi program (a callable) under the recording mock engine and return what it declared.

    Each call is a fresh program run: its own stack config, root stack and AIM stack catalog.
    """

    def run(
        program: Callable[[], object],
        *,
        config: Mapping[str, str] | None = None,
        previous: Mapping[str, Mapping[str, Any]] | None = None,
        preview: bool = True,
        project: str = "aim",
        stack: str = "dev",
    ) -> PlanRecording:
        return run_program(
            program, project=project, stack=stack, config=config, previous=previous, preview=preview
        )

    yield run
    reset_registry()


class FailedRun(Protocol):
    def __call__(
        self, program: Callable[[], object], *, config: Mapping[str, str] | None = None
    ) -> tuple[BaseException, list[tuple[str, str]]]: ...


@pytest.fixture
def failed_run(monkeypatch: pytest.MonkeyPatch) -> Iterator[FailedRun]:
    """Run a program that must fail: the exception, and (type, name) of everything it registered."""
    from aim_pulumi.offline.engine import RecordingMonitor

    registered: list[tuple[str, str]] = []
    original = RecordingMonitor.RegisterResource

    def register(self: RecordingMonitor, request: Any) -> Any:
        registered.append((request.type, request.name))
        return original(self, request)

    monkeypatch.setattr(RecordingMonitor, "RegisterResource", register)

    def run(
        program: Callable[[], object], *, config: Mapping[str, str] | None = None
    ) -> tuple[BaseException, list[tuple[str, str]]]:
        registered.clear()
        with pytest.raises(Exception) as caught:
            run_program(program, project="aim", stack="dev", config=config)
        return caught.value, [r for r in registered if r[0] != "pulumi:pulumi:Stack"]

    yield run
    reset_registry()
