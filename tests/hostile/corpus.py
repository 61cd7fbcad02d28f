"""Hostile manifests of every kind, generated deterministically from a seed.

Each input is one YAML file (bytes): a small valid stack (model, profile, runtime config,
service) with one or two mutations, or a text-level attack (alias bombs, cycles, deep nesting,
duplicate keys, bad encodings, oversized files). The same seed gives the same corpus.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import yaml

from aim_pulumi.api.limits import MAX_FILE_BYTES

GROUP = "aim.eai.amd.com/v1alpha2"

BASE: list[dict[str, Any]] = [
    {
        "apiVersion": GROUP,
        "kind": "AIMModel",
        "metadata": {"name": "m1", "namespace": "ns1", "labels": {"team": "a"}},
        "spec": {
            "modelId": "Qwen/Qwen3-0.6B",
            "accelerator": {"vendor": "nvidia", "count": 1},
            "source": {"size": "2Gi"},
        },
    },
    {
        "apiVersion": "aim.eai.amd.com/v1alpha1",
        "kind": "AIMRuntimeConfig",
        "metadata": {"name": "default", "namespace": "ns1"},
        "spec": {
            "routing": {
                "enabled": True,
                "gatewayRef": {"name": "gw", "namespace": "gateways"},
                "pathTemplate": "/{.metadata.namespace}/{.metadata.labels['team']}",
            },
            "labelPropagation": {"enabled": True, "match": ["team", "example.com/*"]},
            "env": [{"name": "HF_HOME", "value": "/cache"}],
        },
    },
    {
        "apiVersion": GROUP,
        "kind": "AIMService",
        "metadata": {
            "name": "svc",
            "namespace": "ns1",
            "labels": {"team": "a", "example.com/tier": "gold"},
            "annotations": {"aim.eai.amd.com/reconciler-pipeline": "profile"},
        },
        "spec": {
            "model": {"name": "m1"},
            "replicas": 1,
            "caching": {"mode": "Shared"},
            "resources": {"requests": {"cpu": "2", "memory": "8Gi"}},
            "env": [{"name": "LOG_LEVEL", "value": "info"}],
        },
    },
    {
        "apiVersion": GROUP,
        "kind": "AIMService",
        "metadata": {"name": "scaled", "namespace": "ns1", "labels": {"team": "b"}},
        "spec": {
            "profile": {"name": "p1"},
            "minReplicas": 1,
            "maxReplicas": 4,
            "autoScaling": {
                "pollingInterval": 30,
                "metrics": [
                    {
                        "type": "PodMetric",
                        "podmetric": {
                            "metric": {
                                "backend": "opentelemetry",
                                "metricNames": ["vllm:num_requests_running"],
                            },
                            "target": {"type": "Value", "value": "1"},
                        },
                    }
                ],
            },
        },
    },
    {
        "apiVersion": GROUP,
        "kind": "AIMProfile",
        "metadata": {
            "name": "p1",
            "namespace": "ns1",
            "labels": {"aim.eai.amd.com/profile-role": "deployable"},
        },
        "spec": {
            "aimId": "qwen/qwen3",
            "image": "ghcr.io/example/aim:1",
            "modelId": "Qwen/Qwen3-0.6B",
            "acceleratorVendor": "amd",
            "acceleratorModel": "MI300X",
            "acceleratorCount": 1,
        },
    },
]

HOSTILE_VALUES: list[Any] = [
    None,
    True,
    0,
    -1,
    2**31,
    2**63,
    10**40,
    1.5,
    float("inf"),
    "",
    " ",
    "x" * 70_000,
    "1abc",
    "0",
    "UPPER",
    "Bad_Name",
    "../../etc/passwd",
    "/etc",
    "a/../b",
    "a\nb: c",
    "\t\x1b[31mred\x1b[0m",
    "\r\n\u2028\u202e",
    "\x00nul",
    "\ud800",
    "caf\u00e9",
    "9999999999999999999999999999999999999999",
    "-1Gi",
    "1e400",
    "{.metadata.labels.x.`sub(/^(a+)+b$/, z)`}",
    "/{.metadata.name[?(@.x)]}",
    "/{..name}",
    "*.Example.COM",
    "hf_secret_token_value",
    [1, 2],
    ["a"] * 50,
    {"nested": {"deeper": [{"k": "v"}]}},
    {"bad key!": "v"},
    {"team": "a b"},
]
HOSTILE_KEYS = ["bad key!", "x" * 300, "a\nb", "\ud800", "example.com/" + "y" * 64, "/x", "unknownField"]


@dataclass(frozen=True)
class Case:
    """One corpus input: a name saying what was done, and the file's bytes."""

    name: str
    data: bytes


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _paths(child, (*prefix, index))


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    node = doc
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return doc


