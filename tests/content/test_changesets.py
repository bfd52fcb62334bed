"""Change sets (SPEC 9.2): building, four-eyes review, publishing all or nothing, scheduling and revert."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from audit.models import AuditLog
from content.changesets import publishing, selectors, services
from content.changesets.models import ChangeSet, ChangeSetEntry
from content.entries import services as entries
from content.models import Revision
from content.schema import specs as schema
from content.schema.dynamic import field_attname
from content.signals import changeset_changed
from emdash.actor import Actor
from emdash.call import Call
from emdash.errors import EmDashError
from emdash.operations import get, run_operation
from emdash.roles import Role
from emdash.scopes import Scope
from settings_app import services as settings
from tests.factories import SYSTEM, make_entry, make_user


def fails(code: str, fn: Any, *args: Any, **kwargs: Any) -> EmDashError:
    try:
        fn(*args, **kwargs)
    except EmDashError as exc:
        assert exc.code == code, exc.as_dict()
        return exc
    raise AssertionError(f"expected {code} from {fn.__name__}")


def row(entry_id: str, collection: str = "posts") -> Any:
    return schema.get_collection(collection).model.objects.get(pk=entry_id)


def title(entry_id: str) -> Any:
    return getattr(row(entry_id), field_attname("title"))


def snapshot_all() -> list[dict[str, Any]]:
    model = schema.get_collection("posts").model
    return list(model.objects.order_by("id").values())


@pytest.fixture
def people(posts: Any) -> dict[str, Actor]:
    return {
        "author": Actor.for_user(make_user(Role.AUTHOR)),
        "other_author": Actor.for_user(make_user(Role.AUTHOR)),
        "editor": Actor.for_user(make_user(Role.EDITOR)),
        "reviewer": Actor.for_user(make_user(Role.EDITOR)),
    }


def proposal(by: Actor, *items: tuple[str, str], title: str = "Spring update") -> ChangeSet:
    changeset = services.changeset_create(actor=by, title=title)
    for item, action in items:
        services.changeset_add(actor=by, id=changeset.id, collection="posts", item=item, action=action)
    return changeset


def approved(by: Actor, reviewer: Actor, *items: tuple[str, str]) -> ChangeSet:
    changeset = proposal(by, *items)
    services.changeset_submit(actor=by, id=changeset.id)
    return services.changeset_review(actor=reviewer, id=changeset.id, decision="approve", comment="fine")


def three_items(author: Actor) -> tuple[str, str, str]:
    """A new draft, a published item with a pending draft, and a published item (to take down)."""
    new = make_entry(by=author, data={"title": "Brand new"}).id
    edited = make_entry(by=author, data={"title": "Old title"}, status="published").id
    entries.entry_update(actor=author, collection="posts", id=edited, data={"title": "New title"})
    gone = make_entry(by=author, data={"title": "Outdated"}, status="published").id
    return new, edited, gone


# --- building and reviewing -----------------------------------------------------------------------------------


def test_add_pins_the_current_draft_and_get_shows_the_diff_and_urls(people):
    author = people["author"]
    new, edited, gone = three_items(author)
    changeset = proposal(author, (new, "publish"), (edited, "publish"), (gone, "delete"))

    entry = ChangeSetEntry.objects.get(changeset=changeset, entry_id=edited)
    assert entry.pinned_revision_id == row(edited).draft_revision_id is not None
    shown = selectors.changeset_get(actor=people["reviewer"], id=changeset.id)
    by_id = {e["id"]: e for e in shown["entries"]}
    assert shown["state"] == "open" and shown["entryCount"] == 3
    assert by_id[edited]["diff"] == [{"field": "title", "live": "Old title", "draft": "New title"}]
    assert by_id[new]["diff"][0] == {"field": "title", "live": None, "draft": "Brand new"}
    assert by_id[gone]["action"] == "delete" and by_id[gone]["diff"] == []
    assert by_id[gone]["urls"] == [f"/posts/{row(gone).slug}/"]
    assert all(e["problems"] == {} for e in shown["entries"])


def test_an_author_cannot_add_someone_elses_item_and_nothing_changes(people):
    theirs = make_entry(by=people["other_author"]).id
    changeset = services.changeset_create(actor=people["author"], title="Mine")
    fails(
        "INSUFFICIENT_PERMISSIONS",
        services.changeset_add,
        actor=people["author"],
        id=changeset.id,
        collection="posts",
        item=theirs,
    )
    assert not ChangeSetEntry.objects.exists()


def test_unknown_set_is_not_found(people):
    fails("NOT_FOUND", selectors.changeset_get, actor=people["editor"], id="01ARZ3NDEKTSV4RRFFQ69G5FAV")
    fails("NOT_FOUND", services.changeset_submit, actor=people["editor"], id="nope")


def test_validation_problems_block_submit(people):
    author = people["author"]
    item = make_entry(by=author, data={"title": "Will be emptied"}).id
    schema.get_collection("posts").model.objects.filter(pk=item).update(
        **{field_attname("title"): None}
    )  # as if required later
    changeset = proposal(author, (item, "publish"))
    shown = selectors.changeset_get(actor=author, id=changeset.id)
    assert shown["entries"][0]["problems"] == {"data.title": "is required"}
    exc = fails("VALIDATION_ERROR", services.changeset_submit, actor=author, id=changeset.id)
    assert f"posts/{item}" in exc.details["items"]
    assert ChangeSet.objects.get(id=changeset.id).state == "open"


def test_four_eyes_the_creator_cannot_approve_unless_the_setting_allows(people):
    editor = people["editor"]
    item = make_entry(by=editor).id
    changeset = proposal(editor, (item, "publish"))
    services.changeset_submit(actor=editor, id=changeset.id)
    exc = fails(
        "INSUFFICIENT_PERMISSIONS", services.changeset_review, actor=editor, id=changeset.id, decision="approve"
    )
    assert "changesetsSelfApprove" in exc.message
    assert ChangeSet.objects.get(id=changeset.id).state == "submitted"

    settings.settings_update(actor=SYSTEM, changes={"changesetsSelfApprove": True})
    assert services.changeset_review(actor=editor, id=changeset.id, decision="approve").state == "approved"


def test_self_approve_is_an_admin_setting_and_a_boolean(people):
    fails(
        "INSUFFICIENT_PERMISSIONS",
        settings.settings_update,
        actor=people["editor"],
        changes={"changesetsSelfApprove": True},
    )
    fails("VALIDATION_ERROR", settings.settings_update, actor=SYSTEM, changes={"changesetsSelfApprove": "yes"})


def test_an_author_cannot_review_and_a_draft_scope_token_cannot_either(people):
    item = make_entry(by=people["author"]).id
    changeset = proposal(people["author"], (item, "publish"))
    services.changeset_submit(actor=people["author"], id=changeset.id)
    fails(
        "INSUFFICIENT_PERMISSIONS",
        services.changeset_review,
        actor=people["other_author"],
        id=changeset.id,
        decision="approve",
    )
    read_only = Actor.for_user(people["reviewer"].user, [Scope.CONTENT_READ.value])
    fails("INSUFFICIENT_SCOPE", services.changeset_review, actor=read_only, id=changeset.id, decision="approve")


def test_reject_sends_the_set_back_with_a_comment_and_it_can_be_resubmitted(people):
    item = make_entry(by=people["author"]).id
    changeset = proposal(people["author"], (item, "publish"))
    services.changeset_submit(actor=people["author"], id=changeset.id)
    rejected = services.changeset_review(actor=people["reviewer"], id=changeset.id, decision="reject", comment="typo")
    assert (rejected.state, rejected.comment) == ("rejected", "typo")
    services.changeset_remove(actor=people["author"], id=changeset.id, collection="posts", item=item)
    services.changeset_add(actor=people["author"], id=changeset.id, collection="posts", item=item)
    assert services.changeset_submit(actor=people["author"], id=changeset.id).state == "submitted"


# --- publishing -----------------------------------------------------------------------------------------------


def test_publishing_an_unapproved_set_is_refused_and_changes_nothing(people):
    item = make_entry(by=people["author"]).id
    changeset = proposal(people["author"], (item, "publish"))
    before = snapshot_all()
    exc = fails("VALIDATION_ERROR", publishing.changeset_publish, actor=people["editor"], id=changeset.id)
    assert "approved" in exc.message
    assert snapshot_all() == before


def test_publish_applies_every_entry_with_one_audit_row_per_item_and_one_for_the_set(people):
    author = people["author"]
    new, edited, gone = three_items(author)
    changeset = approved(author, people["reviewer"], (new, "publish"), (edited, "publish"), (gone, "delete"))
    sent: list[str] = []
    changeset_changed.connect(lambda **kw: sent.append(kw["event"]), weak=False, dispatch_uid="test-cs")
    try:
        payload = run_operation(get("changeset_publish"), Call.at("rest", author), {"id": changeset.id})
    finally:
        changeset_changed.disconnect(dispatch_uid="test-cs")
    assert payload["changeset"]["state"] == "published"
    assert sorted(payload["published"]) == sorted(f"posts/{i}" for i in (new, edited, gone))
    assert row(new).status == "published"
    assert title(edited) == "New title" and row(edited).draft_revision_id is None
    assert schema.get_collection("posts").model.objects.filter(pk=gone, deleted_at__isnull=False).exists()
    targets = sorted(AuditLog.objects.filter(action="changeset_publish").values_list("target", flat=True))
    assert targets == sorted([f"changesets/{changeset.id}", *(f"posts/{i}" for i in (new, edited, gone))])
    assert sent == ["published"]


def test_an_item_edited_after_approval_blocks_publishing_with_conflict_naming_it(people):
    author = people["author"]
    new, edited, _ = three_items(author)
    changeset = approved(author, people["reviewer"], (new, "publish"), (edited, "publish"))
    entries.entry_update(actor=author, collection="posts", id=edited, data={"title": "Sneaky"})
    before = snapshot_all()
    exc = fails("CONFLICT", publishing.changeset_publish, actor=people["editor"], id=changeset.id)
    assert exc.details["items"] == [f"posts/{edited}"]
    assert snapshot_all() == before
    services.changeset_submit(actor=author, id=changeset.id)  # re-submitted: reviewed again, then it publishes
    services.changeset_review(actor=people["reviewer"], id=changeset.id, decision="approve")
    publishing.changeset_publish(actor=people["editor"], id=changeset.id)
    assert title(edited) == "Sneaky"


@pytest.mark.parametrize("change", ["terms through update", "terms", "bylines"])
def test_a_new_draft_whose_terms_or_credits_changed_after_approval_blocks_publishing(people, change):
    """Terms and credits of a never-published item are written to the item at once (no draft holds them) and did
    not count as a change: after approval the author could retag or recredit the item and it went live with
    what nobody reviewed. They now change the item's version, so publishing is refused with CONFLICT."""
    from bylines.services import byline_create
    from taxonomy import services as taxonomy

    author = people["author"]
    new = make_entry(by=author, data={"title": "Reviewed"}).id
    taxonomy.term_create(actor=SYSTEM, taxonomy="tag", slug="scam", label="Scam")
    credit = byline_create(actor=SYSTEM, slug="imposter", display_name="An Imposter", is_guest=True)
    changeset = approved(author, people["reviewer"], (new, "publish"))
    if change == "terms through update":
        entries.entry_update(actor=author, collection="posts", id=new, terms={"tag": ["scam"]})
    elif change == "terms":
        taxonomy.entry_terms_set(actor=author, collection="posts", id=new, taxonomy="tag", terms=["scam"])
    else:
        entries.entry_update(actor=author, collection="posts", id=new, bylines=[{"bylineId": credit.id}])
    exc = fails("CONFLICT", publishing.changeset_publish, actor=people["editor"], id=changeset.id)
    assert exc.details["items"] == [f"posts/{new}"]
    assert row(new).status == "draft"


