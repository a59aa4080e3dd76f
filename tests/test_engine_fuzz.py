"""A generative fuzz of the engine protocol (``bezique engine``, README "Engine protocol").

What the protocol promises a GUI or bot author, checked for the two-seat variants (bezique,
binocle, rubicon, sixpack) and the tables (bezique3, bezique4 with and without partnership):

- every bad request (junk, JSON that is no request, an unknown ``cmd``, a known one with a
  missing, mistyped, huge or impossible field, an action the rules or the seat's view refuse)
  gets one answer ``{"ok": false, "error": "..."}``: one line that says why, never a traceback
  or an "internal error"; and the engine goes on;
- a refused request changes nothing (the position, the engine's world, its agent and what
  ``status`` says are as before), so the legal deal around the bad lines is played to its end
  exactly as without them: every answer agrees with the real deal, and the engine's moves are
  those its agent makes from the real deal's view of the seat, with the same seed;
- the answers depend only on what the seat saw: a second deal that agrees on it (dealt from the
  engine's own world, so it differs in the hidden cards) makes the same requests and gets the
  same ``go``.

Hypothesis is derandomized (the same examples on every run) and bounded to a few seconds a
variant (about 20 s in all).
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bezique import Rules, State, table_world
from bezique.agents import make_agent
from bezique.cards import card_name, card_of, parse_card
from bezique.engine import COMMANDS, Engine, status_answer
from bezique.errors import BeziqueError
from bezique.observation import Observation
from bezique.rules import MAX_CUT

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("bezique", {}), ("binocle", {}), ("rubicon", {}), ("sixpack", {}), ("bezique3", {}),
    ("bezique4", {"partnership": True}), ("bezique4", {"partnership": False})]
IDS = ["bezique", "binocle", "rubicon", "sixpack", "bezique3", "bezique4", "bezique4-solo"]
VERBS = ("play", "meld", "pass", "draw", "exchange", "seven", "carte", "offer", "guess")
FIELDS = ("seat", "dealer", "hand", "turnup", "variant", "options", "totals", "seed", "cut",
          "agent", "actions", "draws", "action", "player", "draw", "points", "shown",
          "budget_ms")
CARDS = [r + s for r in "AKQJT987" for s in "SHDC"]
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SETTINGS = {"deadline": None, "derandomize": True, "database": None,
            "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large]}

# ---------------------------------------------------------------------- the client side


class Table:
    """A real deal, and the requests a client sends the engine that plays ``seat`` in it."""

    def __init__(self, rules: Rules, seed: int, seat: int, dealer: int) -> None:
        self.rules, self.seat = rules, seat
        self.state = State.new_deal(rules, seed=seed, dealer=dealer)
        self.steps: list[dict[str, Any]] = []  # the actions so far, as objects like 'action's

    def start(self, agent: str, seed: int, cmd: str = "new") -> dict[str, Any]:
        """The ``new`` (or ``position``, with every action so far) that starts the engine."""
        s = self.state
        req: dict[str, Any] = {
            "cmd": cmd, "variant": self.rules.variant, "options": self.rules.options(),
            "seat": self.seat, "dealer": s.dealer,
            "hand": [card_name(card_of(p)) for p in s.deal_hands[self.seat]],
            "turnup": card_name(card_of(s.turnup_card)) if self.rules.turnup else None,
            "totals": list(s.totals), "agent": agent, "seed": seed}
        if cmd == "position":
            req["actions"] = [dict(step) for step in self.steps]
        return req

    def play(self, text: str) -> dict[str, Any]:
        """Apply ``text`` to the real deal; the ``action`` request that tells the engine of it:
        the player, the seat's draw on a ``pass``, the points scored, the cards shown with
        another seat's ``carte``."""
        s, seat = self.state, self.seat
        player = s.current_player()
        before = s.scores[player]
        seen = s.observation(seat)
        drawn, known = len(seen.draws), list(seen.known_cards[player])
        s.apply(text)
        now = s.observation(seat)
        step: dict[str, Any] = {"action": text, "player": player}
        if text == "pass" and len(now.draws) > drawn:
            step["draw"] = card_name(now.draws[-1])
        if s.scores[player] != before:
            step["points"] = s.scores[player] - before
        if text == "carte" and player != seat:
            shown = list(now.known_cards[player])
            for c in known:
                shown.remove(c)
            step["shown"] = [card_name(c) for c in shown]
        self.steps.append(step)
        return {"cmd": "action", **step}


