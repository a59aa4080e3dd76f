"""Players: the agent interface, the registry, and the agents themselves."""

from . import heuristic as _heuristic  # noqa: F401  (registers "heuristic")
from . import openspiel_ismcts as _openspiel_ismcts  # noqa: F401  (registers "openspiel-ismcts")
from . import policy as _policy  # noqa: F401  (registers "policy")
from . import random_agent as _random_agent  # noqa: F401  (registers "random")
from . import search as _search  # noqa: F401  (registers "search")
from .base import (
    Agent,
    agent_label,
    agent_names,
    agent_options,
    agent_summaries,
    make_agent,
    parse_agent_spec,
    register_agent,
)

__all__ = [
    "Agent",
    "agent_label",
    "agent_names",
    "agent_options",
    "agent_summaries",
    "make_agent",
    "parse_agent_spec",
    "register_agent",
]
