"""Whole-program resolution: declaration order never matters, and one failure registers nothing."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from aim_pulumi.cli.__main__ import main
from aim_pulumi.offline.engine import run_program
from aim_pulumi.offline.recording import PlanRecording
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resources.program import AIMProgramError

from .catalog import deployed

HEADER = "from aim_pulumi import AIMClusterProfile, AIMModel, AIMProfile, AIMRuntimeConfig, AIMService\n"
PROFILE = (
    '{{"aimId": "qwen/qwen3-32b", "image": "ghcr.io/amd/qwen3:{tag}", "type": "optimized", '
    '"precision": "{precision}", "acceleratorVendor": "amd", "acceleratorType": "gpu", '
    '"acceleratorModel": "MI300X", "acceleratorCount": 1{extra}, '
    '"modelSources": [{{"modelId": "qwen/qwen3-32b", "sourceUri": "hf://qwen/qwen3-32b", "size": "20Gi"}}]}}'
)
LABELS = '{"aim.eai.amd.com/source-model": "qwen"}'
PIPELINE = '{"aim.eai.amd.com/reconciler-pipeline": "profile"}'
ROUND_SECRET = "hf-secret-of-the-round"

# Each entry declares one object; the programs below put them in different orders.
SERVICES = {
    "chat": (
        'AIMService("chat", {"namespace": "ml-team", "annotations": ' + PIPELINE + ", "
        '"spec": {"model": {"name": "qwen"}}})'
    ),
    "pinned": (
        'AIMService("pinned", {"namespace": "ml-team", "spec": {"profile": {"name": "qwen-fp16"}, '
        '"caching": {"mode": "Shared"}}})'
    ),
    "pinned-too": (
        'AIMService("pinned-too", {"namespace": "ml-team", "spec": {"profile": {"name": "qwen-fp16"}, '
        '"caching": {"mode": "Shared"}}})'
    ),
}
CATALOG = {
    "model": 'AIMModel("qwen", {"namespace": "ml-team", "spec": {"image": "ghcr.io/amd/qwen3:0.8.5"}})',
    "old": (
        'AIMProfile("qwen-old", {"namespace": "ml-team", "labels": ' + LABELS + ", "
        '"spec": ' + PROFILE.format(tag="0.8.5", precision="fp8", extra=', "primary": True') + "})"
    ),
    # The newest profile: same tier as `old` except its version, so it wins a fresh ranking.
    "newest": (
        'AIMProfile("qwen-new", {"namespace": "ml-team", "labels": ' + LABELS + ", "
        '"spec": ' + PROFILE.format(tag="0.9.1", precision="fp8", extra=', "primary": True') + "})"
    ),
    "fp16": (
        'AIMProfile("qwen-fp16", {"namespace": "ml-team", "labels": ' + LABELS + ", "
        '"spec": ' + PROFILE.format(tag="0.8.5", precision="fp16", extra="") + "})"
    ),
    "cluster": (
        'AIMClusterProfile("qwen-cluster", {"labels": ' + LABELS + ", "
        '"spec": ' + PROFILE.format(tag="0.7.0", precision="fp8", extra="") + "})"
    ),
    "routing": (
        'AIMRuntimeConfig("ml-team-default", {"name": "default", "namespace": "ml-team", "spec": '
        '{"routing": {"enabled": True, "gatewayRef": {"name": "gw", "namespace": "gateways"}}, '
        '"env": [{"name": "HF_TOKEN", "value": pulumi.Output.secret("' + ROUND_SECRET + '")}]}})'
    ),
}


def _orders() -> dict[str, list[str]]:
    services, catalog = list(SERVICES), list(CATALOG)
    everything = services + catalog
    shuffled = list(everything)
    random.Random(1234).shuffle(shuffled)
    interleaved = [
        x for pair in zip(catalog, services + [""] * len(catalog), strict=False) for x in pair if x
    ]
    return {
        "catalog-first": catalog + services,
        "services-first": services + catalog,
        "interleaved": interleaved,
        "shuffled": shuffled,
        "reversed": list(reversed(everything)),
    }


ORDERS = _orders()


def write_program(directory: Path, order: list[str], entries: dict[str, str] | None = None) -> Path:
    known = entries or {**SERVICES, **CATALOG}
    directory.mkdir(parents=True)
    (directory / "Pulumi.yaml").write_text("name: orders\nruntime: python\n")
    # The routing config's env holds a Pulumi secret; one header line keeps the line numbers.
    header = ("import pulumi; " if "routing" in order else "") + HEADER
    (directory / "__main__.py").write_text(header + "\n".join(known[key] for key in order) + "\n")
    return directory


def registrations(rec: PlanRecording) -> list[tuple[str, str, Any]]:
    return sorted(((r.type, r.name, r.inputs) for r in rec.resources), key=lambda r: (r[0], r[1]))


def statuses(rec: PlanRecording) -> dict[str, Any]:
    return {r.name: rec.outputs_of(r.name).get("status") for r in rec.resources if r.type.startswith("aim:")}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[PlanRecording, str]]:
    out: dict[str, tuple[PlanRecording, str]] = {}
    for label, order in ORDERS.items():
        program = write_program(tmp_path_factory.mktemp("orders") / label, order)
        out[label] = (run_program(program, project="orders", stack="dev"), str(program))
    return out


def test_the_orders_really_differ() -> None:
    assert len({tuple(order) for order in ORDERS.values()}) == len(ORDERS)
    assert ORDERS["services-first"][0] == "chat" and ORDERS["services-first"][-1] == "routing"


def test_every_order_registers_the_same_resources(runs: dict[str, tuple[PlanRecording, str]]) -> None:
    baseline = registrations(runs["catalog-first"][0])
    assert any(r[0].endswith("InferenceService") for r in baseline)
    for label, (rec, _) in runs.items():
        assert registrations(rec) == baseline, label


def test_every_order_reads_the_runtime_config_secret_by_reference(
    runs: dict[str, tuple[PlanRecording, str]],
) -> None:
    for label, (rec, _) in runs.items():
        for isvc in rec.of_type("kubernetes:serving.kserve.io/v1beta1:InferenceService"):
            env = {e["name"]: e for e in isvc.manifest["spec"]["predictor"]["containers"][0]["env"]}
            secret = f"{isvc.manifest['metadata']['name']}-env"
            assert env["HF_TOKEN"] == {
                "name": "HF_TOKEN",
                "valueFrom": {"secretKeyRef": {"name": secret, "key": "HF_TOKEN"}},
            }, label
        holders = {r.type for r in rec.resources if ROUND_SECRET in json.dumps(r.inputs)}
        assert holders == {"kubernetes:core/v1:Secret"}, label


def test_every_order_exports_the_same_statuses(runs: dict[str, tuple[PlanRecording, str]]) -> None:
    baseline = statuses(runs["catalog-first"][0])
    assert baseline["chat"]["resolvedProfile"]["name"] == "qwen-new"
    for label, (rec, _) in runs.items():
        assert statuses(rec) == baseline, label


def test_a_services_first_program_binds_the_newest_profile_and_gets_its_route(
    runs: dict[str, tuple[PlanRecording, str]],
) -> None:
    rec, _ = runs["services-first"]
    status = statuses(rec)["chat"]
    assert status["resolvedProfile"]["name"] == "qwen-new", "declared after the service, still the winner"
    assert status["resolvedRuntimeConfig"]["kind"] == "AIMRuntimeConfig"
    assert status["routing"]["path"].startswith("/ml-team/")
    assert "chat-route" in rec.names()
    assert rec.by_name("chat-isvc").inputs["metadata"]["labels"]["aim.eai.amd.com/profile"] == "qwen-new"


def test_a_shared_cache_is_declared_once_whatever_the_order(
    runs: dict[str, tuple[PlanRecording, str]],
) -> None:
    for label, (rec, _) in runs.items():
        caches = rec.of_type("aim:index:AIMSharedCache")
        assert len(caches) == 1, label
        assert caches[0].parent == "" or "Stack" in caches[0].parent, "owned by the stack, not a service"


def test_every_order_explains_the_same_decision(
    runs: dict[str, tuple[PlanRecording, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    texts = {}
    for label, (_, program) in runs.items():
        code = main(["explain", program, "--service", "ml-team/chat", "--no-color"])
        captured = capsys.readouterr()
        assert (code, captured.err) == (0, ""), label
        texts[label] = captured.out
    assert "qwen-new" in texts["catalog-first"]
    assert len(set(texts.values())) == 1


# ----------------------------------------------------------------------------- all or nothing

BROKEN = {
    "missing-profile": (
        'AIMService("broken", {"namespace": "ml-team", "spec": {"profile": {"name": "nope"}}})'
    ),
    "admission": (
        'AIMService("invalid", {"namespace": "ml-team", '
        '"spec": {"profile": {"name": "qwen-fp16"}, "replicas": -1}})'
    ),
    "size-unknown": (
        'AIMService("sizeless", {"namespace": "ml-team", "spec": {"profile": {"name": "qwen-nosize"}, '
        '"caching": {"mode": "Dedicated"}}})'
    ),
}
NO_SIZE = (
    'AIMProfile("qwen-nosize", {"namespace": "ml-team", "spec": {"aimId": "qwen/qwen3-32b", '
    '"image": "ghcr.io/amd/qwen3:0.8.5", "modelSources": [{"modelId": "q/q", "sourceUri": "hf://q/q"}]}})'
)


@pytest.mark.parametrize("position", ["first", "middle", "last"])
def test_one_broken_service_among_good_ones_registers_no_child(
    failed_run: Any, tmp_path: Path, position: str
) -> None:
    good = list(SERVICES)
    broken = ["missing-profile"]
    order = {
        "first": [*broken, *good],
        "middle": [good[0], *broken, *good[1:]],
        "last": [*good, *broken],
    }[position]
    entries = {**SERVICES, **CATALOG, **BROKEN}
    program = write_program(tmp_path / "p", [*CATALOG, *order], entries)

    error, registered = failed_run(program)

    assert deployed(registered) == []
    assert error.reason == "ProfileNotFound"
    assert error.object_ref == "AIMService/ml-team/broken"
    assert "p/__main__.py:" in error.declared_at.filename + ":"


def test_every_failing_service_is_named_with_its_field_reason_and_line(
    failed_run: Any, tmp_path: Path
) -> None:
    entries = {**SERVICES, **CATALOG, **BROKEN, "nosize": NO_SIZE}
    order = ["missing-profile", *CATALOG, "chat", "admission", "nosize", "pinned", "size-unknown"]
    program = write_program(tmp_path / "p", order, entries)

    error, registered = failed_run(program)

    assert deployed(registered) == []
    assert isinstance(error, AIMProgramError)
    lines = str(error).splitlines()[1:]
    source = (program / "__main__.py").read_text().splitlines()
    line_of = {
        name: next(i + 1 for i, text in enumerate(source) if f'AIMService("{name}"' in text)
        for name in ("broken", "invalid", "sizeless")
    }
    assert len(lines) == 3
    expected = {
        "broken": "AIMService/ml-team/broken: spec.profile.name: ProfileNotFound: ",
        "invalid": "AIMService/ml-team/invalid: spec.replicas: ",
        "sizeless": "AIMService/ml-team/sizeless: ",
    }
    for line, name in zip(lines, ("broken", "invalid", "sizeless"), strict=True):
        assert (
            line.startswith(f"{program / '__main__.py'}:{line_of[name]}: ")
            or f"__main__.py:{line_of[name]}: " in line
        )
        assert expected[name] in line
    assert "CacheSizeUnknown" in lines[2]


@pytest.mark.parametrize("position", ["first", "middle", "last"])
def test_one_broken_service_in_aim_yaml_registers_no_child(
    failed_run: Any, tmp_path: Path, position: str
) -> None:
    import yaml

    from aim_pulumi import AIMStack

    def service(name: str, profile: str) -> dict[str, Any]:
        return {
            "apiVersion": "aim.eai.amd.com/v1alpha2",
            "kind": "AIMService",
            "metadata": {"name": name, "namespace": "ml-team"},
            "spec": {"profile": {"name": profile}},
        }

    profile = {
        "apiVersion": "aim.eai.amd.com/v1alpha2",
        "kind": "AIMProfile",
        "metadata": {"name": "p", "namespace": "ml-team"},
        "spec": {"aimId": "qwen/qwen3-32b", "image": "ghcr.io/amd/qwen3:0.8.5"},
    }
    names = {"first": "a-broken", "middle": "m-broken", "last": "z-broken"}
    namespace = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "ml-team"}}
    docs = [
        namespace,
        profile,
        service("b-good", "p"),
        service("y-good", "p"),
        service(names[position], "missing"),
    ]
    (tmp_path / "aim.yaml").write_text(yaml.safe_dump_all(docs))

    error, registered = failed_run(lambda: AIMStack("prod", {"path": str(tmp_path)}))

    assert deployed(registered) == [], "not even the directory's Namespace"
    assert error.reason == "ProfileNotFound" and error.object_ref == f"AIMService/ml-team/{names[position]}"

    docs.append(service("n-broken-too", "missing-too"))
    (tmp_path / "aim.yaml").write_text(yaml.safe_dump_all(docs))
    error, registered = failed_run(lambda: AIMStack("prod", {"path": str(tmp_path)}))

    assert deployed(registered) == []
    assert isinstance(error, AIMProgramError)
    named = sorted(f.object_ref for f in error.failures)  # type: ignore[attr-defined]
    assert named == sorted([f"AIMService/ml-team/{names[position]}", "AIMService/ml-team/n-broken-too"])
    assert all("ProfileNotFound" in line for line in str(error).splitlines()[1:])


def test_a_catalog_object_declared_inside_an_apply_is_rejected(failed_run: Any) -> None:
    import pulumi

    from aim_pulumi import AIMProfile, AIMService

    def program() -> None:
        AIMProfile("p", {"namespace": "ml-team", "spec": {"aimId": "a/b", "image": "i:1"}})
        AIMService("chat", {"namespace": "ml-team", "spec": {"profile": {"name": "p"}}})
        pulumi.Output.from_input("x").apply(
            lambda _: AIMProfile("late", {"namespace": "ml-team", "spec": {"aimId": "a/b", "image": "i:2"}})
        )

    error, _ = failed_run(program)

    assert error.reason == "DeclaredAfterResolution"
    assert error.object_ref == "AIMProfile/ml-team/late"
    assert "declare profiles, models and runtime configs in the program body" in str(error)


def test_a_service_declared_inside_an_apply_resolves_against_the_whole_catalog(recording: Any) -> None:
    import pulumi

    from aim_pulumi import AIMProfile, AIMService

    def program() -> None:
        pulumi.Output.from_input("x").apply(
            lambda _: AIMService("late", {"namespace": "ml-team", "spec": {"profile": {"name": "p"}}})
        )
        AIMProfile("p", {"namespace": "ml-team", "spec": {"aimId": "a/b", "image": "i:1"}})

    rec = recording(program)

    assert rec.outputs_of("late")["status"]["resolvedProfile"]["name"] == "p"
    assert "late-isvc" in rec.names()


def test_the_sdk_still_ends_the_program_body_where_resolution_hooks_in() -> None:
    import pulumi

    from aim_pulumi.resources import _sdk

    assert _sdk.sdk_supports_program_end(), (
        f"pulumi {pulumi.__version__ if hasattr(pulumi, '__version__') else '?'}: Stack._finish or "
        f"_outputs_registered changed since {_sdk.CHECKED_SDK_VERSION}; update aim_pulumi/resources/_sdk.py"
    )


# ------------------------------------------------------------------------- namespace as an Output


def _profile_in(namespace: Any) -> None:
    from aim_pulumi import AIMProfile

    AIMProfile("p", {"namespace": namespace, "spec": {"aimId": "a/b", "image": "i:1"}})


def _unknown() -> Any:
    import asyncio

    import pulumi

    loop = asyncio.get_event_loop()
    value: asyncio.Future[Any] = loop.create_future()
    known: asyncio.Future[bool] = loop.create_future()
    value.set_result(None)
    known.set_result(False)
    return pulumi.Output(set(), value, known)


def test_a_namespace_output_resolves_and_the_children_wait_for_the_namespace(recording: Any) -> None:
    import pulumi_kubernetes as k8s

    from aim_pulumi import AIMService

    def program() -> None:
        ns = k8s.core.v1.Namespace("ml-team", metadata={"name": "ml-team"})
        AIMService("chat", {"namespace": ns.metadata.name, "spec": {"profile": {"name": "p"}}})
        _profile_in("ml-team")

    rec = recording(program)

    isvc = rec.by_name("chat-isvc")
    assert isvc.inputs["metadata"]["namespace"] == "ml-team"
    assert rec.by_name("ml-team").urn in isvc.dependencies
    status = rec.outputs_of("chat")["status"]
    assert status["resolvedProfile"] == {**status["resolvedProfile"], "name": "p", "namespace": "ml-team"}


def test_an_unknown_namespace_in_a_preview_leaves_the_children_unknown(recording: Any) -> None:
    from aim_pulumi import AIMService

    def program() -> None:
        AIMService("chat", {"namespace": _unknown(), "spec": {"profile": {"name": "p"}}})
        AIMService("other", {"namespace": "ml-team", "spec": {"profile": {"name": "p"}}})
        _profile_in("ml-team")

    rec = recording(program)

    assert "chat-isvc" not in rec.names(), "children of an unknown namespace are not shown"
    assert "other-isvc" in rec.names(), "the rest of the program is planned"
    assert any("namespace is not known in this preview" in m for m in rec.messages("info"))


def test_catalog_objects_in_a_namespace_output_join_the_catalog(recording: Any) -> None:
    import pulumi_kubernetes as k8s

    from aim_pulumi import AIMRuntimeConfig, AIMService

    def program() -> None:
        AIMService("chat", {"namespace": "team-b", "spec": {"profile": {"name": "p"}}})
        ns = k8s.core.v1.Namespace("team-b", metadata={"name": "team-b"})
        _profile_in(ns.metadata.name)
        AIMRuntimeConfig(
            "rc",
            {
                "name": "default",
                "namespace": ns.metadata.name,
                "spec": {"routing": {"enabled": True, "gatewayRef": {"name": "gw", "namespace": "gateways"}}},
            },
        )

    rec = recording(program)

    status = rec.outputs_of("chat")["status"]
    assert status["resolvedProfile"]["namespace"] == "team-b"
    assert status["resolvedRuntimeConfig"]["namespace"] == "team-b"
    assert "chat-route" in rec.names()
    assert rec.outputs_of("rc")["status"]["effectiveSpec"]["routing"]["enabled"] is True


def test_a_catalog_object_in_an_unknown_namespace_leaves_every_service_unknown(recording: Any) -> None:
    from aim_pulumi import AIMProfile, AIMService

    def program() -> None:
        AIMService("chat", {"namespace": "ml-team", "spec": {"profile": {"name": "p"}}})
        _profile_in(_unknown())
        AIMProfile("q", {"namespace": "ml-team", "spec": {"aimId": "a/b", "image": "i:2"}})

    rec = recording(program)

    assert rec.kubernetes() == []
    assert any("namespace is not known in this preview" in m for m in rec.messages("info"))


# --------------------------------------------------------------------------- locatable user errors

USER_ERRORS = {
    "in-the-body": ("x = 'a' + 1", "x = 'a' + 1"),
    "in-an-apply": (
        "def token(v):\n    return v + 'x'\n\npulumi.export('t', pulumi.Output.from_input(1).apply(token))",
        "return v + 'x'",
    ),
    "in-the-body-after-an-export": (
        "chat = AIMService('chat', {'namespace': 'ml-team', 'spec': {'profile': {'name': 'p'}}})\n"
        "pulumi.export('p', chat.status.apply(lambda s: s['resolvedProfile']['name']))\n"
        "x = 'a' + 1",
        "x = 'a' + 1",
    ),
    "in-a-value-passed-to-a-service": (
        "def token(v):\n    return v + 'x'\n\n"
        "AIMService('chat', {'namespace': 'ml-team', 'spec': {'profile': {'name': 'p'}, "
        "'env': [{'name': 'A', 'value': pulumi.Output.from_input(1).apply(token)}]}})",
        "return v + 'x'",
    ),
}


@pytest.mark.parametrize("case", list(USER_ERRORS))
def test_an_error_in_the_users_code_names_its_file_and_line(
    tmp_path: Path, case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from aim_pulumi.cli.execution import execute
    from aim_pulumi.cli.project import load_program

    body, culprit = USER_ERRORS[case]
    program_dir = tmp_path / "prog"
    program_dir.mkdir()
    (program_dir / "Pulumi.yaml").write_text("name: prog\nruntime: python\n")
    source = (
        "import pulumi\nfrom aim_pulumi import AIMProfile, AIMService\n"
        "AIMProfile('p', {'namespace': 'ml-team', 'spec': {'aimId': 'a/b', 'image': 'i:1'}})\n" + body + "\n"
    )
    (program_dir / "__main__.py").write_text(source)
    line = next(i + 1 for i, text in enumerate(source.splitlines()) if culprit in text)
    monkeypatch.chdir(tmp_path)

    outcome = execute(load_program(str(program_dir)))

    assert outcome.error is not None
    assert outcome.error.line.startswith(f"prog/__main__.py:{line}: TypeError: ")


def test_an_unexpected_error_while_resolving_names_the_declaring_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from aim_pulumi.cli.execution import execute
    from aim_pulumi.cli.project import load_program
    from aim_pulumi.resources import resolutions as service_module

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise TypeError("something unexpected")

    monkeypatch.setattr(service_module, "plan_service", broken)
    program = write_program(tmp_path / "prog", ["chat", *CATALOG])
    monkeypatch.chdir(tmp_path)

    outcome = execute(load_program(str(program)))

    assert outcome.error is not None
    assert outcome.error.line == "prog/__main__.py:2: TypeError: something unexpected"


def test_an_output_that_decides_the_plan_is_named_once_on_the_right_object(failed_run: Any) -> None:
    import pulumi

    from aim_pulumi import AIMProfile, AIMService

    def program() -> None:
        AIMProfile("p", {"namespace": "team-b", "spec": {"aimId": "a/b", "image": "i:1"}})
        AIMService(
            "chat", {"namespace": "team-b", "spec": {"profile": {"name": pulumi.Output.from_input("p")}}}
        )

    error, registered = failed_run(program)

    assert deployed(registered) == []
    assert error.reason == "OutputNotAllowed"
    assert error.object_ref == "AIMService/team-b/chat"
    assert str(error).count("spec.profile.name") == 2, "the field, then the one sentence that says why"
    assert str(error).count("AIMService/") == 1


# ------------------------------------------------------------- degradations stay consistent

METRIC = {
    "type": "PodMetric",
    "podmetric": {
        "metric": {"metricNames": ["vllm:num_requests_running"]},
        "target": {"type": "Value", "value": "1"},
    },
}


def _scale_from_zero(routing: dict[str, Any], metrics: list[Any]) -> Any:
    from aim_pulumi import AIMProfile, AIMService

    def program() -> None:
        AIMProfile("p", {"namespace": "ml-team", "spec": {"aimId": "a/b", "image": "i:1"}})
        spec = {"profile": {"name": "p"}, "minReplicas": 0, "maxReplicas": 3, "routing": routing}
        if metrics:
            spec["autoScaling"] = {"metrics": metrics}
        AIMService("chat", {"namespace": "ml-team", "spec": spec, "gatewayProvider": "envoyGateway"})

    return program


@pytest.mark.parametrize(
    ("routing", "reason"),
    [
        pytest.param({"enabled": True}, "GatewayNotConfigured", id="no-gateway"),
        pytest.param(
            {"enabled": True, "gatewayRef": {"name": "gw"}, "pathTemplate": "/{.spec.nope}"},
            "PathTemplateInvalid",
            id="bad-path-template",
        ),
    ],
)
@pytest.mark.parametrize("metrics", [[], [METRIC]], ids=["no-metrics", "with-a-metric"])
def test_a_skipped_route_turns_scale_from_zero_off(
    recording: Any, routing: dict[str, Any], reason: str, metrics: list[Any]
) -> None:
    rec = recording(_scale_from_zero(routing, metrics))

    assert "chat-route" not in rec.names()
    predictor = rec.by_name("chat-isvc").inputs["spec"]["predictor"]
    assert predictor["minReplicas"] == 1
    status = rec.outputs_of("chat")["status"]
    assert status["runtime"]["minReplicas"] == 1
    assert any(
        f"scale-from-zero of ml-team/chat is off: its HTTPRoute is not created ({reason})" in m
        for m in rec.messages("warning")
    )
    scaled = rec.get("chat-scaledobject")
    if not metrics:
        assert scaled is None
    else:
        assert scaled is not None
        spec = scaled.inputs["spec"]
        assert spec["minReplicaCount"] == 1
        assert [t["metadata"]["metricQuery"] for t in spec["triggers"]] == [
            'sum(vllm:num_requests_running{namespace="ml-team",deployment="' + predictor_name(rec) + '"})'
        ], "only the user's metric: no activation trigger on a route that does not exist"


def predictor_name(rec: PlanRecording) -> str:
    return str(rec.by_name("chat-isvc").inputs["metadata"]["name"]) + "-predictor"


def test_strict_fails_instead_of_turning_scale_from_zero_off(failed_run: Any) -> None:
    error, registered = failed_run(_scale_from_zero({"enabled": True}, []), config={"aim:strict": "true"})

    assert error.reason == "GatewayNotConfigured"
    assert deployed(registered) == []


def test_the_plan_summary_does_not_claim_scale_from_zero_without_a_route(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    program = tmp_path / "prog"
    program.mkdir()
    (program / "Pulumi.yaml").write_text("name: prog\nruntime: python\n")
    (program / "__main__.py").write_text(
        "from aim_pulumi import AIMProfile, AIMService\n"
        "AIMProfile('p', {'namespace': 'ml-team', 'spec': {'aimId': 'a/b', 'image': 'i:1'}})\n"
        "AIMService('chat', {'namespace': 'ml-team', 'gatewayProvider': 'envoyGateway', 'spec': "
        "{'profile': {'name': 'p'}, 'minReplicas': 0, 'maxReplicas': 3, 'routing': {'enabled': True}}})\n"
    )
    assert main(["plan", str(program), "--no-color"]) == 0
    out = capsys.readouterr().out
    assert "scale from zero" not in out
    assert "replicas 1-3" in out


# ---------------------------------------------------------- the declared cluster default


def _by_model_id(cluster_default: dict[str, Any] | None) -> Any:
    from aim_pulumi import AIMClusterRuntimeConfig, AIMModel, AIMService

    def program() -> None:
        AIMService(
            "chat",
            {
                "namespace": "ml-team",
                "annotations": {"aim.eai.amd.com/reconciler-pipeline": "profile"},
                "spec": {"model": {"name": "qwen3-8b"}},
            },
        )
        AIMModel(
            "qwen3-8b",
            {
                "namespace": "ml-team",
                "spec": {"modelId": "Qwen/Qwen3-8B", "accelerator": {"vendor": "nvidia", "count": 1}},
            },
        )
        if cluster_default is not None:
            AIMClusterRuntimeConfig("default", {"name": "default", "spec": cluster_default})

    return program


ROUTED = {"routing": {"enabled": True, "gatewayRef": {"name": "gw", "namespace": "gateways"}}}


def test_a_declared_cluster_default_replaces_the_embedded_one_and_says_so(failed_run: Any) -> None:
    error, registered = failed_run(_by_model_id(ROUTED))

    assert deployed(registered) == []
    assert error.reason == "ProfileNotFound"
    message = str(error)
    assert "no profile-generation fallback of its runtime config matches its accelerator" in message
    assert "the program's own AIMClusterRuntimeConfig default, which replaced the embedded default" in message
    assert "aim_pulumi.embedded_fallbacks()" in message


def test_the_embedded_fallbacks_can_be_kept_in_a_declared_default(recording: Any) -> None:
    import aim_pulumi

    spec = {**ROUTED, "model": {"profileGeneration": {"fallbacks": aim_pulumi.embedded_fallbacks()}}}
    with_declared = recording(_by_model_id(spec))
    embedded = recording(_by_model_id(None))

    declared_status = with_declared.outputs_of("chat")["status"]
    assert declared_status["resolvedProfile"] == embedded.outputs_of("chat")["status"]["resolvedProfile"]
    assert declared_status["routing"]["path"], "the declared default's routing applies"
    assert "routing" not in embedded.outputs_of("chat")["status"]
    assert aim_pulumi.embedded_fallbacks()[0]["name"] == "nvidia-vllm"


# ------------------------------------------------------------------ the SDK's unit-test mocks

MOCKED = """
import pulumi
from pulumi.runtime import Mocks, set_mocks

