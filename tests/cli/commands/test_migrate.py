"""`aim-pulumi migrate`: output targets, comments, exit codes and the report (behaviour §7.3)."""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
from pathlib import Path

import pytest
import yaml

from aim_pulumi.cli.commands import migrate, validate
from tests.versions import EXTENSION, admission_problems, parse

LEGACY = Path(__file__).resolve().parents[2] / "fixtures" / "legacy"


def run(*argv: str) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="aim-pulumi")
    migrate.register(parser.add_subparsers(dest="command"), EXTENSION)
    args = parser.parse_args(["migrate", *argv])
    out, err = io.StringIO(), io.StringIO()
    code = args.func(args, stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def legacy(tmp_path: Path) -> Path:
    root = tmp_path / "in"
    shutil.copytree(LEGACY, root)
    return root


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def documents(text: str) -> list[dict[str, object]]:
    return [d for d in yaml.safe_load_all(text) if d is not None]


def validate_dir(path: Path) -> tuple[int, list[str]]:
    """`aim-pulumi validate` on a directory: its exit code and problem lines."""
    code, problems, _ = validate.check([str(path)], io.StringIO(), io.StringIO())
    return code, [validate.format_problem(p) for p in problems]


# --------------------------------------------------------------------------------------------------
# Every seed example file, on standard output


@pytest.mark.parametrize(
    ("name", "converted"),
    [
        pytest.param("services-seed002.yaml", 4, id="seed002-services"),
        pytest.param("template-seed003.yaml", 3, id="seed003-templates"),
        pytest.param("runtime-configs-seed000.yaml", 0, id="seed000-runtime-configs-unchanged"),
        pytest.param("models.yaml", 0, id="models-unchanged"),
    ],
)
def test_seed_file_to_stdout(legacy: Path, name: str, converted: int) -> None:
    # Templates need the model for their image: put it next to them.
    target = legacy / "one"
    target.mkdir()
    shutil.copy(legacy / name, target / name)
    if name != "models.yaml":
        shutil.copy(legacy / "models.yaml", target / "models.yaml")
    before = snapshot(legacy)
    code, out, err = run(str(target))
    assert code == 0, err
    docs = documents(out)
    assert all(admission_problems(d) == [] for d in docs)
    assert (
        sum(d["apiVersion"] == "aim.eai.amd.com/v1alpha2" and d["kind"] != "AIMClusterModel" for d in docs)
        >= converted
    )
    assert f"{converted} of " in err
    assert snapshot(legacy) == before


def test_directory_to_stdout_is_one_stream_in_file_order(legacy: Path) -> None:
    code, out, err = run(str(legacy / "mixed"))
    assert code == 0, err
    kinds = [(d["kind"], d["metadata"]["name"]) for d in documents(out)]  # type: ignore[index]
    # Files in relative-path order (nested/catalog.yml before services.yaml), documents in file order.
    assert kinds == [
        ("AIMModel", "qwen-qwen3-32b"),
        ("AIMProfile", "team-template"),
        ("AIMService", "qwen-chat"),
        ("AIMService", "legacy-chat"),
    ]


# --------------------------------------------------------------------------------------------------
# -o DIR mirrors the input; --in-place rewrites it; nothing else writes the input


def test_output_dir_mirrors_names_and_passes_validate(legacy: Path, tmp_path: Path) -> None:
    before = snapshot(legacy)
    out_dir = tmp_path / "out"
    code, out, err = run(str(legacy), "-o", str(out_dir))
    assert code == 1, err  # not-convertible.yaml
    assert out == ""
    assert sorted(snapshot(out_dir)) == sorted(before)
    assert snapshot(legacy) == before
    assert validate_dir(out_dir) == (0, [])
    mixed = documents((out_dir / "mixed" / "nested" / "catalog.yml").read_text())
    assert mixed[1]["kind"] == "AIMProfile"
    # Documents that could not be converted are written unchanged.
    assert documents((out_dir / "not-convertible.yaml").read_text()) == documents(
        (legacy / "not-convertible.yaml").read_text()
    )


def test_single_file_output_dir(legacy: Path, tmp_path: Path) -> None:
    code, _, err = run(str(legacy / "mixed" / "services.yaml"), "-o", str(tmp_path / "out"))
    assert code == 0, err
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["services.yaml"]


@pytest.mark.parametrize(
    "target",
    [pytest.param(".", id="output-dir-is-input-dir"), pytest.param("..", id="file-input-dir")],
)
def test_output_dir_never_overwrites_input(legacy: Path, target: str) -> None:
    before = snapshot(legacy)
    source = legacy if target == "." else legacy / "models.yaml"
    code, _, err = run(str(source), "-o", str(legacy))
    assert code == 2
    assert "--in-place" in err
    assert snapshot(legacy) == before


def test_output_dir_inside_the_input_is_not_read_again(legacy: Path) -> None:
    source = legacy / "mixed"
    before = snapshot(source)
    for _ in range(2):  # the rerun rewrites the output, it does not migrate it into out/out
        code, out, err = run(str(source), "-o", str(source / "out"))
        assert (code, out) == (0, ""), err
        assert "2 of 4 document(s) converted" in err
    after = snapshot(source)
    assert sorted(after) == sorted([*before, "out/nested/catalog.yml", "out/services.yaml"])
    assert {k: v for k, v in after.items() if not k.startswith("out/")} == before
    assert validate_dir(source / "out") == (0, [])


def test_in_place_rewrites_only_changed_files(legacy: Path) -> None:
    untouched = (legacy / "runtime-configs-seed000.yaml").stat().st_mtime_ns
    code, out, err = run(str(legacy / "mixed"), "--in-place")
    assert code == 0, err
    assert out == ""
    services = documents((legacy / "mixed" / "services.yaml").read_text())
    assert services[1]["apiVersion"] == "aim.eai.amd.com/v1alpha2"
    assert (legacy / "runtime-configs-seed000.yaml").stat().st_mtime_ns == untouched
    assert validate_dir(legacy / "mixed") == (0, [])


# --------------------------------------------------------------------------------------------------
# Comments and layout


COMMENTED = """\
# Header comment.
apiVersion: aim.eai.amd.com/v1alpha1
kind: AIMService
metadata:
  name: chat  # service name
  namespace: ml-team
spec:
  model:
    name: qwen  # the model
  # pinned template
  template:
    name: t  # the one
  overrides:
    env:
    - name: A  # first var
      value: "1"
  runtimeConfigRef:
    name: team  # team config
  # replicas next
  replicas: 1
---
apiVersion: aim.eai.amd.com/v1alpha1
kind: AIMServiceTemplate
metadata:
  name: t
  namespace: ml-team
spec:
  modelName: qwen  # which model
  metric: latency  # keep latency
  hardware:
    gpu:
      requests: 2  # two devices
  modelSources:
  - name: Qwen/Qwen3-32B
    sourceURI: hf://Qwen/Qwen3-32B  # the hub
    size: 64Gi
---
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMModel
metadata:
  name: qwen
  namespace: ml-team
spec:
  image: amdenterpriseai/aim-qwen:0.8.5  # model image
"""


def test_comments_and_sequence_style_kept(tmp_path: Path) -> None:
    source = tmp_path / "commented.yaml"
    source.write_text(COMMENTED)
    code, out, err = run(str(source))
    assert code == 0, err
    for comment in (
        "# Header comment.",
        "# service name",
        "# the model",
        "# pinned template",
        "# the one",
        "# first var",
        "# team config",
        "# replicas next",
        "# which model",
        "# keep latency",
        "# two devices",
        "# the hub",
        "# model image",
    ):
        assert comment in out, comment
    lines = out.splitlines()
    assert "  runtimeConfigName: team # team config" in lines
    assert lines.index("  # replicas next") == lines.index("  replicas: 1") - 1
    assert "    - name: A  # first var" in lines  # block sequences stay at the input's indentation
    assert '      value: "1"' in lines  # quotes kept
    assert any(line.startswith("  acceleratorCount: 2") and "# two devices" in line for line in lines)
    service, profile, _ = documents(out)
    assert parse(service).api_version == "aim.eai.amd.com/v1alpha2"
    assert parse(profile).kind == "AIMProfile"


SELECTING = """\
apiVersion: aim.eai.amd.com/v1alpha1
kind: AIMService
metadata:
  name: by-criteria
  namespace: ml-team
spec:
  model:
    name: qwen  # the model
  template:
    selectionCriteria:
      precision: fp8  # eight bits
  # replicas next
  replicas: 1
---
apiVersion: aim.eai.amd.com/v1alpha1
kind: AIMService
metadata:
  name: by-model
  namespace: ml-team
spec:
  model:
    name: qwen  # the model
  # caching next
  cacheModel: true
"""


def test_selector_without_floor_lands_inside_the_comments(tmp_path: Path) -> None:
    source = tmp_path / "selecting.yaml"
    source.write_text(SELECTING)
    code, out, err = run(str(source))
    assert code == 0, err
    by_criteria, by_model = out.split("---\n")
    assert by_criteria.splitlines()[-6:] == [
        "  profile:",
        "    selector:",
        "      precision: fp8  # eight bits",
        "      minimumType: any",
        "  # replicas next",
        "  replicas: 1",
    ]
    assert by_model.splitlines()[-8:] == [
        "  model:",
        "    name: qwen  # the model",
        "  profile:",
        "    selector:",
        "      minimumType: any",
        "  # caching next",
        "  caching:",
        "    mode: Shared",
    ]
    assert all(parse(d).api_version.endswith("v1alpha2") for d in documents(out))


WITH_STATUS = """\
apiVersion: aim.eai.amd.com/v1alpha1
kind: AIMServiceTemplate
metadata:
  name: fp8
  namespace: ml-team
spec:
  modelName: qwen
  metric: latency  # keep latency
  modelSources:
    - name: Qwen/Qwen3-32B
      sourceURI: hf://Qwen/Qwen3-32B
status:
  status: Degraded
  version: 0.9.1
  conditions:
    - type: Ready
      status: "False"
---
apiVersion: aim.eai.amd.com/v1alpha1
kind: AIMServiceTemplate
metadata:
  name: bf16
  namespace: ml-team
spec:
  modelName: qwen
  modelSources:
    - name: Qwen/Qwen3-32B
      sourceURI: hf://Qwen/Qwen3-32B
status:
  status: Ready
  conditions: []
---
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMModel
metadata:
  name: qwen
  namespace: ml-team
spec:
  image: amdenterpriseai/aim-qwen:0.8.5
"""


def test_template_status_written_as_profile_availability_and_version(tmp_path: Path) -> None:
    source = tmp_path / "with-status.yaml"
    source.write_text(WITH_STATUS)
    code, out, err = run(str(source), "-o", str(tmp_path / "out"))
    assert (code, out) == (0, ""), err
    written = (tmp_path / "out" / "with-status.yaml").read_text()
    degraded, ready, _ = documents(written)
    assert degraded["status"] == {"status": "NotAvailable", "version": "0.9.1"}
    assert "status" not in ready
    assert "  metric: latency  # keep latency" in written.splitlines()
    assert validate_dir(tmp_path / "out") == (0, [])


# --------------------------------------------------------------------------------------------------
# Reports and exit codes


def test_not_convertible_report(legacy: Path) -> None:
    code, out, err = run(str(legacy / "not-convertible.yaml"))
    assert code == 1
    path = legacy / "not-convertible.yaml"
    first = "AIMService/ml-research/overrides-without-name: spec.overrides: OverridesWithoutTemplateName: "
    assert f"{path}:1: {first}" in err
    assert f"{path}:2: AIMServiceTemplate/ml-research/orphan-template: spec.modelName: ModelNotFound: " in err
    assert [d["apiVersion"] for d in documents(out)] == ["aim.eai.amd.com/v1alpha1"] * 2


def test_cluster_objects_are_reported_without_namespace(tmp_path: Path) -> None:
    source = tmp_path / "t.yaml"
    source.write_text(
        "apiVersion: aim.eai.amd.com/v1alpha1\nkind: AIMClusterServiceTemplate\nmetadata:\n  name: c\n"
        "spec:\n  modelName: nowhere\n"
    )
    code, _, err = run(str(source))
    assert code == 1
    assert f"{source}:1: AIMClusterServiceTemplate/c: spec.modelName: ModelNotFound: " in err


def test_yaml_syntax_error_is_reported_and_other_files_still_convert(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("apiVersion: [unclosed\n")
    shutil.copy(LEGACY / "mixed" / "services.yaml", tmp_path / "b.yaml")
    shutil.copy(LEGACY / "models.yaml", tmp_path / "c.yaml")
    code, out, err = run(str(tmp_path))
    assert code == 1
    assert f"{tmp_path / 'a.yaml'}:1: ?: (root): InvalidYAML: " in err
    assert len(documents(out)) == 4


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        pytest.param(["missing.yaml"], "no such file", id="missing-path"),
        pytest.param(["empty-dir"], "no *.yaml", id="directory-without-manifests"),
    ],
)
def test_usage_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str], needle: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "empty-dir").mkdir()
    code, out, err = run(*argv)
    assert (code, out) == (2, "")
    assert needle in err


