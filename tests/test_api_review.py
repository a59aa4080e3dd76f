"""The Python library as a programmer meets it: the public API refuses a wrong argument with a
:class:`~bezique.errors.BeziqueError` that says what it wants (never a TypeError, IndexError or
AttributeError from deep inside), changes nothing when it refuses, and shows itself readably."""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import pytest
from helpers import readme_examples

from bezique import (
    BeziqueError,
    IllegalActionError,
    Observation,
    OptionError,
    RecordError,
    Rules,
    State,
)
from bezique.agents import agent_names, make_agent, register_agent
from bezique.arena import play_deal, run_match
from bezique.game import Game
from bezique.narrate import deal_header, narrate
from bezique.record import game_record, load_record, parse_record
from bezique.worlds import resample_from_infostate

BEZIQUE = Rules.preset("bezique")


# ---------------------------------------------------------------------- Rules


@pytest.mark.parametrize("name", [None, 5, ["bezique"]])
def test_a_variant_named_by_no_text_is_refused(name: Any) -> None:
    with pytest.raises(OptionError, match="variant must be named by text"):
        Rules.preset(name)


@pytest.mark.parametrize("options", ["target=1500", [("target", 1500)], 7])
def test_options_that_are_not_a_mapping_are_refused(options: Any) -> None:
    with pytest.raises(OptionError, match="mapping"):
        Rules.from_options("bezique", options)
    assert Rules.from_options("bezique", {"target": 1500}).target == 1500
    assert Rules.from_options("bezique", None) == BEZIQUE


@pytest.mark.parametrize("trump", [4, 9, -2, "H", None])
def test_a_trump_that_is_no_suit_is_refused(trump: Any) -> None:
    for call in (BEZIQUE.patterns, BEZIQUE.bezique_cards,
                 lambda t: BEZIQUE.classify([3, 20], t)):
        with pytest.raises(OptionError, match="trump must be a suit"):
            call(trump)
    assert BEZIQUE.classify([3, 20], 1) is not None  # Q♠ J♦ under hearts: the bezique
    assert BEZIQUE.patterns(-1)  # no trumps yet (a variant with no turn-up)


@pytest.mark.parametrize(("name", "value"), [("four_tens", 90.5), ("rubicon_bonus", 1000.7)])
def test_a_number_option_is_not_rounded_into_an_allowed_value(name: str, value: float) -> None:
    with pytest.raises(OptionError, match=name):
        Rules.preset("sixpack", **{name: value})
    assert Rules.preset("sixpack", four_tens="90").four_tens == 90


def test_rules_show_how_to_build_them() -> None:
    r = Rules.preset("bezique4", partnership=False, target=1500)
    assert repr(BEZIQUE) == "Rules.preset('bezique')"
    assert repr(r) == "Rules.preset('bezique4', target=1500, partnership=False)"
    assert eval(repr(r), {"Rules": Rules}) == r
    obs = State.new_deal(r, seed=1).observation(0)
    assert "rules=Rules.preset('bezique4'" in repr(obs) and "MeldKind" not in repr(obs)


def test_rules_states_and_observations_pickle_and_compare() -> None:
    s = State.new_deal(Rules.preset("sixpack", cut_bonus=True, four_tens=90), seed=3)
    s.apply(s.legal_action_strings()[0])
    again = pickle.loads(pickle.dumps(s))
    assert again == s and again.history() == s.history() and again.rules == s.rules
    assert hash(again.rules) == hash(s.rules)
    obs = s.observation(0)
    assert pickle.loads(pickle.dumps(obs)) == obs and hash(obs) == hash(s.clone().observation(0))


# ---------------------------------------------------------------------- Game


@pytest.mark.parametrize("dealer", [2, -1, "1", None, True])
def test_a_game_refuses_a_first_dealer_who_is_no_seat(dealer: Any) -> None:
    with pytest.raises(BeziqueError, match="first dealer must be a seat, 0 to 1"):
        Game(BEZIQUE, seed=1, first_dealer=dealer)
    assert Game(Rules.preset("bezique3"), seed=1, first_dealer=2).state.dealer == 2


