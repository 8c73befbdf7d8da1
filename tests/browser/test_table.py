"""The table page in a real browser against the real server: whole deals played through the
page (French, and Arabic right to left with the keyboard), the visual settings, a phone's
width, a server restart in the middle of a deal, and a screenshot in each language."""

from __future__ import annotations

import colorsys
import itertools
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Browser, Page
from tests.browser.conftest import shot

if TYPE_CHECKING:
    from conftest import Server, Table

pytestmark = pytest.mark.browser

LANGUAGES = ("fr", "en", "ar", "pl", "hi", "es")

CODE = re.compile(r"^[789TJQKA][SHDC]$")


# Every line the status line (the live region) ever shows, kept for the end of the test.
WATCH_STATUS = """() => {
  window.statusLines = [];
  new MutationObserver(() => {
    for (const line of document.querySelectorAll("#status .status-line")) {
      window.statusLines.push(line.textContent);
    }
  }).observe(document.getElementById("status"), {childList: true, subtree: true});
}"""


def check_status_sentences(page: Page) -> None:
    """One message per line, each a whole sentence: no "East: Pass" run into "Your turn"."""
    lines: list[str] = page.evaluate("window.statusLines")
    assert len(lines) > 10
    for line in lines:
        assert re.search(r"[.!?…؟।]$", line.strip()), line
        assert line.count(":") <= 1, line


STEP_CODES = {"cards", "last_trick", "capot", "announcement", "capot_announcements", "belote"}


def check_breakdown(ui: dict[str, str], result: dict[str, Any], rows: list[list[str]]) -> None:
    """The result's breakdown reads as the steps to the deal's score: the card points, "+"
    each bonus, the contract's verdict and what it scores, the deal's score last; no line of
    its own for the multiplier or the rounding, and the verdict said once."""
    lines = result["lines"]
    steps = [line for line in lines if line["code"] in STEP_CODES]
    assert rows[0] == [steps[0]["text"], str(steps[0]["NS"]), str(steps[0]["EW"])]
    for line, row in zip(steps[1:], rows[1 : len(steps)], strict=True):
        assert row == [
            ui["breakdown_plus"].replace("{line}", line["text"]),
            *map(str, (line["NS"], line["EW"])),
        ]
    assert rows[-1][1:] == [str(result["scores"]["NS"]), str(result["scores"]["EW"])]
    verdict = {True: ui["result_made"], False: ui["result_failed"], None: ui["result_litige"]}
    forms = ("breakdown_verdict", "breakdown_verdict_times", "breakdown_total_verdict",
             "breakdown_total_verdict_times")  # fmt: skip
    labels = {
        ui[form]
        .replace("{verdict}", verdict[result["made"]])
        .replace("{multiplier}", str(result["multiplier"]))
        for form in forms
    }
    assert len([row for row in rows if row[0] in labels]) == 1
    codes = {line["code"] for line in lines}
    reserve = [line["text"] for line in lines if line["code"] == "reserve"]
    numbers = [tuple(row[1:]) for row in rows[len(steps) :] if row[0] not in reserve]
    assert len(numbers) == len(set(numbers))  # no number shown twice
    assert len(numbers) <= 2 and not [row for row in rows if row[0] in ("", None)]
    if "rounding" in codes and rows[-1][0] not in labels:
        assert rows[-1][0] == ui["breakdown_total_rounded"]


def check_score_panel(table: Table) -> dict[str, Any]:
    """The end of the deal: a modal dialog with the focus inside says who won, then the
    breakdown the server sent, each number once; the final trick stays on the table."""
    page = table.page
    view = table.view()
    assert view["phase"] == "over"
    result = view["result"]
    panel = page.locator("#score-panel")
    panel.wait_for(state="visible")
    assert page.evaluate("document.getElementById('score-panel').matches(':modal')")
    assert page.evaluate("document.activeElement.closest('#score-panel') !== null")
    ui = table.strings()["ui"]
    verdict = {True: ui["result_made"], False: ui["result_failed"], None: ui["result_litige"]}
    assert page.text_content("#score-verdict") == verdict[result["made"]]
    headlines = {ui[k] for k in ("you_win_deal", "you_lose_deal", "you_win_match",
                                 "you_lose_match", "result_litige")}  # fmt: skip
    assert page.text_content("#score-title") in headlines
    if not view["match"]["target"]:
        # A single deal is won as a deal, never as "the match" (no winner after a litige, or
        # when the scores are equal: made at 81 to 81, or 91 to 71 and the defenders' belote).
        tied = result["scores"]["NS"] == result["scores"]["EW"]
        assert view["match"]["winner"] or result["made"] is None or tied
        assert page.text_content("#score-title") not in {ui["you_win_match"], ui["you_lose_match"]}
    assert page.locator("#trick .slot .card").count() == 4  # the final trick
    rows = page.locator("#score-lines tr")
    check_breakdown(
        ui, result, [rows.nth(i).locator("th, td").all_text_contents() for i in range(rows.count())]
    )
    total = page.locator('#score-lines tr[data-code="total"] td').all_text_contents()
    assert total == [str(result["scores"]["NS"]), str(result["scores"]["EW"])]
    assert sum(view["tricks_won"].values()) == 8
    assert page.text_content("#tricks-ns") == str(view["tricks_won"]["NS"])
    return view


def check_replay(table: Table) -> None:
    """The replay shows every hand open and goes card by card."""
    page = table.page
    page.click("#replay-open")
    assert page.locator("#replay").is_visible()
    assert page.locator("#score-panel").is_hidden()
    open_cards = page.locator("#felt .open-hand .card")
    assert open_cards.count() == 32
    page.click("#replay-next")
    page.click("#replay-next")
    assert open_cards.count() == 30
    assert page.locator("#trick .slot .card").count() == 2
    page.click("#replay-last")
    assert open_cards.count() == 0
    page.click("#replay-close")
    page.locator("#score-panel").wait_for(state="visible")


