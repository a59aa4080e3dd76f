"""The learned policy and value (issue #18): features of an observation
(:mod:`~bezique.learn.features`), the model and its plain-Python inference
(:mod:`~bezique.learn.model`), the training data (:mod:`~bezique.learn.data`) and the training
run of ``bezique train`` (:mod:`~bezique.learn.train`, which needs numpy).

The weights trained for Bezique ship in the package; :data:`VERSION` is their version (a short
hash of the file), recorded in the name of every player that uses them (``policy@VERSION``).

>>> len(VERSION)
10
>>> shipped().version == VERSION
True
"""

from __future__ import annotations

from .model import WEIGHTS_DIR, Model, load, shipped, version_of

#: The version of the shipped Bezique weights: the first 10 hex digits of the file's SHA-256.
VERSION: str = version_of((WEIGHTS_DIR / "bezique.json").read_bytes())

__all__ = ["VERSION", "Model", "load", "shipped"]
