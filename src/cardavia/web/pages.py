"""The pages' templates and what every page is given (:func:`page_context`): the language
and its direction, gettext, the language menu, the presets, the levels and the cards' names,
the reader's dates and times (:func:`reader_times`; ``times()`` in a template); and the 404
page, in the site's frame."""

from __future__ import annotations

import html
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from babel import Locale
from babel.numbers import format_percent
from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from jinja2 import (
    BytecodeCache,
    Environment,
    FileSystemLoader,
    TemplateError,
    pass_context,
    select_autoescape,
)
from jinja2.bccache import Bucket
from jinja2.runtime import Context

from cardavia.ai.levels import player_levels
from cardavia.belote import ALL_CARDS, DECKS, PRESETS, card_code
from cardavia.words import (
    DEFAULT_LANGUAGE,
    LANGUAGE_NAMES,
    LANGUAGES,
    Catalogs,
    Wording,
    card_name,
    suit_name,
    text_direction,
)
from cardavia.words.names import CardForm
from cardavia.words.times import ZONE_COOKIE, Times, zone_named

TABLE_FORMS: tuple[CardForm, ...] = ("the", "acc", "gen", "nom")
"""The forms of a card's name the table's sentences use (``{card_the}``, ``{card_gen}`` …)."""


class CompiledTemplates(BytecodeCache):
    """The templates compiled once per process, in memory: a template is compiled to Python
    the first time a site of the process renders it, and every other site made in the
    process after it (each of the tests' hundreds; a restart) finds it compiled (a page's
    first rendering cost 60 to 100 ms more than the next). Jinja keys each entry by the
    template's name and checks it against its source, so an edited template is compiled
    again."""

    def __init__(self) -> None:
        self._compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        compiled = self._compiled.get(bucket.key)
        if compiled is not None:
            bucket.bytecode_from_string(compiled)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self._compiled[bucket.key] = bucket.bytecode_to_string()


COMPILED = CompiledTemplates()
"""The process's compiled templates (:class:`CompiledTemplates`)."""


def make_templates(directory: Path, catalogs: Catalogs) -> Jinja2Templates:
    """The Jinja2 templates, with gettext installed (newstyle: ``{{ _("Hi %(name)s",
    name=n) }}``, and ``{% trans %}``) in the language of the context's ``lang``."""

    @pass_context
    def gettext(context: Context, message: str) -> str:
        return catalogs.wording(str(context.get("lang", DEFAULT_LANGUAGE))).translations.gettext(
            message
        )

    @pass_context
    def ngettext(context: Context, singular: str, plural: str, count: int) -> str:
        wording = catalogs.wording(str(context.get("lang", DEFAULT_LANGUAGE)))
        return wording.translations.ngettext(singular, plural, count)

    env = Environment(
        loader=FileSystemLoader(str(directory)),
        autoescape=select_autoescape(("html", "xml", "j2")),
        extensions=["jinja2.ext.i18n"],
        bytecode_cache=COMPILED,
    )
    env.install_gettext_callables(gettext, ngettext, newstyle=True)  # type: ignore[attr-defined]

    @pass_context
    def plural_forms(context: Context, singular: str, plural: str) -> dict[str, str]:
        """A plural message's forms for a script that fills the number in (the quick-play
        clock): :meth:`~cardavia.words.Wording.plural_forms`."""
        wording = catalogs.wording(str(context.get("lang", DEFAULT_LANGUAGE)))
        return wording.plural_forms(singular, plural)

    env.globals["plural_forms"] = plural_forms

    @pass_context
    def times(context: Context) -> Times:
        """The reader's dates and times (:func:`reader_times`): the zone of the request's
        cookie, else the one the route found kept with the player (``kept_zone``)."""
        wording = catalogs.wording(str(context.get("lang", DEFAULT_LANGUAGE)))
        request = context.get("request")
        if not isinstance(request, Request):
            return Times(wording, zone_named(context.get("kept_zone")))
        return reader_times(request, wording, context.get("kept_zone"))

    env.globals["times"] = times

    @pass_context
    def percent(context: Context, value: float) -> str:
        return percent_text(value, str(context.get("lang", DEFAULT_LANGUAGE)))

    env.filters["percent"] = percent
    return Jinja2Templates(env=env)


def reader_times(request: Request, wording: Wording, kept: object = None) -> Times:
    """How the page tells its reader a date or a time (:mod:`cardavia.words.times`): in the
    zone their browser sent (the cookie ``static/js/zone.js`` sets), else the one kept with
    their settings (``kept``, :func:`kept_zone`), else none: UTC, said once on the page. A
    value that names no zone is ignored, never an error."""
    zone = zone_named(request.cookies.get(ZONE_COOKIE))
    return Times(wording, zone if zone is not None else zone_named(kept))


def kept_zone(settings: Mapping[str, object] | None) -> object:
    """The time zone kept with a player's settings (``None``: no player)."""
    return None if settings is None else settings.get("timeZone")