def test_publish_needs_publish_rights_on_every_item(people):
    mine = make_entry(by=people["author"]).id
    theirs = make_entry(by=people["other_author"]).id
    changeset = services.changeset_create(actor=people["editor"], title="Mixed")
    for item in (mine, theirs):
        services.changeset_add(actor=people["editor"], id=changeset.id, collection="posts", item=item)
    services.changeset_submit(actor=people["editor"], id=changeset.id)
    services.changeset_review(actor=people["reviewer"], id=changeset.id, decision="approve")
    before = snapshot_all()
    fails("INSUFFICIENT_PERMISSIONS", publishing.changeset_publish, actor=people["author"], id=changeset.id)
    assert snapshot_all() == before


@pytest.mark.parametrize("failing_at", [0, 1, 2])
def test_publish_is_atomic_under_a_failure_at_any_entry(people, monkeypatch, failing_at):
    """Property: whichever entry fails, no item changes and the set stays approved."""
    author = people["author"]
    new, edited, gone = three_items(author)
    changeset = approved(author, people["reviewer"], (new, "publish"), (edited, "publish"), (gone, "delete"))
    before = snapshot_all()
    applied = publishing.apply_entry
    calls = {"n": 0}

    def flaky(entry: Any, spec: Any, target: Any, actor: Any) -> None:
        if calls["n"] == failing_at:
            raise RuntimeError("disk full")
        calls["n"] += 1
        applied(entry, spec, target, actor)

    monkeypatch.setattr(publishing, "apply_entry", flaky)
    with pytest.raises(RuntimeError):
        publishing.changeset_publish(actor=people["editor"], id=changeset.id)
    assert snapshot_all() == before
    assert ChangeSet.objects.get(id=changeset.id).state == "approved"
    assert not ChangeSetEntry.objects.filter(changeset=changeset, before__isnull=False).exists()


