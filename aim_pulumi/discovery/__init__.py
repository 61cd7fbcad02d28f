"""Image discovery: an AIM image's profiles read from its registry, never by running the image.

The operator learns an image's profiles by running it as a Job and reading the pod's log. The
same files are in the image's layers, so this package reads them from the registry (the OCI
distribution API: `client.py`), one layer at a time as it streams (`layers.py`), and keeps what it
read in the user's cache by digest (`cache.py`) and in the program's lock file (`lock.py`). It
imports no Pulumi: the catalog (`aim_pulumi/resolve/catalog/discovered.py`) turns its records into
AIM objects, and the CLI's `discover` and the Pulumi layer call it.
"""
