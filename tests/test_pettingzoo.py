"""The PettingZoo environment and the encoding it shares with the Gymnasium one: PettingZoo's own
API and seed tests, the action mask against the engine's legal actions, the observation vector
seeing nothing hidden, rewards, games and random play over many deals."""

from __future__ import annotations

import functools
import random
import subprocess
import sys

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from bezique import IllegalActionError, Rules, State  # noqa: E402
from bezique.cards import card_name  # noqa: E402
from bezique.encoding import (  # noqa: E402
    BLOCKS,
    EXCHANGE,
    LAYOUT,
    MELD,
    NUM_ACTIONS,
    OBS_SIZE,
    PASS,
    PLAY_SHOWN,
    SEVEN,
    action_index,
    action_mask,
    decode_action,
    encode_observation,
    layout_table,
    legal_index_map,
    meld_slots,
)
from bezique.errors import OptionError  # noqa: E402
from bezique.pettingzoo import AGENTS, BeziqueAEC, env, raw_env  # noqa: E402

VARIANTS = ("bezique", "binocle")

# PettingZoo's checks advise a Box observation; ours is the usual dict with an action mask.
pytestmark = [pytest.mark.filterwarnings("ignore:Observation space for each agent"),
              pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")]


def random_deal_states(variant: str, deals: int, seed: int = 0) -> list[State]:
    """Every position of ``deals`` random deals."""
    rng = random.Random(seed)
    out = []
    for d in range(deals):
        s = State.new_deal(Rules.preset(variant), seed=seed * 1000 + d, dealer=d % 2)
        while not s.is_terminal():
            out.append(s.clone())
            s.apply(rng.choice(s.legal_action_strings()))
    return out


# ------------------------------------------------------------------ PettingZoo's own tests


@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_api_test(variant: str) -> None:
    api_test(env(variant=variant), num_cycles=1000)


def test_pettingzoo_api_test_game_and_win_rewards() -> None:
    api_test(env(variant="binocle", game=True, target=300, reward="win", render_mode="ansi"),
             num_cycles=2000)


@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_seed_test(variant: str) -> None:
    seed_test(functools.partial(env, variant=variant), num_cycles=1000)


def test_reset_seed_fixes_the_deal_and_the_dealer() -> None:
    def deal(seed: int | None, e: BeziqueAEC) -> tuple[object, ...]:
        e.reset(seed=seed)
        s = e.episode.state
        return (s.deal_hands, s.stock, s.turnup_card, s.dealer)

    a, b = raw_env(), raw_env()
    assert deal(7, a) == deal(7, b)
    assert deal(None, a) == deal(None, b)  # unseeded resets go on from the seeded generator
    assert deal(7, a) != deal(8, b)
    assert len({deal(s, a) for s in range(6)}) == 6
    assert {deal(s, a)[3] for s in range(20)} == {0, 1}
    assert {deal(s, raw_env(dealer=0))[3] for s in range(10)} == {0}


# ------------------------------------------------------------------ the action encoding


def test_the_action_layout() -> None:
    assert NUM_ACTIONS == 83 == MELD + 16
    assert (PLAY_SHOWN, PASS, EXCHANGE, SEVEN, MELD) == (32, 64, 65, 66, 67)
    assert meld_slots(Rules.preset("bezique")) == (
        "marriage S", "marriage H", "marriage D", "marriage C", "sequence", "bezique",
        "double bezique", "four aces", "four kings", "four queens", "four jacks")
    assert len(meld_slots(Rules.preset("binocle"))) == 16


def test_variants_the_encoding_cannot_describe_are_refused() -> None:
    for variant in ("bezique3", "bezique4"):  # two seats only (the multi-pack games: test_env_cut)
        with pytest.raises(OptionError, match="two-handed games"):
            env(variant=variant)
    with pytest.raises(OptionError, match="'cut_bonus' does not apply to bezique"):
        env(variant="bezique", cut_bonus=True)
    with pytest.raises(OptionError):
        env(reward="money")
    with pytest.raises(OptionError):
        env(render_mode="rgb_array")  # "human" prints the ansi view (test_research_review2)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_mask_marks_exactly_the_encodable_legal_actions(variant: str) -> None:
    """Every legal text has an index (a meld: its slot's); each masked index decodes to a legal
    text; plays, pass, exchange and seven are each their own index; nothing else decodes."""
    rules = Rules.preset(variant)
    seen_kinds: set[str] = set()
    for s in random_deal_states(variant, 12):
        obs = s.observation(s.current_player())
        m = legal_index_map(obs)
        mask = action_mask(obs)
        assert [i for i, x in enumerate(mask) if x] == sorted(m)
        assert set(m.values()) <= set(obs.legal)
        for text in obs.legal:
            i = action_index(obs, text)
            seen_kinds.add(text.split()[0])
            if text.startswith("meld"):
                assert m[i].startswith("meld") and i >= MELD
                assert meld_slots(rules)[i - MELD] in {
                    *meld_slots(rules)[:4], *(k.name for k in rules.melds)}
            elif "*1" in text or "*2" in text:
                assert m[i].split("*")[0] == text.split("*")[0]
            else:
                assert m[i] == text
        for i in range(NUM_ACTIONS):
            if not mask[i]:
                with pytest.raises(IllegalActionError):
                    decode_action(obs, i)
    assert {"play", "meld", "pass"} <= seen_kinds


def test_shown_and_concealed_copies_of_a_card_are_two_indices() -> None:
    hits = 0
    for s in random_deal_states("bezique", 20, seed=3):
        obs = s.observation(s.current_player())
        m = legal_index_map(obs)
        for c in range(32):
            if c in m and PLAY_SHOWN + c in m:
                hits += 1
                assert m[c] == f"play {card_name(c)}"
                assert m[PLAY_SHOWN + c].startswith(f"play {card_name(c)}*")
    assert hits > 0


def test_a_meld_slot_declares_the_choice_that_shows_fewest_concealed_cards() -> None:
    """Four kings with a king of hearts already shown in a royal marriage: of the five legal
    four-kings melds the slot takes the first that uses the shown king."""
    from helpers import deal

    rules = Rules.preset("bezique")
    s = deal(["KH", "KH", "QH", "KS", "KD", "KC", "AS", "8C"],
             ["9S", "9S", "8S", "8S", "9D", "9D", "8D", "8D"], turnup="8H", r=rules)
    for text in ("play AS", "play 8S", "meld KH QH", "pass", "play 8C", "play 9S"):
        s.apply(text)
    obs = s.observation(0)
    kings = [t for t in obs.legal if t.startswith("meld")]
    assert len(kings) == 5 and "meld KS KH KD KC" in kings
    chosen = legal_index_map(obs)[MELD + meld_slots(rules).index("four kings")]
    assert chosen == next(t for t in kings if "KH*" in t)
    assert sorted(legal_index_map(obs)) == [PASS, MELD + meld_slots(rules).index("four kings")]


# ------------------------------------------------------------------ the observation vector


def test_the_layout_is_contiguous_and_documented() -> None:
    start = 0
    for b in LAYOUT:
        assert b.start == start
        start += b.size
    assert start == OBS_SIZE == 371
    table = layout_table()
    assert all(f"`{b.name}`" in table for b in LAYOUT)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_vector_is_the_same_in_worlds_that_differ_only_in_hidden_cards(variant: str) -> None:
    """Swap one of seat 1's dealt cards with the bottom card of the stock: until that card is
    drawn (and while seat 1 plays neither card), seat 0's vector and mask are the same."""
    rules = Rules.preset(variant)
    checked = 0
    for seed in range(6):
        a = State.new_deal(rules, seed=seed, dealer=seed % 2)
        hands = [[p & 31 for p in h] for h in a.deal_hands]
        stock = [p & 31 for p in a.stock]
        j = next(i for i, c in enumerate(hands[1]) if c != stock[-1])
        c, d = hands[1][j], stock[-1]
        hands_b = [list(hands[0]), list(hands[1])]
        hands_b[1][j] = d
        stock_b = [*stock[:-1], c]
        b = State.from_cards(rules, hands_b, a.turnup_card & 31, stock_b, dealer=a.dealer)
        a = State.from_cards(rules, hands, a.turnup_card & 31, stock, dealer=a.dealer)
        rng = random.Random(seed)
        banned = {card_name(c), card_name(d)}
        while a.stock_left > 0 and not a.is_terminal():
            va, vb = encode_observation(a.observation(0)), encode_observation(b.observation(0))
            assert va == vb
            assert action_mask(a.observation(0)) == action_mask(b.observation(0))
            checked += 1
            if a.current_player() == 0:
                text = rng.choice(a.legal_action_strings())
            else:
                common = [t for t in a.legal_action_strings() if t in b.legal_action_strings()
                          and not banned & set(w.strip("*12") for w in t.split()[1:])]
                if not common:
                    break
                text = rng.choice(common)
            a.apply(text)
            b.apply(text)
    assert checked > 100


def test_the_vector_counts_what_the_seat_sees() -> None:
    s = State.new_deal(Rules.preset("bezique"), seed=11, dealer=1)
    obs = s.observation(0)
    v = encode_observation(obs)
    hand = BLOCKS["hand"]
    assert sum(v[hand.start:hand.start + 32]) == 8
    unseen = BLOCKS["unseen"]
    assert sum(v[unseen.start:unseen.start + 32]) == 64 - 8 - 1  # the turn-up is seen
    assert v[BLOCKS["turnup"].start + obs.turnup] == 1  # type: ignore[operator]
    assert v[BLOCKS["trump"].start + obs.trump] == 1
    assert v[BLOCKS["phase"].start] == 1 and v[BLOCKS["to_act"].start] == 1
    assert v[BLOCKS["stock"].start] == 1.0
    assert v[BLOCKS["dealer"].start] == 0


# ------------------------------------------------------------------ stepping, rewards, games


def test_every_masked_index_applies_and_unmasked_ones_are_refused() -> None:
    e = raw_env("bezique")
    e.reset(seed=5)
    rng = random.Random(5)
    steps = 0
    while not e.terminations[e.agent_selection]:
        obs = e.observe(e.agent_selection)
        mask = obs["action_mask"]
        legal = np.flatnonzero(mask)
        assert len(legal) > 0
        bad = int(rng.choice(np.flatnonzero(mask == 0)))
        before = e.episode.state.observation(0).text()
        with pytest.raises(IllegalActionError):
            e.step(bad)
        assert e.episode.state.observation(0).text() == before
        e.step(int(rng.choice(legal)))
        steps += 1
    assert steps > 50


def test_the_wrapped_env_ends_the_episode_on_an_unmasked_index() -> None:
    e = env("bezique", dealer=1)
    e.reset(seed=1)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    e.step(int(np.flatnonzero(mask == 0)[0]))  # PettingZoo logs a warning
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1000.0
    e2 = env("bezique", reward="win", illegal_reward=-5.0)
    e2.reset(seed=1)
    e2.step(int(np.flatnonzero(e2.observe(e2.agent_selection)["action_mask"] == 0)[0]))
    assert min(e2.rewards.values()) == -5.0


def play_out(e: BeziqueAEC, rng: np.random.Generator) -> dict[str, float]:
    """Random masked play to the end; the rewards each agent collected."""
    got = dict.fromkeys(AGENTS, 0.0)
    space = e.observation_space(AGENTS[0])
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        got[agent] += reward
        assert space.contains(obs)
        if terminated or truncated:
            e.step(None)
            continue
        assert reward == 0.0
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return got


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_play_over_many_deals(variant: str) -> None:
    e = raw_env(variant)
    rng = np.random.default_rng(0)
    for seed in range(25):
        e.reset(seed=seed)
        got = play_out(e, rng)
        state = e.episode.state
        assert state.is_terminal()
        assert [got[a] for a in AGENTS] == state.returns()


def test_win_rewards_and_a_whole_game() -> None:
    e = raw_env("bezique", reward="win")
    e.reset(seed=2)
    got = play_out(e, np.random.default_rng(2))
    s = e.episode.state
    assert got["player_0"] == float((s.scores[0] > s.scores[1]) - (s.scores[0] < s.scores[1]))
    g = raw_env("binocle", game=True, target=400)
    g.reset(seed=4)
    got = play_out(g, np.random.default_rng(4))
    game = g.episode.game
    assert game is not None and game.is_over() and len(game.deals) >= 1
    assert got["player_0"] == -got["player_1"] == game.totals[0] - game.totals[1]
    gw = raw_env("binocle", game=True, target=400, reward="win")
    gw.reset(seed=4)
    got = play_out(gw, np.random.default_rng(4))
    assert gw.episode.game is not None
    assert got[AGENTS[gw.episode.game.winner or 0]] == 1.0


def test_render_ansi_shows_the_seat_to_act() -> None:
    e = env("binocle", render_mode="ansi", dealer=0)
    e.reset(seed=9)
    text = e.render()
    assert isinstance(text, str)
    assert "view player_1" in text and "legal " in text and "hand" in text
    quiet = raw_env("bezique")
    quiet.reset(seed=9)
    with pytest.warns(UserWarning, match="render_mode"):
        assert quiet.render() is None  # no render_mode: a warning, no text


def test_the_core_package_imports_without_the_rl_extras() -> None:
    code = ("import sys\n"
            "for m in ('numpy', 'pettingzoo', 'gymnasium'): sys.modules[m] = None\n"
            "import bezique, bezique.agents, bezique.encoding, bezique.cli\n"
            "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=False)
    assert out.stdout.strip() == "ok", out.stderr
