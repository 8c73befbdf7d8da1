"""The rules pages (docs/web.md): the index, the full rules of each preset, "Which card may I
play?", announcements and scoring, the fairness page and the training problems, in the six
languages of the site; and the no-peeking tests the fairness page links to, as text.

The pages' words come from the ``rules`` gettext domain (:func:`cardavia.words.rules_text`), their
examples from :mod:`cardavia.teach.examples` (computed by the engine, checked by
:mod:`cardavia.verify`). The templates extend ``base.html``, which sets the page's language
and direction (``dir="rtl"`` for Arabic); inside, numbers, scores and card indexes are isolated
with ``<bdi>`` so that they read left to right in Arabic too. They are rendered with the site's
templates and page context (:func:`cardavia.web.pages.page_context`: the ``messages`` domain as
``_`` for ``base.html``, the language menu); the rules domain is given to them as ``rt``.
"""

from __future__ import annotations

import re
from importlib.resources import files
from typing import Any, Final

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from markupsafe import Markup, escape

from cardavia.belote import ALIASES, PRESETS
from cardavia.teach import learning, pages
from cardavia.teach.explain import preset_title
from cardavia.teach.pictures import card_svg
from cardavia.web import problems
from cardavia.web.pages import page_context
from cardavia.words import LANGUAGES, Catalogs, Wording, rules_text

NO_PEEKING_DIR: Final = "no_peeking"
"""Where the package keeps the text of the no-peeking tests it serves
(``cardavia/web/no_peeking/<name>.txt``, kept equal to ``tests/ai/<name>`` by a test)."""

# Runs of digits and the signs between them ("11 + 10 + 0 + 20 = 41", "10-11-12", "(160 + 90)
# × 2"), kept left to right inside right-to-left text.
_TOKEN: Final = r"(?:[0-9]+|(?<![A-Za-z])[A-Z](?![A-Za-z]))"
"""A number, or a rank letter standing alone (J 9 A 10 K Q 8 7)."""
_SIGN: Final = r"(?:(?<![0-9A-Za-z])[+−](?=[0-9]))?"
"""A sign glued to a number ("+27", "−34"): read with it, in front."""
_LTR_RUN: Final = re.compile(rf"\(?{_SIGN}{_TOKEN}(?:[ ()+=×→>\-–.,:]*{_TOKEN})*\)?")
_TOKEN_RE: Final = re.compile(_TOKEN)


def isolate(text: object, direction: str = "ltr") -> Markup:
    """Escape ``text``; in right-to-left pages, wrap each run of numbers and signs in
    ``<bdi dir="ltr">`` so that a sum or a sequence reads in its order.

    >>> str(isolate("11 + 10 = 21 نقطة", "rtl"))
    '<bdi dir="ltr">11 + 10 = 21</bdi> نقطة'
    >>> str(isolate("الترتيب: J 9 A 10 K Q 8 7.", "rtl"))
    'الترتيب: <bdi dir="ltr">J 9 A 10 K Q 8 7</bdi>.'
    >>> str(isolate("الإعلان (20 نقطة)", "rtl"))
    'الإعلان (<bdi dir="ltr">20</bdi> نقطة)'
    >>> str(isolate("في المتوسط −67 مقابل +116", "rtl"))
    'في المتوسط <bdi dir="ltr">−67</bdi> مقابل <bdi dir="ltr">+116</bdi>'
    >>> str(isolate("a < b", "ltr"))
    'a &lt; b'
    """
    escaped = str(escape(str(text)))
    if direction != "rtl":
        return Markup(escaped)
    return Markup(_LTR_RUN.sub(lambda m: _isolate_runs(m.group(0)), escaped))


_NEW_GROUP: Final = re.compile(r"(?<=[0-9A-Z])( +)(?=\()")
"""A bracket after a number with no sign between them opens a group of its own: in
"كاري الـ12 (100)" the 12 is a name and (100) its value, two runs in the sentence's order."""


def _isolate_runs(run: str) -> str:
    """A run of numbers and signs, split where a bracketed group follows a number without a
    sign between them, each part isolated (:func:`_isolate_run`).

    >>> _isolate_runs("12 (100)")
    '<bdi dir="ltr">12</bdi> <bdi dir="ltr">(100)</bdi>'
    """
    parts = _NEW_GROUP.split(run)
    return "".join(part if index % 2 else _isolate_run(part) for index, part in enumerate(parts))


def _isolate_run(run: str) -> str:
    """One run of numbers and signs in ``<bdi dir="ltr">``, its brackets balanced: a bracket
    whose partner lies outside the run ("(20" of "(20 نقطة)") stays outside the isolation, in
    the sentence's own direction, so that the pair still encloses what it encloses.

    >>> _isolate_run("(20")
    '(<bdi dir="ltr">20</bdi>'
    >>> _isolate_run("(160 + 90) × 2")
    '<bdi dir="ltr">(160 + 90) × 2</bdi>'
    """
    opened: list[int] = []
    unmatched: list[int] = []
    for index, char in enumerate(run):
        if char == "(":
            opened.append(index)
        elif char == ")":
            if opened:
                opened.pop()
            else:
                unmatched.append(index)
    cuts = sorted(unmatched + opened)
    pieces, start = [], 0
    for cut in [*cuts, len(run)]:
        piece = run[start:cut]
        core = piece.strip(" ")
        if _TOKEN_RE.search(core):
            lead = piece[: len(piece) - len(piece.lstrip(" "))]
            trail = piece[len(piece.rstrip(" ")) :]
            piece = f'{lead}<bdi dir="ltr">{core}</bdi>{trail}'
        pieces.append(piece + run[cut : cut + 1])
        start = cut + 1
    return "".join(pieces)


