"""`aim-pulumi completion bash|zsh|fish`: shell completion generated from the parser itself.

The scripts are written from the live argparse definitions, so every subcommand and flag the
`--help` pages list completes, and a new flag needs no second edit here. bash and zsh come from
`shtab`, which writes static scripts (nothing runs on a key press: building the parser takes
seconds, since it imports every command and Pulumi, which rules out `argcomplete`'s callback into
the program on every TAB). `shtab` writes no fish script, so fish's is written here.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from typing import Any, TextIO

__all__ = ["SHELLS", "register", "run", "script"]

SHELLS = ("bash", "zsh", "fish")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "completion",
        help="print a shell completion script (bash, zsh or fish)",
        description="Print a completion script for the shell. bash: `source <(aim-pulumi completion bash)`; "
        "zsh: `source <(aim-pulumi completion zsh)`; fish: `aim-pulumi completion fish | source`.",
    )
    parser.add_argument("shell", choices=SHELLS, help="the shell to complete in")
    parser.set_defaults(func=run)


def _commands(commands: Any) -> list[tuple[str, str, argparse.ArgumentParser]]:
    """(name, one-line help, parser) of every subcommand in `commands` (the subparsers), in help order."""
    helps = {choice.dest: choice.help or "" for choice in commands._choices_actions}
    return [(name, helps.get(name, ""), sub) for name, sub in commands.choices.items()]


def _options(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in parser._actions if a.option_strings]


def _fish_text(text: str) -> str:
    return shlex.quote(" ".join(text.split()).replace("%", "%%"))


def _fish(subcommands: Any) -> str:
    lines = ["# aim-pulumi fish completion: aim-pulumi completion fish | source"]
    commands = _commands(subcommands)
    names = " ".join(name for name, _, _ in commands)
    lines.append("complete -c aim-pulumi -f")
    lines.append("complete -c aim-pulumi -n __fish_use_subcommand -l version -d 'print the version'")
    for name, help_text, sub in commands:
        lines.append(f"complete -c aim-pulumi -n __fish_use_subcommand -a {name} -d {_fish_text(help_text)}")
        condition = shlex.quote(f"__fish_seen_subcommand_from {name}")
        for action in _options(sub):
            parts = [f"complete -c aim-pulumi -n {condition}"]
            for option in action.option_strings:
                parts.append(f"-l {option[2:]}" if option.startswith("--") else f"-s {option[1:]}")
            if action.nargs != 0:
                parts.append("-r")
                if action.choices:
                    parts.append("-a " + shlex.quote(" ".join(str(c) for c in action.choices)))
                else:
                    parts.append("-F")
            if action.help and action.help != argparse.SUPPRESS:
                parts.append("-d " + _fish_text(action.help))
            lines.append(" ".join(parts))
        positional = [a for a in sub._actions if not a.option_strings and a.choices]
        for action in positional:
            choices = " ".join(str(c) for c in action.choices or ())
            lines.append(f"complete -c aim-pulumi -n {condition} -a {shlex.quote(choices)}")
        if not positional:
            lines.append(f"complete -c aim-pulumi -n {condition} -F")
    lines.append(f"# subcommands: {names}")
    return "\n".join(lines) + "\n"


def script(shell: str, parser: argparse.ArgumentParser) -> str:
    """The script for `shell` completing `parser` and every subcommand of it."""
    if shell == "fish":
        (subcommands,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        return _fish(subcommands)
    import shtab

    return f"# aim-pulumi {shell} completion: source <(aim-pulumi completion {shell})\n" + str(
        shtab.complete(parser, shell=shell)
    )


def run(args: argparse.Namespace, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Print the script for the parser the command line was read with (`build_parser` names itself)."""
    (stdout or sys.stdout).write(script(args.shell, args.root_parser))
    return 0
