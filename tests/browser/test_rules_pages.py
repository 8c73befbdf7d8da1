"""The rules pages in a real browser against the real server, in the six languages: each page
loads with its language and direction, every worked example is there with its cards drawn
(SVG pictures named in the page's language) and its "verified" mark shown, the legal cards
highlighted exactly as the engine decides, nothing spills sideways on a phone (Arabic, right
to left), and a full-page screenshot of "Which card may I play?" in each language.

Each page is read in one ``evaluate`` (a snapshot of its examples) so that the whole file
stays fast: one browser, one context per language."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Browser, Page
from tests.browser.conftest import shot

from cardavia.belote.cards import CardSet, parse_card, parse_seat
from cardavia.belote.play import Strain, legal_mask
from cardavia.belote.rules import PRESETS, find_rules
from cardavia.teach.examples import (
    ANNOUNCEMENT_EXAMPLES,
    LEGAL_EXAMPLES,
    SCORING_EXAMPLES,
    LegalExample,
    announcement_results,
)
from cardavia.teach.pages import preset_sections
from cardavia.words import card_name, card_short, rules_text

if TYPE_CHECKING:
    from conftest import Server

pytestmark = pytest.mark.browser

LANGUAGES = ("fr", "en", "ar", "pl", "hi", "es")
TOPICS = ("legal-cards", "announcements", "scoring")
PAGES = ("", *PRESETS, *TOPICS)
"""Every rules page, as the part of its URL after ``/{lang}/rules/``."""
VERIFIED = "Verified: computed by the engine and checked a second time."
HIGHLIGHT = "rgb(10, 125, 44)"
"""The green outline of a highlighted card (rules/_macros.html)."""
Example = dict[str, Any]

# What the page shows of each worked example: whether it is visible; each picture of a card
# (in the trick, in the hands) with its label, <title>, role, size, whether it is highlighted
# and how it is drawn; its verified marks; its legal cards (data-legal); its tricks' cards.
EXAMPLES = """() => {
  const shown = (e) => !!e && e.checkVisibility() && e.getBoundingClientRect().width > 0;
  const cards = (root) => [...root.querySelectorAll('.rules-card svg')].map(svg => {
    const holder = svg.closest('.rules-card'), rect = svg.querySelector('rect');
    const box = svg.getBoundingClientRect();
    return {
      label: svg.getAttribute('aria-label'), role: svg.getAttribute('role'),
      title: svg.querySelector('title')?.textContent ?? null,
      on: holder.classList.contains('rules-card-on'),
      stroke: getComputedStyle(rect).stroke, opacity: Number(getComputedStyle(holder).opacity),
      width: box.width, height: box.height, shown: shown(svg),
    };
  });
  return Object.fromEntries([...document.querySelectorAll('article.rules-example')].map(a => [
    a.id, {
      shown: shown(a),
      trick: [...a.querySelectorAll('.rules-trick')].flatMap(cards),
      hand: [...a.querySelectorAll('.rules-hand')].flatMap(cards),
      verified: [...a.querySelectorAll('.rules-verified')].map(m => ({
        shown: shown(m), flag: m.dataset.verified, text: m.textContent.trim(),
      })),
      unverified: a.querySelectorAll('.rules-unverified').length,
      legal: a.querySelector('.rules-legal')?.dataset.legal ?? null,
      tricks: [...a.querySelectorAll('details tbody tr')].map(r => r.cells[2].textContent),
      calculation: shown(a.querySelector('table.rules-calculation')),
    },
  ]));
}"""


def legal_cards(example: LegalExample) -> list[str]:
    """The cards of the hand that the engine lets the player put down, in the hand's order."""
    rules = find_rules(example.rules)
    trick = [(parse_seat(seat), parse_card(card)) for seat, card in example.trick]
    mask = legal_mask(
        rules,
        Strain.parse(example.contract),
        trick,
        parse_seat(example.seat),
        CardSet.parse(" ".join(example.hand)).mask,
    )
    return [code for code in example.hand if mask >> parse_card(code) & 1]


