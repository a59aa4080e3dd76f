"""One schema for what users and programs send in: game records (RULES.md 8), the engine
protocol's requests and the web site's request bodies and messages.

Each is a pydantic model whose fields are checked by type and range, strictly (``1.0`` is no
seat, ``true`` no number, ``"3"`` no level), with a bound on every size.  :func:`check` turns
the first problem into that field's one-line message, raised as the project's own exception
(:mod:`bezique.errors`), echoing at most a short cut of the bad value; :func:`parse_json` reads
JSON text and refuses numbers too long and nesting too deep the same way.  What a variant's
rules allow (its options, its number of seats) is asked of :mod:`bezique.rules` by the record's
model once the fields have the right form; whether an action is legal is the engine's business.

>>> check(EngineStart, {"cmd": "new", "seat": 0.0, "hand": [], "turnup": "7H"})
Traceback (most recent call last):
...
bezique.errors.ProtocolError: 'seat' must be the seat the engine plays, 0 to 3 (not 0.0)
>>> check(WebCreate, {"target": 99}).target
Traceback (most recent call last):
...
bezique.errors.RequestError: 'target' must be a whole number from 100 to 10000 (not 99)
>>> parse_json("[" * 5000, RecordError, "a record must be JSON")
Traceback (most recent call last):
...
bezique.errors.RecordError: a record must be JSON (nested too deep)
"""

from __future__ import annotations

import difflib
import itertools
import json
import reprlib
import typing
from typing import Annotated, Any, ClassVar, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    ValidationError,
    model_validator,
)
from pydantic_core import ErrorDetails

from .agents.base import require_agent_variant
from .agents.levels import DEFAULT_LEVEL
from .errors import BeziqueError, ProtocolError, RecordError, RequestError
from .rules import MAX_CUT, Rules

# Bounds on what can be a game: refused at once, before any replay (the longest deal, eight
# packs, has fewer than 1,000 actions).
MAX_DEALS = 1000
MAX_ACTIONS = 4000
MAX_CARDS = 400  # cards in one hand or stock (eight packs hold 256)
MAX_TEXT = 200  # an action text, an agent spec
MAX_TOTAL = 1_000_000  # a game total
MAX_GO_MS = 60_000  # the longest think the engine grants one 'go'
MAX_SEED = 1 << 63

# A short cut of a bad value for a message: never the whole of a 50 MB string.
_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = _SHORT.maxlong = 32
_SHORT.maxlist = _SHORT.maxdict = _SHORT.maxtuple = 4
_SHORT.maxlevel = 2


def short(value: Any) -> str:
    """``repr(value)`` cut to a few dozen characters.

    >>> short("x" * 10_000)
    "'xxxxxxxxxxxxx...xxxxxxxxxxxxxx'"
    """
    return cut(_SHORT.repr(value), 60)


CardName = Annotated[StrictStr, Field(max_length=8)]
ActionText = Annotated[StrictStr, Field(max_length=MAX_TEXT)]
CardList = Annotated[list[CardName], Field(max_length=MAX_CARDS)]
OptionValue = StrictBool | StrictInt | StrictFloat | Annotated[StrictStr, Field(max_length=64)]
Options = Annotated[dict[Annotated[StrictStr, Field(max_length=64)], OptionValue],
                    Field(max_length=64)]
Seat2 = Annotated[StrictInt, Field(ge=0, le=1)]
SeatN = Annotated[StrictInt, Field(ge=0, le=3)]  # checked against the variant's seats later


class _Model(BaseModel):
    """Strict scalars; other keys are ignored (records and requests may carry more), unless
    a key is nearly one of the model's and that one is not given: a misspelt ``"option"`` is
    refused with ``did you mean 'options'?``, never quietly read as no options."""

    model_config = ConfigDict(extra="ignore")
    error: ClassVar[type[BeziqueError]] = RequestError
    what: ClassVar[str] = "the request must be a JSON object"
    noun: ClassVar[str] = "this request"

    @model_validator(mode="before")
    @classmethod
    def _no_near_miss(cls, data: Any) -> Any:
        if not isinstance(data, dict) or cls.model_config.get("extra") == "forbid":
            return data  # (a model that forbids other keys names every key it has)
        fields = list(cls.model_fields)
        for key in itertools.islice(data, 200):
            if isinstance(key, str) and key not in cls.model_fields and len(key) <= 64:
                near = difflib.get_close_matches(key, fields, n=1, cutoff=0.8)
                if near and near[0] not in data:
                    raise cls.error(f"{short(key)} is not a key of {cls.noun}: did you mean "
                                    f"'{near[0]}'?")
        return data


