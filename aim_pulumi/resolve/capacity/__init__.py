"""Will it fit: the cluster's capacity, the program's demand, and the verdict per service.

The modules here are pure: what a cluster (or `aim:inventory`) offers arrives as plain Kubernetes
objects already listed (`cluster.py`), the demand is read from the planned services (`demand.py`),
and the packing, the quotas and the verdicts (`fit.py`), the monthly cost (`cost.py`) and the words
and tables users read (`report.py`) are functions of those values. Reading the cluster is the
Pulumi layer's (`aim_pulumi/resources/capacity_read.py`); which accelerators a node offers, and so
which profiles are available, is `accelerators.py`, the rule of the operator's node matching.
"""