class Visit:
    """One language's tab on the rules pages, recording the page's errors."""

    def __init__(self, page: Page, base: str, lang: str) -> None:
        self.page = page
        self.base = base
        self.lang = lang
        self.errors: list[str] = []
        self.verified = rules_text(lang).gettext(VERIFIED)
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on(
            "console",
            lambda message: self.errors.append(message.text) if message.type == "error" else None,
        )

    def open(self, name: str) -> Page:
        """Load a rules page: found, in its language and direction, with one title."""
        response = self.page.goto(f"{self.base}/{self.lang}/rules/{name}")
        assert response is not None and response.status == 200, (self.lang, name)
        head = self.page.evaluate(
            """() => ({lang: document.documentElement.lang, dir: document.documentElement.dir,
                       titles: [...document.querySelectorAll('h1')].map(h => h.textContent)})"""
        )
        assert head["lang"] == self.lang
        assert head["dir"] == ("rtl" if self.lang == "ar" else "ltr")
        assert len(head["titles"]) == 1 and head["titles"][0].strip()
        return self.page

    def examples(self, name: str) -> dict[str, Example]:
        """Open a topic page and read its examples."""
        examples: dict[str, Example] = self.open(name).evaluate(EXAMPLES)
        return examples

    def name(self, code: str, deck: str = "french") -> str:
        """A card's name in the page's language: its picture's label."""
        return card_name(parse_card(code), self.lang, deck)

    def check_example(self, example: Example, key: str) -> None:
        """The example is shown with its cards drawn and named, and marked verified."""
        assert example["shown"], key
        for card in example["trick"] + example["hand"]:
            assert card["role"] == "img" and card["title"] == card["label"], key
            assert card["shown"] and card["width"] >= 40 and card["height"] >= 60, key
        assert len(example["verified"]) == 1 and example["unverified"] == 0, key
        mark = example["verified"][0]
        assert mark["shown"] and mark["flag"] == "true", key
        assert self.verified in mark["text"], key
        if self.lang != "en":  # in the page's language
            assert self.verified != VERIFIED


def check_legal_cards(visit: Visit) -> None:
    examples = visit.examples("legal-cards")
    assert list(examples) == [f"example-{ex.number}" for ex in LEGAL_EXAMPLES]
    for ex in LEGAL_EXAMPLES:
        key = f"example-{ex.number}"
        example = examples[key]
        visit.check_example(example, key)
        trick, hand = example["trick"], example["hand"]
        assert [c["label"] for c in trick] == [visit.name(c, ex.deck) for _, c in ex.trick]
        assert [c["label"] for c in hand] == [visit.name(c, ex.deck) for c in ex.hand]
        # The highlighted cards of the hand are exactly the engine's legal cards...
        legal = legal_cards(ex)
        assert legal, key
        assert [c["label"] for c in hand if c["on"]] == [visit.name(c, ex.deck) for c in legal]
        assert example["legal"] == " ".join(legal)
        assert not any(c["on"] for c in trick)
        # ... and they look it: outlined in green, the others faded.
        for card in hand:
            if card["on"]:
                assert card["stroke"] == HIGHLIGHT and card["opacity"] == 1, key
            else:
                assert card["stroke"] != HIGHLIGHT and card["opacity"] < 1, key
    # docs/rules.md 11, example 1: West leads the ace of spades; North must follow with a spade.
    assert legal_cards(LEGAL_EXAMPLES[0]) == ["KS", "7S"]
    on = [card["label"] for card in examples["example-1"]["hand"] if card["on"]]
    assert on == [visit.name("KS"), visit.name("7S")]


def check_announcements(visit: Visit) -> None:
    examples = visit.examples("announcements")
    assert list(examples) == [f"example-{ex.key}" for ex in ANNOUNCEMENT_EXAMPLES]
    for ex, result in zip(ANNOUNCEMENT_EXAMPLES, announcement_results(), strict=True):
        key = f"example-{ex.key}"
        example = examples[key]
        visit.check_example(example, key)
        hands = [(seat, code) for seat, hand in ex.hands for code in hand]
        assert [c["label"] for c in example["hand"]] == [
            visit.name(code, ex.deck) for _, code in hands
        ]
        # The announced cards are highlighted.
        used = {seat: {c for i in result.seat_declared(seat) for c in i.cards} for seat, _ in hands}
        assert [c["on"] for c in example["hand"]] == [code in used[seat] for seat, code in hands]
        if ex.deck == "spanish":  # the Maghreb examples draw the Spanish-suited deck
            code = ex.hands[0][1][0]
            assert example["hand"][0]["label"] != visit.name(code, "french")


