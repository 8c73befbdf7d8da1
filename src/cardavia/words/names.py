"""Each language's own names for seats, suits, ranks and cards, for both decks (docs/rules.md 1, 2).

The table (screen-reader labels, refusal reasons) and the rules pages name cards with these
functions, so that a card is called the same everywhere: the words come from the reference
pages (seeds 000–004) and the usage of players of each language.

The Spanish-suited deck of the Maghreb tables maps one to one onto the French deck
(docs/rules.md 1): ranks ``4 5 6 7 10 11 12 1`` are ``7 8 9 10 J Q K A``, and oros, copas,
espadas, bastos are diamonds, hearts, spades, clubs. A card is the engine's ``int``
(``suit * 8 + rank``, :class:`cardavia.belote.Card`).

Grammar is part of a name: Polish puts the suit after the rank ("Walet kier"), Arabic joins
them in a construct ("ولد الكبّة"), Hindi puts the suit first with a postposition that agrees
with the rank ("पान का गुलाम", "हुकुम की बेगम"). Sentences need other forms of the same name
(an article in French and Spanish, a case in Polish, the oblique in Hindi): ``form`` gives
them, and :func:`card_forms` all of them at once for the sentence templates of
:mod:`cardavia.teach.explain`.

>>> from cardavia.belote import parse_card
>>> card_name(parse_card("JH"), "fr")
'valet de cœur'
>>> card_name(parse_card("JH"), "pl"), card_name(parse_card("JH"), "ar")
('Walet kier', 'ولد الكبّة')
>>> card_name(parse_card("QS"), "hi"), card_name(parse_card("JH"), "hi")
('हुकुम की बेगम', 'पान का गुलाम')
>>> card_name(parse_card("KD"), "es", "spanish"), card_short(parse_card("KD"), "es", "spanish")
('rey de oros', '12 oros')
>>> card_name(parse_card("AS"), "fr", form="the"), card_name(parse_card("AS"), "pl", form="ins")
('l’as de pique', 'asem pik')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from cardavia.belote import Card, Seat, Team
from cardavia.words.languages import LANGUAGES

DECK_KEYS: Final = ("french", "spanish")

CardForm = Literal["name", "the", "acc", "gen", "ins", "obl", "nom"]
"""``name``: as written on a list ("Walet kier", "valet de cœur"); ``the``: with a definite
article where the language has one (fr, es, en); ``acc``/``ins``: Polish accusative and
instrumental ("waleta kier", "waletem kier"); ``gen``: the Polish genitive, after a negated verb
("Nie możesz zagrać damy kier"); ``obl``: the Hindi oblique, before a postposition
("पान के गुलाम"); ``nom``: the Polish nominative in words, as the subject of a sentence
("dziewiątka karo", "walet kier"), the name elsewhere. A form a language does not have is
its ``the`` form."""
CARD_FORMS: Final[tuple[CardForm, ...]] = ("name", "the", "acc", "gen", "ins", "obl", "nom")

SuitForm = Literal["name", "bare", "du", "of"]
"""``name``: the suit as a word of its own (Arabic with its article, "الكبّة"); ``bare``:
without the Arabic article ("كبّة", after "no" or "cards of"); ``du``: the French partitive
("du pique", "de la coupe"); ``of``: French and Spanish, after a rank ("de pique", "d’épée").
A form a language does not have is its ``name``."""
SUIT_FORMS: Final[tuple[SuitForm, ...]] = ("name", "bare", "du", "of")

RankForm = Literal["name", "plural", "plural_de", "the", "acc"]
"""``name``: the rank alone ("valet"); ``plural``: as in a carré of them ("valets", Polish
genitive "waletów", Arabic "الأولاد"); ``plural_de``: French, with its "de" ("de valets",
"d’as"), the plural elsewhere; ``the``: with the definite article ("le roi", "la dame",
"el caballo", Arabic "الشايب", "الـ12 (ري)"); ``acc``: the Polish accusative ("króla",
"damę"), the name elsewhere."""
RANK_FORMS: Final[tuple[RankForm, ...]] = ("name", "plural", "plural_de", "the", "acc")


@dataclass(frozen=True, slots=True)
class RankWords:
    """The words of one rank in one language and deck."""

    name: str
    """As in the card's name: "valet", "Walet", "ولد", "गुलाम"; digits for 7–10 where the
    reference pages write digits."""
    plural: str
    """The plural of a carré: "valets", "waletów", "الأولاد", "गुलाम"."""
    label: str
    """The index printed in the card's corner: "V", "J", "W", "10"."""
    feminine: bool = False
    """Grammatical gender where it matters: French and Spanish articles, Hindi का/की."""
    acc: str = ""
    """Polish accusative ("waleta"), lower case."""
    gen: str = ""
    """Polish genitive ("waleta", "damy", "siódemki"), lower case."""
    ins: str = ""
    """Polish instrumental ("waletem"), lower case."""
    nom: str = ""
    """Polish nominative in words, lower case ("dziewiątka", "walet")."""
    word: str = ""
    """Where ``name`` is the printed number of a Spanish-deck card, the word its players
    say (Arabic "ري" for the 12, Hindi "राजा" for the 12): shown beside the number."""


