"""The one vocabulary layer: one catalog loader whatever the domain, one wording object for the
site, the rules pages and the terminal, the engine's English as the fallback."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from cardavia import terminal, web, words
from cardavia.belote import FRENCH, Reason, Seat, Strain, find_rules
from cardavia.web import i18n
from cardavia.words import (
    LANGUAGES,
    MESSAGES,
    RULES,
    CardArg,
    SeatArg,
    Wording,
    load_catalogs,
    missing_messages,
    rules_text,
    text_direction,
)

SRC = Path(words.__file__).parent.parent


@pytest.fixture(autouse=True)
def _missing_as_it_was() -> Iterator[None]:
    """The messages these tests ask for on purpose are not left in the shared ``missing``
    sets that the pages' tests read."""
    catalogs = [c for d in (MESSAGES, RULES) for c in load_catalogs(domain=d).catalogs.values()]
    before = [set(catalog.missing) for catalog in catalogs]
    yield
    for catalog, missing in zip(catalogs, before, strict=True):
        catalog.missing.intersection_update(missing)


@pytest.mark.parametrize("domain", [MESSAGES, RULES])
def test_one_loader_for_both_domains(domain: str) -> None:
    catalogs = load_catalogs(domain=domain)
    assert catalogs.domain == domain
    assert sorted(catalogs.catalogs) == sorted(LANGUAGES)
    for lang in LANGUAGES:
        catalog = catalogs.catalogs[lang]
        assert (catalog.lang, catalog.domain) == (lang, domain)
        assert catalog.ids, (lang, domain)
    assert load_catalogs(domain=domain) is catalogs  # compiled once per process


def test_the_domains_are_kept_apart() -> None:
    pl_table = load_catalogs().wording("pl")
    pl_rules = rules_text("pl")
    assert pl_rules.format("Hand of {seat}", seat=SeatArg("N")) == "Ręka Północy"
    assert pl_table.gettext("Card points") != "Card points"
    assert pl_rules.catalog.domain == RULES and pl_table.catalog.domain == MESSAGES


def test_a_missing_catalog_falls_back_to_the_engines_english(tmp_path: Path) -> None:
    catalogs = load_catalogs(tmp_path, domain=RULES)
    ar = catalogs.wording("ar")
    assert ar.format("Hand of {seat}", seat=SeatArg("N")) == "Hand of الشمال"
    assert ar.direction == "rtl"
    assert "Hand of {seat}" in ar.missing
    assert load_catalogs().wording("de").lang == "en"  # a language the site does not speak


def test_a_message_the_catalog_lacks_is_noted_and_said_in_english() -> None:
    text = rules_text("fr")
    assert text.gettext("A sentence no catalog has") == "A sentence no catalog has"
    assert "A sentence no catalog has" in missing_messages("fr")
    assert "A sentence no catalog has" not in missing_messages("es")


def test_one_wording_object_for_the_table_and_the_rules_pages() -> None:
    table = load_catalogs().wording("es", "spanish")
    rules = rules_text("es", "spanish")
    assert type(table) is type(rules) is Wording
    assert table.card("JH") == rules.card("JH") == "sota de copas"
    assert rules.with_deck("french").card("JH") == "jota de corazones"
    assert table.reason(Reason("must_follow", {"suit": "D"})) == table.reason(
        Reason("must_follow", {"suit": "D"}), "spanish"
    )
    assert rules.format("{card_the}", card=CardArg("JH")) == "la sota de copas"
    assert [table.direction, rules_text("ar").direction] == ["ltr", text_direction("ar")]


def test_placeholders_a_translation_gets_wrong_are_shown_not_raised() -> None:
    en = rules_text("en")
    assert en.format("{seat} and {nobody}", seat=SeatArg("S")) == "South and {nobody}"
    assert load_catalogs().wording("en").gettext("{a} and {b", a=1) == "{a} and {b"


def test_the_language_list_and_the_words_have_one_home() -> None:
    """Only cardavia.words defines the language list, the wording object, the catalog loader
    and the text direction: the site's i18n module keeps the negotiation alone."""
    homes: dict[str, list[str]] = {}
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.ClassDef):
                defined = [node.name]
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                defined = [t.id for t in targets if isinstance(t, ast.Name)]
            else:
                continue
            for name in defined:
                if name in ("LANGUAGES", "Wording", "load_catalogs", "text_direction"):
                    homes.setdefault(name, []).append(path.relative_to(SRC).as_posix())
    assert {name: len(paths) for name, paths in homes.items()} == dict.fromkeys(
        ("LANGUAGES", "Wording", "load_catalogs", "text_direction"), 1
    ), homes
    assert all(paths[0].startswith("words/") for paths in homes.values()), homes
    assert i18n.__all__ == [
        "LANGUAGE_COOKIE",
        "choose_language",
        "negotiate_language",
        "parse_accept_language",
        "visitor_language",
    ]


def test_the_catalogs_are_read_in_one_place() -> None:
    """Only cardavia.words.catalogs reads a .po file; nothing reads the catalogs by path."""
    readers = []
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom)
            for alias in node.names
        }
        if names & {"read_po", "write_mo", "Translations"}:
            readers.append(path.relative_to(SRC).as_posix())
    assert readers == ["words/catalogs.py"]
    assert not (Path(web.__file__).parent / "locale").exists()


def test_the_terminal_says_its_words_through_the_one_wording() -> None:
    rules = find_rules("coinche")
    wording = terminal.terminal_wording(rules)
    assert isinstance(wording, Wording) and wording.lang == "en"
    table = terminal.Table(
        Console(), wording, terminal.CardLabels(FRENCH, symbols=False), you=Seat.S, verbose=True
    )
    assert table.name(Seat.W) == "West" == wording.seat("W")
    assert table.who(Seat.S) == "You" and table.verb(Seat.N, "pass", "passes") == "North passes"
    assert table.strain(Strain.NO_TRUMP) == "no trump"
    assert table.strain(Strain.HEARTS) == "hearts"
    assert table.bid_value(250) == "capot" and table.bid_value(90) == "90"


def test_a_take_is_recorded_as_said_and_offered_as_a_choice() -> None:
    """A bidding history records a take ("West: Takes clubs"), never the button's label
    ("Take: clubs", the French infinitive "Prendre à trèfle"): issue 38."""
    catalogs = load_catalogs()
    said = {lang: catalogs.wording(lang).bid("take", strain="C") for lang in LANGUAGES}
    offered = {
        lang: catalogs.wording(lang).bid("take", strain="C", choice=True) for lang in LANGUAGES
    }
    assert said["en"] == "Takes clubs" and offered["en"] == "Take: clubs"
    assert said["fr"] == "Prend à trèfle" and offered["fr"] == "Prendre à trèfle"
    assert said["pl"] == "Biorę trefl"
    assert all(":" not in said[lang] for lang in LANGUAGES)
