"""Every code block of the README and of `docs/` that is a program or a command is run, as pydantic runs
the examples of its documentation: a reader who copies one gets what the page says.

Python programs run under the offline engine, `aim-pulumi` commands run and their shown output is
compared, YAML is parsed and admitted, and a program of another language is the example file the
real-engine and cluster lanes deploy. Blocks that need the real Pulumi CLI or the test cluster run
in those lanes (`lane=`, by the test that asks for them by name); the few that cannot run anywhere
here are marked `norun=NAME` and listed in EXCEPTIONS, so a new block that is neither fails.
(`pytest-examples` finds and runs Python blocks only, and runs them in a plain interpreter; the
blocks here are mostly commands and YAML, and a program needs the offline engine, so the collector is
`docblocks.py`, on markdown-it-py.)
"""

from __future__ import annotations

import ast
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from docblocks import ROOT, Block, blocks, page_blocks, pages

from aim_pulumi.api import parse
from aim_pulumi.cli.__main__ import main
from aim_pulumi.offline.plan_document import plan_document
from aim_pulumi.schemas import validate_manifest

# Blocks that cannot run here, by the name their info string gives (`norun=NAME`), with why.
EXCEPTIONS = {
    "quick-start": "the set-up itself: installs the checkout from the package registry and runs the whole "
    "unit suite, this test included; .ci/run does both (test_readme checks it), and the plan it prints "
    "is the README's next block, run and compared",
    "provider-venv": "a pip install of the checkout into a new virtualenv; the real-engine lane links the "
    "test's own virtualenv as the provider's instead (tests/real_engine/harness.py:plugin_directory)",
    "plugin-install": "downloads the Kubernetes provider plugin from outside the package registries; the "
    "lanes build the same provider from the Go module proxy (scripts/real-engine-toolchain.sh)",
    "kubectl-dump": "kubectl is not in the toolchain; tests/cluster/test_import_cluster.py writes the same "
    "dump from the test cluster with its own client, and the docs' `import --from dump.yaml` runs here",
    "dev-checks": "what .ci/run runs: the install, the unit suite (which holds this test), ruff and mypy",
    "generate-types": "rewrites the checkout; tests/docs/test_generated.py checks that it would write "
    "exactly the committed files",
    "benchmarks": "minutes of CPU each on a shared two-core machine; run by hand when measuring",
    "real-engine-lane": "builds the toolchain and runs the real-engine lane, which holds the docs' own "
    "real-engine tests",
    "cluster-lane": "builds the test cluster and runs the cluster lane, which holds the docs' own "
    "cluster tests",
    "discover-recipe": "needs an AIM image in a registry and a Pulumi CLI; "
    "tests/cluster/test_discovery_cluster.py runs the same discover, plan (the registry stopped) and "
    "pulumi up against the test registry and cluster",
    "pin-version": "fetches a release tag from the repository's remote, which is not reachable here; "
    "tests/cluster/test_upgrade_cluster.py installs the previous release from its tag with git archive",
    "policy-venv": "a pip install of the checkout into a new virtualenv; the policy tests run the pack "
    "with the test virtualenv, which the test extra gives the policy extra",
    "policy-preview": "/path/to/aim-pulumi stands for the reader's checkout; "
    "tests/real_engine/test_policy_real_engine.py runs pulumi preview and aim-pulumi plan with this "
    "pack and a configuration and compares their verdicts",
    "try-cluster": "starts a second API server and applies a stack of the reader's; the lane starts its "
    "cluster with the same tests/cluster/cluster.py:TestCluster.start",
    "capacity-on-a-cluster": "needs a cluster with GPU nodes, others' pods and a quota; "
    "tests/cluster/test_capacity_cluster.py writes such objects and checks the same table and verdicts",
    "capacity-cluster-role": "no Kubernetes schema of RBAC objects is vendored; "
    "tests/cluster/test_capacity_cluster.py applies this block and reads the cluster with only it",
}

# Files every page's working directory holds besides its own `file=` blocks: the examples (commands
# name `examples/quickstart`) and a dump of an operator deployment (`import --from dump.yaml`).
FIXTURES = {
    "examples": ROOT / "examples",
    "dump.yaml": ROOT / "tests" / "fixtures" / "import" / "operator-dump.yaml",
}
LANE_DIRS = {"real_engine": ROOT / "tests" / "real_engine", "cluster": ROOT / "tests" / "cluster"}
LANGUAGES = {"python", "console", "sh", "yaml", "typescript", "go", "json"}


def unit_blocks() -> list[Block]:
    return [b for b in blocks() if b.lane is None and b.norun is None and b.language != "yaml"]


def yaml_blocks() -> list[Block]:
    return [b for b in blocks() if b.language == "yaml" and b.norun is None]


