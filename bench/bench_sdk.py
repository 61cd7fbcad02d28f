"""Plan cost of the AIM components against their bare graph under the Pulumi SDK's own runtime.

`bench_plan.py` measures under the project's offline engine, which changes what the SDK does
(the collector held off, no source positions, output types computed once). `pulumi preview` and
`pulumi up` run the SDK as it is. This benchmark runs both sides the way the Python language host
does (`pulumi.runtime.run_in_stack` around the program body), against the SDK's own mock monitor
(`pulumi.runtime.set_mocks` with a minimal `Mocks` that echoes the inputs, as a preview does), so
everything the SDK does per registration is paid: the stack trace of every registration, the
serialisation of every input, the Output plumbing.

The bare side declares the graph the components registered (recorded once per scenario with the
offline engine, `bench_plan.recorded_graph`) with plain resources (`bench_plan.bare_program`), so
both sides register the same resources with the same inputs; each run checks that the number of
registrations is the same. The SDK keeps global state (settings, the root stack, the event loop),
so every run is a fresh subprocess; the sides alternate which goes first in each repeat.

CPU is `time.process_time` of the child from before the program body to the end of the run (the
mock monitor runs in-process, in the SDK's executor thread, and is counted: the same work on both
sides). The recording of the bare graph and the imports both sides share are outside it (the
package's own lazy imports are inside). Before anything runs, the packages are compiled to
bytecode, as `pip install` leaves them (`bench_plan.with_bytecode`).

    python bench/bench_sdk.py                          # 100/300/1,000 services x 200/2,000 profiles
    python bench/bench_sdk.py --services 300 --profiles 200,2000 -r 3
    python bench/bench_sdk.py --against /tmp/before   # also the components of another copy of
                                                      # aim_pulumi (/tmp/before/aim_pulumi), interleaved
    python bench/bench_sdk.py --bare-collecting-less  # also the bare graph with the collector's
                                                      # thresholds raised as the components raise them
    python bench/bench_sdk.py --profile 300 --profiles 2000   # cProfile of one component run
    python bench/bench_sdk.py --profile 300 --profiles 2000 --bare   # ... of its bare graph
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_plan

# ------------------------------------------------------------------------------ one run (child)


def _run_under_sdk(program: Callable[[], None]) -> dict[str, Any]:
    """Run `program` as the language host does, against the SDK's mock monitor; CPU and counts."""
    import pulumi
    from pulumi.runtime import MockResourceArgs, Mocks, set_mocks
    from pulumi.runtime import settings as pulumi_settings
    from pulumi.runtime.mocks import MockMonitor
    from pulumi.runtime.stack import run_in_stack
    from pulumi.runtime.sync_await import _sync_await

    from aim_pulumi.resources.binding import BindingProvider

    class Echo(Mocks):
        """What a preview returns for a resource: its inputs as its outputs.

        A dynamic resource (the sticky binding) gets what the engine would have its provider's
        `check` return in a preview: the state a service's children are planned from.
        """

        def new_resource(self, args: MockResourceArgs) -> tuple[str | None, dict[Any, Any]]:
            if args.typ.startswith("pulumi-python:dynamic"):
                return f"{args.name}-id", BindingProvider().check({}, args.inputs).inputs
            return f"{args.name}-id", args.inputs

        def call(self, args: Any) -> tuple[dict[Any, Any], list[tuple[str, str]] | None]:
            return {}, None

    class Counting(MockMonitor):  # type: ignore[misc]
        """The SDK's mock monitor, counting the registrations (stack excluded) it answers."""

        registered = 0

        def RegisterResource(self, request: Any) -> Any:
            if request.type != "pulumi:pulumi:Stack":
                Counting.registered += 1
            return super().RegisterResource(request)

    _import_what_both_sides_use()
    set_mocks(Echo(), project="bench", stack="bench", preview=True, monitor=Counting(Echo()))
    # set_mocks creates and finishes a root stack for unit tests; the language host instead runs
    # the program body inside a fresh one (`run_in_stack`), which is what users get.
    pulumi_settings.ROOT.set(None)
    gc.collect()
    wall = time.perf_counter()
    start = time.process_time()
    _sync_await(run_in_stack(program))
    cpu = time.process_time() - start
    wall = time.perf_counter() - wall
    own = resource.getrusage(resource.RUSAGE_SELF)
    del pulumi
    return {"cpu": cpu, "wall": wall, "registered": Counting.registered, "rss_mb": own.ru_maxrss / 1024}


