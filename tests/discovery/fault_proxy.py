"""A small HTTP proxy in front of the test registry that misbehaves on request.

Each rule matches a request path (a regular expression) and does one thing, `times` times (then the
request passes through): answer a status (429, 503, ...), cut the body short, flip bytes of the
body (a digest mismatch), or serve another body. `bearer=True` makes the proxy demand a Bearer
token as Docker Hub does (`WWW-Authenticate: Bearer realm=.../token`), issued anonymously or,
when `login` is set, only to Basic credentials matching it. `/hub/...` answers as Docker Hub's
repository API from `hub_repositories`, two per page.
"""

from __future__ import annotations

import base64
import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import urllib3


@dataclass
class Rule:
    path: str
    action: str  # "status", "truncate", "corrupt", "body", "stall"
    status: int = 503
    times: int = 1_000_000
    keep: int = 100
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    hits: int = 0

    def matches(self, path: str) -> bool:
        return self.times > 0 and re.search(self.path, path) is not None


class FaultProxy:
    def __init__(self, target: str, *, bearer: bool = False, login: tuple[str, str] | None = None) -> None:
        self.target = target.rstrip("/")
        self.rules: list[Rule] = []
        self.bearer = bearer
        self.login = login
        self.token = "test-token-0123"
        self.requests: list[tuple[str, str, str]] = []
        self.hub_repositories: dict[str, list[str]] = {}
        self.pool = urllib3.PoolManager(retries=False)
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_HEAD(self) -> None:
                proxy.handle(self, "HEAD")

            def do_GET(self) -> None:
                proxy.handle(self, "GET")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.server.handle_error = lambda *_: None  # type: ignore[method-assign]  # a client hanging up is expected
        self.host = f"127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> FaultProxy:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def add(self, rule: Rule) -> Rule:
        self.rules.append(rule)
        return rule

    def _send(
        self,
        handler: BaseHTTPRequestHandler,
        status: int,
        body: bytes,
        headers: dict[str, str],
        method: str,
        length: int | None = None,
    ) -> None:
        handler.send_response(status)
        for key, value in headers.items():
            handler.send_header(key, value)
        handler.send_header("Content-Length", str(len(body) if length is None else length))
        handler.end_headers()
        if method != "HEAD":
            handler.wfile.write(body)
            handler.wfile.flush()

    def handle(self, handler: BaseHTTPRequestHandler, method: str) -> None:
        path = handler.path
        self.requests.append((method, path, handler.headers.get("Authorization", "")))
        parts = urlsplit(path)
        if parts.path == "/token":
            self._token(handler, parts.query, method)
            return
        if parts.path.startswith("/hub/v2/namespaces/"):
            self._hub(handler, parts, method)
            return
        if self.bearer and handler.headers.get("Authorization") != f"Bearer {self.token}":
            challenge = f'Bearer realm="http://{self.host}/token",service="test-registry"'
            self._send(
                handler, 401, b'{"errors":[{"code":"UNAUTHORIZED"}]}', {"WWW-Authenticate": challenge}, method
            )
            return
        for rule in self.rules:
            if rule.matches(parts.path):
                rule.times -= 1
                rule.hits += 1
                if rule.action == "stall":
                    import time

                    time.sleep(rule.keep)
                    self._send(handler, 503, b"{}", {}, method)
                    return
                if rule.action == "status":
                    self._send(handler, rule.status, b"{}", dict(rule.headers), method)
                    return
                if rule.action == "body":
                    self._send(
                        handler,
                        200,
                        rule.body,
                        {"Content-Type": "application/octet-stream", **rule.headers},
                        method,
                    )
                    return
                status, body, headers = self._forward(path, method, handler)
                if rule.action == "truncate":
                    handler.send_response(status)
                    for key, value in headers.items():
                        handler.send_header(key, value)
                    handler.send_header("Content-Length", str(len(body)))
                    handler.end_headers()
                    handler.wfile.write(body[: rule.keep])
                    handler.wfile.flush()
                    handler.close_connection = True
                    return
                if rule.action == "corrupt":
                    mutable = bytearray(body)
                    for i in range(len(mutable) // 2, min(len(mutable), len(mutable) // 2 + 8)):
                        mutable[i] ^= 0xFF
                    body = bytes(mutable)
                self._send(handler, status, body, headers, method)
                return
        status, body, headers = self._forward(path, method, handler)
        self._send(
            handler,
            status,
            body,
            headers,
            method,
            length=int(headers.get("Content-Length", len(body))) if method == "HEAD" else None,
        )

    def _forward(
        self, path: str, method: str, handler: BaseHTTPRequestHandler
    ) -> tuple[int, bytes, dict[str, str]]:
        headers = {k: v for k, v in handler.headers.items() if k.lower() in ("accept",)}
        response = self.pool.request(method, f"{self.target}{path}", headers=headers, redirect=True)
        keep = {}
        for key in ("Content-Type", "Docker-Content-Digest", "Link", "Content-Length"):
            if key in response.headers:
                keep[key] = response.headers[key]
        if "Link" in keep:
            keep["Link"] = keep["Link"].replace(self.target, f"http://{self.host}")
        if method != "HEAD":
            keep.pop("Content-Length", None)
        return response.status, response.data, keep

    def _token(self, handler: BaseHTTPRequestHandler, query: str, method: str) -> None:
        if self.login is not None:
            pair = base64.b64encode(f"{self.login[0]}:{self.login[1]}".encode()).decode()
            if handler.headers.get("Authorization") != f"Basic {pair}":
                self._send(handler, 401, b"{}", {}, method)
                return
        params = parse_qs(query)
        assert params.get("service") == ["test-registry"], params
        self._send(
            handler,
            200,
            json.dumps({"token": self.token}).encode(),
            {"Content-Type": "application/json"},
            method,
        )

    def _hub(self, handler: BaseHTTPRequestHandler, parts: Any, method: str) -> None:
        namespace = parts.path.split("/")[4]
        names = self.hub_repositories.get(namespace, [])
        page = int(parse_qs(parts.query).get("page", ["1"])[0])
        chunk = names[(page - 1) * 2 : page * 2]
        following = None
        if page * 2 < len(names):
            following = f"http://{self.host}/hub/v2/namespaces/{namespace}/repositories?page={page + 1}"
        body = json.dumps({"results": [{"name": n} for n in chunk], "next": following}).encode()
        self._send(handler, 200, body, {"Content-Type": "application/json"}, method)
