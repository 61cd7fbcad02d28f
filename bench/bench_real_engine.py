"""Plan and deploy cost of the AIM components against their bare graph under the real Pulumi engine.

`bench_sdk.py` measures under the SDK's own runtime against its mock monitor; this one runs the
real Pulumi CLI, as users do: `pulumi preview` (and `pulumi up`) with a local file backend and the
Kubernetes provider in render mode (`kubernetes:renderYamlToDirectory`), the toolchain of
`scripts/real-engine-toolchain.sh` on PATH, as `tests/real_engine/harness.py` sets them up.

For N services over P cluster profiles it writes two Pulumi projects:

- `aim/`: the components' program, the very functions `bench_plan.aim_program` is made of (their
  source copied into `__main__.py`, so the program imports nothing but `aim_pulumi`);
- `bare/`: the same graph with no AIM logic, generated from `aim-pulumi plan aim --json`: every
  component as a `ComponentResource` shell of the same type registering the same outputs, every
  Kubernetes child through the pulumi-kubernetes class the components use, with the same inputs,
  parents, options and dependencies, and each sticky binding as the same dynamic resource (its
  provider pickled once by this script, so the program does not import `aim_pulumi`).

Both programs start with the same prelude, which writes the program process's own `getrusage`
(`RUSAGE_SELF`: user + system CPU from interpreter start to exit, imports included, and peak RSS)
to the file `AIM_BENCH_USAGE` names when the process exits; that is the language host's CPU the
tables report (the Go language host and the engine are the same on both sides, and the CLI's
whole process tree is also reported, as the `RUSAGE_CHILDREN` delta around the CLI call: every
process the CLI waited for). `AIM_BENCH_CPROFILE=FILE` makes the prelude profile the program's
main thread (the program body and the SDK's event loop) into FILE. It also counts the calls of the
SDK's end-of-program wait loop over pending Output tasks (`asyncio.wait`) and the tasks they
watched. Before measuring, the interpreter's packages and the checkout's are compiled to bytecode,
as `pip install` does (`bench_plan.with_bytecode`).

Runs alternate sides (the first side rotates with each repeat), each preview in a fresh stack of
its own state directory; min and median of the repeats. `--up` then runs `pulumi up --skip-preview`
as many times per side, interleaved the same way, each in a fresh stack, and reports the same
figures (program CPU, wall time, the CLI tree's CPU, peak RSS) and the state file's size per
service: in render mode (the manifests are written to a directory), or with `--cluster` against a
real API server, the project's test cluster (`tests/cluster/cluster.py`: etcd, kube-apiserver and
controllers, with the CRDs and StorageClasses installed), the provider configured with its
kubeconfig (`kubernetes:kubeconfig`); the programs are the same. Both sides declare the same
objects, so every up gets a fresh cluster of its own (a fresh state directory; the namespaces the
plan uses created, then waited until idle), started before and stopped after the measured call,
whatever happens: each side applies to the same empty, idle API server (no cold-start or
deletion work inside a measurement, no leftover history in etcd), at the price of about 25 s of
start and stop per run. Nothing runs pods there, and the provider waits for each download Job's
`Complete` and each InferenceService's `Ready` (the components' annotations, the same on both
sides): the status writer of `tests/cluster/status_writer.py` writes them, in this process
(outside the CLI's process tree), as the cluster tests do; routes are not waited for and the
cache PVCs carry the components' own `pulumi.com/skipAwait`. The cluster's own CPU during each
up is reported too. Each cluster has Ready GPU nodes with room for every service (`add_gpu_nodes`),
so the capacity check finds the services fit, as on a cluster they are deployed to; day two on the
same stack and cluster follows each up (`up_once`).

    python bench/bench_real_engine.py                       # 100, 300 services x 200, 2,000 profiles
    python bench/bench_real_engine.py --services 1000        # larger (slow)
    python bench/bench_real_engine.py --services 300 --profiles 2000 -r 3 --up
    python bench/bench_real_engine.py --sizes 100x200 -r 2 --up --cluster --workdir W   # up applies
    python bench/bench_real_engine.py --sizes 300x2000,1000x200 --workdir W   # chosen sizes
    python bench/bench_real_engine.py --tables --workdir W   # the tables of every size saved in W
    python bench/bench_real_engine.py --state-breakdown 100x200 --workdir W   # where the state's bytes go
    python bench/bench_real_engine.py --sizes 100x2000 --linear-wait --workdir W2   # see PRELUDE
    python bench/bench_real_engine.py --profile-run 300 --profiles 2000   # cProfile of one aim preview
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))

import bench_plan  # noqa: E402

PASSPHRASE = "bench"
LINEAR_WAIT = False  # --linear-wait
# --read-back-status: the stack setting `aim:readBackStatus` of every stack (None: the package's
# default, the reads on). Only the components read it; the bare graph declares no read either way.
READ_BACK_STATUS: str | None = None
STACK = "bench"
STACK_CONFIG = "config: {}\n"  # the stack's config file as each fresh stack starts it

# ------------------------------------------------------------------------------ the two programs

PRELUDE = '''\
"""Writes this process's CPU and peak memory at exit (and, asked to, a profile of it)."""
import atexit as _atexit
import json as _json
import os as _os
import resource as _resource
import time as _time

_started = _time.process_time()
_profiler = None
if _os.environ.get("AIM_BENCH_CPROFILE"):
    import cProfile as _cProfile

    _profiler = _cProfile.Profile()
    _profiler.enable()


if _os.environ.get("AIM_BENCH_LINEAR_WAIT"):
    # The SDK's end-of-program wait, with one done-callback per pending Output instead of one per
    # pending Output per completion (`asyncio.wait(..., FIRST_COMPLETED)` in a loop). An experiment
    # on both sides alike, to measure what that loop costs when thousands of Outputs wait for the
    # engine; exceptions are re-raised in completion order, as the SDK's loop does.
    import asyncio as _asyncio

    from pulumi.runtime import stack as _stack
    from pulumi.runtime.settings import SETTINGS as _SETTINGS
    from pulumi.runtime.settings import _get_rpc_manager

    async def _wait_for_rpcs(await_all_outstanding_tasks: bool = True) -> None:
        rpc_manager = _get_rpc_manager()
        while True:
            while rpc_manager.rpcs:
                await _asyncio.sleep(0)
                await rpc_manager.rpcs.pop()
            if rpc_manager.unhandled_exception is not None:
                raise rpc_manager.unhandled_exception.with_traceback(rpc_manager.exception_traceback)
            if await_all_outstanding_tasks:
                finished: _asyncio.Queue = _asyncio.Queue()
                watched: set = set()
                while True:
                    with _SETTINGS.lock:
                        fresh = list(_SETTINGS.outputs)
                        _SETTINGS.outputs.clear()
                    for task in fresh:
                        if task not in watched:
                            watched.add(task)
                            task.add_done_callback(finished.put_nowait)
                    if not watched:
                        break
                    task = await finished.get()
                    watched.discard(task)
                    await task
            if not rpc_manager.rpcs:
                break

    _stack.wait_for_rpcs = _wait_for_rpcs


