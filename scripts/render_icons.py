"""The app's PNG icons (SPEC §13: the web app manifest's, and iOS's apple-touch-icon), rendered once from the SVGs
drawn for the band office (static/console/icons/app.svg and app-maskable.svg) in headless Chromium. Run it after
changing a drawing, and commit the PNGs it writes beside them:

    .venv/bin/python scripts/render_icons.py
"""

import base64
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from console_browser import browser

ICONS = Path(__file__).resolve().parent.parent / "static" / "console" / "icons"
# (drawing, size in pixels, PNG written); the maskable drawing is a full square, as iOS wants its icon too
RENDERED = [
    ("app.svg", 192, "app-192.png"),
    ("app.svg", 512, "app-512.png"),
    ("app-maskable.svg", 192, "app-maskable-192.png"),
    ("app-maskable.svg", 512, "app-maskable-512.png"),
    ("app-maskable.svg", 180, "apple-touch-icon.png"),
]
PAGE = '<html><body style="margin:0"><img src="data:image/svg+xml;base64,%s" width="%d" height="%d"></body></html>'


def render(chromium, drawing, size, written):
    page = chromium.new_page(viewport={"width": size, "height": size})
    svg = base64.b64encode((ICONS / drawing).read_bytes()).decode()
    page.set_content(PAGE % (svg, size, size))
    if not page.evaluate("() => document.images[0].decode().then(() => true, () => false)"):
        raise SystemExit(f"{drawing} is not an image Chromium can draw")
    page.locator("img").screenshot(path=str(ICONS / written), omit_background=True)
    page.close()
    print(f"{written}: {size}×{size} from {drawing}")


def main():
    with browser() as chromium:
        for drawing, size, written in RENDERED:
            render(chromium, drawing, size, written)


if __name__ == "__main__":
    main()