M = TypeVar("M", bound=_Model)


def parse_json(text: str | bytes, error: type[BeziqueError], what: str) -> Any:
    """Decoded JSON, or ``error`` with the sentence ``what`` (say "a message must be JSON") and,
    briefly, why not."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise error(f"{what} ({e.msg} at line {e.lineno} column {e.colno})") from None
    except UnicodeDecodeError:
        raise error(f"{what} (it is not UTF-8 text)") from None
    except RecursionError:
        raise error(f"{what} (nested too deep)") from None
    except ValueError as e:  # a number too long
        raise error(f"{what} ({str(e).split(':')[0][:80]})") from None


def cut(text: str, most: int = 80) -> str:
    """``text`` as it is if short, else its start and end around an ellipsis.

    >>> cut("a" * 100, 20)
    'aaaaaaaaa...aaaaaaaa'
    """
    return text if len(text) <= most else text[: most // 2 - 1] + "..." + text[-(most // 2 - 2):]


def check(model: type[M], data: Any, where: str = "") -> M:
    """``data`` validated as ``model``; else ``model.error`` with a one-line message."""
    try:
        return model.model_validate(data)
    except ValidationError as e:
        errors = e.errors()  # of a union's members: the one a model's own check refused,
        # else the one that got furthest into the input (an object's field, not "no text")
        err = next((x for x in errors if x["type"] == "value_error"),
                   max(errors, key=lambda x: len(x["loc"])))
        raise model.error((where and where + ": ") + _message(model, err)) from None
    except RecursionError:
        raise model.error((where and where + ": ") + "nested too deep") from None


def _models(annotation: Any) -> list[type[BaseModel]]:
    """The models inside a field's annotation (``list[Deal] | None`` gives ``[Deal]``)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for arg in typing.get_args(annotation) for m in _models(arg)]


def _message(model: type[BaseModel], err: ErrorDetails) -> str:
    """The message of the field ``err`` is about, prefixed with the list item it is in."""
    if err["type"] == "extra_forbidden":  # a key that is no setting (only _Settings refuse)
        return _unknown_key(model, err["loc"])
    where: list[str] = []
    desc = ""
    current: list[type[BaseModel]] = [model]
    each = item = whole_item = ""  # how a list names its items and says what one must be
    parts: list[str] = []  # what each place of a tuple item must be
    for part in err["loc"]:
        if isinstance(part, int):
            if each:
                where.append(each.format(n=part + 1, i=part))
                whole_item = item  # the item itself is wrong, unless a field of it follows
                each = ""  # (a number further on is a place inside the item)
            elif whole_item and part < len(parts):
                whole_item = parts[part]  # "action 1: a pair's player must be ... (not 9)"
            continue
        fields = next((m.model_fields for m in current if part in m.model_fields), None)
        if fields is None:
            continue  # a union member's tag
        info = fields[part]
        desc = info.description or f"'{part}' is not valid: {err['msg']}"
        extra = info.json_schema_extra
        each = str(extra.get("each", "")) if isinstance(extra, dict) else ""
        item = str(extra.get("item", "")) if isinstance(extra, dict) else ""
        got = extra.get("parts", []) if isinstance(extra, dict) else []
        parts = [str(x) for x in got] if isinstance(got, list) else []
        whole_item = ""
        current = _models(info.annotation)
        if current:
            where = []  # a message inside an item names the item, not the list
    if err["type"] == "value_error":  # a model's own check: its message, in its item
        cause = err.get("ctx", {}).get("error")
        return ": ".join([*where, str(cause)[:300] if cause is not None else err["msg"]])
    if not desc:
        desc = getattr(model, "what", "the input must be a JSON object")
    elif whole_item:
        desc = whole_item  # "action 2: an action must be a text, ... (not 5)"
    elif err["type"] == "model_type" and isinstance(err["loc"][-1], int) and where and current:
        desc = str(getattr(current[0], "what", desc))  # "deal 2: a deal must be an object"
    desc += " (it is missing)" if err["type"] == "missing" else f" (not {short(err['input'])})"
    return ": ".join([*where, desc])


