"""The player-facing rules texts read back against the engine (a review against RULES.md):
``howto.md``'s house rules (every option, its values and the standard one, per variant), the
one-deal games' carte blanche and reuse paragraphs, the terminal's keys help and the README's
rules paragraph, family bullets and rules options. What the texts say in numbers is compared
with ``Rules.preset`` and the meld tables, so the texts cannot drift from the engine."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from test_howto import number_after, plain, section
from test_multipack import declare, family_deal, play_out, refused

from bezique import Rules
from bezique.position import CUT_24, CUT_GUESSED
from bezique.rules import _BOOLS, _CHOICES, _NUMBER_CHOICES, PRESETS, VARIANT_TITLES
from bezique.tables import FOUR_TENS

README = Path(__file__).resolve().parent.parent / "README.md"
RULES_MD = Path(__file__).resolve().parent.parent / "src" / "bezique" / "tui" / "rules.md"
TITLES = {title: variant for variant, title in VARIANT_TITLES.items()}
CLASSIC = ("bezique", "binocle", "bezique3", "bezique4")
MULTI = ("rubicon", "sixpack", "eightpack")


def shown(value: Any, name: str) -> str:
    """An option's value as the texts write it."""
    if isinstance(value, bool):
        return str(value).lower()
    if name == "four_tens" and value == 0:
        return "off"
    return str(value)


def allowed(name: str) -> set[str] | None:
    """The values the engine takes for an option (None: any whole number)."""
    if name in _CHOICES:
        return set(_CHOICES[name])
    if name in _BOOLS:
        return {"true", "false"}
    if name in _NUMBER_CHOICES:
        return {shown(v, name) for v in _NUMBER_CHOICES[name]}
    return None


def house_rules() -> list[tuple[str, list[str], list[str], str]]:
    """The bullets of "House rules": (name, the variants named in brackets, values, group),
    group being "classic", "multi" or "four" by the paragraph the bullet follows."""
    out = []
    group = "classic"
    for line in section("House rules").splitlines():
        if line.startswith("Rubicon, Six-pack and Eight-pack take"):
            group = "multi"
        elif line.startswith("The four-handed game"):
            group = "four"
        m = re.match(r"- \*\*(\w+)\*\*(?: \(([^)]*)\))?: ([\w-]+)", line)
        if m:
            named = [TITLES[t.strip()] for t in m[2].split(",")] if m[2] else []
            more = re.findall(r", or ([\w-]+)", line_of(m[1]))
            out.append((m[1], named, [m[3], *more], group))
    return out


def line_of(name: str) -> str:
    """The bullet of one house rule, on one line."""
    text = section("House rules").split(f"- **{name}**", 1)[1]
    return plain(f"**{name}**" + text.split("\n- ", 1)[0].split("\n\n", 1)[0])


def test_every_house_rule_is_an_option_with_its_standard_value_first() -> None:
    groups = {"classic": CLASSIC, "multi": MULTI, "four": ("bezique4",)}
    for name, named, values, group in house_rules():
        presets = named or [v for v in groups[group] if name in PRESETS[v].option_names()]
        assert presets, name
        for variant in presets:
            rules = Rules.preset(variant)
            assert name in rules.option_names(), (name, variant)
            standard = values[0]
            if name == "bezique_pair" and variant in ("sixpack", "eightpack"):
                standard = "trump"  # "Six- and Eight-pack's standard bezique_pair is trump"
            elif variant == "binocle" and name in ("fresh_card", "fours_distinct_suits"):
                standard = values[1]  # "(Binocle's standard)"
                assert line_of(name).endswith("(Binocle's standard).")
            assert shown(getattr(rules, name), name) == standard, (name, variant)
        ok = allowed(name)
        if ok is None:  # melds_per_trick: "1, or more"
            assert values == ["1", "more"] and Rules.preset("bezique").melds_per_trick == 1
        elif name == "bezique_pair" and group == "classic":
            assert values == ["standard", "swap"]  # trump is the one-deal games'
        else:
            assert set(values) == ok, name
        if named:  # the variants in brackets are all that take (or use) the option
            takers = {v for v in groups[group] if name in PRESETS[v].option_names()}
            assert set(named) <= takers, name


