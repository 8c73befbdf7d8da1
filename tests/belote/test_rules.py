"""Rule sets: the knobs, the four presets (docs/rules.md 10), find_rules, replace,
as_dict/from_dict.

The knob names are those of docs/rules-decisions.md ("Knob names").
"""

from __future__ import annotations

import dataclasses

import pytest

from cardavia.belote import FRENCH, PRESETS, SPANISH, Rules, find_rules
from cardavia.belote.rules import KNOBS, MATCH_TARGETS

# docs/rules-decisions.md, "Knob names", in the order of its table.
DOCUMENTED_KNOBS = [
    "name",
    "deck",
    "bidding",
    "first_packets",
    "auction_packets",
    "round2_contracts",
    "auction_contracts",
    "top_bids",
    "coinche_any_time",
    "outbid_after_coinche",
    "overtrump_partner_on_trump_lead",
    "must_trump_partner",
    "overtrump_when_trumping_partner",
    "undertrump",
    "no_trump_points",
    "all_trump_points",
    "announcements",
    "belote_declaration",
    "belote_on_failure",
    "belote_counts_for_contract",
    "belote_in_all_trump",
    "tie",
    "capot_points",
    "contract_must_beat_defence",
    "failed_base",
    "rounding",
    "target",
]

# Knobs on which docs/rules.md 10 gives every preset the same value (and the defaults
# of docs/rules.md
# 3-8 where the table is silent).
COMMON = {
    "first_packets": "3-2",
    "auction_packets": "3-2-3",
    "round2_contracts": False,
    "auction_contracts": False,
    "top_bids": "capot",
    "coinche_any_time": False,
    "outbid_after_coinche": False,  # "—" at classic tables, off at coinche ones (FFB)
    "overtrump_partner_on_trump_lead": True,
    "must_trump_partner": False,
    "no_trump_points": "scaled",
    "all_trump_points": "scaled",
    "belote_counts_for_contract": True,
    "belote_in_all_trump": False,
    "contract_must_beat_defence": True,  # "—" at classic tables, on at coinche ones (FFB)
    "failed_base": 160,
}

# docs/rules.md 10, column by column.
EXPECTED = {
    "cardavia": {
        "deck": "french",
        "bidding": "classic",
        "undertrump": "required",
        "announcements": False,
        "belote_declaration": "automatic",
        "belote_on_failure": "to_defenders",
        "tie": "made",
        "capot_points": 252,
        "overtrump_when_trumping_partner": True,
        "rounding": "exact",
        "target": None,
    },
    "maison": {
        "deck": "french",
        "bidding": "classic",
        "undertrump": "required",
        "announcements": True,
        "belote_declaration": "declared",
        "belote_on_failure": "kept",
        "tie": "litige",
        "capot_points": 252,
        "overtrump_when_trumping_partner": True,
        "rounding": "exact",
        "target": 1000,
    },
    "coinche": {
        "deck": "french",
        "bidding": "auction",
        "undertrump": "optional",
        "announcements": False,
        "belote_declaration": "declared",
        "belote_on_failure": "kept",
        "capot_points": 250,  # FFB: "250 points si capot réalisé, même non demandé"
        "overtrump_when_trumping_partner": False,  # FFB contrée 2016, 5.2.3
        "rounding": "nearest_ten",  # docs/rules-decisions.md: "The coinche preset rounds"
        "target": 2000,
    },
    "maghreb": {
        "deck": "spanish",
        "bidding": "classic",
        "undertrump": "required",
        "announcements": True,
        "belote_declaration": "declared",
        "belote_on_failure": "kept",
        "tie": "litige",
        "capot_points": 252,
        "overtrump_when_trumping_partner": True,
        "rounding": "exact",
        "target": 1000,
    },
}


def test_knob_names_are_the_documented_ones() -> None:
    """docs/rules-decisions.md: both implementations read the knobs by these names."""
    assert list(KNOBS) == DOCUMENTED_KNOBS
    assert list(find_rules("maison").as_dict()) == DOCUMENTED_KNOBS


def test_the_four_presets() -> None:
    """docs/rules.md 10: cardavia, maison, coinche, maghreb."""
    assert set(PRESETS) == {"cardavia", "maison", "coinche", "maghreb"}


@pytest.mark.parametrize("name", list(EXPECTED))
def test_preset_knobs(name: str) -> None:
    """docs/rules.md 10: every knob of every preset, as the table gives it."""
    rules = find_rules(name)
    assert rules.name == name
    for knob, value in {**COMMON, **EXPECTED[name]}.items():
        assert getattr(rules, knob) == value, f"{name}.{knob}"


def test_match_kinds_and_decks() -> None:
    """docs/rules.md 9-10: the Cardavia table is a single deal, the others play to a target; the
    Maghreb tables name the cards with the Spanish deck."""
    assert not find_rules("cardavia").is_match
    assert find_rules("maison").is_match and find_rules("coinche").target == 2000
    assert find_rules("maghreb").deck_names is SPANISH
    assert find_rules("maison").deck_names is FRENCH
    assert MATCH_TARGETS == (501, 701, 1000, 1500, 2000)


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("cardavia", "cardavia"),
        ("table", "cardavia"),
        ("house", "maison"),
        ("MAISON", "maison"),
        ("  Maison ", "maison"),
        ("contree", "coinche"),
        ("contrée", "coinche"),
        ("Contrée", "coinche"),
        ("official", "coinche"),
        ("spanish", "maghreb"),
        ("Maghreb", "maghreb"),
    ],
)
def test_find_rules_aliases(alias: str, name: str) -> None:
    """find_rules: preset names and aliases, any case, surrounding spaces ignored."""
    assert find_rules(alias) is PRESETS[name]


