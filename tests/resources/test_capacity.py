"""The capacity check in a program run: read once, availability, warnings, status, enforce, cost.

The cluster is a `ClusterCapacity` built from Kubernetes objects and handed to the run in place of
the read (`read_capacity`, exercised against a real API server in `tests/cluster/`); everything
else is the program run as `pulumi preview` runs it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from aim_pulumi.resolve.capacity.cluster import ClusterCapacity, capacity_from_objects
from aim_pulumi.resources import AIMProfile, AIMService
from aim_pulumi.resources import capacity as capacity_module
from aim_pulumi.resources.capacity_read import CapacityReadError, ClusterAccess, NoCluster, default_access
from aim_pulumi.resources.registry import current_registry

from .catalog import CONFIG_MAP, ISVC, JOB, PIPELINE, PVC, SERVICE, deployed, service_status

NS = "team"
METRICS = {
    "metrics": [
        {
            "type": "PodMetric",
            "podmetric": {
                "metric": {"metricNames": ["vllm:num_requests_running"]},
                "target": {"type": "Value", "value": "1"},
            },
        }
    ]
}
SOURCES = [{"modelId": "qwen/qwen3-32b", "sourceUri": "hf://qwen/qwen3-32b", "size": "20Gi"}]


def _objects() -> Any:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "resolve" / "capacity"))
    import k8s_objects

    return k8s_objects


K8S = _objects()


def profile(name: str, model: str = "MI300X", gpus: int = 8, **spec: Any) -> AIMProfile:
    return AIMProfile(
        name,
        {
            "namespace": NS,
            "labels": {"aim.eai.amd.com/source-model": "qwen"},
            "spec": {
                "aimId": "qwen/qwen3-32b",
                "image": "ghcr.io/amd/qwen3:0.8.5",
                "type": "optimized",
                "acceleratorVendor": "amd",
                "acceleratorType": "gpu",
                "acceleratorModel": model,
                "acceleratorCount": gpus,
                "modelSources": SOURCES,
                **spec,
            },
        },
    )


def service(name: str, profile_name: str, **spec: Any) -> AIMService:
    return AIMService(name, {"namespace": NS, "spec": {"profile": {"name": profile_name}, **spec}})


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[ClusterAccess]]:
    """Every read the runs make; a test sets `cluster` before running a program."""
    made: list[ClusterAccess] = []
    yield made


def with_cluster(
    monkeypatch: pytest.MonkeyPatch,
    made: list[ClusterAccess],
    capacity: ClusterCapacity | Exception,
) -> None:
    def read(access: ClusterAccess, timeout: float) -> ClusterCapacity:
        made.append(access)
        if isinstance(capacity, Exception):
            raise capacity
        return capacity

    monkeypatch.setattr(capacity_module, "read_capacity", read)


def on_cluster(body: Callable[[], object]) -> Callable[[], object]:
    """The program, told to read the cluster (as `aim-pulumi plan --kubeconfig` tells it)."""

    def program() -> None:
        current_registry().capacity.access = ClusterAccess("/kubeconfig", None, "--kubeconfig")
        body()

    return program


def mi300x_cluster(gpus: Sequence[int], **kinds: Sequence[Mapping[str, Any]]) -> ClusterCapacity:
    nodes = [K8S.node(f"node-{i}", 8) for i in range(len(gpus))]
    pods = [K8S.pod(f"busy-{i}", f"node-{i}", {"amd.com/gpu": str(8 - free)}) for i, free in enumerate(gpus)]
    return capacity_from_objects("cluster https://test", nodes=nodes, pods=pods, **kinds)


def warnings_of(rec: Any, name: str) -> list[str]:
    urn = next(r.urn for r in rec.resources if r.type == SERVICE and r.name == name)
    return [log.message for log in rec.logs if log.urn == urn and log.severity == "warning"]


# ------------------------------------------------------------------------------------- the verdicts


def test_a_service_that_does_not_fit_is_a_warning_on_it_and_its_status_says_why(
    recording: Any, monkeypatch: pytest.MonkeyPatch, reads: list[ClusterAccess]
) -> None:
    with_cluster(monkeypatch, reads, mi300x_cluster([4, 4, 4]))

    def body() -> None:
        profile("big", gpus=8)
        profile("small", gpus=2)
        service("large", "big")
        service("chat", "small", replicas=1)

    rec = recording(on_cluster(body))
    reason = (
        "no node with 8 free MI300X GPUs (amd.com/gpu): the most free on one node is 4, 12 free on 3 "
        "MI300X nodes in all"
    )
    assert warnings_of(rec, "large") == [f"CapacityExceeded: does not fit: {reason}"]
    assert warnings_of(rec, "chat") == []
    assert service_status(rec, "large")["capacity"] == {
        "verdict": "DoesNotFit",
        "message": f"does not fit: {reason}",
        "minReplicas": 1,
        "maxReplicas": 1,
        "schedulableReplicas": 0,
    }
    assert service_status(rec, "chat")["capacity"]["verdict"] == "FitsAtMax"
    output = rec.stack_outputs()["aimCapacity"]
    assert output["services"]["team/large"]["verdict"] == "DoesNotFit"
    assert output["source"] == "cluster https://test"
    assert output["pools"][0] == {
        "pool": "MI300X",
        "resource": "amd.com/gpu",
        "nodes": 3,
        "usableNodes": 3,
        "allocatable": "24",
        "usedByOthers": "12",
        "demandAtMin": "10",
        "demandAtMax": "10",
        "headroomAtMax": "2",
    }
    # The children of a service that does not fit are still planned: a warning, not an error.
    assert {r.type for r in rec.children("large")} >= {ISVC, CONFIG_MAP}
    assert len(reads) == 1


def test_enforce_registers_nothing_and_names_every_service_that_does_not_fit(
    failed_run: Any, monkeypatch: pytest.MonkeyPatch, reads: list[ClusterAccess]
) -> None:
    with_cluster(monkeypatch, reads, mi300x_cluster([4, 4]))

    def body() -> None:
        profile("big", gpus=8)
        service("a", "big", caching={"mode": "Dedicated"})
        service("b", "big")

    error, registered = failed_run(on_cluster(body), config={"aim:capacity": "enforce"})
    text = str(error)
    assert "2 AIM objects failed; no Kubernetes resource was registered" in text
    for name in ("a", "b"):
        assert (
            f"AIMService/team/{name}: CapacityExceeded: does not fit: no node with 8 free MI300X GPUs" in text
        )
    assert "aim:capacity is enforce; nothing was registered" in text
    assert deployed(registered) == []  # no child, no binding


def test_enforce_lets_a_program_that_fits_through(
    recording: Any, monkeypatch: pytest.MonkeyPatch, reads: list[ClusterAccess]
) -> None:
    with_cluster(monkeypatch, reads, mi300x_cluster([8]))

    def body() -> None:
        profile("big", gpus=8)
        service("a", "big")

    rec = recording(on_cluster(body), config={"aim:capacity": "enforce"})
    assert service_status(rec, "a")["capacity"]["verdict"] == "FitsAtMax"


def test_capped_autoscaling_is_a_warning(
    recording: Any, monkeypatch: pytest.MonkeyPatch, reads: list[ClusterAccess]
) -> None:
    with_cluster(monkeypatch, reads, mi300x_cluster([8]))

    def body() -> None:
        profile("p", gpus=4)
        service("chat", "p", minReplicas=1, maxReplicas=3, autoScaling=METRICS)

    rec = recording(on_cluster(body))
    (warning,) = warnings_of(rec, "chat")
    assert warning.startswith(
        "CapacityCapsAutoscaling: fits at its minimum of 1, not at its maximum of 3 replicas: autoscaling "
        "will be capped at 2"
    )
    assert service_status(rec, "chat")["capacity"]["schedulableReplicas"] == 2


def test_the_nodes_decide_which_profiles_are_available_as_the_operator_would(
    recording: Any, monkeypatch: pytest.MonkeyPatch, reads: list[ClusterAccess]
) -> None:
    """The MI325X profile outranks (primary) but no node offers it: selection takes the MI300X one."""

    def body() -> None:
        profile("on-mi325x", model="MI325X", gpus=1, primary=True)
        profile("on-mi300x", model="MI300X", gpus=1)
        AIMService("chat", {"namespace": NS, "annotations": PIPELINE, "spec": {"model": {"name": "qwen"}}})

    chosen = recording(body)
    assert service_status(chosen, "chat")["resolvedProfile"]["name"] == "on-mi325x"
    with_cluster(monkeypatch, reads, mi300x_cluster([8]))
    on_nodes = recording(on_cluster(body))
    assert service_status(on_nodes, "chat")["resolvedProfile"]["name"] == "on-mi300x"


def test_a_cluster_that_says_nothing_of_accelerators_leaves_availability_alone(
    recording: Any, monkeypatch: pytest.MonkeyPatch, reads: list[ClusterAccess]
) -> None:
    bare = capacity_from_objects("cluster https://test", nodes=[K8S.node("n", None, model=None)])
    with_cluster(monkeypatch, reads, bare)

    def body() -> None:
        profile("on-mi325x", model="MI325X", gpus=1, primary=True)
        profile("on-mi300x", model="MI300X", gpus=1)
        AIMService("chat", {"namespace": NS, "annotations": PIPELINE, "spec": {"model": {"name": "qwen"}}})

    rec = recording(on_cluster(body))
    assert service_status(rec, "chat")["resolvedProfile"]["name"] == "on-mi325x"
    assert service_status(rec, "chat")["capacity"]["verdict"] == "DoesNotFit"


# ------------------------------------------------------------------------------ sources and failures


def test_a_cluster_that_cannot_be_read_is_a_warning_and_the_inventory_stands_in(
    recording: Any, monkeypatch: pytest.MonkeyPatch, reads: list[ClusterAccess]
) -> None:
    with_cluster(monkeypatch, reads, CapacityReadError("cannot reach https://test: refused"))

    def body() -> None:
        profile("p", gpus=8)
        service("chat", "p", replicas=3)

    inventory = '[{"vendor": "amd", "type": "gpu", "model": "MI300X", "devices": 8, "nodes": 2}]'
    rec = recording(on_cluster(body), config={"aim:inventory": inventory})
    stack_warnings = [
        log.message for log in rec.logs if log.severity == "warning" and not log.urn.endswith("chat")
    ]
    assert "aim:capacity: capacity not checked against the cluster: cannot reach https://test: refused" in (
        stack_warnings
    )
    # Two pool nodes of 8 GPUs stand in: the third 8-GPU replica has nowhere to go.
    assert service_status(rec, "chat")["capacity"]["message"].startswith(
        "does not fit: no node with 8 free MI300X GPUs"
    )
    assert rec.stack_outputs()["aimCapacity"]["source"] == "aim:inventory"


def test_enforce_fails_when_the_cluster_cannot_be_read(
    failed_run: Any, monkeypatch: pytest.MonkeyPatch, reads: list[ClusterAccess]
) -> None:
    with_cluster(monkeypatch, reads, CapacityReadError("the cluster did not answer within 20 s"))

    def body() -> None:
        profile("p")
        service("chat", "p")

    error, registered = failed_run(on_cluster(body), config={"aim:capacity": "enforce"})
    assert "CapacityUnknown" in str(error) and "did not answer within 20 s" in str(error)
    assert deployed(registered) == []


def test_off_reads_nothing_and_says_nothing(
    recording: Any, monkeypatch: pytest.MonkeyPatch, reads: list[ClusterAccess]
) -> None:
    with_cluster(monkeypatch, reads, mi300x_cluster([0]))

    def body() -> None:
        profile("p")
        service("chat", "p")

    rec = recording(on_cluster(body), config={"aim:capacity": "off"})
    assert reads == []
    assert "capacity" not in service_status(rec, "chat")
    assert "aimCapacity" not in rec.stack_outputs()


def test_without_a_source_or_prices_nothing_changes(recording: Any) -> None:
    def body() -> None:
        profile("p")
        service("chat", "p")

    rec = recording(body, config={"aim:inventory": '[{"model": "MI300X", "devices": 8}]'})
    assert "capacity" not in service_status(rec, "chat")
    assert "aimCapacity" not in rec.stack_outputs()


def test_an_explicit_provider_is_not_guessed(
    recording: Any, monkeypatch: pytest.MonkeyPatch, reads: list[ClusterAccess]
) -> None:
    check = capacity_module.CapacityCheck(current_registry().settings)
    monkeypatch.setattr(capacity_module, "_under_mocks", lambda: False)
    assert check._access(explicit_providers=True) == NoCluster(
        "a service deploys through an explicit Kubernetes provider, whose kubeconfig the program cannot "
        "read: set aim:capacityKubeconfig to it"
    )
    named = capacity_module.CapacityCheck(
        current_registry().settings.with_overrides(capacity_kubeconfig="/ci/kubeconfig")
    )
    assert named._access(explicit_providers=True) == ClusterAccess(
        "/ci/kubeconfig", None, "aim:capacityKubeconfig"
    )


# --------------------------------------------------------------------------------------------- cost


def test_monthly_cost_in_status_and_output_without_a_cluster(recording: Any) -> None:
    def body() -> None:
        profile("p", gpus=2)
        service("chat", "p", minReplicas=1, maxReplicas=3, autoScaling=METRICS)

    rec = recording(body, config={"aim:gpuHourPrice": '{"MI300X": 2.5}'})
    assert service_status(rec, "chat")["capacity"] == {"monthlyCost": {"atMin": 3650.0, "atMax": 10950.0}}
    cost = rec.stack_outputs()["aimCapacity"]["cost"]
    assert (cost["totalMonthlyAtMin"], cost["totalMonthlyAtMax"]) == (3650.0, 10950.0)


def test_cost_allocation_labels_reach_every_child(recording: Any) -> None:
    def body() -> None:
        profile("p", gpus=1)
        service("chat", "p", caching={"mode": "Dedicated"})
        AIMService(
            "shared",
            {
                "namespace": NS,
                "labels": {"team": "own"},
                "spec": {"profile": {"name": "p"}, "caching": {"mode": "Shared"}},
            },
        )

    rec = recording(
        body, config={"aim:costAllocationLabels": '{"team": "ml", "example.com/cost-center": "4711"}'}
    )
    kinds = set()
    for resource in rec.resources:
        if not resource.type.startswith("kubernetes:"):
            continue
        kinds.add(resource.type)
        labels = resource.inputs["metadata"]["labels"]
        assert labels["example.com/cost-center"] == "4711", resource.name
        owner = "own" if "shared" in resource.name and resource.type == ISVC else "ml"
        if resource.type == ISVC:
            assert labels["team"] == owner, resource.name
    assert {ISVC, CONFIG_MAP, PVC, JOB} <= kinds


# --------------------------------------------------------------------------------- which cluster


def test_the_default_providers_cluster_is_found_as_the_provider_finds_it(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / ".kube").mkdir(parents=True)
    kubeconfig = tmp_path / "config"
    kubeconfig.write_text("clusters: []\n")
    assert default_access({"renderYamlToDirectory": "out"}, {}, home) == NoCluster(
        "the Kubernetes provider renders YAML (kubernetes:renderYamlToDirectory)"
    )
    assert default_access({"kubeconfig": "apiVersion: v1\nclusters: []\n", "context": "ci"}, {}, home) == (
        ClusterAccess("apiVersion: v1\nclusters: []\n", "ci", "kubernetes:kubeconfig")
    )
    assert default_access({}, {"KUBECONFIG": str(kubeconfig)}, home) == ClusterAccess(
        None, None, "KUBECONFIG"
    )
    assert default_access({}, {"KUBECONFIG": str(tmp_path / "gone")}, home) == NoCluster(
        f"KUBECONFIG names no file ({tmp_path / 'gone'})"
    )
    assert isinstance(default_access({}, {}, home), NoCluster)
    (home / ".kube" / "config").write_text("clusters: []\n")
    assert default_access({"context": "x"}, {}, home) == ClusterAccess(None, "x", "~/.kube/config")


def test_later_rounds_are_judged_with_the_services_of_earlier_ones() -> None:
    """The component provider runs a round per Construct call: each judges everything constructed so far."""
    from aim_pulumi.api import parse
    from aim_pulumi.resolve import Catalog, Settings, plan_service
    from aim_pulumi.resources.round_member import Judged

    spec = {
        "aimId": "qwen/qwen3-32b",
        "image": "ghcr.io/amd/qwen3:0.8.5",
        "acceleratorVendor": "amd",
        "acceleratorType": "gpu",
        "acceleratorModel": "MI300X",
        "acceleratorCount": 8,
    }
    profile_ = parse({"apiVersion": "aim.eai.amd.com/v1alpha2", "kind": "AIMProfile",
                      "metadata": {"name": "p", "namespace": NS}, "spec": spec})  # fmt: skip

    def judged(name: str) -> Judged:
        document = {
            "apiVersion": "aim.eai.amd.com/v1alpha2",
            "kind": "AIMService",
            "metadata": {"name": name, "namespace": NS},
            "spec": {"profile": {"name": "p"}},
        }
        return Judged(f"AIMService/{NS}/{name}", plan_service(parse(document), Catalog([profile_])), None)

    check = capacity_module.CapacityCheck(Settings())
    check.capacity = mi300x_cluster([8])
    first, _ = check.settle([judged("a")])
    second, _ = check.settle([judged("b")])
    assert first[(NS, "a")]["verdict"] == "FitsAtMax"
    assert second[(NS, "b")]["verdict"] == "DoesNotFit"
    assert check.report is not None and [f.name for f in check.report.services] == ["a", "b"]
