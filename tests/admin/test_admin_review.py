"""The Review screen (SPEC 9.2): the queue, per-entry diffs and problems, approve/reject with a comment, publish,
schedule and revert, each through the change set operations; live notices for change sets."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.utils import timezone

from admin_ui.live import GROUP
from audit.models import AuditLog
from content.changesets import services
from content.changesets.models import ChangeSet
from content.entries import services as entries
from content.schema import specs as schema
from emdash.actor import Actor
from emdash.roles import Role
from tests.factories import make_entry, make_user


def submitted_set(author: Any) -> tuple[str, str]:
    by = Actor.for_user(author)
    item = make_entry(by=by, data={"title": "Live words"}, status="published").id
    entries.entry_update(actor=by, collection="posts", id=item, data={"title": "Better words"})
    changeset = services.changeset_create(actor=by, title="Copy edits")
    services.changeset_add(actor=by, id=changeset.id, collection="posts", item=item)
    services.changeset_submit(actor=by, id=changeset.id)
    return changeset.id, item


def test_the_queue_lists_submitted_sets_and_the_detail_shows_the_diff(posts, as_role):
    changeset_id, item = submitted_set(make_user(Role.AUTHOR))
    client, _ = as_role("editor")
    page = client.get("/_emdash/admin/review/")
    assert page.status_code == 200 and "Copy edits" in page.content.decode()
    detail = client.get(f"/_emdash/admin/review/{changeset_id}/").content.decode()
    assert "Live words" in detail and "Better words" in detail and "Approve" in detail
    assert f"/posts/{schema.get_collection('posts').model.objects.get(pk=item).slug}/" in detail


def test_approve_with_a_comment_then_publish_from_the_screen(posts, as_role):
    changeset_id, item = submitted_set(make_user(Role.AUTHOR))
    client, _ = as_role("editor")
    url = f"/_emdash/admin/review/{changeset_id}/"
    assert client.post(url + "approve/", {"comment": "Looks right"}).status_code == 302
    changeset = ChangeSet.objects.get(id=changeset_id)
    assert (changeset.state, changeset.comment) == ("approved", "Looks right")
    client.post(url + "publish/")
    assert ChangeSet.objects.get(id=changeset_id).state == "published"
    assert AuditLog.objects.filter(action="changeset_publish", source="admin", target=f"posts/{item}").exists()
    client.post(url + "revert/")
    assert schema.get_collection("posts").model.objects.get(pk=item).draft_revision_id is None
    assert ChangeSet.objects.get(id=changeset_id).reverted_at is not None


def test_a_set_reverted_whole_offers_no_revert_button_and_says_so(posts, as_role):
    # Before, a set taken back in full still showed "Revert" (which could only fail: nothing is left to take back)
    # under a "published" badge.
    changeset_id, _item = submitted_set(make_user(Role.AUTHOR))
    client, _ = as_role("editor")
    url = f"/_emdash/admin/review/{changeset_id}/"
    client.post(url + "approve/")
    client.post(url + "publish/")
    assert ">Revert</button>" in client.get(url).content.decode()
    client.post(url + "revert/")
    page = client.get(url).content.decode()
    assert ">Revert</button>" not in page
    assert "reverted" in page


def test_the_author_cannot_approve_their_own_set_from_the_screen(posts, as_role):
    client, editor = as_role("editor")
    changeset_id, _ = submitted_set(editor)
    response = client.post(f"/_emdash/admin/review/{changeset_id}/approve/", follow=True)
    assert ChangeSet.objects.get(id=changeset_id).state == "submitted"
    assert "someone other than its creator" in response.content.decode()


def test_schedule_from_the_screen(posts, as_role):
    changeset_id, _ = submitted_set(make_user(Role.AUTHOR))
    client, _ = as_role("editor")
    client.post(f"/_emdash/admin/review/{changeset_id}/approve/")
    when = (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    client.post(f"/_emdash/admin/review/{changeset_id}/schedule/", {"scheduled_at": when})
    assert ChangeSet.objects.get(id=changeset_id).scheduled_at is not None


def test_subscribers_do_not_see_the_review_screen(posts, as_role):
    client, _ = as_role("subscriber")
    assert client.get("/_emdash/admin/review/").status_code == 403


def test_a_change_set_event_is_broadcast_to_admin_pages(posts):
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(GROUP, channel)
    changeset_id, _ = submitted_set(make_user(Role.AUTHOR))
    messages = []
    while len(messages) < 10:
        message = async_to_sync(layer.receive)(channel)
        messages.append(message)
        if message["collection"] == "changesets":
            break
    assert (messages[-1]["id"], messages[-1]["action"]) == (changeset_id, "submitted")


def test_self_approval_is_a_checkbox_of_the_admins_settings(posts, as_role):
    from settings_app.selectors import stored

    client, _ = as_role("admin")
    page = client.get("/_emdash/admin/settings/").content.decode()
    assert 'name="changesetsSelfApprove"' in page
    client.post(
        "/_emdash/admin/settings/", {"title": "Site", "changesetsSelfApprove.sent": "1", "changesetsSelfApprove": "1"}
    )
    assert stored().get("changesetsSelfApprove") is True
    client.post("/_emdash/admin/settings/", {"title": "Site", "changesetsSelfApprove.sent": "1"})
    assert "changesetsSelfApprove" not in stored()
