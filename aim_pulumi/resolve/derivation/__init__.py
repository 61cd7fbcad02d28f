"""Profile derivation (AIMProfileSet, AIMClusterProfileSet, `AIMModel.spec.profiles`) at deploy time.

The operator's profile-set controller lists source profiles, filters them by the set's selector and
version policy, and writes one derived AIMProfile per source with the set's overrides applied. Here
the same decision is a plain function of plain data: the sources (`sources.py`: the facts a source
contributes, whoever produced the profile), the selector and version policy (`matching.py`), the
image a derived profile runs (`images.py`), the overrides (`overrides.py`), the operator's hash
inputs (`identity.py`), the whole derivation of one set with its status (`derive.py`), the child set
an AIMModel creates (`model_sets.py`) and the discovery caches a `sourceRef` names
(`discovery_cache.py`). The catalog (the room above) runs it over every set of the program, so
derived profiles are catalog members every service can select.
"""
