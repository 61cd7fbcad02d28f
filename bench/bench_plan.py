"""Plan cost of the AIM components against the very same resource graph declared bare.

The bare graph is what the components registered, replayed with plain resources: a
`ComponentResource` shell of the same type for every component (registering the same outputs),
each Binding as a plain custom resource with the same inputs, each Kubernetes child through the
same pulumi-kubernetes class with the same inputs, every one with the same parent and
dependencies. It is recorded from the components' own run, so it follows them automatically,
and both run under the same recording engine `aim-pulumi plan` uses. The ratio is therefore what
resolving, planning and the components' own Output plumbing cost on top of the registrations
Pulumi's SDK makes anyway.

Scenarios (CPU seconds, `time.process_time`, min and median of interleaved repeats):

    small-200     200 services, 40 namespaced + 200 cluster profiles
    small-2000    2,000 services on the same catalog
    large-200     200 services, 40 namespaced + 2,000 cluster profiles (catalog 10x larger)
    e2e           `aim-pulumi plan` of a YAML directory, 1,000 services over 10,000 profiles
                  (wall, CPU, peak RSS of the whole command) against its bare graph, each in a
                  fresh process under the same offline engine

    python bench/bench_plan.py                          # small-200 and large-200, 3 repeats
    python bench/bench_plan.py -s small-2000 -r 3
    python bench/bench_plan.py -s e2e -r 3
    python bench/bench_plan.py --scale 100,300,1000,3000   # the table of docs/plan-time.md
    python bench/bench_plan.py --profile -s small-200      # cProfile of one component run
"""

from __future__ import annotations

import argparse
import compileall
import gc
import json
import os
import resource
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pulumi
import yaml
from pulumi.runtime import rpc

import aim_pulumi
from aim_pulumi import AIMClusterProfile, AIMProfile, AIMRuntimeConfig, AIMService, AIMStack
from aim_pulumi.offline.engine import run_program
from aim_pulumi.offline.recording import PlanRecording
from aim_pulumi.resources.children import register_child

NAMESPACES = ("team-a", "team-b", "team-c", "team-d")
MODELS = ("qwen", "llama", "mistral", "gemma", "phi")
G = "aim.eai.amd.com"


# ------------------------------------------------------------------------------ measuring as users run


def with_bytecode(*more: str) -> None:
    """Compile the interpreter's packages and this checkout's package to bytecode, as `pip install`
    does, before anything is measured (`more`: other copies of the package a bench imports).

    Where `PYTHONDONTWRITEBYTECODE` is set (as on some CI machines) and the packages were installed
    without compiling (uv's default), every run compiles every module it imports from source: more
    than 2 s of CPU per run, on both sides, which no user installing with pip pays.
    """
    for directory in {sysconfig.get_paths()["purelib"], str(Path(aim_pulumi.__file__).parent), *more}:
        compileall.compile_dir(directory, quiet=1, workers=0)


# ------------------------------------------------------------------------------ the AIM program


def _source(model: str) -> dict[str, str]:
    return {"modelId": f"example/{model}", "sourceUri": f"hf://example/{model}", "size": "16Gi"}


def _runtime_config(namespace: str) -> dict[str, Any]:
    return {
        "routing": {
            "enabled": True,
            "gatewayRef": {"name": "inference-gateway", "namespace": "gateways"},
            "pathTemplate": "/{.metadata.namespace}/{.metadata.name}",
        },
        "labelPropagation": {"enabled": True, "match": ["org.example/*"]},
    }


def _namespaced_profile(namespace: str, model: str, precision: str, primary: bool) -> dict[str, Any]:
    return {
        "name": f"{model}-{precision}-mi300x",
        "namespace": namespace,
        "labels": {f"{G}/source-model": model},
        "spec": {
            "aimId": f"example/{model}",
            "image": f"amdenterpriseai/aim-{model}:0.8.5",
            "type": "optimized",
            "primary": primary,
            "precision": precision,
            "acceleratorType": "gpu",
            "acceleratorVendor": "amd",
            "acceleratorModel": "MI300X",
            "acceleratorCount": 1,
            "caching": {"enabled": True},
            "modelSources": [_source(model)],
        },
    }


