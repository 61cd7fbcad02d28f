"""AIM guardrails as a CrossGuard policy pack, runnable under the engine and on an offline plan.

`aim_pulumi.policy.guardrails` holds the rules (pure checks of a `StackView`), `.pack` wraps them
as `pulumi-policy` stack policies and defines the pack a policy-pack directory serves, `.offline`
runs a pack's policies on an offline plan (`aim-pulumi plan --policy-pack DIR`). Importing this
package loads only the pure parts; `AIMPolicyPack` and `guardrail_policies` need the `policy`
extra (`pip install 'aim-pulumi[policy]'`), which brings `pulumi-policy`.
"""

from typing import TYPE_CHECKING, Any

from aim_pulumi.policy.guardrails import GUARDRAILS, Guardrail, Violation
from aim_pulumi.policy.stack import Resource, ServiceView, StackView

if TYPE_CHECKING:
    from aim_pulumi.policy.pack import AIMPolicyPack, guardrail_policies

__all__ = [
    "GUARDRAILS",
    "AIMPolicyPack",
    "Guardrail",
    "Resource",
    "ServiceView",
    "StackView",
    "Violation",
    "guardrail_policies",
]


def __getattr__(name: str) -> Any:
    # pulumi-policy is an extra: the pure guardrails import without it.
    if name in ("AIMPolicyPack", "guardrail_policies"):
        from aim_pulumi.policy import pack

        return getattr(pack, name)
    raise AttributeError(f"module 'aim_pulumi.policy' has no attribute {name!r}")