def workdir(page: Path, tmp_path: Path) -> Path:
    """The page's working directory: the fixtures, then every `file=` block of the page."""
    for name, source in FIXTURES.items():
        if source.is_dir():
            shutil.copytree(source, tmp_path / name, ignore=shutil.ignore_patterns("node_modules", "sdks"))
        else:
            shutil.copy(source, tmp_path / name)
    for block in page_blocks(page):
        if "file" in block.attrs:
            target = tmp_path / block.attrs["file"]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(block.source)
    return tmp_path


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """One `aim-pulumi` command in this process: its exit code and what it printed (stdout, then stderr)."""
    assert argv[0] == "aim-pulumi", f"only aim-pulumi commands run in the unit lane, not {argv[0]!r}"
    capsys.readouterr()
    code = main(argv[1:])
    out, err = capsys.readouterr()
    return code, out + err


def lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.rstrip("\n").splitlines()]


def console_commands(block: Block) -> list[tuple[str, list[str]]]:
    """Each `$ command` of a console block with the output lines shown under it."""
    steps: list[tuple[str, list[str]]] = []
    for line in block.source.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            assert steps, f"{block.id}: output before the first `$ ` command"
            steps[-1][1].append(line.rstrip())
    return steps


def recorded(source: str, filename: str, recording: Any) -> dict[str, Any]:
    """The plan document (`aim-pulumi plan --json`) of a Python program run under the offline engine."""
    result = recording(lambda: exec(compile(source, filename, "exec"), {"__name__": "__main__"}))
    for resource in result.resources:
        if resource.type.startswith("kubernetes:") and "kind" in resource.inputs:
            assert validate_manifest(resource.inputs) == [], f"{filename}: {resource.name}"
    document: dict[str, Any] = plan_document(result, show_secrets=True)
    return document


def alternatives(source: str) -> tuple[str, list[str]]:
    """A block's setup, and its alternatives: the top-level expression statements that end it."""
    tree = ast.parse(source)
    split = len(tree.body)
    while split > 0 and isinstance(tree.body[split - 1], ast.Expr):
        split -= 1
    lines_ = source.splitlines()
    setup_end = tree.body[split].lineno - 1
    options = ["\n".join(lines_[s.lineno - 1 : s.end_lineno]) for s in tree.body[split:]]
    return "\n".join(lines_[:setup_end]), options


def run_python(block: Block, recording: Any) -> None:
    if block.attrs.get("run") == "alternatives":
        setup, options = alternatives(block.source)
        assert len(options) >= 2, f"{block.id}: run=alternatives needs two or more trailing statements"
        plans = [recorded(f"{setup}\n{option}\n", block.id, recording)["resources"] for option in options]
        assert plans[0], f"{block.id}: the alternatives declare nothing"
        for option, plan in zip(options[1:], plans[1:], strict=True):
            assert plan == plans[0], f"{block.id}: `{option}` declares other resources than `{options[0]}`"
        return
    if block.attrs.get("run") == "script":
        # Library code (the pure layers used directly), not a Pulumi program: it runs as a script
        # whose own assertions say what the page claims.
        exec(compile(block.source, block.id, "exec"), {"__name__": "__docs__"})
        return
    assert set(block.attrs) <= {"example"}, f"{block.id}: unknown attributes {block.attrs}"
    plan = recorded(block.source, block.id, recording)
    assert plan["resources"], f"{block.id}: the program declares nothing"


def run_console(block: Block, capsys: pytest.CaptureFixture[str]) -> None:
    steps = console_commands(block)
    assert steps, f"{block.id}: a console block without a `$ ` command"
    for index, (command, shown) in enumerate(steps):
        code, printed = run_cli(block.argv(command), capsys)
        expected = int(block.attrs.get("exit", "0")) if index == len(steps) - 1 else 0
        assert code == expected, f"{block.id}: `{command}` exited {code}, not {expected}:\n{printed}"
        while shown and not shown[-1]:
            shown.pop()
        assert lines(printed) == shown, f"{block.id}: `{command}` prints other than the page shows"


def run_sh(block: Block, capsys: pytest.CaptureFixture[str]) -> None:
    commands = block.commands()
    assert commands, f"{block.id}: no command"
    for command in commands:
        code, printed = run_cli(block.argv(command), capsys)
        assert code == 0, f"{block.id}: `{command}` exited {code}:\n{printed}"


RUNNERS: dict[str, Callable[..., None]] = {"python": run_python, "console": run_console, "sh": run_sh}


@pytest.mark.parametrize("block", unit_blocks(), ids=lambda b: b.id)
def test_the_block_runs_as_the_page_says(
    block: Block,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    recording: Any,
) -> None:
    if "example" in block.attrs:
        example = ROOT / block.attrs["example"]
        assert block.source == example.read_text(), f"{block.id} differs from {block.attrs['example']}"
    if block.language in ("typescript", "go", "json"):
        assert "example" in block.attrs, f"{block.id}: a {block.language} program is one of the examples"
        return
    monkeypatch.chdir(workdir(block.page, tmp_path))
    runner = RUNNERS[block.language]
    if block.language == "python":
        runner(block, recording)
    else:
        runner(block, capsys)


