"""`aim-pulumi discover` and the lock it writes, end to end against a real registry.

Each test pushes its own AIM images, keeps its program in a temporary directory (AIM YAML, or a
Pulumi Python program), runs the commands in-process as a user would, and reads what they wrote.
"""

from __future__ import annotations

import io
import json
import os
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from fault_proxy import FaultProxy, Rule
from oci import Image, Pusher, aim_profile, config_blob, layer, profile
from registry_server import RegistryServer

from aim_pulumi.cli.__main__ import main
from aim_pulumi.discovery.lock import read_lock

pytestmark = pytest.mark.registry

AIM_ID = "Qwen/Qwen3-0.6B"
MARKER = "aim.eai.amd.com/reconciler-pipeline"


def aim_image(max_len: int = 8192, *, extra: str | None = None) -> Image:
    files = [
        profile(
            f"{AIM_ID}/vllm-mi300x-fp8-tp1-latency.yaml",
            aim_profile(primary=True, engine_args={"max-model-len": max_len}),
        ),
        profile(
            f"{AIM_ID}/vllm-mi300x-fp16-tp1-throughput.yaml",
            aim_profile(precision="fp16", metric="throughput"),
        ),
        profile("general/vllm-cpu.yaml", aim_profile(None, None, gpu="", count=0)),
    ]
    if extra:
        files.append(profile(f"{AIM_ID}/{extra}.yaml", aim_profile(precision="bf16")))
    return Image(
        [layer(files, "zstd")], config_blob({"AIM_ID": AIM_ID, "AIM_BASE_IMAGE_REF": "aim-base:0.8"})
    )


def yaml_program(directory: Path, image: str, *, extra: str = "") -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "objects.yaml").write_text(
        textwrap.dedent(
            f"""\
            apiVersion: aim.eai.amd.com/v1alpha2
            kind: AIMClusterModel
            metadata: {{name: qwen}}
            spec: {{image: "{image}"}}
            ---
            apiVersion: aim.eai.amd.com/v1alpha2
            kind: AIMService
            metadata: {{name: chat, namespace: ml, annotations: {{{MARKER}: profile}}}}
            spec: {{model: {{name: qwen}}}}
            """
        )
        + extra
    )
    return directory


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    cache = tmp_path / "cache"
    monkeypatch.setenv("AIM_PULUMI_CACHE_DIR", str(cache))
    monkeypatch.setenv("DOCKER_CONFIG", str(tmp_path / "no-docker-config"))
    yield cache


def test_discover_writes_a_lock_that_plans_with_the_registry_stopped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server = RegistryServer(tmp_path / "own-registry").start()
    try:
        Pusher(server.base).image("aim/qwen", "0.8.5", aim_image())
        image = f"{server.host}/aim/qwen:0.8.5"
        program = yaml_program(tmp_path / "program", image)
        code, out, err = cli(capsys, "discover", str(program))
        assert code == 0, err
        assert f"{image}: sha256:" in out and "3 profile files" in out
        lock = read_lock(program / "aim.lock.yaml")
        assert [p.path for p in lock.images[image].profiles] == [
            f"{AIM_ID}/vllm-mi300x-fp16-tp1-throughput.yaml",
            f"{AIM_ID}/vllm-mi300x-fp8-tp1-latency.yaml",
            "general/vllm-cpu.yaml",
        ]
        first = (program / "aim.lock.yaml").read_bytes()
        code, out, _ = cli(capsys, "discover", str(program))
        assert code == 0 and "from the cache by digest (0 bytes read)" in out and "unchanged:" in out
        assert (program / "aim.lock.yaml").read_bytes() == first
    finally:
        server.stop()
    code, out, err = cli(capsys, "plan", str(program))
    assert code == 0, err
    assert "qwen-vllm-mi300x-fp8-tp1-latency" in out and "DiscoveredLive" not in out + err
    code, out, err = cli(capsys, "explain", str(program), "--service", "ml/chat")
    assert code == 0, err
    assert f"profile discovered from image {image} at sha256:" in out
    assert f"file {AIM_ID}/vllm-mi300x-fp8-tp1-latency.yaml (layer sha256:" in out
    # Locked discovery refuses an image the lock lacks, naming it and `discover`.
    other = yaml_program(tmp_path / "other", f"{server.host}/aim/absent:1")
    code, _, err = cli(capsys, "plan", str(other), "--config", "aim:discovery=locked")
    assert code == 1
    assert f"image {server.host}/aim/absent:1: NotInLock" in err and "aim-pulumi discover" in err


def test_the_same_registry_content_writes_the_same_bytes(
    pusher: Pusher,
    registry: RegistryServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    own_cache: Path,
) -> None:
    pusher.image("aim/stable", "1", aim_image())
    program = yaml_program(tmp_path / "program", f"{registry.host}/aim/stable:1")
    assert cli(capsys, "discover", str(program))[0] == 0
    first = (program / "aim.lock.yaml").read_text()
    assert "Time" not in first and "time" not in first.lower().replace("runtime", "")
    (program / "aim.lock.yaml").unlink()
    import shutil

    shutil.rmtree(own_cache)
    assert cli(capsys, "discover", str(program))[0] == 0
    assert (program / "aim.lock.yaml").read_text() == first


