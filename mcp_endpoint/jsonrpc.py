"""JSON-RPC 2.0 envelopes: parsing request bodies, classifying messages, building errors."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from emdash import json_input

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
SERVER_ERROR = -32000


class ParseError(Exception):
    """The body is not JSON we accept (not UTF-8, NaN/Infinity, too deep...)."""


class RpcError(Exception):
    """A JSON-RPC error for one request; ``data`` is included when given."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data


def parse(body: bytes) -> Any:
    try:
        return json_input.loads(body)
    except json_input.BadJSON as exc:
        raise ParseError(f"Parse error: {exc.reason}") from None


@dataclass(frozen=True)
class Message:
    kind: str  # "request", "notification" or "response"
    id: Any = None
    method: str = ""
    params: dict[str, Any] | None = None


def valid_id(value: Any) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def classify(raw: Any) -> Message:
    """Turn one decoded message into a Message, or raise RpcError(-32600) with the best id we can tell."""
    if not isinstance(raw, dict):
        raise RpcError(INVALID_REQUEST, "Invalid Request: expected a JSON-RPC 2.0 object")
    if raw.get("jsonrpc") != "2.0":
        raise RpcError(INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"')
    if "method" not in raw:
        if ("result" in raw) != ("error" in raw) and "id" in raw:
            return Message("response", id=raw.get("id"))
        raise RpcError(INVALID_REQUEST, "Invalid Request: no method")
    method = raw["method"]
    if not isinstance(method, str) or not method:
        raise RpcError(INVALID_REQUEST, 'Invalid Request: "method" must be a string')
    if "id" in raw and not valid_id(raw["id"]):
        raise RpcError(INVALID_REQUEST, 'Invalid Request: "id" must be a string or an integer')
    params = raw.get("params")
    kind = "request" if "id" in raw else "notification"
    if params is not None and not isinstance(params, dict):
        if kind == "notification":
            return Message(kind, method=method)  # notifications never get a reply, not even an error
        raise RpcError(INVALID_PARAMS, 'Invalid params: "params" must be an object')
    return Message(kind, id=raw.get("id"), method=method, params=params or {})


def request_id(raw: Any) -> Any:
    """The id to answer an invalid message with: its own if well-formed, else null."""
    if isinstance(raw, dict) and valid_id(raw.get("id")):
        return raw["id"]
    return None


def result(msg_id: Any, value: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": msg_id, "result": value}


def error(msg_id: Any, code: int, message: str, data: Any = None) -> dict[str, Any]:
    body: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        body["data"] = data
    return {"jsonrpc": "2.0", "id": msg_id, "error": body}


def dumps(value: Any) -> bytes:
    return orjson.dumps(value)
