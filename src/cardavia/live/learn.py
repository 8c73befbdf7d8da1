"""Learning from the site's deals (docs/learning.md): the analysis of a finished deal and
hints during play, worded in the player's language (the training problems' pages are the
site's: :mod:`cardavia.web.problems`).

- :meth:`Learning.analysis`: the analysis of one deal of a game, only once that deal is over
  (before, it would show the hidden hands: it is refused), computed in a worker thread under
  the client's share of the computer players' work, and kept per deal (a deal over never
  changes);
- :meth:`Learning.hint`: the ``expert`` level's choice for the asking seat's decision, from its
  :class:`Observation` only (:func:`cardavia.ai.hints.hint`), with one sentence why.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any, Final

from cardavia.ai.analysis import analyse, analysis_data, deal_worth
from cardavia.ai.budget import WorkBudget
from cardavia.ai.hints import hint, hint_data
from cardavia.belote import (
    Action,
    Bid,
    Match,
    Observation,
    Play,
    Record,
    Seat,
    card_code,
)
from cardavia.belote import parse_action as parse_notation
from cardavia.live.protocol import ClientError, encode_action
from cardavia.live.table import Table
from cardavia.teach import learning
from cardavia.words import Catalogs, Wording, rules_text

ANALYSIS_CACHE: Final = 128
"""How many deals' analyses a server keeps."""

ANALYSIS_SEED: Final = 0
"""The analysis is the same for everyone who asks: its worlds are drawn from this seed."""


def action_text(action: Action, wording: Wording, deck: str, *, said: bool = False) -> str:
    """An action in words: a card's name, or a bid as a choice offered ("Take: clubs", a
    hint's, a problem's answer, the better bid) or, ``said``, as the bidding history records
    it ("Takes clubs")."""
    if isinstance(action, Play):
        return wording.card(action.card, deck, form="nom")  # Polish: "król pik", in words
    entry = encode_action(action)
    return wording.bid(
        entry["kind"],
        strain=entry.get("strain"),
        value=action.value if isinstance(action, Bid) else None,
        deck=deck,
        choice=not said,
    )


def word_analysis(data: dict[str, Any], wording: Wording, deck: str) -> dict[str, Any]:
    """The analysis data in the player's language (:func:`cardavia.teach.learning.word_analysis`)
    and each bid of the review in the words of the table."""
    worded = learning.word_analysis(data, rules_text(wording.lang, deck))
    bids = []
    for bid in data["bids"]:
        said, suggested = parse_notation(bid["action"]), parse_notation(bid["suggested"])
        bids.append(
            bid
            | {
                "action_text": action_text(said, wording, deck, said=True),
                "suggested_text": action_text(suggested, wording, deck),
            }
        )
    contracts = [
        contract | {"strain_name": wording.strain(contract["strain"], deck)}
        for contract in data["contracts"]
    ]
    return worded | {"bids": bids, "contracts": contracts}


def _analyse(match: Match, number: int) -> dict[str, Any] | None:
    """The analysis data of deal ``number`` (1 the first) of a match, ``None`` if it was not
    played (everybody passed). Blocking: a worker thread."""
    deal = match.deals[number - 1]
    if deal.contract is None:
        return None
    record = Record.from_match(match)
    data = analysis_data(analyse(record, deal=number - 1, seed=ANALYSIS_SEED))
    return data | {"worth": deal_worth(deal)}


def _hint(observation: Observation, seed: int) -> dict[str, Any]:
    given = hint(observation, seed)
    return hint_data(given) | {"action": given.action}