def refused(answer: dict[str, Any]) -> str:
    """The documented form of a refusal: ``{"ok": false, "error": "<one line>"}``."""
    assert set(answer) == {"ok", "error"} and answer["ok"] is False, answer
    error = answer["error"]
    assert isinstance(error, str) and error.strip() and "\n" not in error, answer
    assert len(error) < 600, error
    assert "Traceback" not in error and not error.startswith("internal error"), error
    json.dumps(answer)
    return error


def snapshot(e: Engine) -> tuple[Any, ...]:
    """Everything a refused request must leave as it was."""
    return (copy.deepcopy(e.position), e.state.key() if e.state is not None else None, e.agent,
            e.agent_spec, e.finished, e.handle('{"cmd": "status"}'))


def is_request(line: str) -> bool:
    """Whether ``line`` is a JSON object with a known ``cmd`` (junk must not be)."""
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError):
        return False
    return isinstance(obj, dict) and obj.get("cmd") in COMMANDS


def not_a_card(token: str) -> bool:
    """Whether ``token`` names no card, even with a ``*`` or ``+`` mark cut off."""
    for head in (token, token.split("*")[0], token.split("+")[0]):
        try:
            parse_card(head)
            return False
        except ValueError:
            pass
    return True


def respell(name: str, how: int) -> str:
    """Another spelling the protocol accepts: ``qs``, ``Q♠``, ``10H``."""
    if how == 1:
        return name.lower()
    if how == 2:
        return name[0] + SUIT_SYMBOLS[name[1]]
    if how == 3 and name[0] == "T":
        return "10" + name[1]
    return name


# ---------------------------------------------------------------------- bad lines

json_scalars = (st.none() | st.booleans() | st.integers(-(2**70), 2**70)
                | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=16)
                | st.sampled_from(["AS", "Q♠", "play QS", "pass", "meld KH QH", "7H",
                                   "bezique", "0", "héllo", "\u202e", "\x00", "𝔸♠"]))
json_values = st.recursive(
    json_scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(FIELDS) | st.text(max_size=6), inner, max_size=4), max_leaves=10)
bad_cmds = (st.text(max_size=12).filter(lambda c: c not in COMMANDS) | st.integers()
            | st.none() | st.booleans() | st.lists(st.sampled_from(COMMANDS), max_size=2)
            | st.sampled_from(["GO", "Status", " go", "go ", "go\x00", "ｇｏ", "héllo", "new\n",
                               "quit!", "positions", "action\u200b"]))
wrong = (st.none() | st.booleans() | st.integers(-(2**70), 2**70)
         | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=12)
         | st.lists(st.integers(-1, 3), max_size=3)
         | st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))