def _unknown_key(model: type[BaseModel], loc: tuple[int | str, ...]) -> str:
    """'no setting 'varient' (the settings are ...)', for the model the key was found in."""
    current: list[type[BaseModel]] = [model]
    where = ""
    for part in loc[:-1]:
        if isinstance(part, int):
            where = f"seat {part + 1}: "
            continue
        fields = next((m.model_fields for m in current if part in m.model_fields), None)
        if fields is not None:
            current = _models(fields[part].annotation) or current
    names = ", ".join(current[0].model_fields)
    return f"{where}{short(loc[-1])} is no setting (the settings are {names})"


# ---------------------------------------------------------------------- game records


class DealIn(_Model):
    """One deal of a record: dealer, hands, turn-up, stock (top first), actions."""

    error = RecordError
    what = "a deal must be an object"
    noun = "a deal"
    dealer: StrictInt = Field(1, ge=0, le=7, description="'dealer' must be a seat number")
    hands: list[CardList] = Field(max_length=8,
                                  description="'hands' must be a list of hands of card names")
    turnup: CardName | None = Field(None, description="'turnup' must be a card name or null")
    stock: CardList = Field(description="'stock' must be a list of card names")
    actions: list[ActionText] = Field(
        default_factory=list, max_length=MAX_ACTIONS,
        description=f"'actions' must be a list of action texts (at most {MAX_ACTIONS} actions "
                    "a deal)")
    cut: StrictInt | None = Field(None, ge=1, le=MAX_CUT,
                                  description="'cut' must be a number of cards (the cut bonus)")
    guess: StrictInt | None = Field(None, ge=1, le=MAX_CUT,
                                    description="'guess' must be a number of cards (the cut "
                                                "bonus)")


class RecordIn(_Model):
    """A game record (RULES.md 8); building it asks :mod:`bezique.rules` about the variant."""

    error = RecordError
    what = "a record must be a JSON object with 'variant' and 'deals'"
    noun = "a record"
    variant: StrictStr = Field("bezique", max_length=64,
                               description="'variant' must be a variant name such as bezique")
    options: Options | None = Field(None, description="'options' must be an object of rule "
                                                      "options (names and values)")
    deals: list[DealIn] = Field(
        min_length=1, max_length=MAX_DEALS, json_schema_extra={"each": "deal {n}"},
        description=f"'deals' must be a non-empty list of at most {MAX_DEALS} deals")
    practice: StrictBool = Field(False, description="'practice' must be true or false")
    _rules: Rules | None = PrivateAttr(None)

    @model_validator(mode="before")
    @classmethod
    def _dealers(cls, data: Any) -> Any:
        """Each deal's dealer is a seat of the variant (checked first, so that ``1.0`` gets
        the variant's own seats in its message)."""
        if not isinstance(data, dict) or not isinstance(data.get("deals"), list):
            return data
        try:
            n = Rules.from_options(data.get("variant", "bezique"),
                                   data.get("options") or {}).nplayers
        except Exception:  # the fields' own checks will say what is wrong
            return data
        seats = " or ".join(str(k) for k in range(n))
        for i, d in enumerate(data["deals"][:MAX_DEALS]):
            dealer = d.get("dealer", 1) if isinstance(d, dict) else 1
            if type(dealer) is not int or not 0 <= dealer < n:
                raise RecordError(f"deal {i + 1}: 'dealer' must be {seats} (not "
                                  f"{short(dealer)})")
        return data

    @model_validator(mode="after")
    def _fits_the_rules(self) -> RecordIn:
        try:
            rules = Rules.from_options(self.variant, self.options or {})
        except BeziqueError as e:
            raise RecordError(str(e)) from None
        n = rules.nplayers
        for i, d in enumerate(self.deals):
            where = f"deal {i + 1}"
            if len(d.hands) != n:
                raise RecordError(f"{where}: 'hands' must be a list of {n} hands")
            if rules.turnup and d.turnup is None:
                raise RecordError(f"{where}: 'turnup' must be a card name")
            if not rules.turnup and d.turnup is not None:
                raise RecordError(f"{where}: 'turnup' must be null: {rules.variant} has no "
                                  "turn-up")
        self._rules = rules
        return self

    @property
    def rules(self) -> Rules:
        """The record's rules (its variant with its options)."""
        assert self._rules is not None
        return self._rules


