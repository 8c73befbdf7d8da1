"""The deal record (cardavia.belote.notation): text and JSON round trips, golden files,
replays to the same scores, and errors that name the line and the problem.

The golden files under ``tests/data/records/`` are real records (one per preset, with a
cancelled deal, coinche and surcoinche, announcements, belote, a litige and a deal in play);
each must read and be written back byte for byte.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from cardavia.belote import (
    Card,
    CardSet,
    Coinche,
    Contract,
    DealState,
    Phase,
    Play,
    Rules,
    Seat,
    Strain,
    Surcoinche,
    find_rules,
)
from cardavia.belote.match import Match
from cardavia.belote.notation import (
    DealRecord,
    Record,
    RecordError,
    read_record,
    write_record,
)

RECORDS = Path(__file__).resolve().parent.parent / "data" / "records"
GOLDEN = sorted(RECORDS.glob("*.txt"))

RULE_SETS: tuple[Rules, ...] = (
    find_rules("cardavia"),
    find_rules("maison"),
    find_rules("coinche"),
    find_rules("maghreb"),
    find_rules("cardavia").replace(
        round2_contracts=True, belote_declaration="declared", target=501
    ),
    find_rules("maison").replace(tie="made", target=None),
    find_rules("coinche").replace(
        coinche_any_time=True,
        auction_contracts=True,
        top_bids="generale",
        auction_packets="4-4",
        rounding="exact",
        target=501,
    ),
    find_rules("maghreb").replace(announcements=False, capot_points=250, first_packets="2-3"),
    # The coinche preset played by house habits (docs/rules-decisions.md).
    find_rules("coinche").replace(
        outbid_after_coinche=True,
        contract_must_beat_defence=False,
        overtrump_when_trumping_partner=True,
        capot_points=252,
    ),
)
SEEDS = range(3)


def random_match(rules: Rules, seed: int, *, stop: int | None = None) -> Match:
    """A match played with random legal actions (flags included), to its end or until
    ``stop`` actions have been made."""
    rng = random.Random(seed)
    match = Match.start(rules, dealer=Seat(seed % 4), rng=rng)
    made = 0
    while not match.is_over and (stop is None or made < stop):
        if match.deal.is_over:
            match = match.next_deal(rng=rng)
        else:
            match = match.apply(rng.choice(match.deal.legal_actions))
            made += 1
    return match


def golden(name: str) -> str:
    return (RECORDS / name).read_text(encoding="utf-8")


# -- round trips ----------------------------------------------------------------------------


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.name)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_matches_round_trip(rules: Rules, seed: int) -> None:
    # Every third match stops in the middle of a deal: a record of a game in play.
    stop = 40 + 23 * seed if seed % 3 == 1 else None
    match = random_match(rules, seed, stop=stop)
    record = Record.from_match(match)

    text = write_record(record)
    assert read_record(text) == record
    assert write_record(read_record(text)) == text

    as_json = record.to_json()
    assert Record.from_json(as_json) == record
    assert Record.from_json(as_json).to_json() == as_json

    replayed = record.replay()
    assert replayed == match
    assert replayed.scores == match.scores
    assert replayed.winner == match.winner
    assert [d.result for d in replayed.deals] == [d.result for d in match.deals]


def test_knobs_are_written_and_read() -> None:
    rules = find_rules("maison").replace(tie="made", target=None, capot_points=250)
    text = write_record(Record.from_match(random_match(rules, 5)))
    assert text.startswith(
        '[Rules "maison"]\n[Knob tie "made"]\n[Knob capot_points "250"]\n[Knob target "none"]\n\n'
    )
    assert read_record(text).rules == rules


def test_record_of_one_deal() -> None:
    state = DealState.deal(find_rules("coinche"), dealer=Seat.S, rng=random.Random(11))
    rng = random.Random(12)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions))
    record = Record.from_deal(state)
    assert record.deals == (DealRecord(Seat.S, state.deck, state.history),)
    assert read_record(write_record(record)) == record
    assert record.replay().deal == state


def test_fresh_deal_records_an_empty_bidding() -> None:
    state = DealState.deal(find_rules("maison"), dealer=Seat.N, rng=random.Random(2))
    text = write_record(Record.from_deal(state))
    assert "\nBidding:\nScore: unfinished\n" in text
    assert read_record(text).replay().deal == state


def test_rules_name_is_put_in_the_form_read_back() -> None:
    back_to_preset = find_rules("maison").replace(tie="made").replace(tie="litige")
    assert back_to_preset.name == "maison"
    deck = tuple(range(32))
    record = Record(back_to_preset, (DealRecord(Seat.W, deck),))
    assert record.rules.name == "maison"
    assert read_record(write_record(record)) == record


def test_reading_is_lenient_where_it_can_be() -> None:
    """Comments, blank lines, case, spacing and the derived lines left out: the same record,
    and the canonical text again when it is written back."""
    text = golden("maison.txt")
    loose = ["# a club night, table 3", ""]
    for line in text.splitlines():
        if line.startswith(("Turned:", "Hands:", "Contract:", "Total:", "Winner:")):
            continue
        if line.startswith("Bidding:"):
            line = line.replace(", ", " ,  ").lower()
        loose.append(line + "   # noted by hand" if line.startswith("Trick") else line)
        loose.append("")
    record = read_record("\r\n".join(loose))
    assert record == read_record(text)
    assert write_record(record) == text


# -- golden files ---------------------------------------------------------------------------


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_records_rewrite_byte_for_byte(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    record = read_record(text)
    assert write_record(record) == text
    assert Record.from_json(record.to_json()) == record


def test_golden_files_cover_the_record() -> None:
    assert {p.stem for p in GOLDEN} == {"cardavia", "maison", "coinche", "maghreb"}
    matches = {p.stem: read_record(p.read_text(encoding="utf-8")).replay() for p in GOLDEN}
    actions = {name: [a for d in m.deals for a in d.history] for name, m in matches.items()}

    # A cancelled deal at a single-deal table, then the new deal offered.
    cardavia = matches["cardavia"]
    assert [d.phase for d in cardavia.deals] == [Phase.CANCELLED, Phase.OVER]
    assert cardavia.deals[1].belote_events
    # Coinche and surcoinche; a cancelled auction; a deal in play, stopped in a trick.
    coinche = matches["coinche"]
    assert any(isinstance(a, Coinche) for a in actions["coinche"])
    assert any(isinstance(a, Surcoinche) for a in actions["coinche"])
    assert any(d.contract is not None and d.contract.coinche == 2 for d in coinche.deals)
    assert any(d.phase is Phase.CANCELLED for d in coinche.deals)
    assert coinche.deal.phase is Phase.PLAYING and coinche.deal.trick
    # Announcements, declared belote, a litige and its reserve.
    maison = matches["maison"]
    assert any(isinstance(a, Play) and a.announce for a in actions["maison"])
    assert any(isinstance(a, Play) and a.belote for a in actions["maison"])
    assert any(d.result is not None and d.result.made is None for d in maison.deals)
    assert maison.winner is not None
    # Knobs changed from the preset.
    assert matches["maghreb"].rules.differences() == {"tie": "failed", "target": 501}
    assert any(
        d.result is not None and d.result.announcement_winner is not None
        for d in matches["maghreb"].deals
    )


def test_golden_json_is_the_same_record() -> None:
    as_json = golden("coinche.json")
    record = Record.from_json(as_json)
    assert record == read_record(golden("coinche.txt"))
    assert record.to_json() == as_json


# -- bad records ----------------------------------------------------------------------------


def set_line(number: int, new: str) -> Callable[[str], str]:
    """An edit that replaces line ``number`` (1-based)."""

    def edit(text: str) -> str:
        lines = text.split("\n")
        lines[number - 1] = new
        return "\n".join(lines)

    return edit


def sub_line(number: int, old: str, new: str) -> Callable[[str], str]:
    """An edit that replaces ``old`` by ``new`` in line ``number``."""

    def edit(text: str) -> str:
        lines = text.split("\n")
        assert old in lines[number - 1], (old, lines[number - 1])
        lines[number - 1] = lines[number - 1].replace(old, new, 1)
        return "\n".join(lines)

    return edit


def insert_line(number: int, new: str) -> Callable[[str], str]:
    def edit(text: str) -> str:
        lines = text.split("\n")
        lines.insert(number - 1, new)
        return "\n".join(lines)

    return edit


def chain(*edits: Callable[[str], str]) -> Callable[[str], str]:
    """The edits one after the other."""

    def edit(text: str) -> str:
        for each in edits:
            text = each(text)
        return text

    return edit


def cut_from(number: int) -> Callable[[str], str]:
    """An edit that keeps the lines before ``number``."""
    return lambda text: "\n".join(text.split("\n")[: number - 1]) + "\n"


# (golden file, edit, line of the error, words of the message)
BAD_TEXT: list[tuple[str, Callable[[str], str], int, str]] = [
    # Tags.
    ("maison.txt", insert_line(2, '[Event "club night"]'), 2, "unknown tag 'Event'"),
    ("maison.txt", insert_line(2, '[Knob tiee "made"]'), 2, "unknown rules knob 'tiee'"),
    ("maison.txt", insert_line(2, '[Knob tie "maybe"]'), 2, "'maybe' is not one of"),
    ("maison.txt", insert_line(2, '[Knob announcements "yes"]'), 2, "not true or false"),
    ("maison.txt", insert_line(2, '[Knob target "soon"]'), 2, "'soon' is not a number"),
    ("maison.txt", insert_line(2, '[Knob name "x"]'), 2, "given by the Rules tag"),
    ("maghreb.txt", insert_line(3, '[Knob tie "made"]'), 3, "'tie' is given twice"),
    ("maison.txt", insert_line(2, "[Knob tie made]"), 2, "cannot read the tag"),
    ("maison.txt", set_line(1, '[Rules "poker"]'), 1, "unknown rules 'poker'"),
    ("maison.txt", insert_line(2, '[Rules "maison"]'), 2, "the Rules tag is given twice"),
    ("maison.txt", set_line(1, ""), 3, "expected the Rules tag"),
    # The deal's own lines.
    ("maison.txt", set_line(3, "Deal 2"), 3, "expected Deal 1, found Deal 2"),
    ("maison.txt", set_line(4, "Dealer: X"), 4, "unknown seat 'X'"),
    ("maison.txt", set_line(22, "Dealer: S"), 22, "the dealer is N, the previous dealer's next"),
    ("maison.txt", sub_line(5, "JC QH", "JC ZZ"), 5, "unknown card code 'ZZ'"),
    ("maison.txt", sub_line(5, "JC QH", "JC"), 5, "32 cards once each: it has 31, QH missing"),
    ("maison.txt", sub_line(5, "JC QH", "JC JC"), 5, "JC more than once, QH missing"),
    ("maison.txt", set_line(5, "Bidding: N pass"), 5, "expected the 'Deck:' line"),
    ("maison.txt", set_line(6, "Turned: JH"), 6, "the deck turns the 9D"),
    ("coinche.txt", insert_line(6, "Turned: JH"), 6, "no turned card at auction tables"),
    ("maison.txt", sub_line(7, "N: KS AS", "N: TS AS"), 7, "deals N KS AS QH 9D TC JC QC AC, not"),
    ("maison.txt", sub_line(7, "N: KS AS", "N: KS KS"), 7, "given twice in N's hand"),
    ("maison.txt", sub_line(7, ", W: 7S JS QS 7H 8D QD KD 7C", ""), 7, "no hand for W"),
    ("maison.txt", sub_line(7, "Hands: N:", "Hands: X N:"), 7, "cannot read the hands"),
    ("maison.txt", set_line(9, "Contract: N H"), 9, "ends in the contract N C, not 'N H'"),
    (
        "maison.txt",
        set_line(4, "Dealer: W\nFoo: bar"),
        5,
        "expected the 'Deck:' line, found 'Foo: bar'",
    ),
    # Actions that do not parse, or that the rules refuse.
    ("maison.txt", sub_line(8, "N pass", "N flub"), 8, "unknown card code 'flub'"),
    ("maison.txt", sub_line(8, "E pass, ", "E pass,, "), 8, "missing between two commas"),
    ("maison.txt", sub_line(26, "S take S", "S take H"), 26, "S take H: in the first round"),
    ("maison.txt", sub_line(8, "N pass", "E pass"), 8, "E pass: it is N's turn, not E's"),
    ("maison.txt", sub_line(8, "N take C", "N take C, E 7H"), 8, "E 7H: cards are played"),
    ("maison.txt", sub_line(11, "W KD", "W 7C"), 11, "W 7C: you must follow suit: diamonds"),
    ("maison.txt", sub_line(11, "S TD, W KD", "W KD, S TD"), 11, "it is S's turn, not W's"),
    ("maison.txt", sub_line(11, "W KD", "W AH"), 11, "the ace of hearts is not in W's hand"),
    ("maison.txt", sub_line(11, "E 7D", "E 7D +announce"), 11, "with one's first card only"),
    ("maison.txt", sub_line(11, "E 7D", "E pass"), 11, "E pass: only cards are played"),
    ("cardavia.txt", sub_line(19, "E 8D", "E 8D +belote"), 19, "belote is announced automatic"),
    ("coinche.txt", sub_line(49, "E bid 90 D", "E bid 80 D"), 49, "higher than 80"),
    ("coinche.txt", sub_line(32, "E coinche", "E surcoinche"), 32, "only the bidding team"),
    # Tricks.
    ("maison.txt", sub_line(11, ", N 9D", ""), 11, "trick 2 names 3 cards, not 4"),
    ("maison.txt", sub_line(11, ", N 9D", ", N 9D, E 8H"), 11, "trick 2 names 5 cards, not 4"),
    ("maison.txt", sub_line(17, ", E AD", ""), 17, "trick 8 names 3 cards, not 4"),
    ("maison.txt", sub_line(11, "Trick 2", "Trick 3"), 11, "expected Trick 2, found Trick 3"),
    ("maison.txt", sub_line(8, ", N take C", ""), 9, "there is no contract: it is N's turn"),
    (
        "maison.txt",
        chain(sub_line(8, ", N take C", ""), sub_line(9, "Contract: N C", "")),
        10,
        "the bidding is not over: it is N's turn to bid",
    ),
    ("maison.txt", insert_line(18, "Trick 9: N 7S"), 18, "its eight tricks are played"),
    ("cardavia.txt", insert_line(9, "Trick 1: N 7S"), 9, "the deal is cancelled: it has no"),
    ("cardavia.txt", insert_line(9, "Contract: N S"), 9, "there is no contract"),
    # The result.
    ("maison.txt", set_line(18, "Score: NS 186, EW 16 (made)"), 18, "the replay scores the deal"),
    ("maison.txt", set_line(18, "Score: unfinished"), 18, "the deal is over: the replay scores"),
    ("maison.txt", cut_from(17), 16, "the record ends where 'Trick 8:' or 'Score:' is expected"),
    ("maison.txt", set_line(17, "Score: NS 1, EW 1"), 17, "the deal is not over (it is S's turn"),
    ("maison.txt", set_line(19, "Total: NS 185, EW 18"), 19, "the replay's total is NS 185, EW 17"),
    ("maison.txt", set_line(91, "Total: NS 686, EW 123"), 91, "NS 686, EW 123, reserve 101"),
    ("maison.txt", insert_line(20, "Winner: NS"), 20, "no team has won the match yet"),
    ("cardavia.txt", sub_line(29, "EW", "NS"), 29, "EW won the match, not 'NS'"),
    ("cardavia.txt", set_line(29, "Winner: EW\n\nDeal 3"), 31, "the match is over: EW won it"),
    ("coinche.txt", set_line(53, "Score: unfinished\n\nDeal 5"), 55, "the deal before is not over"),
    ("coinche.txt", insert_line(54, "Total: NS 1130, EW 240"), 54, "a deal in play has no total"),
    ("maison.txt", lambda t: t.replace("Score: NS 185", "Scor: NS 185"), 18, "found 'Scor: NS"),
]


@pytest.mark.parametrize(
    ("name", "edit", "line", "words"), BAD_TEXT, ids=[case[3][:40] for case in BAD_TEXT]
)
def test_bad_text_names_the_line_and_the_problem(
    name: str, edit: Callable[[str], str], line: int, words: str
) -> None:
    text = edit(golden(name))
    with pytest.raises(RecordError) as caught:
        read_record(text)
    assert caught.value.line == line, str(caught.value)
    assert words in caught.value.problem
    assert str(caught.value) == f"line {line}: {caught.value.problem}"


def test_the_error_message_of_an_illegal_card() -> None:
    text = sub_line(11, "W KD", "W 7C")(golden("maison.txt"))
    with pytest.raises(RecordError, match=r"^line 11: W 7C: you must follow suit: diamonds$"):
        read_record(text)


def test_an_empty_record() -> None:
    with pytest.raises(RecordError) as caught:
        read_record("# nothing here\n\n")
    assert caught.value.line == 2
    assert "the record is empty" in str(caught.value)
    with pytest.raises(RecordError, match="line 1: the record ends where 'Deal 1' is expected"):
        read_record('[Rules "maison"]')


def json_edit(old: str, new: str) -> Callable[[str], str]:
    def edit(text: str) -> str:
        assert old in text, old
        return text.replace(old, new, 1)

    return edit


BAD_JSON: list[tuple[Callable[[str], str], int | None, str]] = [
    (json_edit('"format"', "format"), 2, "not JSON"),
    (json_edit("cardavia-record/1", "cardavia-record/9"), None, "the format is"),
    (json_edit('"name": "coinche"', '"name": "coinche", "tiee": 1'), None, "knob 'tiee'"),
    (json_edit('"name": "coinche"', '"name": "coinche", "target": "2000"'), None, "not a number"),
    (json_edit('"dealer": "W"', '"dealer": "X"'), None, "deal 1: unknown seat 'X'"),
    (json_edit('"dealer": "W"', '"dealr": "W"'), None, "deal 1 has no 'dealer'"),
    (json_edit('"deck": ["QD"', '"deck": ["QQ"'), None, "deal 1: unknown card code 'QQ'"),
    (json_edit('"deck": ["QD", ', '"deck": ['), None, "deal 1: the deck must hold the 32"),
    (
        json_edit('"N bid 80 C"', '"N bid 80"'),
        None,
        "deal 1, action 1: 'bid' is written",
    ),
    (json_edit('"E bid 90 D"', '"E bid 70 D"'), None, "deal 1, action 2: E bid 70 D: 70 D is"),
    (
        json_edit('"NS": 30, "EW": 240}, "total"', '"NS": 31, "EW": 240}, "total"'),
        None,
        'deal 1: the replay gives the score {"NS": 30, "EW": 240}',
    ),
    (json_edit('"outcome": "made"', '"outcome": "failed"'), None, "the outcome"),
    (json_edit('"winner": null}', '"winner": null, "extra": 1}'), None, "unknown key 'extra'"),
    (json_edit('"dealer": "N"', '"dealer": "E"'), None, "deal 2: the dealer is N"),
]


@pytest.mark.parametrize(("edit", "line", "words"), BAD_JSON, ids=[c[2][:40] for c in BAD_JSON])
def test_bad_json_names_the_problem(
    edit: Callable[[str], str], line: int | None, words: str
) -> None:
    with pytest.raises(RecordError) as caught:
        Record.from_json(edit(golden("coinche.json")))
    assert caught.value.line == line, str(caught.value)
    assert words in str(caught.value)


def test_an_illegal_record_cannot_be_written_or_replayed() -> None:
    record = read_record(golden("maison.txt"))
    first = record.deals[0]
    actions = list(first.actions)
    actions[2], actions[3] = actions[3], actions[2]
    bad = Record(record.rules, (dataclasses.replace(first, actions=tuple(actions)),))
    for attempt in (bad.replay, bad.to_json, lambda: write_record(bad)):
        with pytest.raises(
            RecordError, match=r"^deal 1, action 3: W pass: it is S's turn, not W's$"
        ):
            attempt()


# -- values and purity ----------------------------------------------------------------------


def test_records_are_immutable_values() -> None:
    deck: list[Card] = list(range(32))
    deal = DealRecord(Seat.W, deck)  # type: ignore[arg-type]
    assert deal.deck == tuple(range(32)) and hash(deal) == hash(DealRecord(Seat.W, tuple(deck)))
    record = Record(find_rules("maison"), (deal,))
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.deals = ()  # type: ignore[misc]
    with pytest.raises(ValueError, match="at least one deal"):
        Record(find_rules("maison"), ())
    with pytest.raises(ValueError, match="32 cards once each"):
        DealRecord(Seat.W, tuple(range(31)))


def test_a_position_without_a_deck_has_no_record() -> None:
    state = DealState.from_position(
        find_rules("maison"),
        contract=Contract(Seat.N, Strain.HEARTS),
        hands=[CardSet.parse("JH"), CardSet.parse("7S"), CardSet.parse("8S"), CardSet.parse("9S")],
    )
    with pytest.raises(ValueError, match="without a deck"):
        Record.from_deal(state)


def test_reading_and_writing_change_nothing() -> None:
    match = random_match(find_rules("maison"), 8)
    before = (match, hash(match.deal.history))
    record = Record.from_match(match)
    text = write_record(record)
    assert (match, hash(match.deal.history)) == before
    # A failed read leaves nothing behind: the next reads give the same record.
    with pytest.raises(RecordError):
        read_record(text.replace("Deal 2", "Deal 9"))
    assert read_record(text) == read_record(text) == record
    assert record.replay() == record.replay() == match
    assert write_record(record) == text
