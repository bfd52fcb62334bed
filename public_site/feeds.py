"""Machine-readable site files: robots.txt (from settings), sitemap.xml and the RSS feed."""

from __future__ import annotations

from xml.sax.saxutils import escape

from django.http import HttpRequest, HttpResponse
from django.utils.feedgenerator import Rss201rev2Feed

from emdash.conf import emdash_settings
from emdash.dates import parse_iso
from public_site import query
from public_site.caching import FEED_COLLECTION, cached_page
from public_site.seo import origin

SITEMAP_LIMIT = 5000  # one sitemap file; the protocol allows 50,000
FEED_ITEMS = 20


@cached_page
def robots_txt(request: HttpRequest) -> HttpResponse:
    site = query.site_settings()
    custom = (site.get("seo") or {}).get("robotsTxt")
    if isinstance(custom, str) and custom.strip():
        body = custom.strip() + "\n"
    else:
        body = f"User-agent: *\nDisallow: /_emdash/\n\nSitemap: {origin(request, site)}/sitemap.xml\n"
    return HttpResponse(body, content_type="text/plain; charset=utf-8")


def _published_urls() -> list[tuple[str, str | None]]:
    """(path, lastmod) of every published entry, newest first, capped at SITEMAP_LIMIT."""
    urls: list[tuple[str, str | None]] = []
    for spec in query.collections():
        cursor = None
        hidden = query.noindex_ids(spec.slug)  # items whose SEO says noindex stay out of the sitemap
        while len(urls) < SITEMAP_LIMIT:
            page = query.entry_list(spec.slug, order_by="updated_at", limit=100, cursor=cursor)
            urls.extend((item["url"], item.get("updatedAt")) for item in page["items"] if item["id"] not in hidden)
            cursor = page.get("nextCursor")
            if not cursor:
                break
    urls.extend((path, None) for path in _term_paths())
    return urls[:SITEMAP_LIMIT]


def _term_paths() -> list[str]:
    """Archive paths of every term, depth first."""
    paths: list[str] = []
    stack = [node for definition in query.taxonomies() for node in query.terms(definition["name"])]
    while stack and len(paths) < SITEMAP_LIMIT:
        node = stack.pop(0)
        paths.append(node["path"])
        stack[:0] = node.get("children", [])
    return paths


@cached_page
def sitemap_xml(request: HttpRequest) -> HttpResponse:
    base = origin(request, query.site_settings())
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">']
    lines.append(f"  <url><loc>{escape(base)}/</loc></url>")
    for path, lastmod in _published_urls():
        stamp = f"<lastmod>{escape(lastmod)}</lastmod>" if lastmod else ""
        lines.append(f"  <url><loc>{escape(base + path)}</loc>{stamp}</url>")
    lines.append("</urlset>")
    return HttpResponse("\n".join(lines) + "\n", content_type="application/xml; charset=utf-8")


@cached_page
def rss_feed(request: HttpRequest) -> HttpResponse:
    site = query.site_settings()
    base = origin(request, site)
    feed = Rss201rev2Feed(
        title=site.get("title") or "EmDash",
        link=base + "/",
        description=site.get("tagline") or "",
        feed_url=base + request.path,
        language=emdash_settings.default_locale,  # the site's first configured locale (EMDASH["LOCALES"])
    )
    if query.collection(FEED_COLLECTION) is not None:
        for item in query.entries(FEED_COLLECTION, per_page=FEED_ITEMS, terms=True).items:
            data = item["data"]
            published = parse_iso(item["publishedAt"]) if item.get("publishedAt") else None
            feed.add_item(
                title=str(data.get("title") or item["slug"]),
                link=base + item["url"],
                description=str(data.get("excerpt") or ""),
                unique_id=base + item["url"],
                pubdate=published,
                author_name=(item.get("byline") or {}).get("displayName"),  # dc:creator
                # <category>: each term as the item's locale names it (SPEC 10's default-locale fallback)
                categories=[term["label"] for refs in item["terms"].values() for term in refs],
            )
    response = HttpResponse(content_type="application/rss+xml; charset=utf-8")
    feed.write(response, "utf-8")
    return response
