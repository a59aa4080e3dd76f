"""The engine protocol as a GUI or bot meets it at a table of three or four: what the README
promises of ``points`` and ``draw`` holds there as it does for two."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bezique import Rules, State
from bezique.cards import card_name, card_of
from bezique.engine import Engine


def _new(state: State, seat: int) -> dict[str, Any]:
    return {"cmd": "new", "variant": state.rules.variant, "seat": seat, "dealer": state.dealer,
            "hand": [card_name(p) for p in state.deal_hands[seat]],
            "turnup": card_name(card_of(state.turnup_card)), "agent": "random"}


def _step(state: State, seat: int, text: str, *, draw: bool = True) -> dict[str, Any]:
    """Apply ``text`` to the real deal and return the ``action`` request a client sends for it:
    ``draw`` on the seat's draws, ``points`` only when the action scored (the README: without
    them an exchange gave away the declared seven)."""
    player = state.current_player()
    before, drawn = state.scores[player], len(state.observation(seat).draws)
    state.apply(text)
    req: dict[str, Any] = {"cmd": "action", "action": text, "player": player}
    draws = state.observation(seat).draws
    if draw and text == "pass" and len(draws) > drawn:
        req["draw"] = card_name(draws[-1])
    if state.scores[player] != before:
        req["points"] = state.scores[player] - before
    return req


@pytest.mark.parametrize("variant, seed", [("bezique3", 3), ("bezique3", 6), ("bezique4", 1)])
def test_a_table_exchange_without_points_gives_away_the_declared_seven(variant: str,
                                                                      seed: int) -> None:
    """Another seat declared the seven of trumps, then exchanged it (0 points, so no 'points'
    sent): the engine's world let it exchange another seven for 10, and 'status' showed that
    seat 10 points it never scored."""
    rules = Rules.preset(variant)
    s = State.new_deal(rules, seed=seed, dealer=rules.nplayers - 1)
    e = Engine()
    assert e.handle(json.dumps(_new(s, 0)))["ok"]
    rng = random.Random(seed)
    unscored = 0
    while not s.is_terminal():
        legal = s.legal_action_strings()
        text = next((t for t in ("seven", "exchange") if t in legal), None) or rng.choice(legal)
        player, before = s.current_player(), s.scores[s.current_player()]
        answer = e.handle(json.dumps(_step(s, 0, text)))
        assert answer["ok"], answer
        unscored += text == "exchange" and player != 0 and s.scores[player] == before
        assert e.handle('{"cmd": "status"}')["scores"] == list(s.scores), text
    assert unscored  # the case is met


def _to_the_last_draw(variant: str, seed: int) -> tuple[State, int, list[dict[str, Any]], int]:
    """A deal played at random up to the end of the stock; the seat that took the face-up card
    at the last draw, the requests before that last pass, and the seat's draws."""
    rules = Rules.preset(variant)
    s = State.new_deal(rules, seed=seed, dealer=rules.nplayers - 1)
    start = State.new_deal(rules, seed=seed, dealer=rules.nplayers - 1)
    rng = random.Random(seed)
    reqs: list[dict[str, Any]] = []
    texts: list[str] = []
    while True:
        text = rng.choice(s.legal_action_strings())
        probe = s.clone()
        probe.apply(text)
        if probe.end_phase:
            break
        texts.append(text)
        s.apply(text)
    face_up = s.turnup_phys
    s.apply(text)
    seat = next(k for k in range(rules.nplayers) if s.hand_masks[k] >> face_up & 1)
    for t in texts:
        reqs.append(_step(start, seat, t))
    return start, seat, reqs, card_of(face_up)


@pytest.mark.parametrize("variant", ["bezique3", "bezique4"])
def test_at_a_table_the_turnup_taken_at_the_last_draw_may_go_unsaid(variant: str) -> None:
    """The README: at the last draw the seat may take the turn-up; 'draw' may then be left out.
    At a table of three or four that pass was refused ("the card you drew is missing"), and a
    wrong card named there was taken without a word."""
    start, seat, reqs, face_up = _to_the_last_draw(variant, 0)
    e = Engine()
    assert e.handle(json.dumps(_new(start, seat)))["ok"]
    for req in reqs:
        assert e.handle(json.dumps(req))["ok"], req
    player = start.current_player()
    before = e.handle('{"cmd": "status"}')
    wrong = "AS" if card_name(face_up) != "AS" else "KS"
    answer = e.handle(json.dumps({"cmd": "action", "action": "pass", "player": player,
                                  "draw": wrong}))
    assert not answer["ok"]
    assert f"you drew the turn-up {card_name(face_up)}, not {wrong}" in answer["error"]
    assert e.handle('{"cmd": "status"}') == before
    answer = e.handle(json.dumps({"cmd": "action", "action": "pass", "player": player}))
    assert answer["ok"], answer
    start.apply("pass")
    real = start.observation(seat)
    status = e.handle('{"cmd": "status"}')
    assert status["hand"] == [card_name(c) for c in real.hand]
    assert status["legal"] == list(real.legal) and status["stock"] == real.stock == 0


