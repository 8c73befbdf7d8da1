"""The learning API (docs/web.md, "Learning"): a finished deal's analysis, the words of the
analysis view, the training problems and the problem of the day."""

from __future__ import annotations

import asyncio

from fastapi import FastAPI, Request
from starlette.responses import Response

from cardavia.teach.learning import THEMES, labels
from cardavia.web.http_helpers import SafeJSONResponse, error_response, request_token
from cardavia.web.i18n import choose_language
from cardavia.web.learn import Learning, daily_problem, problem_data, problems_data, today
from cardavia.web.protocol import ClientError
from cardavia.web.tables import TableService
from cardavia.words import Catalogs, is_language, rules_text


def install(app: FastAPI, service: TableService, learning: Learning, catalogs: Catalogs) -> None:
    """Add the learning API to ``app``."""

    @app.get("/api/games/{game_id}/analysis")
    async def deal_analysis(request: Request, game_id: str) -> Response:
        """The analysis of a finished deal (``?deal=N``, the current one by default): refused
        while that deal is being played."""
        asked = request.query_params.get("lang")
        lang = choose_language(asked, request.headers.get("accept-language"))
        try:
            table = await service.open(game_id, request_token(request))
            number_text = request.query_params.get("deal")
            number = None
            if number_text is not None:
                if not number_text.isdigit() or len(number_text) > 4:
                    raise ClientError("bad_field", {"field": "deal"})
                number = int(number_text)
            data = await learning.analysis(
                table, number, asked if asked and is_language(asked) else table.lang
            )
        except ClientError as error:
            return error_response(error, catalogs.wording(lang))
        return SafeJSONResponse(data, headers={"Cache-Control": "no-store"})

    @app.get("/api/learn/words")
    async def learning_words(request: Request) -> Response:
        """The words of the analysis view, the hint button and the shuffle check."""
        lang = choose_language(
            request.query_params.get("lang"), request.headers.get("accept-language")
        )
        text = rules_text(lang)
        return SafeJSONResponse({"lang": lang, "dir": text.direction} | labels(text))

    @app.get("/api/problems")
    async def training_problems(request: Request) -> Response:
        """The training problems (``?theme=``, all by default) as each seat sees them, with
        their solutions, in ``?lang=``."""
        lang = choose_language(
            request.query_params.get("lang"), request.headers.get("accept-language")
        )
        theme = request.query_params.get("theme")
        if theme is not None and theme not in THEMES:
            error = ClientError("bad_field", {"field": "theme"})
            return error_response(error, catalogs.wording(lang))
        data = await asyncio.to_thread(problems_data, catalogs.wording(lang), theme)
        return SafeJSONResponse({"lang": lang, "themes": list(THEMES), "problems": data})

    @app.get("/api/problems/today")
    async def problem_of_the_day(request: Request) -> Response:
        """The problem of the day (it changes at midnight UTC)."""
        lang = choose_language(
            request.query_params.get("lang"), request.headers.get("accept-language")
        )
        problem = daily_problem()
        data = await asyncio.to_thread(problem_data, problem, catalogs.wording(lang))
        return SafeJSONResponse(data | {"day": today()})


__all__ = ["install"]
