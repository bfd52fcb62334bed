"""The audit log: its table, the writers that fill it and the admins' read of it."""
