"""Self-play data: games between two agents written as Parquet, one row per decision, with the
game records (RULES.md 8) in the file's metadata.

Each row is one decision of a seat (forced ones too), with what that seat saw encoded as the
learning environments encode it (:mod:`bezique.encoding`, from the seat's
:class:`~bezique.observation.Observation` only):

=================  ============================================================================
column             meaning
=================  ============================================================================
``game``           the game's number (0, 1, ...): its record is ``records[game]``
``deal``           the deal's number within the game (always 0 with ``deals``)
``step``           the action's number within the deal's actions (its record's ``actions``)
``seat``           the seat deciding (0 or 1); ``agent`` its agent spec
``observation``    float32 list of :data:`~bezique.encoding.OBS_SIZE` (371) entries in
                   Bezique and Binocle, ``spec(rules).obs_size`` in the multi-pack games
``legal_mask``     int8 list of :data:`~bezique.encoding.NUM_ACTIONS` (83) entries (or
                   ``spec(rules).num_actions``), 1 = legal
``action``         the index chosen (:func:`~bezique.encoding.action_index`)
``action_text``    the action text chosen, as in the record
``deal_return``    the deal's final points of ``seat`` less the opponent's
``settled``        the one-deal games (Rubicon, Six-pack, Eight-pack; RULES.md 9.0.7): the
                   settled value for ``seat``, + won, - lost, 0 drawn (what decides them:
                   points count only through it); null in the others
=================  ============================================================================

The two-handed games are written (those :func:`bezique.encoding.spec` describes); the layout of
the multi-pack games' vectors is ``spec(rules).layout``, and the file's metadata names the
variant and options (``bezique.meta``).

Agent A sits in seat 0 in even games and in seat 1 in odd ones; game ``k`` is dealt from the
seed and ``k``, and agents' seeds derive from them too, so a run is reproducible.

Read it back with one line: ``pyarrow.parquet.read_table(FILE)`` (or, with pandas installed,
``pandas.read_parquet(FILE)``); the records, a JSON list with an extra key ``players``
(the agents of seats 0 and 1) each, are
``json.loads(pyarrow.parquet.read_schema(FILE).metadata[b"bezique.records"])``
(:func:`read_records`).  pyarrow is an optional dependency (the ``research`` extra).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .agents import agent_label, make_agent
from .arena import derive_seed
from .encoding import action_index, action_mask, encode_observation, spec
from .errors import BeziqueError, IllegalActionError
from .game import Game
from .record import game_record
from .rules import Rules
from .scoring import settled_for
from .state import State

RECORDS_KEY = b"bezique.records"
INSTALL_HINT = "self-play data needs pyarrow, which is not installed: " \
               "pip install 'bezique[research]'"


@dataclass
class SelfPlayData:
    """The decisions (column lists, see the module docstring) and the game records."""

    columns: dict[str, list[Any]] = field(default_factory=lambda: {
        name: [] for name in ("game", "deal", "step", "seat", "agent", "observation",
                              "legal_mask", "action", "action_text", "deal_return",
                              "settled")})
    records: list[dict[str, Any]] = field(default_factory=list)

    @property
    def decisions(self) -> int:
        """Rows so far."""
        return len(self.columns["game"])


def _play_deal(state: State, agents: list[Any], specs: list[str], game: int, deal: int,
               data: SelfPlayData) -> None:
    cols = data.columns
    first = data.decisions
    step = 0
    while not state.is_terminal():
        seat = state.current_player()
        obs = state.observation(seat)
        text = agents[seat].act(obs)
        try:
            index = action_index(obs, text)
            state.apply(text)
        except BeziqueError as e:
            raise IllegalActionError(
                f"agent {specs[seat]!r} in seat {seat} chose {text!r}, which is refused: {e}"
            ) from None
        for name, value in (("game", game), ("deal", deal), ("step", step), ("seat", seat),
                            ("agent", specs[seat]), ("observation", encode_observation(obs)),
                            ("legal_mask", action_mask(obs)), ("action", index),
                            ("action_text", text)):
            cols[name].append(value)
        step += 1
    s = state.scores
    seats = cols["seat"][first:]
    cols["deal_return"] += [float(s[seat] - s[1 - seat]) for seat in seats]
    if state.rules.settlement == "portland":
        res = state.settlement()
        cols["settled"] += [float(settled_for(res, seat)) for seat in seats]
    else:
        cols["settled"] += [None] * len(seats)


def play_selfplay(spec_a: str, spec_b: str, rules: Rules, *, games: int | None = None,
                  deals: int | None = None, seed: int = 0,
                  progress: Callable[[int], None] | None = None) -> SelfPlayData:
    """Play ``games`` games to the target (or ``deals`` single deals) between A and B and
    collect every decision; ``progress`` is called with the number of games (deals) done."""
    if (games is None) == (deals is None):
        raise BeziqueError("give either a number of games or a number of deals")
    count = games if games is not None else deals
    assert count is not None
    if count < 1:
        raise BeziqueError("the number of games or deals must be at least 1")
    spec(rules)  # refuses a game the encoding cannot describe (three or four seats)
    for name in (spec_a, spec_b):
        make_agent(name, seed=0)  # refuse unknown agents and bad options before starting
    data = SelfPlayData()
    for k in range(count):
        specs = [spec_a, spec_b] if k % 2 == 0 else [spec_b, spec_a]
        agents = [make_agent(specs[s], seed=derive_seed(seed, k, s, "selfplay"))
                  for s in (0, 1)]
        deal_seed = derive_seed(seed, k, "cards")
        if games is not None:
            g = Game(rules, seed=deal_seed, first_dealer=1)
            number = 0
            while True:
                _play_deal(g.state, agents, specs, k, number, data)
                if g.is_over():
                    break
                g.next_deal()
                number += 1
            played = g.all_deals()
        else:
            state = State.new_deal(rules, deal_seed, dealer=1)
            _play_deal(state, agents, specs, k, 0, data)
            played = [state]
        record = game_record(rules, played)
        record["players"] = [agent_label(name) for name in specs]
        data.records.append(record)
        if progress is not None:
            progress(k + 1)
    return data


def pyarrow_modules() -> tuple[Any, Any]:
    """``pyarrow`` and ``pyarrow.parquet``, or :class:`BeziqueError` saying what to install."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise BeziqueError(INSTALL_HINT) from None
    return pa, pq


