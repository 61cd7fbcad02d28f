"""Will it fit, against a real API server: Node objects, pods bound to them, quotas, annotations.

Each scenario writes what a cluster would hold (Nodes with the AIM accelerator labels and their
allocatable through the status subresource, others' pods bound to them with requests, a
ResourceQuota with the `used` the quota controller would write, the artifact storage annotation),
reads it with `aim-pulumi plan --kubeconfig` (the program run as a preview runs it, the reads real)
and checks every verdict against a hand count; then `pulumi preview` and `pulumi up` with the real
CLI for what users see there: the warning on the service, `enforce` applying nothing, and selection
skipping a profile no node can run. Nodes are cluster-wide, so each scenario removes what it wrote.

The last test measures what the check adds to `pulumi preview` with 100 nodes and 1,000 pods.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
import yaml
from cluster import TestCluster
from harness import REPO, RealStack, run_cli, toolchain_dir
from kube import ApiError, Kube, wait_until
from status_writer import add_ready_node

sys.path.insert(0, str(REPO / "tests" / "resolve" / "capacity"))

from docblocks import blocks
from k8s_objects import namespace, node, pod, quota

pytestmark = pytest.mark.cluster

PROGRAM = REPO / "tests" / "fixtures" / "programs" / "capacity"
OTHERS = "capacity-others"
GPU = "amd.com/gpu"


class Scenario:
    """What one scenario wrote into the cluster, removed at its end (nodes are cluster-wide)."""

    def __init__(self, kube: Kube, name: str) -> None:
        self.kube = kube
        self.namespace = name
        self.nodes: list[str] = []
        self.pods: list[tuple[str, str]] = []

    def add_nodes(self, *manifests: Mapping[str, Any]) -> None:
        for manifest in manifests:
            add_ready_node(self.kube, dict(manifest))
            self.nodes.append(manifest["metadata"]["name"])

    def add_pods(self, *manifests: Mapping[str, Any]) -> None:
        for ns in sorted({m["metadata"]["namespace"] for m in manifests}):
            self.kube.ensure_namespace(ns)
            # No controller makes a namespace's default ServiceAccount here; admission needs it.
            if self.kube.find("v1", "ServiceAccount", ns, "default") is None:
                self.kube.create(
                    {
                        "apiVersion": "v1",
                        "kind": "ServiceAccount",
                        "metadata": {"name": "default", "namespace": ns},
                    }
                )
        for manifest in manifests:
            self.kube.create(manifest)
            self.pods.append((manifest["metadata"]["namespace"], manifest["metadata"]["name"]))

    def add_quota(self, manifest: Mapping[str, Any]) -> None:
        self.kube.create({k: v for k, v in manifest.items() if k != "status"})
        self.kube.patch(
            "v1",
            "ResourceQuota",
            manifest["metadata"]["namespace"],
            manifest["metadata"]["name"],
            {"status": manifest["status"]},
            field_manager="resourcequota-controller",
            subresource="status",
        )

    def clean(self) -> None:
        for ns, name in self.pods:
            # No kubelet confirms a bound pod's deletion: it is removed at once, as `--force` does.
            try:
                self.kube.request(
                    "DELETE", f"/api/v1/namespaces/{ns}/pods/{name}", query={"gracePeriodSeconds": "0"}
                )
            except ApiError as error:
                if error.status != 404:
                    raise
        for name in self.nodes:
            self.kube.delete("v1", "Node", None, name)
        self.kube.delete("v1", "Namespace", None, self.namespace)


@pytest.fixture
def scenario(cluster: TestCluster, request: pytest.FixtureRequest) -> Iterator[Scenario]:
    name = "cap-" + request.node.name.removeprefix("test_").replace("_", "-")[:20].rstrip("-")
    made = Scenario(cluster.kube, name)
    cluster.kube.ensure_namespace(name)
    try:
        yield made
    finally:
        made.clean()


def others_pod(name: str, node_name: str, gpus: int) -> dict[str, Any]:
    amount = {GPU: str(gpus)}
    return pod(name, node_name, amount, namespace=OTHERS, limits=amount)


def plan_capacity(
    cluster: TestCluster, scenario: Scenario, services: Sequence[Mapping[str, Any]], *config: str
) -> tuple[str, dict[str, Any]]:
    """`aim-pulumi plan --kubeconfig --capacity --json`: the text, and the stack output `aimCapacity`."""
    out = Path(cluster.state) / f"{scenario.namespace}-plan.json"
    settings = [
        f"capacity:namespace={scenario.namespace}",
        f"capacity:services={json.dumps(services)}",
        *config,
    ]
    done = run_cli(
        "plan", str(PROGRAM), "--kubeconfig", str(cluster.kubeconfig), "--capacity", "--json", str(out),
        *(arg for setting in settings for arg in ("-c", setting)),
    )  # fmt: skip
    document: dict[str, Any] = json.loads(out.read_text())["outputs"]["aimCapacity"]
    return done.stdout, document


def verdict(document: Mapping[str, Any], scenario: Scenario, name: str) -> tuple[str, str]:
    found = document["services"][f"{scenario.namespace}/{name}"]
    return found["verdict"], found["message"]


def pool(document: Mapping[str, Any], name: str = "MI300X") -> dict[str, Any]:
    row: dict[str, Any] = next(r for r in document["pools"] if r["pool"] == name)
    return row


# ---------------------------------------------------------------------------------- the scenarios


def test_fits(cluster: TestCluster, scenario: Scenario) -> None:
    scenario.add_nodes(node("cap-fit-a"), node("cap-fit-b"))
    scenario.add_pods(others_pod("fit-busy", "cap-fit-a", 2))
    text, document = plan_capacity(cluster, scenario, [{"name": "chat", "gpus": 4, "replicas": 3}])
    assert verdict(document, scenario, "chat") == ("FitsAtMax", "fits: 3 replicas")
    # By hand: 16 allocatable, 2 used by the other pod, 12 asked (3 x 4), 2 left.
    assert pool(document) | {} == {
        "pool": "MI300X",
        "resource": GPU,
        "nodes": 2,
        "usableNodes": 2,
        "allocatable": "16",
        "usedByOthers": "2",
        "demandAtMin": "12",
        "demandAtMax": "12",
        "headroomAtMax": "2",
    }
    assert "  MI300X     amd.com/gpu    2/2           16               2   12   12                2" in text
    assert document["source"].startswith("cluster https://127.0.0.1:")


def test_enough_gpus_in_total_but_fragmented(cluster: TestCluster, scenario: Scenario) -> None:
    scenario.add_nodes(*(node(f"cap-frag-{n}") for n in "abc"))
    scenario.add_pods(*(others_pod(f"frag-busy-{n}", f"cap-frag-{n}", 4) for n in "abc"))
    _, document = plan_capacity(cluster, scenario, [{"name": "big", "gpus": 8}])
    assert verdict(document, scenario, "big") == (
        "DoesNotFit",
        "does not fit: no node with 8 free MI300X GPUs (amd.com/gpu): the most free on one node is 4, "
        "12 free on 3 MI300X nodes in all",
    )
    assert (pool(document)["allocatable"], pool(document)["usedByOthers"]) == ("24", "12")


def test_a_quota_exceeded(cluster: TestCluster, scenario: Scenario) -> None:
    scenario.add_nodes(node("cap-quota-a"))
    scenario.add_quota(
        quota("gpus", scenario.namespace, {"requests.amd.com/gpu": "4"}, {"requests.amd.com/gpu": "0"})
    )
    _, document = plan_capacity(cluster, scenario, [{"name": "chat", "gpus": 2, "replicas": 3}])
    assert verdict(document, scenario, "chat") == (
        "DoesNotFit",
        f"does not fit: quota requests.amd.com/gpu of namespace {scenario.namespace} exceeded by 2 "
        "(ResourceQuota gpus: hard 4, used by others 0, the program asks 6)",
    )
    assert document["quotas"] == [
        {
            "namespace": scenario.namespace,
            "quota": "gpus",
            "resource": "requests.amd.com/gpu",
            "hard": "4",
            "usedByOthers": "0",
            "demandAtMin": "6",
            "demandAtMax": "6",
            "headroomAtMax": "-2",
        }
    ]


def test_the_artifact_storage_annotation(cluster: TestCluster, scenario: Scenario) -> None:
    scenario.add_nodes(node("cap-store-a"))
    annotation = namespace(scenario.namespace, "10Gi")["metadata"]["annotations"]
    cluster.kube.patch("v1", "Namespace", None, scenario.namespace, {"metadata": {"annotations": annotation}})
    _, document = plan_capacity(
        cluster, scenario, [{"name": "chat", "gpus": 1, "cache": "20Gi", "storageClass": "immediate"}]
    )
    status, message = verdict(document, scenario, "chat")
    assert status == "DoesNotFit"
    assert message.startswith(
        f"does not fit: artifact storage quota of namespace {scenario.namespace} exceeded by "
    )
    assert "(annotation aim.eai.amd.com/artifact-storage-quota: 10Gi, other caches 0, " in message


def test_every_matching_node_tainted(cluster: TestCluster, scenario: Scenario) -> None:
    taint = {"key": "dedicated", "value": "training", "effect": "NoSchedule"}
    scenario.add_nodes(node("cap-taint-a", taints=[taint]), node("cap-taint-b", taints=[taint]))
    _, document = plan_capacity(cluster, scenario, [{"name": "chat", "gpus": 1}])
    assert verdict(document, scenario, "chat") == (
        "DoesNotFit",
        "does not fit: every MI300X node is cordoned or has a taint the predictor does not tolerate "
        "(2 MI300X nodes are out: cap-taint-a (taint dedicated=training:NoSchedule), cap-taint-b "
        "(taint dedicated=training:NoSchedule))",
    )
    assert (pool(document)["nodes"], pool(document)["usableNodes"]) == (2, 0)


def test_autoscaling_max_over_capacity(cluster: TestCluster, scenario: Scenario) -> None:
    scenario.add_nodes(node("cap-auto-a"))
    _, document = plan_capacity(
        cluster, scenario, [{"name": "chat", "gpus": 4, "minReplicas": 1, "maxReplicas": 3}]
    )
    status, message = verdict(document, scenario, "chat")
    assert status == "FitsAtMinOnly"
    assert message.startswith(
        "fits at its minimum of 1, not at its maximum of 3 replicas: autoscaling will be capped at 2: "
    )
    assert document["services"][f"{scenario.namespace}/chat"]["schedulableReplicas"] == 2


def test_cost_figures(cluster: TestCluster, scenario: Scenario) -> None:
    scenario.add_nodes(node("cap-cost-a"), node("cap-cost-b"))
    services = [
        {"name": "chat", "gpus": 4, "minReplicas": 1, "maxReplicas": 3},
        {"name": "small", "gpus": 1, "replicas": 2, "model": "MI300X"},
    ]
    text, document = plan_capacity(cluster, scenario, services, 'aim:gpuHourPrice={"MI300X": 2.5}')
    cost = document["cost"]
    # By hand, 730 hours a month: chat 2.5 x 4 x 730 = 7,300 a replica; small 2.5 x 1 x 730 x 2.
    assert cost["services"][f"{scenario.namespace}/chat"]["monthlyAtMin"] == 7300.0
    assert cost["services"][f"{scenario.namespace}/chat"]["monthlyAtMax"] == 21900.0
    assert cost["services"][f"{scenario.namespace}/small"]["monthlyAtMax"] == 3650.0
    assert (cost["totalMonthlyAtMin"], cost["totalMonthlyAtMax"]) == (10950.0, 25550.0)
    assert "  total: 10,950.00 at minimum, 25,550.00 at maximum" in text


# ------------------------------------------------------------------------------- the real engine


def service_stack(tmp_path: Path, cluster: TestCluster, scenario: Scenario, **config: str) -> RealStack:
    stack = RealStack(PROGRAM, tmp_path, toolchain_dir(), kubeconfig=cluster.kubeconfig)
    stack.config("capacity:namespace", scenario.namespace)
    for key, value in config.items():
        stack.config(key if ":" in key else f"capacity:{key}", value)
    return stack


def test_preview_warns_on_the_service_and_exports_the_table(
    cluster: TestCluster, scenario: Scenario, tmp_path: Path
) -> None:
    scenario.add_nodes(node("cap-preview-a", 4))
    stack = service_stack(tmp_path, cluster, scenario, services=json.dumps([{"name": "big", "gpus": 8}]))
    done = stack.pulumi("preview")
    text = " ".join((done.stdout + done.stderr).split())
    assert (
        "warning: CapacityExceeded: does not fit: no node with 8 free MI300X GPUs (amd.com/gpu): the most "
        "free on one node is 4, 4 free on 1 MI300X node in all" in text
    ), done.stdout
    assert "aimCapacity" in text


def test_enforce_stops_up_with_nothing_applied(
    cluster: TestCluster, scenario: Scenario, tmp_path: Path
) -> None:
    scenario.add_nodes(*(node(f"cap-enforce-{n}") for n in "ab"))
    scenario.add_pods(*(others_pod(f"enforce-busy-{n}", f"cap-enforce-{n}", 4) for n in "ab"))
    services = [{"name": "big", "gpus": 8, "cache": "1Gi"}, {"name": "small", "gpus": 1}]
    stack = service_stack(
        tmp_path, cluster, scenario, services=json.dumps(services), **{"aim:capacity": "enforce"}
    )
    done = stack.pulumi("up", "--yes", "--skip-preview", check=False)
    assert done.returncode != 0
    assert f"AIMService/{scenario.namespace}/big: CapacityExceeded: does not fit: no node with 8 free" in (
        done.stdout + done.stderr
    )
    for api_version, kind in (
        ("serving.kserve.io/v1beta1", "InferenceService"),
        ("v1", "ConfigMap"),
        ("v1", "PersistentVolumeClaim"),
        ("batch/v1", "Job"),
    ):
        live = [
            o
            for o in cluster.kube.list(api_version, kind, scenario.namespace)
            if o["metadata"]["name"] != "kube-root-ca.crt"
        ]
        assert live == [], kind
    # The state holds the components the program declared, and nothing they would have registered.
    kinds = {r["type"] for r in stack.state_resources()}
    assert not {k for k in kinds if k.startswith(("kubernetes:", "pulumi-python:dynamic"))}, kinds


def test_selection_skips_profiles_no_node_can_run(
    cluster: TestCluster, scenario: Scenario, tmp_path: Path
) -> None:
    """The MI325X profile outranks the MI300X one, but only MI300X nodes exist: the operator would mark
    it HardwareNotAvailable, and selection deploys the MI300X one."""
    scenario.add_nodes(node("cap-select-a"))
    stack = service_stack(tmp_path, cluster, scenario, selection="true", **{"aim:skipAwait": "true"})
    stack.up()
    assert stack.stack_outputs()["chosen"] == "qwen-mi300x"
    (isvc,) = cluster.kube.list("serving.kserve.io/v1beta1", "InferenceService", scenario.namespace)
    assert isvc["metadata"]["labels"]["aim.eai.amd.com/profile"] == "qwen-mi300x"
    stack.destroy()
    # Without the nodes the cluster says nothing of accelerators: the primary profile ranks first.
    offline, _ = plan_offline(scenario)
    assert offline == "qwen-mi325x"


def plan_offline(scenario: Scenario) -> tuple[str, dict[str, Any]]:
    out = Path(f"/tmp/{scenario.namespace}-offline.json")
    run_cli(
        "plan", str(PROGRAM), "--json", str(out), "-c", f"capacity:namespace={scenario.namespace}",
        "-c", "capacity:selection=true",
    )  # fmt: skip
    document = json.loads(out.read_text())
    out.unlink()
    return str(document["outputs"]["chosen"]), document


# ----------------------------------------------------------------------------- the permissions


def reader_kubeconfig(cluster: TestCluster, namespace: str, account: str, directory: Path) -> Path:
    """A kubeconfig for a ServiceAccount (a token the API server issues), beside the admin's cluster."""
    cluster.kube.create(
        {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": account, "namespace": namespace}}
    )
    issued = cluster.kube.request(
        "POST",
        f"/api/v1/namespaces/{namespace}/serviceaccounts/{account}/token",
        {
            "apiVersion": "authentication.k8s.io/v1",
            "kind": "TokenRequest",
            "spec": {"expirationSeconds": 600},
        },
    )
    config = yaml.safe_load(Path(cluster.kubeconfig).read_text())
    config["users"][0]["user"] = {"token": issued["status"]["token"]}
    path = directory / f"{account}.kubeconfig"
    path.write_text(yaml.safe_dump(config))
    return path


def bind(cluster: TestCluster, role: str, namespace: str, account: str) -> None:
    cluster.kube.create(
        {
            "apiVersion": "rbac.authorization.k8s.io/v1",
            "kind": "ClusterRoleBinding",
            "metadata": {"name": role},
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": role},
            "subjects": [{"kind": "ServiceAccount", "name": account, "namespace": namespace}],
        }
    )


def test_the_docs_cluster_role_is_all_the_read_needs(
    cluster: TestCluster, scenario: Scenario, tmp_path: Path
) -> None:
    """The ClusterRole docs/capacity.md gives, bound to an identity that may do nothing else, lets the
    check read every kind; without it the read is refused on nodes; with nodes alone, the rest is named."""
    from aim_pulumi.resources.capacity_read import CapacityReadError, ClusterAccess, read_capacity

    (block,) = [b for b in blocks() if b.norun == "capacity-cluster-role"]
    role = yaml.safe_load(block.source)
    nodes_only = {
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "ClusterRole",
        "metadata": {"name": "aim-pulumi-capacity-nodes-only"},
        "rules": [{"apiGroups": [""], "resources": ["nodes"], "verbs": ["get", "list"]}],
    }
    scenario.add_nodes(node("cap-rbac-a"))
    made: list[tuple[str, str]] = []
    try:
        for manifest in (role, nodes_only):
            cluster.kube.create(manifest)
            made.append(("ClusterRole", manifest["metadata"]["name"]))
        full = reader_kubeconfig(cluster, scenario.namespace, "capacity-reader", tmp_path)
        partial = reader_kubeconfig(cluster, scenario.namespace, "nodes-reader", tmp_path)

        def read(kubeconfig: Path) -> Any:
            return read_capacity(ClusterAccess(str(kubeconfig), None, "test"), 20)

        with pytest.raises(CapacityReadError, match=r"listing nodes at .*: HTTP 403"):
            read(full)

        bind(cluster, role["metadata"]["name"], scenario.namespace, "capacity-reader")
        made.append(("ClusterRoleBinding", role["metadata"]["name"]))
        bind(cluster, nodes_only["metadata"]["name"], scenario.namespace, "nodes-reader")
        made.append(("ClusterRoleBinding", nodes_only["metadata"]["name"]))

        def readable(kubeconfig: Path) -> Any:
            try:
                return read(kubeconfig)
            except CapacityReadError:
                return None  # the authorizer's cache has not seen the binding yet

        capacity = wait_until(lambda: readable(full), 30, "the docs' ClusterRole to take effect")
        assert capacity.unread == ()
        assert "cap-rbac-a" in {n.name for n in capacity.nodes}
        assert capacity.pods is not None and capacity.quotas is not None
        limited = wait_until(lambda: readable(partial), 30, "the nodes-only ClusterRole to take effect")
        assert [what.split(" ")[0] for what in limited.unread] == [
            "pods",
            "resourcequotas",
            "storageclasses.storage.k8s.io",
            "namespaces",
            "persistentvolumeclaims",
        ]
        assert all("HTTP 403" in what for what in limited.unread)
        assert limited.pods is None and limited.quotas is None
    finally:
        for kind, name in reversed(made):
            cluster.kube.delete("rbac.authorization.k8s.io/v1", kind, None, name)


# ---------------------------------------------------------------------------------- what it costs


def test_added_preview_time_with_100_nodes_and_1000_pods(
    cluster: TestCluster, scenario: Scenario, tmp_path: Path
) -> None:
    """Printed for the record (`pytest -s`): the read alone, and `pulumi preview` with the check on
    and off, the median of three each."""
    from aim_pulumi.resolve.capacity.demand import ServiceDemand
    from aim_pulumi.resolve.capacity.fit import judge
    from aim_pulumi.resources.capacity_read import ClusterAccess, read_capacity

    models = ["MI300X", "MI325X"]
    scenario.add_nodes(*(node(f"cap-scale-{i:03}", model=models[i % 2]) for i in range(100)))
    scenario.add_pods(
        *(
            pod(f"scale-{i:04}", f"cap-scale-{i % 100:03}", {"cpu": "100m"}, namespace=OTHERS)
            for i in range(1000)
        )
    )
    started = time.monotonic()
    capacity = read_capacity(ClusterAccess(str(cluster.kubeconfig), None, "test"), 60)
    read_seconds = time.monotonic() - started
    assert len(capacity.nodes) >= 100 and len(capacity.pods or ()) >= 1000
    timed_import = "import time; t = time.monotonic(); import kubernetes.config; print(time.monotonic() - t)"
    importing = subprocess.run(
        [sys.executable, "-c", timed_import], capture_output=True, text=True, check=True
    )
    import_seconds = float(importing.stdout)
    demands = [
        ServiceDemand(
            "x", f"s{i}", f"s{i}", models[i % 2], "gpu", "", "amd", GPU, {GPU: 2000, "pods": 1000}, {}, 1, 2
        )
        for i in range(10)
    ]
    started = time.monotonic()
    judge(demands, capacity)
    judge_seconds = time.monotonic() - started
    services = [{"name": f"s{i}", "gpus": 2, "model": models[i % 2]} for i in range(10)]
    timings: dict[str, list[float]] = {"warn": [], "off": []}
    stacks = {
        mode: service_stack(
            tmp_path / mode, cluster, scenario, services=json.dumps(services), **{"aim:capacity": mode}
        )
        for mode in timings
    }
    for _ in range(3):
        for mode, stack in stacks.items():
            started = time.monotonic()
            stack.preview()
            timings[mode].append(time.monotonic() - started)
    warn, off = statistics.median(timings["warn"]), statistics.median(timings["off"])
    counts = f"{len(capacity.nodes)} nodes and {len(capacity.pods or ())} pods"
    print(
        f"\nimporting the Kubernetes client {import_seconds:.2f} s; reading {counts} {read_seconds:.2f} s; "
        f"judging 10 services on them {judge_seconds:.3f} s; pulumi preview (10 services), median of 3: "
        f"check on {warn:.2f} s, off {off:.2f} s, added {warn - off:.2f} s"
    )
    assert read_seconds < 60
