"""The Go quickstart under the real engine, through the component provider.

`pulumi install` generates the Go SDK from this checkout's provider (the `aim` package of Pulumi.yaml)
with the Go language host's code generator, as a module of its own in sdks/aim, which the committed
go.mod replaces; the program builds and vets against sdk/v3 3.274.0 from the module proxy; the CLI
runs it through the Go language host (`go build`, then the binary with the engine's environment).
What it renders must be what the Python quickstart plans offline. The interpreter that has aim_pulumi
is off PATH: only the provider's virtualenv has it.

Go builds with `-trimpath` here, so the SDK package, compiled in a new directory each run, is found
in the Go build cache (outside the checkout) on every run after the first.
"""

from __future__ import annotations

import os
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

pytestmark = [
    pytest.mark.real_engine,
    pytest.mark.skipif(shutil.which("go") is None, reason="Go builds Go programs and is not on PATH"),
]

PROGRAM = REPO / "examples" / "quickstart-go"
PYTHON_TWIN = REPO / "examples" / "quickstart"
_BUILT = shutil.ignore_patterns("sdks", "rendered", "Pulumi.*.yaml")
_MISSPELT = """package main

import (
\t"example.com/pulumi-aim/sdk/go/aim"
\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
\tpulumi.Run(func(ctx *pulumi.Context) error {
\t\t_, err := aim.NewAIMModel(ctx, "m", &aim.AIMModelArgs{
\t\t\tSpec: &aim.AIMModelSpecArgs{ModelID: pulumi.String("Qwen/Qwen3-8B")},
\t\t})
\t\treturn err
\t})
}
"""


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RealStack]:
    workdir = tmp_path_factory.mktemp("quickstart-go")
    clean = workdir / "example"
    shutil.copytree(PROGRAM, clean, ignore=_BUILT)
    stack = RealStack(
        component_provider_program(clean, workdir), workdir, toolchain_dir(), python_on_path=False
    )
    stack.env["GOFLAGS"] = f"{os.environ.get('GOFLAGS', '')} -trimpath".strip()
    # As a user after cloning: the SDK is generated from the provider Pulumi.yaml names and linked into
    # go.mod (a replace of its module by sdks/aim), then the modules are downloaded (`go mod download`).
    stack.pulumi("install")
    yield stack


@pytest.fixture(scope="module")
def python_plan(
    stack: RealStack, tmp_path_factory: pytest.TempPathFactory
) -> tuple[dict[str, Any], dict[tuple[str, str, str, str], dict[str, Any]]]:
    """The offline plan of the Python quickstart, with the Go stack's own stack config."""
    return twin_offline_plan(stack, PYTHON_TWIN, tmp_path_factory.mktemp("quickstart-offline"))


def test_install_generates_the_sdk_module_the_committed_go_mod_replaces(stack: RealStack) -> None:
    sdk = stack.dir / "sdks" / "aim"

    assert (sdk / "go.mod").read_text().startswith("module example.com/pulumi-aim/sdk/go\n")
    assert (sdk / "aim" / "aimservice.go").is_file()
    # Linking is idempotent on the committed go.mod.
    assert (stack.dir / "go.mod").read_text() == (PROGRAM / "go.mod").read_text()
    assert "replace example.com/pulumi-aim/sdk/go => ./sdks/aim" in (stack.dir / "go.mod").read_text()


def test_gen_sdk_writes_the_same_go_package(
    stack: RealStack, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """`pulumi package gen-sdk --language go` of the provider writes the package `pulumi install` made
    (the same import path, example.com/pulumi-aim/sdk/go/aim), without the module file of its own."""
    out = tmp_path_factory.mktemp("gen-sdk")
    plugin = stack.dir.parent / "aim-plugin"
    stack.pulumi("package", "gen-sdk", str(plugin), "--language", "go", "--out", str(out))

    def files(root: Path) -> dict[str, bytes]:
        return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}

    generated = files(out / "go")
    installed = files(stack.dir / "sdks" / "aim")
    assert "go.mod" not in generated
    assert "aim/aimservice.go" in generated
    assert generated == {name: data for name, data in installed.items() if name != "go.mod"}


def test_the_program_vets_and_a_misspelt_key_does_not_compile(stack: RealStack) -> None:
    """`go vet` type-checks both programs against the SDK (the host's `go build` runs at every preview)."""
    bad = stack.dir / "misspelt"
    bad.mkdir()
    (bad / "main.go").write_text(_MISSPELT)
    try:
        done = stack.run("go", "vet", ".", "./misspelt", check=False, timeout=1200)
    finally:
        shutil.rmtree(bad)
    problems = [line for line in done.stderr.splitlines() if line and not line.startswith("#")]

    assert done.returncode != 0
    assert problems != []
    assert all(line.startswith(("misspelt/", "vet: misspelt/")) for line in problems), problems
    assert any(
        "unknown field ModelID in struct literal of type aim.AIMModelSpecArgs" in line for line in problems
    )


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
