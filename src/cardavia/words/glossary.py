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
_FR_RANKS = r"(?:as|roi|dame|valet|sept|huit|neuf|dix|quatre|cinq|six|cavalier)"
_ES_RANKS = r"(?:as|rey|reina|jota|sota|caballo|siete|ocho|nueve|diez|cuatro|cinco|seis)"
_EN_TEAMS = r"(?:North–South|East–West|\{team\}|\{winners\}|\{takers\}|\{defenders\})"
_ES_TEAMS = r"(?:Norte–Sur|Este–Oeste|\{team\}|\{winners\})"

_EVERY_TABLE = _T(
    "lower_trump_tables",
    "Cardavia",
    (r"^(?!.*Cardavia).*$",),
    where=r"house rules still make you play a lower trump",
)
"""Undertrumping is required at the Cardavia, house and Maghreb tables: the summary that says
so names the Cardavia table too (a translation without it names house rules only)."""
_ALGORITHM = _T(
    "algorithm",
    "(the page's language)",
    (r"next number below limit", r"read 4 bytes at a time", r"\bswap deck\["),
)
"""The fairness page's algorithm is written in the page's language, its names too."""

# -- the site's own terms: ratings, tournaments, leagues, rooms, accounts ---------------------
# Where a term's word in English names something else too, ``where`` holds the English that
# means this term (a placeholder such as ``{field}`` or ``{seat}`` is not the word).
_RATING = r"\b[Rr]at(?:ing|ed)\b"
_RANKING = r"\b(?:[Rr]ank(?:ing|ed)|unranked)\b"
_GAME = r"^(?!.*know the game).*\b[Gg]ames?\b"
_SEAT = r"(?<!\{)\b[Ss]eats?\b(?!\})"
_FIELD = r"\b(?:[Tt]he|that) field\b"
_PAR = r"\b[Pp]ar\b"
_ACCESS_KEY = r"\baccess key\b"
_PASSKEY = r"\b[Pp]asskeys?\b"
_DIVISION = r"\bdivision\b"
_TOURNAMENT = r"\b[Tt]ournaments?\b"
_LEAGUE = r"\b[Ll]eagues?\b"