HAND8 = ["AS", "TS", "KS", "QS", "JD", "9C", "8C", "7C"]
ODD_LINES = [
    "x" * 200_000, "[" * 100_000, "{" * 50_000, '{"a":' * 20_000, "9" * 50_000, "-" + "9" * 5000,
    json.dumps({"cmd": "g" * 100_000}), json.dumps({"cmd": "action", "action": "play AS " * 5000}),
    json.dumps({"cmd": "new", "seat": 0, "hand": ["AS"] * 100_000, "turnup": "7H"}),
    json.dumps({"cmd": "new", "seat": 0, "hand": HAND8, "turnup": "7H", "agent": "x" * 10_000}),
    json.dumps({"cmd": "position", "seat": 0, "hand": HAND8, "turnup": "7H",
                "actions": ["pass"] * 5000}),
    json.dumps({"cmd": "action", "action": {"play": "AS"}}),
    json.dumps({"cmd": "action", "action": ["play", "AS"]}),
    json.dumps({"cmd": "new", "seat": 0, "hand": " ".join(HAND8), "turnup": "7H"}),
    json.dumps({"cmd": "new", "seat": 0, "hand": HAND8, "turnup": ["7H"]}),
    json.dumps({"cmd": "new", "seat": "0", "hand": HAND8, "turnup": "7H"}),
    json.dumps({"cmd": "new", "seat": 0.0, "hand": HAND8, "turnup": "7H"}),
    '{"cmd": "go", "budget_ms": NaN}', '{"cmd": "go", "budget_ms": -Infinity}',
    '{"cmd": "go", "budget_ms": 1e400}', '{"cmd": "go", "budget_ms": "500"}',
    '{"cmd": "status"} {"cmd": "status"}', '{"cmd": "status"}{"cmd": "hello"}',
    '{"cmd": "status", "cmd": "stat"}', "\ufeff" + '{"cmd": "status"}', '{"cmd": "hello"',
    "{'cmd': 'status'}", "cmd=status", "status", "go", "hello", "quit", "new seat 0",
    json.dumps(json.dumps({"cmd": "status"})), "null", "true", "[]", "{}", '""', "0", "",
    " ", "\t", "\x00", "\u2028", "\xa0", "\x1c", "\ud800", "ｓｔａｔｕｓ",
    '{"cmd": "action", "action": "play \ud83c"}']
junk_lines = (st.text(max_size=60).filter(lambda t: not is_request(t)),
              json_values.filter(lambda v: not isinstance(v, dict)).map(json.dumps),
              st.builds(lambda cmd, extra: json.dumps({**extra, "cmd": cmd}), bad_cmds,
                        st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=3)),
              st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=4).map(json.dumps),
              st.sampled_from(ODD_LINES))


def bad_budget(v: Any) -> bool:
    ok = type(v) in (int, float) and 0 < v <= 60_000
    return v is not None and not ok


class Fuzz:
    """Where a session's bad lines come from: hypothesis draws what they hold; which kind of
    line, and which of a few forms, a seeded random chooses, so that hypothesis's first and
    simplest example (every draw its first choice) tries them all as well."""

    def __init__(self, data: Any, rng: random.Random) -> None:
        self.draw, self.rng = data.draw, rng

    def pick(self, options: Sequence[Any]) -> Any:
        return self.rng.choice(options)

    def gen(self, *strategies: st.SearchStrategy[Any]) -> Any:
        return self.draw(self.rng.choice(strategies))


def bad_action_line(f: Fuzz, t: Table) -> str:
    """An ``action`` that is refused whatever the hidden cards: a field of the wrong shape, the
    wrong player, a text no card makes legal, one the rules refuse the seat, or any action once
    the deal is over."""
    s = t.state
    obs = s.observation(t.seat)
    if s.is_terminal():
        return json.dumps({"cmd": "action", "action": f.pick(
            ["pass", "play AS", "exchange", "meld KH QH", "xyzzy"])})
    player = s.current_player()
    nxt = f.pick(s.legal_action_strings())
    kind = f.pick(["shape", "player", "field", "field", "text", "text", "seat", "draw"])
    if kind == "shape":
        action = f.gen(wrong.filter(lambda v: not isinstance(v, str)),
                       st.integers(201, 3000).map(lambda n: "play " + "A" * n),
                       st.just("meld " + " ".join(["KH"] * 100)))
        shape: dict[str, Any] = {
            **f.draw(st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=2)),
            "cmd": "action", "action": action}
        if f.pick([True, False]):
            del shape["action"]  # missing
        return json.dumps(shape)
    if kind == "player":
        who = f.gen(st.integers(0, 3).filter(lambda k: k != player),
                    wrong.filter(lambda v: v is not None and not (type(v) is int and v == player)))
        return json.dumps({"cmd": "action", "action": nxt, "player": who})
    if kind == "field":
        req: dict[str, Any] = {"cmd": "action", "action": nxt, "player": player}
        field = f.pick(["draw", "points", "shown"])
        if field == "draw" and nxt != "pass":
            req["draw"] = f.pick(CARDS)
        elif field == "draw":
            req["draw"] = f.draw(wrong.filter(lambda v: v is not None and (
                not isinstance(v, str) or not_a_card(v))))
        elif field == "points":
            req["points"] = f.pick([-1, -10, 10_001, 2**64, "10", 1.5, True, [10]])
        elif nxt == "carte" and player != t.seat:
            req["shown"] = f.pick(["AS", 5, [5], [None], {"AS": 1}])
        else:
            req["shown"] = f.gen(st.lists(st.sampled_from(CARDS), max_size=3), st.just("AS"))
        return json.dumps(req)
    if kind == "draw" and obs.phase == "declare" and obs.stock > s.rules.nplayers:
        return json.dumps({"cmd": "action", "action": "pass", "player": player})  # no draw
    if kind == "seat" and player == t.seat:
        tries = [f"play {c}" for c in CARDS] + [
            "pass", "exchange", "seven", "carte", "offer", "guess 24", "play QS*", "meld QS*",
            *(f"meld {' '.join(f.rng.sample(CARDS, f.rng.randint(1, 4)))}" for _ in range(3))]
        refused_here = []
        for text in tries:
            try:
                s.clone().apply(text)
            except BeziqueError:
                refused_here.append(text)
        return json.dumps({"cmd": "action", "action": f.pick(refused_here)})
    return json.dumps({"cmd": "action", "action": f.gen(*texts_no_card_helps(s, obs))})


