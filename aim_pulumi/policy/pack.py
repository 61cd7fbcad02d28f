"""The guardrails as CrossGuard policies (`pulumi-policy`), and the pack a policy-pack directory serves.

A policy-pack directory (`policy/` in this repository) is a `PulumiPolicy.yaml` beside a
`__main__.py` that builds one `AIMPolicyPack` named `pack` and serves it:

    from aim_pulumi.policy import AIMPolicyPack, guardrail_policies

    pack = AIMPolicyPack("aim-guardrails", guardrail_policies())
    if __name__ == "__main__":
        pack.serve()

Under `pulumi preview --policy-pack DIR` the engine runs that file and talks to the server
`serve` starts; `aim-pulumi plan --policy-pack DIR` loads the same file as a module and reads
`pack` (`aim_pulumi/policy/offline.py`), so both run the same policy objects, a pack's own
`pulumi-policy` policies included. Each guardrail is a stack policy: it reads every component's
registered outputs and every child's planned object, which only the stack's whole graph has.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pulumi_policy import (
    EnforcementLevel,
    Policy,
    PolicyConfigSchema,
    PolicyPack,
    PolicyResource,
    ReportViolation,
    Severity,
    StackValidationArgs,
    StackValidationPolicy,
)

from aim_pulumi.policy.guardrails import GUARDRAILS, Guardrail
from aim_pulumi.policy.stack import Resource, StackView

__all__ = ["AIMPolicyPack", "guardrail_policies", "stack_view"]


def plain(value: Any) -> Any:
    """A property as plain dicts and lists. The policy SDK wraps each one in a proxy that raises when
    a value the preview does not know is read, which would stop the whole policy at the first unknown
    value of any resource; the guardrails skip unknown values themselves (`stack.is_known`)."""
    if isinstance(value, str | bytes) or not isinstance(value, Mapping | Sequence):
        return value
    wrapped: Any = value
    try:
        raw = wrapped["__target"]  # the proxy's wrapped value
    except (KeyError, TypeError, IndexError):
        raw = value
    if isinstance(raw, Mapping):
        return {k: plain(v) for k, v in raw.items()}
    return [plain(v) for v in raw]


def stack_view(resources: Sequence[PolicyResource]) -> StackView:
    """The guardrails' view of the resources the policy SDK hands a stack policy."""
    return StackView(
        [
            Resource(
                type=r.resource_type,
                urn=r.urn,
                name=r.name,
                props=plain(r.props),
                parent=r.parent.urn if r.parent is not None else "",
            )
            for r in resources
        ]
    )


def _policy(guardrail: Guardrail, enforcement: EnforcementLevel | None) -> StackValidationPolicy:
    def validate(args: StackValidationArgs, report_violation: ReportViolation) -> None:
        # The engine hands over the reconciled configuration (schema defaults, the pack's initial
        # configuration, then the user's file); `run` fills a default only where it is missing.
        for violation in guardrail.run(stack_view(args.resources), args.get_config()):
            report_violation(violation.message, violation.urn)

    return StackValidationPolicy(
        name=guardrail.name,
        description=guardrail.description,
        validate=validate,
        enforcement_level=enforcement or EnforcementLevel(guardrail.enforcement),
        config_schema=PolicyConfigSchema({k: dict(v) for k, v in guardrail.config.items()}),
        severity=Severity(guardrail.severity),
        remediation_steps=guardrail.remediation,
        tags=["aim"],
    )


def guardrail_policies(
    enforcement: Mapping[str, EnforcementLevel] | None = None,
    only: Sequence[str] | None = None,
) -> list[Policy]:
    """Every AIM guardrail as a stack policy, at its default enforcement level unless `enforcement`
    names another (by policy name); `only` keeps the named ones. A pack's configuration file
    overrides both at run time (`"aim-gpu-quota": "advisory"`)."""
    levels = dict(enforcement or {})
    chosen = [g for g in GUARDRAILS if only is None or g.name in only]
    unknown = set(levels) - {g.name for g in GUARDRAILS} | set(only or ()) - {g.name for g in GUARDRAILS}
    if unknown:
        names = ", ".join(g.name for g in GUARDRAILS)
        raise ValueError(f"no AIM guardrail named {', '.join(sorted(unknown))} (there are: {names})")
    return [_policy(g, levels.get(g.name)) for g in chosen]


@dataclass
class AIMPolicyPack:
    """A policy pack's definition, apart from serving it: the engine serves it (`serve`), the
    offline plan runs its policies without a server."""

    name: str
    policies: list[Policy]
    enforcement_level: EnforcementLevel | None = None
    initial_config: dict[str, Any] = field(default_factory=dict)
    description: str | None = None

    def serve(self) -> None:
        """Serve the pack to the engine (does not return: the engine stops the process)."""
        PolicyPack(
            self.name,
            self.policies,
            enforcement_level=self.enforcement_level,
            initial_config=self.initial_config or None,
            description=self.description,
        )
