"""The exceptions of the package: all are ``ValueError`` subclasses with messages for players."""

from __future__ import annotations


class BeziqueError(ValueError):
    """Base of every error this package raises on bad input."""


class IllegalActionError(BeziqueError):
    """An action the rules do not allow now; the state is left exactly as it was."""


class OptionError(BeziqueError):
    """An unknown rule option, or a bad value for one."""


class RecordError(BeziqueError):
    """A game record that cannot be read or describes an impossible deal."""


class ProtocolError(BeziqueError):
    """An engine-protocol request the engine cannot act on; its message goes back in ``error``."""


class RequestError(BeziqueError):
    """A web request whose body or message has the wrong form."""
