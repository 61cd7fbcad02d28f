"""A policy pack run on an offline plan: the pack's own policy objects, configured as the engine
configures them, judging the resources the plan recorded.

`load_pack` reads a policy-pack directory's `__main__.py` as a module (not as `__main__`, so it
does not serve) and takes its `pack`; `evaluate` reconciles the configuration as the Pulumi CLI
does (`ReconcilePolicyPackConfig` in pkg/resource/analyzer: each policy's schema defaults and
level, then the pack's initial configuration, then the user's file, each with an `all` level
first), validates it against each policy's schema, and calls every stack policy with the stack's
resources and every resource policy with each resource, as the policy SDK's analyzer does.
Hand-written because the SDK's analyzer only runs as the engine's gRPC server.
"""

from __future__ import annotations

import inspect
import json
import runpy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped, unused-ignore]
from pulumi_policy import (
    EnforcementLevel,
    Policy,
    PolicyCustomTimeouts,
    PolicyResource,
    PolicyResourceOptions,
    ResourceValidationArgs,
    ResourceValidationPolicy,
    StackValidationArgs,
    StackValidationPolicy,
)

from aim_pulumi.policy.pack import AIMPolicyPack
from aim_pulumi.policy.stack import Resource

__all__ = ["PolicyPackError", "Verdict", "evaluate", "load_config", "load_pack"]


class PolicyPackError(Exception):
    """A pack directory, its configuration or a policy that cannot be run, in one line."""


@dataclass(frozen=True)
class Verdict:
    """One violation as `pulumi preview` reports it: the policy, its level, the message, the URN."""

    policy: str
    enforcement: str
    message: str
    urn: str

    @property
    def mandatory(self) -> bool:
        return self.enforcement == "mandatory"


def load_pack(directory: Path) -> AIMPolicyPack:
    """The `pack` a policy-pack directory's `__main__.py` defines."""
    main = directory / "__main__.py"
    if not (directory / "PulumiPolicy.yaml").is_file():
        raise PolicyPackError(f"{directory}: not a policy pack (no PulumiPolicy.yaml)")
    if not main.is_file():
        raise PolicyPackError(f"{directory}: no __main__.py")
    try:
        module = runpy.run_path(str(main), run_name="aim_pulumi_policy_pack")
    except Exception as error:
        raise PolicyPackError(f"{main}: {type(error).__name__}: {error}") from error
    pack = module.get("pack")
    if not isinstance(pack, AIMPolicyPack):
        raise PolicyPackError(
            f"{main}: defines no `pack = AIMPolicyPack(...)` (the offline plan runs the pack it defines)"
        )
    return pack


def load_config(path: Path | None) -> dict[str, Any]:
    """A `--policy-pack-config` file: policy name -> level or {enforcementLevel, properties...};
    the `version: 2` form keeps them under `policies`."""
    if path is None:
        return {}
    try:
        document = json.loads(path.read_text() or "{}")
    except (OSError, ValueError) as error:
        raise PolicyPackError(f"{path}: {error}") from error
    if not isinstance(document, dict):
        raise PolicyPackError(f"{path}: a policy pack configuration is a JSON object")
    if "version" in document:
        if document["version"] != 2:
            raise PolicyPackError(f'{path}: "version" must be 2')
        document = document.get("policies") or {}
    return {k: v for k, v in document.items() if k != "environments"}


_LEVELS = {level.value: level for level in EnforcementLevel}


def _split(name: str, value: Any, where: str) -> tuple[str | None, dict[str, Any]]:
    if isinstance(value, EnforcementLevel):
        return value.value, {}
    if isinstance(value, str):
        if value not in _LEVELS:
            raise PolicyPackError(f"{where}: {name}: {value!r} is not an enforcement level")
        return value, {}
    if isinstance(value, Mapping):
        props = dict(value)
        level = props.pop("enforcementLevel", None)
        if isinstance(level, EnforcementLevel):
            level = level.value
        if level is not None and level not in _LEVELS:
            raise PolicyPackError(f"{where}: {name}: {level!r} is not an enforcement level")
        return level, props
    raise PolicyPackError(f"{where}: {name}: must be an enforcement level or an object")


