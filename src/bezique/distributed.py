"""Running independent tasks on a Ray cluster: the arena's and the tournament's duplicated deals.

This is the only module that imports ``ray`` (lazily: Ray is an optional dependency, the
``research`` extra).  :func:`ray_map` sends each task to a Ray worker and yields
``(task number, result)`` as the results come back, in the order they finish; callers sort by
the number, so a run on Ray gives exactly the results of a local run (every pair's cards and
agents' seeds derive from the match seed and the pair's number, never from where it ran).

``address`` is :data:`LOCAL` to start a local Ray with ``workers`` worker processes (it is shut
down at the end), or the address of a running cluster (``auto``, ``ray://host:10001``,
``host:6379``), whose workers must have the same version of ``bezique`` installed.  A Ray that
this process already started (``ray.init`` in a script or a test) is used as it is.

Agents registered outside the package (:func:`bezique.agents.register_agent` in a user's module
or script) go with the tasks, their factories pickled by value (the workers need not be able to
import the user's module): each task registers, in its worker, those the worker does not know
yet, so a tournament of one's own agents runs on Ray as it does locally.
"""

from __future__ import annotations

import logging
import os
import socket
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from .errors import BeziqueError

T = TypeVar("T")
R = TypeVar("R")

# (name, factory, summary, label) of an agent registered outside the package
UserAgent = tuple[str, Callable[..., Any], str, "Callable[[str], str] | None"]

LOCAL = "local"
"""The ``address`` that starts a local Ray (``bezique arena --ray`` with no address)."""

INSTALL_HINT = "--ray needs Ray, which is not installed: pip install 'bezique[research]'"


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise BeziqueError(INSTALL_HINT) from None
    return ray


def check_reachable(address: str, timeout: float = 5.0) -> None:
    """Refuse, with :class:`BeziqueError`, a ``host:port`` (or ``ray://host:port``) address that
    takes no connection within ``timeout`` seconds (Ray itself would retry for minutes).
    ``auto`` and addresses without a port are left to Ray."""
    hostport = address.split("://", 1)[-1].rstrip("/")
    host, sep, port = hostport.rpartition(":")
    if not sep or not port.isdigit() or not host:
        return
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as e:
        raise BeziqueError(f"cannot reach the Ray cluster at {address}: "
                           f"{e.strerror or e or 'no answer'}") from None


def start(ray: Any, address: str, workers: int) -> bool:
    """Connect to (or start) Ray; True when this call started it, so it should shut it down."""
    if ray.is_initialized():
        return False
    quiet: dict[str, Any] = {"logging_level": logging.ERROR, "log_to_driver": False}
    try:
        if address == LOCAL:
            # the workers inherit this process's environment (BEZIQUE_PURE included)
            ray.init(num_cpus=max(1, workers), include_dashboard=False, **quiet)
        else:
            check_reachable(address)
            ray.init(address=address, **quiet)
    except BeziqueError:
        raise
    except Exception as e:  # Ray raises ConnectionError, RuntimeError, ValueError, ...
        where = "start a local Ray" if address == LOCAL else f"reach the Ray cluster at {address}"
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise BeziqueError(f"cannot {where}: {first}") from None
    return True


def user_agents() -> list[UserAgent]:
    """The agents registered in this process from outside the ``bezique`` package."""
    from .agents.base import agent_entries

    out: list[UserAgent] = []
    for name, factory, summary, label in agent_entries():
        module = getattr(factory, "__module__", None) or ""
        if module != "bezique" and not module.startswith("bezique."):
            out.append((name, factory, summary, label))
    return out


def register_missing(agents: Sequence[UserAgent]) -> None:
    """Register each of ``agents`` that this process does not know yet."""
    from .agents import agent_names, register_agent

    known = set(agent_names())
    for name, factory, summary, label in agents:
        if name not in known:
            register_agent(name, summary, label)(factory)


def pickled_agents(ray: Any, agents: Sequence[UserAgent]) -> bytes:
    """``agents`` pickled with their modules' functions and classes by value (Ray's
    cloudpickle), so a worker that cannot import those modules can still build the agents."""
    cloudpickle = ray.cloudpickle
    modules = {sys.modules[m] for _, factory, _, _ in agents
               if (m := getattr(factory, "__module__", None)) in sys.modules
               and m != "__main__"}  # (a script's own functions go by value anyway)
    added = [m for m in modules
             if m.__name__ not in cloudpickle.list_registry_pickle_by_value()]
    for m in added:
        cloudpickle.register_pickle_by_value(m)
    try:
        blob: bytes = cloudpickle.dumps(list(agents))
    except Exception as e:  # whatever a user's module holds that cannot be pickled
        names = ", ".join(name for name, *_ in agents)
        raise BeziqueError(f"cannot send your agents ({names}) to the Ray workers: {e}"
                           ) from None
    finally:
        for m in added:
            cloudpickle.unregister_pickle_by_value(m)
    return blob


def _run_with_agents(fn: Callable[[T], R], agents: bytes, task: T) -> R:
    """A Ray task: ``fn(task)`` once the driver's own agents (:func:`pickled_agents`) are
    registered here too."""
    from ray import cloudpickle

    register_missing(cloudpickle.loads(agents))
    return fn(task)


def ray_map(fn: Callable[[T], R], tasks: Sequence[T], address: str = LOCAL,
            workers: int = 0) -> Iterator[tuple[int, R]]:
    """``(i, fn(tasks[i]))`` for every task, computed on Ray workers, in the order they finish.

    ``workers``: for a local Ray, its number of worker processes (0: one per core).  A task
    that raises a :class:`BeziqueError` (an agent's illegal action, a bad option) raises it
    here, unwrapped.
    """
    ray = _ray()
    started = start(ray, address, workers or os.cpu_count() or 1)
    try:
        agents = user_agents()
        if agents:
            remote = ray.remote(num_cpus=1)(_run_with_agents)
            shipped = ray.put(pickled_agents(ray, agents))
            pending = {remote.remote(fn, shipped, t): i for i, t in enumerate(tasks)}
        else:
            remote = ray.remote(num_cpus=1)(fn)
            pending = {remote.remote(t): i for i, t in enumerate(tasks)}
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                i = pending.pop(ref)
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayTaskError as e:
                    cause = getattr(e, "cause", None)
                    if isinstance(cause, BeziqueError):
                        raise cause from None
                    raise
                yield i, result
    finally:
        if started:
            ray.shutdown()
