"""Learning the policy and value (issue #18): the training data (:mod:`~bezique.learn.data`) and
the training run of ``bezique train`` (:mod:`~bezique.learn.train`, which needs numpy).  What
the agents use lives with them, below this package: the features of an observation
(:mod:`~bezique.agents.features`) and the networks' plain-Python inference with the shipped
weights (:mod:`~bezique.agents.networks`, re-exported here).

The weights trained for Bezique ship in the package; :data:`VERSION` is their version (a short
hash of the file), recorded in the name of every player that uses them (``policy@VERSION``).

>>> len(VERSION)
10
>>> shipped().version == VERSION
True
"""

from __future__ import annotations

from ..agents.networks import WEIGHTS_DIR, Model, load, shipped, version_of

#: The version of the shipped Bezique weights: the first 10 hex digits of the file's SHA-256.
VERSION: str = version_of((WEIGHTS_DIR / "bezique.json").read_bytes())

__all__ = ["VERSION", "Model", "load", "shipped"]
