"""``emdash`` entry point: argparse sub-commands ``login``, ``whoami``, ``logout`` and ``mcp``."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import webbrowser
from collections.abc import Sequence

from emdash.cli import api, bridge, credentials
from emdash.scopes import ALL as ALL_SCOPES
from emdash.scopes import Scope

# What `emdash mcp` needs for the everyday tools: content (which includes menus and taxonomy terms), media and
# schema, read and write, and reading settings. Not `admin` and not settings:manage: ask for those with --scopes.
DEFAULT_SCOPES = " ".join(
    s.value
    for s in (
        Scope.CONTENT_READ,
        Scope.CONTENT_WRITE,
        Scope.MEDIA_READ,
        Scope.MEDIA_WRITE,
        Scope.SCHEMA_READ,
        Scope.SCHEMA_WRITE,
        Scope.SETTINGS_READ,
    )
)

EPILOG = "Credentials live in $XDG_CONFIG_HOME/emdash/auth.json (default ~/.config/emdash/auth.json), mode 0600."


def _site(args: argparse.Namespace) -> str:
    """The site origin: --url, else $EMDASH_URL, else the only site in the credentials file."""
    url = args.url or os.environ.get("EMDASH_URL")
    if not url:
        stored = list(credentials.load())
        if len(stored) != 1:
            raise api.CliError("Which site? Pass --url https://your-site.example (or set EMDASH_URL).")
        url = stored[0]
    try:
        return credentials.origin_of(url)
    except ValueError as exc:
        raise api.CliError(str(exc), 2) from None


def _can_open_browser() -> bool:
    # On Linux without a display, webbrowser would start a text browser in this terminal: don't.
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return False
    return True


def cmd_login(args: argparse.Namespace) -> int:
    try:
        return _login(args)
    except api.CliError as exc:  # every login failure exits with 2
        raise api.CliError(str(exc), 2) from None


def _login(args: argparse.Namespace) -> int:
    origin = _site(args)
    with api.http_client() as http:
        scope = " ".join((args.scope or DEFAULT_SCOPES).replace(",", " ").split())
        started = api.start_device_login(http, origin, scope)
        err = sys.stderr
        print(f"To log in to {origin}, open:\n\n    {started['verification_uri']}\n", file=err)
        print(f"and enter the code:  {started['user_code']}\n", file=err)
        if not args.no_browser and _can_open_browser():
            with contextlib.suppress(Exception):  # best effort: the printed URL is enough
                webbrowser.open(started["verification_uri_complete"])
        print("Waiting for approval...", file=err, flush=True)
        tokens = api.poll_for_tokens(http, origin, started)
        user = api.userinfo(http, origin, tokens["access_token"])
    credentials.store(origin, credentials.entry_from_tokens(tokens, user))
    print(f"Logged in to {origin} as {user.get('email')} ({user.get('role')}).")
    return 0


def cmd_whoami(args: argparse.Namespace) -> int:
    origin = _site(args)
    with api.http_client() as http:
        token = api.access_token(http, origin)
        try:
            user = api.userinfo(http, origin, token)
        except api.NotLoggedIn:
            user = api.userinfo(http, origin, api.access_token(http, origin, stale=token))
    if args.json:
        print(json.dumps({"url": origin, "user": user}, indent=2))
    else:
        scopes = " ".join(user.get("scopes") or [])
        print(f"{user.get('email')} ({user.get('role')}) at {origin}" + (f"\nscopes: {scopes}" if scopes else ""))
    return 0


def cmd_logout(args: argparse.Namespace) -> int:
    origin = _site(args)
    entry = credentials.remove(origin)
    if entry is None:
        print(f"Not logged in to {origin}.", file=sys.stderr)
        return 0
    with api.http_client() as http:
        revoked = api.revoke(http, origin, entry)
    print(f"Logged out of {origin}." + ("" if revoked else " (The server could not confirm the revocation.)"))
    return 0 if revoked else 1


def cmd_mcp(args: argparse.Namespace) -> int:
    return bridge.run(_site(args))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="emdash", description="Command line for an EmDash site: log in and connect MCP clients.", epilog=EPILOG
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    url_help = "site URL, e.g. https://cms.example.com (default: $EMDASH_URL or the only stored site)"

    login = sub.add_parser(
        "login",
        help="log in with a code approved in the browser",
        description="Log in with the OAuth device flow: open the printed URL, enter the code, approve. "
        "Exit code 2 when the login fails or is denied.",
        epilog=EPILOG,
    )
    login.add_argument("--url", help=url_help)
    login.add_argument(
        "--scopes",
        "--scope",
        dest="scope",
        help=f"scopes to ask for, space or comma separated (default: {DEFAULT_SCOPES}; "
        "the server grants only what your role allows). For an assistant that may write drafts but never "
        f"publish, use content:read,{Scope.CONTENT_DRAFT.value} instead of content:write. "
        f"Valid scopes: {', '.join(ALL_SCOPES)}",
    )
    login.add_argument("--no-browser", action="store_true", help="only print the URL, never open a browser")
    login.set_defaults(func=cmd_login)

    whoami = sub.add_parser("whoami", help="show the logged-in account", description="Show who you are logged in as.")
    whoami.add_argument("--url", help=url_help)
    whoami.add_argument("--json", action="store_true", help="print JSON: {url, user}")
    whoami.set_defaults(func=cmd_whoami)

    logout = sub.add_parser(
        "logout",
        help="revoke the stored tokens and forget them",
        description="Revoke the session on the server and delete it from the credentials file.",
    )
    logout.add_argument("--url", help=url_help)
    logout.set_defaults(func=cmd_logout)

    mcp = sub.add_parser(
        "mcp",
        help="bridge an MCP client on stdio to the site's MCP endpoint",
        description="Read one JSON-RPC message per line on stdin, send it to <url>/_emdash/api/mcp with the stored "
        "credentials (refreshed when needed) or $EMDASH_TOKEN, and print each reply as one line on stdout. "
        'Use it as the command of a stdio MCP server, e.g. {"command": "emdash", "args": ["mcp", "--url", URL]}.',
    )
    mcp.add_argument("--url", help=url_help)
    mcp.set_defaults(func=cmd_mcp)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except api.CliError as exc:
        print(f"emdash: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
