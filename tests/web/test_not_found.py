"""An address that is no page (issue 37, item 5): a page in the site's frame — the header, its
menu with no page marked, the language menu and the settings — saying so in the address's
language with a way on; an address in no language of ours the same in English with the six;
the API keeps its JSON errors; and the icon a browser asks for by itself is there."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from cardavia.web.pages import bare_not_found
from cardavia.words import LANGUAGES, load_catalogs


@pytest.mark.parametrize(("path", "lang"), [("/fr/nothing-here", "fr"), ("/ar/deal/ZZZZZZ", "ar")])
def test_a_missing_page_is_in_the_site_frame_with_a_way_on(
    client: TestClient, path: str, lang: str
) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("text/html")
    page = response.text
    wording = load_catalogs().wording(lang)
    assert f'<h1 id="not-found-title">{wording.page_text("not_found_title")}</h1>' in page
    assert 'class="site-header"' in page and 'id="settings-panel"' in page
    assert '<nav class="site-nav"' in page and 'aria-current="page"' not in page
    assert f'class="button-link primary" href="/{lang}/"' in page
    assert f'href="/{lang}/tournaments"' in page and f'href="/{lang}/me/games"' in page
    # Its own language's page: no list of the six in the content (the header has them).
    assert wording.page_text("choose_language") not in page


def test_an_address_in_no_language_of_ours_offers_the_six_in_the_frame(
    client: TestClient,
) -> None:
    page = client.get("/de/spiel", headers={"Accept-Language": "de"}).text
    assert '<html lang="en" dir="ltr">' in page and 'class="site-header"' in page
    content = page[page.index('<main id="main"') :]
    assert load_catalogs().wording("en").page_text("choose_language") in content
    assert re.findall(r'<li><a href="/(\w\w)/" lang=', content) == list(LANGUAGES)


def test_the_api_keeps_its_json_404(client: TestClient) -> None:
    response = client.get("/api/nothing")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_the_page_without_templates_still_says_it(client: TestClient) -> None:
    page = bare_not_found(load_catalogs().wording("pl"), "pl")
    assert '<html lang="pl"' in page and 'href="/es/"' in page


def test_the_icon_a_browser_asks_for_by_itself(client: TestClient) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/png"
    assert response.content.startswith(b"\x89PNG")
