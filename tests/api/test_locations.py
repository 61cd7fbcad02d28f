"""A field path is found where it was written: the line of the deepest key or item along it."""

from __future__ import annotations

import pytest

from aim_pulumi.api.locations import DocumentLines

TEXT = """\
# a comment, then a namespace
apiVersion: v1
kind: Namespace
metadata:
  name: ml-team
---
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMService
metadata:
  name: chat
  namespace: ml-team
  labels:
    aim.eai.amd.com/team: a
    aim.eai.amd.com: b
defaults: &defaults
  replicas: 2
  minReplicas: 1
spec:
  <<: *defaults
  model:
    name: qwen
  env:
  - name: A
    value: x
  -
    name: B
  replicas: 3
---
"""


@pytest.mark.parametrize(
    ("document", "field", "line"),
    [
        (1, "(root)", 2),  # the first line of the document, after its comment
        (1, "metadata.name", 5),
        (2, "(root)", 7),
        (2, ".", 7),
        (2, "spec.replicas", 27),  # written after the merge, so it is the one read
        (2, "spec.minReplicas", 17),  # reached through the merge: where it is written
        (2, "spec.model.name", 21),
        (2, "spec.model.image", 20),  # missing: the mapping that lacks it
        (2, "spec.env[0]", 23),  # an item's line
        (2, "spec.env[1]", 26),  # where its content starts, when that is below its `-`
        (2, "spec.env[1].name", 26),
        (2, "spec.env[1].value", 26),
        (2, "spec.env[7].name", 22),  # no such item: the list
        (2, "spec.nothing.below", 18),
        (2, "metadata.labels.aim.eai.amd.com/team", 13),  # keys with dots: the longest that fits
        (2, "metadata.labels.aim.eai.amd.com", 14),
        (2, "metadata.labels[aim.eai.amd.com/team]", 13),  # a schema path's map key
        (2, "metadata.labels[aim.eai.amd.com]", 14),
        (2, "unknown", 7),
    ],
)
def test_field_lines(document: int, field: str, line: int) -> None:
    assert DocumentLines(TEXT).line(document, field) == line


def test_documents_that_are_not_there_have_no_line() -> None:
    lines = DocumentLines(TEXT)
    assert lines.line(3, "(root)") == 29  # the empty document after the last `---`
    assert lines.line(4, "(root)") is None
    assert lines.line(0, "(root)") is None


def test_a_document_after_a_broken_one_is_not_needed_for_an_earlier_one() -> None:
    lines = DocumentLines("a: 1\nb:\n  c: 2\n---\nd: [unclosed\n")
    assert lines.line(1, "b.c") == 3
    assert lines.line(2, "d") is None


def test_a_duplicate_key_is_found_where_it_is_repeated() -> None:
    assert DocumentLines("a:\n  x: 1\n  x: 2\n").line(1, "a.x") == 3
