"""When a meld is legal (RULES.md 3.3), and the worked examples of 3.3 each as a test.

Hearts are trumps unless a test says otherwise (the turn-up is the 8♥).
"""

from __future__ import annotations

import itertools
import random

import pytest
from helpers import deal, rules, strings, total_meld_points, win_trick

from bezique import IllegalActionError, Rules, State
from bezique import actions as act
from bezique.cards import bits, parse_card


def _refused(s: State, text: str, match: str) -> None:
    before = s.key()
    with pytest.raises(IllegalActionError, match=match):
        s.apply(text)
    assert s.key() == before
    assert text not in strings(s)


def _meld(s: State, text: str, keep: list[str]) -> None:
    """Win a trick, then score ``text`` (it must be among the legal actions) and draw."""
    win_trick(s, keep)
    assert text in strings(s), (text, sorted(strings(s)))
    s.apply(text)
    s.apply("pass")


# ---------------------------------------------------------------- rules 1 and 2


def test_meld_only_in_declaring_turn() -> None:
    s = deal(["KS", "QS"])
    _refused(s, "meld KS QS", "only declare after winning a trick")


def test_meld_must_be_exactly_a_pattern_of_the_table() -> None:
    s = deal(["KS", "QH", "KH", "JH", "QS", "JD", "AS"])
    win_trick(s, ["KS", "QH", "KH", "JH", "QS", "JD"])
    _refused(s, "meld KS QH", "is not a meld")  # king and queen of different suits
    _refused(s, "meld KH QH JH", "is not a meld")  # not a whole sequence
    _refused(s, "meld QS JD KS", "is not a meld")  # a bezique plus a card


def test_meld_cards_must_be_in_hand_or_shown() -> None:
    s = deal(["KS"], ["QS"])
    win_trick(s, ["KS"])
    _refused(s, "meld KS QS", "you do not hold")


def test_meld_may_mix_shown_and_concealed_cards() -> None:
    s = deal(["QS", "JD", "QH", "QD", "QC"])
    keep = ["QS", "JD", "QH", "QD", "QC"]
    _meld(s, "meld QS JD", keep)
    _meld(s, "meld QS* QH QD QC", keep)
    assert total_meld_points(s, 0) == 40 + 60


# ---------------------------------------------------------------- rules 3 and 4


def test_same_meld_cannot_score_twice() -> None:
    s = deal(["KS", "QS"])
    _meld(s, "meld KS QS", ["KS", "QS"])
    win_trick(s, ["KS", "QS"])
    _refused(s, "meld KS* QS*", "you have already scored that common marriage")


def test_royal_marriage_then_sequence_scores_250() -> None:
    s = deal(["KH", "QH", "AH", "TH", "JH"])
    keep = ["KH", "QH", "AH", "TH", "JH"]
    _meld(s, "meld KH QH", keep)
    _meld(s, "meld AH TH KH* QH* JH", keep)
    assert total_meld_points(s, 0) == 40 + 250


def test_sequence_then_royal_marriage_of_its_cards_is_illegal() -> None:
    s = deal(["KH", "QH", "AH", "TH", "JH"])
    keep = ["KH", "QH", "AH", "TH", "JH"]
    _meld(s, "meld AH TH KH QH JH", keep)
    win_trick(s, keep)
    _refused(s, "meld KH* QH*", "cards may be added to a meld, never taken from it")


def test_sequence_then_king_with_other_queen_of_trumps_is_illegal() -> None:
    s = deal(["KH", "QH", "AH", "TH", "JH", "QH"])
    keep = ["KH", "QH", "AH", "TH", "JH"]
    _meld(s, "meld AH TH KH QH JH", keep)
    win_trick(s, keep)
    _refused(s, "meld KH* QH", "is in your sequence")


def test_married_queen_cannot_marry_other_king() -> None:
    s = deal(["KH", "QH", "KH"])
    _meld(s, "meld KH QH", ["KH", "QH"])
    win_trick(s, ["KH", "QH"])
    _refused(s, "meld KH QH*", "that Q♥ has already been married")


