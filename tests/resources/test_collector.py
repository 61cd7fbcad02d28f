"""The collector's window: raised thresholds from a round's first declaration until its registrations
are answered, put back on every way a round ends, so no program is left collecting less after it."""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable
from pathlib import Path

import pulumi
import pytest

from aim_pulumi.cli.__main__ import main
from aim_pulumi.resources import collector
from tests.conftest import FailedRun, Recorder

from .catalog import P1, by_model, declare_catalog, declare_service


def test_a_program_that_resolves_leaves_no_window_open(recording: Recorder) -> None:
    # The offline engine raises the thresholds itself: the window is seen in the collector's own count.
    seen: list[int] = []

    def program() -> None:
        seen.append(len(collector._FOUND))
        declare_catalog()
        seen.append(len(collector._FOUND))
        declare_service("chat", by_model())

    recording(program)
    assert seen == [0, 1]
    assert collector._FOUND == []


def _body_fails() -> None:
    declare_catalog()
    raise RuntimeError("the program body failed")


def _a_service_fails() -> None:
    declare_catalog()
    declare_service("chat", {"profile": {"name": "no-such-profile"}})


def _a_namespace_is_never_known() -> None:
    declare_catalog()
    declare_service("chat", by_model(), namespace=pulumi.Output.from_input("ml-team").apply(_fail))


def _fail(value: str) -> str:
    raise ValueError(f"no namespace {value}")


@pytest.mark.parametrize(
    ("program", "failure"),
    [
        (_body_fails, "the program body failed"),
        (_a_service_fails, "no-such-profile"),
        (_a_namespace_is_never_known, "no namespace ml-team"),
    ],
)
def test_every_way_a_round_fails_puts_the_thresholds_back(
    failed_run: FailedRun, program: Callable[[], None], failure: str
) -> None:
    error, _ = failed_run(program)
    assert failure in str(error)
    assert collector._FOUND == []


def test_a_pinned_service_has_no_binding_and_still_closes_the_window(recording: Recorder) -> None:
    def program() -> None:
        declare_catalog()
        declare_service("pinned", {"profile": {"name": P1}})

    recording(program)
    assert collector._FOUND == []


def test_overlapping_windows_put_the_thresholds_back_when_the_last_one_ends() -> None:
    before = gc.get_threshold()
    entered = threading.Event()
    release = threading.Event()
    seen: list[tuple[int, ...]] = []

    def other_round() -> None:
        with collector.collecting_less():
            entered.set()
            release.wait(10)

    other = threading.Thread(target=other_round)
    other.start()
    try:
        assert entered.wait(10)
        assert gc.get_threshold()[0] >= collector.RAISED_THRESHOLDS[0]
        with pytest.raises(RuntimeError), collector.collecting_less():
            seen.append(gc.get_threshold())
            raise RuntimeError("a failed round")
        # The other round still runs: its thresholds stay.
        assert gc.get_threshold() == seen[0]
        put_back = collector.collect_less()
        put_back()
        put_back()  # every path that ends a round may call it: the second call changes nothing
        assert gc.get_threshold() == seen[0]
    finally:
        release.set()
        other.join(10)
    assert gc.get_threshold() == before


def test_a_run_that_fails_on_a_registration_leaves_no_window_open(tmp_path: Path) -> None:
    # A secret where only an env value may be one fails in the child's serialization, an RPC: the
    # run stops with registrations unanswered, and the engine that ran it closes the round's window.
    # Its closer would run late, after the engine put its own thresholds back: it must do nothing.
    program = Path(__file__).resolve().parents[1] / "fixtures" / "programs" / "secret-field"
    before = gc.get_threshold()
    assert main(["plan", str(program), "--config", "secret=true", "--yaml", str(tmp_path / "p.yaml")]) == 1
    main(["plan", str(program), "--yaml", str(tmp_path / "q.yaml")])  # the loop runs on: late callbacks
    assert collector._FOUND == []
    assert gc.get_threshold() == before


def test_closing_every_window_makes_older_closers_do_nothing() -> None:
    before = gc.get_threshold()
    first, second = collector.collect_less(), collector.collect_less()
    collector.put_back_all()
    assert gc.get_threshold() == before and collector._FOUND == []
    third = collector.collect_less()
    first()
    second()  # of the closed generation: the open window stays
    assert gc.get_threshold()[0] >= collector.RAISED_THRESHOLDS[0]
    third()
    assert gc.get_threshold() == before