# --- scheduling -----------------------------------------------------------------------------------------------


def test_a_scheduled_set_is_published_by_the_worker_exactly_once(people):
    author = people["author"]
    new, edited, _ = three_items(author)
    changeset = approved(author, people["reviewer"], (new, "publish"), (edited, "publish"))
    later = (timezone.now() + timedelta(hours=1)).isoformat()
    outcome = publishing.changeset_publish(actor=people["editor"], id=changeset.id, scheduled_at=later)
    assert outcome.scheduled and row(new).status == "draft"
    assert publishing.publish_due_changesets() == 0
    ChangeSet.objects.filter(id=changeset.id).update(scheduled_at=timezone.now() - timedelta(minutes=1))
    assert publishing.publish_due_changesets() == 1
    assert publishing.publish_due_changesets() == 0
    assert row(new).status == "published" and title(edited) == "New title"
    assert ChangeSet.objects.get(id=changeset.id).state == "published"
    assert (
        AuditLog.objects.filter(action="changeset_publish", source="worker", target__startswith="posts/").count() == 2
    )
    published = Revision.objects.filter(entry_id__in=[new, edited], kind=Revision.KIND_PUBLISH).order_by("-created_at")
    assert {r.source for r in published[:2]} == {"worker"}, "the revisions say how they were made (SPEC 9.3)"