def write_parquet(data: SelfPlayData, path: str | Path, meta: dict[str, Any] | None = None
                  ) -> None:
    """Write the decisions as Parquet with the records (and ``meta``) in the file's metadata."""
    pa, pq = pyarrow_modules()
    c = data.columns
    obs_size = len(c["observation"][0]) if c["observation"] else 0
    num_actions = len(c["legal_mask"][0]) if c["legal_mask"] else 0
    table = pa.table({
        "game": pa.array(c["game"], pa.int32()),
        "deal": pa.array(c["deal"], pa.int16()),
        "step": pa.array(c["step"], pa.int16()),
        "seat": pa.array(c["seat"], pa.int8()),
        "agent": pa.array(c["agent"], pa.string()).dictionary_encode(),
        "observation": pa.array(c["observation"], pa.list_(pa.float32(), obs_size)),
        "legal_mask": pa.array(c["legal_mask"], pa.list_(pa.int8(), num_actions)),
        "action": pa.array(c["action"], pa.int16()),
        "action_text": pa.array(c["action_text"], pa.string()),
        "deal_return": pa.array(c["deal_return"], pa.float32()),
        "settled": pa.array(c["settled"], pa.float32()),
    })
    extra = {b"bezique.meta": json.dumps(meta or {}).encode(),
             RECORDS_KEY: json.dumps(data.records).encode()}
    table = table.replace_schema_metadata({**(table.schema.metadata or {}), **extra})
    try:
        pq.write_table(table, str(path), compression="zstd")
    except OSError as e:
        raise BeziqueError(f"cannot write {path}: {e}") from None


def read_records(path: str | Path) -> list[dict[str, Any]]:
    """The game records stored in a self-play file (``records[game]`` for a row's ``game``)."""
    _, pq = pyarrow_modules()
    try:
        meta = pq.read_schema(str(path)).metadata or {}
    except (OSError, ValueError) as e:
        raise BeziqueError(f"cannot read {path}: {e}") from None
    if RECORDS_KEY not in meta:
        raise BeziqueError(f"{path} is not a bezique self-play file (no records in it)")
    records: list[dict[str, Any]] = json.loads(meta[RECORDS_KEY])
    return records
