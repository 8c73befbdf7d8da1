"""Shared by the computer players' tests."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cardavia.belote import DealState, Observation, Seat


@pytest.fixture
def swapped_views() -> Callable[[DealState, Seat, Seat, Seat], tuple[Observation, Observation]]:
    """The observations of ``seat`` at the start of a trick of ``state``, as it is and with
    the hands of two other seats swapped (asserted identical: the seat cannot tell them
    apart). A player that does not peek decides the same on both."""

    def views(
        state: DealState, seat: Seat, first: Seat, second: Seat
    ) -> tuple[Observation, Observation]:
        assert state.contract is not None and not state.trick
        hands = list(state.hands)
        swapped = list(hands)
        swapped[first], swapped[second] = hands[second], hands[first]
        one, two = (
            DealState.from_position(
                state.rules, contract=state.contract, hands=h, tricks=state.tricks, leader=seat
            ).observation(seat)
            for h in (hands, swapped)
        )
        assert one == two
        return one, two

    return views
