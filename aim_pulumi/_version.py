"""The package's version: the one place it is written.

`pyproject.toml` reads it at build time (`[tool.setuptools.dynamic]`), `aim-pulumi version`, the
component provider's plugin info and its schema (`schema.json`) read it at run time. It lives in
the code rather than only in the installed metadata because an editable install records the
metadata once: a checkout that moved to a new version would keep reporting the old one.
Semantic versioning; what each version changes for a deployed stack is in CHANGELOG.md.
"""

__version__ = "0.2.2"
