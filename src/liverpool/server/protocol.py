"""The messages of protocol 1 (``docs/protocol.md``): the lobby's REST bodies and the WebSocket's
client messages, as pydantic models; server messages are built by :mod:`.table` as plain dicts.

A client message is parsed with :func:`parse_client_message`; anything else than one of the models
below raises :class:`ProtocolError` with a code and a reason a person can read.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from ..rules import OPTIONS

__all__ = [
    "ERROR_CODES",
    "HINT_CHOICES",
    "MAX_MESSAGE_BYTES",
    "PROTOCOL_VERSION",
    "SEATS_HIGH",
    "SEATS_LOW",
    "ActMessage",
    "AuthMessage",
    "AutoplayMessage",
    "ChatMessage",
    "CheckMessage",
    "ClientMessage",
    "ContinueMessage",
    "CreateTable",
    "ErrorAnswer",
    "HintMessage",
    "HintOption",
    "JoinTable",
    "MeldMessage",
    "MeldSpec",
    "MuteMessage",
    "PingMessage",
    "PrefsMessage",
    "ProtocolError",
    "QuickPlay",
    "RulesCheck",
    "SeatCount",
    "SeatSpec",
    "message_bytes",
    "parse_auth_message",
    "parse_client_message",
    "validation_detail",
]

PROTOCOL_VERSION = 3
MAX_MESSAGE_BYTES = 64 * 1024
"""The largest client message (WebSocket text or REST body) the server reads."""

ERROR_CODES = (
    "stale",
    "not_in_list",
    "malformed",
    "not_your_turn",
    "too_large",
    "rate_limited",
    "bad_token",
    "illegal",
    "not_started",
    "game_over",
    "hints_off",
    "no_hints_left",
    "not_your_decision",
    "hint_failed",
    "paused",
    "chat_off",
    "chat_limited",
    "watching",
    "no_watching",
)

HINT_CHOICES: tuple[str | int, ...] = ("off", 3, "unlimited")
"""The values of a table's ``hints`` option: none, 3 per deal per seat (the default), no limit."""

HintOption = Literal["off", 3, "unlimited"]

Name = Annotated[str, Field(min_length=1, max_length=40)]


class ProtocolError(ValueError):
    """A client message the server refuses: ``code`` (one of :data:`ERROR_CODES`) and the reason."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


class _Strict(BaseModel):
    """No extra field, and no conversion: ``"version": "4"``, ``"players": "4"`` or ``"on": 1``
    are refused (an integer is a JSON integer, a boolean a JSON boolean; a number may be an
    integer where a float is asked for)."""

    model_config = ConfigDict(extra="forbid", strict=True)


# ---------------------------------------------------------------------------------------- REST
class ErrorAnswer(BaseModel):
    """Every refused REST request's body, whatever its status."""

    detail: str = Field(description="why, in words a person can read")


def validation_detail(errors: Any) -> str:
    """FastAPI's list of validation errors as one reason: the first bad field named.

    >>> validation_detail([{"loc": ("body", "players"), "msg": "Input should be a valid integer"}])
    'body.players: Input should be a valid integer'
    """
    if not errors:
        return "bad request"
    first = errors[0]
    where = ".".join(str(x) for x in first.get("loc", ()))
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{where}: {first.get('msg')}{more}" if where else f"{first.get('msg')}{more}"


SEATS_LOW: int = OPTIONS["min_players"].low or 2
"""The fewest seats a table may have: the engine's least ``min_players`` (rules.OPTIONS)."""
SEATS_HIGH: int = OPTIONS["max_players"].high or SEATS_LOW
"""The most seats a table may have: the engine's greatest ``max_players`` (rules.OPTIONS); a
table's own rules may allow fewer (``RuleSet.check_table`` says so, naming the options)."""


def _seat_count(players: int) -> int:
    if not SEATS_LOW <= players <= SEATS_HIGH:
        raise ValueError(f"{players} seats: a table has {SEATS_LOW} to {SEATS_HIGH} (the engine's limits)")
    return players


