"""`aim-pulumi plan --capacity`, `--kubeconfig`, and the cost of a change in `plan --diff`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aim_pulumi.cli.__main__ import main

PROGRAM = """\
import pulumi
from aim_pulumi import AIMProfile, AIMService

config = pulumi.Config()
AIMProfile("p", {"namespace": "team", "spec": {
    "aimId": "qwen/qwen3-32b", "image": "ghcr.io/amd/qwen3:0.8.5", "type": "optimized",
    "acceleratorVendor": "amd", "acceleratorType": "gpu", "acceleratorModel": "MI300X",
    "acceleratorCount": 4,
    "modelSources": [{"modelId": "qwen/qwen3-32b", "sourceUri": "hf://qwen/qwen3-32b", "size": "20Gi"}]}})
AIMService("chat", {"namespace": "team",
    "spec": {"profile": {"name": "p"}, "replicas": config.get_int("replicas") or 1}})
"""
INVENTORY = '[{"vendor": "amd", "type": "gpu", "model": "MI300X", "devices": 8, "nodes": 1}]'


@pytest.fixture
def program(tmp_path: Path) -> Path:
    directory = tmp_path / "program"
    directory.mkdir()
    (directory / "Pulumi.yaml").write_text("name: capacity\nruntime: python\n")
    (directory / "__main__.py").write_text(PROGRAM)
    return directory


def plan(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["plan", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_capacity_table_and_the_cost_offline(capsys: pytest.CaptureFixture[str], program: Path) -> None:
    code, out, _ = plan(
        capsys,
        str(program),
        "--capacity",
        "-c",
        f"aim:inventory={INVENTORY}",
        "-c",
        'aim:gpuHourPrice={"MI300X": 2}',
        "-c",
        "capacity:replicas=3",
    )
    assert code == 0
    section = out.split("Capacity (aim:inventory):\n", 1)[1].split("\n\n")
    assert section[0].splitlines() == [
        "  pool    resource     nodes  allocatable  used by others  min  max  headroom at max",
        "  MI300X  amd.com/gpu    1/1            8               0   12   12               -4",
    ]
    assert section[1].splitlines()[0] == (
        "  AIMService/team/chat: does not fit: no node with 4 free MI300X GPUs (amd.com/gpu): the most free "
        "on one node is 0, 0 free on 1 MI300X node in all"
    )
    assert "Monthly GPU cost (aim:gpuHourPrice, 730 hours a month):" in out
    assert "  total: 17,520.00 at minimum, 17,520.00 at maximum" in out  # 2 x 4 x 3 x 730
    # The program said it as a warning on the service, as `pulumi preview` would.
    assert "warning: CapacityExceeded: does not fit" in out


def test_without_a_source_the_table_says_why(capsys: pytest.CaptureFixture[str], program: Path) -> None:
    code, out, _ = plan(capsys, str(program), "--capacity")
    assert code == 0
    assert "Capacity: not checked: no cluster is read under the SDK's mocks" in out
    assert "Monthly GPU cost" not in out


def test_the_cost_of_a_change(capsys: pytest.CaptureFixture[str], program: Path, tmp_path: Path) -> None:
    price = 'aim:gpuHourPrice={"*": 1}'
    before = tmp_path / "before.json"
    assert plan(capsys, str(program), "-c", price, "--json", str(before))[0] == 0
    assert json.loads(before.read_text())["outputs"]["aimCapacity"]["cost"]["totalMonthlyAtMax"] == 2920.0
    code, out, _ = plan(capsys, str(program), "-c", price, "-c", "capacity:replicas=2", "--diff", str(before))
    assert code == 0
    assert "Cost change:\n  monthly GPU cost at minimum replicas: 2,920.00 -> 5,840.00 (+2,920.00)\n" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--context", "ci"], "--context names a context of a kubeconfig: it needs --kubeconfig FILE"),
        (["--kubeconfig", "/nonexistent/kubeconfig"], "--kubeconfig /nonexistent/kubeconfig: no such file"),
    ],
)
def test_cluster_arguments_are_checked(
    capsys: pytest.CaptureFixture[str], program: Path, argv: list[str], message: str
) -> None:
    code, _, err = plan(capsys, str(program), *argv)
    assert code == 2
    assert message in err


def test_an_unreachable_cluster_is_a_warning_and_the_plan_goes_on(
    capsys: pytest.CaptureFixture[str], program: Path, tmp_path: Path
) -> None:
    kubeconfig = tmp_path / "kubeconfig"
    kubeconfig.write_text(
        "apiVersion: v1\nkind: Config\ncurrent-context: dead\n"
        "clusters: [{name: dead, cluster: {server: 'https://127.0.0.1:9'}}]\n"
        "users: [{name: u, user: {token: t}}]\n"
        "contexts: [{name: dead, context: {cluster: dead, user: u}}]\n"
    )
    code, out, _ = plan(
        capsys, str(program), "--kubeconfig", str(kubeconfig), "-c", "aim:capacityTimeoutSeconds=5"
    )
    assert code == 0
    assert "aim:capacity: capacity not checked against the cluster: cannot reach https://127.0.0.1:9" in out
    code, _, err = plan(
        capsys, str(program), "--kubeconfig", str(kubeconfig), "-c", "aim:capacity=enforce", "-c",
        "aim:capacityTimeoutSeconds=5",
    )  # fmt: skip
    assert code == 1
    assert "CapacityUnknown: the cluster's capacity could not be read, and aim:capacity is enforce" in err
