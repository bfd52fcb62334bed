"""The guide every client receives at initialize/discover, written for the model reading it."""

INSTRUCTIONS = """\
EmDash is a headless CMS. Content lives in collections (e.g. posts, pages); each collection has typed fields.
- Call schema_list_collections, then schema_get_collection before writing: content data keys must be the field slugs,
  and values must match the field types (portableText is an array of blocks with _type; image/file are {"id": mediaId};
  reference is the id of an item in the target collection).
- Items are addressed by id (a 26-character ULID) or by slug; ids are stable, slugs can change. Pass locale with a slug
  when the site has several locales.
- content_create makes a draft unless status is "published". Editing a published item creates a draft that goes live
  only on content_publish; content_compare shows the difference, content_discard_draft drops it.
- content_get returns _rev. Pass it to content_update so the write is refused (CONFLICT) if the item changed meanwhile;
  then fetch it again and reapply your change.
- content_delete moves an item to the trash (content_restore undoes it). content_permanent_delete is irreversible.
- List results are paginated: pass nextCursor back as cursor to get the next page.
- Errors carry a stable code in _meta.code (NOT_FOUND, VALIDATION_ERROR with every bad field named, CONFLICT...).
"""
