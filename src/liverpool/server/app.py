"""The FastAPI application: the lobby's REST API under ``/api``, one WebSocket per seat at
``/ws/tables/{id}``, and the browser client's files at ``/``.

>>> app = create_app(Settings(database="sqlite:///:memory:"))
>>> sorted(r.path for r in app.routes if getattr(r, "path", "").startswith("/api/tables/{"))[:2]
['/api/tables/{table_id}', '/api/tables/{table_id}/join']
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Header, Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from ..bots import names as bot_names
from ..rules import PRESETS, options_json
from ..web.replay import replay_frames
from .config import Settings, default_static_dir
from .lobby import Lobby, option_fields, rules_for
from .protocol import MAX_MESSAGE_BYTES, PROTOCOL_VERSION, CreateTable, JoinTable, QuickPlay, RulesCheck, SeatSpec
from .store import Store
from .table import LobbyError

__all__ = ["create_app"]

log = logging.getLogger("liverpool.server")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_FALLBACK_PAGE = """<!doctype html><meta charset="utf-8"><title>Liverpool</title>
<h1>Liverpool server</h1><p>The browser client is not installed here (src/liverpool/web/static/).
The lobby API is described at <a href="/docs">/docs</a>.</p>"""


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return str(value.decode("latin-1"))
    return None


def origin_allowed(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> bool:
    """An Origin header is allowed when absent (not a browser), listed, or (with no list) the
    server's own host.

    >>> origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000", ())
    True
    >>> origin_allowed("https://evil.example", "127.0.0.1:8000", ())
    False
    >>> origin_allowed("https://friends.example", "x", ("https://friends.example",))
    True
    """
    if origin is None:
        return True
    if allowed:
        return "*" in allowed or origin.rstrip("/") in {a.rstrip("/") for a in allowed}
    return host is not None and urlsplit(origin).netloc == host


class _Guard:
    """ASGI middleware: refuse lobby requests from other origins, bodies over 64 KiB, floods."""

    def __init__(self, app: ASGIApp, settings: Settings, lobby: Callable[[], Lobby | None]) -> None:
        self.app = app
        self.settings = settings
        self.lobby = lobby

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        origin = _header(scope, b"origin")
        if not origin_allowed(origin, _header(scope, b"host"), self.settings.allowed_origins):
            await JSONResponse({"detail": f"origin {origin} is not allowed"}, status_code=403)(scope, receive, send)
            return
        length = _header(scope, b"content-length")
        if length is not None and length.isascii() and length.isdigit() and int(length) > MAX_MESSAGE_BYTES:
            await JSONResponse({"detail": f"request body over {MAX_MESSAGE_BYTES} bytes"}, status_code=413)(
                scope, receive, send
            )
            return
        lobby = self.lobby()
        client = scope.get("client")
        if lobby is not None and not lobby.allow_request(client[0] if client else "?"):
            await JSONResponse({"detail": "too many requests: slow down"}, status_code=429)(scope, receive, send)
            return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > MAX_MESSAGE_BYTES:
                raise LobbyError(413, f"request body over {MAX_MESSAGE_BYTES} bytes")
            return message

        await self.app(scope, limited, send)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The server's ASGI application; the store opens (and migrates) on startup, and the
    unfinished tables are rebuilt from it."""
    settings = settings or Settings()
    state: dict[str, Lobby] = {}

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.database, settings.synchronous)
        await store.open()
        lobby = Lobby(settings, store)
        state["lobby"] = lobby
        if settings.rebuild:
            count = await lobby.rebuild()
            if count:
                log.info("rebuilt %d unfinished table(s) from the store", count)
        lobby.start()
        try:
            yield
        finally:
            await lobby.close()
            await store.close()
            state.pop("lobby", None)

    app = FastAPI(
        title="Liverpool",
        version=str(PROTOCOL_VERSION),
        summary="The lobby of a Liverpool Rummy server: tables, seats, records. Play is over the WebSocket "
        "/ws/tables/{table_id}?token=... (docs/protocol.md).",
        lifespan=lifespan,
    )
    app.state.settings = settings

    def lobby() -> Lobby:
        found = state.get("lobby")
        if found is None:
            raise LobbyError(503, "the server is starting")
        return found

    app.state.lobby = lobby

    @app.exception_handler(LobbyError)
    async def _lobby_error(_request: Request, exc: LobbyError) -> JSONResponse:
        return JSONResponse({"detail": exc.detail}, status_code=exc.status)

    def base_url(request: Request) -> str:
        return (settings.public_url or str(request.base_url)).rstrip("/")

    def seat_answer(request: Request, table_id: str, seat: int, token: str) -> dict[str, Any]:
        return {
            "table_id": table_id,
            "seat": seat,
            "token": token,
            "invite_url": f"{base_url(request)}/?join={table_id}",
        }

    # ------------------------------------------------------------------ rules
    @app.get("/api/presets", tags=["rules"])
    async def presets() -> dict[str, Any]:
        """The presets and, for each, every rule option with its value, type, choices and rule."""
        return {"presets": list(PRESETS), "options": {name: option_fields(name) for name in PRESETS}}

    @app.get("/api/options", tags=["rules"])
    async def options() -> dict[str, Any]:
        """Every rule option as the engine declares it (rules.OPTIONS): its rules, help, allowed
        values and each preset's default."""
        return options_json()

    @app.post("/api/rules/check", tags=["rules"])
    async def rules_check(body: RulesCheck) -> dict[str, Any]:
        """Validate a preset and options: the rules in effect in plain words, or 422 naming the option."""
        try:
            rules = rules_for(body.preset, body.options, body.players)
        except ValueError as exc:
            raise LobbyError(422, str(exc)) from None
        return {"ok": True, "describe": [list(pair) for pair in rules.describe(body.players)]}

    # ------------------------------------------------------------------ tables
    @app.post("/api/tables", tags=["tables"])
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        """A new table; the answer holds the creator's seat token (keep it secret) and the invite link."""
        table, token = await lobby().create(body)
        return seat_answer(request, table.id, 0, token)

    @app.post("/api/quickplay", tags=["tables"])
    async def quickplay(body: QuickPlay, request: Request) -> dict[str, Any]:
        """A started table: the caller against three bots."""
        if body.bot not in bot_names():
            raise LobbyError(422, f"unknown bot {body.bot!r}; bots are: {', '.join(bot_names())}")
        spec = CreateTable(
            players=4,
            preset="liverpool",
            seats=[SeatSpec(kind="human")] + [SeatSpec(kind="bot", bot=body.bot)] * 3,
            name=body.name,
            bot_delay=body.bot_delay,
            hints=body.hints,
        )
        table, token = await lobby().create(spec)
        await table.start(token)
        return seat_answer(request, table.id, 0, token)

    @app.get("/api/tables/{table_id}", tags=["tables"])
    async def table_info(table_id: str) -> dict[str, Any]:
        """The table: rules, seats (names, bots, who is connected), status."""
        return (await lobby().get(table_id)).info()

    @app.post("/api/tables/{table_id}/join", tags=["tables"])
    async def join(table_id: str, body: JoinTable, request: Request) -> dict[str, Any]:
        """Take the first free person's seat: its token (409 when the table is full or started)."""
        seat, token = await (await lobby().get(table_id)).join(body.name)
        return seat_answer(request, table_id, seat, token)

    @app.post("/api/tables/{table_id}/start", tags=["tables"])
    async def start(table_id: str, x_seat_token: str | None = Header(None)) -> dict[str, Any]:
        """Start the game (the creator's token); free person's seats are given to bots."""
        table = await lobby().get(table_id)
        await table.start(x_seat_token)
        return table.info()

    @app.post("/api/tables/{table_id}/rematch", tags=["tables"])
    async def rematch(table_id: str, request: Request, x_seat_token: str | None = Header(None)) -> dict[str, Any]:
        """A new game with the same seats (made once); the caller's new token. Other people get
        theirs in a ``rematch`` message on their socket (or by calling this too)."""
        lob = lobby()
        new, seat, token = await lob.rematch(await lob.get(table_id), x_seat_token)
        return seat_answer(request, new.id, seat, token)

    @app.get("/api/tables/{table_id}/record", tags=["records"])
    async def record(table_id: str) -> dict[str, Any]:
        """The full record of a finished game (rules, seed, every action, every hand dealt)."""
        return await lobby().record(table_id)

    @app.get("/api/tables/{table_id}/replay", tags=["records"])
    async def replay(table_id: str) -> dict[str, Any]:
        """A finished game as frames, every hand after every action (the browser's replay page)."""
        record = await lobby().record(table_id)
        return {"frames": await asyncio.to_thread(replay_frames, record)}

    @app.get("/api/tables/{table_id}/review/{seat}", tags=["records"])
    async def review(table_id: str, seat: int, samples: int | None = None) -> dict[str, Any]:
        """The review of one seat's decisions in a finished game (``liverpool.analysis.review``,
        ``?samples=`` per decision, a fixed seed): each decision's verdict, the best action found
        and the points lost, and the summary. Computed in a worker process the first time, then
        read from the store. 409 before the game's end, 404 for an unknown table or seat."""
        return await lobby().review(table_id, seat, samples)

    @app.get("/api/players/{name}/history", tags=["records"])
    async def history(name: str, limit: int = 50) -> dict[str, Any]:
        """The finished games a display name played, newest first, with the results."""
        games = await lobby().store.history(name, max(1, min(limit, 500)))
        return {"name": name, "games": games}

    # ------------------------------------------------------------------ play
    @app.websocket("/ws/tables/{table_id}")
    async def play(websocket: WebSocket, table_id: str, token: str | None = None) -> None:
        origin = websocket.headers.get("origin")
        await websocket.accept()

        async def refuse(code: str, reason: str, close_code: int) -> None:
            await websocket.send_json({"type": "error", "code": code, "reason": reason})
            await websocket.close(code=close_code, reason=reason[:120])

        if not origin_allowed(origin, websocket.headers.get("host"), settings.allowed_origins):
            await refuse("bad_origin", f"origin {origin} is not allowed", 4403)
            return
        lob = state.get("lobby")
        table = None
        if lob is not None:
            with contextlib.suppress(LobbyError):
                table = await lob.get(table_id)  # a finished table out of memory comes back from the store
        if table is None:
            await refuse("no_table", f"no table {table_id!r}", 4404)
            return
        seat = table.seat_for_token(token)
        if seat is None:
            await refuse("bad_token", "a seat token of this table is needed (?token=...)", 4401)
            return
        await table.serve(websocket, seat)

    # ------------------------------------------------------------------ the browser client
    static = settings.static_dir or default_static_dir()
    if (static / "index.html").is_file():
        app.mount("/", StaticFiles(directory=static, html=True), name="static")
    else:

        @app.get("/", include_in_schema=False)
        async def fallback() -> HTMLResponse:
            return HTMLResponse(_FALLBACK_PAGE)

    app.add_middleware(_GuardMiddleware, settings=settings, state=state)
    return app


class _GuardMiddleware(_Guard):
    def __init__(self, app: ASGIApp, settings: Settings, state: dict[str, Lobby]) -> None:
        super().__init__(app, settings, lambda: state.get("lobby"))