def test_married_plain_queen_cannot_marry_other_king() -> None:
    s = deal(["KS", "QS", "KS"])
    _meld(s, "meld KS QS", ["KS", "QS"])
    win_trick(s, ["KS", "QS"])
    _refused(s, "meld KS QS*", "that Q♠ has already been married")


def test_married_queen_can_go_into_four_queens() -> None:
    s = deal(["KH", "QH", "QS", "QD", "QC"])
    keep = ["KH", "QH", "QS", "QD", "QC"]
    _meld(s, "meld KH QH", keep)
    _meld(s, "meld QS QH* QD QC", keep)
    assert total_meld_points(s, 0) == 40 + 60


def test_married_trump_queen_can_go_into_sequence_with_same_king() -> None:
    s = deal(["KH", "QH", "KH", "AH", "TH", "JH"])
    keep = ["KH", "QH", "AH", "TH", "JH"]
    _meld(s, "meld KH QH", keep)
    win_trick(s, keep)
    # only the married king completes the sequence: the other K♥ would take a card from it
    assert "meld AH TH KH* QH* JH" in strings(s)
    assert "meld AH TH KH QH* JH" not in strings(s)
    s.apply("meld AH TH KH* QH* JH")
    assert total_meld_points(s, 0) == 40 + 250


def test_single_bezique_then_double_bezique_scores_540_in_all() -> None:
    s = deal(["QS", "JD", "QS", "JD"], turnup="8C")
    keep = ["QS", "JD"]
    _meld(s, "meld QS JD", keep)
    _meld(s, "meld QS* QS JD* JD", keep)
    assert total_meld_points(s, 0) == 540


def test_two_single_beziques_cannot_become_a_double() -> None:
    s = deal(["QS", "JD", "QS", "JD"], turnup="8C")
    keep = ["QS", "JD"]
    _meld(s, "meld QS JD", keep)
    _meld(s, "meld QS JD", keep)
    assert total_meld_points(s, 0) == 80
    win_trick(s, keep)
    assert not [a for a in strings(s) if a.startswith("meld")]
    _refused(s, "meld QS*1 QS*2 JD*1 JD*2", "a new meld needs a new card")


def test_double_bezique_needs_all_four_cards_held_together() -> None:
    s = deal(["QS", "JD", "JD"], stock=["QS", "8D"], turnup="8C")
    _meld(s, "meld QS JD", ["QS", "JD"])  # then seat 0 draws the second Q♠
    s.apply("play QS*")  # the shown Q♠ is played
    s.apply("play 8D")
    assert s.current_player() == 0
    assert "meld QS JD* JD" not in strings(s)
    _refused(s, "meld QS QS* JD* JD", "you have no Q♠ on the table")


def test_four_kings_with_one_played_cannot_be_reformed_with_a_new_king() -> None:
    s = deal(["KS", "KH", "KD", "KC", "KS"])
    keep = ["KS", "KH", "KD", "KC"]
    _meld(s, "meld KS KH KD KC", keep)
    win_trick(s, lead="play KC*")  # the king is played: the four kings are broken
    assert s.current_player() == 0
    assert "meld KS* KS KH* KD*" not in strings(s)
    _refused(s, "meld KS KS* KH* KD*", "was broken when K♣ was played; it cannot be re-formed")


def test_royal_marriage_with_played_king_cannot_grow_into_sequence_with_other_king() -> None:
    s = deal(["KH", "QH", "AH", "TH", "JH", "KH"])
    keep = ["KH", "QH", "AH", "TH", "JH"]
    _meld(s, "meld KH QH", keep)
    win_trick(s, lead="play KH*")  # the married king leads and wins the trick
    assert s.current_player() == 0
    _refused(s, "meld AH TH KH QH* JH", "royal marriage was broken")


