"""YAML is read as Kubernetes reads it: go-yaml v2's scalars and merge keys, not PyYAML's YAML 1.1.

The expected values are what sigs.k8s.io/yaml (its vendored go-yaml v2, `resolve()`) hands the API
server for each plain scalar, so a manifest plans as the cluster will read it: `replicas: 1:30` is
the string "1:30", refused, and never 90 replicas.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
import yaml

from aim_pulumi.api import AIMValidationError
from aim_pulumi.api.documents import parse_documents
from aim_pulumi.api.goyaml import plain_value, resolve_plain
from aim_pulumi.api.limits import _LIBYAML, _libyaml_documents, _python_documents, load_yaml_documents
from tests.versions import load_manifests

# (plain scalar, the value Kubernetes' reader gives it)
KUBERNETES_READS: list[tuple[str, Any]] = [
    # no base-60 numbers, no timestamps
    ("1:30", "1:30"),
    ("190:20:30", "190:20:30"),
    ("2024-01-01", "2024-01-01"),
    ("2001-12-14t21:59:43.10-05:00", "2001-12-14t21:59:43.10-05:00"),
    # integers: Go's ParseInt(s, 0, 64) once every `_` is removed
    ("0", 0),
    ("-0", 0),
    ("12", 12),
    ("+12", 12),
    ("-12", -12),
    ("1_000", 1000),
    ("1__0", 10),
    ("1_", 1),
    ("017", 15),
    ("0777", 511),
    ("0o17", 15),
    ("0O17", 15),
    ("+0o17", 15),
    ("0x1F", 31),
    ("0X1f", 31),
    ("-0x1F", -31),
    ("0x_1F", 31),
    ("0_x1F", 31),
    ("0b11", 3),
    ("0B11", 3),
    ("-0b101", -5),
    ("0b-101", -5),  # go-yaml's own `0b` branch: a signed binary number after the prefix
    ("0b+11", 3),
    ("9223372036854775807", 2**63 - 1),
    ("-9223372036854775808", -(2**63)),
    # floats: `.` first (Go's ParseFloat), or go-yaml's yamlStyleFloat once `_` is removed
    (".5", 0.5),
    (".5e3", 500.0),
    (".5_5", 0.55),
    ("1.", 1.0),
    ("0.", 0.0),
    ("1e3", 1000.0),
    ("1E3", 1000.0),
    ("1e+3", 1000.0),
    ("-1.5E-3", -0.0015),
    ("+.5", 0.5),
    ("1_000.5", 1000.5),
    ("08", 8.0),  # not an octal number, but a decimal float
    ("-08", -8.0),
    ("09", 9.0),
    ("1e-400", 0.0),
    (".inf", math.inf),
    (".Inf", math.inf),
    ("+.INF", math.inf),
    ("-.inf", -math.inf),
    # booleans: exactly these spellings
    ("y", True),
    ("Y", True),
    ("yes", True),
    ("Yes", True),
    ("YES", True),
    ("on", True),
    ("On", True),
    ("ON", True),
    ("true", True),
    ("True", True),
    ("TRUE", True),
    ("n", False),
    ("N", False),
    ("no", False),
    ("No", False),
    ("NO", False),
    ("off", False),
    ("Off", False),
    ("OFF", False),
    ("false", False),
    ("False", False),
    ("FALSE", False),
    # null
    ("~", None),
    ("null", None),
    ("Null", None),
    ("NULL", None),
    # strings: everything else
    ("yES", "yES"),
    ("tRUE", "tRUE"),
    ("nULL", "nULL"),
    ("1e", "1e"),
    ("1e400", "1e400"),  # beyond float64: ParseFloat fails, the text stays
    (".5e400", ".5e400"),
    ("._5", "._5"),
    (".e5", ".e5"),
    ("0x", "0x"),
    ("0b", "0b"),
    ("0o", "0o"),
    ("0b2", "0b2"),
    ("0o8", "0o8"),
    ("12abc", "12abc"),
    ("1.2.3", "1.2.3"),
    ("0x1p-2", "0x1p-2"),
    ("_1", "_1"),
    ("-.nan", "-.nan"),
    ("inf", "inf"),
    ("Infinity", "Infinity"),
    ("NaN", "NaN"),
    ("=", "="),
    ("<<", "<<"),
    ("1 2", "1 2"),
]


def _read_both(text: str) -> list[Any]:
    """The documents of `text` as the Python parser reads them, checked against libyaml's reading."""
    reference = list(_python_documents(text))
    fast = _libyaml_documents(text)
    if _LIBYAML is not None:
        assert fast is not None, "libyaml should read a block-style text"
        assert repr(fast) == repr(reference)  # repr: NaN is not equal to itself
    assert repr(list(load_yaml_documents(text))) == repr(reference)
    return reference


