"""`aim-pulumi import`: a `kubectl get -o yaml` dump of an operator deployment in; AIM YAML, a
`pulumi import --file` document and a report out.

The dumps under tests/fixtures/import are what the operator leaves on a cluster: the AIM objects
with their status and server-set metadata, the children under the operator's names with
`app.kubernetes.io/managed-by: aim-engine` and ownerReferences to their AIMService, KServe's
predictor Services, and an operator-only AIMArtifact. `operator-dump.yaml` has one service by
profile name and one by model whose operator-resolved profile (fp16) is no longer the best one
(an fp8 primary profile appeared since); the by-model service's HTTPRoute is missing.
`cache-dump.yaml` has a Shared cache whose live PVC was made under another StorageClass.
"""

from __future__ import annotations

import argparse
import copy
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from aim_pulumi.adopt import cluster
from aim_pulumi.adopt.cluster import ClusterRead, tied_to_aim
from aim_pulumi.adopt.dump import read_dump, split_dump
from aim_pulumi.adopt.live_diff import diff_manifest
from aim_pulumi.adopt.record import ADOPTED_ANNOTATION
from aim_pulumi.adopt.removal import owner_patch
from aim_pulumi.cli.commands import import_, plan

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "import"
OPERATOR_DUMP = FIXTURES / "operator-dump.yaml"
CACHE_DUMP = FIXTURES / "cache-dump.yaml"


def run(*argv: str) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="aim-pulumi")
    import_.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["import", *argv])
    out, err = io.StringIO(), io.StringIO()
    code = args.func(args, stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def plan_json(directory: Path, tmp_path: Path) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="aim-pulumi")
    plan.register(parser.add_subparsers(dest="command"))
    target = tmp_path / f"plan-{directory.parent.name}.json"
    args = parser.parse_args(["plan", str(directory), "--json", str(target), "--quiet"])
    assert args.func(args, stdout=io.StringIO(), stderr=io.StringIO()) == 0
    document: dict[str, Any] = json.loads(target.read_text())
    return document


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, str, dict[str, Any]]:
    out_dir = tmp_path_factory.mktemp("import") / "out"
    code, out, err = run("--from", str(OPERATOR_DUMP), "-o", str(out_dir))
    assert err == ""
    return out_dir, code, out, json.loads((out_dir / "report.json").read_text())


def service(report: dict[str, Any], key: str) -> dict[str, Any]:
    return next(s for s in report["services"] if s["service"] == key)