def test_the_breakdown_reads_as_the_steps_to_the_deal_score(table: Table) -> None:
    """A made contract whose score is rounded: the card points, "+" the last trick and the
    belote, "Contract made: points scored" 188 / 84, then "Score of the deal, rounded to the
    nearest ten" 190 / 80, not the verdict's 188 next to a score of 190 with nothing between;
    a coinched contract says its ×2 in the verdict's line."""
    page = table.open("fr")
    ui = table.strings()["ui"]
    made = [
        {"code": "cards", "text": "Points des cartes", "NS": 158, "EW": 84},
        {"code": "last_trick", "text": "Dix de der", "NS": 10, "EW": 0},
        {"code": "belote", "text": "Belote–rebelote", "NS": 20, "EW": 0},
        {"code": "contract_made", "text": "Contrat réussi", "NS": 188, "EW": 84},
        {"code": "rounding", "text": "Arrondi", "NS": 190, "EW": 80},
        {"code": "total", "text": "Score de la donne", "NS": 190, "EW": 80},
    ]
    result = {"made": True, "multiplier": 1, "lines": made, "scores": {"NS": 190, "EW": 80}}
    shown = page.evaluate("r => window.cardavia.breakdownLines(r)", result)
    assert [(row["text"], row["NS"], row["EW"]) for row in shown] == [
        ("Points des cartes", 158, 84),
        (ui["breakdown_plus"].replace("{line}", "Dix de der"), 10, 0),
        (ui["breakdown_plus"].replace("{line}", "Belote–rebelote"), 20, 0),
        (ui["breakdown_verdict"].replace("{verdict}", ui["result_made"]), 188, 84),
        (ui["breakdown_total_rounded"], 190, 80),
    ]
    rows = [[row["text"], str(row["NS"]), str(row["EW"])] for row in shown]
    check_breakdown(ui, result, rows)
    coinched = [
        {"code": "cards", "text": "Points des cartes", "NS": 40, "EW": 112},
        {"code": "last_trick", "text": "Dix de der", "NS": 0, "EW": 10},
        {"code": "contract_failed", "text": "Contrat chuté", "NS": 0, "EW": 500},
        {"code": "multiplier", "text": "Multiplié par 2", "NS": 0, "EW": 500},
        {"code": "total", "text": "Score de la donne", "NS": 0, "EW": 500},
    ]
    result = {"made": False, "multiplier": 2, "lines": coinched, "scores": {"NS": 0, "EW": 500}}
    shown = page.evaluate("r => window.cardavia.breakdownLines(r)", result)
    verdict = ui["breakdown_total_verdict_times"].replace("{verdict}", ui["result_failed"])
    assert [row["text"] for row in shown][-1] == verdict.replace("{multiplier}", "2")
    assert len(shown) == 3
    check_breakdown(ui, result, [[r["text"], str(r["NS"]), str(r["EW"])] for r in shown])


def test_whole_deal_in_french(table: Table) -> None:
    """Bidding, a greyed card refused with its reason, cards picked then confirmed, the score
    panel with its breakdown lines, the last trick and the replay."""
    page = table.open("fr")
    assert page.get_attribute("html", "lang") == "fr"
    assert page.get_attribute("html", "dir") == "ltr"
    names = table.strings()["names"]["french"]
    assert names["JH"] != "JH"
    page.evaluate(WATCH_STATUS)
    table.new_game("cardavia")
    # The hand's buttons are named for screen readers, in French: the card's name alone
    # ("roi de trèfle", no stray corner letter before it).
    labels = page.eval_on_selector_all(
        "#hand .card",
        "cards => cards.map(c => [c.dataset.card, c.querySelector('.card-name').textContent])",
    )
    assert labels
    assert all(label == names[code] for code, label in labels)
    code = labels[0][0]
    assert page.get_by_role("button", name=names[code], exact=True).count() == 1
    refusal = None
    for _ in range(4):  # a deal where South never holds a refused card is rare: deal again
        seen = table.play_deal()
        refusal = refusal or seen["refusal"]
        check_score_panel(table)
        if refusal is not None:
            break
        page.click("#result-new-game")
        table.new_game("cardavia")
    assert refusal is not None, "no greyed card in four deals"
    assert refusal["reason"]
    check_status_sentences(page)
    # The bids box records a take as said ("Prend à trèfle"), never the button's infinitive.
    said = page.eval_on_selector_all("#bids .what", "items => items.map(i => i.textContent)")
    assert said and not [text for text in said if text.startswith("Prendre")]
    assert [text for text in said if text.startswith("Prend à")] or "Passe" in said
    # Escape closes the result: the focus goes to the button that shows it again.
    page.keyboard.press("Escape")
    assert page.locator("#score-panel").is_hidden()
    page.wait_for_function("document.activeElement.dataset.action === 'show-result'")
    # The last trick can be seen again.
    page.click("#last-trick-toggle")
    assert page.locator("#last-trick .card").count() == 4
    assert page.get_attribute("#last-trick-toggle", "aria-expanded") == "true"
    page.click("#controls [data-action=show-result]")
    check_replay(table)
    assert table.errors == []


COUNT_SOCKETS = """() => {
    window.socketsOpened = 0;
    const Native = window.WebSocket;
    window.WebSocket = class extends Native {
        constructor(...args) { super(...args); window.socketsOpened += 1; }
    };
}"""
"""Counts the sockets the page opens (installed before the page's scripts run)."""


@pytest.mark.parametrize("lang", ["fr", "ar"])
def test_play_again_deals_the_next_game_over_the_same_socket(table: Table, lang: str) -> None:
    """A single deal over, "Play again" deals the next game with the same settings over the
    open connection: no new socket, the new game kept to resume after a reload."""
    table.context.add_init_script(f"({COUNT_SOCKETS})()")
    page = table.open(lang)
    table.new_game("cardavia")
    first = table.view()["game"]
    table.play_deal()
    check_score_panel(table)
    assert page.evaluate("window.socketsOpened") == 1
    page.click("#next-deal")
    page.wait_for_function("(first) => window.cardavia.view?.game !== first", arg=first)
    view = table.wait_ready()
    assert view["rules"] == "cardavia" and view["deal_number"] == 1
    assert view["phase"] in ("bidding", "playing") and len(view["hand"]) in (5, 8)
    assert page.locator("#score-panel").is_hidden()
    assert page.evaluate("window.socketsOpened") == 1  # the same connection
    kept = page.evaluate("JSON.parse(localStorage.getItem('cardavia.game'))")
    assert kept["game"] == view["game"] != first and kept["rules"] == "cardavia"
    # The new game is the one the page resumes.
    page.reload()
    assert table.wait_ready()["game"] == view["game"]
    seen = table.play_deal()
    assert seen["cards"] >= 1
    check_score_panel(table)
    assert table.errors == []


