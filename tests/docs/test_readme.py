"""The README is a user's path: short, in a reader's order, its examples programs that keep working,
and a link to every page of `docs/` for the rest. Every block of it also runs in test_docs.py."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml
from docblocks import README, ROOT, page_blocks

from aim_pulumi.schemas import validate_manifest
from tests.versions import parse

TEXT = README.read_text()
BLOCKS = page_blocks(Path("README.md"))

# What a user looks for, in the order they need it.
SECTIONS = [
    "Install",
    "Quick start",
    "A program",
    "From YAML",
    "On a cluster",
    "Moving from the operator",
    "Other languages",
    "Documentation",
]


def section(title: str) -> str:
    return TEXT.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_the_readme_is_short_and_in_a_user_s_order() -> None:
    assert len(TEXT.splitlines()) <= 300
    assert re.findall(r"^## (.+)$", TEXT, flags=re.M) == SECTIONS


def test_the_readme_links_every_page_of_the_docs() -> None:
    linked = set(re.findall(r"\]\((docs/[^)#]+)", TEXT))
    assert linked == {f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md")}


def test_quick_start_has_exactly_the_two_documented_commands() -> None:
    quick_start = section("Quick start")
    setup = next(b for b in BLOCKS if b.norun == "quick-start")
    assert setup.source in quick_start
    commands = [line for line in setup.source.splitlines() if line.strip()]
    # The main job installs what it needs, not the test tools.
    assert commands[0].startswith("pip install -e . && aim-pulumi plan examples/quickstart")
    assert commands[1].startswith("pip install -e '.[test]' && pytest")
    assert len(commands) == 2
    # The plan the first command prints is the next block, run and compared by test_docs.py.
    shown = BLOCKS[BLOCKS.index(setup) + 1]
    assert shown.language == "console" and shown.source.startswith("$ aim-pulumi plan examples/quickstart\n")


def test_ci_runs_what_the_quick_start_says() -> None:
    """The two commands cannot run inside the suite they start; CI runs both, on a fresh virtualenv."""
    ci = (ROOT / ".ci" / "run").read_text()
    assert re.search(r"^uv pip install .*-e '\.\[test\]'", ci, flags=re.M)
    assert re.search(r"^aim-pulumi plan examples/quickstart\b", ci, flags=re.M)
    assert re.search(r"^pytest$", ci, flags=re.M)


def test_python_example_plans_valid_children(recording: Any) -> None:
    source = next(b.source for b in BLOCKS if b.language == "python" and "AIMService(" in b.source)
    result = recording(lambda: exec(compile(source, "README.md", "exec"), {}))
    kinds = sorted(r.inputs.get("kind", "") for r in result.resources if r.type.startswith("kubernetes:"))
    assert kinds == ["HTTPRoute", "InferenceService", "Job", "PersistentVolumeClaim"]
    for resource in result.resources:
        if resource.type.startswith("kubernetes:") and "kind" in resource.inputs:
            assert validate_manifest(resource.inputs) == [], resource.name


def test_yaml_example_is_a_valid_aim_service() -> None:
    block = next(b for b in BLOCKS if b.language == "yaml")
    kinds = [parse(document).kind for document in yaml.safe_load_all(block.source)]
    assert kinds == ["AIMModel", "AIMService"]
