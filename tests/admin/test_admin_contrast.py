"""The dark scheme keeps WCAG AA contrast (4.5:1) for text on its palette (admin theme.css, public site.css)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _ratio(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _dark_palette(path: Path) -> dict[str, str]:
    dark = path.read_text().split("prefers-color-scheme: dark", 1)[1]
    root = re.search(r":root\s*\{([^}]*)\}", dark)
    assert root, f"no dark :root block in {path}"
    return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", root.group(1)))


@pytest.mark.parametrize(
    ("fg", "bg"),
    [("ink", "panel"), ("ink", "bg"), ("muted", "panel"), ("muted", "bg"), ("accent", "panel"),
     ("accent-ink", "accent"), ("ok", "ok-soft"), ("warn", "warn-soft"), ("bad", "bad-soft"), ("bad", "panel")],
)  # fmt: skip
def test_admin_dark_palette_contrast(fg, bg):
    palette = _dark_palette(ROOT / "admin_ui/static/admin_ui/theme.css")
    assert _ratio(palette[fg], palette[bg]) >= 4.5


@pytest.mark.parametrize(("fg", "bg"), [("ink", "bg"), ("muted", "bg"), ("accent", "bg"), ("muted", "soft")])
def test_site_dark_palette_contrast(fg, bg):
    palette = _dark_palette(ROOT / "templates/site/site.css")
    assert _ratio(palette[fg], palette[bg]) >= 4.5
