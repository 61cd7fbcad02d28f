"""A type checker catches what a misspelt or mistyped `spec` would otherwise fail on at plan time.

The programs are checked as a user's would be: `mypy --strict` in a subprocess, in a directory
of their own, finding the package through MYPYPATH (so an editable install's import hook, which
mypy cannot follow, does not matter). One run checks every program; each test reads its file's
errors.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p for p in (ROOT / "examples").glob("*/__main__.py"))

# Each mistake as a user makes it in a nested object kept in a variable, typed with its ArgsDict:
# mypy names the key and the type.
BAD = {
    "misspelt_key": (
        """
        import aim_pulumi as aim

        args: aim.AIMServiceArgsDict = {"namespace": "x", "spec": {"model": {"name": "m"}, "replicaz": 2}}
        """,
        r'Extra key "replicaz" for TypedDict "AIMServiceSpec"',
    ),
    "wrong_value_type": (
        """
        import aim_pulumi as aim

        args: aim.AIMServiceArgsDict = {"namespace": "x", "spec": {"model": {"name": "m"}, "replicas": "two"}}
        """,
        r'TypedDict item "replicas" has type "int \|',
    ),
    "misspelt_nested_key": (
        """
        from aim_pulumi import inputs

        spec: inputs.AIMServiceSpecArgsDict = {"routing": {"enabled": True, "gatewayref": {"name": "g"}}}
        """,
        r'Extra key "gatewayref" for TypedDict "Routing"',
    ),
    "value_outside_a_closed_set": (
        """
        import aim_pulumi as aim

        args: aim.AIMProfileArgsDict = {"spec": {"aimId": "a", "image": "i", "precision": "fp9"}}
        """,
        r'TypedDict item "precision" has type "Literal\[\'fp4\', \'fp8\'',
    ),
    "missing_required_nested_key": (
        """
        from aim_pulumi import inputs

        spec: inputs.AIMServiceSpecArgsDict = {"env": [{"value": "1"}]}
        """,
        r'Missing key "name" for TypedDict "EnvVar"',
    ),
    "misspelt_model_key": (
        """
        import aim_pulumi as aim

        args: aim.AIMModelArgsDict = {"spec": {"modelID": "Qwen/Qwen3-8B"}}
        """,
        r'Extra key "modelID" for TypedDict "AIMModelSpec"',
    ),
    # The args object and the keyword form name a misspelt or mistyped argument.
    "misspelt_args_property": (
        """
        import aim_pulumi as aim

        aim.AIMService("s", aim.AIMServiceArgs(namespace="x", skip_awai=True))
        """,
        r'Unexpected keyword argument "skip_awai" for "AIMServiceArgs"; did you mean "skip_await"\?',
    ),
    "wrong_args_property_type": (
        """
        import aim_pulumi as aim

        aim.AIMModel("m", aim.AIMModelArgs(namespace="x", labels={"team": 1}))
        """,
        r'Dict entry 0 has incompatible type "str": "int"; expected "str": "str"',
    ),
    "nested_key_in_an_args_object": (
        """
        import aim_pulumi as aim

        aim.AIMService("s", aim.AIMServiceArgs(spec={"model": {"name": "m"}, "replicaz": 2}))
        """,
        r'Argument "spec" to "AIMServiceArgs" has incompatible type .*; expected "AIMServiceSpec \| None"',
    ),
    "misspelt_keyword": (
        """
        import aim_pulumi as aim

        aim.AIMService("s", namespac="x", spec={"model": {"name": "m"}})
        """,
        r'Unexpected keyword argument "namespac" for overloaded function "AIMService"; did you mean',
    ),
}

# The same mistakes written inline in a call: an overloaded constructor cannot tell which form was
# meant, so mypy rejects the call on its line without naming the key.
BAD_INLINE = {
    "misspelt_key": 'aim.AIMService("s", {"spec": {"model": {"name": "m"}, "replicaz": 1}})',
    "wrong_value_type": 'aim.AIMService("s", {"spec": {"model": {"name": "m"}, "replicas": "two"}})',
    "misspelt_nested_key": 'aim.AIMService("s", spec={"routing": {"gatewayref": {"name": "g"}}})',
    "wrong_keyword_type": 'aim.AIMService("s", namespace="x", skip_await="yes")',
    "args_and_keywords": 'aim.AIMService("s", {"namespace": "x"}, skip_await=True)',
    "closed_set": 'aim.AIMStack("st", path="aim/", gateway_provider="envoy")',
}

GOOD_EXTRA = {
    # A secret Output is accepted where a value only flows into a child.
    "secret_env_value": """
        import pulumi

        import aim_pulumi as aim

        token = pulumi.Config().require_secret("hfToken")
        aim.AIMService(
            "s",
            {"spec": {"model": {"name": "m"}, "env": [{"name": "HF_TOKEN", "value": token}]}},
        )
        """,
    "typed_nested_object": """
        from aim_pulumi import AIMService, inputs

        gateway: inputs.GatewayRefArgsDict = {"name": "g", "namespace": "gateways"}
        AIMService("s", {"spec": {"routing": {"enabled": True, "gatewayRef": gateway}}})
        """,
    "args_objects": """
        import pulumi

        import aim_pulumi as aim

        model = aim.AIMModel(
            "m", aim.AIMModelArgs(namespace="x", spec={"modelId": "org/m", "accelerator": {"count": 1}})
        )
        service = aim.AIMService(
            "s",
            aim.AIMServiceArgs(namespace="x", spec={"model": {"name": "m"}}, skip_await=True),
            pulumi.ResourceOptions(depends_on=[model]),
        )
        aim.AIMStack("st", aim.AIMStackArgs(path="aim/", gateway_provider="kgateway"))
        """,
    "keywords": """
        import pulumi

        import aim_pulumi as aim

        ns = pulumi.Output.from_input("x")
        aim.AIMClusterRuntimeConfig("default", spec={"routing": {"enabled": True}})
        aim.AIMRuntimeConfig("rc", namespace=ns, spec={"env": [{"name": "A", "value": "1"}]})
        aim.AIMClusterProfile("p", spec={"aimId": "a", "image": "i", "precision": "fp8"})
        aim.AIMProfile("q", namespace="x", labels={"team": "a"}, spec={"aimId": "a", "image": "i"})
        aim.AIMClusterModel("cm", spec={"image": "registry/model:1"})
        aim.AIMService(
            "s",
            name="chat",
            namespace=ns,
            spec={"model": {"name": "m"}, "replicas": 2},
            gateway_provider="envoyGateway",
            wait_for_cache=False,
            opts=pulumi.ResourceOptions(protect=False),
        )
        aim.AIMStack("st", path="aim/", skip_await=True)
        """,
    "typed_outputs": """
        import pulumi

        import aim_pulumi as aim

        chat = aim.AIMService("s", namespace="x", spec={"model": {"name": "m"}})
        status: pulumi.Output[aim.AIMServiceStatus] = chat.status
        pulumi.export("pipeline", status.apply(lambda s: s.get("reconcilerPipeline")))
        pulumi.export("profile", chat.resolved_profile.apply(lambda ref: ref.get("name")))
        pulumi.export("url", chat.endpoint.apply(lambda e: e or ""))
        name: pulumi.Output[str] = chat.inference_service_name
        path: pulumi.Output[str | None] = chat.route_path
        model = aim.AIMModel("m", namespace="x", spec={"modelId": "org/m"})
        pulumi.export("generated", model.status.apply(lambda s: s.get("generatedProfiles", [])))
        """,
}


def _docs_python() -> dict[str, str]:
    """Every Python block of the README and of docs/, by a file name made of its page and line."""
    sys.path.insert(0, str(ROOT / "tests" / "docs"))
    from docblocks import blocks

    programs = {
        "docs_" + re.sub(r"\W", "_", f"{b.page.with_suffix('')}_{b.line}"): b.source
        for b in blocks()
        if b.language == "python"
    }
    assert any(name.startswith("docs_README_") for name in programs), "the README shows a Python program"
    return programs


@pytest.fixture(scope="module")
def mypy_errors(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    workdir = tmp_path_factory.mktemp("programs")
    files: dict[str, Path] = {}
    for example in EXAMPLES:
        files[f"example_{example.parent.name}"] = example
    for name, (source, _) in BAD.items():
        files[f"bad_{name}"] = workdir / f"bad_{name}.py"
        files[f"bad_{name}"].write_text(textwrap.dedent(source))
    for name, call in BAD_INLINE.items():
        files[f"inline_{name}"] = workdir / f"inline_{name}.py"
        files[f"inline_{name}"].write_text(f"import aim_pulumi as aim\n\n{call}\n")
    for name, source in GOOD_EXTRA.items():
        files[f"good_{name}"] = workdir / f"good_{name}.py"
        files[f"good_{name}"].write_text(textwrap.dedent(source))
    for name, source in _docs_python().items():
        (workdir / f"{name}.py").write_text(source)
        files[name] = workdir / f"{name}.py"
    copies = []
    for key, path in files.items():
        copy = workdir / f"{key.replace('-', '_')}.py"
        if copy != path:
            copy.write_text(path.read_text())
        copies.append(copy)
    env = {**os.environ, "MYPYPATH": str(ROOT)}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--follow-imports=silent",
            "--config-file",
            os.devnull,
            "--cache-dir",
            str(workdir / ".mypy_cache"),
            "--no-error-summary",
            *[str(c) for c in copies],
        ],
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode in (0, 1), result.stderr
    errors: dict[str, list[str]] = {key.replace("-", "_"): [] for key in files}
    for line in result.stdout.splitlines():
        head = Path(line.split(":", 1)[0]).stem
        if ": error:" in line:
            assert head in errors, line
            errors[head].append(line)
    return errors


@pytest.mark.parametrize("example", [p.parent.name for p in EXAMPLES])
def test_every_example_program_type_checks(mypy_errors: dict[str, list[str]], example: str) -> None:
    assert mypy_errors[f"example_{example.replace('-', '_')}"] == []


@pytest.mark.parametrize("name", sorted(_docs_python()))
def test_every_program_of_the_readme_and_docs_type_checks(
    mypy_errors: dict[str, list[str]], name: str
) -> None:
    assert mypy_errors[name] == []


@pytest.mark.parametrize("name", sorted(GOOD_EXTRA))
def test_supported_programs_type_check(mypy_errors: dict[str, list[str]], name: str) -> None:
    assert mypy_errors[f"good_{name}"] == []


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_bad_spec_is_rejected_naming_the_field(mypy_errors: dict[str, list[str]], name: str) -> None:
    errors = mypy_errors[f"bad_{name}"]
    assert errors, "mypy accepted the program"
    assert all(re.match(rf"bad_{name}\.py:4: error: ", e) for e in errors), errors
    assert re.search(BAD[name][1], errors[0]), errors[0]


@pytest.mark.parametrize("name", sorted(BAD_INLINE))
def test_a_bad_inline_call_is_rejected_on_its_line(mypy_errors: dict[str, list[str]], name: str) -> None:
    errors = mypy_errors[f"inline_{name}"]
    assert errors, f"mypy accepted {BAD_INLINE[name]}"
    assert all(re.match(rf"inline_{name}\.py:3: error: ", e) for e in errors), errors