def by_kind(entries: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {e["kind"]: e for e in entries}


# --------------------------------------------------------------------------------------------------
# The AIM YAML


def test_the_aim_yaml_drops_what_the_server_set_and_keeps_uid_and_binding(
    imported: tuple[Path, int, str, dict[str, Any]],
) -> None:
    out_dir, code, _, _ = imported
    assert code == 0
    files = sorted(p.relative_to(out_dir).as_posix() for p in (out_dir / "aim").rglob("*.yaml"))
    assert files == [
        "aim/ml-team/aimmodel-qwen3-32b.yaml",
        "aim/ml-team/aimprofile-qwen3-32b-mi300x-fp16.yaml",
        "aim/ml-team/aimprofile-qwen3-32b-mi300x-fp8.yaml",
        "aim/ml-team/aimservice-chat-by-model.yaml",
        "aim/ml-team/aimservice-chat-by-name.yaml",
    ]  # the AIMArtifact is the operator's own: not written
    svc = yaml.safe_load((out_dir / "aim/ml-team/aimservice-chat-by-model.yaml").read_text())
    record = json.loads(svc["metadata"]["annotations"].pop(ADOPTED_ANNOTATION))
    assert svc["metadata"] == {
        "name": "chat-by-model",
        "namespace": "ml-team",
        "annotations": {"aim.eai.amd.com/reconciler-pipeline": "profile"},
        "uid": "6a2d8f0c-2b0e-4a7e-8f55-3c1f9d0e7b02",
    }
    # The adoption record: the live values of what the plan sets differently, the live predictor
    # (without the replica bounds, which stay the plan's), and the digest of the plan it is for.
    kept = record["inferenceService"]
    assert set(record) == {"inferenceService"}  # no cache: nothing renamed
    assert kept["labels"] == {"app.kubernetes.io/managed-by": "aim-engine"}
    assert kept["annotations"] == {
        "pulumi.com/patchForce": None,
        "pulumi.com/timeoutSeconds": None,
        "pulumi.com/waitFor": None,
    }
    live = next(o for o in read_dump(OPERATOR_DUMP) if o["metadata"]["name"] == "chat-by-model-4d4fe7db")[
        "spec"
    ]["predictor"]
    assert kept["predictor"] == {k: v for k, v in live.items() if k not in ("minReplicas", "maxReplicas")}
    assert len(kept["plan"]) == 16
    assert svc["status"] == {
        "resolvedProfile": {
            "kind": "AIMProfile",
            "name": "qwen3-32b-mi300x-fp16",
            "namespace": "ml-team",
            "scope": "Namespace",
            "uid": "11111111-2222-4333-8444-555555555555",
        }
    }
    profile = yaml.safe_load((out_dir / "aim/ml-team/aimprofile-qwen3-32b-mi300x-fp8.yaml").read_text())
    assert "status" not in profile
    assert set(profile["metadata"]) == {"name", "namespace", "labels"}


def test_by_model_the_binding_keeps_the_operators_profile_though_a_better_one_exists(
    imported: tuple[Path, int, str, dict[str, Any]], tmp_path: Path
) -> None:
    out_dir, _, out, report = imported
    entry = service(report, "ml-team/chat-by-model")
    assert entry["profile"]["name"] == entry["operatorProfile"]["name"] == "qwen3-32b-mi300x-fp16"
    assert "profile AIMProfile qwen3-32b-mi300x-fp16: kept, as the operator resolved it" in out
    planned = plan_json(out_dir / "aim", tmp_path)
    isvc = next(r for r in planned["resources"] if r["name"] == "aim-aimservice-ml-team-chat-by-model-isvc")
    image = isvc["inputs"]["spec"]["predictor"]["containers"][0]["image"]
    assert image == "amdenterpriseai/aim-qwen-qwen3-32b:0.8.5"
    # Without the recorded binding, the fp8 primary profile (another image) would win today.
    fresh = tmp_path / "fresh" / "aim"
    fresh.mkdir(parents=True)
    for path in (out_dir / "aim" / "ml-team").glob("*.yaml"):
        doc = yaml.safe_load(path.read_text())
        doc.pop("status", None)
        (fresh / path.name).write_text(yaml.safe_dump(doc))
    unbound = plan_json(fresh, tmp_path)
    isvc = next(r for r in unbound["resources"] if r["name"] == "aim-aimservice-ml-team-chat-by-model-isvc")
    assert (
        isvc["inputs"]["spec"]["predictor"]["containers"][0]["image"]
        == "amdenterpriseai/aim-qwen-qwen3-32b:0.9.0"
    )


# --------------------------------------------------------------------------------------------------
# The report


def test_by_profile_name_every_child_is_adopted_under_its_operator_name(
    imported: tuple[Path, int, str, dict[str, Any]],
) -> None:
    _, _, _, report = imported
    entry = service(report, "ml-team/chat-by-name")
    adopted = by_kind(entry["adopted"])
    assert set(adopted) == {"InferenceService", "ConfigMap", "HTTPRoute"}
    assert adopted["InferenceService"]["id"] == "ml-team/chat-by-name-4b72e406"
    assert adopted["HTTPRoute"]["id"] == "ml-team/chat-by-name-a04542d9"
    assert entry["toCreate"] == []
    assert not any(c["replaced"] for c in entry["adopted"])


def test_a_missing_child_is_planned_not_adopted(imported: tuple[Path, int, str, dict[str, Any]]) -> None:
    out_dir, _, out, report = imported
    entry = service(report, "ml-team/chat-by-model")
    assert [(c["kind"], c["name"]) for c in entry["toCreate"]] == [("HTTPRoute", "chat-by-model-a04542d9")]
    assert "create  HTTPRoute ml-team/chat-by-model-a04542d9" in out
    names = {r["name"] for r in json.loads((out_dir / "import.json").read_text())["resources"]}
    assert "aim-aimservice-ml-team-chat-by-model-route" not in names
    assert "aim-aimservice-ml-team-chat-by-model-isvc" in names


def test_live_objects_the_plan_does_not_manage_are_listed_with_why(
    imported: tuple[Path, int, str, dict[str, Any]],
) -> None:
    _, _, _, report = imported
    left = {(o["kind"], o["name"]): o["why"] for o in service(report, "ml-team/chat-by-name")["notManaged"]}
    assert left == {
        (
            "Service",
            "chat-by-name-4b72e406-predictor",
        ): "made by KServe for its InferenceService; it stays with it",
        (
            "AIMArtifact",
            "qwen3-32b-mi300x-fp8-0b7f1c1e",
        ): "the operator's own AIM object; nothing replaces it once the operator is gone",
    }
    assert report["summary"] == {
        "adopted": 5,
        "toCreate": 1,
        "replaced": 0,
        "refused": 0,
        "rollsPods": 0,
        "changed": 3,
        "notManaged": 3,
    }


def test_changes_are_the_planned_fields_only_and_the_predictor_keeps_what_would_roll_pods(
    imported: tuple[Path, int, str, dict[str, Any]],
) -> None:
    _, _, out, report = imported
    adopted = by_kind(service(report, "ml-team/chat-by-name")["adopted"])
    # The live route has the API server's `weight: 1` and the gateway's status: neither is a change.
    route = {c["path"]: (c["live"], c["planned"], c["effect"]) for c in adopted["HTTPRoute"]["changes"]}
    assert route == {
        "metadata.labels.app.kubernetes.io/managed-by": ("aim-engine", "aim-pulumi", "update"),
        "metadata.annotations.pulumi.com/patchForce": (None, "true", "update"),
    }
    # What the plan alone would change on the InferenceService all rolls pods, and all of it is
    # bookkeeping or server defaults: the adopted plan keeps the live values, so nothing changes.
    isvc = adopted["InferenceService"]
    assert isvc["changes"] == [] and not isvc["rollsPods"] and not isvc["replaced"]
    kept = {c["path"]: c for c in isvc["kept"]}
    assert set(kept) == {
        "metadata.annotations.pulumi.com/patchForce",
        "metadata.annotations.pulumi.com/timeoutSeconds",
        "metadata.annotations.pulumi.com/waitFor",
        "metadata.labels.app.kubernetes.io/managed-by",
        "spec.predictor.annotations.aim.eai.amd.com/profile-hash",
        "spec.predictor.containers",
    }
    assert {c["effect"] for c in kept.values()} == {"rolls-pods"}
    # KServe's CRD leaves `containers` a plain (atomic) list: applied whole, the plan's container
    # would drop the live terminationMessagePath/Policy, which the plan does not set.
    containers = kept["spec.predictor.containers"]
    assert containers["live"][0]["terminationMessagePath"] == "/dev/termination-log"
    assert "terminationMessagePath" not in containers["planned"][0]
    assert report["summary"]["rollsPods"] == 0
    assert (
        "      = metadata.labels.app.kubernetes.io/managed-by: aim-engine kept "
        "(the plan alone sets aim-pulumi)" in out
    )
    assert (
        "      = spec.predictor.containers: the live value kept, with fields the plan does not set: "
        "[0].terminationMessagePath, [0].terminationMessagePolicy"
    ) in out


def _dump_with(tmp_path: Path, edit: Any) -> Path:
    objects = read_dump(OPERATOR_DUMP)
    for obj in objects:
        edit(obj)
    path = tmp_path / "dump.yaml"
    path.write_text(yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": objects}))
    return path


def test_a_predictor_that_differs_in_what_runs_keeps_nothing_and_the_report_says_it_rolls_pods(
    tmp_path: Path,
) -> None:
    def older_image(obj: dict[str, Any]) -> None:
        if obj["metadata"]["name"] == "chat-by-name-4b72e406":
            obj["spec"]["predictor"]["containers"][0]["image"] = "amdenterpriseai/aim-qwen-qwen3-32b:0.8.0"

    code, out, _ = run("--from", str(_dump_with(tmp_path, older_image)), "-o", str(tmp_path / "out"))
    assert code == 0  # rolling pods is reported, not refused
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    isvc = by_kind(service(report, "ml-team/chat-by-name")["adopted"])["InferenceService"]
    assert isvc["rollsPods"] and "kept" not in isvc
    paths = {c["path"] for c in isvc["changes"]}
    assert {"spec.predictor.containers", "metadata.labels.app.kubernetes.io/managed-by"} <= paths
    assert (
        "InferenceService ml-team/chat-by-name-4b72e406  "
        "(aim-aimservice-ml-team-chat-by-name-isvc): rolls pods" in out
    )
    svc = yaml.safe_load((tmp_path / "out/aim/ml-team/aimservice-chat-by-name.yaml").read_text())
    assert ADOPTED_ANNOTATION not in (svc["metadata"].get("annotations") or {})
    # The other service, which runs what its plan says, still keeps its pods.
    other = by_kind(service(report, "ml-team/chat-by-model")["adopted"])["InferenceService"]
    assert not other["rollsPods"] and other["kept"]


def test_the_plan_keeps_the_live_predictor_until_the_service_plans_another(
    imported: tuple[Path, int, str, dict[str, Any]], tmp_path: Path
) -> None:
    out_dir, _, _, _ = imported
    live = next(o for o in read_dump(OPERATOR_DUMP) if o["metadata"]["name"] == "chat-by-name-4b72e406")

    def isvc_of(directory: Path) -> dict[str, Any]:
        planned = plan_json(directory, tmp_path)
        return next(
            r["inputs"]
            for r in planned["resources"]
            if r["name"] == "aim-aimservice-ml-team-chat-by-name-isvc"
        )

    kept = isvc_of(out_dir / "aim")
    assert kept["spec"]["predictor"] == live["spec"]["predictor"]
    assert kept["metadata"]["labels"]["app.kubernetes.io/managed-by"] == "aim-engine"
    assert not [k for k in kept["metadata"]["annotations"] if k.startswith("pulumi.com/")]
    assert diff_manifest(kept, live) == []

    def edited(change: Any, name: str) -> Path:
        target = tmp_path / name / "aim"
        target.mkdir(parents=True)
        for path in (out_dir / "aim" / "ml-team").glob("*.yaml"):
            doc = yaml.safe_load(path.read_text())
            if doc["kind"] == "AIMService" and doc["metadata"]["name"] == "chat-by-name":
                change(doc)
            (target / path.name).write_text(yaml.safe_dump(doc))
        return target

    # More replicas roll nothing: still the live predictor, with the planned bounds.
    bounds = isvc_of(edited(lambda d: d["spec"].update(replicas=2), "bounds"))
    assert bounds["spec"]["predictor"]["minReplicas"] == 2
    assert bounds["spec"]["predictor"]["containers"] == live["spec"]["predictor"]["containers"]
    assert bounds["metadata"]["labels"]["app.kubernetes.io/managed-by"] == "aim-engine"
    # A change of what runs rolls the pods anyway: the plan's own InferenceService, whole.
    env = isvc_of(
        edited(lambda d: d["spec"].update(env=[{"name": "VLLM_LOGGING_LEVEL", "value": "DEBUG"}]), "env")
    )
    assert env["metadata"]["labels"]["app.kubernetes.io/managed-by"] == "aim-pulumi"
    assert "aim.eai.amd.com/profile-hash" in env["spec"]["predictor"]["annotations"]
    assert env["metadata"]["annotations"]["pulumi.com/waitFor"] == "condition=Ready"


def test_a_pvc_made_under_another_storage_class_is_reported_kept_at_creation(tmp_path: Path) -> None:
    """The live Shared cache's PVC was made under another StorageClass than the runtime config names
    now. Kubernetes fixes a claim's class, so the first `up` keeps the PVC as it is (its class is
    `ignoreChanges`) and warns `CacheKeptAtCreation`; the report says exactly that, with both
    classes, rather than a replacement that no longer happens or nothing at all."""
    code, out, err = run("--from", str(CACHE_DUMP), "-o", str(tmp_path / "kept"))
    assert (code, err) == (0, "")
    report = json.loads((tmp_path / "kept" / "report.json").read_text())
    assert report["importWritten"] is True and report["blocking"] == []
    assert report["summary"]["replaced"] == 0
    shared = service(report, "shared caches")
    pvc = by_kind(shared["adopted"])["PersistentVolumeClaim"]
    assert [
        (c["path"], c["live"], c["planned"], c["effect"]) for c in pvc["changes"] if c["effect"] != "update"
    ] == [("spec.storageClassName", "standard", "fast-rwx", "kept-at-creation")]
    assert pvc["replaced"] is False
    assert [c["kind"] for c in shared["toCreate"]] == ["Job"]  # the finished Job is gone
    name = "research/meta-llama-llama-3-1-8b-instruct-cache-ab40f03b"
    (line,) = [ln for ln in out.splitlines() if f"PersistentVolumeClaim {name}" in ln]
    assert "KEPT AT CREATION" in line and "CacheKeptAtCreation" in line
    assert "REPLACED" not in out
    assert "spec.storageClassName: standard -> fast-rwx  [kept-at-creation: Kubernetes fixes it" in out
    entries = json.loads((tmp_path / "kept" / "import.json").read_text())["resources"]
    pvc_entry = next(e for e in entries if e["type"] == "kubernetes:core/v1:PersistentVolumeClaim")
    assert pvc_entry == {
        "type": "kubernetes:core/v1:PersistentVolumeClaim",
        "name": "research-meta-llama-llama-3-1-8b-instruct-cache-ab40f03b-pvc",
        "id": name,
        "parent": "research-meta-llama-llama-3-1-8b-instruct-cache-ab40f03b",
    }


# --------------------------------------------------------------------------------------------------
# import.json


def test_import_json_matches_the_plan_of_the_written_yaml(
    imported: tuple[Path, int, str, dict[str, Any]], tmp_path: Path
) -> None:
    out_dir, _, _, _ = imported
    document = json.loads((out_dir / "import.json").read_text())
    assert set(document) == {"nameTable", "resources"}
    planned = {r["name"]: r for r in plan_json(out_dir / "aim", tmp_path)["resources"]}
    live = {
        (o["kind"], o["metadata"].get("namespace"), o["metadata"]["name"]) for o in read_dump(OPERATOR_DUMP)
    }
    seen: set[str] = set()
    for entry in document["resources"]:
        resource = planned[entry["name"]]
        assert entry["type"] == resource["type"]
        assert entry.get("parent") == resource["parent"]
        if entry.get("parent"):
            assert entry["parent"] in seen  # parents come first, as names of earlier entries
        seen.add(entry["name"])
        if resource["custom"]:
            metadata = resource["inputs"]["metadata"]
            assert entry["id"] == f"{metadata['namespace']}/{metadata['name']}"
            assert "component" not in entry
        else:
            assert entry["component"] is True and "id" not in entry
    expected = {
        name
        for name, r in planned.items()
        if r["type"].startswith("kubernetes:")
        and (r["inputs"]["kind"], r["inputs"]["metadata"]["namespace"], r["inputs"]["metadata"]["name"])
        in live
    }
    assert {e["name"] for e in document["resources"] if "id" in e} == expected
    assert len(expected) == 5
    assert [e["name"] for e in document["resources"] if e.get("component")] == [
        "aim",
        "aim-aimservice-ml-team-chat-by-model",
        "aim-aimservice-ml-team-chat-by-name",
    ]


def test_name_sets_the_aimstack_name_every_pulumi_name_starts_with(tmp_path: Path) -> None:
    code, _, _ = run("--from", str(OPERATOR_DUMP), "-o", str(tmp_path / "out"), "--name", "platform")
    assert code == 0
    entries = json.loads((tmp_path / "out" / "import.json").read_text())["resources"]
    assert entries[0] == {"type": "aim:index:AIMStack", "name": "platform", "component": True}
    assert all(e["name"].startswith("platform") for e in entries)


# --------------------------------------------------------------------------------------------------
# Taking the operator out


def test_the_operator_removal_steps_are_in_order_with_exact_commands(
    imported: tuple[Path, int, str, dict[str, Any]],
) -> None:
    _, _, out, report = imported
    steps = report["operatorRemoval"]
    assert [s["step"] for s in steps] == [
        "scale the operator to zero",
        "remove the children's ownerReferences to AIM objects and reset their field managers",
        "delete the AIM custom resources, orphaning their children",
    ]
    assert steps[0]["commands"] == [
        "kubectl -n aim-system scale deployment/aim-engine-controller-manager --replicas=0"
    ]
    assert (
        "kubectl -n ml-team patch inferenceservice.serving.kserve.io/chat-by-name-4b72e406 --type=json -p "
        '\'[{"op":"test","path":"/metadata/ownerReferences/0/uid","value":"0b7f1c1e-5d1a-4c53-9a53-6f0f5f1f0a01"},'
        '{"op":"remove","path":"/metadata/ownerReferences/0"},'
        '{"op":"replace","path":"/metadata/managedFields","value":[{}]}]\''
    ) in steps[1]["commands"]
    # KServe's predictor Services are owned by their InferenceService, not by an AIM object.
    assert not [c for c in steps[1]["commands"] if "service/" in c and "predictor" in c]
    deletes = steps[2]["commands"]
    assert deletes[:2] == [
        "kubectl -n ml-team delete aimservice.aim.eai.amd.com/chat-by-model --cascade=orphan",
        "kubectl -n ml-team delete aimservice.aim.eai.amd.com/chat-by-name --cascade=orphan",
    ]
    finalizer = deletes.index(
        "kubectl -n ml-team patch aimartifact.aim.eai.amd.com/qwen3-32b-mi300x-fp8-0b7f1c1e --type=merge -p "
        '\'{"metadata":{"finalizers":null}}\''
    )
    assert deletes[finalizer + 1].endswith(
        "aimartifact.aim.eai.amd.com/qwen3-32b-mi300x-fp8-0b7f1c1e --cascade=orphan"
    )
    assert (
        out.index("scale deployment")
        < out.index("patch inferenceservice")
        < out.index("pulumi import --file")
    )
    assert out.index("pulumi import --file") < out.index("delete aimservice")


def test_owner_patch_removes_only_aim_references_highest_index_first() -> None:
    obj = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {
            "name": "c",
            "namespace": "ns",
            "ownerReferences": [
                {"apiVersion": "aim.eai.amd.com/v1alpha2", "kind": "AIMService", "name": "a", "uid": "u0"},
                {"apiVersion": "apps/v1", "kind": "Deployment", "name": "d", "uid": "u1"},
                {"apiVersion": "aim.eai.amd.com/v1alpha1", "kind": "AIMArtifact", "name": "b", "uid": "u2"},
            ],
        },
    }
    patch = owner_patch(obj)
    assert patch is not None
    ops = json.loads(patch.split(" -p ", 1)[1].strip("'"))
    assert ops == [
        {"op": "test", "path": "/metadata/ownerReferences/2/uid", "value": "u2"},
        {"op": "remove", "path": "/metadata/ownerReferences/2"},
        {"op": "test", "path": "/metadata/ownerReferences/0/uid", "value": "u0"},
        {"op": "remove", "path": "/metadata/ownerReferences/0"},
        {"op": "replace", "path": "/metadata/managedFields", "value": [{}]},
    ]
    assert owner_patch({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}) is None


# --------------------------------------------------------------------------------------------------
# Inputs and usage


def test_stdin_and_multi_document_dumps_read_as_the_list(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, imported: tuple[Path, int, str, dict[str, Any]]
) -> None:
    items = yaml.safe_load(OPERATOR_DUMP.read_text())["items"]
    monkeypatch.setattr(sys, "stdin", io.StringIO(yaml.safe_dump_all(items)))
    code, out, _ = run("--from", "-", "-o", str(tmp_path / "out"))
    assert code == 0
    assert out == imported[2].replace(str(imported[0]), str(tmp_path / "out"))
    assert len(split_dump(read_dump(OPERATOR_DUMP)).live) == 7


def test_usage_errors(tmp_path: Path) -> None:
    code, _, err = run("--from", str(tmp_path / "nope.yaml"), "-o", str(tmp_path / "out"))
    assert code == 2 and "no such file or directory" in err
    empty = tmp_path / "empty.yaml"
    empty.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x, namespace: team}\n")
    code, _, err = run("--from", str(empty), "-o", str(tmp_path / "out"))
    assert code == 1 and "no AIMService in" in err
    stale = tmp_path / "out" / "aim" / "old.yaml"
    stale.parent.mkdir(parents=True)
    stale.write_text("{}\n")
    code, _, err = run("--from", str(OPERATOR_DUMP), "-o", str(tmp_path / "out"))
    assert code == 2 and "old.yaml is not one of the objects of this dump" in err