def test_second_four_kings_of_the_other_four_kings_is_legal() -> None:
    # seat 0 draws the other four kings after melding the first four
    s = deal(["KS", "KH", "KD", "KC"], ["8D", "9D", "7D", "8S"],
             stock=["KS", "9S", "KH", "7S", "KD", "8C", "KC", "9C"], turnup="8C")
    _meld(s, "meld KS KH KD KC", ["KS", "KH", "KD", "KC"])
    win_trick(s, lead="play KC*")  # one of the first four is played
    s.apply("pass")
    for _ in range(2):
        win_trick(s, ["KS", "KH", "KD", "KC"])
        s.apply("pass")
    win_trick(s, ["KS", "KH", "KD", "KC"])
    assert "meld KS KH KD KC" in strings(s)
    s.apply("meld KS KH KD KC")
    assert total_meld_points(s, 0) == 160


# ---------------------------------------------------------------- rule 6 and the examples


def test_one_queen_may_be_in_a_marriage_a_bezique_and_four_queens() -> None:
    s = deal(["KS", "QS", "JD", "QH", "QD", "QC"], turnup="8C")
    keep = ["KS", "QS", "JD", "QH", "QD", "QC"]
    _meld(s, "meld KS QS", keep)
    _meld(s, "meld QS* JD", keep)
    _meld(s, "meld QS* QH QD QC", keep)
    assert total_meld_points(s, 0) == 20 + 40 + 60


def test_cross_class_reuse_is_free_in_either_order() -> None:
    s = deal(["KS", "QS", "JD", "QH", "QD", "QC"], turnup="8C")
    keep = ["KS", "QS", "JD", "QH", "QD", "QC"]
    _meld(s, "meld QS QH QD QC", keep)
    _meld(s, "meld QS* JD", keep)
    _meld(s, "meld KS QS*", keep)
    assert total_meld_points(s, 0) == 60 + 40 + 20


def test_seed_000_bezique_now_marriage_after_next_trick() -> None:
    s = deal(["KS", "QS", "JD"], turnup="8C")
    keep = ["KS", "QS", "JD"]
    win_trick(s, keep)
    # both are legal now; one meld per trick, so the bezique first
    assert {"meld QS JD", "meld KS QS"} <= strings(s)
    s.apply("meld QS JD")
    assert "meld KS QS*" not in strings(s)
    s.apply("pass")
    _meld(s, "meld KS QS*", keep)
    assert total_meld_points(s, 0) == 60


def test_bezique_kings_queens_and_marriages_all_score_240() -> None:
    cards = ["KS", "KH", "KD", "KC", "QS", "QH", "QD", "QC"]
    # seat 0 holds seven of them; the Q♣ comes from the stock
    s = deal(cards[:7], ["8S", "9S", "7S", "8D", "9D", "7D", "8C", "9C"],
             stock=["9H", "TS", "TC", "TS", "TD", "TC", "QC", "TD", "9H", "AS", "JS", "AC"])
    _meld(s, "meld KS KH KD KC", cards)
    _meld(s, "meld KS* QS", cards)
    _meld(s, "meld KH* QH", cards)
    _meld(s, "meld KD* QD", cards)
    # seat 0 now holds only meld cards and must lead one: the K♠ has done all it can
    win_trick(s, lead="play KS*")
    s.apply("meld QS* QH* QD* QC")
    s.apply("pass")
    _meld(s, "meld KC* QC*", cards)
    assert total_meld_points(s, 0) == 80 + 20 + 40 + 20 + 60 + 20 == 240


def _best(s: State, keep: list[str], memo: dict[frozenset[str], int], done: frozenset[str]) -> int:
    """Most points the melds of the ``keep`` cards can still give, over every order."""
    if done in memo:
        return memo[done]
    win_trick(s, keep)
    best = 0
    names = {k.upper() for k in keep}
    melds = [a for a in strings(s) if a.startswith("meld")]
    for m in sorted(a for a in melds if {c.rstrip("*12") for c in a.split()[1:]} <= names):
        t = s.clone()
        pts = t.scores[0]
        t.apply(m)
        gain = t.scores[0] - pts
        t.apply("pass")
        best = max(best, gain + _best(t, keep, memo, done | {m}))
    memo[done] = best
    return best


