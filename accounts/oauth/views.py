"""OAuth entry points: token, registration, revocation, device code (JSON APIs) and the two HTML pages.

Views parse input, call one service, and shape the RFC answer; the logic lives in the sibling modules.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlsplit

import orjson
from django.apps import apps
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt

from accounts.auth import resource_url, site_origin
from accounts.oauth import authorize as authz
from accounts.oauth import clients, codes, device, grants, metadata, ratelimit, tokens
from accounts.oauth.errors import OAuthError, RateLimited, invalid_request
from emdash.actor import Actor
from emdash.edge import limits
from emdash.errors import EmDashError, ValidationError
from emdash.http import api_view, json_object
from emdash.permissions import scopes_for_role
from emdash.scopes import Scope, describe
from emdash.text import PROBLEM, bad_text_message, find_bad_text, is_bad_text_db_error
from emdash.tracing import log_exception

log = logging.getLogger("emdash.oauth")
MAX_BODY = 64 * 1024


def oauth_json(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> HttpResponse:
    response = HttpResponse(orjson.dumps(body), status=status, content_type="application/json")
    response["Cache-Control"] = "no-store"
    response["Pragma"] = "no-cache"
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def params(request: HttpRequest) -> dict[str, str]:
    """Form-encoded (the RFCs) or JSON body parameters; repeated or non-string values are invalid_request."""
    if len(request.body) > MAX_BODY:
        raise OAuthError("invalid_request", f"The request body is too large (limit {MAX_BODY} bytes)", 413)
    content_type = request.META.get("CONTENT_TYPE", "").split(";")[0].strip().lower()
    if content_type == "application/json":
        body = json_object(
            request.body,
            invalid_request,
            not_json="The body is not valid JSON",
            not_object="The body must be a JSON object",
        )
        _refuse_bad_text(body)
        return _strings(body)
    result: dict[str, str] = {}
    for name, values in request.POST.lists():
        if len(values) > 1:
            raise invalid_request(f"The parameter {name} was given more than once")
        result[name] = values[0]
    return result


def _refuse_bad_text(body: Any) -> None:
    """Form fields are checked by the input guard middleware; JSON bodies here (NUL, lone surrogates)."""
    where = find_bad_text(body)
    if where is not None:
        raise invalid_request(bad_text_message(where))


def _strings(body: dict[str, Any]) -> dict[str, str]:
    for name, value in body.items():
        if not isinstance(value, str):
            raise invalid_request(f"The parameter {name} must be a string")
    return body


def oauth_endpoint(view: Callable[[HttpRequest], Any]) -> Callable[[HttpRequest], HttpResponse]:
    """POST only, no CSRF (no cookies are used), RFC error bodies, unexpected errors logged with a trace id."""

    @csrf_exempt
    @wraps(view)
    def wrapper(request: HttpRequest) -> HttpResponse:
        if request.method == "OPTIONS":  # CORS preflights are answered by emdash.edge.cors; a plain OPTIONS here
            return HttpResponse(status=204, headers={"Allow": "POST, OPTIONS"})
        if request.method != "POST":
            return oauth_json({"error": "invalid_request", "error_description": "Use POST"}, 405, {"Allow": "POST"})
        try:
            body, status = view(request)
        except OAuthError as exc:
            return oauth_json(exc.as_dict(), exc.status, exc.headers)
        except RequestDataTooBig:  # Django's own size check (DATA_UPLOAD_MAX_MEMORY_SIZE)
            too_large = limits.too_large(request)
            too_large["Access-Control-Allow-Origin"] = "*"
            return too_large
        except Exception as exc:
            if is_bad_text_db_error(exc):
                return oauth_json({"error": "invalid_request", "error_description": PROBLEM}, 400)
            trace_id = log_exception(log, "%s failed", request.path)
            return oauth_json({"error": "server_error", "error_description": f"Internal error (trace {trace_id})"}, 500)
        return oauth_json(body, status)

    return wrapper


@oauth_endpoint
def token(request: HttpRequest) -> tuple[dict[str, Any], int]:
    p = params(request)
    grant_type = p.get("grant_type")
    ip = ratelimit.client_ip(request)
    ratelimit.hit("device_poll" if grant_type == clients.DEVICE_GRANT else "token", ip)
    if not grant_type:
        raise invalid_request("grant_type is required")
    if grant_type not in (clients.AUTH_CODE_GRANT, clients.REFRESH_GRANT, clients.DEVICE_GRANT):
        raise OAuthError("unsupported_grant_type", f"Unsupported grant_type {grant_type[:60]!r}")
    client = clients.get_client(p.get("client_id"))
    if grant_type not in client.grant_types:
        raise OAuthError("unauthorized_client", f"This client may not use the {grant_type} grant")
    expected = resource_url(request)
    if grant_type == clients.AUTH_CODE_GRANT:
        resource = grants.check_resource(p.get("resource"), expected)
        body = codes.redeem_code(
            client=client, raw=p.get("code"), redirect_uri=p.get("redirect_uri"),
            verifier=p.get("code_verifier"), resource=resource,
        )  # fmt: skip
    elif grant_type == clients.REFRESH_GRANT:
        resource = grants.check_resource(p.get("resource"), expected)
        body = tokens.refresh(client=client, raw=p.get("refresh_token"), scope=p.get("scope"), resource=resource)
    else:
        body = device.poll(client=client, device_code=p.get("device_code"))
    return body, 200


@oauth_endpoint
def register(request: HttpRequest) -> tuple[dict[str, Any], int]:
    ratelimit.hit("register", ratelimit.client_ip(request))
    message = "The body must be a JSON object"
    body = json_object(
        request.body,
        lambda text: OAuthError("invalid_client_metadata", text),
        not_json=message,
        not_object=message,
    )
    _refuse_bad_text(body)
    return clients.registration_response(clients.register_client(body)), 201


@oauth_endpoint
def revoke(request: HttpRequest) -> tuple[dict[str, Any], int]:
    p = params(request)
    ratelimit.hit("token", ratelimit.client_ip(request))
    tokens.revoke(client=clients.get_client(p.get("client_id")), raw=p.get("token"))
    return {}, 200


@oauth_endpoint
def device_code(request: HttpRequest) -> tuple[dict[str, Any], int]:
    p = params(request)
    ratelimit.hit("device_code", ratelimit.client_ip(request))
    client = clients.get_client(p.get("client_id"))
    started = device.start(
        client=client, scope=p.get("scope"), resource=grants.check_resource(p.get("resource"), resource_url(request))
    )
    page = site_origin(request) + metadata.DEVICE_PAGE_PATH
    return {
        "device_code": started.device_code,
        "user_code": started.user_code,
        "verification_uri": page,
        "verification_uri_complete": f"{page}?code={started.user_code}",
        "expires_in": int(device.DEVICE_CODE_TTL.total_seconds()),
        "interval": started.row.interval,
    }, 200


@api_view
def userinfo(request: HttpRequest, actor: Actor) -> HttpResponse | dict[str, Any]:
    """Who the bearer is (the CLI's ``whoami``)."""
    if actor.user is None:
        return oauth_json({"error": "invalid_token", "error_description": "A bearer token is required"}, 401)
    user = actor.user
    return {
        "sub": str(user.pk),
        "email": user.email,
        "name": user.name,
        "role": user.role_label,
        "scopes": None if actor.scopes is None else sorted(s.value for s in actor.scopes),
        "client_id": actor.client_id,
    }


def _scope_rows(requested: list[str], role: int) -> list[dict[str, Any]]:
    allowed = {s.value for s in scopes_for_role(role)}
    return [
        {"name": s, "description": describe(s), "allowed": s in allowed}
        for s in sorted(requested, key=lambda s: list(Scope).index(Scope(s)))
    ]


def authorize(request: HttpRequest) -> HttpResponse:
    """The consent page: GET shows what the client asks for, POST (CSRF-checked) approves or denies."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), metadata.LOGIN_PATH)
    if request.method not in ("GET", "POST"):
        return HttpResponse(status=405, headers={"Allow": "GET, POST"})
    origin = site_origin(request)
    try:
        req = authz.parse(request.GET, expected_resource=resource_url(request), issuer=origin + metadata.ISSUER_PATH)
    except authz.BadClient as exc:
        return render(request, "oauth/error.html", {"message": str(exc)}, status=400)
    except authz.RedirectError as exc:
        return HttpResponseRedirect(exc.redirect_to)
    user = request.user
    if request.method == "POST":
        if request.POST.get("decision") == "approve":
            return HttpResponseRedirect(authz.approve(req, user=user, selected=request.POST.getlist("scope")))
        return HttpResponseRedirect(authz.deny(req))
    requested = req.requested_or(s.value for s in scopes_for_role(user.role))
    context = {
        "client": req.client,
        "redirect_uri": req.redirect_uri,
        "redirect_host": urlsplit(req.redirect_uri).netloc,
        "scopes": _scope_rows(requested, user.role),
    }
    return render(request, "oauth/authorize.html", context)


def _device_render(request: HttpRequest, template: str, context: dict[str, Any], status: int = 200) -> HttpResponse:
    """The device pages live under /_emdash/admin/: inside the admin layout (with its nav) when the admin UI is
    installed, else in the standalone OAuth layout."""
    admin = apps.is_installed("admin_ui")
    page = {
        "layout": "admin_ui/base.html" if admin else "oauth/base.html",
        "nav_key": "device",
        "connected_apps_url": reverse("admin_ui:oauth_apps") if admin else "",
    }
    response = render(request, f"oauth/{template}.html", {**page, **context}, status=status)
    response["Cache-Control"] = "no-store"
    return response


def device_page(request: HttpRequest) -> HttpResponse:
    """The verification page: enter the code (``?code=`` pre-fills), confirm, approve or deny."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), metadata.LOGIN_PATH)
    if request.method != "POST":
        code = device.normalise_user_code(request.GET.get("code"))
        return _device_render(request, "device", {"code": device.format_user_code(code) if code else ""})
    user, raw_code, decision = request.user, request.POST.get("code", ""), request.POST.get("decision", "")
    try:
        row = device.find_for_approval(raw_code, user_id=user.pk, ip=ratelimit.client_ip(request))
        if decision in ("approve", "deny"):
            row = device.decide(user=user, user_code=row.user_code, approve=decision == "approve")
            return _device_render(request, "device_done", {"row": row, "approved": decision == "approve"})
    except RateLimited as exc:
        context = {"code": raw_code[:20], "error": exc.description}
        response = _device_render(request, "device", context, status=429)
        response["Retry-After"] = exc.headers["Retry-After"]
        return response
    except EmDashError as exc:
        status = 400 if isinstance(exc, ValidationError) else exc.status
        return _device_render(request, "device", {"code": raw_code[:20], "error": exc.message}, status=status)
    confirm: dict[str, Any] = {
        "code": device.format_user_code(row.user_code),
        "client": row.client,
        "scopes": _scope_rows(row.requested_scopes or sorted(s.value for s in scopes_for_role(user.role)), user.role),
    }
    return _device_render(request, "device_confirm", confirm)