def test_a_program_without_a_lock_reads_live_and_says_so(
    pusher: Pusher, registry: RegistryServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pusher.image("aim/live", "1", aim_image())
    program = yaml_program(tmp_path / "program", f"{registry.host}/aim/live:1")
    code, out, err = cli(capsys, "plan", str(program))
    assert code == 0, err
    assert "DiscoveredLive" in out + err and "run `aim-pulumi discover` to pin it" in out + err
    assert not (program / "aim.lock.yaml").exists()


def test_a_moved_tag_is_stale_until_discover_rewrites_it_and_plan_diff_shows_what_changes(
    pusher: Pusher, registry: RegistryServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pusher.image("aim/moving", "0.8", aim_image())
    image = f"{registry.host}/aim/moving:0.8"
    program = yaml_program(tmp_path / "program", image)
    assert cli(capsys, "discover", str(program))[0] == 0
    assert cli(capsys, "discover", str(program), "--check")[0] == 0
    before = tmp_path / "before.json"
    assert cli(capsys, "plan", str(program), "--json", str(before))[0] == 0
    pusher.image("aim/moving", "0.8", aim_image(16384))  # the tag moves: another max-model-len
    old_lock = (program / "aim.lock.yaml").read_bytes()
    code, _, err = cli(capsys, "discover", str(program), "--check")
    assert code == 1 and f"stale: {image}: moved from sha256:" in err
    assert (program / "aim.lock.yaml").read_bytes() == old_lock
    # Until discover runs, the plan is the locked one.
    assert cli(capsys, "plan", str(program), "--diff", str(before), "--expect-no-changes")[0] == 0
    assert cli(capsys, "discover", str(program))[0] == 0
    code, out, _ = cli(capsys, "plan", str(program), "--diff", str(before))
    assert code == 0 and "ConfigMap" in out and "16384" in out


def test_update_reads_one_image_again_and_keeps_the_others(
    pusher: Pusher, registry: RegistryServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pusher.image("aim/one", "1", aim_image())
    pusher.image("aim/two", "1", aim_image())
    one, two = f"{registry.host}/aim/one:1", f"{registry.host}/aim/two:1"
    second_model = textwrap.dedent(
        f"""\
        ---
        apiVersion: aim.eai.amd.com/v1alpha2
        kind: AIMClusterModel
        metadata: {{name: two}}
        spec: {{image: "{two}"}}
        """
    )
    program = yaml_program(tmp_path / "program", one, extra=second_model)
    assert cli(capsys, "discover", str(program))[0] == 0
    locked = read_lock(program / "aim.lock.yaml")
    pusher.image("aim/one", "1", aim_image(4096))
    pusher.image("aim/two", "1", aim_image(2048))
    code, _, err = cli(capsys, "discover", str(program), "--update", two)
    assert code == 0, err
    updated = read_lock(program / "aim.lock.yaml")
    assert updated.images[one] == locked.images[one]
    assert updated.images[two].digest != locked.images[two].digest
    code, _, err = cli(capsys, "discover", str(program), "--update", "not/named:1")
    assert code == 2 and "not an image or model source the program names" in err


def test_a_failed_discover_leaves_the_old_lock(
    pusher: Pusher, registry: RegistryServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pusher.image("aim/flaky", "1", aim_image())
    with FaultProxy(registry.base) as proxy:
        image = f"{proxy.host}/aim/flaky:1"
        program = yaml_program(tmp_path / "program", image)
        assert cli(capsys, "discover", str(program))[0] == 0
        before = (program / "aim.lock.yaml").read_bytes()
        proxy.add(Rule(r"/manifests/", "status", status=503))
        os.environ["AIM_PULUMI_CACHE_DIR"] = str(tmp_path / "fresh-cache")
        code, _, err = cli(capsys, "discover", str(program))
    assert code == 1
    assert f"image {image}: RegistryUnavailable" in err and "aim.lock.yaml was not changed" in err
    assert (program / "aim.lock.yaml").read_bytes() == before


def test_a_model_source_materialises_models_and_never_drops_one(
    pusher: Pusher, registry: RegistryServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for tag in ("0.8.4", "0.8.5", "latest"):
        pusher.image("src/aim-qwen", tag, aim_image())
    program = tmp_path / "program"
    program.mkdir()
    (program / "source.yaml").write_text(
        textwrap.dedent(
            f"""\
            apiVersion: aim.eai.amd.com/v1alpha1
            kind: AIMClusterModelSource
            metadata: {{name: amd}}
            spec:
              registry: "{registry.host}"
              filters: [{{image: "src/aim-*", versions: [">=0.8.0"]}}]
              maxModels: 5
            ---
            apiVersion: aim.eai.amd.com/v1alpha2
            kind: AIMService
            metadata: {{name: chat, namespace: ml, annotations: {{{MARKER}: profile}}}}
            spec: {{model: {{image: "{registry.host}/src/aim-qwen:0.8.5"}}}}
            """
        )
    )
    code, _, err = cli(capsys, "discover", str(program))
    assert code == 0, err
    lock = read_lock(program / "aim.lock.yaml")
    assert [i.tag for i in lock.sources["amd"].images] == ["0.8.4", "0.8.5"]
    assert sorted(lock.images) == [
        f"{registry.host}/src/aim-qwen:0.8.4",
        f"{registry.host}/src/aim-qwen:0.8.5",
    ]
    plan_json = tmp_path / "plan.json"
    code, _, err = cli(capsys, "plan", str(program), "--json", str(plan_json))
    assert code == 0, err
    outputs = json.loads(plan_json.read_text())
    text = json.dumps(outputs)
    assert '"discoveredModels": 2' in text and '"availableModels": 2' in text
    # The registry drops 0.8.4: the model stays, and the lock keeps it.
    manifest = pusher.pool.request(
        "HEAD",
        f"{registry.base}/v2/src/aim-qwen/manifests/0.8.4",
        headers={"Accept": "application/vnd.oci.image.manifest.v1+json"},
    )
    digest = manifest.headers["Docker-Content-Digest"]
    assert pusher.pool.request("DELETE", f"{registry.base}/v2/src/aim-qwen/manifests/{digest}").status == 202
    code, _, err = cli(capsys, "discover", str(program), "--update", "amd")
    assert code == 0, err
    assert [i.tag for i in read_lock(program / "aim.lock.yaml").sources["amd"].images] == ["0.8.4", "0.8.5"]


def test_a_pulumi_program_finds_its_lock_beside_pulumi_yaml(
    pusher: Pusher, registry: RegistryServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pusher.image("aim/py", "1", aim_image())
    image = f"{registry.host}/aim/py:1"
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    (project / "Pulumi.yaml").write_text("name: py\nruntime: python\nmain: src/\n")
    (project / "src" / "__main__.py").write_text(
        textwrap.dedent(
            f"""\
            from aim_pulumi import AIMClusterModel, AIMService

            AIMClusterModel("qwen", {{"spec": {{"image": "{image}"}}}})
            SELECTOR = {{"selector": {{"modelRef": {{"name": "qwen"}}}}}}
            AIMService("chat", {{"namespace": "ml", "spec": {{"profile": SELECTOR}}}})
            """
        )
    )
    code, _, err = cli(capsys, "discover", str(project))
    assert code == 0, err
    assert (project / "aim.lock.yaml").is_file() and not (project / "src" / "aim.lock.yaml").exists()
    code, _, err = cli(capsys, "plan", str(project), "--config", "aim:discovery=locked")
    assert code == 0, err


def test_an_unknown_image_fails_discover_and_degrades_a_live_plan(
    registry: RegistryServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    image = f"{registry.host}/aim/never-pushed:9.9"
    program = yaml_program(tmp_path / "program", image)
    code, _, err = cli(capsys, "discover", str(program))
    assert code == 1 and f"image {image}: ImageNotFound: {registry.host} has no 9.9 of repository" in err
    assert not (program / "aim.lock.yaml").exists()
    code, _, err = cli(capsys, "plan", str(program))
    # The service that needed the model's profiles fails, saying why there are none.
    assert code == 1 and "ProfileNotFound" in err
    assert f"its image {image} could not be discovered (ImageNotFound: {registry.host} has no 9.9" in err
    assert "run `aim-pulumi discover` once the registry answers" in err


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_long_reads_show_progress_on_a_terminal_only(
    pusher: Pusher, registry: RegistryServer, tmp_path: Path
) -> None:
    from aim_pulumi.cli.__main__ import build_parser
    from aim_pulumi.cli.commands.discover import run

    pusher.image("aim/progress", "1", aim_image())
    program = yaml_program(tmp_path / "program", f"{registry.host}/aim/progress:1")
    terminal = _Terminal()
    assert (
        run(build_parser().parse_args(["discover", str(program)]), stdout=io.StringIO(), stderr=terminal) == 0
    )
    assert f"discovering {registry.host}/aim/progress:1" in terminal.getvalue()
    assert terminal.getvalue().endswith("\r\x1b[K")  # erased once done
    (program / "aim.lock.yaml").unlink()
    piped = io.StringIO()
    os.environ["AIM_PULUMI_CACHE_DIR"] = str(tmp_path / "other-cache")
    assert run(build_parser().parse_args(["discover", str(program)]), stdout=io.StringIO(), stderr=piped) == 0
    assert piped.getvalue() == ""