# --------------------------------------------------------------------------------------------------
# The field comparison


def test_diff_reads_planned_fields_only_and_follows_the_replace_rules() -> None:
    planned = {
        "apiVersion": "v1",
        "kind": "PersistentVolumeClaim",
        "metadata": {"name": "p", "namespace": "n"},
        "spec": {"accessModes": ["ReadWriteMany"], "resources": {"requests": {"storage": "16Gi"}}},
    }
    live = {
        "apiVersion": "v1",
        "kind": "PersistentVolumeClaim",
        "metadata": {"name": "p", "namespace": "n", "uid": "x"},
        "spec": {
            "accessModes": ["ReadWriteOnce"],
            "resources": {"requests": {"storage": "20Gi"}},
            "volumeMode": "Filesystem",
        },
    }
    changes = {c.path: c.effect for c in diff_manifest(planned, live)}
    assert changes == {"spec.accessModes": "replaces", "spec.resources.requests.storage": "refused"}
    live["spec"] = {"accessModes": ["ReadWriteMany"], "resources": {"requests": {"storage": "16384Mi"}}}
    assert diff_manifest(planned, live) == []  # quantities compare by value


def test_a_crd_list_is_compared_whole_after_the_crd_defaults_and_a_list_map_by_key() -> None:
    route = {
        "apiVersion": "gateway.networking.k8s.io/v1",
        "kind": "HTTPRoute",
        "spec": {"rules": [{"backendRefs": [{"name": "svc", "port": 80}]}]},
    }
    live = {
        "apiVersion": "gateway.networking.k8s.io/v1",
        "kind": "HTTPRoute",
        "spec": {
            "rules": [
                {
                    "backendRefs": [{"group": "", "kind": "Service", "name": "svc", "port": 80, "weight": 1}],
                    "matches": [{"path": {"type": "PathPrefix", "value": "/"}}],
                }
            ]
        },
    }
    assert diff_manifest(route, live) == []  # what the API server defaults is not a change
    live["spec"]["rules"][0]["backendRefs"].append({"name": "other", "port": 80})
    assert [c.path for c in diff_manifest(route, live)] == ["spec.rules"]  # the apply drops `other`
    isvc = {
        "apiVersion": "serving.kserve.io/v1beta1",
        "kind": "InferenceService",
        "spec": {"predictor": {"containers": [{"name": "c", "ports": [{"containerPort": 8000}]}]}},
    }
    live_isvc = {
        "apiVersion": "serving.kserve.io/v1beta1",
        "kind": "InferenceService",
        "spec": {
            "predictor": {
                "containers": [{"name": "c", "ports": [{"containerPort": 8000, "protocol": "TCP"}]}]
            }
        },
    }
    assert diff_manifest(isvc, live_isvc) == []


