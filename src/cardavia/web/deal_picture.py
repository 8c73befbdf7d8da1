"""The picture of a shared deal that a chat app shows when its link is pasted (Open Graph's
``og:image``, Twitter's ``summary_large_image``): the four hands as dealt, as cards around a
table, the sharer's at the bottom, drawn by the server as a PNG of 1200×630.

Why a PNG drawn here: the platforms that preview links (WhatsApp, Telegram, Facebook,
Messenger, X, LinkedIn, Slack, Discord, iMessage) take JPEG, PNG, GIF or WebP, and none takes
SVG for ``og:image``; rendering the site's card SVGs would need a rasteriser (cairo, a browser)
the site does not carry. The cards here are a few filled rectangles, a 5×7 pixel font for the
ranks and 9×9 pips for the suits, encoded with ``zlib`` (a palette PNG of about 15 KiB): no
dependency, about 20 ms a picture, the same bytes for the same deal.

The seats are placed as the table places them (docs/rules.md: play turns counterclockwise,
so the seat after the bottom one is on the right): the sharer at the bottom, their partner
at the top. The deck's own ranks and suits: the French deck's court letters in the page's
language where it has its own (V D R in French), the Spanish deck's numbers and its four
suits by their colours (oros gold, copas red, espadas blue, bastos green).
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Mapping, Sequence
from typing import Final

WIDTH: Final = 1200
HEIGHT: Final = 630
"""Open Graph's recommended size (1.91:1), which X's large card takes too."""

PALETTE: Final = (
    (0x16, 0x38, 0x2B),  # 0 the cloth (the site's theme colour)
    (0xFF, 0xFF, 0xFF),  # 1 a card
    (0x1A, 0x1A, 0x1A),  # 2 black suits, ranks
    (0xC8, 0x10, 0x2E),  # 3 red suits (and copas)
    (0xE0, 0xA8, 0x00),  # 4 oros; the sharer's mark
    (0x1D, 0x5F, 0xB8),  # 5 espadas
    (0x2E, 0x7D, 0x32),  # 6 bastos
    (0x0E, 0x26, 0x1D),  # 7 a card's shadow
)
CLOTH, CARD, BLACK, RED, GOLD, BLUE, GREEN, SHADOW = range(8)

GLYPHS: Final[Mapping[str, tuple[str, ...]]] = {
    "0": ("01110", "10001", "10011", "10101", "11001", "10001", "01110"),
    "1": ("00100", "01100", "00100", "00100", "00100", "00100", "01110"),
    "2": ("01110", "10001", "00001", "00010", "00100", "01000", "11111"),
    "4": ("00010", "00110", "01010", "10010", "11111", "00010", "00010"),
    "5": ("11111", "10000", "11110", "00001", "00001", "10001", "01110"),
    "6": ("00110", "01000", "10000", "11110", "10001", "10001", "01110"),
    "7": ("11111", "00001", "00010", "00100", "01000", "01000", "01000"),
    "8": ("01110", "10001", "10001", "01110", "10001", "10001", "01110"),
    "9": ("01110", "10001", "10001", "01111", "00001", "00010", "01100"),
    "A": ("01110", "10001", "10001", "11111", "10001", "10001", "10001"),
    "K": ("10001", "10010", "10100", "11000", "10100", "10010", "10001"),
    "Q": ("01110", "10001", "10001", "10001", "10101", "10010", "01101"),
    "J": ("00111", "00010", "00010", "00010", "00010", "10010", "01100"),
    "R": ("11110", "10001", "10001", "11110", "10100", "10010", "10001"),
    "D": ("11100", "10010", "10001", "10001", "10001", "10010", "11100"),
    "V": ("10001", "10001", "10001", "10001", "10001", "01010", "00100"),
}
"""A 5×7 pixel font: the ranks' labels of both decks."""