def _import_what_both_sides_use() -> None:
    """pulumi-kubernetes loads each API group's module on first use (about a second for core/v1);
    both sides declare the same kinds, so neither run should pay that import inside its timing."""
    import pulumi_kubernetes as k8s

    for kind in (
        k8s.core.v1.ConfigMap,
        k8s.core.v1.Secret,
        k8s.core.v1.PersistentVolumeClaim,
        k8s.batch.v1.Job,
        k8s.apiextensions.CustomResource,
    ):
        assert kind is not None


def child(mode: str, services: int, profiles: int, graph_file: str) -> None:
    """`record`/`aim` run the components; `-data` after either: their catalog as `catalogAs: data`.

    `bare-collecting-less`: the bare graph with the collector's thresholds raised as the components
    raise them (`aim_pulumi.resources.collector`) from its first declaration to the end of the run.
    """
    if mode == "bare-collecting-less":
        from aim_pulumi.resources.collector import collect_less

        graph = json.loads(Path(graph_file).read_text(encoding="utf-8"))

        def tuned() -> None:
            collect_less()  # put back only when the process ends, after the run
            bench_plan.bare_program(graph)

        print(json.dumps(_run_under_sdk(tuned)))
        return
    mode, _, data = mode.partition("-")
    catalog_as = "data" if data else "components"
    if mode == "record":
        from aim_pulumi.offline.engine import run_program

        recording = run_program(
            lambda: bench_plan.aim_program(services, cluster_profiles=profiles, catalog_as=catalog_as),
            project="bench",
            stack="bench",
        )
        Path(graph_file).write_text(json.dumps(bench_plan.recorded_graph(recording)), encoding="utf-8")
        print(json.dumps({"registered": len(recording.resources)}))
        return
    if mode == "aim":
        result = _run_under_sdk(
            lambda: bench_plan.aim_program(services, cluster_profiles=profiles, catalog_as=catalog_as)
        )
    else:
        graph = json.loads(Path(graph_file).read_text(encoding="utf-8"))
        result = _run_under_sdk(lambda: bench_plan.bare_program(graph))
    print(json.dumps(result))


