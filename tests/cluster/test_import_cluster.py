"""`aim-pulumi import --kubeconfig`: an operator deployment read from the API server, then adopted by Pulumi.

Each dump of tests/fixtures/import is created in the cluster as the operator left it: the AIM
objects with their status (written through the status subresource), the children under the
operator's names and labels, with ownerReferences to the objects just created (the dump's UIDs
replaced by the ones the API server gave, everywhere: a route path carries its service's UID),
KServe's predictor Services, and the operator's own AIMArtifact (its CRD installed here, as the
operator installs it). Then:

- `import --kubeconfig -n NS` must write what `import --from` writes for a dump of the same
  objects: the same report, AIM YAML, import file and exit status. The dump is read with this
  directory's own client (`kube.py`), as `kubectl get -o yaml` would print it.
- For the operator scenario, the steps `import` prints are taken: the children's ownerReferences
  removed with the printed patches, `pulumi import --file` into a stack whose program declares
  `AIMStack("aim", {"path": DIR/aim})`, and `pulumi preview`: no create of an object that exists,
  no replace, no delete, and an update only of a child the report says the first `up` changes.
- Every kind of service in one stack (`tests/fixtures/import/moving.yaml`, its operator-made
  children from `tests/cli/commands/operator_made.py`: by profile name with routing, by model with
  a better profile since, a Shared cache of two services, a Dedicated cache, autoscaling, a legacy
  template service), moved with `--apply --delete-aim-objects`: then `pulumi import`, `preview` and
  `up`, with no create, replace or delete, the same UIDs, no InferenceService spec, label,
  annotation or generation changed, only the listed fields changed, and `--expect-no-changes` after
  (once a refresh has recorded the updated download Jobs: docs/adoption.md).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from cluster import TestCluster
from docblocks import lane_block
from harness import REPO, RealStack, toolchain_dir, urn_name, urn_type
from kube import Kube, wait_until
from status_writer import StatusWriter, mark_job

sys.path.insert(0, str(REPO / "tests" / "cli" / "commands"))
from operator_made import operator_deployment

pytestmark = pytest.mark.cluster

FIXTURES = REPO / "tests" / "fixtures" / "import"
SCENARIOS = {"operator": ("operator-dump.yaml", "ml-team"), "cache": ("cache-dump.yaml", "research")}
AIM = "aim.eai.amd.com"
# The operator's bookkeeping kind, which the project does not declare (so no vendored CRD has it).
ARTIFACT_CRD = {
    "apiVersion": "apiextensions.k8s.io/v1",
    "kind": "CustomResourceDefinition",
    "metadata": {"name": f"aimartifacts.{AIM}"},
    "spec": {
        "group": AIM,
        "scope": "Namespaced",
        "names": {
            "kind": "AIMArtifact",
            "plural": "aimartifacts",
            "singular": "aimartifact",
            "listKind": "AIMArtifactList",
        },
        "versions": [
            {
                "name": "v1alpha1",
                "served": True,
                "storage": True,
                "subresources": {"status": {}},
                "schema": {
                    "openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": True}
                },
            }
        ],
    },
}
# Kinds whose status a controller writes through the status subresource (every CRD here has one).
STATUS_GROUPS = (AIM, "serving.kserve.io", "gateway.networking.k8s.io")
SERVER_FIELDS = ("uid", "resourceVersion", "generation", "creationTimestamp", "managedFields", "selfLink")


def group_of(api_version: str) -> str:
    return api_version.rsplit("/", 1)[0] if "/" in api_version else ""


def remap(obj: Any, uids: dict[str, str]) -> Any:
    """`obj` with every UID of the dump replaced by the one the API server gave the same object."""
    text = json.dumps(obj)
    for old, new in uids.items():
        text = text.replace(old, new)
    return json.loads(text)


def creatable(obj: dict[str, Any]) -> dict[str, Any]:
    """The object as a create request: no server-set metadata, no status, no allocated cluster IP."""
    out = {k: v for k, v in obj.items() if k != "status"}
    out["metadata"] = {k: v for k, v in obj["metadata"].items() if k not in SERVER_FIELDS}
    if out["kind"] == "Service":
        out["spec"] = {k: v for k, v in out["spec"].items() if k not in ("clusterIP", "clusterIPs")}
    return out


def create_dump(kube: Kube, objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Create the dump's objects, owners before what they own; returns them as the server holds them."""
    uids: dict[str, str] = {}
    pending = sorted(objects, key=lambda o: group_of(o["apiVersion"]) != AIM)
    created: list[dict[str, Any]] = []
    while pending:
        ready = [
            o for o in pending if all(r["uid"] in uids for r in o["metadata"].get("ownerReferences") or [])
        ]
        assert ready, f"owners missing from the dump: {[o['metadata']['name'] for o in pending]}"
        for obj in ready:
            pending.remove(obj)
            live = kube.create(remap(creatable(obj), uids))
            uids[obj["metadata"]["uid"]] = live["metadata"]["uid"]
            if obj.get("status") and group_of(obj["apiVersion"]) in STATUS_GROUPS:
                meta = live["metadata"]
                live = kube.patch(
                    live["apiVersion"],
                    live["kind"],
                    meta.get("namespace"),
                    meta["name"],
                    {"status": remap(obj["status"], uids)},
                    field_manager="aim-engine",
                    subresource="status",
                )
            created.append(live)
    return created


