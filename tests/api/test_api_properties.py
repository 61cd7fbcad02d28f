"""Property tests: valid objects round-trip; mutated manifests only ever raise AIMValidationError."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aim_pulumi.api import AIMValidationError, to_manifest
from tests.versions import admission_problems, parse

SEEDS = Path(__file__).resolve().parent.parent / "fixtures" / "seeds"
SEED_DOCS = [
    doc
    for file in sorted(SEEDS.glob("*.yaml"))
    for doc in yaml.safe_load_all(file.read_text(encoding="utf-8"))
    if doc is not None
]

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# --- valid values ------------------------------------------------------------------------------

dns_label = st.from_regex(r"[a-z]([a-z0-9-]{0,14}[a-z0-9])?", fullmatch=True)
word = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_./:", min_size=1, max_size=20)
# The AIM CRDs pattern model IDs as `org/name` and source URIs as hf:// or s3:// URIs.
# A segment never starts with a dot: `.` and `..` segments are refused as container paths.
model_id = st.from_regex(r"[a-z0-9_-]{1,8}/[a-z0-9_-][a-z0-9._-]{0,9}", fullmatch=True)
source_uri = st.from_regex(r"(hf|s3)://[a-z0-9/._-]{1,16}", fullmatch=True)
label_key = st.from_regex(r"([a-z]{1,8}\.)?[a-z]{1,8}/?[a-z]{1,8}", fullmatch=True)
labels = st.dictionaries(label_key, word, max_size=3)
# aimId and model ids become parts of container paths: relative, plain segments.
path_id = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._-]{0,8}(/[A-Za-z0-9][A-Za-z0-9._-]{0,8})?", fullmatch=True)
# Object labels are Kubernetes labels (they propagate to children); other string maps are free.
label_value = st.from_regex(r"([A-Za-z0-9]([-A-Za-z0-9_.]{0,10}[A-Za-z0-9])?)?", fullmatch=True)
object_labels = st.dictionaries(label_key, label_value, max_size=3)
env_name = st.from_regex(r"[A-Z][A-Z0-9_]{0,12}", fullmatch=True)
# A Secret key is a ConfigMap key (`IsConfigMapKey`); a value any text a process can receive (no NUL).
config_key = st.from_regex(r"[-_a-zA-Z0-9][-._a-zA-Z0-9]{0,10}", fullmatch=True)
env_var = st.one_of(
    st.fixed_dictionaries(
        {"name": env_name, "value": st.text(max_size=10).filter(lambda v: "\x00" not in v)}
    ),
    st.fixed_dictionaries(
        {
            "name": env_name,
            "valueFrom": st.fixed_dictionaries(
                {"secretKeyRef": st.fixed_dictionaries({"name": dns_label, "key": config_key})}
            ),
        }
    ),
    st.fixed_dictionaries({"name": env_name}),
)
# The AIM CRDs key env lists by name (x-kubernetes-list-type: map), so names are unique.
env_list = st.lists(env_var, max_size=3, unique_by=lambda env: str(env["name"]))
json_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 10_000), st.floats(0, 1, allow_nan=False), word
)
engine_args = st.dictionaries(st.from_regex(r"[a-z][a-z-]{0,10}", fullmatch=True), json_leaf, max_size=3)
quantity = st.one_of(st.from_regex(r"[1-9][0-9]{0,3}(Gi|Mi|m)?", fullmatch=True), st.integers(0, 64))
# An extended resource (`amd.com/gpu`) is counted in whole units (`ValidateResourceQuantityValue`).
whole = st.one_of(st.integers(0, 8), st.integers(0, 8).map(str))
resource_requests = st.fixed_dictionaries(
    {}, optional={"cpu": quantity, "memory": quantity, "amd.com/gpu": whole}
)
resources = st.fixed_dictionaries(
    {},
    optional={
        "requests": resource_requests,
        "limits": st.dictionaries(st.sampled_from(["cpu", "memory"]), quantity, max_size=2),
    },
)
duration = st.from_regex(r"([1-9][0-9]{0,2}(h|m|s|ms)){1,3}", fullmatch=True)
routing = st.fixed_dictionaries(
    {},
    optional={
        "enabled": st.booleans(),
        "gatewayRef": st.fixed_dictionaries(
            {"name": dns_label},
            optional={"namespace": dns_label, "port": st.integers(1, 65535), "sectionName": dns_label},
        ),
        "hostnames": st.lists(dns_label, max_size=2),
        "pathTemplate": st.sampled_from(
            ["/{.metadata.namespace}/{.metadata.name}", "/custom/{.metadata.labels['team']}"]
        ),
        "requestTimeout": duration,
        "annotations": labels,
    },
)
storage = st.fixed_dictionaries(
    {},
    optional={
        "defaultStorageClassName": dns_label,
        "pvcHeadroomPercent": st.integers(0, 200),
        "downloadFilter": st.fixed_dictionaries(
            {}, optional={"include": st.lists(word, max_size=2), "exclude": st.lists(word, max_size=2)}
        ),
    },
)
scale_from_zero = st.fixed_dictionaries({"activationMetricQueryTemplate": st.text(min_size=1, max_size=40)})
s3 = st.fixed_dictionaries(
    {},
    optional={
        "endpoint": st.from_regex(r"https?://[a-z0-9.:-]{1,20}", fullmatch=True),
        "region": dns_label,
        "auth": st.one_of(
            st.fixed_dictionaries({"mode": st.sampled_from(["chain", "anonymous"])}),
            st.fixed_dictionaries(
                {
                    "mode": st.just("static"),
                    "credentialsSecretRef": st.fixed_dictionaries({"name": dns_label}),
                }
            ),
        ),
        "tls": st.one_of(
            st.fixed_dictionaries({"insecureSkipVerify": st.booleans()}),
            st.fixed_dictionaries(
                {
                    "caBundleRef": st.fixed_dictionaries(
                        {
                            "kind": st.sampled_from(["ConfigMap", "Secret"]),
                            "name": dns_label,
                            "key": dns_label,
                        }
                    )
                }
            ),
        ),
    },
)
rc_block = {
    "storage": storage,
    "routing": routing,
    "scaleFromZero": scale_from_zero,
    "env": env_list,
    "labelPropagation": st.fixed_dictionaries(
        {}, optional={"enabled": st.booleans(), "match": st.lists(word, max_size=2)}
    ),
    "artifact": st.fixed_dictionaries({}, optional={"modelDownloadImage": word, "s3": s3}),
    "pvcHeadroomPercent": st.integers(0, 50),
}
fallback = st.fixed_dictionaries(
    {
        "match": st.fixed_dictionaries(
            {
                "acceleratorVendor": st.sampled_from(["amd", "nvidia"]),
                "acceleratorType": st.sampled_from(["gpu", "cpu"]),
            },
            optional={"acceleratorModel": word},
        ),
        "runtime": st.fixed_dictionaries(
            {"image": word, "engine": st.sampled_from(["vllm", "sglang"])},
            optional={"engineArgs": engine_args, "containerEnv": env_list, "resources": resources},
        ),
    },
    optional={
        "priority": st.integers(-10, 10),
        "type": st.sampled_from(["optimized", "general", "preview", "unoptimized"]),
        "autoSelectionPolicy": st.sampled_from(["optimized", "any"]),
    },
)


@st.composite
def fallbacks(draw: st.DrawFn) -> list[dict[str, Any]]:
    names = draw(st.lists(dns_label, max_size=3, unique=True))
    return [{"name": n, **draw(fallback)} for n in names]


def _meta(namespaced: bool) -> st.SearchStrategy[dict[str, Any]]:
    optional: dict[str, Any] = {"labels": object_labels, "annotations": labels, "uid": word}
    if namespaced:
        optional["namespace"] = dns_label
    return st.fixed_dictionaries({"name": dns_label}, optional=optional)


@st.composite
def services(draw: st.DrawFn) -> dict[str, Any]:
    shape = draw(st.sampled_from(["model", "image", "name", "selector", "model+selector"]))
    spec: dict[str, Any] = {}
    if shape in ("model", "model+selector"):
        spec["model"] = {"name": draw(dns_label)}
    if shape == "image":
        spec["model"] = {"image": draw(word)}
    if shape == "name":
        spec["profile"] = {"name": draw(dns_label)}
        if draw(st.booleans()):
            spec["profileOverrides"] = draw(
                st.fixed_dictionaries(
                    {},
                    optional={
                        "modelSources": st.lists(
                            st.fixed_dictionaries({"modelId": model_id, "sourceUri": source_uri}), max_size=2
                        ),
                        "acceleratorCount": st.integers(0, 8),
                        "containerEnv": env_list,
                        "engineEnv": labels,
                        "engineArgs": engine_args,
                    },
                )
            )
    if shape in ("selector", "model+selector"):
        selector = draw(
            st.fixed_dictionaries(
                {},
                optional={
                    "precision": st.sampled_from(["fp8", "fp16"]),
                    "acceleratorModel": word,
                    "minimumType": st.sampled_from(["optimized", "general", "preview", "unoptimized", "any"]),
                    "role": st.just("deployable"),
                    "acceleratorCount": st.integers(0, 8),
                    "engineArgs": engine_args,
                },
            )
        )
        if shape == "selector":
            selector["aimId"] = draw(path_id)
        spec["profile"] = {"selector": selector}
    extra = draw(
        st.fixed_dictionaries(
            {},
            optional={
                "routing": routing,
                "storage": storage,
                "scaleFromZero": scale_from_zero,
                "env": env_list,
                "replicas": st.integers(0, 5),
                "resources": resources,
                "imagePullSecrets": st.lists(st.fixed_dictionaries({"name": dns_label}), max_size=2),
                "serviceAccountName": dns_label,
                "runtimeConfigName": dns_label,
                "runtimeConfig": st.fixed_dictionaries({}, optional=rc_block),
                "caching": st.fixed_dictionaries(
                    {}, optional={"mode": st.sampled_from(["Shared", "Dedicated"]), "env": env_list}
                ),
            },
        )
    )
    spec.update(extra)
    if draw(st.booleans()):
        low = draw(st.integers(0, 3))
        spec["minReplicas"] = low
        spec["maxReplicas"] = draw(st.integers(max(low, 1), 6))
        if low > 0 or draw(st.booleans()):
            spec["autoScaling"] = {
                "metrics": [
                    {
                        "type": "PodMetric",
                        "podmetric": {
                            "metric": {"metricNames": ["vllm:num_requests_running"]},
                            "target": {"type": "Value", "value": "1"},
                        },
                    }
                ]
            }
    version = draw(st.sampled_from(["v1alpha1", "v1alpha2"]))
    return {
        "apiVersion": f"aim.eai.amd.com/{version}",
        "kind": "AIMService",
        "metadata": draw(_meta(True)),
        "spec": spec,
    }


@st.composite
def profiles(draw: st.DrawFn) -> dict[str, Any]:
    cluster = draw(st.booleans())
    spec = draw(
        st.fixed_dictionaries(
            {"aimId": path_id, "image": word},
            optional={
                "modelId": model_id,
                "engine": st.sampled_from(["vllm", "sglang"]),
                "metric": st.sampled_from(["latency", "throughput"]),
                "precision": st.sampled_from(["fp4", "fp8", "fp16", "fp32", "bf16", "int4", "int8"]),
                "type": st.sampled_from(["optimized", "general", "preview", "unoptimized"]),
                "primary": st.booleans(),
                "autoSelectionPolicy": st.sampled_from(["optimized", "any"]),
                "engineArgs": engine_args,
                "engineEnv": labels,
                "acceleratorModel": st.from_regex(
                    r"[A-Z0-9]([A-Za-z0-9._-]{0,10}[A-Za-z0-9])?", fullmatch=True
                ),
                "acceleratorVendor": st.just("amd"),
                "acceleratorType": st.sampled_from(["gpu", "cpu"]),
                "acceleratorCount": st.integers(0, 8),
                "resources": resources,
                "modelSources": st.lists(
                    st.fixed_dictionaries(
                        {"modelId": model_id, "sourceUri": source_uri},
                        optional={"size": quantity, "env": env_list},
                    ),
                    max_size=2,
                ),
                "containerEnv": env_list,
                "runtimeConfigName": dns_label,
                "storageClassName": dns_label,
            },
        )
    )
    if not cluster and draw(st.booleans()):
        spec["caching"] = draw(
            st.fixed_dictionaries({}, optional={"enabled": st.booleans(), "env": env_list})
        )
    doc = {
        "apiVersion": "aim.eai.amd.com/v1alpha2",
        "kind": "AIMClusterProfile" if cluster else "AIMProfile",
        "metadata": draw(_meta(not cluster)),
        "spec": spec,
    }
    if draw(st.booleans()):
        doc["status"] = draw(
            st.fixed_dictionaries(
                {},
                optional={
                    "status": st.sampled_from(["Ready", "NotAvailable"]),
                    "version": word,
                    "deployable": st.booleans(),
                },
            )
        )
    return doc


@st.composite
def runtime_configs(draw: st.DrawFn) -> dict[str, Any]:
    cluster = draw(st.booleans())
    spec = draw(st.fixed_dictionaries({}, optional={**rc_block, "defaultStorageClassName": dns_label}))
    if draw(st.booleans()):
        spec["model"] = {"profileGeneration": {"fallbacks": draw(fallbacks())}}
    kind = "AIMClusterRuntimeConfig" if cluster else "AIMRuntimeConfig"
    return {
        "apiVersion": "aim.eai.amd.com/v1alpha1",
        "kind": kind,
        "metadata": draw(_meta(not cluster)),
        "spec": spec,
    }


@st.composite
def models(draw: st.DrawFn) -> dict[str, Any]:
    cluster = draw(st.booleans())
    anchor = draw(st.sampled_from(["image", "modelId"]))
    spec = {anchor: draw(word if anchor == "image" else model_id)}
    # The AIMModel CRD admits accelerator and source only beside modelId.
    id_only: dict[str, Any] = {
        "accelerator": st.fixed_dictionaries(
            {},
            optional={
                "count": st.integers(1, 8),
                "vendor": st.sampled_from(["amd", "nvidia"]),
                "model": st.from_regex(r"[A-Z0-9]([A-Za-z0-9._-]{0,10}[A-Za-z0-9])?", fullmatch=True),
            },
        ),
        "source": st.fixed_dictionaries(
            {},
            optional={
                "uri": source_uri,
                "size": quantity,
                "precision": st.sampled_from(["fp8", "fp16", "bf16", "int8"]),
            },
        ),
    }
    optional: dict[str, Any] = {"aimId": path_id, "runtimeConfigName": dns_label}
    if anchor == "modelId":
        optional.update(id_only)
    spec.update(draw(st.fixed_dictionaries({}, optional=optional)))
    version = draw(st.sampled_from(["v1alpha1", "v1alpha2"]))
    kind = "AIMClusterModel" if cluster else "AIMModel"
    return {
        "apiVersion": f"aim.eai.amd.com/{version}",
        "kind": kind,
        "metadata": draw(_meta(not cluster)),
        "spec": spec,
    }


@st.composite
def templates(draw: st.DrawFn) -> dict[str, Any]:
    cluster = draw(st.booleans())
    spec = draw(
        st.fixed_dictionaries(
            {"modelName": dns_label},
            optional={
                "metric": st.sampled_from(["latency", "throughput"]),
                "precision": st.sampled_from(["auto", "fp8", "bf16"]),
                "profileId": word,
                "hardware": st.one_of(
                    st.fixed_dictionaries(
                        {
                            "gpu": st.fixed_dictionaries(
                                {}, optional={"requests": st.integers(0, 8), "model": word}
                            )
                        }
                    ),
                    st.fixed_dictionaries({"cpu": st.just({"requests": 4})}),
                ),
                "resources": resources,
                "modelSources": st.lists(
                    st.fixed_dictionaries(
                        {"name": model_id}, optional={"sourceURI": source_uri, "size": quantity}
                    ),
                    max_size=2,
                ),
            },
        )
    )
    if not cluster:
        spec.update(
            draw(
                st.fixed_dictionaries(
                    {},
                    optional={"env": env_list, "caching": st.fixed_dictionaries({"enabled": st.booleans()})},
                )
            )
        )
    kind = "AIMClusterServiceTemplate" if cluster else "AIMServiceTemplate"
    return {
        "apiVersion": "aim.eai.amd.com/v1alpha1",
        "kind": kind,
        "metadata": draw(_meta(not cluster)),
        "spec": spec,
    }


valid_manifests = st.one_of(services(), profiles(), runtime_configs(), models(), templates())


@SETTINGS
@given(valid_manifests)
def test_valid_objects_round_trip(doc: dict[str, Any]) -> None:
    obj = parse(doc)
    assert to_manifest(obj) == doc
    assert parse(to_manifest(obj)) == obj
    assert admission_problems(doc) == []


# --- mutations ---------------------------------------------------------------------------------

# Free-form or pass-through subtrees: anything goes there, so mutating them proves nothing.
FREE_FORM = {
    "labels",
    "annotations",
    "engineArgs",
    "engineEnv",
    "requests",
    "limits",
    "claims",
    "status",
    "custom",
    "adapters",
    "profiles",
    "cpu",
    "artifactStorageQuota",
    "ownerReferences",
    "managedFields",
}


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            if key not in FREE_FORM:
                out.extend(_paths(value, (*path, key)))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out.extend(_paths(value, (*path, i)))
    return out


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        doc = doc[key]
    return doc


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> None:
    _get(doc, path[:-1])[path[-1]] = value


def _wrong_type(value: Any) -> Any:
    if isinstance(value, dict):
        return [1, 2]
    if isinstance(value, list):
        return {"x-unexpected": [1]}
    return [["nested"]]


BAD_ENUMS = {
    "AIMService": (("spec", "caching"), "mode"),
    "AIMProfile": (("spec",), "metric"),
    "AIMClusterProfile": (("spec",), "precision"),
    "AIMModel": (("spec", "accelerator"), "vendor"),
    "AIMClusterModel": (("spec", "accelerator"), "vendor"),
    "AIMRuntimeConfig": (("spec", "storage"), "pvcHeadroomPercent"),
    "AIMClusterRuntimeConfig": (("spec", "artifact"), "s3"),
    "AIMServiceTemplate": (("spec",), "precision"),
    "AIMClusterServiceTemplate": (("spec",), "metric"),
}


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, Any]:
    base = copy.deepcopy(draw(st.one_of(st.sampled_from(SEED_DOCS), valid_manifests)))
    how = draw(
        st.sampled_from(
            ["wrong-type", "unknown-key", "bad-enum", "wrong-version", "non-string-key", "attribute-name-key"]
        )
    )
    renamed = [p for p in _paths(base) if len(p) > 1 and isinstance(p[-1], str) and _snake(p[-1]) != p[-1]]
    if how == "attribute-name-key" and not renamed:
        how = "wrong-version"
    if how == "attribute-name-key":
        # A manifest spells fields as the CRD does; the Python attribute name is not a field there.
        path = draw(st.sampled_from(renamed))
        parent = _get(base, path[:-1])
        parent[_snake(path[-1])] = parent.pop(path[-1])
        how = "attribute-name-key:" + _dotted((*path[:-1], _snake(path[-1])))
    elif how == "wrong-type":
        path = draw(st.sampled_from([p for p in _paths(base) if p]))
        _set(base, path, _wrong_type(_get(base, path)))
    elif how in ("unknown-key", "non-string-key"):
        dicts = [p for p in _paths(base) if isinstance(_get(base, p), dict)]
        path = draw(st.sampled_from(dicts))
        key: Any = (
            "x-" + draw(st.text(max_size=8)) if how == "unknown-key" else draw(st.integers() | st.booleans())
        )
        _get(base, path)[key] = draw(json_leaf.filter(lambda v: v is not None))
    elif how == "bad-enum":
        parent, key = BAD_ENUMS[base["kind"]]
        node = base
        for part in parent:
            node = node.setdefault(part, {})
        node[key] = draw(
            st.text(max_size=12).filter(lambda t: t not in ("", "amd", "nvidia")).map(lambda t: "x" + t)
        )
    else:
        served = {"AIMService": 2, "AIMModel": 2, "AIMClusterModel": 2}
        versions = ["v1", "v1beta1", "v2"] + (
            ["v1alpha1"] if base["kind"] in ("AIMProfile", "AIMClusterProfile") else []
        )
        versions += (
            []
            if base["kind"] in served
            else (["v1alpha2"] if base["apiVersion"].endswith("v1alpha1") else [])
        )
        base["apiVersion"] = "aim.eai.amd.com/" + draw(
            st.sampled_from(versions) | st.text(max_size=6).map(lambda t: "x" + t)
        )
    return how, base


@SETTINGS
@given(mutated())
def test_mutated_manifests_raise_only_validation_errors(case: tuple[str, Any]) -> None:
    how, doc = case
    try:
        parse(doc)
    except AIMValidationError as err:
        assert err.field and err.reason and err.message
        if how == "wrong-version":
            assert (err.field, err.reason) == ("apiVersion", "UnsupportedVersion")
        if how == "unknown-key":
            assert err.reason in ("UnknownField", "InvalidSpec")
    else:
        raise AssertionError(f"{how} mutation was accepted: {doc!r}")
    problems = admission_problems(doc)
    assert problems and all(p.field and p.reason for p in problems)
    if how.startswith("attribute-name-key:"):
        assert (how.partition(":")[2], "UnknownField") in [(p.field, p.reason) for p in problems]


def _snake(key: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", key).lower()


def _dotted(path: tuple[Any, ...]) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else ("." if i else "") + p for i, p in enumerate(path))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(st.text(max_size=8) | st.integers(), children, max_size=3)
    ),
    max_leaves=12,
)


@SETTINGS
@given(
    st.one_of(
        json_values,
        st.fixed_dictionaries(
            {
                "apiVersion": st.sampled_from(["aim.eai.amd.com/v1alpha1", "aim.eai.amd.com/v1alpha2"]),
                "kind": st.sampled_from(sorted(BAD_ENUMS)),
            },
            optional={"metadata": json_values, "spec": json_values, "status": json_values},
        ),
    )
)
def test_arbitrary_input_never_escapes_as_another_exception(doc: Any) -> None:
    try:
        parse(doc)
    except AIMValidationError as err:
        assert err.field and err.reason
