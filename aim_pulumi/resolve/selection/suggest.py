"""What to say when a name is not found: the close names that are, and the same name elsewhere.

A profile or model name is mistyped far more often than it is missing (`llama-8b-mi300` for
`llama-8b-mi300x`), and a namespaced object in another namespace is invisible to a service, which
reads as "not found" to someone who can see it in the same file. Both are named, so the error says
how to fix it.
"""

from __future__ import annotations

import difflib

from aim_pulumi.resolve.selection.catalog_view import CatalogView

__all__ = ["name_hint"]

_MAX_SUGGESTIONS = 3
_CUTOFF = 0.75


def name_hint(
    catalog: CatalogView, namespaced_kind: str, cluster_kind: str, namespace: str, name: str
) -> str:
    """`; did you mean ...?` and/or where a namespaced object of that name lives; "" when neither."""
    local = catalog.names_of(namespaced_kind)
    cluster = {n for _, n in catalog.names_of(cluster_kind)}
    visible = sorted({n for ns, n in local if ns == namespace} | cluster)
    hints: list[str] = []
    close = difflib.get_close_matches(name, visible, n=_MAX_SUGGESTIONS, cutoff=_CUTOFF)
    if close:
        hints.append("did you mean " + " or ".join(f'"{c}"' for c in close) + "?")
    elsewhere = sorted({ns for ns, n in local if n == name and ns != namespace})
    if elsewhere:
        listed = ", ".join(f'"{ns}"' for ns in elsewhere)
        hints.append(
            f"an {namespaced_kind} of that name exists in namespace {listed}, which a service in "
            f'"{namespace}" cannot see: declare it in "{namespace}" or use an {cluster_kind}'
        )
    return "".join(f"; {hint}" for hint in hints)
