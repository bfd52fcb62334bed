"""The 2026-07-28 request envelope: ``Mcp-Method``/``Mcp-Name`` headers and ``params._meta``, checked together.

A request of that revision repeats its method, its target name and its protocol version outside the body (for
proxies and load balancers), so the copies must agree. Failures raise RpcError; the view answers them with
HTTP 400 and the request's id.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from typing import Any

from emdash.mcp_names import NAMED_PARAM
from mcp_endpoint import versions
from mcp_endpoint.jsonrpc import INVALID_PARAMS, Message, RpcError

HEADER_MISMATCH = -32020
PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion"
CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"
CLIENT_INFO = "io.modelcontextprotocol/clientInfo"


def decode_header(value: str) -> str:
    """Header values without surrounding whitespace; non-ASCII values arrive wrapped as =?base64?...?=."""
    value = value.strip()
    if value.startswith("=?base64?") and value.endswith("?="):
        try:
            return base64.b64decode(value[9:-2], validate=True).decode()
        except (binascii.Error, UnicodeDecodeError):
            return value
    return value


def _meta(message: Message) -> Any:
    return (message.params or {}).get("_meta")


def check_version_agreement(meta_http: Mapping[str, Any], message: Message) -> None:
    """In any revision: a _meta protocol version that contradicts the MCP-Protocol-Version header is refused."""
    meta = _meta(message)
    header = meta_http.get("HTTP_MCP_PROTOCOL_VERSION")
    if header is None or not isinstance(meta, dict) or PROTOCOL_VERSION not in meta:
        return
    if meta[PROTOCOL_VERSION] != header.strip():
        raise RpcError(HEADER_MISMATCH, "MCP-Protocol-Version header does not match _meta protocolVersion")


def check_modern(meta_http: Mapping[str, Any], message: Message) -> None:
    """Every check a 2026-07-28 request must pass: headers first, then the _meta envelope."""
    header = meta_http.get("HTTP_MCP_METHOD")
    if header is None:
        raise RpcError(HEADER_MISMATCH, "Mcp-Method header is required")
    if header.strip() != message.method:
        raise RpcError(HEADER_MISMATCH, "Mcp-Method header does not match the request body's method")
    _check_name(meta_http.get("HTTP_MCP_NAME"), message)
    meta = _meta(message)
    if not isinstance(meta, dict):
        raise RpcError(INVALID_PARAMS, f"Invalid params: _meta is required in protocol version {versions.MODERN}")
    if not isinstance(meta.get(PROTOCOL_VERSION), str):
        raise RpcError(INVALID_PARAMS, f"Invalid params: _meta[{PROTOCOL_VERSION!r}] is required")
    if not isinstance(meta.get(CLIENT_CAPABILITIES), dict):
        raise RpcError(INVALID_PARAMS, f"Invalid params: _meta[{CLIENT_CAPABILITIES!r}] must be an object")
    check_version_agreement(meta_http, message)


def _check_name(header: str | None, message: Message) -> None:
    param = NAMED_PARAM.get(message.method)
    if param is None:
        return
    value = (message.params or {}).get(param)
    if header is None:
        if value is not None:
            raise RpcError(HEADER_MISMATCH, f"Mcp-Name header is required for {message.method}")
        return
    if decode_header(header) != value:
        raise RpcError(HEADER_MISMATCH, f"Mcp-Name header does not match the request body's '{param}' parameter")


def client_info(message: Message) -> tuple[str, str]:
    """The (name, version) of ``_meta``'s clientInfo; "" for what the client left out."""
    meta = _meta(message)
    info = meta.get(CLIENT_INFO) if isinstance(meta, dict) else None
    if not isinstance(info, dict):
        return "", ""
    name, version = info.get("name"), info.get("version")
    return (name if isinstance(name, str) else ""), (version[:50] if isinstance(version, str) else "")