def texts_no_card_helps(s: State, obs: Observation) -> list[st.SearchStrategy[str]]:
    """Action texts that no deal of the unseen cards makes legal for the player to act."""
    out = [st.text(max_size=20).filter(
               lambda x: not x.split() or x.split()[0].lower() not in VERBS),
           st.sampled_from(["play", "play AS KS", "pass AS", "exchange 7H", "meld", "", "  ",
                            "PLAY", "Pass  7H", "play\tZZ", "play ♠", "play 1S", "play QS**"]),
           st.text(min_size=1, max_size=6).filter(
               lambda x: len(x.split()) == 1 and not_a_card(x)).map(lambda x: "play " + x)]
    if obs.phase in ("lead", "follow"):
        out.append(st.sampled_from(["pass", "draw", "exchange", "seven", "meld KH QH", "offer",
                                    "guess 24"]))
    elif obs.phase == "declare":
        out.append(st.sampled_from(CARDS).map(lambda c: "play " + c))
        trump = obs.trump
        out.append(st.lists(st.sampled_from(CARDS), min_size=1, max_size=3).filter(
            lambda cs: s.rules.classify([parse_card(c) for c in cs], trump) is None).map(
            lambda cs: "meld " + " ".join(cs)))
    return out


def bad_start_line(f: Fuzz, t: Table, cmd: str) -> str:
    """A ``new`` or ``position`` with one field that makes it impossible."""
    req = t.start("random", 7, cmd)
    n, rules = t.rules.nplayers, t.rules
    hand = req["hand"]
    field = f.pick(["seat", "dealer", "hand", "turnup", "variant", "options", "totals", "seed",
                    "cut", "agent", "actions", "draws"])
    if field in ("seat", "dealer"):
        req[field] = f.gen(st.integers(n, 99), st.integers(-(2**70), -1), wrong.filter(
            lambda v: not (type(v) is int and 0 <= v < n) and not (field == "dealer"
                                                                   and v is None)))
    elif field == "hand":
        extra = hand[0]
        req["hand"] = f.pick([
            hand[:-1], [*hand, extra], [], " ".join(hand), [*hand[:-1], "XX"],
            [*hand[:-1], 7], [extra] * (rules.copies + 1) + hand[rules.copies + 1:],
            [*hand[:-1], "AS" * 5]])
    elif field == "turnup":
        req["turnup"] = f.pick([None, "XX", 7, ["7H"], "", "7H7H"] if rules.turnup else CARDS)
    elif field == "variant":
        req["variant"] = f.pick(["poker", "", "bezique9", 5, None, ["bezique"]])
    elif field == "options":
        req["options"] = f.pick([{"xyzzy": 1}, {"cut_bonus": "maybe"}, [], "x", 5,
                                 {"partnership": [True]}])
    elif field == "totals":
        req["totals"] = f.pick([[0] * (n + 1), [0] * (n - 1), [-1] * n, ["0"] * n,
                                [10**7] * n, "0,0", [0.0] * n])
    elif field == "seed":
        req["seed"] = f.pick(["1", 1.5, 2**64, -(2**64), True, [1]])
    elif field == "cut":
        req["cut"] = f.pick([0, -1, "5", 1.5, True, MAX_CUT + 1])
    elif field == "agent":
        req["agent"] = f.pick(["no-such-agent", "search:samples=100000000", "random:x=1", "", 5,
                               ["random"], "r" * 300])
    elif field == "actions":
        req["cmd"] = "position"
        req["actions"] = f.pick(["play AS", [5], [[9, "pass"]], [{"player": 0}], ["xyzzy"],
                                 [[0, "play AS", "x"]], {"0": "pass"}])
    else:
        req["cmd"] = "position"
        req["actions"], req["draws"] = [], f.pick([["AS"], "AS", [5]])
    return json.dumps(req)