def check_scoring(visit: Visit) -> None:
    examples = visit.examples("scoring")
    assert list(examples) == [f"example-{ex.key}" for ex in SCORING_EXAMPLES]
    for ex in SCORING_EXAMPLES:
        key = f"example-{ex.key}"
        example = examples[key]
        visit.check_example(example, key)
        assert example["calculation"], key
        # The eight tricks, each card by its short name in the page's language and deck,
        # between the language's own list separator (Arabic "، ").
        assert example["tricks"] == [
            rules_text(visit.lang)
            .gettext(", ")
            .join(
                card_short(parse_card(c), visit.lang, ex.deck) for c in trick.split(":")[1].split()
            )
            for trick in ex.tricks
        ]


def check_index_and_presets(visit: Visit) -> None:
    page = visit.open("")
    links = page.eval_on_selector_all(".rules > ul a", "as => as.map(a => a.getAttribute('href'))")
    assert links == [f"/{visit.lang}/rules/{key}" for key in (*PRESETS, *TOPICS)]
    for key, rules in PRESETS.items():
        page = visit.open(key)
        shown = page.evaluate(
            """() => ({preset: document.querySelector('.rules').dataset.preset,
                       titles: [...document.querySelectorAll('.rules section > h2')]
                               .map(h => h.textContent),
                       current: document.querySelector('.rules-nav a[aria-current="page"]')
                                        .getAttribute('href')})"""
        )
        sections = preset_sections(rules, rules_text(visit.lang))
        assert shown["preset"] == key
        assert shown["titles"] == [f"{n}. {s.title}" for n, s in enumerate(sections, start=1)]
        assert shown["current"] == f"/{visit.lang}/rules/{key}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_pages_in_each_language(
    browser: Browser, server: Server, screenshots: Path, lang: str
) -> None:
    """Every rules page in one language: its examples drawn, verified and highlighted, and a
    full-page screenshot of the legal-cards page."""
    context = browser.new_context(
        bypass_csp=True, viewport={"width": 1280, "height": 900}, reduced_motion="reduce"
    )
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        visit = Visit(page, server.url, lang)
        check_index_and_presets(visit)
        check_announcements(visit)
        check_scoring(visit)
        check_legal_cards(visit)
        shot(page, str(screenshots / f"rules-legal-cards-{lang}.jpg"), full_page=True)
        assert visit.errors == []
    finally:
        context.close()


def test_rules_pages_fit_a_phone_in_arabic(
    browser: Browser, server: Server, screenshots: Path
) -> None:
    """At 360 px wide, right to left, no rules page scrolls sideways and every example, card
    and paragraph stays inside the screen (a wide table scrolls in its own box)."""
    context = browser.new_context(
        bypass_csp=True, viewport={"width": 360, "height": 740}, is_mobile=True
    )
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        visit = Visit(page, server.url, "ar")
        for name in PAGES:
            visit.open(name)
            layout = page.evaluate(
                """() => ({
                  width: document.documentElement.scrollWidth,
                  tables: document.querySelectorAll('.rules table').length,
                  boxed: document.querySelectorAll('.rules .rules-wide > table').length,
                  boxes: [...document.querySelectorAll(
                    '.rules-example, .rules-card svg, .rules-wide, .rules p, .rules h1, .rules h2'
                  )].map(e => { const r = e.getBoundingClientRect();
                                return [e.tagName, e.className.baseVal ?? e.className,
                                        r.left, r.right]; }),
                })"""
            )
            assert layout["width"] <= 360, f"/ar/rules/{name} is {layout['width']}px wide"
            assert layout["tables"] == layout["boxed"]  # a wide table scrolls in its box
            for tag, css, left, right in layout["boxes"]:
                assert left >= -0.5 and right <= 360.5, (name, tag, css, left, right)
        shot(page, str(screenshots / "rules-scoring-ar-phone.jpg"), full_page=True)
        assert visit.errors == []
    finally:
        context.close()


