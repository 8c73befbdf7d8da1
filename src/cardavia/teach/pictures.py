"""Card pictures drawn as SVG from code, for both decks (docs/rules.md 1), each labelled with the
card's name in the reader's language for screen readers.

The French deck prints its corner index (localised: "V" for valet, "W" for walet) and the
suit symbol; the Spanish-suited deck its number (4 5 6 7 10 11 12 1) and a drawn emblem (a
coin, a cup, a sword, a club), in the traditional colours of each suit.

>>> svg = card_svg("JH", lang="fr")
>>> svg.startswith('<svg') and 'aria-label="valet de cœur"' in svg and '>V<' in svg
True
"""

from __future__ import annotations

from html import escape
from typing import Final

from cardavia.belote import parse_card
from cardavia.words.names import FRENCH_SYMBOLS, card_name, rank_words

_FRENCH_COLOURS: Final = ("#1a1a1a", "#c8102e", "#c8102e", "#1a1a1a")
# Spanish suits, in code order S H D C: espadas blue, copas red, oros gold, bastos green.
_SPANISH_COLOURS: Final = ("#1f4e9c", "#b3202a", "#b8860b", "#2e6b30")
_SPANISH_EMBLEMS: Final = (
    # espadas: a sword, point up
    '<path d="M30 20 L33 26 L33 60 L27 60 L27 26 Z" fill="{c}"/>'
    '<rect x="20" y="58" width="20" height="4" rx="1" fill="{c}"/>'
    '<rect x="28" y="62" width="4" height="10" fill="{c}"/>',
    # copas: a cup
    '<path d="M18 28 H42 Q42 48 32 52 V60 H38 V64 H22 V60 H28 V52 Q18 48 18 28 Z" fill="{c}"/>',
    # oros: a coin
    '<circle cx="30" cy="46" r="15" fill="{c}"/>'
    '<circle cx="30" cy="46" r="9" fill="none" stroke="#fff" stroke-width="2"/>',
    # bastos: a knotted club
    '<path d="M26 22 Q34 20 35 28 L33 70 Q30 73 27 70 L24 30 Q22 24 26 22 Z" fill="{c}"/>'
    '<circle cx="24" cy="38" r="2.5" fill="{c}"/><circle cx="36" cy="50" r="2.5" fill="{c}"/>',
)


def card_svg(code: str, *, lang: str, deck: str = "french", css_class: str = "card") -> str:
    """The picture of a card as an inline ``<svg>`` (60 × 90), its name as its label."""
    card = parse_card(code)
    rank, suit = card & 7, card >> 3
    label = escape(card_name(card, lang, deck))
    index = escape(rank_words(rank, lang, deck).label)
    if deck == "french":
        colour = _FRENCH_COLOURS[suit]
        symbol = FRENCH_SYMBOLS[suit]
        body = (
            f'<text x="7" y="30" font-size="12" fill="{colour}">{symbol}</text>'
            f'<text x="30" y="60" font-size="30" text-anchor="middle" fill="{colour}">'
            f"{symbol}</text>"
        )
    else:
        colour = _SPANISH_COLOURS[suit]
        body = _SPANISH_EMBLEMS[suit].format(c=colour)
    return (
        f'<svg class="{escape(css_class)}" viewBox="0 0 60 90" width="60" height="90" '
        f'direction="ltr" role="img" aria-label="{label}" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{label}</title>"
        '<rect x="1" y="1" width="58" height="88" rx="6" fill="#fff" stroke="#555"/>'
        f'<text x="7" y="16" font-size="13" font-weight="bold" fill="{colour}" '
        f'font-family="sans-serif">{index}</text>'
        f"{body}</svg>"
    )