_waits = [0, 0]
if _os.environ.get("AIM_BENCH_USAGE"):
    # The SDK's end-of-program wait loop: how often it waited for the first of its pending Output
    # tasks, and for how many tasks in all (its cost grows with their product).
    import asyncio as _asyncio_counted

    _sdk_wait = _asyncio_counted.wait

    async def _counted_wait(tasks, **kwargs):  # type: ignore[no-untyped-def]
        _waits[0] += 1
        _waits[1] += len(tasks)
        return await _sdk_wait(tasks, **kwargs)

    _asyncio_counted.wait = _counted_wait


@_atexit.register
def _report() -> None:
    if _profiler is not None:
        _profiler.disable()
        _profiler.dump_stats(_os.environ["AIM_BENCH_CPROFILE"])
    usage = _resource.getrusage(_resource.RUSAGE_SELF)
    if _os.environ.get("AIM_BENCH_USAGE"):
        with open(_os.environ["AIM_BENCH_USAGE"], "w") as out:
            _json.dump(
                {
                    "cpu": usage.ru_utime + usage.ru_stime,
                    "body": _time.process_time() - _started,
                    "rss_mb": usage.ru_maxrss / 1024,
                    "waits": _waits[0],
                    "watched": _waits[1],
                },
                out,
            )

'''

# What the components' program is made of: bench_plan's own functions, by source.
_AIM_PARTS = (
    bench_plan._source,
    bench_plan._runtime_config,
    bench_plan._namespaced_profile,
    bench_plan._cluster_profile,
    bench_plan._service,
    bench_plan.aim_services,
    bench_plan.aim_program,
)
_DATA_PARTS = (bench_plan._service, bench_plan.aim_services, bench_plan.aim_catalog_as_data)


def aim_program_source(services: int, profiles: int) -> str:
    """`bench_plan.aim_program(services, cluster_profiles=profiles)` as a standalone program.

    The functions are copied by source rather than imported, so the program pays for importing
    `aim_pulumi` as a user's does, and not for the benchmark's own imports (the offline engine).
    """
    parts = "\n\n".join(inspect.getsource(part) for part in _AIM_PARTS)
    return (
        "from typing import Any\n\n"
        "from aim_pulumi import AIMClusterProfile, AIMProfile, AIMRuntimeConfig, AIMService\n\n"
        f"NAMESPACES = {bench_plan.NAMESPACES!r}\nMODELS = {bench_plan.MODELS!r}\nG = {bench_plan.G!r}\n\n\n"
        f"{parts}\n\naim_program({services}, cluster_profiles={profiles})\n"
    )


def data_program_source(services: int) -> str:
    """The same services over the same catalog, read from `catalog.yaml` as data of one AIMStack."""
    parts = "\n\n".join(inspect.getsource(part) for part in _DATA_PARTS)
    return (
        "from typing import Any\n\n"
        "from aim_pulumi import AIMService, AIMStack\n\n"
        f"NAMESPACES = {bench_plan.NAMESPACES!r}\nMODELS = {bench_plan.MODELS!r}\nG = {bench_plan.G!r}\n\n\n"
        f"{parts}\n\naim_catalog_as_data('catalog.yaml')\naim_services({services})\n"
    )


BARE_PROGRAM = '''\
"""The components' graph declared bare: pulumi and pulumi_kubernetes only, from graph.json."""
import json
from pathlib import Path

import pulumi
import pulumi_kubernetes as k8s

_CLASSES = {
    ("v1", "ConfigMap"): k8s.core.v1.ConfigMap,
    ("v1", "Secret"): k8s.core.v1.Secret,
    ("v1", "PersistentVolumeClaim"): k8s.core.v1.PersistentVolumeClaim,
    ("batch/v1", "Job"): k8s.batch.v1.Job,
}
_FIELDS = {"binaryData": "binary_data", "stringData": "string_data"}


def child(name, inputs, opts):
    """A Kubernetes child as the components declare it: the typed class, else a custom object."""
    fields = {_FIELDS.get(k, k): v for k, v in inputs.items() if k not in ("apiVersion", "kind")}
    cls = _CLASSES.get((inputs["apiVersion"], inputs["kind"]))
    if cls is not None:
        return cls(name, **fields, opts=opts)
    fields.pop("status", None)
    return k8s.apiextensions.CustomResource(
        name, api_version=inputs["apiVersion"], kind=inputs["kind"], **fields, opts=opts
    )


declared = {}
for node in json.loads((Path(__file__).parent / "graph.json").read_text()):
    options = node["options"]
    opts = pulumi.ResourceOptions(
        parent=declared.get(node["parent"]),
        depends_on=[declared[urn] for urn in node["dependsOn"]] or None,
        retain_on_delete=options["retainOnDelete"] or None,
        protect=options["protect"] or None,
        delete_before_replace=options["deleteBeforeReplace"] or None,
        ignore_changes=options["ignoreChanges"] or None,
        replace_on_changes=options["replaceOnChanges"] or None,
    )
    if not node["custom"]:
        shell = pulumi.ComponentResource(node["type"], node["name"], None, opts)
        shell.register_outputs(node["outputs"] or {})
        declared[node["urn"]] = shell
    elif node["type"].startswith("kubernetes:"):
        declared[node["urn"]] = child(node["name"], node["inputs"], opts)
    else:
        declared[node["urn"]] = pulumi.CustomResource(node["type"], node["name"], node["inputs"], opts)