class Learning:
    """The analyses and hints of a server's games."""

    def __init__(
        self,
        budget: WorkBudget,
        catalogs: Catalogs,
        *,
        sealed: Callable[[str], Awaitable[bool]] | None = None,
        cache_size: int = ANALYSIS_CACHE,
    ) -> None:
        self.budget = budget
        """The one cap on each client's computer work (the decisions' own)."""
        self.catalogs = catalogs
        self.cache_size = cache_size
        self._analyses: OrderedDict[tuple[str, int], asyncio.Future[dict[str, Any] | None]] = (
            OrderedDict()
        )
        self._hints: OrderedDict[tuple[str, int, int, Seat], dict[str, Any]] = OrderedDict()
        """The last hints given, by game, deal and step: asking again costs nothing."""
        self.sealed = sealed
        """Whether a game's analysis waits (``tournament_sealed``: a deal of a tournament not
        yet closed, :meth:`cardavia.live.tournament_tables.TournamentTables.is_sealed`)."""

    async def analysis(self, table: Table, number: int | None, lang: str) -> dict[str, Any]:
        """The analysis of deal ``number`` of a game (``None``: the current deal), in
        ``lang``. :class:`ClientError` ``deal_not_over`` while that deal is being played,
        ``not_found`` for a deal that does not exist or was not played."""
        match = table.match
        if number is None:
            number = len(match.deals)
        return await self.analysis_of(
            table.game_id, match, number, lang, deck=table.deck, client=table.client
        )

    async def analysis_of(
        self, game_id: str, match: Match, number: int, lang: str, *, deck: str, client: str
    ) -> dict[str, Any]:
        """The analysis of deal ``number`` of the game ``game_id`` whose match is ``match``
        (:meth:`analysis`, for a game not open at a table: a player's history);
        ``tournament_sealed`` for a deal of a tournament not yet closed, even to its player
        (every hand shows in an analysis)."""
        if self.sealed is not None and await self.sealed(game_id):
            raise ClientError("tournament_sealed")
        if not 1 <= number <= len(match.deals):
            raise ClientError("not_found")
        if not match.deals[number - 1].is_over:
            raise ClientError("deal_not_over")
        key = (game_id, number)
        future = self._analyses.get(key)
        if future is None or (future.done() and future.exception() is not None):
            future = asyncio.get_running_loop().create_future()
            self._analyses[key] = future
            while len(self._analyses) > self.cache_size:
                self._analyses.popitem(last=False)
            try:
                async with self.budget.slot(client):
                    data = await asyncio.to_thread(_analyse, match, number)
            except BaseException as error:
                future.set_exception(error)
                future.exception()  # retrieved: another request tries again
                if self._analyses.get(key) is future:
                    del self._analyses[key]
                raise
            future.set_result(data)
        self._analyses.move_to_end(key)
        data = await asyncio.shield(future)
        if data is None:
            raise ClientError("not_found")
        wording = self.catalogs.wording(lang)
        return word_analysis(data, wording, deck) | {"deal": number, "game": game_id}

    def analysed(self) -> dict[tuple[str, int], dict[str, Any]]:
        """The analyses this process has at hand, by game and deal (the latest it computed,
        :data:`ANALYSIS_CACHE` at most), without computing any: a player's statistics count
        the analyses that exist (docs/players.md, "My statistics"). A copy, taken on the
        event loop, that a worker thread may read."""
        found = {}
        for key, future in self._analyses.items():
            if future.done() and not future.cancelled() and future.exception() is None:
                data = future.result()
                if data is not None:
                    found[key] = data
        return found

    async def hint(self, table: Table, lang: str, seat: Seat) -> dict[str, Any]:
        """The ``hint`` message: what the ``expert`` level would do now in ``seat``'s place
        (the asking player's), and why, from that
        seat's observation only; ``hint`` is ``null`` when the seat has nothing to do."""
        match = table.match
        observation = match.deal.observation(seat)
        step = len(observation.history)
        if match.deal.is_over or not observation.legal_actions:
            return {"type": "hint", "step": step, "hint": None}
        key = (table.game_id, len(match.deals), step, seat)
        data = self._hints.get(key)
        if data is None:
            seed = len(match.deals) * 1000 + step
            async with self.budget.slot(table.client):
                data = await asyncio.to_thread(_hint, observation, seed)
            self._hints[key] = data
            while len(self._hints) > self.cache_size:
                self._hints.popitem(last=False)
        action: Action = data["action"]
        wording = self.catalogs.wording(lang)
        text = rules_text(lang, table.deck)
        reason = data["reason"]
        args = dict(reason["args"])
        if reason["code"] == "partner_holds_trick":
            # The partner's card, winning the trick: what the player learns to look at.
            partner = [card for played, card in observation.trick if played == seat.partner]
            if partner:
                args["winning"] = card_code(partner[0])
        return {
            "type": "hint",
            "step": step,
            "hint": {
                "action": encode_action(action),
                "action_text": action_text(action, wording, table.deck),
                "card": data["card"],
                "reason": reason,
                "text": learning.reason_text(text, reason["code"], args),
            },
        }


__all__ = ["Learning", "action_text", "word_analysis"]