def test_a_scheduled_set_that_cannot_publish_is_marked_failed_with_reasons(people):
    author = people["author"]
    new, edited, _ = three_items(author)
    changeset = approved(author, people["reviewer"], (new, "publish"), (edited, "publish"))
    publishing.changeset_publish(
        actor=people["editor"], id=changeset.id, scheduled_at=(timezone.now() + timedelta(hours=1)).isoformat()
    )
    entries.entry_update(actor=author, collection="posts", id=edited, data={"title": "Changed meanwhile"})
    ChangeSet.objects.filter(id=changeset.id).update(scheduled_at=timezone.now() - timedelta(minutes=1))
    assert publishing.publish_due_changesets() == 0
    failed = ChangeSet.objects.get(id=changeset.id)
    assert failed.state == "approved" and failed.scheduled_at is None
    assert failed.failure["code"] == "CONFLICT" and failed.failure["details"]["items"] == [f"posts/{edited}"]
    assert row(new).status == "draft"
    assert publishing.publish_due_changesets() == 0  # never retried by itself


def test_scheduled_at_in_the_past_is_refused(people):
    item = make_entry(by=people["author"]).id
    changeset = approved(people["author"], people["reviewer"], (item, "publish"))
    past = (timezone.now() - timedelta(hours=1)).isoformat()
    fails("VALIDATION_ERROR", publishing.changeset_publish, actor=people["editor"], id=changeset.id, scheduled_at=past)
    assert ChangeSet.objects.get(id=changeset.id).scheduled_at is None


# --- revert ---------------------------------------------------------------------------------------------------


def test_revert_takes_every_item_back_in_one_go(people):
    author = people["author"]
    new, edited, gone = three_items(author)
    old_revision = row(edited).live_revision_id
    changeset = approved(author, people["reviewer"], (new, "publish"), (edited, "publish"), (gone, "delete"))
    publishing.changeset_publish(actor=people["editor"], id=changeset.id)

    outcome = publishing.changeset_revert(actor=people["editor"], id=changeset.id)
    assert sorted(outcome.items) == sorted(f"posts/{i}" for i in (new, edited, gone)) and outcome.skipped == []
    assert row(new).status == "draft"
    assert title(edited) == "Old title" and row(edited).live_revision_id == old_revision
    assert row(gone).deleted_at is None and row(gone).status == "published"
    fails("VALIDATION_ERROR", publishing.changeset_revert, actor=people["editor"], id=changeset.id)


def test_revert_skips_items_edited_since_unless_forced(people):
    author = people["author"]
    new, edited, _ = three_items(author)
    changeset = approved(author, people["reviewer"], (new, "publish"), (edited, "publish"))
    publishing.changeset_publish(actor=people["editor"], id=changeset.id)
    entries.entry_update(actor=author, collection="posts", id=edited, data={"title": "Newer still"})

    outcome = publishing.changeset_revert(actor=people["editor"], id=changeset.id)
    assert outcome.items == [f"posts/{new}"]
    assert outcome.skipped == [{"item": f"posts/{edited}", "reason": "edited since the set was published"}]
    assert title(edited) == "New title"
    forced = publishing.changeset_revert(actor=people["editor"], id=changeset.id, force=True)
    assert forced.items == [f"posts/{edited}"]
    assert title(edited) == "Old title"


