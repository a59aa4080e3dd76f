"""The rules for players (``howto.md``) say what the engine does: the numbers of the one-deal
games' table are read back and checked against the presets (RULES.md 9.1-9.3), so the text
cannot drift from the rules it explains."""

from __future__ import annotations

import re

import pytest

from bezique import Rules
from bezique.howto import source

VARIANTS = ("rubicon", "sixpack", "eightpack")


def one_deal_table() -> dict[str, list[str]]:
    """The rows of the table in "Rubicon, Six-pack and Eight-pack": label -> one cell a variant."""
    section = source().split("## Rubicon, Six-pack and Eight-pack", 1)[1]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    table = {}
    for line in rows[2:]:  # past the heading and the rule
        label, *cells = [c.strip() for c in line.strip("|").split("|")]
        table[label] = cells
    return table


def numbers(cell: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", cell)]


def points(rules: Rules, shape: str) -> list[int]:
    return [m.points for m in rules.melds if m.shape == shape]


@pytest.mark.parametrize("column, variant", list(enumerate(VARIANTS)))
def test_the_one_deal_table_has_the_presets_numbers(column: int, variant: str) -> None:
    rules = Rules.preset(variant)
    table = one_deal_table()
    assert numbers(table["packs, cards each"][column]) == [rules.copies, rules.hand_size]
    assert numbers(table["carte blanche"][column]) == ([rules.carte_points]
                                                      if rules.carte_points else [])
    assert numbers(table["last trick"][column]) == [rules.last_trick_points]
    assert numbers(table["game bonus, rubicon, rubicon bonus"][column]) == [
        rules.game_bonus, rules.rubicon_at, rules.rubicon_bonus_points]
    beziques = points(rules, "beziques")
    said = numbers(table["bezique, double, triple, quadruple"][column])
    assert (said if column == 0 else numbers(table["bezique, double, triple, quadruple"][0])
            + said) == beziques
    trumps = points(rules, "trumps")
    said = numbers(table["four trumps of a rank, A 10 K Q J"][column])
    assert (said if column < 2 else numbers(table["four trumps of a rank, A 10 K Q J"][1])
            + said) == trumps
    brisques = table["brisques (each ace and ten won, 10)"][column]
    assert (brisques == "none") == (not any(rules.card_points))  # position.py: has_brisques


def test_the_one_deal_bezique_pairs_are_the_engines() -> None:
    """Six-pack's bezique follows trumps: the queen of trumps with the paired suit's jack."""
    cell = one_deal_table()["the bezique"]
    assert cell[0] == "[[QS JD]]" and Rules.preset("rubicon").bezique_pair == "standard"
    assert re.findall(r"\[\[(\w\w \w\w)\]\]", cell[1]) == ["QS JD", "QD JS", "QH JC", "QC JH"]
    assert Rules.preset("sixpack").bezique_pair == "trump"
    assert cell[2] == "as Six-pack" and Rules.preset("eightpack").bezique_pair == "trump"
