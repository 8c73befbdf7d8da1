"""One vocabulary per language: the word each language uses for each term of the game, and
the other words for the same thing that the site must not use.

A player reads the table's messages (the ``messages`` catalog) and the rules pages (the
``rules`` catalog and the generated explanations) as one text: a carré cannot be a "póquer" at
the table and a "carré" in the rules, nor a trick "الأكلة" on one line and "اللفّة" on the next.
This module is the one source of those words. The rules pages take the announcements' names
from it (:func:`word`), and the tests check every catalog string and every generated page
against it (:func:`misuses`): a word listed in ``avoid`` fails them.

A term's ``avoid`` patterns are regular expressions. Most are wrong anywhere in the language;
those with ``where`` set are wrong only in a translation whose English source matches ``where``
(Hindi दौर is a bidding round, so it is wrong only where the English says "trick").

>>> word("es", "carre"), word("ar", "trick"), word("hi", "trick")
('carré', 'اللفّة', 'चाल')
>>> misuses("es", "Canta tu mejor escalera o póquer.")
[('carre', 'póquer')]
>>> misuses("pl", "Gra bez atu; para król–dama atu.")
[('trump_adjective', 'atu')]
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from cardavia.words.languages import LANGUAGES


@dataclass(frozen=True, slots=True)
class Term:
    """A term of the game in one language: the word used, and the other words never to use."""

    concept: str
    """The term, in English: ``trick``, ``carre``, ``litige`` …"""
    word: str
    """The word the site uses for it."""
    avoid: tuple[str, ...] = ()
    """Regular expressions of other words for the same thing."""
    where: str | None = None
    """If set, ``avoid`` applies only to translations whose English source matches this
    regular expression (the word avoided means something else elsewhere)."""


_T = Term

GLOSSARY: Final[Mapping[str, tuple[Term, ...]]] = {
    "fr": (
        _T("trick", "pli", (r"\blevées?\b",)),
        _T("announcement", "annonce", (r"\bdéclarations?\b",)),
        _T("tierce", "tierce"),
        _T("cinquante", "cinquante"),
        _T("cent", "cent"),
        _T("carre", "carré"),
        _T("capot", "capot"),
        _T("coinche", "coinche"),
        _T("litige", "litige"),
        _T("dix_de_der", "dix de der"),
        _T("not_now", "Impossible pour l'instant", (r"Impossible maintenant",)),
        # The belote is said with the first of the two cards, not "the first of the king".
        _T("belote_first", "la première des deux cartes", (r"le premier du roi",)),
        # "L'équipe Nord–Sud gagne", never a team name as a plural subject of "gagner".
        _T("team_wins", "L'équipe {team} gagne", (r"\{team\} gagnent",)),
    ),
    "en": (
        _T("trick", "trick"),
        _T("tierce", "tierce"),
        _T("cinquante", "fifty"),
        _T("cent", "hundred"),
        _T("carre", "carré"),
        _T("litige", "litige"),
    ),
    "es": (
        _T("trick", "baza", (r"\blevadas?\b",)),
        _T("announcement", "cante", (r"\bdeclaraci(?:ón|ones)\b",)),
        _T("tierce", "tercia", (r"\b[Tt]erceras?\b",)),
        _T("cinquante", "cincuenta"),
        _T("cent", "cien"),
        _T("carre", "carré", (r"[Pp][óo]quer",)),
        _T("capot", "capot", (r"\b[Cc]apotes?\b",)),
        # "coinche (doblar)" explains the word; "doblo", "redoblo" replace it.
        _T("coinche", "coinche", (r"(?<!\()\b[Dd]oblos?\b", r"(?<!\()\b[Rr]edobl\w*")),
        _T("dix_de_der", "dix de der", (r"[Dd]iez de últimas",)),
        # A litige is not an "empate"; the complete tie of a comparison is ("empate total").
        _T("litige", "litige", (r"\b[Ee]mpates?\b(?! total)",)),
        _T("belote", "la belote", (r"\b(?:[Ee]l|[Uu]n|del|al) belote\b", r"\b[Ll]os belotes\b")),
        _T("worked_examples", "Ejemplos comentados", (r"[Ee]jemplos resueltos",)),
        _T("overtrump", "contrafallar", (r"superar el fallo", r"supera su triunfo")),
        _T("contraction", "al, del", (r"\ba el\b", r"\bde el\b")),
    ),
    "pl": (
        _T("trick", "lewa"),
        _T("announcement", "meldunek", (r"\b[Dd]eklaracj\w*",)),
        _T("tierce", "tercja"),
        _T("cinquante", "pięćdziesiątka"),
        _T("cent", "setka"),
        # "atu" alone is no-trump ("bez atu") or all-trump ("wszystko atu"); trump is "atut".
        _T("trump_adjective", "atutowy", (r"(?<!bez )(?<!wszystko )(?<!Bez )\batu\b",)),
        _T("carre", "kareta"),
        _T("capot", "kapot"),
        _T("litige", "litige", (r"(?<!pełnym )(?<!pełny )(?<!Pełny )\b[Rr]emis\w*",)),
        _T("grain", "Ziarnistość", (r"\bZiarno\b",)),
        # A card after "kartę" stays in the nominative with its capital: "kładąc kartę As
        # trefl"; the sentence declines the name instead ("asem trefl", "waleta kier").
        _T("card_case", "{card_acc}", (r"\bkart[ęą] (?:\{card\}|[A-ZĄĆĘŁŃÓŚŹŻ0-9])",)),
    ),
    "ar": (
        _T("trick", "اللفّة", (r"أكل(?:ة|ات|تين)",)),
        _T("announcement", "إعلان"),
        _T("tierce", "تيرس"),
        _T("cinquante", "خمسين", (r"خمسون",)),
        _T("cent", "مئة"),
        _T("carre", "كاري"),
        _T("capot", "كابو", (r"كابوت",)),
        _T("coinche", "كوانش"),
        _T("dix_de_der", "ديس دو دير", (r"ديكس دو دير",)),
        # A litige is "ليتيج"; "التعادل التام" is the complete tie of a comparison.
        _T("litige", "ليتيج", (r"تعادل(?! ?التام| ?تام)(?!ة)",), where=r"[Ll]itige|Equal totals"),
        _T("maghreb", "البيلوت المغاربية", (r"^المغاربية", r"المغرب العربي")),
    ),
    "hi": (
        # दौर is a round of bidding; a trick is चाल.
        _T("trick", "चाल", (r"दौर",), where=r"\btricks?\b"),
        _T("tierce", "टियर्स", (r"तियर्स", r"टीयर्स")),
        _T("cinquante", "पचास", (r"पचासा",)),
        _T("cent", "सौ", (r"सेंट", r"सैकड़ा")),
        _T("carre", "कारे"),
        _T("capot", "कैपो", (r"कैपोट",)),
        _T("coinche", "कॉइंश", (r"कॉइंच", r"\bCoinche\b", r"\bcoinche\b")),
        _T("surcoinche", "सुरकॉइंश", (r"सुरकॉइंच",)),
        _T("litige", "लितीज"),
        _T("spanish_deck", "स्पेनी ताश", (r"स्पेनिश पत्त\S*", r"स्पेनिश ताश")),
    ),
}
"""Each language's terms (docs/rules.md's words, as its players say them)."""


def terms(lang: str) -> tuple[Term, ...]:
    """The glossary of a language."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}")
    return GLOSSARY[lang]


def word(lang: str, concept: str) -> str:
    """The word a language uses for a term.

    >>> word("fr", "cinquante"), word("pl", "carre")
    ('cinquante', 'kareta')
    """
    for term in terms(lang):
        if term.concept == concept:
            return term.word
    raise KeyError(f"no word for {concept!r} in {lang!r}")


def misuses(lang: str, text: str, *, source: str | None = None) -> list[tuple[str, str]]:
    """The other words for glossary terms that ``text`` uses, as (term, word found).

    ``source`` is the English the text translates, when there is one: a term whose ``where``
    does not match it is not checked; without a source, such terms are not checked at all
    (their words are right in other senses)."""
    found = []
    for term in terms(lang):
        if term.where is not None and (source is None or not re.search(term.where, source)):
            continue
        for pattern in term.avoid:
            for match in re.finditer(pattern, text, flags=re.MULTILINE):
                found.append((term.concept, match.group(0)))
    return found
