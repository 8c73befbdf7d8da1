"""Dates and times as the reader says them: in the page's language (Babel, the CLDR's
patterns) and in the reader's own time zone, never an ISO stamp and never UTC unsaid.

Every page that shows a moment calls this one module (docs/languages/README.md, "Dates and
times"). A page builds one :class:`Times` for its reader, with the zone the browser sent
(:func:`zone_named` reads it, refusing anything that is not a zone of the tz database: a
hostile or broken value is no zone at all, never an error), and asks it:

- :meth:`Times.day`: a day, ``7 décembre 2026``; :meth:`Times.weekday`, ``dimanche 7
  décembre``;
- :meth:`Times.clock`: a time of day, ``23:59`` (``11:59 PM`` in English);
- :meth:`Times.moment`: both, ``7 décembre 2026 à 23:59``;
- :meth:`Times.duration`: how long until something, ``1 h 42 min`` (the CLDR's units, each
  in its plural form: ``2 godz. 5 min``, ``ساعتان و5 دقائق``), and :meth:`Times.unit_forms`,
  the same units for a page's script that keeps a countdown going (static/js/countdown.js);
- :attr:`Times.zone_note`: what to say once on a page when the reader's zone is not known
  (``Times are in UTC.``), ``None`` when it is.

>>> from datetime import UTC, datetime
>>> from zoneinfo import ZoneInfo
>>> from cardavia.words import load_catalogs
>>> paris = Times(load_catalogs().wording("fr"), zone_named("Europe/Paris"))
>>> end = datetime(2026, 12, 7, 22, 59, tzinfo=UTC)
>>> paris.moment(end), paris.weekday(end)
('7 décembre 2026 à 23:59', 'lundi 7 décembre')
>>> paris.duration(6120), paris.zone_note is None
('1\u202fh 42\xa0min', True)
>>> Times(load_catalogs().wording("en"), zone_named("../../etc/passwd")).zone_note
'Times are in UTC.'
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from functools import cache
from typing import Final
from zoneinfo import ZoneInfo, available_timezones

from babel.dates import format_date, format_time
from babel.numbers import format_decimal
from babel.units import format_unit

from cardavia.words.filling import N_
from cardavia.words.wording import PLURAL_SAMPLES, Wording

ZONE_COOKIE: Final = "cardavia_tz"
"""The cookie that holds the reader's time zone, as the browser names it (static/js/zone.js
sets it from ``Intl.DateTimeFormat().resolvedOptions().timeZone``)."""

ZONE_NAME: Final = re.compile(r"UTC|[A-Z][A-Za-z0-9_+-]{0,30}(/[A-Za-z0-9_+-]{1,30}){1,2}")
"""The shape of a zone as a browser names it (``Europe/Paris``,
``America/Argentina/Buenos_Aires``, ``UTC``): anything else (a file of the zone directory such
as ``localtime``, a path, a legacy alias) is not even looked up."""

AT: Final = N_("{date} at {time}")
"""A day and a time of day together (``7 décembre 2026 à 23:59``)."""
IN_UTC: Final = N_("Times are in UTC.")
"""Said once on a page when the reader's zone is not known."""

UNITS: Final = (("day", 86_400), ("hour", 3_600), ("minute", 60))
"""The units of a duration, largest first, with their seconds."""
LONG_UNITS: Final = frozenset({"ar", "hi"})
"""The languages whose durations spell their units out: Arabic and Hindi readers seldom meet
the abbreviations (``1 س``, ``1 घं॰``); ``ساعة و42 دقيقة``, ``1 घंटा 42 मिनट`` read at once."""
WEEKDAY_PATTERNS: Final = {
    "fr": "EEEE d MMMM",
    "en": "EEEE, MMMM d",
    "es": "EEEE d 'de' MMMM",
    "pl": "EEEE, d MMMM",
    "ar": "EEEE، d MMMM",
    "hi": "EEEE, d MMMM",
}
"""A weekday with its date, without the year, as each language writes it in prose: the CLDR's
own skeletons abbreviate the weekday, and put a comma after it in Spanish, which prose does
not (``el domingo 7 de diciembre``)."""
CLOCK_PATTERNS: Final = {"hi": "B h:mm"}
"""A time of day where the language's own words for the part of the day read better than the
CLDR's short form: Hindi says ``सुबह 7:15``, ``रात 11:59`` (``7:15 am`` is English)."""
JOINERS: Final = {"ar": " و"}
"""Between a duration's two units (a space, but Arabic joins them with و: ``ساعتان و5 دقائق``)."""


