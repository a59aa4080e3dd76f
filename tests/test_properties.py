"""Properties of the engine over many random seeded deals of both presets and several options.

Each example draws a rule set and a seed; the deal and the players' choices both follow from the
seed, so a failure reproduces from the printed example.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bezique import IllegalActionError, Rules, State
from bezique.cards import bits, card_of
from bezique.game import Game
from bezique.record import game_record, parse_record, replay

# Rule sets: both presets and options that change how scoring, melding or the end work.
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("bezique", {}),
    ("binocle", {}),
    ("bezique", {"brisques": "immediate"}),
    ("bezique", {"last_trick": "stock"}),
    ("bezique", {"melds_per_trick": 2}),
    ("bezique", {"seven": "played"}),
    ("bezique", {"reform": True}),
    ("bezique", {"fresh_card": "every"}),
    ("bezique", {"end_check": "immediate", "target": 300}),
    ("bezique", {"seven_counts_as_meld": True, "cross_class": "increase"}),
    ("bezique", {"bezique_pair": "swap", "fours_distinct_suits": True}),
    ("binocle", {"melds_per_trick": 2, "reform": True, "brisques": "immediate"}),
    ("binocle", {"last_trick": "stock", "seven": "played"}),
]
RULES = [Rules.preset(v, **o) for v, o in CONFIGS]

rules_st = st.sampled_from(RULES)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def choose(state: State, rng: random.Random) -> int:
    """A random legal action, declaring more often than uniformly so melds get exercised."""
    legal = state.legal_actions()
    if state.phase == "declare" and len(legal) > 1 and rng.random() < 0.8:
        legal = [a for a in legal if a != 256]
    return rng.choice(legal)


def play(rules: Rules, seed: int, steps: int | None = None) -> State:
    """A deal from ``seed`` played by random players for ``steps`` actions (None: to the end)."""
    state = State.new_deal(rules, seed, dealer=seed % 2)
    rng = random.Random(seed * 7 + 1)
    n = 0
    while not state.is_terminal() and (steps is None or n < steps):
        state.apply_action(choose(state, rng))
        n += 1
    return state


def deck_mask(rules: Rules) -> int:
    m = 0
    for p in rules.deck:
        m |= 1 << p
    return m


def check_accounting(state: State, full: int) -> None:
    masks = state.all_masks()
    union = 0
    total = 0
    for m in masks.values():
        assert union & m == 0, f"a card is in two places: {masks}"
        union |= m
        total += m.bit_count()
    assert union == full
    assert total == state.rules.deck_size


def check_scores(state: State) -> None:
    per_seat = [0, 0]
    for seat, pts, _reason, _detail in state.events:
        per_seat[seat] += pts
    assert list(state.scores) == per_seat
    assert state.game_scores == (
        state.totals[0] + state.scores[0],
        state.totals[1] + state.scores[1],
    )


# ---------------------------------------------------------------------------- cheap, many deals


@settings(max_examples=6000, deadline=None)
@given(rules=rules_st, seed=seeds)
def test_every_card_accounted_for_and_scores_are_the_events(rules: Rules, seed: int) -> None:
    """At every step the pack is exactly partitioned; deal scores are the sum of the events."""
    full = deck_mask(rules)
    state = State.new_deal(rules, seed, dealer=seed % 2)
    rng = random.Random(seed)
    while True:
        check_accounting(state, full)
        check_scores(state)
        if state.is_terminal():
            break
        state.apply_action(choose(state, rng))
    if rules.variant == "bezique":
        assert all(s % 10 == 0 for s in state.scores)
    if state.winner is not None and rules.end_check == "immediate":
        return  # the game may stop before the last trick
    assert state.tricks_played == rules.total_tricks
    assert state.stock_left == 0 and state.turnup is None
    last = [e for e in state.events if e[2] == "last trick"]
    assert len(last) == 1 and last[0][1] == 10
    if rules.last_trick == "final":
        assert last[0][0] == state.last_trick_winner
    bris = sum(state.brisques)
    assert bris == (160 if rules.variant == "bezique" else 240)
    counted = sum(e[1] for e in state.events if e[2] == "brisques")
    assert counted == bris
    assert sum(e[1] for e in state.events if e[2] in ("brisques", "last trick")) == (
        170 if rules.variant == "bezique" else 250
    )


# ---------------------------------------------------------------------------- undo and clone


@settings(max_examples=800, deadline=None)
@given(rules=rules_st, seed=seeds)
def test_undo_restores_every_state_back_to_the_deal(rules: Rules, seed: int) -> None:
    state = State.new_deal(rules, seed, dealer=seed % 2)
    rng = random.Random(seed)
    keys = [state.key()]
    legal = [state.legal_action_strings()]
    while not state.is_terminal():
        state.apply_action(choose(state, rng))
        keys.append(state.key())
        legal.append(state.legal_action_strings())
    final = state.clone()
    for key, leg in zip(reversed(keys[:-1]), reversed(legal[:-1]), strict=True):
        state.undo_action()
        assert state.key() == key
        assert state.legal_action_strings() == leg
    with pytest.raises(IllegalActionError):
        state.undo_action()
    assert state.key() == keys[0]
    assert final.key() == keys[-1]  # the clone kept the end


@settings(max_examples=600, deadline=None)
@given(rules=rules_st, seed=seeds, cut=st.floats(0, 1))
def test_clone_is_independent(rules: Rules, seed: int, cut: float) -> None:
    rng = random.Random(seed + 1)
    state = play(rules, seed, int(cut * 90))
    if state.is_terminal():
        return
    key = state.key()
    twin = state.clone()
    assert twin.key() == key
    while not twin.is_terminal():  # acting on the clone leaves the original alone
        twin.apply_action(choose(twin, rng))
    assert state.key() == key
    twin_key = twin.key()
    state.apply_action(choose(state, rng))  # and the other way round
    assert twin.key() == twin_key
    state.undo_action()
    assert state.key() == key


# ---------------------------------------------------------------------------- illegal actions

junk_ints = st.one_of(
    st.integers(min_value=-300, max_value=600),
    st.integers(min_value=-(2**40), max_value=2**80),
)
card_words = st.sampled_from(
    ["QS", "JD", "KH", "qs", "10h", "T♥", "7C", "9D", "AS", "XX", "Q", "QS*", "QS*2", "KS*1", ""]
)
junk_texts = st.one_of(
    st.text(max_size=12),
    st.builds(
        lambda verb, cards: " ".join([verb, *cards]),
        st.sampled_from(["play", "meld", "pass", "exchange", "seven", "draw", "PLAY", "foo"]),
        st.lists(card_words, max_size=5),
    ),
)


def meld_masks_of(state: State, rng: random.Random) -> list[int]:
    """Meld-shaped ints made of cards the player holds, legal or not."""
    seat = max(state.current_player(), 0)
    masks = state.all_masks()
    held = list(bits(masks[f"hand{seat}"] | masks[f"shown{seat}"]))
    out = []
    for _ in range(4):
        k = rng.randint(1, min(5, len(held))) if held else 1
        m = 0
        for p in rng.sample(held, min(k, len(held))):
            m |= 1 << p
        out.append(m << 9)
    return out


def check_refusal_or_legal(state: State, action: int) -> None:
    """An action int is accepted exactly when ``legal_actions`` lists it (then its text is
    legal too); a refusal changes nothing."""
    legal = state.legal_action_strings()
    key = state.key()
    expected_ok = action in state.legal_actions()
    try:
        text: str | None = state.action_to_string(action)
    except (IndexError, ValueError):
        text = None
    if expected_ok:
        assert text in legal
    try:
        state.apply_action(action)
    except IllegalActionError as e:
        assert str(e)
        assert not expected_ok, f"{text} is listed as legal but was refused: {e}"
        assert state.key() == key
        return
    assert expected_ok, f"action {action} ({text}) was accepted but is not legal"
    state.undo_action()
    assert state.key() == key


@settings(max_examples=1000, deadline=None)
@given(
    rules=rules_st,
    seed=seeds,
    cut=st.floats(0, 1),
    ints=st.lists(junk_ints, min_size=1, max_size=8),
    texts=st.lists(junk_texts, min_size=1, max_size=8),
)
def test_illegal_actions_raise_and_change_nothing(
    rules: Rules, seed: int, cut: float, ints: list[int], texts: list[str]
) -> None:
    rng = random.Random(seed)
    state = play(rules, seed, int(cut * 95))
    candidates = ints + list(range(0, 256, 7)) + [256, 257, 258] + meld_masks_of(state, rng)
    for a in candidates:
        check_refusal_or_legal(state, a)
    for text in texts:
        key = state.key()
        try:
            a = state.string_to_action(text)
        except IllegalActionError as e:
            assert str(e)
            assert state.key() == key
            continue
        check_refusal_or_legal(state, a)


# ---------------------------------------------------------------------------- records


@settings(max_examples=200, deadline=None)
@given(rules=rules_st, seed=seeds, target=st.sampled_from([300, 600, 1000]))
def test_written_record_replays_to_the_same_game(rules: Rules, seed: int, target: int) -> None:
    """A played game, written as a record (through JSON) and replayed, gives the same result."""
    rules = rules.with_options(target=target)
    game = Game(rules, seed=seed, first_dealer=seed % 2)
    rng = random.Random(seed)
    deals = 0
    while True:
        state = game.state
        while not state.is_terminal():
            state.apply_action(choose(state, rng))
        deals += 1
        if game.is_over() or deals >= 4:
            break
        game.next_deal()
    record = json.loads(json.dumps(game.to_record()))
    assert record == json.loads(json.dumps(game_record(rules, game.all_deals())))
    result = replay(parse_record(record))
    assert len(result["deals"]) == deals
    for rd, st_ in zip(result["deals"], game.all_deals(), strict=True):
        assert all(step["ok"] for step in rd["steps"])
        assert rd["finished"] is True
        assert rd["scores"] == list(st_.game_scores)
        assert rd["brisques"] == list(st_.brisques)
        if rd["steps"]:  # (a turned-up seven may end the game before any action)
            assert rd["steps"][-1]["scores"] == list(st_.game_scores)
        assert [s["player"] for s in rd["steps"]] == [p for p, _ in st_.history()]
    assert result["game"] == {"scores": list(game.totals), "winner": game.winner}


# ---------------------------------------------------------------------------- hidden information


def unseen_positions(state: State, seat: int) -> tuple[list[tuple[str, int, int]], Counter[int]]:
    """Positions of the deal (``hand`` i / ``stock`` j) whose card ``seat`` has not seen, and
    the multiset of those cards as the seat's observation implies it."""
    other = 1 - seat
    obs = state.observation(seat)
    masks = state.all_masks()
    opp_hand = masks[f"hand{other}"]
    known = Counter(obs.opponent_known)
    hidden = Counter(card_of(p) for p in bits(opp_hand))
    hidden.subtract(known)
    assert min(hidden.values(), default=0) >= 0, "opponent_known is not in the opponent's hand"
    stock_left = state.stock[len(state.stock) - state.stock_left :]
    # Pick, for each card value, positions of that many concealed copies (values are what count).
    want = +hidden
    pos: list[tuple[str, int, int]] = []
    places = [("hand", i, p) for i, p in enumerate(state.deal_hands[other])]
    places += [("stock", j, p) for j, p in enumerate(state.stock)]
    # Copies the seat has seen (a turn-up taken, shown cards back in the hand) go last.
    places.sort(key=lambda place: bool(state.known_masks[other] >> place[2] & 1))
    for where, i, p in places:
        if opp_hand >> p & 1 and want[card_of(p)] > 0:
            want[card_of(p)] -= 1
            pos.append((where, i, p))
    assert not +want
    pos += [("stock", len(state.stock) - state.stock_left + j, p) for j, p in enumerate(stock_left)]
    unseen = +hidden + Counter(card_of(p) for p in stock_left)
    return pos, unseen


