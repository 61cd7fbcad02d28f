"""Every example under the real Pulumi engine, against what `aim-pulumi plan` says offline.

One stack per example is shared by the steps in the order a user takes them: the preview shows the
offline plan's resources, and `up` renders its manifests. What comes after (a second preview and a
refresh that find nothing to change, and `destroy` leaving only the Shared caches) runs for the
same examples against a real API server (`tests/cluster/test_examples_cluster.py`), where it says
more than in render mode, so it is not run here again.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from harness import (
    RealStack,
    examples,
    plan_resources,
    preview_resources,
    toolchain_dir,
)

from aim_pulumi.schemas import validate_manifest

pytestmark = pytest.mark.real_engine

EXAMPLES = list(examples())


@pytest.fixture(scope="module", params=EXAMPLES, ids=[p.name for p in EXAMPLES])
def stack(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RealStack]:
    program: Path = request.param
    yield RealStack(program, tmp_path_factory.mktemp(program.name), toolchain_dir())


def test_preview_shows_the_offline_plans_resources(stack: RealStack) -> None:
    preview = stack.preview()
    assert preview_resources(preview) == plan_resources(stack.offline_plan())


def test_up_renders_the_offline_plans_manifests(stack: RealStack) -> None:
    stack.up()
    rendered = stack.rendered()
    assert rendered, "the provider rendered nothing"
    assert rendered == stack.offline_manifests()
    for key, manifest in rendered.items():
        assert validate_manifest(manifest) == [], key
