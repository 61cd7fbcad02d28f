"""Hostile input through `validate`, `plan` and the Python API: a clean error or valid children.

Every input must end, within a time bound, in either a clean error (exit 1 with one escaped line
per problem; `AIMValidationError`/`AIMResolutionError` from the API) or a plan whose every child
manifest the vendored schemas accept — without `--validate`. A small seed corpus runs by default;
`pytest -m fuzz` runs a larger one. Set AIM_FUZZ_REPORT=FILE to write the per-channel figures.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import resource
import signal
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from aim_pulumi.api import AIMValidationError
from aim_pulumi.api.errors import escape
from aim_pulumi.cli.__main__ import main
from aim_pulumi.manifests import build_cache_pvc, build_download_job, build_service_manifests
from aim_pulumi.manifests.child_admission import check_children
from aim_pulumi.resolve import AIMResolutionError, plan_service
from aim_pulumi.schemas import validate_manifest
from hostile.corpus import Case, corpus
from tests.versions import Catalog, load_manifests

SEED = 17
# Seconds one input may take on a busy 2-core machine; a hang is anything beyond.
TIME_LIMIT = 20
MEMORY_GROWTH_LIMIT_KIB = 1024 * 1024

FIGURES: dict[str, Counter[str]] = {}


class Hang(Exception):
    pass


@contextlib.contextmanager
def time_bound(seconds: int) -> Iterator[None]:
    def expire(signum: int, frame: Any) -> None:
        raise Hang(f"no result after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# The catch-all line of the CLI (`error: OverflowError: ...`): an internal exception, even if clean.
_INTERNAL = re.compile(
    r"InputTooLarge: the input (is nested|needs more)|\b(?!AIM)[A-Z][A-Za-z]*(Error|Exception)\b"
)


def _internal(code: int, output: str) -> bool:
    return "Traceback" in output or code not in (0, 1, 2) or _INTERNAL.search(output) is not None


def _raw_control(text: str) -> bool:
    return any(escape(line) != line for line in text.split("\n"))


def _write(tmp: Path, case: Case) -> Path:
    path = tmp / "input.yaml"
    path.write_bytes(case.data)
    return path


def _run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def _validate_channel(path: Path, tmp: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    code, output = _run_cli(["validate", str(path)], capsys)
    if _internal(code, output):
        return "internal", output
    if _raw_control(output):
        return "raw_control", output
    return ("valid" if code == 0 else "clean_error"), output


def _plan_channel(path: Path, tmp: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    out = tmp / "out" / "plan.yaml"
    out.parent.mkdir(exist_ok=True)  # plan writes into an existing directory only
    out.unlink(missing_ok=True)
    code, output = _run_cli(["plan", str(path), "--no-color", "--yaml", str(out)], capsys)
    if _internal(code, output):
        return "internal", output
    if _raw_control(output):
        return "raw_control", output
    if code != 0:
        return "clean_error", output
    invalid = [
        error
        for doc in yaml.safe_load_all(out.read_text(encoding="utf-8"))
        if doc
        for error in validate_manifest(doc)
    ]
    return ("invalid_manifest", "\n".join(invalid)) if invalid else ("valid", output)


def _api_channel(path: Path, tmp: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    try:
        objects = load_manifests(path)
        catalog = Catalog([o for o in objects if o.kind != "AIMService"])
        problems: list[str] = []
        for service in (o for o in objects if o.kind == "AIMService"):
            plan = plan_service(service, catalog, size_of=lambda *_a, **_k: 16 * 1024**3)
            docs = build_service_manifests(plan)
            for cache in plan.caches:
                docs += [build_cache_pvc(cache), build_download_job(cache)]
            # What the components do before registering: the children checked as the API server would.
            check_children(docs, str(service.object_ref))
            problems += [error for doc in docs for error in validate_manifest(doc)]
    except (AIMValidationError, AIMResolutionError) as exc:
        return ("raw_control", str(exc)) if _raw_control(str(exc)) else ("clean_error", str(exc))
    except Hang:
        raise
    except Exception:
        return "internal", traceback.format_exc()
    return ("invalid_manifest", "\n".join(problems)) if problems else ("valid", "")


CHANNELS: dict[str, Callable[[Path, Path, pytest.CaptureFixture[str]], tuple[str, str]]] = {
    "validate": _validate_channel,
    "plan": _plan_channel,
    "api": _api_channel,
}
BAD = ("hang", "crash", "internal", "raw_control", "invalid_manifest")


def run_corpus(
    channel: str, cases: list[Case], tmp: Path, capsys: pytest.CaptureFixture[str]
) -> Counter[str]:
    figures = FIGURES.setdefault(channel, Counter())
    failures: list[str] = []
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for case in cases:
        path = _write(tmp, case)
        started = time.monotonic()
        try:
            with time_bound(TIME_LIMIT):
                outcome, detail = CHANNELS[channel](path, tmp, capsys)
        except Hang as exc:
            outcome, detail = "hang", str(exc)
        except BaseException as exc:  # a crash of the harness's caller: SystemExit, RecursionError...
            if isinstance(exc, KeyboardInterrupt):
                raise
            outcome, detail = "crash", traceback.format_exc()
        figures["tried"] += 1
        figures[outcome] += 1
        figures["max_ms"] = max(figures["max_ms"], int((time.monotonic() - started) * 1000))
        if outcome in BAD:
            failures.append(f"{case.name}: {outcome}: {detail[-2000:]}")
    growth = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss_before
    figures["max_rss_growth_mib"] = max(figures["max_rss_growth_mib"], growth // 1024)
    _report()
    assert not failures, "\n\n".join(failures[:5])
    assert growth < MEMORY_GROWTH_LIMIT_KIB
    return figures


def _report() -> None:
    target = os.environ.get("AIM_FUZZ_REPORT")
    if target:
        Path(target).write_text(
            json.dumps({k: dict(v) for k, v in FIGURES.items()}, indent=2, sort_keys=True)
        )


# Default run: every text attack and a few mutations per channel; `-m fuzz` widens it.
SMALL = {"validate": 60, "api": 60, "plan": 12}
LARGE = {"validate": 1500, "api": 1500, "plan": 200}


@pytest.mark.parametrize("channel", ["validate", "api", "plan"])
def test_seed_corpus(channel: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases = corpus(SEED, SMALL[channel])
    if channel == "plan":
        cases = cases[::3]  # the engine is the slow part: every third text attack
    figures = run_corpus(channel, cases, tmp_path, capsys)
    assert figures["clean_error"] > 0 and figures["valid"] > 0


@pytest.mark.fuzz
@pytest.mark.parametrize("channel", ["validate", "api", "plan"])
def test_large_corpus(channel: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_corpus(channel, corpus(SEED + 1, LARGE[channel]), tmp_path, capsys)
