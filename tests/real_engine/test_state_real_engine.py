"""What the engine stores of each registration's origin, under the real engine.

The engine keeps every resource's source position and stack trace in the state, which every `up`,
`refresh` and `stack export` reads and writes whole. The components send the user's line as the
source position and no trace (`levers.py`): a component's own, where the program constructed it;
its children's (bindings, InferenceService, route, ConfigMap), where the program declared their
component. So every position a user sees in the state, in Pulumi Cloud or next to an engine error
points at their program, and no resource stores a frame of the package, the SDK or asyncio.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from harness import REPO, RealStack, toolchain_dir

pytestmark = pytest.mark.real_engine

PROGRAM = REPO / "tests" / "fixtures" / "programs" / "end-wait"
MAIN = "project:///__main__.py"


def _calls(name: str) -> list[int]:
    """The lines of `__main__.py` where `name(...)` is called."""
    tree = ast.parse((PROGRAM / "__main__.py").read_text(encoding="utf-8"))
    return sorted(
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name
    )


def test_every_resource_of_the_components_points_at_the_program_and_nothing_else(tmp_path: Path) -> None:
    stack = RealStack(PROGRAM, tmp_path, toolchain_dir())
    stack.up()
    resources = stack.state_resources()
    by_urn = {r["urn"]: r for r in resources}
    ours = [
        r
        for r in resources
        if r["type"].startswith("aim:")
        or by_urn.get(r.get("parent", ""), {}).get("type", "").startswith("aim:")
    ]
    services = [r for r in ours if r["type"] == "aim:index:AIMService"]
    assert len(services) == 8
    children = [r for r in ours if by_urn[r.get("parent", "")]["type"] == "aim:index:AIMService"]
    # Per service its binding, InferenceService, profile ConfigMap and HTTPRoute.
    assert len(children) >= 8 * 4
    service_line = _calls("AIMService")[0]
    profile_line = _calls("AIMProfile")[0]
    for resource in ours:
        # The line that declared it, and no trace.
        assert "stackTrace" not in resource, resource["urn"]
        assert str(resource.get("sourcePosition")).startswith(f"{MAIN}#"), resource["urn"]
    for resource in services + children:
        assert resource["sourcePosition"] == f"{MAIN}#{service_line}", resource["urn"]
    for resource in ours:
        if resource["type"] == "aim:index:AIMProfile":
            assert resource["sourcePosition"] == f"{MAIN}#{profile_line}", resource["urn"]
    # No resource of the state carries a frame of the package.
    assert "aim_pulumi" not in str([r.get("stackTrace") for r in resources])
