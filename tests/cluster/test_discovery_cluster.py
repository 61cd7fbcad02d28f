"""A program with no hand-written profile, deployed to the test cluster from what discovery read.

The directory holds only AIM YAML: an AIMClusterModel by image and an AIMService by model. The
image is an AIM-shaped test image pushed to a real registry on 127.0.0.1; `aim-pulumi discover`
reads it into `aim.lock.yaml`, and from then on nothing touches the registry: `aim-pulumi plan` runs
with the registry stopped, and `pulumi up` and `pulumi preview --expect-no-changes` read the lock.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from cluster import TestCluster
from harness import RealStack, toolchain_dir
from status_writer import StatusWriter

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "discovery"))

from oci import Image, Pusher, aim_profile, config_blob, layer, profile
from registry_server import RegistryServer

pytestmark = pytest.mark.cluster

NAMESPACE = "discovered"
AIM_ID = "Qwen/Qwen3-0.6B"


def _program(directory: Path, image: str) -> Path:
    (directory / "manifests").mkdir(parents=True)
    (directory / "Pulumi.yaml").write_text("name: discovered\nruntime: python\n")
    (directory / "__main__.py").write_text(
        textwrap.dedent(
            """\
            from pathlib import Path

            import pulumi

            from aim_pulumi import AIMStack

            stack = AIMStack("aim", {"path": str(Path(__file__).parent / "manifests")})
            pulumi.export("services", stack.services)
            """
        )
    )
    (directory / "manifests" / "objects.yaml").write_text(
        textwrap.dedent(
            f"""\
            apiVersion: aim.eai.amd.com/v1alpha2
            kind: AIMClusterModel
            metadata: {{name: qwen}}
            spec: {{image: "{image}"}}
            ---
            apiVersion: aim.eai.amd.com/v1alpha2
            kind: AIMService
            metadata:
              name: chat
              namespace: {NAMESPACE}
              annotations: {{aim.eai.amd.com/reconciler-pipeline: profile}}
            spec: {{model: {{name: qwen}}}}
            """
        )
    )
    return directory


def _cli(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(Path(sys.executable).parent / "aim-pulumi"), *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, f"aim-pulumi {' '.join(args)}: {done.stdout[-3000:]}{done.stderr[-3000:]}"
    return done


def test_a_model_by_image_and_a_service_by_model_deploy_from_the_lock(
    tmp_path: Path, cluster: TestCluster
) -> None:
    env = {**os.environ, "AIM_PULUMI_CACHE_DIR": str(tmp_path / "cache")}
    registry = RegistryServer(tmp_path / "registry").start()
    try:
        image = Image(
            [
                layer(
                    [
                        profile(f"{AIM_ID}/vllm-mi300x-fp8-tp1-latency.yaml", aim_profile(primary=True)),
                        profile(
                            f"{AIM_ID}/vllm-mi300x-fp16-tp1-throughput.yaml",
                            aim_profile(precision="fp16", metric="throughput"),
                        ),
                        profile("general/vllm-cpu.yaml", aim_profile(None, None, gpu="", count=0)),
                    ],
                    "zstd",
                )
            ],
            config_blob({"AIM_ID": AIM_ID, "AIM_BASE_IMAGE_REF": "aim-base:0.8"}),
        )
        Pusher(registry.base).image("aim/qwen", "0.8.5", image)
        reference = f"{registry.host}/aim/qwen:0.8.5"
        program = _program(tmp_path / "source", reference)
        _cli("discover", str(program), cwd=tmp_path, env=env)
        assert (program / "aim.lock.yaml").is_file()
    finally:
        registry.stop()
    planned = _cli("plan", str(program), "--config", "aim:discovery=locked", cwd=tmp_path, env=env)
    assert "qwen-vllm-mi300x-fp8-tp1-latency" in planned.stdout
    stack = RealStack(program, tmp_path / "work", toolchain_dir(), kubeconfig=cluster.kubeconfig)
    stack.config("aim:discovery", "locked")
    cluster.kube.ensure_namespace(NAMESPACE)
    try:
        with StatusWriter(cluster.kube, [NAMESPACE]):
            stack.up()
        services = cluster.kube.list("serving.kserve.io/v1beta1", "InferenceService", NAMESPACE)
        assert len(services) == 1
        # The primary profile of the image runs: its image and its profile id reach the predictor.
        text = str(services[0]["spec"])
        assert reference in text and "vllm-mi300x-fp8-tp1-latency" in text
        stack.pulumi("preview", "--expect-no-changes")
    finally:
        stack.pulumi("destroy", "--yes", "--skip-preview", check=False)
        cluster.kube.delete("v1", "Namespace", None, NAMESPACE)
        shutil.rmtree(tmp_path / "cache", ignore_errors=True)
