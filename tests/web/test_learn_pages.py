"""The fairness page and the training problems' page, in the six languages, linked from the
rules pages' navigation; no inline script or style attribute (the site's CSP)."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient
from markupsafe import escape

from cardavia.ai.problems import load_problems
from cardavia.teach import learning
from cardavia.web.problems import daily_problem
from cardavia.words import LANGUAGES, rules_text

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>")


def _no_inline_code(html: str) -> None:
    assert not INLINE_SCRIPT.search(html)
    assert ' style="' not in html
    # The one handler the CSP allows, by its hash: the settings form of base.html.
    assert not re.search(r"\son[a-z]+=(?!\"return false\")", html)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_fairness_page(reader: TestClient, lang: str) -> None:
    text = rules_text(lang)
    page = learning.fairness_page(text)
    response = reader.get(f"/{lang}/rules/fairness")
    assert response.status_code == 200
    html = response.text
    assert f'lang="{lang}"' in html
    assert f"<h1>{escape(page['title'])}</h1>" in html
    for section in page["sections"]:
        assert escape(section["title"]) in html
    assert "cardavia-deck/1" in html and "SHA-256" in html
    for link in page["links"]:
        assert f'href="{link["href"]}"' in html
        source = reader.get(link["href"])
        assert source.status_code == 200 and "def test_" in source.text
    assert reader.get("/source/tests/ai/test_solver.py").status_code == 404
    _no_inline_code(html)
    # Linked from every rules page's navigation.
    index = reader.get(f"/{lang}/rules/").text
    assert f'href="/{lang}/rules/fairness"' in index
    assert f'href="/{lang}/rules/problems"' in index
    assert not text.missing & set(learning.catalog_messages())  # type: ignore[comparison-overlap]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_problems_page(reader: TestClient, lang: str) -> None:
    text = rules_text(lang)
    response = reader.get(f"/{lang}/rules/problems")
    assert response.status_code == 200
    html = response.text
    labels = learning.problem_labels(text)
    assert escape(labels["title"]) in html and escape(labels["daily"]) in html
    for theme in learning.THEMES:
        assert f'id="theme-{theme}"' in html
        assert escape(learning.theme_title(text, theme)) in html
    problems = load_problems()
    for problem in problems:
        assert f'data-problem="{problem.id}"' in html
    daily = daily_problem()
    # The problem of the day is shown once, at the top (issue 19: not again in its theme).
    assert html.count(f'data-problem="{daily.id}"') == 1
    assert html.count("data-solution=") == len(problems)
    assert '<script type="module" src="/static/js/problems.js"></script>' in html
    assert "{value}" not in html and "{strain}" not in html
    _no_inline_code(html)