def _same(value: Any, expected: Any) -> bool:
    if isinstance(expected, float) and math.isnan(expected):
        return isinstance(value, float) and math.isnan(value)
    return type(value) is type(expected) and value == expected


@pytest.mark.parametrize(("scalar", "expected"), KUBERNETES_READS, ids=[s for s, _ in KUBERNETES_READS])
def test_a_plain_scalar_means_what_it_means_to_kubernetes(scalar: str, expected: Any) -> None:
    (document,) = _read_both(f"value: {scalar}\nlist:\n- {scalar}\n")
    assert _same(document["value"], expected), document
    assert _same(document["list"][0], expected), document
    assert _same(plain_value(scalar), expected)


@pytest.mark.parametrize("scalar", [".nan", ".NaN", ".NAN"])
def test_nan_spellings(scalar: str) -> None:
    (document,) = _read_both(f"value: {scalar}\n")
    assert math.isnan(document["value"])


def test_empty_and_quoted_scalars() -> None:
    text = "a:\nb: ''\nc: '1:30'\nd: \"0x1F\"\ne: 'y'\n"
    assert _read_both(text) == [{"a": None, "b": "", "c": "1:30", "d": "0x1F", "e": "y"}]


def test_keys_resolve_like_values() -> None:
    # sigs.k8s.io/yaml would spell these keys "true" and "31"; they are kept as read, so a field that
    # wants a name refuses them instead of renaming them silently.
    assert _read_both("y: 1\n0x1F: 2\n1:30: 3\n") == [{True: 1, 31: 2, "1:30": 3}]


def test_the_resolver_only_decides_plain_scalars_by_their_text() -> None:
    assert resolve_plain("1:30") == "tag:yaml.org,2002:str"
    assert resolve_plain("017") == "tag:yaml.org,2002:int"
    assert resolve_plain("08") == "tag:yaml.org,2002:float"
    assert resolve_plain("") == "tag:yaml.org,2002:null"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("v: !!int '0x1F'\n", 31),
        ("v: !!int 017\n", 15),
        ("v: !!float 1\n", 1.0),
        ("v: !!float '1:30.5'\n", None),
        ("v: !!int 1:30\n", None),
        ("v: !!int 1.5\n", None),
        ("v: !!bool y\n", True),
        ("v: !!bool 1\n", None),
        ("v: !!str 017\n", "017"),
    ],
)
def test_explicit_core_tags_take_what_go_yaml_reads_as_that_type(text: str, expected: Any) -> None:
    if expected is None:
        with pytest.raises(yaml.YAMLError, match="cannot read"):
            list(_python_documents(text))
        assert _libyaml_documents(text) is None  # refused by libyaml too, so the Python error is reported
        return
    (document,) = _read_both(text)
    assert _same(document["v"], expected)


def test_a_merge_key_writes_where_it_stands_as_in_go_yaml() -> None:
    """Keys before `<<` are overwritten by the merged mapping, keys after it win."""
    text = """\
base: &base
  a: 1
  b: 2
before:
  a: 0
  <<: *base
after:
  <<: *base
  a: 0
"""
    (document,) = _read_both(text)
    assert document["before"] == {"a": 1, "b": 2}
    assert document["after"] == {"a": 0, "b": 2}


