"""The options of RULES.md 6: each one's effect against the default, and bad options refused."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import at_end_phase, deal, play, playout, rules, strings, win_trick

from bezique import OptionError, Rules, State
from bezique.rules import CLASSIC_OPTIONS, OPTION_NAMES

# ---------------------------------------------------------------- presets and validation


def test_bezique_defaults_are_those_of_the_table() -> None:
    assert rules().all_options() == {
        "target": 1000, "melds_per_trick": 1, "fresh_card": "class", "cross_class": "free",
        "reform": False, "fours_distinct_suits": False, "bezique_pair": "standard",
        "seven": "declared", "seven_counts_as_meld": False, "brisques": "end",
        "last_trick": "final", "end_check": "deal",
    }
    assert rules().options() == {}


def test_binocle_preset_uses_fresh_card_every_and_distinct_suits() -> None:
    r = rules("binocle")
    assert r.fresh_card == "every" and r.fours_distinct_suits and r.melds_per_trick == 1
    assert r.options() == {}  # those are the preset's own defaults


def test_options_are_kept_and_reported_as_changes() -> None:
    r = Rules.preset("bezique", target=1500, reform="true", fresh_card="EVERY")
    assert (r.target, r.reform, r.fresh_card) == (1500, True, "every")
    assert r.options() == {"target": 1500, "reform": True, "fresh_card": "every"}
    assert Rules.from_options("bezique", r.options()) == r


def test_unknown_option_raises_option_error_naming_it() -> None:
    with pytest.raises(OptionError, match="unknown option 'colour'"):
        Rules.preset("bezique", colour="red")


def test_unknown_variant_raises_option_error_naming_it() -> None:
    with pytest.raises(OptionError, match="unknown variant 'piquet'"):
        Rules.preset("piquet")


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("target", 0), ("target", -5), ("target", "lots"), ("target", True), ("target", 1.5),
        ("melds_per_trick", 0), ("fresh_card", "some"), ("fresh_card", 1),
        ("cross_class", "decrease"), ("reform", "maybe"), ("reform", 2),
        ("fours_distinct_suits", None), ("bezique_pair", "hearts"), ("seven", "never"),
        ("seven_counts_as_meld", "perhaps"), ("brisques", "never"), ("last_trick", "first"),
        ("end_check", "sometimes"),
    ],
)
def test_bad_option_value_raises_option_error_naming_the_option(name: str, value: Any) -> None:
    with pytest.raises(OptionError, match=f"option '{name}'"):
        Rules.preset("bezique", **{name: value})


def test_option_error_is_a_value_error() -> None:
    assert issubclass(OptionError, ValueError)


def test_every_option_of_the_table_is_known() -> None:
    """Classic Bezique and Binocle take exactly the options of RULES.md 6."""
    assert set(CLASSIC_OPTIONS) == set(rules().all_options())
    assert set(CLASSIC_OPTIONS) == set(rules("binocle").all_options())
    assert set(CLASSIC_OPTIONS) < set(OPTION_NAMES)


def test_an_option_of_another_variant_is_refused_with_its_name() -> None:
    import pytest

    from bezique.errors import OptionError

    with pytest.raises(OptionError, match="'reuse' does not apply to bezique"):
        rules(reuse="loose")
    with pytest.raises(OptionError, match="'seven' does not apply to rubicon"):
        rules("rubicon", seven="played")


# ---------------------------------------------------------------- each option's effect


def test_option_target() -> None:
    def winner(target: int) -> int | None:
        s = State.new_deal(rules(target=target), seed=1, totals=(0, 0))
        playout(s)
        return s.winner

    s = State.new_deal(rules(), seed=1)
    playout(s)
    low = max(s.scores)  # with the target there, someone reaches it
    assert winner(1000) is None
    assert winner(low) is not None


def test_option_melds_per_trick() -> None:
    cards = ["KS", "QS", "JD"]
    for n, second_ok in ((1, False), (2, True)):
        s = deal(cards, turnup="8C", r=rules(melds_per_trick=n))
        win_trick(s, cards)
        s.apply("meld QS JD")
        assert ("meld KS QS*" in strings(s)) is second_ok


def _shown_marriage(r: Rules) -> set[str]:
    """Legal actions once K♠ is shown in four kings and Q♠ in a bezique (♥ trumps)."""
    cards = ["KS", "KH", "KD", "KC", "QS", "JD"]
    s = deal(cards, turnup="8H", r=r)
    for m in ("meld KS KH KD KC", "meld QS JD"):
        win_trick(s, cards)
        s.apply(m)
        s.apply("pass")
    win_trick(s, cards)
    return strings(s)


def test_option_fresh_card() -> None:
    # a marriage of a shown king and a shown queen: legal by default, not with `every`
    assert "meld KS* QS*" in _shown_marriage(rules())
    assert "meld KS* QS*" not in _shown_marriage(rules(fresh_card="every"))


def _bezique_then(r: Rules) -> set[str]:
    s = deal(["KS", "QS", "JD", "QH", "QD", "QC"], turnup="8C", r=r)
    win_trick(s, ["KS", "QS", "JD", "QH", "QD", "QC"])
    s.apply("meld QS JD")
    s.apply("pass")
    win_trick(s, ["KS", "QS", "JD", "QH", "QD", "QC"])
    return strings(s)


def test_option_cross_class() -> None:
    # after the bezique (40) the marriage (20) with its Q♠: free by default
    assert "meld KS QS*" in _bezique_then(rules())
    later = _bezique_then(rules(cross_class="increase"))
    assert "meld KS QS*" not in later
    assert "meld QS* QH QD QC" in later  # four queens (60) score more than the bezique (40)


def _rebuild_kings(r: Rules) -> set[str]:
    s = deal(["KS", "KH", "KD", "KC"], stock=["KS", "8D"], turnup="8H", r=r)
    win_trick(s, ["KS", "KH", "KD", "KC"])
    s.apply("meld KS KH KD KC")
    s.apply("pass")  # seat 0 draws the other K♠
    win_trick(s, lead="play KS*")  # a king of the four is played
    return strings(s)


def test_option_reform() -> None:
    assert "meld KS KH* KD* KC*" not in _rebuild_kings(rules())
    assert "meld KS KH* KD* KC*" in _rebuild_kings(rules(reform=True))


def test_option_fours_distinct_suits() -> None:
    for distinct, ok in ((False, True), (True, False)):
        s = deal(["KS", "KS", "KH", "KD"], turnup="8C", r=rules(fours_distinct_suits=distinct))
        win_trick(s, ["KS", "KH", "KD"])
        assert ("meld KS KS KH KD" in strings(s)) is ok


@pytest.mark.parametrize("turnup", ["8S", "8D", "8H", "8C"])
def test_option_bezique_pair(turnup: str) -> None:
    cards = ["QS", "JD", "QC", "JH"]
    swapped = turnup in ("8S", "8D")
    for pair, expect in (("standard", "meld QS JD"), ("swap", "meld JH QC")):
        s = deal(cards, turnup=turnup, r=rules(bezique_pair=pair))
        win_trick(s, cards)
        melds = {a for a in strings(s) if a.startswith("meld")}
        if pair == "swap" and not swapped:
            expect = "meld QS JD"  # swap only applies when spades or diamonds are trumps
        assert expect in melds
        other = {"meld QS JD", "meld JH QC"} - {expect}
        assert not other & melds


def test_option_seven() -> None:
    # default: a seven of trumps scores when declared, not when played
    s = deal(["7H", "7H", "AS"], ["8D", "9D"], turnup="KH")
    play(s, "play 7H", "play 8D")
    assert s.scores == (0, 0) and "seven" in strings(s)
    # played: it scores as it is played to a stock trick, and `seven` is refused
    p = deal(["7H", "7H", "AS"], ["8D", "9D"], turnup="KH", r=rules(seven="played"))
    play(p, "play 7H")
    assert p.scores == (10, 0)
    p.apply("play 8D")
    assert "seven" not in strings(p)
    assert "exchange" in strings(p)


def test_option_seven_played_scores_even_when_the_trick_is_lost() -> None:
    p = deal(["AH"], ["7H"], turnup="KH", r=rules(seven="played"))
    play(p, "play AH", "play 7H")
    assert p.scores == (0, 10) and p.last_trick_winner == 0


def test_option_seven_counts_as_meld() -> None:
    cards = ["7H", "KS", "QS"]
    for counts, meld_ok in ((False, True), (True, False)):
        s = deal(cards, turnup="KH", r=rules(seven_counts_as_meld=counts))
        win_trick(s, cards)
        s.apply("exchange")
        assert ("meld KS QS" in strings(s)) is meld_ok
    s = deal(cards, turnup="KH", r=rules(seven_counts_as_meld=True))
    win_trick(s, cards)
    s.apply("meld KS QS")
    assert not {"exchange", "seven"} & strings(s)


def test_option_brisques() -> None:
    s = deal(["AS"], ["TS"], turnup="8H")
    play(s, "play AS", "play TS")
    assert s.scores == (0, 0) and s.brisques == (20, 0)
    i = deal(["AS"], ["TS"], turnup="8H", r=rules(brisques="immediate"))
    play(i, "play AS", "play TS")
    assert i.scores == (20, 0) and i.brisques == (20, 0)
    # and nothing more is added at the end
    playout(i)
    assert sum(p for _, p, why, _ in i.events if why == "brisques") == 160


FINAL0 = ["AH", "TH", "KH", "QH", "JH", "9H", "AS", "7D"]
FINAL1 = ["AD", "TD", "KD", "QD", "JD", "9D", "8D", "8H"]


def _last_trick_events(last_trick: str) -> list[Any]:
    """Seat 0 wins the 24th trick, draws seat 1's only trump with the A♥, wins the next six
    tricks and leads the 7♦ to the 32nd, which seat 1 must win with a higher diamond."""
    s, _ = at_end_phase(FINAL0, FINAL1, "8H", r=rules(last_trick=last_trick))
    play(s, "play AH", "play 8H")
    for lead in ["TH", "KH", "QH", "JH", "9H", "AS", "7D"]:
        s.apply(f"play {lead}")
        s.apply(s.legal_action_strings()[0])
    assert s.is_terminal() and s.tricks_played == 32 and s.last_trick_winner == 1
    return [e for e in s.events if e[2] == "last trick"]


def test_option_last_trick() -> None:
    assert _last_trick_events("final") == [(1, 10, "last trick", "final")]
    assert _last_trick_events("stock") == [(0, 10, "last trick", "stock")]


def test_option_end_check() -> None:
    # a meld takes seat 0 to the target: the deal goes on by default, the game ends at once
    for check, over in (("deal", False), ("immediate", True)):
        s = deal(["KS", "QS"], totals=(990, 0), r=rules(end_check=check))
        win_trick(s, ["KS", "QS"])
        s.apply("meld KS QS")
        assert s.is_terminal() is over
        assert s.winner == (0 if over else None)
        assert s.legal_actions() == [] if over else s.legal_actions()


def test_option_end_check_immediate_on_a_turned_up_seven() -> None:
    s = deal(turnup="7H", totals=(0, 995), r=rules(end_check="immediate"), dealer=1)
    assert s.is_terminal() and s.winner == 1
