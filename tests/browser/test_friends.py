"""Friends in Chromium (docs/players.md, "Friends"): Ana (French, desktop) and Bo (Arabic,
phone) meet in a room; Ana asks Bo from his name there, Bo accepts on his friends page, and
each then sees the other among their friends; Ana's friend link, opened by a visitor with
no player yet, asks her too. axe-core finds nothing wrong on the pages, at both sizes."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Browser, expect
from tests.browser.conftest import HIDDEN_AND_COUNTED, shot

from cardavia.words import load_catalogs

if TYPE_CHECKING:
    from conftest import Server, Table

pytestmark = pytest.mark.browser

PHONE, DESKTOP = {"width": 360, "height": 740}, {"width": 1280, "height": 800}
SHOTS = Path("/tmp/shots-friends")


@pytest.fixture
def two(browser: Browser, server: Server, make_table: type[Table]) -> Iterator[list[Table]]:
    tables = []
    for lang, size in (("fr", DESKTOP), ("ar", PHONE)):
        context = browser.new_context(
            bypass_csp=True, viewport=size, reduced_motion="reduce", locale=lang
        )
        tables.append(make_table(context, server.url))
    yield tables
    for table in tables:
        table.context.close()


def look(table: Table, name: str, axe: Any) -> None:
    """Photographed at both sizes, axe-core clean at each."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        table.page.set_viewport_size(viewport)
        shot(table.page, SHOTS / f"{name}-{size}.jpg", full_page=True)
        assert axe(table.page) == [], name


def new_room(table: Table, server: Server) -> str:
    """Ana's new room (French): its code."""
    table.page.goto(f"{server.url}/fr/room/")
    table.page.fill("#rc-name", "Ana")
    table.page.click("#room-create-button")
    table.page.wait_for_url(re.compile(r"/fr/room/[A-Z]{5}$"))
    return table.page.url.rsplit("/", 1)[1]


def meet(ana: Table, bo: Table, server: Server) -> str:
    """Ana's room, Bo (Arabic) seated in it too: its code."""
    code = new_room(ana, server)
    bo.page.goto(f"{server.url}/ar/room/{code}")
    bo.page.fill("#rj-name", "Bo")
    bo.page.click("#room-join-button")
    ana.page.wait_for_selector("#room-seats li bdi:text('Bo')")
    return code


def test_two_players_become_friends_from_a_room_and_by_a_link(
    two: list[Table], browser: Browser, server: Server, axe: Any
) -> None:
    ana, bo = two
    fr, ar = load_catalogs().wording("fr"), load_catalogs().wording("ar")
    meet(ana, bo, server)

    # Ana asks Bo from his name in the room.
    ask = ana.page.get_by_role(
        "button", name=fr.gettext("Add as a friend: {name}").replace("{name}", "Bo")
    )
    ask.click()
    said = fr.gettext("Request sent to {name}: you will be friends once it is accepted.")
    expect(ana.page.locator("#room-safety-status")).to_have_text(said.replace("{name}", "Bo"))
    done = fr.gettext("Request sent: {name}").replace("{name}", "Bo")
    expect(ana.page.get_by_role("button", name=done)).to_be_disabled()

    # Bo accepts on his friends page.
    bo.page.goto(f"{server.url}/ar/me/friends")
    expect(bo.page.get_by_role("heading", name=ar.gettext("Friend requests"))).to_be_visible()
    look(bo, "requests-ar", axe)
    bo.page.get_by_role("button", name=ar.gettext("Accept {name}").replace("{name}", "Ana")).click()
    accepted = ar.gettext("{name} is now one of your friends.").replace("{name}", "Ana")
    expect(bo.page.locator("#friends-status")).to_have_text(accepted)

    # Each sees the other among their friends.
    for table, lang, other in ((ana, "fr", "Bo"), (bo, "ar", "Ana")):
        table.page.goto(f"{server.url}/{lang}/me/friends")
        expect(table.page.locator("#friends-friends .friend-name")).to_have_text([other])
    look(ana, "friends-fr", axe)

    # Ana's friend link, opened by a visitor with no player yet.
    ana.page.get_by_role("button", name=fr.gettext("Make my link")).click()
    link = ana.page.locator("#friend-link")
    expect(link).to_be_visible()
    url = link.input_value()
    assert re.fullmatch(rf"{re.escape(server.url)}/fr/friend/[\w-]+", url), url
    visitor = browser.new_context(bypass_csp=True, viewport=PHONE, locale="fr")
    try:
        page = visitor.new_page()
        page.goto(url)
        heading = fr.gettext("{name} would like to be your friend on Cardavia.")
        expect(page.get_by_role("heading", level=1)).to_have_text(heading.replace("{name}", "Ana"))
        assert axe(page) == []
        page.get_by_role("button", name=fr.gettext("Add as a friend")).click()
        expect(page.locator("#friends-status")).to_have_text(
            fr.gettext("Request sent: you will be friends once it is accepted.")
        )
    finally:
        visitor.close()
    ana.page.reload()
    expect(ana.page.locator("#friends-asking .friend-name")).to_have_text([fr.gettext("a player")])