def kubectl_dump(kube: Kube, like: list[dict[str, Any]]) -> dict[str, Any]:
    """What `kubectl get -o yaml` prints for the objects of `like`, read back from the cluster."""
    items = []
    for obj in like:
        meta = obj["metadata"]
        live = kube.get(obj["apiVersion"], obj["kind"], meta.get("namespace"), meta["name"])
        items.append({"apiVersion": obj["apiVersion"], "kind": obj["kind"], **live})
    return {"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""}, "items": items}


def strangers(namespace: str) -> list[dict[str, Any]]:
    """Another application's objects, of the kinds `import` lists, sharing the namespace."""
    meta = {"name": "web-frontend", "namespace": namespace, "labels": {"app": "web"}}
    return [
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta, "data": {"a": "b"}},
        {"apiVersion": "v1", "kind": "Secret", "metadata": meta, "stringData": {"token": "t"}},
        {"apiVersion": "v1", "kind": "Service", "metadata": meta, "spec": {"ports": [{"port": 80}]}},
    ]


def import_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "aim_pulumi.cli", "import", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )


# The namespace of the command the README and docs/adoption.md show: its scenario runs that command.
DOCUMENTED = "operator"


def documented_import(cluster: TestCluster, work: Path) -> tuple[subprocess.CompletedProcess[str], str]:
    """`aim-pulumi import --kubeconfig ~/.kube/config ...` as the README and docs/adoption.md show it, run
    by a shell whose HOME holds the test cluster's kubeconfig; with the `-o` it was given."""
    readme, page = lane_block("cluster", "import-kubeconfig"), lane_block("cluster", "import-namespace")
    (command,) = readme.commands()
    argv = readme.argv(command)
    assert [page.argv(c) for c in page.commands()] == [argv], f"{readme.id} and {page.id} differ"
    assert argv[argv.index("-n") + 1] == SCENARIOS[DOCUMENTED][1], argv
    home = work / "home"
    (home / ".kube").mkdir(parents=True)
    shutil.copy(cluster.kubeconfig, home / ".kube" / "config")
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    done = subprocess.run(
        ["bash", "-c", command],
        cwd=work,
        env={**os.environ, "HOME": str(home), "PATH": path},
        capture_output=True,
        text=True,
        check=False,
    )
    return done, argv[argv.index("-o") + 1]


@dataclass
class Imported:
    namespace: str
    created: list[dict[str, Any]]
    cluster_dir: Path
    cluster_run: subprocess.CompletedProcess[str]
    dump_dir: Path
    dump_run: subprocess.CompletedProcess[str]
    # The output directory of each run as its printed steps name it: its `-o`, made absolute.
    cluster_out: str = ""
    dump_out: str = ""

    @property
    def report(self) -> dict[str, Any]:
        report: dict[str, Any] = json.loads((self.cluster_dir / "report.json").read_text())
        return report


@pytest.fixture(scope="module")
def artifact_crd(cluster: TestCluster) -> Iterator[None]:
    cluster.kube.install_crds([ARTIFACT_CRD])
    yield
    cluster.kube.delete(
        "apiextensions.k8s.io/v1", "CustomResourceDefinition", None, ARTIFACT_CRD["metadata"]["name"]
    )


@pytest.fixture(scope="module")
def scenarios(
    cluster: TestCluster, artifact_crd: None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Imported]]:
    """Every dump created in its namespace and imported both ways; the namespaces deleted at the end."""
    kube = cluster.kube
    done: dict[str, Imported] = {}
    try:
        for name, (dump_file, namespace) in sorted(SCENARIOS.items()):
            objects = yaml.safe_load((FIXTURES / dump_file).read_text())["items"]
            kube.ensure_namespace(namespace)
            created = create_dump(kube, objects)
            for stranger in strangers(namespace):
                kube.create(stranger)
            work = tmp_path_factory.mktemp(f"import-{name}")
            dump = work / "dump.yaml"
            dump.write_text(yaml.safe_dump(kubectl_dump(kube, created), sort_keys=False))
            if name == DOCUMENTED:
                dump_run = import_cli("--from", "dump.yaml", "-o", "from-dump", cwd=work)
                cluster_run, cluster_out = documented_import(cluster, work)
                outs = (cluster_out, "from-dump")
            else:
                dump_run = import_cli("--from", str(dump), "-o", str(work / "from-dump"))
                cluster_run = import_cli(
                    "--kubeconfig", str(cluster.kubeconfig), "-n", namespace, "-o", str(work / "from-cluster")
                )
                outs = (str(work / "from-cluster"), str(work / "from-dump"))
            done[name] = Imported(
                namespace,
                created,
                work / outs[0],
                cluster_run,
                work / outs[1],
                dump_run,
                *(str(work / o) for o in outs),
            )
        yield done
    finally:
        for _, namespace in SCENARIOS.values():
            # The operator is not here to clear its finalizers; the namespace goes with all it holds.
            for obj in kube.list(f"{AIM}/v1alpha1", "AIMArtifact", namespace):
                kube.patch(
                    obj["apiVersion"],
                    "AIMArtifact",
                    namespace,
                    obj["metadata"]["name"],
                    {"metadata": {"finalizers": None}},
                )
            kube.delete("v1", "Namespace", None, namespace)
        for _, namespace in SCENARIOS.values():
            wait_until(
                lambda n=namespace: kube.find("v1", "Namespace", None, n) is None,
                180,
                f"{namespace} to be gone",
            )


