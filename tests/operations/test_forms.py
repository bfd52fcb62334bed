"""The compact declaration form (emdash.operations.forms): what a family call declares."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from pydantic import Field

from emdash.operations import DELETED, READ, Endpoint, Input, Route, audit_as, family, record, under
from emdash.permissions import Perm


class NameInput(Input):
    name: str = Field(description="Name", min_length=1, max_length=20)


OUT = {"type": "object", "properties": {"items": {"type": "array"}}, "required": ["items"]}


@pytest.fixture
def table(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """A scratch operation table, so these records never reach the real one."""
    scratch: dict[str, Any] = {}
    monkeypatch.setattr(record, "TABLE", scratch)
    monkeypatch.setattr(record, "_HOMES", {})
    return scratch


def test_endpoint_routes_carry_the_path_and_its_one_url_name() -> None:
    one = Endpoint("_emdash/api/things/<str:name>", "api-thing")
    assert one.get() == Route("GET", one.path, args="path", name="api-thing")
    assert one.get("query").args == "query"
    assert one.post(status=201) == Route("POST", one.path, args="body", status=201, name="api-thing")
    assert (one.put().method, one.put().args) == ("PUT", "body")
    assert (one.patch().method, one.delete().method, one.delete().args) == ("PATCH", "DELETE", "path")


def test_a_family_call_declares_with_the_shared_keywords_and_its_own(table: dict[str, Any]) -> None:
    things = Endpoint("_emdash/api/things", "api-things")
    read = family("content", Perm.CONTENT_READ, **READ)
    op = read("thing_list", "List things", NameInput, lambda **kw: [], things.get(), present=under("items"), output=OUT)
    assert "thing_list" not in table  # not yet: a draft has no description
    op.describe("List the things.")
    declared = table["thing_list"]
    assert (declared.category, declared.perm, declared.read_only, declared.idempotent) == (
        "content",
        Perm.CONTENT_READ,
        True,
        True,
    )
    assert declared.output_schema == OUT and declared.routes == (things.get(),)
    assert declared.present(["a"], None) == {"items": ["a"]}


def test_gone_is_a_destructive_delete_answering_deleted(table: dict[str, Any]) -> None:
    manage = family("content", Perm.CONTENT_EDIT_OWN).but(target=audit_as("things/{name}"))
    manage.gone("thing_delete", "Delete thing", NameInput, lambda **kw: None).describe("Delete a thing.")
    op = table["thing_delete"]
    assert op.destructive and not op.read_only and op.output_schema == DELETED
    assert op.present(None, None) == {"deleted": True}
    assert op.target is not None and op.target(NameInput(name="x"), {}) == "things/x"


def test_audit_as_reads_the_answer_too() -> None:
    target = audit_as("tokens/{payload[token][id]}")
    assert target(NameInput(name="x"), {"token": {"id": 7}}) == "tokens/7"


def test_a_draft_never_described_stops_start_up(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(record, "_loaded", False)
    monkeypatch.setattr(record, "MODULES", ())
    monkeypatch.setattr(record, "PENDING", set())
    from emdash.operations import forms

    monkeypatch.setattr(forms, "PENDING", record.PENDING)
    family("content", Perm.CONTENT_READ)("thing_get", "Get thing", NameInput, lambda **kw: SimpleNamespace())
    with pytest.raises(ValueError, match="never described"):
        record.load()