'''


def bare_graph(plan: Mapping[str, Any], provider: str) -> list[dict[str, Any]]:
    """The plan's resources in an order where parents and dependencies come first.

    A dynamic resource (the sticky binding) gets back the pickled provider the plan leaves out of
    its inputs, so the engine runs the same provider for it.
    """
    nodes = {r["urn"]: r for r in plan["resources"]}
    ordered: list[dict[str, Any]] = []
    placed: set[str] = set()

    def place(urn: str) -> None:
        if urn in placed:
            return
        placed.add(urn)
        node = nodes[urn]
        for before in [node["parentUrn"], *node["dependsOn"]]:
            if before in nodes:
                place(before)
        inputs = dict(node["inputs"])
        if node["type"].startswith("pulumi-python:dynamic"):
            inputs["__provider"] = provider
        ordered.append(
            {
                "type": node["type"],
                "name": node["name"],
                "urn": urn,
                "parent": node["parentUrn"],
                "custom": node["custom"],
                "inputs": inputs,
                "outputs": node["outputs"] if not node["custom"] else None,
                "dependsOn": [d for d in node["dependsOn"] if d in nodes],
                "options": node["options"],
            }
        )

    for urn in nodes:
        place(urn)
    return ordered


def _binding_provider() -> str:
    """The sticky binding's provider as its resources carry it (pickled once)."""
    from aim_pulumi.resources.binding import serialized_provider

    return serialized_provider()


def _bare_project(program: Path, bare: Path, plan_file: Path) -> int:
    """`bare/` generated from `program`'s offline plan; the number of resources in its graph."""
    done = subprocess.run(
        [sys.executable, "-m", "aim_pulumi.cli", "plan", str(program), "--stack", STACK, "--quiet",
         "--show-secrets", "--json", str(plan_file)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"aim-pulumi plan {program} failed:\n{done.stdout[-2000:]}{done.stderr[-3000:]}")
    plan = json.loads(plan_file.read_text(encoding="utf-8"))
    graph = bare_graph(plan, _binding_provider())
    (bare / "graph.json").write_text(json.dumps(graph), encoding="utf-8")
    return len(graph)


def write_projects(workdir: Path, services: int, profiles: int, data: bool = False) -> dict[str, Any]:
    """`aim/` and `bare/` projects for one size; the bare one from the aim one's offline plan.

    `data`: also `data/` (the same services over the same catalog as `catalogAs: data` of one
    AIMStack, from `catalog.yaml`) and `data-bare/` (its graph, declared bare).
    """
    import yaml

    base = workdir / f"{services}-{profiles}"
    sources = {"aim": aim_program_source(services, profiles), "bare": BARE_PROGRAM}
    if data:
        sources |= {"data": data_program_source(services), "data-bare": BARE_PROGRAM}
    for side, source in sources.items():
        directory = base / side
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "Pulumi.yaml").write_text("name: bench\nruntime: python\n", encoding="utf-8")
        (directory / f"Pulumi.{STACK}.yaml").write_text(STACK_CONFIG, encoding="utf-8")
        (directory / "__main__.py").write_text(PRELUDE + source, encoding="utf-8")
    written: dict[str, Any] = {"dir": base}
    written["resources"] = _bare_project(base / "aim", base / "bare", base / "plan.json")
    if data:
        catalog = yaml.safe_dump_all(bench_plan.catalog_manifests(profiles), sort_keys=False)
        (base / "data" / "catalog.yaml").write_text(catalog, encoding="utf-8")
        written["data_resources"] = _bare_project(base / "data", base / "data-bare", base / "plan-data.json")
    return written


# ------------------------------------------------------------------------------ the real CLI


def toolchain() -> Path:
    check = subprocess.run(
        ["bash", str(REPO / "scripts" / "real-engine-toolchain.sh"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    if check.returncode != 0:
        raise SystemExit(f"{check.stderr.strip()} (build it with scripts/real-engine-toolchain.sh)")
    return Path(check.stdout.strip().splitlines()[-1])


class Stack:
    """A fresh stack of one program: its own state directory, home and render directory.

    `kubeconfig`: the Kubernetes provider applies to the cluster it names (`kubernetes:kubeconfig`)
    instead of rendering; nothing else about the stack differs.
    """

    def __init__(self, program: Path, workdir: Path, tools: Path, kubeconfig: Path | None = None) -> None:
        if workdir.exists():
            shutil.rmtree(workdir)
        (workdir / "state").mkdir(parents=True)
        (workdir / "home").mkdir()
        self.program = program
        self.workdir = workdir
        interpreter_bin = str(Path(sys.executable).parent)
        inherited = [p for p in os.environ.get("PATH", "").split(os.pathsep) if p and p != interpreter_bin]
        self.env = {
            **os.environ,
            "PATH": os.pathsep.join([str(tools), interpreter_bin, *inherited]),
            "PULUMI_HOME": str(workdir / "home"),
            "PULUMI_BACKEND_URL": (workdir / "state").as_uri(),
            "PULUMI_CONFIG_PASSPHRASE": PASSPHRASE,
            "PULUMI_SKIP_UPDATE_CHECK": "1",
            "PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION": "true",
            "PULUMI_SKIP_CONFIRMATIONS": "true",
            "AIM_BENCH_USAGE": str(workdir / "usage.json"),
        }
        for name in ("PULUMI_ACCESS_TOKEN", "KUBECONFIG", "AIM_BENCH_CPROFILE", "AIM_BENCH_LINEAR_WAIT"):
            self.env.pop(name, None)
        if LINEAR_WAIT:
            self.env["AIM_BENCH_LINEAR_WAIT"] = "1"
        # The stack config file is the program directory's, shared by the stacks made of it one after
        # another: each starts it anew, so no other stack's salt or provider config carries over.
        (program / f"Pulumi.{STACK}.yaml").write_text(STACK_CONFIG, encoding="utf-8")
        self.pulumi("stack", "init", STACK)
        if kubeconfig is None:
            self.pulumi("config", "set", "kubernetes:renderYamlToDirectory", str(workdir / "rendered"))
        else:
            self.pulumi("config", "set", "kubernetes:kubeconfig", str(kubeconfig))
        if READ_BACK_STATUS is not None:
            self.pulumi("config", "set", "aim:readBackStatus", READ_BACK_STATUS)

    def pulumi(
        self, *args: str, env: Mapping[str, str] | None = None, timeout: float | None = None
    ) -> subprocess.CompletedProcess[str]:
        try:
            done = subprocess.run(
                ["pulumi", *args, "--non-interactive"],
                cwd=self.program,
                env={**self.env, **(env or {})},
                capture_output=True,
                text=True,
                check=False,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired as expired:
            output = expired.stdout.decode() if isinstance(expired.stdout, bytes) else expired.stdout or ""
            raise SystemExit(
                f"pulumi {' '.join(args)} in {self.program} did not end within {timeout:.0f} s\n"
                f"{output[-4000:]}"
            ) from None
        if done.returncode != 0:
            raise SystemExit(
                f"pulumi {' '.join(args)} in {self.program} exited {done.returncode}\n"
                f"{done.stdout[-4000:]}\n{done.stderr[-3000:]}"
            )
        return done

    def timed(
        self, *args: str, env: Mapping[str, str] | None = None, timeout: float | None = None
    ) -> dict[str, float]:
        """One CLI call: wall time, the program process's CPU and peak RSS, the CLI tree's CPU."""
        usage_file = self.workdir / "usage.json"
        usage_file.unlink(missing_ok=True)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        wall = time.perf_counter()
        done = self.pulumi(*args, env=env, timeout=timeout)
        wall = time.perf_counter() - wall
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        # `pulumi refresh` runs no program: its figures are the CLI tree's and the wall time only.
        own = (
            json.loads(usage_file.read_text(encoding="utf-8"))
            if usage_file.exists()
            else {"cpu": 0.0, "body": 0.0, "rss_mb": 0.0, "waits": 0, "watched": 0}
        )
        return {
            "wall": wall,
            "cpu": own["cpu"],
            "body": own["body"],
            "rss_mb": own["rss_mb"],
            "waits": own["waits"],
            "watched": own["watched"],
            "tree": (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime),
            "steps": _created(done.stdout),
            "changed": _changed(done.stdout),
        }

    def state_bytes(self) -> int:
        """Size of the stack's checkpoint file as the file backend writes it."""
        files = [p for p in (self.workdir / "state" / ".pulumi" / "stacks").rglob(f"{STACK}.json*")]
        files = [p for p in files if not p.name.endswith(".bak")]
        return sum(p.stat().st_size for p in files)


# ------------------------------------------------------------------------------ the test cluster

CLUSTER_TESTS = REPO / "tests" / "cluster"
CAPACITY_OBJECTS = REPO / "tests" / "resolve" / "capacity"


def _cluster_tests() -> None:
    """`tests/cluster` importable: its `cluster`, `kube` and `status_writer` modules."""
    if str(CLUSTER_TESTS) not in sys.path:
        sys.path.insert(0, str(CLUSTER_TESTS))


def cluster_built() -> Path | None:
    """The test cluster's binaries (`scripts/test-cluster.sh --check`), or None when not built."""
    _cluster_tests()
    from cluster import built  # type: ignore[import-not-found]

    found: Path | None = built()
    return found


def _cluster_cpu(state: Path) -> float:
    """User + system CPU so far of the cluster's processes (etcd, kube-apiserver, controllers)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pidfile in state.glob("*.pid"):
        fields = Path(f"/proc/{pidfile.read_text().strip()}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return total


def _settle(state: Path, quiet: float = 0.1, seconds: int = 3, limit: float = 60.0) -> None:
    """Wait until the cluster is idle: under `quiet` s of CPU in each of `seconds` consecutive seconds
    (a fresh API server publishes the CRDs' OpenAPI a few seconds after they are installed)."""
    deadline = time.monotonic() + limit
    calm = 0
    while calm < seconds and time.monotonic() < deadline:
        before = _cluster_cpu(state)
        time.sleep(1.0)
        calm = calm + 1 if _cluster_cpu(state) - before < quiet else 0


# The accelerators the benchmark's catalog names (`bench_plan`): a node of each keeps every profile
# available, as in the offline plan the bare graph is made from.
GPU_MODELS = ("MI300X", "MI325X", "MI355X")
GPUS_PER_NODE = 8


def add_gpu_nodes(kube: Any, services: int) -> int:
    """Nodes with room for every service, as on a cluster its services fit: `ceil(services / 8) + 1`
    nodes of 8 GPUs of each model in `GPU_MODELS`, Ready, written as a kubelet and the node
    lifecycle controller would (`status_writer.add_ready_node`, which the capacity cluster tests use
    too; the test cluster runs neither). Without them the capacity check, on by default, finds no
    GPU and warns on every service in every run (`CapacityExceeded`), work a cluster the services
    fit never causes and the bare graph has no counterpart for. The number of nodes written."""
    _cluster_tests()
    if str(CAPACITY_OBJECTS) not in sys.path:
        sys.path.insert(0, str(CAPACITY_OBJECTS))
    from k8s_objects import node  # type: ignore[import-not-found]
    from status_writer import add_ready_node  # type: ignore[import-not-found]

    per_model = -(-services // GPUS_PER_NODE) + 1
    for model in GPU_MODELS:
        for index in range(per_model):
            add_ready_node(kube, node(f"bench-{model.lower()}-{index}", GPUS_PER_NODE, model=model))
    return per_model * len(GPU_MODELS)


@contextlib.contextmanager
def fresh_cluster(state: Path, namespaces: Iterable[str], services: int = 0) -> Iterator[Any]:
    """A test cluster started in an empty `state` (`tests/cluster/cluster.py`: the CRDs and
    StorageClasses installed), with `namespaces` created and GPU nodes for `services`
    (`add_gpu_nodes`), idle; always stopped on leaving. Its directory (etcd's data, the logs) is
    removed after a run that went through, kept after a failure."""
    _cluster_tests()
    from cluster import TestCluster

    if state.exists():
        shutil.rmtree(state)
    cluster = TestCluster.start(state)  # stops what it started if it fails
    try:
        for namespace in namespaces:
            cluster.kube.ensure_namespace(namespace)
        if services:
            add_gpu_nodes(cluster.kube, services)
        _settle(state)
        yield cluster
    finally:
        cluster.stop()
    shutil.rmtree(state, ignore_errors=True)


# A day-two call that waits longer has met a change it should not have (the CLI's summary says
# which); nothing is left to answer a wait for readiness then.
DAY_TWO_TIMEOUT = 900.0
# What every day-two call records: wall, the CLI tree's CPU, the changes the CLI's summary counted.
DAY_TWO_FIGURES = ("wall", "tree", "changed")


def up_once(
    base: Path, side: str, tools: Path, namespaces: Sequence[str] | None, services: int = 0
) -> dict[str, float]:
    """One `pulumi up --skip-preview` of `side` in a fresh stack: render mode, or with `namespaces`
    against a fresh test cluster (with GPU nodes for `services`) with the status writer of
    `tests/cluster/status_writer.py` playing the Job controller and KServe, whose conditions the
    provider waits for (each download Job's `Complete`, each InferenceService's `Ready`; routes are
    not waited for, the cache PVCs carry the components' own `skipAwait`, the same on both sides).
    The writer runs in this process, outside the CLI's process tree; `cluster_cpu` is the cluster's
    own CPU during the call, `status_writes` the number of statuses the writer wrote.

    Then day two on the same stack and cluster: `refresh` right after the up (`first_refresh`: it
    takes in the statuses the writer wrote after the provider's waits ended, a change), then, the
    writer stopped and the cluster idle before each, `up --refresh` and `refresh` with nothing
    changed. The writer polls the API server four times a second; stopped, it neither loads the
    cluster nor takes CPU from the measured calls, and a run that changes nothing waits for nothing."""
    program, workdir = base / side, base / f"up-{side}"
    if namespaces is None:
        stack = Stack(program, workdir, tools)
        return {**stack.timed("up", "--yes", "--skip-preview"), "state_bytes": stack.state_bytes()}
    _cluster_tests()
    from status_writer import StatusWriter

    with fresh_cluster(base / f"cluster-{side}", namespaces, services) as cluster:
        stack = Stack(program, workdir, tools, kubeconfig=cluster.kubeconfig)
        with StatusWriter(cluster.kube, namespaces, routes=False) as writer:
            before = _cluster_cpu(cluster.state)
            run = stack.timed("up", "--yes", "--skip-preview")
            run["cluster_cpu"] = _cluster_cpu(cluster.state) - before
            state_bytes = stack.state_bytes()
            first = stack.timed("refresh", "--yes", "--skip-preview", timeout=DAY_TWO_TIMEOUT)
        run["status_writes"] = len(writer.written)
        _record_day_two(run, "first_refresh", first, DAY_TWO_FIGURES)
        # `up --refresh` is the one day-two call that runs the program: its CPU is recorded too.
        calls = (
            (("up", "--refresh"), "up_refresh", (*DAY_TWO_FIGURES, "cpu")),
            (("refresh",), "refresh", DAY_TWO_FIGURES),
        )
        for command, key, figures in calls:
            _settle(cluster.state)
            again = stack.timed(*command, "--yes", "--skip-preview", timeout=DAY_TWO_TIMEOUT)
            _record_day_two(run, key, again, figures)
        return {**run, "state_bytes": state_bytes}


def _record_day_two(
    run: dict[str, float], key: str, call: Mapping[str, float], figures: Sequence[str]
) -> None:
    """A day-two call's `figures` into `run`, each under `<key>_<figure>`."""
    for figure in figures:
        run[f"{key}_{figure}"] = call[figure]


# ------------------------------------------------------------------------------ measuring


def _created(output: str) -> float:
    """The "+ N to create" (preview) or "+ N created" (up) of the CLI's summary."""
    found = re.search(r"\+ (\d+) (?:to create|created)", output)
    return float(found.group(1)) if found else -1.0


def _changed(output: str) -> float:
    """How many resources the CLI's summary says were created, updated, replaced or deleted."""
    found = re.findall(r"[+~\-] (\d+) (?:created|updated|replaced|deleted)", output)
    found += re.findall(r"\+-(\d+) replaced", output)
    return float(sum(int(n) for n in found))


def _stats(values: Sequence[float]) -> tuple[float, float]:
    return min(values), statistics.median(values)


_TWIN = {"aim": "bare", "bare": "aim", "data": "data-bare", "data-bare": "data"}


def _rotation(sides: Sequence[str], repeat: int) -> Sequence[str]:
    """The sides in the order of one repeat: the first side rotates with each repeat."""
    return [*sides[repeat % len(sides) :], *sides[: repeat % len(sides)]]


def _check_steps(runs: Mapping[str, Sequence[Mapping[str, float]]], side: str, what: str) -> None:
    """The latest run of `side` created (or planned) as many resources as its twin's first run."""
    twin = _TWIN[side]
    expected = (runs[twin] or runs[side])[0]["steps"]
    if runs[side][-1]["steps"] != expected or runs[side][-1]["steps"] < 0:
        raise SystemExit(f"{side} {what}: {runs[side][-1]['steps']:.0f} creates, {twin} {expected:.0f}")


def _summary(runs: Sequence[Mapping[str, float]]) -> dict[str, Any]:
    """One side's runs of one CLI command: min and median of each figure, the largest peak RSS."""
    figures = ("cpu", "body", "wall", "tree", "state_bytes", "cluster_cpu")
    day_two = tuple(f"{c}_{f}" for c in ("first_refresh", "up_refresh", "refresh") for f in DAY_TWO_FIGURES)
    keys = [k for k in (*figures, *day_two, "up_refresh_cpu") if k in runs[0]]
    summary: dict[str, Any] = {key: _stats([r[key] for r in runs]) for key in keys}
    summary["rss_mb"] = max(r["rss_mb"] for r in runs)
    summary["end_wait"] = statistics.median(r["waits"] for r in runs)
    summary["end_watched"] = statistics.median(r["watched"] for r in runs)
    summary["runs"] = len(runs)
    return summary


def _plan_namespaces(plan_file: Path) -> set[str]:
    """The namespaces of the Kubernetes objects an offline plan declares."""
    plan = json.loads(plan_file.read_text(encoding="utf-8"))
    return {
        r["inputs"]["metadata"]["namespace"]
        for r in plan["resources"]
        if r["type"].startswith("kubernetes:") and (r["inputs"].get("metadata") or {}).get("namespace")
    }


def measure(
    services: int,
    profiles: int,
    repeats: int,
    workdir: Path,
    tools: Path,
    up: bool,
    data: bool = False,
    cluster: bool = False,
) -> dict[str, Any]:
    """Interleaved previews of every side; `data`: also the catalog as data and its own bare graph.

    `up`: then as many interleaved `pulumi up` runs, each in a fresh stack; `cluster`: each against a
    fresh test cluster (`up_once`).
    """
    written = write_projects(workdir, services, profiles, data)
    base: Path = written["dir"]
    sides = ("aim", "bare", "data", "data-bare") if data else ("aim", "bare")
    runs: dict[str, list[dict[str, float]]] = {side: [] for side in sides}
    for repeat in range(repeats):
        for side in _rotation(sides, repeat):
            stack = Stack(base / side, base / f"run-{side}", tools)
            runs[side].append(stack.timed("preview"))
            _check_steps(runs, side, "previewed")
            print(
                f"#   {services}/{profiles} {side} preview {repeat + 1}: {runs[side][-1]['cpu']:.2f} s CPU, "
                f"{runs[side][-1]['wall']:.2f} s wall, the SDK's end wait: {runs[side][-1]['waits']:.0f} "
                f"waits over {runs[side][-1]['watched']:.0f} pending tasks",
                file=sys.stderr,
                flush=True,
            )
    result: dict[str, Any] = {
        "services": services,
        "profiles": profiles,
        "resources": written["resources"],
        "data_resources": written.get("data_resources"),
    }
    for side in sides:
        result[side] = _summary(runs[side])
    if up:
        plans = [base / "plan.json", *([base / "plan-data.json"] if data else [])]
        namespaces = sorted(set().union(*map(_plan_namespaces, plans))) if cluster else None
        target = "cluster" if cluster else "render"
        ups: dict[str, list[dict[str, float]]] = {side: [] for side in sides}
        for repeat in range(repeats):
            for side in _rotation(sides, repeat):
                ups[side].append(up_once(base, side, tools, namespaces, services))
                _check_steps(ups, side, "up created")
                last = ups[side][-1]
                print(
                    f"#   {services}/{profiles} {side} up {repeat + 1} ({target}): "
                    f"{last['cpu']:.2f} s CPU, {last['wall']:.2f} s wall, CLI tree {last['tree']:.2f} s"
                    + (
                        f", cluster {last['cluster_cpu']:.2f} s CPU, "
                        f"{last['status_writes']:.0f} statuses written"
                        if cluster
                        else ""
                    ),
                    file=sys.stderr,
                    flush=True,
                )
        result["up_target"] = target
        for side in sides:
            result[side]["up"] = _summary(ups[side])
    return result


def _pair(aim: tuple[float, float], bare: tuple[float, float], unit: str = "s") -> str:
    ratio = f"{aim[0] / bare[0]:.2f}x / {aim[1] / bare[1]:.2f}x"
    return f"{aim[0]:.2f} / {aim[1]:.2f} {unit} | {bare[0]:.2f} / {bare[1]:.2f} {unit} | {ratio}"


def _rss(aim: Mapping[str, Any], bare: Mapping[str, Any]) -> str:
    return f"{aim['rss_mb']:.0f} / {bare['rss_mb']:.0f} MB ({aim['rss_mb'] / bare['rss_mb']:.2f}x)"


def _end_wait(side: Mapping[str, Any]) -> str:
    """The median run's `asyncio.wait` calls in the SDK's end-of-program loop, and the tasks they watched."""
    if "end_wait" not in side:
        return "-"
    return f"{side['end_wait']:,.0f} waits, {side['end_watched']:,.0f} tasks watched"


def print_tables(results: Sequence[dict[str, Any]], repeats: int) -> None:
    print(
        f"\n`pulumi preview`, render mode, fresh stack; min / median of {repeats} interleaved repeats "
        f"({os.cpu_count()} CPUs). Program CPU: user + system CPU of the Python program process "
        "(getrusage at its exit, interpreter start and imports included).\n"
    )
    print(
        "| services | profiles | resources | program CPU: components | bare graph | ratio "
        "| wall: components | bare graph | ratio | peak RSS components / bare |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in results:
        a, b = r["aim"], r["bare"]
        print(
            f"| {r['services']:,} | {r['profiles']:,} | {r['resources']:,} | {_pair(a['cpu'], b['cpu'])} "
            f"| {_pair(a['wall'], b['wall'])} | {_rss(a, b)} |"
        )
    print(
        "\nThe same runs: program CPU from the program's first line to exit (its own imports included; "
        "interpreter start and the SDK's import by the language host not), and the CPU of the CLI's "
        "whole process tree (RUSAGE_CHILDREN around the CLI call: CLI, language host, program, "
        "providers); and the SDK's end-of-program wait (`wait_for_rpcs`): how often it called "
        "`asyncio.wait(..., FIRST_COMPLETED)` on the Output tasks left after the RPCs, and how many "
        "tasks those calls watched in all (median run).\n"
    )
    print(
        "| services | profiles | program body: components | bare graph | ratio "
        "| CLI tree: components | bare graph | ratio | the SDK's end wait: components | bare graph |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in results:
        a, b = r["aim"], r["bare"]
        print(
            f"| {r['services']:,} | {r['profiles']:,} | {_pair(a['body'], b['body'])} "
            f"| {_pair(a['tree'], b['tree'])} | {_end_wait(a)} | {_end_wait(b)} |"
        )
    with_data = [r for r in results if r.get("data")]
    if with_data:
        print(
            "\n`catalogAs: data` (the same catalog as data of one AIMStack, read from YAML): program CPU "
            "and wall, against its own graph declared bare, and its CPU against the bare graph of one "
            "resource per catalog object (the components' floor).\n"
        )
        print(
            "| services | profiles | resources | program CPU: data | its bare graph | ratio "
            "| wall: data | its bare graph | ratio | CPU ratio to the components' floor |"
        )
        print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for r in with_data:
            d, f, b = r["data"], r["data-bare"], r["bare"]
            print(
                f"| {r['services']:,} | {r['profiles']:,} | {r['data_resources']:,} "
                f"| {_pair(d['cpu'], f['cpu'])} | {_pair(d['wall'], f['wall'])} "
                f"| {d['cpu'][0] / b['cpu'][0]:.2f}x / {d['cpu'][1] / b['cpu'][1]:.2f}x |"
            )
    by_key = {(r["services"], r["profiles"]): r for r in results}
    for services in sorted({r["services"] for r in results}):
        small, large = by_key.get((services, 200)), by_key.get((services, 2000))
        if small and large:
            aim_growth = large["aim"]["cpu"][0] / small["aim"]["cpu"][0]
            bare_growth = large["bare"]["cpu"][0] / small["bare"]["cpu"][0]
            print(
                f"\n{services} services, catalog 200 -> 2,000 profiles (program CPU, min): components grow "
                f"{aim_growth:.2f}x, bare graph {bare_growth:.2f}x ({aim_growth / bare_growth:.2f}x the "
                f"floor's growth)"
            )
            if small.get("data") and large.get("data"):
                data_growth = large["data"]["cpu"][0] / small["data"]["cpu"][0]
                print(
                    f"{services} services, catalog as data, 200 -> 2,000 profiles: grows {data_growth:.2f}x "
                    f"({data_growth / bare_growth:.2f}x the components' floor's growth)"
                )
    ups = [r for r in results if "up" in r["aim"]]
    if ups:
        print(
            "\n`pulumi up --skip-preview`, each run in a fresh stack, up against: `render`, the Kubernetes "
            "provider in render mode (manifests written to a directory), or `cluster`, a fresh test "
            "cluster per run (etcd, kube-apiserver, controllers; the status writer plays the Job "
            "controller and KServe); min / median of the runs per side, interleaved. Program CPU and CLI "
            "tree as in the previews; peak RSS of the program process (largest run); the state file per "
            "service and the cluster's own CPU during the call (etcd, API server, controllers), median "
            "run.\n"
        )
        print(
            "| services | profiles | catalog | up against | runs | program CPU: components | bare graph "
            "| ratio | wall: components | bare graph | ratio | CLI tree: components | bare graph | ratio "
            "| peak RSS components / bare | state per service components / bare "
            "| cluster CPU components / bare |"
        )
        print("|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for r in ups:
            pairs = [("components", r["aim"], r["bare"])]
            if "up" in (r.get("data") or {}):
                pairs.append(("as data", r["data"], r["data-bare"]))
            for catalog, a_side, b_side in pairs:
                a, b = _up_summary(a_side), _up_summary(b_side)
                state = [side["state_bytes"][1] / r["services"] / 1024 for side in (a, b)]
                cluster = (
                    f"{a['cluster_cpu'][1]:.2f} / {b['cluster_cpu'][1]:.2f} s" if "cluster_cpu" in a else "-"
                )
                print(
                    f"| {r['services']:,} | {r['profiles']:,} | {catalog} | {r.get('up_target', 'render')} "
                    f"| {a['runs']} | {_pair(a['cpu'], b['cpu'])} | {_pair(a['wall'], b['wall'])} "
                    f"| {_pair(a['tree'], b['tree'])} | {_rss(a, b)} "
                    f"| {state[0]:.1f} / {state[1]:.1f} KiB ({state[0] / state[1]:.2f}x) | {cluster} |"
                )
        day_two = [r for r in ups if "up_refresh_wall" in _up_summary(r["aim"])]
        if day_two:
            print(
                "\nDay two on the same stack and cluster, after each up: `pulumi refresh --skip-preview` "
                "right after it (it takes in the statuses written after the up's waits ended), then, "
                "with the status writer stopped and the cluster idle before each, nothing changed: "
                "`pulumi up --refresh --skip-preview` and `pulumi refresh --skip-preview`; wall and the "
                "CLI tree's CPU, min / median; changes: what the CLI's summary counted (median).\n"
            )
            print(
                "| services | profiles | command | wall: components | bare graph | ratio "
                "| CLI tree: components | bare graph | ratio | changes components / bare |"
            )
            print("|---:|---:|---|---:|---:|---:|---:|---:|---:|---|")
            for r in day_two:
                a, b = _up_summary(r["aim"]), _up_summary(r["bare"])
                commands = (
                    ("first_refresh", "refresh` right after `up"),
                    ("up_refresh", "up --refresh"),
                    ("refresh", "refresh"),
                )
                for key, command in commands:
                    if f"{key}_wall" not in a:
                        continue  # saved before the first refresh was measured
                    print(
                        f"| {r['services']:,} | {r['profiles']:,} | `{command}` "
                        f"| {_pair(a[f'{key}_wall'], b[f'{key}_wall'])} "
                        f"| {_pair(a[f'{key}_tree'], b[f'{key}_tree'])} "
                        f"| {a[f'{key}_changed'][1]:.0f} / {b[f'{key}_changed'][1]:.0f} |"
                    )
                if "up_refresh_cpu" in a:
                    print(
                        f"| {r['services']:,} | {r['profiles']:,} | `up --refresh`: program CPU "
                        f"| {_pair(a['up_refresh_cpu'], b['up_refresh_cpu'])} | | | | |"
                    )


def _up_summary(side: Mapping[str, Any]) -> dict[str, Any]:
    """A side's `up` figures as `_summary` makes them; a result saved when `--up` ran once per side
    (single figures, the state file's size beside them) reads as one run."""
    up = side["up"]
    if "runs" in up:
        return dict(up)
    return _summary([{**up, "state_bytes": side["state_bytes"]}])


_STATE_PARTS = {
    "stackTrace": "registration trace",
    "sourcePosition": "source position",
    "outputs": "outputs",
    "inputs": "inputs",
    "dependencies": "dependencies",
    "propertyDependencies": "property dependencies",
    "urn": "URN, parent, type, id",
    "parent": "URN, parent, type, id",
    "type": "URN, parent, type, id",
    "id": "URN, parent, type, id",
    "provider": "provider reference",
}


def state_breakdown(path: Path) -> dict[str, Any]:
    """Where a state file's bytes go: per part of every resource (its compact JSON, key included),
    and per resource type; the resources counted."""
    exported = json.loads(path.read_text(encoding="utf-8"))
    resources = exported.get("checkpoint", exported).get("latest", {}).get("resources") or []
    parts: dict[str, int] = {}
    types: dict[str, list[int]] = {}
    for r in resources:
        for key, value in r.items():
            part = _STATE_PARTS.get(key, "other (created, modified, options)")
            parts[part] = parts.get(part, 0) + len(json.dumps({key: value}, separators=(",", ":")))
        entry = types.setdefault(r["type"], [0, 0])
        entry[0] += 1
        entry[1] += len(json.dumps(r, separators=(",", ":")))
    return {"resources": len(resources), "parts": parts, "types": types, "file": path.stat().st_size}


def print_state_breakdown(base: Path, services: int) -> None:
    """`--state-breakdown`: the last up's state of each side in `base` (a size's directory), per service."""
    sides = {}
    for side in ("aim", "bare"):
        files = [p for p in (base / f"up-{side}" / "state" / ".pulumi" / "stacks").rglob(f"{STACK}.json")]
        if not files:
            raise SystemExit(f"no state of {side} under {base}: run --up first")
        sides[side] = state_breakdown(files[0])
    aim, bare = sides["aim"], sides["bare"]
    print(
        f"\nState of the last up in {base}: {aim['resources']} / {bare['resources']} resources, file "
        f"{aim['file'] / services / 1024:.1f} / {bare['file'] / services / 1024:.1f} KiB per service "
        f"({aim['file'] / bare['file']:.2f}x); bytes per service of each part (compact JSON):\n"
    )
    print("| part | components | bare graph | difference |")
    print("|---|---:|---:|---:|")
    for part in sorted(set(aim["parts"]) | set(bare["parts"]), key=lambda p: -aim["parts"].get(p, 0)):
        a, b = aim["parts"].get(part, 0) / services, bare["parts"].get(part, 0) / services
        print(f"| {part} | {a:,.0f} B | {b:,.0f} B | {a - b:+,.0f} B |")
    print("\n| resource type | components: count, bytes each | bare graph: count, bytes each |")
    print("|---|---:|---:|")
    for kind in sorted(set(aim["types"]) | set(bare["types"]), key=lambda t: -aim["types"].get(t, [0, 0])[1]):
        a, b = aim["types"].get(kind, [0, 0]), bare["types"].get(kind, [0, 0])
        each = [f"{n:,}, {total / n:,.0f} B" if n else "-" for n, total in (a, b)]
        print(f"| `{kind}` | {each[0]} | {each[1]} |")


def profile_run(services: int, profiles: int, bare: bool, workdir: Path, tools: Path, limit: int) -> None:
    """cProfile of one preview's program process (main thread: program body and event loop)."""
    import pstats

    written = write_projects(workdir, services, profiles)
    side = "bare" if bare else "aim"
    stack = Stack(written["dir"] / side, written["dir"] / f"profile-{side}", tools)
    dump = written["dir"] / f"profile-{side}.pstats"
    print(json.dumps(stack.timed("preview", env={"AIM_BENCH_CPROFILE": str(dump)})))
    stats = pstats.Stats(str(dump))
    stats.sort_stats("cumulative").print_stats(limit)
    stats.sort_stats("tottime").print_stats(limit)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0] if __doc__ else None)
    parser.add_argument(
        "--services", default="100,300", help="comma-separated (default 100,300; 1000 is slow)"
    )
    parser.add_argument("--profiles", default="200,2000", help="cluster profiles, comma-separated (200,2000)")
    parser.add_argument("-r", "--repeats", type=int, default=3, help="interleaved repeats (default 3)")
    parser.add_argument("--sizes", default="", help="SERVICESxPROFILES pairs instead (100x200,300x2000)")
    parser.add_argument(
        "--tables", action="store_true", help="print the tables of the runs saved in WORKDIR/results.jsonl"
    )
    parser.add_argument(
        "--linear-wait",
        action="store_true",
        help="both sides: the SDK's end-of-program wait with one callback per pending Output (experiment)",
    )
    parser.add_argument(
        "--read-back-status",
        choices=("true", "false"),
        help="set the stack setting aim:readBackStatus (default: the package's, the reads on); "
        "`false` measures the components without the read of each route and ScaledObject after the apply",
    )
    parser.add_argument(
        "--catalog-as-data", action="store_true", help="also the program with its catalog as AIMStack data"
    )
    parser.add_argument(
        "--up", action="store_true", help="also `pulumi up` as often per side: CPU, wall, state size"
    )
    parser.add_argument(
        "--cluster",
        action="store_true",
        help="with --up: each `pulumi up` against a fresh test cluster (scripts/test-cluster.sh) instead of "
        "render mode",
    )
    parser.add_argument(
        "--state-breakdown",
        metavar="SERVICESxPROFILES",
        help="print where the bytes of the last up's state go, per part and type, from WORKDIR",
    )
    parser.add_argument("--profile-run", type=int, metavar="SERVICES", help="cProfile one preview instead")
    parser.add_argument("--bare", action="store_true", help="with --profile-run: profile the bare program")
    parser.add_argument("--limit", type=int, default=40, help="with --profile-run: rows per listing")
    parser.add_argument("--toolchain", default="", help="a built toolchain directory (default: --check's)")
    parser.add_argument("--workdir", default=str(Path(tempfile.gettempdir()) / "aim-bench-real-engine"))
    args = parser.parse_args(argv)
    if args.cluster and not args.up:
        parser.error("--cluster applies to --up")
    workdir = Path(args.workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    catalog = [int(n) for n in args.profiles.split(",")]
    global LINEAR_WAIT, READ_BACK_STATUS
    LINEAR_WAIT = args.linear_wait
    READ_BACK_STATUS = args.read_back_status
    saved = workdir / "results.jsonl"
    if args.state_breakdown:
        services, profiles = (int(n) for n in args.state_breakdown.split("x"))
        print_state_breakdown(workdir / f"{services}-{profiles}", services)
        return
    if args.tables:
        lines = saved.read_text(encoding="utf-8").splitlines()
        print_tables([json.loads(line) for line in lines], args.repeats)
        return
    if args.cluster and cluster_built() is None:
        raise SystemExit("the test cluster is not built: run `bash scripts/test-cluster.sh build` first")
    tools = Path(args.toolchain) if args.toolchain else toolchain()
    bench_plan.with_bytecode()
    if args.profile_run:
        profile_run(args.profile_run, catalog[0], args.bare, workdir, tools, args.limit)
        return
    sizes = [(int(n), p) for n in args.services.split(",") for p in catalog]
    if args.sizes:
        sizes = [(int(n), int(p)) for n, p in (size.split("x") for size in args.sizes.split(","))]
    results = []
    for services, profiles in sizes:
        results.append(
            measure(
                services, profiles, args.repeats, workdir, tools, args.up, args.catalog_as_data, args.cluster
            )
        )
        with saved.open("a", encoding="utf-8") as out:  # a long run's finished sizes survive it
            out.write(json.dumps(results[-1], default=str) + "\n")
    print_tables(results, args.repeats)


if __name__ == "__main__":
    main()
