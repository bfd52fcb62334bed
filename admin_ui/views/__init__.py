"""Admin views, one module per area of the admin."""
