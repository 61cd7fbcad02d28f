"""The command table: every subcommand module, in help order, and the parser built from them.

Each command module (`aim_pulumi.cli.commands.*`) exposes `register(subparsers)`, which adds its
parser and sets `func(args) -> int`; `migrate`'s is handed the conversion of the extension the CLI
serves (`aim_pulumi/versions.py`), and adds nothing without one. `--version` never builds the
parser (`aim_pulumi.cli.__main__`), so it loads neither the commands nor the v1alpha1 folder.
"""

from __future__ import annotations

import argparse
import difflib

from aim_pulumi.cli.commands import completion, discover, explain, import_, migrate, plan, validate, version
from aim_pulumi.cli.common import subcommand_parsers
from aim_pulumi.versions import EXTENSION

# Subcommand modules, in help order. Each `register` adds its parser and sets `func(args) -> int`.
COMMANDS = [plan, explain, discover, validate, migrate, import_, completion, version]


class Parser(argparse.ArgumentParser):
    """argparse with `did you mean` for a mistyped subcommand, as git and kubectl answer one."""

    def error(self, message: str) -> None:  # type: ignore[override]
        if "invalid choice:" in message:
            choice = message.split("invalid choice:", 1)[1].split("(", 1)[0].strip().strip("'")
            names = list(subcommand_parsers(self))  # those registered: `migrate` may not be
            close = difflib.get_close_matches(choice, names, 1)
            if close:
                message += f"; did you mean `{close[0]}`?"
        super().error(message)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="aim-pulumi",
        description="Plan, validate and explain AIM inference services deployed with Pulumi.",
    )
    parser.add_argument("--version", action="version", version=version.version_line())
    parser.set_defaults(root_parser=parser)  # what `completion` completes
    subparsers = parser.add_subparsers(
        dest="command", metavar="COMMAND", required=True, parser_class=argparse.ArgumentParser
    )
    for module in COMMANDS:
        if module is migrate:  # what it converts, and its words, are the extension's
            migrate.register(subparsers, EXTENSION)
        else:
            module.register(subparsers)
    return parser


def completion_script(shell: str) -> str:
    """What `aim-pulumi completion SHELL` prints: the script for `build_parser` and every subcommand."""
    return completion.script(shell, build_parser())
