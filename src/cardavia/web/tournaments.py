"""The tournaments' pages (docs/tournaments.md): what the list, a tournament's page and a
deal's comparison show (:class:`Pages`), a contract in the reader's words. Their tables,
their schedule and their pars are the game server's (:mod:`cardavia.live.tournament_tables`,
:mod:`cardavia.live.tournament_schedule`).

What a tournament deal gives away stays its player's while the tournament is open: its
shared link is refused (:meth:`~cardavia.web.history.History.shared` asks
:meth:`~cardavia.tournaments.service.Tournaments.sealed`), the others' results are shown
only once the tournament has closed, or to a player who has finished it, and the seeds only
after closing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urlencode

from cardavia.belote import card_code
from cardavia.live.shuffles import new_commitment
from cardavia.tournaments import standings
from cardavia.tournaments.service import Progress, Tournament, Tournaments
from cardavia.web.history import share_code
from cardavia.words import N_, Wording

log = logging.getLogger(__name__)

RANKING_SIZE: Final = 50
"""Lines on a page of a tournament's ranking."""


@dataclass(frozen=True, slots=True)
class Pages:
    """What the tournaments' pages show, read from the store (blocking: a worker thread)."""

    tournaments: Tournaments

    def listing(self, player_id: str | None) -> dict[str, Any]:
        """The open tournaments with the player's progress, and the ones closed lately."""
        service = self.tournaments
        opened = [self.summary(tournament, player_id) for tournament in service.open_now()]
        closed = [self.summary(tournament, None) for tournament in service.closed_lately()]
        return {"open": opened, "closed": closed, "now": service.clock()}

    def summary(self, tournament: Tournament, player_id: str | None) -> dict[str, Any]:
        """A tournament as a line of the list."""
        progress = None
        if player_id is not None:
            progress = self.tournaments.progress(tournament, player_id)
        return {"t": tournament, "progress": progress}

    def tournament(
        self, tournament: Tournament, player_id: str | None, page: int, lang: str
    ) -> dict[str, Any]:
        """A tournament's page: its deals, the player's, and the ranking when it shows."""
        progress, ranked_here = None, None
        now = self.tournaments.clock()
        if player_id is not None:
            progress = self.tournaments.progress(tournament, player_id)
            if not tournament.closed:
                ranked_here = self.tournaments.ranks(tournament, player_id)
        context: dict[str, Any] = {
            "t": tournament,
            "progress": progress,
            "ranked_here": ranked_here,
            "open": tournament.is_open(now),
            "now": now,
            "results_shown": results_shown(tournament, progress),
            "seeds": self.seeds(tournament, lang),
            "ranking": None,
            "placing": None,
            "entries": self.tournaments.store.tournaments.entries(tournament.id),
        }
        if tournament.closed:
            context["ranking"] = standings.ranking(
                self.tournaments.store, tournament.id, page=page, size=RANKING_SIZE
            )
            if player_id is not None:
                context["placing"] = standings.place_of(
                    self.tournaments.store, tournament.id, player_id, size=RANKING_SIZE
                )
        return context

    @staticmethod
    def seeds(tournament: Tournament, lang: str) -> list[dict[str, Any]]:
        """Each deal's commitment, and once closed its seed and the link that checks it."""
        found = []
        for number, committed in enumerate(tournament.commitments, start=1):
            line: dict[str, Any] = {"number": number, "hash": committed, "seed": None}
            if tournament.seeds is not None:
                seed = tournament.seeds[number - 1]
                commitment, deck = new_commitment(bytes.fromhex(seed))
                query = {
                    "seed": commitment.seed,
                    "hash": commitment.hash,
                    "deck": " ".join(card_code(card) for card in deck),
                }
                line["seed"] = seed
                line["check"] = f"/{lang}/rules/fairness?{urlencode(query)}"
            found.append(line)
        return found

    def comparison(
        self, tournament: Tournament, number: int, player_id: str | None
    ) -> dict[str, Any] | None:
        """Deal ``number`` against the field (``None``: not to be shown to this reader yet)."""
        progress = None
        if player_id is not None:
            progress = self.tournaments.progress(tournament, player_id)
        if not results_shown(tournament, progress):
            return None
        store = self.tournaments.store
        mine = None if progress is None else progress.deals[number - 1]
        field = standings.deal_field(store, tournament.id, number)
        best: list[str] = []
        if tournament.closed:
            for game_id in standings.best_results(store, tournament.id, number):
                stored = store.load(game_id)
                if stored is not None:
                    best.append(share_code(stored, 1))
        pars = store.tournaments.pars(tournament.id)
        return {
            "t": tournament,
            "number": number,
            "mine": mine,
            "field": field,
            "best": best,
            "par": pars.get(number),
        }


CONTRACT_WORDS: Final = {
    "coinche": N_("Coinche"),
    "surcoinche": N_("Surcoinche"),
    "capot": N_("Capot"),
    "generale": N_("Générale"),
}
PASSED: Final = N_("Everybody passed")
SAID: Final = N_("{bid} ({seat})")
"""A contract with its taker as the problems write it, "carreau (Ouest)": inside a sentence
("…à votre place : carreau (Ouest), écart +162"), never a second colon."""


def contract_words(code: str | None, wording: Wording, deck: str | None = None) -> str:
    """A contract of :func:`~cardavia.tournaments.deals.contract_code` in the reader's words:
    ``S 110 H coinche`` → "110 hearts (South) · Coinche"; ``pass`` → "Everybody passed"."""
    if code is None:
        return ""
    if code == "pass":
        return wording.gettext(PASSED)
    seat, *rest = code.split()
    doubled = [
        wording.gettext(CONTRACT_WORDS[word]) for word in rest if word in ("coinche", "surcoinche")
    ]
    said = [word for word in rest if word not in ("coinche", "surcoinche")]
    strain = wording.strain(said[-1], deck) if said else ""
    value = [
        wording.gettext(CONTRACT_WORDS[word]) if word in CONTRACT_WORDS else word
        for word in said[:-1]
    ]
    bid = " ".join([*value, strain])
    said_by = wording.gettext(SAID, seat=wording.seat(seat), bid=bid)
    return " · ".join([said_by, *doubled])


def results_shown(tournament: Tournament, progress: Progress | None) -> bool:
    """Whether the others' results may be shown: once the tournament has closed, or to a
    player who has finished it."""
    return tournament.closed or (progress is not None and progress.finished)


__all__ = [
    "CONTRACT_WORDS",
    "PASSED",
    "RANKING_SIZE",
    "SAID",
    "Pages",
    "contract_words",
    "results_shown",
]
