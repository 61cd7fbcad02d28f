"""The typed inputs and the field reference are generated from the API models and kept current."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("generate_types", ROOT / "scripts" / "generate_types.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["generate_types"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    "relative",
    [
        "aim_pulumi/__init__.py",
        "aim_pulumi/resources/inputs.py",
        "docs/reference.md",
        "schema.json",
        *(
            f"aim_pulumi/resources/{name}.py"
            for name in ("profile", "model", "runtime_config", "service", "stack")
        ),
    ],
)
def test_the_committed_file_is_what_the_generator_writes(generator: ModuleType, relative: str) -> None:
    path = ROOT / relative
    render = generator.OUTPUTS[path]
    assert path.read_text() == render(), f"{relative} is stale: run python scripts/generate_types.py"


def test_every_spec_field_of_the_api_has_a_typed_key(generator: ModuleType) -> None:
    from aim_pulumi.resources import inputs
    from tests.versions import KINDS

    ServiceSpec = KINDS["AIMService"].model_fields["spec"].annotation  # the served class's: both versions
    assert ServiceSpec is not None
    keys = set(inputs.AIMServiceSpec.__annotations__)
    assert keys == {info.alias or name for name, info in ServiceSpec.model_fields.items()}
    assert "gatewayRef" in inputs.Routing.__annotations__
    assert inputs.EnvVar.__required_keys__ == frozenset({"name"})


def test_the_reference_documents_every_field_of_every_type(generator: ModuleType) -> None:
    text = (ROOT / "docs" / "reference.md").read_text()
    for cls in generator.ordered_models():
        section = text.split(f"\n## {generator.type_name(cls)}\n", 1)
        assert len(section) == 2, f"no section for {cls.__name__}"
        body = section[1].split("\n## ", 1)[0]
        for field in generator.fields_of(cls):
            assert f"| `{field.key}` |" in body, f"{cls.__name__}.{field.key}"


def test_every_field_says_what_it_means_and_where_it_is_defined(generator: ModuleType) -> None:
    undocumented = []
    for cls in generator.ordered_models():
        name = generator.type_name(cls)
        for field in generator.fields_of(cls):
            if not field.doc or not generator.seed_section(name, field.key):
                undocumented.append(f"{name}.{field.key}")
    assert undocumented == []


def test_the_reference_lists_every_component_argument_and_output(generator: ModuleType) -> None:
    from aim_pulumi.resources import COMPONENTS, inputs

    text = (ROOT / "docs" / "reference.md").read_text()
    arguments = text.split("\n## Component arguments\n", 1)[1].split("\n## Outputs\n", 1)
    for component in COMPONENTS:
        kind = component.__name__
        section = arguments[0].split(f"\n### {kind}\n", 1)[1].split("\n### ", 1)[0]
        for key in getattr(inputs, f"{kind}ArgsDict").__annotations__:
            assert f"| `{key}` |" in section, f"{kind} argument {key}"
        outputs = arguments[1].split(f"\n### {kind}\n", 1)[1].split("\n### ", 1)[0]
        for attribute in ("status",) if kind != "AIMStack" else ("services", "objects"):
            assert f"| `{attribute}` |" in outputs, f"{kind} output {attribute}"
    service = arguments[1].split("\n### AIMService\n", 1)[1].split("\n### ", 1)[0]
    for key in ("resolvedProfile", "inferenceServiceName", "routePath", "endpoint"):
        assert f"| `{key}` |" in service, key


def test_the_readme_links_the_reference() -> None:
    assert "docs/reference.md" in (ROOT / "README.md").read_text()


def test_a_hand_edited_overload_is_found_stale(generator: ModuleType, tmp_path: Path) -> None:
    """The overload blocks are the generator's: an edit inside one (a parameter dropped) is rewritten."""
    path = ROOT / "aim_pulumi" / "resources" / "stack.py"
    edited = path.read_text().replace(
        "        catalog: Catalog | None = None,\n    ) -> None: ...", "    ) -> None: ...", 1
    )
    assert edited != path.read_text()
    copy = tmp_path / "stack.py"
    copy.write_text(edited)
    generator.COMPONENT_MODULES[copy] = generator.COMPONENT_MODULES[path]
    try:
        assert generator.render_component_module(copy) == path.read_text()
    finally:
        del generator.COMPONENT_MODULES[copy]


def test_every_public_name_is_there_for_each_view(generator: ModuleType) -> None:
    """The one list reaches all three views: loaded on use, named for type checkers, in `__all__`."""
    import aim_pulumi

    names = {*generator.component_names(), *generator.PURE_NAMES, "inputs"}
    assert set(aim_pulumi.__all__) == names | {"__version__"}
    assert {name for name in names if getattr(aim_pulumi, name, None) is None} == set()
    assert "AIMService" in generator.render_public_names().split("if TYPE_CHECKING:")[1]