# Every bracketed number of a paragraph read from the page, in the order of its glyph boxes:
# for each "(" that opens a number inside an Arabic sentence ("(20 نقطة)"), the box of the
# bracket, of each digit after it, of the first Arabic letter after them and of the closing
# bracket. Boxes come from a Range on each character, as the browser laid them out.
BRACKETED = r"""() => {
  const found = [];
  for (const p of document.querySelectorAll('main p, main li, main td, main dd')) {
    const chars = [];
    const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.data.length; i++) chars.push([node, i, node.data[i]]);
    }
    const text = chars.map(c => c[2]).join('');
    const box = (k) => {
      const range = document.createRange();
      range.setStart(chars[k][0], chars[k][1]);
      range.setEnd(chars[k][0], chars[k][1] + 1);
      const r = range.getBoundingClientRect();
      return {x: r.left + r.width / 2, y: r.top + r.height / 2};
    };
    for (const m of text.matchAll(/\((\d+) ([\u0621-\u064A][^()]*)\)/g)) {
      const open = m.index, digits = [];
      for (let k = 0; k < m[1].length; k++) digits.push(box(open + 1 + k));
      const word = box(open + 2 + m[1].length);
      const close = box(open + m[0].length - 1);
      found.push({text: m[0], open: box(open), digits, word, close});
    }
    // A number then its bracketed value ("الـ12 (100)"): the number is read first, so it
    // stands right of the bracket; recorded as a bracket with no word (word: null).
    for (const m of text.matchAll(/[\u0621-\u064A](\d+) \((\d+)\)/g)) {
      const first = m.index + 1, digits = [];
      for (let k = 0; k < m[1].length; k++) digits.push(box(first + k));
      const open = box(first + m[1].length + 1);
      const close = box(first + m[0].length - 2);
      found.push({text: m[0].slice(1), open, digits, word: null, close});
    }
  }
  return found;
}"""


def bracket_order_faults(found: list[dict[str, Any]]) -> list[str]:
    """The bracketed numbers whose glyphs are not in logical right-to-left order: on one line,
    the opening bracket rightmost, then the number (its digits left to right), then the
    Arabic word to its left, then the closing bracket leftmost."""
    faults = []
    for item in found:
        if item["word"] is None:  # "12 (100)": the number right of its whole bracketed value
            boxes = [*item["digits"], item["open"], item["close"]]
            if max(b["y"] for b in boxes) - min(b["y"] for b in boxes) > 4:
                continue
            digits = [b["x"] for b in item["digits"]]
            if not min(digits) > max(item["open"]["x"], item["close"]["x"]):
                faults.append(item["text"])
            continue
        boxes = [item["open"], *item["digits"], item["word"], item["close"]]
        if max(b["y"] for b in boxes) - min(b["y"] for b in boxes) > 4:
            continue  # broken across lines: no order to compare
        digits = [b["x"] for b in item["digits"]]
        ok = (
            item["open"]["x"] > max(digits)
            and digits == sorted(digits)
            and min(digits) > item["word"]["x"] > item["close"]["x"]
        )
        if not ok:
            faults.append(item["text"])
    return faults


def test_bracketed_numbers_read_in_order_in_arabic(browser: Browser, server: Server) -> None:
    """ "(20 نقطة)" in an Arabic sentence shows its bracket, number and word in the logical
    order (the number isolated left to right, the brackets enclosing both), on every rules
    page that has one: compared by the position of each glyph's box."""
    context = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        checked = 0
        for name in ("announcements", "scoring", "coinche", "maghreb", "maison", "cardavia"):
            page.goto(f"{server.url}/ar/rules/{name}")
            found = page.evaluate(BRACKETED)
            assert bracket_order_faults(found) == [], name
            checked += len(found)
        assert checked >= 5  # the pages do have bracketed numbers to check
        # The check itself sees the fault it is for: a number isolated with its opening
        # bracket, as the pages once did.
        page.set_content(
            '<p dir="rtl" lang="ar">الإعلان <bdi dir="ltr">(20</bdi> نقطة) هنا</p>'
            '<main><p dir="rtl" lang="ar">الإعلان <bdi dir="ltr">(20</bdi> نقطة) هنا</p></main>'
        )
        assert bracket_order_faults(page.evaluate(BRACKETED)) == ["(20 نقطة)"]
        page.set_content(
            '<main><p dir="rtl" lang="ar">الإعلان (<bdi dir="ltr">20</bdi> نقطة) هنا</p></main>'
        )
        assert bracket_order_faults(page.evaluate(BRACKETED)) == []
        page.set_content(
            '<main><p dir="rtl" lang="ar">وكاري الـ<bdi dir="ltr">12 (100)</bdi> هنا</p></main>'
        )
        assert bracket_order_faults(page.evaluate(BRACKETED)) == ["12 (100)"]
    finally:
        context.close()
