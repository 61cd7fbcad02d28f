"""The child-level generator: deterministic, and every slot of every class is reached."""

from __future__ import annotations

import yaml

from hostile.corpus import CHILD_BASE, CHILD_SLOTS, _dump, child_value_mutations


def test_the_same_seed_gives_the_same_inputs() -> None:
    assert child_value_mutations(5, 40) == child_value_mutations(5, 40)
    assert child_value_mutations(5, 40) != child_value_mutations(6, 40)


def test_every_slot_is_mutated_in_a_few_hundred_inputs() -> None:
    names = ",".join(case.name for case in child_value_mutations(17, 300))
    for index, path, _ in CHILD_SLOTS:
        shown = ".".join("<key>" if part is None else str(part) for part in path)
        assert f"{CHILD_BASE[index]['kind']}:{shown}=" in names, shown


def test_a_renamed_key_keeps_its_value_and_the_rest_is_the_base() -> None:
    base = yaml.safe_load_all(_dump(CHILD_BASE))
    for case in child_value_mutations(17, 300):
        if "ConfigMap:data.level.<key>=" in case.name and "," not in case.name:
            docs = list(yaml.safe_load_all(case.data))
            config_map = docs[5]
            assert "INFO" in config_map["data"].values() and "level" not in config_map["data"]
            assert [d for i, d in enumerate(docs) if i != 5] == [d for i, d in enumerate(base) if i != 5]
            return
    raise AssertionError("no input renames the ConfigMap's `level` key alone")
