"""The page of a player's statistics (docs/players.md, "My statistics"): the figures of
:mod:`cardavia.players.statistics` per rules family over the period chosen, as the page
shows them — numbers in the reader's language, the contracts as bars and the rating's and
the performance's curves as lines, drawn by the server as SVG (the numbers beside them, the
pictures never their only form), running right to left on a right-to-left page.

Whose statistics: the one rule of :func:`cardavia.players.statistics.may_see` (the player's
own, and a friend's who agreed to show them); anyone else's is ``not_found``, as another
player's games are.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Final

from babel.numbers import format_decimal

from cardavia.live.learn import Learning
from cardavia.live.protocol import ClientError
from cardavia.players.statistics import Figures, Statistics, StatisticsRefusedError
from cardavia.store.base import now
from cardavia.store.db import GameStore
from cardavia.web.rating_chart import Chart, draw

BAR_WIDTH: Final = 400
"""The contracts' bars' box, in its own units (it scales to the page's width)."""
BAR_HEIGHT: Final = 28
BAR_GAP: Final = 12


@dataclass(frozen=True, slots=True)
class Bar:
    """One bar of the contracts' chart: how many, how many of them went the player's way,
    and where the part is drawn (from the page's start: the right in Arabic)."""

    key: str
    count: int
    part: int
    x: float
    width: float
    y: float


def bars(figures: Figures, *, rtl: bool) -> tuple[Bar, ...]:
    """The contracts taken (the part: made) and defended (the part: beaten), each a bar of
    the whole width whose filled part is its share.

    >>> from cardavia.players.statistics import Figures
    >>> [(b.x, b.width) for b in bars(Figures("classic", taken=4, taken_made=3), rtl=True)]
    [(100.0, 300.0), (400.0, 0.0)]
    """
    found = []
    for index, (key, count, part) in enumerate(
        (
            ("taken", figures.taken, figures.taken_made),
            ("defended", figures.defended, figures.defeated),
        )
    ):
        width = round(BAR_WIDTH * part / count, 1) if count else 0.0
        x = BAR_WIDTH - width if rtl else 0.0
        found.append(Bar(key, count, part, x, width, index * (BAR_HEIGHT + BAR_GAP)))
    return tuple(found)


def _decimal(value: float | None, lang: str) -> str | None:
    """A mean as the page says it: one decimal, in the language's numbers."""
    return None if value is None else format_decimal(round(value, 1), format="0.0", locale=lang)


def _curve(values: list[int], *, rtl: bool) -> Chart | None:
    return draw(values, rtl=rtl) if len(values) > 1 else None


def shown(figures: Figures, lang: str, *, rtl: bool) -> dict[str, Any]:
    """One family's statistics as the template shows them."""
    ratings = [point.value for point in figures.ratings]
    performances = [point.value for point in figures.performances]
    return {
        "family": figures.family,
        "figures": figures,
        "average_ours": _decimal(figures.average_ours, lang),
        "average_theirs": _decimal(figures.average_theirs, lang),
        "mistakes": _decimal(figures.mistakes_per_deal, lang),
        "cost": _decimal(figures.cost_per_deal, lang),
        "bars": bars(figures, rtl=rtl) if figures.taken or figures.defended else None,
        "bar_box": (BAR_WIDTH, 2 * BAR_HEIGHT + BAR_GAP, BAR_HEIGHT),
        "ratings": ratings,
        "rating_chart": _curve(ratings, rtl=rtl),
        "performances": performances,
        "performance_chart": _curve(performances, rtl=rtl),
    }


class StatisticsPages:
    """The statistics pages, read from the store and the analyses at hand."""

    def __init__(self, store: GameStore, learning: Learning) -> None:
        self.store = store
        self.learning = learning

    async def page(
        self, viewer_id: str | None, owner_id: str, *, period: str, lang: str, rtl: bool
    ) -> dict[str, Any]:
        """What the page shows of ``owner_id``'s statistics over ``period`` to ``viewer_id``:
        ``not_found`` unless they may see them; ``bad_field`` for a period not offered."""
        analysed = self.learning.analysed()
        statistics = Statistics(self.store, reviewed=lambda game, deal: analysed.get((game, deal)))
        try:
            families = await asyncio.to_thread(
                statistics.of, viewer_id, owner_id, period=period, now=now()
            )
        except StatisticsRefusedError:
            raise ClientError("not_found") from None
        except ValueError:
            raise ClientError("bad_field", {"field": "period"}) from None
        return {"families": [shown(figures, lang, rtl=rtl) for figures in families]}


__all__ = ["Bar", "StatisticsPages", "bars", "shown"]
