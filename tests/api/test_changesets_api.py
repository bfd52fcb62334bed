"""The change set REST resource (SPEC 9.2): /_emdash/api/changesets and its actions, from the operation table."""

from __future__ import annotations

from typing import Any

from content.changesets.models import ChangeSet, ChangeSetEntry
from content.schema import specs as schema
from emdash.actor import Actor
from emdash.roles import Role
from tests.api.helpers import body, call, token_client
from tests.factories import make_entry, make_user

API = "/_emdash/api/changesets"


def status(entry_id: str) -> str:
    return str(schema.get_collection("posts").model.objects.get(pk=entry_id).status)


def test_the_whole_cycle_over_rest(posts):
    author, editor = make_user(Role.AUTHOR), make_user(Role.EDITOR)
    item = make_entry(by=Actor.for_user(author), data={"title": "Proposed"}).id
    proposer = token_client(author, "content:read content:write")
    reviewer = token_client(editor, "content:read content:write")

    created = call(proposer, "POST", API, {"title": "Launch", "description": "Two posts"})
    assert created.status_code == 201, created.content
    changeset_id = body(created)["changeset"]["id"]
    added = call(proposer, "POST", f"{API}/{changeset_id}/entries", {"collection": "posts", "item": item})
    assert added.status_code == 200 and body(added)["changeset"]["entryCount"] == 1
    assert call(proposer, "POST", f"{API}/{changeset_id}/submit").status_code == 200

    queue = body(call(reviewer, "GET", API, {"state": "submitted"}))
    assert [c["id"] for c in queue["items"]] == [changeset_id]
    detail = body(call(reviewer, "GET", f"{API}/{changeset_id}"))
    assert detail["changeset"]["state"] == "submitted" and detail["entries"][0]["id"] == item

    own = call(proposer, "POST", f"{API}/{changeset_id}/review", {"decision": "approve"})
    assert own.status_code == 403
    approved = call(reviewer, "POST", f"{API}/{changeset_id}/review", {"decision": "approve", "comment": "Yes"})
    assert body(approved)["changeset"]["state"] == "approved"
    published = call(reviewer, "POST", f"{API}/{changeset_id}/publish")
    assert published.status_code == 200 and body(published)["published"] == [f"posts/{item}"]
    assert status(item) == "published"
    reverted = call(reviewer, "POST", f"{API}/{changeset_id}/revert", {"force": True})
    assert body(reverted)["reverted"] == [f"posts/{item}"] and status(item) == "draft"


def test_remove_an_entry_by_collection_and_item(posts):
    author = make_user(Role.AUTHOR)
    item = make_entry(by=Actor.for_user(author)).id
    client = token_client(author, "content:read content:write")
    changeset_id = body(call(client, "POST", API, {"title": "Oops"}))["changeset"]["id"]
    call(client, "POST", f"{API}/{changeset_id}/entries", {"collection": "posts", "item": item})
    removed = call(client, "DELETE", f"{API}/{changeset_id}/entries/posts/{item}")
    assert removed.status_code == 200 and not ChangeSetEntry.objects.exists()
    again = call(client, "DELETE", f"{API}/{changeset_id}/entries/posts/{item}")
    assert again.status_code == 404


def bad(response: Any, status_code: int, code: str) -> None:
    assert response.status_code == status_code, response.content
    assert body(response)["error"]["code"] == code


def test_bad_input_is_refused_clearly_and_changes_nothing(posts):
    author = make_user(Role.AUTHOR)
    other = make_entry(by=Actor.for_user(make_user(Role.AUTHOR))).id
    client = token_client(author, "content:read content:write")
    bad(call(client, "GET", f"{API}/01ZZZZZZZZZZZZZZZZZZZZZZZZ"), 404, "NOT_FOUND")
    changeset_id = body(call(client, "POST", API, {"title": "Mine"}))["changeset"]["id"]
    bad(
        call(client, "POST", f"{API}/{changeset_id}/entries", {"collection": "posts", "item": other}),
        403,
        "INSUFFICIENT_PERMISSIONS",
    )
    bad(
        call(client, "POST", f"{API}/{changeset_id}/entries", {"collection": "posts", "item": other, "action": "x"}),
        400,
        "VALIDATION_ERROR",
    )
    bad(call(client, "POST", f"{API}/{changeset_id}/submit"), 400, "VALIDATION_ERROR")  # empty
    bad(call(client, "POST", f"{API}/{changeset_id}/publish"), 400, "VALIDATION_ERROR")  # not approved
    bad(call(client, "GET", API, {"state": "nonsense"}), 400, "VALIDATION_ERROR")
    reader = token_client(author, "content:read")
    bad(call(reader, "POST", API, {"title": "No"}), 403, "INSUFFICIENT_SCOPE")
    assert ChangeSet.objects.get(id=changeset_id).state == "open" and not ChangeSetEntry.objects.exists()