def admitted(document: dict[str, Any]) -> list[str]:
    """What admission says of one document: AIM kinds by the typed models, the rest by their schemas."""
    if str(document.get("apiVersion", "")).startswith("aim.eai.amd.com/"):
        try:
            parse(document)
        except Exception as error:
            return [str(error)]
        return []
    return [str(problem) for problem in validate_manifest(document)]


@pytest.mark.parametrize("block", yaml_blocks(), ids=lambda b: b.id)
def test_the_yaml_is_what_the_page_says(block: Block) -> None:
    documents = [d for d in yaml.safe_load_all(block.source) if d is not None]
    assert documents, f"{block.id}: no document"
    if "example" in block.attrs:
        assert block.source == (ROOT / block.attrs["example"]).read_text(), f"{block.id} differs"
        assert documents[0].get("runtime") == "yaml", f"{block.id}: a Pulumi YAML program"
        return
    problems = [problem for document in documents for problem in admitted(document)]
    if block.attrs.get("expect") == "invalid":
        assert problems, f"{block.id} is shown as refused, and is admitted"
    else:
        assert problems == [], f"{block.id}: {problems}"


def test_every_block_is_run_or_a_named_exception() -> None:
    found = blocks()
    assert len(found) >= 20
    for block in found:
        assert block.language in LANGUAGES, f"{block.id}: a block of language {block.language!r}"
        if block.lane is not None:
            assert block.lane in LANE_DIRS and block.name, f"{block.id}: lane= needs a known lane and a name="
    names = [b.norun for b in found if b.norun is not None]
    assert len(names) == len(set(names)), "two blocks share a norun name"
    assert set(names) == set(EXCEPTIONS), "the norun blocks of the pages and EXCEPTIONS differ"


@pytest.mark.parametrize("block", [b for b in blocks() if b.lane], ids=lambda b: f"{b.lane}:{b.name}")
def test_every_lane_block_is_run_by_a_test_of_its_lane(block: Block) -> None:
    """A lane's test asks for its blocks by name; this finds that test without running the lane."""
    call = f'lane_block("{block.lane}", "{block.name}")'
    readers = [p.name for p in sorted(LANE_DIRS[str(block.lane)].glob("test_*.py")) if call in p.read_text()]
    assert readers, f"{block.id}: no test in {LANE_DIRS[str(block.lane)].relative_to(ROOT)} calls {call}"


def test_every_page_is_found() -> None:
    assert [str(p) for p in pages()][:2] == ["README.md", "docs/_index.md"]
    assert len(pages()) >= 12


# --------------------------------------------------------------------------- the pages as a whole

REGISTRY_PAGES = ("docs/_index.md", "docs/installation-configuration.md")


def front_matter(page: str) -> dict[str, Any]:
    text = (ROOT / page).read_text()
    match = re.match(r"---\n(.*?)\n---\n", text, flags=re.S)
    assert match, f"{page} has no front matter"
    meta: dict[str, Any] = yaml.safe_load(match.group(1))
    return meta


@pytest.mark.parametrize("page", REGISTRY_PAGES)
def test_the_registry_pages_have_the_front_matter_it_reads(page: str) -> None:
    """The Pulumi registry renders `docs/_index.md` and `docs/installation-configuration.md` with the
    package layout, titled by their front matter."""
    meta = front_matter(page)
    assert meta["layout"] == "package"
    assert meta["title"] and meta["meta_desc"]


def test_the_overview_shows_one_program_in_every_language_the_package_serves() -> None:
    text = (ROOT / "docs" / "_index.md").read_text()
    chooser = re.search(r'\{\{< chooser language "([^"]+)" >\}\}', text)
    assert chooser is not None
    languages = chooser.group(1).split(",")
    shown = [b.language for b in page_blocks(Path("docs/_index.md"))]
    assert shown == languages == ["python", "typescript", "go", "yaml"]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", path.read_text(), flags=re.M | re.S)
    seen: dict[str, int] = {}
    found = set()
    for heading in re.findall(r"^#{1,6} (.+)$", text, flags=re.M):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(page: Path) -> list[str]:
    text = re.sub(r"^```.*?^```", "", (ROOT / page).read_text(), flags=re.M | re.S)
    text = re.sub(r"`[^`\n]*`", "", text)  # code spans: a regular expression is no link
    return re.findall(r"\]\(([^)\s]+)\)", text)


@pytest.mark.parametrize("page", pages(), ids=str)
def test_every_link_between_the_pages_leads_somewhere(page: Path) -> None:
    for link in links(page):
        if re.match(r"[a-z]+:", link):
            continue
        target, _, anchor = link.partition("#")
        path = (ROOT / page).parent / target if target else ROOT / page
        assert path.exists(), f"{page}: {link} leads nowhere"
        if anchor:
            assert path.suffix == ".md", f"{page}: {link}"
            assert anchor in anchors(path), f"{page}: {link}: no such heading in {target or page}"
