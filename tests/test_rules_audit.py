"""RULES.md, section by section: the rules, options and readings that had no test of their own.

An audit of the claim "every rule, option and worked example of RULES.md has a test" found these
sentences pinned by no test that would fail if the engine broke them.  Each test names its
section; everything goes through the public API (``Rules.preset``, ``State.from_cards``,
``apply``, ``legal_action_strings``, ``scores``, ``events``, ``settlement()``).  The three- and
four-handed games (9.4, 9.5) and the options and records of 9.7-9.8 are in
``test_rules_audit_family.py``.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from helpers import deal, rules, strings
from helpers import win_trick as win_classic
from test_family_core import allowed_by_the_laws
from test_multipack import declare, family_deal, play_out, refused, win_trick

from bezique import IllegalActionError, OptionError, Rules, State
from bezique.cards import card_of, parse_card, rank_of, suit_of
from bezique.scoring import settle


def meld_actions(s: State) -> set[str]:
    return {a for a in s.legal_action_strings() if a.startswith("meld")}


# ---------------------------------------------------------------- 3.3 (classic options)


def test_rules_3_3_reform_rule_4_still_counts_broken_melds() -> None:
    """RULES.md 3.3, `reform = true`: "two broken clubs marriages leave K♣ and Q♣ that cannot be
    married again: neither is new to class A"."""
    cards = ["KC", "QC", "KC", "QC"]
    s = deal(cards, turnup="8H", r=rules(reform=True))
    for _ in range(2):
        win_classic(s, cards)
        s.apply("meld KC QC")
        s.apply("pass")
    win_classic(s, lead="play QC*1")  # the first marriage's queen
    s.apply("pass")
    win_classic(s, lead="play KC*2")  # the second marriage's king
    s.apply("pass")
    assert [intact for *_, intact in s.melds(0)] == [False, False]
    win_classic(s, cards)
    assert "meld KC* QC*" not in strings(s) and not meld_actions(s)
    with pytest.raises(IllegalActionError):
        s.apply("meld KC* QC*")


@pytest.mark.parametrize("reform", [False, True])
def test_rules_3_3_cross_class_increase_counts_broken_melds(reform: bool) -> None:
    """RULES.md 3.3: "Rule 6 with `increase` likewise counts broken melds": after the bezique
    (40) lost its J♦, its Q♠ still may not go into a marriage (20), with or without `reform`;
    four queens (60) score more and stay legal."""
    cards = ["KS", "QS", "JD", "QH", "QD", "QC"]
    s = deal(cards, turnup="8C", r=rules(cross_class="increase", reform=reform))
    win_classic(s, cards)
    s.apply("meld QS JD")
    s.apply("pass")
    win_classic(s, lead="play JD*")
    s.apply("pass")
    win_classic(s, cards)
    assert meld_actions(s) == {"meld QS* QH QD QC"}
    free = deal(cards, turnup="8C", r=rules(reform=reform))  # the default, `free`: legal
    win_classic(free, cards)
    free.apply("meld QS JD")
    free.apply("pass")
    win_classic(free, lead="play JD*")
    free.apply("pass")
    win_classic(free, cards)
    assert "meld KS QS*" in meld_actions(free)


def test_rules_3_3_swapped_pair_makes_the_double_bezique() -> None:
    """RULES.md 3.3: with `bezique_pair = swap` "the swapped pair stands for the bezique cards
    everywhere: in the bezique, the double bezique..." (♠ trumps: Q♣ J♥ twice is 500)."""
    cards = ["QC", "JH", "QC", "JH"]
    s = deal(cards, turnup="8S", r=rules(bezique_pair="swap"))
    win_classic(s, cards)
    assert meld_actions(s) == {"meld JH QC", "meld JH JH QC QC"}
    s.apply("meld JH JH QC QC")
    assert s.scores[0] == 500