def _apply(result: dict[str, tuple[str, dict[str, Any]]], given: Mapping[str, Any], where: str) -> None:
    if "all" in given:
        level, _ = _split("all", given["all"], where)
        if level is not None:
            for name, (_, props) in result.items():
                result[name] = (level, props)
    for name, value in given.items():
        if name == "all":
            continue
        level, props = _split(name, value, where)
        old_level, old_props = result.get(name, ("advisory", {}))
        result[name] = (level or old_level, {**old_props, **props})


def reconcile(pack: AIMPolicyPack, config: Mapping[str, Any]) -> dict[str, tuple[str, dict[str, Any]]]:
    """Each policy's enforcement level and properties, as the CLI sends them to the analyzer."""
    pack_level = (pack.enforcement_level or EnforcementLevel.ADVISORY).value
    result: dict[str, tuple[str, dict[str, Any]]] = {}
    for policy in pack.policies:
        schema = policy.config_schema.properties if policy.config_schema else {}
        defaults = {k: v["default"] for k, v in schema.items() if "default" in v}
        level = policy.enforcement_level.value if policy.enforcement_level else pack_level
        result[policy.name] = (level, defaults)
    _apply(result, pack.initial_config, "the pack's initial configuration")
    _apply(result, config, "the policy pack configuration")
    for policy in pack.policies:
        if policy.config_schema is None:
            continue
        full_schema: dict[str, Any] = {
            "type": "object",
            "properties": policy.config_schema.properties,
            "required": policy.config_schema.required or [],
        }
        try:
            jsonschema.validate(result[policy.name][1], full_schema)
        except jsonschema.ValidationError as error:
            path = ".".join(str(p) for p in error.absolute_path)
            raise PolicyPackError(f"{policy.name}: {path or 'config'}: {error.message}") from None
    return result


def _policy_resources(resources: Sequence[Resource]) -> list[PolicyResource]:
    by_urn: dict[str, PolicyResource] = {}
    made = []
    for r in resources:
        made_one = PolicyResource(
            resource_type=r.type,
            props=r.props,
            urn=r.urn,
            name=r.name,
            opts=PolicyResourceOptions(
                False, [], None, [], PolicyCustomTimeouts(0, 0, 0), [], r.parent or None
            ),
            provider=None,
            parent=by_urn.get(r.parent),
            dependencies=[],
            property_dependencies={},
        )
        by_urn[r.urn] = made_one
        made.append(made_one)
    return made


def evaluate(
    pack: AIMPolicyPack, resources: Sequence[Resource], config: Mapping[str, Any] | None = None
) -> list[Verdict]:
    """Every violation the pack's policies report for these resources (children after parents,
    as registered), in policy order, then in the order each policy reported them."""
    levels = reconcile(pack, config or {})
    stack = _policy_resources(resources)
    verdicts: list[Verdict] = []
    for policy in pack.policies:
        level, props = levels[policy.name]
        if level == "disabled":
            continue
        shown = "mandatory" if level == "remediate" else level
        verdicts.extend(_run(policy, shown, props, stack))
    return verdicts


def _run(policy: Policy, level: str, props: dict[str, Any], stack: list[PolicyResource]) -> list[Verdict]:
    found: list[Verdict] = []

    def report(message: str, urn: str | None = None) -> None:
        found.append(Verdict(policy.name, level, message, urn or ""))

    try:
        if isinstance(policy, StackValidationPolicy):
            _settle(policy.validate(StackValidationArgs(stack, props), report))
        elif isinstance(policy, ResourceValidationPolicy):
            for resource in stack:
                args = ResourceValidationArgs(
                    resource.resource_type,
                    resource.props,
                    resource.urn,
                    resource.name,
                    resource.opts,
                    resource.provider,
                    props,
                )

                def report_one(message: str, urn: str | None = None, at: str = resource.urn) -> None:
                    report(message, urn or at)

                _settle(policy.validate(args, report_one))
    except Exception as error:
        if type(error).__name__ == "_NotApplicableError":  # args.not_applicable(): no verdict
            return []
        raise PolicyPackError(f"policy {policy.name} failed: {type(error).__name__}: {error}") from error
    return found


def _settle(result: Any) -> None:
    if inspect.isawaitable(result):
        import asyncio

        async def wait() -> None:
            await result

        asyncio.run(wait())
