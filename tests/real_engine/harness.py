"""Drive the real Pulumi CLI on a copy of a program: a local state backend, no network, render mode.

The toolchain (CLI, language host, Kubernetes provider, the SDK's exec and dynamic-provider scripts)
comes from scripts/real-engine-toolchain.sh. The CLI finds the language host and every plugin on PATH
(ambient plugins), so PATH is the toolchain directory, then this interpreter's bin directory (the
`python3` that runs the program and the dynamic provider, with aim_pulumi installed).

The Kubernetes provider renders instead of applying: the stack config `kubernetes:renderYamlToDirectory`
configures the default provider the components' children use, so the programs run unchanged.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
TOOLCHAIN_SCRIPT = REPO / "scripts" / "real-engine-toolchain.sh"
PASSPHRASE = "real-engine-tests"
_INFRA_TYPES = ("pulumi:pulumi:Stack", "pulumi:providers:")


def toolchain_dir() -> Path:
    """The built toolchain; its absence fails the tests (CI builds it in the step before)."""
    check = subprocess.run(
        ["bash", str(TOOLCHAIN_SCRIPT), "--check"], capture_output=True, text=True, check=False
    )
    if check.returncode != 0:
        pytest.fail(f"{check.stderr.strip()} (the real-engine tests need the toolchain)", pytrace=False)
    return Path(check.stdout.strip().splitlines()[-1])


def urn_name(urn: str) -> str:
    return urn.rsplit("::", 1)[-1]


def urn_type(urn: str) -> str:
    """The resource's own type: the last segment of the URN's type chain (parent types come first)."""
    return urn.split("::")[2].rsplit("$", 1)[-1]


class RealStack:
    """One stack of one program, kept for a sequence of CLI steps.

    `python_on_path=False` leaves this interpreter's bin directory off PATH (a program of another
    language, whose engine has no Python of its own: only the component provider's virtualenv has
    aim_pulumi).
    """

    def __init__(
        self,
        program: Path,
        workdir: Path,
        toolchain: Path,
        stack: str = "dev",
        *,
        python_on_path: bool = True,
        kubeconfig: Path | None = None,
        state: Path | None = None,
    ) -> None:
        self.dir = workdir / "program"
        shutil.copytree(program, self.dir)
        self.render_dir = workdir / "rendered"
        self.stack = stack
        self.kubeconfig = kubeconfig
        home = workdir / "home"
        if state is None:
            state = workdir / "state"
            state.mkdir()
        home.mkdir()
        interpreter_bin = str(Path(sys.executable).parent)
        inherited = [p for p in os.environ.get("PATH", "").split(os.pathsep) if p and p != interpreter_bin]
        path = os.pathsep.join([str(toolchain), *([interpreter_bin] if python_on_path else []), *inherited])
        self.env = {
            **os.environ,
            "PATH": path,
            "PULUMI_HOME": str(home),
            "PULUMI_BACKEND_URL": state.as_uri(),
            "PULUMI_CONFIG_PASSPHRASE": PASSPHRASE,
            "PULUMI_SKIP_UPDATE_CHECK": "1",
            "PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION": "true",
            "PULUMI_SKIP_CONFIRMATIONS": "true",
        }
        self.env.pop("PULUMI_ACCESS_TOKEN", None)
        self.env.pop("KUBECONFIG", None)
        if kubeconfig is not None:
            # As a user's shell has it: the default provider applies to the cluster it names.
            self.env["KUBECONFIG"] = str(kubeconfig)
        self.pulumi("stack", "init", stack)
        if kubeconfig is None:
            self.pulumi("config", "set", "kubernetes:renderYamlToDirectory", str(self.render_dir))
        self.deployed = False
        self._offline_result: (
            tuple[dict[str, Any], dict[tuple[str, str, str, str], dict[str, Any]]] | None
        ) = None

    def run(self, *args: str, check: bool = True, timeout: float = 900) -> subprocess.CompletedProcess[str]:
        """A command in the stack's directory with its environment (the toolchain first on PATH)."""
        done = subprocess.run(
            list(args),
            cwd=self.dir,
            env=self.env,
            capture_output=True,
            text=True,
            check=False,
            timeout=timeout,
        )
        if check and done.returncode != 0:
            raise AssertionError(failure_report(args, done))
        return done

    def pulumi(
        self, *args: str, check: bool = True, timeout: float = 600
    ) -> subprocess.CompletedProcess[str]:
        """`pulumi ARGS --non-interactive`; with `--expect-no-changes` also `--diff`, so a failure
        says which resources changed and how, not only that some did."""
        diff = ("--diff",) if "--expect-no-changes" in args and "--json" not in args else ()
        return self.run("pulumi", *args, *diff, "--non-interactive", check=check, timeout=timeout)

    def config(self, key: str, value: str) -> None:
        self.pulumi("config", "set", key, value)

    def preview(self, *extra: str) -> dict[str, Any]:
        """`pulumi preview --json`: its steps and change summary."""
        done = self.pulumi("preview", "--json", *extra)
        result: dict[str, Any] = json.loads(done.stdout)
        return result

    def up(self, *extra: str) -> None:
        self.pulumi("up", "--yes", "--skip-preview", *extra)
        self.deployed = True

    def spawn(self, *args: str) -> subprocess.Popen[str]:
        """The CLI started and left running (to be interrupted), its output in `<dir>/../spawned.log`."""
        log = (self.dir.parent / "spawned.log").open("w")
        return subprocess.Popen(
            ["pulumi", *args, "--non-interactive"],
            cwd=self.dir,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )

    def stack_outputs(self) -> dict[str, Any]:
        outputs: dict[str, Any] = json.loads(
            self.pulumi("stack", "output", "--json", "--show-secrets").stdout
        )
        return outputs

    def ensure_up(self) -> None:
        if not self.deployed:
            self.up()

    def destroy(self) -> None:
        self.pulumi("destroy", "--yes", "--skip-preview")

    def state_resources(self) -> list[dict[str, Any]]:
        exported = json.loads(self.pulumi("stack", "export").stdout)
        resources: list[dict[str, Any]] = exported["deployment"].get("resources") or []
        return resources

    def rendered(self) -> dict[tuple[str, str, str, str], dict[str, Any]]:
        """Every manifest the provider wrote, by (apiVersion, kind, namespace, name)."""
        found: dict[tuple[str, str, str, str], dict[str, Any]] = {}
        for path in sorted(self.render_dir.rglob("*.yaml")) if self.render_dir.exists() else []:
            for doc in yaml.safe_load_all(path.read_text()):
                if doc:
                    found[manifest_key(doc)] = doc
        return found

    def _offline(self) -> tuple[dict[str, Any], dict[tuple[str, str, str, str], dict[str, Any]]]:
        """`aim-pulumi plan --json --yaml` of the same program and stack config, as a user would run it.

        Run once per stack: the steps that read it do not change the program or its config.
        """
        if self._offline_result is None:
            self._offline_result = offline_plan(self.dir, self.stack, self.dir.parent)
        return self._offline_result

    def offline_plan(self) -> dict[str, Any]:
        return self._offline()[0]

    def offline_manifests(self) -> dict[tuple[str, str, str, str], dict[str, Any]]:
        return self._offline()[1]


