"""`aim-pulumi plan --diff OLD.json`: the lines a reviewer reads, from the diff the offline package
computes (`aim_pulumi/offline/plan_diff.py`)."""

from __future__ import annotations

from typing import Any

from aim_pulumi.api.errors import escape
from aim_pulumi.cli.render import Palette, format_value
from aim_pulumi.offline.plan_diff import ABSENT, PlanDiff

__all__ = ["diff_lines"]


def _show(value: Any) -> str:
    """The whole value: a reviewer must see the change itself, not its first 70 characters."""
    return "(absent)" if value is ABSENT else format_value(value, None)


def diff_lines(diff: PlanDiff, palette: Palette) -> list[str]:
    """The change report: one line per changed resource, its changed fields indented under it."""
    lines: list[str] = []
    marks = {
        "create": ("+", palette.create),
        "update": ("~", palette.update),
        "replace": ("+-", palette.delete),
        "delete": ("-", palette.delete),
    }
    for change in diff.changes:
        mark, paint = marks[change.action]
        suffix = "  replace" if change.action == "replace" else ""
        lines.append(paint(escape(f" {mark} {change.label}  ({change.type} {change.name}){suffix}")))
        for item in change.fields:
            forces = "  (forces replacement)" if item.path in change.replacing else ""
            lines.append(escape(f"     {item.path}: {_show(item.old)} -> {_show(item.new)}{forces}"))
    if diff.outputs:
        lines.append(palette.bold("Outputs:"))
        for name, item in diff.outputs:
            where = f"{name}: {item.path}" if item.path else name
            lines.append(escape(f"   ~ {where}: {_show(item.old)} -> {_show(item.new)}"))
    lines.append(palette.bold(diff.summary()))
    return lines
