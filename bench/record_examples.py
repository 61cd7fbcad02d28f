"""The complete recording of every example (and of the benchmark program), as canonical JSON.

A change meant only to make planning cheaper must leave what a program registers untouched:
every resource with its inputs, outputs, options and dependencies, every registered output and
every log message the plan shows. Write the recordings before the change and after it, and
compare the files byte for byte:

    python bench/record_examples.py before/ && <change> && python bench/record_examples.py after/
    diff -r before/ after/

SDK debug messages are left out: the plan never shows them and the engine does not keep them.
Dependencies are compared as sets: the SDK collects them in a set, so their order differs from
one run to the next even with no change at all.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from aim_pulumi.cli.execution import execute  # noqa: E402
from aim_pulumi.cli.project import load_program  # noqa: E402
from aim_pulumi.offline.engine import run_program  # noqa: E402
from aim_pulumi.offline.recording import PlanRecording  # noqa: E402


def canonical(recording: PlanRecording) -> str:
    """Every recorded fact in registration order; JSON with sorted keys."""
    resources = []
    for r in recording.resources:
        fields = dataclasses.asdict(r)
        fields["dependencies"] = sorted(r.dependencies)
        fields["property_dependencies"] = {k: sorted(v) for k, v in r.property_dependencies.items()}
        resources.append(fields)
    document: dict[str, Any] = {
        "resources": resources,
        "outputs": recording.outputs,
        "logs": [dataclasses.asdict(log) for log in recording.logs if log.severity != "debug"],
    }
    return json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", help="where to write one <name>.json per program")
    parser.add_argument("--services", type=int, default=60, help="services of the benchmark program")
    args = parser.parse_args()
    out = Path(args.directory)
    out.mkdir(parents=True, exist_ok=True)
    for example in sorted((ROOT / "examples").iterdir()):
        if not (example / "__main__.py").is_file():
            continue
        outcome = execute(load_program(str(example)))
        if outcome.error is not None or outcome.recording is None:
            print(f"{example.name}: {outcome.error.line if outcome.error else 'no recording'}")
            return 1
        (out / f"{example.name}.json").write_text(canonical(outcome.recording), encoding="utf-8")
    from bench_plan import aim_program  # the benchmark's program: Shared caches, routing, many profiles

    recording = run_program(lambda: aim_program(args.services, cluster_profiles=40), project="bench")
    (out / "bench.json").write_text(canonical(recording), encoding="utf-8")
    print(f"wrote {len(list(out.glob('*.json')))} recordings to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