def _cluster_profile(index: int) -> dict[str, Any]:
    """One in ten is another runtime of a model the services use (a candidate that loses)."""
    model = MODELS[index % len(MODELS)] if index % 10 == 0 else f"other-{index % 97}"
    return {
        "name": f"{model}-c{index}",
        "labels": {f"{G}/source-model": model},
        "spec": {
            "aimId": f"example/{model}",
            "image": f"amdenterpriseai/aim-{model}:0.{index % 9}.{index % 7}",
            "type": ("optimized", "general", "preview")[index % 3],
            "precision": ("fp8", "fp16", "bf16")[index % 3],
            "acceleratorType": "gpu",
            "acceleratorVendor": "amd",
            "acceleratorModel": ("MI300X", "MI325X", "MI355X")[index % 3],
            "acceleratorCount": 1 + index % 4,
        },
    }


def _service(index: int) -> tuple[str, dict[str, Any]]:
    namespace = NAMESPACES[index % len(NAMESPACES)]
    return namespace, {
        "namespace": namespace,
        "labels": {"org.example/team": namespace},
        "annotations": {f"{G}/reconciler-pipeline": "profile"},
        "spec": {"model": {"name": MODELS[index % len(MODELS)]}},
    }


def catalog_manifests(cluster_profiles: int) -> list[dict[str, Any]]:
    """The catalog `aim_program` declares, as the AIM manifests of the same objects."""
    from aim_pulumi import api
    from aim_pulumi.resources.catalog_component import object_manifest

    out = []
    for namespace in NAMESPACES:
        out.append(
            object_manifest(
                api.AIMRuntimeConfig,
                f"{namespace}-default",
                {"name": "default", "namespace": namespace, "spec": _runtime_config(namespace)},
            )
        )
        for model in MODELS:
            for precision, primary in (("fp8", True), ("fp16", False)):
                args = _namespaced_profile(namespace, model, precision, primary)
                out.append(object_manifest(api.AIMProfile, args["name"], args))
    for index in range(cluster_profiles):
        args = _cluster_profile(index)
        out.append(object_manifest(api.AIMClusterProfile, args["name"], args))
    return out


def catalog_file(cluster_profiles: int) -> Path:
    """`catalog_manifests` written once per size (a multi-document YAML file in the temp dir)."""
    path = Path(tempfile.gettempdir()) / "aim-bench-catalog" / f"catalog-{cluster_profiles}.yaml"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(yaml.safe_dump_all(catalog_manifests(cluster_profiles), sort_keys=False))
        partial.replace(path)
    return path


def aim_services(services: int) -> None:
    for index in range(services):
        _, args = _service(index)
        AIMService(f"svc-{index}", args)  # type: ignore[arg-type]


def aim_catalog_as_data(path: str) -> None:
    """The catalog from AIM YAML, as data of one `AIMStack` (its graph option for a large catalog)."""
    AIMStack("catalog", {"path": path, "catalogAs": "data"})


def aim_program(services: int, *, cluster_profiles: int = 200, catalog_as: str = "components") -> None:
    """`catalog_as="data"`: the same catalog (`catalog_manifests`) as `aim_catalog_as_data` declares it."""
    if catalog_as == "data":
        aim_catalog_as_data(str(catalog_file(cluster_profiles)))
        aim_services(services)
        return
    for namespace in NAMESPACES:
        AIMRuntimeConfig(
            f"{namespace}-default",
            {"name": "default", "namespace": namespace, "spec": _runtime_config(namespace)},
        )
        for model in MODELS:
            for precision, primary in (("fp8", True), ("fp16", False)):
                AIMProfile(
                    f"{namespace}-{model}-{precision}",
                    _namespaced_profile(namespace, model, precision, primary),  # type: ignore[arg-type]
                )
    for index in range(cluster_profiles):
        args = _cluster_profile(index)
        AIMClusterProfile(args["name"], args)  # type: ignore[arg-type]
    aim_services(services)