def test_binocle_same_cards_give_at_most_220() -> None:
    cards = ["KS", "KH", "KD", "KC", "QS", "QH", "QD", "QC"]
    r = rules("binocle")
    s = deal(cards, turnup="9H", r=r)
    # one order reaches 220: three marriages (one royal), then four kings, then four queens
    t = s.clone()
    for m in ("meld KS QS", "meld KH QH", "meld KD QD", "meld KS* KH* KD* KC",
              "meld QS* QH* QD* QC"):
        _meld(t, m, cards)
    assert total_meld_points(t, 0) == 20 + 40 + 20 + 80 + 60 == 220
    # and no order does better (seat 0 wins every trick, so only the order matters)
    assert _best(s.clone(), cards, {}, frozenset()) == 220


# ---------------------------------------------------------------- seed 003's examples (Binocle)


def _binocle(cards: list[str], turnup: str = "TH") -> State:
    return deal(cards, turnup=turnup, r=rules("binocle"))


def test_binocle_then_double_binocle_is_legal() -> None:
    s = _binocle(["QS", "JD", "QS", "JD"])
    keep = ["QS", "JD"]
    _meld(s, "meld QS JD", keep)
    _meld(s, "meld QS* QS JD* JD", keep)
    assert total_meld_points(s, 0) == 40 + 80


def test_double_binocle_then_single_binocle_is_illegal() -> None:
    s = _binocle(["QS", "JD", "QS", "JD"])
    keep = ["QS", "JD"]
    _meld(s, "meld QS QS JD JD", keep)
    win_trick(s, keep)
    assert "meld QS* JD*" not in strings(s)


def test_binocle_then_grand_binocle_adds_the_king() -> None:
    s = _binocle(["QS", "JD", "KS"])
    keep = ["QS", "JD", "KS"]
    _meld(s, "meld QS JD", keep)
    _meld(s, "meld KS QS* JD*", keep)
    assert total_meld_points(s, 0) == 40 + 80


def test_binocle_with_played_jack_cannot_be_reformed_with_the_other_jack() -> None:
    s = _binocle(["QS", "JD", "JD"])
    _meld(s, "meld QS JD", ["QS", "JD"])
    win_trick(s, lead="play JD*")
    _refused(s, "meld QS* JD", "binocle was broken when J♦ was played")


def test_jack_of_four_jacks_may_form_a_binocle() -> None:
    s = _binocle(["JS", "JH", "JD", "JC", "QS"])
    keep = ["JS", "JH", "JD", "JC", "QS"]
    _meld(s, "meld JS JH JD JC", keep)
    _meld(s, "meld QS JD*", keep)
    assert total_meld_points(s, 0) == 40 + 40


def test_queen_of_a_sequence_may_form_a_binocle_but_no_marriage() -> None:
    # spades are trumps: the Q♠ of the sequence may go into a binocle (another class) but not
    # into a marriage with the other K♠ (the same class as the sequence)
    s = _binocle(["AS", "TS", "KS", "QS", "JS", "JD", "KS"], turnup="TS")
    keep = ["AS", "TS", "KS", "QS", "JS", "JD"]
    _meld(s, "meld AS TS KS QS JS", keep)
    win_trick(s, keep)
    assert "meld QS* JD" in strings(s)
    _refused(s, "meld KS QS*", "is in your sequence")


# ---------------------------------------------------------------- an independent reading of 3.3

_POINTS: dict[str, dict[str, int]] = {
    "bezique": {"marriage": 20, "royal": 40, "sequence": 250, "pair": 40, "double": 500},
    "binocle": {"marriage": 20, "royal": 40, "sequence": 150, "pair": 40, "double": 80,
                "grand": 80},
}
_FOURS = {0: 100, 2: 80, 3: 60, 4: 40}  # aces, kings, queens, jacks; eights score double
_CLASS = {"marriage": 0, "royal": 0, "sequence": 0, "pair": 1, "double": 1, "grand": 1,
          "four": 2, "eight": 2}