def bad_line(f: Fuzz, t: Table) -> str:
    s = t.state
    kind = f.pick(["junk", "action", "action", "action", "go", "new", "position"])
    if kind == "junk":
        return str(f.gen(*junk_lines))
    if kind == "action":
        return bad_action_line(f, t)
    if kind == "go":
        if s.is_terminal() or s.current_player() != t.seat:
            return json.dumps({"cmd": "go", "budget_ms": f.gen(st.none(), st.integers(1, 500))})
        budget = f.gen(wrong.filter(bad_budget),
                       st.sampled_from([0, -1, 60_001, 10**9, 0.0, "500"]))
        return json.dumps({"cmd": "go", "budget_ms": budget})
    return bad_start_line(f, t, kind)


# ---------------------------------------------------------------------- 1. bad lines in a game


def session(variant: str, options: dict[str, Any], data: Any) -> None:
    """A whole deal through the protocol, the engine's moves asked with ``go``, bad lines in
    between; see the module's docstring for what is checked."""
    draw = data.draw
    rules = Rules.from_options(variant, options)
    seed = draw(st.integers(0, 10_000), label="deal") + 10_000 * len(variant + str(options))
    rng = random.Random(seed)
    f = Fuzz(data, rng)
    seat = rng.randrange(rules.nplayers)
    bursts = rng.choice([8, 16, 24])  # of three bad lines in the deal
    rate = bursts / (rules.total_tricks * rules.nplayers * 1.3)  # about as many actions
    t = Table(rules, seed, seat, dealer=seed % rules.nplayers)
    e = Engine()
    for _ in range(rng.choice([0, 2])):  # before the first deal
        refused(e.handle(bad_line(f, t)))
        assert e.position is None and e.state is None
    agent_seed = rng.randrange(1000)
    assert e.handle(json.dumps(t.start("random", agent_seed))) == {
        "ok": True, "to_act": t.state.current_player()}
    mine = make_agent("random", seed=agent_seed)  # the engine's agent, on the real view
    while True:
        for _ in range(3 if rng.random() < rate else 0):
            line = bad_line(f, t)
            before = snapshot(e)
            refused(e.handle(line))
            assert snapshot(e) == before, line[:200]
        if rng.random() < 0.1:  # extra fields are ignored
            extra = draw(st.dictionaries(st.text(max_size=8).filter(lambda k: k not in FIELDS),
                                         json_values, max_size=3), label="extra fields")
            before = snapshot(e)
            assert e.handle(json.dumps({**extra, "cmd": "status"})) == before[-1]
            assert e.handle(json.dumps({**extra, "cmd": "hello"}))["ok"]
            assert snapshot(e) == before
        s = t.state
        assert e.handle('{"cmd": "status"}') == status_answer(s.observation(seat))
        if s.is_terminal():
            break
        if s.current_player() == seat:
            go = e.handle('{"cmd": "go"}')
            assert go["ok"] and set(go) == {"ok", "action", "ms"}, go
            assert go["action"] == mine.act(s.observation(seat))
            text = go["action"]
        else:
            text = rng.choice(s.legal_action_strings())
        req = t.play(text)
        if rng.random() < 0.08:  # the whole position again, spelt otherwise; a fresh agent
            req = t.start("random", agent_seed, "position")
            how = rng.randrange(4)
            req["hand"] = [respell(c, how) for c in req["hand"]]
            mine = make_agent("random", seed=agent_seed)
        elif rng.random() < 0.2:
            how = rng.randrange(4)
            words = req["action"].split()
            req["action"] = "  ".join([words[0].upper()]
                                      + [respell(w, how) if w in CARDS else w for w in words[1:]])
            if "draw" in req:
                req["draw"] = respell(req["draw"], how)
        answer = e.handle(json.dumps(req))
        to_act = t.state.current_player()
        assert answer == {"ok": True, "to_act": to_act if to_act >= 0 else None}, (req, answer)
    assert e.state is not None and e.state.observation(seat) == t.state.observation(seat)
    status = e.handle('{"cmd": "status"}')
    assert status["phase"] == "over" and status["scores"] == list(t.state.scores)
    assert "over" in refused(e.handle('{"cmd": "go"}'))
    assert "over" in refused(e.handle('{"cmd": "action", "action": "pass"}'))
    assert e.handle('{"cmd": "quit"}') == {"ok": True, "bye": True} and e.finished


