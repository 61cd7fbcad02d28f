"""`aim-pulumi plan PROGRAM`: what a `pulumi preview` would show, with no cluster and no Pulumi CLI.

PROGRAM is a Pulumi Python program directory (its `__main__.py`, configured by `Pulumi.yaml` and
`Pulumi.<stack>.yaml` as the Pulumi CLI would configure it) or a file/directory of AIM YAML, which
is planned through `AIMStack`. The program runs under the SDK's mock engine (`engine.run_program`);
every registration is recorded and shown as a tree, followed by one line per AIMService saying
which profile won and why, the runtime config, route, replicas and caches.

Exit status: 0 planned, 1 the plan failed (one line names the file or object, the field and the
reason; `--debug` adds the traceback), `--validate` found an invalid manifest or `--expect-no-changes`
found changes, 2 usage error, 3 changes found (only with `--detailed-exitcode`).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import re
import sys
import traceback
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal, TextIO

import yaml

from aim_pulumi.cli.pulumi_yaml import declaration_problem, environment_imports
from aim_pulumi.cli.render import Palette, as_mapping, mark_unknowns, palette_for, redact_secrets

if TYPE_CHECKING:
    from aim_pulumi.api import AIMObject
    from aim_pulumi.cli.diff import PlanDiff
    from aim_pulumi.cli.engine import PlanRecording, RecordedResource
    from aim_pulumi.resolve.catalog import Catalog
    from aim_pulumi.resolve.settings import Settings
    from aim_pulumi.resolve.types import ServicePlan
    from aim_pulumi.resources.service import Resolution as ServiceRecord

__all__ = [
    "EXIT_CHANGES",
    "EXIT_FAILED",
    "EXIT_OK",
    "EXIT_USAGE",
    "DuplicateResource",
    "PlanFailure",
    "PlanRun",
    "Program",
    "UsageError",
    "add_program_arguments",
    "execute",
    "failure_line",
    "load_program",
    "plan_document",
    "register",
    "run",
    "runtime_config_text",
    "tree_order",
    "unvalidated_manifests",
    "warning_lines",
]

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
# `--detailed-exitcode` only. Terraform says 2 for "changes", but 2 is the usage error of every
# subcommand here (and of argparse): a CI gate must never read a typo as "there are changes".
EXIT_CHANGES = 3

STACK_TYPE = "pulumi:pulumi:Stack"
DYNAMIC_PREFIX = "pulumi-python:dynamic"
SERVICE_TYPE = "aim:index:AIMService"
KUBERNETES_PREFIX = "kubernetes:"
PROVIDER_INPUT = "__provider"
_YAML_SUFFIXES = (".yaml", ".yml")
_STACK_FILE = re.compile(r"^Pulumi\.(?P<stack>[^.]+)\.ya?ml$")
# Keys of a Pulumi.yaml `config:` entry that declare it (type, default, ...) rather than set it.
_DECLARATION_KEYS = frozenset({"type", "description", "default", "value", "secret", "items"})
# Children are listed in the order a reader follows a service: what serves, then what reaches it.
_KIND_ORDER = (
    "InferenceService",
    "Secret",
    "ConfigMap",
    "HTTPRoute",
    "ScaledObject",
    "PersistentVolumeClaim",
    "Job",
)
# `pulumi.log` severities that --quiet still prints.
_PROBLEM_SEVERITIES = ("warning", "error")


class UsageError(Exception):
    """The command line or PROGRAM cannot be used as given (exit 2)."""


class PlanFailure(Exception):
    """The program failed to plan (exit 1); `line` is the one-line explanation to print."""

    def __init__(self, line: str, cause: BaseException) -> None:
        super().__init__(line)
        self.line = line
        self.cause = cause


# --------------------------------------------------------------------------------------------------
# PROGRAM and its configuration, read the way the Pulumi CLI reads them


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

    @property
    def main(self) -> Path | None:
        return self.path / "__main__.py" if self.kind == "pulumi" else None


def _read_yaml(path: Path) -> Any:
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        detail = " ".join(str(exc).split())
        raise UsageError(f"{path}: cannot read: {detail}") from None


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
    data: Any, source: Path, project: str, *, declarations: bool
) -> tuple[dict[str, str], list[str]]:
    """The `config:` block of Pulumi.yaml (`declarations=True`) or Pulumi.<stack>.yaml."""
    section = data.get("config") if isinstance(data, Mapping) else None
    if section is None:
        return {}, []
    if not isinstance(section, Mapping):
        raise UsageError(f"{source}: `config` must be a mapping of keys to values")
    values: dict[str, str] = {}
    secrets: list[str] = []
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
    if not manifest_files(root):
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
        values, secrets = _config_section(data, project_file or root, project, declarations=True)
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
            stack_values, stack_secrets = _config_section(stack_data, stack_file, project, declarations=False)
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
        warnings = []
        directory = root
        kind = "manifests"
    for item in config:
        key, value = parse_config_argument(item, project)
        values[key] = value
        if key in secrets:
            secrets.remove(key)
    return Program(
        path=directory.resolve(),
        kind=kind,
        project=project,
        stack=chosen,
        config=dict(sorted(values.items())),
        secret_keys=tuple(sorted(set(secrets))),
        warnings=tuple(warnings),
    )


def _dns_name(text: str) -> str:
    return re.sub(r"[^a-z0-9-]+", "-", text.lower()).strip("-")


# --------------------------------------------------------------------------------------------------
# Running a program and remembering what each service resolved against


@dataclass
class PlanRun:
    """A finished (or failed) program run: the recording and every service's last plan."""

    program: Program
    recording: PlanRecording | None
    services: dict[str, ServiceRecord] = field(default_factory=dict)
    catalog: Catalog | None = None
    settings: Settings | None = None
    error: PlanFailure | None = None