def _kind(r: Rules, trump: int, cards: list[int]) -> tuple[str, int] | None:
    """The (shape, points) these cards make, read straight from RULES.md 3.1 and 4."""
    table = _POINTS[r.variant]
    rank = {c & 7 for c in cards}
    suit = sorted(c >> 3 for c in cards)
    if r.bezique_pair == "swap" and trump in (0, 2):  # spades or diamonds are trumps
        bq, bj = parse_card("QC"), parse_card("JH")
    else:
        bq, bj = parse_card("QS"), parse_card("JD")
    srt = sorted(cards)
    if len(cards) == 2 and sorted(rank) == [2, 3] and suit[0] == suit[1]:
        return ("royal", table["royal"]) if suit[0] == trump else ("marriage", table["marriage"])
    if srt == sorted([trump * 8 + k for k in (0, 1, 2, 3, 4)]):
        return "sequence", table["sequence"]
    if srt == sorted([bq, bj]):
        return "pair", table["pair"]
    if srt == sorted([bq, bq, bj, bj]):
        return "double", table["double"]
    if "grand" in table and srt == sorted([bq - 1, bq, bj]):
        return "grand", table["grand"]
    if len(rank) == 1 and (r_ := next(iter(rank))) in (0, 2, 3, 4):
        if len(cards) == 4 and (not r.fours_distinct_suits or len(set(suit)) == 4):
            return "four", _FOURS[r_]
        if len(cards) == 8 and r.variant == "binocle":
            return "eight", 2 * _FOURS[r_]
    return None


def _oracle_legal(s: State, seat: int) -> set[int]:
    """Meld masks legal for ``seat`` now by rules 2-6 of RULES.md 3.3, read independently."""
    r = s.rules
    hand, shown = s.hand_masks[seat], s.shown_masks[seat]
    held = [p for p in bits(hand | shown) if p & 7 <= 4]  # nines, eights, sevens never meld
    earlier = []
    for k, m in s.meld_log[seat]:
        shape = r.melds[k].shape
        shape = {"double_pair": "double"}.get(shape, shape)
        earlier.append((_CLASS[shape], r.melds[k].points, m, m & (hand | shown) == m))
    bez = {parse_card(c) for c in ("KS", "QS", "JD", "KC", "QC", "JH")}  # either pairing
    pools = [
        ([p for p in held if p & 7 in (2, 3)], 2),  # marriages
        ([p for p in held if (p & 31) >> 3 == s.trump], 5),  # sequence
        *[([p for p in held if p & 31 in bez], n) for n in (2, 3, 4)],  # bezique, grand, double
        *[([p for p in held if p & 7 == rank], n) for rank in (0, 2, 3, 4) for n in (4, 8)],
    ]
    combos = {frozenset(c) for pool, n in pools for c in itertools.combinations(pool, n)}
    out = set()
    for combo in combos:
        kind = _kind(r, s.trump, [p & 31 for p in combo])
        if kind is None:
            continue
        cls, pts = _CLASS[kind[0]], kind[1]
        mask = sum(1 << p for p in combo)
        ok = True
        for mcls, mpts, m, intact in earlier:
            if not m & mask:
                continue
            if mcls == cls:
                if r.reform and not intact:
                    continue
                if m & mask != m or pts <= mpts:
                    ok = False
            elif r.cross_class == "increase" and pts <= mpts:
                ok = False
        used = 0
        for mcls, _, m, _ in earlier:
            if mcls == cls:
                used |= m
        if not mask & ~used:
            ok = False
        if r.fresh_card == "every" and not mask & hand:
            ok = False
        if ok:
            out.add(mask)
    return out


def _signature(s: State, seat: int, mask: int) -> tuple[tuple[int, object], ...]:
    """A meld mask up to copies that differ in nothing (same card, same meld history)."""
    hand = s.hand_masks[seat]
    sig = []
    for p in bits(mask):
        hist = "hand" if hand >> p & 1 else tuple(
            i for i, (_, m) in enumerate(s.meld_log[seat]) if m >> p & 1)
        sig.append((p & 31, hist))
    return tuple(sorted(sig, key=repr))


