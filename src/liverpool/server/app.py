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
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, MutableMapping, Sequence
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Header, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from starlette.routing import BaseRoute

from ..bots import names as bot_names
from ..rules import PRESETS, options_json
from . import logs, spectate
from .accounts import CsrfMiddleware, check_seat_name
from .accounts import router as accounts_router
from .config import Settings, default_static_dir
from .lobby import Lobby, option_fields, rules_for
from .openapi import errors
from .players import refuse_private
from .players import router as players_router
from .protocol import (
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    CreateTable,
    JoinTable,
    ProtocolError,
    QuickPlay,
    RulesCheck,
    SeatSpec,
    parse_auth_message,
    validation_detail,
)
from .store import Store, StoreLocked, async_url
from .table import LobbyError

__all__ = ["WORKER_SETTINGS", "create_app", "worker_app"]

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


def _api_routes(routes: Sequence[BaseRoute]) -> Iterator[APIRoute]:
    """The API routes among ``routes``, also those of included routers (newer FastAPI keeps an
    included router as one entry whose ``original_router`` holds its routes)."""
    for route in routes:
        if isinstance(route, APIRoute):
            yield route
        inner = getattr(route, "original_router", None)
        if inner is not None:
            yield from _api_routes(inner.routes)


def _address(scope: Scope) -> str:
    """The client's address (behind a trusted proxy, the one it forwarded: uvicorn's
    ``--forwarded-allow-ips`` rewrites the scope's client)."""
    client = scope.get("client")
    return str(client[0]) if client else "?"