def failure_report(args: Sequence[str], done: subprocess.CompletedProcess[str]) -> str:
    """What a failed command said, for an assertion message: its steps before its stack outputs.

    Pulumi prints each resource's step (and, with `--diff`, its changed properties) first, then the
    stack outputs, then the summary; the outputs of a stack of several services fill any tail kept,
    and `~ 2 updated` alone does not say which two. So the outputs are left out, and what is too
    long loses its middle, not its start.
    """
    changed = changed_in_output(done.stdout)
    listed = "".join(f"\n  {name} ({op})" for name, op in changed)
    return (
        f"{' '.join(args)} exited {done.returncode}" + (f"\nchanged:{listed}" if changed else "") + "\n"
        f"{_clipped(_without_stack_outputs(done.stdout), 16000)}\n{_clipped(done.stderr, 4000)}"
    )


_STEP = re.compile(r"^\s*(?:\+-|-\+|[~+-]|<=|=>)\s+\S+: \((?P<op>[a-z-]+)\)$")
_URN = re.compile(r"^\s*\[urn=(?P<urn>[^\]]+)\]$")


def changed_in_output(text: str) -> list[tuple[str, str]]:
    """(resource name, step) of each step but `same` that `pulumi ... --diff` printed, in order:
    a `~ TYPE: (update)` line, then the resource's `[urn=...]` a line or two below it."""
    found: list[tuple[str, str]] = []
    op: str | None = None
    for line in text.splitlines():
        step = _STEP.match(line)
        if step is not None:
            op = step["op"]
            continue
        urn = _URN.match(line)
        if urn is not None and op is not None:
            found.append((urn_name(urn["urn"]), op))
            op = None
    return found


