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
# An env value read from the pod or a container's resources, at every AIM field that reaches the
# pods (the service's env, the runtime config's, a profile's containerEnv).
CHILD_BASE[1]["spec"]["env"].append(
    {"name": "POD_NAME", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}
)
CHILD_BASE[2]["spec"]["env"].append(
    {"name": "MEM_LIMIT", "valueFrom": {"resourceFieldRef": {"resource": "limits.memory", "divisor": "1Mi"}}}
)
CHILD_BASE[4]["spec"]["containerEnv"].append(
    {"name": "NODE", "valueFrom": {"fieldRef": {"fieldPath": "spec.nodeName"}}}
)
CHILD_BASE[2]["spec"]["priorityClassName"] = "high-priority"
# The fallback runtime the model's generated profile takes its resources from (merged by name over
# the embedded one): a resource name there reaches the InferenceService.
CHILD_BASE[1]["spec"]["model"] = {
    "profileGeneration": {
        "fallbacks": [
            {
                "name": "nvidia-vllm",
                "priority": 20,
                "type": "unoptimized",
                "autoSelectionPolicy": "any",
                "match": {"acceleratorVendor": "nvidia", "acceleratorType": "gpu"},
                "runtime": {
                    "image": "vllm/vllm-openai:v0.17.1-cu130",
                    "engine": "vllm",
                    "resources": {"limits": {"nvidia.com/gpu": "1"}, "requests": {"nvidia.com/gpu": "1"}},
                },
            }
        ]
    }
}
# Plain objects beside the AIM objects, each of a kind whose Go rules no schema says.
CHILD_BASE += [
    {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {"name": "creds", "namespace": "ns1"},
        "data": {"token": "c2VjcmV0"},
    },
    {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {"name": "tls", "namespace": "ns1"},
        "type": "kubernetes.io/tls",
        "data": {"tls.crt": "Y2VydA==", "tls.key": "a2V5"},
    },
    {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {"name": "front", "namespace": "ns1"},
        "spec": {"type": "ClusterIP", "ports": [{"name": "http", "port": 80, "targetPort": 8080}]},
    },
    {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "binary", "namespace": "ns1"},
        "data": {"a": "x"},
        "binaryData": {"b": "eA=="},
    },
]
PLAIN_OBJECTS = range(5, len(CHILD_BASE))

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