def _dump(docs: list[Any]) -> bytes:
    text = yaml.safe_dump_all(docs, sort_keys=False, allow_unicode=True, width=1 << 20)
    return text.encode("utf-8", errors="surrogatepass")


def _deep(levels: int) -> Any:
    value: Any = "leaf"
    for _ in range(levels):
        value = [value]
    return value


def _bomb(levels: int, width: int) -> str:
    lines = ["a0: &a0 [" + ", ".join(['"lol"'] * width) + "]"]
    for level in range(1, levels):
        lines.append(f"a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


def text_attacks() -> list[Case]:
    """Attacks on the file itself rather than on one field."""
    base = _dump(BASE).decode("utf-8")
    service = _dump([BASE[2]]).decode("utf-8")
    return [
        Case("alias-bomb-9x10", (service.rstrip() + "\n" + _bomb(9, 10)).encode()),
        Case("alias-bomb-in-spec", ("spec:\n  x: 1\n" + _bomb(8, 10)).encode()),
        Case("alias-bomb-document", _bomb(9, 10).encode()),
        Case("cyclic-alias", b"&a [*a]\n"),
        Case("cyclic-alias-mapping", b"&a {apiVersion: aim.eai.amd.com/v1alpha2, kind: AIMModel, x: *a}\n"),
        Case("deep-flow-list", ("x: " + "[" * 5000 + "]" * 5000 + "\n").encode()),
        Case(
            "deep-block-mapping",
            "".join("  " * i + f"k{i}:\n" for i in range(300)).encode() + b"  " * 300 + b"v\n",
        ),
        Case(
            "deep-in-spec",
            service.replace("  replicas: 1", "  replicas: " + "[" * 2000 + "]" * 2000).encode(),
        ),
        Case("duplicate-metadata", service.replace("spec:", "metadata: {name: renamed}\nspec:", 1).encode()),
        Case("duplicate-nested", service.replace("  replicas: 1", "  replicas: 1\n  replicas: 2").encode()),
        Case("non-utf8", base.encode() + b"\n# \xff\xfe\xfa\n"),
        Case("latin1-value", service.replace("svc", "caf\xe9").encode("latin-1")),
        Case("utf16-bom", service.encode("utf-16")),
        Case("nul-bytes", service.replace("svc", "s\x00vc").encode()),
        Case("python-tag", b"!!python/object/apply:os.system ['echo hacked']\n"),
        Case("binary-tag", b"apiVersion: !!binary aGVsbG8=\nkind: AIMModel\n"),
        Case("merge-key", (service + "---\nbase: &b {kind: AIMModel}\nother:\n  <<: *b\n").encode()),
        Case("too-large", b"# " + b"x" * (MAX_FILE_BYTES + 10) + b"\n"),
        Case("empty", b""),
        Case("only-documents", b"---\n---\n---\n"),
        Case("scalar-document", b"just a string\n"),
        Case("list-document", b"- 1\n- 2\n"),
        Case("crlf-newlines", base.replace("\n", "\r\n").encode()),
        Case("tab-indent", b"apiVersion: aim.eai.amd.com/v1alpha2\nkind: AIMModel\nmetadata:\n\tname: x\n"),
        Case("huge-int-size", service.replace("  replicas: 1", "  replicas: " + "9" * 5000).encode()),
        Case(
            "control-kind",
            service.replace("kind: AIMService", 'kind: "AIMService\\r\\nInjected: line"').encode(),
        ),
    ]


def mutations(seed: int, count: int) -> list[Case]:
    """`count` field-level mutations of the base stack: a hostile value at a random path, or a key."""
    rng = random.Random(seed)
    out: list[Case] = []
    for number in range(count):
        docs = copy.deepcopy(BASE)
        labels = []
        for _ in range(rng.choice((1, 1, 1, 2))):
            index = rng.randrange(len(docs))
            paths = list(_paths(docs[index]))
            path = rng.choice(paths)
            if rng.random() < 0.15:
                target = docs[index]
                for part in path:
                    target = target[part]
                key = rng.choice(HOSTILE_KEYS)
                if isinstance(target, dict):
                    target[key] = rng.choice(HOSTILE_VALUES)
                    labels.append(f"{docs[index]['kind']}:{'.'.join(map(str, path))}+key")
                    continue
            value = rng.choice([*HOSTILE_VALUES, _deep(rng.choice((70, 150)))])
            _set(docs[index], path, copy.deepcopy(value))
            labels.append(
                f"{docs[index]['kind'] if isinstance(docs[index], dict) else '?'}:{'.'.join(map(str, path))}"
            )
        out.append(Case(f"{number}:" + ",".join(labels), _dump(docs)))
    return out


def corpus(seed: int, count: int) -> list[Case]:
    """The text attacks, then `count` field mutations."""
    return [*text_attacks(), *mutations(seed, count)]


# The base stack with every field whose value the API server judges by Go code rather than a schema
# when it reaches a child: env names and values (service, runtime config, profile), key references,
# quantities (an extended resource among them), service account, pull secret and storage class names,
# and a plain ConfigMap planned beside the AIM objects.
# Its route takes the default path: the base's template holds the brackets that send a file to the
# pure-Python YAML parser, which would be most of the time a child-level input takes to plan.
CHILD_BASE: list[dict[str, Any]] = copy.deepcopy(BASE)
del CHILD_BASE[1]["spec"]["routing"]["pathTemplate"]
CHILD_BASE[1]["spec"]["storage"] = {"defaultStorageClassName": "standard"}
CHILD_BASE[1]["spec"]["env"].append(
    {"name": "VLLM_LOGGING_LEVEL", "valueFrom": {"configMapKeyRef": {"name": "settings", "key": "level"}}}
)
CHILD_BASE[2]["spec"].update(
    {
        "serviceAccountName": "aim-runtime",
        "imagePullSecrets": [{"name": "registry"}],
        "storage": {"defaultStorageClassName": "fast"},
        "resources": {"requests": {"cpu": "2", "memory": "8Gi"}, "limits": {"memory": "16Gi"}},
    }
)
CHILD_BASE[2]["spec"]["env"].append(
    {"name": "HF_TOKEN", "valueFrom": {"secretKeyRef": {"name": "hf-token", "key": "token"}}}
)
CHILD_BASE[3]["spec"]["resources"] = {"requests": {"amd.com/gpu": "1"}, "limits": {"amd.com/gpu": "1"}}
CHILD_BASE[4]["spec"].update(
    {
        "containerEnv": [{"name": "VLLM_USE_TRITON_FLASH_ATTN", "value": "0"}],
        "serviceAccountName": "aim-profile",
        "imagePullSecrets": [{"name": "profile-registry"}],
        "resources": {"requests": {"memory": "32Gi"}},
    }
)
CHILD_BASE.append(
    {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "settings", "namespace": "ns1"},
        "data": {"level": "INFO", "vllm-args.yaml": "max_model_len: 8192\n"},
    }
)

