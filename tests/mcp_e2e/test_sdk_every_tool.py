"""The official ``mcp`` SDK client calls every tool listed by tools/list, directly and as a task, under each protocol
version, against the app served by daphne with a real ``emdash_worker`` process running the tasks (both started
once for the module, on the test database).

How each version is reached with the SDK:

* 2026-07-28: ``mode="auto"`` (``server/discover``; the SDK adopts the newest modern revision);
* 2025-11-25: ``mode="legacy"`` (the ``initialize`` handshake at the SDK's newest handshake version);
* 2025-06-18, 2025-03-26, 2024-11-05: ``mode="legacy"`` with the SDK's ``LATEST_HANDSHAKE_VERSION`` lowered for
  the session, so its ``initialize`` offers that version (the server echoes it).

Every payload is validated with ``jsonschema`` (Draft 2020-12) against the tool's outputSchema: structuredContent
where the version has it (the SDK validates it too and raises on a mismatch), else the text payload against the
outputSchema listed at 2025-11-25 (2024-11-05 and 2025-03-26 list none and must send no structuredContent). Up to
2025-11-25 a task is ``tools/call`` with ``params.task``, then ``tasks/get`` until it ends, then ``tasks/result``;
the SDK has no API for those, so they go through its session's stamp and dispatcher (:meth:`Run.rpc`). Before
2025-11-25 the server ignores ``task`` (SPEC 5.6), so such a call must answer with the tool result at once. At
2026-07-28 tasks are the io.modelcontextprotocol/tasks extension: a second client, built with the SDK's extension
interface (tests/mcp_e2e/tasks_extension.py), calls every tool through ``Client.call_tool``. Arguments come from
tests/mcp_e2e/tool_args.py; a listed tool without a builder there fails the test by name.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from mcp import Client, types
from mcp.client import session as sdk_session
from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client

from accounts.tokens import token_create
from emdash.roles import Role
from mcp_endpoint.registry import REGISTRY, load_tools
from tests.mcp_e2e.conftest import MCP_PATH, new_user
from tests.mcp_e2e.tasks_extension import TasksExtension
from tests.mcp_e2e.tool_args import BUILDERS, Fixtures, coverage, unique_png
from tests.media.helpers import place
from tests.servers import daphne, start_worker, stop_worker

pytestmark = pytest.mark.slow
load_tools()

VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]
MODERN = "2026-07-28"
RELATED = "io.modelcontextprotocol/related-task"
TASK_BATCH = 10  # below the per-user limit on working tasks (TASKS_MAX_WORKING, 20)
TASK_TIMEOUT = 120.0


@dataclass(frozen=True)
class Stack:
    mcp_url: str
    media_root: Path


def structured(version: str) -> bool:
    return version >= "2025-06-18"


def has_tasks(version: str) -> bool:
    return version >= "2025-11-25"


@pytest.fixture(scope="module")
def stack(django_db_setup: None, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """The app under daphne and one ``emdash_worker``, as separate processes on the test database (production
    settings: no in-process shortcuts), sharing a media root; rate limits off for the ~800 calls."""
    media_root = tmp_path_factory.mktemp("media")
    # EMDASH_FETCH_ALLOW_PRIVATE: import_wordpress fetches tool_args.WXR from 127.0.0.1
    env = {"MEDIA_ROOT": str(media_root), "EMDASH_RATE_LIMITS": "off", "EMDASH_FETCH_ALLOW_PRIVATE": "1"}
    with django_db_blocker.unblock():
        worker = start_worker(env)
        try:
            with daphne(env) as (base_url, _):
                yield Stack(base_url + MCP_PATH, media_root)
        finally:
            stop_worker(worker)


@asynccontextmanager
async def connect(
    url: str, token: str, version: str, extensions: list[TasksExtension] | None = None
) -> AsyncIterator[Client]:
    mode = "auto" if version == MODERN else "legacy"
    async with (
        create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http,
        Client(streamable_http_client(url, http_client=http), mode=mode, extensions=extensions) as client,
    ):
        assert client.protocol_version == version
        yield client


class Run:
    """One SDK session at one version: checked calls, tasks, and which tools each mode exercised."""

    def __init__(self, client: Client, version: str, tools: list[types.Tool], reference: dict[str, Any]) -> None:
        self.client = client
        self.version = version
        self.tools = {t.name: t for t in tools}
        self.reference = reference  # name -> outputSchema listed at 2025-11-25
        self.exercised: dict[str, set[str]] = {"direct": set(), "task": set()}
        self.failures: list[str] = []

    def check(self, name: str, result: dict[str, Any], how: str) -> dict[str, Any]:
        """A tool result (wire shape) must be a success whose payload validates; returns the payload."""
        text = result["content"][0]["text"]
        assert not result.get("isError"), f"{how} {name} failed: {text}"
        payload = json.loads(text)
        schema = self.tools[name].output_schema
        if structured(self.version):
            assert schema, f"{name} lists no outputSchema at {self.version}"
            assert result.get("structuredContent") == payload, f"{how} {name}: structuredContent differs from text"
        else:
            assert schema is None and "structuredContent" not in result, f"{name}: structured output at {self.version}"
        errors = sorted(Draft202012Validator(schema or self.reference[name]).iter_errors(payload), key=str)
        assert not errors, f"{how} {name}: payload does not match outputSchema: {errors[0].message}"
        return dict(payload)

    async def direct(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        result = await self.client.call_tool(name, arguments)  # the SDK validates structuredContent itself
        payload = self.check(name, result.model_dump(by_alias=True, mode="json", exclude_none=True), "direct")
        self.exercised["direct"].add(name)
        return payload

    async def rpc(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """A task request through the SDK session's own stamp (version header; at 2026-07-28 the ``_meta``
        envelope, Mcp-Method and Mcp-Name) and dispatcher. Not ``send_request``: the SDK checks a tools/call
        answer against CallToolResult, and it has no CreateTaskResult (no task support)."""
        session = self.client.session
        data: dict[str, Any] = {"method": method, "params": params}
        opts: dict[str, Any] = {}
        session._stamp(data, opts)  # type: ignore[arg-type]
        return await session._dispatcher.send_raw_request(method, data["params"], opts)  # type: ignore[arg-type]

    async def start_task(self, name: str, arguments: dict[str, Any]) -> str | None:
        answer = await self.rpc("tools/call", {"name": name, "arguments": arguments, "task": {"ttl": 300000}})
        if not has_tasks(self.version):
            assert "task" not in answer, f"{name}: a task was created at {self.version}"
            self.check(name, answer, "task-ignored")
            self.exercised["task"].add(name)
            return None
        task = answer.get("task") or {}
        assert task.get("taskId") and task["status"] == "working", f"{name}: not a CreateTaskResult: {answer}"
        return str(task["taskId"])

    async def finish_task(self, name: str, task_id: str) -> None:
        deadline = time.monotonic() + TASK_TIMEOUT
        task = await self.rpc("tasks/get", {"taskId": task_id})
        while task["status"] == "working" and time.monotonic() < deadline:
            await asyncio.sleep(0.3)
            task = await self.rpc("tasks/get", {"taskId": task_id})
        assert task["status"] == "completed", f"task {name} ended {task['status']}: {task.get('statusMessage')}"
        result = await self.rpc("tasks/result", {"taskId": task_id})
        assert result["_meta"][RELATED] == {"taskId": task_id}, f"task {name}: tasks/result lacks {RELATED}"
        self.check(name, result, "task")
        self.exercised["task"].add(name)

    async def extension_task(self, client: Client, tasks: TasksExtension, name: str, arguments: dict[str, Any]) -> None:
        """2026-07-28: one call through a client that declared the tasks extension; it must have run as a task."""
        result = await client.call_tool(name, arguments)  # resolved by TasksExtension, validated by the SDK
        assert name in tasks.created, f"{name}: answered at once, no task was created"
        self.check(name, result.model_dump(by_alias=True, mode="json", exclude_none=True), "task")
        self.exercised["task"].add(name)

    async def guarded(self, what: str, step: Any) -> Any:
        try:
            return await step
        except Exception as exc:  # every failing tool is reported, not only the first
            self.failures.append(f"{what}: {exc}")
            return None


async def reference_schemas(url: str, token: str) -> dict[str, Any]:
    async with connect(url, token, "2025-11-25") as client:
        return {t.name: t.output_schema for t in (await client.list_tools()).tools}


def check_listing(run: Run, capabilities: types.ServerCapabilities) -> list[str]:
    names = list(run.tools)
    missing, stale = coverage(names)
    run.failures += [f"tool {n} has no argument builder: add one to tests/mcp_e2e/tool_args.py" for n in missing]
    run.failures += [f"tests/mcp_e2e/tool_args.py has a builder for {n}, which is not listed" for n in stale]
    with_schema = [n for n, t in run.tools.items() if t.output_schema]
    assert len(with_schema) == (len(names) if structured(run.version) else 0), with_schema
    if run.version == MODERN:
        assert capabilities.extensions and TasksExtension.identifier in capabilities.extensions, "no tasks extension"
    elif has_tasks(run.version):
        assert capabilities.tasks is not None, "no tasks capability"
        optional = {n for n, t in run.tools.items() if t.execution and t.execution.task_support == "optional"}
        assert optional == set(names), f"taskSupport is not optional for {sorted(set(names) - optional)}"
    return [n for n in names if n in BUILDERS]


async def every_tool(url: str, token: str, version: str, reference: dict[str, Any], storage_keys: list[str]) -> Run:
    async with connect(url, token, version) as client:
        capabilities = client.server_capabilities
        run = Run(client, version, (await client.list_tools()).tools, reference)
        names = check_listing(run, capabilities)
        fx = Fixtures(run.direct, "v" + version.replace("-", ""), storage_keys)
        await fx.setup()
        for name in names:
            await run.guarded(f"direct {name}", _direct(run, fx, name))
        if version == MODERN:
            await _extension_tasks(run, fx, names, url, token)
            return run
        for start in range(0, len(names), TASK_BATCH):
            started = []
            for name in names[start : start + TASK_BATCH]:
                task_id = await run.guarded(f"task {name}", _start(run, fx, name))
                if task_id:
                    started.append((name, task_id))
            await asyncio.gather(*(run.guarded(f"task {n}", run.finish_task(n, t)) for n, t in started))
    return run


async def _extension_tasks(run: Run, fx: Fixtures, names: list[str], url: str, token: str) -> None:
    tasks = TasksExtension(TASK_TIMEOUT)
    async with connect(url, token, MODERN, extensions=[tasks]) as client:
        await client.list_tools()  # the SDK validates structuredContent against the schemas it listed
        for start in range(0, len(names), TASK_BATCH):
            batch = []
            for name in names[start : start + TASK_BATCH]:  # arguments one by one: builders make fixtures
                args = await run.guarded(f"task {name}", BUILDERS[name](fx))
                if args is not None:
                    batch.append((name, args))
            await asyncio.gather(
                *(run.guarded(f"task {name}", run.extension_task(client, tasks, name, args)) for name, args in batch)
            )


async def _direct(run: Run, fx: Fixtures, name: str) -> None:
    await run.direct(name, await BUILDERS[name](fx))


async def _start(run: Run, fx: Fixtures, name: str) -> str | None:
    return await run.start_task(name, await BUILDERS[name](fx))


def test_every_tool_directly_and_as_a_task_under_every_version(cms, stack, settings, monkeypatch):
    """One test for the five versions: the server process keeps its schema snapshot between them, which a
    flush between tests would invalidate behind its back."""
    settings.MEDIA_ROOT = str(stack.media_root)  # place() below writes where the server and the worker read
    token = token_create(user=new_user(Role.ADMIN), name="every tool", scopes=["admin"]).raw
    reference = asyncio.run(reference_schemas(stack.mcp_url, token))
    assert set(reference) == set(REGISTRY)
    newest_handshake = sdk_session.LATEST_HANDSHAKE_VERSION
    failures = []
    for version in VERSIONS:
        storage_keys = [place(unique_png(f"placed {version} {i}")) for i in range(2)]  # media_create, direct + task
        # The SDK offers LATEST_HANDSHAKE_VERSION in initialize; older versions are reached by lowering it.
        monkeypatch.setattr(sdk_session, "LATEST_HANDSHAKE_VERSION", min(version, newest_handshake))
        try:
            run = asyncio.run(every_tool(stack.mcp_url, token, version, reference, storage_keys))
        except Exception as exc:
            failures.append(f"{version}: {exc!r}")
            continue
        for mode, exercised in run.exercised.items():
            not_called = sorted(set(run.tools) - exercised)
            if not_called:
                run.failures.append(f"not exercised ({mode}): {', '.join(not_called)}")
        failures += [f"{version}: {failure}" for failure in run.failures]
    assert not failures, f"{len(failures)} failure(s):\n" + "\n".join(failures)
