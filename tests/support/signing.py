"""A couple's hand on the client's page (SPEC §16): a signature drawn with the mouse on its pad."""


def draw(page):
    """Two strokes of a signature with the mouse on the page's pad."""
    box = page.locator("canvas.pad").bounding_box()
    x, y = box["x"], box["y"] + box["height"] / 2
    page.mouse.move(x + 20, y)
    page.mouse.down()
    for step in range(1, 12):
        page.mouse.move(x + 20 + step * 18, y + (-25 if step % 2 else 25), steps=3)
    page.mouse.up()
    page.mouse.move(x + 60, y + 40)
    page.mouse.down()
    page.mouse.move(x + 220, y + 35, steps=8)
    page.mouse.up()
