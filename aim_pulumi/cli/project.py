"""PROGRAM and its configuration, read the way the Pulumi CLI reads them.

PROGRAM is a Pulumi Python program directory (its `__main__.py`, configured by `Pulumi.yaml` and
`Pulumi.<stack>.yaml`) or a file/directory of AIM YAML, planned through `AIMStack`. `plan` and
`explain` take the same PROGRAM arguments (`add_program_arguments`).

Not `pulumi.automation`'s `ProjectSettings`/`StackSettings` readers: they load both files with
PyYAML's YAML 1.1 (`aim:waitFor: 1:30` becomes 90, `on` becomes true, where the Pulumi CLI passes
the text as written), drop `stackConfigDir` (the stack files then go unfound) and a stack file's
`environment` imports (whose missing config the plan warns of).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import yaml

from aim_pulumi.api.errors import escape
from aim_pulumi.api.locations import config_key_line
from aim_pulumi.cli.common import STDIN_NAME, UsageError, display_path
from aim_pulumi.cli.pulumi_yaml import declaration_problem, environment_imports

_YAML_SUFFIXES = (".yaml", ".yml")

_STACK_FILE = re.compile(r"^Pulumi\.(?P<stack>[^.]+)\.ya?ml$")

# Keys of a Pulumi.yaml `config:` entry that declare it (type, default, ...) rather than set it.
_DECLARATION_KEYS = frozenset({"type", "description", "default", "value", "secret", "items"})


@dataclass(frozen=True)
class Program:
    """What to run: a Pulumi Python program directory or AIM YAML, with its project, stack and config."""

    path: Path
    kind: Literal["pulumi", "manifests"]
    project: str
    stack: str
    config: Mapping[str, str]
    secret_keys: tuple[str, ...] = ()
    # What the offline plan leaves out that `pulumi preview` would use, printed as warnings.
    warnings: tuple[str, ...] = ()
    # Where `aim.lock.yaml` is: the project directory (Pulumi.yaml's), the YAML directory or file's.
    root: Path | None = None
    # The file standard input was copied to (`plan -`): named `<stdin>` wherever a file is named.
    stdin_file: str | None = None
    # Where each config key was set: `Pulumi.<stack>.yaml:<line>`, `Pulumi.yaml:<line>`, `--config`.
    config_sources: Mapping[str, str] = dataclasses.field(default_factory=dict)

    @property
    def main(self) -> Path | None:
        return self.path / "__main__.py" if self.kind == "pulumi" else None

    def shown(self, file: str) -> str:
        """A file of the program as messages name it: `<stdin>` for standard input's copy, else its
        path relative to the working directory when it is inside it."""
        if self.stdin_file is not None and Path(file).resolve() == Path(self.stdin_file).resolve():
            return STDIN_NAME
        return display_path(Path(file))


class _YAML12Loader(yaml.SafeLoader):
    """YAML 1.2's core schema, as Go's yaml.v3 (the Pulumi CLI's reader) resolves plain scalars."""


_YAML12Loader.yaml_implicit_resolvers = {}
for _tag, _pattern, _first in (
    ("bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    ("int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
    (
        "float",
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
        "-+0123456789.",
    ),
):
    _YAML12Loader.add_implicit_resolver(f"tag:yaml.org,2002:{_tag}", re.compile(_pattern), list(_first))


def _construct_yaml12_int(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> int:
    text = str(loader.construct_scalar(node))
    return int(text, 8) if text.startswith("0o") else int(text, 0) if text.startswith("0x") else int(text)


_YAML12Loader.add_constructor("tag:yaml.org,2002:int", _construct_yaml12_int)


class _PulumiFile(dict[str, Any]):
    """A Pulumi.yaml or stack file: its values, and its `config` scalars exactly as written.

    The Pulumi CLI reads these with Go's YAML and hands a scalar config value to the program as
    the text in the file (`1:30`, `on`, `1.0`, `0o17` stay as they are); PyYAML's YAML 1.1 would
    make `1:30` the number 90 and `on` true. Structured values go to the program as JSON, typed by
    YAML 1.2's core schema, as yaml.v3 types them (`_YAML12Loader`).
    """

    literal_config: Mapping[str, Any]
    text: str


def _read_yaml(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
        data = yaml.load(text, Loader=_YAML12Loader)  # a SafeLoader with other resolvers
        literal = yaml.load(text, Loader=yaml.BaseLoader)  # BaseLoader builds only strings
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        detail = " ".join(str(exc).split())
        raise UsageError(f"{path}: cannot read: {detail}") from None
    if not isinstance(data, dict):
        return data
    found = _PulumiFile(data)
    section = literal.get("config") if isinstance(literal, dict) else None
    found.literal_config = section if isinstance(section, dict) else {}
    found.text = text
    return found


def config_text(value: Any) -> str:
    """A config value as the Pulumi CLI hands it to a program: text, structured values as JSON."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return str(value)
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def full_config_key(key: str, project: str) -> str:
    """`gatewayProvider` -> `<project>:gatewayProvider`; namespaced keys (`aim:strict`) stay as they are."""
    return key if ":" in key else f"{project}:{key}"


def _config_section(
    data: Any, source: Path, project: str, *, declarations: bool, where: dict[str, str] | None = None
) -> tuple[dict[str, str], list[str]]:
    """The `config:` block of Pulumi.yaml (`declarations=True`) or Pulumi.<stack>.yaml; `where`
    gets `file:line` of each key it sets (what an error about the setting names)."""
    section = data.get("config") if isinstance(data, Mapping) else None
    if section is None:
        return {}, []
    text: str = getattr(data, "text", "")
    if where is not None:
        for raw_key in section:
            line = config_key_line(text, str(raw_key))
            where[full_config_key(str(raw_key), project)] = (
                f"{display_path(source)}:{line}" if line is not None else display_path(source)
            )
    if not isinstance(section, Mapping):
        raise UsageError(f"{source}: `config` must be a mapping of keys to values")
    values: dict[str, str] = {}
    secrets: list[str] = []
    literal: Mapping[str, Any] = getattr(data, "literal_config", {})
    for raw_key, raw in section.items():
        key = full_config_key(str(raw_key), project)
        value = raw
        if isinstance(raw, Mapping) and "secure" in raw and len(raw) == 1:
            # Encrypted with the stack's secrets provider, which only the Pulumi CLI can open.
            values[key] = "[secret]"
            secrets.append(key)
            continue
        if declarations and isinstance(raw, Mapping) and raw and set(raw) <= _DECLARATION_KEYS:
            problem = declaration_problem(project, str(raw_key), raw)
            if problem is not None:
                raise UsageError(f"{source}: {problem}")
            if "value" in raw:
                value = raw["value"]
            elif "default" in raw:
                value = raw["default"]
            else:
                continue
            if raw.get("secret") is True:
                secrets.append(key)
        if value is None:
            continue
        written = literal.get(str(raw_key))
        if value is raw and isinstance(written, str) and not isinstance(raw, Mapping | list):
            values[key] = written  # the scalar as the file writes it, as the Pulumi CLI passes it
            continue
        values[key] = config_text(value)
    return values, secrets


def parse_config_argument(text: str, project: str) -> tuple[str, str]:
    """`--config key=value` as `pulumi config set key value` would store it."""
    key, separator, value = text.partition("=")
    if not separator or not key.strip():
        raise UsageError(f"--config expects key=value, got {text!r}")
    return full_config_key(key.strip(), project), value


def _stack_files(directory: Path) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in sorted(directory.iterdir()):
        match = _STACK_FILE.match(path.name)
        if match and path.is_file():
            found.setdefault(match.group("stack"), path)
    return found


def _project_file(directory: Path) -> Path | None:
    for name in ("Pulumi.yaml", "Pulumi.yml"):
        if (directory / name).is_file():
            return directory / name
    return None


def _stack_config_dir(root: Path, project: Mapping[str, Any], project_file: Path | None) -> Path:
    """Where the stack files live: beside Pulumi.yaml, or in its `stackConfigDir`."""
    configured = project.get("stackConfigDir")
    if configured is None:
        return root
    directory = root / str(configured)
    if not directory.is_dir():
        raise UsageError(f"{project_file}: stackConfigDir {configured!r} is not a directory")
    return directory


def _check_manifest_directory(root: Path, path: str) -> None:
    """A directory planned as AIM YAML must hold some, and must not be a folder of programs.

    `aim-pulumi plan examples` would otherwise read every Pulumi.<stack>.yaml below as a broken
    AIM manifest, and an empty directory would plan nothing and succeed.
    """
    from aim_pulumi.api.io import manifest_files

    programs = sorted(
        p.parent.relative_to(root).as_posix()
        for p in root.rglob("*")
        if p.name in ("Pulumi.yaml", "Pulumi.yml", "__main__.py") and p.is_file()
    )
    if programs:
        listed = ", ".join(dict.fromkeys(programs))
        raise UsageError(
            f"{path}: not a Pulumi program (no Pulumi.yaml or __main__.py here) but holds programs in: "
            f"{listed}; plan one of them"
        )
    try:
        found = manifest_files(root)
    except FileNotFoundError as exc:  # a symlink leading out of the directory
        raise UsageError(escape(exc)) from None
    if not found:
        raise UsageError(f"{path}: no Pulumi program (Pulumi.yaml, __main__.py) and no *.yaml or *.yml file")


def load_program(path: str, *, stack: str | None = None, config: Sequence[str] = ()) -> Program:
    """Read PROGRAM: its kind, project name, stack (the only stack file, else `dev`) and config.

    Config precedence is the Pulumi CLI's: project defaults in `Pulumi.yaml`, then the stack file
    (beside Pulumi.yaml or in its `stackConfigDir`), then `--config` arguments. A `stack` named
    explicitly must have its stack file unless `config` supplies the values instead.
    """
    root = Path(path)
    if not root.exists():
        raise UsageError(f"{path}: no such file or directory")
    if not root.is_dir() and not root.is_file():
        # Reading a FIFO blocks until a writer comes, a device never ends: standard input is `-`.
        raise UsageError(
            f"{escape(path)}: not a regular file or directory (a FIFO, socket or device); "
            "pipe YAML in with `-` instead"
        )
    project_file = _project_file(root) if root.is_dir() else None
    if root.is_dir() and (project_file is not None or (root / "__main__.py").is_file()):
        data = _read_yaml(project_file) if project_file is not None else {}
        if not isinstance(data, Mapping):
            raise UsageError(f"{project_file}: expected a mapping with `name` and `runtime`")
        project = str(data.get("name") or root.resolve().name)
        runtime = data.get("runtime")
        runtime_name = runtime.get("name") if isinstance(runtime, Mapping) else runtime
        if runtime_name not in (None, "python"):
            raise UsageError(
                f"{project_file}: runtime {runtime_name!r} is not supported; only python programs run"
            )
        main = data.get("main")
        directory = root / str(main) if isinstance(main, str) and main else root
        if not (directory / "__main__.py").is_file():
            raise UsageError(f"{directory}: no __main__.py (a Pulumi Python program directory)")
        stacks = _stack_files(_stack_config_dir(root, data, project_file))
        chosen = stack or (next(iter(stacks)) if len(stacks) == 1 else "dev")
        sources: dict[str, str] = {}
        values, secrets = _config_section(
            data, project_file or root, project, declarations=True, where=sources
        )
        stack_file = stacks.get(chosen)
        if stack is not None and stack_file is None and not config:
            # `pulumi preview --stack typo` fails too; planning with no stack config would look fine.
            known = ", ".join(sorted(stacks)) or "none"
            raise UsageError(
                f"--stack {stack}: no Pulumi.{stack}.yaml in {_stack_config_dir(root, data, project_file)} "
                f"(stacks: {known}); create it, or pass its values with --config"
            )
        warnings: list[str] = []
        if stack_file is not None:
            stack_data = _read_yaml(stack_file)
            stack_values, stack_secrets = _config_section(
                stack_data, stack_file, project, declarations=False, where=sources
            )
            imports = environment_imports(stack_data)
            if imports:
                warnings.append(
                    f"{stack_file}: Pulumi ESC environments are not resolved offline ({', '.join(imports)}): "
                    "config they provide is missing from this plan"
                )
            values.update(stack_values)
            secrets.extend(stack_secrets)
        kind: Literal["pulumi", "manifests"] = "pulumi"
    else:
        if root.is_file() and root.suffix.lower() not in _YAML_SUFFIXES:
            raise UsageError(f"{path}: expected a Pulumi program directory or AIM YAML (*.yaml, *.yml)")
        if root.is_dir():
            _check_manifest_directory(root, path)
        project = _dns_name(root.resolve().stem if root.is_file() else root.resolve().name) or "aim"
        chosen = stack or "dev"
        values, secrets = {}, []
        sources = {}
        warnings = []
        directory = root
        kind = "manifests"
    for item in config:
        key, value = parse_config_argument(item, project)
        values[key] = value
        sources[key] = "--config"  # the line names the key; never the value, which may be a credential
        if key in secrets:
            secrets.remove(key)
    lock_root = root if root.is_dir() else root.parent
    return Program(
        root=lock_root.resolve(),
        path=directory.resolve(),
        kind=kind,
        project=project,
        stack=chosen,
        config=dict(sorted(values.items())),
        secret_keys=tuple(sorted(set(secrets))),
        warnings=tuple(warnings),
        config_sources=dict(sorted(sources.items())),
    )


def _dns_name(text: str) -> str:
    return re.sub(r"[^a-z0-9-]+", "-", text.lower()).strip("-")


def add_program_arguments(parser: argparse.ArgumentParser, *, default_program: str | None = None) -> None:
    """The arguments `plan`, `explain` and `discover` share: what to run and how it is configured.

    `default_program` makes PROGRAM optional (`discover` runs in the current directory).
    """
    parser.add_argument(
        "program",
        metavar="PROGRAM",
        nargs="?" if default_program is not None else None,
        default=default_program,
        help="a Pulumi Python program directory, or AIM/Kubernetes YAML (a file, a directory, - for stdin)",
    )
    parser.add_argument("-s", "--stack", metavar="S", help="stack whose Pulumi.<stack>.yaml config is read")
    parser.add_argument(
        "-c",
        "--config",
        metavar="KEY=VALUE",
        action="append",
        default=[],
        help="a config value, as `pulumi config set` (repeatable; `aim:gatewayProvider=kgateway`)",
    )
    parser.add_argument(
        "--catalog",
        metavar="DIR",
        action="append",
        default=[],
        help="AIM YAML (profiles, models, runtime configs) added to the catalog before the program",
    )
    parser.add_argument("--debug", action="store_true", help="show tracebacks and engine messages")
    parser.add_argument(
        "--no-color", action="store_true", help="never colour the output (also NO_COLOR, TERM=dumb)"
    )
