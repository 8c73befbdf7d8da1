"""The learning API (docs/web.md, "Learning"): a finished deal's analysis, the words of the
analysis view, the training problems and the problem of the day."""

from __future__ import annotations

import asyncio
import time
from typing import Final

from fastapi import FastAPI, Request
from starlette.responses import Response

from cardavia.live.learn import Learning
from cardavia.live.protocol import ClientError
from cardavia.live.tables import TableService
from cardavia.teach.learning import THEMES, labels
from cardavia.web.http_helpers import (
    SafeJSONResponse,
    request_token,
    whole_number,
)
from cardavia.web.i18n import choose_language
from cardavia.web.problems import daily_problem, problem_data, problems_data, today
from cardavia.words import Catalogs, is_language, rules_text

DAY: Final = 86_400
"""Seconds a day: the words and the problems change with a new version only (a day's cache),
the problem of the day at midnight UTC."""


def public_cache(seconds: int) -> dict[str, str]:
    """The headers of an answer the same for everyone (in a language): cached ``seconds``,
    by browsers and proxies alike, apart for each ``Accept-Language``."""
    return {"Cache-Control": f"public, max-age={seconds}", "Vary": "Accept-Language"}


def install(app: FastAPI, service: TableService, learning: Learning, catalogs: Catalogs) -> None:
    """Add the learning API to ``app``."""

    @app.get("/api/games/{game_id}/analysis")
    async def deal_analysis(request: Request, game_id: str) -> Response:
        """The analysis of a finished deal (``?deal=N``, the current one by default): refused
        while that deal is being played."""
        asked = request.query_params.get("lang")
        table = await service.open(game_id, request_token(request))
        number_text = request.query_params.get("deal")
        number = None
        if number_text is not None:
            number = whole_number(number_text, digits=4)
            if number is None:
                raise ClientError("bad_field", {"field": "deal"})
        data = await learning.analysis(
            table, number, asked if asked and is_language(asked) else table.lang
        )
        return SafeJSONResponse(data, headers={"Cache-Control": "no-store"})

    @app.get("/api/learn/words")
    async def learning_words(request: Request) -> Response:
        """The words of the analysis view, the hint button and the shuffle check."""
        lang = choose_language(
            request.query_params.get("lang"), request.headers.get("accept-language")
        )
        text = rules_text(lang)
        data = {"lang": lang, "dir": text.direction} | labels(text)
        return SafeJSONResponse(data, headers=public_cache(DAY))

    @app.get("/api/problems")
    async def training_problems(request: Request) -> Response:
        """The training problems (``?theme=``, all by default) as each seat sees them, with
        their solutions, in ``?lang=``."""
        lang = choose_language(
            request.query_params.get("lang"), request.headers.get("accept-language")
        )
        theme = request.query_params.get("theme")
        if theme is not None and theme not in THEMES:
            raise ClientError("bad_field", {"field": "theme"})
        data = await asyncio.to_thread(problems_data, catalogs.wording(lang), theme)
        answer = {"lang": lang, "themes": list(THEMES), "problems": data}
        return SafeJSONResponse(answer, headers=public_cache(DAY))

    @app.get("/api/problems/today")
    async def problem_of_the_day(request: Request) -> Response:
        """The problem of the day (it changes at midnight UTC)."""
        lang = choose_language(
            request.query_params.get("lang"), request.headers.get("accept-language")
        )
        problem = daily_problem()
        data = await asyncio.to_thread(problem_data, problem, catalogs.wording(lang))
        until_midnight = DAY - int(time.time()) % DAY
        return SafeJSONResponse(data | {"day": today()}, headers=public_cache(until_midnight))


__all__ = ["DAY", "install", "public_cache"]
