"""The ``openspiel-ismcts`` agent: OpenSpiel's own Python ISMCTS bot playing through our adapter.

This module owns the bridge from an :class:`~bezique.observation.Observation` to OpenSpiel's
``ISMCTSBot`` (``open_spiel.python.algorithms.ismcts``, Cowling, Powley and Whitehouse 2011)
on the ``python_bezique`` game of :mod:`bezique.openspiel`.  For each decision it samples one
world consistent with the observation (:class:`~bezique.agents.sampling.WorldSampler`; the agent
never sees the real state), builds the OpenSpiel state of that world
(:func:`bezique.openspiel.state_from_engine`) and lets the bot search from it; every simulation
of the bot deals the cards the seat has not seen afresh
(``BeziqueState.resample_from_infostate``, with the agent's own seeded random numbers), so the
root world's hidden cards carry no weight.  Leaves are valued by OpenSpiel's
``RandomRolloutEvaluator``; returns are raw deal points (this seat's less the other's), which is
why ``uct_c`` is large.

Options (``openspiel-ismcts:simulations=200,uct_c=300``): ``simulations`` per decision;
``worlds``: OpenSpiel's ``max_world_samples`` (-1: a fresh world every simulation);
``uct_c``: the UCT exploration constant; ``rollouts``: random rollouts per leaf; ``ms``: think
this many milliseconds a decision instead of a fixed number of simulations (also set by
:meth:`OpenSpielISMCTSAgent.set_budget`, the engine protocol's ``budget_ms``; the decision ends
within 10% of it: simulations stop at :data:`_SHARE` of it, and none is begun that would likely
not end by then); ``seed``.

OpenSpiel is an optional dependency (the ``openspiel`` or ``research`` extra): the agent is
always registered, and building it without OpenSpiel raises :class:`~bezique.errors.OptionError`
saying what to install.
"""

from __future__ import annotations

import gc
import random
import time
from typing import Any

from ..errors import BeziqueError, OptionError
from ..observation import Observation
from ..openspiel_encoding import action_table
from ..rules import Rules
from .base import register_agent, require_agent_variant, require_turn
from .sampling import WorldSampler

NAME = "openspiel-ismcts"
_SHARE = 0.9  # of a time budget the simulations may use
INSTALL_HINT = (f"agent {NAME!r} needs OpenSpiel, which is not installed: "
                "pip install 'bezique[openspiel]' (or the 'research' extra)")


def _open_spiel() -> tuple[Any, Any, Any]:
    """OpenSpiel's ``ismcts`` and ``mcts`` modules and our ``bezique.openspiel`` (which
    registers the game), or :class:`OptionError` when OpenSpiel is missing."""
    try:
        from open_spiel.python.algorithms import ismcts, mcts
    except ImportError:
        raise OptionError(INSTALL_HINT) from None
    from .. import openspiel as adapter

    return ismcts, mcts, adapter