def test_whole_deal_in_arabic_with_the_keyboard(table: Table) -> None:
    """Right to left: the page mirrors, card faces and scores stay left to right, the seats
    keep their places (West on the right), and the whole deal is played with the keys."""
    page = table.open("ar")
    assert page.get_attribute("html", "lang") == "ar"
    assert page.get_attribute("html", "dir") == "rtl"
    table.new_game("maison")
    geometry = page.evaluate(
        """() => Object.fromEntries(["N", "E", "S", "W"].map(s => {
            const r = document.querySelector(`.seat[data-seat="${s}"]`).getBoundingClientRect();
            return [s, {x: r.left + r.width / 2, y: r.top + r.height / 2}];
        }))"""
    )
    assert geometry["W"]["x"] > geometry["N"]["x"] > geometry["E"]["x"]
    assert geometry["N"]["y"] < geometry["W"]["y"] < geometry["S"]["y"]
    # The side panel is on the left of the table in Arabic.
    felt = page.locator("#felt").bounding_box()
    info = page.locator("#info").bounding_box()
    assert felt and info and info["x"] < felt["x"]
    assert page.get_attribute("#hand .card >> nth=0", "dir") == "ltr"
    # Bid with the keyboard too: Tab to the first offer, Enter.
    for _ in range(40):
        view = table.wait_ready()
        if view["phase"] != "bidding":
            break
        page.locator("#controls .bid-button").first.focus()
        offers = page.locator("#controls .bid-button.take")
        (offers.first if offers.count() else page.locator("#controls .bid-button.pass")).focus()
        page.keyboard.press("Enter")
    seen = table.play_deal(keyboard=True)
    assert seen["cards"] >= 1
    view = check_score_panel(table)
    assert page.locator("#score-ns bdi, #score-lines bdi").count() > 0
    if view["next_deal"]:
        assert page.locator("#next-deal").is_visible()
        assert page.locator("#sheet-panel .sheet").is_visible()
    assert table.errors == []


