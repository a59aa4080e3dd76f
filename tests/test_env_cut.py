"""The learning environments (PettingZoo, Gymnasium) in the two-handed multi-pack games, with the
cut bonus (RULES.md 9.2): the non-dealer's guess of the cut is an index of the action space,
the cut is hidden in every seat's vector until the guess and shown after it, and PettingZoo's
own API and seed tests and Gymnasium's ``check_env`` pass.  Bezique and Binocle keep their fixed
sizes (``test_pettingzoo.py``)."""

from __future__ import annotations

import functools
import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from bezique import Rules, State  # noqa: E402
from bezique.encoding import (  # noqa: E402
    LAYOUT,
    MELD,
    NUM_ACTIONS,
    OBS_SIZE,
    action_index,
    action_mask,
    encode_observation,
    layout_table,
    legal_index_map,
    meld_slots,
    spec,
)
from bezique.gymnasium_env import BeziqueEnv  # noqa: E402
from bezique.pettingzoo import env, raw_env  # noqa: E402

pytestmark = [pytest.mark.filterwarnings("ignore:Observation space for each agent"),
              pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")]

CUT = Rules.preset("sixpack", cut_bonus=True)
SIX = spec(CUT)  # 19 meld slots from 67, carte 86, the guesses of 18..30 from 87


def test_the_sizes_of_each_two_handed_game() -> None:
    for variant in ("bezique", "binocle"):  # unchanged: the fixed layout
        sp = spec(Rules.preset(variant))
        assert (sp.num_actions, sp.obs_size, sp.layout) == (NUM_ACTIONS, OBS_SIZE, LAYOUT)
        assert (sp.carte, sp.guess_base, sp.cuts) == (-1, -1, None)
    assert len(meld_slots(CUT)) == 19
    assert (SIX.carte, SIX.guess_base, SIX.cuts, SIX.num_actions) == (86, 87, (18, 30), 100)
    assert SIX.obs_size == spec(Rules.preset("sixpack")).obs_size + 27 == 404
    assert spec(Rules.preset("sixpack")).num_actions == 87  # no guesses without the cut bonus
    assert spec(Rules.preset("rubicon")).num_actions == MELD + 16 + 1
    eight = spec(Rules.preset("eightpack", cut_bonus=True, cut_range="20-25"))
    assert (eight.carte, eight.guess_base, eight.num_actions) == (92, 93, 99)
    start = 0
    for b in SIX.layout:  # contiguous, and documented by layout_table
        assert b.start == start
        start += b.size
        assert f"`{b.name}`" in layout_table(CUT)
    assert start == SIX.obs_size
    assert SIX.high[SIX.blocks["hand"].start] == 6.0  # six copies of a card can be held


def test_pettingzoo_api_and_seed_tests_with_the_cut_bonus() -> None:
    api_test(env(variant="sixpack", cut_bonus=True), num_cycles=1000)
    seed_test(functools.partial(env, variant="sixpack", cut_bonus=True), num_cycles=1000)
    api_test(env(variant="eightpack", cut_bonus=True, reward="win", game=True,
                 render_mode="ansi"), num_cycles=400)


def test_gymnasium_check_env_with_the_cut_bonus() -> None:
    check_env(BeziqueEnv("sixpack", opponent="random", cut_bonus=True), skip_render_check=True)


@pytest.mark.parametrize("dealer", [0, 1])
def test_the_first_action_is_the_non_dealers_guess(dealer: int) -> None:
    e = raw_env(variant="sixpack", cut_bonus=True, dealer=dealer)
    e.reset(seed=3)
    guesser = f"player_{1 - dealer}"
    assert e.agent_selection == guesser
    mask = e.observe(guesser)["action_mask"]
    assert list(np.flatnonzero(mask)) == list(range(87, 100))
    assert not e.observe(f"player_{dealer}")["action_mask"].any()
    cut = e.episode.state.cut
    e.step(87 + cut - 18)  # the right guess
    assert e.episode.state.observation(0).actions[0] == (1 - dealer, f"guess {cut}")
    assert e.episode.state.scores[1 - dealer] == 150
    assert not e.observe(e.agent_selection)["action_mask"][87:].any()  # one guess only


def test_the_cut_shows_in_no_vector_before_the_guess_and_in_both_after() -> None:
    a = State.new_deal(CUT, seed=5)
    b = a.clone()
    b.cut = 19 if a.cut != 19 else 20  # the same deal with another cut
    g, c = SIX.blocks["guess"].start, SIX.blocks["cut"].start
    for seat in range(2):
        va = encode_observation(a.observation(seat))
        assert va == encode_observation(b.observation(seat))
        assert va[SIX.blocks["guessing"].start] == 1.0 and sum(va[g:g + 26]) == 0  # no guess, cut
        assert sum(va[SIX.blocks["phase"].start:][:4]) == 0  # no phase of play yet
    a.apply("guess 22")
    b.apply("guess 22")
    for seat in range(2):
        va, vb = (encode_observation(s.observation(seat)) for s in (a, b))
        assert va[SIX.blocks["guessing"].start] == 0.0
        assert va[g + 22 - 18] == vb[g + 22 - 18] == 1.0
        assert va[c + a.cut - 18] == 1.0 and vb[c + b.cut - 18] == 1.0 and va != vb


@pytest.mark.parametrize("rules", [CUT, Rules.preset("rubicon"),
                                   Rules.preset("eightpack", cut_bonus=True)],
                         ids=["sixpack-cut", "rubicon", "eightpack-cut"])
def test_every_legal_action_has_an_index_in_the_multi_pack_games(rules: Rules) -> None:
    """As in Bezique: every legal text maps to an index the mask marks, each marked index
    decodes to a legal text, and the vector fits its bounds."""
    sp = spec(rules)
    rng = random.Random(1)
    kinds: set[str] = set()
    for d in range(3):
        s = State.new_deal(rules, seed=d, dealer=d % 2)
        while not s.is_terminal():
            obs = s.observation(s.current_player())
            m = legal_index_map(obs)
            mask = action_mask(obs)
            assert len(mask) == sp.num_actions
            assert [i for i, x in enumerate(mask) if x] == sorted(m)
            assert set(m.values()) <= set(obs.legal)
            for text in obs.legal:
                kinds.add(text.split()[0])
                assert mask[action_index(obs, text)] == 1
            v = encode_observation(obs)
            assert len(v) == sp.obs_size and all(0 <= x <= h for x, h in zip(v, sp.high,
                                                                             strict=True))
            s.apply(rng.choice(s.legal_action_strings()))
    assert {"play", "pass", "meld"} <= kinds
    assert ("guess" in kinds) == rules.cut_bonus


def test_gymnasium_learner_guesses_or_sees_the_opponents_guess() -> None:
    guesser = BeziqueEnv("sixpack", opponent="random", cut_bonus=True, seat=0, dealer=1)
    obs, info = guesser.reset(seed=4)
    assert list(np.flatnonzero(info["action_mask"])) == list(range(87, 100))
    obs, *_ = guesser.step(87 + 6)  # guess 24
    assert obs[SIX.blocks["guess"].start + 6] == 1.0 and obs[SIX.blocks["guessing"].start] == 0
    dealt = BeziqueEnv("sixpack", opponent="random", cut_bonus=True, seat=0, dealer=0)
    obs, info = dealt.reset(seed=4)  # the opponent guessed inside reset
    g = SIX.blocks["guess"].start
    assert obs[g:g + 13].sum() == 1.0 and not info["action_mask"][87:].any()
    assert obs[SIX.blocks["cut"].start + dealt.episode.state.cut - 18] == 1.0