@dataclass(frozen=True, slots=True)
class SuitWords:
    """The words of one suit in one language and deck."""

    name: str
    bare: str = ""
    du: str = ""
    of: str = ""
    """French and Spanish: the suit after a rank, with its "de" ("de pique", "d’épée")."""

    def form(self, form: SuitForm) -> str:
        """The suit in that form, or its plain name where the language has no such form."""
        if form == "bare" and self.bare:
            return self.bare
        if form == "du" and self.du:
            return self.du
        if form == "of" and self.of:
            return self.of
        return self.name


def _r(
    name: str,
    plural: str,
    label: str,
    *,
    f: bool = False,
    acc: str = "",
    ins: str = "",
    nom: str = "",
    word: str = "",
) -> RankWords:
    return RankWords(
        name, plural, label, f, acc=acc, gen=_genitive(acc), ins=ins, nom=nom, word=word
    )


def _genitive(acc: str) -> str:
    """The Polish genitive of a rank from its accusative: a masculine rank's is the same
    ("waleta", "króla"), a feminine one's ends in -i after k, else in -y ("siódemki", "damy")."""
    if not acc.endswith("ę"):
        return acc
    return acc[:-1] + ("i" if acc[-2] == "k" else "y")


# Ranks are listed in the engine's order: 7 8 9 10 J Q K A (Spanish deck: 4 5 6 7 10 11 12 1),
# suits in the order of their codes: S H D C (Spanish deck: espadas, copas, oros, bastos).
_RANKS: Final[dict[tuple[str, str], tuple[RankWords, ...]]] = {
    ("fr", "french"): (
        _r("sept", "sept", "7"),
        _r("huit", "huit", "8"),
        _r("neuf", "neuf", "9"),
        _r("dix", "dix", "10"),
        _r("valet", "valets", "V"),
        _r("dame", "dames", "D", f=True),
        _r("roi", "rois", "R"),
        _r("as", "as", "A"),
    ),
    ("fr", "spanish"): (
        _r("quatre", "quatre", "4"),
        _r("cinq", "cinq", "5"),
        _r("six", "six", "6"),
        _r("sept", "sept", "7"),
        _r("valet", "valets", "10"),
        _r("cavalier", "cavaliers", "11"),
        _r("roi", "rois", "12"),
        _r("as", "as", "1"),
    ),
    ("en", "french"): (
        _r("seven", "sevens", "7"),
        _r("eight", "eights", "8"),
        _r("nine", "nines", "9"),
        _r("ten", "tens", "10"),
        _r("jack", "jacks", "J"),
        _r("queen", "queens", "Q"),
        _r("king", "kings", "K"),
        _r("ace", "aces", "A"),
    ),
    ("en", "spanish"): (
        _r("four", "fours", "4"),
        _r("five", "fives", "5"),
        _r("six", "sixes", "6"),
        _r("seven", "sevens", "7"),
        _r("jack", "jacks", "10"),
        _r("knight", "knights", "11"),
        _r("king", "kings", "12"),
        _r("ace", "aces", "1"),
    ),
    ("es", "french"): (
        _r("siete", "sietes", "7"),
        _r("ocho", "ochos", "8"),
        _r("nueve", "nueves", "9"),
        _r("diez", "dieces", "10"),
        _r("jota", "jotas", "J", f=True),
        _r("reina", "reinas", "Q", f=True),
        _r("rey", "reyes", "K"),
        _r("as", "ases", "A"),
    ),
    ("es", "spanish"): (
        _r("cuatro", "cuatros", "4"),
        _r("cinco", "cincos", "5"),
        _r("seis", "seises", "6"),
        _r("siete", "sietes", "7"),
        _r("sota", "sotas", "10", f=True),
        _r("caballo", "caballos", "11"),
        _r("rey", "reyes", "12"),
        _r("as", "ases", "1"),
    ),
    # Seed 001: "Król pik", "7 pik", "Walet kier"; in sentences "asem trefl", "ósemką".
    ("pl", "french"): (
        _r("7", "siódemek", "7", acc="siódemkę", ins="siódemką", nom="siódemka"),
        _r("8", "ósemek", "8", acc="ósemkę", ins="ósemką", nom="ósemka"),
        _r("9", "dziewiątek", "9", acc="dziewiątkę", ins="dziewiątką", nom="dziewiątka"),
        _r("10", "dziesiątek", "10", acc="dziesiątkę", ins="dziesiątką", nom="dziesiątka"),
        _r("Walet", "waletów", "W", acc="waleta", ins="waletem"),
        _r("Dama", "dam", "D", f=True, acc="damę", ins="damą"),
        _r("Król", "króli", "K", acc="króla", ins="królem"),
        _r("As", "asów", "A", acc="asa", ins="asem"),
    ),
    ("pl", "spanish"): (
        _r("4", "czwórek", "4", acc="czwórkę", ins="czwórką", nom="czwórka"),
        _r("5", "piątek", "5", acc="piątkę", ins="piątką", nom="piątka"),
        _r("6", "szóstek", "6", acc="szóstkę", ins="szóstką", nom="szóstka"),
        _r("7", "siódemek", "7", acc="siódemkę", ins="siódemką", nom="siódemka"),
        _r("Walet", "waletów", "10", acc="waleta", ins="waletem"),
        _r("Koń", "koni", "11", acc="konia", ins="koniem"),
        _r("Król", "króli", "12", acc="króla", ins="królem"),
        _r("As", "asów", "1", acc="asa", ins="asem"),
    ),
    # Seed 000: "آس البستوني", "شايب البستوني", "بنت الكبّة", "ولد الكبّة", "9 الكارو".
    ("ar", "french"): (
        _r("7", "السبعات", "7"),
        _r("8", "الثمانيات", "8"),
        _r("9", "التسعات", "9"),
        _r("10", "العشرات", "10"),
        _r("ولد", "الأولاد", "J"),
        _r("بنت", "البنات", "Q", f=True),
        _r("شايب", "الشيّاب", "K"),
        _r("آس", "الآسات", "A"),
    ),
    # Seed 002: "12 الدهب", "كاري العشرات (الصوتات الأربع)", "كاري الستات", "الـ11 أو الـ12".
    ("ar", "spanish"): (
        _r("4", "الأربعات", "4"),
        _r("5", "الخمسات", "5"),
        _r("6", "الستات", "6"),
        _r("7", "السبعات", "7"),
        _r("10", "الصوتات", "10", word="صوتة"),
        _r("11", "الـ11", "11", word="كابايو"),
        _r("12", "الـ12", "12", word="ري"),
        _r("آس", "الآسات", "1"),
    ),
    # Seed 003: "हुकुम का बादशाह", "हुकुम की बेगम", "पान का गुलाम", "हुकुम का इक्का", "ईंट का 9".
    ("hi", "french"): (
        _r("7", "सत्ते", "7"),
        _r("8", "अट्ठे", "8"),
        _r("9", "नहले", "9"),
        _r("10", "दहले", "10"),
        _r("गुलाम", "गुलाम", "J"),
        _r("बेगम", "बेगमें", "Q", f=True),
        _r("बादशाह", "बादशाह", "K"),
        _r("इक्का", "इक्के", "A"),
    ),
    ("hi", "spanish"): (
        _r("4", "चौके", "4"),
        _r("5", "पंजे", "5"),
        _r("6", "छक्के", "6"),
        _r("7", "सत्ते", "7"),
        _r("10", "दहले", "10", word="प्यादा"),
        _r("11", "ग्यारह", "11", word="घुड़सवार"),
        _r("12", "बारह", "12", word="राजा"),
        _r("इक्का", "इक्के", "1"),
    ),
}