SeatCount = Annotated[
    int,
    AfterValidator(_seat_count),
    Field(
        description="seats at the table (the rules' min_players to max_players)",
        json_schema_extra={"minimum": SEATS_LOW, "maximum": SEATS_HIGH},
    ),
]
"""A table's number of seats, within the engine's limits (:data:`SEATS_LOW`-:data:`SEATS_HIGH`)."""


class SeatSpec(_Strict):
    """One seat of a new table: a person, or a bot (``easy``/``medium``/``hard`` or any bot name)."""

    kind: Literal["human", "bot"] = "human"
    bot: str | None = None


class CreateTable(_Strict):
    players: SeatCount = 4
    preset: str = "liverpool"
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatSpec] | None = None
    timer: float | None = Field(default=None, gt=0, le=3600, description="seconds per decision, or null for no timer")
    name: Name = "Player"
    bot_delay: float | None = Field(default=None, ge=0, le=10, description="seconds a bot waits before acting")
    hints: HintOption = Field(default=3, description='hints per seat and deal: "off", 3 or "unlimited"')
    # issue 24 (server/pacing.py): the buy window's length and the deal-end pause
    buy_seconds: float | None = Field(
        default=None, ge=0.5, le=120, description="seconds the buy window waits for people (null: the server's)"
    )
    deal_pause: float | None = Field(
        default=None, ge=0, le=3600, description="longest deal-end pause in seconds (null: until all continue; 0: none)"
    )
    # issue 24 (server/chat.py, server/spectate.py): who may chat, whether the table may be watched
    chat: Literal["players", "everyone", "off"] = Field(
        default="players", description='who may chat: "players" (seated people), "everyone" (spectators too), "off"'
    )
    spectators: bool = Field(default=True, description="whether the table's watch link shows it live")
    rated: bool = Field(default=True, description="false: the game changes nobody's rating (docs/players.md)")


class QuickPlay(_Strict):
    name: Name = "Player"
    bot: str = "medium"
    bot_delay: float | None = Field(default=None, ge=0, le=10)
    hints: HintOption = 3
    rated: bool = True


class JoinTable(_Strict):
    name: Name = "Player"


class RulesCheck(_Strict):
    preset: str = "liverpool"
    options: dict[str, Any] = Field(default_factory=dict)
    players: SeatCount | None = None


# ---------------------------------------------------------------------------------- WebSocket
class AuthMessage(_Strict):
    """The first message of every socket: the seat's secret token (never in the URL, so no access
    log, proxy log or browser history ever holds it)."""

    type: Literal["auth"]
    token: str = Field(min_length=1, max_length=200)


class ActMessage(_Strict):
    type: Literal["act"]
    version: int
    action: str = Field(max_length=16)


class MeldMessage(_Strict):
    type: Literal["meld"]
    version: int
    kind: Literal["set", "run"]
    cards: list[str] = Field(min_length=1, max_length=30)


class MeldSpec(_Strict):
    kind: Literal["set", "run"]
    cards: list[str] = Field(min_length=1, max_length=30)


class CheckMessage(_Strict):
    type: Literal["check"]
    id: str | int | None = None
    melds: list[MeldSpec] = Field(min_length=1, max_length=8)


class PingMessage(_Strict):
    type: Literal["ping"]


class AutoplayMessage(_Strict):
    """Let the seat's bot play for this person (``on``) until they say otherwise or reconnect."""

    type: Literal["autoplay"]
    on: bool = True


class HintMessage(_Strict):
    """Ask for a hint for this seat's decision at ``version`` (answered to this seat only)."""

    type: Literal["hint"]
    version: int


class ContinueMessage(_Strict):
    """Done reading the deal's end: the table's deal-end pause stops waiting for this seat."""

    type: Literal["continue"]


