"""Training data for the learned policy and value: self-play deals of a teacher agent, written
as one small JSON shard per deal, and the examples read back from them.

A shard holds what is needed to replay its deal exactly (the deal's seed, the dealer, every
action in order), not features: the features are computed when the data is read
(:func:`examples`), by replaying each deal and asking every deciding seat's
:class:`~bezique.observation.Observation`, so a change of :mod:`bezique.agents.features` needs
no new self-play.  ``DIR/train.json`` names the arguments the shards were played with (teacher,
seed, variant); a rerun with the same ones plays only the deals not there yet, so an interrupted
run resumes, and asking for more deals extends the data (deal ``k`` depends only on the seed and
``k``).  Shards are written whole (to a temporary name, then renamed), so a run killed midway
leaves no torn file.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..agents import make_agent
from ..agents.evaluation import evaluate as fitted_evaluate
from ..agents.features import ACTION_NAMES, decision_features
from ..arena import derive_seed
from ..errors import BeziqueError, IllegalActionError
from ..rules import Rules
from ..state import State

#: The variants ``bezique train`` learns (two seats, one pack pair; RULES.md 2, 4, 9.1).
VARIANTS = ("bezique", "binocle")
MANIFEST = "train.json"
SHARDS = "deals"
FORMAT = 1
_PICK = ACTION_NAMES.index("heuristic")


def deal_seed(seed: int, k: int) -> int:
    """The cards of deal ``k`` of a run seeded ``seed``."""
    return derive_seed(seed, k, "cards")


def shard_path(out: Path, k: int) -> Path:
    """The shard of deal ``k`` in the run directory ``out``."""
    return out / SHARDS / f"deal-{k:06d}.json"


def write_json(path: Path, data: Any) -> None:
    """Write ``data`` as JSON to ``path`` whole: a temporary file renamed over it."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
        os.replace(tmp, path)
    except OSError as e:
        raise BeziqueError(f"cannot write {path}: {e}") from None


def open_run(out: Path, teacher: str, seed: int, variant: str) -> None:
    """Make the run directory ``out`` (or check that the one there was played with the same
    teacher, seed and variant: its shards are reused)."""
    want = {"format": FORMAT, "teacher": teacher, "seed": seed, "variant": variant}
    path = out / MANIFEST
    if path.exists():
        try:
            have = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise BeziqueError(f"cannot read {path}: {e}") from None
        if not isinstance(have, dict) or any(have.get(k) != v for k, v in want.items()):
            raise BeziqueError(f"{out} holds data of another run ({path}: {have!r:.120}); "
                               "give another --out or the same --teacher, --seed and --variant")
        return
    try:
        (out / SHARDS).mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise BeziqueError(f"cannot make {out / SHARDS}: {e}") from None
    write_json(path, want)


def play_deal(rules: Rules, teacher: str, seed: int, k: int) -> dict[str, Any]:
    """Play deal ``k`` of the run with the teacher in both seats; its shard's content."""
    cards = deal_seed(seed, k)
    state = State.new_deal(rules, cards, dealer=1)
    agents = [make_agent(teacher, seed=derive_seed(seed, k, s, "teacher")) for s in (0, 1)]
    actions: list[str] = []
    means: dict[str, dict[str, float]] = {}
    while not state.is_terminal():
        seat = state.current_player()
        text = agents[seat].act(state.observation(seat))
        # a search teacher's average result of each candidate (what --soft learns from)
        found = getattr(agents[seat], "last_means", None)
        if found:
            means[str(len(actions))] = {t: round(float(m), 2) for t, m in found.items()}
        try:
            state.apply(text)
        except BeziqueError as e:
            raise IllegalActionError(
                f"the teacher {teacher!r} in seat {seat} chose {text!r}, which is refused: {e}"
            ) from None
        actions.append(text)
    return {"deal": k, "seed": cards, "dealer": 1, "actions": actions,
            "scores": list(state.scores), "means": means}


def generate(out: Path, rules: Rules, teacher: str, seed: int, deals: int,
             progress: Callable[[int], None] | None = None) -> int:
    """Play the deals ``0 .. deals - 1`` whose shards are missing in ``out`` (see
    :func:`open_run`); ``progress`` is told how many deals are in.  Returns how many were
    played now."""
    make_agent(teacher, seed=0)  # refuse an unknown teacher before anything is written
    open_run(out, teacher, seed, rules.variant)
    played = 0
    for k in range(deals):
        path = shard_path(out, k)
        if not path.exists():
            write_json(path, play_deal(rules, teacher, seed, k))
            played += 1
        if progress is not None:
            progress(k + 1)
    return played


def load_shard(out: Path, k: int) -> dict[str, Any]:
    """The shard of deal ``k``."""
    path = shard_path(out, k)
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise BeziqueError(f"cannot read {path}: {e}") from None
    return data


@dataclass
class Decision:
    """One decision of the teacher with more than one legal action, as the learner sees it.

    ``obs``: the observation's features; ``actions``: each legal action's features;
    ``choice``: the index of the teacher's action; ``heuristic``: the index the heuristic
    agent would have played in the seat (a baseline); ``margin``: the deciding seat's final
    points less the other's; ``fitted``: today's fitted evaluation of the full state
    (``None`` outside the stock phase, where it does not apply); ``stock``: whether the stock
    phase is on; ``means``: a search teacher's average result of each legal action over its
    worlds (``None`` for an action it did not weigh, and ``None`` for the whole decision when
    the teacher kept none: one candidate, the solver's move, a teacher that is no search).
    """

    deal: int
    obs: list[float]
    actions: list[list[float]]
    choice: int
    heuristic: int
    margin: float
    fitted: float | None
    stock: bool
    means: list[float | None] | None = None


def examples(rules: Rules, shard: dict[str, Any]) -> Iterator[Decision]:
    """Replay a shard's deal and yield its decisions with a choice (see :class:`Decision`)."""
    state = State.new_deal(rules, int(shard["seed"]), dealer=int(shard["dealer"]))
    baseline = make_agent("heuristic", seed=derive_seed(int(shard["seed"]), "baseline"))
    pending: list[tuple[int, Decision]] = []
    kept: dict[str, dict[str, float]] = shard.get("means") or {}
    for i, text in enumerate(shard["actions"]):
        seat = state.current_player()
        obs = state.observation(seat)
        legal = list(obs.legal)
        if len(legal) > 1 and text in legal:
            stock = not state.end_phase and obs.phase != "guess"
            x, acts = decision_features(obs)
            # the heuristic agent's choice; in the end phase it solves exactly, as the feature
            # "heuristic" does already (no second solve)
            pick = baseline.act(obs) if stock else legal[
                max(range(len(acts)), key=lambda i: acts[i][_PICK])]
            d = Decision(int(shard["deal"]), x, acts, legal.index(text),
                         legal.index(pick) if pick in legal else -1, 0.0,
                         fitted_evaluate(state, seat) if stock else None, stock)
            weighed = kept.get(str(i))
            if weighed:
                d.means = [weighed.get(t) for t in legal]
            pending.append((seat, d))
        state.apply(text)
    s = state.scores
    for seat, d in pending:
        d.margin = float(s[seat] - s[1 - seat])
        yield d


def load_examples(out: Path, rules: Rules, deals: range,
                  progress: Callable[[int], None] | None = None) -> list[Decision]:
    """Every decision of the shards of ``deals``, in order."""
    found: list[Decision] = []
    for i, k in enumerate(deals):
        found.extend(examples(rules, load_shard(out, k)))
        if progress is not None:
            progress(i + 1)
    return found
