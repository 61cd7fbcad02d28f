"""`aim-pulumi completion bash|zsh|fish`: shell completion generated from the parser itself.

The scripts are written from the live argparse definitions, so every subcommand and flag the
`--help` pages list completes, and a new flag needs no second edit here. zsh runs the bash
script through `bashcompinit`, as kubectl's and helm's users are used to.
"""

from __future__ import annotations

import argparse
import functools
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
    # Registered with the other subcommands, this one completes them all (itself included).
    parser.set_defaults(func=functools.partial(run, subcommands=subparsers))


def _commands(commands: Any) -> list[tuple[str, str, argparse.ArgumentParser]]:
    """(name, one-line help, parser) of every subcommand in `commands` (the subparsers), in help order."""
    helps = {choice.dest: choice.help or "" for choice in commands._choices_actions}
    return [(name, helps.get(name, ""), sub) for name, sub in commands.choices.items()]


def _options(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in parser._actions if a.option_strings]


def _bash(subcommands: Any) -> str:
    commands = _commands(subcommands)
    cases = []
    for name, _, sub in commands:
        flags = " ".join(o for a in _options(sub) for o in a.option_strings)
        choices = " ".join(
            str(c) for a in sub._actions if not a.option_strings and a.choices for c in a.choices
        )
        cases.append(f"    {name}) opts={shlex.quote(flags)}; words_={shlex.quote(choices)} ;;")
    names = " ".join(name for name, _, _ in commands)
    return "\n".join(
        [
            "# aim-pulumi bash completion: source <(aim-pulumi completion bash)",
            "_aim_pulumi() {",
            '  local cur="${COMP_WORDS[COMP_CWORD]}" opts="" words_=""',
            '  if [ "$COMP_CWORD" -eq 1 ]; then',
            f'    COMPREPLY=($(compgen -W "{names} --version --help" -- "$cur"))',
            "    return",
            "  fi",
            '  case "${COMP_WORDS[1]}" in',
            *cases,
            "  esac",
            '  if [[ "$cur" == -* ]]; then',
            '    COMPREPLY=($(compgen -W "$opts" -- "$cur"))',
            '  elif [ -n "$words_" ]; then',
            '    COMPREPLY=($(compgen -W "$words_" -- "$cur"))',
            "  else",
            '    COMPREPLY=($(compgen -f -- "$cur"))',
            "  fi",
            "}",
            "complete -o filenames -F _aim_pulumi aim-pulumi",
            "",
        ]
    )


def _zsh(subcommands: Any) -> str:
    return "\n".join(
        [
            "# aim-pulumi zsh completion: source <(aim-pulumi completion zsh)",
            "autoload -U +X bashcompinit && bashcompinit",
            _bash(subcommands),
        ]
    )


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


def script(shell: str, subcommands: Any) -> str:
    """The script for `shell` completing every parser of `subcommands` (argparse's subparsers action)."""
    return {"bash": _bash, "zsh": _zsh, "fish": _fish}[shell](subcommands)


def run(
    args: argparse.Namespace,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    *,
    subcommands: Any,
) -> int:
    (stdout or sys.stdout).write(script(args.shell, subcommands))
    return 0
