"""Numbers in sentences (docs/languages/README.md): a message that counts something is a plural
message in every language ("1 secondes restantes" was one that was not), both catalogs of a
language share one plural rule (Hindi's rules pages said 0 in the plural, its table in the
singular), and the sample numbers a page's script chooses a form by cover every plural category
of every language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from cardavia.words import LANGUAGES, LOCALE_DIR, load_catalogs
from cardavia.words.wording import PLURAL_SAMPLES

DOMAINS = ("messages", "rules")
COUNTED = re.compile(
    r"\{\w+\}(?: [a-z-]+)? (?:points?|seconds?|minutes?|hours?|days?|weeks?|deals?|cards?"
    r"|tricks?|letters?|bytes?|results?|games?|players?|tournaments?)\b"
)
"""A placeholder before the thing it counts, an adjective allowed between ("{count} tournament
deals", "{target} points", "{first} cards")."""
COUNTS = frozenset({"count", "seconds", "minutes", "hours", "days"})
"""Placeholders that are a number of something by their name."""


def read(lang: str, domain: str, locale_dir: Path = LOCALE_DIR) -> Catalog:
    with (locale_dir / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as handle:
        return read_po(handle, locale=lang)


def counts_something(msgid: str) -> bool:
    """Whether an English message id has a number of something in it."""
    names = set(re.findall(r"\{(\w+)\}", msgid))
    return bool(COUNTED.search(msgid)) or bool(COUNTS & names)


def singular_counts(catalog: Catalog) -> list[str]:
    """The messages of a catalog that count something without being plural messages."""
    return [
        message.id
        for message in catalog
        if isinstance(message.id, str) and message.id and counts_something(message.id)
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_message_with_a_number_of_something_is_a_plural_message(
    lang: str, domain: str
) -> None:
    assert singular_counts(read(lang, domain)) == []


def test_a_message_that_counts_without_a_plural_fails(tmp_path: Path) -> None:
    """The check works: the clock's label as it was (issue 38) is caught."""
    copy = tmp_path / "fr" / "LC_MESSAGES"
    copy.mkdir(parents=True)
    text = (LOCALE_DIR / "fr" / "LC_MESSAGES" / "messages.po").read_text(encoding="utf-8")
    text += '\nmsgid "{seat}: {seconds} seconds left"\nmsgstr "{seat} : {seconds} secondes"\n'
    (copy / "messages.po").write_text(text, encoding="utf-8")
    assert singular_counts(read("fr", "messages", tmp_path)) == ["{seat}: {seconds} seconds left"]
    assert counts_something("Provisional for the first {count} deals.")
    assert counts_something("Your performance is the mean of your last {deals} tournament deals.")
    assert not counts_something("Deal {n}") and not counts_something("{seat} takes {strain}")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_both_catalogs_of_a_language_share_one_plural_rule(lang: str) -> None:
    rules = {read(lang, domain).plural_expr for domain in DOMAINS}
    assert len(rules) == 1, rules


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_samples_cover_every_plural_category(lang: str) -> None:
    """A page's script finds the form of any whole number among the samples' (plurals.js)."""
    rule = Locale.parse(lang).plural_form
    assert {rule(n) for n in PLURAL_SAMPLES} == {rule(n) for n in range(0, 1001)}


def test_the_clock_says_one_second_in_the_singular() -> None:
    forms = {
        lang: load_catalogs()
        .wording(lang)
        .plural_forms("{seconds} second left.", "{seconds} seconds left.")
        for lang in LANGUAGES
    }
    assert forms["fr"]["1"] == "Plus que {seconds} seconde."
    assert forms["en"]["1"] == "{seconds} second left." != forms["en"]["2"]
    assert [forms["pl"][n] for n in ("1", "3", "5")] == [
        "Została {seconds} sekunda.",
        "Zostały {seconds} sekundy.",
        "Zostało {seconds} sekund.",
    ]
    assert len({forms["ar"][n] for n in ("0", "1", "2", "3", "11", "100")}) == 5