def test_of_merged_mappings_the_first_wins_and_merges_nest() -> None:
    text = """\
one: &one
  a: 1
two: &two
  a: 2
  b: 2
three: &three
  <<: *two
  c: 3
x:
  <<:
  - *one
  - *three
  d: 4
"""
    (document,) = _read_both(text)
    assert document["x"] == {"a": 1, "b": 2, "c": 3, "d": 4}
    assert document["three"] == {"a": 2, "b": 2, "c": 3}


def test_a_quoted_merge_key_and_a_merge_key_as_a_value_are_text() -> None:
    assert _read_both("a:\n  '<<': 1\nb: <<\nc:\n- <<\n") == [{"a": {"<<": 1}, "b": "<<", "c": ["<<"]}]


def test_a_merge_of_a_scalar_is_a_yaml_error() -> None:
    with pytest.raises(yaml.YAMLError, match="merge key"):
        list(load_yaml_documents("a:\n  <<: 1\n"))


def test_a_chain_of_merges_collects_every_link() -> None:
    lines = ["m0: &m0\n  k0: 0\n"]
    lines += [f"m{i}: &m{i}\n  <<: *m{i - 1}\n  k{i}: {i}\n" for i in range(1, 200)]
    (document,) = _read_both("".join(lines))
    assert document["m199"] == {f"k{i}": i for i in range(200)}


SERVICE = """\
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMService
metadata:
  name: chat
  namespace: ml-team
spec:
  model:
    name: qwen-qwen3-32b
  replicas: {replicas}
"""


def _service_error(tmp_path: Path, replicas: str) -> AIMValidationError:
    file = tmp_path / "service.yaml"
    file.write_text(SERVICE.format(replicas=replicas), encoding="utf-8")
    with pytest.raises(AIMValidationError) as info:
        load_manifests(file)
    return info.value


def test_sexagesimal_replicas_are_refused_not_planned_as_ninety(tmp_path: Path) -> None:
    error = _service_error(tmp_path, "1:30")
    assert (error.field, error.reason) == ("spec.replicas", "InvalidSpec")
    assert "valid integer" in error.message and "'1:30'" in error.message
    assert (error.object_ref, error.document) == ("AIMService/ml-team/chat", 1)


@pytest.mark.parametrize(
    ("replicas", "expected"), [("017", 15), ("0x_3", 3), ("+2", 2), ("0" * 100 + "1", 1)]
)
def test_go_integers_plan_as_go_reads_them(tmp_path: Path, replicas: str, expected: int) -> None:
    file = tmp_path / "service.yaml"
    file.write_text(SERVICE.format(replicas=replicas), encoding="utf-8")
    (service,) = load_manifests(file)
    assert service.spec.replicas == expected


@pytest.mark.parametrize(
    "replicas", ["9223372036854775808", "99999999999999999999", "0x" + "F" * 17, "9" * 200]
)
def test_integers_beyond_int64_are_refused_as_out_of_range(tmp_path: Path, replicas: str) -> None:
    """go-yaml would read these as uint64, a float or a string; every one is refused, and said why."""
    error = _service_error(tmp_path, replicas)
    assert (error.field, error.reason) == ("spec.replicas", "InvalidSpec")
    assert "integer out of range" in error.message


def test_boolean_spellings_of_go_yaml_are_booleans_in_a_service(tmp_path: Path) -> None:
    text = SERVICE.format(replicas="1") + "  env:\n  - name: FLAG\n    value: y\n"
    file = tmp_path / "service.yaml"
    file.write_text(text, encoding="utf-8")
    with pytest.raises(AIMValidationError) as info:
        load_manifests(file)
    assert info.value.field == "spec.env[0].value"  # `y` is True to Kubernetes: not a string


def test_schema_streams_are_read_as_kubectl_reads_them() -> None:
    text = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  at: 1:30\n  flag: y\n"
    (document,) = parse_documents(text)
    assert document["data"] == {"at": "1:30", "flag": True}