EXAMPLES = {"bezique": 6, "binocle": 6, "rubicon": 3, "sixpack": 2, "bezique3": 2,
            "bezique4": 1, "bezique4-solo": 1}


def run_examples(body: Any, variant: str, options: dict[str, Any], examples: int) -> None:
    """Run ``body(variant, options, data)`` for ``examples`` hypothesis examples."""

    @settings(max_examples=examples, **SETTINGS)  # type: ignore[arg-type]
    @given(data=st.data())
    def run(data: Any) -> None:
        body(variant, options, data)

    run()


@pytest.mark.parametrize(("variant", "options"), CONFIGS, ids=IDS)
def test_bad_lines_change_nothing_and_the_deal_plays_to_its_end(
        variant: str, options: dict[str, Any], request: pytest.FixtureRequest) -> None:
    run_examples(session, variant, options, EXAMPLES[request.node.callspec.id])


# ---------------------------------------------------------------------- 2. hidden cards


def _hidden_differ(a: State, b: State, seat: int) -> bool:
    """Whether ``a`` and ``b`` deal the cards ``seat`` never saw otherwise."""
    others = [[card_of(p) for p in h] for k, h in enumerate(a.deal_hands) if k != seat]
    theirs = [[card_of(p) for p in h] for k, h in enumerate(b.deal_hands) if k != seat]
    return others != theirs or [card_of(p) for p in a.stock] != [card_of(p) for p in b.stock]