def test_at_a_table_a_pass_without_its_draw_is_named_where_it_is() -> None:
    """A 'position' whose third pass lacked its 'draw' was refused at the deal's last pass (the
    later draws were taken for the earlier passes'), or, when the seat took the turn-up there,
    accepted with the seat's hand wrong."""
    s = State.new_deal(Rules.preset("bezique3"), seed=5, dealer=2)
    rng = random.Random(5)
    reqs: list[dict[str, Any]] = []
    while sum(r["action"] == "pass" for r in reqs) < 8:
        reqs.append(_step(s, 0, rng.choice(s.legal_action_strings())))
    third = [i for i, r in enumerate(reqs) if r["action"] == "pass"][2]
    del reqs[third]["draw"]
    e = Engine()
    req = dict(_new(s, 0), cmd="position",
               actions=[{k: v for k, v in r.items() if k != "cmd"} for r in reqs])
    answer = e.handle(json.dumps(req))
    assert not answer["ok"]
    assert answer["error"].startswith(f"action {third + 1} ('pass'): the card you drew is missing")


def test_a_lone_guess_of_the_cut_says_how_to_give_the_cut() -> None:
    e = Engine()
    s = State.new_deal(Rules.from_options("sixpack", {"cut_bonus": True}), seed=3, dealer=1)
    new = {"cmd": "new", "variant": "sixpack", "options": {"cut_bonus": True}, "seat": 0,
           "dealer": 1, "hand": [card_name(p) for p in s.deal_hands[0]], "agent": "random"}
    assert e.handle(json.dumps(new)) == {"ok": True, "to_act": 0}
    guess = e.handle('{"cmd": "go"}')["action"]
    answer = e.handle(json.dumps({"cmd": "action", "action": guess}))
    assert not answer["ok"] and "send 'position' with 'cut'" in answer["error"]
    s.apply(guess)
    again = e.handle(json.dumps({**new, "cmd": "position", "cut": s.observation(0).cut,
                                 "actions": [guess]}))
    assert again == {"ok": True, "to_act": 0}
    status = e.handle('{"cmd": "status"}')
    assert status["phase"] == "lead" and status["scores"] == list(s.scores)


# ---------------------------------------------------------------------- carte blanche


def _carte_deal(variant: str, first: int = 0) -> State:
    """A deal (seed ``first`` or later) whose non-dealer (seat 0) may declare carte blanche at
    once."""
    for seed in range(first, first + 500):
        s = State.new_deal(Rules.preset(variant), seed=seed, dealer=1)
        if "carte" in s.legal_action_strings():
            return s
    raise AssertionError("no carte blanche in 500 deals")  # pragma: no cover


def _client_request(state: State, seat: int, text: str) -> dict[str, Any]:
    """``_step``, plus the cards the other seat showed with its ``carte`` as ``shown``."""
    player = state.current_player()
    known = list(state.observation(seat).known_cards[player])
    req = _step(state, seat, text)
    if text == "carte" and player != seat:
        now = list(state.observation(seat).known_cards[player])
        for c in known:
            now.remove(c)
        req["shown"] = [card_name(c) for c in now]
    return req


def test_the_cards_shown_for_an_opponents_carte_blanche_are_what_the_engine_knows() -> None:
    """Before, the protocol could not say which cards a carte blanche showed: the engine's world
    dealt other plain cards there, and its agent's view listed them as known to everyone."""
    variant = "rubicon"
    state = _carte_deal(variant, 5)  # (seed 85: it draws no court card for two tricks)
    rng = random.Random(5)
    engine = Engine()
    assert engine.handle(json.dumps({**_new(state, 1), "turnup": None}))["ok"]
    repeats = 0
    for _ in range(60):
        legal = state.legal_action_strings()
        text = "carte" if "carte" in legal else rng.choice(legal)
        repeats += text == "carte"
        answer = engine.handle(json.dumps(_client_request(state, 1, text)))
        assert answer["ok"], answer
        assert engine.state is not None
        assert engine.state.observation(1) == state.observation(1)
    assert repeats >= 2, repeats  # carte blanche and a repeat
    # what it shows must be a carte blanche: the whole hand, no court card
    bad = _carte_deal(variant)
    assert engine.handle(json.dumps({**_new(bad, 1), "turnup": None}))["ok"]
    req = _client_request(bad, 1, "carte")
    for shown, words in ((req["shown"][:-1], "must be the"), (["KS", *req["shown"][1:]],
                                                              "no king, queen or jack")):
        answer = engine.handle(json.dumps({**req, "shown": shown}))
        assert not answer["ok"] and words in answer["error"], answer
    answer = engine.handle(json.dumps({"cmd": "action", "action": "play AS", "shown": ["AS"]}))
    assert not answer["ok"] and "only the opponent's 'carte'" in answer["error"], answer
