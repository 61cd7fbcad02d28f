"""`aim-pulumi import` with dumps nobody should trust, and the steps it prints taken as printed.

A dump is input like any other: a namespace or name that leads out of `-o` (`../`), a name holding
shell syntax, two different copies of one object, credentials in the live env. And the step
`import` prints that frees the children from the operator must leave nothing Pulumi would conflict
with: a child Pulumi applies without force (`pulumi.com/patchForce` absent from its plan) still
carries the field managers of whoever made it, which that apply would conflict with, while a
Shared-cache PVC and Job that no AIM object owns (made by hand with `kubectl create`) are applied
with force, like every planned child, and need no release.
"""

from __future__ import annotations

import argparse
import copy
import io
import json
import os
import shlex
import stat
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml

from aim_pulumi.adopt.dump import Dump, object_key, split_dump
from aim_pulumi.adopt.removal import applied_without_force, release_command, releases
from aim_pulumi.cli.commands import import_
from aim_pulumi.resolve.objects import PATCH_FORCE

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "import"
OPERATOR_DUMP = FIXTURES / "operator-dump.yaml"
MOVING = FIXTURES / "moving.yaml"
SHARED = ("qwen3-32b", "qwen3-32b-mi300x-fp16", "shared-a", "shared-b")


def run(*argv: str) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="aim-pulumi")
    import_.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["import", *argv])
    out, err = io.StringIO(), io.StringIO()
    code = args.func(args, stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def operator_items() -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = yaml.safe_load(OPERATOR_DUMP.read_text())["items"]
    return items


def write_list(path: Path, items: list[dict[str, Any]]) -> Path:
    path.write_text(yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": items}, sort_keys=False))
    return path


def files_under(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*")}


# --------------------------------------------------------------------------------------------------
# Paths: nothing is written outside -o, the scratch copy the plan reads included


@pytest.mark.parametrize(
    "field",
    [
        pytest.param("namespace", id="namespace"),
        pytest.param("name", id="name"),
    ],
)
def test_a_dump_name_that_leads_out_of_the_output_directory_writes_nothing_anywhere(
    field: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The scratch copy goes under a directory of this test, so "out of it" is a known place.
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    items = operator_items()
    service = next(o for o in items if o["kind"] == "AIMService")
    # aim/<namespace>/<kind>-<name>.yaml under scratch/<run>/: three `..` reach tmp_path.
    if field == "namespace":
        for obj in items:
            if obj["metadata"].get("namespace"):
                obj["metadata"]["namespace"] = "../../../escaped"
    else:
        service["metadata"]["name"] = "x/../../../../escaped/y"
    dump = write_list(tmp_path / "dump.yaml", items)
    code, out, err = run("--from", str(dump), "-o", str(tmp_path / "out"))
    assert code == 1
    assert out == ""
    assert not (tmp_path / "escaped").exists()
    assert not (tmp_path / "out").exists()
    assert files_under(scratch) == set()
    lines = err.splitlines()
    where = f"{dump}, document 1, item {items.index(service) + 1}"
    namespace, name = service["metadata"]["namespace"], service["metadata"]["name"]
    if field == "namespace":
        assert (
            f"aim-pulumi import: error: AIMService {namespace}/{name} ({where}): metadata.namespace "
            '"../../../escaped" is not a namespace the API server accepts (a DNS-1123 label: at most 63 of '
            "a-z, 0-9 and '-')"
        ) in lines
    else:
        assert (
            f"aim-pulumi import: error: AIMService {namespace}/{name} ({where}): metadata.name "
            '"x/../../../../escaped/y" is not a name the API server gives an AIM object (a DNS-1123 '
            "subdomain: at most 253 of a-z, 0-9, '-' and '.')"
        ) in lines
    assert lines[-1].endswith("; nothing written")


def test_the_scratch_plan_refuses_a_path_out_of_its_directory_whatever_adoption_let_through(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The planner confines what it writes on its own, not only because adoption refused the names."""
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    plan = import_._planner("aim", False, io.StringIO())
    with pytest.raises(import_.WriteRefused, match="resolves outside"):
        plan({"aim/../../../escaped/x.yaml": "{}\n"})
    assert not (tmp_path / "escaped").exists()


# --------------------------------------------------------------------------------------------------
# Printed commands: quoted, and run as printed


FAKE = """#!{python}
import json, os, sys
with open(os.environ["RECORD"], "a") as record:
    record.write(json.dumps([os.path.basename(sys.argv[0]), *sys.argv[1:]]) + "\\n")
"""


def printed_commands(out: str) -> list[str]:
    """Every line under a numbered step of "Next, in this order:", as a user would paste them."""
    commands = []
    for line in out.split("Next, in this order:\n", 1)[1].splitlines():
        if line.startswith("   "):
            commands.append(line[3:])
    return commands


def test_every_printed_command_is_quoted_and_runs_as_printed(tmp_path: Path) -> None:
    """A child named with shell syntax (the API server's path-segment rule allows `$` and `;` in
    the names of several kinds) and an operator namespace given as such: pasting every printed
    line into a shell runs each command with the words it was printed with, and nothing else."""
    items = operator_items()
    isvc = next(o for o in items if o["kind"] == "InferenceService")
    hostile = copy.deepcopy(next(o for o in items if o["kind"] == "ConfigMap"))
    hostile["metadata"]["name"] = "cm$(touch PWNED-name);touch PWNED-semicolon`touch PWNED-tick`"
    hostile["metadata"]["ownerReferences"] = isvc["metadata"]["ownerReferences"]
    items.append(hostile)
    dump = write_list(tmp_path / "dump.yaml", items)
    out_dir = tmp_path / "out dir $(touch PWNED-dir)"
    code, out, err = run(
        "--from",
        str(dump),
        "-o",
        str(out_dir),
        "--operator-namespace",
        "aim system;touch PWNED-ns",
    )
    assert code == 0, err
    commands = printed_commands(out)
    assert any(hostile["metadata"]["name"] in shlex.split(c)[-4] for c in commands if " patch " in c)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("kubectl", "pulumi"):
        fake = bin_dir / tool
        fake.write_text(FAKE.format(python=sys.executable))
        fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    record = tmp_path / "record.jsonl"
    work = tmp_path / "shell"
    work.mkdir()
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "RECORD": str(record)}
    for command in commands:
        done = subprocess.run(["bash", "-c", command], cwd=work, env=env, capture_output=True, text=True)
        assert done.returncode == 0, (command, done.stderr)
    assert not list(work.glob("PWNED*")) and not list(tmp_path.glob("PWNED*"))
    ran = [json.loads(line) for line in record.read_text().splitlines()]
    # Each command ran once, with exactly the words printed (comments aside).
    expected = [shlex.split(c, comments=True) for c in commands]
    assert ran == [words for words in expected if words]
    assert ran[0][:4] == ["kubectl", "-n", "aim system;touch PWNED-ns", "scale"]
    assert any(words[4] == f"configmap/{hostile['metadata']['name']}" for words in ran if "patch" in words)
    assert ["pulumi", "import", "--file", str(out_dir / "import.json")] == next(
        w for w in ran if w[:2] == ["pulumi", "import"]
    )[:4]
    finalizer = next(w for w in ran if "--type=merge" in w)
    assert finalizer[-2:] == ["-p", '{"metadata":{"finalizers":null}}']


def test_a_relative_output_directory_is_printed_absolute_for_the_step_run_in_the_pulumi_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Step 3 runs in the Pulumi project's directory, not where `import` ran: `-o moved` printed as
    `moved/import.json` names no file there."""
    dump = write_list(tmp_path / "dump.yaml", operator_items())
    monkeypatch.chdir(tmp_path)
    code, out, err = run("--from", "dump.yaml", "-o", "moved")
    assert code == 0, err
    (words,) = [shlex.split(c) for c in printed_commands(out) if c.startswith("pulumi import ")]
    assert words[3] == str(tmp_path / "moved" / "import.json")
    assert f'{{"path": {json.dumps(str(tmp_path / "moved" / "aim"))}}}' in out
    assert dump.is_file() and Path(words[3]).is_file()


# --------------------------------------------------------------------------------------------------
# Secrets: no credential value in report.json or in what import prints


def test_credential_named_env_values_reach_neither_the_report_nor_the_output(tmp_path: Path) -> None:
    items = operator_items()
    service = next(o for o in items if o["kind"] == "AIMService" and o["metadata"]["name"] == "chat-by-name")
    service["spec"]["env"] = [{"name": "HF_TOKEN", "value": "hf_PLANNED_secret_value"}]
    isvc = next(
        o
        for o in items
        if o["kind"] == "InferenceService" and o["metadata"]["name"].startswith("chat-by-name")
    )
    container = isvc["spec"]["predictor"]["containers"][0]
    container["env"] = [
        *(container.get("env") or []),
        {"name": "HF_TOKEN", "value": "hf_LIVE_secret_value"},
        {"name": "API_KEY", "value": "live-api-key-value"},
    ]
    dump = write_list(tmp_path / "dump.yaml", items)
    code, out, err = run("--from", str(dump), "-o", str(tmp_path / "out"))
    assert code == 0, err
    report = (tmp_path / "out" / "report.json").read_text()
    for secret in ("hf_PLANNED_secret_value", "hf_LIVE_secret_value", "live-api-key-value"):
        assert secret not in report
        assert secret not in out
        assert secret not in err
    # The fields are still reported, their values hidden; the other env values still shown.
    assert "[not shown]" in report
    assert "      ~ spec.predictor.containers: " in out
    entries = [
        c
        for s in json.loads(report)["services"]
        for child in s["adopted"]
        if child["kind"] == "InferenceService" and child["name"].startswith("chat-by-name")
        for c in child.get("changes", []) + child.get("kept", [])
    ]
    assert entries and "AIM_" in json.dumps(entries)


# --------------------------------------------------------------------------------------------------
# Duplicates and lists


def test_an_object_listed_twice_differently_is_refused_naming_both_places(tmp_path: Path) -> None:
    items = operator_items()
    isvc = next(o for o in items if o["kind"] == "InferenceService")
    changed = copy.deepcopy(isvc)
    changed["metadata"]["resourceVersion"] = "999999"
    changed["spec"]["predictor"]["minReplicas"] = 7
    dump_dir = tmp_path / "dump"
    dump_dir.mkdir()
    write_list(dump_dir / "a.yaml", items)
    (dump_dir / "b.yaml").write_text(yaml.safe_dump(changed, sort_keys=False))
    code, out, err = run("--from", str(dump_dir), "-o", str(tmp_path / "out"))
    assert code == 1 and out == ""
    index = items.index(isvc) + 1
    name = isvc["metadata"]["name"]
    assert err.splitlines()[0] == (
        f"aim-pulumi import: error: InferenceService ml-team/{name} is listed twice with different contents "
        f"({dump_dir / 'a.yaml'}, document 1, item {index}; {dump_dir / 'b.yaml'}, document 1): dump one "
        "state of the cluster, each object once"
    )
    assert not (tmp_path / "out").exists()


def test_an_object_listed_twice_identically_is_one_object(tmp_path: Path) -> None:
    items = operator_items()
    once = write_list(tmp_path / "once.yaml", items)
    once_code, once_out, _ = run("--from", str(once), "-o", str(tmp_path / "a"))
    twice = items + [copy.deepcopy(o) for o in items if o["kind"] in ("InferenceService", "AIMService")]
    dump = write_list(tmp_path / "twice.yaml", twice)
    code, out, err = run("--from", str(dump), "-o", str(tmp_path / "b"))
    assert once_code == code == 0, err
    assert out.replace(str(tmp_path / "b"), "DIR") == once_out.replace(str(tmp_path / "a"), "DIR")


def test_lists_are_expanded_as_kubectl_expands_them_and_each_item_keeps_its_place(tmp_path: Path) -> None:
    items = operator_items()
    nested = {
        "apiVersion": "v1",
        "kind": "List",
        "items": [
            {"apiVersion": "v1", "kind": "ConfigMapList", "items": items[:2]},
            *items[2:4],
        ],
    }
    dump = tmp_path / "dump.yaml"
    dump.write_text(yaml.safe_dump_all([nested, items[4]], sort_keys=False))
    from aim_pulumi.adopt.dump import read_dump_placed

    objects, places = read_dump_placed(dump)
    assert objects == items[:5]
    assert places == [
        f"{dump}, document 1, item 1",
        f"{dump}, document 1, item 2",
        f"{dump}, document 1, item 3",
        f"{dump}, document 1, item 4",
        f"{dump}, document 2",
    ]


# --------------------------------------------------------------------------------------------------
# Field ownership: every adopted child Pulumi applies without force is released


def shared_cache_dump(
    tmp_path: Path, *, pulumi_manager: bool = False, manager: str = "pulumi-kubernetes-1a2b3c4d"
) -> list[dict[str, Any]]:
    """Two services on one Shared cache whose PVC and Job no AIM object owns (made by hand)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from operator_made import operator_deployment

    docs = [d for d in yaml.safe_load_all(MOVING.read_text()) if d["metadata"]["name"] in SHARED]
    objects = operator_deployment(docs, tmp_path / "operator")
    for obj in objects:
        if obj["kind"] in ("PersistentVolumeClaim", "Job"):
            obj["metadata"].pop("ownerReferences", None)
            obj["metadata"]["managedFields"] = [
                {"manager": "kubectl-create", "operation": "Update", "apiVersion": obj["apiVersion"]}
            ]
            if pulumi_manager and obj["kind"] == "PersistentVolumeClaim":
                obj["metadata"]["managedFields"].append(
                    {"manager": manager, "operation": "Apply", "apiVersion": "v1"}
                )
    return objects


def test_an_adopted_shared_cache_no_aim_object_owns_is_applied_with_force_and_left_as_it_is(
    tmp_path: Path,
) -> None:
    objects = shared_cache_dump(tmp_path)
    dump = write_list(tmp_path / "dump.yaml", objects)
    code, out, err = run("--from", str(dump), "-o", str(tmp_path / "out"))
    assert code == 0, err
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    caches = next(s for s in report["services"] if s["service"] == "shared caches")
    shared = {c["kind"]: c for c in caches["adopted"]}
    assert set(shared) == {"PersistentVolumeClaim", "Job"}
    # A Shared cache is planned with `patchForce`, like every child: the first apply takes its
    # fields from `kubectl-create`, so step 2 has nothing to release and resets no field manager.
    step = next(s for s in report["operatorRemoval"] if "ownerReferences" in s["step"])["commands"]
    for kind in shared:
        assert not [c for c in step if f"/{shared[kind]['name']} " in c]
        assert f"/{shared[kind]['name']} --type=json" not in out
    assert report["fieldManagersKept"] == []
    # The services' own children (owned by their AIMService) keep the owner patch, with the reset.
    assert sum('"op":"remove"' in c for c in step) == 4
    assert all('"path":"/metadata/managedFields"' in c for c in step)


def shared_cache_split(
    tmp_path: Path, *, pulumi_manager: bool, manager: str = "pulumi-kubernetes-1a2b3c4d"
) -> tuple[Dump, dict[str, Any]]:
    objects = shared_cache_dump(tmp_path, pulumi_manager=pulumi_manager, manager=manager)
    dump = split_dump(objects)
    pvc = next(o for o in dump.live if o["kind"] == "PersistentVolumeClaim")
    return dump, pvc


def test_an_adopted_child_applied_without_force_no_aim_object_owns_has_its_field_managers_reset(
    tmp_path: Path,
) -> None:
    dump, pvc = shared_cache_split(tmp_path, pulumi_manager=False)
    assert applied_without_force({"metadata": {"annotations": {}}})
    assert not applied_without_force({"metadata": {"annotations": {PATCH_FORCE: "true"}}})
    forced = {object_key(r.obj) for r in releases(dump)}
    assert object_key(pvc) not in forced
    release = next(r for r in releases(dump, [pvc]) if object_key(r.obj) == object_key(pvc))
    assert release.kept is None
    reset = '[{"op":"replace","path":"/metadata/managedFields","value":[{}]}]'
    name = pvc["metadata"]["name"]
    assert release_command(release) == (
        f"kubectl -n moving patch persistentvolumeclaim/{name} --type=json -p '{reset}'"
    )


@pytest.mark.parametrize("manager", ["pulumi-kubernetes-1a2b3c4d", "aim-pulumi-llm-serving-prod"])
def test_a_child_applied_without_force_another_pulumi_stack_applies_keeps_its_field_managers_and_says_why(
    tmp_path: Path, manager: str
) -> None:
    """A stack's Shared cache manager (`aim-pulumi-<project>-<stack>`) is another stack's as well."""
    dump, pvc = shared_cache_split(tmp_path, pulumi_manager=True, manager=manager)
    release = next(r for r in releases(dump, [pvc]) if object_key(r.obj) == object_key(pvc))
    assert release.kept == (
        "its field managers are kept: another Pulumi stack applies it too (field manager "
        f"{manager}), and resetting them would take its fields from it; a field the two set "
        "differently stays a conflict on `pulumi up` until they agree"
    )
    assert release.ops == ()