_SUITS: Final[dict[tuple[str, str], tuple[SuitWords, ...]]] = {
    ("fr", "french"): (
        SuitWords("pique", du="du pique", of="de pique"),
        SuitWords("cœur", du="du cœur", of="de cœur"),
        SuitWords("carreau", du="du carreau", of="de carreau"),
        SuitWords("trèfle", du="du trèfle", of="de trèfle"),
    ),
    # The French names of the Spanish suits, all four in the plural as the tarot de Marseille
    # names them: épées, coupes, deniers, bâtons ("as de deniers", "valet d’épées").
    ("fr", "spanish"): (
        SuitWords("épées", du="des épées", of="d’épées"),
        SuitWords("coupes", du="des coupes", of="de coupes"),
        SuitWords("deniers", du="des deniers", of="de deniers"),
        SuitWords("bâtons", du="des bâtons", of="de bâtons"),
    ),
    ("en", "french"): (
        SuitWords("spades"),
        SuitWords("hearts"),
        SuitWords("diamonds"),
        SuitWords("clubs"),
    ),
    ("en", "spanish"): (
        SuitWords("swords"),
        SuitWords("cups"),
        SuitWords("coins"),
        SuitWords("clubs"),
    ),
    ("es", "french"): (
        SuitWords("picas", of="de picas"),
        SuitWords("corazones", of="de corazones"),
        SuitWords("diamantes", of="de diamantes"),
        SuitWords("tréboles", of="de tréboles"),
    ),
    ("es", "spanish"): (
        SuitWords("espadas", of="de espadas"),
        SuitWords("copas", of="de copas"),
        SuitWords("oros", of="de oros"),
        SuitWords("bastos", of="de bastos"),
    ),
    ("pl", "french"): (
        SuitWords("pik"),
        SuitWords("kier"),
        SuitWords("karo"),
        SuitWords("trefl"),
    ),
    # The Spanish suits by their Polish names; after a rank, in the genitive plural
    # ("Koń pałek", "As monet"), as the French suits' names are used uninflected ("Król pik").
    ("pl", "spanish"): (
        SuitWords("miecze", of="mieczy"),
        SuitWords("kielichy", of="kielichów"),
        SuitWords("monety", of="monet"),
        SuitWords("pałki", of="pałek"),
    ),
    ("ar", "french"): (
        SuitWords("البستوني", bare="بستوني"),
        SuitWords("الكبّة", bare="كبّة"),
        SuitWords("الكارو", bare="كارو"),
        SuitWords("السباتي", bare="سباتي"),
    ),
    # Seed 002 calls oros "دهب" ("سويفي 10-11-12 دهب"); the other three by their meaning.
    ("ar", "spanish"): (
        SuitWords("السيوف", bare="سيوف"),
        SuitWords("الكؤوس", bare="كؤوس"),
        SuitWords("الدهب", bare="دهب"),
        SuitWords("العصي", bare="عصي"),
    ),
    ("hi", "french"): (
        SuitWords("हुकुम"),
        SuitWords("पान"),
        SuitWords("ईंट"),
        SuitWords("चिड़ी"),
    ),
    # The Spanish suits by their meaning, as a Hindi reader decodes them without the pictures:
    # swords, cups, coins, clubs ("सिक्के का इक्का": the oblique of सिक्का is सिक्के).
    ("hi", "spanish"): (
        SuitWords("तलवार"),
        SuitWords("प्याले"),
        SuitWords("सिक्के"),
        SuitWords("डंडे"),
    ),
}