PIPS: Final[Mapping[str, tuple[str, ...]]] = {
    "S": (
        "000010000",
        "000111000",
        "001111100",
        "011111110",
        "111111111",
        "111111111",
        "011010110",
        "000010000",
        "000111000",
    ),
    "H": (
        "011000110",
        "111101111",
        "111111111",
        "111111111",
        "011111110",
        "001111100",
        "000111000",
        "000010000",
        "000000000",
    ),
    "D": (
        "000010000",
        "000111000",
        "001111100",
        "011111110",
        "111111111",
        "011111110",
        "001111100",
        "000111000",
        "000010000",
    ),
    "C": (
        "000111000",
        "001111100",
        "001111100",
        "110111011",
        "111111111",
        "110111011",
        "000010000",
        "000111000",
        "001111100",
    ),
}
"""The French deck's four pips, 9×9."""
SPANISH_PIPS: Final[Mapping[str, tuple[str, ...]]] = {
    "D": (
        "001111100",
        "011000110",
        "110000011",
        "100111001",
        "100111001",
        "100111001",
        "110000011",
        "011000110",
        "001111100",
    ),
    "H": (
        "111111111",
        "111111111",
        "011111110",
        "001111100",
        "000111000",
        "000010000",
        "000010000",
        "000111000",
        "011111110",
    ),
    "S": (
        "000010000",
        "000111000",
        "000111000",
        "000111000",
        "000111000",
        "000111000",
        "011111110",
        "000010000",
        "000111000",
    ),
    "C": (
        "000011000",
        "000111100",
        "000111100",
        "000111000",
        "001110000",
        "001110000",
        "011100000",
        "011100000",
        "111000000",
    ),
}
"""The Spanish deck's four suits, 9×9: a coin, a cup, a sword, a club."""
SUIT_COLOURS: Final = {
    "french": {"S": BLACK, "C": BLACK, "H": RED, "D": RED},
    "spanish": {"D": GOLD, "H": RED, "S": BLUE, "C": GREEN},
}
SUIT_ORDER: Final = "SHCD"
"""Suits alternate colours in a hand (spades, hearts, clubs, diamonds)."""
RANK_ORDER: Final = "AKQJT987"
FRENCH_LABELS: Final = {"T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}
COURT_LETTERS: Final = {"fr": {"J": "V", "Q": "D", "K": "R"}}
"""The court letters of a language whose French deck has its own (cards.js reads them from
the page; these are the ones the pixel font has)."""
SPANISH_LABELS: Final = {
    "7": "4",
    "8": "5",
    "9": "6",
    "T": "7",
    "J": "10",
    "Q": "11",
    "K": "12",
    "A": "1",
}
"""docs/rules.md 1: the Spanish 4 5 6 7 10 11 12 1 are 7 8 9 10 J Q K A."""

CARD_W: Final = 86
CARD_H: Final = 120
STEP: Final = 94
"""A card's size and the distance from one card to the next in a hand."""


class Canvas:
    """A palette picture being drawn: one byte per pixel, the palette's index."""

    def __init__(self, width: int, height: int, background: int) -> None:
        self.width, self.height = width, height
        self.pixels = bytearray([background]) * (width * height)

    def rect(self, x: int, y: int, w: int, h: int, colour: int) -> None:
        """Fill a rectangle (clipped to the picture)."""
        x0, x1 = max(0, x), min(self.width, x + w)
        if x1 <= x0:
            return
        for row in range(max(0, y), min(self.height, y + h)):
            start = row * self.width
            self.pixels[start + x0 : start + x1] = bytes([colour]) * (x1 - x0)

    def bitmap(self, rows: Sequence[str], x: int, y: int, scale: int, colour: int) -> None:
        """Draw a bitmap (rows of "0"/"1"), each of its pixels a square of ``scale``."""
        for i, row in enumerate(rows):
            for j, bit in enumerate(row):
                if bit == "1":
                    self.rect(x + j * scale, y + i * scale, scale, scale, colour)

    def png(self) -> bytes:
        """The picture as a PNG (8-bit palette, no filter: the cloth's long runs compress)."""
        raw = b"".join(
            b"\x00" + self.pixels[row * self.width : (row + 1) * self.width]
            for row in range(self.height)
        )
        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 3, 0, 0, 0)
        palette = b"".join(bytes(colour) for colour in PALETTE)
        return (
            b"\x89PNG\r\n\x1a\n"
            + _chunk(b"IHDR", header)
            + _chunk(b"PLTE", palette)
            + _chunk(b"IDAT", zlib.compress(raw, 9))
            + _chunk(b"IEND", b"")
        )


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def sorted_hand(codes: Sequence[str]) -> list[str]:
    """A hand in suits of alternate colours, each from the ace down.

    >>> sorted_hand(["7D", "AS", "TH", "KS"])
    ['AS', 'KS', 'TH', '7D']
    """
    return sorted(codes, key=lambda code: (SUIT_ORDER.index(code[1]), RANK_ORDER.index(code[0])))