def shown(page: Page, suit: str) -> tuple[float, float, float]:
    """A suit's colour as it shows: painted, then through the page's contrast and colour
    temperature filters (sRGB, as the filters work)."""
    painted = page.evaluate(
        "(s) => getComputedStyle(document.documentElement).getPropertyValue(`--suit-${s}`)",
        suit,
    ).strip()
    k = float(page.evaluate("getComputedStyle(document.documentElement)"
                            ".getPropertyValue('--contrast')"))  # fmt: skip
    values = (page.get_attribute("#cv-temperature-matrix", "values") or "").split()
    gains = (float(values[0]), float(values[6]), float(values[12]))
    channels = (int(painted[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return tuple(  # type: ignore[return-value]
        255 * min(1.0, max(0.0, g * min(1.0, max(0.0, k * (c - 0.5) + 0.5))))
        for c, g in zip(channels, gains, strict=True)
    )


def hue(rgb: tuple[float, float, float]) -> float:
    return colorsys.rgb_to_hsv(*(c / 255 for c in rgb))[0] * 360


@pytest.mark.parametrize("contrast", [0, 100])
@pytest.mark.parametrize("temperature", [0, 100])
def test_suits_stay_apart_at_the_ends_of_the_settings(
    table: Table, contrast: int, temperature: int
) -> None:
    """Whatever the contrast and the colour temperature, hearts show red (not purple), spades
    dark, and with four colours diamonds blue and clubs green; grain and temperature change
    the page visibly at their ends."""
    page = table.open("en")
    page.click("#settings-panel summary")
    page.locator("#set-contrast").fill(str(contrast))
    page.locator("#set-temperature").fill(str(temperature))
    page.check('#settings-panel [name="fourColour"]')
    hearts = shown(page, "H")
    assert hue(hearts) >= 335 or hue(hearts) <= 10, hearts  # red, not purple or orange
    assert max(hearts) - min(hearts) > 60  # a colour, not a grey
    assert max(shown(page, "S")) < 110  # dark
    assert 200 <= hue(shown(page, "D")) <= 255  # blue, short of violet
    assert 80 <= hue(shown(page, "C")) <= 160  # green
    # Grain: nothing at 0%, strong at 100%.
    page.locator("#set-grain").fill("100")
    grain = page.evaluate("getComputedStyle(document.querySelector('main'), '::after').opacity")
    assert float(grain) >= 0.45


# Colour vision deficiencies, severity 1 (Machado, Oliveira and Fernandes 2009), on linear RGB.
DEFICIENCIES = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}  # fmt: skip


def seen_by(rgb: tuple[float, float, float], matrix: Any) -> tuple[float, ...]:
    def linear(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    def encoded(c: float) -> float:
        c = min(1.0, max(0.0, c))
        return 255 * (12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055)

    flat = [linear(c) for c in rgb]
    return tuple(encoded(sum(m * c for m, c in zip(row, flat, strict=True))) for row in matrix)


def test_four_colour_suits_stay_apart_for_colour_blind_eyes(table: Table) -> None:
    """The colour-blind check: with four colours, every two suits stay apart (distance in
    sRGB of at least 45) as protanopes, deuteranopes and tritanopes see them."""
    page = table.open("en")
    page.click("#settings-panel summary")
    page.check('#settings-panel [name="fourColour"]')
    colours = {suit: shown(page, suit) for suit in "SHDC"}
    for name, matrix in DEFICIENCIES.items():
        seen = {suit: seen_by(rgb, matrix) for suit, rgb in colours.items()}
        for a, b in itertools.combinations("SHDC", 2):
            distance = sum((x - y) ** 2 for x, y in zip(seen[a], seen[b], strict=True)) ** 0.5
            assert distance >= 45, (name, a, b, round(distance))


def test_escape_closes_the_header_menus(table: Table) -> None:
    """The settings and the language menu close with Escape wherever the focus is in them (a
    slider too), and the focus goes back to the menu's button."""
    page = table.open("fr")
    page.click("#settings-panel summary")
    page.locator("#set-contrast").focus()
    page.keyboard.press("Escape")
    assert page.get_attribute("#settings-panel", "open") is None
    assert page.evaluate("document.activeElement.matches('#settings-panel summary')")
    page.click(".lang-menu summary")
    page.locator(".lang-menu a").first.focus()
    page.keyboard.press("Escape")
    assert page.get_attribute(".lang-menu", "open") is None
    assert page.evaluate("document.activeElement.matches('.lang-menu summary')")
    assert table.errors == []


def test_settings_change_the_table_and_persist(table: Table) -> None:
    """Contrast, grain and colour temperature at 50% by default, applied live through
    custom properties and filters; four-colour suits; all kept across a reload."""
    page = table.open("en")
    table.new_game("cardavia")
    main = page.locator("main")
    # At 50 % the filters would change nothing: the surface is not painted through them.
    assert main.evaluate("m => getComputedStyle(m).filter") == "none"
    page.click("#settings-panel summary")
    for name in ("contrast", "grain", "temperature"):
        assert page.input_value(f"#set-{name}") == "50"
        assert page.text_content(f'output[for="set-{name}"]') == "50%"

    def slide(name: str, value: int) -> None:
        page.locator(f"#set-{name}").fill(str(value))

    slide("contrast", 90)
    slide("grain", 0)
    slide("temperature", 100)
    assert page.text_content('output[for="set-contrast"]') == "90%"
    assert main.evaluate("m => getComputedStyle(m).filter").startswith("contrast(1.4)")
    grain = main.evaluate("m => getComputedStyle(m, '::after').opacity")
    assert float(grain) == 0
    matrix = page.get_attribute("#cv-temperature-matrix", "values") or ""
    assert matrix.split()[0] == "1.160"  # warmer: more red
    assert matrix.split()[12] == "0.780"  # less blue
    diamond = '#hand .card[data-suit="D"], #trick .card[data-suit="D"]'
    page.check('#settings-panel [name="fourColour"]')
    assert page.get_attribute("html", "data-four-colour") == "on"
    # Diamonds are blue: painted so that, through the contrast (90%) and the warm filter
    # (100%), they show as the palette's #0b3fb0.
    assert shown(page, "D") == pytest.approx((0x0B, 0x3F, 0xB0), abs=3)
    if page.locator(diamond).count():
        painted = page.locator(diamond).first.evaluate("c => getComputedStyle(c).color")
        assert painted == page.evaluate(
            "() => { const e = document.createElement('i'); e.style.color = "
            "getComputedStyle(document.documentElement).getPropertyValue('--suit-D');"
            " document.body.append(e); const c = getComputedStyle(e).color; e.remove();"
            " return c; }"
        )
    page.uncheck('#settings-panel [name="confirm"]')

    page.reload()
    table.wait_ready()
    assert page.input_value("#set-contrast") == "90"
    assert page.input_value("#set-grain") == "0"
    assert page.input_value("#set-temperature") == "100"
    assert main.evaluate("m => getComputedStyle(m).filter").startswith("contrast(1.4)")
    assert page.get_attribute("html", "data-four-colour") == "on"
    assert page.get_attribute("html", "data-confirm") == "off"
    # The settings apply on every page: here they follow to another language.
    page.goto(f"{table.base}/pl/")
    assert page.get_attribute("html", "data-contrast") == "90"
    # Reset: back to 50%.
    page.click("#settings-panel summary")
    page.click('[data-action="reset-settings"]')
    assert page.input_value("#set-contrast") == "50"
    assert page.get_attribute("html", "data-contrast") == "50"


def test_phone_width(
    browser: Browser, server: Server, screenshots: Path, make_table: type[Table]
) -> None:
    """At 360 × 740 with a touch screen nothing spills sideways, the eight cards fit, and a
    tap plays a card at once when confirmation is off."""
    context = browser.new_context(
        bypass_csp=True,
        viewport={"width": 360, "height": 740},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        reduced_motion="reduce",
    )
    context.add_init_script(
        "localStorage.setItem('cardavia.settings', JSON.stringify({pace: 0, confirm: false}));"
    )
    table = make_table(context, server.url)
    try:
        page = table.open("es")
        table.new_game("cardavia")
        shot(page, str(screenshots / "table-phone-es.jpg"))

        def fits() -> None:
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 360, f"the page is {width}px wide"
            for box in page.eval_on_selector_all(
                "#hand .card, #controls button",
                "els => els.map(e => { const r = e.getBoundingClientRect();"
                " return [r.left, r.right, r.width, r.height]; })",
            ):
                left, right, width_, height = box
                assert left >= 0 and right <= 360
                assert height >= 40 and width_ >= 36

        fits()
        for _ in range(30):
            view = table.wait_ready()
            if view["phase"] != "bidding":
                break
            (page.locator("#controls .bid-button.take").first
             if page.locator("#controls .bid-button.take").count()
             else page.locator("#controls .bid-button.pass")).tap()  # fmt: skip
        view = table.wait_ready()
        if view["phase"] == "playing":
            assert len(view["hand"]) == 8
            fits()
            card = next(a["card"] for a in view["legal"] if a["kind"] == "play")
            page.locator(f'#hand .card[data-card="{card}"]').tap()
            page.wait_for_function(
                "(c) => !window.cardavia.view.hand.includes(c)", arg=card, timeout=5000
            )
            shot(page, str(screenshots / "table-phone-es-playing.jpg"))
        assert table.errors == []
    finally:
        context.close()


def test_the_page_survives_a_server_restart(
    browser: Browser, server: Server, make_table: type[Table]
) -> None:
    """Kill the server in the middle of a deal: the page says it is reconnecting; start it
    again and the page reconnects by itself, the deal going on where it was (the game is
    saved after every action)."""
    context = browser.new_context(
        bypass_csp=True, viewport={"width": 1280, "height": 860}, reduced_motion="reduce"
    )
    context.add_init_script("localStorage.setItem('cardavia.settings', JSON.stringify({pace: 0}));")
    table = make_table(context, server.url)
    try:
        page = table.open("pl")
        table.new_game("cardavia")
        view = table.bid_until_play()
        for _ in range(2):  # two of South's cards, then the server goes down
            if view["phase"] != "playing":
                break
            card = next(a["card"] for a in view["legal"] if a["kind"] == "play")
            page.click(f'#hand .card[data-card="{card}"]')
            page.click("#controls [data-action=confirm]")
            page.wait_for_function("(c) => !window.cardavia.view.hand.includes(c)", arg=card)
            view = table.wait_ready()
        before = table.view()
        assert before["phase"] == "playing"
        server.stop(crash=True)
        page.locator("#connection").wait_for(state="visible")
        assert page.get_attribute("#table", "data-connection") == "offline"
        server.start()
        # The page reconnects by itself (no reload), and the notice goes away.
        page.wait_for_function(
            "document.getElementById('table').dataset.connection === 'online'", timeout=20_000
        )
        assert page.locator("#connection").is_hidden()
        after = table.wait_ready()
        for key in ("hand", "trick", "tricks_won", "contract", "bids", "dealer"):
            assert after[key] == before[key], key
        assert page.locator("#hand .card").count() == len(before["hand"])
        table.play_deal()
        check_score_panel(table)
        errors = [e for e in table.errors if "ERR_CONNECTION_REFUSED" not in e
                  and "WebSocket" not in e]  # fmt: skip
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_screenshot_in_each_language(table: Table, screenshots: Path, lang: str) -> None:
    """The table in each language: lang and dir, the language menu to the same page in the
    six languages, the words of the page in its language, a screenshot."""
    page: Page = table.open(lang)
    assert page.get_attribute("html", "lang") == lang
    assert page.get_attribute("html", "dir") == ("rtl" if lang == "ar" else "ltr")
    links = page.eval_on_selector_all(".lang-menu a", "as => as.map(a => a.getAttribute('href'))")
    assert links == [f"/{code}/" for code in LANGUAGES]
    assert page.get_attribute('.site-nav a[href$="/rules/"]', "href") == f"/{lang}/rules/"
    table.new_game("maison")
    view = table.bid_until_play()
    assert view["lang"] == lang
    assert page.text_content("#contract") != table.strings()["ui"]["no_contract"]
    labels = page.eval_on_selector_all(
        "#hand .card .card-name", "names => names.map(n => n.textContent)"
    )
    assert labels and not any(CODE.match(label or "") for label in labels)
    shot(page, str(screenshots / f"table-{lang}-desktop.jpg"), full_page=True)
    # The same table on a phone's screen (360 × 740), as it first shows.
    page.set_viewport_size({"width": 360, "height": 740})
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, str(screenshots / f"table-{lang}-phone.jpg"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert table.errors == []


PLAYED = "(n) => window.cardavia.view.hand.length < n || window.cardavia.view.phase !== 'playing'"

ACTIVE = """() => {
  const a = document.activeElement;
  if (!a || a === document.body) return "body";
  if (a.closest("#hand")) return "hand";
  if (a.closest("#controls")) return "controls";
  if (a.closest("#score-panel")) return "result";
  return a.id || a.tagName;
}"""


@pytest.mark.parametrize("lang", ["fr", "ar"])
def test_a_whole_deal_by_keyboard_alone(table: Table, lang: str) -> None:
    """From page load: at most 3 Tabs to deal (the deal button has the focus), then no Tab at
    all: the bidding buttons and the hand get the focus when it is South's turn, the arrows
    move in the hand (one tab stop), Enter picks and Enter confirms, the focus never falls to
    the page; the result is a dialog with the focus inside, Escape closes it, and "Next
    deal" (Enter) deals again with the same rules."""
    page = table.open(lang)
    tabs = 0
    while page.evaluate("document.activeElement.id") != "deal-button":
        page.keyboard.press("Tab")
        tabs += 1
        assert tabs <= 3, "more than 3 Tabs to the deal button"
    page.keyboard.press("Enter")
    rtl = lang == "ar"
    forward, backward = ("ArrowLeft", "ArrowRight") if rtl else ("ArrowRight", "ArrowLeft")
    cards = 0
    for _ in range(80):
        view = table.wait_ready()
        if view["phase"] == "over":
            break
        if view["phase"] == "cancelled":
            page.wait_for_function(f"({ACTIVE})() === 'controls'")
            page.keyboard.press("Enter")  # deal again
            page.wait_for_function("window.cardavia.view.phase !== 'cancelled'")
            continue
        if view["phase"] == "bidding":
            page.wait_for_function(f"({ACTIVE})() === 'controls'")
            page.keyboard.press("Enter")
            page.wait_for_function(
                "(n) => window.cardavia.view.bids.length > n || window.cardavia.view.phase "
                "!== 'bidding'",
                arg=len(view["bids"]),
            )
            continue
        page.wait_for_function(f"({ACTIVE})() === 'hand'")
        assert page.locator("#hand .card[tabindex='0']").count() == 1  # one tab stop
        order = page.eval_on_selector_all("#hand .card", "cs => cs.map(c => c.dataset.card)")
        card = next(a["card"] for a in view["legal"] if a["kind"] == "play")
        index = order.index(page.evaluate("document.activeElement.dataset.card"))
        target = order.index(card)
        for _ in range(abs(target - index)):
            page.keyboard.press(forward if target > index else backward)
        assert page.evaluate("document.activeElement.dataset.card") == card
        page.keyboard.press("Enter")  # pick
        page.wait_for_function(
            "(c) => document.activeElement.dataset.card === c "
            "&& document.querySelector('#controls [data-action=confirm]')",
            arg=card,
        )
        page.keyboard.press("Enter")  # confirm
        page.wait_for_function(PLAYED, arg=len(view["hand"]))
        cards += 1
    assert cards == 8
    check_score_panel(table)
    assert page.evaluate(ACTIVE) == "result"
    page.keyboard.press("Escape")
    page.wait_for_function(f"({ACTIVE})() === 'controls'")
    page.keyboard.press("Enter")  # show the result again
    page.locator("#score-panel").wait_for(state="visible")
    assert page.evaluate("document.activeElement.id") == "next-deal"
    game = page.evaluate("window.cardavia.view.game")
    page.keyboard.press("Enter")  # next deal, same settings
    page.wait_for_function(
        "(g) => window.cardavia.view && window.cardavia.view.game !== g "
        "&& window.cardavia.view.phase !== 'over'",
        arg=game,
    )
    assert page.locator("#score-panel").is_hidden()
    table.wait_ready()
    page.wait_for_function(f"({ACTIVE})() === 'controls' || ({ACTIVE})() === 'hand'")
    assert tabs <= 3
    assert table.errors == []


def test_points_trick_review_auto_last_card_and_pace(table: Table) -> None:
    """The settings of play: the card points won so far shown by team, every trick of the
    deal reviewable, South's forced last card played by itself, the computer players' pace,
    sounds."""
    page = table.open("fr")
    page.click("#settings-panel summary")
    page.select_option("#set-ai-pace", "fast")
    page.check('#settings-panel [name="showPoints"]')
    page.check('#settings-panel [name="autoLast"]')
    page.check('#settings-panel [name="sounds"]')
    page.click("#settings-panel summary")
    # Count the tones the page makes (Web Audio oscillators started).
    page.evaluate(
        "() => { window.tones = 0; const start = OscillatorNode.prototype.start;"
        " OscillatorNode.prototype.start = function (...a) { window.tones += 1;"
        " return start.apply(this, a); }; }"
    )
    settings = page.evaluate("JSON.parse(localStorage.getItem('cardavia.settings'))")
    assert settings["aiPace"] == "fast" and settings["showPoints"] and settings["autoLast"]
    table.new_game("cardavia")
    view = table.bid_until_play()
    ui = table.strings()["ui"]
    while view["phase"] == "playing" and len(view["hand"]) > 1:
        card = next(a["card"] for a in view["legal"] if a["kind"] == "play")
        page.click(f'#hand .card[data-card="{card}"]')
        page.click("#controls [data-action=confirm]")
        page.wait_for_function("(c) => !window.cardavia.view.hand.includes(c)", arg=card)
        view = table.wait_ready()
        # The line shows the points of the view on screen (the page may already be drawing
        # the next change when the view is read here).
        page.wait_for_function(
            """(line) => {
              const p = window.cardavia.view.points;
              const expected = line.replace('{ns}', p.NS).replace('{ew}', p.EW);
              return document.querySelector('#points-line').textContent === expected;
            }""",
            arg=ui["points_line"],
        )
    # The last card goes by itself: no click.
    page.wait_for_function("window.cardavia.view.phase === 'over'")
    assert page.evaluate("window.tones") > 8  # cards, tricks and South's turns were heard
    page.locator("#score-panel").wait_for(state="visible")
    page.keyboard.press("Escape")
    page.wait_for_function("document.activeElement.dataset.action === 'show-result'")
    # Every trick of the deal, from the last back to the first.
    page.click("#last-trick-toggle")
    assert page.text_content("#trick-n") == ui["trick_n"].format(n=8, total=8)
    for n in range(7, 0, -1):
        page.click("#trick-prev")
        assert page.text_content("#trick-n") == ui["trick_n"].format(n=n, total=8)
        assert page.locator("#trick-review .card").count() == 4
    assert page.is_disabled("#trick-prev")
    page.click("#trick-next")
    assert page.text_content("#trick-n") == ui["trick_n"].format(n=2, total=8)
    assert table.errors == []


def test_court_cards_are_drawn_as_figures(table: Table, screenshots: Path) -> None:
    """Jack, queen and king of the French deck, sota, caballo and rey of the Spanish one: a
    drawn figure in the suit's colour between the corners, not a letter."""
    page = table.open("fr")
    found = page.evaluate(
        """async () => {
          const m = await import('/static/js/cards.js');
          const box = document.createElement('div');
          box.id = 'courts';
          box.className = 'courts-sample';
          document.body.append(box);
          const out = {};
          for (const deck of ['french', 'spanish']) {
            for (const code of ['JS', 'QH', 'KD', 'JC', 'QD', 'KS', 'AH', '9C']) {
              const card = m.makeCard(code, deck);
              box.append(card);
              const figure = card.querySelector('.middle svg.figure');
              out[`${deck}:${code}`] = figure
                ? {figure: true, colour: getComputedStyle(figure).color,
                   suit: getComputedStyle(card).color,
                   paths: figure.querySelectorAll('path').length}
                : {figure: false};
            }
          }
          return out;
        }"""
    )
    for key, seen in found.items():
        court = key.split(":")[1][0] in "JQK"
        assert seen["figure"] is court, key
        if court:
            assert seen["colour"] == seen["suit"], key
            assert seen["paths"] >= 6, key
    page.locator("#courts").screenshot(path=str(screenshots / "court-cards.png"))


# -- issue 19: the table as a newcomer meets it -------------------------------------------

TEAM = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
VIEWPORTS = {"phone": (360, 740), "desktop": (1280, 800)}


def player_outcome(view: dict[str, Any]) -> str:
    """Who won, from the player's side ("won", "lost", "tie"): what the headline's colour
    says."""
    mine = TEAM[view["seat"]]
    result, match = view["result"], view.get("match") or {}
    if match.get("winner"):
        return "won" if match["winner"] == mine else "lost"
    if result["made"] is None:
        return "tie"
    taker = (view.get("contract") or {}).get("taker")
    if taker:
        other = "EW" if TEAM[taker] == "NS" else "NS"
        winner = TEAM[taker] if result["made"] else other
    else:
        winner = "NS" if result["scores"]["NS"] >= result["scores"]["EW"] else "EW"
    return "won" if winner == mine else "lost"


@pytest.mark.parametrize(("lang", "size"), [("fr", "phone"), ("ar", "desktop")])
def test_the_first_screen_explains_itself(table: Table, lang: str, size: str) -> None:
    """Items 3 and 19: a line on how to play here; the chosen rules said in words under their
    menu (and again when another is chosen); the hints setting with the form's others;
    "Play with friends" beside "Deal the cards" (the menu's "Play" holds it); each pace
    says what it does where it is chosen."""
    table.page.set_viewport_size(dict(zip(("width", "height"), VIEWPORTS[size], strict=True)))
    page = table.open(lang)
    assert page.locator("#how-to").is_visible()
    assert len(page.text_content("#how-to") or "") > 30
    for rules in ("coinche", "maghreb", "cardavia"):
        page.select_option("#ng-rules", rules)
        described = page.eval_on_selector(
            "#ng-rules", "s => s.selectedOptions[0].dataset.description"
        )
        assert described and page.text_content("#ng-rules-help") == described
    assert page.locator("#ng-rules-help").is_visible()
    # The hints checkbox is in the form, with the other settings.
    page.locator("#new-game #learn-hints").wait_for()
    # "Play with friends" beside the deal button; the menu marks the page as "Play".
    friends = page.locator("#new-game .form-actions a#friends-link")
    assert friends.get_attribute("href") == f"/{lang}/room/"
    deal, link = page.locator("#deal-button").bounding_box(), friends.bounding_box()
    assert deal and link and abs(deal["y"] - link["y"]) < deal["height"]
    assert page.get_attribute(".site-menu a[aria-current=page]", "href") == f"/{lang}/"
    friends.click()
    page.wait_for_url(f"**/{lang}/room/")
    assert page.get_attribute("html", "lang") == lang
    # The paces, each with what it does.
    page.go_back()
    page.click("#settings-panel summary")
    helps = set()
    for pace in ("slow", "normal", "fast"):
        page.select_option("#set-ai-pace", pace)
        helps.add(page.text_content("#set-ai-pace-help"))
        assert page.locator("#set-ai-pace-help").is_visible()
    assert len(helps) == 3 and all(helps)
    assert table.errors == []


# Every change the page draws, with its time: (ms, bids, cards on the table, tricks done,
# who is to move, the messages already waiting to be drawn).
WATCH_CHANGES = """() => {
  window.changes = [];
  let last = null;
  const tick = () => {
    const c = window.cardavia, v = c && c.view;
    if (v && v !== last) {
      last = v;
      const done = (v.tricks_won ? v.tricks_won.NS + v.tricks_won.EW : 0);
      const plays = v.trick ? (v.trick.plays || v.trick).length : 0;
      window.changes.push(
        [performance.now(), (v.bids || []).length, plays, done, v.to_move, c.pending]);
    }
    requestAnimationFrame(tick);
  };
  tick();
}"""


def computer_gaps(changes: list[list[Any]]) -> tuple[list[float], list[float]]:
    """The pauses after a computer player's card and after a trick a computer player
    finished, from the page's recorded changes of view (see ``WATCH_CHANGES``)."""
    card_gaps, trick_gaps = [], []
    # The pause after a computer player's change: a trick finished (the hold), or a card or
    # a bid (the move); only where the next message had already come (the page's own pause,
    # not the server's answer, slower on a busy machine), and not before South's turn.
    for earlier, change, after in zip(changes, changes[1:], changes[2:], strict=False):
        if change[4] in ("S", None) or earlier[4] in ("S", None) or not change[5]:
            continue
        gap = after[0] - change[0]
        if change[3] > earlier[3]:
            trick_gaps.append(gap)
        elif change[2] == earlier[2] + 1 or change[1] == earlier[1] + 1:
            card_gaps.append(gap)
    return card_gaps, trick_gaps


def pauses_at(table: Table, pace: str) -> tuple[float, float]:
    """The median pause after a computer player's card, and after a finished trick, in a
    deal at ``pace`` (the server sends the moves at once: the page spaces them)."""
    page = table.page
    page.evaluate(
        "(p) => { localStorage.setItem('cardavia.settings', JSON.stringify({aiPace: p}));"
        " localStorage.removeItem('cardavia.game'); }",
        pace,
    )
    # The player's kept settings follow them to every page (static/js/player.js): the pace
    # is kept there too, as the settings panel keeps it, once the page has made the guest.
    # (The guest is made by the page's first settings, or else by this change itself.)
    for _ in range(50):
        if any(c["name"] == "cardavia_player" for c in table.context.cookies()):
            break
        page.wait_for_timeout(100)
    status = page.evaluate(
        """async (p) => (await fetch('/api/me', {method: 'PUT',
             headers: {'Content-Type': 'application/json'},
             body: JSON.stringify({settings: {aiPace: p}})})).status""",
        pace,
    )
    assert status == 200
    page.reload()
    page.evaluate(WATCH_CHANGES)
    table.new_game("cardavia")
    view = table.bid_until_play()
    # At least four of South's cards (the computer players' cards between them), and on
    # until a computer player's trick has been seen too: a deal where South ends or West
    # wins every early trick has none in its first four (and a whole deal may have none:
    # then the next deal).
    card_gaps: list[float] = []
    trick_gaps: list[float] = []
    played = 0
    for _ in range(100):
        if played >= 4 and card_gaps and trick_gaps:
            break
        if view["phase"] != "playing":  # over: the next deal, at the same pace
            page.locator("#score-panel").wait_for(state="visible")
            page.click("#next-deal")
            page.wait_for_function("window.cardavia.view.phase !== 'over'")
            view = table.bid_until_play()
            continue
        card = next(a["card"] for a in view["legal"] if a["kind"] == "play")
        page.click(f'#hand .card[data-card="{card}"]')
        page.click("#controls [data-action=confirm]")
        page.wait_for_function(PLAYED, arg=len(view["hand"]))
        view = table.wait_ready()
        played += 1
        card_gaps, trick_gaps = computer_gaps(page.evaluate("window.changes"))
    assert card_gaps and trick_gaps, page.evaluate("window.changes")
    return sorted(card_gaps)[len(card_gaps) // 2], sorted(trick_gaps)[len(trick_gaps) // 2]


def test_the_three_paces_are_clearly_apart(table: Table) -> None:
    """Item 15: slow, normal and fast, measured in the browser: each computer card and each
    finished trick stays about 1 s and 2 s, 0.5 s and 1 s, 0.2 s and 0.5 s."""
    table.open("fr")
    slow, normal, fast = (pauses_at(table, pace) for pace in ("slow", "normal", "fast"))
    # Each at least its own pause (the server's answer may add a little, never take away).
    for (card, trick), (want_card, want_trick) in zip(
        (slow, normal, fast), ((1000, 2000), (500, 1000), (200, 500)), strict=True
    ):
        assert want_card - 20 <= card <= want_card + 400, (slow, normal, fast)
        assert want_trick - 20 <= trick <= want_trick + 600, (slow, normal, fast)
    assert slow[0] > 1.5 * normal[0] and normal[0] > 1.5 * fast[0], (slow, normal, fast)
    assert slow[1] > 1.5 * normal[1] and normal[1] > 1.5 * fast[1], (slow, normal, fast)
    assert table.errors == []


@pytest.mark.parametrize(("lang", "size"), [("fr", "desktop"), ("ar", "phone")])
def test_the_result_and_the_focus_follow_the_player(table: Table, lang: str, size: str) -> None:
    """Items 12 and 20: the result's headline is coloured by the player's team (green when
    it won the deal, red when it lost), the cards are named by their name alone, the focus
    is on a card the player may play whenever their turn comes, and the result dialog
    keeps Tab and Shift+Tab inside it."""
    table.page.set_viewport_size(dict(zip(("width", "height"), VIEWPORTS[size], strict=True)))
    page = table.open(lang)
    names = table.strings()["names"]["french"]
    table.new_game("cardavia")
    view = table.bid_until_play()
    for _ in range(8):
        if view["phase"] != "playing":
            break
        legal = [a["card"] for a in view["legal"] if a["kind"] == "play"]
        page.wait_for_function(f"({ACTIVE})() === 'hand'")
        focused = page.evaluate("document.activeElement.dataset.card")
        assert focused in legal, (focused, legal)
        accessible = page.evaluate(
            "() => { const b = document.activeElement; return b.textContent.trim() }"
        )
        assert page.get_by_role("button", name=names[focused], exact=True).count() == 1
        assert names[focused] in accessible
        page.keyboard.press("Enter")
        page.keyboard.press("Enter")
        page.wait_for_function(PLAYED, arg=len(view["hand"]))
        view = table.wait_ready()
    page.locator("#score-panel").wait_for(state="visible")
    view = table.view()
    outcome = player_outcome(view)
    assert page.get_attribute("#score-panel", "data-outcome") == outcome
    colour = page.eval_on_selector("#score-title", "h => getComputedStyle(h).color")
    expected = {"won": "rgb(31, 107, 79)", "lost": "rgb(164, 38, 44)"}.get(outcome)
    if expected:
        assert colour == expected
    inside = "document.getElementById('score-panel').contains(document.activeElement)"
    for key in ["Tab"] * 12 + ["Shift+Tab"] * 12:
        page.keyboard.press(key)
        assert page.evaluate(inside), key
    assert table.errors == []


@pytest.mark.parametrize("lang", ["fr", "ar"])
def test_the_shuffle_commitment_is_at_the_table_and_checked(
    table: Table, lang: str, axe: Any
) -> None:
    """Item 18: the hash of the shuffle is shown from the start of the deal; after the end,
    "Check this deal" opens the fairness page with the seed, the hash and the deck, checked
    in the page; a changed hash is found out; the page has no axe violation."""
    page = table.open(lang)
    table.new_game("cardavia")
    view = table.bid_until_play()
    assert view["fair"]["hash"] and not view["fair"]["seed"]
    assert page.locator("#fair-line").is_visible()
    assert page.text_content("#fair-hash") == view["fair"]["hash"]
    assert page.locator("#fair-check").is_hidden()
    table.play_deal()
    page.locator("#score-panel").wait_for(state="visible")
    page.keyboard.press("Escape")
    fair = table.view()["fair"]
    link = page.locator("#fair-check")
    assert link.is_visible()
    link.click()
    page.wait_for_url(f"**/{lang}/rules/fairness?*")
    result = page.locator("#fair-result")
    page.wait_for_function("document.getElementById('fair-result').dataset.ok === 'true'")
    assert result.text_content() == page.get_attribute("#fair-check-form", "data-ok")
    assert page.input_value("#fair-seed") == fair["seed"]
    assert page.input_value("#fair-hash-input") == fair["hash"]
    # A hash the seed does not give is found out; so is a deck that is not the seed's.
    wrong = ("0" if fair["hash"][0] != "0" else "1") + fair["hash"][1:]
    page.fill("#fair-hash-input", wrong)
    page.click("#fair-check-form button[type=submit]")
    page.wait_for_function("document.getElementById('fair-result').dataset.ok === 'false'")
    message = page.get_attribute("#fair-check-form", "data-seed-mismatch")
    assert result.text_content() == message
    page.fill("#fair-hash-input", fair["hash"])
    swapped = [fair["deck"][1], fair["deck"][0], *fair["deck"][2:]]
    page.fill("#fair-deck", " ".join(swapped))
    page.click("#fair-check-form button[type=submit]")
    page.wait_for_function(
        "(m) => document.getElementById('fair-result').textContent === m",
        arg=page.get_attribute("#fair-check-form", "data-deck-mismatch"),
    )
    assert page.text_content("#fair-deck-out") == " ".join(fair["deck"])
    assert axe(page) == []
    assert table.errors == []
