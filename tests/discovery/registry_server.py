"""A real registry on 127.0.0.1 for the tests: Debian's `docker-registry` (distribution 2.8).

`.ci/run` installs the package (`apt-get install docker-registry`); the tests start their own
server processes (one open, one behind htpasswd Basic auth) with storage in a temporary directory
and stop them at the end. A missing binary fails the tests instead of skipping them.

Outside pytest (a person trying `aim-pulumi discover` by hand):

    python tests/discovery/registry_server.py /tmp/aim-registry   # prints the address; Ctrl-C stops
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import urllib3

BINARY = "docker-registry"
USERNAME = "aim-tester"
PASSWORD = "discovery-test-password"
# `htpasswd -Bbn aim-tester discovery-test-password`: a test login, nothing else accepts it.
HTPASSWD = "aim-tester:$2y$05$Am1Fd4ehjppULPnZsZug2u2AREBdVFxTgi56RIu2Gsu.qtvcNrgwO\n"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class RegistryServer:
    """One `docker-registry serve` process; `host` is `127.0.0.1:<port>`."""

    def __init__(self, state: Path, *, auth: bool = False) -> None:
        self.state = state
        self.auth = auth
        self.port = free_port()
        self.host = f"127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://{self.host}"

    def start(self) -> RegistryServer:
        binary = shutil.which(BINARY)
        if binary is None:
            raise RuntimeError(
                f"{BINARY} is not installed: `apt-get install docker-registry` (Debian's distribution 2.8); "
                ".ci/run installs it"
            )
        self.state.mkdir(parents=True, exist_ok=True)
        storage = self.state / "storage"
        storage.mkdir(exist_ok=True)
        lines = [
            "version: 0.1",
            "log: {level: error, accesslog: {disabled: true}}",
            f"storage: {{filesystem: {{rootdirectory: {storage}}}, delete: {{enabled: true}}}}",
            f"http: {{addr: '{self.host}'}}",
        ]
        if self.auth:
            htpasswd = self.state / "htpasswd"
            htpasswd.write_text(HTPASSWD)
            lines.append(f"auth: {{htpasswd: {{realm: aim-test, path: {htpasswd}}}}}")
        config = self.state / "config.yml"
        config.write_text("\n".join(lines) + "\n")
        log = (self.state / "registry.log").open("wb")
        self.process = subprocess.Popen([binary, "serve", str(config)], stdout=log, stderr=subprocess.STDOUT)
        pool = urllib3.PoolManager(retries=False, timeout=urllib3.Timeout(connect=1, read=2))
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{BINARY} exited: {(self.state / 'registry.log').read_text()[-2000:]}")
            try:
                if pool.request("GET", f"{self.base}/v2/").status in (200, 401):
                    return self
            except urllib3.exceptions.HTTPError:
                pass
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"{BINARY} did not answer on {self.host} within 20 s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


if __name__ == "__main__":
    server = RegistryServer(Path(sys.argv[1])).start()
    print(server.host, flush=True)
    try:
        server.process.wait()  # type: ignore[union-attr]
    except KeyboardInterrupt:
        server.stop()
