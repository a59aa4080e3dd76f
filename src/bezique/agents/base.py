"""The agent interface and the registry that finds agents by name with options.

An agent is given its seat's :class:`~bezique.observation.Observation` (never the state) and
returns the text of one of ``obs.legal``.  Names with options look like ``search:samples=200``
or ``heuristic``; every front end and tool builds agents with :func:`make_agent`.

>>> from bezique.agents import make_agent, agent_names
>>> "random" in agent_names()
True
>>> make_agent("random:seed=3").name
'random'
>>> make_agent("nosuch")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bezique.errors.OptionError: unknown agent 'nosuch' (known: ...random...)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from ..errors import IllegalActionError, OptionError
from ..observation import Observation
from ..rules import Rules

# The variants the computer players know: the two-handed ones (RULES.md 2, 4, 9.1-9.3) and the
# three- and four-handed games (9.4, 9.5; :mod:`bezique.agents.table_play`).
AGENT_VARIANTS = ("bezique", "binocle", "rubicon", "sixpack", "eightpack", "bezique3",
                  "bezique4")


def require_agent_variant(rules: Rules) -> None:
    """Refuse, with :class:`OptionError`, a variant the computer players cannot play yet."""
    if rules.variant not in AGENT_VARIANTS:
        seats = f"{rules.nplayers}-handed " if rules.nplayers != 2 else ""
        raise OptionError(
            f"the computer players do not play {seats}{rules.variant} yet (they play "
            f"{', '.join(AGENT_VARIANTS[:-1])} and {AGENT_VARIANTS[-1]}); watch it with "
            f"'bezique demo --variant {rules.variant}' or replay its records"
        )


@runtime_checkable
class Agent(Protocol):
    """Chooses an action for its seat from what that seat can see."""

    name: str

    def act(self, obs: Observation) -> str:
        """The text of one action of ``obs.legal`` (asked only when ``obs.my_turn``)."""
        ...


AgentFactory = Callable[..., Agent]
def require_turn(obs: Observation) -> None:
    """Refuse, with :class:`IllegalActionError`, to choose for ``obs.seat`` when it has nothing
    to choose: another seat's turn, or the deal over.  Every agent's ``act`` begins with it.

    >>> from bezique import Rules, State
    >>> require_turn(State.new_deal(Rules.preset("bezique"), seed=2).observation(1))
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bezique.errors.IllegalActionError: it is seat 0's turn, not seat 1's: an agent is asked ...
    """
    if not obs.legal:
        raise IllegalActionError(
            "the deal is over: there is nothing to choose" if obs.turn < 0
            else f"it is seat {obs.turn}'s turn, not seat {obs.seat}'s: an agent is asked only "
                 "on its own seat's turn")


_REGISTRY: dict[str, tuple[AgentFactory, str]] = {}
_LABELS: dict[str, Callable[[str], str]] = {}


def register_agent(name: str, summary: str, label: Callable[[str], str] | None = None
                   ) -> Callable[[AgentFactory], AgentFactory]:
    """Register a factory ``f(seed=..., **options) -> Agent`` under ``name``; ``label`` turns
    a spec of it into the player's name in records (see :func:`agent_label`).  Names are
    taken in lower case (as :func:`make_agent` reads them) and are one word: no ``:``, ``,``,
    ``=`` or spaces, which a spec uses for its options.

    >>> register_agent("my bot", "")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bezique.errors.OptionError: an agent's name is one word ... not 'my bot'
    >>> register_agent("mine", print)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bezique.errors.OptionError: agent 'mine': register_agent(name, summary) decorates the ...
    """
    key = name.strip().lower() if isinstance(name, str) else ""
    if not key or any(ch in key for ch in ":,=") or any(ch.isspace() for ch in key):
        raise OptionError(f"an agent's name is one word (no ':', ',', '=' or spaces, which "
                          f"give a spec its options), not {name!r:.40}")
    if not isinstance(summary, str):  # register_agent("mine", factory) registered nothing
        raise OptionError(f"agent {key!r}: register_agent(name, summary) decorates the "
                          f"factory; its summary is a text, not {summary!r:.40}")

    def deco(factory: AgentFactory) -> AgentFactory:
        if not callable(factory):
            raise OptionError(f"agent {key!r}: register a factory f(seed=..., **options) "
                              f"that returns the agent, not {factory!r:.40}")
        _REGISTRY[key] = (factory, summary)
        if label is not None:
            _LABELS[key] = label
        return factory

    return deco


def agent_label(spec: str) -> str:
    """The name a record gives the player of ``spec``: the spec itself, except for agents
    whose name must say more (the learned ``policy`` names its weights' version,
    ``policy@VERSION``), so a record says exactly who played.

    >>> agent_label("search:samples=20")
    'search:samples=20'
    """
    name, _ = parse_agent_spec(spec)
    label = _LABELS.get(name)
    return label(spec) if label is not None else spec


def agent_entries() -> list[tuple[str, AgentFactory, str, Callable[[str], str] | None]]:
    """Every registered agent as ``(name, factory, summary, label)``, by name: what
    :func:`register_agent` was given (the Ray workers are sent the user's own this way,
    :mod:`bezique.distributed`)."""
    return [(n, f, summary, _LABELS.get(n)) for n, (f, summary) in sorted(_REGISTRY.items())]


def agent_names() -> list[str]:
    """The registered agent names, sorted."""
    return sorted(_REGISTRY)


def agent_summaries() -> dict[str, str]:
    """Registered agent names with a one-line summary each (those installed packages offer
    loaded first; one that cannot be loaded is listed with why)."""
    broken: dict[str, str] = {}
    for ep in _entry_points():
        if ep.name not in _REGISTRY:
            try:
                _load_offered(ep.name)
            except OptionError as e:
                broken[ep.name] = str(e)
    summaries = {n: _REGISTRY[n][1] for n in _REGISTRY} | broken
    return {n: summaries[n] for n in sorted(summaries)}


def agent_options(name: str) -> dict[str, Any]:
    """The options of agent ``name`` with their defaults (read from its factory), ``seed`` left
    out.

    >>> agent_options("random")
    {}
    """
    import inspect

    if name not in _REGISTRY and not _load_offered(name):
        raise OptionError(f"unknown agent {name!r} (known: {', '.join(agent_names())})")
    params = inspect.signature(_REGISTRY[name][0]).parameters
    return {k: p.default for k, p in params.items()
            if k != "seed" and p.default is not inspect.Parameter.empty}


def _value(text: str) -> Any:
    low = text.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    for conv in (int, float):
        try:
            return conv(low)
        except ValueError:
            pass
    return text.strip()


def parse_agent_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``name:key=value,key=value`` into the name and a dict of typed options."""
    if not isinstance(spec, str):
        raise OptionError(f"an agent is named by text such as 'heuristic' or "
                          f"'search:samples=200', not {spec!r:.40}")
    name, _, rest = spec.strip().partition(":")
    opts: dict[str, Any] = {}
    if rest:
        for item in rest.split(","):
            key, sep, val = item.partition("=")
            if not sep or not key.strip():
                raise OptionError(f"agent option {item!r} must be written key=value")
            if key.strip() in opts:
                raise OptionError(f"agent option {key.strip()!r} is given twice in {spec!r}")
            opts[key.strip()] = _value(val)
    return name.strip().lower(), opts


