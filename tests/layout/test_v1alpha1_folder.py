"""v1alpha1 is one folder composed in as one value: without it v1alpha2 works, and nothing else names it.

`aim_pulumi/resolve/legacy/` owns the template kinds, their catalog index, the template pipeline and
`migrate`'s conversion, and exports them as one `Extension` (`extension.py:V1ALPHA1`). The core
names none of it: one module composes it in (`aim_pulumi/versions.py`, with a guarded import of
that value), and the entry points (a program run, the component provider, the CLI) hand it down. The
first tests run a representative set of the v1alpha2 tests and plan every example that declares no
template, in a Python where the folder cannot be imported (a `sitecustomize` puts `None` in
`sys.modules` for it, as a deleted folder would fail). The others read every module outside the
folder with `ast`: none names the template kinds or imports the folder, except the composing module,
whose one import of it is guarded and names only the value.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "aim_pulumi"
FOLDER = "aim_pulumi.resolve.legacy"
FOLDER_PATH = PACKAGE / "resolve" / "legacy"
# The module that composes the folder in, by one guarded import of its value.
ENTRY_POINTS = (PACKAGE / "versions.py",)
VALUE = (f"{FOLDER}.extension", "V1ALPHA1")
TEMPLATE_KINDS = ("AIMServiceTemplate", "AIMClusterServiceTemplate")
# AIMService's v1alpha1 surface: its manifest keys, the attributes of its model and its types.
V1ALPHA1_KEYS = ("templateName", "resolvedTemplate", "selectionCriteria", "gpuSelector")
V1ALPHA1_ATTRIBUTES = ("resolved_template", "is_legacy", "selection_criteria", "gpu_selector")
V1ALPHA1_TYPES = ("ServiceTemplateRef", "SelectionCriteria", "ServiceOverrides", "GpuSelector")

# What still names v1alpha1 outside the folder, and why; the test fails when one goes (shrink the
# list) or one appears. Every entry is a move still to make. Nothing is left: the CLI's template
# handling and AIMStack's declaration order read the `Extension` they are handed.
REMAINING: dict[str, str] = {
    # The public contract names the template classes under `aim_pulumi.api`; its front door hands
    # them out from the kinds the installation serves, and says they are v1alpha1's when it is not.
    "aim_pulumi/api/__init__.py": "the contract's names of the template kinds",
}
# Written by `scripts/generate_types.py` from the AIMService class the kinds serve (the folder's while
# it is there), so they type v1alpha1's fields exactly as long as the folder exists; the last test
# checks that what they type of v1alpha1 is the folder's class and nothing else.
GENERATED = (PACKAGE / "resources" / "inputs.py",)

ADMISSION_TESTS = (
    "test_rule_rejects",
    "test_rule_is_listed_by_admission_problems",
    "test_rule_applies_to_python_construction",
    "test_rule_admits",
)
# Tests of the v1alpha2 rooms that read template kinds, v1alpha1 fixtures or the bridge dispatch
# (which sends a model-only service to the template pipeline); prefixes of node ids.
NEEDS_V1ALPHA1 = (
    *(
        f"tests/api/test_api_admission.py::{test}[{row}"
        for test in ADMISSION_TESTS
        # T: template rows; A2: spec.overrides on v1alpha2 (v1alpha1's field, refused with its AIM
        # reason by the class that reads it); A14-cacheModel: a v1alpha1 service.
        for row in ("T", "A2-", "A14-cacheModel")
    ),
    "tests/api/test_api_admission.py::test_admission_problems_reports_every_problem",
    "tests/api/test_api_parse.py::test_dispatch_errors[aim-kind-without-group]",
    "tests/api/test_api_parse.py::test_input_aliases_are_written_canonically[cache-model]",
    "tests/api/test_api_crd.py::test_every_aim_example_and_fixture_validates_against_the_vendored_crds["
    f"{ROOT}/tests/fixtures/seeds/004_upgrading.yaml]",
    "tests/api/test_api_crd.py::test_seed_wins_over_the_crd[seed-002",
    "tests/api/test_api_parse.py::test_every_kind_is_registered",
    "tests/api/test_api_parse.py::test_dispatch_errors[aim-kind-in-another-group]",
    "tests/api/test_api_properties.py::test_valid_objects_round_trip",
    "tests/api/test_api_properties.py::test_mutated_manifests_raise_only_validation_errors",
    "tests/api/test_api_seeds.py::test_seed_example_round_trips[004_upgrading",
    "tests/api/test_api_seeds.py::test_seed_directory_loads_in_file_order",
    "tests/api/test_api_seeds.py::test_seed_values_are_typed",
    "tests/resolve/plan/test_plan_memo.py::test_fixture_and_example_manifests_plan_alike[mixed]",
)
BY_NAME = "not template and not legacy and not v1alpha1 and not migrat"


def _without_the_folder(tmp_path: Path) -> dict[str, str]:
    """An environment whose Python (and every Python it starts) cannot import the folder."""
    (tmp_path / "sitecustomize.py").write_text(
        f"import sys\nsys.modules[{FOLDER!r}] = None  # v1alpha1 deleted\n", encoding="utf-8"
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(tmp_path), env.get("PYTHONPATH")) if p)
    return env


def test_the_folder_is_unimportable_in_that_python(tmp_path: Path) -> None:
    probe = (
        "from aim_pulumi.versions import EXTENSION, SERVED_KINDS\n"
        "from aim_pulumi.resources import registry\n"
        "print(EXTENSION, registry.EXTENSION, sorted(SERVED_KINDS))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], env=_without_the_folder(tmp_path), capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("None None [") and "AIMService" in done.stdout
    assert "Template" not in done.stdout


def test_the_v1alpha2_tests_pass_without_the_folder(tmp_path: Path) -> None:
    args = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-x", "-k", BY_NAME]
    args += ["tests/resolve", "tests/api", "--ignore=tests/resolve/legacy"]
    args += [f"--deselect={node}" for node in NEEDS_V1ALPHA1]
    done = subprocess.run(args, cwd=ROOT, env=_without_the_folder(tmp_path), capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    assert " passed" in done.stdout


def _examples_without_templates() -> list[Path]:
    return [
        program.parent
        for program in sorted((ROOT / "examples").glob("*/__main__.py"))
        if not any(
            kind in path.read_text(encoding="utf-8", errors="replace")
            for path in program.parent.rglob("*")
            if path.is_file() and path.suffix in (".py", ".yaml", ".yml")
            for kind in TEMPLATE_KINDS
        )
    ]


@pytest.mark.parametrize("example", _examples_without_templates(), ids=lambda p: p.name)
def test_every_example_plans_without_the_folder(example: Path, tmp_path: Path) -> None:
    plan = "import sys; from aim_pulumi.cli.__main__ import main; sys.exit(main(sys.argv[1:]))"
    done = subprocess.run(
        [sys.executable, "-c", plan, "plan", str(example), "--json", "-"],
        cwd=tmp_path,
        env=_without_the_folder(tmp_path),
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert '"project"' in done.stdout


def _documentation(tree: ast.AST) -> set[int]:
    """The string statements (docstrings, attribute docstrings): prose may name what it explains."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }


