"""The OpenAPI ``responses`` every route of the server declares: each error status it answers,
all with the one error model the server sends (``{"detail": "..."}``, ``protocol.ErrorAnswer``)."""

from __future__ import annotations

from typing import Any

from .protocol import MAX_MESSAGE_BYTES, ErrorAnswer

__all__ = ["STATUS_WHY", "errors"]

STATUS_WHY = {
    400: "the body is not JSON",
    403: "no or wrong seat token (header X-Seat-Token), or a browser origin not allowed",
    401: "not logged in, or a wrong name or password (docs/players.md)",
    404: "no such table (or seat), or no such player page",
    409: "the table is full, already started, or its game not over; or the name is already reserved",
    413: f"a request body over {MAX_MESSAGE_BYTES} bytes",
    422: "a bad request or rule option (the detail names it)",
    429: "too many requests from this address, or too many tables waiting for players",
    503: "the server is starting",
}


def errors(method: str, *codes: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of a route: every error status it answers besides 200, each
    with the one error model the server sends (``{"detail": "..."}``, :class:`ErrorAnswer`)."""
    every = {429, 503} | ({400, 403, 413, 422} if method == "post" else set())
    return {code: {"model": ErrorAnswer, "description": STATUS_WHY[code]} for code in sorted(every | set(codes))}
