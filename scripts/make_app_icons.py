"""Draw the installed app's icons (static/webapp/*.png) from the favicon's shapes, with Pillow.

Run once after changing the favicon (``python scripts/make_app_icons.py``) and commit the PNGs:
browsers ask for 192 and 512 pixel icons (and iOS for a 180 pixel one), and an SVG alone does
not make a site installable everywhere. The "maskable" icon keeps the tank inside the middle
80 % that every launcher's mask leaves visible, on a background that fills the whole square."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parent.parent / "static" / "webapp"
GREEN, SAND = "#3d5a2a", "#c9d6a3"

# The favicon (static/favicon.svg) on its 32-unit grid: rounded boxes (x, y, w, h, radius)
# and the wheels (cx, cy, r).
BOXES = [(5, 17, 22, 8, 4), (10, 11, 11, 7, 2), (20, 13, 9, 2.5, 1)]
WHEELS = [(10, 21, 1.6), (16, 21, 1.6), (22, 21, 1.6)]


def icon(size: int, *, maskable: bool = False) -> Image.Image:
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if maskable:  # the background fills the square; the tank shrinks into the safe zone
        draw.rectangle((0, 0, size, size), fill=GREEN)
        scale, offset = size * 0.7 / 32, size * 0.15
    else:
        draw.rounded_rectangle((0, 0, size - 1, size - 1), radius=size * 6 / 32, fill=GREEN)
        scale, offset = size / 32, 0.0
    for x, y, w, h, r in BOXES:
        draw.rounded_rectangle((offset + x * scale, offset + y * scale,
                                offset + (x + w) * scale, offset + (y + h) * scale),
                               radius=r * scale, fill=SAND)
    for cx, cy, r in WHEELS:
        draw.ellipse((offset + (cx - r) * scale, offset + (cy - r) * scale,
                      offset + (cx + r) * scale, offset + (cy + r) * scale), fill=GREEN)
    return image


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        icon(size).save(OUT / f"icon-{size}.png", optimize=True)
        icon(size, maskable=True).save(OUT / f"icon-maskable-{size}.png", optimize=True)
    # iOS draws its own rounded corners on an opaque square.
    icon(180, maskable=True).convert("RGB").save(OUT / "apple-touch-icon.png", optimize=True)


if __name__ == "__main__":
    main()
