"""The plan as documents, built from a recording: the `--json` plan, the manifests and their order."""

from __future__ import annotations

from typing import Any

import pulumi
import pulumi_kubernetes as k8s
import pytest
import yaml
from pulumi.runtime import rpc

from aim_pulumi.offline.documents import SECRET, UNKNOWN, mark_unknowns, redact_secrets, without_secrets
from aim_pulumi.offline.plan_document import (
    kubernetes_manifests,
    manifests_yaml,
    plan_document,
    planned_stack,
    previous_state,
    unvalidated_manifests,
    validation_problems,
)
from aim_pulumi.offline.tree import tree_order


def _service_like() -> None:
    """A component whose children are declared in an order neither the tree nor `kubectl apply` wants."""
    parent = pulumi.ComponentResource("aim:index:Probe", "probe", None)
    child = pulumi.ResourceOptions(parent=parent)
    k8s.batch.v1.Job(
        "probe-job",
        metadata={"name": "probe-download", "namespace": "team"},
        spec={"template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "d", "image": "i"}]}}},
        opts=child,
    )
    k8s.core.v1.ConfigMap(
        "probe-config",
        metadata={"name": "probe", "namespace": "team"},
        data={"profile.yaml": "engine: vllm\ntp: 1\n"},
        opts=child,
    )
    k8s.core.v1.Secret(
        "probe-secret",
        metadata={"name": "probe", "namespace": "team"},
        string_data=pulumi.Output.secret({"token": "hunter2", "user": "me"}),
        opts=child,
    )
    k8s.core.v1.Namespace("team", metadata={"name": "team"})
    parent.register_outputs({"note": pulumi.Output.secret("hidden"), "plain": 1})
    pulumi.export("endpoint", "http://probe")


def test_the_tree_lists_a_component_before_its_children_in_the_order_a_reader_follows(recording: Any) -> None:
    rec = recording(_service_like)

    order = [(depth, r.name) for depth, r in tree_order(rec)]

    assert order == [
        (0, "probe"),
        (1, "probe-secret"),
        (1, "probe-config"),
        (1, "probe-job"),
        (0, "team"),
    ]


def test_the_plan_document_hides_each_secret_key_unless_asked(recording: Any) -> None:
    rec = recording(_service_like)

    hidden = {r["name"]: r for r in plan_document(rec)["resources"]}
    shown = {r["name"]: r for r in plan_document(rec, show_secrets=True)["resources"]}

    assert hidden["probe-secret"]["inputs"]["stringData"] == {"token": SECRET, "user": SECRET}
    assert shown["probe-secret"]["inputs"]["stringData"] == {"token": "hunter2", "user": "me"}
    assert hidden["probe"]["outputs"] == {"note": SECRET, "plain": 1}
    assert shown["probe"]["outputs"] == {"note": "hidden", "plain": 1}
    assert list(hidden["probe-config"]["inputs"])[:3] == ["apiVersion", "kind", "metadata"]
    assert hidden["probe-job"]["parent"] == "probe" and hidden["team"]["parent"] is None
    assert plan_document(rec)["outputs"] == {"endpoint": "http://probe"}


def test_manifests_come_in_the_order_they_can_be_applied(recording: Any) -> None:
    rec = recording(_service_like)

    kinds = [m["kind"] for m in kubernetes_manifests(rec)]

    assert kinds == ["Namespace", "Secret", "ConfigMap", "Job"]


def test_the_manifests_file_writes_a_profile_as_a_literal_block_and_hides_secrets(recording: Any) -> None:
    rec = recording(_service_like)

    text = manifests_yaml(rec)

    assert "  profile.yaml: |\n    engine: vllm\n    tp: 1\n" in text
    assert "hunter2" not in text
    documents = list(yaml.safe_load_all(text))
    assert documents[1]["stringData"] == {"token": SECRET, "user": SECRET}
    assert "hunter2" in manifests_yaml(rec, show_secrets=True)


def test_validation_names_the_object_and_leaves_kinds_without_a_schema(recording: Any) -> None:
    def program() -> None:
        k8s.core.v1.ConfigMap("bad", metadata={"name": "bad", "namespace": "ns"}, data={"k": 1})  # type: ignore[dict-item]
        k8s.apiextensions.CustomResource(
            "foreign", api_version="example.com/v1", kind="Widget", metadata={"name": "w", "namespace": "ns"}
        )

    rec = recording(program)

    problem = "ConfigMap/ns/bad (bad): data[k]: Invalid value: must be of type string"
    assert validation_problems(rec) == [problem]
    assert [m["kind"] for m in unvalidated_manifests(rec)] == ["Widget"]


def test_previous_state_reads_only_resources_that_carry_a_state() -> None:
    plan = {
        "resources": [
            {"name": "a", "state": {"profile": "p"}},
            {"name": "b"},
            "junk",
            {"name": "c", "state": 1},
        ]
    }

    assert previous_state(plan) == {"a": {"profile": "p"}}
    assert previous_state({}) == {}


def test_import_matches_against_every_resource_in_tree_order_with_plaintext(recording: Any) -> None:
    rec = recording(_service_like)

    stack = planned_stack(rec)

    assert [r.name for r in stack.resources] == ["probe", "probe-secret", "probe-config", "probe-job", "team"]
    assert [r.parent for r in stack.resources] == [None, "probe", "probe", "probe", None]
    secret = next(r for r in stack.resources if r.name == "probe-secret")
    assert secret.manifest["stringData"] == {"token": "hunter2", "user": "me"}


# Pulumi's wire form of a secret: the signature key with the secret signature (public in the gRPC protocol).
SIG_KEY = "4dabf18193072939515e22adb298388d"
SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270"


def _secret(value: Any) -> dict[str, Any]:
    return {SIG_KEY: SECRET_SIG, "value": value}


@pytest.mark.parametrize(
    ("value", "redacted", "marked"),
    [
        (_secret("x"), SECRET, _secret("x")),
        ({"a": [_secret(1), rpc.UNKNOWN]}, {"a": [SECRET, UNKNOWN]}, {"a": [_secret(1), UNKNOWN]}),
        ((1, "two"), [1, "two"], [1, "two"]),
        ("plain", "plain", "plain"),
    ],
)
def test_secrets_and_unknowns_read_as_their_markers(value: Any, redacted: Any, marked: Any) -> None:
    assert redact_secrets(value) == redacted
    assert mark_unknowns(value) == marked


def test_a_plan_read_back_keeps_no_secret_envelope() -> None:
    read = without_secrets({"resources": [{"inputs": {"data": _secret({"k": "v"}), "n": [_secret("s"), 2]}}]})

    assert read == {"resources": [{"inputs": {"data": SECRET, "n": [SECRET, 2]}}]}
