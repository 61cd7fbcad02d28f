"""The three call forms of every component declare the same thing.

`AIMService(name, {...})` (the camelCase ArgsDict), `AIMService(name, AIMServiceArgs(...))` and
`AIMService(name, namespace=..., spec=...)` must register byte-identical resources, so a
program may use whichever form it likes and switch without a diff.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pulumi
import pytest

from aim_pulumi import inputs
from aim_pulumi.offline.engine import PlanRecording
from aim_pulumi.resources import (
    COMPONENTS,
    AIMClusterRuntimeConfig,
    AIMModel,
    AIMModelArgs,
    AIMService,
    AIMServiceArgs,
    AIMStack,
    AIMStackArgs,
)
from aim_pulumi.resources.constructors import plain_args
from tests.conftest import Recorder
from tests.resources.catalog import GATEWAY, IMAGE, NS, PIPELINE

SPEC: Any = {
    "model": {"name": "m"},
    "routing": {"enabled": True, "gatewayRef": dict(GATEWAY)},
    "caching": {"mode": "Dedicated"},
}
MODEL_SPEC: Any = {
    "modelId": "Qwen/Qwen3-8B",
    "accelerator": {"vendor": "nvidia", "count": 1},
    "source": {"size": "17Gi"},
}


def _as_dicts() -> None:
    AIMModel("m", {"namespace": NS, "labels": {"team": "a"}, "spec": MODEL_SPEC})
    AIMService(
        "s",
        {"namespace": NS, "annotations": PIPELINE, "spec": SPEC, "skipAwait": True, "waitForCache": False},
    )


def _as_args_objects() -> None:
    AIMModel("m", AIMModelArgs(namespace=NS, labels={"team": "a"}, spec=MODEL_SPEC))
    AIMService(
        "s",
        AIMServiceArgs(namespace=NS, annotations=PIPELINE, spec=SPEC, skip_await=True, wait_for_cache=False),
    )


def _as_keywords() -> None:
    AIMModel("m", namespace=NS, labels={"team": "a"}, spec=MODEL_SPEC)
    AIMService("s", namespace=NS, annotations=PIPELINE, spec=SPEC, skip_await=True, wait_for_cache=False)


def _fingerprint(rec: PlanRecording) -> str:
    return json.dumps(
        [[r.type, r.name, r.parent, r.inputs, sorted(r.dependencies)] for r in rec.resources],
        sort_keys=True,
        default=str,
    )


@pytest.mark.parametrize("form", [_as_args_objects, _as_keywords], ids=["args-object", "keywords"])
def test_every_form_registers_what_the_dict_form_does(recording: Recorder, form: Callable[[], None]) -> None:
    expected = recording(_as_dicts)
    actual = recording(form)

    assert _fingerprint(actual) == _fingerprint(expected)
    # The options took effect (not silently dropped): skipAwait on every child, no wait for the cache.
    isvc = next(r for r in actual.resources if r.type.endswith(":InferenceService"))
    assert isvc.manifest["metadata"]["annotations"]["pulumi.com/skipAwait"] == "true"
    assert any(r.type.endswith(":PersistentVolumeClaim") for r in actual.resources)
    assert isvc.dependencies == ()


def test_keyword_form_takes_metadata_name_apart_from_the_resource_name(recording: Recorder) -> None:
    def program() -> None:
        AIMModel("m", namespace=NS, spec=MODEL_SPEC)
        AIMService("chat-resource", name="chat", namespace=NS, annotations=PIPELINE, spec=SPEC)

    rec = recording(program)

    isvc = next(r for r in rec.resources if r.type.endswith(":InferenceService"))
    assert isvc.name == "chat-resource-isvc"
    assert isvc.manifest["metadata"]["labels"]["aim.eai.amd.com/service"] == "chat"
    assert isvc.manifest["metadata"]["name"].startswith("chat-")


def test_stack_takes_every_form(recording: Recorder, tmp_path: Any) -> None:
    (tmp_path / "m.yaml").write_text(
        "apiVersion: aim.eai.amd.com/v1alpha1\nkind: AIMModel\nmetadata: {name: m, namespace: ml-team}\n"
        f"spec: {{image: {IMAGE}}}\n"
    )
    names = []
    for declare in (
        lambda: AIMStack("st", {"path": str(tmp_path)}),
        lambda: AIMStack("st", AIMStackArgs(path=str(tmp_path))),
        lambda: AIMStack("st", path=str(tmp_path)),
    ):
        rec = recording(declare)
        names.append(sorted(r.name for r in rec.resources))
    assert names[0] == names[1] == names[2]
    assert "st-aimmodel-ml-team-m" in names[0]


def test_args_and_keywords_together_are_refused(failed_run: Any) -> None:
    error, registered = failed_run(lambda: AIMService("s", {"namespace": NS}, skip_await=True))  # type: ignore[call-overload]

    assert isinstance(error, TypeError)
    assert "either as `args` or as keywords, not both" in str(error)
    assert registered == []


def test_an_unknown_keyword_fails_naming_it(failed_run: Any) -> None:
    error, registered = failed_run(lambda: AIMService("s", namespace=NS, replicaz=2))  # type: ignore[call-overload]

    assert isinstance(error, TypeError)
    assert "replicaz" in str(error)
    assert registered == []


def test_args_of_another_type_fail_naming_the_expected_one() -> None:
    with pytest.raises(
        TypeError, match="AIMService\\(\\) args must be a AIMServiceArgs or a mapping, not list"
    ):
        plain_args("AIMService", [], {}, AIMServiceArgs)


def test_args_objects_read_back_as_set() -> None:
    args = AIMServiceArgs(namespace="x", gateway_provider=inputs.GatewayProvider.KGATEWAY)
    args.skip_await = True

    assert args.namespace == "x"
    assert plain_args("AIMService", args, {}, AIMServiceArgs) == {
        "namespace": "x",
        "gatewayProvider": "kgateway",
        "skipAwait": True,
    }


def test_a_namespace_output_works_in_the_keyword_form(recording: Recorder) -> None:
    def program() -> None:
        namespace = pulumi.Output.from_input(NS)
        AIMModel("m", namespace=namespace, spec=MODEL_SPEC)
        AIMService("s", namespace=namespace, annotations=PIPELINE, spec=SPEC)

    rec = recording(program)

    isvc = next(r for r in rec.resources if r.type.endswith(":InferenceService"))
    assert isvc.manifest["metadata"]["namespace"] == NS


@pytest.mark.parametrize("component", COMPONENTS, ids=lambda c: c.__name__)
def test_the_analyzer_sees_each_components_args_dict(component: type) -> None:
    """The provider's schema is inferred from `args`: the ArgsDict, whatever the overloads say."""
    assert component.__init__.__annotations__["args"] is getattr(inputs, f"{component.__name__}ArgsDict")


def test_cluster_kinds_take_no_namespace_keyword(failed_run: Any) -> None:
    error, _ = failed_run(lambda: AIMClusterRuntimeConfig("default", namespace="x"))  # type: ignore[call-overload]

    assert isinstance(error, TypeError)
    assert "namespace" in str(error)