# ---------------------------------------------------------------------- the engine protocol


class StepIn(_Model):
    """One action of a position given as an object (``cmd action`` is one too)."""

    error = ProtocolError
    what = "an action must be an object with 'action'"
    noun = "an action"
    action: ActionText = Field(description="'action' must be an action text such as "
                                           "\"play QS\"")
    player: SeatN | None = Field(None, description="'player' must be a seat number, 0 to 3")
    draw: CardName | None = Field(None, description="'draw' must be a card name such as "
                                                    "\"QS\"")
    points: StrictInt | None = Field(None, ge=0, le=10_000,
                                     description="'points' must be a whole number from 0")
    shown: CardList | None = Field(None, description="'shown' must be the list of the cards "
                                                     "shown for carte blanche")


class EngineStart(_Model):
    """``new`` and ``position``: the rules, the seat, its dealt hand, the turn-up, the agent."""

    error = ProtocolError
    what = "a request must be a JSON object with a 'cmd'"
    variant: StrictStr = Field("bezique", max_length=64,
                               description="'variant' must be a variant name such as bezique")
    options: Options | None = Field(None, description="'options' must be an object of rule "
                                                      "options")
    seat: SeatN = Field(description="'seat' must be the seat the engine plays, 0 to 3")
    dealer: SeatN = Field(1, description="'dealer' must be a seat number, 0 to 3")
    hand: CardList = Field(description="'hand' must be the list of the cards you were dealt")
    turnup: CardName | None = Field(None, description="'turnup' must be the card turned up for "
                                                      "trumps, such as \"7H\" (null in the "
                                                      "multi-pack games)")
    totals: Annotated[list[Annotated[StrictInt, Field(ge=0, le=MAX_TOTAL)]],
                      Field(min_length=2, max_length=4)] | None = Field(
        None, description="'totals' must be the game totals before this deal, one per seat, "
                          "e.g. [0, 0]")
    seed: StrictInt = Field(0, ge=-MAX_SEED, lt=MAX_SEED,
                            description="'seed' must be a whole number")
    cut: StrictInt | None = Field(None, ge=1, le=MAX_CUT,
                                  description="'cut' must be the number of cards cut, once "
                                              "guessed (the cut bonus)")
    agent: ActionText | None = Field(None, description="'agent' must be an agent spec such "
                                                       "as \"heuristic\"")
    actions: list[ActionText | tuple[SeatN, ActionText] | StepIn] = Field(
        default_factory=list, max_length=MAX_ACTIONS, json_schema_extra={
            "each": "action {n}", "item": "an action must be a text such as \"play QS\", a "
                                          "[player, text] pair or an object with 'action'",
            "parts": ["the player of a [player, text] pair must be a seat number, 0 to 3",
                      "the text of a [player, text] pair must be an action text such as "
                      "\"play QS\""]},
        description="'actions' must be a list of action texts, [player, text] pairs or objects "
                    "with 'action'")
    draws: list[CardName] = Field(default_factory=list, max_length=MAX_CARDS,
                                  description="'draws' must be the list of cards you drew, "
                                              "one per pass")

    @model_validator(mode="before")
    @classmethod
    def _variant_first(cls, data: Any) -> Any:
        """A variant the agents cannot play is said first, whatever else is wrong."""
        if not isinstance(data, dict):
            return data
        variant, options = data.get("variant", "bezique"), data.get("options") or {}
        if isinstance(variant, str) and len(variant) <= 64 and isinstance(options, dict):
            try:
                rules = Rules.from_options(variant, options)
            except BeziqueError:
                raise
            except Exception:  # the fields' own checks will say what is wrong
                return data
            require_agent_variant(rules)
        return data


class EngineGo(_Model):
    """``go``: an optional time budget."""

    error = ProtocolError
    budget_ms: StrictInt | StrictFloat | None = Field(
        None, gt=0, le=MAX_GO_MS,
        description=f"'budget_ms' must be a positive number of milliseconds, at most "
                    f"{MAX_GO_MS}")


