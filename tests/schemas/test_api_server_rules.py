"""The API server's Go rules the children and plain objects used to pass: each case here was judged by
kube-apiserver v1.34.4 (a dry-run create of a Deployment or Job holding the pod, or of the object
itself), and the project now agrees with every verdict. The fuzz oracle
(`tests/cluster/test_fuzz_oracle_cluster.py`) has the API server judge them again on every run."""

from __future__ import annotations

from typing import Any

import pytest

from aim_pulumi.schemas import validate_manifest
from aim_pulumi.schemas.metadata import is_dns1123_label, is_dns1123_subdomain, qualified_name_errors


def job(container: dict[str, Any] | None = None, **pod: Any) -> dict[str, Any]:
    spec = {
        "restartPolicy": "Never",
        "containers": [{"name": "c", "image": "x:1", **(container or {})}],
        **pod,
    }
    return {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": "j", "namespace": "ns"},
        "spec": {"template": {"spec": spec}},
    }


def env(value_from: dict[str, Any], value: str | None = None) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": "A", "valueFrom": value_from}
    if value is not None:
        entry["value"] = value
    return job({"env": [entry]})


def resource_field(resource: str, divisor: str | None = None) -> dict[str, Any]:
    selector = {"resource": resource, **({"divisor": divisor} if divisor is not None else {})}
    return env({"resourceFieldRef": selector})


def resources(name: str, quantity: str = "1") -> dict[str, Any]:
    return job({"resources": {"limits": {name: quantity}, "requests": {name: quantity}}})


# (what, manifest, refused by the API server)
JUDGED: list[tuple[str, dict[str, Any], bool]] = [
    ("valueFrom without a source", env({}), True),
    (
        "two sources",
        env({"secretKeyRef": {"name": "s", "key": "k"}, "configMapKeyRef": {"name": "c", "key": "k"}}),
        True,
    ),
    ("a value beside valueFrom", env({"secretKeyRef": {"name": "s", "key": "k"}}, value="x"), True),
    ("an empty value beside valueFrom", env({"secretKeyRef": {"name": "s", "key": "k"}}, value=""), False),
    ("a field the pod has not", env({"fieldRef": {"fieldPath": "metadata.bogus"}}), True),
    ("another apiVersion", env({"fieldRef": {"fieldPath": "metadata.name", "apiVersion": "v2"}}), True),
    ("an empty apiVersion", env({"fieldRef": {"fieldPath": "metadata.name", "apiVersion": ""}}), False),
    ("status.podIP", env({"fieldRef": {"fieldPath": "status.podIP"}}), False),
    ("a label", env({"fieldRef": {"fieldPath": "metadata.labels['a/b']"}}), False),
    ("an annotation in capitals", env({"fieldRef": {"fieldPath": "metadata.annotations['Foo']"}}), False),
    ("a label key with a space", env({"fieldRef": {"fieldPath": "metadata.labels['b a d']"}}), True),
    ("all labels", env({"fieldRef": {"fieldPath": "metadata.labels"}}), True),
    ("restartPolicy", env({"fieldRef": {"fieldPath": "spec.restartPolicy"}}), True),
    ("a subscript of another field", env({"fieldRef": {"fieldPath": "spec.nodeName['x']"}}), True),
    ("spec.host", env({"fieldRef": {"fieldPath": "spec.host"}}), False),
    ("no fieldPath", env({"fieldRef": {"fieldPath": ""}}), True),
    ("an unknown resource", resource_field("bogus"), True),
    ("an extended resource", resource_field("limits.nvidia.com/gpu"), True),
    ("hugepages", resource_field("limits.hugepages-2Mi"), False),
    ("no resource", resource_field(""), True),
    ("memory by 1Mi", resource_field("limits.memory", "1Mi"), False),
    ("memory by 1000", resource_field("limits.memory", "1000"), False),
    ("memory by 1000m", resource_field("limits.memory", "1000m"), False),
    ("memory by 1024", resource_field("limits.memory", "1024"), True),
    ("memory by 3", resource_field("limits.memory", "3"), True),
    ("memory by 1e3", resource_field("limits.memory", "1e3"), True),
    ("memory by 0.5Ki", resource_field("limits.memory", "0.5Ki"), True),
    ("memory by 0", resource_field("limits.memory", "0"), False),
    ("cpu by 1m", resource_field("requests.cpu", "1m"), False),
    ("cpu by 0.001", resource_field("requests.cpu", "0.001"), False),
    ("cpu by 1e-3", resource_field("requests.cpu", "1e-3"), True),
    ("cpu by 1k", resource_field("requests.cpu", "1k"), True),
    ("hugepages by 3", resource_field("limits.hugepages-2Mi", "3"), True),
    ("only fileKeyRef", env({"fileKeyRef": {"key": "k", "path": "p", "volumeName": "v"}}), True),
    ("a key reference without a name", env({"configMapKeyRef": {"key": "k"}}), True),
    ("resource a\\n", resources("a\n"), True),
    ("resource foo", resources("foo"), True),
    ("resource requests.cpu", resources("requests.cpu"), True),
    ("resource pods", resources("pods"), True),
    ("resource example.com/", resources("example.com/"), True),
    ("resource a/b/c", resources("a/b/c"), True),
    ("resource attachable-volumes-x", resources("attachable-volumes-x"), True),
    ("resource example.com/Foo_bar", resources("example.com/Foo_bar"), False),
    ("resource kubernetes.io/foo", resources("kubernetes.io/foo"), False),
    ("hugepages of 1 byte", resources("hugepages-2Mi"), True),
    ("a priority class with a space", job(priorityClassName="has space"), True),
    ("a priority class in capitals", job(priorityClassName="UPPER"), True),
    ("a pull secret with a space", job(imagePullSecrets=[{"name": "has space"}]), False),
    ("a node selector key with a space", job(nodeSelector={"b a d": "x"}), True),
]


