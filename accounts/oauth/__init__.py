"""OAuth 2.1 authorization server: auth code + PKCE, device flow, refresh rotation, revocation, registration."""
