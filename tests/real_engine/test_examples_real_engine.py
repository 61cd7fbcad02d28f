"""Every example under the real Pulumi engine, against what `aim-pulumi plan` says offline.

One stack per example is shared by the steps in the order a user takes them: preview, up, a second
preview that must show no change, destroy. pytest runs each example's steps together, in this order.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from harness import (
    RealStack,
    examples,
    manifest_key,
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


def test_second_preview_expects_no_changes(stack: RealStack) -> None:
    stack.ensure_up()
    stack.pulumi("preview", "--expect-no-changes")


def test_destroy_keeps_only_the_shared_caches(stack: RealStack) -> None:
    stack.ensure_up()
    retained = {
        manifest_key(r["inputs"])
        for r in stack.state_resources()
        if r["type"].startswith("kubernetes:") and r.get("retainOnDelete")
    }
    plan = stack.offline_plan()
    types = {r["urn"]: r["type"] for r in plan["resources"]}
    # A Shared cache's PVC and download Job: the namespace's, which other stacks may share.
    shared_caches = {
        manifest_key(r["inputs"])
        for r in plan["resources"]
        if types.get(r.get("parentUrn")) == "aim:index:AIMSharedCache"
        and r["type"] in ("kubernetes:core/v1:PersistentVolumeClaim", "kubernetes:batch/v1:Job")
    }
    assert retained == shared_caches
    resources = plan["resources"]
    offline_retained = {manifest_key(r["inputs"]) for r in resources if r["options"]["retainOnDelete"]}
    assert offline_retained == retained
    stack.destroy()
    assert not [r for r in stack.state_resources() if not r["type"].startswith("pulumi:")]
    assert set(stack.rendered()) == retained
