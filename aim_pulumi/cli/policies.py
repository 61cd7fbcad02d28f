"""`plan --policy-pack DIR`: the pack's policies on the plan's recording, and their verdicts printed.

The evaluation is `aim_pulumi.policy.offline`'s (the pack's own policy objects, configured as the
Pulumi CLI configures them); this module only hands it the recorded resources (a component's
registered outputs, a child's planned object, as the engine hands a stack policy) and prints what
it reports, as `pulumi preview --policy-pack` lists violations.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from aim_pulumi.cli.common import UsageError
from aim_pulumi.offline.recording import plain

if TYPE_CHECKING:
    from aim_pulumi.cli.render import Palette
    from aim_pulumi.offline.recording import PlanRecording
    from aim_pulumi.policy.offline import Verdict
    from aim_pulumi.policy.pack import AIMPolicyPack
    from aim_pulumi.policy.stack import Resource

__all__ = ["LoadedPack", "load", "print_verdicts", "run_packs"]

POLICY_EXTRA = "aim-pulumi[policy]"


class LoadedPack:
    """A pack directory with its pack and configuration, read before the program runs."""

    def __init__(self, directory: Path, pack: AIMPolicyPack, config: dict[str, object]) -> None:
        self.directory = directory
        self.pack = pack
        self.config = config


def load(directories: Sequence[str], configs: Sequence[str]) -> list[LoadedPack]:
    """Each `--policy-pack DIR` with its `--policy-pack-config FILE`, paired in order as pulumi pairs them."""
    if not directories:
        if configs:
            raise UsageError("--policy-pack-config needs --policy-pack DIR")
        return []
    if configs and len(configs) != len(directories):
        raise UsageError("give one --policy-pack-config per --policy-pack, or none")
    try:
        from aim_pulumi.policy.offline import PolicyPackError, load_config, load_pack
    except ImportError:
        raise UsageError(f"--policy-pack needs pulumi-policy: pip install '{POLICY_EXTRA}'") from None
    loaded = []
    for index, directory in enumerate(directories):
        try:
            config = load_config(Path(configs[index])) if configs else {}
            loaded.append(LoadedPack(Path(directory), load_pack(Path(directory)), config))
        except PolicyPackError as error:
            raise UsageError(str(error)) from None
    return loaded


def stack_resources(recording: PlanRecording) -> list[Resource]:
    from aim_pulumi.policy.stack import Resource

    return [
        Resource(
            type=r.type,
            urn=r.urn,
            name=r.name,
            props=r.manifest if r.custom else plain(recording.outputs.get(r.urn, {})),
            parent=r.parent,
        )
        for r in recording.resources
    ]


def run_packs(
    packs: Sequence[LoadedPack], recording: PlanRecording
) -> list[tuple[LoadedPack, list[Verdict]]]:
    from aim_pulumi.policy.offline import PolicyPackError, evaluate

    resources = stack_resources(recording)
    try:
        return [(pack, evaluate(pack.pack, resources, pack.config)) for pack in packs]
    except PolicyPackError as error:
        raise UsageError(str(error)) from None


def print_verdicts(
    results: Sequence[tuple[LoadedPack, list[Verdict]]], palette: Palette, out: TextIO, quiet: bool
) -> bool:
    """Print each pack's violations; True when one is mandatory (the plan then fails)."""
    failed = False
    for pack, verdicts in results:
        if quiet and not verdicts:
            continue
        print("", file=out)
        print(palette.bold(f"Policies: {pack.pack.name} ({pack.directory})"), file=out)
        for verdict in verdicts:
            level = f"[{verdict.enforcement}]"
            paint = palette.error if verdict.mandatory else palette.warning
            print(f"  {paint(level)} {verdict.policy}: {verdict.message}", file=out)
        mandatory = sum(v.mandatory for v in verdicts)
        failed = failed or mandatory > 0
        if not verdicts:
            print("  no violations", file=out)
        else:
            print(f"  {len(verdicts)} violation(s), {mandatory} mandatory", file=out)
    return failed
