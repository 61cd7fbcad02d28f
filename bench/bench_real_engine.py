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
its own state directory; min and median of the repeats. `--up` also runs `pulumi up` once per side
(render mode: the manifests are written to a directory) and reports its CPU, wall time and the
state file's size per service.

    python bench/bench_real_engine.py                       # 100, 300 services x 200, 2,000 profiles
    python bench/bench_real_engine.py --services 1000        # larger (slow)
    python bench/bench_real_engine.py --services 300 --profiles 2000 -r 3 --up
    python bench/bench_real_engine.py --sizes 300x2000,1000x200 --workdir W   # chosen sizes
    python bench/bench_real_engine.py --tables --workdir W   # the tables of every size saved in W
    python bench/bench_real_engine.py --sizes 100x2000 --linear-wait --workdir W2   # see PRELUDE
    python bench/bench_real_engine.py --profile-run 300 --profiles 2000   # cProfile of one aim preview
"""

from __future__ import annotations

import argparse
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
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))

import bench_plan  # noqa: E402

PASSPHRASE = "bench"
LINEAR_WAIT = False  # --linear-wait
STACK = "bench"

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
        (directory / f"Pulumi.{STACK}.yaml").write_text("config: {}\n", encoding="utf-8")
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
    """A fresh stack of one program: its own state directory, home and render directory."""

    def __init__(self, program: Path, workdir: Path, tools: Path) -> None:
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
        self.pulumi("stack", "init", STACK)
        self.pulumi("config", "set", "kubernetes:renderYamlToDirectory", str(workdir / "rendered"))

    def pulumi(self, *args: str, env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            ["pulumi", *args, "--non-interactive"],
            cwd=self.program,
            env={**self.env, **(env or {})},
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise SystemExit(
                f"pulumi {' '.join(args)} in {self.program} exited {done.returncode}\n"
                f"{done.stdout[-4000:]}\n{done.stderr[-3000:]}"
            )
        return done

    def timed(self, *args: str, env: Mapping[str, str] | None = None) -> dict[str, float]:
        """One CLI call: wall time, the program process's CPU and peak RSS, the CLI tree's CPU."""
        usage_file = self.workdir / "usage.json"
        usage_file.unlink(missing_ok=True)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        wall = time.perf_counter()
        done = self.pulumi(*args, env=env)
        wall = time.perf_counter() - wall
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        own = json.loads(usage_file.read_text(encoding="utf-8"))
        return {
            "wall": wall,
            "cpu": own["cpu"],
            "body": own["body"],
            "rss_mb": own["rss_mb"],
            "waits": own["waits"],
            "watched": own["watched"],
            "tree": (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime),
            "steps": _created(done.stdout),
        }

    def state_bytes(self) -> int:
        """Size of the stack's checkpoint file as the file backend writes it."""
        files = [p for p in (self.workdir / "state" / ".pulumi" / "stacks").rglob(f"{STACK}.json*")]
        files = [p for p in files if not p.name.endswith(".bak")]
        return sum(p.stat().st_size for p in files)


# ------------------------------------------------------------------------------ measuring


def _created(output: str) -> float:
    """The "+ N to create" (preview) or "+ N created" (up) of the CLI's summary."""
    found = re.search(r"\+ (\d+) (?:to create|created)", output)
    return float(found.group(1)) if found else -1.0


def _stats(values: Sequence[float]) -> tuple[float, float]:
    return min(values), statistics.median(values)


