"""One import, start to end: a dump's objects in; the AIM YAML (or program), the report and the
`pulumi import` document out, nothing written.

The planner is handed in (`Planner`): it plans the files it is given as `aim-pulumi plan` would
and returns what it planned (`PlannedStack`), or None when the plan failed (having said why). The
command supplies it, since running a program is the offline engine's business, not adoption's.

The sequence: the dump's AIM objects are cleaned and planned; the adoption records (what each
service keeps of the operator's objects: `aim_pulumi.adopt.keep`) are taken from that plan and
the YAML is planned again with them, so the first `up` leaves the pods alone; with
`--format python` the same objects are written as a program and that program is planned, so the
import document names its resources. The plan is then matched with the live objects.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from aim_pulumi.adopt.dump import (
    Dump,
    aim_files,
    clean_documents,
    duplicate_problems,
    identity_problems,
    object_key,
    split_dump,
)
from aim_pulumi.adopt.keep import adoption_records, note_kept, operator_names
from aim_pulumi.adopt.matching import Adoption, Child, PlannedStack, adopt, import_document
from aim_pulumi.adopt.program import python_program
from aim_pulumi.adopt.removal import Release, applied_without_force, releases, removal_steps

__all__ = ["ImportFailed", "Imported", "Planner", "Started", "start_import"]

Planner = Callable[[Mapping[str, str]], PlannedStack | None]
"""Files by path relative to the output directory in, their plan out (None: it failed, and said why)."""


class ImportFailed(Exception):
    """The import cannot go on (the dump holds no service, a plan failed); nothing is written."""


@dataclass
class Imported:
    """What an import decided: the files to write (by path relative to the output directory),
    the adoption, what blocks `import.json`, the removal steps, and the report and import document;
    `released`: the removal's step 2, child by child (`aim_pulumi.adopt.removal.releases`)."""

    files: dict[str, str]
    adoption: Adoption
    blocking: list[Child]
    steps: list[tuple[str, list[str]]]
    report: dict[str, Any]
    import_document: dict[str, Any] | None
    dump: Dump
    released: list[Release] = field(default_factory=list)


@dataclass
class Started:
    """A dump sorted out, before anything is planned: its AIM files are known (`files`), so the
    caller can check where they go before the plans run."""

    dump: Dump
    others: list[dict[str, Any]] = field(default_factory=list)

    @property
    def files(self) -> dict[str, str]:
        return aim_files(self.dump)

    def finish(
        self,
        planner: Planner,
        *,
        python: bool = False,
        allow_replace: bool = False,
        operator_namespace: str,
        operator_deployment: str,
    ) -> Imported:
        """Plan, keep, plan again and match (module docstring); raises `ImportFailed`."""
        dump = self.dump
        fresh = planner(aim_files(dump))
        if fresh is None:
            raise ImportFailed("the AIM YAML of the dump does not plan; nothing written")
        # A listed object tied to no AIM object is adopted only where the plan names it: it exists,
        # so the first `up` must not try to create it.
        planned = fresh.kubernetes_keys()
        dump.live.extend(o for o in self.others if object_key(o) in planned)
        records = adoption_records(fresh, dump)
        plan = fresh
        files = aim_files(dump)
        if records:
            files = aim_files(dump, records)
            kept = planner(files)
            if kept is None:
                raise ImportFailed("the adopted AIM YAML does not plan; nothing written")
            plan = kept
            dump.live.extend(o for o in self.others if object_key(o) in plan.kubernetes_keys() - planned)
        if python:
            # The same objects as a program; its plan names the resources import.json lists.
            files = python_program(clean_documents(dump.aim, records))
            program = planner(files)
            if program is None:
                raise ImportFailed("the Python program does not plan; nothing written")
            plan = program
        adoption = adopt(dump, plan)
        if records:
            note_kept(adoption, adopt(dump, fresh.renamed(operator_names(records))), records)
        blocking = adoption.blocking()
        blocked = bool(blocking) and not allow_replace
        # Every adopted child Pulumi applies without force has its field ownership reset too.
        unforced = [c.live for c in adoption.adopted if c.live and applied_without_force(c.manifest)]
        released = releases(dump, unforced)
        steps = removal_steps(
            dump,
            operator_namespace=operator_namespace,
            operator_deployment=operator_deployment,
            released=released,
        )
        report = {
            "summary": _summary(adoption),
            "services": [r.to_json() for r in adoption.services],
            "notManaged": [
                {
                    "kind": object_key(o)[1],
                    "namespace": object_key(o)[2],
                    "name": object_key(o)[3],
                    "why": why,
                }
                for o, why in adoption.unmanaged
            ],
            "blocking": [c.to_json() for c in blocking],
            "importWritten": not blocked,
            "operatorRemoval": [{"step": what, "commands": commands} for what, commands in steps],
            "fieldManagersKept": [
                {
                    "kind": object_key(r.obj)[1],
                    "namespace": object_key(r.obj)[2],
                    "name": object_key(r.obj)[3],
                    "why": r.kept,
                }
                for r in released
                if r.kept
            ],
        }
        document = None if blocked else import_document(plan, adoption)
        return Imported(files, adoption, blocking, steps, report, document, dump, released)


def start_import(
    objects: list[dict[str, Any]],
    others: list[dict[str, Any]],
    label: str,
    places: list[str] | None = None,
) -> Started:
    """Sort out a dump's objects (`others`: listed objects tied to no AIM object); raises
    `ImportFailed` when they hold no AIMService (`label` says where they were read), or when an
    object's identity is none the API server holds or one object is listed twice differently
    (`aim_pulumi.adopt.dump.identity_problems`, `duplicate_problems`: every such problem, one a
    line). `places` says where each object was read (default: its position in `label`)."""
    where = places if places is not None else [f"{label}, object {i}" for i in range(1, len(objects) + 1)]
    problems = identity_problems([*objects, *others], [*where, *(label for _ in others)])
    unique, duplicates = duplicate_problems(objects, where)
    problems.extend(duplicates)
    if problems:
        raise ImportFailed("\n".join([*problems, f"{len(problems)} problem(s) in {label}; nothing written"]))
    dump = split_dump(unique)
    if not dump.services:
        raise ImportFailed(f"no AIMService in {label}")
    return Started(dump, others)


def _summary(adoption: Adoption) -> dict[str, int]:
    adopted = adoption.adopted
    return {
        "adopted": len(adopted),
        "toCreate": len([c for c in adoption.children if c.live is None]),
        "replaced": len([c for c in adopted if "replaces" in c.effects()]),
        "refused": len([c for c in adopted if "refused" in c.effects()]),
        "rollsPods": len([c for c in adopted if "rolls-pods" in c.effects()]),
        "changed": len([c for c in adopted if c.changes]),
        "notManaged": len(adoption.unmanaged) + sum(len(r.unmanaged) for r in adoption.services),
    }