def _spawn(
    mode: str, services: int, profiles: int, graph_file: Path, package_root: str = ""
) -> dict[str, Any]:
    """One run in a fresh process; `package_root`: import aim_pulumi from that copy instead."""
    env = dict(os.environ)
    if package_root:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH", "")]))
    done = subprocess.run(
        [sys.executable, __file__, "--child", mode, str(services), str(profiles), str(graph_file)],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    if done.returncode != 0:
        raise SystemExit(
            f"{mode} run of {services} services / {profiles} profiles failed:\n{done.stderr[-3000:]}"
        )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


# ------------------------------------------------------------------------------ measuring


def _stats(values: Sequence[float]) -> tuple[float, float]:
    return min(values), statistics.median(values)


def measure(
    services: int,
    profiles: int,
    repeats: int,
    workdir: Path,
    against: str = "",
    data: bool = False,
    collecting_less: bool = False,
) -> dict[str, Any]:
    """Interleaved repeats (rotating which side goes first), each run its own process.

    `against`: a directory holding another copy of the `aim_pulumi` package (a checkout before a
    change); its components run as a third side, so a change is measured against the same floor.
    `data`: two more sides, the same program with its catalog as data of one `AIMStack`
    (`catalogAs: data`) and that program's own graph declared bare. `collecting_less`: one more, the
    bare graph with the collector's thresholds raised as the components raise them.
    """
    graph_file = workdir / f"graph-{services}-{profiles}.json"
    data_graph_file = workdir / f"graph-{services}-{profiles}-data.json"
    recorded = {"": _spawn("record", services, profiles, graph_file)["registered"]}
    if data:
        recorded["data"] = _spawn("record-data", services, profiles, data_graph_file)["registered"]
    sides = [
        "aim",
        "bare",
        *(["before"] if against else []),
        *(["data", "data-bare"] if data else []),
        *(["bare-collecting-less"] if collecting_less else []),
    ]
    runs: dict[str, list[dict[str, Any]]] = {side: [] for side in sides}
    for repeat in range(repeats):
        for side in sides[repeat % len(sides) :] + sides[: repeat % len(sides)]:
            mode, root, graph = {
                "before": ("aim", against, graph_file),
                "data": ("aim-data", "", data_graph_file),
                "data-bare": ("bare", "", data_graph_file),
            }.get(side, (side, "", graph_file))
            run = _spawn(mode, services, profiles, graph, root)
            expected = recorded["data" if side.startswith("data") else ""]
            if run["registered"] != expected:
                raise SystemExit(
                    f"{side} registered {run['registered']} resources, the recorded graph has {expected}"
                )
            runs[side].append(run)
    return {
        "services": services,
        "profiles": profiles,
        "resources": recorded[""],
        "data_resources": recorded.get("data"),
        **{
            key: _stats([r["cpu"] for r in runs[side]]) if side in runs else None
            for key, side in (
                ("aim", "aim"),
                ("bare", "bare"),
                ("before", "before"),
                ("data", "data"),
                ("data_bare", "data-bare"),
                ("bare_collecting_less", "bare-collecting-less"),
            )
        },
        "aim_rss": max(r["rss_mb"] for r in runs["aim"]),
        "bare_rss": max(r["rss_mb"] for r in runs["bare"]),
        "data_rss": max(r["rss_mb"] for r in runs["data"]) if data else None,
    }


def _against(side: tuple[float, float], floor: tuple[float, float]) -> str:
    """`side | floor | ratio` cells: min / median of each, and of their ratio."""
    (smin, smed), (fmin, fmed) = side, floor
    ratio = f"{smin / fmin:.2f}x / {smed / fmed:.2f}x"
    return f"{smin:.2f} s / {smed:.2f} s | {fmin:.2f} s / {fmed:.2f} s | {ratio}"


def print_table(results: Sequence[dict[str, Any]]) -> None:
    print(
        "| services | cluster profiles | resources | components CPU min / median | "
        "bare graph CPU min / median | ratio min / median | overhead (min) |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for r in results:
        print(
            f"| {r['services']:,} | {r['profiles']:,} | {r['resources']:,} | {_against(r['aim'], r['bare'])} "
            f"| {r['aim'][0] - r['bare'][0]:+.2f} s |",
            flush=True,
        )
    if any(r["before"] for r in results):
        print(
            "\n| services | cluster profiles | before the change: CPU min / median | ratio to bare | "
            "after: CPU min / median | ratio to bare | change (min) |"
        )
        print("|---:|---:|---:|---:|---:|---:|---:|")
        for r in results:
            (amin, amed), (bmin, _), (pmin, pmed) = r["aim"], r["bare"], r["before"]
            print(
                f"| {r['services']:,} | {r['profiles']:,} | {pmin:.2f} s / {pmed:.2f} s | {pmin / bmin:.2f}x "
                f"| {amin:.2f} s / {amed:.2f} s | {amin / bmin:.2f}x | {amin / pmin - 1:+.0%} |"
            )
    if any(r["data"] for r in results):
        print(
            "\n`catalogAs: data` (the catalog as data of one AIMStack): CPU min / median, against its own "
            "graph declared bare and against the bare graph of one resource per catalog object\n"
        )
        print(
            "| services | cluster profiles | resources | catalog as data | its bare graph | ratio | "
            "ratio to the components' bare graph | peak RSS (components / data) |"
        )
        print("|---:|---:|---:|---:|---:|---:|---:|---:|")
        for r in results:
            (dmin, dmed), (bmin, bmed) = r["data"], r["bare"]
            print(
                f"| {r['services']:,} | {r['profiles']:,} | {r['data_resources']:,} "
                f"| {_against(r['data'], r['data_bare'])} "
                f"| {dmin / bmin:.2f}x / {dmed / bmed:.2f}x | {r['aim_rss']:.0f} / {r['data_rss']:.0f} MB |"
            )
    if any(r["bare_collecting_less"] for r in results):
        print(
            "\nAgainst the bare graph collecting as little as the components (the collector's thresholds "
            "raised for its whole run): CPU min / median\n"
        )
        print("| services | cluster profiles | components | bare graph collecting less | ratio |")
        print("|---:|---:|---:|---:|---:|")
        for r in results:
            cells = _against(r["aim"], r["bare_collecting_less"])
            print(f"| {r['services']:,} | {r['profiles']:,} | {cells} |")
    by_key = {(r["services"], r["profiles"]): r for r in results}
    for services in sorted({r["services"] for r in results}):
        small, large = by_key.get((services, 200)), by_key.get((services, 2000))
        if small and large:
            aim_growth = large["aim"][0] / small["aim"][0]
            bare_growth = large["bare"][0] / small["bare"][0]
            print(
                f"\n{services} services, catalog 200 -> 2,000 profiles (min): components grow "
                f"{aim_growth:.2f}x, bare graph {bare_growth:.2f}x "
                f"({aim_growth / bare_growth:.2f}x the floor's growth); "
                f"overhead {small['aim'][0] - small['bare'][0]:+.2f} s -> "
                f"{large['aim'][0] - large['bare'][0]:+.2f} s"
            )
            if small["data"] and large["data"]:
                data_growth = large["data"][0] / small["data"][0]
                print(
                    f"{services} services, catalog as data, 200 -> 2,000 profiles (min): grows "
                    f"{data_growth:.2f}x ({data_growth / bare_growth:.2f}x the components' floor's growth, "
                    f"{data_growth / (large['data_bare'][0] / small['data_bare'][0]):.2f}x its own floor's)"
                )


def profile_once(
    services: int, profiles: int, bare: bool, workdir: Path, limit: int, dump: str = "", data: bool = False
) -> None:
    """cProfile of one run under the SDK's runtime (in this process, which does nothing else)."""
    catalog_as = "data" if data else "components"
    import cProfile
    import pstats

    program: Callable[[], None]
    if bare:
        graph_file = workdir / f"graph-{services}-{profiles}{'-data' if data else ''}.json"
        _spawn("record-data" if data else "record", services, profiles, graph_file)
        graph = json.loads(graph_file.read_text(encoding="utf-8"))
        program = lambda: bench_plan.bare_program(graph)  # noqa: E731
    else:
        program = lambda: bench_plan.aim_program(  # noqa: E731
            services, cluster_profiles=profiles, catalog_as=catalog_as
        )
    profiler = cProfile.Profile()

    def profiled() -> None:
        profiler.enable()
        try:
            program()
        finally:
            profiler.disable()

    # The program body is profiled, and so is what runs after it on the loop (the resolution
    # round and the registrations it makes): the profiler stays on until the run ends.
    import pulumi.runtime.stack as pulumi_stack

    original = pulumi_stack.Stack._finish

    def finish(self: Any) -> None:
        profiler.enable()
        original(self)

    pulumi_stack.Stack._finish = finish  # type: ignore[method-assign]
    result = _run_under_sdk(profiled)
    profiler.disable()
    print(json.dumps(result))
    stats = pstats.Stats(profiler)
    if dump:
        stats.dump_stats(dump)
    stats.sort_stats("cumulative").print_stats(limit)
    stats.sort_stats("tottime").print_stats(limit)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0] if __doc__ else None)
    parser.add_argument("--services", default="100,300,1000", help="comma-separated (default 100,300,1000)")
    parser.add_argument("--profiles", default="200,2000", help="cluster profiles, comma-separated (200,2000)")
    parser.add_argument("-r", "--repeats", type=int, default=3, help="interleaved repeats (default 3)")
    parser.add_argument("--profile", type=int, metavar="SERVICES", help="cProfile one run instead")
    parser.add_argument("--bare", action="store_true", help="with --profile: profile the bare graph")
    parser.add_argument("--limit", type=int, default=40, help="with --profile: rows per listing")
    parser.add_argument("--dump", default="", help="with --profile: also write the pstats file here")
    parser.add_argument("--against", default="", help="a directory with another copy of aim_pulumi")
    parser.add_argument(
        "--catalog-as-data", action="store_true", help="also the program with its catalog as AIMStack data"
    )
    parser.add_argument(
        "--bare-collecting-less",
        action="store_true",
        help="also the bare graph with the collector's thresholds raised as the components raise them",
    )
    parser.add_argument("--workdir", default=str(Path(tempfile.gettempdir()) / "aim-bench-sdk"))
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        mode, services, profiles, graph_file = args.child
        child(mode, int(services), int(profiles), graph_file)
        return
    workdir = Path(args.workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    catalog = [int(n) for n in args.profiles.split(",")]
    bench_plan.with_bytecode(*([args.against] if args.against else []))
    if args.profile:
        profile_once(
            args.profile, catalog[0], args.bare, workdir, args.limit, args.dump, args.catalog_as_data
        )
        return
    results = []
    for services in (int(n) for n in args.services.split(",")):
        for profiles in catalog:
            results.append(
                measure(
                    services,
                    profiles,
                    args.repeats,
                    workdir,
                    args.against,
                    args.catalog_as_data,
                    args.bare_collecting_less,
                )
            )
            r = results[-1]
            print(
                f"# {services} services / {profiles} profiles: components {r['aim'][0]:.2f} s, "
                f"bare {r['bare'][0]:.2f} s (min)",
                file=sys.stderr,
                flush=True,
            )
    print(
        f"\nCPU seconds, min / median of {args.repeats} interleaved repeats, each run a fresh process "
        f"({os.cpu_count()} CPUs):\n"
    )
    print_table(results)


if __name__ == "__main__":
    main()
