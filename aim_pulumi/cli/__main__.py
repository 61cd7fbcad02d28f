"""`aim-pulumi`: the command line. Each subcommand is a module exposing `register(subparsers)`."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence

from aim_pulumi.cli import explain, migrate, plan, validate

# Subcommand modules, in help order. Each `register` adds its parser and sets `func(args) -> int`.
COMMANDS = [plan, explain, validate, migrate]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="aim-pulumi",
        description="Plan, validate and explain AIM inference services deployed with Pulumi.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in COMMANDS:
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; exit status 0 success, 1 the command found problems, 2 usage error."""
    parser = build_parser()
    try:
        args = parser.parse_args(list(argv) if argv is not None else None)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    try:
        code: int = args.func(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (`aim-pulumi plan . | head`): stop quietly, as other tools do. Standard
        # output is pointed at /dev/null so the interpreter's final flush does not fail again.
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return code


if __name__ == "__main__":
    sys.exit(main())
