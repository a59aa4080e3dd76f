"""The engine protocol: worlds rebuilt from a seat's view, requests, and a real subprocess."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

import pytest

from bezique import Observation, Rules, State
from bezique.agents import make_agent
from bezique.cards import card_name, card_of, parse_card
from bezique.engine import Engine, Position, ProtocolError, Step, build_world

# ---------------------------------------------------------------------- helpers


def view(state: State, seat: int, seed: int = 0) -> Position:
    """What ``seat`` saw of ``state``, as a caller of the protocol would tell it."""
    obs = state.observation(seat)
    draws = iter(obs.draws)
    probe = start_of(state)
    steps = []
    for player, text in obs.actions:
        before = probe.scores[player]
        probe.apply(text)
        drew = None
        if text == "pass":
            drew = next(draws)
        elif text == "exchange" and player == seat:
            next(draws)  # the turn-up taken: not a draw from the stock
        steps.append(Step(text, player, drew, probe.scores[player] - before))
    return Position(state.rules, seat, state.dealer,
                    tuple(card_of(p) for p in state.deal_hands[seat]),
                    card_of(state.turnup_card), (state.totals[0], state.totals[1]), steps, seed)


def same_view(real: Observation, rebuilt: Observation) -> bool:
    """Equal observations, meld histories included (the engine never lets the copy numbering,
    which no seat knows, decide which copy of a card is played)."""
    return real == rebuilt


def start_of(state: State) -> State:
    return State.from_cards(state.rules, [[card_of(p) for p in h] for h in state.deal_hands],
                            card_of(state.turnup_card), [card_of(p) for p in state.stock],
                            state.dealer, state.totals)


def step_request(step: Step) -> dict[str, Any]:
    req: dict[str, Any] = {"cmd": "action", "action": step.text, "player": step.player}
    if step.draw is not None:
        req["draw"] = card_name(step.draw)
    if step.points:
        req["points"] = step.points
    return req


def new_request(state: State, seat: int, agent: str = "random") -> dict[str, Any]:
    return {"cmd": "new", "variant": state.rules.variant, "options": state.rules.options(),
            "seat": seat, "dealer": state.dealer,
            "hand": [card_name(p) for p in state.deal_hands[seat]],
            "turnup": card_name(state.turnup_card), "totals": list(state.totals),
            "agent": agent, "seed": 1}


# ---------------------------------------------------------------------- worlds


@pytest.mark.parametrize("variant", ["bezique", "binocle"])
def test_rebuilt_world_gives_the_seat_exactly_its_real_observation(variant: str) -> None:
    # From any position, the world the engine builds from one seat's view must show that seat
    # the very observation the real deal shows it, though the hidden cards are placed anew.
    for d in range(8):
        state = State.new_deal(Rules.preset(variant), seed=100 + d, dealer=d % 2)
        rng = random.Random(d)
        while True:
            for seat in (0, 1):
                world = build_world(view(state, seat, seed=d))
                assert same_view(state.observation(seat), world.observation(seat))
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))


def test_world_depends_only_on_the_view_not_on_the_hidden_cards() -> None:
    rules = Rules.preset("bezique")
    a = State.new_deal(rules, seed=5)
    # the same deal for seat 0 but the opponent's hand and the stock rearranged
    hidden = [card_of(p) for p in a.deal_hands[1]] + [card_of(p) for p in a.stock]
    random.Random(1).shuffle(hidden)
    b = State.from_cards(rules, [[card_of(p) for p in a.deal_hands[0]], hidden[:8]],
                         card_of(a.turnup_card), hidden[8:], a.dealer)
    assert build_world(view(a, 0)).key() == build_world(view(b, 0)).key()


def test_opponent_exchange_after_declaring_the_seven_uses_the_points_to_tell_which() -> None:
    # A player declares one seven of trumps, later holds the other and exchanges it: that
    # exchange scores 10, and the seven it declared stays in its hand.  Only the points tell the
    # other seat which seven went under the stock.
    rules = Rules.preset("bezique")
    for d in range(400):
        s = State.new_deal(rules, seed=d)
        seven = "play 7" + card_name(s.trump * 8)[1]
        rng = random.Random(d)
        declared: set[int] = set()
        found = False
        while not s.is_terminal() and not found:
            p = s.current_player()
            acts = s.legal_action_strings()
            keep = [a for a in acts if a != seven] or acts  # keep the declared seven
            choice = ("exchange" if "exchange" in acts and p in declared
                      else "seven" if "seven" in acts else rng.choice(keep))
            before = s.scores[p]
            s.apply(choice)
            if choice == "seven":
                declared.add(p)
            found = choice == "exchange" and s.scores[p] - before == 10 and p in declared
        if found:
            other = 1 - p
            pos = view(s, other)
            assert build_world(pos).observation(other) == s.observation(other)
            # without the points the engine assumes the declared seven went: 10 points short
            pos.actions = [Step(st.text, st.player, st.draw) for st in pos.actions]
            assert build_world(pos).observation(other).scores[p] == s.scores[p] - 10
            return
    pytest.fail("no deal with a seven declared then another exchanged")  # pragma: no cover


def test_an_opponent_card_the_seat_holds_every_copy_of_is_refused() -> None:
    rules = Rules.preset("bezique")
    hand = tuple(parse_card(c) for c in ("AS", "AS", "KS", "KS", "QS", "QS", "JS", "JS"))
    pos = Position(rules, seat=0, dealer=0, hand=hand, turnup=parse_card("7H"))
    pos.actions.append(Step("play AS", 1))  # player 1 leads: it cannot have an ace of spades
    with pytest.raises(ProtocolError, match="cannot hold AS: you have seen every copy"):
        build_world(pos)
    pos.actions[0] = Step("play AH", 1)
    assert build_world(pos).current_player() == 0


def test_the_seats_own_illegal_action_is_refused_with_the_rules_reason() -> None:
    s = State.new_deal(Rules.preset("bezique"), seed=4, dealer=1)  # seat 0 leads
    pos = view(s, 0)
    absent = next(c for c in range(32) if c not in pos.hand)
    pos.actions.append(Step(f"play {card_name(absent)}"))
    with pytest.raises(ProtocolError, match=r"action 1 .* is refused: you do not hold"):
        build_world(pos)


def test_a_missing_draw_is_refused() -> None:
    s = State.new_deal(Rules.preset("bezique"), seed=4, dealer=1)
    rng = random.Random(0)
    while "pass" not in [a for _, a in s.observation(0).actions]:
        s.apply_action(rng.choice(s.legal_actions()))
    pos = view(s, 0)
    pos.actions = [Step(st.text) for st in pos.actions]
    with pytest.raises(ProtocolError, match="the card you drew is missing"):
        build_world(pos)


# ---------------------------------------------------------------------- requests in-process


def test_requests_change_nothing_when_refused() -> None:
    e = Engine()
    s = State.new_deal(Rules.preset("bezique"), seed=8, dealer=1)
    assert e.handle(json.dumps(new_request(s, 0)))["ok"]
    bad = e.handle(json.dumps({"cmd": "action", "action": "play ZZ"}))
    assert not bad["ok"] and "ZZ" in bad["error"]
    wrong = e.handle(json.dumps({"cmd": "action", "action": "play AS", "player": 1}))
    assert not wrong["ok"] and "player 0's turn" in wrong["error"]
    drew = e.handle(json.dumps({"cmd": "action", "action": s.observation(0).legal[0],
                                "draw": "AS"}))
    assert not drew["ok"] and "only a 'pass' has a 'draw'" in drew["error"]
    impossible = new_request(s, 0, agent="heuristic")
    impossible["hand"] = ["AS"] * 8
    assert not e.handle(json.dumps(impossible))["ok"]
    assert e.agent_spec == "random"  # the refused 'new' left the agent and the position alone
    st = e.handle('{"cmd": "status"}')
    assert st["ok"] and st["to_act"] == 0 and st["stock"] == 47
    assert st["legal"] == list(s.observation(0).legal)
    assert st["hand"] == [card_name(c) for c in s.observation(0).hand]


def test_position_equals_the_same_actions_sent_one_by_one() -> None:
    s = State.new_deal(Rules.preset("bezique"), seed=12)
    rng = random.Random(3)
    for _ in range(60):
        s.apply_action(rng.choice(s.legal_actions()))
    pos = view(s, 1)
    one = Engine()
    one.handle(json.dumps(new_request(s, 1)))
    for st in pos.actions:
        assert one.handle(json.dumps(step_request(st)))["ok"]
    whole = Engine()
    req = new_request(s, 1)
    req.update(cmd="position", actions=[[st.player, st.text] for st in pos.actions],
               draws=[card_name(st.draw) for st in pos.actions if st.draw is not None])
    answer = whole.handle(json.dumps(req))
    assert answer["ok"], answer
    assert one.state is not None and whole.state is not None
    assert one.state.observation(1) == whole.state.observation(1) == s.observation(1)


# ---------------------------------------------------------------------- a real subprocess


class Client:
    """Talks to ``python -m bezique engine`` line by line."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bezique", "engine"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, text=True, bufsize=1)

    def raw(self, line: str) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        answer: dict[str, Any] = json.loads(self.proc.stdout.readline())
        return answer

    def send(self, req: dict[str, Any]) -> dict[str, Any]:
        return self.raw(json.dumps(req))

    def close(self) -> int:
        assert self.send({"cmd": "quit"}) == {"ok": True, "bye": True}
        return self.proc.wait(timeout=20)


