"""`aim-pulumi plan --policy-pack DIR`: the pack's own policies, configured as the Pulumi CLI configures
them, on the offline plan; a mandatory violation fails the plan naming the policy and the service."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pulumi_policy import (
    EnforcementLevel,
    PolicyConfigSchema,
    ReportViolation,
    ResourceValidationArgs,
    ResourceValidationPolicy,
)

from aim_pulumi.cli.__main__ import main
from aim_pulumi.policy import GUARDRAILS, AIMPolicyPack, Resource, guardrail_policies
from aim_pulumi.policy.offline import PolicyPackError, evaluate, load_config, load_pack, reconcile

ROOT = Path(__file__).resolve().parents[2]
PACK = ROOT / "policy"
QUICKSTART = ROOT / "examples" / "quickstart"


def test_the_repository_pack_serves_every_guardrail_at_its_default_level() -> None:
    pack = load_pack(PACK)
    assert pack.name == "aim-guardrails"
    assert [(p.name, p.enforcement_level.value if p.enforcement_level else None) for p in pack.policies] == [
        (g.name, g.enforcement) for g in GUARDRAILS
    ]


def test_a_directory_that_is_not_a_pack_or_defines_no_pack_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(PolicyPackError, match=r"not a policy pack \(no PulumiPolicy\.yaml\)"):
        load_pack(tmp_path)
    (tmp_path / "PulumiPolicy.yaml").write_text("runtime: python\n")
    (tmp_path / "__main__.py").write_text("x = 1\n")
    with pytest.raises(PolicyPackError, match="defines no `pack = AIMPolicyPack"):
        load_pack(tmp_path)
    (tmp_path / "__main__.py").write_text("raise ValueError('broken pack')\n")
    with pytest.raises(PolicyPackError, match="ValueError: broken pack"):
        load_pack(tmp_path)


def test_configuration_is_reconciled_as_the_cli_does_defaults_then_the_pack_then_the_file() -> None:
    pack = AIMPolicyPack(
        "p",
        guardrail_policies(only=["aim-gpu-quota", "aim-allowed-images"]),
        initial_config={"all": "advisory", "aim-gpu-quota": {"maxPerService": 8}},
    )
    levels = reconcile(pack, {})
    assert levels["aim-gpu-quota"] == (
        "advisory",
        {"maxPerNamespace": {}, "count": "max", "maxPerService": 8},
    )
    assert levels["aim-allowed-images"] == (
        "advisory",
        {"registries": [], "tagPatterns": [], "forbiddenTags": ["latest"]},
    )
    given = {"all": "disabled", "aim-gpu-quota": {"enforcementLevel": "mandatory", "maxPerService": 2}}
    levels = reconcile(pack, given)
    assert levels["aim-gpu-quota"] == (
        "mandatory",
        {"maxPerNamespace": {}, "count": "max", "maxPerService": 2},
    )
    assert levels["aim-allowed-images"][0] == "disabled"


def test_a_configuration_its_schema_refuses_names_the_policy_and_the_property() -> None:
    pack = AIMPolicyPack("p", guardrail_policies(only=["aim-gpu-quota"]))
    with pytest.raises(
        PolicyPackError, match="aim-gpu-quota: maxPerService: 'four' is not of type 'integer'"
    ):
        reconcile(pack, {"aim-gpu-quota": {"maxPerService": "four"}})
    with pytest.raises(PolicyPackError, match="aim-gpu-quota: 'sometimes' is not an enforcement level"):
        reconcile(pack, {"aim-gpu-quota": "sometimes"})
    with pytest.raises(ValueError, match="no AIM guardrail named aim-gpus"):
        guardrail_policies(only=["aim-gpus"])


def test_the_version_2_configuration_file_keeps_policies_apart(tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"version": 2, "policies": {"aim-gpu-quota": "mandatory"}}))
    assert load_config(path) == {"aim-gpu-quota": "mandatory"}
    path.write_text(json.dumps({"version": 3}))
    with pytest.raises(PolicyPackError, match='"version" must be 2'):
        load_config(path)


def test_a_packs_own_resource_policy_runs_offline_too() -> None:
    def validate(args: ResourceValidationArgs, report: ReportViolation) -> None:
        if args.resource_type.endswith(":Job") and args.get_config()["noJobs"]:
            report(f"no Jobs, found {args.name}")

    own = ResourceValidationPolicy(
        "no-jobs",
        "no Jobs",
        validate,
        EnforcementLevel.MANDATORY,
        config_schema=PolicyConfigSchema({"noJobs": {"type": "boolean", "default": True}}),
    )
    pack = AIMPolicyPack("p", [own])
    job = Resource("kubernetes:batch/v1:Job", "urn:job", "download", {})
    other = Resource("kubernetes:core/v1:ConfigMap", "urn:cm", "cm", {})
    verdicts = evaluate(pack, [job, other])
    assert [(v.policy, v.enforcement, v.message, v.urn) for v in verdicts] == [
        ("no-jobs", "mandatory", "no Jobs, found download", "urn:job")
    ]
    assert evaluate(pack, [job], {"no-jobs": {"noJobs": False}}) == []


def plan(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["plan", str(QUICKSTART), "--no-color", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def config_file(tmp_path: Path, config: dict[str, Any]) -> str:
    path = tmp_path / "policy-config.json"
    path.write_text(json.dumps(config))
    return str(path)


def test_plan_fails_on_a_mandatory_violation_naming_the_policy_and_the_service(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = config_file(
        tmp_path,
        {
            "all": "disabled",
            "aim-allowed-images": {"enforcementLevel": "mandatory", "registries": ["ghcr.io"]},
        },
    )
    code, out, err = plan(["--policy-pack", str(PACK), "--policy-pack-config", config], capsys)
    assert code == 1, err
    assert out.split("\nPolicies: ")[1].splitlines() == [
        f"aim-guardrails ({PACK})",
        "  [mandatory] aim-allowed-images: AIMService ml-team/qwen-chat: InferenceService "
        "ml-team/qwen-chat-faa5534a spec.predictor.containers[0]: image vllm/vllm-openai:v0.17.1-cu130 is "
        "not from an allowed registry (ghcr.io)",
        "  1 violation(s), 1 mandatory",
    ]


def test_plan_passes_with_advisory_violations_and_prints_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = config_file(tmp_path, {"all": "disabled", "aim-images-pinned-by-digest": "advisory"})
    code, out, _ = plan(["--policy-pack", str(PACK), "--policy-pack-config", config], capsys)
    assert code == 0
    tail = out.split("\nPolicies: ")[1].splitlines()
    assert [line.split(":")[0] for line in tail[1:-1]] == ["  [advisory] aim-images-pinned-by-digest"] * 2
    assert tail[-1] == "  2 violation(s), 0 mandatory"


def test_plan_refuses_a_bad_pack_or_config_before_running_the_program(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = plan(["--policy-pack", str(tmp_path)], capsys)
    assert (code, out) == (2, "")
    assert err == f"aim-pulumi plan: error: {tmp_path}: not a policy pack (no PulumiPolicy.yaml)\n"
    config = config_file(tmp_path, {"aim-gpu-quota": {"count": "all"}})
    code, out, err = plan(["--policy-pack", str(PACK), "--policy-pack-config", config], capsys)
    assert code == 2
    assert err.startswith("aim-pulumi plan: error: aim-gpu-quota: count: 'all' is not one of ['max', 'min']")
    code, _, err = plan(["--policy-pack-config", config], capsys)
    assert (code, err) == (2, "aim-pulumi plan: error: --policy-pack-config needs --policy-pack DIR\n")