def test_rules_3_3_swapped_pair_makes_binocles_grand_binocle() -> None:
    """RULES.md 3.3: "... and Binocle's grand binocle (K♣ Q♣ J♥ when spades or diamonds are
    trumps); Q♠ J♦ are then no pair"."""
    cards = ["KC", "QC", "JH", "KS", "QS", "JD"]
    s = deal(cards, turnup="TS", r=Rules.preset("binocle", bezique_pair="swap"))
    win_classic(s, cards)
    melds = meld_actions(s)
    assert "meld JH KC QC" in melds and "meld JH QC" in melds
    assert not {"meld KS QS JD", "meld QS JD"} & melds
    s.apply("meld JH KC QC")
    assert s.scores[0] == 80


# ---------------------------------------------------------------- 9.0.1-9.0.3


@pytest.mark.parametrize(("variant", "hand"), [("rubicon", 9), ("sixpack", 12),
                                               ("eightpack", 15)])
def test_rules_9_0_1_deal_has_no_turnup_and_the_non_dealer_leads(variant: str, hand: int) -> None:
    """RULES.md 9.0.1: h cards each, no turn-up, trumps not yet fixed, the non-dealer leads."""
    for dealer in (0, 1):
        s = State.new_deal(Rules.preset(variant), seed=5, dealer=dealer)
        assert [len(s.hand(i)) for i in (0, 1)] == [hand, hand]
        assert s.turnup is None and s.trump == -1
        assert s.current_player() == 1 - dealer


def test_rules_9_0_2_without_trumps_the_higher_card_of_the_suit_led_wins() -> None:
    """RULES.md 9.0.2: no trumps at the start; the higher card of the suit led wins, of identical
    cards the one led, and a card of another suit never wins (not even an ace)."""
    for lead, follow, winner in (("9S", "TS", 1), ("AS", "AS", 0), ("7S", "AH", 0)):
        s = family_deal("rubicon", [lead], [follow])
        s.apply(f"play {lead}")
        s.apply(f"play {follow}")
        assert s.last_trick_winner == winner, (lead, follow)


def test_rules_9_0_2_with_no_marriage_all_deal_there_are_no_trumps() -> None:
    """RULES.md 9.0.2: "With no marriage or sequence all deal, there are no trumps" -- and the
    deal still ends and settles (9.0.7)."""
    s = State.new_deal(Rules.preset("rubicon"), seed=3)
    while not s.is_terminal():
        s.apply_action(next(a for a in s.legal_actions()
                            if s.action_to_string(a).startswith(("play", "pass"))))
    assert s.trump == -1 and s.tricks_played == 64
    res = s.settlement()
    assert res == settle(s.scores, s.brisques, game_bonus=500, rubicon=1000,
                         rubicon_bonus=1300, has_brisques=True)


def test_rules_9_0_3_a_trump_sequence_after_the_royal_marriage_scores_250() -> None:
    """RULES.md 9.0.3: royal marriage 40, trump sequence 250 (marriage -> sequence is an upgrade,
    R1); a plain-suit sequence is 150 (worked example 1)."""
    s = family_deal("rubicon", ["KH", "QH", "AH", "TH", "JH"])
    assert declare(s, "meld KH QH") == 40
    assert declare(s, "meld AH TH KH* QH* JH") == 250
    assert s.scores[0] == 290


# ---------------------------------------------------------------- 9.0.4 carte blanche

BLANK9 = ["AS", "TS", "9S", "AH", "TH", "9H", "AD", "TD", "9D"]


def test_rules_9_10_the_dealer_may_declare_carte_blanche_before_following() -> None:
    """RULES.md 9.10: "the dealer before following to it"; not once the first card is played."""
    s = family_deal("rubicon", ["8C"], BLANK9, dealer=1)
    s.apply("play 8C")
    assert s.current_player() == 1 and "carte" in s.legal_action_strings()
    s.apply("carte")
    assert s.scores == (0, 50)
    late = family_deal("rubicon", ["8C", "8C"], BLANK9, dealer=1)
    late.apply("play 8C")
    late.apply("play 9D")
    assert "carte" not in late.legal_action_strings()


def test_rules_9_10_cards_shown_for_carte_blanche_are_played_as_concealed() -> None:
    """RULES.md 9.10: "Cards shown for carte blanche are not shown cards in the sense of 3.2:
    they are played as concealed (`play AS`)"; they stay in the hand [9.0.4 a]."""
    s = family_deal("rubicon", BLANK9)
    s.apply("carte")
    plays = {a for a in s.legal_action_strings() if a.startswith("play")}
    assert "play AS" in plays and not any("*" in a for a in plays)
    assert s.shown(0) == [] and len(s.hand(0)) == 9
    with pytest.raises(IllegalActionError):
        s.apply("play AS*")


