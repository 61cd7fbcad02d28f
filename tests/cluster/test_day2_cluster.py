"""Day 2 on a cluster: what an SRE does to a deployed stack, against the real API server.

Each test deploys the `cluster-service` fixture program in a namespace of its own, with the
controllers it needs played by the status writer: a serving-only change, drift on a Shared cache, a
Shared cache a destroyed stack co-owned (and its share released), an autoscaled service, a predictor
that starts crashing, a changed cache access mode, a rotated secret.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from cluster import StackFactory, TestCluster
from harness import RealStack, changed_steps
from kube import ApiError, wait_until
from status_writer import StatusWriter, mark_predictor_crashing

pytestmark = pytest.mark.cluster

ISVC = ("serving.kserve.io/v1beta1", "InferenceService")
JOB = ("batch/v1", "Job")
PVC = ("v1", "PersistentVolumeClaim")
ISVC_TYPE = "kubernetes:serving.kserve.io/v1beta1:InferenceService"
JOB_TYPE = "kubernetes:batch/v1:Job"
PVC_TYPE = "kubernetes:core/v1:PersistentVolumeClaim"


def status_output(stack: RealStack) -> dict[str, Any]:
    """The first service's `status`, as `pulumi stack output` shows it."""
    status: dict[str, Any] = stack.stack_outputs()["status"]
    return status


