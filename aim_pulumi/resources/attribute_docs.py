"""The docstrings written under a component's output annotations, its bases' included.

The SDK's component analyzer describes an output only from the class that declares it, so the
outputs every catalog kind inherits (`spec`, `status`, the name output) would reach the schema,
and every generated SDK, undocumented. The provider's schema and `docs/reference.md` read them
from here, one place for both.
"""

from __future__ import annotations

import ast
import inspect
import itertools
import textwrap

__all__ = ["attribute_docs"]


def attribute_docs(cls: type) -> dict[str, str]:
    """Attribute name -> its docstring (whitespace folded), over the class and its package bases."""
    docs: dict[str, str] = {}
    for owner in reversed(cls.__mro__):
        if owner.__module__.split(".")[0] != "aim_pulumi":
            continue
        try:
            source = textwrap.dedent(inspect.getsource(owner))
        except (OSError, TypeError):
            continue  # no source shipped: the analyzer's own descriptions stand
        tree = ast.parse(source)
        body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
        for node, following in itertools.pairwise(body):
            if (
                isinstance(node, ast.AnnAssign)
                and isinstance(node.target, ast.Name)
                and isinstance(following, ast.Expr)
                and isinstance(following.value, ast.Constant)
                and isinstance(following.value.value, str)
            ):
                docs[node.target.id] = " ".join(following.value.value.split())
    return docs