def test_rules_9_0_4_b_a_repeat_not_made_before_the_next_play_is_lost() -> None:
    """RULES.md 9.0.4 b): one repeat per draw that is not a court card, "made before the player's
    next play or it is lost": a draw let pass leaves one repeat, not two, at the next draw."""
    s = family_deal("rubicon", BLANK9, stock=["8D", "7C", "8S", "7S"])
    s.apply("carte")
    win_trick(s, "9D")
    s.apply("pass")  # draws 8D: a repeat may be made now...
    assert "carte" in s.legal_action_strings()
    win_trick(s, "9H")  # ...but seat 0 plays instead
    assert "carte" not in s.legal_action_strings()
    s.apply("pass")  # draws 8S
    s.apply("carte")
    assert s.scores[0] == 100
    assert "carte" not in s.legal_action_strings()  # the 8D's repeat was lost


def test_rules_9_0_4_c_a_carte_blanche_holding_four_aces_scores_them() -> None:
    """RULES.md 9.0.4 c): "A carte blanche holding four aces may still score them after a trick
    won" (and the carte blanche cards are concealed, so the meld names them so)."""
    s = family_deal("rubicon", ["AS", "AH", "AD", "AC", "TS", "9S", "TH", "9H", "TD"])
    s.apply("carte")
    assert declare(s, "meld AS AH AD AC") == 100
    assert s.scores[0] == 150


def test_rules_9_10_no_carte_blanche_once_the_stock_is_exhausted() -> None:
    """RULES.md 9.10: "No `carte` once the stock is exhausted".  Seat 0 holds no court card and
    draws none all deal: it declares and repeats after every draw (55 in all, 2750) but not when
    the last stock trick's draw leads into the end phase."""
    r = Rules.preset("rubicon")
    plain = sorted(c for c in Counter(p & 31 for p in r.deck).elements() if rank_of(c) > 4
                   or rank_of(c) < 2)
    court = sorted(c for c in Counter(p & 31 for p in r.deck).elements() if 2 <= rank_of(c) <= 4)
    hand0, draws0, rest = plain[:9], plain[9:64], plain[64:] + court
    hand1, draws1 = rest[:9], rest[9:]
    stock = [c for pair in zip(draws0, draws1, strict=True) for c in pair]
    s = State.from_cards(r, [hand0, hand1], None, stock, dealer=1)
    cartes = 0
    while not s.end_phase:
        if "carte" in s.legal_action_strings():
            s.apply("carte")
            cartes += 1
        s.apply_action(min((a for a in s.legal_actions() if a < 256), key=lambda a: (a & 7, a)))
        s.apply_action(next(a for a in s.legal_actions() if suit_of(a & 31) != suit_of(
            s.trick_cards()[0]) or a & 7 >= s.trick_cards()[0] & 7))
        assert s.last_trick_winner == 0
        s.apply("pass")
    assert cartes == 55 and s.scores[0] == 55 * 50
    assert s.current_player() == 0 and all(card_of(c) in plain for c in s.hand(0))
    assert "carte" not in s.legal_action_strings()
    with pytest.raises(IllegalActionError):
        s.apply("carte")


# ---------------------------------------------------------------- 9.0.5 reuse


def test_rules_9_0_5_r2_no_repeat_of_the_same_cards_under_loose() -> None:
    """RULES.md 9.0.5 R2 (kept by `loose`): the same marriage cards cannot score again."""
    for reuse in ("loose", "portland"):
        s = family_deal("rubicon", ["KH", "QH", "KC", "QC"], reuse=reuse)
        declare(s, "meld KH QH")
        assert declare(s, "meld KC QC") == 20
        refused(s, "meld KC* QC*")


