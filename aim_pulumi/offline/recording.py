"""What an offline run recorded: every registration, registered output and log message, in order.

`engine.run_program` fills a `PlanRecording`; the plan's tree, files and summary read it, and so do
the tests. Values are held as the engine received them (Pulumi's secret wrappers included);
`plain` unwraps them to what the cluster would receive.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from pulumi.dynamic.dynamic import PROVIDER_KEY
from pulumi.runtime import rpc

__all__ = ["DynamicCheckFailed", "LogRecord", "PlanRecording", "RecordedResource", "plain"]


def plain(value: Any) -> Any:
    """A recorded value with Pulumi's secret wrappers removed (what the cluster would receive)."""
    if rpc.is_rpc_secret(value):
        return plain(value["value"])
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


class DynamicCheckFailed(Exception):
    """A dynamic provider's `check` rejected its inputs, as the engine would report it."""

    def __init__(self, resource_name: str, failures: Sequence[tuple[str, str]]) -> None:
        self.resource_name = resource_name
        self.failures = tuple(failures)
        detail = "; ".join(f"{prop}: {reason}" for prop, reason in self.failures)
        super().__init__(f"{resource_name}: {detail}")


@dataclass(frozen=True)
class RecordedResource:
    """One RegisterResource call: what was declared and with which options."""

    type: str
    name: str
    urn: str
    parent: str
    custom: bool
    inputs: dict[str, Any]
    outputs: dict[str, Any]
    id: str
    dependencies: tuple[str, ...]
    property_dependencies: dict[str, tuple[str, ...]]
    retain_on_delete: bool
    protect: bool
    delete_before_replace: bool
    ignore_changes: tuple[str, ...]
    replace_on_changes: tuple[str, ...]
    custom_timeouts: dict[str, str]
    provider: str
    providers: dict[str, str]

    @property
    def manifest(self) -> dict[str, Any]:
        """The Kubernetes object a pulumi-kubernetes child would apply, secrets unwrapped.

        An object declared without `metadata.name` (nor `generateName`) is auto-named by the
        provider (`<Pulumi name>-<random suffix>`), which an offline run cannot know: its name is
        unknown here, as any value known only once the engine runs.
        """
        return self.auto_named({k: v for k, v in plain(self.inputs).items() if k != PROVIDER_KEY})

    def auto_named(self, manifest: dict[str, Any]) -> dict[str, Any]:
        """`manifest` with the name the provider gives an object declared without one: unknown."""
        if not (self.custom and self.type.startswith("kubernetes:")):
            return manifest
        metadata = manifest.get("metadata")
        metadata = dict(metadata) if isinstance(metadata, dict) else {}
        if metadata.get("name") or metadata.get("generateName"):
            return manifest
        return {**manifest, "metadata": {**metadata, "name": rpc.UNKNOWN}}


@dataclass(frozen=True)
class LogRecord:
    """One `pulumi.log` message and the resource it was attached to (empty URN for none)."""

    severity: str
    message: str
    urn: str


@dataclass
class PlanRecording:
    """Everything a program run declared, in registration order."""

    project: str
    stack: str
    resources: list[RecordedResource] = field(default_factory=list)
    outputs: dict[str, dict[str, Any]] = field(default_factory=dict)
    logs: list[LogRecord] = field(default_factory=list)

    def by_name(self, name: str) -> RecordedResource:
        """The one resource registered under a Pulumi name; KeyError names what exists."""
        found = [r for r in self.resources if r.name == name]
        if len(found) != 1:
            raise KeyError(f"{len(found)} resources named {name!r}; registered: {self.names()}")
        return found[0]

    def get(self, name: str) -> RecordedResource | None:
        found = [r for r in self.resources if r.name == name]
        return found[0] if len(found) == 1 else None

    def names(self) -> list[str]:
        return [r.name for r in self.resources]

    def of_type(self, type_: str) -> list[RecordedResource]:
        return [r for r in self.resources if r.type == type_]

    def children(self, parent: str | RecordedResource) -> list[RecordedResource]:
        """Resources whose parent is the given resource (by URN, Pulumi name or record)."""
        urn = parent.urn if isinstance(parent, RecordedResource) else parent
        if not urn.startswith("urn:"):
            urn = self.by_name(urn).urn
        return [r for r in self.resources if r.parent == urn]

    def kubernetes(self) -> list[RecordedResource]:
        return [r for r in self.resources if r.type.startswith("kubernetes:")]

    def outputs_of(self, name: str) -> dict[str, Any]:
        """The outputs a component registered (`register_outputs`), by Pulumi name."""
        return self.outputs.get(self.by_name(name).urn, {})

    def stack_outputs(self) -> dict[str, Any]:
        for urn, outs in self.outputs.items():
            if "::pulumi:pulumi:Stack::" in urn:
                return outs
        return {}

    def messages(self, severity: str | None = None, urn: str | None = None) -> list[str]:
        return [
            r.message
            for r in self.logs
            if (severity is None or r.severity == severity) and (urn is None or r.urn == urn)
        ]

    def iter_manifests(self) -> Iterator[dict[str, Any]]:
        for r in self.kubernetes():
            yield r.manifest
