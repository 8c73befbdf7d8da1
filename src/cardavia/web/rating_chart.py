"""A rating's history as a chart drawn by the server (docs/players.md, "Ratings"): the
display numbers after each rated deal, as the points of an SVG line in a fixed box
(``viewBox``: it scales to any width, a phone's too), time running the way the page reads —
left to right, or right to left on a right-to-left page — and the lowest and highest
numbers as its two guide lines. The numbers themselves are the page's table beside it: the
chart is their picture, not their only form.

>>> chart = draw([1500, 1520, 1490], rtl=False)
>>> chart.low, chart.high, [point.x for point in chart.points]
(1490, 1520, [24.0, 200.0, 376.0])
>>> [point.x for point in draw([1500, 1520, 1490], rtl=True).points]
[376.0, 200.0, 24.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

WIDTH: Final = 400
"""The chart's box, in its own units (the SVG scales it to the page's width)."""
HEIGHT: Final = 180
MARGIN_X: Final = 24.0
"""Room left and right of the line (its end points' dots)."""
MARGIN_Y: Final = 28.0
"""Room above and below the line (the guide lines' numbers)."""
MIN_SPAN: Final = 40
"""The least range of numbers the chart's height shows: a flat history is drawn flat, in
the middle, not magnified."""


@dataclass(frozen=True, slots=True)
class ChartPoint:
    """One point of the line: where it is drawn, and its number."""

    x: float
    y: float
    value: int


@dataclass(frozen=True, slots=True)
class Chart:
    """What the template draws: the box, the points (oldest first), the line through them,
    the lowest and highest numbers and the height of their guide lines."""

    width: int
    height: int
    points: tuple[ChartPoint, ...]
    low: int
    high: int
    low_y: float
    high_y: float

    @property
    def line(self) -> str:
        """The ``points`` attribute of the SVG polyline."""
        return " ".join(f"{point.x:g},{point.y:g}" for point in self.points)


def draw(values: Sequence[int], *, rtl: bool) -> Chart:
    """The chart of display numbers ``values`` (oldest first); ``rtl``: time runs right to
    left."""
    low, high = (min(values), max(values)) if values else (0, 0)
    middle = (low + high) / 2
    span = max(high - low, MIN_SPAN)
    bottom, top = middle - span / 2, middle + span / 2
    inner_width = WIDTH - 2 * MARGIN_X
    inner_height = HEIGHT - 2 * MARGIN_Y

    def y_of(value: float) -> float:
        return round(MARGIN_Y + (top - value) / (top - bottom) * inner_height, 1)

    points = []
    for index, value in enumerate(values):
        share = index / (len(values) - 1) if len(values) > 1 else 0.5
        x = MARGIN_X + (1 - share if rtl else share) * inner_width
        points.append(ChartPoint(round(x, 1), y_of(value), value))
    return Chart(WIDTH, HEIGHT, tuple(points), low, high, y_of(low), y_of(high))


__all__ = ["Chart", "ChartPoint", "draw"]