def test_rules_9_10_r3_restores_the_earliest_broken_meld() -> None:
    """RULES.md 9.10: "when several broken melds qualify, the one scored earliest is restored".
    Four kings A then four kings B; two kings of each are played; K♠ K♣ of both re-form a quartet
    restoring A (scored first), so B's K♠ K♣ with two new kings may still restore B, and A's
    may not (A was restored already)."""
    kings = ["KS", "KH", "KD", "KC"]
    s = family_deal("sixpack", [*kings, *kings, "KH", "KD"])
    declare(s, "meld KS KH KD KC")
    declare(s, "meld KS KH KD KC")
    for card in ("KH*1", "KD*1", "KH*", "KD*"):  # A's two, then B's two
        play_out(s, card)
    assert [intact for *_, intact in s.melds(0)] == [False, False]
    assert declare(s, "meld KS*1 KS*2 KC*1 KC*2") == 80  # shown K♠1 K♣1 K♠2 K♣2: both qualify
    win_trick(s)
    melds = meld_actions(s)
    assert "meld KS*2 KH KD KC*2" in melds  # restores B
    assert "meld KS*1 KH KD KC*1" not in melds  # A is restored already


def test_rules_9_10_reform_has_no_effect_under_portland() -> None:
    """RULES.md 9.10: "`reform` has no effect under `portland` or `loose`" -- worked example 5's
    illegal quartet stays illegal; and under `classic` the second 80 needs `reform = true`
    ("Worked example 5's last sentence holds with `reform = false`")."""
    for reuse in ("portland", "loose"):
        s = family_deal("rubicon", ["KS", "KH", "KD", "KC", "KD", "KC"], reuse=reuse,
                        reform=True)
        declare(s, "meld KS KH KD KC")
        play_out(s, "KH*")
        assert declare(s, "meld KS* KD* KC* KD") == 80
        if reuse == "portland":
            refused(s, "meld KS* KD*1 KC* KC", "restore")
    for reform, ok in ((False, False), (True, True)):
        c = family_deal("rubicon", ["KS", "KH", "KD", "KC", "KD"], reuse="classic", reform=reform)
        declare(c, "meld KS KH KD KC")
        play_out(c, "KH*")
        win_trick(c)
        assert ("meld KS* KD* KD KC*" in meld_actions(c)) is ok


def test_rules_9_10_melds_per_trick_applies_under_portland() -> None:
    """RULES.md 9.10: "`fresh_card`, `cross_class` and `melds_per_trick` still apply under every
    `reuse`"."""
    for n, second in ((1, False), (2, True)):
        s = family_deal("rubicon", ["KH", "QH", "KC", "QC"], melds_per_trick=n)
        win_trick(s)
        s.apply("meld KH QH")
        assert ("meld KC QC" in s.legal_action_strings()) is second
    e = family_deal("rubicon", ["KH", "QH", "QS", "JD", "KS"], fresh_card="every")
    declare(e, "meld KH QH")
    declare(e, "meld QS JD")
    win_trick(e)
    assert "meld KS QS*" in meld_actions(e)
    e2 = family_deal("rubicon", ["KH", "QH", "QS", "JD", "KS", "QS"], fresh_card="every")
    declare(e2, "meld KH QH")
    declare(e2, "meld QS JD")
    declare(e2, "meld KS QS")
    win_trick(e2)
    assert "meld KS* QS*1" not in meld_actions(e2)  # no card from the concealed hand
    i = family_deal("rubicon", ["KH", "QH", "QS", "JD", "KS"], cross_class="increase")
    declare(i, "meld KH QH")
    declare(i, "meld QS JD")
    win_trick(i)
    assert "meld KS QS*" not in meld_actions(i)


# ---------------------------------------------------------------- 9.0.6 end of the stock


@pytest.mark.parametrize(("variant", "last"), [("rubicon", 50), ("sixpack", 250),
                                               ("eightpack", 250)])
