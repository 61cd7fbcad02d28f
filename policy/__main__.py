"""The AIM guardrails policy pack (docs/policy.md).

`pulumi preview --policy-pack policy` serves `pack`; `aim-pulumi plan --policy-pack policy` runs
the same `pack` offline. Levels and properties come from the policies' defaults, then
`initial_config` here, then the `--policy-pack-config` file (policy/example-config.json).
"""

from aim_pulumi.policy import AIMPolicyPack, guardrail_policies

pack = AIMPolicyPack("aim-guardrails", guardrail_policies())

if __name__ == "__main__":
    pack.serve()