# ------------------------------------------------------------------------------ the bare graph

Graph = list[dict[str, Any]]


def recorded_graph(recording: PlanRecording) -> Graph:
    """What the components registered, as plain data (JSON-able) in registration order."""
    return [
        {
            "type": r.type,
            "name": r.name,
            "urn": r.urn,
            "parent": r.parent,
            "custom": r.custom,
            "inputs": r.inputs,
            "outputs": recording.outputs.get(r.urn),
            "dependencies": list(r.dependencies),
            "retain_on_delete": r.retain_on_delete,
            "protect": r.protect,
            "delete_before_replace": r.delete_before_replace,
            "ignore_changes": list(r.ignore_changes),
            "replace_on_changes": list(r.replace_on_changes),
        }
        for r in recording.resources
    ]


def _secrets_back(value: Any) -> Any:
    """Recorded secrets are wire-format wrappers; the bare program declares them as secrets again."""
    if rpc.is_rpc_secret(value):
        return pulumi.Output.secret(_secrets_back(value["value"]))
    if isinstance(value, dict):
        return {k: _secrets_back(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_secrets_back(v) for v in value]
    return value


def bare_program(graph: Graph) -> None:
    """Declare `graph` with plain resources: no AIM logic, no Outputs but the SDK's own."""
    declared: dict[str, pulumi.Resource] = {}
    for node in graph:
        opts = pulumi.ResourceOptions(
            parent=declared.get(node["parent"]),
            depends_on=[declared[urn] for urn in node["dependencies"] if urn in declared] or None,
            retain_on_delete=node["retain_on_delete"] or None,
            protect=node["protect"] or None,
            delete_before_replace=node["delete_before_replace"] or None,
            ignore_changes=node["ignore_changes"] or None,
            replace_on_changes=node["replace_on_changes"] or None,
        )
        inputs = _secrets_back(node["inputs"])
        created: pulumi.Resource
        if not node["custom"]:
            shell = pulumi.ComponentResource(node["type"], node["name"], None, opts)
            shell.register_outputs(_secrets_back(node["outputs"] or {}))
            created = shell
        elif node["type"].startswith("kubernetes:"):
            created = register_child(node["name"], inputs, opts)
        else:
            created = pulumi.CustomResource(node["type"], node["name"], inputs, opts)
        declared[node["urn"]] = created


def graph_shape(recording: PlanRecording) -> list[tuple[Any, ...]]:
    """What must be equal between the components' run and its bare replay (in any order)."""
    return sorted(
        (r.type, r.name, r.parent, json.dumps(r.inputs, sort_keys=True), tuple(sorted(r.dependencies)))
        for r in recording.resources
    )


# ------------------------------------------------------------------------------ measuring


def cpu_run(program: Callable[[], None]) -> tuple[float, PlanRecording]:
    gc.collect()
    start = time.process_time()
    recording = run_program(program, project="bench", stack="bench")
    return time.process_time() - start, recording


def _stats(values: Sequence[float]) -> tuple[float, float]:
    return min(values), statistics.median(values)


def in_process(services: int, cluster_profiles: int, repeats: int) -> dict[str, Any]:
    """Interleaved repeats of the components and their bare graph (alternating which goes first)."""
    aim_times: list[float] = []
    bare_times: list[float] = []
    graph: Graph | None = None
    resources = 0
    for repeat in range(repeats):
        order = ("aim", "bare") if repeat % 2 == 0 else ("bare", "aim")
        if graph is None:
            order = ("aim", "bare")
        for side in order:
            if side == "aim":
                seconds, recording = cpu_run(lambda: aim_program(services, cluster_profiles=cluster_profiles))
                aim_times.append(seconds)
                if graph is None:
                    graph, resources, reference = (
                        recorded_graph(recording),
                        len(recording.resources),
                        recording,
                    )
            else:
                assert graph is not None
                seconds, bare = cpu_run(lambda replay=graph: bare_program(replay))  # type: ignore[misc]
                bare_times.append(seconds)
                if len(bare_times) == 1 and graph_shape(bare) != graph_shape(reference):
                    raise SystemExit("the bare replay does not declare the components' graph")
    return {
        "services": services,
        "cluster_profiles": cluster_profiles,
        "resources": resources,
        "aim": _stats(aim_times),
        "bare": _stats(bare_times),
    }


def _print_in_process(name: str, result: dict[str, Any]) -> None:
    (amin, amed), (bmin, bmed) = result["aim"], result["bare"]
    print(
        f"{name}: {result['services']} services, {result['cluster_profiles']} cluster profiles, "
        f"{result['resources']} resources\n"
        f"  components  CPU min {amin:6.2f} s  median {amed:6.2f} s\n"
        f"  bare graph  CPU min {bmin:6.2f} s  median {bmed:6.2f} s\n"
        f"  ratio           min {amin / bmin:6.2f}x   median {amed / bmed:6.2f}x",
        flush=True,
    )


# ------------------------------------------------------------------------------ end to end

E2E_MODELS = 100
E2E_NAMESPACES = tuple(f"team-{i}" for i in range(5))


def write_e2e_directory(directory: Path, services: int, profiles: int) -> None:
    """AIM YAML: a runtime config per namespace, `profiles` profiles, `services` services."""
    directory.mkdir(parents=True, exist_ok=True)
    documents: list[dict[str, Any]] = []
    for namespace in E2E_NAMESPACES:
        documents.append(
            {
                "apiVersion": f"{G}/v1alpha1",
                "kind": "AIMRuntimeConfig",
                "metadata": {"name": "default", "namespace": namespace},
                "spec": _runtime_config(namespace),
            }
        )
    # Two namespaced runtimes of every model in every namespace: what the services bind.
    namespaced = 0
    for namespace in E2E_NAMESPACES:
        for m in range(E2E_MODELS):
            model = f"model-{m}"
            for precision, primary in (("fp8", True), ("fp16", False)):
                args = _namespaced_profile(namespace, model, precision, primary)
                if m % 2:
                    del args["spec"]["caching"], args["spec"]["modelSources"]
                documents.append(_profile_document("AIMProfile", args))
                namespaced += 1
    for index in range(profiles - namespaced):
        args = _cluster_profile(index)
        model = f"model-{index % E2E_MODELS}" if index % 10 == 0 else f"other-{index % 97}"
        args["name"] = f"{model}-c{index}"
        args["labels"] = {f"{G}/source-model": model}
        args["spec"]["aimId"] = f"example/{model}"
        documents.append(_profile_document("AIMClusterProfile", args))
    for index in range(services):
        namespace = E2E_NAMESPACES[index % len(E2E_NAMESPACES)]
        model = f"model-{index % E2E_MODELS}"
        spec: dict[str, Any] = {"model": {"name": model}}
        if index % 4 == 1:
            spec["profile"] = {"selector": {"precision": "fp16"}}
        elif index % 4 == 2:
            spec["profile"] = {"name": f"{model}-fp8-mi300x"}
        documents.append(
            {
                "apiVersion": f"{G}/v1alpha2",
                "kind": "AIMService",
                "metadata": {
                    "name": f"svc-{index}",
                    "namespace": namespace,
                    "labels": {"org.example/team": namespace},
                    "annotations": {f"{G}/reconciler-pipeline": "profile"},
                },
                "spec": spec,
            }
        )
    for chunk in range(0, len(documents), 500):
        text = yaml.safe_dump_all(documents[chunk : chunk + 500], sort_keys=True)
        (directory / f"objects-{chunk // 500:03d}.yaml").write_text(text, encoding="utf-8")


def _profile_document(kind: str, args: dict[str, Any]) -> dict[str, Any]:
    metadata = {"name": args["name"], "labels": args["labels"]}
    if "namespace" in args:
        metadata["namespace"] = args["namespace"]
    return {"apiVersion": f"{G}/v1alpha2", "kind": kind, "metadata": metadata, "spec": args["spec"]}


def _usage() -> dict[str, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    return {"cpu": own.ru_utime + own.ru_stime, "rss_mb": own.ru_maxrss / 1024}


def child_aim(directory: str, graph_file: str) -> None:
    """`aim-pulumi plan DIRECTORY` as a user runs it; afterwards, its graph for the bare side."""
    import aim_pulumi.offline.engine as engine
    from aim_pulumi.cli.__main__ import main

    recordings: list[PlanRecording] = []
    original = engine.run_program

    def keeping(*args: Any, **kwargs: Any) -> PlanRecording:
        recording = original(*args, **kwargs)
        recordings.append(recording)
        return recording

    engine.run_program = keeping  # type: ignore[assignment]
    with open(os.devnull, "w", encoding="utf-8") as sink:
        saved, sys.stdout = sys.stdout, sink
        try:
            # As the console script runs it: the process ends with the command.
            sys.argv = ["aim-pulumi", "plan", directory, "--no-color"]
            code = main()
        finally:
            sys.stdout = saved
    usage = _usage()
    if code != 0:
        raise SystemExit(f"aim-pulumi plan {directory} failed ({code})")
    if graph_file:
        Path(graph_file).write_text(json.dumps(recorded_graph(recordings[-1])), encoding="utf-8")
    usage["resources"] = len(recordings[-1].resources)
    print(json.dumps(usage))


def child_bare(graph_file: str) -> None:
    graph = json.loads(Path(graph_file).read_text(encoding="utf-8"))
    run_program(lambda: bare_program(graph), project="bench", stack="bench")
    print(json.dumps(_usage()))


def _spawn(*args: str) -> dict[str, float]:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, __file__, "--child", *args], capture_output=True, text=True, check=False
    )
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"child {args[0]} failed:\n{done.stderr[-3000:]}")
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    result["wall"] = wall
    return result