def naming_v1alpha1(source: str) -> list[str]:
    """Where a module names a template kind or AIMService's v1alpha1 fields (outside prose), or
    imports the v1alpha1 folder."""
    tree = ast.parse(source)
    prose = _documentation(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose:
            if any(kind in node.value for kind in TEMPLATE_KINDS) or node.value in V1ALPHA1_KEYS:
                found.append(f"{node.lineno}: names {node.value!r}")
        elif isinstance(node, ast.Name) and node.id in (*TEMPLATE_KINDS, *V1ALPHA1_TYPES):
            found.append(f"{node.lineno}: names {node.id}")
        elif isinstance(node, ast.ClassDef) and node.name in V1ALPHA1_TYPES:
            found.append(f"{node.lineno}: defines {node.name}")
        elif isinstance(node, ast.Attribute) and node.attr in V1ALPHA1_ATTRIBUTES:
            found.append(f"{node.lineno}: reads .{node.attr}")
        elif isinstance(node, ast.Import | ast.ImportFrom):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            if any(m == FOLDER or m.startswith(FOLDER + ".") for m in modules):
                found.append(f"{node.lineno}: imports {', '.join(modules)}")
    return sorted(found, key=lambda where: int(where.partition(":")[0]))  # stable: a line keeps its order


def _guarded_value_imports(tree: ast.AST) -> list[ast.ImportFrom]:
    """The imports of the folder's value that sit in a `try` whose handler catches its absence."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and any(
            isinstance(h.type, ast.Name) and h.type.id in ("ImportError", "ModuleNotFoundError")
            for h in node.handlers
        ):
            found += [
                n
                for n in node.body
                if isinstance(n, ast.ImportFrom)
                and (n.module, [a.name for a in n.names]) == (VALUE[0], [VALUE[1]])
            ]
    return found


def test_nothing_outside_the_folder_names_v1alpha1_but_the_composing_module() -> None:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.is_relative_to(FOLDER_PATH) or path in GENERATED:
            continue
        source = path.read_text(encoding="utf-8")
        where = naming_v1alpha1(source)
        if path in ENTRY_POINTS:
            # Its one guarded import of the value, and nothing else of v1alpha1.
            (guarded,) = _guarded_value_imports(ast.parse(source))
            where = [w for w in where if w != f"{guarded.lineno}: imports {VALUE[0]}"]
        if where:
            found[str(path.relative_to(ROOT))] = where
    assert sorted(found) == sorted(REMAINING), found


def test_one_module_composes_the_folder_by_one_guarded_import_of_its_value() -> None:
    for path in ENTRY_POINTS:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imports = [w for w in naming_v1alpha1(path.read_text(encoding="utf-8")) if "imports" in w]
        assert len(_guarded_value_imports(tree)) == 1 and len(imports) == 1, (path, imports)


def test_no_module_imports_by_a_name_computed_at_run_time() -> None:
    """What the package is made of is read from its imports: nothing is loaded by a computed name
    (the kinds of `pulumi_kubernetes` a plain object needs excepted: its modules are named after the
    apiVersion, `aim_pulumi/resources/kubernetes_objects.py`)."""
    allowed = {PACKAGE / "resources" / "kubernetes_objects.py"}
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("import_module", "__import__")
                and path not in allowed
            ):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


def test_the_reader_finds_names_imports_and_not_prose() -> None:
    source = (
        '"""Mentions AIMServiceTemplate."""\n'
        "from aim_pulumi.resolve.legacy.kinds import AIMServiceTemplate\n"
        "KINDS = ('AIMClusterServiceTemplate',)\n"
        "x = 1\n"
        '"""AIMServiceTemplate in an attribute docstring."""\n'
        "class ServiceOverrides: ...\n"
        "status = {'resolvedTemplate': plan.resolved_template}\n"
    )
    assert naming_v1alpha1(source) == [
        "2: imports aim_pulumi.resolve.legacy.kinds",
        "3: names 'AIMClusterServiceTemplate'",
        "6: defines ServiceOverrides",
        "7: names 'resolvedTemplate'",
        "7: reads .resolved_template",
    ]


def test_the_generated_inputs_type_v1alpha1_only_as_the_served_class_does() -> None:
    from aim_pulumi.api.service import ServiceSpec
    from aim_pulumi.resolve.catalog.extension import served_kinds
    from aim_pulumi.resources import inputs
    from aim_pulumi.resources.registry import EXTENSION

    served = served_kinds(EXTENSION)["AIMService"].model_fields["spec"].annotation
    assert served is not None and served.__module__ == f"{FOLDER}.service"
    typed = set(inputs.AIMServiceSpec.__annotations__)
    core = {info.alias or name for name, info in ServiceSpec.model_fields.items()}
    folder = {info.alias or name for name, info in served.model_fields.items()} - core
    assert folder == {"template", "overrides"} and typed == core | folder