def rebuild(state: State, seat: int, rng: random.Random) -> State:
    """The same deal with the cards ``seat`` has not seen shuffled among their places, and the
    same actions replayed by their text."""
    pos, _ = unseen_positions(state, seat)
    other = 1 - seat
    hands = [[card_of(p) for p in h] for h in state.deal_hands]
    stock = [card_of(p) for p in state.stock]
    values = [card_of(p) for _, _, p in pos]
    rng.shuffle(values)
    for (where, i, _), v in zip(pos, values, strict=True):
        if where == "hand":
            hands[other][i] = v
        else:
            stock[i] = v
    world = State.from_cards(
        state.rules, hands, card_of(state.turnup_card), stock, state.dealer, state.totals
    )
    return world


# Fields of Observation that agents used to work out for themselves.
PUBLIC_FACTS = ("turnup_dealt", "end_phase", "tricks_played", "brisques", "known_to_opponent")


@settings(max_examples=200, deadline=None)
@given(rules=rules_st, seed=seeds, cut=st.floats(0, 1), seat=st.sampled_from([0, 1]))
def test_observation_does_not_depend_on_unseen_cards(
    rules: Rules, seed: int, cut: float, seat: int
) -> None:
    """Shuffling what a seat has not seen (the other hand's unknown cards, the stock) and
    replaying the same action texts gives that seat the same observation at every step."""
    _check_unseen_shuffle(rules, seed, cut, seat)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(rules=rules_st, seed=seeds, cut=st.floats(0, 1), seat=st.sampled_from([0, 1]))
