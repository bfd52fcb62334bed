"""Content entries: rows and their writes, drafts, revisions, publishing and scheduling, translations,
slugs, SEO, previews and share links, list filters, and the content operations with their inputs,
presenters and outputs."""
