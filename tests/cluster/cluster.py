"""A test cluster as one object: started by scripts/test-cluster.sh, given what a real AIM cluster has.

`TestCluster.start(dir)` starts etcd, kube-apiserver and the controllers, then installs the CRDs of
every kind the project emits or reads (rebuilt from the vendored schemas: InferenceService, HTTPRoute,
ScaledObject and the AIM kinds) and two StorageClasses with the binding modes clusters use
(`immediate`, `wait-for-consumer`; neither is the default, so a PVC without a class gets none).
`stop()` stops exactly what `start` started.

Outside pytest (a benchmark, a person trying things):

    python tests/cluster/cluster.py start /tmp/aim-cluster   # prints the kubeconfig path
    python tests/cluster/cluster.py stop /tmp/aim-cluster
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "test-cluster.sh"
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(REPO))

from kube import Kube  # noqa: E402

from aim_pulumi.schemas.crds import crd_manifests  # noqa: E402

StackFactory = Callable[..., Any]
"""`service_stack(namespace, **config)`: a RealStack of the `cluster-service` program (conftest.py)."""

STORAGE_CLASSES = {"immediate": "Immediate", "wait-for-consumer": "WaitForFirstConsumer"}


def built() -> Path | None:
    """The cluster binaries' directory, or None when they are not built (or stale)."""
    check = subprocess.run(["bash", str(SCRIPT), "--check"], capture_output=True, text=True, check=False)
    return Path(check.stdout.strip().splitlines()[-1]) if check.returncode == 0 else None


class TestCluster:
    __test__ = False  # not a test class, whatever its name says

    def __init__(self, state: Path) -> None:
        self.state = state
        self.kubeconfig = state / "kubeconfig"
        self._kube: Kube | None = None

    def shell(
        self,
        command: str,
        *,
        cwd: Path | None = None,
        env: Mapping[str, str] | None = None,
        check: bool = True,
        timeout: float = 600,
    ) -> subprocess.CompletedProcess[str]:
        """A command line run by bash exactly as written, as a user's shell pointed at this cluster
        runs it: `KUBECONFIG` set, and the kubectl built beside the cluster (its version) first on
        PATH. `env` is the environment to start from (a Pulumi stack's), else this process's."""
        binaries = built()
        assert binaries is not None and (binaries / "kubectl").is_file(), "the test cluster's kubectl"
        base = dict(env if env is not None else os.environ)
        base["KUBECONFIG"] = str(self.kubeconfig)
        base["PATH"] = os.pathsep.join([str(binaries), base.get("PATH", "")])
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=cwd,
            env=base,
            capture_output=True,
            text=True,
            check=False,
            timeout=timeout,
        )
        if check and done.returncode != 0:
            output = f"{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
            raise AssertionError(f"{command}\nexited {done.returncode}\n{output}")
        return done

    @property
    def kube(self) -> Kube:
        if self._kube is None:
            self._kube = Kube(self.kubeconfig)
        return self._kube

    @classmethod
    def start(cls, state: Path) -> TestCluster:
        cluster = cls(state)
        done = subprocess.run(
            ["bash", str(SCRIPT), "start", str(state)], capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            cluster.stop()
            raise RuntimeError(f"the test cluster did not start:\n{done.stdout}\n{done.stderr}")
        try:
            cluster.kube.install_crds(crd_manifests())
            for name, mode in STORAGE_CLASSES.items():
                if cluster.kube.find("storage.k8s.io/v1", "StorageClass", None, name) is None:
                    cluster.kube.create(
                        {
                            "apiVersion": "storage.k8s.io/v1",
                            "kind": "StorageClass",
                            "metadata": {"name": name},
                            "provisioner": "example.com/no-provisioner",
                            "volumeBindingMode": mode,
                        }
                    )
        except BaseException:
            cluster.stop()
            raise
        return cluster

    def stop(self) -> None:
        subprocess.run(["bash", str(SCRIPT), "stop", str(self.state)], capture_output=True, check=False)

    def log(self, name: str, lines: int = 40) -> str:
        path = self.state / f"{name}.log"
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:]) if path.exists() else ""


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("start", "stop"):
        sys.exit("usage: cluster.py start|stop DIR")
    directory = Path(sys.argv[2]).resolve()
    if sys.argv[1] == "start":
        print(TestCluster.start(directory).kubeconfig)
    else:
        TestCluster(directory).stop()
