"""The install story: what the package declares, what an optional part says when missing, and that a
type checker sees the installed package."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import tomllib
from importlib.metadata import distribution
from pathlib import Path

import pytest

from aim_pulumi.cli.__main__ import main
from aim_pulumi.resolve.children.source_size import source_size_bytes
from aim_pulumi.resolve.errors import AIMResolutionError

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PROJECT = PYPROJECT["project"]

# Top-level module -> the distribution that provides it.
PROVIDERS = {
    "yaml": "pyyaml",
    "google": "protobuf",
    "grpc": "grpcio",
    "celpy": "cel-python",
    "jsonpath_ng": "jsonpath-ng",
    "ruamel": "ruamel.yaml",
    "botocore": "boto3",
    "pydantic_core": "pydantic",
    "pulumi_kubernetes": "pulumi-kubernetes",
}


def _name(requirement: str) -> str:
    for stop in "<>=[; ":
        requirement = requirement.split(stop, 1)[0]
    return requirement.strip().lower()


def _imported_modules() -> set[str]:
    """Top-level modules the package imports at run time (not only for type checking)."""
    found: set[str] = set()
    for path in (ROOT / "aim_pulumi").rglob("*.py"):
        tree = ast.parse(path.read_text())
        checking = {
            id(node)
            for stmt in ast.walk(tree)
            if isinstance(stmt, ast.If) and "TYPE_CHECKING" in ast.unparse(stmt.test)
            for node in ast.walk(stmt)
        }
        for node in ast.walk(tree):
            if id(node) in checking:
                continue
            if isinstance(node, ast.Import):
                found.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module.split(".")[0])
    return found - set(sys.stdlib_module_names) - {"aim_pulumi"}


def test_every_imported_distribution_is_declared_once() -> None:
    required = [_name(r) for r in PROJECT["dependencies"]]
    extras = {name: [_name(r) for r in reqs] for name, reqs in PROJECT["optional-dependencies"].items()}
    assert len(required) == len(set(required))
    for reqs in extras.values():
        assert len(reqs) == len(set(reqs))
    declared = set(required) | set(extras["s3"]) | set(extras["migrate"]) | set(extras["policy"])
    for module in _imported_modules():
        assert PROVIDERS.get(module, module.replace("_", "-")) in declared, module
    assert {"dill", "protobuf"} <= set(required)


def test_the_main_job_installs_no_test_tool_and_no_optional_part() -> None:
    required = {_name(r) for r in PROJECT["dependencies"]}
    assert not required & {
        "pytest", "mypy", "ruff", "moto", "hypothesis", "boto3", "ruamel.yaml", "pulumi-policy"
    }  # fmt: skip
    assert _name(PROJECT["optional-dependencies"]["test"][0]) == "aim-pulumi"  # the tests get every extra
    extras = set(PROJECT["optional-dependencies"]) - {"test"}
    named = PROJECT["optional-dependencies"]["test"][0].partition("[")[2].rstrip("]").split(",")
    assert set(named) == extras


def test_migrate_names_its_extra_when_ruamel_is_missing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "ruamel", None)
    monkeypatch.setitem(sys.modules, "ruamel.yaml", None)
    (tmp_path / "a.yaml").write_text("apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n")
    assert main(["migrate", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "aim-pulumi migrate: error: needs ruamel.yaml: pip install 'aim-pulumi[migrate]'\n"


def test_policy_pack_names_its_extra_when_pulumi_policy_is_missing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "pulumi_policy", None)
    monkeypatch.delitem(sys.modules, "aim_pulumi.policy.offline", raising=False)
    monkeypatch.delitem(sys.modules, "aim_pulumi.policy.pack", raising=False)
    assert main(["plan", str(ROOT / "examples" / "quickstart"), "--policy-pack", str(ROOT / "policy")]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert (
        captured.err
        == "aim-pulumi plan: error: --policy-pack needs pulumi-policy: pip install 'aim-pulumi[policy]'\n"
    )


def test_s3_sizing_names_its_extra_when_boto3_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "botocore", None)
    monkeypatch.setitem(sys.modules, "botocore.exceptions", None)
    with pytest.raises(AIMResolutionError) as caught:
        source_size_bytes({"sourceUri": "s3://bucket/models/x"}, s3_settings={}, download_filter=None)
    assert caught.value.reason == "CacheSizeUnknown"
    assert "pip install 'aim-pulumi[s3]'" in str(caught.value)
    # A declared size needs no listing, so no boto3 either.
    assert (
        source_size_bytes({"sourceUri": "s3://b/x", "size": "1Gi"}, s3_settings={}, download_filter=None)
        == 2**30
    )


def test_an_editable_install_is_a_path_entry_type_checkers_follow() -> None:
    dist = distribution("aim-pulumi")
    direct = dist.read_text("direct_url.json")
    editable = bool(direct) and json.loads(direct).get("dir_info", {}).get("editable", False)
    if editable:
        pth = [f for f in dist.files or [] if str(f).endswith(".pth")]
        assert pth, "an editable install adds a .pth file"
        lines = [line for f in pth for line in Path(str(f.locate())).read_text().splitlines() if line.strip()]
        # A plain directory (what mypy reads), not an import hook (what it cannot follow).
        assert lines == [str(ROOT)]
    else:
        import aim_pulumi

        assert Path(aim_pulumi.__file__).is_relative_to(Path(str(dist.locate_file(""))))


def test_mypy_type_checks_a_user_program_against_the_installed_package(tmp_path: Path) -> None:
    program = tmp_path / "program.py"
    program.write_text(
        "from aim_pulumi.resolve.children.quantity import parse_quantity\n\n"
        "size: str = parse_quantity('1Gi')\n"
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--cache-dir",
            str(tmp_path / "cache"),
            "--no-error-summary",
            program.name,
        ],
        cwd=tmp_path,  # outside the checkout: only the installed package can be found
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout.strip().splitlines() == [
        'program.py:3: error: Incompatible types in assignment (expression has type "Decimal", variable has '
        'type "str")  [assignment]'
    ]