def measure(
    services: int, profiles: int, repeats: int, workdir: Path, tools: Path, up: bool, data: bool = False
) -> dict[str, Any]:
    """Interleaved previews of every side; `data`: also the catalog as data and its own bare graph."""
    written = write_projects(workdir, services, profiles, data)
    base: Path = written["dir"]
    sides = ("aim", "bare", "data", "data-bare") if data else ("aim", "bare")
    runs: dict[str, list[dict[str, float]]] = {side: [] for side in sides}
    for repeat in range(repeats):
        for side in sides[repeat % len(sides) :] + sides[: repeat % len(sides)]:
            stack = Stack(base / side, base / f"run-{side}", tools)
            runs[side].append(stack.timed("preview"))
            twin = {"aim": "bare", "bare": "aim", "data": "data-bare", "data-bare": "data"}[side]
            expected = (runs[twin] or runs[side])[0]["steps"]
            if runs[side][-1]["steps"] != expected or runs[side][-1]["steps"] < 0:
                raise SystemExit(
                    f"{side} previewed {runs[side][-1]['steps']:.0f} creates, {twin} {expected:.0f}"
                )
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
        result[side] = {key: _stats([r[key] for r in runs[side]]) for key in ("cpu", "body", "wall", "tree")}
        result[side]["rss_mb"] = max(r["rss_mb"] for r in runs[side])
        result[side]["end_wait"] = statistics.median(r["waits"] for r in runs[side])
        result[side]["end_watched"] = statistics.median(r["watched"] for r in runs[side])
    if up:
        for side in sides:
            stack = Stack(base / side, base / f"up-{side}", tools)
            result[side]["up"] = stack.timed("up", "--yes", "--skip-preview")
            result[side]["state_bytes"] = stack.state_bytes()
    return result


def _pair(aim: tuple[float, float], bare: tuple[float, float], unit: str = "s") -> str:
    ratio = f"{aim[0] / bare[0]:.2f}x / {aim[1] / bare[1]:.2f}x"
    return f"{aim[0]:.2f} / {aim[1]:.2f} {unit} | {bare[0]:.2f} / {bare[1]:.2f} {unit} | {ratio}"


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
            f"| {_pair(a['wall'], b['wall'])} | {a['rss_mb']:.0f} / {b['rss_mb']:.0f} MB "
            f"({a['rss_mb'] / b['rss_mb']:.2f}x) |"
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
        print("\n`pulumi up --skip-preview`, render mode, one run per side:\n")
        print(
            "| services | profiles | catalog | program CPU AIM / bare | ratio | wall AIM / bare | ratio "
            "| state per service AIM / bare |"
        )
        print("|---:|---:|---|---:|---:|---:|---:|---:|")
        for r in ups:
            pairs = [("components", r["aim"], r["bare"])]
            if "up" in (r.get("data") or {}):
                pairs.append(("as data", r["data"], r["data-bare"]))
            for catalog, a, b in pairs:
                print(
                    f"| {r['services']:,} | {r['profiles']:,} | {catalog} "
                    f"| {a['up']['cpu']:.2f} / {b['up']['cpu']:.2f} s "
                    f"| {a['up']['cpu'] / b['up']['cpu']:.2f}x "
                    f"| {a['up']['wall']:.1f} / {b['up']['wall']:.1f} s "
                    f"| {a['up']['wall'] / b['up']['wall']:.2f}x "
                    f"| {a['state_bytes'] / r['services'] / 1024:.1f} / "
                    f"{b['state_bytes'] / r['services'] / 1024:.1f} KiB |"
                )


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
        "--catalog-as-data", action="store_true", help="also the program with its catalog as AIMStack data"
    )
    parser.add_argument("--up", action="store_true", help="also `pulumi up` once per side: CPU, state size")
    parser.add_argument("--profile-run", type=int, metavar="SERVICES", help="cProfile one preview instead")
    parser.add_argument("--bare", action="store_true", help="with --profile-run: profile the bare program")
    parser.add_argument("--limit", type=int, default=40, help="with --profile-run: rows per listing")
    parser.add_argument("--toolchain", default="", help="a built toolchain directory (default: --check's)")
    parser.add_argument("--workdir", default=str(Path(tempfile.gettempdir()) / "aim-bench-real-engine"))
    args = parser.parse_args(argv)
    workdir = Path(args.workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    catalog = [int(n) for n in args.profiles.split(",")]
    global LINEAR_WAIT
    LINEAR_WAIT = args.linear_wait
    saved = workdir / "results.jsonl"
    if args.tables:
        lines = saved.read_text(encoding="utf-8").splitlines()
        print_tables([json.loads(line) for line in lines], args.repeats)
        return
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
            measure(services, profiles, args.repeats, workdir, tools, args.up, args.catalog_as_data)
        )
        with saved.open("a", encoding="utf-8") as out:  # a long run's finished sizes survive it
            out.write(json.dumps(results[-1], default=str) + "\n")
    print_tables(results, args.repeats)


if __name__ == "__main__":
    main()