SITE_TERMS: Final[Mapping[str, tuple[Term, ...]]] = {
    "fr": (
        _T("rating", "cote", (r"\bclassement\b",), where=_RATING),
        _T("standings", "classement", (r"\bcotes?\b",), where=_RANKING),
        _T("performance", "performance", (r"\brendement\b",)),
        _T("tournament", "tournoi", (r"\bcompétitions?\b",), where=_TOURNAMENT),
        _T("league", "ligue", (r"\bchampionnats?\b",), where=_LEAGUE),
        _T("division", "division"),
        _T("matchpoints", "points de match", (r"\bmatch-points\b",)),
        _T("par", "par"),
        # "champ" is a calque: the field is the players who played the deal.
        _T("field", "les autres joueurs", (r"\bchamps?\b",), where=_FIELD),
        _T("game", "partie", (r"\bjeux?\b",), where=_GAME),
        _T("deal", "donne"),
        _T("seat", "place", (r"\bsièges?\b",)),
        _T("guest", "invité", (r"\bvisiteurs?\b",)),
        _T("passkey", "clé d’accès"),
        # A game's access key is its link: "clé d’accès" is the passkey.
        _T("access_key", "lien d’accès", (r"\bcl[ée]s? d’accès\b",), where=_ACCESS_KEY),
    ),
    "en": (
        _T("rating", "rating"),
        _T("standings", "ranking", (r"\bstandings\b",)),
        _T("performance", "performance"),
        _T("tournament", "tournament"),
        _T("league", "league"),
        _T("division", "division"),
        _T("matchpoints", "matchpoints"),
        _T("par", "par"),
        _T("field", "field"),
        _T("game", "game"),
        _T("deal", "deal"),
        _T("seat", "seat"),
        _T("guest", "guest"),
        _T("passkey", "passkey"),
        _T("access_key", "access link", (r"\baccess key\b",), where=_ACCESS_KEY),
    ),
    "es": (
        # "Puntuación" is the score of a deal, of a match, of a tournament: never the rating.
        _T("rating", "valoración", (r"\b[Pp]untuaci(?:ón|ones)\b",), where=_RATING),
        _T("standings", "clasificación", (r"\b[Rr]anking\b",)),
        _T("performance", "rendimiento"),
        _T("tournament", "torneo"),
        _T("league", "liga"),
        _T("division", "división"),
        # Matchpoints are said as what they are: your points compared with everyone's.
        _T("matchpoints", "se comparan tus puntos", (r"\bpuntos de partida\b",)),
        # "Par" reads as "pair" or "even".
        _T("par", "resultado de referencia", (r"\b[Pp]ar\b",), where=_PAR),
        _T("field", "el resto de jugadores", (r"\bcampos?\b",), where=_FIELD),
        _T("game", "partida", (r"\b[Jj]uegos?\b",), where=_GAME),
        _T("deal_by_deal", "mano tras mano", (r"\bmano a mano\b",)),
        _T("score", "puntuación", (r"\b[Tt]anteo\b",)),
        _T("bidder", "el último en pujar, el equipo que pujó", (r"\bpostor(?:es)?\b",)),
        _T("guest", "invitado", (r"\bhuéspedes?\b",)),
        # The passkey is the "llave de acceso"; a "clave" is a password.
        _T("passkey", "llave de acceso", (r"\b[Cc]laves? de acceso\b",)),
        _T("access_key", "enlace de acceso", (r"\b[Ll]laves? de acceso\b",), where=_ACCESS_KEY),
    ),
    "pl": (
        # Chess players' "ranking" is the rating; the tournament's table is "klasyfikacja".
        _T("rating", "ranking", (r"\b[Kk]lasyfikacj\w*",), where=_RATING),
        _T("standings", "klasyfikacja", (r"\b[Rr]anking\w*",), where=_RANKING),
        _T("performance", "skuteczność"),
        _T("tournament", "turniej", (r"\bTurniej (?:krótki|dzienny|tygodniowy)\b",)),
        _T("league", "liga"),
        _T("division", "dywizja"),
        _T("matchpoints", "punkty meczowe"),
        _T("par", "par"),
        _T("field", "pozostali gracze, stawka", (r"\bpol(?:e|a|u)\b",), where=_FIELD),
        # A game is a "partia"; "gra" is the game of belote itself, and quick play's name.
        _T(
            "game",
            "partia",
            (
                r"(?<![Ss]zybka )(?<![Ss]zybkiej )(?<![Ss]zybką )"
                r"\b(?:[Gg]ry|[Gg]rę|[Gg]rze|[Gg]rą|[Gg]ier|[Gg]rach|[Gg]rami)\b",
                r"\b(?:[Nn]owa|[Tt]a|[Tt]woja|[Mm]oja|[Pp]rzegrana) gra\b",
                r"^Gra\b",
            ),
            where=_GAME,
        ),
        _T("seat", "miejsce", (r"\b[Ss]iedzeni\w*", r"\b[Kk]rzesł\w*")),
        _T("guest", "gość"),
        _T("passkey", "klucz dostępu"),
        _T("access_key", "link dostępu", (r"\bklucz\w* dostępu\b",), where=_ACCESS_KEY),
        _T("seed", "ziarno", (r"\b[Ww]artoś\w* ziarna\b",)),
        # The player may be a woman: no masculine-only past tense in the second person.
        _T("neutral_you", "twoje miejsce, przez ciebie", (r"\b\w+łeś\b", r"\b\w+łbyś\b")),
        _T("worked_examples", "Przykłady z omówieniem", (r"[Rr]ozwiązane przykłady",)),
        # "Teraz" promises later: a deal over or cancelled will not pass.
        _T(
            "not_now_over",
            "Nie można tego zrobić:",
            (r"^Teraz nie można",),
            where=r"deal (?:is over|was cancelled)",
        ),
    ),
    "ar": (
        _T("rating", "التصنيف", (r"الترتيب",), where=_RATING),
        # The standings: "ranked" is in the standings (الترتيب), never the rating's تصنيف.
        _T("standings", "الترتيب", (r"تصنيف", r"يُ?صن(?:ّ|َّ)?ف", r"مصن(?:ّ|َّ)?ف"), where=_RANKING),
        _T("performance", "الأداء"),
        _T("tournament", "البطولة", (r"مسابقة",), where=_TOURNAMENT),
        _T("league", "الدوري", (r"الرابطة",), where=_LEAGUE),
        _T("division", "الدرجة", (r"القسم", r"الفئة"), where=_DIVISION),
        _T("matchpoints", "تُقارَن نتيجتك"),
        _T("par", "المعيار"),
        _T("field", "بقية اللاعبين", (r"الحقل", r"الميدان", r"الملعب"), where=_FIELD),
        # A game is المباراة; اللعبة is belote itself ("لمن يعرف اللعبة").
        _T(
            "game",
            "المباراة",
            (r"(?:^|(?<=[\s«(]))(?:ال)?لعب(?:ة|تك|ته)(?=$|[\s،.:؛)»])", r"ألعاب"),
            where=_GAME,
        ),
        # "played" and "won" as a clause, never ملعوب or مربوح for a game, a deal or a card.
        _T("played", "التي لعبتها، التي لُعبت", (r"(?:المباريات|الجولات|البطولات) الملعوبة",)),
        _T("won", "الرابحة، التي رُبحت", (r"مربوح",)),
        _T("seat", "المقعد", (r"الكرسي",)),
        _T("guest", "الضيف", (r"الزائر",)),
        _T("passkey", "مفتاح مرور"),
        _T("access_key", "رابط الدخول", (r"مفتاح",), where=_ACCESS_KEY),
    ),
    "hi": (
        _T("rating", "रेटिंग", (r"रैंकिंग",), where=_RATING),
        _T("standings", "रैंकिंग", (r"रेटिंग",), where=_RANKING),
        _T("performance", "प्रदर्शन"),
        _T("tournament", "टूर्नामेंट", (r"प्रतियोगिता",)),
        _T("league", "लीग"),
        _T("division", "डिवीज़न", (r"प्रभाग", r"श्रेणी"), where=_DIVISION),
        _T("matchpoints", "मैचपॉइंट"),
        _T("par", "पार"),
        _T("field", "बाकी खिलाड़ी", (r"फ़ील्ड", r"मैदान"), where=_FIELD),
        _T("game", "खेल", (r"गेम",), where=_GAME),
        _T("match", "मैच"),
        # The seat is सीट, as on the room pages; जगह only in "उसकी जगह खेलता" (in its stead).
        _T("seat", "सीट", (r"जगह(?! खेल)",), where=_SEAT),
        _T("guest", "मेहमान", (r"अतिथि",)),
        _T("passkey", "पासकी", (r"कुंजी",), where=_PASSKEY),
        _T("access_key", "प्रवेश लिंक", (r"कुंजी", r"पासकी"), where=_ACCESS_KEY),
        _T("no_trump", "नो ट्रंप", (r"सैन-अटू",)),
        # The Spanish suits and ranks by their meaning, never transliterated.
        _T("spanish_deck_words", "तलवार, प्याले, सिक्के, डंडे", (r"एस्पादास|कोपास|ओरोस|बास्तोस|काबायो",)),
        # Everyday words, not textbook Sanskrit.
        _T(
            "everyday_words",
            "गोल किया गया, क़तार, झटपट संदेश, दिखने वाला नाम",
            (r"पूर्णांकित", r"प्रतीक्षा-सूची", r"त्वरित वाक्य", r"प्रदर्शित नाम", r"नीलामी"),
        ),
        _T("plain_words", "अलग प्रोग्राम, घटाए-बढ़ाए", (r"कार्यान्वयन", r"समायोजित")),
        # A button says nothing of the speaker's gender.
        _T("neutral_button", "खेल में लौटें", (r"आ गया हूँ", r"आ गई हूँ")),
        _T("settings", "सेटिंग्स", (r"सेटिंग(?!्स)",)),
    ),
}
"""The site's own terms in each language (the new pages: the profile, the tournaments, the
leagues, the rooms, the accounts), one word each."""

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
        # French typography's apostrophe, the same in every sentence: "l’as", "d’épée".
        _T("apostrophe", "’", (r"[A-Za-zÀ-ÿ]'[A-Za-zÀ-ÿ]",)),
        _T("not_now", "Impossible pour l’instant", (r"Impossible maintenant",)),
        # A deal over or cancelled is not a temporary obstacle.
        _T(
            "not_now_over",
            "Impossible :",
            (r"pour l’instant",),
            where=r"deal (?:is over|was cancelled)",
        ),
        _T("contract_made", "contrat réussi", (r"[Cc]ontrat rempli",)),
        # A card named at the table takes its article: "Impossible de jouer l’as de pique."
        _T("card_article", "{card_the}", (r"\b[Jj]ouer (?:\{card\}|" + _FR_RANKS + r" d)",)),
        # After a card named in the previous sentence, "cette carte", not "elle".
        _T("card_pronoun", "cette carte", (r"^En moyenne, elle\b",)),
        # The Spanish suits are all plural: épées, coupes, deniers, bâtons.
        _T(
            "spanish_suits",
            "épées, coupes, deniers, bâtons",
            (r"d’épée\b", r"\bde (?:coupe|bâton)\b"),
        ),
        # "100 et plus que les défenseurs" reads as "100 or more".
        _T("at_least", "au moins", (r"(?<!au moins )(?:\{bid\}|\b\d+) et plus que",)),
        _T("take_bid", "Prendre à", (r"\bPrend : ",)),
        # The belote is said with the first of the two cards, not "the first of the king".
        _T("belote_first", "la première des deux cartes", (r"le premier du roi",)),
        # A space before the colon, and a colon after a label ("Solution : dix de cœur").
        _T("colon", " :", (r"(?<=[A-Za-zÀ-ÿ])(?<!https)(?<!http):(?=\s)",)),
        # "L'équipe Nord–Sud gagne", never a team name as a plural subject of "gagner".
        _T("team_wins", "L'équipe {team} gagne", (r"\{team\} gagnent",)),
        _EVERY_TABLE,
        _ALGORITHM,
        *SITE_TERMS["fr"],
    ),
    "en": (
        # A team is one subject, in the singular: "North–South wins", "{team} keeps its belote".
        _T("team_singular", "{team} wins", (_EN_TEAMS + r" (?:win|keep|score|have|need)\b",)),
        _T("trick", "trick"),
        _T("tierce", "tierce"),
        _T("cinquante", "fifty"),
        _T("cent", "hundred"),
        _T("carre", "carré"),
        _T("litige", "litige"),
        _EVERY_TABLE,
        *SITE_TERMS["en"],
    ),
    "es": (
        _T("trick", "baza", (r"\blevadas?\b",)),
        # A deal is a "mano"; "reparto" is the dealing only ("Repartos limpios", the shuffle).
        _T("deal", "mano", (r"\b[Rr]epartos?\b",), where=r"(?<!Fair )\b[Dd]eals?\b"),
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
        # Spain's Spanish: ordenador, vosotros.
        _T("computer", "ordenador", (r"[Cc]omputadora", r"\b[Mm]áquina\b")),
        _T("vosotros", "vosotros", (r"\b[Uu]stedes\b",)),
        _T("bid", "puja", (r"\b[Oo]fertas?\b", r"\b[Aa]puestas?\b")),
        _T("seat", "asiento", (r"\b[Pp]uestos?\b",)),
        # "Contrato fallido" says "trumped" (fallar); a contract is "no cumplido".
        _T("contract_failed", "no cumplido", (r"[Cc]ontrato fallido", r"\b[Ff]allido\b")),
        _T(
            "team_singular",
            "{team} gana",
            (_ES_TEAMS + r" (?:solo |no )?(?:se )?(?:conservan|ganan|anotan)\b",),
        ),
        # La belote is feminine: "Automática", "Hay que cantarla".
        _T("belote_feminine", "cantarla", (r"[Cc]antarlo\b",)),
        _T("belote_automatic", "Automática", (r"^Automático$",), where=r"^Automatic$"),
        _T("card_article", "{card_the}", (r"\b[Jj]ugar (?:\{card\}|" + _ES_RANKS + r" de)",)),
        _T("at_least", "al menos", (r"(?<!al menos )(?:\{bid\}|\b\d+) y más que",)),
        # The jack (la jota) and any card to beat: "no puede superar esa carta".
        _T("beat_card", "superar esa carta", (r"no puede superarlo\b",)),
        _EVERY_TABLE,
        _ALGORITHM,
        *SITE_TERMS["es"],
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
        _T("grain", "Ziarnistość", (r"\bZiarno\b",), where=r"^Grain$"),
        # Coinching is "kontra" (the game keeps its name, coinche).
        _T(
            "coinche_act",
            "kontra",
            (r"\b[Cc]oinche\b",),
            where=r"\b(?:the|a) coinche\b(?! table| with)",
        ),
        _T("taker", "biorący", (r"\b[Rr]ozgrywając\w*",)),
        _T(
            "house_rules",
            "zasady domowe",
            (r"[Zz]asady Domowe", r"zasady Oficjalne", r"[Zz]asadami Oficjalnymi"),
        ),
        _T("lower_trump", "niższy atut", (r"także niższego atuta",)),
        _T(
            "trump_king_queen",
            "atutowego króla i atutową damę",
            (r"(?:\bdamę|\{queen_acc\}) atutowe\b",),
        ),
        # The Spanish suits by their Polish names: miecze, kielichy, monety, pałki.
        _T(
            "spanish_suits",
            "miecze, kielichy, monety, pałki",
            (r"\b(?:oros|copas|espadas|bastos)\b",),
        ),
        _T("ahead", "Na prowadzeniu", (r"^Na prowadzenie\b",)),
        # A card's name inside a sentence is declined, in lower case ("karty waleta kier",
        # "Dozwolone karty: król pik", "w talii hiszpańskiej: król i koń"), never "Walet kier".
        _T(
            "card_in_sentence",
            "walet kier",
            (r"(?<=[a-ząćęłńóśźż,:(] )(?:Walet|Dama|Król|As|Koń)\b",),
        ),
        # A card after "kartę" stays in the nominative with its capital: "kładąc kartę As
        # trefl"; the sentence declines the name instead ("asem trefl", "waleta kier").
        _T(
            "card_case",
            "{card_acc}",
            (r"\bkart[ęąy] (?:\{card\}|[A-ZĄĆĘŁŃÓŚŹŻ0-9])",),
        ),
        _T("at_least", "co najmniej", (r"(?<!co najmniej )(?:\{bid\}|\b\d+) i więcej niż",)),
        _EVERY_TABLE,
        _ALGORITHM,
        *SITE_TERMS["pl"],
    ),
    "ar": (
        # The Maghreb seed's own word (seed 002), named once in quotes on the Maghreb page.
        _T("trick", "اللفّة", (r"(?<!«ال)أكل(?:ة|ات|تين)",)),
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
        # The deal is "الجولة" everywhere (the rules', the analysis's, the rooms').
        _T("deal", "الجولة", (r"التوزيعة", r"توزيعة", r"توزيعات")),
        _T("computer", "الحاسوب", (r"(?:لاعب|لاعبون|لاعبين) آلي",)),
        # الحكم is trump: the verdict is "التقييم"; "Better" is not the "Best" verdict.
        _T("verdict", "التقييم", (r"الحكم",), where=r"^Verdict$"),
        _T("better", "كان الأفضل", (r"^الأفضل:",), where=r"^Better: "),
        # The Arabic comma between Arabic words, never the Latin one.
        _T("comma", "،", (r"[\u0621-\u064A\u064B-\u0652], ",)),
        # A card named by its rank is masculine or feminine: "ورقة {card} تغلب".
        _T(
            "card_gender",
            "ورقة {card}",
            (
                r"(?:^|[:،] )\{card\} ت",
                r"(?<!ورقة )(?:شايب|ولد|آس) [\u0621-\u064A]+ ت(?:غلب|ربح|ضيف|عطي|حقق)",
            ),
        ),
        _T("coinche_rule", "خصمَي صاحب المزايدة الأخيرة", (r"لخصم آخر مزايد",)),
        _EVERY_TABLE,
        _ALGORITHM,
        *SITE_TERMS["ar"],
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
        _T("table", "मेज़", (r"टेबल",)),
        _T(
            "deal",
            "बाज़ी",
            (r"बँटाई", r"बँटाइय", r"(?<![\u0900-\u097F])बाँट(?![\u0900-\u097F])", r"नकली"),
        ),
        _T("contract", "अनुबंध", (r"कॉन्ट्रैक्ट",)),
        _T("defenders", "रक्षक", (r"बचाव वाल[ेों]",)),
        _T("litige_word", "लितीज", (r"बराबरी",), where=r"[Ll]itige"),
        _T("quotes", "“ ”", (r"[«»]",)),
        # Sentences that said something else than they meant (issue 20).
        _T("won_in_comparison", "जो लेने वालों ने घोषणाओं की तुलना में जीती थीं", (r"लेने वालों की तुलना में",)),
        # "बाहर है" says the jack has been played: the opposite of "still out" (not played).
        _T(
            "nine_guarded",
            "ट्रंप का 9 अकेला नहीं पड़ता",
            (r"जब तक गुलाम बाहर है, ट्रंप का 9 सुरक्षित", r"गुलाम अभी बाहर"),
        ),
        _T("leads", "चाल की शुरुआत", (r"पहली चाल की शुरुआत",)),
        _EVERY_TABLE,
        _ALGORITHM,
        *SITE_TERMS["hi"],
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
