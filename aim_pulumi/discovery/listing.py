"""Listing a registry for a model source: repositories and tags, page by page.

The distribution API's `/v2/_catalog` and `/v2/<repository>/tags/list` answer in pages linked by
a `Link: <...>; rel="next"` header; Docker Hub has no catalog, so a wildcard over `docker.io`
lists a namespace's repositories with Hub's own API (`/v2/namespaces/<namespace>/repositories`,
pages linked by `next`). Every page is bounded in bytes and the pages in number
(`Limits.max_listing_pages`). A repository whose tags cannot be listed fails the listing: a
partial listing would lock a partial answer.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urljoin, urlsplit

from aim_pulumi.discovery.client import RegistryClient
from aim_pulumi.discovery.errors import DiscoveryError
from aim_pulumi.discovery.model_source import ParsedFilter, matches_filter, matches_wildcard
from aim_pulumi.discovery.records import SourceImage
from aim_pulumi.discovery.reference import DOCKER_HUB, DOCKER_HUB_API

__all__ = ["RegistryLister"]

_NEXT = re.compile(r'<([^>]+)>\s*;\s*rel="?next"?')
DOCKER_HUB_WEB = "https://hub.docker.com"


class RegistryLister:
    """Lists images for filters through `client`; `hub` is Docker Hub's API base (tests replace it)."""

    def __init__(self, client: RegistryClient, *, hub: str = DOCKER_HUB_WEB) -> None:
        self.client = client
        self.hub = hub.rstrip("/")

    def images(
        self, parsed: ParsedFilter, registry: str, global_versions: tuple[str, ...], what: str
    ) -> list[SourceImage]:
        """The images of one filter, tags sorted, in the order the operator counts them."""
        registry = parsed.registry or registry
        if parsed.tag and not parsed.wildcard:
            return [SourceImage(registry, parsed.repository, parsed.tag)]
        if parsed.wildcard:
            repositories = [
                r
                for r in self._repositories(registry, parsed, what)
                if matches_wildcard(parsed.repository, r)
            ]
        else:
            repositories = [parsed.repository]
        found: list[SourceImage] = []
        for repository in sorted(repositories):
            for tag in sorted(self._tags(registry, repository, what)):
                image = SourceImage(registry, repository, tag)
                if matches_filter(image, parsed, global_versions):
                    found.append(image)
        return found

    def _host(self, registry: str) -> str:
        return DOCKER_HUB_API if registry == DOCKER_HUB else registry

    def _pages(self, registry: str, path: str, scope: str, what: str, key: str) -> Iterator[list[Any]]:
        host = self._host(registry)
        url: str | None = self.client.url(host, path)
        pages = 0
        while url is not None:
            pages += 1
            if pages > self.client.limits.max_listing_pages:
                raise DiscoveryError(
                    "ListingFailed",
                    f"{what}: more than {self.client.limits.max_listing_pages} pages",
                    image=what,
                )
            response = self.client.get(
                host, path, scope=scope, image=what, accept="application/json", absolute=url
            )
            try:
                if response.status == 404:
                    raise DiscoveryError(
                        "ImageNotFound", f"{registry} has no repository for {what}", image=what
                    )
                if response.status != 200:
                    raise DiscoveryError(
                        "ListingFailed", f"{registry} answered {response.status}", image=what
                    )
                body = response.read_all(self.client.limits.max_listing_bytes, "listing", what)
                link = response.headers.get("Link", "")
            finally:
                response.close()
            try:
                document = json.loads(body)
                items = document.get(key) or []
            except (ValueError, AttributeError):
                raise DiscoveryError(
                    "ListingFailed", f"{registry}'s listing is not JSON", image=what
                ) from None
            if not isinstance(items, list):
                raise DiscoveryError("ListingFailed", f"{registry}'s listing has no {key} list", image=what)
            yield [str(i) for i in items]
            match = _NEXT.search(link)
            url = urljoin(url, match.group(1)) if match else None
            if url is not None and urlsplit(url).netloc != urlsplit(self.client.url(host, "")).netloc:
                raise DiscoveryError(
                    "ListingFailed", f"{registry} links its next page to another host", image=what
                )

    def _tags(self, registry: str, repository: str, what: str) -> list[str]:
        tags: list[str] = []
        scope = f"repository:{repository}:pull"
        path = f"/v2/{repository}/tags/list?n={self.client.limits.listing_page_size}"
        for page in self._pages(registry, path, scope, f"{what} ({repository})", "tags"):
            tags.extend(page)
        return tags

    def _repositories(self, registry: str, parsed: ParsedFilter, what: str) -> list[str]:
        if registry == DOCKER_HUB:
            return self._hub_repositories(parsed, what)
        repositories: list[str] = []
        size = self.client.limits.listing_page_size
        for page in self._pages(
            registry, f"/v2/_catalog?n={size}", "registry:catalog:*", what, "repositories"
        ):
            repositories.extend(page)
        return repositories

    def _hub_repositories(self, parsed: ParsedFilter, what: str) -> list[str]:
        namespace = parsed.repository.split("/", 1)[0].rstrip("*")
        if not namespace or "*" in namespace:
            raise DiscoveryError(
                "ListingFailed",
                f"{what}: Docker Hub is listed by namespace; the pattern must start with one",
                image=what,
            )
        hub_host = urlsplit(self.hub).netloc
        url: str | None = f"{self.hub}/v2/namespaces/{namespace}/repositories?page_size=100"
        out: list[str] = []
        pages = 0
        while url is not None:
            pages += 1
            if pages > self.client.limits.max_listing_pages:
                raise DiscoveryError("ListingFailed", f"{what}: too many pages from Docker Hub", image=what)
            document = self._hub_page(url, what)
            for item in document.get("results") or []:
                if isinstance(item, dict) and isinstance(item.get("name"), str):
                    out.append(f"{namespace}/{item['name']}")
            following = document.get("next")
            url = following if isinstance(following, str) and following else None
            if url is not None and urlsplit(url).netloc != hub_host:
                raise DiscoveryError(
                    "ListingFailed", "Docker Hub links its next page to another host", image=what
                )
        return out

    def _hub_page(self, url: str, what: str) -> dict[str, Any]:
        host = urlsplit(url).netloc
        response = self.client.get(host, "", scope="", image=what, accept="application/json", absolute=url)
        try:
            if response.status != 200:
                raise DiscoveryError("ListingFailed", f"Docker Hub answered {response.status}", image=what)
            body = response.read_all(self.client.limits.max_listing_bytes, "listing", what)
        finally:
            response.close()
        try:
            document = json.loads(body)
        except ValueError:
            raise DiscoveryError("ListingFailed", "Docker Hub's listing is not JSON", image=what) from None
        if not isinstance(document, dict):
            raise DiscoveryError("ListingFailed", "Docker Hub's listing is not an object", image=what)
        return document
