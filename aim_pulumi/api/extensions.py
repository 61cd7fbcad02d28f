"""The one seam through which v1alpha1 plugs into the core, so that removing it is deleting a folder.

The v1alpha1 kinds (AIMServiceTemplate, AIMClusterServiceTemplate), their catalog index, the
template pipeline, `migrate` and their schema relaxations live in `aim_pulumi/resolve/legacy/`,
which fills the core's small registries when its `register` module is imported: the kinds of
`aim_pulumi.api.io.KINDS`, the indexes of the catalog, the pipelines of the plan, the relaxations
of `aim_pulumi.schemas.seed_overlays` and the commands of the CLI. This module is the only place
that imports that folder.

It imports it by name and on first need (the first read of a registry), never at import: the folder
sits in the resolve layer above this one and loads the whole resolver, which `aim-pulumi --version`
and a bare `aim_pulumi.api` must not pay for, and which an import from here would turn into an
upward dependency. When the folder is missing (v1alpha1 deleted) the import fails and the core
serves v1alpha2 alone; any other failure inside the folder is a bug and propagates.
"""

from __future__ import annotations

import importlib

__all__ = ["FOLDER", "load"]

#: The folder that owns v1alpha1, and the module of it that fills the registries.
FOLDER = "aim_pulumi.resolve.legacy"
_REGISTER = f"{FOLDER}.register"

_state = {"loaded": False}


def load() -> None:
    """Fill the registries from the v1alpha1 folder once, if it is there; cheap after the first call."""
    if _state["loaded"]:
        return
    _state["loaded"] = True  # first: the folder reads the registries it fills while it loads
    try:
        importlib.import_module(_REGISTER)
    except ImportError as error:
        if error.name not in (FOLDER, _REGISTER):
            raise