def test_a_game_refuses_rules_that_are_not_rules() -> None:
    with pytest.raises(OptionError, match=r"Rules\.preset"):
        Game("bezique", seed=1)  # type: ignore[arg-type]
    with pytest.raises(BeziqueError, match="seed"):
        Game(BEZIQUE, seed=1.5)  # type: ignore[arg-type]


def test_a_game_from_no_deals_or_other_rules_is_refused() -> None:
    with pytest.raises(BeziqueError, match="at least one deal"):
        Game.from_states(BEZIQUE, [])
    with pytest.raises(BeziqueError, match="of its rules"):
        Game.from_states(Rules.preset("binocle"), [State.new_deal(BEZIQUE, seed=1)])


@pytest.mark.parametrize("action", [None, 1.5, b"play AS", True])
def test_a_game_refuses_an_action_of_the_wrong_type_and_is_unchanged(action: Any) -> None:
    g = Game(BEZIQUE, seed=4)
    before = g.state.clone()
    with pytest.raises(IllegalActionError, match="an action is a text"):
        g.apply(action)
    assert g.state == before and g.state.history() == before.history()


def test_a_game_shows_where_it_stands() -> None:
    g = Game(BEZIQUE, seed=4)
    assert repr(g) == "<Game bezique deal 1 totals [0, 0]>"


# ---------------------------------------------------------------------- agents


def test_a_registered_name_is_found_as_written() -> None:
    @register_agent("ApiReview-Upper", "test agent: the first legal action")
    def make(seed: int | None = None) -> Any:
        return make_agent("random", seed=seed)

    assert "apireview-upper" in agent_names()
    assert make_agent("ApiReview-Upper", seed=1).act(
        State.new_deal(BEZIQUE, seed=1).observation(0)) in State.new_deal(
        BEZIQUE, seed=1).legal_action_strings()


@pytest.mark.parametrize("name", ["bot:v2", "my bot", "a,b", "", "x=1", None])
def test_a_name_no_spec_can_reach_is_refused(name: Any) -> None:
    before = agent_names()
    with pytest.raises(OptionError, match="one word"):
        register_agent(name, "unreachable")
    assert agent_names() == before


@pytest.mark.parametrize("spec", [None, 5, ["random"]])
def test_an_agent_spec_that_is_no_text_is_refused(spec: Any) -> None:
    with pytest.raises(OptionError, match="an agent is named by text"):
        make_agent(spec)


@pytest.mark.parametrize(("spec", "seed"), [("heuristic", "x"), ("search", 1.5),
                                          ("search:seed=abc", None), ("random", "7")])
def test_a_seed_that_is_no_whole_number_is_refused_naming_it(spec: str, seed: Any) -> None:
    with pytest.raises(OptionError, match="seed must be a whole number"):
        make_agent(spec, seed=seed)


def test_an_agent_option_given_twice_is_refused() -> None:
    with pytest.raises(OptionError, match="'samples' is given twice"):
        make_agent("search:samples=10,samples=20")


class _Answers:
    def __init__(self, answer: Any) -> None:
        self.name = "answers"
        self.answer = answer

    def act(self, obs: Observation) -> Any:
        return self.answer


@pytest.mark.parametrize("answer", [None, 0, ["pass"]])
def test_play_deal_names_an_agent_that_answers_no_text(answer: Any) -> None:
    s = State.new_deal(BEZIQUE, seed=2)
    with pytest.raises(IllegalActionError, match="agent 'answers' in seat 0 chose"):
        play_deal(s, [_Answers(answer), _Answers(answer)])
    assert s.history() == []


def test_play_deal_wants_one_agent_a_seat() -> None:
    s = State.new_deal(BEZIQUE, seed=2)
    with pytest.raises(BeziqueError, match="bezique needs 2 agents, one per seat, not 1"):
        play_deal(s, [make_agent("random")])
    assert s.history() == []


