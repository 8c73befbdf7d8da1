"""The rules pages (docs/web.md): the index, the full rules of each preset, "Which card may I
play?", announcements and scoring, in the six languages of the site.

The pages' words come from the ``rules`` gettext domain (:mod:`cardavia.teach.catalog`), their
examples from :mod:`cardavia.teach.examples` (computed by the engine, checked by
:mod:`cardavia.verify`). The templates extend ``base.html``, which sets the page's language
and direction (``dir="rtl"`` for Arabic); inside, numbers, scores and card indexes are isolated
with ``<bdi>`` so that they read left to right in Arabic too.

Include it with ``app.include_router(router)``: :func:`cardavia.web.app.create_app` does. The
pages are then rendered with the app's templates (``app.state.templates``) and its page context
(:func:`cardavia.web.app.page_context`: the ``messages`` domain as ``_`` for ``base.html``, the
language menu); the rules domain is given to the templates as ``rt``. Without that app (a bare
FastAPI app with this router), :data:`templates` renders them alone.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Final

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from markupsafe import Markup, escape

from cardavia.belote import ALIASES, PRESETS
from cardavia.teach import pages
from cardavia.teach.catalog import RulesText, rules_text
from cardavia.teach.explain import preset_title
from cardavia.teach.names import LANGUAGES

TEMPLATES_DIR: Final = Path(__file__).resolve().parent / "templates"
templates = Jinja2Templates(directory=str(TEMPLATES_DIR))

# Runs of digits and the signs between them ("11 + 10 + 0 + 20 = 41", "10-11-12", "(160 + 90)
# × 2"), kept left to right inside right-to-left text.
_TOKEN: Final = r"(?:[0-9]+|(?<![A-Za-z])[A-Z](?![A-Za-z]))"
"""A number, or a rank letter standing alone (J 9 A 10 K Q 8 7)."""
_LTR_RUN: Final = re.compile(rf"\(?{_TOKEN}(?:[ ()+=×→>\-–.,:]*{_TOKEN})*\)?")


def isolate(text: object, direction: str = "ltr") -> Markup:
    """Escape ``text``; in right-to-left pages, wrap each run of numbers and signs in
    ``<bdi dir="ltr">`` so that a sum or a sequence reads in its order.

    >>> str(isolate("11 + 10 = 21 نقطة", "rtl"))
    '<bdi dir="ltr">11 + 10 = 21</bdi> نقطة'
    >>> str(isolate("الترتيب: J 9 A 10 K Q 8 7.", "rtl"))
    'الترتيب: <bdi dir="ltr">J 9 A 10 K Q 8 7</bdi>.'
    >>> str(isolate("a < b", "ltr"))
    'a &lt; b'
    """
    escaped = str(escape(str(text)))
    if direction != "rtl":
        return Markup(escaped)
    return Markup(_LTR_RUN.sub(lambda m: f'<bdi dir="ltr">{m.group(0)}</bdi>', escaped))


templates.env.filters["isolate"] = isolate

router = APIRouter()


def _text(lang: str) -> RulesText:
    if lang not in LANGUAGES:
        raise HTTPException(status_code=404, detail=f"unknown language {lang!r}")
    return rules_text(lang)


def _app_templates(request: Request, lang: str) -> tuple[Jinja2Templates, dict[str, Any]]:
    """The site's templates and page context when the router runs inside the site's app."""
    site = getattr(request.app.state, "templates", None)
    catalogs = getattr(request.app.state, "catalogs", None)
    if not isinstance(site, Jinja2Templates) or catalogs is None:
        # A bare app: base.html's own words (the ``messages`` domain) stay in English.
        return templates, {"_": _same, "gettext": _same, "ngettext": _plural}
    from cardavia.web.app import page_context  # the app imports this module: import late

    site.env.filters.setdefault("isolate", isolate)
    return site, page_context(lang, catalogs.wording(lang), site)


def _same(message: str, **_args: object) -> str:
    return message


def _plural(singular: str, plural: str, count: int, **_args: object) -> str:
    return singular if count == 1 else plural


def _render(request: Request, name: str, text: RulesText, page: dict[str, Any]) -> Response:
    nav_links = [(key, text.gettext(title)) for key, title in pages.TOPIC_TITLES.items()]
    nav_links += [(key, preset_title(key, text)) for key in PRESETS]
    site, context = _app_templates(request, text.lang)
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
    return site.TemplateResponse(request, name, context)


@router.get("/{lang}/rules/", response_class=HTMLResponse)
def rules_index(request: Request, lang: str) -> Response:
    """The index of the rules pages."""
    text = _text(lang)
    return _render(request, "rules/index.html", text, pages.index_page(text))


@router.get("/{lang}/rules/legal-cards", response_class=HTMLResponse)
def rules_legal_cards(request: Request, lang: str) -> Response:
    """ "Which card may I play?": the nine worked examples of docs/rules.md 11."""
    text = _text(lang)
    return _render(request, "rules/legal_cards.html", text, pages.legal_cards_page(text))


@router.get("/{lang}/rules/announcements", response_class=HTMLResponse)
def rules_announcements(request: Request, lang: str) -> Response:
    """Sequences, carrés, belote–rebelote, the comparison (Spanish-suited deck too)."""
    text = _text(lang)
    return _render(request, "rules/announcements.html", text, pages.announcements_page(text))


@router.get("/{lang}/rules/scoring", response_class=HTMLResponse)
def rules_scoring(request: Request, lang: str) -> Response:
    """Worked calculations: made, failed, litige, capot, coinche."""
    text = _text(lang)
    return _render(request, "rules/scoring.html", text, pages.scoring_page(text))


@router.get("/{lang}/rules/{preset}", response_class=HTMLResponse)
def rules_preset(request: Request, lang: str, preset: str) -> Response:
    """The full rules of a preset; an alias (``contree``) redirects to its preset's page."""
    text = _text(lang)
    key = preset.strip().lower()
    if key not in PRESETS:
        if key in ALIASES:
            return RedirectResponse(f"/{lang}/rules/{ALIASES[key]}", status_code=307)
        raise HTTPException(status_code=404, detail=f"unknown rules {preset!r}")
    return _render(request, "rules/preset.html", text, pages.preset_page(key, text))