FRENCH_SYMBOLS: Final = ("♠", "♥", "♦", "♣")

_SEATS: Final[dict[str, tuple[str, str, str, str]]] = {
    "fr": ("Nord", "Est", "Sud", "Ouest"),
    "en": ("North", "East", "South", "West"),
    "es": ("Norte", "Este", "Sur", "Oeste"),
    "pl": ("Północ", "Wschód", "Południe", "Zachód"),
    "ar": ("الشمال", "الشرق", "الجنوب", "الغرب"),
    "hi": ("उत्तर", "पूर्व", "दक्षिण", "पश्चिम"),
}
# Seed 001: "Ręka Północy", "Ręka Południa": the genitive, for "the hand of …".
_SEATS_GENITIVE_PL: Final = ("Północy", "Wschodu", "Południa", "Zachodu")
_TEAM_JOIN: Final = {"fr": "–", "en": "–", "es": "–", "pl": "–", "ar": "–", "hi": "–"}


def _check(lang: str, deck: str) -> None:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: expected one of {', '.join(LANGUAGES)}")
    if deck not in DECK_KEYS:
        raise ValueError(f"unknown deck {deck!r}: expected french or spanish")


def rank_words(rank: int, lang: str, deck: str = "french") -> RankWords:
    """All the words of a rank (0–7 in sequence order, the engine's :class:`Rank`)."""
    _check(lang, deck)
    return _RANKS[lang, deck][int(rank)]


