"""The rules for players (``howto.md``) say what the engine does: the numbers the text gives (the
deal, the seven, the meld table and its examples, the classes, the last trick, brisques, the
target, Binocle, three- and four-handed play, the one-deal games' table) are read back and
checked against the presets (RULES.md 2-4, 9), so the text cannot drift from the rules it
explains."""

from __future__ import annotations

import re

import pytest

from bezique import Rules
from bezique.cards import NINE, RANKS, SEVEN, parse_card
from bezique.howto import section_titles, source
from bezique.rules import CLASS_NAMES

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


# ---------------------------------------------------------------- the other sections

WORDS = {"two": 2, "three": 3, "four": 4, "six": 6, "eight": 8}
HEARTS = 1  # the examples' trumps


def section(title: str) -> str:
    """The text of one section (without its heading), card marks and bold as written."""
    assert title in section_titles(), title
    body = source().split(f"## {title}\n", 1)[1]
    return body.split("\n## ", 1)[0]


def plain(text: str) -> str:
    """Text without card marks and bold, on one line: what the numbers are read from."""
    return " ".join(re.sub(r"\[\[[^\]]*\]\]", "", text).replace("**", "").split())


def number_after(text: str, phrase: str) -> int:
    """The first number after ``phrase`` in the plain text (only letters, spaces and signs
    between: the number the phrase gives)."""
    m = re.search(re.escape(phrase) + r"[^\d.;]*?(\d+)", plain(text))
    assert m, phrase
    return int(m.group(1))


def points_named(text: str) -> dict[str, int]:
    """"marriage 20, royal marriage 40; ..." as {name: points} (``but one of each suit``-like
    clauses without a number are left out)."""
    out = {}
    for part in re.split(r"[,;:.]", plain(text)):
        m = re.fullmatch(r"\s*([a-z][a-z ]*?) (\d+)\s*", part)
        if m:
            out[m.group(1)] = int(m.group(2))
    return out


def engine_points(rules: Rules) -> dict[str, int]:
    return {("marriage" if k.name == "common marriage" else k.name): k.points
            for k in rules.melds}


def cards(marks: str) -> list[int]:
    return [parse_card(c) for c in marks.split()]


def test_the_cards_are_the_presets_deal() -> None:
    r = Rules.preset("bezique")
    text = plain(section("The cards"))
    m = re.search(r"(\w+) piquet packs shuffled together: (\d+) cards, (\w+) of each", text)
    assert m and [WORDS[m[1].lower()], int(m[2]), WORDS[m[3]]] == [r.copies, r.deck_size,
                                                                     r.copies]
    assert number_after(text, "Each player gets") == r.hand_size
    assert number_after(text, "The rest") == r.stock_size
    order = re.search(r"the order is ([AKQJ0-9 ]+), high to low", text)
    assert order and order[1].split() == [("10" if c == "T" else c) for c in
                                          (RANKS[x] for x in r.ranks)]
    assert number_after(text, "the dealer scores") == r.seven_points and r.seven_rank == SEVEN


def test_the_seven_of_trumps_scores_what_the_preset_says() -> None:
    r = Rules.preset("bezique")
    text = section("The seven of trumps")
    said = [int(n) for n in re.findall(r"\+(\d+)", text)] + [number_after(text, "show it, for")]
    assert said == [r.seven_points] * 3
    assert not r.seven_counts_as_meld and "does not use up the trick's meld" in plain(text)


def test_the_meld_table_is_the_presets() -> None:
    r = Rules.preset("bezique")
    rows = [line for line in section("Melds").splitlines() if line.startswith("|")][2:]
    table = {}
    for line in rows:
        name, _, pts = (c.strip() for c in line.strip("|").split("|"))
        table[name.lower()] = int(pts)
    assert table == engine_points(r)
    assert not r.fours_distinct_suits and "the same suit twice too" in section("Melds")


@pytest.mark.parametrize("marks, name", [("QS JD", "bezique"), ("KH QH", "royal marriage"),
                                         ("AH TH KH QH JH", "sequence"),
                                         ("AS AH AH AC", "four aces")])
def test_the_meld_examples_are_those_melds(marks: str, name: str) -> None:
    """The examples under the table (♥ trumps) form the melds they are said to be."""
    text = section("Melds")
    assert f"[[{marks}]]" in text
    kind = Rules.preset("bezique").classify(cards(marks), HEARTS)
    assert kind is not None and kind.name == name
    if name == "four aces":
        assert number_after(text, "is four aces") == kind.points


def test_the_three_classes_are_the_engines() -> None:
    text = plain(section("Reusing cards: the three classes"))
    said = dict(re.findall(r"\b([ABC]), ([a-z ]+?)[;.]", text))
    assert sorted(said) == list(CLASS_NAMES)
    for k in Rules.preset("bezique").melds:
        key = "four" if k.name.startswith("four") else k.name.split()[-1]
        assert [c for c, words in said.items() if key in words] == [CLASS_NAMES[k.cls]], k.name
    assert number_after(text, "for the sequence") == 250
    assert number_after(text, "for the double bezique") == 500