def no_peeking_source(path: str) -> str | None:
    """The text of one of the no-peeking tests (:data:`~cardavia.teach.learning.
    NO_PEEKING_TESTS`, by its path in the source tree), from the installed package; ``None``
    for any other path."""
    if path not in learning.NO_PEEKING_TESTS:
        return None
    name = path.rsplit("/", 1)[-1]
    resource = files("cardavia.web").joinpath(NO_PEEKING_DIR, name + ".txt")
    return resource.read_text(encoding="utf-8") if resource.is_file() else None


def _text(lang: str) -> Wording:
    if lang not in LANGUAGES:
        raise HTTPException(status_code=404, detail=f"unknown language {lang!r}")
    return rules_text(lang)


def install(app: FastAPI, catalogs: Catalogs, templates: Jinja2Templates) -> None:
    """Add the rules pages to ``app``, rendered with ``templates`` (the site's)."""
    templates.env.filters["isolate"] = isolate

    def render(request: Request, name: str, text: Wording, page: dict[str, Any]) -> Response:
        nav_links = [(key, text.gettext(title)) for key, title in pages.TOPIC_TITLES.items()]
        nav_links += [(key, preset_title(key, text)) for key in PRESETS]
        nav_links += [(key, text.gettext(title)) for key, title in learning.PAGE_TITLES.items()]
        context = page_context(text.lang, catalogs.wording(text.lang), templates)
        context.update(
            {
                "lang": text.lang,
                "dir": text.direction,
                "title": page["title"],
                "page": page,
                "rt": text.gettext,
                "nav_links": nav_links,
            }
        )
        return templates.TemplateResponse(request, name, context)

    @app.get("/{lang}/rules/", response_class=HTMLResponse)
    def rules_index(request: Request, lang: str) -> Response:
        """The index of the rules pages."""
        text = _text(lang)
        return render(request, "rules/index.html", text, pages.index_page(text))

    @app.get("/{lang}/rules/legal-cards", response_class=HTMLResponse)
    def rules_legal_cards(request: Request, lang: str) -> Response:
        """ "Which card may I play?": the nine worked examples of docs/rules.md 11."""
        text = _text(lang)
        return render(request, "rules/legal_cards.html", text, pages.legal_cards_page(text))

    @app.get("/{lang}/rules/announcements", response_class=HTMLResponse)
    def rules_announcements(request: Request, lang: str) -> Response:
        """Sequences, carrés, belote–rebelote, the comparison (Spanish-suited deck too)."""
        text = _text(lang)
        return render(request, "rules/announcements.html", text, pages.announcements_page(text))

    @app.get("/{lang}/rules/scoring", response_class=HTMLResponse)
    def rules_scoring(request: Request, lang: str) -> Response:
        """Worked calculations: made, failed, litige, capot, coinche."""
        text = _text(lang)
        return render(request, "rules/scoring.html", text, pages.scoring_page(text))

    @app.get("/{lang}/rules/fairness", response_class=HTMLResponse)
    def rules_fairness(request: Request, lang: str) -> Response:
        """How shuffles are made and checked, and what the computer players see."""
        text = _text(lang)
        return render(request, "rules/fairness.html", text, learning.fairness_page(text))

    @app.get("/source/tests/ai/{name}", response_class=PlainTextResponse)
    def no_peeking_tests(name: str) -> Response:
        """The text of the no-peeking tests the fairness page links to (only those files)."""
        source = no_peeking_source(f"tests/ai/{name}")
        if source is None:
            raise HTTPException(status_code=404, detail="not found")
        return PlainTextResponse(source)

    @app.get("/{lang}/rules/problems", response_class=HTMLResponse)
    def rules_problems(request: Request, lang: str) -> Response:
        """The training problems by theme, the problem of the day first, each with its
        solution and why; the player's answers are kept in the browser (``problems.js``)."""
        text = _text(lang)
        return render(request, "rules/problems.html", text, _problems_page(text, catalogs))

    @app.get("/{lang}/rules/{preset}", response_class=HTMLResponse)
    def rules_preset(request: Request, lang: str, preset: str) -> Response:
        """The full rules of a preset; an alias (``contree``) redirects to its preset's
        page."""
        text = _text(lang)
        key = preset.strip().lower()
        if key not in PRESETS:
            if key in ALIASES:
                return RedirectResponse(f"/{lang}/rules/{ALIASES[key]}", status_code=307)
            raise HTTPException(status_code=404, detail=f"unknown rules {preset!r}")
        return render(request, "rules/preset.html", text, pages.preset_page(key, text))


def _problems_page(text: Wording, catalogs: Catalogs) -> dict[str, Any]:
    lang = text.lang
    wording = catalogs.wording(lang)
    listed = problems.problems_data(wording)
    daily = problems.problem_data(problems.daily_problem(), wording)
    for problem in [daily, *listed]:
        deck = problem["view"]["deck"]
        problem["pictures"] = {
            code: Markup(card_svg(code, lang=lang, deck=deck))
            for code in {
                *problem["view"]["hand"],
                *(c["card"] for c in problem["view"]["trick"]),
                *([problem["view"]["turned"]] if problem["view"].get("turned") else []),
            }
        }
    return {
        "title": text.gettext(learning.PAGE_TITLES["problems"]),
        "labels": learning.problem_labels(text),
        "daily": daily,
        "themes": [
            {
                "key": theme,
                "title": learning.theme_title(text, theme),
                # The problem of the day is shown once, at the top.
                "problems": [p for p in listed if p["theme"] == theme and p["id"] != daily["id"]],
            }
            for theme in learning.THEMES
        ],
        "total": len(listed),
    }


__all__ = ["NO_PEEKING_DIR", "install", "isolate", "no_peeking_source"]
