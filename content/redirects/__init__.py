"""Redirects: the public site's 301s, kept collapsed and loop-free, and their operations."""
