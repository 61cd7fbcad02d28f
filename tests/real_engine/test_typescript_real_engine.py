"""The TypeScript quickstart under the real engine, through the component provider.

`pulumi install` generates the `@pulumi/aim` SDK from this checkout's provider (the `aim` package of
Pulumi.yaml) with the Node.js language host's code generator and links it into package.json; `npm ci`
installs the committed lock file (`@pulumi/pulumi`, `@pulumi/kubernetes` and the SDK, which compiles
itself); `tsc` type-checks the program against the SDK; the CLI runs it through the Node.js language
host and `@pulumi/pulumi`'s own runner. What it renders must be what the Python quickstart plans
offline. The interpreter that has aim_pulumi is off PATH: only the provider's virtualenv has it.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import quickstart_lifecycle
from harness import (
    REPO,
    RealStack,
    component_provider_program,
    toolchain_dir,
    twin_offline_plan,
)

from aim_pulumi._version import __version__

pytestmark = [
    pytest.mark.real_engine,
    pytest.mark.skipif(
        shutil.which("node") is None or shutil.which("npm") is None,
        reason="Node.js and npm run TypeScript programs and are not on PATH",
    ),
]

PROGRAM = REPO / "examples" / "quickstart-ts"
PYTHON_TWIN = REPO / "examples" / "quickstart"
# What a checkout may hold after trying the example by hand: never part of the program under test.
_BUILT = shutil.ignore_patterns("node_modules", "sdks", "bin", "Pulumi.*.yaml", "rendered")

# A misspelt spec key and a value outside a closed set, each in a program of its own.
_MISSPELT = """import * as aim from "@pulumi/aim";
new aim.AIMModel("m", { namespace: "ml-team", spec: { modelID: "Qwen/Qwen3-8B" } });
"""
_WRONG_ENUM = """import * as aim from "@pulumi/aim";
new aim.AIMService("s", {
    namespace: "ml-team",
    spec: { model: { name: "m" }, caching: { mode: "Sharde" } },
});
"""


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RealStack]:
    workdir = tmp_path_factory.mktemp("quickstart-ts")
    clean = workdir / "example"
    shutil.copytree(PROGRAM, clean, ignore=_BUILT)
    stack = RealStack(
        component_provider_program(clean, workdir), workdir, toolchain_dir(), python_on_path=False
    )
    # As a user after cloning: the SDK is generated from the provider Pulumi.yaml names and linked into
    # package.json; then the lock file is installed as it is (the npm cache lives in the user's home).
    stack.pulumi("install", "--no-dependencies")
    stack.run("npm", "ci", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error")
    yield stack


@pytest.fixture(scope="module")
def python_plan(
    stack: RealStack, tmp_path_factory: pytest.TempPathFactory
) -> tuple[dict[str, Any], dict[tuple[str, str, str, str], dict[str, Any]]]:
    """The offline plan of the Python quickstart, with the TypeScript stack's own stack config."""
    return twin_offline_plan(stack, PYTHON_TWIN, tmp_path_factory.mktemp("quickstart-offline"))


def test_install_generates_the_sdk_from_the_provider_and_the_lock_file_holds(stack: RealStack) -> None:
    sdk = json.loads((stack.dir / "sdks" / "aim" / "package.json").read_text())
    lock = json.loads((stack.dir / "package-lock.json").read_text())

    # The SDK carries the package's version (aim_pulumi/_version.py, served in the provider's schema).
    assert (sdk["name"], sdk["version"], sdk["pulumi"]) == (
        "@pulumi/aim",
        __version__,
        {"resource": True, "name": "aim", "version": __version__},
    )
    # Linking is idempotent on the committed package.json, and `npm ci` kept the committed lock file.
    assert (stack.dir / "package.json").read_text() == (PROGRAM / "package.json").read_text()
    assert lock == json.loads((PROGRAM / "package-lock.json").read_text())
    assert lock["packages"]["node_modules/@pulumi/aim"] == {"resolved": "sdks/aim", "link": True}
    assert lock["packages"]["node_modules/@pulumi/pulumi"]["version"] == "3.270.0"
    assert lock["packages"]["node_modules/@pulumi/kubernetes"]["version"] == "4.24.1"
    # The SDK's postinstall compiled it.
    assert (stack.dir / "node_modules" / "@pulumi" / "aim" / "bin" / "index.js").is_file()


def test_tsc_accepts_the_quickstart_and_rejects_a_misspelt_key_and_a_wrong_enum(stack: RealStack) -> None:
    (stack.dir / "misspelt.ts").write_text(_MISSPELT)
    (stack.dir / "wrong-enum.ts").write_text(_WRONG_ENUM)
    # One compiler run (the example's own options) over the quickstart and the two wrong programs.
    (stack.dir / "tsconfig.check.json").write_text(
        json.dumps({"extends": "./tsconfig.json", "files": ["index.ts", "misspelt.ts", "wrong-enum.ts"]})
    )
    try:
        done = stack.run(
            "npx", "tsc", "--noEmit", "--pretty", "false", "-p", "tsconfig.check.json", check=False
        )
    finally:
        for name in ("misspelt.ts", "wrong-enum.ts", "tsconfig.check.json"):
            (stack.dir / name).unlink()
    errors = re.findall(r"^(\S+)\(\d+,\d+\): error (TS\d+): (.*)$", done.stdout, re.MULTILINE)

    assert done.returncode != 0
    # TS2561: an unknown property of an object literal with a near miss; TS2820: a value outside the
    # string literal union the schema's enum generates, with a near miss.
    assert {(file, code) for file, code, _ in errors} == {
        ("misspelt.ts", "TS2561"),
        ("wrong-enum.ts", "TS2820"),
    }
    [misspelt] = [message for file, _, message in errors if file == "misspelt.ts"]
    [wrong_enum] = [message for file, _, message in errors if file == "wrong-enum.ts"]
    assert "'modelID' does not exist in type 'AIMModelSpecArgs'" in misspelt
    assert "'modelId'" in misspelt
    assert '"Sharde"' in wrong_enum and "ServiceCachingMode" in wrong_enum and '"Shared"' in wrong_enum


# The lifecycle every language shares (quickstart_lifecycle.py), on this language's stack, in order.
test_preview_plans_the_python_quickstarts_resources = (
    quickstart_lifecycle.test_preview_plans_the_python_quickstarts_resources
)
test_up_renders_what_the_python_quickstart_plans_offline = (
    quickstart_lifecycle.test_up_renders_what_the_python_quickstart_plans_offline
)
test_stack_outputs_and_the_sticky_binding = quickstart_lifecycle.test_stack_outputs_and_the_sticky_binding
test_second_preview_expects_no_changes = quickstart_lifecycle.test_second_preview_expects_no_changes
test_destroy_keeps_only_what_the_offline_plan_retains = (
    quickstart_lifecycle.test_destroy_keeps_only_what_the_offline_plan_retains
)


def test_a_program_without_its_sdk_installed_fails_naming_the_fix(tmp_path: Path) -> None:
    """The host's own error when `@pulumi/pulumi` is not installed: no runner to start."""
    clean = tmp_path / "example"
    shutil.copytree(PROGRAM, clean, ignore=_BUILT)
    bare = RealStack(
        component_provider_program(clean, tmp_path), tmp_path, toolchain_dir(), python_on_path=False
    )

    done = bare.pulumi("preview", check=False)

    assert done.returncode != 0
    assert "the Pulumi SDK has not been installed" in done.stdout + done.stderr
    assert "node_modules/@pulumi/pulumi/cmd/run" in done.stdout + done.stderr
