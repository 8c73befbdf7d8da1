"""A tournament deal's contract in the reader's words (web/tournaments.py): "carreau (Ouest)",
as the problems write a contract, so that the par's sentence has one colon, not two
("…à votre place : Ouest : carreau, écart +162" was the native reading's finding)."""

from __future__ import annotations

import pytest

from cardavia.web.tournaments import contract_words
from cardavia.words import LANGUAGES, load_catalogs

PAR = "The computer players' own result from your seat: {contract}, margin {margin}."


def test_a_contract_names_its_taker_in_brackets() -> None:
    fr, en = load_catalogs().wording("fr"), load_catalogs().wording("en")
    assert contract_words("W D", fr) == "carreau (Ouest)"
    assert contract_words("S 110 H coinche", en) == "110 hearts (South) · Coinche"
    assert contract_words("pass", en) == "Everybody passed"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_par_sentence_has_one_colon(lang: str) -> None:
    wording = load_catalogs().wording(lang)
    sentence = wording.gettext(PAR, contract=contract_words("W D", wording), margin="+162")
    assert sentence.count(":") == 1, sentence
