"""A small Kubernetes API client for the cluster tests: what `kubectl get/patch/delete` do, over HTTPS.

The tests read and change live objects the way a user's `kubectl` would (a merge patch under the
field manager `kubectl-patch`, a status written through the status subresource), with nothing but
the standard library: the kubeconfig `scripts/test-cluster.sh start` writes has a bearer token and
the cluster's CA.
"""

from __future__ import annotations

import base64
import json
import ssl
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import yaml

# Kinds whose objects live outside namespaces.
CLUSTER_SCOPED = frozenset(
    {
        "Namespace",
        "StorageClass",
        "PersistentVolume",
        "CustomResourceDefinition",
        "AIMClusterModel",
        "AIMClusterProfile",
        "AIMClusterRuntimeConfig",
        "AIMClusterServiceTemplate",
    }
)


class ApiError(Exception):
    def __init__(self, status: int, body: str, what: str) -> None:
        super().__init__(f"{what}: HTTP {status}: {body[:2000]}")
        self.status = status
        self.body = body


def plural(kind: str) -> str:
    lowered = kind.lower()
    return f"{lowered}es" if lowered.endswith("s") else f"{lowered}s"


def object_path(api_version: str, kind: str, namespace: str | None = None, name: str | None = None) -> str:
    base = "/api/v1" if api_version == "v1" else f"/apis/{api_version}"
    if namespace and kind not in CLUSTER_SCOPED:
        base += f"/namespaces/{namespace}"
    base += f"/{plural(kind)}"
    return f"{base}/{name}" if name else base


class Kube:
    """One API server, as the kubeconfig at `kubeconfig` names it."""

    def __init__(self, kubeconfig: Path) -> None:
        config = yaml.safe_load(kubeconfig.read_text())
        cluster = config["clusters"][0]["cluster"]
        self.server = str(cluster["server"]).rstrip("/")
        self.token = str(config["users"][0]["user"]["token"])
        ca = base64.b64decode(cluster["certificate-authority-data"]).decode()
        with tempfile.NamedTemporaryFile("w", suffix=".crt", delete=False) as handle:
            handle.write(ca)
        self._ssl = ssl.create_default_context(cafile=handle.name)

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        content_type: str = "application/json",
        query: Mapping[str, str] | None = None,
    ) -> Any:
        url = self.server + path + (f"?{urllib.parse.urlencode(query)}" if query else "")
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(url, data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.token}")
        request.add_header("Accept", "application/json")
        if data is not None:
            request.add_header("Content-Type", content_type)
        try:
            with urllib.request.urlopen(request, context=self._ssl, timeout=60) as response:
                text = response.read().decode()
        except urllib.error.HTTPError as error:
            raise ApiError(error.code, error.read().decode(errors="replace"), f"{method} {path}") from None
        return json.loads(text) if text else None

    # ------------------------------------------------------------------ kubectl's verbs

    def get(self, api_version: str, kind: str, namespace: str | None, name: str) -> dict[str, Any]:
        found: dict[str, Any] = self.request("GET", object_path(api_version, kind, namespace, name))
        return found

    def find(self, api_version: str, kind: str, namespace: str | None, name: str) -> dict[str, Any] | None:
        try:
            return self.get(api_version, kind, namespace, name)
        except ApiError as error:
            if error.status == 404:
                return None
            raise

    def list(self, api_version: str, kind: str, namespace: str | None = None) -> list[dict[str, Any]]:
        found = self.request("GET", object_path(api_version, kind, namespace))
        items: list[dict[str, Any]] = found.get("items") or []
        return items

    def create(self, manifest: Mapping[str, Any]) -> dict[str, Any]:
        metadata = manifest.get("metadata") or {}
        path = object_path(str(manifest["apiVersion"]), str(manifest["kind"]), metadata.get("namespace"))
        created: dict[str, Any] = self.request("POST", path, dict(manifest))
        return created

    def patch(
        self,
        api_version: str,
        kind: str,
        namespace: str | None,
        name: str,
        patch: Mapping[str, Any],
        *,
        field_manager: str = "kubectl-patch",
        subresource: str = "",
    ) -> dict[str, Any]:
        """A JSON merge patch, as `kubectl patch --type merge` sends it (same field manager)."""
        path = object_path(api_version, kind, namespace, name) + (f"/{subresource}" if subresource else "")
        patched: dict[str, Any] = self.request(
            "PATCH",
            path,
            dict(patch),
            content_type="application/merge-patch+json",
            query={"fieldManager": field_manager},
        )
        return patched

    def apply(self, manifest: Mapping[str, Any], *, field_manager: str) -> dict[str, Any]:
        """A server-side apply, as `kubectl apply --server-side --field-manager=...` sends it."""
        metadata = manifest.get("metadata") or {}
        applied: dict[str, Any] = self.request(
            "PATCH",
            object_path(
                str(manifest["apiVersion"]),
                str(manifest["kind"]),
                metadata.get("namespace"),
                metadata["name"],
            ),
            dict(manifest),
            content_type="application/apply-patch+yaml",
            query={"fieldManager": field_manager},
        )
        return applied

    def json_patch(
        self,
        api_version: str,
        kind: str,
        namespace: str | None,
        name: str,
        operations: list[dict[str, Any]],
        *,
        field_manager: str = "kubectl-patch",
    ) -> dict[str, Any]:
        """A JSON patch, as `kubectl patch --type json` sends it (reaches into lists by index)."""
        patched: dict[str, Any] = self.request(
            "PATCH",
            object_path(api_version, kind, namespace, name),
            operations,
            content_type="application/json-patch+json",
            query={"fieldManager": field_manager},
        )
        return patched

    def delete(self, api_version: str, kind: str, namespace: str | None, name: str) -> None:
        try:
            self.request("DELETE", object_path(api_version, kind, namespace, name))
        except ApiError as error:
            if error.status != 404:
                raise

    def ensure_namespace(self, name: str) -> None:
        if self.find("v1", "Namespace", None, name) is None:
            self.create({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}})

    def install_crds(self, crds: Iterable[Mapping[str, Any]], timeout: float = 60) -> None:
        """Create each CRD (or leave an existing one) and wait until the API server serves it."""
        names = []
        for crd in crds:
            names.append(str(crd["metadata"]["name"]))
            if self.find("apiextensions.k8s.io/v1", "CustomResourceDefinition", None, names[-1]) is None:
                self.create(crd)
        for name in names:
            wait_until(
                lambda n=name: _established(
                    self.get("apiextensions.k8s.io/v1", "CustomResourceDefinition", None, n)
                ),
                timeout,
                f"CRD {name} established",
            )


def _established(crd: Mapping[str, Any]) -> bool:
    conditions = (crd.get("status") or {}).get("conditions") or []
    return any(c.get("type") == "Established" and c.get("status") == "True" for c in conditions)


def wait_until(check: Callable[[], Any], timeout: float, what: str, interval: float = 0.25) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(interval)
