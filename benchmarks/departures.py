"""Where an agent departs from the heuristic, read from saved arena records.

Each record of ``bezique arena A B --save DIR`` is replayed; at each stock-phase decision of the
agent named ``--agent`` (default ``search``) with more than one legal action, the club
heuristic's choice for the same position is computed (it reads only what the seat may see) and
compared with the agent's.  The table counts decisions and departures by phase (lead, follow,
declare) and by how much of the stock is left; the list below it the commonest departures,
each card as ``T``/``p`` (trump or plain) and ``B``/``H``/``L`` (brisque A or T, honour K Q J,
low card 9 8 7).  This is how the search's habit of leading aces and tens in Rubicon was found
(``benchmarks/STRENGTH.md``, "Leading brisques").  With ``--tuned`` the heuristic asked has the
variant's tuned numbers (Rubicon's: the search's own later moves in its rollouts) instead.

    python benchmarks/departures.py DIR [--agent search] [--top 30] [--tuned]
"""

from __future__ import annotations

import argparse
import collections
import glob
import json

from bezique.agents.heuristic import HeuristicParams, HeuristicPolicy, tuned_params
from bezique.cards import JACK, TEN, rank_of, split_token, suit_of
from bezique.record import parse_record
from bezique.state import State

Key = tuple[str, ...]


def card_class(card: int, trump: int) -> str:
    """``card`` (0..31) as trump or plain and brisque, honour or low card.

    >>> [card_class(split_token(t)[0], 0) for t in ("TS", "9H", "KD*2")]
    ['TB', 'pL', 'pH']
    """
    rank = rank_of(card)
    side = "T" if suit_of(card) == trump else "p"
    return side + ("B" if rank <= TEN else "H" if rank <= JACK else "L")


def stage(stock: int, late: int, early: int) -> str:
    """``early``, ``mid`` or ``late`` by the cards left in the stock."""
    return "late" if stock < late else "mid" if stock < early else "early"


def departures(paths: list[str], agent: str, late: int, early: int,
               tuned: bool = False) -> tuple[collections.Counter[Key], collections.Counter[Key],
                                             collections.Counter[Key]]:
    """(decisions by phase and stage, departures by the same, departures by kind).

    With ``tuned`` the heuristic asked is the one with the variant's tuned numbers
    (:func:`~bezique.agents.heuristic.tuned_params`: the search's own later moves in its
    rollouts), not the club player.
    """
    policies: dict[str, HeuristicPolicy] = {}
    seen: collections.Counter[Key] = collections.Counter()
    left: collections.Counter[Key] = collections.Counter()
    kinds: collections.Counter[Key] = collections.Counter()
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        seats = [i for i, p in enumerate(data["players"])
                 if str(p).split("@")[0].split(":")[0] == agent]
        if len(seats) != 1:
            continue
        seat = seats[0]
        record = parse_record(data)
        variant = record.rules.variant
        if variant not in policies:
            params = tuned_params(variant) if tuned else HeuristicParams()
            policies[variant] = HeuristicPolicy(params=params, solver_cards=0)
        policy = policies[variant]
        for i, deal in enumerate(record.deals):
            state: State = record.start(i)
            for text in deal.actions:
                if (state.current_player() == seat and not state.end_phase
                        and len(state.legal_actions()) > 1):
                    key = (state.phase, stage(state.stock_left, late, early))
                    seen[key] += 1
                    mine = state.action_to_string(policy.choose(state))
                    if mine != text:
                        left[key] += 1
                        kinds[key + _kind(state, text, mine)] += 1
                state.apply(text)
    return seen, left, kinds


def _kind(state: State, text: str, mine: str) -> Key:
    """The departure's kind: both cards' classes (and the led card's), or both verbs."""
    if text.startswith("play") and mine.startswith("play"):
        led = state.trick_cards()
        trump = state.trump
        return ("agent " + card_class(split_token(text.split()[1])[0], trump),
                "heuristic " + card_class(split_token(mine.split()[1])[0], trump),
                "led " + (card_class(led[0], trump) if led else "-"))
    return ("agent " + text.split()[0], "heuristic " + mine.split()[0])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", help="a directory of saved arena records (deal-*.json)")
    ap.add_argument("--agent", default="search", help="the agent's name in the records")
    ap.add_argument("--top", type=int, default=30, help="how many kinds of departure to list")
    ap.add_argument("--late", type=int, default=26, help="stock cards below which is late")
    ap.add_argument("--early", type=int, default=70, help="stock cards from which is early")
    ap.add_argument("--tuned", action="store_true",
                    help="ask the heuristic with the variant's tuned numbers, not the club's")
    args = ap.parse_args()
    paths = sorted(glob.glob(f"{args.dir}/deal-*.json"))
    if not paths:
        ap.error(f"no deal-*.json records in {args.dir}")
    seen, left, kinds = departures(paths, args.agent, args.late, args.early, args.tuned)
    print(f"{'phase':8s} {'stage':6s} {'decisions':>9s} {'departures':>10s}")
    for key in sorted(seen):
        print(f"{key[0]:8s} {key[1]:6s} {seen[key]:9d} {left[key]:6d} {left[key] / seen[key]:4.0%}")
    print()
    for key, n in kinds.most_common(args.top):
        print(f"{n:6d}  " + ", ".join(key))


if __name__ == "__main__":
    main()