def end_to_end(services: int, profiles: int, repeats: int, workdir: Path) -> None:
    directory = workdir / f"aim-{services}-{profiles}"
    if not directory.is_dir():
        write_e2e_directory(directory, services, profiles)
    graph_file = workdir / f"graph-{services}-{profiles}.json"
    runs: dict[str, list[dict[str, float]]] = {"aim": [], "bare": []}
    for repeat in range(repeats):
        order = ("aim", "bare") if repeat % 2 == 0 or not graph_file.exists() else ("bare", "aim")
        for side in order:
            if side == "aim":
                runs["aim"].append(_spawn("aim", str(directory), str(graph_file) if repeat == 0 else ""))
            else:
                runs["bare"].append(_spawn("bare", str(graph_file)))
    resources = int(runs["aim"][0]["resources"])
    print(f"e2e: aim-pulumi plan of {services} services over {profiles} profiles, {resources} resources")
    ratios: dict[str, tuple[float, float]] = {}
    for side, label in (("aim", "aim-pulumi plan"), ("bare", "bare graph     ")):
        parts = []
        for metric, unit in (("wall", "s"), ("cpu", "s"), ("rss_mb", "MB")):
            low, mid = _stats([r[metric] for r in runs[side]])
            ratios.setdefault(metric, (low, mid))
            if side == "bare":
                ratios[metric] = (ratios[metric][0] / low, ratios[metric][1] / mid)
            parts.append(f"{metric} min {low:7.1f} {unit} median {mid:7.1f} {unit}")
        print(f"  {label}  " + " | ".join(parts))
    print(
        "  ratio            "
        + " | ".join(f"{m} min {lo:.2f}x median {md:.2f}x" for m, (lo, md) in ratios.items())
    )


