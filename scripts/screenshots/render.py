#!/usr/bin/env python3
"""Renders a `tmux capture-pane -e -p -N` capture to a PNG that looks like a terminal window.

Usage: render.py CAPTURE PNG --cols 100 --rows 30 [--cursor X,Y]

The capture's lines are fed into a pyte screen with absolute cursor positioning per row (feeding
"\r\n" would scroll the first row away once the last row is written; docs/ncurses.md "Screenshots
from real runs"), then every cell is drawn with Pillow: DejaVu Sans Mono (regular/bold), WenQuanYi Micro
Hei for CJK, Noto Color Emoji (a bitmap font: drawn at its native size, scaled into two cells). The
empty right half of a wide character is skipped. SGR colours, bold, dim, reverse and underline are
honoured; block elements are drawn as rectangles so that charts have no gaps between rows, and braille
patterns (U+2800–U+28FF, the progress chart's dots; DejaVu Sans Mono has no glyphs for them) as round
dots on a 2×4 grid, as terminals draw them.
"""

import argparse
import re
import sys
import unicodedata

import pyte
from PIL import Image, ImageDraw, ImageFont

FONT_DIRS = ["/usr/share/fonts/truetype"]
MONO = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
MONO_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"
CJK = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"
EMOJI = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"

FONT_SIZE = 16
PADDING = 12

# A dark theme close to common terminal defaults (xterm-like ANSI colours, softened).
DEFAULT_FG = (0xD8, 0xDE, 0xE6)
DEFAULT_BG = (0x1C, 0x1F, 0x26)
ANSI = {
    "black": (0x2E, 0x34, 0x36),
    "red": (0xEF, 0x53, 0x50),
    "green": (0x8A, 0xC9, 0x4F),
    "brown": (0xE5, 0xC0, 0x4B),  # pyte calls yellow "brown"
    "yellow": (0xE5, 0xC0, 0x4B),
    "blue": (0x54, 0x8C, 0xE0),
    "magenta": (0xC6, 0x78, 0xDD),
    "cyan": (0x4E, 0xC9, 0xD6),
    "white": (0xD3, 0xD7, 0xCF),
    "brightblack": (0x7A, 0x82, 0x8E),
    "brightred": (0xFF, 0x6E, 0x6E),
    "brightgreen": (0xA6, 0xE2, 0x6A),
    "brightbrown": (0xFF, 0xD8, 0x6A),
    "brightyellow": (0xFF, 0xD8, 0x6A),
    "brightblue": (0x78, 0xA8, 0xFF),
    "brightmagenta": (0xE0, 0x9A, 0xF5),
    "brightcyan": (0x7F, 0xE5, 0xEE),
    "brightwhite": (0xFF, 0xFF, 0xFF),
}

# Light box-drawing characters as (left, right, up, down) arms from the cell's centre.
BOX_ARMS = {
    "─": (1, 1, 0, 0), "│": (0, 0, 1, 1), "┌": (0, 1, 0, 1), "┐": (1, 0, 0, 1),
    "└": (0, 1, 1, 0), "┘": (1, 0, 1, 0), "├": (0, 1, 1, 1), "┤": (1, 0, 1, 1),
    "┬": (1, 1, 0, 1), "┴": (1, 1, 1, 0), "┼": (1, 1, 1, 1),
    "╭": (0, 1, 0, 1), "╮": (1, 0, 0, 1), "╰": (0, 1, 1, 0), "╯": (1, 0, 1, 0),
}

SGR = re.compile(r"\x1b\[([0-9;:]*)m")


def dim_as_blink(capture: str) -> str:
    """pyte ignores SGR 2 (dim); carry it as blink (5), which the app never uses."""

    def rewrite(match: re.Match) -> str:
        params = match.group(1).split(";") if match.group(1) else ["0"]
        out, i = [], 0
        while i < len(params):
            p = params[i]
            if p in ("38", "48") and i + 1 < len(params):
                width = 3 if params[i + 1] == "5" else 5 if params[i + 1] == "2" else 2
                out.extend(params[i : i + width])
                i += width
                continue
            if p == "2":
                out.append("5")
            elif p == "22":
                out.extend(["22", "25"])
            else:
                out.append(p)
            i += 1
        return "\x1b[" + ";".join(out) + "m"

    return SGR.sub(rewrite, capture)


