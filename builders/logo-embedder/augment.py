"""The pictures a seller sends, made from a clean logo: the augmentations the logo embedder is trained on.

Every view ends the way the service's normaliser ends (shared/imaging/normalize-image.ts): the near-uniform border
(within 24 of the top-left pixel) trimmed, the rest padded square on white and resized, so that training sees what
the embedder sees in production.
"""
import io
import math
import random

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageOps

TRIM_THRESHOLD = 24


def trim_square(img, size):
    """Trim the border that matches the top-left pixel, pad square on white, resize (the service normaliser)."""
    a = np.asarray(img, dtype=np.int16)
    differs = (np.abs(a - a[0, 0]) > TRIM_THRESHOLD).any(axis=2)
    ys, xs = np.nonzero(differs)
    if len(xs) > 1:
        img = img.crop((xs.min(), ys.min(), xs.max() + 1, ys.max() + 1))
    w, h = img.size
    side = max(w, h)
    canvas = Image.new('RGB', (side, side), (255, 255, 255))
    canvas.paste(img, ((side - w) // 2, (side - h) // 2))
    return canvas.resize((size, size), Image.BILINEAR)


def random_colour(rng, light=None):
    if light is None:
        return tuple(rng.randrange(256) for _ in range(3))
    lo, hi = light
    return tuple(rng.randrange(lo, hi) for _ in range(3))


def recolour(logo, rng):
    """Paint the logo one colour, shift its hue, or turn it grey: the same mark in another colourway."""
    r, g, b, alpha = logo.split()
    choice = rng.random()
    if choice < 0.4:
        colour = random_colour(rng) if rng.random() < 0.7 else (0, 0, 0)
        solid = Image.new('RGB', logo.size, colour)
        out = solid.convert('RGBA')
        out.putalpha(alpha)
        return out
    if choice < 0.75:
        hsv = Image.merge('RGB', (r, g, b)).convert('HSV')
        h, s, v = hsv.split()
        shift = rng.randrange(40, 220)
        h = h.point(lambda x: (x + shift) % 256)
        out = Image.merge('HSV', (h, s, v)).convert('RGB').convert('RGBA')
        out.putalpha(alpha)
        return out
    grey = ImageOps.grayscale(Image.merge('RGB', (r, g, b))).convert('RGB').convert('RGBA')
    grey.putalpha(alpha)
    return grey


def noise(size, rng, sigma):
    arr = np.random.default_rng(rng.randrange(2 ** 31)).normal(0, sigma, (size[1], size[0], 3))
    return arr


def gradient_background(size, rng):
    w, h = size
    a = np.array(random_colour(rng, (60, 250)), dtype=np.float32)
    b = np.clip(a + np.array([rng.uniform(-90, 90) for _ in range(3)]), 0, 255)
    angle = rng.uniform(0, 2 * math.pi)
    yy, xx = np.mgrid[0:h, 0:w]
    t = np.clip(0.5 + ((xx / w - 0.5) * math.cos(angle) + (yy / h - 0.5) * math.sin(angle)), 0, 1)[..., None]
    arr = a + (b - a) * t + noise(size, rng, rng.uniform(0, 14))
    return Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))