class PrefsMessage(_Strict):
    """This person's buy choice and whether their client shows a deal-end screen (server/pacing.py)."""

    type: Literal["prefs"]
    buy: Literal["ask", "fits", "never"] = "ask"
    wish: list[Annotated[str, Field(min_length=1, max_length=4)]] = Field(default_factory=list, max_length=60)
    pause: bool = False


class ChatMessage(_Strict):
    """A line of the table's chat (server/chat.py); ``name``: a spectator's name (seats have theirs)."""

    type: Literal["chat"]
    text: str = Field(min_length=1, max_length=300)
    name: Name | None = None


class MuteMessage(_Strict):
    """Stop (``on``) or start again sending this seat the chat lines of one talker: ``seat:N`` (a
    seat) or ``name:NAME`` (a spectator's chosen name). Kept by the server for the seat
    (server/chat.py), answered with a ``chat_log`` holding ``muted``."""

    type: Literal["mute"]
    who: str = Field(pattern=r"^(seat:[0-9]{1,2}|name:.{1,64})$")
    on: bool = True


AnyClientMessage = (
    ActMessage
    | MeldMessage
    | CheckMessage
    | PingMessage
    | AutoplayMessage
    | HintMessage
    | ContinueMessage
    | PrefsMessage
    | ChatMessage
    | MuteMessage
)
ClientMessage = Annotated[AnyClientMessage, Field(discriminator="type")]
_CLIENT: TypeAdapter[AnyClientMessage] = TypeAdapter(ClientMessage)
_TYPES = ("act", "meld", "check", "ping", "autoplay", "hint", "continue", "prefs", "chat", "mute")


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(x) for x in err.get("loc", ()) if x not in _TYPES)
    return f"{where}: {err.get('msg')}" if where else str(err.get("msg"))


def message_bytes(text: str | bytes) -> int:
    """The size of a message in bytes (UTF-8 for text), what :data:`MAX_MESSAGE_BYTES` limits.

    >>> message_bytes("é" * 3), message_bytes(b"abc")
    (6, 3)
    """
    if isinstance(text, bytes):
        return len(text)
    return len(text.encode("utf-8", "surrogatepass"))


def parse_auth_message(text: str | bytes) -> AuthMessage:
    """The socket's first message, ``{"type": "auth", "token": ...}``; a :class:`ProtocolError`
    (``bad_token``) for anything else.

    >>> parse_auth_message('{"type": "auth", "token": "abc"}').token
    'abc'
    >>> parse_auth_message('{"type": "ping"}')
    Traceback (most recent call last):
    ...
    liverpool.server.protocol.ProtocolError: the first message must be {"type": "auth", "token": "<the seat's token>"}
    """
    wanted = 'the first message must be {"type": "auth", "token": "<the seat\'s token>"}'
    if message_bytes(text) > MAX_MESSAGE_BYTES:
        raise ProtocolError("bad_token", wanted)
    try:
        return AuthMessage.model_validate_json(text)
    except (ValidationError, ValueError):
        raise ProtocolError("bad_token", wanted) from None


def parse_client_message(text: str | bytes) -> AnyClientMessage:
    """The client message in ``text``; a :class:`ProtocolError` for anything malformed."""
    size = message_bytes(text)
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"message of {size} bytes: the limit is {MAX_MESSAGE_BYTES}")
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError("malformed", "the message is not JSON") from None
    except RecursionError:  # nested deeper than the parser goes: no message of the protocol is
        raise ProtocolError("malformed", "the message is nested too deeply") from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed", 'a message is a JSON object with a "type"')
    kind = data.get("type")
    if kind not in _TYPES:
        raise ProtocolError("malformed", f"unknown message type {kind!r}: types are {', '.join(_TYPES)}")
    try:
        return _CLIENT.validate_python(data)
    except ValidationError as exc:
        raise ProtocolError("malformed", f"bad {kind} message: {_first_error(exc)}") from None