@contextlib.contextmanager
def _recording_service_plans(sink: dict[str, ServiceRecord]) -> Iterator[None]:
    """Keep the last planning of each service of one run (the summary lines and `explain` read it)."""
    from aim_pulumi.resources.service import observe_resolutions

    def keep(record: ServiceRecord) -> None:
        sink[record.key] = record

    with observe_resolutions(keep):
        yield


def _engine_logger(debug: bool) -> logging.Logger:
    """Engine diagnostics are shown by the command itself; the raw stream only with --debug."""
    logger = logging.getLogger("aim_pulumi.cli.plan.engine")
    logger.propagate = False
    logger.handlers.clear()
    if debug:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("engine %(levelname)s: %(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
    else:
        logger.addHandler(logging.NullHandler())
    return logger


def _load_catalog_objects(directories: Sequence[str]) -> list[AIMObject]:
    from aim_pulumi.api import load_manifests

    objects: list[AIMObject] = []
    for directory in directories:
        if not Path(directory).exists():
            raise UsageError(f"--catalog {directory}: no such file or directory")
        for obj in load_manifests(directory):
            if obj.kind == "AIMService":
                raise UsageError(
                    f"--catalog {directory}: {obj.object_ref} is a service; --catalog takes profiles, "
                    "models, runtime configs and templates (plan services as PROGRAM)"
                )
            objects.append(obj)
    return objects


def execute(
    program: Program,
    *,
    catalogs: Sequence[str] = (),
    debug: bool = False,
    previous: Mapping[str, Mapping[str, Any]] | None = None,
) -> PlanRun:
    """Run PROGRAM under the recording mock engine; a failure is kept in `PlanRun.error`.

    `previous` is the dynamic resources' state after an earlier run, by name (`previous_state`).

    Raises UsageError for unusable `--catalog` paths. Catalog objects are added to the stack
    catalog before the program starts, as if declared first.
    """
    from aim_pulumi.cli.engine import run_program
    from aim_pulumi.resources.registry import current_registry

    services: dict[str, ServiceRecord] = {}
    outcome = PlanRun(program=program, recording=None, services=services)
    try:
        extra = _load_catalog_objects(catalogs)
    except UsageError:
        raise
    except Exception as exc:
        outcome.error = PlanFailure(failure_line(exc, program), exc)
        return outcome
    body = _program_body(program)

    def entry() -> None:
        registry = current_registry()
        outcome.catalog, outcome.settings = registry.catalog, registry.settings
        for obj in extra:
            registry.add(obj)
        body()

    try:
        with _recording_service_plans(services):
            outcome.recording = run_program(
                entry,
                project=program.project,
                stack=program.stack,
                config=program.config,
                secret_config_keys=program.secret_keys,
                previous=previous,
                logger=_engine_logger(debug),
            )
    except Exception as exc:
        outcome.error = PlanFailure(failure_line(exc, program), exc)
        return outcome
    duplicate = _duplicate_urn(outcome.recording)
    if duplicate is not None:
        outcome.error = PlanFailure(_one_line(str(duplicate)), duplicate)
    return outcome


class DuplicateResource(Exception):
    """Two resources of one stack share a URN, which the Pulumi engine refuses before any change."""


def _duplicate_urn(recording: PlanRecording) -> DuplicateResource | None:
    """The first resource registered twice under one URN, worded as `pulumi preview` words it."""
    seen: set[str] = set()
    for r in recording.resources:
        if r.urn in seen:
            label = resource_label(r)
            return DuplicateResource(
                f"{label}: Duplicate resource URN '{r.urn}'; try giving it a unique name"
            )
        seen.add(r.urn)
    return None


def _program_body(program: Program) -> Any:
    if program.kind == "pulumi":
        from aim_pulumi.cli.engine import program_callable

        return program_callable(program.path)
    path = str(program.path)
    name = program.project

    def manifests() -> None:
        from aim_pulumi.resources import AIMStack

        AIMStack(name, {"path": path})

    return manifests


# --------------------------------------------------------------------------------------------------
# One clear line for a failed plan


def _one_line(text: str) -> str:
    """User-supplied text inside a message, on one line with its control characters escaped."""
    from aim_pulumi.api.errors import escape

    return escape(str(text).strip())


def _program_location(tb: TracebackType | None, program: Program) -> str | None:
    """`file:line` of the innermost traceback frame inside the program's own files."""
    root = program.path
    found: str | None = None
    for frame, line in traceback.walk_tb(tb):
        filename = Path(frame.f_code.co_filename)
        with contextlib.suppress(ValueError):
            filename.resolve().relative_to(root)
            found = f"{_display_path(filename)}:{line}"
    return found


def _declared_in_program(exc: BaseException, program: Program) -> str | None:
    """The program's line that declared the failing component (resolution runs after the body)."""
    site = getattr(exc, "declared_at", None)
    if site is None:
        return None
    filename = Path(site.filename)
    try:
        filename.resolve().relative_to(program.path)
    except ValueError:
        return None
    return f"{_display_path(filename)}:{site.line}"


def _chained_location(exc: BaseException, program: Program) -> str | None:
    """The program's own line, also when Pulumi re-raised the error from a failed registration."""
    seen: set[int] = set()
    current: BaseException | None = exc
    from aim_pulumi.cli.engine import ORIGIN_TRACEBACK

    while current is not None and id(current) not in seen:
        seen.add(id(current))
        for tb in (current.__traceback__, getattr(current, ORIGIN_TRACEBACK, None)):
            found = _program_location(tb, program)
            if found is not None:
                return found
        current = current.__cause__ or current.__context__
    return None


def _display_path(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _component_in(tb: TracebackType | None) -> str | None:
    """The innermost AIM component whose constructor was running.

    Named as the object it declares (`AIMService/ml-team/chat`, the form resolution errors use)
    when its args say so, else by its Pulumi name (`AIMStack models`).
    """
    import pulumi

    from aim_pulumi.api.io import KINDS, manifest_ref

    found: str | None = None
    for frame, _ in traceback.walk_tb(tb):
        owner = frame.f_locals.get("self")
        name = frame.f_locals.get("name")
        if (
            isinstance(owner, pulumi.ComponentResource)
            and type(owner).__module__.startswith("aim_pulumi.resources")
            and isinstance(name, str)
            and frame.f_code.co_name in ("__init__", "_setup", "_declare")
        ):
            kind = type(owner).__name__
            args = as_mapping(frame.f_locals.get("args"))
            # Args are either the Python shorthand (`name`, `namespace`) or a whole manifest.
            written = as_mapping(args.get("metadata"))
            metadata = {
                "name": args.get("name") or written.get("name") or name,
                "namespace": args.get("namespace") or written.get("namespace"),
            }
            ref = manifest_ref({"kind": kind, "metadata": metadata})
            found = ref if kind in KINDS and "?" not in ref.split("/") else f"{kind} {name}"
    return found


def failure_line(exc: BaseException, program: Program) -> str:
    """One line naming where (file:line or file:document), the object, the field and the reason.

    A program whose resolution failed for several objects gets one such line for each.
    """
    from aim_pulumi.api import AIMValidationError
    from aim_pulumi.cli.engine import DynamicCheckFailed
    from aim_pulumi.resolve.errors import AIMResolutionError
    from aim_pulumi.resources.program import AIMProgramError

    if isinstance(exc, AIMProgramError):
        return "\n".join(failure_line(failure, program) for failure in exc.failures)
    # Resolution runs after the program body, so the declaring line travels with the error.
    location = _chained_location(exc, program) or _declared_in_program(exc, program)
    component = _component_in(exc.__traceback__)
    parts: list[str | None]
    if isinstance(exc, AIMValidationError):
        where = exc.file
        if where is not None:
            where = _display_path(Path(where)) + (f":{exc.document}" if exc.document is not None else "")
        parts = [where or location, exc.object_ref or component, exc.field, exc.reason, exc.message]
    elif isinstance(exc, AIMResolutionError):
        parts = [location, exc.object_ref or component, exc.field, exc.reason, exc.message]
    elif isinstance(exc, DynamicCheckFailed):
        detail = "; ".join(f"{prop}: {reason}" for prop, reason in exc.failures)
        parts = [location, exc.resource_name, detail]
    elif isinstance(exc, SyntaxError):
        where = f"{_display_path(Path(exc.filename))}:{exc.lineno}" if exc.filename else location
        parts = [where, "SyntaxError", exc.msg]
    else:
        parts = [location, component, type(exc).__name__, str(exc)]
    return ": ".join(_one_line(p) for p in parts if p)


# --------------------------------------------------------------------------------------------------
# The recording as a tree, as JSON and as YAML


def _parents(
    recording: PlanRecording,
) -> tuple[dict[str, RecordedResource], dict[str, list[RecordedResource]]]:
    by_urn = {r.urn: r for r in recording.resources}
    children: dict[str, list[RecordedResource]] = {}
    for r in recording.resources:
        parent = r.parent if r.parent in by_urn else ""
        children.setdefault(parent, []).append(r)
    return by_urn, children


def _child_order(r: RecordedResource) -> tuple[int, int, str]:
    kind = r.type.rsplit(":", 1)[-1]
    if r.type.startswith(KUBERNETES_PREFIX):
        rank = _KIND_ORDER.index(kind) if kind in _KIND_ORDER else len(_KIND_ORDER)
        return (1, rank, r.name)
    return (0, 0, r.name)


def tree_order(recording: PlanRecording) -> list[tuple[int, RecordedResource]]:
    """Every resource depth-first with its depth: top-level in program order, children sorted."""
    _, children = _parents(recording)
    out: list[tuple[int, RecordedResource]] = []

    def visit(r: RecordedResource, depth: int) -> None:
        out.append((depth, r))
        for child in sorted(children.get(r.urn, []), key=_child_order):
            visit(child, depth + 1)

    for top in children.get("", []):
        visit(top, 0)
    return out


def kubernetes_identity(r: RecordedResource) -> str | None:
    """`Kind namespace/name` of a Kubernetes child, from its recorded manifest."""
    if not r.type.startswith(KUBERNETES_PREFIX):
        return None
    manifest = r.manifest
    metadata = as_mapping(manifest.get("metadata"))
    kind = str(manifest.get("kind") or r.type.rsplit(":", 1)[-1])
    name = str(metadata.get("name") or "?")
    namespace = metadata.get("namespace")
    return f"{kind} {namespace}/{name}" if namespace else f"{kind} {name}"


def resource_label(r: RecordedResource) -> str:
    """How a resource is named in the tree: its Kubernetes identity, else `Class pulumi-name`."""
    identity = kubernetes_identity(r)
    if identity is not None:
        return _one_line(identity)
    short = r.type.rsplit(":", 1)[-1].rsplit("/", 1)[-1]
    return _one_line(f"{short} {r.name}")


def _reveal(value: Any, show_secrets: bool) -> Any:
    """Secrets as `[secret]` (what `pulumi preview` shows), or their plaintext when asked for.

    Values not known before `pulumi up` (a StackReference output, an id) are `[unknown]` either way.
    """
    from aim_pulumi.cli.engine import plain

    return mark_unknowns(plain(value)) if show_secrets else redact_secrets(value)


_SECRET_TYPE = "kubernetes:core/v1:Secret"
_SECRET_DATA = ("data", "stringData")


def _secret_per_key(inputs: Mapping[str, Any]) -> dict[str, Any]:
    """A Secret's data held as one Pulumi secret, as one secret per key: the plan shows its keys."""
    from pulumi.runtime import rpc

    out = dict(inputs)
    for field_name in _SECRET_DATA:
        value: Any = out.get(field_name)
        if rpc.is_rpc_secret(value) and isinstance(value["value"], Mapping):
            out[field_name] = {
                key: item if rpc.is_rpc_secret(item) else {**value, "value": item}
                for key, item in value["value"].items()
            }
    return out


def _inputs_for_document(r: RecordedResource, show_secrets: bool) -> dict[str, Any]:
    raw = {k: v for k, v in r.inputs.items() if k != PROVIDER_INPUT}
    if r.type == _SECRET_TYPE:
        raw = _secret_per_key(raw)
    inputs = _reveal(raw, show_secrets)
    return _ordered_manifest(inputs) if r.type.startswith(KUBERNETES_PREFIX) else dict(inputs)


def _ordered_manifest(manifest: Mapping[str, Any]) -> dict[str, Any]:
    head = ("apiVersion", "kind", "metadata")
    ordered = {k: manifest[k] for k in head if k in manifest}
    ordered.update({k: v for k, v in manifest.items() if k not in head})
    return ordered


def _options(r: RecordedResource) -> dict[str, Any]:
    """The resource options the engine was given, in pulumi's camelCase names."""
    return {
        "protect": r.protect,
        "retainOnDelete": r.retain_on_delete,
        "deleteBeforeReplace": r.delete_before_replace,
        "ignoreChanges": list(r.ignore_changes),
        "replaceOnChanges": list(r.replace_on_changes),
        "customTimeouts": dict(r.custom_timeouts),
        "providers": dict(r.providers),
    }


def plan_document(recording: PlanRecording, *, show_secrets: bool = False) -> dict[str, Any]:
    """The machine-readable plan (`--json`): every resource as the engine saw it, and the stack outputs.

    Each resource has its URN, parent (Pulumi name and URN), provider reference, `dependsOn`
    URNs, options, inputs and (components) registered outputs; `outputs` at the top are the
    stack's exports, what `pulumi stack output` would print. Secrets are written as `[secret]`
    unless `show_secrets`, unknown values as `[unknown]`; the dynamic providers' pickled code is
    left out.
    """
    by_urn, _ = _parents(recording)
    resources = []
    for _, r in tree_order(recording):
        parent = by_urn.get(r.parent)
        entry: dict[str, Any] = {
            "type": r.type,
            "name": r.name,
            "urn": r.urn,
            "custom": r.custom,
            "parent": parent.name if parent is not None else None,
            "parentUrn": parent.urn if parent is not None else None,
            "provider": r.provider or None,
            "dependsOn": sorted(r.dependencies),
            "options": _options(r),
            "inputs": _inputs_for_document(r, show_secrets),
        }
        registered = recording.outputs.get(r.urn)
        if registered:
            entry["outputs"] = _reveal(registered, show_secrets)
        if r.type.startswith(DYNAMIC_PREFIX):
            # What `check` decided (the sticky binding): `--diff` against this plan starts from it,
            # as `pulumi preview` starts from the state `pulumi up` left.
            state = {k: v for k, v in r.outputs.items() if k != PROVIDER_INPUT}
            entry["state"] = _reveal(state, show_secrets)
        resources.append(entry)
    return {
        "project": recording.project,
        "stack": recording.stack,
        "resources": resources,
        "outputs": _reveal(recording.stack_outputs(), show_secrets),
    }


def previous_state(plan: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The dynamic resources' state recorded in a `--json` plan, by name, for `execute(previous=...)`."""
    return {
        str(r["name"]): dict(r["state"])
        for r in plan.get("resources") or []
        if isinstance(r, Mapping) and isinstance(r.get("state"), Mapping)
    }


def kubernetes_manifests(recording: PlanRecording, *, show_secrets: bool = False) -> list[dict[str, Any]]:
    """Every Kubernetes object of the plan, sorted by kind, namespace and name.

    A field Pulumi holds as a secret is written as `[secret]` unless `show_secrets`.
    """
    manifests = [_inputs_for_document(r, show_secrets) for r in recording.kubernetes()]

    def key(m: Mapping[str, Any]) -> tuple[str, str, str]:
        meta = as_mapping(m.get("metadata"))
        return (str(m.get("kind", "")), str(meta.get("namespace") or ""), str(meta.get("name") or ""))

    return sorted(manifests, key=key)


_LEADING_KEYS = ("apiVersion", "kind", "metadata")


def _canonical_manifest(manifest: Mapping[str, Any]) -> dict[str, Any]:
    """Kubernetes' customary top-level order, every other map sorted.

    The engine hands inputs back as protobuf structs whose key order follows the interpreter's
    hash seed; sorting makes the written file byte-identical between identical runs.
    """
    nested: dict[str, Any] = json.loads(json.dumps(manifest), object_hook=lambda d: dict(sorted(d.items())))
    ordered = {k: nested[k] for k in _LEADING_KEYS if k in nested}
    ordered.update((k, v) for k, v in nested.items() if k not in _LEADING_KEYS)
    return ordered


class _ManifestDumper(yaml.SafeDumper):
    """Multi-line strings (profile files in ConfigMaps) as literal blocks, as a person writes them."""


def _represent_text(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    style = "|" if "\n" in text else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_ManifestDumper.add_representer(str, _represent_text)


def manifests_yaml(recording: PlanRecording, *, show_secrets: bool = False) -> str:
    documents = [_canonical_manifest(m) for m in kubernetes_manifests(recording, show_secrets=show_secrets)]
    return yaml.dump_all(documents, Dumper=_ManifestDumper, sort_keys=False, default_flow_style=False)


def _has_schema(manifest: Mapping[str, Any]) -> bool:
    from aim_pulumi.schemas.registry import schema_document

    return schema_document(str(manifest.get("apiVersion")), str(manifest.get("kind"))) is not None


def validation_problems(recording: PlanRecording) -> list[str]:
    """One line per schema violation: `Kind/namespace/name (pulumi name): path: message`.

    Kinds the project vendors no schema for (a foreign CRD) are not checked: `unvalidated_manifests`.
    """
    from aim_pulumi.cli.render import UNKNOWN
    from aim_pulumi.schemas import manifest_identity, validate_manifest

    problems: list[str] = []
    for r in recording.kubernetes():
        manifest = _ordered_manifest(mark_unknowns(r.manifest))
        if not _has_schema(manifest):
            continue
        for error in validate_manifest(manifest):
            # A value known only after `pulumi up` cannot be judged now, as in `pulumi preview`.
            if UNKNOWN not in error:
                problems.append(f"{manifest_identity(manifest)} ({r.name}): {error}")
    return problems


def unvalidated_manifests(recording: PlanRecording) -> list[dict[str, Any]]:
    """The Kubernetes objects of the plan whose kind has no vendored schema, in plan order."""
    manifests = (_ordered_manifest(r.manifest) for r in recording.kubernetes())
    return [m for m in manifests if not _has_schema(m)]


# --------------------------------------------------------------------------------------------------
# Printing


def tree_lines(
    recording: PlanRecording, palette: Palette, markers: Mapping[str, str] | None = None
) -> list[str]:
    """The `pulumi preview`-like tree; `markers` maps a URN to `+`, `~`, `-` or ` ` (default `+`)."""
    from aim_pulumi.cli.render import table

    _, children = _parents(recording)
    rows: list[tuple[str, list[str]]] = []

    def visit(r: RecordedResource, lead: str, branch: str) -> None:
        marker = (markers or {}).get(r.urn, "+")
        rows.append((marker, [f"{marker} {lead}{branch}{resource_label(r)}", r.type, r.name]))
        kids = sorted(children.get(r.urn, []), key=_child_order)
        inner = lead + ("" if not branch else ("   " if branch.startswith("└") else "│  "))
        for position, child in enumerate(kids):
            visit(child, inner, "└─ " if position == len(kids) - 1 else "├─ ")

    for top in children.get("", []):
        visit(top, "", "")
    lines = table(["  Resource", "Pulumi type", "Pulumi name"], [cells for _, cells in rows], indent=" ")
    painted = [palette.bold(lines[0])]
    for (marker, _), line in zip(rows, lines[1:], strict=True):
        painted.append(_paint_marker(palette, marker, line))
    return painted


def _paint_marker(palette: Palette, marker: str, line: str) -> str:
    if marker == "+":
        return palette.create(line)
    if marker == "~":
        return palette.update(line)
    if marker == "-":
        return palette.delete(line)
    return palette.dim(line)


def service_summaries(run: PlanRun, palette: Palette) -> list[str]:
    """Per AIMService: one summary line, then its warnings (and, with records, nothing else)."""
    recording = run.recording
    if recording is None:
        return []
    by_isvc = {r.plan.isvc_name: r for r in run.services.values() if r.plan is not None}
    lines: list[str] = []
    for resource in recording.of_type(SERVICE_TYPE):
        outputs = recording.outputs.get(resource.urn, {})
        record = by_isvc.get(str(outputs.get("inferenceServiceName")))
        status = redact_secrets(outputs.get("status") or {})
        if record is not None and record.plan is not None:
            title = f"AIMService {_one_line(record.key)}"
            parts = [
                _choice_text(record),
                f"runtime config {runtime_config_text(record.plan)}",
                _route_text(record.plan, status),
                _replicas_text(record.plan),
                _cache_text(record.plan),
            ]
        else:
            title = f"AIMService {_one_line(resource.name)}"
            parts = [f"status {status.get('status', '?')}"]
        lines.append(f"{palette.bold(title)}: " + _one_line("; ".join(parts)))
        for log in recording.logs:
            if log.urn == resource.urn and log.severity in _PROBLEM_SEVERITIES:
                lines.append("  " + palette.warning(f"{log.severity}: {_one_line(log.message)}"))
    return lines


def warning_lines(recording: PlanRecording, palette: Palette, *, services: bool = True) -> list[str]:
    """Every warning and error the program logged, as `warning: <resource>: <message>`.

    `services=False` leaves out those attached to an AIMService (its summary line lists them).
    """
    by_urn = {r.urn: r for r in recording.resources}
    lines: list[str] = []
    for log in recording.logs:
        if log.severity not in _PROBLEM_SEVERITIES:
            continue
        owner = by_urn.get(log.urn)
        if owner is not None and owner.type == SERVICE_TYPE and not services:
            continue
        where = f"{resource_label(owner)}: " if owner is not None else ""
        lines.append(palette.warning(f"{log.severity}: {where}{_one_line(log.message)}"))
    return lines


def _choice_text(record: ServiceRecord) -> str:
    """What the service deploys and why: its profile, or (legacy pipeline) its template and model."""
    from aim_pulumi.cli.explain import why_line

    plan = record.plan
    assert plan is not None
    template = plan.resolved_template
    if plan.resolved_profile is None and template is not None:
        model = plan.resolved_model.name if plan.resolved_model else "?"
        return f"template {template.kind} {template.name} of model {model} (template pipeline)"
    return f"profile {_profile_text(plan)} ({why_line(record)})"


def _profile_text(plan: ServicePlan) -> str:
    ref = plan.resolved_profile
    if ref is None:
        return plan.profile_name
    text = f"{ref.kind} {ref.name}"
    if plan.profile_overlay:
        text += f" + overlay {plan.profile_overlay}"
    return text


def runtime_config_text(plan: ServicePlan) -> str:
    """`AIMRuntimeConfig team-a/default`: the runtime config a service plan used."""
    rc = plan.runtime_config
    if rc is None:
        return "none (DefaultConfigNotFound)"
    where = f"{rc.ref.namespace}/{rc.ref.name}" if rc.ref.namespace else rc.ref.name
    return f"{rc.ref.kind} {where}"


def _route_text(plan: ServicePlan, status: Mapping[str, Any]) -> str:
    if plan.route is not None:
        return f"route {plan.route.path}"
    for condition in status.get("conditions") or []:
        if condition.get("type") == "HTTPRouteReady":
            return f"no route ({condition.get('reason')})"
    return "no route"


def _replicas_text(plan: ServicePlan) -> str:
    scaling = plan.scaling
    if scaling.autoscaler_class != "external":
        return f"replicas {scaling.min_replicas}"
    keda = "KEDA" if scaling.scaled_object is not None else "no ScaledObject"
    zero = ", scale from zero" if scaling.min_replicas == 0 and scaling.scaled_object is not None else ""
    return f"replicas {scaling.min_replicas}-{scaling.max_replicas} ({keda}{zero})"


def _cache_text(plan: ServicePlan) -> str:
    if not plan.caches:
        return "no cache"
    listed = ", ".join(f"{c.pvc_name} {c.size_gi}Gi" for c in plan.caches)
    return f"cache {plan.caches[0].mode} ({listed})"


# --------------------------------------------------------------------------------------------------
# Command line


def add_program_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments `plan` and `explain` share: what to run and how it is configured."""
    parser.add_argument(
        "program",
        metavar="PROGRAM",
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


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "plan",
        help="show what a program would deploy, offline",
        description="Run a Pulumi program (or AIM YAML) under the Pulumi mock engine and show every "
        "resource it would create, with no cluster contacted. Exit 0 planned, 1 the plan failed, "
        "--validate found problems or --expect-no-changes found changes, 2 usage error, "
        "3 changes found (only with --detailed-exitcode).",
    )
    add_program_arguments(parser)
    parser.add_argument(
        "--yaml", metavar="FILE", help="write every Kubernetes manifest (multi-document); - for stdout"
    )
    parser.add_argument("--json", metavar="FILE", help="write the machine-readable plan; - for stdout")
    parser.add_argument(
        "--validate",
        action="store_true",
        help="check every manifest against the vendored upstream schemas (kinds without one are listed "
        "as not validated)",
    )
    parser.add_argument(
        "--diff", metavar="OLD.json", help="compare with a plan saved with --json (- reads stdin)"
    )
    parser.add_argument(
        "--expect-no-changes",
        action="store_true",
        help="with --diff: fail (exit 1) when anything would change, as `pulumi preview --expect-no-changes`",
    )
    parser.add_argument(
        "--detailed-exitcode",
        action="store_true",
        help="with --diff: exit 0 no changes, 3 changes (1 failed and 2 usage error keep their meaning)",
    )
    parser.add_argument(
        "--quiet", action="store_true", help="print only problems: errors, warnings and schema violations"
    )
    parser.add_argument(
        "--show-secrets",
        action="store_true",
        help="write secret values in plaintext to --yaml and --json files",
    )
    parser.set_defaults(func=run)


STDOUT = "-"


def _check_outputs(args: argparse.Namespace) -> list[Path]:
    """The plan files to write, refused before anything runs when writing them would harm input.

    A plan file that is PROGRAM, inside the planned directory (the next plan would read it as
    AIM YAML), a `--catalog` path, a symlink or not a regular file is a usage error.
    """
    from aim_pulumi.api.errors import escape
    from aim_pulumi.cli.files import WriteRefused, check_target, same_or_inside

    targets = [Path(p) for p in (args.json, args.yaml) if p and p != STDOUT]
    if len(targets) == 2 and targets[0].resolve() == targets[1].resolve():
        raise UsageError(f"--json and --yaml name the same file {escape(targets[0])}")
    for target in targets:
        for source in [args.program, *args.catalog]:
            if source != STDOUT and Path(source).exists() and same_or_inside(target, Path(source)):
                raise UsageError(
                    f"{escape(target)} is {escape(source)} or inside it; write the plan elsewhere"
                )
        try:
            check_target(target)
        except WriteRefused as exc:
            raise UsageError(str(exc)) from None
    return targets


def _write_plan_files(files: list[tuple[str, str]], out: TextIO, *, secret: bool) -> None:
    """Write every plan file atomically (`-` is standard output); plaintext secrets only for the owner."""
    from aim_pulumi.cli.files import WriteFailed, WriteRefused, atomic_write

    try:
        for target, text in files:
            if target == STDOUT:
                out.write(text)
            else:
                atomic_write(Path(target), text, mode=0o600 if secret else None)
    except (WriteFailed, WriteRefused) as exc:
        _remove_stale(Path(target) for target, _ in files if target != STDOUT)
        raise UsageError(str(exc)) from None


def _remove_stale(targets: Iterable[Path]) -> None:
    """A failed plan leaves no plan file that could be mistaken for its result."""
    for target in targets:
        if target.is_file() and not target.is_symlink():
            with contextlib.suppress(OSError):
                target.unlink()


def _check_arguments(args: argparse.Namespace) -> None:
    if args.yaml == STDOUT and args.json == STDOUT:
        raise UsageError("--yaml - and --json - cannot both write to standard output")
    for flag in ("expect_no_changes", "detailed_exitcode"):
        if getattr(args, flag) and not args.diff:
            raise UsageError(f"--{flag.replace('_', '-')} needs --diff OLD.json (the plan to compare with)")
    if args.diff == STDOUT and args.program == STDOUT:
        raise UsageError("PROGRAM - and --diff - cannot both read standard input")


def run(args: argparse.Namespace, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """The `plan` command; `stdout`/`stderr` default to the process streams (tests pass buffers)."""
    from aim_pulumi.cli.progress import Progress
    from aim_pulumi.cli.stdin import program_path

    out = stdout or sys.stdout
    err = stderr or sys.stderr
    # A document written to standard output is all standard output carries: the text plan is left out.
    document_to_stdout = STDOUT in (args.yaml, args.json)
    quiet = args.quiet or document_to_stdout
    palette = palette_for(out, no_color=args.no_color)
    err_palette = palette_for(err, no_color=args.no_color)
    try:
        _check_arguments(args)
        old_plan = None
        if args.diff:
            from aim_pulumi.cli.diff import load_plan

            old_plan = load_plan(args.diff, stdin=sys.stdin)
        with program_path(args.program, sys.stdin) as path:
            program = load_program(path, stack=args.stack, config=args.config)
            targets = _check_outputs(args)
            for warning in program.warnings:
                print(err_palette.warning("warning: ") + warning, file=err)
            with Progress(err, enabled=not quiet and not args.debug):
                outcome = execute(
                    program,
                    catalogs=args.catalog,
                    debug=args.debug,
                    previous=previous_state(old_plan) if old_plan is not None else None,
                )
        if outcome.error is not None:
            _remove_stale(targets)
            if args.debug:
                traceback.print_exception(outcome.error.cause, file=err)
            for line in outcome.error.line.splitlines():
                print(err_palette.error("error: ") + line, file=err)
            return EXIT_FAILED
        recording = outcome.recording
        assert recording is not None
        files: list[tuple[str, str]] = []
        if args.json:
            document = plan_document(recording, show_secrets=args.show_secrets)
            text = json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
            files.append((args.json, text))
        if args.yaml:
            files.append((args.yaml, manifests_yaml(recording, show_secrets=args.show_secrets)))
        _write_plan_files(files, out, secret=args.show_secrets)
    except UsageError as exc:
        print(f"aim-pulumi plan: error: {exc}", file=err)
        return EXIT_USAGE
    changes = None
    if old_plan is not None:
        from aim_pulumi.cli.diff import diff_plans

        revealed = plan_document(recording, show_secrets=True)
        changes = diff_plans(old_plan, plan_document(recording), revealed)
    if not quiet:
        _print_plan(args, program, outcome, changes, palette, out)
    else:
        for line in warning_lines(recording, err_palette):
            print(line, file=err)
    code = EXIT_OK
    if args.validate:
        code = _print_validation(recording, quiet, out if not document_to_stdout else err, err, err_palette)
    if code == EXIT_OK and changes is not None and changes.changes:
        if args.expect_no_changes:
            print(
                err_palette.error("error: ")
                + f"--expect-no-changes: {changes.summary()} against {args.diff}",
                file=err,
            )
            return EXIT_FAILED
        if args.detailed_exitcode:
            return EXIT_CHANGES
    return code


def _print_plan(
    args: argparse.Namespace,
    program: Program,
    outcome: PlanRun,
    changes: PlanDiff | None,
    palette: Palette,
    out: TextIO,
) -> None:
    recording = outcome.recording
    assert recording is not None
    if changes is not None:
        from aim_pulumi.cli.diff import diff_lines, identity_note

        print(
            palette.bold(f"Changes for {program.project} (stack {program.stack}) against {args.diff}:"),
            file=out,
        )
        note = identity_note(changes)
        if note:
            print(palette.warning(note), file=out)
        for line in diff_lines(changes, palette):
            print(line, file=out)
    else:
        count = len(recording.resources)
        noun = "resource" if count == 1 else "resources"
        print(
            palette.bold(f"Plan for {program.project} (stack {program.stack}): {count} {noun} to create"),
            file=out,
        )
        for line in tree_lines(recording, palette):
            print(line, file=out)
    summaries = service_summaries(outcome, palette) + warning_lines(recording, palette, services=False)
    summaries += [palette.dim(f"note: {line}") for line in skipped_lines(program)]
    if summaries:
        print("", file=out)
        for line in summaries:
            print(line, file=out)
    if changes is None:
        lines = output_lines(recording, palette)
        if lines:
            print("", file=out)
            for line in lines:
                print(line, file=out)


def skipped_lines(program: Program) -> list[str]:
    """For AIM YAML: the files and documents that are not deployed (`kustomization.yaml`, ...)."""
    if program.kind != "manifests":
        return []
    from aim_pulumi.api import AIMValidationError
    from aim_pulumi.api.sources import read_manifest_set

    try:
        skipped = read_manifest_set(program.path).skipped
    except (OSError, AIMValidationError):  # changed since the plan read it: the plan stands as it ran
        return []
    return [replace(s, file=_display_path(Path(s.file))).line for s in skipped]


def output_lines(recording: PlanRecording, palette: Palette) -> list[str]:
    """The stack outputs as `pulumi preview` ends with them: `Outputs:`, then `name: value` lines."""
    outputs = redact_secrets(recording.stack_outputs())
    if not outputs:
        return []
    from aim_pulumi.cli.render import format_value

    width = max(len(name) for name in outputs)
    lines = [palette.bold("Outputs:")]
    for name in sorted(outputs):
        lines.append(f"    {name.ljust(width)}: {format_value(outputs[name], None)}")
    return lines


def _print_validation(
    recording: PlanRecording, quiet: bool, out: TextIO, err: TextIO, err_palette: Palette
) -> int:
    from aim_pulumi.schemas import manifest_identity

    problems = validation_problems(recording)
    for problem in problems:
        print(err_palette.error("invalid: ") + problem, file=err)
    unvalidated = unvalidated_manifests(recording)
    manifests = len(recording.kubernetes())
    if problems:
        print(f"{len(problems)} schema violation(s) in {manifests} manifest(s)", file=err)
        return EXIT_FAILED
    if not quiet:
        for manifest in unvalidated:
            print(f"not validated (no vendored schema): {manifest_identity(manifest)}", file=out)
        checked = manifests - len(unvalidated)
        print(f"{checked} manifests valid against the vendored schemas", file=out)
    return EXIT_OK
