"""Change sets (SPEC 9.2): pending changes to content items, reviewed and made live together."""
