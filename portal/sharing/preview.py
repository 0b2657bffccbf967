"""The link preview's picture of a public match: the board as a spectator sees it, drawn to a
PNG on the server with Pillow (no browser, no SVG rasteriser), made once per position and kept
in the cache.

The picture is the game's board as text (its plug-in's ``board_text`` for seat None, the
diagram the e-mails carry), laid out on a grid of equal cells so that it lines up whatever font
is at hand, under a band with the match's title and where it stands. Drawn from the spectator's
view only, it cannot show a sealed sheet or a hidden piece."""

from __future__ import annotations

import hashlib
import io
import json
from functools import lru_cache
from pathlib import Path

from django.core.cache import cache
from django.utils.translation import get_language
from PIL import Image, ImageDraw, ImageFont

from games import plugins
from games.models import Match
from portal.sharing.selectors import match_snapshot

# The size link previews are drawn at (OpenGraph's and Twitter's large card: 1.91 : 1).
WIDTH, HEIGHT = 1200, 630
BAND = 150  # the title band's height
MARGIN = 24
PAPER, INK, ACCENT, ACCENT_INK = "#fbfaf6", "#1d2421", "#2f5d3a", "#ffffff"
FONTS = ("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
         "/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf")
KEPT_SECONDS = 7 * 24 * 3600
VERSION = 1  # (a new drawing: every kept picture is drawn again)


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    """A monospace font of ``size`` pixels where the system has one, else Pillow's own."""
    for path in FONTS:
        if Path(path).exists():
            return ImageFont.truetype(path, size)
    return ImageFont.load_default(size=size)


def position_key(match: Match) -> str:
    """The cache key of the match's picture now: its phase and position (a new one each time
    either changes), its status and the reader's language."""
    digest = hashlib.sha256(json.dumps(match.state, sort_keys=True, default=str).encode())
    return (f"sharing:preview:{VERSION}:{match.pk}:{match.phase_number}:{match.status}:"
            f"{digest.hexdigest()[:16]}:{get_language()}")


def board_png(match: Match) -> bytes:
    """The PNG of public ``match``'s board as a spectator sees it (made once per position)."""
    key = position_key(match)
    picture = cache.get(key)
    if picture is None:
        picture = draw(match)
        cache.set(key, picture, KEPT_SECONDS)
    return picture


def draw(match: Match) -> bytes:
    shot = match_snapshot(match, board=False, story=False)
    diagram = ""
    if match.state is not None:
        diagram = plugins.plugin_for(match.game).board_text(match.state, None)
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    pen = ImageDraw.Draw(image)
    pen.rectangle((0, 0, WIDTH, BAND), fill=ACCENT)
    pen.text((MARGIN, 22), fit(pen, str(match), 52, WIDTH - 2 * MARGIN), font=font(52),
             fill=ACCENT_INK)
    pen.text((MARGIN, 92), fit(pen, shot.summary, 30, WIDTH - 2 * MARGIN), font=font(30),
             fill=ACCENT_INK)
    grid(pen, diagram.rstrip().splitlines(), top=BAND + MARGIN)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def fit(pen: ImageDraw.ImageDraw, text: str, size: int, width: int) -> str:
    """``text`` cut short (with "…") to fit ``width`` pixels in the font of ``size``."""
    if pen.textlength(text, font=font(size)) <= width:
        return text
    while text and pen.textlength(text + "…", font=font(size)) > width:
        text = text[:-1]
    return text + "…"


def grid(pen: ImageDraw.ImageDraw, lines: list[str], *, top: int) -> None:
    """The diagram's characters, each in its own cell of a grid as large as the space allows
    (a cell is 0.6 of its height wide, as in a monospace font)."""
    if not lines:
        return
    columns = max(len(line) for line in lines)
    room_w, room_h = WIDTH - 2 * MARGIN, HEIGHT - top - MARGIN
    cell_h = max(6, min(28, int(room_h / len(lines)), int(room_w / (columns * 0.6))))
    cell_w = cell_h * 0.6
    left = MARGIN + (room_w - columns * cell_w) / 2
    face = font(max(6, int(cell_h * 0.9)))
    for row, line in enumerate(lines):
        for column, char in enumerate(line):
            if not char.isspace():
                pen.text((left + column * cell_w, top + row * cell_h), char, font=face, fill=INK)