def percent_text(value: float, lang: str) -> str:
    """A percentage with one decimal, as the language writes it (``50,0 %`` in French, with
    its no-break space; ``50.0%`` in English): the locale's own pattern, one decimal added.

    >>> percent_text(62.5, "fr"), percent_text(62.5, "pl"), percent_text(50, "en")
    ('62,5\xa0%', '62,5%', '50.0%')
    """
    pattern = Locale.parse(lang).percent_formats[None].pattern
    return format_percent(
        value / 100, format=pattern.replace("0%", "0.0%").replace("0\xa0%", "0.0\xa0%"), locale=lang
    )


def page_context(lang: str, wording: Wording, templates: Jinja2Templates) -> dict[str, Any]:
    """What every page's template is given: ``lang``, ``dir``, ``_``/``gettext``,
    ``ngettext``, ``languages``, ``presets``, ``levels``, and the names of the cards and
    suits in the language (both decks: screen-reader labels)."""
    env = templates.env
    presets = []
    for key, rules in PRESETS.items():
        name, description = wording.preset(key, rules.target)
        presets.append(
            {
                "key": key,
                "name": name,
                "description": description,
                "deck": rules.deck,
                "target": rules.target,
                "is_match": rules.is_match,
            }
        )
    return {
        "lang": lang,
        "dir": text_direction(lang),
        "_": env.globals["gettext"],
        "gettext": env.globals["gettext"],
        "ngettext": env.globals["ngettext"],
        "languages": [
            {
                "code": code,
                "name": LANGUAGE_NAMES[code],
                "dir": text_direction(code),
                "url": f"/{code}/",
                "current": code == lang,
            }
            for code in LANGUAGES
        ],
        "presets": presets,
        "levels": [{"key": key, "name": wording.level(key)} for key in player_levels()],
        "card_names": {
            deck: {card_code(card): card_name(card, lang, deck) for card in ALL_CARDS}
            for deck in DECKS
        },
        # The forms a sentence of the table puts a card in ("Impossible de jouer l’as de
        # pique.", "Nie możesz zagrać damy kier."), each from cardavia.words.names.card_name.
        "card_forms": {
            deck: {
                card_code(card): {
                    form: card_name(card, lang, deck, form=form) for form in TABLE_FORMS
                }
                for card in ALL_CARDS
            }
            for deck in DECKS
        },
        "suit_names": {
            deck: {code: suit_name(index, lang, deck) for index, code in enumerate("SHDC")}
            for deck in DECKS
        },
    }


FRAME_TEMPLATES = Path(__file__).parent / "templates"
"""The pages' templates, for the 404 page that a route gives without its own (the site's)."""

_frames: dict[int, tuple[Catalogs, Jinja2Templates]] = {}


def _frame(catalogs: Catalogs) -> Jinja2Templates:
    """The templates for these catalogs, made once (the 404 page is asked for with its
    catalogs only, by every route that finds no page)."""
    kept = _frames.get(id(catalogs))
    if kept is None or kept[0] is not catalogs:
        kept = (catalogs, make_templates(FRAME_TEMPLATES, catalogs))
        _frames[id(catalogs)] = kept
    return kept[1]


def not_found_page(catalogs: Catalogs, lang: str | None = None) -> HTMLResponse:
    """The 404 page in the site's frame (the header, its menu and settings), what happened
    and a way on; an address in no language of ours (``lang`` not given) is answered in
    English with a link to each language's home. Should the templates fail, the page is
    written here without them, so that it works whatever is installed."""
    code = lang or DEFAULT_LANGUAGE
    wording = catalogs.wording(code)
    title = wording.page_text("not_found_title")
    choose = wording.page_text("choose_language") if lang is None else ""
    try:
        templates = _frame(catalogs)
        context = page_context(code, wording, templates) | {
            "title": title,
            "text": wording.page_text("not_found"),
            "choose_language": choose,
            "lost": True,
        }
        body = templates.get_template("not_found.html").render(context)
    except TemplateError:
        body = bare_not_found(wording, code)
    return HTMLResponse(body, status_code=404)


def bare_not_found(wording: Wording, lang: str) -> str:
    """The 404 page without a template: a link to each language's home."""
    links = "\n".join(
        f'<li><a href="/{code}/" lang="{code}" dir="{text_direction(code)}">'
        f"{html.escape(LANGUAGE_NAMES[code])}</a></li>"
        for code in LANGUAGES
    )
    title = html.escape(wording.page_text("not_found_title"))
    return (
        f'<!doctype html>\n<html lang="{lang}" dir="{wording.direction}">\n<head>\n'
        f'<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, '
        f'initial-scale=1">\n<title>{title} · Cardavia</title>\n'
        f'<link rel="stylesheet" href="/static/css/base.css">\n</head>\n<body>\n<main>\n'
        f"<h1>{title}</h1>\n<p>{html.escape(wording.page_text('not_found'))}</p>\n"
        f"<p>{html.escape(wording.page_text('choose_language'))}</p>\n<ul>\n{links}\n</ul>\n"
        "</main>\n</body>\n</html>\n"
    )


__all__ = [
    "kept_zone",
    "make_templates",
    "not_found_page",
    "page_context",
    "percent_text",
    "reader_times",
]