class _Guard:
    """ASGI middleware: refuse lobby requests from other origins, bodies over 64 KiB, floods."""

    def __init__(self, app: ASGIApp, settings: Settings, lobby: Callable[[], Lobby | None]) -> None:
        self.app = app
        self.settings = settings
        self.lobby = lobby

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") == "OPTIONS":
            await self.app(scope, receive, send)
            return
        if scope.get("method") in ("GET", "HEAD"):
            path = str(scope.get("path", ""))
            lobby = self.lobby()
            if path.startswith("/api/") and lobby is not None:
                heavy = path.endswith(("/record", "/replay")) or "/review/" in path
                if not lobby.allow_request(_address(scope), "GET", heavy):
                    await JSONResponse({"detail": "too many requests: slow down"}, status_code=429)(
                        scope, receive, send
                    )
                    return
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
        if lobby is not None and not lobby.allow_request(_address(scope)):
            await JSONResponse({"detail": "too many requests: slow down"}, status_code=429)(scope, receive, send)
            return
        # the whole body is read here, counted in bytes whatever its framing (a Content-Length,
        # or chunks with none), and handed to the app only when it is within the limit
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body = message.get("body", b"")
            seen += len(body)
            if seen > MAX_MESSAGE_BYTES:
                await JSONResponse({"detail": f"request body over {MAX_MESSAGE_BYTES} bytes"}, status_code=413)(
                    scope, receive, send
                )
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        whole = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": whole, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The server's ASGI application; the store opens (and migrates) on startup, and the
    unfinished tables are rebuilt from it."""
    settings = settings or Settings()
    state: dict[str, Lobby] = {}

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        logs.install()  # after uvicorn configured its loggers: no secret in any log line
        shared = settings.shared and async_url(settings.database).startswith("postgresql")
        store = Store(settings.database, settings.synchronous, shared=shared, migrate=settings.migrate)
        try:
            await store.open()
        except StoreLocked as exc:
            log.error("%s", exc)
            raise
        lobby = Lobby(settings, store)
        bus = None
        if shared:  # one of several workers on this store (server/bus.py)
            from .bus import Bus

            bus = lobby.bus = Bus(lobby, store)
            await bus.open()
            log.info("worker %s of a shared store", bus.worker)
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
            if bus is not None:
                await bus.close()
            await store.close()
            state.pop("lobby", None)

    app = FastAPI(
        title="Liverpool",
        version=str(PROTOCOL_VERSION),
        summary="The lobby of a Liverpool Rummy server: tables, seats, records. Play is over the WebSocket "
        "/ws/tables/{table_id}, whose first message is the seat's token (docs/protocol.md).",
        lifespan=lifespan,
    )
    app.state.settings = settings

    def openapi() -> dict[str, Any]:
        """FastAPI's document without the 422 it adds to every route with parameters (with
        its own model): each route lists the statuses it answers, errors with ErrorAnswer."""
        if app.openapi_schema is None:
            doc = get_openapi(title=app.title, version=app.version, summary=app.summary, routes=app.routes)
            for item in doc.get("paths", {}).values():
                for op in item.values():
                    answer = op.get("responses", {}).get("422", {})
                    ref = answer.get("content", {}).get("application/json", {}).get("schema", {}).get("$ref", "")
                    if ref.endswith("/HTTPValidationError"):
                        del op["responses"]["422"]
            schemas = doc.get("components", {}).get("schemas", {})
            schemas.pop("HTTPValidationError", None)
            schemas.pop("ValidationError", None)
            app.openapi_schema = doc
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]

    def lobby() -> Lobby:
        found = state.get("lobby")
        if found is None:
            raise LobbyError(503, "the server is starting")
        return found

    app.state.lobby = lobby

    @app.exception_handler(LobbyError)
    async def _lobby_error(_request: Request, exc: LobbyError) -> JSONResponse:
        return JSONResponse({"detail": exc.detail}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        # one error model for every error: {"detail": "a reason"}, here the first bad field named
        return JSONResponse({"detail": validation_detail(exc.errors())}, status_code=422)

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
    @app.get("/api/presets", tags=["rules"], responses=errors("get", *()))
    async def presets() -> dict[str, Any]:
        """The presets and, for each, every rule option with its value, type, choices and rule."""
        return {"presets": list(PRESETS), "options": {name: option_fields(name) for name in PRESETS}}

    @app.get("/api/options", tags=["rules"], responses=errors("get"))
    async def options() -> dict[str, Any]:
        """Every rule option as the engine declares it (rules.OPTIONS): its rules, help, allowed
        values and each preset's default."""
        return options_json()

    @app.post("/api/rules/check", tags=["rules"], responses=errors("post", *(422,)))
    async def rules_check(body: RulesCheck) -> dict[str, Any]:
        """Validate a preset and options: the rules in effect in plain words, or 422 naming the option."""
        try:
            rules = rules_for(body.preset, body.options, body.players)
        except ValueError as exc:
            raise LobbyError(422, str(exc)) from None
        return {"ok": True, "describe": [list(pair) for pair in rules.describe(body.players)]}

    # ------------------------------------------------------------------ tables
    @app.post("/api/tables", tags=["tables"], responses=errors("post", *(422,)))
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        """A new table; the answer holds the creator's seat token (keep it secret) and the invite link."""
        await check_seat_name(request, body.name)
        table, token = await lobby().create(body, address=request.client.host if request.client else None)
        return seat_answer(request, table.id, 0, token)

    @app.post("/api/quickplay", tags=["tables"], responses=errors("post", *(422,)))
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
            rated=body.rated,
        )
        await check_seat_name(request, body.name)
        table, token = await lobby().create(spec, waits=False)
        await table.start(token)
        return seat_answer(request, table.id, 0, token)

    @app.get("/api/tables/{table_id}", tags=["tables"], responses=errors("get", *(404,)))
    async def table_info(table_id: str) -> dict[str, Any]:
        """The table: rules, seats (names, bots, who is connected), status."""
        return (await lobby().get(table_id)).info()

    @app.post("/api/tables/{table_id}/join", tags=["tables"], responses=errors("post", *(404, 409, 422)))
    async def join(table_id: str, body: JoinTable, request: Request) -> dict[str, Any]:
        """Take the first free person's seat: its token (409 when the table is full or started)."""
        await check_seat_name(request, body.name)
        seat, token = await (await lobby().get(table_id)).join(body.name)
        return seat_answer(request, table_id, seat, token)

    @app.post("/api/tables/{table_id}/start", tags=["tables"], responses=errors("post", *(403, 404, 409, 422)))
    async def start(table_id: str, x_seat_token: str | None = Header(None)) -> dict[str, Any]:
        """Start the game (the creator's token); free person's seats are given to bots."""
        table = await lobby().get(table_id)
        await table.start(x_seat_token)
        return table.info()

    @app.post("/api/tables/{table_id}/rematch", tags=["tables"], responses=errors("post", *(403, 404, 409, 422)))
    async def rematch(table_id: str, request: Request, x_seat_token: str | None = Header(None)) -> dict[str, Any]:
        """A new game with the same seats (made once); the caller's new token. Other people get
        theirs in a ``rematch`` message on their socket (or by calling this too)."""
        lob = lobby()
        new, seat, token = await lob.rematch(await lob.get(table_id), x_seat_token)
        return seat_answer(request, new.id, seat, token)

    @app.get("/api/tables/{table_id}/record", tags=["records"], responses=errors("get", *(404, 409)))
    async def record(table_id: str) -> Response:
        """The full record of a finished game (rules, seed, every action, every hand dealt)."""
        return Response(await lobby().finished_json(table_id, "record"), media_type="application/json")

    @app.get("/api/tables/{table_id}/replay", tags=["records"], responses=errors("get", *(404, 409)))
    async def replay(table_id: str) -> Response:
        """A finished game as frames, every hand after every action (the browser's replay page);
        made once in a worker process, then sent as kept."""
        return Response(await lobby().finished_json(table_id, "replay"), media_type="application/json")

    @app.get("/api/tables/{table_id}/review/{seat}", tags=["records"], responses=errors("get", *(404, 409, 422)))
    async def review(table_id: str, seat: int, samples: int | None = None) -> Response:
        """The review of one seat's decisions in a finished game (``liverpool.analysis.review``,
        ``?samples=`` per decision, a fixed seed): each decision's verdict, the best action found
        and the points lost, and the summary. Computed in a worker process the first time, then
        read from the store. 409 before the game's end, 404 for an unknown table or seat; 503 when
        the server stops before the review is made."""
        try:
            body = await lobby().review_json(table_id, seat, samples)
        except asyncio.CancelledError:  # uvicorn's graceful shutdown timed out: the server is stopping
            return JSONResponse({"detail": "the server is stopping: ask again later"}, status_code=503)
        return Response(body, media_type="application/json")

    @app.get("/api/players/{name}/history", tags=["records"], responses=errors("get", *(404, 422)))
    async def history(name: str, request: Request, limit: int = 50) -> dict[str, Any]:
        """The finished games a display name played, newest first, with the results (404 for
        the reserved name of a private player, to anyone else)."""
        await refuse_private(request, name)
        games = await lobby().store.history(name, max(1, min(limit, 500)))
        return {"name": name, "games": games}

    app.include_router(accounts_router())  # reserved names, sessions (issue 26)
    app.include_router(players_router())  # players' pages, leaderboard

    @app.api_route(
        "/api/{rest:path}",
        methods=["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
        include_in_schema=False,
    )
    async def api_fallback(request: Request, rest: str) -> JSONResponse:
        """Any other method or path under /api: 405 with the route's methods, or 404 (not the
        browser client's files, mounted at /, answering for the API)."""
        path = request.url.path
        allowed: set[str] = set()
        for route in _api_routes(app.router.routes):
            if route.include_in_schema and route.path_regex.match(path):
                allowed |= route.methods or set()
        if allowed:
            return JSONResponse(
                {"detail": f"{request.method} is not a method of {path}"},
                status_code=405,
                headers={"Allow": ", ".join(sorted(allowed))},
            )
        raise LobbyError(404, f"no API route {path}")

    # ------------------------------------------------------------------ play
    @app.websocket("/ws/tables/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        origin = websocket.headers.get("origin")
        await websocket.accept()

        async def refuse(code: str, reason: str, close_code: int) -> None:
            await websocket.send_json({"type": "error", "code": code, "reason": reason})
            await websocket.close(code=close_code, reason=reason[:120])

        if "token" in websocket.query_params:
            # the old form (protocol 2): a token in a URL ends up in access logs (uvicorn's line
            # for this socket is redacted by server/logs.py); refused, so no client keeps using it
            await refuse(
                "bad_token",
                'the seat token goes in the first message, {"type": "auth", "token": ...}, never in the URL',
                4401,
            )
            return
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
        try:
            first = await asyncio.wait_for(websocket.receive(), settings.auth_timeout)
        except TimeoutError:
            await refuse("bad_token", f"no auth message in {settings.auth_timeout:g} s", 4401)
            return
        if first["type"] == "websocket.disconnect":
            return
        try:
            auth = parse_auth_message(first.get("text") or first.get("bytes") or b"")
        except ProtocolError as exc:
            await refuse(exc.code, exc.reason, 4401)
            return
        seat = table.seat_for_token(auth.token)
        if seat is None and table.bus is not None:
            await table.catch_up()  # a token another worker handed out: the seats are in the store
            seat = table.seat_for_token(auth.token)
        if seat is None:
            await refuse("bad_token", "not a seat token of this table", 4401)
            return
        await table.serve(websocket, seat)

    @app.websocket("/ws/tables/{table_id}/watch")
    async def watch(websocket: WebSocket, table_id: str) -> None:
        """A spectator's socket (issue 24, server/spectate.py): the public view only, no token."""
        await websocket.accept()

        async def refuse(code: str, reason: str, close_code: int) -> None:
            await websocket.send_json({"type": "error", "code": code, "reason": reason})
            await websocket.close(code=close_code, reason=reason[:120])

        if not origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host"), settings.allowed_origins):
            await refuse("bad_origin", "this origin is not allowed", 4403)
            return
        lob = state.get("lobby")
        table = None
        if lob is not None:
            with contextlib.suppress(LobbyError):
                table = await lob.get(table_id)
        if table is None:
            await refuse("no_table", f"no table {table_id!r}", 4404)
            return
        if not table.spectators:
            await refuse("no_watching", "this table cannot be watched", 4403)
            return
        await spectate.serve(table, websocket)

    # ------------------------------------------------------------------ the browser client
    static = settings.static_dir or default_static_dir()
    if (static / "index.html").is_file():
        app.mount("/", StaticFiles(directory=static, html=True), name="static")
    else:

        @app.get("/", include_in_schema=False)
        async def fallback() -> HTMLResponse:
            return HTMLResponse(_FALLBACK_PAGE)

    app.add_middleware(CsrfMiddleware)
    app.add_middleware(_GuardMiddleware, settings=settings, state=state)
    return app


WORKER_SETTINGS = "LIVERPOOL_WORKER_SETTINGS"
"""The environment variable holding the settings of ``liverpool serve --workers N`` (JSON)."""


def worker_app() -> FastAPI:
    """The app of one of the workers of ``liverpool serve --workers N`` (uvicorn's factory): the
    settings of the command, one worker of a shared store, the migrations already run."""
    import json
    import os

    options = json.loads(os.environ[WORKER_SETTINGS])
    options["allowed_origins"] = tuple(options.get("allowed_origins", ()))
    return create_app(Settings(**options, shared=True, migrate=False))


class _GuardMiddleware(_Guard):
    def __init__(self, app: ASGIApp, settings: Settings, state: dict[str, Lobby]) -> None:
        super().__init__(app, settings, lambda: state.get("lobby"))