def test_diff_merges_named_lists_by_name_and_knows_the_replica_bounds() -> None:
    """Without a CRD schema (the API server's own kinds), lists of named items merge by name."""
    planned = {
        "kind": "InferenceService",
        "spec": {
            "predictor": {
                "minReplicas": 2,
                "containers": [{"name": "kserve-container", "env": [{"name": "A", "value": "1"}]}],
            }
        },
    }
    live = {
        "kind": "InferenceService",
        "spec": {
            "predictor": {
                "minReplicas": 1,
                "containers": [
                    {
                        "name": "kserve-container",
                        "env": [{"name": "B", "value": "x"}, {"name": "A", "value": "1"}],
                    },
                    {"name": "istio-proxy"},
                ],
            }
        },
    }
    changes = {c.path: c.effect for c in diff_manifest(planned, live)}
    assert changes == {"spec.predictor.minReplicas": "update"}
    planned["spec"]["predictor"]["containers"][0]["env"][0]["value"] = "2"
    changes = {c.path: c.effect for c in diff_manifest(planned, live)}
    assert changes["spec.predictor.containers[name=kserve-container].env[name=A].value"] == "rolls-pods"


# --------------------------------------------------------------------------------------------------
# Reading a cluster (the API server itself: tests/cluster/test_import_cluster.py)


