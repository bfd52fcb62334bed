"""Public site routes. Included last; the catch-all patterns only match collection/taxonomy-shaped first
segments (``[a-z][a-z0-9_]*``), so nothing under ``/_emdash/`` can ever land here."""

from django.urls import path, re_path

from public_site import feeds, views
from public_site.caching import register_early

NAME = r"[a-z][a-z0-9_]*"

urlpatterns = [
    path("", views.home, name="home"),
    path("robots.txt", feeds.robots_txt, name="site-robots"),
    path("sitemap.xml", feeds.sitemap_xml, name="site-sitemap"),
    path("feed.xml", feeds.rss_feed, name="site-feed"),
    path("search/", views.search, name="site-search"),
    path("_emdash/preview/<str:token>/", views.preview_view, name="site-preview"),
    path("_emdash/share/<str:token>/", views.share_view, name="site-share"),
    re_path(rf"^(?P<collection>{NAME})/$", views.collection_index, name="site-collection"),
    re_path(rf"^(?P<first>{NAME})/(?P<second>[^/]+)/$", views.entry_or_archive, name="entry"),
]

register_early()  # the views under @cached_page (public_site/caching.py PAGES)