def busy_background(size, rng, logos):
    """A cluttered photo stand-in: shapes, lines, texture, sometimes other marks, blurred a little."""
    img = gradient_background(size, rng)
    draw = ImageDraw.Draw(img)
    w, h = size
    for _ in range(rng.randrange(8, 40)):
        x0, y0 = rng.randrange(-w // 4, w), rng.randrange(-h // 4, h)
        x1, y1 = x0 + rng.randrange(4, w // 2), y0 + rng.randrange(4, h // 2)
        kind = rng.random()
        colour = random_colour(rng)
        if kind < 0.35:
            draw.rectangle((x0, y0, x1, y1), fill=colour)
        elif kind < 0.7:
            draw.ellipse((x0, y0, x1, y1), fill=colour)
        else:
            draw.line((x0, y0, x1, y1), fill=colour, width=rng.randrange(1, 6))
    if logos and rng.random() < 0.4:
        for _ in range(rng.randrange(1, 4)):
            other = rng.choice(logos)
            side = rng.randrange(max(8, w // 8), max(9, w // 3))
            other = other.copy()
            other.thumbnail((side, side))
            img.paste(other, (rng.randrange(0, w), rng.randrange(0, h)), other)
    arr = np.asarray(img, dtype=np.float32) + noise(size, rng, rng.uniform(0, 18))
    img = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
    if rng.random() < 0.5:
        img = img.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 1.5)))
    return img


def product_shape(img, rng):
    """A product (shirt, box, mug, bag) in one colour on the background; returns the box the logo goes in."""
    w, h = img.size
    draw = ImageDraw.Draw(img)
    colour = random_colour(rng)
    x0, y0 = int(w * rng.uniform(0.02, 0.2)), int(h * rng.uniform(0.02, 0.2))
    x1, y1 = int(w * rng.uniform(0.8, 0.98)), int(h * rng.uniform(0.8, 0.98))
    kind = rng.random()
    if kind < 0.3:
        draw.rounded_rectangle((x0, y0, x1, y1), radius=rng.randrange(2, 30), fill=colour)
    elif kind < 0.55:
        draw.ellipse((x0, y0, x1, y1), fill=colour)
    else:
        sw = (x1 - x0) // 4
        draw.polygon([(x0, y0 + sw), (x0 + sw, y0), (x1 - sw, y0), (x1, y0 + sw), (x1 - sw // 2, y0 + 2 * sw),
                      (x1 - sw, y0 + sw + sw // 2), (x1 - sw, y1), (x0 + sw, y1), (x0 + sw, y0 + sw + sw // 2),
                      (x0 + sw // 2, y0 + 2 * sw)], fill=colour)
        x0, x1 = x0 + sw, x1 - sw
    return (x0, y0, x1, y1)


def place_text(canvas, box, texts, rng):
    """A text strip beside the logo (right, left, above or below), as a listing photo's caption would be."""
    text = rng.choice(texts).copy()
    x0, y0, x1, y1 = box
    lh = max(6, int((y1 - y0) * rng.uniform(0.25, 0.6)))
    text = text.resize((max(1, int(text.size[0] * lh / text.size[1])), lh))
    side = rng.random()
    if side < 0.5:
        pos = (x1 + rng.randrange(2, 12), y0 + (y1 - y0 - lh) // 2)
    elif side < 0.65:
        pos = (x0 - text.size[0] - rng.randrange(2, 12), y0 + (y1 - y0 - lh) // 2)
    elif side < 0.85:
        pos = (x0 + (x1 - x0 - text.size[0]) // 2, y1 + rng.randrange(2, 10))
    else:
        pos = (x0 + (x1 - x0 - text.size[0]) // 2, y0 - lh - rng.randrange(2, 10))
    canvas.paste(text, pos, text)


def seller_view(logo, rng, size, texts, logos):
    """A heavy augmentation: the logo as it shows up in a seller's picture."""
    if rng.random() < 0.35:
        logo = recolour(logo, rng)
    if rng.random() < 0.3:
        logo = ImageOps.mirror(logo)
    if rng.random() < 0.6:
        logo = logo.rotate(rng.uniform(-35, 35), resample=Image.BILINEAR, expand=True)
    canvas_side = 192
    kind = rng.random()
    if kind < 0.3:
        canvas = Image.new('RGB', (canvas_side, canvas_side), (255, 255, 255))
    elif kind < 0.42:
        canvas = Image.new('RGB', (canvas_side, canvas_side), random_colour(rng))
    elif kind < 0.62:
        canvas = gradient_background((canvas_side, canvas_side), rng)
    else:
        canvas = busy_background((canvas_side, canvas_side), rng, logos)
    area = (0, 0, canvas_side, canvas_side)
    if kind >= 0.3 and rng.random() < 0.35:
        area = product_shape(canvas, rng)
    aw, ah = area[2] - area[0], area[3] - area[1]
    scale = rng.uniform(0.25, 0.95) if kind >= 0.3 else rng.uniform(0.5, 1.0)
    lw, lh = logo.size
    factor = scale * min(aw, ah) / max(lw, lh)
    logo = logo.resize((max(2, int(lw * factor)), max(2, int(lh * factor))), Image.BILINEAR)
    x = area[0] + rng.randrange(0, max(1, aw - logo.size[0]))
    y = area[1] + rng.randrange(0, max(1, ah - logo.size[1]))
    canvas.paste(logo, (x, y), logo)
    if rng.random() < 0.3:
        place_text(canvas, (x, y, x + logo.size[0], y + logo.size[1]), texts, rng)
    if rng.random() < 0.25:
        # a crop that may cut a little of the logo
        c0 = rng.uniform(0, 0.15)
        c1 = rng.uniform(0.85, 1)
        canvas = canvas.crop((int(c0 * canvas_side), int(rng.uniform(0, 0.15) * canvas_side),
                              int(c1 * canvas_side), int(rng.uniform(0.85, 1) * canvas_side)))
    if rng.random() < 0.1:
        canvas = ImageOps.invert(canvas)
    canvas = jpeg_maybe(canvas, rng)
    if kind >= 0.3 and rng.random() < 0.5:
        return window_around(canvas, (x, y, x + logo.size[0], y + logo.size[1]), rng, size)
    return trim_square(canvas, size)


def jpeg_maybe(canvas, rng):
    if rng.random() < 0.35:
        buf = io.BytesIO()
        canvas.save(buf, 'JPEG', quality=rng.randrange(15, 85))
        canvas = Image.open(io.BytesIO(buf.getvalue())).convert('RGB')
    return canvas


def window_around(canvas, box, rng, size):
    """A square window of the picture holding the logo at 40-95% of its side, off centre: what region search crops."""
    x0, y0, x1, y1 = box
    lw, lh = x1 - x0, y1 - y0
    side = max(lw, lh) / rng.uniform(0.4, 0.95)
    left = x0 - rng.uniform(0, max(0.0, side - lw))
    top = y0 - rng.uniform(0, max(0.0, side - lh))
    return canvas.crop((int(left), int(top), int(left + side), int(top + side))).resize((size, size), Image.BILINEAR)


def random_window(canvas, rng, size):
    """A square window of 30-100% of the picture's shorter side at a random place, as region search crops it."""
    w, h = canvas.size
    side = int(min(w, h) * rng.uniform(0.3, 1.0))
    left, top = rng.randrange(0, w - side + 1), rng.randrange(0, h - side + 1)
    return canvas.crop((left, top, left + side, top + side)).resize((size, size), Image.BILINEAR)


def text_picture(rng, texts, canvas_side):
    """One to three lines of product text on white or a light colour."""
    light = (255, 255, 255) if rng.random() < 0.6 else random_colour(rng, (200, 256))
    canvas = Image.new('RGB', (canvas_side, canvas_side), light)
    y = rng.randrange(0, canvas_side // 3)
    for _ in range(rng.randrange(1, 4)):
        text = rng.choice(texts).copy()
        lh = rng.randrange(canvas_side // 10, canvas_side // 3)
        text = text.resize((max(1, int(text.size[0] * lh / text.size[1])), lh))
        canvas.paste(text, (rng.randrange(-canvas_side // 4, canvas_side // 3), y), text)
        y += lh + rng.randrange(2, 12)
    return canvas


def logo_edge_picture(rng, logos, canvas_side):
    """A logo almost entirely outside the picture: the sliver a window at its edge shows."""
    canvas = Image.new('RGB', (canvas_side, canvas_side), (255, 255, 255))
    logo = rng.choice(logos).copy()
    logo.thumbnail((canvas_side, canvas_side))
    lw, lh = logo.size
    visible = rng.uniform(0.05, 0.2)
    if rng.random() < 0.5:
        pos = (canvas_side - int(lw * visible), rng.randrange(0, max(1, canvas_side - lh)))
    else:
        pos = (rng.randrange(0, max(1, canvas_side - lw)), canvas_side - int(lh * visible))
    canvas.paste(logo, pos, logo)
    return canvas


def distractor_view(rng, size, texts, logos):
    """A picture, or a window of one, that shows no logo whole: text alone, clutter, a bare product, a sliver of a
    logo at the edge. Trained as a negative of every logo, so that what is not a logo lands away from all of them."""
    canvas_side = 192
    kind = rng.random()
    if kind < 0.35:
        canvas = text_picture(rng, texts, canvas_side)
    elif kind < 0.65:
        canvas = busy_background((canvas_side, canvas_side), rng, None)
    elif kind < 0.8:
        canvas = gradient_background((canvas_side, canvas_side), rng)
        product_shape(canvas, rng)
    else:
        canvas = logo_edge_picture(rng, logos, canvas_side)
    canvas = jpeg_maybe(canvas, rng)
    if kind < 0.8 and rng.random() < 0.5:
        return random_window(canvas, rng, size)
    return trim_square(canvas, size)


def clean_view(logo, rng, size):
    """The registered file: the logo flattened on white (sometimes lightly changed, so the two sides meet)."""
    if rng.random() < 0.3:
        logo = logo.rotate(rng.uniform(-5, 5), resample=Image.BILINEAR, expand=True)
    canvas = Image.new('RGB', logo.size, (255, 255, 255))
    canvas.paste(logo, (0, 0), logo)
    return trim_square(canvas, size)