class OpenSpielISMCTSAgent:
    """OpenSpiel's ``ISMCTSBot`` choosing among ``obs.legal`` (see the module docstring)."""

    name = NAME

    def __init__(self, simulations: int = 100, worlds: int = -1, uct_c: float = 300.0,
                 rollouts: int = 1, ms: float = 0.0, seed: int | None = None) -> None:
        if simulations < 2:  # the bot's first simulation only expands the root
            raise OptionError(f"simulations must be at least 2, not {simulations}")
        if worlds != -1 and worlds < 1:
            raise OptionError(f"worlds must be -1 (a fresh world each simulation) or at least "
                              f"1, not {worlds}")
        if rollouts < 1:
            raise OptionError(f"rollouts must be at least 1, not {rollouts}")
        if uct_c < 0 or ms < 0:
            raise OptionError("uct_c and ms must not be negative")
        self._ismcts, self._mcts, self._adapter = _open_spiel()
        import numpy as np

        self.simulations = int(simulations)
        self.worlds = int(worlds)
        self.uct_c = float(uct_c)
        self.rollouts = int(rollouts)
        self.ms = float(ms)
        self.rng = random.Random(seed)
        self.np_rng = np.random.RandomState(None if seed is None else seed % 2**32)
        self._games: dict[tuple[Rules, int], Any] = {}
        self.last_simulations = 0

    def set_budget(self, ms: float) -> None:
        """Think about ``ms`` milliseconds a decision (the engine protocol's ``budget_ms``)."""
        if ms <= 0:
            raise OptionError(f"the time budget must be positive, not {ms}")
        self.ms = float(ms)

    def _game(self, rules: Rules, dealer: int) -> Any:
        key = (rules, dealer)
        game = self._games.get(key)
        if game is None:
            game = self._games[key] = self._adapter.game_for(rules, dealer)
        return game

    def _bot(self, game: Any) -> Any:
        evaluator = self._mcts.RandomRolloutEvaluator(self.rollouts, self.np_rng)
        bot = self._ismcts.ISMCTSBot(game, evaluator, self.uct_c, self.simulations,
                                     max_world_samples=self.worlds,
                                     random_state=self.np_rng)
        rng = self.rng
        bot.set_resampler(lambda state, player: state.resample_from_infostate(player,
                                                                              rng.random))
        return bot

    def _search(self, bot: Any, root: Any, deadline: float) -> list[tuple[int, float]]:
        """The bot's final policy at ``root``: OpenSpiel's ``run_search`` with a fixed number
        of simulations, or its own steps (sample a world, simulate) until ``deadline``."""
        if not self.ms:
            self.last_simulations = self.simulations
            return list(bot.run_search(root))
        bot.reset()
        node = bot.create_new_node(root)
        n = 0
        sim_s = 0.0  # the longest of the last simulations, decaying: how long the next may take
        now = time.perf_counter()
        # the first only expands the root; no simulation is begun that would likely not end
        # before the deadline (a simulation is a whole random rollout: tens of milliseconds)
        while n < 2 or now + sim_s < deadline:
            bot.run_simulation(bot.sample_root_state(root))
            n += 1
            then, now = now, time.perf_counter()
            sim_s = max(now - then, 0.9 * sim_s)
        self.last_simulations = n
        return list(bot.get_final_policy(root, node))

    def act(self, obs: Observation) -> str:
        """The bot's choice (its most visited action; ties broken at random)."""
        require_turn(obs)
        # the budget counts the set-up and the choice too, with a margin for them
        deadline = time.perf_counter() + _SHARE * self.ms / 1000.0
        if len(obs.legal) == 1:
            return obs.legal[0]
        # no cycle collection in the decision, as in the search: held off before anything is
        # allocated, it runs at the first allocation after the decision
        collecting = gc.isenabled()
        gc.disable()
        try:
            text = self._decide(obs, deadline)
        finally:
            if collecting:
                gc.enable()
        return text

    def _decide(self, obs: Observation, deadline: float) -> str:
        """Sample a world, let the bot search it until ``deadline``, and name its choice."""
        require_agent_variant(obs.rules)
        if obs.rules.nplayers != 2:
            raise OptionError(f"{NAME} plays the two-handed games only, not "
                              f"{obs.rules.variant}: use heuristic or search")
        world = WorldSampler(obs).sample(self.rng)
        root = self._adapter.state_from_engine(self._game(obs.rules, obs.dealer), world)
        policy = self._search(self._bot(root.get_game()), root, deadline)
        top = max(p for _, p in policy)
        best = self.rng.choice(sorted(a for a, p in policy if p == top))
        engine_action = action_table(world).get(best)
        text = None if engine_action is None else world.action_to_string(engine_action)
        if text not in obs.legal:  # pragma: no cover - a bug in the adapter
            raise BeziqueError(f"{NAME} chose id {best}, which is not a legal action here")
        assert text is not None
        return text


@register_agent(NAME, "OpenSpiel's own ISMCTS bot (random rollouts) through the OpenSpiel "
                      "adapter; needs the openspiel extra")
def _make_openspiel_ismcts(simulations: int = 100, worlds: int = -1, uct_c: float = 300.0,
                           rollouts: int = 1, ms: float = 0.0,
                           seed: int | None = None) -> OpenSpielISMCTSAgent:
    return OpenSpielISMCTSAgent(simulations, worlds, uct_c, rollouts, ms, seed)
