"""Accounts: users and their roles, personal access tokens, bearer authentication, the token cache, and the
OAuth 2.1 server with its device flow (``accounts.oauth``)."""