def hidden_cards(variant: str, options: dict[str, Any], data: Any) -> None:
    draw = data.draw
    rules = Rules.from_options(variant, options)
    seed = draw(st.integers(0, 10_000), label="deal") + 10_000 * len(variant + str(options))
    rng = random.Random(seed)  # (hypothesis's first example would be seat 0 at the start)
    seat = rng.randrange(rules.nplayers)
    moves = rng.randrange(3 * rules.total_tricks)
    a = Table(rules, seed, seat, dealer=seed % rules.nplayers)
    texts: list[str] = []
    while not a.state.is_terminal() and (len(texts) < moves
                                         or a.state.current_player() != seat):
        texts.append(rng.choice(a.state.legal_action_strings()))
        a.play(texts[-1])
    # a second deal that the seat cannot tell from the first: the engine's own world
    probe = Engine()
    assert probe.handle(json.dumps(a.start("random", rng.randrange(1, 10**6),
                                           "position")))["ok"]
    assert probe.state is not None
    w = probe.state
    b = Table(rules, 0, seat, a.state.dealer)
    b.state = State.from_cards(rules, [[card_of(p) for p in h] for h in w.deal_hands],
                               card_of(w.turnup_card) if rules.turnup else None,
                               [card_of(p) for p in w.stock], w.dealer, w.totals)
    for text in texts:
        b.play(text)
    assert b.state.observation(seat) == a.state.observation(seat)
    assert b.steps == a.steps  # what a client tells the engine holds no hidden card
    differ = _hidden_differ(a.state, b.state, seat)
    spec = rng.choice(["random", "heuristic", "search:samples=3"])
    agent_seed = rng.randrange(1000)
    answers = []
    for table in (a, b):
        e = Engine()
        assert e.handle(json.dumps(table.start(spec, agent_seed, "position")))["ok"]
        assert e.handle('{"cmd": "status"}') == status_answer(table.state.observation(seat))
        if not table.state.is_terminal():
            answers.append(e.handle('{"cmd": "go"}'))
    if not answers:
        assert differ
        return
    assert answers[0]["ok"] and answers[1]["ok"], answers
    assert answers[0]["action"] == answers[1]["action"]
    # the very move the agent makes from the real deal's view of the seat
    assert answers[0]["action"] == make_agent(spec, seed=agent_seed).act(
        a.state.observation(seat))
    # and the same after the actions one by one, bad lines between, in a used session
    e = Engine()
    e.handle(json.dumps(Table(rules, seed + 1, seat, 0).start("heuristic", 3)))
    e.handle('{"cmd": "go"}')
    assert e.handle(json.dumps(a.start(spec, agent_seed)))["ok"]
    for step in a.steps:
        refused(e.handle(json.dumps({"cmd": "action", "action": "xyzzy"})))
        assert e.handle(json.dumps({"cmd": "action", **step}))["ok"]
    assert e.handle('{"cmd": "go"}')["action"] == answers[0]["action"]
    assert differ  # the second deal is another deal


HIDDEN_EXAMPLES = {"bezique": 5, "binocle": 5, "rubicon": 4, "sixpack": 3, "bezique3": 3,
                   "bezique4": 3, "bezique4-solo": 3}


@pytest.mark.parametrize(("variant", "options"), CONFIGS, ids=IDS)
def test_the_answers_do_not_depend_on_the_cards_the_seat_cannot_see(
        variant: str, options: dict[str, Any], request: pytest.FixtureRequest) -> None:
    run_examples(hidden_cards, variant, options, HIDDEN_EXAMPLES[request.node.callspec.id])


# ---------------------------------------------------------------------- 3. the command line


def test_the_command_line_engine_answers_every_line_once() -> None:
    """``bezique engine`` as a GUI runs it: bytes that are no UTF-8, a stray carriage return
    inside a line, CRLF line ends, lines of other white space, huge lines, between the lines of
    a whole deal; one answer line for each line that is not blank, the same answers as
    in-process, nothing on stderr, exit status 0 after ``quit``."""
    t = Table(Rules.preset("bezique"), 11, 1, dealer=0)
    e = Engine()
    lines: list[bytes] = []
    expected: list[dict[str, Any]] = []

    def send(line: bytes) -> None:
        lines.append(line)
        text = line.decode("utf-8", errors="replace")
        if text.strip(" \t\r\n"):
            expected.append(e.handle(text))  # the line without its end

    odd = [b"\xff\xfe not utf-8", b'{"cmd": "hello"}\r{"cmd": "nope"}', b"abc\rdef", b"",
           b" \t ", b"\xc2\xa0", b"\x1c", b"\r", b'{"cmd": "status"}\r', b"\xe2\x80\xa8",
           b'{"cmd": "action", "action": "play \xed\xa0\x80"}',
           *(line.encode("utf-8", "surrogatepass") for line in ODD_LINES)]
    send(json.dumps(t.start("random", 4)).encode())
    rng = random.Random(11)
    k = 0
    while not t.state.is_terminal():
        send(odd[k % len(odd)])
        k += 1
        if t.state.current_player() == t.seat:
            send(b'{"cmd": "go"}')
            text = expected[-1]["action"]
        else:
            text = rng.choice(t.state.legal_action_strings())
        send(json.dumps(t.play(text)).encode())
    assert k > len(odd)
    send(b'{"cmd": "status"}')
    assert expected[-1] == status_answer(t.state.observation(t.seat))
    send(b'{"cmd": "quit"}')
    lines.append(b'{"cmd": "hello"}')  # after 'quit': not read
    proc = subprocess.run([sys.executable, "-m", "bezique", "engine"],
                          input=b"\n".join(lines) + b"\n", capture_output=True, timeout=300)
    assert proc.returncode == 0 and proc.stderr == b""
    answers = [json.loads(line) for line in proc.stdout.decode("ascii").split("\n")[:-1]]
    assert len(answers) == len(expected)
    for got, want in zip(answers, expected, strict=True):
        got.pop("ms", None)
        want.pop("ms", None)
        assert got == want
        if not got["ok"]:
            refused(got)