@pytest.fixture(params=sorted(SCENARIOS))
def imported(request: pytest.FixtureRequest, scenarios: dict[str, Imported]) -> Imported:
    return scenarios[request.param]


def files(directory: Path) -> dict[str, str]:
    return {
        p.relative_to(directory).as_posix(): p.read_text()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


def named_dir(text: str, out: str) -> str:
    """A run's output directory, as its `-o` named it, replaced by DIR in every path of the text."""
    return re.sub(rf"(?<![\w./-]){re.escape(out)}(?=/|\b)", "DIR", text)


def test_reading_the_cluster_writes_what_the_dump_of_the_same_objects_writes(imported: Imported) -> None:
    cluster_run, dump_run = imported.cluster_run, imported.dump_run
    assert cluster_run.returncode == dump_run.returncode, cluster_run.stderr
    for stream in ("stderr", "stdout"):
        assert named_dir(getattr(cluster_run, stream), imported.cluster_out) == named_dir(
            getattr(dump_run, stream), imported.dump_out
        ), stream
    # report.json as data: the plan's outputs do not keep one key order from run to run.
    cluster_files, dump_files = files(imported.cluster_dir), files(imported.dump_dir)
    assert json.loads(cluster_files.pop("report.json")) == json.loads(dump_files.pop("report.json"))
    assert cluster_files == dump_files


def test_the_namespace_s_other_objects_are_not_read(imported: Imported, cluster: TestCluster) -> None:
    """Another application's objects in the namespace are tied to no AIM object: not in the report."""
    for stranger in strangers(imported.namespace):
        meta = stranger["metadata"]
        assert cluster.kube.find(stranger["apiVersion"], stranger["kind"], meta["namespace"], meta["name"])
        assert meta["name"] not in imported.cluster_run.stdout
        assert meta["name"] not in json.dumps(imported.report)
    created = {(o["kind"], o["metadata"]["name"]) for o in imported.created}
    named: set[tuple[str, str]] = set()
    for service in imported.report["services"]:
        for entry in service["adopted"] + service["notManaged"]:
            named.add((entry["kind"], entry["name"]))
    for entry in imported.report["notManaged"]:
        named.add((entry["kind"], entry["name"]))
    children = {(k, n) for k, n in created if not k.startswith("AIM")}
    assert children <= named  # every live child is either adopted or listed as left


def test_the_figures_of_each_scenario(imported: Imported) -> None:
    summary = imported.report["summary"]
    if imported.namespace == "ml-team":
        assert imported.cluster_run.returncode == 0, imported.cluster_run.stderr
        assert summary == {
            "adopted": 5,
            "toCreate": 1,
            "replaced": 0,
            "refused": 0,
            "rollsPods": 0,
            "changed": 3,
            "notManaged": 3,
        }
        by_model = next(s for s in imported.report["services"] if s["service"] == "ml-team/chat-by-model")
        assert by_model["profile"]["name"] == by_model["operatorProfile"]["name"] == "qwen3-32b-mi300x-fp16"
    else:
        # The live Shared cache's PVC was made under another StorageClass than the runtime config
        # names: the first `up` keeps it as it is (its class is fixed at creation) and says so.
        assert imported.cluster_run.returncode == 0, imported.cluster_run.stderr
        assert summary["replaced"] == 0 and summary["adopted"] == 3
        assert "KEPT AT CREATION" in imported.cluster_run.stdout
        pvc = next(
            c
            for s in imported.report["services"]
            for c in s["adopted"]
            if c["name"] == "meta-llama-llama-3-1-8b-instruct-cache-ab40f03b"
        )
        assert [(c["path"], c["effect"]) for c in pvc["changes"] if c["effect"] != "update"] == [
            ("spec.storageClassName", "kept-at-creation")
        ]
        assert (imported.cluster_dir / "import.json").exists()


# --------------------------------------------------------------------------------------------------
# The steps that follow, taken


STEP = re.compile(r"^\d+\. .*:$")


def printed_steps(stdout: str) -> list[tuple[str, list[str]]]:
    """The steps `import` printed after "Next, in this order:": each heading and the lines under it,
    every one of which a shell runs as printed."""
    steps: list[tuple[str, list[str]]] = []
    for line in stdout.split("Next, in this order:\n", 1)[1].splitlines():
        if STEP.match(line):
            steps.append((line, []))
        elif line.startswith("   "):
            steps[-1][1].append(line[3:])
    return steps


def take_steps(
    cluster: TestCluster,
    stack: RealStack,
    stdout: str,
    namespace: str,
    before_up: Any = None,
    after_up: Any = None,
) -> None:
    """Every command `import` printed, run by a shell exactly as printed, in order: the kubectl
    steps as a shell pointed at the cluster runs them (`TestCluster.shell`), the Pulumi step in the
    stack's project directory with its environment; `pulumi up` while a status writer stands in for
    KServe and the Job controller. `before_up` and `after_up` are called around `pulumi up`."""
    steps = printed_steps(stdout)
    assert [len(commands) > 0 for _, commands in steps] == [True] * 4, steps
    pulumi_step = next(i for i, (heading, _) in enumerate(steps) if "Pulumi project" in heading)
    for index, (_, commands) in enumerate(steps):
        for command in commands:
            if index != pulumi_step:
                cluster.shell(command)
            elif command.startswith("pulumi up"):
                if before_up is not None:
                    before_up()
                with StatusWriter(cluster.kube, [namespace]):
                    cluster.shell(command, cwd=stack.dir, env=stack.env, timeout=900)
                if after_up is not None:
                    after_up()
            else:
                cluster.shell(command, cwd=stack.dir, env=stack.env, timeout=900)


PROGRAM = '''"""The program `aim-pulumi import` says to write: its AIM YAML, declared by one AIMStack."""

import pulumi

from aim_pulumi import AIMStack

stack = AIMStack("aim", {"path": %r})
pulumi.export("services", stack.services)
'''


def test_pulumi_import_then_preview_changes_only_what_the_report_listed(
    scenarios: dict[str, Imported], cluster: TestCluster, tmp_path: Path
) -> None:
    """The operator scenario (the cache one's steps are the same; its PVC is kept at creation)."""
    imported = scenarios["operator"]
    kube = cluster.kube
    report = imported.report
    if kube.find("apps/v1", "Deployment", OPERATOR_NAMESPACE, OPERATOR_DEPLOYMENT) is None:
        kube.ensure_namespace(OPERATOR_NAMESPACE)
        kube.create(operator_manager())

    program = tmp_path / "source"
    program.mkdir()
    (program / "Pulumi.yaml").write_text("name: aim-import\nruntime: python\n")
    (program / "__main__.py").write_text(PROGRAM % str(imported.cluster_dir / "aim"))
    stack = RealStack(program, tmp_path, toolchain_dir(), kubeconfig=cluster.kubeconfig)
    adopted = {c["pulumiName"]: c for s in report["services"] for c in s["adopted"]}
    to_create = {c["pulumiName"] for s in report["services"] for c in s["toCreate"]}
    figures: dict[str, Any] = {}  # printed at the end (`pytest -s`)
    before: dict[tuple[str, str], dict[str, Any]] = {}

    def before_up() -> None:
        """Between the printed `pulumi preview` and `pulumi up`: what the preview plans, and the
        cluster as the `up` finds it."""
        for obj in imported.created:
            if group_of(obj["apiVersion"]) == AIM:
                continue
            meta = obj["metadata"]
            refs = kube.get(obj["apiVersion"], obj["kind"], meta["namespace"], meta["name"])["metadata"]
            assert not [r for r in refs.get("ownerReferences") or [] if group_of(r["apiVersion"]) == AIM], (
                obj["kind"],
                meta["name"],
            )
        preview = stack.preview()
        ops = preview_ops(preview)
        kubernetes = {
            urn_name(step["urn"])
            for step in preview["steps"]
            if urn_type(step["urn"]).startswith("kubernetes:")
        }
        figures["preview"] = ops
        assert not ops.get("replace") and not ops.get("delete"), ops
        assert not set(ops.get("create", [])) & set(adopted)
        # The Kubernetes objects it creates are the children the report lists as missing; the other
        # creates are catalog components and binding state, which hold no live object.
        assert set(ops.get("create", [])) & kubernetes == to_create
        # The children listed with changes are updated; the preview may show others as updates (the
        # state `pulumi import` read differs from the inputs in fields the apply leaves alone): the
        # `up` must change nothing on those, which the field comparison below checks.
        assert {n for n, c in adopted.items() if c["changes"]} <= {
            n for n in ops.get("update", []) if n in adopted
        }
        before.update({key: live_state(kube, obj) for key, obj in keyed(imported.created).items()})

    after: dict[tuple[str, str], dict[str, Any]] = {}

    def after_up() -> None:
        after.update({key: live_state(kube, obj) for key, obj in keyed(imported.created).items()})
        stack.pulumi("preview", "--expect-no-changes")

    # Every step up to and including the last: the AIM objects deleted, orphaning their children
    # (a finalizer cleared first by the printed merge patch).
    take_steps(cluster, stack, imported.cluster_run.stdout, imported.namespace, before_up, after_up)
    assert before and after, "the printed steps hold a `pulumi up`"
    # The same objects: not one deleted and made again.
    assert {k: v["metadata"]["uid"] for k, v in after.items()} == {
        k: v["metadata"]["uid"] for k, v in before.items()
    }
    # Every field the `up` changed on an adopted object is one the report listed, and the reverse.
    listed = {(c["kind"], c["name"]): [x["path"] for x in c["changes"]] for c in adopted.values()}
    changed: dict[tuple[str, str], list[str]] = {}
    for key in before:
        paths = field_changes(before[key], after[key])
        if paths:
            changed[key] = paths
    figures["fields changed by up"] = {f"{k} {n}": paths for (k, n), paths in changed.items()}
    assert set(changed) == {k for k, v in listed.items() if v}
    for key, paths in changed.items():
        for path in paths:
            assert any(covers(path, c) for c in listed[key]), (key, path, listed[key])
        for path in listed[key]:
            assert any(covers(d, path) for d in paths), (key, path, paths)
    # The AIM objects went with the last step, orphaning every child; the stack still matches them.
    stack.pulumi("preview", "--expect-no-changes")
    for obj in imported.created:
        meta = obj["metadata"]
        found = kube.find(obj["apiVersion"], obj["kind"], meta.get("namespace"), meta["name"])
        if group_of(obj["apiVersion"]) == AIM:
            assert found is None or found["metadata"].get("deletionTimestamp"), (obj["kind"], meta["name"])
        else:
            assert found is not None and found["metadata"]["uid"] == meta["uid"], (obj["kind"], meta["name"])
    wait_until(
        lambda: not kube.list(f"{AIM}/v1alpha2", "AIMService", imported.namespace),
        60,
        "the AIMServices to go",
    )
    print("figures:", json.dumps(figures, indent=1, sort_keys=True))


def preview_ops(preview: dict[str, Any]) -> dict[str, list[str]]:
    """Program resource names by the operation the preview plans (reads and sames left out)."""
    ops: dict[str, list[str]] = {}
    for step in preview.get("steps", []):
        if urn_type(step["urn"]).startswith(("pulumi:pulumi:Stack", "pulumi:providers:")):
            continue
        op = step["op"]
        if op in ("same", "read", "refresh"):
            continue
        op = "replace" if op in ("replace", "create-replacement", "delete-replaced") else op
        ops.setdefault(op, []).append(urn_name(step["urn"]))
    return {k: sorted(v) for k, v in ops.items()}


def keyed(objects: list[dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(o["kind"], o["metadata"]["name"]): o for o in objects}


def live_state(kube: Kube, obj: dict[str, Any]) -> dict[str, Any]:
    meta = obj["metadata"]
    return kube.get(obj["apiVersion"], obj["kind"], meta.get("namespace"), meta["name"])


IGNORED = ("status", "metadata.resourceVersion", "metadata.generation", "metadata.managedFields")


def field_changes(before: Any, after: Any, path: str = "") -> list[str]:
    """The paths (report notation: named list items as `[name=X]`) where `after` differs from `before`."""
    if path.lstrip(".") in IGNORED:
        return []
    if isinstance(before, dict) and isinstance(after, dict):
        return [
            d
            for key in sorted(set(before) | set(after))
            for d in field_changes(before.get(key), after.get(key), f"{path}.{key}")
        ]
    named = (
        isinstance(before, list)
        and isinstance(after, list)
        and all(isinstance(i, dict) and "name" in i for i in before + after)
    )
    if named:
        old = {i["name"]: i for i in before}
        new = {i["name"]: i for i in after}
        return [
            d
            for name in sorted(set(old) | set(new))
            for d in field_changes(old.get(name), new.get(name), f"{path}[name={name}]")
        ]
    return [] if before == after else [path.lstrip(".")]


def covers(a: str, b: str) -> bool:
    """One path is the other, or holds it (a map added whole holds the fields the report lists)."""
    return a == b or any(x.startswith(y + ".") or x.startswith(y + "[") for x, y in ((a, b), (b, a)))


# --------------------------------------------------------------------------------------------------
# Every kind of service in one stack: by profile name with routing, by model with a better profile
# since, a Shared cache of two services, a Dedicated cache, autoscaling, a legacy template service

MOVING = "moving"
OPERATOR_NAMESPACE = "aim-system"
OPERATOR_DEPLOYMENT = "aim-engine-controller-manager"


def operator_manager() -> dict[str, Any]:
    """A stand-in for the operator's Deployment (the cluster runs no pods): what --apply scales."""
    labels = {"app.kubernetes.io/name": "aim-engine"}
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": OPERATOR_DEPLOYMENT, "namespace": OPERATOR_NAMESPACE},
        "spec": {
            "replicas": 1,
            "selector": {"matchLabels": labels},
            "template": {
                "metadata": {"labels": labels},
                "spec": {"containers": [{"name": "manager", "image": "example.com/aim-engine:0"}]},
            },
        },
    }


def service_of(pulumi_name: str) -> str:
    """The scenario a Pulumi name belongs to: its service, or the Shared caches."""
    prefix = f"aim-aimservice-{MOVING}-"
    if pulumi_name.startswith(prefix):
        rest = pulumi_name[len(prefix) :]
        return next(s for s in SERVICES if rest.startswith(s + "-"))
    return "shared caches"


SERVICES = ("autoscaled", "chat-by-model", "chat-by-name", "dedicated", "legacy", "shared-a", "shared-b")


def test_every_kind_of_service_moves_with_no_create_replace_delete_or_pod_restart(
    cluster: TestCluster, tmp_path: Path
) -> None:
    kube = cluster.kube
    objects = operator_deployment(
        list(yaml.safe_load_all((FIXTURES / "moving.yaml").read_text())), tmp_path / "operator"
    )
    kube.ensure_namespace(MOVING)
    kube.ensure_namespace(OPERATOR_NAMESPACE)
    if kube.find("apps/v1", "Deployment", OPERATOR_NAMESPACE, OPERATOR_DEPLOYMENT) is None:
        kube.create(operator_manager())
    try:
        created = create_dump(kube, objects)
        for obj in created:
            if obj["kind"] == "Job":  # the operator's downloads finished long ago
                mark_job(kube, MOVING, obj["metadata"]["name"])
        children = {k: v for k, v in keyed(created).items() if not k[0].startswith("AIM")}
        dump = tmp_path / "dump.yaml"
        dump.write_text(yaml.safe_dump(kubectl_dump(kube, created), sort_keys=False))
        dump_run = import_cli("--from", str(dump), "-o", str(tmp_path / "from-dump"))
        before = {key: live_state(kube, obj) for key, obj in children.items()}

        # Read from the cluster, then (--apply) the operator stopped, the ownerReferences removed
        # and the AIM objects deleted with orphan propagation, in that order.
        out_dir = tmp_path / "from-cluster"
        run = import_cli(
            "--kubeconfig",
            str(cluster.kubeconfig),
            "-n",
            MOVING,
            "-o",
            str(out_dir),
            "--apply",
            "--delete-aim-objects",
        )
        assert run.returncode == dump_run.returncode == 0, run.stderr + dump_run.stderr
        # The same report and steps as from the dump, then one line per API call made.
        written = dump_run.stdout.replace(str(tmp_path / "from-dump"), "DIR")
        stdout = run.stdout.replace(str(out_dir), "DIR")
        assert stdout.startswith(written), stdout
        assert all(line.startswith("applied: ") for line in stdout[len(written) :].split("\n") if line)
        cluster_files, dump_files = files(out_dir), files(tmp_path / "from-dump")
        assert json.loads(cluster_files.pop("report.json")) == json.loads(dump_files.pop("report.json"))
        assert cluster_files == dump_files  # the same from a dump, with no cluster
        report: dict[str, Any] = json.loads((out_dir / "report.json").read_text())
        assert report["summary"]["toCreate"] == report["summary"]["replaced"] == 0
        assert report["summary"]["rollsPods"] == 0
        assert "applied: scale Deployment aim-system/aim-engine-controller-manager to zero" in run.stdout
        assert (
            kube.get("apps/v1", "Deployment", OPERATOR_NAMESPACE, OPERATOR_DEPLOYMENT)["spec"]["replicas"]
            == 0
        )
        wait_until(
            lambda: (
                not kube.list(f"{AIM}/v1alpha2", "AIMService", MOVING)
                and not kube.list(f"{AIM}/v1alpha2", "AIMProfile", MOVING)
            ),
            60,
            "the AIM objects to go",
        )
        after_apply = {key: live_state(kube, obj) for key, obj in children.items()}
        for key, live in after_apply.items():
            assert live["metadata"]["uid"] == before[key]["metadata"]["uid"], key  # orphaned, kept
            refs = live["metadata"].get("ownerReferences") or []
            assert not [r for r in refs if group_of(r["apiVersion"]) == AIM], key
            if any(
                group_of(r["apiVersion"]) == AIM for r in before[key]["metadata"].get("ownerReferences") or []
            ):
                # The operator's field ownership went with its references.
                assert not live["metadata"].get("managedFields"), (key, live["metadata"].get("managedFields"))

        program = tmp_path / "source"
        program.mkdir()
        (program / "Pulumi.yaml").write_text("name: aim-moving\nruntime: python\n")
        (program / "__main__.py").write_text(PROGRAM % str(out_dir / "aim"))
        stack = RealStack(program, tmp_path, toolchain_dir(), kubeconfig=cluster.kubeconfig)
        stack.pulumi(
            "import",
            "--file",
            str(out_dir / "import.json"),
            "--generate-code=false",
            "--protect=false",
            "--yes",
        )
        adopted = {c["pulumiName"]: c for s in report["services"] for c in s["adopted"]}
        preview = stack.preview()
        ops = preview_ops(preview)
        kubernetes = {
            urn_name(step["urn"])
            for step in preview["steps"]
            if urn_type(step["urn"]).startswith("kubernetes:")
        }
        reasons = {
            urn_name(step["urn"]): (
                step.get("diffReasons"),
                step.get("replaceReasons"),
                step.get("detailedDiff"),
            )
            for step in preview["steps"]
            if step["op"] in ("replace", "create-replacement", "delete-replaced", "delete")
        }
        assert not ops.get("replace") and not ops.get("delete"), reasons
        assert not set(ops.get("create", [])) & kubernetes, ops  # every child exists: none is made
        # Every child the report lists with changes is updated. The preview may list others as
        # updates too (the state `pulumi import` read differs from the program's inputs in fields
        # the apply leaves as they are): the `up` below must then change nothing on them.
        updated = {n for n in ops.get("update", []) if n in kubernetes}
        assert {n for n, c in adopted.items() if c["changes"]} <= updated

        with StatusWriter(kube, [MOVING]):
            stack.up()
        after = {key: live_state(kube, obj) for key, obj in children.items()}
        assert {k: v["metadata"]["uid"] for k, v in after.items()} == {
            k: v["metadata"]["uid"] for k, v in before.items()
        }
        listed = {(c["kind"], c["name"]): [x["path"] for x in c["changes"]] for c in adopted.values()}
        changed: dict[tuple[str, str], list[str]] = {}
        for key in after:
            paths = field_changes(after_apply[key], after[key])
            if paths:
                changed[key] = paths
        assert set(changed) == {k for k, v in listed.items() if v}
        for key, paths in changed.items():
            for path in paths:
                assert any(covers(path, c) for c in listed[key]), (key, path, listed[key])
            for path in listed[key]:
                assert any(covers(d, path) for d in paths), (key, path, paths)
        # No pod restart: every InferenceService's spec, labels and annotations (what KServe puts in
        # the pod template) are what the operator left, and its generation did not move.
        for (kind, name), live in after.items():
            if kind != "InferenceService":
                continue
            old = before[(kind, name)]
            assert live["spec"] == old["spec"], name
            assert live["metadata"].get("labels") == old["metadata"].get("labels"), name
            assert live["metadata"].get("annotations") == old["metadata"].get("annotations"), name
            assert live["metadata"]["generation"] == old["metadata"]["generation"], name
        # pulumi-kubernetes may record an updated, already complete Job as its watch cache last saw
        # it, before the patch (docs/adoption.md): the cluster holds what the
        # checks above read, and a refresh records it. The preview after it must then be empty.
        stack.pulumi("refresh", "--yes", "--skip-preview")
        stack.pulumi("preview", "--expect-no-changes", "--diff")  # the fields, should one differ

        figures: dict[str, dict[str, Any]] = {}
        for entry in report["services"]:
            key = entry["service"].removeprefix(f"{MOVING}/")
            figures[key] = {
                "adopted": len(entry["adopted"]),
                "created": len(
                    [n for n in ops.get("create", []) if n in kubernetes and service_of(n) == key]
                ),
                "replaced": len([n for n in ops.get("replace", []) if service_of(n) == key]),
                "deleted": len([n for n in ops.get("delete", []) if service_of(n) == key]),
                "fields changed by the first up": sorted(
                    f"{k} {p}"
                    for c in entry["adopted"]
                    for k, p in [(c["kind"], x["path"]) for x in c["changes"]]
                ),
            }
        print("figures:", json.dumps(figures, indent=1, sort_keys=True))
    finally:
        kube.delete("v1", "Namespace", None, MOVING)
        wait_until(lambda: kube.find("v1", "Namespace", None, MOVING) is None, 180, f"{MOVING} to be gone")


# --------------------------------------------------------------------------------------------------
# A Shared cache made by hand: its PVC and Job created with `kubectl create`, owned by no AIM object.
# Pulumi applies a Shared cache with force, like every child, so the field managers `kubectl create`
# left cause no conflict on the fields the plan sets differently (`app.kubernetes.io/managed-by`):
# the first `up` takes them, and step 2 has nothing to release.

HAND_MADE = "hand-made"
SHARED_CACHE_OBJECTS = ("qwen3-32b", "qwen3-32b-mi300x-fp16", "shared-a", "shared-b")
DUMPED_KINDS = (
    "aimservices.aim.eai.amd.com,aimmodels.aim.eai.amd.com,aimprofiles.aim.eai.amd.com,"
    "inferenceservices.serving.kserve.io,persistentvolumeclaims,jobs.batch,configmaps,services"
)


def test_a_shared_cache_made_with_kubectl_create_moves_with_no_conflict_every_printed_command_run(
    cluster: TestCluster, tmp_path: Path
) -> None:
    kube = cluster.kube
    moving = yaml.safe_load_all((FIXTURES / "moving.yaml").read_text())
    docs = [d for d in moving if d["metadata"]["name"] in SHARED_CACHE_OBJECTS]
    docs = json.loads(json.dumps(docs).replace(f'"{MOVING}"', f'"{HAND_MADE}"'))
    # The operator's finalizer on one service: the printed steps clear it before the delete.
    next(d for d in docs if d["metadata"]["name"] == "shared-a")["metadata"]["finalizers"] = [
        f"{AIM}/cleanup"
    ]
    objects = operator_deployment(docs, tmp_path / "operator")
    by_hand = [o for o in objects if o["kind"] in ("PersistentVolumeClaim", "Job")]
    assert len(by_hand) == 2
    kube.ensure_namespace(HAND_MADE)
    kube.ensure_namespace(OPERATOR_NAMESPACE)
    if kube.find("apps/v1", "Deployment", OPERATOR_NAMESPACE, OPERATOR_DEPLOYMENT) is None:
        kube.create(operator_manager())
    try:
        created = create_dump(kube, [o for o in objects if o not in by_hand])
        for obj in by_hand:
            meta = obj["metadata"]
            meta.pop("ownerReferences", None)
            (tmp_path / f"{obj['kind']}.yaml").write_text(yaml.safe_dump(creatable(obj), sort_keys=False))
            cluster.shell(f"kubectl create -f {shlex.quote(str(tmp_path / (obj['kind'] + '.yaml')))}")
            live = kube.get(obj["apiVersion"], obj["kind"], HAND_MADE, meta["name"])
            assert {m["manager"] for m in live["metadata"]["managedFields"]} == {"kubectl-create"}
            if obj["kind"] == "Job":
                mark_job(kube, HAND_MADE, meta["name"])
            created.append(live)
        # The dump as a user makes it, with the cluster's kubectl.
        dump = tmp_path / "dump.yaml"
        cluster.shell(f"kubectl -n {HAND_MADE} get {DUMPED_KINDS} -o yaml > {shlex.quote(str(dump))}")
        out_dir = tmp_path / "out"
        run = import_cli("--from", str(dump), "-o", str(out_dir))
        assert run.returncode == 0, run.stderr
        report: dict[str, Any] = json.loads((out_dir / "report.json").read_text())
        cache = next(s for s in report["services"] if s["service"] == "shared caches")
        assert sorted(c["kind"] for c in cache["adopted"]) == ["Job", "PersistentVolumeClaim"]
        changed = {c["kind"]: {change["path"] for change in c["changes"]} for c in cache["adopted"]}
        assert "metadata.labels.app.kubernetes.io/managed-by" in changed["PersistentVolumeClaim"], changed
        # A download Job is left as its creation made it (spec, labels, annotations: ignoreChanges).
        assert not [p for p in changed["Job"] if p.startswith(("spec", "metadata.labels"))], changed
        # Planned with `pulumi.com/patchForce`, like every child: step 2 leaves them as they are.
        release = next(s for s in report["operatorRemoval"] if "field managers" in s["step"])["commands"]
        for obj in by_hand:
            assert not [c for c in release if f"/{obj['metadata']['name']} " in c], obj["metadata"]["name"]

        program = tmp_path / "source"
        program.mkdir()
        (program / "Pulumi.yaml").write_text("name: aim-hand-made\nruntime: python\n")
        (program / "__main__.py").write_text(PROGRAM % str(out_dir / "aim"))
        stack = RealStack(program, tmp_path, toolchain_dir(), kubeconfig=cluster.kubeconfig)
        uids = {(o["kind"], o["metadata"]["name"]): o["metadata"]["uid"] for o in created}

        def before_up() -> None:
            preview = stack.preview()
            ops = preview_ops(preview)
            assert not ops.get("replace") and not ops.get("delete"), ops
            kubernetes = {
                urn_name(step["urn"])
                for step in preview["steps"]
                if urn_type(step["urn"]).startswith("kubernetes:")
            }
            assert not set(ops.get("create", [])) & kubernetes, ops

        take_steps(cluster, stack, run.stdout, HAND_MADE, before_up)
        stack.pulumi("refresh", "--yes", "--skip-preview")
        stack.pulumi("preview", "--expect-no-changes", "--diff")
        for obj in by_hand:
            live = kube.get(obj["apiVersion"], obj["kind"], HAND_MADE, obj["metadata"]["name"])
            assert live["metadata"]["uid"] == uids[(obj["kind"], obj["metadata"]["name"])]
            if obj["kind"] == "Job":
                # Fixed at its creation: no `up` changes its labels, so `kubectl-create` keeps them.
                made = obj["metadata"]["labels"]["app.kubernetes.io/managed-by"]
                assert live["metadata"]["labels"]["app.kubernetes.io/managed-by"] == made
                continue
            assert live["metadata"]["labels"]["app.kubernetes.io/managed-by"] == "aim-pulumi"
            # The forced apply took the field the plan sets differently from `kubectl-create`.
            owners = {
                m["manager"]
                for m in live["metadata"].get("managedFields") or []
                if "f:app.kubernetes.io/managed-by"
                in (((m.get("fieldsV1") or {}).get("f:metadata") or {}).get("f:labels") or {})
            }
            assert owners and all(m.startswith("pulumi-kubernetes") for m in owners), owners
        # The last step deleted every AIM object (shared-a once its finalizer was cleared).
        wait_until(
            lambda: not kube.list(f"{AIM}/v1alpha2", "AIMService", HAND_MADE), 60, "the AIMServices to go"
        )
        for (kind, name), uid in uids.items():
            if not kind.startswith("AIM"):
                found = next(o for o in created if (o["kind"], o["metadata"]["name"]) == (kind, name))
                live = kube.find(found["apiVersion"], kind, HAND_MADE, name)
                assert live is not None and live["metadata"]["uid"] == uid, (kind, name)
    finally:
        for service in kube.list(f"{AIM}/v1alpha2", "AIMService", HAND_MADE):
            if service["metadata"].get("finalizers"):  # left by a failure before the last step
                kube.patch(
                    service["apiVersion"],
                    "AIMService",
                    HAND_MADE,
                    service["metadata"]["name"],
                    {"metadata": {"finalizers": None}},
                )
        kube.delete("v1", "Namespace", None, HAND_MADE)
        wait_until(
            lambda: kube.find("v1", "Namespace", None, HAND_MADE) is None, 180, f"{HAND_MADE} to be gone"
        )