def _choose(s: State, rng: random.Random, legal: list[int]) -> int:
    """A random policy that melds when it can and keeps its aces and court cards, so that
    later melds reuse shown cards often."""
    melds = [a for a in legal if act.is_meld(a)]
    if melds and rng.random() < 0.9:
        return rng.choice(melds)
    junk = [a for a in legal if act.is_play(a) and a & 7 in (1, 5, 6, 7)
            and not s.shown_masks[s.current_player()] >> a & 1]
    if s.phase != "declare" and junk and rng.random() < 0.9:
        return rng.choice(junk)
    return rng.choice(legal)


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("bezique", {}),
        ("bezique", {"fresh_card": "every"}),
        ("bezique", {"cross_class": "increase"}),
        ("bezique", {"reform": True, "melds_per_trick": 3}),
        ("bezique", {"fours_distinct_suits": True, "bezique_pair": "swap"}),
        ("binocle", {}),
        ("binocle", {"fresh_card": "class", "fours_distinct_suits": False}),
    ],
)
def test_meld_legality_matches_an_independent_reading_of_the_rules(
    variant: str, options: dict[str, object]
) -> None:
    r = rules(variant, **options)
    rng = random.Random(3)
    checked = 0
    for seed in range(30):
        s = State.new_deal(r, seed=seed)
        while not s.end_phase:
            legal = s.legal_actions()
            if s.phase == "declare" and s._dmelds < r.melds_per_trick:
                seat = s.current_player()
                mine = {_signature(s, seat, a >> 9) for a in legal if act.is_meld(a)}
                want = {_signature(s, seat, m) for m in _oracle_legal(s, seat)}
                assert mine == want, (seed, s.history_strings()[-3:])
                checked += 1
            s.apply_action(_choose(s, rng, legal))
    assert checked > 100


@pytest.mark.parametrize("variant", ["bezique", "binocle"])
def test_the_two_pack_filter_passes_exactly_the_patterns_a_holding_could_form(
    variant: str,
) -> None:
    """The meld search's first filter (``SuitFilter``, four table look-ups) passes exactly the
    patterns whose cards needed once and twice are held, and the "n of a rank" with enough
    copies: the test of each pattern it replaces, over random holdings of every size."""
    from bezique.cards import CARD_MASK32
    from bezique.melds import quick_patterns, suit_filter

    r = Rules.preset(variant)
    rng = random.Random(variant)
    pack = list(range(64))
    for trump in (-1, 0, 1, 2, 3):
        patterns = quick_patterns(r, trump)
        quick = suit_filter(r, trump)
        assert quick is not None
        for _ in range(400):
            held = 0
            for p in rng.sample(pack, rng.randrange(0, 25)):
                held |= 1 << p
            once = (held | held >> 32) & CARD_MASK32
            twice = held & held >> 32 & CARD_MASK32
            want = [i for i, q in enumerate(patterns)
                    if not q[4] & ~once and not q[5] & ~twice
                    and (held & q[2]).bit_count() >= q[6]]
            passing = quick.passing(held)
            got = [i for i in range(len(patterns)) if passing >> (12 * i + 11) & 1]
            assert got == want, (trump, hex(held))


@pytest.mark.parametrize("variant", ["bezique3", "rubicon", "sixpack", "eightpack"])
def test_the_filter_of_more_packs_passes_exactly_the_patterns_with_enough_copies(
    variant: str,
) -> None:
    """From three packs on the filter is keyed by the copies held of each card (whichever
    copies they are): it passes exactly the patterns whose every (cards, copies) need is held,
    the test it replaces, over random holdings of every size; from the holding's words too."""
    from bezique.copywords import split_words
    from bezique.melds import _held_enough, copy_levels, quick_patterns, suit_filter

    r = Rules.preset(variant)
    rng = random.Random(variant)
    pack = list(range(32 * r.copies))
    passed = 0
    for trump in (-1, 0, 3):
        patterns = quick_patterns(r, trump)
        quick = suit_filter(r, trump)
        for _ in range(300):
            held = 0
            for p in rng.sample(pack, rng.randrange(0, 40)):
                held |= 1 << p
            levels = copy_levels(held, r.copies)
            want = [q for q in patterns if _held_enough(levels, q[3])]
            passing = quick.passing(held)
            assert quick.candidates(passing) == want and bool(passing) == bool(want), (
                trump, hex(held))
            assert quick.passing_words(split_words(held, r.copies)) == passing
            passed += bool(want)
    assert 100 < passed < 900  # holdings that form some pattern, and holdings that form none