def test_run_match_refuses_counts_and_rules_of_the_wrong_type() -> None:
    with pytest.raises(BeziqueError, match="number of deals must be a whole number"):
        run_match("random", "random", BEZIQUE, deals="2")  # type: ignore[arg-type]
    with pytest.raises(BeziqueError, match="number of jobs must be a whole number"):
        run_match("random", "random", BEZIQUE, deals=2, jobs=1.5)  # type: ignore[arg-type]
    with pytest.raises(BeziqueError, match=r"Rules\.preset"):
        run_match("random", "random", "bezique", deals=2)  # type: ignore[arg-type]


# ---------------------------------------------------------------------- records, narrate


def _played(rules: Rules = BEZIQUE, n: int = 12) -> State:
    s = State.new_deal(rules, seed=5)
    for _ in range(n):
        s.apply_action(s.legal_actions()[0])
    return s


def test_a_record_of_other_rules_than_its_deals_is_refused() -> None:
    s = _played()
    with pytest.raises(RecordError, match=r"deal 1 is not a deal of Rules.preset\('binocle'\)"):
        game_record(Rules.preset("binocle"), [s])
    with pytest.raises(RecordError, match="deal 1 is not a deal"):
        game_record(BEZIQUE.with_options(target=1500), [s])
    rec = json.loads(json.dumps(game_record(BEZIQUE, [s])))
    assert parse_record(rec).start(0).rules == BEZIQUE


@pytest.mark.parametrize("deals", [[], "deals", None])
def test_a_record_of_no_deals_is_refused(deals: Any) -> None:
    with pytest.raises(RecordError, match="list of the game's deals"):
        game_record(BEZIQUE, deals)
    with pytest.raises(RecordError, match="list of the game's deals"):
        game_record(BEZIQUE, _played())  # type: ignore[arg-type]


def test_load_record_and_start_refuse_what_names_nothing() -> None:
    with pytest.raises(RecordError, match="named by a path"):
        load_record(None)  # type: ignore[arg-type]
    record = parse_record(game_record(BEZIQUE, [_played()]))
    for index in (1, -1, "0"):
        with pytest.raises(RecordError, match="numbered 0 to 0"):
            record.start(index)  # type: ignore[arg-type]


def test_narrate_wants_one_name_a_seat_and_a_list_of_texts() -> None:
    start = State.new_deal(BEZIQUE, seed=5)
    actions = [text for _, text in _played().history_strings()]
    assert next(iter(narrate(start, actions, ("A", "B")))).startswith("Trick 1: A leads")
    for names in (("A",), "AB", ("A", "B", "C")):
        with pytest.raises(BeziqueError, match="names are 2 texts"):
            list(narrate(start, actions, names))
        with pytest.raises(BeziqueError, match="names are 2 texts"):
            deal_header(start, 1, names)
    for wrong in ("play AS", [1, 2]):
        with pytest.raises(BeziqueError, match="list of texts"):
            list(narrate(start, wrong, ("A", "B")))  # type: ignore[arg-type]


# ---------------------------------------------------------------------- the README


def test_the_readme_example_for_developers_plays_a_deal(capsys: pytest.CaptureFixture[str]) -> None:
    (block,) = readme_examples("## For developers")
    scope: dict[str, Any] = {"__name__": "readme"}
    exec(compile(block, "README For developers", "exec"), scope)
    state = scope["state"]
    assert state.is_terminal() and capsys.readouterr().out.strip() == (
        f"{state.scores} {state.brisques} {state.winner}")
    # the calls the section names in its text
    s = State.new_deal(BEZIQUE, seed=42)
    s.apply(s.legal_action_strings()[0])
    seat = s.current_player()
    world = resample_from_infostate(s, seat, random.Random(1))
    assert world.observation(seat) == s.observation(seat)
    agent = make_agent("search:samples=100", seed=1)
    assert agent.act(world.observation(seat)) in s.observation(seat).legal