# Per class, values the API server refuses and edge values it takes (the relaxed env names, a signed
# quantity, a dotted name): a generator that only tried bad values would not see a refusal of a good one.
ENV_NAMES = [
    "a=b", "é", "\u0430", "A\nB", "a\tb", "a\x7f", " ", "my.var-1 x", "1ABC", "_x", "~!@#", "x" * 300,
]  # fmt: skip
ENV_VALUES = ["a\x00b", "", "a=b", "é", "line\nbreak", "x" * 5000]
QUANTITIES = [
    "-1", "0", "+1", ".5", "1e-400", "+1Gi", ".5Gi", "1e400", "-1Gi", "1.5", "100m", "2", "0.1", "1Ki", "1E",
    "8Ei", "9223372036854775807", "1.000001", "5e3", "1000m", "1500m", "-0", "1e3", 0, 1, 2.5, -3,
]  # fmt: skip
OBJECT_NAMES = [
    "UPPER_bad", "../x", "trail-", "-lead", "BAD NAME", "Bad_Class", "fast.nvme-1", "a" * 253, "a" * 254, "0",
    "x.", ".x", "a..b", "a.b-c", "é", "a/b", "a-b.c-d", "a" * 63 + ".b", "a" * 64 + ".b",
]  # fmt: skip
CONFIG_KEYS = [
    "a/b", "..a", ".", "..", ".hidden", "k/../x", "ok-key", "KEY_name.1", "a b", "é", "x" * 253, "x" * 254,
    "-", "_", "a..b",
]  # fmt: skip
RESOURCE_NAMES = ["amd.com/gpu", "nvidia.com/gpu", "example.com/fpga", "hugepages-2Mi", "ephemeral-storage"]