def test_the_last_tricks_scoring_and_target_are_the_presets() -> None:
    r = Rules.preset("bezique")
    last = plain(section("The last eight tricks"))
    assert re.search(r"the (\d+)th trick, the last one with a stock", last)[1] == str(
        r.stock_tricks)
    assert r.total_tricks - r.stock_tricks == r.hand_size == 8
    scoring = plain(section("Scoring"))
    m = re.search(r"The last trick \(the (\d+)nd\) scores (\d+)", scoring)
    assert m and [int(m[1]), int(m[2])] == [r.total_tricks, r.last_trick_points]
    assert r.last_trick == "final"
    brisque = number_after(scoring, "each ace and ten in the tricks you won scores")
    assert [p for p in r.card_points if p] == [brisque, brisque] == [r.card_points[0],
                                                                     r.card_points[1]]
    assert number_after(scoring, "at the end of the deal (") == sum(r.card_points) * 4 * r.copies
    assert all(n % 10 == 0 for n in (*engine_points(r).values(), r.seven_points,
                                     r.last_trick_points, *r.card_points))
    assert number_after(section("Winning the game"), "target") == r.target
    assert r.end_check == "deal" and r.brisques == "end"


def test_binocle_is_the_preset() -> None:
    r = Rules.preset("binocle")
    text = section("Binocle")
    assert number_after(text, "except:") == r.deck_size
    assert number_after(text, "no 7s or 8s),") == r.hand_size
    assert number_after(text, "the stock lasts") == r.stock_tricks
    assert number_after(text, "then the last") == r.total_tricks - r.stock_tricks
    assert number_after(text, "and the") == r.total_tricks  # "and the 24th trick is the last"
    assert number_after(text, "is the last trick (") == r.last_trick_points
    assert r.seven_rank == NINE
    assert number_after(text, "does the seven's work:") == r.seven_points
    assert number_after(text, "10 for a turned-up nine,") == r.seven_points
    melds = next(p for p in text.split("\n\n") if p.startswith("Melds:"))
    assert points_named(melds) == engine_points(r)
    assert "one of each suit" in melds and r.fours_distinct_suits
    assert "each meld needs a card from your" in plain(melds) and r.fresh_card == "every"
    assert re.findall(r"\[\[([^\]]*)\]\]", melds) == ["QS JD", "KS QS JD"]
    for marks, name in (("QS JD", "binocle"), ("KS QS JD", "grand binocle")):
        kind = r.classify(cards(marks), HEARTS)
        assert kind is not None and kind.name == name
    for k in r.melds:
        if "binocle" in k.name or k.name.split()[0] in ("four", "eight"):
            assert CLASS_NAMES[k.cls] == ("B" if "binocle" in k.name else "C"), k.name
    points = next(p for p in text.split("\n\n") if "card points" in p)
    named = points_named(points.replace("(", ",").replace(")", ","))
    assert [named[w] for w in ("ace", "ten", "king", "queen", "jack")] == list(
        r.card_points[:5]) and not any(r.card_points[5:])
    total = sum(r.card_points) * 4 * r.copies
    assert [number_after(points, "jack 2 ("), number_after(points, "in all,")] == [
        total, total + r.last_trick_points]
    assert any(p % 10 for p in r.card_points)  # "scores need not be multiples of 10"


@pytest.mark.parametrize("who, variant, players", [("Three-handed", "bezique3", 3),
                                                   ("Four-handed", "bezique4", 4)])
def test_three_and_four_handed_are_the_presets(who: str, variant: str, players: int) -> None:
    r = Rules.preset(variant)
    text = section("Three and four players")
    para = plain(next(p for p in text.split("\n\n") if p.startswith(f"**{who}**")))
    m = re.search(r"\((\d+) cards, (\w+) packs\)", para)
    assert m and [int(m[1]), WORDS[m[2]]] == [r.deck_size, r.copies]
    assert r.nplayers == players and r.second_double
    beziques = [k.points for k in r.melds if k.shape == "beziques"]
    three = plain(text.split("**Four-handed**")[0])
    assert [number_after(three, "Beziques: single"), number_after(three, "double"),
            number_after(three, "second double"), number_after(three, "triple bezique")] == [
        beziques[0], beziques[1], beziques[1], beziques[2]] and len(beziques) == 3
    if players == 3:
        assert number_after(para, "themselves,") == r.hand_size
        assert number_after(para, "The game is") == r.target
        assert r.partnership is False
    else:
        assert "beziques to the triple" in para and "as three-handed" in para
        assert number_after(para, "the game of") == number_after(para, "game") == r.target
        assert r.partnership and r.partner_bezique == "own" and r.four_hand_end == "tricks"
        assert Rules.preset("bezique3").hand_size == r.hand_size
    assert r.last_trick_points == 10 and r.card_points[:2] == (10, 10)