def test_rules_9_0_6_end_phase_and_the_final_tricks_last_trick(variant: str, last: int) -> None:
    """RULES.md 9.0.6, 9.1-9.3: after the stock, h tricks with no declaring and no shown card,
    the follower following suit and winning if able (as in 2.4); the last trick is the deal's
    final one and scores 50 (Rubicon) or 250; there is no `last_trick = stock`."""
    r = Rules.preset(variant)
    with pytest.raises(OptionError):
        Rules.preset(variant, last_trick="stock")
    for seed in range(2):
        s = State.new_deal(r, seed=seed)
        rng = random.Random(seed)
        while not s.end_phase:
            legal = s.legal_action_strings()
            melds = [a for a in legal if a.startswith("meld")]
            s.apply(melds[0] if melds else rng.choice(legal))
        assert s.tricks_played == r.stock_tricks
        checked = 0
        while not s.is_terminal():
            legal = s.legal_action_strings()
            assert all(a.startswith("play") and "*" not in a for a in legal)
            if s.phase == "follow":
                assert {card_of(a) for a in s.legal_actions()} == allowed_by_the_laws(
                    s.hand(s.current_player()), s.trick_cards(), s.trump)
                checked += 1
            s.apply(rng.choice(legal))
        assert checked == r.hand_size and s.tricks_played == r.total_tricks
        lasts = [e for e in s.events if e[2] == "last trick"]
        assert lasts == [(s.last_trick_winner, last, "last trick", "final")]


# ---------------------------------------------------------------- 9.0.7 and 9.1-9.3


@pytest.mark.parametrize(("variant", "g", "r", "h", "b"), [
    ("rubicon", 500, 1000, 1300, 320), ("sixpack", 1000, 3000, 1000, 0),
    ("eightpack", 1000, 5000, 1000, 0)])
def test_rules_9_0_7_the_deal_settles_by_its_s_and_brisques(
        variant: str, g: int, r: int, h: int, b: int) -> None:
    """RULES.md 9.0.7 with 9.1-9.3's G, R, H: a played deal's settlement is 9.0.7 applied to its
    s (melds, carte blanche, last trick: every event, never brisques) and its brisques (320 in
    Rubicon, none in Six- and Eight-pack)."""
    rules_ = Rules.preset(variant)
    assert (rules_.game_bonus, rules_.rubicon_at, rules_.rubicon_bonus_points) == (g, r, h)
    s = State.new_deal(rules_, seed=11)
    rng = random.Random(11)
    while not s.is_terminal():
        legal = s.legal_action_strings()
        melds = [a for a in legal if a.startswith(("meld", "carte"))]
        s.apply(melds[0] if melds else rng.choice(legal))
    assert sum(s.brisques) == b
    assert list(s.scores) == [sum(p for seat, p, _, _ in s.events if seat == i) for i in (0, 1)]
    assert all(e[2] != "brisques" for e in s.events)
    assert s.settlement() == settle(s.scores, s.brisques, game_bonus=g, rubicon=r,
                                    rubicon_bonus=h, has_brisques=b > 0)


def test_rules_9_1_the_bezique_is_q_spades_j_diamonds_whatever_the_trumps() -> None:
    """RULES.md 9.1: "bezique Q♠ J♦ (whatever the trumps) 40"; `bezique_pair = trump` (as in
    9.2) if agreed: then ♦ trumps make it Q♦ J♠."""
    s = family_deal("rubicon", ["KD", "QD", "QS", "JD"])
    declare(s, "meld KD QD")  # diamonds trumps
    assert declare(s, "meld QS JD") == 40
    t = family_deal("rubicon", ["KD", "QD", "QS", "JD", "QD", "JS"], bezique_pair="trump")
    declare(t, "meld KD QD")
    win_trick(t)
    melds = meld_actions(t)
    assert "meld JS QD" in melds and "meld QS JD" not in melds


def test_rules_9_1_rubicon_has_no_trump_quartets() -> None:
    """RULES.md 9.1: "No trump quartets" -- four aces of trumps are any four aces, 100."""
    s = family_deal("rubicon", ["KH", "QH", "AH", "AH", "AH", "AH"])
    declare(s, "meld KH QH")
    assert declare(s, "meld AH AH AH AH") == 100


@pytest.mark.parametrize(("rank", "points"), [("T", 900), ("K", 800), ("Q", 600), ("J", 400)])
def test_rules_9_2_trump_quartets(rank: str, points: int) -> None:
    """RULES.md 9.2: four T / K / Q / J of trumps score 900 / 800 / 600 / 400 (the aces' 1000 is
    worked example 14)."""
    s = family_deal("sixpack", ["KS", "QS", *[rank + "H"] * 4, "KH", "QH"])
    declare(s, "meld KH QH")  # hearts trumps (K and Q of hearts held apart from the quartet)
    assert declare(s, "meld " + " ".join([rank + "H"] * 4)) == points