class Echo(Mocks):
    def new_resource(self, args):
        return [args.name + "-id", args.inputs]

    def call(self, args):
        return {}

set_mocks(Echo(), preview=True)

import aim_pulumi as aim

chat = aim.AIMService("chat", {"namespace": "ml-team", "spec": {"profile": {"name": PROFILE}}})
aim.AIMProfile("p", {"namespace": "ml-team", "spec": {"aimId": "a/b", "image": "i:1"}})

@pulumi.runtime.test
def check():
    return chat.status.apply(lambda s: print("bound", s["resolvedProfile"]["name"]))

check()
"""


@pytest.mark.parametrize(("profile", "expected"), [("p", "bound p"), ("nope", "ProfileNotFound")])
def test_unit_tests_under_the_sdk_mocks_see_the_whole_program(profile: str, expected: str) -> None:
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "-c", MOCKED.replace("PROFILE", repr(profile))],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert expected in result.stdout + result.stderr
    assert (result.returncode == 0) == (profile == "p")


def test_a_failed_resolution_is_reported_rather_than_an_apply_of_its_outputs(failed_run: Any) -> None:
    import pulumi

    from aim_pulumi import AIMService

    def program() -> None:
        chat = AIMService("chat", {"namespace": "ml-team", "spec": {"profile": {"name": "nope"}}})
        pulumi.export("p", chat.status.apply(lambda s: s["resolvedProfile"]["name"]))

    error, _ = failed_run(program)

    assert isinstance(error, AIMResolutionError) and error.reason == "ProfileNotFound"
