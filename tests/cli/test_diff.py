"""`aim-pulumi plan --diff`: created, updated (field by field) and deleted resources against a saved plan."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aim_pulumi.cli.__main__ import main
from aim_pulumi.cli.execution import execute
from aim_pulumi.cli.project import load_program
from aim_pulumi.offline.plan_diff import ABSENT, FieldChange, diff_plans, field_changes, flatten
from aim_pulumi.offline.plan_document import plan_document

PROGRAM = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "programs" / "rc-change"
# The stack-owned Shared cache of the `cached` service (PVC and download Job are its children).
CACHE = "team-b-meta-llama-cache-4cafb2f1"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param({"a": {"b": 1}}, {"a.b": 1}, id="nested-object"),
        pytest.param(
            {"labels": {"app.kubernetes.io/name": "x"}},
            {"labels[app.kubernetes.io/name]": "x"},
            id="key-with-dots",
        ),
        pytest.param(
            {"env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}]},
            {"env[A].name": "A", "env[A].value": "1", "env[B].name": "B", "env[B].value": "2"},
            id="named-list-by-name",
        ),
        pytest.param({"args": ["x", "y"]}, {"args[0]": "x", "args[1]": "y"}, id="plain-list-by-index"),
        pytest.param(
            {"l": [{"name": "a"}, {"name": "a"}]},
            {"l[0].name": "a", "l[1].name": "a"},
            id="repeated-names-by-index",
        ),
        pytest.param({"a": {}, "b": []}, {"a": {}, "b": []}, id="empty-containers-are-leaves"),
    ],
)
def test_flatten(value: Any, expected: dict[str, Any]) -> None:
    assert flatten(value) == expected


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        pytest.param({"a": 1}, {"a": 1}, [], id="equal"),
        pytest.param({"a": 1}, {"a": 2}, [FieldChange("a", 1, 2)], id="changed-leaf"),
        pytest.param({}, {"a": 1}, [FieldChange("a", ABSENT, 1)], id="added"),
        pytest.param({"a": 1}, {}, [FieldChange("a", 1, ABSENT)], id="removed"),
        pytest.param(
            {"env": [{"name": "A", "value": "1"}]},
            {"env": [{"name": "Z", "value": "0"}, {"name": "A", "value": "1"}]},
            [FieldChange("env[Z].name", ABSENT, "Z"), FieldChange("env[Z].value", ABSENT, "0")],
            id="insert-into-named-list-is-one-entry",
        ),
        pytest.param(
            {"storage": {}},
            {"storage": {"class": "fast"}},
            [FieldChange("storage.class", ABSENT, "fast")],
            id="empty-map-filled-is-one-added-field",
        ),
        pytest.param(
            {"args": ["x"]},
            {"args": []},
            [FieldChange("args[0]", "x", ABSENT)],
            id="list-emptied-is-one-removed-item",
        ),
        pytest.param({"a": {}}, {"a": []}, [FieldChange("a", {}, [])], id="empty-map-to-empty-list"),
    ],
)
def test_field_changes(old: Any, new: Any, expected: list[FieldChange]) -> None:
    assert field_changes(old, new) == expected


_KEYS = st.sampled_from(["a", "b", "name", "x.y/z"])
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["", "v", "w"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner, max_size=3),
    max_leaves=12,
)
_DOCS = st.dictionaries(_KEYS, _JSON, max_size=4)


@settings(max_examples=150, deadline=None)
@given(old=_DOCS, new=_DOCS)
def test_field_changes_is_empty_exactly_when_the_leaves_agree(
    old: dict[str, Any], new: dict[str, Any]
) -> None:
    changes = field_changes(old, new)
    assert (changes == []) == (flatten(old) == flatten(new))
    assert field_changes(new, new) == []
    for change in changes:
        assert change.old != change.new
        assert (change.old is ABSENT) == (change.path not in flatten(old))
        assert (change.new is ABSENT) == (change.path not in flatten(new))


def resource(type_: str, name: str, inputs: dict[str, Any], parent: str | None = None) -> dict[str, Any]:
    return {"type": type_, "name": name, "parent": parent, "inputs": inputs}


def test_diff_plans_classifies_resources() -> None:
    old = {
        "resources": [
            resource("t:A", "kept", {"x": 1}),
            resource("t:A", "changed", {"x": 1}),
            resource("t:A", "gone", {"x": 1}),
        ],
        "outputs": {"svc": {"status": {"path": "/a"}}},
    }
    new = {
        "resources": [
            resource("t:A", "kept", {"x": 1}),
            resource("t:A", "changed", {"x": 2}),
            resource("t:B", "kept", {"x": 1}),
        ],
        "outputs": {"svc": {"status": {"path": "/b"}}},
    }
    diff = diff_plans(old, new)
    assert [c.name for c in diff.created] == ["kept"]
    assert diff.created[0].type == "t:B"
    assert [(c.name, c.fields) for c in diff.updated] == [("changed", (FieldChange("x", 1, 2),))]
    assert [c.name for c in diff.deleted] == ["gone"]
    assert diff.unchanged == 1
    assert diff.outputs == [("svc", FieldChange("status.path", "/a", "/b"))]


def test_changed_outputs_are_listed_in_key_order_whatever_order_the_engine_returned() -> None:
    """The engine hands stack outputs back as protobuf Structs, in an order that follows the string
    hash of the process: the report must not."""
    old = {"resources": [], "outputs": {"cost": {"a": 1, "b": {"x": 1, "y": 1}, "c": 1}}}
    orders = ({"c": 2, "b": {"y": 2, "x": 2}, "a": 2}, {"b": {"x": 2, "y": 2}, "a": 2, "c": 2})
    for cost in orders:
        diff = diff_plans(old, {"resources": [], "outputs": {"cost": cost}})
        assert [change.path for _, change in diff.outputs] == ["a", "b.x", "b.y", "c"]


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The rc-change program planned with its defaults, saved as --json writes it."""
    outcome = execute(load_program(str(PROGRAM)))
    assert outcome.error is None and outcome.recording is not None
    path = tmp_path_factory.mktemp("diff") / "old.json"
    path.write_text(json.dumps(plan_document(outcome.recording)))
    return path