def _secret(**fields: Any) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s", "namespace": "ns"}, **fields}


def _config_map(**fields: Any) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "namespace": "ns"}, **fields}


def _service(spec: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s", "namespace": "ns"}, "spec": spec}


JUDGED += [
    ("Secret data not base64", _secret(data={"k": "not base64!!"}), True),
    ("Secret data without padding", _secret(data={"k": "eA"}), True),
    ("Secret data URL-safe", _secret(data={"k": "-_8="}), True),
    ("Secret data with a line break", _secret(data={"k": "eA==\n"}), False),
    ("a TLS Secret without its keys", _secret(type="kubernetes.io/tls", stringData={"other": "x"}), True),
    ("a TLS Secret", _secret(type="kubernetes.io/tls", stringData={"tls.crt": "x", "tls.key": "y"}), False),
    (
        "docker config JSON missing",
        _secret(type="kubernetes.io/dockerconfigjson", stringData={"x": "y"}),
        True,
    ),
    (
        "docker config not JSON",
        _secret(type="kubernetes.io/dockerconfigjson", stringData={".dockerconfigjson": "no"}),
        True,
    ),
    ("basic auth with neither", _secret(type="kubernetes.io/basic-auth", stringData={"x": "y"}), True),
    ("basic auth with a user", _secret(type="kubernetes.io/basic-auth", stringData={"username": "u"}), False),
    ("ssh auth without its key", _secret(type="kubernetes.io/ssh-auth", stringData={"x": "y"}), True),
    (
        "a token Secret without its account",
        _secret(type="kubernetes.io/service-account-token", stringData={"x": "y"}),
        True,
    ),
    ("a custom type", _secret(type="example.com/custom", stringData={"x": "y"}), False),
    ("a key in data and binaryData", _config_map(data={"k": "x"}, binaryData={"k": "eA=="}), True),
    ("binaryData not base64", _config_map(binaryData={"k": "not base64!"}), True),
    ("port 70000", _service({"ports": [{"port": 70000}]}), True),
    ("port 0", _service({"ports": [{"port": 0}]}), True),
    ("an unknown type", _service({"type": "Weird", "ports": [{"port": 80}]}), True),
    ("no ports", _service({}), True),
    ("headless without ports", _service({"clusterIP": "None"}), False),
    ("ExternalName without its name", _service({"type": "ExternalName"}), True),
    ("ExternalName", _service({"type": "ExternalName", "externalName": "example.com"}), False),
    ("two unnamed ports", _service({"ports": [{"port": 80}, {"port": 81}]}), True),
    (
        "two ports of one name",
        _service({"ports": [{"name": "a", "port": 80}, {"name": "a", "port": 81}]}),
        True,
    ),
    ("an unknown protocol", _service({"ports": [{"port": 80, "protocol": "ICMP"}]}), True),
    ("a target port 70000", _service({"ports": [{"port": 80, "targetPort": 70000}]}), True),
    ("a target port name with a space", _service({"ports": [{"port": 80, "targetPort": "has space"}]}), True),
    ("a named target port", _service({"ports": [{"port": 80, "targetPort": "http"}]}), False),
    ("a node port on ClusterIP", _service({"ports": [{"port": 80, "nodePort": 30001}]}), True),
    ("NodePort", _service({"type": "NodePort", "ports": [{"port": 80}]}), False),
]


@pytest.mark.parametrize(
    ("manifest", "refused"), [(m, r) for _, m, r in JUDGED], ids=[w for w, _, _ in JUDGED]
)
def test_the_project_agrees_with_the_api_server(manifest: dict[str, Any], refused: bool) -> None:
    errors = validate_manifest(manifest, cel=False)
    assert bool(errors) == refused, errors


def test_a_secrets_values_are_never_in_its_errors() -> None:
    plaintext = "plaintext-value"  # "cGxhaW50ZXh0LXZhbHVl" decoded
    config = _secret(data={".dockercfg": "cGxhaW50ZXh0LXZhbHVl"}, type="kubernetes.io/dockercfg")
    errors = validate_manifest(config, cel=False)
    assert errors and all(plaintext not in error for error in errors)
    errors = validate_manifest(_secret(data={"k": "PLAINTEXT-SECRET!"}), cel=False)
    assert errors and all("PLAINTEXT-SECRET" not in error for error in errors)


@pytest.mark.parametrize("name", ["abc\n", "a.b\n"])
def test_a_trailing_newline_is_no_name(name: str) -> None:
    """Python's `$` matched before a final newline; Go's ends the text."""
    assert not is_dns1123_label(name) and not is_dns1123_subdomain(name)
    assert qualified_name_errors(name)
    manifest = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "ok", "namespace": "ns", "labels": {name: "v"}},
    }
    assert validate_manifest(manifest, cel=False)


@pytest.mark.parametrize(
    ("quantity", "written"),
    [("1000", "1k"), ("1000m", "1"), ("1024", "1024"), ("1Ki", "1Ki"), ("0.5Ki", "512"), ("0.5", "500m"),
     ("1000k", "1M"), ("1e3", "1e3"), ("0", "0"), (2.5, "2500m")],
)  # fmt: skip
def test_a_quantity_is_written_as_go_writes_it(quantity: Any, written: str) -> None:
    from aim_pulumi.schemas.quantity import canonical_quantity

    assert canonical_quantity(quantity) == written