VALUE_FROMS: list[Any] = [
    {},
    {"secretKeyRef": {"name": "hf", "key": "t"}, "configMapKeyRef": {"name": "settings", "key": "level"}},
    {"fieldRef": {"fieldPath": "metadata.bogus"}},
    {"fieldRef": {"fieldPath": "metadata.name", "apiVersion": "v2"}},
    {"fieldRef": {"fieldPath": "metadata.labels['b a d']"}},
    {"fieldRef": {"fieldPath": "metadata.labels"}},
    {"fieldRef": {"fieldPath": "spec.nodeName['x']"}},
    {"fieldRef": {"fieldPath": "status.podIP"}},
    {"fieldRef": {"fieldPath": "metadata.annotations['Foo']"}},
    {"fieldRef": {"fieldPath": ""}},
    {"resourceFieldRef": {"resource": "bogus"}},
    {"resourceFieldRef": {"resource": "limits.memory", "divisor": "3"}},
    {"resourceFieldRef": {"resource": "limits.memory", "divisor": "1024"}},
    {"resourceFieldRef": {"resource": "limits.memory", "divisor": "1Ki"}},
    {"resourceFieldRef": {"resource": "requests.cpu", "divisor": "1m"}},
    {"resourceFieldRef": {"resource": "requests.cpu", "divisor": "1e-3"}},
    {"resourceFieldRef": {"resource": "limits.nvidia.com/gpu"}},
    {"fileKeyRef": {"key": "k", "path": "p", "volumeName": "v"}},
    {"configMapKeyRef": {"key": "level"}},
]
RESOURCE_NAME_KEYS = [
    "a\n", "foo", "requests.cpu", "example.com/", "a/b/c", "pods", "hugepages-2Mi", "example.com/fpga",
    "Example.com/x", "kubernetes.io/foo", "attachable-volumes-x",
]  # fmt: skip
BASE64_VALUES: list[Any] = ["not base64!!", "eA", "eA==", "eA==\n", "-_8=", "", "c2VjcmV0", "====", 12]
TLS_KEYS = ["tls.crt", "tls.cert", "ca.crt", "tls.key"]
SECRET_TYPES = [
    "kubernetes.io/tls", "Opaque", "kubernetes.io/dockerconfigjson", "kubernetes.io/basic-auth",
    "kubernetes.io/ssh-auth", "example.com/custom", "",
]  # fmt: skip
PORTS: list[Any] = [0, 1, 80, 65535, 65536, 70000, -1]
TARGET_PORTS: list[Any] = [0, 8080, 70000, "http", "has space", "a" * 16, "-x", "a--b"]
SERVICE_TYPES = ["ClusterIP", "NodePort", "LoadBalancer", "ExternalName", "Weird", ""]
PORT_LISTS: list[Any] = [
    [],
    [{"port": 80}, {"port": 81}],
    [{"name": "a", "port": 80}, {"name": "a", "port": 81}],
    [{"port": 80, "protocol": "ICMP"}],
    [{"port": 80, "nodePort": 30001}],
    [{"name": "Bad_Name", "port": 80}, {"name": "ok", "port": 81}],
]
BINARY_KEYS = ["a", "b", "c.bin"]

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
    (2, ("spec", "env", 2, "valueFrom"), VALUE_FROMS),
    (1, ("spec", "env", 2, "valueFrom"), VALUE_FROMS),
    (4, ("spec", "containerEnv", 1, "valueFrom"), VALUE_FROMS),
    (2, ("spec", "priorityClassName"), OBJECT_NAMES),
    (2, ("spec", "resources", "requests", "cpu", None), RESOURCE_NAME_KEYS),
    (4, ("spec", "resources", "requests", "memory", None), RESOURCE_NAME_KEYS),
    (1, ("spec", "model", "profileGeneration", "fallbacks", 0, "runtime", "resources", "limits",
         "nvidia.com/gpu", None), RESOURCE_NAME_KEYS),
    (1, ("spec", "model", "profileGeneration", "fallbacks", 0, "runtime", "resources", "limits",
         "nvidia.com/gpu"), QUANTITIES),
    (6, ("data", "token"), BASE64_VALUES),
    (7, ("data", "tls.crt", None), TLS_KEYS),
    (7, ("type",), SECRET_TYPES),
    (8, ("spec", "ports", 0, "port"), PORTS),
    (8, ("spec", "ports", 0, "targetPort"), TARGET_PORTS),
    (8, ("spec", "type"), SERVICE_TYPES),
    (8, ("spec", "ports"), PORT_LISTS),
    (9, ("binaryData", "b", None), BINARY_KEYS),
    (9, ("binaryData", "b"), BASE64_VALUES),
]  # fmt: skip


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
    class (env name, quantity, object name, config key, env source, port, Secret data), sometimes any
    hostile value. One in five puts the plain objects into a `kind: List` document, which kubectl
    (and the plan) apply as its items."""
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
        if rng.random() < 0.2:
            plain = [docs[i] for i in PLAIN_OBJECTS]
            docs = [d for i, d in enumerate(docs) if i not in PLAIN_OBJECTS]
            docs.append({"apiVersion": "v1", "kind": "List", "items": plain})
            labels.append("List:items")
        out.append(Case(f"child-{number}:" + ",".join(labels), _dump(docs)))
    return out


def duplicate_objects(seed: int, count: int) -> list[Case]:
    """Stacks with one Kubernetes object declared twice (a plain object at a child's name, two
    plain objects of one name, a service copied under another Kubernetes name of the same child):
    the project refuses every one before anything registers (`DuplicateObject`, `DuplicateName`)."""
    from aim_pulumi.resolve.children.names import inference_service_name

    isvc = inference_service_name("svc", "ns1")
    extras: list[tuple[str, dict[str, Any]]] = [
        (
            "plain InferenceService at the service's",
            {
                "apiVersion": "serving.kserve.io/v1beta1",
                "kind": "InferenceService",
                "metadata": {"name": isvc, "namespace": "ns1"},
                "spec": {"predictor": {"containers": [{"name": "kserve-container", "image": "x:1"}]}},
            },
        ),
        (
            "a second, different ConfigMap settings",
            {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings", "namespace": "ns1"}},
        ),
        (
            "a second, different Secret creds",
            {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "creds", "namespace": "ns1"}},
        ),
    ]
    rng = random.Random(seed)
    out: list[Case] = []
    for number in range(count):
        label, extra = rng.choice(extras)
        docs = [*copy.deepcopy(CHILD_BASE), copy.deepcopy(extra)]
        out.append(Case(f"duplicate-{number}:{label}", _dump(docs)))
    return out