@pytest.mark.parametrize("seat", [4, -1, "1", None])
def test_the_partner_of_no_seat_is_refused(seat: Any) -> None:
    r = Rules.preset("bezique4")
    with pytest.raises(BeziqueError, match="is not a seat: the seats of bezique4 are 0 to 3"):
        r.partner(seat)
    assert [r.partner(s) for s in range(4)] == [2, 3, 0, 1]
    if isinstance(seat, int):  # (State's compiled methods refuse a str with a TypeError)
        with pytest.raises(BeziqueError, match="is not a seat"):
            State.new_deal(r, seed=1).partner(seat)


# ---------------------------------------------------------------------- agents and seats


@pytest.mark.parametrize(("variant", "spec"), [
    (v, a) for v in ("bezique", "rubicon", "bezique3", "bezique4")
    for a in ("random", "heuristic", "search:samples=2", "policy")
    if a != "policy" or v in ("bezique", "rubicon")])  # (the policy plays two-handed games)
def test_an_agent_asked_on_another_seats_turn_says_so(variant: str, spec: str) -> None:
    """Before, random, heuristic and search raised IndexError, policy a ValueError, and the
    four-handed heuristic answered a play for a seat that was not to act."""
    rules = Rules.preset(variant)
    s = State.new_deal(rules, seed=2)
    other = (s.current_player() + 1) % rules.nplayers
    agent = make_agent(spec, seed=1)
    with pytest.raises(IllegalActionError, match=f"seat {s.current_player()}'s turn, not "
                                                 f"seat {other}'s"):
        agent.act(s.observation(other))
    while not s.is_terminal():  # and once the deal is over
        s.apply(s.legal_action_strings()[0])
    with pytest.raises(IllegalActionError, match="the deal is over"):
        agent.act(s.observation(0))


@pytest.mark.parametrize("seat", [-1, 2, 7])
def test_a_seat_that_is_no_seat_of_the_deal_is_refused(seat: int) -> None:
    """``hand(-1)`` gave the last seat's hand, ``hand(2)`` an IndexError; so did shown and
    melds."""
    s = State.new_deal(Rules.preset("bezique"), seed=3)
    before = s.clone()
    for ask in (s.hand, s.shown, s.melds):
        with pytest.raises(BeziqueError, match="is not a seat"):
            ask(seat)
    assert s == before


@pytest.mark.parametrize("dealer", [-1, 2, 5])
def test_a_new_deal_refuses_a_dealer_who_is_no_seat(dealer: int) -> None:
    """``State.new_deal(rules, dealer=5)`` dealt as if there were a seat 5 (``from_cards``
    refused it)."""
    with pytest.raises(BeziqueError, match="the dealer must be player 0 or 1"):
        State.new_deal(Rules.preset("bezique"), seed=1, dealer=dealer)


@pytest.mark.parametrize(("text", "word"), [("carte", "'carte'"), ("offer", "'offer'"),
                                            ("guess 5", "'guess'")])
def test_an_action_of_another_variant_is_named_as_written(text: str, word: str) -> None:
    """``apply("carte")`` in plain Bezique said "259 is not an action in bezique"."""
    s = State.new_deal(BEZIQUE, seed=1)
    before = s.clone()
    with pytest.raises(IllegalActionError, match=f"^{word} is not an action in bezique"):
        s.apply(text)
    assert s == before


@pytest.mark.parametrize("variant", ["bezique", "binocle", "sixpack", "bezique4"])
def test_a_meld_number_past_the_pack_is_no_action(variant: str) -> None:
    """``apply_action`` with a meld int whose cards lie past the pack (a number the
    ``legal_actions`` never list) named a card of the pack the seat lacked ("you do not hold
    J♠"); it is no action at all, and nothing changes."""
    from bezique.actions import meld_action

    rules = Rules.preset(variant)
    s = State.new_deal(rules, seed=3)
    rng = random.Random(3)
    while s.phase != "declare":
        s.apply_action(rng.choice(s.legal_actions()))
    for mask in (1 << rules.deck_size, (1 << (rules.deck_size + 40)) | 1, 3 << 300):
        before = s.clone()
        with pytest.raises(IllegalActionError, match=f"^{meld_action(mask)} is not an action$"):
            s.apply_action(meld_action(mask))
        assert s == before