def test_the_house_rules_name_every_option_of_every_variant() -> None:
    text = plain(section("House rules"))
    listed = {name for name, *_ in house_rules()}
    m = re.search(r"Rubicon, Six-pack and Eight-pack take ([\w, ]+) from the list above", text)
    assert m
    taken = set(re.findall(r"\w+", m[1])) - {"and"}
    assert taken <= listed
    for variant, rules in PRESETS.items():
        for name in rules.option_names():
            if name == "target":
                assert "The game's length is chosen on its own" in text
            elif name == "reform" and variant in MULTI:
                assert "reform matters only with reuse=classic" in text
            elif name == "cut_range":
                assert f"cut_range ({rules.cut_range})" in text
            else:
                assert name in listed, (variant, name)
    assert "standard bezique_pair is trump" in text
    assert [Rules.preset(v).bezique_pair for v in MULTI] == ["standard", "trump", "trump"]


def test_the_house_rules_numbers_are_the_engines() -> None:
    text = plain(section("House rules"))
    rubicon = Rules.preset("rubicon")
    m = re.search(r"the rubicon bonus is (\d+), not (\d+)", text)
    assert m and [int(m[1]), int(m[2])] == [
        rubicon.with_options(rubicon_brisque_bonus=320).rubicon_bonus_points,
        rubicon.rubicon_bonus_points]
    assert number_after(text, "any four tens score") == FOUR_TENS.points
    assert FOUR_TENS not in rubicon.melds and FOUR_TENS in rubicon.with_options(four_tens=90).melds
    assert number_after(text, "a right guess scores") == CUT_GUESSED
    assert number_after(text, "a cut of exactly") == 24
    assert number_after(text, "24 cards") == CUT_24
    m = re.search(r"\(the (\d+)th; in Binocle the (\d+)th\)", text)
    assert m and [int(m[1]), int(m[2])] == [Rules.preset(v).stock_tricks
                                            for v in ("bezique", "binocle")]


def test_carte_blanche_is_named_for_the_variants_that_have_it() -> None:
    have = [VARIANT_TITLES[v] for v in MULTI if Rules.preset(v).carte_points]
    one_deal = plain(section("Rubicon, Six-pack and Eight-pack"))
    assert f"Carte blanche ({' and '.join(have)})" in one_deal
    repeat = next(line for line in section("House rules").splitlines()
                  if "carte_blanche_repeat" in line)
    assert f"({', '.join(have)})" in repeat
    assert [v for v in MULTI if "carte_blanche_repeat" in PRESETS[v].option_names()] == [
        TITLES[t] for t in have]
    keys = RULES_MD.read_text(encoding="utf-8")
    assert f"no court card: {', '.join(have)})" in keys


def test_the_one_deal_reuse_examples_are_what_the_engine_does() -> None:
    """howto: "two beziques scored apart, then those four cards as a double: 40 + 40 + 500",
    "the K and Q of a sequence cannot then marry", four kings "80 again" after one is played,
    and with reuse=loose "each king with the other queen: 80 in all, with no card played"."""
    text = plain(section("Rubicon, Six-pack and Eight-pack"))
    m = re.search(r"as a double: (\d+) \+ (\d+) \+ (\d+)", text)
    assert m
    s = family_deal("rubicon", ["QS", "JD", "QS", "JD"])
    assert [declare(s, "meld QS JD"), declare(s, "meld QS JD"),
            declare(s, "meld QS*1 QS*2 JD*1 JD*2")] == [int(m[1]), int(m[2]), int(m[3])]
    s = family_deal("rubicon", ["AS", "TS", "KS", "QS", "JS"])
    assert declare(s, "meld AS TS KS QS JS") == 250
    refused(s, "meld KS* QS*")
    s = family_deal("rubicon", ["KS", "KH", "KD", "KC", "KD"])
    assert declare(s, "meld KS KH KD KC") == number_after(text, "Four kings score")
    play_out(s, "KH*")
    assert declare(s, "meld KS* KD* KD KC*") == number_after(text, "with another king score")
    house = plain(section("House rules"))
    assert number_after(house, "each king with the other queen:") == 80
    s = family_deal("rubicon", ["KH", "QH", "KC", "QC", "KC", "QC"], reuse="loose")
    assert declare(s, "meld KH QH") == 40  # (hearts trumps: clubs a plain suit)
    said = [declare(s, "meld KC QC"), declare(s, "meld KC QC")]
    said += [declare(s, "meld KC*1 QC*2"), declare(s, "meld KC*2 QC*1")]
    assert sum(said) == 80