@cache
def _zone_names() -> frozenset[str]:
    return frozenset(available_timezones())


def zone_named(name: object) -> ZoneInfo | None:
    """The time zone of the tz database called ``name`` (``Europe/Paris``); ``None`` for
    anything else: a missing value, a made-up or hostile name, text too long to be one.

    >>> zone_named("Asia/Kolkata"), zone_named("Mars/Olympus"), zone_named("../etc/passwd")
    (zoneinfo.ZoneInfo(key='Asia/Kolkata'), None, None)
    """
    if not isinstance(name, str) or ZONE_NAME.fullmatch(name) is None:
        return None
    if name not in _zone_names():
        return None
    return ZoneInfo(name)


@dataclass(frozen=True, slots=True)
class Times:
    """How one reader is told dates and times: in ``wording``'s language, in ``zone`` (the
    reader's, ``None`` when it is not known: then in UTC, said once by :attr:`zone_note`)."""

    wording: Wording
    zone: ZoneInfo | None = None

    @property
    def lang(self) -> str:
        """The page's language."""
        return self.wording.lang

    @property
    def zone_note(self) -> str | None:
        """The sentence a page says once when its times are in UTC (``None``: they are in the
        reader's own zone, which needs no saying)."""
        return None if self.zone is not None else self.wording.gettext(IN_UTC)

    def local(self, at: datetime) -> datetime:
        """``at`` on the reader's clock (a time without a zone is read as UTC, as the store
        keeps them)."""
        zone: tzinfo = self.zone if self.zone is not None else UTC
        return (at if at.tzinfo is not None else at.replace(tzinfo=UTC)).astimezone(zone)

    def day(self, at: datetime) -> str:
        """The day, in the language's long form: ``7 décembre 2026``, ``7 grudnia 2026``."""
        return format_date(self.local(at), "long", locale=self.lang)

    def weekday(self, at: datetime) -> str:
        """The day of the week and of the month: ``dimanche 7 décembre``, ``domingo 7 de
        diciembre`` (:data:`WEEKDAY_PATTERNS`)."""
        pattern = WEEKDAY_PATTERNS.get(self.lang, "EEEE d MMMM")
        return format_date(self.local(at), pattern, locale=self.lang)

    def clock(self, at: datetime) -> str:
        """The time of day, as the language reads a clock: ``23:59``, ``11:59 PM``, ``रात
        11:59`` (:data:`CLOCK_PATTERNS`)."""
        return format_time(self.local(at), CLOCK_PATTERNS.get(self.lang, "short"), locale=self.lang)

    def moment(self, at: datetime) -> str:
        """The day and the time: ``7 décembre 2026 à 23:59``, ``December 7, 2026 at 11:59 PM``."""
        return self.wording.format(AT, date=self.day(at), time=self.clock(at))

    def duration(self, seconds: float) -> str:
        """How long ``seconds`` last, to the minute above (never ``0 min`` before the moment),
        in the largest two units that are not zero: ``1 h 42 min``, ``2 j 3 h``, ``5 min``."""
        left = max(1, math.ceil(seconds / 60)) * 60
        amounts: list[tuple[str, int]] = []
        for unit, size in UNITS:
            count, left = divmod(left, size)
            if count or amounts:
                amounts.append((unit, count))
        kept = [(unit, count) for unit, count in amounts[:2] if count]
        return JOINERS.get(self.lang, " ").join(self._unit(unit, n) for unit, n in kept)

    def unit_forms(self) -> dict[str, object]:
        """The units of :meth:`duration` for a page's script: each unit's text for every
        number of :data:`~cardavia.words.wording.PLURAL_SAMPLES` with ``{n}`` for the number
        (static/js/plurals.js picks the form of a number's plural category), and the joiner."""
        units = {
            unit: {str(n): self._unit_form(unit, n) for n in PLURAL_SAMPLES} for unit, _ in UNITS
        }
        return {"units": units, "joiner": JOINERS.get(self.lang, " ")}

    def _unit(self, unit: str, count: int) -> str:
        if self.lang in LONG_UNITS:
            return format_unit(count, f"duration-{unit}", length="long", locale=self.lang)
        return format_unit(count, f"duration-{unit}", length="short", locale=self.lang)

    def _unit_form(self, unit: str, count: int) -> str:
        number = format_decimal(count, locale=self.lang)
        return self._unit(unit, count).replace(number, "{n}", 1)


__all__ = ["AT", "IN_UTC", "ZONE_COOKIE", "Times", "zone_named"]
