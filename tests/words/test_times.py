"""Dates and times as the reader says them (src/cardavia/words/times.py): in the page's
language and the reader's own zone, a zone from the browser refused unless it is one of the tz
database, durations in each unit's plural form, the same for a page's script as for the page."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from cardavia.words import LANGUAGES, load_catalogs
from cardavia.words.times import Times, zone_named
from cardavia.words.wording import PLURAL_SAMPLES

END = datetime(2026, 12, 7, 22, 59, tzinfo=UTC)


def times(lang: str, zone: str | None = None) -> Times:
    return Times(load_catalogs().wording(lang), zone_named(zone))


@pytest.mark.parametrize(
    "name",
    [
        None,
        "",
        "Mars/Olympus",
        "../../etc/passwd",
        "Europe/../../../etc/passwd",
        "/usr/share/zoneinfo/Europe/Paris",
        "Europe/Paris\n",
        "Europe/Paris; rm -rf /",
        "x" * 5000,
        "localtime",
        "Europe/Paris\x00",
        42,
        ["Europe/Paris"],
    ],
)
def test_a_zone_that_is_not_one_of_the_tz_database_is_no_zone(name: object) -> None:
    assert zone_named(name) is None


def test_a_moment_is_on_the_readers_clock_in_their_words() -> None:
    assert times("fr", "Europe/Paris").moment(END) == "7 décembre 2026 à 23:59"
    assert times("fr", "America/New_York").moment(END) == "7 décembre 2026 à 17:59"
    assert times("pl", "Europe/Warsaw").moment(END) == "7 grudnia 2026, godz. 23:59"
    assert times("en", "Asia/Kolkata").moment(END) == "December 8, 2026 at 4:29\u202fAM"
    assert times("ar", "Africa/Algiers").day(END) == "7 ديسمبر 2026"
    assert times("hi", "Asia/Kolkata").moment(END) == "8 दिसंबर 2026, सुबह 4:29"
    assert times("hi", "Europe/London").clock(END) == "रात 10:59"


def test_without_a_zone_the_times_are_in_utc_and_say_so_once() -> None:
    unknown = times("es", "Nowhere/Else")
    assert unknown.clock(END) == "22:59"
    assert unknown.zone_note == "Las horas se indican en UTC."
    assert times("es", "Europe/Madrid").zone_note is None


def test_the_weekday_reads_as_prose() -> None:
    assert times("es", "Europe/Madrid").weekday(END) == "lunes 7 de diciembre"
    assert times("fr", "America/Cayenne").weekday(END) == "lundi 7 décembre"
    assert times("en", "America/Los_Angeles").weekday(END) == "Monday, December 7"


def test_a_duration_takes_each_units_plural_form() -> None:
    assert times("pl").duration(2 * 3600 + 5 * 60) == "2 godz. 5 min"
    assert times("ar").duration(2 * 3600 + 5 * 60) == "ساعتان و5 دقائق"
    assert times("ar").duration(3600 + 42 * 60) == "ساعة و42 دقيقة"
    assert times("hi").duration(3600 + 60) == "1 घंटा 1 मिनट"
    assert times("en").duration(2 * 86400 + 3 * 3600 + 59) == "2 days 3 hr"


def test_a_duration_is_never_zero_before_the_moment() -> None:
    assert times("en").duration(1) == "1 min"
    assert times("en").duration(61) == "2 min"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_scripts_forms_say_what_the_page_says(lang: str) -> None:
    """A countdown the page's script goes on with reads as the page wrote it: for each unit
    and sample number, the script's form with the number put in is the page's own."""
    said = times(lang)
    forms = said.unit_forms()
    units = forms["units"]
    assert isinstance(units, dict)
    assert forms["joiner"] == (" و" if lang == "ar" else " ")
    for n in PLURAL_SAMPLES[1:]:
        for unit, size, most in (("minute", 60, 60), ("hour", 3600, 24), ("day", 86400, 1000)):
            if n < most:
                assert units[unit][str(n)].replace("{n}", str(n)) == said.duration(n * size)


SCRIPTS = Path(__file__).resolve().parents[2] / "src" / "cardavia" / "web" / "static" / "js"


def test_the_pages_scripts_say_a_day_in_the_long_form() -> None:
    """A date a page's script writes (My games, the passkeys, the players blocked) is in the
    long form the server's pages use: the medium one is all digits in Arabic (04/12/2026)."""
    styles = {
        f"{path.name}: {style}"
        for path in sorted(SCRIPTS.glob("*.js"))
        for style in re.findall(r'dateStyle: "(\w+)"', path.read_text(encoding="utf-8"))
    }
    assert styles and {style for style in styles if not style.endswith((" long", " full"))} == set()