def test_engine_subprocess_round_trip_and_malformed_lines() -> None:
    c = Client()
    try:
        hello = c.send({"cmd": "hello"})
        assert hello["ok"] and hello["engine"] == "bezique" and "random" in hello["agents"]
        malformed = [
            "this is not json",
            "[1, 2, 3]",
            '{"no": "cmd"}',
            '{"cmd": "castle"}',
            '{"cmd": "go"}',  # no deal yet
            '{"cmd": "new", "dealer": 1, "hand": [], "turnup": "7H"}',  # no seat
            '{"cmd": "new", "seat": 0, "hand": ["AS"], "turnup": "7H"}',  # short hand
            '{"cmd": "new", "seat": 0, "hand": ["XX", "AS", "AS", "AS", "KS", "KS", "QS",'
            ' "QS"], "turnup": "7H"}',
            '{"cmd": "new", "seat": 0, "hand": ["AS", "AS", "AS", "KS", "KS", "QS", "QS",'
            ' "JS"], "turnup": "7H"}',  # three aces of spades
            '{"cmd": "new", "seat": 0, "variant": "poker", "hand": [], "turnup": "7H"}',
            '{"cmd": "new", "seat": 0, "options": {"target": "many"}, "hand": [],'
            ' "turnup": "7H"}',
        ]
        for line in malformed:
            answer = c.raw(line)
            assert answer["ok"] is False, line
            assert isinstance(answer["error"], str) and answer["error"], line
            assert "Traceback" not in answer["error"]
        assert "hand" in c.raw(malformed[6])["error"]
        assert "AS" in c.raw(malformed[8])["error"]
        # still running and answering
        assert c.send({"cmd": "hello"})["ok"]
        s = State.new_deal(Rules.preset("bezique"), seed=21, dealer=0)  # seat 1 leads
        assert c.send(new_request(s, 0)) == {"ok": True, "to_act": 1}
        not_mine = c.send({"cmd": "go"})
        assert not not_mine["ok"] and "turn" in not_mine["error"]
        lead = s.observation(1).legal[0]
        assert c.send({"cmd": "action", "action": lead})["ok"]
        s.apply(lead)
        go = c.send({"cmd": "go", "budget_ms": 200})
        assert go["ok"] and go["action"] in s.observation(0).legal
        assert c.close() == 0
    finally:
        c.proc.kill()
        c.proc.wait()