def suit_words(suit: int, lang: str, deck: str = "french") -> SuitWords:
    """All the words of a suit (0–3: S H D C, the engine's :class:`Suit`)."""
    _check(lang, deck)
    return _SUITS[lang, deck][int(suit)]


def rank_name(rank: int, lang: str, deck: str = "french", *, form: RankForm = "name") -> str:
    """A rank's name: "valet", "Walet", "ولد", "गुलाम"; ``plural`` as in a carré of them.

    >>> rank_name(4, "en"), rank_name(5, "en", "spanish"), rank_name(4, "pl", form="plural")
    ('jack', 'knight', 'waletów')
    """
    words = rank_words(rank, lang, deck)
    if form == "plural_de" and lang == "fr":
        return ("d’" if words.plural[0] in "aeiou" else "de ") + words.plural
    if form == "the":
        return _rank_with_article(lang, words)
    if form == "acc":
        return words.acc or words.name
    if form == "name" and lang == "pl":
        return words.name.lower()  # in a sentence: "walet, dama, król i as"
    return words.name if form in ("name", "acc") else words.plural


def _rank_with_article(lang: str, words: RankWords) -> str:
    """A rank with the definite article, and the players' word beside a printed number."""
    name = words.name
    if lang == "ar":
        name = ("الـ" + name) if name[0].isdigit() else "ال" + name
    elif lang in ("fr", "es", "en"):
        name = _with_article(lang, words, name)
    elif lang == "pl":
        name = words.nom or name.lower()  # in a sentence: "król", "siódemka"
    return f"{name} ({words.word})" if words.word else name


def rank_prose(rank: int, lang: str, deck: str = "french") -> str:
    """A rank written in a row of ranks in prose ("J 9 A 10", "9-10-J"): its printed index
    where that is a number; otherwise, in Arabic and Hindi, its name, so that their prose
    has no Latin letters outside the cards' faces.

    >>> rank_prose(4, "en"), rank_prose(4, "ar"), rank_prose(6, "hi"), rank_prose(2, "hi")
    ('J', 'ولد', 'बादशाह', '9')
    """
    words = rank_words(rank, lang, deck)
    if lang in ("ar", "hi") and not words.label.isdigit():
        return words.name
    return words.label


def rank_forms(rank: int, lang: str, deck: str = "french") -> dict[str, str]:
    """Every form of a rank's name, keyed by the suffix of its placeholder (``{rank_plural}``).

    >>> rank_forms(7, "fr")["_plural_de"], rank_forms(4, "fr")["_plural_de"]
    ('d’as', 'de valets')
    """
    return {
        ("" if form == "name" else "_" + form): rank_name(rank, lang, deck, form=form)
        for form in RANK_FORMS
    }


def suit_name(suit: int, lang: str, deck: str = "french", *, form: SuitForm = "name") -> str:
    """A suit's name: "cœur", "kier", "الكبّة", "पान", "copas".

    >>> suit_name(1, "ar"), suit_name(1, "ar", form="bare"), suit_name(2, "es", "spanish")
    ('الكبّة', 'كبّة', 'oros')
    """
    return suit_words(suit, lang, deck).form(form)


def _with_article(lang: str, words: RankWords, text: str) -> str:
    """A card's name with the definite article: French, Spanish and English."""
    if lang == "fr":
        if words.name[0] in "aeiouh" and words.name != "huit":
            return "l’" + text  # l’as: elision (not before the aspirated h of "huit")
        return ("la " if words.feminine else "le ") + text
    if lang == "es":
        return ("la " if words.feminine else "el ") + text
    if lang == "en":
        return "the " + text
    return text