@pytest.mark.parametrize("bad", ["", "poker", "maison+", "coinche2"])
def test_find_rules_unknown(bad: str) -> None:
    """An unknown name is refused, naming the presets."""
    with pytest.raises(ValueError, match="unknown rules") as info:
        find_rules(bad)
    assert "cardavia, maison, coinche, maghreb" in str(info.value)


def test_find_rules_rejects_non_strings() -> None:
    """A preset is named by text."""
    with pytest.raises(ValueError, match="unknown rules"):
        find_rules(None)  # type: ignore[arg-type]


def test_replace_changes_knobs_and_marks_the_name() -> None:
    """replace: a copy with knobs changed; the name records the change with ``+``; the
    preset is unchanged (rule sets are immutable)."""
    maison = find_rules("maison")
    changed = maison.replace(tie="made", capot_points=250)
    assert changed.tie == "made" and changed.capot_points == 250
    assert changed.name == "maison+"
    assert changed.replace(rounding="nearest_ten").name == "maison+"
    assert maison.tie == "litige" and maison.name == "maison"
    assert changed.differences() == {"tie": "made", "capot_points": 250}
    assert maison.differences() == {}
    # Nothing changed: the same set, same name.
    assert maison.replace(tie="litige") == maison
    assert maison.replace(tie="litige").name == "maison"
    # An explicit name is kept.
    assert maison.replace(tie="made", name="mine").name == "mine"
    with pytest.raises(dataclasses.FrozenInstanceError):
        maison.tie = "made"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("knobs", "message"),
    [
        ({"undertrump": "sometimes"}, "undertrump"),
        ({"tie": "draw"}, "tie"),
        ({"first_packets": "3-3"}, "first_packets"),
        ({"auction_packets": "2-2-2-2"}, "auction_packets"),
        ({"capot_points": 260}, "capot_points"),
        ({"failed_base": 150}, "failed_base"),
        ({"rounding": "up"}, "rounding"),
        ({"deck": "italian"}, "deck"),
        ({"bidding": "both"}, "bidding"),
        ({"top_bids": "180"}, "top_bids"),
        ({"no_trump_points": "trump"}, "no_trump_points"),
        ({"all_trump_points": "plain"}, "all_trump_points"),
        ({"belote_declaration": "never"}, "belote_declaration"),
        ({"belote_on_failure": "lost"}, "belote_on_failure"),
        ({"announcements": "yes"}, "announcements"),
        ({"must_trump_partner": 1}, "must_trump_partner"),
        ({"target": 0}, "target"),
        ({"target": -501}, "target"),
        ({"target": True}, "target"),
        ({"target": "1000"}, "target"),
        ({"colour": "red"}, "unknown rules knob"),
    ],
)
def test_replace_validates(knobs: dict[str, object], message: str) -> None:
    """Every knob is checked: a value outside its choices, a non-boolean flag, a target that
    is not a positive number, an unknown knob."""
    with pytest.raises(ValueError, match=message):
        find_rules("maison").replace(**knobs)


def test_constructor_validates_too() -> None:
    """Rules(...) checks its values like replace does."""
    with pytest.raises(ValueError, match="capot_points"):
        Rules(capot_points=True)  # type: ignore[arg-type]
    assert Rules(target=1500).target == 1500


@pytest.mark.parametrize("name", list(EXPECTED))
def test_as_dict_from_dict_round_trip(name: str) -> None:
    """as_dict gives the knobs as plain data by their documented names; from_dict gives the
    same rule set back."""
    rules = find_rules(name)
    data = rules.as_dict()
    assert data["name"] == name
    assert all(isinstance(v, (str, int, bool, type(None))) for v in data.values())
    assert Rules.from_dict(data) == rules
    changed = rules.replace(undertrump="optional", target=501, must_trump_partner=True)
    assert Rules.from_dict(changed.as_dict()) == changed
    assert Rules.from_dict(changed.as_dict()).name == f"{name}+"


def test_from_dict_fills_missing_knobs_from_the_preset() -> None:
    """from_dict: the preset's name plus any changed knobs is enough."""
    assert Rules.from_dict({"name": "coinche"}) == find_rules("coinche")
    assert Rules.from_dict({"name": "maison+", "tie": "made"}) == find_rules("maison").replace(
        tie="made"
    )
    assert Rules.from_dict({}) == find_rules("cardavia")
    with pytest.raises(ValueError, match="unknown rules knob"):
        Rules.from_dict({"name": "maison", "colour": "red"})
    with pytest.raises(ValueError, match="tie"):
        Rules.from_dict({"name": "maison", "tie": "draw"})


def test_from_dict_reads_rule_sets_saved_before_the_ffb_knobs() -> None:
    """A rule set saved before outbid_after_coinche and contract_must_beat_defence existed
    loads, the missing knobs taken from its preset; the new knobs are checked like the
    others."""
    old = find_rules("coinche").as_dict()
    del old["outbid_after_coinche"], old["contract_must_beat_defence"]
    rules = Rules.from_dict(old)
    assert rules == find_rules("coinche")
    assert (rules.outbid_after_coinche, rules.contract_must_beat_defence) == (False, True)
    house = Rules.from_dict({"name": "coinche+", "outbid_after_coinche": True})
    assert house.outbid_after_coinche and house.differences() == {"outbid_after_coinche": True}
    for knob in ("outbid_after_coinche", "contract_must_beat_defence"):
        with pytest.raises(ValueError, match=knob):
            find_rules("coinche").replace(**{knob: "yes"})
