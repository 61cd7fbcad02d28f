"""Profile-selection benchmark: 1,000 services against a 10,000-profile catalog.

Run: `python bench/bench_resolve.py`. Prints the catalog build time and the time to resolve every
service with `select_profile` (target: resolution under 2 s). Not a test: timings vary by machine.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from aim_pulumi.api import AIMService, parse
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resolve.selection.select import select_profile

G = "aim.eai.amd.com"
NAMESPACES = [f"team-{i}" for i in range(5)]
PRECISIONS = ["fp8", "fp16", "bf16", "int8"]
TYPES = ["optimized", "general", "preview", "unoptimized"]
ACCELERATORS = ["MI300X", "MI325X", "MI355X"]


def build_profiles(count: int, models: int) -> list[Any]:
    """`count` profiles over `models` models: 30% cluster profiles, the rest spread over namespaces."""
    manifests: list[dict[str, Any]] = []
    for i in range(count):
        model = f"model-{i % models}"
        cluster = i % 10 < 3
        metadata: dict[str, Any] = {
            "name": f"{model}-p{i}",
            "labels": {
                f"{G}/source-model": model,
                f"{G}/source-model-scope": "cluster" if cluster else "namespace",
            },
        }
        if not cluster:
            metadata["namespace"] = NAMESPACES[(i // models) % len(NAMESPACES)]
        spec: dict[str, Any] = {
            "aimId": f"org/{model}",
            "image": f"amdenterpriseai/aim-{model}:0.{i % 13}.{i % 7}",
            "precision": PRECISIONS[i % len(PRECISIONS)],
            "type": TYPES[(i // 3) % len(TYPES)],
            "primary": i % 17 == 0,
            "acceleratorModel": ACCELERATORS[i % len(ACCELERATORS)],
            "acceleratorCount": 1 + i % 4,
            "autoSelectionPolicy": "any" if i % 5 == 0 else "optimized",
        }
        manifests.append(
            {
                "apiVersion": f"{G}/v1alpha2",
                "kind": "AIMClusterProfile" if cluster else "AIMProfile",
                "metadata": metadata,
                "spec": spec,
            }
        )
    return [parse(m) for m in manifests]


def build_services(count: int, models: int, profiles: list[Any]) -> list[AIMService]:
    """A mix of every resolution shape, some with a previous binding."""
    out: list[AIMService] = []
    for i in range(count):
        ns = NAMESPACES[i % len(NAMESPACES)]
        model = f"model-{i % models}"
        spec: dict[str, Any]
        shape = i % 5
        if shape == 0:
            spec = {"model": {"name": model}}
        elif shape == 1:
            spec = {"model": {"name": model}, "profile": {"selector": {"precision": PRECISIONS[i % 4]}}}
        elif shape == 2:
            spec = {"profile": {"selector": {"aimId": f"org/{model}", "acceleratorModel": "mi300x"}}}
        elif shape == 3:
            spec = {"profile": {"name": profiles[i % len(profiles)].metadata.name}}
            if profiles[i % len(profiles)].kind == "AIMProfile":
                ns = profiles[i % len(profiles)].metadata.namespace
        else:
            spec = {"model": {"name": model}, "profile": {"selector": {"minimumType": "any"}}}
        manifest: dict[str, Any] = {
            "apiVersion": f"{G}/v1alpha2",
            "kind": "AIMService",
            "metadata": {"name": f"svc-{i}", "namespace": ns},
            "spec": spec,
        }
        if shape == 4 and i % 2 == 0:
            manifest["status"] = {
                "resolvedProfile": {"kind": "AIMClusterProfile", "name": f"{model}-p{i % models}"}
            }
        svc = parse(manifest)
        assert isinstance(svc, AIMService)
        out.append(svc)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--profiles", type=int, default=10_000)
    parser.add_argument("--services", type=int, default=1_000)
    parser.add_argument("--models", type=int, default=50)
    args = parser.parse_args()

    profiles = build_profiles(args.profiles, args.models)
    services = build_services(args.services, args.models, profiles)

    started = time.perf_counter()
    catalog = Catalog(profiles)
    built = time.perf_counter()
    winners: dict[str, int] = {}
    for svc in services:
        outcome: str
        try:
            outcome = select_profile(svc, catalog).shape
        except AIMResolutionError as err:
            outcome = err.reason
        winners[outcome] = winners.get(outcome, 0) + 1
    resolved = time.perf_counter()

    print(f"catalog: {len(profiles)} profiles indexed in {built - started:.3f} s")
    print(f"select_profile: {len(services)} services resolved in {resolved - built:.3f} s")
    print(f"outcomes: {dict(sorted(winners.items()))}")


if __name__ == "__main__":
    main()