# ---------------------------------------------------------------- the README

def readme_section(title: str) -> str:
    text = README.read_text(encoding="utf-8")
    return " ".join(text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0].split())


def test_the_readme_paragraph_is_the_bezique_preset() -> None:
    r = Rules.preset("bezique")
    text = readme_section("The game in one paragraph")
    assert number_after(text, "shuffled together (") == r.deck_size
    assert "two of each" in text and r.copies == 2
    assert text.startswith("Two players") and r.nplayers == 2
    assert "Eight cards each" in text and r.hand_size == 8
    assert number_after(text, "declare it (") == r.seven_points
    assert "the last eight tricks" in text and r.total_tricks - r.stock_tricks == 8
    assert number_after(text, "(brisques) score") == r.card_points[0] == r.card_points[1]
    assert number_after(text, "the last trick scores") == r.last_trick_points
    assert number_after(text, "until someone has reached") == r.target


def test_the_readme_family_bullets_are_the_presets() -> None:
    text = " ".join(README.read_text(encoding="utf-8").split("## Try it", 1)[0].split())
    assert "Binocle**, two-handed, games to 1000" in text
    assert {Rules.preset(v).target for v in ("bezique", "binocle")} == {1000}
    assert "four, six or eight packs" in text
    assert [Rules.preset(v).copies for v in MULTI] == [4, 6, 8]
    assert "carte blanche (not in Eight-pack)" in text
    assert not Rules.preset("eightpack").carte_points
    assert text.count("game 2000") == 2
    assert {Rules.preset(v).target for v in ("bezique3", "bezique4")} == {2000}
    assert "three packs" in text and "four packs" in text
    assert [Rules.preset(v).copies for v in ("bezique3", "bezique4")] == [3, 4]


@pytest.mark.parametrize("para, first", [(0, "bezique"), (1, "rubicon")])
def test_the_readme_rules_options_are_the_engines(para: int, first: str) -> None:
    text = README.read_text(encoding="utf-8").split("\n## Rules options\n", 1)[1]
    text = " ".join(text.split("\n## ", 1)[0].split("\n\n")[para].split())
    found = re.findall(r"`(\w+)` \(([\w-]+(?:/[\w-]+)+)", text)
    assert len(found) >= 5
    for name, values in found:
        vals = values.split("/")
        rules = Rules.preset(first)
        if name in ("partnership", "partner_bezique", "four_hand_end"):
            rules = Rules.preset("bezique4")
        elif name in ("rubicon_bonus", "cut_bonus"):
            rules = Rules.preset("sixpack")
        assert name in rules.option_names(), name
        assert shown(getattr(rules, name), name) == vals[0], name
        ok = allowed(name)
        assert ok is not None and set(vals) <= ok, name
        if not (name == "bezique_pair" and para == 0):  # "standard/swap, or trump ..."
            assert set(vals) == ok, name
    if para == 1:
        assert "six- and eight-pack default to `trump`" in text
        assert f"default `{Rules.preset('sixpack').cut_range}`" in text
        assert number_after(text, "a right guess scores") == CUT_GUESSED
        assert number_after(text, "a cut of exactly 24 scores") == CUT_24


def test_three_handed_is_otherwise_bezique() -> None:
    """howto: "the card turned up after the deal (the 25th) makes trumps, the seven of trumps
    scores 10, and so does the last trick"; four-handed duels: "each duel's last trick scores
    10"."""
    r = Rules.preset("bezique3")
    para = plain(section("Three and four players").split("**Four-handed**")[0])
    m = re.search(r"after the deal \(the (\d+)th\) makes trumps", para)
    assert m and int(m[1]) == r.nplayers * r.hand_size + 1 and r.turnup
    assert r.stock_size == r.deck_size - int(m[1])
    assert number_after(para, "the seven of trumps scores") == r.seven_points
    assert "and so does the last trick" in para and r.last_trick_points == r.seven_points
    duels = line_of("four_hand_end")
    assert number_after(duels, "plays the last") == Rules.preset("bezique4").hand_size
    assert number_after(duels, "each duel's last trick scores") == Rules.preset(
        "bezique4", four_hand_end="duels").last_trick_points