def changed_plan(*config: str) -> dict[str, Any]:
    outcome = execute(load_program(str(PROGRAM), config=config))
    assert outcome.error is None and outcome.recording is not None
    return plan_document(outcome.recording)


@pytest.mark.parametrize(
    ("config", "updated", "replaced", "paths"),
    [
        pytest.param(
            "pathTemplate=/models/{.metadata.name}",
            {"routed-route"},
            set(),
            {
                "spec.rules[0].matches[0].path.value",
                "spec.rules[1].matches[0].path.value",
                "spec.rules[2].matches[0].path.value",
            },
            id="cluster-path-template-updates-only-the-route",
        ),
        pytest.param(
            "logLevel=DEBUG",
            {"routed-isvc", "internal-isvc", "cached-isvc"},
            set(),  # the download Job is fixed at its creation (ignoreChanges)
            {"spec.predictor.containers[kserve-container].env[LOG_LEVEL].value"},
            id="cluster-env-updates-the-inference-services-and-leaves-the-download-job",
        ),
        pytest.param(
            "aim:downloadImage=registry.example.com/aim-downloader:2",
            set(),
            set(),
            set(),
            id="setting-download-image-changes-no-existing-child",
        ),
        pytest.param(
            "aim:downloadTimeoutSeconds=600",
            set(),
            set(),
            set(),
            id="setting-download-timeout-changes-no-existing-child",
        ),
        pytest.param(
            "aim:readyTimeoutSeconds=60",
            {"routed-isvc", "internal-isvc", "cached-isvc"},
            set(),
            {"metadata.annotations[pulumi.com/timeoutSeconds]"},
            id="setting-ready-timeout-updates-only-the-inference-services",
        ),
        pytest.param(
            "storageClass=fast",
            set(),
            set(),  # a PVC's class is fixed at its creation (ignoreChanges): nothing is replaced
            set(),
            id="cluster-storage-class-keeps-the-cache-pvc",
        ),
    ],
)
def test_one_cluster_runtime_config_field_changes_exactly_the_affected_children(
    baseline: Path, config: str, updated: set[str], replaced: set[str], paths: set[str]
) -> None:
    diff = diff_plans(json.loads(baseline.read_text()), changed_plan(config))
    assert {c.name for c in diff.updated} == updated
    assert {c.name for c in diff.replaced} == replaced
    changed = [*diff.updated, *diff.replaced]
    assert {f.path for change in changed for f in change.fields} == paths
    for change in changed:
        assert all(f.old != f.new for f in change.fields)
    for change in diff.replaced:
        assert change.replacing and set(change.replacing) <= {f.path for f in change.fields}
    assert diff.created == [] and diff.deleted == []
    total = len(json.loads(baseline.read_text())["resources"])
    assert diff.unchanged == total - len(updated) - len(replaced)


def test_adding_and_removing_a_service(baseline: Path) -> None:
    old = json.loads(baseline.read_text())
    bigger = changed_plan("third=true")
    added = diff_plans(old, bigger)
    assert {c.name for c in added.created} == {"extra", "extra-isvc", "extra-profile-config", "extra-route"}
    assert added.updated == [] and added.deleted == []
    removed = diff_plans(bigger, old)
    assert {c.name for c in removed.deleted} == {"extra", "extra-isvc", "extra-profile-config", "extra-route"}
    assert removed.created == [] and removed.updated == []


def test_plan_diff_command_reports_changes_only(capsys: pytest.CaptureFixture[str], baseline: Path) -> None:
    code = main(["plan", str(PROGRAM), "--diff", str(baseline), "--config", "logLevel=DEBUG"])
    out = capsys.readouterr().out
    assert code == 0
    assert " ~ InferenceService team-a/routed-" in out
    assert " ~ InferenceService team-b/internal-" in out
    assert 'env[LOG_LEVEL].value: "INFO" -> "DEBUG"\n' in out
    assert "Job" not in out  # fixed at creation: no replacement, no update
    assert "HTTPRoute" not in out  # unchanged children are counted, not listed
    assert "PersistentVolumeClaim" not in out
    assert "0 to create, 3 to update, 0 to replace, 0 to delete, 14 unchanged" in out


def test_diff_against_something_that_is_not_a_plan(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bogus = tmp_path / "old.json"
    bogus.write_text(json.dumps({"hello": "world"}))
    assert main(["plan", str(PROGRAM), "--diff", str(bogus)]) == 2
    assert "not a plan written by --json" in capsys.readouterr().err