# (document index, path, values): where a child-level value sits in CHILD_BASE. A path ending in
# `None` replaces the key of the mapping above it rather than a value.
CHILD_SLOTS: list[tuple[int, tuple[Any, ...], list[Any]]] = [
    (2, ("spec", "env", 0, "name"), ENV_NAMES),
    (1, ("spec", "env", 0, "name"), ENV_NAMES),
    (4, ("spec", "containerEnv", 0, "name"), ENV_NAMES),
    (2, ("spec", "env", 0, "value"), ENV_VALUES),
    (1, ("spec", "env", 0, "value"), ENV_VALUES),
    (2, ("spec", "resources", "requests", "cpu"), QUANTITIES),
    (2, ("spec", "resources", "requests", "memory"), QUANTITIES),
    (2, ("spec", "resources", "limits", "memory"), QUANTITIES),
    (2, ("spec", "resources", "limits", "amd.com/gpu"), QUANTITIES),
    (3, ("spec", "resources", "requests", "amd.com/gpu"), QUANTITIES),
    (3, ("spec", "resources", "limits", "amd.com/gpu"), QUANTITIES),
    (3, ("spec", "resources", "limits", "amd.com/gpu", None), RESOURCE_NAMES),
    (4, ("spec", "resources", "requests", "memory"), QUANTITIES),
    (4, ("spec", "resources", "limits", "amd.com/gpu"), QUANTITIES),
    (2, ("spec", "env", 1, "valueFrom", "secretKeyRef", "name"), OBJECT_NAMES),
    (2, ("spec", "env", 1, "valueFrom", "secretKeyRef", "key"), CONFIG_KEYS),
    (1, ("spec", "env", 1, "valueFrom", "configMapKeyRef", "name"), OBJECT_NAMES),
    (1, ("spec", "env", 1, "valueFrom", "configMapKeyRef", "key"), CONFIG_KEYS),
    (2, ("spec", "serviceAccountName"), OBJECT_NAMES),
    (4, ("spec", "serviceAccountName"), OBJECT_NAMES),
    (2, ("spec", "imagePullSecrets", 0, "name"), OBJECT_NAMES),
    (4, ("spec", "imagePullSecrets", 0, "name"), OBJECT_NAMES),
    (2, ("spec", "storage", "defaultStorageClassName"), OBJECT_NAMES),
    (1, ("spec", "storage", "defaultStorageClassName"), OBJECT_NAMES),
    (5, ("data", "vllm-args.yaml", None), CONFIG_KEYS),
    (5, ("data", "level", None), CONFIG_KEYS),
]


def _child_mutate(doc: dict[str, Any], path: tuple[Any, ...], value: Any) -> None:
    """Set the value at `path`, or with a path `(..., key, None)` rename `key` to `value`."""
    renamed = path[-1] is None
    node: Any = doc
    for part in path[: -2 if renamed else -1]:
        node = node.setdefault(part, {}) if isinstance(node, dict) else node[part]
    if renamed:
        if path[-2] in node:  # not already renamed by the other mutation of the same input
            node[value] = node.pop(path[-2])
    else:
        node[path[-1]] = value


def child_value_mutations(seed: int, count: int) -> list[Case]:
    """`count` stacks with one or two child-level values changed: mostly a value of the field's own
    class (env name, quantity, object name, config key), sometimes any hostile value."""
    rng = random.Random(seed)
    out: list[Case] = []
    for number in range(count):
        docs = copy.deepcopy(CHILD_BASE)
        labels = []
        for _ in range(rng.choice((1, 1, 2))):
            index, path, values = rng.choice(CHILD_SLOTS)
            pool = values if path[-1] is None or rng.random() < 0.85 else HOSTILE_VALUES
            value = copy.deepcopy(rng.choice(pool))
            if path[-1] is None and not isinstance(value, str):
                value = str(value)
            _child_mutate(docs[index], path, value)
            shown = ".".join("<key>" if part is None else str(part) for part in path)
            labels.append(f"{docs[index]['kind']}:{shown}={value!r:.40}")
        out.append(Case(f"child-{number}:" + ",".join(labels), _dump(docs)))
    return out