@pytest.mark.parametrize("variant", ["bezique", "bezique3", "bezique4", "rubicon", "sixpack",
                                     "eightpack"])
def test_a_fresh_holding_lists_every_meld_it_holds(variant: str) -> None:
    """With nothing declared yet, a holding may declare a meld of every kind whose cards it
    holds (RULES.md 3.2, 9.0-9.5): read here from the kinds' definitions (n of a rank: that
    many of the rank's copies, one a suit when distinct; otherwise each card as many times as
    the kind names it), not from the meld search.  (Three packs once hid the fours: their four
    cards needed more copies than there are packs.)"""
    from bezique.melds import legal_meld_masks, quick_patterns, suit_filter

    r = Rules.preset(variant)
    rng = random.Random(variant)
    pack = list(range(32 * r.copies))
    nclasses = len(r.melds)
    listed_some = 0
    for trump in (0, 2):
        patterns = quick_patterns(r, trump)
        for _ in range(150):
            hand = 0
            for p in rng.sample(pack, r.hand_size):
                hand |= 1 << p
            count = [0] * 32
            for p in bits(hand):
                count[p & 31] += 1
            want = set()
            for q in patterns:
                pat = q[0]
                if pat.n:
                    per = [count[pat.rank + 8 * s] for s in range(4)]
                    ok = all(per) if pat.distinct else sum(per) >= pat.n
                else:
                    ok = all(count[c] >= n for c, n in pat.counts)
                if ok:
                    want.add(pat.kind)
            got = set()
            for m in legal_meld_masks(r, patterns, hand, 0, (0,) * nclasses, (), 0,
                                      quick=suit_filter(r, trump)):
                got.update(q[0].kind for q in patterns
                           if not m & ~q[2] and q[0].matches([p & 31 for p in bits(m)]))
            assert got == want, (variant, trump, hex(hand))
            listed_some += bool(want)
    assert listed_some > 30


def test_a_state_with_the_two_pack_filter_pickles_and_copies() -> None:
    """A state keeps the meld filter of its trump: pickled or deep-copied (OpenSpiel does both)
    it comes back the same position, listing the same actions, sharing the cached filter."""
    import copy
    import pickle

    s = State.new_deal(Rules.preset("bezique"), seed=3)
    rng = random.Random(3)
    while s.phase != "declare":
        s.apply_action(rng.choice(s.legal_actions()))
    for twin in (pickle.loads(pickle.dumps(s)), copy.deepcopy(s)):
        assert twin.key() == s.key()
        assert twin.legal_actions() == s.legal_actions()
        assert twin._quick is s._quick is not None


def test_takings_are_every_way_to_take_n_first_copies_in_order() -> None:
    """``melds.takings`` against its definition: every count per group (within its size) adding
    up to ``n``, most from the first group first, each as the mask of those first copies."""
    from bezique.melds import takings

    rng = random.Random(3)
    for _ in range(300):
        sizes = [rng.randint(1, 4) for _ in range(rng.randint(0, 5))]
        cards = rng.sample(range(128), sum(sizes))  # (the groups are of distinct copies)
        groups = [cards[sum(sizes[:i]):sum(sizes[:i + 1])] for i in range(len(sizes))]
        n = rng.randint(0, 6)
        counts = [c for c in itertools.product(*(range(len(g), -1, -1) for g in groups))
                  if sum(c) == n]
        want = [sum(1 << q for g, k in zip(groups, c, strict=True) for q in g[:k])
                for c in counts]
        assert takings(groups, n) == want, (groups, n)
