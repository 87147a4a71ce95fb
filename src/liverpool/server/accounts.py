"""Reserved names: accounts with a password, sessions, CSRF, and the hook that keeps a reserved
name from anyone else at a table (issue 26, ``docs/players.md``).

Guests play as before: a seat's name is whatever they type. A player may reserve a name
(``POST /api/accounts``) with a password, hashed with Argon2id (``argon2-cffi``); the name is then
theirs at every table made after it, compared case-insensitively (:func:`name_key`).

A session is a random token: the browser keeps it in an HttpOnly cookie (``Secure`` when served
over HTTPS, ``SameSite=Lax``), the terminal in its config folder, sent as
``Authorization: Bearer``. The store keeps only its SHA-256. A request from a page that changes
anything while the cookie is present must carry ``X-CSRF-Token``: a value derived from the
session (:func:`csrf_for`), which the page reads from the ``liverpool_csrf`` cookie (not HttpOnly)
or from ``GET /api/me``; another site can read neither, so it cannot forge one
(:class:`CsrfMiddleware`). A bearer session is never sent by a browser on its own, so it needs none.

Logging in always makes a new session (a session fixed before is never kept) and deletes the one
the request came with. Failed logins are counted in the store per name and per address: past
:data:`NAME_FAILURES` (or :data:`ADDRESS_FAILURES`) in :data:`FAILURE_WINDOW` seconds, logins are
refused with 429 before any password is checked. An unknown name costs the same Argon2
verification as a known one and gets the same answer, so neither the time nor the message tells
whether a name is reserved. Passwords are never stored, logged or returned; request bodies with
a password are read by this module only, and its errors never repeat the input.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import hmac
import json
import logging
import re
import secrets
import time
import unicodedata
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any, TypeVar

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from fastapi import APIRouter, Request, Response
from sqlalchemy.ext.asyncio import AsyncConnection

from .openapi import errors
from .store import Store, metadata
from .table import LobbyError

__all__ = [
    "ADDRESS_FAILURES",
    "COOKIE",
    "CSRF_COOKIE",
    "FAILURE_WINDOW",
    "NAME_FAILURES",
    "Account",
    "CsrfMiddleware",
    "account_for_request",
    "accounts",
    "check_seat_name",
    "csrf_for",
    "login_failures",
    "name_key",
    "router",
    "sessions",
]

log = logging.getLogger("liverpool.server.accounts")

COOKIE = "liverpool_session"
CSRF_COOKIE = "liverpool_csrf"
CSRF_HEADER = "x-csrf-token"
SESSION_DAYS = 30
NAME_FAILURES = 5
"""Failed logins for one name within :data:`FAILURE_WINDOW` before its logins are refused (429)."""
ADDRESS_FAILURES = 20
"""Failed logins from one address within :data:`FAILURE_WINDOW` before its logins are refused."""
FAILURE_WINDOW = 15 * 60.0
MIN_PASSWORD = 8
MAX_PASSWORD = 256
MAX_NAME = 40
KEPT_NAMES = frozenset({"player", "you", "guest"})
"""Names nobody may reserve: the defaults a guest gets without typing one (the lobby's "Player",
the terminal's "You"; a seat with no name shows as "seat N")."""

accounts = sa.Table(
    "accounts",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("name_key", sa.String(64), nullable=False, unique=True),
    sa.Column("password_hash", sa.String(255), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("private", sa.Boolean, nullable=False, server_default=sa.false()),
)
"""Reserved names (migration 0005_i26_players): the name as written, its key (casefolded), the
Argon2 hash of the password, when it was reserved, and whether the player's page is private."""

sessions = sa.Table(
    "sessions",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("client", sa.String(16), nullable=False),
    sa.Index("ix_sessions_account", "account_id"),
)
"""Open sessions: the SHA-256 of the token (never the token), whose, since when, browser or terminal."""

login_failures = sa.Table(
    "login_failures",
    metadata,
    sa.Column("key", sa.String(128), primary_key=True),
    sa.Column("since", sa.Float, nullable=False),
    sa.Column("count", sa.Integer, nullable=False),
)
"""Failed logins by ``name:KEY`` and ``addr:ADDRESS`` since the start of the current window."""

T = TypeVar("T")
_hasher = PasswordHasher()


@functools.cache
def _dummy_hash() -> str:
    """A hash verified against for unknown names: the same cost as a known one."""
    return _hasher.hash(secrets.token_urlsafe(16))


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    key: str
    created_at: float
    private: bool


def name_key(name: str) -> str:
    """The key a reserved name is known by: NFKC, casefolded, inner spaces collapsed.

    >>> name_key("  Ana  Lúcia ") == name_key("ana lúcia")
    True
    """
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def hash_session(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def csrf_for(token: str) -> str:
    """The CSRF token of a session (derived from it: only who holds the session can know it)."""
    return hashlib.sha256(b"liverpool-csrf:" + token.encode()).hexdigest()[:32]


async def _run(store: Store, job: Callable[[AsyncConnection], Awaitable[T]]) -> T:
    """A job on the store's writer connection (its queue keeps one writer, as the store's own reads do)."""
    result: T = await store._run(job)
    return result


def _store(request: Request) -> Store:
    store: Store = request.app.state.lobby().store
    return store


# ---------------------------------------------------------------------------------------- sessions
def request_session(request: Request) -> tuple[str | None, bool]:
    """The session token a request carries, and whether it came as a bearer header."""
    auth = request.headers.get("authorization", "")
    if auth[:7].lower() == "bearer " and auth[7:].strip():
        return auth[7:].strip(), True
    return request.cookies.get(COOKIE) or None, False


async def account_for_token(store: Store, token: str | None) -> Account | None:
    if not token:
        return None
    digest = hash_session(token)
    oldest = time.time() - SESSION_DAYS * 86400

    async def job(c: AsyncConnection) -> Account | None:
        q = (
            sa.select(accounts)
            .join(sessions, sessions.c.account_id == accounts.c.id)
            .where(sessions.c.token_hash == digest, sessions.c.created_at > oldest)
        )
        row = (await c.execute(q)).mappings().first()
        return _account(row) if row is not None else None

    return await _run(store, job)


def _account(row: Any) -> Account:
    return Account(
        int(row["id"]), str(row["name"]), str(row["name_key"]), float(row["created_at"]), bool(row["private"])
    )


async def account_for_request(request: Request) -> Account | None:
    """The account whose session the request carries (cookie or bearer), or None (a guest)."""
    token, _bearer = request_session(request)
    return await account_for_token(_store(request), token)


async def account_by_name(store: Store, name: str) -> Account | None:
    key = name_key(name)

    async def job(c: AsyncConnection) -> Account | None:
        row = (await c.execute(sa.select(accounts).where(accounts.c.name_key == key))).mappings().first()
        return _account(row) if row is not None else None

    return await _run(store, job)


async def check_seat_name(request: Request, name: str) -> None:
    """The hook where a seat is taken (a new table, quick play, a join): 403 when ``name`` is
    reserved by someone else than the request's account."""
    owner = await account_by_name(_store(request), name)
    if owner is None:
        return
    me = await account_for_request(request)
    if me is None or me.id != owner.id:
        raise LobbyError(403, f"the name {name.strip()!r} is reserved: log in to play as it, or choose another")


async def _new_session(store: Store, account_id: int, client: str, replace: str | None) -> str:
    token = secrets.token_urlsafe(32)
    now = time.time()

    async def job(c: AsyncConnection) -> None:
        if replace:
            await c.execute(sessions.delete().where(sessions.c.token_hash == hash_session(replace)))
        await c.execute(
            sessions.insert().values(
                token_hash=hash_session(token), account_id=account_id, created_at=now, client=client
            )
        )

    await _run(store, job)
    return token


def _secure(request: Request) -> bool:
    settings = request.app.state.settings
    public = getattr(settings, "public_url", None) or ""
    return request.url.scheme == "https" or public.startswith("https:")


def _set_cookies(request: Request, response: Response, token: str) -> None:
    secure = _secure(request)
    age = SESSION_DAYS * 86400
    response.set_cookie(COOKIE, token, max_age=age, path="/", httponly=True, secure=secure, samesite="lax")
    response.set_cookie(
        CSRF_COOKIE, csrf_for(token), max_age=age, path="/", httponly=False, secure=secure, samesite="lax"
    )


def _clear_cookies(request: Request, response: Response) -> None:
    secure = _secure(request)
    response.delete_cookie(COOKIE, path="/", httponly=True, secure=secure, samesite="lax")
    response.delete_cookie(CSRF_COOKIE, path="/", secure=secure, samesite="lax")


# ---------------------------------------------------------------------------------------- bodies
async def _body(request: Request) -> dict[str, Any]:
    """The JSON object of a request; errors never repeat what was sent (it may hold a password)."""
    try:
        data = json.loads(await request.body() or b"{}")
    except ValueError:
        raise LobbyError(422, "the body must be a JSON object") from None
    if not isinstance(data, dict):
        raise LobbyError(422, "the body must be a JSON object")
    return data


def _text(data: dict[str, Any], field: str) -> str:
    value = data.get(field)
    if not isinstance(value, str):
        raise LobbyError(422, f"{field} must be a string")
    return value


def _password(data: dict[str, Any], field: str = "password") -> str:
    value = _text(data, field)
    if not MIN_PASSWORD <= len(value) <= MAX_PASSWORD:
        raise LobbyError(422, f"{field}: a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    return value


def _name(data: dict[str, Any]) -> str:
    name = " ".join(_text(data, "name").split())
    if not 1 <= len(name) <= MAX_NAME or not name_key(name):
        raise LobbyError(422, f"name: 1 to {MAX_NAME} characters")
    if name_key(name).endswith(" bot"):
        raise LobbyError(422, "name: a name ending in ' bot' is kept for the bots")
    if name_key(name) in KEPT_NAMES or re.fullmatch(r"seat \d+", name_key(name)):
        raise LobbyError(422, f"name: {name!r} is what guests are called when they type nothing; choose another")
    return name


async def _verify(password_hash: str, password: str) -> bool:
    def check() -> bool:
        try:
            return _hasher.verify(password_hash, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    return await asyncio.to_thread(check)


async def _hash(password: str) -> str:
    return await asyncio.to_thread(_hasher.hash, password)


# ---------------------------------------------------------------------------------------- rate limit
def _address(request: Request) -> str:
    return request.client.host if request.client else "?"


async def _limited(store: Store, keys: list[tuple[str, int]]) -> bool:
    now = time.time()

    async def job(c: AsyncConnection) -> bool:
        q = sa.select(login_failures).where(login_failures.c.key.in_([k for k, _ in keys]))
        rows = {r["key"]: r for r in (await c.execute(q)).mappings()}
        return any(
            (row := rows.get(k)) is not None and now - row["since"] < FAILURE_WINDOW and row["count"] >= limit
            for k, limit in keys
        )

    return await _run(store, job)


async def _count_failure(store: Store, keys: list[str]) -> None:
    now = time.time()

    async def job(c: AsyncConnection) -> None:
        for key in keys:
            row = (await c.execute(sa.select(login_failures).where(login_failures.c.key == key))).mappings().first()
            if row is None:
                await c.execute(login_failures.insert().values(key=key, since=now, count=1))
            elif now - row["since"] >= FAILURE_WINDOW:
                await c.execute(login_failures.update().where(login_failures.c.key == key).values(since=now, count=1))
            else:
                await c.execute(
                    login_failures.update().where(login_failures.c.key == key).values(count=login_failures.c.count + 1)
                )

    await _run(store, job)


async def _forget_failures(store: Store, key: str) -> None:
    async def job(c: AsyncConnection) -> None:
        await c.execute(login_failures.delete().where(login_failures.c.key == key))

    await _run(store, job)


# ---------------------------------------------------------------------------------------- routes
def _me(account: Account | None, token: str | None, bearer: bool) -> dict[str, Any]:
    if account is None:
        return {"name": None}
    answer: dict[str, Any] = {"name": account.name, "private": account.private}
    if token is not None and not bearer:
        answer["csrf"] = csrf_for(token)
    return answer


async def _require(request: Request) -> tuple[Account, str, bool]:
    token, bearer = request_session(request)
    account = await account_for_token(_store(request), token)
    if account is None or token is None:
        raise LobbyError(401, "log in first")
    return account, token, bearer


def router() -> APIRouter:
    """The accounts' routes (``/api/accounts/...``, ``/api/me``)."""
    api = APIRouter(tags=["accounts"])

    @api.get("/api/me", responses=errors("get", 401))
    async def me(request: Request) -> dict[str, Any]:
        """Who this request is logged in as (``{"name": null}`` for a guest), and the page's CSRF token."""
        token, bearer = request_session(request)
        return _me(await account_for_token(_store(request), token), token, bearer)

    @api.post("/api/accounts", status_code=201, responses=errors("post", 409))
    async def reserve(request: Request, response: Response) -> dict[str, Any]:
        """Reserve a name: body ``{"name", "password"}`` (8-256 characters); logs in (a new session).
        409 when the name is already reserved."""
        data = await _body(request)
        name, password = _name(data), _password(data)
        store = _store(request)
        digest = await _hash(password)
        key = name_key(name)

        async def job(c: AsyncConnection) -> int | None:
            found = (await c.execute(sa.select(accounts.c.id).where(accounts.c.name_key == key))).first()
            if found is not None:
                return None
            result = await c.execute(
                accounts.insert().values(name=name, name_key=key, password_hash=digest, created_at=time.time())
            )
            pk = result.inserted_primary_key
            assert pk is not None
            return int(pk[0])

        try:
            account_id = await _run(store, job)
        except sa.exc.IntegrityError:  # reserved at the same moment by another request
            account_id = None
        if account_id is None:
            raise LobbyError(409, f"the name {name!r} is already reserved")
        return await _log_in(request, response, store, account_id, name, data)

    @api.post("/api/accounts/login", responses=errors("post", 401))
    async def login(request: Request, response: Response) -> dict[str, Any]:
        """Log in: body ``{"name", "password"}``, and ``"bearer": true`` for a client that is not a
        browser (the session comes in the answer instead of a cookie). 401 "wrong name or
        password" for an unknown name and a wrong password alike; 429 after too many failures."""
        data = await _body(request)
        name, password = _text(data, "name"), _text(data, "password")
        store = _store(request)
        key = name_key(name)[:100]
        keys = [f"name:{key}", f"addr:{_address(request)}"]
        if await _limited(store, [(keys[0], NAME_FAILURES), (keys[1], ADDRESS_FAILURES)]):
            raise LobbyError(429, "too many failed logins: wait a few minutes")

        async def job(c: AsyncConnection) -> Any:
            return (await c.execute(sa.select(accounts).where(accounts.c.name_key == key))).mappings().first()

        row = await _run(store, job)
        fits = len(password) <= MAX_PASSWORD  # a longer one is wrong, after the same work
        ok = await _verify(row["password_hash"] if row is not None else _dummy_hash(), password[:MAX_PASSWORD])
        if row is None or not ok or not fits:
            await _count_failure(store, keys)
            log.info("failed login from %s", _address(request))
            raise LobbyError(401, "wrong name or password")
        await _forget_failures(store, keys[0])
        return await _log_in(request, response, store, int(row["id"]), str(row["name"]), data)

    @api.post("/api/accounts/logout", responses=errors("post"))
    async def logout(request: Request, response: Response) -> dict[str, Any]:
        """End this session."""
        token, _bearer = request_session(request)
        if token:

            async def job(c: AsyncConnection) -> None:
                await c.execute(sessions.delete().where(sessions.c.token_hash == hash_session(token)))

            await _run(_store(request), job)
        _clear_cookies(request, response)
        return {"name": None}

    @api.post("/api/accounts/logout-all", responses=errors("post", 401))
    async def logout_all(request: Request, response: Response) -> dict[str, Any]:
        """End every session of this account (every browser and terminal)."""
        account, _token, _bearer = await _require(request)
        await _end_sessions(_store(request), account.id, keep=None)
        _clear_cookies(request, response)
        return {"name": None}

    @api.post("/api/accounts/password", responses=errors("post", 401))
    async def change_password(request: Request, response: Response) -> dict[str, Any]:
        """Change the password: body ``{"password", "new_password"}``. Every other session ends;
        this one is renewed."""
        account, _token, bearer = await _require(request)
        data = await _body(request)
        old, new = _text(data, "password"), _password(data, "new_password")
        store = _store(request)

        async def current(c: AsyncConnection) -> str:
            q = sa.select(accounts.c.password_hash).where(accounts.c.id == account.id)
            return str((await c.execute(q)).scalar_one())

        if not await _verify(await _run(store, current), old[:MAX_PASSWORD]) or len(old) > MAX_PASSWORD:
            raise LobbyError(403, "the current password is wrong")
        digest = await _hash(new)

        async def job(c: AsyncConnection) -> None:
            await c.execute(accounts.update().where(accounts.c.id == account.id).values(password_hash=digest))

        await _run(store, job)
        await _end_sessions(store, account.id, keep=None)
        fresh = await _new_session(store, account.id, "terminal" if bearer else "browser", replace=None)
        answer = {"name": account.name}
        if bearer:
            return answer | {"session": fresh}
        _set_cookies(request, response, fresh)
        return answer | {"csrf": csrf_for(fresh)}

    @api.post("/api/accounts/privacy", responses=errors("post", 401))
    async def privacy(request: Request) -> dict[str, Any]:
        """Make this player's page private (``{"private": true}``) or public again."""
        account, token, bearer = await _require(request)
        data = await _body(request)
        private = data.get("private")
        if not isinstance(private, bool):
            raise LobbyError(422, "private must be true or false")

        async def job(c: AsyncConnection) -> None:
            await c.execute(accounts.update().where(accounts.c.id == account.id).values(private=private))

        await _run(_store(request), job)
        return _me(Account(account.id, account.name, account.key, account.created_at, private), token, bearer)

    return api


async def _log_in(
    request: Request, response: Response, store: Store, account_id: int, name: str, data: dict[str, Any]
) -> dict[str, Any]:
    """A new session for the account (the one the request came with, if any, is deleted: no fixation)."""
    bearer = data.get("bearer") is True
    old, _was_bearer = request_session(request)
    token = await _new_session(store, account_id, "terminal" if bearer else "browser", replace=old)
    if bearer:
        return {"name": name, "session": token}
    _set_cookies(request, response, token)
    return {"name": name, "csrf": csrf_for(token)}


async def _end_sessions(store: Store, account_id: int, keep: str | None) -> None:
    async def job(c: AsyncConnection) -> None:
        q = sessions.delete().where(sessions.c.account_id == account_id)
        if keep is not None:
            q = q.where(sessions.c.token_hash != hash_session(keep))
        await c.execute(q)

    await _run(store, job)


# ---------------------------------------------------------------------------------------- CSRF
Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_SAFE = ("GET", "HEAD", "OPTIONS")
_NO_SESSION_NEEDED = ("/api/accounts", "/api/accounts/login")
"""Reserving and logging in act as no session (and make a new one): the Origin check of the
lobby and SameSite cover them."""


def _cookie(scope: Scope, name: str) -> str | None:
    from http.cookies import CookieError, SimpleCookie

    for key, value in scope.get("headers", []):
        if key == b"cookie":
            jar: SimpleCookie = SimpleCookie()
            try:
                jar.load(value.decode("latin-1"))
            except CookieError:
                continue
            if name in jar:
                return jar[name].value
    return None


class CsrfMiddleware:
    """Refuse (403) a state-changing HTTP request carrying the session cookie without the
    session's ``X-CSRF-Token`` (requests with a bearer session or no session pass)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope.get("method") not in _SAFE and scope.get("path") not in _NO_SESSION_NEEDED:
            headers = {k: v for k, v in scope.get("headers", [])}
            bearer = headers.get(b"authorization", b"")[:7].lower() == b"bearer "
            token = None if bearer else _cookie(scope, COOKIE)
            if token:
                sent = headers.get(CSRF_HEADER.encode(), b"").decode("latin-1")
                if not hmac.compare_digest(sent, csrf_for(token)):
                    from fastapi.responses import JSONResponse

                    await JSONResponse(
                        {"detail": "missing or wrong X-CSRF-Token for this session (reload the page)"}, status_code=403
                    )(scope, receive, send)
                    return
        await self.app(scope, receive, send)
