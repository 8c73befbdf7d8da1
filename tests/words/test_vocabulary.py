"""One vocabulary per language, on every surface a player reads: each catalog (``messages``
and ``rules``), each template, and each page the site generates (the table and lobby, the
rooms, the rules pages, the problems, the fairness page, the analysis's words) uses the
glossary's word for each term and none of the words it forbids
(:data:`cardavia.words.glossary.GLOSSARY`). And the check is shown to work: each second word
a native reading found (issue 20), put back into a copy of its catalog or of its page, fails it.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from cardavia.belote import PRESETS
from cardavia.words import LANGUAGES, LOCALE_DIR, glossary

TEMPLATES = Path(glossary.__file__).parents[1] / "web" / "templates"

# -- reading each surface --------------------------------------------------------------------


def catalog_entries(path: Path, lang: str) -> Iterator[tuple[str, str]]:
    """Every translation of one catalog file, as (English source, translation)."""
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=lang)
    for message in catalog:
        if not message.id:
            continue
        source = message.id if isinstance(message.id, str) else " ".join(message.id)
        strings = [message.string] if isinstance(message.string, str) else message.string
        for string in strings:
            yield source, string


@cache
def _misuses(lang: str, string: str, source: str) -> list[tuple[str, str]]:
    """:func:`glossary.misuses` of one translation, kept: a copy of a catalog with one
    translation put back reads every other translation again (a hundred copies)."""
    return glossary.misuses(lang, string, source=source)


def catalog_faults(path: Path, lang: str) -> list[tuple[str, str, str]]:
    """The forbidden words of a catalog file: (term, word found, translation)."""
    return [
        (term, found, string)
        for source, string in catalog_entries(path, lang)
        for term, found in _misuses(lang, string, source)
    ]


_INLINE = re.compile(r"</?(?:bdi|strong|span|a|code|em|b|i|abbr|small)\b[^>]*>")
_TAG = re.compile(r"<[^>]+>")
_JSON = re.compile(r'<script type="application/json"[^>]*>(.*?)</script>', re.S)
_SKIP = re.compile(r"<(script|style|svg)\b.*?</\1>", re.S)


def _json_strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _json_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _json_strings(item)


def page_lines(body: str) -> list[str]:
    """What a reader reads of a page: each block's text on its own line (inline markup such
    as ``<bdi>`` joined into its sentence), and each string the page gives its scripts."""
    lines = [s for block in _JSON.findall(body) for s in _json_strings(json.loads(block))]
    text = _TAG.sub("\n", _INLINE.sub("", _SKIP.sub("\n", body)))
    lines += [line.strip() for line in html.unescape(text).splitlines() if line.strip()]
    return lines


def page_faults(lang: str, body: str) -> list[tuple[str, str, str]]:
    """The forbidden words of a generated page: (term, word found, line)."""
    return [
        (term, found, line)
        for line in page_lines(body)
        for term, found in glossary.misuses(lang, line)
    ]


def pages(lang: str) -> list[str]:
    """Every page a player of ``lang`` reads, by address."""
    rules = [f"/{lang}/rules/{name}" for name in ("", *PRESETS, "legal-cards")]
    rules += [f"/{lang}/rules/{name}" for name in ("announcements", "scoring", "fairness")]
    rules += [f"/{lang}/rules/problems"]
    return [f"/{lang}/", f"/{lang}/room/", *rules, f"/api/learn/words?lang={lang}"]


@cache
def _fetch(client: TestClient, address: str) -> str:
    response = client.get(address)
    assert response.status_code == 200, address
    if response.headers["content-type"].startswith("application/json"):
        strings = list(_json_strings(response.json()))
        return '<script type="application/json">' + json.dumps(strings) + "</script>"
    return response.text


# -- every surface, every language -----------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("domain", ["messages", "rules"])
def test_every_catalog_uses_the_glossary(lang: str, domain: str) -> None:
    assert catalog_faults(LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po", lang) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_generated_page_uses_the_glossary(client: TestClient, lang: str) -> None:
    faults = [(address, *fault) for address in pages(lang)
              for fault in page_faults(lang, _fetch(client, address))]  # fmt: skip
    assert faults == []


def template_text(path: Path) -> str:
    """What a template writes itself, outside its expressions, tags and comments."""
    source = path.read_text(encoding="utf-8")
    text = re.sub(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", " ", source, flags=re.S)
    return _TAG.sub(" ", _SKIP.sub(" ", text))  # its text, not its markup's names


TEMPLATE_FILES = sorted(TEMPLATES.rglob("*.html"))


@pytest.mark.parametrize("path", TEMPLATE_FILES, ids=lambda p: p.name)
def test_no_template_writes_a_forbidden_word(path: Path) -> None:
    text = html.unescape(template_text(path))
    assert [(lang, fault) for lang in LANGUAGES for fault in glossary.misuses(lang, text)] == []


@pytest.mark.parametrize("path", sorted((TEMPLATES / "rules").glob("*.html")), ids=lambda p: p.name)
def test_rules_templates_leave_punctuation_to_the_language(path: Path) -> None:
    """A label's colon and a list's comma differ by language (French "Solution :", Arabic
    "،"): the rules templates take them from the catalog (``rt("{label}:")``, ``rt(", ")``)."""
    source = path.read_text(encoding="utf-8")
    assert re.findall(r"\}\}[:,] |%\}[:,] |\{% endif %\}, ", source) == []


# -- each example of the issue, put back, fails the check -------------------------------------

PERFORMANCE = (
    "Each tournament deal scores your matchpoints against everyone who played it, adjusted by "
    "the strength of that field: 50 is an average player."
)
ACCESS_KEY = "This game can only be played with its access key."

# (language, domain, English source, the second word's translation as it was)
CATALOG_EXAMPLES = [
    ("ar", "rules", "Better: {card}", "الأفضل: {card}"),
    ("ar", "rules", "Verdict", "الحكم على الورقة"),
    ("ar", "rules", "Analysis of the deal", "تحليل التوزيعة"),
    ("ar", "messages", "Computer player", "لاعب آلي"),
    ("ar", "rules", "Ahead in the trick: {card} beats the cards played so far.",
     "في المقدّمة: {card} تغلب الأوراق الملعوبة حتى الآن."),
    ("ar", "rules", "In turn, pass or bid more than the last bid: 80, 90 … 160, then capot (all "
     "eight tricks), naming the trump suit. An opponent of the last bidder may coinche (double) "
     "in turn. The auction ends after three passes in a row following a bid; if nobody bids, "
     "the deal is cancelled.", "يمكن لخصم آخر مزايد أن يعلن كوانش (مضاعفة) في دوره."),
    ("es", "messages", "Computer player", "Jugador de la computadora"),
    ("es", "messages", "Pace of the computer players", "Ritmo de los jugadores de la máquina"),
    ("es", "rules", "Coinche: the bid is reached", "Coinche: se alcanza la oferta"),
    ("es", "rules", "In the simulated deals, this bid pays most.",
     "En las manos simuladas, esta apuesta es la que más paga."),
    ("es", "rules", "Analysis of the deal", "Análisis del reparto"),
    ("es", "rules", "Choose a card or a bid", "Elige una carta o una apuesta"),
    ("es", "messages", "Contract failed", "Contrato fallido"),
    ("es", "rules", "{team} keep only their belote: {formula}.",
     "{team} solo conservan su belote: {formula}."),
    ("es", "rules", "Automatic", "Automático"),
    ("es", "rules", "Said", "Hay que cantarlo"),
    ("es", "rules", "{trumper} has trumped with the {trump_card}. {seat} cannot beat it but holds "
     "trumps: they must play one of them.",
     "{trumper} ha fallado con {trump_card_the}. {seat} no puede superarlo pero tiene triunfos."),
    ("es", "messages", "Play {card}?", "¿Jugar {card}?"),
    ("es", "messages", "You may not play {card}.", "No puedes jugar {card}."),
    ("es", "rules", "{takers} need {bid} and more than the defenders: they have {points}, "
     "{defenders} {d_points}.",
     "Los que toman ({takers}) necesitan {bid} y más que los defensores."),
    ("pl", "messages", "You may not play {card}.", "Nie możesz zagrać karty {card}."),
    ("pl", "messages", "House rules", "Zasady Domowe"),
    ("pl", "messages", "Coinche (official rules)", "Coinche (zasady Oficjalne)"),
    ("pl", "rules", "If your partner has trumped and is winning the trick, you may play any card, "
     "a lower trump included.", "Możesz zagrać dowolną kartę, także niższego atuta."),
    ("pl", "rules", "A player who holds the {king} and the {queen} of trump says “belote” when "
     "playing the first of the two cards and “rebelote” with the second: 20 points. Without "
     "“belote”, they are worth nothing.", "Gracz, który ma {king_acc} i {queen_acc} atutowe."),
    ("pl", "rules", "In the simulated deals, the coinche pays most.",
     "W symulowanych rozdaniach coinche opłaca się najbardziej."),
    ("pl", "rules", "The takers lead trumps, to draw the defenders' trumps.",
     "Rozgrywający wychodzą w atut, by ściągnąć atuty obrońców."),
    ("pl", "messages", "oros", "oros"),
    ("pl", "rules", "Ahead in the trick: {card} beats the cards played so far.",
     "Na prowadzenie w lewie: {card_nom} bije dotąd zagrane karty."),
    ("pl", "rules", "{takers} need {bid} and more than the defenders: they have {points}, "
     "{defenders} {d_points}.", "Biorący ({takers}) potrzebują {bid} i więcej niż obrońcy."),
    ("hi", "rules", "Each team's total is its card points, its announcements and its belote. The "
     "contract is made when the takers' total is greater than the defenders': each team then "
     "scores its total. If it fails, the takers score nothing but their belote and the defenders "
     "score 162 and every accepted announcement, those the takers won in the comparison "
     "included.", "रक्षकों को 162 और सारी स्वीकृत घोषणाएँ, लेने वालों की तुलना में जीती घोषणाएँ भी।"),
    ("hi", "rules", "It keeps the nine of trumps guarded while the jack is still out.",
     "जब तक गुलाम बाहर है, ट्रंप का 9 सुरक्षित रहता है।"),
    ("hi", "rules", "Leads", "पहली चाल की शुरुआत"),
    ("hi", "messages", "Table", "टेबल"),
    ("hi", "rules", "Analysis of the deal", "बँटाई का विश्लेषण"),
    ("hi", "messages", "A single deal", "केवल एक बाँट"),
    ("hi", "rules", "The contract", "कॉन्ट्रैक्ट"),
    ("hi", "rules", "To the defenders", "बचाव वाले"),
    ("hi", "rules", "The takers lead trumps, to draw the defenders' trumps.",
     "ताकि बचाव वालों के ट्रंप निकल जाएँ"),
    ("hi", "messages", "Litige: a tie", "बराबरी"),
    ("hi", "rules", "In the simulated deals, this bid pays most.",
     "नकली बँटाइयों में यह बोली सबसे ज़्यादा फ़ायदा देती है।"),
    ("hi", "rules", "A player who holds the {king} and the {queen} of trump says “belote” when "
     "playing the first of the two cards and “rebelote” with the second: 20 points. Without "
     "“belote”, they are worth nothing.", "वह «बेलोट» कहता है"),
    ("fr", "messages", "You may not play {card}.", "Impossible de jouer {card}."),
    ("fr", "messages", "Play {card}?", "Jouer {card} ?"),
    ("fr", "messages", "That cannot be done now: the deal is over.",
     "Impossible pour l’instant : la donne est terminée."),
    ("fr", "rules", "On average it scores {n} point more than the next best card.",
     "En moyenne, elle rapporte {n} point de plus que la suivante."),
    ("fr", "rules", "Solution", "Solution: Prend : trèfle"),
    ("fr", "messages", "Take: {strain}", "Prend : {strain}"),
    ("fr", "messages", "Contract made", "Contrat rempli"),
    ("fr", "messages", "espadas", "valet d’épée"),
    ("fr", "messages", "You must play a higher trump. The trump to beat: {card}.",
     "Vous devez monter à l'atout. Atout à battre : {card}."),
    ("fr", "rules", "{takers} need {bid} and more than the defenders: they have {points}, "
     "{defenders} {d_points}.", "Les preneurs doivent faire {bid} et plus que les défenseurs."),
    ("en", "messages", "{team} win the match!", "{team} win the match!"),
    ("en", "rules", "{team} score nothing.", "{team} score nothing."),
    # The new pages' terms (issue 38): one word each, the game's link apart from the passkey.
    ("es", "messages", "Rating", "Puntuación"),
    ("es", "messages", "{family}: your rating, deal by deal",
     "{family}: tu valoración, mano a mano"),
    ("es", "messages", PERFORMANCE, "Cada mano de torneo puntúa tus puntos de partida."),
    ("es", "messages", PERFORMANCE, "ajustados por la fuerza de ese campo"),
    ("es", "messages", "Par", "Par"),
    ("es", "rules", "Score {team}", "Tanteo {team}"),
    ("es", "rules", "A coinche freezes the contract: nobody may bid any more. The bidder's team "
     "may only surcoinche (redouble), which ends the auction, or pass.",
     "El equipo del postor solo puede hacer surcoinche."),
    ("es", "messages", ACCESS_KEY, "Esta partida solo se puede jugar con su llave de acceso."),
    ("pl", "messages", "Ranking", "Ranking"),
    ("pl", "messages", "The ranking is shown when the tournament closes.",
     "Ranking pojawi się po zakończeniu turnieju."),
    ("pl", "messages", "My games", "Moje gry"),
    ("pl", "messages", "New game", "Nowa gra"),
    ("pl", "messages", "You have blocked nobody.", "Nikogo nie zablokowałeś."),
    ("pl", "messages", "Seed", "Wartość ziarna"),
    ("pl", "messages", "Short tournament", "Turniej krótki"),
    ("pl", "messages", ACCESS_KEY, "W tę grę można grać tylko z jej kluczem dostępu."),
    ("pl", "messages", PERFORMANCE, "z poprawką na siłę tego pola"),
    ("pl", "rules", "Worked examples", "Rozwiązane przykłady"),
    ("pl", "messages", "That cannot be done now: the deal is over.",
     "Teraz nie można tego zrobić: rozdanie się skończyło."),
    ("fr", "messages", ACCESS_KEY, "Cette partie ne peut être jouée qu’avec sa clé d’accès."),
    ("fr", "messages", PERFORMANCE, "ajustés selon la force de ce champ"),
    ("en", "messages", ACCESS_KEY, "This game can only be played with its access key."),
    ("ar", "messages", "New game", "لعبة جديدة"),
    ("ar", "messages", "Games played", "المباريات الملعوبة"),
    ("ar", "messages", "Tricks won", "اللفّات المربوحة"),
    ("ar", "messages", "Nobody is ranked in this tournament.", "لا أحد مصنَّف في هذه البطولة."),
    ("ar", "messages", "Only players who held a passkey when the tournament opened are ranked; "
     "anyone may play, unranked.", "لا يُصنَّف إلا اللاعبون الذين كان لديهم مفتاح مرور."),
    ("ar", "messages", ACCESS_KEY, "لا يمكن لعب هذه المباراة إلا بمفتاح الدخول الخاص بها."),
    ("hi", "rules", "It keeps the nine of trumps guarded while the jack is still out.",
     "गुलाम अभी बाहर है: इस पत्ते से ट्रंप का 9 अकेला नहीं पड़ता।"),
    ("hi", "messages", "Everybody plays the same deals, from the same seat, with the same computer "
     "partner and opponents; each deal is compared with everyone who played it.",
     "सब एक ही बाज़ियाँ, एक ही जगह से खेलते हैं।"),
    ("hi", "messages", "espadas", "एस्पादास"),
    ("hi", "messages", "Quick phrases", "त्वरित वाक्य"),
    ("hi", "messages", "Rounded to the nearest ten", "निकटतम दहाई तक पूर्णांकित"),
    ("hi", "messages", "I'm back", "मैं वापस आ गया हूँ"),
    ("hi", "messages", "no trump", "सैन-अटू"),
    ("hi", "messages", ACCESS_KEY, "यह खेल केवल अपनी प्रवेश कुंजी से ही खेला जा सकता है।"),
    ("hi", "messages", "Keep your name, your games and your settings with a passkey, and sign in "
     "with it on your other devices. No password.", "अपनी सेटिंग सँभालकर रखें"),
    *[(lang, "rules", "If you cannot beat the opponent's trump, house rules still make you play "
       "a lower trump; coinche with the official rules lets you play any card.",
       "If you cannot beat the opponent's trump, house rules still make you play a lower trump.")
      for lang in LANGUAGES],
    *[(lang, "rules", "numbers = blocks, read 4 bytes at a time, big-endian",
       "numbers = blocks, read 4 bytes at a time, big-endian")
      for lang in LANGUAGES if lang != "en"],
]  # fmt: skip


def _po_quote(text: str) -> str:
    """A string as a .po file writes it between quotes."""
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _set_translation(path: Path, source: str, translation: str) -> None:
    """Put ``translation`` back as the msgstr of ``source`` in a catalog file."""
    lines = path.read_text(encoding="utf-8").split("\n")
    start = lines.index(f'msgid "{_po_quote(source)}"')
    index = next(i for i in range(start, len(lines)) if lines[i].startswith("msgstr"))
    key = lines[index].split(" ", 1)[0]
    lines[index] = f'{key} "{_po_quote(translation)}"'
    path.write_text("\n".join(lines), encoding="utf-8")


@pytest.mark.parametrize(("lang", "domain", "source", "translation"), CATALOG_EXAMPLES)
def test_a_second_word_put_back_in_a_catalog_fails(
    tmp_path: Path, lang: str, domain: str, source: str, translation: str
) -> None:
    copy = tmp_path / f"{domain}.po"
    copy.write_bytes((LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po").read_bytes())
    assert catalog_faults(copy, lang) == []
    _set_translation(copy, source, translation)
    assert catalog_faults(copy, lang) != []


# (language, page, a sentence as the page showed it)
PAGE_EXAMPLES = [
    ("ar", "/ar/rules/problems",
     "<p>في المقدّمة: شايب البستوني تغلب الأوراق الملعوبة حتى الآن.</p>"),
    ("ar", "/ar/rules/problems", "<p>المزايدة حتى الآن: الشمال: تمرير, الشرق: تمرير</p>"),
    ("ar", "/ar/room/", "<p>يلعب لاعب آلي مؤقتًا</p>"),
    ("ar", "/api/learn/words?lang=ar", "<p>تحليل التوزيعة</p>"),
    ("es", "/es/", "<p>Contrato fallido</p>"),
    ("es", "/es/rules/scoring", "<p>Norte–Sur solo conservan su belote: 20.</p>"),
    ("es", "/es/room/", "<p>de momento juega la computadora</p>"),
    ("es", "/es/", "<p>¿Jugar as de picas?</p>"),
    ("pl", "/pl/rules/problems",
     "<p>Na prowadzeniu w lewie: <bdi>Król pik</bdi> bije dotąd zagrane karty.</p>"),
    ("pl", "/pl/", "<p>Nie możesz zagrać karty Walet kier.</p>"),
    ("pl", "/pl/rules/legal-cards", "<p>Dozwolone karty: Król pik i 7 pik</p>"),
    ("pl", "/pl/rules/announcements", "<p>(w talii hiszpańskiej Król i Koń)</p>"),
    ("pl", "/pl/rules/maghreb", "<p>Atut oros, Koń bastos.</p>"),
    ("pl", "/pl/rules/scoring", "<p>Biorący potrzebują 100 i więcej niż obrońcy.</p>"),
    ("hi", "/hi/", "<p>बेलोट की टेबल</p>"),
    ("hi", "/hi/rules/fairness", "<p>हर बँटाई से पहले</p>"),
    ("fr", "/fr/", "<p>Impossible de jouer as de pique.</p>"),
    ("fr", "/fr/", "<p>Jouer as de pique ?</p>"),
    ("fr", "/fr/rules/problems", "<p>Vous jouez: Ouest</p>"),
    ("fr", "/fr/rules/problems", "<p>Solution: dix de cœur</p>"),
    ("fr", "/fr/rules/scoring",
     "<p>Les preneurs doivent faire 100 et plus que les défenseurs.</p>"),
    ("fr", "/fr/rules/maghreb", "<p>le valet d’épée</p>"),
    ("en", "/en/rules/scoring", "<p>North–South win the match.</p>"),
    ("es", "/es/rules/fairness",
     "<li><code>numbers = blocks, read 4 bytes at a time, big-endian</code></li>"),
]  # fmt: skip


@pytest.mark.parametrize(("lang", "address", "shown"), PAGE_EXAMPLES)
def test_a_second_word_put_back_in_a_page_fails(
    client: TestClient, lang: str, address: str, shown: str
) -> None:
    body = _fetch(client, address)
    assert page_faults(lang, body) == []
    copy = body.replace("</main>", shown + "</main>", 1) if "</main>" in body else body + shown
    assert page_faults(lang, copy) != []


def test_a_template_writing_a_second_word_or_a_colon_fails(tmp_path: Path) -> None:
    copy = tmp_path / "problems.html"
    copy.write_text((TEMPLATES / "rules" / "problems.html").read_text(encoding="utf-8")
                    + "<p>Contrato fallido</p><p>{{ labels.you_are }}: {{ x }}</p>")  # fmt: skip
    assert [f for lang in LANGUAGES for f in glossary.misuses(lang, template_text(copy))] != []
    assert re.findall(r"\}\}[:,] ", copy.read_text(encoding="utf-8")) != []