def _without_stack_outputs(text: str) -> str:
    """`text` without its `Outputs:` section (from that line to the next unindented one)."""
    kept: list[str] = []
    skipping = False
    for line in text.splitlines():
        if line.rstrip() == "Outputs:":
            skipping = True
            kept.append("Outputs: (left out)")
            continue
        if skipping and line and not line[0].isspace():
            skipping = False
        if not skipping:
            kept.append(line)
    return "\n".join(kept)


def _clipped(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]}\n[... {len(text) - 2 * half} characters left out ...]\n{text[-half:]}"


def current_plan(stack: RealStack, previous: dict[str, Any] | None = None) -> dict[str, Any]:
    """The offline plan of the stack's program and current stack config, from `previous` binding state
    (an earlier plan's), as `aim-pulumi plan --json` writes it."""
    from aim_pulumi.cli.execution import execute
    from aim_pulumi.cli.project import load_program
    from aim_pulumi.offline.plan_document import plan_document, previous_state

    outcome = execute(
        load_program(str(stack.dir), stack=stack.stack),
        previous=previous_state(previous) if previous is not None else None,
    )
    assert outcome.error is None, outcome.error
    assert outcome.recording is not None
    return plan_document(outcome.recording, show_secrets=True)


def offline_plan(
    program: Path, stack: str, workdir: Path
) -> tuple[dict[str, Any], dict[tuple[str, str, str, str], dict[str, Any]]]:
    """`aim-pulumi plan --json --yaml` of a Python program: the plan and its manifests by key."""
    plan_file = workdir / "offline-plan.json"
    yaml_file = workdir / "offline-plan.yaml"
    run_cli(
        "plan", str(program), "--stack", stack, "--quiet", "--show-secrets",
        "--json", str(plan_file), "--yaml", str(yaml_file),
    )  # fmt: skip
    manifests = {manifest_key(d): d for d in yaml.safe_load_all(yaml_file.read_text()) if d}
    return json.loads(plan_file.read_text()), manifests


def plugin_directory(workdir: Path) -> Path:
    """This checkout as the plugin `pulumi package add` makes of it: its manifest, entry point and venv."""
    plugin = workdir / "aim-plugin"
    plugin.mkdir()
    for name in ("PulumiPlugin.yaml", "__main__.py"):
        shutil.copy(REPO / name, plugin / name)
    (plugin / ".venv").symlink_to(sys.prefix, target_is_directory=True)
    return plugin


def component_provider_program(program: Path, workdir: Path) -> Path:
    """A copy of a program of another language whose `aim` package is this checkout's plugin.

    The example names the checkout (`packages: aim: ../..`), which the copy cannot; it names a
    plugin directory instead with the checkout's PulumiPlugin.yaml and __main__.py, whose `.venv`
    (the virtualenv the manifest names) is this interpreter's, with aim_pulumi installed: what the
    engine runs for `pulumi package add <checkout>` once the checkout's virtualenv is made.
    """
    plugin = plugin_directory(workdir)
    source = workdir / "source"
    shutil.copytree(program, source)
    project = yaml.safe_load((source / "Pulumi.yaml").read_text())
    assert project["packages"]["aim"] == "../..", "the example names the checkout as its aim package"
    project["packages"]["aim"] = str(plugin)
    (source / "Pulumi.yaml").write_text(yaml.safe_dump(project, sort_keys=False))
    return source


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "aim_pulumi.cli", *args], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        command = " ".join(args)
        raise AssertionError(f"aim-pulumi {command} exited {done.returncode}\n{done.stdout}\n{done.stderr}")
    return done