# ---------------------------------------------------------------------- the web site


class _Settings(_Model):
    """A new game's settings: a key that is no setting (``"varient"``) is refused, not ignored,
    so a misspelt choice never quietly starts another game than the one asked for."""

    model_config = ConfigDict(extra="forbid")


class WebSeat(_Settings):
    """One other seat of a table for three or four: a friend (with a private invitation link)
    or the computer at a level."""

    what = "each seat must be {\"kind\": \"friend\"} or {\"kind\": \"computer\", \"level\": 1}"
    kind: Literal["friend", "computer"] = Field(
        description="a seat's 'kind' must be 'friend' or 'computer'")
    level: StrictInt = Field(DEFAULT_LEVEL, ge=1, le=5,
                             description="a seat's 'level' must be a whole number from 1 to 5")


class WebCreate(_Settings):
    """``POST /api/games``: a new game's settings (``seats`` and ``partnership`` for the
    tables of three and four)."""

    opponent: Literal["computer", "friend"] = Field(
        "computer", description="'opponent' must be 'computer' or 'friend'")
    variant: StrictStr = Field(
        "bezique", max_length=64,
        description="'variant' must be bezique, binocle, rubicon, sixpack, eightpack, "
                    "bezique3 or bezique4")
    target: StrictInt = Field(1000, ge=100, le=10_000,
                              description="'target' must be a whole number from 100 to 10000")
    level: StrictInt = Field(DEFAULT_LEVEL, ge=1, le=5,
                             description="'level' must be a whole number from 1 to 5")
    name: StrictStr = Field("", max_length=MAX_TEXT,
                            description="'name' must be a text of at most 24 letters")
    seed: StrictInt | None = Field(None, ge=0, lt=1 << 62,
                                   description="'seed' (the deal number) must be a whole "
                                               "number from 0")
    seats: list[WebSeat] | None = Field(
        None, max_length=3, description="'seats' must be a list of the other seats, each "
                                        "{\"kind\": \"friend\"} or {\"kind\": \"computer\", "
                                        "\"level\": 1}")
    partnership: StrictBool | None = Field(
        None, description="'partnership' must be true or false")
    options: Options | None = Field(
        None, description="'options' must be an object of rule options such as "
                          "{\"last_trick\": \"stock\"}")


class WebJoin(_Model):
    """``POST /api/games/{id}/join``."""

    what = "send the invitation as {\"invite\": \"...\"}"
    invite: StrictStr = Field(max_length=128, description=what)
    name: StrictStr = Field("", max_length=MAX_TEXT,
                            description="'name' must be a text of at most 24 letters")


class WebToken(_Model):
    """A body that only carries a seat token."""

    token: StrictStr = Field("", max_length=256, description="'token' must be a text")


class WebMessage(_Model):
    """A seat's request, over the WebSocket or ``POST .../act`` (which adds the token)."""

    what = 'a message must be a JSON object such as {"type": "action", "action": "play QS"}'
    type: Literal["action", "undo", "hint", "next", "leave", "back"] = Field(
        description="unknown message type: send one of action, undo, hint, next, leave, back")
    action: ActionText | None = Field(
        None, description="an action must be a text such as 'play QS' or 'pass'")
    version: StrictInt | None = Field(None, ge=0, lt=MAX_SEED,
                                      description="'version' must be a whole number")
    ref: StrictInt | Annotated[StrictStr, Field(max_length=64)] | None = Field(
        None, description="'ref' must be a number or a short text")
    token: StrictStr = Field("", max_length=256, description="'token' must be a text")

    @model_validator(mode="after")
    def _action_has_text(self) -> WebMessage:
        if self.type == "action" and not (self.action or "").strip():
            raise RequestError("an action must be a text such as 'play QS' or 'pass'")
        return self


class WebMine(_Model):
    """``POST /api/mine``: the games this browser holds seats in."""

    what = "send {\"games\": {game id: token, ...}} (at most 100)"
    games: dict[Annotated[StrictStr, Field(max_length=64)],
                Annotated[StrictStr, Field(max_length=256)]] = Field(max_length=100,
                                                                     description=what)