# ------------------------------------------------------------------------------ command line

SCENARIOS = {
    "small-200": (200, 200),
    "small-2000": (2000, 200),
    "large-200": (200, 2000),
}


def scale_table(counts: Sequence[int], repeats: int) -> None:
    """One row per service count (run in increasing order, so the process's RSS high-water mark
    after a row is that row's largest run: the components' one, with the bare replay's graph)."""
    print("| services | resources | components CPU s | bare graph CPU s | ratio | peak RSS MB |")
    print("|---:|---:|---:|---:|---:|---:|")
    for services in sorted(counts):
        result = in_process(services, 200, repeats)
        (amin, _), (bmin, _) = result["aim"], result["bare"]
        rss = _usage()["rss_mb"]
        print(
            f"| {services:,} | {result['resources']:,} | {amin:.2f} | {bmin:.2f} | {amin / bmin:.2f}x "
            f"| {rss:,.0f} |",
            flush=True,
        )


def profile_once(services: int, cluster_profiles: int) -> None:
    import cProfile
    import pstats

    profiler = cProfile.Profile()
    profiler.enable()
    run_program(
        lambda: aim_program(services, cluster_profiles=cluster_profiles), project="bench", stack="bench"
    )
    profiler.disable()
    stats = pstats.Stats(profiler)
    stats.sort_stats("cumulative").print_stats(45)
    stats.sort_stats("tottime").print_stats(25)