def test_objects_tied_to_aim_are_kept_and_the_namespaces_other_objects_set_apart() -> None:
    objects = read_dump(OPERATOR_DUMP)
    strangers = [
        {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": {"name": "kube-root-ca.crt", "namespace": "ml-team"},
        },
        {
            "apiVersion": "v1",
            "kind": "Service",
            "metadata": {"name": "web", "namespace": "ml-team", "labels": {"app": "web"}, "uid": "w"},
        },
    ]
    # Listed before its owner: the owner is kept, so is it.
    owned = {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {
            "name": "token",
            "namespace": "ml-team",
            "ownerReferences": [
                {
                    "apiVersion": "v1",
                    "kind": "Service",
                    "name": "x",
                    "uid": "610238b7-22c2-44bc-816e-964e3bd99fd4",
                }
            ],
        },
    }
    read = tied_to_aim([owned, *strangers, *objects])
    assert read.others == strangers
    assert read.objects == [owned, *objects]  # KServe's Services follow their InferenceService


def fake_cluster(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, read: ClusterRead
) -> tuple[Path, list[tuple[str, str | None, str | None]]]:
    """`read_cluster` answering `read`: the kubeconfig file to give it, and the calls it got."""
    calls: list[tuple[str, str | None, str | None]] = []

    def fake(kubeconfig: str, context: str | None, namespace: str | None) -> ClusterRead:
        calls.append((kubeconfig, context, namespace))
        return read

    monkeypatch.setattr(cluster, "read_cluster", fake)
    kubeconfig = tmp_path / "kubeconfig"
    kubeconfig.write_text("apiVersion: v1\nkind: Config\n")
    return kubeconfig, calls


