"""Public URLs of taxonomy archives, in one place (menus and the site templates agree on them)."""

from __future__ import annotations

from emdash.conf import emdash_settings


def term_path(taxonomy: str, slug: str, locale: str | None = None) -> str:
    """``/<taxonomy>/<slug>/``; a term of another locale than the default one adds ``?locale=`` (term slugs are
    unique per locale, so the slug alone would be read as the default locale's term of that slug)."""
    path = f"/{taxonomy}/{slug}/"
    return path + f"?locale={locale}" if locale and locale != emdash_settings.default_locale else path
