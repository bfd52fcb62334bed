"""The guide every client receives at initialize/discover, written for the model reading it."""

INSTRUCTIONS = """\
EmDash is a headless CMS. Content lives in collections (e.g. posts, pages); each collection has typed fields.
- Before writing, learn the collection's fields: schema_get_collection (needs the schema:read scope and the editor
  role), or else content_list/content_get on that collection to see the data keys of existing items. Content data keys
  are field slugs; values must match the field types (portableText takes Markdown or blocks with _type; image/file are
  {"id": mediaId}; reference is the id of an item in the target collection). schema_list_collections lists the
  collections (schema:read); without it, a content tool given an unknown collection answers COLLECTION_NOT_FOUND
  naming the existing ones.
- Items are addressed by id (a 26-character ULID) or by slug; ids are stable, slugs can change. Pass locale with a slug
  when the site has several locales.
- content_create makes a draft unless status is "published". Editing a published item creates a draft that goes live
  only on content_publish; content_compare shows the difference, content_discard_draft drops it.
- content_get returns _rev. Pass it to content_update so the write is refused (CONFLICT) if the item changed meanwhile;
  then fetch it again and reapply your change.
- content_delete moves an item to the trash (content_restore undoes it). content_permanent_delete is irreversible.
- List results are paginated: pass nextCursor back as cursor to get the next page.
- Errors carry a stable code in _meta.code (NOT_FOUND, VALIDATION_ERROR with every bad field named, CONFLICT...).
- Each tool's description ends with what it needs, e.g. "Needs content:write (author+)": a token scope and the
  minimum role.
- A refusal says what would work: "Insufficient scope: requires X" means the user must re-authorise (or use a token)
  with scope X; "Insufficient permissions: ..." names the role needed, which only an administrator can grant. Do not
  retry either unchanged.
- A content:draft token writes drafts only: it never publishes, unpublishes, schedules or deletes. Leave those to a
  person, or propose them in a change set (changeset_create, changeset_add, changeset_submit), instead of asking for
  content:write.
"""