def test_a_cluster_read_takes_the_dump_path_and_adopts_an_untied_object_the_plan_names(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, imported: tuple[Path, int, str, dict[str, Any]]
) -> None:
    objects = read_dump(OPERATOR_DUMP)
    route = next(o for o in objects if o["kind"] == "HTTPRoute")
    # Someone made the route by hand: no operator label, no ownerReference. The plan names it.
    del route["metadata"]["labels"], route["metadata"]["ownerReferences"]
    stranger = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "kube-root-ca.crt", "namespace": "ml-team"},
    }
    read = tied_to_aim([*objects, stranger])
    assert route in read.others
    kubeconfig, calls = fake_cluster(monkeypatch, tmp_path, read)
    code, out, err = run(
        "--kubeconfig", str(kubeconfig), "--context", "prod", "-n", "ml-team", "-o", str(tmp_path / "out")
    )
    assert (code, err) == (0, "")
    assert calls == [(str(kubeconfig), "prod", "ml-team")]
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    adopted = by_kind(service(report, "ml-team/chat-by-name")["adopted"])
    assert adopted["HTTPRoute"]["id"] == "ml-team/chat-by-name-a04542d9"
    assert "kube-root-ca.crt" not in out
    assert report["summary"] == imported[3]["summary"]


def test_cluster_usage_errors(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    kubeconfig, calls = fake_cluster(monkeypatch, tmp_path, ClusterRead())
    out = str(tmp_path / "out")
    code, _, err = run("--kubeconfig", str(kubeconfig), "-o", out)
    assert code == 2 and "--kubeconfig needs -n NS or --all-namespaces" in err
    code, _, err = run("--from", str(OPERATOR_DUMP), "-n", "ml-team", "-o", out)
    assert code == 2 and "they need --kubeconfig" in err
    code, _, err = run("--kubeconfig", str(tmp_path / "nope"), "-n", "x", "-o", out)
    assert code == 2 and "no such file" in err
    code, _, err = run("--kubeconfig", str(kubeconfig), "--all-namespaces", "-o", out)
    assert code == 1 and "no AIMService in any namespace of the cluster" in err
    assert calls == [(str(kubeconfig), None, None)]
    with pytest.raises(SystemExit):
        run("--kubeconfig", str(kubeconfig), "--from", str(OPERATOR_DUMP), "-n", "x", "-o", out)


def test_an_unreachable_api_server_is_an_error_not_an_empty_namespace(tmp_path: Path) -> None:
    kubeconfig = tmp_path / "kubeconfig"
    kubeconfig.write_text(
        yaml.safe_dump(
            {
                "apiVersion": "v1",
                "kind": "Config",
                "clusters": [{"name": "c", "cluster": {"server": "http://127.0.0.1:9"}}],
                "users": [{"name": "u", "user": {"token": "t"}}],
                "contexts": [{"name": "x", "context": {"cluster": "c", "user": "u"}}],
                "current-context": "x",
            }
        )
    )
    code, _, err = run("--kubeconfig", str(kubeconfig), "-n", "ml-team", "-o", str(tmp_path / "out"))
    assert code == 1 and "cannot reach the API server" in err
    assert not (tmp_path / "out").exists()
    code, _, err = run(
        "--kubeconfig", str(kubeconfig), "--context", "nope", "-n", "a", "-o", str(tmp_path / "out")
    )
    assert code == 2 and "nope" in err


# --------------------------------------------------------------------------------------------------
# Every kind of service, as the operator leaves it (tests/fixtures/import/moving.yaml)


MOVING = FIXTURES / "moving.yaml"


@pytest.fixture(scope="module")
def moving(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[list[dict[str, Any]], Path, str, dict[str, Any]]:
    from operator_made import as_list, operator_deployment

    work = tmp_path_factory.mktemp("moving")
    objects = operator_deployment(list(yaml.safe_load_all(MOVING.read_text())), work / "operator")
    dump = work / "dump.yaml"
    dump.write_text(yaml.safe_dump(as_list(objects), sort_keys=False))
    code, out, err = run("--from", str(dump), "-o", str(work / "out"))
    assert code == 0 and err == "", err
    return objects, work / "out", out, json.loads((work / "out" / "report.json").read_text())


def test_operator_cache_names_are_kept_so_caches_are_adopted_never_made_again(
    moving: tuple[list[dict[str, Any]], Path, str, dict[str, Any]], tmp_path: Path
) -> None:
    from operator_made import operator_cache_name

    objects, out_dir, out, report = moving
    live = {(o["kind"], o["metadata"]["name"]) for o in objects}
    # Dedicated: the service's own PVC and Job, under the operator's names.
    dedicated = by_kind(service(report, "moving/dedicated")["adopted"])
    for kind in ("PersistentVolumeClaim", "Job"):
        entry = dedicated[kind]
        assert (kind, entry["name"]) in live
        assert entry["operatorName"] == {"planned": entry["operatorName"]["planned"], "kept": entry["name"]}
        assert entry["name"] == operator_cache_name(entry["operatorName"]["planned"])
        assert not entry["replaced"]
    # Shared: one PVC and Job for the two services, adopted once, under the operator's names.
    shared = by_kind(service(report, "shared caches")["adopted"])
    assert set(shared) == {"PersistentVolumeClaim", "Job"}
    claim = shared["PersistentVolumeClaim"]["name"]
    records = {}
    for name in ("shared-a", "shared-b", "dedicated"):
        doc = yaml.safe_load((out_dir / f"aim/moving/aimservice-{name}.yaml").read_text())
        records[name] = json.loads(doc["metadata"]["annotations"][ADOPTED_ANNOTATION])
    assert records["shared-a"]["caches"] == records["shared-b"]["caches"]
    assert claim in records["shared-a"]["caches"].values()
    assert "      = metadata.name: kept as the operator named it (the plan's own: " in out
    # Nothing is made again and no pod restarts: every child exists and every predictor is kept.
    assert report["summary"] == {
        "adopted": 20,
        "toCreate": 0,
        "replaced": 0,
        "refused": 0,
        "rollsPods": 0,
        # The two download Jobs differ from the plan only where Pulumi leaves a Job as created
        # (spec, labels, annotations: `ignoreChanges`), so neither counts as changed.
        "changed": 11,
        "notManaged": 7,
    }
    assert all(not c["changes"] for s in report["services"] for c in s["adopted"] if c["kind"] == "Job")
    # The plan of the written YAML mounts the operator's PVCs and names the caches as it did.
    planned = plan_json(out_dir / "aim", tmp_path)
    names = {
        r["inputs"]["metadata"]["name"] for r in planned["resources"] if r["type"].startswith("kubernetes:")
    }
    assert claim in names and dedicated["PersistentVolumeClaim"]["name"] in names
    isvcs = [r["inputs"] for r in planned["resources"] if r["type"].endswith(":InferenceService")]
    by_name = {o["metadata"]["name"]: o for o in objects if o["kind"] == "InferenceService"}
    assert len(isvcs) == 7
    for isvc in isvcs:
        assert isvc["spec"]["predictor"] == by_name[isvc["metadata"]["name"]]["spec"]["predictor"]
    document = json.loads((out_dir / "import.json").read_text())
    ids = {e["id"] for e in document["resources"] if "id" in e}
    assert f"moving/{claim}" in ids


def test_every_kind_of_service_is_adopted_with_its_children(
    moving: tuple[list[dict[str, Any]], Path, str, dict[str, Any]],
) -> None:
    _, _, _, report = moving
    kinds = {s["service"]: sorted(c["kind"] for c in s["adopted"]) for s in report["services"]}
    assert kinds == {
        "moving/autoscaled": ["ConfigMap", "InferenceService", "ScaledObject"],
        "moving/chat-by-model": ["ConfigMap", "InferenceService"],
        "moving/chat-by-name": ["ConfigMap", "HTTPRoute", "InferenceService"],
        "moving/dedicated": ["ConfigMap", "InferenceService", "Job", "PersistentVolumeClaim"],
        "moving/legacy": ["ConfigMap", "InferenceService"],
        "moving/shared-a": ["ConfigMap", "InferenceService"],
        "moving/shared-b": ["ConfigMap", "InferenceService"],
        "shared caches": ["Job", "PersistentVolumeClaim"],
    }
    by_model = service(report, "moving/chat-by-model")
    assert by_model["profile"]["name"] == by_model["operatorProfile"]["name"] == "qwen3-32b-mi300x-fp16"


def test_format_python_writes_a_program_that_plans_the_same_children_and_names_them_in_import_json(
    moving: tuple[list[dict[str, Any]], Path, str, dict[str, Any]], tmp_path: Path
) -> None:
    _, yaml_dir, _, yaml_report = moving
    code, out, err = run(
        "--from", str(yaml_dir.parent / "dump.yaml"), "-o", str(tmp_path / "py"), "--format", "python"
    )
    assert code == 0, err
    program = tmp_path / "py"
    assert sorted(p.name for p in program.iterdir()) == [
        "__main__.py",
        "import.json",
        "report.json",
        "templates.yaml",
    ]
    assert f"in the Pulumi project whose program is {program / '__main__.py'}" in out
    by_program = plan_json(program, tmp_path)
    by_yaml = plan_json(yaml_dir / "aim", tmp_path)

    def children(plan: dict[str, Any]) -> dict[tuple[str, str], Any]:
        found = {}
        for r in plan["resources"]:
            if r["type"].startswith("kubernetes:"):
                inputs = copy.deepcopy(r["inputs"])
                # A Shared cache's field manager names the project, which the two programs do not share.
                (inputs["metadata"].get("annotations") or {}).pop("pulumi.com/patchFieldManager", None)
                found[(inputs["kind"], inputs["metadata"]["name"])] = inputs
        return found

    # The very children of the YAML, field for field (what each service keeps included).
    assert children(by_program) == children(by_yaml)
    # import.json names the program's resources: its types, names and parents.
    resources = {r["name"]: r for r in by_program["resources"]}
    document = json.loads((program / "import.json").read_text())
    for entry in document["resources"]:
        assert resources[entry["name"]]["type"] == entry["type"]
        assert resources[entry["name"]].get("parent") == entry.get("parent")
    report = json.loads((program / "report.json").read_text())
    assert report["summary"] == yaml_report["summary"]


def test_apply_acts_on_a_cluster_only(tmp_path: Path) -> None:
    code, _, err = run("--from", str(OPERATOR_DUMP), "-o", str(tmp_path / "a"), "--apply")
    assert code == 2 and "--apply act on a cluster: they need --kubeconfig" in err
    code, _, err = run("--from", str(OPERATOR_DUMP), "-o", str(tmp_path / "b"), "--delete-aim-objects")
    assert code == 2 and "--delete-aim-objects is a step of --apply" in err
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


def test_kept_fields_apply_only_while_the_plan_asks_for_what_it_asked_at_import() -> None:
    from aim_pulumi.adopt.record import fields_digest, keep_fields

    planned = {"kind": "PersistentVolumeClaim", "spec": {"accessModes": ["ReadWriteOnce"]}}
    fields = {"spec.storageClassName": "standard", "spec.volumeName": "pvc-1"}
    kept = {"plan": fields_digest(planned, fields), "fields": fields}
    assert keep_fields(planned, kept)["spec"] == {
        "accessModes": ["ReadWriteOnce"],
        "storageClassName": "standard",
        "volumeName": "pvc-1",
    }
    # The plan now names a StorageClass of its own: its values apply, nothing is kept.
    changed = {
        "kind": "PersistentVolumeClaim",
        "spec": {"accessModes": ["ReadWriteOnce"], "storageClassName": "fast"},
    }
    assert keep_fields(changed, kept) == changed
    assert keep_fields(planned, None) is planned


DERIVED = FIXTURES / "derived.yaml"


def test_a_deployment_on_derived_profiles_is_adopted_with_nothing_replaced(tmp_path: Path) -> None:
    """The operator's profile sets and derived profiles: a standalone AIMProfileSet is written as
    declared, a model's child set and every derived profile are left for the plan to derive again,
    and every child of both services is adopted under its operator name with nothing made again."""
    from operator_made import as_list, operator_deployment, operator_derivations

    docs = list(yaml.safe_load_all(DERIVED.read_text()))
    objects = operator_deployment(docs, tmp_path / "operator")
    objects += operator_derivations([o for o in objects if o["apiVersion"].startswith("aim.eai.amd.com/")])
    dump = tmp_path / "dump.yaml"
    dump.write_text(yaml.safe_dump(as_list(objects), sort_keys=False))
    code, out, err = run("--from", str(dump), "-o", str(tmp_path / "out"))
    assert code == 0 and err == "", err
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert report["summary"]["replaced"] == 0
    assert report["summary"]["refused"] == 0
    # The source profile has `caching.enabled` and no service: its pre-warmed Shared cache is the
    # only thing made again. No InferenceService mounts the operator's copy, which is how import
    # names a cache the operator made (docs/adoption.md says so); every service child is adopted.
    prewarmed = next(s for s in report["services"] if s["service"] == "shared caches")["toCreate"]
    assert sorted(c["kind"] for c in prewarmed) == ["Job", "PersistentVolumeClaim"]
    assert report["summary"]["toCreate"] == len(prewarmed)
    written = {
        (d["kind"], d["metadata"]["name"])
        for f in sorted((tmp_path / "out" / "aim").rglob("*.yaml"))
        for d in yaml.safe_load_all(f.read_text())
        if d
    }
    assert ("AIMProfileSet", "qwen3-8b-tp2") in written
    assert ("AIMModel", "qwen3-8b-support") in written
    assert not any(
        kind == "AIMProfileSet" and name.startswith("qwen3-8b-support-profiles") for kind, name in written
    )
    derived = [
        o["metadata"]["name"]
        for o in objects
        if (o["metadata"].get("annotations") or {}).get("aim.eai.amd.com/profile-source") == "copy"
    ]
    assert len(derived) == 2
    assert not any(name in {n for _, n in written} for name in derived)
    left = out.split("Not managed by the plan", 1)[1]
    assert all(f"AIMProfile derived/{name}" in left for name in derived)
    assert "AIMProfileSet derived/qwen3-8b-support-profiles-" in left
    # Each service resolves the derived profile the operator resolved, and keeps its children.
    for key in ("derived/support-bot", "derived/chat-tp2"):
        entry = service(report, key)
        assert entry["profile"]["name"] == entry["operatorProfile"]["name"]
        assert entry["profile"]["name"] in derived
        assert {c["kind"] for c in entry["adopted"]} >= {"InferenceService", "ConfigMap"}
    planned = plan_json(tmp_path / "out" / "aim", tmp_path)
    isvcs = {
        r["inputs"]["metadata"]["name"]: r["inputs"]
        for r in planned["resources"]
        if r["type"].endswith(":InferenceService")
    }
    live = {o["metadata"]["name"]: o for o in objects if o["kind"] == "InferenceService"}
    assert set(isvcs) == set(live)
    for name, isvc in isvcs.items():
        assert isvc["spec"]["predictor"] == live[name]["spec"]["predictor"]