# ---------------------------------------------------------------------- the defects found


def _table_midway(variant: str, seed: int, actions: int) -> tuple[Engine, Table]:
    rules = Rules.preset(variant)
    t = Table(rules, seed, 0, dealer=rules.nplayers - 1)
    e = Engine()
    assert e.handle(json.dumps(t.start("random", 1)))["ok"]
    rng = random.Random(seed)
    while len(t.steps) < actions or t.state.current_player() == 0 \
            or t.state.observation(0).phase not in ("lead", "follow"):
        assert e.handle(json.dumps(t.play(rng.choice(t.state.legal_action_strings()))))["ok"]
    return e, t


@pytest.mark.parametrize("variant", ["bezique3", "bezique4"])
def test_at_a_table_a_draw_or_shown_on_another_action_is_refused(variant: str) -> None:
    """At a table a 'draw' on a card play was taken without a word and given to the seat at
    its next pass (its hand then went wrong), and 'shown' was ignored; with two seats both are
    refused, and now at a table too."""
    e, t = _table_midway(variant, 2, 12)
    play = t.state.legal_action_strings()[0]
    player = t.state.current_player()
    before = snapshot(e)
    error = refused(e.handle(json.dumps({"cmd": "action", "action": play, "player": player,
                                         "draw": "AS"})))
    assert error == f"action {len(t.steps) + 1} ({play!r}): only a 'pass' has a 'draw'"
    error = refused(e.handle(json.dumps({"cmd": "action", "action": play, "shown": ["7C"]})))
    assert "only the opponent's 'carte' has 'shown'" in error
    assert snapshot(e) == before


@pytest.mark.parametrize("variant", ["bezique3", "bezique4"])
def test_at_a_table_an_action_no_card_can_make_legal_is_refused_at_once_with_its_reason(
        variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another seat's 'play ZZ', 'xyzzy' or 'pass' in the middle of a trick sent the engine
    repairing deal after deal (20 of them, for seconds, more the longer the deal), then answered
    only "no deal fits these actions: too many repairs"."""
    e, t = _table_midway(variant, 5, 40)
    n = len(t.steps) + 1
    player = t.state.current_player()
    deals = []
    dealt = table_world._World.__init__

    def counted(self: Any, *args: Any) -> None:
        deals.append(1)
        dealt(self, *args)

    monkeypatch.setattr(table_world._World, "__init__", counted)
    for text, reason in (("play ZZ", "'ZZ' is not a card"),
                         ("xyzzy", "'xyzzy' is not an action"),
                         ("play AS KS", "is not an action"),
                         ("pass", "you can only declare after winning a trick"),
                         ("meld KH QH", "a card must be played now"),
                         ("exchange", "a card must be played now")):
        deals.clear()
        req = {"cmd": "action", "action": text, **({"draw": "AS"} if text == "pass" else {})}
        error = refused(e.handle(json.dumps(req)))
        assert error.startswith(f"action {n} ({text!r} by player {player}) is refused: "), error
        assert reason in error, error
        assert len(deals) == 1, text  # refused in the first deal tried, not after 20