def rank_label(code: str, deck: str, lang: str) -> str:
    """The label a card's corner shows: ``"10"``, ``"R"`` (a French king in French)."""
    rank = code[0]
    if deck == "spanish":
        return SPANISH_LABELS[rank]
    return COURT_LETTERS.get(lang, {}).get(rank) or FRENCH_LABELS.get(rank, rank)


def draw_card(canvas: Canvas, code: str, x: int, y: int, *, deck: str, lang: str) -> None:
    """One card face up: its rank at the top left, its suit large below."""
    canvas.rect(x + 4, y + 4, CARD_W, CARD_H, SHADOW)
    canvas.rect(x, y, CARD_W, CARD_H, CARD)
    colour = SUIT_COLOURS[deck][code[1]]
    label = rank_label(code, deck, lang)
    scale = 4 if len(label) == 1 else 3
    for i, char in enumerate(label):
        canvas.bitmap(GLYPHS[char], x + 8 + i * 6 * scale, y + 8, scale, colour)
    pips = SPANISH_PIPS if deck == "spanish" else PIPS
    canvas.bitmap(pips[code[1]], x + CARD_W - 8 - 45, y + CARD_H - 8 - 45, 5, colour)


def draw_hand(
    canvas: Canvas, codes: Sequence[str], x: int, y: int, *, per_row: int, deck: str, lang: str
) -> None:
    """A hand as rows of ``per_row`` cards from ``(x, y)``."""
    for index, code in enumerate(sorted_hand(codes)):
        row, column = divmod(index, per_row)
        draw_card(canvas, code, x + column * STEP, y + row * (CARD_H + 12), deck=deck, lang=lang)


def deal_picture(hands: Mapping[str, Sequence[str]], sharer: str, *, deck: str, lang: str) -> bytes:
    """The PNG of a deal's four hands (``hands``: seat code → card codes), ``sharer``'s at
    the bottom and marked, the others where that seat's screen puts them."""
    seats = "NESW"
    bottom = seats.index(sharer)
    right, top, left = (seats[(bottom + turn) % 4] for turn in (1, 2, 3))
    canvas = Canvas(WIDTH, HEIGHT, CLOTH)
    wide = 7 * STEP + CARD_W
    middle = (WIDTH - wide) // 2
    draw_hand(canvas, hands[top], middle, 16, per_row=8, deck=deck, lang=lang)
    draw_hand(canvas, hands[sharer], middle, HEIGHT - CARD_H - 20, per_row=8, deck=deck, lang=lang)
    canvas.rect(middle, HEIGHT - 12, wide, 6, GOLD)
    side = 3 * STEP + CARD_W
    high = (HEIGHT - 2 * CARD_H - 12) // 2
    draw_hand(canvas, hands[left], 24, high, per_row=4, deck=deck, lang=lang)
    draw_hand(canvas, hands[right], WIDTH - 24 - side, high, per_row=4, deck=deck, lang=lang)
    return canvas.png()


__all__ = ["HEIGHT", "WIDTH", "deal_picture", "rank_label", "sorted_hand"]
