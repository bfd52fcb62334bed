"""The content schema: collections and their fields as registry rows, immutable specs and per-collection model
classes, the DDL that makes each a real table or column, value checks against a field, and the schema
operations (field types themselves: ``content.field_types``)."""