def colour(name, default):
    if name == "default":
        return default
    if name in ANSI:
        return ANSI[name]
    if isinstance(name, str) and len(name) == 6:
        try:
            return tuple(int(name[i : i + 2], 16) for i in (0, 2, 4))
        except ValueError:
            pass
    return default


def blend(a, b, share):
    return tuple(round(x * (1 - share) + y * share) for x, y in zip(a, b))


def is_emoji(text: str) -> bool:
    cp = ord(text[0])
    return cp >= 0x1F000 or 0x2600 <= cp <= 0x27BF or "\ufe0f" in text or "\u200d" in text


def is_wide(text: str) -> bool:
    return unicodedata.east_asian_width(text[0]) in ("W", "F")


class Renderer:
    def __init__(self):
        self.mono = ImageFont.truetype(MONO, FONT_SIZE)
        self.bold = ImageFont.truetype(MONO_BOLD, FONT_SIZE)
        self.cjk = ImageFont.truetype(CJK, FONT_SIZE, index=0)
        try:
            self.emoji = ImageFont.truetype(EMOJI, 109)  # the only size the bitmap font has
        except OSError:
            self.emoji = None
        ascent, descent = self.mono.getmetrics()
        self.ascent = ascent
        self.cell_w = round(self.mono.getlength("M"))
        self.cell_h = ascent + descent + 2
        self.emoji_cache = {}

    def block(self, draw, ch, x, y, fg):
        """Draws light box-drawing lines and U+2580–U+2590 block elements edge to edge (a font's
        glyphs leave gaps between rows at this line height) and braille patterns as dots; returns False
        for other characters."""
        w, h = self.cell_w, self.cell_h
        cp = ord(ch)
        if 0x2800 <= cp <= 0x28FF:
            self.braille(draw, cp - 0x2800, x, y, fg)
            return True
        arms = BOX_ARMS.get(ch)
        if arms is not None:
            cx, cy = x + w // 2, y + h // 2
            left, right, up, down = arms
            if left:
                draw.line([x, cy, cx, cy], fill=fg)
            if right:
                draw.line([cx, cy, x + w - 1, cy], fill=fg)
            if up:
                draw.line([cx, y, cx, cy], fill=fg)
            if down:
                draw.line([cx, cy, cx, y + h - 1], fill=fg)
            return True
        if 0x2581 <= cp <= 0x2588:  # lower one eighth … full block
            top = y + h - round(h * (cp - 0x2580) / 8)
            draw.rectangle([x, top, x + w - 1, y + h - 1], fill=fg)
            return True
        if cp == 0x2580:  # upper half
            draw.rectangle([x, y, x + w - 1, y + h // 2 - 1], fill=fg)
            return True
        if 0x2589 <= cp <= 0x258F:  # left seven eighths … left one eighth
            right = x + round(w * (0x2590 - cp) / 8) - 1
            draw.rectangle([x, y, right, y + h - 1], fill=fg)
            return True
        if cp == 0x2590:  # right half
            draw.rectangle([x + w // 2, y, x + w - 1, y + h - 1], fill=fg)
            return True
        return False

    # Braille dot bits by (column, row): dots 1-2-3-7 down the left column, 4-5-6-8 down the right.
    BRAILLE_BITS = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (0, 3, 0x40),
                    (1, 0, 0x08), (1, 1, 0x10), (1, 2, 0x20), (1, 3, 0x80))

    def braille(self, draw, bits, x, y, fg):
        """The raised dots of a braille pattern, evenly spaced over the whole cell (2 across, 4 down)."""
        w, h = self.cell_w, self.cell_h
        radius = max(1.0, min(w / 4, h / 8) * 0.75)
        for column, row, bit in self.BRAILLE_BITS:
            if bits & bit:
                cx = x + w * (2 * column + 1) / 4
                cy = y + h * (2 * row + 1) / 8
                draw.ellipse([cx - radius, cy - radius, cx + radius, cy + radius], fill=fg)

    def draw_emoji(self, image, text, x, y):
        if self.emoji is None:
            return False
        glyph = self.emoji_cache.get(text)
        if glyph is None:
            canvas = Image.new("RGBA", (160, 160), (0, 0, 0, 0))
            ImageDraw.Draw(canvas).text((10, 10), text, font=self.emoji, embedded_color=True)
            box = canvas.getbbox()
            if box is None:
                return False
            glyph = canvas.crop(box)
            target_h = self.cell_h - 2
            target_w = min(2 * self.cell_w, round(glyph.width * target_h / glyph.height))
            target_h = min(target_h, round(glyph.height * target_w / glyph.width))
            glyph = glyph.resize((target_w, target_h), Image.LANCZOS)
            self.emoji_cache[text] = glyph
        gx = x + (2 * self.cell_w - glyph.width) // 2
        gy = y + (self.cell_h - glyph.height) // 2
        image.paste(glyph, (gx, gy), glyph)
        return True

    def render(self, screen: pyte.Screen, cursor=None) -> Image.Image:
        cols, rows = screen.columns, screen.lines
        width = cols * self.cell_w + 2 * PADDING
        height = rows * self.cell_h + 2 * PADDING
        image = Image.new("RGB", (width, height), DEFAULT_BG)
        draw = ImageDraw.Draw(image)
        for row in range(rows):
            line = screen.buffer[row]
            y = PADDING + row * self.cell_h
            col = 0
            while col < cols:
                char = line[col]
                text = char.data
                x = PADDING + col * self.cell_w
                fg = colour(char.fg, DEFAULT_FG)
                bg = colour(char.bg, DEFAULT_BG)
                if char.reverse:
                    fg, bg = bg, fg
                if char.blink:  # dim (see dim_as_blink)
                    fg = blend(fg, bg, 0.45)
                wide = bool(text) and is_wide(text) or (bool(text) and is_emoji(text) and col + 1 < cols and line[col + 1].data == "")
                span = 2 if wide and col + 1 < cols else 1
                if bg != DEFAULT_BG:
                    draw.rectangle([x, y, x + span * self.cell_w - 1, y + self.cell_h - 1], fill=bg)
                if cursor == (col, row):
                    draw.rectangle([x, y, x + self.cell_w - 1, y + self.cell_h - 1], fill=DEFAULT_FG)
                    fg = bg if bg != DEFAULT_FG else DEFAULT_BG
                if text and text != " ":
                    if len(text) == 1 and self.block(draw, text, x, y, fg):
                        pass
                    elif wide and is_emoji(text):
                        if not self.draw_emoji(image, text, x, y):
                            draw.text((x, y + 1), text, font=self.cjk, fill=fg)
                    elif wide:
                        draw.text((x, y + 1), text, font=self.cjk, fill=fg)
                    else:
                        font = self.bold if char.bold else self.mono
                        draw.text((x, y + 1), text, font=font, fill=fg)
                if char.underscore:
                    uy = y + self.ascent + 3
                    draw.line([x, uy, x + span * self.cell_w - 1, uy], fill=fg)
                col += span  # the right half of a wide character is empty: skip it
        return image


def load(capture: str, cols: int, rows: int) -> pyte.Screen:
    screen = pyte.Screen(cols, rows)
    stream = pyte.Stream(screen)
    lines = dim_as_blink(capture).split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for row, text in enumerate(lines[:rows]):
        stream.feed(f"\x1b[{row + 1};1H" + text)
    return screen


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("capture")
    parser.add_argument("png")
    parser.add_argument("--cols", type=int, default=100)
    parser.add_argument("--rows", type=int, default=30)
    parser.add_argument("--cursor", help="X,Y of a visible cursor")
    args = parser.parse_args()
    with open(args.capture, encoding="utf-8", errors="replace") as f:
        screen = load(f.read(), args.cols, args.rows)
    cursor = tuple(int(v) for v in args.cursor.split(",")) if args.cursor else None
    Renderer().render(screen, cursor).save(args.png, optimize=True)


if __name__ == "__main__":
    sys.exit(main())
