"""A hash of everything random deals do, to show a speed change leaves behaviour unchanged.

Usage::

    python benchmarks/behaviour_hash.py          # BEZIQUE_PURE=1 for the pure build

For random deals of all seven presets (150 seeds each of bezique, binocle, rubicon, bezique3,
bezique4; 40 of sixpack and eightpack) it hashes every legal-action list and action taken, the
scores, hands, shown, known and won masks, phase, turn and brisques after each action, a clone's
listing after an undo and a replay every eleventh action, and each deal's events, returns and
meld logs.  Run it in two checkouts (each with its own ``bezique`` installed) and compare the
lines: equal hashes, the same behaviour.
"""

from __future__ import annotations

import hashlib
import random

import bezique
from bezique import Rules, State

PRESETS = {"bezique": 150, "binocle": 150, "rubicon": 150, "bezique3": 150, "bezique4": 150,
           "sixpack": 40, "eightpack": 40}


def preset_hash(name: str, deals: int) -> bytes:
    """The hash of ``deals`` random deals of preset ``name`` (see the module)."""
    h = hashlib.sha256()
    rules = Rules.preset(name)
    for seed in range(deals):
        rng = random.Random(seed * 7 + 1)
        s = State.new_deal(rules, seed=seed)
        steps = 0
        while not s.is_terminal():
            la = s.legal_actions()
            a = la[int(rng.random() * len(la))]
            h.update(repr((la, a)).encode())
            if steps % 11 == 5:  # undo and replay, and a clone playing on
                s.apply_action(a)
                s.undo_action()
                c = s.clone()
                c.apply_action(a)
                h.update(repr(c.legal_actions()).encode())
            s.apply_action(a)
            steps += 1
            h.update(repr((s.scores, s.hand_masks, s.shown_masks, s.known_masks, s.won_masks,
                           s.phase_id, s.turn, s.brisques)).encode())
        h.update(repr((s.events, s.returns(), s.meld_log)).encode())
    return h.digest()


def main() -> None:
    total = hashlib.sha256()
    for name, deals in PRESETS.items():
        digest = preset_hash(name, deals)
        print(f"{name:10s} {digest.hex()[:16]}")
        total.update(digest)
    print(f"compiled {bezique.COMPILED}: total {total.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