def test_observation_does_not_depend_on_unseen_cards_many(
    rules: Rules, seed: int, cut: float, seat: int
) -> None:
    """The same as above over twice the examples (CI runs it with ``-m slow``)."""
    _check_unseen_shuffle(rules, seed, cut, seat)


def _check_unseen_shuffle(rules: Rules, seed: int, cut: float, seat: int) -> None:
    """The seat's observation is the same, step by step, in a world that shuffles what it has
    not seen, and names none of the other hand's concealed cards."""
    state = play(rules, seed, int(cut * 100))
    history = [text for _, text in state.history_strings()]
    rng = random.Random(seed ^ 0xA5A5)
    for _ in range(2):
        world = rebuild(state, seat, rng)
        probe = State.from_cards(
            state.rules,
            [[card_of(p) for p in h] for h in state.deal_hands],
            card_of(state.turnup_card),
            [card_of(p) for p in state.stock],
            state.dealer,
            state.totals,
        )
        assert world.observation(seat) == probe.observation(seat)
        for text in history:
            probe.apply(text)
            world.apply(text)
            if world.events != probe.events:
                # The shuffle gave the other seat cards that change a public outcome (say, an
                # unscored seven of trumps makes its ``exchange`` score): the seat would have
                # seen that, so this world is not one it cannot tell from the real one.
                assert world.observation(seat).scores != probe.observation(seat).scores
                break
            assert world.observation(seat) == probe.observation(seat), text
            # (the equality covers every field; the public facts added to the observation
            # are named here so that a failure says which)
            for name in PUBLIC_FACTS:
                assert getattr(world.observation(seat), name) == getattr(
                    probe.observation(seat), name), (name, text)
    obs = state.observation(seat)
    assert obs.turnup_dealt == card_of(state.turnup_card)
    assert obs.tricks_played == len(obs.tricks) == state.tricks_played
    assert obs.end_phase == (obs.turnup is None)
    assert obs.brisques == state.brisques
    assert obs.known_to_opponent == state.observation(1 - seat).opponent_known
    _, unseen = unseen_positions(state, seat)
    assert obs.unseen() == unseen
    # The other seat's concealed unknown cards are not anywhere in the observation as a list.
    other = 1 - seat
    hidden = Counter(state.hand(other))
    hidden.subtract(Counter(obs.opponent_known))
    secret = tuple(sorted((+hidden).elements(), key=lambda c: (c >> 3, c & 7)))
    if len(secret) >= 3 and secret != obs.hand:
        for name in obs.__dataclass_fields__:
            assert getattr(obs, name) != secret, name


def test_negative_action_number_is_refused() -> None:
    """A negative number is no action: refused with the package's error, nothing changed."""
    state = State.new_deal(RULES[0], seed=5)
    key = state.key()
    with pytest.raises(IllegalActionError, match="not an action"):
        state.apply_action(-1)
    assert state.key() == key
