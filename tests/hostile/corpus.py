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