def card_name(card: Card, lang: str, deck: str = "french", *, form: CardForm = "name") -> str:
    """A card's full name in a language, for labels and sentences (see the module's doc).

    >>> card_name(12, "en"), card_name(12, "en", form="the"), card_name(12, "es", "spanish")
    ('jack of hearts', 'the jack of hearts', 'sota de copas')
    >>> card_name(29, "es", form="the"), card_name(13, "fr", form="the")
    ('la reina de tréboles', 'la dame de cœur')
    """
    rank, suit = card & 7, card >> 3
    words = rank_words(rank, lang, deck)
    suit_w = suit_words(suit, lang, deck)
    if lang in ("fr", "es"):
        text = f"{words.name} {suit_w.of}"
        return _with_article(lang, words, text) if form not in ("name", "nom") else text
    if lang == "en":
        text = f"{words.name} of {suit_w.name}"
        return _with_article(lang, words, text) if form not in ("name", "nom") else text
    if lang == "pl":
        suit_text = suit_w.form("of")
        if form == "nom":
            return f"{words.nom or words.name.lower()} {suit_text}"
        if form == "acc":
            return f"{words.acc} {suit_text}"
        if form == "gen":
            return f"{words.gen} {suit_text}"
        if form == "ins":
            return f"{words.ins} {suit_text}"
        return f"{words.name} {suit_text}"
    if lang == "ar":
        return f"{words.name} {suit_w.name}"
    # Hindi: the suit, then का (की before a feminine rank; के in the oblique), then the rank.
    # In the oblique a masculine rank in -ā takes -e as well: "चिड़ी के इक्के से" (seed 003).
    joiner = "की" if words.feminine else "के" if form == "obl" else "का"
    rank_text = words.name
    if form == "obl" and not words.feminine and rank_text.endswith("ा"):
        rank_text = rank_text[:-1] + "े"
    return f"{suit_w.name} {joiner} {rank_text}"


def card_forms(card: Card, lang: str, deck: str = "french") -> dict[str, str]:
    """Every form of a card's name, keyed ``""`` (the name), ``_the``, ``_acc``, ``_gen``,
    ``_ins``, ``_obl``, ``_nom``: the suffixes a sentence template adds to a placeholder
    (``{card_the}``).

    >>> card_forms(13, "pl")["_gen"], card_forms(13, "fr")["_the"], card_forms(7, "es")["_the"]
    ('damy kier', 'la dame de cœur', 'el as de picas')
    """
    return {
        ("" if form == "name" else "_" + form): card_name(card, lang, deck, form=form)
        for form in CARD_FORMS
    }


def suit_forms(suit: int, lang: str, deck: str = "french") -> dict[str, str]:
    """Every form of a suit's name, keyed by the suffix of its placeholder (``{suit_du}``)."""
    return {
        ("" if form == "name" else "_" + form): suit_name(suit, lang, deck, form=form)
        for form in SUIT_FORMS
    }


def card_short(card: Card, lang: str, deck: str = "french") -> str:
    """The short label of a card: French deck, the corner index and the symbol ("V♥",
    "J♥", "W♥"); Spanish deck, the printed number and the suit ("12 oros", "12 دهب").

    >>> card_short(12, "fr"), card_short(12, "pl"), card_short(12, "ar", "spanish")
    ('V♥', 'W♥', '10 كؤوس')
    """
    rank, suit = card & 7, card >> 3
    label = rank_words(rank, lang, deck).label
    if deck == "french":
        return label + FRENCH_SYMBOLS[suit]
    return f"{label} {suit_name(suit, lang, deck, form='bare')}"


def seat_name(seat: Seat | int, lang: str, *, genitive: bool = False) -> str:
    """A seat's name: "Nord", "Północ", "الشمال", "उत्तर"; ``genitive``: Polish "Północy"
    (seed 001, "Ręka Północy"), the plain name in the other languages."""
    _check(lang, "french")
    if genitive and lang == "pl":
        return _SEATS_GENITIVE_PL[int(seat)]
    return _SEATS[lang][int(seat)]


def seat_forms(seat: Seat | int, lang: str) -> dict[str, str]:
    """A seat's name for templates: ``""``, ``_gen`` (Polish genitive) and ``_de`` (French,
    with its "de": "de Nord", "d’Est"; the plain name elsewhere)."""
    name = seat_name(seat, lang)
    de = name
    if lang == "fr":
        de = ("d’" if name[0] in "AEIOU" else "de ") + name
    return {"": name, "_gen": seat_name(seat, lang, genitive=True), "_de": de}


def team_name(team: Team | int, lang: str) -> str:
    """A partnership's name: "Nord–Sud", "الشمال–الجنوب" (docs/rules.md 2: N–S and E–W)."""
    first, second = Team(int(team)).seats
    return seat_name(first, lang) + _TEAM_JOIN[lang] + seat_name(second, lang)