def test_output_dir_and_in_place_exclude_each_other(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as caught:
        run(str(LEGACY), "-o", str(tmp_path), "--in-place")
    assert caught.value.code == 2


# --------------------------------------------------------------------------------------------------
# --in-place: every file or none


def leftovers(root: Path) -> list[str]:
    return sorted(p.name for p in root.rglob("*") if p.name.endswith(".tmp"))


@pytest.fixture
def convertible(legacy: Path) -> Path:
    """The legacy tree without the file that cannot be converted: several files to rewrite."""
    (legacy / "not-convertible.yaml").unlink()
    return legacy


def test_in_place_with_a_problem_writes_nothing(legacy: Path) -> None:
    before = snapshot(legacy)
    code, out, err = run(str(legacy), "--in-place")
    assert (code, out) == (1, "")
    assert "not-convertible.yaml:1: AIMService/ml-research/overrides-without-name" in err
    assert err.splitlines()[-1] == (
        "aim-pulumi migrate: error: 2 problem(s), nothing written: --in-place rewrites every file or none "
        "(fix them, or write what converts with -o DIR)"
    )
    assert snapshot(legacy) == before


def test_in_place_with_a_problem_reports_nothing_written_in_json(legacy: Path) -> None:
    before = snapshot(legacy)
    code, out, err = run(str(legacy), "--in-place", "--output", "json")
    assert code == 1
    report = json.loads(out)
    assert [f["written"] for f in report["files"]] == [None] * len(report["files"])
    assert any(f["converted"] for f in report["files"])
    assert "nothing written" in err
    assert snapshot(legacy) == before


def test_in_place_rewrites_every_changed_file_and_reports_them(convertible: Path) -> None:
    before = snapshot(convertible)
    code, out, err = run(str(convertible), "--in-place", "--output", "json")
    assert code == 0, err
    written = {
        Path(f["written"]).relative_to(convertible).as_posix()
        for f in json.loads(out)["files"]
        if f["written"]
    }
    after = snapshot(convertible)
    assert written == {name for name in after if after[name] != before[name]}
    assert len(written) > 1
    assert validate_dir(convertible) == (0, [])


def test_in_place_failing_while_writing_leaves_every_file_old(
    convertible: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = snapshot(convertible)
    real_fsync = os.fsync
    calls: list[int] = []

    def fsync_then_fail(fd: int) -> None:
        calls.append(fd)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync_then_fail)
    code, _, err = run(str(convertible), "--in-place")
    assert code == 1
    assert "No space left on device" in err.splitlines()[-1]
    assert snapshot(convertible) == before
    assert leftovers(convertible) == []


def test_in_place_failing_among_the_renames_converges_on_a_rerun(
    convertible: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reference = tmp_path / "reference"
    shutil.copytree(convertible, reference)
    assert run(str(reference), "--in-place")[0] == 0
    real_replace = os.replace
    calls: list[str] = []

    def replace_once(source: str, target: str) -> None:
        calls.append(target)
        if len(calls) > 1:
            raise OSError(5, "Input/output error")
        real_replace(source, target)

    with monkeypatch.context() as patched:
        patched.setattr(os, "replace", replace_once)
        code, _, err = run(str(convertible), "--in-place")
    assert code == 1
    assert "were already replaced, run again to finish" in err.splitlines()[-1]
    assert leftovers(convertible) == []
    half = snapshot(convertible)
    assert half != snapshot(reference)
    code, _, err = run(str(convertible), "--in-place")
    assert code == 0, err
    assert snapshot(convertible) == snapshot(reference)
    # And once more: migrated input is left as it is, no file is rewritten.
    times = {p: p.stat().st_mtime_ns for p in convertible.rglob("*")}
    code, _, err = run(str(convertible), "--in-place")
    assert (code, err.splitlines()[-1]) == (
        0,
        f"0 of {len(documents_in(convertible))} document(s) converted, 0 problem(s)",
    )
    assert {p: p.stat().st_mtime_ns for p in convertible.rglob("*")} == times


def documents_in(root: Path) -> list[dict[str, object]]:
    return [d for p in sorted(root.rglob("*.y*ml")) for d in documents(p.read_text())]


def test_leftover_temporary_file_is_removed_and_never_read(convertible: Path) -> None:
    mixed = convertible / "mixed"
    # What a run killed while writing leaves: a hidden, half-written copy beside its target.
    stale = mixed / ".services.yaml.x1y2z3w4.aim-pulumi.tmp"
    stale.write_text("apiVersion: aim.eai.amd.com/v1alpha1\nkind: AIMService\nmetadata: {name: half")
    models = convertible / ".models.yaml.abcdefgh.aim-pulumi.tmp"  # beside a file that does not change
    models.write_text("half")
    code, _, err = run(str(mixed), "--in-place")
    assert code == 0, err
    assert "2 of 4 document(s) converted, 0 problem(s)" in err
    assert not stale.exists()
    assert models.exists()  # outside the migrated directory: not this run's
    code, _, err = run(str(convertible), "--in-place")
    assert code == 0, err
    assert leftovers(convertible) == []


GO_SCALARS = """\
apiVersion: aim.eai.amd.com/v1alpha1
kind: AIMService
metadata:
  name: scalars
  namespace: ml-research
spec:
  model:
    name: qwen-qwen3-32b
  template:
    name: qwen3-32b-throughput
  overrides:
    engineArgs:
      sexagesimal: 1:30
      octal: 017
      octal-o: 0o17
      hex: 0x1F
      separated: 1_000
      short-yes: y
      switch: on
      dot: .5
      trailing-dot: 1.
      not-octal: 08
      binary: 0b11
  replicas: 1
"""


def test_scalars_keep_their_text_so_kubernetes_reads_the_same_values(tmp_path: Path) -> None:
    """migrate rewrites files through ruamel.yaml (YAML 1.2); it must not respell a scalar that
    Kubernetes' reader (go-yaml v2) reads differently from YAML 1.2, such as `1:30` or `017`."""
    from aim_pulumi.api.limits import load_yaml_documents

    source = tmp_path / "svc.yaml"
    source.write_text(GO_SCALARS, encoding="utf-8")
    code, out, err = run(str(source))
    assert code == 0 and "0 problem(s)" in err
    written = GO_SCALARS.split("    engineArgs:\n")[1].split("  replicas")[0]
    assert written in out
    (before,) = load_yaml_documents(GO_SCALARS)
    (after,) = load_yaml_documents(out)
    assert after["spec"]["profileOverrides"]["engineArgs"] == before["spec"]["overrides"]["engineArgs"]
    assert before["spec"]["overrides"]["engineArgs"]["sexagesimal"] == "1:30"


def test_admission_reads_values_as_kubernetes_does_and_the_file_keeps_its_text(tmp_path: Path) -> None:
    """`enabled: yes` is a boolean to Kubernetes (and admits); a quoted "yes" stays a name."""
    service = tmp_path / "svc.yaml"
    service.write_text(
        "apiVersion: aim.eai.amd.com/v1alpha1\nkind: AIMService\nmetadata:\n  name: chat\n"
        "  namespace: ml-team\nspec:\n  model:\n    name: qwen\n  routing:\n    enabled: yes\n"
        '  template:\n    name: "yes"\n'
    )
    code, out, err = run(str(service))
    assert code == 0, err
    assert "    enabled: yes\n" in out and '  profile:\n    name: "yes"\n' in out


# --------------------------------------------------------------------------------------------------
# Inline custom models: --custom-models

INLINE = """\
apiVersion: aim.eai.amd.com/v1alpha1
kind: AIMService
metadata: {name: support-bot, namespace: ml-team}
spec:
  model:
    custom:
      baseImage: ghcr.io/silogen/aim-base:0.11
      modelSources:
        - {modelId: acme/support-model, sourceUri: "s3://models/support-model", size: 16Gi}
      hardware: {gpu: {requests: 2}}
  template: {allowUnoptimized: true}
  caching: {mode: Shared}
---
apiVersion: aim.eai.amd.com/v1alpha1
kind: AIMService
metadata: {name: support-bot-eu, namespace: ml-team}
spec:
  model:
    custom:
      baseImage: ghcr.io/silogen/aim-base:0.11
      modelSources:
        - {modelId: acme/support-model, sourceUri: "s3://models/support-model", size: 16Gi}
      hardware: {gpu: {requests: 2}}
  template: {allowUnoptimized: true}
"""


def test_custom_models_derivation_writes_base_derivations_and_says_what_changes(tmp_path: Path) -> None:
    """`--custom-models derivation`: the services name a base-derivation AIMModel (written once, after
    the first, with the base image's model), and stderr has one note per service naming the profile
    that changes and what follows from it; the output is byte-identical on a second run."""
    source = tmp_path / "inline.yaml"
    source.write_text(INLINE)
    code, out, err = run(str(source), "--custom-models", "derivation")
    assert code == 0, err
    docs = documents(out)
    assert [d["kind"] for d in docs] == ["AIMService", "AIMModel", "AIMModel", "AIMService"]
    base, model = docs[1], docs[2]
    assert base["spec"] == {"image": "ghcr.io/silogen/aim-base:0.11"}
    profiles = model["spec"]["profiles"]  # type: ignore[index]
    assert profiles["derivedFrom"]["selector"]["role"] == "base"
    assert profiles["overrides"]["aimId"] == "acme/support-model"
    assert docs[0]["spec"]["model"] == docs[3]["spec"]["model"] == {"name": model["metadata"]["name"]}  # type: ignore[index]
    assert [p for d in docs for p in admission_problems(d)] == []
    notes = [line for line in err.splitlines() if line.startswith("note: ")]
    assert [n.split(": ")[1:3] for n in notes] == [
        [f"{source}:1", "AIMService/ml-team/support-bot"],
        [f"{source}:2", "AIMService/ml-team/support-bot-eu"],
    ]
    assert "the weights download again" in notes[0] and "no cache changes" in notes[1]
    assert run(str(source), "--custom-models", "derivation") == (code, out, err)
    code, report, _ = run(str(source), "--custom-models", "derivation", "--output", "json")
    assert code == 0 and json.loads(report)["notices"] == [n.removeprefix("note: ") for n in notes]


def test_custom_models_default_keeps_names_and_notes_nothing(tmp_path: Path) -> None:
    source = tmp_path / "inline.yaml"
    source.write_text(INLINE)
    code, out, err = run(str(source))
    assert code == 0, err
    assert "note: " not in err
    assert [d["kind"] for d in documents(out)] == ["AIMService", "AIMModel", "AIMProfile", "AIMService"]
    assert run(str(source), "--custom-models", "keep-names") == (code, out, err)


def test_custom_models_unknown_form_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        run(str(tmp_path), "--custom-models", "rename")
    assert info.value.code == 2
    assert "keep-names" in capsys.readouterr().err