def conditions(status: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {c["type"]: (c["status"], c["reason"]) for c in status.get("conditions") or []}


def env_value(container: dict[str, Any], name: str) -> str | None:
    return next((e.get("value") for e in container.get("env") or [] if e.get("name") == name), None)


def only(items: list[dict[str, Any]]) -> dict[str, Any]:
    assert len(items) == 1, [i["metadata"]["name"] for i in items]
    return items[0]


@pytest.mark.parametrize("mode", ["Shared", "Dedicated"])
def test_a_serving_only_change_updates_the_inference_service_and_leaves_the_download_job(
    service_stack: StackFactory, cluster: TestCluster, mode: str
) -> None:
    """Finding 1: a runtime-config env value and `aim:downloadImage` used to replace every download
    Job (a second download, and for a Shared cache's retained Job a field conflict on every `up`)."""
    namespace = f"serving-only-{mode.lower()}"
    stack = service_stack(namespace, cacheMode=mode, logLevel="INFO")
    with StatusWriter(cluster.kube, [namespace]):
        stack.up()
        job = only(cluster.kube.list(*JOB, namespace))
        isvc = only(cluster.kube.list(*ISVC, namespace))
        stack.config("cluster-service:logLevel", "DEBUG")
        stack.config("aim:downloadImage", "registry.example.com/aim-downloader:2")
        steps = changed_steps(stack.preview("--diff"))
        assert not [key for key, op in steps.items() if op == "replace"], steps
        assert not [key for key in steps if key[0] == JOB_TYPE], steps
        assert steps[(ISVC_TYPE, "chat-isvc")] == "update"
        stack.up()
    after_job = only(cluster.kube.list(*JOB, namespace))
    after_isvc = only(cluster.kube.list(*ISVC, namespace))
    assert after_job["metadata"]["uid"] == job["metadata"]["uid"]
    # The Job runs as it was created; the server got the change.
    assert after_job["spec"]["template"] == job["spec"]["template"]
    assert after_isvc["metadata"]["uid"] == isvc["metadata"]["uid"]
    assert env_value(after_isvc["spec"]["predictor"]["containers"][0], "VLLM_LOGGING_LEVEL") == "DEBUG"
    stack.pulumi("preview", "--expect-no-changes")


def test_kubectl_label_on_a_shared_cache_is_reported_and_corrected_with_the_rest(
    service_stack: StackFactory, cluster: TestCluster
) -> None:
    """Finding 2: a `kubectl label --overwrite` of a label the program sets on a Shared cache PVC
    made every refreshing preview and up fail with a conflict, so the InferenceService's drift of
    the same incident was never corrected."""
    namespace = "shared-drift"
    stack = service_stack(namespace, cacheMode="Shared")
    # The writer stays: the update that restores the InferenceService is awaited.
    with StatusWriter(cluster.kube, [namespace]):
        stack.up()
        pvc = only(cluster.kube.list(*PVC, namespace))
        name = pvc["metadata"]["name"]
        key, declared = sorted(pvc["metadata"]["labels"].items())[0]
        cluster.kube.patch(
            *PVC, namespace, name, {"metadata": {"labels": {key: "edited"}}}, field_manager="kubectl-label"
        )
        isvc = only(cluster.kube.list(*ISVC, namespace))
        planned_bounds = {k: isvc["spec"]["predictor"].get(k) for k in ("minReplicas", "maxReplicas")}
        cluster.kube.patch(
            *ISVC,
            namespace,
            isvc["metadata"]["name"],
            {"spec": {"predictor": {"minReplicas": 3, "maxReplicas": 5}}},
        )

        steps = changed_steps(stack.preview("--refresh"))
        assert {op for (type_, _), op in steps.items() if type_ in (PVC_TYPE, ISVC_TYPE)} == {"update"}
        assert {type_ for type_, _ in steps} >= {PVC_TYPE, ISVC_TYPE}, steps
        stack.up("--refresh")
        assert cluster.kube.get(*PVC, namespace, name)["metadata"]["labels"][key] == declared
        predictor = cluster.kube.get(*ISVC, namespace, isvc["metadata"]["name"])["spec"]["predictor"]
        assert {k: predictor.get(k) for k in planned_bounds} == planned_bounds
        stack.pulumi("preview", "--refresh", "--expect-no-changes")


EXPANDABLE = "expandable"


def bind(cluster: TestCluster, namespace: str, name: str) -> None:
    """What the volume controller the test cluster lacks writes once a claim is bound (a PVC's size
    can grow only then)."""
    cluster.kube.patch(*PVC, namespace, name, {"status": {"phase": "Bound"}}, subresource="status")


def managers(obj: dict[str, Any]) -> set[str]:
    return {m["manager"] for m in obj["metadata"].get("managedFields") or []}


def release(cluster: TestCluster, kind: tuple[str, str], obj: dict[str, Any], manager: str) -> None:
    """docs/cluster.md's release of a destroyed stack's share: an apply of nothing under its manager."""
    meta = obj["metadata"]
    cluster.kube.apply(
        {
            "apiVersion": kind[0],
            "kind": kind[1],
            "metadata": {"name": meta["name"], "namespace": meta["namespace"]},
        },
        field_manager=manager,
    )


def test_a_destroyed_stacks_share_of_a_cache_names_the_stack_is_released_and_never_blocks(
    service_stack: StackFactory, cluster: TestCluster
) -> None:
    """Finding 3: a destroyed stack's field manager stayed on the retained PVC and Job as a random
    `pulumi-kubernetes-<hex>` nobody could trace to a stack, and a model size change the staying
    stack then made failed with a conflict naming it. Each stack now applies a Shared cache under
    `aim-pulumi-<project>-<stack>`, and docs/cluster.md's command releases a destroyed one's share."""
    if cluster.kube.find("storage.k8s.io/v1", "StorageClass", None, EXPANDABLE) is None:
        cluster.kube.create(
            {
                "apiVersion": "storage.k8s.io/v1",
                "kind": "StorageClass",
                "metadata": {"name": EXPANDABLE},
                "provisioner": "example.com/no-provisioner",
                "allowVolumeExpansion": True,
            }
        )
    namespace = "shared-after-destroy"
    # A Shared cache takes its class from the runtime config, not from a service.
    shared = {"cacheMode": "Shared", "runtimeStorageClass": EXPANDABLE}
    first = service_stack(namespace, stack_name="team-a", serviceName="team-a", **shared)
    second = service_stack(namespace, stack_name="team-b", serviceName="team-b", **shared)
    staying, leaving = "aim-pulumi-cluster-service-team-a", "aim-pulumi-cluster-service-team-b"
    with StatusWriter(cluster.kube, [namespace]):
        first.up()
        second.up()
        pvc = only(cluster.kube.list(*PVC, namespace))
        job = only(cluster.kube.list(*JOB, namespace))
        for obj in (pvc, job):
            assert {staying, leaving} <= managers(obj), managers(obj)
            assert not [m for m in managers(obj) if m.startswith("pulumi-kubernetes")], managers(obj)
        second.destroy()
        kept = [
            (PVC, cluster.kube.get(*PVC, namespace, pvc["metadata"]["name"])),
            (JOB, only(cluster.kube.list(*JOB, namespace))),
        ]
        for kind, obj in kept:
            assert leaving in managers(obj), "destroy keeps the share, under the stack's name"
            release(cluster, kind, obj, leaving)
        for obj in (
            cluster.kube.get(*PVC, namespace, pvc["metadata"]["name"]),
            only(cluster.kube.list(*JOB, namespace)),
        ):
            assert leaving not in managers(obj) and staying in managers(obj), managers(obj)
        released = cluster.kube.get(*PVC, namespace, pvc["metadata"]["name"])
        assert released["spec"] == pvc["spec"], "the release changes no field the staying stack holds"
        bind(cluster, namespace, pvc["metadata"]["name"])
        first.config("cluster-service:modelSize", "3Gi")
        first.up()
    after = only(cluster.kube.list(*PVC, namespace))
    assert after["metadata"]["uid"] == pvc["metadata"]["uid"]
    size = pvc["spec"]["resources"]["requests"]["storage"]
    grown = after["spec"]["resources"]["requests"]["storage"]
    assert grown != size, (size, grown)
    # The size is the staying stack's alone now.
    holders = [
        m["manager"] for m in after["metadata"]["managedFields"] if "f:requests" in str(m.get("fieldsV1"))
    ]
    assert holders == [staying], holders
    first.pulumi("preview", "--expect-no-changes")


@pytest.mark.parametrize("read_back", [True, False], ids=["default", "read-back-off"])
def test_routes_and_keda_are_reported_after_a_refreshing_up_or_read_back_after_the_first(
    service_stack: StackFactory, cluster: TestCluster, read_back: bool
) -> None:
    """Finding 6: an autoscaled service stayed `Starting` for ever (the ScaledObject's status was
    never read), and the routes of a fresh `up` were pending until `up --refresh`. By default the
    first `up` reads them again once the InferenceService is ready (the program does, with no
    resource in the state); with `aim:readBackStatus: false` `pulumi up --refresh` reads what KEDA
    and the gateway wrote."""
    namespace = "day2-status" + ("" if read_back else "-read-back-off")
    options = {} if read_back else {"aim:readBackStatus": "false"}
    stack = service_stack(namespace, autoscaling="true", services="3", **options)
    with StatusWriter(cluster.kube, [namespace]) as writer:
        stack.up()
        external = sorted(r["urn"].rsplit("::", 1)[-1] for r in stack.state_resources() if r.get("external"))
        # No read resource either way: by default the program reads the routes and ScaledObjects
        # back itself (`status_read.py`), which costs the state nothing.
        assert external == []
        if not read_back:
            while len([w for w in writer.written if w[0] in ("HTTPRoute", "ScaledObject")]) < 6:
                time.sleep(0.2)
            stack.up("--refresh")
    statuses = stack.stack_outputs()["statuses"]
    assert [s["status"] for s in statuses] == ["Running"] * 3
    for status in statuses:
        found = conditions(status)
        assert found["HTTPRouteReady"] == ("True", "HTTPRouteAccepted")
        assert found["HPAReady"] == ("True", "HPAOperational")
        assert found["Ready"] == ("True", "AllComponentsReady")
    stack.pulumi("preview", "--expect-no-changes")


def test_a_crashing_predictor_fails_the_service_at_the_next_refreshing_run(
    service_stack: StackFactory, cluster: TestCluster
) -> None:
    """Finding 6: an OOM-killed predictor in CrashLoopBackOff was reported as `Starting`."""
    namespace = "day2-crash"
    stack = service_stack(namespace)
    with StatusWriter(cluster.kube, [namespace]):
        stack.up()
    assert status_output(stack)["status"] == "Running"
    mark_predictor_crashing(
        cluster.kube, namespace, only(cluster.kube.list(*ISVC, namespace))["metadata"]["name"]
    )
    stack.up("--refresh")
    status = status_output(stack)
    assert status["status"] == "Failed"
    assert conditions(status)["InferenceServiceReady"] == ("False", "PodOOMKilled")
    ready = next(c for c in status["conditions"] if c["type"] == "Ready")
    assert (ready["status"], ready["reason"]) == ("False", "PodOOMKilled")
    assert "exit code 137" in ready["message"]


def test_labels_added_by_hand_survive_an_update_under_a_field_manager_of_their_own(
    service_stack: StackFactory, cluster: TestCluster
) -> None:
    """Finding 5: what people add with kubectl and the program does not set. pulumi-kubernetes takes
    over the fields of every field manager whose name starts with `kubectl` when it updates an object,
    so a label added by `kubectl label` (manager `kubectl-label`) goes at the next update of that
    object; one added with `--field-manager=<anything else>` stays whoever's it is (docs/cluster.md)."""
    namespace = "day2-kept"
    stack = service_stack(namespace)
    with StatusWriter(cluster.kube, [namespace]):
        stack.up()
        name = only(cluster.kube.list(*ISVC, namespace))["metadata"]["name"]
        cluster.kube.patch(
            *ISVC,
            namespace,
            name,
            {"metadata": {"labels": {"by-kubectl": "x"}}},
            field_manager="kubectl-label",
        )
        cluster.kube.patch(
            *ISVC, namespace, name, {"metadata": {"labels": {"by-ops": "x"}}}, field_manager="ops"
        )
        stack.config("aim:readyTimeoutSeconds", "1200")
        stack.up("--refresh")
    labels = cluster.kube.get(*ISVC, namespace, name)["metadata"]["labels"]
    assert labels.get("by-ops") == "x"
    assert "by-kubectl" not in labels


@pytest.mark.parametrize("dependents", [False, True], ids=["target", "target-dependents"])
def test_a_targeted_up_of_a_service_applies_its_children_with_target_dependents(
    service_stack: StackFactory, cluster: TestCluster, dependents: bool
) -> None:
    """Finding 7: `pulumi up --target <AIMService URN>` applies nothing: a component has no state of
    its own, and its children are other resources. `--target-dependents` takes them in (docs/cluster.md)."""
    namespace = f"day2-{'dependents' if dependents else 'target'}"
    stack = service_stack(namespace)
    with StatusWriter(cluster.kube, [namespace]):
        stack.up()
        urn = next(r["urn"] for r in stack.state_resources() if r["type"] == "aim:index:AIMService")
        stack.config("cluster-service:image", "amdenterpriseai/aim-qwen-qwen3-0-6b:0.8.6")
        stack.pulumi(
            "up", "--yes", "--skip-preview", "--target", urn, *(["--target-dependents"] if dependents else [])
        )
    isvc = only(cluster.kube.list(*ISVC, namespace))
    image = isvc["spec"]["predictor"]["containers"][0]["image"]
    assert image.endswith(":0.8.6" if dependents else ":0.8.5"), image


def clear_finalizers(cluster: TestCluster, kind: tuple[str, str], namespace: str, name: str) -> bool:
    """True once the object is gone; its finalizers cleared while it waits for a controller not here."""
    found = cluster.kube.find(*kind, namespace, name)
    if found is None:
        return True
    if found["metadata"].get("finalizers"):
        try:
            cluster.kube.patch(*kind, namespace, name, {"metadata": {"finalizers": None}})
        except ApiError as error:
            if error.status != 404:
                raise
    return False


def test_a_changed_access_mode_keeps_a_shared_cache_and_warns_with_the_way_to_recreate_it(
    service_stack: StackFactory, cluster: TestCluster
) -> None:
    """`aim:cacheAccessMode` changes a field Kubernetes fixes when a PVC is created: the retained
    Shared cache's PVC was replaced, the new spec applied onto the old PVC failed, and so did every
    later `up`. The PVC now keeps it, the preview warns naming the commands, which recreate it."""
    namespace = "access-mode-change"
    stack = service_stack(namespace, cacheMode="Shared")
    with StatusWriter(cluster.kube, [namespace]):
        stack.up()
        pvc = only(cluster.kube.list(*PVC, namespace))
        job = only(cluster.kube.list(*JOB, namespace))
        assert pvc["spec"]["accessModes"] == ["ReadWriteMany"]
        stack.config("aim:cacheAccessMode", "ReadWriteOnce")
        preview = stack.preview()
        assert changed_steps(preview) == {}, "nothing is replaced, nothing wedges"
        command = f"kubectl delete -n {namespace} job/{job['metadata']['name']} pvc/{pvc['metadata']['name']}"
        said = json.dumps(preview)
        assert "CacheKeptAtCreation" in said and command in said, said[-3000:]
        stack.up()
        kept = cluster.kube.get(*PVC, namespace, pvc["metadata"]["name"])
        assert (kept["metadata"]["uid"], kept["spec"]["accessModes"]) == (
            pvc["metadata"]["uid"],
            ["ReadWriteMany"],
        )
        # The documented step: delete the Job and the PVC, then `pulumi up --refresh`.
        for kind, obj in ((JOB, job), (PVC, pvc)):
            cluster.kube.delete(*kind, namespace, obj["metadata"]["name"])
            # No controller-manager here clears the PVC's protection finalizer once nothing mounts it.
            name = obj["metadata"]["name"]
            wait_until(
                lambda kind=kind, name=name: clear_finalizers(cluster, kind, namespace, name),
                30,
                f"{name} deleted",
            )
        stack.up("--refresh")
        recreated = only(cluster.kube.list(*PVC, namespace))
        assert recreated["metadata"]["uid"] != pvc["metadata"]["uid"]
        assert recreated["spec"]["accessModes"] == ["ReadWriteOnce"]
        assert only(cluster.kube.list(*JOB, namespace))["metadata"]["uid"] != job["metadata"]["uid"]
        stack.pulumi("preview", "--expect-no-changes")


def test_a_changed_storage_class_keeps_a_shared_cache_and_warns_with_the_way_to_recreate_it(
    service_stack: StackFactory, cluster: TestCluster
) -> None:
    """A runtime config's storage class changed under a deployed Shared cache. Kubernetes fixes a
    claim's class, so Pulumi replaced the PVC; the retained Shared cache's replacement applied the
    new spec onto the old PVC under the stack's field manager, failed, and so did every later
    `up`. The PVC now keeps its class and uid, `up` succeeds, and the warning names the commands
    that recreate the cache on purpose, which then make it under the new class."""
    namespace = "class-change"
    # A Shared cache takes its class from the cluster runtime config (the service's own is its own).
    stack = service_stack(namespace, cacheMode="Shared", runtimeStorageClass="immediate")
    with StatusWriter(cluster.kube, [namespace]):
        stack.up()
        pvc = only(cluster.kube.list(*PVC, namespace))
        job = only(cluster.kube.list(*JOB, namespace))
        assert pvc["spec"]["storageClassName"] == "immediate"
        stack.config("cluster-service:runtimeStorageClass", "wait-for-consumer")
        preview = stack.preview()
        assert changed_steps(preview) == {}, "nothing is replaced, nothing wedges"
        name = pvc["metadata"]["name"]
        command = f"kubectl delete -n {namespace} job/{job['metadata']['name']} pvc/{name}"
        said = json.dumps(preview)
        assert "CacheKeptAtCreation" in said and command in said, said[-3000:]
        assert "keeps spec.storageClassName immediate (the program asks for wait-for-consumer)" in said
        up = stack.pulumi("up", "--yes", "--skip-preview")
        assert "CacheKeptAtCreation" in up.stdout + up.stderr and command in up.stdout + up.stderr
        kept = cluster.kube.get(*PVC, namespace, name)
        assert (kept["metadata"]["uid"], kept["spec"]["storageClassName"]) == (
            pvc["metadata"]["uid"],
            "immediate",
        )
        stack.pulumi("preview", "--expect-no-changes")
        # The documented step: delete the Job and the PVC, then `pulumi up --refresh`.
        for kind, obj in ((JOB, job), (PVC, pvc)):
            cluster.kube.delete(*kind, namespace, obj["metadata"]["name"])
            gone = obj["metadata"]["name"]
            wait_until(
                lambda kind=kind, gone=gone: clear_finalizers(cluster, kind, namespace, gone),
                30,
                f"{gone} deleted",
            )
        stack.up("--refresh")
        recreated = only(cluster.kube.list(*PVC, namespace))
        assert recreated["metadata"]["uid"] != pvc["metadata"]["uid"]
        assert recreated["spec"]["storageClassName"] == "wait-for-consumer"
        stack.pulumi("preview", "--expect-no-changes")


SECRET = ("v1", "Secret")
SECRET_TYPE = "kubernetes:core/v1:Secret"


def test_a_rotated_secret_rolls_the_predictor_and_the_secret_updates_in_place_where_allowed(
    service_stack: StackFactory, cluster: TestCluster
) -> None:
    """Finding 4: a rotated secret value replaced the env Secret (deleted, then created) and reached
    the model only at its next restart. With `kubernetes:enableSecretMutable` (docs/cluster.md) the
    Secret is updated in place, and the digest of its content on the InferenceService, which KServe
    copies into the predictor's pod template, rolls the predictor."""
    namespace = "secret-rotation"
    stack = service_stack(namespace, token="hf_first", **{"kubernetes:enableSecretMutable": "true"})
    with StatusWriter(cluster.kube, [namespace]):
        stack.up()
        isvc = only(cluster.kube.list(*ISVC, namespace))
        secret = cluster.kube.get(*SECRET, namespace, f"{isvc['metadata']['name']}-env")
        stack.pulumi("preview", "--expect-no-changes")
        stack.config("cluster-service:token", "hf_second")
        steps = changed_steps(stack.preview())
        # The download Job's env Secret holds the token too: updated, the completed Job left as it is.
        assert steps.pop((ISVC_TYPE, "chat-isvc"), None) == "update", steps
        assert steps.pop((SECRET_TYPE, "chat-isvc-env"), None) == "update", steps
        assert [(t, n.endswith("-env"), op) for (t, n), op in steps.items()] == [
            (SECRET_TYPE, True, "update")
        ], steps
        stack.up()
    rotated = cluster.kube.get(*ISVC, namespace, isvc["metadata"]["name"])
    after = cluster.kube.get(*SECRET, namespace, secret["metadata"]["name"])
    assert after["metadata"]["uid"] == secret["metadata"]["uid"], "updated in place"
    assert after["data"] != secret["data"]
    key = "aim.eai.amd.com/env-secret-sha256"
    assert rotated["metadata"]["annotations"][key] != isvc["metadata"]["annotations"][key]
    assert rotated["spec"]["predictor"] == isvc["spec"]["predictor"], "only the annotation changes"
    assert "hf_second" not in json.dumps(rotated)
    stack.pulumi("preview", "--expect-no-changes")


def lost_binding_warnings(preview: dict[str, Any]) -> list[str]:
    return [
        str(d.get("message"))
        for d in preview.get("diagnostics") or []
        if "ProfileBindingLost" in str(d.get("message")) and d.get("severity") == "warning"
    ]


def test_a_binding_deleted_from_the_state_is_warned_about_naming_both_profiles(
    service_stack: StackFactory, cluster: TestCluster
) -> None:
    """Finding 7: `pulumi state delete` of a binding silently dropped the sticky profile: the next
    run bound the fresh winner as for a new service, and the predictor rolled to another image with
    a new cache, with no word. The program now reads the live InferenceService of a service whose
    binding is new and warns when it runs another profile; a first deploy (404) says nothing."""
    namespace = "lost-binding"
    stack = service_stack(namespace)
    with StatusWriter(cluster.kube, [namespace]):
        first = stack.preview()
        assert lost_binding_warnings(first) == []
        # The live read ran and found nothing (it did not skip: no cluster, no credentials).
        assert "was not checked" not in json.dumps(first["diagnostics"])
        stack.up()
        binding = next(r["urn"] for r in stack.state_resources() if r["urn"].endswith("::chat-binding"))
        stack.pulumi("state", "delete", binding, "--yes")
        # The same profile wins again: nothing changes, nothing to say.
        same = stack.preview()
        assert lost_binding_warnings(same) == []
        assert (ISVC_TYPE, "chat-isvc") not in changed_steps(same)
        # A profile that outranks the running one: the new binding takes it, and the preview says so.
        stack.config("cluster-service:optimizedProfile", "true")
        other = stack.preview()
        assert changed_steps(other)[(ISVC_TYPE, "chat-isvc")] == "update"
        [warning] = lost_binding_warnings(other)
        assert '"qwen3-0-6b-general"' in warning and '"qwen3-0-6b-optimized"' in warning, warning
        assert re.search(r"image \S+:0\.8\.5 -> \S+:0\.8\.6", warning), warning
        assert "spec.profile.name: qwen3-0-6b-general" in warning, warning
        assert f"AIMService {namespace}/chat" in warning, warning
