"""`aim-pulumi`: the command line. The subcommands are in `aim_pulumi.cli.parser.COMMANDS`."""

from __future__ import annotations

import argparse
import contextlib
import difflib
import os
import sys
import traceback
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from aim_pulumi.cli.common import command_ends_process, option_strings, subcommand_parsers

if TYPE_CHECKING:
    from aim_pulumi.cli.parser import build_parser


def __getattr__(name: str) -> Any:
    # The parser imports every command (and so Pulumi); `--version` alone never needs it.
    if name == "build_parser":
        from aim_pulumi.cli.parser import build_parser

        return build_parser
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["build_parser", "internal_error_line", "main", "option_strings", "subcommand_parsers"]


def _unrecognized(parser: argparse.ArgumentParser, command: str | None, extras: Sequence[str]) -> str:
    """The usage error for unknown arguments, with the closest option of the subcommand for each."""
    sub = subcommand_parsers(parser).get(command or "")
    known = option_strings(sub) if sub is not None else option_strings(parser)
    hints = []
    for extra in extras:
        if extra.startswith("-"):
            close = difflib.get_close_matches(extra.split("=", 1)[0], known, 1, cutoff=0.6)
            if close:
                hints.append(f"did you mean `{close[0]}` for `{extra}`?")
    message = "unrecognized arguments: " + " ".join(extras)
    return message + ("; " + "; ".join(hints) if hints else "")


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; exit status 0 success, 1 the command found problems, 2 usage error.

    `plan --detailed-exitcode` adds 3 (changes present) without changing the meaning of 0, 1, 2.
    """
    arguments = list(argv) if argv is not None else sys.argv[1:]
    if arguments == ["--version"]:
        # Asked by scripts and version checks: answered without importing the commands.
        from aim_pulumi.cli.commands.version import version_line

        print(version_line())
        return 0
    from aim_pulumi.cli.parser import build_parser

    parser = build_parser()
    if argv is None:
        # The console script (or `python -m`): the process ends with the command.
        command_ends_process()
    try:
        args, extras = parser.parse_known_args(arguments)
        if extras:
            sub = subcommand_parsers(parser).get(args.command) or parser
            sub.error(_unrecognized(parser, args.command, extras))
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    try:
        code: int = args.func(args)
        sys.stdout.flush()
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`aim-pulumi plan . | head`): stop quietly, as other tools do. Standard
        # output is pointed at /dev/null so the interpreter's final flush does not fail again.
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except (Exception, RecursionError, MemoryError) as exc:
        # No input reaches the user as a traceback: one escaped line, the traceback on --debug.
        if getattr(args, "debug", False):
            traceback.print_exception(exc, file=sys.stderr)
        print(f"aim-pulumi {args.command}: error: {internal_error_line(exc)}", file=sys.stderr)
        return 1
    return code


def internal_error_line(exc: BaseException) -> str:
    """An unexpected failure as one line: its type and escaped message, never a traceback."""
    from aim_pulumi.api.errors import escape

    if isinstance(exc, RecursionError):
        return "InputTooLarge: the input is nested too deeply to process"
    if isinstance(exc, MemoryError):
        return "InputTooLarge: the input needs more memory than is available"
    text = str(exc)
    return escape(f"{type(exc).__name__}: {text}" if text else type(exc).__name__)


if __name__ == "__main__":
    sys.exit(main())
