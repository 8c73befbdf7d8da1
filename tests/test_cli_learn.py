"""``cardavia analyse`` and ``cardavia verify-deal``."""

from __future__ import annotations

import random
from pathlib import Path

from typer.testing import CliRunner

from cardavia.ai import find_player
from cardavia.ai.player import play_deal
from cardavia.belote import DealState, Seat, find_rules
from cardavia.belote.cards import card_code
from cardavia.belote.fair import deck_from_seed, seed_hash
from cardavia.belote.notation import Record, write_record
from cardavia.cli import app

runner = CliRunner()


def test_verify_deal_accepts_the_revealed_seed_and_catches_tampering(tmp_path: Path) -> None:
    seed = random.Random(4).randbytes(32)
    deck = deck_from_seed(seed)
    codes = " ".join(card_code(c) for c in deck)
    ok = runner.invoke(app, ["verify-deal", seed.hex(), seed_hash(seed), "--deck", codes])
    assert ok.exit_code == 0, ok.output
    assert f"Deck: {codes}" in ok.output and "OK" in ok.output
    tampered = " ".join(card_code(c) for c in (deck[1], deck[0], *deck[2:]))
    bad = runner.invoke(app, ["verify-deal", seed.hex(), seed_hash(seed), "--deck", tampered])
    assert bad.exit_code == 1 and "FAILED" in bad.output
    wrong = runner.invoke(app, ["verify-deal", seed.hex(), seed_hash(bytes(32))])
    assert wrong.exit_code == 1 and "hash shown" in wrong.output
    # The deck of a recorded deal dealt from the seed.
    state = DealState.from_deck(find_rules("coinche"), dealer=Seat.W, deck=deck)
    path = tmp_path / "deal.txt"
    path.write_text(write_record(Record.from_deal(state)), encoding="utf-8")
    from_record = runner.invoke(
        app, ["verify-deal", seed.hex(), seed_hash(seed), "--record", str(path)]
    )
    assert from_record.exit_code == 0, from_record.output


def test_analyse_prints_every_card_and_the_moments(tmp_path: Path) -> None:
    rules = find_rules("coinche")
    club = find_player("club")
    state = play_deal(
        DealState.deal(rules, dealer=Seat.W, rng=random.Random(3)), [club] * 4, random.Random(3)
    )
    assert state.contract is not None
    path = tmp_path / "deal.txt"
    path.write_text(write_record(Record.from_deal(state)), encoding="utf-8")
    result = runner.invoke(app, ["analyse", str(path), "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"Contract {state.contract}")
    assert "Moments of the deal" in result.output
    assert result.output.count("forced") + result.output.count(" best") >= 10
    missing = runner.invoke(app, ["analyse", str(tmp_path / "none.txt")])
    assert missing.exit_code == 1
