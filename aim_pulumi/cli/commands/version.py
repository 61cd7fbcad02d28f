"""`aim-pulumi version` (and `--version`): which package and which Pulumi SDKs a plan was made with.

Plans are compared across machines (`plan --diff` in CI against a plan saved elsewhere); the
versions that shape the recorded inputs are the package's and the two Pulumi SDKs'.
"""

from __future__ import annotations

import argparse
import json
import sys
from importlib.metadata import PackageNotFoundError, version
from typing import Any, TextIO

from aim_pulumi._version import __version__

__all__ = ["register", "run", "version_line", "versions"]

_DISTRIBUTIONS = ("aim-pulumi", "pulumi", "pulumi-kubernetes")


def versions() -> dict[str, str]:
    # The package's own from its code (an editable install's metadata keeps the version it was
    # installed at); the SDKs' from their metadata.
    found: dict[str, str] = {"aim-pulumi": __version__}
    for name in _DISTRIBUTIONS[1:]:
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            found[name] = "not installed"
    return found


def version_line() -> str:
    """`aim-pulumi 0.2.0 (pulumi 3.x, pulumi-kubernetes 4.x)`."""
    known = versions()
    sdks = ", ".join(f"{name} {known[name]}" for name in _DISTRIBUTIONS[1:])
    return f"aim-pulumi {known['aim-pulumi']} ({sdks})"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "version",
        help="print the version of aim-pulumi and of the Pulumi SDKs it runs on",
        description="Print the version of aim-pulumi and of the Pulumi SDKs it runs on (as --version).",
    )
    parser.add_argument("--output", choices=("text", "json"), default="text", help="text (default) or json")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    out = stdout or sys.stdout
    if args.output == "json":
        print(json.dumps(versions(), indent=2, sort_keys=True), file=out)
    else:
        print(version_line(), file=out)
    return 0
