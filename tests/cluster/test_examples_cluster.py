"""Every example applied to a real API server by the real Pulumi CLI and Kubernetes provider.

One stack per example (the Python ones, and the YAML and TypeScript quickstarts through the
component provider, the TypeScript one installed as a user installs it: `pulumi install` generates
the SDK, `npm ci` installs the committed lock file),
taken through the steps a user takes, in order: `pulumi up` (the status writer plays KServe and the
Job controller, so the provider's awaits end), every live object against the offline plan, a
preview and a refresh that must find nothing to change, and `pulumi destroy`.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from cluster import TestCluster
from harness import (
    REPO,
    RealStack,
    component_provider_program,
    examples,
    manifest_key,
    offline_plan,
    toolchain_dir,
    urn_name,
)
from live import live_of, mismatches, plan_namespaces
from status_writer import StatusWriter

pytestmark = pytest.mark.cluster

TYPESCRIPT = REPO / "examples" / "quickstart-ts"
PROGRAMS = [
    *(pytest.param(p, id=p.name) for p in [*examples(), REPO / "examples" / "quickstart-yaml"]),
    pytest.param(
        TYPESCRIPT,
        id=TYPESCRIPT.name,
        marks=pytest.mark.skipif(
            shutil.which("node") is None or shutil.which("npm") is None,
            reason="Node.js and npm run TypeScript programs and are not on PATH",
        ),
    ),
]


class ClusterExample:
    def __init__(self, stack: RealStack, plan: dict[str, Any], manifests: list[dict[str, Any]]) -> None:
        self.stack = stack
        self.plan = plan
        self.manifests = manifests


@pytest.fixture(scope="module", params=PROGRAMS)
def example(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, cluster: TestCluster
) -> Iterator[ClusterExample]:
    program: Path = request.param
    workdir = tmp_path_factory.mktemp(program.name)
    through_provider = not (program / "__main__.py").is_file()
    if through_provider:
        program = component_provider_program(program, workdir)
    stack = RealStack(program, workdir, toolchain_dir(), kubeconfig=cluster.kubeconfig)
    if (stack.dir / "package.json").is_file():
        stack.pulumi("install", "--no-dependencies")
        subprocess.run(
            ["npm", "ci", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=stack.dir,
            check=True,
            capture_output=True,
        )
    if through_provider:
        # The offline plan of the same components, declared by the Python quickstart, with the
        # YAML or TypeScript stack's config.
        twin = workdir / "quickstart"
        shutil.copytree(REPO / "examples" / "quickstart", twin)
        shutil.copy(stack.dir / "Pulumi.dev.yaml", twin / "Pulumi.dev.yaml")
        # Under the stack's project name, which a Shared cache's field manager names.
        twin_project = yaml.safe_load((twin / "Pulumi.yaml").read_text())
        twin_project["name"] = yaml.safe_load((stack.dir / "Pulumi.yaml").read_text())["name"]
        (twin / "Pulumi.yaml").write_text(yaml.safe_dump(twin_project, sort_keys=False))
        plan, by_key = offline_plan(twin, "dev", workdir)
    else:
        plan, by_key = stack.offline_plan(), stack.offline_manifests()
    manifests = list(by_key.values())
    for namespace in sorted(plan_namespaces(manifests)):
        cluster.kube.ensure_namespace(namespace)
    # A gateway and KEDA answer before a predictor has loaded its model: the reads of the routes
    # and ScaledObjects that follow an InferenceService's Ready find their answers, so the refresh
    # right after `up` is one of a settled cluster.
    answered_first = [
        (kind, namespace, name)
        for _, kind, namespace, name in map(manifest_key, manifests)
        if kind in ("HTTPRoute", "ScaledObject")
    ]
    with StatusWriter(cluster.kube, plan_namespaces(manifests), answered_first=answered_first):
        yield ClusterExample(stack, plan, manifests)
    # Leave the cluster as it was for the next example: destroy, then the PVCs destroy retains.
    stack.pulumi("destroy", "--yes", "--skip-preview", check=False)
    for manifest in manifests:
        api_version, kind, namespace, name = manifest_key(manifest)
        cluster.kube.delete(api_version, kind, namespace or None, name)


def test_up_creates_every_child_as_the_offline_plan_says(
    example: ClusterExample, cluster: TestCluster
) -> None:
    example.stack.up()
    assert mismatches(cluster.kube, example.manifests) == {}


def test_preview_and_refresh_right_after_find_nothing_to_change(example: ClusterExample) -> None:
    example.stack.ensure_up()
    example.stack.pulumi("preview", "--expect-no-changes")
    # The refresh reads every live object back: nothing differs from what `up` recorded.
    example.stack.pulumi("refresh", "--yes", "--expect-no-changes")


def test_status_reports_what_the_awaited_children_report(example: ClusterExample) -> None:
    """The status writer made every InferenceService Ready and every download complete; where
    Pulumi waited for an InferenceService (`pulumi.com/waitFor`), `up` read it back Ready, so the
    status says so. One it did not wait for (scale-to-zero) keeps the planned condition until a
    refresh reads it: nothing is assumed."""
    example.stack.ensure_up()
    awaited = {
        urn_name(r["parentUrn"]): "pulumi.com/waitFor" in (r["inputs"]["metadata"].get("annotations") or {})
        for r in example.plan["resources"]
        if r["type"] == "kubernetes:serving.kserve.io/v1beta1:InferenceService"
    }
    services = [r for r in example.stack.state_resources() if r["type"] == "aim:index:AIMService"]
    assert services and len(services) == len(awaited)
    for service in services:
        conditions = {c["type"]: c for c in service["outputs"]["status"]["conditions"]}
        isvc = conditions["InferenceServiceReady"]
        expected = (
            ("True", "RuntimeReady") if awaited[urn_name(service["urn"])] else ("False", "CreatingRuntime")
        )
        assert (isvc["status"], isvc["reason"]) == expected, service["urn"]
        for kind in ("ProfileCacheReady", "CacheReady"):
            if kind in conditions:
                assert (conditions[kind]["status"], conditions[kind]["reason"]) == ("True", "CacheReady")


def test_destroy_removes_everything_but_the_shared_caches(
    example: ClusterExample, cluster: TestCluster
) -> None:
    example.stack.ensure_up()
    types = {r["urn"]: r["type"] for r in example.plan["resources"]}
    retained = {
        manifest_key(r["inputs"])
        for r in example.plan["resources"]
        if types.get(r.get("parentUrn")) == "aim:index:AIMSharedCache"
        and r["type"] in ("kubernetes:core/v1:PersistentVolumeClaim", "kubernetes:batch/v1:Job")
    }
    example.stack.destroy()
    left = {manifest_key(m) for m in example.manifests if live_of(cluster.kube, m) is not None}
    assert left == retained
