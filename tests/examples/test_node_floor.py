"""The TypeScript quickstart says which Node.js it needs, and that is what its pinned SDK declares."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "quickstart-ts"


def test_the_documented_node_floor_is_the_pinned_sdks_and_the_generated_sdk_accepts_the_pin() -> None:
    lock = json.loads((EXAMPLE / "package-lock.json").read_text())
    sdk = lock["packages"]["node_modules/@pulumi/pulumi"]
    floor = re.fullmatch(r">=(\d+)", sdk["engines"]["node"])
    assert floor, sdk["engines"]
    readme = " ".join((EXAMPLE / "README.md").read_text().split())
    assert f"Node.js {floor.group(1)}+ runs the program" in readme
    # The SDK the CLI generates (sdks/aim) asks for a floor of @pulumi/pulumi the pin meets.
    wanted = lock["packages"]["sdks/aim"]["dependencies"]["@pulumi/pulumi"]
    pinned = tuple(int(p) for p in sdk["version"].split("."))
    assert wanted.startswith("^3.")
    assert pinned >= tuple(int(p) for p in wanted[1:].split("."))