def test_rules_9_2_four_tens_only_as_trumps_unless_the_option() -> None:
    """RULES.md 9.2: "Any four tens is no meld unless `four_tens = 90`"; four trump tens stay
    900; 9.10: "`four_tens` applies to every multi-pack preset when set" (Rubicon too)."""
    tens = ["TS", "TS", "TD", "TC"]
    s = family_deal("sixpack", tens)
    win_trick(s)
    assert "meld TS TS TD TC" not in s.legal_action_strings()
    for variant in ("sixpack", "rubicon", "eightpack"):
        t = family_deal(variant, tens, four_tens=90)
        assert declare(t, "meld TS TS TD TC") == 90
    t = family_deal("sixpack", ["KH", "QH", "TH", "TH", "TH", "TH"], four_tens=90)
    declare(t, "meld KH QH")
    assert declare(t, "meld TH TH TH TH") == 900


def test_rules_9_3_quintuple_bezique_scores_9000() -> None:
    """RULES.md 9.3: quintuple bezique 9000 (♥ trumps, `bezique_pair = trump`: Q♥ J♣)."""
    s = family_deal("eightpack", ["KH", "QH", *["QH"] * 4, *["JC"] * 5])
    declare(s, "meld KH QH")
    assert declare(s, "meld QH* QH QH QH QH JC JC JC JC JC") == 9000


@pytest.mark.parametrize(("rank", "points"), [("A", 2000), ("T", 1800), ("Q", 1200),
                                              ("J", 800)])
def test_rules_9_3_five_trumps_of_one_rank(rank: str, points: int) -> None:
    """RULES.md 9.3: five trumps of one rank A / T / K / Q / J score 2000 / 1800 / 1600 / 1200 /
    800 (the kings' 1600 is worked example 17), above the four-trump quartet."""
    s = family_deal("eightpack", ["KH", "QH", "KS", "QS", *[rank + "H"] * 5])
    declare(s, "meld KH QH")
    assert declare(s, "meld " + " ".join([rank + "H"] * 5)) == points


def test_rules_9_10_bezique_fixes_trumps_for_every_size_but_not_standard() -> None:
    """RULES.md 9.10: "`bezique_fixes_trumps` applies to every size of bezique; with
    `bezique_pair = standard` it has no effect"."""
    s = family_deal("sixpack", ["QD", "QD", "JS", "JS"], bezique_fixes_trumps=True)
    assert declare(s, "meld QD QD JS JS") == 500
    assert s.trump == suit_of(parse_card("QD"))
    for fixes in (False, True):
        t = family_deal("sixpack", ["QS", "JD", "KH", "QH"], bezique_pair="standard",
                        bezique_fixes_trumps=fixes)
        assert declare(t, "meld QS JD") == 40 and t.trump == -1
        assert declare(t, "meld KH QH") == 40 and t.trump == suit_of(parse_card("KH"))


def test_rules_9_10_copies_with_the_same_history_share_a_number() -> None:
    """RULES.md 9.10 and 7: with more than two copies, shown copies are grouped by meld history
    and numbered in the order of section 7; copies with the same history share a number.  Two
    Q♠ of a double (scored first) are *1, the Q♠ of a later single is *2; there is no *3."""
    s = family_deal("rubicon", ["QS", "QS", "JD", "JD", "QS", "JD", "KH", "QH"])
    declare(s, "meld KH QH")
    declare(s, "meld QS QS JD JD")
    declare(s, "meld QS JD")
    assert sorted(a for a in s.legal_action_strings() if "QS" in a) == ["play QS*1",
                                                                         "play QS*2"]
    with pytest.raises(IllegalActionError):
        s.apply("play QS*3")
    play_out(s, "QS*1")
    assert [(name, intact) for name, _, _, intact in s.melds(0)] == [
        ("royal marriage", True), ("double bezique", False), ("bezique", True)]