@pytest.mark.parametrize("variant, agent", [("bezique", "heuristic"), ("binocle", "random")])
def test_a_whole_deal_through_the_protocol_against_a_local_agent(variant: str,
                                                                 agent: str) -> None:
    rules = Rules.preset(variant)
    s = State.new_deal(rules, seed=33, dealer=1)
    engine_seat = 1
    local = make_agent("random", seed=2)
    c = Client()
    try:
        assert c.send(new_request(s, engine_seat, agent))["ok"]
        moves = 0
        while not s.is_terminal():
            p = s.current_player()
            if p == engine_seat:
                answer = c.send({"cmd": "go", "budget_ms": 100})
                assert answer["ok"], answer
                text = answer["action"]
                assert text in s.observation(p).legal
                moves += 1
            else:
                text = local.act(s.observation(p))
            before = s.scores[p]
            s.apply(text)
            step = view(s, engine_seat).actions[-1]
            assert step.text == text and step.points == s.scores[p] - before
            answer = c.send(step_request(step))
            assert answer["ok"], answer
            assert answer["to_act"] == (s.current_player() if not s.is_terminal() else None)
        status = c.send({"cmd": "status"})
        assert status["phase"] == "over" and status["scores"] == list(s.scores)
        assert moves >= rules.total_tricks // 2
        assert c.close() == 0
    finally:
        c.proc.kill()
        c.proc.wait()


def test_draw_of_the_turnup_may_be_left_out() -> None:
    s = State.new_deal(Rules.preset("binocle"), seed=7)
    rng = random.Random(7)
    while not s.end_phase:
        s.apply_action(rng.choice(s.legal_actions()))
    last_pass_winner = s.last_trick_winner
    seat = 1 - last_pass_winner  # this seat took the turn-up at the last draw
    pos = view(s, seat)
    last = pos.actions[-1]
    assert last.text == "pass" and last.draw is not None
    pos.actions[-1] = Step(last.text, last.player, None, last.points)
    assert build_world(pos).observation(seat) == s.observation(seat)
    pos.actions[-1] = Step(last.text, last.player, parse_card("AS") if last.draw !=
                           parse_card("AS") else parse_card("KS"), last.points)
    with pytest.raises(ProtocolError, match="you drew the turn-up"):
        build_world(pos)


def test_search_agent_moves_from_a_rebuilt_position() -> None:
    s = State.new_deal(Rules.preset("bezique"), seed=41)
    rng = random.Random(41)
    while s.current_player() != 0 or s.phase != "lead" or s.tricks_played < 6:
        s.apply_action(rng.choice(s.legal_actions()))
    e = Engine()
    req = new_request(s, 0, agent="search:samples=2")
    req.update(cmd="position", actions=[step_request(st) for st in view(s, 0).actions])
    assert e.handle(json.dumps(req))["ok"]
    go = e.handle('{"cmd": "go", "budget_ms": 1000}')
    assert go["ok"] and go["action"] in s.observation(0).legal
