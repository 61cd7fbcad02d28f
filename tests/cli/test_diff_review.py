"""Change review that gates CI, plain Kubernetes objects beside AIM ones, and the plan as pulumi prints it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from aim_pulumi.cli.__main__ import main
from aim_pulumi.cli.diff import diff_lines
from aim_pulumi.cli.render import Palette
from aim_pulumi.offline.plan_diff import diff_plans, identity_note

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
FIXTURES = ROOT / "tests" / "fixtures"
PROGRAMS = FIXTURES / "programs"
DIRECTORY = FIXTURES / "manifests" / "with-plain-objects"
RC_CHANGE = PROGRAMS / "rc-change"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("gate") / "old.json"
    assert main(["plan", str(RC_CHANGE), "--json", str(path), "--quiet"]) == 0
    return path


# --------------------------------------------------------------------------------------------------
# Gating


def test_expect_no_changes_passes_an_unchanged_plan(capsys: pytest.CaptureFixture[str], saved: Path) -> None:
    code, out, err = run(capsys, "plan", str(RC_CHANGE), "--diff", str(saved), "--expect-no-changes")
    assert (code, err) == (0, "")
    assert "0 to create, 0 to update, 0 to replace, 0 to delete, 17 unchanged" in out


def test_expect_no_changes_fails_a_changed_plan(capsys: pytest.CaptureFixture[str], saved: Path) -> None:
    code, out, err = run(
        capsys, "plan", str(RC_CHANGE), "--diff", str(saved), "-c", "logLevel=DEBUG", "--expect-no-changes"
    )
    assert code == 1
    assert "error: --expect-no-changes: 0 to create, 3 to update, 0 to replace" in err
    assert " ~ InferenceService team-a/routed-" in out  # the change is still shown


@pytest.mark.parametrize(
    ("config", "expected"), [([], 0), (["-c", "logLevel=DEBUG"], 3)], ids=["no-changes", "changes"]
)
def test_detailed_exitcode(
    capsys: pytest.CaptureFixture[str], saved: Path, config: list[str], expected: int
) -> None:
    code, _, _ = run(capsys, "plan", str(RC_CHANGE), "--diff", str(saved), "--detailed-exitcode", *config)
    assert code == expected


def test_detailed_exitcode_keeps_failure_and_usage_codes(
    capsys: pytest.CaptureFixture[str], saved: Path
) -> None:
    failed = run(
        capsys, "plan", str(PROGRAMS / "missing-profile"), "--diff", str(saved), "--detailed-exitcode"
    )
    assert failed[0] == 1
    usage = run(capsys, "plan", str(RC_CHANGE), "--detailed-exitcode")
    assert usage[0] == 2 and "--detailed-exitcode needs --diff OLD.json" in usage[2]
    usage = run(capsys, "plan", str(RC_CHANGE), "--expect-no-changes")
    assert usage[0] == 2 and "--expect-no-changes needs --diff OLD.json" in usage[2]


def test_a_plan_of_another_project_is_named_as_such(capsys: pytest.CaptureFixture[str], saved: Path) -> None:
    code, out, _ = run(capsys, "plan", str(EXAMPLES / "quickstart"), "--diff", str(saved))
    assert code == 0
    assert (
        "note: the old plan is of another project (rc-change stack dev, this is aim-quickstart stack dev)"
        in out
    )
    assert "no resource matches, so every resource shows as created or deleted" in out


def test_a_plan_of_another_stack_is_named_as_such() -> None:
    old = {"project": "p", "stack": "dev", "resources": [{"type": "t", "name": "a", "inputs": {}}]}
    new = {"project": "p", "stack": "prod", "resources": [{"type": "t", "name": "a", "inputs": {}}]}
    diff = diff_plans(old, new)
    assert identity_note(diff) == (
        "note: the old plan is of another stack (p stack dev, this is p stack prod): "
        "resources are matched by type and name across them"
    )
    assert identity_note(diff_plans(old, old)) is None


def test_values_are_never_cut() -> None:
    long_old, long_new = "x" * 300 + "-old", "x" * 300 + "-new"

    def plan(value: str) -> dict[str, Any]:
        entry = {
            "type": "kubernetes:core/v1:ConfigMap",
            "name": "c",
            "inputs": {"metadata": {"labels": {"k": value}}},
        }
        return {"resources": [entry]}

    lines = diff_lines(diff_plans(plan(long_old), plan(long_new)), Palette())
    assert f'     metadata.labels.k: "{long_old}" -> "{long_new}"' in lines


def test_a_config_map_content_change_is_a_replacement() -> None:
    def plan(value: str) -> dict[str, Any]:
        return {
            "resources": [
                {"type": "kubernetes:core/v1:ConfigMap", "name": "c", "inputs": {"data": {"k": value}}}
            ]
        }

    diff = diff_plans(plan("a"), plan("b"))
    assert [(c.name, c.replacing) for c in diff.replaced] == [("c", ("data.k",))]
    assert '     data.k: "a" -> "b"  (forces replacement)' in diff_lines(diff, Palette())


def test_replace_on_changes_option_makes_a_replacement() -> None:
    def plan(value: str, option: list[str]) -> dict[str, Any]:
        entry = {
            "type": "aim:index:X",
            "name": "x",
            "inputs": {"a": value},
            "options": {"replaceOnChanges": option},
        }
        return {"resources": [entry]}

    assert [c.name for c in diff_plans(plan("1", []), plan("2", [])).updated] == ["x"]
    replaced = diff_plans(plan("1", ["a"]), plan("2", ["a"])).replaced
    assert [(c.name, c.replacing) for c in replaced] == [("x", ("a",))]


def test_ignored_paths_of_a_job_are_no_change() -> None:
    """A download Job's pod template is in `ignoreChanges`: Pulumi leaves the Job that exists as it
    is (no replacement, which a template change would otherwise force), and so does the review."""

    def plan(env: str, timeout: str) -> dict[str, Any]:
        container = {"name": "download", "env": [{"name": "VLLM_LOGGING_LEVEL", "value": env}]}
        entry = {
            "type": "kubernetes:batch/v1:Job",
            "name": "chat-download",
            "inputs": {
                "metadata": {"annotations": {"pulumi.com/timeoutSeconds": timeout}},
                "spec": {"template": {"spec": {"containers": [container]}}},
            },
            "options": {"ignoreChanges": ["spec.template"]},
        }
        return {"resources": [entry]}

    assert diff_plans(plan("INFO", "3600"), plan("DEBUG", "3600")).unchanged == 1
    diff = diff_plans(plan("INFO", "3600"), plan("DEBUG", "600"))
    assert not diff.replaced
    (updated,) = diff.updated
    assert [f.path for f in updated.fields] == ["metadata.annotations[pulumi.com/timeoutSeconds]"]


# --------------------------------------------------------------------------------------------------
# Plain Kubernetes objects


def test_a_program_with_a_namespace_plans_and_validates(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "plan.json"
    code, out, err = run(
        capsys, "plan", str(PROGRAMS / "with-namespace"), "--validate", "--json", str(target)
    )
    assert (code, err) == (0, "")
    assert "3 manifests valid against the vendored schemas" in out
    assert "not validated" not in out
    resources = {r["name"]: r for r in json.loads(target.read_text())["resources"]}
    assert resources["ml-team"]["type"] == "kubernetes:core/v1:Namespace"
    assert resources["qwen-chat"]["dependsOn"] == sorted(
        [resources["ml-team"]["urn"], resources["inference"]["urn"]]
    )


def test_a_directory_with_plain_objects_plans_as_one_unit(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    files = {"json": tmp_path / "plan.json", "yaml": tmp_path / "plan.yaml"}
    code, out, err = run(
        capsys,
        "plan",
        str(DIRECTORY),
        "--validate",
        "--json",
        str(files["json"]),
        "--yaml",
        str(files["yaml"]),
    )
    assert (code, err) == (0, "")
    assert "note: " in out and "kustomization.yaml: skipped: kustomize configuration" in out
    assert "values.yaml:2: skipped: not a Kubernetes object" in out  # the line validate names
    assert "not validated (no vendored schema): Certificate/ml-team/inference-tls" in out
    # With the ConfigMap that keeps the Namespace from taking the Shared cache with it.
    assert "7 manifests valid against the vendored schemas" in out
    for text in (out, files["json"].read_text(), files["yaml"].read_text()):
        assert "hf_plaintext-never-printed" not in text
    docs = {(d["kind"], d["metadata"]["name"]): d for d in yaml.safe_load_all(files["yaml"].read_text())}
    assert docs[("Secret", "hf-token")]["stringData"] == {"token": "[secret]"}
    assert docs[("Certificate", "inference-tls")]["spec"]["dnsNames"] == ["inference.example.com"]
    assert ("Namespace", "ml-team") in docs
    resources = {r["name"]: r for r in json.loads(files["json"].read_text())["resources"]}
    namespace = resources["with-plain-objects-namespace-ml-team"]
    isvc = resources["with-plain-objects-aimservice-ml-team-qwen-chat-isvc"]
    assert namespace["parent"] == "with-plain-objects"
    assert namespace["urn"] in isvc["dependsOn"]  # the service's children wait for its namespace
    assert resources["with-plain-objects-secret-ml-team-hf-token"]["urn"] in isvc["dependsOn"]


def test_the_same_directory_validates(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "validate", str(DIRECTORY))
    assert code == 0
    assert out == "4 objects valid, 1 not validated\n"
    assert "kustomization.yaml: skipped" in err
    assert (
        "Certificate/ml-team/inference-tls: not validated (no vendored schema for cert-manager.io/v1)" in err
    )


def test_a_plain_object_with_a_field_its_kind_lacks_fails_before_anything_registers(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "ns.yaml").write_text("apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\nsepc: {}\n")
    code, out, err = run(capsys, "plan", str(tmp_path))
    assert (code, out) == (1, "")
    assert f"{tmp_path / 'ns.yaml'}:4: Namespace/a: sepc: UnknownField" in err


def test_invalid_plain_objects_are_refused_before_anything_registers(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """As a service's children are: what the API server would refuse fails the plan, not only
    `--validate` (which used to be the only check of a plain object)."""
    (tmp_path / "sa.yaml").write_text(
        "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: Bad_Name, namespace: a}\n"
    )
    for extra in ([], ["--validate", "--quiet"]):
        code, out, err = run(capsys, "plan", str(tmp_path), *extra)
        assert (code, out) == (1, "")
        (line,) = err.splitlines()
        assert (
            line.startswith("error: ")
            and "sa.yaml:3: ServiceAccount/a/Bad_Name: metadata.name: InvalidSpec: " in line
        )


# --------------------------------------------------------------------------------------------------
# The plan as pulumi prints it


def test_text_plan_ends_with_the_stack_outputs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "plan", str(PROGRAMS / "stack-reference"))
    assert code == 0
    tail = out.rstrip("\n").split("\n\n")[-1].splitlines()
    assert tail == ["Outputs:", '    team : "team"', "    token: [secret]", "    zone : [unknown]"]


def test_unknown_values_are_written_as_unknown(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    files = {"json": tmp_path / "plan.json", "yaml": tmp_path / "plan.yaml"}
    for extra in ([], ["--show-secrets"]):
        code, _, err = run(
            capsys,
            "plan",
            str(PROGRAMS / "stack-reference"),
            "--validate",
            "--json",
            str(files["json"]),
            "--yaml",
            str(files["yaml"]),
            *extra,
        )
        assert (code, err) == (0, "")
        document = json.loads(files["json"].read_text())
        assert document["outputs"]["zone"] == "[unknown]"
        (namespace,) = yaml.safe_load_all(files["yaml"].read_text())
        assert namespace["metadata"]["labels"] == {"zone": "[unknown]"}
    assert document["outputs"]["token"] == "s3cr3t-token"  # --show-secrets, the last run


def test_json_resources_carry_urn_options_and_dependencies(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "plan", str(PROGRAMS / "stack-reference"), "--json", "-")
    assert code == 0
    document = json.loads(out)
    assert set(document) == {"project", "stack", "resources", "outputs"}
    (namespace,) = document["resources"]
    assert namespace["urn"] == "urn:pulumi:dev::stack-reference::kubernetes:core/v1:Namespace::team"
    assert set(namespace) >= {
        "urn",
        "parent",
        "parentUrn",
        "provider",
        "dependsOn",
        "options",
        "inputs",
        "custom",
    }
    assert namespace["options"] == {
        "protect": False,
        "retainOnDelete": False,
        "deleteBeforeReplace": False,
        "ignoreChanges": [],
        "replaceOnChanges": [],
        "customTimeouts": {},
        "providers": {},
    }
    assert [u.rsplit("::", 1)[-1] for u in namespace["dependsOn"]] == ["organization/network/prod"]


def test_a_new_base_version_of_a_fine_tune_is_one_reviewable_update(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`finetune:newer` publishes the base model's 0.9.1 profile: the derived profile follows it
    (`versionPolicy: latest`), and of the Kubernetes children only the InferenceService changes, in
    place: its image moves to the new base and its profile label and hash to the new derived profile."""
    before = tmp_path / "before.json"
    assert main(["plan", str(PROGRAMS / "finetune"), "--json", str(before), "--quiet"]) == 0
    after = tmp_path / "after.json"
    assert (
        main(["plan", str(PROGRAMS / "finetune"), "-c", "newer=true", "--json", str(after), "--quiet"]) == 0
    )
    capsys.readouterr()
    changes = diff_plans(json.loads(before.read_text()), json.loads(after.read_text())).changes
    kubernetes = {(c.type, c.name): c.action for c in changes if c.type.startswith("kubernetes:")}
    assert kubernetes == {
        ("kubernetes:serving.kserve.io/v1beta1:InferenceService", "support-bot-isvc"): "update"
    }
    code, out, _ = run(capsys, "plan", str(PROGRAMS / "finetune"), "-c", "newer=true", "--diff", str(before))
    assert code == 0
    assert (
        'spec.predictor.containers[kserve-container].image: "docker.io/amdenterpriseai/aim-base:0.8" -> '
        '"docker.io/amdenterpriseai/aim-base:0.9"'
    ) in out
    assert "1 to create, 2 to update, 0 to replace, 0 to delete" in out