def test_a_forced_revert_puts_an_item_unpublished_since_back_live_as_it_was(people):
    """SPEC 9.2: "every item goes back to the live revision it had before"; an item taken down after the set
    was published (here by a second set) is live again with its old values once the revert is forced."""
    author = people["author"]
    _, edited, _ = three_items(author)
    before = row(edited)
    first = approved(author, people["reviewer"], (edited, "publish"))
    publishing.changeset_publish(actor=people["editor"], id=first.id)
    second = approved(author, people["reviewer"], (edited, "unpublish"))
    publishing.changeset_publish(actor=people["editor"], id=second.id)
    assert row(edited).status == "draft"

    skipped = publishing.changeset_revert(actor=people["editor"], id=first.id)
    assert skipped.skipped == [{"item": f"posts/{edited}", "reason": "edited since the set was published"}]
    assert row(edited).status == "draft", "a skipped item is left alone"
    forced = publishing.changeset_revert(actor=people["editor"], id=first.id, force=True)
    assert forced.items == [f"posts/{edited}"]
    after = row(edited)
    assert (after.status, title(edited)) == ("published", "Old title")
    assert after.live_revision_id == before.live_revision_id and after.published_at == before.published_at


def test_revert_of_an_unpublished_set_is_refused(people):
    item = make_entry(by=people["author"]).id
    changeset = approved(people["author"], people["reviewer"], (item, "publish"))
    fails("VALIDATION_ERROR", publishing.changeset_revert, actor=people["editor"], id=changeset.id)


# --- listing --------------------------------------------------------------------------------------------------


def test_list_filters_by_state_and_pages_with_a_cursor(people):
    for i in range(3):
        services.changeset_create(actor=people["author"], title=f"Set {i}")
    item = make_entry(by=people["author"]).id
    submitted = proposal(people["author"], (item, "publish"), title="For review")
    services.changeset_submit(actor=people["author"], id=submitted.id)

    queue = selectors.changeset_list(actor=people["reviewer"], state="submitted")
    assert [s["id"] for s in queue["items"]] == [submitted.id]
    first = selectors.changeset_list(actor=people["reviewer"], limit=2)
    second = selectors.changeset_list(actor=people["reviewer"], limit=2, cursor=first["nextCursor"])
    seen = [s["id"] for s in first["items"] + second["items"]]
    assert len(seen) == len(set(seen)) == 4 and "nextCursor" not in second


# --- a draft-only token (SPEC 9.1) ----------------------------------------------------------------------------


def test_a_draft_only_token_proposes_but_never_reviews_or_publishes(people):
    draft_only = Actor.for_user(people["author"].user, ["content:read", "content:draft"])
    item = make_entry(by=draft_only, data={"title": "From an assistant"}).id
    changeset = proposal(draft_only, (item, "publish"))
    services.changeset_submit(actor=draft_only, id=changeset.id)
    assert selectors.changeset_get(actor=draft_only, id=changeset.id)["state"] == "submitted"
    editor_draft_only = Actor.for_user(people["reviewer"].user, ["content:draft"])
    exc = fails(
        "INSUFFICIENT_SCOPE", services.changeset_review, actor=editor_draft_only, id=changeset.id, decision="approve"
    )
    assert exc.details["requiredScope"] == "content:write"
    services.changeset_review(actor=people["reviewer"], id=changeset.id, decision="approve")
    fails("INSUFFICIENT_SCOPE", publishing.changeset_publish, actor=editor_draft_only, id=changeset.id)
    assert row(item).status == "draft"


def test_a_published_set_does_not_report_its_items_as_changed_since_pinned(people):
    """Publishing makes the pinned drafts live (an item then has no draft): that is no change to review again,
    and the Review screen must not tell anyone to submit a published set again."""
    author = people["author"]
    new, edited, gone = three_items(author)
    changeset = approved(author, people["reviewer"], (new, "publish"), (edited, "publish"), (gone, "delete"))
    assert not any(e["changedSincePinned"] for e in selectors.changeset_get(actor=author, id=changeset.id)["entries"])
    publishing.changeset_publish(actor=people["editor"], id=changeset.id)
    shown = selectors.changeset_get(actor=author, id=changeset.id)
    assert shown["state"] == "published"
    assert [e["changedSincePinned"] for e in shown["entries"]] == [False, False, False]