def test_a_friend_online_is_invited_to_a_room_in_one_click(
    two: list[Table], server: Server, axe: Any
) -> None:
    """Ana and Bo, friends, each with a page open: Bo is shown online on Ana's friends page
    and in her new room, where one click invites him; the invitation shows at the top of
    Bo's page, and "Join" takes him into the room."""
    ana, bo = two
    fr, ar = load_catalogs().wording("fr"), load_catalogs().wording("ar")
    meet(ana, bo, server)
    add = ana.page.get_by_role(
        "button", name=fr.gettext("Add as a friend: {name}").replace("{name}", "Bo")
    )
    add.click()
    bo.page.wait_for_selector("#room-seats li bdi:text('Ana')")
    bo.page.get_by_role(
        "button", name=ar.gettext("Add as a friend: {name}").replace("{name}", "Ana")
    ).click()
    expect(bo.page.locator("#room-safety-status")).not_to_be_empty()

    # Bo reads the rules (a page that says he is on the site); Ana sees him online.
    bo.page.goto(f"{server.url}/ar/rules/")
    ana.page.goto(f"{server.url}/fr/me/friends")
    expect(ana.page.locator("#friends-friends .friend-where")).to_have_text([fr.gettext("online")])

    # Ana's new room: Bo online, invited in one click.
    room = new_room(ana, server)
    invite = ana.page.get_by_role(
        "button", name=fr.gettext("Invite {name}").replace("{name}", "Bo")
    )
    invite.click()
    invited = fr.gettext("{name} is invited: the invitation shows on their pages.")
    expect(ana.page.locator("#room-invite-status")).to_have_text(invited.replace("{name}", "Bo"))
    look(ana, "invite-fr", axe)

    # A page of Bo's hidden from its start (another tab in front), Bo letting the site
    # notify: the invitation is a system notification too, in his page's language.
    bo.context.grant_permissions(["notifications"], origin=server.url)
    hidden = bo.context.new_page()
    hidden.add_init_script(HIDDEN_AND_COUNTED)
    hidden.goto(f"{server.url}/ar/rules/scoring")
    hidden.wait_for_function("window.notes.length > 0")
    (note,) = hidden.evaluate("window.notes")
    said = ar.gettext("{name} invites you to their room.").replace("{name}", "Ana")
    assert (note["title"], note["body"], note["lang"]) == ("Cardavia", said, "ar")
    hidden.close()

    # Bo's page hears it at its next word (a new page: at once).
    bo.page.reload()
    banner = bo.page.locator("#friend-invites .friend-invite")
    expect(banner).to_contain_text(
        ar.gettext("{name} invites you to their room.").replace("{name}", "Ana")
    )
    look(bo, "invited-ar", axe)
    bo.page.get_by_role("link", name=ar.gettext("Join")).click()
    bo.page.wait_for_url(f"{server.url}/ar/room/{room}")
    bo.page.reload()
    expect(bo.page.locator("#friend-invites .friend-invite")).to_have_count(0)
