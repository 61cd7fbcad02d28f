"""Under the real engine the round's registrations are awaited with the RPCs in flight.

The SDK ends a program by awaiting its RPCs one by one, then waiting for the remaining Output
tasks with `asyncio.wait(..., FIRST_COMPLETED)` in a loop that re-watches every pending task per
completion. The round registers every child from an Output's callback once the sticky bindings
come back from the engine; unless that callback is held among the RPCs, the children's engine
round-trips are waited for in the second loop (quadratic in the pending tasks: half the program's
CPU at 100 services). Under the SDK's mocks registrations answer at once and the loop is never
reached, so this is checked where it happens.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from harness import REPO, RealStack, toolchain_dir

pytestmark = pytest.mark.real_engine

PROGRAM = REPO / "tests" / "fixtures" / "programs" / "end-wait"


def test_the_sdks_end_wait_has_no_output_tasks_left_to_wait_for(tmp_path: Path) -> None:
    stack = RealStack(PROGRAM, tmp_path, toolchain_dir())
    stack.env["AIM_TEST_WAITS"] = str(tmp_path / "waits.json")
    preview = stack.preview()

    counted = json.loads((tmp_path / "waits.json").read_text(encoding="utf-8"))
    # The stack, 3 profiles, and per service its component, binding, InferenceService, profile
    # ConfigMap and HTTPRoute: every child was registered within the preview.
    assert preview["changeSummary"]["create"] == 1 + 3 + 8 * 5
    assert counted == {"calls": 0, "tasks": 0}