def warm_up() -> None:
    """First runs pay for lazy imports and first-use caches; no measured run should."""
    _, recording = cpu_run(lambda: aim_program(4, cluster_profiles=4))
    graph = recorded_graph(recording)
    cpu_run(lambda: bare_program(graph))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Plan cost of the components against their bare graph.")
    parser.add_argument("-s", "--scenario", action="append", choices=[*SCENARIOS, "e2e"])
    parser.add_argument("-r", "--repeats", type=int, default=3, help="interleaved repeats (default 3)")
    parser.add_argument("--scale", help="comma-separated service counts: a markdown table")
    parser.add_argument("--profile", action="store_true", help="cProfile one component run per scenario")
    parser.add_argument("--e2e-services", type=int, default=1000)
    parser.add_argument("--e2e-profiles", type=int, default=10000)
    parser.add_argument("--workdir", default=str(Path(tempfile.gettempdir()) / "aim-bench-plan"))
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        if args.child[0] == "aim":
            child_aim(args.child[1], args.child[2] if len(args.child) > 2 else "")
        else:
            child_bare(args.child[1])
        return
    warm_up()
    if args.scale:
        scale_table([int(n) for n in args.scale.split(",")], args.repeats)
        return
    scenarios = args.scenario or ["small-200", "large-200"]
    results: dict[str, dict[str, Any]] = {}
    for name in scenarios:
        if name == "e2e":
            end_to_end(args.e2e_services, args.e2e_profiles, args.repeats, Path(args.workdir))
            continue
        services, cluster = SCENARIOS[name]
        if args.profile:
            profile_once(services, cluster)
            continue
        results[name] = in_process(services, cluster, args.repeats)
        _print_in_process(name, results[name])
    if "small-200" in results and "large-200" in results:
        catalog_growth(results["small-200"], results["large-200"])


def catalog_growth(small: dict[str, Any], large: dict[str, Any]) -> None:
    """How the 10x catalog changes the components' time, the bare graph's, and what lies between.

    The 1,800 more profiles are 1,800 more components, which the bare graph registers too: its
    growth is the SDK's registration cost of the larger graph. What the components add on top
    of the bare graph (their overhead) is what resolution against a larger catalog costs.
    """
    for label, index in (("min", 0), ("median", 1)):
        aim_s, aim_l = small["aim"][index], large["aim"][index]
        bare_s, bare_l = small["bare"][index], large["bare"][index]
        print(
            f"catalog 10x larger, same 200 services ({label}): components {aim_l / aim_s:.2f}x the small "
            f"catalog's, bare graph {bare_l / bare_s:.2f}x; components' overhead over the bare graph "
            f"{aim_s - bare_s:+.2f} s -> {aim_l - bare_l:+.2f} s"
        )


if __name__ == "__main__":
    main()
