"""django-csp's middleware with the common policy built once per process.

django-csp builds the header from the settings on every response (about 0.1 ms, a large part of a cached read
call). When a response changes nothing (no nonce was used, no ``@csp_update``-style override), the policy
depends on the settings alone, so it is built once and reused, with what else the settings decide (the
excluded URL prefixes, DEBUG): reading them through Django's lazy settings was most of what was left per
response. All of it is rebuilt when the settings change (tests' ``override_settings``). Everything else goes
through django-csp unchanged.
"""

from __future__ import annotations

import http.client
from dataclasses import asdict
from typing import Any

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject
from csp.middleware import CSPMiddleware as BaseCSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.http import HttpRequest, HttpResponseBase

OVERRIDES = ("_csp_config", "_csp_update", "_csp_replace", "_csp_config_ro", "_csp_update_ro", "_csp_replace_ro")
# (header, setting, the response attribute that exempts it, report-only)
HEADERS = (
    (HEADER, "CONTENT_SECURITY_POLICY", "_csp_exempt", False),
    (HEADER_REPORT_ONLY, "CONTENT_SECURITY_POLICY_REPORT_ONLY", "_csp_exempt_ro", True),
)


_built: dict[bool, str] = {}  # report_only -> the policy for responses that change nothing
# (DEBUG, the headers to add: (header, policy, the exempting attribute, excluded path prefixes)), once built
Plan = tuple[bool, tuple[tuple[str, str, str, tuple[str, ...]], ...]]
_plan: dict[str, Plan] = {}  # "current" -> the plan (a dict: a reader racing _forget finds it or not, never half)


def _forget(setting: str, **_: Any) -> None:
    if setting.startswith("CONTENT_SECURITY_POLICY") or setting == "DEBUG":
        _built.clear()
        _plan.clear()


setting_changed.connect(_forget, dispatch_uid="emdash.edge.csp")


class CSPMiddleware(BaseCSPMiddleware):
    def _default_policy(self, report_only: bool) -> str:
        policy = _built.get(report_only)
        if policy is None:
            parts = self.get_policy_parts(request=HttpRequest(), response=HttpResponseBase(), report_only=report_only)
            policy = _built[report_only] = build_policy(**asdict(parts), report_only=report_only)
        return policy

    def _settled(self) -> Plan:
        plan = _plan.get("current")
        if plan is None:
            headers = []
            for header, setting, exempt, report_only in HEADERS:
                policy = self._default_policy(report_only)
                prefixes = tuple((getattr(settings, setting, None) or {}).get("EXCLUDE_URL_PREFIXES") or ())
                if policy:
                    headers.append((header, policy, exempt, prefixes))
            plan = _plan["current"] = (bool(settings.DEBUG), tuple(headers))
        return plan

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if getattr(request, "_csp_nonce", None) is not None or any(hasattr(response, a) for a in OVERRIDES):
            return super().process_response(request, response)
        debug, headers = self._settled()
        if debug and response.status_code in (http.client.INTERNAL_SERVER_ERROR, http.client.NOT_FOUND):
            return response
        for header, policy, exempt, prefixes in headers:
            excluded = bool(prefixes) and request.path_info.startswith(prefixes)
            if header not in response and not getattr(response, exempt, False) and not excluded:
                response[header] = policy
        # As django-csp does: a nonce asked for after the header was written is an error, not a silent gap.
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)  # type: ignore[attr-defined]
        return response
