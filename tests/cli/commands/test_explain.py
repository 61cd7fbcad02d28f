"""`aim-pulumi explain`: the candidate table, the runtime-config layers and the env layers of one service."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aim_pulumi.cli.__main__ import main

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples"
PROGRAMS = ROOT / "tests" / "fixtures" / "programs"


def explain(capsys: pytest.CaptureFixture[str], program: Path, service: str) -> tuple[int, str, str]:
    code = main(["explain", str(program), "--service", service])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def row(out: str, first_cell: str) -> list[str]:
    """The cells of the table row starting with `first_cell` (columns are two or more spaces apart)."""
    import re

    for line in out.splitlines():
        cells = re.split(r"\s{2,}", line.strip())
        if cells and cells[0] == first_cell:
            return cells
    raise AssertionError(f"no row {first_cell!r} in:\n{out}")


def test_quickstart_candidates_and_layers(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = explain(capsys, EXAMPLES / "quickstart", "ml-team/qwen-chat")
    assert (code, err) == (0, "")
    assert "shape Model, model qwen3-8b" in out
    assert "floor optimized (implicit), selection pass 2" in out
    winner = row(out, "1")
    assert winner[1].startswith("qwen3-8b-nvidia-vllm-")
    assert winner[2:7] == ["AIMProfile", "Namespace", "yes", "yes", "unoptimized"]
    assert winner[-1] == "selected"
    fallback = row(out, "model.profileGeneration.fallbacks[nvidia-vllm]")
    assert fallback[2] == "AIMClusterRuntimeConfig default (embedded default)"
    assert row(out, "routing.gatewayRef")[2] == "AIMService spec"
    assert row(out, "AIM_VLLM_MODEL")[1:3] == [
        '"/workspace/cache/Qwen/Qwen3-8B"',
        "vLLM (profile engineEnv, model, offline mode)",
    ]


def test_namespace_layers_override_the_cluster(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = explain(capsys, EXAMPLES / "multi-team", "team-a/assistant")
    assert code == 0
    assert (
        "Runtime config: AIMRuntimeConfig team-a/default; "
        "layers, lowest first: AIMClusterRuntimeConfig default, AIMRuntimeConfig team-a/default"
    ) in out
    path = row(out, "routing.pathTemplate")
    assert path[2:] == ["AIMRuntimeConfig team-a/default", "AIMClusterRuntimeConfig default"]
    assert row(out, "routing.requestTimeout")[2:] == ["AIMClusterRuntimeConfig default", "-"]
    assert row(out, "VLLM_LOGGING_LEVEL")[1:] == [
        '"DEBUG"',
        "AIMRuntimeConfig team-a/default",
        "AIMClusterRuntimeConfig default",
    ]


def test_cluster_only_namespace(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = explain(capsys, EXAMPLES / "multi-team", "team-b/assistant")
    assert code == 0
    assert row(out, "routing.pathTemplate")[2:] == ["AIMClusterRuntimeConfig default", "-"]
    assert row(out, "VLLM_LOGGING_LEVEL")[1:3] == ['"INFO"', "AIMClusterRuntimeConfig default"]


def test_ranking_names_the_dropped_and_the_deciding_filter(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = explain(capsys, PROGRAMS / "floor-excluded", "ml-team/ok")
    assert code == 1  # a later service of the same program fails; this one is still explained
    assert row(out, "1")[1] == "qwen3-8b-fp16-optimized"
    assert row(out, "-")[1:] == [
        "qwen3-8b-fp8-unoptimized",
        "AIMProfile",
        "Namespace",
        "yes",
        "no",
        "unoptimized",
        "1.0.0",
        "dropped by floor",
    ]


def test_failed_selection_shows_each_candidate_and_its_filter(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = explain(capsys, PROGRAMS / "floor-excluded", "ml-team/chat")
    assert code == 1
    assert (
        "resolution failed: tests/fixtures/programs/floor-excluded/__main__.py:21: "
        "AIMService/ml-team/chat: spec.profile.selector: ProfileNotFound" in out
    )
    assert "Candidates (2 reachable, none selected)" in out
    outcomes = {
        line.split()[1]: line.split("  ")[-1].strip() for line in out.splitlines() if line.startswith("  -  ")
    }
    assert outcomes == {
        "qwen3-8b-fp16-optimized": "dropped by precision",
        "qwen3-8b-fp8-unoptimized": "dropped by floor (autoSelectionPolicy is not any)",
    }
    assert err.startswith("error: ")


def test_overlay_and_secret_env(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = explain(capsys, EXAMPLES / "custom-weights", "support/support-bot")
    assert code == 0
    assert "shape Name" in out
    assert row(out, "AIM_MODEL_ID")[1] == '"example-org/qwen3-32b-support-ft"'
    assert row(out, "HF_TOKEN")[1:3] == ["valueFrom secretKeyRef hf-token/token", "AIMService spec.env"]


@pytest.mark.parametrize(
    ("program", "service", "code", "message"),
    [
        pytest.param(
            EXAMPLES / "quickstart",
            "ml-team/nope",
            1,
            "error: no AIMService ml-team/nope in the plan; services: ml-team/qwen-chat\n",
            id="unknown",
        ),
        pytest.param(
            PROGRAMS / "floor-excluded",
            "ml-team/later",
            1,
            "error: AIMService ml-team/later was not planned; the plan stopped at: "
            "tests/fixtures/programs/floor-excluded/__main__.py:21: AIMService/ml-team/chat: ",
            id="not-reached-by-a-failed-plan",
        ),
        pytest.param(EXAMPLES / "quickstart", "a/b/c", 2, "--service expects NAMESPACE/NAME", id="malformed"),
    ],
)
def test_service_argument(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    program: Path,
    service: str,
    code: int,
    message: str,
) -> None:
    monkeypatch.chdir(ROOT)
    result, _, err = explain(capsys, program, service)
    assert result == code
    assert message in err


def test_failed_template_pipeline_service_shows_no_profile_candidates(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = explain(capsys, PROGRAMS / "template-missing-model", "ml-team/chat")
    assert code == 1
    lines = out.splitlines()
    assert lines[1].startswith(
        "  resolution failed: tests/fixtures/programs/template-missing-model/__main__.py:3: "
        "AIMService/ml-team/chat: spec.model.name: ModelNotFound: "
    )
    assert lines[2] == (
        "  template pipeline: the service has no spec.profile (annotate "
        "aim.eai.amd.com/reconciler-pipeline: profile to resolve a profile by model instead); "
        "no profile is considered"
    )
    assert "Candidates" not in out
    assert err.startswith("error: ")


def test_template_pipeline_service(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = explain(
        capsys, ROOT / "tests" / "fixtures" / "manifests" / "legacy-template", "ml-research/chat"
    )
    assert (code, err) == (0, "")
    assert out.splitlines()[1] == "  template pipeline: template qwen3-32b-latency of model qwen-qwen3-32b"
    assert "Candidates" not in out
    assert row(out, "AIM_MODEL_ID")[1] == '"Qwen/Qwen3-32B"'


def test_a_derived_profile_shows_its_set_source_overrides_and_image(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = explain(capsys, PROGRAMS / "finetune", "fine-tune/support-bot")
    assert (code, err) == (0, "")
    section = out.split("Derived profile AIMProfile/fine-tune/qwen3-8b-support-profiles-", 1)[1]
    lines = section.split("\n\n", 1)[0].splitlines()
    assert lines[1].startswith("  derived by AIMProfileSet/fine-tune/qwen3-8b-support-profiles-")
    assert "(the child set of model qwen3-8b-support), versionPolicy latest" in lines[1]
    assert lines[2] == "  from AIMProfile/fine-tune/qwen3-8b-0-8-5 (version 0.8.5)"
    assert lines[3] == (
        "  image docker.io/amdenterpriseai/aim-base:0.8: rebased, new weights: the source's base image "
        "docker.io/amdenterpriseai/aim-base:0.8.5 at MAJOR.MINOR, on the source's registry"
    )
    assert lines[4].startswith('  overrides.modelSources: [{"modelId":"acme/qwen3-8b-support"')
    code = main(
        ["explain", str(PROGRAMS / "finetune"), "--service", "fine-tune/support-bot", "--output", "json"]
    )
    document = json.loads(capsys.readouterr().out)
    assert code == 0
    assert document["derivation"]["source"] == "AIMProfile/fine-tune/qwen3-8b-0-8-5"
    assert document["derivation"]["imageRule"] == "rebased"


def test_a_declared_profile_has_no_derivation_section(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = explain(capsys, EXAMPLES / "quickstart", "ml-team/qwen-chat")
    assert code == 0 and "Derived profile" not in out