def manifest_key(doc: Mapping[str, Any]) -> tuple[str, str, str, str]:
    metadata = doc.get("metadata") or {}
    return (doc["apiVersion"], doc["kind"], metadata.get("namespace", ""), metadata["name"])


def preview_resources(preview: Mapping[str, Any]) -> set[tuple[str, str | None]]:
    """(URN, parent URN) of every program resource a preview shows; None for a child of the stack."""
    found: set[tuple[str, str | None]] = set()
    for step in preview.get("steps", []):
        urn = step["urn"]
        # A read (a child's status read back after the apply) is no resource the stack manages.
        if urn_type(urn).startswith(_INFRA_TYPES) or step["op"] == "read":
            continue
        state = step.get("newState") or step.get("oldState") or {}
        parent = state.get("parent") or None
        found.add((urn, None if parent is None or urn_type(parent) == "pulumi:pulumi:Stack" else parent))
    return found


def plan_resources(plan: Mapping[str, Any]) -> set[tuple[str, str | None]]:
    """(URN, parent URN) of every resource of an offline plan (`plan --json`)."""
    return {(r["urn"], r.get("parentUrn")) for r in plan["resources"]}


def changed_steps(preview: Mapping[str, Any]) -> dict[tuple[str, str], str]:
    """(type, name) -> operation, for every program resource the preview would change."""
    changes: dict[tuple[str, str], str] = {}
    for step in preview.get("steps", []):
        type_ = urn_type(step["urn"])
        # A refreshing preview reads every resource first (op `refresh`): a read, not a change.
        if type_.startswith(_INFRA_TYPES) or step["op"] in ("same", "read", "refresh"):
            continue
        op = "replace" if step["op"] in ("replace", "create-replacement", "delete-replaced") else step["op"]
        changes[(type_, urn_name(step["urn"]))] = op
    return changes


def examples() -> Iterator[Path]:
    """The Python examples: the offline plan, which every step compares with, runs Python programs."""
    yield from sorted(p for p in (REPO / "examples").iterdir() if (p / "__main__.py").is_file())


def names(paths: Sequence[Path]) -> list[str]:
    return [p.name for p in paths]


# The one resource whose type differs by language: a Python program's binding is a dynamic resource,
# a program of another language's is the component provider's.
PYTHON_BINDING, PROVIDER_BINDING = "pulumi-python:dynamic/aim:Binding", "aim:index:Binding"


def program_resources(urns: Mapping[str, str | None]) -> set[tuple[str, str, str | None]]:
    """(type, name, parent type) of every program resource, the binding under its provider type, from
    URN -> parent URN (None for a child of the stack)."""

    def kind(urn: str) -> str:
        found = urn_type(urn)
        return PROVIDER_BINDING if found == PYTHON_BINDING else found

    return {
        (kind(urn), urn_name(urn), kind(parent) if parent else None)
        for urn, parent in urns.items()
        if not urn_type(urn).startswith(_INFRA_TYPES)
    }


def preview_parents(preview: Mapping[str, Any]) -> dict[str, str | None]:
    """URN -> parent URN of every step of a preview (None for a child of the stack)."""
    found: dict[str, str | None] = {}
    for step in preview.get("steps", []):
        parent = (step.get("newState") or {}).get("parent")
        found[step["urn"]] = None if parent is None or urn_type(parent) == "pulumi:pulumi:Stack" else parent
    return found


def twin_offline_plan(
    stack: RealStack, twin: Path, workdir: Path
) -> tuple[dict[str, Any], dict[tuple[str, str, str, str], dict[str, Any]]]:
    """The offline plan of a Python program (the twin of a program of another language) under the
    stack's own stack config: what the stack must deploy."""
    copy = workdir / twin.name
    shutil.copytree(twin, copy)
    # Under the stack's project name, which a Shared cache's field manager names.
    project = yaml.safe_load((stack.dir / "Pulumi.yaml").read_text())["name"]
    twin_project = yaml.safe_load((copy / "Pulumi.yaml").read_text())
    twin_project["name"] = project
    (copy / "Pulumi.yaml").write_text(yaml.safe_dump(twin_project, sort_keys=False))
    config = f"Pulumi.{stack.stack}.yaml"
    shutil.copy(stack.dir / config, copy / config)
    return offline_plan(copy, stack.stack, workdir)
