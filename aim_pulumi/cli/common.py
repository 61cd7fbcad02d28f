"""What every command shares: exit statuses, the usage error, standard streams and one-line text.

Commands (`aim_pulumi.cli.commands`) and the rooms they use (project reading, execution, plan
files, rendering) import from here; nothing here imports another module of the CLI.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
from collections.abc import Iterator
from pathlib import Path

from aim_pulumi.api.errors import AIMValidationError, bounded, escape

EXIT_OK = 0

EXIT_FAILED = 1

EXIT_USAGE = 2

# `--detailed-exitcode` only. Terraform says 2 for "changes", but 2 is the usage error of every
# subcommand here (and of argparse): a CI gate must never read a typo as "there are changes".
EXIT_CHANGES = 3


STDOUT = "-"


class UsageError(Exception):
    """The command line or PROGRAM cannot be used as given (exit 2)."""


def one_line(text: str) -> str:
    """User-supplied text inside a message, on one line with its control characters escaped."""
    return escape(str(text).strip())


STDIN_NAME = "<stdin>"
"""How standard input is named in every message, as `validate -` names it."""


def display_path(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def format_problem(err: AIMValidationError, *, by_line: bool = False) -> str:
    """The one-line form of a problem: `file:doc: ref: field: reason: message`.

    `by_line` puts the problem's line in place of its document position, when the line is known
    (`validate`, which finds the line of every problem it reports).
    """
    where = err.file or "<input>"
    if by_line and err.line is not None:
        where = f"{where}:{err.line}"
    elif err.document is not None:
        where = f"{where}:{err.document}"
    parts = (where, err.object_ref or "?", err.field or "(root)", err.reason, err.message)
    return bounded(": ".join(escape(p) for p in parts))


def subcommand_parsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """Every subcommand's parser by name (completion scripts and suggestions read them)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def option_strings(parser: argparse.ArgumentParser) -> list[str]:
    return [option for action in parser._actions for option in action.option_strings]


_PROCESS_ENDS_WITH_COMMAND = False


def command_ends_process() -> None:
    """The running command is the process's entry point: what it leaves behind the OS frees."""
    global _PROCESS_ENDS_WITH_COMMAND
    _PROCESS_ENDS_WITH_COMMAND = True


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """No garbage collection inside: for writing out a plan whose recording stays alive throughout.

    A recording of thousands of resources is millions of small objects, all reachable until the
    command ends. Writing it out (tree, summaries, JSON, YAML, validation) allocates many more, and
    at the default thresholds every full collection walks the whole heap again: about a fifth of
    `aim-pulumi plan`'s CPU at 1,000 services, for nothing, since what is written out leaves no
    cycles to collect. The collector is enabled again on the way out, as it was. When the command
    is the whole process (`command_ends_process`), the heap is frozen first: the first collection
    after the pause, and the interpreter's at exit, would otherwise walk every object the plan
    made just before the process ends and the OS frees them all anyway.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if _PROCESS_ENDS_WITH_COMMAND:
                gc.freeze()
            gc.enable()