def _check_option_names(name: str, factory: AgentFactory, opts: dict[str, Any]) -> None:
    """Refuse an option the agent does not have, naming the ones it has.

    >>> make_agent("random:foo=1")
    Traceback (most recent call last):
    ...
    bezique.errors.OptionError: agent 'random' has no option 'foo' (it takes none but seed)
    """
    import inspect

    params = inspect.signature(factory).parameters
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return
    unknown = [k for k in opts if k not in params]
    if unknown:
        known = [k for k in params if k != "seed"]
        has = (f"its options: {', '.join(known)}; and seed" if known
               else "it takes none but seed")
        raise OptionError(f"agent {name!r} has no option {unknown[0]!r} ({has})")
    wrong = _mistyped(name, factory, opts, declared=True)
    if wrong:
        raise OptionError(wrong)



#: The entry-point group in which an installed package offers its agents to ``bezique``: each
#: entry point's name is the agent's, its value a factory (``mypkg.agents:make_mine``, then
#: registered under that name) or a module that calls :func:`register_agent` when imported.
ENTRY_POINTS = "bezique.agents"


def _entry_points() -> list[Any]:
    from importlib.metadata import entry_points

    return list(entry_points(group=ENTRY_POINTS))


def _load_offered(name: str) -> bool:
    """Load the agent ``name`` an installed package offers (:data:`ENTRY_POINTS`), if one
    does; True once it is registered."""
    for ep in _entry_points():
        if ep.name.strip().lower() != name:
            continue
        try:
            obj = ep.load()
        except Exception as e:  # whatever the package's import raises
            raise OptionError(f"agent {name!r} ({ep.value}) could not be loaded: {e}") from None
        if name not in _REGISTRY and callable(obj):
            summary = (getattr(obj, "__doc__", None) or "").strip().split("\n")[0]
            register_agent(name, summary or f"from {ep.value}")(obj)
        return name in _REGISTRY
    return False


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """Build the agent named by ``spec`` (e.g. ``search:samples=200``); ``seed`` unless given.
    A name not registered yet may be offered by an installed package (:data:`ENTRY_POINTS`)."""
    name, opts = parse_agent_spec(spec)
    if name not in _REGISTRY and not _load_offered(name):
        raise OptionError(f"unknown agent {name!r} (known: {', '.join(agent_names())})")
    if seed is not None:
        opts.setdefault("seed", seed)
    given = opts.get("seed")
    if given is not None and (isinstance(given, bool) or not isinstance(given, int)):
        raise OptionError(f"agent {name!r}: seed must be a whole number (not {given!r:.40})")
    factory = _REGISTRY[name][0]
    _check_option_names(name, factory, opts)
    try:
        return factory(**opts)
    except TypeError as e:  # (the agent's own checks said nothing: say which option it was)
        raise OptionError(_mistyped(name, factory, opts) or f"bad options for agent {name!r}: {e}"
                          ) from None


def _mistyped(name: str, factory: AgentFactory, opts: dict[str, Any],
              declared: bool = False) -> str:
    """Which option is a word where the agent takes a number ("" if none is): by the factory's
    annotations (``declared``: a pure-Python factory, which would take the word and fail later),
    else by the type of the option's default (a compiled factory has no annotations; it
    refuses the word itself, with a TypeError that names no option)."""
    import inspect

    params = inspect.signature(factory).parameters
    for key, value in opts.items():
        if key not in params:
            continue
        p = params[key]
        number = (str(getattr(p.annotation, "__name__", p.annotation)) if declared
                  else type(p.default).__name__)
        if (number == "int" and not isinstance(value, int)) or (
                number == "float" and not isinstance(value, int | float)):
            kind = "a whole number" if number == "int" else "a number"
            return f"agent {name!r}: {key} must be {kind} (not {value!r})"
    return ""
