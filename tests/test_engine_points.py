"""The engine protocol's ``points``: an action reported with points it cannot have scored is
refused with the same one line at two seats and at a table, and the engine's state is unchanged;
where hidden cards decide the points (another seat's ``exchange``) they still tell the engine
which seven went."""

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
            "turnup": card_name(card_of(state.turnup_card)) if state.rules.turnup else None,
            "agent": "random"}


def _request(state: State, seat: int, text: str) -> dict[str, Any]:
    """Apply ``text`` to the real deal; the request a client sends for it, with its points."""
    player = state.current_player()
    before, drawn = state.scores[player], len(state.observation(seat).draws)
    state.apply(text)
    req: dict[str, Any] = {"cmd": "action", "action": text, "player": player,
                           "points": state.scores[player] - before}
    draws = state.observation(seat).draws
    if text == "pass" and len(draws) > drawn:
        req["draw"] = card_name(draws[-1])
    return req


def _status(e: Engine) -> dict[str, Any]:
    answer = e.handle('{"cmd": "status"}')
    assert answer["ok"], answer
    return answer


@pytest.mark.parametrize("variant", ["bezique", "binocle", "rubicon", "bezique3", "bezique4"])
def test_wrong_points_are_refused_at_once_and_change_nothing(variant: str) -> None:
    """Every action of a random deal is first sent with points it did not score (a meld's, a
    play's, the seat's own exchange): refused, naming the action and what it scores, the status
    as before; then sent right, accepted.  An exchange by another seat is left out: there the
    points tell which seven went, as the README says."""
    rules = Rules.preset(variant)
    refused = 0
    for seed in range(3 if rules.nplayers == 2 else 1):
        s = State.new_deal(rules, seed=seed, dealer=rules.nplayers - 1)
        e = Engine()
        assert e.handle(json.dumps(_new(s, 0)))["ok"]
        rng = random.Random(seed)
        while not s.is_terminal():
            legal = s.legal_action_strings()
            melds = [t for t in legal if t.startswith("meld")]
            text = rng.choice(melds or legal)
            player, n = s.current_player(), len(s.history_strings())
            req = _request(s, 0, text)
            if not (text == "exchange" and player != 0):
                before = _status(e)
                wrong = dict(req, points=req["points"] + 10)
                answer = e.handle(json.dumps(wrong))
                assert answer == {"ok": False, "error":
                                  f"action {n + 1} ({text!r} by player {player}) scores "
                                  f"{req['points']} points, not {req['points'] + 10}"}
                assert _status(e) == before
                refused += 1
            assert e.handle(json.dumps(req))["ok"]
        assert _status(e)["scores"] == list(s.scores)
    assert refused > 100


def test_an_opponents_exchange_points_still_choose_the_seven_it_gave() -> None:
    """Two seats: the opponent declared a seven of trumps, then exchanged one.  Its points (0:
    the declared one went; 10: it held another) are accepted either way and the engine's
    scores follow them: they are not refused as points the action cannot score."""
    rules = Rules.preset("bezique")
    seen: set[int] = set()
    for seed in range(100):
        s = State.new_deal(rules, seed=seed, dealer=0)
        e = Engine()
        assert e.handle(json.dumps(_new(s, 0)))["ok"]
        rng = random.Random(seed)
        declared = False
        while not s.is_terminal():
            legal = s.legal_action_strings()
            player = s.current_player()
            if player == 1 and declared and "exchange" in legal:
                text = "exchange"
            elif player == 1 and "seven" in legal:
                text = "seven"
            else:
                seven = "play 7" + card_name(s.trump * 8)[1]
                text = rng.choice([t for t in legal if t != seven] or legal)
            req = _request(s, 0, text)
            answer = e.handle(json.dumps(req))
            assert answer["ok"], answer
            assert _status(e)["scores"] == list(s.scores)
            declared |= text == "seven"
            if text == "exchange" and player == 1:
                seen.add(req["points"])
        if seen == {0, 10}:
            return
    pytest.fail(f"only exchanges scoring {seen} met")  # pragma: no cover
